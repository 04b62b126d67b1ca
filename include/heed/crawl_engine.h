/*
 * heed/crawl_engine.h: `heed crawl`'s engine, the I/O shell around the
 * crawl controller of heed/crawl.h: it takes the store's crawl lock (one
 * crawl per store), reads the clocks, and carries the controller's actions
 * out over DNS (heed/dns.h) and HTTP (heed/net.h) in one poll() loop. It
 * decides nothing itself.
 *
 * Default mode follows public links from the seeds within the limits;
 * incremental mode reads sitemaps and feeds and fetches only entries that
 * are new or changed; qualify mode runs only the robots.txt lifecycle of
 * the seeds' sites. All share the politeness budget and the stored site
 * state. A run is resumable: a crash or a stop leaves the run open in the
 * store and the next call resumes it.
 */
#ifndef HEED_CRAWL_ENGINE_H
#define HEED_CRAWL_ENGINE_H

#include <signal.h>

#include "heed/crawl.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Runs a crawl into store until nothing is left, the run time is over or
 * *stop is set (may be NULL); then fills *summary (may be NULL). Resumes
 * the open run of the store unless opt->restart. Returns HEED_OK (also
 * when sites failed: see the summary), HEED_EBUSY (another process is
 * crawling into this store: diag names it), HEED_EINVAL (no seeds and
 * nothing to resume, a bad seed URL: diag says which), HEED_ESTORE,
 * HEED_ENOMEM, HEED_ECONFIG (DNS or HTTP could not start).
 */
heed_status
heed_crawl_run(heed_store *store, const struct heed_crawl_options *opt,
               volatile sig_atomic_t *stop, struct heed_crawl_progress *summary,
               const struct heed_allocator *alloc, struct heed_diag *diag);

#ifdef __cplusplus
}
#endif

#endif /* HEED_CRAWL_ENGINE_H */
