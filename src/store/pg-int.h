/*
 * PostgreSQL backend internals shared by src/store/pg.c and the area files
 * src/store/pg_<area>.c: the connection and small libpq helpers.
 *
 * Every value goes to the server as text through PQexecParams, so no SQL is
 * ever built from data, and every result is read whole before the caller's
 * callback sees a row (a callback may call the store again).
 */
#ifndef HEED_PG_INT_H
#define HEED_PG_INT_H

#include <libpq-fe.h>

#include "store/store-int.h"

struct heed__pg {
	PGconn *conn;
	bool locked; /* holds the crawl lock (a session advisory lock) */
};

/* The first key of heed's advisory locks: "heed" in ASCII, as
 * HEED_STORE_APPLICATION_ID (PostgreSQL 15 has no hexadecimal literals).
 * The second key says which lock. */
#define HEED_PG_LOCK_KEY     "1751475556"
#define HEED_PG_LOCK_MIGRATE "1"
#define HEED_PG_LOCK_CRAWL   "2"

/*
 * Runs sql with n text parameters (a NULL one is SQL NULL) and returns its
 * result (PQclear it), or NULL with the server's message recorded in the
 * store (heed__store_fail reads it) when the statement failed.
 */
PGresult *heed__pg_query(heed_store *store, const char *sql, int n,
                         const char *const *params);

/* heed__pg_query with formats[i] 1 for a parameter sent as lengths[i] raw
 * bytes (a BYTEA), 0 for text (lengths[i] unused); NULL arrays: all
 * text. */
PGresult *heed__pg_query_ex(heed_store *store, const char *sql, int n,
                            const char *const *params, const int *lengths,
                            const int *formats);

/* heed__pg_query for a statement whose rows do not matter: HEED_OK or
 * HEED_ESTORE; *changed (may be NULL) receives the rows it changed. */
heed_status heed__pg_run(heed_store *store, const char *sql, int n,
                         const char *const *params, int64_t *changed);

/* Column col of row as text, or NULL for SQL NULL; lives as long as r. */
const char *heed__pg_text(const PGresult *r, int row, int col);
/* Column col of row as an integer, or absent for SQL NULL. */
int64_t heed__pg_int(const PGresult *r, int row, int col, int64_t absent);

/* Column col of row copied with the store's allocator, or NULL for SQL
 * NULL; NULL with *oom set when out of memory. */
char *heed__pg_dup(heed_store *store, const PGresult *r, int row, int col,
                   bool *oom);
/* Column col of row, a bytea, decoded and copied with the store's
 * allocator (a NUL follows the *len bytes); NULL (and *len 0) for SQL
 * NULL; NULL with *oom set when out of memory. len may be NULL. */
char *heed__pg_bytes(heed_store *store, const PGresult *r, int row, int col,
                     size_t *len, bool *oom);

/* v in decimal in buf, for a parameter; returns buf. */
#define HEED_PG_INT_SIZE 24
const char *heed__pg_i64(char buf[HEED_PG_INT_SIZE], int64_t v);

#endif /* HEED_PG_INT_H */
