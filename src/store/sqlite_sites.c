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
#include "store/sqlite-int.h"

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
        /* 2: the validators and media type of the stored
         * 2xx body, for a conditional re-check whose 304 confirms it. */
        "ALTER TABLE sites ADD COLUMN robots_etag TEXT;"
        "ALTER TABLE sites ADD COLUMN robots_last_modified TEXT;"
        "ALTER TABLE sites ADD COLUMN robots_type TEXT;",
        /* 3: the files ACAP-permissions-reference fields name,
         * as fetched, so that a resumed run judges as the first did. */
        "CREATE TABLE acap_refs ("
        "  site TEXT NOT NULL,"
        "  locator TEXT NOT NULL,"
        "  url TEXT,"
        "  http_status INTEGER NOT NULL DEFAULT 0,"
        "  fetched INTEGER NOT NULL DEFAULT 0,"
        "  body BLOB,"
        "  etag TEXT,"
        "  last_modified TEXT,"
        "  detail TEXT NOT NULL DEFAULT '',"
        "  PRIMARY KEY (site, locator));",
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

/* Steps st (bound) once and releases it: HEED_OK when read (the row
 * read into out by read), HEED_ENOTFOUND when there is no row,
 * HEED_ESTORE naming what, or read's HEED_ENOMEM. */
static heed_status one_row(heed_store *store, sqlite3_stmt *st,
                           heed_status (*read)(heed_store *, sqlite3_stmt *,
                                               void *),
                           void *out, const char *what)
{
	int step = sqlite3_step(st);
	heed_status rc;

	if (step == SQLITE_ROW)
		rc = read(store, st, out);
	else if (step == SQLITE_DONE)
		rc = HEED_ENOTFOUND;
	else
		rc = heed__store_fail(store, NULL, what);
	heed__sqlite_release(store, st);
	return rc;
}

static heed_status read_site(heed_store *store, sqlite3_stmt *st, void *out)
{
	return read_row(store, st, out);
}

static heed_status sqlite_get(heed_store *store, const char *site,
                              struct heed_store_site *out)
{
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store, "SELECT " SITE_COLUMNS " FROM sites WHERE site = ?1;");

	if (!st)
		return HEED_ESTORE;
	sqlite3_bind_text(st, 1, site, -1, SQLITE_STATIC);
	return one_row(store, st, read_site, out, "reading a site");
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

/* ---- ACAP permissions references ---- */

#define REF_COLUMNS                                              \
	"site, locator, url, http_status, fetched, body, etag, " \
	"last_modified, "                                        \
	"detail"

static heed_status read_ref(heed_store *store, sqlite3_stmt *st, void *row)
{
	struct heed_store_acap_ref *out = row;
	bool oom = false;

	out->site = column_dup(store, st, 0, NULL, &oom);
	out->locator = column_dup(store, st, 1, NULL, &oom);
	out->url = column_dup(store, st, 2, NULL, &oom);
	out->http_status = sqlite3_column_int(st, 3);
	out->fetched_s = sqlite3_column_int64(st, 4);
	out->body = column_dup(store, st, 5, &out->body_len, &oom);
	out->etag = column_dup(store, st, 6, NULL, &oom);
	out->last_modified = column_dup(store, st, 7, NULL, &oom);
	snprintf(out->detail, sizeof(out->detail), "%s",
	         (const char *)sqlite3_column_text(st, 8));
	return oom ? HEED_ENOMEM : HEED_OK;
}

static heed_status sqlite_ref_get(heed_store *store, const char *site,
                                  const char *locator,
                                  struct heed_store_acap_ref *out)
{
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store, "SELECT " REF_COLUMNS " FROM acap_refs WHERE site = ?1 "
	               "AND locator = ?2;");

	if (!st)
		return HEED_ESTORE;
	sqlite3_bind_text(st, 1, site, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, locator, -1, SQLITE_STATIC);
	return one_row(store, st, read_ref, out, "reading an ACAP reference");
}

static heed_status sqlite_ref_put(heed_store *store,
                                  const struct heed_store_acap_ref *in)
{
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store, "INSERT OR REPLACE INTO acap_refs (" REF_COLUMNS
	               ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9);");
	heed_status rc;

	if (!st)
		return HEED_ESTORE;
	sqlite3_bind_text(st, 1, in->site, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, in->locator, -1, SQLITE_STATIC);
	bind_text(st, 3, in->url);
	sqlite3_bind_int(st, 4, in->http_status);
	sqlite3_bind_int64(st, 5, in->fetched_s);
	bind_blob(st, 6, in->body, in->body_len);
	bind_text(st, 7, in->etag);
	bind_text(st, 8, in->last_modified);
	sqlite3_bind_text(st, 9, in->detail, -1, SQLITE_STATIC);
	rc = heed__sqlite_step_done(store, st);
	heed__sqlite_release(store, st);
	return rc;
}

static heed_status sqlite_ref_delete(heed_store *store, const char *site,
                                     const char *locator)
{
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store,
	        "DELETE FROM acap_refs WHERE site = ?1 AND locator = ?2;");
	heed_status rc;

	if (!st)
		return HEED_ESTORE;
	sqlite3_bind_text(st, 1, site, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, locator, -1, SQLITE_STATIC);
	rc = heed__sqlite_step_done(store, st);
	heed__sqlite_release(store, st);
	return rc;
}

static heed_status sqlite_ref_each(heed_store *store, const char *site,
                                   heed_store_acap_ref_fn *fn, void *ud)
{
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store, "SELECT " REF_COLUMNS " FROM acap_refs WHERE site = ?1 "
	               "ORDER BY locator;");
	struct heed_store_acap_ref row;
	heed_status rc = HEED_OK;
	int step;

	if (!st)
		return HEED_ESTORE;
	sqlite3_bind_text(st, 1, site, -1, SQLITE_STATIC);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		memset(&row, 0, sizeof(row));
		rc = read_ref(store, st, &row);
		if (rc == HEED_OK)
			fn(ud, &row);
		heed_store_acap_ref_clear(store, &row);
		if (rc != HEED_OK)
			break;
	}
	if (rc == HEED_OK && step != SQLITE_DONE)
		rc = heed__store_fail(store, NULL, "listing ACAP references");
	heed__sqlite_release(store, st);
	return rc;
}

const struct heed__sites_ops heed__sqlite_sites_ops = {
        .get = sqlite_get,
        .put = sqlite_put,
        .each = sqlite_each,
        .host_get = sqlite_host_get,
        .host_put = sqlite_host_put,
        .ref_get = sqlite_ref_get,
        .ref_put = sqlite_ref_put,
        .ref_delete = sqlite_ref_delete,
        .ref_each = sqlite_ref_each,
};
