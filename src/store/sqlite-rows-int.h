/*
 * Small SQLite helpers shared by the SQLite-only area files: binding
 * values that may be absent (NULL strings, HEED_STORE_NO_DATE dates) and
 * reading them back, so every area maps "absent" to SQL NULL the same way.
 */
#ifndef HEED_SQLITE_ROWS_INT_H
#define HEED_SQLITE_ROWS_INT_H

#include "heed/store_pages.h"
#include "store/sqlite-int.h"

/* Binds s, or NULL when s is NULL. The text must outlive the step. */
void heed__sqlite_bind_text(sqlite3_stmt *st, int col, const char *s);
/* Binds v, or NULL when v is HEED_STORE_NO_DATE. */
void heed__sqlite_bind_date(sqlite3_stmt *st, int col, int64_t v);
/* Column col as text, or NULL for SQL NULL. Lives until the next step. */
const char *heed__sqlite_text(sqlite3_stmt *st, int col);
/* Column col as an integer, or absent (for SQL NULL). */
int64_t heed__sqlite_int(sqlite3_stmt *st, int col, int64_t absent);

/* The 16 columns of a pages row (url ... record, in the order of
 * docs/storage.md's table, without id) from column first on. The strings
 * live until the next step. */
void heed__sqlite_read_page(sqlite3_stmt *st, int first,
                            struct heed_stored_page *p);

/* Steps st to its end, calling visit per row (non-zero stops), then
 * releases st. HEED_ESTORE (recorded in heed_store_errmsg) when a step
 * fails. */
heed_status heed__sqlite_each_row(heed_store *store, sqlite3_stmt *st,
                                  int (*visit)(sqlite3_stmt *st, void *ctx),
                                  void *ctx);

#endif /* HEED_SQLITE_ROWS_INT_H */
