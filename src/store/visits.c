/*
 * The visits area's front (include/heed/store_visits.h): checks the
 * arguments, copies a row read by heed_store_visit_get into memory the
 * caller owns, and hands each call to the store's backend
 * (src/store/sqlite_visits.c, src/store/pg_visits.c). No SQL here.
 */
#include <string.h>

#include "store/store-int.h"

/* The backend's visits functions, or NULL with HEED_ENOTSUP recorded. */
static const struct heed__visits_ops *ops(heed_store *store)
{
	if (!store->backend->visits)
		heed__store_not_ported(store, "visits");
	return store->backend->visits;
}

/* Calls the backend's fn with the arguments after it, or returns
 * HEED_ENOTSUP from the calling function. */
#define VISITS(store, fn, ...)                                  \
	do {                                                    \
		const struct heed__visits_ops *v_ = ops(store); \
		if (!v_)                                        \
			return HEED_ENOTSUP;                    \
		return v_->fn(store, __VA_ARGS__);              \
	} while (0)

heed_status heed_store_visit_put(heed_store *store, const struct heed_visit *v)
{
	if (!v->url || !v->site)
		return HEED_EINVAL;
	VISITS(store, put, v);
}

void heed_store_visit_clear(heed_store *store, struct heed_visit *v)
{
	heed__free(store->alloc, v->url);
	heed__free(store->alloc, v->site);
	heed__free(store->alloc, v->found_on);
	heed__free(store->alloc, v->etag);
	heed__free(store->alloc, v->last_modified);
	heed__free(store->alloc, v->digest);
	memset(v, 0, sizeof(*v));
}

/* A copy of *s made with the store's allocator; NULL stays NULL. */
static char *dup_text(heed_store *store, char **s, bool *oom)
{
	char *copy;

	if (!*s)
		return NULL;
	copy = heed__strndup(store->alloc, *s, strlen(*s));
	if (!copy)
		*oom = true;
	return copy;
}

struct visit_copy {
	heed_store *store;
	struct heed_visit *out;
	heed_status rc;
};

/* Copies the borrowed row into *out, its strings into the caller's
 * memory. */
static int copy_visit(void *ud, const struct heed_visit *row)
{
	struct visit_copy *c = ud;
	struct heed_visit *v = c->out;
	char **fields[] = {&v->url,  &v->site,          &v->found_on,
	                   &v->etag, &v->last_modified, &v->digest};
	bool oom = false;

	*v = *row;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(fields); i++)
		*fields[i] = dup_text(c->store, fields[i], &oom);
	c->rc = oom ? HEED_ENOMEM : HEED_OK;
	return 1;
}

heed_status heed_store_visit_get(heed_store *store, const char *url,
                                 struct heed_visit *out)
{
	const struct heed__visits_ops *v = ops(store);
	struct visit_copy c = {store, out, HEED_OK};
	heed_status rc;

	memset(out, 0, sizeof(*out));
	if (!v)
		return HEED_ENOTSUP;
	rc = v->get(store, url, copy_visit, &c);
	if (rc == HEED_OK)
		rc = c.rc;
	if (rc == HEED_ENOMEM)
		heed_store_visit_clear(store, out);
	return rc;
}

heed_status heed_store_visits_of_site(heed_store *store, const char *site,
                                      unsigned kinds, heed_store_visit_fn *fn,
                                      void *ud)
{
	VISITS(store, of_site, site, kinds, fn, ud);
}

heed_status heed_store_visits_list(heed_store *store, const char *site,
                                   int64_t after_due, const char *after_url,
                                   int64_t max, heed_store_visit_fn *fn,
                                   void *ud)
{
	VISITS(store, list, site, after_due, after_url, max, fn, ud);
}

heed_status heed_store_visits_summary(heed_store *store, const char *site,
                                      int64_t now,
                                      heed_store_visit_summary_fn *fn, void *ud)
{
	VISITS(store, summary, site, now, fn, ud);
}
