/*
 * The visits area (include/heed/store_visits.h): every URL heed has
 * requested, with the validators, digest and revisit state the next
 * request needs. Its statements are written once for both engines
 * (src/store/sql-int.h); only the tables differ, in the two migrations.
 *
 * Workload: one row per known URL, up to millions across 100,000 sites;
 * the crawl reads one site's rows at seed time and rewrites a row per
 * answer, `heed queue` lists one site's rows by due date. A row is keyed
 * by its site (the origin "scheme://host[:port]" whose crawl wrote it)
 * and its URL, so a site's rows are one range of the key, in URL order,
 * its sitemaps on other hosts among them. Besides the key: (due_at, url)
 * is the order of the list of every site, and (site, kind, url) over the
 * rows that are not pages finds a site's few sitemaps, feeds and oEmbed
 * endpoints among its pages. SQLite's table is WITHOUT ROWID, so its
 * indexes carry the key without naming it; PostgreSQL's name it. Rows
 * are small (no body, no record), so random inserts by URL cost little,
 * unlike the pages table (docs/storage.md).
 *
 * On PostgreSQL the table is partitioned by a hash of the site since
 * version 4 (HEED__SITE_PARTITIONS of them, visits_0 to visits_15), as
 * the frontier and the leases are: each partition's indexes and vacuum
 * stay small, and every statement names the site, so it reads one
 * partition. The site leads the key on both engines so that a row is the
 * same row on both (heed store copy), and a site's rows are found by
 * the same statement.
 *
 * Each index is written for every answer the crawl records, and a crawl
 * at one request a site a second writes each on a leaf of its own (one
 * site's rows sit together): an index only reports read is paid for page
 * by page. Hence the sources' index holds no pages, and a site's list,
 * its counts and the last run's counts read the site's range of the key
 * (a list by due date sorts the site's rows: a report's cost) rather
 * than an index (site, due_at) that every answer wrote.
 *
 * Dates heed does not know are SQL NULL, except due_at: a row without a
 * due date was never visited and is due at once, so it is kept as the
 * smallest integer (HEED_REVISIT_NO_DATE itself), which sorts first and
 * stays inside the index range `due_at <= now` instead of needing an
 * "OR due_at IS NULL" that no index answers. On PostgreSQL, url and site
 * are COLLATE "C": rows come in SQLite's byte order whatever the
 * database's locale, and a cursor (due_at, url) continues exactly where
 * the previous page ended.
 */
#include <string.h>

#include "store/sql-int.h"

#define VISIT_COLUMNS                                                      \
	"url, site, found_on, kind, status, etag, last_modified, digest, " \
	"fresh_until, interval_s, checked_at, changed_at, due_at, "        \
	"last_outcome, run_id, visits, changes"

/* A store made before this area: its pages are the URLs heed knows, each
 * due one day after its last check (the initial interval of
 * heed/revisit.h). Their bodies' digests were never kept, so the first
 * refetch of each counts as changed unless a validator answers 304.
 * pages.host is the site without its scheme (the crawl's host key), the
 * scheme is the URL's. */
#define VISITS_FROM_PAGES(STRPOS)                                          \
	"INSERT INTO visits(" VISIT_COLUMNS ") "                           \
	"SELECT url, substr(url, 1, " STRPOS " + 2) || host, NULL,"        \
	"  0, status, etag, last_modified, NULL, NULL, 86400, checked_at," \
	"  fetched_at, checked_at + 86400, 0, 0, 1, 1 FROM pages;"

/* The table on each engine: NAME its name, KEY the text keys'
 * collation, URL_KEY what follows the URL's type, BIG the type of a date
 * or a count, KEYS what follows the last column (a table constraint),
 * TAIL what follows the closing parenthesis. */
#define VISITS_TABLE(NAME, KEY, URL_KEY, BIG, KEYS, TAIL) \
	"CREATE TABLE " NAME " ("                         \
	"  url TEXT" KEY URL_KEY ","                      \
	"  site TEXT" KEY " NOT NULL,"                    \
	"  found_on TEXT,"                                \
	"  kind INTEGER NOT NULL,"                        \
	"  status INTEGER NOT NULL,"                      \
	"  etag TEXT,"                                    \
	"  last_modified TEXT,"                           \
	"  digest TEXT,"                                  \
	"  fresh_until " BIG ","                          \
	"  interval_s " BIG " NOT NULL,"                  \
	"  checked_at " BIG ","                           \
	"  changed_at " BIG ","                           \
	"  due_at " BIG " NOT NULL,"                      \
	"  last_outcome INTEGER NOT NULL,"                \
	"  run_id " BIG " NOT NULL,"                      \
	"  visits " BIG " NOT NULL,"                      \
	"  changes " BIG " NOT NULL" KEYS ")" TAIL ";"

/* The kind of a page (HEED_FRONTIER_PAGE) as an SQL literal: the
 * sources' index leaves its rows out, and a query reads that index only
 * when it says so in these words. */
#define NOT_PAGE "kind <> 0"
_Static_assert(HEED_FRONTIER_PAGE == 0, "NOT_PAGE names the page kind");

/* Each index ends with the URL; SQLite's carry it without naming it. */
#define SQLITE_INDEXES                                            \
	"CREATE INDEX visits_due ON visits(site, due_at);"        \
	"CREATE INDEX visits_next ON visits(due_at);"             \
	"CREATE INDEX visits_kind ON visits(site, kind, run_id, " \
	"last_outcome);"
#define PG_INDEXES                                                \
	"CREATE INDEX visits_due ON visits(site, due_at, url);"   \
	"CREATE INDEX visits_next ON visits(due_at, url);"        \
	"CREATE INDEX visits_kind ON visits(site, kind, run_id, " \
	"last_outcome, url);"
/* 2: the sources of a site from an index that holds no page (above). */
#define SOURCES_INDEX(URL)                                     \
	"DROP INDEX visits_kind;"                              \
	"CREATE INDEX visits_sources ON visits(site, kind" URL \
	") WHERE " NOT_PAGE ";"
/* 3: a site's rows from its range of the key (above). */
#define SITE_RANGE_ONLY "DROP INDEX visits_due;"

/* 4: the rows keyed (site, url), so that a site's rows are a range of
 * the key whatever hosts their URLs are on, moved to a new table on
 * SQLite, whose key is its table's order. */
#define SQLITE_SITE_KEY                                                     \
	VISITS_TABLE("visits_new", "", "", "INTEGER",                       \
	             ", PRIMARY KEY (site, url)", " WITHOUT ROWID")         \
	"INSERT INTO visits_new SELECT " VISIT_COLUMNS " FROM visits;"      \
	"DROP TABLE visits;"                                                \
	"ALTER TABLE visits_new RENAME TO visits;"                          \
	"CREATE INDEX visits_next ON visits(due_at);"                       \
	"CREATE INDEX visits_sources ON visits(site, kind) WHERE " NOT_PAGE \
	";"

/* 4 on PostgreSQL: keyed (site, url) and partitioned by the site, one
 * partition a remainder (visits_<remainder>); the indexes are made again
 * on the partitioned table (each partition gets its own). */
#define VISITS_PARTITIONS HEED__PG_SITE_PARTITIONS("'visits_new'", "'visits'")
#define PG_PARTITION_VISITS                                                 \
	"CREATE TABLE visits_new (LIKE visits INCLUDING DEFAULTS, PRIMARY " \
	"KEY (site, url)) PARTITION BY HASH (site);" VISITS_PARTITIONS      \
	"INSERT INTO visits_new SELECT " VISIT_COLUMNS " FROM visits;"      \
	"DROP TABLE visits;"                                                \
	"ALTER TABLE visits_new RENAME TO visits;"                          \
	"ALTER TABLE visits RENAME CONSTRAINT visits_new_pkey TO "          \
	"visits_pkey;"                                                      \
	"CREATE INDEX visits_next ON visits(due_at, url);"                  \
	"CREATE INDEX visits_sources ON visits(site, kind, url) "           \
	"WHERE " NOT_PAGE ";"

static const char *const sqlite_migrations[] = {
        VISITS_TABLE("visits", "", " PRIMARY KEY", "INTEGER", "",
                     " WITHOUT ROWID")
                SQLITE_INDEXES VISITS_FROM_PAGES("instr(url, '://')"),
        SOURCES_INDEX(""),
        SITE_RANGE_ONLY,
        SQLITE_SITE_KEY,
};

/* Each version the same on both engines; a later one is added to both
 * under the same number. */
static const char *const pg_migrations[] = {
        VISITS_TABLE("visits", " COLLATE \"C\"", " PRIMARY KEY", "BIGINT", "",
                     "") PG_INDEXES VISITS_FROM_PAGES("strpos(url, '://')"),
        SOURCES_INDEX(", url"),
        SITE_RANGE_ONLY,
        PG_PARTITION_VISITS,
};

const struct heed_store_area heed__store_visits_area = {
        "visits",
        sqlite_migrations,
        (int)HEED_ARRAY_SIZE(sqlite_migrations),
};

const struct heed_store_area heed__pg_visits_area = {
        "visits",
        pg_migrations,
        (int)HEED_ARRAY_SIZE(pg_migrations),
};

/* Every column but the key from the row proposed. */
#define PUT_CONFLICT                                                           \
	" ON CONFLICT (site, url) DO UPDATE SET "                              \
	"found_on = excluded.found_on, kind = excluded.kind, "                 \
	"status = excluded.status, etag = excluded.etag, "                     \
	"last_modified = excluded.last_modified, digest = excluded.digest, "   \
	"fresh_until = excluded.fresh_until, "                                 \
	"interval_s = excluded.interval_s, checked_at = excluded.checked_at, " \
	"changed_at = excluded.changed_at, due_at = excluded.due_at, "         \
	"last_outcome = excluded.last_outcome, run_id = excluded.run_id, "     \
	"visits = excluded.visits, changes = excluded.changes;"

/* A batch's visits as one statement on PostgreSQL (src/store/sql-int.h). */
static const struct heed__sql_held put_held = {
        .kind = HEED__HELD_VISITS,
        .params = 17,
        .key = 1,
        .key_also = 2,
        .many = "INSERT INTO visits(" VISIT_COLUMNS ") SELECT * FROM unnest("
                "$1::text[], $2::text[], $3::text[], $4::int8[], $5::int8[], "
                "$6::text[], $7::text[], $8::text[], $9::int8[], $10::int8[], "
                "$11::int8[], $12::int8[], $13::int8[], $14::int8[], "
                "$15::int8[], $16::int8[], $17::int8[])" PUT_CONFLICT};

heed_status heed_store_visit_put(heed_store *store, const struct heed_visit *v)
{
	struct heed__sql q;

	if (!v->url || !v->site)
		return HEED_EINVAL;
	/* An upsert rather than SQLite's INSERT OR REPLACE: the same text
	 * on both engines, and an update in place. */
	if (heed__sql_prepare(store, &q,
	                      "INSERT INTO visits(" VISIT_COLUMNS
	                      ") VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, "
	                      "?10, ?11, ?12, ?13, ?14, ?15, ?16, "
	                      "?17)" PUT_CONFLICT) != HEED_OK)
		return HEED_ESTORE;
	heed__sql_hold(&q, &put_held);
	heed__sql_text(&q, 1, v->url);
	heed__sql_text(&q, 2, v->site);
	heed__sql_text(&q, 3, v->found_on);
	heed__sql_int(&q, 4, (int64_t)v->kind);
	heed__sql_int(&q, 5, v->status);
	heed__sql_text(&q, 6, v->etag);
	heed__sql_text(&q, 7, v->last_modified);
	heed__sql_text(&q, 8, v->digest);
	heed__sql_opt(&q, 9, v->fresh_until, HEED_REVISIT_NO_DATE);
	heed__sql_int(&q, 10, v->sched.interval_s);
	heed__sql_opt(&q, 11, v->sched.checked_at, HEED_REVISIT_NO_DATE);
	heed__sql_opt(&q, 12, v->sched.changed_at, HEED_REVISIT_NO_DATE);
	heed__sql_int(&q, 13, v->sched.due_at);
	heed__sql_int(&q, 14, (int64_t)v->last_outcome);
	heed__sql_int(&q, 15, v->run_id);
	heed__sql_int(&q, 16, v->visits);
	heed__sql_int(&q, 17, v->changes);
	return heed__sql_run(&q, NULL);
}

void heed_store_visit_clear(heed_store *store, struct heed_visit *v)
{
	heed__free(store->alloc, v->url);
	heed__free(store->alloc, v->site);
	heed__free(store->alloc, v->found_on);
	heed__free(store->alloc, v->etag);
	heed__free(store->alloc, v->last_modified);
	heed__free(store->alloc, v->digest);
	memset(v, 0, sizeof(*v));
}

/* The row's columns (VISIT_COLUMNS order) into *v, its strings borrowed
 * from q (see src/store/sql-int.h for how long they live). */
static void read_visit(struct heed__sql *q, struct heed_visit *v)
{
	v->url = (char *)heed__sql_col_text(q, 0);
	v->site = (char *)heed__sql_col_text(q, 1);
	v->found_on = (char *)heed__sql_col_text(q, 2);
	v->kind = (heed_frontier_kind)heed__sql_col_int(q, 3, 0);
	v->status = (int)heed__sql_col_int(q, 4, 0);
	v->etag = (char *)heed__sql_col_text(q, 5);
	v->last_modified = (char *)heed__sql_col_text(q, 6);
	v->digest = (char *)heed__sql_col_text(q, 7);
	v->fresh_until = heed__sql_col_int(q, 8, HEED_REVISIT_NO_DATE);
	v->sched.interval_s = heed__sql_col_int(q, 9, 0);
	v->sched.checked_at = heed__sql_col_int(q, 10, HEED_REVISIT_NO_DATE);
	v->sched.changed_at = heed__sql_col_int(q, 11, HEED_REVISIT_NO_DATE);
	v->sched.due_at = heed__sql_col_int(q, 12, HEED_REVISIT_NO_DATE);
	v->last_outcome = (heed_revisit_outcome)heed__sql_col_int(q, 13, 0);
	v->run_id = heed__sql_col_int(q, 14, 0);
	v->visits = heed__sql_col_int(q, 15, 0);
	v->changes = heed__sql_col_int(q, 16, 0);
}

/* A copy of s made with the store's allocator; NULL stays NULL. */
static char *dup_text(heed_store *store, const char *s, bool *oom)
{
	char *copy;

	if (!s)
		return NULL;
	copy = heed__strndup(store->alloc, s, strlen(s));
	if (!copy)
		*oom = true;
	return copy;
}

/* Reads the row into the caller's struct heed_visit (ctx), its strings
 * copied into the caller's memory; *out is cleared when one copy fails. */
static int copy_visit(struct heed__sql *q, void *ctx)
{
	struct heed_visit *v = ctx;
	char **fields[] = {&v->url,  &v->site,          &v->found_on,
	                   &v->etag, &v->last_modified, &v->digest};
	bool oom = false;

	read_visit(q, v);
	for (size_t i = 0; i < HEED_ARRAY_SIZE(fields); i++)
		*fields[i] = dup_text(q->store, *fields[i], &oom);
	if (oom)
		heed_store_visit_clear(q->store, v);
	return oom;
}

/* A URL's row read from TABLE. */
#define GET_FROM(table)                                                \
	"SELECT " VISIT_COLUMNS " FROM " table " WHERE site = ?1 AND " \
	"url = ?2;"

/* STATEMENT(table) for each of PostgreSQL's partitions, by name. */
#define EACH_PARTITION(STATEMENT)                                            \
	STATEMENT("visits_0"), STATEMENT("visits_1"), STATEMENT("visits_2"), \
	        STATEMENT("visits_3"), STATEMENT("visits_4"),                \
	        STATEMENT("visits_5"), STATEMENT("visits_6"),                \
	        STATEMENT("visits_7"), STATEMENT("visits_8"),                \
	        STATEMENT("visits_9"), STATEMENT("visits_10"),               \
	        STATEMENT("visits_11"), STATEMENT("visits_12"),              \
	        STATEMENT("visits_13"), STATEMENT("visits_14"),              \
	        STATEMENT("visits_15")

/* The same read of each of PostgreSQL's partitions by name: the crawl
 * reads a URL's row for each page it asks again, and PostgreSQL planned
 * the read of the partitioned table again at every run (site_parts.c). */
static const char *const get_from_partition[] = {EACH_PARTITION(GET_FROM)};
_Static_assert(HEED_ARRAY_SIZE(get_from_partition) == HEED__SITE_PARTITIONS,
               "a read for every partition");

heed_status heed_store_visit_get(heed_store *store, const char *site,
                                 const char *url, struct heed_visit *out)
{
	struct heed__sql q;
	heed_status rc;
	int part;

	memset(out, 0, sizeof(*out));
	rc = heed__sql_site_partition(store, site, &part);
	if (rc != HEED_OK)
		return rc;
	if (heed__sql_prepare(store, &q,
	                      part < 0 ? GET_FROM("visits")
	                               : get_from_partition[part]) != HEED_OK)
		return HEED_ESTORE;
	heed__sql_blind(&q, HEED__HELD_PAGES | HEED__HELD_QUEUE);
	heed__sql_scope(&q, HEED__HELD_VISITS, url, site);
	heed__sql_text(&q, 1, site);
	heed__sql_text(&q, 2, url);
	rc = heed__sql_one(&q, copy_visit, out);
	if (rc == HEED_OK && !out->url)
		rc = HEED_ENOMEM;
	return rc;
}

struct visit_call {
	heed_store_visit_fn *fn;
	void *ud;
};

static int call_visit(struct heed__sql *q, void *ctx)
{
	struct visit_call *c = ctx;
	struct heed_visit v;

	read_visit(q, &v);
	return c->fn(c->ud, &v);
}

/* The rows of the site bound to p: its range of the key (above). */
#define SITE_IS(p) "site = " p " "

#define OF_SITE_FROM(table, where)                              \
	"SELECT " VISIT_COLUMNS " FROM " table " " where "AND " \
	"kind IN (?2, ?3, ?4, ?5) ORDER BY url;"
#define SOURCES_OF_SITE     "WHERE site = ?1 AND " NOT_PAGE " "
#define SOURCES_FROM(table) OF_SITE_FROM(table, SOURCES_OF_SITE)
#define ALL_FROM(table)     OF_SITE_FROM(table, "WHERE " SITE_IS("?1"))

/* A site's rows from its partition by name on PostgreSQL, as a URL's
 * (get_from_partition): over the whole table each read was planned
 * again, at a hundred microseconds, twice a site's start. */
static const char *const sources_from_partition[] = {
        EACH_PARTITION(SOURCES_FROM)};
static const char *const all_from_partition[] = {EACH_PARTITION(ALL_FROM)};

heed_status heed_store_visits_of_site(heed_store *store, const char *site,
                                      unsigned kinds, heed_store_visit_fn *fn,
                                      void *ud)
{
	/* kind IN (...) rather than the mask test, so an index finds the
	 * kinds asked for; -1 stands for a kind the mask leaves out.
	 * Without pages, the sources' index finds a site's few sitemaps and
	 * feeds without reading its pages; with them, the site's range of
	 * the key gives its rows in URL order. SQLite, without statistics,
	 * would take the site's range of the key for the sources too, its
	 * pages read to skip them: it is told the index. */
	static const char *const sqlite[2] = {
	        OF_SITE_FROM("visits",
	                     "INDEXED BY visits_sources " SOURCES_OF_SITE),
	        ALL_FROM("visits"),
	};
	bool pages = kinds & HEED_VISIT_KIND_BIT(HEED_FRONTIER_PAGE);
	struct visit_call c = {fn, ud};
	struct heed__sql q;
	heed_status rc;
	int part;

	rc = heed__sql_site_partition(store, site, &part);
	if (rc != HEED_OK)
		return rc;
	if (heed__sql_prepare(store, &q,
	                      part < 0 ? sqlite[pages]
	                      : pages  ? all_from_partition[part]
	                               : sources_from_partition[part]) !=
	    HEED_OK)
		return HEED_ESTORE;
	heed__sql_blind(&q, HEED__HELD_PAGES | HEED__HELD_QUEUE);
	heed__sql_scope(&q, HEED__HELD_VISITS, NULL, site);
	heed__sql_text(&q, 1, site);
	for (int k = HEED_FRONTIER_PAGE; k <= HEED_FRONTIER_OEMBED; k++)
		heed__sql_int(&q, 2 + k,
		              (kinds & HEED_VISIT_KIND_BIT(k)) ? k : -1);
	return heed__sql_each(&q, call_visit, &c);
}

/* The rows of a list of a site's URLs, from the site's partition by name
 * as GET_FROM reads one. */
#define MANY_FROM(table)                                               \
	"SELECT " VISIT_COLUMNS " FROM " table " WHERE site = ?1 AND " \
	"url = ANY(string_to_array(?2, E'\\n'));"

static const char *const many_from_partition[] = {EACH_PARTITION(MANY_FROM)};

/* heed_store_visits_of_urls' list, read from the site's partition on
 * PostgreSQL and by the key on SQLite, as heed_store_visit_get reads a
 * row. */
struct urls_of_site {
	heed_store *store;
	const char *site;
	int part;
	struct visit_call c;
};

static heed_status prepare_urls(struct heed__sql *q, const char *const *urls,
                                size_t n, size_t at, const char *lines,
                                void *ctx)
{
	struct urls_of_site *u = ctx;

	(void)urls;
	(void)n;
	(void)at;
	if (heed__sql_prepare(u->store, q,
	                      u->part < 0 ? GET_FROM("visits")
	                                  : many_from_partition[u->part]) !=
	    HEED_OK)
		return HEED_ESTORE;
	heed__sql_blind(q, HEED__HELD_PAGES | HEED__HELD_QUEUE);
	heed__sql_scope(q, HEED__HELD_VISITS, NULL, u->site);
	heed__sql_text(q, 1, u->site);
	heed__sql_text(q, 2, lines);
	return HEED_OK;
}

static int call_url_visit(struct heed__sql *q, void *ctx)
{
	struct urls_of_site *u = ctx;

	return call_visit(q, &u->c);
}

heed_status heed_store_visits_of_urls(heed_store *store, const char *site,
                                      const char *const *urls, size_t n,
                                      heed_store_visit_fn *fn, void *ud)
{
	struct urls_of_site u = {store, site, -1, {fn, ud}};
	heed_status rc = heed__sql_site_partition(store, site, &u.part);

	if (rc != HEED_OK)
		return rc;
	return heed__sql_each_part(store, urls, n, prepare_urls, call_url_visit,
	                           &u);
}

/*
 * heed_store_visits_list's four statements (one site or all, from the
 * start or after a cursor): every site's list is one range of the index
 * visits_next in (due_at, url) order, a site's is its range of the key,
 * sorted; a single statement with "?1 IS NULL OR" would scan the whole
 * table. The row value comparison continues exactly after the cursor,
 * ties on due_at broken by URL, so pages neither repeat nor skip a row.
 */
#define LIST_SELECT "SELECT " VISIT_COLUMNS " FROM visits "
#define LIST_AFTER  "(due_at, url) > (?2, ?3) "
#define LIST_ORDER  "ORDER BY due_at, url LIMIT ?4;"

heed_status heed_store_visits_list(heed_store *store, const char *site,
                                   int64_t after_due, const char *after_url,
                                   int64_t max, heed_store_visit_fn *fn,
                                   void *ud)
{
	static const char *const sql[2][2] = {
	        {LIST_SELECT LIST_ORDER,
	         LIST_SELECT "WHERE " LIST_AFTER LIST_ORDER},
	        {LIST_SELECT "WHERE " SITE_IS("?1") LIST_ORDER, LIST_SELECT
	         "WHERE " SITE_IS("?1") "AND " LIST_AFTER LIST_ORDER},
	};
	struct visit_call c = {fn, ud};
	struct heed__sql q;

	if (heed__sql_prepare(store, &q,
	                      sql[site != NULL][after_url != NULL]) != HEED_OK)
		return HEED_ESTORE;
	heed__sql_text(&q, 1, site);
	heed__sql_int(&q, 2, after_due);
	heed__sql_text(&q, 3, after_url);
	heed__sql_limit(&q, 4, max);
	return heed__sql_each(&q, call_visit, &c);
}

/*
 * The summary ("due within 24 hours": due_at in (now, now + 86400]): the due
 * figures and the last run's counts of each site (the run is the site's
 * highest run id: ids grow with every crawl). One pass over the rows asked
 * for (a site's range of the key, or the table) counts them by site and
 * run; the last run of each site is then a window over those few groups.
 * No statement joins the table to itself by site: without an index that
 * leads with the site (every answer of a crawl would write it), such a join
 * reads the table once per site.
 */
#define SUMMARY_SQL(where)                                                    \
	"SELECT site, sum(n), sum(due_now), sum(due_day), min(next_due), "    \
	"max(checked), max(run_id), sum(n) FILTER (WHERE run_id = last), "    \
	"sum(unchanged) FILTER (WHERE run_id = last), sum(changed) FILTER "   \
	"(WHERE run_id = last) FROM (SELECT g.*, max(run_id) OVER "           \
	"(PARTITION BY site) AS last FROM (SELECT site, run_id, count(*) AS " \
	"n, count(*) FILTER (WHERE due_at <= ?2) AS due_now, count(*) "       \
	"FILTER (WHERE due_at > ?2 AND due_at <= ?2 + 86400) AS due_day, "    \
	"min(due_at) FILTER (WHERE due_at > ?2) AS next_due, "                \
	"max(checked_at) AS checked, count(*) FILTER (WHERE last_outcome = "  \
	"?3) AS unchanged, count(*) FILTER (WHERE last_outcome IN (?4, ?5)) " \
	"AS changed FROM visits " where " GROUP BY site, run_id) g) w "       \
	"GROUP BY site ORDER BY site;"

struct summary_call {
	heed_store_visit_summary_fn *fn;
	void *ud;
};

static int call_summary(struct heed__sql *q, void *ctx)
{
	struct summary_call *c = ctx;
	struct heed_visit_summary s = {
	        .site = heed__sql_col_text(q, 0),
	        .known = heed__sql_col_int(q, 1, 0),
	        .due_now = heed__sql_col_int(q, 2, 0),
	        .due_day = heed__sql_col_int(q, 3, 0),
	        .next_due = heed__sql_col_int(q, 4, HEED_REVISIT_NO_DATE),
	        .last_checked = heed__sql_col_int(q, 5, HEED_REVISIT_NO_DATE),
	        .last_run_id = heed__sql_col_int(q, 6, 0),
	        .last_visited = heed__sql_col_int(q, 7, 0),
	        .last_unchanged = heed__sql_col_int(q, 8, 0),
	        .last_changed = heed__sql_col_int(q, 9, 0),
	};

	return c->fn(c->ud, &s);
}

heed_status heed_store_visits_summary(heed_store *store, const char *site,
                                      int64_t now,
                                      heed_store_visit_summary_fn *fn, void *ud)
{
	struct summary_call c = {fn, ud};
	struct heed__sql q;

	if (heed__sql_prepare(store, &q,
	                      site ? SUMMARY_SQL("WHERE " SITE_IS("?1"))
	                           : SUMMARY_SQL("")) != HEED_OK)
		return HEED_ESTORE;
	heed__sql_text(&q, 1, site);
	heed__sql_int(&q, 2, now);
	heed__sql_int(&q, 3, HEED_REVISIT_UNCHANGED);
	heed__sql_int(&q, 4, HEED_REVISIT_NEW);
	heed__sql_int(&q, 5, HEED_REVISIT_CHANGED);
	return heed__sql_each(&q, call_summary, &c);
}
