/*
 * Fuzz target: JSON-LD. The input is the body of one
 * <script type="application/ld+json"> block, parsed through the same path
 * as a page's (src/extract/jsonld.c), then every record field is read.
 */
#include <stdlib.h>
#include <string.h>

#include "extract/extract-int.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct heed_extract_input in = {.url = "https://fuzz.example/"};
	struct builder b;

	if (heed__builder_init(&b, heed_allocator_default(), &in) != HEED_OK)
		abort();
	heed__jsonld_add(&b, (const char *)data, size, true);
	heed__jsonld_apply(&b);
	for (int f = 0; f < F_COUNT; f++)
		if (b.cand[f].value && !*b.cand[f].value)
			abort(); /* empty values are never kept */
	for (size_t i = 0; i < b.tag_count; i++)
		if (!b.tags[i].value[0])
			abort();
	if (b.rec.jsonld_errors > b.rec.jsonld_blocks)
		abort();
	heed__builder_release(&b);
	return 0;
}
