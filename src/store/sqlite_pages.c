/*
 * The "pages" area on SQLite (src/store/pages.c checks the arguments and
 * calls these): one metadata record per fetched page ("storing one
 * metadata record per page"), see include/heed/store_pages.h.
 *
 * Invariants: one row per requested URL (the primary key), so a crawl that
 * is killed and resumed cannot store a page twice; a 304 touches only the
 * check date, never the record. The whole extraction record is JSON text;
 * the columns beside it exist for filtering and are indexed by host and
 * fetch date, the two filters of `heed export`.
 */
#include <string.h>

#include "store/sqlite-rows-int.h"

#define PAGE_COLUMNS                                                    \
	"url, final_url, host, status, fetched_at, checked_at, title, " \
	"views, published, modified, etag, last_modified, "             \
	"source_lastmod, permissions, mode, record"

/* The columns after the key, the same in every version of the table. */
#define PAGES_DATA_COLUMNS                                               \
	"  final_url TEXT,  host TEXT NOT NULL,  status INTEGER NOT "    \
	"NULL,  fetched_at INTEGER NOT NULL,  checked_at INTEGER NOT "   \
	"NULL,  title TEXT,  views INTEGER,  published TEXT,  modified " \
	"TEXT,  etag TEXT,  last_modified TEXT,  source_lastmod "        \
	"INTEGER,  permissions TEXT,  mode TEXT,  record TEXT"

static const char *const pages_migrations[] = {
        "CREATE TABLE pages ("
        "  url TEXT PRIMARY KEY," PAGES_DATA_COLUMNS ") WITHOUT ROWID;"
        "CREATE INDEX pages_host ON pages(host, status);"
        "CREATE INDEX pages_fetched ON pages(fetched_at);",
        /* 2: rows in fetch order. Keyed by URL (WITHOUT ROWID), every
         * record of a few kilobytes went to a random place in the table,
         * reading and splitting its pages; now records are appended and
         * only the small URL index takes random inserts. */
        "CREATE TABLE pages_v2 ("
        "  id INTEGER PRIMARY KEY,"
        "  url TEXT NOT NULL UNIQUE," PAGES_DATA_COLUMNS ");"
        "INSERT INTO pages_v2(" PAGE_COLUMNS ") "
        "SELECT " PAGE_COLUMNS " FROM pages ORDER BY fetched_at;"
        "DROP TABLE pages;"
        "ALTER TABLE pages_v2 RENAME TO pages;"
        "CREATE INDEX pages_host ON pages(host, status);"
        "CREATE INDEX pages_fetched ON pages(fetched_at);",
};

const struct heed_store_area heed__store_pages_area = {
        "pages",
        pages_migrations,
        (int)HEED_ARRAY_SIZE(pages_migrations),
};

static heed_status sqlite_put(heed_store *store,
                              const struct heed_stored_page *p)
{
	sqlite3_stmt *st;
	heed_status rc;

	/* An upsert, not INSERT OR REPLACE: REPLACE deletes the old row
	 * without firing the delete triggers of the search area and gives
	 * the page a new id, while the id is the key of its public record
	 * page (/records/ID). */
	st = heed__sqlite_prepare(
	        store, "INSERT INTO pages(" PAGE_COLUMNS
	               ") VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, "
	               "?11, ?12, ?13, ?14, ?15, ?16) ON CONFLICT(url) DO "
	               "UPDATE SET final_url = excluded.final_url, host = "
	               "excluded.host, status = excluded.status, fetched_at = "
	               "excluded.fetched_at, checked_at = excluded.checked_at, "
	               "title = excluded.title, views = excluded.views, "
	               "published = excluded.published, modified = "
	               "excluded.modified, etag = excluded.etag, "
	               "last_modified = excluded.last_modified, "
	               "source_lastmod = excluded.source_lastmod, "
	               "permissions = excluded.permissions, mode = "
	               "excluded.mode, record = excluded.record;");
	if (!st)
		return HEED_ESTORE;
	sqlite3_bind_text(st, 1, p->url, -1, SQLITE_STATIC);
	heed__sqlite_bind_text(st, 2, p->final_url);
	sqlite3_bind_text(st, 3, p->host, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 4, p->status);
	sqlite3_bind_int64(st, 5, p->fetched_at);
	sqlite3_bind_int64(st, 6, p->checked_at);
	heed__sqlite_bind_text(st, 7, p->title);
	if (p->views >= 0)
		sqlite3_bind_int64(st, 8, p->views);
	heed__sqlite_bind_text(st, 9, p->published);
	heed__sqlite_bind_text(st, 10, p->modified);
	heed__sqlite_bind_text(st, 11, p->etag);
	heed__sqlite_bind_text(st, 12, p->last_modified);
	heed__sqlite_bind_date(st, 13, p->source_lastmod);
	heed__sqlite_bind_text(st, 14, p->permissions);
	heed__sqlite_bind_text(st, 15, p->mode);
	heed__sqlite_bind_text(st, 16, p->record);
	rc = heed__sqlite_step_done(store, st);
	heed__sqlite_release(store, st);
	return rc;
}

static heed_status sqlite_unchanged(heed_store *store, const char *url,
                                    int64_t checked_at, int64_t source_lastmod)
{
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store, "UPDATE pages SET checked_at = ?2, "
	               "source_lastmod = coalesce(?3, source_lastmod) "
	               "WHERE url = ?1;");
	heed_status rc;

	if (!st)
		return HEED_ESTORE;
	sqlite3_bind_text(st, 1, url, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, checked_at);
	heed__sqlite_bind_date(st, 3, source_lastmod);
	rc = heed__sqlite_step_done(store, st);
	heed__sqlite_release(store, st);
	if (rc == HEED_OK && sqlite3_changes(store->db) == 0)
		return HEED_ENOTFOUND;
	return rc;
}

static void copy_column(char *dst, size_t size, sqlite3_stmt *st, int col)
{
	const char *s = heed__sqlite_text(st, col);

	dst[0] = '\0';
	if (!s)
		return;
	strncat(dst, s, size - 1);
}

static heed_status sqlite_validators(heed_store *store, const char *url,
                                     struct heed_page_validators *v)
{
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store, "SELECT etag, last_modified, fetched_at, "
	               "source_lastmod, status FROM pages WHERE url = ?1;");
	int rc;

	if (!st)
		return HEED_ESTORE;
	sqlite3_bind_text(st, 1, url, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		copy_column(v->etag, sizeof(v->etag), st, 0);
		copy_column(v->last_modified, sizeof(v->last_modified), st, 1);
		v->fetched_at = sqlite3_column_int64(st, 2);
		v->source_lastmod = heed__sqlite_int(st, 3, HEED_STORE_NO_DATE);
		v->status = sqlite3_column_int(st, 4);
	}
	heed__sqlite_release(store, st);
	if (rc == SQLITE_ROW)
		return HEED_OK;
	return rc == SQLITE_DONE ? HEED_ENOTFOUND : HEED_ESTORE;
}

static heed_status sqlite_delete(heed_store *store, const char *url,
                                 bool prefix, int64_t *deleted)
{
	/* substr() instead of LIKE: URLs contain '%' and '_'. */
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store, prefix ? "DELETE FROM pages WHERE "
	                        "substr(url, 1, length(?1)) = ?1;"
	                      : "DELETE FROM pages WHERE url = ?1;");
	heed_status rc;

	if (!st)
		return HEED_ESTORE;
	sqlite3_bind_text(st, 1, url, -1, SQLITE_STATIC);
	rc = heed__sqlite_step_done(store, st);
	heed__sqlite_release(store, st);
	if (rc == HEED_OK && deleted)
		*deleted = sqlite3_changes(store->db);
	return rc;
}

struct page_visit {
	heed_store_page_fn *fn;
	void *ud;
};

static int visit_page(sqlite3_stmt *st, void *ctx)
{
	struct page_visit *v = ctx;
	struct heed_stored_page p;

	heed__sqlite_read_page(st, 0, &p);
	return v->fn(v->ud, &p);
}

static heed_status sqlite_each(heed_store *store, const char *host,
                               int64_t since, heed_store_page_fn *fn, void *ud)
{
	struct page_visit v = {fn, ud};
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store, "SELECT " PAGE_COLUMNS " FROM pages "
	               "WHERE (?1 IS NULL OR host = ?1) "
	               "AND (?2 IS NULL OR fetched_at >= ?2) "
	               "ORDER BY host, url;");

	if (!st)
		return HEED_ESTORE;
	heed__sqlite_bind_text(st, 1, host);
	heed__sqlite_bind_date(st, 2, since);
	return heed__sqlite_each_row(store, st, visit_page, &v);
}

struct page_one {
	heed_store_page_fn *fn;
	void *ud;
	bool found;
};

static int one_page(sqlite3_stmt *st, void *ctx)
{
	struct page_one *o = ctx;
	struct heed_stored_page p;

	heed__sqlite_read_page(st, 0, &p);
	o->found = true;
	o->fn(o->ud, &p);
	return 1;
}

static heed_status sqlite_get(heed_store *store, const char *url,
                              heed_store_page_fn *fn, void *ud)
{
	struct page_one o = {fn, ud, false};
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store, "SELECT " PAGE_COLUMNS " FROM pages WHERE url = ?1;");
	heed_status rc;

	if (!st)
		return HEED_ESTORE;
	heed__sqlite_bind_text(st, 1, url);
	rc = heed__sqlite_each_row(store, st, one_page, &o);
	if (rc == HEED_OK && !o.found)
		rc = HEED_ENOTFOUND;
	return rc;
}

struct count_visit {
	heed_store_count_fn *fn;
	void *ud;
};

static int visit_count(sqlite3_stmt *st, void *ctx)
{
	struct count_visit *v = ctx;
	struct heed_store_page_count c = {
	        heed__sqlite_text(st, 0),    sqlite3_column_int(st, 1),
	        sqlite3_column_int64(st, 2), sqlite3_column_int64(st, 3),
	        sqlite3_column_int64(st, 4),
	};

	return v->fn(v->ud, &c);
}

static heed_status sqlite_stats(heed_store *store, heed_store_count_fn *fn,
                                void *ud)
{
	struct count_visit v = {fn, ud};
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store, "SELECT host, status, count(*), count(views), "
	               "max(fetched_at) FROM pages GROUP BY host, status "
	               "ORDER BY host, status;");

	if (!st)
		return HEED_ESTORE;
	return heed__sqlite_each_row(store, st, visit_count, &v);
}

static heed_status sqlite_count(heed_store *store, const char *host,
                                int64_t *count)
{
	sqlite3_stmt *st =
	        heed__sqlite_prepare(store, "SELECT count(*) FROM pages "
	                                    "WHERE ?1 IS NULL OR host = ?1;");
	int rc;

	if (!st)
		return HEED_ESTORE;
	heed__sqlite_bind_text(st, 1, host);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*count = sqlite3_column_int64(st, 0);
	heed__sqlite_release(store, st);
	return rc == SQLITE_ROW ? HEED_OK : HEED_ESTORE;
}

const struct heed__pages_ops heed__sqlite_pages_ops = {
        .put = sqlite_put,
        .unchanged = sqlite_unchanged,
        .validators = sqlite_validators,
        .get = sqlite_get,
        .delete_ = sqlite_delete,
        .each = sqlite_each,
        .stats = sqlite_stats,
        .count = sqlite_count,
};
