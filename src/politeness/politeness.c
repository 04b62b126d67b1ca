/*
 * Per-host and per-address timing (ARCHITECTURE.md "Rules that hold
 * everywhere": one authority for courtesy, and load that follows the
 * server). Pure: the time is an argument of every call.
 *
 * Invariants, for every host: at most one request in flight, and two
 * request starts that connected are at least the host's delay apart
 * (the delay in force when the second starts). For every address: at most
 * its window in flight. begin() is the only way to record a start and it
 * refuses any start that would break these, so they hold whatever the
 * caller does, provided it calls end() once for every READY begin().
 *
 * The address window is TCP's congestion window in miniature (RFC 5681
 * congestion avoidance, without slow start): one more request per window
 * of clean answers, half on a sign of trouble. Growth waits until the
 * window was full, so a site that never uses its room does not pile up
 * room it could later spend all at once. The slow-answer test compares
 * each answer's time to first byte with the best its site gave (the
 * address's windowed minimum for a site's first answer), as delay-based
 * congestion control does (TCP Vegas, LEDBAT): a server that takes twice
 * its usual time plus slow_ms is queueing requests.
 *
 * That test only catches a server that suddenly got much slower. One that
 * slows gradually as it gets more requests (fast up to 2 in flight, a
 * little slower with each beyond) never trips it, and a window that only
 * halves then sits in the slow range for good. So the window also follows
 * the queue signal the way TCP Vegas does: each answer's time to first
 * byte over the best its own host ever gave (per host, because sites on
 * one address differ: a static page and a search page are not a queue),
 * smoothed, then compared with that smoothed signal's best recent level,
 * which holds the jitter the server shows anyway. While they agree
 * (within a quarter) the window grows; once the signal is half again
 * above its best, requests are queueing and the window shrinks by one per
 * round trip; in between it holds.
 */
#include <string.h>

#include "politeness/politeness-int.h"

/* 2^30 * base is already decades: stop doubling there. */
#define BACKOFF_MAX_LEVEL 30
/* The shortest round trip between two window decreases: a burst of 503s
 * answered within milliseconds of each other is one sign, not many. */
#define MIN_ROUND_MS 50
/* The queue signal's slack: added to both times of the ratio, so that the
 * few milliseconds of jitter of a loop (heed's, the server's) do not read
 * as a queue at an address that answers in 5 ms. */
#define QUEUE_JITTER_MS 20
/* One answer moves the smoothed signal by at most (4 - 1) / 8: the first
 * answer of a site far slower than its neighbours is not a queue. */
#define QUEUE_SAMPLE_MAX_PM 4000

struct heed_polite {
	const struct heed_allocator *alloc;
	struct heed_polite_options opt;
	/* This process's part of each address's budget, shared with other
	 * processes (heed_polite_share_addresses): */
	unsigned address_cap;     /* the largest window here */
	int64_t address_delay_ms; /* between starts here */
	struct heed__polite_table hosts;
	struct heed__polite_table addresses;
};

void heed_polite_options_default(struct heed_polite_options *opt)
{
	opt->default_delay_ms = 1000;
	opt->crawl_delay_cap_ms = 30000;
	opt->latency_factor = 2;
	opt->error_delay_max_ms = 300000;
	opt->backoff_max_s = 86400;
	opt->per_address = true;
	opt->address_concurrency = 64;
	opt->address_window_start = 2;
	opt->address_delay_ms = 0;
	opt->slow_ms = 250;
	opt->margin_ms = 10;
}

const char *heed_polite_verdict_name(heed_polite_verdict v)
{
	static const char *const names[] = {"ready", "wait", "busy",
	                                    "host-busy", "nomem"};

	if ((unsigned)v >= HEED_ARRAY_SIZE(names))
		return "unknown";
	return names[v];
}

heed_status heed_polite_new(heed_polite **out,
                            const struct heed_polite_options *opt,
                            const struct heed_allocator *alloc)
{
	heed_polite *p;

	alloc = alloc ? alloc : heed_allocator_default();
	*out = NULL;
	p = heed__calloc(alloc, 1, sizeof(*p));
	if (!p)
		return HEED_ENOMEM;
	p->alloc = alloc;
	p->opt = *opt;
	if (p->opt.address_concurrency == 0)
		p->opt.address_concurrency = 1;
	if (p->opt.address_window_start == 0)
		p->opt.address_window_start = 1;
	if (p->opt.address_window_start > p->opt.address_concurrency)
		p->opt.address_window_start = p->opt.address_concurrency;
	heed_polite_share_addresses(p, 1);
	*out = p;
	return HEED_OK;
}

void heed_polite_free(heed_polite *p)
{
	if (!p)
		return;
	heed__polite_table_free(&p->hosts, p->alloc);
	heed__polite_table_free(&p->addresses, p->alloc);
	heed__free(p->alloc, p);
}

static int64_t max64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

/* The host's delay: the floor and Crawl-delay, doubled level times (up to
 * error_delay_max_ms, never below the floor), and at least latency_factor
 * times its last answer, plus the margin. */
static int64_t host_delay(const heed_polite *p,
                          const struct heed__polite_entry *h)
{
	int64_t base = p->opt.default_delay_ms, delay, cap;

	if (!h)
		return base + p->opt.margin_ms;
	base = max64(base, h->crawl_delay_ms);
	cap = max64(base, p->opt.error_delay_max_ms);
	delay = base;
	for (uint32_t i = 0; i < h->backoff.level && delay < cap; i++)
		delay *= 2;
	if (delay > cap)
		delay = cap;
	return max64(delay,
	             (int64_t)p->opt.latency_factor * h->last_elapsed_ms) +
	       p->opt.margin_ms;
}

void heed_polite_share_addresses(heed_polite *p, unsigned parts)
{
	if (parts < 1)
		parts = 1;
	p->address_cap = p->opt.address_concurrency / parts;
	if (p->address_cap < 1)
		p->address_cap = 1;
	p->address_delay_ms = p->opt.address_delay_ms * (int64_t)parts;
}

static unsigned address_window(const heed_polite *p,
                               const struct heed__polite_entry *a)
{
	unsigned w;

	if (!a)
		w = p->opt.address_window_start;
	else
		w = a->window < 1 ? 1 : (unsigned)a->window;
	return w > p->address_cap ? p->address_cap : w;
}

heed_polite_verdict heed_polite_check(const heed_polite *p, const char *host,
                                      const char *address,
                                      const struct heed_polite_clock *now,
                                      int64_t *wait_ms)
{
	const struct heed__polite_entry *h = heed__polite_find(&p->hosts, host);
	const struct heed__polite_entry *a =
	        p->opt.per_address ? heed__polite_find(&p->addresses, address)
	                           : NULL;
	int64_t ready = now->mono_ms;

	if (wait_ms)
		*wait_ms = 0;
	if (h && h->in_flight)
		return HEED_POLITE_HOST_BUSY;
	if (h && h->started)
		ready = max64(ready, h->last_start_ms + host_delay(p, h));
	if (a && a->started && p->address_delay_ms > 0)
		ready = max64(ready, a->last_start_ms + p->address_delay_ms);
	if (h && h->backoff.until_s * 1000 > now->unix_ms)
		ready = max64(ready, now->mono_ms + h->backoff.until_s * 1000 -
		                             now->unix_ms);
	if (ready > now->mono_ms) {
		if (wait_ms)
			*wait_ms = ready - now->mono_ms;
		return HEED_POLITE_WAIT;
	}
	if (a && a->in_flight >= address_window(p, a))
		return HEED_POLITE_BUSY;
	return HEED_POLITE_READY;
}

static void mark_start(struct heed__polite_entry *e, int64_t now_ms)
{
	e->prev_started = e->started;
	e->prev_start_ms = e->last_start_ms;
	e->started = true;
	e->last_start_ms = now_ms;
	e->in_flight++;
}

static void address_init(const heed_polite *p, struct heed__polite_entry *a)
{
	a->window = p->opt.address_window_start;
	a->epoch_min[0] = a->epoch_min[1] = -1;
	a->smoothed_ms = -1;
	a->queue_pm = -1;
	a->queue_min_pm[0] = a->queue_min_pm[1] = -1;
}

heed_polite_verdict heed_polite_begin(heed_polite *p, const char *host,
                                      const char *address,
                                      const struct heed_polite_clock *now,
                                      int64_t *wait_ms)
{
	heed_polite_verdict v =
	        heed_polite_check(p, host, address, now, wait_ms);
	struct heed__polite_entry *h, *a = NULL;
	bool created = false;

	if (v != HEED_POLITE_READY)
		return v;
	h = heed__polite_get(&p->hosts, host, p->alloc, NULL);
	if (!h)
		return HEED_POLITE_NOMEM;
	if (p->opt.per_address && address) {
		a = heed__polite_get(&p->addresses, address, p->alloc,
		                     &created);
		if (!a)
			return HEED_POLITE_NOMEM;
		if (created)
			address_init(p, a);
	}
	mark_start(h, now->mono_ms);
	if (a) {
		mark_start(a, now->mono_ms);
		if (a->in_flight >= address_window(p, a))
			a->window_full = true;
	}
	return HEED_POLITE_READY;
}

/* "5xx or 429, with or without Retry-After, lengthens that site's delay
 * (doubling up to a cap)". */
static void host_error(const heed_polite *p, struct heed__polite_entry *h,
                       const struct heed_polite_clock *now,
                       const struct heed_polite_result *r)
{
	if (h->backoff.level < BACKOFF_MAX_LEVEL)
		h->backoff.level++;
	if (r->has_retry_after) {
		int64_t wait = r->retry_after_s < p->opt.backoff_max_s
		                       ? r->retry_after_s
		                       : p->opt.backoff_max_s;
		/* Up to the next whole second: the store keeps seconds,
		 * and a deadline rounded down would let a request out as
		 * much as 999 ms early. */
		h->backoff.until_s = max64(h->backoff.until_s,
		                           (now->unix_ms + 999) / 1000 + wait);
	}
}

static void host_good(struct heed__polite_entry *h,
                      const struct heed_polite_clock *now)
{
	if (h->backoff.level > 0)
		h->backoff.level--;
	if (h->backoff.until_s * 1000 <= now->unix_ms)
		h->backoff.until_s = 0;
}

/* The least of two epochs' minima (-1: none), the windowed minimum. */
static int64_t epochs_min(const int64_t m[2])
{
	if (m[0] < 0)
		return m[1];
	return m[1] < 0 || m[0] < m[1] ? m[0] : m[1];
}

/* The address's usual time to first byte: the least of the last two
 * epochs' answers, -1 before the first. */
static int64_t address_base(const struct heed__polite_entry *a)
{
	return epochs_min(a->epoch_min);
}

static void epoch_note(int64_t *min, int64_t v)
{
	if (*min < 0 || v < *min)
		*min = v;
}

static int64_t smooth(int64_t avg, int64_t v)
{
	return avg < 0 ? v : avg + (v - avg) / 8;
}

/* One clean answer of ms to first byte, whose queue sample is queue_pm
 * (-1: none). */
static void address_sample(struct heed__polite_entry *a, int64_t ms,
                           int64_t queue_pm)
{
	if (a->epoch_samples++ == HEED__POLITE_EPOCH) {
		a->epoch_min[1] = a->epoch_min[0];
		a->queue_min_pm[1] = a->queue_min_pm[0];
		a->epoch_min[0] = a->queue_min_pm[0] = -1;
		a->epoch_samples = 1;
	}
	epoch_note(&a->epoch_min[0], ms);
	a->smoothed_ms = smooth(a->smoothed_ms, ms);
	if (queue_pm < 0)
		return;
	a->queue_pm = smooth(a->queue_pm, queue_pm);
	epoch_note(&a->queue_min_pm[0], a->queue_pm);
}

/* What an answer of host h is compared with (-1: nothing known): its
 * own best, because sites on one address differ (a page that takes a
 * second to build, next to static ones 20 ms fast, is no queue); for a
 * host's first answer, the address's usual time, since a crawl meets
 * most hosts of a busy address first while the window opens. Read before
 * the answer is noted. */
static int64_t host_usual(const struct heed__polite_entry *a,
                          const struct heed__polite_entry *h)
{
	return h && h->answered ? h->best_ttfb_ms : address_base(a);
}

/* One answer's queue sample: its time ms over ref (host_usual()), per
 * mille, jitter slack on both sides; -1 (none) when ref is unknown. */
static int64_t queue_sample_pm(int64_t ref, int64_t ms)
{
	int64_t pm;

	if (ref < 0)
		return -1;
	pm = (ms + QUEUE_JITTER_MS) * 1000 / (ref + QUEUE_JITTER_MS);
	return pm > QUEUE_SAMPLE_MAX_PM ? QUEUE_SAMPLE_MAX_PM : pm;
}

static void host_note_answer(struct heed__polite_entry *h, int64_t ms)
{
	if (!h || (h->answered && h->best_ttfb_ms <= ms))
		return;
	h->answered = true;
	h->best_ttfb_ms = ms;
}

/* May the window shrink at now_ms? At most once per round trip: the
 * answers of one round were all sent before the last shrink took effect. */
static bool may_shrink(const struct heed__polite_entry *a, int64_t now_ms)
{
	int64_t round = max64(a->smoothed_ms, MIN_ROUND_MS);

	return !a->last_decrease_ms || now_ms - a->last_decrease_ms >= round;
}

/* Shrinks the window in force to its part: one above this process's part
 * (a start window larger than the part, or a part that shrank as workers
 * joined) would otherwise shrink unseen, and the server would get no
 * relief. */
static void shrink_to(struct heed__polite_entry *a, double window,
                      int64_t now_ms)
{
	a->window = window < 1 ? 1 : window;
	a->window_full = false;
	a->last_decrease_ms = now_ms;
}

static void address_decrease(const heed_polite *p, struct heed__polite_entry *a,
                             int64_t now_ms)
{
	if (!may_shrink(a, now_ms))
		return;
	shrink_to(a, (double)address_window(p, a) / 2, now_ms);
	a->decreases++;
}

/* Requests queue at the server: one fewer in flight, as TCP Vegas does. */
static void address_ease(const heed_polite *p, struct heed__polite_entry *a,
                         int64_t now_ms)
{
	if (!may_shrink(a, now_ms))
		return;
	shrink_to(a, (double)address_window(p, a) - 1, now_ms);
	a->eases++;
}

static void address_increase(const heed_polite *p, struct heed__polite_entry *a)
{
	unsigned before = address_window(p, a);

	if (!a->window_full || before >= p->address_cap)
		return;
	a->window += 1.0 / a->window;
	if (address_window(p, a) > before)
		a->window_full = false;
}

/* A clean answer of host h (NULL when unknown): was it slow, or does the
 * queue signal say requests queue? An answer that took more than twice
 * its usual time (host_usual(), plus slow_ms of slack, for the jitter of
 * networks and of heed's own loop) halves the window; a queue signal
 * half again above its best shrinks it by one; one within a quarter of its
 * best lets it grow. */
static void address_answer(const heed_polite *p, struct heed__polite_entry *a,
                           struct heed__polite_entry *h,
                           const struct heed_polite_clock *now,
                           const struct heed_polite_result *r)
{
	int64_t ms = r->first_byte_ms > 0 ? r->first_byte_ms : r->elapsed_ms;
	int64_t best, usual;

	if (ms < 0)
		ms = 0;
	usual = host_usual(a, h);
	address_sample(a, ms, queue_sample_pm(usual, ms));
	host_note_answer(h, ms);
	best = epochs_min(a->queue_min_pm);
	if (usual >= 0 && ms > 2 * usual + p->opt.slow_ms)
		address_decrease(p, a, now->mono_ms);
	else if (best >= 0 && 2 * a->queue_pm > 3 * best)
		address_ease(p, a, now->mono_ms);
	else if (best < 0 || 4 * a->queue_pm <= 5 * best)
		address_increase(p, a);
}

static bool is_error_status(int status)
{
	return status == 429 || status >= 500;
}

void heed_polite_end(heed_polite *p, const char *host, const char *address,
                     const struct heed_polite_clock *now,
                     const struct heed_polite_result *r)
{
	struct heed__polite_entry *h = heed__polite_find(&p->hosts, host);
	struct heed__polite_entry *a =
	        p->opt.per_address ? heed__polite_find(&p->addresses, address)
	                           : NULL;
	bool trouble = !r->connected || r->failed || is_error_status(r->status);
	int64_t heard;

	if (a && a->in_flight > 0)
		a->in_flight--;
	if (a && trouble)
		address_decrease(p, a, now->mono_ms);
	else if (a)
		address_answer(p, a, h, now, r);
	if (!h)
		return;
	if (h->in_flight > 0)
		h->in_flight--;
	if (!r->connected) {
		/* "an attempt that never connected sent no request and need
		 * not wait". */
		h->started = h->prev_started;
		h->last_start_ms = h->prev_start_ms;
		return;
	}
	heard = r->heard_ms > 0 ? r->heard_ms : now->mono_ms;
	if (heard > h->last_start_ms)
		h->last_start_ms = heard;
	h->last_elapsed_ms = r->elapsed_ms > 0 ? r->elapsed_ms : 0;
	if (r->failed || is_error_status(r->status))
		host_error(p, h, now, r);
	else if (r->status > 0)
		host_good(h, now);
}

void heed_polite_unbegin(heed_polite *p, const char *host, const char *address)
{
	struct heed__polite_entry *h = heed__polite_find(&p->hosts, host);
	struct heed__polite_entry *a =
	        p->opt.per_address ? heed__polite_find(&p->addresses, address)
	                           : NULL;

	if (a && a->in_flight > 0)
		a->in_flight--;
	if (!h)
		return;
	if (h->in_flight > 0)
		h->in_flight--;
	h->started = h->prev_started;
	h->last_start_ms = h->prev_start_ms;
}

heed_status heed_polite_set_crawl_delay(heed_polite *p, const char *host,
                                        int64_t delay_ms)
{
	struct heed__polite_entry *h;

	if (delay_ms > p->opt.crawl_delay_cap_ms)
		return HEED_EDENIED;
	h = heed__polite_get(&p->hosts, host, p->alloc, NULL);
	if (!h)
		return HEED_ENOMEM;
	h->crawl_delay_ms = delay_ms > 0 ? delay_ms : 0;
	return HEED_OK;
}

int64_t heed_polite_delay_ms(const heed_polite *p, const char *host)
{
	return host_delay(p, heed__polite_find(&p->hosts, host));
}

void heed_polite_get_backoff(const heed_polite *p, const char *host,
                             struct heed_polite_backoff *out)
{
	const struct heed__polite_entry *h = heed__polite_find(&p->hosts, host);

	memset(out, 0, sizeof(*out));
	if (h)
		*out = h->backoff;
}

heed_status heed_polite_set_backoff(heed_polite *p, const char *host,
                                    const struct heed_polite_backoff *b)
{
	struct heed__polite_entry *h =
	        heed__polite_get(&p->hosts, host, p->alloc, NULL);

	if (!h)
		return HEED_ENOMEM;
	h->backoff = *b;
	if (h->backoff.level > BACKOFF_MAX_LEVEL)
		h->backoff.level = BACKOFF_MAX_LEVEL;
	return HEED_OK;
}

bool heed_polite_get_last_start(const heed_polite *p, const char *host,
                                int64_t *mono_ms)
{
	const struct heed__polite_entry *h = heed__polite_find(&p->hosts, host);

	if (!h || !h->started)
		return false;
	*mono_ms = h->last_start_ms;
	return true;
}

heed_status heed_polite_set_last_start(heed_polite *p, const char *host,
                                       int64_t mono_ms)
{
	struct heed__polite_entry *h =
	        heed__polite_get(&p->hosts, host, p->alloc, NULL);

	if (!h)
		return HEED_ENOMEM;
	if (!h->started || mono_ms > h->last_start_ms) {
		h->started = true;
		h->last_start_ms = mono_ms;
	}
	return HEED_OK;
}

bool heed_polite_address_get(const heed_polite *p, const char *address,
                             struct heed_polite_address_stats *out)
{
	const struct heed__polite_entry *a =
	        heed__polite_find(&p->addresses, address);

	memset(out, 0, sizeof(*out));
	out->window = address_window(p, a);
	out->base_ms = out->smoothed_ms = out->queue_pm = -1;
	if (!a)
		return false;
	out->in_flight = a->in_flight;
	out->base_ms = address_base(a);
	out->smoothed_ms = a->smoothed_ms;
	out->decreases = a->decreases;
	out->eases = a->eases;
	out->queue_pm = a->queue_pm;
	return true;
}
