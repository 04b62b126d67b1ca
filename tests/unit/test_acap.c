/*
 * Unit tests for the ACAP module (src/acap): every example of the ACAP 1.1
 * specification (Part 1, robots.txt) with the answer its text gives, then a
 * table per rule: narrowest scope (2.4.6), records and sub-records (2.2.1),
 * definitions (2.7), fallback (2.4.3), versions (2.8), time limits
 * (2.5.3.1), conventional records (2.10), diagnostics, action requests, the
 * OOM loop and a 500 KiB file.
 */
#include "heed_test.h"

#include "heed/acap.h"
#include "heed/robots.h"

#define DAY 86400
/* 2009-09-25 00:00:00 UTC, the day ACAP 1.1 was published. */
#define T0 1253836800

struct dcase {
	const char *name;
	const char *txt;
	const char *crawler;
	const char *purpose; /* NULL: none */
	heed_acap_usage usage;
	const char *path;
	bool want;
	unsigned want_line; /* 0: not checked */
};

static heed_acap *parse(const char *txt)
{
	heed_acap *r = NULL;

	assert_int_equal(
	        heed_acap_parse(&r, heed_test_allocator(), txt, strlen(txt)),
	        HEED_OK);
	assert_non_null(r);
	return r;
}

static struct heed_acap_decision *
decide_at(const heed_acap *r, const char *crawler, const char *purpose,
          heed_acap_usage usage, const char *path, int64_t now,
          const struct heed_acap_history *h)
{
	struct heed_acap_decision *d = NULL;
	const char *purposes[1] = {purpose};

	assert_int_equal(heed_acap_decide(r, crawler, purposes, purpose ? 1 : 0,
	                                  usage, path, now, h, &d),
	                 HEED_OK);
	assert_non_null(d);
	assert_true(d->step_count > 0);
	return d;
}

static void print_chain(const struct heed_acap_decision *d)
{
	for (size_t i = 0; i < d->step_count; i++)
		print_message("    [%u %s] %s\n", d->steps[i].line,
		              heed_acap_reason_name(d->steps[i].reason),
		              d->steps[i].text);
}

static void run_cases(const struct dcase *cases, size_t n)
{
	int bad = 0;

	for (size_t i = 0; i < n; i++) {
		const struct dcase *c = &cases[i];
		heed_acap *r = parse(c->txt);
		struct heed_acap_decision *d =
		        decide_at(r, c->crawler ? c->crawler : "heed",
		                  c->purpose, c->usage, c->path, T0, NULL);

		if (d->permitted != c->want ||
		    (c->want_line && d->line != c->want_line)) {
			print_message("FAIL %s: got %s line %u, want %s line "
			              "%u\n",
			              c->name,
			              d->permitted ? "permitted" : "prohibited",
			              d->line,
			              c->want ? "permitted" : "prohibited",
			              c->want_line);
			print_chain(d);
			bad++;
		}
		heed_acap_decision_free(d);
		heed_acap_free(r);
	}
	if (bad)
		fail_msg("%d of %zu cases failed", bad, n);
}

/* The complete example of 2.1, as the specification prints it. */
static const char spec_2_1[] =
        "##ACAP version=1.0\n"
        "# Legacy robots.txt file content...\n"
        "\n"
        "User-agent: *\n"
        "Disallow: /\n"
        "\n"
        "User-agent: named-crawler\n"
        "Allow: /index.html\n"
        "Allow: /public/\n"
        "Allow: /promotion/\n"
        "Allow: /news/\n"
        "\n"
        "# ACAP-ignore-conventional-records\n"
        "\n"
        "ACAP-resource-set: crawlable /public/ /promotion/ /news/\n"
        "ACAP-qualified-usage: cache preserve time-limit=until-recrawled\n"
        "ACAP-composite-usage: basic-usages crawl index present\n"
        "\n"
        "ACAP-crawler: *\n"        /* 19 */
        "ACAP-disallow-crawl: /\n" /* 20 */
        "\n"
        "ACAP-crawler: named-crawler\n"                                /* 22 */
        "ACAP-allow-(basic-usages): the-acap:resource-set:crawlable\n" /* 23 */
        "# ACAP-allow-crawl: the-acap:resource-set:crawlable\n"
        "# ACAP-allow-(cache): the-acap:resource-set:crawable\n";

static const struct dcase spec_cases[] = {
        {"2.1: named crawler may crawl the crawlable set", spec_2_1,
         "named-crawler", NULL, HEED_ACAP_CRAWL, "/public/a.html", true, 23},
        {"2.1: named crawler may index it", spec_2_1, "named-crawler", NULL,
         HEED_ACAP_INDEX, "/news/today", true, 23},
        {"2.1: named crawler may present it", spec_2_1, "named-crawler", NULL,
         HEED_ACAP_PRESENT, "/promotion/x", true, 23},
        {"2.1: named crawler: a derived present falls to present", spec_2_1,
         "named-crawler", NULL, HEED_ACAP_PRESENT_SNIPPET, "/public/x", true,
         23},
        {"2.1: named crawler may not crawl the rest", spec_2_1, "named-crawler",
         NULL, HEED_ACAP_CRAWL, "/private/x", false, 20},
        {"2.1: names are case-insensitive", spec_2_1, "Named-Crawler", NULL,
         HEED_ACAP_CRAWL, "/PUBLIC/a.html", true, 23},
        {"2.1: crawlers in general may not crawl", spec_2_1, "heed", NULL,
         HEED_ACAP_CRAWL, "/public/a.html", false, 0},
        {"2.1: the commented-out cache permission is not there", spec_2_1,
         "named-crawler", NULL, HEED_ACAP_PRESERVE, "/public/x", true, 0},
        {"2.3.1: a record for searchbot",
         "ACAP-crawler: searchbot\nACAP-disallow-index: /\n", "searchbot", NULL,
         HEED_ACAP_INDEX, "/a", false, 2},
        {"2.3.1: ... does not address other crawlers",
         "ACAP-crawler: searchbot\nACAP-disallow-index: /\n", "heed", NULL,
         HEED_ACAP_INDEX, "/a", true, 0},
        {"2.3.1: ACAP-crawler: * addresses any crawler",
         "ACAP-crawler: *\nACAP-disallow-index: /\n", "heed", NULL,
         HEED_ACAP_INDEX, "/a", false, 2},
        {"2.3.2: a permissions reference is not followed: prohibited",
         "ACAP-crawler: searchbot\n"
         "ACAP-permissions-reference: /searchbot.txt\n",
         "searchbot", NULL, HEED_ACAP_CRAWL, "/a", false, 2},
        {"2.3.3: sub-record for usage purpose news",
         "ACAP-crawler: *\nACAP-usage-purpose: news\n"
         "ACAP-disallow-index: /\n",
         "heed", "news", HEED_ACAP_INDEX, "/a", false, 3},
        {"2.3.3: ... not for another purpose",
         "ACAP-crawler: *\nACAP-usage-purpose: news\n"
         "ACAP-disallow-index: /\n",
         "heed", "images", HEED_ACAP_INDEX, "/a", true, 0},
        {"2.3.3: URI pattern with a wildcard",
         "ACAP-crawler: *\nACAP-usage-purpose: http://news.search.* /\n"
         "ACAP-disallow-index: /\n",
         "heed", "http://news.search.example/", HEED_ACAP_INDEX, "/a", false,
         3},
        {"2.3.3: URI with a fragment is one pattern",
         "ACAP-crawler: *\nACAP-usage-purpose: "
         "http://the-acap.org/usage-purpose-categories#preservation\n"
         "ACAP-disallow-preserve: /\n",
         "heed", "http://the-acap.org/usage-purpose-categories#preservation",
         HEED_ACAP_PRESERVE, "/a", false, 3},
        {"2.4.1.1: unqualified permission to index /news/",
         "ACAP-crawler: *\nACAP-disallow-index: /\n"
         "ACAP-allow-index: /news/\n",
         "heed", NULL, HEED_ACAP_INDEX, "/news/a", true, 3},
        {"2.4.1.2: preserve until re-crawled (spelled until-recrawl)",
         "ACAP-crawler: *\nACAP-allow-preserve: /news/ "
         "time-limit=until-recrawl\n",
         "heed", NULL, HEED_ACAP_PRESERVE, "/news/a", true, 2},
        {"2.4.1.3: locally-defined usage on /special/*.htm",
         "ACAP-qualified-usage: my-local-usage index time-limit=3-days\n"
         "ACAP-crawler: *\nACAP-disallow-index: /\n"
         "ACAP-allow-(my-local-usage): /special/*.htm\n",
         "heed", NULL, HEED_ACAP_INDEX, "/special/a.htm", true, 4},
        {"2.4.1.3: ... a path it does not match",
         "ACAP-qualified-usage: my-local-usage index time-limit=3-days\n"
         "ACAP-crawler: *\nACAP-disallow-index: /\n"
         "ACAP-allow-(my-local-usage): /special/*.htm\n",
         "heed", NULL, HEED_ACAP_INDEX, "/special/a.pdf", false, 3},
        {"2.4.2: prohibition to crawl /private/",
         "ACAP-crawler: *\nACAP-disallow-crawl: /private/\n", "heed", NULL,
         HEED_ACAP_CRAWL, "/private/x", false, 2},
        {"2.4.2: ... not elsewhere",
         "ACAP-crawler: *\nACAP-disallow-crawl: /private/\n", "heed", NULL,
         HEED_ACAP_CRAWL, "/public/x", true, 0},
        {"2.4.5: resource set indexable",
         "ACAP-resource-set: indexable /public/ /news/ /promote/\n"
         "ACAP-crawler: *\nACAP-disallow-index: /\n"
         "ACAP-allow-index: the-acap:resource-set:indexable\n",
         "heed", NULL, HEED_ACAP_INDEX, "/promote/x", true, 4},
        {"2.5.5: unqualified permission to present /public/",
         "ACAP-crawler: *\nACAP-disallow-present: /\n"
         "ACAP-allow-present: /public/\n",
         "heed", NULL, HEED_ACAP_PRESENT_THUMBNAIL, "/public/x", true, 3},
        {"2.5.5.1.1: no presenting the original",
         "ACAP-crawler: *\nACAP-disallow-present-original: /\n", "heed", NULL,
         HEED_ACAP_PRESENT_ORIGINAL, "/a", false, 2},
        {"2.5.5.1.1: ... snippets are another usage",
         "ACAP-crawler: *\nACAP-disallow-present-original: /\n", "heed", NULL,
         HEED_ACAP_PRESENT_SNIPPET, "/a", true, 0},
        {"2.5.5.1.5: snippets allowed",
         "ACAP-crawler: *\nACAP-allow-present-snippet: /public/\n"
         "ACAP-disallow-present-thumbnail: /public/\n",
         "heed", NULL, HEED_ACAP_PRESENT_SNIPPET, "/public/a", true, 2},
        {"2.5.5.1.5: thumbnails not",
         "ACAP-crawler: *\nACAP-allow-present-snippet: /public/\n"
         "ACAP-disallow-present-thumbnail: /public/\n",
         "heed", NULL, HEED_ACAP_PRESENT_THUMBNAIL, "/public/a", false, 3},
        {"2.5.5.1.5 + 2.4.3: presenting in general is then prohibited",
         "ACAP-crawler: *\nACAP-allow-present-snippet: /public/\n"
         "ACAP-disallow-present-thumbnail: /public/\n",
         "heed", NULL, HEED_ACAP_PRESENT, "/public/a", false, 3},
        {"2.5.5.3: present a thumbnail from another resource: fallback",
         "ACAP-crawler: *\nACAP-allow-present-thumbnail: /book/pages/ "
         "must-use-resource=/book/cover.jpg\n",
         "heed", NULL, HEED_ACAP_PRESENT_THUMBNAIL, "/book/pages/1", false, 2},
        {"2.5.5.5: prohibited-modification=annotation: fallback",
         "ACAP-crawler: *\nACAP-allow-present: /public/ "
         "prohibited-modification=annotation\n",
         "heed", NULL, HEED_ACAP_PRESENT, "/public/a", false, 2},
        {"2.5.5.5: currentcopy style: fallback",
         "ACAP-crawler: *\nACAP-allow-present-currentcopy: /public/ "
         "prohibited-modification=style\n",
         "heed", NULL, HEED_ACAP_PRESENT_CURRENTCOPY, "/public/a", false, 2},
        {"2.5.5.5: format and translation on one line: fallback",
         "ACAP-crawler: *\nACAP-allow-present-currentcopy: /public/ "
         "prohibited-modification=format "
         "prohibited-modification=translation\n",
         "heed", NULL, HEED_ACAP_PRESENT_CURRENTCOPY, "/public/a", false, 2},
        {"2.5.5.7: prohibited-context: fallback",
         "ACAP-crawler: *\nACAP-allow-present-currentcopy: /public/ "
         "prohibited-context=within-user-frame\n",
         "heed", NULL, HEED_ACAP_PRESENT_CURRENTCOPY, "/public/a", false, 2},
        {"2.5.5.8: required-context: fallback",
         "ACAP-crawler: *\nACAP-allow-present-original: /public/ "
         "required-context=within-original-frame\n",
         "heed", NULL, HEED_ACAP_PRESENT_ORIGINAL, "/public/a", false, 2},
        {"2.5.6: blanket prohibition of other usages",
         "ACAP-crawler: *\nACAP-allow-crawl: /public/\n"
         "ACAP-disallow-other: /public/\n",
         "heed", NULL, HEED_ACAP_INDEX, "/public/a", false, 3},
        {"2.5.6: ... the permitted usage stays permitted",
         "ACAP-crawler: *\nACAP-allow-crawl: /public/\n"
         "ACAP-disallow-other: /public/\n",
         "heed", NULL, HEED_ACAP_CRAWL, "/public/a", true, 2},
        {"2.5.6.1: other with usage-ref: fallback",
         "ACAP-version: 1.1\nACAP-crawler: *\nACAP-allow-other: /a/ "
         "usage-ref=the-acap:terms-link:id:terms\n",
         "heed", NULL, HEED_ACAP_OTHER, "/a/b", false, 3},
        {"2.7.3: images may not be indexed",
         "ACAP-resource-set: images *.gif *.jpg *.png\n"
         "ACAP-crawler: *\nACAP-disallow-index: "
         "the-acap:resource-set:images\n",
         "heed", NULL, HEED_ACAP_INDEX, "/pics/cat.JPG", false, 3},
        {"2.7.3: ... pages may",
         "ACAP-resource-set: images *.gif *.jpg *.png\n"
         "ACAP-crawler: *\nACAP-disallow-index: "
         "the-acap:resource-set:images\n",
         "heed", NULL, HEED_ACAP_INDEX, "/pics/cat.html", true, 0},
        {"2.10.1: conventional records ignored",
         "User-agent: *\nDisallow: /\nACAP-ignore-conventional-records\n"
         "ACAP-crawler: *\nACAP-allow-crawl: /\n",
         "heed", NULL, HEED_ACAP_CRAWL, "/a", true, 5},
};

static void test_spec_examples(void **state)
{
	(void)state;
	run_cases(spec_cases, HEED_ARRAY_SIZE(spec_cases));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_spec_examples),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
