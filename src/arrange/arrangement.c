/*
 * The pure core of per-site arrangements (heed/arrangement.h): the values
 * an operator writes, checked once when written so that the crawl never
 * meets a bad one, and the two questions the crawl asks (window open?
 * pattern rules?). No clock, no I/O.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "common/common-int.h"
#include "heed/arrangement.h"

#define DAY_MIN (24 * 60)

const char *heed_arrangement_mode_name(heed_arrangement_mode mode)
{
	switch (mode) {
	case HEED_ARRANGEMENT_INCREMENTAL:
		return "incremental";
	case HEED_ARRANGEMENT_PAUSED:
		return "paused";
	default:
		return "full";
	}
}

const char *
heed_arrangement_endpoint_kind_name(heed_arrangement_endpoint_kind kind)
{
	return kind == HEED_ENDPOINT_OEMBED ? "oembed" : "source";
}

heed_status
heed_arrangement_endpoint_kind_parse(const char *text,
                                     heed_arrangement_endpoint_kind *kind)
{
	if (strcmp(text, "source") == 0 || strcmp(text, "feed") == 0 ||
	    strcmp(text, "sitemap") == 0)
		*kind = HEED_ENDPOINT_SOURCE;
	else if (strcmp(text, "oembed") == 0)
		*kind = HEED_ENDPOINT_OEMBED;
	else
		return HEED_EINVAL;
	return HEED_OK;
}

heed_status heed_arrangement_mode_parse(const char *text,
                                        heed_arrangement_mode *mode)
{
	if (strcmp(text, "full") == 0)
		*mode = HEED_ARRANGEMENT_FULL;
	else if (strcmp(text, "incremental") == 0 ||
	         strcmp(text, "incremental-only") == 0)
		*mode = HEED_ARRANGEMENT_INCREMENTAL;
	else if (strcmp(text, "paused") == 0)
		*mode = HEED_ARRANGEMENT_PAUSED;
	else
		return HEED_EINVAL;
	return HEED_OK;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Digits with at most one '.', scaled by 1000 (milli-units), bounded so
 * that no product overflows. Returns the characters read, 0 for none. */
static size_t read_milli(const char *s, int64_t *milli)
{
	size_t i = 0, frac = 0;
	int64_t v = 0;
	bool dot = false;

	for (;; i++) {
		if (is_digit(s[i])) {
			if (v > 100000000000LL)
				return 0;
			if (dot && frac == 3)
				continue; /* below a millisecond: dropped */
			v = v * 10 + (s[i] - '0');
			if (dot)
				frac++;
		} else if (s[i] == '.' && !dot) {
			dot = true;
		} else {
			break;
		}
	}
	if (i == 0 || (dot && i == 1))
		return 0;
	for (; frac < 3; frac++)
		v *= 10;
	*milli = v;
	return i;
}

heed_status heed_arrangement_parse_delay(const char *text, int64_t *delay_ms,
                                         bool *raised, struct heed_diag *diag)
{
	int64_t milli = 0, ms;
	size_t n = read_milli(text, &milli);
	const char *unit = text + n;

	*raised = false;
	if (n == 0)
		return heed_diag_set(diag, HEED_EINVAL, 0, 0,
		                     "'%s' is not a delay (write 5s, 1500ms, "
		                     "2m or 1h)",
		                     text);
	if (strcmp(unit, "ms") == 0)
		ms = milli / 1000;
	else if (strcmp(unit, "") == 0 || strcmp(unit, "s") == 0)
		ms = milli;
	else if (strcmp(unit, "m") == 0 || strcmp(unit, "min") == 0)
		ms = milli * 60;
	else if (strcmp(unit, "h") == 0)
		ms = milli * 3600;
	else
		return heed_diag_set(diag, HEED_EINVAL, 0, 0,
		                     "'%s': unknown unit '%s' (ms, s, m or h)",
		                     text, unit);
	if (ms > HEED_ARRANGEMENT_MAX_DELAY_MS)
		return heed_diag_set(
		        diag, HEED_EINVAL, 0, 0,
		        "'%s' is over a day: pause the site instead", text);
	if (ms < HEED_ARRANGEMENT_MIN_DELAY_MS) {
		ms = HEED_ARRANGEMENT_MIN_DELAY_MS;
		*raised = true;
	}
	*delay_ms = ms;
	return HEED_OK;
}

heed_status heed_arrangement_parse_count(const char *text, int64_t *count,
                                         struct heed_diag *diag)
{
	int64_t v = 0;
	size_t i;

	for (i = 0; is_digit(text[i]) && v <= 10000000; i++)
		v = v * 10 + (text[i] - '0');
	if (i == 0 || text[i] || v == 0 || v > 10000000)
		return heed_diag_set(diag, HEED_EINVAL, 0, 0,
		                     "'%s' is not a page count from 1 to "
		                     "10000000",
		                     text);
	*count = v;
	return HEED_OK;
}

heed_status heed_arrangement_check_pattern(const char *text,
                                           struct heed_diag *diag)
{
	size_t i, n = strlen(text);

	if (n == 0 || (text[0] != '/' && text[0] != '*'))
		return heed_diag_set(diag, HEED_EINVAL, 0, 0,
		                     "pattern '%s' must start with '/' or '*' "
		                     "(a path, as in robots.txt)",
		                     text);
	if (n > HEED_ARRANGEMENT_MAX_PATTERN_LEN)
		return heed_diag_set(diag, HEED_EINVAL, 0, 0,
		                     "a pattern is at most %d bytes",
		                     HEED_ARRANGEMENT_MAX_PATTERN_LEN);
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)text[i];
		if (c <= ' ' || c == 0x7f || c == '#')
			return heed_diag_set(
			        diag, HEED_EINVAL, 0, (unsigned)i + 1,
			        "pattern '%s': no spaces, control characters "
			        "or '#' (percent-encode them)",
			        text);
	}
	return HEED_OK;
}

/* "H:MM" or "HH:MM" (24:00 only as an end). Returns characters read. */
static size_t read_time(const char *s, size_t len, int *minutes)
{
	size_t i = 0;
	int h = 0, m;

	while (i < len && i < 2 && is_digit(s[i]))
		h = h * 10 + (s[i++] - '0');
	if (i == 0 || i + 3 > len || s[i] != ':' || !is_digit(s[i + 1]) ||
	    !is_digit(s[i + 2]))
		return 0;
	m = (s[i + 1] - '0') * 10 + (s[i + 2] - '0');
	if (h > 24 || m > 59 || (h == 24 && m != 0))
		return 0;
	*minutes = h * 60 + m;
	return i + 3;
}

static bool is_sep(char c)
{
	return c == ',' || c == ' ' || c == '\t';
}

heed_status heed_arrangement_parse_windows(
        const char *text, size_t len,
        struct heed_arrangement_window out[HEED_ARRANGEMENT_MAX_WINDOWS],
        size_t *count, struct heed_diag *diag)
{
	size_t i = 0, n = 0, k;

	*count = 0;
	while (i < len) {
		int a, b;
		if (is_sep(text[i])) {
			i++;
			continue;
		}
		if (n == HEED_ARRANGEMENT_MAX_WINDOWS)
			return heed_diag_set(diag, HEED_EINVAL, 0, 0,
			                     "at most %d windows",
			                     HEED_ARRANGEMENT_MAX_WINDOWS);
		k = read_time(text + i, len - i, &a);
		if (k == 0 || a == DAY_MIN || i + k >= len ||
		    text[i + k] != '-')
			return heed_diag_set(diag, HEED_EINVAL, 0,
			                     (unsigned)i + 1,
			                     "a window is HH:MM-HH:MM in UTC, "
			                     "as 01:00-06:00");
		i += k + 1;
		k = read_time(text + i, len - i, &b);
		if (k == 0 || (i + k < len && !is_sep(text[i + k])))
			return heed_diag_set(diag, HEED_EINVAL, 0,
			                     (unsigned)i + 1,
			                     "a window is HH:MM-HH:MM in UTC, "
			                     "as 01:00-06:00");
		if (a == b % DAY_MIN && !(a == 0 && b == DAY_MIN))
			return heed_diag_set(
			        diag, HEED_EINVAL, 0, (unsigned)i + 1,
			        "an empty window (it opens when it "
			        "closes)");
		i += k;
		out[n].start_min = a;
		out[n].end_min = b;
		n++;
	}
	if (n == 0)
		return heed_diag_set(diag, HEED_EINVAL, 0, 0,
		                     "no window given (HH:MM-HH:MM in UTC)");
	*count = n;
	return HEED_OK;
}

const char *
heed_arrangement_windows_format(const struct heed_arrangement_window *w,
                                size_t count, char *buf, size_t size)
{
	size_t i, used = 0;

	if (size)
		buf[0] = '\0';
	for (i = 0; i < count && used < size; i++) {
		int r = snprintf(buf + used, size - used,
		                 "%s%02d:%02d-%02d:%02d", i ? "," : "",
		                 w[i].start_min / 60, w[i].start_min % 60,
		                 w[i].end_min / 60, w[i].end_min % 60);
		if (r < 0)
			break;
		used += (size_t)r;
	}
	return buf;
}

/* Minutes from minute m of the day until w opens; 0 when m is in it. */
static int until_open(const struct heed_arrangement_window *w, int m)
{
	int end = w->end_min % DAY_MIN;
	bool in;

	if (w->start_min == 0 && w->end_min == DAY_MIN)
		return 0;
	if (w->start_min < end)
		in = m >= w->start_min && m < end;
	else /* crosses midnight */
		in = m >= w->start_min || m < end;
	if (in)
		return 0;
	return (w->start_min - m + DAY_MIN) % DAY_MIN;
}

bool heed_arrangement_window_open(const struct heed_arrangement_window *w,
                                  size_t count, int64_t unix_s,
                                  int64_t *opens_in_s)
{
	int64_t day_s = ((unix_s % 86400) + 86400) % 86400;
	int m = (int)(day_s / 60), best = DAY_MIN;
	size_t i;

	if (opens_in_s)
		*opens_in_s = 0;
	if (count == 0)
		return true;
	for (i = 0; i < count; i++) {
		int u = until_open(&w[i], m);
		if (u == 0)
			return true;
		if (u < best)
			best = u;
	}
	/* From the start of the minute that opens it. */
	if (opens_in_s)
		*opens_in_s = (int64_t)best * 60 - (day_s % 60);
	return false;
}

/* Appends "<field>: <pattern>\n" for each line of patterns. */
static bool add_lines(struct heed_buf *b, const char *field,
                      const char *patterns)
{
	const char *p = patterns;

	while (p && *p) {
		size_t n = strcspn(p, "\n");
		if (n &&
		    heed__buf_addf(b, "%s%.*s\n", field, (int)n, p) != HEED_OK)
			return false;
		p += n;
		if (*p == '\n')
			p++;
	}
	return true;
}

char *heed_arrangement_rules_text(const struct heed_arrangement *a,
                                  const struct heed_allocator *alloc, bool *oom)
{
	struct heed_buf b;
	bool inc = a->include && a->include[0];
	bool exc = a->exclude && a->exclude[0];

	*oom = false;
	if (!inc && !exc)
		return NULL;
	heed__buf_init(&b, alloc, SIZE_MAX);
	if (heed__buf_addf(&b, "User-agent: *\n%s",
	                   inc ? "Disallow: /\n" : "") != HEED_OK ||
	    !add_lines(&b, "Allow: ", inc ? a->include : NULL) ||
	    !add_lines(&b, "Disallow: ", exc ? a->exclude : NULL)) {
		heed__buf_free(&b);
		*oom = true;
		return NULL;
	}
	return heed__buf_take(&b);
}
