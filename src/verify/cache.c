/*
 * The verifier's result cache: a fixed pool of entries, chained in a
 * power-of-two hash table keyed by the binary address, reused in FIFO
 * order when full. Expiry is checked on lookup against the caller's clock;
 * nothing here reads a clock.
 */
#include <string.h>

#include "verify/verify-int.h"

static size_t hash_addr(const struct heed_verify_addr *a)
{
	/* FNV-1a: addresses are short and the table is small. Unused bytes
	 * of an IPv4 address are zero, so hashing all 16 is stable. */
	uint64_t h = 1469598103934665603u;
	size_t i;

	h = (h ^ (uint64_t)a->family) * 1099511628211u;
	for (i = 0; i < sizeof(a->bytes); i++)
		h = (h ^ a->bytes[i]) * 1099511628211u;
	return (size_t)h;
}

static bool same_addr(const struct heed_verify_addr *a,
                      const struct heed_verify_addr *b)
{
	return a->family == b->family &&
	       memcmp(a->bytes, b->bytes, sizeof(a->bytes)) == 0;
}

heed_status heed__verify_cache_init(struct heed__verify_cache *c,
                                    const struct heed_allocator *alloc,
                                    size_t cap)
{
	size_t i;

	memset(c, 0, sizeof(*c));
	c->alloc = alloc;
	if (cap == 0)
		return HEED_OK;
	c->nbuckets = 16;
	while (c->nbuckets < cap)
		c->nbuckets *= 2;
	c->entries = heed__calloc(alloc, cap, sizeof(*c->entries));
	c->buckets = heed__calloc(alloc, c->nbuckets, sizeof(*c->buckets));
	if (!c->entries || !c->buckets) {
		heed__verify_cache_free(c);
		return HEED_ENOMEM;
	}
	for (i = 0; i < c->nbuckets; i++)
		c->buckets[i] = -1;
	c->cap = cap;
	return HEED_OK;
}

void heed__verify_cache_free(struct heed__verify_cache *c)
{
	size_t i;

	for (i = 0; c->entries && i < c->cap; i++)
		if (c->entries[i].used)
			heed__arena_free(&c->entries[i].arena);
	heed__free(c->alloc, c->entries);
	heed__free(c->alloc, c->buckets);
	c->entries = NULL;
	c->buckets = NULL;
	c->cap = c->size = 0;
}

/* Unlinks slot i from its bucket and releases what it holds. */
static void drop(struct heed__verify_cache *c, size_t i)
{
	struct heed__verify_entry *e = &c->entries[i];
	int *link = &c->buckets[hash_addr(&e->addr) & (c->nbuckets - 1)];

	while (*link != (int)i)
		link = &c->entries[*link].next;
	*link = e->next;
	heed__arena_free(&e->arena);
	memset(e, 0, sizeof(*e));
	c->size--;
}

static int find(const struct heed__verify_cache *c,
                const struct heed_verify_addr *addr)
{
	int i;

	if (c->cap == 0)
		return -1;
	for (i = c->buckets[hash_addr(addr) & (c->nbuckets - 1)]; i >= 0;
	     i = c->entries[i].next)
		if (same_addr(&c->entries[i].addr, addr))
			return i;
	return -1;
}

const struct heed_verify_result *
heed__verify_cache_get(struct heed__verify_cache *c,
                       const struct heed_verify_addr *addr, int64_t now_s)
{
	int i = find(c, addr);

	if (i < 0)
		return NULL;
	if (now_s >= c->entries[i].expires_s) {
		drop(c, (size_t)i);
		return NULL;
	}
	return c->entries[i].result;
}

/* A free slot, reusing the oldest one when the pool is full. */
static size_t take_slot(struct heed__verify_cache *c)
{
	size_t i;

	if (c->size == c->cap) {
		i = c->victim;
		drop(c, i);
		c->victim = (i + 1) % c->cap;
		return i;
	}
	for (i = 0; i < c->cap; i++) {
		size_t slot = (c->victim + i) % c->cap;
		if (!c->entries[slot].used) {
			c->victim = (slot + 1) % c->cap;
			return slot;
		}
	}
	return 0; /* unreachable: size < cap means a slot is free */
}

void heed__verify_cache_put(struct heed__verify_cache *c,
                            const struct heed_verify_addr *addr,
                            int64_t expires_s, struct heed_arena *arena,
                            const struct heed_verify_result *result)
{
	struct heed__verify_entry *e;
	size_t slot, b;
	int old;

	if (c->cap == 0) {
		heed__arena_free(arena);
		return;
	}
	old = find(c, addr);
	if (old >= 0)
		drop(c, (size_t)old);
	slot = take_slot(c);
	e = &c->entries[slot];
	b = hash_addr(addr) & (c->nbuckets - 1);
	e->addr = *addr;
	e->expires_s = expires_s;
	e->arena = *arena;
	e->result = result;
	e->used = true;
	e->next = c->buckets[b];
	c->buckets[b] = (int)slot;
	c->size++;
	/* The arena now belongs to the entry. */
	memset(arena, 0, sizeof(*arena));
}
