/*
 * Escaping for the public index: every byte that came from a
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
 *
 * In HTML the explicit bidirectional controls (UAX #9 2: embeddings,
 * overrides, isolates and their terminators) are balanced within each
 * string: a terminator with no opener is dropped, and every opener left
 * open is closed at the end of the string. With the element around the
 * string isolated (<bdi>), a crawled "\u202E" can reverse its own text
 * but never heed's label after it.
 */
#include "serve/serve-int.h"

static const char REPLACEMENT[] = "\xEF\xBF\xBD"; /* U+FFFD */

enum ctx { CTX_HTML, CTX_URL, CTX_TEXT };

/* Deepest nesting of bidi openers kept; UAX #9 allows 125, no honest text
 * needs more than a few, and openers past this are dropped. */
#define BIDI_DEPTH 32

/* The open bidi controls of one string: 'E' for an embedding or
 * override (closed by PDF), 'I' for an isolate (closed by PDI). */
struct bidi {
	char open[BIDI_DEPTH];
	size_t depth;
};

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

static const char PDF[] = "\xE2\x80\xAC"; /* U+202C */
static const char PDI[] = "\xE2\x81\xA9"; /* U+2069 */

/* Whether cp is an explicit bidi control (UAX #9, table 1). */
static bool bidi_control(uint32_t cp)
{
	return (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

/* Writes the bidi control cp (n bytes at s) if it is balanced so far. */
static heed_status put_bidi(struct heed_buf *b, struct bidi *st,
                            const unsigned char *s, size_t n, uint32_t cp)
{
	size_t i;

	if (cp == 0x202C) { /* PDF closes an embedding, never an isolate */
		if (st->depth == 0 || st->open[st->depth - 1] != 'E')
			return HEED_OK;
		st->depth--;
		return heed__buf_add(b, s, n);
	}
	if (cp == 0x2069) { /* PDI closes its isolate and all inside it */
		for (i = st->depth; i > 0 && st->open[i - 1] != 'I'; i--)
			;
		if (i == 0)
			return HEED_OK;
		st->depth = i - 1;
		return heed__buf_add(b, s, n);
	}
	if (st->depth == BIDI_DEPTH)
		return HEED_OK;
	st->open[st->depth++] = cp >= 0x2066 ? 'I' : 'E';
	return heed__buf_add(b, s, n);
}

/* Closes what the string left open, innermost first. */
static heed_status close_bidi(struct heed_buf *b, struct bidi *st)
{
	heed_status rc = HEED_OK;

	while (st->depth > 0 && rc == HEED_OK)
		rc = heed__buf_add(b, st->open[--st->depth] == 'I' ? PDI : PDF,
		                   3);
	return rc;
}

/* The walker: runs of plain ASCII are copied in one append. */
static heed_status walk(struct heed_buf *b, enum ctx ctx, const char *str,
                        size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	struct bidi bidi = {.depth = 0};
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
		else if (ctx == CTX_HTML && bidi_control(cp))
			rc = put_bidi(b, &bidi, s + i, n, cp);
		else
			rc = put_char(b, ctx, s + i, n);
		i += n ? n : 1;
	}
	if (rc == HEED_OK)
		rc = close_bidi(b, &bidi);
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

static bool word_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
	       c == '\v';
}

/* mIRC formatting (https://modern.ircdocs.horse/formatting): the codes
 * that take no argument. */
static bool irc_toggle(unsigned char c)
{
	return c == 0x02 || c == 0x0F || c == 0x11 || c == 0x16 || c == 0x1D ||
	       c == 0x1E || c == 0x1F;
}

static bool is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static bool is_hex(unsigned char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* The length of a run of at most max characters of class ok at s. */
static size_t run_of(const unsigned char *s, size_t len, size_t max,
                     bool (*ok)(unsigned char))
{
	size_t n = 0;

	while (n < len && n < max && ok(s[n]))
		n++;
	return n;
}

/* The length of the arguments of a colour code at s: \x03 takes 1-2
 * digits, then optionally ',' and 1-2 digits; \x04 takes six hex digits,
 * then optionally ',' and six more. A ',' not followed by a colour is
 * text ("\x0304,x" shows "04"'s colour then ",x"). */
static size_t colour_args(const unsigned char *s, size_t len, bool hex)
{
	size_t max = hex ? 6 : 2;
	bool (*ok)(unsigned char) = hex ? is_hex : is_digit;
	size_t fg = run_of(s, len, max, ok), bg;

	if (hex && fg != 6)
		return 0;
	if (fg == 0 || fg >= len || s[fg] != ',')
		return fg;
	bg = run_of(s + fg + 1, len - fg - 1, max, ok);
	if (bg == 0 || (hex && bg != 6))
		return fg;
	return fg + 1 + bg;
}

size_t heed__irc_strip(char *dst, const char *src, size_t len)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t i = 0, o = 0;

	while (i < len) {
		unsigned char c = s[i++];
		if (irc_toggle(c))
			continue;
		if (c == 0x03 || c == 0x04) {
			i += colour_args(s + i, len - i, c == 0x04);
			continue;
		}
		dst[o++] = (char)c;
	}
	return o;
}

char *heed__irc_strip_dup(const struct heed_allocator *a, const char *src,
                          size_t len, size_t *out_len)
{
	char *dst = src ? heed__malloc(a, len + 1) : NULL;

	*out_len = 0;
	if (!dst)
		return NULL;
	*out_len = heed__irc_strip(dst, src, len);
	dst[*out_len] = '\0';
	return dst;
}

size_t heed__serve_cut_at_word(const char *s, size_t len, size_t max)
{
	size_t cut = heed__serve_cut_chars(s, len, max), end;

	if (cut == len)
		return len;
	/* A space right at the cut ends a whole word. */
	if (word_space(s[cut]))
		end = cut;
	else
		for (end = cut; end > 0 && !word_space(s[end - 1]); end--)
			;
	while (end > 0 && word_space(s[end - 1]))
		end--;
	return end > cut / 2 ? end : cut;
}
