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
 * One pass, no allocation, output at most three times the input.
 */
#include "common/common-int.h"

static const char hex_digits[] = "0123456789ABCDEF";

/* What an octet is to RFC 3986 section 2. */
enum octet_class {
	E, /* must be percent-encoded */
	U, /* unreserved: ALPHA DIGIT - . _ ~ */
	R, /* reserved: gen-delims and sub-delims but '#' */
	P, /* '%': an escape, or a '%' to encode */
	H, /* '#': reserved, and the start of a fragment */
};

/* The classes of ASCII; every octet from 0x80 up is E. A table, because
 * this loop runs over every octet of every rule and every URL. */
static const unsigned char ascii_class[128] = {
        E, E, E, E, E, E, E, E, E, E, E, E, E, E, E, E, /* 0x00 */
        E, E, E, E, E, E, E, E, E, E, E, E, E, E, E, E, /* 0x10 */
        E, R, E, H, R, P, R, R, R, R, R, R, R, U, U, R, /* 0x20 */
        U, U, U, U, U, U, U, U, U, U, R, R, E, R, E, R, /* 0x30 */
        R, U, U, U, U, U, U, U, U, U, U, U, U, U, U, U, /* 0x40 */
        U, U, U, U, U, U, U, U, U, U, U, R, E, R, E, U, /* 0x50 */
        E, U, U, U, U, U, U, U, U, U, U, U, U, U, U, U, /* 0x60 */
        U, U, U, U, U, U, U, U, U, U, U, E, E, E, U, E, /* 0x70 */
};

static enum octet_class classify(unsigned char c)
{
	return c < 0x80 ? (enum octet_class)ascii_class[c] : E;
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

/* Handles the '%' at in[i]; returns how many input bytes it used. */
static size_t put_percent(struct sink *s, const char *in, size_t len, size_t i)
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
	if (classify(c) == U)
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
	size_t start = i;

	for (; i < len; i++) {
		enum octet_class c = classify((unsigned char)in[i]);
		if (c != U && c != R && (c != H || drop_fragment))
			break;
	}
	return i - start;
}

size_t heed__pct_plain_len(const char *in, size_t len)
{
	return plain_run(in, len, 0, true);
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
			i += put_percent(&s, in, len, i);
		else
			put_escape(&s, (unsigned char)in[i++]);
	}
	if (out_size > 0)
		out[s.len < out_size ? s.len : out_size - 1] = '\0';
	return s.len;
}
