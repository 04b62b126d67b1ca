/*
 * The IRC area's writer (include/heed/store_irc.h): it groups the writes
 * of src/store/irc.c into batch transactions and replays a batch that a
 * lost connection took. No SQL here.
 *
 * Workload: a crawl streams one row per 322 line (up to hundreds of
 * thousands per network) while several networks are visited at once, so
 * the writer groups rows into transactions of BATCH_ROWS, committed early
 * at the end of each visit.
 */
#include <stdint.h>
#include <string.h>

#include "store/store-int.h"

/* Rows per transaction: large enough that commits cost little, small
 * enough that a crash loses only seconds of a huge LIST. */
#define BATCH_ROWS 5000

/* Times a batch is replayed after lost connections before the writer
 * gives up with HEED_ERETRY. */
#define REDO_TRIES 3

/*
 * The writer keeps every write of the open batch (a copy of its
 * arguments) until the batch commits: a PostgreSQL connection lost inside
 * the batch rolls it back (HEED_ERETRY, docs/scaling.md "When PostgreSQL
 * restarts"), and the writer replays it whole on the new connection, so
 * the crawl never sees the loss. A replayed insert gets a new id; the
 * crawl keeps the one it was given, so the writer maps given ids to
 * stored ones from then on.
 */
enum irc_op {
	OP_NETWORK,
	OP_VISIT_BEGIN,
	OP_VISIT_SERVER,
	OP_VISIT_LUSERS,
	OP_PREFERENCE,
	OP_SERVER,
	OP_CHANNEL,
	OP_VISIT_END,
	OP_STS_SET,
};

struct irc_write {
	enum irc_op op;
	int64_t network_id, visit_id; /* as the crawl names them */
	int64_t given;                /* NETWORK, VISIT_BEGIN: the id handed
	                                 out; 0 before the first answer */
	char *s[3];                   /* the strings, copied (NULL kept) */
	size_t len;                   /* CHANNEL: the topic's bytes */
	int64_t n[3];                 /* times, counts */
	int i[2];                     /* port, tls, hops, status */
	struct heed_irc_lusers lusers;
	struct heed_irc_crawler_pref pref;
};

struct id_map {
	int64_t given, stored;
};

struct heed_store_irc {
	heed_store *store;
	bool in_tx;
	int pending;
	struct irc_write *log; /* the open batch's writes */
	int nlog, caplog;
	struct id_map *ids; /* ids replays changed */
	int nids, capids;
	int64_t last_given; /* the id the last NETWORK, VISIT_BEGIN gave */
};

heed_status heed_store_irc_new(heed_store_irc **out, heed_store *store)
{
	*out = heed__calloc(store->alloc, 1, sizeof(**out));
	if (!*out)
		return HEED_ENOMEM;
	(*out)->store = store;
	return HEED_OK;
}

static void forget(heed_store_irc *w)
{
	for (int i = 0; i < w->nlog; i++)
		for (int j = 0; j < 3; j++)
			heed__free(w->store->alloc, w->log[i].s[j]);
	w->nlog = 0;
}

/* The id the store holds for an id handed to the crawl. */
static int64_t stored_id(const heed_store_irc *w, int64_t given)
{
	for (int i = 0; i < w->nids; i++)
		if (w->ids[i].given == given)
			return w->ids[i].stored;
	return given;
}

static heed_status map_id(heed_store_irc *w, int64_t given, int64_t stored)
{
	for (int i = 0; i < w->nids; i++)
		if (w->ids[i].given == given) {
			w->ids[i].stored = stored;
			return HEED_OK;
		}
	if (given == stored)
		return HEED_OK;
	if (w->nids == w->capids) {
		int cap = w->capids ? 2 * w->capids : 16;
		struct id_map *m = heed__realloc(w->store->alloc, w->ids,
		                                 (size_t)cap * sizeof(*m));
		if (!m)
			return HEED_ENOMEM;
		w->ids = m;
		w->capids = cap;
	}
	w->ids[w->nids].given = given;
	w->ids[w->nids++].stored = stored;
	return HEED_OK;
}

/* Runs one write on the open transaction; *out (may be NULL) receives
 * NETWORK's next visit. */
static heed_status apply(heed_store_irc *w, struct irc_write *e, int64_t *out)
{
	heed_store *st = w->store;
	int64_t net = stored_id(w, e->network_id);
	int64_t visit = stored_id(w, e->visit_id), id = 0;
	heed_status rc;

	switch (e->op) {
	case OP_NETWORK:
		rc = heed__irc_network(st, e->s[0], e->n[0], &id, out);
		break;
	case OP_VISIT_BEGIN:
		rc = heed__irc_visit_begin(st, net, e->s[0], e->i[0], e->i[1],
		                           e->n[0], &id);
		break;
	case OP_VISIT_SERVER:
		return heed__irc_visit_server(st, visit, e->s[0], e->s[1],
		                              e->s[2]);
	case OP_VISIT_LUSERS:
		return heed__irc_visit_lusers(st, visit, &e->lusers);
	case OP_PREFERENCE:
		return heed__irc_preference(st, net, visit, e->s[0], e->s[1],
		                            &e->pref, e->n[0]);
	case OP_SERVER:
		return heed__irc_server(st, net, visit, e->s[0], e->s[1],
		                        e->i[0], e->s[2], e->n[0]);
	case OP_CHANNEL:
		return heed__irc_channel(st, net, visit, e->s[0], e->n[1],
		                         e->s[1], e->len, e->n[0]);
	case OP_VISIT_END:
		return heed__irc_visit_end(st, net, visit,
		                           (heed_irc_visit_status)e->i[0],
		                           e->s[0], &e->pref, e->n[0], e->n[1]);
	case OP_STS_SET:
		return heed__irc_sts_set(st, e->s[0], e->i[0], e->n[0]);
	default:
		return HEED_EINVAL;
	}
	if (rc != HEED_OK)
		return rc;
	if (!e->given) {
		e->given = id;
		return HEED_OK;
	}
	return map_id(w, e->given, id);
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

/* The connection went with the batch: replays it on a new one, a few
 * times at most. The last write's *out is recomputed. */
static heed_status redo(heed_store_irc *w, int64_t *out)
{
	heed_status rc = HEED_ERETRY;

	for (int t = 0; t < REDO_TRIES && rc == HEED_ERETRY; t++) {
		heed_store_rollback(w->store); /* ends the lost one */
		w->in_tx = false;
		rc = batch(w);
		for (int i = 0; rc == HEED_OK && i < w->nlog; i++)
			rc = apply(w, &w->log[i],
			           i == w->nlog - 1 ? out : NULL);
	}
	return rc;
}

/* Ends a failed batch: nothing of it stays. */
static heed_status drop(heed_store_irc *w, heed_status rc)
{
	if (w->in_tx)
		heed_store_rollback(w->store);
	w->in_tx = false;
	w->pending = 0;
	forget(w);
	return rc == HEED_ERETRY || rc == HEED_ENOMEM || rc == HEED_EBUSY
	               ? rc
	               : HEED_ESTORE;
}

heed_status heed_store_irc_flush(heed_store_irc *w)
{
	heed_status rc = HEED_OK;

	if (!w->in_tx)
		return HEED_OK;
	/* HEED_ERETRY: PostgreSQL's connection went with the batch; it is
	 * replayed and committed again (a COMMIT the server applied before
	 * the connection went is replayed too: rare, and the rows are
	 * upserts, but a visit row may then appear twice). */
	for (int t = 0; t <= REDO_TRIES; t++) {
		rc = heed_store_commit(w->store);
		if (rc != HEED_ERETRY)
			break;
		w->in_tx = true; /* the lost one, which redo ends */
		rc = redo(w, NULL);
		if (rc != HEED_OK)
			break;
		rc = HEED_ERETRY;
	}
	if (rc != HEED_OK)
		return drop(w, rc);
	w->in_tx = false;
	w->pending = 0;
	forget(w);
	return HEED_OK;
}

void heed_store_irc_free(heed_store_irc *w)
{
	if (!w)
		return;
	heed_store_irc_flush(w);
	forget(w);
	heed__free(w->store->alloc, w->log);
	heed__free(w->store->alloc, w->ids);
	heed__free(w->store->alloc, w);
}

/* A new entry of the batch's log with op and the ids, or NULL (out of
 * memory). */
static struct irc_write *entry(heed_store_irc *w, enum irc_op op,
                               int64_t network_id, int64_t visit_id)
{
	struct irc_write *e;

	if (w->nlog == w->caplog) {
		int cap = w->caplog ? 2 * w->caplog : 64;
		e = heed__realloc(w->store->alloc, w->log,
		                  (size_t)cap * sizeof(*e));
		if (!e)
			return NULL;
		w->log = e;
		w->caplog = cap;
	}
	e = &w->log[w->nlog++];
	memset(e, 0, sizeof(*e));
	e->op = op;
	e->network_id = network_id;
	e->visit_id = visit_id;
	return e;
}

/* Copies s (len bytes, or to its NUL for SIZE_MAX) into e->s[i]; a NULL
 * s stays NULL. */
static bool keep(heed_store_irc *w, struct irc_write *e, int i, const char *s,
                 size_t len)
{
	if (!s)
		return true;
	e->s[i] = heed__strndup(w->store->alloc, s,
	                        len == SIZE_MAX ? strlen(s) : len);
	return e->s[i] != NULL;
}

/* Takes the last entry off the log: its write did not happen. */
static void unlog(heed_store_irc *w)
{
	struct irc_write *e = &w->log[--w->nlog];

	for (int j = 0; j < 3; j++)
		heed__free(w->store->alloc, e->s[j]);
}

/* Runs the entry just logged (the log's last), replaying the batch when
 * the connection went; commits every BATCH_ROWS. *out: NETWORK's next
 * visit (may be NULL). A write that fails otherwise leaves the batch as
 * it was, as before there was a log. */
static heed_status logged_write(heed_store_irc *w, bool copied, int64_t *out)
{
	struct irc_write *e = &w->log[w->nlog - 1];
	heed_status rc;

	if (!copied) {
		unlog(w);
		return HEED_ENOMEM;
	}
	rc = batch(w);
	if (rc != HEED_OK) {
		unlog(w);
		return rc;
	}
	rc = apply(w, e, out);
	if (rc == HEED_ERETRY) {
		rc = redo(w, out);
		if (rc != HEED_OK)
			return drop(w, rc);
	} else if (rc != HEED_OK) {
		unlog(w);
		return rc;
	}
	w->last_given = e->given;
	if (++w->pending >= BATCH_ROWS)
		return heed_store_irc_flush(w);
	return HEED_OK;
}

heed_status heed_store_irc_network(heed_store_irc *w, const char *key,
                                   int64_t now_s, int64_t *id,
                                   int64_t *next_visit_s)
{
	struct irc_write *e = entry(w, OP_NETWORK, 0, 0);
	heed_status rc;

	if (!e)
		return HEED_ENOMEM;
	e->n[0] = now_s;
	rc = logged_write(w, keep(w, e, 0, key, SIZE_MAX), next_visit_s);
	*id = rc == HEED_OK ? w->last_given : 0;
	return rc;
}

heed_status heed_store_irc_visit_begin(heed_store_irc *w, int64_t network_id,
                                       const char *host, int port, bool tls,
                                       int64_t started_s, int64_t *visit_id)
{
	struct irc_write *e = entry(w, OP_VISIT_BEGIN, network_id, 0);
	heed_status rc;

	if (!e)
		return HEED_ENOMEM;
	e->i[0] = port;
	e->i[1] = tls;
	e->n[0] = started_s;
	rc = logged_write(w, keep(w, e, 0, host, SIZE_MAX), NULL);
	*visit_id = rc == HEED_OK ? w->last_given : 0;
	return rc;
}

heed_status heed_store_irc_visit_server(heed_store_irc *w, int64_t visit_id,
                                        const char *server_name,
                                        const char *server_version,
                                        const char *network_name)
{
	struct irc_write *e = entry(w, OP_VISIT_SERVER, 0, visit_id);

	if (!e)
		return HEED_ENOMEM;
	return logged_write(w,
	                    keep(w, e, 0, server_name, SIZE_MAX) &&
	                            keep(w, e, 1, server_version, SIZE_MAX) &&
	                            keep(w, e, 2, network_name, SIZE_MAX),
	                    NULL);
}

heed_status heed_store_irc_visit_lusers(heed_store_irc *w, int64_t visit_id,
                                        const struct heed_irc_lusers *l)
{
	struct irc_write *e = entry(w, OP_VISIT_LUSERS, 0, visit_id);

	if (!e)
		return HEED_ENOMEM;
	e->lusers = *l;
	return logged_write(w, true, NULL);
}

heed_status heed_store_irc_preference(heed_store_irc *w, int64_t network_id,
                                      int64_t visit_id, const char *server_name,
                                      const char *raw_value,
                                      const struct heed_irc_crawler_pref *p,
                                      int64_t seen_s)
{
	struct irc_write *e = entry(w, OP_PREFERENCE, network_id, visit_id);

	if (!e)
		return HEED_ENOMEM;
	e->pref = *p;
	e->n[0] = seen_s;
	return logged_write(w,
	                    keep(w, e, 0, server_name, SIZE_MAX) &&
	                            keep(w, e, 1, raw_value, SIZE_MAX),
	                    NULL);
}

heed_status heed_store_irc_server(heed_store_irc *w, int64_t network_id,
                                  int64_t visit_id, const char *name,
                                  const char *hub, int hops,
                                  const char *description, int64_t seen_s)
{
	struct irc_write *e = entry(w, OP_SERVER, network_id, visit_id);

	if (!e)
		return HEED_ENOMEM;
	e->i[0] = hops;
	e->n[0] = seen_s;
	return logged_write(w,
	                    keep(w, e, 0, name, SIZE_MAX) &&
	                            keep(w, e, 1, hub, SIZE_MAX) &&
	                            keep(w, e, 2, description, SIZE_MAX),
	                    NULL);
}

heed_status heed_store_irc_channel(heed_store_irc *w, int64_t network_id,
                                   int64_t visit_id, const char *name,
                                   int64_t users, const char *topic,
                                   size_t topic_len, int64_t seen_s)
{
	struct irc_write *e = entry(w, OP_CHANNEL, network_id, visit_id);

	if (!e)
		return HEED_ENOMEM;
	e->n[0] = seen_s;
	e->n[1] = users;
	e->len = topic_len;
	return logged_write(w,
	                    keep(w, e, 0, name, SIZE_MAX) &&
	                            keep(w, e, 1, topic, topic_len),
	                    NULL);
}

heed_status heed_store_irc_visit_end(heed_store_irc *w, int64_t network_id,
                                     int64_t visit_id,
                                     heed_irc_visit_status status,
                                     const char *reason,
                                     const struct heed_irc_crawler_pref *pref,
                                     int64_t ended_s, int64_t next_visit_s)
{
	struct irc_write *e = entry(w, OP_VISIT_END, network_id, visit_id);
	heed_status rc;

	if (!e)
		return HEED_ENOMEM;
	e->i[0] = (int)status;
	e->pref = *pref;
	e->n[0] = ended_s;
	e->n[1] = next_visit_s;
	rc = logged_write(w, keep(w, e, 0, reason, SIZE_MAX), NULL);
	if (rc != HEED_OK)
		return rc;
	/* The cooldown must survive a crash right after the visit. */
	return heed_store_irc_flush(w);
}

heed_status heed_store_irc_sts_set(heed_store_irc *w, const char *host,
                                   int port, int64_t expires_s)
{
	struct irc_write *e = entry(w, OP_STS_SET, 0, 0);

	if (!e)
		return HEED_ENOMEM;
	e->i[0] = port;
	e->n[0] = expires_s;
	return logged_write(w, keep(w, e, 0, host, SIZE_MAX), NULL);
}
