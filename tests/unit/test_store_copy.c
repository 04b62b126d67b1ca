/*
 * heed_store_copy (`heed store migrate`) both ways between SQLite and the real
 * PostgreSQL cluster tests/pgcluster.py starts: bytes that are not UTF-8
 * (with a NUL inside) kept byte for byte through PostgreSQL's BYTEA, large
 * integers and NULLs kept, ids kept and the identity moved past them, a
 * destination holding data and a source holding an area the destination
 * lacks refused with nothing written, and a changed row caught by the
 * verification.
 */
#include "pg_test.h"

#include <sqlite3.h>

#include "heed/store_copy.h"
#include "heed/store_frontier.h"
#include "store/grams-int.h"

/* What the SQLite store holds beyond what heed wrote: a topic of raw
 * bytes, a page with a 64-bit count and NULLs, frontier ids with a gap. */
static const char topic[] = {'\xff', '\0', 'x', '\xc3', '(', '\0'};
#define TOPIC_LEN 5

static void sql_exec(const char *path, const char *sql)
{
	sqlite3 *db = NULL;
	char *err = NULL;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	/* heed's FTS5 tokenizer: the search index's tables need it. */
	assert_int_equal(heed__sqlite_search_register(db), SQLITE_OK);
	if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK)
		fail_msg("%s: %s", sql, err);
	sqlite3_close(db);
}

static void fill(const char *path)
{
	heed_store *s = NULL;
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;

	assert_int_equal(heed_store_open(&s, path, heed_test_allocator(), NULL),
	                 HEED_OK);
	heed_store_close(s);
	sql_exec(path,
	         "INSERT INTO frontier(id, url, host, depth, kind) VALUES"
	         "(7, 'http://a.test/1', 'http://a.test', 0, 0),"
	         "(1000, 'http://a.test/2', 'http://a.test', 1, 1);"
	         "INSERT INTO pages(id, url, host, status, fetched_at, "
	         "checked_at, title, views) VALUES(42, 'http://a.test/1', "
	         "'http://a.test', 200, 1, 2, 'caf\xc3\xa9', "
	         "9007199254740993);"
	         "INSERT INTO irc_networks(id, key, name, first_seen) "
	         "VALUES(3, 'irc.test:6667', 'Lab', 1);");
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	/* heed's FTS5 tokenizer: the search index's tables need it. */
	assert_int_equal(heed__sqlite_search_register(db), SQLITE_OK);
	assert_int_equal(
	        sqlite3_prepare_v2(db,
	                           "INSERT INTO irc_channels(network_id, name, "
	                           "users, topic, first_seen, last_seen, "
	                           "last_visit_id) VALUES(3, '#a', NULL, ?, 1, "
	                           "2, 0);",
	                           -1, &st, NULL),
	        SQLITE_OK);
	sqlite3_bind_text(st, 1, topic, TOPIC_LEN, SQLITE_STATIC);
	assert_int_equal(sqlite3_step(st), SQLITE_DONE);
	sqlite3_finalize(st);
	sqlite3_close(db);
}

static heed_store *open_at(const char *where, unsigned flags)
{
	heed_store *s = NULL;
	struct heed_diag d = {0};

	if (heed_store_open_ex(&s, where, flags, heed_test_allocator(), &d) !=
	    HEED_OK)
		fail_msg("opening %s: %s", where, d.message);
	return s;
}

/* Two rows a batch: full multi-row inserts and a last, shorter one. */
static heed_status copy(const char *from, const char *to, struct heed_diag *d)
{
	heed_store *src = open_at(from, HEED_STORE_OPEN_READONLY);
	heed_store *dst = open_at(to, 0);
	heed_status hs = heed_store_copy(src, dst, 2, NULL, NULL, d);

	if (hs == HEED_OK)
		hs = heed_store_copy_verify(src, dst, NULL, NULL, d);
	heed_store_close(dst);
	heed_store_close(src);
	return hs;
}

static void test_both_ways(void **state)
{
	char a[128], b[128], url[256];
	struct heed_diag d = {0};
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;

	(void)state;
	snprintf(a, sizeof(a), "%s/a.db", heed_test_dir());
	snprintf(b, sizeof(b), "%s/b.db", heed_test_dir());
	fill(a);
	heed_test_pg_fresh(url, sizeof(url));
	assert_int_equal(copy(a, url, &d), HEED_OK);
	assert_string_equal(heed_test_pg_sql(url, "SELECT encode(topic, 'hex') "
	                                          "FROM irc_channels;"),
	                    "ff0078c328");
	assert_string_equal(
	        heed_test_pg_sql(url, "SELECT views FROM pages WHERE id = 42;"),
	        "9007199254740993");
	/* The next frontier row gets an id past the copied ones. */
	heed_store *s = open_at(url, 0);
	struct heed_frontier_entry e = {.url = "http://a.test/3",
	                                .host = "http://a.test",
	                                .lastmod = HEED_STORE_NO_DATE};
	assert_int_equal(heed_store_frontier_add(s, &e, NULL), HEED_OK);
	heed_store_close(s);
	assert_string_equal(heed_test_pg_sql(url, "SELECT id FROM frontier "
	                                          "WHERE url = "
	                                          "'http://a.test/3';"),
	                    "1001");

	/* And back: the topic is the same bytes, still TEXT. */
	assert_int_equal(copy(url, b, &d), HEED_OK);
	assert_int_equal(sqlite3_open(b, &db), SQLITE_OK);
	/* heed's FTS5 tokenizer: the search index's tables need it. */
	assert_int_equal(heed__sqlite_search_register(db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db,
	                                    "SELECT topic, typeof(topic), "
	                                    "users FROM irc_channels;",
	                                    -1, &st, NULL),
	                 SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_int_equal(sqlite3_column_bytes(st, 0), TOPIC_LEN);
	assert_memory_equal(sqlite3_column_blob(st, 0), topic, TOPIC_LEN);
	assert_string_equal((const char *)sqlite3_column_text(st, 1), "text");
	assert_int_equal(sqlite3_column_type(st, 2), SQLITE_NULL);
	sqlite3_finalize(st);
	sqlite3_close(db);
}

/* A destination holding data is refused, nothing written; a changed row is
 * caught by the verification. */
static void test_refusals(void **state)
{
	char a[128], url[256], c[128];
	struct heed_diag d = {0};

	(void)state;
	snprintf(a, sizeof(a), "%s/r.db", heed_test_dir());
	fill(a);
	heed_test_pg_fresh(url, sizeof(url));
	assert_int_equal(copy(a, url, &d), HEED_OK);
	heed_test_pg_sql(url, "DELETE FROM frontier WHERE id = 7;");
	assert_int_equal(copy(a, url, &d), HEED_EDENIED);
	assert_non_null(strstr(d.message, "holds heed data already"));
	assert_string_equal(heed_test_pg_sql(url, "SELECT count(*) FROM "
	                                          "frontier;"),
	                    "1");

	heed_store *src = open_at(a, HEED_STORE_OPEN_READONLY);
	heed_store *dst = open_at(url, HEED_STORE_OPEN_READONLY);

	assert_int_equal(heed_store_copy_verify(src, dst, NULL, NULL, &d),
	                 HEED_EDENIED);
	assert_non_null(strstr(d.message, "frontier"));
	heed_store_close(dst);
	heed_store_close(src);

	/* A source with a site and its robots.txt as a BLOB: copied where
	 * PostgreSQL has the sites area, refused naming it where not. */
	snprintf(c, sizeof(c), "%s/s.db", heed_test_dir());
	fill(c);
	sql_exec(c, "INSERT INTO sites(site, host, robots_body) VALUES("
	            "'http://a.test', 'a.test', x'00ff0a');");
	heed_test_pg_fresh(url, sizeof(url));
	heed_status hs = copy(c, url, &d);

	if (hs == HEED_OK) /* a BLOB is BYTEA there, the same bytes */
		assert_string_equal(heed_test_pg_sql(url, "SELECT encode("
		                                          "robots_body, 'hex') "
		                                          "FROM sites;"),
		                    "00ff0a");
	else {
		assert_int_equal(hs, HEED_ENOTSUP);
		assert_non_null(strstr(d.message, "sites area"));
		assert_string_equal(heed_test_pg_sql(url, "SELECT count(*) "
		                                          "FROM frontier;"),
		                    "0");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_both_ways),
	        cmocka_unit_test(test_refusals),
	};

	return cmocka_run_group_tests(tests, heed_test_make_dir,
	                              heed_test_remove_dir);
}
