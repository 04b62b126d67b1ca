/*
 * Unit tests for the lanes scheduler, the URL limits and the seen-table
 * ("Scheduling across many sites" and "within limits the operator
 * sets"; the candidate protocol): every time is an argument,
 * nothing sleeps. The whole controller is tested by test_crawl_sim.c.
 */
#include "heed_test.h"

#include "crawl/crawl-int.h"
#include "heed/crawl.h"
#include "heed/url.h"

static const struct url_case {
	const char *name, *url;
	int depth;
	heed_url_verdict want;
} url_cases[] = {
        {"plain page", "http://a.test/videos/1", 1, HEED_URL_OK},
        {"https with query", "https://a.test/x?p=2#top", 0, HEED_URL_OK},
        {"limit: depth 20 ok", "http://a.test/", 20, HEED_URL_OK},
        {"limit: depth 21 too deep", "http://a.test/", 21, HEED_URL_TOO_DEEP},
        {"not http", "ftp://a.test/file", 0, HEED_URL_NOT_HTTP},
        {"mailto", "mailto:x@a.test", 0, HEED_URL_NOT_HTTP},
        {"media: jpg", "http://a.test/img/cat.JPG", 0, HEED_URL_MEDIA},
        {"media: mp4 with query", "http://a.test/v.mp4?t=3", 0, HEED_URL_MEDIA},
        {"media: mp3", "http://a.test/a/song.mp3", 0, HEED_URL_MEDIA},
        {"media: tar.gz", "http://a.test/a/src.tar.gz", 0, HEED_URL_MEDIA},
        {"sitemap gz is not media", "http://a.test/sitemap.xml.gz", 0,
         HEED_URL_OK},
        {"dot in folder only", "http://a.test/v1.2/page", 0, HEED_URL_OK},
        {"html extension", "http://a.test/index.html", 0, HEED_URL_OK},
        {"query looks like media", "http://a.test/p?f=a.jpg", 0, HEED_URL_OK},
        {"trap: segment 4 times", "http://a.test/a/b/a/b/a/b/a/", 0,
         HEED_URL_TRAP},
        {"trap: 3 times is fine", "http://a.test/a/b/a/b/a/", 0, HEED_URL_OK},
        {"trap: calendar", "http://a.test/cal/x/cal/x/cal/x/cal", 0,
         HEED_URL_TRAP},
};

static void test_check_url(void **state)
{
	struct heed_crawl_limits l;

	(void)state;
	heed_crawl_limits_default(&l);
	for (size_t i = 0; i < HEED_ARRAY_SIZE(url_cases); i++) {
		const struct url_case *c = &url_cases[i];
		heed_url_verdict got =
		        heed_crawl_check_url(&l, c->url, c->depth);
		if (got != c->want)
			fail_msg("%s: got %s, want %s", c->name,
			         heed_url_verdict_name(got),
			         heed_url_verdict_name(c->want));
	}
}

static void test_url_too_long(void **state)
{
	struct heed_crawl_limits l;
	char url[3000];

	(void)state;
	heed_crawl_limits_default(&l);
	memset(url, 'a', sizeof(url) - 1);
	url[sizeof(url) - 1] = '\0';
	memcpy(url, "http://a.test/", 14);
	assert_int_equal(heed_crawl_check_url(&l, url, 0), HEED_URL_TOO_LONG);
	l.max_url_bytes = 0;
	assert_int_equal(heed_crawl_check_url(&l, url, 0), HEED_URL_OK);
}

/* ---- the lanes scheduler ---- */

struct lanes {
	struct heed__sched s;
	struct heed__lane lane[4];
};

static void lanes_init(struct lanes *t, unsigned max_active, int64_t max_pages)
{
	heed__sched_init(&t->s, heed_test_allocator(), max_active, max_pages);
	for (size_t i = 0; i < HEED_ARRAY_SIZE(t->lane); i++)
		heed__lane_init(&t->lane[i]);
}

static void lanes_free(struct lanes *t)
{
	for (size_t i = 0; i < HEED_ARRAY_SIZE(t->lane); i++)
		heed__lane_free(&t->s, &t->lane[i]);
	heed__sched_free(&t->s);
}

static void push(struct lanes *t, int lane, int64_t id, enum heed__job_kind k,
                 bool front, int64_t now)
{
	char url[64];
	struct heed__job j = {id, url, 1, k, HEED_STORE_NO_DATE, 0, 0};

	snprintf(url, sizeof(url), "http://l%d.test/%lld", lane, (long long)id);
	assert_int_equal(
	        heed__sched_push(&t->s, &t->lane[lane], &j, front, now),
	        HEED_OK);
}

/* next() at now must answer want (and for a candidate, which lane). */
static struct heed__lane *expect_next(struct lanes *t, int64_t now,
                                      enum heed__sched_verdict want, int lane,
                                      int64_t want_wait)
{
	struct heed__lane *l = NULL;
	int64_t wait = -1;
	enum heed__sched_verdict got = heed__sched_next(&t->s, now, &l, &wait);

	if (got != want)
		fail_msg("at %lld: verdict %d, want %d", (long long)now, got,
		         want);
	if (lane >= 0 && l != &t->lane[lane])
		fail_msg("at %lld: another lane than %d", (long long)now, lane);
	if (want == SCHED_WAIT && wait != want_wait)
		fail_msg("at %lld: wait %lld, want %lld", (long long)now,
		         (long long)wait, (long long)want_wait);
	return l;
}

static void test_candidate_start_done(void **state)
{
	struct lanes t;
	struct heed__lane *l;

	(void)state;
	lanes_init(&t, 8, 0);
	push(&t, 0, 1, JOB_PAGE, false, 0);
	push(&t, 0, 2, JOB_PAGE, false, 0);
	l = expect_next(&t, 0, SCHED_CANDIDATE, 0, 0);
	assert_int_equal(l->head->job.id, 1);
	heed__sched_start(&t.s, l);
	assert_int_equal(l->current->job.id, 1);
	assert_int_equal(t.s.in_flight, 1);
	/* One job in flight per lane: nothing else is ready. */
	expect_next(&t, 0, SCHED_IDLE, -1, 0);
	assert_int_equal(heed__sched_done(&t.s, l, 100), HEED_OK);
	l = expect_next(&t, 100, SCHED_CANDIDATE, 0, 0);
	assert_int_equal(l->head->job.id, 2);
	heed__sched_start(&t.s, l);
	assert_int_equal(heed__sched_done(&t.s, l, 200), HEED_OK);
	expect_next(&t, 200, SCHED_IDLE, -1, 0);
	assert_int_equal(t.s.requests, 2);
	assert_int_equal(t.s.pages_started, 2);
	lanes_free(&t);
}

/* A start taken back (a stale decision, never sent): the job is first in
 * its window again, every count is as before, and it starts next. */
static void test_unstart(void **state)
{
	struct lanes t;
	struct heed__lane *l;

	(void)state;
	lanes_init(&t, 8, 0);
	push(&t, 0, 1, JOB_PAGE, false, 0);
	push(&t, 0, 2, JOB_PAGE, false, 0);
	l = expect_next(&t, 0, SCHED_CANDIDATE, 0, 0);
	heed__sched_start(&t.s, l);
	assert_int_equal(heed__sched_unstart(&t.s, l, 50), HEED_OK);
	assert_null(l->current);
	assert_int_equal(l->window_len, 2);
	assert_int_equal(t.s.window_jobs, 2);
	assert_int_equal(t.s.in_flight, 0);
	assert_int_equal(t.s.requests, 0);
	assert_int_equal(t.s.pages_started, 0);
	assert_int_equal(l->pages, 0);
	l = expect_next(&t, 50, SCHED_CANDIDATE, 0, 0);
	assert_int_equal(l->head->job.id, 1);
	assert_int_equal(l->head->next->job.id, 2);
	assert_int_equal(l->tail->job.id, 2);
	heed__sched_start(&t.s, l);
	assert_int_equal(heed__sched_done(&t.s, l, 100), HEED_OK);
	l = expect_next(&t, 100, SCHED_CANDIDATE, 0, 0);
	assert_int_equal(l->head->job.id, 2);
	lanes_free(&t);
}

static void test_defer_orders_by_time(void **state)
{
	struct lanes t;
	struct heed__lane *l;

	(void)state;
	lanes_init(&t, 8, 0);
	push(&t, 0, 1, JOB_PAGE, false, 0);
	push(&t, 1, 2, JOB_PAGE, false, 0);
	l = expect_next(&t, 0, SCHED_CANDIDATE, 0, 0);
	assert_int_equal(heed__sched_defer(&t.s, l, 900), HEED_OK);
	l = expect_next(&t, 0, SCHED_CANDIDATE, 1, 0);
	assert_int_equal(heed__sched_defer(&t.s, l, 400), HEED_OK);
	expect_next(&t, 100, SCHED_WAIT, -1, 300);
	expect_next(&t, 400, SCHED_CANDIDATE, 1, 0);
	heed__sched_start(&t.s, &t.lane[1]);
	expect_next(&t, 400, SCHED_WAIT, -1, 500);
	/* An offer never moves a deferred lane forward. */
	push(&t, 0, 3, JOB_PAGE, false, 450);
	expect_next(&t, 450, SCHED_WAIT, -1, 450);
	expect_next(&t, 900, SCHED_CANDIDATE, 0, 0);
	lanes_free(&t);
}

static void test_park_until_unpark(void **state)
{
	struct lanes t;
	struct heed__lane *l;

	(void)state;
	lanes_init(&t, 8, 0);
	push(&t, 0, 1, JOB_PAGE, false, 0);
	l = expect_next(&t, 0, SCHED_CANDIDATE, 0, 0);
	heed__sched_park(&t.s, l);
	/* New work does not wake a parked lane: only room at its address
	 * does. */
	push(&t, 0, 2, JOB_PAGE, false, 10);
	assert_int_equal(heed__sched_more(&t.s, l, 0, 10), HEED_OK);
	expect_next(&t, 10, SCHED_IDLE, -1, 0);
	assert_int_equal(heed__sched_unpark(&t.s, l, 20), HEED_OK);
	l = expect_next(&t, 20, SCHED_CANDIDATE, 0, 0);
	assert_int_equal(l->head->job.id, 1);
	lanes_free(&t);
}

static void test_held_lane_lets_only_robots_go(void **state)
{
	struct lanes t;
	struct heed__lane *l;

	(void)state;
	lanes_init(&t, 8, 0);
	assert_int_equal(heed__sched_hold(&t.s, &t.lane[0], true, 0), HEED_OK);
	push(&t, 0, 1, JOB_PAGE, false, 0);
	expect_next(&t, 0, SCHED_IDLE, -1, 0);
	push(&t, 0, 0, JOB_ROBOTS, true, 0);
	l = expect_next(&t, 0, SCHED_CANDIDATE, 0, 0);
	assert_int_equal(l->head->job.kind, JOB_ROBOTS);
	heed__sched_start(&t.s, l);
	assert_int_equal(heed__sched_done(&t.s, l, 50), HEED_OK);
	expect_next(&t, 50, SCHED_IDLE, -1, 0);
	assert_int_equal(heed__sched_hold(&t.s, l, false, 60), HEED_OK);
	l = expect_next(&t, 60, SCHED_CANDIDATE, 0, 0);
	assert_int_equal(l->head->job.kind, JOB_PAGE);
	/* robots.txt costs a request, not a page. */
	heed__sched_start(&t.s, l);
	assert_int_equal(t.s.pages_started, 1);
	assert_int_equal(t.s.requests, 2);
	lanes_free(&t);
}

/* A qualified lane waiting for ACAP files asked elsewhere (refs_only)
 * lets its ACAP reference jobs go, never its pages; push_after queues a
 * job behind the ACAP jobs at the front, before the pages. */
static void test_refs_only_and_push_after(void **state)
{
	struct lanes t;
	struct heed__lane *l;
	char url[] = "http://l0.test/other";
	struct heed__job other = {0, url, 0, JOB_ACAPREF, HEED_STORE_NO_DATE,
	                          0, 7};

	(void)state;
	lanes_init(&t, 8, 0);
	assert_int_equal(heed__sched_hold(&t.s, &t.lane[0], true, 0), HEED_OK);
	push(&t, 0, 1, JOB_PAGE, false, 0);
	push(&t, 0, 0, JOB_ACAPREF, true, 0);
	expect_next(&t, 0, SCHED_IDLE, -1, 0);
	t.lane[0].refs_only = true;
	assert_int_equal(heed__sched_offer(&t.s, &t.lane[0], 0), HEED_OK);
	assert_int_equal(heed__sched_push_after(&t.s, &t.lane[0], &other,
	                                        JOB_ACAPREF, 0),
	                 HEED_OK);
	for (int i = 0; i < 2; i++) {
		l = expect_next(&t, 10 * i, SCHED_CANDIDATE, 0, 0);
		assert_int_equal(l->head->job.kind, JOB_ACAPREF);
		assert_int_equal(l->head->job.address, i ? 7 : 0);
		heed__sched_start(&t.s, l);
		assert_int_equal(heed__sched_done(&t.s, l, 10 * i + 5),
		                 HEED_OK);
	}
	/* Only the page is left: it waits for the release. */
	expect_next(&t, 30, SCHED_IDLE, -1, 0);
	assert_int_equal(heed__sched_hold(&t.s, &t.lane[0], false, 40),
	                 HEED_OK);
	assert_false(t.lane[0].refs_only);
	l = expect_next(&t, 40, SCHED_CANDIDATE, 0, 0);
	assert_int_equal(l->head->job.kind, JOB_PAGE);
	lanes_free(&t);
}

static void test_refill_and_page_limit(void **state)
{
	struct lanes t;
	struct heed__lane *l;

	(void)state;
	lanes_init(&t, 8, 2);
	/* The store holds jobs of lane 0, one page of which a previous
	 * process fetched in this run. */
	assert_int_equal(heed__sched_more(&t.s, &t.lane[0], 1, 0), HEED_OK);
	l = expect_next(&t, 0, SCHED_REFILL, 0, 0);
	expect_next(&t, 0, SCHED_IDLE, -1, 0);
	push(&t, 0, 1, JOB_PAGE, false, 0);
	push(&t, 0, 2, JOB_PAGE, false, 0);
	assert_int_equal(heed__sched_refilled(&t.s, l, false, 0), HEED_OK);
	l = expect_next(&t, 0, SCHED_CANDIDATE, 0, 0);
	heed__sched_start(&t.s, l);
	assert_int_equal(heed__sched_done(&t.s, l, 10), HEED_OK);
	/* Two pages now: the limit drops the rest. */
	expect_next(&t, 10, SCHED_DROP, 0, 0);
	assert_true(t.lane[0].dropped);
	assert_int_equal(t.s.window_jobs, 0);
	push(&t, 0, 3, JOB_PAGE, false, 20);
	expect_next(&t, 20, SCHED_IDLE, -1, 0);
	lanes_free(&t);
}

/* The lanes waiting for their next window are taken together with the one
 * next() hands out, whatever their time, and each goes back at its own
 * time once refilled; a lane that got a window meanwhile is not taken. */
static void test_take_refills(void **state)
{
	struct lanes t;
	struct heed__lane *l, *taken[4];

	(void)state;
	lanes_init(&t, 8, 0);
	assert_int_equal(heed__sched_more(&t.s, &t.lane[0], 0, 0), HEED_OK);
	assert_int_equal(heed__sched_more(&t.s, &t.lane[1], 0, 500), HEED_OK);
	push(&t, 2, 7, JOB_PAGE, false, 0);
	assert_int_equal(heed__sched_more(&t.s, &t.lane[3], 0, 0), HEED_OK);
	push(&t, 3, 9, JOB_PAGE, false, 0);
	l = expect_next(&t, 0, SCHED_REFILL, 0, 0);
	assert_int_equal(heed__sched_take_refills(&t.s, taken, 4), 1);
	assert_ptr_equal(taken[0], &t.lane[1]);
	assert_true(t.lane[1].refilling);
	assert_int_equal(heed__sched_take_refills(&t.s, taken, 4), 0);
	push(&t, 0, 1, JOB_PAGE, false, 0);
	push(&t, 1, 5, JOB_PAGE, false, 0);
	assert_int_equal(heed__sched_refilled(&t.s, l, false, 0), HEED_OK);
	assert_int_equal(heed__sched_refilled(&t.s, taken[0], false, 10),
	                 HEED_OK);
	/* Lane 1 was due at 500: not before. */
	assert_int_equal(t.lane[1].key_ms, 500);
	for (int i = 0; i < 3; i++) {
		l = expect_next(&t, 10, SCHED_CANDIDATE, -1, 0);
		assert_ptr_not_equal(l, &t.lane[1]);
		heed__sched_start(&t.s, l);
	}
	expect_next(&t, 10, SCHED_WAIT, -1, 490);
	expect_next(&t, 500, SCHED_CANDIDATE, 1, 0);
	lanes_free(&t);
}

static void test_max_active_and_take(void **state)
{
	struct lanes t;
	struct heed__lane *l;
	struct heed__job_node *n;

	(void)state;
	lanes_init(&t, 1, 0);
	push(&t, 0, 1, JOB_PAGE, false, 0);
	push(&t, 1, 2, JOB_PAGE, false, 0);
	push(&t, 1, 3, JOB_PAGE, false, 0);
	l = expect_next(&t, 0, SCHED_CANDIDATE, 0, 0);
	heed__sched_start(&t.s, l);
	expect_next(&t, 0, SCHED_BUSY, -1, 0);
	assert_int_equal(heed__sched_done(&t.s, l, 5), HEED_OK);
	l = expect_next(&t, 5, SCHED_CANDIDATE, 1, 0);
	/* Refused by the site's rules: taken away unstarted, and the lane
	 * goes on with its next job. */
	n = heed__sched_take(&t.s, l, 5);
	assert_non_null(n);
	assert_int_equal(n->job.id, 2);
	test_free(n);
	l = expect_next(&t, 5, SCHED_CANDIDATE, 1, 0);
	assert_int_equal(l->head->job.id, 3);
	assert_int_equal(t.s.in_flight, 0);
	lanes_free(&t);
}

/* A worker hands a site back (heed__sched_reset): its lane leaves the
 * heap, its window is freed (the URLs stay in the store), and it waits,
 * held, as a new site's lane, its pages of this run still counted; no
 * push, more or offer brings it back until its release. */
static void test_reset_holds_and_forgets(void **state)
{
	struct lanes t;
	struct heed__lane *l = &t.lane[0];
	size_t others;

	(void)state;
	lanes_init(&t, 8, 0);
	push(&t, 1, 9, JOB_PAGE, false, 0);
	others = t.s.window_jobs;
	push(&t, 0, 1, JOB_PAGE, false, 0);
	push(&t, 0, 2, JOB_PAGE, false, 0);
	assert_int_equal(heed__sched_more(&t.s, l, 3, 0), HEED_OK);
	assert_true(l->heap_index >= 0);
	assert_int_equal(t.s.heap_len, 2);
	assert_int_equal(t.s.window_jobs, others + 2);
	heed__sched_reset(&t.s, l);
	assert_int_equal(l->heap_index, -1);
	assert_int_equal(t.s.heap_len, 1);
	assert_int_equal(t.s.window_jobs, others);
	assert_null(l->head);
	assert_null(l->tail);
	assert_int_equal(l->window_len, 0);
	assert_false(l->more);
	assert_false(l->dropped);
	assert_false(l->candidate);
	assert_true(l->held);
	assert_int_equal(l->pages, 3);
	/* Only the other lane is ready. */
	heed__sched_start(&t.s, expect_next(&t, 0, SCHED_CANDIDATE, 1, 0));
	expect_next(&t, 0, SCHED_IDLE, -1, 0);
	/* Work comes back while it is held: nothing starts. */
	push(&t, 0, 3, JOB_PAGE, false, 10);
	assert_int_equal(heed__sched_more(&t.s, l, 0, 10), HEED_OK);
	assert_int_equal(heed__sched_offer(&t.s, l, 10), HEED_OK);
	assert_int_equal(l->heap_index, -1);
	expect_next(&t, 10, SCHED_IDLE, -1, 0);
	/* Lane 1's job left its window as it started: lane 0's new one is
	 * the only one. */
	assert_int_equal(t.s.window_jobs, 1);
	/* Released: scheduled again, its new window first. */
	assert_int_equal(heed__sched_hold(&t.s, l, false, 20), HEED_OK);
	assert_int_equal(
	        expect_next(&t, 20, SCHED_CANDIDATE, 0, 0)->head->job.id, 3);
	heed__sched_start(&t.s, l);
	assert_int_equal(l->pages, 4);
	lanes_free(&t);
}

/* rewind forgets the window's rows of the store, in memory only, and
 * keeps the jobs of no row in their order: the next refill reads from
 * the store again. */
static void test_rewind_keeps_jobs_of_no_row(void **state)
{
	struct lanes t;
	struct heed__lane *l = &t.lane[0];

	(void)state;
	lanes_init(&t, 8, 0);
	push(&t, 0, 7, JOB_PAGE, false, 0);
	push(&t, 0, 0, JOB_ACAPREF, true, 0);
	push(&t, 0, 8, JOB_PAGE, false, 0);
	push(&t, 0, 0, JOB_ROBOTS, true, 0);
	assert_int_equal(t.s.window_jobs, 4);
	assert_int_equal(heed__sched_rewind(&t.s, l, 10), HEED_OK);
	assert_int_equal(l->window_len, 2);
	assert_int_equal(t.s.window_jobs, 2);
	assert_int_equal(l->head->job.kind, JOB_ROBOTS);
	assert_int_equal(l->tail->job.kind, JOB_ACAPREF);
	assert_null(l->tail->next);
	assert_true(l->more);
	heed__sched_start(&t.s, expect_next(&t, 10, SCHED_CANDIDATE, 0, 0));
	assert_int_equal(heed__sched_done(&t.s, l, 20), HEED_OK);
	heed__sched_start(&t.s, expect_next(&t, 20, SCHED_CANDIDATE, 0, 0));
	assert_int_equal(heed__sched_done(&t.s, l, 30), HEED_OK);
	/* The window is empty and the store holds more: a refill. */
	expect_next(&t, 30, SCHED_REFILL, 0, 0);
	assert_int_equal(heed__sched_refilled(&t.s, l, false, 30), HEED_OK);
	/* A window of rows only: the tail is cleared with it. */
	push(&t, 1, 3, JOB_PAGE, false, 30);
	assert_int_equal(heed__sched_rewind(&t.s, &t.lane[1], 30), HEED_OK);
	assert_null(t.lane[1].head);
	assert_null(t.lane[1].tail);
	assert_int_equal(t.s.window_jobs, 0);
	lanes_free(&t);
}

/* A lane handed back as a candidate (next() gave it, its fate not yet
 * decided) leaves with the same state; its robots.txt job, pushed to the
 * front of the fresh window as a new site's, is the one thing that may
 * start while it is held. */
static void test_reset_candidate_then_robots(void **state)
{
	struct lanes t;
	struct heed__lane *l = &t.lane[0];

	(void)state;
	lanes_init(&t, 8, 0);
	push(&t, 0, 1, JOB_PAGE, false, 0);
	assert_int_equal(expect_next(&t, 0, SCHED_CANDIDATE, 0, 0), l);
	heed__sched_reset(&t.s, l);
	assert_false(l->candidate);
	assert_int_equal(t.s.window_jobs, 0);
	expect_next(&t, 0, SCHED_IDLE, -1, 0);
	push(&t, 0, 2, JOB_PAGE, false, 10);
	push(&t, 0, 0, JOB_ROBOTS, true, 10);
	assert_int_equal(
	        expect_next(&t, 10, SCHED_CANDIDATE, 0, 0)->head->job.kind,
	        JOB_ROBOTS);
	heed__sched_start(&t.s, l);
	assert_int_equal(heed__sched_done(&t.s, l, 20), HEED_OK);
	expect_next(&t, 20, SCHED_IDLE, -1, 0);
	lanes_free(&t);
}

/* Many lanes deferred to random times come out in time order, each at
 * its time, against a plain sorted reference. */
static void test_heap_against_reference(void **state)
{
	enum { N = 2000 };
	struct heed__sched s;
	struct heed__lane *lanes = test_calloc(N, sizeof(*lanes));
	int64_t *keys = test_calloc(N, sizeof(*keys));
	unsigned long rng = 42;
	int64_t last = -1;
	int seen = 0;

	(void)state;
	heed__sched_init(&s, heed_test_allocator(), N, 0);
	for (int i = 0; i < N; i++) {
		struct heed__job j = {i + 1,    "http://x.test/",   0,
		                      JOB_PAGE, HEED_STORE_NO_DATE, 0,
		                      0};
		struct heed__lane *l = NULL;
		int64_t wait;
		heed__lane_init(&lanes[i]);
		assert_int_equal(heed__sched_push(&s, &lanes[i], &j, false, 0),
		                 HEED_OK);
		assert_int_equal(heed__sched_next(&s, 0, &l, &wait),
		                 SCHED_CANDIDATE);
		keys[i] = 1 + heed_test_rand(&rng, 100000);
		assert_int_equal(heed__sched_defer(&s, l, keys[i]), HEED_OK);
	}
	for (;;) {
		struct heed__lane *l = NULL;
		int64_t wait = 0;
		enum heed__sched_verdict v =
		        heed__sched_next(&s, last < 0 ? 0 : last, &l, &wait);
		if (v == SCHED_IDLE)
			break;
		if (v == SCHED_WAIT) {
			last = (last < 0 ? 0 : last) + wait;
			continue;
		}
		assert_int_equal(v, SCHED_CANDIDATE);
		assert_int_equal(keys[l - lanes], last);
		heed__sched_start(&s, l);
		seen++;
	}
	assert_int_equal(seen, N);
	for (int i = 0; i < N; i++)
		heed__lane_free(&s, &lanes[i]);
	heed__sched_free(&s);
	test_free(lanes);
	test_free(keys);
}

static void test_oom(void **state)
{
	(void)state;
	for (unsigned long n = 0;; n++) {
		struct heed_test_fail f = {.fail_at = n};
		struct heed__sched s;
		struct heed__lane l;
		struct heed__job j = {1,        "http://a.test/1",  0,
		                      JOB_PAGE, HEED_STORE_NO_DATE, 0,
		                      0};
		heed_status rc;
		heed__sched_init(&s, heed_test_failing_allocator(&f), 8, 0);
		heed__lane_init(&l);
		rc = heed__sched_push(&s, &l, &j, false, 0);
		heed__lane_free(&s, &l);
		heed__sched_free(&s);
		if (rc == HEED_OK)
			break;
		assert_int_equal(rc, HEED_ENOMEM);
	}
}

/* Fingerprint k of the table's first set (the set is the top bits). */
static uint64_t first_set_fp(int k)
{
	return (uint64_t)k << 1 | 1;
}

static void test_seen_table(void **state)
{
	const struct heed_allocator *a = heed_test_allocator();
	struct heed__seen s;

	(void)state;
	assert_int_equal(heed__seen_init(&s, a), HEED_OK);
	assert_false(heed__seen_has(&s, first_set_fp(0)));
	for (int k = 0; k < CRAWL_SEEN_WAYS; k++)
		heed__seen_add(&s, first_set_fp(k));
	for (int k = 0; k < CRAWL_SEEN_WAYS; k++)
		assert_true(heed__seen_has(&s, first_set_fp(k)));
	assert_false(heed__seen_has(&s, first_set_fp(CRAWL_SEEN_WAYS)));
	/* Added again, the oldest becomes the newest: the next oldest goes
	 * when the set is full. */
	heed__seen_add(&s, first_set_fp(0));
	heed__seen_add(&s, first_set_fp(CRAWL_SEEN_WAYS));
	assert_true(heed__seen_has(&s, first_set_fp(CRAWL_SEEN_WAYS)));
	assert_true(heed__seen_has(&s, first_set_fp(0)));
	assert_false(heed__seen_has(&s, first_set_fp(1)));
	for (int k = 2; k < CRAWL_SEEN_WAYS; k++)
		assert_true(heed__seen_has(&s, first_set_fp(k)));
	assert_int_not_equal(heed__seen_fingerprint(""), 0);
	assert_int_equal(heed__seen_fingerprint("http://a.test/x"),
	                 heed__seen_fingerprint("http://a.test/x"));
	assert_int_not_equal(heed__seen_fingerprint("http://a.test/x"),
	                     heed__seen_fingerprint("http://a.test/y"));
	heed__seen_free(&s);
}

/* The URLs of a crawl of 10,000 sites of 52 pages all stay in the table:
 * each one pushed out is looked up in the store again for every link to
 * it. Two ways a set lost a tenth of them. */
static void test_seen_table_holds_a_large_crawl(void **state)
{
	const struct heed_allocator *a = heed_test_allocator();
	enum { SITES = 10000, PAGES = 52 };
	struct heed__seen s;
	char url[64];
	int lost = 0;

	(void)state;
	assert_int_equal(heed__seen_init(&s, a), HEED_OK);
	for (int i = 0; i < SITES * PAGES; i++) {
		snprintf(url, sizeof(url), "http://s%05d.bench.test/p/%d.html",
		         i % SITES, i / SITES);
		heed__seen_add(&s, heed__seen_fingerprint(url));
	}
	for (int i = 0; i < SITES * PAGES; i++) {
		snprintf(url, sizeof(url), "http://s%05d.bench.test/p/%d.html",
		         i % SITES, i / SITES);
		lost += !heed__seen_has(&s, heed__seen_fingerprint(url));
	}
	heed__seen_free(&s);
	assert_true(lost < SITES * PAGES / 1000);
}

/* An oEmbed job carries its page: the node keeps its own copy. */
static void test_job_from_copied(void **state)
{
	struct lanes t;
	char url[] = "http://l0.test/oembed?url=x", from[] = "http://l0.test/x";
	struct heed__job j = {7, url, 1,   JOB_OEMBED, HEED_STORE_NO_DATE,
	                      0, 0,   from};

	(void)state;
	lanes_init(&t, 4, 0);
	assert_int_equal(heed__sched_push(&t.s, &t.lane[0], &j, false, 0),
	                 HEED_OK);
	memset(from, 'z', sizeof(from) - 1);
	assert_string_equal(t.lane[0].head->job.from, "http://l0.test/x");
	assert_string_equal(t.lane[0].head->job.url, url);
	j.from = NULL;
	assert_int_equal(heed__sched_push(&t.s, &t.lane[0], &j, false, 0),
	                 HEED_OK);
	assert_null(t.lane[0].tail->job.from);
	lanes_free(&t);
}

/* The merge of an oEmbed answer (record_json.c): the page's own fields
 * stay, the answer fills the rest, its html is never there. */
static void test_record_oembed(void **state)
{
	struct heed_oembed o = {
	        .type = "video",
	        .version = "1.0",
	        .title = "Provider title",
	        .author_name = "Ana",
	        .provider_name = "ClipHub",
	        .thumbnail_url = "https://cdn.test/t.jpg",
	        .thumbnail_width = -1,
	        .thumbnail_height = -1,
	        .width = 640,
	        .height = -1,
	        .cache_age = -1,
	};
	unsigned filled = 9;
	char *out;

	(void)state;
	out = heed__crawl_record_oembed(
	        heed_test_allocator(),
	        "{\"title\":{\"value\":\"Own\",\"source\":\"title\"},"
	        "\"tags\":[]}",
	        &o, "https://a.test/oembed?url=x", &filled);
	assert_non_null(out);
	assert_int_equal(filled, 3);
	assert_string_equal(
	        out,
	        "{\"title\":{\"value\":\"Own\",\"source\":\"title\"},"
	        "\"tags\":[],"
	        "\"author\":{\"value\":\"Ana\",\"source\":\"oembed\"},"
	        "\"authors\":[{\"value\":\"Ana\",\"source\":\"oembed\"}],"
	        "\"publisher\":{\"value\":\"ClipHub\",\"source\":\"oembed\"},"
	        "\"thumbnail\":{\"value\":\"https://cdn.test/t.jpg\","
	        "\"source\":\"oembed\"},"
	        "\"oembed\":{\"url\":\"https://a.test/oembed?url=x\","
	        "\"type\":\"video\",\"width\":640}}");
	heed__free(heed_test_allocator(), out);
	/* A stored record that is not an object is left alone. */
	assert_null(heed__crawl_record_oembed(heed_test_allocator(), "[1]", &o,
	                                      "https://a.test/o", &filled));
	assert_int_equal(filled, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_check_url),
	        cmocka_unit_test(test_url_too_long),
	        cmocka_unit_test(test_candidate_start_done),
	        cmocka_unit_test(test_unstart),
	        cmocka_unit_test(test_defer_orders_by_time),
	        cmocka_unit_test(test_park_until_unpark),
	        cmocka_unit_test(test_held_lane_lets_only_robots_go),
	        cmocka_unit_test(test_refs_only_and_push_after),
	        cmocka_unit_test(test_refill_and_page_limit),
	        cmocka_unit_test(test_take_refills),
	        cmocka_unit_test(test_max_active_and_take),
	        cmocka_unit_test(test_reset_holds_and_forgets),
	        cmocka_unit_test(test_rewind_keeps_jobs_of_no_row),
	        cmocka_unit_test(test_reset_candidate_then_robots),
	        cmocka_unit_test(test_heap_against_reference),
	        cmocka_unit_test(test_oom),
	        cmocka_unit_test(test_seen_table),
	        cmocka_unit_test(test_seen_table_holds_a_large_crawl),
	        cmocka_unit_test(test_job_from_copied),
	        cmocka_unit_test(test_record_oembed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
