/*
 * bench/crawl_frontier: the memory of many queued URLs ("with many
 * URLs queued (10 million across 100,000 hosts), the memory used"). Queues
 * URLS URLs over HOSTS hosts in a SQLite store (the frontier lives on
 * disk), then runs the lanes scheduler of the crawl controller (one lane
 * per site) over all sites with windows refilled from the store, handing
 * out DISPATCH fetches on a fake clock, and prints the resident memory
 * (VmRSS, VmHWM) after each phase, with the times. A lane here is bare;
 * the controller's site records (addresses, rules) come on top.
 *
 *   build/bench/bench_crawl_frontier [URLS [HOSTS [DISPATCH]]]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "crawl/crawl-int.h"
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
	struct heed__sched *s;
	struct heed__lane *lane;
	int count;
	int64_t last_id;
};

static int push(void *ud, const struct heed_frontier_entry *e)
{
	struct refill *r = ud;
	struct heed__job j = {e->id,      e->url, e->depth, JOB_PAGE,
	                      e->lastmod, 0,      0};

	r->last_id = e->id;
	r->count++;
	return heed__sched_push(r->s, r->lane, &j, false, 0) != HEED_OK;
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
		                                HEED_STORE_NO_DATE,
		                                0};
		if (i % 20000 == 0 &&
		    (i ? heed_store_commit(st) : HEED_OK) != HEED_OK)
			return HEED_ESTORE;
		if (i % 20000 == 0 && heed_store_begin(st) != HEED_OK)
			return HEED_ESTORE;
		snprintf(host, sizeof(host), "https://site%ld.example",
		         i % hosts);
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
	struct heed__sched s;
	struct heed__lane *lanes;
	heed_store *st = NULL;
	double t0;
	long fetched = 0;

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
	lanes = calloc((size_t)hosts, sizeof(*lanes));
	if (!lanes)
		return 1;
	heed__sched_init(&s, heed_allocator_default(), 1000000, 0);
	t0 = now_s();
	for (long h = 0; h < hosts; h++) {
		heed__lane_init(&lanes[h]);
		heed__sched_more(&s, &lanes[h], 0, 0);
	}
	/* Hand out fetches, site after site; each one done at once, so each
	 * site's window is refilled from the store when it runs dry. */
	while (fetched < dispatch) {
		struct heed__lane *lane;
		int64_t wait;
		char site[64];
		struct refill r = {&s, NULL, 0, 0};
		enum heed__sched_verdict v =
		        heed__sched_next(&s, 0, &lane, &wait);
		if (v == SCHED_REFILL || v == SCHED_CANDIDATE)
			snprintf(site, sizeof(site), "https://site%ld.example",
			         (long)(lane - lanes));
		if (v == SCHED_REFILL) {
			r.lane = lane;
			heed_store_frontier_queued(st, site, 0, (int)l.window,
			                           push, &r);
			heed__sched_refilled(&s, lane, r.count == (int)l.window,
			                     0);
			continue;
		}
		if (v != SCHED_CANDIDATE)
			break;
		heed__sched_start(&s, lane);
		heed_store_frontier_set_state(st, site, lane->current->job.id,
		                              HEED_FRONTIER_DONE, 200);
		heed__sched_done(&s, lane, 0);
		fetched++;
	}
	printf("scheduled %ld fetches over %ld sites in %.1f s, %zu jobs in "
	       "memory\n",
	       fetched, hosts, now_s() - t0, s.window_jobs);
	memory("with every site's window");
	for (long h = 0; h < hosts; h++)
		heed__lane_free(&s, &lanes[h]);
	heed__sched_free(&s);
	free(lanes);
	heed_store_close(st);
	snprintf(db, sizeof(db), "rm -rf %s", path);
	return system(db) == 0 ? 0 : 1;
}
