/*
 * A program that uses libheed as an installed library: build it with
 *
 *   cc libheed-example.c $(pkg-config --cflags --libs heed) -o example
 *
 * It lexes a robots.txt given on standard input and prints each field with
 * its line number. scripts/test builds it against a DESTDIR install to prove
 * that the installed headers (all of them, through heed/heed.h) and heed.pc
 * work on their own.
 */
#include <heed/heed.h>
#include <stdio.h>

int main(void)
{
	static char buf[HEED_ROBOTS_PARSE_LIMIT_BYTES];
	size_t len = fread(buf, 1, sizeof(buf), stdin);
	struct heed_robots_lexer lx;
	struct heed_robots_line line;

	printf("libheed %s\n", heed_version());
	heed_robots_lex_init(&lx, buf, heed_robots_parse_limit(buf, len));
	while (heed_robots_lex_next(&lx, &line))
		if (line.kind == HEED_ROBOTS_LINE_FIELD)
			printf("%u: %.*s = %.*s\n", line.number,
			       (int)line.name_len, line.name,
			       (int)line.value_len, line.value);
	return 0;
}
