/*
 * Dates on the command line and in exports: ISO 8601 in UTC, the form
 * every record uses ("2026-11-21T18:00:00Z"), and what --since accepts
 * (a date, a date and time in UTC, or Unix seconds).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"

static int parse_with(const char *text, const char *fmt, int64_t *out)
{
	struct tm tm;
	const char *end;

	memset(&tm, 0, sizeof(tm));
	end = strptime(text, fmt, &tm);
	if (!end || *end)
		return -1;
	*out = (int64_t)timegm(&tm);
	return 0;
}

int heed_cli_parse_date(const char *text, int64_t *unix_s)
{
	static const char *const formats[] = {
	        "%Y-%m-%dT%H:%M:%SZ", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M:%S",
	        "%Y-%m-%dT%H:%MZ",    "%Y-%m-%d",
	};
	char *end;
	long long n;

	if (!text || !*text)
		return -1;
	if (text[0] == '@') {
		n = strtoll(text + 1, &end, 10);
		if (end == text + 1 || *end)
			return -1;
		*unix_s = n;
		return 0;
	}
	for (size_t i = 0; i < HEED_ARRAY_SIZE(formats); i++)
		if (parse_with(text, formats[i], unix_s) == 0)
			return 0;
	return -1;
}

const char *heed_cli_format_date(int64_t unix_s, char *buf, size_t size)
{
	time_t t = (time_t)unix_s;
	struct tm tm;

	if (!gmtime_r(&t, &tm) ||
	    strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(buf, size, "@%lld", (long long)unix_s);
	return buf;
}

const char *heed_cli_format_interval(int64_t s, char *buf, size_t size)
{
	/* The two largest units, as an operator reads a schedule: "1d 12h",
	 * "2h 30min", "45s". */
	static const struct {
		int64_t secs;
		const char *name;
	} units[] = {{86400, "d"}, {3600, "h"}, {60, "min"}, {1, "s"}};
	size_t i = 0;

	if (s <= 0) {
		snprintf(buf, size, "-");
		return buf;
	}
	while (s < units[i].secs)
		i++;
	if (i + 1 < HEED_ARRAY_SIZE(units) &&
	    s % units[i].secs >= units[i + 1].secs)
		snprintf(buf, size, "%lld%s %lld%s",
		         (long long)(s / units[i].secs), units[i].name,
		         (long long)(s % units[i].secs / units[i + 1].secs),
		         units[i + 1].name);
	else
		snprintf(buf, size, "%lld%s", (long long)(s / units[i].secs),
		         units[i].name);
	return buf;
}
