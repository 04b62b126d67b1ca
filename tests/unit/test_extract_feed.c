/*
 * Unit tests for feeds and sitemaps (src/extract/feed.c): RSS 2.0, RSS 1.0,
 * Atom, JSON Feed 1 and 1.1, urlset with the video and news extensions,
 * sitemapindex, plain text, gzip, and the limits (50,000 URLs, 10,000
 * feed entries, 50 MiB inflated, index depth).
 * Entries are rendered one per line as "url|title|published|updated|
 * views|duration|tags|extra" and compared whole.
 */
#include <zlib.h>

#include "heed_test.h"
#include "test_data.h"

#include "common/common-int.h"
#include "heed/extract.h"

static const char *s(const char *v)
{
	return v ? v : "";
}

static void render(struct heed_buf *b, const heed_feed *f)
{
	heed__buf_addf(b, "%s|%s|skipped=%u%s%s%s\n",
	               heed_feed_kind_name(heed_feed_kind_get(f)),
	               s(heed_feed_title(f)), heed_feed_skipped(f),
	               heed_feed_truncated(f) ? "|truncated" : "",
	               heed_feed_next(f) ? "|next=" : "", s(heed_feed_next(f)));
	for (size_t i = 0; i < heed_feed_entry_count(f); i++) {
		const struct heed_feed_entry *e = heed_feed_entry(f, i);
		heed__buf_addf(b, "%s|%s|%s|%s|%lld|%lld|", e->url, s(e->title),
		               s(e->published), s(e->updated),
		               (long long)e->views, (long long)e->duration_s);
		for (size_t t = 0; t < e->tag_count; t++)
			heed__buf_addf(b, "%s%s", t ? "," : "", e->tags[t]);
		heed__buf_addf(b, "|%s|%s|%s|%s\n", s(e->description),
		               s(e->author), s(e->thumbnail),
		               s(e->news_publication));
	}
}

struct feed_case {
	const char *name, *file, *text; /* file, else inline text */
	heed_status rc;
	const char *want;
};

static const struct feed_case cases[] = {
        {"RSS 2.0: CDATA, HTML stripped, guid, RFC 822 and 850 dates",
         "rss2.xml", NULL, HEED_OK,
         "rss2|ClipHub latest|skipped=1\n"
         "https://cliphub.example/v/123|Sunset & sea|2024-03-05T09:00:00Z||"
         "-1|-1|nature,sunset|Four hours of sunset|Ana Lopez|"
         "https://cdn.cliphub.example/t/123.jpg|\n"
         "https://cliphub.example/v/124|No link, permalink guid|"
         "2024-03-06T08:49:37Z||-1|-1|||||\n"},
        {"Atom: alternate link, author name, category terms", "atom.xml", NULL,
         HEED_OK,
         "atom|Example Blog|skipped=0\n"
         "https://blog.example/2024/03/post|Atom post|2024-03-01T12:00:00Z|"
         "2024-03-02T17:00:00Z|-1|-1|c,crawling|Short summary|Bo Chen||\n"},
        {"RSS 1.0: rdf:about and Dublin Core", "rss1.xml", NULL, HEED_OK,
         "rss1|Old site|skipped=0\n"
         "https://old.example/a|RSS one item|2003-12-13T18:30:02Z||-1|-1|"
         "history|desc|||\n"},
        {"sitemap with video and news extensions", "sitemap-video.xml", NULL,
         HEED_OK,
         "sitemap||skipped=1\n"
         "https://cliphub.example/v/123|Sunset timelapse|"
         "2024-03-05T09:00:00Z|2024-03-06|12345|181|sunset,timelapse|"
         "Four hours of sunset.||https://cdn.cliphub.example/t/123.jpg|\n"
         "https://cliphub.example/news/1|Big news|2024-03-07||-1|-1|"
         "crawlers,robots||||ClipHub News\n"},
        {"gzip sitemap inflates to the same entries", "sitemap-video.xml.gz",
         NULL, HEED_OK,
         "sitemap||skipped=1\n"
         "https://cliphub.example/v/123|Sunset timelapse|"
         "2024-03-05T09:00:00Z|2024-03-06|12345|181|sunset,timelapse|"
         "Four hours of sunset.||https://cdn.cliphub.example/t/123.jpg|\n"
         "https://cliphub.example/news/1|Big news|2024-03-07||-1|-1|"
         "crawlers,robots||||ClipHub News\n"},
        {"sitemap index keeps lastmod", "sitemap-index.xml", NULL, HEED_OK,
         "sitemapindex||skipped=0\n"
         "https://cliphub.example/sitemap-1.xml.gz|||2024-03-01T00:00:00Z|"
         "-1|-1|||||\n"
         "https://cliphub.example/sitemap-2.xml||||-1|-1|||||\n"},
        {"text sitemap: absolute URLs only", "sitemap.txt", NULL, HEED_OK,
         "text||skipped=1\n"
         "https://cliphub.example/a||||-1|-1|||||\n"
         "https://cliphub.example/b||||-1|-1|||||\n"},
        {"undeclared video prefix still read", NULL,
         "<urlset><url><loc>https://a.example/v</loc><video:video>"
         "<video:title>T</video:title><video:view_count>7</video:view_count>"
         "</video:video></url></urlset>",
         HEED_OK, "sitemap||skipped=0\nhttps://a.example/v|T|||7|-1|||||\n"},
        {"media links and unknown prefixes skipped", NULL,
         "<rss><channel><item><link>https://a.example/ep1.mp3</link></item>"
         "<item><link>https://a.example/ep2</link></item></channel></rss>",
         HEED_OK, "rss2||skipped=1\nhttps://a.example/ep2||||-1|-1|||||\n"},
        {"image:loc with an undeclared prefix is not the loc", NULL,
         "<urlset><url><image:image><image:loc>https://a.example/i.jpg"
         "</image:loc></image:image><loc>https://a.example/p</loc></url>"
         "</urlset>",
         HEED_OK, "sitemap||skipped=0\nhttps://a.example/p||||-1|-1|||||\n"},
        {"entity bomb is not expanded", NULL,
         "<?xml version=\"1.0\"?><!DOCTYPE r [<!ENTITY a "
         "\"aaaaaaaaaaaaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;\">"
         "<!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;\">]><rss><channel><item>"
         "<title>&c;&c;</title><link>https://a.example/x</link></item>"
         "</channel></rss>",
         HEED_OK, "rss2||skipped=0\nhttps://a.example/x||||-1|-1|||||\n"},
        {"external entity never loaded", NULL,
         "<?xml version=\"1.0\"?><!DOCTYPE r [<!ENTITY x SYSTEM "
         "\"file:///etc/passwd\">]><urlset><url><loc>https://a.example/&x;"
         "</loc></url></urlset>",
         HEED_OK, "sitemap||skipped=0\nhttps://a.example/||||-1|-1|||||\n"},
        {"invalid UTF-8 in a feed is replaced, not fatal", NULL,
         "<rss><channel><item><title>caf\xC3 ok</title>"
         "<link>https://a.example/c</link></item></channel></rss>",
         HEED_OK,
         "rss2||skipped=0\nhttps://a.example/c|caf\xEF\xBF\xBD ok|||-1|-1|"
         "||||\n"},
        {"declared ISO-8859-1 converted by heed, not libxml2", NULL,
         "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><rss><channel>"
         "<title>Caf\xE9</title><item><link>https://a.example/x</link>"
         "<title>\x93q\x94 \xD9"
         "dc=</title></item></channel></rss>",
         HEED_OK,
         "rss2|Caf\xC3\xA9|skipped=0\nhttps://a.example/x|"
         "\xE2\x80\x9Cq\xE2\x80\x9D \xC3\x99"
         "dc=|||-1|-1|||||\n"},
        {"JSON Feed 1.1: relative URLs, fractions kept, authors, tags, "
         "image; bad items skipped",
         NULL,
         "{\"version\":\"https://jsonfeed.org/version/1.1\","
         "\"title\":\" ClipHub JSON \",\"next_url\":\"/feed.json?p=2\","
         "\"authors\":[{\"name\":\"Desk\"}],\"items\":["
         "{\"id\":\"1\",\"url\":\"/v/1\","
         "\"external_url\":\"https://other.example/x\",\"title\":\"First\","
         "\"summary\":\"Short\",\"content_text\":\"Long text\","
         "\"date_published\":\"2024-03-05T09:00:00.123+01:00\","
         "\"date_modified\":\"2024-03-06T10:00:00Z\","
         "\"tags\":[\"Nature\",\"sunset\",\"nature\",3],"
         "\"authors\":[{\"name\":\"By Ana Lopez\"},{\"name\":\"Bo Chen\"},"
         "{\"url\":\"https://x.example/\"},7],"
         "\"image\":\"https://cdn.cliphub.example/1.jpg\"},"
         "{\"id\":\"https://cliphub.example/v/2\","
         "\"content_html\":\"<p>Hello <b>world</b></p>\","
         "\"banner_image\":\"/b/2.png\"},"
         "{\"id\":\"3\",\"url\":\"javascript:alert(1)\"},"
         "{\"id\":\"4\",\"url\":\"ftp://cliphub.example/x\"},"
         "{\"id\":\"5\",\"url\":\"https://cliphub.example/ep5.mp3\"},"
         "{\"id\":\"not-a-url\"},\"not an object\",null,"
         "{\"id\":8,\"url\":\"https://cliphub.example/v/8\",\"title\":8,"
         "\"date_published\":\"not a date\",\"tags\":\"x\","
         "\"summary\":[],\"image\":\"data:image/png;base64,AA\"}]}",
         HEED_OK,
         "json|ClipHub JSON|skipped=6|next=https://cliphub.example/"
         "feed.json?p=2\n"
         "https://cliphub.example/v/1|First|2024-03-05T08:00:00.123Z|"
         "2024-03-06T10:00:00Z|-1|-1|nature,sunset|Short|Ana Lopez; Bo Chen|"
         "https://cdn.cliphub.example/1.jpg|\n"
         "https://cliphub.example/v/2||||-1|-1||Hello world|Desk|"
         "https://cliphub.example/b/2.png|\n"
         "https://cliphub.example/v/8||||-1|-1|||Desk||\n"},
        {"JSON Feed 1: author object, http version, BOM, content_text", NULL,
         "\xEF\xBB\xBF \n{\"version\":\"http://jsonfeed.org/version/1\","
         "\"items\":[{\"id\":\"a\",\"url\":\"https://a.example/a\","
         "\"content_text\":\"Plain text\",\"author\":{\"name\":\"Old "
         "Style\"},\"date_modified\":\"2017-05-17T08:02:12-07:00\"}]}",
         HEED_OK,
         "json||skipped=0\n"
         "https://a.example/a|||2017-05-17T15:02:12Z|-1|-1||Plain text|"
         "Old Style||\n"},
        {"JSON Feed: items not an array", NULL,
         "{\"version\":\"https://jsonfeed.org/version/1.1\",\"title\":\"T\","
         "\"items\":{\"url\":\"https://a.example/a\"}}",
         HEED_OK, "json|T|skipped=0\n"},
        {"JSON Feed: invalid UTF-8 replaced", NULL,
         "{\"version\":\"https://jsonfeed.org/version/1\",\"items\":[{"
         "\"url\":\"https://a.example/c\",\"title\":\"caf\xC3 ok\"}]}",
         HEED_OK,
         "json||skipped=0\nhttps://a.example/c|caf\xEF\xBF\xBD ok|||-1|-1|"
         "||||\n"},
        {"JSON without a version is no feed", NULL,
         "{\"items\":[{\"url\":\"https://a.example/a\"}]}", HEED_EPARSE, NULL},
        {"JSON with another version is no feed", NULL,
         "{\"version\":\"2.0\",\"items\":[]}", HEED_EPARSE, NULL},
        {"JSON with a version of the wrong type is no feed", NULL,
         "{\"version\":1.1,\"items\":[]}", HEED_EPARSE, NULL},
        {"broken JSON is no feed", NULL,
         "{\"version\":\"https://jsonfeed.org/version/1.1\",\"items\":[",
         HEED_EPARSE, NULL},
        {"HTML is not a feed", NULL, "<html><title>x</title></html>",
         HEED_EPARSE, NULL},
        {"empty body is an empty text sitemap", NULL, "", HEED_OK,
         "text||skipped=0\n"},
};

static heed_status parse(const char *body, size_t len, unsigned depth,
                         const struct heed_allocator *a, heed_feed **f)
{
	struct heed_extract_input in = {0};

	in.body = body;
	in.body_len = len;
	in.url = "https://cliphub.example/feed";
	in.sitemap_depth = depth;
	return heed_extract_feed(f, &in, a, NULL);
}

static void test_feed_cases(void **state)
{
	(void)state;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(cases); i++) {
		const struct feed_case *c = &cases[i];
		size_t len = c->text ? strlen(c->text) : 0;
		char *body = c->file ? read_data(c->file, &len) : NULL;
		heed_feed *f = NULL;
		struct heed_buf b;
		heed_status rc = parse(body ? body : c->text, len, 0,
		                       heed_test_allocator(), &f);
		free(body);
		if (rc != c->rc)
			fail_msg("%s: got %s", c->name, heed_status_name(rc));
		if (rc != HEED_OK) {
			assert_null(f);
			continue;
		}
		heed__buf_init(&b, heed_allocator_default(), 1 << 20);
		render(&b, f);
		if (strcmp(heed__buf_str(&b), c->want) != 0)
			fail_msg("%s: got\n%s\nwant\n%s", c->name,
			         heed__buf_str(&b), c->want);
		heed__buf_free(&b);
		heed_feed_free(f);
	}
}

/* Compresses len bytes of s with gzip framing into a malloc'd buffer. */
static char *gzip(const char *s, size_t len, size_t *out_len)
{
	z_stream z = {0};
	size_t cap = compressBound((uLong)len) + 64;
	char *out = malloc(cap);

	assert_non_null(out);
	assert_int_equal(
	        deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY),
	        Z_OK);
	z.next_in = (Bytef *)s;
	z.avail_in = (uInt)len;
	z.next_out = (Bytef *)out;
	z.avail_out = (uInt)cap;
	assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
	*out_len = z.total_out;
	deflateEnd(&z);
	return out;
}

/* b's document parses, cut after kept entries, the last one last. */
static void assert_cut(const struct heed_buf *b, size_t kept, const char *last)
{
	heed_feed *f = NULL;

	assert_int_equal(parse(b->data, b->len, 0, NULL, &f), HEED_OK);
	assert_int_equal(heed_feed_entry_count(f), kept);
	assert_true(heed_feed_truncated(f));
	assert_string_equal(heed_feed_entry(f, kept - 1)->url, last);
	heed_feed_free(f);
}

/* 60,000 URLs: 50,000 kept, marked truncated. */
static void test_feed_url_limit(void **state)
{
	struct heed_buf b;
	(void)state;

	heed__buf_init(&b, heed_allocator_default(), 64 << 20);
	heed__buf_addf(&b, "<urlset>");
	for (int i = 0; i < 60000; i++)
		heed__buf_addf(&b, "<url><loc>https://a.example/%d</loc></url>",
		               i);
	heed__buf_addf(&b, "</urlset>");
	assert_cut(&b, HEED_SITEMAP_MAX_URLS, "https://a.example/49999");
	heed__buf_free(&b);
}

/* A gzip bomb: 80 MiB of zeros after a sitemap start inflates to at most
 * HEED_SITEMAP_MAX_BYTES, keeps what came before and says truncated. */
static void test_feed_gzip_bomb(void **state)
{
	size_t n = 80u << 20, zlen;
	char *plain = calloc(1, n), *z;
	const char *head = "<urlset><url><loc>https://a.example/first</loc>"
	                   "</url><url><loc>";
	heed_feed *f = NULL;
	(void)state;

	assert_non_null(plain);
	memcpy(plain, head, strlen(head));
	memset(plain + strlen(head), ' ', n - strlen(head));
	z = gzip(plain, n, &zlen);
	free(plain);
	assert_true(zlen < (1u << 20));
	assert_int_equal(parse(z, zlen, 0, NULL, &f), HEED_OK);
	assert_true(heed_feed_truncated(f));
	assert_int_equal(heed_feed_entry_count(f), 1);
	heed_feed_free(f);
	free(z);
}

/* A JSON Feed without "version" is one only when its Content-Type names
 * the format; application/json says nothing about it. */
static void test_feed_json_typed(void **state)
{
	static const char body[] =
	        "{\"items\":[{\"url\":\"https://a.example/a\"}]}";
	struct heed_header h = {"content-type",
	                        "application/feed+json; charset=utf-8"};
	struct heed_extract_input in = {0};
	heed_feed *f = NULL;
	(void)state;

	in.body = body;
	in.body_len = strlen(body);
	in.url = "https://a.example/feed.json";
	in.headers = &h;
	in.header_count = 1;
	assert_int_equal(
	        heed_extract_feed(&f, &in, heed_test_allocator(), NULL),
	        HEED_OK);
	assert_int_equal(heed_feed_kind_get(f), HEED_FEED_JSON);
	assert_int_equal(heed_feed_entry_count(f), 1);
	heed_feed_free(f);
	in.content_type = "application/json";
	assert_int_equal(
	        heed_extract_feed(&f, &in, heed_test_allocator(), NULL),
	        HEED_EPARSE);
	assert_null(f);
}

/* Fills b with a JSON Feed: open, unit n times, then end. */
static void json_repeat(struct heed_buf *b, const char *open, const char *unit,
                        int n, const char *end)
{
	heed__buf_reset(b);
	heed__buf_addf(b, "{\"version\":\"https://jsonfeed.org/version/1\",%s",
	               open);
	for (int i = 0; i < n; i++)
		assert_int_equal(heed__buf_add(b, unit, strlen(unit)), HEED_OK);
	heed__buf_addf(b, "%s", end);
}

static void assert_no_feed(const struct heed_buf *b)
{
	heed_feed *f = NULL;

	assert_int_equal(parse(b->data, b->len, 0, NULL, &f), HEED_EPARSE);
	assert_null(f);
}

/* 12,000 items: HEED_FEED_MAX_ENTRIES kept, marked truncated; 100,000
 * items that are no objects are each skipped; a million values, 16 MiB,
 * or nesting past json-c's depth cap, is no feed. */
static void test_feed_json_limits(void **state)
{
	struct heed_buf b;
	heed_feed *f = NULL;
	(void)state;

	static char kib[1025];

	heed__buf_init(&b, heed_allocator_default(), 64 << 20);
	heed__buf_addf(&b, "{\"version\":\"https://jsonfeed.org/version/1.1\","
	                   "\"items\":[");
	for (int i = 0; i < 12000; i++)
		heed__buf_addf(&b, "%s{\"id\":\"%d\",\"url\":\"/p/%d\"}",
		               i ? "," : "", i, i);
	heed__buf_addf(&b, "]}");
	assert_cut(&b, HEED_FEED_MAX_ENTRIES, "https://cliphub.example/p/9999");

	json_repeat(&b, "\"items\":[0", ",0", 99999, "]}");
	assert_int_equal(parse(b.data, b.len, 0, NULL, &f), HEED_OK);
	assert_int_equal(heed_feed_entry_count(f), 0);
	assert_int_equal(heed_feed_skipped(f), 100000);
	assert_false(heed_feed_truncated(f));
	heed_feed_free(f);

	/* Past a million values, or 16 MiB however few the values, json-c
	 * is not asked: no feed. */
	json_repeat(&b, "\"items\":[0", ",0", 1000000, "]}");
	assert_no_feed(&b);
	memset(kib, '0', sizeof(kib) - 1);
	json_repeat(&b, "\"title\":\"", kib, 17 * 1024, "\",\"items\":[]}");
	assert_no_feed(&b);
	json_repeat(&b, "\"items\":", "[", 1000, "");
	assert_no_feed(&b);
	heed__buf_free(&b);
}

static void test_feed_index_depth(void **state)
{
	static const char index[] = "<sitemapindex><sitemap><loc>https://"
	                            "a.example/s.xml</loc></sitemap>"
	                            "</sitemapindex>";
	heed_feed *f = NULL;
	(void)state;

	assert_int_equal(parse(index, strlen(index), HEED_SITEMAP_MAX_DEPTH - 1,
	                       heed_test_allocator(), &f),
	                 HEED_OK);
	heed_feed_free(f);
	assert_int_equal(parse(index, strlen(index), HEED_SITEMAP_MAX_DEPTH,
	                       heed_test_allocator(), &f),
	                 HEED_EDENIED);
	assert_null(f);
}

/* Every allocation failure gives HEED_ENOMEM, until none fails. */
static void parse_failing(const char *body, size_t len)
{
	for (unsigned long n = 0;; n++) {
		struct heed_test_fail fail = {.fail_at = n};
		heed_feed *f = NULL;
		heed_status rc = parse(body, len, 0,
		                       heed_test_failing_allocator(&fail), &f);
		heed_feed_free(f);
		if (rc == HEED_OK)
			break;
		assert_int_equal(rc, HEED_ENOMEM);
	}
}

static void test_feed_oom(void **state)
{
	size_t len;
	char *body = read_data("sitemap-video.xml.gz", &len);
	const char *json = NULL;
	(void)state;

	parse_failing(body, len);
	free(body);
	/* The JSON Feed 1.1 case, read again under failing allocations. */
	for (size_t i = 0; i < HEED_ARRAY_SIZE(cases); i++)
		if (strncmp(cases[i].name, "JSON Feed 1.1", 13) == 0)
			json = cases[i].text;
	assert_non_null(json);
	parse_failing(json, strlen(json));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_feed_cases),
	        cmocka_unit_test(test_feed_url_limit),
	        cmocka_unit_test(test_feed_gzip_bomb),
	        cmocka_unit_test(test_feed_json_typed),
	        cmocka_unit_test(test_feed_json_limits),
	        cmocka_unit_test(test_feed_index_depth),
	        cmocka_unit_test(test_feed_oom),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
