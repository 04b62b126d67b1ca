/*
 * The "visits" area on SQLite (src/store/visits.c checks the arguments and
 * calls these): every URL heed has requested, with the
 * validators, digest and revisit state the next request needs;
 * see include/heed/store_visits.h.
 *
 * Workload: one row per known URL, up to millions across 100,000 sites;
 * the crawl reads one site's rows at seed time and rewrites a row per
 * answer, `heed queue` pages through one site (or all) by due date.
 * The table is keyed by URL WITHOUT ROWID, so every index below carries
 * the URL after its own columns: (site, due_at) is also (site, due_at,
 * url), the order of a site's list, and
 * (due_at) is (due_at, url), the order of the list of every site, and
 * (site, kind, run_id, last_outcome) finds a site's sources and counts its
 * last run without reading the table. Rows
 * are small (no body, no record), so random inserts by URL cost little,
 * unlike the pages table (docs/storage.md).
 *
 * Dates heed does not know are SQL NULL, except due_at: a row without a
 * due date was never visited and is due at once, so it is kept as the
 * smallest integer (HEED_REVISIT_NO_DATE itself), which sorts first and
 * stays inside the index range `due_at <= now` instead of needing an
 * "OR due_at IS NULL" that no index answers.
 */
#include <string.h>

#include "heed/store_visits.h"
#include "store/sqlite-rows-int.h"

#define VISIT_COLUMNS                                                      \
	"url, site, found_on, kind, status, etag, last_modified, digest, " \
	"fresh_until, interval_s, checked_at, changed_at, due_at, "        \
	"last_outcome, run_id, visits, changes"

static const char *const visits_migrations[] = {
        "CREATE TABLE visits ("
        "  url TEXT PRIMARY KEY,"
        "  site TEXT NOT NULL,"
        "  found_on TEXT,"
        "  kind INTEGER NOT NULL,"
        "  status INTEGER NOT NULL,"
        "  etag TEXT,"
        "  last_modified TEXT,"
        "  digest TEXT,"
        "  fresh_until INTEGER,"
        "  interval_s INTEGER NOT NULL,"
        "  checked_at INTEGER,"
        "  changed_at INTEGER,"
        "  due_at INTEGER NOT NULL,"
        "  last_outcome INTEGER NOT NULL,"
        "  run_id INTEGER NOT NULL,"
        "  visits INTEGER NOT NULL,"
        "  changes INTEGER NOT NULL) WITHOUT ROWID;"
        "CREATE INDEX visits_due ON visits(site, due_at);"
        "CREATE INDEX visits_next ON visits(due_at);"
        "CREATE INDEX visits_kind ON visits(site, kind, run_id, last_outcome);"
        /* A store made before this area: its pages are the URLs heed
         * knows, each due one day after its last check (the initial
         * interval of heed/revisit.h). Their bodies' digests were never
         * kept, so the first refetch of each counts as changed unless a
         * validator answers 304. pages.host is the site without its
         * scheme (the crawl's host key), the scheme is the URL's. */
        "INSERT INTO visits(" VISIT_COLUMNS ") "
        "SELECT url, substr(url, 1, instr(url, '://') + 2) || host, NULL,"
        "  0, status, etag, last_modified, NULL, NULL, 86400, checked_at,"
        "  fetched_at, checked_at + 86400, 0, 0, 1, 1 FROM pages;",
};

const struct heed_store_area heed__store_visits_area = {
        "visits",
        visits_migrations,
        (int)HEED_ARRAY_SIZE(visits_migrations),
};

static heed_status sqlite_put(heed_store *store, const struct heed_visit *v)
{
	sqlite3_stmt *st;
	heed_status rc;

	/* REPLACE is safe here: no trigger and no other table refers to a
	 * visit row. */
	st = heed__sqlite_prepare(
	        store, "INSERT OR REPLACE INTO visits(" VISIT_COLUMNS
	               ") VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, "
	               "?11, ?12, ?13, ?14, ?15, ?16, ?17);");
	if (!st)
		return HEED_ESTORE;
	sqlite3_bind_text(st, 1, v->url, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, v->site, -1, SQLITE_STATIC);
	heed__sqlite_bind_text(st, 3, v->found_on);
	sqlite3_bind_int(st, 4, (int)v->kind);
	sqlite3_bind_int(st, 5, v->status);
	heed__sqlite_bind_text(st, 6, v->etag);
	heed__sqlite_bind_text(st, 7, v->last_modified);
	heed__sqlite_bind_text(st, 8, v->digest);
	heed__sqlite_bind_date(st, 9, v->fresh_until);
	sqlite3_bind_int64(st, 10, v->sched.interval_s);
	heed__sqlite_bind_date(st, 11, v->sched.checked_at);
	heed__sqlite_bind_date(st, 12, v->sched.changed_at);
	sqlite3_bind_int64(st, 13, v->sched.due_at);
	sqlite3_bind_int(st, 14, (int)v->last_outcome);
	sqlite3_bind_int64(st, 15, v->run_id);
	sqlite3_bind_int64(st, 16, v->visits);
	sqlite3_bind_int64(st, 17, v->changes);
	rc = heed__sqlite_step_done(store, st);
	heed__sqlite_release(store, st);
	return rc;
}

/* The row's columns (VISIT_COLUMNS order) into *v, pointing into st: they
 * live until its next step. */
static void read_visit(sqlite3_stmt *st, struct heed_visit *v)
{
	v->url = (char *)heed__sqlite_text(st, 0);
	v->site = (char *)heed__sqlite_text(st, 1);
	v->found_on = (char *)heed__sqlite_text(st, 2);
	v->kind = (heed_frontier_kind)sqlite3_column_int(st, 3);
	v->status = sqlite3_column_int(st, 4);
	v->etag = (char *)heed__sqlite_text(st, 5);
	v->last_modified = (char *)heed__sqlite_text(st, 6);
	v->digest = (char *)heed__sqlite_text(st, 7);
	v->fresh_until = heed__sqlite_int(st, 8, HEED_REVISIT_NO_DATE);
	v->sched.interval_s = sqlite3_column_int64(st, 9);
	v->sched.checked_at = heed__sqlite_int(st, 10, HEED_REVISIT_NO_DATE);
	v->sched.changed_at = heed__sqlite_int(st, 11, HEED_REVISIT_NO_DATE);
	v->sched.due_at = sqlite3_column_int64(st, 12);
	v->last_outcome = (heed_revisit_outcome)sqlite3_column_int(st, 13);
	v->run_id = sqlite3_column_int64(st, 14);
	v->visits = sqlite3_column_int64(st, 15);
	v->changes = sqlite3_column_int64(st, 16);
}

static heed_status sqlite_get(heed_store *store, const char *url,
                              heed_store_visit_fn *fn, void *ud)
{
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store, "SELECT " VISIT_COLUMNS " FROM visits WHERE url = ?1;");
	heed_status rc;
	int step;

	if (!st)
		return HEED_ESTORE;
	sqlite3_bind_text(st, 1, url, -1, SQLITE_STATIC);
	step = sqlite3_step(st);
	if (step == SQLITE_ROW) {
		struct heed_visit v;
		read_visit(st, &v);
		fn(ud, &v);
		rc = HEED_OK;
	} else if (step == SQLITE_DONE) {
		rc = HEED_ENOTFOUND;
	} else {
		rc = heed__store_fail(store, NULL, "reading a visit");
	}
	heed__sqlite_release(store, st);
	return rc;
}

struct visit_call {
	heed_store_visit_fn *fn;
	void *ud;
};

static int call_visit(sqlite3_stmt *st, void *ctx)
{
	struct visit_call *c = ctx;
	struct heed_visit v;

	read_visit(st, &v);
	return c->fn(c->ud, &v);
}

/* SQLite's "no limit" for a LIMIT parameter, from the API's 0. */
static int64_t sql_limit(int64_t max)
{
	return max > 0 ? max : -1;
}

static heed_status sqlite_of_site(heed_store *store, const char *site,
                                  unsigned kinds, heed_store_visit_fn *fn,
                                  void *ud)
{
	struct visit_call c = {fn, ud};
	/* kind IN (...) rather than the mask test, so visits_kind finds a
	 * site's few sitemaps and feeds among its pages without reading
	 * them; -1 stands for a kind the mask leaves out. */
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store,
	        "SELECT " VISIT_COLUMNS " FROM visits "
	        "WHERE site = ?1 AND kind IN (?2, ?3, ?4) ORDER BY url;");

	if (!st)
		return HEED_ESTORE;
	sqlite3_bind_text(st, 1, site, -1, SQLITE_STATIC);
	for (int k = HEED_FRONTIER_PAGE; k <= HEED_FRONTIER_FEED; k++)
		sqlite3_bind_int(st, 2 + k,
		                 (kinds & HEED_VISIT_KIND_BIT(k)) ? k : -1);
	return heed__sqlite_each_row(store, st, call_visit, &c);
}

/*
 * heed_store_visits_list's four statements (one site or all, from the
 * start or after a cursor), each one index range in (due_at, url) order:
 * a single statement with "?1 IS NULL OR" would scan the whole table. The
 * row value comparison continues exactly after the cursor, ties on due_at
 * broken by URL, so pages neither repeat nor skip a row.
 */
#define LIST_SELECT "SELECT " VISIT_COLUMNS " FROM visits "
#define LIST_AFTER  "(due_at, url) > (?2, ?3) "
#define LIST_ORDER  "ORDER BY due_at, url LIMIT ?4;"

static heed_status sqlite_list(heed_store *store, const char *site,
                               int64_t after_due, const char *after_url,
                               int64_t max, heed_store_visit_fn *fn, void *ud)
{
	static const char *const sql[2][2] = {
	        {LIST_SELECT LIST_ORDER,
	         LIST_SELECT "WHERE " LIST_AFTER LIST_ORDER},
	        {LIST_SELECT "WHERE site = ?1 " LIST_ORDER,
	         LIST_SELECT "WHERE site = ?1 AND " LIST_AFTER LIST_ORDER},
	};
	struct visit_call c = {fn, ud};
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store, sql[site != NULL][after_url != NULL]);

	if (!st)
		return HEED_ESTORE;
	if (site)
		sqlite3_bind_text(st, 1, site, -1, SQLITE_STATIC);
	if (after_url) {
		sqlite3_bind_int64(st, 2, after_due);
		sqlite3_bind_text(st, 3, after_url, -1, SQLITE_STATIC);
	}
	sqlite3_bind_int64(st, 4, sql_limit(max));
	return heed__sqlite_each_row(store, st, call_visit, &c);
}

/*
 * The summary ("due within 24 hours": due_at in (now, now + 86400]): the due
 * figures come from visits_due, the last run's counts from visits_run (the run
 * is the site's highest run id: ids grow with every crawl). Each site's rows
 * are read once by the outer GROUP BY; the inner one reads only the index.
 */
#define SUMMARY_SQL(where)                                          \
	"SELECT v.site, count(*), sum(v.due_at <= ?2), "            \
	"sum(v.due_at > ?2 AND v.due_at <= ?2 + 86400), "           \
	"min(CASE WHEN v.due_at > ?2 THEN v.due_at END), "          \
	"max(v.checked_at), r.run, sum(v.run_id = r.run), "         \
	"sum(v.run_id = r.run AND v.last_outcome = ?3), "           \
	"sum(v.run_id = r.run AND v.last_outcome IN (?4, ?5)) "     \
	"FROM visits v JOIN (SELECT site, max(run_id) AS run FROM " \
	"visits " where " GROUP BY site) r ON r.site = v.site "     \
	"GROUP BY v.site ORDER BY v.site;"

struct summary_call {
	heed_store_visit_summary_fn *fn;
	void *ud;
};

static int call_summary(sqlite3_stmt *st, void *ctx)
{
	struct summary_call *c = ctx;
	struct heed_visit_summary s = {
	        .site = heed__sqlite_text(st, 0),
	        .known = sqlite3_column_int64(st, 1),
	        .due_now = sqlite3_column_int64(st, 2),
	        .due_day = sqlite3_column_int64(st, 3),
	        .next_due = heed__sqlite_int(st, 4, HEED_REVISIT_NO_DATE),
	        .last_checked = heed__sqlite_int(st, 5, HEED_REVISIT_NO_DATE),
	        .last_run_id = sqlite3_column_int64(st, 6),
	        .last_visited = sqlite3_column_int64(st, 7),
	        .last_unchanged = sqlite3_column_int64(st, 8),
	        .last_changed = sqlite3_column_int64(st, 9),
	};

	return c->fn(c->ud, &s);
}

static heed_status sqlite_summary(heed_store *store, const char *site,
                                  int64_t now, heed_store_visit_summary_fn *fn,
                                  void *ud)
{
	struct summary_call c = {fn, ud};
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store, site ? SUMMARY_SQL("WHERE site = ?1") : SUMMARY_SQL(""));

	if (!st)
		return HEED_ESTORE;
	if (site)
		sqlite3_bind_text(st, 1, site, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, now);
	sqlite3_bind_int(st, 3, HEED_REVISIT_UNCHANGED);
	sqlite3_bind_int(st, 4, HEED_REVISIT_NEW);
	sqlite3_bind_int(st, 5, HEED_REVISIT_CHANGED);
	return heed__sqlite_each_row(store, st, call_summary, &c);
}

const struct heed__visits_ops heed__sqlite_visits_ops = {
        .put = sqlite_put,
        .get = sqlite_get,
        .of_site = sqlite_of_site,
        .list = sqlite_list,
        .summary = sqlite_summary,
};
