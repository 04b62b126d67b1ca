/*
 * Unit tests for the store's "leases" area: site leases for many
 * workers and per-address budgets. Every store test runs on both backends:
 * meson runs this program a second time with a PostgreSQL cluster
 * (unit.store_leases_pg), each test on a database of its own; there, real
 * processes with connections of their own also claim at once, and the
 * claim's plan is checked on a table large enough for the planner to
 * prefer the index for real.
 */
#include "pg_test.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "heed/store_leases.h"
#include "store/grams-int.h"

#define MAX_SEEN 16

/* What a claim or get handed over, copied. */
struct seen {
	int n;
	char site[MAX_SEEN][64];
	char holder[MAX_SEEN][32];
	/* taken_from, copied ("" for NULL: taken[i] false). */
	char taken_from[MAX_SEEN][32];
	bool taken[MAX_SEEN];
	struct heed_site_lease l[MAX_SEEN];
};

static int keep(void *ud, const struct heed_site_lease *l)
{
	struct seen *s = ud;

	assert_true(s->n < MAX_SEEN);
	snprintf(s->site[s->n], sizeof(s->site[0]), "%s", l->site);
	snprintf(s->holder[s->n], sizeof(s->holder[0]), "%s",
	         l->holder ? l->holder : "");
	snprintf(s->taken_from[s->n], sizeof(s->taken_from[0]), "%s",
	         l->taken_from ? l->taken_from : "");
	s->taken[s->n] = l->taken_from != NULL;
	s->l[s->n++] = *l;
	return 0;
}

static struct seen claim(heed_store *s, const char *holder, int64_t now,
                         int64_t lease, int max)
{
	struct seen got = {0};

	assert_int_equal(
	        heed_store_lease_claim(s, holder, now, lease, max, keep, &got),
	        HEED_OK);
	return got;
}

static struct heed_site_lease get(heed_store *s, const char *site)
{
	struct seen got = {0};

	assert_int_equal(heed_store_lease_get(s, site, keep, &got), HEED_OK);
	assert_int_equal(got.n, 1);
	return got.l[0];
}

/* A fencing write of holder's token on site at now: whether the lease
 * held. */
static bool started(heed_store *s, const char *site, const char *holder,
                    int64_t token, int64_t now)
{
	bool held = false;

	assert_int_equal(heed_store_lease_record_start(s, site, holder, token,
	                                               now, &held),
	                 HEED_OK);
	return held;
}

static bool renewed(heed_store *s, const char *site, const char *holder,
                    int64_t token, int64_t now, int64_t lease)
{
	bool held = false;

	assert_int_equal(heed_store_lease_renew(s, site, holder, token, now,
	                                        lease, &held),
	                 HEED_OK);
	return held;
}

static bool released(heed_store *s, const char *site, const char *holder,
                     int64_t token, int64_t next)
{
	bool held = false;

	assert_int_equal(heed_store_lease_release(s, site, holder, token, 0,
	                                          next, &held),
	                 HEED_OK);
	return held;
}

/* The pure policy: fetch only while a request started now ends inside the
 * lease; renew at half the lease; a new holder waits out the delay. */
static void test_policy(void **state)
{
	(void)state;
	assert_true(heed_lease_may_fetch(10000, 1000, 5000));
	assert_false(heed_lease_may_fetch(10000, 5000, 5000));
	assert_false(heed_lease_may_fetch(10000, 12000, 0));
	assert_false(heed_lease_may_fetch(0, 1000, INT64_MAX / 2));
	assert_false(heed_lease_renew_due(10000, 1000, 10000, 1000));
	assert_true(heed_lease_renew_due(10000, 5001, 10000, 1000));
	assert_true(heed_lease_renew_due(10000, 9500, 100000, 1000));
	assert_int_equal(heed_lease_start_at(1000, 0, 5000), 1000);
	assert_int_equal(heed_lease_start_at(1000, 900, 5000), 5900);
	assert_int_equal(heed_lease_start_at(9000, 900, 5000), 9000);
}

static void test_arguments(void **state)
{
	heed_store *s = heed_test_store_fresh();
	bool held = true, taken = true;
	struct seen got = {0};
	struct heed_lease_beat b = {.live = -1};

	(void)state;
	assert_int_equal(heed_store_lease_ensure(s, NULL, 0, 0), HEED_EINVAL);
	assert_int_equal(heed_store_lease_ensure(s, "https://a.example", -1, 0),
	                 HEED_EINVAL);
	assert_int_equal(heed_store_lease_claim(s, "", 0, 1, 1, keep, &got),
	                 HEED_EINVAL);
	assert_int_equal(heed_store_lease_claim(s, "w", 0, 1, 0, keep, &got),
	                 HEED_EINVAL);
	assert_int_equal(heed_store_lease_claim(s, "w", 0, 0, 1, keep, &got),
	                 HEED_EINVAL);
	assert_int_equal(heed_store_lease_renew(s, "x", NULL, 1, 0, 1, &held),
	                 HEED_EINVAL);
	assert_false(held);
	assert_int_equal(heed_store_address_take(s, "", 1, 0, &taken, NULL),
	                 HEED_EINVAL);
	assert_false(taken);
	assert_int_equal(heed_store_lease_worker_beat(s, NULL, 0, 1, &b),
	                 HEED_EINVAL);
	assert_int_equal(heed_store_lease_worker_beat(s, "w", 0, 0, &b),
	                 HEED_EINVAL);
	assert_int_equal(b.live, 0);
	assert_int_equal(heed_store_lease_worker_leave(s, ""), HEED_EINVAL);
	heed_store_close(s);
}

/* A claim grants at most max sites, never one whose lease is alive nor
 * one not due yet. (Earliest due first holds on SQLite; on PostgreSQL
 * within a partition only, so the claim here finds exactly three due.) */
static void test_claim_max_and_alive(void **state)
{
	heed_store *s = heed_test_store_fresh();
	struct heed_lease_counts c;
	struct seen got;
	char site[64];

	(void)state;
	for (int i = 0; i < 5; i++) {
		snprintf(site, sizeof(site), "https://s%d.example", i);
		assert_int_equal(
		        heed_store_lease_ensure(s, site, 1000, 1000 - 10 * i),
		        HEED_OK);
	}
	assert_int_equal(heed_store_lease_ensure(s, "https://later.example",
	                                         1000, 50000),
	                 HEED_OK);
	assert_int_equal(heed_store_lease_ensure(s, "https://idle.example",
	                                         1000, HEED_LEASE_IDLE),
	                 HEED_OK);
	got = claim(s, "w1", 980, 11020, 3);
	assert_int_equal(got.n, 3);
	for (int i = 0; i < got.n; i++) {
		/* s4, s3, s2: the only ones due. */
		assert_true(strcmp(got.site[i], "https://s2.example") == 0 ||
		            strcmp(got.site[i], "https://s3.example") == 0 ||
		            strcmp(got.site[i], "https://s4.example") == 0);
		assert_string_equal(got.holder[i], "w1");
		assert_int_equal(got.l[i].token, 1);
		assert_int_equal(got.l[i].lease_until, 12000);
		assert_int_equal(got.l[i].start_at, 980);
	}
	assert_int_equal(heed_store_lease_counts(s, 2000, &c), HEED_OK);
	assert_int_equal(c.sites, 7);
	assert_int_equal(c.held, 3);
	assert_int_equal(c.claimable, 2);
	assert_int_equal(c.idle, 1);
	got = claim(s, "w2", 2000, 10000, 10);
	assert_int_equal(got.n, 2);
	got = claim(s, "w3", 11999, 10000, 10);
	assert_int_equal(got.n, 0);
	/* Ensuring a held site changes its delay, never its holder. */
	assert_int_equal(
	        heed_store_lease_ensure(s, "https://s0.example", 500, 0),
	        HEED_OK);
	got = claim(s, "w3", 11999, 10000, 10);
	assert_int_equal(got.n, 0);
	assert_int_equal(get(s, "https://s0.example").delay_ms, 500);
	heed_store_close(s);
}

/* A lease expires unrenewed: another worker takes the site over with a new
 * token, starting no sooner than the delay after the last recorded start;
 * every write of the old holder is refused from then on. */
static void test_takeover_and_fencing(void **state)
{
	const char *a = "https://a.example";
	heed_store *s = heed_test_store_fresh();
	struct seen got;

	(void)state;
	assert_int_equal(heed_store_lease_ensure(s, a, 20000, 0), HEED_OK);
	got = claim(s, "old", 1000, 10000, 5);
	assert_int_equal(got.n, 1);
	assert_true(started(s, a, "old", 1, 2000));
	assert_true(renewed(s, a, "old", 1, 5000, 10000));
	assert_int_equal(get(s, a).lease_until, 15000);
	/* Renewed: still held at 12000. */
	assert_int_equal(claim(s, "new", 12000, 10000, 5).n, 0);
	/* The old holder is cut off: an expired lease refuses its writes
	 * even before anyone takes the site over. */
	assert_false(started(s, a, "old", 1, 15000));
	assert_false(renewed(s, a, "old", 1, 15000, 10000));
	got = claim(s, "new", 15000, 10000, 5);
	assert_int_equal(got.n, 1);
	assert_int_equal(got.l[0].token, 2);
	assert_int_equal(got.l[0].last_request_start, 2000);
	assert_int_equal(got.l[0].start_at, 22000);
	/* Token fencing: the old token is refused at every write, the new
	 * one accepted. */
	assert_false(started(s, a, "old", 1, 16000));
	assert_false(released(s, a, "old", 1, 0));
	/* The same holder name with an old token is another lease. */
	assert_false(started(s, a, "new", 1, 16000));
	assert_true(started(s, a, "new", 2, 22000));
	assert_int_equal(get(s, a).last_request_start, 22000);
	assert_int_equal(claim(s, "x", 24999, 1, 1).n, 0);
	assert_true(released(s, a, "new", 2, 42000));
	assert_null(get(s, a).holder);
	/* Released: due at 42000, not before; the next holder's start keeps
	 * the delay (22000 + 20000). */
	assert_int_equal(claim(s, "third", 41999, 1000, 1).n, 0);
	got = claim(s, "third", 42000, 1000, 1);
	assert_int_equal(got.n, 1);
	assert_int_equal(got.l[0].token, 3);
	assert_int_equal(got.l[0].start_at, 42000);
	heed_store_close(s);
}

/* site's holder ("" none), copied: get's strings do not outlive it. */
static const char *holder_of(heed_store *s, const char *site)
{
	static struct seen got;

	memset(&got, 0, sizeof(got));
	assert_int_equal(heed_store_lease_get(s, site, keep, &got), HEED_OK);
	assert_int_equal(got.n, 1);
	return got.holder[0];
}

static struct heed_lease_beat beat_of(heed_store *s, const char *holder,
                                      int64_t now, int64_t ttl)
{
	struct heed_lease_beat b;

	assert_int_equal(heed_store_lease_worker_beat(s, holder, now, ttl, &b),
	                 HEED_OK);
	return b;
}

/* The live workers a beat counts. */
static int64_t beat(heed_store *s, const char *holder, int64_t now, int64_t ttl)
{
	return beat_of(s, holder, now, ttl).live;
}

/* Whether got holds site. */
static bool has(const struct seen *got, const char *site)
{
	for (int i = 0; i < got->n; i++)
		if (strcmp(got->site[i], site) == 0)
			return true;
	return false;
}

/* A store at a location the test can read past it (a SQLite file, or a
 * fresh PostgreSQL database). */
static heed_store *store_at(char *location, size_t size, const char *name)
{
	heed_store *s = NULL;

	if (heed_test_pg())
		heed_test_pg_fresh(location, size);
	else
		snprintf(location, size, "%s/%s.db", heed_test_dir(), name);
	assert_int_equal(
	        heed_store_open(&s, location, heed_test_allocator(), NULL),
	        HEED_OK);
	return s;
}

/* site's lease_until as its row has it, read past the store. */
static int64_t row_until(const char *location, const char *site)
{
	char sql[160];

	snprintf(sql, sizeof(sql),
	         "SELECT lease_until FROM site_leases WHERE site = '%s';",
	         site);
	return heed_test_store_int(location, sql);
}

/* The heartbeat is every lease of its holder: one beat renews them all
 * without writing a site's row; a dead heartbeat's leases are taken over,
 * a live one's never; a heartbeat that ended and beats again starts a new
 * epoch, whose leases the old epoch's are not, taken over or not. */
static void test_heartbeat_renews(void **state)
{
	const char *a = "https://a.example", *b = "https://b.example",
	           *c = "https://c.example", *d = "https://d.example",
	           *e = "https://e.example";
	char location[256];
	heed_store *s = store_at(location, sizeof(location), "heartbeat");
	struct heed_lease_beat hb;
	struct seen got;

	(void)state;
	assert_int_equal(heed_store_lease_ensure(s, a, 1000, 0), HEED_OK);
	assert_int_equal(heed_store_lease_ensure(s, b, 1000, 0), HEED_OK);
	assert_int_equal(heed_store_lease_ensure(s, c, 1000, 1000), HEED_OK);
	assert_int_equal(heed_store_lease_ensure(s, d, 1000, 1500), HEED_OK);
	assert_int_equal(claim(s, "w1", 999, 10001, 2).n, 2); /* a, b */
	got = claim(s, "w2", 1000, 10000, 1);                 /* c */
	assert_int_equal(got.n, 1);
	assert_string_equal(got.site[0], c);
	assert_int_equal(got.l[0].epoch, 0);
	assert_int_equal(get(s, a).next_allowed_at, HEED_LEASE_HELD);
	/* One beat: w1's leases to 25000, its sites' rows untouched. */
	hb = beat_of(s, "w1", 5000, 20000);
	assert_int_equal(hb.epoch, 0);
	assert_int_equal(hb.alive_until, 25000);
	assert_int_equal(hb.live, 2);
	assert_int_equal(get(s, a).lease_until, 25000);
	assert_int_equal(get(s, b).lease_until, 25000);
	assert_int_equal(row_until(location, a), 11000);
	assert_int_equal(row_until(location, b), 11000);
	assert_int_equal(get(s, c).lease_until, 11000);
	/* A heartbeat never moves back: a shorter beat keeps 25000. */
	assert_int_equal(beat_of(s, "w1", 6000, 1000).alive_until, 25000);
	/* After w2's end (11000), w3 takes c over and claims d; a and b stay
	 * w1's, and w1's token still writes. */
	got = claim(s, "w3", 12000, 10000, 5);
	assert_int_equal(got.n, 2);
	assert_true(has(&got, c));
	assert_true(has(&got, d));
	assert_false(has(&got, a));
	assert_true(started(s, a, "w1", 1, 12000));
	assert_false(started(s, c, "w2", 1, 12000));
	assert_string_equal(holder_of(s, c), "w3");
	assert_int_equal(beat_of(s, "w3", 20000, 10000).alive_until, 30000);
	/* w1 dies at 25000: w3 takes a and b over, ending w1's epoch, so a
	 * beat of w1 sent before its death (its clock 24000) and arriving
	 * now learns epoch 1, not the 0 its leases are of; back at 26000 it
	 * is still in epoch 1, and its old token is refused. */
	got = claim(s, "w3", 25000, 10000, 5);
	assert_int_equal(got.n, 2);
	assert_int_equal(got.l[0].token, 2);
	assert_string_equal(got.taken_from[0], "w1");
	assert_int_equal(beat_of(s, "w1", 24000, 10000).epoch, 1);
	hb = beat_of(s, "w1", 26000, 10000);
	assert_int_equal(hb.epoch, 1);
	assert_false(started(s, a, "w1", 1, 26000));
	assert_true(started(s, a, "w3", 2, 26000));
	/* w1 claims e in epoch 1, then stops beating past its end (36000)
	 * and comes back (epoch 2): nobody took e, yet its lease ended: it
	 * shows the end it was granted with, refuses w1's start, and is
	 * claimable though w1 lives. */
	assert_int_equal(heed_store_lease_ensure(s, e, 1000, 0), HEED_OK);
	got = claim(s, "w1", 26000, 10000, 1);
	assert_int_equal(got.n, 1);
	assert_int_equal(got.l[0].epoch, hb.epoch);
	assert_true(started(s, e, "w1", 1, 30000));
	assert_int_equal(beat_of(s, "w1", 40000, 10000).epoch, hb.epoch + 1);
	assert_int_equal(get(s, e).lease_until, 36000);
	assert_false(started(s, e, "w1", 1, 40000));
	assert_false(renewed(s, e, "w1", 1, 40000, 10000));
	/* w3 is dead too by now: w4 takes its three sites and e. */
	got = claim(s, "w4", 40000, 10000, 5);
	assert_int_equal(got.n, 5);
	assert_true(has(&got, e));
	assert_string_equal(holder_of(s, e), "w4");
	assert_int_equal(get(s, e).last_request_start, 30000);
	heed_store_close(s);
}

/* Rows in lease_workers, read past the store (the deleting is not
 * visible through its functions). */
static int64_t worker_rows(const char *location)
{
	return heed_test_store_int(location,
	                           "SELECT count(*) FROM lease_workers;");
}

/* The heartbeat counts the workers alive, the beater among them; one that
 * stopped beating drops out when its time is up, one that left at once,
 * and one gone for over an hour has its row deleted. */
static void test_worker_beat(void **state)
{
	char location[256];
	heed_store *s = NULL;

	(void)state;
	if (heed_test_pg())
		heed_test_pg_fresh(location, sizeof(location));
	else
		snprintf(location, sizeof(location), "%s/beat.db",
		         heed_test_dir());
	assert_int_equal(
	        heed_store_open(&s, location, heed_test_allocator(), NULL),
	        HEED_OK);
	assert_int_equal(beat(s, "w1", 1000, 5000), 1);
	assert_int_equal(beat(s, "w2", 2000, 5000), 2);
	assert_int_equal(beat(s, "w1", 6500, 5000), 2);
	/* w2 alive until 7000: gone at 7000. */
	assert_int_equal(beat(s, "w1", 7000, 5000), 1);
	assert_int_equal(beat(s, "w2", 7500, 5000), 2);
	assert_int_equal(heed_store_lease_worker_leave(s, "w2"), HEED_OK);
	assert_int_equal(beat(s, "w1", 8000, 5000), 1);
	/* Leaving twice, or never having beaten, is no error. */
	assert_int_equal(heed_store_lease_worker_leave(s, "w2"), HEED_OK);
	assert_int_equal(beat(s, "w3", 9000, 1000), 2);
	assert_int_equal(worker_rows(location), 2);
	/* w3 was alive until 10000: its row stays for an hour after, then
	 * the next beat deletes it. */
	assert_int_equal(beat(s, "w1", 3610000, 5000), 1);
	assert_int_equal(worker_rows(location), 2);
	assert_int_equal(beat(s, "w1", 3610001, 5000), 1);
	assert_int_equal(worker_rows(location), 1);
	/* A worker back after more than an hour beats again, its own row
	 * renewed, not deleted. */
	assert_int_equal(beat(s, "w1", 9000000, 5000), 1);
	assert_int_equal(worker_rows(location), 1);
	heed_store_close(s);
}

/* Released sites come back at the time they were released to; an idle
 * site only when ensure brings its due time back. */
static void test_release_order_and_idle(void **state)
{
	const char *a = "https://a.example", *b = "https://b.example";
	heed_store *s = heed_test_store_fresh();
	struct seen got;

	(void)state;
	assert_int_equal(heed_store_lease_ensure(s, a, 0, 0), HEED_OK);
	assert_int_equal(heed_store_lease_ensure(s, b, 0, 0), HEED_OK);
	got = claim(s, "w", 100, 1000, 2);
	assert_int_equal(got.n, 2);
	assert_true(released(s, a, "w", 1, 5000));
	assert_true(released(s, b, "w", 1, 3000));
	got = claim(s, "w", 4000, 1000, 1);
	assert_int_equal(got.n, 1);
	assert_string_equal(got.site[0], b);
	assert_true(released(s, b, "w", 2, HEED_LEASE_IDLE));
	got = claim(s, "w", 6000, 1000, 5);
	assert_int_equal(got.n, 1);
	assert_string_equal(got.site[0], a);
	assert_true(released(s, a, "w", 2, HEED_LEASE_IDLE));
	assert_int_equal(claim(s, "w", 1000000, 1000, 5).n, 0);
	assert_int_equal(heed_store_lease_ensure(s, b, 0, 9000), HEED_OK);
	assert_int_equal(claim(s, "w", 8999, 1000, 5).n, 0);
	got = claim(s, "w", 9000, 1000, 5);
	assert_int_equal(got.n, 1);
	assert_string_equal(got.site[0], b);
	/* Work added while b is held (lease until 10000); the holder, having
	 * found its queue empty before, releases b idle: b wakes at the due
	 * time asked for, not never. */
	assert_int_equal(heed_store_lease_ensure(s, b, 0, 9500), HEED_OK);
	assert_int_equal(claim(s, "v", 9600, 1000, 5).n, 0);
	assert_true(released(s, b, "w", 3, HEED_LEASE_IDLE));
	assert_int_equal(get(s, b).next_allowed_at, 9500);
	got = claim(s, "v", 9600, 1000, 5);
	assert_int_equal(got.n, 1);
	/* Taken up by that claim: the next idle release is idle. */
	assert_true(released(s, b, "v", 4, HEED_LEASE_IDLE));
	assert_int_equal(get(s, b).next_allowed_at, HEED_LEASE_IDLE);
	heed_store_close(s);
}

/* A release records the holder's last start with it, when later than the
 * one recorded; the next holder waits a delay from there; a refused
 * release (an old token) records nothing. */
static void test_release_records_last_start(void **state)
{
	const char *a = "https://a.example";
	heed_store *s = heed_test_store_fresh();
	struct seen got;
	bool held = true;

	(void)state;
	assert_int_equal(heed_store_lease_ensure(s, a, 1000, 0), HEED_OK);
	assert_int_equal(claim(s, "w", 100, 10000, 1).n, 1);
	assert_true(started(s, a, "w", 1, 2000));
	assert_int_equal(
	        heed_store_lease_release(s, a, "w", 1, 3000, 3000, &held),
	        HEED_OK);
	assert_true(held);
	assert_int_equal(get(s, a).last_request_start, 3000);
	got = claim(s, "v", 3100, 10000, 1);
	assert_int_equal(got.n, 1);
	assert_int_equal(got.l[0].start_at, 4000);
	/* An earlier start than the one recorded leaves it. */
	assert_true(started(s, a, "v", 2, 5000));
	assert_int_equal(heed_store_lease_release(s, a, "v", 2, 4500,
	                                          HEED_LEASE_IDLE, &held),
	                 HEED_OK);
	assert_true(held);
	assert_int_equal(get(s, a).last_request_start, 5000);
	/* The old token: refused, nothing recorded. */
	assert_int_equal(heed_store_lease_release(s, a, "w", 1, 9000,
	                                          HEED_LEASE_IDLE, &held),
	                 HEED_OK);
	assert_false(held);
	assert_int_equal(get(s, a).last_request_start, 5000);
	assert_int_equal(heed_store_lease_release(s, a, "v", 2, -1,
	                                          HEED_LEASE_IDLE, &held),
	                 HEED_EINVAL);
	heed_store_close(s);
}

/* Releases in one call: each as heed_store_lease_release would, a stale
 * token refused alone, the last starts and next times each its own. */
static void test_release_all(void **state)
{
	const char *a = "https://a.example", *b = "https://b.example",
	           *c = "https://c.example";
	heed_store *s = heed_test_store_fresh();
	struct heed_lease_release r[3] = {
	        {a, 1, 3000, 3000, false},
	        {b, 7, 3100, 3100, true},
	        {c, 1, 0, HEED_LEASE_IDLE, false},
	};
	struct heed_lease_release bad = {"x\ny", 1, 0, 0, false};

	(void)state;
	assert_int_equal(heed_store_lease_ensure(s, a, 1000, 0), HEED_OK);
	assert_int_equal(heed_store_lease_ensure(s, b, 1000, 0), HEED_OK);
	assert_int_equal(heed_store_lease_ensure(s, c, 1000, 0), HEED_OK);
	assert_int_equal(claim(s, "w", 100, 10000, 3).n, 3);
	assert_int_equal(heed_store_lease_release_all(s, "w", r, 3), HEED_OK);
	assert_true(r[0].held);
	assert_false(r[1].held);
	assert_true(r[2].held);
	assert_string_equal(holder_of(s, a), "");
	assert_int_equal(get(s, a).last_request_start, 3000);
	assert_int_equal(get(s, a).next_allowed_at, 3000);
	assert_string_equal(holder_of(s, b), "w");
	assert_int_equal(get(s, b).last_request_start, 0);
	assert_string_equal(holder_of(s, c), "");
	assert_int_equal(get(s, c).next_allowed_at, HEED_LEASE_IDLE);
	/* Released already: refused, nothing recorded. */
	r[0].last_start_ms = 9000;
	assert_int_equal(heed_store_lease_release_all(s, "w", r, 1), HEED_OK);
	assert_false(r[0].held);
	assert_int_equal(get(s, a).last_request_start, 3000);
	assert_int_equal(heed_store_lease_release_all(s, "w", &bad, 1),
	                 HEED_EINVAL);
	assert_int_equal(heed_store_lease_release_all(s, "", r, 1),
	                 HEED_EINVAL);
	assert_int_equal(heed_store_lease_release_all(s, "w", r, 0), HEED_OK);
	heed_store_close(s);
}

/* The origins a listing handed over, copied. */
struct origins {
	int n, stop_after; /* stop_after: stop at that call (0 never) */
	char site[MAX_SEEN][64];
	char origin[MAX_SEEN][64];
};

static int keep_origin(void *ud, const char *site, const char *origin)
{
	struct origins *o = ud;

	assert_true(o->n < MAX_SEEN);
	assert_non_null(site);
	assert_non_null(origin);
	snprintf(o->site[o->n], sizeof(o->site[0]), "%s", site);
	snprintf(o->origin[o->n], sizeof(o->origin[0]), "%s", origin);
	return ++o->n == o->stop_after;
}

static struct origins origins_of(heed_store *s, const char *site)
{
	struct origins got = {0};

	assert_int_equal(
	        heed_store_lease_origins(s, &site, 1, keep_origin, &got),
	        HEED_OK);
	for (int i = 0; i < got.n; i++)
		assert_string_equal(got.site[i], site);
	return got;
}

/* ensure_origin makes the lease row ensure would (the host's, with its
 * delay and due time) and notes each origin of the host once; the
 * listing gives one host's origins only, in byte order; a callback that
 * stops is not called again. */
static void test_ensure_origin(void **state)
{
	const char *a = "a.example", *b = "b.example";
	heed_store *s = heed_test_store_fresh();
	struct heed_site_lease l;
	struct heed_lease_counts c;
	struct origins got;

	(void)state;
	assert_int_equal(heed_store_lease_ensure_origin(
	                         s, a, "https://a.example", 1500, 2000),
	                 HEED_OK);
	l = get(s, a);
	assert_int_equal(l.delay_ms, 1500);
	assert_int_equal(l.next_allowed_at, 2000);
	assert_int_equal(l.token, 0);
	assert_null(l.holder);
	/* The same origin again: one row, the delay and due time as ensure
	 * sets them. */
	assert_int_equal(heed_store_lease_ensure_origin(
	                         s, a, "https://a.example", 700, 1000),
	                 HEED_OK);
	l = get(s, a);
	assert_int_equal(l.delay_ms, 700);
	assert_int_equal(l.next_allowed_at, 1000);
	got = origins_of(s, a);
	assert_int_equal(got.n, 1);
	assert_string_equal(got.origin[0], "https://a.example");
	/* More origins of a, noted out of order, and one of b. */
	assert_int_equal(heed_store_lease_ensure_origin(
	                         s, a, "https://a.example:8443", 700, 1000),
	                 HEED_OK);
	assert_int_equal(heed_store_lease_ensure_origin(
	                         s, b, "http://b.example:8080", 900, 1000),
	                 HEED_OK);
	assert_int_equal(heed_store_lease_ensure_origin(
	                         s, a, "http://a.example", 700, 1000),
	                 HEED_OK);
	assert_int_equal(heed_store_lease_counts(s, 1000, &c), HEED_OK);
	assert_int_equal(c.sites, 2);
	got = origins_of(s, a);
	assert_int_equal(got.n, 3);
	/* Byte order: ':' (0x3a) before 's', and a prefix first. */
	assert_string_equal(got.origin[0], "http://a.example");
	assert_string_equal(got.origin[1], "https://a.example");
	assert_string_equal(got.origin[2], "https://a.example:8443");
	got = origins_of(s, b);
	assert_int_equal(got.n, 1);
	assert_string_equal(got.origin[0], "http://b.example:8080");
	assert_int_equal(get(s, b).delay_ms, 900);
	/* A host nobody noted: no call at all. */
	assert_int_equal(origins_of(s, "c.example").n, 0);
	/* Several hosts in one listing: in the order asked, each host's
	 * origins in byte order, none for a host nobody noted. */
	{
		const char *const hosts[] = {b, "c.example", a};
		got = (struct origins){0};
		assert_int_equal(heed_store_lease_origins(s, hosts, 3,
		                                          keep_origin, &got),
		                 HEED_OK);
		assert_int_equal(got.n, 4);
		assert_string_equal(got.site[0], b);
		assert_string_equal(got.origin[0], "http://b.example:8080");
		for (int i = 1; i < 4; i++)
			assert_string_equal(got.site[i], a);
		assert_string_equal(got.origin[1], "http://a.example");
		assert_string_equal(got.origin[3], "https://a.example:8443");
	}
	/* A callback that stops at the first origin sees only that one. */
	got = (struct origins){.stop_after = 1};
	assert_int_equal(heed_store_lease_origins(s, &a, 1, keep_origin, &got),
	                 HEED_OK);
	assert_int_equal(got.n, 1);
	assert_string_equal(got.origin[0], "http://a.example");
	/* An origin noted for a held host leaves it with its holder, as
	 * ensure does. */
	assert_int_equal(claim(s, "w1", 1000, 10000, 5).n, 2);
	assert_int_equal(heed_store_lease_ensure_origin(
	                         s, a, "https://a.example:9443", 700, 0),
	                 HEED_OK);
	assert_int_equal(claim(s, "w2", 1000, 10000, 5).n, 0);
	assert_string_equal(holder_of(s, a), "w1");
	assert_int_equal(origins_of(s, a).n, 4);
	heed_store_close(s);
}

/* ensure_origins is ensure_origin for many sites at once: one lease row a
 * host however many of its origins are offered, each origin noted once,
 * a held host left with its holder; a bad entry writes nothing. */
static void test_ensure_origins(void **state)
{
	const char *a = "a.example", *b = "b.example";
	const char *const sites[] = {b, a, a, b};
	const char *const origins[] = {"http://b.example", "https://a.example",
	                               "http://a.example", "http://b.example"};
	const int64_t delays[] = {900, 700, 700, 900};
	const char *const bad_sites[] = {"c.example", "d\nexample"};
	const char *const bad_origins[] = {"http://c.example", "http://d"};
	heed_store *s = heed_test_store_fresh();
	struct heed_lease_counts c;
	struct origins got;

	(void)state;
	assert_int_equal(heed_store_lease_ensure_origins(s, sites, origins,
	                                                 delays, 4, 1000),
	                 HEED_OK);
	assert_int_equal(heed_store_lease_counts(s, 1000, &c), HEED_OK);
	assert_int_equal(c.sites, 2);
	assert_int_equal(c.claimable, 2);
	assert_int_equal(get(s, a).delay_ms, 700);
	assert_int_equal(get(s, b).delay_ms, 900);
	assert_int_equal(get(s, a).next_allowed_at, 1000);
	got = origins_of(s, a);
	assert_int_equal(got.n, 2);
	assert_string_equal(got.origin[0], "http://a.example");
	assert_string_equal(got.origin[1], "https://a.example");
	assert_int_equal(origins_of(s, b).n, 1);
	/* Offered again, sooner, while a is held: a stays with its holder,
	 * b comes due sooner. */
	assert_int_equal(claim(s, "w", 1000, 10000, 1).n, 1);
	assert_int_equal(heed_store_lease_ensure_origins(s, sites, origins,
	                                                 delays, 4, 500),
	                 HEED_OK);
	assert_int_equal(heed_store_lease_counts(s, 1000, &c), HEED_OK);
	assert_int_equal(c.sites, 2);
	assert_int_equal(c.held, 1);
	assert_int_equal(get(s, strcmp(holder_of(s, a), "w") == 0 ? b : a)
	                         .next_allowed_at,
	                 500);
	assert_int_equal(heed_store_lease_ensure_origins(
	                         s, bad_sites, bad_origins, delays, 2, 0),
	                 HEED_EINVAL);
	assert_int_equal(origins_of(s, "c.example").n, 0);
	assert_int_equal(
	        heed_store_lease_ensure_origins(s, NULL, NULL, NULL, 0, 0),
	        HEED_OK);
	heed_store_close(s);
}

/* Bad arguments are refused before anything is written. */
static void test_ensure_origin_arguments(void **state)
{
	heed_store *s = heed_test_store_fresh();
	struct origins got = {0};
	struct heed_lease_counts c;

	(void)state;
	assert_int_equal(
	        heed_store_lease_ensure_origin(s, "a.example", NULL, 0, 0),
	        HEED_EINVAL);
	assert_int_equal(
	        heed_store_lease_ensure_origin(s, "a.example", "", 0, 0),
	        HEED_EINVAL);
	assert_int_equal(heed_store_lease_ensure_origin(
	                         s, NULL, "https://a.example", 0, 0),
	                 HEED_EINVAL);
	assert_int_equal(heed_store_lease_ensure_origin(
	                         s, "", "https://a.example", 0, 0),
	                 HEED_EINVAL);
	assert_int_equal(heed_store_lease_ensure_origin(
	                         s, "a.example", "https://a.example", -1, 0),
	                 HEED_EINVAL);
	{
		const char *none = NULL, *a = "a.example", *nl = "a\nexample";
		assert_int_equal(heed_store_lease_origins(s, &none, 1,
		                                          keep_origin, &got),
		                 HEED_EINVAL);
		assert_int_equal(
		        heed_store_lease_origins(s, &nl, 1, keep_origin, &got),
		        HEED_EINVAL);
		assert_int_equal(heed_store_lease_origins(s, &a, 1, NULL, &got),
		                 HEED_EINVAL);
		assert_int_equal(
		        heed_store_lease_origins(s, NULL, 0, keep_origin, &got),
		        HEED_OK);
	}
	assert_int_equal(got.n, 0);
	assert_int_equal(heed_store_lease_counts(s, 0, &c), HEED_OK);
	assert_int_equal(c.sites, 0);
	assert_int_equal(origins_of(s, "a.example").n, 0);
	heed_store_close(s);
}

/* A grant names the holder it took the site from only when that
 * holder's lease ran out unreleased: a new site, a released one, and
 * the grant after a takeover that was then released name nobody. */
/* The fence of a batch: of the sites named, only those still granted to
 * the holder come back, a live lease or an expired one nobody took over;
 * one taken over by another worker, released, or never granted does not. */
static void test_hold(void **state)
{
	static const char *const sites[] = {"a-taken.example",
	                                    "b-stale.example", "c-live.example",
	                                    "d-freed.example"};
	heed_store *s = heed_test_store_fresh();
	struct seen got = {0};
	char taken[64];
	const char *names = "[\"a-taken.example\",\"b-stale.example\","
	                    "\"c-live.example\",\"d-freed.example\","
	                    "\"e-none.example\"]";

	(void)state;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(sites); i++)
		assert_int_equal(heed_store_lease_ensure(s, sites[i], 100, 0),
		                 HEED_OK);
	assert_int_equal(claim(s, "w1", 1000, 5000, 4).n, 4);
	/* d is handed back idle; w1's heartbeat ends at 6000, and w2 takes
	 * one site over, leaving two expired with no one taking them. */
	assert_true(released(s, "d-freed.example", "w1", 1, HEED_LEASE_IDLE));
	got = claim(s, "w2", 6000, 5000, 1);
	assert_int_equal(got.n, 1);
	snprintf(taken, sizeof(taken), "%s", got.site[0]);
	memset(&got, 0, sizeof(got));
	assert_int_equal(heed_store_begin(s), HEED_OK);
	assert_int_equal(heed_store_lease_hold(s, "w1", names, keep, &got),
	                 HEED_OK);
	assert_int_equal(heed_store_commit(s), HEED_OK);
	assert_int_equal(got.n, 2);
	for (int i = 0; i < got.n; i++) {
		assert_string_not_equal(got.site[i], taken);
		assert_string_not_equal(got.site[i], "d-freed.example");
		assert_string_equal(got.holder[i], "w1");
	}
	memset(&got, 0, sizeof(got));
	assert_int_equal(heed_store_lease_hold(s, "w1", "[]", keep, &got),
	                 HEED_OK);
	assert_int_equal(got.n, 0);
	assert_int_equal(heed_store_lease_hold(s, NULL, names, keep, &got),
	                 HEED_EINVAL);
	assert_int_equal(heed_store_lease_hold(s, "w1", NULL, keep, &got),
	                 HEED_EINVAL);
	heed_store_close(s);
}

static void test_taken_from(void **state)
{
	const char *a = "a.example";
	heed_store *s = heed_test_store_fresh();
	struct seen got;

	(void)state;
	assert_int_equal(heed_store_lease_ensure(s, a, 100, 0), HEED_OK);
	assert_null(get(s, a).taken_from);
	got = claim(s, "w1", 1000, 5000, 1);
	assert_int_equal(got.n, 1);
	assert_false(got.taken[0]);
	assert_true(released(s, a, "w1", 1, 2000));
	got = claim(s, "w2", 2000, 5000, 1);
	assert_int_equal(got.n, 1);
	assert_false(got.taken[0]);
	assert_int_equal(get(s, a).token, 2);
	assert_null(get(s, a).taken_from);
	/* w2 walks away: its lease ends at 7000, unreleased. */
	assert_true(started(s, a, "w2", 2, 2500));
	assert_int_equal(claim(s, "w3", 6999, 5000, 1).n, 0);
	got = claim(s, "w3", 7000, 5000, 1);
	assert_int_equal(got.n, 1);
	assert_string_equal(got.holder[0], "w3");
	assert_true(got.taken[0]);
	assert_string_equal(got.taken_from[0], "w2");
	assert_int_equal(got.l[0].token, 3);
	/* The row says so too, while w3 holds it, renewed or not. */
	memset(&got, 0, sizeof(got));
	assert_int_equal(heed_store_lease_get(s, a, keep, &got), HEED_OK);
	assert_int_equal(got.n, 1);
	assert_true(got.taken[0]);
	assert_string_equal(got.taken_from[0], "w2");
	assert_true(renewed(s, a, "w3", 3, 8000, 5000));
	memset(&got, 0, sizeof(got));
	assert_int_equal(heed_store_lease_get(s, a, keep, &got), HEED_OK);
	assert_string_equal(got.taken_from[0], "w2");
	/* w3 hands it back: the next grant took it from nobody. */
	assert_true(released(s, a, "w3", 3, 9000));
	got = claim(s, "w4", 9000, 5000, 1);
	assert_int_equal(got.n, 1);
	assert_false(got.taken[0]);
	assert_null(get(s, a).taken_from);
	/* A holder that lets its own lease run out and claims again took it
	 * from itself. */
	got = claim(s, "w4", 14000, 5000, 1);
	assert_int_equal(got.n, 1);
	assert_string_equal(got.taken_from[0], "w4");
	heed_store_close(s);
}

/* Takes address's slot at now: the next free slot's time, negated when
 * this one was not taken. */
static int64_t take(heed_store *s, const char *address, int64_t gap,
                    int64_t now)
{
	bool taken = false;
	int64_t next = 0;

	assert_int_equal(
	        heed_store_address_take(s, address, gap, now, &taken, &next),
	        HEED_OK);
	return taken ? next : -next;
}

/* One address's slots: taken at most once per gap, the larger gap wins,
 * and the answer says when the next one is free. */
static void test_address_slots(void **state)
{
	heed_store *s = heed_test_store_fresh();
	bool taken = false;

	(void)state;
	assert_int_equal(take(s, "192.0.2.1", 500, 1000), 1500);
	assert_int_equal(take(s, "192.0.2.1", 500, 1499), -1500);
	/* Another address has its own budget. */
	assert_int_equal(heed_store_address_take(s, "2001:db8::1", 500, 1200,
	                                         &taken, NULL),
	                 HEED_OK);
	assert_true(taken);
	assert_int_equal(take(s, "192.0.2.1", 500, 1500), 2000);
	/* A worker with a shorter gap still waits the stored longer one. */
	assert_int_equal(take(s, "192.0.2.1", 100, 1700), -2000);
	heed_store_close(s);
}

/* SQLite's query plan of sql on the store at path, its steps joined by
 * ';'. */
static void sqlite_plan(const char *path, const char *sql, char *plan,
                        size_t size)
{
	sqlite3_stmt *st = NULL;
	sqlite3 *db;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	/* heed's FTS5 tokenizer: the search index's tables need it. */
	assert_int_equal(heed__sqlite_search_register(db), SQLITE_OK);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		fail_msg("%s: %s", sql, sqlite3_errmsg(db));
	plan[0] = '\0';
	/* Column 3 of each row is the step's description. */
	while (sqlite3_step(st) == SQLITE_ROW)
		snprintf(plan + strlen(plan), size - strlen(plan), "%s;",
		         (const char *)sqlite3_column_text(st, 3));
	sqlite3_finalize(st);
	sqlite3_close(db);
}

/* A small generator of its own, so a failure repeats (xorshift64). */
static uint64_t next_rand(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* The leases a property run holds, to release them later. */
struct held {
	int n;
	char site[64][64];
	char holder[64][8];
	int64_t token[64];
};

static void property_step(heed_store *s, uint64_t *x, int64_t *now,
                          struct held *h)
{
	char site[64], holder[8];
	struct seen got;
	bool ok;
	int i;

	switch (next_rand(x) % 4) {
	case 0: {
		uint64_t due = next_rand(x) % 3;
		snprintf(site, sizeof(site), "https://s%d.example",
		         (int)(next_rand(x) % 40));
		assert_int_equal(
		        heed_store_lease_ensure(
		                s, site, 100,
		                due == 0 ? HEED_LEASE_IDLE
		                : due == 1
		                        ? *now - (int64_t)(next_rand(x) % 500)
		                        : *now + (int64_t)(next_rand(x) %
		                                           5000)),
		        HEED_OK);
		break;
	}
	case 1:
		snprintf(holder, sizeof(holder), "w%d",
		         (int)(next_rand(x) % 3));
		got = claim(s, holder, *now, 3000, 1 + (int)(next_rand(x) % 4));
		for (i = 0; i < got.n && h->n < 64; i++, h->n++) {
			snprintf(h->site[h->n], sizeof(h->site[0]), "%s",
			         got.site[i]);
			snprintf(h->holder[h->n], sizeof(h->holder[0]), "%s",
			         holder);
			h->token[h->n] = got.l[i].token;
		}
		break;
	case 2:
		if (!h->n)
			break;
		i = (int)(next_rand(x) % (uint64_t)h->n);
		assert_int_equal(
		        heed_store_lease_release(
		                s, h->site[i], h->holder[i], h->token[i], 0,
		                next_rand(x) % 2 ? HEED_LEASE_IDLE : *now + 100,
		                &ok),
		        HEED_OK);
		h->n--;
		memmove(h->site[i], h->site[i + 1],
		        sizeof(h->site[0]) * (size_t)(h->n - i));
		memmove(h->holder[i], h->holder[i + 1],
		        sizeof(h->holder[0]) * (size_t)(h->n - i));
		memmove(&h->token[i], &h->token[i + 1],
		        sizeof(h->token[0]) * (size_t)(h->n - i));
		break;
	default:
		*now += (int64_t)(next_rand(x) % 2000);
		break;
	}
}

/* The kept count of sites with work (the beat's) stays equal to a scan of
 * every site after any mix of ensures, claims (takeovers among them),
 * releases and time going by, on the real database: 400 random steps. */
static void test_counts_kept(void **state)
{
	heed_store *s = heed_test_store_fresh();
	struct heed_lease_counts n;
	struct held *h = calloc(1, sizeof(*h));
	uint64_t x = 0x9e3779b97f4a7c15u;
	int64_t now = 10000, woken = 0;

	(void)state;
	assert_non_null(h);
	for (int step = 0; step < 400; step++) {
		int64_t before = 0;
		property_step(s, &x, &now, h);
		assert_int_equal(heed_store_lease_counts(s, now, &n), HEED_OK);
		before = beat_of(s, "counter", now, 1000).active;
		assert_int_equal(before, n.sites - n.idle);
		if (n.sites - n.idle > 0 && n.idle > 0)
			woken++;
	}
	/* The run went through both kinds of site. */
	assert_true(woken > 0);
	free(h);
	heed_store_close(s);
}

/* The claim's statement (src/store/leases.c) for the plans, with
 * literals for what the store binds: its two ranges, ended leases and
 * due sites. */
#define ENDED_SQL(JOIN, NOW)                                                \
	"SELECT l.site FROM lease_workers d " JOIN " site_leases l ON "     \
	"l.holder = d.holder AND l.epoch < CASE WHEN d.alive_until <= " NOW \
	" THEN 9223372036854775807 ELSE d.epoch END"
#define ENDED_SQLITE ENDED_SQL("CROSS JOIN", "?2")
#define ENDED_PG                                                         \
	"SELECT x.site FROM lease_workers d CROSS JOIN LATERAL (SELECT " \
	"l.site FROM site_leases_0 l WHERE l.holder = d.holder AND "     \
	"l.epoch < CASE WHEN d.alive_until <= 5000::bigint THEN "        \
	"9223372036854775807 ELSE d.epoch END LIMIT 8::bigint FOR "      \
	"UPDATE SKIP LOCKED) x"

/* SQLite: the claim reads one range of site_leases_due, already in its
 * order, and one range of site_leases_holder per worker: no scan of the
 * sites, no sort. */
static void test_claim_plan_sqlite(void **state)
{
	char path[128], plan[1024] = "";
	heed_store *s = NULL;

	(void)state;
	snprintf(path, sizeof(path), "%s/plan.db", heed_test_dir());
	assert_int_equal(heed_store_open(&s, path, heed_test_allocator(), NULL),
	                 HEED_OK);
	heed_store_close(s);
	sqlite_plan(path,
	            "EXPLAIN QUERY PLAN UPDATE site_leases SET holder = ?1, "
	            "token = token + 1, next_allowed_at = "
	            "9223372036854775806 WHERE site IN (SELECT site FROM "
	            "(" ENDED_SQLITE " LIMIT ?4) UNION ALL SELECT site "
	            "FROM (SELECT site FROM site_leases "
	            "WHERE next_allowed_at "
	            "<= ?2 ORDER BY next_allowed_at, site "
	            "LIMIT ?4) LIMIT ?4) "
	            "RETURNING site;",
	            plan, sizeof(plan));
	assert_non_null(strstr(plan, "site_leases_due (next_allowed_at<?)"));
	assert_non_null(strstr(plan, "site_leases_holder (holder=? AND "
	                             "epoch<?)"));
	assert_null(strstr(plan, "SCAN l;"));
	assert_null(strstr(plan, "SCAN site_leases"));
	assert_null(strstr(plan, "TEMP B-TREE"));
}

/* sql's plan (PostgreSQL) reads site_leases by ranges of the holder
 * indexes only: no partition read whole, nor merged whole. */
static void assert_probes_holders(const char *url, const char *sql)
{
	/* Room for a plan over every partition. */
	static char plan[32768];

	heed_test_pg_plan(url, sql, plan, sizeof(plan));
	assert_non_null(strstr(plan, "holder_epoch_idx"));
	assert_null(strstr(plan, "Seq Scan on site_leases"));
	assert_null(strstr(plan, "Merge Append"));
}

/* PostgreSQL: with 320,000 sites (some 20,000 a partition), few of them
 * due and 200 held by a live worker, the claim on one partition reads the
 * ranges of that partition's due and holder indexes, sorts nothing and
 * never reads every site; the beat's counts read no site at all. */
static void test_claim_plan_pg(void **state)
{
	char url[256], plan[4096];
	heed_store *s = NULL;

	(void)state;
	heed_test_pg_fresh(url, sizeof(url));
	assert_int_equal(heed_store_open(&s, url, heed_test_allocator(), NULL),
	                 HEED_OK);
	heed_store_close(s);
	heed_test_pg_sql(url, "INSERT INTO site_leases(site, delay_ms, "
	                      "next_allowed_at) SELECT 'https://s' || i || "
	                      "'.example', 1000, i * 1000 FROM "
	                      "generate_series(1, 320000) i;");
	heed_test_pg_sql(url, "INSERT INTO lease_workers(holder, alive_until) "
	                      "VALUES('w1', 9000), ('w2', 0);");
	heed_test_pg_sql(url, "UPDATE site_leases SET holder = 'w1', "
	                      "lease_until = 9000, next_allowed_at = "
	                      "9223372036854775806 WHERE next_allowed_at "
	                      "<= 200000;");
	heed_test_pg_sql(url, "ANALYZE;");
	heed_test_pg_plan(
	        url,
	        "EXPLAIN WITH t AS (" ENDED_PG
	        " LIMIT 8::bigint), u AS (SELECT site "
	        "FROM site_leases_0 WHERE next_allowed_at <= 5000::bigint "
	        "ORDER BY next_allowed_at, site LIMIT 8::bigint FOR UPDATE "
	        "SKIP LOCKED), c AS (SELECT site FROM t UNION ALL SELECT site "
	        "FROM u LIMIT 8::bigint) UPDATE site_leases_0 l "
	        "SET holder = 'w', token = l.token + 1, next_allowed_at = "
	        "9223372036854775806 WHERE l.site = ANY(ARRAY(SELECT site "
	        "FROM c)) RETURNING l.site;",
	        plan, sizeof(plan));
	assert_non_null(strstr(
	        plan,
	        "Index Scan using site_leases_0_next_allowed_at_site_idx"));
	assert_non_null(strstr(
	        plan, "Index Scan using site_leases_0_holder_epoch_idx"));
	assert_non_null(strstr(plan, "Index Cond: ((holder = d.holder) AND "
	                             "(epoch < CASE"));
	assert_null(strstr(plan, "Seq Scan on site_leases"));
	assert_null(strstr(plan, "Sort"));
	/* With 1,000 dead workers, the takeover of their leases in every
	 * partition still probes the holder indexes and grants by the
	 * primary keys, never reading a whole partition (joined to the
	 * chosen sites, the grant did). */
	heed_test_pg_sql(url, "INSERT INTO lease_workers(holder, alive_until) "
	                      "SELECT 'd' || i, 0 FROM generate_series(1, "
	                      "1000) i; ANALYZE lease_workers;");
	assert_probes_holders(
	        url,
	        "EXPLAIN WITH c AS (SELECT x.site FROM lease_workers d CROSS "
	        "JOIN LATERAL (SELECT l.site FROM site_leases l WHERE l.holder "
	        "= d.holder LIMIT 256::bigint FOR UPDATE SKIP LOCKED) x WHERE "
	        "d.alive_until <= 5000::bigint LIMIT 256::bigint), w AS "
	        "(SELECT epoch, alive_until FROM lease_workers WHERE holder = "
	        "'w') UPDATE site_leases l SET holder = 'w', epoch = w.epoch, "
	        "token = l.token + 1 FROM w WHERE l.site = ANY(ARRAY(SELECT "
	        "site FROM c)) RETURNING l.site;");
	/* The beat's counts: lease_workers, lease_counts and the deltas,
	 * never site_leases. */
	heed_test_pg_plan(
	        url,
	        "EXPLAIN WITH k AS (SELECT pg_try_advisory_xact_lock("
	        "1751475556, 4) AS got), d AS (DELETE FROM lease_count_deltas "
	        "WHERE (SELECT got FROM k) RETURNING n), c AS (UPDATE "
	        "lease_counts SET active = active + s.n FROM (SELECT sum(n) "
	        "AS n FROM d) s WHERE s.n IS NOT NULL) SELECT (SELECT "
	        "count(*) FROM lease_workers WHERE alive_until > "
	        "5000::bigint), (SELECT active FROM lease_counts) + (SELECT "
	        "coalesce(sum(n), 0) FROM lease_count_deltas);",
	        plan, sizeof(plan));
	assert_non_null(strstr(plan, "lease_counts"));
	assert_null(strstr(plan, "site_leases"));
	/* A worker's releases, prepared as the store prepares them: index
	 * ranges only (the primary key's, or the holder's: what the worker
	 * holds, whatever the store's size), no partition read whole. */
	heed_test_pg_plan(
	        url,
	        "PREPARE r(text, text, text, text, text) AS WITH t AS (SELECT "
	        "* FROM unnest(string_to_array($1, E'\\n'), string_to_array("
	        "$3, E'\\n')::bigint[], string_to_array($4, E'\\n')::bigint[], "
	        "string_to_array($5, E'\\n')::bigint[]) WITH ORDINALITY AS "
	        "t(site, token, last, next, n)) UPDATE site_leases l SET "
	        "holder "
	        "= NULL, lease_until = 0, next_allowed_at = t.next, "
	        "last_request_start = t.last FROM t WHERE l.site = "
	        "ANY(string_to_array($1, E'\\n')) AND l.site = t.site AND "
	        "l.holder = $2 AND l.token = t.token RETURNING t.n, 1;"
	        "SET plan_cache_mode = force_generic_plan;"
	        "EXPLAIN EXECUTE r(E'https://s1.example\\nhttps://s2.example', "
	        "'w1', E'0\\n0', E'5\\n5', E'7\\n7');",
	        plan, sizeof(plan));
	assert_non_null(strstr(plan, "Index Scan using site_leases_"));
	assert_null(strstr(plan, "Seq Scan on site_leases"));
	assert_null(strstr(plan, "Bitmap Heap Scan on site_leases"));
}

/* The lease rows and origins, as one digest: what a migration keeps. */
#define LEASE_ROWS_MD5                                                       \
	"SELECT md5(string_agg(concat_ws(',', site, delay_ms, "              \
	"next_allowed_at, last_request_start, holder, token, lease_until, "  \
	"wanted_at, taken_from, epoch), ';' ORDER BY site) || (SELECT "      \
	"string_agg(site || ' ' || origin, ';' ORDER BY site, origin) FROM " \
	"lease_origins)) FROM site_leases;"

/* A store of version 4, whose tables are not partitioned (made here from
 * a new store's rows: its count's triggers left out, which the migration
 * makes anew), migrates to hash partitions of the site: every row and
 * origin kept, the kept count still a scan's, and claims by two workers
 * grant each due site exactly once and never the live worker's. */
static void test_partitions_migrated(void **state)
{
	char url[256], site[64], before[64];
	heed_store *s = NULL;
	struct heed_lease_counts c;
	struct heed_lease_beat hb;
	struct seen got;
	bool granted[40] = {false};
	int n = 0;

	(void)state;
	heed_test_pg_fresh(url, sizeof(url));
	assert_int_equal(heed_store_open(&s, url, heed_test_allocator(), NULL),
	                 HEED_OK);
	for (int i = 0; i < 40; i++) {
		snprintf(site, sizeof(site), "s%02d.example", i);
		assert_int_equal(heed_store_lease_ensure_origin(
		                         s, site, "https://x", 1000,
		                         i % 10 == 9 ? HEED_LEASE_IDLE : i),
		                 HEED_OK);
	}
	/* w1 holds 8 sites alive until 100,000 (a claim's token 1). */
	assert_int_equal(claim(s, "w1", 100, 99900, 8).n, 8);
	heed_store_close(s);
	heed_test_pg_sql(
	        url,
	        "CREATE TABLE old_leases (LIKE site_leases INCLUDING ALL);"
	        "INSERT INTO old_leases SELECT * FROM site_leases;"
	        "CREATE TABLE old_origins (LIKE lease_origins INCLUDING ALL);"
	        "INSERT INTO old_origins SELECT * FROM lease_origins;"
	        "DROP TABLE site_leases, lease_origins;"
	        "ALTER TABLE old_leases RENAME TO site_leases;"
	        "ALTER TABLE old_origins RENAME TO lease_origins;"
	        "UPDATE heed_schema SET version = 4 WHERE area = 'leases';");
	assert_int_equal(heed_test_pg_partitions(url, "site_leases"), 0);
	snprintf(before, sizeof(before), "%s",
	         heed_test_pg_sql(url, LEASE_ROWS_MD5));
	assert_int_equal(strlen(before), 32);
	assert_int_equal(heed_store_open(&s, url, heed_test_allocator(), NULL),
	                 HEED_OK);
	assert_string_equal(
	        heed_test_pg_sql(url, "SELECT version FROM heed_schema WHERE "
	                              "area = 'leases';"),
	        "5");
	assert_string_equal(
	        heed_test_pg_sql(url,
	                         "SELECT string_agg(partrelid::regclass::text "
	                         "|| ' ' || pg_get_partkeydef(partrelid), "
	                         "',' ORDER BY partrelid::regclass::text) "
	                         "FROM pg_partitioned_table WHERE partrelid "
	                         "IN ('site_leases'::regclass, "
	                         "'lease_origins'::regclass);"),
	        "lease_origins HASH (site),site_leases HASH (site)");
	assert_int_equal(heed_test_pg_partitions(url, "site_leases"), 16);
	assert_int_equal(heed_test_pg_partitions(url, "lease_origins"), 16);
	assert_string_equal(heed_test_pg_sql(url, LEASE_ROWS_MD5), before);
	assert_int_equal(heed_store_lease_counts(s, 1000, &c), HEED_OK);
	assert_int_equal(c.sites, 40);
	assert_int_equal(c.held, 8);
	assert_int_equal(c.idle, 4);
	assert_int_equal(heed_store_lease_worker_beat(s, "w2", 1000, 5000, &hb),
	                 HEED_OK);
	assert_int_equal(hb.active, 36);
	/* Two workers take turns at claims of 3: the 28 due sites unheld. */
	for (int turn = 0; turn < 40; turn++) {
		got = claim(s, turn % 2 ? "w3" : "w2", 1000, 5000, 3);
		for (int i = 0; i < got.n; i++) {
			int k = atoi(got.site[i] + 1);

			assert_false(granted[k]);
			assert_true(k % 10 != 9);
			granted[k] = true;
			assert_int_equal(got.l[i].token, 1);
			n++;
		}
	}
	assert_int_equal(n, 28);
	for (int i = 0; i < 40; i++) {
		snprintf(site, sizeof(site), "s%02d.example", i);
		if (i % 10 != 9 && !granted[i])
			assert_string_equal(holder_of(s, site), "w1");
	}
	heed_store_close(s);
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void sleep_ms(int64_t ms)
{
	if (ms > 0) {
		struct timespec ts = {ms / 1000, (ms % 1000) * 1000000};
		nanosleep(&ts, NULL);
	}
}

/* A worker's store: the crawl lock held shared, reconnecting. */
static heed_store *worker_store(const char *url)
{
	heed_store *s = NULL;
	struct heed_diag diag;

	assert_int_equal(heed_store_open(&s, url, heed_test_allocator(), NULL),
	                 HEED_OK);
	assert_int_equal(heed_store_lock_shared(s, &diag), HEED_OK);
	heed_store_set_reconnect(s, 20000, NULL);
	return s;
}

/* Waits until the server at url has been up for longer than ms: a
 * worker's first beat (pg.c, leases_over_restart) keeps the workers it
 * finds alive for a lease from the server's start when that start is
 * less than a lease ago, as after a restart. */
static void wait_server_up_for(const char *url, int64_t ms)
{
	int64_t up = atoll(heed_test_pg_sql(
	        url, "SELECT (extract(epoch FROM clock_timestamp() - "
	             "pg_postmaster_start_time()) * 1000)::bigint;"));

	if (up <= ms)
		sleep_ms(ms - up + 100);
}

/* PostgreSQL: a restart of the server counts as a beat of every worker
 * alive when it went down. Two workers hold a site each on leases of 12 s
 * that end 1 s after the stop (their last beats given 11 s early); the
 * server stays down longer. A worker started meanwhile, and then the
 * first of the two to come back, find the other alive and take none of
 * its sites, and each one's beat keeps its epoch and its hosts, for a
 * lease from the server's start. Without that, the first claim took the
 * others' sites over. The new worker counts the heartbeats that ended in
 * the lease before the start: a stop of up to 11 s here, whatever the
 * machine's load. */
static void test_leases_over_restart_pg(void **state)
{
	char url[256];
	heed_store *a, *b, *c;
	struct heed_lease_beat ba, bb;
	struct seen got;
	int64_t t0, past, now;

	(void)state;
	heed_test_pg_fresh(url, sizeof(url));
	/* The leases below must end at the times they name, not a lease
	 * from a start the test binary's own cluster made a moment ago: the
	 * tests before this one take about 12 s, one lease. */
	wait_server_up_for(url, 12000);
	a = worker_store(url);
	b = worker_store(url);
	assert_int_equal(
	        heed_store_lease_ensure(a, "https://a.example", 1000, 0),
	        HEED_OK);
	assert_int_equal(
	        heed_store_lease_ensure(a, "https://b.example", 1000, 0),
	        HEED_OK);
	t0 = now_ms();
	past = t0 - 11000;
	assert_int_equal(claim(a, "wa", past, 12000, 1).n, 1);
	assert_int_equal(claim(b, "wb", past, 12000, 1).n, 1);
	ba = beat_of(a, "wa", past, 12000);
	bb = beat_of(b, "wb", past, 12000);
	heed_test_pg_server("stop");
	sleep_ms(1500);
	heed_test_pg_server("start");
	now = now_ms();
	assert_true(now > ba.alive_until && now > bb.alive_until);
	c = worker_store(url);
	assert_int_equal(claim(c, "wc", now, 12000, 4).n, 0);
	got = claim(b, "wb", now, 12000, 4);
	assert_int_equal(got.n, 0);
	assert_int_equal(beat_of(b, "wb", now, 12000).epoch, bb.epoch);
	assert_int_equal(beat_of(a, "wa", now, 12000).epoch, ba.epoch);
	assert_true(beat_of(a, "wa", now, 12000).alive_until >= now + 12000);
	heed_store_close(a);
	heed_store_close(b);
	heed_store_close(c);
}

#define WORKERS   4
#define SITES     12
#define DELAY_MS  100
#define LEASE_MS  300
#define MARGIN_MS 60
#define RUN_MS    3000
#define MAX_LOG   20000
/* The address all the sites share, and its budget. */
#define ADDRESS     "192.0.2.7"
#define ADDRESS_GAP 25

/* One worker process: claims, fetches (sleeps) at most twice per grant
 * keeping the delay, renews when due, and on every fourth grant walks
 * away without releasing, as a killed worker would. Logs each grant
 * ("G site token granted lease_until", granted the time its claim
 * returned), renewal ("N site token until"),
 * release ("R site token") and recorded start ("S site token now") in
 * its own file; and, trying the shared address's slot at each claim, each
 * slot it took ("A address 0 now"). */
static void worker(const char *url, int id, const char *log_path)
{
	char holder[16];
	heed_store *s = NULL;
	FILE *log = fopen(log_path, "w");
	int64_t end = now_ms() + RUN_MS;
	int grants = 0;
	bool taken = false;

	snprintf(holder, sizeof(holder), "w%d", id);
	if (!log || heed_store_open(&s, url, NULL, NULL) != HEED_OK)
		_exit(2);
	/* Worker 0 is killed half way, its leases unreleased: the others
	 * take its sites over once its heartbeat ends. */
	if (id == 0)
		end -= RUN_MS / 2;
	while (now_ms() < end) {
		struct seen got = {0};
		int64_t t = now_ms(), granted;
		if (heed_store_lease_claim(s, holder, t, LEASE_MS, 2, keep,
		                           &got) != HEED_OK)
			_exit(3);
		granted = now_ms();
		if (got.n == 0)
			sleep_ms(10);
		if (heed_store_address_take(s, ADDRESS, ADDRESS_GAP, t, &taken,
		                            NULL) != HEED_OK)
			_exit(7);
		if (taken)
			fprintf(log, "A %s 0 %lld\n", ADDRESS, (long long)t);
		for (int i = 0; i < got.n; i++) {
			struct heed_site_lease *l = &got.l[i];
			const char *site = got.site[i];
			int64_t start = l->start_at, until = l->lease_until;
			bool held = true;
			fprintf(log, "G %s %lld %lld %lld\n", site,
			        (long long)l->token, (long long)granted,
			        (long long)until);
			if (++grants % 4 == 0)
				continue; /* walks away */
			for (int n = 0; n < 2 && held; n++) {
				sleep_ms(start - now_ms());
				t = now_ms();
				if (heed_lease_renew_due(until, t, LEASE_MS,
				                         MARGIN_MS)) {
					if (heed_store_lease_renew(
					            s, site, holder, l->token,
					            t, LEASE_MS,
					            &held) != HEED_OK)
						_exit(4);
					if (!held)
						break;
					until = t + LEASE_MS;
					fprintf(log, "N %s %lld %lld\n", site,
					        (long long)l->token,
					        (long long)until);
				}
				if (!heed_lease_may_fetch(until, t, MARGIN_MS))
					break;
				if (heed_store_lease_record_start(
				            s, site, holder, l->token, t,
				            &held) != HEED_OK)
					_exit(5);
				if (!held)
					break;
				fprintf(log, "S %s %lld %lld\n", site,
				        (long long)l->token, (long long)t);
				sleep_ms(10); /* the request */
				start = t + DELAY_MS;
			}
			if (heed_store_lease_release(s, site, holder, l->token,
			                             0, start,
			                             &held) != HEED_OK)
				_exit(6);
			if (held)
				fprintf(log, "R %s %lld\n", site,
				        (long long)l->token);
		}
	}
	fclose(log);
	heed_store_close(s);
	_exit(0);
}

struct event {
	char kind;
	int site;
	int64_t token, a, b;
	int worker, seq; /* seq: the line in the worker's log */
};

static int by_time(const void *x, const void *y)
{
	int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;

	return a < b ? -1 : a > b;
}

static int by_site_token(const void *x, const void *y)
{
	const struct event *a = x, *b = y;

	if (a->site != b->site)
		return a->site - b->site;
	if (a->token != b->token)
		return a->token < b->token ? -1 : 1;
	/* One lease's events all come from its holder's log: in its
	 * order, the grant first. */
	return a->seq - b->seq;
}

/* PostgreSQL: four processes, each with its own connection, claim the
 * same twelve sites for three seconds. Every grant of a site has the next
 * token (none lost, none twice), returns only once the previous lease was
 * released or had expired (a claim's own time, read before it, may be
 * older than the previous lease's end: its holder, starved of the CPU
 * past its heartbeat, came back in a new epoch and so gave the lease up
 * while the claim waited), every recorded start of a site is at least the
 * site's delay after the one before, whoever made it, and every site was
 * claimed; the address they share gave out no two slots closer than its
 * gap. */
static void test_workers_share_sites(void **state)
{
	static struct event ev[MAX_LOG];
	char url[256], path[WORKERS][160], site[64];
	pid_t pids[WORKERS];
	heed_store *s = NULL;
	static int64_t slots[MAX_LOG];
	int n = 0, wstatus, takeovers = 0, nslots = 0;

	(void)state;
	heed_test_pg_fresh(url, sizeof(url));
	assert_int_equal(heed_store_open(&s, url, heed_test_allocator(), NULL),
	                 HEED_OK);
	for (int i = 0; i < SITES; i++) {
		snprintf(site, sizeof(site), "https://s%02d.example", i);
		assert_int_equal(heed_store_lease_ensure(s, site, DELAY_MS, 0),
		                 HEED_OK);
	}
	heed_store_close(s);
	for (int w = 0; w < WORKERS; w++) {
		snprintf(path[w], sizeof(path[w]), "%s/worker%d.log",
		         heed_test_dir(), w);
		pids[w] = fork();
		assert_true(pids[w] >= 0);
		if (pids[w] == 0)
			worker(url, w, path[w]);
	}
	for (int w = 0; w < WORKERS; w++) {
		assert_int_equal(waitpid(pids[w], &wstatus, 0), pids[w]);
		assert_true(WIFEXITED(wstatus));
		assert_int_equal(WEXITSTATUS(wstatus), 0);
	}
	for (int w = 0; w < WORKERS; w++) {
		FILE *f = fopen(path[w], "r");
		char kind, name[64];
		long long token, a, b;
		int got;
		assert_non_null(f);
		while ((got = fscanf(f, " %c %63s %lld", &kind, name,
		                     &token)) == 3) {
			int site_no = -1;
			assert_true(n < MAX_LOG);
			a = b = 0;
			if (kind == 'G')
				assert_int_equal(fscanf(f, "%lld %lld", &a, &b),
				                 2);
			else if (kind != 'R')
				assert_int_equal(fscanf(f, "%lld", &a), 1);
			if (kind == 'A') {
				assert_true(nslots < MAX_LOG);
				slots[nslots++] = a;
				continue;
			}
			assert_int_equal(
			        sscanf(name, "https://s%d.example", &site_no),
			        1);
			ev[n] = (struct event){kind, site_no, token, a,
			                       b,    w,       n};
			n++;
		}
		fclose(f);
	}
	qsort(ev, (size_t)n, sizeof(ev[0]), by_site_token);
	for (int site_no = 0, i = 0; site_no < SITES; site_no++) {
		int64_t token = 0, until = 0, last_start = 0;
		bool released = true;
		for (; i < n && ev[i].site == site_no; i++) {
			struct event *e = &ev[i];
			switch (e->kind) {
			case 'G':
				assert_int_equal(e->token, token + 1);
				if (!released) {
					assert_true(e->a >= until);
					takeovers++;
				}
				token = e->token;
				until = e->b;
				released = false;
				break;
			case 'N':
				until = e->a;
				break;
			case 'R':
				released = true;
				break;
			case 'S':
				assert_true(e->a < until);
				if (last_start)
					assert_true(e->a - last_start >=
					            DELAY_MS);
				last_start = e->a;
				break;
			}
		}
		/* Every site claimed. */
		assert_true(token > 0);
	}
	/* Workers walked away, so sites were taken over after expiry. */
	assert_true(takeovers > 0);
	/* The shared address: slots taken by all the workers, never two
	 * closer than its gap. */
	qsort(slots, (size_t)nslots, sizeof(slots[0]), by_time);
	for (int i = 1; i < nslots; i++)
		assert_true(slots[i] - slots[i - 1] >= ADDRESS_GAP);
	assert_true(nslots > 10);
	print_message("%d events, %d takeovers, %d address slots\n", n,
	              takeovers, nslots);
}

int main(void)
{
	const struct CMUnitTest sqlite_tests[] = {
	        cmocka_unit_test(test_policy),
	        cmocka_unit_test(test_arguments),
	        cmocka_unit_test(test_claim_max_and_alive),
	        cmocka_unit_test(test_takeover_and_fencing),
	        cmocka_unit_test(test_release_order_and_idle),
	        cmocka_unit_test(test_release_records_last_start),
	        cmocka_unit_test(test_release_all),
	        cmocka_unit_test(test_address_slots),
	        cmocka_unit_test(test_heartbeat_renews),
	        cmocka_unit_test(test_worker_beat),
	        cmocka_unit_test(test_ensure_origin),
	        cmocka_unit_test(test_ensure_origin_arguments),
	        cmocka_unit_test(test_ensure_origins),
	        cmocka_unit_test(test_taken_from),
	        cmocka_unit_test(test_hold),
	        cmocka_unit_test(test_counts_kept),
	        cmocka_unit_test(test_claim_plan_sqlite),
	};
	const struct CMUnitTest pg_tests[] = {
	        cmocka_unit_test(test_policy),
	        cmocka_unit_test(test_arguments),
	        cmocka_unit_test(test_claim_max_and_alive),
	        cmocka_unit_test(test_takeover_and_fencing),
	        cmocka_unit_test(test_release_order_and_idle),
	        cmocka_unit_test(test_release_records_last_start),
	        cmocka_unit_test(test_release_all),
	        cmocka_unit_test(test_address_slots),
	        cmocka_unit_test(test_heartbeat_renews),
	        cmocka_unit_test(test_worker_beat),
	        cmocka_unit_test(test_ensure_origin),
	        cmocka_unit_test(test_ensure_origin_arguments),
	        cmocka_unit_test(test_ensure_origins),
	        cmocka_unit_test(test_taken_from),
	        cmocka_unit_test(test_hold),
	        cmocka_unit_test(test_counts_kept),
	        cmocka_unit_test(test_claim_plan_pg),
	        cmocka_unit_test(test_partitions_migrated),
	        cmocka_unit_test(test_leases_over_restart_pg),
	        cmocka_unit_test(test_workers_share_sites),
	};

	if (heed_test_pg())
		return cmocka_run_group_tests(pg_tests, heed_test_make_dir,
		                              heed_test_remove_dir);
	return cmocka_run_group_tests(sqlite_tests, heed_test_make_dir,
	                              heed_test_remove_dir);
}
