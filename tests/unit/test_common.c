/*
 * Unit tests for src/common: status names, the bounded buffer, the arena and
 * the logging funnel.
 */
#include "heed_test.h"

#include <json-c/json.h>

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

/* The JSON writer: exact text for a small document, and json-c reads back
 * every awkward string and number as written. */
static void test_json_writer(void **state)
{
	static const char *const strings[] = {
	        "",
	        "plain",
	        "quote \" and backslash \\",
	        "tab\tnl\ncr\r",
	        "\x01\x1f\x7f",
	        "caf\xc3\xa9 \xe2\x80\x94 \xf0\x9f\x8e\xac",
	        "</script>",
	        "slash / stays",
	};
	struct heed_buf b;
	struct heed_json j;
	json_object *o, *arr, *v;

	(void)state;
	heed__buf_init(&b, heed_test_allocator(), 4096);
	heed__json_init(&j, &b);
	heed__json_open(&j, '{');
	heed__json_key(&j, "a");
	heed__json_int(&j, -1);
	heed__json_key(&j, "b");
	heed__json_open(&j, '[');
	heed__json_bool(&j, true);
	heed__json_open(&j, '{');
	heed__json_close(&j, '}');
	heed__json_string(&j, NULL);
	heed__json_close(&j, ']');
	heed__json_key(&j, "c");
	heed__json_open(&j, '[');
	heed__json_close(&j, ']');
	/* A member with its "absent" value is left out, commas and all. */
	heed__json_int_member(&j, "d", -1, -1);
	heed__json_int_member(&j, "e", 0, -1);
	heed__json_close(&j, '}');
	assert_int_equal(j.rc, HEED_OK);
	assert_string_equal(heed__buf_str(&b),
	                    "{\"a\":-1,\"b\":[true,{},null],\"c\":[],"
	                    "\"e\":0}");

	heed__buf_reset(&b);
	heed__json_init(&j, &b);
	heed__json_open(&j, '[');
	for (size_t i = 0; i < HEED_ARRAY_SIZE(strings); i++)
		heed__json_string(&j, strings[i]);
	heed__json_int(&j, INT64_MIN);
	heed__json_int(&j, INT64_MAX);
	heed__json_close(&j, ']');
	assert_int_equal(j.rc, HEED_OK);
	arr = json_tokener_parse(heed__buf_str(&b));
	assert_non_null(arr);
	assert_int_equal(json_object_array_length(arr),
	                 HEED_ARRAY_SIZE(strings) + 2);
	for (size_t i = 0; i < HEED_ARRAY_SIZE(strings); i++) {
		v = json_object_array_get_idx(arr, i);
		assert_string_equal(json_object_get_string(v), strings[i]);
	}
	o = json_object_array_get_idx(arr, HEED_ARRAY_SIZE(strings));
	assert_true(json_object_get_int64(o) == INT64_MIN);
	o = json_object_array_get_idx(arr, HEED_ARRAY_SIZE(strings) + 1);
	assert_true(json_object_get_int64(o) == INT64_MAX);
	json_object_put(arr);

	/* A full buffer is an error kept in rc, never a truncated text. */
	heed__buf_free(&b);
	heed__buf_init(&b, heed_test_allocator(), 8);
	heed__json_init(&j, &b);
	heed__json_open(&j, '[');
	heed__json_string(&j, "longer than eight");
	heed__json_close(&j, ']');
	assert_int_equal(j.rc, HEED_ETOOBIG);
	heed__buf_free(&b);
}

/* Past 64 levels the writer once shared a level's comma bit with another's
 * and wrote invalid JSON with rc HEED_OK. Deep nesting must either come out
 * right or fail in rc, never corrupt the text. */
/* [depth, [depth - 1, ... [] ...], depth]: the innermost array empty. */
static void nest(struct heed_json *j, unsigned depth)
{
	heed__json_open(j, '[');
	if (depth > 1) {
		heed__json_int(j, depth);
		nest(j, depth - 1);
		heed__json_int(j, depth);
	}
	heed__json_close(j, ']');
}

static void check_nested(json_object *o, unsigned depth)
{
	for (unsigned d = depth; d > 1; d--) {
		assert_true(json_object_is_type(o, json_type_array));
		assert_int_equal(json_object_array_length(o), 3);
		assert_int_equal(
		        json_object_get_int(json_object_array_get_idx(o, 0)),
		        d);
		assert_int_equal(
		        json_object_get_int(json_object_array_get_idx(o, 2)),
		        d);
		o = json_object_array_get_idx(o, 1);
	}
	assert_true(json_object_is_type(o, json_type_array));
	assert_int_equal(json_object_array_length(o), 0);
}

static void test_json_writer_depth(void **state)
{
	static const unsigned depths[] = {1, 63, 64, 65, 66, 129, 1000};
	struct heed_buf b;
	struct heed_json j;

	(void)state;
	heed__buf_init(&b, heed_test_allocator(), 1 << 20);
	for (size_t i = 0; i < HEED_ARRAY_SIZE(depths); i++) {
		json_tokener *tok = json_tokener_new_ex(2000);
		json_object *o;
		heed__buf_reset(&b);
		heed__json_init(&j, &b);
		nest(&j, depths[i]);
		if (depths[i] <= HEED_JSON_MAX_DEPTH)
			assert_int_equal(j.rc, HEED_OK);
		if (j.rc != HEED_OK) {
			assert_int_equal(j.rc, HEED_ETOOBIG);
			json_tokener_free(tok);
			continue;
		}
		o = json_tokener_parse_ex(tok, heed__buf_str(&b),
		                          (int)b.len + 1);
		if (!o)
			fail_msg("depth %u: invalid JSON: %.200s", depths[i],
			         heed__buf_str(&b));
		check_nested(o, depths[i]);
		json_object_put(o);
		json_tokener_free(tok);
	}
	/* A close with nothing open fails the text too. */
	heed__buf_reset(&b);
	heed__json_init(&j, &b);
	heed__json_open(&j, '[');
	heed__json_close(&j, ']');
	heed__json_close(&j, ']');
	assert_int_equal(j.rc, HEED_EINVAL);
	assert_string_equal(heed__buf_str(&b), "[]");
	heed__buf_free(&b);
}

static void test_ascii_ieq(void **state)
{
	(void)state;
	assert_true(heed__ascii_ieq("User-Agent", 10, "user-agent"));
	assert_false(heed__ascii_ieq("User-Agen", 9, "user-agent"));
	assert_false(heed__ascii_ieq("User-Agents", 11, "user-agent"));
}

/* XXH3's 128-bit hash in its canonical (big-endian) form, as xxh128sum
 * prints it, with and without a pointer for the empty input: the digest
 * that tells an unchanged body from a changed one. */
static void test_digest_hex(void **state)
{
	char hex[HEED_DIGEST_HEX];

	(void)state;
	heed__digest_hex("abc", 3, hex);
	assert_string_equal(hex, "06b05ab6733a618578af5f94892f3950");
	heed__digest_hex(NULL, 0, hex);
	assert_string_equal(hex, "99aa06d3014798d86001c324468d497f");
	heed__digest_hex("", 0, hex);
	assert_string_equal(hex, "99aa06d3014798d86001c324468d497f");
	heed__digest_hex("abd", 3, hex);
	assert_string_equal(hex, "ec4af3fc0b1f44fe6b4467b443c76228");
}

/* A stored digest of the new kind compares as text; one that a store kept
 * before (SHA-256: FIPS 180-2's "abc" example) compares with the body's
 * SHA-256, so a store carried over sees no change that was not made. */
static void test_digest_matches(void **state)
{
	static const char abc_sha256[] = "ba7816bf8f01cfea414140de5dae2223"
	                                 "b00361a396177a9cb410ff61f20015ad";
	char abc[HEED_DIGEST_HEX], abd[HEED_DIGEST_HEX];

	(void)state;
	heed__digest_hex("abc", 3, abc);
	heed__digest_hex("abd", 3, abd);
	assert_true(heed__digest_matches(abc, abc, "abc", 3));
	assert_false(heed__digest_matches(abc, abd, "abd", 3));
	assert_false(heed__digest_matches(NULL, abc, "abc", 3));
	assert_true(heed__digest_matches(abc_sha256, abc, "abc", 3));
	assert_false(heed__digest_matches(abc_sha256, abd, "abd", 3));
	/* 64 characters that are not the body's SHA-256 */
	assert_false(heed__digest_matches("e3b0c44298fc1c149afbf4c8996fb92427ae"
	                                  "41e4649b934ca495991b7852b855",
	                                  abc, "abc", 3));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_status_names),
	        cmocka_unit_test(test_digest_hex),
	        cmocka_unit_test(test_digest_matches),
	        cmocka_unit_test(test_diag),
	        cmocka_unit_test(test_buf_ceiling),
	        cmocka_unit_test(test_buf_take),
	        cmocka_unit_test(test_buf_oom),
	        cmocka_unit_test(test_arena),
	        cmocka_unit_test(test_log_level_filter),
	        cmocka_unit_test(test_ascii_ieq),
	        cmocka_unit_test(test_json_writer),
	        cmocka_unit_test(test_json_writer_depth),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
