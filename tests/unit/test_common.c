/*
 * Unit tests for src/common: status names, the bounded buffer, the arena and
 * the logging funnel.
 */
#include "heed_test.h"

#include "common/common-int.h"

static void test_status_names(void **state)
{
	(void)state;
	assert_string_equal(heed_status_name(HEED_OK), "HEED_OK");
	assert_string_equal(heed_status_name(HEED_ENOMEM), "HEED_ENOMEM");
	assert_string_equal(heed_strerror(HEED_ENOMEM), "out of memory");
	assert_string_equal(heed_status_name((heed_status)9999),
	                    "HEED_UNKNOWN");
	assert_string_equal(heed_strerror((heed_status)9999), "unknown status");
}

static void test_diag(void **state)
{
	struct heed_diag d;

	(void)state;
	assert_int_equal(heed_diag_set(NULL, HEED_EPARSE, 1, 2, "x"),
	                 HEED_EPARSE);
	assert_int_equal(heed_diag_set(&d, HEED_EPARSE, 3, 4, "bad %s", "line"),
	                 HEED_EPARSE);
	assert_int_equal(d.line, 3);
	assert_int_equal(d.column, 4);
	assert_string_equal(d.message, "bad line");
}

static void test_buf_ceiling(void **state)
{
	struct heed_buf b;

	(void)state;
	heed__buf_init(&b, heed_test_allocator(), 8);
	assert_string_equal(heed__buf_str(&b), "");
	assert_int_equal(heed__buf_add(&b, "abcd", 4), HEED_OK);
	assert_int_equal(heed__buf_addf(&b, "%d", 123), HEED_OK);
	assert_string_equal(heed__buf_str(&b), "abcd123");
	assert_int_equal(heed__buf_addc(&b, 'x'), HEED_OK);
	/* Past the ceiling: refused, content unchanged. */
	assert_int_equal(heed__buf_addc(&b, 'y'), HEED_ETOOBIG);
	assert_int_equal(heed__buf_addf(&b, "%s", "zz"), HEED_ETOOBIG);
	assert_string_equal(heed__buf_str(&b), "abcd123x");
	heed__buf_free(&b);
}

static void test_buf_take(void **state)
{
	struct heed_buf b;
	char *s;

	(void)state;
	heed__buf_init(&b, heed_test_allocator(), 1000);
	assert_null(heed__buf_take(&b));
	assert_int_equal(heed__buf_add(&b, "hello", 5), HEED_OK);
	s = heed__buf_take(&b);
	assert_string_equal(s, "hello");
	assert_int_equal(b.len, 0);
	heed__free(heed_test_allocator(), s);
	heed__buf_free(&b);
}

static void test_buf_oom(void **state)
{
	struct heed_test_fail f = {.fail_at = 0};
	struct heed_buf b;

	(void)state;
	heed__buf_init(&b, heed_test_failing_allocator(&f), 100);
	assert_int_equal(heed__buf_add(&b, "x", 1), HEED_ENOMEM);
	assert_int_equal(heed__buf_add(&b, "x", 1), HEED_OK);
	heed__buf_free(&b);
}

static void test_arena(void **state)
{
	struct heed_arena ar;
	char *s[1000];
	size_t i;

	(void)state;
	heed__arena_init(&ar, heed_test_allocator());
	for (i = 0; i < HEED_ARRAY_SIZE(s); i++) {
		s[i] = heed__arena_strndup(&ar, "0123456789", i % 11);
		assert_non_null(s[i]);
		assert_int_equal(((uintptr_t)s[i]) % 8, 0);
	}
	for (i = 0; i < HEED_ARRAY_SIZE(s); i++)
		assert_int_equal(strlen(s[i]), i % 11);
	/* A request bigger than any block gets a block of its own. */
	assert_non_null(heed__arena_alloc(&ar, 3 * 1024 * 1024));
	heed__arena_free(&ar);
	heed__arena_free(&ar); /* freeing twice is harmless */
}

struct captured {
	int calls;
	char last[64];
};

static void capture(void *ud, heed_log_level level, const char *module,
                    const char *message)
{
	struct captured *c = ud;

	(void)level;
	(void)module;
	c->calls++;
	snprintf(c->last, sizeof(c->last), "%s", message);
}

static void test_log_level_filter(void **state)
{
	struct captured c = {0};
	struct heed_logger lg = {capture, &c, HEED_LOG_WARN};

	(void)state;
	heed_log(&lg, HEED_LOG_DEBUG, "t", "hidden %d", 1);
	heed_log(&lg, HEED_LOG_ERROR, "t", "shown %d", 2);
	heed_log(NULL, HEED_LOG_ERROR, "t", "nowhere");
	assert_int_equal(c.calls, 1);
	assert_string_equal(c.last, "shown 2");
}

static void test_ascii_ieq(void **state)
{
	(void)state;
	assert_true(heed__ascii_ieq("User-Agent", 10, "user-agent"));
	assert_false(heed__ascii_ieq("User-Agen", 9, "user-agent"));
	assert_false(heed__ascii_ieq("User-Agents", 11, "user-agent"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_status_names),
	        cmocka_unit_test(test_diag),
	        cmocka_unit_test(test_buf_ceiling),
	        cmocka_unit_test(test_buf_take),
	        cmocka_unit_test(test_buf_oom),
	        cmocka_unit_test(test_arena),
	        cmocka_unit_test(test_log_level_filter),
	        cmocka_unit_test(test_ascii_ieq),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
