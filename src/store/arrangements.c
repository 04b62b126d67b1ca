/*
 * The arrangements area's front (include/heed/store_arrangements.h): checks
 * the arguments, then hands each call to the store's backend
 * (src/store/sqlite_arrangements.c, src/store/pg_arrangements.c). No SQL
 * here.
 */
#include <string.h>

#include "store/store-int.h"

/* The backend's arrangements functions, or NULL with HEED_ENOTSUP
 * recorded. */
static const struct heed__arrangements_ops *ops(heed_store *store)
{
	if (!store->backend->arrangements)
		heed__store_not_ported(store, "arrangements");
	return store->backend->arrangements;
}

void heed__arrangement_settle(struct heed_arrangement *a, const char *mode,
                              const char *kind)
{
	if (!mode || heed_arrangement_mode_parse(mode, &a->mode) != HEED_OK)
		a->mode = HEED_ARRANGEMENT_FULL;
	if (!kind || heed_arrangement_endpoint_kind_parse(
	                     kind, &a->endpoint_kind) != HEED_OK)
		a->endpoint_kind = HEED_ENDPOINT_SOURCE;
	/* A row written by hand never makes heed faster than its floor. */
	if (a->delay_ms > 0 && a->delay_ms < HEED_ARRANGEMENT_MIN_DELAY_MS)
		a->delay_ms = HEED_ARRANGEMENT_MIN_DELAY_MS;
}

void heed_store_arrangement_clear(heed_store *store, struct heed_arrangement *a)
{
	heed__free(store->alloc, a->host);
	heed__free(store->alloc, a->include);
	heed__free(store->alloc, a->exclude);
	heed__free(store->alloc, a->windows);
	heed__free(store->alloc, a->endpoint);
	heed__free(store->alloc, a->note);
	memset(a, 0, sizeof(*a));
}

heed_status heed_store_arrangement_get(heed_store *store, const char *host,
                                       struct heed_arrangement *out)
{
	const struct heed__arrangements_ops *o = ops(store);
	heed_status rc;

	memset(out, 0, sizeof(*out));
	if (!o)
		return HEED_ENOTSUP;
	if (!host)
		return HEED_ENOTFOUND;
	rc = o->get(store, host, out);
	/* A row half copied is not handed out. */
	if (rc == HEED_ENOMEM)
		heed_store_arrangement_clear(store, out);
	return rc;
}

heed_status heed_store_arrangement_put(heed_store *store,
                                       const struct heed_arrangement *in)
{
	const struct heed__arrangements_ops *o = ops(store);

	if (!o)
		return HEED_ENOTSUP;
	/* The host is the row's key: a row without one could never be read
	 * back (SQLite would even keep it). */
	if (!in->host)
		return HEED_EINVAL;
	return o->put(store, in);
}

heed_status heed_store_arrangement_delete(heed_store *store, const char *host,
                                          bool *found)
{
	const struct heed__arrangements_ops *o = ops(store);

	if (found)
		*found = false;
	if (!o)
		return HEED_ENOTSUP;
	if (!host)
		return HEED_OK;
	return o->del(store, host, found);
}

heed_status heed_store_arrangement_each(heed_store *store,
                                        heed_store_arrangement_fn *fn, void *ud,
                                        size_t *count)
{
	const struct heed__arrangements_ops *o = ops(store);

	if (count)
		*count = 0;
	if (!o)
		return HEED_ENOTSUP;
	return o->each(store, fn, ud, count);
}
