/*
 * Copying a store to another of either backend (heed/store_copy.h).
 *
 * The copy is generic over a table of the tables heed keeps, their
 * columns and a letter per column saying how its values travel, because
 * the two backends spell a few types differently: the column names are
 * the same on both (each area's two migrations, src/store/<area>.c). A table is
 * read in key order through a reader of its backend and written through a
 * writer of the other, one transaction per table on the destination.
 * Every SQL text here is made of the constant names below, never of data.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "heed/store_copy.h"
#include "store/pg-int.h"
#include "store/sqlite-int.h"

/*
 * How a column's values travel:
 *  'i' an integer (INTEGER on SQLite, INTEGER or BIGINT on PostgreSQL);
 *  't' text, TEXT on both;
 *  'x' bytes kept as TEXT on SQLite and BYTEA on PostgreSQL (IRC's text
 *      as the server sent it, which may be any bytes);
 *  'b' bytes, BLOB on SQLite and BYTEA on PostgreSQL.
 */
struct copy_table {
	const char *area;
	const char *name;
	const char *columns;
	const char *kinds;    /* one letter per column */
	const char *order;    /* the key; text keys ordered bytewise... */
	const char *pg_order; /* ...on PostgreSQL too, whatever its locale */
	bool identity;        /* id is an identity column on PostgreSQL */
};

#define C_ "COLLATE \"C\""

/* In an order that satisfies PostgreSQL's foreign keys. The search area's
 * tables are derived (its triggers on pages fill them) and never copied.
 * An area added to a backend copies once its tables are listed here; a
 * later migration that adds a column must add it here too. */
static const struct copy_table tables[] = {
        {"core", "heed_meta", "key, value", "tt", "key", "key " C_, false},
        {"sites", "sites",
         "site, host, state, reason, detail, http_status, robots_date, "
         "last_success, next_attempt, failures, robots_url, robots_body, "
         "rules_body, crawl_delay_ms, robots_etag, robots_last_modified, "
         "robots_type",
         "tttttiiiiitbbittt", "site", "site " C_, false},
        {"sites", "hosts",
         "host, backoff_level, backoff_until, last_request_ms", "tiii", "host",
         "host " C_, false},
        {"sites", "acap_refs",
         "site, locator, url, http_status, fetched, body, etag, "
         "last_modified, detail",
         "tttiibttt", "site, locator", "site " C_ ", locator " C_, false},
        {"irc", "irc_networks",
         "id, key, name, first_seen, last_visit_id, last_visit_end, "
         "last_status, last_complete_visit_id, verdict, cooldown, "
         "next_visit_at",
         "itxiiititii", "id", "id", true},
        {"irc", "irc_visits",
         "id, network_id, host, port, tls, started_at, ended_at, status, "
         "reason, server_name, server_version, network_name, users, "
         "invisible, servers, opers, channels_formed, local_users, "
         "global_users, channels_listed, servers_listed",
         "iitiiiitxxxxiiiiiiiii", "id", "id", true},
        {"irc", "irc_servers",
         "network_id, name, hub, hops, description, first_seen, last_seen, "
         "last_visit_id",
         "ixxixiii", "network_id, name", "network_id, name", false},
        {"irc", "irc_channels",
         "network_id, name, users, topic, first_seen, last_seen, "
         "last_visit_id",
         "ixixiii", "network_id, name", "network_id, name", false},
        {"irc", "irc_preferences",
         "id, network_id, visit_id, server_name, seen_at, raw_value, "
         "verdict, cooldown, problems",
         "iiixixtii", "id", "id", true},
        {"irc", "irc_sts", "host, port, expires_at", "tii", "host", "host " C_,
         false},
        {"pages", "pages",
         "id, url, final_url, host, status, fetched_at, checked_at, title, "
         "views, published, modified, etag, last_modified, source_lastmod, "
         "permissions, mode, record",
         "itttiiitittttittt", "id", "id", true},
        {"frontier", "frontier",
         "id, url, host, depth, kind, state, discovered_from, lastmod, "
         "outcome, tries",
         "ittiiitiii", "id", "id", true},
        {"frontier", "crawl_runs",
         "id, mode, started_at, finished_at, pages, errors", "itiiii", "id",
         "id", true},
        {"visits", "visits",
         "url, site, found_on, kind, status, etag, last_modified, digest, "
         "fresh_until, interval_s, checked_at, changed_at, due_at, "
         "last_outcome, run_id, visits, changes",
         "tttiitttiiiiiiiii", "site, url", "site " C_ ", url " C_, false},
        {"leases", "site_leases",
         "site, delay_ms, next_allowed_at, last_request_start, holder, "
         "token, lease_until, wanted_at, taken_from, epoch",
         "tiiitiiiti", "site", "site " C_, false},
        {"leases", "lease_origins", "site, origin", "tt", "site, origin",
         "site " C_ ", origin " C_, false},
        {"leases", "address_slots", "address, last_start, gap_ms", "tii",
         "address", "address " C_, false},
        {"leases", "lease_workers", "holder, alive_until, epoch", "tii",
         "holder", "holder " C_, false},
        {"arrangements", "arrangements",
         "host, delay_ms, max_pages, mode, include, exclude, windows, "
         "endpoint, note, updated, endpoint_kind",
         "tiittttttit", "host", "host " C_, false},
};

#define MAX_COLUMNS 32
#define SQL_SIZE    1024
/* Rows per INSERT into PostgreSQL: one statement per row spent its time
 * in round trips and parsing (9,000 pages a second on loopback). */
#define PG_ROWS_MAX 100

/* One value: SQL NULL, an integer, or n bytes at p (text or not). */
struct cell {
	bool null;
	int64_t i;
	const char *p;
	size_t n;
};

typedef heed_status row_fn(void *ud, const struct copy_table *t,
                           const struct cell *cells);

static int ncolumns(const struct copy_table *t)
{
	return (int)strlen(t->kinds);
}

static bool is_pg(const heed_store *s)
{
	return s->backend == &heed__pg_backend;
}

static bool has_area(const heed_store *s, const char *area)
{
	for (const struct heed_store_area *const *a = s->backend->areas; *a;
	     a++)
		if (strcmp((*a)->name, area) == 0)
			return true;
	return false;
}

static heed_status fail(heed_store *s, struct heed_diag *diag, const char *what,
                        const char *table)
{
	char buf[128];

	snprintf(buf, sizeof(buf), "%s %s", what, table);
	return heed__store_fail(s, diag, buf);
}

/* ---- reading ---- */

static heed_status sqlite_read(heed_store *s, const struct copy_table *t,
                               row_fn *fn, void *ud, struct heed_diag *diag)
{
	char sql[SQL_SIZE];
	struct cell cells[MAX_COLUMNS];
	sqlite3_stmt *st = NULL;
	int n = ncolumns(t), rc;
	heed_status hs = HEED_OK;

	snprintf(sql, sizeof(sql), "SELECT %s FROM %s ORDER BY %s;", t->columns,
	         t->name, t->order);
	if (sqlite3_prepare_v2(heed__sqlite_db(s), sql, -1, &st, NULL) !=
	    SQLITE_OK)
		return fail(s, diag, "reading", t->name);
	while (hs == HEED_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		for (int c = 0; c < n; c++) {
			int type = sqlite3_column_type(st, c);

			memset(&cells[c], 0, sizeof(cells[c]));
			cells[c].null = type == SQLITE_NULL;
			if (cells[c].null)
				continue;
			if (t->kinds[c] == 'i') {
				if (type != SQLITE_INTEGER) {
					sqlite3_finalize(st);
					return heed_diag_set(
					        diag, HEED_ESTORE, 0, 0,
					        "%s holds a value that is not "
					        "an integer in an integer "
					        "column",
					        t->name);
				}
				cells[c].i = sqlite3_column_int64(st, c);
				continue;
			}
			/* Text and blobs alike as their bytes, never
			 * converted; "" rather than NULL when empty. */
			cells[c].p =
			        t->kinds[c] == 'b'
			                ? sqlite3_column_blob(st, c)
			                : (const char *)sqlite3_column_text(st,
			                                                    c);
			cells[c].n = (size_t)sqlite3_column_bytes(st, c);
			if (!cells[c].p)
				cells[c].p = "";
		}
		hs = fn(ud, t, cells);
	}
	if (hs == HEED_OK && rc != SQLITE_DONE)
		hs = fail(s, diag, "reading", t->name);
	sqlite3_finalize(st);
	return hs;
}

/* Calls fn with each row of r; bytes are unescaped one row at a time. */
static heed_status pg_rows(heed_store *s, const struct copy_table *t,
                           PGresult *r, row_fn *fn, void *ud,
                           struct heed_diag *diag)
{
	struct cell cells[MAX_COLUMNS];
	unsigned char *bytes[MAX_COLUMNS];
	int n = ncolumns(t);
	heed_status hs = HEED_OK;

	for (int row = 0; hs == HEED_OK && row < PQntuples(r); row++) {
		memset(bytes, 0, sizeof(bytes));
		for (int c = 0; c < n; c++) {
			memset(&cells[c], 0, sizeof(cells[c]));
			cells[c].null = PQgetisnull(r, row, c);
			if (cells[c].null)
				continue;
			if (t->kinds[c] == 'i') {
				cells[c].i = heed__pg_int(r, row, c, 0);
			} else if (t->kinds[c] == 't') {
				cells[c].p = PQgetvalue(r, row, c);
				cells[c].n = (size_t)PQgetlength(r, row, c);
			} else {
				bytes[c] = PQunescapeBytea(
				        (const unsigned char *)PQgetvalue(
				                r, row, c),
				        &cells[c].n);
				if (!bytes[c]) {
					hs = HEED_ENOMEM;
					break;
				}
				cells[c].p = (const char *)bytes[c];
			}
		}
		if (hs == HEED_OK)
			hs = fn(ud, t, cells);
		for (int c = 0; c < n; c++)
			PQfreemem(bytes[c]);
	}
	if (hs == HEED_ENOMEM)
		heed_diag_set(diag, hs, 0, 0, "out of memory reading %s",
		              t->name);
	(void)s;
	return hs;
}

/* Through a cursor in a read-only transaction, batch rows at a time, so a
 * table larger than memory is read in bounded pieces. */
static heed_status pg_read(heed_store *s, const struct copy_table *t,
                           int64_t batch, row_fn *fn, void *ud,
                           struct heed_diag *diag)
{
	char sql[SQL_SIZE], fetch[64];
	heed_status hs;

	snprintf(sql, sizeof(sql),
	         "DECLARE heed_copy NO SCROLL CURSOR FOR "
	         "SELECT %s FROM %s ORDER BY %s;",
	         t->columns, t->name, t->pg_order);
	/* FETCH takes no parameter: the count is an integer heed formats. */
	snprintf(fetch, sizeof(fetch),
	         "FETCH FORWARD %" PRId64 " FROM heed_copy;", batch);
	if (heed__pg_run(s, "BEGIN READ ONLY;", 0, NULL, NULL) != HEED_OK)
		return fail(s, diag, "reading", t->name);
	hs = heed__pg_run(s, sql, 0, NULL, NULL);
	if (hs != HEED_OK)
		hs = fail(s, diag, "reading", t->name);
	/* Bounded: each FETCH returns rows until the table is read. */
	while (hs == HEED_OK) {
		PGresult *r = heed__pg_query(s, fetch, 0, NULL);
		int rows;

		if (!r) {
			hs = fail(s, diag, "reading", t->name);
			break;
		}
		rows = PQntuples(r);
		hs = pg_rows(s, t, r, fn, ud, diag);
		PQclear(r);
		if (rows == 0)
			break;
	}
	if (hs == HEED_OK) {
		if (heed__pg_run(s, "COMMIT;", 0, NULL, NULL) != HEED_OK)
			hs = fail(s, diag, "reading", t->name);
	} else {
		PQclear(heed__pg_query(s, "ROLLBACK;", 0, NULL));
	}
	return hs;
}

static heed_status read_rows(heed_store *s, const struct copy_table *t,
                             int64_t batch, row_fn *fn, void *ud,
                             struct heed_diag *diag)
{
	if (is_pg(s))
		return pg_read(s, t, batch, fn, ud, diag);
	return sqlite_read(s, t, fn, ud, diag);
}

static heed_status count_rows(heed_store *s, const char *table, int64_t *count,
                              struct heed_diag *diag)
{
	char sql[SQL_SIZE];

	snprintf(sql, sizeof(sql), "SELECT count(*) FROM %s;", table);
	if (is_pg(s)) {
		PGresult *r = heed__pg_query(s, sql, 0, NULL);

		if (!r)
			return fail(s, diag, "counting", table);
		*count = heed__pg_int(r, 0, 0, 0);
		PQclear(r);
		return HEED_OK;
	}
	sqlite3_stmt *st = NULL;
	heed_status hs = HEED_OK;

	if (sqlite3_prepare_v2(heed__sqlite_db(s), sql, -1, &st, NULL) !=
	            SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_ROW)
		hs = fail(s, diag, "counting", table);
	else
		*count = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return hs;
}

/* ---- writing ---- */

struct writer {
	heed_store *dst;
	sqlite3_stmt *st; /* SQLite's insert, prepared once per table */
	char sql[SQL_SIZE];
	int64_t done, total, batch;
	heed_store_copy_progress_fn *progress;
	void *ud;
	struct heed_diag *diag;
	/* PostgreSQL: rows kept for one multi-row INSERT, their values'
	 * bytes in arena (each NUL-terminated), one entry per value. */
	int rows, max_rows;
	char *arena;
	size_t used, cap;
	struct pg_value {
		size_t at;  /* in arena; SIZE_MAX: NULL */
		int length; /* bytes */
		int format; /* 1: bytes sent raw (BYTEA) */
	} values[PG_ROWS_MAX * MAX_COLUMNS];
};

static heed_status sqlite_write(struct writer *w, const struct copy_table *t,
                                const struct cell *cells)
{
	sqlite3_stmt *st = w->st;
	int n = ncolumns(t);

	for (int c = 0; c < n; c++) {
		const struct cell *v = &cells[c];

		if (v->null)
			sqlite3_bind_null(st, c + 1);
		else if (t->kinds[c] == 'i')
			sqlite3_bind_int64(st, c + 1, v->i);
		else if (t->kinds[c] == 'b')
			/* A zero-length blob, not NULL, when empty. */
			sqlite3_bind_blob64(st, c + 1, v->n ? v->p : "", v->n,
			                    SQLITE_TRANSIENT);
		else
			sqlite3_bind_text64(st, c + 1, v->p, v->n,
			                    SQLITE_TRANSIENT, SQLITE_UTF8);
	}
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc != SQLITE_DONE)
		return fail(w->dst, w->diag, "writing", t->name);
	return HEED_OK;
}

/* Keeps n bytes and a NUL in w's arena; its offset, or SIZE_MAX when out
 * of memory. */
static size_t keep(struct writer *w, const void *p, size_t n)
{
	size_t at = w->used;

	if (w->cap - w->used < n + 1) {
		size_t cap = (w->cap ? w->cap : 65536);

		while (cap - w->used < n + 1)
			cap *= 2;
		char *grown = heed__realloc(w->dst->alloc, w->arena, cap);

		if (!grown)
			return SIZE_MAX;
		w->arena = grown;
		w->cap = cap;
	}
	memcpy(w->arena + at, p, n);
	w->arena[at + n] = '\0';
	w->used += n + 1;
	return at;
}

/* Sends the rows kept: INSERT ... VALUES ($1, ...), ($n + 1, ...). */
static heed_status pg_flush(struct writer *w, const struct copy_table *t)
{
	int n = ncolumns(t), count = w->rows * n;
	const char *params[PG_ROWS_MAX * MAX_COLUMNS];
	int lengths[PG_ROWS_MAX * MAX_COLUMNS],
	        formats[PG_ROWS_MAX * MAX_COLUMNS];
	/* "), ($NNNN" is at most 9 bytes a value: 12 leaves room. */
	size_t size = strlen(w->sql) + (size_t)count * 12 + 8, len;
	char *sql;

	if (w->rows == 0)
		return HEED_OK;
	sql = heed__malloc(w->dst->alloc, size);
	if (!sql)
		return heed_diag_set(w->diag, HEED_ENOMEM, 0, 0,
		                     "out of memory writing %s", t->name);
	len = (size_t)snprintf(sql, size, "%s", w->sql);
	for (int v = 0; v < count && len < size; v++)
		len += (size_t)snprintf(sql + len, size - len, "%s$%d%s",
		                        v % n ? ", " : (v ? "), (" : "("),
		                        v + 1, v == count - 1 ? ");" : "");
	for (int v = 0; v < count; v++) {
		const struct pg_value *pv = &w->values[v];

		params[v] = pv->at == SIZE_MAX ? NULL : w->arena + pv->at;
		lengths[v] = pv->length;
		formats[v] = pv->format;
	}
	PGresult *r =
	        heed__pg_query_ex(w->dst, sql, count, params, lengths, formats);

	heed__free(w->dst->alloc, sql);
	w->rows = 0;
	w->used = 0;
	if (!r)
		return fail(w->dst, w->diag, "writing", t->name);
	PQclear(r);
	return HEED_OK;
}

static heed_status pg_write(struct writer *w, const struct copy_table *t,
                            const struct cell *cells)
{
	int n = ncolumns(t);
	struct pg_value *row = &w->values[w->rows * n];

	for (int c = 0; c < n; c++) {
		const struct cell *v = &cells[c];
		char num[HEED_PG_INT_SIZE];

		row[c].length = 0;
		row[c].format = 0;
		if (v->null) {
			row[c].at = SIZE_MAX;
			continue;
		}
		if (t->kinds[c] == 'i') {
			heed__pg_i64(num, v->i);
			row[c].at = keep(w, num, strlen(num));
		} else {
			/* Text up to its NUL, as libpq sends it; bytes as
			 * they are, a BYTEA parameter sent raw. */
			row[c].at = keep(w, v->p, v->n);
			if (t->kinds[c] != 't') {
				row[c].length = (int)v->n;
				row[c].format = 1;
			}
		}
		if (row[c].at == SIZE_MAX)
			return heed_diag_set(w->diag, HEED_ENOMEM, 0, 0,
			                     "out of memory writing %s",
			                     t->name);
	}
	if (++w->rows < w->max_rows)
		return HEED_OK;
	return pg_flush(w, t);
}

static heed_status write_row(void *ud, const struct copy_table *t,
                             const struct cell *cells)
{
	struct writer *w = ud;
	heed_status hs = is_pg(w->dst) ? pg_write(w, t, cells)
	                               : sqlite_write(w, t, cells);

	if (hs != HEED_OK)
		return hs;
	w->done++;
	if (w->progress && w->done % w->batch == 0)
		w->progress(w->ud, t->name, w->done, w->total);
	return HEED_OK;
}

/* The insert of t on w->dst: "VALUES(?, ?...)" for SQLite; for
 * PostgreSQL its head, pg_flush writes the rows' parameters. */
static void insert_sql(struct writer *w, const struct copy_table *t)
{
	bool pg = is_pg(w->dst);
	size_t len;

	len = (size_t)snprintf(
	        w->sql, sizeof(w->sql), "INSERT INTO %s(%s) %sVALUES", t->name,
	        t->columns,
	        pg && t->identity ? "OVERRIDING SYSTEM VALUE " : "");
	if (pg)
		return;
	for (int c = 0; c < ncolumns(t) && len < sizeof(w->sql); c++)
		len += (size_t)snprintf(w->sql + len, sizeof(w->sql) - len,
		                        "%s?", c ? ", " : "(");
	if (len < sizeof(w->sql))
		snprintf(w->sql + len, sizeof(w->sql) - len, ");");
}

/* PostgreSQL's identity would hand out 1, 2... again: move it past the
 * largest id copied, in the table's transaction. */
static heed_status pg_identity_after(heed_store *dst,
                                     const struct copy_table *t,
                                     struct heed_diag *diag)
{
	char sql[SQL_SIZE];

	snprintf(sql, sizeof(sql),
	         "SELECT setval(pg_get_serial_sequence('%s', 'id'), "
	         "coalesce(max(id), 0) + 1, false) FROM %s;",
	         t->name, t->name);
	if (heed__pg_run(dst, sql, 0, NULL, NULL) != HEED_OK)
		return fail(dst, diag, "moving the identity of", t->name);
	return HEED_OK;
}

static heed_status copy_table(heed_store *src, struct writer *w,
                              const struct copy_table *t)
{
	heed_status hs;

	w->done = 0;
	w->rows = 0;
	w->used = 0;
	w->max_rows = (int)(w->batch < PG_ROWS_MAX ? w->batch : PG_ROWS_MAX);
	hs = count_rows(src, t->name, &w->total, w->diag);
	if (hs != HEED_OK)
		return hs;
	insert_sql(w, t);
	if (!is_pg(w->dst) &&
	    sqlite3_prepare_v2(heed__sqlite_db(w->dst), w->sql, -1, &w->st,
	                       NULL) != SQLITE_OK)
		return fail(w->dst, w->diag, "writing", t->name);
	hs = heed_store_begin(w->dst);
	if (hs != HEED_OK)
		hs = fail(w->dst, w->diag, "writing", t->name);
	if (hs == HEED_OK)
		hs = read_rows(src, t, w->batch, write_row, w, w->diag);
	if (hs == HEED_OK && is_pg(w->dst))
		hs = pg_flush(w, t);
	if (hs == HEED_OK && t->identity && is_pg(w->dst))
		hs = pg_identity_after(w->dst, t, w->diag);
	if (hs == HEED_OK && heed_store_commit(w->dst) != HEED_OK)
		hs = fail(w->dst, w->diag, "committing", t->name);
	else if (hs != HEED_OK)
		heed_store_rollback(w->dst);
	sqlite3_finalize(w->st);
	w->st = NULL;
	if (hs == HEED_OK && w->progress)
		w->progress(w->ud, t->name, w->done, w->total);
	return hs;
}

/* ---- the checks before writing ---- */

/* Appends word to a list "a, b" in buf unless it is the last one added. */
static void list_add(char *buf, size_t size, const char **last,
                     const char *word)
{
	size_t len = strlen(buf);

	if (*last && strcmp(*last, word) == 0)
		return;
	*last = word;
	snprintf(buf + len, size - len, "%s%s", len ? ", " : "", word);
}

static heed_status check_areas(heed_store *src, heed_store *dst,
                               struct heed_diag *diag)
{
	char missing[256] = "", other[256] = "";
	const char *last = NULL, *last_other = NULL;

	for (size_t i = 0; i < HEED_ARRAY_SIZE(tables); i++) {
		const struct copy_table *t = &tables[i];
		int64_t rows = 0;

		if (!has_area(src, t->area) || has_area(dst, t->area))
			continue;
		heed_status hs = count_rows(src, t->name, &rows, diag);

		if (hs != HEED_OK)
			return hs;
		if (rows > 0)
			list_add(missing, sizeof(missing), &last, t->area);
	}
	if (missing[0])
		return heed_diag_set(diag, HEED_ENOTSUP, 0, 0,
		                     "the %s store does not have the %s "
		                     "area%s yet, which the source holds "
		                     "data in: nothing was copied",
		                     dst->backend->title, missing,
		                     strchr(missing, ',') ? "s" : "");
	for (const struct heed_store_area *const *a = dst->backend->areas; *a;
	     a++) {
		int v1 = 0, v2 = 0;

		if (!has_area(src, (*a)->name))
			continue;
		if (heed_store_schema_version(src, (*a)->name, &v1) !=
		            HEED_OK ||
		    heed_store_schema_version(dst, (*a)->name, &v2) != HEED_OK)
			return heed__store_fail(src, diag, "reading versions");
		if (v1 != v2)
			list_add(other, sizeof(other), &last_other, (*a)->name);
	}
	if (other[0])
		return heed_diag_set(diag, HEED_EDENIED, 0, 0,
		                     "the stores' %s areas are at different "
		                     "versions: open both with this heed's "
		                     "writers first; nothing was copied",
		                     other);
	return HEED_OK;
}

static bool copied(const heed_store *src, const heed_store *dst,
                   const struct copy_table *t)
{
	return has_area(src, t->area) && has_area(dst, t->area);
}

static heed_status check_empty(heed_store *src, heed_store *dst,
                               struct heed_diag *diag)
{
	char full[512] = "";
	const char *last = NULL;

	for (size_t i = 0; i < HEED_ARRAY_SIZE(tables); i++) {
		int64_t rows = 0;

		if (!copied(src, dst, &tables[i]))
			continue;
		heed_status hs = count_rows(dst, tables[i].name, &rows, diag);

		if (hs != HEED_OK)
			return hs;
		if (rows > 0)
			list_add(full, sizeof(full), &last, tables[i].name);
	}
	if (full[0])
		return heed_diag_set(diag, HEED_EDENIED, 0, 0,
		                     "the destination holds heed data already "
		                     "(%s): copy into a new store; nothing was "
		                     "copied",
		                     full);
	return HEED_OK;
}

heed_status heed_store_copy(heed_store *src, heed_store *dst, int64_t batch,
                            heed_store_copy_progress_fn *progress, void *ud,
                            struct heed_diag *diag)
{
	struct writer w = {
	        .dst = dst,
	        .batch = batch < 1 ? 1 : batch,
	        .progress = progress,
	        .ud = ud,
	        .diag = diag,
	};
	heed_status hs;

	if (!src || !dst || src == dst)
		return heed_diag_set(diag, HEED_EINVAL, 0, 0,
		                     "two different stores are needed");
	hs = heed_store_lock(src, diag);
	if (hs == HEED_OK)
		hs = heed_store_lock(dst, diag);
	if (hs == HEED_OK)
		hs = check_areas(src, dst, diag);
	if (hs == HEED_OK)
		hs = check_empty(src, dst, diag);
	for (size_t i = 0; hs == HEED_OK && i < HEED_ARRAY_SIZE(tables); i++)
		if (copied(src, dst, &tables[i]))
			hs = copy_table(src, &w, &tables[i]);
	heed__free(dst->alloc, w.arena);
	return hs;
}

/* ---- verifying ---- */

#define FNV_OFFSET 14695981039346656037ULL
#define FNV_PRIME  1099511628211ULL

struct sum {
	int64_t rows;
	uint64_t h;
};

static void feed(struct sum *s, const void *data, size_t len)
{
	const unsigned char *p = data;

	for (size_t i = 0; i < len; i++)
		s->h = (s->h ^ p[i]) * FNV_PRIME;
}

static void feed_u64(struct sum *s, uint64_t v)
{
	unsigned char b[8];

	for (int i = 0; i < 8; i++)
		b[i] = (unsigned char)(v >> (8 * i));
	feed(s, b, sizeof(b));
}

/* Each value as a tag, then the integer or the length and the bytes: the
 * same text gives the same sum whichever backend holds it. */
static heed_status sum_row(void *ud, const struct copy_table *t,
                           const struct cell *cells)
{
	struct sum *s = ud;

	s->rows++;
	feed(s, "r", 1);
	for (int c = 0; c < ncolumns(t); c++) {
		if (cells[c].null) {
			feed(s, "n", 1);
		} else if (t->kinds[c] == 'i') {
			feed(s, "i", 1);
			feed_u64(s, (uint64_t)cells[c].i);
		} else {
			feed(s, "s", 1);
			feed_u64(s, cells[c].n);
			feed(s, cells[c].p, cells[c].n);
		}
	}
	return HEED_OK;
}

#define VERIFY_BATCH 1000

heed_status heed_store_copy_verify(heed_store *src, heed_store *dst,
                                   heed_store_copy_check_fn *fn, void *ud,
                                   struct heed_diag *diag)
{
	const char *differs = NULL;

	for (size_t i = 0; i < HEED_ARRAY_SIZE(tables); i++) {
		const struct copy_table *t = &tables[i];
		struct sum a = {0, FNV_OFFSET}, b = {0, FNV_OFFSET};
		heed_status hs;

		if (!copied(src, dst, t))
			continue;
		hs = read_rows(src, t, VERIFY_BATCH, sum_row, &a, diag);
		if (hs == HEED_OK)
			hs = read_rows(dst, t, VERIFY_BATCH, sum_row, &b, diag);
		if (hs != HEED_OK)
			return hs;
		struct heed_store_copy_check c = {t->name, a.rows, b.rows, a.h,
		                                  b.h};

		if (fn)
			fn(ud, &c);
		if (!differs && (a.rows != b.rows || a.h != b.h))
			differs = t->name;
	}
	if (differs)
		return heed_diag_set(diag, HEED_EDENIED, 0, 0,
		                     "table %s differs between the stores",
		                     differs);
	return HEED_OK;
}
