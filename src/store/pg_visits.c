/*
 * The "visits" area on PostgreSQL: the same table, indexes and answers as
 * src/store/sqlite_visits.c (include/heed/store_visits.h).
 *
 * SQLite's table is WITHOUT ROWID, so each of its indexes ends with the
 * URL; here the URL is written into the indexes, so `heed queue`'s pages in
 * (due_at, url) order and a site's rows in URL order are index ranges on
 * both backends. url and site are COLLATE "C": rows come in SQLite's byte
 * order whatever the database's locale, and the cursor (due_at, url)
 * continues exactly where the previous page ended. INSERT OR REPLACE is an
 * upsert on the URL. An unknown due date is the smallest BIGINT, as on
 * SQLite (it sorts first and stays inside `due_at <= now`).
 */
#include <string.h>

#include "store/pg-int.h"

#define VISIT_COLUMNS                                                      \
	"url, site, found_on, kind, status, etag, last_modified, digest, " \
	"fresh_until, interval_s, checked_at, changed_at, due_at, "        \
	"last_outcome, run_id, visits, changes"

/* One migration, version 1 on both backends; a later one must be added to
 * both under the same number. */
static const char *const pg_visits_migrations[] = {
        "CREATE TABLE visits ("
        "  url TEXT COLLATE \"C\" PRIMARY KEY,"
        "  site TEXT COLLATE \"C\" NOT NULL,"
        "  found_on TEXT,"
        "  kind INTEGER NOT NULL,"
        "  status INTEGER NOT NULL,"
        "  etag TEXT,"
        "  last_modified TEXT,"
        "  digest TEXT,"
        "  fresh_until BIGINT,"
        "  interval_s BIGINT NOT NULL,"
        "  checked_at BIGINT,"
        "  changed_at BIGINT,"
        "  due_at BIGINT NOT NULL,"
        "  last_outcome INTEGER NOT NULL,"
        "  run_id BIGINT NOT NULL,"
        "  visits BIGINT NOT NULL,"
        "  changes BIGINT NOT NULL);"
        "CREATE INDEX visits_due ON visits(site, due_at, url);"
        "CREATE INDEX visits_next ON visits(due_at, url);"
        "CREATE INDEX visits_kind ON visits(site, kind, run_id, "
        "last_outcome, url);"
        /* A store whose pages area came first: its pages are the URLs
         * heed knows, as on SQLite (src/store/sqlite_visits.c). */
        "INSERT INTO visits(" VISIT_COLUMNS ") "
        "SELECT url, substr(url, 1, strpos(url, '://') + 2) || host, NULL,"
        "  0, status, etag, last_modified, NULL, NULL, 86400, checked_at,"
        "  fetched_at, checked_at + 86400, 0, 0, 1, 1 FROM pages;",
};

const struct heed_store_area heed__pg_visits_area = {
        "visits",
        pg_visits_migrations,
        (int)HEED_ARRAY_SIZE(pg_visits_migrations),
};

/* v as a parameter, or NULL (SQL NULL) for HEED_REVISIT_NO_DATE. */
static const char *opt_date(char buf[HEED_PG_INT_SIZE], int64_t v)
{
	return v == HEED_REVISIT_NO_DATE ? NULL : heed__pg_i64(buf, v);
}

static heed_status pg_put(heed_store *store, const struct heed_visit *v)
{
	char n[9][HEED_PG_INT_SIZE], d[3][HEED_PG_INT_SIZE];
	const char *params[] = {
	        v->url,
	        v->site,
	        v->found_on,
	        heed__pg_i64(n[0], (int64_t)v->kind),
	        heed__pg_i64(n[1], v->status),
	        v->etag,
	        v->last_modified,
	        v->digest,
	        opt_date(d[0], v->fresh_until),
	        heed__pg_i64(n[2], v->sched.interval_s),
	        opt_date(d[1], v->sched.checked_at),
	        opt_date(d[2], v->sched.changed_at),
	        heed__pg_i64(n[3], v->sched.due_at),
	        heed__pg_i64(n[4], (int64_t)v->last_outcome),
	        heed__pg_i64(n[5], v->run_id),
	        heed__pg_i64(n[6], v->visits),
	        heed__pg_i64(n[7], v->changes),
	};

	return heed__pg_run(
	        store,
	        "INSERT INTO visits(" VISIT_COLUMNS
	        ") VALUES($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, "
	        "$13, $14, $15, $16, $17) ON CONFLICT (url) DO UPDATE SET "
	        "site = excluded.site, found_on = excluded.found_on, "
	        "kind = excluded.kind, status = excluded.status, "
	        "etag = excluded.etag, last_modified = excluded.last_modified, "
	        "digest = excluded.digest, fresh_until = excluded.fresh_until, "
	        "interval_s = excluded.interval_s, "
	        "checked_at = excluded.checked_at, "
	        "changed_at = excluded.changed_at, due_at = excluded.due_at, "
	        "last_outcome = excluded.last_outcome, "
	        "run_id = excluded.run_id, visits = excluded.visits, "
	        "changes = excluded.changes;",
	        17, params, NULL);
}

/* Row i of a SELECT VISIT_COLUMNS result; the strings live as long as r. */
static void read_visit(const PGresult *r, int i, struct heed_visit *v)
{
	v->url = (char *)heed__pg_text(r, i, 0);
	v->site = (char *)heed__pg_text(r, i, 1);
	v->found_on = (char *)heed__pg_text(r, i, 2);
	v->kind = (heed_frontier_kind)heed__pg_int(r, i, 3, 0);
	v->status = (int)heed__pg_int(r, i, 4, 0);
	v->etag = (char *)heed__pg_text(r, i, 5);
	v->last_modified = (char *)heed__pg_text(r, i, 6);
	v->digest = (char *)heed__pg_text(r, i, 7);
	v->fresh_until = heed__pg_int(r, i, 8, HEED_REVISIT_NO_DATE);
	v->sched.interval_s = heed__pg_int(r, i, 9, 0);
	v->sched.checked_at = heed__pg_int(r, i, 10, HEED_REVISIT_NO_DATE);
	v->sched.changed_at = heed__pg_int(r, i, 11, HEED_REVISIT_NO_DATE);
	v->sched.due_at = heed__pg_int(r, i, 12, HEED_REVISIT_NO_DATE);
	v->last_outcome = (heed_revisit_outcome)heed__pg_int(r, i, 13, 0);
	v->run_id = heed__pg_int(r, i, 14, 0);
	v->visits = heed__pg_int(r, i, 15, 0);
	v->changes = heed__pg_int(r, i, 16, 0);
}

/* Runs a SELECT VISIT_COLUMNS statement and calls fn per row (non-zero
 * stops). *rows (may be NULL) receives the number of rows. */
static heed_status each_visit(heed_store *store, const char *sql, int n,
                              const char *const *params,
                              heed_store_visit_fn *fn, void *ud, int *rows)
{
	PGresult *r = heed__pg_query(store, sql, n, params);

	if (!r)
		return heed__pg_failed(store);
	if (rows)
		*rows = PQntuples(r);
	for (int i = 0; i < PQntuples(r); i++) {
		struct heed_visit v;
		read_visit(r, i, &v);
		if (fn(ud, &v))
			break;
	}
	PQclear(r);
	return HEED_OK;
}

static heed_status pg_get(heed_store *store, const char *url,
                          heed_store_visit_fn *fn, void *ud)
{
	const char *params[] = {url};
	int rows = 0;
	heed_status rc = each_visit(
	        store, "SELECT " VISIT_COLUMNS " FROM visits WHERE url = $1;",
	        1, params, fn, ud, &rows);

	if (rc == HEED_OK && rows == 0)
		return HEED_ENOTFOUND;
	return rc;
}

static heed_status pg_of_site(heed_store *store, const char *site,
                              unsigned kinds, heed_store_visit_fn *fn, void *ud)
{
	char k[3][HEED_PG_INT_SIZE];
	const char *params[4] = {site};

	/* kind IN (...) as on SQLite; -1 stands for a kind the mask leaves
	 * out. */
	for (int i = HEED_FRONTIER_PAGE; i <= HEED_FRONTIER_FEED; i++)
		params[1 + i] = heed__pg_i64(
		        k[i], (kinds & HEED_VISIT_KIND_BIT(i)) ? i : -1);
	return each_visit(store,
	                  "SELECT " VISIT_COLUMNS " FROM visits "
	                  "WHERE site = $1 AND kind IN ($2, $3, $4) "
	                  "ORDER BY url;",
	                  4, params, fn, ud, NULL);
}

/*
 * heed_store_visits_list's four statements (one site or all, from the
 * start or after a cursor), each one index range in (due_at, url) order,
 * as on SQLite. A parameter a statement does not use cannot be sent (its
 * type would be unknown), so each has its own numbering; a NULL LIMIT is
 * no limit.
 */
#define LIST_SELECT "SELECT " VISIT_COLUMNS " FROM visits "
#define LIST_ORDER  "ORDER BY due_at, url LIMIT "

static heed_status pg_list(heed_store *store, const char *site,
                           int64_t after_due, const char *after_url,
                           int64_t max, heed_store_visit_fn *fn, void *ud)
{
	static const char *const sql[2][2] = {
	        {LIST_SELECT LIST_ORDER "$1::bigint;", LIST_SELECT
	         "WHERE (due_at, url) > ($2, $3) " LIST_ORDER "$1::bigint;"},
	        {LIST_SELECT "WHERE site = $2 " LIST_ORDER "$1::bigint;",
	         LIST_SELECT
	         "WHERE site = $2 AND (due_at, url) > ($3, $4) " LIST_ORDER
	         "$1::bigint;"},
	};
	char limit[HEED_PG_INT_SIZE], due[HEED_PG_INT_SIZE];
	const char *params[4] = {max > 0 ? heed__pg_i64(limit, max) : NULL};
	int n = 1;

	if (site)
		params[n++] = site;
	if (after_url) {
		params[n++] = heed__pg_i64(due, after_due);
		params[n++] = after_url;
	}
	return each_visit(store, sql[site != NULL][after_url != NULL], n,
	                  params, fn, ud, NULL);
}

/* The summary, as on SQLite: the due figures from visits_due, the last
 * run (the site's highest run id) counted from visits_kind. */
#define SUMMARY_SQL(where)                                                   \
	"SELECT v.site, count(*), count(*) FILTER (WHERE v.due_at <= $2), "  \
	"count(*) FILTER (WHERE v.due_at > $2 AND v.due_at <= $2 + 86400), " \
	"min(v.due_at) FILTER (WHERE v.due_at > $2), "                       \
	"max(v.checked_at), r.run, "                                         \
	"count(*) FILTER (WHERE v.run_id = r.run), "                         \
	"count(*) FILTER (WHERE v.run_id = r.run AND "                       \
	"v.last_outcome = $3), "                                             \
	"count(*) FILTER (WHERE v.run_id = r.run AND "                       \
	"v.last_outcome IN ($4, $5)) "                                       \
	"FROM visits v JOIN (SELECT site, max(run_id) AS run FROM "          \
	"visits " where " GROUP BY site) r ON r.site = v.site "              \
	"GROUP BY v.site, r.run ORDER BY v.site;"

static heed_status pg_summary(heed_store *store, const char *site, int64_t now,
                              heed_store_visit_summary_fn *fn, void *ud)
{
	char nn[HEED_PG_INT_SIZE], o[3][HEED_PG_INT_SIZE];
	const char *params[] = {
	        site ? site : "",
	        heed__pg_i64(nn, now),
	        heed__pg_i64(o[0], HEED_REVISIT_UNCHANGED),
	        heed__pg_i64(o[1], HEED_REVISIT_NEW),
	        heed__pg_i64(o[2], HEED_REVISIT_CHANGED),
	};
	/* $1 is sent to both: the statement for every site tests it too. */
	PGresult *r = heed__pg_query(store,
	                             site ? SUMMARY_SQL("WHERE site = $1")
	                                  : SUMMARY_SQL("WHERE $1::text = ''"),
	                             5, params);

	if (!r)
		return heed__pg_failed(store);
	for (int i = 0; i < PQntuples(r); i++) {
		struct heed_visit_summary s = {
		        .site = heed__pg_text(r, i, 0),
		        .known = heed__pg_int(r, i, 1, 0),
		        .due_now = heed__pg_int(r, i, 2, 0),
		        .due_day = heed__pg_int(r, i, 3, 0),
		        .next_due = heed__pg_int(r, i, 4, HEED_REVISIT_NO_DATE),
		        .last_checked =
		                heed__pg_int(r, i, 5, HEED_REVISIT_NO_DATE),
		        .last_run_id = heed__pg_int(r, i, 6, 0),
		        .last_visited = heed__pg_int(r, i, 7, 0),
		        .last_unchanged = heed__pg_int(r, i, 8, 0),
		        .last_changed = heed__pg_int(r, i, 9, 0),
		};
		if (fn(ud, &s))
			break;
	}
	PQclear(r);
	return HEED_OK;
}

const struct heed__visits_ops heed__pg_visits_ops = {
        .put = pg_put,
        .get = pg_get,
        .of_site = pg_of_site,
        .list = pg_list,
        .summary = pg_summary,
};
