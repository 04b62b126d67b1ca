/*
 * Fuzz target: the password redaction of PostgreSQL store locations
 * (heed__pg_redact, src/store/pg.c), which every message naming such a
 * store goes through. Any bytes: the result fits the bound the function
 * allocates for, redacting twice changes nothing more, and a location with
 * no user-info colon and no password= parameter comes back as it was.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "store/store-int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct heed_allocator *alloc = heed_allocator_default();
	char text[512], *once, *twice;
	size_t len;

	if (size >= sizeof(text))
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	len = strlen(text);
	once = heed__pg_redact(alloc, text);
	if (!once)
		return 0;
	if (strlen(once) > 4 * len + 7)
		abort();
	twice = heed__pg_redact(alloc, once);
	if (twice && strcmp(once, twice) != 0)
		abort();
	if (!strchr(text, ':') && !strstr(text, "password=") &&
	    strcmp(once, text) != 0)
		abort();
	heed__free(alloc, twice);
	heed__free(alloc, once);
	return 0;
}
