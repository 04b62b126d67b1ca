/*
 * The pages area's front (include/heed/store_pages.h): checks the
 * arguments, then hands each call to the store's backend
 * (src/store/sqlite_pages.c, src/store/pg_pages.c). No SQL here.
 */
#include <string.h>

#include "store/store-int.h"

/* The backend's pages functions, or NULL with HEED_ENOTSUP recorded. */
static const struct heed__pages_ops *ops(heed_store *store)
{
	if (!store->backend->pages)
		heed__store_not_ported(store, "pages");
	return store->backend->pages;
}

/* Calls the backend's fn with the arguments after it, or returns
 * HEED_ENOTSUP from the calling function. */
#define PAGES(store, fn, ...)                                  \
	do {                                                   \
		const struct heed__pages_ops *p_ = ops(store); \
		if (!p_)                                       \
			return HEED_ENOTSUP;                   \
		return p_->fn(store, __VA_ARGS__);             \
	} while (0)

heed_status heed_store_page_put(heed_store *store,
                                const struct heed_stored_page *page)
{
	if (!page->url || !page->host)
		return HEED_EINVAL;
	PAGES(store, put, page);
}

heed_status heed_store_page_unchanged(heed_store *store, const char *url,
                                      int64_t checked_at,
                                      int64_t source_lastmod)
{
	PAGES(store, unchanged, url, checked_at, source_lastmod);
}

heed_status heed_store_page_validators(heed_store *store, const char *url,
                                       struct heed_page_validators *v)
{
	memset(v, 0, sizeof(*v));
	v->source_lastmod = HEED_STORE_NO_DATE;
	PAGES(store, validators, url, v);
}

heed_status heed_store_page_get(heed_store *store, const char *url,
                                heed_store_page_fn *fn, void *ud)
{
	PAGES(store, get, url, fn, ud);
}

heed_status heed_store_page_delete(heed_store *store, const char *url,
                                   bool prefix, int64_t *deleted)
{
	if (deleted)
		*deleted = 0;
	PAGES(store, delete_, url, prefix, deleted);
}

heed_status heed_store_pages_each(heed_store *store, const char *host,
                                  int64_t since, heed_store_page_fn *fn,
                                  void *ud)
{
	PAGES(store, each, host, since, fn, ud);
}

heed_status heed_store_pages_stats(heed_store *store, heed_store_count_fn *fn,
                                   void *ud)
{
	PAGES(store, stats, fn, ud);
}

heed_status heed_store_pages_count(heed_store *store, const char *host,
                                   int64_t *count)
{
	*count = 0;
	PAGES(store, count, host, count);
}
