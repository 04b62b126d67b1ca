/*
 * Unit tests of the store's "irc" area, on SQLite and, run by meson a second
 * time with a PostgreSQL cluster (unit.store_irc_pg), on PostgreSQL: networks
 * and their next allowed visit (kept across a reopen), visits, servers and
 * channels with first-seen/last-seen, and the public list's rules (latest
 * complete visit; networks that deny are left out), and what servers say kept
 * as bytes.
 */
#include "pg_test.h"

#include <unistd.h>

#include "heed/store_irc.h"

struct seen {
	char text[1024];
	int rows;
};

/* A new store at a fresh name made from path (a mkstemp template, PATH_SIZE
 * bytes): with the PostgreSQL cluster, a new database whose URL replaces
 * path. */
#define PATH_SIZE 256
static heed_store *temp_store(char *path)
{
	int fd;
	heed_store *st;

	if (heed_test_pg()) {
		heed_test_pg_fresh(path, PATH_SIZE);
		assert_int_equal(
		        heed_store_open(&st, path, heed_test_allocator(), NULL),
		        HEED_OK);
		return st;
	}
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(
	        heed_store_open(&st, path, heed_test_allocator(), NULL),
	        HEED_OK);
	return st;
}

/* Closes st and removes its files. */
static void drop_temp_store(heed_store *st, const char *path)
{
	heed_store_close(st);
	unlink(path);
	for (int i = 0; i < 2; i++) {
		char side[64];
		snprintf(side, sizeof(side), "%s%s", path, i ? "-shm" : "-wal");
		unlink(side);
	}
}

static int on_channel(void *ud, const struct heed_store_irc_channel_row *r)
{
	struct seen *s = ud;
	size_t n = strlen(s->text);

	snprintf(s->text + n, sizeof(s->text) - n, "%s %s %lld %.*s %lld-%lld|",
	         r->network_key, r->name, (long long)r->users,
	         (int)r->topic_len, r->topic, (long long)r->first_seen_s,
	         (long long)r->last_seen_s);
	s->rows++;
	return 0;
}

static int on_server(void *ud, const struct heed_store_irc_server_row *r)
{
	struct seen *s = ud;
	size_t n = strlen(s->text);

	snprintf(s->text + n, sizeof(s->text) - n, "%s<%s:%d|", r->name, r->hub,
	         r->hops);
	s->rows++;
	return 0;
}

static int on_network(void *ud, const struct heed_store_irc_network_row *r)
{
	struct seen *s = ud;
	size_t n = strlen(s->text);

	snprintf(s->text + n, sizeof(s->text) - n, "%s %s %s %s %lld %lld|",
	         r->key, r->name, r->last_status, r->verdict,
	         (long long)r->next_visit_s, (long long)r->channels);
	s->rows++;
	return 0;
}

static int on_visit(void *ud, const struct heed_store_irc_visit_row *r)
{
	struct seen *s = ud;
	size_t n = strlen(s->text);

	snprintf(s->text + n, sizeof(s->text) - n,
	         "%lld-%lld %s %lld %lld %lld|", (long long)r->started_s,
	         (long long)r->ended_s, r->status, (long long)r->users,
	         (long long)r->servers, (long long)r->channels);
	s->rows++;
	return 0;
}

/* One visit: the channels given as "name users topic;...". */
static void visit(heed_store_irc *w, const char *key, int64_t t,
                  heed_irc_visit_status status, heed_irc_crawler_verdict v,
                  const char *const *channels, size_t n)
{
	struct heed_irc_crawler_pref pref = {v, 60, 0};
	struct heed_irc_lusers l = {3, 1, 2, -1, -1, 4, -1, -1};
	int64_t net, vid, next;

	assert_int_equal(heed_store_irc_network(w, key, t, &net, &next),
	                 HEED_OK);
	assert_int_equal(heed_store_irc_visit_begin(w, net, "127.0.0.1", 6667,
	                                            false, t, &vid),
	                 HEED_OK);
	assert_int_equal(
	        heed_store_irc_visit_server(w, vid, "s.test", "v1", "TestNet"),
	        HEED_OK);
	assert_int_equal(heed_store_irc_preference(w, net, vid, "s.test",
	                                           "index:allow", &pref, t),
	                 HEED_OK);
	assert_int_equal(heed_store_irc_visit_lusers(w, vid, &l), HEED_OK);
	assert_int_equal(heed_store_irc_server(w, net, vid, "s.test", "s.test",
	                                       0, "Server S", t),
	                 HEED_OK);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(
		        heed_store_irc_channel(w, net, vid, channels[i],
		                               (int64_t)i + 1, "topic", 5, t),
		        HEED_OK);
	assert_int_equal(heed_store_irc_visit_end(w, net, vid, status, "r",
	                                          &pref, t + 1, t + 61),
	                 HEED_OK);
}

static void test_store_irc_flow(void **state)
{
	static const char *const first[] = {"#a", "#b"};
	static const char *const second[] = {"#b", "#c"};
	char path[PATH_SIZE] = "/tmp/heed-store-irc-XXXXXX";
	heed_store *st;
	heed_store_irc *w;
	struct seen s = {{0}, 0};
	int64_t id, next;
	int port;
	(void)state;

	st = temp_store(path);
	assert_int_equal(heed_store_irc_new(&w, st), HEED_OK);
	visit(w, "irc.a:6667", 1000, HEED_IRC_VISIT_COMPLETE,
	      HEED_IRC_CRAWLER_ALLOW, first, 2);
	visit(w, "irc.a:6667", 2000, HEED_IRC_VISIT_COMPLETE,
	      HEED_IRC_CRAWLER_ALLOW, second, 2);
	/* A partial visit adds what it saw and hides nothing. */
	visit(w, "irc.a:6667", 3000, HEED_IRC_VISIT_PARTIAL,
	      HEED_IRC_CRAWLER_ALLOW, first, 1);
	visit(w, "irc.deny:6667", 1000, HEED_IRC_VISIT_COMPLETE,
	      HEED_IRC_CRAWLER_ALLOW, first, 1);
	visit(w, "irc.deny:6667", 2000, HEED_IRC_VISIT_DENIED,
	      HEED_IRC_CRAWLER_DENY, NULL, 0);
	assert_int_equal(heed_store_irc_sts_set(w, "irc.a", 6697, 5000),
	                 HEED_OK);
	heed_store_irc_free(w);

	assert_int_equal(heed_store_irc_each_channel(st, NULL, on_channel, &s),
	                 HEED_OK);
	assert_string_equal(s.text, "irc.a:6667 #a 1 topic 1000-3000|"
	                            "irc.a:6667 #b 1 topic 1000-2000|"
	                            "irc.a:6667 #c 2 topic 2000-2000|");
	memset(&s, 0, sizeof(s));
	assert_int_equal(
	        heed_store_irc_each_server(st, "irc.a:6667", on_server, &s),
	        HEED_OK);
	assert_string_equal(s.text, "s.test<s.test:0|");
	memset(&s, 0, sizeof(s));
	assert_int_equal(heed_store_irc_each_network(st, on_network, &s),
	                 HEED_OK);
	assert_string_equal(s.text,
	                    "irc.a:6667 TestNet partial allow 3061 2|"
	                    "irc.deny:6667 TestNet denied deny 2061 1|");
	/* The history: the last two finished visits, oldest first, users
	 * visible and invisible; none of a network that now denies. */
	memset(&s, 0, sizeof(s));
	assert_int_equal(
	        heed_store_irc_each_visit(st, "irc.a:6667", 2, on_visit, &s),
	        HEED_OK);
	assert_string_equal(s.text, "2000-2001 complete 4 1 2|"
	                            "3000-3001 partial 4 1 1|");
	memset(&s, 0, sizeof(s));
	assert_int_equal(heed_store_irc_each_visit(st, "irc.deny:6667", 10,
	                                           on_visit, &s),
	                 HEED_OK);
	assert_int_equal(s.rows, 0);
	heed_store_close(st);

	/* The next allowed visit survives a restart. */
	assert_int_equal(
	        heed_store_open(&st, path, heed_test_allocator(), NULL),
	        HEED_OK);
	assert_int_equal(heed_store_irc_new(&w, st), HEED_OK);
	assert_int_equal(
	        heed_store_irc_network(w, "irc.deny:6667", 9, &id, &next),
	        HEED_OK);
	assert_int_equal(next, 2061);
	assert_int_equal(heed_store_irc_network(w, "new:1", 9, &id, &next),
	                 HEED_OK);
	assert_int_equal(next, 0);
	heed_store_irc_free(w);
	assert_int_equal(heed_store_irc_sts_get(st, "irc.a", 4000, &port),
	                 HEED_OK);
	assert_int_equal(port, 6697);
	assert_int_equal(heed_store_irc_sts_get(st, "irc.a", 5000, &port),
	                 HEED_OK);
	assert_int_equal(port, 0);
	drop_temp_store(st, path);
}

/* One visit of key started at t, ended at t + 1 with status, having read
 * the CRAWLER verdict v (NONE: no token) and cooldown, held to next. */
static void held_visit(heed_store_irc *w, const char *key, int64_t t,
                       heed_irc_visit_status status, heed_irc_crawler_verdict v,
                       int64_t cooldown, int64_t next)
{
	struct heed_irc_crawler_pref pref = {v, cooldown, 0};
	int64_t net, vid;

	assert_int_equal(heed_store_irc_network(w, key, t, &net, NULL),
	                 HEED_OK);
	assert_int_equal(heed_store_irc_visit_begin(w, net, "127.0.0.1", 6667,
	                                            false, t, &vid),
	                 HEED_OK);
	assert_int_equal(heed_store_irc_preference(
	                         w, net, vid, "s.test",
	                         v == HEED_IRC_CRAWLER_NONE ? NULL : "token",
	                         &pref, t),
	                 HEED_OK);
	assert_int_equal(heed_store_irc_visit_end(w, net, vid, status, "r",
	                                          &pref, t + 1, next),
	                 HEED_OK);
}

static int64_t reset(heed_store *st, const char *key)
{
	int64_t next = -1;

	assert_int_equal(heed_store_irc_reset(st, key, &next), HEED_OK);
	return next;
}

static int64_t next_visit(heed_store *st, const char *key)
{
	int64_t next = -1;

	assert_int_equal(heed_store_irc_next_visit(st, key, &next), HEED_OK);
	return next;
}

/* `heed irc reset` drops heed's own holds (failure, unreachable,
 * ban, the operator's floor) and keeps what the network asked for. */
static void test_store_irc_reset(void **state)
{
	char path[PATH_SIZE] = "/tmp/heed-store-irc-XXXXXX";
	heed_store *st;
	heed_store_irc *w;
	struct seen s = {{0}, 0};
	(void)state;

	st = temp_store(path);
	assert_int_equal(heed_store_irc_new(&w, st), HEED_OK);
	/* CRAWLER=index:allow,cooldown:100, the operator's floor 3600 s. */
	held_visit(w, "tok:6667", 1000, HEED_IRC_VISIT_COMPLETE,
	           HEED_IRC_CRAWLER_ALLOW, 100, 4601);
	held_visit(w, "none:6667", 1000, HEED_IRC_VISIT_COMPLETE,
	           HEED_IRC_CRAWLER_NONE, 3600, 4601);
	held_visit(w, "gone:6667", 1000, HEED_IRC_VISIT_UNREACHABLE,
	           HEED_IRC_CRAWLER_NONE, 3600, 1601);
	held_visit(w, "deny:6667", 1000, HEED_IRC_VISIT_DENIED,
	           HEED_IRC_CRAWLER_DENY, 31536000, 31537001);
	heed_store_irc_free(w);

	assert_int_equal(next_visit(st, "tok:6667"), 4601);
	assert_int_equal(reset(st, "tok:6667"), 1101);
	assert_int_equal(next_visit(st, "tok:6667"), 1101);
	assert_int_equal(reset(st, "none:6667"), 0);
	assert_int_equal(reset(st, "gone:6667"), 0);
	/* A deny's cooldown is the network's own: a reset keeps it. */
	assert_int_equal(reset(st, "deny:6667"), 31537001);

	/* A later ban (no token read) is lifted, the token's cooldown kept. */
	assert_int_equal(heed_store_irc_new(&w, st), HEED_OK);
	held_visit(w, "tok:6667", 5000, HEED_IRC_VISIT_BANNED,
	           HEED_IRC_CRAWLER_NONE, 3600, 5001 + 604800);
	heed_store_irc_free(w);
	assert_int_equal(reset(st, "tok:6667"), 1101);
	assert_int_equal(reset(st, "tok:6667"), 1101);

	/* Unknown keys: not found, and reading one creates nothing. */
	assert_int_equal(heed_store_irc_reset(st, "nope:1", NULL),
	                 HEED_ENOTFOUND);
	assert_int_equal(next_visit(st, "nope:1"), 0);
	assert_int_equal(heed_store_irc_each_network(st, on_network, &s),
	                 HEED_OK);
	assert_int_equal(s.rows, 4);
	drop_temp_store(st, path);
}

struct raw_channel {
	char name[32], topic[32];
	size_t topic_len;
	int rows;
};

static int on_raw_channel(void *ud, const struct heed_store_irc_channel_row *r)
{
	struct raw_channel *c = ud;

	snprintf(c->name, sizeof(c->name), "%s", r->name);
	assert_true(r->topic_len < sizeof(c->topic));
	memcpy(c->topic, r->topic, r->topic_len);
	c->topic_len = r->topic_len;
	c->rows++;
	return 0;
}

/* What a server says is kept as the bytes it sent: invalid UTF-8 and a NUL
 * in a topic come back as they went in, on every backend. */
static void test_store_irc_bytes(void **state)
{
	static const char topic[] = "\xff\x80 a\0b \xc3";
	char path[PATH_SIZE] = "/tmp/heed-store-irc-XXXXXX";
	struct heed_irc_crawler_pref pref = {HEED_IRC_CRAWLER_ALLOW, 60, 0};
	struct raw_channel c = {0};
	heed_store *st;
	heed_store_irc *w;
	int64_t net, vid;
	(void)state;

	st = temp_store(path);
	assert_int_equal(heed_store_irc_new(&w, st), HEED_OK);
	assert_int_equal(heed_store_irc_network(w, "raw:6667", 10, &net, NULL),
	                 HEED_OK);
	assert_int_equal(heed_store_irc_visit_begin(w, net, "127.0.0.1", 6667,
	                                            false, 10, &vid),
	                 HEED_OK);
	assert_int_equal(heed_store_irc_visit_server(w, vid, "s\xe9.test",
	                                             "v\xff", "R\xe9seau"),
	                 HEED_OK);
	assert_int_equal(heed_store_irc_channel(w, net, vid, "#caf\xe9", 3,
	                                        topic, sizeof(topic) - 1, 10),
	                 HEED_OK);
	assert_int_equal(heed_store_irc_visit_end(w, net, vid,
	                                          HEED_IRC_VISIT_COMPLETE, "r",
	                                          &pref, 11, 71),
	                 HEED_OK);
	heed_store_irc_free(w);
	assert_int_equal(
	        heed_store_irc_each_channel(st, "raw:6667", on_raw_channel, &c),
	        HEED_OK);
	assert_int_equal(c.rows, 1);
	assert_string_equal(c.name, "#caf\xe9");
	assert_int_equal(c.topic_len, sizeof(topic) - 1);
	assert_memory_equal(c.topic, topic, sizeof(topic) - 1);
	drop_temp_store(st, path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_store_irc_flow),
	        cmocka_unit_test(test_store_irc_reset),
	        cmocka_unit_test(test_store_irc_bytes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
