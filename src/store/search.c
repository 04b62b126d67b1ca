/*
 * The search area's front (include/heed/store_search.h): checks the
 * arguments, then hands each call to the store's backend
 * (src/store/sqlite_search.c, src/store/pg_search.c). No SQL here.
 */
#include <string.h>

#include "store/store-int.h"

/* The backend's search functions, or NULL with HEED_ENOTSUP recorded. */
static const struct heed__search_ops *ops(heed_store *store)
{
	if (!store->backend->search)
		heed__store_not_ported(store, "search");
	return store->backend->search;
}

/* The pages of one catch-up transaction: big enough that a set costs
 * one statement per table, small enough that the write lock it holds
 * (a few tenths of a second) keeps a crawl writing beside it waiting
 * little. */
#define CATCH_UP_SET 2000

/* A writer's reads see every page it wrote: the index catches up first
 * (outside a transaction of the caller's, which would then hold it).
 * A read-only store (heed serve) reads the index as its writers left it,
 * at most a catch-up interval behind while a crawl runs. */
static heed_status catch_up_before_read(heed_store *store)
{
	if ((store->flags & HEED_STORE_OPEN_READONLY) ||
	    store->backend->in_tx(store))
		return HEED_OK;
	return heed_store_search_catch_up(store, 0, NULL);
}

/* Calls the backend's fn with the arguments after it, once the index has
 * caught up, or returns HEED_ENOTSUP from the calling function. */
#define SEARCH(store, fn, ...)                                     \
	do {                                                       \
		const struct heed__search_ops *s_ = ops(store);    \
		heed_status c_;                                    \
		if (!s_)                                           \
			return HEED_ENOTSUP;                       \
		if ((c_ = catch_up_before_read(store)) != HEED_OK) \
			return c_;                                 \
		return s_->fn(store, __VA_ARGS__);                 \
	} while (0)

heed_search_sort heed__search_sort(const struct heed_search_query *q)
{
	if (q->sort == HEED_SEARCH_SORT_RELEVANCE && !(q->match && *q->match))
		return HEED_SEARCH_SORT_FETCHED;
	return q->sort;
}

int64_t heed__search_key_to_sql(heed_search_sort sort, int64_t key)
{
	switch (sort) {
	case HEED_SEARCH_SORT_VIEWS:
		return key < 0 ? 1 : -key;
	case HEED_SEARCH_SORT_DATE:
		return key == HEED_STORE_NO_DATE ? INT64_MAX : -key;
	default:
		return -key;
	}
}

int64_t heed__search_key_from_sql(heed_search_sort sort, int64_t k)
{
	switch (sort) {
	case HEED_SEARCH_SORT_VIEWS:
		return k > 0 ? -1 : -k;
	case HEED_SEARCH_SORT_DATE:
		return k == INT64_MAX ? HEED_STORE_NO_DATE : -k;
	default:
		return -k;
	}
}

struct heed_search_bucket heed__search_bucket(bool per_day, int64_t b,
                                              int64_t pages)
{
	struct heed_search_bucket out = {b, b, pages};

	if (per_day) {
		out.to = b + 86399;
	} else if (b > 0) {
		/* Bucket n > 0 holds the counts of n digits. */
		int64_t lo = 1;
		for (int64_t n = 1; n < b; n++)
			lo *= 10;
		out.from = lo;
		out.to = lo > INT64_MAX / 10 ? INT64_MAX : lo * 10 - 1;
	}
	return out;
}

static heed_status check_query(const struct heed_search_query *q,
                               struct heed_diag *diag)
{
	if (q->limit < 1 || q->limit > 1000)
		return heed_diag_set(diag, HEED_EINVAL, 0, 0,
		                     "limit %d out of range 1..1000", q->limit);
	return HEED_OK;
}

heed_status heed_store_search(heed_store *store,
                              const struct heed_search_query *q,
                              heed_search_fn *fn, void *ud, bool *more,
                              struct heed_diag *diag)
{
	heed_status rc;

	if (more)
		*more = false;
	if (!ops(store))
		return HEED_ENOTSUP;
	if ((rc = check_query(q, diag)) != HEED_OK)
		return rc;
	SEARCH(store, search, q, fn, ud, more, diag);
}

heed_status heed_store_search_count(heed_store *store,
                                    const struct heed_search_query *q,
                                    int64_t cap, int64_t *count,
                                    struct heed_diag *diag)
{
	*count = 0;
	SEARCH(store, count, q, cap, count, diag);
}

heed_status heed_store_search_page(heed_store *store, int64_t id, int64_t now_s,
                                   heed_search_fn *fn, void *ud)
{
	SEARCH(store, page, id, now_s, fn, ud);
}

heed_status heed_store_search_tags(heed_store *store, const char *host,
                                   int limit, int64_t now_s,
                                   heed_search_tag_fn *fn, void *ud)
{
	SEARCH(store, tags, host, limit, now_s, fn, ud);
}

heed_status heed_store_search_sites(heed_store *store, const char *after_host,
                                    int limit, int64_t now_s,
                                    heed_search_site_fn *fn, void *ud)
{
	SEARCH(store, sites, after_host, limit, now_s, fn, ud);
}

heed_status heed_store_search_totals(heed_store *store, int64_t now_s,
                                     struct heed_search_totals *t)
{
	memset(t, 0, sizeof(*t));
	SEARCH(store, totals, now_s, t);
}

heed_status heed_store_search_per_day(heed_store *store, const char *host,
                                      int days, int64_t now_s,
                                      heed_search_bucket_fn *fn, void *ud)
{
	if (!ops(store))
		return HEED_ENOTSUP;
	if (days < 1 || days > 3660)
		return HEED_EINVAL;
	SEARCH(store, per_day, host, days, now_s, fn, ud);
}

heed_status heed_store_search_views(heed_store *store, const char *host,
                                    int64_t now_s, heed_search_bucket_fn *fn,
                                    void *ud)
{
	SEARCH(store, views, host, now_s, fn, ud);
}

heed_status heed_store_search_catch_up(heed_store *store, int64_t max_pages,
                                       int64_t *indexed)
{
	const struct heed__search_ops *s = ops(store);
	bool own_tx = !store->backend->in_tx(store);
	int64_t done = 0, n = 0, want = 0;
	heed_status rc = HEED_OK;

	if (indexed)
		*indexed = 0;
	if (!s)
		return HEED_ENOTSUP;
	if (max_pages < 0)
		return HEED_EINVAL;
	/* A set at a time, each its own transaction unless the caller has
	 * one open, until a set comes back short or max_pages are done. */
	do {
		want = max_pages ? max_pages - done : CATCH_UP_SET;
		if (want > CATCH_UP_SET)
			want = CATCH_UP_SET;
		if (own_tx && (rc = heed_store_begin(store)) != HEED_OK)
			break;
		rc = s->catch_up(store, want, &n);
		if (own_tx)
			rc = rc == HEED_OK ? heed_store_commit(store)
			                   : (heed_store_rollback(store), rc);
		if (rc != HEED_OK)
			break;
		done += n;
	} while (n == want && (!max_pages || done < max_pages));
	if (indexed)
		*indexed = done;
	return rc;
}

heed_status heed_store_search_behind(heed_store *store, int64_t *pages)
{
	const struct heed__search_ops *s = ops(store);

	*pages = 0;
	if (!s)
		return HEED_ENOTSUP;
	return s->behind(store, pages);
}

/* One transaction on every backend: a reader keeps seeing the old index
 * until it commits. */
heed_status heed_store_search_reindex(heed_store *store)
{
	const struct heed__search_ops *s = ops(store);
	heed_status rc;

	if (!s)
		return HEED_ENOTSUP;
	if ((rc = heed_store_begin(store)) != HEED_OK)
		return rc;
	rc = s->reindex(store);
	if (rc == HEED_OK)
		return heed_store_commit(store);
	heed_store_rollback(store);
	return rc;
}
