/*
 * Unit tests of the JSON API of `heed serve` (src/serve/api.c, openapi.c)
 * and of the record writer it shares with `heed export` (record.c,
 * heed/record.h), over a real store: hostile titles, invalid UTF-8,
 * snippets the site limited or withheld, hidden pages, sites, IRC
 * networks. Every answer is parsed by json-c: its shape, the names it
 * shares with the export, cursors that walk every row exactly once, the
 * 400s and 404s.
 */
#include "heed_test.h"

#include <json-c/json.h>

#include "heed/record.h"
#include "serve_fixture.h"

#define MANY 25

static const char refused[] =
        "{\"robots_txt\":{\"rules\":true},\"acap\":{\"present\":"
        "{\"permitted\":false,\"line\":2}},\"meta_robots\":{\"noarchive\":"
        "false,\"nosnippet\":false,\"nofollow\":false}}";

/* Record ids, in the order put_pages writes them. */
enum {
	ID_HOSTILE = 1,
	ID_LIMIT,
	ID_QUIET,
	ID_UTF8,
	ID_HIDDEN,
	ID_GONE,
	ID_MANY
};

static struct serve_fixture fx;

static void put(const char *url, const char *host, const char *title,
                const char *perm, const char *record, int64_t views,
                int64_t fetched, int status)
{
	struct heed_stored_page p = serve_fixture_page(url, host, title, perm,
	                                               record, views, fetched);

	p.status = status;
	p.checked_at = fetched + 60;
	p.etag = "\"e1\"";
	assert_int_equal(heed_store_page_put(fx.store, &p), HEED_OK);
}

static void put_pages(void)
{
	char url[64], rec[256];

	put("https://hostile.example/a", "hostile.example", HOSTILE1, allow_all,
	    "{\"title\":{\"value\":\"" HOSTILE1 "\",\"source\":\"" HOSTILE2_J
	    "\"},\"description\":{\"value\":\"" HOSTILE2_J " and 'q'\","
	    "\"source\":\"meta\"},\"language\":{\"value\":\"en\",\"source\":"
	    "\"html\"},\"tags\":[{\"value\":\"" HOSTILE1 "\",\"source\":"
	    "\"meta\"},{\"value\":\"a/b c\",\"source\":\"meta\"}]}",
	    5, NOW - DAY, 200);
	put("https://limits.example/b", "limits.example", "Limited page",
	    snippet20,
	    "{\"description\":{\"value\":\"Twenty chars exactly then more "
	    "words follow\",\"source\":\"meta\"},\"thumbnail\":{\"value\":"
	    "\"https://limits.example/t.png\",\"source\":\"og\"}}",
	    -1, NOW - 2 * DAY, 200);
	put("https://limits.example/c", "limits.example", "Quiet page",
	    nosnippet,
	    "{\"description\":{\"value\":\"never shown text\",\"source\":"
	    "\"meta\"}}",
	    3, NOW - 3 * DAY, 200);
	put("https://evil.example/u", "evil.example", "bad \xff\xfe utf8 \x01",
	    allow_all, "{\"description\":{\"value\":\"x\",\"source\":\"m\"}}",
	    1, NOW - 4 * DAY, 200);
	put("https://hidden.example/h", "hidden.example", "Hidden page",
	    refused, "{}", 9, NOW - DAY, 200);
	put("https://gone.example/g", "gone.example", "Gone page", allow_all,
	    "{}", 9, NOW - DAY, 404);
	for (int i = 0; i < MANY; i++) {
		snprintf(url, sizeof(url), "https://many.example/p%02d", i);
		snprintf(rec, sizeof(rec),
		         "{\"description\":{\"value\":\"page %d of many\","
		         "\"source\":\"meta\"},\"tags\":[{\"value\":\"common\","
		         "\"source\":\"meta\"},{\"value\":\"t%02d\",\"source\":"
		         "\"meta\"}]}",
		         i, i);
		/* Some share a fetch time and a view count: the cursor must
		 * still resume exactly after the last row seen. */
		put(url, "many.example", url, allow_all, rec, 100 + i / 3,
		    NOW - 5 * DAY - i / 4, 200);
	}
}

static int setup(void **state)
{
	heed_store_irc *w;

	(void)state;
	serve_fixture_open(&fx, "/tmp/heed-serve-api-XXXXXX");
	put_pages();
	serve_fixture_site(fx.store, "https://many.example", "many.example",
	                   "https://many.example/robots.txt", false);
	/* another host key's origin */
	serve_fixture_site(fx.store, "http://many.example:8080", "many.example",
	                   "https://many.example/robots.txt", false);
	assert_int_equal(heed_store_irc_new(&w, fx.store), HEED_OK);
	serve_fixture_network(w, "irc.example:6667", HEED_IRC_CRAWLER_ALLOW);
	serve_fixture_network(w, "deny.example:6667", HEED_IRC_CRAWLER_DENY);
	assert_int_equal(heed_store_irc_flush(w), HEED_OK);
	heed_store_irc_free(w);
	serve_fixture_context(&fx);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	serve_fixture_close(&fx);
	return 0;
}

/* ---- requests ---- */

/* The paths the OpenAPI document must list (docs/serve.md, "Routes"). */
static const char *const api_paths[] = {
        "/api/v1/",           "/api/v1/search",       "/api/v1/records/{id}",
        "/api/v1/sites",      "/api/v1/sites/{host}", "/api/v1/tags",
        "/api/v1/tags/{tag}", "/api/v1/irc",          "/api/v1/irc/{network}",
        "/api/v1/bots",       "/api/v1/openapi.json",
};

struct answer {
	int status;
	json_object *json; /* the parsed body; never NULL */
	char *body;
};

static bool valid_utf8(const unsigned char *s)
{
	while (*s) {
		size_t k = *s < 0x80             ? 1
		           : (*s & 0xE0) == 0xC0 ? 2
		           : (*s & 0xF0) == 0xE0 ? 3
		           : (*s & 0xF8) == 0xF0 ? 4
		                                 : 0;
		if (!k || (k == 2 && *s < 0xC2))
			return false;
		for (size_t i = 1; i < k; i++)
			if ((s[i] & 0xC0) != 0x80)
				return false;
		s += k;
	}
	return true;
}

/* GET route + rest (rest may be NULL) with "a=1&b=2" (no escapes), through
 * the route table as the HTTP shell asks it. */
static void call(const char *route, const char *rest, const char *query,
                 struct answer *a)
{
	struct heed__serve_response resp = {0};
	char path[512];

	snprintf(path, sizeof(path), "%s%s", route, rest ? rest : "");
	serve_fixture_get(&fx, path, query, &resp);
	assert_string_equal(resp.content_type,
	                    "application/json; charset=utf-8");
	assert_int_equal(resp.kind, HEED__ROUTE_API);
	a->status = resp.status;
	a->body = strdup(heed__buf_str(&resp.body));
	heed__buf_free(&resp.body);
	assert_true(valid_utf8((const unsigned char *)a->body));
	a->json = json_tokener_parse(a->body);
	if (!a->json)
		fail_msg("not JSON: %s", a->body);
}

static void answer_free(struct answer *a)
{
	json_object_put(a->json);
	free(a->body);
}

static json_object *at(json_object *o, const char *key)
{
	json_object *v = NULL;

	if (!json_object_object_get_ex(o, key, &v))
		fail_msg("no member %s in %s", key,
		         json_object_to_json_string(o));
	return v;
}

static const char *str_at(json_object *o, const char *key)
{
	json_object *v = at(o, key);

	return v ? json_object_get_string(v) : NULL;
}

static void check_error(struct answer *a, int status)
{
	json_object *e = at(a->json, "error");

	assert_int_equal(a->status, status);
	assert_int_equal(json_object_get_int(at(e, "status")), status);
	assert_true(strlen(str_at(e, "message")) > 0);
}

/* GET, and the answer must be the API's error of that status. */
static void expect_error(const char *route, const char *rest, const char *query,
                         int status)
{
	struct answer a;

	call(route, rest, query, &a);
	check_error(&a, status);
	answer_free(&a);
}

/* ---- records ---- */

struct first_page {
	int64_t id;
	char *json; /* heed_record_json of the page */
};

static int grab(void *ud, const struct heed_search_hit *h)
{
	struct first_page *f = ud;
	size_t len;

	assert_int_equal(heed_record_json(&h->page, 0, 0, NULL, &f->json, &len),
	                 HEED_OK);
	assert_int_equal(strlen(f->json), len);
	return 1;
}

/* An item's members shared with the export are the export's, equal. */
static void test_record_names_equal_export(void **state)
{
	static const char *const shared[] = {"url",
	                                     "final_url",
	                                     "host",
	                                     "status",
	                                     "fetched_at",
	                                     "checked_at",
	                                     "title",
	                                     "views",
	                                     "published",
	                                     "modified",
	                                     "etag",
	                                     "last_modified",
	                                     "source_lastmod",
	                                     "mode",
	                                     "permissions",
	                                     "record"};
	struct first_page f = {ID_HOSTILE, NULL};
	struct answer a;
	json_object *exp;

	(void)state;
	assert_int_equal(
	        heed_store_search_page(fx.store, ID_HOSTILE, NOW, grab, &f),
	        HEED_OK);
	exp = json_tokener_parse(f.json);
	assert_non_null(exp);
	call("/api/v1/records/", "1", NULL, &a);
	assert_int_equal(a.status, 200);
	for (size_t i = 0; i < HEED_ARRAY_SIZE(shared); i++) {
		if (!json_object_equal(at(exp, shared[i]),
		                       at(a.json, shared[i])))
			fail_msg("%s differs: export %s, api %s", shared[i],
			         json_object_to_json_string(at(exp, shared[i])),
			         json_object_to_json_string(
			                 at(a.json, shared[i])));
	}
	assert_string_equal(str_at(a.json, "fetched_at"),
	                    "2025-12-31T00:00:00Z");
	assert_string_equal(str_at(a.json, "title"), HOSTILE1);
	assert_string_equal(str_at(a.json, "description"), HOSTILE2 " and 'q'");
	assert_string_equal(str_at(a.json, "language"), "en");
	assert_int_equal(json_object_get_int64(at(a.json, "id")), ID_HOSTILE);
	assert_int_equal(json_object_array_length(at(a.json, "tags")), 2);
	assert_string_equal(json_object_get_string(json_object_array_get_idx(
	                            at(a.json, "tags"), 0)),
	                    HOSTILE1);
	assert_string_equal(str_at(at(a.json, "links"), "self"),
	                    "/idx/api/v1/records/1");
	assert_string_equal(str_at(at(a.json, "links"), "html"),
	                    "/idx/records/1");
	assert_false(json_object_object_get_ex(a.json, "description_withheld",
	                                       NULL));
	/* The raw text never lets the hostile quote end a string: each
	 * one is escaped. */
	for (const char *s = a.body; (s = strstr(s, "\"><img")); s++)
		assert_true(s > a.body && s[-1] == '\\');
	answer_free(&a);
	json_object_put(exp);
	free(f.json);
}

static void test_record_snippet_limit(void **state)
{
	struct answer a;
	json_object *rec;

	(void)state;
	call("/api/v1/records/", "2", NULL, &a);
	assert_int_equal(a.status, 200);
	assert_string_equal(str_at(a.json, "description"),
	                    "Twenty chars exactly");
	assert_non_null(strstr(str_at(a.json, "description_withheld"), "20"));
	assert_null(at(a.json, "thumbnail"));
	rec = at(a.json, "record");
	assert_false(json_object_object_get_ex(rec, "thumbnail", NULL));
	assert_string_equal(str_at(at(rec, "description"), "value"),
	                    "Twenty chars exactly");
	assert_null(strstr(a.body, "then more"));
	assert_null(strstr(a.body, "t.png"));
	answer_free(&a);
}

static void test_record_nosnippet(void **state)
{
	struct answer a;

	(void)state;
	call("/api/v1/records/", "3", NULL, &a);
	assert_int_equal(a.status, 200);
	assert_null(at(a.json, "description"));
	assert_true(strlen(str_at(a.json, "description_withheld")) > 0);
	assert_false(json_object_object_get_ex(at(a.json, "record"),
	                                       "description", NULL));
	assert_null(strstr(a.body, "never shown"));
	answer_free(&a);
}

static void test_record_invalid_utf8(void **state)
{
	struct answer a;

	(void)state;
	call("/api/v1/records/", "4", NULL, &a);
	assert_int_equal(a.status, 200);
	/* one U+FFFD per bad byte, the control dropped */
	assert_string_equal(str_at(a.json, "title"),
	                    "bad \xEF\xBF\xBD\xEF\xBF\xBD utf8 ");
	answer_free(&a);
}

static void test_record_not_found(void **state)
{
	static const char *const ids[] = {
	        "5",     "6",   "0",
	        "-1",    "+7",  "7x",
	        "99999", "abc", "99999999999999999999999"};
	struct answer a;

	(void)state;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(ids); i++)
		expect_error("/api/v1/records/", ids[i], NULL, 404);
	/* no such API path: a 404 in JSON too */
	expect_error("/api/v1/nothing", NULL, NULL, 404);
	/* a trailing slash names the same record */
	call("/api/v1/records/1/", NULL, NULL, &a);
	assert_int_equal(a.status, 200);
	assert_int_equal(json_object_get_int64(at(a.json, "id")), 1);
	answer_free(&a);
}

/* heed_record_json with and without the permissions applied. */
static int grab_permit(void *ud, const struct heed_search_hit *h)
{
	char **out = ud;
	size_t len;

	assert_int_equal(heed_record_json(&h->page, HEED_RECORD_JSON_PERMIT,
	                                  NOW, heed_test_allocator(), &out[0],
	                                  &len),
	                 HEED_OK);
	assert_int_equal(heed_record_json(&h->page, 0, NOW,
	                                  heed_test_allocator(), &out[1], &len),
	                 HEED_OK);
	return 0;
}

static void test_record_json_permit(void **state)
{
	char *out[2] = {NULL, NULL};

	(void)state;
	assert_int_equal(heed_store_search_page(fx.store, ID_QUIET, NOW,
	                                        grab_permit, out),
	                 HEED_OK);
	assert_null(strstr(out[0], "never shown"));
	assert_non_null(strstr(out[1], "never shown"));
	assert_non_null(strstr(out[0], "\"url\":\"https://limits.example/c\""));
	test_free(out[0]);
	test_free(out[1]);
}

/* A description that is no string, under a length limit, is withheld
 * whole: its length cannot be measured. */
static void test_record_json_limit_not_string(void **state)
{
	struct heed_stored_page p = {0};
	char *text;
	size_t len;

	(void)state;
	p.url = "https://limits.example/array";
	p.host = "limits.example";
	p.status = 200;
	p.views = -1;
	p.fetched_at = p.checked_at = NOW;
	p.source_lastmod = HEED_STORE_NO_DATE;
	p.permissions = snippet20;
	p.record = "{\"description\":{\"value\":[\"a very long text that "
	           "goes past twenty\"],\"source\":\"jsonld\"}}";
	assert_int_equal(heed_record_json(&p, HEED_RECORD_JSON_PERMIT, NOW,
	                                  heed_test_allocator(), &text, &len),
	                 HEED_OK);
	assert_null(strstr(text, "very long"));
	assert_non_null(strstr(text, "\"record\":{}"));
	test_free(text);
	assert_int_equal(heed_record_json(&p, 0, NOW, heed_test_allocator(),
	                                  &text, &len),
	                 HEED_OK);
	assert_non_null(strstr(text, "very long"));
	test_free(text);
}

/* ---- search ---- */

/* Follows a list from route + rest with query, page after page through
 * next_cursor until it is null, and calls fn with every item and the
 * answer that held it. Returns the number of items. */
typedef void item_fn(void *ud, json_object *item, json_object *answer);

static int follow(const char *route, const char *rest, const char *query,
                  item_fn *fn, void *ud)
{
	char q[1024], cursor[256] = "";
	int total = 0;

	for (int pages = 0;; pages++) {
		struct answer a;
		json_object *items, *next;
		assert_true(pages < 100);
		snprintf(q, sizeof(q), "%s%s%s", query,
		         *cursor ? "&cursor=" : "", cursor);
		call(route, rest, q, &a);
		assert_int_equal(a.status, 200);
		items = at(a.json, "items");
		for (size_t i = 0; i < json_object_array_length(items); i++) {
			fn(ud, json_object_array_get_idx(items, i), a.json);
			total++;
		}
		next = at(a.json, "next_cursor");
		if (next) {
			assert_true(strlen(json_object_get_string(next)) <
			            sizeof(cursor));
			snprintf(cursor, sizeof(cursor), "%s",
			         json_object_get_string(next));
		}
		answer_free(&a);
		if (!next)
			return total;
	}
}

struct seen_pages {
	bool seen[ID_MANY + MANY];
	int count; /* the answers' count.value */
};

/* A result of many.example, not seen before, and the count as expected. */
static void see_page(void *ud, json_object *item, json_object *answer)
{
	struct seen_pages *x = ud;
	int64_t id = json_object_get_int64(at(item, "id"));

	assert_true(id >= ID_MANY && id < ID_MANY + MANY);
	assert_false(x->seen[id]);
	x->seen[id] = true;
	assert_int_equal(json_object_get_int(at(at(answer, "count"), "value")),
	                 x->count);
}

/* Walks query's pages; every page of many.example exactly once. */
static void walk(const char *route, const char *rest, const char *query,
                 int expect)
{
	struct seen_pages x = {.count = expect};

	assert_int_equal(follow(route, rest, query, see_page, &x), expect);
}

static void test_search_pagination(void **state)
{
	(void)state;
	walk("/api/v1/search", NULL, "site=many.example&sort=fetched&limit=7",
	     MANY);
	walk("/api/v1/search", NULL, "site=many.example&sort=views&limit=4",
	     MANY);
	/* relevance: bm25 scores tie between pages alike */
	walk("/api/v1/search", NULL, "q=many&limit=4", MANY);
	/* date: every page has the same published date */
	walk("/api/v1/search", NULL, "site=many.example&sort=date&limit=6",
	     MANY);
	walk("/api/v1/tags/", "common", "limit=6", MANY);
	/* the path's tag wins over an argument */
	walk("/api/v1/tags/", "common", "tag=other&limit=10", MANY);
}

static void test_search_shape(void **state)
{
	struct answer a;
	json_object *query;

	(void)state;
	call("/api/v1/search", NULL, "site=many.example&tag=common&limit=3",
	     &a);
	assert_int_equal(a.status, 200);
	assert_int_equal(json_object_array_length(at(a.json, "items")), 3);
	assert_false(
	        json_object_get_boolean(at(at(a.json, "count"), "capped")));
	query = at(a.json, "query");
	assert_string_equal(str_at(query, "site"), "many.example");
	assert_string_equal(str_at(query, "tag"), "common");
	assert_int_equal(json_object_get_int(at(query, "limit")), 3);
	assert_non_null(str_at(query, "sort"));
	answer_free(&a);
	/* hidden and non-2xx pages are in no list */
	call("/api/v1/search", NULL, "limit=100", &a);
	assert_int_equal(a.status, 200);
	assert_null(strstr(a.body, "hidden.example"));
	assert_null(strstr(a.body, "gone.example"));
	assert_int_equal(json_object_array_length(at(a.json, "items")),
	                 MANY + 4);
	answer_free(&a);
}

static void test_search_bad(void **state)
{
	static const char *const bad[] = {"limit=0", "limit=101", "limit=x",
	                                  "sort=sideways", "cursor=nonsense"};
	char longq[400];

	(void)state;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(bad); i++)
		expect_error("/api/v1/search", NULL, bad[i], 400);
	memset(longq, 'a', sizeof(longq) - 1);
	memcpy(longq, "q=", 2);
	longq[sizeof(longq) - 1] = '\0';
	expect_error("/api/v1/search", NULL, longq, 400);
}

/* ---- sites, tags ---- */

struct expected_hosts {
	const char *const *host;
	size_t n, seen;
};

static void see_site(void *ud, json_object *item, json_object *answer)
{
	struct expected_hosts *x = ud;

	assert_int_equal(json_object_array_length(at(answer, "items")), 1);
	assert_true(x->seen < x->n);
	assert_string_equal(str_at(item, "host"), x->host[x->seen++]);
}

static void test_sites(void **state)
{
	static const char *const hosts[] = {"evil.example", "hostile.example",
	                                    "limits.example", "many.example"};
	struct expected_hosts x = {hosts, HEED_ARRAY_SIZE(hosts), 0};

	(void)state;
	follow("/api/v1/sites", NULL, "limit=1", see_site, &x);
	assert_int_equal(x.seen, HEED_ARRAY_SIZE(hosts));
	expect_error("/api/v1/sites", NULL, "limit=500", 400);
}

static void test_site(void **state)
{
	struct answer a;
	json_object *robots, *origin;

	(void)state;
	call("/api/v1/sites/", "many.example", NULL, &a);
	assert_int_equal(a.status, 200);
	assert_int_equal(json_object_get_int(at(a.json, "pages")), MANY);
	robots = at(a.json, "robots");
	/* https://many.example, not http://many.example:8080 */
	assert_int_equal(json_object_array_length(robots), 1);
	origin = json_object_array_get_idx(robots, 0);
	assert_string_equal(str_at(origin, "site"), "https://many.example");
	assert_string_equal(str_at(origin, "detail"), HOSTILE2);
	assert_non_null(str_at(origin, "state"));
	assert_true(json_object_array_length(at(origin, "rules")) >= 1);
	assert_non_null(strstr(str_at(at(a.json, "optout"), "robots_txt"),
	                       "User-agent: heed"));
	assert_int_equal(json_object_array_length(at(a.json, "per_day")), 30);
	assert_true(json_object_is_type(at(a.json, "views"), json_type_array));
	assert_true(json_object_array_length(at(a.json, "top_tags")) >= 1);
	assert_int_equal(json_object_array_length(at(a.json, "recent")), 10);
	answer_free(&a);
	expect_error("/api/v1/sites/", "hidden.example", NULL, 404);
	expect_error("/api/v1/sites/", "nowhere.example", NULL, 404);
	expect_error("/api/v1/sites/", "many.exampl", NULL, 404);
}

static void see_tag(void *ud, json_object *t, json_object *answer)
{
	bool *common = ud;

	(void)answer;
	if (strcmp(str_at(t, "tag"), "common") != 0)
		return;
	assert_false(*common);
	*common = true;
	assert_int_equal(json_object_get_int(at(t, "pages")), MANY);
	assert_string_equal(str_at(at(t, "links"), "self"),
	                    "/idx/api/v1/tags/common");
}

static void test_tags(void **state)
{
	bool common = false;

	(void)state;
	/* common, 25 t%02d, the hostile page's two */
	assert_int_equal(
	        follow("/api/v1/tags", NULL, "limit=5", see_tag, &common),
	        1 + MANY + 2);
	assert_true(common);
	expect_error("/api/v1/tags", NULL, "cursor=-3", 400);
}

/* ---- IRC, bots, home ---- */

static void test_irc(void **state)
{
	struct answer a;
	json_object *items;

	(void)state;
	call("/api/v1/irc", NULL, NULL, &a);
	assert_int_equal(a.status, 200);
	items = at(a.json, "items");
	assert_int_equal(json_object_array_length(items), 1);
	assert_string_equal(
	        str_at(json_object_array_get_idx(items, 0), "network"),
	        "irc.example:6667");
	assert_null(strstr(a.body, "deny.example"));
	assert_null(at(a.json, "next_cursor"));
	answer_free(&a);
	expect_error("/api/v1/irc/", "deny.example:6667", NULL, 404);
	call("/api/v1/irc/", "irc.example:6667", "q=PLAIN", &a);
	assert_int_equal(a.status, 200);
	assert_int_equal(json_object_array_length(at(a.json, "items")), 3);
	assert_int_equal(json_object_get_int(at(at(a.json, "count"), "value")),
	                 3);
	assert_int_equal(json_object_array_length(at(a.json, "servers")), 1);
	assert_string_equal(
	        str_at(json_object_array_get_idx(at(a.json, "servers"), 0),
	               "description"),
	        HOSTILE2);
	answer_free(&a);
	call("/api/v1/irc/", "irc.example:6667", "q=SCRIPT", &a);
	assert_int_equal(json_object_array_length(at(a.json, "items")), 1);
	assert_string_equal(
	        str_at(json_object_array_get_idx(at(a.json, "items"), 0),
	               "topic"),
	        HOSTILE1 " \xEF\xBF\xBD topic");
	answer_free(&a);
}

static void see_channel(void *ud, json_object *item, json_object *answer)
{
	(void)ud;
	(void)item;
	assert_int_equal(json_object_get_int(at(at(answer, "count"), "value")),
	                 4);
}

static void test_irc_channel_cursor(void **state)
{
	(void)state;
	assert_int_equal(follow("/api/v1/irc/", "irc.example:6667", "limit=1",
	                        see_channel, NULL),
	                 4);
}

/* The channels of a list in the order given: names and user counts. */
struct chan_order {
	char name[8][64];
	int64_t users[8];
	int n;
};

static void see_in_order(void *ud, json_object *item, json_object *answer)
{
	struct chan_order *o = ud;
	json_object *u = at(item, "users");

	(void)answer;
	assert_true(o->n < 8);
	snprintf(o->name[o->n], sizeof(o->name[0]), "%s",
	         str_at(item, "channel"));
	o->users[o->n++] = u ? json_object_get_int64(u) : -1;
}

/* Channels by users (the default: largest first, unknown last, ties by
 * name) or by name, paged one at a time through the order's cursors in
 * the same order as all at once; an unknown order or a cursor of another
 * form is a 400. */
static void test_irc_sorted(void **state)
{
	static const char *const sorts[] = {"limit=1", "sort=users&limit=1",
	                                    "sort=name&limit=1"};
	struct chan_order paged[3] = {0};
	struct answer a;

	(void)state;
	for (size_t k = 0; k < 3; k++)
		assert_int_equal(follow("/api/v1/irc/", "irc.example:6667",
		                        sorts[k], see_in_order, &paged[k]),
		                 4);
	for (int i = 1; i < 4; i++) {
		struct chan_order *u = &paged[0], *n = &paged[2];
		assert_true(u->users[i - 1] > u->users[i] ||
		            (u->users[i - 1] == u->users[i] &&
		             strcmp(u->name[i - 1], u->name[i]) < 0));
		assert_true(strcmp(n->name[i - 1], n->name[i]) < 0);
	}
	assert_memory_equal(&paged[0], &paged[1], sizeof(paged[0]));
	/* the orders differ on this network, so each is really applied */
	assert_memory_not_equal(paged[0].name, paged[2].name,
	                        sizeof(paged[0].name));
	call("/api/v1/irc/", "irc.example:6667", "sort=name", &a);
	assert_string_equal(str_at(at(a.json, "query"), "sort"), "name");
	answer_free(&a);
	expect_error("/api/v1/irc/", "irc.example:6667", "sort=topic", 400);
	expect_error("/api/v1/irc/", "irc.example:6667",
	             "sort=users&cursor=%23plain", 400);
	expect_error("/api/v1/irc", NULL, "sort=bogus", 400);
	for (const char *const *o =
	             (const char *const[]){"users", "name", "servers",
	                                   "channels", "visit", NULL};
	     *o; o++) {
		char q[32];
		snprintf(q, sizeof(q), "sort=%s", *o);
		call("/api/v1/irc", NULL, q, &a);
		assert_int_equal(a.status, 200);
		assert_int_equal(json_object_array_length(at(a.json, "items")),
		                 1);
		answer_free(&a);
	}
}

static void test_bots(void **state)
{
	struct answer a;
	json_object *v;

	(void)state;
	call("/api/v1/bots", NULL, NULL, &a);
	assert_int_equal(a.status, 200);
	assert_string_equal(str_at(a.json, "product_token"), "heed");
	assert_true(strncmp(str_at(a.json, "user_agent"), "heed/", 5) == 0);
	assert_non_null(
	        strstr(str_at(a.json, "user_agent"), "ops@example.org"));
	assert_string_equal(str_at(a.json, "contact_email"), "ops@example.org");
	assert_int_equal(
	        json_object_get_int(at(at(a.json, "rate"), "delay_ms")), 1000);
	v = at(a.json, "verify");
	assert_string_equal(json_object_get_string(json_object_array_get_idx(
	                            at(v, "domains"), 0)),
	                    "crawl.example.org");
	assert_true(json_object_array_length(at(v, "steps")) >= 2);
	assert_non_null(
	        strstr(str_at(v, "command"), "--domain crawl.example.org"));
	assert_true(json_object_array_length(at(a.json, "collected")) > 0);
	assert_non_null(str_at(a.json, "page_markdown"));
	answer_free(&a);
}

static void test_home(void **state)
{
	struct answer a;
	json_object *counts;

	(void)state;
	call("/api/v1/", NULL, NULL, &a);
	assert_int_equal(a.status, 200);
	counts = at(a.json, "counts");
	assert_int_equal(json_object_get_int(at(at(counts, "pages"), "value")),
	                 MANY + 4);
	assert_int_equal(json_object_get_int(at(at(counts, "sites"), "value")),
	                 4);
	assert_int_equal(json_object_get_int(at(counts, "irc_networks")), 1);
	assert_int_equal(json_object_array_length(at(a.json, "recent")), 10);
	assert_int_equal(json_object_array_length(at(a.json, "popular")), 10);
	/* most views first */
	assert_int_equal(
	        json_object_get_int(
	                at(json_object_array_get_idx(at(a.json, "popular"), 0),
	                   "views")),
	        100 + (MANY - 1) / 3);
	answer_free(&a);
}

static void test_error_shape(void **state)
{
	struct heed__serve_request req = {0};
	struct heed__serve_response resp = {0};
	json_object *o, *e;

	(void)state;
	req.ctx = &fx.ctx;
	heed__api_error(&req, 400, "bad \"thing\" \xff", &resp);
	assert_int_equal(resp.status, 400);
	assert_string_equal(resp.content_type,
	                    "application/json; charset=utf-8");
	o = json_tokener_parse(heed__buf_str(&resp.body));
	assert_non_null(o);
	e = at(o, "error");
	assert_int_equal(json_object_get_int(at(e, "status")), 400);
	assert_string_equal(str_at(e, "message"), "bad \"thing\" \xEF\xBF\xBD");
	json_object_put(o);
	heed__buf_free(&resp.body);
}

static void test_openapi(void **state)
{
	struct answer a;
	json_object *paths;

	(void)state;
	call("/api/v1/openapi.json", NULL, NULL, &a);
	assert_int_equal(a.status, 200);
	assert_string_equal(str_at(a.json, "openapi"), "3.1.0");
	paths = at(a.json, "paths");
	assert_int_equal(json_object_object_length(paths),
	                 HEED_ARRAY_SIZE(api_paths));
	for (size_t i = 0; i < HEED_ARRAY_SIZE(api_paths); i++) {
		json_object *get = at(at(paths, api_paths[i]), "get");
		assert_non_null(at(at(get, "responses"), "200"));
	}
	/* and the route table answers each of them (a sample for each
	 * {parameter}) with 200 */
	for (size_t i = 0; i < HEED_ARRAY_SIZE(api_paths); i++) {
		static const char *const sample[][2] = {
		        {"{id}", "1"},
		        {"{host}", "many.example"},
		        {"{tag}", "common"},
		        {"{network}", "irc.example:6667"},
		};
		char path[128];
		const char *brace = strchr(api_paths[i], '{');
		struct answer b;
		snprintf(path, sizeof(path), "%s", api_paths[i]);
		for (size_t k = 0; brace && k < HEED_ARRAY_SIZE(sample); k++)
			if (strcmp(brace, sample[k][0]) == 0)
				snprintf(path + (brace - api_paths[i]),
				         sizeof(path) -
				                 (size_t)(brace - api_paths[i]),
				         "%s", sample[k][1]);
		assert_null(strchr(path, '{'));
		call(path, NULL, NULL, &b);
		if (b.status != 200)
			fail_msg("%s: %d %s", path, b.status, b.body);
		answer_free(&b);
	}
	/* every $ref names a part of the document's components */
	int refs = 0;
	for (const char *s = a.body;
	     (s = strstr(s, "\"$ref\": \"#/components/"));) {
		char kind[64], name[64];
		s += strlen("\"$ref\": \"#/components/");
		assert_int_equal(sscanf(s, "%63[^/]/%63[^\"]", kind, name), 2);
		at(at(at(a.json, "components"), kind), name);
		refs++;
	}
	assert_true(refs > 20);
	answer_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_record_names_equal_export),
	        cmocka_unit_test(test_record_snippet_limit),
	        cmocka_unit_test(test_record_nosnippet),
	        cmocka_unit_test(test_record_invalid_utf8),
	        cmocka_unit_test(test_record_not_found),
	        cmocka_unit_test(test_record_json_permit),
	        cmocka_unit_test(test_record_json_limit_not_string),
	        cmocka_unit_test(test_search_pagination),
	        cmocka_unit_test(test_search_shape),
	        cmocka_unit_test(test_search_bad),
	        cmocka_unit_test(test_sites),
	        cmocka_unit_test(test_site),
	        cmocka_unit_test(test_tags),
	        cmocka_unit_test(test_irc),
	        cmocka_unit_test(test_irc_channel_cursor),
	        cmocka_unit_test(test_irc_sorted),
	        cmocka_unit_test(test_bots),
	        cmocka_unit_test(test_home),
	        cmocka_unit_test(test_error_shape),
	        cmocka_unit_test(test_openapi),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
