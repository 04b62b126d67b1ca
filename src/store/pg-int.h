/*
 * PostgreSQL backend internals shared by src/store/pg.c, pg_sql.c (the
 * statement interface) and pg_search.c: the connection and small libpq
 * helpers.
 *
 * Every value goes to the server as text through PQexecParams, so no SQL is
 * ever built from data, and every result is read whole before the caller's
 * callback sees a row (a callback may call the store again). Every
 * statement goes through heed__pg_query_ex (or the backend's exec), the one
 * path that survives a lost connection (src/store/pg.c).
 */
#ifndef HEED_PG_INT_H
#define HEED_PG_INT_H

#include <libpq-fe.h>

#include "store/store-int.h"

struct heed__pg {
	PGconn *conn;
	bool locked;      /* holds the crawl lock (a session advisory lock) */
	bool lock_shared; /* ... shared with other workers (--worker) */
	bool read_only; /* the session refuses writes (restored on reconnect) */
	/* Lost connections (src/store/pg.c, execute()): */
	bool broken;        /* the connection failed: make it again first */
	bool reconnecting;  /* inside reconnect(): never reconnect again */
	bool tx_lost;       /* the caller's transaction died with it */
	bool lock_lost;     /* another process took the crawl lock meanwhile:
	                       every call is HEED_EBUSY */
	heed_status status; /* the last statement's, for heed__pg_failed */
	/* Writes sent in pipeline mode whose results are not read yet
	 * (heed__pg_run inside a transaction, pg.c "Pipelined writes"). */
	bool pipeline;
	int pending;
	uint64_t rng; /* the back-off's jitter */
	/* When the server last answered a statement, Unix ms: the last time
	 * this session knew it up, for a restart's leases (pg.c). */
	int64_t answered_ms;
	/* The batch's rows held back, by kind (src/store/pg_held.c). */
	struct heed__pg_held *held;
	/* Inside heed_store_begin_batch's transaction (batch): its
	 * statements, kept to do it again (pg.c, "Batches done again"); the
	 * log's memory is kept from one batch to the next. */
	bool batch;
	struct heed__pg_redo *redo;
	/* The batch's statements prepared on this connection (pg.c,
	 * "Statements planned once"); forgotten when it is made again. */
	struct heed__pg_prepared *prepared;
	int prepared_count;
	/* The written-once statements' texts as PostgreSQL takes them
	 * (src/store/pg_sql.c), kept until the store closes. */
	struct heed__pg_sql *sqls;
	int sql_count, sql_room;
	/* The last relevance search whose candidates were every match, for
	 * the count that follows it (pg_search.c, "Counts from the
	 * search"); NULL: none. */
	struct heed__pg_counted *counted;
	/* The rows of the last relevance search past the page it showed,
	 * for the page that follows it (pg_search.c, "Next pages from the
	 * search"); NULL: none. */
	struct heed__pg_ranked *ranked;
};

/* Forgets store's kept count and rows (pg_search.c); on closing. */
void heed__pg_search_forget(heed_store *store);

/* A statement as PQexecParams takes it, or simple for several statements
 * without parameters (migrations, "BEGIN; ..."), which only the simple
 * query protocol runs. */
struct heed__sql_scope;

struct heed__pg_stmt {
	const char *sql;
	int n;
	const char *const *params;
	const int *lengths, *formats;
	bool simple;
	/* The held rows it need not see sent before it (struct
	 * heed__sql_held in src/store/sql-int.h); 0: every kind. */
	unsigned blind;
	/* NULL, or the only rows of one held kind it sees: that kind's
	 * rows are sent before it only when one of those is held. */
	const struct heed__sql_scope *scope;
};

/* The first key of heed's advisory locks: "heed" in ASCII, as
 * HEED_STORE_APPLICATION_ID (PostgreSQL 15 has no hexadecimal literals).
 * The second key says which lock. */
#define HEED_PG_LOCK_KEY     "1751475556"
#define HEED_PG_LOCK_MIGRATE "1"
#define HEED_PG_LOCK_CRAWL   "2"
#define HEED_PG_LOCK_JOIN    "3" /* heed_store_run_join's transactions */

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

/* Why the last heed__pg_query returned NULL: HEED_ESTORE, HEED_ERETRY
 * (the connection was lost inside a transaction: the caller redoes it) or
 * HEED_EBUSY (reconnected, but another process took the crawl lock). An
 * area file returns it rather than HEED_ESTORE. */
heed_status heed__pg_failed(const heed_store *store);

/* heed__pg_query for a statement whose rows do not matter: HEED_OK or
 * HEED_ESTORE; *changed (may be NULL) receives the rows it changed.
 * Inside a transaction and with changed NULL, the statement is only sent:
 * its result is read, and a failure reported, by the next statement that
 * needs an answer (a read, COMMIT), so a batch of writes costs one round
 * trip, not one each. */
heed_status heed__pg_run(heed_store *store, const char *sql, int n,
                         const char *const *params, int64_t *changed);
/* heed__pg_run with parameters sent as raw bytes where formats[i] is 1
 * (heed__pg_query_ex's arrays). */
heed_status heed__pg_run_ex(heed_store *store, const char *sql, int n,
                            const char *const *params, const int *lengths,
                            const int *formats, int64_t *changed);

/* heed__pg_query_ex and heed__pg_run_ex for a whole statement (its
 * blind kinds too). */
PGresult *heed__pg_query_st(heed_store *store, const struct heed__pg_stmt *st);
heed_status heed__pg_run_st(heed_store *store, const struct heed__pg_stmt *st,
                            int64_t *changed);

/*
 * Rows held back in a batch (src/store/pg_held.c, struct heed__sql_held).
 * heed__pg_hold keeps a copy of the row's values (values[i] bound to
 * ?i+1; NULL is SQL NULL): HEED_OK, HEED_ENOMEM with nothing kept, or
 * the failure of sending the rows of its kind already held when they
 * were as many as it keeps.
 * heed__pg_held_send sends the held rows of the kinds given (one
 * statement a kind, pipelined as any write) and forgets them, sent or
 * not: HEED_OK, or the failure of sending. heed__pg_held_drop forgets
 * them all unsent (a ROLLBACK, a lost batch, closing).
 */
struct heed__sql_held;
struct heed__sql_scope;
bool heed__pg_may_hold(const heed_store *store);
heed_status heed__pg_hold(heed_store *store, const struct heed__sql_held *held,
                          const char *const *values);
heed_status heed__pg_held_send(heed_store *store, unsigned kinds);
/* Whether a row scope bounds to is held (struct heed__sql_scope). */
bool heed__pg_held_names(const heed_store *store,
                         const struct heed__sql_scope *scope);
void heed__pg_held_drop(heed_store *store);
/* Frees them and what held them (closing). */
void heed__pg_held_free(heed_store *store);
/* The statement the open batch kept last is done again with value (a
 * copy) bound to marker param + 1: what its first answer fixed, such as
 * the ids a sequence gave. Out of memory, the batch can no longer be done
 * again, and a loss reaches the caller. */
void heed__pg_redo_bind_last(heed_store *store, int param, const char *value);

/* Frees the translations of src/store/pg_sql.c (pg_close). */
void heed__pg_sql_forget(heed_store *store);

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

/*
 * A batch's statements, kept in the order they were sent, each with a
 * fingerprint of its answer once read (src/store/pg_redo.c). The log owns
 * its copies; heed__pg_redo_get's statement lives until the log is
 * cleared.
 */
struct heed__pg_redo;
struct heed__pg_redo *heed__pg_redo_new(const struct heed_allocator *alloc);
void heed__pg_redo_free(struct heed__pg_redo *log);
/* Forgets every statement and the transaction id. */
void heed__pg_redo_clear(struct heed__pg_redo *log);
/* The batch's transaction id (pg_current_xact_id's text), or NULL. */
void heed__pg_redo_set_xid(struct heed__pg_redo *log, const char *xid);
const char *heed__pg_redo_xid(const struct heed__pg_redo *log);
size_t heed__pg_redo_count(const struct heed__pg_redo *log);
/* Keeps a copy of st, unanswered: HEED_OK or HEED_ENOMEM. */
heed_status heed__pg_redo_keep(struct heed__pg_redo *log,
                               const struct heed__pg_stmt *st);
/* What an answer says, as a number: the rows of a read, the count of a
 * write. */
uint64_t heed__pg_redo_fingerprint(const PGresult *r);
void heed__pg_redo_answered(struct heed__pg_redo *log, size_t i,
                            uint64_t fingerprint);
/* Statement i sends value (a copy, text) as its parameter param from now
 * on: HEED_OK, HEED_EINVAL (no such statement or parameter) or HEED_ENOMEM,
 * with it unchanged. */
heed_status heed__pg_redo_rebind(struct heed__pg_redo *log, size_t i, int param,
                                 const char *value);
/* Statement i, to send again. */
void heed__pg_redo_get(const struct heed__pg_redo *log, size_t i,
                       struct heed__pg_stmt *st);
/* Whether statement i, done again, got the answer it got first (one it
 * never had read is taken as it comes). */
bool heed__pg_redo_same(struct heed__pg_redo *log, size_t i,
                        uint64_t fingerprint);

/* Row i of a result whose columns from first are the pages table's, in
 * the order of heed__page_read (src/store/pg_sql.c); the strings
 * live as long as r. */
struct heed_stored_page;
void heed__pg_read_page(const PGresult *r, int i, int first,
                        struct heed_stored_page *p);

/*
 * The FTS5 expression fts (heed_search_query.match) as the text of a
 * tsquery for to_tsquery with the search area's configuration
 * (src/store/pg_tsquery.c says what is translated): HEED_OK with *out
 * allocated from alloc, HEED_EINVAL with FTS5's reason in diag for an
 * expression FTS5 would refuse or that PostgreSQL cannot answer,
 * HEED_ENOMEM.
 */
heed_status heed__pg_tsquery(const struct heed_allocator *alloc,
                             const char *fts, char **out,
                             struct heed_diag *diag);

#endif /* HEED_PG_INT_H */
