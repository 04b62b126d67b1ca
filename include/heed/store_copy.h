/*
 * Copying a whole store to another, of either backend, so an operator who
 * outgrows one machine moves to PostgreSQL without crawling again (`heed
 * store migrate --from heed.db --to postgresql://...`).
 */
#ifndef HEED_STORE_COPY_H
#define HEED_STORE_COPY_H

#include <stdint.h>

#include "heed/common.h"
#include "heed/store.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Called after each batch of a table is written (done rows of total so
 * far), and once with done == total when the table is committed. */
typedef void heed_store_copy_progress_fn(void *ud, const char *table,
                                         int64_t done, int64_t total);

/*
 * Copies every row heed keeps in src into dst: every table of every area
 * both backends have, in key order, with its ids (a PostgreSQL identity's
 * sequence is moved past the largest id copied, so later inserts never
 * collide), NULLs, 64-bit integers and bytes as they are. Derived tables
 * (the search index, filled by the pages table's triggers on a backend
 * that has the search area) are never copied: the destination rebuilds
 * them as the pages arrive.
 *
 * src should be opened read-only (HEED_STORE_OPEN_READONLY): it is only
 * read. Before anything is written the copy takes both stores' crawl
 * locks (HEED_EBUSY: one of them is being crawled) and refuses, with the
 * reason in diag and dst untouched:
 *  - HEED_ENOTSUP: src holds rows in areas dst's backend does not have
 *    (named);
 *  - HEED_EDENIED: an area at another version on each side (named), or
 *    dst holds heed data already (the tables named).
 * Each table is copied in one transaction on dst, batch rows (at least 1)
 * read at a time: a failed copy (HEED_ESTORE, the server's reason in diag)
 * leaves each table of dst either whole or empty; copy into a fresh
 * store again. progress may be NULL.
 */
heed_status heed_store_copy(heed_store *src, heed_store *dst, int64_t batch,
                            heed_store_copy_progress_fn *progress, void *ud,
                            struct heed_diag *diag);

/* One table of a verified copy: its rows and a checksum of them (FNV-1a
 * 64 over each row in key order, values in a form that is the same on
 * every backend) on each side. */
struct heed_store_copy_check {
	const char *table; /* static */
	int64_t src_rows, dst_rows;
	uint64_t src_sum, dst_sum;
};

typedef void heed_store_copy_check_fn(void *ud,
                                      const struct heed_store_copy_check *c);

/*
 * Compares every table heed_store_copy copies on both stores, calling fn
 * (may be NULL) once per table. Returns HEED_OK when every count and
 * checksum is equal, HEED_EDENIED naming the first table that differs,
 * HEED_ESTORE when a store cannot be read.
 */
heed_status heed_store_copy_verify(heed_store *src, heed_store *dst,
                                   heed_store_copy_check_fn *fn, void *ud,
                                   struct heed_diag *diag);

#ifdef __cplusplus
}
#endif

#endif /* HEED_STORE_COPY_H */
