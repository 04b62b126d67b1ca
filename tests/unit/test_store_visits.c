/*
 * Unit tests for the store's "visits" area: a row keeps every
 * field (absent strings and dates included), the due rows of a site come
 * earliest first with the kinds asked for, from the site's range of the
 * key and never another site's, `heed queue`'s list pages
 * through by (due date, URL) without repeating or skipping a row, the
 * summary counts a hand-made table right, and a store made before the area
 * gets one row per stored page.
 */
#include "pg_test.h"

#include <limits.h>
#include <sqlite3.h>

#include "heed/store_pages.h"
#include "heed/store_visits.h"
#include "store/grams-int.h"
#include "store/sqlite-int.h"

#define NO_DATE HEED_REVISIT_NO_DATE

/* A row of kind page, checked at due - 86400, with no validators. */
static struct heed_visit visit(const char *url, const char *site,
                               int64_t due_at)
{
	struct heed_visit v = {
	        .url = (char *)url,
	        .site = (char *)site,
	        .kind = HEED_FRONTIER_PAGE,
	        .status = 200,
	        .fresh_until = NO_DATE,
	        .sched = {86400, due_at - 86400, NO_DATE, due_at},
	        .last_outcome = HEED_REVISIT_NEW,
	        .run_id = 1,
	        .visits = 1,
	        .changes = 1,
	};
	return v;
}

static void put(heed_store *s, struct heed_visit v)
{
	assert_int_equal(heed_store_visit_put(s, &v), HEED_OK);
}

static void assert_text(const char *want, const char *got)
{
	if (!want)
		assert_null(got);
	else
		assert_string_equal(want, got);
}

static void assert_same_visit(const struct heed_visit *a,
                              const struct heed_visit *b)
{
	assert_text(a->url, b->url);
	assert_text(a->site, b->site);
	assert_text(a->found_on, b->found_on);
	assert_int_equal(a->kind, b->kind);
	assert_int_equal(a->status, b->status);
	assert_text(a->etag, b->etag);
	assert_text(a->last_modified, b->last_modified);
	assert_text(a->digest, b->digest);
	assert_true(a->fresh_until == b->fresh_until);
	assert_true(a->sched.interval_s == b->sched.interval_s);
	assert_true(a->sched.checked_at == b->sched.checked_at);
	assert_true(a->sched.changed_at == b->sched.changed_at);
	assert_true(a->sched.due_at == b->sched.due_at);
	assert_int_equal(a->last_outcome, b->last_outcome);
	assert_true(a->run_id == b->run_id);
	assert_true(a->visits == b->visits);
	assert_true(a->changes == b->changes);
}

static void test_put_get_every_field(void **state)
{
	heed_store *s = heed_test_store_fresh();
	struct heed_visit full = {
	        .url = "https://a.test:8443/feed.xml",
	        .site = "https://a.test:8443",
	        .found_on = "https://a.test:8443/robots.txt",
	        .kind = HEED_FRONTIER_FEED,
	        .status = 304,
	        .etag = "W/\"abc\"",
	        .last_modified = "Sat, 21 Nov 2026 10:00:00 GMT",
	        .digest = "e3b0c44298fc1c149afbf4c8996fb924"
	                  "27ae41e4649b934ca495991b7852b855",
	        .fresh_until = 1800000300,
	        .sched = {7200, 1800000000, 1700000000, 1800007200},
	        .last_outcome = HEED_REVISIT_UNCHANGED,
	        .run_id = 42,
	        .visits = 9,
	        .changes = 3,
	};
	/* Every string absent, every date unknown, due_at included. */
	struct heed_visit bare = {
	        .url = "http://b.test/",
	        .site = "http://b.test",
	        .kind = HEED_FRONTIER_SITEMAP,
	        .fresh_until = NO_DATE,
	        .sched = {0, NO_DATE, NO_DATE, NO_DATE},
	        .last_outcome = HEED_REVISIT_FAILED,
	};
	struct heed_visit got, bad = full;

	(void)state;
	put(s, full);
	put(s, bare);
	assert_int_equal(heed_store_visit_get(s, full.site, full.url, &got),
	                 HEED_OK);
	assert_same_visit(&full, &got);
	heed_store_visit_clear(s, &got);
	assert_null(got.url);
	assert_int_equal(heed_store_visit_get(s, bare.site, bare.url, &got),
	                 HEED_OK);
	assert_same_visit(&bare, &got);
	heed_store_visit_clear(s, &got);

	assert_int_equal(heed_store_visit_get(s, "http://c.test",
	                                      "http://c.test/", &got),
	                 HEED_ENOTFOUND);
	assert_null(got.url);
	bad.url = NULL;
	assert_int_equal(heed_store_visit_put(s, &bad), HEED_EINVAL);
	bad.url = full.url;
	bad.site = NULL;
	assert_int_equal(heed_store_visit_put(s, &bad), HEED_EINVAL);
	heed_store_close(s);
}

/* Every allocation of heed_store_visit_get may fail: ENOMEM, nothing
 * leaked (cmocka checks), the struct left cleared. */
static void test_get_out_of_memory(void **state)
{
	struct heed_visit v = visit("http://a.test/x", "http://a.test", 500);
	unsigned long n;

	(void)state;
	v.etag = "\"e\"";
	v.digest = "00";
	for (n = 0;; n++) {
		struct heed_test_fail f = {.fail_at = ULONG_MAX};
		heed_store *s = NULL;
		struct heed_visit got;
		heed_status rc;

		assert_int_equal(
		        heed_store_open(&s, ":memory:",
		                        heed_test_failing_allocator(&f), NULL),
		        HEED_OK);
		put(s, v);
		f.fail_at = f.calls + n;
		rc = heed_store_visit_get(s, v.site, v.url, &got);
		f.fail_at = ULONG_MAX;
		if (rc == HEED_OK) {
			assert_same_visit(&v, &got);
			heed_store_visit_clear(s, &got);
			heed_store_close(s);
			break;
		}
		assert_int_equal(rc, HEED_ENOMEM);
		assert_null(got.url);
		assert_null(got.digest);
		heed_store_close(s);
	}
	assert_true(n >= 3); /* url, site, etag, digest: one at a time */
}

struct seen {
	char urls[64][48];
	int n;
	int stop_after; /* 0: never */
};

static int collect(void *ud, const struct heed_visit *v)
{
	struct seen *seen = ud;

	assert_true(seen->n < 64);
	snprintf(seen->urls[seen->n++], sizeof(seen->urls[0]), "%s", v->url);
	return seen->stop_after && seen->n >= seen->stop_after;
}

static void assert_seen(const struct seen *seen, const char *const *want, int n)
{
	assert_int_equal(seen->n, n);
	for (int i = 0; i < n; i++)
		assert_string_equal(seen->urls[i], want[i]);
}

static void test_put_replaces(void **state)
{
	heed_store *s = heed_test_store_fresh();
	struct heed_visit v = visit("http://a.test/", "http://a.test", 1000);
	struct heed_visit got;
	struct seen seen = {0};

	(void)state;
	v.etag = "\"1\"";
	put(s, v);
	v.etag = NULL;
	v.digest = "ff";
	v.sched.due_at = 5000;
	v.visits = 2;
	v.last_outcome = HEED_REVISIT_CHANGED;
	put(s, v);
	assert_int_equal(heed_store_visit_get(s, v.site, v.url, &got), HEED_OK);
	assert_same_visit(&v, &got);
	heed_store_visit_clear(s, &got);
	assert_int_equal(
	        heed_store_visits_list(s, NULL, 0, NULL, 0, collect, &seen),
	        HEED_OK);
	assert_int_equal(seen.n, 1);
	heed_store_close(s);
}

/* Site a: pages due at 100, 150 (two, tied), 400, a sitemap due at 150,
 * a feed due at 300; site b: a page due at 50. */
static void fill_two_sites(heed_store *s)
{
	struct heed_visit v;

	put(s, visit("http://a.test/p1", "http://a.test", 100));
	put(s, visit("http://a.test/p3", "http://a.test", 150));
	put(s, visit("http://a.test/p2", "http://a.test", 150));
	put(s, visit("http://a.test/p4", "http://a.test", 400));
	v = visit("http://a.test/sitemap.xml", "http://a.test", 150);
	v.kind = HEED_FRONTIER_SITEMAP;
	put(s, v);
	v = visit("http://a.test/feed", "http://a.test", 300);
	v.kind = HEED_FRONTIER_FEED;
	put(s, v);
	put(s, visit("http://b.test/p1", "http://b.test", 50));
}

/* How many rows of site of the kinds asked for heed_store_visits_of_site
 * gives, their URLs in *seen. */
static int rows_of(heed_store *s, const char *site, unsigned kinds,
                   struct seen *seen)
{
	memset(seen, 0, sizeof(*seen));
	assert_int_equal(
	        heed_store_visits_of_site(s, site, kinds, collect, seen),
	        HEED_OK);
	return seen->n;
}

static void test_of_site(void **state)
{
	static const char *const sources[] = {"http://a.test/feed",
	                                      "http://a.test/sitemap.xml"};
	static const char *const any[] = {
	        "http://a.test/feed", "http://a.test/p1",
	        "http://a.test/p2",   "http://a.test/p3",
	        "http://a.test/p4",   "http://a.test/sitemap.xml",
	};
	static const char *const oembed[] = {"http://b.test/oembed?url=p1"};
	static const char *const b_any[] = {"http://b.test/oembed?url=p1",
	                                    "http://b.test/p1"};
	heed_store *s = heed_test_store_fresh();
	struct seen seen = {0};
	struct heed_visit v;

	(void)state;
	fill_two_sites(s);
	/* In URL order whatever their due dates. */
	assert_int_equal(heed_store_visits_of_site(s, "http://a.test",
	                                           HEED_VISIT_SOURCES, collect,
	                                           &seen),
	                 HEED_OK);
	assert_seen(&seen, sources, 2);
	seen = (struct seen){0};
	assert_int_equal(heed_store_visits_of_site(s, "http://a.test",
	                                           HEED_VISIT_ANY_KIND, collect,
	                                           &seen),
	                 HEED_OK);
	assert_seen(&seen, any, 6);
	seen = (struct seen){0};
	assert_int_equal(heed_store_visits_of_site(s, "http://b.test",
	                                           HEED_VISIT_SOURCES, collect,
	                                           &seen),
	                 HEED_OK);
	assert_int_equal(seen.n, 0);
	/* An oEmbed answer is no source, but a kind of its own. */
	v = visit("http://b.test/oembed?url=p1", "http://b.test", 50);
	v.kind = HEED_FRONTIER_OEMBED;
	put(s, v);
	assert_int_equal(rows_of(s, "http://b.test", HEED_VISIT_SOURCES, &seen),
	                 0);
	assert_int_equal(rows_of(s, "http://b.test",
	                         HEED_VISIT_KIND_BIT(HEED_FRONTIER_OEMBED),
	                         &seen),
	                 1);
	assert_seen(&seen, oembed, 1);
	rows_of(s, "http://b.test", HEED_VISIT_ANY_KIND, &seen);
	assert_seen(&seen, b_any, 2);
	heed_store_close(s);
}

struct cursor {
	char url[48];
	int64_t due;
	int n; /* rows of this page */
};

static int remember(void *ud, const struct heed_visit *v)
{
	struct cursor *c = ud;

	snprintf(c->url, sizeof(c->url), "%s", v->url);
	c->due = v->sched.due_at;
	c->n++;
	return 0;
}

struct pager {
	struct cursor cur;
	struct seen seen;
};

static int page_row(void *ud, const struct heed_visit *v)
{
	struct pager *p = ud;

	collect(&p->seen, v);
	return remember(&p->cur, v);
}

/* Pages through site's list max rows at a time into *seen. */
static void list_pages(heed_store *s, const char *site, int64_t max,
                       struct seen *seen)
{
	struct pager p;
	bool first = true;

	memset(&p, 0, sizeof(p));
	for (int guard = 0; guard < 64; guard++) {
		p.cur.n = 0;
		assert_int_equal(
		        heed_store_visits_list(s, site, p.cur.due,
		                               first ? NULL : p.cur.url, max,
		                               page_row, &p),
		        HEED_OK);
		assert_true(p.cur.n <= max);
		first = false;
		if (p.cur.n < max)
			break;
	}
	*seen = p.seen;
}

/* The test URLs carry their due date as their path's first number. */
static int by_due_then_url(const void *a, const void *b)
{
	const char *x = a, *y = b;
	long dx = strtol(strrchr(x, '/') + 1, NULL, 10);
	long dy = strtol(strrchr(y, '/') + 1, NULL, 10);

	if (dx != dy)
		return dx < dy ? -1 : 1;
	return strcmp(x, y);
}

/* The URLs heed_store_visits_of_urls called back with, each counted by
 * its number (".../p/N"), and the due dates summed. */
struct of_urls {
	int seen[2600];
	int calls, stop_after;
	int64_t due_sum;
};

static int note_url(void *ud, const struct heed_visit *v)
{
	struct of_urls *o = ud;
	const char *p = strrchr(v->url, '/');
	int n = atoi(p + 1);

	assert_in_range(n, 0, 2599);
	assert_string_equal(v->site, "https://a.test");
	o->seen[n]++;
	o->due_sum += v->sched.due_at;
	return ++o->calls == o->stop_after;
}

/* A list of a site's URLs read together: the rows of those listed and of
 * that site only, once each, however many statements the list takes (a
 * sitemap's 2,500 entries), inside a batch the rows it holds too; fn's
 * non-zero answer ends the list. */
static void test_rows_of_urls(void **state)
{
	heed_store *s = heed_test_store_fresh();
	static char urls[2500][40];
	const char *list[2500];
	struct of_urls o;

	(void)state;
	assert_int_equal(heed_store_begin_batch(s), HEED_OK);
	for (int i = 0; i < 2500; i += 10) {
		char url[40];
		snprintf(url, sizeof(url), "https://a.test/p/%d", i);
		put(s, visit(url, "https://a.test", 1000 + i));
	}
	put(s, visit("https://a.test/p/2501", "https://a.test", 1));
	put(s, visit("https://b.test/p/20", "https://b.test", 7));
	assert_int_equal(heed_store_commit(s), HEED_OK);
	for (int i = 0; i < 2500; i++) {
		snprintf(urls[i], sizeof(urls[i]), "https://a.test/p/%d", i);
		list[i] = urls[i];
	}

	memset(&o, 0, sizeof(o));
	assert_int_equal(heed_store_visits_of_urls(s, "https://a.test", list,
	                                           2500, note_url, &o),
	                 HEED_OK);
	assert_int_equal(o.calls, 250);
	for (int i = 0; i < 2600; i++)
		assert_int_equal(o.seen[i], i < 2500 && i % 10 == 0);
	assert_int_equal(o.due_sum, 250 * 1000 + 10 * (249 * 250 / 2));

	memset(&o, 0, sizeof(o));
	assert_int_equal(heed_store_visits_of_urls(s, "https://a.test", list, 0,
	                                           note_url, &o),
	                 HEED_OK);
	assert_int_equal(o.calls, 0);
	memset(&o, 0, sizeof(o));
	o.stop_after = 3;
	assert_int_equal(heed_store_visits_of_urls(s, "https://a.test", list,
	                                           2500, note_url, &o),
	                 HEED_OK);
	assert_int_equal(o.calls, 3);

	/* A row the batch holds is read with the others. */
	assert_int_equal(heed_store_begin_batch(s), HEED_OK);
	put(s, visit("https://a.test/p/7", "https://a.test", 5));
	memset(&o, 0, sizeof(o));
	assert_int_equal(heed_store_visits_of_urls(s, "https://a.test",
	                                           list + 5, 10, note_url, &o),
	                 HEED_OK);
	assert_int_equal(o.calls, 2);
	assert_int_equal(o.seen[7] + o.seen[10], 2);
	assert_int_equal(o.due_sum, 5 + 1010);
	assert_int_equal(heed_store_commit(s), HEED_OK);
	heed_store_close(s);
}

static void test_list_cursor(void **state)
{
	heed_store *s = heed_test_store_fresh();
	char want[64][48];
	int nwant = 0, nsite = 0;
	struct seen seen;

	(void)state;
	/* 30 rows over three sites, due in five groups of ties, each row's
	 * due date in its path "/<due>-<n>". */
	for (int i = 0; i < 30; i++) {
		char url[48], site[24];
		int64_t due = 1000 + (i % 5) * 100;
		snprintf(site, sizeof(site), "http://s%d.test", i % 3);
		snprintf(url, sizeof(url), "%s/%lld-%02d", site, (long long)due,
		         i);
		put(s, visit(url, site, due));
		snprintf(want[nwant++], sizeof(want[0]), "%s", url);
	}
	/* Every site: due date, then the whole URL. */
	qsort(want, (size_t)nwant, sizeof(want[0]), by_due_then_url);
	for (int max = 1; max <= 7; max += 3) {
		list_pages(s, NULL, max, &seen);
		assert_int_equal(seen.n, 30);
		for (int i = 0; i < 30; i++)
			assert_string_equal(seen.urls[i], want[i]);
	}
	/* One site: its rows only, same order. */
	list_pages(s, "http://s1.test", 4, &seen);
	for (int i = 0; i < 30; i++)
		if (!strncmp(want[i], "http://s1.test/", 15)) {
			assert_true(nsite < seen.n);
			assert_string_equal(seen.urls[nsite++], want[i]);
		}
	assert_int_equal(seen.n, nsite);
	assert_int_equal(nsite, 10);
	/* max 0: all of them at once. */
	seen = (struct seen){0};
	assert_int_equal(
	        heed_store_visits_list(s, NULL, 0, NULL, 0, collect, &seen),
	        HEED_OK);
	assert_int_equal(seen.n, 30);
	heed_store_close(s);
}

struct summaries {
	struct heed_visit_summary s[4];
	char site[4][24];
	int n;
};

static int keep_summary(void *ud, const struct heed_visit_summary *s)
{
	struct summaries *all = ud;

	assert_true(all->n < 4);
	all->s[all->n] = *s;
	snprintf(all->site[all->n], sizeof(all->site[0]), "%s", s->site);
	all->s[all->n].site = all->site[all->n];
	all->n++;
	return 0;
}

static void put_run(heed_store *s, const char *url, const char *site,
                    int64_t due, int64_t checked, int64_t run,
                    heed_revisit_outcome outcome)
{
	struct heed_visit v = visit(url, site, due);

	v.sched.checked_at = checked;
	v.run_id = run;
	v.last_outcome = outcome;
	put(s, v);
}

static void test_summary(void **state)
{
	const int64_t now = 1000000;
	heed_store *s = heed_test_store_fresh();
	struct summaries all = {0};
	const struct heed_visit_summary *a, *b;

	(void)state;
	/* Site a, run 7 (the last): one unchanged, one changed, one new,
	 * one failed; run 6: one unchanged row not visited since. */
	put_run(s, "http://a.test/1", "http://a.test", now - 10, 500, 7,
	        HEED_REVISIT_UNCHANGED);
	put_run(s, "http://a.test/2", "http://a.test", now, 900, 7,
	        HEED_REVISIT_CHANGED);
	put_run(s, "http://a.test/3", "http://a.test", now + 1, 800, 7,
	        HEED_REVISIT_NEW);
	put_run(s, "http://a.test/4", "http://a.test", now + 86400, 700, 7,
	        HEED_REVISIT_FAILED);
	put_run(s, "http://a.test/5", "http://a.test", now + 86401, 100, 6,
	        HEED_REVISIT_UNCHANGED);
	/* Site b: never checked, nothing due after now. */
	put_run(s, "http://b.test/1", "http://b.test", now - 5, NO_DATE, 0,
	        HEED_REVISIT_NEW);

	assert_int_equal(
	        heed_store_visits_summary(s, NULL, now, keep_summary, &all),
	        HEED_OK);
	assert_int_equal(all.n, 2);
	a = &all.s[0];
	b = &all.s[1];
	assert_string_equal(a->site, "http://a.test");
	assert_int_equal(a->known, 5);
	assert_int_equal(a->due_now, 2);
	assert_int_equal(a->due_day, 2); /* now + 1 and now + 86400 */
	assert_true(a->next_due == now + 1);
	assert_int_equal(a->last_checked, 900);
	assert_int_equal(a->last_run_id, 7);
	assert_int_equal(a->last_visited, 4);
	assert_int_equal(a->last_unchanged, 1);
	assert_int_equal(a->last_changed, 2);

	assert_string_equal(b->site, "http://b.test");
	assert_int_equal(b->known, 1);
	assert_int_equal(b->due_now, 1);
	assert_int_equal(b->due_day, 0);
	assert_true(b->next_due == NO_DATE);
	assert_true(b->last_checked == NO_DATE);
	assert_int_equal(b->last_run_id, 0);
	assert_int_equal(b->last_visited, 1);
	assert_int_equal(b->last_changed, 1);

	/* One site alone; an unknown site calls nothing. */
	all = (struct summaries){0};
	assert_int_equal(heed_store_visits_summary(s, "http://b.test", now,
	                                           keep_summary, &all),
	                 HEED_OK);
	assert_int_equal(all.n, 1);
	assert_string_equal(all.s[0].site, "http://b.test");
	assert_int_equal(all.s[0].known, 1);
	all = (struct summaries){0};
	assert_int_equal(heed_store_visits_summary(s, "http://c.test", now,
	                                           keep_summary, &all),
	                 HEED_OK);
	assert_int_equal(all.n, 0);
	heed_store_close(s);
}

static struct heed_stored_page page(const char *url, const char *host,
                                    int status, int64_t fetched,
                                    int64_t checked)
{
	struct heed_stored_page p = {
	        .url = url,
	        .final_url = url,
	        .host = host,
	        .status = status,
	        .fetched_at = fetched,
	        .checked_at = checked,
	        .views = -1,
	        .etag = "\"v1\"",
	        .source_lastmod = HEED_STORE_NO_DATE,
	        .mode = "full",
	        .record = "{}",
	};
	return p;
}

static void exec_sql(const char *path, const char *sql)
{
	sqlite3 *db;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	/* heed's FTS5 tokenizer: the search index's tables need it. */
	assert_int_equal(heed__sqlite_search_register(db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
}

/* Origins that begin alike ("http://a.test" and its port, a longer host,
 * another scheme, a shorter host) are five sites: a site's URLs, list and
 * summary hold only its own rows, read from its range of the key. */
static void test_sites_sharing_a_prefix(void **state)
{
	static const char *const sites[] = {
	        "http://a.test",  "http://a.test:8080", "http://a.test.b",
	        "https://a.test", "http://a.tes",
	};
	heed_store *s = heed_test_store_fresh();

	(void)state;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(sites); i++) {
		char url[2][48];

		for (int k = 0; k < 2; k++) {
			snprintf(url[k], sizeof(url[k]), "%s/%s", sites[i],
			         k ? "z" : "");
			put(s, visit(url[k], sites[i], 100 + (int64_t)i));
		}
	}
	for (size_t i = 0; i < HEED_ARRAY_SIZE(sites); i++) {
		struct seen seen = {0}, listed = {0};
		struct summaries sum = {0};

		assert_int_equal(heed_store_visits_of_site(s, sites[i],
		                                           HEED_VISIT_ANY_KIND,
		                                           collect, &seen),
		                 HEED_OK);
		assert_int_equal(heed_store_visits_list(s, sites[i], 0, NULL, 0,
		                                        collect, &listed),
		                 HEED_OK);
		assert_int_equal(heed_store_visits_summary(s, sites[i], 1000,
		                                           keep_summary, &sum),
		                 HEED_OK);
		assert_int_equal(seen.n, 2);
		assert_int_equal(listed.n, 2);
		for (int k = 0; k < 2; k++) {
			assert_int_equal(strncmp(seen.urls[k], sites[i],
			                         strlen(sites[i])),
			                 0);
			assert_int_equal(seen.urls[k][strlen(sites[i])], '/');
			assert_string_equal(listed.urls[k], seen.urls[k]);
		}
		assert_int_equal(sum.n, 1);
		assert_string_equal(sum.site[0], sites[i]);
		assert_true(sum.s[0].known == 2);
	}
	heed_store_close(s);
}

/* A store whose pages area holds rows but that has no visits area yet (as
 * an older heed left it) gets one visit row per page on open. */
static void test_migration_fills_from_pages(void **state)
{
	struct heed_stored_page p1 =
	        page("http://a.test/x", "a.test", 200, 1000, 5000);
	struct heed_stored_page p2 =
	        page("https://b.test:8443/y", "b.test:8443", 404, 2000, 2000);
	struct heed_visit got;
	heed_store *s = NULL;
	struct seen seen = {0};
	char path[128];

	(void)state;
	p2.etag = NULL;
	p2.last_modified = "Sat, 21 Nov 2026 10:00:00 GMT";
	snprintf(path, sizeof(path), "%s/old.db", heed_test_dir());
	assert_int_equal(heed_store_open(&s, path, heed_test_allocator(), NULL),
	                 HEED_OK);
	assert_int_equal(heed_store_page_put(s, &p1), HEED_OK);
	assert_int_equal(heed_store_page_put(s, &p2), HEED_OK);
	heed_store_close(s);
	exec_sql(path, "DROP TABLE visits;"
	               "DELETE FROM heed_schema WHERE area = 'visits';");

	assert_int_equal(heed_store_open(&s, path, heed_test_allocator(), NULL),
	                 HEED_OK);
	assert_int_equal(heed_store_visit_get(s, "http://a.test", p1.url, &got),
	                 HEED_OK);
	assert_string_equal(got.site, "http://a.test");
	assert_null(got.found_on);
	assert_int_equal(got.kind, HEED_FRONTIER_PAGE);
	assert_int_equal(got.status, 200);
	assert_string_equal(got.etag, "\"v1\"");
	assert_null(got.last_modified);
	assert_null(got.digest);
	assert_true(got.fresh_until == NO_DATE);
	assert_int_equal(got.sched.interval_s, 86400);
	assert_int_equal(got.sched.checked_at, 5000);
	assert_int_equal(got.sched.changed_at, 1000);
	assert_int_equal(got.sched.due_at, 5000 + 86400);
	assert_int_equal(got.last_outcome, HEED_REVISIT_NEW);
	assert_int_equal(got.run_id, 0);
	assert_int_equal(got.visits, 1);
	assert_int_equal(got.changes, 1);
	heed_store_visit_clear(s, &got);

	assert_int_equal(
	        heed_store_visit_get(s, "https://b.test:8443", p2.url, &got),
	        HEED_OK);
	assert_string_equal(got.site, "https://b.test:8443");
	assert_int_equal(got.status, 404);
	assert_null(got.etag);
	assert_string_equal(got.last_modified, p2.last_modified);
	assert_int_equal(got.sched.due_at, 2000 + 86400);
	heed_store_visit_clear(s, &got);

	/* The site's rows, as the crawl reads them at seed time. */
	assert_int_equal(heed_store_visits_of_site(s, "https://b.test:8443",
	                                           HEED_VISIT_ANY_KIND, collect,
	                                           &seen),
	                 HEED_OK);
	assert_int_equal(seen.n, 1);
	heed_store_close(s);
}

static int plan_row(void *ud, int n, char **cols, char **names)
{
	char *plan = ud;

	(void)names;
	if (n >= 4 && cols[3])
		snprintf(plan + strlen(plan), 256 - strlen(plan), "%s;",
		         cols[3]);
	return 0;
}

/* The names of the indexes of visits, sorted, joined by ';'. */
static int index_name(void *ud, int n, char **cols, char **names)
{
	char *list = ud;

	(void)names;
	if (n >= 1 && cols[0])
		snprintf(list + strlen(list), 256 - strlen(list), "%s;",
		         cols[0]);
	return 0;
}

/* A store of version 1 (its index of kinds held a row for every page, and
 * an index (site, due_at)) opens at version 3 with the sources' index in
 * the first one's place and without the second, its rows kept and a
 * site's sources found. */
static void test_version_1_gets_sources_index(void **state)
{
	struct heed_visit feed =
	        visit("http://a.test/feed", "http://a.test", 3000);
	heed_store *s = NULL;
	struct seen seen = {0};
	char path[128], list[256] = "";
	sqlite3 *db;

	(void)state;
	feed.kind = HEED_FRONTIER_FEED;
	snprintf(path, sizeof(path), "%s/v1.db", heed_test_dir());
	assert_int_equal(heed_store_open(&s, path, heed_test_allocator(), NULL),
	                 HEED_OK);
	put(s, visit("http://a.test/x", "http://a.test", 2000));
	put(s, feed);
	heed_store_close(s);
	exec_sql(path, "DROP INDEX visits_sources;"
	               "CREATE INDEX visits_kind ON visits(site, kind, run_id, "
	               "last_outcome);"
	               "CREATE INDEX visits_due ON visits(site, due_at);"
	               "UPDATE heed_schema SET version = 1 WHERE area = "
	               "'visits';");

	assert_int_equal(heed_store_open(&s, path, heed_test_allocator(), NULL),
	                 HEED_OK);
	assert_int_equal(heed_store_visits_of_site(s, "http://a.test",
	                                           HEED_VISIT_SOURCES, collect,
	                                           &seen),
	                 HEED_OK);
	assert_int_equal(seen.n, 1);
	assert_string_equal(seen.urls[0], "http://a.test/feed");
	heed_store_close(s);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db,
	                              "SELECT name FROM sqlite_master WHERE "
	                              "type = 'index' AND tbl_name = 'visits' "
	                              "AND sql IS NOT NULL ORDER BY name;",
	                              index_name, list, NULL),
	                 SQLITE_OK);
	sqlite3_close(db);
	assert_string_equal(list, "visits_next;visits_sources;");
}

/* The rows the migrations to version 4 must keep: three sites, a
 * sitemap on another host among the first's. */
static struct heed_visit migrated[5];

static void put_migrated(heed_store *s)
{
	migrated[0] = visit("http://a.test/x", "http://a.test", 2000);
	migrated[1] = visit("http://a.test/y", "http://a.test", 3000);
	migrated[2] = visit("http://maps.test/a.xml", "http://a.test", 1000);
	migrated[2].kind = HEED_FRONTIER_SITEMAP;
	migrated[2].etag = "\"m\"";
	migrated[3] = visit("https://b.test:8443/", "https://b.test:8443", 5);
	migrated[4] = visit("http://c.test/p", "http://c.test", 4000);
	migrated[4].digest = "e3b0c44298fc1c149afbf4c8996fb924"
	                     "27ae41e4649b934ca495991b7852b855";
	for (size_t i = 0; i < HEED_ARRAY_SIZE(migrated); i++)
		put(s, migrated[i]);
}

/* Every row kept whole, each found by its site, and a site's rows and
 * sources read from the new key. */
static void assert_migrated(heed_store *s)
{
	struct heed_visit got;
	struct seen seen = {0};
	int version = 0;

	assert_int_equal(heed_store_schema_version(s, "visits", &version),
	                 HEED_OK);
	assert_int_equal(version, 4);
	for (size_t i = 0; i < HEED_ARRAY_SIZE(migrated); i++) {
		assert_int_equal(heed_store_visit_get(s, migrated[i].site,
		                                      migrated[i].url, &got),
		                 HEED_OK);
		assert_same_visit(&migrated[i], &got);
		heed_store_visit_clear(s, &got);
	}
	assert_int_equal(
	        heed_store_visits_list(s, NULL, 0, NULL, 0, collect, &seen),
	        HEED_OK);
	assert_int_equal(seen.n, 5);
	assert_int_equal(
	        rows_of(s, "http://a.test", HEED_VISIT_ANY_KIND, &seen), 3);
	assert_int_equal(rows_of(s, "http://a.test", HEED_VISIT_SOURCES, &seen),
	                 1);
	assert_string_equal(seen.urls[0], "http://maps.test/a.xml");
}

/* The columns of the table, as every version has them. */
#define VISITS_COLUMNS_V3(KEY, BIG)                                          \
	"url TEXT" KEY " PRIMARY KEY, site TEXT" KEY " NOT NULL, found_on "  \
	"TEXT, kind INTEGER NOT NULL, status INTEGER NOT NULL, etag TEXT, "  \
	"last_modified TEXT, digest TEXT, fresh_until " BIG                  \
	", interval_s " BIG " NOT NULL, checked_at " BIG ", changed_at " BIG \
	", due_at " BIG                                                      \
	" NOT NULL, last_outcome INTEGER NOT NULL, run_id " BIG " NOT "      \
	"NULL, visits " BIG " NOT NULL, changes " BIG " NOT NULL"

/* A store of version 3, keyed by URL alone (made here from a new store's
 * rows), opens at version 4 keyed (site, url), its rows kept. */
static void test_version_3_rekeyed(void **state)
{
	heed_store *s = NULL;
	char path[128], list[256] = "";
	sqlite3 *db;

	(void)state;
	snprintf(path, sizeof(path), "%s/v3.db", heed_test_dir());
	assert_int_equal(heed_store_open(&s, path, heed_test_allocator(), NULL),
	                 HEED_OK);
	put_migrated(s);
	heed_store_close(s);
	exec_sql(
	        path,
	        "CREATE TABLE v3 (" VISITS_COLUMNS_V3(
	                "",
	                "INTEGER") ") WITHOUT ROWID;"
	                           "INSERT INTO v3 SELECT * FROM visits;"
	                           "DROP TABLE visits;"
	                           "ALTER TABLE v3 RENAME TO visits;"
	                           "CREATE INDEX visits_next ON visits(due_at);"
	                           "CREATE INDEX visits_sources ON "
	                           "visits(site, kind) "
	                           "WHERE kind <> 0;"
	                           "UPDATE heed_schema SET version = 3 WHERE "
	                           "area = "
	                           "'visits';");
	assert_int_equal(heed_store_open(&s, path, heed_test_allocator(), NULL),
	                 HEED_OK);
	assert_migrated(s);
	heed_store_close(s);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db,
	                              "SELECT name FROM pragma_index_info("
	                              "'sqlite_autoindex_visits_1') ORDER BY "
	                              "seqno;",
	                              index_name, list, NULL),
	                 SQLITE_OK);
	sqlite3_close(db);
	assert_string_equal(list, "site;url;");
}

/* PostgreSQL: a store of version 3, one table keyed by URL, opens at
 * version 4: the table keyed (site, url) and split in sixteen partitions
 * by a hash of the site, each with its indexes, its rows kept. */
static void test_version_3_partitioned_pg(void **state)
{
	char url[256];
	heed_store *s = NULL;

	(void)state;
	heed_test_pg_fresh(url, sizeof(url));
	assert_int_equal(heed_store_open(&s, url, heed_test_allocator(), NULL),
	                 HEED_OK);
	put_migrated(s);
	heed_store_close(s);
	heed_test_pg_sql(
	        url,
	        "CREATE TABLE v3 (" VISITS_COLUMNS_V3(
	                " COLLATE \"C\"",
	                "BIGINT") ");"
	                          "INSERT INTO v3 SELECT * FROM visits;"
	                          "DROP TABLE visits;"
	                          "ALTER TABLE v3 RENAME TO visits;"
	                          "CREATE INDEX visits_next ON visits(due_at, "
	                          "url);"
	                          "CREATE INDEX visits_sources ON visits(site, "
	                          "kind, url) WHERE kind <> 0;"
	                          "UPDATE heed_schema SET version = 3 WHERE "
	                          "area "
	                          "= 'visits';");
	assert_int_equal(heed_test_pg_partitions(url, "visits"), 0);
	assert_int_equal(heed_store_open(&s, url, heed_test_allocator(), NULL),
	                 HEED_OK);
	assert_migrated(s);
	heed_store_close(s);
	assert_int_equal(heed_test_pg_partitions(url, "visits"), 16);
	assert_string_equal(
	        heed_test_pg_sql(url, "SELECT pg_get_partkeydef('visits'::"
	                              "regclass) || ' ' || "
	                              "pg_get_constraintdef(oid) FROM "
	                              "pg_constraint WHERE conname = "
	                              "'visits_pkey';"),
	        "HASH (site) PRIMARY KEY (site, url)");
	/* The key's and the two indexes' in each partition. */
	assert_string_equal(
	        heed_test_pg_sql(url, "SELECT count(*) FROM pg_indexes WHERE "
	                              "tablename LIKE 'visits\\_%';"),
	        "48");
}

/* The query plan of sql on a new SQLite store, its steps joined by ';'. */
static void plan_of(const char *sql, char plan[256])
{
	char path[128];
	heed_store *s = NULL;
	sqlite3 *db;

	plan[0] = '\0';
	snprintf(path, sizeof(path), "%s/plan.db", heed_test_dir());
	assert_int_equal(heed_store_open(&s, path, heed_test_allocator(), NULL),
	                 HEED_OK);
	heed_store_close(s);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	/* heed's FTS5 tokenizer: the search index's tables need it. */
	assert_int_equal(heed__sqlite_search_register(db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, sql, plan_row, plan, NULL),
	                 SQLITE_OK);
	sqlite3_close(db);
}

/* The text of the statement a store call ran on the visits table, as
 * SQLite's trace saw it run (its unexpanded SQL). */
struct traced {
	char sql[2048];
	int statements; /* how many statements read the visits table */
};

static int on_statement(unsigned type, void *ctx, void *stmt, void *text)
{
	struct traced *t = ctx;
	const char *sql = text;

	(void)type;
	(void)stmt;
	if (!strstr(sql, "FROM visits"))
		return 0;
	if (t->statements++ == 0)
		snprintf(t->sql, sizeof(t->sql), "EXPLAIN QUERY PLAN %s", sql);
	return 0;
}

/* The query plan of the one statement that call ran on the visits table
 * of a new store: the plans are read from the code's own statements, so a
 * change to a statement is seen by the test that checks its plan. */
typedef void visits_call_fn(heed_store *s);

static void plan_of_call(visits_call_fn *call, char plan[256])
{
	char path[128];
	heed_store *s = NULL;
	struct traced t = {.statements = 0};

	snprintf(path, sizeof(path), "%s/plan.db", heed_test_dir());
	assert_int_equal(heed_store_open(&s, path, heed_test_allocator(), NULL),
	                 HEED_OK);
	assert_int_equal(sqlite3_trace_v2(heed__sqlite_db(s), SQLITE_TRACE_STMT,
	                                  on_statement, &t),
	                 SQLITE_OK);
	call(s);
	heed_store_close(s);
	assert_int_equal(t.statements, 1);
	plan_of(t.sql, plan);
}

static int ignore_visit(void *ud, const struct heed_visit *v)
{
	(void)ud;
	(void)v;
	return 0;
}

static int ignore_summary(void *ud, const struct heed_visit_summary *v)
{
	(void)ud;
	(void)v;
	return 0;
}

static void list_after_cursor(heed_store *s)
{
	assert_int_equal(heed_store_visits_list(s, "http://a.test", 5,
	                                        "http://a.test/x", 20,
	                                        ignore_visit, NULL),
	                 HEED_OK);
}

static void rows_of_site(heed_store *s)
{
	assert_int_equal(heed_store_visits_of_site(s, "http://a.test",
	                                           HEED_VISIT_ANY_KIND,
	                                           ignore_visit, NULL),
	                 HEED_OK);
}

static void sources_of_site(heed_store *s)
{
	assert_int_equal(heed_store_visits_of_site(s, "http://a.test",
	                                           HEED_VISIT_SOURCES,
	                                           ignore_visit, NULL),
	                 HEED_OK);
}

static void summary_of_every_site(heed_store *s)
{
	assert_int_equal(
	        heed_store_visits_summary(s, NULL, 1000, ignore_summary, NULL),
	        HEED_OK);
}

static void summary_of_site(heed_store *s)
{
	assert_int_equal(heed_store_visits_summary(s, "http://a.test", 1000,
	                                           ignore_summary, NULL),
	                 HEED_OK);
}

/* A site's list by due date and its rows in URL order
 * (heed_store_visits_list's and heed_store_visits_of_site's statements)
 * read one range of the key, the site's rows: never the whole table,
 * whatever its size; the rows in URL order need no sort. */
static void test_site_rows_are_one_range_of_the_key(void **state)
{
	static const char range[] = "SEARCH visits USING PRIMARY KEY (site=?)";
	char plan[256];

	(void)state;
	plan_of_call(list_after_cursor, plan);
	if (!strstr(plan, range) || strstr(plan, "SCAN visits"))
		fail_msg("a site's list: %s", plan);
	plan_of_call(rows_of_site, plan);
	if (!strstr(plan, range) || strstr(plan, "TEMP B-TREE") ||
	    strchr(plan, ';') - plan + 1 != (ptrdiff_t)strlen(plan))
		fail_msg("a site's rows: %s", plan);
}

/* The partitions of visits a plan reads ("visits_N"), each named once,
 * joined by ','. */
static void partitions_named(const char *plan, char *out, size_t size)
{
	out[0] = '\0';
	for (const char *p = plan; (p = strstr(p, " on visits_")) != NULL;) {
		char name[24];
		int len;

		p += 4;
		len = (int)strspn(p + 7, "0123456789");
		snprintf(name, sizeof(name), "%.*s,", 7 + len, p);
		if (!strstr(out, name))
			snprintf(out + strlen(out), size - strlen(out), "%s",
			         name);
	}
}

/* sql's plan on url reads one partition of visits, by its key's index
 * (visits_N_pkey) or the sources' (index), never a table whole. */
static void assert_one_partition(const char *url, const char *sql,
                                 const char *index)
{
	char plan[2048], parts[256];

	heed_test_pg_plan(url, sql, plan, sizeof(plan));
	partitions_named(plan, parts, sizeof(parts));
	if (strchr(parts, ',') != parts + strlen(parts) - 1 ||
	    !strstr(plan, index) || strstr(plan, "Seq Scan"))
		fail_msg("%s: %s", sql, plan);
}

/* PostgreSQL: with 20,000 rows of 1,000 sites, ANALYZEd, a site's list, a
 * URL's row and a site's sources read one partition of the table, by the
 * key's index or the sources'; planned once for any site (as the crawl's
 * statements are), the plan prunes the other fifteen partitions when it
 * starts. */
static void test_site_rows_are_one_range_of_the_key_pg(void **state)
{
	char url[256], plan[4096];
	heed_store *s = NULL;

	(void)state;
	heed_test_pg_fresh(url, sizeof(url));
	assert_int_equal(heed_store_open(&s, url, heed_test_allocator(), NULL),
	                 HEED_OK);
	heed_store_close(s);
	assert_int_equal(heed_test_pg_partitions(url, "visits"), 16);
	heed_test_pg_sql(url, "INSERT INTO visits(url, site, kind, status, "
	                      "interval_s, due_at, last_outcome, run_id, "
	                      "visits, changes) SELECT 'https://s' || i % 1000 "
	                      "|| '.example/' || i, 'https://s' || i % 1000 || "
	                      "'.example', CASE WHEN i < 500 THEN 1 ELSE 0 "
	                      "END, 200, 86400, i, 0, 1, 1, 0 FROM "
	                      "generate_series(1, 20000) i;");
	heed_test_pg_sql(url, "ANALYZE;");
	assert_one_partition(url,
	                     "EXPLAIN SELECT * FROM visits WHERE site = "
	                     "'https://s7.example' ORDER BY due_at, url "
	                     "LIMIT 20;",
	                     "_pkey");
	assert_one_partition(url,
	                     "EXPLAIN SELECT * FROM visits WHERE site = "
	                     "'https://s7.example' AND url = "
	                     "'https://s7.example/1007';",
	                     "_pkey");
	assert_one_partition(url,
	                     "EXPLAIN SELECT * FROM visits WHERE site = "
	                     "'https://s7.example' AND kind <> 0 AND kind IN "
	                     "(-1, 1, 2) ORDER BY url;",
	                     "_site_kind_url_idx");
	heed_test_pg_plan(url,
	                  "PREPARE one(text) AS SELECT * FROM visits WHERE "
	                  "site = $1 AND url = $1 || '/7';"
	                  "SET plan_cache_mode = force_generic_plan;"
	                  "EXPLAIN EXECUTE one('https://s7.example');",
	                  plan, sizeof(plan));
	if (!strstr(plan, "Subplans Removed: 15"))
		fail_msg("a URL's row, planned for any site: %s", plan);
}

/* A row is its site's: a URL that two sites' crawls asked (a sitemap on
 * a shared host) is a row of each, read, listed and counted with its own
 * site only; in one batch too, where PostgreSQL holds the rows back. */
static void test_a_url_of_two_sites(void **state)
{
	struct heed_visit a =
	        visit("http://maps.test/sitemap.xml", "http://a.test", 1000);
	struct heed_visit b =
	        visit("http://maps.test/sitemap.xml", "http://b.test", 2000);
	heed_store *s = heed_test_store_fresh();
	struct heed_visit got;

	(void)state;
	a.kind = b.kind = HEED_FRONTIER_SITEMAP;
	assert_int_equal(heed_store_begin_batch(s), HEED_OK);
	put(s, a);
	put(s, b);
	put(s, visit("http://a.test/", "http://a.test", 1500));
	assert_int_equal(heed_store_commit(s), HEED_OK);
	assert_int_equal(heed_store_visit_get(s, "http://a.test", a.url, &got),
	                 HEED_OK);
	assert_same_visit(&a, &got);
	heed_store_visit_clear(s, &got);
	assert_int_equal(heed_store_visit_get(s, "http://b.test", b.url, &got),
	                 HEED_OK);
	assert_same_visit(&b, &got);
	heed_store_visit_clear(s, &got);
	assert_int_equal(
	        heed_store_visit_get(s, "http://maps.test", a.url, &got),
	        HEED_ENOTFOUND);
	for (int i = 0; i < 2; i++) {
		const char *site = i ? "http://b.test" : "http://a.test";
		struct seen seen;

		assert_int_equal(rows_of(s, site, HEED_VISIT_SOURCES, &seen),
		                 1);
		assert_string_equal(seen.urls[0], a.url);
		memset(&seen, 0, sizeof(seen));
		assert_int_equal(heed_store_visits_list(s, site, 0, NULL, 0,
		                                        collect, &seen),
		                 HEED_OK);
		assert_int_equal(seen.n, 2 - i);
	}
	heed_store_close(s);
}

/* The relations of visits this process's session holds a lock on,
 * joined by ',' into out (a read inside a batch keeps its locks until the
 * commit). */
static void visits_locked(const char *url, char *out, size_t size)
{
	char sql[400];

	snprintf(sql, sizeof(sql),
	         "SELECT coalesce(string_agg(DISTINCT l.relation::regclass::"
	         "text, ','), '') FROM pg_locks l JOIN pg_stat_activity a ON "
	         "a.pid = l.pid WHERE a.application_name = 'heed[%ld]' AND "
	         "l.relation::regclass::text LIKE 'visits%%';",
	         (long)getpid());
	snprintf(out, size, "%s", heed_test_pg_sql(url, sql));
}

/* A URL's row is read from its site's partition by name. Over the whole
 * table, PostgreSQL would plan the read again at every run (it prices a
 * plan for any site at all sixteen partitions), or, made to keep one plan
 * (plan_cache_mode = force_generic_plan, as here), lock every partition
 * and its indexes at each run: by name, it keeps one plan that reads one
 * partition. Rows of sites in every partition are read back right, by a
 * site's first read and by later ones (its partition kept), in batches
 * (statements prepared) and outside them, and a URL the store has no row
 * of reads none. A site's rows are read from its partition so too. */
static void test_a_url_read_names_its_partition_pg(void **state)
{
	char url[256], site[64], page[96], want[64], sql[256], locks[512];
	heed_store *s = NULL;
	struct heed_visit got;
	struct seen seen_rows;
	bool parts[16] = {false};
	int seen = 0, own = 0;

	(void)state;
	heed_test_pg_fresh(url, sizeof(url));
	heed_test_pg_sql(url, "DO $$BEGIN EXECUTE format('ALTER DATABASE %I "
	                      "SET plan_cache_mode = force_generic_plan', "
	                      "current_database()); END$$;");
	assert_int_equal(heed_store_open(&s, url, heed_test_allocator(), NULL),
	                 HEED_OK);
	assert_int_equal(heed_store_begin_batch(s), HEED_OK);
	for (int i = 0; i < 128; i++) {
		snprintf(site, sizeof(site), "https://s%d.example", i);
		snprintf(page, sizeof(page), "%s/p/%d.html", site, i);
		put(s, visit(page, site, 1000 + i));
	}
	assert_int_equal(heed_store_commit(s), HEED_OK);
	for (int round = 0; round < 2; round++) {
		if (round)
			assert_int_equal(heed_store_begin_batch(s), HEED_OK);
		for (int i = 0; i < 128; i++) {
			snprintf(site, sizeof(site), "https://s%d.example", i);
			snprintf(page, sizeof(page), "%s/p/%d.html", site, i);
			assert_int_equal(
			        heed_store_visit_get(s, site, page, &got),
			        HEED_OK);
			assert_string_equal(got.url, page);
			assert_string_equal(got.site, site);
			assert_int_equal(got.sched.due_at, 1000 + i);
			heed_store_visit_clear(s, &got);
			snprintf(page, sizeof(page), "%s/p/none.html", site);
			assert_int_equal(
			        heed_store_visit_get(s, site, page, &got),
			        HEED_ENOTFOUND);
		}
		if (round)
			assert_int_equal(heed_store_commit(s), HEED_OK);
	}
	for (int i = 0; i < 128; i++) {
		int n;

		snprintf(sql, sizeof(sql),
		         "SELECT substr(tableoid::regclass::text, 8) FROM "
		         "visits WHERE site = 'https://s%d.example';",
		         i);
		n = atoi(heed_test_pg_sql(url, sql));
		assert_in_range(n, 0, 15);
		seen += !parts[n];
		parts[n] = true;
	}
	assert_int_equal(seen, 16);

	assert_int_equal(heed_store_begin_batch(s), HEED_OK);
	assert_int_equal(heed_store_visit_get(s, "https://s7.example",
	                                      "https://s7.example/p/7.html",
	                                      &got),
	                 HEED_OK);
	heed_store_visit_clear(s, &got);
	assert_int_equal(rows_of(s, "https://s7.example", HEED_VISIT_ANY_KIND,
	                         &seen_rows),
	                 1);
	assert_int_equal(rows_of(s, "https://s7.example", HEED_VISIT_SOURCES,
	                         &seen_rows),
	                 0);
	snprintf(want, sizeof(want), "%s",
	         heed_test_pg_sql(url, "SELECT tableoid::regclass::text FROM "
	                               "visits WHERE site = "
	                               "'https://s7.example';"));
	visits_locked(url, locks, sizeof(locks));
	assert_int_equal(heed_store_commit(s), HEED_OK);
	/* Its own partition is locked, and the table itself (a partition
	 * read by name locks its parent), but no other partition nor index
	 * of one: by the URL's read nor by the site's. */
	for (char *save = NULL, *rel = strtok_r(locks, ",", &save); rel;
	     rel = strtok_r(NULL, ",", &save)) {
		size_t n = strlen(want);

		own += strcmp(rel, want) == 0;
		if (strcmp(rel, "visits") != 0 &&
		    (strncmp(rel, want, n) != 0 ||
		     (rel[n] != '\0' && rel[n] != '_')))
			fail_msg("a read of a URL in %s locked %s", want, rel);
	}
	assert_int_equal(own, 1);
	heed_store_close(s);
}

/* The relations like pattern this process's session has written in its
 * open transaction (RowExclusiveLock), joined by ',', into out: "" while
 * the batch still holds its rows of them. */
static void written(const char *url, const char *pattern, char *out,
                    size_t size)
{
	char sql[480];

	snprintf(sql, sizeof(sql),
	         "SELECT coalesce(string_agg(DISTINCT l.relation::regclass::"
	         "text, ','), '') FROM pg_locks l JOIN pg_stat_activity a ON "
	         "a.pid = l.pid WHERE a.application_name = 'heed[%ld]' AND "
	         "l.mode = 'RowExclusiveLock' AND l.relation::regclass::text "
	         "LIKE '%s';",
	         (long)getpid(), pattern);
	snprintf(out, size, "%s", heed_test_pg_sql(url, sql));
}

/* Whether the page of url is written in another session's open
 * transaction: an insert of the same URL then waits for it, past the lock
 * timeout. */
static const char *page_written_elsewhere(const char *url, const char *page)
{
	char sql[900];

	snprintf(sql, sizeof(sql),
	         "SET lock_timeout = '300ms';"
	         "CREATE FUNCTION pg_temp.probe(u text) RETURNS text LANGUAGE "
	         "plpgsql AS $$BEGIN BEGIN INSERT INTO pages(url, host, "
	         "status, fetched_at, checked_at) VALUES(u, 'x', 200, 0, 0) "
	         "ON CONFLICT (url) DO NOTHING; RAISE EXCEPTION 'undone'; "
	         "EXCEPTION WHEN lock_not_available THEN RETURN 'written'; "
	         "WHEN raise_exception THEN RETURN 'not written'; END; "
	         "END$$;"
	         "SELECT pg_temp.probe('%s');",
	         page);
	return heed_test_pg_sql(url, sql);
}

static int count_visit(void *ud, const struct heed_visit *v)
{
	(void)v;
	(*(int *)ud)++;
	return 0;
}

/* A batch's held visits and pages stay held across the reads a crawl
 * makes between them of other rows: a URL's visit, a site's visits, a
 * page's validators, a list's page dates, a page's 304 (each sent them
 * first, a statement a read, where a recrawl reads between almost every
 * two writes). A read of a row held, or of the site of one, or a list
 * naming one, sees it. */
static void test_reads_of_other_rows_keep_held_pg(void **state)
{
	static const char *const other_pages[] = {"https://a.example/9",
	                                          "https://a.example/1"};
	static const char *const with_held[] = {"https://a.example/9",
	                                        "https://a.example/4"};
	int64_t fetched[2], listed[2];
	char url[256], locks[256];
	heed_store *s = NULL;
	struct heed_visit got;
	struct heed_page_validators v;
	struct heed_stored_page p = {
	        .url = "https://a.example/1",
	        .final_url = "https://a.example/1",
	        .host = "https://a.example",
	        .status = 200,
	        .fetched_at = 100,
	        .checked_at = 100,
	        .title = "A",
	        .views = -1,
	        .etag = "\"a1\"",
	        .source_lastmod = NO_DATE,
	        .mode = "full",
	        .record = "{}",
	};
	int rows = 0;

	(void)state;
	heed_test_pg_fresh(url, sizeof(url));
	assert_int_equal(heed_store_open(&s, url, heed_test_allocator(), NULL),
	                 HEED_OK);
	put(s, visit("https://b.example/1", "https://b.example", 500));
	assert_int_equal(heed_store_page_put(s, &p), HEED_OK);

	assert_int_equal(heed_store_begin_batch(s), HEED_OK);
	put(s, visit("https://a.example/1", "https://a.example", 1000));
	p.url = p.final_url = "https://a.example/2";
	p.etag = "\"a2\"";
	assert_int_equal(heed_store_page_put(s, &p), HEED_OK);
	written(url, "visits%", locks, sizeof(locks));
	assert_string_equal(locks, "");
	written(url, "pages", locks, sizeof(locks));
	assert_string_equal(locks, "");
	assert_int_equal(heed_store_visit_get(s, "https://b.example",
	                                      "https://b.example/1", &got),
	                 HEED_OK);
	assert_int_equal(got.sched.due_at, 500);
	heed_store_visit_clear(s, &got);
	assert_int_equal(heed_store_visit_get(s, "https://a.example",
	                                      "https://a.example/0", &got),
	                 HEED_ENOTFOUND);
	assert_int_equal(heed_store_visits_of_site(s, "https://b.example",
	                                           HEED_VISIT_ANY_KIND,
	                                           count_visit, &rows),
	                 HEED_OK);
	assert_int_equal(rows, 1);
	assert_int_equal(
	        heed_store_page_validators(s, "https://a.example/1", &v),
	        HEED_OK);
	assert_string_equal(v.etag, "\"a1\"");
	assert_int_equal(heed_store_page_unchanged(s, "https://a.example/1",
	                                           200, NO_DATE),
	                 HEED_OK);
	assert_int_equal(
	        heed_store_page_dates(s, other_pages, 2, fetched, listed),
	        HEED_OK);
	assert_int_equal(fetched[0], NO_DATE);
	assert_int_equal(fetched[1], 100);
	written(url, "visits%", locks, sizeof(locks));
	assert_string_equal(locks, "");
	assert_string_equal(page_written_elsewhere(url, "https://a.example/2"),
	                    "not written");

	/* The held rows' own reads see them. */
	assert_int_equal(
	        heed_store_page_validators(s, "https://a.example/2", &v),
	        HEED_OK);
	assert_string_equal(v.etag, "\"a2\"");
	assert_string_equal(page_written_elsewhere(url, "https://a.example/2"),
	                    "written");
	rows = 0;
	assert_int_equal(heed_store_visits_of_site(s, "https://a.example",
	                                           HEED_VISIT_ANY_KIND,
	                                           count_visit, &rows),
	                 HEED_OK);
	assert_int_equal(rows, 1);
	put(s, visit("https://a.example/3", "https://a.example", 3000));
	assert_int_equal(heed_store_visit_get(s, "https://a.example",
	                                      "https://a.example/3", &got),
	                 HEED_OK);
	assert_int_equal(got.sched.due_at, 3000);
	heed_store_visit_clear(s, &got);
	p.url = p.final_url = "https://a.example/4";
	p.fetched_at = 400;
	assert_int_equal(heed_store_page_put(s, &p), HEED_OK);
	assert_int_equal(
	        heed_store_page_dates(s, with_held, 2, fetched, listed),
	        HEED_OK);
	assert_int_equal(fetched[0], NO_DATE);
	assert_int_equal(fetched[1], 400);
	assert_string_equal(page_written_elsewhere(url, "https://a.example/4"),
	                    "written");
	assert_int_equal(heed_store_commit(s), HEED_OK);
	assert_string_equal(
	        heed_test_pg_sql(url, "SELECT count(*) FROM visits;"), "3");
	assert_string_equal(
	        heed_test_pg_sql(url, "SELECT count(*) FROM pages;"), "3");
	heed_store_close(s);
}

/* The number of times needle occurs in hay. */
static int occurrences(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = hay; (p = strstr(p, needle)) != NULL; p++)
		n++;
	return n;
}

/* The summary (heed_store_visits_summary's statement, as it runs) reads
 * the table once, or the site's range of the key once: no join of the table to
 * itself by site, which without an index leading with the site read the table
 * once per site (500,000 rows of 10,000 sites: minutes, where one pass takes
 * two seconds). */
static void test_summary_reads_the_table_once(void **state)
{
	char plan[256];

	(void)state;
	plan_of_call(summary_of_every_site, plan);
	if (occurrences(plan, "visits") != 1 || !strstr(plan, "SCAN visits"))
		fail_msg("every site's summary: %s", plan);
	plan_of_call(summary_of_site, plan);
	if (occurrences(plan, "visits") != 1 ||
	    !strstr(plan, "SEARCH visits USING PRIMARY KEY (site=?)"))
		fail_msg("a site's summary: %s", plan);
}

/* A site's sitemaps and feeds (heed_store_visits_of_site without pages,
 * as the crawl asks at each site's start) come from the index that holds
 * no page: the crawl does not read the site's pages to find them. */
static void test_sources_read_no_page(void **state)
{
	char plan[256];

	(void)state;
	plan_of_call(sources_of_site, plan);
	if (!strstr(plan, "USING INDEX visits_sources (site=? AND kind=?)"))
		fail_msg("a site's sources: %s", plan);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_put_get_every_field),
	        cmocka_unit_test(test_get_out_of_memory),
	        cmocka_unit_test(test_put_replaces),
	        cmocka_unit_test(test_of_site),
	        cmocka_unit_test(test_rows_of_urls),
	        cmocka_unit_test(test_list_cursor),
	        cmocka_unit_test(test_summary),
	        cmocka_unit_test(test_migration_fills_from_pages),
	        cmocka_unit_test(test_sites_sharing_a_prefix),
	        cmocka_unit_test(test_a_url_of_two_sites),
	        cmocka_unit_test(test_site_rows_are_one_range_of_the_key),
	        cmocka_unit_test(test_summary_reads_the_table_once),
	        cmocka_unit_test(test_sources_read_no_page),
	        cmocka_unit_test(test_version_1_gets_sources_index),
	        cmocka_unit_test(test_version_3_rekeyed),
	};
	/* The same tests on PostgreSQL (unit.store_visits_pg),
	 * each on a database of its own; the others are about SQLite's
	 * files, allocator and plans. */
	const struct CMUnitTest pg_tests[] = {
	        cmocka_unit_test(test_put_get_every_field),
	        cmocka_unit_test(test_put_replaces),
	        cmocka_unit_test(test_of_site),
	        cmocka_unit_test(test_rows_of_urls),
	        cmocka_unit_test(test_list_cursor),
	        cmocka_unit_test(test_summary),
	        cmocka_unit_test(test_sites_sharing_a_prefix),
	        cmocka_unit_test(test_a_url_of_two_sites),
	        cmocka_unit_test(test_site_rows_are_one_range_of_the_key_pg),
	        cmocka_unit_test(test_version_3_partitioned_pg),
	        cmocka_unit_test(test_a_url_read_names_its_partition_pg),
	        cmocka_unit_test(test_reads_of_other_rows_keep_held_pg),
	};

	if (heed_test_pg())
		return cmocka_run_group_tests_name("store_visits_pg", pg_tests,
		                                   NULL, NULL);
	return cmocka_run_group_tests(tests, heed_test_make_dir,
	                              heed_test_remove_dir);
}
