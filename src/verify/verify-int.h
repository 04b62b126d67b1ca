/*
 * Verify internals: the result cache the verifier keeps for long-running
 * processes (a web server checking every new client address).
 */
#ifndef HEED_VERIFY_INT_H
#define HEED_VERIFY_INT_H

#include "common/common-int.h"
#include "heed/verify.h"

/* One cached result; the arena owns the result and everything it points
 * to. */
struct heed__verify_entry {
	struct heed_verify_addr addr;
	int64_t expires_s;
	struct heed_arena arena;
	const struct heed_verify_result *result;
	int next; /* next entry in the same bucket, -1 at the end */
	bool used;
};

/*
 * A fixed-size hash table of results keyed by address. When full, the
 * oldest slot is reused (FIFO): an attacker cycling through addresses can
 * only push out entries, never grow memory.
 */
struct heed__verify_cache {
	const struct heed_allocator *alloc;
	struct heed__verify_entry *entries;
	size_t cap;      /* entries */
	int *buckets;    /* heads of chains, -1 when empty */
	size_t nbuckets; /* a power of two */
	size_t victim;   /* the next slot reused when full */
	size_t size;     /* slots in use */
};

/* cap 0 makes a cache that stores nothing. HEED_OK or HEED_ENOMEM. */
heed_status heed__verify_cache_init(struct heed__verify_cache *c,
                                    const struct heed_allocator *alloc,
                                    size_t cap);
void heed__verify_cache_free(struct heed__verify_cache *c);

/* The live result for addr at now_s, or NULL (an expired one is dropped).
 * The pointer lives until the next put or free. */
const struct heed_verify_result *
heed__verify_cache_get(struct heed__verify_cache *c,
                       const struct heed_verify_addr *addr, int64_t now_s);

/* Stores result until expires_s, taking over arena (which owns result);
 * with a zero-size cache the arena is freed at once. */
void heed__verify_cache_put(struct heed__verify_cache *c,
                            const struct heed_verify_addr *addr,
                            int64_t expires_s, struct heed_arena *arena,
                            const struct heed_verify_result *result);

#endif /* HEED_VERIFY_INT_H */
