/*
 * The "leases" area on PostgreSQL: the same tables, index and answers as
 * src/store/sqlite_leases.c (include/heed/store_leases.h), for workers
 * sharing one database.
 *
 * The claim is one statement: a CTE picks up to max due rows from one
 * range of site_leases_due with FOR UPDATE SKIP LOCKED (rows another
 * worker's claim holds are passed over, never waited for; a row changed
 * by a claim that committed meanwhile is checked again against the WHERE,
 * so it is never granted twice), and the UPDATE grants them. The fencing
 * writes are conditional UPDATEs on (site, holder, token, lease alive),
 * their row count saying whether the lease still held; the address budget
 * an upsert whose DO UPDATE has the budget as its WHERE (the row lock
 * makes two takers of one slot wait for each other, and the second sees
 * the first's start).
 */
#include <stdlib.h>

#include "store/pg-int.h"

/* Version 1 is SQLite's version 1 with BIGINT times; later migrations go
 * to both backends with the same numbers. */
static const char *const pg_leases_migrations[] = {
        "CREATE TABLE site_leases ("
        "  site TEXT PRIMARY KEY,"
        "  delay_ms BIGINT NOT NULL,"
        "  next_allowed_at BIGINT NOT NULL,"
        "  last_request_start BIGINT NOT NULL DEFAULT 0,"
        "  holder TEXT,"
        "  token BIGINT NOT NULL DEFAULT 0,"
        "  lease_until BIGINT NOT NULL DEFAULT 0,"
        /* The earliest due time ensure asked for while the site was
         * held: a release that finds nothing left to fetch wakes the
         * site then, so work added meanwhile is never lost. The
         * default is HEED_LEASE_IDLE: nothing asked for. */
        "  wanted_at BIGINT NOT NULL DEFAULT 9223372036854775807);"
        "CREATE INDEX site_leases_due ON site_leases(next_allowed_at, site);"
        "CREATE TABLE address_slots ("
        "  address TEXT PRIMARY KEY,"
        "  last_start BIGINT NOT NULL,"
        "  gap_ms BIGINT NOT NULL);",
        /* 2: the workers' heartbeat and the index renew_all finds a
         * holder's leases by, as SQLite's version 2. */
        "CREATE TABLE lease_workers ("
        "  holder TEXT PRIMARY KEY,"
        "  alive_until BIGINT NOT NULL);"
        "CREATE INDEX site_leases_holder ON site_leases(holder);",
        /* 3: as SQLite's version 3. */
        "ALTER TABLE site_leases ADD COLUMN taken_from TEXT;"
        "CREATE TABLE lease_origins ("
        "  site TEXT NOT NULL,"
        "  origin TEXT NOT NULL,"
        "  PRIMARY KEY(site, origin));",
};

const struct heed_store_area heed__pg_leases_area = {
        "leases",
        pg_leases_migrations,
        (int)HEED_ARRAY_SIZE(pg_leases_migrations),
};

#define LEASE_COLUMNS                                                   \
	"site, holder, token, lease_until, next_allowed_at, delay_ms, " \
	"last_request_start, taken_from"

static void read_lease(const PGresult *r, int i, struct heed_site_lease *l)
{
	l->site = heed__pg_text(r, i, 0);
	l->holder = heed__pg_text(r, i, 1);
	l->token = heed__pg_int(r, i, 2, 0);
	l->lease_until = heed__pg_int(r, i, 3, 0);
	l->next_allowed_at = heed__pg_int(r, i, 4, 0);
	l->delay_ms = heed__pg_int(r, i, 5, 0);
	l->last_request_start = heed__pg_int(r, i, 6, 0);
	l->taken_from = heed__pg_text(r, i, 7);
	l->start_at = 0;
}

/* Hands r's rows to fn (start_at counted from now_ms when claimed), then
 * frees r: the whole result is read before fn sees a row, so fn may call
 * the store. */
static heed_status each_lease(PGresult *r, bool claimed, int64_t now_ms,
                              heed_store_lease_fn *fn, void *ud)
{
	if (!r)
		return HEED_ESTORE;
	for (int i = 0; i < PQntuples(r); i++) {
		struct heed_site_lease l;
		read_lease(r, i, &l);
		if (claimed)
			l.start_at = heed_lease_start_at(
			        now_ms, l.last_request_start, l.delay_ms);
		if (fn(ud, &l))
			break;
	}
	PQclear(r);
	return HEED_OK;
}

static heed_status pg_ensure(heed_store *store, const char *site,
                             int64_t delay_ms, int64_t due_ms)
{
	char delay[HEED_PG_INT_SIZE], due[HEED_PG_INT_SIZE];
	const char *params[] = {site, heed__pg_i64(delay, delay_ms),
	                        heed__pg_i64(due, due_ms)};

	return heed__pg_run(
	        store,
	        "INSERT INTO site_leases(site, delay_ms, next_allowed_at) "
	        "VALUES($1, $2, $3) ON CONFLICT (site) DO UPDATE SET "
	        "delay_ms = excluded.delay_ms, next_allowed_at = "
	        "LEAST(site_leases.next_allowed_at, "
	        "GREATEST(excluded.next_allowed_at, site_leases.lease_until)), "
	        "wanted_at = CASE WHEN site_leases.lease_until > "
	        "excluded.next_allowed_at THEN LEAST(site_leases.wanted_at, "
	        "excluded.next_allowed_at) ELSE site_leases.wanted_at END;",
	        3, params, NULL);
}

static heed_status pg_claim(heed_store *store, const char *holder,
                            int64_t now_ms, int64_t lease_ms, int max,
                            heed_store_lease_fn *fn, void *ud)
{
	char now[HEED_PG_INT_SIZE], lease[HEED_PG_INT_SIZE],
	        limit[HEED_PG_INT_SIZE], idle[HEED_PG_INT_SIZE];
	const char *params[] = {holder, heed__pg_i64(now, now_ms),
	                        heed__pg_i64(lease, lease_ms),
	                        heed__pg_i64(limit, max),
	                        heed__pg_i64(idle, HEED_LEASE_IDLE)};
	PGresult *r = heed__pg_query(
	        store,
	        "WITH c AS (SELECT site FROM site_leases "
	        "WHERE next_allowed_at <= $2::bigint "
	        "AND lease_until <= $2::bigint "
	        "ORDER BY next_allowed_at, site LIMIT $4::bigint "
	        "FOR UPDATE SKIP LOCKED) "
	        "UPDATE site_leases l SET holder = $1, token = l.token + 1, "
	        "lease_until = $2::bigint + $3::bigint, "
	        "next_allowed_at = $2::bigint + $3::bigint, "
	        "wanted_at = $5::bigint, taken_from = l.holder "
	        "FROM c WHERE l.site = c.site "
	        "RETURNING l.site, l.holder, l.token, l.lease_until, "
	        "l.next_allowed_at, l.delay_ms, l.last_request_start, "
	        "l.taken_from;",
	        5, params);

	return each_lease(r, true, now_ms, fn, ud);
}

/* A fencing UPDATE: $1 site, $2 holder, $3 token, $4 a, $5 b (a statement
 * without $5 is given four parameters); *held says whether it changed the
 * row. */
static heed_status fenced(heed_store *store, const char *sql, int n,
                          const char *site, const char *holder, int64_t token,
                          int64_t a, int64_t b, bool *held)
{
	char tn[HEED_PG_INT_SIZE], an[HEED_PG_INT_SIZE], bn[HEED_PG_INT_SIZE];
	const char *params[] = {site, holder, heed__pg_i64(tn, token),
	                        heed__pg_i64(an, a), heed__pg_i64(bn, b)};
	int64_t changed = 0;
	heed_status rc = heed__pg_run(store, sql, n, params, &changed);

	*held = rc == HEED_OK && changed > 0;
	return rc;
}

static heed_status pg_renew(heed_store *store, const char *site,
                            const char *holder, int64_t token, int64_t now_ms,
                            int64_t lease_ms, bool *held)
{
	return fenced(store,
	              "UPDATE site_leases SET "
	              "lease_until = $4::bigint + $5::bigint, "
	              "next_allowed_at = GREATEST(next_allowed_at, "
	              "$4::bigint + $5::bigint) "
	              "WHERE site = $1 AND holder = $2 AND token = $3 "
	              "AND lease_until > $4::bigint;",
	              5, site, holder, token, now_ms, lease_ms, held);
}

static heed_status pg_record_start(heed_store *store, const char *site,
                                   const char *holder, int64_t token,
                                   int64_t now_ms, bool *held)
{
	return fenced(store,
	              "UPDATE site_leases SET last_request_start = $4 "
	              "WHERE site = $1 AND holder = $2 AND token = $3 "
	              "AND lease_until > $4;",
	              4, site, holder, token, now_ms, 0, held);
}

static heed_status pg_release(heed_store *store, const char *site,
                              const char *holder, int64_t token,
                              int64_t next_ms, bool *held)
{
	return fenced(store,
	              "UPDATE site_leases SET holder = NULL, lease_until = 0, "
	              "next_allowed_at = CASE WHEN $4::bigint = $5::bigint "
	              "THEN wanted_at ELSE $4::bigint END, "
	              "wanted_at = $5::bigint WHERE site = $1 AND holder = $2 "
	              "AND token = $3;",
	              5, site, holder, token, next_ms, HEED_LEASE_IDLE, held);
}

static heed_status pg_get(heed_store *store, const char *site,
                          heed_store_lease_fn *fn, void *ud)
{
	const char *params[] = {site};
	PGresult *r = heed__pg_query(store,
	                             "SELECT " LEASE_COLUMNS
	                             " FROM site_leases WHERE site = $1;",
	                             1, params);

	return each_lease(r, false, 0, fn, ud);
}

static heed_status pg_counts(heed_store *store, int64_t now_ms,
                             struct heed_lease_counts *c)
{
	char now[HEED_PG_INT_SIZE], idle[HEED_PG_INT_SIZE];
	const char *params[] = {heed__pg_i64(now, now_ms),
	                        heed__pg_i64(idle, HEED_LEASE_IDLE)};
	PGresult *r = heed__pg_query(
	        store,
	        "SELECT count(*), "
	        "count(*) FILTER (WHERE lease_until > $1::bigint), "
	        "count(*) FILTER (WHERE next_allowed_at <= $1::bigint "
	        "AND lease_until <= $1::bigint), "
	        "count(*) FILTER (WHERE next_allowed_at = $2::bigint) "
	        "FROM site_leases;",
	        2, params);

	if (!r)
		return heed__pg_failed(store);
	c->sites = heed__pg_int(r, 0, 0, 0);
	c->held = heed__pg_int(r, 0, 1, 0);
	c->claimable = heed__pg_int(r, 0, 2, 0);
	c->idle = heed__pg_int(r, 0, 3, 0);
	PQclear(r);
	return HEED_OK;
}

static heed_status pg_address_take(heed_store *store, const char *address,
                                   int64_t gap_ms, int64_t now_ms, bool *taken,
                                   int64_t *next_ms)
{
	char gap[HEED_PG_INT_SIZE], now[HEED_PG_INT_SIZE];
	const char *params[] = {address, heed__pg_i64(gap, gap_ms),
	                        heed__pg_i64(now, now_ms)};
	/* A refused take changes no row: the row count says whether it
	 * was taken, and the slot's end is read after. */
	int64_t changed = 0;
	heed_status rc = heed__pg_run(
	        store,
	        "INSERT INTO address_slots(address, last_start, gap_ms) "
	        "VALUES($1, $3, $2) ON CONFLICT (address) DO UPDATE SET "
	        "last_start = excluded.last_start, gap_ms = excluded.gap_ms "
	        "WHERE address_slots.last_start + "
	        "GREATEST(address_slots.gap_ms, excluded.gap_ms) "
	        "<= excluded.last_start;",
	        3, params, &changed);
	PGresult *r;

	if (rc != HEED_OK)
		return rc;
	*taken = changed > 0;
	r = heed__pg_query(store,
	                   "SELECT last_start + GREATEST(gap_ms, $2::bigint) "
	                   "FROM address_slots WHERE address = $1;",
	                   2, params);
	if (!r)
		return heed__pg_failed(store);
	if (PQntuples(r) == 1)
		*next_ms = heed__pg_int(r, 0, 0, 0);
	PQclear(r);
	return HEED_OK;
}

static heed_status pg_renew_all(heed_store *store, const char *holder,
                                int64_t now_ms, int64_t lease_ms,
                                heed_store_lease_fn *fn, void *ud)
{
	char now[HEED_PG_INT_SIZE], lease[HEED_PG_INT_SIZE];
	const char *params[] = {holder, heed__pg_i64(now, now_ms),
	                        heed__pg_i64(lease, lease_ms)};
	/* renew's SET for every live lease of holder. A claim that takes an
	 * expired site over meanwhile locks its row first: this UPDATE then
	 * waits, checks the row again and, finding another holder, leaves
	 * it out (and so does not report it). */
	PGresult *r =
	        heed__pg_query(store,
	                       "UPDATE site_leases SET "
	                       "lease_until = $2::bigint + $3::bigint, "
	                       "next_allowed_at = GREATEST(next_allowed_at, "
	                       "$2::bigint + $3::bigint) "
	                       "WHERE holder = $1 AND lease_until > $2::bigint "
	                       "RETURNING " LEASE_COLUMNS ";",
	                       3, params);

	if (!r)
		return heed__pg_failed(store);
	return each_lease(r, false, 0, fn, ud);
}

static heed_status pg_worker_beat(heed_store *store, const char *holder,
                                  int64_t now_ms, int64_t ttl_ms, int64_t *live)
{
	char now[HEED_PG_INT_SIZE], until[HEED_PG_INT_SIZE],
	        gone[HEED_PG_INT_SIZE];
	const char *params[] = {
	        holder, heed__pg_i64(now, now_ms),
	        heed__pg_i64(until, now_ms + ttl_ms),
	        heed__pg_i64(gone, now_ms - HEED__LEASE_WORKER_GONE_MS)};
	/* One statement. Its SELECT sees the table as it was before the
	 * CTEs wrote: it counts the others alive and adds holder, just
	 * beaten. The DELETE spares holder's row, which the upsert writes
	 * (one statement may not change a row twice). */
	PGresult *r = heed__pg_query(
	        store,
	        "WITH beat AS (INSERT INTO lease_workers(holder, alive_until) "
	        "VALUES($1, $3::bigint) ON CONFLICT (holder) DO UPDATE SET "
	        "alive_until = excluded.alive_until), "
	        "gone AS (DELETE FROM lease_workers "
	        "WHERE alive_until < $4::bigint AND holder <> $1) "
	        "SELECT count(*) + 1 FROM lease_workers "
	        "WHERE alive_until > $2::bigint AND holder <> $1;",
	        4, params);

	if (!r)
		return heed__pg_failed(store);
	*live = heed__pg_int(r, 0, 0, 0);
	PQclear(r);
	return HEED_OK;
}

static heed_status pg_worker_leave(heed_store *store, const char *holder)
{
	const char *params[] = {holder};

	return heed__pg_run(store,
	                    "DELETE FROM lease_workers WHERE holder = $1;", 1,
	                    params, NULL);
}

static heed_status pg_hold(heed_store *store, const char *holder,
                           const char *sites_json, heed_store_lease_fn *fn,
                           void *ud)
{
	const char *params[] = {holder, sites_json};
	/* holder = $1: a release sets NULL and a grant the new holder, and
	 * every grant raises the token; a lease that expired with no one
	 * taking it is still this holder's to write for, and the lock now
	 * keeps any claim off it until the transaction ends. */
	PGresult *r = heed__pg_query(
	        store,
	        "SELECT " LEASE_COLUMNS " FROM site_leases "
	        "WHERE holder = $1 AND site IN "
	        "(SELECT json_array_elements_text($2::json)) FOR SHARE;",
	        2, params);

	if (!r)
		return heed__pg_failed(store);
	return each_lease(r, false, 0, fn, ud);
}

static heed_status pg_add_origin(heed_store *store, const char *site,
                                 const char *origin)
{
	const char *params[] = {site, origin};

	return heed__pg_run(store,
	                    "INSERT INTO lease_origins(site, origin) "
	                    "VALUES($1, $2) ON CONFLICT DO NOTHING;",
	                    2, params, NULL);
}

static heed_status pg_origins(heed_store *store, const char *site,
                              heed_store_lease_origin_fn *fn, void *ud)
{
	const char *params[] = {site};
	PGresult *r = heed__pg_query(store,
	                             "SELECT origin FROM lease_origins "
	                             "WHERE site = $1 ORDER BY origin "
	                             "COLLATE \"C\";",
	                             1, params);

	if (!r)
		return HEED_ESTORE;
	/* The whole answer is read before fn sees a row: fn may call the
	 * store. */
	for (int i = 0; i < PQntuples(r); i++)
		if (fn(ud, heed__pg_text(r, i, 0)))
			break;
	PQclear(r);
	return HEED_OK;
}

const struct heed__leases_ops heed__pg_leases_ops = {
        .ensure = pg_ensure,
        .add_origin = pg_add_origin,
        .hold = pg_hold,
        .origins = pg_origins,
        .claim = pg_claim,
        .renew = pg_renew,
        .record_start = pg_record_start,
        .release = pg_release,
        .get = pg_get,
        .counts = pg_counts,
        .address_take = pg_address_take,
        .renew_all = pg_renew_all,
        .worker_beat = pg_worker_beat,
        .worker_leave = pg_worker_leave,
};
