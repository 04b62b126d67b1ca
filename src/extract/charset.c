/*
 * Turning a fetched body into clean UTF-8 before a parser sees it.
 *
 * Measured on libxml2 2.9.14 (notes/metadata-verify-scale.md 2.3), which
 * parsed HTML before heed's own tokenizer and still parses feeds: a NUL in
 * an attribute loses every later link, and one invalid UTF-8 sequence
 * switches the whole document to Latin-1. So the parser only ever gets
 * valid UTF-8 without NULs or C0 controls, each bad sequence replaced by
 * U+FFFD, and is told to ignore any encoding the document declares.
 *
 * The charset is chosen as the issue asks: the Content-Type header's
 * charset wins (the server knows what it sends), else a byte order mark,
 * else a <meta charset> or http-equiv in the first 4 KiB (HTML's prescan
 * looks at 1 KiB; long <head>s put it later), else UTF-8 when the bytes are
 * valid UTF-8, else windows-1252 (what browsers assume). Labels follow the
 * WHATWG Encoding Standard for the common aliases (latin1, ascii and
 * iso-8859-1 all mean windows-1252); iconv does the conversion.
 */
#include <errno.h>
#include <iconv.h>

#include "extract/extract-int.h"

#define PRESCAN_BYTES 4096

static const char REPLACEMENT[] = "\xEF\xBF\xBD"; /* U+FFFD */

/* Length of the valid UTF-8 sequence at s (1-4), or 0. Rejects overlong
 * forms, surrogates and code points past U+10FFFF (RFC 3629 4). */
static size_t utf8_seq(const unsigned char *s, size_t len)
{
	unsigned char c = s[0];

	if (c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF)
		return (len >= 2 && (s[1] & 0xC0) == 0x80) ? 2 : 0;
	if (c >= 0xE0 && c <= 0xEF) {
		if (len < 3 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80)
			return 0;
		if ((c == 0xE0 && s[1] < 0xA0) || (c == 0xED && s[1] > 0x9F))
			return 0;
		/* U+FFFE and U+FFFF are not characters: libxml2 stops. */
		if (c == 0xEF && s[1] == 0xBF && s[2] >= 0xBE)
			return 0;
		return 3;
	}
	if (c >= 0xF0 && c <= 0xF4) {
		if (len < 4 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80 ||
		    (s[3] & 0xC0) != 0x80)
			return 0;
		if ((c == 0xF0 && s[1] < 0x90) || (c == 0xF4 && s[1] > 0x8F))
			return 0;
		return 4;
	}
	return 0;
}

static bool bad_control(unsigned char c)
{
	return c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f';
}

/* ASCII bytes that pass unchanged: printable, tab, LF, FF, CR. */
static bool plain_ascii(unsigned char c)
{
	return (c >= 0x20 && c < 0x80) || c == '\t' || c == '\n' || c == '\r' ||
	       c == '\f';
}

/* Sixteen bytes at a time, in GCC's (and clang's) portable vector
 * extension: SSE2 on x86-64, NEON on arm64. The bytes are signed, so
 * that one comparison finds both what is below 0x20 and what is 0x80 or
 * above (negative): SSE2 has no unsigned byte comparison, and two
 * emulated ones made this loop 7 % of a page's extraction. */
typedef signed char bytes16 __attribute__((vector_size(16)));

/* The index of the first byte from i that is not plain ASCII, or len.
 * Most of a page is, so sixteen bytes are tested at once. */
static size_t skip_plain(const unsigned char *p, size_t i, size_t len)
{
	while (len - i >= 16) {
		bytes16 v, bad;
		uint64_t half[2];
		memcpy(&v, p + i, 16);
		bad = v < 0x20;
		memcpy(half, &bad, 16);
		/* Most blocks hold no control byte, and no white space to
		 * let pass either. */
		if (!(half[0] | half[1])) {
			i += 16;
			continue;
		}
		bad &= (v != '\t') & (v != '\n') & (v != '\f') & (v != '\r');
		memcpy(half, &bad, 16);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		/* Lane k is byte k of the halves: the first bad byte. */
		if (half[0])
			return i + (size_t)__builtin_ctzll(half[0]) / 8;
		if (half[1])
			return i + 8 + (size_t)__builtin_ctzll(half[1]) / 8;
#else
		if (half[0] | half[1])
			break;
#endif
		i += 16;
	}
	while (i < len && plain_ascii(p[i]))
		i++;
	return i;
}

heed_status heed__utf8_sanitize(struct heed_buf *out, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, run = 0;
	heed_status rc = HEED_OK;

	while (i < len && rc == HEED_OK) {
		size_t n, j = skip_plain(p, i, len);
		run += j - i;
		i = j;
		if (i == len)
			break;
		n = bad_control(p[i]) ? 0 : utf8_seq(p + i, len - i);
		if (n) {
			i += n;
			run += n;
			continue;
		}
		rc = heed__buf_add(out, s + i - run, run);
		if (rc == HEED_OK)
			rc = heed__buf_add(out, REPLACEMENT, 3);
		run = 0;
		i++;
	}
	if (rc == HEED_OK)
		rc = heed__buf_add(out, s + i - run, run);
	return rc;
}

/* True when s needs no change at all: valid UTF-8 without NULs or C0
 * controls. Most pages are, and then they are parsed in place. */
static bool clean_utf8(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;

	for (size_t i = 0; i < len;) {
		size_t n;
		i = skip_plain(p, i, len);
		if (i == len)
			break;
		n = bad_control(p[i]) ? 0 : utf8_seq(p + i, len - i);
		if (!n)
			return false;
		i += n;
	}
	return true;
}

static bool valid_utf8(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;

	for (size_t i = 0; i < len;) {
		size_t n = p[i] < 0x80 ? 1 : utf8_seq(p + i, len - i);
		if (!n)
			return false;
		i += n;
	}
	return true;
}

const char *heed__content_type_param(const char *ct, const char *param,
                                     size_t *len)
{
	size_t plen = strlen(param);

	for (const char *p = ct ? strchr(ct, ';') : NULL; p;
	     p = strchr(p + 1, ';')) {
		const char *v = p + 1;
		size_t n;
		while (*v == ' ' || *v == '\t')
			v++;
		if (!heed__ascii_ieq(v, plen, param) || v[plen] != '=')
			continue;
		v += plen + 1;
		if (*v == '"')
			v++;
		n = strcspn(v, "\";, \t");
		*len = n;
		return n ? v : NULL;
	}
	return NULL;
}

/* The iconv name for a WHATWG label, or NULL when it is UTF-8 (or unknown,
 * which is treated as no label at all). */
static const char *iconv_name(const char *label, size_t len, bool *known)
{
	static const struct {
		const char *label, *name;
	} map[] = {
	        {"utf-8", NULL},
	        {"utf8", NULL},
	        {"unicode-1-1-utf-8", NULL},
	        {"us-ascii", "WINDOWS-1252"},
	        {"ascii", "WINDOWS-1252"},
	        {"iso-8859-1", "WINDOWS-1252"},
	        {"iso8859-1", "WINDOWS-1252"},
	        {"latin1", "WINDOWS-1252"},
	        {"l1", "WINDOWS-1252"},
	        {"windows-1252", "WINDOWS-1252"},
	        {"cp1252", "WINDOWS-1252"},
	        {"x-cp1252", "WINDOWS-1252"},
	        {"utf-16", "UTF-16LE"},
	        {"utf-16le", "UTF-16LE"},
	        {"utf-16be", "UTF-16BE"},
	        {"iso-8859-15", "ISO-8859-15"},
	        {"latin9", "ISO-8859-15"},
	        {"iso-8859-2", "ISO-8859-2"},
	        {"windows-1250", "WINDOWS-1250"},
	        {"windows-1251", "WINDOWS-1251"},
	        {"koi8-r", "KOI8-R"},
	        {"koi8-u", "KOI8-U"},
	        {"shift_jis", "SHIFT_JIS"},
	        {"sjis", "SHIFT_JIS"},
	        {"x-sjis", "SHIFT_JIS"},
	        {"euc-jp", "EUC-JP"},
	        {"iso-2022-jp", "ISO-2022-JP"},
	        {"euc-kr", "EUC-KR"},
	        {"gb2312", "GBK"},
	        {"gbk", "GBK"},
	        {"gb18030", "GB18030"},
	        {"big5", "BIG5-HKSCS"},
	        {"windows-1253", "WINDOWS-1253"},
	        {"windows-1254", "WINDOWS-1254"},
	        {"iso-8859-9", "WINDOWS-1254"},
	        {"windows-1255", "WINDOWS-1255"},
	        {"windows-1256", "WINDOWS-1256"},
	        {"windows-874", "WINDOWS-874"},
	        {"tis-620", "WINDOWS-874"},
	        {"windows-1258", "WINDOWS-1258"},
	        {"iso-8859-5", "ISO-8859-5"},
	        {"iso-8859-7", "ISO-8859-7"},
	};

	*known = false;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(map); i++)
		if (heed__ascii_ieq(label, len, map[i].label)) {
			*known = true;
			return map[i].name;
		}
	return NULL;
}

bool heed__charset_known(const char *label, size_t len)
{
	bool known;

	(void)iconv_name(label, len, &known);
	return known;
}

/* The value after "charset" (and "=") in [s, end): in <meta charset=X>
 * or a content="text/html; charset=X"; NULL when there is none. */
static const char *charset_value(const char *s, const char *end, size_t *llen)
{
	for (const char *p = s; p + 7 < end; p++) {
		const char *v;
		size_t k = 0;
		if (!heed__ascii_ieq(p, 7, "charset"))
			continue;
		v = p + 7;
		while (v < end && (*v == ' ' || *v == '='))
			v++;
		if (v < end && (*v == '"' || *v == '\''))
			v++;
		while (v + k < end && !strchr("\"'>;/ \t\r\n", v[k]))
			k++;
		if (k) {
			*llen = k;
			return v;
		}
	}
	return NULL;
}

/* Where the tag starting at s ends (after its '>'), quoted attribute
 * values skipped, as HTML's "get an attribute" reads them. */
static const char *tag_end(const char *s, const char *end)
{
	char quote = 0;

	for (; s < end; s++) {
		if (quote) {
			quote = *s == quote ? 0 : quote;
		} else if (*s == '"' || *s == '\'') {
			if (s[-1] == '=' || s[-1] == ' ')
				quote = *s;
		} else if (*s == '>') {
			return s + 1;
		}
	}
	return end;
}

/*
 * HTML's "prescan a byte stream to determine its encoding" (13.2.3.2),
 * over the first PRESCAN_BYTES: comments are skipped, and a charset is
 * read only from a <meta> tag's attributes, never from another tag's
 * (<script charset="utf-8"> names the script's encoding, not the page's)
 * or from text. *llen gets the label's length.
 */
static const char *prescan(const char *s, size_t len, size_t *llen)
{
	const char *end = s + (len < PRESCAN_BYTES ? len : PRESCAN_BYTES);

	for (const char *p = s; p < end;) {
		const char *e;
		if (*p != '<') {
			p++;
			continue;
		}
		if (end - p >= 4 && memcmp(p, "<!--", 4) == 0) {
			e = memmem(p + 4, (size_t)(end - p - 4), "-->", 3);
			p = e ? e + 3 : end;
			continue;
		}
		e = tag_end(p + 1, end);
		if (end - p > 6 && heed__ascii_ieq(p + 1, 4, "meta") &&
		    strchr(" \t\n\r\f/", p[5]) && p[5]) {
			const char *v = charset_value(p + 5, e, llen);
			if (v)
				return v;
		}
		p = e;
	}
	return NULL;
}

/* Converts with iconv; a byte iconv rejects becomes U+FFFD. */
static heed_status convert(struct heed_buf *out, const char *s, size_t len,
                           const char *from)
{
	char chunk[8192];
	char *in = (char *)s;
	size_t left = len;
	heed_status rc = HEED_OK;
	iconv_t cd = iconv_open("UTF-8", from);

	if (cd == (iconv_t)-1)
		return heed__utf8_sanitize(out, s, len);
	while (left && rc == HEED_OK) {
		char *o = chunk;
		size_t room = sizeof(chunk);
		size_t r = iconv(cd, &in, &left, &o, &room);
		rc = heed__utf8_sanitize(out, chunk, (size_t)(o - chunk));
		if (r == (size_t)-1 && errno != E2BIG && rc == HEED_OK) {
			/* EILSEQ or EINVAL (cut at the end): skip a byte. */
			rc = heed__buf_add(out, REPLACEMENT, 3);
			in++;
			left--;
			iconv(cd, NULL, NULL, NULL, NULL);
		}
	}
	iconv_close(cd);
	return rc;
}

heed_status heed__to_utf8(struct heed_buf *out, const char *body, size_t len,
                          const char *hc, size_t hc_len, const char **used,
                          const char **res, size_t *res_len)
{
	heed_status rc;

	const char *name = NULL, *label = NULL;
	size_t llen = 0;
	bool known = false;

	if (hc)
		name = iconv_name(hc, hc_len, &known);
	if (!known && len >= 3 && memcmp(body, "\xEF\xBB\xBF", 3) == 0) {
		known = true;
		name = NULL;
	} else if (!known && len >= 2 &&
	           (memcmp(body, "\xFF\xFE", 2) == 0 ||
	            memcmp(body, "\xFE\xFF", 2) == 0)) {
		known = true;
		name = body[0] == '\xFF' ? "UTF-16LE" : "UTF-16BE";
	}
	if (!known && (label = prescan(body, len, &llen)))
		name = iconv_name(label, llen, &known);
	/* A page that says UTF-16 in ASCII cannot be UTF-16 (HTML 13.2.3.3). */
	if (!hc && label && name && strncmp(name, "UTF-16", 6) == 0)
		name = NULL;
	if (!known)
		name = valid_utf8(body, len) ? NULL : "WINDOWS-1252";
	*used = name ? name : "UTF-8";
	if (len >= 3 && memcmp(body, "\xEF\xBB\xBF", 3) == 0 && !name) {
		body += 3;
		len -= 3;
	} else if (len >= 2 && name && strncmp(name, "UTF-16", 6) == 0 &&
	           (memcmp(body, "\xFF\xFE", 2) == 0 ||
	            memcmp(body, "\xFE\xFF", 2) == 0)) {
		body += 2;
		len -= 2;
	}
	if (!name && clean_utf8(body, len)) {
		*res = body;
		*res_len = len;
		return HEED_OK;
	}
	rc = name ? convert(out, body, len, name)
	          : heed__utf8_sanitize(out, body, len);
	*res = heed__buf_str(out);
	*res_len = out->len;
	return rc;
}
