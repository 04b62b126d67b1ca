/*
 * Unit tests of the HTML pages of `heed serve` (src/serve/html*.c, route.c)
 * over a real store: pages whose title, description, tags and URLs are
 * hostile, sites, IRC networks. Each request goes through heed__serve_route
 * as the HTTP shell calls it; each HTML answer is parsed by libxml2's HTML
 * parser and checked for what the Content-Security-Policy and the HTML
 * contract (docs/serve.md) promise: no script, no inline style, no event
 * attribute, no javascript: link, the contract's ids.
 */
#include "heed_test.h"

#include <libxml/HTMLparser.h>
#include <libxml/tree.h>
#include <sqlite3.h>
#include <strings.h>
#include <unistd.h>

#include "serve_fixture.h"
#include "store/grams-int.h"

#define JS "javascript:alert(1)"

static struct serve_fixture fx;

static void put(const char *url, const char *host, const char *title,
                const char *perm, const char *record, int64_t views,
                int64_t fetched)
{
	struct heed_stored_page p = serve_fixture_page(url, host, title, perm,
	                                               record, views, fetched);

	assert_int_equal(heed_store_page_put(fx.store, &p), HEED_OK);
}

static void put_pages(void)
{
	char url[64], rec[4096], links[3000] = ",\"links\":[";
	int i;

	for (i = 0; i < 60; i++)
		snprintf(links + strlen(links), sizeof(links) - strlen(links),
		         "%s\"https://many.example/l%02d\"", i ? "," : "", i);
	strcat(links, "]");

	/* 1: every field hostile */
	put("https://hostile.example/a", "hostile.example", HOSTILE1, allow_all,
	    "{\"title\":{\"value\":\"" HOSTILE1 "\",\"source\":\"" HOSTILE2_J
	    "\"},\"description\":{\"value\":\"" HOSTILE2_J " and 'quotes' "
	    "here\",\"source\":\"meta\"},\"canonical\":{\"value\":\"" JS
	    "\",\"source\":\"link\"},\"thumbnail\":{\"value\":\"" JS
	    "\",\"source\":\"og\"},\"tags\":[{\"value\":\"" HOSTILE1
	    "\",\"source\":\"meta\"},{\"value\":\"a/b c\",\"source\":\"meta"
	    "\"}],\"views\":5}",
	    5, NOW - DAY);
	/* 2: a snippet limit of 20 chars, thumbnail refused */
	put("https://limits.example/b", "limits.example", "Limited page",
	    snippet20,
	    "{\"description\":{\"value\":\"Twenty chars exactly then more "
	    "words follow\",\"source\":\"meta\"},\"thumbnail\":{\"value\":"
	    "\"https://limits.example/t.png\",\"source\":\"og\"}}",
	    -1, NOW - 2 * DAY);
	/* 3: nosnippet */
	put("https://limits.example/c", "limits.example", "Quiet page",
	    nosnippet,
	    "{\"description\":{\"value\":\"never shown text\",\"source\":"
	    "\"meta\"}}",
	    3, NOW - 3 * DAY);
	/* 4: a javascript: URL and invalid UTF-8 in the title */
	put(JS, "evil.example", "bad \xff\xfe utf8 \"q\" 'q'", allow_all,
	    "{\"description\":{\"value\":\"x\",\"source\":\"meta\"}}", 1,
	    NOW - 4 * DAY);
	/* 5..29: a site of 25 pages for pagination; its first holds 60
	 * links */
	for (i = 0; i < 25; i++) {
		snprintf(url, sizeof(url), "https://many.example/p%02d", i);
		snprintf(rec, sizeof(rec),
		         "{\"description\":{\"value\":\"page %d of many\","
		         "\"source\":\"meta\"},\"tags\":[{\"value\":\"common\","
		         "\"source\":\"meta\"}]%s}",
		         i, i ? "" : links);
		put(url, "many.example", url, allow_all, rec, 100 + i,
		    NOW - 5 * DAY - i);
	}
	/* 30: nosnippet over a description that is not a string */
	put("https://limits.example/d", "limits.example", "Odd page", nosnippet,
	    "{\"description\":{\"value\":[\"never shown array\"],"
	    "\"source\":\"meta\"}}",
	    -1, NOW - 6 * DAY);
}

/* More sites than one page of /sites holds (100). */
static void put_small_sites(void)
{
	char url[64], host[32];

	for (int i = 0; i < 101; i++) {
		snprintf(host, sizeof(host), "s%03d.example", i);
		snprintf(url, sizeof(url), "https://%s/", host);
		put(url, host, "small", allow_all, "{}", -1, NOW - 9 * DAY);
	}
}

/* A network with more channels than a page shows (500). */
static void put_big_network(heed_store_irc *w)
{
	struct heed_irc_crawler_pref pref = {HEED_IRC_CRAWLER_ALLOW, 3600, 0};
	int64_t net, vid;
	char name[32];

	assert_int_equal(heed_store_irc_network(w, "big.example:6667",
	                                        NOW - DAY, &net, NULL),
	                 HEED_OK);
	assert_int_equal(heed_store_irc_visit_begin(w, net, "127.0.0.1", 6667,
	                                            false, NOW - DAY, &vid),
	                 HEED_OK);
	for (int i = 0; i < 510; i++) {
		snprintf(name, sizeof(name), "#c%03d", i);
		assert_int_equal(heed_store_irc_channel(w, net, vid, name, 1,
		                                        "t", 1, NOW - DAY),
		                 HEED_OK);
	}
	assert_int_equal(heed_store_irc_visit_end(w, net, vid,
	                                          HEED_IRC_VISIT_COMPLETE, "ok",
	                                          &pref, NOW - DAY + 60, 0),
	                 HEED_OK);
}

static void put_irc(void)
{
	heed_store_irc *w;

	assert_int_equal(heed_store_irc_new(&w, fx.store), HEED_OK);
	serve_fixture_network(w, "irc.example:6667", HEED_IRC_CRAWLER_ALLOW);
	serve_fixture_network(w, "deny.example:6667", HEED_IRC_CRAWLER_DENY);
	put_big_network(w);
	assert_int_equal(heed_store_irc_flush(w), HEED_OK);
	heed_store_irc_free(w);
}

static int setup(void **state)
{
	(void)state;
	serve_fixture_open(&fx, "/tmp/heed-serve-pages-XXXXXX");
	put_pages();
	put_small_sites();
	serve_fixture_site(fx.store, "https://hostile.example",
	                   "hostile.example",
	                   "https://hostile.example/robots.txt", true);
	put_irc();
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

struct answer {
	int status;
	char *body; /* NUL-terminated, freed by answer_free */
	const char *type;
	xmlDocPtr doc; /* HTML answers */
	char location[HEED__SERVE_MAX_LOCATION];
};

/* GET path?query: query as "a=1&b=2" (no escapes: tests spell values). */
static void get(const char *path, const char *query, struct answer *a)
{
	struct heed__serve_response resp = {0};

	serve_fixture_get(&fx, path, query, &resp);
	a->status = resp.status;
	a->type = resp.content_type;
	memcpy(a->location, resp.location, sizeof(a->location));
	a->body = strdup(heed__buf_str(&resp.body));
	heed__buf_free(&resp.body);
	a->doc = NULL;
	if (a->type && strncmp(a->type, "text/html", 9) == 0)
		a->doc = htmlReadMemory(
		        a->body, (int)strlen(a->body), NULL, "utf-8",
		        HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING |
		                HTML_PARSE_NONET);
}

static void answer_free(struct answer *a)
{
	free(a->body);
	if (a->doc)
		xmlFreeDoc(a->doc);
}

/* Every element and attribute of n and below: nothing that runs. */

/* The one data: address a page may carry: the empty icon of the head,
 * which spares browsers a request for /favicon.ico. */
static bool is_empty_icon(xmlNodePtr n, const char *href)
{
	xmlChar *rel = xmlGetProp(n, (const xmlChar *)"rel");
	bool icon = rel && strcmp((const char *)rel, "icon") == 0 &&
	            strcasecmp((const char *)n->name, "link") == 0 &&
	            strcmp(href, "data:,") == 0;

	xmlFree(rel);
	return icon;
}

static void check_node(xmlNodePtr n)
{
	for (; n; n = n->next) {
		if (n->type != XML_ELEMENT_NODE)
			continue;
		const char *name = (const char *)n->name;
		assert_true(strcasecmp(name, "script") != 0);
		assert_true(strcasecmp(name, "style") != 0);
		assert_true(strcasecmp(name, "img") != 0);
		assert_true(strcasecmp(name, "iframe") != 0);
		for (xmlAttrPtr at = n->properties; at; at = at->next) {
			const char *an = (const char *)at->name;
			assert_false(strncasecmp(an, "on", 2) == 0);
			assert_true(strcasecmp(an, "style") != 0);
			if (strcasecmp(an, "href") == 0 ||
			    strcasecmp(an, "action") == 0) {
				xmlChar *v = xmlNodeGetContent((xmlNodePtr)at);
				const char *s = (const char *)v;
				while (*s == ' ' || *s == '\t' || *s == '\n')
					s++;
				assert_true(strncasecmp(s, "javascript:", 11) !=
				            0);
				/* internal links carry the base URL */
				if (s[0] == '/')
					assert_true(strncmp(s, "/idx/", 5) ==
					            0);
				else if (s[0] != '#' && !is_empty_icon(n, s))
					assert_true(
					        strncmp(s, "https://", 8) ==
					                0 ||
					        strncmp(s, "http://", 7) == 0 ||
					        strncmp(s, "mailto:", 7) == 0);
				xmlFree(v);
			}
		}
		check_node(n->children);
	}
}

static xmlNodePtr find_id(xmlNodePtr n, const char *id)
{
	for (; n; n = n->next) {
		if (n->type == XML_ELEMENT_NODE) {
			xmlChar *v = xmlGetProp(n, (const xmlChar *)"id");
			bool hit = v && strcmp((const char *)v, id) == 0;
			xmlFree(v);
			if (hit)
				return n;
			xmlNodePtr c = find_id(n->children, id);
			if (c)
				return c;
		}
	}
	return NULL;
}

/* The HTML contract of every page, and nothing that runs. */
static void check_page(const struct answer *a)
{
	assert_non_null(a->doc);
	assert_true(strncmp(a->body, "<!doctype html>", 15) == 0);
	assert_non_null(strstr(a->body, "<html lang=\"en\">"));
	assert_non_null(strstr(a->body, "<meta charset=\"utf-8\">"));
	assert_non_null(strstr(a->body, "name=\"viewport\""));
	assert_non_null(strstr(
	        a->body,
	        "<link rel=\"stylesheet\" href=\"/idx/static/heed.css\">"));
	assert_non_null(strstr(a->body, "<a class=\"skip\" href=\"#main\">"));
	assert_non_null(strstr(a->body, "<header>"));
	assert_non_null(strstr(a->body, "href=\"/idx/bots\""));
	assert_null(strcasestr(a->body, "<script"));
	assert_null(strcasestr(a->body, " style="));
	assert_null(strcasestr(a->body, "<style"));
	assert_null(strcasestr(a->body, "<img"));
	assert_non_null(find_id(xmlDocGetRootElement(a->doc), "main"));
	check_node(xmlDocGetRootElement(a->doc));
}

static void expect(const char *path, const char *query, int status,
                   struct answer *a)
{
	get(path, query, a);
	if (a->status != status)
		fail_msg("%s?%s: status %d, wanted %d\n%s", path,
		         query ? query : "", a->status, status, a->body);
	check_page(a);
}

/* expect, for a request whose status is all the test asks of it. */
static void expect_status(const char *path, const char *query, int status)
{
	struct answer a;

	expect(path, query, status, &a);
	answer_free(&a);
}

static void has_id(const struct answer *a, const char *id)
{
	if (!find_id(xmlDocGetRootElement(a->doc), id))
		fail_msg("no id=%s in\n%s", id, a->body);
}

/* ---- the tests ---- */

static void test_home(void **state)
{
	struct answer a;

	(void)state;
	expect("/", NULL, 200, &a);
	has_id(&a, "search");
	has_id(&a, "q");
	has_id(&a, "recent");
	has_id(&a, "popular");
	has_id(&a, "counts");
	for (const char *const *n =
	             (const char *const[]){"site", "tag", "lang", "from", "to",
	                                   "min_views", "max_views", NULL};
	     *n; n++) {
		char want[64];
		snprintf(want, sizeof(want), "name=\"%s\"", *n);
		assert_non_null(strstr(a.body, want));
	}
	assert_non_null(strstr(a.body, "<select id=\"f-sort\" name=\"sort\">"));
	assert_non_null(strstr(a.body, "action=\"/idx/search\""));
	/* the hostile title is text */
	assert_non_null(
	        strstr(a.body, "&lt;script&gt;alert(1)&lt;/script&gt;"));
	answer_free(&a);
}

static void test_search_results(void **state)
{
	struct answer a;

	(void)state;
	expect("/search", "q=alert", 200, &a);
	has_id(&a, "results");
	has_id(&a, "count");
	assert_non_null(strstr(a.body, "class=\"result\""));
	assert_non_null(
	        strstr(a.body, "<a class=\"title\" href=\"/idx/records/1\">"));
	assert_non_null(strstr(a.body, "class=\"original\" rel=\"nofollow "
	                               "noopener ugc\" href=\"https://hostile."
	                               "example/a\""));
	assert_non_null(strstr(a.body, "href=\"/idx/tags/a%2Fb%20c\""));
	assert_non_null(strstr(a.body, "class=\"snippet\""));
	answer_free(&a);

	/* no result */
	expect("/search", "q=zzzznothing", 200, &a);
	has_id(&a, "empty");
	answer_free(&a);

	/* a javascript: URL is never a link */
	expect("/search", "site=evil.example", 200, &a);
	assert_null(strstr(a.body, "class=\"original\""));
	answer_free(&a);
}

/* The search form sends its empty fields; the answer is a redirect to
 * the same search without them, and the filters stay folded. */
static void test_search_form_canonical(void **state)
{
	struct answer a;

	(void)state;
	expect("/search",
	       "q=alert&site=&tag=&lang=&from=&to=&min_views=&max_views=&sort=",
	       303, &a);
	assert_string_equal(a.location, "/idx/search?q=alert");
	assert_non_null(strstr(a.body, "href=\"/idx/search?q=alert\""));
	answer_free(&a);
	/* values are encoded again; only the empty ones go */
	expect("/search", "tag=a/b c&q=&sort=views", 303, &a);
	assert_string_equal(a.location, "/idx/search?tag=a%2Fb%20c&sort=views");
	answer_free(&a);
	expect("/search", "q=", 303, &a);
	assert_string_equal(a.location, "/idx/search");
	answer_free(&a);
	/* nothing empty: the results, with the filters folded however many
	 * are in use */
	expect("/search", "q=alert&sort=views&lang=en", 200, &a);
	assert_string_equal(a.location, "");
	has_id(&a, "results");
	assert_non_null(strstr(a.body, "<details id=\"filters\"><summary>"));
	assert_non_null(strstr(a.body, "(2 in use)"));
	assert_null(strstr(a.body, "<details open"));
	answer_free(&a);
}

static void test_search_bad(void **state)
{
	struct answer a;
	char q[400];

	(void)state;
	expect("/search", "min_views=lots", 400, &a);
	has_id(&a, "error");
	answer_free(&a);
	memset(q, 'a', sizeof(q));
	memcpy(q, "q=", 2);
	q[sizeof(q) - 1] = '\0';
	expect("/search", q, 400, &a);
	has_id(&a, "error");
	answer_free(&a);
	expect_status("/search", "sort=views&cursor=garbage", 400);
}

/* The href of the link with this id, with &amp; decoded, after the path
 * ("" when it has no query); false when there is no such link. */
static bool link_query(const struct answer *a, const char *id, char *out,
                       size_t size)
{
	xmlNodePtr n = find_id(xmlDocGetRootElement(a->doc), id);
	xmlChar *href;
	const char *q;

	if (!n)
		return false;
	href = xmlGetProp(n, (const xmlChar *)"href");
	assert_non_null(href);
	q = strchr((const char *)href, '?');
	snprintf(out, size, "%s", q ? q + 1 : "");
	xmlFree(href);
	return true;
}

/* The href of id="next", with &amp; decoded, after the path. */
static bool next_query(const struct answer *a, char *out, size_t size)
{
	bool found = link_query(a, "next", out, size);

	if (found)
		assert_non_null(strchr(out, '='));
	return found;
}

/* Percent-decodes s in place (the shell does it for real requests). */
static void pct_decode(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (*s == '%' && s[1] && s[2]) {
			char hex[3] = {s[1], s[2], 0};
			*o++ = (char)strtol(hex, NULL, 16);
			s += 2;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
}

/* Follows the next links from query; returns the pages seen and counts
 * the results in *results. Every page after the first links back to the
 * one before it (the address it was reached from, decoded), and from the
 * third on to the first as well. */
static int follow(const char *first, int *results)
{
	char seen[12][512], query[512], prev[512];
	int pages = 0;
	struct answer a;

	snprintf(query, sizeof(query), "%s", first);
	*results = 0;
	for (;;) {
		const char *s;
		expect("/search", query, 200, &a);
		snprintf(seen[pages], sizeof(seen[pages]), "%s", query);
		for (s = a.body; (s = strstr(s, "class=\"result\"")); s++)
			(*results)++;
		pages++;
		if (pages > 1) {
			assert_true(link_query(&a, "prev", prev, sizeof(prev)));
			pct_decode(prev);
			assert_string_equal(prev, seen[pages - 2]);
			/* every other argument is kept */
			assert_non_null(strstr(a.body, "limit=10"));
		} else {
			assert_null(
			        find_id(xmlDocGetRootElement(a.doc), "prev"));
		}
		if (pages > 2)
			has_id(&a, "first");
		else
			assert_null(
			        find_id(xmlDocGetRootElement(a.doc), "first"));
		bool more = next_query(&a, query, sizeof(query));
		if (more) {
			assert_non_null(strstr(query, "limit=10"));
			pct_decode(query);
		}
		answer_free(&a);
		if (!more || pages > 10)
			break;
	}
	return pages;
}

static void test_pagination(void **state)
{
	static const char *const queries[] = {
	        "site=many.example&sort=views&limit=10",
	        "site=many.example&sort=date&limit=10",
	        "site=many.example&sort=fetched&limit=10",
	        "q=many&limit=10", /* relevance */
	        "tag=common&limit=10",
	};
	int results;

	(void)state;
	for (size_t i = 0; i < sizeof(queries) / sizeof(queries[0]); i++) {
		assert_int_equal(follow(queries[i], &results), 3);
		assert_int_equal(results, 25);
	}
}

static void test_record(void **state)
{
	struct answer a;

	(void)state;
	expect("/records/1", NULL, 200, &a);
	has_id(&a, "title");
	has_id(&a, "fields");
	assert_non_null(strstr(a.body, "class=\"source\""));
	/* javascript: canonical and thumbnail are text, not links */
	assert_non_null(strstr(a.body, "javascript:alert(1)"));
	assert_non_null(strstr(a.body, "rel=\"nofollow noopener ugc\" "
	                               "href=\"https://hostile.example/a\""));
	assert_null(find_id(xmlDocGetRootElement(a.doc), "withheld"));
	answer_free(&a);

	/* the snippet limit is applied and said */
	expect("/records/2", NULL, 200, &a);
	has_id(&a, "withheld");
	assert_non_null(strstr(a.body, "Twenty chars exactly</bdi>…"));
	assert_null(strstr(a.body, "then more words"));
	assert_null(strstr(a.body, "t.png"));
	assert_non_null(strstr(a.body, "ACAP present-snippet"));
	answer_free(&a);

	expect("/records/3", NULL, 200, &a);
	has_id(&a, "withheld");
	assert_null(strstr(a.body, "never shown text"));
	answer_free(&a);

	expect("/records/30", NULL, 200, &a);
	has_id(&a, "withheld");
	assert_null(strstr(a.body, "never shown array"));
	answer_free(&a);

	expect("/records/4", NULL, 200, &a);
	assert_non_null(strstr(a.body, "\xef\xbf\xbd")); /* U+FFFD */
	answer_free(&a);

	/* a long array shows its first 50 items and a count */
	expect("/records/5", NULL, 200, &a);
	assert_non_null(strstr(a.body, "60 items"));
	assert_non_null(strstr(a.body, "https://many.example/l49"));
	assert_null(strstr(a.body, "https://many.example/l50"));
	assert_non_null(strstr(a.body, "and 10 more"));
	answer_free(&a);

	expect_status("/records/999", NULL, 404);
	expect_status("/records/abc", NULL, 404);
	expect_status("/records/-1", NULL, 404);
	expect_status("/records/99999999999999999999999", NULL, 404);
	/* a trailing slash names the same record */
	expect_status("/records/1/", NULL, 200);
}

static void test_snippets_in_results(void **state)
{
	struct answer a;

	(void)state;
	expect("/search", "site=limits.example", 200, &a);
	assert_non_null(strstr(a.body, "Twenty chars exactly</bdi>…"));
	assert_null(strstr(a.body, "never shown text"));
	answer_free(&a);
}

static void test_sites(void **state)
{
	struct answer a;

	(void)state;
	expect("/sites", NULL, 200, &a);
	assert_non_null(strstr(a.body, "href=\"/idx/sites/many.example\""));
	answer_free(&a);
	expect_status("/sites/", NULL, 200);

	/* 105 sites: two pages, the second from the cursor of the first */
	char query[256];
	expect("/sites", NULL, 200, &a);
	assert_true(next_query(&a, query, sizeof(query)));
	answer_free(&a);
	pct_decode(query);
	expect("/sites", query, 200, &a);
	has_id(&a, "first");
	assert_null(find_id(xmlDocGetRootElement(a.doc), "next"));
	assert_non_null(strstr(a.body, "s100.example"));
	assert_null(strstr(a.body, "hostile.example"));
	answer_free(&a);

	expect("/sites/hostile.example", NULL, 200, &a);
	has_id(&a, "site");
	has_id(&a, "robots");
	has_id(&a, "optout");
	assert_non_null(strstr(a.body, "<figure class=\"chart\">"));
	assert_non_null(strstr(a.body, "<figcaption>"));
	assert_non_null(strstr(a.body, "Disallow: /private"));
	assert_non_null(strstr(a.body, "User-agent: heed"));
	assert_non_null(strstr(a.body, "ACAP-disallow-crawl: /"));
	assert_non_null(strstr(a.body, "ops@example.org"));
	answer_free(&a);

	expect_status("/sites/nowhere.example", NULL, 404);
}

static void test_tags(void **state)
{
	struct answer a;
	char query[512];

	(void)state;
	expect("/tags", NULL, 200, &a);
	assert_non_null(strstr(a.body, "href=\"/idx/tags/common\""));
	answer_free(&a);

	expect("/tags/common", NULL, 200, &a);
	has_id(&a, "results");
	assert_true(next_query(&a, query, sizeof(query)));
	/* the tag stays in the path, not in the arguments */
	assert_null(strstr(query, "tag="));
	assert_non_null(strstr(a.body, "href=\"/idx/tags/common?cursor="));
	answer_free(&a);
}

static void test_irc(void **state)
{
	struct answer a;

	(void)state;
	expect("/irc", NULL, 200, &a);
	has_id(&a, "networks");
	assert_non_null(strstr(a.body, "irc.example:6667"));
	assert_null(strstr(a.body, "deny.example"));
	answer_free(&a);

	expect("/irc/irc.example:6667", NULL, 200, &a);
	has_id(&a, "servers");
	has_id(&a, "channels");
	has_id(&a, "channel-search");
	assert_non_null(strstr(a.body, "#chan2"));
	assert_non_null(strstr(a.body, "&lt;script&gt;"));
	answer_free(&a);

	expect("/irc/irc.example:6667", "q=HOSTILE", 200, &a);
	assert_non_null(strstr(a.body, "#hostile"));
	assert_null(strstr(a.body, "#chan1"));
	answer_free(&a);

	expect("/irc/irc.example:6667", "q=plain topic", 200, &a);
	assert_non_null(strstr(a.body, "#chan1"));
	assert_null(strstr(a.body, "#hostile"));
	assert_non_null(strstr(a.body, "3 channels match"));
	answer_free(&a);

	expect_status("/irc/deny.example:6667", NULL, 404);
	expect_status("/irc/nowhere.example:6667", NULL, 404);

	/* a long list is cut, and says so */
	expect("/irc/big.example:6667", NULL, 200, &a);
	assert_non_null(strstr(a.body, "510 channels"));
	assert_non_null(strstr(a.body, "first 500 are shown"));
	assert_non_null(strstr(a.body, "#c499"));
	assert_null(strstr(a.body, "#c500"));
	answer_free(&a);
	expect("/irc/big.example:6667", "q=C50", 200, &a);
	assert_non_null(strstr(a.body, "#c509"));
	assert_non_null(strstr(a.body, "10 channels match"));
	answer_free(&a);
}

static void test_bots_and_misc(void **state)
{
	struct answer a;

	(void)state;
	expect("/bots", NULL, 200, &a);
	has_id(&a, "verify-steps");
	assert_non_null(strstr(a.body, "<code>.crawl.example.org</code>"));
	assert_non_null(strstr(a.body, "heed verify"));
	answer_free(&a);

	expect_status("/no/such/page", NULL, 404);
	expect_status("/records/", NULL, 404);
	expect_status("/search/", NULL, 200);
	/* an unknown API path answers in the API's form */
	get("/api/v1/nothing", NULL, &a);
	assert_int_equal(a.status, 404);
	assert_null(a.doc);
	answer_free(&a);

	get("/static/heed.css", NULL, &a);
	assert_int_equal(a.status, 200);
	assert_string_equal(a.type, "text/css; charset=utf-8");
	assert_non_null(strstr(a.body, "prefers-color-scheme"));
	answer_free(&a);

	get("/healthz", NULL, &a);
	assert_int_equal(a.status, 200);
	assert_string_equal(a.body, "ok\n");
	answer_free(&a);
}

/* A store whose pages table is gone: every page that reads it answers 500
 * with a sentence, never SQLite's message, and /healthz 503. */
/* Without a base URL, links are relative to the host. */
static void test_no_base_url(void **state)
{
	struct answer a;

	(void)state;
	fx.ctx.base_url = "";
	get("/", NULL, &a);
	assert_int_equal(a.status, 200);
	assert_non_null(strstr(
	        a.body, "<link rel=\"stylesheet\" href=\"/static/heed.css\">"));
	assert_non_null(strstr(a.body, "action=\"/search\""));
	assert_null(strstr(a.body, "/idx/"));
	answer_free(&a);
	fx.ctx.base_url = "/idx";
}

static void test_store_error(void **state)
{
	static const char *const paths[] = {"/",
	                                    "/search",
	                                    "/records/1",
	                                    "/sites",
	                                    "/sites/hostile.example",
	                                    "/tags/common"};
	char path[64] = "/tmp/heed-serve-broken-XXXXXX";
	heed_store *good = fx.store, *broken;
	sqlite3 *db;
	struct answer a;
	size_t i;
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(heed_store_open(&broken, path, NULL, NULL), HEED_OK);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	/* heed's FTS5 tokenizer: the search index's tables need it. */
	assert_int_equal(heed__sqlite_search_register(db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "DROP TABLE pages", NULL, NULL, NULL),
	                 SQLITE_OK);
	sqlite3_close(db);
	fx.store = broken;
	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		expect(paths[i], NULL, 500, &a);
		has_id(&a, "error");
		assert_non_null(strstr(a.body, "store could not be read"));
		assert_null(strcasestr(a.body, "no such table"));
		assert_null(strcasestr(a.body, "select"));
		answer_free(&a);
	}
	get("/healthz", NULL, &a);
	assert_int_equal(a.status, 503);
	answer_free(&a);
	fx.store = good;
	heed_store_close(broken);
	unlink(path);
	for (i = 0; i < 2; i++) {
		char side[80];
		snprintf(side, sizeof(side), "%s%s", path, i ? "-shm" : "-wal");
		unlink(side);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_home),
	        cmocka_unit_test(test_search_results),
	        cmocka_unit_test(test_search_form_canonical),
	        cmocka_unit_test(test_search_bad),
	        cmocka_unit_test(test_pagination),
	        cmocka_unit_test(test_record),
	        cmocka_unit_test(test_snippets_in_results),
	        cmocka_unit_test(test_sites),
	        cmocka_unit_test(test_tags),
	        cmocka_unit_test(test_irc),
	        cmocka_unit_test(test_bots_and_misc),
	        cmocka_unit_test(test_no_base_url),
	        cmocka_unit_test(test_store_error),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
