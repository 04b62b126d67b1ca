/*
 * Unit tests for the robots.txt parser, agents and matcher (src/robots/) and
 * the percent-encoding normaliser (src/common/pct.c). Each case names the
 * RFC 9309 section it proves; cases marked "google" come from
 * google/robotstxt's robots_test.cc and its documentation, "heed" ones from
 * heed's own choices (docs/robots.md). Where heed deliberately differs from
 * google/robotstxt (it normalises URLs), the case says so.
 */
#include "heed_test.h"

#include <pthread.h>

#include "common/common-int.h"
#include "heed/robots.h"

/* ---- decisions ------------------------------------------------------- */

enum want { ALLOW, DISALLOW };

struct decide_case {
	const char *name;
	const char *txt;
	const char *agent;
	const char *url;
	enum want want;
	unsigned line; /* deciding rule's line; 0: no rule decided */
};

#define GROUPS_TXT             \
	"allow: /foo/bar/\n"   \
	"user-agent: FooBot\n" \
	"disallow: /\n"        \
	"allow: /x/\n"         \
	"user-agent: BarBot\n" \
	"disallow: /\n"        \
	"allow: /y/\n"         \
	"\n"                   \
	"\n"                   \
	"allow: /w/\n"         \
	"user-agent: BazBot\n" \
	"\n"                   \
	"user-agent: FooBot\n" \
	"allow: /z/\n"         \
	"disallow: /\n"

#define FISH(p) "User-agent: *\nDisallow: " p "\n"

static const struct decide_case decide_cases[] = {
        /* 2.2.1 user-agent lines and groups */
        {"9309 2.2.1: no file, no rules", "", "heed", "/x", ALLOW, 0},
        {"9309 2.2.1: group applies", "user-agent: FooBot\ndisallow: /\n",
         "FooBot", "/x", DISALLOW, 2},
        {"9309 2.2.1: product token case-insensitive",
         "User-agent: FOOBOT\nDisallow: /\n", "foobot", "/x", DISALLOW, 2},
        {"9309 2.2.1: other agent's group does not apply",
         "User-agent: FooBot\nDisallow: /\n", "BarBot", "/x", ALLOW, 0},
        {"9309 2.2.1: no prefix match of product tokens",
         "User-agent: Foo\nDisallow: /\n", "FooBot", "/x", ALLOW, 0},
        {"9309 2.2.1: '*' when no group names the agent",
         "User-agent: *\nDisallow: /\n", "heed", "/x", DISALLOW, 2},
        {"9309 2.2.1: a named group beats '*'",
         "User-agent: *\nDisallow: /\nUser-agent: heed\nAllow: /\n", "heed",
         "/x", ALLOW, 4},
        {"9309 2.2.1: named group with no rules: '*' not used",
         "User-agent: *\nDisallow: /\n\nUser-agent: heed\n", "heed", "/x",
         ALLOW, 0},
        {"9309 2.2.1: several user-agent lines, one group",
         "User-agent: a\nUser-agent: heed\nDisallow: /p\n", "heed", "/p",
         DISALLOW, 3},
        {"9309 2.2.1: groups for one agent merged",
         "User-agent: heed\nDisallow: /a\nUser-agent: x\nDisallow: /\n"
         "User-agent: heed\nDisallow: /b\n",
         "heed", "/b", DISALLOW, 6},
        {"9309 2.2.1: '*' groups merged",
         "User-agent: *\nDisallow: /a\nUser-agent: x\nDisallow: /\n"
         "User-agent: *\nDisallow: /b\n",
         "heed", "/b", DISALLOW, 6},
        {"9309 2.2.1: whole User-Agent string reduced to its token",
         "User-agent: heed\nDisallow: /\n", "heed/0.1 (+https://h.example)",
         "/x", DISALLOW, 2},
        {"google: user-agent value cut at the first non-token octet",
         "User-Agent: FOO BAR\nAllow: /x/\nDisallow: /\n", "Foo", "/x/y", ALLOW,
         2},
        {"google: user-agent 'FooBot/1.2' is FooBot",
         "User-agent: FooBot/1.2\nDisallow: /\n", "foobot", "/", DISALLOW, 2},
        {"google: '*bot' names nobody", "User-agent: *bot\nDisallow: /\n",
         "heed", "/", ALLOW, 0},
        {"google: '* text' is the global group",
         "User-agent: * (everyone)\nDisallow: /\n", "heed", "/", DISALLOW, 2},
        {"google groups: FooBot x", GROUPS_TXT, "FooBot", "/x/b", ALLOW, 4},
        {"google groups: FooBot z (merged group)", GROUPS_TXT, "FooBot", "/z/d",
         ALLOW, 14},
        {"google groups: FooBot y", GROUPS_TXT, "FooBot", "/y/c", DISALLOW, 3},
        {"google groups: BarBot y", GROUPS_TXT, "BarBot", "/y/c", ALLOW, 7},
        {"google groups: BarBot w (blank lines keep the group)", GROUPS_TXT,
         "BarBot", "/w/a", ALLOW, 10},
        {"google groups: BarBot z", GROUPS_TXT, "BarBot", "/z/d", DISALLOW, 6},
        {"google groups: BazBot shares FooBot's second group", GROUPS_TXT,
         "BazBot", "/z/d", ALLOW, 14},
        {"9309 2.1: rule before any user-agent ignored", GROUPS_TXT, "FooBot",
         "/foo/bar/", DISALLOW, 3},
        {"9309 2.2.4: Sitemap does not end a group",
         "User-agent: BarBot\nSitemap: https://foo.bar/sitemap\n"
         "User-agent: *\nDisallow: /\n",
         "BarBot", "/", DISALLOW, 4},
        {"9309 2.2.4: unknown record does not end a group",
         "User-agent: BarBot\nInvalid-Unknown-Line: unknown\n"
         "User-agent: *\nDisallow: /\n",
         "BarBot", "/", DISALLOW, 4},
        {"heed: Crawl-delay does not end a group",
         "User-agent: a\nCrawl-delay: 5\nUser-agent: b\nDisallow: /\n", "a",
         "/", DISALLOW, 4},
        {"google: record names case-insensitive",
         "USER-AGENT: FooBot\nALLOW: /x/\nDISALLOW: /\n", "FooBot", "/a/b",
         DISALLOW, 3},
        {"google: missing colon accepted", "user-agent FooBot\ndisallow /\n",
         "FooBot", "/a", DISALLOW, 2},
        {"google: unknown records are not rules", "foo: FooBot\nbar: /\n",
         "FooBot", "/a", ALLOW, 0},
        {"google: misspelled disallow accepted",
         "User-agent: *\nDissallow: /x\n", "heed", "/x", DISALLOW, 2},
        {"google: useragent accepted", "useragent: *\nDisallow: /x\n", "heed",
         "/x", DISALLOW, 2},
        /* 2.2.2 allow and disallow lines */
        {"9309 2.2.2: paths case-sensitive", "User-agent: *\nDisallow: /X/\n",
         "heed", "/x/y", ALLOW, 0},
        {"9309 2.2.2: prefix match", "User-agent: *\nDisallow: /x/\n", "heed",
         "/x/y", DISALLOW, 2},
        {"9309 2.2.2: most octets wins",
         "User-agent: *\nDisallow: /a\nAllow: /a/b\n", "heed", "/a/b/c", ALLOW,
         3},
        {"9309 2.2.2: most octets wins, disallow longer",
         "User-agent: *\nAllow: /a\nDisallow: /a/b\n", "heed", "/a/b/c",
         DISALLOW, 3},
        {"9309 2.2.2: allow wins a tie",
         "User-agent: *\nDisallow: /x/page.html\nAllow: /x/page.html\n", "heed",
         "/x/page.html", ALLOW, 3},
        {"9309 2.2.2: allow wins a tie of different patterns",
         "User-agent: *\nDisallow: /*.html\nAllow: /x/page\n", "heed",
         "/x/page.html", ALLOW, 3},
        {"google: wildcard length counts",
         "User-agent: *\nAllow: /page\nDisallow: /*.html\n", "heed",
         "/page.html", DISALLOW, 3},
        {"google: allow longer than wildcard disallow",
         "User-agent: *\nAllow: /x/page.\nDisallow: /*.html\n", "heed",
         "/x/page.html", ALLOW, 2},
        {"google: /x vs /x/", "User-agent: *\nDisallow: /x\nAllow: /x/\n",
         "heed", "/x", DISALLOW, 2},
        {"google: /x/ vs /x", "User-agent: *\nDisallow: /x\nAllow: /x/\n",
         "heed", "/x/", ALLOW, 3},
        {"google: allow /$ only the root",
         "User-agent: *\nAllow: /$\n"
         "Disallow: /\n",
         "heed", "/", ALLOW, 2},
        {"google: allow /$ not deeper",
         "User-agent: *\nAllow: /$\n"
         "Disallow: /\n",
         "heed", "/page.html", DISALLOW, 3},
        {"9309 2.2.2: empty disallow allows all", "User-agent: *\nDisallow:\n",
         "heed", "/x", ALLOW, 0},
        {"9309 2.2.2: /robots.txt always allowed",
         "User-agent: *\nDisallow: /\n", "heed", "/robots.txt", ALLOW, 0},
        {"heed: /robots.txt with a query is an ordinary URL",
         "User-agent: *\nDisallow: /\n", "heed", "/robots.txt?x", DISALLOW, 2},
        {"9309 2.2.2: query is part of the path",
         "User-agent: *\nDisallow: /*?sort=\n", "heed", "/list?sort=asc",
         DISALLOW, 2},
        {"google: query with URL inside",
         "User-agent: FooBot\nDisallow: /\n"
         "Allow: /foo/bar?qux=taz&baz=http://foo.bar?tar&par\n",
         "FooBot", "http://foo.bar/foo/bar?qux=taz&baz=http://foo.bar?tar&par",
         ALLOW, 3},
        /* 2.2.3 special characters (google documentation examples) */
        {"9309 2.2.3: /fish matches /fish.html", FISH("/fish"), "h",
         "/fish.html", DISALLOW, 2},
        {"9309 2.2.3: /fish matches /fish.php?id=x", FISH("/fish"), "h",
         "/fish.php?id=anything", DISALLOW, 2},
        {"9309 2.2.3: /fish not /Fish.asp", FISH("/fish"), "h", "/Fish.asp",
         ALLOW, 0},
        {"9309 2.2.3: /fish not /catfish", FISH("/fish"), "h", "/catfish",
         ALLOW, 0},
        {"9309 2.2.3: /fish not /?id=fish", FISH("/fish"), "h", "/?id=fish",
         ALLOW, 0},
        {"9309 2.2.3: /fish* same as /fish", FISH("/fish*"), "h",
         "/fishheads/yummy.html", DISALLOW, 2},
        {"9309 2.2.3: /fish/ not /fish", FISH("/fish/"), "h", "/fish", ALLOW,
         0},
        {"9309 2.2.3: /fish/ matches /fish/?id=x", FISH("/fish/"), "h",
         "/fish/?id=anything", DISALLOW, 2},
        {"9309 2.2.3: /*.php matches nested", FISH("/*.php"), "h",
         "/folder/filename.php?parameters", DISALLOW, 2},
        {"9309 2.2.3: /*.php matches .php.file.html", FISH("/*.php"), "h",
         "/folder/any.php.file.html", DISALLOW, 2},
        {"9309 2.2.3: /*.php not .PHP", FISH("/*.php"), "h", "/windows.PHP",
         ALLOW, 0},
        {"9309 2.2.3: /*.php not /", FISH("/*.php"), "h", "/", ALLOW, 0},
        {"9309 2.2.3: $ ends: /*.php$ matches", FISH("/*.php$"), "h",
         "/folder/filename.php", DISALLOW, 2},
        {"9309 2.2.3: $ ends: not with a query", FISH("/*.php$"), "h",
         "/filename.php?parameters", ALLOW, 0},
        {"9309 2.2.3: $ ends: not /filename.php5", FISH("/*.php$"), "h",
         "/filename.php5", ALLOW, 0},
        {"9309 2.2.3: /fish*.php", FISH("/fish*.php"), "h",
         "/fishheads/catfish.php?parameters", DISALLOW, 2},
        {"9309 2.2.3: /fish*.php not /Fish.PHP", FISH("/fish*.php"), "h",
         "/Fish.PHP", ALLOW, 0},
        {"google: wildcard in the middle",
         "User-agent: *\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n", "h",
         "/foo/bar/baz/qux", ALLOW, 3},
        {"google: $ then longer allow",
         "User-agent: *\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n", "h",
         "/foo/bar", DISALLOW, 2},
        {"google: $ does not match longer",
         "User-agent: *\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n", "h",
         "/foo/bar/baz", ALLOW, 0},
        {"9309 2.2.3: '#' starts a comment",
         "User-agent: *\n# Disallow: /\nDisallow: /foo/quz#qux\nAllow: /\n",
         "h", "/foo/quz", DISALLOW, 3},
        {"google: '$' inside a pattern is literal", FISH("/a$b"), "h", "/a$b/c",
         DISALLOW, 2},
        {"heed: '*' alone matches everything", FISH("*"), "h", "/x", DISALLOW,
         2},
        {"heed: runs of '*' are one", FISH("/a**b"), "h", "/axxb", DISALLOW, 2},
        {"heed: pattern without '/' read with one", FISH("private"), "h",
         "/private/x", DISALLOW, 2},
        /* 2.2.2 percent-encoding: where heed and google differ */
        {"9309 2.2.2: UTF-8 rule, raw UTF-8 URL (google: disallowed)",
         "User-agent: *\nDisallow: /\nAllow: /foo/bar/\xE3\x83\x84\n", "h",
         "/foo/bar/\xE3\x83\x84", ALLOW, 3},
        {"9309 2.2.2: UTF-8 rule, encoded URL",
         "User-agent: *\nDisallow: /\nAllow: /foo/bar/\xE3\x83\x84\n", "h",
         "/foo/bar/%E3%83%84", ALLOW, 3},
        {"9309 2.2.2: encoded rule, raw UTF-8 URL (google: disallowed)",
         "User-agent: *\nDisallow: /\nAllow: /foo/bar/%E3%83%84\n", "h",
         "/foo/bar/\xE3\x83\x84", ALLOW, 3},
        {"9309 2.2.2: hex case does not matter",
         "User-agent: *\nDisallow: /\nAllow: /foo/bar/%e3%83%84\n", "h",
         "/foo/bar/%E3%83%84", ALLOW, 3},
        {"9309 2.2.2: unreserved escapes decoded (google: disallowed)",
         "User-agent: *\nDisallow: /\nAllow: /foo/bar/%62%61%7A\n", "h",
         "/foo/bar/baz", ALLOW, 3},
        {"9309 2.2.2: unreserved escapes decoded in the URL",
         "User-agent: *\nDisallow: /~joe\n", "h", "/%7Ejoe/x", DISALLOW, 2},
        {"9309 2.2.2: reserved escape %2F is not /",
         "User-agent: *\nDisallow: /a/b\n", "h", "/a%2Fb", ALLOW, 0},
        {"9309 2.2.2: reserved escape %2F matches itself",
         "User-agent: *\nDisallow: /a%2fb\n", "h", "/a%2Fb", DISALLOW, 2},
        {"9309 2.2.3: %2A in a rule is a literal '*'",
         "User-agent: *\nDisallow: /path/file-with-a-%2A.html\n", "h",
         "/path/file-with-a-*.html", DISALLOW, 2},
        {"9309 2.2.3: %2A is not a wildcard",
         "User-agent: *\nDisallow: /path/file-with-a-%2A.html\n", "h",
         "/path/file-with-a-x.html", ALLOW, 0},
        {"9309 2.2.3: %24 in a rule is a literal '$'",
         "User-agent: *\nDisallow: /path/foo-%24\n", "h", "/path/foo-$",
         DISALLOW, 2},
        {"9309 2.2.3: %24 does not anchor",
         "User-agent: *\nDisallow: /path/foo-%24\n", "h", "/path/foo-$x",
         DISALLOW, 2},
        {"heed: space in a rule matches %20", "User-agent: *\nDisallow: /a b\n",
         "h", "/a%20b", DISALLOW, 2},
        {"heed: fragment dropped", "User-agent: *\nDisallow: /a$\n", "h",
         "https://e.com/a#frag", DISALLOW, 2},
        {"heed: empty path is /", "User-agent: *\nDisallow: /$\n", "h",
         "https://e.com", DISALLOW, 2},
        {"heed: query without path is /?q", "User-agent: *\nDisallow: /?\n",
         "h", "https://e.com?q", DISALLOW, 2},
        {"heed: host and port are not matched",
         "User-agent: *\nDisallow: /e.com\n", "h", "https://e.com:8080/x",
         ALLOW, 0},
        /* RFC 9309 2.2.3: "%2A" and "%24" are a literal '*' and '$',
         * equal to the same escape in the URL, never a wildcard or end. */
        {"9309 2.2.3: %2A rule, %2A URL", "User-agent: *\nDisallow: /a%2Ab\n",
         "h", "/a%2Ab", DISALLOW, 2},
        {"9309 2.2.3: %2A rule, %2a URL", "User-agent: *\nDisallow: /a%2Ab\n",
         "h", "/a%2ab/c", DISALLOW, 2},
        {"9309 2.2.3: %2A rule, * URL", "User-agent: *\nDisallow: /a%2Ab\n",
         "h", "/a*b", DISALLOW, 2},
        {"9309 2.2.3: %2A is no wildcard", "User-agent: *\nDisallow: /a%2Ab\n",
         "h", "/axyzb", ALLOW, 0},
        {"9309 2.2.3: %2a rule, %2A URL", "User-agent: *\nDisallow: /a%2ab\n",
         "h", "http://e.com/a%2Ab", DISALLOW, 2},
        {"9309 2.2.3: %24 rule, %24 URL", "User-agent: *\nDisallow: /p%24\n",
         "h", "/p%24", DISALLOW, 2},
        {"9309 2.2.3: %24 rule, $ URL", "User-agent: *\nDisallow: /p%24\n", "h",
         "/p$?q", DISALLOW, 2},
        {"9309 2.2.3: %24 is no end", "User-agent: *\nDisallow: /p%24\n", "h",
         "/p", ALLOW, 0},
        {"9309 2.2.3: %24 is a prefix", "User-agent: *\nDisallow: /p%24\n", "h",
         "/p%24/x", DISALLOW, 2},
        {"9309 2.2.3: %24 then a final $", "User-agent: *\nDisallow: /p%24$\n",
         "h", "/p%24", DISALLOW, 2},
        {"9309 2.2.3: %24 then a final $, longer path",
         "User-agent: *\nDisallow: /p%24$\n", "h", "/p%24x", ALLOW, 0},
        {"9309 2.2.3: %2A after a wildcard",
         "User-agent: *\nDisallow: /*%2A.html\n", "h", "/x/a%2A.html", DISALLOW,
         2},
        {"9309 2.2.3: a literal $ rule, %24 URL",
         "User-agent: *\nDisallow: /a$b\n", "h", "/a%24b", DISALLOW, 2},
        {"9309 2.2.3: other escapes stay apart",
         "User-agent: *\nDisallow: /a%2Fb\n", "h", "/a/b", ALLOW, 0},
        /* RFC 9309 2.2.2: matching starts at the path's first octet,
         * never somewhere inside it. */
        {"9309 2.2.2: no-slash rule read from the root",
         "User-agent: *\nDisallow: private\n", "h", "/private/x", DISALLOW, 2},
        {"9309 2.2.2: no-slash rule not inside the path",
         "User-agent: *\nDisallow: private\n", "h", "/x/private", ALLOW, 0},
        {"9309 2.2.2: a leading * takes the path's first /",
         "User-agent: *\nDisallow: /\nAllow: *.html\n", "h", "/a/b.html", ALLOW,
         3},
        {"9309 2.2.2: a leading * and its octets",
         "User-agent: *\nDisallow: /\nAllow: *.html\n", "h", "/a/b.htm",
         DISALLOW, 2},
        {"heed: network-path reference", "User-agent: *\nDisallow: /x\n", "h",
         "//e.com/x", DISALLOW, 2},
        {"heed: host without scheme", "User-agent: *\nDisallow: /x\n", "h",
         "e.com/x", DISALLOW, 2},
};

static void test_decide_table(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < HEED_ARRAY_SIZE(decide_cases); i++) {
		const struct decide_case *c = &decide_cases[i];
		heed_robots *r;
		heed_robots_agent *a;
		struct heed_robots_decision d;

		assert_int_equal(heed_robots_parse(&r, heed_test_allocator(),
		                                   c->txt, strlen(c->txt),
		                                   NULL),
		                 HEED_OK);
		assert_int_equal(heed_robots_agent_new(&a, r, c->agent,
		                                       strlen(c->agent)),
		                 HEED_OK);
		assert_int_equal(
		        heed_robots_decide(a, c->url, strlen(c->url), &d),
		        HEED_OK);
		if (d.allowed != (c->want == ALLOW) || d.line != c->line)
			fail_msg("%s: got %s by line %u, want %s by line %u",
			         c->name, d.allowed ? "allowed" : "disallowed",
			         d.line,
			         c->want == ALLOW ? "allowed" : "disallowed",
			         c->line);
		assert_int_equal(d.matched, c->line != 0);
		if (d.matched)
			assert_string_equal(d.value, d.rule->value);
		heed_robots_agent_free(a);
		heed_robots_free(r);
	}
}

/* ---- normalisation --------------------------------------------------- */

struct norm_case {
	const char *name, *in, *want;
};

static const struct norm_case norm_cases[] = {
        {"9309 2.2.2 table: query kept", "/foo/bar?baz=quz",
         "/foo/bar?baz=quz"},
        {"9309 2.2.2 table: UTF-8 encoded", "/foo/bar/\xE3\x83\x84",
         "/foo/bar/%E3%83%84"},
        {"9309 2.2.2 table: escapes kept", "/foo/bar/%E3%83%84",
         "/foo/bar/%E3%83%84"},
        {"9309 2.2.2 table: unreserved decoded", "/foo/bar/%62%61%7A",
         "/foo/bar/baz"},
        {"3986 6.2.2.1: hex upper-cased", "/a%e3%2f", "/a%E3%2F"},
        {"3986 2.3: all unreserved decoded", "/%41%7a%30%2D%2E%5F%7E",
         "/Az0-._~"},
        {"3986 2.2: reserved escapes kept", "/%2F%3F%23%5B%40%21%24%2A%3D",
         "/%2F%3F%23%5B%40%21%24%2A%3D"},
        {"3986 2.2: reserved characters kept", "/:@!$&'()*+,;=[]?/",
         "/:@!$&'()*+,;=[]?/"},
        {"3986 2: forbidden characters encoded", "/a b\"<>\\^`{|}",
         "/a%20b%22%3C%3E%5C%5E%60%7B%7C%7D"},
        {"3986 2.4: bare % encoded", "/100%", "/100%25"},
        {"3986 2.4: % with one hex digit encoded", "/%4", "/%254"},
        {"3986 2.4: % with non-hex encoded", "/%zz", "/%25zz"},
        {"controls encoded", "/a\x01\x7F", "/a%01%7F"},
        {"NUL encoded", "/a\0b", "/a%00b"},
        {"invalid UTF-8 encoded", "/\xFF\xC3", "/%FF%C3"},
        {"escaped % stays", "/%25", "/%25"},
        {"escaped space stays", "/%20", "/%20"},
        {"fragment dropped", "/a?b#c", "/a?b"},
        {"empty path is /", "", "/"},
        {"query only gets /", "?q=1", "/?q=1"},
        {"fragment only is /", "#x", "/"},
};

static void test_normalize_table(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < HEED_ARRAY_SIZE(norm_cases); i++) {
		const struct norm_case *c = &norm_cases[i];
		char out[128], again[128];
		/* Cases with a NUL hold it as their only embedded one. */
		size_t in_len =
		        strcmp(c->name, "NUL encoded") == 0 ? 4 : strlen(c->in);
		size_t n = heed__pct_normalize(out, sizeof(out), c->in, in_len,
		                               HEED_PCT_DROP_FRAGMENT |
		                                       HEED_PCT_SLASH_EMPTY);
		if (n != strlen(c->want) || strcmp(out, c->want) != 0)
			fail_msg("%s: got '%s', want '%s'", c->name, out,
			         c->want);
		/* Idempotent: a normal form normalises to itself. */
		heed__pct_normalize(again, sizeof(again), out, n,
		                    HEED_PCT_DROP_FRAGMENT |
		                            HEED_PCT_SLASH_EMPTY);
		assert_string_equal(again, out);
	}
}

static void test_normalize_truncates(void **state)
{
	char small[4];

	(void)state;
	/* snprintf's contract: the full length back, a NUL-terminated cut. */
	assert_int_equal(
	        heed__pct_normalize(small, sizeof(small), "/\xFF", 2, 0), 4);
	assert_string_equal(small, "/%F");
	assert_int_equal(heed__pct_normalize(NULL, 0, "/abc", 4, 0), 4);
	assert_int_equal(heed_robots_normalize(small, sizeof(small),
	                                       "https://e.com/ab#x", 18),
	                 3);
	assert_string_equal(small, "/ab");
}

/* A rule's "%2A" and "%24" compile to '*' and '$'; the path's
 * escapes are read the same way when the agent is decided, while the
 * normal form (shown by the CLI, read by ACAP) keeps them. */
static void test_reserved_escapes_fold(void **state)
{
	static const char txt[] = "User-agent: *\nDisallow: /a%2Ab\n";
	char out[32], *big;
	size_t big_len = 5000;
	heed_robots *r;
	heed_robots_agent *a;
	struct heed_robots_decision d;

	(void)state;
	assert_int_equal(heed__pct_normalize(out, sizeof(out), "/a%2a%24%2F",
	                                     11, HEED_PCT_STAR_DOLLAR),
	                 7);
	assert_string_equal(out, "/a*$%2F");
	assert_int_equal(heed_robots_normalize(out, sizeof(out),
	                                       "http://e.com/a%2a%24", 20),
	                 8);
	assert_string_equal(out, "/a%2A%24");

	assert_int_equal(heed_robots_parse(&r, heed_test_allocator(), txt,
	                                   strlen(txt), NULL),
	                 HEED_OK);
	assert_int_equal(heed_robots_agent_new(&a, r, "x", 1), HEED_OK);
	heed_robots_decide_path(a, "/a%2Ab", 6, &d);
	assert_int_equal(d.line, 2);
	heed_robots_decide_path(a, "/a*b", 4, &d);
	assert_int_equal(d.line, 2);
	heed_robots_decide_path(a, "/a%2Fb", 6, &d);
	assert_false(d.matched);
	/* Over the stack buffer: the folded copy is allocated. */
	big = malloc(big_len + 1);
	assert_non_null(big);
	memset(big, 'x', big_len);
	memcpy(big, "/a%2Ab", 6);
	big[big_len] = '\0';
	heed_robots_decide_path(a, big, big_len, &d);
	assert_int_equal(d.line, 2);
	assert_int_equal(heed_robots_decide(a, big, big_len, &d), HEED_OK);
	assert_int_equal(d.line, 2);
	free(big);
	heed_robots_agent_free(a);
	heed_robots_free(r);

	/* The text matcher (ACAP's) reads paths the same way. */
	assert_true(heed_robots_pattern_match("/a%2Ab", 6, "/a%2Ab", 6));
	assert_true(heed_robots_pattern_match("/a%2Ab", 6, "/a*b", 4));
	assert_false(heed_robots_pattern_match("/a%2Ab", 6, "/axb", 4));
	assert_true(heed_robots_pattern_match("/p%24$", 6, "/p%24", 5));
	assert_false(heed_robots_pattern_match("/p%24$", 6, "/p%24x", 6));
	assert_true(heed_robots_pattern_match("/*%2A$", 6, "/x/%2A", 6));
	assert_true(heed_robots_pattern_match("/*%2A.h", 7, "/x%2A%2A.h", 10));
	assert_false(heed_robots_pattern_match("/a%2F", 5, "/a/", 3));
}

/* The parser's fast path trusts heed__pct_plain_len: whatever it calls
 * plain must come out of normalisation unchanged, for every octet. */
static void test_plain_len_agrees(void **state)
{
	unsigned b;

	(void)state;
	for (b = 0; b < 256; b++) {
		char in[3] = {'/', (char)b, 'a'}, out[16];
		size_t n = heed__pct_normalize(out, sizeof(out), in, 3, 0);
		bool same = n == 3 && memcmp(out, in, 3) == 0;
		if (heed__pct_plain_len(in, 3) == 3 && !same)
			fail_msg("octet 0x%02X called plain but normalised", b);
		if (b != '%' && b != '#' &&
		    same != (heed__pct_plain_len(in, 3) == 3))
			fail_msg("octet 0x%02X: plain_len disagrees", b);
	}
	assert_int_equal(heed__pct_plain_len("/a%41", 5), 2);
	assert_int_equal(heed__pct_plain_len("/a#b", 4), 2);
}

/* ---- the matcher against a slow obvious reference -------------------- */

enum { REF_WILD = 256 };

/* Pattern text to tokens: octets, REF_WILD for '*', "%2A"/"%24" literal. */
static size_t ref_tokens(const char *p, size_t n, int *tok, bool *anchored)
{
	size_t i = 0, t = 0;

	*anchored = n > 0 && p[n - 1] == '$';
	if (*anchored)
		n--;
	while (i < n) {
		if (p[i] == '*') {
			tok[t++] = REF_WILD;
			i++;
		} else if (i + 3 <= n && memcmp(p + i, "%2A", 3) == 0) {
			tok[t++] = '*';
			i += 3;
		} else if (i + 3 <= n && memcmp(p + i, "%24", 3) == 0) {
			tok[t++] = '$';
			i += 3;
		} else {
			tok[t++] = (unsigned char)p[i++];
		}
	}
	return t;
}

/* Plain backtracking: obviously right, exponential in the worst case. */
static bool ref_rec(const int *tok, size_t nt, const char *s, size_t n,
                    bool anchored)
{
	size_t k;

	if (nt == 0)
		return !anchored || n == 0;
	if (tok[0] == REF_WILD) {
		for (k = 0; k <= n; k++)
			if (ref_rec(tok + 1, nt - 1, s + k, n - k, anchored))
				return true;
		return false;
	}
	return n > 0 && (unsigned char)s[0] == tok[0] &&
	       ref_rec(tok + 1, nt - 1, s + 1, n - 1, anchored);
}

static bool ref_match(const char *pattern, const char *path)
{
	int tok[64];
	bool anchored;
	size_t nt = ref_tokens(pattern, strlen(pattern), tok, &anchored);

	return strlen(pattern) > 0 &&
	       ref_rec(tok, nt, path, strlen(path), anchored);
}

static unsigned long rng_state = 12345;

static unsigned rnd(unsigned n)
{
	return heed_test_rand(&rng_state, n);
}

static void random_pattern(char *out, size_t size)
{
	static const char *const parts[] = {"a",   "b",   "/", "*",
	                                    "%2A", "%24", "$", "ab"};
	size_t n = 0, k, count = 1 + rnd(6);

	out[n++] = rnd(4) ? '/' : '*';
	for (k = 0; k < count; k++) {
		const char *p = parts[rnd(HEED_ARRAY_SIZE(parts))];
		if (n + strlen(p) + 2 >= size)
			break;
		memcpy(out + n, p, strlen(p));
		n += strlen(p);
	}
	if (rnd(4) == 0)
		out[n++] = '$';
	out[n] = '\0';
}

static void random_path(char *out, size_t size)
{
	static const char alphabet[] = "ab/*$";
	size_t n = 0, len = 1 + rnd((unsigned)size - 2);

	out[n++] = '/';
	while (n < len)
		out[n++] = alphabet[rnd(sizeof(alphabet) - 1)];
	out[n] = '\0';
}

/* Rules in a differential round: at most this many, so that agents fall on
 * both sides of agent.c's switch from an insertion sort (up to 16 rules) to
 * qsort. */
#define DIFF_MAX_RULES 40

/* One random file of nrules rules, many random paths: heed's decision must
 * be the reference's (longest matching pattern, allow on ties, then file
 * order). */
static void differential_round(size_t nrules)
{
	char txt[DIFF_MAX_RULES * 48], patterns[DIFF_MAX_RULES][32];
	size_t i, n, p;
	heed_robots *r;
	heed_robots_agent *a;
	bool allow[DIFF_MAX_RULES];

	n = (size_t)snprintf(txt, sizeof(txt), "User-agent: *\n");
	for (i = 0; i < nrules; i++) {
		random_pattern(patterns[i], sizeof(patterns[i]));
		allow[i] = rnd(2);
		n += (size_t)snprintf(txt + n, sizeof(txt) - n, "%s: %s\n",
		                      allow[i] ? "Allow" : "Disallow",
		                      patterns[i]);
	}
	assert_int_equal(heed_robots_parse(&r, NULL, txt, n, NULL), HEED_OK);
	assert_int_equal(heed_robots_agent_new(&a, r, "x", 1), HEED_OK);
	assert_int_equal(heed_robots_agent_rule_count(a), nrules);
	for (p = 0; p < 40; p++) {
		char path[24];
		struct heed_robots_decision d;
		size_t best = SIZE_MAX;
		random_path(path, sizeof(path));
		for (i = 0; i < nrules; i++) {
			if (!ref_match(patterns[i], path))
				continue;
			if (best == SIZE_MAX ||
			    strlen(patterns[i]) > strlen(patterns[best]) ||
			    (strlen(patterns[i]) == strlen(patterns[best]) &&
			     allow[i] && !allow[best]))
				best = i;
			assert_true(heed_robots_pattern_match(
			        patterns[i], strlen(patterns[i]), path,
			        strlen(path)));
		}
		heed_robots_decide_path(a, path, strlen(path), &d);
		if (strcmp(path, "/robots.txt") == 0)
			continue;
		if (d.matched != (best != SIZE_MAX) ||
		    (d.matched && d.line != best + 2))
			fail_msg("%s path '%s': heed line %u, reference line "
			         "%zu",
			         txt, path, d.line,
			         best == SIZE_MAX ? 0 : best + 2);
		for (i = 0; i < nrules; i++)
			assert_int_equal(
			        heed_robots_pattern_match(patterns[i],
			                                  strlen(patterns[i]),
			                                  path, strlen(path)),
			        ref_match(patterns[i], path));
	}
	heed_robots_agent_free(a);
	heed_robots_free(r);
}

static void test_differential(void **state)
{
	int round;

	(void)state;
	/* Every size, 16 and 17 rules included, a hundred times over. */
	for (round = 0; round < 4000; round++)
		differential_round(1 + (size_t)round % DIFF_MAX_RULES);
}

/* ---- the parser's short path for rule lines ---------------------------- */

/* Fails unless a and b hold the same groups, rules, sitemaps and diagnostic
 * codes and lines (messages may quote a line, which b has indented). */
static void assert_same_parse(const char *txt, const heed_robots *a,
                              const heed_robots *b)
{
	size_t g, i;

	if (heed_robots_group_count(a) != heed_robots_group_count(b) ||
	    heed_robots_diag_count(a) != heed_robots_diag_count(b) ||
	    heed_robots_sitemap_count(a) != heed_robots_sitemap_count(b))
		fail_msg("counts differ for '%s'", txt);
	for (i = 0; i < heed_robots_diag_count(a); i++) {
		const struct heed_robots_diagnostic *x =
		        heed_robots_diag_get(a, i);
		const struct heed_robots_diagnostic *y =
		        heed_robots_diag_get(b, i);
		if (x->code != y->code || x->line != y->line)
			fail_msg("diagnostic %zu differs for '%s'", i, txt);
	}
	for (g = 0; g < heed_robots_group_count(a); g++) {
		assert_int_equal(heed_robots_group_rule_count(a, g),
		                 heed_robots_group_rule_count(b, g));
		for (i = 0; i < heed_robots_group_rule_count(a, g); i++) {
			const struct heed_robots_rule *x =
			        heed_robots_group_rule(a, g, i);
			const struct heed_robots_rule *y =
			        heed_robots_group_rule(b, g, i);
			if (x->kind != y->kind || x->line != y->line ||
			    x->value_len != y->value_len ||
			    x->pattern_len != y->pattern_len ||
			    memcmp(x->value, y->value, x->value_len) != 0 ||
			    memcmp(x->pattern, y->pattern, x->pattern_len) != 0)
				fail_msg("rule %zu of group %zu differs for "
				         "'%s'",
				         i, g, txt);
		}
	}
}

/* "Disallow: /..." and "Allow: /..." lines take a short path in the parser
 * (parse.c, fast_rule); indented, the same lines take the general one. Both
 * must read every file alike: random files of rule lines in the shapes
 * next to the short one (case, spacing, comments, odd octets, no group,
 * line ends, no final line end). */
static void test_fast_rule_path_agrees(void **state)
{
	static const char *const names[] = {
	        "Disallow",  "disallow",   "DISALLOW", "Allow",
	        "allow",     "aLLow",      "Disallo",  "Allows",
	        "Dissallow", "User-agent", "Sitemap"};
	static const char *const seps[] = {": ", ":", " : ", ":  ", ":\t", " "};
	static const char *const values[] = {
	        "/",    "/a",    "/a b", "/%E3%83%84", "/\xC3\xA9", "/x#c",
	        "*x",   "x",     "",     "/a ",        "/a\t",      "/%2a$",
	        "/a/*", "/\x01", "*",    "/a%"};
	static const char *const ends[] = {"\n", "\r\n", "\r", "\n\n", "#c\n"};
	int round;

	(void)state;
	for (round = 0; round < 3000; round++) {
		char txt[1024], ind[2048];
		size_t n = 0, m = 0, lines = 1 + rnd(12), i;
		heed_robots *a, *b;

		for (i = 0; i < lines; i++) {
			int k = snprintf(
			        txt + n, sizeof(txt) - n, "%s%s%s%s",
			        names[rnd(HEED_ARRAY_SIZE(names))],
			        seps[rnd(HEED_ARRAY_SIZE(seps))],
			        values[rnd(HEED_ARRAY_SIZE(values))],
			        i + 1 < lines || rnd(2)
			                ? ends[rnd(HEED_ARRAY_SIZE(ends))]
			                : "");
			n += (size_t)k;
		}
		/* ind is txt with every line indented, whatever its end. */
		for (i = 0; i < n; i++) {
			if (i == 0 ||
			    ((txt[i - 1] == '\n' ||
			      (txt[i - 1] == '\r' && txt[i] != '\n'))))
				ind[m++] = ' ';
			ind[m++] = txt[i];
		}
		assert_int_equal(heed_robots_parse(&a, NULL, txt, n, NULL),
		                 HEED_OK);
		assert_int_equal(heed_robots_parse(&b, NULL, ind, m, NULL),
		                 HEED_OK);
		txt[n] = '\0';
		assert_same_parse(txt, a, b);
		heed_robots_free(a);
		heed_robots_free(b);
	}
}

/* A pattern that makes backtracking matchers explode: with at most pattern x
 * path steps this returns at once; a backtracking one would hang the test. */
static void test_hostile_pattern(void **state)
{
	const char *txt = "User-agent: *\nDisallow: /*a*a*a*a*a*a*a*a*a*a*a*a*"
	                  "a*a*a*a*a*a*a*a*b$\n";
	char path[4096];
	heed_robots *r;
	heed_robots_agent *a;
	struct heed_robots_decision d;
	int i;

	(void)state;
	memset(path, 'a', sizeof(path));
	path[0] = '/';
	assert_int_equal(heed_robots_parse(&r, NULL, txt, strlen(txt), NULL),
	                 HEED_OK);
	assert_int_equal(heed_robots_agent_new(&a, r, "x", 1), HEED_OK);
	for (i = 0; i < 100; i++) {
		heed_robots_decide_path(a, path, sizeof(path), &d);
		assert_false(d.matched);
	}
	assert_false(heed_robots_pattern_match(
	        heed_robots_agent_rule(a, 0)->pattern,
	        heed_robots_agent_rule(a, 0)->pattern_len, path, sizeof(path)));
	heed_robots_agent_free(a);
	heed_robots_free(r);
}

/* ---- diagnostics ----------------------------------------------------- */

struct diag_case {
	const char *name, *txt;
	heed_robots_diag_code code;
	unsigned line;
};

static const struct diag_case diag_cases[] = {
        {"9309 2.2: not a record", "User-agent: *\nhello world\nDisallow: /x\n",
         HEED_ROBOTS_DIAG_SYNTAX, 2},
        {"9309 2.2: missing colon", "User-agent: *\nDisallow /x\n",
         HEED_ROBOTS_DIAG_MISSING_COLON, 2},
        {"9309 2.2.4: unknown field", "User-agent: *\nHost: e.com\nAllow: /\n",
         HEED_ROBOTS_DIAG_UNKNOWN_FIELD, 2},
        {"9309 2.2.4: misspelling accepted", "User-agent: *\nDisalow: /x\n",
         HEED_ROBOTS_DIAG_MISSPELLED_FIELD, 2},
        {"9309 2.1: rule before any user-agent", "Disallow: /x\n",
         HEED_ROBOTS_DIAG_RULE_OUTSIDE_GROUP, 1},
        {"9309 2.2.1: empty user-agent", "User-agent:\nDisallow: /\n",
         HEED_ROBOTS_DIAG_EMPTY_USER_AGENT, 1},
        {"9309 2.2.1: not a product token", "User-agent: FooBot/1.2\n",
         HEED_ROBOTS_DIAG_BAD_USER_AGENT, 1},
        {"9309 2.2.1: no product token at all", "User-agent: /x\n",
         HEED_ROBOTS_DIAG_BAD_USER_AGENT, 1},
        {"9309 2.2: path without /", "User-agent: *\nDisallow: x\n",
         HEED_ROBOTS_DIAG_BAD_PATH, 2},
        {"9309 2.2: control octets", "User-agent: *\nDisallow: /\x01\n",
         HEED_ROBOTS_DIAG_BAD_OCTETS, 2},
        {"9309 2.2: invalid UTF-8", "User-agent: *\nDisallow: /\xC3(\n",
         HEED_ROBOTS_DIAG_BAD_OCTETS, 2},
        {"crawl-delay: not a number",
         "User-agent: *\nCrawl-delay: soon\nDisallow: /x\n",
         HEED_ROBOTS_DIAG_INVALID_CRAWL_DELAY, 2},
        {"crawl-delay: negative",
         "User-agent: *\nCrawl-delay: -1\nDisallow: /x\n",
         HEED_ROBOTS_DIAG_INVALID_CRAWL_DELAY, 2},
        {"crawl-delay: comma",
         "User-agent: *\nCrawl-delay: 1,5\nDisallow: /x\n",
         HEED_ROBOTS_DIAG_INVALID_CRAWL_DELAY, 2},
        {"crawl-delay: empty", "User-agent: *\nCrawl-delay:\nDisallow: /x\n",
         HEED_ROBOTS_DIAG_INVALID_CRAWL_DELAY, 2},
        {"crawl-delay: lone dot",
         "User-agent: *\nCrawl-delay: .\nDisallow: /x\n",
         HEED_ROBOTS_DIAG_INVALID_CRAWL_DELAY, 2},
        {"crawl-delay: too big",
         "User-agent: *\nCrawl-delay: 99999999999\nDisallow: /x\n",
         HEED_ROBOTS_DIAG_CRAWL_DELAY_CLAMPED, 2},
        {"crawl-delay: twice",
         "User-agent: *\nCrawl-delay: 1\nCrawl-delay: 2\nDisallow: /x\n",
         HEED_ROBOTS_DIAG_DUPLICATE_CRAWL_DELAY, 3},
        {"crawl-delay: before any user-agent", "Crawl-delay: 1\n",
         HEED_ROBOTS_DIAG_CRAWL_DELAY_OUTSIDE_GROUP, 1},
        {"sitemap: relative", "Sitemap: /sitemap.xml\n",
         HEED_ROBOTS_DIAG_BAD_SITEMAP, 1},
        {"sitemap: empty", "Sitemap:\n", HEED_ROBOTS_DIAG_BAD_SITEMAP, 1},
        {"empty group: a group without rules",
         "User-agent: *\nDisallow: /x\n\nUser-agent: a\nUser-agent: b\n",
         HEED_ROBOTS_DIAG_EMPTY_GROUP, 4},
        {"empty group: a lone user-agent line", "User-agent: *\n",
         HEED_ROBOTS_DIAG_EMPTY_GROUP, 1},
        {"empty group: a named group with only a delay escapes '*'",
         "User-agent: *\nDisallow: /\n\nUser-agent: a\nCrawl-delay: 5\n",
         HEED_ROBOTS_DIAG_EMPTY_GROUP, 4},
        {"empty group: sorts before later lines",
         "User-agent: *\nHost: e.com\n", HEED_ROBOTS_DIAG_EMPTY_GROUP, 1},
        {"9309 2.2.3: '$' before a pattern's end",
         "User-agent: *\nAllow: /a\nDisallow: /a$b\n",
         HEED_ROBOTS_DIAG_MISPLACED_DOLLAR, 3},
        {"9309 2.2.2: a path starting with '*'",
         "User-agent: *\nAllow: *.html\n", HEED_ROBOTS_DIAG_WILDCARD_PATH, 2},
        {"9309 2.2.3: '$' right after a wildcard, mid-pattern",
         "User-agent: *\nDisallow: /*$/x\n", HEED_ROBOTS_DIAG_MISPLACED_DOLLAR,
         2},
};

/* Counts diagnostics seen through the callback. */
static void count_diag(void *ud, const struct heed_robots_diagnostic *d)
{
	(*(size_t *)ud)++;
	assert_non_null(d->message);
}

static void test_diag_table(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < HEED_ARRAY_SIZE(diag_cases); i++) {
		const struct diag_case *c = &diag_cases[i];
		size_t seen = 0;
		struct heed_robots_parse_options opts = {count_diag, &seen,
		                                         .lint = true};
		const struct heed_robots_diagnostic *d;
		heed_robots *r;

		assert_int_equal(heed_robots_parse(&r, heed_test_allocator(),
		                                   c->txt, strlen(c->txt),
		                                   &opts),
		                 HEED_OK);
		d = heed_robots_diag_get(r, 0);
		if (!d || d->code != c->code || d->line != c->line)
			fail_msg("%s: got %s on line %u, want %s on line %u",
			         c->name,
			         d ? heed_robots_diag_code_name(d->code)
			           : "none",
			         d ? d->line : 0,
			         heed_robots_diag_code_name(c->code), c->line);
		assert_int_equal(seen, heed_robots_diag_total(r));
		assert_int_equal(seen, heed_robots_diag_count(r));
		heed_robots_free(r);
	}
}

static void test_clean_file_has_no_diagnostics(void **state)
{
	const char *txt = "# comment\nUser-agent: heed\nUser-agent: *\n"
	                  "Disallow: /private/\nAllow: /private/ok\n"
	                  "Crawl-delay: 2\n\nSitemap: https://e.com/s.xml\n";
	heed_robots *r;

	(void)state;
	assert_int_equal(heed_robots_parse(&r, NULL, txt, strlen(txt), NULL),
	                 HEED_OK);
	assert_int_equal(heed_robots_diag_total(r), 0);
	assert_null(heed_robots_diag_get(r, 0));
	assert_false(heed_robots_truncated(r));
	assert_int_equal(heed_robots_parsed_bytes(r), strlen(txt));
	heed_robots_free(r);
}

/* Files the lint (empty groups, a misplaced '$') must leave alone: a "*"
 * group with only a delay (allow everything, slowly), '$' at the end, a
 * literal '$' as %24. */
static void test_lint_quiet(void **state)
{
	static const char *const quiet[] = {
	        "User-agent: *\nCrawl-delay: 2\n",
	        "User-agent: a\nCrawl-delay: 2\n",
	        "User-agent: *\nDisallow: /a$\nDisallow: /b%24c\n",
	        "User-agent: *\nDisallow: /a$  # '$' then a comment\n",
	        "User-agent: a\nUser-agent: b\nDisallow: /x\n",
	};
	const struct heed_robots_parse_options lint = {.lint = true};
	heed_robots *r;

	(void)state;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(quiet); i++) {
		assert_int_equal(heed_robots_parse(&r, NULL, quiet[i],
		                                   strlen(quiet[i]), &lint),
		                 HEED_OK);
		if (heed_robots_diag_total(r) != 0)
			fail_msg("%s: %s", quiet[i],
			         heed_robots_diag_get(r, 0)->message);
		heed_robots_free(r);
	}
}

/* A '$' before the end is linted but read as an octet, as google/robotstxt
 * reads it (RFC 9309 2.2.3 defines only the final one). */
static void test_misplaced_dollar_is_literal(void **state)
{
	static const char txt[] = "User-agent: *\nDisallow: /a$b\n";
	const struct heed_robots_parse_options lint = {.lint = true};
	heed_robots *r;
	heed_robots_agent *a;
	struct heed_robots_decision d;

	(void)state;
	/* A crawler's parse skips the check (it costs every rule a scan). */
	assert_int_equal(heed_robots_parse(&r, NULL, txt, strlen(txt), NULL),
	                 HEED_OK);
	assert_int_equal(heed_robots_diag_total(r), 0);
	heed_robots_free(r);
	assert_int_equal(heed_robots_parse(&r, NULL, txt, strlen(txt), &lint),
	                 HEED_OK);
	assert_int_equal(heed_robots_diag_total(r), 1);
	assert_int_equal(heed_robots_agent_new(&a, r, "x", 1), HEED_OK);
	heed_robots_decide_path(a, "/a$bc", 5, &d);
	assert_true(d.matched);
	heed_robots_decide_path(a, "/a", 2, &d);
	assert_false(d.matched);
	heed_robots_decide_path(a, "/ab", 3, &d);
	assert_false(d.matched);
	heed_robots_agent_free(a);
	heed_robots_free(r);
}

/* ---- Crawl-delay, Sitemap, groups, fields ----------------------------- */

struct delay_case {
	const char *value;
	uint32_t want_ms;
};

static const struct delay_case delay_cases[] = {
        {"0", 0},
        {"1", 1000},
        {"10", 10000},
        {"0.5", 500},
        {".5", 500},
        {"2.", 2000},
        {"1.25", 1250},
        {"0.0001", 1},
        {"1.0005", 1001},
        {"007", 7000},
        {"86400", 86400000},
        {"86401", HEED_ROBOTS_MAX_CRAWL_DELAY_MS},
};

static void test_crawl_delay_values(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < HEED_ARRAY_SIZE(delay_cases); i++) {
		char txt[128];
		heed_robots *r;
		uint32_t ms = 12345;
		unsigned line = 0;
		int n = snprintf(txt, sizeof(txt),
		                 "User-agent: *\nCrawl-delay: %s\n",
		                 delay_cases[i].value);

		assert_int_equal(
		        heed_robots_parse(&r, NULL, txt, (size_t)n, NULL),
		        HEED_OK);
		if (!heed_robots_group_crawl_delay(r, 0, &ms, &line) ||
		    ms != delay_cases[i].want_ms || line != 2)
			fail_msg("Crawl-delay: %s: got %u ms, want %u ms",
			         delay_cases[i].value, ms,
			         delay_cases[i].want_ms);
		heed_robots_free(r);
	}
}

static void test_agent_crawl_delay(void **state)
{
	const char *txt = "User-agent: *\nCrawl-delay: 1\n"
	                  "User-agent: heed\nCrawl-delay: 0.5\nCrawl-delay: 3\n"
	                  "Disallow: /x\n"
	                  "User-agent: heed\nCrawl-delay: 2\nDisallow: /y\n";
	heed_robots *r;
	heed_robots_agent *a, *other;
	uint32_t ms;
	unsigned line;

	(void)state;
	assert_int_equal(heed_robots_parse(&r, NULL, txt, strlen(txt), NULL),
	                 HEED_OK);
	assert_int_equal(heed_robots_agent_new(&a, r, "HEED", 4), HEED_OK);
	/* The group of line 1 has no rules, so "User-agent: heed" joins it:
	 * 2.2.1's grouping, which google/robotstxt follows too. */
	assert_int_equal(heed_robots_group_count(r), 2);
	assert_true(heed_robots_agent_explicit(a));
	assert_int_equal(heed_robots_agent_group_count(a), 2);
	assert_true(heed_robots_agent_crawl_delay(a, &ms, &line));
	assert_int_equal(ms, 3000); /* the longest of the merged groups */
	assert_int_equal(line, 5);
	assert_int_equal(heed_robots_agent_rule_count(a), 2);
	assert_string_equal(heed_robots_agent_rule(a, 0)->value, "/x");
	assert_string_equal(heed_robots_agent_rule(a, 1)->value, "/y");
	assert_null(heed_robots_agent_rule(a, 2));
	assert_string_equal(heed_robots_agent_token(a), "HEED");
	assert_int_equal(heed_robots_agent_new(&other, r, "Other", 5), HEED_OK);
	assert_true(heed_robots_agent_explicit(other) == false);
	assert_int_equal(heed_robots_agent_group(other, 0), 0);
	assert_int_equal(heed_robots_agent_group(other, 9),
	                 HEED_ROBOTS_NO_GROUP);
	heed_robots_agent_free(other);
	heed_robots_agent_free(a);
	heed_robots_free(r);
}

static void test_no_groups_apply(void **state)
{
	const char *txt = "User-agent: a\nDisallow: /\n";
	heed_robots *r;
	heed_robots_agent *a;
	struct heed_robots_decision d;

	(void)state;
	assert_int_equal(heed_robots_parse(&r, NULL, txt, strlen(txt), NULL),
	                 HEED_OK);
	assert_int_equal(heed_robots_agent_new(&a, r, "b", 1), HEED_OK);
	assert_false(heed_robots_agent_explicit(a));
	assert_int_equal(heed_robots_agent_group_count(a), 0);
	assert_false(heed_robots_agent_crawl_delay(a, NULL, NULL));
	assert_int_equal(heed_robots_decide(a, "/", 1, &d), HEED_OK);
	assert_true(d.allowed && !d.matched && !d.implicit && !d.rule);
	heed_robots_agent_free(a);
	/* An empty agent name names nobody: only "*" could apply. */
	assert_int_equal(heed_robots_agent_new(&a, r, "", 0), HEED_OK);
	assert_int_equal(heed_robots_agent_group_count(a), 0);
	heed_robots_agent_free(a);
	heed_robots_free(r);
}

static void test_groups_accessors(void **state)
{
	const char *txt = "User-agent: A\nuser-agent: B/2\nDisallow: /a*b$\n"
	                  "Allow: /%7ex\nUser-agent: *\nDisallow:\n";
	heed_robots *r;
	const struct heed_robots_rule *rule;

	(void)state;
	assert_int_equal(heed_robots_parse(&r, NULL, txt, strlen(txt), NULL),
	                 HEED_OK);
	assert_int_equal(heed_robots_group_count(r), 2);
	assert_int_equal(heed_robots_group_line(r, 0), 1);
	assert_int_equal(heed_robots_group_line(r, 1), 5);
	assert_int_equal(heed_robots_group_agent_count(r, 0), 2);
	assert_string_equal(heed_robots_group_agent(r, 0, 0), "A");
	assert_string_equal(heed_robots_group_agent(r, 0, 1), "B");
	assert_null(heed_robots_group_agent(r, 0, 2));
	assert_string_equal(heed_robots_group_agent(r, 1, 0), "*");
	assert_int_equal(heed_robots_group_rule_count(r, 0), 2);
	rule = heed_robots_group_rule(r, 0, 1);
	assert_int_equal(rule->kind, HEED_ROBOTS_ALLOW);
	assert_int_equal(rule->line, 4);
	assert_string_equal(rule->value, "/%7ex");
	assert_string_equal(rule->pattern, "/~x");
	assert_int_equal(rule->pattern_len, 3);
	rule = heed_robots_group_rule(r, 1, 0);
	assert_string_equal(rule->pattern, "");
	assert_null(heed_robots_group_rule(r, 1, 1));
	assert_null(heed_robots_group_rule(r, 2, 0));
	assert_int_equal(heed_robots_group_line(r, 2), 0);
	assert_int_equal(heed_robots_group_agent_count(r, 2), 0);
	assert_int_equal(heed_robots_group_rule_count(r, 2), 0);
	assert_false(heed_robots_group_crawl_delay(r, 2, NULL, NULL));
	assert_string_equal(heed_robots_rule_kind_name(HEED_ROBOTS_DISALLOW),
	                    "Disallow");
	heed_robots_free(r);
}

static void test_sitemaps_and_fields(void **state)
{
	const char *txt = "Sitemap: https://e.com/a.xml\n"
	                  "ACAP-crawler: *\n"
	                  "User-agent: *\nDisallow: /x\n"
	                  "Sitemap: http://e.com/b.xml # news\n"
	                  "ACAP-disallow-crawl: /p  # why\n";
	heed_robots *r;
	const struct heed_robots_field *f;

	(void)state;
	assert_int_equal(heed_robots_parse(&r, heed_test_allocator(), txt,
	                                   strlen(txt), NULL),
	                 HEED_OK);
	assert_int_equal(heed_robots_sitemap_count(r), 2);
	assert_string_equal(heed_robots_sitemap_get(r, 0)->url,
	                    "https://e.com/a.xml");
	assert_int_equal(heed_robots_sitemap_get(r, 1)->line, 5);
	assert_string_equal(heed_robots_sitemap_get(r, 1)->url,
	                    "http://e.com/b.xml");
	assert_null(heed_robots_sitemap_get(r, 2));
	assert_int_equal(heed_robots_field_count(r), 2);
	f = heed_robots_field_get(r, 0);
	assert_string_equal(f->name, "ACAP-crawler");
	assert_int_equal(f->group, HEED_ROBOTS_NO_GROUP);
	f = heed_robots_field_get(r, 1);
	assert_int_equal(f->line, 6);
	assert_int_equal(f->group, 0);
	assert_string_equal(f->value, "/p");
	assert_string_equal(f->raw_value, "/p  # why");
	assert_int_equal(f->raw_value_len, 9);
	assert_null(heed_robots_field_get(r, 2));
	heed_robots_free(r);
}

/* ---- bad input -------------------------------------------------------- */

static void decide_one(const char *txt, size_t len, const char *url,
                       struct heed_robots_decision *d)
{
	heed_robots *r;
	heed_robots_agent *a;

	assert_int_equal(
	        heed_robots_parse(&r, heed_test_allocator(), txt, len, NULL),
	        HEED_OK);
	assert_int_equal(heed_robots_agent_new(&a, r, "heed", 4), HEED_OK);
	assert_int_equal(heed_robots_decide(a, url, strlen(url), d), HEED_OK);
	heed_robots_agent_free(a);
	heed_robots_free(r);
}

static void test_nul_bytes(void **state)
{
	static const char txt[] =
	        "User-agent: *\nDisallow: /a\0b\n\0\nAllow: /c\n";
	struct heed_robots_decision d;
	heed_robots *r;

	(void)state;
	decide_one(txt, sizeof(txt) - 1, "/a%00b", &d);
	assert_int_equal(d.line, 2);
	assert_false(d.allowed);
	decide_one(txt, sizeof(txt) - 1, "/a", &d);
	assert_true(d.allowed);
	decide_one(txt, sizeof(txt) - 1, "/c", &d);
	assert_int_equal(d.line, 4);
	assert_int_equal(
	        heed_robots_parse(&r, NULL, txt, sizeof(txt) - 1, NULL),
	        HEED_OK);
	assert_int_equal(heed_robots_diag_get(r, 0)->code,
	                 HEED_ROBOTS_DIAG_BAD_OCTETS);
	assert_int_equal(heed_robots_diag_get(r, 1)->code,
	                 HEED_ROBOTS_DIAG_SYNTAX);
	heed_robots_free(r);
}

static void test_invalid_utf8(void **state)
{
	const char *txt = "User-agent: *\nDisallow: /\xFF\xFE\n"
	                  "User-agent: \xC3\x28\nDisallow: /\n";
	struct heed_robots_decision d;

	(void)state;
	decide_one(txt, strlen(txt), "/\xFF\xFE/x", &d);
	assert_false(d.allowed);
	decide_one(txt, strlen(txt), "/%ff%fe", &d);
	assert_false(d.allowed);
	decide_one(txt, strlen(txt), "/x", &d);
	assert_true(d.allowed);
}

static void test_whitespace_only(void **state)
{
	const char *txt = "  \n\t\n \r\n\r\r\n   \t";
	heed_robots *r;
	struct heed_robots_decision d;

	(void)state;
	assert_int_equal(heed_robots_parse(&r, NULL, txt, strlen(txt), NULL),
	                 HEED_OK);
	assert_int_equal(heed_robots_group_count(r), 0);
	assert_int_equal(heed_robots_diag_total(r), 0);
	heed_robots_free(r);
	decide_one(txt, strlen(txt), "/x", &d);
	assert_true(d.allowed && !d.matched);
}

static void test_megabyte_lines(void **state)
{
	size_t big = 1024 * 1024, n;
	char *txt = malloc(big * 2 + 64), *url = malloc(big + 2);
	struct heed_robots_decision d;
	heed_robots *r;

	(void)state;
	assert_non_null(txt);
	assert_non_null(url);
	/* A rule, then a megabyte comment: the rule counts, the rest is
	 * over the limit and reported. */
	n = (size_t)snprintf(txt, 64, "User-agent: *\nDisallow: /x\n#");
	memset(txt + n, 'c', big);
	n += big;
	assert_int_equal(
	        heed_robots_parse(&r, heed_test_allocator(), txt, n, NULL),
	        HEED_OK);
	assert_true(heed_robots_truncated(r));
	assert_int_equal(heed_robots_parsed_bytes(r), 27);
	assert_int_equal(heed_robots_diag_get(r, 0)->code,
	                 HEED_ROBOTS_DIAG_TOO_BIG);
	assert_int_equal(heed_robots_diag_get(r, 0)->line, 3);
	heed_robots_free(r);
	/* A megabyte URL against a rule: decided, on the heap path. */
	url[0] = '/';
	memset(url + 1, 'x', big);
	url[big + 1] = '\0';
	decide_one(txt, 27, url, &d);
	assert_false(d.allowed);
	/* A megabyte path made of octets that triple when encoded. */
	memset(url + 1, '\xE9', big);
	decide_one(txt, 27, url, &d);
	assert_true(d.allowed);
	free(url);
	free(txt);
}

/* An allocator that records its peak, for "memory stays bounded". */
struct peak {
	size_t now, max;
};

static void *peak_malloc(void *ud, size_t size)
{
	struct peak *p = ud;
	size_t *b = malloc(size + sizeof(size_t));

	if (!b)
		return NULL;
	*b = size;
	p->now += size;
	if (p->now > p->max)
		p->max = p->now;
	return b + 1;
}

static void peak_free(void *ud, void *ptr)
{
	struct peak *p = ud;
	size_t *b = ptr;

	if (!ptr)
		return;
	p->now -= b[-1];
	free(b - 1);
}

static void *peak_realloc(void *ud, void *ptr, size_t size)
{
	void *n = peak_malloc(ud, size);

	if (n && ptr) {
		size_t old = ((size_t *)ptr)[-1];
		memcpy(n, ptr, old < size ? old : size);
		peak_free(ud, ptr);
	}
	return n;
}

static void test_50mb_garbage(void **state)
{
	size_t len = 50u * 1024 * 1024, i;
	char *junk = malloc(len);
	struct peak peak = {0, 0};
	struct heed_allocator alloc = {peak_malloc, peak_realloc, peak_free,
	                               &peak};
	heed_robots *r;
	heed_robots_agent *a;
	struct heed_robots_decision d;

	(void)state;
	assert_non_null(junk);
	/* Garbage that still lexes into many short lines of all kinds. */
	for (i = 0; i < len; i++) {
		rng_state = rng_state * 6364136223846793005UL + 1;
		junk[i] = (char)(rng_state >> 56);
		if (junk[i] == 'x')
			junk[i] = '\n';
	}
	memcpy(junk, "User-agent: *\nDisallow: /a:\n", 28);
	assert_int_equal(heed_robots_parse(&r, &alloc, junk, len, NULL),
	                 HEED_OK);
	assert_true(heed_robots_truncated(r));
	assert_true(heed_robots_parsed_bytes(r) <=
	            HEED_ROBOTS_PARSE_LIMIT_BYTES);
	assert_true(heed_robots_diag_total(r) > 0);
	assert_int_equal(
	        heed_robots_diag_get(r, heed_robots_diag_count(r) - 1)->code,
	        HEED_ROBOTS_DIAG_TOO_BIG);
	assert_int_equal(heed_robots_agent_new(&a, r, "heed", 4), HEED_OK);
	assert_int_equal(heed_robots_decide(a, "/a:b", 4, &d), HEED_OK);
	assert_false(d.allowed);
	/* Bounded by the parse limit, not the input: well under 20 x 500
	 * KiB whatever the input's size. */
	assert_true(peak.max < 20 * HEED_ROBOTS_PARSE_LIMIT_BYTES);
	heed_robots_agent_free(a);
	heed_robots_free(r);
	assert_int_equal(peak.now, 0);
	free(junk);
}

static void test_many_diagnostics_capped(void **state)
{
	size_t lines = HEED_ROBOTS_MAX_DIAGNOSTICS + 500, i;
	char *txt = malloc(lines * 2);
	heed_robots *r;

	(void)state;
	assert_non_null(txt);
	for (i = 0; i < lines; i++)
		memcpy(txt + 2 * i, "?\n", 2);
	assert_int_equal(heed_robots_parse(&r, NULL, txt, lines * 2, NULL),
	                 HEED_OK);
	assert_int_equal(heed_robots_diag_count(r),
	                 HEED_ROBOTS_MAX_DIAGNOSTICS);
	assert_int_equal(heed_robots_diag_total(r), lines);
	heed_robots_free(r);
	free(txt);
}

static void test_bad_arguments(void **state)
{
	heed_robots *r = NULL;
	heed_robots_agent *a = NULL;
	struct heed_robots_decision d;

	(void)state;
	assert_int_equal(heed_robots_parse(NULL, NULL, "", 0, NULL),
	                 HEED_EINVAL);
	assert_int_equal(heed_robots_parse(&r, NULL, NULL, 1, NULL),
	                 HEED_EINVAL);
	assert_int_equal(heed_robots_parse(&r, NULL, NULL, 0, NULL), HEED_OK);
	assert_int_equal(heed_robots_agent_new(&a, NULL, "x", 1), HEED_EINVAL);
	assert_int_equal(heed_robots_agent_new(&a, r, NULL, 1), HEED_EINVAL);
	assert_int_equal(heed_robots_agent_new(&a, r, NULL, 0), HEED_OK);
	assert_int_equal(heed_robots_decide(a, NULL, 1, &d), HEED_EINVAL);
	assert_int_equal(heed_robots_decide(a, NULL, 0, &d), HEED_OK);
	assert_true(d.allowed);
	heed_robots_agent_free(a);
	heed_robots_free(r);
	heed_robots_agent_free(NULL);
	heed_robots_free(NULL);
	assert_string_equal(
	        heed_robots_diag_code_name((heed_robots_diag_code)999),
	        "unknown");
	assert_false(heed_robots_pattern_match("", 0, "/", 1));
}

/* ---- the parse's shortcuts ------------------------------------------ */

/* The parse keeps a rule's value as its pattern when the lexer's scan says
 * no octet of it can change: for every octet, at the start, in the middle
 * and past the scanner's first and second 16-octet blocks, the pattern must
 * be exactly what normalising the value gives (the lexer's own tests check
 * its octet classes; this checks the parse relies on them rightly). */
static void test_pattern_every_octet(void **state)
{
	static const char *const shapes[] = {"/%c", "/ab%cde",
	                                     "/0123456789abcdef%c/x",
	                                     "/0123456789abcdef0123456789%cz"};
	unsigned c;
	size_t s;

	(void)state;
	for (c = 1; c < 256; c++) {
		if (c == '\n' || c == '\r' || c == '#')
			continue;
		for (s = 0; s < HEED_ARRAY_SIZE(shapes); s++) {
			char value[64], txt[192], want[256];
			heed_robots *r;
			const struct heed_robots_rule *rule;
			size_t vlen, wlen;
			const char *v = value;

			snprintf(value, sizeof(value), shapes[s], (int)c);
			vlen = strlen(value);
			/* The lexer trims white space: so must the expectation.
			 */
			while (vlen &&
			       (v[vlen - 1] == ' ' || v[vlen - 1] == '\t'))
				vlen--;
			/* A comment after the rule, so that the scanner's
			 * blocks (not its byte loop) see the value's end. */
			snprintf(txt, sizeof(txt),
			         "User-agent: *\nDisallow: %s\n# %s\n", value,
			         "padding past the last block of the rule");
			assert_int_equal(heed_robots_parse(&r, NULL, txt,
			                                   strlen(txt), NULL),
			                 HEED_OK);
			rule = heed_robots_group_rule(r, 0, 0);
			assert_non_null(rule);
			wlen = heed__pct_normalize(want, sizeof(want), v, vlen,
			                           0);
			if (rule->pattern_len != wlen ||
			    memcmp(rule->pattern, want, wlen) != 0 ||
			    rule->pattern[wlen] != '\0')
				fail_msg("octet 0x%02X in '%s': pattern '%s', "
				         "want "
				         "'%s'",
				         c, shapes[s], rule->pattern, want);
			heed_robots_free(r);
		}
	}
}

/* ---- agents on several threads --------------------------------------- */

#define THREAD_URLS 64

struct thread_job {
	const heed_robots *r;
	const char *agent;
	char urls[THREAD_URLS][48];
	unsigned lines[THREAD_URLS]; /* the deciding rule's line, 0: none */
	bool allowed[THREAD_URLS];
	heed_status rc;
};

/* Resolves the agent a few times and decides every URL with it. */
static void *thread_decide(void *arg)
{
	struct thread_job *job = arg;
	int round;

	for (round = 0; round < 20 && job->rc == HEED_OK; round++) {
		heed_robots_agent *a;
		size_t i;
		job->rc = heed_robots_agent_new(&a, job->r, job->agent,
		                                strlen(job->agent));
		for (i = 0; job->rc == HEED_OK && i < THREAD_URLS; i++) {
			struct heed_robots_decision d;
			job->rc = heed_robots_decide(a, job->urls[i],
			                             strlen(job->urls[i]), &d);
			job->lines[i] = d.line;
			job->allowed[i] = d.allowed;
		}
		heed_robots_agent_free(a);
	}
	return NULL;
}

/* A parse is immutable: agents resolved from it on two threads at once
 * (each compiling its groups into itself) decide exactly as agents
 * resolved alone, one per group, from files holding only that group. */
static void test_agents_on_threads(void **state)
{
	static const char *const words[] = {"a", "news", "b", "x",  "%E3",
	                                    "*", "c",    "$", "img"};
	char txt[8192], solo[2][8192];
	size_t n = 0, m[2] = {0, 0}, i, t;
	struct thread_job jobs[2];
	pthread_t th[2];
	heed_robots *r;

	(void)state;
	memset(jobs, 0, sizeof(jobs));
	jobs[0].agent = "heedbot/2.0";
	jobs[1].agent = "other";
	for (t = 0; t < 2; t++) {
		const char *ua = t == 0 ? "HeedBot" : "*";
		int k = snprintf(txt + n, sizeof(txt) - n, "User-agent: %s\n",
		                 ua);
		n += (size_t)k;
		m[t] = (size_t)snprintf(solo[t], sizeof(solo[t]),
		                        "User-agent: %s\n", ua);
		for (i = 0; i < 60; i++) {
			char line[64];
			snprintf(line, sizeof(line), "%s: /%s/%s%s\n",
			         rnd(3) ? "Disallow" : "Allow",
			         words[rnd(HEED_ARRAY_SIZE(words))],
			         words[rnd(HEED_ARRAY_SIZE(words))],
			         rnd(5) ? "" : "$");
			n += (size_t)snprintf(txt + n, sizeof(txt) - n, "%s",
			                      line);
			m[t] += (size_t)snprintf(solo[t] + m[t],
			                         sizeof(solo[t]) - m[t], "%s",
			                         line);
		}
	}
	for (t = 0; t < 2; t++)
		for (i = 0; i < THREAD_URLS; i++)
			snprintf(jobs[t].urls[i], sizeof(jobs[t].urls[i]),
			         "https://e.org/%s/%s%s",
			         words[rnd(HEED_ARRAY_SIZE(words))],
			         words[rnd(HEED_ARRAY_SIZE(words))],
			         words[rnd(HEED_ARRAY_SIZE(words))]);
	assert_int_equal(heed_robots_parse(&r, NULL, txt, n, NULL), HEED_OK);
	for (t = 0; t < 2; t++) {
		jobs[t].r = r;
		assert_int_equal(
		        pthread_create(&th[t], NULL, thread_decide, &jobs[t]),
		        0);
	}
	for (t = 0; t < 2; t++)
		assert_int_equal(pthread_join(th[t], NULL), 0);
	for (t = 0; t < 2; t++) {
		struct thread_job alone = jobs[t];
		heed_robots *s;
		assert_int_equal(jobs[t].rc, HEED_OK);
		assert_int_equal(
		        heed_robots_parse(&s, NULL, solo[t], m[t], NULL),
		        HEED_OK);
		alone.r = s;
		thread_decide(&alone);
		assert_int_equal(alone.rc, HEED_OK);
		for (i = 0; i < THREAD_URLS; i++) {
			/* The merged file has the "*" group 61 lines down. */
			unsigned shift = t == 1 && alone.lines[i] ? 61 : 0;
			if (jobs[t].allowed[i] != alone.allowed[i] ||
			    jobs[t].lines[i] != alone.lines[i] + shift)
				fail_msg("%s %s: line %u on a thread, %u alone",
				         jobs[t].agent, jobs[t].urls[i],
				         jobs[t].lines[i], alone.lines[i]);
		}
		heed_robots_free(s);
	}
	heed_robots_free(r);
}

/* libuv's OOM loop: fail each allocation in turn; every failure must be a
 * clean HEED_ENOMEM with nothing leaked (cmocka checks). */
static void test_oom(void **state)
{
	const char *txt =
	        "Sitemap: https://e.com/s.xml\nUser-agent: heed\n"
	        "Disallow: /a*b\nAllow: /a\nCrawl-delay: 1\nFoo: bar\n"
	        "User-agent: *\nDisallow: /\nbroken line\n";
	unsigned long n;
	heed_status rc;

	(void)state;
	for (n = 0;; n++) {
		struct heed_test_fail f = {.fail_at = n};
		heed_robots *r;
		heed_robots_agent *a;

		rc = heed_robots_parse(&r, heed_test_failing_allocator(&f), txt,
		                       strlen(txt), NULL);
		if (rc != HEED_OK) {
			assert_int_equal(rc, HEED_ENOMEM);
			assert_null(r);
			continue;
		}
		rc = heed_robots_agent_new(&a, r, "heed", 4);
		heed_robots_agent_free(a);
		heed_robots_free(r);
		if (rc == HEED_OK)
			break;
		assert_int_equal(rc, HEED_ENOMEM);
		assert_null(a);
	}
	/* The parse's block, its diagnostics and fields arrays, its arena
	 * (messages, field strings) and the agent's block: each one failed
	 * once above. */
	assert_true(n >= 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_decide_table),
	        cmocka_unit_test(test_normalize_table),
	        cmocka_unit_test(test_normalize_truncates),
	        cmocka_unit_test(test_reserved_escapes_fold),
	        cmocka_unit_test(test_plain_len_agrees),
	        cmocka_unit_test(test_differential),
	        cmocka_unit_test(test_fast_rule_path_agrees),
	        cmocka_unit_test(test_hostile_pattern),
	        cmocka_unit_test(test_diag_table),
	        cmocka_unit_test(test_clean_file_has_no_diagnostics),
	        cmocka_unit_test(test_lint_quiet),
	        cmocka_unit_test(test_misplaced_dollar_is_literal),
	        cmocka_unit_test(test_crawl_delay_values),
	        cmocka_unit_test(test_agent_crawl_delay),
	        cmocka_unit_test(test_no_groups_apply),
	        cmocka_unit_test(test_groups_accessors),
	        cmocka_unit_test(test_sitemaps_and_fields),
	        cmocka_unit_test(test_nul_bytes),
	        cmocka_unit_test(test_invalid_utf8),
	        cmocka_unit_test(test_whitespace_only),
	        cmocka_unit_test(test_megabyte_lines),
	        cmocka_unit_test(test_50mb_garbage),
	        cmocka_unit_test(test_many_diagnostics_capped),
	        cmocka_unit_test(test_bad_arguments),
	        cmocka_unit_test(test_oom),
	        cmocka_unit_test(test_pattern_every_octet),
	        cmocka_unit_test(test_agents_on_threads),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
