/*
 * Unit tests for oEmbed answers (src/extract/oembed.c): JSON and XML,
 * members of the wrong type, a missing version or type, huge strings,
 * nested junk, the html member never kept, and the OOM loop. Answers are
 * rendered one member a line ("title=...") and compared whole.
 */
#include "heed_test.h"

#include "common/common-int.h"
#include "heed/extract.h"

#define ENDPOINT "https://site.example/oembed?url=x"

static void render(struct heed_buf *b, const struct heed_oembed *o)
{
	const struct {
		const char *k, *v;
	} s[] = {
	        {"type", o->type},
	        {"version", o->version},
	        {"title", o->title},
	        {"author_name", o->author_name},
	        {"author_url", o->author_url},
	        {"provider_name", o->provider_name},
	        {"provider_url", o->provider_url},
	        {"thumbnail_url", o->thumbnail_url},
	};
	const struct {
		const char *k;
		int64_t v;
	} n[] = {
	        {"thumbnail_width", o->thumbnail_width},
	        {"thumbnail_height", o->thumbnail_height},
	        {"width", o->width},
	        {"height", o->height},
	        {"cache_age", o->cache_age},
	};

	heed__buf_addf(b, "format=%s\n",
	               o->format == HEED_OEMBED_JSON ? "json" : "xml");
	for (size_t i = 0; i < HEED_ARRAY_SIZE(s); i++)
		if (s[i].v)
			heed__buf_addf(b, "%s=%s\n", s[i].k, s[i].v);
	for (size_t i = 0; i < HEED_ARRAY_SIZE(n); i++)
		if (n[i].v >= 0)
			heed__buf_addf(b, "%s=%lld\n", n[i].k,
			               (long long)n[i].v);
	if (o->skipped)
		heed__buf_addf(b, "skipped=%u\n", o->skipped);
}

static heed_status parse(const char *body, size_t len,
                         const struct heed_allocator *a, struct heed_oembed **o,
                         struct heed_diag *diag)
{
	struct heed_extract_input in = {0};

	in.body = body;
	in.body_len = len ? len : strlen(body);
	in.url = ENDPOINT;
	return heed_extract_oembed(o, &in, a, diag);
}

struct oembed_case {
	const char *name, *body;
	heed_status rc;
	const char *want; /* the whole rendering, or the diag's message */
};

static const struct oembed_case cases[] = {
        {"JSON video, every member",
         "\xEF\xBB\xBF {\"type\": \"video\", "
         "\"version\": \"1.0\", \"title\": \"  Sunset\\n over the bay \", "
         "\"author_name\": \"Ana Lopez\", \"author_url\": "
         "\"/people/ana\", \"provider_name\": \"ClipHub\", "
         "\"provider_url\": \"https://cliphub.example/\", "
         "\"thumbnail_url\": \"https://cdn.example/t.jpg\", "
         "\"thumbnail_width\": 480, \"thumbnail_height\": \"360\", "
         "\"width\": 640.0, \"height\": 360, \"cache_age\": 3600, "
         "\"html\": \"<iframe src=https://cliphub.example/e/1>\", "
         "\"url\": \"https://cdn.example/photo.jpg\", \"extra\": [1,2]}",
         HEED_OK,
         "format=json\ntype=video\nversion=1.0\ntitle=Sunset over the bay\n"
         "author_name=Ana Lopez\n"
         "author_url=https://site.example/people/ana\n"
         "provider_name=ClipHub\nprovider_url=https://cliphub.example/\n"
         "thumbnail_url=https://cdn.example/t.jpg\n"
         "thumbnail_width=480\nthumbnail_height=360\nwidth=640\n"
         "height=360\ncache_age=3600\n"},
        {"XML photo, CDATA and entities",
         "<?xml version=\"1.0\" encoding=\"utf-8\" standalone=\"yes\"?>\n"
         "<oembed><version>1.0</version><type>photo</type>"
         "<title>Caf&#233; &amp; <![CDATA[bar]]></title>"
         "<author_name>Mia</author_name>"
         "<provider_name>Pics</provider_name>"
         "<thumbnail_url>thumbs/1.jpg</thumbnail_url>"
         "<width>1024</width><height>x</height>"
         "<url>https://pics.example/1.jpg</url>"
         "<html>&lt;img src=x&gt;</html></oembed>",
         HEED_OK,
         "format=xml\ntype=photo\nversion=1.0\ntitle=Caf\xC3\xA9 & bar\n"
         "author_name=Mia\nprovider_name=Pics\n"
         "thumbnail_url=https://site.example/thumbs/1.jpg\n"
         "width=1024\nskipped=1\n"},
        {"version as a number, types wrong everywhere",
         "{\"version\": 1.0, \"type\": \"link\", \"title\": 42, "
         "\"author_name\": {\"name\": \"A\"}, \"width\": -5, "
         "\"height\": \"12px\", \"thumbnail_url\": \"javascript:alert(1)\", "
         "\"provider_url\": [\"https://p.example/\"], \"cache_age\": 1e300}",
         HEED_OK, "format=json\ntype=link\nversion=1\nskipped=7\n"},
        {"nested junk is not read, the members are",
         "{\"junk\": [[[[{\"a\": [[[]]]}]]]], \"type\": \"rich\", "
         "\"version\": \"1.0\", \"title\": \"T\"}",
         HEED_OK, "format=json\ntype=rich\nversion=1.0\ntitle=T\n"},
        {"NUL and controls in a string",
         "{\"type\": \"link\", \"version\": \"1.0\", "
         "\"title\": \"a\\u0000b\\u0007c\"}",
         HEED_OK,
         "format=json\ntype=link\nversion=1.0\n"
         "title=a\xEF\xBF\xBD"
         "b\xEF\xBF\xBD"
         "c\n"},
        {"missing version", "{\"type\": \"video\", \"title\": \"T\"}",
         HEED_EPARSE, "oEmbed: no version 1.0"},
        {"version 2 is another protocol",
         "<oembed><version>2.0</version><type>video</type></oembed>",
         HEED_EPARSE, "oEmbed: no version 1.0"},
        {"unknown type", "{\"type\": \"hologram\", \"version\": \"1.0\"}",
         HEED_EPARSE, "oEmbed: no type (photo, video, link, rich)"},
        {"a JSON array", "[{\"type\": \"video\", \"version\": \"1.0\"}]",
         HEED_EPARSE, "oEmbed: the JSON answer is not an object"},
        {"broken JSON", "{\"type\": \"video\", \"version\": ", HEED_EPARSE,
         NULL},
        {"deep JSON past the tokenizer's depth",
         "{\"a\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]"
         "]]]]]]]]]]]]]]]]]]]]]]], \"type\": \"video\", \"version\": \"1.0\"}",
         HEED_EPARSE, NULL},
        {"XML with another root",
         "<?xml version=\"1.0\"?><html><version>1.0</version></html>",
         HEED_EPARSE, "oEmbed: the XML root is not <oembed>"},
        {"broken XML", "<oembed><version>1.0</version>", HEED_EPARSE,
         "oEmbed: not well-formed XML"},
        {"entities are never expanded",
         "<?xml version=\"1.0\"?><!DOCTYPE oembed [<!ENTITY a "
         "\"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">]>"
         "<oembed><version>1.0</version><type>link</type>"
         "<title>x&b;y</title></oembed>",
         HEED_OK, "format=xml\ntype=link\nversion=1.0\ntitle=xy\n"},
        {"plain text", "type=video", HEED_EPARSE,
         "oEmbed: neither JSON nor XML"},
        {"empty", "", HEED_EPARSE, "oEmbed: neither JSON nor XML"},
};

static void test_oembed_cases(void **state)
{
	(void)state;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(cases); i++) {
		const struct oembed_case *c = &cases[i];
		struct heed_oembed *o = NULL;
		struct heed_diag diag = {0};
		heed_status rc =
		        parse(c->body, 0, heed_test_allocator(), &o, &diag);
		if (rc != c->rc)
			fail_msg("%s: %s, not %s (%s)", c->name,
			         heed_status_name(rc), heed_status_name(c->rc),
			         diag.message);
		if (rc == HEED_OK) {
			struct heed_buf b;
			heed__buf_init(&b, heed_allocator_default(), 1 << 16);
			render(&b, o);
			if (strcmp(heed__buf_str(&b), c->want) != 0)
				fail_msg("%s: got\n%swant\n%s", c->name,
				         heed__buf_str(&b), c->want);
			heed__buf_free(&b);
		} else {
			assert_null(o);
			if (c->want && strcmp(diag.message, c->want) != 0)
				fail_msg("%s: said \"%s\", not \"%s\"", c->name,
				         diag.message, c->want);
		}
		heed_oembed_free(o);
	}
}

/* Strings past their bound are skipped, the answer is still read; an
 * answer past HEED_OEMBED_MAX_BYTES is refused whole. */
static void test_oembed_huge(void **state)
{
	size_t big = 100000;
	char *body = malloc(HEED_OEMBED_MAX_BYTES + 64);
	struct heed_oembed *o = NULL;
	size_t n;
	(void)state;

	assert_non_null(body);
	n = (size_t)sprintf(body, "{\"type\":\"video\",\"version\":\"1.0\","
	                          "\"title\":\"");
	memset(body + n, 'x', big);
	n += big;
	n += (size_t)sprintf(body + n, "\",\"author_url\":\"/");
	memset(body + n, 'y', 9000);
	n += 9000;
	n += (size_t)sprintf(body + n, "\",\"provider_name\":\"P\"}");
	assert_int_equal(parse(body, n, heed_test_allocator(), &o, NULL),
	                 HEED_OK);
	assert_null(o->title);
	assert_null(o->author_url);
	assert_string_equal(o->provider_name, "P");
	assert_int_equal(o->skipped, 2);
	heed_oembed_free(o);

	memset(body, ' ', HEED_OEMBED_MAX_BYTES + 1);
	body[0] = '{';
	assert_int_equal(parse(body, HEED_OEMBED_MAX_BYTES + 1,
	                       heed_test_allocator(), &o, NULL),
	                 HEED_ETOOBIG);
	assert_null(o);
	free(body);
}

static void test_oembed_bad_url(void **state)
{
	struct heed_extract_input in = {
	        .body = "{}", .body_len = 2, .url = "ftp://x.example/"};
	struct heed_oembed *o = NULL;
	(void)state;

	assert_int_equal(
	        heed_extract_oembed(&o, &in, heed_test_allocator(), NULL),
	        HEED_EINVAL);
	assert_null(o);
	in.url = NULL;
	assert_int_equal(heed_extract_oembed(&o, &in, NULL, NULL), HEED_EINVAL);
	heed_oembed_free(NULL);
}

static void test_oembed_oom(void **state)
{
	(void)state;
	for (size_t i = 0; i < 2; i++)
		for (unsigned long n = 0;; n++) {
			struct heed_test_fail fail = {.fail_at = n};
			struct heed_oembed *o = NULL;
			heed_status rc = parse(
			        cases[i].body, 0,
			        heed_test_failing_allocator(&fail), &o, NULL);
			heed_oembed_free(o);
			if (rc == HEED_OK)
				break;
			assert_int_equal(rc, HEED_ENOMEM);
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_oembed_cases),
	        cmocka_unit_test(test_oembed_huge),
	        cmocka_unit_test(test_oembed_bad_url),
	        cmocka_unit_test(test_oembed_oom),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
