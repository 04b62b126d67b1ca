/*
 * The leases area (include/heed/store_leases.h): site leases and address
 * budgets for many workers, and the lease policy (pure). Its statements
 * are written once for both engines (src/store/sql-int.h) where they can
 * be; where the engines truly differ (the claim's row locks and join
 * order, the greater of two, writing CTEs, JSON arrays, triggers), a
 * statement has one text per engine.
 *
 * A lease is alive while its holder's heartbeat (lease_workers) is and
 * the holder is in the lease's epoch: the fencing writes are conditional
 * UPDATEs on (site, holder, token) and that heartbeat, their row count
 * saying whether the lease still held.
 */
#include <stdio.h>
#include <string.h>

#include "store/sql-int.h"

/* HEED_LEASE_IDLE and HEED_LEASE_HELD as SQL literals. */
#define IDLE_SQL "9223372036854775807"
#define HELD_SQL "9223372036854775806"

/*
 * Migration 4's common part, on each engine's integer type and spelling
 * of the greater of two. Each worker's row gets an epoch and each lease
 * the epoch of its holder at the grant; the holder index gains the epoch,
 * so a claim finds a dead worker's leases, or a live one's stale ones,
 * in one range. Leases live at the migration keep their end (their
 * holder's heartbeat takes the latest), every holder has a row (a claim
 * finds leases through it), and a held site is out of the due range.
 */
#define MIGRATE_EPOCHS(INT, MAX)                                               \
	"ALTER TABLE lease_workers ADD COLUMN epoch " INT                      \
	" NOT NULL DEFAULT 0;"                                                 \
	"ALTER TABLE site_leases ADD COLUMN epoch " INT " NOT NULL DEFAULT 0;" \
	"DROP INDEX site_leases_holder;"                                       \
	"CREATE INDEX site_leases_holder ON site_leases(holder, epoch);"       \
	"INSERT INTO lease_workers(holder, alive_until) SELECT DISTINCT "      \
	"holder, 0 FROM site_leases WHERE holder IS NOT NULL ON "              \
	"CONFLICT DO NOTHING;"                                                 \
	"UPDATE lease_workers SET alive_until = " MAX "(alive_until, "         \
	"(SELECT coalesce(max(lease_until), 0) FROM site_leases WHERE "        \
	"site_leases.holder = lease_workers.holder));"                         \
	"UPDATE site_leases SET next_allowed_at = " HELD_SQL                   \
	" WHERE holder IS NOT NULL;"

/* The kept count starts from the rows there are. */
#define COUNTS_START                                                    \
	"INSERT INTO lease_counts(id, active) SELECT 1, count(*) FROM " \
	"site_leases WHERE next_allowed_at <> " IDLE_SQL ";"

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
        /* 4: leases live by their holder's heartbeat (one row a worker
         * renews, whatever it holds), and the count of sites with work
         * kept by triggers, not counted at every beat. */
        MIGRATE_EPOCHS(
                "INTEGER",
                "max") "CREATE TABLE lease_counts ("
                       "  id INTEGER PRIMARY KEY CHECK (id = 1),"
                       "  active INTEGER NOT NULL);" COUNTS_START
                       "CREATE TRIGGER site_leases_count_insert AFTER INSERT "
                       "ON "
                       "site_leases WHEN NEW.next_allowed_at <> " IDLE_SQL
                       " BEGIN "
                       "UPDATE lease_counts SET active = active + 1; END;"
                       "CREATE TRIGGER site_leases_count_update AFTER UPDATE "
                       "OF "
                       "next_allowed_at ON site_leases WHEN "
                       "(OLD.next_allowed_at = " IDLE_SQL
                       ") <> (NEW.next_allowed_at = " IDLE_SQL ") BEGIN "
                       "UPDATE lease_counts SET active = active + CASE WHEN "
                       "NEW.next_allowed_at = " IDLE_SQL
                       " THEN -1 ELSE 1 END; END;"
                       "CREATE TRIGGER site_leases_count_delete AFTER DELETE "
                       "ON "
                       "site_leases WHEN OLD.next_allowed_at <> " IDLE_SQL
                       " BEGIN "
                       "UPDATE lease_counts SET active = active - 1; END;",
        /* 5: PostgreSQL partitions site_leases and lease_origins by
         * site; one file has nothing to split, and the number keeps both
         * engines at one version (heed store copy compares them). */
        "SELECT 1;",
};

const struct heed_store_area heed__store_leases_area = {
        "leases",
        sqlite_migrations,
        (int)HEED_ARRAY_SIZE(sqlite_migrations),
};

/* PostgreSQL's kept count: each row trigger appends a delta (migration 4;
 * made again on the partitioned table by migration 5). */
#define PG_COUNT_TRIGGERS                                                      \
	"CREATE TRIGGER site_leases_count_insert AFTER INSERT ON site_leases " \
	"FOR EACH ROW WHEN (NEW.next_allowed_at <> " IDLE_SQL                  \
	") EXECUTE FUNCTION heed_lease_count_delta('1');"                      \
	"CREATE TRIGGER site_leases_count_wake AFTER UPDATE OF "               \
	"next_allowed_at ON site_leases FOR EACH ROW WHEN "                    \
	"(OLD.next_allowed_at = " IDLE_SQL                                     \
	" AND NEW.next_allowed_at <> " IDLE_SQL                                \
	") EXECUTE FUNCTION heed_lease_count_delta('1');"                      \
	"CREATE TRIGGER site_leases_count_idle AFTER UPDATE OF "               \
	"next_allowed_at ON site_leases FOR EACH ROW WHEN "                    \
	"(OLD.next_allowed_at <> " IDLE_SQL                                    \
	" AND NEW.next_allowed_at = " IDLE_SQL                                 \
	") EXECUTE FUNCTION heed_lease_count_delta('-1');"                     \
	"CREATE TRIGGER site_leases_count_delete AFTER DELETE ON site_leases " \
	"FOR EACH ROW WHEN (OLD.next_allowed_at <> " IDLE_SQL                  \
	") EXECUTE FUNCTION heed_lease_count_delta('-1');"

/* PostgreSQL's site_leases and lease_origins, one partition a remainder
 * of a hash of the site (HEED__SITE_PARTITIONS, migration 5). */
#define LEASE_PARTITIONS                                               \
	HEED__PG_SITE_PARTITIONS("'site_leases_new'", "'site_leases'") \
	HEED__PG_SITE_PARTITIONS("'lease_origins_new'", "'lease_origins'")

/* 5: both tables partitioned by the site (the key of every unique index
 * already), one partition a remainder (<table>_<remainder>), their rows
 * moved, the indexes and the count's triggers made again on the
 * partitioned table (each partition gets its own). */
#define PG_PARTITION_LEASES                                                   \
	"CREATE TABLE site_leases_new (LIKE site_leases INCLUDING DEFAULTS, " \
	"PRIMARY KEY (site)) PARTITION BY HASH (site);"                       \
	"CREATE TABLE lease_origins_new (LIKE lease_origins, PRIMARY KEY "    \
	"(site, origin)) PARTITION BY HASH (site);" LEASE_PARTITIONS          \
	"INSERT INTO site_leases_new SELECT * FROM site_leases;"              \
	"INSERT INTO lease_origins_new SELECT * FROM lease_origins;"          \
	"DROP TABLE site_leases;"                                             \
	"DROP TABLE lease_origins;"                                           \
	"ALTER TABLE site_leases_new RENAME TO site_leases;"                  \
	"ALTER TABLE site_leases RENAME CONSTRAINT site_leases_new_pkey TO "  \
	"site_leases_pkey;"                                                   \
	"ALTER TABLE lease_origins_new RENAME TO lease_origins;"              \
	"ALTER TABLE lease_origins RENAME CONSTRAINT lease_origins_new_pkey " \
	"TO lease_origins_pkey;"                                              \
	"CREATE INDEX site_leases_due ON site_leases(next_allowed_at, site);" \
	"CREATE INDEX site_leases_holder ON site_leases(holder, "             \
	"epoch);" PG_COUNT_TRIGGERS

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
        /* 4: as SQLite's version 4, but the triggers append to
         * lease_count_deltas, which the beat folds into lease_counts: a
         * batch that wakes a site locks no row another worker's batch
         * waits for (one counter row would serialize every worker's
         * batches, and deadlock them). */
        MIGRATE_EPOCHS(
                "BIGINT",
                "GREATEST") "CREATE TABLE lease_counts ("
                            "  id INTEGER PRIMARY KEY CHECK (id = 1),"
                            "  active BIGINT NOT NULL);"
                            "CREATE TABLE lease_count_deltas (n BIGINT NOT "
                            "NULL);" COUNTS_START
                            "CREATE FUNCTION heed_lease_count_delta() RETURNS "
                            "trigger "
                            "LANGUAGE plpgsql AS $$BEGIN INSERT INTO "
                            "lease_count_deltas(n) "
                            "VALUES (TG_ARGV[0]::bigint); RETURN NULL; "
                            "END$$;" PG_COUNT_TRIGGERS,
        PG_PARTITION_LEASES,
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

/* The columns a claim's RETURNING reads, in struct heed_site_lease's
 * order. */
#define LEASE_COLUMNS                                                   \
	"site, holder, token, lease_until, next_allowed_at, delay_ms, " \
	"last_request_start, taken_from, epoch"

/* The same columns read with the holder's heartbeat (l the lease, w its
 * holder's row): a lease of the holder's epoch lasts as long as its
 * heartbeat; any other ended by the time its holder's epoch moved on,
 * and shows the end it was granted with (0 once released). */
#define LEASE_READ                                                      \
	"l.site, l.holder, l.token, CASE WHEN w.epoch = l.epoch THEN "  \
	"w.alive_until ELSE l.lease_until END, l.next_allowed_at, "     \
	"l.delay_ms, l.last_request_start, l.taken_from, l.epoch FROM " \
	"site_leases l LEFT JOIN lease_workers w ON w.holder = l.holder "

/* A listing's callback; a claim's rows get start_at counted from now. */
struct each_ctx {
	bool claimed;
	int64_t now_ms;
	heed_store_lease_fn *fn;
	void *ud;
	/* The rows handed over, and whether fn asked to stop. */
	int granted;
	bool stopped;
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
	        .epoch = heed__sql_col_int(q, 8, 0),
	};

	if (c->claimed)
		l.start_at = heed_lease_start_at(
		        c->now_ms, l.last_request_start, l.delay_ms);
	c->granted++;
	c->stopped = c->fn(c->ud, &l) != 0;
	return c->stopped;
}

/* An ensure's upsert of a site's row on PostgreSQL (ensure_rows, and
 * ensure_origins_pg for many rows). */
#define ENSURE_PG                                                            \
	"ON CONFLICT (site) DO UPDATE SET delay_ms = excluded.delay_ms, "    \
	"next_allowed_at = CASE WHEN site_leases.holder IS NULL THEN "       \
	"LEAST(site_leases.next_allowed_at, excluded.next_allowed_at) ELSE " \
	"site_leases.next_allowed_at END, wanted_at = CASE WHEN "            \
	"site_leases.holder IS NULL THEN site_leases.wanted_at ELSE "        \
	"LEAST(site_leases.wanted_at, excluded.next_allowed_at) END;"

static heed_status ensure_rows(heed_store *store, const char *site,
                               int64_t delay_ms, int64_t due_ms)
{
	/* A held site stays out of the due range (HEED_LEASE_HELD) whether
	 * its holder lives or not: the due time asked for waits in
	 * wanted_at for the holder's release. */
	static const char *const sql[] = {
	        [HEED__SQL_SQLITE] =
	                "INSERT INTO site_leases(site, delay_ms, "
	                "next_allowed_at) VALUES(?1, ?2, ?3) ON "
	                "CONFLICT(site) DO UPDATE SET delay_ms = "
	                "excluded.delay_ms, next_allowed_at = CASE WHEN "
	                "holder IS NULL THEN min(next_allowed_at, "
	                "excluded.next_allowed_at) ELSE next_allowed_at END, "
	                "wanted_at = CASE WHEN holder IS NULL THEN wanted_at "
	                "ELSE min(wanted_at, excluded.next_allowed_at) END;",
	        [HEED__SQL_PG] =
	                "INSERT INTO site_leases(site, delay_ms, "
	                "next_allowed_at) VALUES(?1, ?2, ?3) " ENSURE_PG,
	};
	struct heed__sql q;

	if (heed__sql_prepare_dialect(store, &q, sql) != HEED_OK)
		return HEED_ESTORE;
	heed__sql_text(&q, 1, site);
	heed__sql_int(&q, 2, delay_ms);
	heed__sql_int(&q, 3, due_ms);
	return heed__sql_run(&q, NULL);
}

/* A row's first two integer columns: a heartbeat's epoch and end, an
 * address slot's last start and gap, a beat's live workers and sites. */
struct pair {
	int64_t first, second;
};

static int read_pair(struct heed__sql *q, void *ctx)
{
	struct pair *p = ctx;

	p->first = heed__sql_col_int(q, 0, 0);
	p->second = heed__sql_col_int(q, 1, 0);
	return 1;
}

/*
 * Keeps holder alive until now_ms + ttl_ms, never less than it was: the
 * one write that renews every lease it holds. A heartbeat that had ended
 * starts a new epoch, so the leases of the old one stay ended (another
 * worker may have fetched from their sites since) though the holder is
 * back. Then the worker rows gone for an hour that hold nothing go.
 */
static heed_status heartbeat_rows(heed_store *store, const char *holder,
                                  int64_t now_ms, int64_t ttl_ms,
                                  struct pair *h)
{
	static const char *const sql[] = {
	        [HEED__SQL_SQLITE] =
	                "INSERT INTO lease_workers(holder, alive_until) "
	                "VALUES(?1, ?3) ON CONFLICT(holder) DO UPDATE SET "
	                "epoch = CASE WHEN alive_until > ?2 THEN epoch ELSE "
	                "epoch + 1 END, alive_until = CASE WHEN alive_until > "
	                "?2 THEN max(alive_until, excluded.alive_until) ELSE "
	                "excluded.alive_until END RETURNING epoch, "
	                "alive_until;",
	        [HEED__SQL_PG] =
	                "INSERT INTO lease_workers(holder, alive_until) "
	                "VALUES(?1, ?3::bigint) ON CONFLICT (holder) DO "
	                "UPDATE SET epoch = CASE WHEN "
	                "lease_workers.alive_until "
	                "> ?2::bigint THEN lease_workers.epoch ELSE "
	                "lease_workers.epoch + 1 END, alive_until = CASE WHEN "
	                "lease_workers.alive_until > ?2::bigint THEN "
	                "GREATEST(lease_workers.alive_until, "
	                "excluded.alive_until) ELSE excluded.alive_until END "
	                "RETURNING epoch, alive_until;",
	};
	bool first = !store->lease_ttl_ms;
	struct heed__sql q;
	heed_status rc;

	store->lease_ttl_ms = ttl_ms;
	if (first && store->backend->leases_over_restart)
		store->backend->leases_over_restart(store);
	if (heed__sql_prepare_dialect(store, &q, sql) != HEED_OK)
		return HEED_ESTORE;
	heed__sql_text(&q, 1, holder);
	heed__sql_int(&q, 2, now_ms);
	heed__sql_int(&q, 3, now_ms + ttl_ms);
	rc = heed__sql_one(&q, read_pair, h);
	if (rc != HEED_OK)
		return rc;
	/* A worker's leases are found through its row: it stays while
	 * it holds any. */
	if (heed__sql_prepare(store, &q,
	                      "DELETE FROM lease_workers WHERE alive_until < "
	                      "?2 AND holder <> ?1 AND NOT EXISTS (SELECT 1 "
	                      "FROM site_leases l WHERE l.holder = "
	                      "lease_workers.holder);") != HEED_OK)
		return HEED_ESTORE;
	heed__sql_text(&q, 1, holder);
	heed__sql_int(&q, 2, now_ms - LEASE_WORKER_GONE_MS);
	return heed__sql_run(&q, NULL);
}

/*
 * Before a claim takes leases over, the epoch of each worker whose
 * heartbeat ended and that still holds leases of its epoch moves on: a
 * beat of that worker the network held back, carrying the clock of when
 * it was sent, then finds its epoch changed and gives up every lease it
 * had, instead of reviving them beside their new holders. A worker is
 * bumped once (its leases are then of an older epoch).
 */
static heed_status end_epochs_rows(heed_store *store, int64_t now_ms)
{
	/* PostgreSQL is told the order, a probe of the holder index per
	 * dead worker (LIMIT keeps the subquery apart): as an EXISTS it
	 * became a semi-join reading the holder indexes of every partition
	 * from the start (some 200 ms a claim at a million sites). */
	static const char *const sql[] = {
	        [HEED__SQL_SQLITE] =
	                "UPDATE lease_workers SET epoch = epoch + 1 "
	                "WHERE alive_until <= ?1 AND EXISTS (SELECT 1 "
	                "FROM site_leases l WHERE l.holder = "
	                "lease_workers.holder AND l.epoch = "
	                "lease_workers.epoch);",
	        [HEED__SQL_PG] =
	                "UPDATE lease_workers SET epoch = epoch + 1 "
	                "WHERE holder IN (SELECT d.holder FROM "
	                "lease_workers d CROSS JOIN LATERAL (SELECT 1 FROM "
	                "site_leases l WHERE l.holder = d.holder AND "
	                "l.epoch = d.epoch LIMIT 1) x WHERE d.alive_until "
	                "<= ?1::bigint);",
	};
	struct heed__sql q;

	if (heed__sql_prepare_dialect(store, &q, sql) != HEED_OK)
		return HEED_ESTORE;
	heed__sql_int(&q, 1, now_ms);
	return heed__sql_run(&q, NULL);
}

/* A dead worker's leases, or a live one's of an older epoch: one range
 * of site_leases_holder per worker, each engine told the join's order
 * (SQLite, with no statistics, would read every site and look each holder
 * up; PostgreSQL would merge the whole holder index with the workers). */
#define ENDED_WHERE                                                     \
	"l.holder = d.holder AND l.epoch < CASE WHEN d.alive_until <= " \
	"?2 THEN " IDLE_SQL " ELSE d.epoch END"
#define ENDED_SQLITE                                                 \
	"SELECT l.site FROM lease_workers d CROSS JOIN site_leases " \
	"l ON " ENDED_WHERE
/* PostgreSQL's grant of the sites in c (a CTE before it) to ?1, on TABLE
 * (site_leases or a partition of it). The sites go as an array, so each
 * partition is probed by its primary key: joined to c, the planner reads
 * whole partitions once they are small (20,000 rows) and c may be long. */
#define GRANT_PG(TABLE)                                                      \
	"w AS (SELECT epoch, alive_until FROM lease_workers WHERE holder = " \
	"?1) UPDATE " TABLE " l SET holder = ?1, epoch = w.epoch, token = "  \
	"l.token + 1, lease_until = w.alive_until, next_allowed_at "         \
	"= " HELD_SQL ", wanted_at = " IDLE_SQL                              \
	", taken_from = l.holder FROM w "                                    \
	"WHERE l.site = ANY(ARRAY(SELECT site FROM c)) RETURNING l.site, "   \
	"l.holder, l.token, l.lease_until, l.next_allowed_at, l.delay_ms, "  \
	"l.last_request_start, l.taken_from, l.epoch;"

/* PostgreSQL's claim on one partition, TABLE (site_leases_N): its ended
 * leases, then its due sites. */
#define CLAIM_PG(TABLE)                                                     \
	"WITH t AS (SELECT x.site FROM lease_workers d CROSS JOIN LATERAL " \
	"(SELECT l.site FROM " TABLE " l WHERE " ENDED_WHERE " LIMIT "      \
	"?4::bigint FOR UPDATE SKIP LOCKED) x LIMIT ?4::bigint), u AS "     \
	"(SELECT site FROM " TABLE " WHERE next_allowed_at <= ?2::bigint "  \
	"ORDER BY next_allowed_at, site LIMIT ?4::bigint FOR UPDATE SKIP "  \
	"LOCKED), c AS (SELECT site FROM t UNION ALL SELECT site FROM u "   \
	"LIMIT ?4::bigint), " GRANT_PG(TABLE)

/* The leases of workers whose heartbeat ended, in every partition: one
 * range of each partition's holder index per such worker, none for a
 * live one (their rows are filtered first). */
#define CLAIM_DEAD_PG                                                       \
	"WITH c AS (SELECT x.site FROM lease_workers d CROSS JOIN LATERAL " \
	"(SELECT l.site FROM site_leases l WHERE l.holder = d.holder "      \
	"LIMIT ?4::bigint FOR UPDATE SKIP LOCKED) x WHERE d.alive_until "   \
	"<= ?2::bigint LIMIT ?4::bigint), " GRANT_PG("site_leases")

/*
 * A claim on PostgreSQL reads one partition at a time, each statement
 * the two index ranges of that partition alone (on the partitioned table
 * it would probe every partition's holder index for each live worker and
 * merge every partition's due range). First, though, the leases of dead
 * workers in every partition, so that they are taken over as soon as a
 * claim comes (a probe of each partition per dead worker, none per live
 * one). Then a worker starts at a partition of its own, moved on by one
 * each second, and goes on to the next one while grants are missing. Due
 * sites are granted earliest first within a partition, not across them.
 */
static heed_status claim_partitions(heed_store *store, const char *holder,
                                    int64_t now_ms, int max, struct each_ctx *c)
{
	/* One text a partition: the store knows a statement by its text's
	 * address. */
	static const char *const sql[] = {
	        CLAIM_PG("site_leases_0"),  CLAIM_PG("site_leases_1"),
	        CLAIM_PG("site_leases_2"),  CLAIM_PG("site_leases_3"),
	        CLAIM_PG("site_leases_4"),  CLAIM_PG("site_leases_5"),
	        CLAIM_PG("site_leases_6"),  CLAIM_PG("site_leases_7"),
	        CLAIM_PG("site_leases_8"),  CLAIM_PG("site_leases_9"),
	        CLAIM_PG("site_leases_10"), CLAIM_PG("site_leases_11"),
	        CLAIM_PG("site_leases_12"), CLAIM_PG("site_leases_13"),
	        CLAIM_PG("site_leases_14"), CLAIM_PG("site_leases_15"),
	};
	_Static_assert(HEED_ARRAY_SIZE(sql) == HEED__SITE_PARTITIONS,
	               "a claim text for each partition");
	uint64_t start = heed__hash_str(holder) + (uint64_t)(now_ms / 1000);
	struct heed__sql q;
	heed_status rc = HEED_OK;

	for (int i = -1; i < HEED__SITE_PARTITIONS && rc == HEED_OK; i++) {
		int want = max - c->granted;

		if (want <= 0 || c->stopped)
			break;
		if (heed__sql_prepare(store, &q,
		                      i < 0 ? CLAIM_DEAD_PG
		                            : sql[(start + (uint64_t)i) %
		                                  HEED__SITE_PARTITIONS]) !=
		    HEED_OK)
			return HEED_ESTORE;
		heed__sql_text(&q, 1, holder);
		heed__sql_int(&q, 2, now_ms);
		heed__sql_int(&q, 4, want);
		rc = heed__sql_each(&q, lease_row, c);
	}
	return rc;
}

/*
 * The claim, after the claimer's heartbeat: first leases whose holder's
 * heartbeat ended (or whose epoch its holder left), found through
 * lease_workers and the holder index, a range per worker; then due sites
 * from the range of site_leases_due, earliest first. A held site is never
 * in that range (HEED_LEASE_HELD), so neither read grows with the sites
 * held. Each grant names the claimer's epoch and raises the site's token.
 * SQLite has one writer at a time, so an UPDATE ... RETURNING is atomic by
 * itself, and RETURNING makes every change at the first step (a callback
 * that stops early leaves the rest claimed, as documented). PostgreSQL
 * picks the rows FOR UPDATE SKIP LOCKED: rows another worker's claim (or
 * a batch's fence) holds are passed over, never waited for, and a row
 * changed by a claim that committed meanwhile is checked again against
 * the join, so it is never granted twice; it runs on one partition of
 * the sites at a time (claim_partitions).
 */
static heed_status claim_rows(heed_store *store, const char *holder,
                              int64_t now_ms, int64_t lease_ms, int max,
                              heed_store_lease_fn *fn, void *ud)
{
	static const char sqlite_sql[] =
	        "UPDATE site_leases SET holder = ?1, epoch = "
	        "(SELECT epoch FROM lease_workers WHERE holder = ?1), "
	        "token = token + 1, lease_until = (SELECT alive_until "
	        "FROM lease_workers WHERE holder = ?1), "
	        "next_allowed_at = " HELD_SQL ", "
	        "wanted_at = " IDLE_SQL ", "
	        "taken_from = holder "
	        "WHERE site IN (SELECT site FROM (" ENDED_SQLITE " "
	        "LIMIT ?4) UNION ALL SELECT site FROM (SELECT site "
	        "FROM site_leases WHERE next_allowed_at <= ?2 "
	        "ORDER BY next_allowed_at, site LIMIT ?4) LIMIT ?4) "
	        "RETURNING " LEASE_COLUMNS ";";
	struct each_ctx c = {true, now_ms, fn, ud};
	struct pair h;
	struct heed__sql q;
	heed_status rc;

	rc = heartbeat_rows(store, holder, now_ms, lease_ms, &h);
	if (rc == HEED_OK)
		rc = end_epochs_rows(store, now_ms);
	if (rc != HEED_OK)
		return rc;
	if (heed__sql_dialect(store) == HEED__SQL_PG)
		return claim_partitions(store, holder, now_ms, max, &c);
	if (heed__sql_prepare(store, &q, sqlite_sql) != HEED_OK)
		return HEED_ESTORE;
	heed__sql_text(&q, 1, holder);
	heed__sql_int(&q, 2, now_ms);
	heed__sql_int(&q, 4, max);
	return heed__sql_each(&q, lease_row, &c);
}

/* Runs a fencing UPDATE, a conditional one on (site, holder, token, lease
 * alive): ?1 site, ?2 holder, ?3 token, ?4 a, ?5 b, ?6 c (a statement
 * without ?5 or ?6 ignores b or c); *held says whether it changed the row,
 * that is whether the lease still held. */
static heed_status fenced(heed_store *store, const char *sql, const char *site,
                          const char *holder, int64_t token, int64_t a,
                          int64_t b, int64_t c, bool *held)
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
	heed__sql_int(&q, 6, c);
	rc = heed__sql_run(&q, &changed);
	*held = rc == HEED_OK && changed > 0;
	return rc;
}

/* A renewal is its holder's heartbeat, if site's lease (its token) is
 * of the holder's epoch and alive: the one row renews every lease the
 * holder has. */
static heed_status renew_rows(heed_store *store, const char *site,
                              const char *holder, int64_t token, int64_t now_ms,
                              int64_t lease_ms, bool *held)
{
	static const char *const sql[] = {
	        [HEED__SQL_SQLITE] =
	                "UPDATE lease_workers SET alive_until = "
	                "max(alive_until, ?4 + ?5) WHERE holder = ?2 AND "
	                "alive_until > ?4 AND epoch = (SELECT epoch FROM "
	                "site_leases WHERE site = ?1 AND holder = ?2 AND "
	                "token = ?3);",
	        [HEED__SQL_PG] =
	                "UPDATE lease_workers SET alive_until = "
	                "GREATEST(alive_until, ?4::bigint + ?5::bigint) WHERE "
	                "holder = ?2 AND alive_until > ?4::bigint AND epoch = "
	                "(SELECT epoch FROM site_leases WHERE site = ?1 AND "
	                "holder = ?2 AND token = ?3);",
	};

	return fenced(store, sql[heed__sql_dialect(store)], site, holder, token,
	              now_ms, lease_ms, 0, held);
}

static heed_status record_start_rows(heed_store *store, const char *site,
                                     const char *holder, int64_t token,
                                     int64_t now_ms, bool *held)
{
	return fenced(store,
	              "UPDATE site_leases SET last_request_start = ?4 "
	              "WHERE site = ?1 AND holder = ?2 AND token = ?3 "
	              "AND EXISTS (SELECT 1 FROM lease_workers w WHERE "
	              "w.holder = ?2 AND w.epoch = site_leases.epoch AND "
	              "w.alive_until > ?4);",
	              site, holder, token, now_ms, 0, 0, held);
}

static heed_status release_rows(heed_store *store, const char *site,
                                const char *holder, int64_t token,
                                int64_t last_start_ms, int64_t next_ms,
                                bool *held)
{
	return fenced(store,
	              "UPDATE site_leases SET holder = NULL, lease_until = 0, "
	              "next_allowed_at = CASE WHEN CAST(?4 AS BIGINT) = "
	              "CAST(?5 AS BIGINT) THEN wanted_at ELSE CAST(?4 AS "
	              "BIGINT) END, wanted_at = CAST(?5 AS BIGINT), "
	              "last_request_start = CASE WHEN CAST(?6 AS BIGINT) > "
	              "coalesce(last_request_start, 0) THEN CAST(?6 AS "
	              "BIGINT) ELSE last_request_start END WHERE site = ?1 AND "
	              "holder = ?2 AND token = ?3;",
	              site, holder, token, next_ms, HEED_LEASE_IDLE,
	              last_start_ms, held);
}

static heed_status get_rows(heed_store *store, const char *site,
                            heed_store_lease_fn *fn, void *ud)
{
	struct each_ctx c = {false, 0, fn, ud};
	struct heed__sql q;

	if (heed__sql_prepare(store, &q,
	                      "SELECT " LEASE_READ
	                      "WHERE l.site = ?1;") != HEED_OK)
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

/* Whether lease l (holder's row w, ?1 now) is live. */
#define LEASE_LIVE "w.epoch = l.epoch AND w.alive_until > ?1"

static heed_status counts_rows(heed_store *store, int64_t now_ms,
                               struct heed_lease_counts *c)
{
	struct heed__sql q;

	/* A scan of every site: what the kept counts are checked against,
	 * never read at a worker's beat. */
	if (heed__sql_prepare(
	            store, &q,
	            "SELECT count(*), count(*) FILTER (WHERE " LEASE_LIVE
	            "), count(*) FILTER (WHERE l.next_allowed_at <= ?1 OR "
	            "(l.holder IS NOT NULL AND NOT coalesce(" LEASE_LIVE
	            ", false))), count(*) FILTER (WHERE l.next_allowed_at "
	            "= " IDLE_SQL
	            ") FROM site_leases l LEFT JOIN lease_workers w "
	            "ON w.holder = l.holder;") != HEED_OK)
		return HEED_ESTORE;
	heed__sql_int(&q, 1, now_ms);
	return heed__sql_one(&q, read_counts, c);
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
	struct pair s = {0, 0}; /* last start, gap */
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
	rc = heed__sql_one(&q, read_pair, &s);
	if (rc == HEED_OK)
		*next_ms = s.first + (s.second > gap_ms ? s.second : gap_ms);
	return rc;
}

/* The key of the lock that lets one beat at a time fold the deltas:
 * heed's first key (src/store/pg-int.h) and one of its own. */
#define COUNTS_LOCK "1751475556, 4"

/*
 * The beat: the heartbeat, then the live workers (a read of
 * lease_workers, one row a worker) and the kept count of sites with
 * work. On PostgreSQL the count is lease_counts plus the deltas the
 * triggers appended since, both read in the statement's one snapshot (it
 * does not see the fold below, nor need to); the beat that gets the lock
 * (the others do not wait for it) folds those deltas in, so they stay as
 * few as the sites woken or made idle between two beats, and writes
 * nothing when there are none. Deltas of batches not yet committed are
 * neither seen nor deleted: they are counted once they commit.
 */
static heed_status beat_rows(heed_store *store, const char *holder,
                             int64_t now_ms, int64_t ttl_ms,
                             struct heed_lease_beat *b)
{
	static const char *const sql[] = {
	        [HEED__SQL_SQLITE] = "SELECT (SELECT count(*) FROM "
	                             "lease_workers WHERE alive_until > ?1), "
	                             "(SELECT active FROM lease_counts);",
	        [HEED__SQL_PG] =
	                "WITH k AS (SELECT "
	                "pg_try_advisory_xact_lock(" COUNTS_LOCK ") AS got), "
	                "d AS (DELETE FROM lease_count_deltas "
	                "WHERE (SELECT got FROM k) RETURNING n), "
	                "c AS (UPDATE lease_counts SET active = active + s.n "
	                "FROM (SELECT sum(n) AS n FROM d) s "
	                "WHERE s.n IS NOT NULL) "
	                "SELECT (SELECT count(*) FROM lease_workers "
	                "WHERE alive_until > ?1::bigint), "
	                "(SELECT active FROM lease_counts) + "
	                "(SELECT coalesce(sum(n), 0) FROM lease_count_deltas);",
	};
	struct pair h, n = {0, 0}; /* epoch and end; live workers, sites */
	struct heed__sql q;
	heed_status rc;

	rc = heartbeat_rows(store, holder, now_ms, ttl_ms, &h);
	if (rc != HEED_OK)
		return rc;
	b->epoch = h.first;
	b->alive_until = h.second;
	if (heed__sql_prepare_dialect(store, &q, sql) != HEED_OK)
		return HEED_ESTORE;
	heed__sql_int(&q, 1, now_ms);
	rc = heed__sql_one(&q, read_pair, &n);
	b->live = n.first;
	b->active = n.second;
	return rc;
}

/* A clean exit: holder's leases end at once (those it could not hand
 * back are claimable now), and its row goes unless a lease still names
 * it. */
static heed_status worker_leave_rows(heed_store *store, const char *holder)
{
	static const char *const sql[] = {
	        "UPDATE lease_workers SET alive_until = 0 WHERE holder = ?1;",
	        "DELETE FROM lease_workers WHERE holder = ?1 AND NOT EXISTS "
	        "(SELECT 1 FROM site_leases l WHERE l.holder = ?1);",
	};
	heed_status rc = HEED_OK;

	for (size_t i = 0; i < HEED_ARRAY_SIZE(sql) && rc == HEED_OK; i++) {
		struct heed__sql q;

		if (heed__sql_prepare(store, &q, sql[i]) != HEED_OK)
			return HEED_ESTORE;
		heed__sql_text(&q, 1, holder);
		rc = heed__sql_run(&q, NULL);
	}
	return rc;
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
	        [HEED__SQL_SQLITE] = "SELECT " LEASE_READ
	                             "WHERE l.holder = ?1 AND l.site IN "
	                             "(SELECT value FROM json_each(?2));",
	        [HEED__SQL_PG] =
	                "SELECT " LEASE_READ
	                "WHERE l.holder = ?1 AND l.site IN (SELECT "
	                "json_array_elements_text(?2::json)) FOR SHARE OF l;",
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

	return c->fn(c->ud, heed__sql_col_text(q, 0), heed__sql_col_text(q, 1));
}

static heed_status origins_rows(heed_store *store, const char *const *sites,
                                size_t n, heed_store_lease_origin_fn *fn,
                                void *ud)
{
	struct origin_ctx c = {fn, ud};
	struct heed__sql q;
	heed_status rc = HEED_OK;
	char *lines;

	if (heed__sql_dialect(store) == HEED__SQL_SQLITE) {
		/* No round trip to save: a statement a site. */
		for (size_t i = 0; i < n && rc == HEED_OK; i++) {
			if (heed__sql_prepare(store, &q,
			                      "SELECT site, origin FROM "
			                      "lease_origins WHERE site = ?1 "
			                      "ORDER BY origin;") != HEED_OK)
				return HEED_ESTORE;
			heed__sql_text(&q, 1, sites[i]);
			rc = heed__sql_each(&q, origin_row, &c);
		}
		return rc;
	}
	if (!(lines = heed__sql_lines(store, sites, n)))
		return HEED_ENOMEM;
	/* Origins in byte order, as SQLite's. */
	if (heed__sql_prepare(store, &q,
	                      "SELECT o.site, o.origin FROM unnest("
	                      "string_to_array(?1, E'\\n')) WITH ORDINALITY "
	                      "AS t(s, n) JOIN lease_origins o ON o.site = t.s "
	                      "ORDER BY t.n, o.origin COLLATE \"C\";") !=
	    HEED_OK) {
		heed__free(store->alloc, lines);
		return HEED_ESTORE;
	}
	heed__sql_text(&q, 1, lines);
	rc = heed__sql_each(&q, origin_row, &c);
	heed__free(store->alloc, lines);
	return rc;
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

/* The n delays as one text, "d1,d2,...", allocated; NULL when out of
 * memory. */
static char *delays_text(heed_store *store, const int64_t *d, size_t n)
{
	char *out = heed__malloc(store->alloc, n * 21 + 1), *o = out;

	if (!out)
		return NULL;
	*o = '\0';
	for (size_t i = 0; i < n; i++)
		o += sprintf(o, i ? ",%lld" : "%lld", (long long)d[i]);
	return out;
}

/* PostgreSQL: sites and origins as lines, delays as "d1,d2,..."; a site
 * offered twice (two origins of one host) is one row of site_leases. */
static heed_status ensure_origins_pg(heed_store *store, const char *sites,
                                     const char *origins, const char *delays,
                                     int64_t due_ms)
{
	struct heed__sql q;
	heed_status rc;

	if (heed__sql_prepare(
	            store, &q,
	            "INSERT INTO site_leases(site, delay_ms, next_allowed_at) "
	            "SELECT DISTINCT ON (t.s) t.s, t.d, ?3::bigint FROM "
	            "unnest(string_to_array(?1, E'\\n'), string_to_array(?2, "
	            "',')::bigint[]) AS t(s, d) ORDER BY t.s " ENSURE_PG) !=
	    HEED_OK)
		return HEED_ESTORE;
	heed__sql_text(&q, 1, sites);
	heed__sql_text(&q, 2, delays);
	heed__sql_int(&q, 3, due_ms);
	if ((rc = heed__sql_run(&q, NULL)) != HEED_OK)
		return rc;
	if (heed__sql_prepare(
	            store, &q,
	            "INSERT INTO lease_origins(site, origin) SELECT t.s, t.o "
	            "FROM unnest(string_to_array(?1, E'\\n'), "
	            "string_to_array(?2, E'\\n')) AS t(s, o) ORDER BY t.s, t.o "
	            "ON CONFLICT DO NOTHING;") != HEED_OK)
		return HEED_ESTORE;
	heed__sql_text(&q, 1, sites);
	heed__sql_text(&q, 2, origins);
	return heed__sql_run(&q, NULL);
}

heed_status heed_store_lease_ensure_origins(heed_store *store,
                                            const char *const *sites,
                                            const char *const *origins,
                                            const int64_t *delays_ms, size_t n,
                                            int64_t due_ms)
{
	char *s = NULL, *o = NULL, *d = NULL;
	heed_status rc = HEED_OK;

	for (size_t i = 0; i < n; i++)
		if (!sites[i] || !*sites[i] || !origins[i] || !*origins[i] ||
		    delays_ms[i] < 0 || strchr(sites[i], '\n') ||
		    strchr(origins[i], '\n'))
			return HEED_EINVAL;
	if (!n)
		return HEED_OK;
	if (heed__sql_dialect(store) == HEED__SQL_SQLITE) {
		/* No round trip to save: two statements a site. */
		for (size_t i = 0; i < n && rc == HEED_OK; i++)
			rc = heed_store_lease_ensure_origin(
			        store, sites[i], origins[i], delays_ms[i],
			        due_ms);
		return rc;
	}
	s = heed__sql_lines(store, sites, n);
	o = heed__sql_lines(store, origins, n);
	d = delays_text(store, delays_ms, n);
	rc = s && o && d ? ensure_origins_pg(store, s, o, d, due_ms)
	                 : HEED_ENOMEM;
	heed__free(store->alloc, s);
	heed__free(store->alloc, o);
	heed__free(store->alloc, d);
	return rc;
}

heed_status heed_store_lease_hold(heed_store *store, const char *holder,
                                  const char *sites_json,
                                  heed_store_lease_fn *fn, void *ud)
{
	if (!holder || !*holder || !sites_json || !fn)
		return HEED_EINVAL;
	return hold_rows(store, holder, sites_json, fn, ud);
}

heed_status heed_store_lease_origins(heed_store *store,
                                     const char *const *sites, size_t n,
                                     heed_store_lease_origin_fn *fn, void *ud)
{
	if (!fn || (n && !sites))
		return HEED_EINVAL;
	for (size_t i = 0; i < n; i++)
		if (!sites[i] || strchr(sites[i], '\n'))
			return HEED_EINVAL;
	if (!n)
		return HEED_OK;
	return origins_rows(store, sites, n, fn, ud);
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
                                     int64_t last_start_ms, int64_t next_ms,
                                     bool *held)
{
	FENCED_ARGS(site, holder, held);
	if (last_start_ms < 0)
		return HEED_EINVAL;
	return release_rows(store, site, holder, token, last_start_ms, next_ms,
	                    held);
}

/* PostgreSQL's release of a list, each row's values read from the lists
 * by its ordinality. The plan reads index ranges only, the holder's or
 * the sites' keys, never a partition whole (unit.store_leases_pg): what
 * the worker holds, whatever the store's size. */
#define RELEASE_ALL_PG                                                         \
	"WITH t AS (SELECT * FROM unnest(string_to_array(?1, E'\\n'), "        \
	"string_to_array(?3, E'\\n')::bigint[], string_to_array(?4, "          \
	"E'\\n')::bigint[], string_to_array(?5, E'\\n')::bigint[]) WITH "      \
	"ORDINALITY AS t(site, token, last, next, n)) UPDATE site_leases l "   \
	"SET "                                                                 \
	"holder = NULL, lease_until = 0, next_allowed_at = CASE WHEN t.next "  \
	"= " IDLE_SQL                                                          \
	" THEN l.wanted_at ELSE t.next END, wanted_at = " IDLE_SQL             \
	", last_request_start = CASE WHEN t.last > coalesce("                  \
	"l.last_request_start, 0) THEN t.last ELSE l.last_request_start END "  \
	"FROM t WHERE l.site = ANY(string_to_array(?1, E'\\n')) AND l.site = " \
	"t.site AND l.holder = ?2 AND l.token = t.token RETURNING t.n, 1;"

/* The n releases' numbers as newline-separated lines (heed__sql_lines),
 * field picking one of token, last start and next; NULL when out of
 * memory. */
static char *release_numbers(heed_store *store,
                             const struct heed_lease_release *r, size_t n,
                             int field)
{
	char *out = heed__malloc(store->alloc, n * 21 + 1), *o = out;

	if (!out)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		int64_t v = field == 0   ? r[i].token
		            : field == 1 ? r[i].last_start_ms
		                         : r[i].next_ms;
		o += snprintf(o, 22, i + 1 < n ? "%lld\n" : "%lld",
		              (long long)v);
	}
	*o = '\0';
	return out;
}

static heed_status release_all_pg(heed_store *store, const char *holder,
                                  struct heed_lease_release *r, size_t n)
{
	const char **sites = heed__calloc(store->alloc, n, sizeof(*sites));
	int64_t *held = heed__calloc(store->alloc, n, sizeof(*held));
	struct heed__sql_ordinal o = {held, n};
	char *lines[4] = {NULL, NULL, NULL, NULL};
	struct heed__sql q;
	heed_status rc = HEED_ENOMEM;

	if (sites && held) {
		for (size_t i = 0; i < n; i++)
			sites[i] = r[i].site;
		lines[0] = heed__sql_lines(store, sites, n);
		for (int f = 0; f < 3; f++)
			lines[f + 1] = release_numbers(store, r, n, f);
	}
	if (lines[0] && lines[1] && lines[2] && lines[3]) {
		rc = heed__sql_prepare(store, &q, RELEASE_ALL_PG);
		if (rc == HEED_OK) {
			heed__sql_text(&q, 1, lines[0]);
			heed__sql_text(&q, 2, holder);
			for (int f = 1; f < 4; f++)
				heed__sql_text(&q, f + 2, lines[f]);
			rc = heed__sql_each(&q, heed__sql_read_ordinal, &o);
		}
	}
	for (size_t i = 0; i < n && rc == HEED_OK; i++)
		r[i].held = held[i] != 0;
	for (int f = 0; f < 4; f++)
		heed__free(store->alloc, lines[f]);
	heed__free(store->alloc, sites);
	heed__free(store->alloc, held);
	return rc;
}

heed_status heed_store_lease_release_all(heed_store *store, const char *holder,
                                         struct heed_lease_release *r, size_t n)
{
	heed_status rc = HEED_OK;

	if (!holder || !*holder)
		return HEED_EINVAL;
	for (size_t i = 0; i < n; i++) {
		r[i].held = false;
		if (!r[i].site || strchr(r[i].site, '\n') ||
		    r[i].last_start_ms < 0)
			return HEED_EINVAL;
	}
	if (!n)
		return HEED_OK;
	if (heed__sql_dialect(store) == HEED__SQL_PG)
		return release_all_pg(store, holder, r, n);
	/* No round trip to save: a statement a site. */
	for (size_t i = 0; i < n && rc == HEED_OK; i++)
		rc = release_rows(store, r[i].site, holder, r[i].token,
		                  r[i].last_start_ms, r[i].next_ms, &r[i].held);
	return rc;
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

heed_status heed_store_lease_worker_beat(heed_store *store, const char *holder,
                                         int64_t now_ms, int64_t ttl_ms,
                                         struct heed_lease_beat *b)
{
	memset(b, 0, sizeof(*b));
	if (!holder || !*holder || ttl_ms < 1)
		return HEED_EINVAL;
	return beat_rows(store, holder, now_ms, ttl_ms, b);
}

heed_status heed_store_lease_worker_leave(heed_store *store, const char *holder)
{
	if (!holder || !*holder)
		return HEED_EINVAL;
	return worker_leave_rows(store, holder);
}
