/*
 * Store internals: the backend table and the schema areas.
 *
 * A backend fills in struct heed_store_backend. Each area of the schema
 * (sites, pages, irc...) is a list of migrations, applied in order on open
 * and recorded in the table heed_schema(area, version), so areas grow
 * independently. An area keeps its migrations, SQL and row mapping in
 * src/store/<area>.c, written once for every engine over the statement
 * interface of src/store/sql-int.h; only the search area, whose full-text
 * indexes the engines build differently, has a file per engine
 * (sqlite_search.c, pg_search.c) behind struct heed__search_ops. Its
 * public functions are in include/heed/store_<area>.h.
 */
#ifndef HEED_STORE_INT_H
#define HEED_STORE_INT_H

#include "common/common-int.h"
#include "heed/store.h"
#include "heed/store_arrangements.h"
#include "heed/store_frontier.h"
#include "heed/store_search.h"
#include "heed/store_irc.h"
#include "heed/store_pages.h"
#include "heed/store_sites.h"
#include "heed/store_visits.h"
#include "heed/store_leases.h"

/* The table of versions, created by the first migration transaction (and
 * in every store an earlier heed made). */
#define HEED_SCHEMA_TABLE_SQL                      \
	"CREATE TABLE IF NOT EXISTS heed_schema (" \
	"  area TEXT PRIMARY KEY,"                 \
	"  version INTEGER NOT NULL);"

/* One area's schema: migrations[i] takes the area from version i to i + 1. */
struct heed_store_area {
	const char *name;
	const char *const *migrations;
	int count;
};

/* What the backend found at the location before heed wrote anything
 * (heed__sqlite_backend.open's guard). */
enum heed_store_found {
	HEED_STORE_FOUND_NEW,      /* nothing yet: no tables, no mark */
	HEED_STORE_FOUND_MARKED,   /* a heed store carrying heed's mark */
	HEED_STORE_FOUND_UNMARKED, /* a heed store made before the mark: exactly
	                              heed's tables (heed_schema among them) */
};

/*
 * The search area's functions on one backend (include/heed/store_search.h
 * says what each does), called by src/store/search.c once it has checked
 * the arguments (a query's limit, a chart's days); NULL: not ported.
 */
struct heed__search_ops {
	heed_status (*search)(heed_store *store,
	                      const struct heed_search_query *q,
	                      heed_search_fn *fn, void *ud, bool *more,
	                      struct heed_diag *diag);
	heed_status (*count)(heed_store *store,
	                     const struct heed_search_query *q, int64_t cap,
	                     int64_t *count, struct heed_diag *diag);
	heed_status (*page)(heed_store *store, int64_t id, int64_t now_s,
	                    heed_search_fn *fn, void *ud);
	heed_status (*tags)(heed_store *store, const char *host, int limit,
	                    int64_t now_s, heed_search_tag_fn *fn, void *ud);
	heed_status (*sites)(heed_store *store, const char *after_host,
	                     int limit, int64_t now_s, heed_search_site_fn *fn,
	                     void *ud);
	heed_status (*totals)(heed_store *store, int64_t now_s,
	                      struct heed_search_totals *t);
	heed_status (*per_day)(heed_store *store, const char *host, int days,
	                       int64_t now_s, heed_search_bucket_fn *fn,
	                       void *ud);
	heed_status (*views)(heed_store *store, const char *host, int64_t now_s,
	                     heed_search_bucket_fn *fn, void *ud);
	heed_status (*reindex)(heed_store *store);
	/* Catches the index up with at most limit marked pages (the lowest
	 * ids first), in the caller's transaction; *indexed: how many. */
	heed_status (*catch_up)(heed_store *store, int64_t limit,
	                        int64_t *indexed);
	/* How many marked pages the index has not caught up with. */
	heed_status (*behind)(heed_store *store, int64_t *pages);
};

/*
 * The IRC area's writes (src/store/irc.c), each one statement or two
 * inside the transaction of the writer, src/store/irc_writer.c, which
 * groups them into batches and replays a batch a lost connection took.
 * The arguments are heed_store_irc_*'s; an id a write makes comes back in
 * *id or *visit_id.
 */
heed_status heed__irc_network(heed_store *store, const char *key, int64_t now_s,
                              int64_t *id, int64_t *next_visit_s);
heed_status heed__irc_visit_begin(heed_store *store, int64_t network_id,
                                  const char *host, int port, bool tls,
                                  int64_t started_s, int64_t *visit_id);
heed_status heed__irc_visit_server(heed_store *store, int64_t visit_id,
                                   const char *server_name,
                                   const char *server_version,
                                   const char *network_name);
heed_status heed__irc_visit_lusers(heed_store *store, int64_t visit_id,
                                   const struct heed_irc_lusers *l);
heed_status heed__irc_preference(heed_store *store, int64_t network_id,
                                 int64_t visit_id, const char *server_name,
                                 const char *raw_value,
                                 const struct heed_irc_crawler_pref *p,
                                 int64_t seen_s);
heed_status heed__irc_server(heed_store *store, int64_t network_id,
                             int64_t visit_id, const char *name,
                             const char *hub, int hops, const char *description,
                             int64_t seen_s);
heed_status heed__irc_channel(heed_store *store, int64_t network_id,
                              int64_t visit_id, const char *name, int64_t users,
                              const char *topic, size_t topic_len,
                              int64_t seen_s);
heed_status heed__irc_visit_end(heed_store *store, int64_t network_id,
                                int64_t visit_id, heed_irc_visit_status status,
                                const char *reason,
                                const struct heed_irc_crawler_pref *pref,
                                int64_t ended_s, int64_t next_visit_s);
heed_status heed__irc_sts_set(heed_store *store, const char *host, int port,
                              int64_t expires_s);

struct heed_store_backend {
	const char *name;
	const char *title; /* for messages: "SQLite", "PostgreSQL" */
	/* Whether location names a store of this backend (store.c asks
	 * each backend of its table in turn). */
	bool (*accepts)(const char *location);
	/* location as messages show it, allocated; NULL when out of
	 * memory. */
	char *(*shown)(const struct heed_allocator *alloc,
	               const char *location);
	/* The backend's schema: its areas, in the order they are migrated,
	 * each with migrations in its own SQL dialect; NULL ends the list. */
	const struct heed_store_area *const *areas;
	/* Opens the location, then looks before it writes: a missing store
	 * is refused with HEED_ENOTFOUND under HEED_STORE_OPEN_EXISTING or
	 * _READONLY (and never created), anything that is not a heed store
	 * with HEED_ESTORE, both untouched. Sets store->found. location is
	 * as the user gave it. */
	heed_status (*open)(heed_store *store, const char *location,
	                    unsigned flags, struct heed_diag *diag);
	void (*close)(heed_store *store);
	heed_status (*exec)(heed_store *store, const char *sql);
	/* heed_store_begin_batch; NULL: begin_sql, as heed_store_begin. */
	heed_status (*begin_batch)(heed_store *store);
	heed_status (*schema_version)(heed_store *store, const char *area,
	                              int *version);
	/* The backend's last error message, for heed__store_fail. */
	const char *(*errmsg)(heed_store *store);
	/* heed_store_lock's contract; close releases the lock. */
	heed_status (*lock)(heed_store *store, struct heed_diag *diag);
	/* Whether a transaction is open on the connection. */
	bool (*in_tx)(const heed_store *store);
	/* heed_store_tx_lost's; NULL: transactions are never lost. */
	bool (*tx_lost)(const heed_store *store);
	/* Begins the transaction of heed_store_run_join, one that excludes
	 * every other joiner until it ends; HEED_EINVAL (nothing begun)
	 * inside a transaction. */
	heed_status (*join_begin)(heed_store *store);
	/* heed_store_lock_shared's; NULL: workers are not supported. */
	heed_status (*lock_shared)(heed_store *store, struct heed_diag *diag);
	/* Run at a worker's first beat (src/store/leases.c), store's
	 * lease_ttl_ms set: keeps the other workers' leases over a restart
	 * of the server this worker did not see, so that it does not take
	 * their hosts over while they reconnect. A failure is logged and
	 * otherwise ignored. NULL: the engine has no server to restart. */
	void (*leases_over_restart)(heed_store *store);
	/* The statement that marks the store as heed's, run in the migration
	 * transaction. */
	const char *mark_sql;
	/* Run by a writer once the store is migrated (it may write the file,
	 * so never before): SQLite's WAL mode. */
	const char *writer_sql;
	/* What heed_store_begin runs, and what starts the migration
	 * transaction: it must keep a second process opening the same new
	 * store waiting until the first has committed. */
	const char *begin_sql;
	const char *migrate_begin_sql;
	/* How the areas written once for every engine run a statement
	 * (src/store/sql-int.h). */
	const struct heed__sql_ops *sql;
	/* The areas ported to the backend; NULL: HEED_ENOTSUP. */
	const struct heed__search_ops *search;
	/* Whether two handles' write transactions run together rather than
	 * one after the other (heed_store_open_beside). */
	bool writers_together;
};

struct heed_store {
	const struct heed_store_backend *backend;
	const struct heed_allocator *alloc;
	char *location; /* as messages show it (no password), owned */
	char *given;    /* as given to heed_store_open, owned */
	/* The backend's own state (src/store/sqlite-int.h, pg-int.h); the
	 * other's is NULL. */
	struct heed__sqlite *sqlite;
	struct heed__pg *pg;
	/* The last error of a backend that has no errmsg of its own to ask
	 * (PostgreSQL's results are freed at once). */
	char backend_err[HEED_DIAG_SIZE];
	int lock_fd;                 /* the held crawl lock's file, or -1 */
	unsigned flags;              /* HEED_STORE_OPEN_* as opened */
	enum heed_store_found found; /* set by the backend's open */
	bool settled;                /* opened and migrated: ready for use */
	char errmsg[HEED_DIAG_SIZE]; /* last error, for heed_store_errmsg */
	/* heed_store_set_reconnect's: how long a PostgreSQL store waits for
	 * its server to come back, and where it says so. */
	int64_t reconnect_ms;
	struct heed_logger log;
	/* The lease this process's worker last beat with (leases.c), 0 for
	 * no worker: a PostgreSQL session that comes back after its server
	 * restarted gives every worker alive then this long (pg.c). */
	int64_t lease_ttl_ms;
	/* What heed__store_answer was told and heed_store_frontier_added
	 * has not yet handed out: NUL-terminated values one after another,
	 * answers_len bytes of answers_cap; the first answers_kept of them
	 * were committed, the rest go with a ROLLBACK. */
	char *answers;
	size_t answers_len, answers_cap, answers_kept;
	/* Which partition each site asked of lately is in (site_parts.c);
	 * NULL until the first. */
	struct heed__site_parts *site_parts;
};

extern const struct heed_store_backend heed__sqlite_backend;
extern const struct heed_store_backend heed__pg_backend;
extern const struct heed__search_ops heed__sqlite_search_ops;

/* The search helpers every backend shares (src/store/search.c): the
 * order q is sorted in (relevance without words is by fetch time), and a
 * cursor's key in the ascending order of the statements' sort key k (the
 * descending orders negated, a missing value last) and back. */
heed_search_sort heed__search_sort(const struct heed_search_query *q);
int64_t heed__search_key_to_sql(heed_search_sort sort, int64_t key);
int64_t heed__search_key_from_sql(heed_search_sort sort, int64_t k);
/* A chart's bucket from a statement's row: b a day's Unix s (per_day),
 * else a number of digits of the view counts (0: counts of 0). */
struct heed_search_bucket heed__search_bucket(bool per_day, int64_t b,
                                              int64_t pages);
extern const struct heed__search_ops heed__pg_search_ops;

/*
 * An area the store's backend lacks (the search area's ops are per
 * backend; SQLite's statements on a store of another backend): records
 * "the PostgreSQL store does not have the AREA area yet" ("this area" for
 * a NULL area) in the store's messages and returns HEED_ENOTSUP.
 */
heed_status heed__store_not_ported(heed_store *store, const char *area);

/*
 * Tells the store that a row of a held kind that answers (struct
 * heed__sql_held's answer) was written, value being its answer's: kept
 * for heed_store_frontier_added. HEED_ENOMEM when it cannot be kept.
 */
heed_status heed__store_answer(heed_store *store, const char *value);

/* Whether location names a PostgreSQL database ("postgresql://...",
 * "postgres://..."). */
bool heed__pg_location(const char *location);
/* location with the password of its URI (user:PASSWORD@ and any
 * password= parameter) replaced by "***", allocated; NULL when out of
 * memory. The text is otherwise kept as the user wrote it. */
char *heed__pg_redact(const struct heed_allocator *alloc, const char *location);

/* Appends name to the list of foreign tables in buf ("a, b"), as long as
 * it fits with room for " and N more"; counts it either way. */
void heed__store_list_foreign(char *buf, size_t size, int *listed, int *count,
                              const char *name);

/*
 * The crawl lock on a file beside the store (src/store/lock.c): takes
 * flock(LOCK_EX | LOCK_NB) on db_path + ".lock" and keeps the descriptor in
 * store->lock_fd. Returns HEED_OK (also when already held), HEED_EBUSY
 * naming store->location and the holder's pid in diag, HEED_EIO or
 * HEED_ENOMEM. heed__store_unlock closes the descriptor, which releases the
 * lock; it does nothing when no lock is held.
 */
heed_status heed__store_lock_file(heed_store *store, const char *db_path,
                                  struct heed_diag *diag);
void heed__store_unlock(heed_store *store);
/* HEED_EBUSY with "store 'LOCATION' is in use by another heed process
 * (pid HOLDER)" in diag, without the pid when holder is not above 0: the
 * crawl lock's refusal on every backend. */
heed_status heed__store_busy(const heed_store *store, struct heed_diag *diag,
                             long holder);

/* The SQLite backend's areas, each defined in its src/store/<area>.c
 * (search: sqlite_search.c). */
/* Sites, hosts and ACAP references (src/store/sites.c, which defines both
 * engines' sites areas). */
extern const struct heed_store_area heed__store_sites_area;
extern const struct heed_store_area heed__store_irc_area;
extern const struct heed_store_area heed__store_pages_area;
extern const struct heed_store_area heed__store_frontier_area;
/* After pages: a store made before it fills it from the pages table
 * (src/store/visits.c, which defines both engines' visits areas). */
extern const struct heed_store_area heed__store_visits_area;
/* After pages: its triggers and indexes are on the pages table. */
extern const struct heed_store_area heed__store_search_area;
/* Per-host arrangements with site owners (src/store/arrangements.c, which
 * defines both engines' arrangements areas). */
extern const struct heed_store_area heed__store_arrangements_area;
/* Site leases and address budgets for workers. */
extern const struct heed_store_area heed__store_leases_area;

/* Every schema area of the SQLite backend, in the order they are
 * migrated, then NULL; the count leaves the NULL out. */
extern const struct heed_store_area *const heed__store_areas[];
extern const int heed__store_area_count;
/* The core area (heed_meta), the same SQL on every backend. */
extern const struct heed_store_area heed__store_core_area;
/* The PostgreSQL backend's areas, beside SQLite's in src/store/<area>.c
 * (search: pg_search.c). */
extern const struct heed_store_area heed__pg_frontier_area;
extern const struct heed_store_area heed__pg_sites_area;
extern const struct heed_store_area heed__pg_arrangements_area;
/* Written once (src/store/irc.c, which defines both engines' areas). */
extern const struct heed_store_area heed__pg_irc_area;
extern const struct heed_store_area heed__pg_pages_area;
/* The PostgreSQL backend's search area (src/store/pg_search.c). */
extern const struct heed_store_area heed__pg_search_area;
/* After pages: its first migration fills it from the pages table. */
extern const struct heed_store_area heed__pg_visits_area;
extern const struct heed_store_area heed__pg_leases_area;

/* Frees what heed__sql_site_partition (sql-int.h) kept; on closing. */
void heed__sql_site_parts_free(heed_store *store);

/* Records the backend's error message in store->errmsg and diag, returns
 * HEED_ESTORE. what says what was being done ("opening", "migrating"). */
heed_status heed__store_fail(heed_store *store, struct heed_diag *diag,
                             const char *what);

#endif /* HEED_STORE_INT_H */
