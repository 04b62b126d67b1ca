/*
 * The store's "irc" area on SQLite (include/heed/store_irc.h; tables in
 * docs/storage.md "IRC").
 *
 * Workload: a crawl streams one row per 322 line (up to hundreds of
 * thousands per network) while several networks are visited at once, so
 * every statement is kept prepared; the front (src/store/irc.c) groups the
 * rows into batch transactions, committed early at the end of each visit.
 * Channels and servers are upserts keyed by (network, name): first_seen
 * never moves, last_seen and last_visit_id follow the latest sighting.
 */
#include <stdio.h>
#include <string.h>

#include "heed/store_irc.h"
#include "store/sqlite-int.h"

static const char *const irc_migrations[] = {
        "CREATE TABLE irc_networks ("
        "  id INTEGER PRIMARY KEY,"
        "  key TEXT NOT NULL UNIQUE,"
        "  name TEXT NOT NULL DEFAULT '',"
        "  first_seen INTEGER NOT NULL,"
        "  last_visit_id INTEGER,"
        "  last_visit_end INTEGER,"
        "  last_status TEXT NOT NULL DEFAULT '',"
        "  last_complete_visit_id INTEGER,"
        "  verdict TEXT NOT NULL DEFAULT 'none',"
        "  cooldown INTEGER,"
        "  next_visit_at INTEGER NOT NULL DEFAULT 0);"
        "CREATE TABLE irc_visits ("
        "  id INTEGER PRIMARY KEY,"
        "  network_id INTEGER NOT NULL REFERENCES irc_networks(id),"
        "  host TEXT NOT NULL, port INTEGER NOT NULL, tls INTEGER NOT NULL,"
        "  started_at INTEGER NOT NULL, ended_at INTEGER,"
        "  status TEXT NOT NULL DEFAULT 'running', reason TEXT,"
        "  server_name TEXT, server_version TEXT, network_name TEXT,"
        "  users INTEGER, invisible INTEGER, servers INTEGER, opers INTEGER,"
        "  channels_formed INTEGER, local_users INTEGER,"
        "  global_users INTEGER,"
        "  channels_listed INTEGER NOT NULL DEFAULT 0,"
        "  servers_listed INTEGER NOT NULL DEFAULT 0);"
        "CREATE INDEX irc_visits_network ON irc_visits(network_id, id);"
        "CREATE TABLE irc_servers ("
        "  network_id INTEGER NOT NULL REFERENCES irc_networks(id),"
        "  name TEXT NOT NULL, hub TEXT, hops INTEGER, description TEXT,"
        "  first_seen INTEGER NOT NULL, last_seen INTEGER NOT NULL,"
        "  last_visit_id INTEGER NOT NULL,"
        "  PRIMARY KEY (network_id, name)) WITHOUT ROWID;"
        "CREATE TABLE irc_channels ("
        "  network_id INTEGER NOT NULL REFERENCES irc_networks(id),"
        "  name TEXT NOT NULL, users INTEGER, topic TEXT,"
        "  first_seen INTEGER NOT NULL, last_seen INTEGER NOT NULL,"
        "  last_visit_id INTEGER NOT NULL,"
        "  PRIMARY KEY (network_id, name)) WITHOUT ROWID;"
        "CREATE TABLE irc_preferences ("
        "  id INTEGER PRIMARY KEY,"
        "  network_id INTEGER NOT NULL REFERENCES irc_networks(id),"
        "  visit_id INTEGER, server_name TEXT, seen_at INTEGER NOT NULL,"
        "  raw_value TEXT, verdict TEXT NOT NULL, cooldown INTEGER NOT NULL,"
        "  problems INTEGER NOT NULL);"
        "CREATE TABLE irc_sts ("
        "  host TEXT PRIMARY KEY, port INTEGER NOT NULL,"
        "  expires_at INTEGER NOT NULL);",
};

const struct heed_store_area heed__store_irc_area = {
        "irc",
        irc_migrations,
        (int)HEED_ARRAY_SIZE(irc_migrations),
};

enum stmt {
	S_NET_INSERT,
	S_NET_SELECT,
	S_VISIT_BEGIN,
	S_VISIT_SERVER,
	S_VISIT_LUSERS,
	S_PREF,
	S_SERVER,
	S_CHANNEL,
	S_VISIT_END,
	S_NET_END,
	S_STS,
	S_COUNT
};

static const char *const stmt_sql[S_COUNT] = {
        [S_NET_INSERT] = "INSERT INTO irc_networks(key, first_seen) "
                         "VALUES(?1, ?2) ON CONFLICT(key) DO NOTHING;",
        [S_NET_SELECT] = "SELECT id, next_visit_at FROM irc_networks "
                         "WHERE key = ?1;",
        [S_VISIT_BEGIN] = "INSERT INTO irc_visits(network_id, host, port, "
                          "tls, started_at) VALUES(?1, ?2, ?3, ?4, ?5);",
        [S_VISIT_SERVER] = "UPDATE irc_visits SET server_name = ?2, "
                           "server_version = ?3, network_name = ?4 "
                           "WHERE id = ?1;",
        [S_VISIT_LUSERS] = "UPDATE irc_visits SET users = ?2, invisible = ?3,"
                           " servers = ?4, opers = ?5, channels_formed = ?6,"
                           " local_users = ?7, global_users = ?8 "
                           "WHERE id = ?1;",
        [S_PREF] = "INSERT INTO irc_preferences(network_id, visit_id, "
                   "server_name, seen_at, raw_value, verdict, cooldown, "
                   "problems) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8);",
        [S_SERVER] = "INSERT INTO irc_servers(network_id, name, hub, hops, "
                     "description, first_seen, last_seen, last_visit_id) "
                     "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?6, ?7) "
                     "ON CONFLICT(network_id, name) DO UPDATE SET "
                     "hub = excluded.hub, hops = excluded.hops, "
                     "description = excluded.description, "
                     "last_seen = excluded.last_seen, "
                     "last_visit_id = excluded.last_visit_id;",
        [S_CHANNEL] = "INSERT INTO irc_channels(network_id, name, users, "
                      "topic, first_seen, last_seen, last_visit_id) "
                      "VALUES(?1, ?2, ?3, ?4, ?5, ?5, ?6) "
                      "ON CONFLICT(network_id, name) DO UPDATE SET "
                      "users = excluded.users, topic = excluded.topic, "
                      "last_seen = excluded.last_seen, "
                      "last_visit_id = excluded.last_visit_id;",
        [S_VISIT_END] = "UPDATE irc_visits SET status = ?2, reason = ?3, "
                        "ended_at = ?4, "
                        "channels_listed = (SELECT count(*) FROM irc_channels "
                        "  WHERE last_visit_id = ?1), "
                        "servers_listed = (SELECT count(*) FROM irc_servers "
                        "  WHERE last_visit_id = ?1) WHERE id = ?1;",
        [S_NET_END] =
                "UPDATE irc_networks SET last_visit_id = ?2, "
                "last_visit_end = ?3, last_status = ?4, "
                "verdict = CASE WHEN ?5 IS NULL THEN verdict ELSE ?5 END, "
                "cooldown = CASE WHEN ?5 IS NULL THEN cooldown ELSE ?6 END, "
                "next_visit_at = max(next_visit_at, ?7), "
                "last_complete_visit_id = CASE WHEN ?8 THEN ?2 "
                "  ELSE last_complete_visit_id END, "
                "name = coalesce((SELECT nullif(network_name, '') "
                "  FROM irc_visits WHERE id = ?2), name) "
                "WHERE id = ?1;",
        [S_STS] = "INSERT INTO irc_sts(host, port, expires_at) "
                  "VALUES(?1, ?2, ?3) ON CONFLICT(host) DO UPDATE SET "
                  "port = excluded.port, expires_at = excluded.expires_at;",
};

/* The statement, kept prepared by the store; NULL on error. */
static sqlite3_stmt *stmt(heed_store *store, enum stmt which)
{
	return heed__sqlite_prepare(store, stmt_sql[which]);
}

/* Steps a prepared write and gives the statement back. */
static heed_status write_step(heed_store *store, sqlite3_stmt *st)
{
	heed_status rc = heed__sqlite_step_done(store, st);

	heed__sqlite_release(store, st);
	return rc;
}

static void bind_opt_int(sqlite3_stmt *st, int i, int64_t v)
{
	if (v < 0)
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_int64(st, i, v);
}

static heed_status sqlite_network(heed_store *store, const char *key,
                                  int64_t now_s, int64_t *id,
                                  int64_t *next_visit_s)
{
	sqlite3_stmt *st;
	heed_status rc;
	int step;

	if (!(st = stmt(store, S_NET_INSERT)))
		return HEED_ESTORE;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, now_s);
	rc = write_step(store, st);
	if (rc != HEED_OK)
		return rc;
	if (!(st = stmt(store, S_NET_SELECT)))
		return HEED_ESTORE;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	step = sqlite3_step(st);
	if (step != SQLITE_ROW) {
		heed__sqlite_release(store, st);
		return HEED_ESTORE;
	}
	*id = sqlite3_column_int64(st, 0);
	if (next_visit_s)
		*next_visit_s = sqlite3_column_int64(st, 1);
	heed__sqlite_release(store, st);
	return HEED_OK;
}

static heed_status sqlite_visit_begin(heed_store *store, int64_t network_id,
                                      const char *host, int port, bool tls,
                                      int64_t started_s, int64_t *visit_id)
{
	sqlite3_stmt *st;
	heed_status rc;

	if (!(st = stmt(store, S_VISIT_BEGIN)))
		return HEED_ESTORE;
	sqlite3_bind_int64(st, 1, network_id);
	sqlite3_bind_text(st, 2, host, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 3, port);
	sqlite3_bind_int(st, 4, tls);
	sqlite3_bind_int64(st, 5, started_s);
	rc = write_step(store, st);
	*visit_id = sqlite3_last_insert_rowid(heed__sqlite_db(store));
	return rc;
}

static heed_status sqlite_visit_server(heed_store *store, int64_t visit_id,
                                       const char *server_name,
                                       const char *server_version,
                                       const char *network_name)
{
	sqlite3_stmt *st;

	if (!(st = stmt(store, S_VISIT_SERVER)))
		return HEED_ESTORE;
	sqlite3_bind_int64(st, 1, visit_id);
	sqlite3_bind_text(st, 2, server_name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, server_version, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, network_name, -1, SQLITE_STATIC);
	return write_step(store, st);
}

static heed_status sqlite_visit_lusers(heed_store *store, int64_t visit_id,
                                       const struct heed_irc_lusers *l)
{
	sqlite3_stmt *st;

	if (!(st = stmt(store, S_VISIT_LUSERS)))
		return HEED_ESTORE;
	sqlite3_bind_int64(st, 1, visit_id);
	bind_opt_int(st, 2, l->users);
	bind_opt_int(st, 3, l->invisible);
	bind_opt_int(st, 4, l->servers);
	bind_opt_int(st, 5, l->opers);
	bind_opt_int(st, 6, l->channels);
	bind_opt_int(st, 7, l->local_users);
	bind_opt_int(st, 8, l->global_users);
	return write_step(store, st);
}

static heed_status sqlite_preference(heed_store *store, int64_t network_id,
                                     int64_t visit_id, const char *server_name,
                                     const char *raw_value,
                                     const struct heed_irc_crawler_pref *p,
                                     int64_t seen_s)
{
	sqlite3_stmt *st;

	if (!(st = stmt(store, S_PREF)))
		return HEED_ESTORE;
	sqlite3_bind_int64(st, 1, network_id);
	sqlite3_bind_int64(st, 2, visit_id);
	sqlite3_bind_text(st, 3, server_name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, seen_s);
	if (raw_value)
		sqlite3_bind_text(st, 5, raw_value, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, heed_irc_crawler_verdict_name(p->verdict), -1,
	                  SQLITE_STATIC);
	sqlite3_bind_int64(st, 7, p->cooldown_s);
	sqlite3_bind_int64(st, 8, p->problems);
	return write_step(store, st);
}

static heed_status sqlite_server(heed_store *store, int64_t network_id,
                                 int64_t visit_id, const char *name,
                                 const char *hub, int hops,
                                 const char *description, int64_t seen_s)
{
	sqlite3_stmt *st;

	if (!(st = stmt(store, S_SERVER)))
		return HEED_ESTORE;
	sqlite3_bind_int64(st, 1, network_id);
	sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, hub, -1, SQLITE_STATIC);
	bind_opt_int(st, 4, hops);
	sqlite3_bind_text(st, 5, description, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 6, seen_s);
	sqlite3_bind_int64(st, 7, visit_id);
	return write_step(store, st);
}

static heed_status sqlite_channel(heed_store *store, int64_t network_id,
                                  int64_t visit_id, const char *name,
                                  int64_t users, const char *topic,
                                  size_t topic_len, int64_t seen_s)
{
	sqlite3_stmt *st;

	if (!(st = stmt(store, S_CHANNEL)))
		return HEED_ESTORE;
	sqlite3_bind_int64(st, 1, network_id);
	sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
	bind_opt_int(st, 3, users);
	sqlite3_bind_text(st, 4, topic, (int)topic_len, SQLITE_STATIC);
	sqlite3_bind_int64(st, 5, seen_s);
	sqlite3_bind_int64(st, 6, visit_id);
	return write_step(store, st);
}

static heed_status sqlite_visit_end(heed_store *store, int64_t network_id,
                                    int64_t visit_id,
                                    heed_irc_visit_status status,
                                    const char *reason,
                                    const struct heed_irc_crawler_pref *pref,
                                    int64_t ended_s, int64_t next_visit_s)
{
	sqlite3_stmt *st;
	heed_status rc;

	if (!(st = stmt(store, S_VISIT_END)))
		return HEED_ESTORE;
	sqlite3_bind_int64(st, 1, visit_id);
	sqlite3_bind_text(st, 2, heed_irc_visit_status_name(status), -1,
	                  SQLITE_STATIC);
	sqlite3_bind_text(st, 3, reason ? reason : "", -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, ended_s);
	rc = write_step(store, st);
	if (rc != HEED_OK || !(st = stmt(store, S_NET_END)))
		return rc != HEED_OK ? rc : HEED_ESTORE;
	sqlite3_bind_int64(st, 1, network_id);
	sqlite3_bind_int64(st, 2, visit_id);
	sqlite3_bind_int64(st, 3, ended_s);
	sqlite3_bind_text(st, 4, heed_irc_visit_status_name(status), -1,
	                  SQLITE_STATIC);
	if (heed__irc_visit_read_token(status))
		sqlite3_bind_text(st, 5,
		                  heed_irc_crawler_verdict_name(pref->verdict),
		                  -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 6, pref->cooldown_s);
	sqlite3_bind_int64(st, 7, next_visit_s);
	sqlite3_bind_int(st, 8, status == HEED_IRC_VISIT_COMPLETE);
	return write_step(store, st);
}

static heed_status sqlite_sts_set(heed_store *store, const char *host, int port,
                                  int64_t expires_s)
{
	sqlite3_stmt *st;

	if (!(st = stmt(store, S_STS)))
		return HEED_ESTORE;
	sqlite3_bind_text(st, 1, host, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 2, port);
	sqlite3_bind_int64(st, 3, expires_s);
	return write_step(store, st);
}

static heed_status sqlite_sts_get(heed_store *store, const char *host,
                                  int64_t now_s, int *port)
{
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store, "SELECT port FROM irc_sts WHERE host = ?1 AND "
	               "expires_at > ?2;");
	int rc;

	*port = 0;
	if (!st)
		return HEED_ESTORE;
	sqlite3_bind_text(st, 1, host, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, now_s);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*port = sqlite3_column_int(st, 0);
	heed__sqlite_release(store, st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? HEED_OK : HEED_ESTORE;
}

static heed_status sqlite_next_visit(heed_store *store, const char *key,
                                     int64_t *next_visit_s)
{
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store,
	        "SELECT next_visit_at FROM irc_networks WHERE key = ?1;");
	int rc;

	*next_visit_s = 0;
	if (!st)
		return HEED_ESTORE;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*next_visit_s = sqlite3_column_int64(st, 0);
	heed__sqlite_release(store, st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? HEED_OK : HEED_ESTORE;
}

/* What the network itself asked for: the end of each visit that read a
 * CRAWLER token plus that token's cooldown, the latest of them. */
#define NETWORK_OWN_HOLD                                                 \
	"coalesce((SELECT max(v.ended_at + p.cooldown) "                 \
	"FROM irc_preferences p JOIN irc_visits v ON v.id = p.visit_id " \
	"WHERE p.network_id = irc_networks.id AND p.verdict <> 'none' "  \
	"AND v.ended_at IS NOT NULL), 0)"

static heed_status sqlite_reset(heed_store *store, const char *key,
                                int64_t *next_visit_s)
{
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store, "UPDATE irc_networks SET next_visit_at = "
	               "min(next_visit_at, " NETWORK_OWN_HOLD ") "
	               "WHERE key = ?1;");
	heed_status rc;

	if (next_visit_s)
		*next_visit_s = 0;
	if (!st)
		return HEED_ESTORE;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	rc = heed__sqlite_step_done(store, st);
	heed__sqlite_release(store, st);
	if (rc != HEED_OK)
		return rc;
	if (sqlite3_changes(heed__sqlite_db(store)) == 0)
		return HEED_ENOTFOUND;
	return next_visit_s ? sqlite_next_visit(store, key, next_visit_s)
	                    : HEED_OK;
}

/* ---- Reading ------------------------------------------------------------ */

static const char *col_text(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	return t ? (const char *)t : "";
}

static int64_t col_opt_int(sqlite3_stmt *st, int i)
{
	if (sqlite3_column_type(st, i) == SQLITE_NULL)
		return -1;
	return sqlite3_column_int64(st, i);
}

/* The caller's callback, whichever kind of row it takes. */
struct row_cb {
	heed_store_irc_network_fn *network;
	heed_store_irc_channel_fn *channel;
	heed_store_irc_server_fn *server;
	heed_store_irc_visit_fn *visit;
	void *ud;
};

/* Steps st to the end, calling row(st, cb) per row; finalizes st. */
static heed_status each_row(heed_store *store, sqlite3_stmt *st,
                            int (*row)(sqlite3_stmt *, const struct row_cb *),
                            const struct row_cb *cb)
{
	int rc;

	if (!st)
		return HEED_ESTORE;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (row(st, cb))
			break;
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		heed__store_fail(store, NULL, "reading IRC records");
		heed__sqlite_release(store, st);
		return HEED_ESTORE;
	}
	heed__sqlite_release(store, st);
	return HEED_OK;
}

static int network_row(sqlite3_stmt *st, const struct row_cb *cb)
{
	struct heed_store_irc_network_row r;

	r.id = sqlite3_column_int64(st, 0);
	r.key = col_text(st, 1);
	r.name = col_text(st, 2);
	r.last_status = col_text(st, 3);
	r.verdict = col_text(st, 4);
	r.cooldown_s = col_opt_int(st, 5);
	r.first_seen_s = sqlite3_column_int64(st, 6);
	r.last_visit_end_s = col_opt_int(st, 7);
	r.next_visit_s = sqlite3_column_int64(st, 8);
	r.users = col_opt_int(st, 9);
	r.servers = col_opt_int(st, 10);
	r.channels = col_opt_int(st, 11);
	return cb->network(cb->ud, &r);
}

static heed_status sqlite_each_network(heed_store *store,
                                       heed_store_irc_network_fn *fn, void *ud)
{
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store,
	        "SELECT n.id, n.key, n.name, n.last_status, n.verdict, "
	        "n.cooldown, n.first_seen, n.last_visit_end, n.next_visit_at, "
	        "v.users, v.servers, v.channels_listed "
	        "FROM irc_networks n LEFT JOIN irc_visits v "
	        "ON v.id = coalesce(n.last_complete_visit_id, n.last_visit_id) "
	        "ORDER BY n.key;");

	const struct row_cb cb = {fn, NULL, NULL, NULL, ud};

	return each_row(store, st, network_row, &cb);
}

/* The public rows of a table: the latest complete visit and later, of
 * networks that did not say no. */
#define PUBLIC_FILTER                                                   \
	"n.verdict NOT IN ('deny', 'invalid') "                         \
	"AND x.last_visit_id >= coalesce(n.last_complete_visit_id, 0) " \
	"AND (?1 IS NULL OR n.key = ?1) "

static int channel_row(sqlite3_stmt *st, const struct row_cb *cb)
{
	struct heed_store_irc_channel_row r;

	r.network_id = sqlite3_column_int64(st, 0);
	r.network_key = col_text(st, 1);
	r.network_name = col_text(st, 2);
	r.name = col_text(st, 3);
	r.users = col_opt_int(st, 4);
	r.topic = col_text(st, 5);
	r.topic_len = (size_t)sqlite3_column_bytes(st, 5);
	r.first_seen_s = sqlite3_column_int64(st, 6);
	r.last_seen_s = sqlite3_column_int64(st, 7);
	return cb->channel(cb->ud, &r);
}

static heed_status sqlite_each_channel(heed_store *store,
                                       const char *network_key,
                                       heed_store_irc_channel_fn *fn, void *ud)
{
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store, "SELECT n.id, n.key, n.name, x.name, x.users, x.topic, "
	               "x.first_seen, x.last_seen "
	               "FROM irc_channels x JOIN irc_networks n "
	               "ON n.id = x.network_id WHERE " PUBLIC_FILTER
	               "ORDER BY n.key, x.name;");

	const struct row_cb cb = {NULL, fn, NULL, NULL, ud};

	if (st && network_key)
		sqlite3_bind_text(st, 1, network_key, -1, SQLITE_STATIC);
	return each_row(store, st, channel_row, &cb);
}

static int server_row(sqlite3_stmt *st, const struct row_cb *cb)
{
	struct heed_store_irc_server_row r;

	r.network_id = sqlite3_column_int64(st, 0);
	r.network_key = col_text(st, 1);
	r.name = col_text(st, 2);
	r.hub = col_text(st, 3);
	r.hops = (int)col_opt_int(st, 4);
	r.description = col_text(st, 5);
	r.first_seen_s = sqlite3_column_int64(st, 6);
	r.last_seen_s = sqlite3_column_int64(st, 7);
	return cb->server(cb->ud, &r);
}

static heed_status sqlite_each_server(heed_store *store,
                                      const char *network_key,
                                      heed_store_irc_server_fn *fn, void *ud)
{
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store, "SELECT n.id, n.key, x.name, x.hub, x.hops, "
	               "x.description, x.first_seen, x.last_seen "
	               "FROM irc_servers x JOIN irc_networks n "
	               "ON n.id = x.network_id WHERE " PUBLIC_FILTER
	               "ORDER BY n.key, x.name;");

	const struct row_cb cb = {NULL, NULL, fn, NULL, ud};

	if (st && network_key)
		sqlite3_bind_text(st, 1, network_key, -1, SQLITE_STATIC);
	return each_row(store, st, server_row, &cb);
}

static int visit_row(sqlite3_stmt *st, const struct row_cb *cb)
{
	struct heed_store_irc_visit_row r;

	r.started_s = sqlite3_column_int64(st, 0);
	r.ended_s = sqlite3_column_int64(st, 1);
	r.status = col_text(st, 2);
	r.users = col_opt_int(st, 3);
	r.servers = sqlite3_column_int64(st, 4);
	r.channels = sqlite3_column_int64(st, 5);
	return cb->visit(cb->ud, &r);
}

static heed_status sqlite_each_visit(heed_store *store, const char *network_key,
                                     int limit, heed_store_irc_visit_fn *fn,
                                     void *ud)
{
	sqlite3_stmt *st =
	        heed__sqlite_prepare(store, HEED__IRC_VISITS_SQL("?1", "?2"));
	const struct row_cb cb = {NULL, NULL, NULL, fn, ud};

	if (st) {
		sqlite3_bind_text(st, 1, network_key, -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 2, limit);
	}
	return each_row(store, st, visit_row, &cb);
}

const struct heed__irc_ops heed__sqlite_irc_ops = {
        .network = sqlite_network,
        .visit_begin = sqlite_visit_begin,
        .visit_server = sqlite_visit_server,
        .visit_lusers = sqlite_visit_lusers,
        .preference = sqlite_preference,
        .server = sqlite_server,
        .channel = sqlite_channel,
        .visit_end = sqlite_visit_end,
        .sts_set = sqlite_sts_set,
        .sts_get = sqlite_sts_get,
        .next_visit = sqlite_next_visit,
        .reset = sqlite_reset,
        .each_network = sqlite_each_network,
        .each_channel = sqlite_each_channel,
        .each_server = sqlite_each_server,
        .each_visit = sqlite_each_visit,
};
