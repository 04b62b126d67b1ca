/*
 * Escaping for the public index (issue 13): every byte that came from a
 * crawled page or an IRC server is hostile, so nothing reaches a page
 * without passing through one of these.
 *
 * One walker decodes UTF-8 and hands each character to the context's
 * writer: invalid sequences (overlong forms, surrogates, code points past
 * U+10FFFF, truncated sequences; RFC 3629 3) become U+FFFD, one per bad
 * byte, as the extractor does; the noncharacters U+FFFE and U+FFFF become
 * one U+FFFD (XML 1.0 forbids them, and the charts are XML); C0 controls
 * other than tab and newline, and DEL, are dropped. U+2028 and U+2029 are
 * kept: they are text, and JSON allows them raw (RFC 8259 7), as
 * heed__json_string writes them.
 */
#include "serve/serve-int.h"

static const char REPLACEMENT[] = "\xEF\xBF\xBD"; /* U+FFFD */

enum ctx { CTX_HTML, CTX_URL, CTX_TEXT };

/* Decodes the character at s (len >= 1) into *cp and returns its length,
 * or 0 when the bytes there are not valid UTF-8. */
static size_t decode(const unsigned char *s, size_t len, uint32_t *cp)
{
	static const uint32_t min[5] = {0, 0, 0x80, 0x800, 0x10000};
	size_t n;
	uint32_t v;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xC0 && s[0] < 0xE0)
		n = 2, v = s[0] & 0x1Fu;
	else if (s[0] >= 0xE0 && s[0] < 0xF0)
		n = 3, v = s[0] & 0x0Fu;
	else if (s[0] >= 0xF0 && s[0] < 0xF8)
		n = 4, v = s[0] & 0x07u;
	else
		return 0;
	if (len < n)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		v = (v << 6) | (s[i] & 0x3Fu);
	}
	if (v < min[n] || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
		return 0;
	*cp = v;
	return n;
}

static bool dropped(uint32_t cp)
{
	return (cp < 0x20 && cp != '\t' && cp != '\n') || cp == 0x7F;
}

static bool unreserved(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' ||
	       c == '~';
}

/* Whether an ASCII character is copied as is in ctx. */
static bool plain(enum ctx ctx, unsigned char c)
{
	if (dropped(c))
		return false;
	switch (ctx) {
	case CTX_HTML:
		return c != '&' && c != '<' && c != '>' && c != '"' &&
		       c != '\'';
	case CTX_URL:
		return unreserved(c);
	default:
		return true;
	}
}

/* Writes the n bytes of one valid character (or U+FFFD) in ctx. */
static heed_status put_char(struct heed_buf *b, enum ctx ctx,
                            const unsigned char *s, size_t n)
{
	static const char hex[] = "0123456789ABCDEF";
	heed_status rc = HEED_OK;

	if (ctx != CTX_URL)
		return heed__buf_add(b, s, n);
	for (size_t i = 0; i < n && rc == HEED_OK; i++) {
		char pct[3] = {'%', hex[s[i] >> 4], hex[s[i] & 15]};
		rc = heed__buf_add(b, pct, 3);
	}
	return rc;
}

static heed_status put_ascii(struct heed_buf *b, enum ctx ctx, unsigned char c)
{
	if (ctx == CTX_HTML) {
		switch (c) {
		case '&':
			return heed__buf_add(b, "&amp;", 5);
		case '<':
			return heed__buf_add(b, "&lt;", 4);
		case '>':
			return heed__buf_add(b, "&gt;", 4);
		case '"':
			return heed__buf_add(b, "&quot;", 6);
		case '\'':
			return heed__buf_add(b, "&#39;", 5);
		default:
			break;
		}
	}
	if (dropped(c))
		return HEED_OK;
	return put_char(b, ctx, &c, 1);
}

/* The walker: runs of plain ASCII are copied in one append. */
static heed_status walk(struct heed_buf *b, enum ctx ctx, const char *str,
                        size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0;
	heed_status rc = HEED_OK;

	while (i < len && rc == HEED_OK) {
		size_t run = i, n;
		uint32_t cp;
		while (run < len && s[run] < 0x80 && plain(ctx, s[run]))
			run++;
		if (run > i)
			rc = heed__buf_add(b, s + i, run - i);
		i = run;
		if (i == len || rc != HEED_OK)
			break;
		n = decode(s + i, len - i, &cp);
		if (n == 1)
			rc = put_ascii(b, ctx, s[i]);
		else if (n == 0 || cp == 0xFFFE || cp == 0xFFFF)
			rc = put_char(b, ctx,
			              (const unsigned char *)REPLACEMENT, 3);
		else
			rc = put_char(b, ctx, s + i, n);
		i += n ? n : 1;
	}
	return rc;
}

heed_status heed__html_escape(struct heed_buf *b, const char *s, size_t len)
{
	return walk(b, CTX_HTML, s, len);
}

heed_status heed__url_encode(struct heed_buf *b, const char *s, size_t len)
{
	return walk(b, CTX_URL, s, len);
}

heed_status heed__utf8_clean(struct heed_buf *b, const char *s, size_t len)
{
	return walk(b, CTX_TEXT, s, len);
}

/* Bytes that end an attribute, open a tag, or that browsers read in
 * surprising ways (a backslash is a slash to them). */
static bool link_byte_ok(unsigned char c)
{
	return c >= 0x21 && c != 0x7F && c != '"' && c != '\'' && c != '<' &&
	       c != '>' && c != '\\' && c != '`';
}

/* An ASCII case-insensitive "starts with" for a NUL-terminated s. */
static bool starts_icase(const char *s, const char *prefix)
{
	for (; *prefix; s++, prefix++)
		if (!*s || heed__ascii_lower(*s) != *prefix)
			return false;
	return true;
}

/* Whether the authority [a, e) names a host: what follows any userinfo
 * and precedes any port is not empty. */
static bool has_host(const char *a, const char *e)
{
	const char *h = a;

	for (const char *p = a; p < e; p++)
		if (*p == '@')
			h = p + 1;
	if (h < e && *h == '[') /* an IP literal */
		return e - h > 2 && memchr(h, ']', (size_t)(e - h)) != NULL;
	return h < e && *h != ':';
}

bool heed__serve_safe_link(const char *url)
{
	const char *a, *e;

	if (!url)
		return false;
	if (starts_icase(url, "http://"))
		a = url + 7;
	else if (starts_icase(url, "https://"))
		a = url + 8;
	else
		return false;
	for (e = url; *e; e++)
		if (!link_byte_ok((unsigned char)*e))
			return false;
	e = a + strcspn(a, "/?#");
	return has_host(a, e);
}
