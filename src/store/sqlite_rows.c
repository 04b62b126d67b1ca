/*
 * Binding and reading values that may be absent; see sqlite-rows-int.h.
 */
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
