/*
 * Unit tests for the crawl scheduler and URL limits (issue 8, "Scheduling
 * across many sites" and "within limits the operator sets"), driven by
 * tables and a fake clock: every time is an argument, nothing sleeps.
 */
#include "heed_test.h"

#include "crawl/engine-int.h"
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

static const struct polite_case {
	const char *name;
	int64_t last_start_ms, now_ms, want;
} polite_cases[] = {
        {"never contacted: now", INT64_MIN, 5000, 5000},
        {"999 ms after: wait", 4001, 5000, 5001},
        {"exactly 1 s after: now", 4000, 5000, 5000},
        {"long ago: now", 10, 5000, 5000},
};

static void test_plain_politeness(void **state)
{
	int64_t delay = HEED_CRAWL_DELAY_MS;
	struct heed_crawl_politeness p = heed_crawl_plain_politeness(&delay);

	(void)state;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(polite_cases); i++) {
		const struct polite_case *c = &polite_cases[i];
		int64_t got =
		        p.next_ms(p.ud, "a.test", c->last_start_ms, c->now_ms);
		if (got != c->want)
			fail_msg("%s: got %lld, want %lld", c->name,
			         (long long)got, (long long)c->want);
	}
}

/* A simulated crawl: hosts x jobs, each fetch takes fetch_ms; the fake
 * clock jumps to the next event. Checks the invariants every step. */
struct sim_case {
	const char *name;
	int hosts, jobs;
	unsigned max_active;
	int64_t fetch_ms;
	int64_t want_end_ms; /* when the last fetch completes */
};

static const struct sim_case sim_cases[] = {
        /* One host, 5 jobs: starts at 0, 1000, ..., 4000; ends 4100. */
        {"one host waits 1 s between starts", 1, 5, 8, 100, 4100},
        /* A slow fetch (1500 ms) pushes the next start past 1 s. */
        {"one request in flight per host", 1, 3, 8, 1500, 4500},
        /* Ten hosts in parallel still take 1 s per round. */
        {"hosts crawl in parallel", 10, 3, 16, 100, 2100},
        /* Two slots for 4 hosts: two rounds of 250 ms per second. */
        {"global bound on requests in flight", 4, 2, 2, 250, 1500},
};

struct sim_host {
	char name[16];
	int64_t last_start;
	int started, next_job;
	int64_t done_at; /* when its fetch in flight completes, or -1 */
};

static void push_jobs(heed_sched *s, struct sim_host *h, int jobs)
{
	char url[64];

	for (int j = 0; j < jobs; j++) {
		struct heed_sched_job job = {j + 1, url,           h->name,
		                             0,     HEED_JOB_PAGE, INT64_MIN};
		snprintf(url, sizeof(url), "http://%.15s/%d", h->name, j);
		assert_int_equal(heed_sched_push(s, &job, false), HEED_OK);
	}
}

static int64_t sim_next_event(struct sim_host *hosts, int n, int64_t now,
                              int64_t wait)
{
	int64_t next = wait > 0 ? now + wait : INT64_MAX;

	for (int i = 0; i < n; i++)
		if (hosts[i].done_at >= 0 && hosts[i].done_at < next)
			next = hosts[i].done_at;
	return next;
}

static void check_fetch(const struct sim_case *c, struct sim_host *hosts,
                        const struct heed_sched_job *job, int64_t now,
                        size_t in_flight)
{
	int i = (int)strtol(job->host + 1, NULL, 10); /* "h12" */
	struct sim_host *h = &hosts[i];
	char want[64];

	if (h->started && now - h->last_start < HEED_CRAWL_DELAY_MS)
		fail_msg("%s: %s started %lld ms after the last", c->name,
		         h->name, (long long)(now - h->last_start));
	if (h->done_at >= 0)
		fail_msg("%s: two fetches in flight to %s", c->name, h->name);
	if (in_flight > c->max_active)
		fail_msg("%s: %zu in flight", c->name, in_flight);
	snprintf(want, sizeof(want), "http://%s/%d", h->name, h->next_job++);
	assert_string_equal(job->url, want); /* FIFO per host */
	h->last_start = now;
	h->started++;
	h->done_at = now + c->fetch_ms;
}

static void run_sim(const struct sim_case *c)
{
	struct heed_crawl_limits l;
	int64_t delay = HEED_CRAWL_DELAY_MS, now = 0, wait, end = 0;
	struct heed_crawl_politeness p = heed_crawl_plain_politeness(&delay);
	struct sim_host hosts[16];
	heed_sched *s = NULL;
	struct heed_sched_stats st;
	int steps = 0;

	heed_crawl_limits_default(&l);
	l.max_active = c->max_active;
	assert_int_equal(heed_sched_new(&s, &l, &p, 0, heed_test_allocator()),
	                 HEED_OK);
	for (int i = 0; i < c->hosts; i++) {
		snprintf(hosts[i].name, sizeof(hosts[i].name), "h%d", i);
		hosts[i].started = hosts[i].next_job = 0;
		hosts[i].done_at = -1;
		push_jobs(s, &hosts[i], c->jobs);
	}
	for (;;) {
		struct heed_sched_job job;
		const char *host;
		heed_sched_verdict v =
		        heed_sched_next(s, now, &job, &host, &wait);
		assert_true(++steps < 10000);
		if (v == HEED_SCHED_DONE)
			break;
		if (v == HEED_SCHED_FETCH) {
			heed_sched_stats_get(s, &st);
			check_fetch(c, hosts, &job, now, st.in_flight);
			continue;
		}
		assert_true(v == HEED_SCHED_WAIT || v == HEED_SCHED_BUSY ||
		            v == HEED_SCHED_IDLE);
		now = sim_next_event(hosts, c->hosts, now, wait);
		for (int i = 0; i < c->hosts; i++) {
			if (hosts[i].done_at != now)
				continue;
			hosts[i].done_at = -1;
			end = now;
			assert_int_equal(
			        heed_sched_done(s, hosts[i].name, now, 200),
			        HEED_OK);
		}
	}
	for (int i = 0; i < c->hosts; i++)
		assert_int_equal(hosts[i].started, c->jobs);
	if (end != c->want_end_ms)
		fail_msg("%s: ended at %lld, want %lld", c->name,
		         (long long)end, (long long)c->want_end_ms);
	heed_sched_stats_get(s, &st);
	assert_int_equal(st.pages_started, c->hosts * c->jobs);
	assert_int_equal(st.hosts_done, c->hosts);
	heed_sched_free(s);
}

static void test_simulated_crawls(void **state)
{
	(void)state;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(sim_cases); i++)
		run_sim(&sim_cases[i]);
}

static heed_sched *new_sched(const struct heed_crawl_limits *l,
                             const struct heed_crawl_politeness *p)
{
	heed_sched *s = NULL;

	assert_int_equal(heed_sched_new(&s, l, p, 0, heed_test_allocator()),
	                 HEED_OK);
	return s;
}

static heed_sched_verdict next(heed_sched *s, int64_t now,
                               struct heed_sched_job *job, const char **host)
{
	int64_t wait;

	return heed_sched_next(s, now, job, host, &wait);
}

static void test_refill_window_from_store(void **state)
{
	struct heed_crawl_limits l;
	int64_t delay = HEED_CRAWL_DELAY_MS;
	struct heed_crawl_politeness p = heed_crawl_plain_politeness(&delay);
	struct heed_sched_job job, a = {7, "http://a.test/7", "a.test",
	                                2, HEED_JOB_PAGE,     INT64_MIN};
	const char *host;
	heed_sched *s;

	(void)state;
	heed_crawl_limits_default(&l);
	s = new_sched(&l, &p);
	assert_int_equal(heed_sched_host_more(s, "a.test", 0), HEED_OK);
	assert_int_equal(next(s, 0, &job, &host), HEED_SCHED_REFILL);
	assert_string_equal(host, "a.test");
	/* While the refill is pending the host is not handed out again. */
	assert_int_equal(next(s, 0, &job, &host), HEED_SCHED_DONE);
	assert_int_equal(heed_sched_push(s, &a, false), HEED_OK);
	assert_int_equal(heed_sched_refilled(s, "a.test", true), HEED_OK);
	assert_int_equal(next(s, 0, &job, &host), HEED_SCHED_FETCH);
	assert_int_equal(job.id, 7);
	assert_int_equal(job.depth, 2);
	assert_int_equal(next(s, 10, &job, &host), HEED_SCHED_IDLE);
	assert_int_equal(heed_sched_done(s, "a.test", 50, 200), HEED_OK);
	assert_int_equal(heed_sched_done(s, "a.test", 50, 200), HEED_ENOTFOUND);
	/* More on disk: after the delay, another refill. */
	assert_int_equal(next(s, 500, &job, &host), HEED_SCHED_WAIT);
	assert_int_equal(next(s, 1000, &job, &host), HEED_SCHED_REFILL);
	assert_int_equal(heed_sched_refilled(s, "a.test", false), HEED_OK);
	assert_int_equal(next(s, 1000, &job, &host), HEED_SCHED_DONE);
	heed_sched_free(s);
}

static void test_robots_first_and_page_limit(void **state)
{
	struct heed_crawl_limits l;
	struct heed_crawl_politeness none = {0};
	struct heed_sched_job job, page = {1, "http://a.test/1", "a.test",
	                                   0, HEED_JOB_PAGE,     INT64_MIN};
	struct heed_sched_job robots = {0,
	                                "http://a.test/robots.txt",
	                                "a.test",
	                                0,
	                                HEED_JOB_ROBOTS,
	                                INT64_MIN};
	const char *host;
	heed_sched *s;

	(void)state;
	heed_crawl_limits_default(&l);
	l.max_pages = 2;
	s = new_sched(&l, &none);
	for (int i = 0; i < 4; i++)
		assert_int_equal(heed_sched_push(s, &page, false), HEED_OK);
	assert_int_equal(heed_sched_push(s, &robots, true), HEED_OK);
	assert_int_equal(next(s, 0, &job, &host), HEED_SCHED_FETCH);
	assert_int_equal(job.kind, HEED_JOB_ROBOTS);
	heed_sched_done(s, "a.test", 0, 200);
	/* robots.txt does not count as a page: two pages, then the drop. */
	for (int i = 0; i < 2; i++) {
		assert_int_equal(next(s, 0, &job, &host), HEED_SCHED_FETCH);
		assert_int_equal(job.kind, HEED_JOB_PAGE);
		heed_sched_done(s, "a.test", 0, 200);
	}
	assert_int_equal(next(s, 0, &job, &host), HEED_SCHED_DROP_HOST);
	assert_string_equal(host, "a.test");
	assert_int_equal(next(s, 0, &job, &host), HEED_SCHED_DONE);
	/* New URLs for a dropped host are not fetched either. */
	assert_int_equal(heed_sched_host_more(s, "a.test", 0), HEED_OK);
	assert_int_equal(next(s, 0, &job, &host), HEED_SCHED_DONE);
	heed_sched_free(s);
}

static void test_resumed_pages_count_against_limit(void **state)
{
	struct heed_crawl_limits l;
	struct heed_crawl_politeness none = {0};
	struct heed_sched_job job, page = {1, "http://a.test/1", "a.test",
	                                   0, HEED_JOB_PAGE,     INT64_MIN};
	const char *host;
	heed_sched *s;

	(void)state;
	heed_crawl_limits_default(&l);
	l.max_pages = 3;
	s = new_sched(&l, &none);
	assert_int_equal(heed_sched_host_more(s, "a.test", 3), HEED_OK);
	assert_int_equal(heed_sched_push(s, &page, false), HEED_OK);
	assert_int_equal(next(s, 0, &job, &host), HEED_SCHED_DROP_HOST);
	heed_sched_free(s);
}

static void test_held_host_lets_only_robots_go(void **state)
{
	struct heed_crawl_limits l;
	struct heed_crawl_politeness none = {0};
	struct heed_sched_job job, page = {1, "http://a.test/1", "a.test",
	                                   0, HEED_JOB_PAGE,     INT64_MIN};
	struct heed_sched_job robots = {0,
	                                "http://a.test/robots.txt",
	                                "a.test",
	                                0,
	                                HEED_JOB_ROBOTS,
	                                INT64_MIN};
	const char *host;
	heed_sched *s;

	(void)state;
	heed_crawl_limits_default(&l);
	s = new_sched(&l, &none);
	assert_int_equal(heed_sched_hold(s, "a.test", true), HEED_OK);
	assert_int_equal(heed_sched_push(s, &page, false), HEED_OK);
	assert_int_equal(next(s, 0, &job, &host), HEED_SCHED_DONE);
	assert_int_equal(heed_sched_push(s, &robots, true), HEED_OK);
	assert_int_equal(next(s, 0, &job, &host), HEED_SCHED_FETCH);
	assert_int_equal(job.kind, HEED_JOB_ROBOTS);
	heed_sched_done(s, "a.test", 0, 200);
	/* Still held: the page waits for the qualification to end. */
	assert_int_equal(next(s, 0, &job, &host), HEED_SCHED_DONE);
	assert_int_equal(heed_sched_hold(s, "a.test", false), HEED_OK);
	assert_int_equal(next(s, 0, &job, &host), HEED_SCHED_FETCH);
	assert_int_equal(job.kind, HEED_JOB_PAGE);
	heed_sched_done(s, "a.test", 0, 200);
	/* A site that is not qualified is dropped with its queue. */
	assert_int_equal(heed_sched_push(s, &page, false), HEED_OK);
	assert_int_equal(heed_sched_drop(s, "a.test"), HEED_OK);
	assert_int_equal(next(s, 0, &job, &host), HEED_SCHED_DONE);
	heed_sched_free(s);
}

static void test_run_time_and_stop(void **state)
{
	struct heed_crawl_limits l;
	struct heed_crawl_politeness none = {0};
	struct heed_sched_job job, page = {1, "http://a.test/1", "a.test",
	                                   0, HEED_JOB_PAGE,     INT64_MIN};
	const char *host;
	heed_sched *s;

	(void)state;
	heed_crawl_limits_default(&l);
	l.max_run_ms = 60000;
	s = new_sched(&l, &none);
	assert_int_equal(heed_sched_push(s, &page, false), HEED_OK);
	assert_int_equal(next(s, 60000, &job, &host), HEED_SCHED_DONE);
	heed_sched_free(s);
	l.max_run_ms = 0;
	s = new_sched(&l, &none);
	assert_int_equal(heed_sched_push(s, &page, false), HEED_OK);
	heed_sched_stop(s);
	assert_int_equal(next(s, 0, &job, &host), HEED_SCHED_DONE);
	heed_sched_free(s);
}

static void test_many_hosts_grow_tables(void **state)
{
	struct heed_crawl_limits l;
	struct heed_crawl_politeness none = {0};
	struct heed_sched_job job;
	struct heed_sched_stats st;
	const char *host;
	char name[32], url[64];
	heed_sched *s;
	int fetched = 0;

	(void)state;
	heed_crawl_limits_default(&l);
	l.max_active = 5000;
	s = new_sched(&l, &none);
	for (int i = 0; i < 3000; i++) {
		struct heed_sched_job j = {i, url,           name,
		                           0, HEED_JOB_PAGE, INT64_MIN};
		snprintf(name, sizeof(name), "site%d.test", i);
		snprintf(url, sizeof(url), "http://site%d.test/", i);
		assert_int_equal(heed_sched_push(s, &j, false), HEED_OK);
	}
	heed_sched_stats_get(s, &st);
	assert_int_equal(st.hosts, 3000);
	assert_int_equal(st.window_jobs, 3000);
	while (next(s, 0, &job, &host) == HEED_SCHED_FETCH)
		fetched++;
	assert_int_equal(fetched, 3000);
	heed_sched_stats_get(s, &st);
	assert_int_equal(st.hosts_active, 3000);
	heed_sched_free(s);
}

static void test_oom(void **state)
{
	struct heed_crawl_limits l;
	struct heed_crawl_politeness none = {0};
	struct heed_sched_job page = {1, "http://a.test/1", "a.test",
	                              0, HEED_JOB_PAGE,     INT64_MIN};

	(void)state;
	heed_crawl_limits_default(&l);
	for (unsigned long n = 0;; n++) {
		struct heed_test_fail f = {.fail_at = n};
		heed_sched *s = NULL;
		heed_status rc = heed_sched_new(
		        &s, &l, &none, 0, heed_test_failing_allocator(&f));
		if (rc == HEED_OK)
			rc = heed_sched_push(s, &page, false);
		if (rc == HEED_OK)
			rc = heed_sched_host_more(s, "b.test", 0);
		heed_sched_free(s);
		if (rc == HEED_OK)
			break;
		assert_int_equal(rc, HEED_ENOMEM);
	}
	l.max_active = 0;
	{
		heed_sched *s = NULL;
		assert_int_equal(heed_sched_new(&s, &l, &none, 0, NULL),
		                 HEED_EINVAL);
	}
	assert_string_equal(heed_sched_verdict_name(HEED_SCHED_DROP_HOST),
	                    "drop-host");
}

/* The seen-table: remembered fingerprints answer yes, a set keeps the two
 * most recent, and no URL's fingerprint is the empty-slot marker. */
static void test_seen_table(void **state)
{
	const struct heed_allocator *a = heed_test_allocator();
	struct heed__seen s;
	/* Three fingerprints of one set (the set is fp modulo the sets). */
	const uint64_t f1 = 1, f2 = 1 + ENGINE_SEEN_SETS,
	               f3 = 1 + 2 * (uint64_t)ENGINE_SEEN_SETS;

	(void)state;
	assert_int_equal(heed__seen_init(&s, a), HEED_OK);
	assert_false(heed__seen_has(&s, f1));
	heed__seen_add(&s, f1);
	heed__seen_add(&s, f2);
	assert_true(heed__seen_has(&s, f1));
	assert_true(heed__seen_has(&s, f2));
	assert_false(heed__seen_has(&s, f3));
	heed__seen_add(&s, f2); /* already first: f1 stays */
	assert_true(heed__seen_has(&s, f1));
	heed__seen_add(&s, f3); /* pushes out the older, f1 */
	assert_true(heed__seen_has(&s, f3));
	assert_true(heed__seen_has(&s, f2));
	assert_false(heed__seen_has(&s, f1));
	assert_int_not_equal(heed__seen_fingerprint(""), 0);
	assert_int_equal(heed__seen_fingerprint("http://a.test/x"),
	                 heed__seen_fingerprint("http://a.test/x"));
	assert_int_not_equal(heed__seen_fingerprint("http://a.test/x"),
	                     heed__seen_fingerprint("http://a.test/y"));
	heed__seen_free(&s);
}

/* The host key read off a URL string: when it gives one, the full parse
 * gives the same; the URLs it turns down are the ones needing work. */
static void test_plain_host_key(void **state)
{
	static const struct {
		const char *url, *key; /* key NULL: left to heed_url_parse */
	} cases[] = {
	        {"http://a.test/x", "a.test"},
	        {"https://a.test", "a.test"},
	        {"http://127.1.0.5:18081/p/1.html", "127.1.0.5:18081"},
	        {"https://a.test:8443/?q=1#f", "a.test:8443"},
	        {"http://a-b.c.test/x?y", "a-b.c.test"},
	        {"http://A.test/x", NULL},
	        {"http://a.test:80/x", NULL},
	        {"https://a.test:443/", NULL},
	        {"http://a.test:080/", NULL},
	        {"http://a.test:/", NULL},
	        {"http://a.test./", NULL},
	        {"http://u@a.test/", NULL},
	        {"http://[::1]/", NULL},
	        {"http://a%2Etest/", NULL},
	        {"http://a.test/p q", NULL},
	        {"http://a.test/caf\xc3\xa9", NULL},
	        {"http://a.test/a\\b", NULL},
	        {"ftp://a.test/", NULL},
	        {"http://127.1/", "127.1"}, /* parse says 127.0.0.1: no host */
	        {"http://", NULL},
	};
	char key[256];

	(void)state;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(cases); i++) {
		bool got = heed__crawl_plain_host_key(cases[i].url, key);
		heed_url *u = NULL;
		if (!cases[i].key) {
			assert_false(got);
			continue;
		}
		assert_true(got);
		assert_string_equal(key, cases[i].key);
		if (strcmp(cases[i].url, "http://127.1/") == 0)
			continue;
		assert_int_equal(heed_url_parse(&u, cases[i].url,
		                                strlen(cases[i].url),
		                                heed_test_allocator()),
		                 HEED_OK);
		assert_string_equal(heed_url_host_key(u), key);
		heed_url_free(u);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_check_url),
	        cmocka_unit_test(test_url_too_long),
	        cmocka_unit_test(test_plain_politeness),
	        cmocka_unit_test(test_simulated_crawls),
	        cmocka_unit_test(test_refill_window_from_store),
	        cmocka_unit_test(test_robots_first_and_page_limit),
	        cmocka_unit_test(test_resumed_pages_count_against_limit),
	        cmocka_unit_test(test_held_host_lets_only_robots_go),
	        cmocka_unit_test(test_run_time_and_stop),
	        cmocka_unit_test(test_many_hosts_grow_tables),
	        cmocka_unit_test(test_oom),
	        cmocka_unit_test(test_seen_table),
	        cmocka_unit_test(test_plain_host_key),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
