/*
 * bench_site: the costs of site qualification's pure parts, which run for
 * every host a crawl meets:
 *   - lifecycle runs per second (heed_site_new, START ... DONE, free) for
 *     the common path (3 addresses: 503, reset, 200 with rules);
 *   - politeness check+begin+end per second and bytes per host, with
 *     1,000,000 hosts in the table;
 *   - the body verdict (heed_site_read_robots: sniffing plus the RFC 9309
 *     parser) in MB/s on a 500 KiB robots.txt;
 *   - Retry-After parses per second (an HTTP date).
 *
 *   ninja -C build bench/bench_site && ./build/bench/bench_site
 *
 * Each figure is the best of REPEATS runs, timed in thread CPU time.
 * Figures go to docs/performance.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "heed/politeness.h"
#include "heed/sitepolicy.h"

#define REPEATS 5
#define HOSTS   1000000

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static long rss_kib(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

/* One qualification: 503 on the first address, a reset on the second,
 * 200 with rules on the third. */
static int one_run(const struct heed_site_options *opt)
{
	static const struct heed_site_event evs[] = {
	        {.kind = HEED_SITE_EV_START},
	        {.kind = HEED_SITE_EV_RESOLVED, .address_count = 3},
	        {.kind = HEED_SITE_EV_STATUS, .status = 503},
	        {.kind = HEED_SITE_EV_ATTEMPT_FAILED, .detail = "reset"},
	        {.kind = HEED_SITE_EV_STATUS, .status = 200},
	        {.kind = HEED_SITE_EV_BODY_COMPLETE},
	        {.kind = HEED_SITE_EV_PARSED},
	};
	struct heed_site_record rec = {0};
	struct heed_site_clock now = {1700000000, 0};
	struct heed_site_action a;
	heed_site *s;
	size_t i;

	if (heed_site_new(&s, "example.org", &rec, opt, NULL, NULL) != HEED_OK)
		return 0;
	for (i = 0; i < sizeof(evs) / sizeof(evs[0]); i++)
		heed_site_step(s, &evs[i], &now, &a);
	i = a.kind == HEED_SITE_DO_DONE;
	heed_site_free(s);
	return (int)i;
}

static void bench_lifecycle(void)
{
	struct heed_site_options opt;
	double best = 0;
	int r, n;

	heed_site_options_default(&opt);
	for (r = 0; r < REPEATS; r++) {
		double t0 = cpu_now(), dt;
		int done = 0;
		for (n = 0; n < 200000; n++)
			done += one_run(&opt);
		dt = cpu_now() - t0;
		if (done != n)
			abort();
		if (n / dt > best)
			best = n / dt;
	}
	printf("lifecycle runs/s (3 addresses, 503, reset, 200): %.0f\n", best);
}

static void bench_politeness(void)
{
	struct heed_polite_options opt;
	struct heed_polite_result ok = {true, 200, false, 0};
	heed_polite *p;
	char host[32], addr[32];
	long before = rss_kib();
	double best = 0;
	int r, i;

	heed_polite_options_default(&opt);
	if (heed_polite_new(&p, &opt, NULL) != HEED_OK)
		abort();
	for (r = 0; r < REPEATS; r++) {
		double t0 = cpu_now(), dt;
		for (i = 0; i < HOSTS; i++) {
			struct heed_polite_clock now = {1700000000000,
			                                (int64_t)r * 2000 + 1};
			snprintf(host, sizeof(host), "h%d.example", i);
			snprintf(addr, sizeof(addr), "10.%d.%d.%d",
			         (i >> 16) & 255, (i >> 8) & 255, i & 255);
			if (heed_polite_check(p, host, addr, &now, NULL) !=
			            HEED_POLITE_READY ||
			    heed_polite_begin(p, host, addr, &now, NULL) !=
			            HEED_POLITE_READY)
				abort();
			heed_polite_end(p, host, addr, &now, &ok);
		}
		dt = cpu_now() - t0;
		if (HOSTS / dt > best)
			best = HOSTS / dt;
	}
	printf("politeness check+begin+end/s (%d hosts): %.0f\n", HOSTS, best);
	printf("politeness memory: %.0f bytes per host and address\n",
	       (double)(rss_kib() - before) * 1024 / HOSTS);
	heed_polite_free(p);
}

static void bench_read_robots(void)
{
	size_t cap = 500 * 1024, len = 0;
	char *body = malloc(cap);
	double best = 0;
	int r, i;

	if (!body)
		abort();
	len += (size_t)snprintf(body, cap, "User-agent: *\n");
	for (i = 0; len + 64 < cap; i++)
		len += (size_t)snprintf(body + len, cap - len,
		                        "%s: /section-%d/*/page-%d.html$\n",
		                        i % 3 ? "Disallow" : "Allow", i % 500,
		                        i);
	for (r = 0; r < REPEATS; r++) {
		struct heed_site_robots out;
		double t0 = cpu_now(), dt;
		for (i = 0; i < 20; i++)
			if (heed_site_read_robots(body, len, "text/plain",
			                          "heed", NULL,
			                          &out) != HEED_OK ||
			    out.verdict != HEED_SITE_BODY_RULES)
				abort();
		dt = cpu_now() - t0;
		if (20.0 * (double)len / dt / 1e6 > best)
			best = 20.0 * (double)len / dt / 1e6;
	}
	printf("body verdict + parse MB/s (%zu bytes, rules): %.0f\n", len,
	       best);
	free(body);
}

static void bench_retry_after(void)
{
	static const char date[] = "Sun, 06 Nov 1994 08:49:37 GMT";
	double best = 0;
	int64_t d = 0, sum = 0;
	int r, i;

	for (r = 0; r < REPEATS; r++) {
		double t0 = cpu_now(), dt;
		for (i = 0; i < 2000000; i++) {
			heed_retry_after_parse(date, sizeof(date) - 1, i, &d);
			sum += d;
		}
		dt = cpu_now() - t0;
		if (2e6 / dt > best)
			best = 2e6 / dt;
	}
	printf("Retry-After (HTTP date) parses/s: %.0f (%lld)\n", best,
	       (long long)(sum & 1));
}

int main(void)
{
	bench_lifecycle();
	bench_politeness();
	bench_read_robots();
	bench_retry_after();
	return 0;
}
