/*
 * The search index's catch-up (indexer.c): by the crawl between its
 * batches (batch.c), or beside it, by a thread of the engine's with a
 * store handle of its own that catches up every CRAWL_INDEX_MS while the
 * crawl's thread goes on, for a store whose writers run together
 * (heed_store_open_beside). The pace is written here, free of the
 * controller's internals, whose names a thread's headers would clash
 * with.
 */
#ifndef HEED_CRAWL_INDEXER_INT_H
#define HEED_CRAWL_INDEXER_INT_H

#include "heed/common.h"
#include "heed/store.h"

/* How often the search index catches up with the pages the batches
 * wrote (heed_store_search_catch_up), and the size of the sets whose cost
 * is paid per set rather than per page (2,000 pages at a time cost a
 * fifth of what indexing each page as it was written did). On the crawl's
 * thread, a catch-up waits for spare time (crawl-int.h, CRAWL_SPARE_MS)
 * up to twice this: the most a search through heed serve lags a busy
 * crawl. */
#define CRAWL_INDEX_MS 2000
/* The most one of those catch-ups takes on, so that on a store many
 * workers write it returns to the crawl even if they mark pages faster
 * than it indexes them; the end of the run takes on everything. */
#define CRAWL_INDEX_PAGES 20000

/* Catches store's search index up with at most max_pages marked pages
 * (0: all), in transactions of its own, and logs to log (may be NULL)
 * what it did, where saying from where ("", " beside the crawl"). A
 * failure is only logged: the pages stay marked for the next time. */
void heed__index_catch_up(heed_store *store, const struct heed_logger *log,
                          int64_t max_pages, const char *where);

struct heed__indexer;

/*
 * Opens a second handle on store and starts the thread. log (may be NULL)
 * is copied; its function is called from the thread. Returns HEED_OK,
 * HEED_ENOTSUP (the store takes one writer at a time: the crawl catches
 * the index up itself), or the store's or the thread's failure
 * (HEED_ESTORE, HEED_ENOMEM); *out is NULL unless HEED_OK. Stop it with
 * heed__indexer_stop.
 */
heed_status heed__indexer_start(struct heed__indexer **out, heed_store *store,
                                const struct heed_logger *log);

/* Stops the thread (a catch-up under way is finished first), closes the
 * handle and frees ix. NULL does nothing. */
void heed__indexer_stop(struct heed__indexer *ix);

#endif
