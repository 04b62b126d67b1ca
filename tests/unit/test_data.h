/*
 * Reading test pages from tests/unit/data/ for the extract tests.
 */
#ifndef HEED_TEST_DATA_H
#define HEED_TEST_DATA_H

#include "heed_test.h"

#define TEST_DATA HEED_SOURCE_ROOT "/tests/unit/data/extract/"

/* The whole of TEST_DATA/name in a malloc'd buffer (NUL-terminated, the
 * NUL not counted in *len); fails the test when it cannot be read. */
static inline char *read_data(const char *name, size_t *len)
{
	char path[512];
	FILE *f;
	char *buf;
	long n;

	snprintf(path, sizeof(path), TEST_DATA "%s", name);
	f = fopen(path, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return buf;
}

#endif /* HEED_TEST_DATA_H */
