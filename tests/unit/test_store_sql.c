/*
 * Unit tests for the statement interface the written-once store areas
 * run on (src/store/sql-int.h), on SQLite and, as unit.store_sql_pg, on
 * PostgreSQL: markers left out, repeated or out of order and a '?' inside
 * a quoted string mean the same on both engines, NULLs and "no limit"
 * bind alike, bytes come back exactly (a peer's text too), a write says how
 * many rows it changed, one row or none, a row callback may run the same
 * statement again, and a marker beyond the interface's range is refused on
 * both.
 */
#include "pg_test.h"

#include "store/sql-int.h"

static heed_store *store_with_rows(void)
{
	heed_store *s = heed_test_store_fresh();

	assert_int_equal(
	        s->backend->exec(s, "CREATE TABLE t (a INTEGER, b TEXT);"
	                            "INSERT INTO t VALUES (1, 'one'), "
	                            "(2, NULL), (3, 'three'), (4, 'four'), "
	                            "(5, 'five');"),
	        HEED_OK);
	return s;
}

struct row {
	char text[3][32];
	int64_t n[3];
	bool null[3];
};

static int read_row(struct heed__sql *q, void *ctx)
{
	struct row *r = ctx;

	for (int i = 0; i < 3; i++) {
		const char *t = heed__sql_col_text(q, i);
		r->null[i] = t == NULL;
		snprintf(r->text[i], sizeof(r->text[i]), "%s", t ? t : "");
		r->n[i] = heed__sql_col_int(q, i, -7);
	}
	return 0;
}

static void test_markers(void **state)
{
	heed_store *s = store_with_rows();
	struct heed__sql q;
	struct row r;

	(void)state;
	/* ?2 is bound but never used; ?3 comes before ?1; the quoted
	 * markers are text. */
	assert_int_equal(heed__sql_prepare(s, &q,
	                                   "SELECT b, '?1 or ''?2''', a "
	                                   "FROM t WHERE a = ?3 AND a < ?1 "
	                                   "AND a + ?3 = 6;"),
	                 HEED_OK);
	heed__sql_int(&q, 1, 4);
	heed__sql_text(&q, 2, "unused");
	heed__sql_int(&q, 3, 3);
	assert_int_equal(heed__sql_one(&q, read_row, &r), HEED_OK);
	assert_string_equal(r.text[0], "three");
	assert_string_equal(r.text[1], "?1 or '?2'");
	assert_int_equal(r.n[2], 3);
	heed_store_close(s);
}

static void test_nulls_and_none(void **state)
{
	heed_store *s = store_with_rows();
	struct heed__sql q;
	struct row r;

	(void)state;
	assert_int_equal(heed__sql_prepare(s, &q,
	                                   "SELECT b, ?1, ?2 FROM t "
	                                   "WHERE a = 2;"),
	                 HEED_OK);
	heed__sql_text(&q, 1, NULL);
	heed__sql_opt(&q, 2, 99, 99);
	assert_int_equal(heed__sql_one(&q, read_row, &r), HEED_OK);
	for (int i = 0; i < 3; i++) {
		assert_true(r.null[i]);
		assert_int_equal(r.n[i], -7);
	}
	assert_int_equal(
	        heed__sql_prepare(s, &q, "SELECT a, b, a FROM t WHERE a = ?1;"),
	        HEED_OK);
	heed__sql_int(&q, 1, 6);
	assert_int_equal(heed__sql_one(&q, read_row, &r), HEED_ENOTFOUND);
	heed_store_close(s);
}

static int count_row(struct heed__sql *q, void *ctx)
{
	int *n = ctx;

	assert_int_equal(heed__sql_col_int(q, 0, 0), *n + 1);
	return ++*n == 4;
}

static void test_limit_and_stop(void **state)
{
	static const char *const sql = "SELECT a FROM t ORDER BY a LIMIT ?1;";
	heed_store *s = store_with_rows();
	struct heed__sql q;
	int n = 0;

	(void)state;
	assert_int_equal(heed__sql_prepare(s, &q, sql), HEED_OK);
	heed__sql_limit(&q, 1, 2);
	assert_int_equal(heed__sql_each(&q, count_row, &n), HEED_OK);
	assert_int_equal(n, 2);
	/* No limit: all five, and the callback stops after four. */
	n = 0;
	assert_int_equal(heed__sql_prepare(s, &q, sql), HEED_OK);
	heed__sql_limit(&q, 1, 0);
	assert_int_equal(heed__sql_each(&q, count_row, &n), HEED_OK);
	assert_int_equal(n, 4);
	heed_store_close(s);
}

static void test_run_changes(void **state)
{
	heed_store *s = store_with_rows();
	struct heed__sql q;
	int64_t changed = -1;

	(void)state;
	assert_int_equal(
	        heed__sql_prepare(s, &q, "UPDATE t SET b = ?2 WHERE a > ?1;"),
	        HEED_OK);
	heed__sql_int(&q, 1, 2);
	heed__sql_text(&q, 2, "many");
	assert_int_equal(heed__sql_run(&q, &changed), HEED_OK);
	assert_int_equal(changed, 3);
	heed_store_close(s);
}

/* Each row of a's statement runs the same statement again. */
static const char *const nested_sql = "SELECT a FROM t WHERE a >= ?1 "
                                      "ORDER BY a;";

static int inner(struct heed__sql *q, void *ctx)
{
	(void)q;
	++*(int *)ctx;
	return 0;
}

static int outer(struct heed__sql *q, void *ctx)
{
	struct heed__sql again;
	int64_t a = heed__sql_col_int(q, 0, 0);

	assert_int_equal(heed__sql_prepare(q->store, &again, nested_sql),
	                 HEED_OK);
	heed__sql_int(&again, 1, a);
	assert_int_equal(heed__sql_each(&again, inner, ctx), HEED_OK);
	return 0;
}

static void test_nested(void **state)
{
	heed_store *s = store_with_rows();
	struct heed__sql q;
	int rows = 0;

	(void)state;
	assert_int_equal(heed__sql_prepare(s, &q, nested_sql), HEED_OK);
	heed__sql_int(&q, 1, 1);
	assert_int_equal(heed__sql_each(&q, outer, &rows), HEED_OK);
	assert_int_equal(rows, 5 + 4 + 3 + 2 + 1);
	heed_store_close(s);
}

static int read_bytes(struct heed__sql *q, void *ctx)
{
	size_t len = 99;
	bool oom = false;
	char *got = heed__sql_col_bytes(q, 0, &len, &oom);
	char *text = heed__sql_col_dup(q, 1, &oom);

	assert_false(oom);
	assert_int_equal(len, 5);
	assert_memory_equal(got, "a\0b\xff!", 6); /* the NUL after them too */
	assert_string_equal(text, "plain");
	assert_null(heed__sql_col_bytes(q, 2, &len, &oom));
	assert_int_equal(len, 0);
	assert_false(oom);
	heed__free(q->store->alloc, got);
	heed__free(q->store->alloc, text);
	++*(int *)ctx;
	return 0;
}

/* Bytes with a NUL and invalid UTF-8 go in and come back exactly,
 * written inside a transaction (pipelined on PostgreSQL) and outside. */
static void test_bytes(void **state)
{
	static const char *const insert =
	        "INSERT INTO b (x, t, n) VALUES (?1, ?2, ?3);";
	heed_store *s = heed_test_store_fresh();
	struct heed__sql q;
	int rows = 0;

	(void)state;
	/* BYTEA is PostgreSQL's; SQLite keeps a BLOB as it is in any
	 * column. */
	assert_int_equal(s->backend->exec(s, "CREATE TABLE b (x BYTEA, "
	                                     "t TEXT, n BYTEA);"),
	                 HEED_OK);
	for (int in_tx = 0; in_tx < 2; in_tx++) {
		if (in_tx)
			assert_int_equal(heed_store_begin(s), HEED_OK);
		assert_int_equal(heed__sql_prepare(s, &q, insert), HEED_OK);
		heed__sql_bytes(&q, 1, "a\0b\xff!", 5);
		heed__sql_bytes(&q, 2, "plain", 5);
		heed__sql_bytes(&q, 3, NULL, 0);
		assert_int_equal(heed__sql_run(&q, NULL), HEED_OK);
		if (in_tx)
			assert_int_equal(heed_store_commit(s), HEED_OK);
	}
	assert_int_equal(heed__sql_prepare(s, &q, "SELECT x, t, n FROM b;"),
	                 HEED_OK);
	assert_int_equal(heed__sql_each(&q, read_bytes, &rows), HEED_OK);
	assert_int_equal(rows, 2);
	heed_store_close(s);
}

struct raw_rows {
	int n;
	char got[3][8];
	size_t len[3];
	int64_t plain[3];
};

static int read_raw(struct heed__sql *q, void *ctx)
{
	struct raw_rows *r = ctx;
	bool oom = false;
	char *got = heed__sql_col_bytes(q, 0, &r->len[r->n], &oom);

	assert_false(oom);
	assert_non_null(got);
	assert_true(r->len[r->n] < sizeof(r->got[0]));
	memcpy(r->got[r->n], got, r->len[r->n] + 1);
	r->plain[r->n++] = heed__sql_col_int(q, 1, -1);
	heed__free(q->store->alloc, got);
	return 0;
}

/* Text a peer sent, invalid UTF-8 and a NUL included, goes in as its
 * len bytes and comes back exactly, ordered by bytes and equal to the
 * same text written in the statement, on both engines. */
static void test_raw_text(void **state)
{
	static const char *const table[] = {
	        [HEED__SQL_SQLITE] = "CREATE TABLE r (t TEXT);",
	        [HEED__SQL_PG] = "CREATE TABLE r (t BYTEA);",
	};
	static const char *const said[] = {"plain", "b\xff\0x", "B"};
	static const size_t len[] = {5, 4, 1};
	heed_store *s = heed_test_store_fresh();
	struct raw_rows r = {0};
	struct heed__sql q;

	(void)state;
	assert_int_equal(s->backend->exec(s, table[heed__sql_dialect(s)]),
	                 HEED_OK);
	assert_int_equal(heed_store_begin(s), HEED_OK);
	for (size_t i = 0; i < HEED_ARRAY_SIZE(said); i++) {
		assert_int_equal(
		        heed__sql_prepare(s, &q, "INSERT INTO r VALUES (?1);"),
		        HEED_OK);
		heed__sql_raw(&q, 1, said[i], len[i]);
		assert_int_equal(heed__sql_run(&q, NULL), HEED_OK);
	}
	assert_int_equal(heed_store_commit(s), HEED_OK);
	assert_int_equal(heed__sql_prepare(s, &q,
	                                   "SELECT t, CASE WHEN t = 'plain' "
	                                   "THEN 1 ELSE 0 END FROM r "
	                                   "ORDER BY t;"),
	                 HEED_OK);
	assert_int_equal(heed__sql_each(&q, read_raw, &r), HEED_OK);
	assert_int_equal(r.n, 3);
	assert_string_equal(r.got[0], "B");
	assert_int_equal(r.len[1], 4);
	assert_memory_equal(r.got[1], "b\xff\0x", 5);
	assert_string_equal(r.got[2], "plain");
	assert_int_equal(r.plain[0] + r.plain[1], 0);
	assert_int_equal(r.plain[2], 1);
	heed_store_close(s);
}

static void test_marker_out_of_range(void **state)
{
	heed_store *s = store_with_rows();
	struct heed__sql q;

	(void)state;
	assert_int_equal(heed__sql_prepare(s, &q, "SELECT ?25;"), HEED_ESTORE);
	assert_non_null(strstr(heed_store_errmsg(s), "outside ?1 to ?24"));
	assert_int_equal(heed__sql_prepare(s, &q, "SELECT ?24;"), HEED_OK);
	q.ops->release(&q);
	heed_store_close(s);
}

static void test_failure_is_reported(void **state)
{
	heed_store *s = store_with_rows();
	struct heed__sql q;
	bool row = true;

	(void)state;
	/* Fails when prepared (SQLite) or when run (PostgreSQL). */
	if (heed__sql_prepare(s, &q, "SELECT a FROM nowhere;") == HEED_OK) {
		assert_int_equal(q.ops->next(&q, &row), HEED_ESTORE);
		q.ops->release(&q);
	}
	assert_non_null(strstr(heed_store_errmsg(s), "nowhere"));
	heed_store_close(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_markers),
	        cmocka_unit_test(test_nulls_and_none),
	        cmocka_unit_test(test_limit_and_stop),
	        cmocka_unit_test(test_run_changes),
	        cmocka_unit_test(test_nested),
	        cmocka_unit_test(test_bytes),
	        cmocka_unit_test(test_raw_text),
	        cmocka_unit_test(test_marker_out_of_range),
	        cmocka_unit_test(test_failure_is_reported),
	};

	return cmocka_run_group_tests_name(heed_test_pg() ? "store_sql_pg"
	                                                  : "store_sql",
	                                   tests, NULL, NULL);
}
