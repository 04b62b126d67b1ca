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

#include "acap/acap-int.h"
#include "../../bench/acap_gen.h"

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
        {"2.3.3 prints a purpose URI with a fragment: the sub-record "
         "binds it as written too (section 3 reads a comment)",
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

/* 2.4.6, the method itself, on pairs of patterns. */
static void test_scope(void **state)
{
	static const struct {
		const char *a, *b;
		enum acap_scope want;
	} cases[] = {
	        {"/a/b", "/a", ACAP_SCOPE_NARROWER}, /* the other ran out */
	        {"/a", "/a/b", ACAP_SCOPE_WIDER},
	        {"/News/", "/news/", ACAP_SCOPE_SAME}, /* 2.9 case */
	        {"/a$", "/a*", ACAP_SCOPE_WIDER},      /* $ against * */
	        {"/a*", "/a$", ACAP_SCOPE_NARROWER},
	        {"/a*", "/ab", ACAP_SCOPE_WIDER}, /* * against a character */
	        {"/ab", "/a*", ACAP_SCOPE_NARROWER},
	        {"/a$", "/ab", ACAP_SCOPE_WIDER}, /* $ against a character */
	        {"/a$", "/a", ACAP_SCOPE_NARROWER},
	        {"/special/*.htm", "/special/", ACAP_SCOPE_NARROWER},
	        {"/*a", "/*b", ACAP_SCOPE_UNORDERED},
	        {"/x", "/y", ACAP_SCOPE_UNORDERED},
	        {"*.gif", "/", ACAP_SCOPE_WIDER},
	};
	(void)state;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(cases); i++)
		if (heed__acap_scope(cases[i].a, cases[i].b) != cases[i].want)
			fail_msg("scope(%s, %s) = %d, want %d", cases[i].a,
			         cases[i].b,
			         heed__acap_scope(cases[i].a, cases[i].b),
			         cases[i].want);
}

/* 2.9: * anywhere, $ only at the end, a prefix otherwise, no case. */
static void test_match(void **state)
{
	static const struct {
		const char *pattern, *path;
		bool want;
	} cases[] = {
	        {"/news/", "/news/a", true},
	        {"/news/", "/NEWS/a", true},
	        {"/news/", "/new", false},
	        {"/special/*.htm", "/special/a/b.htm", true},
	        {"/special/*.htm", "/special/a.html", true}, /* a prefix */
	        {"/special/*.htm$", "/special/a.html", false},
	        {"/special/*.htm$", "/special/a.htm", true},
	        {"*.gif", "/a/b.gif", true},
	        {"/a$b", "/a$b", true}, /* $ inside is a character */
	        {"/a$", "/a/", false},
	        {"/*", "/", true},
	        {"/a*b*c", "/axxbyyc", true},
	        {"/a*b*c", "/axxbyy", false},
	        {"", "/anything", true},
	};
	(void)state;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(cases); i++)
		if (heed__acap_match(cases[i].pattern, cases[i].path, true) !=
		    cases[i].want)
			fail_msg("match(%s, %s) != %d", cases[i].pattern,
			         cases[i].path, cases[i].want);
	assert_true(heed__acap_match_whole("news", "NEWS"));
	assert_false(heed__acap_match_whole("news", "newsletter"));
	assert_true(heed__acap_match_whole("http://news.search.*",
	                                   "http://news.search.example/"));
}

#define REC "ACAP-crawler: *\n"

static const struct dcase scope_cases[] = {
        {"2.4.6: the narrower prohibition wins",
         REC "ACAP-allow-crawl: /a/\nACAP-disallow-crawl: /a/b\n", NULL, NULL,
         HEED_ACAP_CRAWL, "/a/b/c", false, 3},
        {"2.4.6: the narrower permission wins",
         REC "ACAP-disallow-crawl: /a/\nACAP-allow-crawl: /a/b\n", NULL, NULL,
         HEED_ACAP_CRAWL, "/a/b/c", true, 3},
        {"2.4.6: * loses to a character",
         REC "ACAP-disallow-crawl: /a/*\nACAP-allow-crawl: /a/x\n", NULL, NULL,
         HEED_ACAP_CRAWL, "/a/x", true, 3},
        {"2.4.6: $ loses to *",
         REC "ACAP-allow-crawl: /a$\nACAP-disallow-crawl: /a*\n", NULL, NULL,
         HEED_ACAP_CRAWL, "/a", false, 3},
        {"2.4.6: the same pattern both ways: prohibited",
         REC "ACAP-allow-index: /a/\nACAP-disallow-index: /a/\n", NULL, NULL,
         HEED_ACAP_INDEX, "/a/b", false, 3},
        {"2.4.6: scopes that cannot be ordered: prohibited",
         REC "ACAP-allow-index: /*a\nACAP-disallow-index: /*b\n", NULL, NULL,
         HEED_ACAP_INDEX, "/ab", false, 3},
        {"2.4.6: two permissions never conflict",
         REC "ACAP-allow-index: /*a\nACAP-allow-index: /*b\n", NULL, NULL,
         HEED_ACAP_INDEX, "/ab", true, 0},
        {"2.9: patterns are case-insensitive",
         REC "ACAP-disallow-crawl: /Private/\n", NULL, NULL, HEED_ACAP_CRAWL,
         "/private/x", false, 2},
        {"2.9: percent-encoding is normalised on both sides",
         REC "ACAP-disallow-crawl: /%7euser/\n", NULL, NULL, HEED_ACAP_CRAWL,
         "/~user/a", false, 2},
        {"2.4.6: fields for other usages do not conflict",
         REC "ACAP-allow-crawl: /a\nACAP-disallow-index: /a/b\n", NULL, NULL,
         HEED_ACAP_CRAWL, "/a/b", true, 2},
        {"2.4.5: a set's narrowest pattern decides",
         "ACAP-resource-set: s /a/ /a/b/\n" REC "ACAP-disallow-index: /a/b\n"
         "ACAP-allow-index: the-acap:resource-set:s\n",
         NULL, NULL, HEED_ACAP_INDEX, "/a/b/c", true, 4},
};

static void test_conflict_resolution(void **state)
{
	(void)state;
	run_cases(scope_cases, HEED_ARRAY_SIZE(scope_cases));
}

static const char records_txt[] = "ACAP-crawler: *\n"                    /* 1 */
                                  "ACAP-disallow-crawl: /\n"             /* 2 */
                                  "ACAP-allow-index: /\n"                /* 3 */
                                  "ACAP-usage-purpose: news\n"           /* 4 */
                                  "ACAP-disallow-index: /\n"             /* 5 */
                                  "ACAP-usage-purpose: archive\n"        /* 6 */
                                  "ACAP-usage-purpose: http://a.org/*\n" /* 7 */
                                  "ACAP-disallow-preserve: /old/\n"      /* 8 */
                                  "ACAP-crawler: heed\n"                 /* 9 */
                                  "ACAP-crawler: other-bot\n"    /* 10 */
                                  "ACAP-allow-crawl: /public/\n" /* 11 */
                                  "ACAP-disallow-present: /\n";  /* 12 */

static const struct dcase record_cases[] = {
        {"2.2.1: a named record overrides *", records_txt, "heed", NULL,
         HEED_ACAP_CRAWL, "/public/a", true, 11},
        {"2.2.1: ... only for the resources it matches", records_txt, "heed",
         NULL, HEED_ACAP_CRAWL, "/private/a", false, 2},
        {"2.3.1: a record may name several crawlers", records_txt, "Other-Bot",
         NULL, HEED_ACAP_CRAWL, "/public/a", true, 11},
        {"2.3.1: a product token names the crawler", records_txt,
         "heed/0.1 (+https://example.org/heed)", NULL, HEED_ACAP_CRAWL,
         "/public/a", true, 11},
        {"2.3.1: an unnamed crawler gets *", records_txt, "slurp", NULL,
         HEED_ACAP_CRAWL, "/public/a", false, 2},
        {"2.2.1: a sub-record overrides its record", records_txt, "slurp",
         "news", HEED_ACAP_INDEX, "/a", false, 5},
        {"2.2.1: ... for its purposes only", records_txt, "slurp", "sports",
         HEED_ACAP_INDEX, "/a", true, 3},
        {"2.2.1: ... not without a purpose", records_txt, "slurp", NULL,
         HEED_ACAP_INDEX, "/a", true, 3},
        {"2.3: a sub-record may have several purposes", records_txt, "slurp",
         "ARCHIVE", HEED_ACAP_PRESERVE, "/old/x", false, 8},
        {"2.3.3: purpose URI pattern", records_txt, "slurp",
         "http://a.org/preservation", HEED_ACAP_PRESERVE, "/old/x", false, 8},
        {"2.2.1: named record against a sub-record of *: prohibited",
         "ACAP-crawler: *\nACAP-usage-purpose: news\n"
         "ACAP-disallow-index: /\nACAP-crawler: heed\nACAP-allow-index: /\n",
         "heed", "news", HEED_ACAP_INDEX, "/a", false, 3},
        {"2.2.1: a named prohibition of present is not lifted by * snippets",
         "ACAP-crawler: *\nACAP-allow-present-snippet: /\n"
         "ACAP-crawler: heed\nACAP-disallow-present: /\n",
         "heed", NULL, HEED_ACAP_PRESENT_SNIPPET, "/a", false, 4},
        {"2.2.1: a sub-record's prohibition of present is not lifted by "
         "record-level snippets",
         REC "ACAP-allow-present-snippet: /\nACAP-usage-purpose: news\n"
             "ACAP-disallow-present: /\n",
         NULL, "news", HEED_ACAP_PRESENT_SNIPPET, "/a", false, 4},
        {"2.5: a specific permission beats the general prohibition",
         REC "ACAP-disallow-present: /\nACAP-allow-present-link: /\n", NULL,
         NULL, HEED_ACAP_PRESENT_LINK, "/a", true, 3},
        {"2.5: a specific prohibition beats the general permission",
         REC "ACAP-allow-present: /\nACAP-disallow-present-link: /\n", NULL,
         NULL, HEED_ACAP_PRESENT_LINK, "/a", false, 3},
        {"2.3.1: * with a name applies to all",
         "ACAP-crawler: *\nACAP-crawler: heed\nACAP-disallow-follow: /\n",
         "slurp", NULL, HEED_ACAP_FOLLOW, "/a", false, 3},
        {"2.3.2: a reference for * when no record names the crawler",
         "ACAP-crawler: *\nACAP-permissions-reference: /acap.txt\n", "heed",
         NULL, HEED_ACAP_INDEX, "/a", false, 2},
        {"2.3.2: a named record without reference wins over *'s",
         "ACAP-crawler: *\nACAP-permissions-reference: /acap.txt\n"
         "ACAP-crawler: heed\nACAP-allow-index: /\n",
         "heed", NULL, HEED_ACAP_INDEX, "/a", true, 4},
};

static void test_records(void **state)
{
	(void)state;
	run_cases(record_cases, HEED_ARRAY_SIZE(record_cases));
}

static const struct dcase fallback_cases[] = {
        {"2.4.3: a qualifier heed cannot interpret: prohibited",
         REC "ACAP-allow-index: /a must-use-resource=/idx.txt\n", NULL, NULL,
         HEED_ACAP_INDEX, "/a", false, 2},
        {"2.4.3: an unknown qualifier type: prohibited",
         REC "ACAP-allow-index: /a colour=blue\n", NULL, NULL, HEED_ACAP_INDEX,
         "/a", false, 2},
        {"2.4.3: an invalid time-limit: prohibited",
         REC "ACAP-allow-index: /a time-limit=soon\n", NULL, NULL,
         HEED_ACAP_INDEX, "/a", false, 2},
        {"Annex A: max-length does not qualify present: prohibited",
         REC "ACAP-allow-present: /a max-length=10-words\n", NULL, NULL,
         HEED_ACAP_PRESENT, "/a", false, 2},
        {"2.4.3: the fallback is a prohibition of the same usage only",
         REC "ACAP-allow-index: /a must-use-resource=/idx.txt\n", NULL, NULL,
         HEED_ACAP_CRAWL, "/a", true, 0},
        {"2.4.3: an unknown derived usage prohibits its basic usage",
         REC "ACAP-disallow-present-hologram: /a\n", NULL, NULL,
         HEED_ACAP_PRESENT_SNIPPET, "/a", false, 2},
        {"2.4.3: ... a permission of it too",
         REC "ACAP-allow-present-hologram: /a\n", NULL, NULL, HEED_ACAP_PRESENT,
         "/a", false, 2},
        {"2.4.3: an unknown usage prohibits crawling",
         REC "ACAP-disallow-mine: /a\n", NULL, NULL, HEED_ACAP_CRAWL, "/a",
         false, 2},
        {"2.4.3: an undefined local usage prohibits crawling",
         REC "ACAP-allow-(nothing): /a\n", NULL, NULL, HEED_ACAP_CRAWL, "/a",
         false, 2},
        {"2.4.2: qualifiers on a prohibition are dropped, it stands",
         REC "ACAP-disallow-index: /a time-limit=3-days\n", NULL, NULL,
         HEED_ACAP_INDEX, "/a", false, 2},
        {"2.4.1.3: explicit qualifiers on a local usage: prohibited",
         "ACAP-qualified-usage: q index time-limit=3-days\n" REC
         "ACAP-allow-(q): /a max-length=3-words\n",
         NULL, NULL, HEED_ACAP_INDEX, "/a", false, 3},
        {"2.4.2: a composite in a prohibition prohibits its parts",
         "ACAP-composite-usage: c crawl index\n" REC "ACAP-disallow-(c): /a\n",
         NULL, NULL, HEED_ACAP_INDEX, "/a", false, 3},
        {"2.5.6.1: other without usage-ref: prohibited",
         REC "ACAP-allow-other: /a\n", NULL, NULL, HEED_ACAP_OTHER, "/a", false,
         2},
        {"2.7.2: a composite naming a composite: that part prohibits crawl",
         "ACAP-composite-usage: a index\nACAP-composite-usage: b (a) "
         "follow\n" REC "ACAP-allow-(b): /x\n",
         NULL, NULL, HEED_ACAP_CRAWL, "/x", false, 4},
        {"2.7.2: ... the valid parts stay permitted",
         "ACAP-composite-usage: a index\nACAP-composite-usage: b (a) "
         "follow\n" REC "ACAP-disallow-follow: /\nACAP-allow-(b): /x\n",
         NULL, NULL, HEED_ACAP_FOLLOW, "/x", true, 5},
        {"2.4.5: an undefined set in a prohibition covers the site",
         REC "ACAP-disallow-index: the-acap:resource-set:nope\n", NULL, NULL,
         HEED_ACAP_INDEX, "/any", false, 2},
        {"2.4.5: an undefined set in a permission grants nothing",
         REC "ACAP-disallow-index: /\n"
             "ACAP-allow-index: the-acap:resource-set:nope\n",
         NULL, NULL, HEED_ACAP_INDEX, "/any", false, 2},
        {"2.7: a use before the definition does not resolve",
         REC "ACAP-allow-(late): /\nACAP-qualified-usage: late index "
             "time-limit=3-days\n",
         NULL, NULL, HEED_ACAP_CRAWL, "/a", false, 2},
};

static void test_fallback(void **state)
{
	(void)state;
	run_cases(fallback_cases, HEED_ARRAY_SIZE(fallback_cases));
}

#define V11 "ACAP-version: 1.1\n"

static const struct dcase version_cases[] = {
        {"2.8: a 1.1 qualifier without a version field is ignored",
         REC "ACAP-allow-present: /a "
             "target-condition=permitteddomainlist:be,fr\n",
         NULL, NULL, HEED_ACAP_PRESENT, "/a", true, 0},
        {"2.8: ... with 'ACAP-version: 1.1' it is read (and falls back)",
         V11 REC "ACAP-allow-present: /a "
                 "target-condition=permitteddomainlist:be,fr\n",
         NULL, NULL, HEED_ACAP_PRESENT, "/a", false, 3},
        {"2.8: 'ACAP-version: 1.0' ignores 1.1 features too",
         "ACAP-version: 1.0\n" REC "ACAP-disallow-index: /\n"
         "ACAP-allow-index: /a time-limit=until-recrawled "
         "time-limit=3-days\n",
         NULL, NULL, HEED_ACAP_INDEX, "/a", false, 3},
        {"2.8: a later minor version reads 1.1 features",
         "ACAP-version: 1.4\n" REC "ACAP-disallow-index: /\n"
         "ACAP-allow-index: /a time-limit=until-recrawled "
         "time-limit=3-days\n",
         NULL, NULL, HEED_ACAP_INDEX, "/a", true, 4},
        {"2.10.3: the comment alone does not enable 1.1",
         "##ACAP version=1.1\n" REC "ACAP-allow-present: /a "
         "target-condition=rulesref:http://x.org/r\n",
         NULL, NULL, HEED_ACAP_PRESENT, "/a", true, 0},
        {"2.8: an unknown major version: permissions become prohibitions",
         "ACAP-version: 2.0\n" REC "ACAP-allow-crawl: /\n", NULL, NULL,
         HEED_ACAP_CRAWL, "/a", false, 3},
        {"2.5.3.2: extract:class is ACAP 1.0 (read, falls back)",
         REC "ACAP-allow-index: /articles/ "
             "must-use-resource=the-acap:extract:class:abstract\n",
         NULL, NULL, HEED_ACAP_INDEX, "/articles/a", false, 2},
        {"2.5.3.2: extract:taglist is 1.1: ignored without a version",
         REC "ACAP-allow-index /articles/ "
             "must-use-resource=the-acap:extract:taglist:p,h1,h2\n",
         NULL, NULL, HEED_ACAP_INDEX, "/articles/a", true, 0},
        {"2.5.3.2: ... and read with one (no colon, as printed)",
         V11 REC "ACAP-allow-index /articles/ "
                 "must-use-resource=the-acap:extract:taglist:p,h1,h2\n",
         NULL, NULL, HEED_ACAP_INDEX, "/articles/a", false, 3},
        {"2.5.3.2: page-image index resource",
         REC "ACAP-allow-index: /page-image.pdf "
             "must-use-resource=/page-image-index.txt\n",
         NULL, NULL, HEED_ACAP_INDEX, "/page-image.pdf", false, 2},
        {"2.5.5.6: must-include-resource credit: falls back",
         REC "ACAP-allow-present: /img/ "
             "must-include-resource=the-acap:credit:id:credit\n",
         NULL, NULL, HEED_ACAP_PRESENT, "/img/a", false, 2},
        {"2.5.5.9: ipaddressrangelist (1.1): falls back",
         V11 REC "ACAP-allow-present: /a "
                 "target-condition=ipaddressrangelist:1.2.3.1-1.2.3.50,"
                 "1.2.4.1-1.2.2.255\n",
         NULL, NULL, HEED_ACAP_PRESENT, "/a", false, 3},
        {"2.5.5.9: ipaddressmasklist (1.1): falls back",
         V11 REC "ACAP-allow-present: /a "
                 "target-condition=ipaddressmasklist:10.1.1.0/0.0.0.255\n",
         NULL, NULL, HEED_ACAP_PRESENT, "/a", false, 3},
        {"2.5.5.9: prohibiteddomainlist (1.1): falls back",
         V11 REC "ACAP-allow-present: /a "
                 "target-condition=prohibiteddomainlist:be,fr\n",
         NULL, NULL, HEED_ACAP_PRESENT, "/a", false, 3},
        {"2.5.5.9: permittedcountrylist (1.1): falls back",
         V11 REC "ACAP-allow-present: /a "
                 "target-condition=permittedcountrylist:BE,FR\n",
         NULL, NULL, HEED_ACAP_PRESENT, "/a", false, 3},
        {"2.5.5.9: prohibitedcountrylist (1.1): falls back",
         V11 REC "ACAP-allow-present: /a "
                 "target-condition=prohibitedcountrylist:BE,FR\n",
         NULL, NULL, HEED_ACAP_PRESENT, "/a", false, 3},
        {"2.5.5.9: rulesref (1.1): falls back",
         V11 REC "ACAP-allow-present: /a target-condition=rulesref:"
                 "http://www.mydomain.com/content-rules/\n",
         NULL, NULL, HEED_ACAP_PRESENT, "/a", false, 3},
        {"2.5.5.8: within-user-frame is 1.1",
         REC "ACAP-allow-present-original: /a "
             "required-context=within-user-frame\n",
         NULL, NULL, HEED_ACAP_PRESENT_ORIGINAL, "/a", true, 0},
        {"2.5.5.5: appearance is 1.1",
         REC "ACAP-allow-present: /a prohibited-modification=appearance\n",
         NULL, NULL, HEED_ACAP_PRESENT, "/a", true, 0},
        {"2.7: a field using a 1.1 definition is ignored",
         "ACAP-qualified-usage: q present target-condition=rulesref:/r\n" REC
         "ACAP-disallow-present: /\nACAP-allow-(q): /a\n",
         NULL, NULL, HEED_ACAP_PRESENT, "/a", false, 3},
};

static void test_versions(void **state)
{
	(void)state;
	run_cases(version_cases, HEED_ARRAY_SIZE(version_cases));
}

static const struct dcase conventional_cases[] = {
        {"2.10: a conventional Disallow means do not crawl",
         "User-agent: *\nDisallow: /private/\n", NULL, NULL, HEED_ACAP_CRAWL,
         "/private/x", false, 2},
        {"2.10: ... and nothing about indexing",
         "User-agent: *\nDisallow: /private/\n", NULL, NULL, HEED_ACAP_INDEX,
         "/private/x", true, 0},
        {"2.10.2: ACAP wins over the same pattern",
         "User-agent: *\nDisallow: /private/\n" REC
         "ACAP-allow-crawl: /private/\n",
         NULL, NULL, HEED_ACAP_CRAWL, "/private/x", true, 4},
        {"2.10.2: both apply to different patterns",
         "User-agent: *\nDisallow: /private/\n" REC
         "ACAP-allow-crawl: /private/a\n",
         NULL, NULL, HEED_ACAP_CRAWL, "/private/a", false, 2},
        {"2.10.2: a * ACAP record does not override a named group",
         "User-agent: heed\nDisallow: /private/\n" REC
         "ACAP-allow-crawl: /private/\n",
         NULL, NULL, HEED_ACAP_CRAWL, "/private/x", false, 2},
        {"2.10.2: a named ACAP record does",
         "User-agent: heed\nDisallow: /private/\n"
         "ACAP-crawler: heed\nACAP-allow-crawl: /private/\n",
         NULL, NULL, HEED_ACAP_CRAWL, "/private/x", true, 4},
        {"2.10.2: an ACAP prohibition with a conventional Allow",
         "User-agent: *\nAllow: /\n" REC "ACAP-disallow-crawl: /\n", NULL, NULL,
         HEED_ACAP_CRAWL, "/x", false, 4},
        {"2.10.1: ignored conventional records",
         "ACAP-ignore-conventional-records\nUser-agent: *\nDisallow: /\n", NULL,
         NULL, HEED_ACAP_CRAWL, "/x", true, 0},
        {"2.10.2: conventional fields inside an ACAP record are ignored",
         "User-agent: *\nAllow: /\n" REC "ACAP-allow-index: /\n"
         "Disallow: /x\n",
         NULL, NULL, HEED_ACAP_CRAWL, "/x", true, 0},
        {"2.10: a User-agent line ends an ACAP record",
         REC "ACAP-allow-crawl: /\nUser-agent: *\nDisallow: /x\n", NULL, NULL,
         HEED_ACAP_CRAWL, "/x", false, 4},
        {"2.10: a named group replaces * (RFC 9309)",
         "User-agent: *\nDisallow: /\nUser-agent: heed\nAllow: /\n", NULL, NULL,
         HEED_ACAP_CRAWL, "/x", true, 0},
        {"2.10: the longest conventional rule wins (RFC 9309)",
         "User-agent: *\nDisallow: /a\nAllow: /a/b\n", NULL, NULL,
         HEED_ACAP_CRAWL, "/a/b", true, 0},
};

static void test_conventional(void **state)
{
	(void)state;
	run_cases(conventional_cases, HEED_ARRAY_SIZE(conventional_cases));
}

struct tcase {
	const char *name;
	const char *txt;
	heed_acap_usage usage;
	int64_t now, first_indexed;
	bool recrawled;
	bool want;
	bool until_recrawled;
	int64_t expires; /* 0: INT64_MAX */
	heed_acap_length_unit unit;
	uint64_t count;
};

/* 2007-12-31 ends in UTC+14 at 2007-12-31 10:00 UTC. */
#define END_2007 (1199145600 - 14 * 3600)

static const struct tcase time_cases[] = {
        {"2.5.3.1: until-recrawled, not yet",
         REC "ACAP-allow-index: /public/ time-limit=until-recrawled\n",
         HEED_ACAP_INDEX, T0, 0, false, true, true, 0},
        {"2.5.3.1: until-recrawled, re-crawled",
         REC "ACAP-allow-index: /public/ time-limit=until-recrawled\n",
         HEED_ACAP_INDEX, T0, 0, true, false},
        {"2.5.3.1: until a date, before it",
         REC "ACAP-allow-index: /public/ time-limit=until-2007-12-31\n",
         HEED_ACAP_INDEX, END_2007 - 1, 0, false, true, false, END_2007},
        {"2.5.3.1: until a date, once over anywhere",
         REC "ACAP-allow-index: /public/ time-limit=until-2007-12-31\n",
         HEED_ACAP_INDEX, END_2007, 0, false, false},
        {"2.5.3.1: n days from first indexed",
         REC "ACAP-allow-index: /public/ time-limit=3-days\n", HEED_ACAP_INDEX,
         T0 + 2 * DAY, T0, false, true, false, T0 + 3 * DAY},
        {"2.5.3.1: n days passed",
         REC "ACAP-allow-index: /public/ time-limit=3-days\n", HEED_ACAP_INDEX,
         T0 + 3 * DAY, T0, false, false},
        {"2.5.3.1: n days, never indexed: from now",
         REC "ACAP-allow-index: /public/ time-limit=3-days\n", HEED_ACAP_INDEX,
         T0, 0, false, true, false, T0 + 3 * DAY},
        {"2.5.3.1 [V1.1]: until-recrawled with n days",
         V11 REC "ACAP-allow-index: /public/ time-limit=until-recrawled "
                 "time-limit=3-days\n",
         HEED_ACAP_INDEX, T0, T0, false, true, true, T0 + 3 * DAY},
        {"2.5.3.1 [V1.1]: ... re-crawled first",
         V11 REC "ACAP-allow-index: /public/ time-limit=until-recrawled "
                 "time-limit=3-days\n",
         HEED_ACAP_INDEX, T0, T0, true, false},
        {"2.5.3.1 [V1.1]: a date with n days: the sooner",
         V11 REC "ACAP-allow-index: /public/ time-limit=3-days "
                 "time-limit=until-2009-09-26\n",
         HEED_ACAP_INDEX, T0, T0, false, true, false, T0 + 2 * DAY - 14 * 3600},
        {"2.5.3.1 [V1.1]: two of a kind: the second is ignored",
         V11 REC
         "ACAP-allow-index: /public/ time-limit=3-days time-limit=1-days\n",
         HEED_ACAP_INDEX, T0, T0, false, true, false, T0 + 3 * DAY},
        {"2.5.3.1 [V1.1]: a third is ignored",
         V11 REC "ACAP-allow-index: /public/ time-limit=3-days "
                 "time-limit=until-recrawled time-limit=1-days\n",
         HEED_ACAP_INDEX, T0, T0, false, true, true, T0 + 3 * DAY},
        {"2.5.3.1 [V1.1]: plus-terms alone: falls back",
         V11 REC "ACAP-allow-index: /public/ time-limit=plus-terms\n",
         HEED_ACAP_INDEX, T0, T0, false, false},
        {"2.5.3.1 [V1.1]: plus-terms with others is ignored",
         V11 REC "ACAP-allow-index: /public/ time-limit=plus-terms "
                 "time-limit=3-days\n",
         HEED_ACAP_INDEX, T0, T0, false, true, false, T0 + 3 * DAY},
        {"2.5.3.1: an impossible date: falls back",
         REC "ACAP-allow-index: /public/ time-limit=until-2007-02-29\n",
         HEED_ACAP_INDEX, T0, 0, false, false},
        {"2.5.4.1: preserve until re-crawled",
         REC "ACAP-allow-preserve: /public/ time-limit=until-recrawled\n",
         HEED_ACAP_PRESERVE, T0, 0, false, true, true, 0},
        {"2.5.4.1: preserve until a date",
         REC "ACAP-allow-preserve: /news/2007/ time-limit=until-2007-12-31\n",
         HEED_ACAP_PRESERVE, T0, 0, false, false},
        {"2.5.4.1: preserve n days",
         REC "ACAP-allow-preserve: /current-news/ time-limit=3-days\n",
         HEED_ACAP_PRESERVE, T0, T0, false, true, false, T0 + 3 * DAY},
        {"2.5.4.1 [V1.1]: preserve with two",
         V11 REC
         "ACAP-allow-preserve: /current-news/ time-limit=until-recrawled "
         "time-limit=3-days\n",
         HEED_ACAP_PRESERVE, T0, T0, false, true, true, T0 + 3 * DAY},
        {"2.5.5.2: present until re-crawled",
         REC "ACAP-allow-present: /public/ time-limit=until-recrawled\n",
         HEED_ACAP_PRESENT, T0, 0, false, true, true, 0},
        {"2.5.5.2: snippets for 3 days",
         REC "ACAP-allow-present-snippet: /news/2007/ time-limit=3-days\n",
         HEED_ACAP_PRESENT_SNIPPET, T0, T0, false, true, false, T0 + 3 * DAY},
        {"2.5.5.2 [V1.1]: current copy with two",
         V11 REC
         "ACAP-allow-present-currentcopy: /news/ time-limit=until-recrawled "
         "time-limit=3-days\n",
         HEED_ACAP_PRESENT_CURRENTCOPY, T0, T0, false, true, true,
         T0 + 3 * DAY},
        {"2.5.5.4: snippets of at most 250 characters",
         REC "ACAP-allow-present-snippet: /news/ max-length=250-chars\n",
         HEED_ACAP_PRESENT_SNIPPET, T0, 0, false, true, false, 0,
         HEED_ACAP_LENGTH_CHARS, 250},
        {"2.5.5.4 [V1.1]: a second max-length is ignored",
         V11 REC "ACAP-allow-present-oldsnippet: /news/ max-length=20-words "
                 "max-length=5-words\n",
         HEED_ACAP_PRESENT_OLDSNIPPET, T0, 0, false, true, false, 0,
         HEED_ACAP_LENGTH_WORDS, 20},
        {"2.7.1: my-present-snippet",
         "ACAP-qualified-usage: my-present-snippet present-snippet "
         "time-limit=5-days max-length=250-chars\n" REC
         "ACAP-allow-(my-present-snippet): /public/\n",
         HEED_ACAP_PRESENT_SNIPPET, T0, T0, false, true, false, T0 + 5 * DAY,
         HEED_ACAP_LENGTH_CHARS, 250},
        {"2.7.2: my-default-present gives 30-word snippets",
         "ACAP-qualified-usage: present-30-word-snippet present-snippet "
         "max-length=30-words\n"
         "ACAP-composite-usage: my-default-present "
         "(present-30-word-snippet) present-thumbnail\n" REC
         "ACAP-allow-(my-default-present): /public/\n",
         HEED_ACAP_PRESENT_SNIPPET, T0, 0, false, true, false, 0,
         HEED_ACAP_LENGTH_WORDS, 30},
        {"2.7.2: ... and unqualified thumbnails",
         "ACAP-qualified-usage: present-30-word-snippet present-snippet "
         "max-length=30-words\n"
         "ACAP-composite-usage: my-default-present "
         "(present-30-word-snippet) present-thumbnail\n" REC
         "ACAP-disallow-present: /\n"
         "ACAP-allow-(my-default-present): /public/\n",
         HEED_ACAP_PRESENT_THUMBNAIL, T0, 0, false, true},
        {"2.4.6: tied permissions bind the tighter limits",
         REC "ACAP-allow-index: /a time-limit=5-days\n"
             "ACAP-allow-index: /a time-limit=2-days\n",
         HEED_ACAP_INDEX, T0, T0, false, true, false, T0 + 2 * DAY},
        {"2.4.6: the narrower permission's limits bind",
         REC "ACAP-allow-index: /a time-limit=5-days\n"
             "ACAP-allow-index: /a/b\n",
         HEED_ACAP_INDEX, T0, T0, false, true},
};

static void test_time_limits(void **state)
{
	(void)state;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(time_cases); i++) {
		const struct tcase *c = &time_cases[i];
		struct heed_acap_history h = {c->first_indexed, c->recrawled};
		heed_acap *r = parse(c->txt);
		struct heed_acap_decision *d;
		const char *path =
		        strstr(c->txt, "/public/")         ? "/public/x"
		        : strstr(c->txt, "/news/2007/")    ? "/news/2007/x"
		        : strstr(c->txt, "/news/")         ? "/news/x"
		        : strstr(c->txt, "/current-news/") ? "/current-news/x"
		                                           : "/a/b";
		int64_t expires = c->expires ? c->expires : INT64_MAX;

		d = decide_at(r, "heed", NULL, c->usage, path, c->now, &h);
		if (d->permitted != c->want ||
		    (c->want &&
		     (d->time_limit.until_recrawled != c->until_recrawled ||
		      d->time_limit.expires != expires ||
		      d->max_length.unit != c->unit ||
		      d->max_length.count != c->count))) {
			print_chain(d);
			fail_msg("%s: permitted %d recrawled %d expires %lld "
			         "length %d/%llu",
			         c->name, d->permitted,
			         d->time_limit.until_recrawled,
			         (long long)d->time_limit.expires,
			         d->max_length.unit,
			         (unsigned long long)d->max_length.count);
		}
		if (d->permitted)
			assert_int_equal(d->time_limit.present,
			                 c->until_recrawled ||
			                         expires != INT64_MAX);
		heed_acap_decision_free(d);
		heed_acap_free(r);
	}
}

/* Authors' mistakes read the way that does the less: what heed cannot
 * interpret is a prohibition (2.4.3), never ignored. */
static const struct dcase authors_mistakes_cases[] = {
        {"section 3: '#' glued to a purpose begins a comment: the "
         "sub-record's prohibition binds purpose news (fails before)",
         REC "ACAP-allow-index: /\nACAP-usage-purpose: news#old service\n"
             "ACAP-disallow-index: /\n",
         "heed", "news", HEED_ACAP_INDEX, "/a", false, 4},
        {"... and, in doubt, the purpose as written",
         REC "ACAP-allow-index: /\nACAP-usage-purpose: news#old service\n"
             "ACAP-disallow-index: /\n",
         "heed", "news#old", HEED_ACAP_INDEX, "/a", false, 4},
        {"... but no other purpose",
         REC "ACAP-allow-index: /\nACAP-usage-purpose: news#old service\n"
             "ACAP-disallow-index: /\n",
         "heed", "news#new", HEED_ACAP_INDEX, "/a", true, 2},
        {"section 3: a comment after a purpose URI, spaced",
         REC "ACAP-allow-index: /\n"
             "ACAP-usage-purpose: http://x.org/p # the p service\n"
             "ACAP-disallow-index: /\n",
         "heed", "http://x.org/p", HEED_ACAP_INDEX, "/a", false, 4},
        {"2.3.3: a purpose line without a pattern: its permission is "
         "ignored",
         REC "ACAP-disallow-index: /\nACAP-usage-purpose: #news\n"
             "ACAP-allow-index: /a\n",
         "heed", "news", HEED_ACAP_INDEX, "/a", false, 2},
        {"... and its prohibition binds every purpose",
         REC "ACAP-usage-purpose: #news\nACAP-disallow-index: /a\n", "heed",
         "other", HEED_ACAP_INDEX, "/a", false, 3},
        {"2.4.3 + 2.8: a mistyped second time-limit without a version is "
         "a prohibition, not ignored (fails before)",
         REC "ACAP-allow-index: /\n"
             "ACAP-allow-index: /news/ time-limit=until-recrawled "
             "time-limit=7-dys\n",
         "heed", NULL, HEED_ACAP_INDEX, "/news/a", false, 3},
        {"2.4.3: a mistyped time-limit value",
         REC "ACAP-allow-index: /\nACAP-allow-index: /news/ "
             "time-limit=7-dys\n",
         "heed", NULL, HEED_ACAP_INDEX, "/news/a", false, 3},
        {"2.4.3: a mistyped time-limit name",
         REC "ACAP-allow-index: /\nACAP-allow-index: /news/ "
             "time-limt=7-days\n",
         "heed", NULL, HEED_ACAP_INDEX, "/news/a", false, 3},
        {"2.4.3: a time-limit without '='",
         REC "ACAP-allow-index: /\nACAP-allow-index: /news/ "
             "time-limit:7-days\n",
         "heed", NULL, HEED_ACAP_INDEX, "/news/a", false, 3},
        {"2.4.3: a mistyped time-limit in a qualified usage",
         "ACAP-qualified-usage: short index time-limit=7-dys\n" REC
         "ACAP-allow-index: /\nACAP-allow-(short): /news/\n",
         "heed", NULL, HEED_ACAP_INDEX, "/news/a", false, 4},
        {"2.9: a '$' before the end is a character",
         REC "ACAP-disallow-index: /a$b\n", "heed", NULL, HEED_ACAP_INDEX,
         "/a$bc", false, 2},
        {"... and not the end of the pattern",
         REC "ACAP-disallow-index: /a$b\n", "heed", NULL, HEED_ACAP_INDEX, "/a",
         true, 0},
};

static void test_authors_mistakes(void **state)
{
	(void)state;
	run_cases(authors_mistakes_cases,
	          HEED_ARRAY_SIZE(authors_mistakes_cases));
}

struct diag_case {
	const char *name;
	const char *txt;
	unsigned line;
	heed_acap_severity severity;
	const char *contains;
};

static const struct diag_case diag_cases[] = {
        {"2.3: a record without fields",
         "ACAP-crawler: a\nACAP-crawler: b\nUser-agent: *\nDisallow: /\n", 1,
         HEED_ACAP_ERROR, "record has no fields"},
        {"2.3: ... at the end of the file",
         REC "ACAP-allow-crawl: /\nACAP-crawler: a\n", 3, HEED_ACAP_ERROR,
         "record has no fields"},
        {"2.3: a sub-record without fields",
         REC "ACAP-usage-purpose: news\nACAP-usage-purpose: sport\n"
             "ACAP-crawler: a\nACAP-allow-crawl: /\n",
         2, HEED_ACAP_ERROR, "sub-record has no permission"},
        {"2.6: a wildcard in a take-down",
         REC "ACAP-request-take-down: /a/*.pdf\n", 2, HEED_ACAP_ERROR,
         "takes down everything under '/a/'"},
        {"2.6: a wildcard in a re-crawl", REC "ACAP-request-re-crawl: /a*\n", 2,
         HEED_ACAP_ERROR, "re-crawl request is ignored"},
        {"2.6: a final '$' in a request",
         REC "ACAP-request-re-crawl: /a.htm$\n", 2, HEED_ACAP_ERROR,
         "heed reads '/a.htm'"},
        {"2.9: '$' before a pattern's end", REC "ACAP-disallow-index: /a$b\n",
         2, HEED_ACAP_ERROR, "'$' may only end a pattern"},
        {"2.9: ... in a resource set",
         "ACAP-resource-set: s /x /a$b\n" REC
         "ACAP-disallow-index: the-acap:resource-set:s\n",
         1, HEED_ACAP_ERROR, "'$' may only end a pattern"},
        {"2.4.3: a mistyped time-limit name",
         REC "ACAP-allow-index: /a time_limit=7-days\n", 2, HEED_ACAP_ERROR,
         "did you mean time-limit?"},
        {"2.4.3: a mistyped time-limit value",
         REC "ACAP-allow-index: /a time-limit=7-dys\n", 2, HEED_ACAP_ERROR,
         "read as prohibitions (2.4.3)"},
        {"section 3: '#' glued to a purpose",
         REC "ACAP-usage-purpose: news#old\nACAP-disallow-index: /\n", 2,
         HEED_ACAP_WARNING, "'#' begins a comment"},
        {"2.3.3: a purpose line that is all comment",
         REC "ACAP-usage-purpose: #news\nACAP-disallow-index: /\n", 2,
         HEED_ACAP_ERROR, "cannot tell which purposes"},
        {"2.2.1: definitions come before records",
         REC "ACAP-allow-crawl: /\nACAP-resource-set: s /a\n", 3,
         HEED_ACAP_ERROR, "before all ACAP records"},
        {"2.8: the version comes first",
         REC "ACAP-allow-crawl: /\nACAP-version: 1.1\n", 3, HEED_ACAP_WARNING,
         "must precede"},
        {"2.8: a second version", V11 "ACAP-version: 1.1\n", 2, HEED_ACAP_ERROR,
         "second ACAP-version"},
        {"2.8: not a version", "ACAP-version: one\n", 1, HEED_ACAP_ERROR,
         "not a version number"},
        {"2.10.1: ignore-conventional before definitions",
         "ACAP-resource-set: s /a\nACAP-ignore-conventional-records\n", 2,
         HEED_ACAP_WARNING, "must come before"},
        {"2.4.2: no qualifiers on prohibitions",
         REC "ACAP-disallow-index: /a time-limit=3-days\n", 2, HEED_ACAP_ERROR,
         "may not contain qualifiers"},
        {"section 3: no composite in a prohibition",
         "ACAP-composite-usage: c crawl\n" REC "ACAP-disallow-(c): /\n", 3,
         HEED_ACAP_ERROR, "may not name a locally-defined usage"},
        {"section 3: no two usages share a name",
         "ACAP-qualified-usage: u index time-limit=3-days\n"
         "ACAP-composite-usage: U crawl\n",
         2, HEED_ACAP_ERROR, "already defined"},
        {"section 3: resource set names are case-insensitive",
         "ACAP-resource-set: Images *.gif\nACAP-resource-set: images "
         "*.png\n",
         2, HEED_ACAP_ERROR, "already defined"},
        {"section 3: a name starts with a letter", "ACAP-resource-set: 9s /a\n",
         1, HEED_ACAP_ERROR, "not a valid name"},
        {"2.7: an undefined local usage", REC "ACAP-allow-(x): /\n", 2,
         HEED_ACAP_ERROR, "not defined above"},
        {"2.4.5: an undefined resource set",
         REC "ACAP-allow-index: the-acap:resource-set:x\n", 2, HEED_ACAP_ERROR,
         "not defined above"},
        {"2.3.2: nothing after a permissions reference",
         REC "ACAP-permissions-reference: /a.txt\nACAP-allow-crawl: /\n", 3,
         HEED_ACAP_ERROR, "may follow ACAP-permissions-reference"},
        {"2.3.2: a circular permissions reference",
         REC "ACAP-permissions-reference: http://example.org/robots.txt\n", 2,
         HEED_ACAP_ERROR, "circular"},
        {"2.3: no action requests in sub-records",
         REC "ACAP-usage-purpose: news\nACAP-allow-index: /\n"
             "ACAP-request-re-crawl: /a\n",
         4, HEED_ACAP_ERROR, "may not contain action requests"},
        {"2.3.1: * alone", "ACAP-crawler: *\nACAP-crawler: heed\n", 2,
         HEED_ACAP_ERROR, "must not name others"},
        {"2.3: fields need a record", "ACAP-allow-crawl: /\n", 1,
         HEED_ACAP_ERROR, "outside an ACAP record"},
        {"2.10.2: ACAP fields in conventional records",
         "User-agent: *\nACAP-disallow-crawl: /\n", 2, HEED_ACAP_ERROR,
         "outside an ACAP record"},
        {"unknown ACAP field", REC "ACAP-forbid-crawl: /\n", 2,
         HEED_ACAP_WARNING, "not an ACAP field"},
        {"2.6: unknown action", REC "ACAP-request-delete: /a\n", 2,
         HEED_ACAP_WARNING, "not an ACAP action"},
        {"Annex A: max-length qualifies snippets only",
         REC "ACAP-allow-index: /a max-length=3-words\n", 2, HEED_ACAP_ERROR,
         "does not apply"},
        {"Annex A: unknown qualifier", REC "ACAP-allow-index: /a x=y\n", 2,
         HEED_ACAP_ERROR, "not a qualifier type"},
        {"Annex A: bad value",
         REC "ACAP-allow-present-snippet: /a "
             "max-length=many\n",
         2, HEED_ACAP_ERROR, "not a valid value"},
        {"2.4.1.2: a qualifier needs a value",
         REC "ACAP-allow-index: /a time-limit\n", 2, HEED_ACAP_ERROR,
         "not a qualifier"},
        {"2.5.5.4: a repeated max-length is ignored",
         V11 REC "ACAP-allow-present-snippet: /a max-length=3-words "
                 "max-length=4-words\n",
         3, HEED_ACAP_NOTE, "only the first"},
        {"2.5.5.5: any overrides other modifications",
         REC "ACAP-allow-present: /a prohibited-modification=style "
             "prohibited-modification=any\n",
         2, HEED_ACAP_NOTE, "overrides other values"},
        {"2.5.5.9: rulesref alone",
         V11 REC "ACAP-allow-present: /a target-condition=rulesref:/r "
                 "target-condition=permitteddomainlist:be\n",
         3, HEED_ACAP_NOTE, "rulesref must be the only"},
        {"2.8: 1.1 features without a version",
         REC "ACAP-allow-index: /a time-limit=plus-terms\n", 2, HEED_ACAP_NOTE,
         "ACAP 1.1 features"},
        {"2.10.3: the comment does not enable 1.1",
         "##ACAP version=1.1\n" REC "ACAP-allow-crawl: /\n", 0,
         HEED_ACAP_WARNING, "only an ACAP-version field"},
        {"2.10.3: the comment comes first",
         "User-agent: *\n##ACAP version=1.0\n", 2, HEED_ACAP_NOTE,
         "recommended to come before"},
        {"section 3: a missing colon", REC "ACAP-allow-crawl /\n", 2,
         HEED_ACAP_WARNING, "':' is missing"},
        {"2.3.3: a purpose is one word",
         REC "ACAP-usage-purpose: http://news.search.* /\n", 2,
         HEED_ACAP_WARNING, "one word"},
        {"2.10.2: conventional fields inside ACAP records",
         REC "ACAP-allow-crawl: /\nDisallow: /x\n", 3, HEED_ACAP_WARNING,
         "ignored (2.10.2)"},
        {"2.7.2: a composite names qualified usages only",
         "ACAP-composite-usage: a crawl\nACAP-composite-usage: b (a)\n", 2,
         HEED_ACAP_ERROR, "not the composite"},
        {"2.4.4: an empty resource", REC "ACAP-allow-crawl:\n", 2,
         HEED_ACAP_ERROR, "empty resource"},
        {"2.4.4: an absolute URI is not a path",
         REC "ACAP-allow-crawl: http://example.org/a\n", 2, HEED_ACAP_ERROR,
         "not a path"},
        {"2.4.4: a path without its slash", REC "ACAP-allow-crawl: news/\n", 2,
         HEED_ACAP_WARNING, "does not start with '/'"},
        {"2.5: an unknown usage", REC "ACAP-disallow-archive: /\n", 2,
         HEED_ACAP_ERROR, "not an ACAP usage type"},
        {"2.5.6.1: allow-other without usage-ref", REC "ACAP-allow-other: /\n",
         2, HEED_ACAP_ERROR, "usage-ref"},
        {"2.7.1: a qualified usage of an unknown usage",
         "ACAP-qualified-usage: q archive time-limit=3-days\n", 1,
         HEED_ACAP_ERROR, "not an ACAP usage type"},
};

static void test_diagnostics(void **state)
{
	(void)state;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(diag_cases); i++) {
		const struct diag_case *c = &diag_cases[i];
		heed_acap *r = parse(c->txt);
		bool found = false;
		unsigned last = 0;

		for (size_t k = 0; k < heed_acap_diag_count(r); k++) {
			const struct heed_acap_diag *d =
			        heed_acap_diag_get(r, k);
			found |= d->line == c->line &&
			         d->severity == c->severity &&
			         strstr(d->message, c->contains) != NULL;
			assert_true(d->line >= last || d->line == 0);
			last = d->line ? d->line : last;
		}
		if (!found) {
			for (size_t k = 0; k < heed_acap_diag_count(r); k++)
				print_message(
				        "  %u %s: %s\n",
				        heed_acap_diag_get(r, k)->line,
				        heed_acap_severity_name(
				                heed_acap_diag_get(r, k)
				                        ->severity),
				        heed_acap_diag_get(r, k)->message);
			fail_msg("%s: no %s on line %u containing '%s'",
			         c->name, heed_acap_severity_name(c->severity),
			         c->line, c->contains);
		}
		heed_acap_free(r);
	}
}

/* A clean file gets no diagnostics at all. */
static void test_clean_file(void **state)
{
	heed_acap *r;

	(void)state;
	r = parse(
	        "##ACAP version=1.1\nACAP-version: 1.1\n"
	        "ACAP-ignore-conventional-records\n"
	        "ACAP-resource-set: s /a/ /b/\n"
	        "ACAP-qualified-usage: q present-snippet max-length=9-words "
	        "time-limit=until-recrawled time-limit=3-days\n"
	        "ACAP-composite-usage: c crawl (q) index\n"
	        "ACAP-crawler: heed\nACAP-allow-(c): the-acap:resource-set:s\n"
	        "ACAP-disallow-other: /\nACAP-request-take-down: /gone\n"
	        "ACAP-usage-purpose: news\nACAP-disallow-index: /b/\n");
	for (size_t k = 0; k < heed_acap_diag_count(r); k++)
		print_message("  %u: %s\n", heed_acap_diag_get(r, k)->line,
		              heed_acap_diag_get(r, k)->message);
	assert_int_equal(heed_acap_diag_count(r), 0);
	heed_acap_free(r);
}

/* 2.6: requests for the crawler, by name and for any crawler. */
static void test_requests(void **state)
{
	static const char txt[] =
	        "ACAP-crawler: *\n"
	        "ACAP-request-take-down: /news/bad-story.htm\n"
	        "ACAP-crawler: heed\n"
	        "ACAP-request-re-crawl: /news/fixed.htm\n"
	        "ACAP-allow-crawl: /\n"
	        "ACAP-usage-purpose: news\n"
	        "ACAP-allow-index: /\n"
	        "ACAP-request-take-down: /in-sub-record\n"
	        "ACAP-crawler: other\n"
	        "ACAP-request-re-crawl: /other\n";
	struct heed_acap_request req[4];
	heed_acap *r = parse(txt);
	size_t n;

	(void)state;
	n = heed_acap_requests(r, "heed", req, HEED_ARRAY_SIZE(req));
	assert_int_equal(n, 2);
	assert_int_equal(req[0].action, HEED_ACAP_TAKE_DOWN);
	assert_string_equal(req[0].path, "/news/bad-story.htm");
	assert_int_equal(req[0].line, 2);
	assert_int_equal(req[1].action, HEED_ACAP_RE_CRAWL);
	assert_string_equal(req[1].path, "/news/fixed.htm");
	assert_int_equal(heed_acap_requests(r, "slurp", NULL, 0), 1);
	assert_int_equal(heed_acap_requests(r, "heed", req, 1), 2);
	heed_acap_free(r);
}

/* A request names one resource (2.6; section 3 keeps '*' and '$' for
 * patterns). A take-down with a wildcard takes down the folder before it; a
 * re-crawl with one is ignored; a final '$' is dropped. */
static void test_requests_with_wildcards(void **state)
{
	static const char txt[] = "ACAP-crawler: *\n"
	                          "ACAP-request-take-down: /a/b*.pdf\n"
	                          "ACAP-request-re-crawl: /c/*\n"
	                          "ACAP-request-take-down: /d.htm$\n"
	                          "ACAP-request-take-down: /*.pdf\n";
	struct heed_acap_request req[4];
	heed_acap *r = parse(txt);

	(void)state;
	assert_int_equal(heed_acap_requests(r, "heed", req, 4), 3);
	assert_string_equal(req[0].path, "/a/");
	assert_int_equal(req[0].action, HEED_ACAP_TAKE_DOWN);
	assert_string_equal(req[1].path, "/d.htm");
	assert_int_equal(req[1].line, 4);
	assert_string_equal(req[2].path, "/");
	heed_acap_free(r);
}

/* The accessors a linter or lister uses. */
static void test_accessors(void **state)
{
	heed_acap *r = parse(spec_2_1);
	const struct heed_acap_field *f;
	unsigned major, minor;
	bool declared;

	(void)state;
	assert_true(heed_acap_present(r));
	assert_false(heed_acap_ignores_conventional(r));
	assert_string_equal(heed_acap_comment_version(r), "1.0");
	heed_acap_version(r, &major, &minor, &declared);
	assert_int_equal(major, 1);
	assert_int_equal(minor, 0);
	assert_false(declared);
	assert_int_equal(heed_acap_record_count(r), 2);
	assert_true(heed_acap_record_names(r, 0, "*"));
	assert_false(heed_acap_record_names(r, 0, "heed"));
	assert_true(heed_acap_record_names(r, 1, "NAMED-CRAWLER"));
	assert_int_equal(heed_acap_field_count(r), 2);
	f = heed_acap_field_get(r, 1);
	assert_int_equal(f->line, 23);
	assert_int_equal(f->kind, HEED_ACAP_FIELD_ALLOW);
	assert_string_equal(f->usage, "(basic-usages)");
	assert_string_equal(f->resource, "the-acap:resource-set:crawlable");
	assert_int_equal(f->record, 1);
	assert_false(f->in_subrecord);
	assert_null(heed_acap_field_get(r, 2));
	assert_null(heed_acap_diag_get(r, heed_acap_diag_count(r)));
	heed_acap_free(r);

	r = parse("User-agent: *\nDisallow: /\n");
	assert_false(heed_acap_present(r));
	heed_acap_free(r);
}

static void test_names(void **state)
{
	heed_acap_usage u;

	(void)state;
	for (unsigned i = 0; i < HEED_ACAP_USAGE_COUNT; i++) {
		const char *name = heed_acap_usage_name(i);
		assert_true(heed_acap_usage_from_name(name, strlen(name), &u));
		assert_int_equal(u, i);
	}
	assert_true(heed_acap_usage_from_name("Present-Snippet", 15, &u));
	assert_int_equal(heed_acap_usage_basic(u), HEED_ACAP_PRESENT);
	assert_int_equal(heed_acap_usage_basic(HEED_ACAP_OTHER),
	                 HEED_ACAP_OTHER);
	assert_false(heed_acap_usage_from_name("present-", 8, &u));
	assert_null(heed_acap_usage_name(HEED_ACAP_USAGE_COUNT));
	assert_string_equal(heed_acap_qualifier_name(HEED_ACAP_Q_USAGE_REF),
	                    "usage-ref");
	assert_true(HEED_ACAP_INTERPRETED_QUALIFIERS &
	            (1u << HEED_ACAP_Q_TIME_LIMIT));
	assert_false(HEED_ACAP_INTERPRETED_QUALIFIERS &
	             (1u << HEED_ACAP_Q_MUST_USE_RESOURCE));
}

static void test_bad_arguments(void **state)
{
	heed_acap *r = NULL;
	struct heed_acap_decision *d = NULL;

	(void)state;
	assert_int_equal(heed_acap_parse(NULL, NULL, "", 0), HEED_EINVAL);
	assert_int_equal(heed_acap_parse(&r, NULL, NULL, 3), HEED_EINVAL);
	assert_int_equal(heed_acap_parse(&r, heed_test_allocator(), NULL, 0),
	                 HEED_OK);
	assert_int_equal(heed_acap_decide(r, NULL, NULL, 0, HEED_ACAP_CRAWL,
	                                  "/", 0, NULL, &d),
	                 HEED_EINVAL);
	assert_int_equal(heed_acap_decide(r, "heed", NULL, 1, HEED_ACAP_CRAWL,
	                                  "/", 0, NULL, &d),
	                 HEED_EINVAL);
	assert_int_equal(heed_acap_decide(r, "heed", NULL, 0,
	                                  HEED_ACAP_USAGE_COUNT, "/", 0, NULL,
	                                  &d),
	                 HEED_EINVAL);
	assert_null(d);
	heed_acap_free(r);
	heed_acap_free(NULL);
	heed_acap_decision_free(NULL);
}

/* Every allocation of parse and decide fails in turn: each failure is
 * HEED_ENOMEM and leaks nothing (the allocator checks). */
static void test_oom(void **state)
{
	const char *const purposes[] = {"news"};
	heed_status rc;

	(void)state;
	for (unsigned long n = 0;; n++) {
		struct heed_test_fail f = {.fail_at = n};
		const struct heed_allocator *a =
		        heed_test_failing_allocator(&f);
		heed_acap *r = NULL;
		struct heed_acap_decision *d = NULL;

		rc = heed_acap_parse(&r, a, spec_2_1, strlen(spec_2_1));
		if (rc == HEED_OK)
			rc = heed_acap_decide(r, "named-crawler", purposes, 1,
			                      HEED_ACAP_CRAWL, "/public/x", T0,
			                      NULL, &d);
		heed_acap_decision_free(d);
		heed_acap_free(r);
		if (rc == HEED_OK)
			break;
		assert_int_equal(rc, HEED_ENOMEM);
		assert_true(n < 100000);
	}
}

/* A 500 KiB file of definitions and records parses completely, without a
 * diagnostic, in memory proportional to its size (the time is measured by
 * bench/bench_acap, never asserted here). */
static void test_large_file(void **state)
{
	size_t len = 0, held;
	unsigned records = 0;
	char *txt = acap_gen(HEED_ROBOTS_PARSE_LIMIT_BYTES, &len, &records);
	heed_acap *r = NULL;
	struct heed_acap_decision *d;
	const char *news[] = {"news7"};

	(void)state;
	assert_non_null(txt);
	assert_true(len > HEED_ROBOTS_PARSE_LIMIT_BYTES - 200);
	assert_int_equal(heed_acap_parse(&r, heed_test_allocator(), txt, len),
	                 HEED_OK);
	for (size_t k = 0; k < heed_acap_diag_count(r) && k < 5; k++)
		print_message("  %u: %s\n", heed_acap_diag_get(r, k)->line,
		              heed_acap_diag_get(r, k)->message);
	assert_int_equal(heed_acap_diag_count(r), 0);
	assert_int_equal(heed_acap_record_count(r), records);
	assert_int_equal(heed_acap_field_count(r), 3 * (size_t)records);
	held = r->arena.used_bytes + r->fields.cap * sizeof(struct acap_field) +
	       r->records.cap * sizeof(struct acap_record) +
	       r->names.cap * sizeof(char *) + r->defs.cap * 32;
	print_message("  %zu bytes, %u records: %zu bytes held\n", len, records,
	              held);
	assert_true(held < 16 * len);

	assert_int_equal(heed_acap_decide(r, "bot1007", news, 1,
	                                  HEED_ACAP_PRESENT_SNIPPET,
	                                  "/d7/a/page", T0, NULL, &d),
	                 HEED_OK);
	assert_false(d->permitted); /* the sub-record for news7 */
	heed_acap_decision_free(d);
	assert_int_equal(heed_acap_decide(r, "bot1007", NULL, 0,
	                                  HEED_ACAP_PRESENT_SNIPPET,
	                                  "/d7/a/page", T0, NULL, &d),
	                 HEED_OK);
	assert_true(d->permitted); /* (q7) through c7 */
	assert_int_equal(d->max_length.unit, HEED_ACAP_LENGTH_WORDS);
	assert_int_equal(d->max_length.count, 7);
	heed_acap_decision_free(d);
	heed_acap_free(r);
	free(txt);
}

/* Annex A: each qualifier's value grammar, usage types and version. */
static void test_qualifier_values(void **state)
{
	enum { Q_BAD, Q_10, Q_11 };
	static const struct {
		heed_acap_usage usage;
		const char *quals;
		int want;           /* Q_BAD: an error diagnostic */
		bool interpretable; /* when not Q_BAD */
	} cases[] = {
	        {HEED_ACAP_INDEX, "time-limit=until-recrawled", Q_10, true},
	        {HEED_ACAP_INDEX, "time-limit = until-recrawled", Q_10, true},
	        {HEED_ACAP_INDEX, "TIME-LIMIT=UNTIL-2009-12-31", Q_10, true},
	        {HEED_ACAP_INDEX, "time-limit=until-2009-13-01", Q_BAD},
	        {HEED_ACAP_INDEX, "time-limit=until-2009-1-01", Q_BAD},
	        {HEED_ACAP_INDEX, "time-limit=0-days", Q_10, true},
	        {HEED_ACAP_INDEX, "time-limit=-3-days", Q_BAD},
	        {HEED_ACAP_INDEX, "time-limit=plus-terms", Q_11, false},
	        {HEED_ACAP_CRAWL, "time-limit=3-days", Q_BAD},
	        {HEED_ACAP_PRESENT_LINK, "time-limit=3-days", Q_10, true},
	        {HEED_ACAP_PRESENT_SNIPPET, "max-length=250-chars", Q_10, true},
	        {HEED_ACAP_PRESENT_OLDSNIPPET, "max-length=30-words", Q_10,
	         true},
	        {HEED_ACAP_PRESENT_SNIPPET, "max-length=250", Q_BAD},
	        {HEED_ACAP_INDEX, "max-length=250-chars", Q_BAD},
	        {HEED_ACAP_INDEX, "must-use-resource=/idx.txt", Q_10, false},
	        {HEED_ACAP_INDEX, "must-use-resource=the-acap:extract:id:main",
	         Q_10, false},
	        {HEED_ACAP_INDEX,
	         "must-use-resource=the-acap:extract:meta:description", Q_10,
	         false},
	        {HEED_ACAP_INDEX,
	         "must-use-resource=the-acap:extract:idlist:a,b", Q_11, false},
	        {HEED_ACAP_INDEX,
	         "must-use-resource=the-acap:extract:classlist:a,b", Q_11,
	         false},
	        {HEED_ACAP_INDEX, "must-use-resource=the-acap:text:hello%20you",
	         Q_11, false},
	        {HEED_ACAP_INDEX, "must-use-resource=the-acap:extract:bogus:x",
	         Q_BAD},
	        {HEED_ACAP_PRESENT_ORIGINAL, "must-use-resource=/x", Q_BAD},
	        {HEED_ACAP_PRESENT, "must-include-resource=plus-terms", Q_11,
	         false},
	        {HEED_ACAP_PRESENT,
	         "must-include-resource=the-acap:license-link:http://x.org/l",
	         Q_11, false},
	        {HEED_ACAP_PRESENT_SNIPPET,
	         "must-include-resource=the-acap:link:class:c", Q_10, false},
	        {HEED_ACAP_PRESENT,
	         "must-include-resource=the-acap:extract:text:abc", Q_11,
	         false},
	        {HEED_ACAP_PRESENT, "must-include-resource=the-acap:nope:id:x",
	         Q_BAD},
	        {HEED_ACAP_PRESENT, "must-include-resource=http://x.org/c",
	         Q_10, false},
	        {HEED_ACAP_PRESENT, "prohibited-modification=translation", Q_10,
	         false},
	        {HEED_ACAP_PRESENT_OLDCOPY, "prohibited-modification=structure",
	         Q_11, false},
	        {HEED_ACAP_PRESENT, "prohibited-modification=colour", Q_BAD},
	        {HEED_ACAP_PRESENT_SNIPPET, "prohibited-modification=any",
	         Q_BAD},
	        {HEED_ACAP_PRESENT_ORIGINAL,
	         "prohibited-context=within-user-frame", Q_10, false},
	        {HEED_ACAP_PRESENT_CURRENTCOPY,
	         "required-context=within-original-frame", Q_10, false},
	        {HEED_ACAP_PRESENT_CURRENTCOPY,
	         "required-context=within-user-frame", Q_11, false},
	        {HEED_ACAP_PRESENT, "target-condition=permitteddomainlist:be",
	         Q_11, false},
	        {HEED_ACAP_PRESENT, "target-condition=be,fr", Q_BAD},
	        {HEED_ACAP_PRESENT_LINK, "target-condition=rulesref:/r", Q_BAD},
	        {HEED_ACAP_OTHER, "usage-ref=http://x.org/terms", Q_11, false},
	        {HEED_ACAP_OTHER,
	         "usage-ref=the-acap:permission-link:meta:perm", Q_11, false},
	        {HEED_ACAP_OTHER, "usage-ref=the-acap:menu:id:x", Q_BAD},
	        {HEED_ACAP_INDEX, "must-use-resource=/a\"b", Q_BAD},
	        {HEED_ACAP_INDEX, "colour=blue", Q_BAD},
	        {HEED_ACAP_INDEX, "time-limit", Q_BAD},
	};
	(void)state;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(cases); i++) {
		heed_acap *r = parse("");
		struct acap_qualset qs;
		int got;

		assert_int_equal(heed__acap_quals_parse(r, cases[i].quals,
		                                        strlen(cases[i].quals),
		                                        1, cases[i].usage, &qs),
		                 HEED_OK);
		got = heed_acap_diag_count(r) > 0 ? Q_BAD
		      : qs.v11                    ? Q_11
		                                  : Q_10;
		if (got != cases[i].want ||
		    (got != Q_BAD &&
		     qs.interpretable != cases[i].interpretable))
			fail_msg("%s on %s: got %d interpretable %d",
			         cases[i].quals,
			         heed_acap_usage_name(cases[i].usage), got,
			         qs.interpretable);
		if (got == Q_BAD)
			assert_false(qs.interpretable);
		heed_acap_free(r);
	}
}

/* 2.3.2: a "*" record's reference speaks only to crawlers no record
 * names. */
static void test_reference_applies_star(void **state)
{
	heed_acap *r = parse("ACAP-crawler: *\n"
	                     "ACAP-permissions-reference: /all.txt\n"
	                     "ACAP-crawler: otherbot\n"
	                     "ACAP-disallow-crawl: /x\n");

	(void)state;
	assert_true(heed_acap_reference_applies(r, 0, "heed"));
	assert_false(heed_acap_reference_applies(r, 0, "otherbot"));
	assert_false(heed_acap_reference_applies(NULL, 0, "heed"));
	assert_false(heed_acap_reference_applies(r, 0, NULL));
	heed_acap_free(r);
}

/* 2.3.2: a permissions reference, followed. */
static void test_references(void **state)
{
	static const char main_txt[] =
	        "ACAP-qualified-usage: q index time-limit=3-days\n"
	        "ACAP-crawler: *\n"
	        "ACAP-disallow-index: /\n"
	        "ACAP-crawler: searchbot\n"
	        "ACAP-permissions-reference: /searchbot.txt\n";
	static const char ref_txt[] =
	        "ACAP-version: 1.1\n"
	        "ACAP-crawler: *\n"
	        "ACAP-allow-(q): /news/\n"
	        "ACAP-allow-index: /a time-limit=until-recrawled "
	        "time-limit=3-days\n"
	        "ACAP-permissions-reference: /other.txt\n"
	        "ACAP-request-take-down: /gone\n"
	        "User-agent: *\n"
	        "Disallow: /news/\n";
	heed_acap *r = parse(main_txt);
	struct heed_acap_decision *d;
	bool circular = false;

	(void)state;
	assert_int_equal(heed_acap_reference_count(r), 1);
	assert_string_equal(heed_acap_reference_get(r, 0), "/searchbot.txt");
	assert_null(heed_acap_reference_get(r, 1));
	/* The crawler fetches only the references that speak to it. */
	assert_true(heed_acap_reference_applies(r, 0, "searchbot"));
	assert_true(heed_acap_reference_applies(r, 0, "SearchBot"));
	assert_false(heed_acap_reference_applies(r, 0, "heed"));
	assert_false(heed_acap_reference_applies(r, 1, "searchbot"));
	d = decide_at(r, "searchbot", NULL, HEED_ACAP_INDEX, "/news/x", T0,
	              NULL);
	assert_false(d->permitted);
	assert_string_equal(d->reference, "/searchbot.txt");
	heed_acap_decision_free(d);

	assert_int_equal(heed_acap_add_reference(r, "/nope.txt", "", 0),
	                 HEED_ENOTFOUND);
	assert_int_equal(heed_acap_add_reference(r, "/searchbot.txt", ref_txt,
	                                         strlen(ref_txt)),
	                 HEED_OK);
	assert_int_equal(heed_acap_add_reference(r, "/searchbot.txt", ref_txt,
	                                         strlen(ref_txt)),
	                 HEED_EINVAL);

	/* Its records speak for searchbot, with this file's definitions. */
	d = decide_at(r, "searchbot", NULL, HEED_ACAP_INDEX, "/news/x", T0,
	              NULL);
	assert_true(d->permitted);
	assert_int_equal(d->line, 3);
	assert_null(d->reference);
	assert_string_equal(d->steps[0].source, "/searchbot.txt");
	assert_null(d->steps[d->step_count - 1].source); /* line 3 here */
	assert_int_equal(d->time_limit.expires, T0 + 3 * DAY);
	heed_acap_decision_free(d);
	/* ... with its own version (1.1), whatever this file's. */
	d = decide_at(r, "searchbot", NULL, HEED_ACAP_INDEX, "/a", T0, NULL);
	assert_true(d->permitted);
	assert_true(d->time_limit.until_recrawled);
	heed_acap_decision_free(d);
	/* Where it says nothing, this file's "*" record still applies. */
	d = decide_at(r, "searchbot", NULL, HEED_ACAP_INDEX, "/private", T0,
	              NULL);
	assert_false(d->permitted);
	assert_null(d->steps[0].source);
	heed_acap_decision_free(d);
	/* It does not speak to crawlers that were not sent to it. */
	d = decide_at(r, "heed", NULL, HEED_ACAP_INDEX, "/news/x", T0, NULL);
	assert_false(d->permitted);
	heed_acap_decision_free(d);
	/* Its conventional records are not read. */
	d = decide_at(r, "searchbot", NULL, HEED_ACAP_CRAWL, "/news/x", T0,
	              NULL);
	assert_true(d->permitted);
	heed_acap_decision_free(d);

	assert_int_equal(heed_acap_requests(r, "searchbot", NULL, 0), 1);
	assert_int_equal(heed_acap_requests(r, "heed", NULL, 0), 0);
	for (size_t i = 0; i < heed_acap_diag_count(r); i++) {
		const struct heed_acap_diag *g = heed_acap_diag_get(r, i);
		circular |= g->source &&
		            strcmp(g->source, "/searchbot.txt") == 0 &&
		            g->line == 5 && strstr(g->message, "circular");
	}
	assert_true(circular);
	assert_string_equal(heed_acap_field_get(r, 1)->source,
	                    "/searchbot.txt");
	assert_null(heed_acap_field_get(r, 0)->source);
	assert_int_equal(heed_acap_reference_count(r), 1);
	heed_acap_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_spec_examples),
	        cmocka_unit_test(test_scope),
	        cmocka_unit_test(test_match),
	        cmocka_unit_test(test_conflict_resolution),
	        cmocka_unit_test(test_records),
	        cmocka_unit_test(test_fallback),
	        cmocka_unit_test(test_versions),
	        cmocka_unit_test(test_conventional),
	        cmocka_unit_test(test_time_limits),
	        cmocka_unit_test(test_diagnostics),
	        cmocka_unit_test(test_clean_file),
	        cmocka_unit_test(test_requests),
	        cmocka_unit_test(test_requests_with_wildcards),
	        cmocka_unit_test(test_authors_mistakes),
	        cmocka_unit_test(test_accessors),
	        cmocka_unit_test(test_names),
	        cmocka_unit_test(test_bad_arguments),
	        cmocka_unit_test(test_oom),
	        cmocka_unit_test(test_large_file),
	        cmocka_unit_test(test_qualifier_values),
	        cmocka_unit_test(test_references),
	        cmocka_unit_test(test_reference_applies_star),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
