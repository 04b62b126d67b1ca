/*
 * The IRC area (include/heed/store_irc.h; tables in docs/storage.md
 * "IRC"): its tables, statements and row mapping, written once for both
 * engines (src/store/sql-int.h). The writer that groups the writes into
 * batch transactions and replays them after a lost connection is
 * src/store/irc_writer.c: it is about transactions, not rows, and holds no
 * SQL.
 *
 * Workload: a crawl streams one row per 322 line (up to hundreds of
 * thousands per network) while several networks are visited at once.
 * Channels and servers are upserts keyed by (network, name): first_seen
 * never moves, last_seen and last_visit_id follow the latest sighting.
 *
 * What an IRC server sends is bytes, and heed keeps invalid UTF-8 as bytes
 * (heed/irc.h): SQLite's TEXT takes any bytes, PostgreSQL's refuses
 * invalid UTF-8 in a UTF-8 database. So every column that holds what a
 * server said (names, topics, descriptions, versions, the CRAWLER value, a
 * visit's reason) is BYTEA on PostgreSQL, bound with heed__sql_raw and
 * read back exactly; columns heed writes itself (network keys, statuses,
 * verdicts, hosts) are TEXT on both. Lists are ordered by bytes (COLLATE
 * "C" on PostgreSQL, and BYTEA's own order), as SQLite's BINARY collation
 * orders them.
 */
#include <string.h>

#include "store/sql-int.h"

/* The tables on each engine: ID a row id, BIG a date or a count, SAID
 * what a server said, NO_NAME its empty value, TAIL what follows the
 * column list of a table keyed by (network, name). */
#define IRC_TABLES(ID, BIG, SAID, NO_NAME, TAIL)                              \
	"CREATE TABLE irc_networks ("                                         \
	"  id " ID ","                                                        \
	"  key TEXT NOT NULL UNIQUE,"                                         \
	"  name " SAID " NOT NULL DEFAULT " NO_NAME ","                       \
	"  first_seen " BIG " NOT NULL,"                                      \
	"  last_visit_id " BIG ","                                            \
	"  last_visit_end " BIG ","                                           \
	"  last_status TEXT NOT NULL DEFAULT '',"                             \
	"  last_complete_visit_id " BIG ","                                   \
	"  verdict TEXT NOT NULL DEFAULT 'none',"                             \
	"  cooldown " BIG ","                                                 \
	"  next_visit_at " BIG " NOT NULL DEFAULT 0);"                        \
	"CREATE TABLE irc_visits ("                                           \
	"  id " ID ","                                                        \
	"  network_id " BIG " NOT NULL REFERENCES irc_networks(id),"          \
	"  host TEXT NOT NULL, port INTEGER NOT NULL, tls INTEGER NOT NULL,"  \
	"  started_at " BIG " NOT NULL, ended_at " BIG ","                    \
	"  status TEXT NOT NULL DEFAULT 'running', reason " SAID ","          \
	"  server_name " SAID ", server_version " SAID ", network_name " SAID \
	","                                                                   \
	"  users " BIG ", invisible " BIG ", servers " BIG ", opers " BIG "," \
	"  channels_formed " BIG ", local_users " BIG ","                     \
	"  global_users " BIG ","                                             \
	"  channels_listed " BIG " NOT NULL DEFAULT 0,"                       \
	"  servers_listed " BIG " NOT NULL DEFAULT 0);"                       \
	"CREATE INDEX irc_visits_network ON irc_visits(network_id, id);"      \
	"CREATE TABLE irc_servers ("                                          \
	"  network_id " BIG " NOT NULL REFERENCES irc_networks(id),"          \
	"  name " SAID " NOT NULL, hub " SAID                                 \
	", hops INTEGER, description " SAID ","                               \
	"  first_seen " BIG " NOT NULL, last_seen " BIG " NOT NULL,"          \
	"  last_visit_id " BIG " NOT NULL,"                                   \
	"  PRIMARY KEY (network_id, name))" TAIL ";"                          \
	"CREATE TABLE irc_channels ("                                         \
	"  network_id " BIG " NOT NULL REFERENCES irc_networks(id),"          \
	"  name " SAID " NOT NULL, users " BIG ", topic " SAID ","            \
	"  first_seen " BIG " NOT NULL, last_seen " BIG " NOT NULL,"          \
	"  last_visit_id " BIG " NOT NULL,"                                   \
	"  PRIMARY KEY (network_id, name))" TAIL ";"                          \
	"CREATE TABLE irc_preferences ("                                      \
	"  id " ID ","                                                        \
	"  network_id " BIG " NOT NULL REFERENCES irc_networks(id),"          \
	"  visit_id " BIG ", server_name " SAID ", seen_at " BIG " NOT NULL," \
	"  raw_value " SAID ", verdict TEXT NOT NULL, cooldown " BIG          \
	" NOT NULL,"                                                          \
	"  problems INTEGER NOT NULL);"                                       \
	"CREATE TABLE irc_sts ("                                              \
	"  host TEXT PRIMARY KEY, port INTEGER NOT NULL,"                     \
	"  expires_at " BIG " NOT NULL);"

static const char *const sqlite_migrations[] = {
        IRC_TABLES("INTEGER PRIMARY KEY", "INTEGER", "TEXT", "''",
                   " WITHOUT ROWID"),
};

/* Version 1 on both engines; a later one is added to both under the same
 * number. */
static const char *const pg_migrations[] = {
        IRC_TABLES("BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
                   "BIGINT", "BYTEA", "''::bytea", ""),
};

const struct heed_store_area heed__store_irc_area = {
        "irc",
        sqlite_migrations,
        (int)HEED_ARRAY_SIZE(sqlite_migrations),
};

const struct heed_store_area heed__pg_irc_area = {
        "irc",
        pg_migrations,
        (int)HEED_ARRAY_SIZE(pg_migrations),
};

/* The words heed writes for a verdict and a visit's status, as the
 * statements compare them. */
#define VERDICT(v) heed_irc_crawler_verdict_name(HEED_IRC_CRAWLER_##v)
#define STATUS(s)  heed_irc_visit_status_name(HEED_IRC_VISIT_##s)

/* Binds s, a NUL-terminated text a server sent (NULL: SQL NULL). */
static void bind_said(struct heed__sql *q, int i, const char *s)
{
	heed__sql_raw(q, i, s, s ? strlen(s) : 0);
}

/* Binds a count a server may leave out (negative: SQL NULL). */
static void bind_count(struct heed__sql *q, int i, int64_t v)
{
	heed__sql_opt(q, i, v < 0 ? -1 : v, -1);
}

/* ---- Writing (inside the writer's transaction) -------------------------- */

static int read_network(struct heed__sql *q, void *ctx)
{
	int64_t *v = ctx;

	v[0] = heed__sql_col_int(q, 0, 0);
	v[1] = heed__sql_col_int(q, 1, 0);
	return 0;
}

heed_status heed__irc_network(heed_store *store, const char *key, int64_t now_s,
                              int64_t *id, int64_t *next_visit_s)
{
	struct heed__sql q;
	int64_t row[2] = {0, 0};
	heed_status rc;

	if (heed__sql_prepare(store, &q,
	                      "INSERT INTO irc_networks(key, first_seen) "
	                      "VALUES(?1, ?2) ON CONFLICT (key) DO "
	                      "NOTHING;") != HEED_OK)
		return HEED_ESTORE;
	heed__sql_text(&q, 1, key);
	heed__sql_int(&q, 2, now_s);
	rc = heed__sql_run(&q, NULL);
	if (rc != HEED_OK)
		return rc;
	if (heed__sql_prepare(store, &q,
	                      "SELECT id, next_visit_at FROM irc_networks "
	                      "WHERE key = ?1;") != HEED_OK)
		return HEED_ESTORE;
	heed__sql_text(&q, 1, key);
	rc = heed__sql_one(&q, read_network, row);
	if (rc == HEED_ENOTFOUND)
		return HEED_ESTORE; /* the row the insert made or found */
	if (rc != HEED_OK)
		return rc;
	*id = row[0];
	if (next_visit_s)
		*next_visit_s = row[1];
	return HEED_OK;
}

heed_status heed__irc_visit_begin(heed_store *store, int64_t network_id,
                                  const char *host, int port, bool tls,
                                  int64_t started_s, int64_t *visit_id)
{
	struct heed__sql q;
	heed_status rc;

	*visit_id = 0;
	if (heed__sql_prepare(store, &q,
	                      "INSERT INTO irc_visits(network_id, host, port, "
	                      "tls, started_at) VALUES(?1, ?2, ?3, ?4, ?5) "
	                      "RETURNING id;") != HEED_OK)
		return HEED_ESTORE;
	heed__sql_int(&q, 1, network_id);
	heed__sql_text(&q, 2, host);
	heed__sql_int(&q, 3, port);
	heed__sql_int(&q, 4, tls);
	heed__sql_int(&q, 5, started_s);
	rc = heed__sql_one(&q, heed__sql_read_int, visit_id);
	return rc == HEED_ENOTFOUND ? HEED_ESTORE : rc;
}

heed_status heed__irc_visit_server(heed_store *store, int64_t visit_id,
                                   const char *server_name,
                                   const char *server_version,
                                   const char *network_name)
{
	struct heed__sql q;

	if (heed__sql_prepare(store, &q,
	                      "UPDATE irc_visits SET server_name = ?2, "
	                      "server_version = ?3, network_name = ?4 "
	                      "WHERE id = ?1;") != HEED_OK)
		return HEED_ESTORE;
	heed__sql_int(&q, 1, visit_id);
	bind_said(&q, 2, server_name);
	bind_said(&q, 3, server_version);
	bind_said(&q, 4, network_name);
	return heed__sql_run(&q, NULL);
}

heed_status heed__irc_visit_lusers(heed_store *store, int64_t visit_id,
                                   const struct heed_irc_lusers *l)
{
	struct heed__sql q;

	if (heed__sql_prepare(
	            store, &q,
	            "UPDATE irc_visits SET users = ?2, invisible = ?3,"
	            " servers = ?4, opers = ?5, channels_formed = ?6,"
	            " local_users = ?7, global_users = ?8 "
	            "WHERE id = ?1;") != HEED_OK)
		return HEED_ESTORE;
	heed__sql_int(&q, 1, visit_id);
	bind_count(&q, 2, l->users);
	bind_count(&q, 3, l->invisible);
	bind_count(&q, 4, l->servers);
	bind_count(&q, 5, l->opers);
	bind_count(&q, 6, l->channels);
	bind_count(&q, 7, l->local_users);
	bind_count(&q, 8, l->global_users);
	return heed__sql_run(&q, NULL);
}

heed_status heed__irc_preference(heed_store *store, int64_t network_id,
                                 int64_t visit_id, const char *server_name,
                                 const char *raw_value,
                                 const struct heed_irc_crawler_pref *p,
                                 int64_t seen_s)
{
	struct heed__sql q;

	if (heed__sql_prepare(store, &q,
	                      "INSERT INTO irc_preferences(network_id, "
	                      "visit_id, server_name, seen_at, raw_value, "
	                      "verdict, cooldown, problems) "
	                      "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8);") !=
	    HEED_OK)
		return HEED_ESTORE;
	heed__sql_int(&q, 1, network_id);
	heed__sql_int(&q, 2, visit_id);
	bind_said(&q, 3, server_name);
	heed__sql_int(&q, 4, seen_s);
	bind_said(&q, 5, raw_value);
	heed__sql_text(&q, 6, heed_irc_crawler_verdict_name(p->verdict));
	heed__sql_int(&q, 7, p->cooldown_s);
	heed__sql_int(&q, 8, p->problems);
	return heed__sql_run(&q, NULL);
}

heed_status heed__irc_server(heed_store *store, int64_t network_id,
                             int64_t visit_id, const char *name,
                             const char *hub, int hops, const char *description,
                             int64_t seen_s)
{
	struct heed__sql q;

	if (heed__sql_prepare(store, &q,
	                      "INSERT INTO irc_servers(network_id, name, hub, "
	                      "hops, description, first_seen, last_seen, "
	                      "last_visit_id) "
	                      "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?6, ?7) "
	                      "ON CONFLICT (network_id, name) DO UPDATE SET "
	                      "hub = excluded.hub, hops = excluded.hops, "
	                      "description = excluded.description, "
	                      "last_seen = excluded.last_seen, "
	                      "last_visit_id = excluded.last_visit_id;") !=
	    HEED_OK)
		return HEED_ESTORE;
	heed__sql_int(&q, 1, network_id);
	bind_said(&q, 2, name);
	bind_said(&q, 3, hub);
	bind_count(&q, 4, hops);
	bind_said(&q, 5, description);
	heed__sql_int(&q, 6, seen_s);
	heed__sql_int(&q, 7, visit_id);
	return heed__sql_run(&q, NULL);
}

heed_status heed__irc_channel(heed_store *store, int64_t network_id,
                              int64_t visit_id, const char *name, int64_t users,
                              const char *topic, size_t topic_len,
                              int64_t seen_s)
{
	struct heed__sql q;

	if (heed__sql_prepare(store, &q,
	                      "INSERT INTO irc_channels(network_id, name, "
	                      "users, topic, first_seen, last_seen, "
	                      "last_visit_id) "
	                      "VALUES(?1, ?2, ?3, ?4, ?5, ?5, ?6) "
	                      "ON CONFLICT (network_id, name) DO UPDATE SET "
	                      "users = excluded.users, topic = excluded.topic, "
	                      "last_seen = excluded.last_seen, "
	                      "last_visit_id = excluded.last_visit_id;") !=
	    HEED_OK)
		return HEED_ESTORE;
	heed__sql_int(&q, 1, network_id);
	bind_said(&q, 2, name);
	bind_count(&q, 3, users);
	heed__sql_raw(&q, 4, topic, topic_len);
	heed__sql_int(&q, 5, seen_s);
	heed__sql_int(&q, 6, visit_id);
	return heed__sql_run(&q, NULL);
}

/* Whether a visit that ended with status read the network's CRAWLER
 * token, so the network's verdict and cooldown follow it. */
static bool read_token(heed_irc_visit_status status)
{
	return status == HEED_IRC_VISIT_COMPLETE ||
	       status == HEED_IRC_VISIT_PARTIAL ||
	       status == HEED_IRC_VISIT_DENIED ||
	       status == HEED_IRC_VISIT_NO_CONSENT;
}

/* The network after a visit: the verdict and cooldown only when the
 * visit read the token (?5 NULL otherwise), the next visit never earlier
 * than one already set, the name the visit's server gave unless empty.
 * The casts give PostgreSQL the types of parameters it cannot infer. */
#define NETWORK_END_SQL                                                    \
	"UPDATE irc_networks SET last_visit_id = ?2, "                     \
	"last_visit_end = ?3, last_status = ?4, "                          \
	"verdict = coalesce(CAST(?5 AS TEXT), verdict), "                  \
	"cooldown = CASE WHEN ?5 IS NULL THEN cooldown "                   \
	"  ELSE CAST(?6 AS BIGINT) END, "                                  \
	"next_visit_at = CASE WHEN next_visit_at > ?7 THEN next_visit_at " \
	"  ELSE ?7 END, "                                                  \
	"last_complete_visit_id = CASE WHEN ?8 <> 0 THEN ?2 "              \
	"  ELSE last_complete_visit_id END, "                              \
	"name = coalesce((SELECT nullif(network_name, '') "                \
	"  FROM irc_visits WHERE id = ?2), name) "                         \
	"WHERE id = ?1;"

heed_status heed__irc_visit_end(heed_store *store, int64_t network_id,
                                int64_t visit_id, heed_irc_visit_status status,
                                const char *reason,
                                const struct heed_irc_crawler_pref *pref,
                                int64_t ended_s, int64_t next_visit_s)
{
	struct heed__sql q;
	heed_status rc;

	if (heed__sql_prepare(store, &q,
	                      "UPDATE irc_visits SET status = ?2, reason = ?3, "
	                      "ended_at = ?4, "
	                      "channels_listed = (SELECT count(*) FROM "
	                      "irc_channels WHERE last_visit_id = ?1), "
	                      "servers_listed = (SELECT count(*) FROM "
	                      "irc_servers WHERE last_visit_id = ?1) "
	                      "WHERE id = ?1;") != HEED_OK)
		return HEED_ESTORE;
	heed__sql_int(&q, 1, visit_id);
	heed__sql_text(&q, 2, heed_irc_visit_status_name(status));
	bind_said(&q, 3, reason ? reason : "");
	heed__sql_int(&q, 4, ended_s);
	rc = heed__sql_run(&q, NULL);
	if (rc != HEED_OK)
		return rc;
	if (heed__sql_prepare(store, &q, NETWORK_END_SQL) != HEED_OK)
		return HEED_ESTORE;
	heed__sql_int(&q, 1, network_id);
	heed__sql_int(&q, 2, visit_id);
	heed__sql_int(&q, 3, ended_s);
	heed__sql_text(&q, 4, heed_irc_visit_status_name(status));
	heed__sql_text(&q, 5,
	               read_token(status)
	                       ? heed_irc_crawler_verdict_name(pref->verdict)
	                       : NULL);
	heed__sql_int(&q, 6, pref->cooldown_s);
	heed__sql_int(&q, 7, next_visit_s);
	heed__sql_int(&q, 8, status == HEED_IRC_VISIT_COMPLETE);
	return heed__sql_run(&q, NULL);
}

heed_status heed__irc_sts_set(heed_store *store, const char *host, int port,
                              int64_t expires_s)
{
	struct heed__sql q;

	if (heed__sql_prepare(store, &q,
	                      "INSERT INTO irc_sts(host, port, expires_at) "
	                      "VALUES(?1, ?2, ?3) ON CONFLICT (host) DO UPDATE "
	                      "SET port = excluded.port, "
	                      "expires_at = excluded.expires_at;") != HEED_OK)
		return HEED_ESTORE;
	heed__sql_text(&q, 1, host);
	heed__sql_int(&q, 2, port);
	heed__sql_int(&q, 3, expires_s);
	return heed__sql_run(&q, NULL);
}

/* ---- Reading ------------------------------------------------------------ */

/* Runs q, a statement of at most one row, into *v: HEED_OK with *v left
 * as it was when there is no row. */
static heed_status one_int(struct heed__sql *q, int64_t *v)
{
	heed_status rc = heed__sql_one(q, heed__sql_read_int, v);

	return rc == HEED_ENOTFOUND ? HEED_OK : rc;
}

heed_status heed_store_irc_sts_get(heed_store *store, const char *host,
                                   int64_t now_s, int *port)
{
	struct heed__sql q;
	int64_t v = 0;
	heed_status rc;

	*port = 0;
	if (heed__sql_prepare(store, &q,
	                      "SELECT port FROM irc_sts WHERE host = ?1 AND "
	                      "expires_at > ?2;") != HEED_OK)
		return HEED_ESTORE;
	heed__sql_text(&q, 1, host);
	heed__sql_int(&q, 2, now_s);
	rc = one_int(&q, &v);
	*port = (int)v;
	return rc;
}

heed_status heed_store_irc_next_visit(heed_store *store, const char *key,
                                      int64_t *next_visit_s)
{
	struct heed__sql q;

	*next_visit_s = 0;
	if (heed__sql_prepare(store, &q,
	                      "SELECT next_visit_at FROM irc_networks "
	                      "WHERE key = ?1;") != HEED_OK)
		return HEED_ESTORE;
	heed__sql_text(&q, 1, key);
	return one_int(&q, next_visit_s);
}

/* The next visit brought back to what the network itself asked for: the
 * end of each visit that read a CRAWLER token (a verdict other than ?2,
 * none) plus that token's cooldown, the latest of them. The engines
 * spell the smaller of two values differently. */
#define RESET_SQL(LEAST)                                                    \
	"UPDATE irc_networks SET next_visit_at = " LEAST "(next_visit_at, " \
	"coalesce((SELECT max(v.ended_at + p.cooldown) "                    \
	"FROM irc_preferences p JOIN irc_visits v ON v.id = p.visit_id "    \
	"WHERE p.network_id = irc_networks.id AND p.verdict <> ?2 "         \
	"AND v.ended_at IS NOT NULL), 0)) WHERE key = ?1;"

heed_status heed_store_irc_reset(heed_store *store, const char *key,
                                 int64_t *next_visit_s)
{
	static const char *const sql[] = {
	        [HEED__SQL_SQLITE] = RESET_SQL("min"),
	        [HEED__SQL_PG] = RESET_SQL("least"),
	};
	struct heed__sql q;
	int64_t changed = 0;
	heed_status rc;

	if (next_visit_s)
		*next_visit_s = 0;
	if (heed__sql_prepare_dialect(store, &q, sql) != HEED_OK)
		return HEED_ESTORE;
	heed__sql_text(&q, 1, key);
	heed__sql_text(&q, 2, VERDICT(NONE));
	rc = heed__sql_run(&q, &changed);
	if (rc != HEED_OK)
		return rc;
	if (changed == 0)
		return HEED_ENOTFOUND;
	return next_visit_s
	               ? heed_store_irc_next_visit(store, key, next_visit_s)
	               : HEED_OK;
}

/*
 * A listing's caller and the copies of the row's server-said columns:
 * those come as bytes (a BYTEA is decoded on PostgreSQL), copied for the
 * callback and freed after it.
 */
struct irc_call {
	heed_store_irc_network_fn *network;
	heed_store_irc_channel_fn *channel;
	heed_store_irc_server_fn *server;
	heed_store_irc_visit_fn *visit;
	void *ud;
	char *said[3];
	int nsaid;
	bool oom;
};

/* Column col, a text heed wrote: "" for SQL NULL. */
static const char *text_col(struct heed__sql *q, int col)
{
	const char *t = heed__sql_col_text(q, col);

	return t ? t : "";
}

/* Column col, what a server said, copied into c until the callback
 * returns ("" for SQL NULL; *len, may be NULL, its bytes). */
static const char *said_col(struct heed__sql *q, struct irc_call *c, int col,
                            size_t *len)
{
	size_t n = 0;
	char *p = heed__sql_col_bytes(q, col, &n, &c->oom);

	if (len)
		*len = n;
	if (!p)
		return "";
	c->said[c->nsaid++] = p;
	return p;
}

/* Frees the row's copies and says whether the walk stops: when a copy
 * failed (the callback was not called) or the callback said so. */
static int row_done(struct heed__sql *q, struct irc_call *c, int stop)
{
	while (c->nsaid > 0)
		heed__free(q->store->alloc, c->said[--c->nsaid]);
	return c->oom || stop;
}

/* Steps q to its end with row per row, released; HEED_ENOMEM when a
 * row's copy failed. */
static heed_status each_row(struct heed__sql *q,
                            int (*row)(struct heed__sql *q, void *ctx),
                            struct irc_call *c)
{
	heed_status rc = heed__sql_each(q, row, c);

	return rc == HEED_OK && c->oom ? HEED_ENOMEM : rc;
}

static int network_row(struct heed__sql *q, void *ctx)
{
	struct irc_call *c = ctx;
	struct heed_store_irc_network_row r = {
	        .id = heed__sql_col_int(q, 0, 0),
	        .key = text_col(q, 1),
	        .name = said_col(q, c, 2, NULL),
	        .last_status = text_col(q, 3),
	        .verdict = text_col(q, 4),
	        .cooldown_s = heed__sql_col_int(q, 5, -1),
	        .first_seen_s = heed__sql_col_int(q, 6, 0),
	        .last_visit_end_s = heed__sql_col_int(q, 7, -1),
	        .next_visit_s = heed__sql_col_int(q, 8, 0),
	        .users = heed__sql_col_int(q, 9, -1),
	        .servers = heed__sql_col_int(q, 10, -1),
	        .channels = heed__sql_col_int(q, 11, -1),
	};

	return row_done(q, c, c->oom ? 1 : c->network(c->ud, &r));
}

/* The networks in key order, each with its latest complete visit's
 * counts (the latest visit's before one completed). The engines spell
 * "in byte order" differently. */
#define NETWORKS_SQL(KEY_ORDER)                                          \
	"SELECT n.id, n.key, n.name, n.last_status, n.verdict, "         \
	"n.cooldown, n.first_seen, n.last_visit_end, n.next_visit_at, "  \
	"v.users, v.servers, v.channels_listed "                         \
	"FROM irc_networks n LEFT JOIN irc_visits v "                    \
	"ON v.id = coalesce(n.last_complete_visit_id, n.last_visit_id) " \
	"ORDER BY " KEY_ORDER ";"
#define SQLITE_KEY_ORDER "n.key"
#define PG_KEY_ORDER     "n.key COLLATE \"C\""

heed_status heed_store_irc_each_network(heed_store *store,
                                        heed_store_irc_network_fn *fn, void *ud)
{
	static const char *const sql[] = {
	        [HEED__SQL_SQLITE] = NETWORKS_SQL(SQLITE_KEY_ORDER),
	        [HEED__SQL_PG] = NETWORKS_SQL(PG_KEY_ORDER),
	};
	struct irc_call c = {.network = fn, .ud = ud};
	struct heed__sql q;

	if (heed__sql_prepare_dialect(store, &q, sql) != HEED_OK)
		return HEED_ESTORE;
	return each_row(&q, network_row, &c);
}

/* The public rows of a table x: the latest complete visit and later, of
 * networks whose verdict is neither ?2 nor ?3 (deny, invalid:
 * heed_store_irc_published), of network ?1 or, NULL, of all. */
#define PUBLIC_FILTER                                                   \
	"n.verdict NOT IN (?2, ?3) "                                    \
	"AND x.last_visit_id >= coalesce(n.last_complete_visit_id, 0) " \
	"AND (CAST(?1 AS TEXT) IS NULL OR n.key = ?1) "

/* Binds PUBLIC_FILTER's parameters. */
static void bind_public(struct heed__sql *q, const char *network_key)
{
	heed__sql_text(q, 1, network_key);
	heed__sql_text(q, 2, VERDICT(DENY));
	heed__sql_text(q, 3, VERDICT(INVALID));
}

/* A public listing: the columns of table x's public rows and their
 * network's, in network key and then name order. */
#define PUBLIC_SQL(COLUMNS, TABLE, KEY_ORDER)                               \
	"SELECT " COLUMNS " FROM " TABLE " x JOIN irc_networks n "          \
	"ON n.id = x.network_id WHERE " PUBLIC_FILTER "ORDER BY " KEY_ORDER \
	", x.name;"
#define CHANNEL_COLUMNS                                   \
	"n.id, n.key, n.name, x.name, x.users, x.topic, " \
	"x.first_seen, x.last_seen"
#define SERVER_COLUMNS                                                      \
	"n.id, n.key, x.name, x.hub, x.hops, x.description, x.first_seen, " \
	"x.last_seen"

enum public_list { PUBLIC_CHANNELS, PUBLIC_SERVERS };

static const char *const public_sql[][2] = {
        [PUBLIC_CHANNELS] =
                {
                        [HEED__SQL_SQLITE] =
                                PUBLIC_SQL(CHANNEL_COLUMNS, "irc_channels",
                                           SQLITE_KEY_ORDER),
                        [HEED__SQL_PG] = PUBLIC_SQL(
                                CHANNEL_COLUMNS, "irc_channels", PG_KEY_ORDER),
                },
        [PUBLIC_SERVERS] =
                {
                        [HEED__SQL_SQLITE] =
                                PUBLIC_SQL(SERVER_COLUMNS, "irc_servers",
                                           SQLITE_KEY_ORDER),
                        [HEED__SQL_PG] = PUBLIC_SQL(
                                SERVER_COLUMNS, "irc_servers", PG_KEY_ORDER),
                },
};

/* Prepares a public listing's statement with PUBLIC_FILTER's parameters
 * bound, and walks its rows. */
static heed_status each_public(heed_store *store, enum public_list list,
                               const char *network_key,
                               int (*row)(struct heed__sql *q, void *ctx),
                               struct irc_call *c)
{
	struct heed__sql q;

	if (heed__sql_prepare(store, &q,
	                      public_sql[list][heed__sql_dialect(store)]) !=
	    HEED_OK)
		return HEED_ESTORE;
	bind_public(&q, network_key);
	return each_row(&q, row, c);
}

static int channel_row(struct heed__sql *q, void *ctx)
{
	struct irc_call *c = ctx;
	struct heed_store_irc_channel_row r = {
	        .network_id = heed__sql_col_int(q, 0, 0),
	        .network_key = text_col(q, 1),
	        .network_name = said_col(q, c, 2, NULL),
	        .name = said_col(q, c, 3, NULL),
	        .users = heed__sql_col_int(q, 4, -1),
	        .first_seen_s = heed__sql_col_int(q, 6, 0),
	        .last_seen_s = heed__sql_col_int(q, 7, 0),
	};

	r.topic = said_col(q, c, 5, &r.topic_len);
	return row_done(q, c, c->oom ? 1 : c->channel(c->ud, &r));
}

heed_status heed_store_irc_each_channel(heed_store *store,
                                        const char *network_key,
                                        heed_store_irc_channel_fn *fn, void *ud)
{
	struct irc_call c = {.channel = fn, .ud = ud};

	return each_public(store, PUBLIC_CHANNELS, network_key, channel_row,
	                   &c);
}

static int server_row(struct heed__sql *q, void *ctx)
{
	struct irc_call *c = ctx;
	struct heed_store_irc_server_row r = {
	        .network_id = heed__sql_col_int(q, 0, 0),
	        .network_key = text_col(q, 1),
	        .name = said_col(q, c, 2, NULL),
	        .hub = said_col(q, c, 3, NULL),
	        .hops = (int)heed__sql_col_int(q, 4, -1),
	        .description = said_col(q, c, 5, NULL),
	        .first_seen_s = heed__sql_col_int(q, 6, 0),
	        .last_seen_s = heed__sql_col_int(q, 7, 0),
	};

	return row_done(q, c, c->oom ? 1 : c->server(c->ud, &r));
}

heed_status heed_store_irc_each_server(heed_store *store,
                                       const char *network_key,
                                       heed_store_irc_server_fn *fn, void *ud)
{
	struct irc_call c = {.server = fn, .ud = ud};

	return each_public(store, PUBLIC_SERVERS, network_key, server_row, &c);
}

static int visit_row(struct heed__sql *q, void *ctx)
{
	struct irc_call *c = ctx;
	struct heed_store_irc_visit_row r = {
	        .started_s = heed__sql_col_int(q, 0, 0),
	        .ended_s = heed__sql_col_int(q, 1, 0),
	        .status = text_col(q, 2),
	        .users = heed__sql_col_int(q, 3, -1),
	        .servers = heed__sql_col_int(q, 4, 0),
	        .channels = heed__sql_col_int(q, 5, 0),
	};

	return c->visit(c->ud, &r);
}

heed_status heed_store_irc_each_visit(heed_store *store,
                                      const char *network_key, int limit,
                                      heed_store_irc_visit_fn *fn, void *ud)
{
	struct irc_call c = {.visit = fn, .ud = ud};
	struct heed__sql q;

	/* The finished visits (status not ?5, running) of a published
	 * network, the last ?2, oldest first: users is LUSERS' visible plus
	 * invisible users. */
	if (heed__sql_prepare(
	            store, &q,
	            "SELECT started_at, ended_at, status, "
	            "users + coalesce(invisible, 0), servers_listed, "
	            "channels_listed FROM (SELECT v.* FROM irc_visits v "
	            "JOIN irc_networks n ON n.id = v.network_id "
	            "WHERE n.key = ?1 AND n.verdict NOT IN (?3, ?4) "
	            "AND v.ended_at IS NOT NULL AND v.status <> ?5 "
	            "ORDER BY v.id DESC LIMIT ?2) w ORDER BY id;") != HEED_OK)
		return HEED_ESTORE;
	heed__sql_text(&q, 1, network_key);
	if (limit < 0)
		heed__sql_limit(&q, 2, 0);
	else
		heed__sql_int(&q, 2, limit);
	heed__sql_text(&q, 3, VERDICT(DENY));
	heed__sql_text(&q, 4, VERDICT(INVALID));
	heed__sql_text(&q, 5, STATUS(RUNNING));
	return each_row(&q, visit_row, &c);
}

bool heed_store_irc_published(const char *verdict)
{
	return strcmp(verdict, VERDICT(DENY)) != 0 &&
	       strcmp(verdict, VERDICT(INVALID)) != 0;
}
