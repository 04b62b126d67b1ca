/*
 * Retry-After and HTTP dates (RFC 9110 10.2.3 and 5.6.7), for the back-off
 * on 429 and 503. Hand-written because the C library's strptime and timegm
 * depend on the locale and the TZ environment, and a pure module may read
 * neither. Every token is bounded; no input can make it read past len.
 */
#include <string.h>

#include "heed/politeness.h"
#include "politeness/politeness-int.h"

/* A Retry-After beyond this is a typo or hostility; heed waits this long. */
#define RETRY_AFTER_MAX_S (365 * 86400LL)

static const char *const months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                     "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
static const char *const days[] = {"Mon", "Tue", "Wed", "Thu",
                                   "Fri", "Sat", "Sun"};
static const char *const long_days[] = {"Monday",   "Tuesday", "Wednesday",
                                        "Thursday", "Friday",  "Saturday",
                                        "Sunday"};

/* A cursor over the input (curl's strparse habit). */
struct cur {
	const char *p, *end;
};

static bool lit(struct cur *c, const char *s)
{
	size_t n = strlen(s);

	if ((size_t)(c->end - c->p) < n || memcmp(c->p, s, n) != 0)
		return false;
	c->p += n;
	return true;
}

/* Exactly ndigits digits (min..max when they differ). */
static bool digits(struct cur *c, int min, int max, int *out)
{
	int n = 0, v = 0;

	while (n < max && c->p < c->end && *c->p >= '0' && *c->p <= '9') {
		v = v * 10 + (*c->p++ - '0');
		n++;
	}
	*out = v;
	return n >= min;
}

static bool one_of(struct cur *c, const char *const *names, size_t count,
                   int *index)
{
	size_t i;

	for (i = 0; i < count; i++) {
		if (lit(c, names[i])) {
			*index = (int)i;
			return true;
		}
	}
	return false;
}

static int days_in_month(int year, int month)
{
	static const int dm[] = {31, 28, 31, 30, 31, 30,
	                         31, 31, 30, 31, 30, 31};
	bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;

	return month == 1 && leap ? 29 : dm[month];
}

/* Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's
 * days_from_civil). month is 0-based. */
static int64_t days_from_civil(int64_t y, int m, int d)
{
	int64_t era, yoe, doy, doe;

	m += 1;
	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

static bool hms(struct cur *c, int *h, int *mi, int *s)
{
	return digits(c, 2, 2, h) && lit(c, ":") && digits(c, 2, 2, mi) &&
	       lit(c, ":") && digits(c, 2, 2, s) && *h < 24 && *mi < 60 &&
	       *s < 61;
}

static heed_status civil(int year, int month, int day, int h, int mi, int s,
                         int64_t *out)
{
	if (year < 1 || month < 0 || month > 11 || day < 1 ||
	    day > days_in_month(year, month))
		return HEED_EPARSE;
	/* A leap second 60 is read as the next second. */
	*out = days_from_civil(year, month, day) * 86400 + h * 3600 + mi * 60 +
	       s;
	return HEED_OK;
}

/* "Sun, 06 Nov 1994 08:49:37 GMT" */
static heed_status imf_fixdate(struct cur c, int64_t *out)
{
	int wd, d, mo, y, h, mi, s;

	if (!one_of(&c, days, 7, &wd) || !lit(&c, ", ") ||
	    !digits(&c, 2, 2, &d) || !lit(&c, " ") ||
	    !one_of(&c, months, 12, &mo) || !lit(&c, " ") ||
	    !digits(&c, 4, 4, &y) || !lit(&c, " ") || !hms(&c, &h, &mi, &s) ||
	    !lit(&c, " GMT") || c.p != c.end)
		return HEED_EPARSE;
	return civil(y, mo, d, h, mi, s, out);
}

/* "Sunday, 06-Nov-94 08:49:37 GMT": RFC 9110 says a two-digit year that
 * appears more than 50 years in the future is in the past century; heed,
 * having no clock here, reads 70-99 as 19xx and 00-69 as 20xx. */
static heed_status rfc850(struct cur c, int64_t *out)
{
	int wd, d, mo, y, h, mi, s;

	if (!one_of(&c, long_days, 7, &wd) || !lit(&c, ", ") ||
	    !digits(&c, 2, 2, &d) || !lit(&c, "-") ||
	    !one_of(&c, months, 12, &mo) || !lit(&c, "-") ||
	    !digits(&c, 2, 2, &y) || !lit(&c, " ") || !hms(&c, &h, &mi, &s) ||
	    !lit(&c, " GMT") || c.p != c.end)
		return HEED_EPARSE;
	return civil(y < 70 ? 2000 + y : 1900 + y, mo, d, h, mi, s, out);
}

/* "Sun Nov  6 08:49:37 1994" */
static heed_status asctime_date(struct cur c, int64_t *out)
{
	int wd, d, mo, y, h, mi, s;

	if (!one_of(&c, days, 7, &wd) || !lit(&c, " ") ||
	    !one_of(&c, months, 12, &mo) || !lit(&c, " "))
		return HEED_EPARSE;
	if (!lit(&c, " ") && !(c.p < c.end && *c.p >= '1' && *c.p <= '3'))
		return HEED_EPARSE;
	if (!digits(&c, 1, 2, &d) || !lit(&c, " ") || !hms(&c, &h, &mi, &s) ||
	    !lit(&c, " ") || !digits(&c, 4, 4, &y) || c.p != c.end)
		return HEED_EPARSE;
	return civil(y, mo, d, h, mi, s, out);
}

heed_status heed_http_date_parse(const char *text, size_t len, int64_t *unix_s)
{
	struct cur c = {text, text + len};

	if (!text)
		return HEED_EPARSE;
	if (imf_fixdate(c, unix_s) == HEED_OK || rfc850(c, unix_s) == HEED_OK ||
	    asctime_date(c, unix_s) == HEED_OK)
		return HEED_OK;
	return HEED_EPARSE;
}

heed_status heed_retry_after_parse(const char *text, size_t len, int64_t now_s,
                                   int64_t *delay_s)
{
	size_t i;
	int64_t v = 0, date;

	if (!text)
		return HEED_EPARSE;
	while (len && heed__ascii_space(text[0])) {
		text++;
		len--;
	}
	while (len && heed__ascii_space(text[len - 1]))
		len--;
	if (len == 0)
		return HEED_EPARSE;
	/* delay-seconds = 1*DIGIT */
	for (i = 0; i < len && text[i] >= '0' && text[i] <= '9'; i++)
		if (v < RETRY_AFTER_MAX_S)
			v = v * 10 + (text[i] - '0');
	if (i == len) {
		*delay_s = v < RETRY_AFTER_MAX_S ? v : RETRY_AFTER_MAX_S;
		return HEED_OK;
	}
	if (heed_http_date_parse(text, len, &date) != HEED_OK)
		return HEED_EPARSE;
	if (date <= now_s)
		*delay_s = 0;
	else if (date - now_s > RETRY_AFTER_MAX_S)
		*delay_s = RETRY_AFTER_MAX_S;
	else
		*delay_s = date - now_s;
	return HEED_OK;
}
