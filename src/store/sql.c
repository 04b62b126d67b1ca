/*
 * The backend-neutral loops over a statement (src/store/sql-int.h): run,
 * every row, the one row, and the row callback that reads one integer. Each
 * releases the statement whatever happens, so an area never leaks one on an
 * error path.
 */
#include <string.h>

#include "store/sql-int.h"

heed_status heed__sql_run(struct heed__sql *q, int64_t *changed)
{
	heed_status rc = q->ops->run(q, changed);

	q->ops->release(q);
	return rc;
}

heed_status heed__sql_each(struct heed__sql *q,
                           int (*fn)(struct heed__sql *q, void *ctx), void *ctx)
{
	heed_status rc;
	bool row;

	while ((rc = q->ops->next(q, &row)) == HEED_OK && row)
		if (fn(q, ctx))
			break;
	q->ops->release(q);
	return rc;
}

heed_status heed__sql_one(struct heed__sql *q,
                          int (*fn)(struct heed__sql *q, void *ctx), void *ctx)
{
	bool row = false;
	heed_status rc = q->ops->next(q, &row);

	if (rc == HEED_OK && row)
		fn(q, ctx);
	else if (rc == HEED_OK)
		rc = HEED_ENOTFOUND;
	q->ops->release(q);
	return rc;
}

int heed__sql_read_int(struct heed__sql *q, void *ctx)
{
	*(int64_t *)ctx = heed__sql_col_int(q, 0, 0);
	return 1;
}

int heed__sql_read_ordinal(struct heed__sql *q, void *ctx)
{
	struct heed__sql_ordinal *o = ctx;
	int64_t i = heed__sql_col_int(q, 0, 0);

	if (i >= 1 && (size_t)i <= o->n)
		o->out[i - 1] = heed__sql_col_int(q, 1, 0);
	return 0;
}

char *heed__sql_lines(heed_store *store, const char *const *s, size_t n)
{
	size_t len = 1;
	char *out, *o;

	for (size_t i = 0; i < n; i++)
		len += strlen(s[i]) + 1;
	if (!(out = o = heed__malloc(store->alloc, len)))
		return NULL;
	for (size_t i = 0; i < n; i++) {
		size_t l = strlen(s[i]);
		memcpy(o, s[i], l);
		o += l;
		if (i + 1 < n)
			*o++ = '\n';
	}
	*o = '\0';
	return out;
}

/* A row of heed__sql_each_part: fn's answer kept, to stop the list's
 * later parts too. */
struct part_rows {
	int (*fn)(struct heed__sql *q, void *ctx);
	void *ctx;
	bool stop;
};

static int part_row(struct heed__sql *q, void *ctx)
{
	struct part_rows *p = ctx;

	p->stop = p->fn(q, p->ctx) != 0;
	return p->stop;
}

heed_status heed__sql_each_part(heed_store *store, const char *const *items,
                                size_t n, heed__sql_part_fn *prepare,
                                int (*fn)(struct heed__sql *q, void *ctx),
                                void *ctx)
{
	size_t per = heed__sql_dialect(store) == HEED__SQL_PG
	                     ? HEED__SQL_LIST_MAX
	                     : 1;
	struct part_rows rows = {fn, ctx, false};
	heed_status rc = HEED_OK;

	for (size_t at = 0; at < n && rc == HEED_OK && !rows.stop; at += per) {
		size_t k = n - at < per ? n - at : per;
		char *lines =
		        k > 1 ? heed__sql_lines(store, items + at, k) : NULL;
		struct heed__sql q;
		if (k > 1 && !lines)
			return HEED_ENOMEM;
		rc = prepare(&q, items + at, k, at, lines ? lines : items[at],
		             ctx);
		if (rc == HEED_OK)
			rc = heed__sql_each(&q, part_row, &rows);
		heed__free(store->alloc, lines);
	}
	return rc;
}
