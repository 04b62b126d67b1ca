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

static void sqlite_bind_bytes(struct heed__sql *q, int i, const char *p,
                              size_t len)
{
	if (p)
		sqlite3_bind_blob64(q->stmt, i, p, len, SQLITE_STATIC);
	else
		sqlite3_bind_null(q->stmt, i);
}

static void sqlite_bind_raw(struct heed__sql *q, int i, const char *p,
                            size_t len)
{
	if (p)
		sqlite3_bind_text64(q->stmt, i, p, len, SQLITE_STATIC,
		                    SQLITE_UTF8);
	else
		sqlite3_bind_null(q->stmt, i);
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
		*changed =
		        rc == HEED_OK
		                ? sqlite3_changes64(heed__sqlite_db(q->store))
		                : 0;
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

static char *sqlite_bytes(struct heed__sql *q, int col, size_t *len, bool *oom)
{
	const void *p = sqlite3_column_blob(q->stmt, col);
	size_t n = (size_t)sqlite3_column_bytes(q->stmt, col);
	char *copy;

	if (len)
		*len = 0;
	if (sqlite3_column_type(q->stmt, col) == SQLITE_NULL)
		return NULL;
	copy = heed__strndup(q->store->alloc, p ? p : "", n);
	if (!copy) {
		*oom = true;
		return NULL;
	}
	if (len)
		*len = n;
	return copy;
}

static void sqlite_release(struct heed__sql *q)
{
	heed__sqlite_release(q->store, q->stmt);
	q->stmt = NULL;
}

const struct heed__sql_ops heed__sqlite_sql_ops = {
        .dialect = HEED__SQL_SQLITE,
        .prepare = sqlite_prepare,
        .bind_text = sqlite_bind_text,
        .bind_int = sqlite_bind_int,
        .bind_bytes = sqlite_bind_bytes,
        .bind_raw = sqlite_bind_raw,
        .no_limit_is_null = false,
        .next = sqlite_next,
        .run = sqlite_run,
        .text = sqlite_text,
        .integer = sqlite_integer,
        .bytes = sqlite_bytes,
        .release = sqlite_release,
};
