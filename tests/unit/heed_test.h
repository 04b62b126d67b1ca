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

#endif /* HEED_TEST_H */
