/*
 * The leases area's front (include/heed/store_leases.h): checks the
 * arguments, then hands each call to the store's backend
 * (src/store/sqlite_leases.c, src/store/pg_leases.c); and the lease
 * policy, pure. No SQL here.
 */
#include <string.h>

#include "store/store-int.h"

#define LEASES(store, fn, ...) HEED_STORE_CALL(store, leases, fn, __VA_ARGS__)

bool heed_lease_may_fetch(int64_t lease_until, int64_t now_ms,
                          int64_t margin_ms)
{
	/* Written as a difference: lease_until may be 0 and margin large. */
	return lease_until - now_ms > margin_ms;
}

bool heed_lease_renew_due(int64_t lease_until, int64_t now_ms, int64_t lease_ms,
                          int64_t margin_ms)
{
	int64_t left = lease_until - now_ms;

	return left < lease_ms / 2 || left <= margin_ms;
}

int64_t heed_lease_start_at(int64_t now_ms, int64_t last_start,
                            int64_t delay_ms)
{
	if (last_start > 0 && last_start + delay_ms > now_ms)
		return last_start + delay_ms;
	return now_ms;
}

heed_status heed_store_lease_ensure(heed_store *store, const char *site,
                                    int64_t delay_ms, int64_t due_ms)
{
	if (!site || !*site || delay_ms < 0)
		return HEED_EINVAL;
	LEASES(store, ensure, site, delay_ms, due_ms);
}

heed_status heed_store_lease_ensure_origin(heed_store *store, const char *site,
                                           const char *origin, int64_t delay_ms,
                                           int64_t due_ms)
{
	heed_status rc;

	if (!origin || !*origin)
		return HEED_EINVAL;
	rc = heed_store_lease_ensure(store, site, delay_ms, due_ms);
	if (rc != HEED_OK)
		return rc;
	LEASES(store, add_origin, site, origin);
}

heed_status heed_store_lease_hold(heed_store *store, const char *holder,
                                  const char *sites_json,
                                  heed_store_lease_fn *fn, void *ud)
{
	if (!holder || !*holder || !sites_json || !fn)
		return HEED_EINVAL;
	LEASES(store, hold, holder, sites_json, fn, ud);
}

heed_status heed_store_lease_origins(heed_store *store, const char *site,
                                     heed_store_lease_origin_fn *fn, void *ud)
{
	if (!site || !fn)
		return HEED_EINVAL;
	LEASES(store, origins, site, fn, ud);
}

heed_status heed_store_lease_claim(heed_store *store, const char *holder,
                                   int64_t now_ms, int64_t lease_ms, int max,
                                   heed_store_lease_fn *fn, void *ud)
{
	if (!holder || !*holder || max < 1 || lease_ms < 1 || !fn)
		return HEED_EINVAL;
	LEASES(store, claim, holder, now_ms, lease_ms, max, fn, ud);
}

/* The fencing writes share their checks: *held starts false, so a refused
 * argument never reads as a lease still held. */
#define FENCED_ARGS(site, holder, held)                 \
	do {                                            \
		*(held) = false;                        \
		if (!(site) || !(holder) || !*(holder)) \
			return HEED_EINVAL;             \
	} while (0)

heed_status heed_store_lease_renew(heed_store *store, const char *site,
                                   const char *holder, int64_t token,
                                   int64_t now_ms, int64_t lease_ms, bool *held)
{
	FENCED_ARGS(site, holder, held);
	if (lease_ms < 1)
		return HEED_EINVAL;
	LEASES(store, renew, site, holder, token, now_ms, lease_ms, held);
}

heed_status heed_store_lease_record_start(heed_store *store, const char *site,
                                          const char *holder, int64_t token,
                                          int64_t now_ms, bool *held)
{
	FENCED_ARGS(site, holder, held);
	LEASES(store, record_start, site, holder, token, now_ms, held);
}

heed_status heed_store_lease_release(heed_store *store, const char *site,
                                     const char *holder, int64_t token,
                                     int64_t next_ms, bool *held)
{
	FENCED_ARGS(site, holder, held);
	LEASES(store, release, site, holder, token, next_ms, held);
}

heed_status heed_store_lease_get(heed_store *store, const char *site,
                                 heed_store_lease_fn *fn, void *ud)
{
	if (!site || !fn)
		return HEED_EINVAL;
	LEASES(store, get, site, fn, ud);
}

heed_status heed_store_lease_counts(heed_store *store, int64_t now_ms,
                                    struct heed_lease_counts *c)
{
	memset(c, 0, sizeof(*c));
	LEASES(store, counts, now_ms, c);
}

heed_status heed_store_address_take(heed_store *store, const char *address,
                                    int64_t gap_ms, int64_t now_ms, bool *taken,
                                    int64_t *next_ms)
{
	int64_t next = 0;

	*taken = false;
	if (next_ms)
		*next_ms = 0;
	if (!address || !*address || gap_ms < 0)
		return HEED_EINVAL;
	LEASES(store, address_take, address, gap_ms, now_ms, taken,
	       next_ms ? next_ms : &next);
}

heed_status heed_store_lease_renew_all(heed_store *store, const char *holder,
                                       int64_t now_ms, int64_t lease_ms,
                                       heed_store_lease_fn *fn, void *ud)
{
	if (!holder || !*holder || lease_ms < 1 || !fn)
		return HEED_EINVAL;
	LEASES(store, renew_all, holder, now_ms, lease_ms, fn, ud);
}

heed_status heed_store_lease_worker_beat(heed_store *store, const char *holder,
                                         int64_t now_ms, int64_t ttl_ms,
                                         int64_t *live)
{
	int64_t n = 0;

	if (live)
		*live = 0;
	if (!holder || !*holder || ttl_ms < 1)
		return HEED_EINVAL;
	LEASES(store, worker_beat, holder, now_ms, ttl_ms, live ? live : &n);
}

heed_status heed_store_lease_worker_leave(heed_store *store, const char *holder)
{
	if (!holder || !*holder)
		return HEED_EINVAL;
	LEASES(store, worker_leave, holder);
}
