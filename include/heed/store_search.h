/*
 * heed/store_search.h: the "search" area of the store, what the public
 * index (`heed serve`) reads: a full-text index over the stored
 * pages and the queries behind its pages.
 *
 * The index is SQLite FTS5 over each page's title, description, tags and
 * site name (on PostgreSQL a tsvector per page with a GIN index, giving
 * the same rows, counts and cursors; only the relevance score differs,
 * docs/serve.md "On PostgreSQL"). It is kept up to date by triggers on the
 * pages table, inside the transaction that writes the page, so it survives
 * `kill -9` exactly as the pages do; heed_store_search_reindex() rebuilds it
 * from the pages. docs/storage.md, section "Search area", lists the tables and
 * triggers; docs/serve.md says how results are ranked.
 *
 * What may be listed is what the site permitted. Every function here
 * leaves out the pages that may not be shown at `now_s`: a page whose ACAP
 * `index` or `present` usage was refused, whose ACAP time limit or
 * `unavailable_after` (robots meta, X-Robots-Tag) has passed, or which was
 * taken down (deleted). What part of a shown page may be shown (snippet
 * length, thumbnail) is for the renderer to decide from the page's
 * permissions.
 */
#ifndef HEED_STORE_SEARCH_H
#define HEED_STORE_SEARCH_H

#include <stdbool.h>
#include <stdint.h>

#include "heed/store.h"
#include "heed/store_pages.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How results are ordered. Every order ends with the page id, so that a
 * cursor (below) always resumes exactly after the last row seen. */
typedef enum heed_search_sort {
	/* bm25 over title, description, tags and site name, boosted by views
	 * and freshness (docs/serve.md); needs a match expression, without
	 * one it falls back to HEED_SEARCH_SORT_FETCHED. */
	HEED_SEARCH_SORT_RELEVANCE = 0,
	HEED_SEARCH_SORT_VIEWS,   /* most views first; no count last */
	HEED_SEARCH_SORT_DATE,    /* newest published first; undated last */
	HEED_SEARCH_SORT_FETCHED, /* most recently fetched first */
} heed_search_sort;

/*
 * Where a page of results resumes: the sort key of the last row seen and
 * its id. A zeroed cursor (id 0) is the first page. Opaque to users: the
 * serve module writes it into links as text.
 */
struct heed_search_cursor {
	int64_t id;   /* 0: from the start */
	double score; /* HEED_SEARCH_SORT_RELEVANCE */
	int64_t key;  /* views (-1: none), published or fetched Unix s
	                 (HEED_STORE_NO_DATE: none) */
};

/*
 * How a search with a match expression finds its rows. Every plan gives
 * the same rows in the same order; they differ in what they read.
 */
typedef enum heed_search_plan {
	HEED_SEARCH_PLAN_AUTO = 0, /* chosen by cost (the default) */
	/* The word's matches drive, and each match's page row is read
	 * before the tag or site filter is checked. */
	HEED_SEARCH_PLAN_SCAN,
	/* The word's matches drive, the tag or site is checked on the
	 * match's id before its page row is read; a search or a count
	 * without a filter on the page row (language, dates, views) reads
	 * whether a page may be shown, and a relevance search its views
	 * and date, from the kept listing (docs/storage.md) rather than
	 * from its row. The default plan does the same, and checks a tag
	 * of few pages against a list of them made once. */
	HEED_SEARCH_PLAN_FILTER_FIRST,
	/* Sorted by views, date or fetch time with no filter but the
	 * words: the sort's index is read in order, each page tested
	 * against the set of the matches' ids, until the page is full.
	 * Other searches as HEED_SEARCH_PLAN_FILTER_FIRST. */
	HEED_SEARCH_PLAN_WALK,
} heed_search_plan;

/* A search. Every filter is optional: NULL strings and the "none" values
 * named below filter nothing. */
struct heed_search_query {
	/* An FTS5 expression over the columns title, description, tags and
	 * site. The caller builds it from the user's words; one that FTS5
	 * rejects makes heed_store_search() return HEED_EINVAL with FTS5's
	 * reason in diag (on PostgreSQL, where it is translated to a tsquery,
	 * also NEAR and ^). NULL or "": every page. */
	const char *match;
	const char *host;         /* host key ("example.org:8080") */
	const char *tag;          /* exact, case-folded as stored */
	const char *language;     /* "en" matches "en" and "en-GB" (no case) */
	int64_t published_from_s; /* Unix s, inclusive; HEED_STORE_NO_DATE */
	int64_t published_to_s;   /* Unix s, inclusive; HEED_STORE_NO_DATE */
	int64_t min_views;        /* -1: none */
	int64_t max_views;        /* -1: none */
	heed_search_sort sort;
	struct heed_search_cursor after; /* resume after this row */
	int limit;                       /* rows wanted, 1..1000 */
	int64_t now_s; /* Unix s: what may be shown now; freshness boost */
	/* How many matches a relevance search scores (see
	 * HEED_SEARCH_MAX_SCORED): 0 or more than it means
	 * HEED_SEARCH_MAX_SCORED; fewer is for tests. */
	int max_scored;
	/* How the rows are found (heed_search_plan): 0 lets the store
	 * choose by cost; the others are for tests, which check that every
	 * plan gives the same rows in the same order. */
	int plan;
};

/* One result. Strings live only during the callback. */
struct heed_search_hit {
	int64_t id; /* the page's id: stable, the key of its record page */
	struct heed_stored_page page;
	double score;                     /* relevance order only; else 0 */
	struct heed_search_cursor cursor; /* to resume after this hit */
};

typedef int heed_search_fn(void *ud, const struct heed_search_hit *hit);

/*
 * A relevance search scores the HEED_SEARCH_MAX_SCORED newest pages that
 * match (highest ids, which are stored first to last) among those that
 * pass the filters and may be shown, and orders those by score: its cost
 * is bounded however common the words, and a cursor resumes within the
 * same candidates. More specific words or a filter narrow the candidates
 * to the pages wanted; heed_store_search_count still counts every match
 * (up to its cap). The other orders read every match, or, for words
 * common enough and no other filter, their sort's index until a page is
 * full (HEED_SEARCH_PLAN_WALK). The figure is measured (docs/storage.md,
 * "Search area"): about 3 us per scored page.
 */
#define HEED_SEARCH_MAX_SCORED 5000

/*
 * Calls fn for at most q->limit pages matching q, in q->sort order, after
 * q->after. *more (may be NULL) is set when further rows follow the last
 * one given. Returns HEED_OK (also when fn stopped early), HEED_EINVAL
 * for a match expression FTS5 rejects or a limit out of range (the reason
 * in diag, may be NULL), HEED_ESTORE otherwise. The statement is bounded
 * on SQLite: its progress handler interrupts a query past
 * HEED_SEARCH_MAX_STEPS virtual machine steps, answered with HEED_ETOOBIG
 * ("the search is too costly; narrow it"); on PostgreSQL the role's
 * statement_timeout bounds it (a store error).
 */
#define HEED_SEARCH_MAX_STEPS 200000000
heed_status heed_store_search(heed_store *store,
                              const struct heed_search_query *q,
                              heed_search_fn *fn, void *ud, bool *more,
                              struct heed_diag *diag);

/*
 * The number of pages matching q (its cursor and limit ignored), counted
 * up to cap: *count is cap when there are at least that many. Same
 * errors as heed_store_search().
 */
heed_status heed_store_search_count(heed_store *store,
                                    const struct heed_search_query *q,
                                    int64_t cap, int64_t *count,
                                    struct heed_diag *diag);

/*
 * Calls fn once with the page whose id is id, when it may be shown at
 * now_s. HEED_ENOTFOUND when there is no such page, or it may not be
 * shown (the caller cannot tell which, on purpose: a withdrawn page is
 * gone).
 */
heed_status heed_store_search_page(heed_store *store, int64_t id, int64_t now_s,
                                   heed_search_fn *fn, void *ud);

/* A tag and how many shown pages carry it. */
struct heed_search_tag {
	const char *tag;
	int64_t pages;
};
typedef int heed_search_tag_fn(void *ud, const struct heed_search_tag *t);

/* The limit most used tags of host (NULL: every site), most pages first,
 * then by name. Read from counts the store keeps (docs/storage.md,
 * "Search area"): the cost grows with the tags, not the pages. */
heed_status heed_store_search_tags(heed_store *store, const char *host,
                                   int limit, int64_t now_s,
                                   heed_search_tag_fn *fn, void *ud);

/* A site of the index: its host key and what it holds. */
struct heed_search_site {
	const char *host;      /* host key */
	const char *site_name; /* og:site_name of its last fetched shown
	                          page, or NULL */
	int64_t pages;         /* pages that may be shown */
	int64_t last_fetched;  /* Unix s, of its last fetched shown page */
};
typedef int heed_search_site_fn(void *ud, const struct heed_search_site *s);

/* Every site with pages that may be shown, by host key, at most limit,
 * from the first host key after after_host (NULL: from the start). From kept
 * counts, like the tags, and one index lookup per site listed. */
heed_status heed_store_search_sites(heed_store *store, const char *after_host,
                                    int limit, int64_t now_s,
                                    heed_search_site_fn *fn, void *ud);

/* What the home page counts: the pages that may be shown at now_s, the
 * sites and the tags that have at least one. Exact, from the kept counts:
 * the cost grows with the sites and tags, not the pages. */
struct heed_search_totals {
	int64_t pages;
	int64_t sites;
	int64_t tags;
};
heed_status heed_store_search_totals(heed_store *store, int64_t now_s,
                                     struct heed_search_totals *t);

/* One bucket of a chart: a day (Unix s of its 00:00 UTC) or a range of
 * view counts (from .. to, inclusive) and how many pages fall in it. */
struct heed_search_bucket {
	int64_t from;
	int64_t to;
	int64_t pages;
};
typedef int heed_search_bucket_fn(void *ud, const struct heed_search_bucket *b);

/* Pages of host (NULL: all) fetched per UTC day over the days days up to
 * now_s, oldest first, one bucket per day, empty days included. */
heed_status heed_store_search_per_day(heed_store *store, const char *host,
                                      int days, int64_t now_s,
                                      heed_search_bucket_fn *fn, void *ud);

/* How the view counts of host's pages (NULL: all) are spread: buckets by
 * powers of ten (0, 1-9, 10-99, ...), up to the largest count, empty
 * buckets between included. Pages without a count are left out. */
heed_status heed_store_search_views(heed_store *store, const char *host,
                                    int64_t now_s, heed_search_bucket_fn *fn,
                                    void *ud);

/*
 * The index is kept off the path that writes a page: writing a page only
 * marks it, and the index (full text, tags, the kept counts) catches up
 * with the marked pages a set at a time. heed crawl catches up every
 * second or two and when it ends; a store opened for writing catches up
 * before each of its reads above and when it is closed, so a writer
 * always reads what it wrote. A read-only store reads the index as its
 * writers left it.
 *
 * heed_store_search_catch_up catches up with at most max_pages marked
 * pages (0: all of them), oldest first, in transactions of a few thousand
 * pages (or in the caller's open transaction); *indexed (may be NULL):
 * how many it caught up with. For a store opened for writing.
 */
heed_status heed_store_search_catch_up(heed_store *store, int64_t max_pages,
                                       int64_t *indexed);

/* How many written pages the index has not caught up with yet. */
heed_status heed_store_search_behind(heed_store *store, int64_t *pages);

/*
 * Rebuilds the full-text index, the tag table and the kept counts from
 * the pages, in one transaction (`heed serve --reindex`): a reader keeps
 * seeing the old index until it commits. For a store opened for writing.
 */
heed_status heed_store_search_reindex(heed_store *store);

#ifdef __cplusplus
}
#endif

#endif /* HEED_STORE_SEARCH_H */
