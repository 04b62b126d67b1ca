/*
 * Fuzz target: heed_net_no_proxy_match. The input is split at its first
 * NUL byte into a no_proxy list and a URL (no NUL: the whole input is the
 * list, against a fixed URL). Any bytes: no crash, no read past either
 * string, the same answer twice, "*" in front always matches, and adding
 * an entry never takes a match away (a list only widens what bypasses the
 * proxy). What each entry covers is the unit tests' job
 * (tests/unit/test_net.c, test_no_proxy_match).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "heed/net.h"

/* list, then sep, then more, NUL-terminated; NULL when memory runs out. */
static char *joined(const char *list, const char *sep, const char *more)
{
	size_t a = strlen(list), b = strlen(sep), c = strlen(more);
	char *s = malloc(a + b + c + 1);

	if (!s)
		return NULL;
	memcpy(s, list, a);
	memcpy(s + a, sep, b);
	memcpy(s + a + b, more, c + 1);
	return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1);
	const char *list, *url = "http://www.example.org:8080/a?b#c";
	char *star, *wider;
	bool got;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	list = buf;
	if (strlen(buf) < size)
		url = buf + strlen(buf) + 1;
	got = heed_net_no_proxy_match(list, url);
	if (heed_net_no_proxy_match(list, url) != got)
		abort();
	star = joined("*", ",", list);
	wider = joined(list, ",", "other.example");
	if (star && !heed_net_no_proxy_match(star, url))
		abort();
	if (wider && got && !heed_net_no_proxy_match(wider, url))
		abort();
	free(star);
	free(wider);
	free(buf);
	return 0;
}
