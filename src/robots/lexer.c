/*
 * robots.txt lexer: bytes to lines of `name: value`.
 *
 * RFC 9309 2.2: records are `name: value` lines; "#" starts a comment that
 * runs to the end of the line; lines end in CR, LF or CRLF; white space
 * around names and values is insignificant. The lexer only splits: deciding
 * what a name means is the parser's job (and the ACAP module's), so unknown
 * fields reach them untouched with their line numbers.
 *
 * No allocation, every pointer into the caller's buffer. The scanner itself
 * is in lexer-int.h, inline, so that the parser's loop compiles it in.
 */
#include <string.h>

#include "robots/lexer-int.h"

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

bool heed_robots_lex_next(struct heed_robots_lexer *lx,
                          struct heed_robots_line *out)
{
	bool maybe_odd;

	return robots_lex_line(lx, out, &maybe_odd);
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
