/*
 * Fuzz target: Retry-After and HTTP dates. Any bytes: a delay is never
 * negative nor above a year, a date parses the same way twice, and a value
 * that parses as a date gives the same delay through Retry-After.
 */
#include <stdint.h>
#include <stdlib.h>

#include "heed/politeness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	int64_t now = 1700000000, delay = -1, date = 0, again = 0;

	if (heed_retry_after_parse(text, size, now, &delay) == HEED_OK &&
	    (delay < 0 || delay > 365 * 86400LL))
		abort();
	if (heed_http_date_parse(text, size, &date) != HEED_OK)
		return 0;
	if (heed_http_date_parse(text, size, &again) != HEED_OK ||
	    again != date)
		abort();
	if (heed_retry_after_parse(text, size, now, &delay) != HEED_OK ||
	    (date > now && date - now <= 365 * 86400LL && delay != date - now))
		abort();
	return 0;
}
