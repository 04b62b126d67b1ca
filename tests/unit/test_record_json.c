/*
 * Unit tests for heed_extract_record_json (src/extract/record_json.c): the
 * one writer of the record a crawl stores, `heed export` writes and `heed
 * extract` prints. Each case compares the whole text, so a member added,
 * dropped or moved fails here before it reaches a store.
 */
#include "heed_test.h"

#include <json-c/json.h>

#include "heed/extract.h"

/* An empty record as extraction leaves it: nothing found. */
static struct heed_record empty_record(void)
{
	struct heed_record r;

	memset(&r, 0, sizeof(r));
	r.published_s = r.modified_s = r.last_modified_s = HEED_NO_DATE;
	r.duration_s = -1;
	r.views = -1;
	return r;
}

/* r as JSON with the leak-checking allocator; the caller frees it. */
static char *to_json(const struct heed_record *r, size_t links)
{
	const struct heed_allocator *a = heed_test_allocator();
	char *out = (char *)1;
	size_t len = 1;

	assert_int_equal(heed_extract_record_json(r, links, a, &out, &len),
	                 HEED_OK);
	assert_non_null(out);
	assert_int_equal(strlen(out), len);
	return out;
}

static void expect_json(const struct heed_record *r, size_t links,
                        const char *want)
{
	char *got = to_json(r, links);

	assert_string_equal(got, want);
	test_free(got);
}

/* json-c reads the text back, and writes it again byte for byte as `heed
 * export` does (compact, '/' not escaped): what makes `heed extract
 * --record` and the export's "record" the same bytes. */
static void expect_json_c_agrees(const char *text)
{
	json_object *o = json_tokener_parse(text);

	assert_non_null(o);
	assert_string_equal(json_object_to_json_string_ext(
	                            o, JSON_C_TO_STRING_PLAIN |
	                                       JSON_C_TO_STRING_NOSLASHESCAPE),
	                    text);
	json_object_put(o);
}

/* Absent fields, -1 numbers and zero counters are left out; tags, the
 * byte size and the link count are always written. */
static void test_record_json_absent(void **state)
{
	struct heed_record r = empty_record();

	(void)state;
	expect_json(&r, 0, "{\"tags\":[],\"byte_size\":0,\"links\":0}");
}

/* Every member, in the documented order (heed/extract.h). */
static void test_record_json_every_member(void **state)
{
	static const struct heed_field tags[] = {{"knives", HEED_SOURCE_META},
	                                         {"howto", HEED_SOURCE_JSONLD}};
	static const struct heed_field authors[] = {
	        {"Maria Okafor", HEED_SOURCE_JSONLD}};
	struct heed_record r = empty_record();
	char *got;

	(void)state;
	r.title = (struct heed_field){"T", HEED_SOURCE_OG};
	r.description = (struct heed_field){"D", HEED_SOURCE_META};
	r.author = (struct heed_field){"Maria Okafor", HEED_SOURCE_JSONLD};
	r.canonical =
	        (struct heed_field){"https://a.example/p", HEED_SOURCE_LINK};
	r.language = (struct heed_field){"en-GB", HEED_SOURCE_HTML};
	r.published = (struct heed_field){"2024-05-01", HEED_SOURCE_OG};
	r.modified =
	        (struct heed_field){"2024-05-02T10:00:00Z", HEED_SOURCE_JSONLD};
	r.thumbnail = (struct heed_field){"https://a.example/t.jpg",
	                                  HEED_SOURCE_TWITTER};
	r.og_type = (struct heed_field){"video.other", HEED_SOURCE_OG};
	r.schema_type = (struct heed_field){"VideoObject", HEED_SOURCE_JSONLD};
	r.site_name = (struct heed_field){"A", HEED_SOURCE_TITLE};
	r.publisher = (struct heed_field){"A Ltd", HEED_SOURCE_JSONLD};
	r.duration = (struct heed_field){"PT10M4S", HEED_SOURCE_MICRODATA};
	r.charset = (struct heed_field){"utf-8", HEED_SOURCE_HTTP};
	r.duration_s = 604;
	r.views = 9007199254740993; /* 2^53 + 1: no double on the way */
	r.views_source = HEED_SOURCE_JSONLD;
	r.tags = tags;
	r.tag_count = 2;
	r.authors = authors;
	r.author_count = 1;
	r.content_type = "text/html";
	r.last_modified = "2024-05-02T10:00:00Z";
	r.etag = "\"v1\"";
	r.byte_size = 12345;
	r.jsonld_blocks = 2;
	r.jsonld_errors = 1;
	r.truncated = true;
	got = to_json(&r, 7);
	assert_string_equal(
	        got,
	        "{\"title\":{\"value\":\"T\",\"source\":\"og\"},"
	        "\"description\":{\"value\":\"D\",\"source\":\"meta\"},"
	        "\"author\":{\"value\":\"Maria Okafor\",\"source\":\"jsonld\"},"
	        "\"canonical\":{\"value\":\"https://a.example/p\","
	        "\"source\":\"link\"},"
	        "\"language\":{\"value\":\"en-GB\",\"source\":\"html\"},"
	        "\"published\":{\"value\":\"2024-05-01\",\"source\":\"og\"},"
	        "\"modified\":{\"value\":\"2024-05-02T10:00:00Z\","
	        "\"source\":\"jsonld\"},"
	        "\"thumbnail\":{\"value\":\"https://a.example/t.jpg\","
	        "\"source\":\"twitter\"},"
	        "\"og_type\":{\"value\":\"video.other\",\"source\":\"og\"},"
	        "\"schema_type\":{\"value\":\"VideoObject\","
	        "\"source\":\"jsonld\"},"
	        "\"site_name\":{\"value\":\"A\",\"source\":\"title\"},"
	        "\"publisher\":{\"value\":\"A Ltd\",\"source\":\"jsonld\"},"
	        "\"duration\":{\"value\":\"PT10M4S\",\"source\":\"microdata\"},"
	        "\"charset\":{\"value\":\"utf-8\",\"source\":\"http\"},"
	        "\"views\":9007199254740993,\"views_source\":\"jsonld\","
	        "\"duration_s\":604,"
	        "\"authors\":[{\"value\":\"Maria Okafor\","
	        "\"source\":\"jsonld\"}],"
	        "\"tags\":[{\"value\":\"knives\",\"source\":\"meta\"},"
	        "{\"value\":\"howto\",\"source\":\"jsonld\"}],"
	        "\"content_type\":\"text/html\","
	        "\"last_modified\":\"2024-05-02T10:00:00Z\","
	        "\"etag\":\"\\\"v1\\\"\",\"byte_size\":12345,\"links\":7,"
	        "\"jsonld_blocks\":2,\"jsonld_errors\":1,\"truncated\":true}");
	expect_json_c_agrees(got);
	test_free(got);
}

/* Zero views is a count, not an absence. */
static void test_record_json_zero_views(void **state)
{
	struct heed_record r = empty_record();

	(void)state;
	r.views = 0;
	r.views_source = HEED_SOURCE_MICRODATA;
	expect_json(&r, 3,
	            "{\"views\":0,\"views_source\":\"microdata\",\"tags\":[],"
	            "\"byte_size\":0,\"links\":3}");
}

/* Quotes, backslashes and control characters escaped; UTF-8 and '/' as
 * they are; json-c reads back the very value. */
static void test_record_json_escaping(void **state)
{
	static const char title[] =
	        "a \"quoted\" back\\slash\ttab\nline\r\x01\x1f </script> "
	        "\xc3\xa9t\xc3\xa9 \xf0\x9f\x8e\xac";
	struct heed_record r = empty_record();
	json_object *o, *t, *v;
	char *got;

	(void)state;
	r.title = (struct heed_field){title, HEED_SOURCE_TITLE};
	got = to_json(&r, 0);
	assert_string_equal(got,
	                    "{\"title\":{\"value\":\"a \\\"quoted\\\" "
	                    "back\\\\slash\\ttab\\nline\\r\\u0001\\u001f "
	                    "</script> \xc3\xa9t\xc3\xa9 \xf0\x9f\x8e\xac\","
	                    "\"source\":\"title\"},\"tags\":[],"
	                    "\"byte_size\":0,\"links\":0}");
	o = json_tokener_parse(got);
	assert_non_null(o);
	assert_true(json_object_object_get_ex(o, "title", &t));
	assert_true(json_object_object_get_ex(t, "value", &v));
	assert_string_equal(json_object_get_string(v), title);
	json_object_put(o);
	expect_json_c_agrees(got);
	test_free(got);
}

/* Several authors stay several, each with its source, beside the joined
 * "author". */
static void test_record_json_several_authors(void **state)
{
	static const struct heed_field authors[] = {
	        {"Maria Okafor", HEED_SOURCE_LINK},
	        {"Tom Haines", HEED_SOURCE_LINK},
	        {"Ana \"Nita\" Ruiz", HEED_SOURCE_LINK}};
	struct heed_record r = empty_record();

	(void)state;
	r.author = (struct heed_field){
	        "Maria Okafor; Tom Haines; Ana \"Nita\" Ruiz",
	        HEED_SOURCE_LINK};
	r.authors = authors;
	r.author_count = 3;
	expect_json(&r, 0,
	            "{\"author\":{\"value\":\"Maria Okafor; Tom Haines; Ana "
	            "\\\"Nita\\\" Ruiz\",\"source\":\"link\"},"
	            "\"authors\":[{\"value\":\"Maria Okafor\","
	            "\"source\":\"link\"},{\"value\":\"Tom Haines\","
	            "\"source\":\"link\"},{\"value\":\"Ana \\\"Nita\\\" "
	            "Ruiz\",\"source\":\"link\"}],"
	            "\"tags\":[],\"byte_size\":0,\"links\":0}");
}

/* Dates are written as extraction kept them: fractional seconds stay. */
static void test_record_json_fractional_dates(void **state)
{
	struct heed_record r = empty_record();

	(void)state;
	r.published = (struct heed_field){"2024-05-01T10:00:00.250Z",
	                                  HEED_SOURCE_JSONLD};
	r.modified = (struct heed_field){"2024-05-01T10:00:00.123456Z",
	                                 HEED_SOURCE_OG};
	expect_json(&r, 0,
	            "{\"published\":{\"value\":\"2024-05-01T10:00:00.250Z\","
	            "\"source\":\"jsonld\"},"
	            "\"modified\":{\"value\":\"2024-05-01T10:00:00.123456Z\","
	            "\"source\":\"og\"},"
	            "\"tags\":[],\"byte_size\":0,\"links\":0}");
}

/* A page straight from extraction gives the same text as by hand. */
static void test_record_json_from_page(void **state)
{
	static const char html[] = "<html lang=de><title>Eins | Zwei</title>"
	                           "<meta name=keywords content='a, b'>"
	                           "<a href=/x>x</a><a href=/y>y</a></html>";
	const struct heed_extract_input in = {html,
	                                      sizeof(html) - 1,
	                                      "https://a.example/",
	                                      NULL,
	                                      0,
	                                      "text/html",
	                                      NULL,
	                                      0};
	heed_page *p = NULL;
	char *got;

	(void)state;
	assert_int_equal(heed_extract_html(&p, &in, NULL, NULL), HEED_OK);
	got = to_json(heed_page_record(p), heed_page_link_count(p));
	assert_non_null(strstr(got, "\"title\":{\"value\":\"Eins | Zwei\","
	                            "\"source\":\"title\"}"));
	assert_non_null(strstr(got, "\"language\":{\"value\":\"de\","));
	assert_non_null(strstr(got, "\"tags\":[{\"value\":\"a\","
	                            "\"source\":\"meta\"},{\"value\":\"b\","));
	assert_non_null(strstr(got, "\"links\":2}"));
	expect_json_c_agrees(got);
	test_free(got);
	heed_page_free(p);
}

static void test_record_json_null(void **state)
{
	char *out = (char *)1;
	size_t len = 1;

	(void)state;
	assert_int_equal(heed_extract_record_json(NULL, 0, NULL, &out, &len),
	                 HEED_EINVAL);
	assert_null(out);
	assert_int_equal(len, 0);
}

/* Every allocation failing in turn gives HEED_ENOMEM and no text, and
 * leaks nothing (the test allocator counts). */
static void test_record_json_oom(void **state)
{
	static const struct heed_field tags[] = {{"x", HEED_SOURCE_META}};
	struct heed_record r = empty_record();

	(void)state;
	r.title = (struct heed_field){"A title long enough to grow a buffer "
	                              "more than once, we hope, at least",
	                              HEED_SOURCE_OG};
	r.tags = tags;
	r.tag_count = 1;
	for (unsigned long n = 0; n < 64; n++) {
		struct heed_test_fail f = {.fail_at = n};
		char *out = (char *)1;
		size_t len = 1;
		heed_status rc = heed_extract_record_json(
		        &r, 0, heed_test_failing_allocator(&f), &out, &len);
		if (rc == HEED_OK) {
			assert_true(n > 0);
			test_free(out);
			return;
		}
		assert_int_equal(rc, HEED_ENOMEM);
		assert_null(out);
		assert_int_equal(len, 0);
	}
	fail_msg("still failing after 64 allocations");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_record_json_absent),
	        cmocka_unit_test(test_record_json_every_member),
	        cmocka_unit_test(test_record_json_zero_views),
	        cmocka_unit_test(test_record_json_escaping),
	        cmocka_unit_test(test_record_json_several_authors),
	        cmocka_unit_test(test_record_json_fractional_dates),
	        cmocka_unit_test(test_record_json_from_page),
	        cmocka_unit_test(test_record_json_null),
	        cmocka_unit_test(test_record_json_oom),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
