/*
 * Per-host and per-address timing (ARCHITECTURE.md "Rules that hold
 * everywhere"; issue "Politeness"). Pure: the time is an argument of every
 * call. Invariant: for every host, two request starts that connected are at
 * least the host's delay apart, provided the caller starts a request only
 * after heed_polite_check said READY and calls begin/end around it.
 */
#include <string.h>

#include "politeness/politeness-int.h"

/* 2^30 * base is already decades: stop doubling there. */
#define BACKOFF_MAX_LEVEL 30

struct heed_polite {
	const struct heed_allocator *alloc;
	struct heed_polite_options opt;
	struct heed__polite_table hosts;
	struct heed__polite_table addresses;
};

void heed_polite_options_default(struct heed_polite_options *opt)
{
	opt->default_delay_ms = 1000;
	opt->crawl_delay_cap_ms = 30000;
	opt->per_address = true;
	opt->address_concurrency = 1;
	opt->address_delay_ms = 0;
	opt->backoff_base_s = 60;
	opt->backoff_max_s = 86400;
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

static int64_t host_delay(const heed_polite *p,
                          const struct heed__polite_entry *h)
{
	return h && h->delay_ms > p->opt.default_delay_ms
	               ? h->delay_ms
	               : p->opt.default_delay_ms;
}

static int64_t max64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

heed_polite_verdict heed_polite_check(const heed_polite *p, const char *host,
                                      const char *address,
                                      const struct heed_polite_clock *now,
                                      unsigned flags, int64_t *wait_ms)
{
	const struct heed__polite_entry *h = heed__polite_find(&p->hosts, host);
	const struct heed__polite_entry *a =
	        p->opt.per_address ? heed__polite_find(&p->addresses, address)
	                           : NULL;
	int64_t ready = now->mono_ms;

	if (wait_ms)
		*wait_ms = 0;
	if (a && a->in_flight >= p->opt.address_concurrency)
		return HEED_POLITE_BUSY;
	if (h && h->started)
		ready = max64(ready, h->last_start_ms + host_delay(p, h));
	if (a && a->started && p->opt.address_delay_ms > 0)
		ready = max64(ready,
		              a->last_start_ms + p->opt.address_delay_ms);
	if (h && !(flags & HEED_POLITE_IGNORE_BACKOFF) &&
	    h->backoff.until_s > now->unix_s)
		ready = max64(ready, now->mono_ms + (h->backoff.until_s -
		                                     now->unix_s) *
		                                            1000);
	if (ready <= now->mono_ms)
		return HEED_POLITE_READY;
	if (wait_ms)
		*wait_ms = ready - now->mono_ms;
	return HEED_POLITE_WAIT;
}

static void mark_start(struct heed__polite_entry *e, int64_t now_ms)
{
	e->prev_started = e->started;
	e->prev_start_ms = e->last_start_ms;
	e->started = true;
	e->last_start_ms = now_ms;
}

heed_status heed_polite_begin(heed_polite *p, const char *host,
                              const char *address,
                              const struct heed_polite_clock *now)
{
	struct heed__polite_entry *h =
	        heed__polite_get(&p->hosts, host, p->alloc);
	struct heed__polite_entry *a = NULL;

	if (!h)
		return HEED_ENOMEM;
	if (p->opt.per_address && address) {
		a = heed__polite_get(&p->addresses, address, p->alloc);
		if (!a)
			return HEED_ENOMEM;
	}
	mark_start(h, now->mono_ms);
	if (a) {
		mark_start(a, now->mono_ms);
		a->in_flight++;
	}
	return HEED_OK;
}

/* "429 and 503 back off exponentially, honouring Retry-After". */
static void back_off(const heed_polite *p, struct heed__polite_entry *h,
                     const struct heed_polite_clock *now,
                     const struct heed_polite_result *r)
{
	int64_t wait = p->opt.backoff_base_s;
	uint32_t i;

	if (h->backoff.level < BACKOFF_MAX_LEVEL)
		h->backoff.level++;
	for (i = 1; i < h->backoff.level && wait < p->opt.backoff_max_s; i++)
		wait *= 2;
	if (r->has_retry_after && r->retry_after_s > wait)
		wait = r->retry_after_s;
	if (wait > p->opt.backoff_max_s)
		wait = p->opt.backoff_max_s;
	h->backoff.until_s = now->unix_s + wait;
}

void heed_polite_end(heed_polite *p, const char *host, const char *address,
                     const struct heed_polite_clock *now,
                     const struct heed_polite_result *r)
{
	struct heed__polite_entry *h = heed__polite_find(&p->hosts, host);
	struct heed__polite_entry *a =
	        p->opt.per_address ? heed__polite_find(&p->addresses, address)
	                           : NULL;

	if (a && a->in_flight > 0)
		a->in_flight--;
	if (!h)
		return;
	if (!r->connected) {
		/* "an attempt that never connected sent no request and need
		 * not wait". */
		h->started = h->prev_started;
		h->last_start_ms = h->prev_start_ms;
		if (a) {
			a->started = a->prev_started;
			a->last_start_ms = a->prev_start_ms;
		}
		return;
	}
	if (r->status == 429 || r->status == 503)
		back_off(p, h, now, r);
	else if (r->status > 0)
		memset(&h->backoff, 0, sizeof(h->backoff));
}

heed_status heed_polite_set_crawl_delay(heed_polite *p, const char *host,
                                        int64_t delay_ms)
{
	struct heed__polite_entry *h;

	if (delay_ms > p->opt.crawl_delay_cap_ms)
		return HEED_EDENIED;
	h = heed__polite_get(&p->hosts, host, p->alloc);
	if (!h)
		return HEED_ENOMEM;
	h->delay_ms = delay_ms > 0 ? delay_ms : 0;
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
	        heed__polite_get(&p->hosts, host, p->alloc);

	if (!h)
		return HEED_ENOMEM;
	h->backoff = *b;
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
	        heed__polite_get(&p->hosts, host, p->alloc);

	if (!h)
		return HEED_ENOMEM;
	if (!h->started || mono_ms > h->last_start_ms) {
		h->started = true;
		h->last_start_ms = mono_ms;
	}
	return HEED_OK;
}
