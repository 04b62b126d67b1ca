/*
 * heed/store_frontier.h: the "frontier" area of the store, the crawl's URLs
 * to fetch, the seen set and the crawl runs ("frontier and seen-URL
 * set on disk in the store, so memory stays bounded on long crawls and
 * kill -9 at any moment loses no stored page and re-fetches at most the
 * pages that were in flight; a restarted crawl resumes").
 *
 * Every URL a run discovered is one row, unique by URL: the table is both
 * the queue and the seen set. A row is queued, then in flight while heed
 * fetches it, then done (or dropped when a site limit ended its site's
 * crawl); a transient failure puts it back in the queue for a later try in
 * the same run (heed_store_frontier_retry). Rows are grouped by site, the
 * origin "scheme://host[:port]" the crawl engine schedules by.
 *
 * The crawl engine marks a row done in the same transaction that stores
 * the page, so after a crash a row is either done with its page stored or
 * still to fetch; heed_store_frontier_recover() puts the rows that were in
 * flight back in the queue.
 */
#ifndef HEED_STORE_FRONTIER_H
#define HEED_STORE_FRONTIER_H

#include <stdbool.h>
#include <stdint.h>

#include "heed/store.h"
#include "heed/store_pages.h" /* HEED_STORE_NO_DATE */

#ifdef __cplusplus
extern "C" {
#endif

typedef enum heed_frontier_state {
	HEED_FRONTIER_QUEUED = 0,    /* waiting for its site's turn */
	HEED_FRONTIER_IN_FLIGHT = 1, /* being fetched */
	HEED_FRONTIER_DONE = 2,      /* fetched (or refused) and recorded */
	HEED_FRONTIER_DROPPED = 3,   /* not fetched: a site limit was reached */
} heed_frontier_state;

/* "queued", "in-flight", "done", "dropped". Static. */
const char *heed_frontier_state_name(heed_frontier_state state);

typedef enum heed_frontier_kind {
	HEED_FRONTIER_PAGE = 0,    /* an HTML page: a record is stored */
	HEED_FRONTIER_SITEMAP = 1, /* a sitemap or sitemap index */
	HEED_FRONTIER_FEED = 2,    /* an RSS or Atom feed */
	HEED_FRONTIER_OEMBED = 3,  /* a page's oEmbed endpoint: its answer
	                              fills the record of discovered_from */
} heed_frontier_kind;

/* "page", "sitemap", "feed", "oembed". Static. */
const char *heed_frontier_kind_name(heed_frontier_kind kind);

/* One URL of the frontier. Strings handed to a callback live only during
 * the callback. */
struct heed_frontier_entry {
	int64_t id; /* assigned by the store, increasing */
	const char *url;
	/* The site (origin) "scheme://host[:port]" as the crawl engine names
	 * it ("https://b.example", "http://a.example:8080"); the store keeps
	 * what the caller passes and never computes it. */
	const char *host;
	int depth; /* links followed from a seed */
	heed_frontier_kind kind;
	const char *discovered_from; /* the page that linked here, or NULL */
	int64_t lastmod; /* sitemap/feed date, Unix s; HEED_STORE_NO_DATE */
	int tries;       /* attempts that ended in a transient failure */
};

/*
 * Adds e unless its URL was seen before in this run (any state): *added
 * (may be NULL) says which. e->id and e->tries are ignored: a new row
 * starts with no tries. Returns HEED_OK, HEED_EINVAL (no url or host) or
 * HEED_ESTORE.
 */
heed_status heed_store_frontier_add(heed_store *store,
                                    const struct heed_frontier_entry *e,
                                    bool *added);

/*
 * Adds e as heed_store_frontier_add does, without waiting to learn whether
 * it was new: inside a batch a PostgreSQL store holds the row and sends a
 * batch's new URLs together, as one statement. Whether it was new is told
 * later, by heed_store_frontier_added. Returns HEED_OK, HEED_EINVAL (no url
 * or host), HEED_ENOMEM or HEED_ESTORE (a failure of rows sent with it).
 */
heed_status heed_store_frontier_add_later(heed_store *store,
                                          const struct heed_frontier_entry *e);

typedef void heed_store_added_fn(void *ud, const char *host);

/*
 * Sends the URLs heed_store_frontier_add_later holds, then calls fn with
 * the host (the entry's site) of each URL it added since the last call that
 * was new, in the order they were added; a URL seen before in the run is
 * not told. Those a rolled-back batch added are not told: their rows are
 * gone. fn may call the store. Returns HEED_OK, or the failure of sending
 * (nothing told).
 */
heed_status heed_store_frontier_added(heed_store *store,
                                      heed_store_added_fn *fn, void *ud);

/*
 * Puts url back in the queue even if it was done (an ACAP re-crawl request,
 * a redirect to a seen URL does not): the row gets a new, larger id so
 * windows loaded with heed_store_frontier_queued see it, and no tries.
 */
heed_status heed_store_frontier_requeue(heed_store *store,
                                        const struct heed_frontier_entry *e);

typedef int heed_store_frontier_fn(void *ud,
                                   const struct heed_frontier_entry *e);

/*
 * Calls fn for at most max queued entries of the site (origin) host whose
 * id is above after_id, oldest first: the window the scheduler keeps in
 * memory. Entries carry their tries.
 */
heed_status heed_store_frontier_queued(heed_store *store, const char *host,
                                       int64_t after_id, int max,
                                       heed_store_frontier_fn *fn, void *ud);

/* An entry of the i-th site of a list; non-zero stops. */
typedef int heed_store_frontier_window_fn(void *ud, size_t i,
                                          const struct heed_frontier_entry *e);

/*
 * Each of n sites' next window (heed_store_frontier_queued from after_ids[i],
 * or from the first id when after_ids is NULL) in one call: fn gets the
 * entries of hosts[0] oldest first, then those of hosts[1], and so on. One
 * statement for them all on PostgreSQL, so that a crawl refilling the
 * windows of many sites waits on one answer, not one a site. HEED_EINVAL
 * (a host NULL or with a newline), HEED_ENOMEM, HEED_ESTORE.
 */
heed_status
heed_store_frontier_windows(heed_store *store, const char *const *hosts,
                            const int64_t *after_ids, size_t n, int max,
                            heed_store_frontier_window_fn *fn, void *ud);

/* Sets the state of entry id of the site host (the entry's host, as
 * added: on PostgreSQL it names the partition the row is in); outcome is
 * the HTTP status, or a negative heed_status for a failure or refusal, or
 * 0. Returns HEED_OK (also when no entry of host has that id),
 * HEED_EINVAL (no host) or HEED_ESTORE. */
heed_status heed_store_frontier_set_state(heed_store *store, const char *host,
                                          int64_t id, heed_frontier_state state,
                                          int outcome);

/*
 * Puts entry id of the site host back in the queue after a transient
 * failure (5xx, 429, a reset, a timeout) and adds one to its tries; *tries
 * (may be NULL) receives the new count. The entry keeps its id, unlike
 * heed_store_frontier_requeue: the caller keeps the job in its window and
 * tries it again from there, so a window loaded above that id does not
 * load it twice, while a restarted crawl, loading from id 0, finds it
 * queued. The caller bounds the tries. Returns HEED_OK, HEED_ENOTFOUND
 * when no entry of host has that id (*tries is then 0), HEED_EINVAL (no
 * host) or HEED_ESTORE.
 */
heed_status heed_store_frontier_retry(heed_store *store, const char *host,
                                      int64_t id, int *tries);

/* Puts every in-flight entry back in the queue (after a crash); *requeued
 * (may be NULL) receives the count. */
heed_status heed_store_frontier_recover(heed_store *store, int64_t *requeued);

/* Puts the in-flight entries of one site (origin) host back in the
 * queue: a worker that takes a site over (its lease expired) recovers what
 * the last holder had in flight; *requeued may be NULL. HEED_EINVAL
 * without a host. */
heed_status heed_store_frontier_recover_host(heed_store *store,
                                             const char *host,
                                             int64_t *requeued);

/* heed_store_frontier_recover_host for each of n hosts (none NULL or with
 * a newline): requeued[i] receives host i's count. One statement for them
 * all on PostgreSQL, so that a worker starting the hosts of a claim waits
 * on one answer, not one a host. HEED_EINVAL, HEED_ENOMEM, HEED_ESTORE. */
heed_status heed_store_frontier_recover_hosts(heed_store *store,
                                              const char *const *hosts,
                                              size_t n, int64_t *requeued);

/* Marks every queued entry of the site (origin) host dropped; *dropped
 * (may be NULL) receives the count. HEED_EINVAL without a host. */
heed_status heed_store_frontier_drop_host(heed_store *store, const char *host,
                                          int64_t *dropped);

/* Puts every dropped entry of the site host back in the queue (a site that
 * was not qualified earlier in the run, and is now); *requeued may be
 * NULL. HEED_EINVAL without a host. */
heed_status heed_store_frontier_undrop_host(heed_store *store, const char *host,
                                            int64_t *requeued);

/* One site of the frontier, as a resumed crawl needs it. */
struct heed_frontier_host {
	const char *host;   /* the site (origin) "scheme://host[:port]" */
	int64_t queued;     /* entries waiting */
	int64_t pages_done; /* pages fetched in this run */
	int64_t dropped;    /* entries dropped: the site was not qualified,
	                       or reached a limit */
};

typedef int heed_store_frontier_host_fn(void *ud,
                                        const struct heed_frontier_host *h);

/* Calls fn for every site (origin) with at least one entry, ordered by
 * site; fn returns non-zero to stop. */
heed_status heed_store_frontier_hosts(heed_store *store,
                                      heed_store_frontier_host_fn *fn,
                                      void *ud);

/* Entries per state, indexed by heed_frontier_state. */
heed_status heed_store_frontier_counts(heed_store *store, int64_t counts[4]);

/* Forgets every entry: the next run starts with an empty seen set. */
heed_status heed_store_frontier_clear(heed_store *store);

/* A crawl run, from its start to its summary. */
struct heed_crawl_run {
	int64_t id;
	char mode[16];                   /* "full" or "incremental" */
	int64_t started_at, finished_at; /* Unix s; finished 0 while open */
	int64_t pages, errors;
};

/* Starts a run: *id receives its number. */
heed_status heed_store_run_begin(heed_store *store, const char *mode,
                                 int64_t started_at, int64_t *id);

/* The latest run that never finished (a crash, a kill, a time limit):
 * HEED_ENOTFOUND when every run finished. */
heed_status heed_store_run_open(heed_store *store, struct heed_crawl_run *run);

/* The latest finished run of mode (NULL: any), HEED_ENOTFOUND if none. */
heed_status heed_store_run_last(heed_store *store, const char *mode,
                                struct heed_crawl_run *run);

/*
 * For workers sharing the store (heed crawl --worker): the latest open run
 * (*joined true), or when every run finished a new run of mode begun at
 * started_at with the frontier cleared (*joined false), in one transaction
 * that excludes every other caller of this function on the store (SQLite:
 * BEGIN IMMEDIATE; PostgreSQL: a transaction-scoped advisory lock), so
 * workers starting at once join one run and only one clears the frontier.
 * Must be called outside a transaction.
 */
heed_status heed_store_run_join(heed_store *store, const char *mode,
                                int64_t started_at, struct heed_crawl_run *run,
                                bool *joined);

/* Adds to a run's counters (called with each batch). */
heed_status heed_store_run_add(heed_store *store, int64_t id, int64_t pages,
                               int64_t errors);

/* Closes a run at finished_at. */
heed_status heed_store_run_finish(heed_store *store, int64_t id,
                                  int64_t finished_at);

/*
 * The crawl lease: the time (Unix milliseconds, 0 never) until which the
 * crawl holding the store may have requests on their way. A crawl commits
 * a later lease before it starts a request that could leave after the
 * current one, so a crawl killed between two commits still sent nothing
 * past its lease; the next crawl counts every host as contacted at the
 * lease's end ("one crawl per store": courtesy across processes).
 */
heed_status heed_store_crawl_lease_get(heed_store *store, int64_t *until_ms);
heed_status heed_store_crawl_lease_set(heed_store *store, int64_t until_ms);

#ifdef __cplusplus
}
#endif

#endif /* HEED_STORE_FRONTIER_H */
