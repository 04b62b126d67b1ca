/*
 * Fuzz target: heed_net_fresh_for. The input is split at its first two NUL
 * bytes into Cache-Control, Expires and Date (a missing part is NULL). Any
 * bytes: the answer is -1 or within 0..2^31 (RFC 9111 1.2.2), the same
 * twice, and a Cache-Control with no-store in front is always 0. What each
 * directive means is the unit tests' job (tests/unit/test_net_fresh.c).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "heed/net.h"

/* RFC 9111 1.2.2: the greatest lifetime heed ever reports. */
#define MAX_FRESH_S 2147483648LL

/* "no-store, " before any Cache-Control: whatever follows, 0. */
static bool no_store_first(const char *cc, const char *expires,
                           const char *date, int64_t now)
{
	size_t n = cc ? strlen(cc) : 0;
	char *text = malloc(n + sizeof("no-store, "));
	bool ok;

	if (!text)
		return true;
	memcpy(text, "no-store, ", sizeof("no-store, ") - 1);
	memcpy(text + sizeof("no-store, ") - 1, cc ? cc : "", n + 1);
	ok = heed_net_fresh_for(text, expires, date, now) == 0;
	free(text);
	return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1);
	const char *part[3] = {NULL, NULL, NULL};
	int64_t now = 1700000000, got, again;
	size_t i, start = 0;
	int n = 0;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	for (i = 0; i <= size && n < 3; i++) {
		if (i == size || buf[i] == '\0') {
			part[n++] = buf + start;
			start = i + 1;
		}
	}
	got = heed_net_fresh_for(part[0], part[1], part[2], now);
	again = heed_net_fresh_for(part[0], part[1], part[2], now);
	if (got < -1 || got > MAX_FRESH_S || got != again)
		abort();
	if (!no_store_first(part[0], part[1], part[2], now))
		abort();
	free(buf);
	return 0;
}
