/*
 * Unit tests for the store front and its SQLite backend, on real database
 * files in a temporary folder.
 */
#include "heed_test.h"

#include <stdio.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include "heed/store.h"
#include "heed/store_frontier.h"
#include "store/grams-int.h"

static void path_in_dir(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/%s", heed_test_dir(), name);
}

/* The whole file at path, malloc'd, in *len; NULL when it cannot be read. */
static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	long n;

	*len = 0;
	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 &&
	    fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n + 1)) &&
	    fread(buf, 1, (size_t)n, f) == (size_t)n)
		*len = (size_t)n;
	fclose(f);
	return buf;
}

/* Whether path exists. */
static bool exists(const char *path)
{
	struct stat sb;

	return stat(path, &sb) == 0;
}

/* Whether path or one of SQLite's side files (-wal, -shm, -journal) or
 * heed's lock file exists beside it. */
static bool side_files(const char *path)
{
	static const char *const ext[] = {"-wal", "-shm", "-journal", ".lock"};
	char buf[160];

	for (size_t i = 0; i < HEED_ARRAY_SIZE(ext); i++) {
		snprintf(buf, sizeof(buf), "%s%s", path, ext[i]);
		if (exists(buf))
			return true;
	}
	return false;
}

/* Runs sql on the SQLite database at path (created if needed), as
 * another program would, in rollback-journal mode unless sql says. */
static void sql_at(const char *path, const char *sql)
{
	sqlite3 *db;
	char *err = NULL;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	/* heed's FTS5 tokenizer: the search index's tables need it. */
	assert_int_equal(heed__sqlite_search_register(db), SQLITE_OK);
	if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK)
		fail_msg("%s: %s", sql, err);
	sqlite3_close(db);
}

/* An integer from a one-row query on path (read-only). */
static int sql_int(const char *path, const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	int v = -1;

	assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL),
	                 SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return v;
}

/*
 * Opens path with each of the three ways (writer, existing writer,
 * reader), asserts each is refused with HEED_ESTORE and a message holding
 * want, and that the file's bytes are those it had before and no side
 * file appeared.
 */
static void assert_refused_untouched(const char *path, const char *want)
{
	char side[160];
	struct stat sb;

	static const unsigned flags[] = {0, HEED_STORE_OPEN_EXISTING,
	                                 HEED_STORE_OPEN_READONLY};
	size_t before_len, after_len;
	unsigned char *before = slurp(path, &before_len), *after;
	bool wal; /* the header's read and write versions say WAL */

	assert_non_null(before);
	wal = before_len >= 100 && before[18] == 2 && before[19] == 2;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(flags); i++) {
		struct heed_diag d = {0};
		heed_store *s = (heed_store *)&d;
		assert_int_equal(heed_store_open_ex(&s, path, flags[i],
		                                    heed_test_allocator(), &d),
		                 HEED_ESTORE);
		assert_null(s);
		if (!strstr(d.message, want))
			fail_msg("flags %u: '%s' does not say '%s'", flags[i],
			         d.message, want);
		after = slurp(path, &after_len);
		assert_non_null(after);
		assert_int_equal(after_len, before_len);
		assert_memory_equal(after, before, before_len);
		free(after);
		/* A reader of a WAL database, any SQLite reader, makes the
		 * -wal and -shm files it needs; the -wal stays empty. */
		if (wal) {
			snprintf(side, sizeof(side), "%s-wal", path);
			assert_true(!exists(side) ||
			            (stat(side, &sb) == 0 && sb.st_size == 0));
		} else {
			assert_false(side_files(path));
		}
	}
	free(before);
}

static void test_open_migrates_once(void **state)
{
	char path[128];
	heed_store *s = NULL;
	int v = -1;

	(void)state;
	path_in_dir(path, sizeof(path), "a.db");
	assert_int_equal(heed_store_open(&s, path, heed_test_allocator(), NULL),
	                 HEED_OK);
	assert_string_equal(heed_store_backend_name(s), "sqlite");
	assert_int_equal(heed_store_schema_version(s, "core", &v), HEED_OK);
	assert_int_equal(v, 1);
	assert_int_equal(heed_store_schema_version(s, "nosuch", &v), HEED_OK);
	assert_int_equal(v, 0);
	heed_store_close(s);
	/* Reopening applies nothing twice and keeps the version. */
	assert_int_equal(heed_store_open(&s, path, heed_test_allocator(), NULL),
	                 HEED_OK);
	assert_int_equal(heed_store_schema_version(s, "core", &v), HEED_OK);
	assert_int_equal(v, 1);
	heed_store_close(s);
}

static void test_not_a_database(void **state)
{
	char path[128];
	FILE *f;

	(void)state;
	path_in_dir(path, sizeof(path), "garbage.db");
	f = fopen(path, "wb");
	assert_non_null(f);
	for (int i = 0; i < 4096; i++)
		fputc("garbage!"[i % 8], f);
	fclose(f);
	assert_refused_untouched(path, "is not a heed store: it is not a "
	                               "SQLite database");
}

/* A SQLite file of someone else's is left as it was: heed once gave such
 * a file a dozen tables of its own. */
static void test_foreign_tables_untouched(void **state)
{
	char path[128], want[256];

	(void)state;
	path_in_dir(path, sizeof(path), "foreign.db");
	sql_at(path, "CREATE TABLE users (id INTEGER PRIMARY KEY, name);"
	             "INSERT INTO users(name) VALUES ('ann'), ('bob');"
	             "CREATE TABLE orders (id INTEGER PRIMARY KEY);");
	snprintf(want, sizeof(want),
	         "'%s' is not a heed store: it holds tables heed did not "
	         "create (orders, users)",
	         path);
	assert_refused_untouched(path, want);
	/* The same in WAL mode, whose readers use side files. */
	sql_at(path, "PRAGMA journal_mode=WAL;");
	assert_refused_untouched(path, "(orders, users)");
}

/* A `pages` table of someone else's once made the migration fail
 * half-way, leaving heed's other tables behind. A table named like one of
 * heed's is not heed's without heed_schema. */
static void test_foreign_pages_table(void **state)
{
	char path[128];

	(void)state;
	path_in_dir(path, sizeof(path), "pages.db");
	sql_at(path, "CREATE TABLE pages (url TEXT, body BLOB);");
	for (int i = 1; i <= 20; i++) {
		char sql[80];
		snprintf(sql, sizeof(sql),
		         "CREATE TABLE a_table_of_someone_else_%02d (x);", i);
		sql_at(path, sql);
	}
	/* Listed by name up to what the message holds, then counted. */
	assert_refused_untouched(path, "heed did not create "
	                               "(a_table_of_someone_else_01, ");
	assert_refused_untouched(path, " more)");
	path_in_dir(path, sizeof(path), "pages-only.db");
	sql_at(path, "CREATE TABLE pages (url TEXT, body BLOB);");
	assert_refused_untouched(path, "heed did not create (pages)");
}

/* A database another application marked as its own, even empty. */
static void test_other_application_id(void **state)
{
	char path[128];

	(void)state;
	path_in_dir(path, sizeof(path), "other-app.db");
	sql_at(path, "PRAGMA application_id = 42; CREATE TABLE t (x);");
	assert_refused_untouched(path, "belongs to another application "
	                               "(application_id 0x0000002a");
	path_in_dir(path, sizeof(path), "other-app-empty.db");
	sql_at(path, "PRAGMA application_id = 42;");
	assert_refused_untouched(path, "application_id 0x0000002a");
}

/* A new store carries heed's mark; a marked store keeps opening when its
 * owner adds a table of their own to it. */
static void test_marked_store(void **state)
{
	char path[128];
	heed_store *s = NULL;

	(void)state;
	path_in_dir(path, sizeof(path), "marked.db");
	assert_int_equal(heed_store_open(&s, path, heed_test_allocator(), NULL),
	                 HEED_OK);
	heed_store_close(s);
	assert_int_equal(sql_int(path, "PRAGMA application_id;"),
	                 HEED_STORE_APPLICATION_ID);
	sql_at(path, "CREATE TABLE my_notes (x);");
	assert_int_equal(heed_store_open(&s, path, heed_test_allocator(), NULL),
	                 HEED_OK);
	heed_store_close(s);
	assert_int_equal(heed_store_open_ex(&s, path, HEED_STORE_OPEN_READONLY,
	                                    heed_test_allocator(), NULL),
	                 HEED_OK);
	heed_store_close(s);
}

/* A store made before the mark (exactly heed's tables, no
 * application_id) is read as it is and marked by the next writer. */
static void test_unmarked_store_recognised(void **state)
{
	char path[128];
	heed_store *s = NULL;
	size_t len, len2;
	unsigned char *before, *after;
	int v = 0;

	(void)state;
	path_in_dir(path, sizeof(path), "unmarked.db");
	assert_int_equal(heed_store_open(&s, path, NULL, NULL), HEED_OK);
	heed_store_close(s);
	sql_at(path, "PRAGMA application_id = 0;");
	before = slurp(path, &len);
	assert_int_equal(heed_store_open_ex(&s, path, HEED_STORE_OPEN_READONLY,
	                                    heed_test_allocator(), NULL),
	                 HEED_OK);
	assert_int_equal(heed_store_schema_version(s, "core", &v), HEED_OK);
	assert_int_equal(v, 1);
	heed_store_close(s);
	after = slurp(path, &len2);
	assert_int_equal(len, len2);
	assert_memory_equal(after, before, len);
	free(after);
	free(before);
	assert_int_equal(sql_int(path, "PRAGMA application_id;"), 0);
	assert_int_equal(heed_store_open_ex(&s, path, HEED_STORE_OPEN_EXISTING,
	                                    heed_test_allocator(), NULL),
	                 HEED_OK);
	heed_store_close(s);
	assert_int_equal(sql_int(path, "PRAGMA application_id;"),
	                 HEED_STORE_APPLICATION_ID);
	/* A table of the user's in an unmarked store cannot be told from a
	 * foreign database: refused, untouched. */
	sql_at(path, "PRAGMA application_id = 0; CREATE TABLE my_notes (x);");
	assert_refused_untouched(path, "heed did not create (my_notes)");
}

/* Migrations are one transaction. An unmarked store at older
 * versions whose last pending migration meets a column already there: the
 * pages rebuild before it and the mark are rolled back with it, and the
 * file is byte for byte what it was. */
static void test_failed_migration_leaves_file(void **state)
{
	char path[128];
	struct heed_diag d = {0};
	heed_store *s = NULL;

	(void)state;
	path_in_dir(path, sizeof(path), "half.db");
	assert_int_equal(heed_store_open(&s, path, NULL, NULL), HEED_OK);
	heed_store_close(s);
	/* As a heed before the search area left it: pages version 2
	 * rebuilds the table, which the search area's view and triggers
	 * follow. */
	sql_at(path, "PRAGMA journal_mode=DELETE; PRAGMA application_id = 0;"
	             "DROP VIEW search_docs; DROP VIEW search_tags;"
	             "DROP TABLE search_fts;"
	             "DROP TABLE page_tags;"
	             "DELETE FROM heed_schema WHERE area = 'search';"
	             "UPDATE heed_schema SET version = 1 WHERE area = 'pages';"
	             "UPDATE heed_schema SET version = 1 "
	             "WHERE area = 'frontier';");
	{
		size_t len, len2;
		unsigned char *before = slurp(path, &len), *after;
		assert_int_equal(heed_store_open_ex(&s, path,
		                                    HEED_STORE_OPEN_READONLY,
		                                    NULL, &d),
		                 HEED_ESTORE);
		assert_non_null(strstr(d.message, "older heed (area 'pages' "
		                                  "at schema version 1 of 3)"));
		assert_int_equal(heed_store_open(&s, path, NULL, &d),
		                 HEED_ESTORE);
		assert_null(s);
		assert_non_null(strstr(d.message, "duplicate column name"));
		after = slurp(path, &len2);
		assert_int_equal(len, len2);
		assert_memory_equal(after, before, len);
		free(after);
		free(before);
		assert_false(side_files(path));
	}
	assert_int_equal(sql_int(path, "SELECT version FROM heed_schema "
	                               "WHERE area = 'pages';"),
	                 1);
	assert_int_equal(sql_int(path, "PRAGMA application_id;"), 0);
}

/* Opening a store that must exist creates nothing: `heed stats --store
 * typo.db` once left an empty store behind. */
static void test_open_existing_creates_nothing(void **state)
{
	static const unsigned flags[] = {HEED_STORE_OPEN_EXISTING,
	                                 HEED_STORE_OPEN_READONLY};
	char path[128], want[200];
	FILE *f;

	(void)state;
	path_in_dir(path, sizeof(path), "typo.db");
	snprintf(want, sizeof(want), "no store at '%s'", path);
	for (size_t i = 0; i < HEED_ARRAY_SIZE(flags); i++) {
		struct heed_diag d = {0};
		heed_store *s = NULL;
		assert_int_equal(heed_store_open_ex(&s, path, flags[i],
		                                    heed_test_allocator(), &d),
		                 HEED_ENOTFOUND);
		assert_null(s);
		assert_string_equal(d.message, want);
		assert_false(exists(path));
		assert_false(side_files(path));
		assert_int_equal(heed_store_open_ex(&s, ":memory:", flags[i],
		                                    heed_test_allocator(), &d),
		                 HEED_ENOTFOUND);
	}
	/* An empty file is no store either, and stays empty. */
	f = fopen(path, "wb");
	assert_non_null(f);
	fclose(f);
	for (size_t i = 0; i < HEED_ARRAY_SIZE(flags); i++) {
		struct heed_diag d = {0};
		heed_store *s = NULL;
		size_t len;
		unsigned char *after;
		assert_int_equal(heed_store_open_ex(&s, path, flags[i],
		                                    heed_test_allocator(), &d),
		                 HEED_ENOTFOUND);
		assert_non_null(strstr(d.message, "the file is an empty"));
		after = slurp(path, &len);
		assert_int_equal(len, 0);
		free(after);
	}
	/* A writer makes a store of the empty file. */
	{
		heed_store *s = NULL;
		assert_int_equal(heed_store_open(&s, path, NULL, NULL),
		                 HEED_OK);
		heed_store_close(s);
	}
}

/* A reader never writes: writes through it fail, and a store at an older
 * schema is refused rather than migrated. */
static void test_read_only_never_writes(void **state)
{
	char path[128];
	struct heed_diag d = {0};
	heed_store *s = NULL;

	(void)state;
	path_in_dir(path, sizeof(path), "ro.db");
	assert_int_equal(heed_store_open(&s, path, NULL, NULL), HEED_OK);
	heed_store_close(s);
	assert_int_equal(heed_store_open_ex(&s, path, HEED_STORE_OPEN_READONLY,
	                                    heed_test_allocator(), NULL),
	                 HEED_OK);
	assert_int_equal(heed_store_crawl_lease_set(s, 1), HEED_ESTORE);
	assert_non_null(strstr(heed_store_errmsg(s), "readonly"));
	heed_store_close(s);
	sql_at(path, "UPDATE heed_schema SET version = 0 WHERE area = 'irc';");
	assert_int_equal(heed_store_open_ex(&s, path, HEED_STORE_OPEN_READONLY,
	                                    heed_test_allocator(), &d),
	                 HEED_ESTORE);
	assert_non_null(strstr(d.message, "run a heed command that writes"));
	assert_int_equal(sql_int(path, "SELECT version FROM heed_schema "
	                               "WHERE area = 'irc';"),
	                 0);
}

static void test_newer_schema_refused(void **state)
{
	char path[128];
	struct heed_diag d = {0};
	heed_store *s = NULL;

	(void)state;
	path_in_dir(path, sizeof(path), "newer.db");
	assert_int_equal(heed_store_open(&s, path, NULL, NULL), HEED_OK);
	heed_store_close(s);
	{
		sqlite3 *db;
		assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
		/* heed's FTS5 tokenizer: the search index's tables need it. */
		assert_int_equal(heed__sqlite_search_register(db), SQLITE_OK);
		assert_int_equal(
		        sqlite3_exec(db,
		                     "UPDATE heed_schema SET version = 99 "
		                     "WHERE area = 'core';",
		                     NULL, NULL, NULL),
		        SQLITE_OK);
		sqlite3_close(db);
	}
	assert_int_equal(heed_store_open(&s, path, NULL, &d), HEED_ESTORE);
	assert_non_null(strstr(d.message, "newer than this heed"));
}

static void test_locations(void **state)
{
	heed_store *s = NULL;
	struct heed_diag d = {0};

	(void)state;
	assert_int_equal(heed_store_open(&s, "sqlite::memory:",
	                                 heed_test_allocator(), NULL),
	                 HEED_OK);
	assert_int_equal(heed_store_begin(s), HEED_OK);
	assert_int_equal(heed_store_rollback(s), HEED_OK);
	heed_store_close(s);
	/* PostgreSQL's URIs reach its backend: nothing listens on port 1,
	 * and the message keeps the password out. */
	assert_int_equal(heed_store_open(&s,
	                                 "postgres://u:secret@127.0.0.1:1/y",
	                                 NULL, &d),
	                 HEED_ESTORE);
	assert_non_null(strstr(d.message, "postgres://u:***@127.0.0.1:1/y"));
	assert_null(strstr(d.message, "secret"));
	assert_int_equal(heed_store_open(&s, "", NULL, &d), HEED_EINVAL);
	path_in_dir(d.message, sizeof(d.message), "no/such/dir/x.db");
	assert_int_equal(heed_store_open(&s, d.message, NULL, &d), HEED_ESTORE);
}

static void test_open_oom(void **state)
{
	heed_store *s = NULL;
	struct heed_test_fail f = {.fail_at = 0};

	(void)state;
	assert_int_equal(heed_store_open(&s, ":memory:",
	                                 heed_test_failing_allocator(&f), NULL),
	                 HEED_ENOMEM);
	assert_null(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_open_migrates_once),
	        cmocka_unit_test(test_not_a_database),
	        cmocka_unit_test(test_foreign_tables_untouched),
	        cmocka_unit_test(test_foreign_pages_table),
	        cmocka_unit_test(test_other_application_id),
	        cmocka_unit_test(test_marked_store),
	        cmocka_unit_test(test_unmarked_store_recognised),
	        cmocka_unit_test(test_failed_migration_leaves_file),
	        cmocka_unit_test(test_open_existing_creates_nothing),
	        cmocka_unit_test(test_read_only_never_writes),
	        cmocka_unit_test(test_newer_schema_refused),
	        cmocka_unit_test(test_locations),
	        cmocka_unit_test(test_open_oom),
	};
	return cmocka_run_group_tests(tests, heed_test_make_dir,
	                              heed_test_remove_dir);
}
