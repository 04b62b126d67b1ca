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

/* What a byte is to RFC 3986 section 2. */
enum octet_class {
	OCTET_ENCODE,     /* must be percent-encoded */
	OCTET_UNRESERVED, /* ALPHA DIGIT - . _ ~ */
	OCTET_RESERVED,   /* gen-delims and sub-delims */
};

static enum octet_class classify(unsigned char c)
{
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' ||
	    c == '~')
		return OCTET_UNRESERVED;
	switch (c) {
	case ':':
	case '/':
	case '?':
	case '#':
	case '[':
	case ']':
	case '@':
	case '!':
	case '$':
	case '&':
	case '\'':
	case '(':
	case ')':
	case '*':
	case '+':
	case ',':
	case ';':
	case '=':
		return OCTET_RESERVED;
	default:
		return OCTET_ENCODE;
	}
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
	if (classify(c) == OCTET_UNRESERVED)
		put(s, (char)c);
	else
		put_escape(s, c);
	return 3;
}

size_t heed__pct_normalize(char *out, size_t out_size, const char *in,
                           size_t len, unsigned flags)
{
	struct sink s = {out, out_size, 0};
	size_t i = 0;

	if ((flags & HEED_PCT_SLASH_EMPTY) && (len == 0 || in[0] != '/'))
		put(&s, '/');
	while (i < len) {
		unsigned char c = (unsigned char)in[i];
		if (c == '#' && (flags & HEED_PCT_DROP_FRAGMENT))
			break;
		if (c == '%') {
			i += put_percent(&s, in, len, i);
			continue;
		}
		if (classify(c) == OCTET_ENCODE)
			put_escape(&s, c);
		else
			put(&s, (char)c);
		i++;
	}
	if (out_size > 0)
		out[s.len < out_size ? s.len : out_size - 1] = '\0';
	return s.len;
}
