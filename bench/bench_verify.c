/*
 * Benchmark for src/verify's pure parts and cache: how long parsing a
 * published ranges file takes, how fast an address is matched against it,
 * the suffix rule, the result cache under churn, and rendering the crawler
 * page. Prints one line per figure; run `build/bench/bench_verify`.
 */
#include <stdio.h>
#include <sys/socket.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "heed/verify.h"
#include "verify/verify-int.h"

#define PREFIXES 1000

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A ranges file of PREFIXES /24s and /64s, like a big crawler's. */
static char *make_ranges(size_t *len)
{
	size_t cap = PREFIXES * 48 + 64, used = 0, i;
	char *json = malloc(cap);

	if (!json)
		exit(1);
	used += (size_t)snprintf(json, cap,
	                         "{\"creationTime\":\"x\",\"prefixes\":[");
	for (i = 0; i < PREFIXES; i++)
		used += (size_t)snprintf(
		        json + used, cap - used,
		        i % 2 ? "%s{\"ipv6Prefix\":\"2001:db8:%zx::/64\"}"
		              : "%s{\"ipv4Prefix\":\"10.%zu.%zu.0/24\"}",
		        i ? "," : "", i % 2 ? i : (i / 256) % 256,
		        i % 2 ? 0 : i % 256);
	used += (size_t)snprintf(json + used, cap - used, "]}");
	*len = used;
	return json;
}

static void bench_ranges(void)
{
	size_t len, i, hits = 0, rounds = 200, lookups = 200000;
	char *json = make_ranges(&len);
	struct heed_verify_addr a;
	heed_ranges *r = NULL;
	double t;

	t = now_s();
	for (i = 0; i < rounds; i++) {
		heed_ranges_free(r);
		if (heed_ranges_parse(&r, json, len, NULL, NULL) != HEED_OK)
			exit(1);
	}
	t = now_s() - t;
	printf("ranges parse: %zu prefixes (%zu bytes) in %.1f us\n",
	       heed_ranges_count(r), len, t / (double)rounds * 1e6);
	/* Worst case: an address in no prefix scans them all. */
	heed_verify_addr_parse("192.0.2.1", &a);
	t = now_s();
	for (i = 0; i < lookups; i++)
		hits += heed_ranges_match(r, &a) != NULL;
	t = now_s() - t;
	printf("ranges match (miss, %d prefixes): %.0f ns per address%s\n",
	       PREFIXES, t / (double)lookups * 1e9, hits ? " (bug)" : "");
	heed_ranges_free(r);
	free(json);
}

static void bench_suffix(void)
{
	size_t i, n = 2000000, hits = 0;
	double t = now_s();

	for (i = 0; i < n; i++)
		hits += heed_verify_name_under(
		        i % 2 ? "crawl-66-249-66-1.googlebot.com."
		              : "crawl-66-249-66-1.evilgooglebot.com",
		        "googlebot.com");
	t = now_s() - t;
	printf("suffix rule: %.0f ns per name (%zu matched)\n",
	       t / (double)n * 1e9, hits);
}

static void bench_cache(void)
{
	struct heed__verify_cache c;
	size_t i, n = 1000000, cap = 4096, hits = 0;
	uint32_t x = 1;
	double t;

	if (heed__verify_cache_init(&c, heed_allocator_default(), cap) !=
	    HEED_OK)
		exit(1);
	t = now_s();
	for (i = 0; i < n; i++) {
		struct heed_verify_addr a = {AF_INET, {10, 0, 0, 0}};
		struct heed_arena ar;
		struct heed_verify_result *res;
		/* 8,192 distinct addresses, drawn at random, through a
		 * 4,096-entry cache. */
		x = x * 1664525u + 1013904223u;
		a.bytes[2] = (uint8_t)((x >> 16) % 32);
		a.bytes[3] = (uint8_t)(x >> 8);
		if (heed__verify_cache_get(&c, &a, 0)) {
			hits++;
			continue;
		}
		heed__arena_init(&ar, heed_allocator_default());
		res = heed__arena_alloc(&ar, sizeof(*res));
		if (!res)
			exit(1);
		memset(res, 0, sizeof(*res));
		heed__verify_cache_put(&c, &a, 100, &ar, res);
	}
	t = now_s() - t;
	printf("cache: %.0f ns per lookup-or-insert, %zu entries, %.0f%% "
	       "hits\n",
	       t / (double)n * 1e9, c.size, 100.0 * (double)hits / (double)n);
	heed__verify_cache_free(&c);
}

static void bench_page(void)
{
	struct heed_config cfg;
	size_t i, n = 2000, len = 0;
	char *page;
	double t;

	if (heed_config_init(&cfg) != HEED_OK ||
	    heed_config_set(&cfg, "verify.domain", "crawler.example.org",
	                    NULL) != HEED_OK)
		exit(1);
	t = now_s();
	for (i = 0; i < n; i++) {
		if (heed_verify_page_render(&cfg, HEED_VERIFY_PAGE_HTML, NULL,
		                            &page, &len) != HEED_OK)
			exit(1);
		free(page);
	}
	t = now_s() - t;
	printf("page render (HTML, %zu bytes): %.1f us\n", len,
	       t / (double)n * 1e6);
	heed_config_free(&cfg);
}

int main(void)
{
	bench_ranges();
	bench_suffix();
	bench_cache();
	bench_page();
	return 0;
}
