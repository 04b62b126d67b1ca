/*
 * The SQLite backend: one connection per store, in WAL mode so readers (a
 * `heed site report` while a crawl runs) never block the writer, with
 * synchronous=NORMAL (WAL keeps every committed transaction across a process
 * crash; only a power cut may lose the last ones) and a busy timeout so two
 * heed processes on one file wait for each other instead of failing.
 *
 * A crawl writes a page record and its frontier rows several hundred times
 * a second: a 16 MiB page cache (SQLite's default is 2 MiB) keeps the
 * indexes' inner pages from being read again, and checkpointing every
 * 8,192 WAL pages instead of 1,000 copies each often-rewritten page into
 * the database eight times less often (bench/crawl: 0.37 to 0.33
 * CPU-seconds per 1,000 pages).
 */
#include <stdio.h>
#include <string.h>

#include "store/store-int.h"

/* How long a writer waits for another process's transaction. */
#define SQLITE_BUSY_TIMEOUT_MS 10000

static heed_status sqlite_exec(heed_store *store, const char *sql)
{
	char *err = NULL;

	if (sqlite3_exec(store->db, sql, NULL, NULL, &err) != SQLITE_OK) {
		snprintf(store->errmsg, sizeof(store->errmsg), "%s",
		         err ? err : sqlite3_errmsg(store->db));
		sqlite3_free(err);
		return HEED_ESTORE;
	}
	return HEED_OK;
}

static heed_status sqlite_open(heed_store *store, const char *path,
                               struct heed_diag *diag)
{
	static const char setup[] = "PRAGMA journal_mode=WAL;"
	                            "PRAGMA synchronous=NORMAL;"
	                            "PRAGMA cache_size=-16384;"
	                            "PRAGMA wal_autocheckpoint=8192;"
	                            "PRAGMA foreign_keys=ON;"
	                            "CREATE TABLE IF NOT EXISTS heed_schema ("
	                            "  area TEXT PRIMARY KEY,"
	                            "  version INTEGER NOT NULL);";
	int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
	            SQLITE_OPEN_NOMUTEX;

	if (sqlite3_open_v2(path, &store->db, flags, NULL) != SQLITE_OK)
		return heed__store_fail(store, diag,
		                        "opening the SQLite store");
	sqlite3_busy_timeout(store->db, SQLITE_BUSY_TIMEOUT_MS);
	sqlite3_extended_result_codes(store->db, 1);
	/* A file that is not a database fails here, on the first read. */
	if (sqlite_exec(store, setup) != HEED_OK)
		return heed_diag_set(diag, HEED_ESTORE, 0, 0,
		                     "'%s' is not a usable heed store: %s",
		                     path, store->errmsg);
	return HEED_OK;
}

static void sqlite_close(heed_store *store)
{
	for (int i = 0; i < store->nstmts; i++)
		sqlite3_finalize(store->stmts[i].st);
	store->nstmts = 0;
	/* sqlite3_close_v2 defers the close until stray statements finish, so a
	 * forgotten finalize cannot make close fail and leak the connection. */
	sqlite3_close_v2(store->db);
	store->db = NULL;
	/* After the database: the next crawl must not start while this one
	 * still writes (closing checkpoints the WAL). */
	heed__store_unlock(store);
}

static heed_status sqlite_lock(heed_store *store, struct heed_diag *diag)
{
	/* SQLite resolves the path (relative to the working directory at
	 * open) and answers "" or NULL for ":memory:" and temporary
	 * databases, which no other process can open: nothing to lock. */
	const char *path = sqlite3_db_filename(store->db, "main");

	if (!path || !*path)
		return HEED_OK;
	return heed__store_lock_file(store, path, diag);
}

static heed_status sqlite_schema_version(heed_store *store, const char *area,
                                         int *version)
{
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store, "SELECT version FROM heed_schema WHERE area = ?1;");
	int rc;

	*version = 0;
	if (!st)
		return HEED_ESTORE;
	sqlite3_bind_text(st, 1, area, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*version = sqlite3_column_int(st, 0);
	heed__sqlite_release(store, st);
	return (rc == SQLITE_ROW || rc == SQLITE_DONE) ? HEED_OK : HEED_ESTORE;
}

/* The free kept statement for sql, or NULL. */
static struct heed_store_stmt *kept_stmt(heed_store *store, const char *sql)
{
	for (int i = 0; i < store->nstmts; i++) {
		struct heed_store_stmt *k = &store->stmts[i];
		if (!k->busy && !strcmp(sqlite3_sql(k->st), sql))
			return k;
	}
	return NULL;
}

sqlite3_stmt *heed__sqlite_prepare(heed_store *store, const char *sql)
{
	struct heed_store_stmt *k = kept_stmt(store, sql);
	sqlite3_stmt *st = NULL;

	if (k) {
		k->busy = true;
		return k->st;
	}
	if (sqlite3_prepare_v3(store->db, sql, -1, SQLITE_PREPARE_PERSISTENT,
	                       &st, NULL) != SQLITE_OK) {
		snprintf(store->errmsg, sizeof(store->errmsg), "%s",
		         sqlite3_errmsg(store->db));
		return NULL;
	}
	if (store->nstmts < HEED_STORE_STMT_CACHE)
		store->stmts[store->nstmts++] =
		        (struct heed_store_stmt){st, true};
	return st;
}

void heed__sqlite_release(heed_store *store, sqlite3_stmt *st)
{
	if (!st)
		return;
	for (int i = 0; i < store->nstmts; i++)
		if (store->stmts[i].st == st) {
			/* reset ends the statement's read of the database, so
			 * a kept SELECT never pins an old WAL snapshot. */
			sqlite3_reset(st);
			sqlite3_clear_bindings(st);
			store->stmts[i].busy = false;
			return;
		}
	sqlite3_finalize(st);
}

heed_status heed__sqlite_step_done(heed_store *store, sqlite3_stmt *stmt)
{
	int rc = sqlite3_step(stmt);

	if (rc == SQLITE_DONE || rc == SQLITE_ROW)
		return HEED_OK;
	snprintf(store->errmsg, sizeof(store->errmsg), "%s",
	         sqlite3_errmsg(store->db));
	return HEED_ESTORE;
}

const struct heed_store_backend heed__sqlite_backend = {
        .name = "sqlite",
        .open = sqlite_open,
        .close = sqlite_close,
        .exec = sqlite_exec,
        .schema_version = sqlite_schema_version,
        .lock = sqlite_lock,
};
