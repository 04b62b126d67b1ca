/*
 * Unit tests for the store's "pages" and "frontier" areas: one
 * record per page, the seen set, windows of a site's queue, retries of
 * transient failures, recovery of in-flight rows after a crash (a real
 * child process killed mid-batch), migrations of older stores.
 *
 * The pages, frontier and runs tests run on both backends: meson runs this
 * program a second time with a PostgreSQL cluster (unit.store_crawl_pg),
 * and then only those tests, each on a database of its own.
 */
#include "pg_test.h"

#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include "heed/store_frontier.h"
#include "heed/store_pages.h"
#include "store/grams-int.h"

static struct heed_stored_page page(const char *url, const char *host,
                                    int status, int64_t fetched_at)
{
	struct heed_stored_page p = {
	        .url = url,
	        .final_url = url,
	        .host = host,
	        .status = status,
	        .fetched_at = fetched_at,
	        .checked_at = fetched_at,
	        .title = "A title",
	        .views = -1,
	        .etag = "\"v1\"",
	        .last_modified = "Sat, 21 Nov 2026 10:00:00 GMT",
	        .source_lastmod = HEED_STORE_NO_DATE,
	        .mode = "full",
	        .record = "{}",
	};
	return p;
}

static int count_rows(void *ud, const struct heed_stored_page *p)
{
	(*(int *)ud)++;
	assert_non_null(p->url);
	return 0;
}

/* A store written by version 1 of the pages area (keyed by URL, WITHOUT
 * ROWID) keeps its records through migration 2, in fetch order. */
static void test_pages_v1_migrates(void **state)
{
	static const char v1[] =
	        "CREATE TABLE heed_schema (area TEXT PRIMARY KEY,"
	        "  version INTEGER NOT NULL);"
	        "INSERT INTO heed_schema VALUES('pages', 1);"
	        "CREATE TABLE pages (url TEXT PRIMARY KEY, final_url TEXT,"
	        "  host TEXT NOT NULL, status INTEGER NOT NULL,"
	        "  fetched_at INTEGER NOT NULL, checked_at INTEGER NOT NULL,"
	        "  title TEXT, views INTEGER, published TEXT, modified TEXT,"
	        "  etag TEXT, last_modified TEXT, source_lastmod INTEGER,"
	        "  permissions TEXT, mode TEXT, record TEXT) WITHOUT ROWID;"
	        "CREATE INDEX pages_host ON pages(host, status);"
	        "CREATE INDEX pages_fetched ON pages(fetched_at);"
	        "INSERT INTO pages VALUES('http://a.test/a', NULL, 'a.test',"
	        "  200, 300, 300, 'A', 5, NULL, NULL, '\"a\"', NULL, NULL,"
	        "  NULL, 'full', '{}');"
	        "INSERT INTO pages VALUES('http://a.test/b', NULL, 'a.test',"
	        "  200, 100, 100, 'B', NULL, NULL, NULL, '\"b\"', NULL, NULL,"
	        "  NULL, 'full', '{}');";
	char path[128], *first = NULL;
	sqlite3 *db;
	sqlite3_stmt *st;
	heed_store *s = NULL;
	struct heed_stored_page p = page("http://a.test/a", "a.test", 200, 400);
	struct heed_page_validators v;
	int64_t n = 0;

	(void)state;
	snprintf(path, sizeof(path), "%s/v1.db", heed_test_dir());
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	/* heed's FTS5 tokenizer: the search index's tables need it. */
	assert_int_equal(heed__sqlite_search_register(db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, v1, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);

	assert_int_equal(heed_store_open(&s, path, heed_test_allocator(), NULL),
	                 HEED_OK);
	assert_int_equal(heed_store_pages_count(s, NULL, &n), HEED_OK);
	assert_int_equal(n, 2);
	assert_int_equal(heed_store_page_validators(s, "http://a.test/b", &v),
	                 HEED_OK);
	assert_string_equal(v.etag, "\"b\"");
	/* Still one row per URL. */
	assert_int_equal(heed_store_page_put(s, &p), HEED_OK);
	assert_int_equal(heed_store_pages_count(s, NULL, &n), HEED_OK);
	assert_int_equal(n, 2);
	heed_store_close(s);

	/* Rows now in the order they were fetched: b (100), then a again. */
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	/* heed's FTS5 tokenizer: the search index's tables need it. */
	assert_int_equal(heed__sqlite_search_register(db), SQLITE_OK);
	assert_int_equal(
	        sqlite3_prepare_v2(db, "SELECT url FROM pages ORDER BY id;", -1,
	                           &st, NULL),
	        SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	first = sqlite3_mprintf("%s", sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	assert_string_equal(first, "http://a.test/b");
	sqlite3_free(first);
	/* One index leads with the host, for both the pages and the search
	 * areas (pages version 3, search version 11). */
	assert_int_equal(sqlite3_prepare_v2(
	                         db,
	                         "SELECT group_concat(name, ';') FROM (SELECT "
	                         "name FROM sqlite_master WHERE type = "
	                         "'index' AND tbl_name = 'pages' AND sql "
	                         "LIKE '%(host%' ORDER BY name);",
	                         -1, &st, NULL),
	                 SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(st, 0),
	                    "pages_host_fetched");
	sqlite3_finalize(st);
	sqlite3_close(db);
}

static void test_page_put_replaces(void **state)
{
	heed_store *s = heed_test_store_fresh();
	struct heed_stored_page p = page("http://a.test/x", "a.test", 200, 100);
	struct heed_page_validators v;
	int64_t n = 0;

	(void)state;
	assert_int_equal(heed_store_page_put(s, &p), HEED_OK);
	p.views = 1234;
	p.etag = "\"v2\"";
	p.fetched_at = 200;
	assert_int_equal(heed_store_page_put(s, &p), HEED_OK);
	assert_int_equal(heed_store_pages_count(s, NULL, &n), HEED_OK);
	assert_int_equal(n, 1);
	assert_int_equal(heed_store_page_validators(s, p.url, &v), HEED_OK);
	assert_string_equal(v.etag, "\"v2\"");
	assert_int_equal(v.fetched_at, 200);
	assert_int_equal(v.source_lastmod, HEED_STORE_NO_DATE);
	assert_int_equal(heed_store_page_validators(s, "http://a.test/no", &v),
	                 HEED_ENOTFOUND);
	p.url = NULL;
	assert_int_equal(heed_store_page_put(s, &p), HEED_EINVAL);
	heed_store_close(s);
}

/* heed_store_page_dates: the dates of a sitemap's entries' pages read
 * together, over more than one statement's list on PostgreSQL, stored
 * rows and rows the batch holds alike. */
static void test_page_dates(void **state)
{
	enum { N = 2500 };
	heed_store *s = heed_test_store_fresh();
	static char urls[N][32];
	static const char *list[N];
	static int64_t fetched[N], listed[N];

	(void)state;
	assert_int_equal(heed_store_begin_batch(s), HEED_OK);
	for (int i = 0; i < N; i++) {
		snprintf(urls[i], sizeof(urls[i]), "http://a.test/%d", i);
		list[i] = urls[i];
		if (i % 10 == 0) {
			struct heed_stored_page p =
			        page(urls[i], "a.test", 200, 1000 + i);
			if (i % 20 == 0)
				p.source_lastmod = i;
			assert_int_equal(heed_store_page_put(s, &p), HEED_OK);
		}
	}
	assert_int_equal(heed_store_commit(s), HEED_OK);
	assert_int_equal(heed_store_page_dates(s, list, N, fetched, listed),
	                 HEED_OK);
	for (int i = 0; i < N; i++) {
		assert_int_equal(fetched[i],
		                 i % 10 ? HEED_STORE_NO_DATE : 1000 + i);
		assert_int_equal(listed[i],
		                 i % 20 ? HEED_STORE_NO_DATE : (int64_t)i);
	}
	assert_int_equal(heed_store_page_dates(s, list, 0, fetched, listed),
	                 HEED_OK);

	/* A page the batch holds is read with the others. */
	assert_int_equal(heed_store_begin_batch(s), HEED_OK);
	{
		struct heed_stored_page p = page(urls[7], "a.test", 200, 5);
		assert_int_equal(heed_store_page_put(s, &p), HEED_OK);
	}
	assert_int_equal(heed_store_page_dates(s, list + 5, 6, fetched, listed),
	                 HEED_OK);
	assert_int_equal(fetched[0], HEED_STORE_NO_DATE);
	assert_int_equal(fetched[2], 5);
	assert_int_equal(fetched[5], 1010);
	assert_int_equal(heed_store_commit(s), HEED_OK);
	heed_store_close(s);
}

static int got_page(void *ud, const struct heed_stored_page *p)
{
	struct heed_stored_page *out = ud;

	/* The row's strings live only during the call: compare here. */
	assert_string_equal(p->url, out->url);
	assert_string_equal(p->host, out->host);
	assert_int_equal(p->views, out->views);
	out->status = p->status;
	return 1;
}

/* heed_store_page_get: the one row of a URL, or HEED_ENOTFOUND (the
 * crawl reads a page back to merge its oEmbed answer in). */
static void test_page_get(void **state)
{
	heed_store *s = heed_test_store_fresh();
	struct heed_stored_page p = page("http://a.test/x", "a.test", 203, 100);
	struct heed_stored_page want = {
	        .url = p.url, .host = "a.test", .views = 77};

	(void)state;
	p.views = 77;
	assert_int_equal(heed_store_page_get(s, p.url, got_page, &want),
	                 HEED_ENOTFOUND);
	assert_int_equal(want.status, 0);
	assert_int_equal(heed_store_page_put(s, &p), HEED_OK);
	assert_int_equal(heed_store_page_get(s, p.url, got_page, &want),
	                 HEED_OK);
	assert_int_equal(want.status, 203);
	assert_int_equal(
	        heed_store_page_get(s, "http://a.test/x2", got_page, &want),
	        HEED_ENOTFOUND);
	heed_store_close(s);
}

static void test_page_unchanged_touches_only_dates(void **state)
{
	heed_store *s = heed_test_store_fresh();
	struct heed_stored_page p = page("http://a.test/x", "a.test", 200, 100);
	struct heed_page_validators v;

	(void)state;
	assert_int_equal(heed_store_page_put(s, &p), HEED_OK);
	assert_int_equal(heed_store_page_unchanged(s, p.url, 500, 450),
	                 HEED_OK);
	assert_int_equal(heed_store_page_validators(s, p.url, &v), HEED_OK);
	assert_int_equal(v.fetched_at, 100);
	assert_int_equal(v.source_lastmod, 450);
	assert_string_equal(v.etag, "\"v1\"");
	assert_int_equal(heed_store_page_unchanged(s, "http://a.test/y", 5,
	                                           HEED_STORE_NO_DATE),
	                 HEED_ENOTFOUND);
	heed_store_close(s);
}

static void test_page_filters_and_delete(void **state)
{
	heed_store *s = heed_test_store_fresh();
	struct heed_stored_page a = page("http://a.test/1", "a.test", 200, 10);
	struct heed_stored_page b =
	        page("http://a.test/d/2", "a.test", 404, 20);
	struct heed_stored_page c =
	        page("http://a.test/d/3", "a.test", 200, 30);
	struct heed_stored_page d = page("http://b.test/%_", "b.test", 200, 40);
	/* Matched by the prefix "http://b.test/%" if '%' were a wildcard. */
	struct heed_stored_page e = page("http://b.test/ab", "b.test", 200, 5);
	int rows = 0;
	int64_t deleted = 0, left = 0;

	(void)state;
	assert_int_equal(heed_store_page_put(s, &a), HEED_OK);
	assert_int_equal(heed_store_page_put(s, &b), HEED_OK);
	assert_int_equal(heed_store_page_put(s, &c), HEED_OK);
	assert_int_equal(heed_store_page_put(s, &d), HEED_OK);
	assert_int_equal(heed_store_page_put(s, &e), HEED_OK);
	assert_int_equal(heed_store_pages_each(s, "a.test", HEED_STORE_NO_DATE,
	                                       count_rows, &rows),
	                 HEED_OK);
	assert_int_equal(rows, 3);
	rows = 0;
	assert_int_equal(heed_store_pages_each(s, NULL, 20, count_rows, &rows),
	                 HEED_OK);
	assert_int_equal(rows, 3);
	/* ACAP take-down of a folder: a prefix, with no LIKE wildcards. */
	assert_int_equal(
	        heed_store_page_delete(s, "http://a.test/d/", true, &deleted),
	        HEED_OK);
	assert_int_equal(deleted, 2);
	assert_int_equal(
	        heed_store_page_delete(s, "http://b.test/%", true, &deleted),
	        HEED_OK);
	assert_int_equal(deleted, 1);
	assert_int_equal(heed_store_pages_count(s, "b.test", &left), HEED_OK);
	assert_int_equal(left, 1);
	assert_int_equal(
	        heed_store_page_delete(s, "http://a.test/1", false, &deleted),
	        HEED_OK);
	assert_int_equal(deleted, 1);
	heed_store_close(s);
}

struct url_list {
	char urls[4][32];
	int n;
};

static int collect_url(void *ud, const struct heed_stored_page *p)
{
	struct url_list *l = ud;

	snprintf(l->urls[l->n++], sizeof(l->urls[0]), "%s", p->url);
	return l->n == 4;
}

/* Pages come by host, then URL, in byte order on every backend (SQLite's
 * BINARY collation; PostgreSQL's "C", whatever the database's locale):
 * "B" before "a", "a.test" before "b.test". */
static void test_pages_in_byte_order(void **state)
{
	heed_store *s = heed_test_store_fresh();
	const char *urls[] = {"http://b.test/", "http://a.test/a",
	                      "http://a.test/B", "http://a.test/_"};
	struct url_list l = {0};

	(void)state;
	for (int i = 0; i < 4; i++) {
		struct heed_stored_page p =
		        page(urls[i], i == 0 ? "b.test" : "a.test", 200, 10);
		assert_int_equal(heed_store_page_put(s, &p), HEED_OK);
	}
	assert_int_equal(heed_store_pages_each(s, NULL, HEED_STORE_NO_DATE,
	                                       collect_url, &l),
	                 HEED_OK);
	assert_int_equal(l.n, 4);
	assert_string_equal(l.urls[0], "http://a.test/B");
	assert_string_equal(l.urls[1], "http://a.test/_");
	assert_string_equal(l.urls[2], "http://a.test/a");
	assert_string_equal(l.urls[3], "http://b.test/");
	heed_store_close(s);
}

struct stat_row {
	char host[32];
	int status;
	int64_t pages, with_views;
};

struct stat_rows {
	struct stat_row rows[8];
	int n;
};

static int collect_stat(void *ud, const struct heed_store_page_count *c)
{
	struct stat_rows *r = ud;
	struct stat_row *row = &r->rows[r->n++];

	snprintf(row->host, sizeof(row->host), "%s", c->host);
	row->status = c->status;
	row->pages = c->pages;
	row->with_views = c->with_views;
	return r->n == 8;
}

static void test_page_stats(void **state)
{
	heed_store *s = heed_test_store_fresh();
	struct heed_stored_page p = page("http://a.test/1", "a.test", 200, 10);
	struct stat_rows r = {0};

	(void)state;
	assert_int_equal(heed_store_page_put(s, &p), HEED_OK);
	p.url = "http://a.test/2";
	p.views = 7;
	assert_int_equal(heed_store_page_put(s, &p), HEED_OK);
	p.url = "http://a.test/3";
	p.status = 404;
	assert_int_equal(heed_store_page_put(s, &p), HEED_OK);
	p.url = "http://b.test/";
	p.host = "b.test";
	p.status = 200;
	assert_int_equal(heed_store_page_put(s, &p), HEED_OK);
	assert_int_equal(heed_store_pages_stats(s, collect_stat, &r), HEED_OK);
	assert_int_equal(r.n, 3);
	assert_string_equal(r.rows[0].host, "a.test");
	assert_int_equal(r.rows[0].status, 200);
	assert_int_equal(r.rows[0].pages, 2);
	assert_int_equal(r.rows[0].with_views, 1);
	assert_int_equal(r.rows[1].status, 404);
	assert_string_equal(r.rows[2].host, "b.test");
	heed_store_close(s);
}

static struct heed_frontier_entry entry(const char *url, const char *host,
                                        int depth)
{
	struct heed_frontier_entry e = {0,
	                                url,
	                                host,
	                                depth,
	                                HEED_FRONTIER_PAGE,
	                                NULL,
	                                HEED_STORE_NO_DATE};
	return e;
}

struct window {
	int64_t ids[8];
	char urls[8][64];
	int tries[8];
	int n;
};

static int collect_entry(void *ud, const struct heed_frontier_entry *e)
{
	struct window *w = ud;

	w->ids[w->n] = e->id;
	snprintf(w->urls[w->n], sizeof(w->urls[0]), "%s", e->url);
	w->tries[w->n] = e->tries;
	w->n++;
	return w->n == 8;
}

static void test_frontier_seen_set_and_window(void **state)
{
	heed_store *s = heed_test_store_fresh();
	struct heed_frontier_entry e = entry("http://a.test/1", "a.test", 0);
	struct window w = {0};
	bool added = false;
	char url[64];

	(void)state;
	assert_int_equal(heed_store_frontier_add(s, &e, &added), HEED_OK);
	assert_true(added);
	assert_int_equal(heed_store_frontier_add(s, &e, &added), HEED_OK);
	assert_false(added);
	for (int i = 2; i <= 6; i++) {
		snprintf(url, sizeof(url), "http://a.test/%d", i);
		e.url = url;
		assert_int_equal(heed_store_frontier_add(s, &e, &added),
		                 HEED_OK);
		assert_true(added);
	}
	e = entry("http://b.test/", "b.test", 0);
	assert_int_equal(heed_store_frontier_add(s, &e, NULL), HEED_OK);
	assert_int_equal(heed_store_frontier_queued(s, "a.test", 0, 4,
	                                            collect_entry, &w),
	                 HEED_OK);
	assert_int_equal(w.n, 4);
	assert_string_equal(w.urls[0], "http://a.test/1");
	assert_string_equal(w.urls[3], "http://a.test/4");
	/* The next window starts above the last id loaded. */
	{
		struct window next = {0};
		assert_int_equal(
		        heed_store_frontier_queued(s, "a.test", w.ids[3], 4,
		                                   collect_entry, &next),
		        HEED_OK);
		assert_int_equal(next.n, 2);
		assert_string_equal(next.urls[0], "http://a.test/5");
	}
	heed_store_close(s);
}

/* The hosts heed_store_frontier_added tells, joined by spaces. */
struct told {
	char hosts[256];
	int n;
};

static void tell(void *ud, const char *host)
{
	struct told *t = ud;
	size_t len = strlen(t->hosts);

	snprintf(t->hosts + len, sizeof(t->hosts) - len, "%s%s",
	         t->n++ ? " " : "", host);
}

static int depth_of(void *ud, const struct heed_frontier_entry *e)
{
	*(int *)ud = e->depth;
	return 1;
}

static const char *added(heed_store *s, struct told *t)
{
	memset(t, 0, sizeof(*t));
	assert_int_equal(heed_store_frontier_added(s, tell, t), HEED_OK);
	return t->hosts;
}

static void add_later(heed_store *s, const char *url, const char *host)
{
	struct heed_frontier_entry e = entry(url, host, 1);

	assert_int_equal(heed_store_frontier_add_later(s, &e), HEED_OK);
}

/* URLs queued without waiting (held by a PostgreSQL batch and sent
 * together): told once each when new, in their order, the first of two
 * of one URL kept; seen by the batch's reads; kept across a commit until
 * told; gone with a rollback. */
static void test_frontier_added_later(void **state)
{
	heed_store *s = heed_test_store_fresh();
	struct heed_frontier_entry e = entry("http://a.test/1", "a.test", 0);
	struct window w = {0};
	struct told t;
	bool fresh = true;
	int depth = -1;

	(void)state;
	assert_int_equal(heed_store_frontier_add(s, &e, NULL), HEED_OK);
	assert_int_equal(heed_store_begin_batch(s), HEED_OK);
	add_later(s, "http://a.test/1", "a.test");
	add_later(s, "http://b.test/1", "b.test");
	add_later(s, "http://c.test/1", "c.test");
	e = entry("http://b.test/1", "b.test", 7);
	assert_int_equal(heed_store_frontier_add_later(s, &e), HEED_OK);
	add_later(s, "http://a.test/2", "a.test");
	/* A window sees the rows held; a URL added at once sees them too. */
	assert_int_equal(heed_store_frontier_queued(s, "b.test", 0, 8,
	                                            collect_entry, &w),
	                 HEED_OK);
	assert_int_equal(w.n, 1);
	e = entry("http://c.test/1", "c.test", 0);
	assert_int_equal(heed_store_frontier_add(s, &e, &fresh), HEED_OK);
	assert_false(fresh);
	assert_string_equal(added(s, &t), "b.test c.test a.test");
	assert_string_equal(added(s, &t), "");
	/* Told after the batch that wrote them committed. */
	add_later(s, "http://d.test/1", "d.test");
	add_later(s, "http://a.test/2", "a.test");
	add_later(s, "http://e.test/1", "e.test");
	assert_int_equal(heed_store_commit(s), HEED_OK);
	assert_int_equal(heed_store_begin_batch(s), HEED_OK);
	add_later(s, "http://f.test/1", "f.test");
	memset(&w, 0, sizeof(w));
	assert_int_equal(heed_store_frontier_queued(s, "f.test", 0, 8,
	                                            collect_entry, &w),
	                 HEED_OK);
	assert_int_equal(w.n, 1);
	/* Rolled back: f's row and its answer are gone, d's and e's stay. */
	assert_int_equal(heed_store_rollback(s), HEED_OK);
	assert_string_equal(added(s, &t), "d.test e.test");
	memset(&w, 0, sizeof(w));
	assert_int_equal(heed_store_frontier_queued(s, "f.test", 0, 8,
	                                            collect_entry, &w),
	                 HEED_OK);
	assert_int_equal(w.n, 0);
	/* The first of two rows of one URL is the one kept. */
	assert_int_equal(
	        heed_store_frontier_queued(s, "b.test", 0, 8, depth_of, &depth),
	        HEED_OK);
	assert_int_equal(depth, 1);
	/* Outside a batch, written and told all the same. */
	add_later(s, "http://g.test/1", "g.test");
	add_later(s, "http://g.test/1", "g.test");
	assert_string_equal(added(s, &t), "g.test");
	heed_store_close(s);
}

static int collect_host(void *ud, const struct heed_frontier_host *h)
{
	struct heed_frontier_host *out = ud;

	if (strcmp(h->host, "a.test") == 0) {
		out->queued = h->queued;
		out->pages_done = h->pages_done;
		out->dropped = h->dropped;
	}
	return 0;
}

/* a.test's two URLs queued, read, both dropped; then, in a batch, the
 * second's state set back to queued, a state the batch holds on
 * PostgreSQL: an undrop that moves both rows shows it still held. */
static void hold_one_of_two_dropped(heed_store *s)
{
	struct heed_frontier_entry e = entry("http://a.test/1", "a.test", 0);
	struct window w = {0};
	int64_t n = 0;

	assert_int_equal(heed_store_frontier_add(s, &e, NULL), HEED_OK);
	e.url = "http://a.test/2";
	assert_int_equal(heed_store_frontier_add(s, &e, NULL), HEED_OK);
	assert_int_equal(heed_store_frontier_queued(s, "a.test", 0, 8,
	                                            collect_entry, &w),
	                 HEED_OK);
	assert_int_equal(w.n, 2);
	assert_int_equal(heed_store_frontier_drop_host(s, "a.test", &n),
	                 HEED_OK);
	assert_int_equal(n, 2);
	assert_int_equal(heed_store_begin_batch(s), HEED_OK);
	assert_int_equal(heed_store_frontier_set_state(s, "a.test", w.ids[1],
	                                               HEED_FRONTIER_QUEUED, 0),
	                 HEED_OK);
}

/* A site's undrop, asked at every start of a worker's sites, leaves the
 * rows the batch holds back held on PostgreSQL instead of sending each
 * kind as a statement of its own first: a state held for one of the
 * site's rows is not yet on the server when the undrop runs (the probe:
 * the undrop moves both dropped rows, where with the state sent first it
 * would move one), and goes with the batch after it. */
static void test_frontier_undrop_keeps_held_pg(void **state)
{
	heed_store *s = heed_test_store_fresh();
	struct told t;
	int64_t counts[4], n = 0;

	(void)state;
	hold_one_of_two_dropped(s);
	add_later(s, "http://b.test/1", "b.test");
	assert_int_equal(heed_store_frontier_undrop_host(s, "a.test", &n),
	                 HEED_OK);
	assert_int_equal(n, 2);
	assert_string_equal(added(s, &t), "b.test");
	assert_int_equal(heed_store_commit(s), HEED_OK);
	assert_int_equal(heed_store_frontier_counts(s, counts), HEED_OK);
	assert_int_equal(counts[HEED_FRONTIER_QUEUED], 3);
	assert_int_equal(counts[HEED_FRONTIER_DROPPED], 0);
	heed_store_close(s);
}

static int got_checked_at(void *ud, const struct heed_stored_page *p)
{
	*(int64_t *)ud = p->checked_at;
	return 1;
}

/* A page's 304 (its dates written) leaves the queue rows the batch holds
 * held on PostgreSQL: a recrawl writes one for most pages it asks, and
 * each sent them as statements of their own. The probe is the undrop's,
 * as above. */
static void test_page_unchanged_keeps_held_pg(void **state)
{
	heed_store *s = heed_test_store_fresh();
	struct heed_stored_page p =
	        page("http://a.test/1", "a.test", 200, 1000);
	int64_t n = 0, checked_at = 0;

	(void)state;
	assert_int_equal(heed_store_page_put(s, &p), HEED_OK);
	hold_one_of_two_dropped(s);
	assert_int_equal(heed_store_page_unchanged(s, "http://a.test/1", 2000,
	                                           HEED_STORE_NO_DATE),
	                 HEED_OK);
	assert_int_equal(heed_store_frontier_undrop_host(s, "a.test", &n),
	                 HEED_OK);
	assert_int_equal(n, 2);
	assert_int_equal(heed_store_commit(s), HEED_OK);
	assert_int_equal(heed_store_page_get(s, "http://a.test/1",
	                                     got_checked_at, &checked_at),
	                 HEED_OK);
	assert_int_equal(checked_at, 2000);
	heed_store_close(s);
}

static void test_frontier_states_and_drop(void **state)
{
	heed_store *s = heed_test_store_fresh();
	struct heed_frontier_entry e = entry("http://a.test/1", "a.test", 0);
	struct window w = {0};
	struct heed_frontier_host h = {0};
	int64_t counts[4], n = 0;

	(void)state;
	assert_int_equal(heed_store_frontier_add(s, &e, NULL), HEED_OK);
	e.url = "http://a.test/2";
	assert_int_equal(heed_store_frontier_add(s, &e, NULL), HEED_OK);
	e.url = "http://a.test/3";
	assert_int_equal(heed_store_frontier_add(s, &e, NULL), HEED_OK);
	assert_int_equal(heed_store_frontier_queued(s, "a.test", 0, 8,
	                                            collect_entry, &w),
	                 HEED_OK);
	assert_int_equal(heed_store_frontier_set_state(s, "a.test", w.ids[0],
	                                               HEED_FRONTIER_DONE, 200),
	                 HEED_OK);
	assert_int_equal(heed_store_frontier_set_state(s, "a.test", w.ids[1],
	                                               HEED_FRONTIER_IN_FLIGHT,
	                                               0),
	                 HEED_OK);
	assert_int_equal(heed_store_frontier_counts(s, counts), HEED_OK);
	assert_int_equal(counts[HEED_FRONTIER_QUEUED], 1);
	assert_int_equal(counts[HEED_FRONTIER_IN_FLIGHT], 1);
	assert_int_equal(counts[HEED_FRONTIER_DONE], 1);
	assert_int_equal(heed_store_frontier_drop_host(s, "a.test", &n),
	                 HEED_OK);
	assert_int_equal(n, 1);
	assert_int_equal(heed_store_frontier_recover(s, &n), HEED_OK);
	assert_int_equal(n, 1);
	assert_int_equal(heed_store_frontier_counts(s, counts), HEED_OK);
	assert_int_equal(counts[HEED_FRONTIER_QUEUED], 1);
	assert_int_equal(counts[HEED_FRONTIER_DROPPED], 1);
	/* What a resumed run reads of each site. */
	assert_int_equal(heed_store_frontier_hosts(s, collect_host, &h),
	                 HEED_OK);
	assert_int_equal(h.queued, 1);
	assert_int_equal(h.pages_done, 1);
	assert_int_equal(h.dropped, 1);
	/* A re-crawl request brings a done URL back with a larger id. */
	e.url = "http://a.test/1";
	assert_int_equal(heed_store_frontier_requeue(s, &e), HEED_OK);
	w.n = 0;
	assert_int_equal(heed_store_frontier_queued(s, "a.test", w.ids[2], 8,
	                                            collect_entry, &w),
	                 HEED_OK);
	assert_int_equal(w.n, 1);
	assert_string_equal(w.urls[0], "http://a.test/1");
	assert_int_equal(heed_store_frontier_clear(s), HEED_OK);
	assert_int_equal(heed_store_frontier_counts(s, counts), HEED_OK);
	assert_int_equal(counts[HEED_FRONTIER_QUEUED], 0);
	assert_string_equal(heed_frontier_state_name(HEED_FRONTIER_DROPPED),
	                    "dropped");
	assert_string_equal(heed_frontier_kind_name(HEED_FRONTIER_OEMBED),
	                    "oembed");
	assert_string_equal(heed_frontier_kind_name(HEED_FRONTIER_FEED),
	                    "feed");
	heed_store_close(s);
}

/* A transient failure goes back in the queue under the same id (the engine
 * keeps the job in its window) and counts one more try. */
static void test_frontier_retry(void **state)
{
	heed_store *s = heed_test_store_fresh();
	struct heed_frontier_entry e =
	        entry("https://a.test/1", "https://a.test", 0);
	struct window w = {0};
	int64_t counts[4];
	int tries = -1;

	(void)state;
	e.tries = 7; /* ignored: a new row starts with no tries */
	assert_int_equal(heed_store_frontier_add(s, &e, NULL), HEED_OK);
	e.url = "https://a.test/2";
	assert_int_equal(heed_store_frontier_add(s, &e, NULL), HEED_OK);
	assert_int_equal(heed_store_frontier_queued(s, "https://a.test", 0, 8,
	                                            collect_entry, &w),
	                 HEED_OK);
	assert_int_equal(w.n, 2);
	assert_int_equal(w.tries[0], 0);
	assert_int_equal(
	        heed_store_frontier_set_state(s, "https://a.test", w.ids[0],
	                                      HEED_FRONTIER_IN_FLIGHT, 0),
	        HEED_OK);

	assert_int_equal(heed_store_frontier_retry(s, "https://a.test",
	                                           w.ids[0], &tries),
	                 HEED_OK);
	assert_int_equal(tries, 1);
	assert_int_equal(heed_store_frontier_counts(s, counts), HEED_OK);
	assert_int_equal(counts[HEED_FRONTIER_QUEUED], 2);
	assert_int_equal(counts[HEED_FRONTIER_IN_FLIGHT], 0);
	assert_int_equal(
	        heed_store_frontier_retry(s, "https://a.test", w.ids[0], NULL),
	        HEED_OK);
	assert_int_equal(heed_store_frontier_retry(s, "https://a.test",
	                                           w.ids[0], &tries),
	                 HEED_OK);
	assert_int_equal(tries, 3);

	/* Same id: a window above it does not see the row again, a window
	 * from the start (a restarted crawl) finds it with its tries. */
	{
		struct window above = {0}, all = {0};
		assert_int_equal(heed_store_frontier_queued(
		                         s, "https://a.test", w.ids[1], 8,
		                         collect_entry, &above),
		                 HEED_OK);
		assert_int_equal(above.n, 0);
		assert_int_equal(heed_store_frontier_queued(s, "https://a.test",
		                                            0, 8, collect_entry,
		                                            &all),
		                 HEED_OK);
		assert_int_equal(all.n, 2);
		assert_int_equal(all.ids[0], w.ids[0]);
		assert_string_equal(all.urls[0], "https://a.test/1");
		assert_int_equal(all.tries[0], 3);
		assert_int_equal(all.tries[1], 0);
	}

	tries = -1;
	assert_int_equal(
	        heed_store_frontier_retry(s, "https://a.test", 9999, &tries),
	        HEED_ENOTFOUND);
	assert_int_equal(tries, 0);
	assert_int_equal(
	        heed_store_frontier_retry(s, "https://a.test", 9999, NULL),
	        HEED_ENOTFOUND);

	/* A re-crawl request makes a new row: its tries start again. */
	e.url = "https://a.test/1";
	assert_int_equal(heed_store_frontier_requeue(s, &e), HEED_OK);
	w.n = 0;
	assert_int_equal(heed_store_frontier_queued(s, "https://a.test",
	                                            w.ids[1], 8, collect_entry,
	                                            &w),
	                 HEED_OK);
	assert_int_equal(w.n, 1);
	assert_int_equal(w.tries[0], 0);
	heed_store_close(s);
}

struct site_list {
	char sites[8][48];
	int64_t queued[8];
	int n;
};

static int collect_site(void *ud, const struct heed_frontier_host *h)
{
	struct site_list *l = ud;

	snprintf(l->sites[l->n], sizeof(l->sites[0]), "%s", h->host);
	l->queued[l->n] = h->queued;
	l->n++;
	return l->n == 8;
}

/* A store written by version 1 of the frontier area (rows keyed by the
 * host key "host[:port]") is migrated to rows keyed by site (origin), so a
 * run left open before the upgrade resumes after it. The origin is the URL
 * up to the first '/' after "://", whatever the scheme, port or host. */
static void test_frontier_v1_migrates_to_sites(void **state)
{
	static const char v1[] =
	        "CREATE TABLE heed_schema (area TEXT PRIMARY KEY,"
	        "  version INTEGER NOT NULL);"
	        "INSERT INTO heed_schema VALUES('frontier', 1);"
	        "CREATE TABLE frontier (id INTEGER PRIMARY KEY,"
	        "  url TEXT NOT NULL UNIQUE, host TEXT NOT NULL,"
	        "  depth INTEGER NOT NULL, kind INTEGER NOT NULL,"
	        "  state INTEGER NOT NULL DEFAULT 0, discovered_from TEXT,"
	        "  lastmod INTEGER, outcome INTEGER NOT NULL DEFAULT 0);"
	        "CREATE INDEX frontier_queue ON frontier(host, state, id);"
	        "CREATE TABLE crawl_runs (id INTEGER PRIMARY KEY,"
	        "  mode TEXT NOT NULL, started_at INTEGER NOT NULL,"
	        "  finished_at INTEGER, pages INTEGER NOT NULL DEFAULT 0,"
	        "  errors INTEGER NOT NULL DEFAULT 0);"
	        "INSERT INTO crawl_runs(mode, started_at) VALUES('full', 100);"
	        "INSERT INTO frontier(url, host, depth, kind, state) VALUES"
	        "  ('http://a.example:8080/x/y/z', 'a.example:8080', 1, 0, 0),"
	        "  ('http://a.example:8080/', 'a.example:8080', 0, 0, 2),"
	        "  ('https://b.example/', 'b.example', 0, 0, 0),"
	        "  ('https://b.example/a//b/c?q=/d', 'b.example', 1, 0, 0),"
	        "  ('http://[::1]:8080/p/q', '[::1]:8080', 0, 0, 0),"
	        "  ('https://[2001:db8::1]/', '[2001:db8::1]', 0, 1, 0),"
	        "  ('http://c/', 'c', 0, 0, 0),"
	        "  ('https://d/e', 'd', 0, 0, 0),"
	        "  ('https://e.example', 'e.example', 0, 0, 0);";
	static const char *const want[] = {
	        "http://[::1]:8080",     "http://a.example:8080", "http://c",
	        "https://[2001:db8::1]", "https://b.example",     "https://d",
	        "https://e.example",
	};
	char path[128];
	sqlite3 *db;
	heed_store *s = NULL;
	struct site_list l = {0};
	struct window w = {0};
	struct heed_crawl_run run;
	int v = 0;

	(void)state;
	snprintf(path, sizeof(path), "%s/frontier-v1.db", heed_test_dir());
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	/* heed's FTS5 tokenizer: the search index's tables need it. */
	assert_int_equal(heed__sqlite_search_register(db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, v1, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);

	assert_int_equal(heed_store_open(&s, path, heed_test_allocator(), NULL),
	                 HEED_OK);
	assert_int_equal(heed_store_schema_version(s, "frontier", &v), HEED_OK);
	assert_int_equal(v, 6);
	assert_int_equal(heed_store_frontier_hosts(s, collect_site, &l),
	                 HEED_OK);
	assert_int_equal(l.n, (int)HEED_ARRAY_SIZE(want));
	for (int i = 0; i < l.n; i++)
		if (strcmp(l.sites[i], want[i]) != 0)
			fail_msg("site %d: got '%s', want '%s'", i, l.sites[i],
			         want[i]);
	assert_int_equal(l.queued[1], 1); /* a.example:8080: one done */
	assert_int_equal(l.queued[4], 2);
	/* The open run resumes: its queue is found by site, with no tries. */
	assert_int_equal(heed_store_run_open(s, &run), HEED_OK);
	assert_int_equal(heed_store_frontier_queued(s, "http://a.example:8080",
	                                            0, 8, collect_entry, &w),
	                 HEED_OK);
	assert_int_equal(w.n, 1);
	assert_string_equal(w.urls[0], "http://a.example:8080/x/y/z");
	assert_int_equal(w.tries[0], 0);
	assert_int_equal(heed_store_frontier_retry(s, "http://a.example:8080",
	                                           w.ids[0], &v),
	                 HEED_OK);
	assert_int_equal(v, 1);
	heed_store_close(s);
}

static void test_runs(void **state)
{
	heed_store *s = heed_test_store_fresh();
	struct heed_crawl_run run;
	int64_t id = 0, id2 = 0;

	(void)state;
	assert_int_equal(heed_store_run_open(s, &run), HEED_ENOTFOUND);
	assert_int_equal(heed_store_run_begin(s, "full", 100, &id), HEED_OK);
	assert_int_equal(heed_store_run_add(s, id, 5, 1), HEED_OK);
	assert_int_equal(heed_store_run_open(s, &run), HEED_OK);
	assert_int_equal(run.id, id);
	assert_string_equal(run.mode, "full");
	assert_int_equal(run.pages, 5);
	assert_int_equal(heed_store_run_finish(s, id, 150), HEED_OK);
	assert_int_equal(heed_store_run_open(s, &run), HEED_ENOTFOUND);
	assert_int_equal(heed_store_run_begin(s, "incremental", 200, &id2),
	                 HEED_OK);
	assert_int_equal(heed_store_run_finish(s, id2, 210), HEED_OK);
	assert_int_equal(heed_store_run_last(s, "full", &run), HEED_OK);
	assert_int_equal(run.finished_at, 150);
	assert_int_equal(heed_store_run_last(s, NULL, &run), HEED_OK);
	assert_int_equal(run.id, id2);
	heed_store_close(s);
}

/* The rows of a list's windows, in the order told. */
struct windows {
	size_t site[8];
	char urls[8][64];
	int n;
};

/* Row k of a list's windows is url, of the list's site-th site. */
static void assert_window_row(const struct windows *w, int k, size_t site,
                              const char *url)
{
	assert_true(k < w->n);
	assert_int_equal(w->site[k], site);
	assert_string_equal(w->urls[k], url);
}

static int collect_window(void *ud, size_t i,
                          const struct heed_frontier_entry *e)
{
	struct windows *w = ud;

	assert_true(w->n < 8);
	w->site[w->n] = i;
	snprintf(w->urls[w->n], sizeof(w->urls[0]), "%s", e->url);
	w->n++;
	return 0;
}

/* Each site's window of a list, in one call: oldest first within a site,
 * the sites in the list's order, a site with none skipped, only queued
 * rows; from the first row, or after the row each site names. */
static void test_frontier_windows(void **state)
{
	heed_store *s = heed_test_store_fresh();
	static const char *const urls[] = {
	        "http://a.test/1", "http://c.test/1", "http://a.test/2",
	        "http://a.test/3", "http://c.test/2", "http://c.test/3"};
	const char *hosts[] = {"c.test", "b.test", "a.test"};
	const char *bad[] = {"a.test\nc.test"};
	struct windows w = {0}, later = {0};
	struct window one = {0}, a = {0};
	int64_t after[3];

	(void)state;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(urls); i++) {
		struct heed_frontier_entry e = entry(
		        urls[i], urls[i][7] == 'a' ? "a.test" : "c.test", 0);
		assert_int_equal(heed_store_frontier_add(s, &e, NULL), HEED_OK);
	}
	/* c/1 in flight: not in its window. */
	assert_int_equal(heed_store_frontier_queued(s, "c.test", 0, 1,
	                                            collect_entry, &one),
	                 HEED_OK);
	assert_int_equal(heed_store_frontier_set_state(s, "c.test", one.ids[0],
	                                               HEED_FRONTIER_IN_FLIGHT,
	                                               0),
	                 HEED_OK);
	assert_int_equal(heed_store_frontier_windows(s, hosts, NULL, 3, 2,
	                                             collect_window, &w),
	                 HEED_OK);
	assert_int_equal(w.n, 4);
	assert_window_row(&w, 0, 0, "http://c.test/2");
	assert_window_row(&w, 1, 0, "http://c.test/3");
	assert_window_row(&w, 2, 2, "http://a.test/1");
	assert_window_row(&w, 3, 2, "http://a.test/2");
	/* The next windows: c after c/2, b from the first, a after a/1. */
	assert_int_equal(heed_store_frontier_queued(s, "a.test", 0, 3,
	                                            collect_entry, &a),
	                 HEED_OK);
	/* c/1 is in flight: c's first queued row is c/2 (one.ids[1]). */
	assert_int_equal(heed_store_frontier_queued(s, "c.test", 0, 1,
	                                            collect_entry, &one),
	                 HEED_OK);
	after[0] = one.ids[1];
	after[1] = 0;
	after[2] = a.ids[0];
	assert_int_equal(heed_store_frontier_windows(s, hosts, after, 3, 2,
	                                             collect_window, &later),
	                 HEED_OK);
	assert_int_equal(later.n, 3);
	assert_window_row(&later, 0, 0, "http://c.test/3");
	assert_window_row(&later, 1, 2, "http://a.test/2");
	assert_window_row(&later, 2, 2, "http://a.test/3");
	assert_int_equal(heed_store_frontier_windows(s, bad, NULL, 1, 2,
	                                             collect_window, &w),
	                 HEED_EINVAL);
	heed_store_close(s);
}

/* A worker taking one site over puts only that site's in-flight rows back
 * in the queue; another site's stay in flight with their worker. */
static void test_frontier_recover_host(void **state)
{
	heed_store *s = heed_test_store_fresh();
	struct heed_frontier_entry e = entry("http://a.test/1", "a.test", 0);
	struct window w = {0};
	int64_t counts[4], n = -1;

	(void)state;
	assert_int_equal(heed_store_frontier_add(s, &e, NULL), HEED_OK);
	e.url = "http://a.test/2";
	assert_int_equal(heed_store_frontier_add(s, &e, NULL), HEED_OK);
	e.url = "http://a.test/3";
	assert_int_equal(heed_store_frontier_add(s, &e, NULL), HEED_OK);
	e = entry("http://b.test/1", "b.test", 0);
	assert_int_equal(heed_store_frontier_add(s, &e, NULL), HEED_OK);
	assert_int_equal(heed_store_frontier_queued(s, "a.test", 0, 8,
	                                            collect_entry, &w),
	                 HEED_OK);
	assert_int_equal(heed_store_frontier_queued(s, "b.test", 0, 8,
	                                            collect_entry, &w),
	                 HEED_OK);
	assert_int_equal(w.n, 4);
	/* a/1 and a/2 in flight, a/3 done, b/1 in flight. */
	for (int i = 0; i < 4; i++)
		assert_int_equal(heed_store_frontier_set_state(
		                         s, i == 3 ? "b.test" : "a.test",
		                         w.ids[i],
		                         i == 2 ? HEED_FRONTIER_DONE
		                                : HEED_FRONTIER_IN_FLIGHT,
		                         0),
		                 HEED_OK);
	assert_int_equal(heed_store_frontier_recover_host(s, "a.test", &n),
	                 HEED_OK);
	assert_int_equal(n, 2);
	assert_int_equal(heed_store_frontier_counts(s, counts), HEED_OK);
	assert_int_equal(counts[HEED_FRONTIER_QUEUED], 2);
	assert_int_equal(counts[HEED_FRONTIER_IN_FLIGHT], 1);
	assert_int_equal(counts[HEED_FRONTIER_DONE], 1);
	/* The queued ones are a's: b's row is still in flight. */
	{
		struct window a = {0}, b = {0};
		assert_int_equal(heed_store_frontier_queued(s, "a.test", 0, 8,
		                                            collect_entry, &a),
		                 HEED_OK);
		assert_int_equal(a.n, 2);
		assert_int_equal(heed_store_frontier_queued(s, "b.test", 0, 8,
		                                            collect_entry, &b),
		                 HEED_OK);
		assert_int_equal(b.n, 0);
	}
	/* Nothing of a left in flight; a site with no rows. */
	assert_int_equal(heed_store_frontier_recover_host(s, "a.test", &n),
	                 HEED_OK);
	assert_int_equal(n, 0);
	assert_int_equal(heed_store_frontier_recover_host(s, "c.test", NULL),
	                 HEED_OK);
	assert_int_equal(heed_store_frontier_recover_host(s, NULL, &n),
	                 HEED_EINVAL);
	/* Many sites at once, each told its own count: a/1 and a/2 in
	 * flight again, b/1 still. */
	{
		const char *hosts[] = {"b.test", "c.test", "a.test"};
		const char *joined[] = {"a.test\nb.test"};
		int64_t moved[3] = {-1, -1, -1};
		for (int i = 0; i < 2; i++)
			assert_int_equal(heed_store_frontier_set_state(
			                         s, "a.test", w.ids[i],
			                         HEED_FRONTIER_IN_FLIGHT, 0),
			                 HEED_OK);
		assert_int_equal(
		        heed_store_frontier_recover_hosts(s, hosts, 3, moved),
		        HEED_OK);
		assert_int_equal(moved[0], 1);
		assert_int_equal(moved[1], 0);
		assert_int_equal(moved[2], 2);
		assert_int_equal(heed_store_frontier_counts(s, counts),
		                 HEED_OK);
		assert_int_equal(counts[HEED_FRONTIER_QUEUED], 3);
		assert_int_equal(counts[HEED_FRONTIER_IN_FLIGHT], 0);
		assert_int_equal(
		        heed_store_frontier_recover_hosts(s, joined, 1, moved),
		        HEED_EINVAL);
	}
	heed_store_close(s);
}

static int64_t queued_count(heed_store *s)
{
	int64_t counts[4];

	assert_int_equal(heed_store_frontier_counts(s, counts), HEED_OK);
	return counts[HEED_FRONTIER_QUEUED];
}

/* Joining: with no open run, a new one on a cleared frontier; with one
 * open, that run and the frontier as it is; never inside the caller's
 * transaction. */
static void test_run_join(void **state)
{
	heed_store *s = heed_test_store_fresh();
	struct heed_frontier_entry e = entry("http://a.test/1", "a.test", 0);
	struct heed_crawl_run run, again;
	bool joined = true;

	(void)state;
	assert_int_equal(heed_store_frontier_add(s, &e, NULL), HEED_OK);
	assert_int_equal(heed_store_run_join(s, "full", 100, &run, &joined),
	                 HEED_OK);
	assert_false(joined);
	assert_true(run.id > 0);
	assert_string_equal(run.mode, "full");
	assert_int_equal(run.started_at, 100);
	assert_int_equal(run.finished_at, 0);
	assert_int_equal(queued_count(s), 0);
	/* A second worker joins it; the frontier it finds is kept. */
	assert_int_equal(heed_store_frontier_add(s, &e, NULL), HEED_OK);
	assert_int_equal(
	        heed_store_run_join(s, "incremental", 200, &again, &joined),
	        HEED_OK);
	assert_true(joined);
	assert_int_equal(again.id, run.id);
	assert_string_equal(again.mode, "full");
	assert_int_equal(again.started_at, 100);
	assert_int_equal(queued_count(s), 1);
	/* Inside a transaction: refused, and the caller's transaction is
	 * left to it. */
	assert_int_equal(heed_store_begin(s), HEED_OK);
	assert_int_equal(heed_store_run_join(s, "full", 300, &again, &joined),
	                 HEED_EINVAL);
	assert_false(joined);
	assert_int_equal(again.id, 0);
	e.url = "http://a.test/2";
	assert_int_equal(heed_store_frontier_add(s, &e, NULL), HEED_OK);
	assert_int_equal(heed_store_commit(s), HEED_OK);
	assert_int_equal(queued_count(s), 2);
	assert_int_equal(heed_store_run_join(s, "", 300, &again, &joined),
	                 HEED_EINVAL);
	/* Once the run finished, the next joiner begins another. */
	assert_int_equal(heed_store_run_finish(s, run.id, 400), HEED_OK);
	assert_int_equal(
	        heed_store_run_join(s, "incremental", 500, &again, &joined),
	        HEED_OK);
	assert_false(joined);
	assert_true(again.id > run.id);
	assert_string_equal(again.mode, "incremental");
	assert_int_equal(queued_count(s), 0);
	heed_store_close(s);
}

#define JOINERS     4
#define JOIN_ROUNDS 8

/* A joiner's child: connects, says so on ready, waits for the start
 * (go's write end closed), joins, writes its run's id and whether it
 * joined to out, exits. */
static void joiner(const char *url, int ready, int go, int out)
{
	heed_store *c = NULL;
	struct heed_crawl_run run;
	bool joined = false;
	int64_t msg[2];
	char byte = 'r';

	if (heed_store_open(&c, url, NULL, NULL) != HEED_OK)
		_exit(3);
	if (write(ready, &byte, 1) != 1 || read(go, &byte, 1) != 0)
		_exit(4);
	if (heed_store_run_join(c, "full", 100, &run, &joined) != HEED_OK)
		_exit(5);
	msg[0] = run.id;
	msg[1] = joined;
	if (write(out, msg, sizeof(msg)) != (ssize_t)sizeof(msg))
		_exit(6);
	heed_store_close(c);
	_exit(0);
}

/* One round: JOINERS processes connected, then let go at once. Returns
 * the run they all got, checking exactly one of them began it. */
static int64_t join_round(const char *url)
{
	pid_t pids[JOINERS];
	int ready[2], go[2], out[2], wstatus, begun = 0;
	int64_t msg[2], id = 0;
	char byte;

	assert_int_equal(pipe(ready), 0);
	assert_int_equal(pipe(go), 0);
	assert_int_equal(pipe(out), 0);
	for (int i = 0; i < JOINERS; i++) {
		pids[i] = fork();
		assert_true(pids[i] >= 0);
		if (pids[i] == 0) {
			close(ready[0]);
			close(go[1]);
			close(out[0]);
			joiner(url, ready[1], go[0], out[1]);
		}
	}
	close(ready[1]);
	close(go[0]);
	close(out[1]);
	/* Every child connected (or died: read sees the end) before any
	 * joins, so they all ask at once. */
	for (int i = 0; i < JOINERS; i++)
		assert_int_equal(read(ready[0], &byte, 1), 1);
	close(go[1]);
	for (int i = 0; i < JOINERS; i++) {
		assert_int_equal(waitpid(pids[i], &wstatus, 0), pids[i]);
		assert_true(WIFEXITED(wstatus));
		assert_int_equal(WEXITSTATUS(wstatus), 0);
	}
	for (int i = 0; i < JOINERS; i++) {
		assert_int_equal(read(out[0], msg, sizeof(msg)),
		                 (ssize_t)sizeof(msg));
		assert_true(msg[0] > 0);
		if (i == 0)
			id = msg[0];
		assert_int_equal(msg[0], id);
		begun += msg[1] == 0;
	}
	assert_int_equal(read(out[0], msg, sizeof(msg)), 0);
	close(ready[0]);
	close(out[0]);
	assert_int_equal(begun, 1);
	return id;
}

/* Four processes, each with its own connection, join at once on an empty
 * store: exactly one run is begun, and all four have it. Then again,
 * JOIN_ROUNDS times, each once the last run finished (on PostgreSQL
 * without the advisory lock, about one round in three began two runs). */
static void test_run_join_at_once(void **state)
{
	char location[256];
	heed_store *s = NULL;
	int64_t last = 0;

	(void)state;
	if (heed_test_pg())
		heed_test_pg_fresh(location, sizeof(location));
	else
		snprintf(location, sizeof(location), "%s/join.db",
		         heed_test_dir());
	/* Migrated before the children start, so they race on the join, not
	 * on the migration. */
	assert_int_equal(
	        heed_store_open(&s, location, heed_test_allocator(), NULL),
	        HEED_OK);
	for (int r = 0; r < JOIN_ROUNDS; r++) {
		int64_t id = join_round(location);
		assert_true(id > last);
		assert_int_equal(heed_store_run_finish(s, id, 200), HEED_OK);
		last = id;
	}
	heed_store_close(s);
	assert_int_equal(heed_test_store_int(location, "SELECT count(*) FROM "
	                                               "crawl_runs;"),
	                 JOIN_ROUNDS);
}

/* The engine's batch: the page stored and its frontier row done in one
 * transaction, the next URL in flight. */
static void store_batch(heed_store *s, int first, int count)
{
	char url[64];

	assert_int_equal(heed_store_begin(s), HEED_OK);
	for (int i = first; i < first + count; i++) {
		struct heed_stored_page p;
		snprintf(url, sizeof(url), "http://a.test/%d", i);
		p = page(url, "a.test", 200, 100 + i);
		assert_int_equal(heed_store_page_put(s, &p), HEED_OK);
		assert_int_equal(
		        heed_store_frontier_set_state(s, "a.test", i,
		                                      HEED_FRONTIER_DONE, 200),
		        HEED_OK);
	}
	if (first + count <= 10)
		assert_int_equal(heed_store_frontier_set_state(
		                         s, "a.test", first + count,
		                         HEED_FRONTIER_IN_FLIGHT, 0),
		                 HEED_OK);
	assert_int_equal(heed_store_commit(s), HEED_OK);
}

static void test_kill_mid_batch_loses_nothing_stored(void **state)
{
	char path[128], url[64];
	heed_store *s = NULL;
	struct heed_frontier_host h = {0};
	int64_t n = 0, requeued = 0;
	pid_t child;
	int wstatus;

	(void)state;
	snprintf(path, sizeof(path), "%s/kill.db", heed_test_dir());
	assert_int_equal(heed_store_open(&s, path, NULL, NULL), HEED_OK);
	for (int i = 1; i <= 10; i++) {
		struct heed_frontier_entry e = entry(url, "a.test", 1);
		snprintf(url, sizeof(url), "http://a.test/%d", i);
		assert_int_equal(heed_store_frontier_add(s, &e, NULL), HEED_OK);
	}
	heed_store_close(s);
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		/* Two committed batches, then death inside the third. */
		heed_store *c = NULL;
		if (heed_store_open(&c, path, NULL, NULL) != HEED_OK)
			_exit(3);
		store_batch(c, 1, 3);
		store_batch(c, 4, 3);
		heed_store_begin(c);
		struct heed_stored_page p =
		        page("http://a.test/7", "a.test", 200, 1);
		heed_store_page_put(c, &p);
		raise(SIGKILL);
		_exit(4);
	}
	assert_int_equal(waitpid(child, &wstatus, 0), child);
	assert_true(WIFSIGNALED(wstatus));
	assert_int_equal(WTERMSIG(wstatus), SIGKILL);
	assert_int_equal(heed_store_open(&s, path, NULL, NULL), HEED_OK);
	assert_int_equal(heed_store_pages_count(s, NULL, &n), HEED_OK);
	assert_int_equal(n, 6);
	assert_int_equal(heed_store_frontier_recover(s, &requeued), HEED_OK);
	assert_int_equal(requeued, 1);
	assert_int_equal(heed_store_frontier_hosts(s, collect_host, &h),
	                 HEED_OK);
	assert_int_equal(h.queued, 4);
	assert_int_equal(h.pages_done, 6);
	heed_store_close(s);
}

static int plan_row(void *ud, int n, char **cols, char **names)
{
	char *plan = ud;

	(void)names;
	if (n >= 4 && cols[3])
		snprintf(plan + strlen(plan), 512 - strlen(plan), "%s;",
		         cols[3]);
	return 0;
}

/* The queue's indexes hold only the rows still to fetch, and every
 * statement that reads a site's queue (heed_store_frontier_queued, a
 * site's queue dropped, its in-flight or dropped rows put back) or a
 * resume's in-flight rows reads one of them, never the table: the
 * statements as in src/store/frontier.c. */
static void test_frontier_queue_holds_pending(void **state)
{
	static const char *const sql[][2] = {
	        {"SELECT id, url, host, depth, kind, discovered_from, lastmod, "
	         "tries FROM frontier WHERE host = ?1 AND state = 0 AND id > "
	         "?2 ORDER BY id LIMIT ?3;",
	         "INDEX frontier_queued (host=? AND id>?)"},
	        {"UPDATE frontier SET state = ?2 WHERE host = ?1 AND state = "
	         "0;",
	         "INDEX frontier_queued (host=?)"},
	        {"UPDATE frontier SET state = ?2 WHERE host = ?1 AND state = "
	         "1;",
	         "INDEX frontier_in_flight (host=?)"},
	        {"UPDATE frontier SET state = ?1 WHERE state = 1;",
	         "INDEX frontier_in_flight"},
	        {"UPDATE frontier SET state = ?2 WHERE host = ?1 AND state = "
	         "3;",
	         "INDEX frontier_dropped (host=?)"},
	};
	static const char *const partial[] = {
	        "frontier_queued",
	        "WHERE state = 0",
	        "frontier_in_flight",
	        "WHERE state = 1",
	};
	char path[128], plan[512];
	heed_store *s = NULL;
	sqlite3 *db;

	(void)state;
	snprintf(path, sizeof(path), "%s/queue-plan.db", heed_test_dir());
	assert_int_equal(heed_store_open(&s, path, heed_test_allocator(), NULL),
	                 HEED_OK);
	heed_store_close(s);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	/* heed's FTS5 tokenizer: the search index's tables need it. */
	assert_int_equal(heed__sqlite_search_register(db), SQLITE_OK);
	for (size_t i = 0; i < HEED_ARRAY_SIZE(sql); i++) {
		char eqp[512];

		plan[0] = '\0';
		snprintf(eqp, sizeof(eqp), "EXPLAIN QUERY PLAN %s", sql[i][0]);
		assert_int_equal(sqlite3_exec(db, eqp, plan_row, plan, NULL),
		                 SQLITE_OK);
		if (!strstr(plan, sql[i][1]) || strstr(plan, "TEMP B-TREE"))
			fail_msg("statement %zu: plan '%s'", i, plan);
	}
	for (size_t i = 0; i < HEED_ARRAY_SIZE(partial); i += 2) {
		char q[160];

		plan[0] = '\0';
		snprintf(q, sizeof(q),
		         "SELECT 0, 0, 0, sql FROM sqlite_master WHERE name = "
		         "'%s';",
		         partial[i]);
		assert_int_equal(sqlite3_exec(db, q, plan_row, plan, NULL),
		                 SQLITE_OK);
		if (!strstr(plan, partial[i + 1]))
			fail_msg("%s: '%s'", partial[i], plan);
	}
	sqlite3_close(db);
}

/* PostgreSQL: with 320,000 rows fetched (some 20,000 a partition) and a
 * site's few still queued, a window of the site's queue and a resume's
 * in-flight rows read the partial indexes, never the table. */
static void test_frontier_queue_holds_pending_pg(void **state)
{
	/* Room for a plan over every partition. */
	static char plan[16384];
	char url[256];
	heed_store *s = NULL;

	(void)state;
	heed_test_pg_fresh(url, sizeof(url));
	assert_int_equal(heed_store_open(&s, url, heed_test_allocator(), NULL),
	                 HEED_OK);
	heed_store_close(s);
	heed_test_pg_sql(url, "INSERT INTO frontier(url, host, depth, kind, "
	                      "state) SELECT 'https://s' || i % 100 || "
	                      "'.example/' || i, 'https://s' || i % 100 || "
	                      "'.example', 1, 0, CASE WHEN i % 1000 = 0 THEN 0 "
	                      "WHEN i % 997 = 0 THEN 1 ELSE 2 END FROM "
	                      "generate_series(1, 320000) i;");
	heed_test_pg_sql(url, "ANALYZE;");
	heed_test_pg_plan(url,
	                  "EXPLAIN SELECT id, url FROM frontier WHERE host = "
	                  "'https://s0.example' AND state = 0 AND id > 0 "
	                  "ORDER BY id LIMIT 8;",
	                  plan, sizeof(plan));
	if (!strstr(plan, "_queued") || strstr(plan, "Seq Scan") ||
	    strstr(plan, "Sort"))
		fail_msg("queued window: %s", plan);
	heed_test_pg_plan(url,
	                  "EXPLAIN UPDATE frontier SET state = 0 WHERE state = "
	                  "1;",
	                  plan, sizeof(plan));
	if (!strstr(plan, "frontier_0_in_flight") || strstr(plan, "Seq Scan"))
		fail_msg("in-flight rows: %s", plan);
}

/* The frontier's rows, as one digest: what a migration keeps. */
#define FRONTIER_ROWS_MD5                                                   \
	"SELECT md5(string_agg(concat_ws(',', id, url, host, depth, kind, " \
	"state, discovered_from, lastmod, outcome, tries), ';' ORDER BY "   \
	"id)) FROM frontier;"

/* A store of version 3, whose frontier is one table keyed by id and URL,
 * with queued, in-flight, done and dropped rows of three sites, ids with
 * a gap and an identity that handed out more than it kept, migrates to
 * 16 hash partitions of the host: every row kept, the host in both
 * unique keys, no id handed out again, and the crawl goes on from it
 * (a seen URL is not added again, a window finds the queued rows, a
 * batch's states land, in-flight and dropped rows come back). */
static void test_frontier_partitions_migrated(void **state)
{
	char url[256], before[64];
	heed_store *s = NULL;
	struct heed_frontier_entry e =
	        entry("https://a.test/1", "https://a.test", 0);
	struct window w = {0};
	int64_t counts[4], n = 0;
	bool added = true;

	(void)state;
	heed_test_pg_fresh(url, sizeof(url));
	assert_int_equal(heed_store_open(&s, url, heed_test_allocator(), NULL),
	                 HEED_OK);
	heed_store_close(s);
	heed_test_pg_sql(
	        url,
	        "DROP TABLE frontier;"
	        "DROP FUNCTION heed_frontier_states;"
	        "DROP FUNCTION heed_frontier_window;"
	        "DROP FUNCTION heed_frontier_move;"
	        "CREATE TABLE frontier (id BIGINT GENERATED BY DEFAULT AS "
	        "IDENTITY PRIMARY KEY, url TEXT NOT NULL UNIQUE, host TEXT NOT "
	        "NULL, depth INTEGER NOT NULL, kind INTEGER NOT NULL, state "
	        "INTEGER NOT NULL DEFAULT 0, discovered_from TEXT, lastmod "
	        "BIGINT, outcome INTEGER NOT NULL DEFAULT 0, tries INTEGER NOT "
	        "NULL DEFAULT 0);"
	        "CREATE INDEX frontier_queued ON frontier(host, id) WHERE "
	        "state = 0;"
	        "CREATE INDEX frontier_in_flight ON frontier(host, id) WHERE "
	        "state = 1;"
	        "CREATE INDEX frontier_dropped ON frontier(host, id) WHERE "
	        "state = 3;"
	        "INSERT INTO frontier(id, url, host, depth, kind, state, "
	        "discovered_from, lastmod, outcome, tries) SELECT i, "
	        "'https://' || chr(97 + i % 3) || '.test/' || i, 'https://' || "
	        "chr(97 + i % 3) || '.test', i % 4, i % 2, i % 4, CASE WHEN i "
	        "> "
	        "1 THEN 'https://a.test/1' END, CASE WHEN i % 5 = 0 THEN i * "
	        "1000 END, CASE WHEN i % 4 = 2 THEN 200 ELSE 0 END, i % 3 FROM "
	        "generate_series(1, 40) i WHERE i <> 17;"
	        "SELECT setval(pg_get_serial_sequence('frontier', 'id'), 100);"
	        "UPDATE heed_schema SET version = 3 WHERE area = 'frontier';");
	assert_int_equal(heed_test_pg_partitions(url, "frontier"), 0);
	snprintf(before, sizeof(before), "%s",
	         heed_test_pg_sql(url, FRONTIER_ROWS_MD5));
	assert_int_equal(strlen(before), 32);

	assert_int_equal(heed_store_open(&s, url, heed_test_allocator(), NULL),
	                 HEED_OK);
	assert_string_equal(
	        heed_test_pg_sql(url, "SELECT version FROM heed_schema WHERE "
	                              "area = 'frontier';"),
	        "6");
	assert_string_equal(
	        heed_test_pg_sql(url, "SELECT pg_get_partkeydef('frontier'::"
	                              "regclass);"),
	        "HASH (host)");
	assert_int_equal(heed_test_pg_partitions(url, "frontier"), 16);
	assert_string_equal(
	        heed_test_pg_sql(url,
	                         "SELECT string_agg(conname || ' ' || "
	                         "pg_get_constraintdef(oid), ',' ORDER BY "
	                         "conname) FROM pg_constraint WHERE conrelid = "
	                         "'frontier'::regclass;"),
	        "frontier_host_url_key UNIQUE (host, url),"
	        "frontier_pkey PRIMARY KEY (id, host)");
	assert_string_equal(heed_test_pg_sql(url, FRONTIER_ROWS_MD5), before);
	/* Each partition has its own queue indexes, named for them. */
	assert_string_equal(
	        heed_test_pg_sql(url, "SELECT count(*) FROM pg_indexes WHERE "
	                              "indexname ~ "
	                              "'^frontier_[0-9]+_(queued|in_flight|"
	                              "dropped)$';"),
	        "48");
	assert_int_equal(heed_store_frontier_counts(s, counts), HEED_OK);
	assert_int_equal(counts[HEED_FRONTIER_QUEUED], 10);
	assert_int_equal(counts[HEED_FRONTIER_IN_FLIGHT], 9);
	assert_int_equal(counts[HEED_FRONTIER_DONE], 10);
	assert_int_equal(counts[HEED_FRONTIER_DROPPED], 10);

	/* Seen: not added again; new: an id past every one handed out. */
	e.url = "https://a.test/3";
	assert_int_equal(heed_store_frontier_add(s, &e, &added), HEED_OK);
	assert_false(added);
	e.url = "https://a.test/new";
	assert_int_equal(heed_store_frontier_add(s, &e, &added), HEED_OK);
	assert_true(added);
	/* (The seen URL's insert took 101 from the identity.) */
	assert_string_equal(heed_test_pg_sql(url, "SELECT id FROM frontier "
	                                          "WHERE url = "
	                                          "'https://a.test/new';"),
	                    "102");
	/* a.test's queued rows: 12, 24, 36 and the new one. */
	assert_int_equal(heed_store_frontier_queued(s, "https://a.test", 0, 8,
	                                            collect_entry, &w),
	                 HEED_OK);
	assert_int_equal(w.n, 4);
	assert_int_equal(w.ids[0], 12);
	assert_int_equal(w.ids[3], 102);
	/* A batch's states, held and sent together, by host and id. */
	assert_int_equal(heed_store_begin_batch(s), HEED_OK);
	for (int i = 0; i < w.n; i++)
		assert_int_equal(heed_store_frontier_set_state(
		                         s, "https://a.test", w.ids[i],
		                         HEED_FRONTIER_DONE, 200),
		                 HEED_OK);
	assert_int_equal(heed_store_commit(s), HEED_OK);
	assert_int_equal(
	        heed_store_frontier_recover_host(s, "https://b.test", &n),
	        HEED_OK);
	assert_int_equal(n, 4); /* 1, 13, 25, 37 */
	assert_int_equal(
	        heed_store_frontier_undrop_host(s, "https://c.test", &n),
	        HEED_OK);
	assert_int_equal(n, 3); /* 11, 23, 35 */
	assert_int_equal(heed_store_frontier_counts(s, counts), HEED_OK);
	assert_int_equal(counts[HEED_FRONTIER_QUEUED], 10 - 3 + 4 + 3);
	assert_int_equal(counts[HEED_FRONTIER_DONE], 14);
	heed_store_close(s);
}

/* Room for auto_explain's verbose plans of a statement over every
 * partition. */
#define NESTED_PLAN_SIZE 65536

/* Keeps the server's notices: auto_explain's plans. */
static void keep_notice(void *arg, const char *message)
{
	char *plan = arg;
	size_t len = strlen(plan);

	snprintf(plan + len, NESTED_PLAN_SIZE - len, "%s", message);
}

/* The auto_explain plans of sql's statements, nested ones too, run on a
 * session of its own, into plan (NESTED_PLAN_SIZE bytes). */
static void nested_plans(const char *url, const char *sql, char *plan)
{
	PGconn *c = PQconnectdb(url);

	plan[0] = '\0';
	assert_int_equal(PQstatus(c), CONNECTION_OK);
	PQsetNoticeProcessor(c, keep_notice, plan);
	PQclear(PQexec(c, "LOAD 'auto_explain'; SET "
	                  "auto_explain.log_min_duration = 0; SET "
	                  "auto_explain.log_nested_statements = on; SET "
	                  "auto_explain.log_analyze = on; SET "
	                  "auto_explain.log_timing = off; SET "
	                  "auto_explain.log_verbose = on; SET "
	                  "auto_explain.log_level = notice; SET "
	                  "client_min_messages = notice;"));
	PQclear(PQexec(c, sql));
	PQfinish(c);
}

/* PostgreSQL: a state write names its host, so it probes one partition's
 * primary key: alone (as outside a batch) the plan is that partition's,
 * and a batch's states, sent as one call of heed_frontier_states, are a
 * nested loop that prunes each row to its host's partition, even where
 * the partitions are small enough (2,000 rows in all) that the planner,
 * pricing each probe as one of all sixteen keys, would read them whole
 * for a hash join. That plan is the session's from the first call (its
 * arrays are parameters, not constants planned for). A new URL conflicts
 * on (host, url). */
static void test_frontier_writes_one_partition_pg(void **state)
{
	static char plan[NESTED_PLAN_SIZE];
	char url[256];
	heed_store *s = NULL;
	const char *never;
	int skipped = 0;

	(void)state;
	heed_test_pg_fresh(url, sizeof(url));
	assert_int_equal(heed_store_open(&s, url, heed_test_allocator(), NULL),
	                 HEED_OK);
	heed_store_close(s);
	heed_test_pg_sql(url, "INSERT INTO frontier(url, host, depth, kind, "
	                      "state) SELECT 'https://s' || i % 100 || "
	                      "'.example/' || i, 'https://s' || i % 100 || "
	                      "'.example', 1, 0, 2 FROM "
	                      "generate_series(1, 2000) i; ANALYZE frontier;");
	heed_test_pg_plan(url,
	                  "EXPLAIN UPDATE frontier SET state = 2, outcome = "
	                  "200 WHERE host = 'https://s7.example' AND id = 7;",
	                  plan, sizeof(plan));
	if (!strstr(plan, "Update on frontier_") ||
	    strstr(strstr(plan, "Update on frontier_") + 1,
	           "Update on frontier_"))
		fail_msg("one row's state: %s", plan);
	/* The batch's call with three rows of one site: one partition's key
	 * probed three times, the other fifteen never. */
	nested_plans(url,
	             "SELECT heed_frontier_states('{7,107,207}', '{2,2,1}', "
	             "'{200,404,0}', '{https://s7.example,https://s7.example,"
	             "https://s7.example}');",
	             plan);
	for (never = plan; (never = strstr(never, "(never executed)")); never++)
		skipped++;
	if (skipped != 15 || !strstr(plan, "Nested Loop") ||
	    !strstr(plan, "_pkey on public.frontier_") ||
	    !strstr(plan, "rows=1 loops=3") || strstr(plan, "Seq Scan") ||
	    strstr(plan, "Hash Join") || !strstr(plan, "unnest($1)"))
		fail_msg("a batch's states: %s", plan);
	assert_string_equal(heed_test_pg_sql(url, "SELECT count(*) FROM "
	                                          "frontier WHERE state = 1;"),
	                    "1");
	heed_test_pg_plan(
	        url,
	        "EXPLAIN INSERT INTO frontier(url, host, depth, kind) "
	        "VALUES('https://s7.example/x', 'https://s7.example', "
	        "1, 0) ON CONFLICT (host, url) DO NOTHING;",
	        plan, sizeof(plan));
	if (!strstr(plan, "Conflict Arbiter Indexes: frontier_host_url_key"))
		fail_msg("a new URL: %s", plan);
}

/* PostgreSQL: a site's queue window and its rows moved between states
 * are planned once for any site, a plan that prunes to the site's
 * partition as it starts and reads the partial index of the state it
 * names, from the first call on (the plan cache would plan each call for
 * its site). A state no queue index holds is refused. */
static void test_frontier_queue_plans_kept_pg(void **state)
{
	static char plan[NESTED_PLAN_SIZE];
	char url[256];
	heed_store *s = NULL;
	struct window w = {0};
	int64_t moved = -1;
	PGconn *refused;
	PGresult *r;

	(void)state;
	heed_test_pg_fresh(url, sizeof(url));
	assert_int_equal(heed_store_open(&s, url, heed_test_allocator(), NULL),
	                 HEED_OK);
	heed_test_pg_sql(url, "INSERT INTO frontier(url, host, depth, kind, "
	                      "state) SELECT 'https://s' || i % 100 || "
	                      "'.example/' || i, 'https://s' || i % 100 || "
	                      "'.example', 1, 0, i / 100 % 4 FROM "
	                      "generate_series(1, 2000) i; ANALYZE frontier;");
	nested_plans(url,
	             "SELECT * FROM heed_frontier_window('https://s7.example', "
	             "0, 3);",
	             plan);
	if (!strstr(plan, "Subplans Removed: 15") || !strstr(plan, "_queued") ||
	    strstr(plan, "Seq Scan"))
		fail_msg("a queue window: %s", plan);
	nested_plans(url,
	             "SELECT heed_frontier_move('https://s7.example', 3, 0);",
	             plan);
	if (!strstr(plan, "Subplans Removed: 15") ||
	    !strstr(plan, "_dropped") || strstr(plan, "Seq Scan"))
		fail_msg("a site's dropped rows queued: %s", plan);
	/* What the plans changed and read: s7's 5 dropped rows queued
	 * beside its 5 queued ones, its window from the first in id order. */
	assert_string_equal(
	        heed_test_pg_sql(url, "SELECT count(*) FROM frontier WHERE "
	                              "host = 'https://s7.example' AND state "
	                              "= 0;"),
	        "10");
	assert_int_equal(heed_store_frontier_queued(s, "https://s7.example", 0,
	                                            4, collect_entry, &w),
	                 HEED_OK);
	assert_int_equal(w.n, 4);
	assert_string_equal(w.urls[0], "https://s7.example/7");
	assert_string_equal(w.urls[3], "https://s7.example/707");
	assert_int_equal(
	        heed_store_frontier_drop_host(s, "https://s7.example", &moved),
	        HEED_OK);
	assert_int_equal(moved, 10);
	heed_store_close(s);
	refused = PQconnectdb(url);
	r = PQexec(refused, "SELECT heed_frontier_move('https://s7.example', "
	                    "2, 0);");
	assert_int_equal(PQresultStatus(r), PGRES_FATAL_ERROR);
	assert_non_null(strstr(PQresultErrorMessage(r),
	                       "no queue index holds state 2"));
	PQclear(r);
	PQfinish(refused);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_page_put_replaces),
	        cmocka_unit_test(test_page_get),
	        cmocka_unit_test(test_page_dates),
	        cmocka_unit_test(test_pages_v1_migrates),
	        cmocka_unit_test(test_page_unchanged_touches_only_dates),
	        cmocka_unit_test(test_page_filters_and_delete),
	        cmocka_unit_test(test_page_stats),
	        cmocka_unit_test(test_pages_in_byte_order),
	        cmocka_unit_test(test_frontier_seen_set_and_window),
	        cmocka_unit_test(test_frontier_added_later),
	        cmocka_unit_test(test_frontier_states_and_drop),
	        cmocka_unit_test(test_frontier_retry),
	        cmocka_unit_test(test_frontier_v1_migrates_to_sites),
	        cmocka_unit_test(test_frontier_queue_holds_pending),
	        cmocka_unit_test(test_runs),
	        cmocka_unit_test(test_frontier_recover_host),
	        cmocka_unit_test(test_frontier_windows),
	        cmocka_unit_test(test_run_join),
	        cmocka_unit_test(test_run_join_at_once),
	        cmocka_unit_test(test_kill_mid_batch_loses_nothing_stored),
	};
	/* The areas PostgreSQL has so far. */
	const struct CMUnitTest pg_tests[] = {
	        cmocka_unit_test(test_page_put_replaces),
	        cmocka_unit_test(test_page_get),
	        cmocka_unit_test(test_page_dates),
	        cmocka_unit_test(test_page_unchanged_touches_only_dates),
	        cmocka_unit_test(test_page_filters_and_delete),
	        cmocka_unit_test(test_page_stats),
	        cmocka_unit_test(test_pages_in_byte_order),
	        cmocka_unit_test(test_frontier_seen_set_and_window),
	        cmocka_unit_test(test_frontier_added_later),
	        cmocka_unit_test(test_frontier_states_and_drop),
	        cmocka_unit_test(test_frontier_retry),
	        cmocka_unit_test(test_runs),
	        cmocka_unit_test(test_frontier_recover_host),
	        cmocka_unit_test(test_frontier_windows),
	        cmocka_unit_test(test_run_join),
	        cmocka_unit_test(test_run_join_at_once),
	        cmocka_unit_test(test_frontier_queue_holds_pending_pg),
	        cmocka_unit_test(test_frontier_partitions_migrated),
	        cmocka_unit_test(test_frontier_writes_one_partition_pg),
	        cmocka_unit_test(test_frontier_queue_plans_kept_pg),
	        cmocka_unit_test(test_frontier_undrop_keeps_held_pg),
	        cmocka_unit_test(test_page_unchanged_keeps_held_pg),
	};

	if (heed_test_pg())
		return cmocka_run_group_tests_name("store_crawl_pg", pg_tests,
		                                   NULL, NULL);
	return cmocka_run_group_tests(tests, heed_test_make_dir,
	                              heed_test_remove_dir);
}
