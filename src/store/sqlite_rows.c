/*
 * Binding and reading values that may be absent, reading pages rows and
 * stepping through rows; see sqlite-rows-int.h.
 */
#include "store/sql-int.h"
#include "store/sqlite-rows-int.h"

void heed__sqlite_bind_text(sqlite3_stmt *st, int col, const char *s)
{
	if (s)
		sqlite3_bind_text(st, col, s, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, col);
}

void heed__sqlite_bind_date(sqlite3_stmt *st, int col, int64_t v)
{
	if (v == HEED_STORE_NO_DATE)
		sqlite3_bind_null(st, col);
	else
		sqlite3_bind_int64(st, col, v);
}

const char *heed__sqlite_text(sqlite3_stmt *st, int col)
{
	return (const char *)sqlite3_column_text(st, col);
}

int64_t heed__sqlite_int(sqlite3_stmt *st, int col, int64_t absent)
{
	if (sqlite3_column_type(st, col) == SQLITE_NULL)
		return absent;
	return sqlite3_column_int64(st, col);
}

void heed__sqlite_read_page(sqlite3_stmt *st, int first,
                            struct heed_stored_page *p)
{
	struct heed__sql q = {.ops = &heed__sqlite_sql_ops, .stmt = st};

	heed__page_read(&q, first, p);
}

heed_status heed__sqlite_each_row(heed_store *store, sqlite3_stmt *st,
                                  int (*visit)(sqlite3_stmt *st, void *ctx),
                                  void *ctx)
{
	int rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (visit(st, ctx))
			break;
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		heed__store_fail(store, NULL, "reading rows");
		heed__sqlite_release(store, st);
		return HEED_ESTORE;
	}
	heed__sqlite_release(store, st);
	return HEED_OK;
}
