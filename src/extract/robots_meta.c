/*
 * Robots directives from <meta name=robots content=...>,
 * <meta name=AGENT content=...> and the X-Robots-Tag header, as Google
 * (developers.google.com/search/docs/crawling-indexing/robots-meta-tag) and
 * Bing document them: noindex, nofollow, none (= noindex, nofollow), all,
 * noarchive (and nocache), nosnippet, noimageindex, max-snippet:N and
 * unavailable_after:DATE. Directives merge; the most restrictive wins.
 *
 * In a header, "AGENT: directives" applies the directives after it to that
 * agent only, until the next agent prefix; unprefixed directives apply to
 * every agent. A date may contain commas ("Wed, 03 Nov 2010 ..."), so a
 * date is read by the date parser, not split at commas.
 */
#include "extract/extract-int.h"

void heed_extract_robots_init(struct heed_extract_robots *d)
{
	memset(d, 0, sizeof(*d));
	d->max_snippet = -1;
	d->unavailable_after_s = HEED_NO_DATE;
}

static bool is_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.' ||
	       c == '*' || c == '/';
}

static bool is_sep(char c)
{
	return c == ',' || c == ';' || c == ' ' || c == '\t' || c == '\r' ||
	       c == '\n';
}

static void flag(struct heed_extract_robots *d, bool *f, bool apply)
{
	if (apply) {
		*f = true;
		d->count++;
	}
}

/* Applies a valueless directive; false when name is not one. */
static bool simple(struct heed_extract_robots *d, const char *n, size_t len,
                   bool apply)
{
	if (heed__ascii_ieq(n, len, "noindex"))
		flag(d, &d->noindex, apply);
	else if (heed__ascii_ieq(n, len, "nofollow"))
		flag(d, &d->nofollow, apply);
	else if (heed__ascii_ieq(n, len, "none")) {
		flag(d, &d->noindex, apply);
		flag(d, &d->nofollow, apply);
	} else if (heed__ascii_ieq(n, len, "noarchive") ||
	           heed__ascii_ieq(n, len, "nocache"))
		flag(d, &d->noarchive, apply);
	else if (heed__ascii_ieq(n, len, "nosnippet"))
		flag(d, &d->nosnippet, apply);
	else if (heed__ascii_ieq(n, len, "noimageindex"))
		flag(d, &d->noimageindex, apply);
	else if (!heed__ascii_ieq(n, len, "all") &&
	         !heed__ascii_ieq(n, len, "index") &&
	         !heed__ascii_ieq(n, len, "follow"))
		return false;
	return true;
}

static bool valued(const char *n, size_t len)
{
	return heed__ascii_ieq(n, len, "max-snippet") ||
	       heed__ascii_ieq(n, len, "unavailable_after") ||
	       heed__ascii_ieq(n, len, "max-image-preview") ||
	       heed__ascii_ieq(n, len, "max-video-preview");
}

/* Reads the value of a valued directive at *p; returns the bytes used. */
static size_t value(struct heed_extract_robots *d, const char *n, size_t nlen,
                    const char *p, size_t left, bool apply)
{
	size_t used = 0;

	while (used < left && (p[used] == ' ' || p[used] == '\t'))
		used++;
	if (heed__ascii_ieq(n, nlen, "unavailable_after")) {
		int64_t t;
		char iso[32];
		size_t got = 0;
		if (!heed__parse_date(p + used, left - used, &t, iso, &got)) {
			while (used < left && p[used] != ',')
				used++;
			return used;
		}
		if (apply && (d->unavailable_after_s == HEED_NO_DATE ||
		              t < d->unavailable_after_s)) {
			d->unavailable_after_s = t;
			d->count++;
		}
		return used + got;
	}
	{
		size_t k = used;
		int64_t v;
		while (k < left && !is_sep(p[k]))
			k++;
		if (apply && heed__ascii_ieq(n, nlen, "max-snippet") &&
		    heed__parse_count(p + used, k - used, &v) &&
		    (d->max_snippet < 0 || v < d->max_snippet)) {
			d->max_snippet = v;
			d->count++;
		}
		return k;
	}
}

/* The shared tokenizer; header mode reads agent prefixes. */
static void parse(struct heed_extract_robots *d, const char *s, size_t len,
                  const char *agent, bool header)
{
	bool apply = true;
	size_t i = 0;

	while (i < len) {
		size_t start, nlen;
		while (i < len && is_sep(s[i]))
			i++;
		start = i;
		while (i < len && is_name_char(s[i]))
			i++;
		nlen = i - start;
		if (nlen == 0) {
			i++; /* a stray character */
			continue;
		}
		while (i < len && (s[i] == ' ' || s[i] == '\t'))
			i++;
		if (i < len && s[i] == ':') {
			i++;
			if (valued(s + start, nlen)) {
				i += value(d, s + start, nlen, s + i, len - i,
				           apply);
			} else if (header) {
				apply = heed__ascii_ieq(s + start, nlen, "*") ||
				        (agent && heed__ascii_ieq(s + start,
				                                  nlen, agent));
			}
			continue;
		}
		simple(d, s + start, nlen, apply);
	}
}

void heed__robots_meta(struct heed_extract_robots *d, const char *s, size_t len)
{
	parse(d, s, len, NULL, false);
}

void heed_extract_robots_header(struct heed_extract_robots *d,
                                const char *value, size_t len,
                                const char *agent)
{
	parse(d, value, len, agent, true);
}
