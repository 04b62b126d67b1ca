/*
 * heed/store.h: where heed keeps what it learns (site state, pages, the
 * frontier, IRC networks) across runs.
 *
 * One interface, several backends behind a table of functions (Redis's ae_*
 * habit): SQLite is the default and embedded; PostgreSQL is for several
 * machines crawling together. Each area of heed (sites, pages, irc...) has its
 * own header, include/heed/store_<area>.h, whose functions take the store
 * opened here. The schema is versioned per area and migrated on open.
 */
#ifndef HEED_STORE_H
#define HEED_STORE_H

#include "heed/common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct heed_store heed_store;

/*
 * Opens (creating if needed) the store named by location: a file path or
 * "sqlite:PATH" for SQLite (":memory:" for a throw-away store); other schemes
 * are refused with HEED_ECONFIG until their backend exists. Applies pending
 * schema migrations. On failure returns HEED_ESTORE (or HEED_ENOMEM /
 * HEED_ECONFIG) with the reason in diag (may be NULL), and *out is NULL.
 * alloc may be NULL. The caller closes the store with heed_store_close().
 */
heed_status heed_store_open(heed_store **out, const char *location,
                            const struct heed_allocator *alloc,
                            struct heed_diag *diag);

/* Closes the store and frees it. NULL does nothing. */
void heed_store_close(heed_store *store);

/* "sqlite", "postgres". Static. */
const char *heed_store_backend_name(const heed_store *store);

/*
 * Transactions group writes so that a crash leaves all or none of them.
 * Nested calls are not supported: begin, then commit or rollback.
 */
heed_status heed_store_begin(heed_store *store);
heed_status heed_store_commit(heed_store *store);
heed_status heed_store_rollback(heed_store *store);

/* The schema version of an area ("core", "sites", "irc", ...) in this store,
 * or 0 when the area has no tables yet. */
heed_status heed_store_schema_version(heed_store *store, const char *area,
                                      int *version);

/* The last backend error message, for logs. Valid until the next call on
 * the store; never NULL. */
const char *heed_store_errmsg(const heed_store *store);

#ifdef __cplusplus
}
#endif

#endif /* HEED_STORE_H */
