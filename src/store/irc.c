/*
 * The IRC area's front (include/heed/store_irc.h): the writer's batching and
 * the calls handed to the store's backend (src/store/sqlite_irc.c,
 * src/store/pg_irc.c). No SQL here.
 *
 * Workload: a crawl streams one row per 322 line (up to hundreds of
 * thousands per network) while several networks are visited at once, so
 * the writer groups rows into transactions of BATCH_ROWS, committed early
 * at the end of each visit.
 */
#include <string.h>

#include "store/store-int.h"

/* Rows per transaction: large enough that commits cost little, small
 * enough that a crash loses only seconds of a huge LIST. */
#define BATCH_ROWS 5000

struct heed_store_irc {
	heed_store *store;
	const struct heed__irc_ops *ops;
	bool in_tx;
	int pending;
};

heed_status heed_store_irc_new(heed_store_irc **out, heed_store *store)
{
	const struct heed__irc_ops *o = heed__store_ops(store, irc);

	*out = NULL;
	if (!o)
		return HEED_ENOTSUP;
	*out = heed__calloc(store->alloc, 1, sizeof(**out));
	if (!*out)
		return HEED_ENOMEM;
	(*out)->store = store;
	(*out)->ops = o;
	return HEED_OK;
}

heed_status heed_store_irc_flush(heed_store_irc *w)
{
	heed_status rc;

	if (!w->in_tx)
		return HEED_OK;
	w->in_tx = false;
	w->pending = 0;
	/* HEED_ERETRY: PostgreSQL's connection went with the batch (nothing
	 * of it was written); the rollback ends the lost transaction. */
	rc = heed_store_commit(w->store);
	if (rc != HEED_OK) {
		heed_store_rollback(w->store);
		return rc == HEED_ERETRY ? rc : HEED_ESTORE;
	}
	return HEED_OK;
}

void heed_store_irc_free(heed_store_irc *w)
{
	if (!w)
		return;
	heed_store_irc_flush(w);
	heed__free(w->store->alloc, w);
}

/* Opens the batch transaction when none is open. */
static heed_status batch(heed_store_irc *w)
{
	heed_status rc;

	if (w->in_tx)
		return HEED_OK;
	rc = heed_store_begin(w->store);
	if (rc != HEED_OK)
		return rc == HEED_ERETRY ? rc : HEED_ESTORE;
	w->in_tx = true;
	return HEED_OK;
}

/* Counts a write that returned rc; commits every BATCH_ROWS. */
static heed_status counted(heed_store_irc *w, heed_status rc)
{
	if (rc != HEED_OK)
		return rc;
	if (++w->pending >= BATCH_ROWS)
		return heed_store_irc_flush(w);
	return HEED_OK;
}

/* One write of the batch: the backend's fn with the arguments after it. */
#define WRITE(w, fn, ...)                                                 \
	do {                                                              \
		if (batch(w) != HEED_OK)                                  \
			return HEED_ESTORE;                               \
		return counted(w, (w)->ops->fn((w)->store, __VA_ARGS__)); \
	} while (0)

heed_status heed_store_irc_network(heed_store_irc *w, const char *key,
                                   int64_t now_s, int64_t *id,
                                   int64_t *next_visit_s)
{
	WRITE(w, network, key, now_s, id, next_visit_s);
}

heed_status heed_store_irc_visit_begin(heed_store_irc *w, int64_t network_id,
                                       const char *host, int port, bool tls,
                                       int64_t started_s, int64_t *visit_id)
{
	WRITE(w, visit_begin, network_id, host, port, tls, started_s, visit_id);
}

heed_status heed_store_irc_visit_server(heed_store_irc *w, int64_t visit_id,
                                        const char *server_name,
                                        const char *server_version,
                                        const char *network_name)
{
	WRITE(w, visit_server, visit_id, server_name, server_version,
	      network_name);
}

heed_status heed_store_irc_visit_lusers(heed_store_irc *w, int64_t visit_id,
                                        const struct heed_irc_lusers *l)
{
	WRITE(w, visit_lusers, visit_id, l);
}

heed_status heed_store_irc_preference(heed_store_irc *w, int64_t network_id,
                                      int64_t visit_id, const char *server_name,
                                      const char *raw_value,
                                      const struct heed_irc_crawler_pref *p,
                                      int64_t seen_s)
{
	WRITE(w, preference, network_id, visit_id, server_name, raw_value, p,
	      seen_s);
}

heed_status heed_store_irc_server(heed_store_irc *w, int64_t network_id,
                                  int64_t visit_id, const char *name,
                                  const char *hub, int hops,
                                  const char *description, int64_t seen_s)
{
	WRITE(w, server, network_id, visit_id, name, hub, hops, description,
	      seen_s);
}

heed_status heed_store_irc_channel(heed_store_irc *w, int64_t network_id,
                                   int64_t visit_id, const char *name,
                                   int64_t users, const char *topic,
                                   size_t topic_len, int64_t seen_s)
{
	WRITE(w, channel, network_id, visit_id, name, users, topic, topic_len,
	      seen_s);
}

heed_status heed_store_irc_visit_end(heed_store_irc *w, int64_t network_id,
                                     int64_t visit_id,
                                     heed_irc_visit_status status,
                                     const char *reason,
                                     const struct heed_irc_crawler_pref *pref,
                                     int64_t ended_s, int64_t next_visit_s)
{
	heed_status rc;

	if (batch(w) != HEED_OK)
		return HEED_ESTORE;
	rc = w->ops->visit_end(w->store, network_id, visit_id, status, reason,
	                       pref, ended_s, next_visit_s);
	if (rc != HEED_OK)
		return rc;
	/* The cooldown must survive a crash right after the visit. */
	return heed_store_irc_flush(w);
}

heed_status heed_store_irc_sts_set(heed_store_irc *w, const char *host,
                                   int port, int64_t expires_s)
{
	WRITE(w, sts_set, host, port, expires_s);
}

/* Calls the backend's fn with the arguments after it, or returns
 * HEED_ENOTSUP from the calling function. */
#define IRC(store, fn, ...) HEED_STORE_CALL(store, irc, fn, __VA_ARGS__)

heed_status heed_store_irc_sts_get(heed_store *store, const char *host,
                                   int64_t now_s, int *port)
{
	*port = 0;
	IRC(store, sts_get, host, now_s, port);
}

heed_status heed_store_irc_next_visit(heed_store *store, const char *key,
                                      int64_t *next_visit_s)
{
	*next_visit_s = 0;
	IRC(store, next_visit, key, next_visit_s);
}

heed_status heed_store_irc_reset(heed_store *store, const char *key,
                                 int64_t *next_visit_s)
{
	if (next_visit_s)
		*next_visit_s = 0;
	IRC(store, reset, key, next_visit_s);
}

heed_status heed_store_irc_each_network(heed_store *store,
                                        heed_store_irc_network_fn *fn, void *ud)
{
	IRC(store, each_network, fn, ud);
}

heed_status heed_store_irc_each_channel(heed_store *store,
                                        const char *network_key,
                                        heed_store_irc_channel_fn *fn, void *ud)
{
	IRC(store, each_channel, network_key, fn, ud);
}

heed_status heed_store_irc_each_server(heed_store *store,
                                       const char *network_key,
                                       heed_store_irc_server_fn *fn, void *ud)
{
	IRC(store, each_server, network_key, fn, ud);
}

/* Preferences worth recording on the network: a token read this visit. */
bool heed__irc_visit_read_token(heed_irc_visit_status status)
{
	return status == HEED_IRC_VISIT_COMPLETE ||
	       status == HEED_IRC_VISIT_PARTIAL ||
	       status == HEED_IRC_VISIT_DENIED ||
	       status == HEED_IRC_VISIT_NO_CONSENT;
}

/* The public lists' rule on the verdict (each backend's query has it
 * too), for rows already read. */
bool heed_store_irc_published(const char *verdict)
{
	return strcmp(verdict, "deny") != 0 && strcmp(verdict, "invalid") != 0;
}
