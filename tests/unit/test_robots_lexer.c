/*
 * Unit tests for the robots.txt lexer (src/robots/lexer.c, lexer-int.h):
 * RFC 9309 2.2's line grammar, line ends, comments, BOM and the 500 KiB
 * parse limit; the one-pass scanner against a slow, obvious reference
 * lexer; its octet table and SSE2 tests against the definitions they
 * stand for.
 */
#include "heed_test.h"

#include "common/common-int.h"
#include "heed/robots.h"
#include "robots/lexer-int.h"

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

/* ---- the reference lexer --------------------------------------------- */

/* The lexer as the RFC reads, one step at a time: find the line end, cut
 * the comment, trim, split at the first colon (or the first white space),
 * trim again. Slow and obvious; the scanner must agree to the pointer. */
static bool ref_space(char c)
{
	return c == ' ' || c == '\t';
}

static void ref_trim(const char **s, size_t *n)
{
	while (*n && ref_space(**s)) {
		(*s)++;
		(*n)--;
	}
	while (*n && ref_space((*s)[*n - 1]))
		(*n)--;
}

static const char *ref_find(const char *s, size_t n, char c)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] == c)
			return s + i;
	return NULL;
}

static void ref_split(struct heed_robots_line *o, const char *text, size_t len)
{
	const char *colon = ref_find(text, len, ':'), *split;
	size_t name_len = 0;

	if (colon) {
		o->kind = HEED_ROBOTS_LINE_FIELD;
		name_len = (size_t)(colon - text);
		split = colon + 1;
	} else {
		o->kind = HEED_ROBOTS_LINE_NO_COLON;
		while (name_len < len && !ref_space(text[name_len]))
			name_len++;
		split = text + name_len;
	}
	o->name = text;
	o->name_len = name_len;
	ref_trim(&o->name, &o->name_len);
	o->value = split;
	o->value_len = len - (size_t)(split - text);
	ref_trim(&o->value, &o->value_len);
}

/* Lexes the line at *pos of data[0..len); false at the end. */
static bool ref_lex(const char *data, size_t len, size_t *pos,
                    struct heed_robots_line *o)
{
	const char *start = data + *pos, *hash, *text;
	size_t n = 0, text_len;

	if (*pos >= len)
		return false;
	while (*pos + n < len && start[n] != '\n' && start[n] != '\r')
		n++;
	o->line = start;
	o->line_len = n;
	*pos += n;
	if (*pos < len)
		*pos += data[*pos] == '\r' && *pos + 1 < len &&
		                        data[*pos + 1] == '\n'
		                ? 2
		                : 1;
	hash = ref_find(start, n, '#');
	o->comment = hash ? hash + 1 : NULL;
	o->comment_len = hash ? n - (size_t)(hash - start) - 1 : 0;
	text = start;
	text_len = hash ? (size_t)(hash - start) : n;
	ref_trim(&text, &text_len);
	if (text_len == 0) {
		o->kind = hash ? HEED_ROBOTS_LINE_COMMENT
		               : HEED_ROBOTS_LINE_BLANK;
		o->name = o->value = o->raw_value = text;
		o->name_len = o->value_len = o->raw_value_len = 0;
		return true;
	}
	ref_split(o, text, text_len);
	o->raw_value = o->value;
	o->raw_value_len = n - (size_t)(o->value - start);
	ref_trim(&o->raw_value, &o->raw_value_len);
	return true;
}

static unsigned long rng_state = 4242;

static unsigned rnd(unsigned n)
{
	return heed_test_rand(&rng_state, n);
}

/* Random text that hits every branch of the scanner: names and values of
 * every length around the 16-octet blocks, octets of every class, white
 * space where the common line has none, comments, each kind of line end,
 * NUL and non-ASCII octets. */
static size_t random_robots(char *out, size_t size)
{
	static const char *const pieces[] = {"Disallow",   "allow",
	                                     "User-agent", ":",
	                                     ": ",         "  ",
	                                     "\t",         "#",
	                                     "/",          "/a/b/c",
	                                     "*",          "$",
	                                     "%2A",        "%e3",
	                                     "?q=1",       "~",
	                                     "<>",         "^",
	                                     "\"",         "\xC3\xA9",
	                                     "\x01",       "abcdefghijklmnopq",
	                                     "\n",         "\r\n",
	                                     "\r",         " : "};
	size_t n = 0;

	while (n + 32 < size && rnd(60)) {
		const char *p = pieces[rnd(HEED_ARRAY_SIZE(pieces))];
		size_t len = strlen(p);
		if (rnd(40) == 0) {
			out[n++] = '\0';
			continue;
		}
		memcpy(out + n, p, len);
		n += len;
	}
	return n;
}

static void expect_same(const char *what, const char *buf, unsigned number,
                        const struct heed_robots_line *got,
                        const struct heed_robots_line *want)
{
	if (got->kind != want->kind || got->number != number ||
	    got->line != want->line || got->line_len != want->line_len ||
	    got->name != want->name || got->name_len != want->name_len ||
	    got->value != want->value || got->value_len != want->value_len ||
	    got->raw_value != want->raw_value ||
	    got->raw_value_len != want->raw_value_len ||
	    got->comment != want->comment ||
	    got->comment_len != want->comment_len)
		fail_msg("%s: line %u differs (kind %d/%d, name "
		         "%td+%zu/%td+%zu, "
		         "value %td+%zu/%td+%zu)",
		         what, number, got->kind, want->kind, got->name - buf,
		         got->name_len, want->name - buf, want->name_len,
		         got->value - buf, got->value_len, want->value - buf,
		         want->value_len);
}

/* The scanner against the reference on thousands of random files, each
 * also placed at every offset of a 16-octet block, so that lines end in
 * and after blocks and near the end of the input. */
static void test_lex_differential(void **state)
{
	static char buf[4096 + 16];
	int round;

	(void)state;
	for (round = 0; round < 3000; round++) {
		char text[2048];
		size_t len = random_robots(text, sizeof(text)), shift;
		for (shift = 0; shift < 16; shift += 1 + rnd(5)) {
			struct heed_robots_lexer lx;
			struct heed_robots_line got, want;
			size_t pos = 0;
			unsigned number = 0;
			char *d = buf + shift;

			memcpy(d, text, len);
			heed_robots_lex_init(&lx, d, len);
			while (ref_lex(d, len, &pos, &want)) {
				assert_true(heed_robots_lex_next(&lx, &got));
				expect_same("random", d, ++number, &got, &want);
			}
			assert_false(heed_robots_lex_next(&lx, &got));
		}
	}
}

/* The octet table says C_ODD for exactly the octets normalisation may
 * change (heed__pct_plain_len refuses them); the SSE2 tests flag exactly
 * the octets the table's classes say. */
static void test_octet_classes(void **state)
{
	unsigned c;

	(void)state;
	for (c = 0; c < 256; c++) {
		char one = (char)c;
		unsigned cl = cls(&one);
		assert_int_equal(!!(cl & C_ODD),
		                 heed__pct_plain_len(&one, 1) == 0);
		assert_int_equal(!!(cl & C_EOL), c == '\n' || c == '\r');
		assert_int_equal(!!(cl & C_SPACE), c == ' ' || c == '\t');
#ifdef __SSE2__
		{
			char block[16];
			__m128i x;
			unsigned all = 0xFFFF;

			memset(block, one, sizeof(block));
			x = _mm_loadu_si128((const __m128i *)(void *)block);
			assert_int_equal(block_odd(x), cl & C_ODD ? all : 0);
			assert_int_equal(block_value_stop(x),
			                 cl & (C_EOL | C_HASH) ? all : 0);
			assert_int_equal(block_name_stop(block),
			                 cl & (C_EOL | C_HASH | C_COLON) ? all
			                                                 : 0);
			assert_int_equal(block_eol(block),
			                 cl & C_EOL ? all : 0);
		}
#endif
	}
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
	        cmocka_unit_test(test_lex_differential),
	        cmocka_unit_test(test_octet_classes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
