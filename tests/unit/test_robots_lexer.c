/*
 * Unit tests for the robots.txt lexer (src/robots/lexer.c): RFC 9309 2.2's
 * line grammar, line ends, comments, BOM and the 500 KiB parse limit.
 */
#include "heed_test.h"

#include "heed/robots.h"

struct lex_case {
	const char *name;
	const char *input;
	size_t len; /* 0: strlen(input) */
	/* Expected lines as "KIND|name|value|raw_value", joined by '\n'. */
	const char *want;
	size_t want_len; /* 0: strlen(want) */
};

static const char *kind_letter(heed_robots_line_kind k)
{
	switch (k) {
	case HEED_ROBOTS_LINE_BLANK:
		return "B";
	case HEED_ROBOTS_LINE_COMMENT:
		return "C";
	case HEED_ROBOTS_LINE_FIELD:
		return "F";
	case HEED_ROBOTS_LINE_NO_COLON:
		return "N";
	}
	return "?";
}

static const struct lex_case cases[] = {
        {"9309 2.2: name colon value", "User-agent: heed\n", 0,
         "1F|User-agent|heed|heed"},
        {"9309 2.2: white space around name and value ignored",
         "  Disallow \t:\t /a b  \n", 0, "1F|Disallow|/a b|/a b"},
        {"9309 2.2: comment after value removed, kept raw",
         "Disallow: /x # no\n", 0, "1F|Disallow|/x|/x # no"},
        {"9309 2.2: comment-only and blank lines", "# hello\n\n   \nAllow: /\n",
         0, "1C|||\n2B|||\n3B|||\n4F|Allow|/|/"},
        {"9309 2.2: CR, LF and CRLF all end lines", "a: 1\rb: 2\r\nc: 3\nd: 4",
         0, "1F|a|1|1\n2F|b|2|2\n3F|c|3|3\n4F|d|4|4"},
        {"CRLF pair counts once", "a: 1\r\n\r\nb: 2", 0,
         "1F|a|1|1\n2B|||\n3F|b|2|2"},
        {"UTF-8 BOM skipped", "\xEF\xBB\xBFUser-agent: x\n", 0,
         "1F|User-agent|x|x"},
        {"partial BOM skipped", "\xEF\xBBUser-agent: x\n", 0,
         "1F|User-agent|x|x"},
        {"BOM only at start",
         "a: 1\n\xEF\xBB\xBF"
         "b: 2\n",
         0,
         "1F|a|1|1\n2F|\xEF\xBB\xBF"
         "b|2|2"},
        {"missing colon splits at white space", "Disallow /x\n", 0,
         "1N|Disallow|/x|/x"},
        {"only the first colon splits", "Sitemap: http://e.com:80/s\n", 0,
         "1F|Sitemap|http://e.com:80/s|http://e.com:80/s"},
        {"empty value", "Disallow:\n", 0, "1F|Disallow||"},
        {"NUL bytes are ordinary", "a: x\0y\n", 7, "1F|a|x\0y|x\0y", 12},
        {"ACAP URI keeps fragment raw",
         "ACAP-usage-purpose: http://a.org/c#preservation\n", 0,
         "1F|ACAP-usage-purpose|http://a.org/c|http://a.org/c#preservation"},
        {"no trailing newline", "a: b", 0, "1F|a|b|b"},
        {"empty input", "", 0, ""},
};

/* Rendered lines; lengths are kept because values may hold NUL bytes. */
struct rendered {
	char s[512];
	size_t n;
};

static void put(struct rendered *out, const char *p, size_t n)
{
	if (n > sizeof(out->s) - 1 - out->n)
		n = sizeof(out->s) - 1 - out->n;
	memcpy(out->s + out->n, p, n);
	out->n += n;
}

static void render(struct rendered *out, const struct heed_robots_line *l)
{
	char head[32];

	snprintf(head, sizeof(head), "%s%u%s|", out->n ? "\n" : "", l->number,
	         kind_letter(l->kind));
	put(out, head, strlen(head));
	put(out, l->name, l->name_len);
	put(out, "|", 1);
	put(out, l->value, l->value_len);
	put(out, "|", 1);
	put(out, l->raw_value, l->raw_value_len);
}

static void test_lex_table(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < HEED_ARRAY_SIZE(cases); i++) {
		const struct lex_case *c = &cases[i];
		struct rendered got = {{0}, 0};
		struct heed_robots_lexer lx;
		struct heed_robots_line line;
		size_t len = c->len ? c->len : strlen(c->input);
		size_t want_len = c->want_len ? c->want_len : strlen(c->want);

		heed_robots_lex_init(&lx, c->input, len);
		while (heed_robots_lex_next(&lx, &line))
			render(&got, &line);
		if (got.n != want_len || memcmp(got.s, c->want, want_len) != 0)
			fail_msg("%s:\n got: %s\nwant: %s", c->name, got.s,
			         c->want);
	}
}

static void test_comment_text(void **state)
{
	struct heed_robots_lexer lx;
	struct heed_robots_line line;
	const char *txt = "##ACAP version=1.1\n";

	(void)state;
	heed_robots_lex_init(&lx, txt, strlen(txt));
	assert_true(heed_robots_lex_next(&lx, &line));
	assert_int_equal(line.kind, HEED_ROBOTS_LINE_COMMENT);
	assert_int_equal(line.comment_len, strlen("#ACAP version=1.1"));
	assert_memory_equal(line.comment, "#ACAP version=1.1",
	                    line.comment_len);
	assert_false(heed_robots_lex_next(&lx, &line));
}

static void test_parse_limit(void **state)
{
	size_t big = HEED_ROBOTS_PARSE_LIMIT_BYTES + 100;
	char *buf = malloc(big);
	size_t cut;

	(void)state;
	assert_non_null(buf);
	assert_int_equal(heed_robots_parse_limit("abc", 3), 3);
	/* Lines of 10 bytes: the cut lands after the last whole line. */
	for (size_t i = 0; i < big; i++)
		buf[i] = (i % 10 == 9) ? '\n' : 'a';
	cut = heed_robots_parse_limit(buf, big);
	assert_true(cut <= HEED_ROBOTS_PARSE_LIMIT_BYTES);
	assert_int_equal(buf[cut - 1], '\n');
	assert_true(HEED_ROBOTS_PARSE_LIMIT_BYTES - cut < 10);
	/* One line longer than the limit is cut at the limit. */
	memset(buf, 'a', big);
	assert_int_equal(heed_robots_parse_limit(buf, big),
	                 HEED_ROBOTS_PARSE_LIMIT_BYTES);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_lex_table),
	        cmocka_unit_test(test_comment_text),
	        cmocka_unit_test(test_parse_limit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
