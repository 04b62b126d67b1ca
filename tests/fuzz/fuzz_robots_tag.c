/*
 * Fuzz target: X-Robots-Tag header values and <meta name=robots> content
 * (src/extract/robots_meta.c). Invariants: directives only ever restrict,
 * so parsing twice gives the same result as once.
 */
#include <stdlib.h>
#include <string.h>

#include "heed/extract.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct heed_extract_robots once, twice;

	heed_extract_robots_init(&once);
	heed_extract_robots_header(&once, (const char *)data, size, "heed");
	twice = once;
	heed_extract_robots_header(&twice, (const char *)data, size, "heed");
	if (once.noindex != twice.noindex || once.nofollow != twice.nofollow ||
	    once.max_snippet != twice.max_snippet ||
	    once.unavailable_after_s != twice.unavailable_after_s ||
	    once.max_snippet < -1)
		abort();
	return 0;
}
