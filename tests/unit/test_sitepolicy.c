/*
 * Unit tests for the robots.txt lifecycle (src/sitepolicy): each scenario is
 * a table of steps (state before, event, now) -> (state after, action), named
 * after the seed sentence it proves, then a check of the durable record.
 * The body verdict ("parsed with errors") has its own table.
 */
#include "heed_test.h"

#include <stdbool.h>

#include "heed/sitepolicy.h"

#define T0 1000000 /* Unix seconds of the first event */

struct step {
	struct heed_site_event ev;
	int64_t at_s, at_ms; /* offsets from T0 and from 0 */
	heed_site_state want_state;
	heed_site_action_kind want_action;
	size_t address;   /* DO_FETCH */
	unsigned pass;    /* DO_FETCH */
	int64_t until_ms; /* DO_WAIT */
	bool fetched;     /* DO_DONE */
};

struct scenario {
	const char *name;
	struct heed_site_record start;
	struct step steps[16];
	/* The record afterwards. */
	heed_site_reason reason;
	uint32_t failures;
	int64_t next_attempt; /* offset from T0; -1: 0 (never) */
	int http_status;
};

#define EV(k, ...)                                    \
	{                                             \
		.kind = HEED_SITE_EV_##k, __VA_ARGS__ \
	}
#define START(s)                                                           \
	{                                                                  \
		EV(START), s, 0, HEED_SITE_RESOLVING, HEED_SITE_DO_RESOLVE \
	}
#define FETCHED(ev, addr, p)                                              \
	{                                                                 \
		ev, 0, 0, HEED_SITE_FETCHING, HEED_SITE_DO_FETCH, addr, p \
	}
#define DONE(ev, st)                                                         \
	{                                                                    \
		ev, 0, 0, HEED_SITE_##st, HEED_SITE_DO_DONE, .fetched = true \
	}
/* Done without contacting the site (no attempt was started). */
#define DONE0(ev, st)                                       \
	{                                                   \
		ev, 0, 0, HEED_SITE_##st, HEED_SITE_DO_DONE \
	}
#define RESOLVED(n) EV(RESOLVED, .address_count = n)
#define STATUS(c)   EV(STATUS, .status = c)
#define REDIRECT    EV(STATUS, .status = 301, .has_location = true)
#define FAILED      EV(ATTEMPT_FAILED, .detail = "connection refused")
#define READ(ev, st)                                           \
	{                                                      \
		ev, 0, 0, HEED_SITE_##st, HEED_SITE_DO_NOTHING \
	}
#define RULES EV(PARSED, .verdict = HEED_SITE_BODY_RULES)
/* A status whose answer says how long it stays fresh (RFC 9111). */
#define FRESH(c, f) EV(STATUS, .status = c, .has_fresh = true, .fresh_s = f)

static const struct scenario scenarios[] = {
        {"seed 1: a DNS failure means crawling is not possible (a failure)",
         {0},
         {START(0),
          DONE0(EV(RESOLVE_FAILED, .detail = "NXDOMAIN"), DISQUALIFIED)},
         HEED_SITE_R_DNS,
         1,
         600,
         0},
        {"seed 1: a host without a usable address is a DNS failure",
         {0},
         {START(0), DONE0(RESOLVED(0), DISQUALIFIED)},
         HEED_SITE_R_DNS,
         1,
         600,
         0},
        {"seed 3-4: every address tried, 2 s pause, all once more, then "
         "disqualified for now",
         {0},
         {START(0),
          FETCHED(RESOLVED(2), 0, 1),
          FETCHED(FAILED, 1, 1),
          {FAILED, 0, 100, HEED_SITE_PAUSED, HEED_SITE_DO_WAIT,
           .until_ms = 2100},
          {EV(TIMER), 0, 1500, HEED_SITE_PAUSED, HEED_SITE_DO_WAIT,
           .until_ms = 2100},
          {EV(TIMER), 0, 2100, HEED_SITE_FETCHING, HEED_SITE_DO_FETCH, 0, 2},
          FETCHED(FAILED, 1, 2),
          DONE(FAILED, DISQUALIFIED)},
         HEED_SITE_R_NO_ANSWER,
         1,
         600,
         0},
        {"seed 5: a status >= 500 is a bad connection on every address, "
         "both passes",
         {0},
         {START(0),
          FETCHED(RESOLVED(2), 0, 1),
          FETCHED(STATUS(503), 1, 1),
          {STATUS(500), 0, 0, HEED_SITE_PAUSED, HEED_SITE_DO_WAIT,
           .until_ms = 2000},
          {EV(TIMER), 0, 2000, HEED_SITE_FETCHING, HEED_SITE_DO_FETCH, 0, 2},
          FETCHED(STATUS(502), 1, 2),
          DONE(STATUS(599), DISQUALIFIED)},
         HEED_SITE_R_NO_ANSWER,
         1,
         600,
         599},
        {"seed 5 + 3: 5xx, then 200 on the next address: qualified with "
         "rules, failures back to zero",
         {HEED_SITE_DISQUALIFIED, HEED_SITE_R_DNS, 0, 1, 0, T0 - 1, 2, ""},
         {START(0), FETCHED(RESOLVED(3), 0, 1), FETCHED(STATUS(503), 1, 1),
          READ(STATUS(200), READING), READ(EV(BODY_COMPLETE), PARSING),
          DONE(RULES, QUALIFIED_RULES)},
         HEED_SITE_R_PARSED,
         0,
         86400,
         200},
        {"seed 5: a low-level error, then 200 on the second pass",
         {0},
         {START(0),
          FETCHED(RESOLVED(1), 0, 1),
          {FAILED, 0, 0, HEED_SITE_PAUSED, HEED_SITE_DO_WAIT, .until_ms = 2000},
          {EV(TIMER), 0, 2000, HEED_SITE_FETCHING, HEED_SITE_DO_FETCH, 0, 2},
          READ(STATUS(204), READING),
          READ(EV(BODY_COMPLETE), PARSING),
          DONE(RULES, QUALIFIED_RULES)},
         HEED_SITE_R_PARSED,
         0,
         86400,
         204},
        {"seed 5: any status below 500 stops trying addresses (404 on the "
         "second of three)",
         {0},
         {START(0), FETCHED(RESOLVED(3), 0, 1), FETCHED(STATUS(500), 1, 1),
          DONE(STATUS(404), QUALIFIED_NO_RULES)},
         HEED_SITE_R_NO_ROBOTS,
         0,
         86400,
         404},
        {"seed 2: 400 qualifies with no rules",
         {0},
         {START(0), FETCHED(RESOLVED(1), 0, 1),
          DONE(STATUS(400), QUALIFIED_NO_RULES)},
         HEED_SITE_R_NO_ROBOTS,
         0,
         86400,
         400},
        {"seed 2: 410 qualifies with no rules",
         {0},
         {START(0), FETCHED(RESOLVED(1), 0, 1),
          DONE(STATUS(410), QUALIFIED_NO_RULES)},
         HEED_SITE_R_NO_ROBOTS,
         0,
         86400,
         410},
        {"seed 4: 403 disqualifies for now",
         {0},
         {START(0), FETCHED(RESOLVED(2), 0, 1),
          DONE(STATUS(403), DISQUALIFIED)},
         HEED_SITE_R_STATUS,
         1,
         600,
         403},
        {"seed 4: 401 disqualifies for now",
         {0},
         {START(0), FETCHED(RESOLVED(1), 0, 1),
          DONE(STATUS(401), DISQUALIFIED)},
         HEED_SITE_R_STATUS,
         1,
         600,
         401},
        {"seed 4: 429 disqualifies for now",
         {0},
         {START(0), FETCHED(RESOLVED(1), 0, 1),
          DONE(STATUS(429), DISQUALIFIED)},
         HEED_SITE_R_STATUS,
         1,
         600,
         429},
        {"seed 4: 3xx without Location is any other status",
         {0},
         {START(0), FETCHED(RESOLVED(1), 0, 1),
          DONE(STATUS(304), DISQUALIFIED)},
         HEED_SITE_R_STATUS,
         1,
         600,
         304},
        {"seed 3: a truncated 2xx disqualifies for now",
         {0},
         {START(0), FETCHED(RESOLVED(1), 0, 1), READ(STATUS(200), READING),
          DONE(EV(BODY_TRUNCATED), DISQUALIFIED)},
         HEED_SITE_R_TRUNCATED,
         1,
         600,
         200},
        {"seed 3: parsed with errors qualifies with no rules",
         {0},
         {START(0), FETCHED(RESOLVED(1), 0, 1), READ(STATUS(200), READING),
          READ(EV(BODY_COMPLETE), PARSING),
          DONE(EV(PARSED, .verdict = HEED_SITE_BODY_NOT_ROBOTS),
               QUALIFIED_NO_RULES)},
         HEED_SITE_R_NOT_ROBOTS,
         0,
         86400,
         200},
        {"politeness: Crawl-delay above the cap skips the site until the "
         "re-check, not a failure",
         {0},
         {START(0), FETCHED(RESOLVED(1), 0, 1), READ(STATUS(200), READING),
          READ(EV(BODY_COMPLETE), PARSING),
          DONE(EV(PARSED, .crawl_delay_ms = 30001), DISQUALIFIED)},
         HEED_SITE_R_CRAWL_DELAY,
         0,
         86400,
         200},
        {"politeness: Crawl-delay at the cap is kept",
         {0},
         {START(0), FETCHED(RESOLVED(1), 0, 1), READ(STATUS(200), READING),
          READ(EV(BODY_COMPLETE), PARSING),
          DONE(EV(PARSED, .crawl_delay_ms = 30000), QUALIFIED_RULES)},
         HEED_SITE_R_PARSED,
         0,
         86400,
         200},
        {"RFC 9309 2.3.1.2: five redirects followed, the sixth "
         "disqualifies for now",
         {0},
         {START(0),
          FETCHED(RESOLVED(1), 0, 1),
          {REDIRECT, 0, 0, HEED_SITE_RESOLVING, HEED_SITE_DO_RESOLVE},
          FETCHED(RESOLVED(1), 0, 1),
          {REDIRECT, 0, 0, HEED_SITE_RESOLVING, HEED_SITE_DO_RESOLVE},
          FETCHED(RESOLVED(1), 0, 1),
          {REDIRECT, 0, 0, HEED_SITE_RESOLVING, HEED_SITE_DO_RESOLVE},
          FETCHED(RESOLVED(1), 0, 1),
          {REDIRECT, 0, 0, HEED_SITE_RESOLVING, HEED_SITE_DO_RESOLVE},
          FETCHED(RESOLVED(1), 0, 1),
          {REDIRECT, 0, 0, HEED_SITE_RESOLVING, HEED_SITE_DO_RESOLVE},
          FETCHED(RESOLVED(1), 0, 1),
          DONE(REDIRECT, DISQUALIFIED)},
         HEED_SITE_R_REDIRECTS,
         1,
         600,
         301},
        {"redirect then 404 on the target qualifies with no rules",
         {0},
         {START(0),
          FETCHED(RESOLVED(1), 0, 1),
          {REDIRECT, 0, 0, HEED_SITE_RESOLVING, HEED_SITE_DO_RESOLVE},
          FETCHED(RESOLVED(2), 0, 1),
          DONE(STATUS(404), QUALIFIED_NO_RULES)},
         HEED_SITE_R_NO_ROBOTS,
         0,
         86400,
         404},
        {"seed: failures reaching the maximum disqualify until reset",
         {HEED_SITE_DISQUALIFIED, HEED_SITE_R_DNS, 0, 5, 0, T0 - 10, 2, ""},
         {START(0),
          DONE0(EV(RESOLVE_FAILED, .detail = "timeout"), DISQUALIFIED_RESET),
          /* Not contacted again, however long one waits. */
          {EV(START), 999999, 0, HEED_SITE_DISQUALIFIED_RESET,
           HEED_SITE_DO_DONE, .fetched = false}},
         HEED_SITE_R_MAX_FAILURES,
         3,
         -1,
         0},
        {"seed: no attempt before the retry interval elapses",
         {HEED_SITE_DISQUALIFIED, HEED_SITE_R_STATUS, 403, 5, 0, T0 + 600, 1,
          ""},
         {{EV(START), 599, 0, HEED_SITE_DISQUALIFIED, HEED_SITE_DO_DONE,
           .fetched = false},
          START(600),
          FETCHED(RESOLVED(1), 0, 1),
          DONE(STATUS(403), DISQUALIFIED)},
         HEED_SITE_R_STATUS,
         2,
         600 + 600,
         403},
        {"seed: the results are used until the re-check interval, then "
         "qualified again",
         {HEED_SITE_QUALIFIED_RULES, HEED_SITE_R_PARSED, 200, 5, 5, T0 + 100, 0,
          ""},
         {{EV(START), 99, 0, HEED_SITE_QUALIFIED_RULES, HEED_SITE_DO_DONE,
           .fetched = false},
          START(100),
          FETCHED(RESOLVED(1), 0, 1),
          DONE(STATUS(404), QUALIFIED_NO_RULES)},
         HEED_SITE_R_NO_ROBOTS,
         0,
         100 + 86400,
         404},
        {"seed: a failed re-check disqualifies a qualified site for now",
         {HEED_SITE_QUALIFIED_RULES, HEED_SITE_R_PARSED, 200, 5, 5, T0, 0, ""},
         {START(0), FETCHED(RESOLVED(1), 0, 1),
          DONE(STATUS(403), DISQUALIFIED)},
         HEED_SITE_R_STATUS,
         1,
         600,
         403},
        {"RFC 9309 2.4 + RFC 9111: max-age brings the re-check forward",
         {0},
         {START(0), FETCHED(RESOLVED(1), 0, 1), READ(FRESH(200, 60), READING),
          READ(EV(BODY_COMPLETE), PARSING), DONE(RULES, QUALIFIED_RULES)},
         HEED_SITE_R_PARSED,
         0,
         60,
         200},
        {"RFC 9111 no-cache, max-age=0: the next run checks again",
         {0},
         {START(0), FETCHED(RESOLVED(1), 0, 1), READ(FRESH(200, 0), READING),
          READ(EV(BODY_COMPLETE), PARSING), DONE(RULES, QUALIFIED_RULES)},
         HEED_SITE_R_PARSED,
         0,
         0,
         200},
        {"RFC 9309 2.4: a lifetime beyond 24 hours never lengthens it",
         {0},
         {START(0), FETCHED(RESOLVED(1), 0, 1),
          READ(FRESH(200, 30 * 86400), READING),
          READ(EV(BODY_COMPLETE), PARSING), DONE(RULES, QUALIFIED_RULES)},
         HEED_SITE_R_PARSED,
         0,
         86400,
         200},
        {"a body that is not a robots.txt is re-checked as soon too",
         {0},
         {START(0), FETCHED(RESOLVED(1), 0, 1), READ(FRESH(200, 90), READING),
          READ(EV(BODY_COMPLETE), PARSING),
          DONE(EV(PARSED, .verdict = HEED_SITE_BODY_NOT_ROBOTS),
               QUALIFIED_NO_RULES)},
         HEED_SITE_R_NOT_ROBOTS,
         0,
         90,
         200},
        {"a lifetime on a 404 is not a robots.txt's: 24 hours",
         {0},
         {START(0), FETCHED(RESOLVED(1), 0, 1),
          DONE(FRESH(404, 60), QUALIFIED_NO_RULES)},
         HEED_SITE_R_NO_ROBOTS,
         0,
         86400,
         404},
        {"a redirect's lifetime is not the rules' answer",
         {0},
         {START(0),
          FETCHED(RESOLVED(1), 0, 1),
          {EV(STATUS, .status = 301, .has_location = true, .has_fresh = true,
              .fresh_s = 5),
           0, 0, HEED_SITE_RESOLVING, HEED_SITE_DO_RESOLVE},
          FETCHED(RESOLVED(1), 0, 1),
          READ(STATUS(200), READING),
          READ(EV(BODY_COMPLETE), PARSING),
          DONE(RULES, QUALIFIED_RULES)},
         HEED_SITE_R_PARSED,
         0,
         86400,
         200},
        {"a truncated body's lifetime is not used: retry interval",
         {0},
         {START(0), FETCHED(RESOLVED(1), 0, 1), READ(FRESH(200, 5), READING),
          DONE(EV(BODY_TRUNCATED), DISQUALIFIED)},
         HEED_SITE_R_TRUNCATED,
         1,
         600,
         200},
        {"a reset site is tried at once",
         {HEED_SITE_UNKNOWN, HEED_SITE_R_RESET, 0, 5, 0, 0, 0, ""},
         {START(0), FETCHED(RESOLVED(1), 0, 1),
          DONE(STATUS(410), QUALIFIED_NO_RULES)},
         HEED_SITE_R_NO_ROBOTS,
         0,
         86400,
         410},
};

static const struct heed_site_options test_options = {
        .retry_interval_s = 600,
        .recheck_interval_s = 86400,
        .max_failures = 3,
        .pass_pause_ms = 2000,
        .max_redirects = 5,
        .crawl_delay_cap_ms = 30000,
};

static void check_step(const struct scenario *sc, size_t i, heed_site *s,
                       int64_t *now_s)
{
	const struct step *st = &sc->steps[i];
	struct heed_site_clock now = {T0 + st->at_s, st->at_ms};
	struct heed_site_action a;
	heed_status rc;

	if (st->at_s)
		*now_s = T0 + st->at_s;
	now.unix_s = *now_s;
	rc = heed_site_step(s, &st->ev, &now, &a);
	if (rc != HEED_OK)
		fail_msg("%s, step %zu: %s", sc->name, i, heed_status_name(rc));
	if (heed_site_get_state(s) != st->want_state ||
	    a.kind != st->want_action)
		fail_msg("%s, step %zu (%s): got %s/%s, want %s/%s", sc->name,
		         i, heed_site_event_name(st->ev.kind),
		         heed_site_state_name(heed_site_get_state(s)),
		         heed_site_action_name(a.kind),
		         heed_site_state_name(st->want_state),
		         heed_site_action_name(st->want_action));
	if (a.kind == HEED_SITE_DO_FETCH &&
	    (a.address != st->address || a.pass != st->pass))
		fail_msg("%s, step %zu: fetch %zu pass %u, want %zu pass %u",
		         sc->name, i, a.address, a.pass, st->address, st->pass);
	if (a.kind == HEED_SITE_DO_WAIT && a.until_ms != st->until_ms)
		fail_msg("%s, step %zu: wait until %lld, want %lld", sc->name,
		         i, (long long)a.until_ms, (long long)st->until_ms);
	if (a.kind == HEED_SITE_DO_DONE && a.fetched != st->fetched)
		fail_msg("%s, step %zu: fetched %d, want %d", sc->name, i,
		         a.fetched, st->fetched);
}

static void check_record(const struct scenario *sc, const heed_site *s)
{
	const struct heed_site_record *r = heed_site_get_record(s);
	int64_t want_next = sc->next_attempt < 0 ? 0 : T0 + sc->next_attempt;

	if (r->reason != sc->reason || r->failures != sc->failures ||
	    r->next_attempt_s != want_next || r->http_status != sc->http_status)
		fail_msg("%s: record reason %s failures %u next %lld status "
		         "%d; want %s %u %lld %d",
		         sc->name, heed_site_reason_name(r->reason),
		         r->failures, (long long)r->next_attempt_s,
		         r->http_status, heed_site_reason_name(sc->reason),
		         sc->failures, (long long)want_next, sc->http_status);
	if (r->state != heed_site_get_state(s))
		fail_msg("%s: record state %s", sc->name,
		         heed_site_state_name(r->state));
	if (!r->detail[0])
		fail_msg("%s: no detail for the report", sc->name);
}

static void test_lifecycle_tables(void **state)
{
	size_t i, j;

	(void)state;
	for (i = 0; i < HEED_ARRAY_SIZE(scenarios); i++) {
		const struct scenario *sc = &scenarios[i];
		int64_t now_s = T0;
		heed_site *s = NULL;

		assert_int_equal(heed_site_new(&s, "example.test", &sc->start,
		                               &test_options, NULL,
		                               heed_test_allocator()),
		                 HEED_OK);
		for (j = 0; j < HEED_ARRAY_SIZE(sc->steps) &&
		            sc->steps[j].want_state + sc->steps[j].want_action;
		     j++)
			check_step(sc, j, s, &now_s);
		check_record(sc, s);
		heed_site_free(s);
	}
}

/* A run's robots date is when it started; a skipped run keeps the old one. */
static void test_robots_date(void **state)
{
	struct heed_site_record rec = {0};
	struct heed_site_clock now = {T0, 0};
	struct heed_site_event start = {.kind = HEED_SITE_EV_START};
	struct heed_site_event gone = {.kind = HEED_SITE_EV_RESOLVED,
	                               .address_count = 1};
	struct heed_site_event st404 = {.kind = HEED_SITE_EV_STATUS,
	                                .status = 404};
	struct heed_site_action a;
	heed_site *s;

	(void)state;
	assert_int_equal(heed_site_new(&s, "h", &rec, &test_options, NULL,
	                               heed_test_allocator()),
	                 HEED_OK);
	heed_site_step(s, &start, &now, &a);
	heed_site_step(s, &gone, &now, &a);
	now.unix_s = T0 + 3;
	heed_site_step(s, &st404, &now, &a);
	assert_int_equal(heed_site_get_record(s)->robots_date_s, T0);
	assert_int_equal(heed_site_get_record(s)->last_success_s, T0 + 3);
	now.unix_s = T0 + 10;
	heed_site_step(s, &start, &now, &a);
	assert_int_equal(a.kind, HEED_SITE_DO_DONE);
	assert_int_equal(heed_site_get_record(s)->robots_date_s, T0);
	heed_site_free(s);
}

/* RFC 9309 2.4 with an injected clock: a qualification fresh for 60 s is
 * used for 60 s, not a second more; the next run after that fetches. */
static void test_fresh_due_time(void **state)
{
	struct heed_site_record rec = {0};
	struct heed_site_clock now = {T0, 0};
	struct heed_site_event start = {.kind = HEED_SITE_EV_START};
	struct heed_site_event one = {.kind = HEED_SITE_EV_RESOLVED,
	                              .address_count = 1};
	struct heed_site_event ok = {.kind = HEED_SITE_EV_STATUS,
	                             .status = 200,
	                             .has_fresh = true,
	                             .fresh_s = 60};
	struct heed_site_event body = {.kind = HEED_SITE_EV_BODY_COMPLETE};
	struct heed_site_event rules = {.kind = HEED_SITE_EV_PARSED};
	struct heed_site_action a;
	heed_site *s;

	(void)state;
	assert_int_equal(heed_site_new(&s, "h", &rec, &test_options, NULL,
	                               heed_test_allocator()),
	                 HEED_OK);
	heed_site_step(s, &start, &now, &a);
	heed_site_step(s, &one, &now, &a);
	heed_site_step(s, &ok, &now, &a);
	heed_site_step(s, &body, &now, &a);
	heed_site_step(s, &rules, &now, &a);
	assert_int_equal(a.kind, HEED_SITE_DO_DONE);
	assert_int_equal(heed_site_get_record(s)->next_attempt_s, T0 + 60);
	assert_non_null(
	        strstr(heed_site_get_record(s)->detail, "fresh for 60"));
	rec = *heed_site_get_record(s);
	heed_site_free(s);
	/* A later run, 59 s on: the qualification stands, no contact. */
	assert_int_equal(heed_site_new(&s, "h", &rec, &test_options, NULL,
	                               heed_test_allocator()),
	                 HEED_OK);
	now.unix_s = T0 + 59;
	heed_site_step(s, &start, &now, &a);
	assert_int_equal(a.kind, HEED_SITE_DO_DONE);
	assert_false(a.fetched);
	/* At 60 s it is due: the run starts with a look-up. */
	now.unix_s = T0 + 60;
	heed_site_step(s, &start, &now, &a);
	assert_int_equal(a.kind, HEED_SITE_DO_RESOLVE);
	heed_site_free(s);
}

/* An event the state does not expect is the shell's bug: refused, and the
 * machine is unchanged. */
static void test_unexpected_event(void **state)
{
	struct heed_site_record rec = {0};
	struct heed_site_clock now = {T0, 0};
	struct heed_site_event ev = {.kind = HEED_SITE_EV_STATUS,
	                             .status = 200};
	struct heed_site_action a;
	heed_site *s;

	(void)state;
	assert_int_equal(heed_site_new(&s, "h", &rec, &test_options, NULL,
	                               heed_test_allocator()),
	                 HEED_OK);
	assert_int_equal(heed_site_step(s, &ev, &now, &a), HEED_EINVAL);
	assert_int_equal(a.kind, HEED_SITE_DO_NOTHING);
	assert_int_equal(heed_site_get_state(s), HEED_SITE_UNKNOWN);
	heed_site_free(s);
}

static void collect(void *ud, heed_log_level level, const char *module,
                    const char *message)
{
	char *buf = ud;
	size_t n = strlen(buf);

	(void)level;
	(void)module;
	snprintf(buf + n, 512 - n, "%s\n", message);
}

/* Every transition is logged "host: from -> to" through one setter. */
static void test_transitions_logged(void **state)
{
	char log[512] = "";
	struct heed_logger logger = {collect, log, HEED_LOG_DEBUG};
	struct heed_site_record rec = {0};
	struct heed_site_clock now = {T0, 0};
	struct heed_site_event start = {.kind = HEED_SITE_EV_START};
	struct heed_site_event fail = {.kind = HEED_SITE_EV_RESOLVE_FAILED};
	struct heed_site_action a;
	heed_site *s;

	(void)state;
	assert_int_equal(heed_site_new(&s, "h.test", &rec, &test_options,
	                               &logger, heed_test_allocator()),
	                 HEED_OK);
	heed_site_step(s, &start, &now, &a);
	heed_site_step(s, &fail, &now, &a);
	assert_string_equal(log, "h.test: unknown -> resolving\n"
	                         "h.test: resolving -> disqualified\n");
	heed_site_free(s);
}

static void test_names_round_trip(void **state)
{
	heed_site_state st;
	heed_site_reason r;
	int i;

	(void)state;
	for (i = HEED_SITE_UNKNOWN; i <= HEED_SITE_PARSING; i++) {
		assert_int_equal(
		        heed_site_state_parse(heed_site_state_name(i), &st),
		        HEED_OK);
		assert_int_equal(st, i);
	}
	for (i = HEED_SITE_R_NONE; i <= HEED_SITE_R_RESET; i++) {
		assert_int_equal(
		        heed_site_reason_parse(heed_site_reason_name(i), &r),
		        HEED_OK);
		assert_int_equal(r, i);
	}
	assert_int_equal(heed_site_state_parse("nope", &st), HEED_ENOTFOUND);
	assert_string_equal(heed_site_state_name(99), "invalid");
}

static void test_record_reset(void **state)
{
	struct heed_site_record r = {HEED_SITE_DISQUALIFIED_RESET,
	                             HEED_SITE_R_MAX_FAILURES,
	                             403,
	                             50,
	                             40,
	                             0,
	                             24,
	                             "x"};

	(void)state;
	heed_site_record_reset(&r);
	assert_int_equal(r.state, HEED_SITE_UNKNOWN);
	assert_int_equal(r.failures, 0);
	assert_int_equal(r.next_attempt_s, 0);
	assert_int_equal(r.robots_date_s, 50);
	assert_int_equal(r.last_success_s, 40);
}

static void test_new_oom(void **state)
{
	struct heed_site_record rec = {0};
	unsigned long n;

	(void)state;
	for (n = 0;; n++) {
		struct heed_test_fail f = {.fail_at = n};
		heed_site *s = NULL;
		heed_status rc =
		        heed_site_new(&s, "h", &rec, &test_options, NULL,
		                      heed_test_failing_allocator(&f));
		if (rc == HEED_OK) {
			heed_site_free(s);
			break;
		}
		assert_int_equal(rc, HEED_ENOMEM);
		assert_null(s);
	}
}

static const struct judge_case {
	const char *name;
	const char *body;
	size_t len; /* 0: strlen */
	const char *content_type;
	heed_site_body_verdict want;
} judge_cases[] = {
        {"a plain robots.txt has rules", "User-agent: *\nDisallow: /private\n",
         0, "text/plain", HEED_SITE_BODY_RULES},
        {"RFC 9309 2.2: one bad line among valid ones keeps the rules",
         "User-agent: *\nthis line is nonsense\nDisallow: /x\n", 0, NULL,
         HEED_SITE_BODY_RULES},
        {"an empty body is an empty robots.txt", "", 0, NULL,
         HEED_SITE_BODY_RULES},
        {"comments only are a robots.txt", "# nothing here\n\n", 0, NULL,
         HEED_SITE_BODY_RULES},
        {"a BOM before the records is fine",
         "\xef\xbb\xbfUser-agent: *\nAllow: /\n", 0, NULL,
         HEED_SITE_BODY_RULES},
        {"a Latin-1 comment does not make text undecodable",
         "# caf\xe9\nUser-agent: *\nDisallow: /admin\n", 0, NULL,
         HEED_SITE_BODY_RULES},
        {"ACAP records alone are robots.txt records",
         "ACAP-crawler: *\nACAP-disallow-crawl: /x\n", 0, NULL,
         HEED_SITE_BODY_RULES},
        {"a robots.txt mislabelled text/html is still a robots.txt",
         "User-agent: *\nDisallow: /a<b\n", 0, "text/html",
         HEED_SITE_BODY_RULES},
        {"an HTML page is not a robots.txt",
         "<!DOCTYPE html>\n<html><body>Not here</body></html>\n", 0,
         "text/html", HEED_SITE_BODY_NOT_ROBOTS},
        {"an HTML page after blank lines, any content type",
         "\n\n  <html>\nUser-agent: *\nDisallow: /\n</html>", 0, "text/plain",
         HEED_SITE_BODY_NOT_ROBOTS},
        {"a text preamble then HTML served as text/html",
         "Welcome\n<HTML><BODY>soft 404</BODY></HTML>", 0,
         "text/html; charset=utf-8", HEED_SITE_BODY_NOT_ROBOTS},
        {"binary data (NUL bytes) is not a robots.txt",
         "User-agent: *\n\0\0\x01\x02", 18, NULL, HEED_SITE_BODY_NOT_ROBOTS},
        {"UTF-16 (NUL bytes) is not decodable as UTF-8",
         "U\0s\0e\0r\0-\0a\0g\0e\0n\0t\0:\0 \0*\0", 26, NULL,
         HEED_SITE_BODY_NOT_ROBOTS},
        {"undecodable bytes are not a robots.txt",
         "\xff\xfe\xfd\xfc\xc3\x28\xa0\xa1\xe2\x28\xa1\xf0\x28\x8c\xbc"
         "User-agent: *\n",
         0, NULL, HEED_SITE_BODY_NOT_ROBOTS},
        {"text without a single record is not a robots.txt",
         "Service temporarily moved.\nPlease come back later.\n", 0, NULL,
         HEED_SITE_BODY_NOT_ROBOTS},
        {"a JSON error document is not a robots.txt",
         "{\"error\": \"not found\"}", 0, "application/json",
         HEED_SITE_BODY_NOT_ROBOTS},
};

static void test_judge_body(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < HEED_ARRAY_SIZE(judge_cases); i++) {
		const struct judge_case *c = &judge_cases[i];
		size_t len = c->len ? c->len : strlen(c->body);
		heed_site_body_verdict got =
		        heed_site_judge_body(c->body, len, c->content_type);
		if (got != c->want)
			fail_msg("%s: got %d, want %d", c->name, got, c->want);
	}
}

static void test_read_robots(void **state)
{
	static const char txt[] =
	        "User-agent: other\nCrawl-delay: 9\nDisallow: /o\n"
	        "User-agent: heed\nCrawl-delay: 2.5\n"
	        "Disallow: /private\nbad line here\n";
	struct heed_site_robots out;

	(void)state;
	assert_int_equal(heed_site_read_robots(txt, sizeof(txt) - 1,
	                                       "text/plain",
	                                       "heed/0.1.0 (+https://x.test)",
	                                       heed_test_allocator(), &out),
	                 HEED_OK);
	assert_int_equal(out.verdict, HEED_SITE_BODY_RULES);
	assert_int_equal(out.crawl_delay_ms, 2500);
	assert_int_equal(out.groups, 2);
	assert_true(out.diagnostics >= 1);
	/* Only "*" applies to heed here, and it has no Crawl-delay. */
	assert_int_equal(heed_site_read_robots("User-agent: *\nAllow: /\n", 23,
	                                       NULL, "heed",
	                                       heed_test_allocator(), &out),
	                 HEED_OK);
	assert_int_equal(out.crawl_delay_ms, 0);
	assert_int_equal(heed_site_read_robots("<html></html>", 13, NULL,
	                                       "heed", heed_test_allocator(),
	                                       &out),
	                 HEED_OK);
	assert_int_equal(out.verdict, HEED_SITE_BODY_NOT_ROBOTS);
	assert_int_equal(heed_site_read_robots(NULL, 0, NULL, "heed",
	                                       heed_test_allocator(), &out),
	                 HEED_OK);
	assert_int_equal(out.verdict, HEED_SITE_BODY_RULES);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_lifecycle_tables),
	        cmocka_unit_test(test_robots_date),
	        cmocka_unit_test(test_fresh_due_time),
	        cmocka_unit_test(test_unexpected_event),
	        cmocka_unit_test(test_transitions_logged),
	        cmocka_unit_test(test_names_round_trip),
	        cmocka_unit_test(test_record_reset),
	        cmocka_unit_test(test_new_oom),
	        cmocka_unit_test(test_judge_body),
	        cmocka_unit_test(test_read_robots),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
