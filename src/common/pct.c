/*
 * Percent-encoding normalisation (RFC 3986 2.1-2.4 and 6.2.2.1-6.2.2.2),
 * as RFC 9309 2.2.2 requires before a robots.txt rule and a URL's path are
 * compared, and as the URL module needs for its normal form.
 *
 * RFC 9309 2.2.2: "Octets in the URI and robots.txt paths outside the range
 * of the ASCII coded character set, and those in the reserved range defined
 * by [RFC3986], MUST be percent-encoded as defined by [RFC3986] prior to
 * comparison. If a percent-encoded ASCII octet is encountered in the URI, it
 * MUST be unencoded prior to comparison, unless it is a reserved character
 * in the URI as defined by [RFC3986] or the character is outside the
 * unreserved character range."
 *
 * Reserved characters written plainly stay plain and their escapes stay
 * escapes: "/a%2Fb" and "/a/b" are different resources (RFC 3986 2.2).
 * One exception, for robots.txt matching only (HEED_PCT_STAR_DOLLAR):
 * "%2A" and "%24" become '*' and '$', the octets a rule's "%2A" and "%24"
 * stand for (RFC 9309 2.2.3), so that the same escape in a rule and in a
 * URL compares equal.
 * One pass, no allocation, output at most three times the input.
 */
#include "common/common-int.h"

static const char hex_digits[] = "0123456789ABCDEF";

/* What an octet is to RFC 3986 section 2, as bits so that a loop can test
 * "one of these classes" with one AND. */
enum octet_class {
	E = 0, /* must be percent-encoded */
	U = 1, /* unreserved: ALPHA DIGIT - . _ ~ */
	R = 2, /* reserved: gen-delims and sub-delims but '#' */
	P = 4, /* '%': an escape, or a '%' to encode */
	H = 8, /* '#': reserved, and the start of a fragment */
};

/* The class of every octet (0x80 and up: E). A table, because this loop
 * runs over every octet of every rule and every URL. */
static const unsigned char octet_class[256] = {
        E, E, E, E, E, E, E, E, E, E, E, E, E, E, E, E, /* 0x00 */
        E, E, E, E, E, E, E, E, E, E, E, E, E, E, E, E, /* 0x10 */
        E, R, E, H, R, P, R, R, R, R, R, R, R, U, U, R, /* 0x20 */
        U, U, U, U, U, U, U, U, U, U, R, R, E, R, E, R, /* 0x30 */
        R, U, U, U, U, U, U, U, U, U, U, U, U, U, U, U, /* 0x40 */
        U, U, U, U, U, U, U, U, U, U, U, R, E, R, E, U, /* 0x50 */
        E, U, U, U, U, U, U, U, U, U, U, U, U, U, U, U, /* 0x60 */
        U, U, U, U, U, U, U, U, U, U, U, E, E, E, U, E, /* 0x70 */
        /* 0x80 to 0xFF: E (0) */
};

static enum octet_class classify(unsigned char c)
{
	return (enum octet_class)octet_class[c];
}

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Output with snprintf's contract: count everything, store what fits. */
struct sink {
	char *out;
	size_t size;
	size_t len;
};

static void put(struct sink *s, char c)
{
	if (s->len + 1 < s->size)
		s->out[s->len] = c;
	s->len++;
}

static void put_escape(struct sink *s, unsigned char c)
{
	put(s, '%');
	put(s, hex_digits[c >> 4]);
	put(s, hex_digits[c & 0xF]);
}

/* Whether the escape of c is decoded: an unreserved octet always; '*' and
 * '$' too for robots.txt matching (HEED_PCT_STAR_DOLLAR). */
static bool decoded(unsigned char c, unsigned flags)
{
	return classify(c) == U ||
	       ((flags & HEED_PCT_STAR_DOLLAR) && (c == '*' || c == '$'));
}

/* Handles the '%' at in[i]; returns how many input bytes it used. */
static size_t put_percent(struct sink *s, const char *in, size_t len, size_t i,
                          unsigned flags)
{
	int hi = i + 2 < len ? hex_value(in[i + 1]) : -1;
	int lo = i + 2 < len ? hex_value(in[i + 2]) : -1;
	unsigned char c;

	if (hi < 0 || lo < 0) {
		/* A bare '%' is data, not an escape (RFC 3986 2.4). */
		put_escape(s, '%');
		return 1;
	}
	c = (unsigned char)(hi << 4 | lo);
	if (decoded(c, flags))
		put(s, (char)c);
	else
		put_escape(s, c);
	return 3;
}

/* Copies n octets that need no change. */
static void put_run(struct sink *s, const char *p, size_t n)
{
	if (s->len + n < s->size) {
		memcpy(s->out + s->len, p, n);
		s->len += n;
		return;
	}
	while (n--)
		put(s, *p++);
}

/* How many octets from in[i] on stay as they are. */
static size_t plain_run(const char *in, size_t len, size_t i,
                        bool drop_fragment)
{
	unsigned keep = drop_fragment ? U | R : U | R | H;
	size_t start = i;

	while (i < len && (octet_class[(unsigned char)in[i]] & keep))
		i++;
	return i - start;
}

size_t heed__pct_plain_len(const char *in, size_t len)
{
	return plain_run(in, len, 0, true);
}

/* Whether put_percent would copy the escape at in[i] as it is: upper-case
 * hex of an octet that stays escaped. */
static bool escape_kept(const char *in, size_t len, size_t i)
{
	int hi, lo;

	if (i + 2 >= len || (in[i + 1] >= 'a' && in[i + 1] <= 'f') ||
	    (in[i + 2] >= 'a' && in[i + 2] <= 'f'))
		return false;
	hi = hex_value(in[i + 1]);
	lo = hex_value(in[i + 2]);
	return hi >= 0 && lo >= 0 &&
	       classify((unsigned char)(hi << 4 | lo)) != U;
}

bool heed__pct_is_normal(const char *in, size_t len)
{
	size_t i = 0;

	for (;;) {
		i += plain_run(in, len, i, false);
		if (i == len)
			return true;
		if (in[i] != '%' || !escape_kept(in, len, i))
			return false;
		i += 3;
	}
}

size_t heed__pct_normalize(char *out, size_t out_size, const char *in,
                           size_t len, unsigned flags)
{
	struct sink s = {out, out_size, 0};
	bool drop_fragment = flags & HEED_PCT_DROP_FRAGMENT;
	size_t i = 0, run;

	if ((flags & HEED_PCT_SLASH_EMPTY) && (len == 0 || in[0] != '/'))
		put(&s, '/');
	while (i < len) {
		/* Most octets stay as they are: copy them in runs. */
		run = plain_run(in, len, i, drop_fragment);
		put_run(&s, in + i, run);
		i += run;
		if (i == len || in[i] == '#')
			break;
		if (in[i] == '%')
			i += put_percent(&s, in, len, i, flags);
		else
			put_escape(&s, (unsigned char)in[i++]);
	}
	if (out_size > 0)
		out[s.len < out_size ? s.len : out_size - 1] = '\0';
	return s.len;
}
