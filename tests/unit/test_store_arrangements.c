/*
 * Unit tests for the store's arrangements area: an arrangement survives a
 * close and reopen field by field, a replace, the listing in host order,
 * a delete, and a hand-written delay under the floor is raised on read.
 */
#include "heed_test.h"

#include <sqlite3.h>
#include <unistd.h>

#include "heed/store_arrangements.h"

static char path[64];

static int make_file(void **state)
{
	int fd;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/heed-arr-XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	close(fd);
	unlink(path);
	return 0;
}

static int remove_file(void **state)
{
	char p[96];

	(void)state;
	unlink(path);
	snprintf(p, sizeof(p), "%s-wal", path);
	unlink(p);
	snprintf(p, sizeof(p), "%s-shm", path);
	unlink(p);
	return 0;
}

static heed_store *open_store(void)
{
	heed_store *s = NULL;

	assert_int_equal(heed_store_open(&s, path, heed_test_allocator(), NULL),
	                 HEED_OK);
	return s;
}

static void round_trip(void **state)
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
	in.endpoint = "https://videos.example/feed.xml";
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
	assert_string_equal(out.note, in.note);
	assert_int_equal(out.updated_s, in.updated_s);
	heed_store_arrangement_clear(s, &out);
	assert_null(out.host);

	/* A replace clears what is no longer asked. */
	in.include = NULL;
	in.windows = "";
	in.mode = HEED_ARRANGEMENT_PAUSED;
	assert_int_equal(heed_store_arrangement_put(s, &in), HEED_OK);
	assert_int_equal(heed_store_arrangement_get(s, "videos.example", &out),
	                 HEED_OK);
	assert_null(out.include);
	assert_null(out.windows);
	assert_int_equal(out.mode, HEED_ARRANGEMENT_PAUSED);
	heed_store_arrangement_clear(s, &out);

	assert_int_equal(heed_store_arrangement_get(s, "other.example", &out),
	                 HEED_ENOTFOUND);
	assert_null(out.host);
	heed_store_close(s);
}

static void count_row(void *ud, const struct heed_arrangement *a)
{
	char *seen = ud;

	strcat(seen, a->host);
	strcat(seen, ";");
}

static void list_and_delete(void **state)
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
	assert_int_equal(heed_store_arrangement_each(s, count_row, seen, &n),
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

/* Whatever a hand-edited row says, heed reads no delay under 1 s. */
static void floor_on_read(void **state)
{
	struct heed_arrangement a = {0}, out;
	heed_store *s = open_store();
	sqlite3 *db;

	(void)state;
	a.host = "fast.example";
	a.delay_ms = 2000;
	assert_int_equal(heed_store_arrangement_put(s, &a), HEED_OK);
	heed_store_close(s);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db,
	                              "UPDATE arrangements SET delay_ms = 10, "
	                              "mode = 'bogus';",
	                              NULL, NULL, NULL),
	                 SQLITE_OK);
	sqlite3_close(db);
	s = open_store();
	assert_int_equal(heed_store_arrangement_get(s, "fast.example", &out),
	                 HEED_OK);
	assert_int_equal(out.delay_ms, HEED_ARRANGEMENT_MIN_DELAY_MS);
	assert_int_equal(out.mode, HEED_ARRANGEMENT_FULL);
	heed_store_arrangement_clear(s, &out);
	heed_store_close(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test_setup_teardown(round_trip, make_file,
	                                        remove_file),
	        cmocka_unit_test_setup_teardown(list_and_delete, make_file,
	                                        remove_file),
	        cmocka_unit_test_setup_teardown(floor_on_read, make_file,
	                                        remove_file),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
