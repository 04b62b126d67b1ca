/*
 * Unit tests for the pure layers of `heed serve` (src/serve: escape.c,
 * query.c, permit.c, svg.c). Every FTS5 expression the query
 * layer returns is run against a real FTS5 table of the index's columns
 * in an in-memory SQLite, so "always valid FTS5" is proven, not assumed;
 * every chart is parsed as XML by libxml2.
 */
#include "heed_test.h"

#include <math.h>
#include <sqlite3.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "serve/serve-int.h"

/* ---- escape.c ---- */

struct esc_case {
	const char *name;
	const char *in;
	size_t len; /* 0: strlen(in) */
	const char *want;
};

typedef heed_status esc_fn(struct heed_buf *b, const char *s, size_t len);

static void run_escapes(esc_fn *fn, const struct esc_case *cases, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct esc_case *c = &cases[i];
		struct heed_buf b;
		heed__buf_init(&b, heed_test_allocator(), 1 << 20);
		assert_int_equal(fn(&b, c->in, c->len ? c->len : strlen(c->in)),
		                 HEED_OK);
		if (strcmp(heed__buf_str(&b), c->want) != 0)
			fail_msg("%s: got '%s', want '%s'", c->name,
			         heed__buf_str(&b), c->want);
		heed__buf_free(&b);
	}
}

static const struct esc_case html_cases[] = {
        {"plain", "hello world", 0, "hello world"},
        {"script", "<script>alert(1)</script>", 0,
         "&lt;script&gt;alert(1)&lt;/script&gt;"},
        {"attribute break", "\"><img src=x onerror=alert(1)>", 0,
         "&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"},
        {"single quote", "a'b", 0, "a&#39;b"},
        {"ampersand", "&amp; &", 0, "&amp;amp; &amp;"},
        {"controls dropped, tab and newline kept", "a\x01\x1f\x7f\tb\nc\r", 0,
         "a\tb\nc"},
        {"NUL inside len", "a\0<b", 4, "a&lt;b"},
        {"lone continuation byte", "a\x80z", 0, "a\xEF\xBF\xBDz"},
        {"overlong slash", "\xC0\xAF", 0, "\xEF\xBF\xBD\xEF\xBF\xBD"},
        {"overlong 3-byte", "\xE0\x80\xBC", 0,
         "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"},
        {"surrogate", "\xED\xA0\x80", 0,
         "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"},
        {"past U+10FFFF", "\xF4\x90\x80\x80", 0,
         "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"},
        {"truncated at end", "x\xE2\x82", 0, "x\xEF\xBF\xBD\xEF\xBF\xBD"},
        {"noncharacter U+FFFF", "\xEF\xBF\xBF", 0, "\xEF\xBF\xBD"},
        {"valid multibyte kept", "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80", 0,
         "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"},
        {"U+2028 kept",
         "a\xE2\x80\xA8"
         "b",
         0,
         "a\xE2\x80\xA8"
         "b"},
        {"javascript text", "javascript:alert('x')", 0,
         "javascript:alert(&#39;x&#39;)"},
        /* UAX #9 2: U+202E RLO, U+202C PDF, U+2067 RLI, U+2069 PDI. */
        {"bidi: an override left open is closed", "RTL \xE2\x80\xAEgnp.exe", 0,
         "RTL \xE2\x80\xAEgnp.exe\xE2\x80\xAC"},
        {"bidi: a lone PDF and PDI are dropped",
         "a\xE2\x80\xAC"
         "b\xE2\x81\xA9"
         "c",
         0, "abc"},
        {"bidi: paired controls kept", "\xE2\x81\xA7x\xE2\x81\xA9y", 0,
         "\xE2\x81\xA7x\xE2\x81\xA9y"},
        {"bidi: PDI closes the embedding inside its isolate",
         "\xE2\x81\xA7\xE2\x80\xAEx\xE2\x81\xA9\xE2\x80\xAC", 0,
         "\xE2\x81\xA7\xE2\x80\xAEx\xE2\x81\xA9"},
        {"bidi: PDF does not close an isolate", "\xE2\x81\xA7x\xE2\x80\xAC", 0,
         "\xE2\x81\xA7x\xE2\x81\xA9"},
        {"bidi: nested openers closed innermost first",
         "\xE2\x80\xAB\xE2\x81\xA8x", 0,
         "\xE2\x80\xAB\xE2\x81\xA8x\xE2\x81\xA9\xE2\x80\xAC"},
};

static const struct esc_case url_cases[] = {
        {"unreserved kept", "AZaz09-._~", 0, "AZaz09-._~"},
        {"reserved encoded", "a b&c=d/e?f#g+h%", 0,
         "a%20b%26c%3Dd%2Fe%3Ff%23g%2Bh%25"},
        {"quotes and brackets", "\"'<>", 0, "%22%27%3C%3E"},
        {"utf-8 bytes", "\xC3\xA9", 0, "%C3%A9"},
        {"invalid byte is U+FFFD", "\xFF", 0, "%EF%BF%BD"},
        {"controls dropped",
         "a\x01\x7f"
         "b",
         0, "ab"},
        {"NUL inside len", "a\0b", 3, "ab"},
        {"newline encoded", "a\nb", 0, "a%0Ab"},
};

static const struct esc_case clean_cases[] = {
        {"markup unchanged", "<b>\"x\"</b>", 0, "<b>\"x\"</b>"},
        {"invalid bytes", "\xC3(", 0, "\xEF\xBF\xBD("},
        {"controls", "\x1b[31mred\x1b[0m", 0, "[31mred[0m"},
        {"NUL inside len", "a\0b", 3, "ab"},
        {"overlong NUL", "\xC0\x80", 0, "\xEF\xBF\xBD\xEF\xBF\xBD"},
};

static void test_html_escape(void **state)
{
	(void)state;
	run_escapes(heed__html_escape, html_cases, HEED_ARRAY_SIZE(html_cases));
}

static void test_url_encode(void **state)
{
	(void)state;
	run_escapes(heed__url_encode, url_cases, HEED_ARRAY_SIZE(url_cases));
}

static void test_utf8_clean(void **state)
{
	(void)state;
	run_escapes(heed__utf8_clean, clean_cases,
	            HEED_ARRAY_SIZE(clean_cases));
}

/* Valid UTF-8 by an independent check: Python's rules in a few lines. */
static bool valid_utf8(const unsigned char *s, size_t len)
{
	for (size_t i = 0; i < len;) {
		unsigned c = s[i];
		size_t n = c < 0x80   ? 1
		           : c < 0xC2 ? 0
		           : c < 0xE0 ? 2
		           : c < 0xF0 ? 3
		           : c < 0xF5 ? 4
		                      : 0;
		if (!n || i + n > len)
			return false;
		for (size_t k = 1; k < n; k++)
			if ((s[i + k] & 0xC0) != 0x80)
				return false;
		if ((c == 0xE0 && s[i + 1] < 0xA0) ||
		    (c == 0xED && s[i + 1] > 0x9F) ||
		    (c == 0xF0 && s[i + 1] < 0x90) ||
		    (c == 0xF4 && s[i + 1] > 0x8F))
			return false;
		i += n;
	}
	return true;
}

/* Random bytes, a megabyte of them: the output is valid UTF-8 with no
 * markup character and no control but tab and newline, and the buffer
 * ceiling is honoured. */
static void test_escape_random_and_long(void **state)
{
	unsigned long seed = 13;
	static unsigned char in[1 << 20];
	struct heed_buf b;

	(void)state;
	for (size_t i = 0; i < sizeof(in); i++)
		in[i] = (unsigned char)heed_test_rand(&seed, 256);
	heed__buf_init(&b, heed_test_allocator(), 16u << 20);
	assert_int_equal(heed__html_escape(&b, (const char *)in, sizeof(in)),
	                 HEED_OK);
	assert_true(valid_utf8((const unsigned char *)b.data, b.len));
	for (size_t i = 0; i < b.len; i++) {
		unsigned char c = (unsigned char)b.data[i];
		assert_true(c != '<' && c != '>' && c != '"' && c != '\'');
		assert_true(c >= 0x20 || c == '\t' || c == '\n');
		assert_true(c != 0x7F);
	}
	heed__buf_free(&b);
	/* A ceiling too small for the output: ETOOBIG, never past it. */
	heed__buf_init(&b, heed_test_allocator(), 100);
	assert_int_equal(
	        heed__html_escape(&b, "<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<", 30),
	        HEED_ETOOBIG);
	assert_true(b.len <= 100);
	heed__buf_free(&b);
}

static void test_safe_link(void **state)
{
	static const struct {
		const char *url;
		bool want;
	} cases[] = {
	        {"http://example.org/", true},
	        {"https://example.org", true},
	        {"HTTPS://Example.org/a?b=c#d", true},
	        {"hTtP://user:pw@example.org:8080/x", true},
	        {"http://[::1]:8080/", true},
	        {"http://127.0.0.1/", true},
	        {"https://example.org/caf\xC3\xA9", true},
	        {"javascript:alert(1)", false},
	        {"JaVaScRiPt:alert(1)", false},
	        {" javascript:alert(1)", false},
	        {"\tjavascript:alert(1)", false},
	        {"data:text/html,<script>alert(1)</script>", false},
	        {"vbscript:msgbox", false},
	        {"ftp://example.org/", false},
	        {"//example.org/", false},
	        {"/relative", false},
	        {"http:/example.org", false},
	        {"http://", false},
	        {"http:///path", false},
	        {"http://:80/", false},
	        {"http://user@/", false},
	        {"http://[]/", false},
	        {"http://a.org/\"onmouseover=alert(1)", false},
	        {"http://a.org/'x", false},
	        {"http://a.org/<script>", false},
	        {"http://a.org/>", false},
	        {"http://a.org\\@evil.org/", false},
	        {"http://a.org/`x`", false},
	        {"http://a.org/ x", false},
	        {"http://a.org/\x7f", false},
	        {"http://a.org/\n", false},
	        {" http://a.org/", false},
	        {"", false},
	        {NULL, false},
	};

	(void)state;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(cases); i++)
		if (heed__serve_safe_link(cases[i].url) != cases[i].want)
			fail_msg("safe_link(%s): want %d",
			         cases[i].url ? cases[i].url : "NULL",
			         cases[i].want);
}

static void test_cut(void **state)
{
	const char *s = "caf\xC3\xA9 au lait \xF0\x9F\x98\x80 ok";
	size_t len = strlen(s);

	(void)state;
	assert_int_equal(heed__serve_cut_chars(s, len, 0), 0);
	assert_int_equal(heed__serve_cut_chars(s, len, 3), 3);
	assert_int_equal(heed__serve_cut_chars(s, len, 4), 5);   /* after é */
	assert_int_equal(heed__serve_cut_chars(s, len, 15), 19); /* 😀 whole */
	assert_int_equal(heed__serve_cut_chars(s, len, 17), len);
	assert_int_equal(heed__serve_cut_chars(s, len, 1000), len);
	assert_int_equal(heed__serve_cut_chars("", 0, 5), 0);
	assert_int_equal(heed__serve_cut_words(s, len, 0), 0);
	assert_int_equal(heed__serve_cut_words(s, len, 1), 5);
	assert_int_equal(heed__serve_cut_words(s, len, 3), 13);
	assert_int_equal(heed__serve_cut_words(s, len, 5), len);
	assert_int_equal(heed__serve_cut_words("  a  b  ", 8, 1), 3);
	assert_int_equal(heed__serve_cut_words("  a  b  ", 8, 2), 8);
	assert_int_equal(heed__serve_cut_words("a\tb\nc", 5, 2), 3);
}

static void test_cut_at_word(void **state)
{
	const char *s = "The quick brown fox jumps";
	size_t len = strlen(s);
	char word[300];

	(void)state;
	assert_int_equal(heed__serve_cut_at_word(s, len, 100), len);
	assert_int_equal(heed__serve_cut_at_word(s, len, len), len);
	assert_int_equal(heed__serve_cut_at_word(s, len, 12), 9);  /* brown */
	assert_int_equal(heed__serve_cut_at_word(s, len, 15), 15); /* " fox" */
	assert_int_equal(heed__serve_cut_at_word(s, len, 16), 15);
	/* A word longer than the cut is cut inside it, at a character. */
	memset(word, 'w', sizeof(word));
	assert_int_equal(heed__serve_cut_at_word(word, sizeof(word), 120), 120);
	assert_int_equal(
	        heed__serve_cut_at_word("\xC3\xA9\xC3\xA9\xC3\xA9", 6, 2), 4);
	/* Spaces before the cut are not kept. */
	assert_int_equal(heed__serve_cut_at_word("aaaa bbbb    cccc", 17, 12),
	                 9);
}

static void test_irc_strip(void **state)
{
	static const struct {
		const char *name, *in, *want;
	} cases[] = {
	        {"plain", "hello", "hello"},
	        {"bold, italics, underline, strike, mono, reverse, reset",
	         "\x02"
	         "b\x1D"
	         "i\x1F"
	         "u\x1E"
	         "s\x11m\x16r\x0Fn",
	         "biusmrn"},
	        {"colour with two digits",
	         "\x03"
	         "04red",
	         "red"},
	        {"colour with background",
	         "\x03"
	         "04,12blue on red",
	         "blue on red"},
	        {"one-digit colours",
	         "\x03"
	         "4,2x",
	         "x"},
	        {"three digits: the third is text",
	         "\x03"
	         "123",
	         "3"},
	        {"comma without background is text",
	         "\x03"
	         "04,x",
	         ",x"},
	        {"bare colour resets",
	         "a\x03"
	         "b",
	         "ab"},
	        {"bare colour before a comma", "\x03,5", ",5"},
	        {"hex colour",
	         "\x04"
	         "FF0000red",
	         "red"},
	        {"hex colour with background",
	         "\x04"
	         "ff0000,00ff00x",
	         "x"},
	        {"short hex is no argument",
	         "\x04"
	         "FF00x",
	         "FF00x"},
	        {"code at the end", "end\x03", "end"},
	        {"colour digits at the end",
	         "end\x03"
	         "1",
	         "end"},
	        {"UTF-8 untouched", "\x02\xC3\xBC\x02", "\xC3\xBC"},
	};
	char out[64];

	(void)state;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(cases); i++) {
		size_t n =
		        heed__irc_strip(out, cases[i].in, strlen(cases[i].in));
		out[n] = '\0';
		if (strcmp(out, cases[i].want) != 0)
			fail_msg("%s: got '%s', want '%s'", cases[i].name, out,
			         cases[i].want);
	}
}

/* ---- query.c: FTS5 ---- */

struct fts_db {
	sqlite3 *db;
	sqlite3_stmt *match;
};

static void fts_open(struct fts_db *f)
{
	assert_int_equal(sqlite3_open(":memory:", &f->db), SQLITE_OK);
	assert_int_equal(
	        sqlite3_exec(f->db,
	                     "CREATE VIRTUAL TABLE search_fts USING fts5("
	                     "title, description, tags, site);"
	                     "INSERT INTO search_fts VALUES('Hello world',"
	                     "'cats and dogs','pets','example.org');"
	                     "INSERT INTO search_fts VALUES('caf\xC3\xA9 "
	                     "news','near the sea','food','caf.example');",
	                     NULL, NULL, NULL),
	        SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(f->db,
	                                    "SELECT count(*) FROM search_fts "
	                                    "WHERE search_fts MATCH ?",
	                                    -1, &f->match, NULL),
	                 SQLITE_OK);
}

static void fts_close(struct fts_db *f)
{
	sqlite3_finalize(f->match);
	sqlite3_close(f->db);
}

/* Runs expr; returns the number of rows, failing on an FTS5 error. */
static int fts_run(struct fts_db *f, const char *name, const char *expr)
{
	int rows = -1;

	sqlite3_reset(f->match);
	sqlite3_bind_text(f->match, 1, expr, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(f->match) != SQLITE_ROW)
		fail_msg("%s: FTS5 rejects %s: %s", name, expr,
		         sqlite3_errmsg(f->db));
	rows = sqlite3_column_int(f->match, 0);
	sqlite3_reset(f->match);
	return rows;
}

struct fts_case {
	const char *name;
	const char *in;
	heed_status rc;
	const char *want; /* NULL: no expression (or not checked when "?") */
	int rows;         /* rows of the two-row table; -1: not checked */
};

static const struct fts_case fts_cases[] = {
        {"one word", "hello", HEED_OK, "\"hello\"", 1},
        {"words are ANDed", "hello world", HEED_OK, "\"hello\" AND \"world\"",
         1},
        {"phrase", "\"hello world\"", HEED_OK, "\"hello world\"", 1},
        {"exclusion after", "hello -world", HEED_OK, "\"hello\" NOT \"world\"",
         0},
        {"exclusion first", "-world hello", HEED_OK, "\"hello\" NOT \"world\"",
         0},
        {"two exclusions", "cats -a -b", HEED_OK,
         "\"cats\" NOT \"a\" NOT \"b\"", 1},
        {"only exclusions", "-a -b", HEED_EINVAL, NULL, -1},
        {"brief: -a b", "-a b", HEED_OK, "\"b\" NOT \"a\"", 0},
        {"AND before NOT", "cats pets -mice", HEED_OK,
         "(\"cats\" AND \"pets\") NOT \"mice\"", 1},
        {"excluded phrase", "cats -\"hello world\"", HEED_OK,
         "\"cats\" NOT \"hello world\"", 0},
        {"one exclusion", "-hello", HEED_EINVAL, NULL, -1},
        {"OR", "hello OR sea", HEED_OK, "(\"hello\" OR \"sea\")", 2},
        {"OR chain", "a OR b OR sea", HEED_OK, "(\"a\" OR \"b\" OR \"sea\")",
         1},
        {"OR and AND", "near OR cats food", HEED_OK,
         "(\"near\" OR \"cats\") AND \"food\"", 1},
        {"AND between words", "hello AND world", HEED_OK,
         "\"hello\" AND \"world\"", 1},
        {"NOT between words", "hello NOT world", HEED_OK,
         "\"hello\" NOT \"world\"", 0},
        {"prefix", "hel*", HEED_OK, "\"hel\" *", 1},
        {"phrase prefix", "\"hello wor\"*", HEED_OK, "\"hello wor\" *", 1},
        {"lone quote", "\"", HEED_EINVAL, NULL, -1},
        {"empty quotes", "\"\"", HEED_EINVAL, NULL, -1},
        {"unclosed phrase", "\"hello world", HEED_OK, "\"hello world\"", 1},
        {"quote inside word", "hel\"lo", HEED_OK, "\"hel\" AND \"lo\"", 0},
        {"AND alone", "AND", HEED_OK, "\"AND\"", 1},
        {"OR alone", "OR", HEED_OK, "\"OR\"", 0},
        {"NOT alone", "NOT", HEED_OK, "\"NOT\"", 0},
        {"trailing OR", "a OR", HEED_OK, "\"a\" AND \"OR\"", 0},
        {"leading OR", "OR b", HEED_OK, "\"OR\" AND \"b\"", 0},
        {"column filter is text", "title:hello", HEED_OK, "\"title:hello\"", 0},
        {"unknown column is text", "col:x", HEED_OK, "\"col:x\"", 0},
        {"caret", "^hello", HEED_OK, "\"^hello\"", 1},
        {"star alone", "*", HEED_EINVAL, NULL, -1},
        {"paren", "(", HEED_EINVAL, NULL, -1},
        {"parens around", "(hello)", HEED_OK, "\"(hello)\"", 1},
        {"NEAR", "NEAR(a b)", HEED_OK, "\"NEAR(a\" AND \"b)\"", 0},
        {"dash alone", "- hello", HEED_OK, "\"hello\"", 1},
        {"punctuation only", "!!! ... ???", HEED_EINVAL, NULL, -1},
        {"emoji only", "\xF0\x9F\x98\x80 \xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD",
         HEED_EINVAL, NULL, -1},
        {"an overlong slash (%C0%AF)", "\xC0\xAF", HEED_EINVAL, NULL, -1},
        {"a dash alone", "-", HEED_EINVAL, NULL, -1},
        {"emoji beside a word", "hello \xF0\x9F\x98\x80", HEED_OK, "\"hello\"",
         1},
        {"unicode word", "caf\xC3\xA9", HEED_OK, "\"caf\xC3\xA9\"", 1},
        {"unicode folded", "CAFE", HEED_OK, "\"CAFE\"", 1},
        {"CJK", "\xE4\xB8\xAD\xE6\x96\x87", HEED_OK,
         "\"\xE4\xB8\xAD\xE6\x96\x87\"", 0},
        {"invalid UTF-8", "hel\xFFlo", HEED_OK, "\"hel\xEF\xBF\xBDlo\"", 0},
        {"controls", "hel\x01lo\x7f", HEED_OK, "\"hello\"", 1},
        {"doubled quote", "a\"\"b", HEED_OK, "\"a\" AND \"b\"", 0},
        {"SQL", "'; DROP TABLE pages; --", HEED_OK, "?", 0},
        {"empty", "", HEED_OK, NULL, -1},
        {"spaces", "   \t\n ", HEED_OK, NULL, -1},
        {"16 terms", "a b c d e f g h i j k l m n o p", HEED_OK, "?", 0},
        {"17 terms", "a b c d e f g h i j k l m n o p q", HEED_ETOOBIG, NULL,
         -1},
        {"17 with a wordless one", "a b c d e f g h i j k l m n o p !", HEED_OK,
         "?", 0},
};

static void test_fts_query(void **state)
{
	struct fts_db f;

	(void)state;
	fts_open(&f);
	for (size_t i = 0; i < HEED_ARRAY_SIZE(fts_cases); i++) {
		const struct fts_case *c = &fts_cases[i];
		struct heed_diag d = {0};
		char *fts = NULL;
		heed_status rc = heed__serve_fts_query(heed_test_allocator(),
		                                       c->in, &fts, &d);
		if (rc != c->rc)
			fail_msg("%s: got %s, want %s (%s)", c->name,
			         heed_status_name(rc), heed_status_name(c->rc),
			         d.message);
		if (rc != HEED_OK) {
			assert_null(fts);
			assert_true(strlen(d.message) > 10);
		} else if (!c->want) {
			if (fts)
				fail_msg("%s: want no expression, got %s",
				         c->name, fts);
		} else if (!fts) {
			fail_msg("%s: no expression", c->name);
		} else if (strcmp(c->want, "?") != 0 &&
		           strcmp(fts, c->want) != 0) {
			fail_msg("%s: got %s, want %s", c->name, fts, c->want);
		}
		if (fts) {
			int rows = fts_run(&f, c->name, fts);
			if (c->rows >= 0 && rows != c->rows)
				fail_msg("%s: %s matched %d rows, want %d",
				         c->name, fts, rows, c->rows);
		}
		heed__free(heed_test_allocator(), fts);
	}
	fts_close(&f);
}

/* Length bounds, and random text of every byte: always valid FTS5. */
static void test_fts_bounds_and_random(void **state)
{
	unsigned long seed = 42;
	char text[HEED__SERVE_MAX_QUERY + 50];
	struct heed_diag d = {0};
	struct fts_db f;
	char *fts = NULL;
	static const char alphabet[] =
	        "ab \"-*()^:ORNTAD\xC3\xA9\xF0\x9F\x98\x80";

	(void)state;
	fts_open(&f);
	memset(text, 'a', 300);
	text[300] = '\0';
	assert_int_equal(
	        heed__serve_fts_query(heed_test_allocator(), text, &fts, &d),
	        HEED_ETOOBIG);
	assert_non_null(strstr(d.message, "256 bytes"));
	text[HEED__SERVE_MAX_QUERY] = '\0';
	assert_int_equal(
	        heed__serve_fts_query(heed_test_allocator(), text, &fts, &d),
	        HEED_OK);
	fts_run(&f, "256 bytes", fts);
	heed__free(heed_test_allocator(), fts);
	for (int round = 0; round < 3000; round++) {
		size_t n = heed_test_rand(&seed, 60);
		for (size_t i = 0; i < n; i++)
			text[i] =
			        round % 2
			                ? (char)(1 + heed_test_rand(&seed, 255))
			                : alphabet[heed_test_rand(
			                          &seed, sizeof(alphabet) - 1)];
		text[n] = '\0';
		fts = NULL;
		if (heed__serve_fts_query(heed_test_allocator(), text, &fts,
		                          &d) == HEED_OK &&
		    fts)
			fts_run(&f, text, fts);
		heed__free(heed_test_allocator(), fts);
	}
	fts_close(&f);
}

static void test_fts_oom(void **state)
{
	(void)state;
	for (unsigned long n = 0;; n++) {
		struct heed_test_fail fl = {.fail_at = n};
		char *fts = NULL;
		heed_status rc =
		        heed__serve_fts_query(heed_test_failing_allocator(&fl),
		                              "a OR b -c \"d e\"*", &fts, NULL);
		if (rc == HEED_OK) {
			assert_string_equal(fts, "((\"a\" OR \"b\") AND "
			                         "\"d e\" *) NOT \"c\"");
			heed__free(&fl.alloc, fts);
			break;
		}
		assert_int_equal(rc, HEED_ENOMEM);
		assert_null(fts);
		assert_true(n < 100);
	}
}

/* A term is dropped exactly when FTS5's unicode61 finds no token in it:
 * every code point the separator table names is checked against the
 * real tokenizer, and a sample of others. */
static void test_fts_words_match_unicode61(void **state)
{
	static const uint32_t samples[] = {
	        0xE9,   0x4E2D, 0x661,   0xBD,    0x2122, 0x20AC,  0x2603,
	        0xFE0F, 0x200D, 0x1F600, 0x1F44D, 0x2014, 0x201C,  0xA9,
	        0xAA,   0xB2,   0x3001,  0x3005,  0xFF01, 0xFF21,  0x5D0,
	        0x627,  0x915,  0x3042,  0x30A2,  0xAC00, 0x1F1E6, 0xE000};
	sqlite3 *db;
	sqlite3_stmt *ins, *count;
	size_t mismatches = 0, checked = 0;

	(void)state;
	assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db,
	                              "CREATE VIRTUAL TABLE t USING fts5(x);"
	                              "CREATE VIRTUAL TABLE v USING "
	                              "fts5vocab(t, 'row');",
	                              NULL, NULL, NULL),
	                 SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db,
	                                    "INSERT INTO t(rowid, x) "
	                                    "VALUES(?, ?)",
	                                    -1, &ins, NULL),
	                 SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db,
	                                    "SELECT count(*) FROM t WHERE "
	                                    "t MATCH ? AND rowid = ?",
	                                    -1, &count, NULL),
	                 SQLITE_OK);
	for (uint32_t cp = 0x80; cp < 0x20000; cp++) {
		char utf8[5] = {0};
		char *fts = NULL;
		heed_status rc;
		bool sampled = false, tokens;
		if (cp >= 0xD800 && cp <= 0xDFFF)
			continue;
		for (size_t i = 0; i < HEED_ARRAY_SIZE(samples); i++)
			sampled = sampled || samples[i] == cp;
		if (cp < 0x800) {
			utf8[0] = (char)(0xC0 | (cp >> 6));
			utf8[1] = (char)(0x80 | (cp & 0x3F));
		} else if (cp < 0x10000) {
			utf8[0] = (char)(0xE0 | (cp >> 12));
			utf8[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
			utf8[2] = (char)(0x80 | (cp & 0x3F));
		} else {
			utf8[0] = (char)(0xF0 | (cp >> 18));
			utf8[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
			utf8[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
			utf8[3] = (char)(0x80 | (cp & 0x3F));
		}
		rc = heed__serve_fts_query(heed_test_allocator(), utf8, &fts,
		                           NULL);
		/* A character that is no word is a search without words. */
		assert_int_equal(rc, fts ? HEED_OK : HEED_EINVAL);
		/* Only dropped characters and samples are checked: those
		 * are the table's claims. */
		if (fts && !sampled) {
			heed__free(heed_test_allocator(), fts);
			continue;
		}
		sqlite3_bind_int64(ins, 1, (sqlite3_int64)cp);
		sqlite3_bind_text(ins, 2, utf8, -1, SQLITE_STATIC);
		assert_int_equal(sqlite3_step(ins), SQLITE_DONE);
		sqlite3_reset(ins);
		/* The character matches itself only when it is a token. */
		sqlite3_bind_text(count, 1, fts ? fts : "\"x\"", -1,
		                  SQLITE_STATIC);
		sqlite3_bind_int64(count, 2, (sqlite3_int64)cp);
		assert_int_equal(sqlite3_step(count), SQLITE_ROW);
		tokens = sqlite3_column_int(count, 0) > 0;
		sqlite3_reset(count);
		checked++;
		if (tokens != (fts != NULL)) {
			mismatches++;
			print_message("U+%04X: unicode61 %s, heed %s\n", cp,
			              tokens ? "word" : "separator",
			              fts ? "word" : "separator");
		}
		heed__free(heed_test_allocator(), fts);
	}
	sqlite3_finalize(ins);
	sqlite3_finalize(count);
	sqlite3_close(db);
	assert_true(checked > 2000);
	assert_int_equal(mismatches, 0);
}

/* ---- query.c: search arguments and cursors ---- */

#define NOW 1732000000 /* 2024-11-19 */

static struct heed__serve_args args_of(const char *const *kv)
{
	struct heed__serve_args a = {0};

	for (; kv[0]; kv += 2, a.count++) {
		a.arg[a.count].name = kv[0];
		a.arg[a.count].value = kv[1];
	}
	return a;
}

static heed_status parse(const char *const *kv, struct heed_search_query *q,
                         char **fts, struct heed_diag *d)
{
	struct heed__serve_args a = args_of(kv);

	memset(d, 0, sizeof(*d));
	return heed__serve_parse_search(heed_test_allocator(), &a, 20, NOW, q,
	                                fts, d);
}

static void test_parse_search_defaults(void **state)
{
	struct heed_search_query q;
	struct heed_diag d;
	char *fts = NULL;
	static const char *const none[] = {NULL};
	static const char *const empty[] = {
	        "q",    "", "site",   "", "tag",       "", "lang",      "",
	        "from", "", "to",     "", "min_views", "", "max_views", "",
	        "sort", "", "cursor", "", "limit",     "", NULL};
	static const char *const words[] = {"q", "hello", NULL};
	static const char *const all[] = {
	        "q",         "cats OR dogs", "site",      "example.org:8080",
	        "tag",       "pets",         "lang",      "pt-BR",
	        "from",      "2024-03-05",   "to",        "2024-03-06",
	        "min_views", "10",           "max_views", "10",
	        "sort",      "views",        "cursor",    "v.-1.42",
	        "limit",     "100",          NULL};

	(void)state;
	for (int k = 0; k < 2; k++) {
		assert_int_equal(parse(k ? empty : none, &q, &fts, &d),
		                 HEED_OK);
		assert_null(fts);
		assert_null(q.match);
		assert_null(q.host);
		assert_null(q.tag);
		assert_null(q.language);
		assert_true(q.published_from_s == HEED_STORE_NO_DATE);
		assert_true(q.published_to_s == HEED_STORE_NO_DATE);
		assert_int_equal(q.min_views, -1);
		assert_int_equal(q.max_views, -1);
		assert_int_equal(q.sort, HEED_SEARCH_SORT_FETCHED);
		assert_int_equal(q.after.id, 0);
		assert_int_equal(q.limit, 20);
		assert_int_equal(q.now_s, NOW);
	}
	assert_int_equal(parse(words, &q, &fts, &d), HEED_OK);
	assert_string_equal(q.match, "\"hello\"");
	assert_ptr_equal(q.match, fts);
	assert_int_equal(q.sort, HEED_SEARCH_SORT_RELEVANCE);
	heed__free(heed_test_allocator(), fts);

	assert_int_equal(parse(all, &q, &fts, &d), HEED_OK);
	assert_string_equal(q.match, "(\"cats\" OR \"dogs\")");
	assert_string_equal(q.host, "example.org:8080");
	assert_string_equal(q.tag, "pets");
	assert_string_equal(q.language, "pt-BR");
	assert_int_equal(q.published_from_s, 1709596800);
	assert_int_equal(q.published_to_s, 1709683200 + 86399);
	assert_int_equal(q.min_views, 10);
	assert_int_equal(q.max_views, 10);
	assert_int_equal(q.sort, HEED_SEARCH_SORT_VIEWS);
	assert_int_equal(q.after.key, -1);
	assert_int_equal(q.after.id, 42);
	assert_int_equal(q.limit, 100);
	heed__free(heed_test_allocator(), fts);
}

/* The tag filter is folded as the extractor folds the tags it stores, or
 * "Music" would find none of the pages tagged "music"; the site filter is
 * lower-cased as host keys are. */
static void test_parse_search_tag_folded(void **state)
{
	struct heed_search_query q;
	struct heed_diag d;
	char *fts = NULL;
	static const char *const tag_only[] = {"tag", "MuSic", "site",
	                                       "NEWS.Example:8080", NULL};
	static const char *const with_words[] = {"q", "night", "tag",
	                                         "\xc3\x89T\xc3\x89", NULL};

	(void)state;
	assert_int_equal(parse(tag_only, &q, &fts, &d), HEED_OK);
	assert_null(q.match);
	assert_string_equal(q.tag, "music");
	assert_string_equal(q.host, "news.example:8080");
	heed__free(heed_test_allocator(), fts);

	assert_int_equal(parse(with_words, &q, &fts, &d), HEED_OK);
	assert_string_equal(q.match, "\"night\"");
	assert_string_equal(q.tag, "\xc3\xa9t\xc3\xa9"); /* été */
	heed__free(heed_test_allocator(), fts);
}

static void test_parse_search_dates(void **state)
{
	static const struct {
		const char *from, *to;
		int64_t want_from, want_to;
	} cases[] = {
	        {"2024-03-05T09:00:00Z", "2024-03-05T10:00:00Z", 1709629200,
	         1709632800},
	        {"2024-03-05T09:00:00+01:00", "2024-03-05T09:00:00.5Z",
	         1709625600, 1709629200},
	        {"2024-02-29", "2024-02-29", 1709164800, 1709164800 + 86399},
	};
	struct heed_search_query q;
	struct heed_diag d;
	char *fts = NULL;

	(void)state;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(cases); i++) {
		const char *kv[] = {"from", cases[i].from, "to", cases[i].to,
		                    NULL};
		assert_int_equal(parse(kv, &q, &fts, &d), HEED_OK);
		assert_int_equal(q.published_from_s, cases[i].want_from);
		assert_int_equal(q.published_to_s, cases[i].want_to);
	}
}

static void test_parse_search_errors(void **state)
{
	static const struct {
		const char *name, *value;
		heed_status rc;
		const char *message; /* a part of diag */
	} cases[] = {
	        {"from", "2024-13-01", HEED_EINVAL,
	         "from: '2024-13-01' is not a date (YYYY-MM-DD)"},
	        {"from", "2024-02-30", HEED_EINVAL, "from: "},
	        {"from", "2023-02-29", HEED_EINVAL, "from: "},
	        {"to", "yesterday", HEED_EINVAL, "to: 'yesterday' is not"},
	        {"to", "2024-3-5", HEED_EINVAL, "to: "},
	        {"to", "2024-03-05 junk", HEED_EINVAL, "to: "},
	        {"to", "2024-03-05T25:00Z", HEED_EINVAL, "to: "},
	        {"to", "2024-03-05Tx", HEED_EINVAL, "to: "},
	        {"from", "Tue, 05 Mar 2024 09:00:00 GMT", HEED_EINVAL,
	         "from: "},
	        {"min_views", "-1", HEED_EINVAL, "min_views: '-1'"},
	        {"min_views", "ten", HEED_EINVAL, "min_views: "},
	        {"max_views", "1e3", HEED_EINVAL, "max_views: "},
	        {"max_views", "99999999999999999999", HEED_EINVAL,
	         "max_views: "},
	        {"max_views", " 5", HEED_EINVAL, "max_views: "},
	        {"sort", "score", HEED_EINVAL,
	         "sort: 'score' is not one of relevance, views"},
	        {"sort", "VIEWS", HEED_EINVAL, "sort: "},
	        {"limit", "0", HEED_EINVAL, "limit: '0' is not a number from"},
	        {"limit", "101", HEED_EINVAL, "limit: "},
	        {"limit", "-5", HEED_EINVAL, "limit: "},
	        {"limit", "10x", HEED_EINVAL, "limit: "},
	        {"lang", "en_GB", HEED_EINVAL, "lang: 'en_GB'"},
	        {"lang", "-en", HEED_EINVAL, "lang: "},
	        {"lang", "<script>", HEED_EINVAL, "lang: "},
	        {"lang", "abcdefghijabcdefghijabcdefghijabcdef", HEED_EINVAL,
	         "lang: "},
	        {"cursor", "x", HEED_EINVAL, "cursor: 'x' is not a cursor"},
	        {"cursor", "v.1.2", HEED_EINVAL, "cursor: "}, /* not fetched */
	        {"cursor", "f.1.0", HEED_EINVAL, "cursor: "},
	        {"cursor", "f.1.-3", HEED_EINVAL, "cursor: "},
	        {"cursor", "f.1.2.3", HEED_EINVAL, "cursor: "},
	        {"cursor", "f..2", HEED_EINVAL, "cursor: "},
	        {"cursor", "f.+1.2", HEED_EINVAL, "cursor: "},
	        {"q", "-a -b", HEED_EINVAL, "q: the search only excludes"},
	        {"q", "a b c d e f g h i j k l m n o p q", HEED_ETOOBIG,
	         "q: the search has more than 16 terms"},
	};
	struct heed_search_query q;
	struct heed_diag d;
	char *fts = (char *)"not touched";

	(void)state;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(cases); i++) {
		const char *kv[] = {cases[i].name, cases[i].value, NULL};
		heed_status rc = parse(kv, &q, &fts, &d);
		if (rc != cases[i].rc || !strstr(d.message, cases[i].message))
			fail_msg("%s=%s: got %s '%s', want %s '%s'",
			         cases[i].name, cases[i].value,
			         heed_status_name(rc), d.message,
			         heed_status_name(cases[i].rc),
			         cases[i].message);
		assert_null(fts);
	}
	{
		const char *kv[] = {"min_views", "5", "max_views", "4", NULL};
		assert_int_equal(parse(kv, &q, &fts, &d), HEED_EINVAL);
		assert_non_null(strstr(d.message, "min_views: 5 is more than "
		                                  "max_views (4)"));
	}
	{
		const char *kv[] = {"from", "2024-03-06", "to", "2024-03-05",
		                    NULL};
		assert_int_equal(parse(kv, &q, &fts, &d), HEED_EINVAL);
		assert_non_null(strstr(d.message, "from: "));
	}
	{
		/* An error after q was read frees the expression. */
		const char *kv[] = {"q", "hello", "limit", "0", NULL};
		assert_int_equal(parse(kv, &q, &fts, &d), HEED_EINVAL);
		assert_null(fts);
	}
}

static bool url_safe(const char *s)
{
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '-' || *s == '.' ||
		      *s == '_' || *s == '~'))
			return false;
	return true;
}

static void test_cursor_round_trip(void **state)
{
	static const double scores[] = {
	        0.0, -0.0,     -12.345678901234567, 1e-300, -1e300,
	        3.0, INFINITY, -INFINITY,           5e-324};
	static const int64_t keys[] = {
	        0, -1, 1, HEED_STORE_NO_DATE, INT64_MAX, 1709629200, -86400};
	static const int64_t ids[] = {1, 42, INT64_MAX};
	char text[HEED__SERVE_CURSOR_SIZE];
	struct heed_search_cursor c, back;

	(void)state;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(scores); i++)
		for (size_t k = 0; k < HEED_ARRAY_SIZE(ids); k++) {
			c = (struct heed_search_cursor){.id = ids[k],
			                                .score = scores[i]};
			heed__serve_cursor_format(HEED_SEARCH_SORT_RELEVANCE,
			                          &c, text);
			assert_true(url_safe(text));
			assert_int_equal(heed__serve_cursor_parse(
			                         text,
			                         HEED_SEARCH_SORT_RELEVANCE,
			                         &back),
			                 HEED_OK);
			assert_memory_equal(&back.score, &c.score,
			                    sizeof(double));
			assert_int_equal(back.id, c.id);
			assert_int_equal(
			        heed__serve_cursor_parse(
			                text, HEED_SEARCH_SORT_VIEWS, &back),
			        HEED_EINVAL);
		}
	for (int s = HEED_SEARCH_SORT_VIEWS; s <= HEED_SEARCH_SORT_FETCHED; s++)
		for (size_t i = 0; i < HEED_ARRAY_SIZE(keys); i++)
			for (size_t k = 0; k < HEED_ARRAY_SIZE(ids); k++) {
				c = (struct heed_search_cursor){.id = ids[k],
				                                .key = keys[i]};
				heed__serve_cursor_format((heed_search_sort)s,
				                          &c, text);
				assert_true(strlen(text) <
				            HEED__SERVE_CURSOR_SIZE);
				assert_true(url_safe(text));
				assert_int_equal(heed__serve_cursor_parse(
				                         text,
				                         (heed_search_sort)s,
				                         &back),
				                 HEED_OK);
				assert_int_equal(back.key, c.key);
				assert_int_equal(back.id, c.id);
				assert_int_equal(
				        heed__serve_cursor_parse(
				                text,
				                HEED_SEARCH_SORT_RELEVANCE,
				                &back),
				        HEED_EINVAL);
			}
	/* A NaN score orders nothing: refused. */
	assert_int_equal(heed__serve_cursor_parse("r.7ff8000000000000.1",
	                                          HEED_SEARCH_SORT_RELEVANCE,
	                                          &back),
	                 HEED_EINVAL);
	assert_int_equal(heed__serve_cursor_parse("r.7ff000000000000.1",
	                                          HEED_SEARCH_SORT_RELEVANCE,
	                                          &back),
	                 HEED_EINVAL);
	assert_int_equal(
	        heed__serve_cursor_parse(NULL, HEED_SEARCH_SORT_VIEWS, &back),
	        HEED_EINVAL);
}

static void test_serve_arg(void **state)
{
	static const char *const kv[] = {"a", "1", "b", "", "a", "2", NULL};
	struct heed__serve_args a = args_of(kv);

	(void)state;
	assert_string_equal(heed__serve_arg(&a, "a"), "1");
	assert_string_equal(heed__serve_arg(&a, "b"), "");
	assert_null(heed__serve_arg(&a, "c"));
	assert_null(heed__serve_arg(NULL, "a"));
}

/* ---- permit.c ---- */

#define META_NONE                                                   \
	"\"meta_robots\":{\"noarchive\":false,\"nosnippet\":false," \
	"\"nofollow\":false}"

struct permit_case {
	const char *name;
	const char *json;
	bool snippet;
	size_t chars, words;
	bool thumbnail;
	const char *why; /* exact */
};

static const struct permit_case permit_cases[] = {
        {"NULL", NULL, false, 0, 0, false,
         "the page's permissions are unreadable"},
        {"garbage", "{not json", false, 0, 0, false,
         "the page's permissions are unreadable"},
        {"an array", "[1,2]", false, 0, 0, false,
         "the page's permissions are unreadable"},
        {"acap null",
         "{\"robots_txt\":{\"rules\":true},\"acap\":null," META_NONE "}", true,
         0, 0, true, ""},
        {"present-snippet chars",
         "{\"acap\":{\"present\":{\"permitted\":true},\"present-snippet\":"
         "{\"permitted\":true,\"max_length\":20,\"max_length_unit\":"
         "\"chars\"}}," META_NONE "}",
         true, 20, 0, true, "ACAP present-snippet max-length 20 chars"},
        {"present-snippet words",
         "{\"acap\":{\"present-snippet\":{\"permitted\":true,\"max_length\":"
         "7,\"max_length_unit\":\"words\"}}}",
         true, 0, 7, true, "ACAP present-snippet max-length 7 words"},
        {"present-snippet expired",
         "{\"acap\":{\"present-snippet\":{\"permitted\":true,\"expires\":"
         "1732000000,\"max_length\":20}}}",
         false, 0, 0, true, "ACAP present-snippet expired"},
        {"present-snippet not yet expired",
         "{\"acap\":{\"present-snippet\":{\"permitted\":true,\"expires\":"
         "1732000001}}}",
         true, 0, 0, true, ""},
        {"present-snippet refused",
         "{\"acap\":{\"present-snippet\":{\"permitted\":false,\"line\":4}}}",
         false, 0, 0, true, "ACAP present-snippet refused"},
        {"present-snippet permitted not a boolean",
         "{\"acap\":{\"present-snippet\":{\"permitted\":\"yes\"}}}", false, 0,
         0, true, "ACAP present-snippet refused"},
        {"present-thumbnail refused",
         "{\"acap\":{\"present-thumbnail\":{\"permitted\":false}}}", true, 0, 0,
         false, "ACAP present-thumbnail refused"},
        {"present-thumbnail expired",
         "{\"acap\":{\"present-thumbnail\":{\"permitted\":true,\"expires\":"
         "1}}}",
         true, 0, 0, false, "ACAP present-thumbnail expired"},
        {"present refused", "{\"acap\":{\"present\":{\"permitted\":false}}}",
         false, 0, 0, false, "ACAP present refused"},
        {"2.5.5.1: present-link refused",
         "{\"acap\":{\"present-link\":{\"permitted\":false}}}", false, 0, 0,
         false, "ACAP present-link refused"},
        {"2.4.3: present-link asked, not the general present",
         "{\"acap\":{\"present-link\":{\"permitted\":true},\"present\":"
         "{\"permitted\":false}}}",
         true, 0, 0, true, ""},
        {"max_snippet 0",
         "{\"meta_robots\":{\"nosnippet\":false,\"max_snippet\":0}}", false, 0,
         0, true, "max-snippet 0 (robots meta)"},
        {"max_snippet 50", "{\"meta_robots\":{\"max_snippet\":50}}", true, 50,
         0, true, "max-snippet 50 (robots meta)"},
        {"max_snippet -1", "{\"meta_robots\":{\"max_snippet\":-1}}", true, 0, 0,
         true, ""},
        {"nosnippet", "{\"meta_robots\":{\"nosnippet\":true}}", false, 0, 0,
         true, "nosnippet (robots meta)"},
        {"smallest of the two",
         "{\"acap\":{\"present-snippet\":{\"permitted\":true,\"max_length\":"
         "20,\"max_length_unit\":\"chars\"}},\"meta_robots\":"
         "{\"max_snippet\":10}}",
         true, 10, 0, true,
         "max-snippet 10 (robots meta); ACAP present-snippet max-length 20 "
         "chars"},
        {"every reason",
         "{\"acap\":{\"present-snippet\":{\"permitted\":false},"
         "\"present-thumbnail\":{\"permitted\":false}},\"meta_robots\":"
         "{\"nosnippet\":true,\"max_snippet\":0}}",
         false, 0, 0, false,
         "nosnippet (robots meta); max-snippet 0 (robots meta); ACAP "
         "present-snippet refused; ACAP present-thumbnail refused"},
        {"types off", "{\"acap\":\"x\",\"meta_robots\":[1]}", true, 0, 0, true,
         ""},
        {"empty object", "{}", true, 0, 0, true, ""},
};

static void test_permit(void **state)
{
	(void)state;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(permit_cases); i++) {
		const struct permit_case *c = &permit_cases[i];
		struct heed__serve_permit p;
		heed__serve_permit(c->json, NOW, &p);
		if (p.snippet != c->snippet || p.snippet_chars != c->chars ||
		    p.snippet_words != c->words ||
		    p.thumbnail != c->thumbnail || strcmp(p.why, c->why) != 0)
			fail_msg("%s: got snippet %d chars %zu words %zu "
			         "thumbnail %d why '%s'",
			         c->name, p.snippet, p.snippet_chars,
			         p.snippet_words, p.thumbnail, p.why);
	}
}

/* The permissions the crawl writes for a page without ACAP rules and
 * without a robots meta limit on its snippet, whatever else they say,
 * read as heed__serve_permit_open() says without reading them (the
 * crawl's shortcut). */
static void test_permit_open(void **state)
{
	static const char *const unlimited[] = {
	        "{\"robots_txt\":{\"rules\":true,\"line\":3},\"acap\":null,"
	        "\"meta_robots\":{\"noarchive\":true,\"nosnippet\":false,"
	        "\"nofollow\":true,\"unavailable_after\":1}}",
	        "{\"robots_txt\":{\"rules\":false},\"acap\":null,"
	        "\"meta_robots\":{\"noarchive\":false,\"nosnippet\":false,"
	        "\"nofollow\":false}}",
	};
	struct heed__serve_permit open, read;

	(void)state;
	heed__serve_permit_open(&open);
	for (size_t i = 0; i < HEED_ARRAY_SIZE(unlimited); i++) {
		heed__serve_permit(unlimited[i], NOW, &read);
		assert_true(read.snippet == open.snippet);
		assert_int_equal(read.snippet_chars, open.snippet_chars);
		assert_int_equal(read.snippet_words, open.snippet_words);
		assert_true(read.snippet_timed == open.snippet_timed);
		assert_true(read.thumbnail == open.thumbnail);
		assert_string_equal(read.why, open.why);
	}
}

/* What the search index may hold of a description: what is shown, and
 * nothing while that depends on the time. */
static void test_permit_index_len(void **state)
{
	static const struct {
		const char *json, *desc;
		size_t want;
	} cases[] = {
	        {"{}", "heron ibis", 10},
	        {NULL, "heron ibis", 0},
	        {"{\"meta_robots\":{\"nosnippet\":true}}", "heron ibis", 0},
	        {"{\"meta_robots\":{\"max_snippet\":3}}", "h\xc3\xa9ron ibis",
	         4},
	        {"{\"acap\":{\"present-snippet\":{\"permitted\":true,"
	         "\"max_length\":1,\"max_length_unit\":\"words\"}}}",
	         "  heron ibis", 7},
	        {"{\"acap\":{\"present-snippet\":{\"permitted\":true,"
	         "\"expires\":1900000000}}}",
	         "heron ibis", 0},
	        {"{\"acap\":{\"present-snippet\":{\"permitted\":false}}}",
	         "heron ibis", 0},
	};

	(void)state;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(cases); i++) {
		struct heed__serve_permit p;
		size_t got;
		heed__serve_permit(cases[i].json, NOW, &p);
		got = heed__serve_permit_index_len(&p, cases[i].desc,
		                                   strlen(cases[i].desc));
		if (got != cases[i].want)
			fail_msg("case %zu: got %zu, want %zu", i, got,
			         cases[i].want);
	}
}

/* The words of a search marked in a result's text: [ ] stand for
 * <mark>. */
static void test_marks(void **state)
{
	static const struct {
		const char *q, *text, *want;
	} cases[] = {
	        {"film", "Films about film-making",
	         "[Films] about [film]-making"},
	        {"bridge -steam", "Steam bridge", "Steam [bridge]"},
	        {"\"night train\"", "The Night Train", "The [Night] [Train]"},
	        {"synth*", "Synthesizers", "[Synthesizers]"},
	        {"rock OR jazz", "Jazz and rock, or pop",
	         "[Jazz] and [rock], or pop"},
	        {"art", "party art", "party [art]"},
	        {"夜行", "夜行列車と夜行バス", "[夜行]列車と[夜行]バス"},
	        {"caf\xc3\xa9", "Le caf\xc3\xa9 du coin",
	         "Le [caf\xc3\xa9] du coin"},
	        {"", "nothing", "nothing"},
	        {"*", "a * b", "a * b"},
	        /* A query cut in the middle of a character (U+FFFD's first
	         * two bytes) marks no span that would end inside one. */
	        {"\xe8\x88\x88\xef\xbf", "\xe8\x88\x88\xef\xbf\xbd",
	         "\xe8\x88\x88\xef\xbf\xbd"},
	};

	(void)state;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(cases); i++) {
		struct heed__serve_marks m;
		const char *t = cases[i].text;
		size_t len = strlen(t), at = 0, start, end;
		char got[128] = "";
		heed__serve_marks_init(&m, cases[i].q);
		while (heed__serve_mark_next(&m, t, len, at, &start, &end)) {
			snprintf(got + strlen(got), sizeof(got) - strlen(got),
			         "%.*s[%.*s]", (int)(start - at), t + at,
			         (int)(end - start), t + start);
			at = end;
		}
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s",
		         t + at);
		if (strcmp(got, cases[i].want) != 0)
			fail_msg("%s in '%s': got '%s', want '%s'", cases[i].q,
			         t, got, cases[i].want);
	}
}

/* ---- svg.c ---- */

static int count_elements(xmlNode *n, const char *name)
{
	int k = 0;

	for (; n; n = n->next) {
		if (n->type == XML_ELEMENT_NODE &&
		    strcmp((const char *)n->name, name) == 0)
			k++;
		k += count_elements(n->children, name);
	}
	return k;
}

static xmlDoc *svg_doc(const struct heed__svg_bar *bars, size_t n,
                       const char *title, struct heed_buf *b)
{
	xmlDoc *doc;

	heed__buf_init(b, heed_test_allocator(), 1 << 20);
	assert_int_equal(heed__svg_bars(b, title, bars, n), HEED_OK);
	assert_null(strstr(b->data, "style"));
	doc = xmlReadMemory(b->data, (int)b->len, "chart.svg", NULL,
	                    XML_PARSE_NONET | XML_PARSE_NOERROR |
	                            XML_PARSE_NOWARNING);
	if (!doc)
		fail_msg("not XML: %s", b->data);
	return doc;
}

static void test_svg(void **state)
{
	struct heed__svg_bar bars[40];
	char labels[40][16];
	struct heed_buf b;
	xmlDoc *doc;
	xmlNode *root;
	xmlChar *aria;

	(void)state;
	for (size_t i = 0; i < 40; i++) {
		snprintf(labels[i], sizeof(labels[i]), "<d%zu&\"'>", i);
		bars[i].label = labels[i];
		bars[i].value = i == 3 ? INT64_MAX : (int64_t)i * 7 - 5;
	}
	doc = svg_doc(bars, 40, "Pages <per> day \"x\" \xFF", &b);
	root = xmlDocGetRootElement(doc);
	assert_string_equal((const char *)root->name, "svg");
	assert_int_equal(count_elements(root, "rect"), 40);
	/* One <title> for the chart and one per bar. */
	assert_int_equal(count_elements(root, "title"), 41);
	/* Labels under at most twelve bars. */
	assert_true(count_elements(root, "text") <= 13);
	assert_true(count_elements(root, "text") >= 10);
	aria = xmlGetProp(root, (const xmlChar *)"aria-label");
	assert_string_equal((const char *)aria,
	                    "Pages <per> day \"x\" \xEF\xBF\xBD");
	xmlFree(aria);
	aria = xmlGetProp(root, (const xmlChar *)"role");
	assert_string_equal((const char *)aria, "img");
	xmlFree(aria);
	assert_non_null(strstr(b.data, "viewBox=\""));
	xmlFreeDoc(doc);
	heed__buf_free(&b);

	doc = svg_doc(bars, 3, NULL, &b);
	assert_int_equal(count_elements(xmlDocGetRootElement(doc), "rect"), 3);
	assert_int_equal(count_elements(xmlDocGetRootElement(doc), "text"), 4);
	xmlFreeDoc(doc);
	heed__buf_free(&b);

	doc = svg_doc(NULL, 0, "Views", &b);
	assert_int_equal(count_elements(xmlDocGetRootElement(doc), "rect"), 0);
	assert_non_null(strstr(b.data, ">no data</text>"));
	xmlFreeDoc(doc);
	heed__buf_free(&b);

	/* Every value zero: flat bars, no division by zero. */
	for (size_t i = 0; i < 5; i++)
		bars[i] = (struct heed__svg_bar){NULL, 0};
	doc = svg_doc(bars, 5, "zeros", &b);
	assert_int_equal(count_elements(xmlDocGetRootElement(doc), "rect"), 5);
	xmlFreeDoc(doc);
	heed__buf_free(&b);
}

/* Every allocation failing in turn: ENOMEM, nothing leaked (cmocka's
 * allocator checks), then success. */
static void test_oom_parse_and_svg(void **state)
{
	static const char *const kv[] = {
	        "q", "cats OR dogs -mice", "sort", "views", "cursor", "v.3.9",
	        NULL};
	struct heed__serve_args args = args_of(kv);
	struct heed__svg_bar bars[] = {{"<a>", 3}, {"b", 9}, {NULL, 0}};

	(void)state;
	for (unsigned long n = 0;; n++) {
		struct heed_test_fail fl = {.fail_at = n};
		struct heed_search_query q;
		char *fts = NULL;
		heed_status rc = heed__serve_parse_search(
		        heed_test_failing_allocator(&fl), &args, 20, NOW, &q,
		        &fts, NULL);
		assert_true(n < 100);
		if (rc == HEED_OK) {
			assert_string_equal(q.match, "(\"cats\" OR \"dogs\") "
			                             "NOT \"mice\"");
			heed__free(&fl.alloc, fts);
			break;
		}
		assert_int_equal(rc, HEED_ENOMEM);
		assert_null(fts);
	}
	for (unsigned long n = 0;; n++) {
		struct heed_test_fail fl = {.fail_at = n};
		struct heed_buf b;
		heed_status rc;
		heed__buf_init(&b, heed_test_failing_allocator(&fl), 1 << 16);
		rc = heed__svg_bars(&b, "t", bars, 3);
		heed__buf_free(&b);
		assert_true(n < 100);
		if (rc == HEED_OK)
			break;
		assert_int_equal(rc, HEED_ENOMEM);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_html_escape),
	        cmocka_unit_test(test_url_encode),
	        cmocka_unit_test(test_utf8_clean),
	        cmocka_unit_test(test_escape_random_and_long),
	        cmocka_unit_test(test_safe_link),
	        cmocka_unit_test(test_cut),
	        cmocka_unit_test(test_cut_at_word),
	        cmocka_unit_test(test_irc_strip),
	        cmocka_unit_test(test_fts_query),
	        cmocka_unit_test(test_fts_bounds_and_random),
	        cmocka_unit_test(test_fts_oom),
	        cmocka_unit_test(test_fts_words_match_unicode61),
	        cmocka_unit_test(test_parse_search_defaults),
	        cmocka_unit_test(test_parse_search_tag_folded),
	        cmocka_unit_test(test_parse_search_dates),
	        cmocka_unit_test(test_parse_search_errors),
	        cmocka_unit_test(test_cursor_round_trip),
	        cmocka_unit_test(test_serve_arg),
	        cmocka_unit_test(test_permit),
	        cmocka_unit_test(test_permit_open),
	        cmocka_unit_test(test_permit_index_len),
	        cmocka_unit_test(test_marks),
	        cmocka_unit_test(test_svg),
	        cmocka_unit_test(test_oom_parse_and_svg),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
