/*
 * The backend-neutral loops over a statement (src/store/sql-int.h): run,
 * every row, the one row, and the row callback that reads one integer. Each
 * releases the statement whatever happens, so an area never leaks one on an
 * error path.
 */
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
