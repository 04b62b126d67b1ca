/*
 * Unit tests for the store's "search" area: pages written with
 * heed_store_page_put into a store file, searched through a second,
 * read-only connection as `heed serve` does. Ranking, filters, cursor
 * pagination, what may never be listed, take-downs, updates, 304s, a bad
 * match, reindex, hostile tags and the chart buckets.
 *
 * Run a second time against PostgreSQL (unit.store_search_pg): each test
 * then gets a database of its own instead of a file, and the tests that
 * build or read a SQLite file themselves (older versions of the area)
 * run on SQLite only.
 */
#include "pg_test.h"

#include <sqlite3.h>
#include <unistd.h>

#include "heed/store_pages.h"
#include "heed/store_search.h"
#include "store/grams-int.h"

#define NOW  1800000000 /* 2027-01-15 */
#define DAY  86400
#define MAXH 256

static char path[256]; /* a store file, or a PostgreSQL URL */
static int serial;

/* A new store file per test, open for writing. */
static heed_store *open_writer(void)
{
	heed_store *s = NULL;

	if (heed_test_pg())
		heed_test_pg_fresh(path, sizeof(path));
	else
		snprintf(path, sizeof(path), "%s/s%d.db", heed_test_dir(),
		         serial++);
	assert_int_equal(heed_store_open(&s, path, heed_test_allocator(), NULL),
	                 HEED_OK);
	return s;
}

static heed_store *open_reader(void)
{
	heed_store *s = NULL;

	assert_int_equal(heed_store_open_ex(&s, path, HEED_STORE_OPEN_READONLY,
	                                    heed_test_allocator(), NULL),
	                 HEED_OK);
	return s;
}

struct spec {
	const char *url;
	const char *host;
	const char *title;
	const char *description;
	const char *tags; /* JSON array text of tag strings, or NULL */
	const char *language;
	const char *published;
	int64_t views;
	int64_t fetched_at;
	int status;
	const char *permissions;
};

/* Writes the page of sp, which marks it for the index. */
static void write_page(heed_store *s, const struct spec *sp)
{
	char record[2048], tags[1024] = "[]";
	struct heed_stored_page p = {0};

	if (sp->tags) {
		/* ["a","b"] -> [{"value":"a","source":"meta"},...] */
		char *o = tags;
		const char *t = sp->tags;
		o += sprintf(o, "[");
		while ((t = strchr(t, '"'))) {
			const char *end = t + 1;
			while (*end && !(*end == '"' && end[-1] != '\\'))
				end++;
			o += sprintf(
			        o, "%s{\"value\":%.*s,\"source\":\"meta\"}",
			        o[-1] == '[' ? "" : ",", (int)(end - t + 1), t);
			t = end + 1;
		}
		sprintf(o, "]");
	}
	snprintf(record, sizeof(record),
	         "{\"title\":{\"value\":\"%s\",\"source\":\"title\"},"
	         "\"description\":{\"value\":\"%s\",\"source\":\"meta\"},"
	         "\"language\":{\"value\":\"%s\",\"source\":\"html\"},"
	         "\"site_name\":{\"value\":\"Site of %s\",\"source\":\"og\"},"
	         "\"tags\":%s}",
	         sp->title ? sp->title : "",
	         sp->description ? sp->description : "",
	         sp->language ? sp->language : "en", sp->host, tags);
	p.url = sp->url;
	p.final_url = sp->url;
	p.host = sp->host;
	p.status = sp->status ? sp->status : 200;
	p.fetched_at = sp->fetched_at ? sp->fetched_at : NOW - DAY;
	p.checked_at = p.fetched_at;
	p.title = sp->title;
	p.views = sp->views;
	p.published = sp->published;
	p.source_lastmod = HEED_STORE_NO_DATE;
	/* Permissions that withhold nothing: a page stored without any shows
	 * no description, so its description is not searchable. */
	p.permissions = sp->permissions ? sp->permissions : "{}";
	p.mode = "full";
	p.record = record;
	assert_int_equal(heed_store_page_put(s, &p), HEED_OK);
}

/* Writes the page of sp, then the index catches up with it, as heed crawl
 * does every second or two: readers (heed serve) find it from then on. */
static void put(heed_store *s, const struct spec *sp)
{
	write_page(s, sp);
	assert_int_equal(heed_store_search_catch_up(s, 0, NULL), HEED_OK);
}

/* What a search gave. */
struct hits {
	int n;
	int64_t ids[MAXH];
	char urls[MAXH][64];
	char titles[MAXH][64];
	struct heed_search_cursor last;
};

static int collect(void *ud, const struct heed_search_hit *h)
{
	struct hits *r = ud;

	assert_true(r->n < MAXH);
	r->ids[r->n] = h->id;
	snprintf(r->urls[r->n], sizeof(r->urls[0]), "%s", h->page.url);
	snprintf(r->titles[r->n], sizeof(r->titles[0]), "%s",
	         h->page.title ? h->page.title : "");
	r->last = h->cursor;
	r->n++;
	return 0;
}

static struct heed_search_query query(const char *match)
{
	struct heed_search_query q = {
	        .match = match,
	        .published_from_s = HEED_STORE_NO_DATE,
	        .published_to_s = HEED_STORE_NO_DATE,
	        .min_views = -1,
	        .max_views = -1,
	        .limit = 50,
	        .now_s = NOW,
	};
	return q;
}

static int search(heed_store *s, const struct heed_search_query *q,
                  struct hits *r)
{
	bool more = false;
	struct heed_diag d = {0};

	memset(r, 0, sizeof(*r));
	assert_int_equal(heed_store_search(s, q, collect, r, &more, &d),
	                 HEED_OK);
	return r->n;
}

static int64_t count_up_to(heed_store *s, const struct heed_search_query *q,
                           int64_t cap)
{
	int64_t n = -1;

	assert_int_equal(heed_store_search_count(s, q, cap, &n, NULL), HEED_OK);
	return n;
}

static int64_t count(heed_store *s, const struct heed_search_query *q)
{
	return count_up_to(s, q, 1000);
}

static void test_ranking_title_beats_description(void **state)
{
	heed_store *w = open_writer(), *r;
	struct hits h;
	struct heed_search_query q = query("kestrel");

	(void)state;
	put(w, &(struct spec){"http://a.example/1", "a.example", "About birds",
	                      "The kestrel hovers", NULL, NULL, NULL, -1});
	put(w, &(struct spec){"http://a.example/2", "a.example", "The kestrel",
	                      "A small falcon", NULL, NULL, NULL, -1});
	put(w, &(struct spec){"http://a.example/3", "a.example", "Other",
	                      "Nothing", NULL, NULL, NULL, -1});
	r = open_reader();
	assert_int_equal(search(r, &q, &h), 2);
	assert_string_equal(h.urls[0], "http://a.example/2");
	assert_string_equal(h.urls[1], "http://a.example/1");
	/* Diacritics folded, tags and site name searchable. */
	q.match = "késtrel";
	assert_int_equal(search(r, &q, &h), 2);
	q.match = "site:\"Site of a.example\"";
	assert_int_equal(search(r, &q, &h), 3);
	heed_store_close(r);
	heed_store_close(w);
}

/* The freshness boost counts a page's age in the query's UTC day, so a
 * relevance search gives the same scores all day long and the cursor of
 * its first page stays exact for the next one, hours later. */
static void test_relevance_scores_hold_within_a_day(void **state)
{
	heed_store *w = open_writer(), *r;
	struct heed_search_query q = query("kestrel");
	struct hits morning, evening;
	int64_t day = NOW / DAY * DAY;

	(void)state;
	put(w, &(struct spec){"http://a.example/1", "a.example", "The kestrel",
	                      "A small falcon", NULL, NULL, NULL, -1});
	r = open_reader();
	q.now_s = day + 60;
	assert_int_equal(search(r, &q, &morning), 1);
	q.now_s = day + DAY - 60;
	assert_int_equal(search(r, &q, &evening), 1);
	assert_true(morning.last.score == evening.last.score);
	q.now_s = day + DAY + 60; /* the next day: one day older */
	assert_int_equal(search(r, &q, &evening), 1);
	assert_true(morning.last.score < evening.last.score);
	heed_store_close(r);
	heed_store_close(w);
}

static void test_filters(void **state)
{
	heed_store *w = open_writer(), *r;
	struct hits h;
	struct heed_search_query q = query(NULL);

	(void)state;
	put(w, &(struct spec){"http://a.example/1", "a.example", "One", "x",
	                      "[\"birds\",\"owls\"]", "en", "2026-01-10", 5});
	put(w, &(struct spec){"http://a.example/2", "a.example", "Two", "x",
	                      "[\"birds\"]", "en-GB", "2026-03-05T09:00:00Z",
	                      500});
	put(w, &(struct spec){"http://b.example:8080/3", "b.example:8080",
	                      "Three", "x", "[\"cats\"]", "eng", NULL, -1});
	put(w, &(struct spec){"http://b.example:8080/4", "b.example:8080",
	                      "Four", "x", "[\"birds\"]", "FR",
	                      "2026-06-01T00:00:00.250Z", 50});
	r = open_reader();
	assert_int_equal(count(r, &q), 4);
	{
		int64_t capped = 0;
		assert_int_equal(
		        heed_store_search_count(r, &q, 3, &capped, NULL),
		        HEED_OK);
		assert_int_equal(capped, 3);
	}
	q.host = "b.example:8080";
	assert_int_equal(search(r, &q, &h), 2);
	assert_int_equal(count(r, &q), 2);
	q.host = NULL;
	q.tag = "birds";
	assert_int_equal(search(r, &q, &h), 3);
	q.host = "a.example";
	assert_int_equal(search(r, &q, &h), 2);
	q.match = "two";
	assert_int_equal(search(r, &q, &h), 1);
	assert_int_equal(count(r, &q), 1);
	q = query(NULL);
	q.language = "en";
	assert_int_equal(search(r, &q, &h), 2); /* not "eng" */
	q.language = "EN";
	assert_int_equal(search(r, &q, &h), 2);
	q.language = "en-gb";
	assert_int_equal(search(r, &q, &h), 1);
	q.language = "fr";
	assert_int_equal(search(r, &q, &h), 1);
	q.language = "e";
	assert_int_equal(search(r, &q, &h), 0);
	q = query(NULL);
	q.published_from_s = 1767225600; /* 2026-01-01 */
	q.published_to_s = 1772668800;   /* 2026-03-05 00:00 */
	assert_int_equal(search(r, &q, &h), 1);
	q.published_to_s = 1772704800; /* 2026-03-05 10:00 */
	assert_int_equal(search(r, &q, &h), 2);
	q = query(NULL);
	q.min_views = 6;
	assert_int_equal(search(r, &q, &h), 2);
	q.max_views = 50;
	assert_int_equal(search(r, &q, &h), 1);
	assert_string_equal(h.urls[0], "http://b.example:8080/4");
	q = query("nosuchword");
	assert_int_equal(search(r, &q, &h), 0);
	heed_store_close(r);
	heed_store_close(w);
}

/* Pages through q three rows at a time, adding a page between two pages
 * of results when w is given; returns every id seen, in order. */
static int paginate(heed_store *r, heed_store *w, struct heed_search_query q,
                    int64_t *ids)
{
	int n = 0, rounds = 0;
	bool more = true;

	q.limit = 3;
	while (more && rounds++ < 100) {
		struct hits h = {0};
		assert_int_equal(
		        heed_store_search(r, &q, collect, &h, &more, NULL),
		        HEED_OK);
		assert_true(h.n <= 3);
		assert_true(!more || h.n == 3);
		for (int i = 0; i < h.n; i++)
			ids[n++] = h.ids[i];
		q.after = h.last;
		if (w && rounds == 2) {
			/* Sorts first in every order: seen by no page after. */
			put(w,
			    &(struct spec){"http://z.example/new", "z.example",
			                   "Newest heron", "heron", NULL, NULL,
			                   "2027-01-14", 999999, NOW});
		}
	}
	return n;
}

static void test_sorts_paginate(void **state)
{
	static const heed_search_sort sorts[] = {
	        HEED_SEARCH_SORT_RELEVANCE, HEED_SEARCH_SORT_VIEWS,
	        HEED_SEARCH_SORT_DATE, HEED_SEARCH_SORT_FETCHED};
	heed_store *w = open_writer(), *r;
	char url[64], pub[32];

	(void)state;
	for (int i = 0; i < 20; i++) {
		snprintf(url, sizeof(url), "http://a.example/%d", i);
		snprintf(pub, sizeof(pub), "2026-0%d-01", 1 + i % 5);
		/* Ties on every key, absent views and dates. */
		put(w, &(struct spec){url, "a.example", "heron page", "heron",
		                      NULL, NULL, i % 4 ? pub : NULL,
		                      i % 3 ? (i % 6) * 10 : -1,
		                      NOW - (i % 7) * DAY});
	}
	r = open_reader();
	for (size_t s = 0; s < HEED_ARRAY_SIZE(sorts); s++) {
		int64_t ids[64], all[64];
		struct hits h;
		struct heed_search_query q = query("heron");
		int n;

		q.sort = sorts[s];
		q.limit = 60;
		search(r, &q, &h);
		memcpy(all, h.ids, sizeof(int64_t) * (size_t)h.n);
		/* The relevance order moves with the corpus (bm25): insert
		 * only under the other orders. */
		n = paginate(r,
		             sorts[s] == HEED_SEARCH_SORT_RELEVANCE ? NULL : w,
		             q, ids);
		assert_int_equal(n, h.n);
		for (int i = 0; i < n; i++)
			assert_int_equal(ids[i], all[i]);
		/* Without a match, too (relevance falls back to fetched). */
		q.match = NULL;
		search(r, &q, &h);
		n = paginate(r, NULL, q, ids);
		assert_int_equal(n, h.n);
		for (int i = 0; i < n; i++)
			assert_int_equal(ids[i], h.ids[i]);
		heed_store_page_delete(w, "http://z.example/new", false, NULL);
	}
	/* The orders themselves. */
	{
		struct hits h;
		struct heed_search_query q = query(NULL);
		q.sort = HEED_SEARCH_SORT_VIEWS;
		search(r, &q, &h);
		assert_int_equal(h.n, 20);
		assert_string_equal(h.urls[0], "http://a.example/5");
		assert_true(h.last.key == -1);
		q.sort = HEED_SEARCH_SORT_DATE;
		search(r, &q, &h);
		assert_true(h.last.key == HEED_STORE_NO_DATE);
		assert_string_equal(h.urls[0], "http://a.example/9");
	}
	heed_store_close(r);
	heed_store_close(w);
}

static int collect_tag(void *ud, const struct heed_search_tag *t)
{
	struct hits *r = ud;

	snprintf(r->titles[r->n], sizeof(r->titles[0]), "%s", t->tag);
	r->ids[r->n++] = t->pages;
	return 0;
}

static int collect_site(void *ud, const struct heed_search_site *s)
{
	struct hits *r = ud;

	snprintf(r->urls[r->n], sizeof(r->urls[0]), "%s", s->host);
	snprintf(r->titles[r->n], sizeof(r->titles[0]), "%s",
	         s->site_name ? s->site_name : "(null)");
	r->ids[r->n++] = s->pages;
	return 0;
}

static int collect_page(void *ud, const struct heed_search_hit *h)
{
	return collect(ud, h);
}

static int sum_pages(void *ud, const struct heed_search_bucket *b)
{
	*(int64_t *)ud += b->pages;
	return 0;
}

/* Every function of the area, for a store holding only hidden pages
 * besides one shown: only the shown one ever comes out. */
/* ACAP 1.1 2.5.5.1: each thing shown asks its own usage. A page whose
 * present-snippet is refused stays listed (present-link decides), and
 * its description is not findable; only the characters of a description
 * the permissions let the index hold are findable; permissions stored
 * before present-link and the index length were stored keep working,
 * their description findable only when no snippet rule applies. */
static void test_withheld_words_not_findable(void **state)
{
	static const struct {
		const char *perms;
		const char *desc;
		bool listed;   /* findable by its title */
		bool desc_hit; /* findable by "heron" in its description */
		bool cut_hit;  /* findable by "ibis" past the first word */
	} cases[] = {
	        {"{\"acap\":{\"present-link\":{\"permitted\":true},"
	         "\"present-snippet\":{\"permitted\":false}},\"search\":{"
	         "\"description_chars\":0}}",
	         "heron ibis", true, false, false},
	        {"{\"acap\":{\"present-link\":{\"permitted\":true}},"
	         "\"search\":{\"description_chars\":5}}",
	         "heron ibis", true, true, false},
	        {"{\"acap\":{\"present-link\":{\"permitted\":true}},"
	         "\"search\":{\"description_chars\":10}}",
	         "heron ibis", true, true, true},
	        {"{\"acap\":{\"present-link\":{\"permitted\":false},"
	         "\"present\":{\"permitted\":true}},\"search\":{"
	         "\"description_chars\":10}}",
	         "heron ibis", false, false, false},
	        /* Stored before: "present" lists, a snippet rule withholds. */
	        {"{\"acap\":{\"present\":{\"permitted\":true}}}", "heron ibis",
	         true, true, true},
	        {"{\"meta_robots\":{\"nosnippet\":true}}", "heron ibis", true,
	         false, false},
	        {"{\"meta_robots\":{\"max_snippet\":30}}", "heron ibis", true,
	         false, false},
	        {"{\"acap\":{\"present-snippet\":{\"permitted\":true,"
	         "\"max_length\":5}}}",
	         "heron ibis", true, false, false},
	        {"not json", "heron ibis", true, false, false},
	};
	heed_store *w = open_writer(), *r;
	struct heed_search_query q = query(NULL);
	struct hits h;
	char url[64], title[32], words[64];

	(void)state;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(cases); i++) {
		snprintf(url, sizeof(url), "http://w%zu.example/", i);
		snprintf(title, sizeof(title), "title%zu", i);
		put(w, &(struct spec){url, url + 7, title, cases[i].desc, NULL,
		                      NULL, NULL, -1, 0, 200, cases[i].perms});
	}
	r = open_reader();
	for (size_t i = 0; i < HEED_ARRAY_SIZE(cases); i++) {
		snprintf(url, sizeof(url), "http://w%zu.example/", i);
		snprintf(title, sizeof(title), "title%zu", i);
		for (int k = 0; k < 3; k++) {
			bool want = k == 0   ? cases[i].listed
			            : k == 1 ? cases[i].desc_hit
			                     : cases[i].cut_hit;
			bool found = false;
			/* The title's word picks the page; the other word
			 * must be found in its description. */
			snprintf(words, sizeof(words), "%s %s",
			         k == 1 ? "heron" : "ibis", title);
			q.match = k == 0 ? title : words;
			search(r, &q, &h);
			for (int j = 0; j < h.n; j++)
				found |= strcmp(h.urls[j], url) == 0;
			if (found != want)
				fail_msg("case %zu, %s: found %d, want %d", i,
				         k == 0   ? "title"
				         : k == 1 ? "heron"
				                  : "ibis",
				         found, want);
		}
	}
	heed_store_close(r);
	heed_store_close(w);
}

/* Scripts written without spaces: a word is found inside a run of its
 * script, in a title or a description, one test per script, and a pair
 * of characters that never stand together is not. */
static void test_words_without_spaces(void **state)
{
	static const struct {
		const char *name, *title, *desc, *find[3], *miss;
	} cases[] = {
	        {"Chinese",
	         "北京烤鸭的做法",
	         "传统的烤鸭需要果木",
	         {"烤鸭", "鸭", "果木"},
	         "烤鸡"},
	        {"Japanese",
	         "夜行列車で東京へ",
	         "ひらがなとカタカナ",
	         {"夜行", "列車", "カタカナ"},
	         "夜車"},
	        {"Korean",
	         "서울에서 맛집 찾기",
	         "부산으로 가는 기차",
	         {"서울", "맛집", "부산"},
	         "서부"},
	        {"Thai",
	         "ภาษาไทยง่ายนิดเดียว",
	         "อาหารไทยอร่อยมาก",
	         {"ภาษาไทย", "ไทย", "อร่อย"},
	         "ษาษา"},
	};
	heed_store *w = open_writer(), *r;
	struct heed_search_query q = query(NULL);
	struct hits h;
	char url[64], match[64];

	(void)state;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(cases); i++) {
		snprintf(url, sizeof(url), "http://cjk%zu.example/", i);
		put(w, &(struct spec){url, url + 7, cases[i].title,
		                      cases[i].desc, NULL, NULL, NULL, -1});
	}
	r = open_reader();
	for (size_t i = 0; i < HEED_ARRAY_SIZE(cases); i++) {
		snprintf(url, sizeof(url), "http://cjk%zu.example/", i);
		for (size_t k = 0; k < 4; k++) {
			const char *word =
			        k < 3 ? cases[i].find[k] : cases[i].miss;
			bool found = false;
			/* As heed serve writes a word: an FTS5 string. */
			snprintf(match, sizeof(match), "\"%s\"", word);
			q.match = match;
			search(r, &q, &h);
			for (int j = 0; j < h.n; j++)
				found |= strcmp(h.urls[j], url) == 0;
			if (found != (k < 3))
				fail_msg("%s: '%s' found %d", cases[i].name,
				         word, found);
		}
	}
	heed_store_close(r);
	heed_store_close(w);
}

/* A phrase finds its words where they stand in a row in one field, and
 * nowhere else: across punctuation, stemmed, not across two fields, not
 * in another order, not past a word of another script or a very long
 * word between them; a phrase with such a word in it, or ending in a
 * prefix, is found too. SQLite reads a phrase of words from its word
 * pairs (sqlite_search.c), PostgreSQL from positions: the same pages. */
static void test_phrases(void **state)
{
	char longword[80], long_title[128], long_phrase[96];
	const char *texts[][2] = {
	        {"Night train to Vienna", "a sleeper carriage"},
	        {"The train at night", "by night, train and ferry"},
	        {"night", "train"},
	        {"Nights trains", NULL},
	        {long_title, NULL},
	        {"night \u591c\u884c train", NULL},
	};
	const struct {
		const char *match;
		const char *want; /* the pages' numbers, in any order */
	} cases[] = {
	        {"\"night train\"", "013"},
	        {"\"train night\"", ""},
	        {"\"night train to\"", "0"},
	        {"\"night train\"*", "013"},
	        {"\"night tra\"*", "013"},
	        {long_phrase, "4"},
	        {"\"night \u591c\u884c\"", "5"},
	        {"\"night\" \"train\"", "012345"},
	        {"\"sleeper carriage\"", "0"},
	        {"\"a sleeper\"", "0"},
	        {"\"vienna a\"", ""},
	};
	heed_store *w = open_writer(), *r;
	struct heed_search_query q = query(NULL);
	struct hits h;
	char url[64], got[16];

	(void)state;
	memset(longword, 'q', sizeof(longword) - 1);
	longword[sizeof(longword) - 1] = '\0';
	snprintf(long_title, sizeof(long_title), "night %s train", longword);
	snprintf(long_phrase, sizeof(long_phrase), "\"night %s\"", longword);
	for (size_t i = 0; i < HEED_ARRAY_SIZE(texts); i++) {
		snprintf(url, sizeof(url), "http://phrase.example/%zu", i);
		put(w, &(struct spec){url, "phrase.example", texts[i][0],
		                      texts[i][1], NULL, NULL, NULL, -1});
	}
	r = open_reader();
	for (size_t c = 0; c < HEED_ARRAY_SIZE(cases); c++) {
		size_t n = 0;
		q.match = cases[c].match;
		search(r, &q, &h);
		for (size_t i = 0; i < HEED_ARRAY_SIZE(texts); i++) {
			snprintf(url, sizeof(url), "http://phrase.example/%zu",
			         i);
			for (int j = 0; j < h.n; j++)
				if (strcmp(h.urls[j], url) == 0)
					got[n++] = (char)('0' + i);
		}
		got[n] = '\0';
		if (strcmp(got, cases[c].want) != 0)
			fail_msg("%s: pages %s, want %s", cases[c].match, got,
			         cases[c].want);
	}
	heed_store_close(r);
	heed_store_close(w);
}

/* Any run of a text's words, quoted, finds the text: a document and a
 * query cut the same words and pairs, whatever stands among them
 * (punctuation, stems, a run of bigrams, a very long word, case). */
static void test_phrase_of_any_run(void **state)
{
	char longword[72]; /* longer than a word of a pair (64 bytes) */
	const char *const words[] = {
	        "night",     "Trains", "train", "to",    "a",    "the",
	        "runs,",     "(kapa",  "rila)", "rila",  "kako", "\u591c\u884c",
	        "caf\u00e9", "CAFE",   "x",     longword};
	enum { DOCS = 12, WORDS = 10 };
	int text[DOCS][WORDS];
	uint32_t seed = 0x5eed;
	heed_store *w = open_writer(), *r;
	struct heed_search_query q = query(NULL);
	struct hits h;
	char url[64], host[32], title[1024], match[1024];

	(void)state;
	memset(longword, 'q', sizeof(longword) - 1);
	longword[sizeof(longword) - 1] = '\0';
	for (int d = 0; d < DOCS; d++) {
		size_t n = 0;
		for (int i = 0; i < WORDS; i++) {
			seed = seed * 1103515245u + 12345u;
			text[d][i] =
			        (int)((seed >> 16) % HEED_ARRAY_SIZE(words));
			n += (size_t)snprintf(title + n, sizeof(title) - n,
			                      "%s ", words[text[d][i]]);
		}
		snprintf(host, sizeof(host), "run%d.example", d);
		snprintf(url, sizeof(url), "http://%s/", host);
		put(w, &(struct spec){url, host, title, NULL, NULL, NULL, NULL,
		                      -1});
	}
	r = open_reader();
	for (int d = 0; d < DOCS; d++) {
		snprintf(host, sizeof(host), "run%d.example", d);
		for (int from = 0; from < WORDS; from++)
			for (int len = 1; len <= 4 && from + len <= WORDS;
			     len++) {
				size_t n = 1;
				match[0] = '"';
				for (int i = from; i < from + len; i++)
					n += (size_t)snprintf(
					        match + n, sizeof(match) - n,
					        "%s ", words[text[d][i]]);
				snprintf(match + n - 1, sizeof(match) - n + 1,
				         "\"");
				q.match = match;
				q.host = host;
				if (search(r, &q, &h) != 1)
					fail_msg("%s: %d pages in %s", match,
					         h.n, host);
			}
	}
	heed_store_close(r);
	heed_store_close(w);
}

/* SQLite's index holds the pair of each two words in a row of a field,
 * and no pair across a very long word or a run of bigrams. */
static void test_word_pairs_indexed(void **state)
{
	static const struct {
		const char *term;
		int docs;
	} terms[] = {
	        {"\x01night\x01train", 1},
	        {"\x01train\x01to", 1},
	        {"\x01to\x01vienna", 1},
	        {"\x01vienna\x01sleeper", 0},
	        {"\x01"
	         "a\x01sleeper",
	         1},
	        {"\x01night\x01qqqq", 0},
	        {"\x01tokyo\x01night", 0},
	};
	heed_store *w = open_writer();
	sqlite3 *db = NULL;
	sqlite3_stmt *st;

	(void)state;
	put(w, &(struct spec){"http://pairs.example/", "pairs.example",
	                      "Night train to Vienna", "a sleeper", NULL, NULL,
	                      NULL, -1});
	put(w, &(struct spec){
	               "http://pairs.example/2", "pairs.example",
	               "tokyo\u591c\u884cnight "
	               "qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq"
	               "qqqqqqqqqqqqqqqqqq night",
	               NULL, NULL, NULL, NULL, -1});
	heed_store_close(w);
	assert_int_equal(
	        sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL),
	        SQLITE_OK);
	assert_int_equal(heed__sqlite_search_register(db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db,
	                              "CREATE VIRTUAL TABLE temp.v USING "
	                              "fts5vocab(main, search_fts, row);",
	                              NULL, NULL, NULL),
	                 SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db,
	                                    "SELECT coalesce((SELECT doc FROM "
	                                    "temp.v WHERE term = ?1), 0);",
	                                    -1, &st, NULL),
	                 SQLITE_OK);
	for (size_t i = 0; i < HEED_ARRAY_SIZE(terms); i++) {
		sqlite3_bind_text(st, 1, terms[i].term, -1, SQLITE_STATIC);
		assert_int_equal(sqlite3_step(st), SQLITE_ROW);
		if (sqlite3_column_int(st, 0) != terms[i].docs)
			fail_msg("pair %s: %d pages, want %d",
			         terms[i].term + 1, sqlite3_column_int(st, 0),
			         terms[i].docs);
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
}

/* PostgreSQL's regular expression of those scripts (HEED__GRAM_CLASS)
 * and heed__gram_cp agree on every code point at and around each edge. */
static void test_gram_class_agrees(void **state)
{
	heed_store *w = open_writer();
	char sql[512];
	int checked = 0;

	(void)state;
	for (uint32_t cp = 0x0DF0; cp < 0x30000; cp++) {
		bool edge = heed__gram_cp(cp) != heed__gram_cp(cp - 1) ||
		            heed__gram_cp(cp) != heed__gram_cp(cp + 1);
		if (!edge || (cp >= 0xD800 && cp <= 0xDFFF))
			continue;
		snprintf(sql, sizeof(sql), "SELECT (chr(%u) ~ '%s')::int;",
		         (unsigned)cp, HEED__GRAM_CLASS);
		if (heed_test_store_int(path, sql) != heed__gram_cp(cp))
			fail_msg("U+%04X: PostgreSQL and C disagree",
			         (unsigned)cp);
		checked++;
	}
	assert_true(checked > 40);
	heed_store_close(w);
}

static void test_hidden_never_listed(void **state)
{
	static const char *const hidden[] = {
	        "{\"acap\":{\"index\":{\"permitted\":false}}}",
	        "{\"acap\":{\"present\":{\"permitted\":false}}}",
	        "{\"acap\":{\"present\":{\"permitted\":true,\"expires\":"
	        "1799999999}}}",
	        "{\"acap\":{\"index\":{\"permitted\":true,\"expires\":"
	        "1800000000}}}",
	        "{\"acap\":null,\"meta_robots\":{\"unavailable_after\":"
	        "1700000000}}",
	};
	heed_store *w = open_writer(), *r;
	struct hits h;
	struct heed_search_query q = query("egret");
	char url[64];
	int64_t n;

	(void)state;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(hidden); i++) {
		snprintf(url, sizeof(url), "http://h%zu.example/", i);
		put(w, &(struct spec){url, url + 7, "egret", "egret",
		                      "[\"egret\"]", NULL, NULL, 7, 0, 200,
		                      hidden[i]});
	}
	put(w, &(struct spec){"http://n.example/", "n.example", "egret",
	                      "egret", "[\"egret\"]", NULL, NULL, 7, 0, 404});
	put(w, &(struct spec){"http://ok.example/", "ok.example", "egret",
	                      "egret", "[\"egret\"]", NULL, NULL, 7, 0, 200,
	                      "{\"acap\":{\"present\":{\"permitted\":true,"
	                      "\"expires\":1800000001}},\"meta_robots\":{"
	                      "\"unavailable_after\":1800000001}}"});
	r = open_reader();
	for (int sort = 0; sort < 4; sort++) {
		q.sort = (heed_search_sort)sort;
		assert_int_equal(search(r, &q, &h), 1);
		assert_string_equal(h.urls[0], "http://ok.example/");
		assert_int_equal(count(r, &q), 1);
	}
	q.match = NULL;
	assert_int_equal(search(r, &q, &h), 1);
	q.tag = "egret";
	assert_int_equal(search(r, &q, &h), 1);
	for (int64_t id = 1; id <= 7; id++) {
		heed_status rc =
		        heed_store_search_page(r, id, NOW, collect_page, &h);
		assert_int_equal(rc, id == 7 ? HEED_OK : HEED_ENOTFOUND);
	}
	/* Before the time limits passed, they were listed. */
	q = query("egret");
	q.now_s = 1690000000;
	assert_int_equal(search(r, &q, &h), 4);
	memset(&h, 0, sizeof(h));
	heed_store_search_tags(r, NULL, 10, NOW, collect_tag, &h);
	assert_int_equal(h.n, 1);
	assert_int_equal(h.ids[0], 1);
	memset(&h, 0, sizeof(h));
	heed_store_search_sites(r, NULL, 10, NOW, collect_site, &h);
	assert_int_equal(h.n, 1);
	assert_string_equal(h.urls[0], "ok.example");
	n = 0;
	assert_int_equal(
	        heed_store_search_per_day(r, NULL, 3, NOW, sum_pages, &n),
	        HEED_OK);
	assert_int_equal(n, 1);
	n = 0;
	assert_int_equal(heed_store_search_views(r, NULL, NOW, sum_pages, &n),
	                 HEED_OK);
	assert_int_equal(n, 1);
	heed_store_close(r);
	heed_store_close(w);
}

struct buckets {
	int n;
	struct heed_search_bucket b[64];
};

static int collect_bucket(void *ud, const struct heed_search_bucket *b)
{
	struct buckets *r = ud;

	assert_true(r->n < 64);
	r->b[r->n++] = *b;
	return 0;
}

static void test_charts(void **state)
{
	heed_store *w = open_writer(), *r;
	struct buckets b = {0};
	int64_t today = NOW - NOW % DAY;

	(void)state;
	put(w, &(struct spec){"http://a.example/1", "a.example", "t", "d", NULL,
	                      NULL, NULL, 0, today + 5});
	put(w, &(struct spec){"http://a.example/2", "a.example", "t", "d", NULL,
	                      NULL, NULL, 12, today - 2 * DAY});
	put(w, &(struct spec){"http://a.example/3", "a.example", "t", "d", NULL,
	                      NULL, NULL, 12345, today - 2 * DAY + 3});
	put(w, &(struct spec){"http://b.example/4", "b.example", "t", "d", NULL,
	                      NULL, NULL, 99, today - 9 * DAY});
	put(w, &(struct spec){"http://a.example/5", "a.example", "t", "d", NULL,
	                      NULL, NULL, 7, today, 200,
	                      "{\"acap\":{\"index\":{\"permitted\":false}}}"});
	r = open_reader();
	assert_int_equal(heed_store_search_per_day(r, "a.example", 4, NOW,
	                                           collect_bucket, &b),
	                 HEED_OK);
	assert_int_equal(b.n, 4);
	assert_int_equal(b.b[0].from, today - 3 * DAY);
	assert_int_equal(b.b[1].pages, 2);
	assert_int_equal(b.b[2].pages, 0);
	assert_int_equal(b.b[3].from, today);
	assert_int_equal(b.b[3].to, today + DAY - 1);
	assert_int_equal(b.b[3].pages, 1); /* the refused one left out */
	memset(&b, 0, sizeof(b));
	assert_int_equal(
	        heed_store_search_views(r, NULL, NOW, collect_bucket, &b),
	        HEED_OK);
	assert_int_equal(b.n, 6); /* 0, 1-9, 10-99, ..., 10000-99999 */
	assert_int_equal(b.b[0].from, 0);
	assert_int_equal(b.b[0].to, 0);
	assert_int_equal(b.b[0].pages, 1);
	assert_int_equal(b.b[1].pages, 0); /* the 7 is refused */
	assert_int_equal(b.b[2].from, 10);
	assert_int_equal(b.b[2].to, 99);
	assert_int_equal(b.b[2].pages, 2);
	assert_int_equal(b.b[5].from, 10000);
	assert_int_equal(b.b[5].pages, 1);
	memset(&b, 0, sizeof(b));
	assert_int_equal(heed_store_search_views(r, "c.example", NOW,
	                                         collect_bucket, &b),
	                 HEED_OK);
	assert_int_equal(b.n, 0);
	heed_store_close(r);
	heed_store_close(w);
}

static void test_writes_keep_index(void **state)
{
	heed_store *w = open_writer(), *r;
	struct hits h;
	struct heed_search_query q = query("plover");
	int64_t id, deleted = 0;

	(void)state;
	put(w, &(struct spec){"http://a.example/1", "a.example", "plover", "d",
	                      "[\"wader\"]"});
	put(w, &(struct spec){"http://a.example/2", "a.example", "other", "d"});
	r = open_reader();
	assert_int_equal(search(r, &q, &h), 1);
	id = h.ids[0];
	/* An update keeps the id and reindexes. */
	put(w, &(struct spec){"http://a.example/1", "a.example", "lapwing", "d",
	                      "[\"shorebird\"]"});
	assert_int_equal(search(r, &q, &h), 0);
	q.match = "lapwing";
	assert_int_equal(search(r, &q, &h), 1);
	assert_int_equal(h.ids[0], id);
	q.match = NULL;
	q.tag = "wader";
	assert_int_equal(search(r, &q, &h), 0);
	q.tag = "shorebird";
	assert_int_equal(search(r, &q, &h), 1);
	/* A 304 leaves the index alone. */
	assert_int_equal(heed_store_page_unchanged(w, "http://a.example/1", NOW,
	                                           HEED_STORE_NO_DATE),
	                 HEED_OK);
	q = query("lapwing");
	assert_int_equal(search(r, &q, &h), 1);
	/* A bad match is the caller's error, with FTS5's reason. */
	{
		struct heed_diag d = {0};
		q.match = "\"unterminated";
		assert_int_equal(
		        heed_store_search(r, &q, collect, &h, NULL, &d),
		        HEED_EINVAL);
		assert_string_equal(d.message, "unterminated string");
		q.match = "nosuchcolumn:x";
		assert_int_equal(
		        heed_store_search_count(r, &q, 10, &deleted, &d),
		        HEED_EINVAL);
		assert_non_null(strstr(d.message, "nosuchcolumn"));
		q.limit = 0;
		assert_int_equal(
		        heed_store_search(r, &q, collect, &h, NULL, &d),
		        HEED_EINVAL);
	}
	/* Reindex gives the same answers. */
	q = query("lapwing OR other");
	assert_int_equal(search(r, &q, &h), 2);
	assert_int_equal(heed_store_search_reindex(w), HEED_OK);
	assert_int_equal(search(r, &q, &h), 2);
	q.match = NULL;
	q.tag = "shorebird";
	assert_int_equal(search(r, &q, &h), 1);
	/* A take-down removes the page from search. */
	assert_int_equal(
	        heed_store_page_delete(w, "http://a.example/", true, &deleted),
	        HEED_OK);
	assert_int_equal(deleted, 2);
	q = query("lapwing OR other");
	assert_int_equal(search(r, &q, &h), 0);
	q.match = NULL;
	q.tag = "shorebird";
	assert_int_equal(search(r, &q, &h), 0);
	heed_store_close(r);
	heed_store_close(w);
}

static void test_hostile_tags(void **state)
{
	static const char *const hostile[] = {
	        "<script>alert(1)</script>", "it\"s", "'; DROP TABLE pages; --",
	        "caf\u00e9 \u00e9t\u00e9", "\u2605\u2605"};
	heed_store *w = open_writer(), *r;
	struct hits h;
	struct heed_search_query q = query(NULL);

	(void)state;
	put(w, &(struct spec){
	               "http://a.example/1", "a.example", "x", "d",
	               "[\"<script>alert(1)</script>\",\"it\\\"s\",\"'; "
	               "DROP TABLE pages; --\",\"caf\\u00e9 \u00e9t\u00e9\","
	               "\"\u2605\u2605\"]"});
	r = open_reader();
	/* With words too, the default plan hands the tag to FTS5 as a
	 * string (or, with no ASCII letter or digit, checks it as before). */
	for (size_t i = 0; i < HEED_ARRAY_SIZE(hostile); i++) {
		struct heed_search_query words = query("x");
		words.tag = hostile[i];
		assert_int_equal(search(r, &words, &h), 1);
		assert_int_equal(count(r, &words), 1);
	}
	q.tag = "<script>alert(1)</script>";
	assert_int_equal(search(r, &q, &h), 1);
	q.tag = "it\"s";
	assert_int_equal(search(r, &q, &h), 1);
	q.tag = "'; DROP TABLE pages; --";
	assert_int_equal(search(r, &q, &h), 1);
	q.tag = "caf\u00e9 \u00e9t\u00e9";
	assert_int_equal(search(r, &q, &h), 1);
	q = query("ete");
	assert_int_equal(search(r, &q, &h), 1);
	memset(&h, 0, sizeof(h));
	heed_store_search_tags(r, "a.example", 10, NOW, collect_tag, &h);
	assert_int_equal(h.n, 5);
	memset(&h, 0, sizeof(h));
	heed_store_search_sites(r, NULL, 10, NOW, collect_site, &h);
	assert_int_equal(h.n, 1);
	assert_string_equal(h.titles[0], "Site of a.example");
	heed_store_close(r);
	heed_store_close(w);
}

static void sql_at(const char *file, const char *sql)
{
	sqlite3 *db = NULL;

	assert_int_equal(sqlite3_open(file, &db), SQLITE_OK);
	/* search_fts is cut by heed's tokenizer: a connection needs it. */
	assert_int_equal(heed__sqlite_search_register(db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
}

/* The sweep of version 15 taken away, and the trigger that marked each
 * inserted page back in its place. */
#define BEFORE_V15                                                          \
	"DROP TABLE search_swept; CREATE TRIGGER search_mark_ai AFTER "     \
	"INSERT ON pages BEGIN INSERT INTO search_pending(page_id) SELECT " \
	"new.id WHERE NOT EXISTS (SELECT 1 FROM search_pending WHERE "      \
	"page_id = new.id); END;"
/* FTS5's memory for new tokens of version 14 taken away: its default
 * again. */
#define BEFORE_V14 \
	BEFORE_V15 "DELETE FROM search_fts_config WHERE k = 'hashsize';"
/* FTS5's merge setting of version 12 taken away too. */
#define BEFORE_V12 \
	BEFORE_V14 "DELETE FROM search_fts_config WHERE k = 'automerge';"
/* What version 11 took away (the pages area's pages_host_fetched serves
 * instead), back in its place. */
#define BEFORE_V11 \
	BEFORE_V12 \
	"CREATE INDEX pages_search_host_fetched ON pages(host, fetched_at);"
/* What version 7 added (the sort keys beside the listing) taken away, and
 * what version 11 took away put back: a store of version 6. */
#define BEFORE_V7                                                      \
	BEFORE_V11                                                     \
	"DROP TRIGGER search_keys_au; ALTER TABLE search_listed DROP " \
	"COLUMN views; ALTER TABLE search_listed DROP COLUMN at;"

/* What versions 5 to 7 added, taken away, and the page triggers of
 * version 4 back in their place (their bodies do not matter: the
 * migrations of version 2 on replace them), so that sql below can make
 * the store of an older version from the current one. */
#define BEFORE_V5                                                              \
	BEFORE_V7 "DROP TRIGGER search_mark_ai; DROP TRIGGER search_mark_au; " \
	          "DROP "                                                      \
	          "TRIGGER search_mark_ad; DROP TABLE search_fts; DROP TABLE " \
	          "search_pending; DROP TABLE search_text; CREATE VIRTUAL "    \
	          "TABLE "                                                     \
	          "search_fts USING fts5(title, description, tags, site, "     \
	          "content='search_docs', content_rowid='id', tokenize='heed " \
	          "porter "                                                    \
	          "unicode61 remove_diacritics 2', prefix='2 3');"             \
	          "CREATE TRIGGER search_pages_ai AFTER INSERT ON pages "      \
	          "BEGIN SELECT "                                              \
	          "1; END; CREATE TRIGGER search_pages_bd BEFORE DELETE ON "   \
	          "pages "                                                     \
	          "BEGIN SELECT 1; END; CREATE TRIGGER search_pages_bu "       \
	          "BEFORE UPDATE "                                             \
	          "ON pages BEGIN SELECT 1; END; CREATE TRIGGER "              \
	          "search_pages_au AFTER "                                     \
	          "UPDATE ON pages BEGIN SELECT 1; END;"

/* Closes the writer *w, changes its file with sql (an older schema, made
 * by hand from the current one) and opens it again for writing, which
 * migrates it: returns a reader of the result. */
static heed_store *reopen_after(heed_store **w, const char *sql)
{
	char undone[4096];

	heed_store_close(*w);
	snprintf(undone, sizeof(undone), "%s%s", BEFORE_V5, sql);
	sql_at(path, undone);
	assert_int_equal(heed_store_open(w, path, heed_test_allocator(), NULL),
	                 HEED_OK);
	return open_reader();
}

/* A store of the heed before the search area, unmarked and holding a
 * page, opens and migrates: the page is found. And the FTS5 shadow tables
 * count as heed's, for a store that lost its mark. */
static void test_older_store_migrates(void **state)
{
	heed_store *w = open_writer(), *r;
	struct hits h;
	struct heed_search_query q = query("godwit");

	(void)state;
	heed_store_close(w);
	sql_at(path, BEFORE_V11
	       "PRAGMA application_id = 0;"
	       "DROP VIEW search_docs; DROP VIEW search_tags;"
	       "DROP TABLE search_fts; DROP TABLE page_tags;"
	       "DROP TABLE search_text; DROP TABLE search_pending;"
	       "DROP TRIGGER search_mark_ai; DROP TRIGGER "
	       "search_mark_au; DROP TRIGGER search_mark_ad;"
	       "DROP TRIGGER search_keys_au;"
	       "DROP INDEX pages_search_views;"
	       "DROP INDEX pages_search_date;"
	       "DROP INDEX pages_search_fetched;"
	       "DROP TABLE search_listed; DROP TABLE search_host_counts;"
	       "DROP TABLE search_tag_counts;"
	       "DROP TABLE search_host_tag_counts;"
	       "DROP INDEX pages_search_host_fetched;"
	       "DELETE FROM heed_schema WHERE area = 'search';"
	       "INSERT INTO pages(url, host, status, fetched_at, "
	       "checked_at, title, record) VALUES('http://a.example/', "
	       "'a.example', 200, 1, 1, 'The godwit', '{\"tags\":"
	       "[{\"value\":\"wader\"}]}');");
	assert_int_equal(heed_store_open_ex(&r, path, HEED_STORE_OPEN_READONLY,
	                                    heed_test_allocator(), NULL),
	                 HEED_ESTORE);
	assert_int_equal(heed_store_open(&w, path, heed_test_allocator(), NULL),
	                 HEED_OK);
	r = open_reader();
	assert_int_equal(search(r, &q, &h), 1);
	q.match = NULL;
	q.tag = "wader";
	assert_int_equal(search(r, &q, &h), 1);
	heed_store_close(r);
	heed_store_close(w);
	sql_at(path, "PRAGMA application_id = 0;");
	assert_int_equal(heed_store_open(&w, path, heed_test_allocator(), NULL),
	                 HEED_OK);
	heed_store_close(w);
}

/* The first column of the first row sql gives on db, as an integer; -1
 * when there is no row. */
static int64_t int_of(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st = NULL;
	int64_t v = -1;

	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* The same, on a connection of its own to file. */
static int64_t int_at(const char *file, const char *sql)
{
	sqlite3 *db = NULL;
	int64_t v;

	assert_int_equal(sqlite3_open(file, &db), SQLITE_OK);
	v = int_of(db, sql);
	sqlite3_close(db);
	return v;
}

/* One of the index's settings, as FTS5 keeps it in its config table; 0
 * when the store left it at FTS5's default. */
#define FTS_SETTING(key)                                                   \
	"SELECT coalesce((SELECT v FROM search_fts_config WHERE k = '" key \
	"'), 0);"

static int automerge_at(const char *file)
{
	return (int)int_at(file, FTS_SETTING("automerge"));
}

static int hashsize_at(const char *file)
{
	return (int)int_at(file, FTS_SETTING("hashsize"));
}

/* A new store merges the index's segments by 8 a level and gathers 16 MiB
 * of new tokens before it writes a segment, and so does a store of
 * version 11 once opened for writing; its pages are still found (FTS5
 * reads the settings, and its merges of new rows keep the index whole). */
static void test_index_settings(void **state)
{
	heed_store *w = open_writer(), *r;
	struct hits h;
	struct heed_search_query q = query("godwit");

	(void)state;
	put(w, &(struct spec){.url = "http://a.example/g",
	                      .host = "a.example",
	                      .title = "The godwit"});
	heed_store_close(w);
	assert_int_equal(automerge_at(path), 8);
	assert_int_equal(hashsize_at(path), 16777216);
	sql_at(path, BEFORE_V12 "UPDATE heed_schema SET version = 11 WHERE "
	                        "area = 'search';");
	assert_int_equal(automerge_at(path), 0);
	assert_int_equal(hashsize_at(path), 0);
	assert_int_equal(heed_store_open(&w, path, heed_test_allocator(), NULL),
	                 HEED_OK);
	for (int i = 0; i < 40; i++) {
		char url[64];
		snprintf(url, sizeof(url), "http://a.example/%d", i);
		put(w, &(struct spec){.url = url,
		                      .host = "a.example",
		                      .title = "A godwit again"});
	}
	heed_store_close(w);
	assert_int_equal(automerge_at(path), 8);
	assert_int_equal(hashsize_at(path), 16777216);
	r = open_reader();
	assert_int_equal(search(r, &q, &h), 41);
	heed_store_close(r);
}

/* A page inserted by hand: no heed code, so no mark but its row. */
#define HAND_PAGE(path, title)                                             \
	"INSERT INTO pages(url, host, status, fetched_at, checked_at, "    \
	"title) VALUES('http://a.example/" path "', 'a.example', 200, 1, " \
	"1, '" title "');"

/* No trigger runs on a page's insert, and yet every page inserted is
 * indexed by the next catch-up: heed's, a hand-made writer's, one that
 * takes the id of a deleted last row again, and those of a store of
 * version 14 (marked by its trigger) once it is migrated. */
static void test_inserted_pages_swept(void **state)
{
	heed_store *w = open_writer(), *r;
	struct hits h;
	struct heed_search_query godwit = query("godwit"),
	                         curlew = query("curlew");

	(void)state;
	put(w, &(struct spec){.url = "http://a.example/1",
	                      .host = "a.example",
	                      .title = "The godwit"});
	put(w, &(struct spec){.url = "http://a.example/2",
	                      .host = "a.example",
	                      .title = "A second godwit"});
	heed_store_close(w);
	assert_int_equal(int_at(path, "SELECT count(*) FROM sqlite_master "
	                              "WHERE type = 'trigger' AND tbl_name = "
	                              "'pages' AND sql LIKE '%AFTER INSERT%';"),
	                 0);
	assert_int_equal(int_at(path, "SELECT max_id FROM search_swept;"), 2);
	/* The last row deleted, its id taken again, and one more. */
	sql_at(path, "DELETE FROM pages WHERE id = 2;" HAND_PAGE(
	                     "3", "A curlew") HAND_PAGE("4", "A curlew again"));
	assert_int_equal(int_at(path, "SELECT id FROM pages WHERE url = "
	                              "'http://a.example/3';"),
	                 2);
	assert_int_equal(heed_store_open(&w, path, heed_test_allocator(), NULL),
	                 HEED_OK);
	heed_store_close(w);
	r = open_reader();
	assert_int_equal(search(r, &godwit, &h), 1);
	assert_int_equal(search(r, &curlew, &h), 2);
	heed_store_close(r);
	/* Version 14, a page its trigger marked, migrated. */
	sql_at(path,
	       BEFORE_V15 "UPDATE heed_schema SET version = 14 WHERE "
	                  "area = 'search';" HAND_PAGE("5", "A third curlew"));
	assert_int_equal(heed_store_open(&w, path, heed_test_allocator(), NULL),
	                 HEED_OK);
	heed_store_close(w);
	assert_int_equal(int_at(path, "SELECT max_id FROM search_swept;"), 4);
	r = open_reader();
	assert_int_equal(search(r, &curlew, &h), 3);
	assert_int_equal(search(r, &godwit, &h), 1);
	heed_store_close(r);
}

/* A catch-up with nothing new to index writes nothing (crawl catches up
 * every second or two, also when its store is idle), and one with a new
 * page does: PRAGMA data_version on a connection changes when another
 * connection commits a change to the file. */
#define DATA_VERSION "PRAGMA data_version;"

static void test_idle_catch_up_writes_nothing(void **state)
{
	heed_store *w = open_writer();
	sqlite3 *db = NULL;
	int64_t v;

	(void)state;
	put(w, &(struct spec){.url = "http://a.example/1",
	                      .host = "a.example",
	                      .title = "The godwit"});
	assert_int_equal(heed_store_search_catch_up(w, 0, NULL), HEED_OK);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	v = int_of(db, DATA_VERSION);
	assert_int_equal(heed_store_search_catch_up(w, 0, NULL), HEED_OK);
	assert_int_equal(heed_store_search_catch_up(w, 0, NULL), HEED_OK);
	assert_int_equal(int_of(db, DATA_VERSION), v);
	put(w, &(struct spec){.url = "http://a.example/2",
	                      .host = "a.example",
	                      .title = "A second godwit"});
	assert_int_equal(heed_store_search_catch_up(w, 0, NULL), HEED_OK);
	assert_int_not_equal(int_of(db, DATA_VERSION), v);
	sqlite3_close(db);
	heed_store_close(w);
}

/* A relevance search scores only the max_scored newest matches that pass
 * the filters and visibility, orders those by score, and its pages (by
 * cursor) are cut from those same candidates; the count counts all. */
static void test_relevance_scores_newest(void **state)
{
	heed_store *w = open_writer(), *r;
	struct heed_search_query q = query("heron");
	struct hits h, page;
	int64_t seen[MAXH];
	int nseen = 0;
	char url[64];

	(void)state;
	for (int i = 0; i < 30; i++) {
		snprintf(url, sizeof(url), "http://%c.example/%d",
		         i % 2 ? 'b' : 'a', i);
		/* Older pages rank better (heron twice), so a search that
		 * scored every match would list them first. */
		put(w, &(struct spec){url, i % 2 ? "b.example" : "a.example",
		                      i < 20 ? "heron heron" : "heron", "x",
		                      NULL, NULL, NULL, 0, 0,
		                      i == 29 ? 404 : 200, NULL});
	}
	r = open_reader();
	q.max_scored = 10;
	assert_int_equal(search(r, &q, &h), 10);
	/* ids 1..30 in order; 30 is a 404: the candidates are 19..29. */
	for (int i = 0; i < h.n; i++)
		assert_true(h.ids[i] >= 19 && h.ids[i] <= 29 && h.ids[i] != 30);
	/* The better scored (two herons) of the candidates first. */
	assert_true(h.ids[0] == 19 || h.ids[0] == 20);
	assert_int_equal(count(r, &q), 29);
	/* Pages of 3 over the same candidates, in the same order. */
	q.limit = 3;
	for (int guard = 0; guard < 10; guard++) {
		search(r, &q, &page);
		for (int i = 0; i < page.n; i++)
			seen[nseen++] = page.ids[i];
		if (page.n < 3)
			break;
		q.after = page.last;
	}
	assert_int_equal(nseen, 10);
	for (int i = 0; i < 10; i++)
		assert_int_equal(seen[i], h.ids[i]);
	/* A filter narrows the candidates to the pages wanted: the ten
	 * newest of host a. */
	q = query("heron");
	q.max_scored = 10;
	q.host = "a.example";
	assert_int_equal(search(r, &q, &h), 10);
	for (int i = 0; i < h.n; i++)
		assert_true(h.ids[i] >= 11 && h.ids[i] % 2 == 1);
	/* 0 and more than the constant mean the constant. */
	q = query("heron");
	q.max_scored = HEED_SEARCH_MAX_SCORED + 1;
	assert_int_equal(search(r, &q, &h), 29);
	heed_store_close(r);
	heed_store_close(w);
}

/* The kept counts against a brute-force count over the pages (a search
 * count, which reads SHOWN on every page). */
static const char *const agg_hosts[] = {"a.example", "b.example",
                                        "c.example:8080"};
static const char *const agg_tags[] = {"owl", "kite", "wren", "auk"};

struct tag_counts {
	int n;
	char tag[16][16];
	int64_t pages[16];
};

static int count_tag(void *ud, const struct heed_search_tag *t)
{
	struct tag_counts *c = ud;

	assert_true(c->n < 16);
	snprintf(c->tag[c->n], sizeof(c->tag[0]), "%s", t->tag);
	c->pages[c->n++] = t->pages;
	return 0;
}

static int64_t tag_pages(const struct tag_counts *c, const char *tag)
{
	for (int i = 0; i < c->n; i++)
		if (!strcmp(c->tag[i], tag))
			return c->pages[i];
	return 0;
}

struct site_counts {
	int n;
	char host[8][32];
	int64_t pages[8];
};

static int count_site(void *ud, const struct heed_search_site *s)
{
	struct site_counts *c = ud;

	assert_true(c->n < 8);
	snprintf(c->host[c->n], sizeof(c->host[0]), "%s", s->host);
	c->pages[c->n++] = s->pages;
	return 0;
}

static void check_aggregates(heed_store *r, int64_t now)
{
	struct heed_search_query q = query(NULL);
	struct heed_search_totals t;
	struct tag_counts all = {0}, per;
	struct site_counts sites = {0};
	int64_t n, sum = 0, nsites = 0, ntags = 0;

	q.now_s = now;
	assert_int_equal(
	        heed_store_search_tags(r, NULL, 100, now, count_tag, &all),
	        HEED_OK);
	assert_int_equal(
	        heed_store_search_sites(r, NULL, 100, now, count_site, &sites),
	        HEED_OK);
	for (size_t i = 0; i < HEED_ARRAY_SIZE(agg_tags); i++) {
		q.tag = agg_tags[i];
		q.host = NULL;
		n = count(r, &q);
		assert_int_equal(tag_pages(&all, agg_tags[i]), n);
		ntags += n > 0;
		for (size_t j = 0; j < HEED_ARRAY_SIZE(agg_hosts); j++) {
			memset(&per, 0, sizeof(per));
			assert_int_equal(
			        heed_store_search_tags(r, agg_hosts[j], 100,
			                               now, count_tag, &per),
			        HEED_OK);
			q.host = agg_hosts[j];
			assert_int_equal(tag_pages(&per, agg_tags[i]),
			                 count(r, &q));
		}
	}
	assert_int_equal(all.n, ntags);
	q.tag = NULL;
	for (size_t j = 0; j < HEED_ARRAY_SIZE(agg_hosts); j++) {
		int64_t listed = 0;
		q.host = agg_hosts[j];
		n = count(r, &q);
		for (int k = 0; k < sites.n; k++)
			if (!strcmp(sites.host[k], agg_hosts[j]))
				listed = sites.pages[k];
		assert_int_equal(listed, n);
		nsites += n > 0;
		sum += n;
	}
	assert_int_equal(sites.n, nsites);
	assert_int_equal(heed_store_search_totals(r, now, &t), HEED_OK);
	assert_int_equal(t.pages, sum);
	assert_int_equal(t.sites, nsites);
	assert_int_equal(t.tags, ntags);
}

static void put_agg(heed_store *w, int i, const char *host, const char *tags,
                    int status, const char *perms)
{
	char url[64];

	snprintf(url, sizeof(url), "http://%s/%d", host, i);
	put(w, &(struct spec){url, host, "bird", "bird", tags, NULL, NULL, 0, 0,
	                      status, perms});
}

/* Exact at any time (before and after time limits pass), after updates
 * of tags, host and permissions, after take-downs and after a reindex. */
static void test_aggregates_exact(void **state)
{
	static const char *const perms[] = {
	        NULL,
	        "{\"acap\":null}",
	        "{\"acap\":{\"index\":{\"permitted\":false}}}",
	        "{\"acap\":{\"present\":{\"permitted\":true,\"expires\":"
	        "1800000100}}}",
	        "{\"acap\":{\"index\":{\"expires\":1800000300},\"present\":{"
	        "\"expires\":1800000200}}}",
	        "{\"meta_robots\":{\"unavailable_after\":1800000100}}",
	        "not json",
	        "{\"meta_robots\":{\"unavailable_after\":\"soon\"}}",
	};
	static const char *const tagsets[] = {"[\"owl\"]", "[\"owl\",\"kite\"]",
	                                      "[\"wren\",\"owl\",\"owl\"]",
	                                      NULL, "[\"auk\"]"};
	static const int64_t times[] = {NOW, 1800000100, 1800000250,
	                                1800000400};
	heed_store *w = open_writer(), *r;
	int i = 0;

	(void)state;
	for (size_t p = 0; p < HEED_ARRAY_SIZE(perms); p++)
		for (size_t t = 0; t < HEED_ARRAY_SIZE(tagsets); t++, i++)
			put_agg(w, i, agg_hosts[i % 3], tagsets[t],
			        i % 7 == 3 ? 500 : 200, perms[p]);
	r = open_reader();
	for (size_t k = 0; k < HEED_ARRAY_SIZE(times); k++)
		check_aggregates(r, times[k]);
	/* Re-fetches that change tags, host, status or permissions. */
	put(w, &(struct spec){"http://a.example/0", "a.example", "bird", "",
	                      "[\"kite\",\"auk\"]", NULL, NULL, 0, 0, 200,
	                      perms[3]});
	put(w, &(struct spec){"http://b.example/1", "c.example:8080", "bird",
	                      "", "[\"wren\"]", NULL, NULL, 0, 0, 200, NULL});
	put(w, &(struct spec){"http://c.example:8080/2", "c.example:8080",
	                      "bird", "", "[\"wren\",\"owl\",\"owl\"]", NULL,
	                      NULL, 0, 0, 200, perms[2]});
	put(w, &(struct spec){"http://a.example/3", "a.example", "bird", "",
	                      NULL, NULL, NULL, 0, 0, 200, perms[5]});
	put(w, &(struct spec){"http://a.example/18", "a.example", "bird", "",
	                      "[\"owl\"]", NULL, NULL, 0, 0, 404, NULL});
	for (size_t k = 0; k < HEED_ARRAY_SIZE(times); k++)
		check_aggregates(r, times[k]);
	/* Take-downs: one page, and a folder. */
	assert_int_equal(
	        heed_store_page_delete(w, "http://b.example/4", false, NULL),
	        HEED_OK);
	assert_int_equal(
	        heed_store_page_delete(w, "http://a.example/", true, NULL),
	        HEED_OK);
	/* As the take-down command's store does when it closes. */
	assert_int_equal(heed_store_search_catch_up(w, 0, NULL), HEED_OK);
	for (size_t k = 0; k < HEED_ARRAY_SIZE(times); k++)
		check_aggregates(r, times[k]);
	/* A reindex rebuilds the same counts, from counts made wrong. */
	heed_store_close(r);
	heed_store_close(w);
	if (heed_test_pg())
		heed_test_pg_sql(path,
		                 "DELETE FROM page_tags;"
		                 "UPDATE search_docs SET listed = false;");
	else
		sql_at(path, "UPDATE search_tag_counts SET pages = 99;"
		             "DELETE FROM search_host_counts;"
		             "DELETE FROM search_listed;");
	assert_int_equal(heed_store_open(&w, path, heed_test_allocator(), NULL),
	                 HEED_OK);
	assert_int_equal(heed_store_search_reindex(w), HEED_OK);
	r = open_reader();
	for (size_t k = 0; k < HEED_ARRAY_SIZE(times); k++)
		check_aggregates(r, times[k]);
	heed_store_close(r);
	heed_store_close(w);
}

/* A store at version 1 of the area, holding pages, migrates to version 2:
 * the counts are computed from the pages there. */
static void test_version_1_migrates(void **state)
{
	heed_store *w = open_writer(), *r;

	(void)state;
	for (int i = 0; i < 12; i++)
		put_agg(w, i, agg_hosts[i % 3],
		        i % 2 ? "[\"owl\",\"kite\"]" : "[\"wren\"]", 200,
		        i % 4 ? NULL
		              : "{\"meta_robots\":{\"unavailable_after\":"
		                "1800000100}}");
	r = reopen_after(&w, "DROP TABLE search_listed; DROP TABLE "
	                     "search_host_counts; DROP TABLE "
	                     "search_tag_counts; DROP TABLE "
	                     "search_host_tag_counts; DROP INDEX "
	                     "pages_search_host_fetched; UPDATE heed_schema "
	                     "SET version = 1 WHERE area = 'search';");
	check_aggregates(r, NOW);
	check_aggregates(r, 1800000100);
	put_agg(w, 0, agg_hosts[0], "[\"auk\"]", 200, NULL);
	check_aggregates(r, NOW);
	heed_store_close(r);
	heed_store_close(w);
}

/* A store at version 2 of the area (an FTS5 table without prefix
 * indexes) migrates to version 3: the table is rebuilt with them from the
 * pages, which are all found again, by word and by prefix. */
static void test_version_2_migrates(void **state)
{
	heed_store *w = open_writer(), *r;
	struct heed_search_query q = query("kal*");
	struct hits h;
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;

	(void)state;
	for (int i = 0; i < 12; i++)
		put_agg(w, i, agg_hosts[i % 3], i % 2 ? "[\"kalu\"]" : NULL,
		        200, NULL);
	r = reopen_after(
	        &w, "DROP TABLE search_fts; CREATE VIRTUAL TABLE search_fts "
	            "USING fts5(title, description, tags, site, "
	            "content='search_docs', content_rowid='id', "
	            "tokenize='porter unicode61 remove_diacritics 2');"
	            "INSERT INTO search_fts(rowid, title, description, tags, "
	            "site) SELECT id, title, description, tags, site FROM "
	            "search_docs;"
	            "UPDATE heed_schema SET version = 2 WHERE area = "
	            "'search';");
	assert_int_equal(search(r, &q, &h), 6);
	q.match = "ka*";
	assert_int_equal(search(r, &q, &h), 6);
	q.match = "bird";
	assert_int_equal(search(r, &q, &h), 12);
	heed_store_close(r);
	heed_store_close(w);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(heed__sqlite_search_register(db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db,
	                                    "SELECT sql FROM sqlite_master "
	                                    "WHERE name = 'search_fts';",
	                                    -1, &st, NULL),
	                 SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_non_null(
	        strstr((const char *)sqlite3_column_text(st, 0), "prefix="));
	sqlite3_finalize(st);
	assert_int_equal(sqlite3_exec(db,
	                              "INSERT INTO search_fts(search_fts) "
	                              "VALUES('integrity-check');",
	                              NULL, NULL, NULL),
	                 SQLITE_OK);
	sqlite3_close(db);
}

/*
 * Every plan (heed_search_plan) gives the same rows in the same order,
 * page after page, and the same count, for every kind of search the
 * benchmark sends (bench/serve) and the filters and sorts besides, over a
 * generated store: words of Zipf-like frequency, tags, sites, views,
 * dates, languages, pages that may not be shown.
 */
#define PLAN_PAGES 600
static const char *const plan_words[] = {
        "alba", "bora", "cira", "dune", "eska",  "fala", "gora", "hiva",
        "ilka", "juno", "kapa", "kako", "kaleo", "kalu", "lore", "mira"};
static const char *const plan_hosts[] = {
        "a.example", "b.example", "c.example:8080", "d.example", "e.example"};
static const char *const plan_tags[] = {"owl", "kite", "wren",
                                        "auk", "tern", "rail"};
static const char *const plan_langs[] = {"en", "en-GB", "fr", "de"};

static uint32_t plan_rand(uint32_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

/* A word: the first ones much more often (index of the smaller of a few
 * draws). */
static const char *plan_word(uint32_t *x)
{
	uint32_t a = plan_rand(x) % HEED_ARRAY_SIZE(plan_words);
	uint32_t b = plan_rand(x) % HEED_ARRAY_SIZE(plan_words);

	return plan_words[a < b ? a : b];
}

static void plan_text(uint32_t *x, char *out, size_t size, int words)
{
	size_t len = 0;

	out[0] = '\0';
	for (int i = 0; i < words && len + 8 < size; i++)
		len += (size_t)snprintf(out + len, size - len, "%s%s",
		                        i ? " " : "", plan_word(x));
}

static void plan_store(heed_store *w)
{
	static const char *const perms[] = {
	        "{\"acap\":{\"present\":{\"permitted\":false}}}",
	        "{\"meta_robots\":{\"unavailable_after\":1700000000}}",
	        "{\"meta_robots\":{\"nosnippet\":true}}",
	        "{\"acap\":{\"index\":{\"expires\":1900000000}}}",
	        "{\"meta_robots\":{\"unavailable_after\":\"soon\"}}",
	        ("{\"acap\":{\"present\":{\"expires\":1700000000}},"
	         "\"meta_robots\":{\"unavailable_after\":\"soon\"}}")};
	uint32_t x = 0x5eed2026;

	assert_int_equal(heed_store_begin(w), HEED_OK);
	for (int i = 0; i < PLAN_PAGES; i++) {
		char url[64], title[128], desc[256], tags[128] = "[", date[16];
		uint32_t r = plan_rand(&x), ntags = r % 4;
		struct spec sp = {0};

		for (uint32_t t = 0; t < ntags; t++)
			snprintf(tags + strlen(tags),
			         sizeof(tags) - strlen(tags), "%s\"%s\"",
			         t ? "," : "",
			         plan_tags[plan_rand(&x) %
			                   HEED_ARRAY_SIZE(plan_tags)]);
		strcat(tags, "]");
		plan_text(&x, title, sizeof(title), 2 + (int)(r >> 3) % 5);
		plan_text(&x, desc, sizeof(desc), 4 + (int)(r >> 6) % 10);
		snprintf(date, sizeof(date), "20%02u-%02u-%02u",
		         20 + (r >> 9) % 6, 1 + (r >> 12) % 12,
		         1 + (r >> 16) % 28);
		sp.host = plan_hosts[(r >> 20) % HEED_ARRAY_SIZE(plan_hosts)];
		snprintf(url, sizeof(url), "http://%s/%d", sp.host, i);
		sp.url = url;
		sp.title = title;
		sp.description = desc;
		sp.tags = ntags ? tags : NULL;
		sp.language =
		        plan_langs[(r >> 23) % HEED_ARRAY_SIZE(plan_langs)];
		/* Equal views and dates are frequent: ties decide by id. */
		sp.published = r % 10 == 0 ? NULL : date;
		sp.views = r % 4 == 0 ? -1 : (int64_t)((r >> 25) % 20);
		sp.fetched_at = NOW - DAY - (int64_t)((r >> 5) % 50) * 3600;
		sp.status = r % 40 == 1 ? 404 : 200;
		sp.permissions = r % 12 == 2 ? perms[(r >> 7) % 6] : NULL;
		put(w, &sp);
	}
	assert_int_equal(heed_store_commit(w), HEED_OK);
}

/* Every row of q, page after page of limit, in order. */
static int plan_rows(heed_store *r, struct heed_search_query q, int limit,
                     int64_t *ids, int max)
{
	int n = 0;
	bool more = true;

	q.limit = limit;
	for (int rounds = 0; more && rounds < PLAN_PAGES; rounds++) {
		struct hits h;

		memset(&h, 0, sizeof(h));
		assert_int_equal(
		        heed_store_search(r, &q, collect, &h, &more, NULL),
		        HEED_OK);
		for (int i = 0; i < h.n && n < max; i++)
			ids[n++] = h.ids[i];
		q.after = h.last;
	}
	return n;
}

/* Filter set f (0..7) of the searches over plan_store's pages: none, a
 * tag, a site, both, a language, a date range, a views range, a tag with
 * few relevance candidates. */
static void plan_filter(struct heed_search_query *q, int f)
{
	q->max_scored = f == 7 ? 40 : 0;
	if (f == 1)
		q->tag = "kite";
	if (f == 2)
		q->host = "c.example:8080";
	if (f == 3) {
		q->tag = "owl";
		q->host = "a.example";
	}
	if (f == 4)
		q->language = "en";
	if (f == 5) {
		q->published_from_s = 1640995200;
		q->published_to_s = 1704067199;
	}
	if (f == 6) {
		q->min_views = 3;
		q->max_views = 12;
	}
	if (f == 7)
		q->tag = "wren";
}

static void test_plans_agree(void **state)
{
	static const heed_search_plan plans[] = {HEED_SEARCH_PLAN_FILTER_FIRST,
	                                         HEED_SEARCH_PLAN_WALK,
	                                         HEED_SEARCH_PLAN_AUTO};
	static const heed_search_sort sorts[] = {
	        HEED_SEARCH_SORT_RELEVANCE, HEED_SEARCH_SORT_VIEWS,
	        HEED_SEARCH_SORT_DATE, HEED_SEARCH_SORT_FETCHED};
	/* common, rare, two words, phrases, prefixes (two and three
	 * letters and longer), a column, a bad expression aside. */
	static const char *const matches[] = {
	        "alba",          "mira",          "lore",         "alba cira",
	        "\"alba bora\"", "\"kapa kako\"", "ka*",          "kal*",
	        "kale*",         "title:bora",    "alba OR mira", "nothing"};
	static int64_t want[PLAN_PAGES], got[PLAN_PAGES];
	heed_store *w = open_writer(), *r;
	int kinds = 0;

	(void)state;
	plan_store(w);
	r = open_reader();
	for (size_t m = 0; m < HEED_ARRAY_SIZE(matches); m++)
		for (size_t so = 0; so < HEED_ARRAY_SIZE(sorts); so++)
			for (int f = 0; f < 8; f++) {
				struct heed_search_query q = query(matches[m]);
				int64_t c0, c, c5;
				int n0;

				q.sort = sorts[so];
				plan_filter(&q, f);
				q.plan = HEED_SEARCH_PLAN_SCAN;
				n0 = plan_rows(r, q, 7, want, PLAN_PAGES);
				c0 = count(r, &q);
				/* A cap that common words pass, which a
				 * count may prove from FTS5 alone. */
				c5 = count_up_to(r, &q, 5);
				for (size_t p = 0; p < HEED_ARRAY_SIZE(plans);
				     p++) {
					q.plan = plans[p];
					assert_int_equal(plan_rows(r, q, 7, got,
					                           PLAN_PAGES),
					                 n0);
					for (int i = 0; i < n0; i++)
						assert_int_equal(got[i],
						                 want[i]);
					c = count(r, &q);
					assert_int_equal(c, c0);
					assert_int_equal(count_up_to(r, &q, 5),
					                 c5);
				}
				kinds += n0 > 0;
			}
	/* The store is such that most searches find something. */
	assert_true(kinds > 250);
	heed_store_close(r);
	heed_store_close(w);
}

static int cmp_id(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* The words of plan_store and the searches of test_plans_agree. */
static const char *const agree_matches[] = {
        "alba", "mira", "lore", "alba cira", "\"alba bora\"", "\"kapa kako\"",
        "ka*", "kal*", "kale*", "title:bora", "alba OR mira", "nothing",
        "alba NOT mira",
        /* what heed serve makes of "title:bora" and "tags:alba" typed
         * in its search box: text, a phrase of two words */
        "\"title:bora\"", "\"tags:alba\""};

static const char *const odd_dates[] = {"2024-02-30",
                                        "2023-02-31T23:59:59",
                                        "2022-06-01T24:00",
                                        "2021-01-15T10:20:30-05:30",
                                        "2022-01-15T10:20:30.75Z",
                                        "2022-13-01",
                                        "0000-06-01",
                                        "20220115",
                                        "2024-02-30-05:00",
                                        "2024-01-01 10:11",
                                        "2024-01-01T10:11:59.999+14:00",
                                        "2024-01-01T10:11:12.5z",
                                        "2024-01-01T10:11:60",
                                        "2024-01-01T10:60",
                                        "2024-01-32",
                                        "2024-1-01"};

/* The home page's totals, the tags and the sites of s, at NOW. */
static void lists_of(heed_store *s, struct heed_search_totals *t,
                     struct tag_counts *tags, struct site_counts *sites)
{
	assert_int_equal(heed_store_search_totals(s, NOW, t), HEED_OK);
	assert_int_equal(
	        heed_store_search_tags(s, NULL, 16, NOW, count_tag, tags),
	        HEED_OK);
	assert_int_equal(
	        heed_store_search_sites(s, NULL, 8, NOW, count_site, sites),
	        HEED_OK);
}

/* PostgreSQL only: the same pages stored in SQLite and in PostgreSQL
 * give the same rows in the same order page after page (so the same
 * cursors), and the same counts, tags, sites and totals. Relevance
 * orders by bm25 on SQLite and by ts_rank_cd on PostgreSQL
 * (docs/serve.md, "Ranking"): there the rows are the same candidates,
 * compared in id order. */
static void test_backends_agree(void **state)
{
	static const heed_search_sort sorts[] = {
	        HEED_SEARCH_SORT_RELEVANCE, HEED_SEARCH_SORT_VIEWS,
	        HEED_SEARCH_SORT_DATE, HEED_SEARCH_SORT_FETCHED};
	static int64_t want[PLAN_PAGES], got[PLAN_PAGES];
	heed_store *pg = open_writer(), *lite = NULL;
	struct heed_search_totals tp, tl;
	struct tag_counts cp = {0}, cl = {0};
	struct site_counts sp = {0}, sl = {0};
	char file[300];
	int kinds = 0;

	(void)state;
	snprintf(file, sizeof(file), "%s/agree.db", heed_test_dir());
	assert_int_equal(
	        heed_store_open(&lite, file, heed_test_allocator(), NULL),
	        HEED_OK);
	plan_store(pg);
	plan_store(lite);
	/* Dates as SQLite's unixepoch() reads them: a day past the month's
	 * end runs into the next month, an offset counts, a bad one is
	 * none. */
	for (size_t i = 0; i < HEED_ARRAY_SIZE(odd_dates); i++) {
		char url[64];
		struct spec sp = {
		        url,  "a.example",  "alba odd", "",        NULL,
		        "en", odd_dates[i], (int64_t)i, NOW - DAY, 200};
		snprintf(url, sizeof(url), "http://a.example/odd/%zu", i);
		put(pg, &sp);
		put(lite, &sp);
	}
	/* A page whose text holds the column filters' words, for the
	 * searches that are text. */
	{
		struct spec sp = {"http://a.example/colons",
		                  "a.example",
		                  "Title: bora of the day",
		                  "tags: alba and more",
		                  NULL,
		                  "en",
		                  NULL,
		                  3,
		                  NOW - DAY,
		                  200};
		put(pg, &sp);
		put(lite, &sp);
	}
	for (size_t m = 0; m < HEED_ARRAY_SIZE(agree_matches); m++)
		for (size_t so = 0; so < HEED_ARRAY_SIZE(sorts); so++)
			for (int f = 0; f < 8; f++) {
				struct heed_search_query q =
				        query(agree_matches[m]);
				int n;

				q.sort = sorts[so];
				plan_filter(&q, f);
				n = plan_rows(lite, q, 7, want, PLAN_PAGES);
				if (plan_rows(pg, q, 7, got, PLAN_PAGES) != n)
					fail_msg("%s, sort %d, filters %d: %d "
					         "rows on SQLite, not on "
					         "PostgreSQL",
					         q.match, (int)q.sort, f, n);
				if (q.sort == HEED_SEARCH_SORT_RELEVANCE) {
					qsort(want, (size_t)n, sizeof(want[0]),
					      cmp_id);
					qsort(got, (size_t)n, sizeof(got[0]),
					      cmp_id);
				}
				for (int i = 0; i < n; i++)
					assert_int_equal(got[i], want[i]);
				assert_int_equal(count(pg, &q),
				                 count(lite, &q));
				kinds += n > 0;
			}
	assert_true(kinds > 250);
	/* Typed in the box, a column filter is text on both backends: the
	 * page that says "Title: bora" and "tags: alba", and only it. */
	for (size_t m = HEED_ARRAY_SIZE(agree_matches) - 2;
	     m < HEED_ARRAY_SIZE(agree_matches); m++) {
		struct heed_search_query q = query(agree_matches[m]);
		assert_int_equal(plan_rows(lite, q, 7, want, PLAN_PAGES), 1);
		assert_int_equal(plan_rows(pg, q, 7, got, PLAN_PAGES), 1);
		assert_int_equal(got[0], want[0]);
	}
	lists_of(pg, &tp, &cp, &sp);
	lists_of(lite, &tl, &cl, &sl);
	assert_memory_equal(&tp, &tl, sizeof(tp));
	assert_memory_equal(&cp, &cl, sizeof(cp));
	assert_memory_equal(&sp, &sl, sizeof(sp));
	heed_store_close(lite);
	heed_store_close(pg);
}

static int64_t behind(heed_store *w)
{
	int64_t n = -1;

	assert_int_equal(heed_store_search_behind(w, &n), HEED_OK);
	return n;
}

static int64_t listed_pages(heed_store *r)
{
	struct heed_search_totals t;

	assert_int_equal(heed_store_search_totals(r, NOW, &t), HEED_OK);
	return t.pages;
}

/* The index lags the pages until it catches up, a set at a time, with
 * what each page says at that moment: written, changed, taken down. A
 * reader (heed serve) sees only what was caught up with; the writer reads
 * everything it wrote; closing the writer catches up. */
static void test_index_catches_up(void **state)
{
	heed_store *w = open_writer(), *r = open_reader();
	struct heed_search_query q = query("plover");
	struct hits h;
	int64_t n = -1;
	char url[64];

	(void)state;
	for (int i = 0; i < 5; i++) {
		snprintf(url, sizeof(url), "http://a.example/%d", i);
		write_page(w, &(struct spec){url, "a.example", "The plover",
		                             "A wader", "[\"shore\"]", NULL,
		                             NULL, -1});
	}
	assert_int_equal(behind(w), 5);
	assert_int_equal(search(r, &q, &h), 0);
	assert_int_equal(listed_pages(r), 0);
	assert_int_equal(heed_store_search_catch_up(w, 2, &n), HEED_OK);
	assert_int_equal(n, 2);
	assert_int_equal(behind(w), 3);
	assert_int_equal(search(r, &q, &h), 2);
	assert_int_equal(listed_pages(r), 2);
	assert_int_equal(heed_store_search_catch_up(w, 0, &n), HEED_OK);
	assert_int_equal(n, 3);
	assert_int_equal(behind(w), 0);
	assert_int_equal(search(r, &q, &h), 5);

	/* A change and a take-down: the old words stay findable and the
	 * kept counts (the totals, a site's and a tag's pages) stay what they
	 * were until the index catches up, but a page taken down is never
	 * listed or counted by a search again (both read pages). */
	write_page(w, &(struct spec){"http://a.example/0", "a.example",
	                             "The dunlin", "A wader", "[\"shore\"]",
	                             NULL, NULL, -1});
	assert_int_equal(
	        heed_store_page_delete(w, "http://a.example/1", false, NULL),
	        HEED_OK);
	/* Both wait: the change and the take-down are marked. */
	assert_int_equal(behind(w), 2);
	assert_int_equal(search(r, &q, &h), 4);
	q.match = "dunlin";
	assert_int_equal(search(r, &q, &h), 0);
	q.match = NULL;
	q.tag = "shore";
	assert_int_equal(search(r, &q, &h), 4);
	assert_int_equal(count(r, &q), 4);
	q.tag = NULL;
	assert_int_equal(listed_pages(r), 5);
	q.match = "plover";
	assert_int_equal(heed_store_search_catch_up(w, 0, &n), HEED_OK);
	assert_int_equal(n, 2);
	assert_int_equal(search(r, &q, &h), 3);
	assert_int_equal(listed_pages(r), 4);
	q.match = NULL;
	q.tag = "shore";
	assert_int_equal(count(r, &q), 4);
	q.tag = NULL;
	q.match = "dunlin";
	assert_int_equal(search(r, &q, &h), 1);

	/* The writer reads what it wrote at once; its reads catch up. */
	write_page(w,
	           &(struct spec){"http://a.example/9", "a.example",
	                          "The sanderling", "", NULL, NULL, NULL, -1});
	q.match = "sanderling";
	assert_int_equal(search(r, &q, &h), 0);
	assert_int_equal(search(w, &q, &h), 1);
	assert_int_equal(behind(w), 0);
	assert_int_equal(search(r, &q, &h), 1);

	/* Closing the writer catches up. */
	write_page(w,
	           &(struct spec){"http://a.example/10", "a.example",
	                          "The turnstone", "", NULL, NULL, NULL, -1});
	heed_store_close(w);
	q.match = "turnstone";
	assert_int_equal(search(r, &q, &h), 1);
	heed_store_close(r);
}

/* A page written by hand, by a connection that knows nothing of heed's
 * tokenizer, is marked like any other, and the next writer indexes it. */
static void test_hand_written_page_indexed(void **state)
{
	heed_store *w = open_writer(), *r;
	struct heed_search_query q = query("curlew");
	struct hits h;
	sqlite3 *db = NULL;

	(void)state;
	heed_store_close(w);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(
	        sqlite3_exec(db,
	                     "INSERT INTO pages(url, host, status, "
	                     "fetched_at, checked_at, title, permissions, "
	                     "record) VALUES('http://a.example/', "
	                     "'a.example', 200, 1, 1, 'The curlew', '{}', "
	                     "'{}');",
	                     NULL, NULL, NULL),
	        SQLITE_OK);
	sqlite3_close(db);
	assert_int_equal(heed_store_open(&w, path, heed_test_allocator(), NULL),
	                 HEED_OK);
	assert_int_equal(behind(w), 1);
	heed_store_close(w);
	r = open_reader();
	assert_int_equal(search(r, &q, &h), 1);
	heed_store_close(r);
}

/* The ids and scores of a relevance search. */
struct scored {
	int n;
	int64_t ids[8];
	double scores[8];
};

static int collect_scored(void *ud, const struct heed_search_hit *h)
{
	struct scored *r = ud;

	assert_true(r->n < 8);
	r->ids[r->n] = h->id;
	r->scores[r->n++] = h->score;
	return 0;
}

/* q's rows and scores through the plan that scores a match from its
 * search_listed row and through the one that reads its page row:
 * asserts they are the same and returns the first's. */
static struct scored scored_both_ways(heed_store *r, struct heed_search_query q)
{
	struct scored a = {0}, b = {0};

	q.plan = HEED_SEARCH_PLAN_FILTER_FIRST;
	assert_int_equal(
	        heed_store_search(r, &q, collect_scored, &a, NULL, NULL),
	        HEED_OK);
	q.plan = HEED_SEARCH_PLAN_SCAN;
	assert_int_equal(
	        heed_store_search(r, &q, collect_scored, &b, NULL, NULL),
	        HEED_OK);
	assert_int_equal(a.n, b.n);
	for (int i = 0; i < a.n; i++) {
		assert_int_equal(a.ids[i], b.ids[i]);
		assert_true(a.scores[i] == b.scores[i]);
	}
	return a;
}

/*
 * A re-fetch that found the same record marks nothing for the index, but
 * its views, its published date and (without one) its fetch time move
 * its score. The relevance search reads those from the page's
 * search_listed row (version 7), which follows them at once: the same
 * rows and scores as a search that reads the pages, with no catch-up.
 */
static void test_sort_keys_follow_refetch(void **state)
{
	struct spec sp[] = {
	        {"http://a.example/old", "a.example", "The godwit", NULL, NULL,
	         NULL, NULL, 1, NOW - 300 * DAY, 200, NULL},
	        {"http://a.example/dated", "a.example", "The godwit", NULL,
	         NULL, NULL, "2026-01-01", 5, NOW - DAY, 200, NULL},
	        {"http://b.example/none", "b.example", "The godwit", NULL, NULL,
	         NULL, NULL, -1, NOW - 60 * DAY, 200, NULL},
	};
	heed_store *w = open_writer(), *r;
	struct heed_search_query q = query("godwit");
	struct scored before, after;
	int64_t waiting = -1;

	(void)state;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(sp); i++)
		put(w, &sp[i]);
	r = open_reader();
	before = scored_both_ways(r, q);
	assert_int_equal(before.n, 3);
	sp[0].fetched_at = NOW - DAY / 2;
	sp[0].views = 100000;
	sp[1].published = NULL;
	sp[1].fetched_at = NOW - 900 * DAY;
	sp[2].views = 7;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(sp); i++)
		write_page(w, &sp[i]);
	assert_int_equal(heed_store_search_behind(w, &waiting), HEED_OK);
	assert_int_equal(waiting, 0);
	after = scored_both_ways(r, q);
	assert_int_equal(after.n, 3);
	/* Before: the dated page, the one without views, the old one.
	 * The old page, fetched again, is now the freshest and most seen;
	 * the dated one lost its date and is now the oldest. */
	assert_int_equal(before.ids[0], 2);
	assert_int_equal(before.ids[2], 1);
	assert_int_equal(after.ids[0], before.ids[2]);
	assert_int_equal(after.ids[2], before.ids[0]);
	heed_store_close(r);
	heed_store_close(w);
}

/* A count that reaches its cap may be proven from FTS5 alone, against
 * the number of indexed pages not shown (sqlite_search.c,
 * count_reaches_cap): at every number of shown pages around the point
 * where the proof starts to hold (10 shown beside 30 not shown, cap 10),
 * the count is what reading each page's row gives. */
static void test_count_proven_at_its_cap(void **state)
{
	heed_store *w = open_writer(), *r;
	struct heed_search_query q = query("bird");

	(void)state;
	for (int i = 0; i < 30; i++)
		put_agg(w, i, agg_hosts[0], NULL, 404, NULL);
	r = open_reader();
	for (int shown = 0; shown <= 14; shown++) {
		int64_t want = shown < 10 ? shown : 10;
		if (shown > 0)
			put_agg(w, 100 + shown, agg_hosts[1], NULL, 200, NULL);
		q.plan = HEED_SEARCH_PLAN_AUTO;
		assert_int_equal(count_up_to(r, &q, 10), want);
		q.plan = HEED_SEARCH_PLAN_SCAN;
		assert_int_equal(count_up_to(r, &q, 10), want);
	}
	heed_store_close(r);
	heed_store_close(w);
}

/* Every score of heed_bm25 on db for match, against FTS5's bm25: the
 * same double, bit for bit. Returns how many rows were compared. */
static int rank_matches_bm25(sqlite3 *db, const char *match)
{
	sqlite3_stmt *st = NULL;
	int rows = 0, rc;

	assert_int_equal(
	        sqlite3_prepare_v2(
	                db,
	                "SELECT bm25(search_fts, 10.0, 4.0, 6.0, 2.0), "
	                "heed_bm25(search_fts, ?1, (SELECT block FROM "
	                "search_fts_data WHERE id = 10), 0, 10.0, 4.0, 6.0, "
	                "2.0) FROM search_fts WHERE search_fts MATCH ?1;",
	                -1, &st, NULL),
	        SQLITE_OK);
	sqlite3_bind_text(st, 1, match, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		double want = sqlite3_column_double(st, 0);
		double got = sqlite3_column_double(st, 1);
		if (memcmp(&want, &got, sizeof(want)) != 0)
			fail_msg("%s: bm25 %.17g, heed_bm25 %.17g", match, want,
			         got);
		rows++;
	}
	assert_int_equal(rc, SQLITE_DONE);
	sqlite3_finalize(st);
	return rows;
}

/* The scores of heed_bm25 on db for match ANDed with a tag's words,
 * leaving the tag's phrase out, against bm25's for match alone, row by
 * row: the same doubles. Returns how many rows were compared. */
static int rank_with_tag_matches_bm25(sqlite3 *db, const char *match,
                                      const char *tag)
{
	char *with = sqlite3_mprintf("(%s) AND tags : \"%w\"", match, tag);
	sqlite3_stmt *st = NULL;
	int rows = 0, rc;

	assert_non_null(with);
	assert_int_equal(
	        sqlite3_prepare_v2(
	                db,
	                "SELECT a.k, b.k FROM (SELECT rowid AS r, "
	                "heed_bm25(search_fts, ?2, (SELECT block FROM "
	                "search_fts_data WHERE id = 10), 1, 10.0, 4.0, 6.0, "
	                "2.0) AS k FROM search_fts WHERE search_fts MATCH ?2) "
	                "b "
	                "LEFT JOIN (SELECT rowid AS r, bm25(search_fts, 10.0, "
	                "4.0, 6.0, 2.0) AS k FROM search_fts WHERE search_fts "
	                "MATCH ?1) a ON a.r = b.r;",
	                -1, &st, NULL),
	        SQLITE_OK);
	sqlite3_bind_text(st, 1, match, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, with, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		double want = sqlite3_column_double(st, 0);
		double got = sqlite3_column_double(st, 1);
		assert_int_equal(sqlite3_column_type(st, 0), SQLITE_FLOAT);
		if (memcmp(&want, &got, sizeof(want)) != 0)
			fail_msg("%s, tag %s: bm25 %.17g, heed_bm25 %.17g",
			         match, tag, want, got);
		rows++;
	}
	assert_int_equal(rc, SQLITE_DONE);
	sqlite3_finalize(st);
	sqlite3_free(with);
	return rows;
}

/* heed_bm25, the rank of a relevance search (sqlite_search.c), is FTS5's
 * bm25 with each phrase's document frequency kept between statements: it
 * gives bm25's doubles for words, phrases, prefixes, columns and OR, the
 * first time and from what it kept, and again after the index changed
 * under the connection that kept them (the frequencies with it); and with
 * a tag's words ANDed to the expression, left out of the score, the
 * doubles of the expression alone. */
static void test_rank_is_bm25(void **state)
{
	heed_store *w = open_writer();
	sqlite3 *db = NULL;
	int rows = 0, tagged = 0;

	(void)state;
	plan_store(w);
	assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL),
	                 SQLITE_OK);
	assert_int_equal(heed__sqlite_search_register(db), SQLITE_OK);
	for (int pass = 0; pass < 3; pass++) {
		if (pass == 2)
			for (int i = 0; i < 40; i++) {
				char url[64];
				snprintf(url, sizeof(url),
				         "http://new.example/%d", i);
				put(w, &(struct spec){url, "new.example",
				                      "alba bora kapa kako",
				                      "alba cira", NULL});
			}
		for (size_t m = 0; m < HEED_ARRAY_SIZE(agree_matches); m++) {
			if (strcmp(agree_matches[m], "nothing") == 0)
				continue;
			rows += rank_matches_bm25(db, agree_matches[m]);
			tagged += rank_with_tag_matches_bm25(
			        db, agree_matches[m], plan_tags[m % 3]);
		}
	}
	assert_true(rows > 1000);
	assert_true(tagged > 300);
	sqlite3_close(db);
	heed_store_close(w);
}

/* The count that follows a relevance search on one connection is the
 * count of its candidates when they were every match (sqlite_search.c,
 * count_of_search; pg_search.c, COUNT_KEPT_OF): it is what a count
 * reading the matches gives, for other filters and words than the
 * search's, after the index changed and at a later time, when a page's
 * limit has passed. */
static void test_count_follows_search(void **state)
{
	static const char *const filters[][2] = {{NULL, NULL},
	                                         {"owl", NULL},
	                                         {NULL, "b.example"},
	                                         {"owl", "b.example"}};
	heed_store *w = open_writer(), *r;
	struct hits h;

	(void)state;
	for (int i = 0; i < 12; i++)
		put_agg(w, i, agg_hosts[i % 3], i % 2 ? "[\"owl\"]" : NULL, 200,
		        i == 5 ? "{\"meta_robots\":{\"unavailable_after\":"
		                 "1800000100}}"
		               : NULL);
	r = open_reader();
	for (size_t f = 0; f < HEED_ARRAY_SIZE(filters); f++) {
		struct heed_search_query q = query("bird"), scan;
		q.tag = filters[f][0];
		q.host = filters[f][1];
		scan = q;
		scan.plan = HEED_SEARCH_PLAN_SCAN;
		search(r, &q, &h);
		assert_int_equal(count(r, &q), count(r, &scan));
		assert_int_equal(count(r, &q), h.n);
		/* Another search's count is not this one's. */
		search(r, &q, &h);
		q.tag = q.tag ? NULL : "owl";
		scan = q;
		scan.plan = HEED_SEARCH_PLAN_SCAN;
		assert_int_equal(count(r, &q), count(r, &scan));
	}
	{
		struct heed_search_query q = query("bird"), later;
		search(r, &q, &h);
		assert_int_equal(h.n, 12);
		/* The index changes between the search and its count. */
		put_agg(w, 50, agg_hosts[0], NULL, 200, NULL);
		assert_int_equal(count(r, &q), 13);
		/* A later time, past page 5's limit. */
		search(r, &q, &h);
		later = q;
		later.now_s = 1800000200;
		assert_int_equal(count(r, &later), 12);
		assert_int_equal(count(r, &q), 13);
	}
	heed_store_close(r);
	heed_store_close(w);
}

/* On PostgreSQL a count of one word with no other filter is its cap when
 * the statistics estimate at least half as many again as the cap
 * (pg_search.c, "Estimated counts"), and read otherwise. With the
 * statistics of 40 shown pages, a count up to 10 stays 10 after 36 of them
 * were taken down (what the estimate rests on); a count up to 30 and one
 * with a site filter read the 4 left; analyzed again, 4. (A prefix's
 * estimate needs statistics of 100 lexemes or more; with fewer PostgreSQL
 * takes a default, which here never reaches the cap.) */
static void test_count_estimated(void **state)
{
	heed_store *w = open_writer();
	struct heed_search_query q = query("bird"), site = query("bird");

	(void)state;
	site.host = agg_hosts[0];
	heed_test_pg_sql(path, "ALTER TABLE search_docs SET "
	                       "(autovacuum_enabled = off);");
	for (int i = 0; i < 40; i++)
		put_agg(w, i, agg_hosts[0], NULL, 200, NULL);
	assert_int_equal(count_up_to(w, &q, 1000), 40);
	heed_test_pg_sql(path, "ANALYZE search_docs;");
	assert_int_equal(count_up_to(w, &q, 10), 10);
	for (int i = 0; i < 36; i++)
		put_agg(w, i, agg_hosts[0], NULL, 404, NULL);
	assert_int_equal(count_up_to(w, &q, 10), 10);
	assert_int_equal(count_up_to(w, &q, 30), 4);
	assert_int_equal(count_up_to(w, &site, 10), 4);
	heed_test_pg_sql(path, "ANALYZE search_docs;");
	assert_int_equal(count_up_to(w, &q, 10), 4);
	heed_store_close(w);
}

/* Writes 30 pages of "bird" to w on PostgreSQL, the page of index gone
 * a 404, their views all different within any 13 in a row, with
 * autovacuum off for search_docs: its statistics are the test's. */
static void put_thirty_birds(heed_store *w, int gone)
{
	heed_test_pg_sql(path, "ALTER TABLE search_docs SET "
	                       "(autovacuum_enabled = off);");
	for (int i = 0; i < 30; i++) {
		char url[64];
		snprintf(url, sizeof(url), "http://a.example/%d", i);
		put(w, &(struct spec){url, "a.example", "bird", "bird", NULL,
		                      NULL, NULL, (i * 7) % 13, 0,
		                      i == gone ? 404 : 200, NULL});
	}
}

/* On PostgreSQL, relevance candidates read from the GIN index
 * (pg_search.c, candidates_by_index), and the views order of a word that
 * rare (VIEWS_COUNTED), come from reading every match, and the count that
 * follows is every match, past the candidates scored: the table's
 * statistics are set to those of a table of many pages, about one row a
 * page, where the index is chosen. The count is what a count reading the
 * pages gives, and follows the index when it changed after the search;
 * the views order pages as the keys say. */
static void test_count_of_index_candidates(void **state)
{
	heed_store *w = open_writer(), *r;
	struct heed_search_query q = query("bird"), scan;
	int64_t want[30], got[30];
	struct hits h;
	int n = 0;

	(void)state;
	put_thirty_birds(w, 7);
	heed_test_pg_sql(path, "UPDATE pg_class SET reltuples = 30, relpages "
	                       "= 1000 WHERE oid = 'search_docs'::regclass;");
	r = open_reader();
	q.max_scored = 10;
	scan = q;
	scan.plan = HEED_SEARCH_PLAN_SCAN;
	assert_int_equal(search(r, &q, &h), 10);
	assert_int_equal(count(r, &q), 29);
	assert_int_equal(count(r, &scan), 29);
	assert_int_equal(count_up_to(r, &q, 20), 20);
	/* By views, then id: ids 1..30 in order, id 8 the 404. */
	for (int v = 12; v >= 0; v--)
		for (int i = 0; i < 30; i++)
			if (i != 7 && (i * 7) % 13 == v)
				want[n++] = i + 1;
	q = query("bird");
	q.sort = HEED_SEARCH_SORT_VIEWS;
	assert_int_equal(plan_rows(r, q, 4, got, 30), 29);
	for (int i = 0; i < 29; i++)
		assert_int_equal(got[i], want[i]);
	search(r, &q, &h);
	assert_int_equal(count(r, &q), 29);
	put_agg(w, 50, agg_hosts[0], NULL, 200, NULL);
	assert_int_equal(count(r, &q), 30);
	heed_store_close(r);
	heed_store_close(w);
}

/* Page 1 of 4 of q into first. */
static void page_1(heed_store *r, struct heed_search_query q,
                   struct scored *first)
{
	q.limit = 4;
	*first = (struct scored){0};
	assert_int_equal(
	        heed_store_search(r, &q, collect_scored, first, NULL, NULL),
	        HEED_OK);
}

/* Page 1 of 4 and page 2 after it, of the relevance search q. */
static void two_pages(heed_store *r, struct heed_search_query q,
                      struct scored *first, struct scored *second)
{
	page_1(r, q, first);
	assert_int_equal(first->n, 4);
	q.limit = 4;
	q.after.id = first->ids[3];
	q.after.score = first->scores[3];
	*second = (struct scored){0};
	assert_int_equal(
	        heed_store_search(r, &q, collect_scored, second, NULL, NULL),
	        HEED_OK);
}

static void assert_same_scored(const struct scored *a, const struct scored *b)
{
	assert_int_equal(a->n, b->n);
	for (int i = 0; i < a->n; i++) {
		assert_int_equal(a->ids[i], b->ids[i]);
		assert_true(a->scores[i] == b->scores[i]);
	}
}

/* On PostgreSQL, relevance candidates read from the GIN index are scored
 * as they are read (pg_search.c, RELEVANCE_OF): the same newest
 * candidates, scores and order, page 1 and page 2, as the walk of the
 * key gives, before the table's statistics are set to those of a table
 * of many pages, about one row a page, where the index is chosen. The
 * candidates' views differ, and so do their scores. */
static void test_index_candidates_scored(void **state)
{
	heed_store *w = open_writer(), *r;
	struct heed_search_query q = query("bird");
	struct scored walk1, walk2, index1, index2;

	(void)state;
	put_thirty_birds(w, 27);
	r = open_reader();
	q.max_scored = 10;
	two_pages(r, q, &walk1, &walk2);
	assert_int_equal(walk2.n, 4);
	/* The candidates are the newest ten that may be shown, ids 20..30
	 * without the 404 (28). */
	for (int i = 0; i < 4; i++) {
		assert_true(walk1.ids[i] >= 20 && walk1.ids[i] != 28);
		assert_true(walk2.ids[i] >= 20 && walk2.ids[i] != 28);
	}
	assert_true(walk1.scores[0] < walk2.scores[3]);
	heed_test_pg_sql(path, "UPDATE pg_class SET reltuples = 30, relpages "
	                       "= 1000 WHERE oid = 'search_docs'::regclass;");
	two_pages(r, q, &index1, &index2);
	assert_same_scored(&walk1, &index1);
	assert_same_scored(&walk2, &index2);
	heed_store_close(r);
	heed_store_close(w);
}

/* Page 2 of q after page 1's cursor (first), by the reader r and by a
 * reader that searched nothing before: asserts they are the same and
 * returns r's. */
static struct scored page_2_both_ways(heed_store *r, struct heed_search_query q,
                                      const struct scored *first)
{
	heed_store *fresh = open_reader();
	struct scored a = {0}, b = {0};

	q.limit = 4;
	q.after.id = first->ids[3];
	q.after.score = first->scores[3];
	assert_int_equal(
	        heed_store_search(r, &q, collect_scored, &a, NULL, NULL),
	        HEED_OK);
	assert_int_equal(
	        heed_store_search(fresh, &q, collect_scored, &b, NULL, NULL),
	        HEED_OK);
	assert_int_equal(a.n, 4);
	assert_same_scored(&a, &b);
	heed_store_close(fresh);
	return a;
}

static bool has_id(const struct scored *s, int64_t id)
{
	for (int i = 0; i < s->n; i++)
		if (s->ids[i] == id)
			return true;
	return false;
}

/* On PostgreSQL a relevance search keeps the rows of the pages after
 * the one it shows (pg_search.c, "Next pages from the search"): page 2
 * is the one its statement gives when asked a second later, when asked
 * after a page on it was hidden (an ACAP time limit between the two
 * times), and after a page that ranks into it was written between the
 * two, which the kept rows do not hold. Views 12 and 11 make page 1 of
 * 4, 10 and 9 page 2. */
static void test_next_page_from_kept_rows(void **state)
{
	heed_store *w = open_writer(), *r;
	struct heed_search_query q = query("bird"), later = query("bird");
	struct scored first, second;

	(void)state;
	put_thirty_birds(w, -1);
	put(w, &(struct spec){"http://a.example/timed", "a.example", "bird",
	                      "bird", NULL, NULL, NULL, 10, 0, 200,
	                      "{\"acap\":{\"index\":{\"permitted\":true,"
	                      "\"expires\":1800000003}}}"});
	r = open_reader();
	page_1(r, q, &first);
	later.now_s = NOW + 1;
	second = page_2_both_ways(r, later, &first);
	assert_true(has_id(&second, 31));
	later.now_s = NOW + 5;
	second = page_2_both_ways(r, later, &first);
	assert_false(has_id(&second, 31));
	page_1(r, q, &first);
	put(w, &(struct spec){"http://a.example/new", "a.example", "bird",
	                      "bird", NULL, NULL, NULL, 10, 0, 200, NULL});
	second = page_2_both_ways(r, q, &first);
	assert_true(has_id(&second, 32));
	heed_store_close(r);
	heed_store_close(w);
}

/* Writes n pages of title to w on PostgreSQL, from page id from on,
 * their views all different within any 13 in a row. */
static void put_from_id(heed_store *w, int64_t from, const char *title, int n)
{
	char sql[128];

	snprintf(sql, sizeof(sql),
	         "ALTER TABLE pages ALTER COLUMN id RESTART WITH %lld;",
	         (long long)from);
	heed_test_pg_sql(path, sql);
	for (int i = 0; i < n; i++) {
		char url[64];
		snprintf(url, sizeof(url), "http://a.example/%lld",
		         (long long)from + i);
		put(w, &(struct spec){url, "a.example", title, NULL, NULL, NULL,
		                      NULL, (i * 7) % 13, 0, 200, NULL});
	}
}

/* q's page 1 of up to 8 by the reader r. */
static struct scored scored_page(heed_store *r, struct heed_search_query q)
{
	struct scored got = {0};

	q.limit = 8;
	assert_int_equal(
	        heed_store_search(r, &q, collect_scored, &got, NULL, NULL),
	        HEED_OK);
	return got;
}

/* q's page 1 of up to 8 by the reader r (got), and that of q with a
 * filter of the one host of the test's pages (every): the same pages,
 * read without a bound. */
static void with_and_without_bound(heed_store *r, struct heed_search_query q,
                                   struct scored *got, struct scored *every)
{
	*got = scored_page(r, q);
	q.host = "a.example";
	*every = scored_page(r, q);
}

/* Takes the words of its ids' ranges (version 16) out of page id's row. */
static void forget_id_ranges(int64_t id)
{
	char sql[256];

	snprintf(sql, sizeof(sql),
	         "UPDATE search_docs SET tsv = ts_delete(tsv, ARRAY(SELECT "
	         "lexeme FROM unnest(tsv) WHERE lexeme LIKE '~%%')) WHERE "
	         "page_id = %lld;",
	         (long long)id);
	heed_test_pg_sql(path, sql);
}

/* How many rows of search_docs match the tsquery text t, as text. */
static const char *rows_matching(const char *t)
{
	char sql[256];

	snprintf(sql, sizeof(sql),
	         "SELECT count(*) FROM search_docs WHERE tsv @@ '%s'::tsquery;",
	         t);
	return heed_test_pg_sql(path, sql);
}

/*
 * On PostgreSQL, the relevance candidates of one word that the
 * statistics put in three times the pages scored or more are read
 * through the ranges of the newest ids (pg_search.c, BOUNDED): the same
 * pages and scores as the search with a filter that passes every page
 * (one host), which reads every match. Pages 1 to 10, 50,000 to 50,009
 * and 100,000 to 100,009 hold "bird", five are scored, and the bound
 * starts at 65,536: taking the words of its ranges out of the newest
 * page's row shows the search read through them. "owl", on pages 1 to
 * 10 alone, is estimated in ten pages, three times the three scored, and
 * none is in its bound: the search runs again without it. The count
 * that follows is every match, not those in the bound.
 */
static void test_newest_matches_bounded(void **state)
{
	heed_store *w = open_writer(), *r;
	struct heed_search_query q = query("bird"), owl = query("owl");
	struct scored got, want;

	(void)state;
	heed_test_pg_sql(path, "ALTER TABLE search_docs SET "
	                       "(autovacuum_enabled = off);");
	put_from_id(w, 1, "bird owl", 10);
	put_from_id(w, 50000, "bird", 10);
	put_from_id(w, 100000, "bird", 10);
	heed_test_pg_sql(path, "ANALYZE search_docs;");
	r = open_reader();
	q.max_scored = 5;
	with_and_without_bound(r, q, &got, &want);
	assert_int_equal(got.n, 5);
	assert_same_scored(&got, &want);
	assert_int_equal(count(r, &q), 30);
	forget_id_ranges(100009);
	with_and_without_bound(r, q, &got, &want);
	assert_true(has_id(&want, 100009));
	assert_false(has_id(&got, 100009));
	assert_true(has_id(&got, 100004));
	owl.max_scored = 3;
	with_and_without_bound(r, owl, &got, &want);
	assert_int_equal(got.n, 3);
	assert_same_scored(&got, &want);
	heed_store_close(r);
	heed_store_close(w);
}

/* A PostgreSQL store at version 15 of the area migrates to version 16:
 * every row's vector gets the words of its page id's ranges, and the
 * pages the catch-up writes after get theirs. */
static void test_id_ranges_migrate(void **state)
{
	heed_store *w = open_writer();

	(void)state;
	put_from_id(w, 1, "bird", 3);
	put_from_id(w, 70000, "bird", 3);
	heed_store_close(w);
	for (int64_t id = 1; id <= 3; id++) {
		forget_id_ranges(id);
		forget_id_ranges(70000 + id - 1);
	}
	heed_test_pg_sql(path,
	                 "DROP FUNCTION heed_search_bounds(bigint); UPDATE "
	                 "heed_schema SET version = 15 WHERE area = 'search';");
	assert_string_equal(rows_matching("~26.0"), "0");
	assert_int_equal(heed_store_open(&w, path, heed_test_allocator(), NULL),
	                 HEED_OK);
	put_from_id(w, 140000, "bird", 1);
	assert_string_equal(rows_matching("~26.0"), "7");
	assert_string_equal(rows_matching("~14.4 & ~18.0 & ~22.0"), "3");
	assert_string_equal(rows_matching("~14.0 & bird"), "3");
	assert_string_equal(rows_matching("~14.8"), "1");
	heed_store_close(w);
}

/* A store at version 6 of the area, holding pages, migrates to version
 * 7: each listed page's sort keys are copied beside it, and the searches
 * that read them score as those that read the pages. */
static void test_version_6_migrates(void **state)
{
	heed_store *w = open_writer(), *r;
	struct scored got;

	(void)state;
	for (int i = 0; i < 6; i++)
		put_agg(w, i, agg_hosts[i % 3], "[\"owl\"]", 200, NULL);
	heed_store_close(w);
	sql_at(path, BEFORE_V7 "UPDATE heed_schema SET version = 6 WHERE "
	                       "area = 'search';");
	assert_int_equal(heed_store_open(&w, path, heed_test_allocator(), NULL),
	                 HEED_OK);
	r = open_reader();
	got = scored_both_ways(r, query("bird"));
	assert_int_equal(got.n, 6);
	heed_store_close(r);
	heed_store_close(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_ranking_title_beats_description),
	        cmocka_unit_test(test_relevance_scores_hold_within_a_day),
	        cmocka_unit_test(test_filters),
	        cmocka_unit_test(test_sorts_paginate),
	        cmocka_unit_test(test_hidden_never_listed),
	        cmocka_unit_test(test_withheld_words_not_findable),
	        cmocka_unit_test(test_words_without_spaces),
	        cmocka_unit_test(test_phrases),
	        cmocka_unit_test(test_phrase_of_any_run),
	        cmocka_unit_test(test_word_pairs_indexed),
	        cmocka_unit_test(test_charts),
	        cmocka_unit_test(test_writes_keep_index),
	        cmocka_unit_test(test_hostile_tags),
	        cmocka_unit_test(test_older_store_migrates),
	        cmocka_unit_test(test_index_settings),
	        cmocka_unit_test(test_inserted_pages_swept),
	        cmocka_unit_test(test_idle_catch_up_writes_nothing),
	        cmocka_unit_test(test_relevance_scores_newest),
	        cmocka_unit_test(test_aggregates_exact),
	        cmocka_unit_test(test_version_1_migrates),
	        cmocka_unit_test(test_plans_agree),
	        cmocka_unit_test(test_version_2_migrates),
	        cmocka_unit_test(test_index_catches_up),
	        cmocka_unit_test(test_hand_written_page_indexed),
	        cmocka_unit_test(test_sort_keys_follow_refetch),
	        cmocka_unit_test(test_version_6_migrates),
	        cmocka_unit_test(test_count_proven_at_its_cap),
	        cmocka_unit_test(test_rank_is_bm25),
	        cmocka_unit_test(test_count_follows_search),
	};
	/* The same searches on PostgreSQL; not the tests of older SQLite
	 * versions of the area, whose stores are SQLite files, nor
	 * test_plans_agree: PostgreSQL's planner chooses, every
	 * heed_search_plan runs the same statement there, and
	 * test_backends_agree pages through the same searches against
	 * SQLite's answers. */
	const struct CMUnitTest pg_tests[] = {
	        cmocka_unit_test(test_ranking_title_beats_description),
	        cmocka_unit_test(test_relevance_scores_hold_within_a_day),
	        cmocka_unit_test(test_filters),
	        cmocka_unit_test(test_sorts_paginate),
	        cmocka_unit_test(test_hidden_never_listed),
	        cmocka_unit_test(test_withheld_words_not_findable),
	        cmocka_unit_test(test_words_without_spaces),
	        cmocka_unit_test(test_phrases),
	        cmocka_unit_test(test_phrase_of_any_run),
	        cmocka_unit_test(test_gram_class_agrees),
	        cmocka_unit_test(test_charts),
	        cmocka_unit_test(test_writes_keep_index),
	        cmocka_unit_test(test_hostile_tags),
	        cmocka_unit_test(test_relevance_scores_newest),
	        cmocka_unit_test(test_aggregates_exact),
	        cmocka_unit_test(test_backends_agree),
	        cmocka_unit_test(test_index_catches_up),
	        cmocka_unit_test(test_sort_keys_follow_refetch),
	        cmocka_unit_test(test_count_follows_search),
	        cmocka_unit_test(test_count_estimated),
	        cmocka_unit_test(test_count_of_index_candidates),
	        cmocka_unit_test(test_index_candidates_scored),
	        cmocka_unit_test(test_next_page_from_kept_rows),
	        cmocka_unit_test(test_newest_matches_bounded),
	        cmocka_unit_test(test_id_ranges_migrate),
	};
	if (heed_test_pg())
		return cmocka_run_group_tests_name("store_search_pg", pg_tests,
		                                   heed_test_make_dir,
		                                   heed_test_remove_dir);
	return cmocka_run_group_tests(tests, heed_test_make_dir,
	                              heed_test_remove_dir);
}
