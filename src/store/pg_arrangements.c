/*
 * The "arrangements" area on PostgreSQL: the same table and answers as
 * src/store/sqlite_arrangements.c (include/heed/store_arrangements.h).
 *
 * INSERT OR REPLACE is an upsert that sets every column, so a replace
 * forgets what is no longer asked, as SQLite's delete-and-insert does;
 * sqlite3_changes() is the command's row count; hosts are listed in byte
 * order (COLLATE "C"), as SQLite's BINARY collation lists them, whatever
 * the database's locale.
 */
#include <string.h>

#include "store/pg-int.h"

/* Version 2 is SQLite's second migration (endpoint_kind): the first here
 * already has that shape, so one area version means the same columns on
 * both backends. A later migration is added to both
 * (src/store/sqlite_arrangements.c). */
static const char *const pg_arrangements_migrations[] = {
        "CREATE TABLE arrangements ("
        "  host TEXT PRIMARY KEY,"
        "  delay_ms BIGINT NOT NULL DEFAULT 0,"
        "  max_pages BIGINT NOT NULL DEFAULT 0,"
        "  mode TEXT NOT NULL DEFAULT 'full',"
        "  include TEXT,"
        "  exclude TEXT,"
        "  windows TEXT,"
        "  endpoint TEXT,"
        "  note TEXT,"
        "  updated BIGINT NOT NULL DEFAULT 0,"
        "  endpoint_kind TEXT NOT NULL DEFAULT 'source');",
        "SELECT 1;",
};

const struct heed_store_area heed__pg_arrangements_area = {
        "arrangements",
        pg_arrangements_migrations,
        (int)HEED_ARRAY_SIZE(pg_arrangements_migrations),
};

#define ARR_COLUMNS                                                    \
	"host, delay_ms, max_pages, mode, include, exclude, windows, " \
	"endpoint, note, updated, endpoint_kind"

static heed_status read_row(heed_store *store, const PGresult *r, int row,
                            struct heed_arrangement *out)
{
	bool oom = false;

	out->host = heed__pg_dup(store, r, row, 0, &oom);
	out->delay_ms = heed__pg_int(r, row, 1, 0);
	out->max_pages = heed__pg_int(r, row, 2, 0);
	out->include = heed__pg_dup(store, r, row, 4, &oom);
	out->exclude = heed__pg_dup(store, r, row, 5, &oom);
	out->windows = heed__pg_dup(store, r, row, 6, &oom);
	out->endpoint = heed__pg_dup(store, r, row, 7, &oom);
	out->note = heed__pg_dup(store, r, row, 8, &oom);
	out->updated_s = heed__pg_int(r, row, 9, 0);
	heed__arrangement_settle(out, heed__pg_text(r, row, 3),
	                         heed__pg_text(r, row, 10));
	return oom ? HEED_ENOMEM : HEED_OK;
}

static heed_status pg_get(heed_store *store, const char *host,
                          struct heed_arrangement *out)
{
	const char *params[] = {host};
	PGresult *r = heed__pg_query(store,
	                             "SELECT " ARR_COLUMNS " FROM arrangements "
	                             "WHERE host = $1;",
	                             1, params);
	heed_status rc;

	if (!r)
		return heed__store_fail(store, NULL, "reading an arrangement");
	rc = PQntuples(r) == 1 ? read_row(store, r, 0, out) : HEED_ENOTFOUND;
	PQclear(r);
	return rc;
}

/* p, or NULL (SQL NULL) for an empty or absent text, as SQLite stores
 * it. */
static const char *text_or_null(const char *p)
{
	return p && *p ? p : NULL;
}

static heed_status pg_put(heed_store *store, const struct heed_arrangement *in)
{
	char delay[HEED_PG_INT_SIZE], max[HEED_PG_INT_SIZE],
	        updated[HEED_PG_INT_SIZE];
	const char *params[] = {
	        in->host,
	        heed__pg_i64(delay, in->delay_ms),
	        heed__pg_i64(max, in->max_pages),
	        heed_arrangement_mode_name(in->mode),
	        text_or_null(in->include),
	        text_or_null(in->exclude),
	        text_or_null(in->windows),
	        text_or_null(in->endpoint),
	        text_or_null(in->note),
	        heed__pg_i64(updated, in->updated_s),
	        heed_arrangement_endpoint_kind_name(in->endpoint_kind),
	};

	/* Errors worded as SQLite's: the server's message alone. */
	return heed__pg_run(
	        store,
	        "INSERT INTO arrangements (" ARR_COLUMNS
	        ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) "
	        "ON CONFLICT (host) DO UPDATE SET "
	        "delay_ms = excluded.delay_ms, "
	        "max_pages = excluded.max_pages, "
	        "mode = excluded.mode, include = excluded.include, "
	        "exclude = excluded.exclude, "
	        "windows = excluded.windows, "
	        "endpoint = excluded.endpoint, "
	        "note = excluded.note, updated = excluded.updated, "
	        "endpoint_kind = excluded.endpoint_kind;",
	        (int)HEED_ARRAY_SIZE(params), params, NULL);
}

static heed_status pg_delete(heed_store *store, const char *host, bool *found)
{
	const char *params[] = {host};
	int64_t changed = 0;
	heed_status rc =
	        heed__pg_run(store, "DELETE FROM arrangements WHERE host = $1;",
	                     1, params, &changed);

	if (rc == HEED_OK && found)
		*found = changed > 0;
	return rc;
}

static heed_status pg_each(heed_store *store, heed_store_arrangement_fn *fn,
                           void *ud, size_t *count)
{
	PGresult *r = heed__pg_query(store,
	                             "SELECT " ARR_COLUMNS " FROM arrangements "
	                             "ORDER BY host COLLATE \"C\";",
	                             0, NULL);
	struct heed_arrangement row;
	heed_status rc = HEED_OK;
	size_t n = 0;

	if (!r)
		return heed__store_fail(store, NULL, "listing arrangements");
	/* The whole result is read before fn runs: fn may call the store. */
	for (int i = 0; i < PQntuples(r) && rc == HEED_OK; i++) {
		memset(&row, 0, sizeof(row));
		rc = read_row(store, r, i, &row);
		if (rc == HEED_OK) {
			fn(ud, &row);
			n++;
		}
		heed_store_arrangement_clear(store, &row);
	}
	PQclear(r);
	if (count)
		*count = n;
	return rc;
}

const struct heed__arrangements_ops heed__pg_arrangements_ops = {
        .get = pg_get,
        .put = pg_put,
        .del = pg_delete,
        .each = pg_each,
};
