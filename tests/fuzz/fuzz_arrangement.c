/*
 * Fuzz target: the arrangement values an operator writes (windows, delays,
 * counts, patterns). Any bytes: windows parse within their bounds, format
 * to a text that parses to the same windows, and the next opening is
 * within a day; a delay is never under the floor nor over a day.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "heed/arrangement.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct heed_arrangement_window w[HEED_ARRANGEMENT_MAX_WINDOWS],
	        again[HEED_ARRANGEMENT_MAX_WINDOWS];
	char text[512], buf[256];
	size_t n = 0, m = 0, i;
	int64_t ms = 0, opens = 0, count;
	bool raised;

	if (size >= sizeof(text))
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (heed_arrangement_parse_delay(text, &ms, &raised, NULL) == HEED_OK &&
	    (ms < HEED_ARRANGEMENT_MIN_DELAY_MS ||
	     ms > HEED_ARRANGEMENT_MAX_DELAY_MS))
		abort();
	if (heed_arrangement_parse_count(text, &count, NULL) == HEED_OK &&
	    count <= 0)
		abort();
	(void)heed_arrangement_check_pattern(text, NULL);
	if (heed_arrangement_parse_windows((const char *)data, size, w, &n,
	                                   NULL) != HEED_OK)
		return 0;
	if (n == 0 || n > HEED_ARRANGEMENT_MAX_WINDOWS)
		abort();
	heed_arrangement_windows_format(w, n, buf, sizeof(buf));
	if (heed_arrangement_parse_windows(buf, strlen(buf), again, &m, NULL) !=
	            HEED_OK ||
	    m != n)
		abort();
	for (i = 0; i < n; i++)
		if (w[i].start_min != again[i].start_min ||
		    w[i].end_min != again[i].end_min)
			abort();
	for (i = 0; i < 48; i++) {
		int64_t t = 1763596800LL + (int64_t)i * 1799;
		bool open = heed_arrangement_window_open(w, n, t, &opens);
		if (open ? opens != 0 : (opens <= 0 || opens > 86400))
			abort();
		if (!open &&
		    !heed_arrangement_window_open(w, n, t + opens, NULL))
			abort();
	}
	return 0;
}
