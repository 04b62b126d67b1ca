/*
 * The URLs this run has already handed to the frontier, remembered by a
 * 64-bit fingerprint of their text, so that the navigation every page of
 * a site repeats is not parsed and looked up in the store again for each
 * page: with 51 links a page, those look-ups took a third of the crawl's
 * CPU (docs/performance.md, "Crawl").
 *
 * A fixed table of two-way sets, most recent first: memory stays the same
 * however many URLs a run meets (16 MiB, touched only as it fills), and a
 * URL pushed out is merely looked up in the store again. Two different
 * URLs share a fingerprint with odds of about 2^-64 per comparison, the
 * trade every large crawler's seen-set makes.
 */
#include "crawl/crawl-int.h"

heed_status heed__seen_init(struct heed__seen *s,
                            const struct heed_allocator *a)
{
	s->alloc = a;
	s->slots = heed__calloc(a, 2 * CRAWL_SEEN_SETS, sizeof(*s->slots));
	return s->slots ? HEED_OK : HEED_ENOMEM;
}

void heed__seen_free(struct heed__seen *s)
{
	heed__free(s->alloc, s->slots);
	s->slots = NULL;
}

/* 0 marks an empty slot, so no fingerprint is 0. */
uint64_t heed__seen_fingerprint(const char *url)
{
	return heed__hash_str(url) | 1;
}

bool heed__seen_has(const struct heed__seen *s, uint64_t fp)
{
	const uint64_t *set = s->slots + 2 * (fp % CRAWL_SEEN_SETS);

	return set[0] == fp || set[1] == fp;
}

void heed__seen_add(struct heed__seen *s, uint64_t fp)
{
	uint64_t *set = s->slots + 2 * (fp % CRAWL_SEEN_SETS);

	if (set[0] == fp)
		return;
	set[1] = set[0];
	set[0] = fp;
}
