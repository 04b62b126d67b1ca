/*
 * The frontier area (include/heed/store_frontier.h): the queue, seen set
 * and runs of a crawl, its statements written once for both engines
 * (src/store/sql-int.h).
 *
 * Workload: millions of rows across up to 100,000 sites; the engine asks
 * for a small window of one site's queued rows at a time, so the index
 * frontier_queued (host, id) answers every refill without a scan, and the
 * URL's unique index is the seen set. Nothing here is kept in memory. The
 * column is named host for history: since schema version 2 it holds the
 * site (origin) "scheme://host[:port]". Ids are SQLite's rowids and
 * PostgreSQL's identity column: increasing, as the windows need, with
 * gaps on PostgreSQL that nothing relies on.
 *
 * The queue's indexes hold only the rows that may still be fetched:
 * frontier_queued the queued ones, frontier_in_flight the few whose
 * request was under way when a batch committed (put back by a resume or a
 * takeover), frontier_dropped those a site's limit or its disqualification
 * set aside (put back at the site's next start). A done row stays for the
 * seen set alone, in no index but the URL's.
 *
 * Until version 3 one index (host, state, id) held every row: it grew
 * with everything ever fetched, and each answer moved its row's entry
 * from one state's range to another's, on a leaf of its own (a site gets
 * one request a second, so a batch holds one answer of each of many
 * sites); now an answer takes the entry out of a small index. A statement
 * names the state in the same words as its index (QUEUED_IS and the others):
 * neither engine uses a partial index for a query that does not say its
 * condition, and SQLite does not read "state = 0" as "state < 2".
 *
 * On PostgreSQL the table is hash-partitioned by host since version 4
 * (HEED__SITE_PARTITIONS of them, frontier_0 to frontier_15), so each
 * partition's indexes and vacuum stay small; the host is in every unique
 * key, (id, host) the primary key and (host, url) the URL's, and every
 * statement that finds a row by its id or URL names its host too, so that
 * it probes one partition's index, not sixteen. SQLite, one file with one
 * writer, keeps one table; its statements name the host where they share
 * their text with PostgreSQL, and are answered by the id or URL alone.
 */
#include <stdio.h>
#include <string.h>

#include "store/sql-int.h"

/* The states the queue's indexes hold, in SQL, and as SQL conditions
 * (above). */
#define QUEUED       "0"
#define IN_FLIGHT    "1"
#define DROPPED      "3"
#define QUEUED_IS    "state = " QUEUED
#define IN_FLIGHT_IS "state = " IN_FLIGHT
#define DROPPED_IS   "state = " DROPPED
_Static_assert(HEED_FRONTIER_QUEUED == 0 && HEED_FRONTIER_IN_FLIGHT == 1 &&
                       HEED_FRONTIER_DROPPED == 3,
               "QUEUED, IN_FLIGHT and DROPPED name the states");

/* The indexes of the rows that may still be fetched (above). */
#define QUEUE_INDEXES                                                         \
	"CREATE INDEX frontier_queued ON frontier(host, id) WHERE " QUEUED_IS \
	";"                                                                   \
	"CREATE INDEX frontier_in_flight ON frontier(host, id) "              \
	"WHERE " IN_FLIGHT_IS ";"                                             \
	"CREATE INDEX frontier_dropped ON frontier(host, id) "                \
	"WHERE " DROPPED_IS ";"

/* 3: those indexes instead of one of every row. */
#define PENDING_INDEXES "DROP INDEX frontier_queue;" QUEUE_INDEXES

static const char *const sqlite_migrations[] = {
        "CREATE TABLE frontier ("
        "  id INTEGER PRIMARY KEY,"
        "  url TEXT NOT NULL UNIQUE,"
        "  host TEXT NOT NULL,"
        "  depth INTEGER NOT NULL,"
        "  kind INTEGER NOT NULL,"
        "  state INTEGER NOT NULL DEFAULT 0,"
        "  discovered_from TEXT,"
        "  lastmod INTEGER,"
        "  outcome INTEGER NOT NULL DEFAULT 0);"
        "CREATE INDEX frontier_queue ON frontier(host, state, id);"
        "CREATE TABLE crawl_runs ("
        "  id INTEGER PRIMARY KEY,"
        "  mode TEXT NOT NULL,"
        "  started_at INTEGER NOT NULL,"
        "  finished_at INTEGER,"
        "  pages INTEGER NOT NULL DEFAULT 0,"
        "  errors INTEGER NOT NULL DEFAULT 0);",
        /* 2: tries counts transient failures retried in the same run, and
         * host holds the site (origin) the crawl schedules by instead of
         * the host key. A normalised URL always has a path, so its origin
         * ends before the first '/' after "://": searching from byte 9
         * skips "http://" and "https://" (and at most a host's first
         * byte, never a '/'). */
        "ALTER TABLE frontier ADD COLUMN tries INTEGER NOT NULL DEFAULT 0;"
        "UPDATE frontier SET host = CASE"
        "  WHEN instr(substr(url, 9), '/') > 0"
        "  THEN substr(url, 1, instr(substr(url, 9), '/') + 7)"
        "  ELSE url END;",
        PENDING_INDEXES,
        /* 4: PostgreSQL partitions the frontier by host; one file has
         * nothing to split, and the number keeps both engines at one
         * version (heed store copy compares them). */
        "SELECT 1;",
        /* 5: PostgreSQL's statements on a site's queue, as functions
         * planned once; SQLite plans its statements once already. */
        "SELECT 1;",
        /* 6: PostgreSQL's batch of states planned once, likewise. */
        "SELECT 1;",
};

/*
 * 4 (PostgreSQL): the frontier partitioned by host, one partition a
 * remainder (frontier_<remainder>), with the host in every unique key:
 * (id, host) the primary key, ids still from the identity column, and
 * (host, url) the seen set's. (id, host), not (host, id): a new row's id
 * is the largest, so its key goes to the index's last leaf, as before,
 * where (host, id) would write one leaf a site. The rows are moved, the
 * identity's sequence goes on past every id the old one handed out (a
 * requeued row's new id stays larger than any loaded window's), and the
 * queue's indexes are made again on the partitioned table (each partition
 * gets its own).
 */
#define FRONTIER_PARTITIONS \
	HEED__PG_SITE_PARTITIONS("'frontier_new'", "'frontier'")
/* Each partition's queue indexes made first under names that say which
 * they are (frontier_N_queued...): the partitioned table's, made next,
 * take them over, where their own would be frontier_N_host_id_idx, _idx1
 * and _idx2. */
#define PARTITION_QUEUE_INDEXES                                          \
	"DO $$BEGIN FOR i IN 0.." HEED__SITE_PARTITIONS_SQL " - 1 LOOP " \
	"EXECUTE format('CREATE INDEX %1$s_queued ON %1$s(host, id) "    \
	"WHERE " QUEUED_IS "', 'frontier_' || i);"                       \
	"EXECUTE format('CREATE INDEX %1$s_in_flight ON %1$s(host, id) " \
	"WHERE " IN_FLIGHT_IS "', 'frontier_' || i);"                    \
	"EXECUTE format('CREATE INDEX %1$s_dropped ON %1$s(host, id) "   \
	"WHERE " DROPPED_IS "', 'frontier_' || i);"                      \
	"END LOOP; END$$;"
/*
 * A batch's states (set_state_held), a row each of the arrays, joined to
 * the partitions by host and id: a nested loop prunes each row to its
 * host's partition at run time and probes that primary key. The planner
 * prices such a probe as one of every partition's key, sixteen times what
 * it costs, so with a batch's statement planned once early in a run (small
 * partitions, a plan kept for the run) it chose a hash join over every
 * partition read whole: 5 ms a batch of 25 rows at 50,000 rows, where the
 * probes take 0.7 ms (with hash and merge joins off, a nested loop over
 * partitions read whole instead). The function's own settings leave it
 * the probes alone; its plan is kept for the session as a prepared
 * statement's.
 */
#define PG_FRONTIER_STATES                                                  \
	"CREATE FUNCTION heed_frontier_states(ids int8[], states int4[], "  \
	"outcomes int4[], hosts text[]) RETURNS void LANGUAGE plpgsql SET " \
	"enable_hashjoin = off SET enable_mergejoin = off SET "             \
	"enable_seqscan = off AS $$BEGIN "                                  \
	"UPDATE frontier SET state = r.state, outcome = r.outcome FROM "    \
	"unnest(ids, states, outcomes, hosts) AS r(id, state, outcome, "    \
	"host) WHERE frontier.host = r.host AND frontier.id = r.id; END$$;"
#define PG_PARTITION_FRONTIER                                               \
	"CREATE TABLE frontier_new (LIKE frontier INCLUDING DEFAULTS "      \
	"INCLUDING IDENTITY, PRIMARY KEY (id, host), UNIQUE (host, url)) "  \
	"PARTITION BY HASH (host);" FRONTIER_PARTITIONS                     \
	"INSERT INTO frontier_new SELECT * FROM frontier;"                  \
	"SELECT setval(pg_get_serial_sequence('frontier_new', 'id'), "      \
	"greatest(nextval(pg_get_serial_sequence('frontier', 'id')), "      \
	"(SELECT coalesce(max(id), 0) + 1 FROM frontier)), false);"         \
	"DROP TABLE frontier;"                                              \
	"ALTER TABLE frontier_new RENAME TO frontier;"                      \
	"ALTER TABLE frontier RENAME CONSTRAINT frontier_new_pkey TO "      \
	"frontier_pkey;"                                                    \
	"ALTER TABLE frontier RENAME CONSTRAINT frontier_new_host_url_key " \
	"TO frontier_host_url_key;"                                         \
	"ALTER SEQUENCE frontier_new_id_seq RENAME TO "                     \
	"frontier_id_seq;" PARTITION_QUEUE_INDEXES QUEUE_INDEXES            \
	        PG_FRONTIER_STATES

/* 6: heed_frontier_states' UPDATE planned once for the session. */
#define PG_STATES_PLANNED_ONCE                                         \
	"ALTER FUNCTION heed_frontier_states(int8[], int4[], int4[], " \
	"text[]) SET plan_cache_mode = force_generic_plan;"

/* The held rows a statement that reads or changes the frontier, the runs
 * or heed_meta need not see: the pages and visits, which it never touches,
 * stay held (a site's queue read or put back at its start would otherwise
 * send them once a site). */
#define BLIND_TO_RECORDS (HEED__HELD_PAGES | HEED__HELD_VISITS)

/* The columns of a queue window's rows (call_entry), in its order. */
#define ENTRY_COLUMNS \
	"id, url, host, depth, kind, discovered_from, lastmod, tries"

/*
 * 5: a site's queue window and a site's rows moved from one state to
 * another, as functions whose statements keep one plan for the session.
 * Sent as prepared statements, each was planned again at every call (0.1
 * ms of the server's time, more than running it): the plan cache compares
 * a plan for any host, priced as a probe of all sixteen partitions, with
 * the plans it made for one host each, and keeps choosing the latter,
 * though the former prunes to the host's partition when it starts and
 * costs nothing to plan. A function may choose for its own statements;
 * each names the state as a constant, so its plan reads the partial index
 * of that state, and never reads a partition whole: a plan made while the
 * partitions were small is kept as they grow. The states a site's rows
 * move from are the queue's indexes' three; any other is refused.
 */
#define PG_QUEUE_FUNCTIONS                                                     \
	"CREATE FUNCTION heed_frontier_window(site text, after_id bigint, "    \
	"max_rows bigint) RETURNS TABLE(id bigint, url text, host text, "      \
	"depth int, kind int, discovered_from text, lastmod bigint, tries "    \
	"int) LANGUAGE plpgsql STABLE SET plan_cache_mode = "                  \
	"force_generic_plan SET enable_seqscan = off AS $$#variable_conflict " \
	"use_column\nBEGIN "                                                   \
	"RETURN QUERY SELECT " ENTRY_COLUMNS " FROM frontier WHERE host = "    \
	"site AND " QUEUED_IS " AND id > after_id ORDER BY id LIMIT "          \
	"max_rows; END$$;"                                                     \
	"CREATE FUNCTION heed_frontier_move(site text, was int, becomes "      \
	"int) RETURNS bigint LANGUAGE plpgsql SET plan_cache_mode = "          \
	"force_generic_plan SET enable_seqscan = off AS $$DECLARE moved "      \
	"bigint; BEGIN IF was = " QUEUED " "                                   \
	"THEN UPDATE frontier SET state = becomes WHERE host = site "          \
	"AND " QUEUED_IS "; ELSIF was = " IN_FLIGHT " THEN UPDATE frontier "   \
	"SET state = becomes WHERE host = site AND " IN_FLIGHT_IS "; ELSIF "   \
	"was = " DROPPED " THEN UPDATE frontier SET state = becomes WHERE "    \
	"host = site AND " DROPPED_IS                                          \
	"; ELSE RAISE EXCEPTION 'no queue index holds state "                  \
	"%', was; END IF; GET DIAGNOSTICS moved = ROW_COUNT; RETURN "          \
	"moved; END$$;"

/* Version 2 is SQLite's second migration (tries, rows keyed by site): the
 * first here already has that shape, so one area version means the same
 * columns on both engines. A later one is added to both under the same
 * number. */
static const char *const pg_migrations[] = {
        "CREATE TABLE frontier ("
        "  id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,"
        "  url TEXT NOT NULL UNIQUE,"
        "  host TEXT NOT NULL,"
        "  depth INTEGER NOT NULL,"
        "  kind INTEGER NOT NULL,"
        "  state INTEGER NOT NULL DEFAULT 0,"
        "  discovered_from TEXT,"
        "  lastmod BIGINT,"
        "  outcome INTEGER NOT NULL DEFAULT 0,"
        "  tries INTEGER NOT NULL DEFAULT 0);"
        "CREATE INDEX frontier_queue ON frontier(host, state, id);"
        "CREATE TABLE crawl_runs ("
        "  id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,"
        "  mode TEXT NOT NULL,"
        "  started_at BIGINT NOT NULL,"
        "  finished_at BIGINT,"
        "  pages BIGINT NOT NULL DEFAULT 0,"
        "  errors BIGINT NOT NULL DEFAULT 0);",
        "SELECT 1;",
        PENDING_INDEXES,
        PG_PARTITION_FRONTIER,
        PG_QUEUE_FUNCTIONS,
        /* 6: a batch's states planned once for the session. Left to
         * choose, the plan cache planned heed_frontier_states' UPDATE at
         * every call, as it prices the generic plan's probes as sixteen
         * partitions' each: on a recrawl, where a site's start sends the
         * few states held before it reads its queue, a call a site cost
         * the server 0.8 to 1.3 ms, 0.13 to 0.2 with the plan kept (which
         * is the nested loop above whatever the batch). */
        PG_STATES_PLANNED_ONCE,
};

const struct heed_store_area heed__store_frontier_area = {
        "frontier",
        sqlite_migrations,
        (int)HEED_ARRAY_SIZE(sqlite_migrations),
};

const struct heed_store_area heed__pg_frontier_area = {
        "frontier",
        pg_migrations,
        (int)HEED_ARRAY_SIZE(pg_migrations),
};

const char *heed_frontier_state_name(heed_frontier_state state)
{
	static const char *const names[] = {"queued", "in-flight", "done",
	                                    "dropped"};

	if ((unsigned)state >= HEED_ARRAY_SIZE(names))
		return "unknown";
	return names[state];
}

const char *heed_frontier_kind_name(heed_frontier_kind kind)
{
	static const char *const names[] = {"page", "sitemap", "feed",
	                                    "oembed"};

	if ((unsigned)kind >= HEED_ARRAY_SIZE(names))
		return "unknown";
	return names[kind];
}

/* Runs sql with e's columns bound as ?1..?6; *changed (may be NULL): the
 * rows it changed; blind: the held rows it need not see
 * (heed__sql_blind); held (may be NULL): the kind a batch may hold the
 * row as (heed__sql_hold). */
static heed_status write_entry(heed_store *store, const char *sql,
                               const struct heed_frontier_entry *e,
                               unsigned blind,
                               const struct heed__sql_held *held,
                               int64_t *changed)
{
	struct heed__sql q;

	if (heed__sql_prepare(store, &q, sql) != HEED_OK)
		return HEED_ESTORE;
	heed__sql_blind(&q, blind);
	if (held)
		heed__sql_hold(&q, held);
	heed__sql_text(&q, 1, e->url);
	heed__sql_text(&q, 2, e->host);
	heed__sql_int(&q, 3, e->depth);
	heed__sql_int(&q, 4, (int64_t)e->kind);
	heed__sql_text(&q, 5, e->discovered_from);
	heed__sql_opt(&q, 6, e->lastmod, HEED_STORE_NO_DATE);
	return heed__sql_run(&q, changed);
}

/* A URL seen before conflicts on its unique key: SQLite's the URL's,
 * PostgreSQL's (host, url), which names the partition. */
#define ADD_SQL(TARGET)                                                  \
	"INSERT INTO frontier(url, host, depth, kind, discovered_from, " \
	"lastmod) VALUES(?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT " TARGET    \
	" DO NOTHING;"

static const char *const add_sql[] = {
        [HEED__SQL_SQLITE] = ADD_SQL("(url)"),
        [HEED__SQL_PG] = ADD_SQL("(host, url)"),
};

/* Whether a URL was new depends on the new rows held back, not on the
 * states, pages or visits held. */
#define ADD_BLIND (HEED__HELD_ALL & ~HEED__HELD_FRONTIER_NEW)

heed_status heed_store_frontier_add(heed_store *store,
                                    const struct heed_frontier_entry *e,
                                    bool *added)
{
	int64_t changed = 0;
	heed_status rc;

	if (added)
		*added = false;
	if (!e->url || !e->host)
		return HEED_EINVAL;
	/* The row count is waited for even when nobody asks: a lost
	 * connection is then reported by this call, not by a later one. */
	rc = write_entry(store, add_sql[heed__sql_dialect(store)], e, ADD_BLIND,
	                 NULL, &changed);
	if (rc == HEED_OK && added)
		*added = changed > 0;
	return rc;
}

/* A batch's new URLs as one statement on PostgreSQL (src/store/sql-int.h),
 * answering with the site of each row it inserted, and its id for a batch
 * done again ($7: NULL draws one from the identity's sequence, named by
 * the partitioning migration, as the column's default would). */
static const struct heed__sql_held add_held = {
        .kind = HEED__HELD_FRONTIER_NEW,
        .params = 6,
        .key = 1,
        .many = "INSERT INTO frontier(id, url, host, depth, kind, "
                "discovered_from, lastmod) SELECT coalesce(t.i, "
                "nextval('frontier_id_seq')), t.u, t.h, t.d, t.k, t.f, t.l "
                "FROM unnest($1::text[], $2::text[], $3::int4[], "
                "$4::int4[], $5::text[], $6::int8[], $7::int8[]) AS t(u, h, "
                "d, k, f, l, i) ON CONFLICT (host, url) DO NOTHING "
                "RETURNING host, id, url;",
        .answer = 2,
        .ids = true};

heed_status heed_store_frontier_add_later(heed_store *store,
                                          const struct heed_frontier_entry *e)
{
	bool added = false;
	heed_status rc;

	if (!e->url || !e->host)
		return HEED_EINVAL;
	if (!heed__sql_may_hold(store)) {
		rc = heed_store_frontier_add(store, e, &added);
		return rc == HEED_OK && added
		               ? heed__store_answer(store, e->host)
		               : rc;
	}
	return write_entry(store, add_sql[heed__sql_dialect(store)], e,
	                   ADD_BLIND, &add_held, NULL);
}

heed_status heed_store_frontier_added(heed_store *store,
                                      heed_store_added_fn *fn, void *ud)
{
	heed_status rc = heed__sql_send_held(store, HEED__HELD_FRONTIER_NEW);
	char *answers = store->answers;
	size_t len = store->answers_len, cap = store->answers_cap;

	if (rc != HEED_OK)
		return rc;
	/* Handed out, they are the caller's: fn may queue more. */
	store->answers = NULL;
	store->answers_len = store->answers_cap = store->answers_kept = 0;
	for (size_t at = 0; at < len; at += strlen(answers + at) + 1)
		fn(ud, answers + at);
	if (!store->answers) {
		store->answers = answers;
		store->answers_cap = cap;
	} else {
		heed__free(store->alloc, answers);
	}
	return HEED_OK;
}

heed_status heed_store_frontier_requeue(heed_store *store,
                                        const struct heed_frontier_entry *e)
{
	heed_status rc;

	if (!e->url || !e->host)
		return HEED_EINVAL;
	/* A new row, not an update: windows only look above the last id
	 * they loaded, so an old id would never be seen again. */
	rc = write_entry(store,
	                 "DELETE FROM frontier WHERE host = ?2 AND url = ?1;",
	                 e, 0, NULL, NULL);
	return rc == HEED_OK ? heed_store_frontier_add(store, e, NULL) : rc;
}

struct entry_call {
	heed_store_frontier_fn *fn;
	void *ud;
};

/* An entry from ENTRY_COLUMNS, read from column first on. */
static struct heed_frontier_entry entry_at(struct heed__sql *q, int first)
{
	return (struct heed_frontier_entry){
	        .id = heed__sql_col_int(q, first, 0),
	        .url = heed__sql_col_text(q, first + 1),
	        .host = heed__sql_col_text(q, first + 2),
	        .depth = (int)heed__sql_col_int(q, first + 3, 0),
	        .kind = (heed_frontier_kind)heed__sql_col_int(q, first + 4, 0),
	        .discovered_from = heed__sql_col_text(q, first + 5),
	        .lastmod = heed__sql_col_int(q, first + 6, HEED_STORE_NO_DATE),
	        .tries = (int)heed__sql_col_int(q, first + 7, 0),
	};
}

static int call_entry(struct heed__sql *q, void *ctx)
{
	struct entry_call *c = ctx;
	struct heed_frontier_entry e = entry_at(q, 0);

	return c->fn(c->ud, &e);
}

heed_status heed_store_frontier_queued(heed_store *store, const char *host,
                                       int64_t after_id, int max,
                                       heed_store_frontier_fn *fn, void *ud)
{
	struct entry_call c = {fn, ud};
	struct heed__sql q;

	/* PostgreSQL's function (migration 5) keeps one plan. */
	static const char *const sql[] = {
	        [HEED__SQL_SQLITE] = "SELECT " ENTRY_COLUMNS " FROM frontier "
	                             "WHERE host = ?1 AND " QUEUED_IS
	                             " AND id > ?2 ORDER BY id LIMIT ?3;",
	        [HEED__SQL_PG] = "SELECT " ENTRY_COLUMNS " FROM "
	                         "heed_frontier_window(?1, ?2, ?3);",
	};
	if (heed__sql_prepare_dialect(store, &q, sql) != HEED_OK)
		return HEED_ESTORE;
	heed__sql_blind(&q, BLIND_TO_RECORDS);
	heed__sql_text(&q, 1, host);
	heed__sql_int(&q, 2, after_id);
	heed__sql_int(&q, 3, max);
	return heed__sql_each(&q, call_entry, &c);
}

/* The windows of a list of sites: fn told each entry's site by its place
 * in the list. */
struct window_call {
	heed_store_frontier_window_fn *fn;
	void *ud;
	size_t i; /* SQLite: the site asked */
};

static int call_window_pg(struct heed__sql *q, void *ctx)
{
	struct window_call *c = ctx;
	int64_t n = heed__sql_col_int(q, 0, 0);
	struct heed_frontier_entry e = entry_at(q, 1);

	return n >= 1 ? c->fn(c->ud, (size_t)n - 1, &e) : 0;
}

static int call_window_sqlite(void *ud, const struct heed_frontier_entry *e)
{
	struct window_call *c = ud;

	return c->fn(c->ud, c->i, e);
}

/* The ids after which each of n windows starts, as the text
 * "a1,a2,...", every one 0 when after_ids is NULL; NULL when out of
 * memory. Free with heed__free. */
static char *after_list(heed_store *store, const int64_t *after_ids, size_t n)
{
	char *list = heed__malloc(store->alloc, n * 21 + 1);
	size_t len = 0;

	if (!list)
		return NULL;
	for (size_t i = 0; i < n; i++)
		len += (size_t)snprintf(
		        list + len, 22, "%s%lld", i ? "," : "",
		        (long long)(after_ids ? after_ids[i] : 0));
	list[len] = '\0';
	return list;
}

/* A crawl refills many sites' windows at once (a worker's claim, the
 * lanes waiting for their next window): on PostgreSQL they come in one
 * statement (heed_frontier_window for each, the rows in the list's
 * order), not one a site. */
heed_status
heed_store_frontier_windows(heed_store *store, const char *const *hosts,
                            const int64_t *after_ids, size_t n, int max,
                            heed_store_frontier_window_fn *fn, void *ud)
{
	struct window_call c = {fn, ud, 0};
	struct heed__sql q;
	heed_status rc;
	char *lines, *afters;

	for (size_t i = 0; i < n; i++)
		if (!hosts[i] || strchr(hosts[i], '\n'))
			return HEED_EINVAL;
	if (!n)
		return HEED_OK;
	if (heed__sql_dialect(store) == HEED__SQL_SQLITE) {
		/* No round trip to save: a statement a site. */
		for (rc = HEED_OK; c.i < n && rc == HEED_OK; c.i++)
			rc = heed_store_frontier_queued(
			        store, hosts[c.i],
			        after_ids ? after_ids[c.i] : 0, max,
			        call_window_sqlite, &c);
		return rc;
	}
	lines = heed__sql_lines(store, hosts, n);
	afters = after_list(store, after_ids, n);
	rc = lines && afters ? HEED_OK : HEED_ENOMEM;
	if (rc == HEED_OK)
		rc = heed__sql_prepare(
		        store, &q,
		        "SELECT t.n, " ENTRY_COLUMNS " FROM unnest("
		        "string_to_array(?1, E'\\n'), "
		        "string_to_array(?3, ',')::int8[]) WITH ORDINALITY "
		        "AS t(h, a, n) CROSS JOIN LATERAL "
		        "heed_frontier_window(t.h, t.a, ?2) ORDER BY t.n, id;");
	if (rc == HEED_OK) {
		heed__sql_blind(&q, BLIND_TO_RECORDS);
		heed__sql_text(&q, 1, lines);
		heed__sql_int(&q, 2, max);
		heed__sql_text(&q, 3, afters);
		rc = heed__sql_each(&q, call_window_pg, &c);
	}
	heed__free(store->alloc, lines);
	heed__free(store->alloc, afters);
	return rc;
}

/* Runs sql with ?1 = text (or a when text is NULL), ?2 = b and ?3 = c,
 * blind to the kinds of held rows in blind (heed__sql_blind); *changed
 * (may be NULL) receives the rows it changed, or with counted the count
 * sql answers in its one row (a function that changes them). */
static heed_status change_rows_blind(heed_store *store, const char *sql,
                                     const char *text, int64_t a, int64_t b,
                                     int64_t c, bool counted, unsigned blind,
                                     int64_t *changed)
{
	struct heed__sql q;
	int64_t n = 0;
	heed_status rc;

	if (changed)
		*changed = 0;
	if (heed__sql_prepare(store, &q, sql) != HEED_OK)
		return HEED_ESTORE;
	heed__sql_blind(&q, blind);
	if (text)
		heed__sql_text(&q, 1, text);
	else
		heed__sql_int(&q, 1, a);
	heed__sql_int(&q, 2, b);
	heed__sql_int(&q, 3, c);
	if (!counted)
		return heed__sql_run(&q, changed);
	rc = heed__sql_one(&q, heed__sql_read_int, &n);
	if (rc == HEED_OK && changed)
		*changed = n;
	return rc;
}

static heed_status change_rows(heed_store *store, const char *sql,
                               const char *text, int64_t a, int64_t b,
                               int64_t c, bool counted, int64_t *changed)
{
	return change_rows_blind(store, sql, text, a, b, c, counted,
	                         BLIND_TO_RECORDS, changed);
}

/* A batch's states as one statement on PostgreSQL (src/store/sql-int.h):
 * in flight, then done, a row's last state is the one sent. Each row names
 * its host beside its id, and heed_frontier_states (migration 4) probes
 * the primary key of the one partition its host prunes to. */
static const struct heed__sql_held set_state_held = {
        HEED__HELD_FRONTIER, 4, 1,
        "SELECT heed_frontier_states($1::int8[], $2::int4[], $3::int4[], "
        "$4::text[]);"};

heed_status heed_store_frontier_set_state(heed_store *store, const char *host,
                                          int64_t id, heed_frontier_state state,
                                          int outcome)
{
	struct heed__sql q;

	if (!host)
		return HEED_EINVAL;
	if (heed__sql_prepare(store, &q,
	                      "UPDATE frontier SET state = ?2, outcome = ?3 "
	                      "WHERE host = ?4 AND id = ?1;") != HEED_OK)
		return HEED_ESTORE;
	heed__sql_hold(&q, &set_state_held);
	heed__sql_int(&q, 1, id);
	heed__sql_int(&q, 2, (int64_t)state);
	heed__sql_int(&q, 3, outcome);
	heed__sql_text(&q, 4, host);
	return heed__sql_run(&q, NULL);
}

heed_status heed_store_frontier_retry(heed_store *store, const char *host,
                                      int64_t id, int *tries)
{
	struct heed__sql q;
	int64_t n = 0;
	heed_status rc;

	if (tries)
		*tries = 0;
	if (!host)
		return HEED_EINVAL;
	/* The same id, not a new row as requeue makes: the engine keeps the
	 * job in its window, and a new id would load it a second time. */
	if (heed__sql_prepare(store, &q,
	                      "UPDATE frontier SET state = ?2, "
	                      "tries = tries + 1 WHERE host = ?3 AND id = ?1 "
	                      "RETURNING tries;") != HEED_OK)
		return HEED_ESTORE;
	heed__sql_int(&q, 1, id);
	heed__sql_int(&q, 2, HEED_FRONTIER_QUEUED);
	heed__sql_text(&q, 3, host);
	rc = heed__sql_one(&q, heed__sql_read_int, &n);
	if (rc == HEED_OK && tries)
		*tries = (int)n;
	return rc;
}

heed_status heed_store_frontier_recover(heed_store *store, int64_t *requeued)
{
	return change_rows(
	        store, "UPDATE frontier SET state = ?1 WHERE " IN_FLIGHT_IS ";",
	        NULL, HEED_FRONTIER_QUEUED, 0, 0, false, requeued);
}

/* A site's rows in state was moved to state now, *moved how many: one
 * range of the queue index of was. SQLite runs sqlite, the update that
 * names was as its index does; PostgreSQL the function of frontier
 * migration 5, whose plan it keeps. blind: the held rows it need not see
 * (BLIND_TO_RECORDS at least: it changes the frontier alone). */
static heed_status move_rows(heed_store *store, const char *sqlite,
                             const char *host, heed_frontier_state was,
                             heed_frontier_state now, unsigned blind,
                             int64_t *moved)
{
	if (moved)
		*moved = 0;
	if (!host)
		return HEED_EINVAL;
	if (heed__sql_dialect(store) == HEED__SQL_SQLITE)
		return change_rows_blind(store, sqlite, host, 0, now, 0, false,
		                         blind, moved);
	return change_rows_blind(store,
	                         "SELECT heed_frontier_move(?1, ?2, ?3);", host,
	                         0, was, now, true, blind, moved);
}

heed_status heed_store_frontier_recover_host(heed_store *store,
                                             const char *host,
                                             int64_t *requeued)
{
	return move_rows(store,
	                 "UPDATE frontier SET state = ?2 WHERE host = ?1 "
	                 "AND " IN_FLIGHT_IS ";",
	                 host, HEED_FRONTIER_IN_FLIGHT, HEED_FRONTIER_QUEUED,
	                 BLIND_TO_RECORDS, requeued);
}

/* A worker's claim grants many hosts at once: on PostgreSQL their rows go
 * back in one statement (heed_frontier_move row by row), not one a host. */
heed_status heed_store_frontier_recover_hosts(heed_store *store,
                                              const char *const *hosts,
                                              size_t n, int64_t *requeued)
{
	struct heed__sql_ordinal m = {requeued, n};
	struct heed__sql q;
	heed_status rc;
	char *lines;

	for (size_t i = 0; i < n; i++) {
		requeued[i] = 0;
		if (!hosts[i] || strchr(hosts[i], '\n'))
			return HEED_EINVAL;
	}
	if (!n)
		return HEED_OK;
	if (heed__sql_dialect(store) == HEED__SQL_SQLITE) {
		/* No round trip to save: a statement a host. */
		for (size_t i = 0; i < n; i++) {
			rc = heed_store_frontier_recover_host(store, hosts[i],
			                                      &requeued[i]);
			if (rc != HEED_OK)
				return rc;
		}
		return HEED_OK;
	}
	lines = heed__sql_lines(store, hosts, n);
	if (!lines)
		return HEED_ENOMEM;
	rc = heed__sql_prepare(store, &q,
	                       "SELECT t.n, heed_frontier_move(t.h, " IN_FLIGHT
	                       ", " QUEUED ") FROM unnest(string_to_array(?1, "
	                       "E'\\n')) WITH ORDINALITY AS t(h, n);");
	if (rc == HEED_OK) {
		heed__sql_blind(&q, BLIND_TO_RECORDS);
		heed__sql_text(&q, 1, lines);
		rc = heed__sql_each(&q, heed__sql_read_ordinal, &m);
	}
	heed__free(store->alloc, lines);
	return rc;
}

heed_status heed_store_frontier_drop_host(heed_store *store, const char *host,
                                          int64_t *dropped)
{
	return move_rows(store,
	                 "UPDATE frontier SET state = ?2 WHERE host = ?1 "
	                 "AND " QUEUED_IS ";",
	                 host, HEED_FRONTIER_QUEUED, HEED_FRONTIER_DROPPED,
	                 BLIND_TO_RECORDS, dropped);
}

/* Asked at a site's start (a worker's every site). Blind to every row held
 * back: a dropped row has no held state (its lane asks nothing, and a row
 * in flight is never dropped), and a held new URL of the site conflicts
 * with a dropped row of it in either order, so the batch's rows stay held
 * instead of going as statements of their own before it. */
heed_status heed_store_frontier_undrop_host(heed_store *store, const char *host,
                                            int64_t *requeued)
{
	return move_rows(store,
	                 "UPDATE frontier SET state = ?2 WHERE host = ?1 "
	                 "AND " DROPPED_IS ";",
	                 host, HEED_FRONTIER_DROPPED, HEED_FRONTIER_QUEUED,
	                 HEED__HELD_ALL, requeued);
}

struct host_call {
	heed_store_frontier_host_fn *fn;
	void *ud;
};

static int call_host(struct heed__sql *q, void *ctx)
{
	struct host_call *c = ctx;
	struct heed_frontier_host h = {
	        heed__sql_col_text(q, 0),
	        heed__sql_col_int(q, 1, 0),
	        heed__sql_col_int(q, 2, 0),
	        heed__sql_col_int(q, 3, 0),
	};

	return c->fn(c->ud, &h);
}

/* Sites in byte order on both engines: PostgreSQL's frontier.host has
 * the database's collation, SQLite's is BINARY and knows no "C". */
#define HOSTS_SQL(collate)                                   \
	"SELECT host, count(*) FILTER (WHERE state = ?1), "  \
	"count(*) FILTER (WHERE state = ?2 AND kind = ?3), " \
	"count(*) FILTER (WHERE state = ?4) FROM frontier "  \
	"GROUP BY host ORDER BY host" collate ";"

heed_status heed_store_frontier_hosts(heed_store *store,
                                      heed_store_frontier_host_fn *fn, void *ud)
{
	static const char *const sql[] = {
	        [HEED__SQL_SQLITE] = HOSTS_SQL(""),
	        [HEED__SQL_PG] = HOSTS_SQL(" COLLATE \"C\""),
	};
	struct host_call c = {fn, ud};
	struct heed__sql q;

	if (heed__sql_prepare_dialect(store, &q, sql) != HEED_OK)
		return HEED_ESTORE;
	heed__sql_int(&q, 1, HEED_FRONTIER_QUEUED);
	heed__sql_int(&q, 2, HEED_FRONTIER_DONE);
	heed__sql_int(&q, 3, HEED_FRONTIER_PAGE);
	heed__sql_int(&q, 4, HEED_FRONTIER_DROPPED);
	return heed__sql_each(&q, call_host, &c);
}

static int add_count(struct heed__sql *q, void *ctx)
{
	int64_t *counts = ctx;
	int64_t state = heed__sql_col_int(q, 0, -1);

	if (state >= 0 && state < 4)
		counts[state] = heed__sql_col_int(q, 1, 0);
	return 0;
}

heed_status heed_store_frontier_counts(heed_store *store, int64_t counts[4])
{
	struct heed__sql q;

	memset(counts, 0, 4 * sizeof(counts[0]));
	if (heed__sql_prepare(store, &q,
	                      "SELECT state, count(*) FROM frontier "
	                      "GROUP BY state;") != HEED_OK)
		return HEED_ESTORE;
	return heed__sql_each(&q, add_count, counts);
}

heed_status heed_store_frontier_clear(heed_store *store)
{
	struct heed__sql q;

	if (heed__sql_prepare(store, &q, "DELETE FROM frontier;") != HEED_OK)
		return HEED_ESTORE;
	return heed__sql_run(&q, NULL);
}

heed_status heed_store_run_begin(heed_store *store, const char *mode,
                                 int64_t started_at, int64_t *id)
{
	struct heed__sql q;

	*id = 0;
	if (heed__sql_prepare(store, &q,
	                      "INSERT INTO crawl_runs(mode, started_at) "
	                      "VALUES(?1, ?2) RETURNING id;") != HEED_OK)
		return HEED_ESTORE;
	heed__sql_text(&q, 1, mode);
	heed__sql_int(&q, 2, started_at);
	return heed__sql_one(&q, heed__sql_read_int, id);
}

#define RUN_SELECT                                                      \
	"SELECT id, mode, started_at, finished_at, pages, errors FROM " \
	"crawl_runs "

static int read_run(struct heed__sql *q, void *ctx)
{
	struct heed_crawl_run *run = ctx;
	const char *mode = heed__sql_col_text(q, 1);

	run->id = heed__sql_col_int(q, 0, 0);
	strncat(run->mode, mode ? mode : "", sizeof(run->mode) - 1);
	run->started_at = heed__sql_col_int(q, 2, 0);
	run->finished_at = heed__sql_col_int(q, 3, 0);
	run->pages = heed__sql_col_int(q, 4, 0);
	run->errors = heed__sql_col_int(q, 5, 0);
	return 1;
}

heed_status heed_store_run_open(heed_store *store, struct heed_crawl_run *run)
{
	struct heed__sql q;

	memset(run, 0, sizeof(*run));
	if (heed__sql_prepare(store, &q,
	                      RUN_SELECT
	                      "WHERE finished_at IS NULL "
	                      "ORDER BY id DESC LIMIT 1;") != HEED_OK)
		return HEED_ESTORE;
	return heed__sql_one(&q, read_run, run);
}

heed_status heed_store_run_last(heed_store *store, const char *mode,
                                struct heed_crawl_run *run)
{
	struct heed__sql q;

	memset(run, 0, sizeof(*run));
	if (heed__sql_prepare(store, &q,
	                      mode ? RUN_SELECT "WHERE finished_at IS NOT NULL "
	                                        "AND mode = ?1 ORDER BY id "
	                                        "DESC LIMIT 1;"
	                           : RUN_SELECT
	                              "WHERE finished_at IS NOT NULL "
	                              "ORDER BY id DESC LIMIT 1;") != HEED_OK)
		return HEED_ESTORE;
	heed__sql_text(&q, 1, mode);
	return heed__sql_one(&q, read_run, run);
}

/* The body of run_join, inside its transaction: the latest open run, or
 * a new one on a cleared frontier, with the functions a crawl uses
 * alone, so joining reads and writes exactly what they do. */
static heed_status join_run(heed_store *store, const char *mode,
                            int64_t started_at, struct heed_crawl_run *run,
                            bool *joined)
{
	heed_status rc = heed_store_run_open(store, run);
	int64_t id = 0;

	if (rc == HEED_OK) {
		*joined = true;
		return HEED_OK;
	}
	if (rc != HEED_ENOTFOUND)
		return rc;
	rc = heed_store_frontier_clear(store);
	if (rc == HEED_OK)
		rc = heed_store_run_begin(store, mode, started_at, &id);
	if (rc == HEED_OK)
		rc = heed_store_run_open(store, run);
	return rc;
}

heed_status heed_store_run_join(heed_store *store, const char *mode,
                                int64_t started_at, struct heed_crawl_run *run,
                                bool *joined)
{
	heed_status rc;

	memset(run, 0, sizeof(*run));
	*joined = false;
	if (!mode || !*mode)
		return HEED_EINVAL;
	rc = store->backend->join_begin(store);
	if (rc != HEED_OK)
		return rc;
	rc = join_run(store, mode, started_at, run, joined);
	if (rc == HEED_OK)
		rc = heed_store_commit(store);
	if (rc != HEED_OK) {
		/* Also after a failed COMMIT, which may leave the transaction
		 * open (SQLite, busy); a ROLLBACK with none open is harmless
		 * on both backends. */
		(void)heed_store_rollback(store);
		memset(run, 0, sizeof(*run));
		*joined = false;
	}
	return rc;
}

heed_status heed_store_run_add(heed_store *store, int64_t id, int64_t pages,
                               int64_t errors)
{
	return change_rows(store,
	                   "UPDATE crawl_runs SET pages = pages + ?2, "
	                   "errors = errors + ?3 WHERE id = ?1;",
	                   NULL, id, pages, errors, false, NULL);
}

heed_status heed_store_run_finish(heed_store *store, int64_t id,
                                  int64_t finished_at)
{
	return change_rows(store,
	                   "UPDATE crawl_runs SET finished_at = ?2 "
	                   "WHERE id = ?1;",
	                   NULL, id, finished_at, 0, false, NULL);
}

heed_status heed_store_crawl_lease_get(heed_store *store, int64_t *until_ms)
{
	struct heed__sql q;
	heed_status rc;

	*until_ms = 0;
	if (heed__sql_prepare(store, &q,
	                      "SELECT value FROM heed_meta "
	                      "WHERE key = 'crawl.lease_until_ms';") != HEED_OK)
		return HEED_ESTORE;
	rc = heed__sql_one(&q, heed__sql_read_int, until_ms);
	return rc == HEED_ENOTFOUND ? HEED_OK : rc;
}

heed_status heed_store_crawl_lease_set(heed_store *store, int64_t until_ms)
{
	return change_rows(
	        store,
	        "INSERT INTO heed_meta(key, value) "
	        "VALUES('crawl.lease_until_ms', ?1) "
	        "ON CONFLICT (key) DO UPDATE SET value = excluded.value;",
	        NULL, until_ms, 0, 0, false, NULL);
}
