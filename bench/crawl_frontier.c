/*
 * bench/crawl_frontier: the memory of many queued URLs (issue 8: "with many
 * URLs queued (10 million across 100,000 hosts), the memory used"). Queues
 * URLS URLs over HOSTS hosts in a SQLite store (the frontier lives on
 * disk), then runs the scheduler over all hosts with windows refilled from
 * the store, handing out DISPATCH fetches on a fake clock, and prints the
 * resident memory (VmRSS, VmHWM) after each phase, with the times.
 *
 *   build/bench/bench_crawl_frontier [URLS [HOSTS [DISPATCH]]]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "heed/crawl.h"
#include "heed/store_frontier.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* VmRSS and VmHWM of this process, in MiB. */
static void memory(const char *phase)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long rss = 0, hwm = 0;

	while (f && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "VmRSS:", 6) == 0)
			rss = strtol(line + 6, NULL, 10);
		if (strncmp(line, "VmHWM:", 6) == 0)
			hwm = strtol(line + 6, NULL, 10);
	}
	if (f)
		fclose(f);
	printf("%-28s RSS %7.1f MiB, peak %7.1f MiB\n", phase, rss / 1024.0,
	       hwm / 1024.0);
}

struct refill {
	heed_sched *s;
	int count;
	int64_t last_id;
};

static int push(void *ud, const struct heed_frontier_entry *e)
{
	struct refill *r = ud;
	struct heed_sched_job j = {e->id,    e->url,        e->host,
	                           e->depth, HEED_JOB_PAGE, e->lastmod};

	r->last_id = e->id;
	r->count++;
	return heed_sched_push(r->s, &j, false) != HEED_OK;
}

static heed_status fill(heed_store *st, long urls, long hosts)
{
	char url[128], host[64];

	for (long i = 0; i < urls; i++) {
		struct heed_frontier_entry e = {0,
		                                url,
		                                host,
		                                1,
		                                HEED_FRONTIER_PAGE,
		                                NULL,
		                                HEED_STORE_NO_DATE};
		if (i % 20000 == 0 &&
		    (i ? heed_store_commit(st) : HEED_OK) != HEED_OK)
			return HEED_ESTORE;
		if (i % 20000 == 0 && heed_store_begin(st) != HEED_OK)
			return HEED_ESTORE;
		snprintf(host, sizeof(host), "site%ld.example", i % hosts);
		snprintf(url, sizeof(url),
		         "https://site%ld.example/videos/%ld/a-title-of-some-"
		         "length.html",
		         i % hosts, i / hosts);
		if (heed_store_frontier_add(st, &e, NULL) != HEED_OK)
			return HEED_ESTORE;
	}
	return heed_store_commit(st);
}

int main(int argc, char **argv)
{
	long urls = argc > 1 ? strtol(argv[1], NULL, 10) : 1000000;
	long hosts = argc > 2 ? strtol(argv[2], NULL, 10) : 10000;
	long dispatch = argc > 3 ? strtol(argv[3], NULL, 10) : 200000;
	char path[] = "/tmp/heed-bench-frontier-XXXXXX";
	char db[64];
	struct heed_crawl_limits l;
	struct heed_crawl_politeness none = {0};
	struct heed_sched_stats stats;
	heed_store *st = NULL;
	heed_sched *s = NULL;
	double t0;
	long fetched = 0;
	int64_t clock_ms = 0;

	if (!mkdtemp(path))
		return 1;
	snprintf(db, sizeof(db), "%s/f.db", path);
	memory("start");
	if (heed_store_open(&st, db, NULL, NULL) != HEED_OK)
		return 1;
	t0 = now_s();
	if (fill(st, urls, hosts) != HEED_OK) {
		fprintf(stderr, "store: %s\n", heed_store_errmsg(st));
		return 1;
	}
	printf("queued %ld URLs over %ld hosts in %.1f s (%.0f URLs/s)\n", urls,
	       hosts, now_s() - t0, urls / (now_s() - t0));
	memory("after queueing (on disk)");
	heed_crawl_limits_default(&l);
	l.max_active = 1000000;
	if (heed_sched_new(&s, &l, &none, 0, NULL) != HEED_OK)
		return 1;
	t0 = now_s();
	for (long h = 0; h < hosts; h++) {
		char host[64];
		snprintf(host, sizeof(host), "site%ld.example", h);
		heed_sched_host_more(s, host, 0);
	}
	/* Hand out fetches, host after host; each one done at once, so each
	 * host's window is refilled from the store when it runs dry. */
	while (fetched < dispatch) {
		struct heed_sched_job job;
		const char *host;
		int64_t wait;
		struct refill r = {s, 0, 0};
		heed_sched_verdict v =
		        heed_sched_next(s, clock_ms, &job, &host, &wait);
		if (v == HEED_SCHED_REFILL) {
			heed_store_frontier_queued(st, host, 0, (int)l.window,
			                           push, &r);
			heed_sched_refilled(s, host, r.count == (int)l.window);
			continue;
		}
		if (v != HEED_SCHED_FETCH)
			break;
		heed_store_frontier_set_state(st, job.id, HEED_FRONTIER_DONE,
		                              200);
		heed_sched_done(s, job.host, clock_ms++, 200);
		fetched++;
	}
	heed_sched_stats_get(s, &stats);
	printf("scheduled %ld fetches over %zu hosts in %.1f s, %zu jobs in "
	       "memory\n",
	       fetched, stats.hosts, now_s() - t0, stats.window_jobs);
	memory("with every host's window");
	heed_sched_free(s);
	heed_store_close(st);
	snprintf(db, sizeof(db), "rm -rf %s", path);
	return system(db) == 0 ? 0 : 1;
}
