/*
 * The controller's registry (crawl-int.h): sites by origin and hosts by
 * name (chained hash tables doubled at one entry per bucket), the lanes
 * parked per address while its window is full, the timers of lifecycles
 * and look-up retries (a binary min-heap), and the requests in progress.
 * No policy here: only who is who, and where each waits.
 *
 * Workload: up to hundreds of thousands of sites and hosts, created as
 * their URLs are first met and kept until the controller is freed.
 */
#include <stdio.h>
#include <string.h>

#include "crawl/crawl-int.h"
#include "heed/url.h"

/* ---- a chained table, shared by sites, hosts and address queues ---- */

/* Every entry type starts with its chain link and is found by a key that
 * get_key returns. */
struct chain {
	struct chain *next;
};

typedef const char *key_fn(const struct chain *e);

static struct chain *chain_find(struct chain **buckets, size_t n, key_fn *key,
                                const char *k)
{
	struct chain *e;

	if (!n)
		return NULL;
	for (e = buckets[heed__hash_str(k) & (n - 1)]; e; e = e->next)
		if (strcmp(key(e), k) == 0)
			return e;
	return NULL;
}

/* Links e in, doubling the table when it holds one entry per bucket. */
static bool chain_add(heed_crawl *c, struct chain ***buckets, size_t *n,
                      size_t *count, key_fn *key, struct chain *e)
{
	size_t k;

	if (*count >= *n) {
		size_t m = *n ? *n * 2 : 256;
		struct chain **t = heed__calloc(c->alloc, m, sizeof(*t));
		if (!t)
			return false;
		for (size_t i = 0; i < *n; i++) {
			struct chain *x = (*buckets)[i], *next;
			for (; x; x = next) {
				next = x->next;
				k = heed__hash_str(key(x)) & (m - 1);
				x->next = t[k];
				t[k] = x;
			}
		}
		heed__free(c->alloc, *buckets);
		*buckets = t;
		*n = m;
	}
	k = heed__hash_str(key(e)) & (*n - 1);
	e->next = (*buckets)[k];
	(*buckets)[k] = e;
	(*count)++;
	return true;
}

static const char *site_key(const struct chain *e)
{
	return ((const struct heed__site *)(const void *)e)->origin;
}

static const char *host_key(const struct chain *e)
{
	return ((const struct heed__host *)(const void *)e)->name;
}

static const char *addrq_key(const struct chain *e)
{
	return ((const struct heed__addrq *)(const void *)e)->text;
}

/* ---- hosts ---- */

struct heed__host *heed__host_get(heed_crawl *c, const char *name)
{
	struct heed__host *h = (struct heed__host *)(void *)chain_find(
	        (struct chain **)c->hosts, c->host_buckets, host_key, name);

	if (h)
		return h;
	h = heed__calloc(c->alloc, 1, sizeof(*h));
	if (!h)
		return NULL;
	h->name = heed__strndup(c->alloc, name, strlen(name));
	if (!h->name ||
	    !chain_add(c, (struct chain ***)&c->hosts, &c->host_buckets,
	               &c->host_count, host_key, (struct chain *)(void *)h)) {
		heed__free(c->alloc, h->name);
		heed__free(c->alloc, h);
		return NULL;
	}
	return h;
}

/* ---- sites ---- */

struct heed__site *heed__site_find(heed_crawl *c, const char *origin)
{
	return (struct heed__site *)(void *)chain_find(
	        (struct chain **)c->sites, c->site_buckets, site_key, origin);
}

struct heed__site *heed__site_of_lane(struct heed__lane *l)
{
	return (struct heed__site *)(void *)((char *)l -
	                                     offsetof(struct heed__site, lane));
}

struct heed__site *heed__site_get(heed_crawl *c, const char *origin,
                                  const char *hostname)
{
	struct heed__site *s = heed__site_find(c, origin);
	const char *sep;

	if (s)
		return s;
	s = heed__calloc(c->alloc, 1, sizeof(*s));
	if (!s)
		return NULL;
	heed__lane_init(&s->lane);
	/* Its URLs wait until it is qualified and its addresses known
	 * (lifecycle.c releases the lane). */
	s->lane.held = true;
	s->origin = heed__strndup(c->alloc, origin, strlen(origin));
	s->host = heed__host_get(c, hostname);
	if (!s->origin || !s->host ||
	    !chain_add(c, (struct chain ***)&c->sites, &c->site_buckets,
	               &c->site_count, site_key, (struct chain *)(void *)s)) {
		heed__free(c->alloc, s->origin);
		heed__free(c->alloc, s);
		return NULL;
	}
	sep = strstr(s->origin, "://");
	s->host_key = sep ? sep + 3 : s->origin;
	c->p.sites++;
	heed__site_list_new(c, s);
	return s;
}

const char *heed__site_state_name(enum heed__site_state state)
{
	static const char *const names[] = {"new", "qualifying", "resolving",
	                                    "ready", "out"};

	if ((unsigned)state >= HEED_ARRAY_SIZE(names))
		return "unknown";
	return names[state];
}

void heed__site_set_state(heed_crawl *c, struct heed__site *s,
                          enum heed__site_state state)
{
	if (s->state == state)
		return;
	heed_log(&c->log, HEED_LOG_DEBUG, "crawl", "%s: %s -> %s", s->origin,
	         heed__site_state_name(s->state), heed__site_state_name(state));
	s->state = state;
}

/* Its lifecycle starts at the next turn of next(): creating a site happens
 * deep inside enqueueing, which must not run a lifecycle. */
void heed__site_list_new(heed_crawl *c, struct heed__site *s)
{
	if (s->listed || s->state != SITE_NEW)
		return;
	/* A worker starts only the sites it holds; another's work is
	 * offered to all with the batch (batch.c). */
	if (heed__worker_on(c) && !s->host->leased) {
		if (!s->offered) {
			s->offered = true;
			s->offer_next = c->offers;
			c->offers = s;
		}
		return;
	}
	/* Of a granted host, not started yet (worker.c): listed when it
	 * starts from the store, once the rows its last holder had in flight
	 * are queued again and its window is loaded. */
	if (s->to_start)
		return;
	s->listed = true;
	s->new_next = NULL;
	if (c->new_tail)
		c->new_tail->new_next = s;
	else
		c->new_head = s;
	c->new_tail = s;
}

/* The site of u's host and port under the other scheme, if the crawl has
 * it: http://a.example/ and https://a.example/ are two origins (two
 * robots.txt), but one site to the people who run it, and most http sites
 * now redirect to https. */
static bool has_scheme_twin(heed_crawl *c, const heed_url *u)
{
	char twin[300];
	bool https = strcmp(heed_url_scheme(u), "https") == 0;
	int n = snprintf(twin, sizeof(twin), "%s://%s",
	                 https ? "http" : "https", heed_url_host_key(u));

	return n > 0 && (size_t)n < sizeof(twin) && heed__site_find(c, twin);
}

struct heed__site *heed__site_of_url(heed_crawl *c, const char *url,
                                     bool create)
{
	char origin[300];
	struct heed__site *s;
	heed_url *u = NULL;

	if (heed_url_origin_fast(url, origin, sizeof(origin)) == HEED_OK &&
	    (s = heed__site_find(c, origin)) != NULL)
		return s;
	if (heed_url_parse(&u, url, strlen(url), c->alloc) != HEED_OK)
		return NULL;
	s = heed__site_find(c, heed_url_origin(u));
	if (!s && (create || has_scheme_twin(c, u))) {
		s = heed__site_get(c, heed_url_origin(u), heed_url_hostname(u));
		if (s)
			s->in_scope = true;
	}
	heed_url_free(u);
	return s;
}

/* ---- lanes parked per address ---- */

heed_status heed__addrq_park(heed_crawl *c, const char *address,
                             struct heed__lane *l)
{
	struct heed__addrq *q = (struct heed__addrq *)(void *)chain_find(
	        (struct chain **)c->addrqs, c->addrq_buckets, addrq_key,
	        address);

	if (!q) {
		q = heed__calloc(c->alloc, 1, sizeof(*q));
		if (!q)
			return HEED_ENOMEM;
		snprintf(q->text, sizeof(q->text), "%s", address);
		if (!chain_add(c, (struct chain ***)&c->addrqs,
		               &c->addrq_buckets, &c->addrq_count, addrq_key,
		               (struct chain *)(void *)q)) {
			heed__free(c->alloc, q);
			return HEED_ENOMEM;
		}
	}
	heed__sched_park(&c->sched, l);
	l->park_next = NULL;
	if (q->tail)
		q->tail->park_next = l;
	else
		q->head = l;
	q->tail = l;
	return HEED_OK;
}

void heed__addrq_wake(heed_crawl *c, const char *address, unsigned n)
{
	struct heed__addrq *q = (struct heed__addrq *)(void *)chain_find(
	        (struct chain **)c->addrqs, c->addrq_buckets, addrq_key,
	        address);

	while (q && q->head && n > 0) {
		struct heed__lane *l = q->head;
		q->head = l->park_next;
		if (!q->head)
			q->tail = NULL;
		l->park_next = NULL;
		/* Parked lanes were ready by their host's rules: first come,
		 * first served at the address. */
		if (heed__sched_unpark(&c->sched, l, c->now.mono_ms) != HEED_OK)
			heed__crawl_oom(c);
		n--;
	}
}

void heed__addrq_wake_address(heed_crawl *c, const char *address)
{
	struct heed_polite_address_stats st;

	heed_polite_address_get(c->polite, address, &st);
	if (st.window > st.in_flight)
		heed__addrq_wake(c, address, st.window - st.in_flight);
}

size_t heed__addrq_wake_all(heed_crawl *c)
{
	size_t n = 0;

	for (size_t i = 0; i < c->addrq_buckets; i++)
		for (struct heed__addrq *q = c->addrqs[i]; q; q = q->next)
			while (q->head) {
				heed_log(&c->log, HEED_LOG_DEBUG, "crawl",
				         "%s: woken at %s",
				         heed__site_of_lane(q->head)->origin,
				         q->text);
				heed__addrq_wake(c, q->text, 1);
				n++;
			}
	return n;
}

void heed__addrq_wake_room(heed_crawl *c)
{
	for (size_t i = 0; i < c->addrq_buckets; i++)
		for (struct heed__addrq *q = c->addrqs[i]; q; q = q->next)
			if (q->head)
				heed__addrq_wake_address(c, q->text);
}

/* ---- timers ---- */

static void timer_swap(heed_crawl *c, size_t a, size_t b)
{
	struct heed__timer t = c->timers[a];

	c->timers[a] = c->timers[b];
	c->timers[b] = t;
}

heed_status heed__timer_add(heed_crawl *c, int64_t at_ms,
                            struct heed__site *site, struct heed__host *host)
{
	size_t i;

	if (c->timer_count == c->timer_cap) {
		size_t cap = c->timer_cap ? c->timer_cap * 2 : 64;
		struct heed__timer *t =
		        heed__realloc(c->alloc, c->timers, cap * sizeof(*t));
		if (!t)
			return HEED_ENOMEM;
		c->timers = t;
		c->timer_cap = cap;
	}
	i = c->timer_count++;
	c->timers[i] = (struct heed__timer){at_ms, site, host};
	while (i > 0 && c->timers[(i - 1) / 2].at_ms > c->timers[i].at_ms) {
		timer_swap(c, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
	return HEED_OK;
}

const struct heed__timer *heed__timer_peek(const heed_crawl *c)
{
	return c->timer_count ? &c->timers[0] : NULL;
}

void heed__timer_pop(heed_crawl *c, struct heed__timer *out)
{
	size_t i = 0;

	*out = c->timers[0];
	c->timers[0] = c->timers[--c->timer_count];
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		if (l < c->timer_count &&
		    c->timers[l].at_ms < c->timers[m].at_ms)
			m = l;
		if (r < c->timer_count &&
		    c->timers[r].at_ms < c->timers[m].at_ms)
			m = r;
		if (m == i)
			return;
		timer_swap(c, i, m);
		i = m;
	}
}

/* ---- requests in progress ---- */

struct heed_crawl_req *heed__req_new(heed_crawl *c)
{
	struct heed_crawl_req *r = heed__calloc(c->alloc, 1, sizeof(*r));

	if (!r)
		return NULL;
	r->next = c->reqs;
	if (c->reqs)
		c->reqs->prev = r;
	c->reqs = r;
	return r;
}

static void add_header(heed_crawl *c, struct heed_crawl_req *req,
                       const char *name, const char *value)
{
	struct heed_buf b;

	/* A value comes from a server: one that would break the request
	 * line in two is not sent back. */
	if (!value || !*value || strpbrk(value, "\r\n") ||
	    req->header_count >= HEED_ARRAY_SIZE(req->headers))
		return;
	heed__buf_init(&b, c->alloc, 256);
	if (heed__buf_addf(&b, "%s: %s", name, value) == HEED_OK)
		req->headers[req->header_count++] = heed__buf_take(&b);
	heed__buf_free(&b);
}

size_t heed__req_validators(heed_crawl *c, struct heed_crawl_req *req,
                            const char *etag, const char *last_modified)
{
	size_t before = req->header_count;

	add_header(c, req, "If-None-Match", etag);
	add_header(c, req, "If-Modified-Since", last_modified);
	return req->header_count - before;
}

void heed__req_free(heed_crawl *c, struct heed_crawl_req *r)
{
	if (r->prev)
		r->prev->next = r->next;
	else
		c->reqs = r->next;
	if (r->next)
		r->next->prev = r->prev;
	for (size_t i = 0; i < r->header_count; i++)
		heed__free(c->alloc, r->headers[i]);
	if (r->visit.state == VISIT_KNOWN)
		heed_store_visit_clear(c->store, &r->visit.row);
	heed__free(c->alloc, r);
}

/* ---- freeing it all ---- */

void heed__life_free(heed_crawl *c, struct heed__life *l)
{
	if (!l)
		return;
	heed_site_free(l->machine);
	heed__free(c->alloc, l->url);
	heed__free(c->alloc, l->answer_url);
	heed__free(c->alloc, l->body);
	heed__free(c->alloc, l->content_type);
	heed__free(c->alloc, l->etag);
	heed__free(c->alloc, l->last_modified);
	heed_store_site_clear(c->store, &l->kept);
	heed__free(c->alloc, l);
}

void heed__table_free(heed_crawl *c)
{
	while (c->reqs)
		heed__req_free(c, c->reqs);
	for (size_t i = 0; i < c->site_buckets; i++) {
		struct heed__site *s = c->sites[i], *next;
		for (; s; s = next) {
			next = s->next;
			heed__lane_free(&c->sched, &s->lane);
			heed__life_free(c, s->life);
			heed__rules_free(&s->rules);
			heed__free(c->alloc, s->origin);
			heed__free(c->alloc, s);
		}
	}
	for (size_t i = 0; i < c->host_buckets; i++) {
		struct heed__host *h = c->hosts[i], *next;
		for (; h; h = next) {
			next = h->next;
			heed__free(c->alloc, h->addrs);
			heed__free(c->alloc, h->name);
			heed__free(c->alloc, h);
		}
	}
	for (size_t i = 0; i < c->addrq_buckets; i++) {
		struct heed__addrq *q = c->addrqs[i], *next;
		for (; q; q = next) {
			next = q->next;
			heed__free(c->alloc, q);
		}
	}
	heed__free(c->alloc, c->sites);
	heed__free(c->alloc, c->hosts);
	heed__free(c->alloc, c->addrqs);
	heed__free(c->alloc, c->timers);
	c->sites = NULL;
	c->hosts = NULL;
	c->addrqs = NULL;
	c->timers = NULL;
}
