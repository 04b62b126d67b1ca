/*
 * robots.txt lexer: bytes to lines of `name: value`.
 *
 * RFC 9309 2.2: records are `name: value` lines; "#" starts a comment that
 * runs to the end of the line; lines end in CR, LF or CRLF; white space
 * around names and values is insignificant. The lexer only splits: deciding
 * what a name means is the parser's job (and the ACAP module's), so unknown
 * fields reach them untouched with their line numbers.
 *
 * No allocation, one pass, every pointer into the caller's buffer.
 */
#include <string.h>

#include "common/common-int.h"
#include "heed/robots.h"

static const unsigned char utf8_bom[3] = {0xEF, 0xBB, 0xBF};

void heed_robots_lex_init(struct heed_robots_lexer *lx, const char *data,
                          size_t len)
{
	size_t skip = 0;

	/* A BOM cut short ("\xEF\xBB") is skipped too, as google/robotstxt
	 * does: it can only be a mangled BOM, never a rule. */
	while (skip < len && skip < sizeof(utf8_bom) &&
	       (unsigned char)data[skip] == utf8_bom[skip])
		skip++;
	lx->data = data;
	lx->len = len;
	lx->pos = skip;
	lx->line = 0;
}

/* Trims spaces and tabs from both ends of [*s, *s + *len). */
static inline void trim(const char **s, size_t *len)
{
	while (*len && heed__ascii_space(**s)) {
		(*s)++;
		(*len)--;
	}
	while (*len && heed__ascii_space((*s)[*len - 1]))
		(*len)--;
}

/* Splits the text before a comment into name and value. */
static void split_field(struct heed_robots_line *out, const char *text,
                        size_t text_len)
{
	const char *colon = memchr(text, ':', text_len);
	const char *split;
	size_t name_len;

	if (colon) {
		out->kind = HEED_ROBOTS_LINE_FIELD;
		name_len = (size_t)(colon - text);
		split = colon + 1;
	} else {
		out->kind = HEED_ROBOTS_LINE_NO_COLON;
		name_len = 0;
		while (name_len < text_len &&
		       !heed__ascii_space(text[name_len]))
			name_len++;
		split = text + name_len;
	}
	out->name = text;
	out->name_len = name_len;
	trim(&out->name, &out->name_len);
	out->value = split;
	out->value_len = text_len - (size_t)(split - text);
	trim(&out->value, &out->value_len);
}

static void classify(struct heed_robots_line *out)
{
	const char *text = out->line;
	size_t text_len = out->line_len;
	const char *hash = memchr(text, '#', text_len);

	out->comment = NULL;
	out->comment_len = 0;
	if (hash) {
		out->comment = hash + 1;
		out->comment_len = text_len - (size_t)(hash - text) - 1;
		text_len = (size_t)(hash - text);
	}
	trim(&text, &text_len);
	if (text_len == 0) {
		out->kind = hash ? HEED_ROBOTS_LINE_COMMENT
		                 : HEED_ROBOTS_LINE_BLANK;
		out->name = out->value = out->raw_value = text;
		out->name_len = out->value_len = out->raw_value_len = 0;
		return;
	}
	split_field(out, text, text_len);
	/* The raw value runs from the value's start to the end of the line. */
	out->raw_value = out->value;
	out->raw_value_len = out->line_len - (size_t)(out->value - out->line);
	trim(&out->raw_value, &out->raw_value_len);
}

bool heed_robots_lex_next(struct heed_robots_lexer *lx,
                          struct heed_robots_line *out)
{
	const char *start, *end;
	size_t n;

	if (lx->pos >= lx->len)
		return false;
	start = lx->data + lx->pos;
	n = lx->len - lx->pos;
	/* memchr twice beats a byte loop: lines are short, files are long. */
	end = memchr(start, '\n', n);
	{
		const char *cr =
		        memchr(start, '\r', end ? (size_t)(end - start) : n);
		if (cr)
			end = cr;
	}
	if (!end)
		end = start + n;
	out->line = start;
	out->line_len = (size_t)(end - start);
	out->number = ++lx->line;
	lx->pos += out->line_len;
	if (lx->pos < lx->len) {
		/* Consume the line end: CRLF as one, a lone CR or LF as one. */
		if (lx->data[lx->pos] == '\r' && lx->pos + 1 < lx->len &&
		    lx->data[lx->pos + 1] == '\n')
			lx->pos += 2;
		else
			lx->pos += 1;
	}
	classify(out);
	return true;
}

size_t heed_robots_parse_limit(const char *data, size_t len)
{
	size_t cut = HEED_ROBOTS_PARSE_LIMIT_BYTES;

	if (len <= cut)
		return len;
	/* Keep the last line that ends within the limit; drop the partial one.
	 */
	while (cut > 0 && data[cut - 1] != '\n' && data[cut - 1] != '\r')
		cut--;
	return cut ? cut : HEED_ROBOTS_PARSE_LIMIT_BYTES;
}
