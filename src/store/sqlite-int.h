/*
 * The SQLite backend's own state and helpers, for src/store/sqlite.c and
 * the files that speak SQLite (sqlite_sql.c, the SQLite-only area files,
 * copy.c): the connection and its kept statements. The rest of the store
 * sees only struct heed_store's opaque pointer to it.
 */
#ifndef HEED_SQLITE_INT_H
#define HEED_SQLITE_INT_H

#include <sqlite3.h>

#include "store/store-int.h"

/* Statements kept prepared per store (heed__sqlite_prepare). heed runs
 * a few dozen distinct statements; more are prepared and finalized each
 * time. */
#define HEED__SQLITE_STMT_CACHE 64

struct heed__sqlite_stmt {
	sqlite3_stmt *st; /* sqlite3_sql(st) is its text */
	bool busy;        /* handed out and not yet released */
};

struct heed__sqlite {
	sqlite3 *db;
	struct heed__sqlite_stmt stmts[HEED__SQLITE_STMT_CACHE];
	int nstmts;
};

/* The store's SQLite connection, or NULL when it is not a SQLite store. */
static inline sqlite3 *heed__sqlite_db(const heed_store *store)
{
	return store->sqlite ? store->sqlite->db : NULL;
}

/* SQLite helpers shared by the area files: prepare a statement (NULL and a
 * recorded error on failure), and step one that returns no rows.
 *
 * heed__sqlite_prepare hands out the store's kept statement for sql when
 * one is free (reset, no bindings), else prepares one; either way the
 * caller gives it back with heed__sqlite_release, never sqlite3_finalize.
 * Compiling SQL costs more than running most of heed's statements: the
 * crawl inserts every link it finds, and preparing each insert took 15 %
 * of the crawl's CPU (docs/performance.md). */
sqlite3_stmt *heed__sqlite_prepare(heed_store *store, const char *sql);
void heed__sqlite_release(heed_store *store, sqlite3_stmt *st);
heed_status heed__sqlite_step_done(heed_store *store, sqlite3_stmt *stmt);

#endif /* HEED_SQLITE_INT_H */
