/*
 * Unit tests for the store front and its SQLite backend, on real database
 * files in a temporary folder.
 */
#include "heed_test.h"

#include <stdio.h>
#include <sqlite3.h>
#include <unistd.h>

#include "heed/store.h"

static char dir[64];

static int make_dir(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/heed-store-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int remove_dir(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

static void path_in_dir(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/%s", dir, name);
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
	struct heed_diag d = {0};
	heed_store *s = (heed_store *)&d;
	FILE *f;

	(void)state;
	path_in_dir(path, sizeof(path), "garbage.db");
	f = fopen(path, "wb");
	assert_non_null(f);
	for (int i = 0; i < 4096; i++)
		fputc("garbage!"[i % 8], f);
	fclose(f);
	assert_int_equal(heed_store_open(&s, path, heed_test_allocator(), &d),
	                 HEED_ESTORE);
	assert_null(s);
	assert_non_null(strstr(d.message, "not a usable heed store"));
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
	assert_int_equal(heed_store_open(&s, "postgres://x/y", NULL, &d),
	                 HEED_ECONFIG);
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
	        cmocka_unit_test(test_newer_schema_refused),
	        cmocka_unit_test(test_locations),
	        cmocka_unit_test(test_open_oom),
	};
	return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
