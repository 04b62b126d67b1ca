/*
 * Benchmark: parsing a generated 500 KiB robots.txt of ACAP definitions and
 * records (bench/acap_gen.h), and deciding on it. Prints the figures that
 * docs/performance.md quotes; asserts nothing.
 *
 *   ninja -C build bench/bench_acap && build/bench/bench_acap
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "acap_gen.h"
#include "heed/acap.h"
#include "heed/robots.h"

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Counts what libheed asks of its allocator. */
static size_t live, peak;

static void *count_malloc(void *ud, size_t n)
{
	size_t *p = malloc(n + sizeof(size_t));

	(void)ud;
	if (!p)
		return NULL;
	*p = n;
	live += n;
	peak = live > peak ? live : peak;
	return p + 1;
}

static void *count_realloc(void *ud, void *ptr, size_t n)
{
	size_t *p = ptr ? (size_t *)ptr - 1 : NULL;
	size_t old = p ? *p : 0;

	(void)ud;
	p = realloc(p, n + sizeof(size_t));
	if (!p)
		return NULL;
	*p = n;
	live += n - old;
	peak = live > peak ? live : peak;
	return p + 1;
}

static void count_free(void *ud, void *ptr)
{
	(void)ud;
	if (!ptr)
		return;
	live -= ((size_t *)ptr)[-1];
	free((size_t *)ptr - 1);
}

int main(void)
{
	const struct heed_allocator counting = {count_malloc, count_realloc,
	                                        count_free, NULL};
	const int rounds = 20, decisions = 2000;
	size_t len;
	unsigned records;
	char *txt = acap_gen(HEED_ROBOTS_PARSE_LIMIT_BYTES, &len, &records);
	heed_acap *r = NULL;
	double t0, parse_ms, decide_us;

	if (!txt)
		return 1;
	t0 = now_ms();
	for (int i = 0; i < rounds; i++) {
		heed_acap_free(r);
		r = NULL;
		if (heed_acap_parse(&r, &counting, txt, len) != HEED_OK)
			return 1;
	}
	parse_ms = (now_ms() - t0) / rounds;
	t0 = now_ms();
	for (int i = 0; i < decisions; i++) {
		struct heed_acap_decision *d;
		char bot[32], path[48];

		snprintf(bot, sizeof(bot), "bot%d", i % (int)records);
		snprintf(path, sizeof(path), "/d%d/a/page", i % 500);
		if (heed_acap_decide(r, bot, NULL, 0, HEED_ACAP_PRESENT_SNIPPET,
		                     path, 1253836800, NULL, &d) != HEED_OK)
			return 1;
		heed_acap_decision_free(d);
	}
	decide_us = (now_ms() - t0) * 1e3 / decisions;
	printf("acap parse: %zu bytes, %u records, %zu fields: %.2f ms per "
	       "parse, peak %zu bytes allocated\n",
	       len, records, heed_acap_field_count(r), parse_ms, peak);
	printf("acap decide: %.1f us per decision on that file\n", decide_us);
	heed_acap_free(r);
	free(txt);
	return 0;
}
