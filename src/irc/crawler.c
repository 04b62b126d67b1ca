/*
 * The CRAWLER ISUPPORT token (IRCv3 draft "Crawler Preference",
 * shared/seeds/irc-crawler-preference.md) and when heed may come back.
 *
 *   CRAWLER=<key>[:<value>][,<key2>[:<value2>]...]
 *
 * Where the spec is silent heed reads the token courteously:
 *  - "If a crawler encounters the token without a value then it MUST
 *    ignore the token": CRAWLER and CRAWLER= mean no preference.
 *  - Keys match exactly (case-sensitive, as ISUPPORT values are); unknown
 *    keys are ignored, as IRCv3 STS does, and noted.
 *  - A value is split from its key at the first colon, so index:allow:x has
 *    the value "allow:x", which is not allow.
 *  - "index ... MUST be specified", its value "MUST be either allow or
 *    deny", and spec keys "MUST only occur at most once": a token breaking
 *    any of these is INVALID and read as "do not index" for the default
 *    cooldown, so a mistake never opens a network that meant to close.
 *  - cooldown "MUST be a duration in seconds": anything but a non-negative
 *    decimal that fits in int64 falls back to 3600.
 */
#include <stdio.h>
#include <string.h>

#include "irc/irc-int.h"

static bool key_is(const char *k, size_t klen, const char *lit)
{
	return strlen(lit) == klen && memcmp(k, lit, klen) == 0;
}

/* Decimal seconds, or -1 when not a non-negative int64. */
static int64_t parse_seconds(const char *v, size_t len)
{
	int64_t n = 0;

	if (len == 0)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (v[i] < '0' || v[i] > '9')
			return -1;
		if (n > (INT64_MAX - (v[i] - '0')) / 10)
			return -1;
		n = n * 10 + (v[i] - '0');
	}
	return n;
}

struct datum_state {
	int index_seen, cooldown_seen;
	heed_irc_crawler_verdict index;
	int64_t cooldown;
	unsigned problems;
};

static void read_index(struct datum_state *st, const char *v, size_t vlen,
                       bool has_v)
{
	st->index_seen++;
	if (has_v && key_is(v, vlen, "allow"))
		st->index = HEED_IRC_CRAWLER_ALLOW;
	else if (has_v && key_is(v, vlen, "deny"))
		st->index = HEED_IRC_CRAWLER_DENY;
	else
		st->problems |= HEED_IRC_CRAWLER_BAD_INDEX;
}

static void read_cooldown(struct datum_state *st, const char *v, size_t vlen,
                          bool has_v)
{
	int64_t s = has_v ? parse_seconds(v, vlen) : -1;

	st->cooldown_seen++;
	if (s < 0)
		st->problems |= HEED_IRC_CRAWLER_BAD_COOLDOWN;
	else
		st->cooldown = s;
}

static void read_datum(struct datum_state *st, const char *d, size_t len)
{
	const char *colon = memchr(d, ':', len);
	size_t klen = colon ? (size_t)(colon - d) : len;
	const char *v = colon ? colon + 1 : "";
	size_t vlen = colon ? len - klen - 1 : 0;

	if (len == 0) {
		st->problems |= HEED_IRC_CRAWLER_EMPTY_DATUM;
		return;
	}
	if (key_is(d, klen, "index")) {
		read_index(st, v, vlen, colon != NULL);
		return;
	}
	if (key_is(d, klen, "cooldown")) {
		read_cooldown(st, v, vlen, colon != NULL);
		return;
	}
	st->problems |= HEED_IRC_CRAWLER_UNKNOWN_KEY;
	if (heed__ascii_ieq(d, klen, "index") ||
	    heed__ascii_ieq(d, klen, "cooldown"))
		st->problems |= HEED_IRC_CRAWLER_KEY_CASE;
}

void heed_irc_crawler_parse(const char *value, size_t len, bool has_value,
                            struct heed_irc_crawler_pref *out)
{
	struct datum_state st = {0, 0, HEED_IRC_CRAWLER_NONE,
	                         HEED_IRC_CRAWLER_DEFAULT_COOLDOWN, 0};
	size_t start = 0;

	out->verdict = HEED_IRC_CRAWLER_NONE;
	out->cooldown_s = HEED_IRC_CRAWLER_DEFAULT_COOLDOWN;
	out->problems = 0;
	if (!has_value || len == 0) {
		out->problems = HEED_IRC_CRAWLER_NO_VALUE;
		return;
	}
	for (size_t i = 0; i <= len; i++) {
		if (i < len && value[i] != ',')
			continue;
		read_datum(&st, value + start, i - start);
		start = i + 1;
	}
	if (st.index_seen > 1 || st.cooldown_seen > 1)
		st.problems |= HEED_IRC_CRAWLER_DUPLICATE_KEY;
	if (st.index_seen == 0)
		st.problems |= HEED_IRC_CRAWLER_NO_INDEX;
	out->problems = st.problems;
	if (st.problems &
	    (HEED_IRC_CRAWLER_NO_INDEX | HEED_IRC_CRAWLER_BAD_INDEX |
	     HEED_IRC_CRAWLER_DUPLICATE_KEY)) {
		out->verdict = HEED_IRC_CRAWLER_INVALID;
		return;
	}
	out->verdict = st.index;
	out->cooldown_s = st.cooldown;
}

void heed_irc_crawler_from_isupport(const heed_irc_isupport *is,
                                    struct heed_irc_crawler_pref *out)
{
	const char *v = NULL;
	bool has = false;

	if (!heed_irc_isupport_get(is, "CRAWLER", &v, &has)) {
		out->verdict = HEED_IRC_CRAWLER_NONE;
		out->cooldown_s = HEED_IRC_CRAWLER_DEFAULT_COOLDOWN;
		out->problems = 0;
		return;
	}
	heed_irc_crawler_parse(v, has ? strlen(v) : 0, has, out);
}

bool heed_irc_crawler_denies(const struct heed_irc_crawler_pref *pref)
{
	return pref->verdict == HEED_IRC_CRAWLER_DENY ||
	       pref->verdict == HEED_IRC_CRAWLER_INVALID;
}

/* Restrictiveness order: NONE < ALLOW < DENY < INVALID. */
static int strictness(heed_irc_crawler_verdict v)
{
	switch (v) {
	case HEED_IRC_CRAWLER_ALLOW:
		return 1;
	case HEED_IRC_CRAWLER_DENY:
		return 2;
	case HEED_IRC_CRAWLER_INVALID:
		return 3;
	default:
		return 0;
	}
}

void heed_irc_crawler_merge(struct heed_irc_crawler_pref *into,
                            const struct heed_irc_crawler_pref *other)
{
	if (strictness(other->verdict) > strictness(into->verdict))
		into->verdict = other->verdict;
	if (other->cooldown_s > into->cooldown_s)
		into->cooldown_s = other->cooldown_s;
	into->problems |= other->problems;
}

const char *heed_irc_crawler_verdict_name(heed_irc_crawler_verdict v)
{
	switch (v) {
	case HEED_IRC_CRAWLER_NONE:
		return "none";
	case HEED_IRC_CRAWLER_ALLOW:
		return "allow";
	case HEED_IRC_CRAWLER_DENY:
		return "deny";
	case HEED_IRC_CRAWLER_INVALID:
		return "invalid";
	}
	return "unknown";
}

void heed_irc_crawler_describe_problems(unsigned problems, char *buf,
                                        size_t size)
{
	static const struct {
		unsigned flag;
		const char *text;
	} texts[] = {
	        {HEED_IRC_CRAWLER_NO_VALUE, "token without a value (ignored)"},
	        {HEED_IRC_CRAWLER_NO_INDEX, "no index key"},
	        {HEED_IRC_CRAWLER_BAD_INDEX, "index is neither allow nor deny"},
	        {HEED_IRC_CRAWLER_DUPLICATE_KEY, "a key is given twice"},
	        {HEED_IRC_CRAWLER_BAD_COOLDOWN,
	         "cooldown is not a number of seconds (3600 used)"},
	        {HEED_IRC_CRAWLER_KEY_CASE,
	         "a key differs from index/cooldown only by case"},
	        {HEED_IRC_CRAWLER_UNKNOWN_KEY, "unknown key ignored"},
	        {HEED_IRC_CRAWLER_EMPTY_DATUM, "empty item ignored"},
	};
	size_t n = 0;

	if (size == 0)
		return;
	buf[0] = '\0';
	for (size_t i = 0; i < HEED_ARRAY_SIZE(texts); i++) {
		if (!(problems & texts[i].flag) || n >= size)
			continue;
		int w = snprintf(buf + n, size - n, "%s%s", n ? "; " : "",
		                 texts[i].text);
		if (w < 0)
			return;
		n += (size_t)w;
	}
}

static int64_t add_clamped(int64_t a, int64_t b)
{
	return a > INT64_MAX - b ? INT64_MAX : a + b;
}

int64_t heed_irc_next_visit_s(const struct heed_irc_revisit_policy *policy,
                              heed_irc_visit_status status,
                              const struct heed_irc_crawler_pref *pref,
                              int64_t ended_s)
{
	int64_t wait = policy->min_revisit_s;

	/* Nothing reached the network: a short retry, whatever the floor. */
	if (status == HEED_IRC_VISIT_UNREACHABLE)
		return add_clamped(ended_s,
		                   policy->unreachable_retry_s > 0
		                           ? policy->unreachable_retry_s
		                           : 0);
	/* Stopped before the burst was read: no visit to count, but a token
	 * already seen keeps its cooldown. */
	if (status == HEED_IRC_VISIT_STOPPED)
		return pref->verdict == HEED_IRC_CRAWLER_NONE
		               ? ended_s
		               : add_clamped(ended_s, pref->cooldown_s);
	if (pref->verdict != HEED_IRC_CRAWLER_NONE && pref->cooldown_s > wait)
		wait = pref->cooldown_s;
	if (status == HEED_IRC_VISIT_BANNED && policy->ban_backoff_s > wait)
		wait = policy->ban_backoff_s;
	if (status == HEED_IRC_VISIT_FAILED && policy->failure_backoff_s > wait)
		wait = policy->failure_backoff_s;
	if (status == HEED_IRC_VISIT_STS_UPGRADE ||
	    status == HEED_IRC_VISIT_CHECKED)
		return ended_s;
	return add_clamped(ended_s, wait);
}
