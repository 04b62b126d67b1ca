/*
 * Unit tests for the PostgreSQL store's front (issue 14), against the real
 * cluster tests/pgcluster.py starts: a new database is migrated and marked
 * once, a database that is not heed's is refused untouched, two processes
 * opening one new database migrate it once, the crawl lock, errors that
 * name the store without its password, a lost connection, and the clear
 * answer of an area PostgreSQL does not have yet (the frontier and IRC
 * areas run their own tests on both backends: test_store_crawl.c,
 * test_store_irc.c).
 */
#include "pg_test.h"

#include <signal.h>
#include <sys/wait.h>

#include "heed/store_arrangements.h"
#include "heed/store_frontier.h"
#include "heed/store_irc.h"
#include "heed/store_pages.h"
#include "heed/store_search.h"
#include "heed/store_sites.h"
#include "heed/store_visits.h"

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
	assert_int_equal(version, 2);
	assert_int_equal(heed_store_schema_version(s, "pages", &version),
	                 HEED_OK);
	assert_int_equal(version, 2);
	assert_int_equal(heed_store_schema_version(s, "visits", &version),
	                 HEED_OK);
	assert_int_equal(version, 1);
	assert_int_equal(heed_store_schema_version(s, "sites", &version),
	                 HEED_OK);
	assert_int_equal(version, 3);
	assert_int_equal(heed_store_schema_version(s, "arrangements", &version),
	                 HEED_OK);
	assert_int_equal(version, 2);
	assert_int_equal(heed_store_schema_version(s, "search", &version),
	                 HEED_OK);
	assert_int_equal(version, 0);
	heed_store_close(s);
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
	assert_int_equal(version, 2);
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

/* Areas not on PostgreSQL yet answer HEED_ENOTSUP with a message that
 * says so, never a crash. */
static void test_areas_not_ported_yet(void **state)
{
	heed_store *s = heed_test_store_fresh();
	static const char *const ported[] = {
	        "irc",   "frontier",     "pages", "visits",
	        "sites", "arrangements", NULL};
	struct heed_search_totals t;
	struct heed_store_site site = {0};
	struct heed_arrangement arr = {0};
	struct heed_diag d = {0};
	heed_store_irc *irc = NULL;
	int64_t n = -1;

	(void)state;
	assert_int_equal(heed_store_search_totals(s, 0, &t), HEED_ENOTSUP);
	assert_string_equal(heed_store_errmsg(s),
	                    "the PostgreSQL store does not have the search "
	                    "area yet");
	/* The areas PostgreSQL has answer. */
	assert_int_equal(heed_store_pages_count(s, NULL, &n), HEED_OK);
	assert_int_equal(n, 0);
	assert_int_equal(heed_store_irc_new(&irc, s), HEED_OK);
	heed_store_irc_free(irc);
	assert_int_equal(heed_store_site_get(s, "http://a.test", &site),
	                 HEED_ENOTFOUND);
	assert_int_equal(heed_store_arrangement_get(s, "a.test", &arr),
	                 HEED_ENOTFOUND);
	assert_int_equal(heed_store_require(s, ported, NULL), HEED_OK);
	assert_int_equal(heed_store_require(s, NULL, &d), HEED_ENOTSUP);
	assert_string_equal(d.message,
	                    "the PostgreSQL store does not have the search "
	                    "area yet");
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
	assert_int_equal(heed_store_visit_get(s, p.url, &v), HEED_OK);
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

/* The server ends the session: the next call fails with HEED_ESTORE and
 * says the connection is lost. */
static void test_lost_connection(void **state)
{
	char url[256], sql[160];
	heed_store *s;
	int64_t counts[4];

	(void)state;
	heed_test_pg_fresh(url, sizeof(url));
	s = open_url(url, 0);
	snprintf(sql, sizeof(sql),
	         "SELECT count(pg_terminate_backend(pid)) FROM "
	         "pg_stat_activity WHERE application_name = 'heed[%ld]' "
	         "AND datname = current_database();",
	         (long)getpid());
	assert_string_equal(heed_test_pg_sql(url, sql), "1");
	assert_int_equal(heed_store_frontier_counts(s, counts), HEED_ESTORE);
	assert_non_null(strstr(heed_store_errmsg(s), "lost the connection to "
	                                             "PostgreSQL"));
	heed_store_close(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_fresh_database_migrated_once),
	        cmocka_unit_test(test_existing_refuses_empty_database),
	        cmocka_unit_test(test_foreign_table_refused_untouched),
	        cmocka_unit_test(test_concurrent_opens_migrate_once),
	        cmocka_unit_test(test_unreachable_server_hides_password),
	        cmocka_unit_test(test_areas_not_ported_yet),
	        cmocka_unit_test(test_visits_filled_from_pages),
	        cmocka_unit_test(test_byte_order_whatever_the_locale),
	        cmocka_unit_test(test_two_writers_store_each_page_once),
	        cmocka_unit_test(test_crawl_lock),
	        cmocka_unit_test(test_read_only_and_transactions),
	        cmocka_unit_test(test_lost_connection),
	};

	if (!heed_test_pg()) {
		fprintf(stderr, "test_store_pg needs HEED_TEST_PG: run it "
		                "through tests/pgcluster.py run --\n");
		return 1;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
