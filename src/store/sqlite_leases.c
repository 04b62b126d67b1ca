/*
 * The "leases" area on SQLite: site leases and address budgets for many
 * workers (include/heed/store_leases.h). One SQLite store has one writer
 * at a time, so every statement here is atomic by itself: the claim is a
 * single UPDATE ... RETURNING over one range of the index site_leases_due
 * (SQLite 3.35 or later; Debian 12 has 3.40), no SKIP LOCKED needed.
 */
#include "store/sqlite-rows-int.h"
#include "store/store-int.h"

/* Later migrations go to both backends: src/store/pg_leases.c keeps the
 * same version numbers. */
static const char *const leases_migrations[] = {
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
        leases_migrations,
        (int)HEED_ARRAY_SIZE(leases_migrations),
};

/* The columns every listing reads, in struct heed_site_lease's order. */
#define LEASE_COLUMNS                                                   \
	"site, holder, token, lease_until, next_allowed_at, delay_ms, " \
	"last_request_start, taken_from"

static void read_lease(sqlite3_stmt *st, struct heed_site_lease *l)
{
	l->site = heed__sqlite_text(st, 0);
	l->holder = heed__sqlite_text(st, 1);
	l->token = sqlite3_column_int64(st, 2);
	l->lease_until = sqlite3_column_int64(st, 3);
	l->next_allowed_at = sqlite3_column_int64(st, 4);
	l->delay_ms = sqlite3_column_int64(st, 5);
	l->last_request_start = sqlite3_column_int64(st, 6);
	l->taken_from = heed__sqlite_text(st, 7);
	l->start_at = 0;
}

static heed_status sqlite_ensure(heed_store *store, const char *site,
                                 int64_t delay_ms, int64_t due_ms)
{
	/* A live lease keeps next_allowed_at at its end: max() keeps the
	 * site with its holder. */
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store,
	        "INSERT INTO site_leases(site, delay_ms, next_allowed_at) "
	        "VALUES(?1, ?2, ?3) ON CONFLICT(site) DO UPDATE SET "
	        "delay_ms = excluded.delay_ms, next_allowed_at = "
	        "min(next_allowed_at, max(excluded.next_allowed_at, "
	        "lease_until)), wanted_at = CASE WHEN lease_until > "
	        "excluded.next_allowed_at THEN min(wanted_at, "
	        "excluded.next_allowed_at) ELSE wanted_at END;");
	heed_status rc;

	if (!st)
		return HEED_ESTORE;
	sqlite3_bind_text(st, 1, site, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, delay_ms);
	sqlite3_bind_int64(st, 3, due_ms);
	rc = heed__sqlite_step_done(store, st);
	heed__sqlite_release(store, st);
	return rc;
}

/* A listing's callback; a claim's rows get start_at counted from now. */
struct each_ctx {
	bool claimed;
	int64_t now_ms;
	heed_store_lease_fn *fn;
	void *ud;
};

static int lease_row(sqlite3_stmt *st, void *ctx)
{
	struct each_ctx *c = ctx;
	struct heed_site_lease l;

	read_lease(st, &l);
	if (c->claimed)
		l.start_at = heed_lease_start_at(
		        c->now_ms, l.last_request_start, l.delay_ms);
	return c->fn(c->ud, &l);
}

static heed_status sqlite_claim(heed_store *store, const char *holder,
                                int64_t now_ms, int64_t lease_ms, int max,
                                heed_store_lease_fn *fn, void *ud)
{
	/* RETURNING makes every change at the first step: a callback that
	 * stops early leaves the rest claimed, as documented. */
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store, "UPDATE site_leases SET holder = ?1, token = token + 1, "
	               "lease_until = ?2 + ?3, next_allowed_at = ?2 + ?3, "
	               "wanted_at = ?5, taken_from = holder "
	               "WHERE site IN (SELECT site FROM site_leases "
	               "WHERE next_allowed_at <= ?2 AND lease_until <= ?2 "
	               "ORDER BY next_allowed_at, site LIMIT ?4) "
	               "RETURNING " LEASE_COLUMNS ";");
	struct each_ctx c = {true, now_ms, fn, ud};

	if (!st)
		return HEED_ESTORE;
	sqlite3_bind_text(st, 1, holder, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, now_ms);
	sqlite3_bind_int64(st, 3, lease_ms);
	sqlite3_bind_int(st, 4, max);
	sqlite3_bind_int64(st, 5, HEED_LEASE_IDLE);
	return heed__sqlite_each_row(store, st, lease_row, &c);
}

/* Runs a fencing UPDATE: ?1 site, ?2 holder, ?3 token, ?4 a, ?5 b (a
 * statement without ?5 ignores b); *held says whether it changed the
 * row. */
static heed_status fenced(heed_store *store, const char *sql, const char *site,
                          const char *holder, int64_t token, int64_t a,
                          int64_t b, bool *held)
{
	sqlite3_stmt *st = heed__sqlite_prepare(store, sql);
	heed_status rc;

	if (!st)
		return HEED_ESTORE;
	sqlite3_bind_text(st, 1, site, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, holder, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, token);
	sqlite3_bind_int64(st, 4, a);
	sqlite3_bind_int64(st, 5, b);
	rc = heed__sqlite_step_done(store, st);
	heed__sqlite_release(store, st);
	*held = rc == HEED_OK && sqlite3_changes(store->db) > 0;
	return rc;
}

static heed_status sqlite_renew(heed_store *store, const char *site,
                                const char *holder, int64_t token,
                                int64_t now_ms, int64_t lease_ms, bool *held)
{
	return fenced(store,
	              "UPDATE site_leases SET lease_until = ?4 + ?5, "
	              "next_allowed_at = max(next_allowed_at, ?4 + ?5) "
	              "WHERE site = ?1 AND holder = ?2 AND token = ?3 "
	              "AND lease_until > ?4;",
	              site, holder, token, now_ms, lease_ms, held);
}

static heed_status sqlite_record_start(heed_store *store, const char *site,
                                       const char *holder, int64_t token,
                                       int64_t now_ms, bool *held)
{
	return fenced(store,
	              "UPDATE site_leases SET last_request_start = ?4 "
	              "WHERE site = ?1 AND holder = ?2 AND token = ?3 "
	              "AND lease_until > ?4;",
	              site, holder, token, now_ms, 0, held);
}

static heed_status sqlite_release(heed_store *store, const char *site,
                                  const char *holder, int64_t token,
                                  int64_t next_ms, bool *held)
{
	return fenced(store,
	              "UPDATE site_leases SET holder = NULL, lease_until = 0, "
	              "next_allowed_at = CASE WHEN ?4 = ?5 THEN wanted_at "
	              "ELSE ?4 END, wanted_at = ?5 WHERE site = ?1 AND "
	              "holder = ?2 AND token = ?3;",
	              site, holder, token, next_ms, HEED_LEASE_IDLE, held);
}

static heed_status sqlite_get(heed_store *store, const char *site,
                              heed_store_lease_fn *fn, void *ud)
{
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store,
	        "SELECT " LEASE_COLUMNS " FROM site_leases WHERE site = ?1;");
	struct each_ctx c = {false, 0, fn, ud};

	if (!st)
		return HEED_ESTORE;
	sqlite3_bind_text(st, 1, site, -1, SQLITE_STATIC);
	return heed__sqlite_each_row(store, st, lease_row, &c);
}

static heed_status sqlite_counts(heed_store *store, int64_t now_ms,
                                 struct heed_lease_counts *c)
{
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store,
	        "SELECT count(*), "
	        "coalesce(sum(lease_until > ?1), 0), "
	        "coalesce(sum(next_allowed_at <= ?1 AND lease_until <= ?1), 0),"
	        " coalesce(sum(next_allowed_at = ?2), 0) FROM site_leases;");
	int rc;

	if (!st)
		return HEED_ESTORE;
	sqlite3_bind_int64(st, 1, now_ms);
	sqlite3_bind_int64(st, 2, HEED_LEASE_IDLE);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		c->sites = sqlite3_column_int64(st, 0);
		c->held = sqlite3_column_int64(st, 1);
		c->claimable = sqlite3_column_int64(st, 2);
		c->idle = sqlite3_column_int64(st, 3);
	}
	heed__sqlite_release(store, st);
	if (rc != SQLITE_ROW)
		return heed__store_fail(store, NULL, "counting leases");
	return HEED_OK;
}

static heed_status sqlite_address_take(heed_store *store, const char *address,
                                       int64_t gap_ms, int64_t now_ms,
                                       bool *taken, int64_t *next_ms)
{
	/* The upsert's WHERE is the whole budget: the row changes only when
	 * the slot is free, so two takers of one slot cannot both win. */
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store,
	        "INSERT INTO address_slots(address, last_start, gap_ms) "
	        "VALUES(?1, ?3, ?2) ON CONFLICT(address) DO UPDATE SET "
	        "last_start = excluded.last_start, gap_ms = excluded.gap_ms "
	        "WHERE address_slots.last_start + max(address_slots.gap_ms, "
	        "excluded.gap_ms) <= excluded.last_start;");
	heed_status rc;
	int step;

	if (!st)
		return HEED_ESTORE;
	sqlite3_bind_text(st, 1, address, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, gap_ms);
	sqlite3_bind_int64(st, 3, now_ms);
	rc = heed__sqlite_step_done(store, st);
	heed__sqlite_release(store, st);
	if (rc != HEED_OK)
		return rc;
	*taken = sqlite3_changes(store->db) > 0;
	st = heed__sqlite_prepare(store, "SELECT last_start, gap_ms FROM "
	                                 "address_slots WHERE address = ?1;");
	if (!st)
		return HEED_ESTORE;
	sqlite3_bind_text(st, 1, address, -1, SQLITE_STATIC);
	step = sqlite3_step(st);
	if (step == SQLITE_ROW) {
		int64_t gap = sqlite3_column_int64(st, 1);
		*next_ms = sqlite3_column_int64(st, 0) +
		           (gap > gap_ms ? gap : gap_ms);
	}
	heed__sqlite_release(store, st);
	if (step != SQLITE_ROW)
		return heed__store_fail(store, NULL, "reading an address slot");
	return HEED_OK;
}

static heed_status sqlite_renew_all(heed_store *store, const char *holder,
                                    int64_t now_ms, int64_t lease_ms,
                                    heed_store_lease_fn *fn, void *ud)
{
	/* renew's SET for every live lease of holder; RETURNING makes every
	 * change at the first step, so a callback that stops early leaves
	 * the rest renewed. */
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store, "UPDATE site_leases SET lease_until = ?2 + ?3, "
	               "next_allowed_at = max(next_allowed_at, ?2 + ?3) "
	               "WHERE holder = ?1 AND lease_until > ?2 "
	               "RETURNING " LEASE_COLUMNS ";");
	struct each_ctx c = {false, 0, fn, ud};

	if (!st)
		return HEED_ESTORE;
	sqlite3_bind_text(st, 1, holder, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, now_ms);
	sqlite3_bind_int64(st, 3, lease_ms);
	return heed__sqlite_each_row(store, st, lease_row, &c);
}

/* Runs a heartbeat statement: ?1 holder, ?2 a (a statement without ?2
 * ignores a, as fenced does). */
static heed_status worker_write(heed_store *store, const char *sql,
                                const char *holder, int64_t a)
{
	sqlite3_stmt *st = heed__sqlite_prepare(store, sql);
	heed_status rc;

	if (!st)
		return HEED_ESTORE;
	sqlite3_bind_text(st, 1, holder, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, a);
	rc = heed__sqlite_step_done(store, st);
	heed__sqlite_release(store, st);
	return rc;
}

static heed_status sqlite_worker_beat(heed_store *store, const char *holder,
                                      int64_t now_ms, int64_t ttl_ms,
                                      int64_t *live)
{
	/* Three statements, each atomic on its own: the count comes after
	 * the upsert, so it always includes holder. */
	sqlite3_stmt *st;
	heed_status rc;
	int step;

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
		        holder, now_ms - HEED__LEASE_WORKER_GONE_MS);
	if (rc != HEED_OK)
		return rc;
	st = heed__sqlite_prepare(store, "SELECT count(*) FROM lease_workers "
	                                 "WHERE alive_until > ?1;");
	if (!st)
		return HEED_ESTORE;
	sqlite3_bind_int64(st, 1, now_ms);
	step = sqlite3_step(st);
	if (step == SQLITE_ROW)
		*live = sqlite3_column_int64(st, 0);
	heed__sqlite_release(store, st);
	if (step != SQLITE_ROW)
		return heed__store_fail(store, NULL, "counting live workers");
	return HEED_OK;
}

static heed_status sqlite_worker_leave(heed_store *store, const char *holder)
{
	return worker_write(store,
	                    "DELETE FROM lease_workers WHERE holder = ?1;",
	                    holder, 0);
}

static heed_status sqlite_hold(heed_store *store, const char *holder,
                               const char *sites_json, heed_store_lease_fn *fn,
                               void *ud)
{
	/* One writer at a time: the caller's write transaction already
	 * keeps every other worker out until it ends. */
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store, "SELECT " LEASE_COLUMNS " FROM site_leases "
	               "WHERE holder = ?1 AND site IN "
	               "(SELECT value FROM json_each(?2));");
	struct each_ctx c = {false, 0, fn, ud};

	if (!st)
		return HEED_ESTORE;
	sqlite3_bind_text(st, 1, holder, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, sites_json, -1, SQLITE_STATIC);
	return heed__sqlite_each_row(store, st, lease_row, &c);
}

static heed_status sqlite_add_origin(heed_store *store, const char *site,
                                     const char *origin)
{
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store, "INSERT INTO lease_origins(site, origin) VALUES(?1, ?2) "
	               "ON CONFLICT DO NOTHING;");
	heed_status rc;

	if (!st)
		return HEED_ESTORE;
	sqlite3_bind_text(st, 1, site, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, origin, -1, SQLITE_STATIC);
	rc = heed__sqlite_step_done(store, st);
	heed__sqlite_release(store, st);
	return rc;
}

struct origin_ctx {
	heed_store_lease_origin_fn *fn;
	void *ud;
};

static int origin_row(sqlite3_stmt *st, void *ctx)
{
	struct origin_ctx *c = ctx;

	return c->fn(c->ud, heed__sqlite_text(st, 0));
}

static heed_status sqlite_origins(heed_store *store, const char *site,
                                  heed_store_lease_origin_fn *fn, void *ud)
{
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store, "SELECT origin FROM lease_origins WHERE site = ?1 "
	               "ORDER BY origin;");
	struct origin_ctx c = {fn, ud};

	if (!st)
		return HEED_ESTORE;
	sqlite3_bind_text(st, 1, site, -1, SQLITE_STATIC);
	return heed__sqlite_each_row(store, st, origin_row, &c);
}

const struct heed__leases_ops heed__sqlite_leases_ops = {
        .ensure = sqlite_ensure,
        .add_origin = sqlite_add_origin,
        .hold = sqlite_hold,
        .origins = sqlite_origins,
        .claim = sqlite_claim,
        .renew = sqlite_renew,
        .record_start = sqlite_record_start,
        .release = sqlite_release,
        .get = sqlite_get,
        .counts = sqlite_counts,
        .address_take = sqlite_address_take,
        .renew_all = sqlite_renew_all,
        .worker_beat = sqlite_worker_beat,
        .worker_leave = sqlite_worker_leave,
};
