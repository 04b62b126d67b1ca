/*
 * Unit tests for the FTS5-to-tsquery translation of the search area on
 * PostgreSQL (heed__pg_tsquery, src/store/pg_tsquery.c): what heed serve
 * writes, FTS5's precedence, column filters as weights, prefixes, and the
 * expressions FTS5 refuses, refused with FTS5's reasons. Pure: no server.
 */
#include "heed_test.h"

#include "store/pg-int.h"

static void expect(const char *fts, const char *want)
{
	struct heed_diag d = {0};
	char *out = NULL;

	if (heed__pg_tsquery(heed_test_allocator(), fts, &out, &d) != HEED_OK)
		fail_msg("%s: %s", fts, d.message);
	if (strcmp(out, want) != 0)
		fail_msg("%s: got %s, want %s", fts, out, want);
	heed__free(heed_test_allocator(), out);
}

static void refused(const char *fts, const char *reason)
{
	struct heed_diag d = {0};
	char *out = NULL;

	assert_int_equal(heed__pg_tsquery(heed_test_allocator(), fts, &out, &d),
	                 HEED_EINVAL);
	assert_null(out);
	if (!strstr(d.message, reason))
		fail_msg("%s: %s, want %s", fts, d.message, reason);
}

/* What src/serve/query.c writes: quoted terms, AND, OR groups, NOT. */
static void test_serve_expressions(void **state)
{
	(void)state;
	expect("\"kestrel\"", "'kestrel'");
	expect("kestrel", "'kestrel'");
	/* Scripts written without spaces: the bigrams the index holds, or a
	 * lone character; words around them apart. */
	expect("\"夜行列車\"", "'夜行 行列 列車'");
	expect("\"夜\"", "'夜'");
	expect("\"tokyo夜行\"", "'tokyo 夜行'");
	expect("\"ไทย\"", "'ไท ทย'");
	expect("\"a\" AND \"b\"", "('a' & 'b')");
	expect("\"a\" AND (\"b\" OR \"c\")", "('a' & ('b' | 'c'))");
	expect("(\"a\" AND \"b\") NOT \"d\"", "(('a' & 'b') & !'d')");
	expect("\"b\" NOT \"a\"", "('b' & !'a')");
	expect("\"ka\" *", "'ka':*");
	expect("ka*", "'ka':*");
	/* Punctuation separates words, as in unicode61; "" is a quote. */
	expect("\"a.example\"", "'a example'");
	expect("\"say \"\"hi\"\"\"", "'say hi'");
	expect("\"késtrel\"", "'késtrel'");
}

/* FTS5's precedence (NOT, then AND, implicit between terms, then OR),
 * written out in parentheses so tsquery's never decides. */
static void test_precedence(void **state)
{
	(void)state;
	expect("a b", "('a' & 'b')");
	expect("a OR b c", "('a' | ('b' & 'c'))");
	expect("a b OR c", "(('a' & 'b') | 'c')");
	expect("a OR b NOT c", "('a' | ('b' & !'c'))");
	expect("a NOT b NOT c", "(('a' & !'b') & !'c')");
	expect("(a OR b) c", "(('a' | 'b') & 'c')");
	/* Operators only in capitals, as FTS5. */
	expect("a and b", "('a' & 'and' & 'b')");
}

static void test_columns(void **state)
{
	(void)state;
	expect("site:\"Site of a.example\"", "'Site of a example':D");
	expect("title:kes*", "'kes':*A");
	expect("TAGS : (a OR b)", "('a':C | 'b':C)");
	expect("description:x y", "('x':B & 'y')");
	refused("nosuchcolumn:x", "no such column: nosuchcolumn");
}

static void test_refused(void **state)
{
	(void)state;
	refused("\"unterminated", "unterminated string");
	refused("a AND", "syntax error");
	refused("(a", "syntax error");
	refused("a)", "syntax error near \")\"");
	refused("^a", "syntax error near \"^\"");
	refused("a.b", "syntax error near \".\"");
	refused("NEAR(a b)", "NEAR");
	refused("", "syntax error");
	refused("OR", "syntax error");
	/* Deep nesting is refused, not recursed into. */
	char deep[300];
	memset(deep, '(', 200);
	strcpy(deep + 200, "a");
	refused(deep, "deeper");
}

/* A phrase without a word matches nothing, as in FTS5. */
static void test_empty_phrase(void **state)
{
	(void)state;
	expect("a \"...\"", "('a' & ('x' & !'x'))");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_serve_expressions),
	        cmocka_unit_test(test_precedence),
	        cmocka_unit_test(test_columns),
	        cmocka_unit_test(test_refused),
	        cmocka_unit_test(test_empty_phrase),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
