/*
 * Counters of `heed serve` and the /metrics page (Prometheus text format
 * 0.0.4). The request threads only add to atomics, so counting costs no
 * lock; /metrics reads them and, from the store, what the crawl did.
 */
#include <inttypes.h>
#include <stdio.h>
#include <sys/stat.h>
#include <time.h>

#include "heed/store_frontier.h"
#include "heed/store_pages.h"
#include "serve/serve-int.h"

/* Upper bounds of the latency buckets, in microseconds: from a quarter
 * of a millisecond, where a cached record page lands, to 10 s. */
static const uint64_t latency_bound_us[HEED__SERVE_LATENCY_BUCKETS] = {
        250,   500,   1000,   2500,   5000,    10000,
        25000, 50000, 100000, 250000, 1000000, 10000000,
};

const char *heed__serve_route_name(enum heed__serve_route_kind kind)
{
	static const char *const names[HEED__ROUTE_KINDS] = {
	        "home", "search", "record", "site", "tag",   "irc",
	        "bots", "api",    "static", "ops",  "other",
	};

	return (unsigned)kind < HEED__ROUTE_KINDS ? names[kind] : "other";
}

void heed__serve_metrics_observe(struct heed__serve_metrics *m,
                                 enum heed__serve_route_kind kind, int status,
                                 uint64_t micros, size_t bytes)
{
	unsigned cls =
	        status >= 100 && status < 600 ? (unsigned)status / 100 : 0;
	size_t b = 0;

	if ((unsigned)kind >= HEED__ROUTE_KINDS)
		kind = HEED__ROUTE_OTHER;
	while (b < HEED__SERVE_LATENCY_BUCKETS && micros > latency_bound_us[b])
		b++;
	atomic_fetch_add(&m->requests[kind][cls], 1);
	atomic_fetch_add(&m->latency[kind][b], 1);
	atomic_fetch_add(&m->latency_sum_us[kind], micros);
	atomic_fetch_add(&m->bytes_sent, bytes);
}

static void metric_head(struct heed_buf *b, const char *name, const char *type,
                        const char *help)
{
	heed__buf_addf(b, "# HELP %s %s\n# TYPE %s %s\n", name, help, name,
	               type);
}

static void requests_metric(struct heed_buf *b,
                            const struct heed__serve_metrics *m)
{
	metric_head(b, "heed_serve_requests_total", "counter",
	            "Requests answered, by route and status class.");
	for (int k = 0; k < HEED__ROUTE_KINDS; k++)
		for (int c = 1; c < 6; c++) {
			uint64_t n = atomic_load(&m->requests[k][c]);
			if (n)
				heed__buf_addf(b,
				               "heed_serve_requests_total{"
				               "route=\"%s\","
				               "code=\"%dxx\"} %" PRIu64 "\n",
				               heed__serve_route_name(k), c, n);
		}
}

static void latency_metric(struct heed_buf *b,
                           const struct heed__serve_metrics *m)
{
	metric_head(b, "heed_serve_request_duration_seconds", "histogram",
	            "Time from the request to its answer, by route.");
	for (int k = 0; k < HEED__ROUTE_KINDS; k++) {
		const char *route = heed__serve_route_name(k);
		uint64_t count = 0;

		for (int i = 0; i <= HEED__SERVE_LATENCY_BUCKETS; i++)
			count += atomic_load(&m->latency[k][i]);
		if (!count)
			continue;
		uint64_t seen = 0;
		for (int i = 0; i < HEED__SERVE_LATENCY_BUCKETS; i++) {
			seen += atomic_load(&m->latency[k][i]);
			heed__buf_addf(
			        b,
			        "heed_serve_request_duration_seconds_bucket"
			        "{route=\"%s\",le=\"%g\"} %" PRIu64 "\n",
			        route, (double)latency_bound_us[i] / 1e6, seen);
		}
		heed__buf_addf(
		        b,
		        "heed_serve_request_duration_seconds_bucket{"
		        "route=\"%s\",le=\"+Inf\"} %" PRIu64 "\n"
		        "heed_serve_request_duration_seconds_sum{route="
		        "\"%s\"} %.6f\n"
		        "heed_serve_request_duration_seconds_count{route="
		        "\"%s\"} %" PRIu64 "\n",
		        route, count, route,
		        (double)atomic_load(&m->latency_sum_us[k]) / 1e6, route,
		        count);
	}
}

/* Bytes of the store's files: the database and its write-ahead log. */
static int64_t store_bytes(const char *path)
{
	struct stat st;
	int64_t total = 0;
	char wal[4096];

	if (!path)
		return -1;
	if (stat(path, &st) == 0)
		total += (int64_t)st.st_size;
	if ((size_t)snprintf(wal, sizeof(wal), "%s-wal", path) < sizeof(wal) &&
	    stat(wal, &st) == 0)
		total += (int64_t)st.st_size;
	return total;
}

/* What the crawl wrote, read from the store at each scrape. */
static void store_metrics(struct heed_buf *b, heed_store *store,
                          const char *path)
{
	int64_t pages = 0, frontier[4] = {0};
	struct heed_crawl_run run;

	metric_head(b, "heed_store_bytes", "gauge",
	            "Size of the store's database and write-ahead log.");
	heed__buf_addf(b, "heed_store_bytes %" PRId64 "\n", store_bytes(path));
	if (heed_store_pages_count(store, NULL, &pages) == HEED_OK) {
		metric_head(b, "heed_store_pages", "gauge",
		            "Metadata records in the store.");
		heed__buf_addf(b, "heed_store_pages %" PRId64 "\n", pages);
	}
	if (heed_store_frontier_counts(store, frontier) == HEED_OK) {
		static const char *const state[4] = {"queued", "in_flight",
		                                     "done", "dropped"};
		metric_head(b, "heed_crawl_frontier_urls", "gauge",
		            "URLs of the crawl's frontier, by state.");
		for (int i = 0; i < 4; i++)
			heed__buf_addf(b,
			               "heed_crawl_frontier_urls{state=\"%s\"} "
			               "%" PRId64 "\n",
			               state[i], frontier[i]);
	}
	if (heed_store_run_last(store, NULL, &run) == HEED_OK) {
		metric_head(b, "heed_crawl_last_run_finished_seconds", "gauge",
		            "When the last finished crawl run ended (Unix "
		            "time).");
		heed__buf_addf(
		        b, "heed_crawl_last_run_finished_seconds %" PRId64 "\n",
		        run.finished_at);
		metric_head(b, "heed_crawl_last_run_pages", "gauge",
		            "Pages stored by the last finished crawl run.");
		heed__buf_addf(b, "heed_crawl_last_run_pages %" PRId64 "\n",
		               run.pages);
		metric_head(b, "heed_crawl_last_run_errors", "gauge",
		            "Errors of the last finished crawl run.");
		heed__buf_addf(b, "heed_crawl_last_run_errors %" PRId64 "\n",
		               run.errors);
	}
}

void heed__serve_metrics_page(const struct heed__serve_request *req,
                              struct heed__serve_response *resp)
{
	const struct heed__serve_metrics *m = req->ctx->metrics;
	struct heed_buf *b = &resp->body;

	requests_metric(b, m);
	latency_metric(b, m);
	metric_head(b, "heed_serve_response_bytes_total", "counter",
	            "Bytes of response bodies sent.");
	heed__buf_addf(b, "heed_serve_response_bytes_total %" PRIu64 "\n",
	               (uint64_t)atomic_load(&m->bytes_sent));
	metric_head(b, "heed_serve_start_time_seconds", "gauge",
	            "When the server started (Unix time).");
	heed__buf_addf(b, "heed_serve_start_time_seconds %" PRId64 "\n",
	               m->started_s);
	store_metrics(b, req->store, req->ctx->store_path);
	resp->status = 200;
	resp->content_type = "text/plain; version=0.0.4; charset=utf-8";
	resp->kind = HEED__ROUTE_OPS;
}
