/*
 * Unit tests for heed's HTML tokenizer (src/extract/htmltok.c), WHATWG
 * HTML Standard 13.2.5: a table of inputs and the tokens they give,
 * rendered one per "|"-separated item:
 *
 *   <name a="v" />   a start tag (" /" when self-closing)
 *   </name>          an end tag
 *   "text"           text with character references decoded
 *   R"text"          script or RAWTEXT content, as it is
 *
 * Case names cite the tokenizer state they exercise. Then the limits
 * (attribute count, name and value sizes) and linear time on hostile
 * shapes, and the OOM loop.
 */
#include "heed_test.h"

#include "extract/htmltok.h"

static void render_tag(struct heed_buf *b, const struct heed_htmltok *t)
{
	heed__buf_addf(b, "<%s%s", t->kind == HTMLTOK_END ? "/" : "", t->name);
	for (size_t i = 0; t->atts[i]; i += 2)
		heed__buf_addf(b, " %s=\"%s\"", t->atts[i], t->atts[i + 1]);
	heed__buf_addf(b, "%s>", t->self_closing ? " /" : "");
}

/* All tokens of s[0..len), or NULL when the tokenizer failed. foreign:
 * the consumer says the current node is foreign throughout. */
static char *tokens(const char *s, size_t len, bool foreign,
                    const struct heed_allocator *a)
{
	struct heed_htmltok t;
	struct heed_buf b;
	heed_status rc;

	heed__buf_init(&b, heed_allocator_default(), 64 << 20);
	heed__htmltok_init(&t, s, len, a);
	t.foreign = foreign;
	while ((rc = heed__htmltok_next(&t)) == HEED_OK &&
	       t.kind != HTMLTOK_EOF) {
		assert_true(t.start < t.end && t.end <= len);
		if (b.len)
			heed__buf_addc(&b, '|');
		if (t.kind != HTMLTOK_TEXT) {
			render_tag(&b, &t);
			continue;
		}
		heed__buf_addf(&b, "%s\"", t.raw ? "R" : "");
		if (t.refs)
			heed__htmltok_decode(&b, t.text, t.text_len);
		else
			heed__buf_add(&b, t.text, t.text_len);
		heed__buf_addc(&b, '"');
	}
	heed__htmltok_free(&t);
	if (rc != HEED_OK) {
		heed__buf_free(&b);
		return NULL;
	}
	heed__buf_addc(&b, '\0');
	return heed__buf_take(&b);
}

struct tok_case {
	const char *name, *in, *want;
	bool foreign;
};

static const struct tok_case cases[] = {
        /* 13.2.5.1 data, 13.2.5.6 tag open */
        {"13.2.5.1: text and tags", "a<b>c</b>d", "\"a\"|<b>|\"c\"|</b>|\"d\""},
        {"13.2.5.6: '<' before a non-letter is text",
         "a < b <3 <=", "\"a < b <3 <=\""},
        {"13.2.5.6: '<' at the end is text", "a<", "\"a<\""},
        {"13.2.5.7: \"</\" at the end is text", "a</", "\"a</\""},
        {"13.2.5.7: \"</>\" is dropped", "a</>b", "\"a\"|\"b\""},
        {"13.2.5.7: \"</\" + non-letter is a bogus comment", "a</ 1>b",
         "\"a\"|\"b\""},
        {"13.2.5.6: \"<?\" is a bogus comment", "<?xml version=1?>x", "\"x\""},
        {"13.2.5.8: tag names are lower-cased", "<DiV></DIV>", "<div>|</div>"},
        {"13.2.5.8: a tag name ends at white space, '/' or '>'",
         "<a\thref=x\n></a\f>", "<a href=\"x\">|</a>"},
        {"13.2.5.8: EOF in a tag name drops the tag", "x<div", "\"x\""},
        /* 13.2.5.32-13.2.5.40 attributes */
        {"13.2.5.33: attribute names are lower-cased", "<p CLASS=X>",
         "<p class=\"X\">"},
        {"13.2.5.33: the first of duplicate attributes wins", "<a b=1 B=2 b=3>",
         "<a b=\"1\">"},
        {"13.2.5.34: attributes without values", "<input disabled checked=>",
         "<input disabled=\"\" checked=\"\">"},
        {"13.2.5.32: a leading '=' is part of the name", "<a =b c==d>",
         "<a =b=\"\" c=\"=d\">"},
        {"13.2.5.36: double-quoted value with '>' and quotes", "<a x=\"1>'2\">",
         "<a x=\"1>'2\">"},
        {"13.2.5.37: single-quoted value", "<a x='1\"2'>", "<a x=\"1\"2\">"},
        {"13.2.5.38: unquoted value takes '/': <a href=x/>", "<a href=x/>",
         "<a href=\"x/\">"},
        {"13.2.5.39: no white space after a quoted value", "<a x=\"1\"y=2>",
         "<a x=\"1\" y=\"2\">"},
        {"13.2.5.40: self-closing start tag", "<br/><img src=a />",
         "<br />|<img src=\"a\" />"},
        {"13.2.5.40: '/' not before '>' is ignored", "<a / b>", "<a b=\"\">"},
        {"13.2.5.35: white space around '='", "<a x = \"1\" >", "<a x=\"1\">"},
        {"13.2.5.36: EOF in a quoted value drops the tag", "x<a b=\"c",
         "\"x\""},
        {"13.2.5.38: EOF in an unquoted value drops the tag", "x<a b=c",
         "\"x\""},
        {"13.2.5.34: EOF after an attribute name drops the tag", "x<a b ",
         "\"x\""},
        {"13.2.5.40: EOF after '/' drops the tag", "x<br/", "\"x\""},
        {"end tags lose their attributes", "</a href=x>", "</a>"},
        /* 13.2.5.42-13.2.5.52 comments, DOCTYPE, CDATA */
        {"13.2.5.43: a comment", "a<!-- <b> -->b", "\"a\"|\"b\""},
        {"13.2.5.44: \"<!-->\" ends the comment", "a<!-->b", "\"a\"|\"b\""},
        {"13.2.5.45: \"<!--->\" ends the comment", "a<!--->b", "\"a\"|\"b\""},
        {"13.2.5.50: \"--!>\" ends the comment", "a<!-- x --!>b",
         "\"a\"|\"b\""},
        {"13.2.5.49: \"--\" inside a comment", "a<!-- x -- y ->z -->b",
         "\"a\"|\"b\""},
        {"13.2.5.43: EOF in a comment", "a<!-- <b>", "\"a\""},
        {"13.2.5.53: DOCTYPE skipped", "<!DOCTYPE html><p>", "<p>"},
        {"13.2.5.58: '>' in a quoted DOCTYPE identifier ends it",
         "<!doctype html public \"a>b\">", "\"b\">\""},
        {"13.2.5.42: \"<!\" + other is a bogus comment", "<!x>y", "\"y\""},
        {"13.2.5.42: CDATA outside foreign content is a bogus comment",
         "<![CDATA[x<b>]]>y", "\"]]>y\""},
        {"13.2.5.69: CDATA section in foreign content",
         "<![CDATA[x<b>&amp;]]>y", "\"x<b>&amp;\"|\"y\"", true},
        {"13.2.5.69: EOF in a CDATA section", "<![CDATA[x", "\"x\"", true},
        {"foreign content: title is not RCDATA", "<title><b>t</title>",
         "<title>|<b>|\"t\"|</title>", true},
        /* 13.2.5.2-13.2.5.5 text states */
        {"13.2.5.2: RCDATA decodes references, keeps tags",
         "<title>a<b>&amp;</title>x", "<title>|\"a<b>&\"|</title>|\"x\""},
        {"13.2.5.11: RCDATA end tag, any case, with attributes",
         "<TEXTAREA>a</textArea foo=1>", "<textarea>|\"a\"|</textarea>"},
        {"13.2.5.11: RCDATA not ended by another name",
         "<title>a</titlex></tit>b</title>",
         "<title>|\"a</titlex></tit>b\"|</title>"},
        {"13.2.5.11: RCDATA \"</title\" at EOF is text", "<title>a</title",
         "<title>|\"a</title\""},
        {"13.2.5.3: RAWTEXT keeps references", "<style>a&amp;</b></style>",
         "<style>|R\"a&amp;</b>\"|</style>"},
        {"13.2.5.3: noscript, iframe, xmp, noembed, noframes are RAWTEXT",
         "<noscript><a></noscript><iframe><b></iframe><xmp><i></xmp>"
         "<noembed><u></noembed><noframes><s></noframes>",
         "<noscript>|R\"<a>\"|</noscript>|<iframe>|R\"<b>\"|</iframe>|"
         "<xmp>|R\"<i>\"|</xmp>|<noembed>|R\"<u>\"|</noembed>|<noframes>|"
         "R\"<s>\"|</noframes>"},
        {"13.2.5.4: script data", "<script>a=\"</div>\";a<b</script>x",
         "<script>|R\"a=\"</div>\";a<b\"|</script>|\"x\""},
        {"13.2.5.17: \"</script\" + '/' ends the script",
         "<script>a</script/>b", "<script>|R\"a\"|</script>|\"b\""},
        {"13.2.5.17: \"</scripty\" does not end it",
         "<script>a</scripty>b</SCRIPT>",
         "<script>|R\"a</scripty>b\"|</script>"},
        {"13.2.5.21: escaped: \"</script>\" still ends it",
         "<script><!-- a </script>b", "<script>|R\"<!-- a \"|</script>|\"b\""},
        {"13.2.5.26: double-escaped: an inner </script> does not end it",
         "<script><!--<script>x</script>y--></script>z",
         "<script>|R\"<!--<script>x</script>y-->\"|</script>|\"z\""},
        {"13.2.5.27: \"-->\" leaves double escape",
         "<script><!--<script>--></script>z",
         "<script>|R\"<!--<script>-->\"|</script>|\"z\""},
        {"13.2.5.31: double escape end",
         "<script><!--<script></script></script>",
         "<script>|R\"<!--<script></script>\"|</script>"},
        {"13.2.5.22: \"<!-->\" in a script", "<script><!--></script>",
         "<script>|R\"<!-->\"|</script>"},
        {"13.2.5.4: EOF in script data", "<script>a<b", "<script>|R\"a<b\""},
        {"13.2.5.5: PLAINTEXT to the end", "<plaintext></plaintext><b>&amp;",
         "<plaintext>|\"</plaintext><b>&amp;\""},
        {"self-closing script still reads script data", "<script/>a</script>",
         "<script />|R\"a\"|</script>"},
        /* 13.2.5.72-13.2.5.80 character references */
        {"13.2.5.73: named references",
         "&amp;&lt;&gt;&quot;&apos;&nbsp;&eacute;&hellip;&AMP;&COPY;",
         "\"&<>\"'\xC2\xA0\xC3\xA9\xE2\x80\xA6&\xC2\xA9\""},
        {"13.2.5.73: legacy names without ';'", "&amp &ltx &copy2024 &eacute.",
         "\"& <x \xC2\xA9"
         "2024 \xC3\xA9.\""},
        {"13.2.5.73: the longest legacy prefix", "&notit; &notin;",
         "\"\xC2\xACit; \xE2\x88\x89\""},
        {"13.2.5.73: non-legacy names need ';'", "&hellip &bogus; &",
         "\"&hellip &bogus; &\""},
        {"13.5: HTML5 names, the longest, two code points",
         "&NewLine;&Tab;&CounterClockwiseContourIntegral;&nGt;&fjlig;",
         "\"\n\t\xE2\x88\xB3\xE2\x89\xAB\xE2\x83\x92"
         "fj\""},
        {"13.2.5.73: longest match, ';' name over legacy prefix",
         "&ltimes; &ltimes &ampersand; &notinva; &notinvz",
         "\"\xE2\x8B\x89 <imes &ersand; \xE2\x88\x89 \xC2\xACinvz\""},
        {"13.2.5.73: names are case-sensitive", "&Amp; &aMP; &Copy; &COPY",
         "\"&Amp; &aMP; &Copy; \xC2\xA9\""},
        {"13.2.5.72: \"&amp;\" chains decode once", "&amp;amp; &amp;lt;&&amp;&",
         "\"&amp; &lt;&&&\""},
        {"13.2.5.73: a name longer than any in the table",
         "&CounterClockwiseContourIntegralX; "
         "&aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa;",
         "\"&CounterClockwiseContourIntegralX; "
         "&aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa;\""},
        {"13.2.5.75: numeric references", "&#65;&#x42;&#X43&#0068;",
         "\"ABCD\""},
        {"13.2.5.80: 0, surrogates, past U+10FFFF are U+FFFD",
         "&#0;&#xD800;&#x110000;&#99999999999999999999;",
         "\"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\""},
        {"13.2.5.80: windows-1252 for 0x80-0x9F", "&#x80;&#150;&#x81;",
         "\"\xE2\x82\xAC\xE2\x80\x93\xC2\x81\""},
        {"13.2.5.80: the table's ends and its five holes",
         "&#x9F;&#159;&#x8D;&#x8F;&#x90;&#x9D;&#x7F;&#xA0;",
         "\"\xC5\xB8\xC5\xB8\xC2\x8D\xC2\x8F\xC2\x90\xC2\x9D\x7F\xC2\xA0\""},
        {"13.2.5.80: around the surrogates and U+10FFFF",
         "&#xD7FF;&#xDFFF;&#xE000;&#x10FFFF;&#1114112;&#x0000;",
         "\"\xED\x9F\xBF\xEF\xBF\xBD\xEE\x80\x80\xF4\x8F\xBF\xBF"
         "\xEF\xBF\xBD\xEF\xBF\xBD\""},
        {"13.2.5.75: \"&#\" without digits stays", "&#; &#x; &#xz",
         "\"&#; &#x; &#xz\""},
        {"13.2.5.75: astral code point", "&#x1F600;", "\"\xF0\x9F\x98\x80\""},
        {"13.2.5.73: attribute: legacy name before '=' or alnum stays",
         "<a href=\"?a=1&amp=2&copy=3&copyx&copy;&lt\">",
         "<a href=\"?a=1&amp=2&copy=3&copyx\xC2\xA9<\">"},
        {"13.2.5.73: attribute: ';' names and numerics always decode",
         "<a t='&amp;x&#65;1&eacute;z' u=&lt;b>",
         "<a t=\"&xA1\xC3\xA9z\" u=\"<b\">"},
        {"13.2.5.73: attribute: no ';' after a legacy prefix",
         "<a h='&notin &not= &not;x &notx &not.' g=&nGt;&nLt;>",
         "<a h=\"&notin &not= \xC2\xACx &notx \xC2\xAC.\" "
         "g=\"\xE2\x89\xAB\xE2\x83\x92\xE2\x89\xAA\xE2\x83\x92\">"},
        {"13.2.5.73: text: no ';' after a legacy prefix", "&notx &not= &notin",
         "\"\xC2\xACx \xC2\xAC= \xC2\xACin\""},
};

static void test_htmltok_cases(void **state)
{
	(void)state;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(cases); i++) {
		const struct tok_case *c = &cases[i];
		char *got = tokens(c->in, strlen(c->in), c->foreign,
		                   heed_test_allocator());
		assert_non_null(got);
		if (strcmp(got, c->want) != 0)
			fail_msg("%s:\n got %s\nwant %s", c->name, got,
			         c->want);
		heed__free(heed_allocator_default(), got);
	}
}

static void test_htmltok_mode_for(void **state)
{
	(void)state;
	assert_int_equal(heed__htmltok_mode_for("title", 5), HTMLTOK_RCDATA);
	assert_int_equal(heed__htmltok_mode_for("script", 6), HTMLTOK_SCRIPT);
	assert_int_equal(heed__htmltok_mode_for("noscript", 8),
	                 HTMLTOK_RAWTEXT);
	assert_int_equal(heed__htmltok_mode_for("plaintext", 9),
	                 HTMLTOK_PLAINTEXT);
	assert_int_equal(heed__htmltok_mode_for("div", 3), HTMLTOK_DATA);
	assert_int_equal(heed__htmltok_mode_for("titles", 6), HTMLTOK_DATA);
}

/* The consumer switches the state itself (a tree builder's job). */
static void test_htmltok_set_mode(void **state)
{
	struct heed_htmltok t;
	const char *s = "<x>a<b></x>c";
	(void)state;

	heed__htmltok_init(&t, s, strlen(s), heed_test_allocator());
	assert_int_equal(heed__htmltok_next(&t), HEED_OK);
	assert_int_equal(t.kind, HTMLTOK_START);
	heed__htmltok_set_mode(&t, HTMLTOK_RAWTEXT);
	assert_int_equal(heed__htmltok_next(&t), HEED_OK);
	assert_int_equal(t.kind, HTMLTOK_TEXT);
	assert_int_equal(t.text_len, 4); /* "a<b>" up to </x> */
	assert_true(t.raw);
	assert_int_equal(heed__htmltok_next(&t), HEED_OK);
	assert_int_equal(t.kind, HTMLTOK_END);
	assert_string_equal(t.name, "x");
	heed__htmltok_free(&t);
}

/* Counts the tokens of s, checking each one's span and progress. */
static size_t count_tokens(const char *s, size_t len, size_t *attrs)
{
	struct heed_htmltok t;
	size_t n = 0, last_end = 0;

	*attrs = 0;
	heed__htmltok_init(&t, s, len, heed_allocator_default());
	while (heed__htmltok_next(&t) == HEED_OK && t.kind != HTMLTOK_EOF) {
		assert_true(t.start >= last_end && t.end > t.start);
		last_end = t.end;
		*attrs += t.natts;
		for (size_t i = 0; t.atts[i]; i += 2)
			assert_true(strlen(t.atts[i]) <= HTMLTOK_MAX_NAME &&
			            strlen(t.atts[i + 1]) <= HTMLTOK_MAX_VALUE);
		n++;
	}
	heed__htmltok_free(&t);
	return n;
}

/* The documented limits, and hostile shapes that must stay linear: a
 * megabyte attribute, a megabyte tag name, 100,000 attributes, 100,000
 * unclosed comments' worth of "<!--" and a megabyte of "<a". */
static void test_htmltok_limits(void **state)
{
	struct heed_buf b;
	size_t attrs;
	(void)state;

	heed__buf_init(&b, heed_allocator_default(), 64 << 20);
	heed__buf_addf(&b, "<a ");
	for (int i = 0; i < 100; i++)
		heed__buf_addf(&b, "a%d=%d ", i, i);
	heed__buf_addf(&b, ">");
	assert_int_equal(count_tokens(b.data, b.len, &attrs), 1);
	assert_int_equal(attrs, HTMLTOK_MAX_ATTRS);

	heed__buf_reset(&b);
	heed__buf_addf(&b, "<a x=\"");
	for (int i = 0; i < (1 << 20); i++)
		heed__buf_addc(&b, 'v');
	heed__buf_addf(&b, "\" y=1 %0300d=2><", 0);
	for (int i = 0; i < (1 << 20); i++)
		heed__buf_addc(&b, 'N');
	heed__buf_addf(&b, ">x");
	/* The huge value is dropped, the long name cut, both read whole. */
	assert_int_equal(count_tokens(b.data, b.len, &attrs), 3);
	assert_int_equal(attrs, 2);

	heed__buf_reset(&b);
	heed__buf_addf(&b, "<p ");
	for (int i = 0; i < 100000; i++)
		heed__buf_addf(&b, "x ");
	heed__buf_addf(&b, ">");
	assert_int_equal(count_tokens(b.data, b.len, &attrs), 1);
	assert_int_equal(attrs, 1); /* all duplicates of the first */

	heed__buf_reset(&b);
	for (int i = 0; i < 100000; i++)
		heed__buf_addf(&b, "<a<!--");
	assert_int_equal(count_tokens(b.data, b.len, &attrs), 0);
	heed__buf_reset(&b);
	heed__buf_addf(&b, "<script><!--<script>");
	for (int i = 0; i < 100000; i++)
		heed__buf_addf(&b, "<!--<script>-->-");
	assert_int_equal(count_tokens(b.data, b.len, &attrs), 2);
	heed__buf_free(&b);
}

/* A reference decodes the same wherever it stands: the table is searched,
 * not budgeted, so the last of 300,000 references on a page is read like
 * the first (libxml2's linear table was capped per page before). */
static void test_htmltok_refs_anywhere(void **state)
{
	struct heed_buf b;
	char *got;
	size_t len;
	(void)state;

	heed__buf_init(&b, heed_allocator_default(), 64 << 20);
	for (int i = 0; i < 100000; i++)
		heed__buf_addf(&b, "&hellip;&abcdef&CounterClockwiseContourX;");
	heed__buf_addf(&b,
	               "&hellip;&nbsp;&amp;&CounterClockwiseContourIntegral;");
	got = tokens(b.data, b.len, false, heed_allocator_default());
	assert_non_null(got);
	len = strlen(got);
	assert_memory_equal(got, "\"\xE2\x80\xA6&abcdef&Counter", 15);
	assert_memory_equal(got + len - 10,
	                    "\xE2\x80\xA6\xC2\xA0&\xE2\x88\xB3\"", 10);
	heed__free(heed_allocator_default(), got);
	heed__buf_free(&b);
}

static void test_htmltok_oom(void **state)
{
	const char *s = "<meta name=a content=\"b&amp;c\"><title>t</title>";
	(void)state;
	for (unsigned long n = 0;; n++) {
		struct heed_test_fail f = {.fail_at = n};
		char *got = tokens(s, strlen(s), false,
		                   heed_test_failing_allocator(&f));
		if (got) {
			heed__free(heed_allocator_default(), got);
			break;
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_htmltok_cases),
	        cmocka_unit_test(test_htmltok_mode_for),
	        cmocka_unit_test(test_htmltok_set_mode),
	        cmocka_unit_test(test_htmltok_limits),
	        cmocka_unit_test(test_htmltok_refs_anywhere),
	        cmocka_unit_test(test_htmltok_oom),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
