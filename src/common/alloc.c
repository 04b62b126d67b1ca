/*
 * The default allocator: the C library's malloc family behind the
 * heed_allocator table, so that every object can take a test allocator
 * instead (cmocka's leak checker, or one that fails the n-th call).
 */
#include <stdlib.h>

#include "common/common-int.h"

static void *std_malloc(void *ud, size_t size)
{
	(void)ud;
	return malloc(size ? size : 1);
}

static void *std_realloc(void *ud, void *ptr, size_t size)
{
	(void)ud;
	return realloc(ptr, size ? size : 1);
}

static void std_free(void *ud, void *ptr)
{
	(void)ud;
	free(ptr);
}

static const struct heed_allocator std_allocator = {
        std_malloc,
        std_realloc,
        std_free,
        NULL,
};

const struct heed_allocator *heed_allocator_default(void)
{
	return &std_allocator;
}

void *heed__malloc(const struct heed_allocator *a, size_t size)
{
	return a->malloc_fn(a->ud, size);
}

void *heed__calloc(const struct heed_allocator *a, size_t n, size_t size)
{
	void *p;

	if (size && n > SIZE_MAX / size)
		return NULL;
	p = a->malloc_fn(a->ud, n * size);
	if (p)
		memset(p, 0, n * size);
	return p;
}

void *heed__realloc(const struct heed_allocator *a, void *ptr, size_t size)
{
	return a->realloc_fn(a->ud, ptr, size);
}

void heed__free(const struct heed_allocator *a, void *ptr)
{
	if (ptr)
		a->free_fn(a->ud, ptr);
}

char *heed__strndup(const struct heed_allocator *a, const char *s, size_t len)
{
	char *copy = heed__malloc(a, len + 1);

	if (!copy)
		return NULL;
	memcpy(copy, s, len);
	copy[len] = '\0';
	return copy;
}
