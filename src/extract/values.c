/*
 * Value parsers for extracted metadata: dates (ISO 8601 as schema.org and
 * Open Graph use it; RFC 822/1123 as RSS and HTTP use it; RFC 850 and
 * asctime, which HTTP still allows, RFC 9110 5.6.7), ISO 8601 durations,
 * and view counts with thousands separators. Pure and locale-free: month
 * names are English, as every one of those formats requires.
 */
#include <stdio.h>

#include "extract/extract-int.h"

void heed__trim(const char **s, size_t *len)
{
	while (*len && ((unsigned char)**s <= ' '))
		(*s)++, (*len)--;
	while (*len && ((unsigned char)(*s)[*len - 1] <= ' '))
		(*len)--;
}

/* A cursor over a length-delimited string (curl's strparse habit). */
struct cur {
	const char *p, *end;
};

static bool at_digit(const struct cur *c)
{
	return c->p < c->end && *c->p >= '0' && *c->p <= '9';
}

/* Reads exactly n digits (n = 0: one or more, at most 18). */
static bool digits(struct cur *c, int n, int64_t *v)
{
	int got = 0;

	*v = 0;
	while (at_digit(c) && (n ? got < n : got < 18)) {
		*v = *v * 10 + (*c->p++ - '0');
		got++;
	}
	return n ? got == n : got > 0;
}

static bool lit(struct cur *c, char ch)
{
	if (c->p < c->end && *c->p == ch) {
		c->p++;
		return true;
	}
	return false;
}

static void spaces(struct cur *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t'))
		c->p++;
}

/* Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's
 * days_from_civil). */
static int64_t days_from_civil(int64_t y, int64_t m, int64_t d)
{
	int64_t era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

static bool leap(int64_t y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static bool valid_date(int64_t y, int64_t mo, int64_t d)
{
	static const int mdays[] = {31, 29, 31, 30, 31, 30,
	                            31, 31, 30, 31, 30, 31};

	if (y < 1 || y > 9999 || mo < 1 || mo > 12 || d < 1)
		return false;
	return d <= mdays[mo - 1] && !(mo == 2 && d == 29 && !leap(y));
}

/* At most nanoseconds of a fraction are kept; digits past them are
 * dropped (no page's clock is finer). */
#define MAX_FRACTION 9

struct tm_parts {
	int64_t y, mo, d, h, mi, s, off_s;
	bool has_time;
	const char *frac; /* the fraction's digits as given, or NULL */
	size_t frac_len;
};

static bool finish(const struct tm_parts *t, int64_t *unix_s, char iso[32])
{
	int64_t secs, days, rem;

	if (!valid_date(t->y, t->mo, t->d) || t->h > 24 || t->mi > 59 ||
	    t->s > 60)
		return false;
	secs = days_from_civil(t->y, t->mo, t->d) * 86400 + t->h * 3600 +
	       t->mi * 60 + (t->s == 60 ? 59 : t->s) - t->off_s;
	*unix_s = secs;
	if (!t->has_time) {
		snprintf(iso, 32, "%04d-%02d-%02d", (int)t->y, (int)t->mo,
		         (int)t->d);
		return true;
	}
	/* Back from Unix seconds, so offsets and 24:00 land on UTC. */
	days = secs >= 0 ? secs / 86400 : -((-secs + 86399) / 86400);
	rem = secs - days * 86400;
	{
		int64_t z = days + 719468;
		int64_t era = (z >= 0 ? z : z - 146096) / 146097;
		int64_t doe = z - era * 146097;
		int64_t yoe =
		        (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
		int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
		int64_t mp = (5 * doy + 2) / 153;
		int64_t d = doy - (153 * mp + 2) / 5 + 1;
		int64_t m = mp < 10 ? mp + 3 : mp - 9;
		int64_t y = yoe + era * 400 + (m <= 2);
		if (y < 1 || y > 9999)
			return false;
		/* The fraction is kept as given (".120" stays): offsets are
		 * whole minutes, so moving to UTC never changes it. */
		snprintf(iso, 32, "%04d-%02d-%02dT%02d:%02d:%02d%s%.*sZ",
		         (int)y, (int)m, (int)d, (int)(rem / 3600),
		         (int)(rem / 60 % 60), (int)(rem % 60),
		         t->frac_len ? "." : "", (int)t->frac_len,
		         t->frac ? t->frac : "");
	}
	return true;
}

/* "Z", "+02:00", "+0200", "-05", or nothing (read as UTC). */
static bool iso_offset(struct cur *c, int64_t *off_s)
{
	int64_t hh = 0, mm = 0;
	int sign;

	*off_s = 0;
	if (lit(c, 'Z') || lit(c, 'z') || c->p == c->end)
		return true;
	if (*c->p != '+' && *c->p != '-')
		return true; /* trailing text: the caller sees consumed */
	sign = *c->p++ == '-' ? -1 : 1;
	if (!digits(c, 2, &hh))
		return false;
	lit(c, ':');
	if (at_digit(c) && !digits(c, 2, &mm))
		return false;
	if (hh > 23 || mm > 59)
		return false;
	*off_s = sign * (hh * 3600 + mm * 60);
	return true;
}

/* The digits after a decimal point or comma (ISO 8601 allows both); only
 * a fraction of a second is kept ("10:30.5" is half a minute, dropped). */
static void fraction(struct cur *c, struct tm_parts *t, bool seconds)
{
	const char *start = c->p;

	while (at_digit(c))
		c->p++;
	if (!seconds)
		return;
	t->frac = start;
	t->frac_len = (size_t)(c->p - start);
	if (t->frac_len > MAX_FRACTION)
		t->frac_len = MAX_FRACTION;
}

/* YYYY[-MM[-DD]][(T| )HH:MM[:SS[.fff]][offset]]; also YYYYMMDD. */
static bool parse_iso(struct cur *c, struct tm_parts *t)
{
	bool ext, seconds;

	t->mo = t->d = 1;
	if (!digits(c, 4, &t->y))
		return false;
	ext = lit(c, '-');
	if (!ext && !at_digit(c))
		return false; /* a year alone is no date to compare */
	if (!digits(c, 2, &t->mo))
		return false;
	if ((ext ? lit(c, '-') : at_digit(c)) && !digits(c, 2, &t->d))
		return false;
	if (c->p + 1 < c->end &&
	    (*c->p == 'T' || *c->p == 't' ||
	     (*c->p == ' ' && c->p[1] >= '0' && c->p[1] <= '9'))) {
		c->p++;
		t->has_time = true;
		if (!digits(c, 2, &t->h) || !lit(c, ':') ||
		    !digits(c, 2, &t->mi))
			return false;
		seconds = lit(c, ':');
		if (seconds && !digits(c, 2, &t->s))
			return false;
		if (lit(c, '.') || lit(c, ','))
			fraction(c, t, seconds);
		return iso_offset(c, &t->off_s);
	}
	return true;
}

static int month_of(const char *p, size_t n)
{
	static const char names[] = "janfebmaraprmayjunjulaugsepoctnovdec";

	if (n < 3)
		return 0;
	for (int i = 0; i < 12; i++)
		if (heed__ascii_lower(p[0]) == names[i * 3] &&
		    heed__ascii_lower(p[1]) == names[i * 3 + 1] &&
		    heed__ascii_lower(p[2]) == names[i * 3 + 2])
			return i + 1;
	return 0;
}

static size_t word(const struct cur *c)
{
	const char *p = c->p;

	while (p < c->end &&
	       ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
		p++;
	return (size_t)(p - c->p);
}

/* RFC 822 zones: "GMT", "UT", "EST"... or "+0200". */
static bool rfc_zone(struct cur *c, int64_t *off_s)
{
	static const struct {
		const char *name;
		int hours;
	} zones[] = {{"GMT", 0},  {"UTC", 0},  {"UT", 0},   {"Z", 0},
	             {"EST", -5}, {"EDT", -4}, {"CST", -6}, {"CDT", -5},
	             {"MST", -7}, {"MDT", -6}, {"PST", -8}, {"PDT", -7}};
	size_t n;

	spaces(c);
	*off_s = 0;
	if (c->p < c->end && (*c->p == '+' || *c->p == '-'))
		return iso_offset(c, off_s);
	n = word(c);
	for (size_t i = 0; i < HEED_ARRAY_SIZE(zones); i++)
		if (heed__ascii_ieq(c->p, n, zones[i].name)) {
			*off_s = zones[i].hours * 3600;
			c->p += n;
			return true;
		}
	return true; /* a missing zone reads as GMT */
}

static bool hms(struct cur *c, struct tm_parts *t)
{
	t->has_time = true;
	return digits(c, 0, &t->h) && lit(c, ':') && digits(c, 2, &t->mi) &&
	       (!lit(c, ':') || digits(c, 2, &t->s));
}

/* [Wkd,] DD Mon YYYY HH:MM[:SS] zone | Weekday, DD-Mon-YY HH:MM:SS GMT |
 * Wkd Mon  D HH:MM:SS YYYY. */
static bool parse_rfc(struct cur *c, struct tm_parts *t)
{
	size_t n = word(c);

	if (n) { /* a weekday */
		c->p += n;
		lit(c, ',');
		spaces(c);
	}
	n = word(c);
	if (n && (t->mo = month_of(c->p, n))) { /* asctime */
		c->p += n;
		spaces(c);
		if (!digits(c, 0, &t->d))
			return false;
		spaces(c);
		if (!hms(c, t))
			return false;
		spaces(c);
		return digits(c, 4, &t->y);
	}
	if (!digits(c, 0, &t->d))
		return false;
	if (!lit(c, '-'))
		spaces(c);
	n = word(c);
	if (!(t->mo = month_of(c->p, n)))
		return false;
	c->p += n;
	if (!lit(c, '-'))
		spaces(c);
	if (!digits(c, 0, &t->y))
		return false;
	if (t->y < 100) /* RFC 850's two-digit years (RFC 9110 5.6.7) */
		t->y += t->y < 70 ? 2000 : 1900;
	spaces(c);
	if (!at_digit(c))
		return true;
	return hms(c, t) && rfc_zone(c, &t->off_s);
}

bool heed__parse_date(const char *s, size_t len, int64_t *unix_s, char iso[32],
                      size_t *consumed)
{
	struct tm_parts t = {0};
	struct cur c;
	bool ok;

	heed__trim(&s, &len);
	c.p = s;
	c.end = s + len;
	if (len >= 4 && at_digit(&c) && s[1] >= '0' && s[1] <= '9' &&
	    s[2] >= '0' && s[2] <= '9' && s[3] >= '0' && s[3] <= '9')
		ok = parse_iso(&c, &t);
	else
		ok = parse_rfc(&c, &t);
	if (!ok || !finish(&t, unix_s, iso))
		return false;
	if (consumed)
		*consumed = (size_t)(c.p - s);
	return true;
}

/* PnYnMnWnDTnHnMn[.n]S; years are 365 days and months 30 (only seen in
 * odd pages; videos use hours, minutes and seconds). */
static bool parse_iso_duration(struct cur *c, int64_t *seconds)
{
	static const struct {
		char unit;
		bool in_time;
		int64_t mult;
	} units[] = {{'Y', false, 31536000}, {'M', false, 2592000},
	             {'W', false, 604800},   {'D', false, 86400},
	             {'H', true, 3600},      {'M', true, 60},
	             {'S', true, 1}};
	bool in_time = false, any = false;
	int64_t total = 0, v;

	if (!lit(c, 'P') && !lit(c, 'p'))
		return false;
	while (c->p < c->end) {
		size_t i;
		if (lit(c, 'T') || lit(c, 't')) {
			in_time = true;
			continue;
		}
		if (!digits(c, 0, &v) || v > 100000000)
			return false;
		if (lit(c, '.') || lit(c, ','))
			while (at_digit(c))
				c->p++;
		for (i = 0; i < HEED_ARRAY_SIZE(units); i++)
			if (c->p < c->end &&
			    heed__ascii_lower(*c->p) ==
			            heed__ascii_lower(units[i].unit) &&
			    units[i].in_time == in_time)
				break;
		if (i == HEED_ARRAY_SIZE(units))
			return false;
		c->p++;
		total += v * units[i].mult;
		any = true;
	}
	*seconds = total;
	return any;
}

bool heed__parse_duration(const char *s, size_t len, int64_t *seconds)
{
	struct cur c;
	int64_t parts[3], n = 0;

	heed__trim(&s, &len);
	c.p = s;
	c.end = s + len;
	if (parse_iso_duration(&c, seconds))
		return c.p == c.end;
	c.p = s;
	/* Plain seconds (Open Graph) or a clock time. */
	while (n < 3 && digits(&c, 0, &parts[n])) {
		n++;
		if (!lit(&c, ':'))
			break;
	}
	if (n == 0 || c.p != c.end)
		return false;
	*seconds = 0;
	for (int64_t i = 0; i < n; i++)
		*seconds = *seconds * (n == 1 ? 1 : 60) + parts[i];
	return true;
}

/* Length of a thousands separator at p: , . ' _ space, NBSP (U+00A0) or
 * narrow NBSP (U+202F); 0 when there is none. */
static size_t separator(const char *p, const char *end)
{
	if (p < end && strchr(",.'_ ", *p) && *p)
		return 1;
	if (end - p >= 2 && (unsigned char)p[0] == 0xC2 &&
	    (unsigned char)p[1] == 0xA0)
		return 2;
	if (end - p >= 3 && (unsigned char)p[0] == 0xE2 &&
	    (unsigned char)p[1] == 0x80 && (unsigned char)p[2] == 0xAF)
		return 3;
	return 0;
}

bool heed__parse_count(const char *s, size_t len, int64_t *count)
{
	const char *p, *end;
	int64_t v = 0;
	int group = 0;
	bool grouped = false;

	heed__trim(&s, &len);
	p = s;
	end = s + len;
	if (p < end && *p == '+')
		p++;
	if (p == end || *p < '0' || *p > '9')
		return false;
	while (p < end) {
		size_t sep = separator(p, end);
		if (sep) {
			/* Groups after a separator have exactly three digits;
			 * "1.5" is a decimal, not fifteen. */
			if ((grouped && group != 3) || (!grouped && group > 3))
				return false;
			grouped = true;
			group = 0;
			p += sep;
			continue;
		}
		if (*p < '0' || *p > '9')
			return false;
		if (v > (INT64_MAX - (*p - '0')) / 10)
			return false;
		v = v * 10 + (*p++ - '0');
		group++;
	}
	if (grouped && group != 3)
		return false;
	*count = v;
	return true;
}

bool heed__parse_interaction_count(const char *s, size_t len, int64_t *n)
{
	static const char *const kinds[] = {
	        "UserPlays:", "UserPageVisits:", "UserViews:"};

	heed__trim(&s, &len);
	for (size_t i = 0; i < HEED_ARRAY_SIZE(kinds); i++) {
		size_t k = strlen(kinds[i]);
		if (len > k && heed__ascii_ieq(s, k, kinds[i]))
			return heed__parse_count(s + k, len - k, n);
	}
	return heed__parse_count(s, len, n);
}
