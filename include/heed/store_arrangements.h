/*
 * heed/store_arrangements.h: the "arrangements" area of the store, one row
 * per host with what its owner asked of heed (heed/arrangement.h), set by
 * `heed sites set` and read by every crawl. Kept apart from the sites area:
 * an arrangement is the operator's word, never rewritten by a crawl, and
 * it exists before heed ever contacts the host. docs/storage.md and
 * docs/crawling.md ("Arrangements with site owners") describe it, the
 * same on SQLite and PostgreSQL.
 */
#ifndef HEED_STORE_ARRANGEMENTS_H
#define HEED_STORE_ARRANGEMENTS_H

#include "heed/arrangement.h"
#include "heed/store.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Reads host's arrangement into *out (zeroed first; its strings are then
 * the store's: heed_store_arrangement_clear). HEED_ENOTFOUND when there is
 * none, HEED_ESTORE, HEED_ENOMEM.
 */
heed_status heed_store_arrangement_get(heed_store *store, const char *host,
                                       struct heed_arrangement *out);

/* Inserts or replaces in->host's arrangement (everything copied).
 * HEED_OK, HEED_EINVAL for a NULL host, or HEED_ESTORE. */
heed_status heed_store_arrangement_put(heed_store *store,
                                       const struct heed_arrangement *in);

/* Forgets host's arrangement; *found (may be NULL) says whether there was
 * one. HEED_OK or HEED_ESTORE. */
heed_status heed_store_arrangement_delete(heed_store *store, const char *host,
                                          bool *found);

/* Frees what _get put in *a and zeroes it. */
void heed_store_arrangement_clear(heed_store *store,
                                  struct heed_arrangement *a);

typedef void heed_store_arrangement_fn(void *ud,
                                       const struct heed_arrangement *a);

/* Calls fn for every arrangement in host order (the row is valid during
 * the call only); *count (may be NULL) gets how many. HEED_OK, HEED_ESTORE
 * or HEED_ENOMEM. */
heed_status heed_store_arrangement_each(heed_store *store,
                                        heed_store_arrangement_fn *fn, void *ud,
                                        size_t *count);

#ifdef __cplusplus
}
#endif

#endif /* HEED_STORE_ARRANGEMENTS_H */
