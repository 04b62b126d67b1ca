/*
 * Unit tests for politeness (src/politeness): scripted sequences of checks,
 * starts and ends against a clock, each step (operation, now) -> (verdict,
 * wait); then tables for Retry-After and HTTP dates.
 */
#include "heed_test.h"

#include <stdbool.h>

#include "heed/politeness.h"

enum op { CHECK, BEGIN, END, CRAWL_DELAY, RESTORE };

struct pstep {
	enum op op;
	const char *host, *addr;
	int64_t unix_s, mono_ms;
	/* END: how it ended (elapsed in arg); CRAWL_DELAY: delay in arg;
	 * RESTORE: level, until */
	bool connected;
	int status;
	int64_t retry_after_s; /* -1: none */
	int64_t arg, arg2;
	/* CHECK, BEGIN: the verdict and wait; CRAWL_DELAY: the status */
	int want;
	int64_t want_wait_ms;
	int64_t unix_ms; /* when not 0: the wall clock to the millisecond */
	/* END: when the answer's first byte came (the server had the
	 * request); 0: at the host's begin, HEARD_UNKNOWN: not said */
	int64_t heard_ms;
};

#define HEARD_UNKNOWN (-1)
/* The scripts' monotonic clock starts here, so that a time of 0 in a
 * script is not heed_polite_result's "unknown". */
#define MONO_BASE 1000000

struct pscript {
	const char *name;
	struct pstep steps[16];
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
#define B(host, addr, s, ms)                                        \
	{                                                           \
		BEGIN, host, addr, s, ms, .want = HEED_POLITE_READY \
	}
#define B_NO(host, addr, s, ms, verdict, wait)                           \
	{                                                                \
		BEGIN, host, addr, s, ms, .want = HEED_POLITE_##verdict, \
		                          .want_wait_ms = wait           \
	}
#define E(host, addr, s, ms, conn, st)               \
	{                                            \
		END, host, addr, s, ms, conn, st, -1 \
	}
#define E_SLOW(host, addr, s, ms, elapsed)                            \
	{                                                             \
		END, host, addr, s, ms, true, 200, -1, .arg = elapsed \
	}
#define E_HEARD(host, addr, s, ms, st, heard)                           \
	{                                                               \
		END, host, addr, s, ms, true, st, -1, .heard_ms = heard \
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
        {"begin refuses, and records nothing, when check would",
         {B(H, IP, 100, 0), B_NO(H, IP2, 100, 10, HOST_BUSY, 0),
          E(H, IP, 100, 100, true, 200), B_NO(H, IP2, 100, 500, WAIT, 500),
          B_NO(H, IP2, 100, 999, WAIT, 1), B(H, IP2, 101, 1000),
          B_NO(H, IP2, 101, 3000, HOST_BUSY, 0)}},
        {"one request in flight per host, even past its delay",
         {B(H, IP, 100, 0), C(H, IP, 105, 5000, HOST_BUSY, 0),
          E_SLOW(H, IP, 105, 5000, 5000), C(H, IP, 105, 5000, WAIT, 5000)}},
        {"the delay counts from the answer's first byte, not the send",
         {B(H, IP, 100, 0), E_HEARD(H, IP, 100, 400, 200, 300),
          C(H, IP, 101, 1000, WAIT, 300), C(H, IP, 101, 1299, WAIT, 1),
          C(H, IP, 101, 1300, READY, 0)}},
        {"when heard is not said, the delay counts from the end",
         {B(H, IP, 100, 0), E_HEARD(H, IP, 100, 700, 200, HEARD_UNKNOWN),
          C(H, IP, 101, 1000, WAIT, 700), C(H, IP, 101, 1700, READY, 0)}},
        {"a broken answer with no byte back: from the end, doubled",
         {B(H, IP, 100, 0),
          {END, H, IP, 100, 900, true, 0, -1, .heard_ms = HEARD_UNKNOWN},
          C(H, IP, 102, 2000, WAIT, 900),
          C(H, IP, 102, 2900, READY, 0)}},
        {"a slow answer: the next start waits twice its duration",
         {B(H, IP, 100, 0), E_SLOW(H, IP, 101, 1500, 1500),
          C(H, IP, 101, 1600, WAIT, 1400), C(H, IP, 103, 3000, READY, 0)}},
        {"robots.txt 5xx: the next address waits the doubled delay",
         {B(H, IP, 100, 0), E(H, IP, 100, 10, true, 500),
          C(H, IP2, 100, 10, WAIT, 1990)}},
        {"an attempt that never connected need not wait",
         {B(H, IP, 100, 0), E(H, IP, 100, 3, false, 0),
          C(H, IP2, 100, 3, READY, 0)}},
        {"a failed connect restores the previous start, not none",
         {B(H, IP, 100, 0), E(H, IP, 100, 5, true, 200), B(H, IP, 101, 1000),
          E(H, IP, 101, 1001, false, 0), C(H, IP, 101, 1001, READY, 0),
          C(H, IP, 101, 999, WAIT, 1)}},
        {"hosts are independent",
         {B(H, IP, 100, 0), C(H2, IP2, 100, 1, READY, 0)}},
        {"per address: a full window refuses other host names",
         {B(H, IP, 100, 0), C(H2, IP, 100, 1, BUSY, 0),
          B_NO(H2, IP, 100, 1, BUSY, 0), E(H, IP, 100, 200, true, 200),
          C(H2, IP, 100, 201, READY, 0)}},
        {"a host's wait comes before the address's window",
         {B(H, IP, 100, 0), E(H, IP, 100, 10, true, 200), B(H2, IP, 100, 20),
          C(H, IP, 100, 30, WAIT, 970), C(H, IP, 101, 1000, BUSY, 0)}},
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
        {"each 5xx or 429 doubles the delay up to the cap",
         {B(H, IP, 100, 0), E(H, IP, 100, 10, true, 503),
          C(H, IP, 101, 1000, WAIT, 1000), B(H, IP, 102, 2000),
          E(H, IP, 102, 2010, true, 500), C(H, IP, 103, 3000, WAIT, 3000),
          B(H, IP, 106, 6000), E(H, IP, 106, 6010, true, 429),
          C(H, IP, 107, 7000, WAIT, 7000), B(H, IP, 114, 14000),
          E(H, IP, 114, 14010, true, 502), C(H, IP, 115, 15000, WAIT, 7000)}},
        {"a good answer halves the error delay again",
         {B(H, IP, 100, 0), E(H, IP, 100, 10, true, 503), B(H, IP, 102, 2000),
          E(H, IP, 102, 2010, true, 503), B(H, IP, 106, 6000),
          E(H, IP, 106, 6010, true, 200), C(H, IP, 107, 7000, WAIT, 1000),
          B(H, IP, 108, 8000), E(H, IP, 108, 8010, true, 404),
          C(H, IP, 108, 8500, WAIT, 500)}},
        {"a broken answer counts as an error",
         {B(H, IP, 100, 0),
          {END, H, IP, 100, 10, true, 0, -1},
          C(H, IP, 101, 1000, WAIT, 1000)}},
        {"Retry-After holds every request until then",
         {B(H, IP, 100, 0), E_RA(H, IP, 100, 0, 429, 600),
          C(H, IP, 100, 1000, WAIT, 600000)}},
        {"Retry-After is capped by backoff_max",
         {B(H, IP, 100, 0), E_RA(H, IP, 100, 0, 503, 999999),
          C(H, IP, 100, 1000, WAIT, 86400000)}},
        {"a back-off restored from the store holds after a restart",
         {{RESTORE, H, .arg = 2, .arg2 = 500},
          C(H, IP, 400, 0, WAIT, 100000),
          C(H, IP, 500, 7, READY, 0)}},
        {"Retry-After holds every address of the host",
         {B(H, IP, 100, 0), E_RA(H, IP, 100, 10, 503, 60),
          C(H, IP2, 100, 20, WAIT, 60000), C(H, IP2, 102, 2000, WAIT, 58000)}},
        {"a Retry-After deadline is rounded up to the second",
         {B(H, IP, 100, 0),
          {END, H, IP, 100, 10, true, 503, 2, .unix_ms = 100400},
          {CHECK, H, IP2, 100, 2010, .unix_ms = 101999,
           .want = HEED_POLITE_WAIT, .want_wait_ms = 1001},
          {CHECK, H, IP2, 103, 3011, .unix_ms = 103000,
           .want = HEED_POLITE_READY}}},
};

static const struct heed_polite_options test_options = {
        .default_delay_ms = 1000,
        .crawl_delay_cap_ms = 30000,
        .latency_factor = 2,
        .error_delay_max_ms = 8000,
        .backoff_max_s = 86400,
        .per_address = true,
        .address_concurrency = 1,
        .address_window_start = 1,
        .address_delay_ms = 0,
        .slow_ms = 100,
};

static void expect(const struct pscript *sc, size_t i, int got, int64_t wait)
{
	const struct pstep *s = &sc->steps[i];

	if (got != s->want || wait != s->want_wait_ms)
		fail_msg("%s, step %zu: verdict %s wait %lld, want %s %lld",
		         sc->name, i, heed_polite_verdict_name(got),
		         (long long)wait, heed_polite_verdict_name(s->want),
		         (long long)s->want_wait_ms);
}

static int64_t heard_of(const struct pstep *s, int64_t begun_ms)
{
	if (s->heard_ms == HEARD_UNKNOWN)
		return 0;
	return MONO_BASE + (s->heard_ms ? s->heard_ms : begun_ms);
}

/* *begun_ms: the script time of the last start begin() recorded. */
static void run_step(const struct pscript *sc, size_t i, heed_polite *p,
                     int64_t *begun_ms)
{
	const struct pstep *s = &sc->steps[i];
	struct heed_polite_clock now = {s->unix_ms ? s->unix_ms
	                                           : s->unix_s * 1000,
	                                MONO_BASE + s->mono_ms};
	struct heed_polite_result r = {
	        .connected = s->connected,
	        .status = s->status,
	        .failed = s->connected && s->status == 0,
	        .has_retry_after = s->retry_after_s >= 0,
	        .retry_after_s = s->retry_after_s,
	        .first_byte_ms = 5,
	        .elapsed_ms = s->arg ? s->arg : 10,
	        .heard_ms = heard_of(s, *begun_ms),
	};
	struct heed_polite_backoff b = {(uint32_t)s->arg, s->arg2};
	int64_t wait = -1;
	int got;

	switch (s->op) {
	case CHECK:
		got = heed_polite_check(p, s->host, s->addr, &now, &wait);
		expect(sc, i, got, wait);
		break;
	case BEGIN:
		got = heed_polite_begin(p, s->host, s->addr, &now, &wait);
		expect(sc, i, got, wait);
		if (got == HEED_POLITE_READY)
			*begun_ms = s->mono_ms;
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
		int64_t begun_ms = 0;
		assert_int_equal(heed_polite_new(&p, &test_options,
		                                 heed_test_allocator()),
		                 HEED_OK);
		for (j = 0; j < HEED_ARRAY_SIZE(scripts[i].steps) &&
		            scripts[i].steps[j].host;
		     j++)
			run_step(&scripts[i], j, p, &begun_ms);
		heed_polite_free(p);
	}
}

/* An address shared by many host names, driven one answer at a time: how
 * its window moves. Host names are fresh for every request, so only the
 * address's rules apply. */
struct window_sim {
	heed_polite *p;
	int64_t now_ms;
	int next_host;
	char hosts[64][16];
	int in_flight;
};

static void sim_init(struct window_sim *w, unsigned start, unsigned max)
{
	struct heed_polite_options o = test_options;

	memset(w, 0, sizeof(*w));
	o.address_window_start = start;
	o.address_concurrency = max;
	assert_int_equal(heed_polite_new(&w->p, &o, heed_test_allocator()),
	                 HEED_OK);
	w->now_ms = 1000;
}

/* Starts requests until the address refuses; returns how many started. */
static int sim_fill(struct window_sim *w)
{
	struct heed_polite_clock now = {1000, w->now_ms};
	int n = 0;

	for (;;) {
		char *h = w->hosts[w->in_flight];
		snprintf(h, sizeof(w->hosts[0]), "h%d.test", w->next_host);
		if (heed_polite_begin(w->p, h, IP, &now, NULL) !=
		    HEED_POLITE_READY)
			return n;
		w->next_host++;
		w->in_flight++;
		n++;
	}
}

/* Ends the oldest request in flight with status after first_byte_ms. */
static void sim_end(struct window_sim *w, int status, int64_t first_byte_ms)
{
	struct heed_polite_clock now = {1000, w->now_ms};
	struct heed_polite_result r = {
	        .connected = true,
	        .status = status,
	        .first_byte_ms = first_byte_ms,
	        .elapsed_ms = first_byte_ms,
	};

	assert_true(w->in_flight > 0);
	heed_polite_end(w->p, w->hosts[0], IP, &now, &r);
	memmove(w->hosts[0], w->hosts[1],
	        (size_t)(w->in_flight - 1) * sizeof(w->hosts[0]));
	w->in_flight--;
}

/* n rounds of a fast clean answer (20 ms), each followed by as many
 * starts as the address allows. */
static void sim_clean(struct window_sim *w, int n)
{
	for (int i = 0; i < n; i++) {
		w->now_ms += 20;
		sim_end(w, 200, 20);
		sim_fill(w);
	}
}

static unsigned sim_window(struct window_sim *w)
{
	struct heed_polite_address_stats st;

	heed_polite_address_get(w->p, IP, &st);
	return st.window;
}

static void test_window_grows_when_used(void **state)
{
	struct window_sim w;
	int answers = 0;

	(void)state;
	sim_init(&w, 2, 6);
	assert_int_equal(sim_window(&w), 2);
	assert_int_equal(sim_fill(&w), 2);
	/* RFC 5681's congestion avoidance: one more per window of answers
	 * (2 -> 3 takes 3 answers: 2.5, 2.9, 3.24). */
	while (sim_window(&w) == 2) {
		w.now_ms += 20;
		sim_end(&w, 200, 20);
		sim_fill(&w);
		answers++;
	}
	assert_int_equal(answers, 3);
	assert_int_equal(sim_window(&w), 3);
	assert_int_equal(w.in_flight, 3);
	/* It never passes the largest window. */
	sim_clean(&w, 200);
	assert_int_equal(sim_window(&w), 6);
	assert_int_equal(w.in_flight, 6);
	heed_polite_free(w.p);
}

static void test_window_idle_does_not_grow(void **state)
{
	struct window_sim w;
	struct heed_polite_clock now = {1000, 0};

	(void)state;
	sim_init(&w, 2, 6);
	for (int i = 0; i < 100; i++) {
		char *h = w.hosts[0];
		snprintf(h, sizeof(w.hosts[0]), "h%d.test", i);
		now.mono_ms = w.now_ms += 20;
		assert_int_equal(heed_polite_begin(w.p, h, IP, &now, NULL),
		                 HEED_POLITE_READY);
		w.in_flight = 1;
		sim_end(&w, 200, 10);
	}
	assert_int_equal(sim_window(&w), 2);
	heed_polite_free(w.p);
}

static void test_window_halves_once_per_round(void **state)
{
	struct window_sim w;
	struct heed_polite_address_stats st;

	(void)state;
	sim_init(&w, 8, 8);
	assert_int_equal(sim_fill(&w), 8);
	/* Eight 503s within a millisecond: one sign of overload. */
	for (int i = 0; i < 8; i++)
		sim_end(&w, 503, 1);
	assert_int_equal(sim_window(&w), 4);
	w.now_ms += 60;
	assert_int_equal(sim_fill(&w), 4);
	sim_end(&w, 429, 1);
	assert_int_equal(sim_window(&w), 2);
	heed_polite_address_get(w.p, IP, &st);
	assert_int_equal(st.decreases, 2);
	/* Never below one. */
	for (int i = 0; i < 10; i++) {
		w.now_ms += 60;
		while (w.in_flight)
			sim_end(&w, 500, 1);
		sim_fill(&w);
	}
	assert_int_equal(sim_window(&w), 1);
	assert_int_equal(w.in_flight, 1);
	heed_polite_free(w.p);
}

static void test_window_halves_on_slow_answers(void **state)
{
	struct window_sim w;
	struct heed_polite_address_stats st;

	(void)state;
	sim_init(&w, 4, 8);
	sim_fill(&w);
	for (int i = 0; i < 4; i++) {
		w.now_ms += 20;
		sim_end(&w, 200, 20);
	}
	assert_int_equal(sim_window(&w), 4);
	sim_fill(&w);
	/* Usual 20 ms; twice that plus slow_ms (100) is 140: 140 is not
	 * slow, 141 is. */
	w.now_ms += 140;
	sim_end(&w, 200, 140);
	heed_polite_address_get(w.p, IP, &st);
	assert_int_equal(st.decreases, 0);
	w.now_ms += 141;
	sim_end(&w, 200, 141);
	assert_int_equal(sim_window(&w), 2);
	heed_polite_address_get(w.p, IP, &st);
	assert_int_equal(st.base_ms, 20);
	heed_polite_free(w.p);
}

/* The queue signal: answers that creep up from 20 to 100 ms (far from the
 * slow-answer test's 2 x 20 + 100) take one request off the window, not
 * half, and only once per round trip; the window then holds until the
 * signal comes back within a quarter of its best. */
static void test_window_eases_as_queue_builds(void **state)
{
	struct window_sim w;
	struct heed_polite_address_stats st;

	(void)state;
	sim_init(&w, 8, 8);
	sim_fill(&w);
	sim_clean(&w, 40);
	assert_int_equal(sim_window(&w), 8);
	/* Two 100 ms answers move the smoothed signal from 1 to 1.47 times
	 * its best: not yet half again above it. */
	for (int i = 0; i < 2; i++) {
		w.now_ms += 1;
		sim_end(&w, 200, 100);
		sim_fill(&w);
	}
	heed_polite_address_get(w.p, IP, &st);
	assert_int_equal(st.eases, 0);
	w.now_ms += 1;
	sim_end(&w, 200, 100);
	heed_polite_address_get(w.p, IP, &st);
	assert_int_equal(st.eases, 1);
	assert_int_equal(st.decreases, 0);
	assert_int_equal(st.window, 7);
	/* Within the round trip (50 ms at least): no second step. */
	w.now_ms += 10;
	sim_end(&w, 200, 100);
	assert_int_equal(sim_window(&w), 7);
	/* A round later, still queueing: one more. */
	w.now_ms += 60;
	sim_end(&w, 200, 100);
	assert_int_equal(sim_window(&w), 6);
	heed_polite_address_get(w.p, IP, &st);
	assert_true(st.queue_pm > 1500);
	/* Fast again: the smoothed signal takes a few answers to come down,
	 * so the window steps down once more at most, never halves, and
	 * grows again once the signal is back within a quarter of its
	 * best. */
	sim_fill(&w);
	sim_clean(&w, 6);
	assert_true(sim_window(&w) >= 5);
	sim_clean(&w, 60);
	heed_polite_address_get(w.p, IP, &st);
	assert_int_equal(st.decreases, 0);
	assert_true(st.queue_pm <= 1250);
	assert_true(st.window > 6);
	heed_polite_free(w.p);
}

static void test_window_counts_refused_connections(void **state)
{
	struct window_sim w;
	struct heed_polite_clock now;
	struct heed_polite_result refused = {.connected = false};

	(void)state;
	sim_init(&w, 4, 8);
	sim_fill(&w);
	now = (struct heed_polite_clock){1000, w.now_ms};
	heed_polite_end(w.p, w.hosts[0], IP, &now, &refused);
	assert_int_equal(sim_window(&w), 2);
	heed_polite_free(w.p);
}

/* A server behind one address, asked by many host names on a fake clock,
 * each host as often as begin() allows (its delay: once a second). A
 * request that arrives while n are in flight there (itself included) takes
 * its host's time plus growth_ms for each beyond knee, and gets a 503
 * beyond refuse_above. Host i's time is base_ms x (1 + i % spread), times a
 * factor from 0.5 to 1.5 when jitter is set: sites on one server differ,
 * and so do two answers of one site. The figures are the server's. */
struct server_model {
	const char *name;
	unsigned hosts;
	int64_t base_ms, growth_ms;
	unsigned knee, refuse_above;
	unsigned spread; /* 1: every host alike */
	bool jitter;
	unsigned window_max; /* address_concurrency */
	double most, least;  /* requests in flight on average, the bounds (0:
	                        none); least also asks for the full window */
};

struct model_request {
	unsigned host;
	int64_t end_ms, ttfb_ms;
	int status;
};

struct model_run {
	double mean_in_flight; /* time-weighted, at the server */
	unsigned max_in_flight;
	unsigned served, refused;
	unsigned window_end;
	uint64_t eases;
};

#define MODEL_SECONDS  60
#define MODEL_MAX_REQS 128

static int64_t model_ttfb(const struct server_model *m, unsigned host,
                          unsigned in_flight, uint64_t *rng)
{
	int64_t ms = m->base_ms * (1 + (int64_t)(host % m->spread));

	if (m->jitter) {
		*rng ^= *rng << 13;
		*rng ^= *rng >> 7;
		*rng ^= *rng << 17;
		ms = ms / 2 + (int64_t)(*rng % (uint64_t)(ms + 1));
	}
	if (in_flight > m->knee)
		ms += m->growth_ms * (int64_t)(in_flight - m->knee);
	return ms;
}

/* Starts every request begin() allows at now, round robin from *next. */
static void model_starts(const struct server_model *m, heed_polite *p,
                         int64_t now_ms, unsigned *next,
                         struct model_request *reqs, unsigned *n, uint64_t *rng,
                         struct model_run *out)
{
	struct heed_polite_clock now = {1000, now_ms};

	for (unsigned k = 0; k < m->hosts && *n < MODEL_MAX_REQS; k++) {
		unsigned h = (*next + k) % m->hosts;
		char name[24];
		heed_polite_verdict v;
		struct model_request *r = &reqs[*n];

		snprintf(name, sizeof(name), "s%u.test", h);
		v = heed_polite_begin(p, name, IP, &now, NULL);
		if (v == HEED_POLITE_BUSY)
			break;
		if (v != HEED_POLITE_READY)
			continue;
		(*n)++;
		if (*n > out->max_in_flight)
			out->max_in_flight = *n;
		r->host = h;
		r->status = *n > m->refuse_above ? 503 : 200;
		r->ttfb_ms = r->status == 503 ? 2 : model_ttfb(m, h, *n, rng);
		r->end_ms = now_ms + r->ttfb_ms;
		*next = (h + 1) % m->hosts;
	}
}

/* Ends every request due at now_ms. */
static void model_ends(heed_polite *p, int64_t now_ms,
                       struct model_request *reqs, unsigned *n,
                       struct model_run *out)
{
	struct heed_polite_clock now = {1000, now_ms};

	for (unsigned i = 0; i < *n;) {
		struct model_request *r = &reqs[i];
		struct heed_polite_result res = {.connected = true};
		char name[24];

		if (r->end_ms > now_ms) {
			i++;
			continue;
		}
		res.status = r->status;
		res.first_byte_ms = res.elapsed_ms = r->ttfb_ms;
		snprintf(name, sizeof(name), "s%u.test", r->host);
		heed_polite_end(p, name, IP, &now, &res);
		if (r->status == 503)
			out->refused++;
		else
			out->served++;
		reqs[i] = reqs[--*n];
	}
}

static void model_run(const struct server_model *m, struct model_run *out)
{
	struct heed_polite_options o = test_options;
	struct model_request reqs[MODEL_MAX_REQS];
	struct heed_polite_address_stats st;
	heed_polite *p;
	unsigned n = 0, next = 0;
	uint64_t rng = 88172645463325252ULL;
	int64_t now = 1000, end = now + MODEL_SECONDS * 1000, area = 0;

	memset(out, 0, sizeof(*out));
	o.address_window_start = 2;
	o.address_concurrency = m->window_max;
	o.slow_ms = 250;
	o.margin_ms = 10;
	assert_int_equal(heed_polite_new(&p, &o, heed_test_allocator()),
	                 HEED_OK);
	while (now < end) {
		model_starts(m, p, now, &next, reqs, &n, &rng, out);
		/* A crawler's loop wakes every few milliseconds at most. */
		int64_t step = 5;
		for (unsigned i = 0; i < n; i++)
			if (reqs[i].end_ms - now < step)
				step = reqs[i].end_ms - now;
		if (step < 1)
			step = 1;
		area += (int64_t)n * step;
		now += step;
		model_ends(p, now, reqs, &n, out);
	}
	out->mean_in_flight = (double)area / (double)(MODEL_SECONDS * 1000);
	heed_polite_address_get(p, IP, &st);
	out->window_end = st.window;
	out->eases = st.eases;
	heed_polite_free(p);
}

/* Runs every model, prints the server's figures, and fails when one has a
 * 503 or is out of its bounds. */
static void models_check(const struct server_model *models, size_t n)
{
	unsigned failed = 0;

	for (size_t i = 0; i < n; i++) {
		const struct server_model *m = &models[i];
		struct model_run r;
		model_run(m, &r);
		printf("%s: %.2f in flight on average, at most %u; %u served, "
		       "%u 503s, window %u, %llu eases\n",
		       m->name, r.mean_in_flight, r.max_in_flight, r.served,
		       r.refused, r.window_end, (unsigned long long)r.eases);
		if (r.refused || (m->most && r.mean_in_flight > m->most) ||
		    (m->least && (r.mean_in_flight < m->least ||
		                  r.window_end != m->window_max)))
			failed++;
	}
	if (failed)
		fail_msg("%u of %zu servers out of bounds (printed above)",
		         failed, n);
}

/* The small server of the load test (tests/integration/test_crawl_load.py
 * "struggling"): 20 ms up to 2 in flight, 150 ms more per request beyond,
 * 503 beyond 6. The window must keep it in its fast range: on average at
 * most 2.5 in flight (the old window, which halved only on an answer over
 * twice the usual time plus 250 ms, kept 3.7), never a 503. */
static void test_window_keeps_small_server_fast(void **state)
{
	static const struct server_model models[] = {
	        {"small, 40 sites", 40, 20, 150, 2, 6, 1, false, 64, 2.5, 0},
	        {"small, 40 sites, jitter", 40, 20, 150, 2, 6, 1, true, 64, 2.5,
	         0},
	        {"small, 200 sites", 200, 20, 150, 2, 6, 1, false, 64, 2.5, 0},
	        {"small, 40 sites of 1-3 x 20 ms, jitter", 40, 20, 150, 2, 6, 3,
	         true, 64, 2.5, 0},
	};

	(void)state;
	models_check(models, HEED_ARRAY_SIZE(models));
}

/* A roomy front (room for 64, 200 ms whatever the load) must be used to
 * the full: the window reaches 64 and stays there. 400 sites asking once a
 * second at 200 ms want 80 in flight; the window needs about 12 s of the
 * 60 to grow from 2 to 64, hence 50 on average. Answers that jitter from
 * 100 to 300 ms cost some of it: the queue signal then strays far enough
 * from its best to stop the growth now and then. */
static void test_window_fills_roomy_server(void **state)
{
	static const struct server_model models[] = {
	        {"roomy", 400, 200, 0, 64, 64, 1, false, 64, 0, 50},
	        {"roomy, jitter", 400, 200, 0, 64, 64, 1, true, 64, 0, 40},
	};

	(void)state;
	models_check(models, HEED_ARRAY_SIZE(models));
}

/* Workers sharing an address's budget: each gets its part of
 * the largest window. With 8 shared by 4, two in flight here, the third
 * refused; alone again (share 1), all 8. */
static void test_share_addresses_window(void **state)
{
	struct window_sim w;
	struct heed_polite_clock now;
	int64_t wait = -1;

	(void)state;
	sim_init(&w, 8, 8);
	heed_polite_share_addresses(w.p, 4);
	assert_int_equal(sim_window(&w), 2);
	assert_int_equal(sim_fill(&w), 2);
	now = (struct heed_polite_clock){1000, w.now_ms};
	assert_int_equal(heed_polite_check(w.p, "third.test", IP, &now, &wait),
	                 HEED_POLITE_BUSY);
	assert_int_equal(wait, 0);
	assert_int_equal(heed_polite_begin(w.p, "third.test", IP, &now, NULL),
	                 HEED_POLITE_BUSY);
	/* One ends: room for one more, not two. */
	w.now_ms += 20;
	sim_end(&w, 200, 20);
	assert_int_equal(sim_fill(&w), 1);
	heed_polite_share_addresses(w.p, 1);
	assert_int_equal(sim_window(&w), 8);
	assert_int_equal(sim_fill(&w), 6);
	assert_int_equal(w.in_flight, 8);
	heed_polite_free(w.p);
}

/* An attempt begun and never sent (its decision went stale) is taken back
 * whole: the host may start again at once, as before it began, and the
 * address's slot is free with its window unchanged (unlike an attempt that
 * never connected, which halves it). */
static void test_unbegin(void **state)
{
	struct heed_polite_options opt;
	struct heed_polite_address_stats st;
	struct heed_polite_clock t0 = {1000000, 5000}, t1 = {1000300, 5300};
	heed_polite *p;
	int64_t wait = -1;

	(void)state;
	heed_polite_options_default(&opt);
	opt.address_window_start = 2;
	assert_int_equal(heed_polite_new(&p, &opt, NULL), HEED_OK);
	assert_int_equal(heed_polite_begin(p, "a.test", IP, &t0, NULL),
	                 HEED_POLITE_READY);
	assert_int_equal(heed_polite_begin(p, "b.test", IP, &t0, NULL),
	                 HEED_POLITE_READY);
	assert_int_equal(heed_polite_check(p, "c.test", IP, &t0, NULL),
	                 HEED_POLITE_BUSY);
	heed_polite_unbegin(p, "a.test", IP);
	assert_true(heed_polite_address_get(p, IP, &st));
	assert_int_equal(st.in_flight, 1);
	assert_int_equal(st.window, 2);
	assert_int_equal(st.decreases, 0);
	/* a.test had never started: it may go now, 300 ms later. */
	assert_int_equal(heed_polite_check(p, "a.test", IP, &t1, &wait),
	                 HEED_POLITE_READY);
	assert_int_equal(wait, 0);
	/* b.test's start stands: it is still in flight. */
	assert_int_equal(heed_polite_check(p, "b.test", IP, &t1, NULL),
	                 HEED_POLITE_HOST_BUSY);
	/* Unknown names are ignored. */
	heed_polite_unbegin(p, "never.test", "192.0.2.99");
	heed_polite_free(p);
}

/* More parts than requests: each keeps one (never none, which would stop
 * the crawl); 0 parts is a crawl alone. */
static void test_share_addresses_at_least_one(void **state)
{
	struct window_sim w;

	(void)state;
	sim_init(&w, 8, 8);
	heed_polite_share_addresses(w.p, 20);
	assert_int_equal(sim_window(&w), 1);
	assert_int_equal(sim_fill(&w), 1);
	heed_polite_free(w.p);
	sim_init(&w, 8, 8);
	heed_polite_share_addresses(w.p, 0);
	assert_int_equal(sim_window(&w), 8);
	assert_int_equal(sim_fill(&w), 8);
	heed_polite_free(w.p);
	/* Before any request to it, an address's window is the start
	 * window, under the part as well. */
	sim_init(&w, 4, 8);
	heed_polite_share_addresses(w.p, 8);
	assert_int_equal(sim_window(&w), 1);
	heed_polite_free(w.p);
}

/* The gap between starts to one address: each of 3 workers waits 3 times
 * the address's delay, so that together they keep it; 0 parts, one. */
static void test_share_addresses_delay(void **state)
{
	struct heed_polite_options o = test_options;
	struct heed_polite_clock now = {100000, 0};
	struct heed_polite_result r = {.connected = true,
	                               .status = 200,
	                               .first_byte_ms = 5,
	                               .elapsed_ms = 10};
	heed_polite *p;
	int64_t wait = -1;

	(void)state;
	o.address_concurrency = 8;
	o.address_window_start = 8;
	o.address_delay_ms = 100;
	assert_int_equal(heed_polite_new(&p, &o, heed_test_allocator()),
	                 HEED_OK);
	heed_polite_share_addresses(p, 3);
	assert_int_equal(heed_polite_begin(p, H, IP, &now, NULL),
	                 HEED_POLITE_READY);
	now.mono_ms = 10;
	heed_polite_end(p, H, IP, &now, &r);
	/* Another host name at the same address: the address's gap. */
	assert_int_equal(heed_polite_check(p, H2, IP, &now, &wait),
	                 HEED_POLITE_WAIT);
	assert_int_equal(wait, 290);
	now.mono_ms = 299;
	assert_int_equal(heed_polite_begin(p, H2, IP, &now, &wait),
	                 HEED_POLITE_WAIT);
	assert_int_equal(wait, 1);
	now.mono_ms = 300;
	assert_int_equal(heed_polite_begin(p, H2, IP, &now, &wait),
	                 HEED_POLITE_READY);
	/* Other addresses are not held. */
	assert_int_equal(heed_polite_check(p, "c.test", IP2, &now, &wait),
	                 HEED_POLITE_READY);
	heed_polite_share_addresses(p, 0);
	now.mono_ms = 399;
	assert_int_equal(heed_polite_check(p, "c.test", IP, &now, &wait),
	                 HEED_POLITE_WAIT);
	assert_int_equal(wait, 1);
	now.mono_ms = 400;
	assert_int_equal(heed_polite_check(p, "c.test", IP, &now, &wait),
	                 HEED_POLITE_READY);
	heed_polite_free(p);
}

/* Under its part, the window still follows the server: a slow answer
 * halves the window in force (2 of 8 shared by 4: down to 1), and clean
 * answers grow it back to the part, never past it. */
static void test_share_addresses_window_adapts(void **state)
{
	struct window_sim w;
	struct heed_polite_address_stats st;

	(void)state;
	sim_init(&w, 8, 8);
	heed_polite_share_addresses(w.p, 4);
	assert_int_equal(sim_fill(&w), 2);
	for (int i = 0; i < 2; i++) {
		w.now_ms += 20;
		sim_end(&w, 200, 20);
	}
	assert_int_equal(sim_fill(&w), 2);
	/* Usual 20 ms: 141 is slow (2 x 20 + slow_ms 100). */
	w.now_ms += 141;
	sim_end(&w, 200, 141);
	heed_polite_address_get(w.p, IP, &st);
	assert_int_equal(st.decreases, 1);
	assert_int_equal(st.window, 1);
	w.now_ms += 20;
	sim_end(&w, 200, 20);
	assert_int_equal(sim_fill(&w), 1);
	sim_clean(&w, 50);
	assert_int_equal(sim_window(&w), 2);
	assert_int_equal(w.in_flight, 2);
	heed_polite_free(w.p);
}

static void test_backoff_round_trip(void **state)
{
	struct heed_polite_clock now = {1000000, 0};
	struct heed_polite_result r = {.connected = true,
	                               .status = 429,
	                               .has_retry_after = true,
	                               .retry_after_s = 60};
	struct heed_polite_backoff b;
	heed_polite *p;

	(void)state;
	assert_int_equal(
	        heed_polite_new(&p, &test_options, heed_test_allocator()),
	        HEED_OK);
	heed_polite_get_backoff(p, "none.test", &b);
	assert_int_equal(b.level, 0);
	assert_int_equal(b.until_s, 0);
	heed_polite_begin(p, H, IP, &now, NULL);
	heed_polite_end(p, H, IP, &now, &r);
	heed_polite_get_backoff(p, H, &b);
	assert_int_equal(b.level, 1);
	assert_int_equal(b.until_s, 1060);
	assert_int_equal(heed_polite_delay_ms(p, H), 2000);
	heed_polite_free(p);
}

/* A previous process's last request, restored: the delay still holds. */
static void test_last_start_restored(void **state)
{
	struct heed_polite_clock now = {1000000, 50000};
	int64_t wait = 0, got = 0;
	heed_polite *p;

	(void)state;
	assert_int_equal(
	        heed_polite_new(&p, &test_options, heed_test_allocator()),
	        HEED_OK);
	assert_false(heed_polite_get_last_start(p, H, &got));
	assert_int_equal(heed_polite_set_last_start(p, H, 49700), HEED_OK);
	assert_int_equal(heed_polite_check(p, H, IP, &now, &wait),
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
	struct heed_polite_clock now = {1000, 0};
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
	assert_int_equal(heed_polite_check(p, "h7.test", NULL, &now, NULL),
	                 HEED_POLITE_READY);
	heed_polite_free(p);
}

static void test_oom(void **state)
{
	struct heed_polite_clock now = {1000, 0};
	unsigned long n;

	(void)state;
	for (n = 0;; n++) {
		struct heed_test_fail f = {.fail_at = n};
		heed_polite *p = NULL;
		heed_status rc = heed_polite_new(
		        &p, &test_options, heed_test_failing_allocator(&f));
		if (rc == HEED_OK && heed_polite_begin(p, H, IP, &now, NULL) ==
		                             HEED_POLITE_NOMEM)
			rc = HEED_ENOMEM;
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
	        cmocka_unit_test(test_window_grows_when_used),
	        cmocka_unit_test(test_window_idle_does_not_grow),
	        cmocka_unit_test(test_window_halves_once_per_round),
	        cmocka_unit_test(test_window_halves_on_slow_answers),
	        cmocka_unit_test(test_window_counts_refused_connections),
	        cmocka_unit_test(test_window_eases_as_queue_builds),
	        cmocka_unit_test(test_window_keeps_small_server_fast),
	        cmocka_unit_test(test_window_fills_roomy_server),
	        cmocka_unit_test(test_share_addresses_window),
	        cmocka_unit_test(test_share_addresses_at_least_one),
	        cmocka_unit_test(test_unbegin),
	        cmocka_unit_test(test_share_addresses_delay),
	        cmocka_unit_test(test_share_addresses_window_adapts),
	        cmocka_unit_test(test_backoff_round_trip),
	        cmocka_unit_test(test_last_start_restored),
	        cmocka_unit_test(test_many_hosts),
	        cmocka_unit_test(test_oom),
	        cmocka_unit_test(test_http_dates),
	        cmocka_unit_test(test_retry_after),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
