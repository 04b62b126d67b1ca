/*
 * Unit tests for the store's sites area: a site's record, bodies and rules
 * survive a close and reopen, listing by host, reset, and the host state
 * (back-off, last request); and the arrangements area beside it: an
 * arrangement survives a reopen field by field, a replace, the listing in
 * host order, a delete, and a hand-written delay under 1 s is raised on
 * read. Two stores open on one location see each other's writes. Every
 * listing comes in byte order whatever the database's locale.
 *
 * The tests run on both backends: meson runs this program a second time
 * with a PostgreSQL cluster (unit.store_sites_pg), and then "the store's
 * file" is a fresh database of the cluster for each test (the migration
 * of an old SQLite file is skipped there).
 */
#include "pg_test.h"

#include <sqlite3.h>
#include <unistd.h>

#include "heed/store_arrangements.h"
#include "heed/store_sites.h"
#include "heed/store_visits.h"
#include "store/grams-int.h"

static char path[256];

static int make_file(void **state)
{
	int fd;

	(void)state;
	if (heed_test_pg()) {
		heed_test_pg_fresh(path, sizeof(path));
		return 0;
	}
	snprintf(path, sizeof(path), "/tmp/heed-sites-XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	close(fd);
	unlink(path);
	return 0;
}

static int remove_file(void **state)
{
	char p[sizeof(path) + 8];

	(void)state;
	if (heed_test_pg())
		return 0;
	unlink(path);
	snprintf(p, sizeof(p), "%s-wal", path);
	unlink(p);
	snprintf(p, sizeof(p), "%s-shm", path);
	unlink(p);
	return 0;
}

/* Runs sql on the store behind heed's back, as an operator's hand would:
 * the same SQL on both backends. */
static void edit_by_hand(const char *sql)
{
	sqlite3 *db;

	if (heed_test_pg()) {
		heed_test_pg_sql(path, sql);
		return;
	}
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	/* heed's FTS5 tokenizer: the search index's tables need it. */
	assert_int_equal(heed__sqlite_search_register(db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
}

static heed_store *open_store(void)
{
	heed_store *s = NULL;

	assert_int_equal(heed_store_open(&s, path, heed_test_allocator(), NULL),
	                 HEED_OK);
	return s;
}

static void put_site(heed_store *s, const char *site, const char *host,
                     heed_site_state state, uint32_t failures)
{
	static const char body[] = "User-agent: *\nDisallow: /x\n\0binary";
	struct heed_store_site row = {0};

	row.site = (char *)site;
	row.host = (char *)host;
	row.record.state = state;
	row.record.reason = HEED_SITE_R_STATUS;
	row.record.http_status = 403;
	row.record.robots_date_s = 1000;
	row.record.last_success_s = 900;
	row.record.next_attempt_s = 4600;
	row.record.failures = failures;
	snprintf(row.record.detail, sizeof(row.record.detail), "HTTP 403");
	row.robots_url = "http://a.test/robots.txt";
	row.robots_body = (char *)body;
	row.robots_body_len = sizeof(body);
	row.rules_body = (char *)body;
	row.rules_body_len = 27;
	row.crawl_delay_ms = 2500;
	row.robots_etag = "W/\"v1\"";
	row.robots_last_modified = "Sun, 06 Nov 1994 08:49:37 GMT";
	assert_int_equal(heed_store_site_put(s, &row), HEED_OK);
}

static void test_round_trip_across_reopen(void **state)
{
	struct heed_store_site row;
	heed_store *s = open_store();
	int v = 0;

	(void)state;
	assert_int_equal(heed_store_schema_version(s, "sites", &v), HEED_OK);
	assert_int_equal(v, 3);
	put_site(s, "http://a.test:8080", "a.test", HEED_SITE_DISQUALIFIED, 3);
	heed_store_close(s);
	s = open_store();
	assert_int_equal(heed_store_site_get(s, "http://a.test:8080", &row),
	                 HEED_OK);
	assert_string_equal(row.host, "a.test");
	assert_int_equal(row.record.state, HEED_SITE_DISQUALIFIED);
	assert_int_equal(row.record.reason, HEED_SITE_R_STATUS);
	assert_int_equal(row.record.http_status, 403);
	assert_int_equal(row.record.robots_date_s, 1000);
	assert_int_equal(row.record.last_success_s, 900);
	assert_int_equal(row.record.next_attempt_s, 4600);
	assert_int_equal(row.record.failures, 3);
	assert_string_equal(row.record.detail, "HTTP 403");
	assert_string_equal(row.robots_url, "http://a.test/robots.txt");
	/* Bodies are bytes: a NUL inside survives. */
	assert_int_equal(row.robots_body_len, 35);
	assert_memory_equal(row.robots_body + 28, "binary", 6);
	assert_int_equal(row.rules_body_len, 27);
	assert_int_equal(row.crawl_delay_ms, 2500);
	/* Version 2: the validators of robots_body. */
	assert_string_equal(row.robots_etag, "W/\"v1\"");
	assert_string_equal(row.robots_last_modified,
	                    "Sun, 06 Nov 1994 08:49:37 GMT");
	assert_null(row.robots_type);
	heed_store_site_clear(s, &row);
	assert_int_equal(heed_store_site_get(s, "http://nope.test", &row),
	                 HEED_ENOTFOUND);
	assert_null(row.site);
	heed_store_close(s);
}

static void count_site(void *ud, const struct heed_store_site *s)
{
	(void)s;
	(*(int *)ud)++;
}

static void test_each_and_reset_by_host(void **state)
{
	struct heed_store_host h = {{3, 99999}, 5000};
	struct heed_store_site row;
	heed_store *s = open_store();
	size_t n = 0;
	int seen = 0;

	(void)state;
	put_site(s, "http://b.test", "b.test", HEED_SITE_DISQUALIFIED_RESET,
	         24);
	put_site(s, "https://b.test", "b.test", HEED_SITE_DISQUALIFIED, 2);
	put_site(s, "http://c.test", "c.test", HEED_SITE_DISQUALIFIED, 2);
	assert_int_equal(heed_store_host_put(s, "b.test", &h), HEED_OK);
	assert_int_equal(
	        heed_store_site_each(s, "b.test", count_site, &seen, &n),
	        HEED_OK);
	assert_int_equal(n, 2);
	assert_int_equal(seen, 2);
	assert_int_equal(heed_store_site_reset_host(s, "b.test", &n), HEED_OK);
	assert_int_equal(n, 2);
	assert_int_equal(heed_store_site_get(s, "http://b.test", &row),
	                 HEED_OK);
	assert_int_equal(row.record.state, HEED_SITE_UNKNOWN);
	assert_int_equal(row.record.reason, HEED_SITE_R_RESET);
	assert_int_equal(row.record.failures, 0);
	assert_int_equal(row.record.robots_date_s, 1000);
	heed_store_site_clear(s, &row);
	assert_int_equal(heed_store_host_get(s, "b.test", &h), HEED_OK);
	assert_int_equal(h.backoff.level, 0);
	assert_int_equal(h.backoff.until_s, 0);
	/* The last request time stays: the delay still holds after a reset. */
	assert_int_equal(h.last_request_ms, 5000);
	/* The other host is untouched. */
	assert_int_equal(heed_store_site_get(s, "http://c.test", &row),
	                 HEED_OK);
	assert_int_equal(row.record.failures, 2);
	heed_store_site_clear(s, &row);
	heed_store_close(s);
}

static void test_host_state_survives_reopen(void **state)
{
	struct heed_store_host h = {{2, 1234567}, 1700000000123};
	heed_store *s = open_store();

	(void)state;
	assert_int_equal(heed_store_host_put(s, "d.test", &h), HEED_OK);
	heed_store_close(s);
	s = open_store();
	memset(&h, 0, sizeof(h));
	assert_int_equal(heed_store_host_get(s, "d.test", &h), HEED_OK);
	assert_int_equal(h.backoff.level, 2);
	assert_int_equal(h.backoff.until_s, 1234567);
	assert_int_equal(h.last_request_ms, 1700000000123);
	assert_int_equal(heed_store_host_get(s, "none.test", &h), HEED_OK);
	assert_int_equal(h.backoff.level, 0);
	assert_int_equal(h.last_request_ms, 0);
	heed_store_close(s);
}

/* Two stores open on one location at once (two workers of one
 * PostgreSQL database, two processes of one SQLite file): what one
 * writes, the other reads at once, a replace included, and a transaction
 * is seen whole or not at all. */
static void test_two_stores_at_once(void **state)
{
	struct heed_store_host h = {{1, 60}, 1700000000000};
	struct heed_store_site row;
	heed_store *a = open_store(), *b = open_store();
	size_t n = 0;
	int seen = 0;

	(void)state;
	put_site(a, "http://e.test", "e.test", HEED_SITE_DISQUALIFIED, 1);
	assert_int_equal(heed_store_host_put(a, "e.test", &h), HEED_OK);
	assert_int_equal(heed_store_site_get(b, "http://e.test", &row),
	                 HEED_OK);
	assert_int_equal(row.record.failures, 1);
	heed_store_site_clear(b, &row);
	memset(&h, 0, sizeof(h));
	assert_int_equal(heed_store_host_get(b, "e.test", &h), HEED_OK);
	assert_int_equal(h.last_request_ms, 1700000000000);

	/* b resets the host in one transaction; until it commits, a sees
	 * the site as it was. */
	assert_int_equal(heed_store_begin(b), HEED_OK);
	put_site(b, "http://e.test", "e.test", HEED_SITE_DISQUALIFIED, 7);
	assert_int_equal(heed_store_site_get(a, "http://e.test", &row),
	                 HEED_OK);
	assert_int_equal(row.record.failures, 1);
	heed_store_site_clear(a, &row);
	assert_int_equal(heed_store_commit(b), HEED_OK);
	assert_int_equal(heed_store_site_get(a, "http://e.test", &row),
	                 HEED_OK);
	assert_int_equal(row.record.failures, 7);
	heed_store_site_clear(a, &row);
	assert_int_equal(heed_store_site_reset_host(b, "e.test", &n), HEED_OK);
	assert_int_equal(n, 1);
	/* NULL lists every site. */
	assert_int_equal(heed_store_site_each(a, NULL, count_site, &seen, &n),
	                 HEED_OK);
	assert_int_equal(n, 1);
	assert_int_equal(seen, 1);
	assert_int_equal(heed_store_host_get(a, "e.test", &h), HEED_OK);
	assert_int_equal(h.backoff.level, 0);
	assert_int_equal(h.last_request_ms, 1700000000000);
	heed_store_close(a);
	heed_store_close(b);
}

/* A store of an older heed (sites area version 1, before validators were kept)
 * is migrated on open: its rows stay, with no validators. */
static void test_version_1_is_migrated(void **state)
{
	struct heed_store_site row;
	heed_store *s;
	sqlite3 *db;
	int v = 0;

	(void)state;
	/* No PostgreSQL store was ever at version 1. */
	if (heed_test_pg())
		skip();
	s = open_store();
	put_site(s, "http://a.test", "a.test", HEED_SITE_QUALIFIED_RULES, 0);
	heed_store_close(s);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	/* heed's FTS5 tokenizer: the search index's tables need it. */
	assert_int_equal(heed__sqlite_search_register(db), SQLITE_OK);
	assert_int_equal(
	        sqlite3_exec(db,
	                     "ALTER TABLE sites DROP COLUMN robots_etag;"
	                     "ALTER TABLE sites DROP COLUMN "
	                     "robots_last_modified;"
	                     "ALTER TABLE sites DROP COLUMN robots_type;"
	                     "DROP TABLE acap_refs;"
	                     "UPDATE heed_schema SET version = 1 WHERE "
	                     "area = 'sites';",
	                     NULL, NULL, NULL),
	        SQLITE_OK);
	sqlite3_close(db);
	s = open_store();
	assert_int_equal(heed_store_schema_version(s, "sites", &v), HEED_OK);
	assert_int_equal(v, 3);
	assert_int_equal(heed_store_site_get(s, "http://a.test", &row),
	                 HEED_OK);
	assert_int_equal(row.record.state, HEED_SITE_QUALIFIED_RULES);
	assert_int_equal(row.robots_body_len, 35);
	assert_null(row.robots_etag);
	assert_null(row.robots_last_modified);
	heed_store_site_clear(s, &row);
	heed_store_close(s);
}

/* ACAP permissions references: a fetched file and a failed
 * attempt survive a reopen, are listed by locator for their site only,
 * and a delete removes one. */
static void ref_seen(void *ud, const struct heed_store_acap_ref *r)
{
	char *list = ud;

	strcat(list, r->locator);
	strcat(list, ";");
}

static void test_acap_refs_round_trip(void **state)
{
	static const char body[] = "ACAP-crawler: *\nACAP-allow-crawl: /\n";
	struct heed_store_acap_ref in = {0}, out;
	heed_store *s = open_store();
	char list[128] = "";

	(void)state;
	in.site = "http://a.test";
	in.locator = "/heed.txt";
	in.url = "http://a.test/heed.txt";
	in.http_status = 200;
	in.fetched_s = 1700000000;
	in.body = (char *)body;
	in.body_len = sizeof(body) - 1;
	in.etag = "\"v1\"";
	snprintf(in.detail, sizeof(in.detail), "HTTP 200");
	assert_int_equal(heed_store_acap_ref_put(s, &in), HEED_OK);
	memset(&in, 0, sizeof(in));
	in.site = "http://a.test";
	in.locator = "/gone.txt";
	in.http_status = 404;
	snprintf(in.detail, sizeof(in.detail), "HTTP 404: prohibited");
	assert_int_equal(heed_store_acap_ref_put(s, &in), HEED_OK);
	in.site = "http://b.test";
	assert_int_equal(heed_store_acap_ref_put(s, &in), HEED_OK);
	heed_store_close(s);

	s = open_store();
	assert_int_equal(
	        heed_store_acap_ref_get(s, "http://a.test", "/heed.txt", &out),
	        HEED_OK);
	assert_int_equal(out.http_status, 200);
	assert_int_equal(out.fetched_s, 1700000000);
	assert_int_equal(out.body_len, sizeof(body) - 1);
	assert_memory_equal(out.body, body, sizeof(body) - 1);
	assert_string_equal(out.etag, "\"v1\"");
	assert_null(out.last_modified);
	assert_string_equal(out.url, "http://a.test/heed.txt");
	heed_store_acap_ref_clear(s, &out);
	assert_int_equal(
	        heed_store_acap_ref_get(s, "http://a.test", "/gone.txt", &out),
	        HEED_OK);
	assert_null(out.body);
	assert_null(out.url);
	assert_string_equal(out.detail, "HTTP 404: prohibited");
	heed_store_acap_ref_clear(s, &out);
	assert_int_equal(
	        heed_store_acap_ref_each(s, "http://a.test", ref_seen, list),
	        HEED_OK);
	assert_string_equal(list, "/gone.txt;/heed.txt;");
	assert_int_equal(
	        heed_store_acap_ref_delete(s, "http://a.test", "/gone.txt"),
	        HEED_OK);
	assert_int_equal(
	        heed_store_acap_ref_get(s, "http://a.test", "/gone.txt", &out),
	        HEED_ENOTFOUND);
	assert_int_equal(
	        heed_store_acap_ref_get(s, "http://b.test", "/gone.txt", &out),
	        HEED_OK);
	heed_store_acap_ref_clear(s, &out);
	heed_store_close(s);
}

/* ---- the arrangements area: beside the sites area, whose
 * file helpers it shares ---- */

static void test_arrangement_round_trip(void **state)
{
	struct heed_arrangement in = {0}, out;
	heed_store *s = open_store();

	(void)state;
	in.host = "videos.example";
	in.delay_ms = 5000;
	in.max_pages = 500;
	in.mode = HEED_ARRANGEMENT_INCREMENTAL;
	in.include = "/videos/\n/about$";
	in.exclude = "/search";
	in.windows = "01:00-06:00,22:00-02:00";
	in.endpoint = "https://videos.example/oembed";
	in.endpoint_kind = HEED_ENDPOINT_OEMBED;
	in.note = "Ann Owner <ann@videos.example>, agreed 2026-11-20";
	in.updated_s = 1763600000;
	assert_int_equal(heed_store_arrangement_put(s, &in), HEED_OK);
	heed_store_close(s);

	s = open_store();
	assert_int_equal(heed_store_arrangement_get(s, "videos.example", &out),
	                 HEED_OK);
	assert_string_equal(out.host, in.host);
	assert_int_equal(out.delay_ms, 5000);
	assert_int_equal(out.max_pages, 500);
	assert_int_equal(out.mode, HEED_ARRANGEMENT_INCREMENTAL);
	assert_string_equal(out.include, in.include);
	assert_string_equal(out.exclude, in.exclude);
	assert_string_equal(out.windows, in.windows);
	assert_string_equal(out.endpoint, in.endpoint);
	assert_int_equal(out.endpoint_kind, HEED_ENDPOINT_OEMBED);
	assert_string_equal(out.note, in.note);
	assert_int_equal(out.updated_s, in.updated_s);
	heed_store_arrangement_clear(s, &out);
	assert_null(out.host);

	/* A replace clears what is no longer asked. */
	in.include = NULL;
	in.windows = "";
	in.mode = HEED_ARRANGEMENT_PAUSED;
	in.endpoint_kind = HEED_ENDPOINT_SOURCE;
	assert_int_equal(heed_store_arrangement_put(s, &in), HEED_OK);
	assert_int_equal(heed_store_arrangement_get(s, "videos.example", &out),
	                 HEED_OK);
	assert_int_equal(out.endpoint_kind, HEED_ENDPOINT_SOURCE);
	assert_null(out.include);
	assert_null(out.windows);
	assert_int_equal(out.mode, HEED_ARRANGEMENT_PAUSED);
	heed_store_arrangement_clear(s, &out);

	assert_int_equal(heed_store_arrangement_get(s, "other.example", &out),
	                 HEED_ENOTFOUND);
	assert_null(out.host);
	heed_store_close(s);
}

static void arrangement_row(void *ud, const struct heed_arrangement *a)
{
	char *seen = ud;

	strcat(seen, a->host);
	strcat(seen, ";");
}

static void test_arrangement_list_and_delete(void **state)
{
	struct heed_arrangement a = {0};
	heed_store *s = open_store();
	char seen[128] = "";
	size_t n = 0;
	bool found = true;

	(void)state;
	a.host = "b.example";
	assert_int_equal(heed_store_arrangement_put(s, &a), HEED_OK);
	a.host = "a.example";
	assert_int_equal(heed_store_arrangement_put(s, &a), HEED_OK);
	assert_int_equal(
	        heed_store_arrangement_each(s, arrangement_row, seen, &n),
	        HEED_OK);
	assert_int_equal(n, 2);
	assert_string_equal(seen, "a.example;b.example;");
	assert_int_equal(heed_store_arrangement_delete(s, "a.example", &found),
	                 HEED_OK);
	assert_true(found);
	assert_int_equal(heed_store_arrangement_delete(s, "a.example", &found),
	                 HEED_OK);
	assert_false(found);
	heed_store_close(s);
}

static void site_name(void *ud, const struct heed_store_site *row)
{
	strcat(ud, row->site);
	strcat(ud, ";");
}

/* On PostgreSQL, moves the test to a database whose default collation is
 * a language's (ICU "en" sorts "a" before "B"). */
static void use_language_collation(void)
{
	const char *base = heed_test_pg(), *slash;
	char sql[160];

	if (!base)
		return;
	slash = strrchr(base, '/');
	assert_non_null(slash);
	snprintf(sql, sizeof(sql),
	         "CREATE DATABASE heed_sites_icu_%ld TEMPLATE template0 "
	         "LOCALE_PROVIDER icu ICU_LOCALE 'en' LOCALE 'C';",
	         (long)getpid());
	heed_test_pg_sql(base, sql);
	snprintf(path, sizeof(path), "%.*s/heed_sites_icu_%ld",
	         (int)(slash - base), base, (long)getpid());
	assert_string_equal(heed_test_pg_sql(path, "SELECT 'a' < 'B';"), "t");
}

/* Sites, ACAP references and arrangements are listed in byte order on
 * every backend ("B" before "_" before "a"), whatever the database's
 * locale, as SQLite's BINARY collation lists them. */
static void test_listings_in_byte_order(void **state)
{
	static const char *const names[] = {"a", "_", "B"};
	struct heed_store_acap_ref ref = {.site = "http://a.test"};
	struct heed_arrangement a = {0};
	char sites[64] = "", refs[64] = "", hosts[64] = "";
	char site[32], host[16], locator[8];
	heed_store *s;

	(void)state;
	use_language_collation();
	s = open_store();
	for (size_t i = 0; i < HEED_ARRAY_SIZE(names); i++) {
		snprintf(host, sizeof(host), "%s.test", names[i]);
		snprintf(site, sizeof(site), "http://%s", host);
		snprintf(locator, sizeof(locator), "/%s", names[i]);
		put_site(s, site, host, HEED_SITE_UNKNOWN, 0);
		a.host = host;
		assert_int_equal(heed_store_arrangement_put(s, &a), HEED_OK);
		ref.locator = locator;
		assert_int_equal(heed_store_acap_ref_put(s, &ref), HEED_OK);
	}
	assert_int_equal(heed_store_site_each(s, NULL, site_name, sites, NULL),
	                 HEED_OK);
	assert_string_equal(sites,
	                    "http://B.test;http://_.test;http://a.test;");
	assert_int_equal(
	        heed_store_acap_ref_each(s, "http://a.test", ref_seen, refs),
	        HEED_OK);
	assert_string_equal(refs, "/B;/_;/a;");
	assert_int_equal(
	        heed_store_arrangement_each(s, arrangement_row, hosts, NULL),
	        HEED_OK);
	assert_string_equal(hosts, "B.test;_.test;a.test;");
	heed_store_close(s);
}

/* Whatever a hand-edited row says, heed reads no delay under 1 s. */
static void test_arrangement_floor_on_read(void **state)
{
	struct heed_arrangement a = {0}, out;
	heed_store *s = open_store();

	(void)state;
	a.host = "fast.example";
	a.delay_ms = 2000;
	assert_int_equal(heed_store_arrangement_put(s, &a), HEED_OK);
	heed_store_close(s);
	edit_by_hand("UPDATE arrangements SET delay_ms = 10, mode = 'bogus';");
	s = open_store();
	assert_int_equal(heed_store_arrangement_get(s, "fast.example", &out),
	                 HEED_OK);
	assert_int_equal(out.delay_ms, HEED_ARRANGEMENT_MIN_DELAY_MS);
	assert_int_equal(out.mode, HEED_ARRANGEMENT_FULL);
	heed_store_arrangement_clear(s, &out);
	heed_store_close(s);
}

static void put_visit(heed_store *s, const char *url, const char *site,
                      heed_frontier_kind kind)
{
	struct heed_visit v = {.url = (char *)url,
	                       .site = (char *)site,
	                       .kind = kind,
	                       .status = 200,
	                       .fresh_until = HEED_REVISIT_NO_DATE,
	                       .visits = 1};

	assert_int_equal(heed_store_visit_put(s, &v), HEED_OK);
}

/* Which rows the store holds of each of several sites, in one question:
 * a site's row, a page of it, a sitemap of it on another host, an ACAP
 * reference, its host's row, a dropped URL of its queue (a queued one is
 * none); a page of a site whose origin opens another's
 * ("http://b.test:8080") is not b.test's. */
static void test_sites_known(void **state)
{
	static const char *const origins[] = {"http://a.test", "http://b.test",
	                                      "http://c.test", "http://d.test",
	                                      "http://e.test", "http://f.test",
	                                      "http://g.test"};
	static const char *const hosts[] = {"a.test", "b.test", "c.test",
	                                    "d.test", "e.test", "f.test",
	                                    "g.test"};
	struct heed_store_host h = {{1, 99}, 5000};
	struct heed_store_acap_ref ref = {0};
	struct heed_arrangement arr = {0};
	heed_store *s = open_store();
	struct heed_frontier_entry queued = {.url = "http://f.test/1",
	                                     .host = "http://f.test",
	                                     .lastmod = HEED_STORE_NO_DATE};
	unsigned known[7];
	const char *bad[] = {"http://a.test\nx"};

	(void)state;
	put_site(s, "http://a.test", "a.test", HEED_SITE_QUALIFIED_RULES, 0);
	put_visit(s, "http://b.test/page", "http://b.test", HEED_FRONTIER_PAGE);
	put_visit(s, "http://b.test:8080/x", "http://b.test:8080",
	          HEED_FRONTIER_PAGE);
	put_visit(s, "http://cdn.test/c-sitemap.xml", "http://c.test",
	          HEED_FRONTIER_SITEMAP);
	ref.site = "http://d.test";
	ref.locator = "/acap.txt";
	ref.url = "http://d.test/acap.txt";
	ref.http_status = 404;
	assert_int_equal(heed_store_acap_ref_put(s, &ref), HEED_OK);
	assert_int_equal(heed_store_host_put(s, "e.test", &h), HEED_OK);
	/* An arrangement is its host's: a.test's site row and it both. */
	arr.host = "a.test";
	arr.delay_ms = 3000;
	assert_int_equal(heed_store_arrangement_put(s, &arr), HEED_OK);
	assert_int_equal(heed_store_frontier_add(s, &queued, NULL), HEED_OK);
	queued.url = "http://g.test/1";
	queued.host = "http://g.test";
	assert_int_equal(heed_store_frontier_add(s, &queued, NULL), HEED_OK);
	assert_int_equal(
	        heed_store_frontier_drop_host(s, "http://g.test", NULL),
	        HEED_OK);
	assert_int_equal(heed_store_sites_known(s, origins, hosts, 7, known),
	                 HEED_OK);
	assert_int_equal(known[0],
	                 HEED_STORE_KNOWN_SITE | HEED_STORE_KNOWN_ARRANGED);
	assert_int_equal(known[1], HEED_STORE_KNOWN_VISITS);
	assert_int_equal(known[2], HEED_STORE_KNOWN_VISITS);
	assert_int_equal(known[3], HEED_STORE_KNOWN_ACAP);
	assert_int_equal(known[4], HEED_STORE_KNOWN_HOST);
	assert_int_equal(known[5], 0);
	assert_int_equal(known[6], HEED_STORE_KNOWN_DROPPED);
	assert_int_equal(heed_store_sites_known(s, bad, hosts, 1, known),
	                 HEED_EINVAL);
	heed_store_close(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test_setup_teardown(test_round_trip_across_reopen,
	                                        make_file, remove_file),
	        cmocka_unit_test_setup_teardown(test_each_and_reset_by_host,
	                                        make_file, remove_file),
	        cmocka_unit_test_setup_teardown(test_host_state_survives_reopen,
	                                        make_file, remove_file),
	        cmocka_unit_test_setup_teardown(test_version_1_is_migrated,
	                                        make_file, remove_file),
	        cmocka_unit_test_setup_teardown(test_two_stores_at_once,
	                                        make_file, remove_file),
	        cmocka_unit_test_setup_teardown(test_acap_refs_round_trip,
	                                        make_file, remove_file),
	        cmocka_unit_test_setup_teardown(test_arrangement_round_trip,
	                                        make_file, remove_file),
	        cmocka_unit_test_setup_teardown(
	                test_arrangement_list_and_delete, make_file,
	                remove_file),
	        cmocka_unit_test_setup_teardown(test_arrangement_floor_on_read,
	                                        make_file, remove_file),
	        cmocka_unit_test_setup_teardown(test_listings_in_byte_order,
	                                        make_file, remove_file),
	        cmocka_unit_test_setup_teardown(test_sites_known, make_file,
	                                        remove_file),
	};
	return cmocka_run_group_tests_name(heed_test_pg() ? "store_sites_pg"
	                                                  : "store_sites",
	                                   tests, NULL, NULL);
}
