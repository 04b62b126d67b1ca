/*
 * heed/store_visits.h: the "visits" area of the store: every URL heed has
 * requested (pages, sitemaps, feeds), with what the next request needs
 * ("recrawls that cost a site almost nothing"):
 *
 *   - the validators of its last 2xx answer (ETag, Last-Modified) for
 *     If-None-Match and If-Modified-Since, and the SHA-256 of that body, so
 *     a 200 carrying the same bytes counts as unchanged;
 *   - its revisit state (heed/revisit.h): interval, last check, last
 *     change, due date; and until when the site said the answer stays
 *     fresh (Cache-Control max-age, Expires);
 *   - what named it (the page, sitemap or robots.txt whose answer gave the
 *     URL), so a crawl can request a site's known sources again without
 *     reading the page that announced them.
 *
 * The area is the crawl's memory of the web between runs, apart from the
 * records of the pages area: a page that stops being indexable loses its
 * record but keeps its visit row, so the links through it are still
 * followed on its schedule. A row is keyed by its site, the origin
 * "scheme://host[:port]" as the frontier names it, whose crawl requested
 * the URL, and by the URL (normalised): a sitemap on another host that
 * two sites name is a row of each. docs/storage.md, "Visits area", lists
 * the table.
 *
 * A new store's area is filled from the pages area of an older one (every
 * stored page becomes a visit row due one day after its last check).
 */
#ifndef HEED_STORE_VISITS_H
#define HEED_STORE_VISITS_H

#include <stdbool.h>
#include <stdint.h>

#include "heed/revisit.h"
#include "heed/store.h"
#include "heed/store_frontier.h" /* heed_frontier_kind */

#ifdef __cplusplus
extern "C" {
#endif

/* The kinds heed_store_visits_of_site() selects, as a mask. */
#define HEED_VISIT_KIND_BIT(kind) (1u << (unsigned)(kind))
#define HEED_VISIT_SOURCES                            \
	(HEED_VISIT_KIND_BIT(HEED_FRONTIER_SITEMAP) | \
	 HEED_VISIT_KIND_BIT(HEED_FRONTIER_FEED))
#define HEED_VISIT_ANY_KIND                                             \
	(HEED_VISIT_KIND_BIT(HEED_FRONTIER_PAGE) | HEED_VISIT_SOURCES | \
	 HEED_VISIT_KIND_BIT(HEED_FRONTIER_OEMBED))

/*
 * One visit row. Strings may be NULL (SQL NULL). Filled by
 * heed_store_visit_get, the strings are the struct's (release them with
 * heed_store_visit_clear); given to heed_store_visit_put they are the
 * caller's and copied; handed to a callback they live only during it.
 */
struct heed_visit {
	char *url;      /* as requested (normalised) */
	char *site;     /* the origin whose crawl asked it */
	char *found_on; /* the URL whose answer named this one, or NULL */
	heed_frontier_kind kind;
	int status;          /* HTTP status of the last answer (304 kept) */
	char *etag;          /* of the last 2xx, for If-None-Match */
	char *last_modified; /* of the last 2xx, for If-Modified-Since */
	char *digest;        /* SHA-256 of the last 2xx body: 64 hex */
	int64_t fresh_until; /* not requested before (Unix s): the site's
	                        Cache-Control or Expires, bounded by heed;
	                        HEED_REVISIT_NO_DATE none */
	struct heed_revisit_state sched;
	heed_revisit_outcome last_outcome; /* what the last visit found */
	int64_t run_id;                    /* the crawl run of the last visit */
	int64_t visits;                    /* answers recorded, 304s included */
	int64_t changes; /* of them, bodies that differed (first included) */
};

/*
 * Reads the row of url written for site into *out (zeroed first).
 * HEED_ENOTFOUND when the store has none, HEED_ESTORE, HEED_ENOMEM.
 * Release with heed_store_visit_clear.
 */
heed_status heed_store_visit_get(heed_store *store, const char *site,
                                 const char *url, struct heed_visit *out);

/* Frees what heed_store_visit_get put in *v and zeroes it. */
void heed_store_visit_clear(heed_store *store, struct heed_visit *v);

/* Inserts or replaces the row of v->url for v->site (every column). url
 * and site must not be NULL (HEED_EINVAL). HEED_OK or HEED_ESTORE. Call it
 * inside the crawl's transaction to batch writes. */
heed_status heed_store_visit_put(heed_store *store, const struct heed_visit *v);

/* Called once per row; return non-zero to stop the iteration. */
typedef int heed_store_visit_fn(void *ud, const struct heed_visit *v);

/* Calls fn for every row of site whose kind is in kinds (a mask of
 * HEED_VISIT_KIND_BIT), in URL order: a crawl's known sitemaps, feeds,
 * pages and oEmbed answers of a site, judged due or not by their revisit
 * state. */
heed_status heed_store_visits_of_site(heed_store *store, const char *site,
                                      unsigned kinds, heed_store_visit_fn *fn,
                                      void *ud);

/* Calls fn for the row of each of the n urls written for site that the
 * store holds, in no given order (a URL without one is not called): the
 * entries of a sitemap or feed judged together, one statement on
 * PostgreSQL for up to a thousand. The urls hold no newline (normalised
 * URLs never do). */
heed_status heed_store_visits_of_urls(heed_store *store, const char *site,
                                      const char *const *urls, size_t n,
                                      heed_store_visit_fn *fn, void *ud);

/*
 * Calls fn for the rows of site (NULL: every site) ordered by due date then
 * URL, starting after the cursor (after_due, after_url); after_url NULL
 * starts at the beginning. At most max rows (0: all). For `heed queue`.
 */
heed_status heed_store_visits_list(heed_store *store, const char *site,
                                   int64_t after_due, const char *after_url,
                                   int64_t max, heed_store_visit_fn *fn,
                                   void *ud);

/* One site's schedule, for `heed stats`, `heed queue` and `heed site
 * report`. Pointers live only during the callback. */
struct heed_visit_summary {
	const char *site;
	int64_t known;        /* rows */
	int64_t due_now;      /* due at or before now */
	int64_t due_day;      /* due within the next 24 hours (after now) */
	int64_t next_due;     /* earliest due date after now; NO_DATE none */
	int64_t last_checked; /* latest check (Unix s); NO_DATE none */
	int64_t last_run_id;  /* the run of the latest visit */
	/* Of the rows visited in last_run_id: */
	int64_t last_visited;   /* visited */
	int64_t last_unchanged; /* found unchanged (304 or same digest) */
	int64_t last_changed;   /* found changed or new */
};

typedef int heed_store_visit_summary_fn(void *ud,
                                        const struct heed_visit_summary *s);

/* Calls fn per site (site NULL: every site, in site order) with its
 * summary at now. HEED_OK (also for none) or HEED_ESTORE. */
heed_status heed_store_visits_summary(heed_store *store, const char *site,
                                      int64_t now,
                                      heed_store_visit_summary_fn *fn,
                                      void *ud);

#ifdef __cplusplus
}
#endif

#endif /* HEED_STORE_VISITS_H */
