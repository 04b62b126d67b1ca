/*
 * The SQLite backend: one connection per store, in WAL mode so readers (a
 * `heed site report` while a crawl runs) never block the writer, with
 * synchronous=NORMAL (WAL keeps every committed transaction across a process
 * crash; only a power cut may lose the last ones) and a busy timeout so two
 * heed processes on one file wait for each other instead of failing.
 *
 * A crawl writes a page record and its frontier rows thousands of times a
 * second, and in a crawl of many sites each answer's rows land on index
 * leaves of their own (the URL- and site-keyed indexes), a leaf coming
 * back a few seconds later. So a writer keeps a 64 MiB page cache
 * (SQLite's default is 2 MiB), which holds those leaves between their
 * writes instead of reading them back, and checkpoints every 65,536 WAL
 * pages (256 MiB) instead of SQLite's 1,000, copying a leaf that many
 * answers rewrote into the database once for all of them. Against 16 MiB
 * and 8,192 pages, a crawl of 10,000 sites x 51 pages wrote a quarter
 * fewer bytes and cost less CPU (bench/crawl; docs/performance.md has the
 * runs), for 50 MB more memory. The WAL file keeps its largest size until
 * the store is closed; a 1 GiB one gained nothing more, and makes every
 * read look through a larger WAL index. Readers keep 16 MiB: heed serve
 * reads through a memory map (below) with a connection per thread.
 *
 * Opening looks before it writes: inspect() reads the file's
 * application_id and table names and refuses what is not a heed store, and
 * nothing that writes to the file (WAL mode, heed_schema, the migrations,
 * the mark) runs before it has passed. Readers open the file read-only.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "store/grams-int.h"
#include "store/sql-int.h"
#include "store/sqlite-int.h"

#define STRINGIFY_(x) #x
#define STRINGIFY(x)  STRINGIFY_(x)

/* How long a writer waits for another process's transaction. */
#define SQLITE_BUSY_TIMEOUT_MS 10000

static heed_status sqlite_exec(heed_store *store, const char *sql)
{
	char *err = NULL;

	if (sqlite3_exec(store->sqlite->db, sql, NULL, NULL, &err) !=
	    SQLITE_OK) {
		snprintf(store->errmsg, sizeof(store->errmsg), "%s",
		         err ? err : sqlite3_errmsg(store->sqlite->db));
		sqlite3_free(err);
		return HEED_ESTORE;
	}
	return HEED_OK;
}

/* The names of every table some version of heed's schema has had: each
 * area's migrations replayed in order into a private in-memory database,
 * the tables after each step gathered into temp.known. Returns the
 * database (sqlite3_close it), or NULL. Run only for an unmarked
 * database that holds tables, so a marked store never pays for it. */
static sqlite3 *heed_tables(void)
{
	static const char known[] =
	        "INSERT OR IGNORE INTO temp.known SELECT name FROM "
	        "main.sqlite_master WHERE type IN ('table', 'view');";
	sqlite3 *mem = NULL;
	int ok, i, v;

	if (sqlite3_open_v2(":memory:", &mem,
	                    SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX,
	                    NULL) != SQLITE_OK ||
	    heed__sqlite_search_register(mem) != SQLITE_OK) {
		sqlite3_close(mem);
		return NULL;
	}
	ok = sqlite3_exec(mem,
	                  "CREATE TEMP TABLE known (name TEXT PRIMARY "
	                  "KEY);" HEED_SCHEMA_TABLE_SQL,
	                  NULL, NULL, NULL) == SQLITE_OK &&
	     sqlite3_exec(mem, known, NULL, NULL, NULL) == SQLITE_OK;
	for (i = 0; ok && i < heed__store_area_count; i++)
		for (v = 0; ok && v < heed__store_areas[i]->count; v++)
			ok = sqlite3_exec(mem,
			                  heed__store_areas[i]->migrations[v],
			                  NULL, NULL, NULL) == SQLITE_OK &&
			     sqlite3_exec(mem, known, NULL, NULL, NULL) ==
			             SQLITE_OK;
	if (!ok) {
		sqlite3_close(mem);
		return NULL;
	}
	return mem;
}

/*
 * Looks at what the file holds, reading only, and decides whether heed
 * may use it (heed_store_open_ex's contract): sets store->found, or
 * refuses with a message naming the store. The mark alone makes a heed
 * store; without it, the tables must all be ones heed has created, and
 * heed_schema (which heed created in every store since its first
 * version) must be one of them, so a database holding only a `pages`
 * table of its own is not taken for heed's.
 */
static heed_status inspect(heed_store *store, struct heed_diag *diag)
{
	static const char tables_sql[] =
	        "SELECT name FROM sqlite_master WHERE type IN ('table', "
	        "'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' "
	        "ORDER BY name;";
	sqlite3_stmt *st = NULL;
	sqlite3 *known = NULL;
	sqlite3_stmt *is_known = NULL;
	char foreign[160] = "";
	int app_id = 0, tables = 0, listed = 0, nforeign = 0, rc;
	bool has_schema = false;

	rc = sqlite3_prepare_v2(store->sqlite->db, "PRAGMA application_id;", -1,
	                        &st, NULL);
	if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW)
		app_id = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if ((rc & 0xff) == SQLITE_NOTADB)
		return heed_diag_set(diag, HEED_ESTORE, 0, 0,
		                     "'%s' is not a heed store: it is not a "
		                     "SQLite database",
		                     store->location);
	if (rc != SQLITE_ROW)
		return heed__store_fail(store, diag, "reading the store");
	if (app_id == HEED_STORE_APPLICATION_ID) {
		store->found = HEED_STORE_FOUND_MARKED;
		return HEED_OK;
	}
	if (app_id != 0)
		return heed_diag_set(diag, HEED_ESTORE, 0, 0,
		                     "'%s' is not a heed store: it belongs to "
		                     "another application (application_id "
		                     "0x%08x, heed's is 0x%08x)",
		                     store->location, (unsigned)app_id,
		                     (unsigned)HEED_STORE_APPLICATION_ID);
	if (sqlite3_prepare_v2(store->sqlite->db, tables_sql, -1, &st, NULL) !=
	    SQLITE_OK)
		return heed__store_fail(store, diag, "reading the store");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		tables++;
		if (!name)
			continue;
		if (strcmp(name, "heed_schema") == 0)
			has_schema = true;
		if (!known) {
			known = heed_tables();
			if (!known ||
			    sqlite3_prepare_v2(known,
			                       "SELECT 1 FROM temp.known "
			                       "WHERE name = ?1;",
			                       -1, &is_known,
			                       NULL) != SQLITE_OK) {
				rc = SQLITE_NOMEM;
				break;
			}
		}
		sqlite3_bind_text(is_known, 1, name, -1, SQLITE_TRANSIENT);
		if (sqlite3_step(is_known) != SQLITE_ROW)
			heed__store_list_foreign(foreign, sizeof(foreign),
			                         &listed, &nforeign, name);
		sqlite3_reset(is_known);
	}
	sqlite3_finalize(is_known);
	sqlite3_close(known);
	if (rc != SQLITE_DONE) {
		sqlite3_finalize(st);
		if (rc == SQLITE_NOMEM)
			return heed_diag_set(diag, HEED_ENOMEM, 0, 0,
			                     "out of memory reading the store");
		return heed__store_fail(store, diag, "reading the store");
	}
	if (tables > 0 && !has_schema) {
		/* Heed's names without heed_schema are someone else's. */
		foreign[0] = '\0';
		listed = nforeign = 0;
		sqlite3_reset(st);
		while (sqlite3_step(st) == SQLITE_ROW) {
			const char *name =
			        (const char *)sqlite3_column_text(st, 0);
			heed__store_list_foreign(foreign, sizeof(foreign),
			                         &listed, &nforeign,
			                         name ? name : "?");
		}
	}
	sqlite3_finalize(st);
	if (nforeign > 0) {
		if (nforeign > listed) {
			size_t len = strlen(foreign);
			snprintf(foreign + len, sizeof(foreign) - len,
			         " and %d more", nforeign - listed);
		}
		return heed_diag_set(
		        diag, HEED_ESTORE, 0, 0,
		        "'%s' is not a heed store: it holds tables "
		        "heed did not create (%s)",
		        store->location, foreign);
	}
	store->found =
	        tables ? HEED_STORE_FOUND_UNMARKED : HEED_STORE_FOUND_NEW;
	return HEED_OK;
}

/* Whether path names a file that does not exist: what "no store at"
 * means. Other stat failures (permissions) are left for SQLite to
 * report. */
static bool missing(const char *path)
{
	struct stat sb;

	return stat(path, &sb) != 0 && (errno == ENOENT || errno == ENOTDIR);
}

static heed_status sqlite_open(heed_store *store, const char *path,
                               unsigned flags, struct heed_diag *diag)
{
	/* Connection settings only: nothing here writes to the file.
	 * journal_mode=WAL, which does, is writer_sql. */
	static const char setup[] = "PRAGMA synchronous=NORMAL;"
	                            "PRAGMA cache_size=-16384;"
	                            "PRAGMA wal_autocheckpoint=65536;"
	                            "PRAGMA foreign_keys=ON;";
	bool read_only = flags & HEED_STORE_OPEN_READONLY;
	bool existing = read_only || (flags & HEED_STORE_OPEN_EXISTING);
	bool memory;

	/* "sqlite:PATH" names the backend explicitly. */
	if (strncmp(path, "sqlite:", 7) == 0)
		path += 7;
	memory = strcmp(path, ":memory:") == 0;
	int oflags = SQLITE_OPEN_NOMUTEX;
	heed_status rc;

	if (existing && (memory || missing(path)))
		return heed_diag_set(diag, HEED_ENOTFOUND, 0, 0,
		                     "no store at '%s'", store->location);
	/* Without SQLITE_OPEN_CREATE, a file that vanished since the check
	 * above is an error, never a new store. */
	oflags |= read_only ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE;
	if (!existing)
		oflags |= SQLITE_OPEN_CREATE;
	store->sqlite = heed__calloc(store->alloc, 1, sizeof(*store->sqlite));
	if (!store->sqlite)
		return heed_diag_set(diag, HEED_ENOMEM, 0, 0,
		                     "out of memory opening '%s'",
		                     store->location);
	if (sqlite3_open_v2(path, &store->sqlite->db, oflags, NULL) !=
	    SQLITE_OK)
		return heed__store_fail(store, diag,
		                        "opening the SQLite store");
	sqlite3_busy_timeout(store->sqlite->db, SQLITE_BUSY_TIMEOUT_MS);
	sqlite3_extended_result_codes(store->sqlite->db, 1);
	if (heed__sqlite_search_register(store->sqlite->db) != SQLITE_OK)
		return heed__store_fail(store, diag,
		                        "opening the SQLite store");
	rc = inspect(store, diag);
	if (rc != HEED_OK)
		return rc;
	if (existing && store->found == HEED_STORE_FOUND_NEW)
		return heed_diag_set(diag, HEED_ENOTFOUND, 0, 0,
		                     "no store at '%s': the file is an empty "
		                     "database",
		                     store->location);
	if (sqlite_exec(store, setup) != HEED_OK)
		return heed__store_fail(store, diag, "setting up the store");
	/* Readers (heed serve above all) read the file through a memory map
	 * instead of copying each page into the 16 MiB cache: a search
	 * touches pages rows all over a store of gigabytes, and at 1,000,000
	 * records the copies were a quarter of its time (bench/serve: search
	 * CPU -33 %). The map is address space, shared with the page cache;
	 * Debian's SQLite caps it at 2 GiB. */
	if (read_only &&
	    sqlite_exec(store, "PRAGMA mmap_size=2147418112;") != HEED_OK)
		return heed__store_fail(store, diag, "setting up the store");
	/* A write inside a batch that fires a trigger or may stop halfway
	 * keeps the pages it changes in a statement journal, so that it
	 * alone can be undone; past 64 KiB SQLite moves that journal to a
	 * file in /var/tmp. Each page a crawl stores wrote as much there as
	 * to the WAL (bench/crawl --wal-frames and its write figure: 80 KB a
	 * page, 40 without). In memory it lives for one statement. A writer
	 * only, as its larger cache (above): heed serve's sorts over a large
	 * store may still spill. */
	if (!read_only &&
	    sqlite_exec(store, "PRAGMA temp_store=MEMORY;"
	                       "PRAGMA cache_size=-65536;") != HEED_OK)
		return heed__store_fail(store, diag, "setting up the store");
	return HEED_OK;
}

static void sqlite_close(heed_store *store)
{
	struct heed__sqlite *sq = store->sqlite;

	if (sq) {
		for (int i = 0; i < sq->nstmts; i++)
			sqlite3_finalize(sq->stmts[i].st);
		/* sqlite3_close_v2 defers the close until stray statements
		 * finish, so a forgotten finalize cannot make close fail and
		 * leak the connection. */
		sqlite3_close_v2(sq->db);
		heed__free(store->alloc, sq);
		store->sqlite = NULL;
	}
	/* After the database: the next crawl must not start while this one
	 * still writes (closing checkpoints the WAL). */
	heed__store_unlock(store);
}

static heed_status sqlite_lock(heed_store *store, struct heed_diag *diag)
{
	/* SQLite resolves the path (relative to the working directory at
	 * open) and answers "" or NULL for ":memory:" and temporary
	 * databases, which no other process can open: nothing to lock. */
	const char *path = sqlite3_db_filename(store->sqlite->db, "main");

	if (!path || !*path)
		return HEED_OK;
	return heed__store_lock_file(store, path, diag);
}

static const char *sqlite_errmsg(heed_store *store)
{
	sqlite3 *db = heed__sqlite_db(store);

	return db ? sqlite3_errmsg(db) : "no database";
}

static bool sqlite_in_tx(const heed_store *store)
{
	sqlite3 *db = heed__sqlite_db(store);

	return db && !sqlite3_get_autocommit(db);
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
static struct heed__sqlite_stmt *kept_stmt(struct heed__sqlite *sq,
                                           const char *sql)
{
	for (int i = 0; i < sq->nstmts; i++) {
		struct heed__sqlite_stmt *k = &sq->stmts[i];
		if (!k->busy && !strcmp(sqlite3_sql(k->st), sql))
			return k;
	}
	return NULL;
}

sqlite3_stmt *heed__sqlite_prepare(heed_store *store, const char *sql)
{
	struct heed__sqlite *sq = store->sqlite;
	struct heed__sqlite_stmt *k;
	sqlite3_stmt *st = NULL;

	/* An area only SQLite has, called on another backend, fails here
	 * rather than handing SQLite a NULL connection. */
	if (!sq) {
		heed__store_not_ported(store, NULL);
		return NULL;
	}
	k = kept_stmt(sq, sql);

	if (k) {
		k->busy = true;
		return k->st;
	}
	if (sqlite3_prepare_v3(store->sqlite->db, sql, -1,
	                       SQLITE_PREPARE_PERSISTENT, &st,
	                       NULL) != SQLITE_OK) {
		snprintf(store->errmsg, sizeof(store->errmsg), "%s",
		         sqlite3_errmsg(store->sqlite->db));
		return NULL;
	}
	if (sq->nstmts < HEED__SQLITE_STMT_CACHE)
		sq->stmts[sq->nstmts++] = (struct heed__sqlite_stmt){st, true};
	return st;
}

void heed__sqlite_release(heed_store *store, sqlite3_stmt *st)
{
	struct heed__sqlite *sq = store->sqlite;

	if (!st)
		return;
	for (int i = 0; sq && i < sq->nstmts; i++)
		if (sq->stmts[i].st == st) {
			/* reset ends the statement's read of the database, so
			 * a kept SELECT never pins an old WAL snapshot. */
			sqlite3_reset(st);
			sqlite3_clear_bindings(st);
			sq->stmts[i].busy = false;
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
	         sqlite3_errmsg(store->sqlite->db));
	return HEED_ESTORE;
}

/* Any location that no other backend takes is a path. */
static bool sqlite_accepts(const char *location)
{
	(void)location;
	return true;
}

/* The location as the user wrote it: a path has no password. */
static char *sqlite_shown(const struct heed_allocator *alloc,
                          const char *location)
{
	return heed__strndup(alloc, location, strlen(location));
}

static heed_status sqlite_join_begin(heed_store *store)
{
	/* IMMEDIATE takes the write lock at once: a second joiner waits
	 * (the busy timeout) until the first has committed, then finds its
	 * run open. */
	if (!sqlite3_get_autocommit(store->sqlite->db))
		return HEED_EINVAL;
	return store->backend->exec(store, "BEGIN IMMEDIATE;");
}

const struct heed_store_backend heed__sqlite_backend = {
        .name = "sqlite",
        .title = "SQLite",
        .accepts = sqlite_accepts,
        .shown = sqlite_shown,
        .areas = heed__store_areas,
        .open = sqlite_open,
        .close = sqlite_close,
        .exec = sqlite_exec,
        .schema_version = sqlite_schema_version,
        .lock = sqlite_lock,
        .mark_sql = "PRAGMA application_id = " STRINGIFY(
                HEED_STORE_APPLICATION_ID) ";",
        .writer_sql = "PRAGMA journal_mode=WAL;",
        .errmsg = sqlite_errmsg,
        .in_tx = sqlite_in_tx,
        .join_begin = sqlite_join_begin,
        .begin_sql = "BEGIN IMMEDIATE;",
        /* BEGIN IMMEDIATE takes the write lock at once, waiting the busy
         * timeout for another writer. */
        .migrate_begin_sql = "BEGIN IMMEDIATE;",
        .sql = &heed__sqlite_sql_ops,
        .search = &heed__sqlite_search_ops,
};
