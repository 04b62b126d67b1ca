/*
 * Fuzz target: feeds and sitemaps (src/extract/feed.c): RSS, Atom, JSON
 * Feed, urlset, sitemapindex and text. Every entry and the next page have
 * an absolute URL, dates are set together with their Unix seconds, and
 * limits hold. Built twice:
 * as "feed" and as "sitemap", each with its own corpus and dictionary.
 */
#include <stdlib.h>
#include <string.h>

#include "heed/extract.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct heed_extract_input in = {(const char *)data,
	                                size,
	                                "https://fuzz.example/feed",
	                                NULL,
	                                0,
	                                NULL,
	                                NULL,
	                                0};
	heed_feed *f = NULL;

	if (heed_extract_feed(&f, &in, NULL, NULL) != HEED_OK)
		return 0;
	(void)heed_feed_title(f);
	(void)heed_feed_kind_name(heed_feed_kind_get(f));
	(void)heed_feed_skipped(f);
	(void)heed_feed_truncated(f);
	if (heed_feed_entry_count(f) > HEED_SITEMAP_MAX_URLS ||
	    (heed_feed_next(f) && strncmp(heed_feed_next(f), "http", 4) != 0))
		abort();
	for (size_t i = 0; i < heed_feed_entry_count(f); i++) {
		const struct heed_feed_entry *e = heed_feed_entry(f, i);
		if (strncmp(e->url, "http", 4) != 0 ||
		    (e->published == NULL) !=
		            (e->published_s == HEED_NO_DATE) ||
		    (e->updated == NULL) != (e->updated_s == HEED_NO_DATE))
			abort();
		for (size_t t = 0; t < e->tag_count; t++)
			(void)strlen(e->tags[t]);
	}
	heed_feed_free(f);
	return 0;
}
