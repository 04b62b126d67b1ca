/*
 * Fuzz target: the robots.txt lexer. Checks the lexer's invariants on any
 * input: every line lies inside the buffer, names and values lie inside their
 * line, and line numbers count up by one.
 */
#include <stdint.h>
#include <stdlib.h>

#include "heed/robots.h"

static int inside(const char *p, size_t n, const char *lo, size_t lo_len)
{
	return p >= lo && p + n <= lo + lo_len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct heed_robots_lexer lx;
	struct heed_robots_line line;
	unsigned expect = 1;

	heed_robots_lex_init(&lx, text, heed_robots_parse_limit(text, size));
	while (heed_robots_lex_next(&lx, &line)) {
		if (line.number != expect++ ||
		    !inside(line.line, line.line_len, text, size) ||
		    !inside(line.name, line.name_len, line.line,
		            line.line_len) ||
		    !inside(line.value, line.value_len, line.line,
		            line.line_len) ||
		    !inside(line.raw_value, line.raw_value_len, line.line,
		            line.line_len))
			abort();
	}
	return 0;
}
