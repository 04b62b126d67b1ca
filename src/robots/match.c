/*
 * robots.txt patterns (RFC 9309 2.2.2 and 2.2.3): compiling a normalised
 * pattern, matching it against a normalised path, and finding the path of a
 * URL.
 *
 * RFC 9309 2.2.3: "*" designates 0 or more instances of any character and
 * "$" designates the end of the match pattern; "%2A" and "%24" in a pattern
 * match a literal "*" and "$". A "$" anywhere but at the end is a literal,
 * as in google/robotstxt.
 *
 * The matcher never backtracks. A pattern is literal segments separated by
 * wildcards; each segment is matched at its leftmost place after the
 * previous one. Leftmost is always safe: a later segment only needs *some*
 * place further right, and leftmost leaves the most room. A final "$" only
 * asks that the last segment sit at the very end of the path, at or after
 * that point. So a match costs one memcmp plus one memmem per segment: at
 * most pattern x path steps, never the exponential time of a regex engine
 * (Protego's regexes take over a minute on hostile 40-octet paths).
 */
/* memmem comes with _GNU_SOURCE, which the build defines. */
#include <string.h>

#include "robots/robots-int.h"

/* Whether the normalised pattern has the 3-octet escape of c at p[i]. */
static bool escape_at(const char *p, size_t n, size_t i, const char *esc)
{
	return i + 3 <= n && memcmp(p + i, esc, 3) == 0;
}

uint64_t heed__robots_octet_mask(const char *s, size_t len)
{
	uint64_t m0 = 0, m1 = 0, m2 = 0, m3 = 0;
	size_t i = 0;

	/* Four at a time into four words: it runs for every rule an agent
	 * compiles and every path it checks. */
	for (; i + 4 <= len; i += 4) {
		m0 |= (uint64_t)1 << ((unsigned char)s[i] & 63);
		m1 |= (uint64_t)1 << ((unsigned char)s[i + 1] & 63);
		m2 |= (uint64_t)1 << ((unsigned char)s[i + 2] & 63);
		m3 |= (uint64_t)1 << ((unsigned char)s[i + 3] & 63);
	}
	for (; i < len; i++)
		m0 |= (uint64_t)1 << ((unsigned char)s[i] & 63);
	return m0 | m1 | m2 | m3;
}

/* The literal of a pattern with "%2A"/"%24" escapes: a copy with those
 * decoded and runs of '*' folded into one ROBOTS_WILD. */
static heed_status compile_escaped(struct heed_arena *arena,
                                   struct robots_rule *rule, const char *p,
                                   size_t n)
{
	size_t i = 0, out = 0;
	char *lit = heed__arena_alloc(arena, n + 1);

	if (!lit)
		return HEED_ENOMEM;
	rule->first_len = SIZE_MAX;
	while (i < n) {
		if (p[i] == '*') {
			if (rule->first_len == SIZE_MAX)
				rule->first_len = out;
			if (out == 0 || lit[out - 1] != ROBOTS_WILD)
				lit[out++] = ROBOTS_WILD;
			i++;
		} else if (escape_at(p, n, i, "%2A")) {
			lit[out++] = '*';
			i += 3;
		} else if (escape_at(p, n, i, "%24")) {
			lit[out++] = '$';
			i += 3;
		} else {
			lit[out++] = p[i++];
		}
	}
	lit[out] = '\0';
	if (rule->first_len == SIZE_MAX)
		rule->first_len = out;
	rule->lit = lit;
	rule->lit_len = out;
	rule->wild = ROBOTS_WILD;
	return HEED_OK;
}

heed_status heed__robots_compile(struct heed_arena *arena,
                                 struct robots_rule *rule,
                                 const struct heed_robots_rule *pub)
{
	const char *p = pub->pattern, *star, *pct;
	size_t n = pub->pattern_len;
	heed_status rc = HEED_OK;

	rule->pub = pub;
	rule->octets = pub->pattern_len;
	rule->kind = pub->kind;
	rule->line = pub->line;
	rule->value = pub->value;
	rule->empty = n == 0;
	rule->anchored = n > 0 && p[n - 1] == '$';
	if (rule->anchored)
		n--;
	/* Most patterns need no copy: '*' is the wildcard and every other
	 * octet a literal. Only "%2A" and "%24" (a literal '*' and '$', RFC
	 * 9309 2.2.3) need decoding, into a copy. */
	rule->lit = p;
	rule->lit_len = n;
	rule->wild = '*';
	star = memchr(p, '*', n);
	rule->first_len = star ? (size_t)(star - p) : n;
	for (pct = memchr(p, '%', n); pct;
	     pct = memchr(pct + 1, '%', n - (size_t)(pct + 1 - p))) {
		size_t at = (size_t)(pct - p);
		if (escape_at(p, n, at, "%2A") || escape_at(p, n, at, "%24")) {
			rc = compile_escaped(arena, rule, p, n);
			break;
		}
	}
	/* Rules are many and mostly fail: the mask rejects most of them
	 * before a memcmp. The wildcard itself is no octet a path needs. */
	rule->need = heed__robots_octet_mask(rule->lit, rule->lit_len) &
	             ~((uint64_t)1 << (rule->wild & 63));
	return rc;
}

bool heed__robots_rule_match(const struct robots_rule *rule, const char *path,
                             size_t path_len, uint64_t path_mask)
{
	const char *seg, *end = rule->lit + rule->lit_len;
	size_t pos = rule->first_len;

	if (rule->empty || (rule->need & ~path_mask) || path_len < pos ||
	    memcmp(rule->lit, path, pos) != 0)
		return false;
	if (pos == rule->lit_len)
		return !rule->anchored || path_len == pos;
	seg = rule->lit + pos + 1; /* past the first wildcard */
	for (;;) {
		const char *wild = memchr(seg, rule->wild, (size_t)(end - seg));
		size_t seg_len = (size_t)((wild ? wild : end) - seg);
		const char *found;

		if (!wild && rule->anchored)
			return path_len - pos >= seg_len &&
			       memcmp(path + path_len - seg_len, seg,
			              seg_len) == 0;
		if (seg_len > 0) {
			found = memmem(path + pos, path_len - pos, seg,
			               seg_len);
			if (!found)
				return false;
			pos = (size_t)(found - path) + seg_len;
		}
		if (!wild)
			return true;
		seg = wild + 1;
	}
}

/*
 * The uncompiled matcher works on the normalised text itself, for callers
 * with patterns of their own. A segment is the text up to the next '*'; its
 * "%2A"/"%24" stand for one octet each, a '*' or '$' the path may carry
 * plain or escaped, as heed_robots_decide_path reads it.
 */

/* Whether the path has the literal c at pos: c itself or, for '*' and '$',
 * its escape, as heed_robots_decide_path reads a path. Returns the path
 * octets used, 0 for no match. */
static size_t path_octet(const char *path, size_t path_len, size_t pos, char c)
{
	if (pos >= path_len)
		return 0;
	if (path[pos] == c)
		return 1;
	if (c == '*' && escape_at(path, path_len, pos, "%2A"))
		return 3;
	if (c == '$' && escape_at(path, path_len, pos, "%24"))
		return 3;
	return 0;
}

/* Whether seg matches path at pos; *end is where that match ends. */
static bool seg_at(const char *seg, size_t n, const char *path, size_t path_len,
                   size_t pos, size_t *end)
{
	size_t i = 0;

	while (i < n) {
		char want = seg[i];
		size_t step = 1, used;
		if (escape_at(seg, n, i, "%2A")) {
			want = '*';
			step = 3;
		} else if (escape_at(seg, n, i, "%24")) {
			want = '$';
			step = 3;
		}
		used = path_octet(path, path_len, pos, want);
		if (used == 0)
			return false;
		pos += used;
		i += step;
	}
	*end = pos;
	return true;
}

/* Whether seg matches path at some place from pos on that ends the path. */
static bool seg_ends(const char *seg, size_t n, const char *path,
                     size_t path_len, size_t pos)
{
	size_t end;

	for (; pos <= path_len; pos++)
		if (seg_at(seg, n, path, path_len, pos, &end) &&
		    end == path_len)
			return true;
	return false;
}

bool heed_robots_pattern_match(const char *pattern, size_t pattern_len,
                               const char *path, size_t path_len)
{
	bool anchored = pattern_len > 0 && pattern[pattern_len - 1] == '$';
	size_t n = anchored ? pattern_len - 1 : pattern_len;
	size_t i = 0, pos = 0, end;
	bool first = true;

	if (pattern_len == 0 || (!pattern && pattern_len) ||
	    (!path && path_len))
		return false;
	for (;;) {
		const char *star = memchr(pattern + i, '*', n - i);
		size_t seg_end = star ? (size_t)(star - pattern) : n;
		size_t seg_len = seg_end - i;
		if (!star && anchored && first)
			return seg_at(pattern + i, seg_len, path, path_len, 0,
			              &end) &&
			       end == path_len;
		if (!star && anchored)
			return seg_ends(pattern + i, seg_len, path, path_len,
			                pos);
		if (first) {
			if (!seg_at(pattern + i, seg_len, path, path_len, 0,
			            &end))
				return false;
		} else {
			while (pos <= path_len &&
			       !seg_at(pattern + i, seg_len, path, path_len,
			               pos, &end))
				pos++;
			if (pos > path_len)
				return false;
		}
		pos = end;
		if (!star)
			return true;
		first = false;
		i = seg_end + 1;
	}
}

/* The end of the authority that starts at url[i]. */
static size_t skip_authority(const char *url, size_t len, size_t i)
{
	while (i < len && url[i] != '/' && url[i] != '?' && url[i] != '#')
		i++;
	return i;
}

void heed__robots_url_path(const char *url, size_t len, const char **path,
                           size_t *path_len)
{
	size_t i = 0;

	if (len >= 2 && url[0] == '/' && url[1] == '/') {
		/* "//authority/path": a network-path reference (3986 4.2). */
		i = skip_authority(url, len, 2);
	} else if (len == 0 || url[0] != '/') {
		/* "scheme://authority/path", or "host/path" without a scheme
		 * (as google/robotstxt reads it): either way the path starts
		 * at the first '/', '?' or '#' after the authority. */
		i = skip_authority(url, len, 0);
		if (i > 0 && url[i - 1] == ':' && i + 1 < len &&
		    url[i] == '/' && url[i + 1] == '/')
			i = skip_authority(url, len, i + 2);
	}
	*path = url + i;
	*path_len = len - i;
}

size_t heed_robots_normalize(char *out, size_t out_size, const char *url,
                             size_t url_len)
{
	const char *path = "";
	size_t path_len = 0;

	if (url)
		heed__robots_url_path(url, url_len, &path, &path_len);
	return heed__pct_normalize(out, out_size, path, path_len,
	                           HEED_PCT_DROP_FRAGMENT |
	                                   HEED_PCT_SLASH_EMPTY);
}
