/*
 * How long an answer stays fresh: the freshness lifetime a private cache
 * computes (RFC 9111 4.2.1) from Cache-Control (5.2), Expires (5.3) and
 * Date (RFC 9110 6.6.1). heed keeps robots.txt, sitemaps and feeds; this
 * tells it when to ask again. Pure: no clock (now_s is given), no locale,
 * every token bounded by the input's end, so any bytes are safe.
 *
 * Choices the RFC leaves open, and heed's answer (the most restrictive one,
 * as 4.2.1 asks when directives conflict):
 *  - two max-age directives (or two Expires lines, which the fetcher joins
 *    with ", " so that they no longer parse as one date): "either the first
 *    occurrence should be used or the response should be considered stale";
 *    heed considers it stale (0).
 *  - a max-age that is not 1*DIGIT (negative, fractional, empty, missing):
 *    invalid freshness information, stale (0).
 *  - no-cache, with or without a field list: 0. The qualified form would
 *    allow reuse without the listed fields, but heed keeps the whole answer
 *    and most caches treat both forms alike (5.2.2.4).
 * Ignored: private and public (heed is a private cache, the only one that
 * reads what it keeps), s-maxage (shared caches only), must-revalidate and
 * the like (they speak of stale answers), extensions (5.2.3). The Age
 * header is not read: heed fetches from the origin, not through caches.
 */
#include <string.h>

#include "heed/politeness.h"
#include "net/net-int.h"

/* RFC 9111 1.2.2: a delta-seconds too big to represent is 2^31. */
#define FRESH_MAX_S 2147483648LL

/* What the Cache-Control directives said. */
struct fresh_cc {
	bool no_cache;     /* no-cache or no-store */
	unsigned max_ages; /* max-age directives seen */
	bool max_age_bad;  /* one of them was not 1*DIGIT */
	int64_t max_age;   /* the value of the last one */
};

/* A cursor over the field value (curl's strparse habit). */
struct cur {
	const char *p, *end;
};

/* RFC 9110 5.6.2: tchar. */
static bool tchar(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || (c && strchr("!#$%&'*+-.^_`|~", c));
}

static void skip_ows(struct cur *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t'))
		c->p++;
}

/* The run of tchars at the cursor, as [*start, c->p). */
static size_t token(struct cur *c, const char **start)
{
	*start = c->p;
	while (c->p < c->end && tchar(*c->p))
		c->p++;
	return (size_t)(c->p - *start);
}

/* A quoted-string at the cursor (RFC 9110 5.6.4), its inside as
 * [*start, *start + *len) with any quoted-pairs left in. False when it
 * never ends: the value runs to the end of the field. */
static bool quoted(struct cur *c, const char **start, size_t *len)
{
	c->p++; /* the opening DQUOTE */
	*start = c->p;
	while (c->p < c->end && *c->p != '"') {
		if (*c->p == '\\' && c->p + 1 < c->end)
			c->p++;
		c->p++;
	}
	*len = (size_t)(c->p - *start);
	if (c->p >= c->end)
		return false;
	c->p++; /* the closing DQUOTE */
	return true;
}

/* Moves past the rest of a malformed list member, to its comma (one
 * outside quotes: a comma inside a quoted-string belongs to it). */
static void skip_member(struct cur *c)
{
	while (c->p < c->end && *c->p != ',') {
		if (*c->p == '"') {
			const char *s;
			size_t n;

			quoted(c, &s, &n);
		} else {
			c->p++;
		}
	}
}

/* delta-seconds = 1*DIGIT (RFC 9111 1.2.2), saturated at 2^31. */
static bool delta_seconds(const char *s, size_t len, int64_t *out)
{
	int64_t v = 0;
	size_t i;

	if (len == 0)
		return false;
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		if (v < FRESH_MAX_S)
			v = v * 10 + (s[i] - '0');
	}
	*out = v < FRESH_MAX_S ? v : FRESH_MAX_S;
	return true;
}

/* Applies one directive. value is NULL when none was given; ok is false
 * when the member was malformed (a bad value, junk after it). */
static void directive(struct fresh_cc *cc, const char *name, size_t name_len,
                      const char *value, size_t value_len, bool ok)
{
	if (heed__ascii_ieq(name, name_len, "no-cache") ||
	    heed__ascii_ieq(name, name_len, "no-store")) {
		cc->no_cache = true;
	} else if (heed__ascii_ieq(name, name_len, "max-age")) {
		cc->max_ages++;
		/* The quoted form "max-age=\"5\"" is one a sender must not
		 * generate, yet recipients ought to accept it (5.2). */
		if (!ok || !value ||
		    !delta_seconds(value, value_len, &cc->max_age))
			cc->max_age_bad = true;
	}
}

/* One list member: token [ "=" ( token / quoted-string ) ], then OWS and a
 * comma or the end. OWS around "=" is tolerated. */
static void member(struct cur *c, struct fresh_cc *cc)
{
	const char *name, *value = NULL;
	size_t name_len, value_len = 0;
	bool ok = true;

	name_len = token(c, &name);
	skip_ows(c);
	if (c->p < c->end && *c->p == '=') {
		c->p++;
		skip_ows(c);
		if (c->p < c->end && *c->p == '"')
			ok = quoted(c, &value, &value_len);
		else
			value_len = token(c, &value);
		skip_ows(c);
	}
	if (c->p < c->end && *c->p != ',') {
		ok = false;
		skip_member(c);
	}
	if (name_len > 0)
		directive(cc, name, name_len, value, value_len, ok);
}

/* Cache-Control = #cache-directive: empty members and OWS around commas
 * are allowed (RFC 9110 5.6.1). */
static void parse_cache_control(const char *text, struct fresh_cc *cc)
{
	struct cur c = {text, text + strlen(text)};

	while (c.p < c.end) {
		skip_ows(&c);
		if (c.p < c.end && *c.p == ',') {
			c.p++;
			continue;
		}
		if (c.p < c.end)
			member(&c, cc);
	}
}

/* An HTTP date with the field's surrounding white space trimmed. */
static bool http_date(const char *text, int64_t *out)
{
	size_t len = strlen(text);

	while (len && heed__ascii_space(text[0])) {
		text++;
		len--;
	}
	while (len && heed__ascii_space(text[len - 1]))
		len--;
	return heed_http_date_parse(text, len, out) == HEED_OK;
}

int64_t heed_net_fresh_for(const char *cache_control, const char *expires,
                           const char *date, int64_t now_s)
{
	struct fresh_cc cc = {0};
	int64_t until, origin;

	if (cache_control)
		parse_cache_control(cache_control, &cc);
	if (cc.no_cache)
		return 0;
	/* max-age overrides Expires (5.3). */
	if (cc.max_ages > 1 || cc.max_age_bad)
		return 0;
	if (cc.max_ages == 1)
		return cc.max_age;
	if (!expires)
		return -1;
	/* "0" and any other invalid date mean already expired (5.3). */
	if (!http_date(expires, &until))
		return 0;
	/* Expires minus Date: the origin's own clock on both sides, so a
	 * skewed clock at either end does not matter (4.2.1). */
	if (!date || !http_date(date, &origin))
		origin = now_s;
	if (until <= origin)
		return 0;
	return until - origin < FRESH_MAX_S ? until - origin : FRESH_MAX_S;
}
