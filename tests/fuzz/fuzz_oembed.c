/*
 * Fuzz target: oEmbed answers (src/extract/oembed.c), JSON and XML alike:
 * the body goes through heed_extract_oembed() and every member kept is
 * checked against the parser's promises (bounded, sanitised, absolute).
 */
#include <stdlib.h>
#include <string.h>

#include "heed/extract.h"

static void check_text(const char *s, size_t max)
{
	size_t n;

	if (!s)
		return;
	n = strlen(s);
	/* Never empty, never padded, never a control character. */
	if (!n || n > max || s[0] == ' ' || s[n - 1] == ' ')
		abort();
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < ' ')
			abort();
}

static void check_url(const char *s)
{
	if (s && strncmp(s, "http://", 7) != 0 &&
	    strncmp(s, "https://", 8) != 0)
		abort();
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct heed_extract_input in = {.body = (const char *)data,
	                                .body_len = size,
	                                .url = "https://fuzz.example/oembed"};
	struct heed_oembed *o = NULL;
	heed_status rc = heed_extract_oembed(&o, &in, NULL, NULL);
	const char *texts[] = {o ? o->title : NULL, o ? o->author_name : NULL,
	                       o ? o->provider_name : NULL};
	int64_t nums[] = {o ? o->width : -1, o ? o->height : -1,
	                  o ? o->thumbnail_width : -1,
	                  o ? o->thumbnail_height : -1, o ? o->cache_age : -1};

	if ((rc == HEED_OK) != (o != NULL))
		abort();
	if (!o)
		return 0;
	if (!o->version || o->version[0] != '1' || !o->type)
		abort();
	/* Sanitising may triple a byte; collapsing never grows. */
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
		check_text(texts[i], 3 * 4096);
	check_url(o->author_url);
	check_url(o->provider_url);
	check_url(o->thumbnail_url);
	for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++)
		if (nums[i] < -1)
			abort();
	heed_oembed_free(o);
	return 0;
}
