/*
 * The arrangements area (include/heed/store_arrangements.h): one row per
 * host with what its owner asked of heed. Patterns are kept one per line
 * and windows as their canonical text, so the table reads without heed.
 * Its statements are written once for both engines (src/store/sql-int.h);
 * only the tables differ, in the two migrations.
 *
 * A put is an upsert that sets every column, so a replace forgets what is
 * no longer asked, as a delete and insert would. Hosts are listed in byte
 * order: SQLite's BINARY collation, COLLATE "C" on PostgreSQL whatever the
 * database's locale.
 */
#include <string.h>

#include "store/sql-int.h"

/* The table on each engine: BIG the type of a date or a count, TAIL the
 * columns after updated. */
#define ARRANGEMENTS_TABLE(BIG, TAIL)             \
	"CREATE TABLE arrangements ("             \
	"  host TEXT PRIMARY KEY,"                \
	"  delay_ms " BIG " NOT NULL DEFAULT 0,"  \
	"  max_pages " BIG " NOT NULL DEFAULT 0," \
	"  mode TEXT NOT NULL DEFAULT 'full',"    \
	"  include TEXT,"                         \
	"  exclude TEXT,"                         \
	"  windows TEXT,"                         \
	"  endpoint TEXT,"                        \
	"  note TEXT,"                            \
	"  updated " BIG " NOT NULL DEFAULT 0" TAIL ");"

#define ENDPOINT_KIND "endpoint_kind TEXT NOT NULL DEFAULT 'source'"

static const char *const sqlite_migrations[] = {
        ARRANGEMENTS_TABLE("INTEGER", ""),
        /* 2: what the endpoint is (an oEmbed endpoint). */
        "ALTER TABLE arrangements ADD COLUMN " ENDPOINT_KIND ";",
};

/* Version 2 is SQLite's second migration (endpoint_kind): the first here
 * already has that shape, so one area version means the same columns on
 * both engines. A later migration is added to both. */
static const char *const pg_migrations[] = {
        ARRANGEMENTS_TABLE("BIGINT", ",  " ENDPOINT_KIND),
        "SELECT 1;",
};

const struct heed_store_area heed__store_arrangements_area = {
        "arrangements",
        sqlite_migrations,
        (int)HEED_ARRAY_SIZE(sqlite_migrations),
};

const struct heed_store_area heed__pg_arrangements_area = {
        "arrangements",
        pg_migrations,
        (int)HEED_ARRAY_SIZE(pg_migrations),
};

#define ARR_COLUMNS                                                    \
	"host, delay_ms, max_pages, mode, include, exclude, windows, " \
	"endpoint, note, updated, endpoint_kind"

/* What every read does to an arrangement: mode and kind are the row's
 * texts (NULL or unknown: full, source), and a hand-written delay under
 * the floor is raised to it. */
static void settle(struct heed_arrangement *a, const char *mode,
                   const char *kind)
{
	if (!mode || heed_arrangement_mode_parse(mode, &a->mode) != HEED_OK)
		a->mode = HEED_ARRANGEMENT_FULL;
	if (!kind || heed_arrangement_endpoint_kind_parse(
	                     kind, &a->endpoint_kind) != HEED_OK)
		a->endpoint_kind = HEED_ENDPOINT_SOURCE;
	/* A row written by hand never makes heed faster than its floor. */
	if (a->delay_ms > 0 && a->delay_ms < HEED_ARRANGEMENT_MIN_DELAY_MS)
		a->delay_ms = HEED_ARRANGEMENT_MIN_DELAY_MS;
}

/* The row's columns (ARR_COLUMNS order) into *a, settled, its strings
 * borrowed from q (see src/store/sql-int.h for how long they live). */
static void read_row(struct heed__sql *q, struct heed_arrangement *a)
{
	memset(a, 0, sizeof(*a));
	a->host = (char *)heed__sql_col_text(q, 0);
	a->delay_ms = heed__sql_col_int(q, 1, 0);
	a->max_pages = heed__sql_col_int(q, 2, 0);
	a->include = (char *)heed__sql_col_text(q, 4);
	a->exclude = (char *)heed__sql_col_text(q, 5);
	a->windows = (char *)heed__sql_col_text(q, 6);
	a->endpoint = (char *)heed__sql_col_text(q, 7);
	a->note = (char *)heed__sql_col_text(q, 8);
	a->updated_s = heed__sql_col_int(q, 9, 0);
	settle(a, heed__sql_col_text(q, 3), heed__sql_col_text(q, 10));
}

void heed_store_arrangement_clear(heed_store *store, struct heed_arrangement *a)
{
	heed__free(store->alloc, a->host);
	heed__free(store->alloc, a->include);
	heed__free(store->alloc, a->exclude);
	heed__free(store->alloc, a->windows);
	heed__free(store->alloc, a->endpoint);
	heed__free(store->alloc, a->note);
	memset(a, 0, sizeof(*a));
}

/* Reads the row into the caller's struct heed_arrangement (ctx), its
 * strings copied into the caller's memory; a row half copied is cleared,
 * so a cleared host says the copy failed. */
static int copy_row(struct heed__sql *q, void *ctx)
{
	struct heed_arrangement *a = ctx;
	bool oom = false;

	read_row(q, a);
	a->host = heed__sql_col_dup(q, 0, &oom);
	a->include = heed__sql_col_dup(q, 4, &oom);
	a->exclude = heed__sql_col_dup(q, 5, &oom);
	a->windows = heed__sql_col_dup(q, 6, &oom);
	a->endpoint = heed__sql_col_dup(q, 7, &oom);
	a->note = heed__sql_col_dup(q, 8, &oom);
	if (oom)
		heed_store_arrangement_clear(q->store, a);
	return oom;
}

heed_status heed_store_arrangement_get(heed_store *store, const char *host,
                                       struct heed_arrangement *out)
{
	struct heed__sql q;
	heed_status rc;

	memset(out, 0, sizeof(*out));
	if (!host)
		return HEED_ENOTFOUND;
	if (heed__sql_prepare_apart(store, &q,
	                            "SELECT " ARR_COLUMNS
	                            " FROM arrangements WHERE host = ?1;") !=
	    HEED_OK)
		return HEED_ESTORE;
	heed__sql_text(&q, 1, host);
	rc = heed__sql_one(&q, copy_row, out);
	if (rc == HEED_OK && !out->host)
		rc = HEED_ENOMEM;
	return rc;
}

/* p, or SQL NULL for an empty text: an empty pattern list or note is no
 * list or note. */
static void bind_text_or_null(struct heed__sql *q, int i, const char *p)
{
	heed__sql_text(q, i, p && *p ? p : NULL);
}

heed_status heed_store_arrangement_put(heed_store *store,
                                       const struct heed_arrangement *in)
{
	struct heed__sql q;

	/* The host is the row's key: a row without one could never be read
	 * back (SQLite would even keep it). */
	if (!in->host)
		return HEED_EINVAL;
	if (heed__sql_prepare_apart(
	            store, &q,
	            "INSERT INTO arrangements (" ARR_COLUMNS
	            ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11) "
	            "ON CONFLICT (host) DO UPDATE SET "
	            "delay_ms = excluded.delay_ms, "
	            "max_pages = excluded.max_pages, "
	            "mode = excluded.mode, include = excluded.include, "
	            "exclude = excluded.exclude, windows = excluded.windows, "
	            "endpoint = excluded.endpoint, note = excluded.note, "
	            "updated = excluded.updated, "
	            "endpoint_kind = excluded.endpoint_kind;") != HEED_OK)
		return HEED_ESTORE;
	heed__sql_text(&q, 1, in->host);
	heed__sql_int(&q, 2, in->delay_ms);
	heed__sql_int(&q, 3, in->max_pages);
	heed__sql_text(&q, 4, heed_arrangement_mode_name(in->mode));
	bind_text_or_null(&q, 5, in->include);
	bind_text_or_null(&q, 6, in->exclude);
	bind_text_or_null(&q, 7, in->windows);
	bind_text_or_null(&q, 8, in->endpoint);
	bind_text_or_null(&q, 9, in->note);
	heed__sql_int(&q, 10, in->updated_s);
	heed__sql_text(&q, 11,
	               heed_arrangement_endpoint_kind_name(in->endpoint_kind));
	return heed__sql_run(&q, NULL);
}

heed_status heed_store_arrangement_delete(heed_store *store, const char *host,
                                          bool *found)
{
	struct heed__sql q;
	int64_t changed = 0;
	heed_status rc;

	if (found)
		*found = false;
	if (!host)
		return HEED_OK;
	if (heed__sql_prepare_apart(
	            store, &q, "DELETE FROM arrangements WHERE host = ?1;") !=
	    HEED_OK)
		return HEED_ESTORE;
	heed__sql_text(&q, 1, host);
	rc = heed__sql_run(&q, &changed);
	if (rc == HEED_OK && found)
		*found = changed > 0;
	return rc;
}

struct arrangement_call {
	heed_store_arrangement_fn *fn;
	void *ud;
	size_t count;
};

static int call_arrangement(struct heed__sql *q, void *ctx)
{
	struct arrangement_call *c = ctx;
	struct heed_arrangement a;

	read_row(q, &a);
	c->fn(c->ud, &a);
	c->count++;
	return 0;
}

heed_status heed_store_arrangement_each(heed_store *store,
                                        heed_store_arrangement_fn *fn, void *ud,
                                        size_t *count)
{
	static const char *const sql[] = {
	        [HEED__SQL_SQLITE] = "SELECT " ARR_COLUMNS
	                             " FROM arrangements ORDER BY host;",
	        [HEED__SQL_PG] = "SELECT " ARR_COLUMNS " FROM arrangements "
	                         "ORDER BY host COLLATE \"C\";",
	};
	struct arrangement_call c = {fn, ud, 0};
	struct heed__sql q;
	heed_status rc;

	if (count)
		*count = 0;
	if (heed__sql_prepare_dialect(store, &q, sql) != HEED_OK)
		return HEED_ESTORE;
	rc = heed__sql_each(&q, call_arrangement, &c);
	if (count)
		*count = c.count;
	return rc;
}
