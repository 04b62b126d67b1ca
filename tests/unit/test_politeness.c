/*
 * Unit tests for politeness (src/politeness): scripted sequences of checks,
 * starts and ends against a clock, each step (operation, now) -> (verdict,
 * wait); then tables for Retry-After and HTTP dates.
 */
#include "heed_test.h"

#include <stdbool.h>

#include "heed/politeness.h"

enum op { CHECK, CHECK_IGNORE, BEGIN, END, CRAWL_DELAY, RESTORE };

struct pstep {
	enum op op;
	const char *host, *addr;
	int64_t unix_s, mono_ms;
	/* END: how it ended; CRAWL_DELAY: delay in arg; RESTORE: level, until
	 */
	bool connected;
	int status;
	int64_t retry_after_s; /* -1: none */
	int64_t arg, arg2;
	/* CHECK: the verdict and wait; CRAWL_DELAY: the status */
	int want;
	int64_t want_wait_ms;
};

struct pscript {
	const char *name;
	struct pstep steps[12];
};

#define H   "a.test"
#define H2  "b.test"
#define IP  "127.0.0.2"
#define IP2 "127.0.0.3"
#define C(host, addr, s, ms, verdict, wait)                              \
	{                                                                \
		CHECK, host, addr, s, ms, .want = HEED_POLITE_##verdict, \
		                          .want_wait_ms = wait           \
	}
#define B(host, addr, s, ms)             \
	{                                \
		BEGIN, host, addr, s, ms \
	}
#define E(host, addr, s, ms, conn, st)               \
	{                                            \
		END, host, addr, s, ms, conn, st, -1 \
	}
#define E_RA(host, addr, s, ms, st, ra)              \
	{                                            \
		END, host, addr, s, ms, true, st, ra \
	}

static const struct pscript scripts[] = {
        {"1 s default delay between two starts to a host",
         {C(H, IP, 100, 0, READY, 0), B(H, IP, 100, 0),
          E(H, IP, 100, 50, true, 200), C(H, IP2, 100, 60, WAIT, 940),
          C(H, IP2, 100, 999, WAIT, 1), C(H, IP2, 101, 1000, READY, 0)}},
        {"robots.txt 5xx then the next address waits the delay",
         {B(H, IP, 100, 0), E(H, IP, 100, 10, true, 500),
          C(H, IP2, 100, 10, WAIT, 990)}},
        {"an attempt that never connected need not wait",
         {B(H, IP, 100, 0), E(H, IP, 100, 3, false, 0),
          C(H, IP2, 100, 3, READY, 0)}},
        {"a failed connect restores the previous start, not none",
         {B(H, IP, 100, 0), E(H, IP, 100, 5, true, 200), B(H, IP, 101, 1000),
          E(H, IP, 101, 1001, false, 0), C(H, IP, 101, 1001, READY, 0),
          C(H, IP, 101, 999, WAIT, 1)}},
        {"hosts are independent",
         {B(H, IP, 100, 0), C(H2, IP2, 100, 1, READY, 0)}},
        {"per address: one in flight at a time across host names",
         {B(H, IP, 100, 0), C(H2, IP, 100, 1, BUSY, 0),
          E(H, IP, 100, 200, true, 200), C(H2, IP, 100, 201, READY, 0)}},
        {"Crawl-delay lengthens the delay",
         {{CRAWL_DELAY, H, NULL, .arg = 5000, .want = HEED_OK},
          B(H, IP, 100, 0),
          E(H, IP, 100, 0, true, 200),
          C(H, IP, 100, 1000, WAIT, 4000),
          C(H, IP, 105, 5000, READY, 0)}},
        {"Crawl-delay shorter than the default never shortens it",
         {{CRAWL_DELAY, H, NULL, .arg = 100, .want = HEED_OK},
          B(H, IP, 100, 0),
          E(H, IP, 100, 0, true, 200),
          C(H, IP, 100, 500, WAIT, 500)}},
        {"Crawl-delay above the cap is refused and changes nothing",
         {{CRAWL_DELAY, H, NULL, .arg = 30001, .want = HEED_EDENIED},
          B(H, IP, 100, 0),
          E(H, IP, 100, 0, true, 200),
          C(H, IP, 101, 1000, READY, 0)}},
        {"429 backs off 60 s, then 120 s, then 240 s",
         {E_RA(H, IP, 0, 0, 0, -1), B(H, IP, 100, 0),
          E_RA(H, IP, 100, 10, 429, -1), C(H, IP, 101, 1010, WAIT, 59000),
          C(H, IP, 160, 60010, READY, 0), B(H, IP, 160, 60010),
          E_RA(H, IP, 160, 60020, 503, -1), C(H, IP, 160, 60020, WAIT, 120000),
          B(H, IP, 280, 180020), E_RA(H, IP, 280, 180030, 429, -1),
          C(H, IP, 280, 180030, WAIT, 240000)}},
        {"Retry-After longer than the back-off is honoured",
         {B(H, IP, 100, 0), E_RA(H, IP, 100, 0, 429, 600),
          C(H, IP, 100, 1000, WAIT, 600000)}},
        {"Retry-After is capped by the longest back-off",
         {B(H, IP, 100, 0), E_RA(H, IP, 100, 0, 503, 999999),
          C(H, IP, 100, 1000, WAIT, 86400000)}},
        {"a success clears the back-off",
         {B(H, IP, 100, 0), E_RA(H, IP, 100, 0, 429, -1), B(H, IP2, 101, 1000),
          E(H, IP2, 101, 1000, true, 200), C(H, IP, 102, 2000, READY, 0)}},
        {"a back-off restored from the store holds after a restart",
         {{RESTORE, H, .arg = 2, .arg2 = 500},
          C(H, IP, 400, 0, WAIT, 100000),
          C(H, IP, 500, 7, READY, 0)}},
        {"the lifecycle may ignore the back-off, not the delay",
         {B(H, IP, 100, 0),
          E_RA(H, IP, 100, 10, 503, -1),
          {CHECK_IGNORE, H, IP2, 100, 20, .want = HEED_POLITE_WAIT,
           .want_wait_ms = 980},
          {CHECK_IGNORE, H, IP2, 101, 1000, .want = HEED_POLITE_READY}}},
};

static const struct heed_polite_options test_options = {
        .default_delay_ms = 1000,
        .crawl_delay_cap_ms = 30000,
        .per_address = true,
        .address_concurrency = 1,
        .address_delay_ms = 0,
        .backoff_base_s = 60,
        .backoff_max_s = 86400,
};

static void run_step(const struct pscript *sc, size_t i, heed_polite *p)
{
	const struct pstep *s = &sc->steps[i];
	struct heed_polite_clock now = {s->unix_s, s->mono_ms};
	struct heed_polite_result r = {s->connected, s->status,
	                               s->retry_after_s >= 0, s->retry_after_s};
	struct heed_polite_backoff b = {(uint32_t)s->arg, s->arg2};
	int64_t wait = -1;
	int got;

	switch (s->op) {
	case CHECK:
	case CHECK_IGNORE:
		got = heed_polite_check(
		        p, s->host, s->addr, &now,
		        s->op == CHECK_IGNORE ? HEED_POLITE_IGNORE_BACKOFF : 0,
		        &wait);
		if (got != s->want || wait != s->want_wait_ms)
			fail_msg("%s, step %zu: verdict %d wait %lld, want %d "
			         "%lld",
			         sc->name, i, got, (long long)wait, s->want,
			         (long long)s->want_wait_ms);
		break;
	case BEGIN:
		assert_int_equal(heed_polite_begin(p, s->host, s->addr, &now),
		                 HEED_OK);
		break;
	case END:
		heed_polite_end(p, s->host, s->addr, &now, &r);
		break;
	case CRAWL_DELAY:
		got = heed_polite_set_crawl_delay(p, s->host, s->arg);
		if (got != s->want)
			fail_msg("%s, step %zu: %s", sc->name, i,
			         heed_status_name(got));
		break;
	case RESTORE:
		assert_int_equal(heed_polite_set_backoff(p, s->host, &b),
		                 HEED_OK);
		break;
	}
}

static void test_politeness_scripts(void **state)
{
	size_t i, j;

	(void)state;
	for (i = 0; i < HEED_ARRAY_SIZE(scripts); i++) {
		heed_polite *p;
		assert_int_equal(heed_polite_new(&p, &test_options,
		                                 heed_test_allocator()),
		                 HEED_OK);
		for (j = 0; j < HEED_ARRAY_SIZE(scripts[i].steps) &&
		            scripts[i].steps[j].host;
		     j++)
			run_step(&scripts[i], j, p);
		heed_polite_free(p);
	}
}

static void test_backoff_round_trip(void **state)
{
	struct heed_polite_clock now = {1000, 0};
	struct heed_polite_result r = {true, 429, true, 5};
	struct heed_polite_backoff b;
	heed_polite *p;

	(void)state;
	assert_int_equal(
	        heed_polite_new(&p, &test_options, heed_test_allocator()),
	        HEED_OK);
	heed_polite_get_backoff(p, "none.test", &b);
	assert_int_equal(b.level, 0);
	assert_int_equal(b.until_s, 0);
	heed_polite_begin(p, H, IP, &now);
	heed_polite_end(p, H, IP, &now, &r);
	heed_polite_get_backoff(p, H, &b);
	assert_int_equal(b.level, 1);
	assert_int_equal(b.until_s, 1060);
	assert_int_equal(heed_polite_delay_ms(p, H), 1000);
	heed_polite_free(p);
}

/* A previous process's last request, restored: the delay still holds. */
static void test_last_start_restored(void **state)
{
	struct heed_polite_clock now = {1000, 50000};
	int64_t wait = 0, got = 0;
	heed_polite *p;

	(void)state;
	assert_int_equal(
	        heed_polite_new(&p, &test_options, heed_test_allocator()),
	        HEED_OK);
	assert_false(heed_polite_get_last_start(p, H, &got));
	assert_int_equal(heed_polite_set_last_start(p, H, 49700), HEED_OK);
	assert_int_equal(heed_polite_check(p, H, IP, &now, 0, &wait),
	                 HEED_POLITE_WAIT);
	assert_int_equal(wait, 700);
	/* An older time never moves a known start back. */
	assert_int_equal(heed_polite_set_last_start(p, H, 10), HEED_OK);
	assert_true(heed_polite_get_last_start(p, H, &got));
	assert_int_equal(got, 49700);
	heed_polite_free(p);
}

/* Thousands of hosts: the table grows and finds every one. */
static void test_many_hosts(void **state)
{
	struct heed_polite_clock now = {1, 0};
	char name[32];
	heed_polite *p;
	int i;

	(void)state;
	assert_int_equal(
	        heed_polite_new(&p, &test_options, heed_test_allocator()),
	        HEED_OK);
	for (i = 0; i < 3000; i++) {
		snprintf(name, sizeof(name), "h%d.test", i);
		assert_int_equal(heed_polite_set_crawl_delay(p, name, 2000 + i),
		                 HEED_OK);
	}
	for (i = 0; i < 3000; i++) {
		snprintf(name, sizeof(name), "h%d.test", i);
		assert_int_equal(heed_polite_delay_ms(p, name), 2000 + i);
	}
	assert_int_equal(heed_polite_check(p, "h7.test", NULL, &now, 0, NULL),
	                 HEED_POLITE_READY);
	heed_polite_free(p);
}

static void test_oom(void **state)
{
	struct heed_polite_clock now = {1, 0};
	unsigned long n;

	(void)state;
	for (n = 0;; n++) {
		struct heed_test_fail f = {.fail_at = n};
		heed_polite *p = NULL;
		heed_status rc = heed_polite_new(
		        &p, &test_options, heed_test_failing_allocator(&f));
		if (rc == HEED_OK)
			rc = heed_polite_begin(p, H, IP, &now);
		heed_polite_free(p);
		if (rc == HEED_OK)
			break;
		assert_int_equal(rc, HEED_ENOMEM);
	}
}

static const struct date_case {
	const char *name, *text;
	heed_status want;
	int64_t unix_s;
} date_cases[] = {
        {"RFC 9110 5.6.7: IMF-fixdate", "Sun, 06 Nov 1994 08:49:37 GMT",
         HEED_OK, 784111777},
        {"RFC 9110 5.6.7: obsolete RFC 850 form",
         "Sunday, 06-Nov-94 08:49:37 GMT", HEED_OK, 784111777},
        {"RFC 9110 5.6.7: obsolete asctime form", "Sun Nov  6 08:49:37 1994",
         HEED_OK, 784111777},
        {"asctime with a two-digit day", "Thu Nov 26 08:49:37 2026", HEED_OK,
         1795682977},
        {"the epoch", "Thu, 01 Jan 1970 00:00:00 GMT", HEED_OK, 0},
        {"a leap day", "Thu, 29 Feb 2024 12:00:00 GMT", HEED_OK, 1709208000},
        {"RFC 850 two-digit years below 70 are 20xx",
         "Friday, 01-Jan-49 00:00:00 GMT", HEED_OK, 2493072000},
        {"no leap day in 2023", "Wed, 29 Feb 2023 12:00:00 GMT", HEED_EPARSE,
         0},
        {"hour 24 is invalid", "Sun, 06 Nov 1994 24:00:00 GMT", HEED_EPARSE, 0},
        {"another zone is not an HTTP date", "Sun, 06 Nov 1994 08:49:37 UTC",
         HEED_EPARSE, 0},
        {"lowercase month is not an HTTP date", "Sun, 06 nov 1994 08:49:37 GMT",
         HEED_EPARSE, 0},
        {"trailing bytes", "Sun, 06 Nov 1994 08:49:37 GMTx", HEED_EPARSE, 0},
        {"cut short", "Sun, 06 Nov 1994 08:49", HEED_EPARSE, 0},
        {"empty", "", HEED_EPARSE, 0},
};

static void test_http_dates(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < HEED_ARRAY_SIZE(date_cases); i++) {
		const struct date_case *c = &date_cases[i];
		int64_t t = -1;
		heed_status rc =
		        heed_http_date_parse(c->text, strlen(c->text), &t);
		if (rc != c->want || (rc == HEED_OK && t != c->unix_s))
			fail_msg("%s: %s %lld, want %s %lld", c->name,
			         heed_status_name(rc), (long long)t,
			         heed_status_name(c->want),
			         (long long)c->unix_s);
	}
}

static const struct retry_case {
	const char *name, *text;
	int64_t now_s;
	heed_status want;
	int64_t delay_s;
} retry_cases[] = {
        {"RFC 9110 10.2.3: delay-seconds", "120", 0, HEED_OK, 120},
        {"zero seconds", "0", 0, HEED_OK, 0},
        {"surrounding white space", " \t30 ", 0, HEED_OK, 30},
        {"an HTTP date in the future", "Sun, 06 Nov 1994 08:49:37 GMT",
         784111777 - 90, HEED_OK, 90},
        {"an HTTP date in the past waits nothing",
         "Sun, 06 Nov 1994 08:49:37 GMT", 784111777 + 5, HEED_OK, 0},
        {"an enormous number saturates at a year", "99999999999999999999999999",
         0, HEED_OK, 365 * 86400LL},
        {"a date decades ahead saturates at a year",
         "Fri, 01 Jan 2100 00:00:00 GMT", 0, HEED_OK, 365 * 86400LL},
        {"negative numbers are invalid", "-5", 0, HEED_EPARSE, 0},
        {"fractions are invalid", "1.5", 0, HEED_EPARSE, 0},
        {"words are invalid", "soon", 0, HEED_EPARSE, 0},
        {"blank is invalid", "  ", 0, HEED_EPARSE, 0},
};

static void test_retry_after(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < HEED_ARRAY_SIZE(retry_cases); i++) {
		const struct retry_case *c = &retry_cases[i];
		int64_t d = -1;
		heed_status rc = heed_retry_after_parse(
		        c->text, strlen(c->text), c->now_s, &d);
		if (rc != c->want || (rc == HEED_OK && d != c->delay_s))
			fail_msg("%s: %s %lld, want %s %lld", c->name,
			         heed_status_name(rc), (long long)d,
			         heed_status_name(c->want),
			         (long long)c->delay_s);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_politeness_scripts),
	        cmocka_unit_test(test_backoff_round_trip),
	        cmocka_unit_test(test_last_start_restored),
	        cmocka_unit_test(test_many_hosts),
	        cmocka_unit_test(test_oom),
	        cmocka_unit_test(test_http_dates),
	        cmocka_unit_test(test_retry_after),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
