/*
 * heed/store_pages.h: the "pages" area of the store, one metadata record per
 * page heed fetched (the crawler operator page: titles, descriptions, views,
 * tags, other technical metadata; never the page itself, never media).
 *
 * A record is keyed by the URL heed requested (normalised). The extraction
 * record is kept whole as JSON text; the columns a query or an export filters
 * on (host, status, dates, title, views) are copied beside it and indexed.
 * docs/storage.md, section "Pages area", lists the table.
 */
#ifndef HEED_STORE_PAGES_H
#define HEED_STORE_PAGES_H

#include <stdbool.h>
#include <stdint.h>

#include "heed/store.h"

#ifdef __cplusplus
extern "C" {
#endif

/* "No such date" in the integer date columns (they hold NULL in SQL). */
#define HEED_STORE_NO_DATE INT64_MIN

/*
 * One stored page. Strings may be NULL (SQL NULL). When the store hands a
 * row to a callback, its strings live only during the callback.
 */
struct heed_stored_page {
	const char *url;       /* as requested, normalised: the key */
	const char *final_url; /* after redirects */
	const char *host;      /* host key of url ("example.org:8080") */
	int status;            /* HTTP status of the last fetch */
	int64_t fetched_at;    /* Unix s: when the body was last read */
	int64_t checked_at;    /* Unix s: last request, 304s included */
	const char *title;
	int64_t views;             /* -1 when the page gives none */
	const char *published;     /* ISO 8601 */
	const char *modified;      /* ISO 8601 */
	const char *etag;          /* for If-None-Match */
	const char *last_modified; /* for If-Modified-Since */
	int64_t source_lastmod;    /* sitemap lastmod / feed date, Unix s */
	const char *permissions;   /* JSON: usages that applied, limits */
	const char *mode;          /* "full" or "incremental" */
	const char *record;        /* JSON: the extraction record */
};

/*
 * Inserts the page, or updates the page whose url is page->url (every
 * column is overwritten; its id, the key of its public record page, is
 * kept). url and host must not be NULL (HEED_EINVAL). Returns
 * HEED_OK or HEED_ESTORE (heed_store_errmsg says why). Call it inside a
 * transaction to batch writes.
 */
heed_status heed_store_page_put(heed_store *store,
                                const struct heed_stored_page *page);

/*
 * Records that url was requested again at checked_at and found unchanged
 * (HTTP 304): only checked_at (and source_lastmod unless it is
 * HEED_STORE_NO_DATE) change. HEED_ENOTFOUND when no such page is stored.
 */
heed_status heed_store_page_unchanged(heed_store *store, const char *url,
                                      int64_t checked_at,
                                      int64_t source_lastmod);

/* What a conditional GET and the incremental mode need to know about a
 * stored page. Strings are copied into the struct (cut if longer). */
struct heed_page_validators {
	char etag[256];
	char last_modified[64];
	int64_t fetched_at;
	int64_t source_lastmod; /* HEED_STORE_NO_DATE if none */
	int status;
};

/* Fills v for url. HEED_ENOTFOUND when the page is not stored. */
heed_status heed_store_page_validators(heed_store *store, const char *url,
                                       struct heed_page_validators *v);

/*
 * The dates of the n urls' stored pages, as heed_store_page_validators
 * gives them: fetched_at[i] and source_lastmod[i] are those of urls[i]'s
 * page, both HEED_STORE_NO_DATE when none is stored (the page's own
 * source_lastmod may be HEED_STORE_NO_DATE too). The incremental mode
 * judges a sitemap's or feed's entries by them together: one statement
 * on PostgreSQL for up to a thousand URLs. The urls hold no newline
 * (normalised URLs never do). HEED_OK, HEED_ENOMEM or HEED_ESTORE.
 */
heed_status heed_store_page_dates(heed_store *store, const char *const *urls,
                                  size_t n, int64_t *fetched_at,
                                  int64_t *source_lastmod);

/* Called once per row; return non-zero to stop the iteration. */
typedef int heed_store_page_fn(void *ud, const struct heed_stored_page *page);

/*
 * Calls fn once with the stored page url (the row's strings live during
 * the call; fn's return value is ignored). HEED_OK, HEED_ENOTFOUND when no
 * such page is stored, or HEED_ESTORE.
 */
heed_status heed_store_page_get(heed_store *store, const char *url,
                                heed_store_page_fn *fn, void *ud);

/*
 * Deletes the records of url, or with prefix set of every URL starting with
 * url (an ACAP take-down of a resource set's folder). *deleted (may be
 * NULL) receives the count.
 */
heed_status heed_store_page_delete(heed_store *store, const char *url,
                                   bool prefix, int64_t *deleted);

/*
 * Calls fn for every stored page of host (NULL: every host) fetched at or
 * after since (Unix s; HEED_STORE_NO_DATE: any time), ordered by host, then
 * URL. Returns HEED_OK (also when fn stopped early) or HEED_ESTORE.
 */
heed_status heed_store_pages_each(heed_store *store, const char *host,
                                  int64_t since, heed_store_page_fn *fn,
                                  void *ud);

/* One line of `heed stats`: pages of a host with one HTTP status. */
struct heed_store_page_count {
	const char *host;
	int status;
	int64_t pages;
	int64_t with_views;   /* records that carry a view count */
	int64_t last_fetched; /* Unix s */
};

typedef int heed_store_count_fn(void *ud,
                                const struct heed_store_page_count *count);

/* Calls fn per (host, status), ordered by host then status. */
heed_status heed_store_pages_stats(heed_store *store, heed_store_count_fn *fn,
                                   void *ud);

/* The number of stored pages of host (NULL: all). */
heed_status heed_store_pages_count(heed_store *store, const char *host,
                                   int64_t *count);

#ifdef __cplusplus
}
#endif

#endif /* HEED_STORE_PAGES_H */
