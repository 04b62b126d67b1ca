/*
 * The "frontier" area on SQLite: the queue, seen set and runs of a crawl;
 * see include/heed/store_frontier.h.
 *
 * Workload: millions of rows across up to 100,000 sites; the engine asks
 * for a small window of one site's queued rows at a time, so the index
 * (host, state, id) answers every refill without a scan, and the URL's
 * unique index is the seen set. Nothing here is kept in memory. The column
 * is named host for history: since schema version 2 it holds the site
 * (origin) "scheme://host[:port]".
 */
#include <string.h>

#include "store/sqlite-rows-int.h"
#include "store/store-int.h"

static const char *const frontier_migrations[] = {
        "CREATE TABLE frontier ("
        "  id INTEGER PRIMARY KEY,"
        "  url TEXT NOT NULL UNIQUE,"
        "  host TEXT NOT NULL,"
        "  depth INTEGER NOT NULL,"
        "  kind INTEGER NOT NULL,"
        "  state INTEGER NOT NULL DEFAULT 0,"
        "  discovered_from TEXT,"
        "  lastmod INTEGER,"
        "  outcome INTEGER NOT NULL DEFAULT 0);"
        "CREATE INDEX frontier_queue ON frontier(host, state, id);"
        "CREATE TABLE crawl_runs ("
        "  id INTEGER PRIMARY KEY,"
        "  mode TEXT NOT NULL,"
        "  started_at INTEGER NOT NULL,"
        "  finished_at INTEGER,"
        "  pages INTEGER NOT NULL DEFAULT 0,"
        "  errors INTEGER NOT NULL DEFAULT 0);",
        /* 2: tries counts transient failures retried in the same run, and
         * host holds the site (origin) the crawl schedules by instead of
         * the host key. A normalised URL always has a path, so its origin
         * ends before the first '/' after "://": searching from byte 9
         * skips "http://" and "https://" (and at most a host's first
         * byte, never a '/'). */
        "ALTER TABLE frontier ADD COLUMN tries INTEGER NOT NULL DEFAULT 0;"
        "UPDATE frontier SET host = CASE"
        "  WHEN instr(substr(url, 9), '/') > 0"
        "  THEN substr(url, 1, instr(substr(url, 9), '/') + 7)"
        "  ELSE url END;",
};

const struct heed_store_area heed__store_frontier_area = {
        "frontier",
        frontier_migrations,
        (int)HEED_ARRAY_SIZE(frontier_migrations),
};

/* Runs sql with e's columns bound as ?1..?6. */
static heed_status write_entry(heed_store *store, const char *sql,
                               const struct heed_frontier_entry *e)
{
	sqlite3_stmt *st = heed__sqlite_prepare(store, sql);
	heed_status rc;

	if (!st)
		return HEED_ESTORE;
	sqlite3_bind_text(st, 1, e->url, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, e->host, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 3, e->depth);
	sqlite3_bind_int(st, 4, (int)e->kind);
	heed__sqlite_bind_text(st, 5, e->discovered_from);
	heed__sqlite_bind_date(st, 6, e->lastmod);
	rc = heed__sqlite_step_done(store, st);
	heed__sqlite_release(store, st);
	return rc;
}

static heed_status sqlite_add(heed_store *store,
                              const struct heed_frontier_entry *e, bool *added)
{
	heed_status rc;

	rc = write_entry(store,
	                 "INSERT OR IGNORE INTO frontier(url, host, depth, "
	                 "kind, discovered_from, lastmod) "
	                 "VALUES(?1, ?2, ?3, ?4, ?5, ?6);",
	                 e);
	if (rc == HEED_OK && added)
		*added = sqlite3_changes(store->db) > 0;
	return rc;
}

static heed_status sqlite_requeue(heed_store *store,
                                  const struct heed_frontier_entry *e)
{
	sqlite3_stmt *st;
	heed_status rc;

	/* A new row, not an update: windows only look above the last id
	 * they loaded, so an old id would never be seen again. */
	st = heed__sqlite_prepare(store,
	                          "DELETE FROM frontier WHERE url = ?1;");
	if (!st)
		return HEED_ESTORE;
	sqlite3_bind_text(st, 1, e->url, -1, SQLITE_STATIC);
	rc = heed__sqlite_step_done(store, st);
	heed__sqlite_release(store, st);
	if (rc != HEED_OK)
		return rc;
	return sqlite_add(store, e, NULL);
}

static void read_entry(sqlite3_stmt *st, struct heed_frontier_entry *e)
{
	e->id = sqlite3_column_int64(st, 0);
	e->url = heed__sqlite_text(st, 1);
	e->host = heed__sqlite_text(st, 2);
	e->depth = sqlite3_column_int(st, 3);
	e->kind = (heed_frontier_kind)sqlite3_column_int(st, 4);
	e->discovered_from = heed__sqlite_text(st, 5);
	e->lastmod = heed__sqlite_int(st, 6, HEED_STORE_NO_DATE);
	e->tries = sqlite3_column_int(st, 7);
}

/* Steps st to its end; fn may stop it. Finalizes st. */
static heed_status finish_rows(heed_store *store, sqlite3_stmt *st, int rc)
{
	heed__sqlite_release(store, st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return heed__store_fail(store, NULL, "reading the frontier");
	return HEED_OK;
}

static heed_status sqlite_queued(heed_store *store, const char *host,
                                 int64_t after_id, int max,
                                 heed_store_frontier_fn *fn, void *ud)
{
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store, "SELECT id, url, host, depth, kind, discovered_from, "
	               "lastmod, tries FROM frontier WHERE host = ?1 "
	               "AND state = 0 AND id > ?2 ORDER BY id LIMIT ?3;");
	int rc;

	if (!st)
		return HEED_ESTORE;
	sqlite3_bind_text(st, 1, host, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, after_id);
	sqlite3_bind_int(st, 3, max);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct heed_frontier_entry e;
		read_entry(st, &e);
		if (fn(ud, &e))
			break;
	}
	return finish_rows(store, st, rc);
}

/* Runs a statement with one text and up to two integer parameters and
 * reports how many rows it changed. */
static heed_status change_rows(heed_store *store, const char *sql,
                               const char *text, int64_t a, int64_t b,
                               int64_t *changed)
{
	sqlite3_stmt *st = heed__sqlite_prepare(store, sql);
	heed_status rc;

	if (changed)
		*changed = 0;
	if (!st)
		return HEED_ESTORE;
	if (text)
		sqlite3_bind_text(st, 1, text, -1, SQLITE_STATIC);
	else
		sqlite3_bind_int64(st, 1, a);
	sqlite3_bind_int64(st, 2, b);
	rc = heed__sqlite_step_done(store, st);
	heed__sqlite_release(store, st);
	if (rc == HEED_OK && changed)
		*changed = sqlite3_changes(store->db);
	return rc;
}

static heed_status sqlite_set_state(heed_store *store, int64_t id,
                                    heed_frontier_state state, int outcome)
{
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store, "UPDATE frontier SET state = ?2, outcome = ?3 "
	               "WHERE id = ?1;");
	heed_status rc;

	if (!st)
		return HEED_ESTORE;
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int(st, 2, (int)state);
	sqlite3_bind_int(st, 3, outcome);
	rc = heed__sqlite_step_done(store, st);
	heed__sqlite_release(store, st);
	return rc;
}

static heed_status sqlite_retry(heed_store *store, int64_t id, int *tries)
{
	int64_t changed = 0;
	sqlite3_stmt *st;
	heed_status rc;
	int step;

	if (tries)
		*tries = 0;
	/* The same id, not a new row as requeue makes: the engine keeps the
	 * job in its window, and a new id would load it a second time. An
	 * UPDATE, then a SELECT, rather than UPDATE ... RETURNING, which
	 * needs SQLite 3.35. */
	rc = change_rows(store,
	                 "UPDATE frontier SET state = ?2, tries = tries + 1 "
	                 "WHERE id = ?1;",
	                 NULL, id, HEED_FRONTIER_QUEUED, &changed);
	if (rc != HEED_OK)
		return rc;
	if (changed == 0)
		return HEED_ENOTFOUND;
	if (!tries)
		return HEED_OK;
	st = heed__sqlite_prepare(store,
	                          "SELECT tries FROM frontier WHERE id = ?1;");
	if (!st)
		return HEED_ESTORE;
	sqlite3_bind_int64(st, 1, id);
	step = sqlite3_step(st);
	if (step == SQLITE_ROW)
		*tries = sqlite3_column_int(st, 0);
	return finish_rows(store, st, step);
}

static heed_status sqlite_recover(heed_store *store, int64_t *requeued)
{
	return change_rows(
	        store, "UPDATE frontier SET state = ?1 WHERE state = ?2;", NULL,
	        HEED_FRONTIER_QUEUED, HEED_FRONTIER_IN_FLIGHT, requeued);
}

static heed_status sqlite_recover_host(heed_store *store, const char *host,
                                       int64_t *requeued)
{
	/* One range of the index frontier_queue (host, state = in flight). */
	return change_rows(store,
	                   "UPDATE frontier SET state = ?2 "
	                   "WHERE host = ?1 AND state = 1;",
	                   host, 0, HEED_FRONTIER_QUEUED, requeued);
}

static heed_status sqlite_drop_host(heed_store *store, const char *host,
                                    int64_t *dropped)
{
	return change_rows(store,
	                   "UPDATE frontier SET state = ?2 "
	                   "WHERE host = ?1 AND state = 0;",
	                   host, 0, HEED_FRONTIER_DROPPED, dropped);
}

static heed_status sqlite_undrop_host(heed_store *store, const char *host,
                                      int64_t *requeued)
{
	return change_rows(store,
	                   "UPDATE frontier SET state = ?2 "
	                   "WHERE host = ?1 AND state = 3;",
	                   host, 0, HEED_FRONTIER_QUEUED, requeued);
}

static heed_status sqlite_hosts(heed_store *store,
                                heed_store_frontier_host_fn *fn, void *ud)
{
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store, "SELECT host, sum(state = 0), "
	               "sum(state = 2 AND kind = 0) FROM frontier "
	               "GROUP BY host ORDER BY host;");
	int rc;

	if (!st)
		return HEED_ESTORE;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct heed_frontier_host h = {
		        heed__sqlite_text(st, 0),
		        sqlite3_column_int64(st, 1),
		        sqlite3_column_int64(st, 2),
		};
		if (fn(ud, &h))
			break;
	}
	return finish_rows(store, st, rc);
}

static heed_status sqlite_counts(heed_store *store, int64_t counts[4])
{
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store, "SELECT state, count(*) FROM frontier GROUP BY state;");
	int rc;

	memset(counts, 0, 4 * sizeof(counts[0]));
	if (!st)
		return HEED_ESTORE;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int state = sqlite3_column_int(st, 0);
		if (state >= 0 && state < 4)
			counts[state] = sqlite3_column_int64(st, 1);
	}
	return finish_rows(store, st, rc);
}

static heed_status sqlite_clear(heed_store *store)
{
	return store->backend->exec(store, "DELETE FROM frontier;");
}

static heed_status sqlite_run_begin(heed_store *store, const char *mode,
                                    int64_t started_at, int64_t *id)
{
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store, "INSERT INTO crawl_runs(mode, started_at) "
	               "VALUES(?1, ?2);");
	heed_status rc;

	*id = 0;
	if (!st)
		return HEED_ESTORE;
	sqlite3_bind_text(st, 1, mode, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, started_at);
	rc = heed__sqlite_step_done(store, st);
	heed__sqlite_release(store, st);
	if (rc == HEED_OK)
		*id = sqlite3_last_insert_rowid(store->db);
	return rc;
}

static heed_status read_run(heed_store *store, sqlite3_stmt *st,
                            struct heed_crawl_run *run)
{
	int rc = sqlite3_step(st);

	memset(run, 0, sizeof(*run));
	if (rc == SQLITE_ROW) {
		const char *mode = heed__sqlite_text(st, 1);
		run->id = sqlite3_column_int64(st, 0);
		strncat(run->mode, mode ? mode : "", sizeof(run->mode) - 1);
		run->started_at = sqlite3_column_int64(st, 2);
		run->finished_at = heed__sqlite_int(st, 3, 0);
		run->pages = sqlite3_column_int64(st, 4);
		run->errors = sqlite3_column_int64(st, 5);
	}
	heed__sqlite_release(store, st);
	if (rc == SQLITE_ROW)
		return HEED_OK;
	if (rc == SQLITE_DONE)
		return HEED_ENOTFOUND;
	return heed__store_fail(store, NULL, "reading crawl runs");
}

#define RUN_COLUMNS "id, mode, started_at, finished_at, pages, errors"

static heed_status sqlite_run_open(heed_store *store,
                                   struct heed_crawl_run *run)
{
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store, "SELECT " RUN_COLUMNS " FROM crawl_runs "
	               "WHERE finished_at IS NULL ORDER BY id DESC LIMIT 1;");

	if (!st)
		return HEED_ESTORE;
	return read_run(store, st, run);
}

static heed_status sqlite_run_last(heed_store *store, const char *mode,
                                   struct heed_crawl_run *run)
{
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store, "SELECT " RUN_COLUMNS " FROM crawl_runs "
	               "WHERE finished_at IS NOT NULL "
	               "AND (?1 IS NULL OR mode = ?1) "
	               "ORDER BY id DESC LIMIT 1;");

	if (!st)
		return HEED_ESTORE;
	heed__sqlite_bind_text(st, 1, mode);
	return read_run(store, st, run);
}

static heed_status sqlite_run_add(heed_store *store, int64_t id, int64_t pages,
                                  int64_t errors)
{
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store, "UPDATE crawl_runs SET pages = pages + ?2, "
	               "errors = errors + ?3 WHERE id = ?1;");
	heed_status rc;

	if (!st)
		return HEED_ESTORE;
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int64(st, 2, pages);
	sqlite3_bind_int64(st, 3, errors);
	rc = heed__sqlite_step_done(store, st);
	heed__sqlite_release(store, st);
	return rc;
}

static heed_status sqlite_run_finish(heed_store *store, int64_t id,
                                     int64_t finished_at)
{
	return change_rows(store,
	                   "UPDATE crawl_runs SET finished_at = ?2 "
	                   "WHERE id = ?1;",
	                   NULL, id, finished_at, NULL);
}

static heed_status sqlite_lease_get(heed_store *store, int64_t *until_ms)
{
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store, "SELECT value FROM heed_meta "
	               "WHERE key = 'crawl.lease_until_ms';");
	int rc;

	*until_ms = 0;
	if (!st)
		return HEED_ESTORE;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*until_ms = sqlite3_column_int64(st, 0);
	return finish_rows(store, st, rc);
}

static heed_status sqlite_lease_set(heed_store *store, int64_t until_ms)
{
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store,
	        "INSERT INTO heed_meta(key, value) "
	        "VALUES('crawl.lease_until_ms', ?1) "
	        "ON CONFLICT(key) DO UPDATE SET value = excluded.value;");
	heed_status rc;

	if (!st)
		return HEED_ESTORE;
	sqlite3_bind_int64(st, 1, until_ms);
	rc = heed__sqlite_step_done(store, st);
	heed__sqlite_release(store, st);
	return rc;
}

static heed_status sqlite_join_begin(heed_store *store)
{
	/* IMMEDIATE takes the write lock at once: a second joiner waits
	 * (the busy timeout) until the first has committed, then finds its
	 * run open. */
	if (!sqlite3_get_autocommit(store->db))
		return HEED_EINVAL;
	return store->backend->exec(store, "BEGIN IMMEDIATE;");
}

const struct heed__frontier_ops heed__sqlite_frontier_ops = {
        .add = sqlite_add,
        .requeue = sqlite_requeue,
        .queued = sqlite_queued,
        .set_state = sqlite_set_state,
        .retry = sqlite_retry,
        .recover = sqlite_recover,
        .drop_host = sqlite_drop_host,
        .undrop_host = sqlite_undrop_host,
        .hosts = sqlite_hosts,
        .counts = sqlite_counts,
        .clear = sqlite_clear,
        .run_begin = sqlite_run_begin,
        .run_open = sqlite_run_open,
        .run_last = sqlite_run_last,
        .run_add = sqlite_run_add,
        .run_finish = sqlite_run_finish,
        .lease_get = sqlite_lease_get,
        .lease_set = sqlite_lease_set,
        .recover_host = sqlite_recover_host,
        .join_begin = sqlite_join_begin,
};
