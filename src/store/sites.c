/*
 * The sites area's front (include/heed/store_sites.h): checks the
 * arguments, then hands each call to the store's backend
 * (src/store/sqlite_sites.c, src/store/pg_sites.c). Resetting a host is
 * built here from the backend's reads and writes, the same on every
 * backend. No SQL here.
 */
#include <stdio.h>
#include <string.h>

#include "store/store-int.h"

/* The backend's sites functions, or NULL with HEED_ENOTSUP recorded. */
static const struct heed__sites_ops *ops(heed_store *store)
{
	if (!store->backend->sites)
		heed__store_not_ported(store, "sites");
	return store->backend->sites;
}

/* Calls the backend's fn with the arguments after it, or returns
 * HEED_ENOTSUP from the calling function. */
#define SITES(store, fn, ...)                                  \
	do {                                                   \
		const struct heed__sites_ops *o_ = ops(store); \
		if (!o_)                                       \
			return HEED_ENOTSUP;                   \
		return o_->fn(store, __VA_ARGS__);             \
	} while (0)

void heed__site_settle(struct heed_store_site *s, const char *state,
                       const char *reason, const char *detail)
{
	struct heed_site_record *r = &s->record;

	if (!state || heed_site_state_parse(state, &r->state) != HEED_OK ||
	    r->state > HEED_SITE_DISQUALIFIED_RESET)
		r->state = HEED_SITE_UNKNOWN;
	if (!reason || heed_site_reason_parse(reason, &r->reason) != HEED_OK)
		r->reason = HEED_SITE_R_NONE;
	snprintf(r->detail, sizeof(r->detail), "%s", detail ? detail : "");
}

void heed_store_site_clear(heed_store *store, struct heed_store_site *s)
{
	heed__free(store->alloc, s->site);
	heed__free(store->alloc, s->host);
	heed__free(store->alloc, s->robots_url);
	heed__free(store->alloc, s->robots_body);
	heed__free(store->alloc, s->rules_body);
	heed__free(store->alloc, s->robots_etag);
	heed__free(store->alloc, s->robots_last_modified);
	heed__free(store->alloc, s->robots_type);
	memset(s, 0, sizeof(*s));
}

heed_status heed_store_site_get(heed_store *store, const char *site,
                                struct heed_store_site *out)
{
	const struct heed__sites_ops *o = ops(store);
	heed_status rc;

	memset(out, 0, sizeof(*out));
	if (!o)
		return HEED_ENOTSUP;
	if (!site)
		return HEED_ENOTFOUND;
	rc = o->get(store, site, out);
	/* A row half copied is not handed out. */
	if (rc == HEED_ENOMEM)
		heed_store_site_clear(store, out);
	return rc;
}

heed_status heed_store_site_put(heed_store *store,
                                const struct heed_store_site *in)
{
	/* The site is the row's key and the host is how reports find it: a
	 * row without either could never be read as heed means it. */
	if (!in->site || !in->host)
		return HEED_EINVAL;
	SITES(store, put, in);
}

heed_status heed_store_site_each(heed_store *store, const char *host,
                                 heed_store_site_fn *fn, void *ud,
                                 size_t *count)
{
	if (count)
		*count = 0;
	SITES(store, each, host, fn, ud, count);
}

heed_status heed_store_host_get(heed_store *store, const char *host,
                                struct heed_store_host *out)
{
	memset(out, 0, sizeof(*out));
	if (!host)
		return ops(store) ? HEED_OK : HEED_ENOTSUP;
	SITES(store, host_get, host, out);
}

heed_status heed_store_host_put(heed_store *store, const char *host,
                                const struct heed_store_host *in)
{
	if (!host)
		return HEED_EINVAL;
	SITES(store, host_put, host, in);
}

/* The reset of one site, applied to a copy of its row. */
static heed_status reset_site(heed_store *store, const char *site)
{
	struct heed_store_site row;
	heed_status rc = heed_store_site_get(store, site, &row);

	if (rc != HEED_OK)
		return rc;
	heed_site_record_reset(&row.record);
	rc = heed_store_site_put(store, &row);
	heed_store_site_clear(store, &row);
	return rc;
}

struct name_list {
	heed_store *store;
	char **names;
	size_t count;
	bool oom;
};

static void collect_site(void *ud, const struct heed_store_site *s)
{
	struct name_list *l = ud;
	char **grown;

	if (l->oom)
		return;
	grown = heed__realloc(l->store->alloc, l->names,
	                      (l->count + 1) * sizeof(*grown));
	if (!grown) {
		l->oom = true;
		return;
	}
	l->names = grown;
	l->names[l->count] =
	        heed__strndup(l->store->alloc, s->site, strlen(s->site));
	if (!l->names[l->count])
		l->oom = true;
	else
		l->count++;
}

/* heed_store_site_reset_host's transaction, once. */
static heed_status reset_host_once(heed_store *store, const char *host,
                                   size_t *count)
{
	struct name_list l = {store, NULL, 0, false};
	struct heed_store_host h;
	heed_status rc;
	size_t i;

	rc = heed_store_begin(store);
	if (rc != HEED_OK)
		return rc;
	rc = heed_store_site_each(store, host, collect_site, &l, NULL);
	if (rc == HEED_OK && l.oom)
		rc = HEED_ENOMEM;
	for (i = 0; rc == HEED_OK && i < l.count; i++)
		rc = reset_site(store, l.names[i]);
	if (rc == HEED_OK)
		rc = heed_store_host_get(store, host, &h);
	if (rc == HEED_OK && (h.backoff.level || h.backoff.until_s)) {
		memset(&h.backoff, 0, sizeof(h.backoff));
		rc = heed_store_host_put(store, host, &h);
	}
	for (i = 0; i < l.count; i++)
		heed__free(store->alloc, l.names[i]);
	heed__free(store->alloc, l.names);
	if (rc != HEED_OK) {
		heed_store_rollback(store);
		return rc;
	}
	*count = l.count;
	return heed_store_commit(store);
}

/* Redoes the transaction when a lost PostgreSQL connection rolled it back
 * (HEED_ERETRY, docs/scaling.md "When PostgreSQL restarts"), a few times
 * at most. */
#define RESET_TRIES 3

heed_status heed_store_site_reset_host(heed_store *store, const char *host,
                                       size_t *count)
{
	heed_status rc = HEED_ERETRY;

	if (!ops(store)) {
		*count = 0;
		return HEED_ENOTSUP;
	}
	for (int t = 0; t < RESET_TRIES && rc == HEED_ERETRY; t++) {
		*count = 0;
		rc = reset_host_once(store, host, count);
	}
	return rc;
}

/* ---- ACAP permissions references ---- */

void heed_store_acap_ref_clear(heed_store *store, struct heed_store_acap_ref *r)
{
	heed__free(store->alloc, r->site);
	heed__free(store->alloc, r->locator);
	heed__free(store->alloc, r->url);
	heed__free(store->alloc, r->body);
	heed__free(store->alloc, r->etag);
	heed__free(store->alloc, r->last_modified);
	memset(r, 0, sizeof(*r));
}

heed_status heed_store_acap_ref_get(heed_store *store, const char *site,
                                    const char *locator,
                                    struct heed_store_acap_ref *out)
{
	const struct heed__sites_ops *o = ops(store);
	heed_status rc;

	memset(out, 0, sizeof(*out));
	if (!o)
		return HEED_ENOTSUP;
	if (!site || !locator)
		return HEED_ENOTFOUND;
	rc = o->ref_get(store, site, locator, out);
	/* A row half copied is not handed out. */
	if (rc == HEED_ENOMEM)
		heed_store_acap_ref_clear(store, out);
	return rc;
}

heed_status heed_store_acap_ref_put(heed_store *store,
                                    const struct heed_store_acap_ref *in)
{
	/* site and locator are the row's key. */
	if (!in->site || !in->locator)
		return HEED_EINVAL;
	SITES(store, ref_put, in);
}

heed_status heed_store_acap_ref_delete(heed_store *store, const char *site,
                                       const char *locator)
{
	if (!site || !locator)
		return ops(store) ? HEED_OK : HEED_ENOTSUP;
	SITES(store, ref_delete, site, locator);
}

heed_status heed_store_acap_ref_each(heed_store *store, const char *site,
                                     heed_store_acap_ref_fn *fn, void *ud)
{
	if (!site)
		return ops(store) ? HEED_OK : HEED_ENOTSUP;
	SITES(store, ref_each, site, fn, ud);
}
