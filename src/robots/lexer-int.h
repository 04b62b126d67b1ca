/*
 * The robots.txt lexer's line scanner (RFC 9309 2.2), inline: lexer.c wraps
 * it in the public heed_robots_lex_next, and parse.c's loop compiles it in,
 * since it runs for every line of every file and a call per line, with the
 * line handed over in memory, costs a tenth of a parse. Included by those
 * two files only.
 *
 * One pass over each line, driven by a table of octet classes: the name is
 * scanned up to the first ':', '#' or line end, the value up to the first
 * '#' or line end, and only a comment needs a third scan. With SSE2 (every
 * x86-64) sixteen octets are tested at once; elsewhere byte loops do the
 * work, and they finish the input's last octets everywhere. The value's
 * scan also notes whether it holds an octet that percent-encoding
 * normalisation might change, which lets the parser skip that check for
 * most rules. Workload: about 25 octets a line, thousands of lines.
 */
#ifndef HEED_ROBOTS_LEXER_INT_H
#define HEED_ROBOTS_LEXER_INT_H

#include "robots/robots-int.h"

/* Octet classes. ODD marks every octet heed__pct_plain_len does not accept
 * (RFC 3986: not unreserved nor reserved, or '%', or '#'); the unit tests
 * check this table against it. */
enum {
	C_EOL = 0x01,   /* CR, LF */
	C_HASH = 0x02,  /* '#' */
	C_COLON = 0x04, /* ':' */
	C_SPACE = 0x08, /* ' ', '\t' */
	C_ODD = 0x10,   /* normalisation may change it */
};

#define O C_ODD
#define L (C_EOL | C_ODD)
#define S (C_SPACE | C_ODD)
#define H (C_HASH | C_ODD)
#define K C_COLON

static const unsigned char octet_class[256] = {
        O, O, O, O, O, O, O, O, O, S, L, O, O, L, O, O, /* 0x00 */
        O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, /* 0x10 */
        S, 0, O, H, 0, O, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* 0x20 */
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, K, 0, O, 0, O, 0, /* 0x30 */
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* 0x40 */
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, O, 0, O, 0, /* 0x50 */
        O, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* 0x60 */
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, O, O, O, 0, O, /* 0x70 */
        O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, /* 0x80 */
        O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, /* 0x90 */
        O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, /* 0xA0 */
        O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, /* 0xB0 */
        O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, /* 0xC0 */
        O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, /* 0xD0 */
        O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, /* 0xE0 */
        O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, /* 0xF0 */
};

#undef O
#undef L
#undef S
#undef H
#undef K

static inline unsigned cls(const char *p)
{
	return octet_class[(unsigned char)*p];
}

/* The first octet in [p, end) of a class in stop, or end. */
static inline const char *scan(const char *p, const char *end, unsigned stop)
{
	while (p < end && !(cls(p) & stop))
		p++;
	return p;
}

#ifdef __SSE2__
/* Tests of sixteen octets at once, for the scans below. */
#include <emmintrin.h>

static inline __m128i block_eq(__m128i x, char c)
{
	return _mm_cmpeq_epi8(x, _mm_set1_epi8(c));
}

/* Bits of the octets of p[0..15] that end a line. */
static inline unsigned block_eol(const char *p)
{
	__m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);

	return (unsigned)_mm_movemask_epi8(
	        _mm_or_si128(block_eq(x, '\n'), block_eq(x, '\r')));
}

/* Bits of the octets of p[0..15] that can end a name: ':', '#', a line
 * end. */
static inline unsigned block_name_stop(const char *p)
{
	__m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
	__m128i m = _mm_or_si128(block_eq(x, '\n'), block_eq(x, '\r'));

	m = _mm_or_si128(m, block_eq(x, ':'));
	m = _mm_or_si128(m, block_eq(x, '#'));
	return (unsigned)_mm_movemask_epi8(m);
}

/* Bits of the octets of p[0..15] that are C_ODD, exactly as octet_class
 * has them: below '!' (signed: 0x80 and up too), above 'z' but '~', '%',
 * '`', and the pairs '"' '#', '<' '>', '\\' '^', which OR-ing 1 or 2
 * makes one octet each. Exact, so that the parser checks only values that
 * need it, and without a branch per octet: a value's octets are data the
 * branch predictor cannot learn. */
static inline unsigned block_odd(__m128i x)
{
	__m128i or1 = _mm_or_si128(x, _mm_set1_epi8(1));
	__m128i or2 = _mm_or_si128(x, _mm_set1_epi8(2));
	__m128i m = _mm_or_si128(
	        _mm_cmplt_epi8(x, _mm_set1_epi8('!')),
	        _mm_andnot_si128(block_eq(x, '~'),
	                         _mm_cmpgt_epi8(x, _mm_set1_epi8('z'))));

	m = _mm_or_si128(m, block_eq(x, '%'));
	m = _mm_or_si128(m, block_eq(x, '`'));
	m = _mm_or_si128(m, block_eq(or1, '#'));
	m = _mm_or_si128(m, block_eq(or2, '>'));
	m = _mm_or_si128(m, block_eq(or2, '^'));
	return (unsigned)_mm_movemask_epi8(m);
}

/* Bits of the octets of p[0..15] that end a value: '#', a line end. */
static inline unsigned block_value_stop(__m128i x)
{
	return (unsigned)_mm_movemask_epi8(
	        _mm_or_si128(_mm_or_si128(block_eq(x, '\n'), block_eq(x, '\r')),
	                     block_eq(x, '#')));
}

#else
#define block_name_stop NULL
#define block_eol       NULL
#endif

/* The first octet in [p, end) of a class in stop, or end; block gives the
 * bits of sixteen octets with those classes. */
static inline const char *scan_blocks(const char *p, const char *end,
                                      unsigned (*block)(const char *p),
                                      unsigned stop)
{
#ifdef __SSE2__
	unsigned bits;

	for (; end - p >= 16; p += 16) {
		bits = block(p);
		if (bits)
			return p + __builtin_ctz(bits);
	}
#else
	(void)block;
#endif
	return scan(p, end, stop);
}

/* The first ':', '#' or line end in [p, end), or end. */
static inline const char *scan_name(const char *p, const char *end)
{
	return scan_blocks(p, end, block_name_stop, C_EOL | C_HASH | C_COLON);
}

/* The first line end in [p, end), or end. */
static inline const char *scan_eol(const char *p, const char *end)
{
	return scan_blocks(p, end, block_eol, C_EOL);
}

/* The first '#' or line end in [p, end), or end; *odd tells whether a C_ODD
 * octet comes before it. */
static inline const char *scan_value(const char *p, const char *end, bool *odd)
{
	unsigned acc = 0, c;

#ifdef __SSE2__
	while (end - p >= 16) {
		__m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
		unsigned stop = block_value_stop(x), bits = block_odd(x);
		if (stop) {
			unsigned at = (unsigned)__builtin_ctz(stop);
			*odd = acc || (bits & ((1u << at) - 1));
			return p + at;
		}
		acc |= bits;
		p += 16;
	}
#endif
	for (; p < end; p++) {
		c = cls(p);
		if (c & (C_EOL | C_HASH))
			break;
		acc |= c & C_ODD;
	}
	*odd = acc;
	return p;
}

static inline bool is_space(const char *p)
{
	return cls(p) & C_SPACE;
}

static inline const char *skip_space(const char *p, const char *end)
{
	while (p < end && is_space(p))
		p++;
	return p;
}

/* The end of [start, end) without its trailing white space. */
static inline const char *rtrim(const char *start, const char *end)
{
	while (end > start && is_space(end - 1))
		end--;
	return end;
}

/* A line without a colon: the name is its first word, the value the rest,
 * so that a lenient parser can read "Disallow /x". [text, text_end) is the
 * line before any comment, trimmed and not empty. */
static inline const char *split_words(struct heed_robots_line *out,
                                      const char *text, const char *text_end)
{
	const char *word_end = scan(text, text_end, C_SPACE);
	const char *value = skip_space(word_end, text_end);

	out->kind = HEED_ROBOTS_LINE_NO_COLON;
	out->name = text;
	out->name_len = (size_t)(word_end - text);
	/* An empty value sits right after the name, as it did before. */
	out->value = value < text_end ? value : word_end;
	out->value_len = (size_t)(text_end - value);
	return value;
}

/* Moves the lexer past the line that ends at eol (CRLF counts once). */
static inline void next_line(struct heed_robots_lexer *lx,
                             struct heed_robots_line *out, const char *eol)
{
	const char *end = lx->data + lx->len;

	out->line_len = (size_t)(eol - out->line);
	lx->pos += out->line_len;
	if (eol < end)
		lx->pos += eol[0] == '\r' && eol + 1 < end && eol[1] == '\n'
		                   ? 2
		                   : 1;
}

/*
 * Finishes a FIELD line whose name (name_len octets from the line's start)
 * and colon (at colon_at) are known, and whose value starts at value_at with
 * an octet that is no white space: only the value is left to scan. Returns
 * false, leaving lx as it was, when the line has a comment.
 */
static inline bool lex_value_at(struct heed_robots_lexer *lx,
                                struct heed_robots_line *out, size_t name_len,
                                size_t colon_at, size_t value_at,
                                bool *maybe_odd)
{
	const char *start = lx->data + lx->pos, *end = lx->data + lx->len;
	const char *value = start + value_at;
	const char *eol = scan_value(value, end, maybe_odd);

	if (eol < end && *eol == '#')
		return false;
	out->number = ++lx->line;
	out->line = start;
	out->kind = HEED_ROBOTS_LINE_FIELD;
	out->name = start;
	out->name_len = name_len;
	/* White space is C_ODD: without it, nothing to trim. */
	out->value_len =
	        (size_t)((*maybe_odd ? rtrim(value, eol) : eol) - value);
	/* An empty value sits right after the colon. */
	out->value = out->value_len ? value : start + colon_at + 1;
	out->raw_value = value;
	out->raw_value_len = out->value_len;
	out->comment = NULL;
	out->comment_len = 0;
	next_line(lx, out, eol);
	return true;
}

/*
 * The common line, "name: value" without a comment, on the shortest path:
 * scan_name finds the colon, scan_value the value's end and the octets the
 * parser must look at twice, and white space is looked at only where the
 * common line has none or one space. Returns false, leaving lx as it was,
 * for any other line (leading white space, a comment, no colon):
 * robots_lex_line's general path takes those.
 */
static inline bool lex_field(struct heed_robots_lexer *lx,
                             struct heed_robots_line *out, bool *maybe_odd)
{
	const char *start = lx->data + lx->pos, *end = lx->data + lx->len;
	const char *colon, *value;

	if (is_space(start))
		return false;
	colon = scan_name(start, end);
	if (colon == end || *colon != ':')
		return false;
	value = colon + 1;
	if (value < end && *value == ' ')
		value++;
	if (value < end && is_space(value))
		return false;
	return lex_value_at(lx, out, (size_t)(rtrim(start, colon) - start),
	                    (size_t)(colon - start), (size_t)(value - start),
	                    maybe_odd);
}

/*
 * heed_robots_lex_next, telling the parser more: *maybe_odd false promises
 * that a FIELD line's value is left as it is by percent-encoding
 * normalisation (heed__pct_plain_len(value) == value_len).
 */
static inline bool robots_lex_line(struct heed_robots_lexer *lx,
                                   struct heed_robots_line *out,
                                   bool *maybe_odd)
{
	const char *start, *end, *p, *stop, *value = NULL, *value_end, *eol;
	bool odd = true;

	if (lx->pos >= lx->len)
		return false;
	if (lex_field(lx, out, maybe_odd))
		return true;
	start = lx->data + lx->pos;
	end = lx->data + lx->len;
	out->number = ++lx->line;
	out->line = start;
	out->comment = NULL;
	out->comment_len = 0;
	/* One scan to the first ':', '#' or line end decides the kind. */
	p = skip_space(start, end);
	stop = scan_name(p, end);
	if (stop < end && *stop == ':') {
		out->kind = HEED_ROBOTS_LINE_FIELD;
		out->name = p;
		out->name_len = (size_t)(rtrim(p, stop) - p);
		value = skip_space(stop + 1, end);
		eol = scan_value(value, end, &odd);
		value_end = rtrim(value, eol);
		/* An empty value sits right after the colon. */
		out->value = value < value_end ? value : stop + 1;
		out->value_len = (size_t)(value_end - value);
		/* Without a comment, the raw value is the value. */
		out->raw_value = value;
		out->raw_value_len = out->value_len;
	} else {
		const char *text_end = rtrim(p, stop);
		eol = stop;
		if (text_end == p) {
			out->kind = stop < end && *stop == '#'
			                    ? HEED_ROBOTS_LINE_COMMENT
			                    : HEED_ROBOTS_LINE_BLANK;
			out->name = out->value = out->raw_value = p;
			out->name_len = out->value_len = 0;
			out->raw_value_len = 0;
		} else {
			value = split_words(out, p, text_end);
		}
	}
	if (eol < end && *eol == '#') {
		out->comment = eol + 1;
		eol = scan_eol(eol + 1, end);
		out->comment_len = (size_t)(eol - out->comment);
	}
	if (out->kind == HEED_ROBOTS_LINE_NO_COLON ||
	    (out->kind == HEED_ROBOTS_LINE_FIELD && out->comment)) {
		/* The raw value runs from the value to the end of the line. */
		value = skip_space(value, eol);
		out->raw_value = value;
		out->raw_value_len = (size_t)(rtrim(value, eol) - value);
	}
	*maybe_odd = odd;
	next_line(lx, out, eol);
	return true;
}

#endif /* HEED_ROBOTS_LEXER_INT_H */
