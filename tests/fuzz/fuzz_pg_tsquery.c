/*
 * Fuzz target: the FTS5-to-tsquery translation of the search area on
 * PostgreSQL (heed__pg_tsquery, src/store/pg_tsquery.c), which every
 * search box's text reaches through heed serve. Any bytes: the result is
 * refused or fits the bound the function sets, and its quotes and
 * parentheses are balanced, so the server parses what it is given.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "store/pg-int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct heed_allocator *alloc = heed_allocator_default();
	struct heed_diag d = {0};
	char text[1024], *out = NULL;
	long depth = 0;
	bool quoted = false;

	if (size >= sizeof(text))
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (heed__pg_tsquery(alloc, text, &out, &d) != HEED_OK) {
		if (out)
			abort();
		return 0;
	}
	if (strlen(out) > 16 * strlen(text) + 64)
		abort();
	for (const char *p = out; *p; p++) {
		if (*p == '\'')
			quoted = !quoted;
		else if (!quoted && *p == '(')
			depth++;
		else if (!quoted && *p == ')' && --depth < 0)
			abort();
	}
	if (quoted || depth != 0)
		abort();
	heed__free(alloc, out);
	return 0;
}
