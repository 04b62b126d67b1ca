/*
 * Shared helpers for heed's cmocka unit tests.
 *
 * heed_test_allocator() routes libheed allocations through cmocka's
 * test_malloc family, so a leak fails the test. heed_test_failing_allocator()
 * fails the n-th allocation, for the OOM loops every constructor gets:
 *
 *   for (n = 0;; n++) {
 *       struct heed_test_fail f = {.fail_at = n};
 *       rc = thing_new(heed_test_failing_allocator(&f), ...);
 *       if (rc == HEED_OK) break;
 *       assert_int_equal(rc, HEED_ENOMEM);
 *   }
 */
#ifndef HEED_TEST_H
#define HEED_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "heed/common.h"
#include "heed/store.h"

static void *heed_test_malloc(void *ud, size_t size)
{
	(void)ud;
	return test_malloc(size ? size : 1);
}

static void *heed_test_realloc(void *ud, void *ptr, size_t size)
{
	(void)ud;
	return test_realloc(ptr, size ? size : 1);
}

static void heed_test_free(void *ud, void *ptr)
{
	(void)ud;
	test_free(ptr);
}

static inline const struct heed_allocator *heed_test_allocator(void)
{
	static const struct heed_allocator a = {
	        heed_test_malloc,
	        heed_test_realloc,
	        heed_test_free,
	        NULL,
	};
	return &a;
}

struct heed_test_fail {
	unsigned long fail_at; /* 0-based index of the allocation that fails */
	unsigned long calls;   /* allocations seen so far */
	struct heed_allocator alloc;
};

static void *heed_test_fail_malloc(void *ud, size_t size)
{
	struct heed_test_fail *f = ud;

	if (f->calls++ == f->fail_at)
		return NULL;
	return test_malloc(size ? size : 1);
}

static void *heed_test_fail_realloc(void *ud, void *ptr, size_t size)
{
	struct heed_test_fail *f = ud;

	if (f->calls++ == f->fail_at)
		return NULL;
	return test_realloc(ptr, size ? size : 1);
}

static inline const struct heed_allocator *
heed_test_failing_allocator(struct heed_test_fail *f)
{
	f->alloc.malloc_fn = heed_test_fail_malloc;
	f->alloc.realloc_fn = heed_test_fail_realloc;
	f->alloc.free_fn = heed_test_free;
	f->alloc.ud = f;
	return &f->alloc;
}

/* A number below n from a seeded LCG (Knuth's MMIX constants): random
 * tests replay the same cases on every run. */
static inline unsigned heed_test_rand(unsigned long *state, unsigned n)
{
	*state = *state * 6364136223846793005UL + 1442695040888963407UL;
	return (unsigned)((*state >> 33) % n);
}

/*
 * The folder a test program keeps its files in (stores, lock files):
 * made by heed_test_make_dir before the group's tests and removed with
 * everything in it by heed_test_remove_dir after them, cmocka's group
 * setup and teardown: cmocka_run_group_tests(tests, heed_test_make_dir,
 * heed_test_remove_dir). heed_test_dir() is its path.
 */
static inline char *heed_test_dir(void)
{
	static char dir[64];

	return dir;
}

static inline int heed_test_make_dir(void **state)
{
	(void)state;
	snprintf(heed_test_dir(), 64, "/tmp/heed-test-XXXXXX");
	return mkdtemp(heed_test_dir()) ? 0 : -1;
}

static inline int heed_test_remove_dir(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", heed_test_dir());
	return system(cmd);
}

/* A store in memory, its allocations checked for leaks like the rest. */
static inline heed_store *heed_test_store_memory(void)
{
	heed_store *s = NULL;

	assert_int_equal(
	        heed_store_open(&s, ":memory:", heed_test_allocator(), NULL),
	        HEED_OK);
	return s;
}

#endif /* HEED_TEST_H */
