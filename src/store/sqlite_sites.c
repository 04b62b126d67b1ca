/*
 * The "sites" area of the store on SQLite: one row per site (origin) with
 * the robots.txt lifecycle's durable record (seed: robots date, failure
 * count; issue: last success, state, reason, next attempt, body and rules in
 * force) and one row per host with its politeness state (back-off, last
 * request). States and
 * reasons are stored by name so that the database reads without heed.
 * src/store/sites.c checks the arguments and calls these.
 */
#include <stdio.h>
#include <string.h>

#include "heed/store_sites.h"
#include "store/store-int.h"

static const char *const sites_migrations[] = {
        "CREATE TABLE sites ("
        "  site TEXT PRIMARY KEY,"
        "  host TEXT NOT NULL,"
        "  state TEXT NOT NULL DEFAULT 'unknown',"
        "  reason TEXT NOT NULL DEFAULT 'none',"
        "  detail TEXT NOT NULL DEFAULT '',"
        "  http_status INTEGER NOT NULL DEFAULT 0,"
        "  robots_date INTEGER NOT NULL DEFAULT 0,"
        "  last_success INTEGER NOT NULL DEFAULT 0,"
        "  next_attempt INTEGER NOT NULL DEFAULT 0,"
        "  failures INTEGER NOT NULL DEFAULT 0,"
        "  robots_url TEXT,"
        "  robots_body BLOB,"
        "  rules_body BLOB,"
        "  crawl_delay_ms INTEGER NOT NULL DEFAULT 0);"
        "CREATE INDEX sites_by_host ON sites(host);"
        "CREATE TABLE hosts ("
        "  host TEXT PRIMARY KEY,"
        "  backoff_level INTEGER NOT NULL DEFAULT 0,"
        "  backoff_until INTEGER NOT NULL DEFAULT 0,"
        "  last_request_ms INTEGER NOT NULL DEFAULT 0);",
        /* 2 (issue 19): the validators and media type of the stored
         * 2xx body, for a conditional re-check whose 304 confirms it. */
        "ALTER TABLE sites ADD COLUMN robots_etag TEXT;"
        "ALTER TABLE sites ADD COLUMN robots_last_modified TEXT;"
        "ALTER TABLE sites ADD COLUMN robots_type TEXT;",
};

const struct heed_store_area heed__store_sites_area = {
        "sites",
        sites_migrations,
        (int)HEED_ARRAY_SIZE(sites_migrations),
};

#define SITE_COLUMNS                                                      \
	"site, host, state, reason, detail, http_status, robots_date, "   \
	"last_success, next_attempt, failures, robots_url, robots_body, " \
	"rules_body, crawl_delay_ms, robots_etag, robots_last_modified, " \
	"robots_type"

static char *column_dup(heed_store *store, sqlite3_stmt *st, int col,
                        size_t *len, bool *oom)
{
	const void *p = sqlite3_column_blob(st, col);
	size_t n = (size_t)sqlite3_column_bytes(st, col);
	char *copy;

	if (len)
		*len = n;
	if (sqlite3_column_type(st, col) == SQLITE_NULL)
		return NULL;
	copy = heed__strndup(store->alloc, p ? p : "", n);
	if (!copy)
		*oom = true;
	return copy;
}

/* Fills *out from the current row; HEED_ENOMEM leaves *out clearable. */
static heed_status read_row(heed_store *store, sqlite3_stmt *st,
                            struct heed_store_site *out)
{
	struct heed_site_record *r = &out->record;
	bool oom = false;

	out->site = column_dup(store, st, 0, NULL, &oom);
	out->host = column_dup(store, st, 1, NULL, &oom);
	heed__site_settle(out, (const char *)sqlite3_column_text(st, 2),
	                  (const char *)sqlite3_column_text(st, 3),
	                  (const char *)sqlite3_column_text(st, 4));
	r->http_status = sqlite3_column_int(st, 5);
	r->robots_date_s = sqlite3_column_int64(st, 6);
	r->last_success_s = sqlite3_column_int64(st, 7);
	r->next_attempt_s = sqlite3_column_int64(st, 8);
	r->failures = (uint32_t)sqlite3_column_int64(st, 9);
	out->robots_url = column_dup(store, st, 10, NULL, &oom);
	out->robots_body =
	        column_dup(store, st, 11, &out->robots_body_len, &oom);
	out->rules_body = column_dup(store, st, 12, &out->rules_body_len, &oom);
	out->crawl_delay_ms = sqlite3_column_int64(st, 13);
	out->robots_etag = column_dup(store, st, 14, NULL, &oom);
	out->robots_last_modified = column_dup(store, st, 15, NULL, &oom);
	out->robots_type = column_dup(store, st, 16, NULL, &oom);
	return oom ? HEED_ENOMEM : HEED_OK;
}

static heed_status sqlite_get(heed_store *store, const char *site,
                              struct heed_store_site *out)
{
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store, "SELECT " SITE_COLUMNS " FROM sites WHERE site = ?1;");
	heed_status rc;
	int step;

	if (!st)
		return HEED_ESTORE;
	sqlite3_bind_text(st, 1, site, -1, SQLITE_STATIC);
	step = sqlite3_step(st);
	if (step == SQLITE_ROW)
		rc = read_row(store, st, out);
	else if (step == SQLITE_DONE)
		rc = HEED_ENOTFOUND;
	else
		rc = heed__store_fail(store, NULL, "reading a site");
	heed__sqlite_release(store, st);
	return rc;
}

static void bind_blob(sqlite3_stmt *st, int col, const char *p, size_t len)
{
	if (p)
		sqlite3_bind_blob64(st, col, p, len, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, col);
}

static void bind_text(sqlite3_stmt *st, int col, const char *p)
{
	if (p)
		sqlite3_bind_text(st, col, p, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, col);
}

static heed_status sqlite_put(heed_store *store,
                              const struct heed_store_site *in)
{
	const struct heed_site_record *r = &in->record;
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store, "INSERT OR REPLACE INTO sites (" SITE_COLUMNS
	               ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, "
	               "?11, ?12, ?13, ?14, ?15, ?16, ?17);");
	heed_status rc;

	if (!st)
		return HEED_ESTORE;
	sqlite3_bind_text(st, 1, in->site, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, in->host, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, heed_site_state_name(r->state), -1,
	                  SQLITE_STATIC);
	sqlite3_bind_text(st, 4, heed_site_reason_name(r->reason), -1,
	                  SQLITE_STATIC);
	sqlite3_bind_text(st, 5, r->detail, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 6, r->http_status);
	sqlite3_bind_int64(st, 7, r->robots_date_s);
	sqlite3_bind_int64(st, 8, r->last_success_s);
	sqlite3_bind_int64(st, 9, r->next_attempt_s);
	sqlite3_bind_int64(st, 10, r->failures);
	bind_text(st, 11, in->robots_url);
	bind_blob(st, 12, in->robots_body, in->robots_body_len);
	bind_blob(st, 13, in->rules_body, in->rules_body_len);
	sqlite3_bind_int64(st, 14, in->crawl_delay_ms);
	bind_text(st, 15, in->robots_etag);
	bind_text(st, 16, in->robots_last_modified);
	bind_text(st, 17, in->robots_type);
	rc = heed__sqlite_step_done(store, st);
	heed__sqlite_release(store, st);
	return rc;
}

static heed_status sqlite_each(heed_store *store, const char *host,
                               heed_store_site_fn *fn, void *ud, size_t *count)
{
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store, "SELECT " SITE_COLUMNS " FROM sites WHERE ?1 IS NULL "
	               "OR host = ?1 ORDER BY site;");
	struct heed_store_site row;
	heed_status rc = HEED_OK;
	size_t n = 0;
	int step;

	if (!st)
		return HEED_ESTORE;
	sqlite3_bind_text(st, 1, host, -1, SQLITE_STATIC);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		memset(&row, 0, sizeof(row));
		rc = read_row(store, st, &row);
		if (rc == HEED_OK) {
			fn(ud, &row);
			n++;
		}
		heed_store_site_clear(store, &row);
		if (rc != HEED_OK)
			break;
	}
	if (rc == HEED_OK && step != SQLITE_DONE)
		rc = heed__store_fail(store, NULL, "listing sites");
	heed__sqlite_release(store, st);
	if (count)
		*count = n;
	return rc;
}

static heed_status sqlite_host_get(heed_store *store, const char *host,
                                   struct heed_store_host *out)
{
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store, "SELECT backoff_level, backoff_until, last_request_ms "
	               "FROM hosts WHERE host = ?1;");
	int step;

	if (!st)
		return HEED_ESTORE;
	sqlite3_bind_text(st, 1, host, -1, SQLITE_STATIC);
	step = sqlite3_step(st);
	if (step == SQLITE_ROW) {
		out->backoff.level = (uint32_t)sqlite3_column_int64(st, 0);
		out->backoff.until_s = sqlite3_column_int64(st, 1);
		out->last_request_ms = sqlite3_column_int64(st, 2);
	}
	heed__sqlite_release(store, st);
	return step == SQLITE_ROW || step == SQLITE_DONE
	               ? HEED_OK
	               : heed__store_fail(store, NULL, "reading a host");
}

static heed_status sqlite_host_put(heed_store *store, const char *host,
                                   const struct heed_store_host *in)
{
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store, "INSERT OR REPLACE INTO hosts (host, backoff_level, "
	               "backoff_until, last_request_ms) VALUES (?1, ?2, ?3, "
	               "?4);");
	heed_status rc;

	if (!st)
		return HEED_ESTORE;
	sqlite3_bind_text(st, 1, host, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, in->backoff.level);
	sqlite3_bind_int64(st, 3, in->backoff.until_s);
	sqlite3_bind_int64(st, 4, in->last_request_ms);
	rc = heed__sqlite_step_done(store, st);
	heed__sqlite_release(store, st);
	return rc;
}

const struct heed__sites_ops heed__sqlite_sites_ops = {
        .get = sqlite_get,
        .put = sqlite_put,
        .each = sqlite_each,
        .host_get = sqlite_host_get,
        .host_put = sqlite_host_put,
};
