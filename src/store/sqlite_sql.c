/*
 * The statement interface (src/store/sql-int.h) on SQLite: a thin shell
 * over the store's kept statements (heed__sqlite_prepare), so a statement
 * written once costs SQLite what a hand-written one did.
 */
#include <stdio.h>

#include "store/sql-int.h"
#include "store/sqlite-rows-int.h"

static heed_status sqlite_prepare(struct heed__sql *q, const char *sql)
{
	q->stmt = heed__sqlite_prepare(q->store, sql);
	if (!q->stmt)
		return HEED_ESTORE;
	/* SQLite takes far more markers; PostgreSQL's translation does
	 * not, and a statement must run on both. */
	if (sqlite3_bind_parameter_count(q->stmt) > HEED__SQL_PARAMS) {
		heed__sqlite_release(q->store, q->stmt);
		q->stmt = NULL;
		snprintf(q->store->errmsg, sizeof(q->store->errmsg),
		         "a statement's marker is outside ?1 to ?%d: %.80s",
		         HEED__SQL_PARAMS, sql);
		return HEED_ESTORE;
	}
	return HEED_OK;
}

static void sqlite_bind_text(struct heed__sql *q, int i, const char *s)
{
	heed__sqlite_bind_text(q->stmt, i, s);
}

static void sqlite_bind_int(struct heed__sql *q, int i, int64_t v)
{
	sqlite3_bind_int64(q->stmt, i, v);
}

static heed_status sqlite_next(struct heed__sql *q, bool *row)
{
	int rc = sqlite3_step(q->stmt);

	*row = rc == SQLITE_ROW;
	if (rc == SQLITE_ROW || rc == SQLITE_DONE)
		return HEED_OK;
	return heed__store_fail(q->store, NULL, "reading rows");
}

static heed_status sqlite_run(struct heed__sql *q, int64_t *changed)
{
	heed_status rc = heed__sqlite_step_done(q->store, q->stmt);

	if (changed)
		*changed = rc == HEED_OK ? sqlite3_changes64(q->store->db) : 0;
	return rc;
}

static const char *sqlite_text(struct heed__sql *q, int col)
{
	return heed__sqlite_text(q->stmt, col);
}

static int64_t sqlite_integer(struct heed__sql *q, int col, int64_t absent)
{
	return heed__sqlite_int(q->stmt, col, absent);
}

static void sqlite_release(struct heed__sql *q)
{
	heed__sqlite_release(q->store, q->stmt);
	q->stmt = NULL;
}

const struct heed__sql_ops heed__sqlite_sql_ops = {
        .prepare = sqlite_prepare,
        .bind_text = sqlite_bind_text,
        .bind_int = sqlite_bind_int,
        .no_limit_is_null = false,
        .next = sqlite_next,
        .run = sqlite_run,
        .text = sqlite_text,
        .integer = sqlite_integer,
        .release = sqlite_release,
};
