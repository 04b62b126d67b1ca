/*
 * heed/crawl_engine.h: `heed crawl`'s engine (issue 8), the I/O shell around
 * the scheduler of heed/crawl.h: DNS (heed/dns.h), fetches (heed/net.h),
 * site qualification (heed/qualify.h), one politeness budget
 * (heed/politeness.h), extraction (heed/extract.h), robots.txt and ACAP
 * decisions, and the store's pages and frontier areas.
 *
 * Default mode follows public links from the seeds within the limits;
 * incremental mode reads sitemaps and feeds and fetches only entries that
 * are new or changed (lastmod, feed dates, conditional GET). Both share the
 * politeness budget and the stored site state. A run is resumable: a crash
 * or a stop leaves the run open in the store and the next call resumes it.
 */
#ifndef HEED_CRAWL_ENGINE_H
#define HEED_CRAWL_ENGINE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "heed/crawl.h"
#include "heed/dns.h"
#include "heed/net.h"
#include "heed/politeness.h"
#include "heed/sitepolicy.h"
#include "heed/store.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum heed_crawl_mode {
	HEED_CRAWL_FULL = 0,    /* follow public links within the limits */
	HEED_CRAWL_INCREMENTAL, /* sitemaps and feeds: new and changed only */
} heed_crawl_mode;

/* "full", "incremental". Static. */
const char *heed_crawl_mode_name(heed_crawl_mode mode);

/* Counters of a run, for the progress line and the summary. */
struct heed_crawl_progress {
	int64_t elapsed_ms;
	int64_t requests;      /* HTTP requests sent (robots.txt included) */
	int64_t pages;         /* page records stored or updated */
	int64_t unchanged;     /* 304s and entries unchanged by their date */
	int64_t not_indexed;   /* fetched, not stored: noindex, ACAP index */
	int64_t refused;       /* not fetched: robots.txt or ACAP */
	int64_t skipped;       /* not queued: limits, media, out of scope */
	int64_t media_aborted; /* responses dropped after their headers */
	int64_t errors;        /* network errors and unusable answers */
	int64_t taken_down;    /* records deleted by an ACAP take-down */
	size_t sites, sites_active, sites_waiting, sites_done;
	size_t sites_disqualified;
	size_t sites_without_sources; /* incremental: no sitemap or feed */
	int64_t queued;               /* URLs waiting (memory and store) */
};

/* Called about every progress_interval_ms and once at the end. */
typedef void heed_crawl_progress_fn(void *ud,
                                    const struct heed_crawl_progress *p);

struct heed_crawl_options {
	heed_crawl_mode mode;
	const char *const *seeds; /* start URLs; their hosts are the scope */
	size_t seed_count;
	const char *user_agent;  /* the full User-Agent header */
	const char *agent_token; /* robots.txt/ACAP crawler name ("heed") */
	struct heed_crawl_limits limits;
	struct heed_polite_options polite;
	struct heed_site_options site;
	struct heed_net_options net; /* user_agent is set from the above */
	struct heed_dns_options dns;
	bool restart; /* start afresh even if a run is open */
	int64_t progress_interval_ms;
	heed_crawl_progress_fn *on_progress; /* may be NULL */
	void *progress_ud;
	volatile sig_atomic_t *stop; /* non-zero: stop soon (may be NULL) */
	const struct heed_logger *logger; /* may be NULL */
};

/* Fills opt with the defaults of every part (modes, limits, delays). */
void heed_crawl_options_default(struct heed_crawl_options *opt);

/*
 * Runs a crawl into store until nothing is left, the run time is over or
 * *opt->stop is set; then fills *summary (may be NULL). Resumes the open
 * run of the store unless opt->restart. Returns HEED_OK (also when sites
 * failed: see the summary), HEED_EINVAL (no seeds and nothing to resume, a
 * bad seed URL: diag says which), HEED_ESTORE, HEED_ENOMEM, HEED_ECONFIG
 * (DNS or HTTP could not start).
 */
heed_status heed_crawl_run(heed_store *store,
                           const struct heed_crawl_options *opt,
                           struct heed_crawl_progress *summary,
                           const struct heed_allocator *alloc,
                           struct heed_diag *diag);

#ifdef __cplusplus
}
#endif

#endif /* HEED_CRAWL_ENGINE_H */
