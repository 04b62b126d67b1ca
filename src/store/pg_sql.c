/*
 * The statement interface (src/store/sql-int.h) on PostgreSQL: SQLite's
 * markers ?N become $M, numbered in the order they first appear, once
 * per statement text; the parameters go as text through heed__pg_query
 * and heed__pg_run, so a written-once statement takes the same path as
 * a hand-written one (pipelined writes, batches done again, statements
 * planned once: src/store/pg.c).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/pg-int.h"
#include "store/sql-int.h"

/* bytea's type OID, fixed in PostgreSQL's catalog since the start
 * (pg_type.dat); the server's headers that name it are not libpq's. */
#define PG_BYTEA_OID 17

_Static_assert(HEED__SQL_INT_SIZE == HEED_PG_INT_SIZE,
               "an integer parameter's room is libpq's text of it");

/* A statement text translated for PostgreSQL, found by the address of
 * the area's literal. */
struct heed__pg_sql {
	const char *source;
	char *text; /* owned */
	unsigned char slot[HEED__SQL_PARAMS + 1];
	int nparams;
};

/* Copies source into t->text with each ?N written $M; quoted strings and
 * names are copied as they are, and a '?' without digits too (it is an
 * operator to PostgreSQL). HEED_EINVAL for a marker out of range. */
static heed_status translate(const char *source, struct heed__pg_sql *t)
{
	char *o = t->text;
	char quote = 0;

	for (const char *s = source; *s;) {
		if (quote) {
			quote = *s == quote ? 0 : quote;
			*o++ = *s++;
		} else if (*s == '\'' || *s == '"') {
			quote = *s;
			*o++ = *s++;
		} else if (*s == '?' && s[1] >= '0' && s[1] <= '9') {
			char *end;
			long n = strtol(s + 1, &end, 10);
			s = end;
			if (n < 1 || n > HEED__SQL_PARAMS)
				return HEED_EINVAL;
			if (!t->slot[n])
				t->slot[n] = (unsigned char)++t->nparams;
			/* $M is never longer than ?N: M <= N. */
			o += sprintf(o, "$%d", t->slot[n]);
		} else {
			*o++ = *s++;
		}
	}
	*o = '\0';
	return HEED_OK;
}

/* The translation of source, made the first time: NULL with the reason
 * recorded. */
static const struct heed__pg_sql *translation(heed_store *store,
                                              const char *source)
{
	struct heed__pg *pg = store->pg;
	struct heed__pg_sql *t;

	for (int i = 0; i < pg->sql_count; i++)
		if (pg->sqls[i].source == source)
			return &pg->sqls[i];
	if (pg->sql_count == pg->sql_room) {
		int room = pg->sql_room ? 2 * pg->sql_room : 32;
		t = heed__realloc(store->alloc, pg->sqls,
		                  (size_t)room * sizeof(*t));
		if (!t)
			goto oom;
		pg->sqls = t;
		pg->sql_room = room;
	}
	t = &pg->sqls[pg->sql_count];
	*t = (struct heed__pg_sql){.source = source};
	if (!(t->text = heed__malloc(store->alloc, strlen(source) + 1)))
		goto oom;
	if (translate(source, t) != HEED_OK) {
		heed__free(store->alloc, t->text);
		snprintf(store->errmsg, sizeof(store->errmsg),
		         "a statement's marker is outside ?1 to ?%d: %.80s",
		         HEED__SQL_PARAMS, source);
		return NULL;
	}
	pg->sql_count++;
	return t;
oom:
	snprintf(store->errmsg, sizeof(store->errmsg), "out of memory");
	return NULL;
}

void heed__pg_sql_forget(heed_store *store)
{
	struct heed__pg *pg = store->pg;

	for (int i = 0; i < pg->sql_count; i++)
		heed__free(store->alloc, pg->sqls[i].text);
	heed__free(store->alloc, pg->sqls);
	pg->sqls = NULL;
	pg->sql_count = pg->sql_room = 0;
}

static heed_status pg_prepare(struct heed__sql *q, const char *sql)
{
	const struct heed__pg_sql *t = translation(q->store, sql);

	if (!t)
		return HEED_ESTORE;
	q->text = t->text;
	memcpy(q->slot, t->slot, sizeof(q->slot));
	q->nparams = t->nparams;
	for (int i = 0; i < q->nparams; i++) {
		q->params[i] = NULL;
		q->formats[i] = 0;
	}
	q->binary = q->too_long = false;
	return HEED_OK;
}

/* The $M that ?i became, or 0 when the text has no ?i (or i is out of
 * range: nothing is bound). */
static int slot_of(const struct heed__sql *q, int i)
{
	return i >= 1 && i <= HEED__SQL_PARAMS ? q->slot[i] : 0;
}

static void pg_bind_text(struct heed__sql *q, int i, const char *s)
{
	int m = slot_of(q, i);

	if (m)
		q->params[m - 1] = s;
}

static void pg_bind_int(struct heed__sql *q, int i, int64_t v)
{
	int m = slot_of(q, i);

	if (m)
		q->params[m - 1] = heed__pg_i64(q->digits[m - 1], v);
}

static void pg_bind_bytes(struct heed__sql *q, int i, const char *p, size_t len)
{
	int m = slot_of(q, i);

	if (!m)
		return;
	q->params[m - 1] = p;
	q->lengths[m - 1] = len > INT_MAX ? 0 : (int)len;
	q->formats[m - 1] = 1;
	q->binary = true;
	if (len > INT_MAX)
		q->too_long = true;
}

/* The lengths and formats arrays for libpq: NULL when every parameter is
 * text. */
#define LENGTHS(q) ((q)->binary ? (q)->lengths : NULL)
#define FORMATS(q) ((q)->binary ? (q)->formats : NULL)

/* HEED_EINVAL recorded when a parameter is longer than libpq takes. */
static heed_status refuse_long(struct heed__sql *q)
{
	snprintf(q->store->errmsg, sizeof(q->store->errmsg),
	         "a value of over %d bytes cannot be sent to PostgreSQL",
	         INT_MAX);
	return HEED_EINVAL;
}

/* The statement's bound on the held rows it sees, if it has one. */
#define SCOPE(q) ((q)->scope.kind ? &(q)->scope : NULL)

static heed_status pg_next(struct heed__sql *q, bool *row)
{
	*row = false;
	if (q->too_long)
		return refuse_long(q);
	if (!q->result) {
		const struct heed__pg_stmt st = {
		        q->text,    q->nparams, q->params, LENGTHS(q),
		        FORMATS(q), false,      q->blind,  SCOPE(q)};
		PGresult *r = heed__pg_query_st(q->store, &st);
		if (!r)
			return heed__pg_failed(q->store);
		q->result = r;
		q->rows = PQntuples(r);
		q->row = -1;
	}
	if (q->row < q->rows)
		q->row++;
	*row = q->row < q->rows;
	return HEED_OK;
}

/* Holds q's row back (src/store/pg_held.c): heed__pg_hold's status. */
static heed_status hold(struct heed__sql *q)
{
	const char *values[HEED__SQL_PARAMS];

	for (int i = 1; i <= q->held->params; i++)
		values[i - 1] = q->slot[i] ? q->params[q->slot[i] - 1] : NULL;
	return heed__pg_hold(q->store, q->held, values);
}

static heed_status pg_run(struct heed__sql *q, int64_t *changed)
{
	const struct heed__pg_stmt st = {q->text,    q->nparams, q->params,
	                                 LENGTHS(q), FORMATS(q), false,
	                                 q->blind,   SCOPE(q)};

	if (q->too_long)
		return refuse_long(q);
	/* Out of memory to hold it, the row is sent at once, after the
	 * rows held before it (it sees them all). */
	if (q->held && !changed && !q->binary && heed__pg_may_hold(q->store)) {
		heed_status rc = hold(q);
		/* A row whose answer is awaited cannot go without it. */
		if (rc != HEED_ENOMEM || q->held->answer)
			return rc;
	}
	return heed__pg_run_st(q->store, &st, changed);
}

static const char *pg_text(struct heed__sql *q, int col)
{
	return heed__pg_text(q->result, q->row, col);
}

static int64_t pg_integer(struct heed__sql *q, int col, int64_t absent)
{
	return heed__pg_int(q->result, q->row, col, absent);
}

static char *pg_bytes(struct heed__sql *q, int col, size_t *len, bool *oom)
{
	PGresult *r = q->result;

	/* A text column comes as its characters, a bytea escaped. */
	if (PQftype(r, col) != PG_BYTEA_OID) {
		char *copy = heed__pg_dup(q->store, r, q->row, col, oom);
		if (len)
			*len = copy ? strlen(copy) : 0;
		return copy;
	}
	return heed__pg_bytes(q->store, r, q->row, col, len, oom);
}

static void pg_release(struct heed__sql *q)
{
	PQclear(q->result);
	q->result = NULL;
}

void heed__pg_read_page(const PGresult *r, int i, int first,
                        struct heed_stored_page *p)
{
	struct heed__sql q = {
	        .ops = &heed__pg_sql_ops, .result = (PGresult *)r, .row = i};

	heed__page_read(&q, first, p);
}

const struct heed__sql_ops heed__pg_sql_ops = {
        .dialect = HEED__SQL_PG,
        .prepare = pg_prepare,
        .bind_text = pg_bind_text,
        .bind_int = pg_bind_int,
        .bind_bytes = pg_bind_bytes,
        .bind_raw = pg_bind_bytes,
        .no_limit_is_null = true,
        .next = pg_next,
        .run = pg_run,
        .text = pg_text,
        .integer = pg_integer,
        .bytes = pg_bytes,
        .release = pg_release,
        .may_hold = heed__pg_may_hold,
        .send_held = heed__pg_held_send,
};
