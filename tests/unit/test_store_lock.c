/*
 * Unit tests for the store's crawl lock ("A second `heed crawl`
 * on a store in use exits at once with a clear message and a documented
 * status; stats, export and site report still read while a crawl runs. A
 * lock left by a killed process does not block the next run."), on real
 * files, with a real child process killed while it holds the lock.
 */
#include "heed_test.h"

#include <errno.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "heed/store.h"

static heed_store *open_path(const char *path)
{
	heed_store *s = NULL;

	assert_int_equal(heed_store_open(&s, path, heed_test_allocator(), NULL),
	                 HEED_OK);
	return s;
}

/* The lock file's content, as the holder wrote it. */
static void read_lock_file(const char *db, char *buf, size_t size)
{
	char path[160];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s.lock", db);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(buf, 1, size - 1, f);
	buf[n] = '\0';
	fclose(f);
}

/* flock locks belong to the open file description, so two handles in one
 * process exclude each other (a POSIX lock would let the second in). */
static void test_second_handle_in_process_is_refused(void **state)
{
	char path[128], want[64], content[64];
	struct heed_diag d = {0};
	heed_store *a, *b;
	int v = 0;

	(void)state;
	snprintf(path, sizeof(path), "%s/same.db", heed_test_dir());
	a = open_path(path);
	b = open_path(path);
	assert_int_equal(heed_store_lock(a, &d), HEED_OK);
	/* Twice on one handle: still held, still OK. */
	assert_int_equal(heed_store_lock(a, &d), HEED_OK);
	read_lock_file(path, content, sizeof(content));
	snprintf(want, sizeof(want), "%ld\n", (long)getpid());
	assert_string_equal(content, want);

	assert_int_equal(heed_store_lock(b, &d), HEED_EBUSY);
	snprintf(want, sizeof(want), "(pid %ld)", (long)getpid());
	assert_non_null(strstr(d.message, want));
	assert_non_null(strstr(d.message, "is in use by another heed process"));
	assert_non_null(strstr(d.message, path));
	/* Readers never take the lock: the refused handle still reads. */
	assert_int_equal(heed_store_schema_version(b, "frontier", &v), HEED_OK);
	assert_true(v > 0);

	heed_store_close(a);
	assert_int_equal(heed_store_lock(b, &d), HEED_OK);
	heed_store_close(b);
	/* The file stays: unlinking it would race with a new locker. */
	read_lock_file(path, content, sizeof(content));
}

/* The message names the store as the caller wrote it, "sqlite:" and all. */
static void test_refusal_names_location(void **state)
{
	char path[128], location[160], want[200];
	struct heed_diag d = {0};
	heed_store *a, *b;

	(void)state;
	snprintf(path, sizeof(path), "%s/named.db", heed_test_dir());
	snprintf(location, sizeof(location), "sqlite:%s", path);
	a = open_path(path);
	b = open_path(location);
	assert_int_equal(heed_store_lock(a, NULL), HEED_OK);
	assert_int_equal(heed_store_lock(b, NULL), HEED_EBUSY);
	assert_int_equal(heed_store_lock(b, &d), HEED_EBUSY);
	snprintf(want, sizeof(want), "store '%s' is in use", location);
	assert_non_null(strstr(d.message, want));
	heed_store_close(b);
	heed_store_close(a);
}

/* A child locks the store, says so, and blocks until killed. */
static void lock_and_hold(const char *path, int ready_fd, int hold_fd)
{
	heed_store *s = NULL;
	char c = 'r';

	if (heed_store_open(&s, path, NULL, NULL) != HEED_OK ||
	    heed_store_lock(s, NULL) != HEED_OK)
		_exit(3);
	if (write(ready_fd, &c, 1) != 1)
		_exit(4);
	/* EOF when the parent closes its end or dies: no orphan lingers
	 * if the parent's assertions fail before the kill. */
	while (read(hold_fd, &c, 1) > 0)
		continue;
	_exit(0);
}

static void test_killed_holder_releases(void **state)
{
	char path[128], want[64], c;
	struct heed_diag d = {0};
	int ready[2], hold[2], wstatus;
	heed_store *s;
	pid_t child;

	(void)state;
	snprintf(path, sizeof(path), "%s/killed.db", heed_test_dir());
	heed_store_close(open_path(path)); /* migrate before the race */
	assert_int_equal(pipe(ready), 0);
	assert_int_equal(pipe(hold), 0);
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		close(ready[0]);
		close(hold[1]);
		lock_and_hold(path, ready[1], hold[0]);
	}
	close(ready[1]);
	close(hold[0]);
	assert_int_equal(read(ready[0], &c, 1), 1);

	s = open_path(path);
	assert_int_equal(heed_store_lock(s, &d), HEED_EBUSY);
	snprintf(want, sizeof(want), "(pid %ld)", (long)child);
	assert_non_null(strstr(d.message, want));

	assert_int_equal(kill(child, SIGKILL), 0);
	assert_int_equal(waitpid(child, &wstatus, 0), child);
	assert_true(WIFSIGNALED(wstatus));
	assert_int_equal(WTERMSIG(wstatus), SIGKILL);
	/* The kernel released the lock with the dead process's files; the
	 * stale pid in the file does not matter. */
	assert_int_equal(heed_store_lock(s, &d), HEED_OK);
	heed_store_close(s);
	close(ready[0]);
	close(hold[1]);
}

/* An in-memory store has no file another process could open. */
static void test_memory_store_has_nothing_to_lock(void **state)
{
	static const char *const locations[] = {":memory:", "sqlite::memory:"};
	heed_store *a, *b;

	(void)state;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(locations); i++) {
		a = open_path(locations[i]);
		b = open_path(locations[i]);
		assert_int_equal(heed_store_lock(a, NULL), HEED_OK);
		assert_int_equal(heed_store_lock(a, NULL), HEED_OK);
		assert_int_equal(heed_store_lock(b, NULL), HEED_OK);
		heed_store_close(a);
		heed_store_close(b);
	}
}

/* A lock file that cannot be opened read-write (here a directory, which
 * fails even for root) is HEED_EIO with the reason. */
static void test_lock_file_cannot_be_created(void **state)
{
	char path[128], lock[160];
	struct heed_diag d = {0};
	heed_store *s;

	(void)state;
	snprintf(path, sizeof(path), "%s/dirlock.db", heed_test_dir());
	snprintf(lock, sizeof(lock), "%s.lock", path);
	assert_int_equal(mkdir(lock, 0755), 0);
	s = open_path(path);
	assert_int_equal(heed_store_lock(s, &d), HEED_EIO);
	assert_non_null(strstr(d.message, "cannot create the lock file"));
	assert_non_null(strstr(d.message, strerror(EISDIR)));
	heed_store_close(s);
}

static void test_lock_oom(void **state)
{
	struct heed_test_fail f = {.fail_at = (unsigned long)-1};
	char path[128];
	heed_store *s = NULL;

	(void)state;
	snprintf(path, sizeof(path), "%s/oom.db", heed_test_dir());
	assert_int_equal(heed_store_open(&s, path,
	                                 heed_test_failing_allocator(&f), NULL),
	                 HEED_OK);
	f.fail_at = f.calls;
	assert_int_equal(heed_store_lock(s, NULL), HEED_ENOMEM);
	assert_int_equal(heed_store_lock(s, NULL), HEED_OK);
	heed_store_close(s);
	/* Opening copies the location: its allocation fails cleanly too. */
	for (unsigned long n = 0; n < 2; n++) {
		struct heed_test_fail g = {.fail_at = n};
		assert_int_equal(
		        heed_store_open(&s, path,
		                        heed_test_failing_allocator(&g), NULL),
		        HEED_ENOMEM);
		assert_null(s);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_second_handle_in_process_is_refused),
	        cmocka_unit_test(test_refusal_names_location),
	        cmocka_unit_test(test_killed_holder_releases),
	        cmocka_unit_test(test_memory_store_has_nothing_to_lock),
	        cmocka_unit_test(test_lock_file_cannot_be_created),
	        cmocka_unit_test(test_lock_oom),
	};
	return cmocka_run_group_tests(tests, heed_test_make_dir,
	                              heed_test_remove_dir);
}
