/*
 * Unit tests for the pure core of per-site arrangements (src/arrange):
 * delays (units, the 1 s floor, the day's ceiling), page counts, modes,
 * patterns, crawl windows (parsing, midnight, when the next one opens)
 * and the robots.txt text the patterns become, read by heed's own robots
 * matcher as the crawl reads it.
 */
#include "heed_test.h"

#include "heed/arrangement.h"
#include "heed/robots.h"

static int64_t delay(const char *text, bool *raised)
{
	int64_t ms = -1;

	assert_int_equal(heed_arrangement_parse_delay(text, &ms, raised, NULL),
	                 HEED_OK);
	return ms;
}

static void delays(void **state)
{
	bool raised;
	struct heed_diag d;
	int64_t ms;

	(void)state;
	assert_int_equal(delay("5s", &raised), 5000);
	assert_false(raised);
	assert_int_equal(delay("5", &raised), 5000);
	assert_int_equal(delay("2.5", &raised), 2500);
	assert_int_equal(delay("1500ms", &raised), 1500);
	assert_int_equal(delay("2m", &raised), 120000);
	assert_int_equal(delay("1h", &raised), 3600000);
	/* Never faster than one request a second: raised, and said. */
	assert_int_equal(delay("200ms", &raised), 1000);
	assert_true(raised);
	assert_int_equal(delay("0", &raised), 1000);
	assert_true(raised);
	assert_int_equal(delay("0.999", &raised), 1000);
	assert_true(raised);
	assert_int_equal(heed_arrangement_parse_delay("", &ms, &raised, &d),
	                 HEED_EINVAL);
	assert_int_equal(heed_arrangement_parse_delay("5 s", &ms, &raised, &d),
	                 HEED_EINVAL);
	assert_non_null(strstr(d.message, "unit"));
	assert_int_equal(heed_arrangement_parse_delay("-1", &ms, &raised, &d),
	                 HEED_EINVAL);
	assert_int_equal(heed_arrangement_parse_delay("25h", &ms, &raised, &d),
	                 HEED_EINVAL);
	assert_non_null(strstr(d.message, "pause"));
	assert_int_equal(heed_arrangement_parse_delay("99999999999999999999s",
	                                              &ms, &raised, &d),
	                 HEED_EINVAL);
	assert_int_equal(heed_arrangement_parse_delay(".", &ms, &raised, &d),
	                 HEED_EINVAL);
}

static void counts_and_modes(void **state)
{
	int64_t n;
	heed_arrangement_mode m;

	(void)state;
	assert_int_equal(heed_arrangement_parse_count("500", &n, NULL),
	                 HEED_OK);
	assert_int_equal(n, 500);
	assert_int_equal(heed_arrangement_parse_count("0", &n, NULL),
	                 HEED_EINVAL);
	assert_int_equal(heed_arrangement_parse_count("5x", &n, NULL),
	                 HEED_EINVAL);
	assert_int_equal(heed_arrangement_parse_count("", &n, NULL),
	                 HEED_EINVAL);
	assert_int_equal(heed_arrangement_parse_count("99999999999", &n, NULL),
	                 HEED_EINVAL);
	assert_int_equal(heed_arrangement_mode_parse("incremental-only", &m),
	                 HEED_OK);
	assert_int_equal(m, HEED_ARRANGEMENT_INCREMENTAL);
	assert_int_equal(heed_arrangement_mode_parse("paused", &m), HEED_OK);
	assert_string_equal(heed_arrangement_mode_name(m), "paused");
	assert_int_equal(heed_arrangement_mode_parse("fast", &m), HEED_EINVAL);
	{
		heed_arrangement_endpoint_kind k = HEED_ENDPOINT_SOURCE;
		assert_int_equal(
		        heed_arrangement_endpoint_kind_parse("oembed", &k),
		        HEED_OK);
		assert_int_equal(k, HEED_ENDPOINT_OEMBED);
		assert_string_equal(heed_arrangement_endpoint_kind_name(k),
		                    "oembed");
		assert_int_equal(
		        heed_arrangement_endpoint_kind_parse("feed", &k),
		        HEED_OK);
		assert_string_equal(heed_arrangement_endpoint_kind_name(k),
		                    "source");
		assert_int_equal(
		        heed_arrangement_endpoint_kind_parse("json", &k),
		        HEED_EINVAL);
	}
}

static void patterns(void **state)
{
	(void)state;
	assert_int_equal(heed_arrangement_check_pattern("/videos/", NULL),
	                 HEED_OK);
	assert_int_equal(heed_arrangement_check_pattern("*.pdf$", NULL),
	                 HEED_OK);
	assert_int_equal(heed_arrangement_check_pattern("videos", NULL),
	                 HEED_EINVAL);
	assert_int_equal(heed_arrangement_check_pattern("/a b", NULL),
	                 HEED_EINVAL);
	assert_int_equal(heed_arrangement_check_pattern("/a\nb", NULL),
	                 HEED_EINVAL);
	assert_int_equal(heed_arrangement_check_pattern("", NULL), HEED_EINVAL);
}

static size_t windows(const char *text, struct heed_arrangement_window w[])
{
	size_t n = 0;

	assert_int_equal(
	        heed_arrangement_parse_windows(text, strlen(text), w, &n, NULL),
	        HEED_OK);
	return n;
}

static void bad_window(const char *text)
{
	struct heed_arrangement_window w[HEED_ARRANGEMENT_MAX_WINDOWS];
	size_t n = 99;

	assert_int_equal(
	        heed_arrangement_parse_windows(text, strlen(text), w, &n, NULL),
	        HEED_EINVAL);
	assert_int_equal(n, 0);
}

#define AT(h, m) (1763596800LL + (h)*3600 + (m)*60) /* a UTC midnight */

static void window_parsing(void **state)
{
	struct heed_arrangement_window w[HEED_ARRANGEMENT_MAX_WINDOWS];
	char buf[256];

	(void)state;
	assert_int_equal(windows("01:00-06:00", w), 1);
	assert_int_equal(w[0].start_min, 60);
	assert_int_equal(w[0].end_min, 360);
	assert_int_equal(windows("1:00-6:30, 22:00-02:00", w), 2);
	assert_string_equal(
	        heed_arrangement_windows_format(w, 2, buf, sizeof(buf)),
	        "01:00-06:30,22:00-02:00");
	assert_int_equal(windows("00:00-24:00", w), 1);
	bad_window("");
	bad_window("01:00");
	bad_window("01:00-");
	bad_window("25:00-26:00");
	bad_window("01:60-02:00");
	bad_window("03:00-03:00");
	bad_window("24:00-01:00");
	bad_window("01:00-02:00x");
	bad_window("1-2");
	bad_window("0:00-1:00,1:00-2:00,2:00-3:00,3:00-4:00,4:00-5:00,"
	           "5:00-6:00,6:00-7:00,7:00-8:00,8:00-9:00");
}

static void window_open(void **state)
{
	struct heed_arrangement_window w[HEED_ARRANGEMENT_MAX_WINDOWS] = {{0}};
	int64_t in;
	size_t n;

	(void)state;
	assert_true(heed_arrangement_window_open(w, 0, AT(12, 0), &in));
	n = windows("01:00-06:00", w);
	assert_true(heed_arrangement_window_open(w, n, AT(1, 0), &in));
	assert_int_equal(in, 0);
	assert_true(heed_arrangement_window_open(w, n, AT(5, 59), &in));
	/* The end is not in the window. */
	assert_false(heed_arrangement_window_open(w, n, AT(6, 0), &in));
	assert_int_equal(in, 19 * 3600);
	assert_false(heed_arrangement_window_open(w, n, AT(0, 30) + 15, &in));
	assert_int_equal(in, 30 * 60 - 15);
	/* Across midnight. */
	n = windows("22:00-02:00", w);
	assert_true(heed_arrangement_window_open(w, n, AT(23, 0), &in));
	assert_true(heed_arrangement_window_open(w, n, AT(1, 59), &in));
	assert_false(heed_arrangement_window_open(w, n, AT(2, 0), &in));
	assert_int_equal(in, 20 * 3600);
	/* The nearest of several. */
	n = windows("22:00-23:00,08:00-09:00", w);
	assert_false(heed_arrangement_window_open(w, n, AT(7, 0), &in));
	assert_int_equal(in, 3600);
	n = windows("00:00-24:00", w);
	assert_true(heed_arrangement_window_open(w, n, AT(13, 7), &in));
}

static bool allowed(const char *rules, const char *path)
{
	heed_robots *r = NULL;
	heed_robots_agent *ag = NULL;
	struct heed_robots_decision d;

	assert_int_equal(
	        heed_robots_parse(&r, NULL, rules, strlen(rules), NULL),
	        HEED_OK);
	assert_int_equal(heed_robots_agent_new(&ag, r, "heed", 4), HEED_OK);
	assert_int_equal(heed_robots_decide(ag, path, strlen(path), &d),
	                 HEED_OK);
	heed_robots_agent_free(ag);
	heed_robots_free(r);
	return d.allowed;
}

static void rules_text(void **state)
{
	struct heed_arrangement a = {0};
	bool oom;
	char *t;

	(void)state;
	assert_null(
	        heed_arrangement_rules_text(&a, heed_test_allocator(), &oom));
	assert_false(oom);
	a.exclude = "/search\n*.pdf$";
	t = heed_arrangement_rules_text(&a, heed_test_allocator(), &oom);
	assert_non_null(t);
	assert_false(allowed(t, "/search?q=1"));
	assert_false(allowed(t, "/a/b.pdf"));
	assert_true(allowed(t, "/a/b.pdf?x"));
	assert_true(allowed(t, "/"));
	test_free(t);
	a.include = "/videos/";
	a.exclude = "/videos/private/";
	t = heed_arrangement_rules_text(&a, heed_test_allocator(), &oom);
	assert_true(allowed(t, "/videos/1"));
	assert_false(allowed(t, "/videos/private/2"));
	assert_false(allowed(t, "/"));
	assert_false(allowed(t, "/news/"));
	test_free(t);
	for (int n = 0;; n++) {
		struct heed_test_fail f = {.fail_at = n};
		t = heed_arrangement_rules_text(
		        &a, heed_test_failing_allocator(&f), &oom);
		if (t) {
			test_free(t);
			break;
		}
		assert_true(oom);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(delays),
	        cmocka_unit_test(counts_and_modes),
	        cmocka_unit_test(patterns),
	        cmocka_unit_test(window_parsing),
	        cmocka_unit_test(window_open),
	        cmocka_unit_test(rules_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
