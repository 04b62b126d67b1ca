/*
 * The "sites" area on PostgreSQL: the same tables, index and answers as
 * src/store/sqlite_sites.c (include/heed/store_sites.h).
 *
 * Bodies are bytes (a robots.txt may hold a NUL): bytea, sent as binary
 * parameters and read back unescaped. INSERT OR REPLACE is an upsert that
 * sets every column, so a replace leaves nothing of the old row, as
 * SQLite's delete-and-insert does. Sites are listed in byte order
 * (COLLATE "C"), as SQLite's BINARY collation lists them, whatever the
 * database's locale.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "store/pg-int.h"

/* Version 2 is SQLite's second migration (the validators of the stored
 * body): the first here already has that shape, so one area version means
 * the same columns on both backends. Later migrations are added to both
 * (src/store/sqlite_sites.c), as 3 was. */
static const char *const pg_sites_migrations[] = {
        "CREATE TABLE sites ("
        "  site TEXT PRIMARY KEY,"
        "  host TEXT NOT NULL,"
        "  state TEXT NOT NULL DEFAULT 'unknown',"
        "  reason TEXT NOT NULL DEFAULT 'none',"
        "  detail TEXT NOT NULL DEFAULT '',"
        "  http_status INTEGER NOT NULL DEFAULT 0,"
        "  robots_date BIGINT NOT NULL DEFAULT 0,"
        "  last_success BIGINT NOT NULL DEFAULT 0,"
        "  next_attempt BIGINT NOT NULL DEFAULT 0,"
        "  failures BIGINT NOT NULL DEFAULT 0,"
        "  robots_url TEXT,"
        "  robots_body BYTEA,"
        "  rules_body BYTEA,"
        "  crawl_delay_ms BIGINT NOT NULL DEFAULT 0,"
        "  robots_etag TEXT,"
        "  robots_last_modified TEXT,"
        "  robots_type TEXT);"
        "CREATE INDEX sites_by_host ON sites(host);"
        "CREATE TABLE hosts ("
        "  host TEXT PRIMARY KEY,"
        "  backoff_level BIGINT NOT NULL DEFAULT 0,"
        "  backoff_until BIGINT NOT NULL DEFAULT 0,"
        "  last_request_ms BIGINT NOT NULL DEFAULT 0);",
        "SELECT 1;",
        /* 3, as on SQLite: the files ACAP-permissions-reference
         * fields name, as fetched. */
        "CREATE TABLE acap_refs ("
        "  site TEXT NOT NULL,"
        "  locator TEXT NOT NULL,"
        "  url TEXT,"
        "  http_status INTEGER NOT NULL DEFAULT 0,"
        "  fetched BIGINT NOT NULL DEFAULT 0,"
        "  body BYTEA,"
        "  etag TEXT,"
        "  last_modified TEXT,"
        "  detail TEXT NOT NULL DEFAULT '',"
        "  PRIMARY KEY (site, locator));",
};

const struct heed_store_area heed__pg_sites_area = {
        "sites",
        pg_sites_migrations,
        (int)HEED_ARRAY_SIZE(pg_sites_migrations),
};

#define SITE_COLUMNS                                                      \
	"site, host, state, reason, detail, http_status, robots_date, "   \
	"last_success, next_attempt, failures, robots_url, robots_body, " \
	"rules_body, crawl_delay_ms, robots_etag, robots_last_modified, " \
	"robots_type"

/* Fills *out from row i of r; HEED_ENOMEM leaves *out clearable. */
static heed_status read_row(heed_store *store, const PGresult *r, int i,
                            struct heed_store_site *out)
{
	struct heed_site_record *rec = &out->record;
	bool oom = false;

	out->site = heed__pg_dup(store, r, i, 0, &oom);
	out->host = heed__pg_dup(store, r, i, 1, &oom);
	heed__site_settle(out, heed__pg_text(r, i, 2), heed__pg_text(r, i, 3),
	                  heed__pg_text(r, i, 4));
	rec->http_status = (int)heed__pg_int(r, i, 5, 0);
	rec->robots_date_s = heed__pg_int(r, i, 6, 0);
	rec->last_success_s = heed__pg_int(r, i, 7, 0);
	rec->next_attempt_s = heed__pg_int(r, i, 8, 0);
	rec->failures = (uint32_t)heed__pg_int(r, i, 9, 0);
	out->robots_url = heed__pg_dup(store, r, i, 10, &oom);
	out->robots_body =
	        heed__pg_bytes(store, r, i, 11, &out->robots_body_len, &oom);
	out->rules_body =
	        heed__pg_bytes(store, r, i, 12, &out->rules_body_len, &oom);
	out->crawl_delay_ms = heed__pg_int(r, i, 13, 0);
	out->robots_etag = heed__pg_dup(store, r, i, 14, &oom);
	out->robots_last_modified = heed__pg_dup(store, r, i, 15, &oom);
	out->robots_type = heed__pg_dup(store, r, i, 16, &oom);
	return oom ? HEED_ENOMEM : HEED_OK;
}

static heed_status pg_get(heed_store *store, const char *site,
                          struct heed_store_site *out)
{
	const char *params[] = {site};
	PGresult *r = heed__pg_query(
	        store, "SELECT " SITE_COLUMNS " FROM sites WHERE site = $1;", 1,
	        params);
	heed_status rc;

	if (!r)
		return heed__store_fail(store, NULL, "reading a site");
	rc = PQntuples(r) == 1 ? read_row(store, r, 0, out) : HEED_ENOTFOUND;
	PQclear(r);
	return rc;
}

static heed_status pg_put(heed_store *store, const struct heed_store_site *in)
{
	const struct heed_site_record *rec = &in->record;
	char status[HEED_PG_INT_SIZE], date[HEED_PG_INT_SIZE],
	        success[HEED_PG_INT_SIZE], next[HEED_PG_INT_SIZE],
	        failures[HEED_PG_INT_SIZE], delay[HEED_PG_INT_SIZE];
	const char *params[] = {
	        in->site,
	        in->host,
	        heed_site_state_name(rec->state),
	        heed_site_reason_name(rec->reason),
	        rec->detail,
	        heed__pg_i64(status, rec->http_status),
	        heed__pg_i64(date, rec->robots_date_s),
	        heed__pg_i64(success, rec->last_success_s),
	        heed__pg_i64(next, rec->next_attempt_s),
	        heed__pg_i64(failures, rec->failures),
	        in->robots_url,
	        in->robots_body,
	        in->rules_body,
	        heed__pg_i64(delay, in->crawl_delay_ms),
	        in->robots_etag,
	        in->robots_last_modified,
	        in->robots_type,
	};
	/* The bodies go as bytes; everything else as text. */
	int lengths[HEED_ARRAY_SIZE(params)] = {0};
	int formats[HEED_ARRAY_SIZE(params)] = {0};
	PGresult *r;

	/* libpq counts a parameter's bytes in an int; a robots.txt is read
	 * up to a limit far below. */
	if (in->robots_body_len > INT_MAX || in->rules_body_len > INT_MAX)
		return HEED_EINVAL;
	lengths[11] = (int)in->robots_body_len;
	lengths[12] = (int)in->rules_body_len;
	formats[11] = formats[12] = 1;
	/* Errors worded as SQLite's: the server's message alone. */
	r = heed__pg_query_ex(
	        store,
	        "INSERT INTO sites (" SITE_COLUMNS ") VALUES ($1, $2, $3, $4, "
	        "$5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) "
	        "ON CONFLICT (site) DO UPDATE SET host = excluded.host, "
	        "state = excluded.state, reason = excluded.reason, "
	        "detail = excluded.detail, "
	        "http_status = excluded.http_status, "
	        "robots_date = excluded.robots_date, "
	        "last_success = excluded.last_success, "
	        "next_attempt = excluded.next_attempt, "
	        "failures = excluded.failures, "
	        "robots_url = excluded.robots_url, "
	        "robots_body = excluded.robots_body, "
	        "rules_body = excluded.rules_body, "
	        "crawl_delay_ms = excluded.crawl_delay_ms, "
	        "robots_etag = excluded.robots_etag, "
	        "robots_last_modified = excluded.robots_last_modified, "
	        "robots_type = excluded.robots_type;",
	        (int)HEED_ARRAY_SIZE(params), params, lengths, formats);
	if (!r)
		return heed__pg_failed(store);
	PQclear(r);
	return HEED_OK;
}

static heed_status pg_each(heed_store *store, const char *host,
                           heed_store_site_fn *fn, void *ud, size_t *count)
{
	const char *params[] = {host};
	PGresult *r = heed__pg_query(store,
	                             "SELECT " SITE_COLUMNS " FROM sites "
	                             "WHERE $1::text IS NULL OR host = $1 "
	                             "ORDER BY site COLLATE \"C\";",
	                             1, params);
	struct heed_store_site row;
	heed_status rc = HEED_OK;
	size_t n = 0;

	if (!r)
		return heed__store_fail(store, NULL, "listing sites");
	/* The whole result is read before fn runs: fn may call the store. */
	for (int i = 0; i < PQntuples(r) && rc == HEED_OK; i++) {
		memset(&row, 0, sizeof(row));
		rc = read_row(store, r, i, &row);
		if (rc == HEED_OK) {
			fn(ud, &row);
			n++;
		}
		heed_store_site_clear(store, &row);
	}
	PQclear(r);
	if (count)
		*count = n;
	return rc;
}

static heed_status pg_host_get(heed_store *store, const char *host,
                               struct heed_store_host *out)
{
	const char *params[] = {host};
	PGresult *r = heed__pg_query(
	        store,
	        "SELECT backoff_level, backoff_until, last_request_ms "
	        "FROM hosts WHERE host = $1;",
	        1, params);

	if (!r)
		return heed__store_fail(store, NULL, "reading a host");
	if (PQntuples(r) == 1) {
		out->backoff.level = (uint32_t)heed__pg_int(r, 0, 0, 0);
		out->backoff.until_s = heed__pg_int(r, 0, 1, 0);
		out->last_request_ms = heed__pg_int(r, 0, 2, 0);
	}
	PQclear(r);
	return HEED_OK;
}

static heed_status pg_host_put(heed_store *store, const char *host,
                               const struct heed_store_host *in)
{
	char level[HEED_PG_INT_SIZE], until[HEED_PG_INT_SIZE],
	        last[HEED_PG_INT_SIZE];
	const char *params[] = {host, heed__pg_i64(level, in->backoff.level),
	                        heed__pg_i64(until, in->backoff.until_s),
	                        heed__pg_i64(last, in->last_request_ms)};

	return heed__pg_run(
	        store,
	        "INSERT INTO hosts (host, backoff_level, backoff_until, "
	        "last_request_ms) VALUES ($1, $2, $3, $4) "
	        "ON CONFLICT (host) DO UPDATE SET "
	        "backoff_level = excluded.backoff_level, "
	        "backoff_until = excluded.backoff_until, "
	        "last_request_ms = excluded.last_request_ms;",
	        4, params, NULL);
}

/* ---- ACAP permissions references ---- */

#define REF_COLUMNS                                              \
	"site, locator, url, http_status, fetched, body, etag, " \
	"last_modified, detail"

static heed_status read_ref(heed_store *store, const PGresult *r, int i,
                            struct heed_store_acap_ref *out)
{
	const char *detail = heed__pg_text(r, i, 8);
	bool oom = false;

	out->site = heed__pg_dup(store, r, i, 0, &oom);
	out->locator = heed__pg_dup(store, r, i, 1, &oom);
	out->url = heed__pg_dup(store, r, i, 2, &oom);
	out->http_status = (int)heed__pg_int(r, i, 3, 0);
	out->fetched_s = heed__pg_int(r, i, 4, 0);
	out->body = heed__pg_bytes(store, r, i, 5, &out->body_len, &oom);
	out->etag = heed__pg_dup(store, r, i, 6, &oom);
	out->last_modified = heed__pg_dup(store, r, i, 7, &oom);
	snprintf(out->detail, sizeof(out->detail), "%s", detail ? detail : "");
	return oom ? HEED_ENOMEM : HEED_OK;
}

static heed_status pg_ref_get(heed_store *store, const char *site,
                              const char *locator,
                              struct heed_store_acap_ref *out)
{
	const char *params[] = {site, locator};
	PGresult *r = heed__pg_query(store,
	                             "SELECT " REF_COLUMNS " FROM acap_refs "
	                             "WHERE site = $1 AND locator = $2;",
	                             2, params);
	heed_status rc;

	if (!r)
		return heed__store_fail(store, NULL,
		                        "reading an ACAP reference");
	rc = PQntuples(r) == 1 ? read_ref(store, r, 0, out) : HEED_ENOTFOUND;
	PQclear(r);
	return rc;
}

static heed_status pg_ref_put(heed_store *store,
                              const struct heed_store_acap_ref *in)
{
	char status[HEED_PG_INT_SIZE], fetched[HEED_PG_INT_SIZE];
	const char *params[] = {
	        in->site,
	        in->locator,
	        in->url,
	        heed__pg_i64(status, in->http_status),
	        heed__pg_i64(fetched, in->fetched_s),
	        in->body,
	        in->etag,
	        in->last_modified,
	        in->detail,
	};
	/* The body goes as bytes; everything else as text. */
	int lengths[HEED_ARRAY_SIZE(params)] = {0};
	int formats[HEED_ARRAY_SIZE(params)] = {0};
	PGresult *r;

	if (in->body_len > INT_MAX)
		return HEED_EINVAL;
	lengths[5] = (int)in->body_len;
	formats[5] = 1;
	r = heed__pg_query_ex(
	        store,
	        "INSERT INTO acap_refs (" REF_COLUMNS ") VALUES ($1, $2, $3, "
	        "$4, $5, $6, $7, $8, $9) ON CONFLICT (site, locator) DO UPDATE "
	        "SET url = excluded.url, http_status = excluded.http_status, "
	        "fetched = excluded.fetched, body = excluded.body, "
	        "etag = excluded.etag, "
	        "last_modified = excluded.last_modified, "
	        "detail = excluded.detail;",
	        (int)HEED_ARRAY_SIZE(params), params, lengths, formats);
	if (!r)
		return heed__pg_failed(store);
	PQclear(r);
	return HEED_OK;
}

static heed_status pg_ref_delete(heed_store *store, const char *site,
                                 const char *locator)
{
	const char *params[] = {site, locator};

	return heed__pg_run(store,
	                    "DELETE FROM acap_refs WHERE site = $1 "
	                    "AND locator = $2;",
	                    2, params, NULL);
}

static heed_status pg_ref_each(heed_store *store, const char *site,
                               heed_store_acap_ref_fn *fn, void *ud)
{
	const char *params[] = {site};
	PGresult *r = heed__pg_query(store,
	                             "SELECT " REF_COLUMNS " FROM acap_refs "
	                             "WHERE site = $1 "
	                             "ORDER BY locator COLLATE \"C\";",
	                             1, params);
	struct heed_store_acap_ref row;
	heed_status rc = HEED_OK;

	if (!r)
		return heed__store_fail(store, NULL, "listing ACAP references");
	/* The whole result is read before fn runs: fn may call the store. */
	for (int i = 0; i < PQntuples(r) && rc == HEED_OK; i++) {
		memset(&row, 0, sizeof(row));
		rc = read_ref(store, r, i, &row);
		if (rc == HEED_OK)
			fn(ud, &row);
		heed_store_acap_ref_clear(store, &row);
	}
	PQclear(r);
	return rc;
}

const struct heed__sites_ops heed__pg_sites_ops = {
        .get = pg_get,
        .put = pg_put,
        .each = pg_each,
        .host_get = pg_host_get,
        .host_put = pg_host_put,
        .ref_get = pg_ref_get,
        .ref_put = pg_ref_put,
        .ref_delete = pg_ref_delete,
        .ref_each = pg_ref_each,
};
