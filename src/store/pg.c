/*
 * The PostgreSQL backend: one libpq connection per store, to the
 * database a connection URI names ("postgresql://user@host:port/db"; any
 * URI libpq takes, parameters included). heed's tables live in the
 * connection's current schema (the first of its search_path).
 *
 * Opening looks before it writes, as the SQLite backend does: inspect()
 * reads the names of the schema's tables and the mark, a comment on the
 * table heed_schema written in the migration transaction, and refuses a
 * database that holds tables without the mark. No PostgreSQL store was ever
 * made without it, so unlike SQLite there is no unmarked heed store to
 * accept.
 *
 * Migrations run in one transaction that first takes a transaction-level
 * advisory lock, so two workers opening a new database at once migrate it
 * once: the second waits, then finds every area current.
 *
 * Every statement reaches the server through execute(), which survives
 * the server restarting (docs/scaling.md "When PostgreSQL
 * restarts"): a connection lost outside a transaction is made again, with
 * back-off, the session's state restored (read-only, the crawl lock), and
 * the statement run once more; one lost inside heed_store_begin's
 * transaction took the transaction with it, so the call, and every one
 * after it until the caller's COMMIT or ROLLBACK, answers HEED_ERETRY: the
 * caller redoes the transaction. COMMIT then never answers HEED_OK. A
 * batch (heed_store_begin_batch) is done again here instead ("Batches
 * done again", below).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "store/pg-int.h"
#include "store/sql-int.h"

/* The mark: heed_schema's comment. */
#define PG_MARK "heed store 0x68656564"

/* How long opening waits for the server, in seconds (libpq waits forever
 * by default). A connect_timeout in the URI wins. */
#define PG_CONNECT_TIMEOUT_S "10"

/* The PostgreSQL backend's areas in the order they are migrated (visits
 * after pages: its first migration fills it from them; search after
 * pages: its trigger and indexes are on the pages table). */
static const struct heed_store_area *const pg_areas[] = {
        &heed__store_core_area, &heed__pg_sites_area,
        &heed__pg_irc_area,     &heed__pg_frontier_area,
        &heed__pg_pages_area,   &heed__pg_visits_area,
        &heed__pg_search_area,  &heed__pg_arrangements_area,
        &heed__pg_leases_area,  NULL,
};

bool heed__pg_location(const char *location)
{
	return strncmp(location, "postgres:", 9) == 0 ||
	       strncmp(location, "postgresql:", 11) == 0;
}

/* Copies in[0..n) to *o, advancing it. */
static void put(char **o, const char *in, size_t n)
{
	memcpy(*o, in, n);
	*o += n;
}

char *heed__pg_redact(const struct heed_allocator *alloc, const char *location)
{
	size_t len = strlen(location);
	/* Each replacement writes 3 bytes for at least 0: at most one per
	 * byte, plus the user info's. */
	char *out = heed__malloc(alloc, 4 * len + 8), *o = out;
	const char *p = location, *auth = location + strcspn(location, ":/?#");
	const char *q;

	if (!out)
		return NULL;
	/* The authority follows the scheme's "://", nowhere else: a "://"
	 * in the path or the query is data. */
	if (strncmp(auth, "://", 3) == 0) {
		const char *end = auth + 3 + strcspn(auth + 3, "/?#");
		const char *at = NULL, *colon;
		for (q = auth + 3; q < end; q++)
			if (*q == '@')
				at = q;
		colon = at ? memchr(auth + 3, ':', (size_t)(at - auth - 3))
		           : NULL;
		if (colon) {
			put(&o, p, (size_t)(colon + 1 - p));
			put(&o, "***", 3);
			p = at;
		}
	}
	q = strchr(p, '?');
	if (q) {
		put(&o, p, (size_t)(q + 1 - p));
		p = q + 1;
		while (*p && *p != '#') {
			size_t n = strcspn(p, "&#");
			if (n >= 9 && strncmp(p, "password=", 9) == 0) {
				put(&o, p, 9);
				put(&o, "***", 3);
			} else {
				put(&o, p, n);
			}
			p += n;
			if (*p == '&')
				put(&o, p++, 1);
		}
	}
	put(&o, p, strlen(p) + 1);
	return out;
}

/* Reconnecting waits FIRST_WAIT_MS, doubling up to MAX_WAIT_MS, between
 * attempts: a restart takes a second or two, a failover longer, and a
 * fleet of workers must not hammer a server that is starting up. */
#define FIRST_WAIT_MS 100
#define MAX_WAIT_MS   5000

/* msg, or the connection's last error, in the store's messages: one line,
 * prefixed by prefix (may be ""). */
static void record(heed_store *store, const char *prefix, const char *msg)
{
	PGconn *conn = store->pg ? store->pg->conn : NULL;
	char *o = store->backend_err;
	const char *i;
	size_t n;

	if (!msg || !*msg)
		msg = conn ? PQerrorMessage(conn) : "no connection";
	snprintf(store->backend_err, sizeof(store->backend_err), "%s%.200s",
	         prefix, msg);
	/* libpq's messages span lines, indented by tabs: one line, single
	 * spaces. */
	for (i = store->backend_err; *i; i++) {
		bool space = *i == '\n' || *i == '\t' || *i == ' ';
		if (!space)
			*o++ = *i;
		else if (o > store->backend_err && o[-1] != ' ')
			*o++ = ' ';
	}
	*o = '\0';
	n = (size_t)(o - store->backend_err);
	while (n > 0 && store->backend_err[n - 1] == ' ')
		store->backend_err[--n] = '\0';
	memcpy(store->errmsg, store->backend_err, sizeof(store->errmsg));
}

static void record_error(heed_store *store, const char *msg)
{
	record(store, "", msg);
}

/* name: st prepared on conn under that name, or NULL. */
static PGresult *send_once(PGconn *conn, const struct heed__pg_stmt *st,
                           const char *name)
{
	if (st->simple)
		return PQexec(conn, st->sql);
	if (name)
		return PQexecPrepared(conn, name, st->n, st->params,
		                      st->lengths, st->formats, 0);
	return PQexecParams(conn, st->sql, st->n, NULL, st->params, st->lengths,
	                    st->formats, 0);
}

static bool succeeded(const PGresult *r)
{
	ExecStatusType st = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;

	return st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK;
}

/* Whether a failure of r on conn is the connection's, not the
 * statement's: libpq lost the socket, or the server said goodbye (SQLSTATE
 * class 08, connection exceptions; 57P01 admin_shutdown, 57P02
 * crash_shutdown, 57P03 cannot_connect_now). */
static bool connection_lost(PGconn *conn, const PGresult *r)
{
	const char *state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;

	if (PQstatus(conn) == CONNECTION_BAD)
		return true;
	return state &&
	       (strncmp(state, "08", 2) == 0 || strcmp(state, "57P01") == 0 ||
	        strcmp(state, "57P02") == 0 || strcmp(state, "57P03") == 0);
}

/* A failure the server resolves by aborting the transaction, which then
 * succeeds when done again: a deadlock (two workers' batches waiting on
 * each other's rows) or a serialization failure. */
static bool must_redo(const PGresult *r)
{
	const char *state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;

	return state &&
	       (strcmp(state, "40P01") == 0 || strcmp(state, "40001") == 0);
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void nap_ms(int64_t ms)
{
	struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000};

	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

/* A wait between wait / 2 and wait: workers that lost one server at the
 * same moment must not all come back at the same moment (xorshift64). */
static int64_t jittered(struct heed__pg *pg, int64_t wait)
{
	pg->rng ^= pg->rng << 13;
	pg->rng ^= pg->rng >> 7;
	pg->rng ^= pg->rng << 17;
	return wait / 2 + (int64_t)(pg->rng % (uint64_t)(wait / 2 + 1));
}

/*
 * Statements planned once. A statement sent with its text is parsed and
 * planned by the server every time: for the crawl's small writes and
 * reads that cost more than running them (pg_stat_statements with
 * track_planning: 0.2 ms a page of planning beside 0.6 of execution). A
 * batch's statements are prepared on the connection the first time they
 * are sent and executed by name after that. Only a batch's: a search's
 * plan depends on its parameters, and a plan made once for all of them
 * could be a poor one. A new connection has none prepared.
 */

/* Distinct statements prepared at most: the crawl's batches use about
 * thirty; past the bound, statements go with their text. */
#define PG_PREPARED_MAX 128
#define PG_NAME_SIZE    16

struct heed__pg_prepared {
	uint64_t hash;
	char *sql;
};

static void prepared_forget(heed_store *store)
{
	struct heed__pg *pg = store->pg;

	for (int i = 0; i < pg->prepared_count; i++)
		heed__free(store->alloc, pg->prepared[i].sql);
	pg->prepared_count = 0;
}

/* The pid heed[N] of the session holding the crawl lock, or 0. */
static long lock_holder(heed_store *store);

/* Runs sql on the new connection, no retry: HEED_OK, else the failure
 * recorded and whether the connection went again (HEED_ERETRY). */
static heed_status restore_one(heed_store *store, const char *sql, bool *yes)
{
	PGresult *r = PQexec(store->pg->conn, sql);
	heed_status rc = HEED_OK;

	if (!succeeded(r)) {
		record_error(store, r ? PQresultErrorMessage(r) : NULL);
		rc = connection_lost(store->pg->conn, r) ? HEED_ERETRY
		                                         : HEED_ESTORE;
	} else if (yes) {
		*yes = PQntuples(r) == 1 &&
		       strcmp(PQgetvalue(r, 0, 0), "t") == 0;
	}
	PQclear(r);
	return rc;
}

/* A worker's session: its transaction may hold locks other workers wait
 * for (its batch's rows, its hosts' lease rows until the commit). Cut off
 * from the server mid-transaction (a partition that never ends for that
 * connection), it would hold them until TCP keepalive gave up, hours
 * later; the server ends a transaction left idle this long instead, so
 * the others wait seconds, and the worker redoes its batch when it comes
 * back. A healthy batch is idle for well under a second at a time. */
#define WORKER_IDLE_TX_SQL "SET idle_in_transaction_session_timeout = '10s';"

static int64_t unix_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * A server restart counts as a beat of every worker that was alive when
 * the server went down: each such heartbeat lasts at least a lease from
 * the server's start. While the server was down no worker could renew,
 * so the first one back, or a worker started meanwhile, would otherwise
 * take the others' hosts over as if they had died (a stop of 3 s did,
 * with leases of 6 s). A session that comes back knows when it last had
 * an answer (lost_ms; a crawl's sessions are never idle for long): the
 * workers alive then count. A worker's first beat (the backend's
 * leases_over_restart) knows nothing of the stop, and counts those
 * alive in the lease before the start (lost_ms -1): every worker alive
 * at a stop of up to a lease and two thirds, since a live worker's
 * heartbeat has always two thirds of a lease left. The UPDATE is
 * idempotent, so every worker runs it; it writes nothing when the
 * server did not restart (a cut connection: its start is long past) or
 * started more than a lease ago, and a heartbeat renewed since the
 * start already outlasts it. Times are on the workers' clock, as in
 * lease_workers; the server's uptime moves its start onto that clock. A
 * failure is only logged: the leases then run their course.
 */
#define LEASES_OVER_RESTART_SQL                                          \
	"UPDATE lease_workers SET alive_until = s.up + $2::bigint FROM " \
	"(SELECT "                                                       \
	"$1::bigint - (extract(epoch FROM clock_timestamp() - "          \
	"pg_postmaster_start_time()) * 1000)::bigint AS up) s WHERE "    \
	"s.up + $2::bigint > $1::bigint AND alive_until > CASE WHEN "    \
	"$3::bigint < 0 THEN s.up - $2::bigint ELSE $3::bigint END AND " \
	"alive_until < s.up + $2::bigint;"

/* Runs the rule above: on the connection as it stands when a session is
 * restored (inside reconnect(), which must not reconnect again; a lost
 * connection is HEED_ERETRY), through execute() at a first beat. */
static heed_status leases_over_restart(heed_store *store, int64_t lost_ms)
{
	char now[HEED_PG_INT_SIZE], ttl[HEED_PG_INT_SIZE],
	        lost[HEED_PG_INT_SIZE];
	const char *params[] = {heed__pg_i64(now, unix_ms()),
	                        heed__pg_i64(ttl, store->lease_ttl_ms),
	                        heed__pg_i64(lost, lost_ms)};
	bool restoring = store->pg->reconnecting;
	PGresult *r = restoring ? PQexecParams(store->pg->conn,
	                                       LEASES_OVER_RESTART_SQL, 3, NULL,
	                                       params, NULL, NULL, 0)
	                        : heed__pg_query(store, LEASES_OVER_RESTART_SQL,
	                                         3, params);
	heed_status rc = HEED_OK;

	if (!succeeded(r)) {
		if (restoring && connection_lost(store->pg->conn, r))
			rc = HEED_ERETRY;
		else
			heed_log(&store->log, HEED_LOG_WARN, "store",
			         "keeping the workers' leases over the "
			         "server's restart: %s",
			         r ? PQresultErrorMessage(r) : store->errmsg);
	} else if (strtoll(PQcmdTuples(r), NULL, 10) > 0) {
		heed_log(&store->log, HEED_LOG_WARN, "store",
		         "the PostgreSQL server restarted: the leases of %s "
		         "workers alive then last a lease from its start",
		         PQcmdTuples(r));
	}
	PQclear(r);
	return rc;
}

static void pg_leases_over_restart(heed_store *store)
{
	(void)leases_over_restart(store, -1);
}

/* Gives the new session what the lost one had: a reader's read-only
 * default, and the crawl lock, unless another process took it meanwhile:
 * then two crawls would share the store, so HEED_EBUSY. A worker's
 * session then keeps the leases over a restart of the server (lost_ms:
 * when the old one last had an answer, on the workers' clock). */
static heed_status restore(heed_store *store, int64_t lost_ms)
{
	struct heed__pg *pg = store->pg;
	heed_status rc = HEED_OK;
	bool got = false;
	long holder;

	if (pg->read_only)
		rc = restore_one(
		        store, "SET default_transaction_read_only = on;", NULL);
	if (rc == HEED_OK && pg->locked && pg->lock_shared)
		rc = restore_one(store, WORKER_IDLE_TX_SQL, NULL);
	if (rc != HEED_OK || !pg->locked)
		return rc;
	rc = restore_one(
	        store,
	        pg->lock_shared
	                ? "SELECT pg_try_advisory_lock_shared(" HEED_PG_LOCK_KEY
	                  ", " HEED_PG_LOCK_CRAWL ");"
	                : "SELECT pg_try_advisory_lock(" HEED_PG_LOCK_KEY
	                  ", " HEED_PG_LOCK_CRAWL ");",
	        &got);
	if (rc == HEED_OK && got && pg->lock_shared && store->lease_ttl_ms > 0)
		rc = leases_over_restart(store, lost_ms);
	if (rc != HEED_OK || got)
		return rc;
	pg->locked = false;
	holder = lock_holder(store);
	pg->lock_lost = true;
	if (holder > 0)
		snprintf(store->errmsg, sizeof(store->errmsg),
		         "reconnected to the store '%.120s', but another heed "
		         "process (pid %ld) took its crawl lock meanwhile",
		         store->location, holder);
	else
		snprintf(store->errmsg, sizeof(store->errmsg),
		         "reconnected to the store '%.120s', but another heed "
		         "process took its crawl lock meanwhile",
		         store->location);
	memcpy(store->backend_err, store->errmsg, sizeof(store->errmsg));
	return HEED_EBUSY;
}

/*
 * Makes the connection again after why lost it, waiting between attempts
 * for at most store->reconnect_ms in all: HEED_OK with the session
 * restored, HEED_EBUSY (restore), or HEED_ESTORE with the reason.
 */
static heed_status reconnect(heed_store *store, const char *why)
{
	struct heed__pg *pg = store->pg;
	int64_t start = now_ms(), wait = FIRST_WAIT_MS, nap = 0, spent;
	int64_t lost_ms = pg->answered_ms ? pg->answered_ms : unix_ms();
	char lost[160], prefix[128];
	heed_status rc;
	int attempt;

	snprintf(lost, sizeof(lost), "%s", why);
	lost[strcspn(lost, "\n")] = '\0';
	if (store->reconnect_ms <= 0) {
		record(store,
		       "lost the connection to PostgreSQL "
		       "(store.reconnect_timeout is 0): ",
		       lost);
		return HEED_ESTORE;
	}
	pg->reconnecting = true;
	/* Bounded: each turn sleeps at least FIRST_WAIT_MS / 2 or ends. */
	for (attempt = 1;; attempt++) {
		heed_log(&store->log, HEED_LOG_WARN, "store",
		         "lost the connection to the PostgreSQL store '%s' "
		         "(%s): reconnecting, attempt %d after %.1f s",
		         store->location, lost, attempt, (double)nap / 1000);
		PQreset(pg->conn);
		prepared_forget(store);
		if (PQstatus(pg->conn) == CONNECTION_OK) {
			pg->broken = false; /* restore's lock_holder runs */
			rc = restore(store, lost_ms);
			if (rc != HEED_ERETRY) {
				pg->reconnecting = false;
				return rc;
			}
		}
		spent = now_ms() - start;
		if (spent >= store->reconnect_ms)
			break;
		nap = jittered(pg, wait);
		if (nap > store->reconnect_ms - spent)
			nap = store->reconnect_ms - spent;
		nap_ms(nap);
		wait = wait * 2 > MAX_WAIT_MS ? MAX_WAIT_MS : wait * 2;
	}
	pg->reconnecting = false;
	snprintf(prefix, sizeof(prefix),
	         "lost the connection to PostgreSQL and could not reconnect "
	         "in %d attempts over %.0f s (store.reconnect_timeout): ",
	         attempt, (double)store->reconnect_ms / 1000);
	record(store, prefix, NULL);
	return HEED_ESTORE;
}

/* The transaction died with the connection: the caller hears HEED_ERETRY
 * until it ends the transaction. */
static PGresult *tx_lost(heed_store *store, const char *why)
{
	store->pg->tx_lost = true;
	store->pg->status = HEED_ERETRY;
	record(store,
	       "the store's connection was lost; the transaction was rolled "
	       "back: ",
	       why);
	return NULL;
}

/*
 * Pipelined writes. A crawl's batch is mostly writes whose results it
 * never reads (a page, a visit, frontier states), and waiting for each one's
 * answer made a PostgreSQL crawl idle on the network between statements.
 * Inside a transaction, heed__pg_run without a row count sends its
 * statement in libpq's pipeline mode and returns at once; the next
 * statement that needs an answer goes into the same pipeline, followed by
 * a sync, and the answers are read in order: one round trip for the writes
 * and the read together. A write that failed fails that statement (its
 * transaction, aborted by the server, is then rolled back and redone, or
 * the run ends, as for a write that failed at once); a lost connection or
 * a deadlock loses the transaction as usual (HEED_ERETRY).
 */

/* Writes held back at most: their answers wait in the socket's buffers,
 * which must not fill while the server waits for heed to read them. */
#define PG_PIPELINE_MAX 256

static void pipeline_reset(struct heed__pg *pg)
{
	pg->pipeline = false;
	pg->pending = 0;
}

/* Reads one statement's answer from the pipeline; false on a failure,
 * kept in *failed (the first one; the caller PQclears it). A batch's
 * statement (kept, at index kept of its log) gets its answer's
 * fingerprint. */
static bool pipeline_answer(struct heed__pg *pg, size_t kept, PGresult **failed)
{
	PGconn *conn = pg->conn;
	PGresult *r = PQgetResult(conn), *end;
	bool ok = r &&
	          (succeeded(r) || PQresultStatus(r) == PGRES_PIPELINE_ABORTED);

	if (r && succeeded(r) && pg->batch)
		heed__pg_redo_answered(pg->redo, kept,
		                       heed__pg_redo_fingerprint(r));
	if (r && PQresultStatus(r) == PGRES_FATAL_ERROR && !*failed)
		*failed = r;
	else
		PQclear(r);
	/* Each statement's answer ends with a NULL result. */
	while (r && (end = PQgetResult(conn)) != NULL)
		PQclear(end);
	return ok && PQstatus(conn) == CONNECTION_OK;
}

/* The failure of a pipelined statement (failed, cleared here): recorded,
 * and reported as execute() reports one. */
static heed_status pipeline_failed(heed_store *store, PGresult *failed)
{
	struct heed__pg *pg = store->pg;
	heed_status rc = HEED_ESTORE;

	record_error(store, PQresultErrorMessage(failed));
	if (must_redo(failed) || connection_lost(pg->conn, failed)) {
		pg->broken = PQstatus(pg->conn) != CONNECTION_OK;
		pg->tx_lost = true;
		rc = HEED_ERETRY;
	}
	PQclear(failed);
	pg->status = rc;
	return rc;
}

/*
 * Ends the pipeline: last (may be NULL) sent after the pending writes,
 * then a sync, every answer read in order, back to ordinary mode. *out
 * (with last) receives last's result. HEED_OK, or the failure as
 * execute() reports one (the message recorded, pg->status, a lost
 * transaction). keep_going: read and drop every answer whatever it says
 * (a ROLLBACK follows).
 */
static heed_status pipeline_end(heed_store *store, bool keep_going,
                                const struct heed__pg_stmt *last,
                                const char *last_name, PGresult **out)
{
	struct heed__pg *pg = store->pg;
	PGresult *failed = NULL, *r = NULL;
	bool broken = false;
	size_t kept;

	if (!pg->pipeline)
		return HEED_OK;
	/* The pending writes are the last ones the batch's log kept. */
	kept = pg->batch ? heed__pg_redo_count(pg->redo) - (size_t)pg->pending
	                 : 0;
	if (last &&
	    (last_name ? PQsendQueryPrepared(pg->conn, last_name, last->n,
	                                     last->params, last->lengths,
	                                     last->formats, 0)
	               : PQsendQueryParams(pg->conn, last->sql, last->n, NULL,
	                                   last->params, last->lengths,
	                                   last->formats, 0)) != 1)
		broken = true;
	if (!broken && PQpipelineSync(pg->conn) != 1)
		broken = true;
	for (int i = 0; !broken && i < pg->pending; i++)
		if (!pipeline_answer(pg, kept + (size_t)i, &failed) &&
		    PQstatus(pg->conn) != CONNECTION_OK)
			broken = true;
	if (!broken && last) {
		PGresult *end;
		r = PQgetResult(pg->conn);
		while (r && (end = PQgetResult(pg->conn)) != NULL)
			PQclear(end);
		broken = !r;
	}
	if (!broken) {
		PGresult *sync = PQgetResult(pg->conn);
		broken = !sync || PQresultStatus(sync) != PGRES_PIPELINE_SYNC;
		PQclear(sync);
	}
	if (!broken && PQexitPipelineMode(pg->conn) != 1)
		broken = true;
	pipeline_reset(pg);
	if (keep_going || broken) {
		PQclear(failed);
		PQclear(r);
		if (broken)
			pg->broken = true;
		if (!broken || keep_going)
			return HEED_OK;
		record_error(store, PQerrorMessage(pg->conn));
		tx_lost(store, store->backend_err);
		return HEED_ERETRY;
	}
	if (!failed && r && !succeeded(r)) {
		failed = r; /* last's own failure */
		r = NULL;
	}
	if (failed) {
		PQclear(r);
		return pipeline_failed(store, failed);
	}
	if (out)
		*out = r;
	else
		PQclear(r);
	pg->status = HEED_OK;
	return HEED_OK;
}

/* The name st is prepared under on this connection ("Statements planned
 * once"), preparing it first (after the pipeline's pending answers) when
 * it is new; NULL: send it with its text (not a batch's, too many, or the
 * preparing failed: then pg->tx_lost says whether the batch went too). */
static const char *statement_name(heed_store *store,
                                  const struct heed__pg_stmt *st,
                                  char name[PG_NAME_SIZE])
{
	struct heed__pg *pg = store->pg;
	uint64_t hash;
	PGresult *r;
	char *sql;
	int i;

	if (!pg->batch || st->simple || pg->tx_lost || pg->broken)
		return NULL;
	hash = heed__hash_str(st->sql);
	for (i = 0; i < pg->prepared_count; i++)
		if (pg->prepared[i].hash == hash &&
		    strcmp(pg->prepared[i].sql, st->sql) == 0)
			break;
	snprintf(name, PG_NAME_SIZE, "heed_%d", i);
	if (i < pg->prepared_count)
		return name;
	if (i == PG_PREPARED_MAX ||
	    (!pg->prepared &&
	     !(pg->prepared = heed__calloc(store->alloc, PG_PREPARED_MAX,
	                                   sizeof(*pg->prepared)))) ||
	    !(sql = heed__strndup(store->alloc, st->sql, strlen(st->sql))))
		return NULL;
	if (pg->pipeline &&
	    pipeline_end(store, false, NULL, NULL, NULL) != HEED_OK) {
		heed__free(store->alloc, sql);
		return NULL;
	}
	r = PQprepare(pg->conn, name, st->sql, st->n, NULL);
	if (!succeeded(r)) {
		record_error(store, r ? PQresultErrorMessage(r) : NULL);
		if (connection_lost(pg->conn, r)) {
			pg->broken = true;
			tx_lost(store, store->backend_err);
		}
		PQclear(r);
		heed__free(store->alloc, sql);
		return NULL;
	}
	PQclear(r);
	pg->prepared[i].hash = hash;
	pg->prepared[i].sql = sql;
	pg->prepared_count++;
	return name;
}

/* Sends a write without waiting for its answer (see above): HEED_OK, or
 * the failure to send it. */
static heed_status pipeline_send(heed_store *store,
                                 const struct heed__pg_stmt *st)
{
	struct heed__pg *pg = store->pg;
	char buf[PG_NAME_SIZE];
	const char *name = statement_name(store, st, buf);

	if (pg->tx_lost) {
		pg->status = HEED_ERETRY;
		return HEED_ERETRY;
	}
	if (pg->pending >= PG_PIPELINE_MAX) {
		heed_status rc = pipeline_end(store, false, NULL, NULL, NULL);
		if (rc != HEED_OK)
			return rc;
	}
	if (!pg->pipeline) {
		if (PQenterPipelineMode(pg->conn) != 1)
			return HEED_ESTORE;
		pg->pipeline = true;
	}
	if ((name ? PQsendQueryPrepared(pg->conn, name, st->n, st->params,
	                                st->lengths, st->formats, 0)
	          : PQsendQueryParams(pg->conn, st->sql, st->n, NULL,
	                              st->params, st->lengths, st->formats,
	                              0)) != 1) {
		record_error(store, PQerrorMessage(pg->conn));
		pipeline_end(store, true, NULL, NULL, NULL);
		pg->broken = true;
		tx_lost(store, store->backend_err);
		return HEED_ERETRY;
	}
	pg->pending++;
	pg->status = HEED_OK;
	return HEED_OK;
}

/* Whether st may go without waiting: a write whose answer nobody reads,
 * inside a transaction on a healthy connection. */
static bool may_pipeline(const struct heed__pg *pg)
{
	return pg && pg->conn && !pg->broken && !pg->tx_lost &&
	       !pg->lock_lost && !pg->reconnecting &&
	       (pg->pipeline ||
	        (PQstatus(pg->conn) == CONNECTION_OK &&
	         PQtransactionStatus(pg->conn) == PQTRANS_INTRANS));
}

/* Sends st once (reconnecting first when outside a transaction): its
 * result, or NULL with the failure in store->pg->status and the message
 * in the store's. */
static PGresult *execute_once(heed_store *store, const struct heed__pg_stmt *st)
{
	struct heed__pg *pg = store->pg;
	char why[HEED_DIAG_SIZE] = "", buf[PG_NAME_SIZE];
	const char *name;
	PGresult *r;
	heed_status rc;
	bool in_tx;

	if (!pg || !pg->conn) {
		record_error(store, "no connection");
		if (pg)
			pg->status = HEED_ESTORE;
		return NULL;
	}
	pg->status = HEED_ESTORE;
	if (pg->lock_lost) {
		/* The store is another crawl's now: this one must stop. */
		pg->status = HEED_EBUSY;
		return NULL;
	}
	name = statement_name(store, st, buf);
	if (pg->pipeline && !st->simple) {
		/* One round trip: the writes sent before, then st. */
		r = NULL;
		return pipeline_end(store, false, st, name, &r) == HEED_OK
		               ? r
		               : NULL;
	}
	if (pg->pipeline) {
		/* The writes sent before answer first, in order; a string of
		 * several statements (the simple protocol) cannot join them. */
		rc = pipeline_end(store, strcmp(st->sql, "ROLLBACK;") == 0,
		                  NULL, NULL, NULL);
		if (rc != HEED_OK) {
			pg->status = rc;
			return NULL;
		}
	}
	if (pg->tx_lost) {
		/* COMMIT of a lost transaction fails; ROLLBACK ends it and
		 * goes on below, on a new connection. */
		bool end = st->simple && strcmp(st->sql, "ROLLBACK;") == 0;
		if (!end && !(st->simple && strcmp(st->sql, "COMMIT;") == 0))
			return tx_lost(store, "earlier in this transaction; "
			                      "end it and redo it");
		pg->tx_lost = false;
		if (!end) {
			pg->status = HEED_ERETRY;
			record(store, "", heed_strerror(HEED_ERETRY));
			return NULL;
		}
	}
	/* Sent at most twice: once, and once more on a new connection. */
	for (int sent = 0; sent < 2; sent++) {
		if (pg->broken || PQstatus(pg->conn) != CONNECTION_OK) {
			if (pg->reconnecting)
				return NULL; /* restore's own statement */
			rc = reconnect(store,
			               why[0] ? why : PQerrorMessage(pg->conn));
			if (rc != HEED_OK) {
				pg->status = rc;
				return NULL;
			}
			pg->broken = false;
			name = NULL; /* prepared on the connection that went */
		}
		in_tx = PQtransactionStatus(pg->conn) != PQTRANS_IDLE;
		r = send_once(pg->conn, st, name);
		if (succeeded(r)) {
			pg->status = HEED_OK;
			pg->answered_ms = unix_ms();
			return r;
		}
		record_error(store, r ? PQresultErrorMessage(r) : NULL);
		if (in_tx && must_redo(r)) {
			/* The server ended the transaction to break a
			 * deadlock (or a serialization conflict): like a lost
			 * connection, the caller redoes it. */
			PQclear(r);
			pg->tx_lost = true;
			pg->status = HEED_ERETRY;
			return NULL;
		}
		if (!connection_lost(pg->conn, r)) {
			PQclear(r);
			return NULL;
		}
		PQclear(r);
		snprintf(why, sizeof(why), "%s", store->backend_err);
		pg->broken = true;
		if (in_tx)
			return tx_lost(store, why);
	}
	record(store, "lost the connection to PostgreSQL again at once: ", why);
	return NULL;
}

/*
 * Batches done again. heed_store_begin_batch's transaction keeps a copy
 * of each statement it sends, with a fingerprint of the answer
 * (src/store/pg_redo.c). When the server loses the batch (a restart, a
 * cut connection: SQLSTATE class 08 or 57P0x; a deadlock or serialization
 * failure it broke by aborting the batch), execute() does not hand the
 * loss to the caller: it makes the connection again if it must, begins a
 * new transaction, sends the kept statements again in order, and then the
 * statement that met the loss. The caller never learns of it, and a crawl
 * does not have to start its sites again from what was committed, asking
 * servers again for what the lost batch recorded.
 *
 * Done again, each statement must get the answer it got the first time
 * (the same rows read, the same count of rows written): the caller may
 * have acted on the first. A different answer (another worker took a
 * lease the batch's fence read, a row whose id came from a sequence was
 * read back) gives the batch up, and so does a failure of any other kind
 * or REDO_ATTEMPTS losses in a row: the caller then hears HEED_ERETRY, as
 * for any lost transaction, and redoes it its own way.
 *
 * A connection lost during COMMIT leaves one question: did the server
 * commit before it went? The batch's transaction id, read when it began,
 * answers it on the new connection (pg_xact_status): committed, the
 * COMMIT succeeded; aborted, the batch is done again and committed; still
 * in progress (the old session lives on in the server, cut off from
 * heed), nobody can say yet, and the batch is given up.
 */

/* Losses in a row a batch is done again after, before it is given up. */
#define REDO_ATTEMPTS 4

#define BATCH_BEGIN_SQL "BEGIN; SELECT pg_current_xact_id();"

static bool is_sql(const struct heed__pg_stmt *st, const char *sql)
{
	return st->simple && strcmp(st->sql, sql) == 0;
}

/* Ends the batch: nothing more is kept, and rows still held go with it
 * (a COMMIT sent them first). */
static void batch_end(heed_store *store)
{
	struct heed__pg *pg = store->pg;

	pg->batch = false;
	if (pg->redo)
		heed__pg_redo_clear(pg->redo);
	heed__pg_held_drop(store);
}

/* Gives the lost batch up: the caller hears HEED_ERETRY from now until
 * its ROLLBACK (as pg.c's top says of any lost transaction). */
static PGresult *batch_given_up(heed_store *store, const char *why)
{
	struct heed__pg *pg = store->pg;
	char what[HEED_DIAG_SIZE];

	snprintf(what, sizeof(what), "%s", why);
	heed_log(&store->log, HEED_LOG_WARN, "store",
	         "a lost batch of %zu statements could not be done again (%s): "
	         "its writes are rolled back",
	         heed__pg_redo_count(pg->redo), what);
	batch_end(store);
	return tx_lost(store, what);
}

/* Whether a lost COMMIT took effect, asked on the new connection:
 * HEED_OK with *committed, HEED_ERETRY when the connection went again,
 * HEED_ESTORE when the server cannot say yet. */
static heed_status commit_outcome(heed_store *store, bool *committed)
{
	struct heed__pg *pg = store->pg;
	const char *xid = heed__pg_redo_xid(pg->redo);
	const char *state;
	PGresult *r;
	heed_status rc = HEED_OK;

	*committed = false;
	if (!xid)
		return HEED_OK; /* never began: nothing to commit */
	r = PQexecParams(pg->conn, "SELECT pg_xact_status($1::xid8);", 1, NULL,
	                 &xid, NULL, NULL, 0);
	if (!succeeded(r)) {
		record_error(store, r ? PQresultErrorMessage(r) : NULL);
		rc = connection_lost(pg->conn, r) ? HEED_ERETRY : HEED_ESTORE;
		pg->broken = rc == HEED_ERETRY;
	} else {
		state = PQntuples(r) == 1 ? PQgetvalue(r, 0, 0) : "";
		if (strcmp(state, "in progress") == 0) {
			record(store, "",
			       "the lost COMMIT's transaction is still "
			       "in progress on the server");
			rc = HEED_ESTORE;
		}
		*committed = strcmp(state, "committed") == 0;
	}
	PQclear(r);
	return rc;
}

/* Sends the kept statements again in a new transaction: HEED_OK,
 * HEED_ERETRY (lost again: try again), or another status (give up, the
 * reason recorded). */
static heed_status replay(heed_store *store)
{
	struct heed__pg *pg = store->pg;
	struct heed__pg_redo *log = pg->redo;
	PGresult *r = PQexec(pg->conn, BATCH_BEGIN_SQL);
	heed_status rc = HEED_OK;

	for (size_t i = 0; rc == HEED_OK; i++) {
		struct heed__pg_stmt st;
		if (!succeeded(r)) {
			record_error(store, r ? PQresultErrorMessage(r) : NULL);
			if (connection_lost(pg->conn, r))
				pg->broken = true;
			rc = pg->broken || must_redo(r) ? HEED_ERETRY
			                                : HEED_ESTORE;
			break;
		}
		if (i == 0)
			heed__pg_redo_set_xid(log, PQntuples(r) == 1
			                                   ? PQgetvalue(r, 0, 0)
			                                   : NULL);
		else if (!heed__pg_redo_same(log, i - 1,
		                             heed__pg_redo_fingerprint(r))) {
			record(store, "",
			       "a statement done again got another answer than "
			       "the first time (another session changed its "
			       "rows)");
			rc = HEED_ESTORE;
			break;
		}
		PQclear(r);
		r = NULL;
		if (i == heed__pg_redo_count(log))
			break;
		heed__pg_redo_get(log, i, &st);
		r = send_once(pg->conn, &st, NULL);
	}
	PQclear(r);
	if (rc != HEED_OK && !pg->broken)
		PQclear(PQexec(pg->conn, "ROLLBACK;"));
	return rc;
}

/* The batch was lost when st was sent (or before, unnoticed): done again,
 * then st; st's result, or NULL as execute_once says. */
static PGresult *batch_redone(heed_store *store, const struct heed__pg_stmt *st)
{
	struct heed__pg *pg = store->pg;
	bool commit = is_sql(st, "COMMIT;"), committed;
	heed_status rc;
	PGresult *r;

	for (int attempt = 1; attempt <= REDO_ATTEMPTS; attempt++) {
		if (pg->pipeline)
			pipeline_end(store, true, NULL, NULL, NULL);
		pg->tx_lost = false;
		if (pg->broken || PQstatus(pg->conn) != CONNECTION_OK) {
			rc = reconnect(store, store->backend_err);
			if (rc != HEED_OK)
				return batch_given_up(store,
				                      store->backend_err);
			pg->broken = false;
		} else {
			/* The server aborted the batch: end it, and wait a
			 * little for the session it deadlocked with. */
			PQclear(PQexec(pg->conn, "ROLLBACK;"));
			nap_ms(jittered(pg, FIRST_WAIT_MS));
		}
		rc = commit ? commit_outcome(store, &committed) : HEED_OK;
		if (rc == HEED_OK && commit && committed) {
			batch_end(store);
			pg->status = HEED_OK;
			return PQmakeEmptyPGresult(pg->conn, PGRES_COMMAND_OK);
		}
		if (rc == HEED_OK)
			rc = replay(store);
		if (rc == HEED_ERETRY)
			continue;
		if (rc != HEED_OK)
			return batch_given_up(store, store->backend_err);
		heed_log(&store->log, HEED_LOG_WARN, "store",
		         "a lost batch was done again on a new connection: its "
		         "%zu statements sent again, all answered as before",
		         heed__pg_redo_count(pg->redo));
		r = execute_once(store, st);
		if (r || !pg->tx_lost)
			return r;
	}
	return batch_given_up(store, "lost again each time it was done again");
}

/* Keeps st, answered by r, in the batch's log; out of memory, the batch
 * can no longer be done again, and a loss reaches the caller. */
static void batch_keep(heed_store *store, const struct heed__pg_stmt *st,
                       const PGresult *r)
{
	struct heed__pg *pg = store->pg;

	if (heed__pg_redo_keep(pg->redo, st) != HEED_OK) {
		batch_end(store);
		return;
	}
	if (r)
		heed__pg_redo_answered(pg->redo,
		                       heed__pg_redo_count(pg->redo) - 1,
		                       heed__pg_redo_fingerprint(r));
}

void heed__pg_redo_bind_last(heed_store *store, int param, const char *value)
{
	struct heed__pg *pg = store->pg;
	size_t n = pg->redo ? heed__pg_redo_count(pg->redo) : 0;

	if (pg->batch && n &&
	    heed__pg_redo_rebind(pg->redo, n - 1, param, value) != HEED_OK)
		batch_end(store);
}

/* Sends the held rows st may see (pg_held.c) before it; a ROLLBACK
 * forgets them. HEED_OK, or the failure recorded in pg->status. */
static heed_status held_before(heed_store *store,
                               const struct heed__pg_stmt *st)
{
	unsigned kinds;
	heed_status rc;

	if (!store->pg || !store->pg->held)
		return HEED_OK;
	if (is_sql(st, "ROLLBACK;")) {
		heed__pg_held_drop(store);
		return HEED_OK;
	}
	kinds = HEED__HELD_ALL & ~st->blind;
	if (st->scope && (kinds & st->scope->kind) &&
	    !heed__pg_held_names(store, st->scope))
		kinds &= ~st->scope->kind;
	rc = heed__pg_held_send(store, kinds);
	if (rc != HEED_OK)
		store->pg->status = rc;
	return rc;
}

/* The one path of every statement to the server (see the top of the
 * file): its result, or NULL with the failure in store->pg->status
 * (heed__pg_failed) and the message in the store's. */
static PGresult *execute(heed_store *store, const struct heed__pg_stmt *st)
{
	struct heed__pg *pg = store->pg;
	bool ends = is_sql(st, "COMMIT;") || is_sql(st, "ROLLBACK;");
	PGresult *r;

	if (held_before(store, st) != HEED_OK)
		return NULL;
	r = execute_once(store, st);
	if (!pg || !pg->batch)
		return r;
	if (!r && pg->tx_lost && !is_sql(st, "ROLLBACK;"))
		r = batch_redone(store, st);
	if (ends)
		batch_end(store);
	else if (r && pg->batch)
		batch_keep(store, st, r);
	return r;
}

static heed_status pg_begin_batch(heed_store *store)
{
	struct heed__pg *pg = store->pg;
	const struct heed__pg_stmt st = {
	        BATCH_BEGIN_SQL, 0, NULL, NULL, NULL, true};
	PGresult *r;

	if (!pg->redo && !(pg->redo = heed__pg_redo_new(store->alloc)))
		return HEED_ENOMEM;
	batch_end(store);
	r = execute(store, &st);
	if (!r)
		return heed__pg_failed(store);
	heed__pg_redo_set_xid(pg->redo,
	                      PQntuples(r) == 1 ? PQgetvalue(r, 0, 0) : NULL);
	PQclear(r);
	pg->batch = true;
	return HEED_OK;
}

heed_status heed__pg_failed(const heed_store *store)
{
	return store->pg && store->pg->status != HEED_OK ? store->pg->status
	                                                 : HEED_ESTORE;
}

PGresult *heed__pg_query(heed_store *store, const char *sql, int n,
                         const char *const *params)
{
	return heed__pg_query_ex(store, sql, n, params, NULL, NULL);
}

PGresult *heed__pg_query_ex(heed_store *store, const char *sql, int n,
                            const char *const *params, const int *lengths,
                            const int *formats)
{
	const struct heed__pg_stmt st = {sql,     n,       params,
	                                 lengths, formats, false};

	return execute(store, &st);
}

PGresult *heed__pg_query_st(heed_store *store, const struct heed__pg_stmt *st)
{
	return execute(store, st);
}

bool heed__pg_may_hold(const heed_store *store)
{
	return store->pg && store->pg->batch && may_pipeline(store->pg);
}

heed_status heed__pg_run(heed_store *store, const char *sql, int n,
                         const char *const *params, int64_t *changed)
{
	return heed__pg_run_ex(store, sql, n, params, NULL, NULL, changed);
}

heed_status heed__pg_run_ex(heed_store *store, const char *sql, int n,
                            const char *const *params, const int *lengths,
                            const int *formats, int64_t *changed)
{
	const struct heed__pg_stmt st = {sql,     n,       params,
	                                 lengths, formats, false};

	return heed__pg_run_st(store, &st, changed);
}

heed_status heed__pg_run_st(heed_store *store, const struct heed__pg_stmt *st,
                            int64_t *changed)
{
	PGresult *r;

	if (!changed && may_pipeline(store->pg)) {
		struct heed__pg *pg = store->pg;
		heed_status rc = held_before(store, st);
		if (rc == HEED_OK)
			rc = pipeline_send(store, st);
		if (rc == HEED_OK && pg->batch)
			batch_keep(store, st, NULL);
		if (rc != HEED_ERETRY || !pg->batch)
			return rc;
		/* Lost with the writes sent before: done again, then st. */
		r = batch_redone(store, st);
		if (r && pg->batch)
			batch_keep(store, st, r);
		PQclear(r);
		return r ? HEED_OK : heed__pg_failed(store);
	}
	r = execute(store, st);

	if (changed)
		*changed = r ? strtoll(PQcmdTuples(r), NULL, 10) : 0;
	if (!r)
		return heed__pg_failed(store);
	PQclear(r);
	return HEED_OK;
}

const char *heed__pg_text(const PGresult *r, int row, int col)
{
	return PQgetisnull(r, row, col) ? NULL : PQgetvalue(r, row, col);
}

int64_t heed__pg_int(const PGresult *r, int row, int col, int64_t absent)
{
	if (PQgetisnull(r, row, col))
		return absent;
	return strtoll(PQgetvalue(r, row, col), NULL, 10);
}

char *heed__pg_dup(heed_store *store, const PGresult *r, int row, int col,
                   bool *oom)
{
	char *copy;

	if (PQgetisnull(r, row, col))
		return NULL;
	copy = heed__strndup(store->alloc, PQgetvalue(r, row, col),
	                     (size_t)PQgetlength(r, row, col));
	if (!copy)
		*oom = true;
	return copy;
}

char *heed__pg_bytes(heed_store *store, const PGresult *r, int row, int col,
                     size_t *len, bool *oom)
{
	unsigned char *raw;
	size_t n = 0;
	char *copy = NULL;

	if (len)
		*len = 0;
	if (PQgetisnull(r, row, col))
		return NULL;
	/* Results come as text: a bytea is escaped ("\x4865..."). */
	raw = PQunescapeBytea((const unsigned char *)PQgetvalue(r, row, col),
	                      &n);
	if (raw)
		copy = heed__strndup(store->alloc, (const char *)raw, n);
	PQfreemem(raw);
	if (!copy) {
		*oom = true;
		return NULL;
	}
	if (len)
		*len = n;
	return copy;
}

const char *heed__pg_i64(char buf[HEED_PG_INT_SIZE], int64_t v)
{
	snprintf(buf, HEED_PG_INT_SIZE, "%lld", (long long)v);
	return buf;
}

/* Several statements, no parameters (migrations, BEGIN; ...). */
static heed_status pg_exec(heed_store *store, const char *sql)
{
	const struct heed__pg_stmt st = {sql, 0, NULL, NULL, NULL, true};
	PGresult *r = execute(store, &st);

	if (!r)
		return heed__pg_failed(store);
	PQclear(r);
	return HEED_OK;
}

/*
 * Reads the tables of the connection's current schema and decides whether
 * heed may use the database (heed_store_open_ex's contract): the mark makes
 * a heed store, no tables a new one, anything else is someone else's.
 */
static heed_status inspect(heed_store *store, struct heed_diag *diag)
{
	static const char sql[] =
	        "SELECT c.relname, c.relname = 'heed_schema' AND "
	        "coalesce(obj_description(c.oid, 'pg_class'), '') = "
	        "'" PG_MARK "' "
	        "FROM pg_class c JOIN pg_namespace n "
	        "ON n.oid = c.relnamespace "
	        "WHERE n.nspname = current_schema() "
	        "AND c.relkind IN ('r', 'p', 'v', 'm', 'f') "
	        "ORDER BY c.relname COLLATE \"C\";";
	PGresult *r = heed__pg_query(store, sql, 0, NULL);
	char foreign[160] = "";
	int rows, listed = 0, nforeign = 0, i;

	if (!r)
		return heed__store_fail(store, diag, "reading the store");
	rows = PQntuples(r);
	for (i = 0; i < rows; i++)
		if (strcmp(PQgetvalue(r, i, 1), "t") == 0) {
			PQclear(r);
			store->found = HEED_STORE_FOUND_MARKED;
			return HEED_OK;
		}
	for (i = 0; i < rows; i++)
		heed__store_list_foreign(foreign, sizeof(foreign), &listed,
		                         &nforeign, PQgetvalue(r, i, 0));
	PQclear(r);
	if (nforeign > 0) {
		if (nforeign > listed) {
			size_t len = strlen(foreign);
			snprintf(foreign + len, sizeof(foreign) - len,
			         " and %d more", nforeign - listed);
		}
		return heed_diag_set(diag, HEED_ESTORE, 0, 0,
		                     "'%s' is not a heed store: it holds "
		                     "tables heed did not create (%s)",
		                     store->location, foreign);
	}
	store->found = HEED_STORE_FOUND_NEW;
	return HEED_OK;
}

/* libpq prints the server's notices ("relation already exists,
 * skipping") on stderr by default; a library never prints. */
static void quiet(void *ud, const char *message)
{
	(void)ud;
	(void)message;
}

static heed_status pg_open(heed_store *store, const char *location,
                           unsigned flags, struct heed_diag *diag)
{
	/* Our defaults first: expand_dbname lets the URI's own settings
	 * override them. application_name carries heed's pid for the crawl
	 * lock's message. JIT compilation is off for the session (and the
	 * sessions PQreset makes again): nothing heed asks of its store is
	 * the long analytical query it pays back on, and a search of a few
	 * milliseconds whose plan passes jit_above_cost (tag, site, views
	 * and date searches at 1,000,000 pages) paid about as much again to
	 * compile its expressions (docs/performance.md). */
	static const char *const keys[] = {"connect_timeout",
	                                   "application_name", "options",
	                                   "dbname", NULL};
	char app[32];
	const char *values[] = {PG_CONNECT_TIMEOUT_S, app, "-c jit=off",
	                        location, NULL};
	bool read_only = flags & HEED_STORE_OPEN_READONLY;
	bool existing = read_only || (flags & HEED_STORE_OPEN_EXISTING);
	heed_status rc;

	snprintf(app, sizeof(app), "heed[%ld]", (long)getpid());
	store->pg = heed__calloc(store->alloc, 1, sizeof(*store->pg));
	if (!store->pg)
		return HEED_ENOMEM;
	store->pg->rng = (uint64_t)now_ms() * 2654435761u ^ (uint64_t)getpid();
	store->pg->rng |= 1; /* xorshift never leaves 0 */
	store->pg->conn = PQconnectdbParams(keys, values, 1);
	if (!store->pg->conn)
		return heed_diag_set(diag, HEED_ENOMEM, 0, 0,
		                     "out of memory connecting to PostgreSQL");
	if (PQstatus(store->pg->conn) != CONNECTION_OK) {
		/* Not record_error: it would call a failed connect a lost
		 * one. */
		snprintf(store->backend_err, sizeof(store->backend_err), "%s",
		         PQerrorMessage(store->pg->conn));
		store->backend_err[strcspn(store->backend_err, "\n")] = '\0';
		snprintf(store->errmsg, sizeof(store->errmsg),
		         "cannot connect to the PostgreSQL store '%.80s': "
		         "%.120s",
		         store->location, store->backend_err);
		return heed_diag_set(diag, HEED_ESTORE, 0, 0, "%s",
		                     store->errmsg);
	}
	PQsetNoticeProcessor(store->pg->conn, quiet, NULL);
	rc = inspect(store, diag);
	if (rc != HEED_OK)
		return rc;
	if (existing && store->found == HEED_STORE_FOUND_NEW)
		return heed_diag_set(diag, HEED_ENOTFOUND, 0, 0,
		                     "no store at '%s': the database holds no "
		                     "tables",
		                     store->location);
	/* A reader's session refuses every write, as SQLite's read-only
	 * open does. */
	if (read_only &&
	    pg_exec(store, "SET default_transaction_read_only = on;") !=
	            HEED_OK)
		return heed__store_fail(store, diag, "setting up the store");
	store->pg->read_only = read_only; /* restored on reconnecting */
	return HEED_OK;
}

static void pg_close(heed_store *store)
{
	if (!store->pg)
		return;
	/* Writes of a transaction never committed go with it. */
	pipeline_end(store, true, NULL, NULL, NULL);
	/* Ending the session releases the crawl lock, but the server ends it
	 * after PQfinish has returned: unlock first, so a crawl started
	 * right after this one closed never finds the lock still held. */
	if (store->pg->locked && !store->pg->tx_lost &&
	    PQstatus(store->pg->conn) == CONNECTION_OK)
		/* Not execute(): closing never waits for a server that went
		 * away, and a lost session holds no lock. */
		PQclear(PQexec(
		        store->pg->conn,
		        store->pg->lock_shared
		                ? "SELECT "
		                  "pg_advisory_unlock_shared(" HEED_PG_LOCK_KEY
		                  ", " HEED_PG_LOCK_CRAWL ");"
		                : "SELECT pg_advisory_unlock(" HEED_PG_LOCK_KEY
		                  ", " HEED_PG_LOCK_CRAWL ");"));
	PQfinish(store->pg->conn);
	heed__pg_held_free(store);
	heed__pg_redo_free(store->pg->redo);
	prepared_forget(store);
	heed__free(store->alloc, store->pg->prepared);
	heed__pg_sql_forget(store);
	heed__pg_search_forget(store);
	heed__free(store->alloc, store->pg);
	store->pg = NULL;
}

static const char *pg_errmsg(heed_store *store)
{
	return store->backend_err[0] ? store->backend_err : "no error";
}

static heed_status pg_schema_version(heed_store *store, const char *area,
                                     int *version)
{
	const char *params[] = {area};
	PGresult *r = heed__pg_query(
	        store, "SELECT version FROM heed_schema WHERE area = $1;", 1,
	        params);

	*version = 0;
	if (!r)
		return HEED_ESTORE;
	if (PQntuples(r) == 1)
		*version = (int)heed__pg_int(r, 0, 0, 0);
	PQclear(r);
	return HEED_OK;
}

/* The pid heed[N] of the session holding the crawl lock, or 0. */
static long lock_holder(heed_store *store)
{
	static const char sql[] =
	        "SELECT a.application_name FROM pg_locks l "
	        "JOIN pg_stat_activity a ON a.pid = l.pid "
	        "WHERE l.locktype = 'advisory' AND l.granted "
	        "AND l.database = (SELECT oid FROM pg_database "
	        "WHERE datname = current_database()) "
	        "AND l.classid = " HEED_PG_LOCK_KEY
	        " AND l.objid = " HEED_PG_LOCK_CRAWL
	        " AND l.objsubid = 2 LIMIT 1;";
	PGresult *r = heed__pg_query(store, sql, 0, NULL);
	long pid = 0;

	if (r && PQntuples(r) == 1 &&
	    sscanf(PQgetvalue(r, 0, 0), "heed[%ld]", &pid) != 1)
		pid = 0;
	PQclear(r);
	return pid;
}

/*
 * One crawl per store, as with SQLite: a session advisory lock, released
 * when the connection ends, so a killed crawl's lock goes with its
 * connection. Workers (heed crawl --worker) hold the same lock shared: they
 * share the store by per-site leases, and a lone crawl and workers exclude
 * each other.
 */
static heed_status take_lock(heed_store *store, bool shared,
                             struct heed_diag *diag)
{
	PGresult *r;
	bool got;

	if (store->pg->locked)
		return store->pg->lock_shared == shared
		               ? HEED_OK
		               : heed__store_busy(store, diag, 0);
	r = heed__pg_query(
	        store,
	        shared ? "SELECT pg_try_advisory_lock_shared(" HEED_PG_LOCK_KEY
	                 ", " HEED_PG_LOCK_CRAWL ");"
	               : "SELECT pg_try_advisory_lock(" HEED_PG_LOCK_KEY
	                 ", " HEED_PG_LOCK_CRAWL ");",
	        0, NULL);
	if (!r)
		return heed__store_fail(store, diag, "taking the crawl lock");
	got = PQntuples(r) == 1 && strcmp(PQgetvalue(r, 0, 0), "t") == 0;
	PQclear(r);
	if (got) {
		store->pg->locked = true;
		store->pg->lock_shared = shared;
		return HEED_OK;
	}
	return heed__store_busy(store, diag, lock_holder(store));
}

/* A pipeline is only ever open inside a transaction (may_pipeline). */
static bool pg_in_tx(const heed_store *store)
{
	const struct heed__pg *pg = store->pg;

	return pg && pg->conn &&
	       (pg->pipeline || PQtransactionStatus(pg->conn) != PQTRANS_IDLE);
}

static bool pg_tx_lost(const heed_store *store)
{
	return store->pg &&
	       (store->pg->tx_lost || store->pg->status == HEED_ERETRY);
}

static heed_status pg_lock(heed_store *store, struct heed_diag *diag)
{
	return take_lock(store, false, diag);
}

static heed_status pg_lock_shared(heed_store *store, struct heed_diag *diag)
{
	heed_status rc = take_lock(store, true, diag);

	if (rc == HEED_OK && pg_exec(store, WORKER_IDLE_TX_SQL) != HEED_OK)
		return heed__store_fail(
		        store, diag, "bounding a worker's idle transactions");
	return rc;
}

static heed_status pg_join_begin(heed_store *store)
{
	PGTransactionStatusType tx = PQtransactionStatus(store->pg->conn);
	heed_status rc;

	/* PQTRANS_UNKNOWN is a lost connection, which exec reconnects. */
	if (store->pg->tx_lost || tx == PQTRANS_INTRANS ||
	    tx == PQTRANS_INERROR || tx == PQTRANS_ACTIVE)
		return HEED_EINVAL;
	/* Joiners queue on a lock of their own, held to the end of the
	 * transaction: the second sees the first's run committed, as READ
	 * COMMITTED takes a snapshot per statement (a database whose
	 * default is REPEATABLE READ would have taken it before the wait). */
	rc = pg_exec(store, "BEGIN ISOLATION LEVEL READ COMMITTED; SELECT "
	                    "pg_advisory_xact_lock(" HEED_PG_LOCK_KEY
	                    ", " HEED_PG_LOCK_JOIN ");");
	if (rc != HEED_OK)
		/* The BEGIN may have run: never leave its transaction open. */
		(void)pg_exec(store, "ROLLBACK;");
	return rc;
}

const struct heed_store_backend heed__pg_backend = {
        .name = "postgres",
        .title = "PostgreSQL",
        .accepts = heed__pg_location,
        .shown = heed__pg_redact,
        .areas = pg_areas,
        .open = pg_open,
        .close = pg_close,
        .exec = pg_exec,
        .begin_batch = pg_begin_batch,
        .schema_version = pg_schema_version,
        .errmsg = pg_errmsg,
        .lock = pg_lock,
        .lock_shared = pg_lock_shared,
        .leases_over_restart = pg_leases_over_restart,
        .in_tx = pg_in_tx,
        .join_begin = pg_join_begin,
        .tx_lost = pg_tx_lost,
        .mark_sql = "COMMENT ON TABLE heed_schema IS '" PG_MARK "';",
        .writer_sql = NULL,
        .begin_sql = "BEGIN;",
        /* Waits for another process's migration to commit; released with
         * the transaction. */
        .migrate_begin_sql =
                "BEGIN; SELECT pg_advisory_xact_lock(" HEED_PG_LOCK_KEY
                ", " HEED_PG_LOCK_MIGRATE ");",
        .sql = &heed__pg_sql_ops,
        .search = &heed__pg_search_ops,
        /* Each handle is its own server session; rows, not the store,
         * are locked. */
        .writers_together = true,
};
