/*
 * Store internals: the backend table and the schema areas.
 *
 * A backend fills in struct heed_store_backend. Each area of the schema
 * (sites, pages, irc...) is a list of migrations, applied in order on open
 * and recorded in the table heed_schema(area, version), so areas grow
 * independently. The SQL of an area's migrations and queries lives in
 * src/store/sqlite_<area>.c; its public functions in
 * include/heed/store_<area>.h.
 */
#ifndef HEED_STORE_INT_H
#define HEED_STORE_INT_H

#include <sqlite3.h>

#include "common/common-int.h"
#include "heed/store.h"

/* The table of versions, created by the first migration transaction (and
 * in every store an earlier heed made). */
#define HEED_SCHEMA_TABLE_SQL                      \
	"CREATE TABLE IF NOT EXISTS heed_schema (" \
	"  area TEXT PRIMARY KEY,"                 \
	"  version INTEGER NOT NULL);"

/* One area's schema: migrations[i] takes the area from version i to i + 1. */
struct heed_store_area {
	const char *name;
	const char *const *migrations;
	int count;
};

/* What the backend found at the location before heed wrote anything
 * (heed__sqlite_backend.open's guard). */
enum heed_store_found {
	HEED_STORE_FOUND_NEW,      /* nothing yet: no tables, no mark */
	HEED_STORE_FOUND_MARKED,   /* a heed store carrying heed's mark */
	HEED_STORE_FOUND_UNMARKED, /* a heed store made before the mark: exactly
	                              heed's tables (heed_schema among them) */
};

struct heed_store_backend {
	const char *name;
	/* Opens the location, then looks before it writes: a missing store
	 * is refused with HEED_ENOTFOUND under HEED_STORE_OPEN_EXISTING or
	 * _READONLY (and never created), anything that is not a heed store
	 * with HEED_ESTORE, both untouched. Sets store->found. */
	heed_status (*open)(heed_store *store, const char *location,
	                    unsigned flags, struct heed_diag *diag);
	void (*close)(heed_store *store);
	heed_status (*exec)(heed_store *store, const char *sql);
	heed_status (*schema_version)(heed_store *store, const char *area,
	                              int *version);
	/* heed_store_lock's contract; close releases the lock. */
	heed_status (*lock)(heed_store *store, struct heed_diag *diag);
	/* The statement that marks the store as heed's, run in the migration
	 * transaction. */
	const char *mark_sql;
	/* Run by a writer once the store is migrated (it may write the file,
	 * so never before): SQLite's WAL mode. */
	const char *writer_sql;
};

/* Statements kept prepared per store (heed__sqlite_prepare). heed runs
 * a few dozen distinct statements; more are prepared and finalized each
 * time. */
#define HEED_STORE_STMT_CACHE 64

struct heed_store_stmt {
	sqlite3_stmt *st; /* sqlite3_sql(st) is its text */
	bool busy;        /* handed out and not yet released */
};

struct heed_store {
	const struct heed_store_backend *backend;
	const struct heed_allocator *alloc;
	char *location;              /* as given to heed_store_open, owned */
	sqlite3 *db;                 /* the SQLite backend's connection */
	int lock_fd;                 /* the held crawl lock's file, or -1 */
	unsigned flags;              /* HEED_STORE_OPEN_* as opened */
	enum heed_store_found found; /* set by the backend's open */
	char errmsg[HEED_DIAG_SIZE]; /* last error, for heed_store_errmsg */
	struct heed_store_stmt stmts[HEED_STORE_STMT_CACHE];
	int nstmts;
};

extern const struct heed_store_backend heed__sqlite_backend;

/*
 * The crawl lock on a file beside the store (src/store/lock.c): takes
 * flock(LOCK_EX | LOCK_NB) on db_path + ".lock" and keeps the descriptor in
 * store->lock_fd. Returns HEED_OK (also when already held), HEED_EBUSY
 * naming store->location and the holder's pid in diag, HEED_EIO or
 * HEED_ENOMEM. heed__store_unlock closes the descriptor, which releases the
 * lock; it does nothing when no lock is held.
 */
heed_status heed__store_lock_file(heed_store *store, const char *db_path,
                                  struct heed_diag *diag);
void heed__store_unlock(heed_store *store);

/* The areas, each defined in its src/store/sqlite_<area>.c. */
extern const struct heed_store_area heed__store_sites_area;
extern const struct heed_store_area heed__store_irc_area;
extern const struct heed_store_area heed__store_pages_area;
extern const struct heed_store_area heed__store_frontier_area;
/* After pages: a store made before it fills it from the pages table. */
extern const struct heed_store_area heed__store_visits_area;
/* After pages: its triggers and indexes are on the pages table. */
extern const struct heed_store_area heed__store_search_area;
/* Per-host arrangements with site owners (issue 15). */
extern const struct heed_store_area heed__store_arrangements_area;

/* Every schema area, in the order they are migrated. */
extern const struct heed_store_area *const heed__store_areas[];
extern const int heed__store_area_count;

/* Records the backend's error message in store->errmsg and diag, returns
 * HEED_ESTORE. what says what was being done ("opening", "migrating"). */
heed_status heed__store_fail(heed_store *store, struct heed_diag *diag,
                             const char *what);

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

#endif /* HEED_STORE_INT_H */
