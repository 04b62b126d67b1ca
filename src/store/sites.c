/*
 * The sites area (include/heed/store_sites.h): one row per site (origin)
 * with the robots.txt lifecycle's durable record (robots date, failure
 * count, last success, state, reason, next attempt, the body and rules in
 * force), one row per host with its politeness state (back-off, last
 * request), and the files a site's ACAP-permissions-reference fields
 * name. States and reasons are stored by name so that the database reads
 * without heed. Its statements are written once for both engines
 * (src/store/sql-int.h); only the tables differ, in the two migrations.
 * Resetting a host is built on the area's own reads and writes.
 *
 * Workload: a row per site and per host, up to 100,000 of each, written
 * when a site's robots.txt is judged and when a host's back-off changes
 * (not per page), read at seed time and by the reports. Bodies are
 * bytes (a robots.txt may hold a NUL): a BLOB on SQLite, a BYTEA on
 * PostgreSQL. A put is an upsert that sets every column, so a replace
 * leaves nothing of the old row, as a delete and insert would. Sites and
 * references are listed in byte order: SQLite's BINARY collation,
 * COLLATE "C" on PostgreSQL whatever the database's locale.
 */
#include <stdio.h>
#include <string.h>

#include "store/sql-int.h"

/* The tables on each engine: BIG the type of a date or a count, BLOB
 * that of a body, TAIL the site columns after crawl_delay_ms. */
#define SITES_TABLES(BIG, BLOB, TAIL)                           \
	"CREATE TABLE sites ("                                  \
	"  site TEXT PRIMARY KEY,"                              \
	"  host TEXT NOT NULL,"                                 \
	"  state TEXT NOT NULL DEFAULT 'unknown',"              \
	"  reason TEXT NOT NULL DEFAULT 'none',"                \
	"  detail TEXT NOT NULL DEFAULT '',"                    \
	"  http_status INTEGER NOT NULL DEFAULT 0,"             \
	"  robots_date " BIG " NOT NULL DEFAULT 0,"             \
	"  last_success " BIG " NOT NULL DEFAULT 0,"            \
	"  next_attempt " BIG " NOT NULL DEFAULT 0,"            \
	"  failures " BIG " NOT NULL DEFAULT 0,"                \
	"  robots_url TEXT,"                                    \
	"  robots_body " BLOB ","                               \
	"  rules_body " BLOB ","                                \
	"  crawl_delay_ms " BIG " NOT NULL DEFAULT 0" TAIL ");" \
	"CREATE INDEX sites_by_host ON sites(host);"            \
	"CREATE TABLE hosts ("                                  \
	"  host TEXT PRIMARY KEY,"                              \
	"  backoff_level " BIG " NOT NULL DEFAULT 0,"           \
	"  backoff_until " BIG " NOT NULL DEFAULT 0,"           \
	"  last_request_ms " BIG " NOT NULL DEFAULT 0);"

#define ACAP_REFS_TABLE(BIG, BLOB)                  \
	"CREATE TABLE acap_refs ("                  \
	"  site TEXT NOT NULL,"                     \
	"  locator TEXT NOT NULL,"                  \
	"  url TEXT,"                               \
	"  http_status INTEGER NOT NULL DEFAULT 0," \
	"  fetched " BIG " NOT NULL DEFAULT 0,"     \
	"  body " BLOB ","                          \
	"  etag TEXT,"                              \
	"  last_modified TEXT,"                     \
	"  detail TEXT NOT NULL DEFAULT '',"        \
	"  PRIMARY KEY (site, locator));"

static const char *const sqlite_migrations[] = {
        SITES_TABLES("INTEGER", "BLOB", ""),
        /* 2: the validators and media type of the stored
         * 2xx body, for a conditional re-check whose 304 confirms it. */
        "ALTER TABLE sites ADD COLUMN robots_etag TEXT;"
        "ALTER TABLE sites ADD COLUMN robots_last_modified TEXT;"
        "ALTER TABLE sites ADD COLUMN robots_type TEXT;",
        /* 3: the files ACAP-permissions-reference fields name,
         * as fetched, so that a resumed run judges as the first did. */
        ACAP_REFS_TABLE("INTEGER", "BLOB"),
};

/* Version 2 is SQLite's second migration (the validators of the stored
 * body): the first here already has that shape, so one area version means
 * the same columns on both engines. Later migrations are added to both,
 * as 3 was. */
static const char *const pg_migrations[] = {
        SITES_TABLES("BIGINT", "BYTEA",
                     ",  robots_etag TEXT,  robots_last_modified TEXT,"
                     "  robots_type TEXT"),
        "SELECT 1;",
        ACAP_REFS_TABLE("BIGINT", "BYTEA"),
};

const struct heed_store_area heed__store_sites_area = {
        "sites",
        sqlite_migrations,
        (int)HEED_ARRAY_SIZE(sqlite_migrations),
};

const struct heed_store_area heed__pg_sites_area = {
        "sites",
        pg_migrations,
        (int)HEED_ARRAY_SIZE(pg_migrations),
};

#define SITE_COLUMNS                                                      \
	"site, host, state, reason, detail, http_status, robots_date, "   \
	"last_success, next_attempt, failures, robots_url, robots_body, " \
	"rules_body, crawl_delay_ms, robots_etag, robots_last_modified, " \
	"robots_type"

void heed_store_site_clear(heed_store *store, struct heed_store_site *s)
{
	heed__free(store->alloc, s->site);
	heed__free(store->alloc, s->host);
	heed__free(store->alloc, s->robots_url);
	heed__free(store->alloc, s->robots_body);
	heed__free(store->alloc, s->rules_body);
	heed__free(store->alloc, s->robots_etag);
	heed__free(store->alloc, s->robots_last_modified);
	heed__free(store->alloc, s->robots_type);
	memset(s, 0, sizeof(*s));
}

/* The record's state and reason from the row's names (NULL, unknown or a
 * state no row may hold: unknown, none), and its detail. */
static void settle_record(struct heed_site_record *r, const char *state,
                          const char *reason, const char *detail)
{
	if (!state || heed_site_state_parse(state, &r->state) != HEED_OK ||
	    r->state > HEED_SITE_DISQUALIFIED_RESET)
		r->state = HEED_SITE_UNKNOWN;
	if (!reason || heed_site_reason_parse(reason, &r->reason) != HEED_OK)
		r->reason = HEED_SITE_R_NONE;
	snprintf(r->detail, sizeof(r->detail), "%s", detail ? detail : "");
}

/* Reads the row (SITE_COLUMNS order) into the struct heed_store_site ctx,
 * zeroed first, its strings and bodies copied into memory the struct
 * owns; a row half copied is cleared, so a NULL site says the copy
 * failed. */
static int copy_site(struct heed__sql *q, void *ctx)
{
	struct heed_store_site *s = ctx;
	struct heed_site_record *r = &s->record;
	bool oom = false;

	memset(s, 0, sizeof(*s));
	s->site = heed__sql_col_dup(q, 0, &oom);
	s->host = heed__sql_col_dup(q, 1, &oom);
	settle_record(r, heed__sql_col_text(q, 2), heed__sql_col_text(q, 3),
	              heed__sql_col_text(q, 4));
	r->http_status = (int)heed__sql_col_int(q, 5, 0);
	r->robots_date_s = heed__sql_col_int(q, 6, 0);
	r->last_success_s = heed__sql_col_int(q, 7, 0);
	r->next_attempt_s = heed__sql_col_int(q, 8, 0);
	r->failures = (uint32_t)heed__sql_col_int(q, 9, 0);
	s->robots_url = heed__sql_col_dup(q, 10, &oom);
	s->robots_body = heed__sql_col_bytes(q, 11, &s->robots_body_len, &oom);
	s->rules_body = heed__sql_col_bytes(q, 12, &s->rules_body_len, &oom);
	s->crawl_delay_ms = heed__sql_col_int(q, 13, 0);
	s->robots_etag = heed__sql_col_dup(q, 14, &oom);
	s->robots_last_modified = heed__sql_col_dup(q, 15, &oom);
	s->robots_type = heed__sql_col_dup(q, 16, &oom);
	if (oom)
		heed_store_site_clear(q->store, s);
	return oom;
}

heed_status heed_store_site_get(heed_store *store, const char *site,
                                struct heed_store_site *out)
{
	struct heed__sql q;
	heed_status rc;

	memset(out, 0, sizeof(*out));
	if (!site)
		return HEED_ENOTFOUND;
	if (heed__sql_prepare_apart(store, &q,
	                            "SELECT " SITE_COLUMNS
	                            " FROM sites WHERE site = ?1;") != HEED_OK)
		return HEED_ESTORE;
	heed__sql_text(&q, 1, site);
	rc = heed__sql_one(&q, copy_site, out);
	if (rc == HEED_OK && !out->site)
		rc = HEED_ENOMEM;
	return rc;
}

heed_status heed_store_site_put(heed_store *store,
                                const struct heed_store_site *in)
{
	const struct heed_site_record *r = &in->record;
	struct heed__sql q;

	/* The site is the row's key and the host is how reports find it: a
	 * row without either could never be read as heed means it. */
	if (!in->site || !in->host)
		return HEED_EINVAL;
	if (heed__sql_prepare_apart(
	            store, &q,
	            "INSERT INTO sites (" SITE_COLUMNS
	            ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, "
	            "?12, ?13, ?14, ?15, ?16, ?17) "
	            "ON CONFLICT (site) DO UPDATE SET host = excluded.host, "
	            "state = excluded.state, reason = excluded.reason, "
	            "detail = excluded.detail, "
	            "http_status = excluded.http_status, "
	            "robots_date = excluded.robots_date, "
	            "last_success = excluded.last_success, "
	            "next_attempt = excluded.next_attempt, "
	            "failures = excluded.failures, "
	            "robots_url = excluded.robots_url, "
	            "robots_body = excluded.robots_body, "
	            "rules_body = excluded.rules_body, "
	            "crawl_delay_ms = excluded.crawl_delay_ms, "
	            "robots_etag = excluded.robots_etag, "
	            "robots_last_modified = excluded.robots_last_modified, "
	            "robots_type = excluded.robots_type;") != HEED_OK)
		return HEED_ESTORE;
	heed__sql_text(&q, 1, in->site);
	heed__sql_text(&q, 2, in->host);
	heed__sql_text(&q, 3, heed_site_state_name(r->state));
	heed__sql_text(&q, 4, heed_site_reason_name(r->reason));
	heed__sql_text(&q, 5, r->detail);
	heed__sql_int(&q, 6, r->http_status);
	heed__sql_int(&q, 7, r->robots_date_s);
	heed__sql_int(&q, 8, r->last_success_s);
	heed__sql_int(&q, 9, r->next_attempt_s);
	heed__sql_int(&q, 10, r->failures);
	heed__sql_text(&q, 11, in->robots_url);
	heed__sql_bytes(&q, 12, in->robots_body, in->robots_body_len);
	heed__sql_bytes(&q, 13, in->rules_body, in->rules_body_len);
	heed__sql_int(&q, 14, in->crawl_delay_ms);
	heed__sql_text(&q, 15, in->robots_etag);
	heed__sql_text(&q, 16, in->robots_last_modified);
	heed__sql_text(&q, 17, in->robots_type);
	return heed__sql_run(&q, NULL);
}

struct site_call {
	heed_store_site_fn *fn;
	void *ud;
	size_t count;
	bool oom;
};

/* Hands fn a copy of the row: the bodies' lengths come with the copy. */
static int call_site(struct heed__sql *q, void *ctx)
{
	struct site_call *c = ctx;
	struct heed_store_site s;

	if (copy_site(q, &s)) {
		c->oom = true;
		return 1;
	}
	c->fn(c->ud, &s);
	c->count++;
	heed_store_site_clear(q->store, &s);
	return 0;
}

/* heed_store_site_each's statements, [dialect][one host]: a host's sites
 * are one range of sites_by_host, where "?1 IS NULL OR" would read the
 * whole table. */
#define SITES_SELECT(WHERE, COLLATE) \
	"SELECT " SITE_COLUMNS " FROM sites " WHERE "ORDER BY site" COLLATE ";"

heed_status heed_store_site_each(heed_store *store, const char *host,
                                 heed_store_site_fn *fn, void *ud,
                                 size_t *count)
{
	static const char *const sql[][2] = {
	        [HEED__SQL_SQLITE] = {SITES_SELECT("", ""),
	                              SITES_SELECT("WHERE host = ?1 ", "")},
	        [HEED__SQL_PG] = {SITES_SELECT("", " COLLATE \"C\""),
	                          SITES_SELECT("WHERE host = ?1 ",
	                                       " COLLATE \"C\"")},
	};
	struct site_call c = {fn, ud, 0, false};
	struct heed__sql q;
	heed_status rc;

	if (count)
		*count = 0;
	if (heed__sql_prepare_apart(
	            store, &q, sql[heed__sql_dialect(store)][host != NULL]) !=
	    HEED_OK)
		return HEED_ESTORE;
	heed__sql_text(&q, 1, host);
	rc = heed__sql_each(&q, call_site, &c);
	if (rc == HEED_OK && c.oom)
		rc = HEED_ENOMEM;
	if (count)
		*count = c.count;
	return rc;
}

static int read_host(struct heed__sql *q, void *ctx)
{
	struct heed_store_host *h = ctx;

	h->backoff.level = (uint32_t)heed__sql_col_int(q, 0, 0);
	h->backoff.until_s = heed__sql_col_int(q, 1, 0);
	h->last_request_ms = heed__sql_col_int(q, 2, 0);
	return 0;
}

heed_status heed_store_host_get(heed_store *store, const char *host,
                                struct heed_store_host *out)
{
	struct heed__sql q;
	heed_status rc;

	memset(out, 0, sizeof(*out));
	if (!host)
		return HEED_OK;
	if (heed__sql_prepare_apart(
	            store, &q,
	            "SELECT backoff_level, backoff_until, "
	            "last_request_ms FROM hosts WHERE host = ?1;") != HEED_OK)
		return HEED_ESTORE;
	heed__sql_text(&q, 1, host);
	rc = heed__sql_one(&q, read_host, out);
	/* A host heed never asked has no state: the zeroed one. */
	return rc == HEED_ENOTFOUND ? HEED_OK : rc;
}

heed_status heed_store_host_put(heed_store *store, const char *host,
                                const struct heed_store_host *in)
{
	struct heed__sql q;

	if (!host)
		return HEED_EINVAL;
	if (heed__sql_prepare_apart(
	            store, &q,
	            "INSERT INTO hosts (host, backoff_level, "
	            "backoff_until, last_request_ms) "
	            "VALUES (?1, ?2, ?3, ?4) "
	            "ON CONFLICT (host) DO UPDATE SET "
	            "backoff_level = excluded.backoff_level, "
	            "backoff_until = excluded.backoff_until, "
	            "last_request_ms = excluded.last_request_ms;") != HEED_OK)
		return HEED_ESTORE;
	heed__sql_text(&q, 1, host);
	heed__sql_int(&q, 2, in->backoff.level);
	heed__sql_int(&q, 3, in->backoff.until_s);
	heed__sql_int(&q, 4, in->last_request_ms);
	return heed__sql_run(&q, NULL);
}

/* The reset of one site, applied to a copy of its row. */
static heed_status reset_site(heed_store *store, const char *site)
{
	struct heed_store_site row;
	heed_status rc = heed_store_site_get(store, site, &row);

	if (rc != HEED_OK)
		return rc;
	heed_site_record_reset(&row.record);
	rc = heed_store_site_put(store, &row);
	heed_store_site_clear(store, &row);
	return rc;
}

struct name_list {
	heed_store *store;
	char **names;
	size_t count;
	bool oom;
};

static void collect_site(void *ud, const struct heed_store_site *s)
{
	struct name_list *l = ud;
	char **grown;

	if (l->oom)
		return;
	grown = heed__realloc(l->store->alloc, l->names,
	                      (l->count + 1) * sizeof(*grown));
	if (!grown) {
		l->oom = true;
		return;
	}
	l->names = grown;
	l->names[l->count] =
	        heed__strndup(l->store->alloc, s->site, strlen(s->site));
	if (!l->names[l->count])
		l->oom = true;
	else
		l->count++;
}

/* heed_store_site_reset_host's transaction, once. */
static heed_status reset_host_once(heed_store *store, const char *host,
                                   size_t *count)
{
	struct name_list l = {store, NULL, 0, false};
	struct heed_store_host h;
	heed_status rc;
	size_t i;

	rc = heed_store_begin(store);
	if (rc != HEED_OK)
		return rc;
	rc = heed_store_site_each(store, host, collect_site, &l, NULL);
	if (rc == HEED_OK && l.oom)
		rc = HEED_ENOMEM;
	for (i = 0; rc == HEED_OK && i < l.count; i++)
		rc = reset_site(store, l.names[i]);
	if (rc == HEED_OK)
		rc = heed_store_host_get(store, host, &h);
	if (rc == HEED_OK && (h.backoff.level || h.backoff.until_s)) {
		memset(&h.backoff, 0, sizeof(h.backoff));
		rc = heed_store_host_put(store, host, &h);
	}
	for (i = 0; i < l.count; i++)
		heed__free(store->alloc, l.names[i]);
	heed__free(store->alloc, l.names);
	if (rc != HEED_OK) {
		heed_store_rollback(store);
		return rc;
	}
	*count = l.count;
	return heed_store_commit(store);
}

/* Redoes the transaction when a lost PostgreSQL connection rolled it back
 * (HEED_ERETRY, docs/scaling.md "When PostgreSQL restarts"), a few times
 * at most. */
#define RESET_TRIES 3

heed_status heed_store_site_reset_host(heed_store *store, const char *host,
                                       size_t *count)
{
	heed_status rc = HEED_ERETRY;

	for (int t = 0; t < RESET_TRIES && rc == HEED_ERETRY; t++) {
		*count = 0;
		rc = reset_host_once(store, host, count);
	}
	return rc;
}

/* ---- ACAP permissions references ---- */

#define REF_COLUMNS                                              \
	"site, locator, url, http_status, fetched, body, etag, " \
	"last_modified, detail"

void heed_store_acap_ref_clear(heed_store *store, struct heed_store_acap_ref *r)
{
	heed__free(store->alloc, r->site);
	heed__free(store->alloc, r->locator);
	heed__free(store->alloc, r->url);
	heed__free(store->alloc, r->body);
	heed__free(store->alloc, r->etag);
	heed__free(store->alloc, r->last_modified);
	memset(r, 0, sizeof(*r));
}

/* Reads the row (REF_COLUMNS order) into the struct heed_store_acap_ref
 * ctx, zeroed first, as copy_site does: a NULL site says the copy
 * failed. */
static int copy_ref(struct heed__sql *q, void *ctx)
{
	struct heed_store_acap_ref *r = ctx;
	const char *detail;
	bool oom = false;

	memset(r, 0, sizeof(*r));
	r->site = heed__sql_col_dup(q, 0, &oom);
	r->locator = heed__sql_col_dup(q, 1, &oom);
	r->url = heed__sql_col_dup(q, 2, &oom);
	r->http_status = (int)heed__sql_col_int(q, 3, 0);
	r->fetched_s = heed__sql_col_int(q, 4, 0);
	r->body = heed__sql_col_bytes(q, 5, &r->body_len, &oom);
	r->etag = heed__sql_col_dup(q, 6, &oom);
	r->last_modified = heed__sql_col_dup(q, 7, &oom);
	detail = heed__sql_col_text(q, 8);
	snprintf(r->detail, sizeof(r->detail), "%s", detail ? detail : "");
	if (oom)
		heed_store_acap_ref_clear(q->store, r);
	return oom;
}

heed_status heed_store_acap_ref_get(heed_store *store, const char *site,
                                    const char *locator,
                                    struct heed_store_acap_ref *out)
{
	struct heed__sql q;
	heed_status rc;

	memset(out, 0, sizeof(*out));
	if (!site || !locator)
		return HEED_ENOTFOUND;
	if (heed__sql_prepare_apart(store, &q,
	                            "SELECT " REF_COLUMNS " FROM acap_refs "
	                            "WHERE site = ?1 AND locator = ?2;") !=
	    HEED_OK)
		return HEED_ESTORE;
	heed__sql_text(&q, 1, site);
	heed__sql_text(&q, 2, locator);
	rc = heed__sql_one(&q, copy_ref, out);
	if (rc == HEED_OK && !out->site)
		rc = HEED_ENOMEM;
	return rc;
}

heed_status heed_store_acap_ref_put(heed_store *store,
                                    const struct heed_store_acap_ref *in)
{
	struct heed__sql q;

	/* site and locator are the row's key. */
	if (!in->site || !in->locator)
		return HEED_EINVAL;
	if (heed__sql_prepare_apart(
	            store, &q,
	            "INSERT INTO acap_refs (" REF_COLUMNS
	            ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) "
	            "ON CONFLICT (site, locator) DO UPDATE "
	            "SET url = excluded.url, http_status = "
	            "excluded.http_status, "
	            "fetched = excluded.fetched, body = excluded.body, "
	            "etag = excluded.etag, "
	            "last_modified = excluded.last_modified, "
	            "detail = excluded.detail;") != HEED_OK)
		return HEED_ESTORE;
	heed__sql_text(&q, 1, in->site);
	heed__sql_text(&q, 2, in->locator);
	heed__sql_text(&q, 3, in->url);
	heed__sql_int(&q, 4, in->http_status);
	heed__sql_int(&q, 5, in->fetched_s);
	heed__sql_bytes(&q, 6, in->body, in->body_len);
	heed__sql_text(&q, 7, in->etag);
	heed__sql_text(&q, 8, in->last_modified);
	heed__sql_text(&q, 9, in->detail);
	return heed__sql_run(&q, NULL);
}

heed_status heed_store_acap_ref_delete(heed_store *store, const char *site,
                                       const char *locator)
{
	struct heed__sql q;

	if (!site || !locator)
		return HEED_OK;
	if (heed__sql_prepare_apart(store, &q,
	                            "DELETE FROM acap_refs "
	                            "WHERE site = ?1 AND locator = ?2;") !=
	    HEED_OK)
		return HEED_ESTORE;
	heed__sql_text(&q, 1, site);
	heed__sql_text(&q, 2, locator);
	return heed__sql_run(&q, NULL);
}

struct ref_call {
	heed_store_acap_ref_fn *fn;
	void *ud;
	bool oom;
};

static int call_ref(struct heed__sql *q, void *ctx)
{
	struct ref_call *c = ctx;
	struct heed_store_acap_ref r;

	if (copy_ref(q, &r)) {
		c->oom = true;
		return 1;
	}
	c->fn(c->ud, &r);
	heed_store_acap_ref_clear(q->store, &r);
	return 0;
}

heed_status heed_store_acap_ref_each(heed_store *store, const char *site,
                                     heed_store_acap_ref_fn *fn, void *ud)
{
	static const char *const sql[] = {
	        [HEED__SQL_SQLITE] = "SELECT " REF_COLUMNS " FROM acap_refs "
	                             "WHERE site = ?1 ORDER BY locator;",
	        [HEED__SQL_PG] = "SELECT " REF_COLUMNS " FROM acap_refs "
	                         "WHERE site = ?1 "
	                         "ORDER BY locator COLLATE \"C\";",
	};
	struct ref_call c = {fn, ud, false};
	struct heed__sql q;
	heed_status rc;

	if (!site)
		return HEED_OK;
	if (heed__sql_prepare_dialect(store, &q, sql) != HEED_OK)
		return HEED_ESTORE;
	heed__sql_blind(&q, HEED__HELD_ALL);
	heed__sql_text(&q, 1, site);
	rc = heed__sql_each(&q, call_ref, &c);
	return rc == HEED_OK && c.oom ? HEED_ENOMEM : rc;
}

/* A dropped frontier row, spelt as the frontier's index of them says it
 * (frontier.c), so that the probe reads that index. */
#define FRONTIER_DROPPED "3"
_Static_assert(HEED_FRONTIER_DROPPED == 3, "FRONTIER_DROPPED is the state");

/* The rows of a site, as heed_store_sites_known tells them; ?1 the
 * origin, ?2 the host. A site's visits, its sources on other hosts among
 * them, are its range of the visits key (visits.c). */
#define KNOWN_OF(site, host)                                                   \
	"(CASE WHEN EXISTS (SELECT 1 FROM sites WHERE site = " site ") THEN "  \
	"1 ELSE 0 END) + (CASE WHEN EXISTS (SELECT 1 FROM visits WHERE site "  \
	"= " site ") THEN 2 ELSE 0 END) + (CASE WHEN EXISTS (SELECT 1 "        \
	"FROM acap_refs WHERE site = " site ") THEN 4 ELSE 0 END) + (CASE "    \
	"WHEN EXISTS (SELECT 1 FROM hosts WHERE host = " host ") THEN 8 ELSE " \
	"0 END) + (CASE WHEN EXISTS (SELECT 1 FROM arrangements WHERE host "   \
	"= " host ") THEN 16 ELSE 0 END) + (CASE WHEN EXISTS (SELECT 1 FROM "  \
	"frontier WHERE host = " site " AND state = " FRONTIER_DROPPED ") "    \
	"THEN 32 ELSE 0 END)"

_Static_assert(HEED_STORE_KNOWN_SITE == 1 && HEED_STORE_KNOWN_VISITS == 2 &&
                       HEED_STORE_KNOWN_ACAP == 4 &&
                       HEED_STORE_KNOWN_HOST == 8 &&
                       HEED_STORE_KNOWN_ARRANGED == 16 &&
                       HEED_STORE_KNOWN_DROPPED == 32,
               "KNOWN_OF's sums are the bits");

/* The bits of n sites into k: a statement a site on SQLite (no round trip
 * to save), one for them all on PostgreSQL. */
static heed_status known_rows(heed_store *store, const char *const *origins,
                              const char *const *hosts,
                              struct heed__sql_ordinal *k)
{
	struct heed__sql q;
	char *so, *sh;
	heed_status rc;

	if (heed__sql_dialect(store) == HEED__SQL_SQLITE) {
		for (size_t i = 0; i < k->n; i++) {
			if (heed__sql_prepare(
			            store, &q,
			            "SELECT ?3, " KNOWN_OF("?1", "?2") ";") !=
			    HEED_OK)
				return HEED_ESTORE;
			heed__sql_text(&q, 1, origins[i]);
			heed__sql_text(&q, 2, hosts[i]);
			heed__sql_int(&q, 3, (int64_t)i + 1);
			rc = heed__sql_each(&q, heed__sql_read_ordinal, k);
			if (rc != HEED_OK)
				return rc;
		}
		return HEED_OK;
	}
	so = heed__sql_lines(store, origins, k->n);
	sh = heed__sql_lines(store, hosts, k->n);
	rc = HEED_ENOMEM;
	if (so && sh) {
		rc = heed__sql_prepare(
		        store, &q,
		        "SELECT t.n, " KNOWN_OF(
		                "t.s",
		                "t.h") " FROM unnest(string_to_array(?1, "
		                       "E'\\n'), "
		                       "string_to_array(?2, E'\\n')) WITH "
		                       "ORDINALITY "
		                       "AS t(s, h, n);");
		if (rc == HEED_OK) {
			heed__sql_text(&q, 1, so);
			heed__sql_text(&q, 2, sh);
			rc = heed__sql_each(&q, heed__sql_read_ordinal, k);
		}
	}
	heed__free(store->alloc, so);
	heed__free(store->alloc, sh);
	return rc;
}

heed_status heed_store_sites_known(heed_store *store,
                                   const char *const *origins,
                                   const char *const *hosts, size_t n,
                                   unsigned *known)
{
	struct heed__sql_ordinal k = {NULL, n};
	heed_status rc;

	for (size_t i = 0; i < n; i++) {
		if (strchr(origins[i], '\n') || strchr(hosts[i], '\n'))
			return HEED_EINVAL;
		known[i] = 0;
	}
	if (!n)
		return HEED_OK;
	if (!(k.out = heed__calloc(store->alloc, n, sizeof(*k.out))))
		return HEED_ENOMEM;
	rc = known_rows(store, origins, hosts, &k);
	for (size_t i = 0; i < n && rc == HEED_OK; i++)
		known[i] = (unsigned)k.out[i];
	heed__free(store->alloc, k.out);
	return rc;
}
