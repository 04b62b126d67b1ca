/*
 * Fuzz target: the published-ranges parser. After a successful parse every
 * prefix must print and parse back to itself, contain its own network
 * address, and be the match (or come after the match) for that address.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "heed/verify.h"

static void check_prefix(const heed_ranges *r, size_t i)
{
	const struct heed_ranges_prefix *p = heed_ranges_get(r, i);
	const struct heed_ranges_prefix *m;
	char text[50], json[120];
	heed_ranges *again;

	if (!p || !heed_ranges_prefix_contains(p, &p->network))
		abort();
	m = heed_ranges_match(r, &p->network);
	if (!m || m > p)
		abort();
	heed_ranges_prefix_format(p, text, sizeof(text));
	snprintf(json, sizeof(json), "{\"prefixes\":[{\"%s\":\"%s\"}]}",
	         p->network.family == AF_INET6 ? "ipv6Prefix" : "ipv4Prefix",
	         text);
	if (heed_ranges_parse(&again, json, strlen(json), NULL, NULL) !=
	            HEED_OK ||
	    heed_ranges_count(again) != 1 ||
	    memcmp(heed_ranges_get(again, 0), p, sizeof(*p)) != 0)
		abort();
	heed_ranges_free(again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct heed_diag diag;
	heed_ranges *r;
	size_t i;

	if (heed_ranges_parse(&r, (const char *)data, size, NULL, &diag) !=
	    HEED_OK)
		return 0;
	(void)heed_ranges_creation_time_get(r);
	for (i = 0; i < heed_ranges_count(r); i++)
		check_prefix(r, i);
	if (heed_ranges_get(r, heed_ranges_count(r)) != NULL)
		abort();
	heed_ranges_free(r);
	return 0;
}
