/*
 * The "arrangements" area of the store on SQLite (heed/store_arrangements.h;
 * src/store/arrangements.c checks the arguments and calls these): one row
 * per host. Patterns are kept one per line and windows as their
 * canonical text, so the table reads without heed.
 */
#include <string.h>

#include "heed/store_arrangements.h"
#include "store/sqlite-int.h"

static const char *const arrangements_migrations[] = {
        "CREATE TABLE arrangements ("
        "  host TEXT PRIMARY KEY,"
        "  delay_ms INTEGER NOT NULL DEFAULT 0,"
        "  max_pages INTEGER NOT NULL DEFAULT 0,"
        "  mode TEXT NOT NULL DEFAULT 'full',"
        "  include TEXT,"
        "  exclude TEXT,"
        "  windows TEXT,"
        "  endpoint TEXT,"
        "  note TEXT,"
        "  updated INTEGER NOT NULL DEFAULT 0);",
        /* 2: what the endpoint is (an oEmbed endpoint). */
        "ALTER TABLE arrangements ADD COLUMN endpoint_kind TEXT NOT NULL "
        "DEFAULT 'source';",
};

const struct heed_store_area heed__store_arrangements_area = {
        "arrangements",
        arrangements_migrations,
        (int)HEED_ARRAY_SIZE(arrangements_migrations),
};

#define ARR_COLUMNS                                                    \
	"host, delay_ms, max_pages, mode, include, exclude, windows, " \
	"endpoint, note, updated, endpoint_kind"

static char *text_dup(heed_store *store, sqlite3_stmt *st, int col, bool *oom)
{
	const unsigned char *p = sqlite3_column_text(st, col);
	char *copy;

	if (!p)
		return NULL;
	copy = heed__strndup(store->alloc, (const char *)p,
	                     strlen((const char *)p));
	if (!copy)
		*oom = true;
	return copy;
}

static heed_status read_row(heed_store *store, sqlite3_stmt *st,
                            struct heed_arrangement *out)
{
	bool oom = false;

	out->host = text_dup(store, st, 0, &oom);
	out->delay_ms = sqlite3_column_int64(st, 1);
	out->max_pages = sqlite3_column_int64(st, 2);
	out->include = text_dup(store, st, 4, &oom);
	out->exclude = text_dup(store, st, 5, &oom);
	out->windows = text_dup(store, st, 6, &oom);
	out->endpoint = text_dup(store, st, 7, &oom);
	out->note = text_dup(store, st, 8, &oom);
	out->updated_s = sqlite3_column_int64(st, 9);
	heed__arrangement_settle(out, (const char *)sqlite3_column_text(st, 3),
	                         (const char *)sqlite3_column_text(st, 10));
	return oom ? HEED_ENOMEM : HEED_OK;
}

static heed_status sqlite_get(heed_store *store, const char *host,
                              struct heed_arrangement *out)
{
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store,
	        "SELECT " ARR_COLUMNS " FROM arrangements WHERE host = ?1;");
	heed_status rc;
	int step;

	if (!st)
		return HEED_ESTORE;
	sqlite3_bind_text(st, 1, host, -1, SQLITE_STATIC);
	step = sqlite3_step(st);
	if (step == SQLITE_ROW)
		rc = read_row(store, st, out);
	else if (step == SQLITE_DONE)
		rc = HEED_ENOTFOUND;
	else
		rc = heed__store_fail(store, NULL, "reading an arrangement");
	heed__sqlite_release(store, st);
	return rc;
}

static void bind_text(sqlite3_stmt *st, int col, const char *p)
{
	if (p && *p)
		sqlite3_bind_text(st, col, p, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, col);
}

static heed_status sqlite_put(heed_store *store,
                              const struct heed_arrangement *in)
{
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store,
	        "INSERT OR REPLACE INTO arrangements (" ARR_COLUMNS
	        ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11);");
	heed_status rc;

	if (!st)
		return HEED_ESTORE;
	sqlite3_bind_text(st, 1, in->host, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, in->delay_ms);
	sqlite3_bind_int64(st, 3, in->max_pages);
	sqlite3_bind_text(st, 4, heed_arrangement_mode_name(in->mode), -1,
	                  SQLITE_STATIC);
	bind_text(st, 5, in->include);
	bind_text(st, 6, in->exclude);
	bind_text(st, 7, in->windows);
	bind_text(st, 8, in->endpoint);
	bind_text(st, 9, in->note);
	sqlite3_bind_int64(st, 10, in->updated_s);
	sqlite3_bind_text(
	        st, 11, heed_arrangement_endpoint_kind_name(in->endpoint_kind),
	        -1, SQLITE_STATIC);
	rc = heed__sqlite_step_done(store, st);
	heed__sqlite_release(store, st);
	return rc;
}

static heed_status sqlite_delete(heed_store *store, const char *host,
                                 bool *found)
{
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store, "DELETE FROM arrangements WHERE host = ?1;");
	heed_status rc;

	if (!st)
		return HEED_ESTORE;
	sqlite3_bind_text(st, 1, host, -1, SQLITE_STATIC);
	rc = heed__sqlite_step_done(store, st);
	if (rc == HEED_OK && found)
		*found = sqlite3_changes(heed__sqlite_db(store)) > 0;
	heed__sqlite_release(store, st);
	return rc;
}

static heed_status sqlite_each(heed_store *store, heed_store_arrangement_fn *fn,
                               void *ud, size_t *count)
{
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store,
	        "SELECT " ARR_COLUMNS " FROM arrangements ORDER BY host;");
	struct heed_arrangement row;
	heed_status rc = HEED_OK;
	size_t n = 0;
	int step;

	if (!st)
		return HEED_ESTORE;
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		memset(&row, 0, sizeof(row));
		rc = read_row(store, st, &row);
		if (rc == HEED_OK) {
			fn(ud, &row);
			n++;
		}
		heed_store_arrangement_clear(store, &row);
		if (rc != HEED_OK)
			break;
	}
	if (rc == HEED_OK && step != SQLITE_DONE)
		rc = heed__store_fail(store, NULL, "listing arrangements");
	heed__sqlite_release(store, st);
	if (count)
		*count = n;
	return rc;
}

const struct heed__arrangements_ops heed__sqlite_arrangements_ops = {
        .get = sqlite_get,
        .put = sqlite_put,
        .del = sqlite_delete,
        .each = sqlite_each,
};
