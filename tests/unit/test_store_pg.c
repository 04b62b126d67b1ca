/*
 * Unit tests for the PostgreSQL store's front, against the real
 * cluster tests/pgcluster.py starts: a new database is migrated and marked
 * once, a database that is not heed's is refused untouched, two processes
 * opening one new database migrate it once, the crawl lock, errors that
 * name the store without its password, lost connections and server
 * restarts (reconnecting, HEED_ERETRY inside a transaction), and every
 * area answering (each area runs its own tests on both backends:
 * test_store_crawl.c, test_store_irc.c, test_store_search.c...).
 */
#include "pg_test.h"

#include <signal.h>
#include <sys/wait.h>
#include <time.h>

#include "heed/store_arrangements.h"
#include "heed/store_frontier.h"
#include "heed/store_irc.h"
#include "heed/store_pages.h"
#include "heed/store_search.h"
#include "heed/store_sites.h"
#include "heed/store_visits.h"
#include "store/pg-int.h"

/* heed's advisory lock key (src/store/pg-int.h's HEED_PG_LOCK_KEY). */
#define HEED_PG_LOCK_KEY_TEST "1751475556"

static heed_store *open_url(const char *url, unsigned flags)
{
	heed_store *s = NULL;
	struct heed_diag d = {0};

	if (heed_store_open_ex(&s, url, flags, heed_test_allocator(), &d) !=
	    HEED_OK)
		fail_msg("opening %s: %s", url, d.message);
	return s;
}

/* A new database is migrated and marked; opening it again runs nothing:
 * the rows of heed_schema are the ones the first open wrote. */
static void test_fresh_database_migrated_once(void **state)
{
	char url[256], xmin[256];
	heed_store *s;
	int version = 0;

	(void)state;
	heed_test_pg_fresh(url, sizeof(url));
	s = open_url(url, 0);
	assert_string_equal(heed_store_backend_name(s), "postgres");
	assert_int_equal(heed_store_schema_version(s, "core", &version),
	                 HEED_OK);
	assert_int_equal(version, 1);
	assert_int_equal(heed_store_schema_version(s, "frontier", &version),
	                 HEED_OK);
	assert_int_equal(version, 6);
	assert_int_equal(heed_store_schema_version(s, "pages", &version),
	                 HEED_OK);
	assert_int_equal(version, 3);
	assert_int_equal(heed_store_schema_version(s, "visits", &version),
	                 HEED_OK);
	assert_int_equal(version, 4);
	assert_int_equal(heed_store_schema_version(s, "sites", &version),
	                 HEED_OK);
	assert_int_equal(version, 3);
	assert_int_equal(heed_store_schema_version(s, "arrangements", &version),
	                 HEED_OK);
	assert_int_equal(version, 2);
	assert_int_equal(heed_store_schema_version(s, "search", &version),
	                 HEED_OK);
	assert_int_equal(version, 16);
	heed_store_close(s);
	/* Version 13: the statistics a prefix's estimate rests on. */
	assert_string_equal(
	        heed_test_pg_sql(url,
	                         "SELECT attstattarget FROM pg_attribute "
	                         "WHERE attrelid = 'search_docs'::regclass "
	                         "AND attname = 'tsv';"),
	        "400");
	assert_string_equal(
	        heed_test_pg_sql(url, "SELECT obj_description("
	                              "'heed_schema'::regclass, 'pg_class');"),
	        "heed store 0x68656564");
	snprintf(xmin, sizeof(xmin), "%s",
	         heed_test_pg_sql(url, "SELECT string_agg(xmin::text, ',' "
	                               "ORDER BY area) FROM heed_schema;"));
	s = open_url(url, 0);
	heed_store_close(s);
	s = open_url(url, HEED_STORE_OPEN_READONLY);
	heed_store_close(s);
	assert_string_equal(heed_test_pg_sql(url, "SELECT string_agg(xmin::"
	                                          "text, ',' ORDER BY area) "
	                                          "FROM heed_schema;"),
	                    xmin);
}

/* _EXISTING and _READONLY never create a store in an empty database. */
static void test_existing_refuses_empty_database(void **state)
{
	char url[256];
	heed_store *s = NULL;
	struct heed_diag d = {0};

	(void)state;
	heed_test_pg_fresh(url, sizeof(url));
	assert_int_equal(heed_store_open_ex(&s, url, HEED_STORE_OPEN_EXISTING,
	                                    heed_test_allocator(), &d),
	                 HEED_ENOTFOUND);
	assert_null(s);
	assert_non_null(strstr(d.message, "no store at"));
	assert_int_equal(heed_store_open_ex(&s, url, HEED_STORE_OPEN_READONLY,
	                                    heed_test_allocator(), &d),
	                 HEED_ENOTFOUND);
	assert_string_equal(
	        heed_test_pg_sql(url, "SELECT count(*) FROM pg_tables WHERE "
	                              "schemaname = 'public';"),
	        "0");
}

/* A database holding someone else's table is refused and left as it
 * was: no heed table appears, the foreign rows stay. */
static void test_foreign_table_refused_untouched(void **state)
{
	char url[256];
	heed_store *s = NULL;
	struct heed_diag d = {0};

	(void)state;
	heed_test_pg_fresh(url, sizeof(url));
	heed_test_pg_sql(url, "CREATE TABLE customers (name TEXT);"
	                      "INSERT INTO customers VALUES ('ada');");
	assert_int_equal(
	        heed_store_open_ex(&s, url, 0, heed_test_allocator(), &d),
	        HEED_ESTORE);
	assert_null(s);
	assert_non_null(strstr(d.message, "is not a heed store"));
	assert_non_null(strstr(d.message, "customers"));
	assert_string_equal(
	        heed_test_pg_sql(url, "SELECT string_agg(tablename, ',') FROM "
	                              "pg_tables WHERE schemaname = "
	                              "'public';"),
	        "customers");
	assert_string_equal(
	        heed_test_pg_sql(url, "SELECT name FROM customers;"), "ada");
}

/* Four processes open one new database at once: every open succeeds (a
 * second migration would fail on CREATE TABLE) and the schema is there
 * once. */
static void test_concurrent_opens_migrate_once(void **state)
{
	/* Every area heed has (a new one is added here: heed_schema would
	 * hold a row this list does not count). */
	static const char *const areas[] = {"core",   "sites",        "irc",
	                                    "pages",  "frontier",     "visits",
	                                    "search", "arrangements", "leases"};
	char url[256], want[16];
	pid_t pids[4];
	heed_store *s;
	int version = 0, i, wstatus, rows = 0;

	(void)state;
	heed_test_pg_fresh(url, sizeof(url));
	for (i = 0; i < 4; i++) {
		pids[i] = fork();
		assert_true(pids[i] >= 0);
		if (pids[i] == 0) {
			heed_store *c = NULL;
			heed_status rc = heed_store_open(&c, url, NULL, NULL);
			heed_store_close(c);
			_exit(rc == HEED_OK ? 0 : 10 + (int)rc);
		}
	}
	for (i = 0; i < 4; i++) {
		assert_int_equal(waitpid(pids[i], &wstatus, 0), pids[i]);
		assert_true(WIFEXITED(wstatus));
		assert_int_equal(WEXITSTATUS(wstatus), 0);
	}
	s = open_url(url, HEED_STORE_OPEN_READONLY);
	assert_int_equal(heed_store_schema_version(s, "frontier", &version),
	                 HEED_OK);
	assert_int_equal(version, 6);
	assert_int_equal(heed_store_schema_version(s, "irc", &version),
	                 HEED_OK);
	assert_int_equal(version, 1);
	/* One row per area PostgreSQL has (they come one by one: counted,
	 * not written here). */
	for (i = 0; i < (int)HEED_ARRAY_SIZE(areas); i++) {
		assert_int_equal(
		        heed_store_schema_version(s, areas[i], &version),
		        HEED_OK);
		rows += version > 0;
	}
	heed_store_close(s);
	assert_true(rows >= 5);
	snprintf(want, sizeof(want), "%d", rows);
	assert_string_equal(
	        heed_test_pg_sql(url, "SELECT count(*) FROM heed_schema;"),
	        want);
}

/* A server that is not there: a clear error naming the store, never its
 * password (in the user info or a parameter). */
static void test_unreachable_server_hides_password(void **state)
{
	static const char *const urls[] = {
	        "postgresql://heed:hunter2@127.0.0.1:1/heed",
	        "postgres://heed@127.0.0.1:1/heed?password=hunter2&"
	        "sslmode=disable",
	};
	heed_store *s = NULL;
	struct heed_diag d = {0};

	(void)state;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(urls); i++) {
		assert_int_equal(
		        heed_store_open(&s, urls[i], heed_test_allocator(), &d),
		        HEED_ESTORE);
		assert_null(s);
		assert_non_null(strstr(d.message, "cannot connect to the "
		                                  "PostgreSQL store"));
		assert_non_null(strstr(d.message, "127.0.0.1"));
		assert_non_null(strstr(d.message, "***"));
		assert_null(strstr(d.message, "hunter2"));
	}
}

/* Every area is on PostgreSQL (the search area was the last): each
 * answers, and heed_store_require finds nothing missing. */
static void test_every_area_ported(void **state)
{
	heed_store *s = heed_test_store_fresh();
	struct heed_search_totals t;
	struct heed_store_site site = {0};
	struct heed_arrangement arr = {0};
	heed_store_irc *irc = NULL;
	int64_t n = -1;

	(void)state;
	assert_int_equal(heed_store_search_totals(s, 0, &t), HEED_OK);
	assert_int_equal(t.pages, 0);
	assert_int_equal(heed_store_pages_count(s, NULL, &n), HEED_OK);
	assert_int_equal(n, 0);
	assert_int_equal(heed_store_irc_new(&irc, s), HEED_OK);
	heed_store_irc_free(irc);
	assert_int_equal(heed_store_site_get(s, "http://a.test", &site),
	                 HEED_ENOTFOUND);
	assert_int_equal(heed_store_arrangement_get(s, "a.test", &arr),
	                 HEED_ENOTFOUND);
	assert_int_equal(heed_store_require(s, NULL, NULL), HEED_OK);
	heed_store_close(s);
}

/* A store whose pages area came before its visits area (a database made
 * between the two ports): the visits migration gives every stored page a
 * row, its site from the URL's scheme and the page's host, due one day
 * after its last check, as on SQLite. */
static void test_visits_filled_from_pages(void **state)
{
	char url[256];
	heed_store *s;
	struct heed_stored_page p = {.url = "https://a.test:8443/x?q=1",
	                             .host = "a.test:8443",
	                             .status = 200,
	                             .fetched_at = 1000,
	                             .checked_at = 5000,
	                             .views = -1,
	                             .etag = "\"e\"",
	                             .source_lastmod = HEED_STORE_NO_DATE};
	struct heed_visit v;

	(void)state;
	heed_test_pg_fresh(url, sizeof(url));
	s = open_url(url, 0);
	assert_int_equal(heed_store_page_put(s, &p), HEED_OK);
	heed_store_close(s);
	heed_test_pg_sql(url, "DROP TABLE visits; DELETE FROM heed_schema "
	                      "WHERE area = 'visits';");
	s = open_url(url, 0);
	assert_int_equal(
	        heed_store_visit_get(s, "https://a.test:8443", p.url, &v),
	        HEED_OK);
	assert_string_equal(v.site, "https://a.test:8443");
	assert_string_equal(v.etag, "\"e\"");
	assert_null(v.digest);
	assert_int_equal(v.kind, HEED_FRONTIER_PAGE);
	assert_int_equal(v.status, 200);
	assert_true(v.sched.checked_at == 5000);
	assert_true(v.sched.changed_at == 1000);
	assert_true(v.sched.due_at == 5000 + 86400);
	assert_true(v.fresh_until == HEED_REVISIT_NO_DATE);
	heed_store_visit_clear(s, &v);
	heed_store_close(s);
}

struct urls {
	char url[4][32];
	int n;
};

static int page_url(void *ud, const struct heed_stored_page *p)
{
	struct urls *u = ud;

	snprintf(u->url[u->n++], sizeof(u->url[0]), "%s", p->url);
	return u->n == 4;
}

static int visit_url(void *ud, const struct heed_visit *v)
{
	struct urls *u = ud;

	snprintf(u->url[u->n++], sizeof(u->url[0]), "%s", v->url);
	return u->n == 4;
}

static void assert_byte_order(const struct urls *u)
{
	assert_int_equal(u->n, 3);
	assert_string_equal(u->url[0], "http://a.test/B");
	assert_string_equal(u->url[1], "http://a.test/_");
	assert_string_equal(u->url[2], "http://a.test/a");
}

/* In a database whose default collation is a language's (ICU "en" sorts
 * "a" before "B" and ignores "_"), pages and visits still come in byte
 * order, as on SQLite: the URL columns are COLLATE "C". */
static void test_byte_order_whatever_the_locale(void **state)
{
	const char *paths[] = {"/B", "/a", "/_"};
	char url[256], name[64], sql[192];
	const char *base = heed_test_pg(), *slash;
	struct urls u = {0};
	heed_store *s;

	(void)state;
	assert_non_null(base);
	slash = strrchr(base, '/');
	snprintf(name, sizeof(name), "heed_icu_%ld", (long)getpid());
	snprintf(sql, sizeof(sql),
	         "CREATE DATABASE %s TEMPLATE template0 LOCALE_PROVIDER icu "
	         "ICU_LOCALE 'en' LOCALE 'C';",
	         name);
	heed_test_pg_sql(base, sql);
	snprintf(url, sizeof(url), "%.*s/%s", (int)(slash - base), base, name);
	assert_string_equal(heed_test_pg_sql(url, "SELECT 'a' < 'B';"), "t");
	s = open_url(url, 0);
	for (int i = 0; i < 3; i++) {
		char page_url_buf[32];
		snprintf(page_url_buf, sizeof(page_url_buf), "http://a.test%s",
		         paths[i]);
		struct heed_stored_page p = {.url = page_url_buf,
		                             .host = "a.test",
		                             .status = 200,
		                             .views = -1,
		                             .source_lastmod =
		                                     HEED_STORE_NO_DATE};
		struct heed_visit v = {
		        .url = page_url_buf,
		        .site = "http://a.test",
		        .fresh_until = HEED_REVISIT_NO_DATE,
		        .sched = {86400, 1, HEED_REVISIT_NO_DATE, 100}};
		assert_int_equal(heed_store_page_put(s, &p), HEED_OK);
		assert_int_equal(heed_store_visit_put(s, &v), HEED_OK);
	}
	assert_int_equal(heed_store_pages_each(s, NULL, HEED_STORE_NO_DATE,
	                                       page_url, &u),
	                 HEED_OK);
	assert_byte_order(&u);
	memset(&u, 0, sizeof(u));
	assert_int_equal(heed_store_visits_of_site(s, "http://a.test",
	                                           HEED_VISIT_ANY_KIND,
	                                           visit_url, &u),
	                 HEED_OK);
	assert_byte_order(&u);
	/* The cursor of `heed queue` continues after "B" with "_". */
	memset(&u, 0, sizeof(u));
	assert_int_equal(heed_store_visits_list(s, NULL, 100, "http://a.test/B",
	                                        0, visit_url, &u),
	                 HEED_OK);
	assert_int_equal(u.n, 2);
	assert_string_equal(u.url[0], "http://a.test/_");
	heed_store_close(s);
}

#define IDS_SQL "SELECT md5(string_agg(id::text, ',' ORDER BY url)) FROM pages;"

/* Stores http://a.test/0 ... /199 in transactions of 20; 1 when a call
 * failed. */
static int put_pages(heed_store *c, int64_t fetched_at)
{
	int bad = 0;

	for (int i = 0; i < 200 && !bad; i++) {
		char u[64];
		struct heed_stored_page p = {.url = u,
		                             .host = "a.test",
		                             .status = 200,
		                             .fetched_at = fetched_at,
		                             .views = -1,
		                             .source_lastmod =
		                                     HEED_STORE_NO_DATE};
		snprintf(u, sizeof(u), "http://a.test/%d", i);
		if (i % 20 == 0)
			bad |= heed_store_begin(c) != HEED_OK;
		bad |= heed_store_page_put(c, &p) != HEED_OK;
		if (i % 20 == 19)
			bad |= heed_store_commit(c) != HEED_OK;
	}
	return bad;
}

/* Two workers storing the same pages at once, in transactions of 20:
 * each page is stored once (the upsert waits for the other's row and
 * updates it), no write fails, and every page keeps the id it was first
 * given (the key of its public record). */
static void test_two_writers_store_each_page_once(void **state)
{
	char url[256], ids[64];
	pid_t pids[2];
	int wstatus;
	heed_store *s;
	int64_t n = 0;

	(void)state;
	heed_test_pg_fresh(url, sizeof(url));
	s = open_url(url, 0);
	assert_int_equal(put_pages(s, 1), 0);
	heed_store_close(s);
	snprintf(ids, sizeof(ids), "%s", heed_test_pg_sql(url, IDS_SQL));
	for (int w = 0; w < 2; w++) {
		pids[w] = fork();
		assert_true(pids[w] >= 0);
		if (pids[w] == 0) {
			heed_store *c = NULL;
			int bad =
			        heed_store_open(&c, url, NULL, NULL) != HEED_OK;
			if (!bad)
				bad = put_pages(c, 2 + w);
			heed_store_close(c);
			_exit(bad);
		}
	}
	for (int w = 0; w < 2; w++) {
		assert_int_equal(waitpid(pids[w], &wstatus, 0), pids[w]);
		assert_true(WIFEXITED(wstatus));
		assert_int_equal(WEXITSTATUS(wstatus), 0);
	}
	s = open_url(url, 0);
	assert_int_equal(heed_store_pages_count(s, NULL, &n), HEED_OK);
	assert_int_equal(n, 200);
	heed_store_close(s);
	assert_string_equal(heed_test_pg_sql(url, IDS_SQL), ids);
	assert_string_equal(heed_test_pg_sql(url, "SELECT count(*) FROM pages "
	                                          "WHERE fetched_at = 1;"),
	                    "0");
}

/* One crawl per store: the second holder is refused with the first's pid
 * until the first closes. */
static void test_crawl_lock(void **state)
{
	char url[256], pid[64];
	heed_store *a, *b;
	struct heed_diag d = {0};

	(void)state;
	heed_test_pg_fresh(url, sizeof(url));
	a = open_url(url, 0);
	b = open_url(url, 0);
	assert_int_equal(heed_store_lock(a, &d), HEED_OK);
	assert_int_equal(heed_store_lock(a, &d), HEED_OK);
	assert_int_equal(heed_store_lock(b, &d), HEED_EBUSY);
	assert_non_null(strstr(d.message, "in use by another heed process"));
	snprintf(pid, sizeof(pid), "(pid %ld)", (long)getpid());
	assert_non_null(strstr(d.message, pid));
	heed_store_close(a);
	assert_int_equal(heed_store_lock(b, &d), HEED_OK);
	heed_store_close(b);
}

/* A reader cannot write; a writer's transaction rolls back. */
static void test_read_only_and_transactions(void **state)
{
	char url[256];
	heed_store *s;
	struct heed_frontier_entry e = {.url = "http://a.test/",
	                                .host = "http://a.test",
	                                .lastmod = HEED_STORE_NO_DATE};
	int64_t counts[4];

	(void)state;
	heed_test_pg_fresh(url, sizeof(url));
	s = open_url(url, 0);
	assert_int_equal(heed_store_begin(s), HEED_OK);
	assert_int_equal(heed_store_frontier_add(s, &e, NULL), HEED_OK);
	assert_int_equal(heed_store_rollback(s), HEED_OK);
	assert_int_equal(heed_store_frontier_counts(s, counts), HEED_OK);
	assert_int_equal(counts[HEED_FRONTIER_QUEUED], 0);
	heed_store_close(s);
	s = open_url(url, HEED_STORE_OPEN_READONLY);
	assert_int_equal(heed_store_frontier_add(s, &e, NULL), HEED_ESTORE);
	assert_non_null(strstr(heed_store_errmsg(s), "read-only"));
	heed_store_close(s);
}

/* Ends this process's session on url's database from another one, and
 * waits (at most 10 s) until its backend is gone: it exits after
 * pg_terminate_backend returns, and a statement sent before would still
 * be answered. */
static void terminate_mine(const char *url)
{
	char sql[200], left[200];

	snprintf(sql, sizeof(sql),
	         "SELECT count(pg_terminate_backend(pid)) FROM "
	         "pg_stat_activity WHERE application_name = 'heed[%ld]' "
	         "AND datname = current_database();",
	         (long)getpid());
	assert_string_equal(heed_test_pg_sql(url, sql), "1");
	snprintf(left, sizeof(left),
	         "SELECT count(*) FROM pg_stat_activity WHERE "
	         "application_name = 'heed[%ld]' AND datname = "
	         "current_database();",
	         (long)getpid());
	for (int i = 0; i < 200 && strcmp(heed_test_pg_sql(url, left), "0");
	     i++)
		usleep(50 * 1000);
}

static int64_t ms_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The store's warnings, kept for the test to read. */
struct logged {
	int warnings;
	char last[512];
};

static void keep_log(void *ud, heed_log_level level, const char *module,
                     const char *message)
{
	struct logged *l = ud;

	if (level == HEED_LOG_WARN && strcmp(module, "store") == 0) {
		l->warnings++;
		snprintf(l->last, sizeof(l->last), "%s", message);
	}
}

static int64_t queued(heed_store *s)
{
	int64_t counts[4];

	assert_int_equal(heed_store_frontier_counts(s, counts), HEED_OK);
	return counts[HEED_FRONTIER_QUEUED];
}

static void add_url(heed_store *s, const char *url, heed_status want)
{
	struct heed_frontier_entry e = {.url = url,
	                                .host = "http://a.test",
	                                .lastmod = HEED_STORE_NO_DATE};

	assert_int_equal(heed_store_frontier_add(s, &e, NULL), want);
}

/* The server ends the session: with store.reconnect_timeout 0 the next
 * call fails with HEED_ESTORE and says the connection is lost; with a
 * timeout it reconnects and answers, and says so in the log. */
static void test_lost_connection(void **state)
{
	char url[256];
	heed_store *s;
	int64_t counts[4];
	struct logged l = {0};
	struct heed_logger log = {keep_log, &l, HEED_LOG_DEBUG};

	(void)state;
	heed_test_pg_fresh(url, sizeof(url));
	s = open_url(url, 0);
	heed_store_set_reconnect(s, 0, &log);
	terminate_mine(url);
	assert_int_equal(heed_store_frontier_counts(s, counts), HEED_ESTORE);
	assert_non_null(strstr(heed_store_errmsg(s), "lost the connection to "
	                                             "PostgreSQL"));
	assert_non_null(
	        strstr(heed_store_errmsg(s), "store.reconnect_timeout is 0"));
	assert_int_equal(l.warnings, 0);
	heed_store_set_reconnect(s, 10000, &log);
	assert_int_equal(heed_store_frontier_counts(s, counts), HEED_OK);
	terminate_mine(url);
	assert_int_equal(heed_store_frontier_counts(s, counts), HEED_OK);
	assert_int_equal(l.warnings, 2);
	assert_non_null(strstr(l.last, "reconnecting, attempt 1 after 0.0 s"));
	heed_store_close(s);
}

/* The value of setting name in the store's session ("" when unknown). */
static const char *session_setting(heed_store *s, const char *name)
{
	static char value[32];
	const char *params[] = {name};
	PGresult *r =
	        heed__pg_query(s, "SELECT current_setting($1);", 1, params);

	value[0] = '\0';
	if (r && PQntuples(r) == 1)
		snprintf(value, sizeof(value), "%s", PQgetvalue(r, 0, 0));
	PQclear(r);
	return value;
}

/* Every session heed opens runs without JIT compilation, a reconnected
 * one too; a store URL that names its own options wins. */
static void test_sessions_without_jit(void **state)
{
	char url[256], own[320];
	heed_store *s;
	struct logged l = {0};
	struct heed_logger log = {keep_log, &l, HEED_LOG_DEBUG};

	(void)state;
	heed_test_pg_fresh(url, sizeof(url));
	s = open_url(url, 0);
	assert_string_equal(session_setting(s, "jit"), "off");
	heed_store_set_reconnect(s, 10000, &log);
	terminate_mine(url);
	assert_string_equal(session_setting(s, "jit"), "off");
	assert_int_equal(l.warnings, 1);
	heed_store_close(s);
	assert_null(strchr(url, '?'));
	snprintf(own, sizeof(own), "%s?options=-c%%20jit%%3Don", url);
	s = open_url(own, 0);
	assert_string_equal(session_setting(s, "jit"), "on");
	heed_store_close(s);
}

/* (1) The server restarts between two statements: the second reconnects
 * and succeeds, the first's row is there, the session is as it was (the
 * crawl lock held again, a reader still read-only). */
static void test_restart_between_statements(void **state)
{
	char url[256];
	heed_store *s, *r;
	struct logged l = {0};
	struct heed_logger log = {keep_log, &l, HEED_LOG_DEBUG};
	struct heed_diag d = {0};

	(void)state;
	heed_test_pg_fresh(url, sizeof(url));
	s = open_url(url, 0);
	r = open_url(url, HEED_STORE_OPEN_READONLY);
	heed_store_set_reconnect(s, 20000, &log);
	assert_int_equal(heed_store_lock(s, &d), HEED_OK);
	add_url(s, "http://a.test/1", HEED_OK);
	heed_test_pg_server("restart");
	add_url(s, "http://a.test/2", HEED_OK);
	assert_int_equal(queued(s), 2);
	assert_true(l.warnings >= 1);
	assert_string_equal(
	        heed_test_pg_sql(url, "SELECT count(*) FROM pg_locks WHERE "
	                              "locktype = 'advisory' AND granted "
	                              "AND classid = " HEED_PG_LOCK_KEY_TEST
	                              " AND objid = 2;"),
	        "1");
	/* The reader reconnects too, and still refuses to write. */
	assert_int_equal(queued(r), 2);
	add_url(r, "http://a.test/3", HEED_ESTORE);
	assert_non_null(strstr(heed_store_errmsg(r), "read-only"));
	heed_store_close(r);
	heed_store_close(s);
}

/* (2) The server is down when a statement starts and comes back 2 s
 * later (started by another process): the statement waits, then
 * succeeds. */
static void test_server_back_while_waiting(void **state)
{
	char url[256];
	heed_store *s;
	int64_t t0, waited;
	pid_t child;
	int wstatus;

	(void)state;
	heed_test_pg_fresh(url, sizeof(url));
	s = open_url(url, 0);
	add_url(s, "http://a.test/1", HEED_OK);
	heed_test_pg_server("stop");
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		sleep(2);
		heed_test_pg_server("start");
		_exit(0);
	}
	t0 = ms_now();
	add_url(s, "http://a.test/2", HEED_OK);
	waited = ms_now() - t0;
	assert_int_equal(waitpid(child, &wstatus, 0), child);
	assert_true(WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0);
	assert_true(waited >= 1500);
	assert_int_equal(queued(s), 2);
	heed_store_close(s);
}

/* (3) The server stays down longer than store.reconnect_timeout: a clear
 * error after about that long, not a hang; once it is back, the store
 * works again. */
static void test_server_down_past_timeout(void **state)
{
	char url[256];
	heed_store *s;
	int64_t t0, waited, counts[4];

	(void)state;
	heed_test_pg_fresh(url, sizeof(url));
	s = open_url(url, 0);
	add_url(s, "http://a.test/1", HEED_OK);
	heed_store_set_reconnect(s, 2000, NULL);
	heed_test_pg_server("stop");
	t0 = ms_now();
	assert_int_equal(heed_store_frontier_counts(s, counts), HEED_ESTORE);
	waited = ms_now() - t0;
	heed_test_pg_server("start");
	assert_true(waited >= 1900);
	assert_true(waited < 4000);
	assert_non_null(strstr(heed_store_errmsg(s), "could not reconnect in"));
	assert_non_null(
	        strstr(heed_store_errmsg(s), "(store.reconnect_timeout)"));
	assert_int_equal(queued(s), 1);
	heed_store_close(s);
}

/* (4) The server restarts inside a transaction: HEED_ERETRY from then on,
 * COMMIT never succeeds, nothing of the transaction is written; redone,
 * it commits. ROLLBACK of a lost transaction is HEED_OK. */
static void test_restart_inside_transaction(void **state)
{
	char url[256];
	heed_store *s;

	(void)state;
	heed_test_pg_fresh(url, sizeof(url));
	s = open_url(url, 0);
	heed_store_set_reconnect(s, 20000, NULL);
	assert_int_equal(heed_store_begin(s), HEED_OK);
	add_url(s, "http://a.test/1", HEED_OK);
	heed_test_pg_server("restart");
	add_url(s, "http://a.test/2", HEED_ERETRY);
	assert_string_equal(heed_status_name(HEED_ERETRY), "HEED_ERETRY");
	assert_non_null(strstr(heed_store_errmsg(s),
	                       "the transaction was rolled back"));
	add_url(s, "http://a.test/3", HEED_ERETRY);
	assert_int_equal(heed_store_commit(s), HEED_ERETRY);
	assert_int_equal(queued(s), 0);
	assert_string_equal(heed_test_pg_sql(url, "SELECT count(*) FROM "
	                                          "frontier;"),
	                    "0");
	/* Redone. */
	assert_int_equal(heed_store_begin(s), HEED_OK);
	add_url(s, "http://a.test/1", HEED_OK);
	add_url(s, "http://a.test/2", HEED_OK);
	assert_int_equal(heed_store_commit(s), HEED_OK);
	assert_int_equal(queued(s), 2);
	/* Lost again, then rolled back: the store goes on. */
	assert_int_equal(heed_store_begin(s), HEED_OK);
	add_url(s, "http://a.test/3", HEED_OK);
	terminate_mine(url);
	add_url(s, "http://a.test/4", HEED_ERETRY);
	assert_int_equal(heed_store_rollback(s), HEED_OK);
	assert_int_equal(queued(s), 2);
	heed_store_close(s);
}

/* A batch (heed_store_begin_batch) lost by a restart, a terminated
 * session with writes unanswered, or at its COMMIT is done again by the
 * store: the caller's calls succeed, every write lands once, and a
 * warning says so. One whose read would answer otherwise the second time
 * is given up: HEED_ERETRY, as for any lost transaction. */
static void test_batch_done_again(void **state)
{
	char url[256];
	heed_store *s;
	struct logged l = {0};
	struct heed_logger log = {keep_log, &l, HEED_LOG_DEBUG};
	int64_t counts[4], id;

	(void)state;
	heed_test_pg_fresh(url, sizeof(url));
	s = open_url(url, 0);
	heed_store_set_reconnect(s, 20000, &log);
	/* A restart between two writes. */
	assert_int_equal(heed_store_begin_batch(s), HEED_OK);
	add_url(s, "http://a.test/1", HEED_OK);
	heed_test_pg_server("restart");
	add_url(s, "http://a.test/2", HEED_OK);
	assert_non_null(strstr(l.last, "done again on a new connection"));
	add_url(s, "http://a.test/3", HEED_OK);
	assert_int_equal(heed_store_commit(s), HEED_OK);
	assert_false(heed_store_tx_lost(s));
	assert_string_equal(heed_test_pg_sql(url, "SELECT count(*) || ' ' || "
	                                          "count(DISTINCT url) FROM "
	                                          "frontier;"),
	                    "3 3");
	/* Writes sent without waiting, then the session ended: the next
	 * read joins the pipeline, meets the loss, and is answered after
	 * the batch was done again. */
	id = strtoll(heed_test_pg_sql(url, "SELECT min(id) FROM frontier;"),
	             NULL, 10);
	assert_int_equal(heed_store_begin_batch(s), HEED_OK);
	assert_int_equal(heed_store_frontier_set_state(s, "http://a.test", id,
	                                               HEED_FRONTIER_DONE, 0),
	                 HEED_OK);
	assert_int_equal(heed_store_frontier_set_state(s, "http://a.test",
	                                               id + 1,
	                                               HEED_FRONTIER_DONE, 0),
	                 HEED_OK);
	terminate_mine(url);
	l.last[0] = '\0';
	assert_int_equal(heed_store_frontier_counts(s, counts), HEED_OK);
	assert_int_equal(counts[HEED_FRONTIER_DONE], 2);
	assert_non_null(strstr(l.last, "done again on a new connection"));
	/* Lost just before COMMIT: the server says the first transaction
	 * did not commit, so it is done again and committed once. */
	add_url(s, "http://a.test/4", HEED_OK);
	terminate_mine(url);
	assert_int_equal(heed_store_commit(s), HEED_OK);
	assert_string_equal(
	        heed_test_pg_sql(url, "SELECT count(*) FILTER (WHERE state = "
	                              "2) || ' ' || count(*) FROM frontier;"),
	        "2 4");
	/* Another session changes what the batch read: given up. */
	assert_int_equal(heed_store_begin_batch(s), HEED_OK);
	assert_int_equal(queued(s), 2);
	add_url(s, "http://a.test/5", HEED_OK);
	heed_test_pg_sql(url, "UPDATE frontier SET state = 0;");
	terminate_mine(url);
	add_url(s, "http://a.test/6", HEED_ERETRY);
	assert_true(heed_store_tx_lost(s));
	assert_non_null(strstr(l.last, "could not be done again"));
	assert_non_null(strstr(heed_store_errmsg(s), "another answer"));
	assert_int_equal(heed_store_commit(s), HEED_ERETRY);
	assert_int_equal(heed_store_rollback(s), HEED_OK);
	assert_string_equal(heed_test_pg_sql(url, "SELECT count(*) FROM "
	                                          "frontier;"),
	                    "4");
	/* The next batch is kept afresh. */
	assert_int_equal(heed_store_begin_batch(s), HEED_OK);
	add_url(s, "http://a.test/5", HEED_OK);
	terminate_mine(url);
	add_url(s, "http://a.test/6", HEED_OK);
	assert_int_equal(heed_store_commit(s), HEED_OK);
	assert_int_equal(queued(s), 6);
	heed_store_close(s);
}

/* The id of the first frontier row. */
static int64_t first_id(const char *url)
{
	return strtoll(heed_test_pg_sql(url, "SELECT min(id) FROM frontier;"),
	               NULL, 10);
}

/* Writes inside a transaction go without waiting for their answers
 * (pipelined): they take effect in order with the reads between them, a
 * write the server refuses fails the next statement that waits for an
 * answer (and the transaction, rolled back, writes nothing), and a
 * connection lost with writes unanswered loses the transaction
 * (HEED_ERETRY) like any other. */
static void test_pipelined_writes(void **state)
{
	char url[256];
	heed_store *s;
	int64_t id, counts[4];
	heed_status rc;

	(void)state;
	heed_test_pg_fresh(url, sizeof(url));
	s = open_url(url, 0);
	heed_store_set_reconnect(s, 20000, NULL);
	add_url(s, "http://a.test/1", HEED_OK);
	add_url(s, "http://a.test/2", HEED_OK);
	id = first_id(url);
	/* In order: the read sees the write sent just before it. */
	assert_int_equal(heed_store_begin(s), HEED_OK);
	assert_int_equal(heed_store_frontier_set_state(s, "http://a.test", id,
	                                               HEED_FRONTIER_DONE, 0),
	                 HEED_OK);
	assert_int_equal(heed_store_frontier_counts(s, counts), HEED_OK);
	assert_int_equal(counts[HEED_FRONTIER_DONE], 1);
	assert_int_equal(heed_store_frontier_set_state(s, "http://a.test",
	                                               id + 1,
	                                               HEED_FRONTIER_DONE, 0),
	                 HEED_OK);
	assert_int_equal(heed_store_commit(s), HEED_OK);
	assert_string_equal(heed_test_pg_sql(url, "SELECT count(*) FROM "
	                                          "frontier WHERE state = 2;"),
	                    "2");
	/* Refused by the server: the write itself answers at once, the
	 * next read reports the server's message. */
	heed_test_pg_sql(url,
	                 "CREATE FUNCTION refuse() RETURNS trigger LANGUAGE "
	                 "plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by "
	                 "the test'; END $$; CREATE TRIGGER refuse BEFORE "
	                 "UPDATE ON frontier FOR EACH ROW EXECUTE FUNCTION "
	                 "refuse();");
	assert_int_equal(heed_store_begin(s), HEED_OK);
	assert_int_equal(heed_store_frontier_set_state(s, "http://a.test", id,
	                                               HEED_FRONTIER_QUEUED, 0),
	                 HEED_OK);
	assert_int_equal(heed_store_frontier_counts(s, counts), HEED_ESTORE);
	assert_non_null(strstr(heed_store_errmsg(s), "refused by the test"));
	assert_false(heed_store_tx_lost(s));
	assert_int_equal(heed_store_rollback(s), HEED_OK);
	heed_test_pg_sql(url, "DROP TRIGGER refuse ON frontier;");
	assert_int_equal(queued(s), 0);
	/* Lost with writes unanswered: redone, as any lost transaction. */
	assert_int_equal(heed_store_begin(s), HEED_OK);
	assert_int_equal(heed_store_frontier_set_state(s, "http://a.test", id,
	                                               HEED_FRONTIER_QUEUED, 0),
	                 HEED_OK);
	terminate_mine(url);
	/* Sent into a dead socket, or refused at once as lost. */
	rc = heed_store_frontier_set_state(s, "http://a.test", id + 1,
	                                   HEED_FRONTIER_QUEUED, 0);
	assert_true(rc == HEED_OK || rc == HEED_ERETRY);
	assert_int_equal(heed_store_commit(s), HEED_ERETRY);
	assert_int_equal(heed_store_rollback(s), HEED_OK);
	assert_int_equal(queued(s), 0);
	heed_store_close(s);
}

static void put_page(heed_store *s, const char *url, const char *title,
                     int status)
{
	const struct heed_stored_page p = {.url = url,
	                                   .host = "a.test",
	                                   .status = status,
	                                   .fetched_at = 1000,
	                                   .checked_at = 1000,
	                                   .title = title,
	                                   .views = -1,
	                                   .source_lastmod = HEED_STORE_NO_DATE,
	                                   .record = "{\"a\": [1, 2]}"};

	assert_int_equal(heed_store_page_put(s, &p), HEED_OK);
}

/* From now on, a statement trigger counts the statements that insert
 * into table (statements_counted). */
static void count_statements(const char *url, const char *table)
{
	char sql[512];

	snprintf(sql, sizeof(sql),
	         "CREATE TABLE statements(n int); CREATE FUNCTION "
	         "count_statement() RETURNS trigger LANGUAGE plpgsql AS $$ "
	         "BEGIN INSERT INTO statements VALUES (1); RETURN NULL; END "
	         "$$; CREATE TRIGGER count_inserts AFTER INSERT ON %s FOR "
	         "EACH STATEMENT EXECUTE FUNCTION count_statement();",
	         table);
	heed_test_pg_sql(url, sql);
}

static const char *statements_counted(const char *url)
{
	return heed_test_pg_sql(url, "SELECT count(*) FROM statements;");
}

/* A batch holds its pages, visits and frontier states back and sends
 * each kind as one statement (src/store/pg_held.c): its own reads see
 * them, a statement blind to them (a new URL's row) leaves them held, a
 * URL stored twice keeps its first place and its last values, a row in
 * flight then done ends done, values arrive as they were (quotes,
 * backslashes, commas, braces, the word NULL, SQL NULL), a ROLLBACK
 * forgets them, and a batch lost with rows held is done again whole. */
static void test_batch_rows_held(void **state)
{
	const char *odd = "say \"hi\", {x} \\ NULL";
	struct heed_visit v = {.url = "http://a.test/1",
	                       .site = "http://a.test",
	                       .status = 200,
	                       .fresh_until = HEED_REVISIT_NO_DATE,
	                       .visits = 1};
	struct heed_page_validators pv;
	struct heed_visit got;
	int64_t counts[4], id;
	char url[256];
	heed_store *s;

	(void)state;
	heed_test_pg_fresh(url, sizeof(url));
	s = open_url(url, 0);
	heed_store_set_reconnect(s, 20000, NULL);
	add_url(s, "http://a.test/1", HEED_OK);
	add_url(s, "http://a.test/2", HEED_OK);
	id = first_id(url);
	count_statements(url, "pages");
	assert_int_equal(heed_store_begin_batch(s), HEED_OK);
	put_page(s, "http://a.test/1", "first", 200);
	put_page(s, "http://a.test/2", odd, 200);
	put_page(s, "http://a.test/1", NULL, 404);
	assert_int_equal(heed_store_visit_put(s, &v), HEED_OK);
	assert_int_equal(heed_store_frontier_set_state(s, "http://a.test", id,
	                                               HEED_FRONTIER_IN_FLIGHT,
	                                               0),
	                 HEED_OK);
	assert_int_equal(heed_store_frontier_set_state(s, "http://a.test", id,
	                                               HEED_FRONTIER_DONE, 7),
	                 HEED_OK);
	assert_int_equal(
	        heed_store_frontier_set_state(s, "http://a.test", id + 1,
	                                      HEED_FRONTIER_IN_FLIGHT, 0),
	        HEED_OK);
	/* The batch's reads see what it holds. */
	assert_int_equal(heed_store_page_validators(s, "http://a.test/1", &pv),
	                 HEED_OK);
	assert_int_equal(pv.status, 404);
	assert_int_equal(heed_store_visit_get(s, "http://a.test",
	                                      "http://a.test/1", &got),
	                 HEED_OK);
	assert_int_equal(got.status, 200);
	heed_store_visit_clear(s, &got);
	assert_int_equal(heed_store_frontier_counts(s, counts), HEED_OK);
	assert_int_equal(counts[HEED_FRONTIER_DONE], 1);
	assert_int_equal(counts[HEED_FRONTIER_IN_FLIGHT], 1);
	/* Held across statements blind to them (a new URL's row, a site's
	 * queue put back), sent together at COMMIT. */
	put_page(s, "http://a.test/3", "third", 200);
	add_url(s, "http://a.test/3", HEED_OK);
	assert_int_equal(
	        heed_store_frontier_undrop_host(s, "http://a.test", NULL),
	        HEED_OK);
	put_page(s, "http://a.test/4", "fourth", 200);
	assert_int_equal(heed_store_commit(s), HEED_OK);
	assert_string_equal(statements_counted(url), "2");
	assert_string_equal(
	        heed_test_pg_sql(url, "SELECT string_agg(url || ' ' || "
	                              "coalesce(title, '-') || ' ' || status, "
	                              "' | ' ORDER BY id) FROM pages;"),
	        "http://a.test/1 - 404 | http://a.test/2 say \"hi\", {x} \\ "
	        "NULL 200 | http://a.test/3 third 200 | http://a.test/4 "
	        "fourth 200");
	assert_string_equal(heed_test_pg_sql(url, "SELECT record FROM pages "
	                                          "WHERE url = "
	                                          "'http://a.test/2';"),
	                    "{\"a\": [1, 2]}");
	assert_string_equal(
	        heed_test_pg_sql(url, "SELECT state || ' ' || outcome FROM "
	                              "frontier ORDER BY id LIMIT 2;"),
	        "2 7");
	/* Forgotten with the batch. */
	assert_int_equal(heed_store_begin_batch(s), HEED_OK);
	put_page(s, "http://a.test/5", "fifth", 200);
	assert_int_equal(heed_store_rollback(s), HEED_OK);
	assert_int_equal(heed_store_begin_batch(s), HEED_OK);
	assert_int_equal(heed_store_commit(s), HEED_OK);
	assert_string_equal(heed_test_pg_sql(url, "SELECT count(*) FROM "
	                                          "pages;"),
	                    "4");
	/* Lost with a row held and a write sent: done again, then the held
	 * rows sent into the new transaction. */
	assert_int_equal(heed_store_begin_batch(s), HEED_OK);
	put_page(s, "http://a.test/6", "sixth", 200);
	add_url(s, "http://a.test/6", HEED_OK);
	put_page(s, "http://a.test/7", "seventh", 200);
	terminate_mine(url);
	assert_int_equal(heed_store_commit(s), HEED_OK);
	assert_string_equal(heed_test_pg_sql(url, "SELECT count(*) FROM pages "
	                                          "WHERE title IN ('sixth', "
	                                          "'seventh');"),
	                    "2");
	assert_int_equal(queued(s), 2);
	heed_store_close(s);
}

static void count_told(void *ud, const char *host)
{
	(void)host;
	(*(int *)ud)++;
}

/* A batch's new URLs go to the server as one statement, answered with the
 * hosts of those that were new; a batch lost after they were sent is done
 * again with the same answer, told once. */
static void test_batch_new_urls_one_statement(void **state)
{
	struct heed_frontier_entry e = {.host = "http://a.test",
	                                .lastmod = HEED_STORE_NO_DATE};
	char url[256], u[64];
	heed_store *s;
	int told = 0;

	(void)state;
	heed_test_pg_fresh(url, sizeof(url));
	s = open_url(url, 0);
	heed_store_set_reconnect(s, 20000, NULL);
	add_url(s, "http://a.test/0", HEED_OK);
	count_statements(url, "frontier");
	assert_int_equal(heed_store_begin_batch(s), HEED_OK);
	for (int i = 0; i <= 50; i++) {
		snprintf(u, sizeof(u), "http://a.test/%d", i);
		e.url = u;
		assert_int_equal(heed_store_frontier_add_later(s, &e), HEED_OK);
	}
	assert_int_equal(heed_store_frontier_added(s, count_told, &told),
	                 HEED_OK);
	assert_int_equal(told, 50);
	assert_string_equal(statements_counted(url), "0"); /* not committed */
	assert_int_equal(heed_store_commit(s), HEED_OK);
	assert_string_equal(statements_counted(url), "1");
	/* Sent, then the connection goes: done again, told once. */
	told = 0;
	assert_int_equal(heed_store_begin_batch(s), HEED_OK);
	for (int i = 51; i <= 60; i++) {
		snprintf(u, sizeof(u), "http://a.test/%d", i);
		e.url = u;
		assert_int_equal(heed_store_frontier_add_later(s, &e), HEED_OK);
	}
	assert_int_equal(queued(s), 61);
	terminate_mine(url);
	assert_int_equal(heed_store_commit(s), HEED_OK);
	assert_int_equal(heed_store_frontier_added(s, count_told, &told),
	                 HEED_OK);
	assert_int_equal(told, 10);
	assert_int_equal(queued(s), 61);
	heed_store_close(s);
}

/* The ids of a queue window, as "id,id,...". */
struct ids_read {
	char text[512];
	size_t len;
};

static int read_id(void *ud, const struct heed_frontier_entry *e)
{
	struct ids_read *r = ud;

	r->len +=
	        (size_t)snprintf(r->text + r->len, sizeof(r->text) - r->len,
	                         "%s%lld", r->len ? "," : "", (long long)e->id);
	return 0;
}

/* New URLs whose ids the batch read back (a site's queue window, whose
 * rows the crawl then fetches and marks by id) are done again with those
 * ids after a loss: drawn again from the sequence they would differ, the
 * window would answer otherwise, and the batch would be given up with
 * every answer it held, to be fetched again. A URL already stored draws
 * none. */
static void test_batch_new_ids_kept(void **state)
{
	struct heed_frontier_entry e = {.host = "http://a.test",
	                                .lastmod = HEED_STORE_NO_DATE};
	struct ids_read first = {0};
	struct logged l = {0};
	struct heed_logger log = {keep_log, &l, HEED_LOG_DEBUG};
	char url[256], u[64];
	heed_store *s;
	int told = 0;

	(void)state;
	heed_test_pg_fresh(url, sizeof(url));
	s = open_url(url, 0);
	heed_store_set_reconnect(s, 20000, &log);
	add_url(s, "http://a.test/3", HEED_OK);
	assert_int_equal(heed_store_begin_batch(s), HEED_OK);
	for (int i = 0; i < 6; i++) {
		snprintf(u, sizeof(u), "http://a.test/%d", i);
		e.url = u;
		assert_int_equal(heed_store_frontier_add_later(s, &e), HEED_OK);
	}
	assert_int_equal(heed_store_frontier_queued(s, "http://a.test", 0, 100,
	                                            read_id, &first),
	                 HEED_OK);
	assert_int_equal(heed_store_frontier_added(s, count_told, &told),
	                 HEED_OK);
	assert_int_equal(told, 5);
	terminate_mine(url);
	assert_int_equal(heed_store_commit(s), HEED_OK);
	assert_non_null(strstr(l.last, "done again on a new connection"));
	assert_string_equal(heed_test_pg_sql(url, "SELECT string_agg(id::text, "
	                                          "',' ORDER BY id) FROM "
	                                          "frontier;"),
	                    first.text);
	assert_int_equal(queued(s), 6);
	heed_store_close(s);
}

/* The IRC writer's batch loses its connection twice: once mid-batch,
 * once after a commit with ids the crawl still holds. It replays the
 * batch, maps the ids the crawl was given to the stored ones, and the
 * visit ends up stored once, ended, with both channels. */
static void test_irc_batch_replayed(void **state)
{
	char url[256];
	heed_store *s;
	heed_store_irc *w = NULL;
	int64_t net = 0, vid = 0;
	struct heed_irc_crawler_pref pref = {0};

	(void)state;
	heed_test_pg_fresh(url, sizeof(url));
	s = open_url(url, 0);
	heed_store_set_reconnect(s, 20000, NULL);
	assert_int_equal(heed_store_irc_new(&w, s), HEED_OK);
	assert_int_equal(
	        heed_store_irc_network(w, "a.test:6667", 100, &net, NULL),
	        HEED_OK);
	assert_int_equal(heed_store_irc_visit_begin(w, net, "a.test", 6667,
	                                            false, 100, &vid),
	                 HEED_OK);
	assert_int_equal(
	        heed_store_irc_channel(w, net, vid, "#one", 3, "t1", 2, 101),
	        HEED_OK);
	terminate_mine(url);
	/* Lost inside the batch: replayed, the new ids mapped. */
	assert_int_equal(
	        heed_store_irc_channel(w, net, vid, "#two", 4, "t2", 2, 102),
	        HEED_OK);
	assert_int_equal(heed_store_irc_visit_end(w, net, vid,
	                                          HEED_IRC_VISIT_COMPLETE, "",
	                                          &pref, 103, 200),
	                 HEED_OK);
	/* Committed: the given ids still reach the stored rows. */
	terminate_mine(url);
	assert_int_equal(
	        heed_store_irc_channel(w, net, vid, "#three", 1, "t3", 2, 104),
	        HEED_OK);
	assert_int_equal(heed_store_irc_flush(w), HEED_OK);
	heed_store_irc_free(w);
	assert_string_equal(heed_test_pg_sql(url, "SELECT count(*) FROM "
	                                          "irc_visits WHERE ended_at "
	                                          "= 103;"),
	                    "1");
	assert_string_equal(heed_test_pg_sql(url, "SELECT count(*) FROM "
	                                          "irc_visits;"),
	                    "1");
	assert_string_equal(
	        heed_test_pg_sql(url, "SELECT string_agg(convert_from(c.name, "
	                              "'UTF8'), ',' ORDER BY c.name) FROM "
	                              "irc_channels c JOIN irc_visits v ON "
	                              "v.id = c.last_visit_id;"),
	        "#one,#three,#two");
	heed_store_close(s);
}

/* Reconnected, but another process took the crawl lock meanwhile: two
 * crawls must never share the store, so HEED_EBUSY. */
static void test_lock_taken_meanwhile(void **state)
{
	char url[256], pid[64];
	heed_store *a, *b;
	struct heed_diag d = {0};
	int64_t counts[4];

	(void)state;
	heed_test_pg_fresh(url, sizeof(url));
	a = open_url(url, 0);
	b = open_url(url, 0);
	heed_store_set_reconnect(a, 20000, NULL);
	assert_int_equal(heed_store_lock(a, &d), HEED_OK);
	/* a's session, the lock's holder, ends (a and b share an
	 * application name: pick it by its lock). */
	assert_string_equal(
	        heed_test_pg_sql(url, "SELECT count(pg_terminate_backend("
	                              "l.pid)) FROM pg_locks l WHERE "
	                              "l.locktype = 'advisory' AND "
	                              "l.objid = 2 AND l.granted;"),
	        "1");
	/* The backend exits after pg_terminate_backend returns: wait (at
	 * most 10 s) until its lock went with it. */
	for (int i = 0;
	     i < 200 && strcmp(heed_test_pg_sql(url, "SELECT count(*) FROM "
	                                             "pg_locks WHERE "
	                                             "locktype = 'advisory' "
	                                             "AND objid = 2;"),
	                       "0") != 0;
	     i++)
		usleep(50 * 1000);
	assert_int_equal(heed_store_lock(b, &d), HEED_OK);
	assert_int_equal(heed_store_frontier_counts(a, counts), HEED_EBUSY);
	assert_non_null(
	        strstr(heed_store_errmsg(a), "took its crawl lock meanwhile"));
	snprintf(pid, sizeof(pid), "(pid %ld)", (long)getpid());
	assert_non_null(strstr(heed_store_errmsg(a), pid));
	/* a stops there: every call is HEED_EBUSY. */
	assert_int_equal(heed_store_frontier_counts(a, counts), HEED_EBUSY);
	heed_store_close(b);
	heed_store_close(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_fresh_database_migrated_once),
	        cmocka_unit_test(test_existing_refuses_empty_database),
	        cmocka_unit_test(test_foreign_table_refused_untouched),
	        cmocka_unit_test(test_concurrent_opens_migrate_once),
	        cmocka_unit_test(test_unreachable_server_hides_password),
	        cmocka_unit_test(test_every_area_ported),
	        cmocka_unit_test(test_visits_filled_from_pages),
	        cmocka_unit_test(test_byte_order_whatever_the_locale),
	        cmocka_unit_test(test_two_writers_store_each_page_once),
	        cmocka_unit_test(test_crawl_lock),
	        cmocka_unit_test(test_read_only_and_transactions),
	        cmocka_unit_test(test_lost_connection),
	        cmocka_unit_test(test_sessions_without_jit),
	        cmocka_unit_test(test_restart_between_statements),
	        cmocka_unit_test(test_server_back_while_waiting),
	        cmocka_unit_test(test_server_down_past_timeout),
	        cmocka_unit_test(test_restart_inside_transaction),
	        cmocka_unit_test(test_pipelined_writes),
	        cmocka_unit_test(test_batch_done_again),
	        cmocka_unit_test(test_batch_rows_held),
	        cmocka_unit_test(test_batch_new_urls_one_statement),
	        cmocka_unit_test(test_batch_new_ids_kept),
	        cmocka_unit_test(test_irc_batch_replayed),
	        cmocka_unit_test(test_lock_taken_meanwhile),
	};

	if (!heed_test_pg()) {
		fprintf(stderr, "test_store_pg needs HEED_TEST_PG: run it "
		                "through tests/pgcluster.py run --\n");
		return 1;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
