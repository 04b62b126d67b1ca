/*
 * The statements of a batch, kept until it ends, so that the PostgreSQL
 * backend can do the batch again by itself when the server loses it (a
 * restart, a cut connection, a deadlock it broke by aborting the batch):
 * see pg.c, "Batches done again". Without them the crawl could only start
 * its sites again from what was committed, and ask their servers again
 * for every URL the lost batch had recorded.
 *
 * Each kept statement carries a fingerprint of the answer the server gave
 * it. Done again, a statement must get the same answer: a read the same
 * rows, a write the same count of rows. A different answer means another
 * session changed what the batch read (a lease taken over), and the
 * caller may have acted on the first answer, so the batch cannot be
 * carried on as it was: it is given up. What the server chose in the
 * first answer (the ids a sequence gave new rows, which a later read of
 * the batch shows) is bound into the kept statement once answered
 * (heed__pg_redo_rebind), so that doing it again chooses the same.
 */
#include <stdio.h>
#include <string.h>

#include "store/pg-int.h"

/* One kept statement; sql and the parameters' bytes follow it in the
 * same allocation. */
struct kept {
	const char *sql;
	int n;
	bool simple;
	bool answered;
	uint64_t answer;
	const char **params;
	int *lengths;
	int *formats;
};

struct heed__pg_redo {
	const struct heed_allocator *alloc;
	struct kept **stmts;
	size_t count, cap;
	char xid[HEED_PG_INT_SIZE]; /* the batch's transaction, "" unknown */
};

struct heed__pg_redo *heed__pg_redo_new(const struct heed_allocator *alloc)
{
	struct heed__pg_redo *log = heed__calloc(alloc, 1, sizeof(*log));

	if (log)
		log->alloc = alloc;
	return log;
}

void heed__pg_redo_clear(struct heed__pg_redo *log)
{
	for (size_t i = 0; i < log->count; i++)
		heed__free(log->alloc, log->stmts[i]);
	log->count = 0;
	log->xid[0] = '\0';
}

void heed__pg_redo_free(struct heed__pg_redo *log)
{
	if (!log)
		return;
	heed__pg_redo_clear(log);
	heed__free(log->alloc, log->stmts);
	heed__free(log->alloc, log);
}

void heed__pg_redo_set_xid(struct heed__pg_redo *log, const char *xid)
{
	snprintf(log->xid, sizeof(log->xid), "%s", xid ? xid : "");
}

const char *heed__pg_redo_xid(const struct heed__pg_redo *log)
{
	return log->xid[0] ? log->xid : NULL;
}

size_t heed__pg_redo_count(const struct heed__pg_redo *log)
{
	return log->count;
}

/* Bytes of parameter i as sent: lengths[i] raw bytes when formats[i] is
 * 1, else a NUL-terminated text. */
static size_t param_len(const struct heed__pg_stmt *st, int i)
{
	if (!st->params[i])
		return 0;
	if (st->formats && st->formats[i] == 1 && st->lengths)
		return (size_t)st->lengths[i];
	return strlen(st->params[i]) + 1;
}

/* A copy of st in one allocation, or NULL when out of memory. */
static struct kept *copy_stmt(const struct heed_allocator *alloc,
                              const struct heed__pg_stmt *st)
{
	size_t sql_len = strlen(st->sql) + 1, size = sizeof(struct kept);
	struct kept *k;
	char *p;

	size += (size_t)st->n * (sizeof(char *) + 2 * sizeof(int));
	for (int i = 0; i < st->n; i++)
		size += param_len(st, i);
	size += sql_len;
	k = heed__malloc(alloc, size);
	if (!k)
		return NULL;
	memset(k, 0, sizeof(*k));
	k->n = st->n;
	k->simple = st->simple;
	k->params = (const char **)(k + 1);
	k->lengths = (int *)(k->params + st->n);
	k->formats = k->lengths + st->n;
	p = (char *)(k->formats + st->n);
	for (int i = 0; i < st->n; i++) {
		size_t len = param_len(st, i);
		bool binary = st->formats && st->formats[i] == 1;
		k->formats[i] = binary ? 1 : 0;
		k->lengths[i] = binary ? st->lengths[i] : 0;
		k->params[i] = st->params[i] ? p : NULL;
		if (len)
			memcpy(p, st->params[i], len);
		p += len;
	}
	memcpy(p, st->sql, sql_len);
	k->sql = p;
	return k;
}

heed_status heed__pg_redo_keep(struct heed__pg_redo *log,
                               const struct heed__pg_stmt *st)
{
	struct kept *k;

	if (log->count == log->cap) {
		size_t cap = log->cap ? log->cap * 2 : 64;
		struct kept **n =
		        heed__realloc(log->alloc, log->stmts, cap * sizeof(*n));
		if (!n)
			return HEED_ENOMEM;
		log->stmts = n;
		log->cap = cap;
	}
	k = copy_stmt(log->alloc, st);
	if (!k)
		return HEED_ENOMEM;
	log->stmts[log->count++] = k;
	return HEED_OK;
}

/* Folds v into h (the mixing step of boost's hash_combine, 64-bit). */
static uint64_t fold(uint64_t h, uint64_t v)
{
	return h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2));
}

uint64_t heed__pg_redo_fingerprint(const PGresult *r)
{
	uint64_t h = fold(0, (uint64_t)PQresultStatus(r));
	int rows, cols;

	if (PQresultStatus(r) != PGRES_TUPLES_OK)
		return fold(h, heed__hash_str(PQcmdTuples((PGresult *)r)));
	rows = PQntuples(r);
	cols = PQnfields(r);
	h = fold(fold(h, (uint64_t)rows), (uint64_t)cols);
	for (int i = 0; i < rows; i++)
		for (int j = 0; j < cols; j++)
			h = fold(h, PQgetisnull(r, i, j)
			                    ? 0
			                    : heed__hash(PQgetvalue(r, i, j),
			                                 (size_t)PQgetlength(
			                                         r, i, j)));
	return h;
}

heed_status heed__pg_redo_rebind(struct heed__pg_redo *log, size_t i, int param,
                                 const char *value)
{
	struct kept *k, *old;
	struct heed__pg_stmt st;
	const char **params;

	if (i >= log->count || param < 0 || param >= log->stmts[i]->n)
		return HEED_EINVAL;
	old = log->stmts[i];
	heed__pg_redo_get(log, i, &st);
	params = heed__malloc(log->alloc, (size_t)st.n * sizeof(*params));
	if (!params)
		return HEED_ENOMEM;
	memcpy(params, st.params, (size_t)st.n * sizeof(*params));
	params[param] = value;
	st.params = params;
	k = copy_stmt(log->alloc, &st);
	heed__free(log->alloc, params);
	if (!k)
		return HEED_ENOMEM;
	k->answered = old->answered;
	k->answer = old->answer;
	log->stmts[i] = k;
	heed__free(log->alloc, old);
	return HEED_OK;
}

void heed__pg_redo_answered(struct heed__pg_redo *log, size_t i,
                            uint64_t fingerprint)
{
	if (i < log->count) {
		log->stmts[i]->answered = true;
		log->stmts[i]->answer = fingerprint;
	}
}

void heed__pg_redo_get(const struct heed__pg_redo *log, size_t i,
                       struct heed__pg_stmt *st)
{
	const struct kept *k = log->stmts[i];

	st->sql = k->sql;
	st->n = k->n;
	st->params = k->params;
	st->lengths = k->lengths;
	st->formats = k->formats;
	st->simple = k->simple;
}

bool heed__pg_redo_same(struct heed__pg_redo *log, size_t i,
                        uint64_t fingerprint)
{
	struct kept *k = log->stmts[i];

	if (!k->answered) {
		/* Sent in a pipeline, lost before its answer was read. */
		k->answered = true;
		k->answer = fingerprint;
		return true;
	}
	return k->answer == fingerprint;
}
