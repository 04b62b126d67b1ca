/*
 * The URLs this run has already handed to the frontier, remembered by a
 * 64-bit fingerprint of their text, so that the navigation every page of
 * a site repeats is not parsed and looked up in the store again for each
 * page: with 51 links a page, those look-ups took a third of the crawl's
 * CPU (docs/performance.md, "Crawl").
 *
 * A fixed table of eight-way sets, most recent first: memory stays the
 * same however many URLs a run meets (16 MiB, touched only as it fills),
 * and a URL pushed out is merely looked up in the store again. A set is
 * one cache line, so a look-up costs one miss however many ways it reads.
 * Sets of two ways overflow soon: a crawl of 520,000 URLs kept pushing a
 * tenth of them out, and every link to one was a store look-up again.
 * Eight ways a set hold that many with next to none pushed out. Two
 * different URLs share a fingerprint with odds of about 2^-64 per
 * comparison, the trade every large crawler's seen-set makes.
 */
#include <stdint.h>
#include <string.h>

#include "crawl/crawl-int.h"

#define SEEN_SETS  ((size_t)1 << CRAWL_SEEN_SET_BITS)
#define SEEN_ALIGN (CRAWL_SEEN_WAYS * sizeof(uint64_t))

heed_status heed__seen_init(struct heed__seen *s,
                            const struct heed_allocator *a)
{
	uintptr_t at;

	s->alloc = a;
	s->mem = heed__calloc(a, SEEN_SETS * CRAWL_SEEN_WAYS + CRAWL_SEEN_WAYS,
	                      sizeof(*s->slots));
	if (!s->mem)
		return HEED_ENOMEM;
	at = ((uintptr_t)s->mem + SEEN_ALIGN - 1) &
	     ~(uintptr_t)(SEEN_ALIGN - 1);
	s->slots = (uint64_t *)at;
	return HEED_OK;
}

void heed__seen_free(struct heed__seen *s)
{
	heed__free(s->alloc, s->mem);
	s->mem = NULL;
	s->slots = NULL;
}

/* 0 marks an empty slot, so no fingerprint is 0. */
uint64_t heed__seen_fingerprint(const char *url)
{
	return heed__hash_str(url) | 1;
}

/* The set is taken from the top bits: the bottom one is always 1. */
static uint64_t *set_of(const struct heed__seen *s, uint64_t fp)
{
	return s->slots + (fp >> (64 - CRAWL_SEEN_SET_BITS)) * CRAWL_SEEN_WAYS;
}

/* A look-up's one cache miss is a wait of its own (and, in a table of 16
 * MiB, often a TLB miss too): a page's fifty links looked up one after
 * another waited fifty times, 4 to 5 % of a crawl's CPU in a profile.
 * Asked for ahead, the misses overlap: prefetches and look-ups together
 * took 3 % (docs/performance.md). */
void heed__seen_prefetch(const struct heed__seen *s, uint64_t fp)
{
	__builtin_prefetch(set_of(s, fp));
}

bool heed__seen_has(const struct heed__seen *s, uint64_t fp)
{
	const uint64_t *set = set_of(s, fp);

	for (int i = 0; i < CRAWL_SEEN_WAYS; i++)
		if (set[i] == fp)
			return true;
	return false;
}

void heed__seen_add(struct heed__seen *s, uint64_t fp)
{
	uint64_t *set = set_of(s, fp);
	int at = CRAWL_SEEN_WAYS - 1;

	/* Found: it moves to the front; not found, the oldest goes. */
	for (int i = 0; i < CRAWL_SEEN_WAYS - 1; i++)
		if (set[i] == fp) {
			at = i;
			break;
		}
	memmove(set + 1, set, (size_t)at * sizeof(*set));
	set[0] = fp;
}
