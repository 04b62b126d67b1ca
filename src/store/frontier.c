/*
 * The frontier area's front (include/heed/store_frontier.h): checks the
 * arguments, then hands each call to the store's backend
 * (src/store/sqlite_frontier.c, src/store/pg_frontier.c). No SQL here.
 */
#include <string.h>

#include "store/store-int.h"

const char *heed_frontier_state_name(heed_frontier_state state)
{
	static const char *const names[] = {"queued", "in-flight", "done",
	                                    "dropped"};

	if ((unsigned)state >= HEED_ARRAY_SIZE(names))
		return "unknown";
	return names[state];
}

const char *heed_frontier_kind_name(heed_frontier_kind kind)
{
	static const char *const names[] = {"page", "sitemap", "feed",
	                                    "oembed"};

	if ((unsigned)kind >= HEED_ARRAY_SIZE(names))
		return "unknown";
	return names[kind];
}

/* Calls the backend's fn with the arguments after it, or returns
 * HEED_ENOTSUP from the calling function. */
#define FRONTIER(store, fn, ...) \
	HEED_STORE_CALL(store, frontier, fn, __VA_ARGS__)

heed_status heed_store_frontier_add(heed_store *store,
                                    const struct heed_frontier_entry *e,
                                    bool *added)
{
	if (added)
		*added = false;
	if (!e->url || !e->host)
		return HEED_EINVAL;
	FRONTIER(store, add, e, added);
}

heed_status heed_store_frontier_requeue(heed_store *store,
                                        const struct heed_frontier_entry *e)
{
	if (!e->url || !e->host)
		return HEED_EINVAL;
	FRONTIER(store, requeue, e);
}

heed_status heed_store_frontier_queued(heed_store *store, const char *host,
                                       int64_t after_id, int max,
                                       heed_store_frontier_fn *fn, void *ud)
{
	FRONTIER(store, queued, host, after_id, max, fn, ud);
}

heed_status heed_store_frontier_set_state(heed_store *store, int64_t id,
                                          heed_frontier_state state,
                                          int outcome)
{
	FRONTIER(store, set_state, id, state, outcome);
}

heed_status heed_store_frontier_retry(heed_store *store, int64_t id, int *tries)
{
	if (tries)
		*tries = 0;
	FRONTIER(store, retry, id, tries);
}

heed_status heed_store_frontier_recover(heed_store *store, int64_t *requeued)
{
	if (requeued)
		*requeued = 0;
	FRONTIER(store, recover, requeued);
}

heed_status heed_store_frontier_recover_host(heed_store *store,
                                             const char *host,
                                             int64_t *requeued)
{
	if (requeued)
		*requeued = 0;
	if (!host)
		return HEED_EINVAL;
	FRONTIER(store, recover_host, host, requeued);
}

heed_status heed_store_frontier_drop_host(heed_store *store, const char *host,
                                          int64_t *dropped)
{
	if (dropped)
		*dropped = 0;
	FRONTIER(store, drop_host, host, dropped);
}

heed_status heed_store_frontier_undrop_host(heed_store *store, const char *host,
                                            int64_t *requeued)
{
	if (requeued)
		*requeued = 0;
	FRONTIER(store, undrop_host, host, requeued);
}

heed_status heed_store_frontier_hosts(heed_store *store,
                                      heed_store_frontier_host_fn *fn, void *ud)
{
	FRONTIER(store, hosts, fn, ud);
}

heed_status heed_store_frontier_counts(heed_store *store, int64_t counts[4])
{
	memset(counts, 0, 4 * sizeof(counts[0]));
	FRONTIER(store, counts, counts);
}

heed_status heed_store_frontier_clear(heed_store *store)
{
	const struct heed__frontier_ops *f = heed__store_ops(store, frontier);

	return f ? f->clear(store) : HEED_ENOTSUP;
}

heed_status heed_store_run_begin(heed_store *store, const char *mode,
                                 int64_t started_at, int64_t *id)
{
	*id = 0;
	FRONTIER(store, run_begin, mode, started_at, id);
}

heed_status heed_store_run_open(heed_store *store, struct heed_crawl_run *run)
{
	memset(run, 0, sizeof(*run));
	FRONTIER(store, run_open, run);
}

heed_status heed_store_run_last(heed_store *store, const char *mode,
                                struct heed_crawl_run *run)
{
	memset(run, 0, sizeof(*run));
	FRONTIER(store, run_last, mode, run);
}

/* The body of run_join, inside its transaction: the latest open run, or
 * a new one on a cleared frontier. The backend's own run_open, clear and
 * run_begin, so joining reads and writes exactly what they do. */
static heed_status join_run(heed_store *store,
                            const struct heed__frontier_ops *f,
                            const char *mode, int64_t started_at,
                            struct heed_crawl_run *run, bool *joined)
{
	heed_status rc = f->run_open(store, run);
	int64_t id = 0;

	if (rc == HEED_OK) {
		*joined = true;
		return HEED_OK;
	}
	if (rc != HEED_ENOTFOUND)
		return rc;
	rc = f->clear(store);
	if (rc == HEED_OK)
		rc = f->run_begin(store, mode, started_at, &id);
	if (rc == HEED_OK)
		rc = f->run_open(store, run);
	return rc;
}

heed_status heed_store_run_join(heed_store *store, const char *mode,
                                int64_t started_at, struct heed_crawl_run *run,
                                bool *joined)
{
	const struct heed__frontier_ops *f = heed__store_ops(store, frontier);
	heed_status rc;

	memset(run, 0, sizeof(*run));
	*joined = false;
	if (!mode || !*mode)
		return HEED_EINVAL;
	if (!f)
		return HEED_ENOTSUP;
	rc = f->join_begin(store);
	if (rc != HEED_OK)
		return rc;
	rc = join_run(store, f, mode, started_at, run, joined);
	if (rc == HEED_OK)
		rc = heed_store_commit(store);
	if (rc != HEED_OK) {
		/* Also after a failed COMMIT, which may leave the transaction
		 * open (SQLite, busy); a ROLLBACK with none open is harmless
		 * on both backends. */
		(void)heed_store_rollback(store);
		memset(run, 0, sizeof(*run));
		*joined = false;
	}
	return rc;
}

heed_status heed_store_run_add(heed_store *store, int64_t id, int64_t pages,
                               int64_t errors)
{
	FRONTIER(store, run_add, id, pages, errors);
}

heed_status heed_store_run_finish(heed_store *store, int64_t id,
                                  int64_t finished_at)
{
	FRONTIER(store, run_finish, id, finished_at);
}

heed_status heed_store_crawl_lease_get(heed_store *store, int64_t *until_ms)
{
	*until_ms = 0;
	FRONTIER(store, lease_get, until_ms);
}

heed_status heed_store_crawl_lease_set(heed_store *store, int64_t until_ms)
{
	FRONTIER(store, lease_set, until_ms);
}
