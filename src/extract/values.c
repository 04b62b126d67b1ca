/*
 * Value parsers for extracted metadata: dates (ISO 8601 as schema.org and
 * Open Graph use it; RFC 822/1123 as RSS and HTTP use it; RFC 850 and
 * asctime, which HTTP still allows, RFC 9110 5.6.7), ISO 8601 durations,
 * and view counts with thousands separators. Pure and locale-free: month
 * names are English, as every one of those formats requires.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "extract/extract-int.h"

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
	bool has_time, has_seconds;
	bool zoned;       /* a zone or an offset was written, "Z" included */
	const char *frac; /* the fraction's digits as given, or NULL */
	size_t frac_len;
};

/* The civil date of days since 1970-01-01 (Hinnant's civil_from_days). */
static void civil_from_days(int64_t days, int64_t *y, int64_t *m, int64_t *d)
{
	int64_t z = days + 719468;
	int64_t era = (z >= 0 ? z : z - 146096) / 146097;
	int64_t doe = z - era * 146097;
	int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	int64_t mp = (5 * doy + 2) / 153;

	*d = doy - (153 * mp + 2) / 5 + 1;
	*m = mp < 10 ? mp + 3 : mp - 9;
	*y = yoe + era * 400 + (*m <= 2);
}

/*
 * Writes t as ISO 8601 into iso (size bytes), its time shown at offset
 * off: the offset t was written with keeps the writer's wall-clock time
 * ("2016-01-12T22:34:00+05:30"), so the publisher's day is the one they
 * wrote, which a move to UTC would shift. With off zero the time is moved
 * to UTC and ends in "Z".
 */
static bool finish(const struct tm_parts *t, int64_t *unix_s, char *iso,
                   size_t size, int64_t off)
{
	int64_t secs, days, rem, y, m, d;
	char zone[8] = "Z";

	if (!valid_date(t->y, t->mo, t->d) || t->h > 24 || t->mi > 59 ||
	    t->s > 60)
		return false;
	secs = days_from_civil(t->y, t->mo, t->d) * 86400 + t->h * 3600 +
	       t->mi * 60 + (t->s == 60 ? 59 : t->s) - t->off_s;
	*unix_s = secs;
	if (!t->has_time) {
		snprintf(iso, size, "%04d-%02d-%02d", (int)t->y, (int)t->mo,
		         (int)t->d);
		return true;
	}
	/* Back from Unix seconds, so offsets and 24:00 land where they
	 * belong. */
	secs += off;
	days = secs >= 0 ? secs / 86400 : -((-secs + 86399) / 86400);
	rem = secs - days * 86400;
	civil_from_days(days, &y, &m, &d);
	if (y < 1 || y > 9999)
		return false;
	if (off)
		snprintf(zone, sizeof(zone), "%c%02d:%02d", off < 0 ? '-' : '+',
		         (int)(llabs(off) / 3600), (int)(llabs(off) / 60 % 60));
	/* The fraction is kept as given (".120" stays): offsets are whole
	 * minutes, so moving to UTC never changes it. */
	snprintf(iso, size, "%04d-%02d-%02dT%02d:%02d:%02d%s%.*s%s", (int)y,
	         (int)m, (int)d, (int)(rem / 3600), (int)(rem / 60 % 60),
	         (int)(rem % 60), t->frac_len ? "." : "", (int)t->frac_len,
	         t->frac ? t->frac : "", zone);
	return true;
}

/* "Z", "+02:00", "+0200", "-05", or nothing (read as UTC). */
static bool iso_offset(struct cur *c, int64_t *off_s, bool *zoned)
{
	int64_t hh = 0, mm = 0;
	int sign;

	*off_s = 0;
	if (lit(c, 'Z') || lit(c, 'z')) {
		*zoned = true;
		return true;
	}
	if (c->p == c->end || (*c->p != '+' && *c->p != '-'))
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
	*zoned = true;
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

static bool rfc_zone(struct cur *c, struct tm_parts *t);

/* YYYY[-MM[-DD]][(T| )HH:MM[:SS[.fff]][offset]]; also YYYYMMDD[THH:MM...]. */
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
	if (ext && lit(c, '-') && !digits(c, 2, &t->d))
		return false;
	/* The basic form is YYYYMMDD and nothing longer: ISO 8601 has no
	 * "YYYYMM" (it would read as YYMMDD), and a run of digits in a
	 * line's text ("175310", a score and two badge counts) is no date. */
	if (!ext && (!digits(c, 2, &t->d) || at_digit(c)))
		return false;
	if (c->p + 1 < c->end &&
	    (*c->p == 'T' || *c->p == 't' ||
	     (*c->p == ' ' && c->p[1] >= '0' && c->p[1] <= '9'))) {
		c->p++;
		t->has_time = true;
		if (!digits(c, 2, &t->h) || !lit(c, ':') ||
		    !digits(c, 2, &t->mi))
			return false;
		seconds = t->has_seconds = lit(c, ':');
		if (seconds && !digits(c, 2, &t->s))
			return false;
		if (lit(c, '.') || lit(c, ','))
			fraction(c, t, seconds);
		/* "2016-01-12 22:34:00 +0530", "... EST" */
		if (c->p + 1 < c->end && *c->p == ' ')
			return rfc_zone(c, t);
		return iso_offset(c, &t->off_s, &t->zoned);
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

/*
 * Zones by name: RFC 822's, and the abbreviations news sites print after
 * a time ("10.34PM IST"). An abbreviation names one offset here even
 * where it is ambiguous: IST is India's (+05:30, the sites that write it
 * are Indian), BST British summer time, CST North America's central time.
 */
static const struct zone {
	const char *name;
	int minutes;
} zones[] = {
        {"GMT", 0},    {"UTC", 0},     {"UT", 0},      {"Z", 0},
        {"WET", 0},    {"EST", -300},  {"EDT", -240},  {"CST", -360},
        {"CDT", -300}, {"MST", -420},  {"MDT", -360},  {"PST", -480},
        {"PDT", -420}, {"AKST", -540}, {"AKDT", -480}, {"HST", -600},
        {"AST", -240}, {"ADT", -180},  {"NST", -210},  {"NDT", -150},
        {"BST", 60},   {"IST", 330},   {"WEST", 60},   {"CET", 60},
        {"CEST", 120}, {"MEZ", 60},    {"MESZ", 120},  {"EET", 120},
        {"EEST", 180}, {"MSK", 180},   {"PKT", 300},   {"ICT", 420},
        {"WIB", 420},  {"SGT", 480},   {"HKT", 480},   {"PHT", 480},
        {"AWST", 480}, {"JST", 540},   {"KST", 540},   {"ACST", 570},
        {"AEST", 600}, {"AEDT", 660},  {"NZST", 720},  {"NZDT", 780},
        {"SAST", 120}, {"WAT", 60},    {"EAT", 180},   {"BRT", -180},
        {"ART", -180},
};

/* A zone: "+0200", "-05:00", or a name from zones[]; nothing (or an
 * unknown word, left unread) reads as UTC. */
static bool rfc_zone(struct cur *c, struct tm_parts *t)
{
	size_t n;

	spaces(c);
	t->off_s = 0;
	/* A sign before a digit is an offset; a dash before words is a
	 * dateline's ("02.02.2022 10:16 - 1. Bundesliga"), after the time. */
	if (c->p + 1 < c->end && (*c->p == '+' || *c->p == '-') &&
	    c->p[1] >= '0' && c->p[1] <= '9')
		return iso_offset(c, &t->off_s, &t->zoned);
	n = word(c);
	for (size_t i = 0; i < HEED_ARRAY_SIZE(zones); i++)
		if (heed__ascii_ieq(c->p, n, zones[i].name)) {
			t->off_s = zones[i].minutes * 60;
			t->zoned = true;
			c->p += n;
			/* "GMT+2", "UTC+05:30" */
			if (c->p < c->end && (*c->p == '+' || *c->p == '-'))
				return iso_offset(c, &t->off_s, &t->zoned);
			return true;
		}
	return true;
}

static bool hms(struct cur *c, struct tm_parts *t)
{
	t->has_time = true;
	if (!digits(c, 0, &t->h) || !lit(c, ':') || !digits(c, 2, &t->mi))
		return false;
	t->has_seconds = lit(c, ':');
	return !t->has_seconds || digits(c, 2, &t->s);
}

/* [Wkd,] DD Mon YYYY HH:MM[:SS] zone | Weekday, DD-Mon-YY HH:MM:SS GMT |
 * Wkd Mon  D HH:MM:SS [zone] YYYY (asctime, and date(1)'s default with
 * its zone before the year: "Mon Feb 23 22:24:44 BRT 2015"). */
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
		if (!hms(c, t) || !rfc_zone(c, t))
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
	return hms(c, t) && rfc_zone(c, t);
}

/* ISO 8601 or an RFC 822 family date at the start of s. */
static bool parse_declared(const char *s, size_t len, struct tm_parts *t,
                           size_t *consumed)
{
	struct cur c = {s, s + len};
	bool ok;

	if (len >= 4 && at_digit(&c) && s[1] >= '0' && s[1] <= '9' &&
	    s[2] >= '0' && s[2] <= '9' && s[3] >= '0' && s[3] <= '9')
		ok = parse_iso(&c, t);
	else
		ok = parse_rfc(&c, t);
	*consumed = (size_t)(c.p - s);
	return ok;
}

bool heed__parse_date(const char *s, size_t len, int64_t *unix_s, char iso[32],
                      size_t *consumed)
{
	struct tm_parts t = {0};
	size_t used;

	heed__trim(&s, &len);
	if (!parse_declared(s, len, &t, &used) ||
	    !finish(&t, unix_s, iso, 32, 0))
		return false;
	if (consumed)
		*consumed = used;
	return true;
}

/*
 * Month names and their abbreviations in English, French, German,
 * Spanish, Portuguese, Italian and Dutch, lower case, as pages print them;
 * Russian and Ukrainian month names in the genitive.
 * A name shared by languages ("mar", "juni") is listed once.
 */
static const struct month_name {
	const char *name;
	unsigned char month;
} month_names[] = {
        {"january", 1},
        {"janvier", 1},
        {"januar", 1},
        {"jänner", 1},
        {"enero", 1},
        {"janeiro", 1},
        {"gennaio", 1},
        {"januari", 1},
        {"janv", 1},
        {"jan", 1},
        {"ene", 1},
        {"gen", 1},
        {"february", 2},
        {"février", 2},
        {"fevrier", 2},
        {"februar", 2},
        {"febrero", 2},
        {"fevereiro", 2},
        {"febbraio", 2},
        {"februari", 2},
        {"févr", 2},
        {"fevr", 2},
        {"feb", 2},
        {"fév", 2},
        {"fev", 2},
        {"march", 3},
        {"mars", 3},
        {"märz", 3},
        {"maerz", 3},
        {"marzo", 3},
        {"março", 3},
        {"marco", 3},
        {"maart", 3},
        {"mär", 3},
        {"mrz", 3},
        {"mrt", 3},
        {"mar", 3},
        {"april", 4},
        {"avril", 4},
        {"abril", 4},
        {"aprile", 4},
        {"avr", 4},
        {"apr", 4},
        {"abr", 4},
        {"may", 5},
        {"mai", 5},
        {"mayo", 5},
        {"maio", 5},
        {"maggio", 5},
        {"mei", 5},
        {"mag", 5},
        {"june", 6},
        {"juin", 6},
        {"juni", 6},
        {"junio", 6},
        {"junho", 6},
        {"giugno", 6},
        {"jun", 6},
        {"giu", 6},
        {"july", 7},
        {"juillet", 7},
        {"juli", 7},
        {"julio", 7},
        {"julho", 7},
        {"luglio", 7},
        {"juil", 7},
        {"jul", 7},
        {"lug", 7},
        {"august", 8},
        {"août", 8},
        {"aout", 8},
        {"agosto", 8},
        {"augustus", 8},
        {"aug", 8},
        {"ago", 8},
        {"september", 9},
        {"septembre", 9},
        {"septiembre", 9},
        {"setiembre", 9},
        {"setembro", 9},
        {"settembre", 9},
        {"sept", 9},
        {"sep", 9},
        {"set", 9},
        {"october", 10},
        {"octobre", 10},
        {"oktober", 10},
        {"octubre", 10},
        {"outubro", 10},
        {"ottobre", 10},
        {"oct", 10},
        {"okt", 10},
        {"out", 10},
        {"ott", 10},
        {"november", 11},
        {"novembre", 11},
        {"noviembre", 11},
        {"novembro", 11},
        {"nov", 11},
        {"december", 12},
        {"décembre", 12},
        {"decembre", 12},
        {"dezember", 12},
        {"diciembre", 12},
        {"dezembro", 12},
        {"dicembre", 12},
        {"déc", 12},
        {"dec", 12},
        {"dez", 12},
        {"dic", 12},
        /* Russian and Ukrainian in the genitive, as a date writes them
         * ("15 августа 2016"), lower case as pages print them. */
        {"января", 1},
        {"февраля", 2},
        {"марта", 3},
        {"апреля", 4},
        {"мая", 5},
        {"июня", 6},
        {"июля", 7},
        {"августа", 8},
        {"сентября", 9},
        {"октября", 10},
        {"ноября", 11},
        {"декабря", 12},
        {"січня", 1},
        {"лютого", 2},
        {"березня", 3},
        {"квітня", 4},
        {"травня", 5},
        {"червня", 6},
        {"липня", 7},
        {"серпня", 8},
        {"вересня", 9},
        {"жовтня", 10},
        {"листопада", 11},
        {"грудня", 12},
        /* Arabic: the names Egypt and the Gulf write ("07 أكتوبر
         * 2020"), with their common spellings, and the Levant's ("24
         * نيسان 2020"; two words for four months), which pages often
         * follow with the other after a slash ("نيسان / أبريل"). */
        {"يناير", 1},
        {"فبراير", 2},
        {"مارس", 3},
        {"أبريل", 4},
        {"إبريل", 4},
        {"ابريل", 4},
        {"مايو", 5},
        {"يونيو", 6},
        {"يونيه", 6},
        {"يوليو", 7},
        {"يوليه", 7},
        {"أغسطس", 8},
        {"اغسطس", 8},
        {"سبتمبر", 9},
        {"أكتوبر", 10},
        {"اكتوبر", 10},
        {"نوفمبر", 11},
        {"ديسمبر", 12},
        {"كانون الثاني", 1},
        {"شباط", 2},
        {"آذار", 3},
        {"نيسان", 4},
        {"أيار", 5},
        {"حزيران", 6},
        {"تموز", 7},
        {"آب", 8},
        {"أيلول", 9},
        {"تشرين الأول", 10},
        {"تشرين الثاني", 11},
        {"كانون الأول", 12},
};

/* A letter of a word: ASCII letters and every byte of a UTF-8 sequence
 * ("août", "märz"). */
static bool letter(char ch)
{
	unsigned char u = (unsigned char)ch;

	return (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || u >= 0x80;
}

static size_t text_word(const struct cur *c)
{
	const char *p = c->p;

	while (p < c->end && letter(*p))
		p++;
	return (size_t)(p - c->p);
}

/* The length of name when it opens c (ASCII case folded) as whole words:
 * no letter after it; 0 when it does not. A name may be two words
 * ("كانون الثاني"). */
static size_t name_at(const struct cur *c, const char *name)
{
	size_t n = 0;

	for (; name[n]; n++)
		if (c->p + n >= c->end || heed__ascii_lower(c->p[n]) != name[n])
			return 0;
	return c->p + n < c->end && letter(c->p[n]) ? 0 : n;
}

/* The bytes month names open with (lower case), set once: a word that
 * opens with none of them is refused at one look, not 164 ("1,234
 * views" asks whether "views" is a month, in every form that reads a
 * number first). */
static bool month_initial[256];
static pthread_once_t month_initials_once = PTHREAD_ONCE_INIT;

static void month_initials_init(void)
{
	for (size_t i = 0; i < HEED_ARRAY_SIZE(month_names); i++)
		month_initial[(unsigned char)month_names[i].name[0]] = true;
}

/* The month a word names (ASCII case folded), a "." after it read; 0 when
 * none. */
static int month_word(struct cur *c)
{
	char first = text_word(c) ? heed__ascii_lower(*c->p) : '\0';

	(void)pthread_once(&month_initials_once, month_initials_init);
	if (!month_initial[(unsigned char)first])
		return 0;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(month_names); i++) {
		size_t n = month_names[i].name[0] == first
		                   ? name_at(c, month_names[i].name)
		                   : 0;
		if (n) {
			c->p += n;
			lit(c, '.');
			return month_names[i].month;
		}
	}
	return 0;
}

/* Reads "/ أبريل" after a month's name when it names month mo too: the
 * Levant's name and Egypt's for one month, both written ("24 نيسان /
 * أبريل 2020"). c is unmoved when it does not. */
static void same_month_after_slash(struct cur *c, int64_t mo)
{
	struct cur x = *c;

	spaces(&x);
	if (!lit(&x, '/'))
		return;
	spaces(&x);
	if (month_word(&x) == mo)
		*c = x;
}

/* Skips the given words (lower case) and spaces, in any number. */
static void skip_words(struct cur *c, const char *const *w, size_t n)
{
	for (bool more = true; more;) {
		size_t k;
		more = false;
		spaces(c);
		k = text_word(c);
		for (size_t i = 0; k && i < n; i++)
			if (heed__ascii_ieq(c->p, k, w[i])) {
				c->p += k;
				more = true;
				break;
			}
	}
}

/* A day of the month with what languages write after it: "5.", "5th",
 * "1er", "1º". */
static bool day_number(struct cur *c, int64_t *d)
{
	static const char *const suffixes[] = {
	        "st", "nd", "rd", "th", "er", "e", "o", "a", "\xC2\xBA"};
	size_t n;

	if (!digits(c, 0, d) || *d < 1 || *d > 31)
		return false;
	if (lit(c, '.'))
		return true;
	n = text_word(c);
	for (size_t i = 0; n && i < HEED_ARRAY_SIZE(suffixes); i++)
		if (heed__ascii_ieq(c->p, n, suffixes[i])) {
			c->p += n;
			return true;
		}
	return n == 0;
}

/* A four-digit year that is not the start of a longer number. */
static bool year4(struct cur *c, int64_t *y)
{
	return digits(c, 4, y) && !at_digit(c);
}

/* "Jan 7[,] 2019", "July 05, 2017", "March 3rd 2024". */
static bool month_first(struct cur *c, struct tm_parts *t)
{
	if (!(t->mo = month_word(c)))
		return false;
	spaces(c);
	if (!day_number(c, &t->d))
		return false;
	lit(c, ',');
	spaces(c);
	return year4(c, &t->y);
}

/* "2012 Nov 26": PubMed's citation dates (and Hungarian order). */
static bool year_first(struct cur *c, struct tm_parts *t)
{
	if (!year4(c, &t->y))
		return false;
	spaces(c);
	if (!(t->mo = month_word(c)))
		return false;
	spaces(c);
	return day_number(c, &t->d) && !at_digit(c);
}

/* A UTF-8 mark at c, read past; false (c unmoved) when another. */
static bool mark(struct cur *c, const char *m)
{
	size_t n = strlen(m);

	if ((size_t)(c->end - c->p) < n || memcmp(c->p, m, n) != 0)
		return false;
	c->p += n;
	return true;
}

/* "2020年07月03日" (Chinese, Japanese) and "2020년 7월 3일" (Korean): the
 * year, the month and the day each followed by its character. */
static bool year_marked(struct cur *c, struct tm_parts *t)
{
	static const char *const marks[][3] = {
	        {"\xE5\xB9\xB4", "\xE6\x9C\x88", "\xE6\x97\xA5"},
	        {"\xEB\x85\x84", "\xEC\x9B\x94", "\xEC\x9D\xBC"}};

	struct cur y = *c;

	/* Both years' marks open with a byte no other form has there. */
	if (!digits(&y, 4, &t->y) || y.p == y.end ||
	    (*y.p != marks[0][0][0] && *y.p != marks[1][0][0]))
		return false;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(marks); i++) {
		struct cur x = *c;
		if (digits(&x, 4, &t->y) && mark(&x, marks[i][0]) &&
		    (spaces(&x), digits(&x, 0, &t->mo)) &&
		    mark(&x, marks[i][1]) &&
		    (spaces(&x), digits(&x, 0, &t->d)) &&
		    mark(&x, marks[i][2])) {
			*c = x;
			return true;
		}
	}
	return false;
}

/* "5 March 2024", "12 Jan, 2016", "5. März 2024", "3 de marzo de 2024",
 * "1er mars 2024", "the 5th of March, 2024". */
static bool day_first(struct cur *c, struct tm_parts *t)
{
	static const char *const links[] = {"de", "del", "of"};

	if (!day_number(c, &t->d))
		return false;
	skip_words(c, links, HEED_ARRAY_SIZE(links));
	if (!(t->mo = month_word(c)))
		return false;
	same_month_after_slash(c, t->mo);
	lit(c, ',');
	skip_words(c, links, HEED_ARRAY_SIZE(links));
	return year4(c, &t->y);
}

/* Which of two numbers is the day in "a/b/YYYY" when both could be. */
enum dm_order { DM_REFUSE, DM_DAY_FIRST, DM_MONTH_FIRST };

/* Languages whose people write a numeric date with dots ("01.11.2023"),
 * or dashes, never slashes: a slashed one on their pages is software's,
 * and software written for the US puts the month first ("11/01/2023
 * 12:43:42" in the <meta name=date> of a Swiss page showing "Erstellt am:
 * 01.11.2023"), so their language does not settle it. */
static bool slash_foreign(const char *lang, size_t n)
{
	static const char *const no_slash[] = {"de", "ru", "pl", "cs", "sk",
	                                       "fi", "uk", "tr", "nb", "no"};

	return heed__ascii_ieq_any(lang, n, no_slash,
	                           HEED_ARRAY_SIZE(no_slash));
}

/*
 * The page's language settles the order of "a/b/YYYY" or "a-b-YYYY"
 * (sep): English as written in the US (and the Philippines) puts the
 * month first; English elsewhere and every other language put the day
 * first. Bare "en", en-CA (both orders are in use), a page with no
 * language and a slash in a language that writes none (see
 * slash_foreign) settle nothing.
 */
static enum dm_order dm_order_of(const char *lang, char sep)
{
	size_t n = lang ? strcspn(lang, "-_") : 0;

	if (!n || (sep == '/' && slash_foreign(lang, n)))
		return DM_REFUSE;
	if (!heed__ascii_ieq(lang, n, "en"))
		return DM_DAY_FIRST;
	if (!lang[n])
		return DM_REFUSE;
	lang += n + 1;
	if (heed__ascii_ieq(lang, strlen(lang), "us") ||
	    heed__ascii_ieq(lang, strlen(lang), "ph"))
		return DM_MONTH_FIRST;
	if (heed__ascii_ieq(lang, strlen(lang), "ca"))
		return DM_REFUSE;
	return DM_DAY_FIRST;
}

/* The two-digit year of a dotted date ("31.10.23", as German and Swiss
 * news sites write it), read as POSIX strptime's %y reads one: 69 to 99
 * are 1969 to 1999, 00 to 68 are 2000 to 2068. Not the start of a longer
 * number or of a further dotted part ("1.2.12.4", a version). */
static bool dotted_yy(struct cur *c, int64_t *y)
{
	struct cur x = *c;

	if (!digits(&x, 2, y) || at_digit(&x) ||
	    (x.p + 1 < x.end && x.p[0] == '.' && x.p[1] >= '0' &&
	     x.p[1] <= '9'))
		return false;
	*y += *y < 69 ? 2000 : 1900;
	*c = x;
	return true;
}

/*
 * Numbers only: "2024/03/05", "2024.03.05", "05.03.2024" (a dotted date is
 * day first everywhere it is written; also "05.03.24"), "12/01/2016" or
 * "12-01-2016", where a number over 12 is the day and otherwise lang decides.
 */
/* The space after a dot in a dotted date, as typesetting writes it: a
 * space, a thin space (U+2009, "&thinsp;"), a narrow no-break space
 * (U+202F) or a no-break space ("4.&thinsp;2.&thinsp;2022", "4. 2. 2022"
 * as DIN 5008 spaces it). */
static bool dot_gap(struct cur *c, char sep)
{
	size_t n = 0;

	if (sep != '.' || c->p >= c->end)
		return false;
	if (*c->p == ' ')
		n = 1;
	else if (c->end - c->p >= 3 && memcmp(c->p, "\xE2\x80", 2) == 0 &&
	         (c->p[2] == '\x89' || c->p[2] == '\xAF'))
		n = 3;
	else if (c->end - c->p >= 2 && memcmp(c->p, "\xC2\xA0", 2) == 0)
		n = 2;
	c->p += n;
	return n > 0;
}

static bool numeric(struct cur *c, struct tm_parts *t, const char *lang)
{
	int64_t a, b;
	char sep;
	bool gap;

	struct cur y = *c;

	if (digits(&y, 4, &t->y) && !lit(&y, '-')) {
		*c = y;
		if (c->p >= c->end || (*c->p != '/' && *c->p != '.'))
			return false;
		sep = *c->p++;
		return digits(c, 0, &t->mo) && lit(c, sep) &&
		       digits(c, 0, &t->d) && !at_digit(c);
	}
	if (!digits(c, 0, &a) || a > 31 || c->p >= c->end)
		return false;
	sep = *c->p;
	if ((sep != '/' && sep != '.' && sep != '-') || !lit(c, sep))
		return false;
	gap = dot_gap(c, sep);
	if (!digits(c, 0, &b) || b > 31 || !lit(c, sep))
		return false;
	gap |= dot_gap(c, sep);
	y = *c;
	/* A spaced date writes its year in full: "1. 2. 12" is a list's. */
	if (!year4(c, &t->y)) {
		*c = y;
		if (sep != '.' || gap || !dotted_yy(c, &t->y))
			return false;
	}
	if (sep == '.' || a > 12 || b == a) {
		t->d = a, t->mo = b;
		return true;
	}
	if (b > 12) {
		t->mo = a, t->d = b;
		return true;
	}
	switch (dm_order_of(lang, sep)) {
	case DM_DAY_FIRST:
		t->d = a, t->mo = b;
		return true;
	case DM_MONTH_FIRST:
		t->mo = a, t->d = b;
		return true;
	default:
		return false;
	}
}

/* "am", "a.m.", "pm" or "p.m." after a time: a 12-hour clock. */
static void meridiem(struct cur *c, struct tm_parts *t)
{
	static const struct {
		const char *s;
		bool pm;
	} marks[] = {
	        {"a.m.", false}, {"p.m.", true}, {"am", false}, {"pm", true}};

	if (t->h < 1 || t->h > 12)
		return;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(marks); i++) {
		size_t n = strlen(marks[i].s);
		if ((size_t)(c->end - c->p) >= n &&
		    heed__ascii_ieq(c->p, n, marks[i].s)) {
			c->p += n;
			t->h = t->h % 12 + (marks[i].pm ? 12 : 0);
			return;
		}
	}
}

/* "12.34", "10:34 PM", "22h30", "3:05:10 p.m.". */
static bool clock_time(struct cur *c, struct tm_parts *t)
{
	if (!digits(c, 0, &t->h) || t->h > 24 || c->p >= c->end ||
	    !strchr(":.h", *c->p) || !*c->p)
		return false;
	c->p++;
	if (!digits(c, 2, &t->mi))
		return false;
	t->has_seconds = lit(c, ':');
	if (t->has_seconds && !digits(c, 2, &t->s))
		return false;
	spaces(c);
	meridiem(c, t);
	/* German writes the hour's word after the time: "10:16 Uhr". */
	if ((size_t)(c->end - c->p) >= 3 && heed__ascii_ieq(c->p, 3, "uhr") &&
	    word(c) == 3)
		c->p += 3;
	t->has_time = true;
	return true;
}

/* What may stand between a date and its time: ", at", "um", "à", "a las",
 * "às", "alle", "om", "-", "|". */
static void time_lead(struct cur *c)
{
	static const char *const w[] = {"at",   "um", "a",        "las",
	                                "alle", "om", "\xC3\xA0", "\xC3\xA0s"};

	spaces(c);
	while (c->p < c->end && strchr(",-|", *c->p) && *c->p) {
		c->p++;
		spaces(c);
	}
	skip_words(c, w, HEED_ARRAY_SIZE(w));
}

/* A time after a date, with its zone; a broken time leaves the date
 * alone. */
static void optional_time(struct cur *c, struct tm_parts *t)
{
	struct cur save = *c;
	struct tm_parts keep = *t;

	time_lead(c);
	if (!clock_time(c, t) || !rfc_zone(c, t)) {
		*c = save;
		*t = keep;
	}
}

/* Whether the number at c, if any, could open a valid date: every form
 * that reads a number first wants a year of four digits, YYYYMMDD or a
 * day of the month (1 to 31; leading zeros allowed, as digits() reads
 * them). A count opening a text ("12,345 views") is refused here at one
 * look, not by each form in turn. */
static bool number_may_open_date(const struct cur *c)
{
	struct cur x = *c;
	int64_t v;
	size_t n;

	if (!digits(&x, 0, &v))
		return true;
	n = (size_t)(x.p - c->p);
	return n == 4 || n == 8 || (v >= 1 && v <= 31);
}

/* One date at c in any of the forms read: declared (ISO 8601, RFC 822)
 * or as text. */
static bool text_date_at(struct cur *c, struct tm_parts *t, const char *lang)
{
	bool (*const forms[])(struct cur *, struct tm_parts *) = {
	        month_first, day_first, year_first, year_marked};
	struct cur start = *c;
	size_t used;

	if (!number_may_open_date(c))
		return false;
	if (parse_declared(c->p, (size_t)(c->end - c->p), t, &used)) {
		c->p += used;
		/* "28 October 2016, at 06:56": RFC 822 wants no comma */
		if (!t->has_time)
			optional_time(c, t);
		return true;
	}
	for (size_t i = 0; i <= HEED_ARRAY_SIZE(forms); i++) {
		*c = start;
		memset(t, 0, sizeof(*t));
		if (i < HEED_ARRAY_SIZE(forms) ? forms[i](c, t)
		                               : numeric(c, t, lang)) {
			optional_time(c, t);
			return true;
		}
	}
	return false;
}

/* Text longer than this is no date line (a byline with a date is short). */
#define MAX_DATE_TEXT 256

/* True when p starts a word or a number in s. A no-break space (U+00A0,
 * as "&nbsp;" writes it: "Bonn,&nbsp;11.10.2021") separates words, though
 * its bytes are those of a letter's UTF-8 sequence. */
static bool token_start(const char *s, const char *p)
{
	if (p - s >= 2 && p[-2] == '\xC2' && p[-1] == '\xA0')
		return true;
	return p == s || !(letter(p[-1]) || (p[-1] >= '0' && p[-1] <= '9'));
}

/* The first valid date in the text, at the start of a word or number. */
static bool first_date(const char *s, size_t len, const char *lang,
                       struct tm_parts *t, int64_t *unix_s,
                       char iso[HEED_DATE_ISO_MAX])
{
	heed__trim(&s, &len);
	if (len > MAX_DATE_TEXT)
		len = MAX_DATE_TEXT;
	for (const char *p = s; p < s + len; p++) {
		struct cur c = {p, s + len};
		memset(t, 0, sizeof(*t));
		if (token_start(s, p) && text_date_at(&c, t, lang) &&
		    finish(t, unix_s, iso, HEED_DATE_ISO_MAX, t->off_s))
			return true;
	}
	return false;
}

size_t heed__page_date_len(const char *s, size_t len, const char *lang)
{
	struct cur c = {s, s + (len < MAX_DATE_TEXT ? len : MAX_DATE_TEXT)};
	struct tm_parts t = {0};
	char iso[HEED_DATE_ISO_MAX];
	int64_t unix_s;

	if (!text_date_at(&c, &t, lang) ||
	    !finish(&t, &unix_s, iso, HEED_DATE_ISO_MAX, t.off_s))
		return 0;
	return (size_t)(c.p - s);
}

bool heed__month_opens(const char *s, size_t len)
{
	struct cur c = {s, s + len};

	return month_word(&c) != 0;
}

bool heed__parse_page_date(const char *s, size_t len, const char *lang,
                           int64_t *unix_s, char iso[HEED_DATE_ISO_MAX],
                           struct heed__date_form *form)
{
	struct tm_parts t;

	if (!first_date(s, len, lang, &t, unix_s, iso))
		return false;
	if (form) {
		form->wall_clock = t.has_time && !t.zoned;
		form->seconds = t.has_seconds;
	}
	return true;
}

bool heed__date_at_offset(const char *iso, int64_t off_s,
                          char out[HEED_DATE_ISO_MAX])
{
	struct cur c = {iso, iso + strlen(iso)};
	struct tm_parts t = {0};
	int64_t unix_s;

	return parse_iso(&c, &t) && c.p == c.end && t.has_time && !t.off_s &&
	       finish(&t, &unix_s, out, HEED_DATE_ISO_MAX, off_s);
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

/* Days since 1970-01-01 of the last Sunday of month m (31 days long) of
 * year y; 1970-01-01 was a Thursday. */
static int64_t last_sunday(int64_t y, int64_t m)
{
	int64_t last = days_from_civil(y, m, 31);

	return last - ((last % 7 + 11) % 7);
}

/* True while the European Union's summer time holds at unix_s: "from
 * 1.00 a.m. (GMT) on the last Sunday in March" to "1.00 a.m. (GMT) on
 * the last Sunday in October" (Directive 2000/84/EC, Articles 2 and 3). */
static bool eu_summer(int64_t unix_s)
{
	int64_t days =
	        unix_s >= 0 ? unix_s / 86400 : -((-unix_s + 86399) / 86400);
	int64_t y, m, d;

	civil_from_days(days, &y, &m, &d);
	return unix_s >= last_sunday(y, 3) * 86400 + 3600 &&
	       unix_s < last_sunday(y, 10) * 86400 + 3600;
}

/* The languages spoken in one civil zone, or nearly so (two-letter
 * codes, each followed by a space or the end), with its offset from UTC
 * in hours and whether it keeps the EU's summer time. */
static const struct {
	const char *langs;
	signed char hours;
	bool eu_summer;
} one_zone_langs[] = {
        /* Central European Time: +01:00, +02:00 in summer. */
        {"cs da de hr hu it lb nb nl nn no pl sk sl sv", 1, true},
        /* Eastern European Time: +02:00, +03:00 in summer. */
        {"bg el et fi lt lv ro", 2, true},
        /* China's time (also Taiwan's and Hong Kong's); Japan's and
         * Korea's. Neither has a summer time. */
        {"zh", 8, false},
        {"ja ko", 9, false}};

/* True when the list of two-letter codes names the code lang[0, 2). */
static bool lang_listed(const char *list, const char *lang)
{
	for (const char *p = list; p[0] && p[1]; p += p[2] ? 3 : 2)
		if (heed__ascii_lower(lang[0]) == p[0] &&
		    heed__ascii_lower(lang[1]) == p[1])
			return true;
	return false;
}

/* True when iso's time has no fraction or a fraction of zeros alone
 * ("T23:00:00.000Z"). */
static bool whole_second(const char *iso)
{
	const char *p = strchr(iso, '.');

	if (!p)
		return true;
	while (*++p == '0')
		;
	return *p == 'Z';
}

bool heed__local_midnight(const char *iso, int64_t unix_s, const char *lang,
                          char out[HEED_DATE_ISO_MAX])
{
	size_t n = lang ? strcspn(lang, "-_") : 0;
	int64_t off;

	if (n != 2 || !whole_second(iso))
		return false;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(one_zone_langs); i++) {
		if (!lang_listed(one_zone_langs[i].langs, lang))
			continue;
		off = one_zone_langs[i].hours * 3600;
		if (one_zone_langs[i].eu_summer && eu_summer(unix_s))
			off += 3600;
		return ((unix_s + off) % 86400 + 86400) % 86400 == 0 &&
		       heed__date_at_offset(iso, off, out);
	}
	return false;
}
