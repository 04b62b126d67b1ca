/*
 * Unit tests for heed_net_fresh_for: the freshness lifetime of RFC 9111
 * 4.2.1 from Cache-Control, Expires and Date, as a private cache computes
 * it. One table, each case named by the sentence of the RFC it proves.
 */
#include "heed_test.h"

#include "heed/net.h"

/* Sun, 06 Nov 1994 08:49:37 GMT */
#define T0 784111777LL

static const struct fresh_case {
	const char *name, *cache_control, *expires, *date;
	int64_t want;
} fresh_cases[] = {
        {"nothing said", NULL, NULL, NULL, -1},
        {"5.2.2.1 max-age", "max-age=3600", NULL, NULL, 3600},
        {"5.2.2.1 max-age=0", "max-age=0", NULL, NULL, 0},
        {"5.2 names are case-insensitive", "Max-Age=60", NULL, NULL, 60},
        {"5.2 ows around commas, empty members", " , public ,max-age=7,,", NULL,
         NULL, 7},
        {"5.2 the quoted form is accepted", "max-age=\"42\"", NULL, NULL, 42},
        {"5.2 a comma inside quotes is not a separator",
         "private=\"a, max-age=5\", max-age=9", NULL, NULL, 9},
        {"5.2 a quote hides max-age from the list", "foo=\"max-age=5, bar\"",
         NULL, NULL, -1},
        {"5.2 an unterminated quote runs to the end", "foo=\"x, max-age=5",
         NULL, NULL, -1},
        {"1.2.2 delta-seconds is digits: negative", "max-age=-1", NULL, NULL,
         0},
        {"1.2.2 delta-seconds is digits: fraction", "max-age=1.5", NULL, NULL,
         0},
        {"1.2.2 delta-seconds is digits: empty", "max-age=", NULL, NULL, 0},
        {"1.2.2 delta-seconds is digits: missing", "max-age", NULL, NULL, 0},
        {"1.2.2 delta-seconds is digits: junk after", "max-age=5x", NULL, NULL,
         0},
        {"1.2.2 junk after a quoted value", "max-age=\"5\"x", NULL, NULL, 0},
        {"1.2.2 too big saturates at 2^31", "max-age=99999999999999999999",
         NULL, NULL, 2147483648LL},
        {"4.2.1 two max-age: stale", "max-age=60, max-age=60", NULL, NULL, 0},
        {"4.2.1 two max-age over two lines: stale", "max-age=60, max-age=9",
         NULL, NULL, 0},
        {"5.2.2.4 no-cache", "no-cache", NULL, NULL, 0},
        {"5.2.2.5 no-store", "NO-STORE", NULL, NULL, 0},
        {"4.2.1 most restrictive: no-cache beats max-age",
         "max-age=600, no-cache", NULL, NULL, 0},
        {"5.2.2.4 qualified no-cache is no-cache",
         "no-cache=\"Set-Cookie, X-A\", max-age=60", NULL, NULL, 0},
        {"5.2.2.10 s-maxage is for shared caches", "s-maxage=60", NULL, NULL,
         -1},
        {"5.2.2.10 s-maxage does not override max-age",
         "s-maxage=60, max-age=5", NULL, NULL, 5},
        {"5.2.2.7 private is ignored by a private cache", "private", NULL, NULL,
         -1},
        {"5.2.3 extensions are ignored", "community=\"UCI\", max-age=30", NULL,
         NULL, 30},
        {"5.3 max-age overrides Expires", "max-age=10",
         "Sun, 06 Nov 1994 09:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 GMT", 10},
        {"4.2.1 Expires minus Date", NULL, "Sun, 06 Nov 1994 09:49:37 GMT",
         "Sun, 06 Nov 1994 08:49:37 GMT", 3600},
        {"4.2.1 Expires minus Date, not the local clock", "public",
         "Sun, 06 Nov 1994 09:49:37 GMT", "Sun, 06 Nov 1994 08:59:37 GMT",
         3000},
        {"4.2.1 no Date: Expires minus now", NULL,
         "Sun, 06 Nov 1994 08:50:37 GMT", NULL, 60},
        {"4.2.1 a bad Date: Expires minus now", NULL,
         "Sun, 06 Nov 1994 08:50:37 GMT", "yesterday", 60},
        {"RFC 9110 5.6.7 obsolete date forms", NULL,
         "Sunday, 06-Nov-94 08:50:37 GMT", "Sun Nov  6 08:49:37 1994", 60},
        {"5.3 Expires in the past", NULL, "Sun, 06 Nov 1994 08:48:37 GMT", NULL,
         0},
        {"5.3 Expires \"0\" is in the past", NULL, "0", NULL, 0},
        {"5.3 an invalid Expires is in the past", NULL, "soon", NULL, 0},
        {"5.3 an empty Expires is in the past", NULL, "", NULL, 0},
        {"4.2.1 two Expires lines (joined): stale", NULL,
         "Sun, 06 Nov 1994 09:49:37 GMT, Sun, 06 Nov 1994 09:49:37 GMT", NULL,
         0},
        {"5.3 white space around Expires", NULL,
         " Sun, 06 Nov 1994 08:50:37 GMT\t", NULL, 60},
        {"5.2.2.4 no-cache beats Expires", "no-cache",
         "Sun, 06 Nov 1994 09:49:37 GMT", NULL, 0},
        {"an invalid max-age beats Expires", "max-age=x",
         "Sun, 06 Nov 1994 09:49:37 GMT", NULL, 0},
        {"a Cache-Control with nothing usable leaves Expires", "public",
         "Sun, 06 Nov 1994 08:50:37 GMT", NULL, 60},
        {"a directive name alone is not max-age", "max-ages=5", NULL, NULL, -1},
        {"junk members are skipped", "=, \"x\", @@, max-age=11", NULL, NULL,
         11},
        {"ows around =", "max-age = 12", NULL, NULL, 12},
};

static void test_fresh_cases(void **state)
{
	size_t i;
	int failed = 0;

	(void)state;
	for (i = 0; i < HEED_ARRAY_SIZE(fresh_cases); i++) {
		const struct fresh_case *c = &fresh_cases[i];
		int64_t got = heed_net_fresh_for(c->cache_control, c->expires,
		                                 c->date, T0);

		if (got != c->want) {
			print_error("%s: got %lld, want %lld\n", c->name,
			            (long long)got, (long long)c->want);
			failed++;
		}
	}
	assert_int_equal(failed, 0);
}

/* Every byte value in every position: never negative below -1, never a
 * crash (the fuzz target does the same over random inputs). */
static void test_fresh_any_bytes(void **state)
{
	char text[4];

	(void)state;
	for (int a = 1; a < 256; a++) {
		for (int b = 0; b < 256; b += 17) {
			int64_t got;

			text[0] = (char)a;
			text[1] = (char)b;
			text[2] = '"';
			text[3] = '\0';
			got = heed_net_fresh_for(text, text, text, T0);
			assert_true(got >= -1);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_fresh_cases),
	        cmocka_unit_test(test_fresh_any_bytes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
