/*
 * bench_fleet: a fleet of workers sharing one PostgreSQL store, through
 * heed's own lease and claim code (src/store/leases.c), with a fetch that
 * answers at once: what claims cost, what lease upkeep writes, and
 * whether any site was ever held twice.
 *
 *   tests/pgcluster.py run -- sh -c 'psql -q "$HEED_TEST_PG" -c \
 *     "ALTER SYSTEM SET max_connections = 150" &&
 *     tests/pgcluster.py ctl "$HEED_TEST_PG_FOLDER" restart &&
 *     nice -n 10 build/bench/bench_fleet "$HEED_TEST_PG" --seconds 180'
 *
 * (the throwaway cluster allows 50 connections; the fleet needs one a
 * worker and a few more.) Options: --sites (10,000,000), --urls a site
 * (2), --workers (100), --seconds (180), --lease-ms (15,000), --hold, the
 * sites a worker holds (256), --delay-ms between a site's requests (1,000).
 *
 * The store: a fresh database with heed's tables, the sites written by
 * one INSERT ... SELECT generate_series, all due, and a frontier of the
 * bench's own (fleet_frontier: a row a URL, fetched_by set by the batch
 * that fetched it), vacuumed and analysed.
 *
 * The fleet: ONE process driving every worker in turns, each worker with
 * a heed_store (a connection) of its own. At most one statement is then
 * running at any time, so the bench and its server use one core between
 * them (the machine has two, and others measure beside it); claims at
 * the same instant (SKIP LOCKED) are not exercised here but in
 * unit.store_leases_pg's four processes. A worker's turn, as `heed crawl
 * --worker` goes about it: a beat when the last is a third of a lease old
 * (or a second, before a claim); a "fetch" of the next URL of each held
 * site whose delay has passed; the batch that records them, fenced by
 * heed_store_lease_hold in its transaction; the record of the last start
 * and the release (idle) of each site with nothing left; a claim up to
 * its holding (within its fair share), whose grants read their pending
 * URLs from the committed frontier. Every few seconds a worker is killed
 * (after fetching, before its batch commits: its connection just closes,
 * it never beats nor releases again), one leaves (hands back its sites
 * and ends its heartbeat), one joins. No kill falls in the last two
 * leases of the run, so its sites are taken over before the end.
 *
 * Printed: claims (sites granted a second, the latency of one
 * heed_store_lease_claim call: median, 99th percentile); the beat's
 * latency in the run and, quiet, at 1, 10 and the store's sites; row
 * writes a second per lease table (pg_stat_user_tables, before and after
 * the run) beside what renewing every held lease row at each beat (the
 * statement below) would have written; every 30 s the dead tuples; at
 * the end the checks and each table's and index's size. The checks,
 * from the bench's record of every grant and release (with its token and
 * epoch) and from the store: each grant of a site has the next token and
 * comes after the previous lease was released or its holder's heartbeat
 * ended (no site held by two live epochs at once); every site a killed
 * worker held was taken over within one lease of its heartbeat's end;
 * every URL whose batch committed is marked fetched in the store, none
 * was fetched twice except those a killed worker fetched without
 * committing, no row of the frontier is gone, and no site with a URL
 * left is idle. Exits 1 when a check fails.
 */
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "heed/store_leases.h"
/* The bench's frontier writes go inside the transaction whose fence
 * (heed_store_lease_hold) decides them, on the worker's own connection. */
#include "store/pg-int.h"

#define CLAIM_MAX   256  /* sites a claim statement grants at most */
#define BEAT_FRESH  1000 /* a claim goes by a beat this recent, ms */
#define EVENT_MS    3000 /* a kill, a leave or a join this often */
#define SAMPLE_MS   30000
#define MAX_URLS    8
#define MAX_WORKERS 1000
#define MAX_INCS    100000
#define MAX_GRANTS  50000000L
#define QUIET_BEATS 200
#define URL_FETCHES 0x03 /* a URL's fetch count (at most 3 kept) */
#define URL_DONE    0x04 /* its batch committed */
#define URL_ORPHAN  0x08 /* fetched by a worker killed before its commit */
#define LEASE_TABLES                                        \
	"('site_leases', 'lease_workers', 'lease_counts', " \
	"'lease_count_deltas', 'lease_origins', 'fleet_frontier')"

/* The renewal before leases lived by heartbeats (bench/leases.c): each
 * of a worker's lease rows rewritten. */
#define OLD_RENEW                                                           \
	"UPDATE site_leases SET lease_until = $2::bigint, next_allowed_at " \
	"= GREATEST(next_allowed_at, $2::bigint) WHERE holder = $1 AND "    \
	"lease_until > 0"

struct options {
	long sites;
	int urls, workers, hold;
	int64_t seconds, lease_ms, delay_ms;
};

/* A site a worker holds. */
struct held {
	long site;  /* its number: "s<site>.example" */
	long grant; /* its entry in the record of grants */
	int64_t token, start_at, last_start;
	unsigned pending; /* a bit a URL still to fetch */
	bool lost;        /* the fence did not keep it */
};

/* One life of a worker, from its join to its kill or leave. */
struct life {
	char name[24];
	int64_t alive_until; /* the latest heartbeat end the store gave */
	int64_t killed_at;   /* 0: not killed */
	int held_at_kill;
};

/* A grant: the site, its token, when, and when its holder let it go
 * (0: never let go, it ended with the heartbeat or outlived the run). */
struct grant {
	long site;
	int64_t token, epoch, at, released;
	int life;
};

enum { ABSENT, ALIVE };

struct worker {
	int state, life;
	heed_store *s;
	struct held *held;
	int nheld;
	int64_t epoch, last_beat, last_renewal, live, active;
};

struct samples {
	double *v;
	long n, cap;
};

struct fleet {
	struct options o;
	char url[512];
	PGconn *admin;
	struct worker w[MAX_WORKERS];
	struct life *lives;
	int nlives;
	struct grant *grants;
	long ngrants, grant_cap;
	int32_t *last_grant; /* a site's latest grant + 1; 0 none */
	unsigned char *url_state;
	struct samples claim_ms, beat_ms;
	/* Counts kept as the fleet runs. */
	long claims, beats, kills, leaves, joins, fetched, committed;
	long renew_rows_old, lost_live, token_gaps, double_held;
	long takeovers, dup_committed, lost_writes;
	int64_t takeover_lag_max, kill_lag_max;
	char *buf; /* the batch's JSON and arrays */
	size_t buf_cap;
};

static double mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int64_t wall_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void die(const char *what, const char *why)
{
	fprintf(stderr, "bench_fleet: %s: %s\n", what, why ? why : "failed");
	exit(1);
}

static void *grow(void *p, size_t n, size_t size)
{
	void *q = realloc(p, n * size);

	if (!q)
		die("memory", "out of memory");
	return q;
}

static void sample(struct samples *s, double v)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 4096;
		s->v = grow(s->v, (size_t)s->cap, sizeof(s->v[0]));
	}
	s->v[s->n++] = v;
}

static int by_value(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

/* The q-th quantile (0..1) of s, sorted in place from `from` on. */
static double quantile(struct samples *s, long from, double q)
{
	long n = s->n - from;

	if (n <= 0)
		return 0;
	qsort(s->v + from, (size_t)n, sizeof(s->v[0]), by_value);
	return s->v[from + (long)(q * (double)(n - 1))];
}

/* Runs sql on c with params (text); exits on failure; the rows it
 * changed. */
static long run(PGconn *c, const char *sql, int n, const char *const *params)
{
	PGresult *r = PQexecParams(c, sql, n, NULL, params, NULL, NULL, 0);
	long rows;

	if (PQresultStatus(r) != PGRES_COMMAND_OK &&
	    PQresultStatus(r) != PGRES_TUPLES_OK)
		die(sql, PQerrorMessage(c));
	rows = atol(PQcmdTuples(r));
	PQclear(r);
	return rows;
}

static PGresult *query(PGconn *c, const char *sql)
{
	PGresult *r = PQexec(c, sql);

	if (PQresultStatus(r) != PGRES_TUPLES_OK)
		die(sql, PQerrorMessage(c));
	return r;
}

static int64_t value(PGconn *c, const char *sql)
{
	PGresult *r = query(c, sql);
	int64_t v = PQntuples(r) > 0 ? atoll(PQgetvalue(r, 0, 0)) : -1;

	PQclear(r);
	return v;
}

static heed_store *open_store(const char *url)
{
	heed_store *s = NULL;

	if (heed_store_open(&s, url, NULL, NULL) != HEED_OK)
		die(url, "cannot open the store");
	return s;
}

static void check(heed_store *s, heed_status rc, const char *what)
{
	if (rc != HEED_OK)
		die(what, heed_store_errmsg(s));
}

/* A fresh database named name beside base's; its URL in url. */
static PGconn *fresh_database(const char *base, const char *name, char *url,
                              size_t size)
{
	const char *slash = strrchr(base, '/');
	PGconn *admin = PQconnectdb(base), *c;
	char sql[128];

	snprintf(sql, sizeof(sql), "DROP DATABASE IF EXISTS %s", name);
	run(admin, sql, 0, NULL);
	snprintf(sql, sizeof(sql), "CREATE DATABASE %s", name);
	run(admin, sql, 0, NULL);
	PQfinish(admin);
	snprintf(url, size, "%.*s/%s", (int)(slash - base), base, name);
	heed_store_close(open_store(url)); /* heed's tables */
	c = PQconnectdb(url);
	if (PQstatus(c) != CONNECTION_OK)
		die(url, PQerrorMessage(c));
	return c;
}

static void drop_database(const char *base, const char *name)
{
	PGconn *admin = PQconnectdb(base);
	char sql[128];

	snprintf(sql, sizeof(sql), "DROP DATABASE %s", name);
	run(admin, sql, 0, NULL);
	PQfinish(admin);
}

/*
 * The sites and the frontier, each one statement. The triggers that
 * count sites with work would append a row per site to
 * lease_count_deltas; they are off for the fill (session_replication_role)
 * and the count is set once.
 */
static void fill(PGconn *c, const struct options *o, int64_t due)
{
	char sql[512];
	double t0 = mono_ms();

	run(c, "SET session_replication_role = replica", 0, NULL);
	run(c, "SET maintenance_work_mem = '512MB'", 0, NULL);
	snprintf(sql, sizeof(sql),
	         "INSERT INTO site_leases(site, delay_ms, next_allowed_at) "
	         "SELECT 's' || g || '.example', %lld, %lld FROM "
	         "generate_series(1, %ld) g",
	         (long long)o->delay_ms, (long long)due, o->sites);
	run(c, sql, 0, NULL);
	snprintf(sql, sizeof(sql),
	         "UPDATE lease_counts SET active = active + %ld", o->sites);
	run(c, sql, 0, NULL);
	run(c, "SET session_replication_role = DEFAULT", 0, NULL);
	run(c,
	    "CREATE TABLE fleet_frontier (site TEXT NOT NULL, n INTEGER NOT "
	    "NULL, fetched_by TEXT)",
	    0, NULL);
	snprintf(sql, sizeof(sql),
	         "INSERT INTO fleet_frontier(site, n) SELECT 's' || g || "
	         "'.example', k FROM generate_series(1, %ld) g, "
	         "generate_series(1, %d) k",
	         o->sites, o->urls);
	run(c, sql, 0, NULL);
	run(c, "ALTER TABLE fleet_frontier ADD PRIMARY KEY (site, n)", 0, NULL);
	run(c, "VACUUM ANALYZE", 0, NULL);
	printf("fill: %ld sites, %ld frontier rows in %.1f s\n", o->sites,
	       o->sites * o->urls, (mono_ms() - t0) / 1e3);
	fflush(stdout);
}

/* The statistics as the sessions that ended reported them. */
static void stats_fresh(PGconn *c)
{
	usleep(1500000);
	run(c, "SELECT pg_stat_clear_snapshot()", 0, NULL);
}

/* Rows written (inserted, updated, deleted) and HOT updates per lease
 * table, in the order of names. */
struct table_writes {
	int64_t ins, upd, hot, del, dead, vacuums;
};

static const char *const table_names[] = {
        "site_leases",        "lease_workers", "lease_counts",
        "lease_count_deltas", "lease_origins", "fleet_frontier",
};
#define NTABLES ((int)(sizeof(table_names) / sizeof(table_names[0])))

static void table_stats(PGconn *c, struct table_writes t[NTABLES])
{
	/* A partitioned table's figures are its partitions', summed. */
	PGresult *r = query(
	        c, "SELECT coalesce(p.relname, s.relname), sum(n_tup_ins), "
	           "sum(n_tup_upd), sum(n_tup_hot_upd), sum(n_tup_del), "
	           "sum(n_dead_tup), sum(autovacuum_count + vacuum_count) "
	           "FROM pg_stat_user_tables s LEFT JOIN pg_inherits h ON "
	           "h.inhrelid = s.relid LEFT JOIN pg_class p ON p.oid = "
	           "h.inhparent GROUP BY 1");

	memset(t, 0, sizeof(struct table_writes) * NTABLES);
	for (int i = 0; i < PQntuples(r); i++)
		for (int k = 0; k < NTABLES; k++)
			if (!strcmp(PQgetvalue(r, i, 0), table_names[k]))
				t[k] = (struct table_writes){
				        atoll(PQgetvalue(r, i, 1)),
				        atoll(PQgetvalue(r, i, 2)),
				        atoll(PQgetvalue(r, i, 3)),
				        atoll(PQgetvalue(r, i, 4)),
				        atoll(PQgetvalue(r, i, 5)),
				        atoll(PQgetvalue(r, i, 6)),
				};
	PQclear(r);
}

/* The lease functions' results the bench needs back from a callback. */
struct claim_ctx {
	struct fleet *f;
	struct worker *w;
	int64_t now;
};

static struct life *life_of(struct fleet *f, struct worker *w)
{
	return &f->lives[w->life];
}

static void note_alive(struct fleet *f, struct worker *w, int64_t until)
{
	if (until > life_of(f, w)->alive_until)
		life_of(f, w)->alive_until = until;
}

static long site_number(const char *site)
{
	return atol(site + 1);
}

static char *site_name(char *out, size_t size, long site)
{
	snprintf(out, size, "s%ld.example", site);
	return out;
}

/*
 * A grant, checked against the site's previous one: the next token, and
 * the previous lease let go (released) or its holder's heartbeat over
 * by now. A grant that follows a killed life's lease is a takeover: its
 * lag after that heartbeat's end is kept.
 */
static void record_grant(struct fleet *f, struct worker *w, int64_t now,
                         const struct heed_site_lease *l)
{
	long site = site_number(l->site);
	struct grant *g, *prev;

	if (site < 1 || site > f->o.sites)
		die(l->site, "a site the bench never wrote");
	if (f->ngrants == MAX_GRANTS)
		die("grants", "more than the bench records");
	if (f->ngrants == f->grant_cap) {
		f->grant_cap = f->grant_cap ? f->grant_cap * 2 : 65536;
		f->grants = grow(f->grants, (size_t)f->grant_cap,
		                 sizeof(f->grants[0]));
	}
	g = &f->grants[f->ngrants];
	*g = (struct grant){site, l->token, l->epoch, now, 0, w->life};
	prev = f->last_grant[site - 1] ? &f->grants[f->last_grant[site - 1] - 1]
	                               : NULL;
	if (l->token != (prev ? prev->token : 0) + 1)
		f->token_gaps++;
	if (prev && !prev->released) {
		struct life *p = &f->lives[prev->life];

		if (p->alive_until > now) {
			f->double_held++;
			fprintf(stderr,
			        "bench_fleet: %s granted to %s at %lld while "
			        "%s held it (granted at %lld, epoch %lld) "
			        "until %lld\n",
			        l->site, life_of(f, w)->name, (long long)now,
			        p->name, (long long)prev->at,
			        (long long)prev->epoch,
			        (long long)p->alive_until);
		}
		if (p->killed_at) {
			f->takeovers++;
			if (now - p->alive_until > f->takeover_lag_max)
				f->takeover_lag_max = now - p->alive_until;
			if (now - p->killed_at > f->kill_lag_max)
				f->kill_lag_max = now - p->killed_at;
		}
	}
	f->last_grant[site - 1] = (int32_t)(++f->ngrants);
}

static int note_grant_row(void *ud, const struct heed_site_lease *l)
{
	struct claim_ctx *c = ud;
	struct worker *w = c->w;
	struct held *h;

	record_grant(c->f, w, c->now, l);
	note_alive(c->f, w, l->lease_until);
	h = &w->held[w->nheld++];
	*h = (struct held){site_number(l->site),
	                   c->f->ngrants - 1,
	                   l->token,
	                   l->start_at,
	                   l->last_request_start,
	                   0,
	                   false};
	return 0;
}

/* Appends to f->buf at *len, growing it. */
static void append(struct fleet *f, size_t *len, const char *s)
{
	size_t n = strlen(s);

	if (*len + n + 1 > f->buf_cap) {
		f->buf_cap = (*len + n + 1) * 2;
		f->buf = grow(f->buf, f->buf_cap, 1);
	}
	memcpy(f->buf + *len, s, n + 1);
	*len += n;
}

/* The PostgreSQL text array of the sites of w->held[from..to). */
static const char *site_array(struct fleet *f, struct worker *w, int from,
                              int to)
{
	char name[40];
	size_t len = 0;

	append(f, &len, "{");
	for (int i = from; i < to; i++) {
		if (i > from)
			append(f, &len, ",");
		append(f, &len, site_name(name, sizeof(name), w->held[i].site));
	}
	append(f, &len, "}");
	return f->buf;
}

static unsigned char *url_state(struct fleet *f, long site, int n)
{
	return &f->url_state[(site - 1) * f->o.urls + n];
}

/*
 * The new grants' URLs still to fetch, from the committed frontier. A URL
 * the bench saw committed and the store says is not fetched was lost.
 */
static void read_pending(struct fleet *f, struct worker *w, int from)
{
	const char *params[1];
	PGresult *r;

	if (from == w->nheld)
		return;
	params[0] = site_array(f, w, from, w->nheld);
	r = heed__pg_query(w->s,
	                   "SELECT site, n FROM fleet_frontier WHERE site = "
	                   "ANY($1::text[]) AND fetched_by IS NULL",
	                   1, params);
	if (!r)
		die("the pending URLs", heed_store_errmsg(w->s));
	for (int i = 0; i < PQntuples(r); i++) {
		long site = site_number(PQgetvalue(r, i, 0));
		int n = atoi(PQgetvalue(r, i, 1)) - 1;

		if (*url_state(f, site, n) & URL_DONE)
			f->lost_writes++;
		for (int k = from; k < w->nheld; k++)
			if (w->held[k].site == site)
				w->held[k].pending |= 1u << n;
	}
	PQclear(r);
}

/* Lets held[i] go: its last start recorded, released idle when nothing
 * is left, due now otherwise. */
static void hand_back(struct fleet *f, struct worker *w, int i, int64_t now)
{
	struct held *h = &w->held[i];
	char name[40];
	bool held = false;

	site_name(name, sizeof(name), h->site);
	check(w->s,
	      heed_store_lease_release(
	              w->s, name, life_of(f, w)->name, h->token,
	              h->last_start > 0 ? h->last_start : 0,
	              h->pending ? now : HEED_LEASE_IDLE, &held),
	      "release");
	if (held)
		f->grants[h->grant].released = now;
	else
		f->lost_live++;
	w->held[i] = w->held[--w->nheld];
}

static void beat(struct fleet *f, struct worker *w, int64_t now)
{
	struct heed_lease_beat b;
	double t0 = mono_ms();

	check(w->s,
	      heed_store_lease_worker_beat(w->s, life_of(f, w)->name, now,
	                                   f->o.lease_ms, &b),
	      "beat");
	sample(&f->beat_ms, mono_ms() - t0);
	f->beats++;
	/* The design before renewed every held lease row a third of a
	 * lease after the last renewal. */
	if (now - w->last_renewal >= f->o.lease_ms / 3) {
		f->renew_rows_old += w->nheld;
		w->last_renewal = now;
	}
	if (w->epoch != b.epoch)
		if (w->epoch && b.epoch != w->epoch && w->nheld) {
			f->lost_live += w->nheld;
			w->nheld = 0;
		}
	w->epoch = b.epoch;
	w->last_beat = now;
	w->live = b.live;
	w->active = b.active;
	note_alive(f, w, b.alive_until);
}

/* The fair share of the sites with work, at most the holding. */
static int target(const struct fleet *f, const struct worker *w)
{
	int64_t share =
	        w->live > 0 ? (w->active + w->live - 1) / w->live : f->o.hold;

	return share < f->o.hold ? (int)share : f->o.hold;
}

static void claim(struct fleet *f, struct worker *w, int64_t now)
{
	int from = w->nheld, want;

	if (now - w->last_beat >= BEAT_FRESH)
		beat(f, w, now);
	want = target(f, w) - w->nheld;
	while (want > 0) {
		struct claim_ctx c = {f, w, now};
		int before = w->nheld;
		double t0 = mono_ms();

		check(w->s,
		      heed_store_lease_claim(
		              w->s, life_of(f, w)->name, now, f->o.lease_ms,
		              want < CLAIM_MAX ? want : CLAIM_MAX,
		              note_grant_row, &c),
		      "claim");
		sample(&f->claim_ms, mono_ms() - t0);
		f->claims++;
		if (w->nheld == before)
			break;
		want -= w->nheld - before;
	}
	read_pending(f, w, from);
	/* A site taken over whose URLs were all committed: nothing to do
	 * but hand it back. */
	for (int i = w->nheld - 1; i >= from; i--)
		if (!w->held[i].pending)
			hand_back(f, w, i, now);
}

/* The fake fetch: the next URL of each site whose delay has passed. The
 * batch's (site, n) pairs go to sites[]/ns[] (held indexes). */
static int fetch_due(struct fleet *f, struct worker *w, int64_t now, int *which,
                     int *ns)
{
	int m = 0;

	for (int i = 0; i < w->nheld; i++) {
		struct held *h = &w->held[i];
		int n;
		unsigned char *u;

		if (!h->pending || h->start_at > now)
			continue;
		n = __builtin_ctz(h->pending);
		h->pending &= ~(1u << n);
		h->last_start = now;
		h->start_at = now + f->o.delay_ms;
		u = url_state(f, h->site, n);
		if ((*u & URL_FETCHES) < URL_FETCHES)
			(*u)++;
		f->fetched++;
		which[m] = i;
		ns[m++] = n;
	}
	return m;
}

struct hold_ctx {
	struct worker *w;
	unsigned char *kept; /* per held index */
};

static int note_hold(void *ud, const struct heed_site_lease *l)
{
	struct hold_ctx *c = ud;
	long site = site_number(l->site);

	for (int i = 0; i < c->w->nheld; i++)
		if (c->w->held[i].site == site &&
		    c->w->held[i].token == l->token)
			c->kept[i] = 1;
	return 0;
}

/* The batch: the fence, then the fetched URLs of the sites it kept, in
 * one transaction. Sites the fence did not keep are dropped. */
static void commit_batch(struct fleet *f, struct worker *w, int m,
                         const int *which, const int *ns, unsigned char *kept)
{
	char name[40], num[16];
	const char *params[3];
	struct hold_ctx c = {w, kept};
	size_t len = 0;
	char *json, *sites, *nums;
	int64_t changed = 0, sent = 0;

	if (!m)
		return;
	memset(kept, 0, (size_t)w->nheld);
	append(f, &len, "[");
	for (int i = 0; i < m; i++) {
		append(f, &len, i ? ",\"" : "\"");
		append(f, &len,
		       site_name(name, sizeof(name), w->held[which[i]].site));
		append(f, &len, "\"");
	}
	append(f, &len, "]");
	json = strdup(f->buf);
	check(w->s, heed_store_begin(w->s), "begin");
	check(w->s,
	      heed_store_lease_hold(w->s, life_of(f, w)->name, json, note_hold,
	                            &c),
	      "hold");
	len = 0;
	append(f, &len, "{");
	for (int i = 0; i < m; i++)
		if (kept[which[i]]) {
			append(f, &len, sent++ ? "," : "");
			append(f, &len,
			       site_name(name, sizeof(name),
			                 w->held[which[i]].site));
		}
	append(f, &len, "}");
	sites = strdup(f->buf);
	len = 0;
	append(f, &len, "{");
	for (int i = 0, k = 0; i < m; i++)
		if (kept[which[i]]) {
			snprintf(num, sizeof(num), "%s%d", k++ ? "," : "",
			         ns[i] + 1);
			append(f, &len, num);
		}
	append(f, &len, "}");
	nums = f->buf;
	if (!sites || !json)
		die("memory", "out of memory");
	params[0] = life_of(f, w)->name;
	params[1] = sites;
	params[2] = nums;
	if (sent)
		check(w->s,
		      heed__pg_run(
		              w->s,
		              "UPDATE fleet_frontier f SET fetched_by = $1 "
		              "FROM unnest($2::text[], $3::int[]) AS "
		              "v(site, n) WHERE f.site = v.site AND f.n = "
		              "v.n AND f.fetched_by IS NULL",
		              3, params, &changed),
		      "the batch");
	check(w->s, heed_store_commit(w->s), "commit");
	f->committed += changed;
	f->dup_committed += sent - changed;
	for (int i = 0; i < m; i++)
		if (kept[which[i]])
			*url_state(f, w->held[which[i]].site, ns[i]) |=
			        URL_DONE;
	/* A site the fence did not keep was lost: dropped unreleased. */
	for (int i = 0; i < m; i++)
		if (!kept[which[i]])
			w->held[which[i]].lost = true;
	for (int i = w->nheld - 1; i >= 0; i--)
		if (w->held[i].lost) {
			f->lost_live++;
			w->held[i] = w->held[--w->nheld];
		}
	free(json);
	free(sites);
}

/* Whether the turn had anything to do. */
static bool turn(struct fleet *f, struct worker *w, int64_t now, int *which,
                 int *ns, unsigned char *kept)
{
	long before = f->beats + f->claims;
	int m, nheld = w->nheld;

	if (now - w->last_beat >= f->o.lease_ms / 3)
		beat(f, w, now);
	m = fetch_due(f, w, now, which, ns);
	commit_batch(f, w, m, which, ns, kept);
	for (int i = w->nheld - 1; i >= 0; i--)
		if (!w->held[i].pending)
			hand_back(f, w, i, now);
	if (w->nheld < target(f, w))
		claim(f, w, now);
	return m || nheld != w->nheld || before != f->beats + f->claims;
}

static void join(struct fleet *f, struct worker *w, int slot)
{
	struct life *l;

	if (f->nlives == MAX_INCS)
		die("lives", "more than the bench records");
	w->life = f->nlives++;
	l = &f->lives[w->life];
	memset(l, 0, sizeof(*l));
	snprintf(l->name, sizeof(l->name), "w%d.%d", slot, w->life);
	w->s = open_store(f->url);
	w->state = ALIVE;
	w->nheld = 0;
	w->epoch = 0;
	w->last_beat = 0;
	w->last_renewal = wall_ms();
	beat(f, w, wall_ms());
	f->joins++;
}

/* holder's heartbeat end as the store has it: a claim that granted
 * nothing moved it on without telling the bench. */
static int64_t heartbeat_end(struct fleet *f, const char *holder)
{
	PGresult *r = PQexecParams(f->admin,
	                           "SELECT alive_until FROM lease_workers "
	                           "WHERE holder = $1",
	                           1, NULL, &holder, NULL, NULL, 0);
	int64_t v;

	if (PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) != 1)
		die(holder, "no heartbeat row");
	v = atoll(PQgetvalue(r, 0, 0));
	PQclear(r);
	return v;
}

/* kill -9 after the fetches, before the batch: the connection closes,
 * nothing more is written. */
static void kill_worker(struct fleet *f, struct worker *w, int *which, int *ns)
{
	int64_t now = wall_ms();
	int m = fetch_due(f, w, now, which, ns);

	for (int i = 0; i < m; i++)
		*url_state(f, w->held[which[i]].site, ns[i]) |= URL_ORPHAN;
	heed_store_close(w->s);
	life_of(f, w)->killed_at = now;
	life_of(f, w)->held_at_kill = w->nheld;
	life_of(f, w)->alive_until = heartbeat_end(f, life_of(f, w)->name);
	w->s = NULL;
	w->state = ABSENT;
	f->kills++;
}

static void leave(struct fleet *f, struct worker *w)
{
	int64_t now = wall_ms();

	while (w->nheld)
		hand_back(f, w, w->nheld - 1, now);
	check(w->s, heed_store_lease_worker_leave(w->s, life_of(f, w)->name),
	      "leave");
	heed_store_close(w->s);
	w->s = NULL;
	w->state = ABSENT;
	f->leaves++;
}

/* A worker in the given state, searched from a place that moves. */
static struct worker *pick(struct fleet *f, int state, unsigned *seed)
{
	int start = (int)(rand_r(seed) % (unsigned)f->o.workers);

	for (int i = 0; i < f->o.workers; i++) {
		struct worker *w = &f->w[(start + i) % f->o.workers];
		if (w->state == state)
			return w;
	}
	return NULL;
}

static void event(struct fleet *f, long nth, int64_t end, unsigned *seed,
                  int *which, int *ns)
{
	struct worker *w;

	switch (nth % 4) {
	case 0: /* a kill, not in the last two leases */
		if (wall_ms() + 2 * f->o.lease_ms < end &&
		    (w = pick(f, ALIVE, seed)))
			kill_worker(f, w, which, ns);
		break;
	case 2:
		if ((w = pick(f, ALIVE, seed)))
			leave(f, w);
		break;
	default:
		if ((w = pick(f, ABSENT, seed)))
			join(f, w, (int)(w - f->w));
	}
}

static void print_sample(struct fleet *f, double t, long claims_from)
{
	struct table_writes s[NTABLES];

	run(f->admin, "SELECT pg_stat_clear_snapshot()", 0, NULL);
	table_stats(f->admin, s);
	printf("  %5.0f s: %ld grants, claim median %.1f ms (p99 %.1f) "
	       "since the last line; dead tuples: site_leases %lld, "
	       "lease_workers %lld, fleet_frontier %lld; vacuums of "
	       "site_leases %lld\n",
	       t / 1e3, f->ngrants, quantile(&f->claim_ms, claims_from, 0.5),
	       quantile(&f->claim_ms, claims_from, 0.99), (long long)s[0].dead,
	       (long long)s[1].dead, (long long)s[5].dead,
	       (long long)s[0].vacuums);
	fflush(stdout);
}

/*
 * Every live worker's heartbeat that is a third of a lease old: run
 * after each turn, since a round of turns may take longer than a lease
 * when the store is the bottleneck, and a real worker's beat does not
 * wait for the others' work.
 */
static void beats_due(struct fleet *f)
{
	for (int i = 0; i < f->o.workers; i++) {
		struct worker *w = &f->w[i];
		int64_t now = wall_ms();

		if (w->state == ALIVE &&
		    now - w->last_beat >= f->o.lease_ms / 3)
			beat(f, w, now);
	}
}

static void run_fleet(struct fleet *f)
{
	static int which[1 << 16], ns[1 << 16];
	static unsigned char kept[1 << 16];
	unsigned seed = 1;
	double t0 = mono_ms(), next_event = EVENT_MS, next_sample = SAMPLE_MS;
	int64_t end = wall_ms() + f->o.seconds * 1000;
	long events = 0, turns = 0, claims_from = 0;
	bool busy = false;

	for (int i = 0; i < f->o.workers; i++)
		join(f, &f->w[i], i);
	/* Bounded by the clock and by a count of turns no run reaches. */
	for (int i = 0; wall_ms() < end && turns < 1000000000L;
	     i = (i + 1) % f->o.workers) {
		if (f->w[i].state == ALIVE) {
			busy |= turn(f, &f->w[i], wall_ms(), which, ns, kept);
			turns++;
		}
		/* A round where no worker had anything to do waits a little
		 * rather than spin. */
		if (i == f->o.workers - 1 && !busy)
			usleep(1000);
		if (i == f->o.workers - 1)
			busy = false;
		beats_due(f);
		if (mono_ms() - t0 >= next_event) {
			event(f, events++, end, &seed, which, ns);
			next_event += EVENT_MS;
		}
		if (mono_ms() - t0 >= next_sample) {
			print_sample(f, mono_ms() - t0, claims_from);
			claims_from = f->claim_ms.n;
			next_sample += SAMPLE_MS;
		}
	}
	printf("run: %.1f s, %ld turns, %ld joins, %ld leaves, %ld kills\n",
	       (mono_ms() - t0) / 1e3, turns, f->joins, f->leaves, f->kills);
}

/* What renewing every held lease row once would write now: the
 * statement before, for each live worker, rolled back. */
static long old_renewal_rows(struct fleet *f, long *held)
{
	char until[24];
	long rows = 0;

	*held = 0;
	snprintf(until, sizeof(until), "%lld",
	         (long long)(wall_ms() + f->o.lease_ms));
	run(f->admin, "BEGIN", 0, NULL);
	for (int i = 0; i < f->o.workers; i++)
		if (f->w[i].state == ALIVE) {
			const char *p[2] = {life_of(f, &f->w[i])->name, until};
			rows += run(f->admin, OLD_RENEW, 2, p);
			*held += f->w[i].nheld;
		}
	run(f->admin, "ROLLBACK", 0, NULL);
	return rows;
}

/* Sites killed lives held that no grant followed. */
static long not_taken_over(struct fleet *f)
{
	long n = 0;

	for (long s = 0; s < f->o.sites; s++)
		if (f->last_grant[s]) {
			struct grant *g = &f->grants[f->last_grant[s] - 1];
			if (!g->released && f->lives[g->life].killed_at)
				n++;
		}
	return n;
}

static long url_count(struct fleet *f, unsigned char mask, int fetches)
{
	long n = 0, all = f->o.sites * f->o.urls;

	for (long i = 0; i < all; i++)
		if ((f->url_state[i] & mask) == mask &&
		    (f->url_state[i] & URL_FETCHES) >= fetches)
			n++;
	return n;
}

/* URLs fetched twice that a killed worker had not committed. */
static long orphans_twice(struct fleet *f)
{
	long n = 0, all = f->o.sites * f->o.urls;

	for (long i = 0; i < all; i++)
		if ((f->url_state[i] & URL_FETCHES) >= 2 &&
		    (f->url_state[i] & URL_ORPHAN))
			n++;
	return n;
}

static int checks(struct fleet *f)
{
	char sql[256];
	long granted_sites = 0, twice = url_count(f, 0, 2),
	     orphan_twice = orphans_twice(f), done = url_count(f, URL_DONE, 1),
	     left_killed = not_taken_over(f), killed_held = 0;
	int64_t rows, stranded, fetched, token_sum, touched, held_end, kept,
	        scanned;
	int failed = 0;

	for (long s = 0; s < f->o.sites; s++)
		granted_sites += f->last_grant[s] != 0;
	for (int i = 0; i < f->nlives; i++)
		killed_held += f->lives[i].held_at_kill;
	rows = value(f->admin, "SELECT count(*) FROM fleet_frontier");
	fetched = value(f->admin, "SELECT count(*) FROM fleet_frontier WHERE "
	                          "fetched_by IS NOT NULL");
	snprintf(sql, sizeof(sql),
	         "SELECT count(DISTINCT f.site) FROM fleet_frontier f JOIN "
	         "site_leases l USING (site) WHERE f.fetched_by IS NULL AND "
	         "l.next_allowed_at = %lld",
	         (long long)HEED_LEASE_IDLE);
	stranded = value(f->admin, sql);
	token_sum = value(f->admin, "SELECT sum(token) FROM site_leases");
	touched = value(f->admin, "SELECT count(*) FROM site_leases WHERE "
	                          "token > 0");
	held_end = value(f->admin, "SELECT count(*) FROM site_leases WHERE "
	                           "holder IS NOT NULL");
	kept = value(f->admin, "SELECT (SELECT active FROM lease_counts) + "
	                       "(SELECT coalesce(sum(n), 0) FROM "
	                       "lease_count_deltas)");
	snprintf(sql, sizeof(sql),
	         "SELECT count(*) FROM site_leases WHERE next_allowed_at <> "
	         "%lld",
	         (long long)HEED_LEASE_IDLE);
	scanned = value(f->admin, sql);
	printf("checks:\n");
	printf("  grants %ld of %ld sites; tokens in the store: %lld over "
	       "%lld sites; token gaps %ld; granted while another live "
	       "lease held the site: %ld\n",
	       f->ngrants, granted_sites, (long long)token_sum,
	       (long long)touched, f->token_gaps, f->double_held);
	failed |= token_sum != f->ngrants || touched != granted_sites ||
	          f->token_gaps || f->double_held;
	printf("  killed workers: %ld, holding %ld sites; taken over %ld, "
	       "left untaken %ld; longest from a heartbeat's end to the "
	       "takeover %.1f s, from the kill %.1f s (lease %.1f s); leases "
	       "lost by live workers %ld\n",
	       f->kills, killed_held, f->takeovers, left_killed,
	       f->takeover_lag_max / 1e3, f->kill_lag_max / 1e3,
	       f->o.lease_ms / 1e3, f->lost_live);
	failed |= left_killed || f->takeovers != killed_held ||
	          f->takeover_lag_max > f->o.lease_ms || f->lost_live;
	printf("  frontier: %lld rows of %ld; fetched %ld times, %ld "
	       "committed by the bench, %lld marked in the store; URLs "
	       "fetched twice %ld (of them a killed worker's uncommitted "
	       "%ld), committed twice %ld; sites idle with a URL left "
	       "%lld; sites held at the end %lld\n",
	       (long long)rows, f->o.sites * f->o.urls, f->fetched, done,
	       (long long)fetched, twice, orphan_twice, f->dup_committed,
	       (long long)stranded, (long long)held_end);
	printf("  URLs committed that a later grant read as not fetched: "
	       "%ld\n",
	       f->lost_writes);
	printf("  sites with work: kept count %lld, a scan %lld\n",
	       (long long)kept, (long long)scanned);
	failed |= kept != scanned;
	failed |= f->lost_writes || rows != f->o.sites * f->o.urls ||
	          fetched != done || twice != orphan_twice ||
	          f->dup_committed || stranded || held_end != left_killed;
	printf("  %s\n", failed ? "FAILED" : "all held");
	return failed;
}

static void print_writes(struct fleet *f, const struct table_writes *a,
                         const struct table_writes *b, double seconds)
{
	printf("upkeep, row writes a second over the run (inserted + "
	       "updated + deleted; HOT of the updates):\n");
	for (int k = 0; k < NTABLES; k++) {
		int64_t ins = b[k].ins - a[k].ins, upd = b[k].upd - a[k].upd,
		        del = b[k].del - a[k].del, hot = b[k].hot - a[k].hot;
		printf("  %-18s %9.1f /s (ins %lld, upd %lld (HOT %lld), del "
		       "%lld); dead tuples %lld -> %lld, vacuums %lld\n",
		       table_names[k], (ins + upd + del) / seconds,
		       (long long)ins, (long long)upd, (long long)hot,
		       (long long)del, (long long)a[k].dead,
		       (long long)b[k].dead,
		       (long long)(b[k].vacuums - a[k].vacuums));
	}
	printf("  the design before, renewing every held lease row at each "
	       "of the %ld beats: %ld rows, %.1f /s more on site_leases\n",
	       f->beats, f->renew_rows_old, f->renew_rows_old / seconds);
}

static void print_sizes(PGconn *c)
{
	/* Tables and indexes with storage: a partitioned table's are its
	 * partitions'. */
	PGresult *r = query(
	        c, "SELECT c.relname, c.relkind, pg_relation_size(c.oid), "
	           "coalesce(t.relname, '') FROM pg_class c LEFT JOIN "
	           "pg_index i ON i.indexrelid = c.oid LEFT JOIN pg_class t "
	           "ON t.oid = i.indrelid LEFT JOIN pg_inherits h ON "
	           "h.inhrelid = coalesce(t.oid, c.oid) LEFT JOIN pg_class p "
	           "ON p.oid = h.inhparent WHERE coalesce(p.relname, "
	           "t.relname, c.relname) IN " LEASE_TABLES
	           " AND c.relkind IN ('r', 'i') ORDER BY 4, 1");

	printf("sizes:\n");
	for (int i = 0; i < PQntuples(r); i++)
		printf("  %-28s %s %8.1f MB\n", PQgetvalue(r, i, 0),
		       *PQgetvalue(r, i, 3) ? "index" : "table",
		       atof(PQgetvalue(r, i, 2)) / 1048576.0);
	PQclear(r);
}

/* The beat, quiet, with the workers' heartbeat rows there are: QUIET_BEATS
 * times, median and 99th percentile. */
static void quiet_beats(const char *url, const char *label)
{
	heed_store *s = open_store(url);
	struct samples t = {0};
	struct heed_lease_beat b;
	int64_t now = wall_ms();

	for (int i = 0; i < QUIET_BEATS; i++) {
		double t0 = mono_ms();
		check(s,
		      heed_store_lease_worker_beat(s, "quiet", now + i, 15000,
		                                   &b),
		      "beat");
		sample(&t, mono_ms() - t0);
	}
	heed_store_close(s);
	printf("  %s: beat median %.2f ms (p99 %.2f), %lld sites with work, "
	       "%lld live workers\n",
	       label, quantile(&t, 0, 0.5), quantile(&t, 0, 0.99),
	       (long long)b.active, (long long)b.live);
	free(t.v);
}

/* The fair share's beat on stores of 1 and 10 sites, with as many live
 * heartbeat rows as the fleet has workers. */
static void small_stores(const char *base, int workers)
{
	static const long sizes[] = {1, 10};

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		char url[512], sql[256], label[32];
		PGconn *c = fresh_database(base, "bench_fleet_small", url,
		                           sizeof(url));

		snprintf(sql, sizeof(sql),
		         "INSERT INTO site_leases(site, delay_ms, "
		         "next_allowed_at) SELECT 's' || g || '.example', "
		         "1000, 0 FROM generate_series(1, %ld) g",
		         sizes[i]);
		run(c, sql, 0, NULL);
		snprintf(sql, sizeof(sql),
		         "INSERT INTO lease_workers(holder, alive_until) "
		         "SELECT 'x' || g, %lld FROM generate_series(2, %d) g",
		         (long long)(wall_ms() + 3600000), workers);
		run(c, sql, 0, NULL);
		run(c, "VACUUM ANALYZE", 0, NULL);
		PQfinish(c);
		snprintf(label, sizeof(label), "%ld site%s", sizes[i],
		         sizes[i] > 1 ? "s" : "");
		quiet_beats(url, label);
		drop_database(base, "bench_fleet_small");
	}
}

static void usage(void)
{
	fprintf(stderr, "usage: bench_fleet POSTGRESQL-URL [--sites N] "
	                "[--urls N] [--workers N] [--seconds N] "
	                "[--lease-ms N] [--hold N] [--delay-ms N]\n");
	exit(2);
}

static void parse(int argc, char **argv, struct options *o)
{
	*o = (struct options){10000000L, 2, 100, 256, 180, 15000, 1000};
	for (int i = 2; i < argc; i++) {
		long long v = i + 1 < argc ? atoll(argv[i + 1]) : 0;
		const char *a = argv[i++];

		if (!strcmp(a, "--sites"))
			o->sites = (long)v;
		else if (!strcmp(a, "--urls"))
			o->urls = (int)v;
		else if (!strcmp(a, "--workers"))
			o->workers = (int)v;
		else if (!strcmp(a, "--seconds"))
			o->seconds = v;
		else if (!strcmp(a, "--lease-ms"))
			o->lease_ms = v;
		else if (!strcmp(a, "--hold"))
			o->hold = (int)v;
		else if (!strcmp(a, "--delay-ms"))
			o->delay_ms = v;
		else
			usage();
	}
	if (o->sites < 1 || o->urls < 1 || o->urls > MAX_URLS ||
	    o->workers < 2 || o->workers > MAX_WORKERS || o->seconds < 1 ||
	    o->lease_ms < 3000 || o->hold < 1 || o->hold > 1 << 16 ||
	    o->delay_ms < 0)
		usage();
}

int main(int argc, char **argv)
{
	static struct fleet f;
	struct table_writes before[NTABLES], after[NTABLES];
	double t0, seconds;
	long old_rows, held;
	int failed;

	if (argc < 2 || !strrchr(argv[1], '/'))
		usage();
	parse(argc, argv, &f.o);
	f.lives = grow(NULL, MAX_INCS, sizeof(f.lives[0]));
	f.last_grant = calloc((size_t)f.o.sites, sizeof(f.last_grant[0]));
	f.url_state = calloc((size_t)(f.o.sites * f.o.urls), 1);
	if (!f.last_grant || !f.url_state)
		die("memory", "out of memory");
	for (int i = 0; i < f.o.workers; i++)
		f.w[i].held = grow(NULL, (size_t)f.o.hold + CLAIM_MAX,
		                   sizeof(struct held));
	f.admin = fresh_database(argv[1], "bench_fleet", f.url, sizeof(f.url));
	fill(f.admin, &f.o, wall_ms() - 1000);
	stats_fresh(f.admin);
	table_stats(f.admin, before);
	printf("fleet: %d workers, %d sites held at most each, %.0f s leases, "
	       "%lld ms between a site's requests, %lld s\n",
	       f.o.workers, f.o.hold, f.o.lease_ms / 1e3,
	       (long long)f.o.delay_ms, (long long)f.o.seconds);
	fflush(stdout);
	t0 = mono_ms();
	run_fleet(&f);
	seconds = (mono_ms() - t0) / 1e3;
	printf("claims: %ld calls, %ld sites granted (%ld taken over), %.0f "
	       "a second; one claim call median %.2f ms, p99 %.2f ms, "
	       "slowest %.1f ms\n",
	       f.claims, f.ngrants, f.takeovers, f.ngrants / seconds,
	       quantile(&f.claim_ms, 0, 0.5), quantile(&f.claim_ms, 0, 0.99),
	       quantile(&f.claim_ms, 0, 1));
	printf("beats in the run: %ld, median %.2f ms, p99 %.2f ms; URLs "
	       "fetched %.0f a second\n",
	       f.beats, quantile(&f.beat_ms, 0, 0.5),
	       quantile(&f.beat_ms, 0, 0.99), f.fetched / seconds);
	old_rows = old_renewal_rows(&f, &held);
	printf("one renewal of the live workers as before would write "
	       "%ld site_leases rows (rolled back; %ld held)\n",
	       old_rows, held);
	/* The live workers leave: their hand-backs are part of the run. */
	for (int i = 0; i < f.o.workers; i++)
		if (f.w[i].state == ALIVE)
			leave(&f, &f.w[i]);
	seconds = (mono_ms() - t0) / 1e3;
	stats_fresh(f.admin);
	table_stats(f.admin, after);
	/* The rolled-back renewal's updates are counted all the same. */
	after[0].upd -= old_rows;
	print_writes(&f, before, after, seconds);
	failed = checks(&f);
	print_sizes(f.admin);
	printf("fair share:\n");
	quiet_beats(f.url, "the fleet's store");
	PQfinish(f.admin);
	drop_database(argv[1], "bench_fleet");
	small_stores(argv[1], f.o.workers);
	return failed;
}
