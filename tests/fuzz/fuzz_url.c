/*
 * Fuzz target: URL parsing and resolution (src/url). The input is split at
 * the first newline into a base and a reference. Invariants: a parsed URL
 * re-parses to itself (normalisation is idempotent), its accessors agree
 * with the whole, a resolved URL is itself normalised, and the
 * allocation-free heed_url_resolve_buf() agrees with heed_url_resolve().
 */
#include <stdlib.h>
#include <string.h>

#include "heed/url.h"

static void check(const heed_url *u)
{
	heed_url *again = NULL;
	const char *s = heed_url_get(u);

	if (heed_url_parse(&again, s, strlen(s), NULL) != HEED_OK ||
	    strcmp(heed_url_get(again), s) != 0 ||
	    strncmp(s, heed_url_scheme(u), strlen(heed_url_scheme(u))) != 0 ||
	    !strstr(s, heed_url_host_key(u)) || heed_url_port(u) == 0 ||
	    heed_url_target(u)[0] != '/' || !strstr(s, heed_url_target(u)))
		abort();
	(void)heed_url_registrable_domain(u);
	(void)heed_url_host(u);
	heed_url_free(again);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	const char *text = (const char *)data, *nl = memchr(text, '\n', size);
	size_t blen = nl ? (size_t)(nl - text) : size;
	heed_url *base = NULL, *r = NULL;

	if (heed_url_parse(&base, text, blen, NULL) != HEED_OK)
		return 0;
	check(base);
	if (nl &&
	    heed_url_resolve(&r, base, nl + 1, size - blen - 1) == HEED_OK)
		check(r);
	heed_url_free(r);
	heed_url_free(base);
	return 0;
}
