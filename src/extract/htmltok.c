/*
 * The HTML tokenizer: WHATWG HTML Standard 13.2.5 "Tokenization", the
 * states a metadata reader needs, over sanitised UTF-8 (charset.c: no NUL,
 * so the spec's NUL rules never fire, and input stream preprocessing
 * (13.2.3.5: CR LF to LF) is left out: every consumer collapses white
 * space).
 *
 * - Data state: text runs are found with memchr() for '<'; a '<' that
 *   starts no markup (13.2.5.6: not followed by a letter, '/', '!' or
 *   '?') stays in the run, so a run never splits a character reference.
 * - Tags: tag name, before/after attribute name, attribute name, before
 *   attribute value, the three value states, after quoted value and
 *   self-closing start tag (13.2.5.8-13.2.5.40). A tag cut by the end of
 *   the input is dropped, as the spec's EOF rules say.
 * - Markup declarations (13.2.5.42): comments with "<!-->", "<!--->" and
 *   "--!>" (13.2.5.43-13.2.5.52), DOCTYPEs skipped to '>' (a quoted
 *   identifier ends at '>' too: 13.2.5.58 "abrupt-doctype"), bogus
 *   comments for "<?" and "</" + non-letter, CDATA sections only in
 *   foreign content (13.2.5.69).
 * - RCDATA, RAWTEXT and script data end only at "</" + the appropriate
 *   end tag name + white space, '/' or '>' (13.2.5.9-13.2.5.20); script
 *   data's escaped and double-escaped states (13.2.5.21-13.2.5.31) are
 *   followed, so "<!--" ... "<script>" inside a script cannot end it early.
 * - Character references (13.2.5.72-13.2.5.80): numeric ones with the
 *   spec's windows-1252 table, U+FFFD for 0, surrogates and values past
 *   U+10FFFF; named ones from libxml2's table (the HTML 4 set: 253 names;
 *   HTML5's further names are left as text), longest legacy prefix without
 *   ';', and in attributes no decoding of a legacy name without ';' that
 *   is followed by '=' or an alphanumeric.
 */
#include <libxml/HTMLparser.h>

#include "extract/htmltok.h"

#define MAX_ENTITY_NAME       32 /* scanned for a ';' after a name */
#define HTML4_MAX_ENTITY_NAME 8  /* "thetasym", the longest in the table */

/* Character classes of the tokenizer's loops, one table look-up each. */
enum {
	C_SPACE = 1, /* ASCII white space (13.2.5.33: tab, LF, FF, CR, ' ') */
	C_NAME_END = 2,  /* ends a tag name: white space, '/', '>' */
	C_ATTR_END = 4,  /* ends an attribute name: those and '=' */
	C_VALUE_END = 8, /* ends an unquoted value: white space, '>' */
	C_ALPHA = 16,
	C_ALNUM = 32,
};

#define WS (C_SPACE | C_NAME_END | C_ATTR_END | C_VALUE_END)

static const unsigned char cls[256] = {
        ['\t'] = WS,
        ['\n'] = WS,
        ['\f'] = WS,
        ['\r'] = WS,
        [' '] = WS,
        ['/'] = C_NAME_END | C_ATTR_END,
        ['>'] = C_NAME_END | C_ATTR_END | C_VALUE_END,
        ['='] = C_ATTR_END,
        ['0' ... '9'] = C_ALNUM,
        ['A' ... 'Z'] = C_ALPHA | C_ALNUM,
        ['a' ... 'z'] = C_ALPHA | C_ALNUM,
};

static bool is_alpha(unsigned char c)
{
	return cls[c] & C_ALPHA;
}

static bool is_alnum(unsigned char c)
{
	return cls[c] & C_ALNUM;
}

static bool is_space(unsigned char c)
{
	return cls[c] & C_SPACE;
}

/* Ends a tag name or attribute name (13.2.5.8, 13.2.5.33). */
static bool ends_name(unsigned char c)
{
	return cls[c] & C_NAME_END;
}

static size_t put_utf8(char *out, unsigned long cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xC0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xE0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		out[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	out[0] = (char)(0xF0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
	out[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

/* 13.2.5.80 "Numeric character reference end state". */
static unsigned long numeric_value(unsigned long v)
{
	/* The windows-1252 meaning of 0x80-0x9F; 0 where none. */
	static const unsigned short c1[32] = {
	        0x20AC, 0,      0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
	        0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0,      0x017D, 0,
	        0,      0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
	        0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0,      0x017E, 0x0178,
	};

	if (v == 0 || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
		return 0xFFFD;
	if (v >= 0x80 && v <= 0x9F && c1[v - 0x80])
		return c1[v - 0x80];
	return v;
}

/* "&#..." at s; 0 when no digit follows (the text stays as it is). */
static size_t numeric_ref(const char *s, size_t n, char *out, size_t *olen)
{
	bool hex = n > 2 && (s[2] == 'x' || s[2] == 'X');
	size_t i = hex ? 3 : 2, digits = 0;
	unsigned long v = 0;

	for (; i < n; i++, digits++) {
		unsigned char c = (unsigned char)s[i];
		unsigned d;
		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (hex && (c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			d = (c | 0x20) - 'a' + 10;
		else
			break;
		/* Past U+10FFFF the value no longer matters: it is U+FFFD. */
		v = v > 0x10FFFF ? v : v * (hex ? 16 : 10) + d;
	}
	if (!digits)
		return 0;
	if (i < n && s[i] == ';')
		i++;
	*olen = put_utf8(out, numeric_value(v));
	return i;
}

/* The code point of a named reference (without its ';'), or 0. legacy:
 * only the names the spec lets go without ';' (the Latin-1 ones and amp,
 * lt, gt, quot, in both cases for the last four and COPY, REG). Each
 * look-up in libxml2's table (a linear search) spends one of *budget. */
static unsigned long entity(const char *name, size_t len, bool legacy,
                            size_t *budget)
{
	static const char *const upper[] = {"AMP",  "LT",   "GT",
	                                    "QUOT", "COPY", "REG"};
	char key[MAX_ENTITY_NAME + 1];
	const htmlEntityDesc *e;

	if (len == 3 && memcmp(name, "amp", 3) == 0)
		return '&';
	if (len == 2 && (name[0] == 'l' || name[0] == 'g') && name[1] == 't')
		return name[0] == 'l' ? '<' : '>';
	if (len == 4 && memcmp(name, "quot", 4) == 0)
		return '"';
	if (len == 4 && memcmp(name, "nbsp", 4) == 0)
		return 0xA0;
	if (len > HTML4_MAX_ENTITY_NAME || !*budget)
		return 0;
	(*budget)--;
	memcpy(key, name, len);
	key[len] = '\0';
	/* HTML5's upper-case spellings of a few legacy names. */
	for (size_t i = 0; i < HEED_ARRAY_SIZE(upper); i++)
		if (strcmp(key, upper[i]) == 0)
			for (size_t j = 0; j < len; j++)
				key[j] = heed__ascii_lower(key[j]);
	e = htmlEntityLookup((const xmlChar *)key);
	if (!e)
		return 0;
	if (legacy && !(e->value >= 0xA0 && e->value <= 0xFF) &&
	    e->value != '"' && e->value != '&' && e->value != '<' &&
	    e->value != '>')
		return 0;
	return e->value;
}

/* The character reference at s (s[0] is '&'): bytes consumed, its UTF-8
 * in out (at most 4 bytes); 0 when it is no reference. */
static size_t char_ref(const char *s, size_t n, bool attr, size_t *budget,
                       char *out, size_t *olen)
{
	size_t name_len = 0;
	unsigned long cp;

	if (n > 1 && s[1] == '#')
		return numeric_ref(s, n, out, olen);
	while (1 + name_len < n && name_len < MAX_ENTITY_NAME &&
	       is_alnum((unsigned char)s[1 + name_len]))
		name_len++;
	if (!name_len)
		return 0;
	if (1 + name_len < n && s[1 + name_len] == ';' &&
	    (cp = entity(s + 1, name_len, false, budget))) {
		*olen = put_utf8(out, cp);
		return name_len + 2;
	}
	/* The longest legacy name the run starts with ("&notit" is "¬it"). */
	for (size_t k = name_len < 6 ? name_len : 6; k >= 2; k--) {
		if (!(cp = entity(s + 1, k, true, budget)))
			continue;
		/* 13.2.5.73: "for historical reasons", in an attribute
		 * "&amp=" and "&ampx" stay as they are. */
		if (attr && 1 + k < n &&
		    (s[1 + k] == '=' || is_alnum((unsigned char)s[1 + k])))
			return 0;
		*olen = put_utf8(out, cp);
		return k + 1;
	}
	return 0;
}

/* Decodes s[0..len) into out, which has room for len bytes (a reference
 * never grows: "&#0" is 3 bytes and so is U+FFFD). Returns the length. */
static size_t decode_into(char *out, const char *s, size_t len, size_t *budget)
{
	size_t o = 0;

	for (size_t i = 0; i < len;) {
		const char *amp = memchr(s + i, '&', len - i);
		size_t run = amp ? (size_t)(amp - s) - i : len - i, used, olen;
		char ch[4];

		memmove(out + o, s + i, run);
		o += run;
		i += run;
		if (i == len)
			break;
		used = char_ref(s + i, len - i, true, budget, ch, &olen);
		if (!used) {
			out[o++] = '&';
			i++;
			continue;
		}
		memcpy(out + o, ch, olen);
		o += olen;
		i += used;
	}
	return o;
}

heed_status heed__htmltok_decode(struct heed_htmltok *t, struct heed_buf *out,
                                 const char *s, size_t len)
{
	heed_status rc = HEED_OK;

	for (size_t i = 0; i < len && rc == HEED_OK;) {
		const char *amp = memchr(s + i, '&', len - i);
		size_t run = amp ? (size_t)(amp - s) - i : len - i, used, olen;
		char ch[4];

		rc = heed__buf_add(out, s + i, run);
		i += run;
		if (i == len || rc != HEED_OK)
			break;
		used = char_ref(s + i, len - i, false, &t->lookups_left, ch,
		                &olen);
		if (!used) {
			rc = heed__buf_addc(out, '&');
			i++;
		} else {
			rc = heed__buf_add(out, ch, olen);
			i += used;
		}
	}
	return rc;
}

void heed__htmltok_init(struct heed_htmltok *t, const char *buf, size_t len,
                        const struct heed_allocator *a)
{
	memset(t, 0, sizeof(*t));
	t->buf = buf;
	t->len = len;
	t->alloc = a;
	t->lookups_left = HTMLTOK_MAX_ENTITY_LOOKUPS;
}

void heed__htmltok_free(struct heed_htmltok *t)
{
	heed__free(t->alloc, t->scratch);
	t->scratch = NULL;
	t->scratch_cap = t->scratch_len = 0;
}

enum htmltok_mode heed__htmltok_mode_for(const char *name, size_t len)
{
	static const struct {
		const char *name;
		size_t len;
		enum htmltok_mode mode;
	} modes[] = {
	        {"title", 5, HTMLTOK_RCDATA},
	        {"textarea", 8, HTMLTOK_RCDATA},
	        {"style", 5, HTMLTOK_RAWTEXT},
	        {"xmp", 3, HTMLTOK_RAWTEXT},
	        {"iframe", 6, HTMLTOK_RAWTEXT},
	        {"noembed", 7, HTMLTOK_RAWTEXT},
	        {"noframes", 8, HTMLTOK_RAWTEXT},
	        /* Scripting is on, as in browsers (13.2.6.4.7). */
	        {"noscript", 8, HTMLTOK_RAWTEXT},
	        {"script", 6, HTMLTOK_SCRIPT},
	        {"plaintext", 9, HTMLTOK_PLAINTEXT},
	};

	/* Most tags are none of these: rule them out by length. */
	if (len < 3 || len > 9)
		return HTMLTOK_DATA;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(modes); i++)
		if (len == modes[i].len && name[0] == modes[i].name[0] &&
		    memcmp(name, modes[i].name, len) == 0)
			return modes[i].mode;
	return HTMLTOK_DATA;
}

void heed__htmltok_set_mode(struct heed_htmltok *t, enum htmltok_mode mode)
{
	t->mode = mode;
	if (t->kind == HTMLTOK_START && t->name_len < sizeof(t->last_start)) {
		memcpy(t->last_start, t->name, t->name_len + 1);
		t->last_start_len = t->name_len;
	}
}

/* reserve()'s slow path: grows the scratch buffer. */
static char *grow_scratch(struct heed_htmltok *t, size_t need, heed_status *rc)
{
	size_t cap = t->scratch_cap ? t->scratch_cap : 4096;
	char *p;

	if (need > HTMLTOK_MAX_TAG_BYTES) {
		*rc = HEED_ETOOBIG;
		return NULL;
	}
	while (cap < need)
		cap *= 2;
	p = heed__realloc(t->alloc, t->scratch, cap);
	if (!p) {
		*rc = HEED_ENOMEM;
		return NULL;
	}
	t->scratch = p;
	t->scratch_cap = cap;
	return t->scratch + t->scratch_len;
}

/* Room for n more bytes of scratch: a pointer to them, or NULL (*rc says
 * whether the tag's ceiling or the allocator refused). */
static inline char *reserve(struct heed_htmltok *t, size_t n, heed_status *rc)
{
	if (t->scratch_len + n <= t->scratch_cap)
		return t->scratch + t->scratch_len;
	return grow_scratch(t, t->scratch_len + n, rc);
}

/* Copies a name lower-cased (at most HTMLTOK_MAX_NAME bytes) with a NUL. */
static heed_status add_name(struct heed_htmltok *t, const char *s, size_t n)
{
	heed_status rc = HEED_OK;
	char *d;

	n = n < HTMLTOK_MAX_NAME ? n : HTMLTOK_MAX_NAME;
	d = reserve(t, n + 1, &rc);
	if (!d)
		return rc;
	for (size_t i = 0; i < n; i++)
		d[i] = heed__ascii_lower(s[i]);
	d[n] = '\0';
	t->scratch_len += n + 1;
	return HEED_OK;
}

/* True when the attribute named at scratch offset off is already there. */
static bool duplicate(const struct heed_htmltok *t, size_t off)
{
	const char *name = t->scratch + off;

	for (size_t i = 0; i < t->natts; i++) {
		const char *a = t->scratch + t->offs[2 * i], *b = name;
		while (*a && *a == *b)
			a++, b++;
		if (*a == *b)
			return true;
	}
	return false;
}

/* Adds an attribute; the first of a name wins (13.2.5.33: "if there is
 * already an attribute on the token with the exact same name ... the new
 * attribute must be removed from the token"). Only HEED_ENOMEM fails. */
static heed_status add_attr(struct heed_htmltok *t, const char *n, size_t nlen,
                            const char *v, size_t vlen)
{
	size_t name_off = t->scratch_len;
	heed_status rc;
	char *d;

	if (t->natts == HTMLTOK_MAX_ATTRS || vlen > HTMLTOK_MAX_VALUE)
		return HEED_OK;
	rc = add_name(t, n, nlen);
	if (rc == HEED_OK && duplicate(t, name_off))
		rc = HEED_ETOOBIG; /* dropped, like an attribute too big */
	d = rc == HEED_OK ? reserve(t, vlen + 1, &rc) : NULL;
	if (!d) {
		t->scratch_len = name_off;
		return rc == HEED_ENOMEM ? rc : HEED_OK;
	}
	if (memchr(v, '&', vlen))
		vlen = decode_into(d, v, vlen, &t->lookups_left);
	else
		memcpy(d, v, vlen);
	d[vlen] = '\0';
	t->offs[2 * t->natts] = name_off;
	t->offs[2 * t->natts + 1] = t->scratch_len;
	t->scratch_len += vlen + 1;
	t->natts++;
	return HEED_OK;
}

static size_t skip_space(const char *b, size_t i, size_t n)
{
	while (i < n && is_space((unsigned char)b[i]))
		i++;
	return i;
}

/* An attribute value from i (13.2.5.36-13.2.5.39): its span; the index
 * after it, or n when the input ends inside it. */
static size_t attr_value(const char *b, size_t i, size_t n, size_t *vs,
                         size_t *vlen)
{
	size_t j;

	if (b[i] == '"' || b[i] == '\'') {
		const char *q = memchr(b + i + 1, b[i], n - i - 1);
		if (!q)
			return n;
		*vs = i + 1;
		*vlen = (size_t)(q - b) - i - 1;
		return (size_t)(q - b) + 1;
	}
	if (b[i] == '>') { /* missing-attribute-value: "" */
		*vs = i;
		*vlen = 0;
		return i;
	}
	for (j = i; j < n && !(cls[(unsigned char)b[j]] & C_VALUE_END);)
		j++;
	*vs = i;
	*vlen = j - i;
	return j;
}

/* The attributes and the end of a tag from i, after its name. Returns
 * the index after '>', or 0 when the input ends inside the tag. */
static size_t attributes(struct heed_htmltok *t, size_t i, heed_status *rc)
{
	const char *b = t->buf;
	size_t n = t->len;

	while ((i = skip_space(b, i, n)) < n) {
		size_t ns = i, ne, vs = 0, vlen = 0;

		if (b[i] == '>')
			return i + 1;
		if (b[i] == '/') { /* 13.2.5.40 */
			if (++i < n && b[i] == '>') {
				t->self_closing = true;
				return i + 1;
			}
			continue;
		}
		/* A leading '=' is part of the name (13.2.5.32). */
		for (i++; i < n && !(cls[(unsigned char)b[i]] & C_ATTR_END);)
			i++;
		ne = i;
		i = skip_space(b, i, n);
		if (i < n && b[i] == '=') {
			i = skip_space(b, i + 1, n);
			if (i < n)
				i = attr_value(b, i, n, &vs, &vlen);
			if (i >= n)
				return 0;
		}
		*rc = add_attr(t, b + ns, ne - ns, b + vs, vlen);
		if (*rc != HEED_OK)
			return 0;
	}
	return 0;
}

static void text_token(struct heed_htmltok *t, size_t from, size_t to,
                       bool refs, bool raw)
{
	t->kind = HTMLTOK_TEXT;
	t->start = from;
	t->end = to;
	t->text = t->buf + from;
	t->text_len = to - from;
	t->refs = refs;
	t->raw = raw;
	t->pos = to;
}

/* A tag whose name starts at i; the '<' is at lt. */
static heed_status tag(struct heed_htmltok *t, size_t lt, size_t i, bool end)
{
	const char *b = t->buf;
	size_t n = t->len, j = i;
	heed_status rc;

	while (j < n && !ends_name((unsigned char)b[j]))
		j++;
	t->name_len = j - i < HTMLTOK_MAX_NAME ? j - i : HTMLTOK_MAX_NAME;
	t->scratch_len = 0;
	t->natts = 0;
	t->self_closing = false;
	rc = add_name(t, b + i, j - i);
	if (rc == HEED_OK)
		j = attributes(t, j, &rc);
	if (rc != HEED_OK || j == 0) {
		/* EOF in a tag: "emit an end-of-file token", the tag is lost
		 * (13.2.5.8 and the states after it). */
		t->pos = t->start = t->end = n;
		t->kind = HTMLTOK_EOF;
		return rc; /* HEED_OK, or HEED_ENOMEM */
	}
	t->kind = end ? HTMLTOK_END : HTMLTOK_START;
	t->start = lt;
	t->end = t->pos = j;
	t->name = t->scratch;
	if (end) { /* end tags' attributes and '/' are parse errors */
		t->natts = 0;
		t->self_closing = false;
	}
	for (size_t k = 0; k < 2 * t->natts; k++)
		t->atts[k] = t->scratch + t->offs[k];
	t->atts[2 * t->natts] = NULL;
	if (!end && !t->foreign) {
		enum htmltok_mode m =
		        heed__htmltok_mode_for(t->name, t->name_len);
		if (m != HTMLTOK_DATA)
			heed__htmltok_set_mode(t, m);
	}
	return HEED_OK;
}

/* Index after the first '>' from i, or n. */
static size_t past_gt(const char *b, size_t i, size_t n)
{
	const char *gt = i < n ? memchr(b + i, '>', n - i) : NULL;

	return gt ? (size_t)(gt - b) + 1 : n;
}

/* A comment whose text starts at i, after "<!--" (13.2.5.43-13.2.5.52):
 * the index after it. */
static size_t comment_end(const char *b, size_t i, size_t n)
{
	size_t from = i;

	/* "<!-->" and "<!--->": abrupt-closing-of-empty-comment. */
	if (i < n && b[i] == '>')
		return i + 1;
	if (i + 1 < n && b[i] == '-' && b[i + 1] == '>')
		return i + 2;
	while (i < n) {
		const char *gt = memchr(b + i, '>', n - i);
		size_t g;
		if (!gt)
			return n;
		g = (size_t)(gt - b);
		if (g >= from + 2 && b[g - 1] == '-' && b[g - 2] == '-')
			return g + 1;
		if (g >= from + 3 && b[g - 1] == '!' && b[g - 2] == '-' &&
		    b[g - 3] == '-')
			return g + 1; /* incorrectly-closed-comment */
		i = g + 1;
	}
	return n;
}

/* "<!" at lt (13.2.5.42). Returns true with a token (a CDATA section's
 * text), false when it was skipped (t->pos moved past it). */
static bool declaration(struct heed_htmltok *t, size_t lt)
{
	const char *b = t->buf;
	size_t n = t->len, i = lt + 2;

	if (i + 1 < n && b[i] == '-' && b[i + 1] == '-') {
		t->pos = comment_end(b, i + 2, n);
		return false;
	}
	if (t->foreign && n - i >= 7 && memcmp(b + i, "[CDATA[", 7) == 0) {
		const char *e = memmem(b + i + 7, n - i - 7, "]]>", 3);
		size_t to = e ? (size_t)(e - b) : n;
		text_token(t, i + 7, to, false, false);
		t->start = lt;
		t->pos = t->end = e ? to + 3 : n;
		return true;
	}
	/* DOCTYPE (its identifiers end at '>' as well) or a bogus comment. */
	t->pos = past_gt(b, i, n);
	return false;
}

/* What "<" at i starts in the data state (13.2.5.6). */
enum lt_kind { LT_TEXT, LT_START, LT_END, LT_SKIP, LT_DECL };

static enum lt_kind lt_kind(const char *b, size_t i, size_t n)
{
	unsigned char c = i + 1 < n ? (unsigned char)b[i + 1] : 0;

	if (is_alpha(c))
		return LT_START;
	if (c == '!')
		return LT_DECL;
	if (c == '?')
		return LT_SKIP; /* bogus comment */
	if (c != '/' || i + 2 >= n)
		return LT_TEXT; /* "</" at the end is text (13.2.5.7) */
	return is_alpha((unsigned char)b[i + 2]) ? LT_END : LT_SKIP;
}

/* The data state: text up to the next markup, or that markup. */
static heed_status data(struct heed_htmltok *t)
{
	const char *b = t->buf;
	size_t n = t->len, from = t->pos, i = t->pos;

	while (i < n) {
		/* A tag often follows a tag: no call for that. */
		const char *lt =
		        b[i] == '<' ? b + i : memchr(b + i, '<', n - i);
		enum lt_kind k;

		if (!lt)
			break;
		i = (size_t)(lt - b);
		k = lt_kind(b, i, n);
		if (k == LT_TEXT) {
			i++;
			continue;
		}
		if (i > from) {
			text_token(t, from, i, true, false);
			return HEED_OK;
		}
		if (k == LT_START || k == LT_END)
			return tag(t, i, i + (k == LT_END ? 2 : 1),
			           k == LT_END);
		if (k == LT_DECL && declaration(t, i))
			return HEED_OK;
		/* "</>" is dropped (13.2.5.7); "<?", "</1" are bogus
		 * comments to '>' (13.2.5.41). */
		if (k == LT_SKIP)
			t->pos = past_gt(b, i + 2, n);
		from = i = t->pos;
	}
	if (n > from) {
		text_token(t, from, n, true, false);
		return HEED_OK;
	}
	t->pos = t->start = t->end = n;
	t->kind = HTMLTOK_EOF;
	return HEED_OK;
}

/* True when "</NAME" + white space, '/' or '>' is at i (13.2.5.11 and
 * friends: the appropriate end tag). */
static bool end_tag_at(const char *b, size_t i, size_t n, const char *name,
                       size_t len)
{
	return n - i > len + 2 && b[i + 1] == '/' &&
	       heed__ascii_ieq(b + i + 2, len, name) &&
	       ends_name((unsigned char)b[i + 2 + len]);
}

/* Where RCDATA or RAWTEXT from i ends: the '<' of its end tag, or n. */
static size_t raw_end(const struct heed_htmltok *t, size_t i)
{
	const char *b = t->buf;
	size_t n = t->len;

	while (i < n) {
		const char *lt = memchr(b + i, '<', n - i);
		if (!lt)
			return n;
		i = (size_t)(lt - b);
		if (end_tag_at(b, i, n, t->last_start, t->last_start_len))
			return i;
		i++;
	}
	return n;
}

/* "<script" + white space, '/' or '>' at i (13.2.5.26, 13.2.5.31's
 * temporary buffer test). */
static bool script_word(const char *b, size_t i, size_t n)
{
	return n - i > 6 && heed__ascii_ieq(b + i, 6, "script") &&
	       ends_name((unsigned char)b[i + 6]);
}

enum script_state { SD, ESC, ESC_DASH, ESC_DASH2, DBL, DBL_DASH, DBL_DASH2 };

/* One byte of script data's escaped (ESC*) or double-escaped (DBL*)
 * states, 13.2.5.20-13.2.5.31; *i moves past what was read. Returns the
 * next state. */
static enum script_state script_step(const char *b, size_t *i, size_t n,
                                     enum script_state s)
{
	bool dbl = s >= DBL;
	char c = b[*i];

	if (c == '<' && !dbl && script_word(b, *i + 1, n)) {
		*i += 7;
		return DBL;
	}
	if (c == '<' && dbl && *i + 1 < n && b[*i + 1] == '/' &&
	    script_word(b, *i + 2, n)) {
		*i += 8;
		return ESC;
	}
	(*i)++;
	if (c == '-' && s == ESC)
		return ESC_DASH;
	if (c == '-' && s == DBL)
		return DBL_DASH;
	if (c == '-')
		return dbl ? DBL_DASH2 : ESC_DASH2;
	if (c == '>' && (s == ESC_DASH2 || s == DBL_DASH2))
		return SD;
	return dbl ? DBL : ESC;
}

/* Where script data from i ends: the '<' of "</script", or n. */
static size_t script_end(const char *b, size_t i, size_t n)
{
	enum script_state s = SD;

	while (i < n) {
		if (s == SD) {
			const char *lt = memchr(b + i, '<', n - i);
			if (!lt)
				return n;
			i = (size_t)(lt - b);
			if (end_tag_at(b, i, n, "script", 6))
				return i;
			/* "<!--": escape start, escape start dash, then the
			 * escaped dash dash state. */
			if (n - i >= 4 && memcmp(b + i, "<!--", 4) == 0) {
				s = ESC_DASH2;
				i += 4;
			} else {
				i++;
			}
			continue;
		}
		if (s < DBL && b[i] == '<' && end_tag_at(b, i, n, "script", 6))
			return i;
		s = script_step(b, &i, n, s);
	}
	return n;
}

/* RCDATA, RAWTEXT, script data or PLAINTEXT from t->pos. */
static heed_status text_mode(struct heed_htmltok *t)
{
	size_t from = t->pos, to;

	switch (t->mode) {
	case HTMLTOK_PLAINTEXT:
		text_token(t, from, t->len, false, false);
		return HEED_OK;
	case HTMLTOK_SCRIPT:
		to = script_end(t->buf, from, t->len);
		break;
	default:
		to = raw_end(t, from);
		break;
	}
	if (to > from) {
		text_token(t, from, to, t->mode == HTMLTOK_RCDATA,
		           t->mode != HTMLTOK_RCDATA);
		return HEED_OK;
	}
	/* At the appropriate end tag: back to data, which reads it. */
	t->mode = HTMLTOK_DATA;
	return data(t);
}

heed_status heed__htmltok_next(struct heed_htmltok *t)
{
	t->natts = 0;
	t->atts[0] = NULL;
	t->self_closing = false;
	if (t->pos >= t->len) {
		t->kind = HTMLTOK_EOF;
		t->start = t->end = t->len;
		return HEED_OK;
	}
	return t->mode == HTMLTOK_DATA ? data(t) : text_mode(t);
}
