/*
 * The leases area (include/heed/store_leases.h): site leases and address
 * budgets for many workers, and the lease policy (pure). Its statements
 * are written once for both engines (src/store/sql-int.h) where they can
 * be; where the engines truly differ (the claim's row locks, the greater
 * of two, writing CTEs, JSON arrays), a statement has one text per
 * engine.
 *
 * The fencing writes are conditional UPDATEs on (site, holder, token,
 * lease alive), their row count saying whether the lease still held.
 */
#include <string.h>

#include "store/sql-int.h"

static const char *const sqlite_migrations[] = {
        "CREATE TABLE site_leases ("
        "  site TEXT PRIMARY KEY,"
        "  delay_ms INTEGER NOT NULL,"
        "  next_allowed_at INTEGER NOT NULL,"
        "  last_request_start INTEGER NOT NULL DEFAULT 0,"
        "  holder TEXT,"
        "  token INTEGER NOT NULL DEFAULT 0,"
        "  lease_until INTEGER NOT NULL DEFAULT 0,"
        /* The earliest due time ensure asked for while the site was
         * held: a release that finds nothing left to fetch wakes the
         * site then, so work added meanwhile is never lost. The
         * default is HEED_LEASE_IDLE: nothing asked for. */
        "  wanted_at INTEGER NOT NULL DEFAULT 9223372036854775807);"
        /* The claim's range, already in its order. */
        "CREATE INDEX site_leases_due ON site_leases(next_allowed_at, site);"
        "CREATE TABLE address_slots ("
        "  address TEXT PRIMARY KEY,"
        "  last_start INTEGER NOT NULL,"
        "  gap_ms INTEGER NOT NULL);",
        /* 2: the workers' heartbeat (heed_store_lease_worker_beat), and
         * the index renew_all finds a holder's leases by: a worker renews
         * its sites in one range read, never a scan of every site. */
        "CREATE TABLE lease_workers ("
        "  holder TEXT PRIMARY KEY,"
        "  alive_until INTEGER NOT NULL);"
        "CREATE INDEX site_leases_holder ON site_leases(holder);",
        /* 3: the origins of each lease (a host's schemes and ports are
         * one lease) and the holder a grant took a site from. */
        "ALTER TABLE site_leases ADD COLUMN taken_from TEXT;"
        "CREATE TABLE lease_origins ("
        "  site TEXT NOT NULL,"
        "  origin TEXT NOT NULL,"
        "  PRIMARY KEY(site, origin)) WITHOUT ROWID;",
};

const struct heed_store_area heed__store_leases_area = {
        "leases",
        sqlite_migrations,
        (int)HEED_ARRAY_SIZE(sqlite_migrations),
};

/* Version 1 is SQLite's version 1 with BIGINT times; later migrations go
 * to both backends with the same numbers. */
static const char *const pg_migrations[] = {
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
        pg_migrations,
        (int)HEED_ARRAY_SIZE(pg_migrations),
};

bool heed_lease_may_fetch(int64_t lease_until, int64_t now_ms,
                          int64_t margin_ms)
{
	/* Written as a difference: lease_until may be 0 and margin large. */
	return lease_until - now_ms > margin_ms;
}

bool heed_lease_renew_due(int64_t lease_until, int64_t now_ms, int64_t lease_ms,
                          int64_t margin_ms)
{
	int64_t left = lease_until - now_ms;

	return left < lease_ms / 2 || left <= margin_ms;
}

int64_t heed_lease_start_at(int64_t now_ms, int64_t last_start,
                            int64_t delay_ms)
{
	if (last_start > 0 && last_start + delay_ms > now_ms)
		return last_start + delay_ms;
	return now_ms;
}

/* A worker whose heartbeat is older than this is gone for good: the
 * next beat deletes its row. */
#define LEASE_WORKER_GONE_MS 3600000

/* The columns every listing reads, in struct heed_site_lease's order. */
#define LEASE_COLUMNS                                                   \
	"site, holder, token, lease_until, next_allowed_at, delay_ms, " \
	"last_request_start, taken_from"

/* A listing's callback; a claim's rows get start_at counted from now. */
struct each_ctx {
	bool claimed;
	int64_t now_ms;
	heed_store_lease_fn *fn;
	void *ud;
};

static int lease_row(struct heed__sql *q, void *ctx)
{
	struct each_ctx *c = ctx;
	struct heed_site_lease l = {
	        .site = heed__sql_col_text(q, 0),
	        .holder = heed__sql_col_text(q, 1),
	        .token = heed__sql_col_int(q, 2, 0),
	        .lease_until = heed__sql_col_int(q, 3, 0),
	        .next_allowed_at = heed__sql_col_int(q, 4, 0),
	        .delay_ms = heed__sql_col_int(q, 5, 0),
	        .last_request_start = heed__sql_col_int(q, 6, 0),
	        .taken_from = heed__sql_col_text(q, 7),
	};

	if (c->claimed)
		l.start_at = heed_lease_start_at(
		        c->now_ms, l.last_request_start, l.delay_ms);
	return c->fn(c->ud, &l);
}

static heed_status ensure_rows(heed_store *store, const char *site,
                               int64_t delay_ms, int64_t due_ms)
{
	/* A live lease keeps next_allowed_at at its end: the greater of the
	 * two keeps the site with its holder. */
	static const char *const sql[] = {
	        [HEED__SQL_SQLITE] =
	                "INSERT INTO site_leases(site, delay_ms, "
	                "next_allowed_at) VALUES(?1, ?2, ?3) ON "
	                "CONFLICT(site) DO UPDATE SET delay_ms = "
	                "excluded.delay_ms, next_allowed_at = "
	                "min(next_allowed_at, max(excluded.next_allowed_at, "
	                "lease_until)), wanted_at = CASE WHEN lease_until > "
	                "excluded.next_allowed_at THEN min(wanted_at, "
	                "excluded.next_allowed_at) ELSE wanted_at END;",
	        [HEED__SQL_PG] =
	                "INSERT INTO site_leases(site, delay_ms, "
	                "next_allowed_at) VALUES(?1, ?2, ?3) ON CONFLICT "
	                "(site) DO UPDATE SET delay_ms = excluded.delay_ms, "
	                "next_allowed_at = LEAST(site_leases.next_allowed_at, "
	                "GREATEST(excluded.next_allowed_at, "
	                "site_leases.lease_until)), wanted_at = CASE WHEN "
	                "site_leases.lease_until > excluded.next_allowed_at "
	                "THEN LEAST(site_leases.wanted_at, "
	                "excluded.next_allowed_at) ELSE site_leases.wanted_at "
	                "END;",
	};
	struct heed__sql q;

	if (heed__sql_prepare_dialect(store, &q, sql) != HEED_OK)
		return HEED_ESTORE;
	heed__sql_text(&q, 1, site);
	heed__sql_int(&q, 2, delay_ms);
	heed__sql_int(&q, 3, due_ms);
	return heed__sql_run(&q, NULL);
}

/*
 * The claim is one statement on both engines. SQLite has one writer at a
 * time, so an UPDATE ... RETURNING over one range of site_leases_due is
 * atomic by itself, and RETURNING makes every change at the first step (a
 * callback that stops early leaves the rest claimed, as documented).
 * PostgreSQL's CTE picks the due rows FOR UPDATE SKIP LOCKED: rows another
 * worker's claim holds are passed over, never waited for, and a row
 * changed by a claim that committed meanwhile is checked again against the
 * WHERE, so it is never granted twice.
 */
static heed_status claim_rows(heed_store *store, const char *holder,
                              int64_t now_ms, int64_t lease_ms, int max,
                              heed_store_lease_fn *fn, void *ud)
{
	static const char *const sql[] = {
	        [HEED__SQL_SQLITE] =
	                "UPDATE site_leases SET holder = ?1, token = token + "
	                "1, lease_until = ?2 + ?3, next_allowed_at = ?2 + ?3, "
	                "wanted_at = ?5, taken_from = holder WHERE site IN "
	                "(SELECT site FROM site_leases WHERE next_allowed_at "
	                "<= ?2 AND lease_until <= ?2 ORDER BY "
	                "next_allowed_at, site LIMIT ?4) "
	                "RETURNING " LEASE_COLUMNS ";",
	        [HEED__SQL_PG] =
	                "WITH c AS (SELECT site FROM site_leases WHERE "
	                "next_allowed_at <= ?2::bigint AND lease_until <= "
	                "?2::bigint ORDER BY next_allowed_at, site LIMIT "
	                "?4::bigint FOR UPDATE SKIP LOCKED) UPDATE site_leases "
	                "l SET holder = ?1, token = l.token + 1, lease_until = "
	                "?2::bigint + ?3::bigint, next_allowed_at = ?2::bigint "
	                "+ ?3::bigint, wanted_at = ?5::bigint, taken_from = "
	                "l.holder FROM c WHERE l.site = c.site RETURNING "
	                "l.site, l.holder, l.token, l.lease_until, "
	                "l.next_allowed_at, l.delay_ms, l.last_request_start, "
	                "l.taken_from;",
	};
	struct each_ctx c = {true, now_ms, fn, ud};
	struct heed__sql q;

	if (heed__sql_prepare_dialect(store, &q, sql) != HEED_OK)
		return HEED_ESTORE;
	heed__sql_text(&q, 1, holder);
	heed__sql_int(&q, 2, now_ms);
	heed__sql_int(&q, 3, lease_ms);
	heed__sql_int(&q, 4, max);
	heed__sql_int(&q, 5, HEED_LEASE_IDLE);
	return heed__sql_each(&q, lease_row, &c);
}

/* Runs a fencing UPDATE, a conditional one on (site, holder, token, lease
 * alive): ?1 site, ?2 holder, ?3 token, ?4 a, ?5 b (a statement without
 * ?5 ignores b); *held says whether it changed the row, that is whether
 * the lease still held. */
static heed_status fenced(heed_store *store, const char *sql, const char *site,
                          const char *holder, int64_t token, int64_t a,
                          int64_t b, bool *held)
{
	struct heed__sql q;
	int64_t changed = 0;
	heed_status rc;

	if (heed__sql_prepare(store, &q, sql) != HEED_OK)
		return HEED_ESTORE;
	heed__sql_text(&q, 1, site);
	heed__sql_text(&q, 2, holder);
	heed__sql_int(&q, 3, token);
	heed__sql_int(&q, 4, a);
	heed__sql_int(&q, 5, b);
	rc = heed__sql_run(&q, &changed);
	*held = rc == HEED_OK && changed > 0;
	return rc;
}

/* renew's and renew_all's SET: the lease and the site's next turn move to
 * ?A + ?B (now and the lease's length), on each engine's spelling of the
 * greater of two. */
#define RENEW_SET(max, A, B)                                  \
	"lease_until = " A " + " B ", next_allowed_at = " max \
	"(next_allowed_at, " A " + " B ")"

static heed_status renew_rows(heed_store *store, const char *site,
                              const char *holder, int64_t token, int64_t now_ms,
                              int64_t lease_ms, bool *held)
{
	static const char *const sql[] = {
	        [HEED__SQL_SQLITE] = "UPDATE site_leases SET " RENEW_SET(
	                "max", "?4", "?5") " WHERE site = ?1 AND holder = ?2 "
	                                   "AND token = ?3 AND "
	                                   "lease_until > ?4;",
	        [HEED__SQL_PG] = "UPDATE site_leases SET " RENEW_SET(
	                "GREATEST", "?4::bigint",
	                "?5::bigint") " WHERE site = ?1 AND holder = ?2 AND "
	                              "token = ?3 AND "
	                              "lease_until > ?4::bigint;",
	};

	return fenced(store, sql[heed__sql_dialect(store)], site, holder, token,
	              now_ms, lease_ms, held);
}

static heed_status record_start_rows(heed_store *store, const char *site,
                                     const char *holder, int64_t token,
                                     int64_t now_ms, bool *held)
{
	return fenced(store,
	              "UPDATE site_leases SET last_request_start = ?4 "
	              "WHERE site = ?1 AND holder = ?2 AND token = ?3 "
	              "AND lease_until > ?4;",
	              site, holder, token, now_ms, 0, held);
}

static heed_status release_rows(heed_store *store, const char *site,
                                const char *holder, int64_t token,
                                int64_t next_ms, bool *held)
{
	return fenced(store,
	              "UPDATE site_leases SET holder = NULL, lease_until = 0, "
	              "next_allowed_at = CASE WHEN CAST(?4 AS BIGINT) = "
	              "CAST(?5 AS BIGINT) THEN wanted_at ELSE CAST(?4 AS "
	              "BIGINT) END, wanted_at = CAST(?5 AS BIGINT) WHERE "
	              "site = ?1 AND holder = ?2 AND token = ?3;",
	              site, holder, token, next_ms, HEED_LEASE_IDLE, held);
}

static heed_status get_rows(heed_store *store, const char *site,
                            heed_store_lease_fn *fn, void *ud)
{
	struct each_ctx c = {false, 0, fn, ud};
	struct heed__sql q;

	if (heed__sql_prepare(store, &q,
	                      "SELECT " LEASE_COLUMNS
	                      " FROM site_leases WHERE site = ?1;") != HEED_OK)
		return HEED_ESTORE;
	heed__sql_text(&q, 1, site);
	return heed__sql_each(&q, lease_row, &c);
}

static int read_counts(struct heed__sql *q, void *ctx)
{
	struct heed_lease_counts *c = ctx;

	c->sites = heed__sql_col_int(q, 0, 0);
	c->held = heed__sql_col_int(q, 1, 0);
	c->claimable = heed__sql_col_int(q, 2, 0);
	c->idle = heed__sql_col_int(q, 3, 0);
	return 1;
}

static heed_status counts_rows(heed_store *store, int64_t now_ms,
                               struct heed_lease_counts *c)
{
	struct heed__sql q;

	if (heed__sql_prepare(store, &q,
	                      "SELECT count(*), count(*) FILTER (WHERE "
	                      "lease_until > ?1), count(*) FILTER (WHERE "
	                      "next_allowed_at <= ?1 AND lease_until <= ?1), "
	                      "count(*) FILTER (WHERE next_allowed_at = ?2) "
	                      "FROM site_leases;") != HEED_OK)
		return HEED_ESTORE;
	heed__sql_int(&q, 1, now_ms);
	heed__sql_int(&q, 2, HEED_LEASE_IDLE);
	return heed__sql_one(&q, read_counts, c);
}

/* The slot's last start and gap, read back after a take. */
struct slot {
	int64_t last_start, gap_ms;
};

static int read_slot(struct heed__sql *q, void *ctx)
{
	struct slot *s = ctx;

	s->last_start = heed__sql_col_int(q, 0, 0);
	s->gap_ms = heed__sql_col_int(q, 1, 0);
	return 1;
}

static heed_status address_take_rows(heed_store *store, const char *address,
                                     int64_t gap_ms, int64_t now_ms,
                                     bool *taken, int64_t *next_ms)
{
	/* The upsert's WHERE is the whole budget: the row changes only when
	 * the slot is free, so two takers of one slot cannot both win
	 * (SQLite's one writer; PostgreSQL's row lock makes the second wait
	 * and see the first's start). */
	static const char *const sql[] = {
	        [HEED__SQL_SQLITE] =
	                "INSERT INTO address_slots(address, last_start, "
	                "gap_ms) VALUES(?1, ?3, ?2) ON CONFLICT(address) DO "
	                "UPDATE SET last_start = excluded.last_start, gap_ms = "
	                "excluded.gap_ms WHERE address_slots.last_start + "
	                "max(address_slots.gap_ms, excluded.gap_ms) <= "
	                "excluded.last_start;",
	        [HEED__SQL_PG] =
	                "INSERT INTO address_slots(address, last_start, "
	                "gap_ms) VALUES(?1, ?3, ?2) ON CONFLICT (address) DO "
	                "UPDATE SET last_start = excluded.last_start, gap_ms = "
	                "excluded.gap_ms WHERE address_slots.last_start + "
	                "GREATEST(address_slots.gap_ms, excluded.gap_ms) <= "
	                "excluded.last_start;",
	};
	struct slot s = {0, 0};
	struct heed__sql q;
	int64_t changed = 0;
	heed_status rc;

	if (heed__sql_prepare_dialect(store, &q, sql) != HEED_OK)
		return HEED_ESTORE;
	heed__sql_text(&q, 1, address);
	heed__sql_int(&q, 2, gap_ms);
	heed__sql_int(&q, 3, now_ms);
	rc = heed__sql_run(&q, &changed);
	if (rc != HEED_OK)
		return rc;
	*taken = changed > 0;
	if (heed__sql_prepare(store, &q,
	                      "SELECT last_start, gap_ms FROM address_slots "
	                      "WHERE address = ?1;") != HEED_OK)
		return HEED_ESTORE;
	heed__sql_text(&q, 1, address);
	rc = heed__sql_one(&q, read_slot, &s);
	if (rc == HEED_OK)
		*next_ms =
		        s.last_start + (s.gap_ms > gap_ms ? s.gap_ms : gap_ms);
	return rc;
}

static heed_status renew_all_rows(heed_store *store, const char *holder,
                                  int64_t now_ms, int64_t lease_ms,
                                  heed_store_lease_fn *fn, void *ud)
{
	/* renew's SET for every live lease of holder. RETURNING makes every
	 * change at SQLite's first step, so a callback that stops early
	 * leaves the rest renewed. On PostgreSQL a claim that takes an
	 * expired site over meanwhile locks its row first: this UPDATE then
	 * waits, checks the row again and, finding another holder, leaves it
	 * out (and so does not report it). */
	static const char *const sql[] = {
	        [HEED__SQL_SQLITE] = "UPDATE site_leases SET " RENEW_SET(
	                "max", "?2", "?3") " WHERE holder = ?1 AND lease_until "
	                                   "> ?2 RETURNING " LEASE_COLUMNS ";",
	        [HEED__SQL_PG] = "UPDATE site_leases SET " RENEW_SET(
	                "GREATEST", "?2::bigint",
	                "?3::bigint") " WHERE holder = ?1 AND lease_until > "
	                              "?2::bigint "
	                              "RETURNING " LEASE_COLUMNS ";",
	};
	struct each_ctx c = {false, 0, fn, ud};
	struct heed__sql q;

	if (heed__sql_prepare_dialect(store, &q, sql) != HEED_OK)
		return HEED_ESTORE;
	heed__sql_text(&q, 1, holder);
	heed__sql_int(&q, 2, now_ms);
	heed__sql_int(&q, 3, lease_ms);
	return heed__sql_each(&q, lease_row, &c);
}

/* Runs a heartbeat statement: ?1 holder, ?2 a (a statement without ?2
 * ignores a). */
static heed_status worker_write(heed_store *store, const char *sql,
                                const char *holder, int64_t a)
{
	struct heed__sql q;

	if (heed__sql_prepare(store, &q, sql) != HEED_OK)
		return HEED_ESTORE;
	heed__sql_text(&q, 1, holder);
	heed__sql_int(&q, 2, a);
	return heed__sql_run(&q, NULL);
}

/* The beat on SQLite: three statements, each atomic on its own (one
 * writer); the count comes after the upsert, so it always includes
 * holder. SQLite's CTEs cannot write. */
static heed_status sqlite_beat(heed_store *store, const char *holder,
                               int64_t now_ms, int64_t ttl_ms, int64_t *live)
{
	struct heed__sql q;
	heed_status rc;

	rc = worker_write(store,
	                  "INSERT INTO lease_workers(holder, alive_until) "
	                  "VALUES(?1, ?2) ON CONFLICT(holder) DO UPDATE SET "
	                  "alive_until = excluded.alive_until;",
	                  holder, now_ms + ttl_ms);
	if (rc == HEED_OK)
		rc = worker_write(
		        store,
		        "DELETE FROM lease_workers WHERE alive_until < ?2 "
		        "AND holder <> ?1;",
		        holder, now_ms - LEASE_WORKER_GONE_MS);
	if (rc != HEED_OK)
		return rc;
	if (heed__sql_prepare(store, &q,
	                      "SELECT count(*) FROM lease_workers "
	                      "WHERE alive_until > ?1;") != HEED_OK)
		return HEED_ESTORE;
	heed__sql_int(&q, 1, now_ms);
	return heed__sql_one(&q, heed__sql_read_int, live);
}

/* The beat on PostgreSQL: one statement, one round trip. Its SELECT sees
 * the table as it was before the CTEs wrote: it counts the others alive
 * and adds holder, just beaten. The DELETE spares holder's row, which the
 * upsert writes (one statement may not change a row twice). */
static heed_status pg_beat(heed_store *store, const char *holder,
                           int64_t now_ms, int64_t ttl_ms, int64_t *live)
{
	struct heed__sql q;

	if (heed__sql_prepare(
	            store, &q,
	            "WITH beat AS (INSERT INTO lease_workers(holder, "
	            "alive_until) VALUES(?1, ?3::bigint) ON CONFLICT (holder) "
	            "DO UPDATE SET alive_until = excluded.alive_until), gone "
	            "AS "
	            "(DELETE FROM lease_workers WHERE alive_until < ?4::bigint "
	            "AND holder <> ?1) SELECT count(*) + 1 FROM lease_workers "
	            "WHERE alive_until > ?2::bigint AND holder <> ?1;") !=
	    HEED_OK)
		return HEED_ESTORE;
	heed__sql_text(&q, 1, holder);
	heed__sql_int(&q, 2, now_ms);
	heed__sql_int(&q, 3, now_ms + ttl_ms);
	heed__sql_int(&q, 4, now_ms - LEASE_WORKER_GONE_MS);
	return heed__sql_one(&q, heed__sql_read_int, live);
}

static heed_status worker_beat_rows(heed_store *store, const char *holder,
                                    int64_t now_ms, int64_t ttl_ms,
                                    int64_t *live)
{
	return heed__sql_dialect(store) == HEED__SQL_PG
	               ? pg_beat(store, holder, now_ms, ttl_ms, live)
	               : sqlite_beat(store, holder, now_ms, ttl_ms, live);
}

static heed_status worker_leave_rows(heed_store *store, const char *holder)
{
	return worker_write(store,
	                    "DELETE FROM lease_workers WHERE holder = ?1;",
	                    holder, 0);
}

static heed_status hold_rows(heed_store *store, const char *holder,
                             const char *sites_json, heed_store_lease_fn *fn,
                             void *ud)
{
	/* SQLite: one writer at a time, the caller's write transaction
	 * already keeps every other worker out until it ends. PostgreSQL:
	 * holder = ?1 (a release sets NULL and a grant the new holder, and
	 * every grant raises the token), so a lease that expired with no one
	 * taking it is still this holder's to write for, and FOR SHARE keeps
	 * any claim off it until the transaction ends. */
	static const char *const sql[] = {
	        [HEED__SQL_SQLITE] = "SELECT " LEASE_COLUMNS
	                             " FROM site_leases WHERE holder = ?1 AND "
	                             "site IN (SELECT value FROM "
	                             "json_each(?2));",
	        [HEED__SQL_PG] =
	                "SELECT " LEASE_COLUMNS
	                " FROM site_leases WHERE holder = ?1 AND site "
	                "IN (SELECT json_array_elements_text(?2::json)) "
	                "FOR SHARE;",
	};
	struct each_ctx c = {false, 0, fn, ud};
	struct heed__sql q;

	if (heed__sql_prepare_dialect(store, &q, sql) != HEED_OK)
		return HEED_ESTORE;
	heed__sql_text(&q, 1, holder);
	heed__sql_text(&q, 2, sites_json);
	return heed__sql_each(&q, lease_row, &c);
}

static heed_status add_origin_rows(heed_store *store, const char *site,
                                   const char *origin)
{
	struct heed__sql q;

	if (heed__sql_prepare(store, &q,
	                      "INSERT INTO lease_origins(site, origin) "
	                      "VALUES(?1, ?2) ON CONFLICT DO NOTHING;") !=
	    HEED_OK)
		return HEED_ESTORE;
	heed__sql_text(&q, 1, site);
	heed__sql_text(&q, 2, origin);
	return heed__sql_run(&q, NULL);
}

struct origin_ctx {
	heed_store_lease_origin_fn *fn;
	void *ud;
};

static int origin_row(struct heed__sql *q, void *ctx)
{
	struct origin_ctx *c = ctx;

	return c->fn(c->ud, heed__sql_col_text(q, 0));
}

static heed_status origins_rows(heed_store *store, const char *site,
                                heed_store_lease_origin_fn *fn, void *ud)
{
	/* Origins in byte order on both engines. */
	static const char *const sql[] = {
	        [HEED__SQL_SQLITE] = "SELECT origin FROM lease_origins WHERE "
	                             "site = ?1 ORDER BY origin;",
	        [HEED__SQL_PG] = "SELECT origin FROM lease_origins WHERE site "
	                         "= ?1 ORDER BY origin COLLATE \"C\";",
	};
	struct origin_ctx c = {fn, ud};
	struct heed__sql q;

	if (heed__sql_prepare_dialect(store, &q, sql) != HEED_OK)
		return HEED_ESTORE;
	heed__sql_text(&q, 1, site);
	return heed__sql_each(&q, origin_row, &c);
}

heed_status heed_store_lease_ensure(heed_store *store, const char *site,
                                    int64_t delay_ms, int64_t due_ms)
{
	if (!site || !*site || delay_ms < 0)
		return HEED_EINVAL;
	return ensure_rows(store, site, delay_ms, due_ms);
}

heed_status heed_store_lease_ensure_origin(heed_store *store, const char *site,
                                           const char *origin, int64_t delay_ms,
                                           int64_t due_ms)
{
	heed_status rc;

	if (!origin || !*origin)
		return HEED_EINVAL;
	rc = heed_store_lease_ensure(store, site, delay_ms, due_ms);
	if (rc != HEED_OK)
		return rc;
	return add_origin_rows(store, site, origin);
}

heed_status heed_store_lease_hold(heed_store *store, const char *holder,
                                  const char *sites_json,
                                  heed_store_lease_fn *fn, void *ud)
{
	if (!holder || !*holder || !sites_json || !fn)
		return HEED_EINVAL;
	return hold_rows(store, holder, sites_json, fn, ud);
}

heed_status heed_store_lease_origins(heed_store *store, const char *site,
                                     heed_store_lease_origin_fn *fn, void *ud)
{
	if (!site || !fn)
		return HEED_EINVAL;
	return origins_rows(store, site, fn, ud);
}

heed_status heed_store_lease_claim(heed_store *store, const char *holder,
                                   int64_t now_ms, int64_t lease_ms, int max,
                                   heed_store_lease_fn *fn, void *ud)
{
	if (!holder || !*holder || max < 1 || lease_ms < 1 || !fn)
		return HEED_EINVAL;
	return claim_rows(store, holder, now_ms, lease_ms, max, fn, ud);
}

/* The fencing writes share their checks: *held starts false, so a refused
 * argument never reads as a lease still held. */
#define FENCED_ARGS(site, holder, held)                 \
	do {                                            \
		*(held) = false;                        \
		if (!(site) || !(holder) || !*(holder)) \
			return HEED_EINVAL;             \
	} while (0)

heed_status heed_store_lease_renew(heed_store *store, const char *site,
                                   const char *holder, int64_t token,
                                   int64_t now_ms, int64_t lease_ms, bool *held)
{
	FENCED_ARGS(site, holder, held);
	if (lease_ms < 1)
		return HEED_EINVAL;
	return renew_rows(store, site, holder, token, now_ms, lease_ms, held);
}

heed_status heed_store_lease_record_start(heed_store *store, const char *site,
                                          const char *holder, int64_t token,
                                          int64_t now_ms, bool *held)
{
	FENCED_ARGS(site, holder, held);
	return record_start_rows(store, site, holder, token, now_ms, held);
}

heed_status heed_store_lease_release(heed_store *store, const char *site,
                                     const char *holder, int64_t token,
                                     int64_t next_ms, bool *held)
{
	FENCED_ARGS(site, holder, held);
	return release_rows(store, site, holder, token, next_ms, held);
}

heed_status heed_store_lease_get(heed_store *store, const char *site,
                                 heed_store_lease_fn *fn, void *ud)
{
	if (!site || !fn)
		return HEED_EINVAL;
	return get_rows(store, site, fn, ud);
}

heed_status heed_store_lease_counts(heed_store *store, int64_t now_ms,
                                    struct heed_lease_counts *c)
{
	memset(c, 0, sizeof(*c));
	return counts_rows(store, now_ms, c);
}

heed_status heed_store_address_take(heed_store *store, const char *address,
                                    int64_t gap_ms, int64_t now_ms, bool *taken,
                                    int64_t *next_ms)
{
	int64_t next = 0;

	*taken = false;
	if (next_ms)
		*next_ms = 0;
	if (!address || !*address || gap_ms < 0)
		return HEED_EINVAL;
	return address_take_rows(store, address, gap_ms, now_ms, taken,
	                         next_ms ? next_ms : &next);
}

heed_status heed_store_lease_renew_all(heed_store *store, const char *holder,
                                       int64_t now_ms, int64_t lease_ms,
                                       heed_store_lease_fn *fn, void *ud)
{
	if (!holder || !*holder || lease_ms < 1 || !fn)
		return HEED_EINVAL;
	return renew_all_rows(store, holder, now_ms, lease_ms, fn, ud);
}

heed_status heed_store_lease_worker_beat(heed_store *store, const char *holder,
                                         int64_t now_ms, int64_t ttl_ms,
                                         int64_t *live)
{
	int64_t n = 0;

	if (live)
		*live = 0;
	if (!holder || !*holder || ttl_ms < 1)
		return HEED_EINVAL;
	return worker_beat_rows(store, holder, now_ms, ttl_ms,
	                        live ? live : &n);
}

heed_status heed_store_lease_worker_leave(heed_store *store, const char *holder)
{
	if (!holder || !*holder)
		return HEED_EINVAL;
	return worker_leave_rows(store, holder);
}
