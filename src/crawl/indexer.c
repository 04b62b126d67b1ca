/*
 * The search index's catch-up (heed_store_search_catch_up), by the crawl
 * between its batches and in its spare time (batch.c), or beside it. A
 * catch-up is one statement that indexes up to 2,000 marked pages on the
 * server, about 130 ms of a crawl on PostgreSQL every CRAWL_INDEX_MS, a
 * sixth of the crawl's thread's time, during which no request was handed
 * out and no answer handled. Where the store's writers run together
 * (PostgreSQL), this thread does the same work over its own handle: the
 * crawl's thread never waits for it, and its batches and the catch-ups
 * lock different rows (the pages' marks are taken with SKIP LOCKED, as
 * every worker of a fleet takes them). A failure costs nothing but time:
 * the pages stay marked, and the crawl's end catches up with them all.
 */
#include <pthread.h>
#include <signal.h>
#include <time.h>

#include "common/common-int.h"
#include "crawl/indexer-int.h"
#include "heed/store_search.h"

struct heed__indexer {
	heed_store *store; /* the indexer's own handle */
	struct heed_logger log;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake; /* quit was set */
	bool quit;           /* guarded by lock */
};

void heed__index_catch_up(heed_store *store, const struct heed_logger *log,
                          int64_t max_pages, const char *where)
{
	int64_t n = 0;

	if (heed_store_search_catch_up(store, max_pages, &n) != HEED_OK)
		heed_log(log, HEED_LOG_WARN, "crawl",
		         "store: catching the search index up%s: %s (the "
		         "pages stay marked, for the next time)",
		         where, heed_store_errmsg(store));
	else if (n)
		heed_log(log, HEED_LOG_DEBUG, "crawl",
		         "search index caught up with %lld pages%s",
		         (long long)n, where);
}

/* When the next catch-up is due: CRAWL_INDEX_MS from now, on the clock
 * pthread_cond_timedwait reads. */
static struct timespec next_due(void)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	t.tv_sec += CRAWL_INDEX_MS / 1000;
	t.tv_nsec += (long)(CRAWL_INDEX_MS % 1000) * 1000000L;
	if (t.tv_nsec >= 1000000000L) {
		t.tv_sec++;
		t.tv_nsec -= 1000000000L;
	}
	return t;
}

static void *indexer_main(void *ud)
{
	struct heed__indexer *ix = ud;

	pthread_mutex_lock(&ix->lock);
	while (!ix->quit) {
		struct timespec due = next_due();
		/* Woken early only to quit; a spurious wake-up or the
		 * clock set back costs one early catch-up at most. */
		pthread_cond_timedwait(&ix->wake, &ix->lock, &due);
		if (ix->quit)
			break;
		pthread_mutex_unlock(&ix->lock);
		heed__index_catch_up(ix->store, &ix->log, CRAWL_INDEX_PAGES,
		                     " beside the crawl");
		pthread_mutex_lock(&ix->lock);
	}
	pthread_mutex_unlock(&ix->lock);
	return NULL;
}

static void indexer_free(struct heed__indexer *ix)
{
	pthread_cond_destroy(&ix->wake);
	pthread_mutex_destroy(&ix->lock);
	heed__free(heed_allocator_default(), ix);
}

heed_status heed__indexer_start(struct heed__indexer **out, heed_store *store,
                                const struct heed_logger *log)
{
	struct heed__indexer *ix;
	sigset_t all, old;
	heed_status rc;
	int err;

	*out = NULL;
	ix = heed__calloc(heed_allocator_default(), 1, sizeof(*ix));
	if (!ix)
		return HEED_ENOMEM;
	if (log)
		ix->log = *log;
	if (pthread_mutex_init(&ix->lock, NULL) != 0) {
		heed__free(heed_allocator_default(), ix);
		return HEED_ENOMEM;
	}
	if (pthread_cond_init(&ix->wake, NULL) != 0) {
		pthread_mutex_destroy(&ix->lock);
		heed__free(heed_allocator_default(), ix);
		return HEED_ENOMEM;
	}
	if ((rc = heed_store_open_beside(&ix->store, store, NULL)) != HEED_OK) {
		indexer_free(ix);
		return rc;
	}
	/* Signals (a stop) are the crawl's thread's to hear. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(&ix->thread, NULL, indexer_main, ix);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err != 0) {
		heed_store_close(ix->store);
		indexer_free(ix);
		return HEED_ENOMEM;
	}
	*out = ix;
	return HEED_OK;
}

void heed__indexer_stop(struct heed__indexer *ix)
{
	if (!ix)
		return;
	pthread_mutex_lock(&ix->lock);
	ix->quit = true;
	pthread_cond_signal(&ix->wake);
	pthread_mutex_unlock(&ix->lock);
	pthread_join(ix->thread, NULL);
	heed_store_close(ix->store);
	indexer_free(ix);
}
