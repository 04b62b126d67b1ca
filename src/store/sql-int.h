/*
 * One statement of a store area, written once for every backend.
 *
 * An area file holds its SQL and its row mapping (src/store/visits.c);
 * this small interface runs them on the store's backend: prepare, bind,
 * step, read a column, release. The backends implement it over their own
 * engines (src/store/sqlite_sql.c over a kept sqlite3_stmt,
 * src/store/pg_sql.c over libpq's text parameters and a whole result).
 *
 * The SQL is SQLite's and PostgreSQL's common dialect with SQLite's
 * numbered markers ?1, ?2...: PostgreSQL gets them as $1, $2... numbered
 * in the order they first appear, so a marker a statement leaves out
 * (one site or every site, from the start or after a cursor) is simply
 * never sent, where PostgreSQL would refuse a parameter of unknown type.
 * What the engines truly spell differently stays apart: column types and
 * collations in each engine's migrations, a statement such as a claim
 * with row locks as one text per engine picked by heed__sql_dialect, and
 * full-text search in each backend's search area.
 *
 * Every value binds as borrowed: a text must live until the statement is
 * stepped or run. A text read from a row lives until the next step on
 * SQLite, until the release on PostgreSQL, so an area copies what it
 * keeps before stepping again. A row callback may call the store again.
 */
#ifndef HEED_SQL_INT_H
#define HEED_SQL_INT_H

#include "store/store-int.h"

/* The markers a statement may use: ?1 to ?HEED__SQL_PARAMS. */
#define HEED__SQL_PARAMS 24
/* Room for an integer parameter in decimal, with its sign and NUL. */
#define HEED__SQL_INT_SIZE 24

/* The rows of one held kind (enum heed__sql_held_kind) a statement reads
 * or changes, when it is not all of them: those named key and key_also
 * as the kind names its rows (struct heed__sql_held; NULL matches any
 * value), or with keys set, those whose key is one of the nkeys keys.
 * kind 0: no such bound. */
struct heed__sql_scope {
	unsigned kind;
	const char *key, *key_also;
	const char *const *keys;
	size_t nkeys;
};

struct heed__sql {
	heed_store *store;
	const struct heed__sql_ops *ops;
	/* SQLite: the store's kept statement (heed__sqlite_prepare). */
	void *stmt;
	/* PostgreSQL: the text with $N markers (kept by the backend),
	 * the $N each ?N became (0: not in the text), the parameters as
	 * text in $N order with the integers' digits, and the answer read
	 * whole, with the row under the cursor. */
	const char *text;
	unsigned char slot[HEED__SQL_PARAMS + 1];
	int nparams;
	const char *params[HEED__SQL_PARAMS];
	char digits[HEED__SQL_PARAMS][HEED__SQL_INT_SIZE];
	/* A parameter bound as bytes goes raw (format 1, its length). */
	int lengths[HEED__SQL_PARAMS], formats[HEED__SQL_PARAMS];
	bool binary, too_long;
	void *result;
	int row, rows;
	/* A write the backend may hold back in a batch (heed__sql_hold),
	 * and the held rows this statement need not see
	 * (heed__sql_blind). */
	const struct heed__sql_held *held;
	unsigned blind;
	/* Of one held kind, the only rows it sees (heed__sql_scope). */
	struct heed__sql_scope scope;
};

/*
 * Rows held back. On PostgreSQL a batch's many single-row writes of one
 * kind (a page, a visit, a frontier state) cost the server a statement
 * each, and the statement, not the row, is most of that cost. Inside a
 * batch the backend may keep such a row instead of sending it, and send
 * the rows it kept of one kind as one statement: before the batch
 * commits, and before any statement that may see them. A statement sees
 * every kind unless it says otherwise (heed__sql_blind), so a statement
 * that was not thought about is never wrong, only slower. SQLite, whose
 * statements cost no round trip and little more than their rows, writes
 * each row at once.
 */
enum heed__sql_held_kind {
	HEED__HELD_PAGES = 1u << 0,
	HEED__HELD_VISITS = 1u << 1,
	HEED__HELD_FRONTIER = 1u << 2, /* states */
	HEED__HELD_FRONTIER_NEW = 1u << 3,
	HEED__HELD_QUEUE = HEED__HELD_FRONTIER | HEED__HELD_FRONTIER_NEW,
	HEED__HELD_ALL = (1u << 4) - 1,
};

struct heed__sql_held {
	enum heed__sql_held_kind kind;
	/* The markers ?1 to ?params the row binds, and the one whose value
	 * names it: a later row of the same name replaces the held one in
	 * its place, so the rows sent together name each row once (an
	 * upsert may not touch a row twice in one statement) and leave the
	 * store as the single writes in their order would. */
	int params, key;
	/* PostgreSQL's statement for many rows: $N is the array of the
	 * values bound to ?N, in the order the rows were held. */
	const char *many;
	/* 0, or the marker whose value the store tells for each row the
	 * statement wrote (heed__store_answer): its one statement then
	 * RETURNs that column first. Such a kind inserts rows that are new
	 * (ON CONFLICT DO NOTHING), so of two rows of one name held the
	 * first is kept, as the single inserts would. */
	int answer;
	/* Whether its rows take ids from a sequence. The statement then
	 * binds one more array, $(params + 1), each row's id or NULL (drawn
	 * there), and RETURNs each row it wrote's id and key after the
	 * answer. Sent NULLs, then the ids the rows got: a batch the server
	 * lost is done again with the ids the first answer gave, which the
	 * caller may have read back since (pg_redo.c). */
	bool ids;
	/* 0, or a second marker that names the row with key's: a key of
	 * two columns. A kind with ids or an answer is named by key alone. */
	int key_also;
};

/*
 * PostgreSQL splits the tables of a site's state into this many partitions
 * by a hash of the site (leases.c, frontier.c), each with its own indexes
 * and vacuum. 16: at 10 million sites a lease partition is some 625,000
 * rows, whose autovacuum threshold (125,000 dead tuples) claims reach 16
 * times sooner than the whole table's; a claim finding nothing due walks
 * all of them, 16 small statements; and 16 shares out among 2, 4, 8 or 16
 * servers (docs/scaling.md). One number for every such table, so that a
 * share of the remainders names the same partitions of each. Changing it
 * takes a migration that moves the rows again.
 */
#define HEED__SITE_PARTITIONS     16
#define HEED__SQL_NUMBER_(n)      #n
#define HEED__SQL_NUMBER(n)       HEED__SQL_NUMBER_(n)
#define HEED__SITE_PARTITIONS_SQL HEED__SQL_NUMBER(HEED__SITE_PARTITIONS)

/*
 * The partition, 0 to HEED__SITE_PARTITIONS - 1, that holds site's rows in
 * the tables partitioned by the site's origin (visits_N; the frontier's
 * host falls in the same N), in *part; -1 on SQLite, which has none.
 * Asked of PostgreSQL once a site and kept until the store closes
 * (src/store/site_parts.c), so that a statement run for every page names
 * its partition, not the table. HEED_ESTORE or HEED_ENOMEM when it cannot
 * be known.
 */
heed_status heed__sql_site_partition(heed_store *store, const char *site,
                                     int *part);

/* PostgreSQL's DO block making the partitions of NEW (a table PARTITION
 * BY HASH), one a remainder, named NAME_0 to NAME_15: NEW and NAME as SQL
 * string literals. */
#define HEED__PG_SITE_PARTITIONS(NEW, NAME)                              \
	"DO $$BEGIN FOR i IN 0.." HEED__SITE_PARTITIONS_SQL              \
	" - 1 LOOP EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR " \
	"VALUES WITH (MODULUS " HEED__SITE_PARTITIONS_SQL                \
	", REMAINDER %s)', " NAME " || '_' || i, " NEW                   \
	", i); END LOOP; END$$;"

/* The engines, for the few statements they spell differently: an area
 * picks its text from an array indexed by heed__sql_dialect. */
enum heed__sql_dialect {
	HEED__SQL_SQLITE,
	HEED__SQL_PG,
};

/* A backend's implementation (struct heed_store_backend's sql). */
struct heed__sql_ops {
	enum heed__sql_dialect dialect;
	/* Makes q ready to bind, sql a string literal (PostgreSQL keeps its
	 * translation by address): HEED_OK, or HEED_ESTORE recorded in
	 * heed_store_errmsg with nothing to release. */
	heed_status (*prepare)(struct heed__sql *q, const char *sql);
	/* Binds ?i: a text (NULL: SQL NULL) or an integer. */
	void (*bind_text)(struct heed__sql *q, int i, const char *s);
	void (*bind_int)(struct heed__sql *q, int i, int64_t v);
	/* Binds len bytes that may hold a NUL or invalid UTF-8 (a BLOB, a
	 * BYTEA); NULL p: SQL NULL. PostgreSQL takes at most INT_MAX bytes:
	 * more makes the step or run fail with HEED_EINVAL. */
	void (*bind_bytes)(struct heed__sql *q, int i, const char *p,
	                   size_t len);
	/* Binds len bytes of text as a peer sent it, perhaps not UTF-8:
	 * TEXT on SQLite, which keeps any bytes and compares them as its
	 * other text, BYTEA on PostgreSQL, whose text refuses invalid
	 * UTF-8; NULL p: SQL NULL. */
	void (*bind_raw)(struct heed__sql *q, int i, const char *p, size_t len);
	/* The value a LIMIT takes for "no limit" is SQL NULL, not -1. */
	bool no_limit_is_null;
	/* Moves to the next row: HEED_OK with *row false at the end, or the
	 * failure recorded (HEED_ESTORE, or PostgreSQL's HEED_ERETRY and
	 * HEED_EBUSY, src/store/pg-int.h). */
	heed_status (*next)(struct heed__sql *q, bool *row);
	/* Runs a statement whose rows do not matter; *changed (may be NULL)
	 * receives the rows it changed. Without it, PostgreSQL only sends a
	 * write inside a transaction, and the next statement that needs an
	 * answer reports its failure. */
	heed_status (*run)(struct heed__sql *q, int64_t *changed);
	/* Column col of the row: text (NULL for SQL NULL), or an integer
	 * (absent for SQL NULL). */
	const char *(*text)(struct heed__sql *q, int col);
	int64_t (*integer)(struct heed__sql *q, int col, int64_t absent);
	/* Column col of the row, a BLOB or BYTEA (a TEXT too), copied with
	 * the store's allocator with a NUL after its *len bytes (len may be
	 * NULL); NULL for SQL NULL, and NULL with *oom set when out of
	 * memory. */
	char *(*bytes)(struct heed__sql *q, int col, size_t *len, bool *oom);
	/* Ends q, prepared or not. */
	void (*release)(struct heed__sql *q);
	/* Whether a row run now may be held (in a batch, on a healthy
	 * connection), and the sending of the held rows of the kinds
	 * given; NULL where nothing is ever held (SQLite). */
	bool (*may_hold)(const heed_store *store);
	heed_status (*send_held)(heed_store *store, unsigned kinds);
};

extern const struct heed__sql_ops heed__sqlite_sql_ops;
extern const struct heed__sql_ops heed__pg_sql_ops;

static inline enum heed__sql_dialect heed__sql_dialect(const heed_store *store)
{
	return store->backend->sql->dialect;
}

/* Prepares sql on the store's backend into q (see the ops' prepare). */
static inline heed_status
heed__sql_prepare(heed_store *store, struct heed__sql *q, const char *sql)
{
	q->store = store;
	q->ops = store->backend->sql;
	q->stmt = NULL;
	q->result = NULL;
	q->held = NULL;
	q->blind = 0;
	q->scope.kind = 0;
	return q->ops->prepare(q, sql);
}

/* Lets the backend hold q's row back in a batch, when it is run without
 * asking what it changed (see struct heed__sql_held). */
static inline void heed__sql_hold(struct heed__sql *q,
                                  const struct heed__sql_held *held)
{
	q->held = held;
}

/* Says that q neither reads nor changes the rows of the held kinds
 * (enum heed__sql_held_kind), which then stay held across it. */
static inline void heed__sql_blind(struct heed__sql *q, unsigned kinds)
{
	q->blind = kinds;
}

/* Says that of the held rows of kind, q sees only those named key and
 * key_also (NULL: any value; the strings must outlive q's run): the others
 * stay held across it. A crawl reads a URL's row or a site's rows between
 * the writes of other sites' rows, which would otherwise be sent before
 * each read. */
static inline void heed__sql_scope(struct heed__sql *q, unsigned kind,
                                   const char *key, const char *key_also)
{
	q->scope = (struct heed__sql_scope){kind, key, key_also, NULL, 0};
}

/* As heed__sql_scope, for a statement over a list: of the held rows of
 * kind, q sees only those whose key is one of the n keys (which must
 * outlive q's run). */
static inline void heed__sql_scope_list(struct heed__sql *q, unsigned kind,
                                        const char *const *keys, size_t n)
{
	q->scope = (struct heed__sql_scope){kind, NULL, NULL, keys, n};
}

/* heed__sql_prepare for a statement of an area none of whose tables a
 * held row is written to, nor read through a trigger (sites,
 * arrangements): the rows held stay held across it. */
static inline heed_status
heed__sql_prepare_apart(heed_store *store, struct heed__sql *q, const char *sql)
{
	heed_status rc = heed__sql_prepare(store, q, sql);

	heed__sql_blind(q, HEED__HELD_ALL);
	return rc;
}

/* Whether a row of a held kind run now may be held instead of written. */
static inline bool heed__sql_may_hold(const heed_store *store)
{
	const struct heed__sql_ops *ops = store->backend->sql;

	return ops->may_hold && ops->may_hold(store);
}

/* Sends the rows held of the kinds given, at once. */
static inline heed_status heed__sql_send_held(heed_store *store, unsigned kinds)
{
	const struct heed__sql_ops *ops = store->backend->sql;

	return ops->send_held ? ops->send_held(store, kinds) : HEED_OK;
}

/* Prepares the store's engine's text of a statement the engines truly
 * write differently, sql indexed by enum heed__sql_dialect. */
static inline heed_status heed__sql_prepare_dialect(heed_store *store,
                                                    struct heed__sql *q,
                                                    const char *const sql[2])
{
	return heed__sql_prepare(store, q, sql[heed__sql_dialect(store)]);
}

static inline void heed__sql_text(struct heed__sql *q, int i, const char *s)
{
	q->ops->bind_text(q, i, s);
}

static inline void heed__sql_int(struct heed__sql *q, int i, int64_t v)
{
	q->ops->bind_int(q, i, v);
}

static inline void heed__sql_bytes(struct heed__sql *q, int i, const char *p,
                                   size_t len)
{
	q->ops->bind_bytes(q, i, p, len);
}

static inline void heed__sql_raw(struct heed__sql *q, int i, const char *p,
                                 size_t len)
{
	q->ops->bind_raw(q, i, p, len);
}

/* Binds v, or SQL NULL when v is absent (an unknown date). */
static inline void heed__sql_opt(struct heed__sql *q, int i, int64_t v,
                                 int64_t absent)
{
	if (v == absent)
		q->ops->bind_text(q, i, NULL);
	else
		q->ops->bind_int(q, i, v);
}

/* Binds a LIMIT of max rows; 0 or less: no limit. */
static inline void heed__sql_limit(struct heed__sql *q, int i, int64_t max)
{
	if (max > 0)
		q->ops->bind_int(q, i, max);
	else if (q->ops->no_limit_is_null)
		q->ops->bind_text(q, i, NULL);
	else
		q->ops->bind_int(q, i, -1);
}

static inline const char *heed__sql_col_text(struct heed__sql *q, int col)
{
	return q->ops->text(q, col);
}

static inline int64_t heed__sql_col_int(struct heed__sql *q, int col,
                                        int64_t absent)
{
	return q->ops->integer(q, col, absent);
}

/* Column col copied with the store's allocator (see the ops' bytes). */
static inline char *heed__sql_col_bytes(struct heed__sql *q, int col,
                                        size_t *len, bool *oom)
{
	return q->ops->bytes(q, col, len, oom);
}

/* Column col, a text, copied with the store's allocator; NULL for SQL
 * NULL, and NULL with *oom set when out of memory. */
static inline char *heed__sql_col_dup(struct heed__sql *q, int col, bool *oom)
{
	return q->ops->bytes(q, col, NULL, oom);
}

/* Runs q (see the ops' run) and releases it. */
heed_status heed__sql_run(struct heed__sql *q, int64_t *changed);

/* Steps q to its end, calling fn per row (non-zero stops early), and
 * releases it. */
heed_status heed__sql_each(struct heed__sql *q,
                           int (*fn)(struct heed__sql *q, void *ctx),
                           void *ctx);

/* Steps q to its first row and calls fn with it, then releases q:
 * HEED_ENOTFOUND (fn not called) when there is none. */
heed_status heed__sql_one(struct heed__sql *q,
                          int (*fn)(struct heed__sql *q, void *ctx), void *ctx);

/* The n strings joined by newlines, allocated with the store's allocator
 * (heed__free it); NULL when out of memory. One parameter for a list on
 * PostgreSQL (string_to_array(?, E'\n')): a statement over many rows in
 * one round trip. The strings must hold no newline. */
char *heed__sql_lines(heed_store *store, const char *const *s, size_t n);

/* Items a statement over a list of URLs asks for: a sitemap holds up to
 * 50,000, and a list of a thousand is some 100 kB. */
#define HEED__SQL_LIST_MAX 1000

/* Prepares q for one part of a list (heed__sql_each_part): the n items
 * from the list's item at on, lines the part's items as heed__sql_lines
 * joins them (the item itself for a part of one), to be bound; ctx is
 * heed__sql_each_part's. HEED_OK, or the failure (q then unprepared). */
typedef heed_status heed__sql_part_fn(struct heed__sql *q,
                                      const char *const *items, size_t n,
                                      size_t at, const char *lines, void *ctx);

/* Reads a list's rows in parts: a statement a thousand items on
 * PostgreSQL (HEED__SQL_LIST_MAX), a statement an item on SQLite, which
 * has no round trip to save. Each part's statement comes from prepare;
 * its rows go to fn as heed__sql_each's, and fn's non-zero answer stops
 * the later parts too. Stops at the first failure. */
heed_status heed__sql_each_part(heed_store *store, const char *const *items,
                                size_t n, heed__sql_part_fn *prepare,
                                int (*fn)(struct heed__sql *q, void *ctx),
                                void *ctx);

/* A row callback for heed__sql_one and heed__sql_each: column 0 of the
 * row into the caller's int64_t (ctx), 0 for SQL NULL; stops at the
 * first row. For counts, ids and single dates. */
int heed__sql_read_int(struct heed__sql *q, void *ctx);

/* The answer of a statement over a list (heed__sql_lines, WITH
 * ORDINALITY): rows of (i, value), value of the list's i-th item (from 1)
 * into out[i - 1]; rows out of range are ignored. */
struct heed__sql_ordinal {
	int64_t *out;
	size_t n;
};

/* A row callback for heed__sql_each; ctx a struct heed__sql_ordinal. */
int heed__sql_read_ordinal(struct heed__sql *q, void *ctx);

/* The 16 columns of a pages row (url ... record, in the order of
 * docs/storage.md's table, without id) from column first on, borrowed
 * from q (src/store/pages.c). The search areas read their rows with it
 * too (heed__sqlite_read_page, heed__pg_read_page). */
struct heed_stored_page;
void heed__page_read(struct heed__sql *q, int first,
                     struct heed_stored_page *p);

#endif /* HEED_SQL_INT_H */
