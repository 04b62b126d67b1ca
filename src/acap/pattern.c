/*
 * Resource path patterns and usage purpose patterns (2.9) and the
 * narrowest-scope comparison of conflict resolution (2.4.6).
 *
 * 2.9: "* represents zero or more characters and may occur anywhere in a
 * pattern"; "$ indicates that the immediate preceding character must be the
 * last character in any resource path that matches the pattern, and may only
 * occur as the last character in the pattern" (elsewhere it is an ordinary
 * character); "Pattern matching in ACAP fields should always be
 * case-insensitive". As in conventional robots.txt, a pattern without a
 * final '$' matches every path that starts with what it matches.
 *
 * The matcher backtracks only to the last '*' seen, so it runs in
 * O(pattern * path) at worst and never recurses.
 */
#include "acap/acap-int.h"

static bool same_char(char a, char b, bool icase)
{
	return icase ? heed__ascii_lower(a) == heed__ascii_lower(b) : a == b;
}

static bool match(const char *p, size_t plen, bool anchored, const char *s,
                  bool icase)
{
	size_t pi = 0, si = 0, star_p = SIZE_MAX, star_s = 0;

	for (;;) {
		if (pi == plen) {
			if (!anchored || s[si] == '\0')
				return true;
		} else if (p[pi] == '*') {
			star_p = ++pi;
			star_s = si;
			continue;
		} else if (s[si] != '\0' && same_char(p[pi], s[si], icase)) {
			pi++;
			si++;
			continue;
		}
		/* Mismatch: let the last '*' swallow one more character. */
		if (star_p == SIZE_MAX || s[star_s] == '\0')
			return false;
		pi = star_p;
		si = ++star_s;
	}
}

bool heed__acap_match(const char *p, const char *s, bool icase)
{
	size_t plen = strlen(p);
	bool anchored = plen > 0 && p[plen - 1] == '$';

	return match(p, anchored ? plen - 1 : plen, anchored, s, icase);
}

bool heed__acap_match_whole(const char *p, const char *s)
{
	size_t plen = strlen(p);

	if (plen > 0 && p[plen - 1] == '$')
		plen--;
	return match(p, plen, true, s, true);
}

/*
 * 2.4.6, step by step: compare character by character from the left while
 * the characters are the same; then "If one pattern has run out of
 * characters, the other pattern has the narrower scope. If one pattern
 * contains a dollar sign $ where the other pattern contains any other
 * character (including the asterisk *), the other pattern has the narrower
 * scope. If one pattern contains an asterisk * where the other pattern
 * contains any other character except the dollar sign $, the other pattern
 * has the narrower scope." Two different ordinary characters leave the
 * method without an answer.
 */
enum acap_scope heed__acap_scope(const char *a, const char *b)
{
	size_t i = 0;

	while (a[i] != '\0' && b[i] != '\0' && same_char(a[i], b[i], true))
		i++;
	if (a[i] == '\0' && b[i] == '\0')
		return ACAP_SCOPE_SAME;
	if (a[i] == '\0')
		return ACAP_SCOPE_WIDER;
	if (b[i] == '\0')
		return ACAP_SCOPE_NARROWER;
	if (a[i] == '$')
		return ACAP_SCOPE_WIDER;
	if (b[i] == '$')
		return ACAP_SCOPE_NARROWER;
	if (a[i] == '*')
		return ACAP_SCOPE_WIDER;
	if (b[i] == '*')
		return ACAP_SCOPE_NARROWER;
	return ACAP_SCOPE_UNORDERED;
}
