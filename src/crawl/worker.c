/*
 * A worker among several crawls on one store (issue 14: "heed crawl on
 * several machines against one PostgreSQL share one frontier and one set
 * of sites. A worker leases sites ...; only the holder fetches a site").
 *
 * The controller runs as it does alone, with one gate: a site's lane is
 * started only while this worker holds the site's lease. The frontier is
 * the store's (unique by URL), so a URL any worker finds is queued once;
 * when it belongs to a site this worker does not hold, the store is told
 * (heed_store_lease_ensure) and the site becomes claimable by everyone.
 *
 * Courtesy across workers rests on three rules:
 *  - a grant happens only once the last lease ended (released or expired);
 *  - a holder starts no request once a request starting now might still
 *    be on its way (connecting) at the lease's end: the lease outlives
 *    every request it covers by the connect timeout;
 *  - a new holder counts the site as contacted when it got the grant, or
 *    at the last start its last holder recorded when that is later, so its
 *    first request comes one delay after both.
 * A worker cut off from the store cannot renew: its leases run out and it
 * stops fetching their sites before they end, whoever takes them next.
 *
 * Each worker holds its fair share of the sites that have work (their
 * count over the live workers, from a heartbeat), so workers that join
 * late get sites from those that started first: a worker over its share
 * hands back sites with nothing in flight.
 */
#include <string.h>

#include "crawl/crawl-int.h"
#include "heed/store_leases.h"

/* Sites asked for in one claim statement. */
#define WORKER_CLAIM_MAX 256
/* How often a worker with no site to claim asks the store again. */
#define WORKER_POLL_MS 500
/* How often held sites are looked over (done, surplus, lost). */
#define WORKER_SWEEP_MS 250

bool heed__worker_on(const heed_crawl *c)
{
	return c->opt->worker.holder != NULL;
}

/* The longest a request may take to leave once started: its connect
 * timeout (heed/net.h: 0 means the default). */
static int64_t leave_ms(const heed_crawl *c)
{
	return c->opt->net.connect_timeout_ms > 0
	               ? c->opt->net.connect_timeout_ms
	               : CRAWL_CONNECT_DEFAULT_MS;
}

static int64_t site_delay(const heed_crawl *c, const struct heed__site *s)
{
	return heed_polite_delay_ms(c->polite, s->host->name);
}

void heed__worker_want(heed_crawl *c, struct heed__site *s)
{
	if (!heed__lane_has_work(&s->lane) || !heed__crawl_tx(c))
		return;
	if (heed_store_lease_ensure(c->store, s->origin, site_delay(c, s),
	                            c->now.unix_ms) != HEED_OK)
		heed__crawl_store_failed(c, "offering a site to the workers");
}

/* ---- handing a site back ---- */

/* Whether s may leave this worker now: nothing in flight or about to be,
 * no lifecycle or look-up running, no file asked for it elsewhere. */
static bool idle_site(const struct heed__site *s)
{
	const struct heed__lane *l = &s->lane;

	return !l->current && !l->parked && !l->refilling && !l->candidate &&
	       !s->listed && !s->refs_waiting &&
	       (s->state == SITE_NEW || s->state == SITE_READY ||
	        s->state == SITE_OUT);
}

/* Forgets what this worker knew of s's queue and rules: a later grant
 * starts it afresh from the store. */
static void forget(heed_crawl *c, struct heed__site *s)
{
	heed__sched_reset(&c->sched, &s->lane);
	heed__rules_free(&s->rules);
	heed__acapref_free(c, s);
	s->state = SITE_NEW;
	s->last_loaded_id = 0;
	s->leased = s->lease_lost = false;
	if (c->w.held)
		c->w.held--;
}

/* Hands s back: claimable at once when it has work left, else when a
 * worker finds some. Its last start goes first, so the next holder
 * counts its delay from there. */
static void release(heed_crawl *c, struct heed__site *s)
{
	bool more = heed__lane_has_work(&s->lane);
	bool held = true;

	if (s->last_start &&
	    heed_store_lease_record_start(c->store, s->origin,
	                                  c->opt->worker.holder, s->lease_token,
	                                  s->last_start, &held) != HEED_OK)
		heed__crawl_store_failed(c, "recording a site's last request");
	if (held && c->failed == HEED_OK &&
	    heed_store_lease_release(
	            c->store, s->origin, c->opt->worker.holder, s->lease_token,
	            more ? c->now.unix_ms : HEED_LEASE_IDLE, &held) != HEED_OK)
		heed__crawl_store_failed(c, "handing a site back");
	c->p.released++;
	heed_log(&c->log, HEED_LOG_DEBUG, "crawl", "%s: handed back (%s)",
	         s->origin, more ? "work left" : "done");
}

static void lose(heed_crawl *c, struct heed__site *s, const char *why)
{
	if (s->lease_lost)
		return;
	s->lease_lost = true;
	c->p.leases_lost++;
	heed_log(&c->log, HEED_LOG_WARN, "crawl",
	         "%s: lease lost (%s): no request starts to it here", s->origin,
	         why);
}

/* Looks over the held sites: a lost one is forgotten, a finished one or
 * one over the share handed back. Store writes are committed first, so
 * the next holder finds every page this worker fetched. */
static void sweep(heed_crawl *c)
{
	size_t keep = (size_t)(c->w.share + c->w.share / 8 + 1);
	size_t surplus = c->w.held > keep ? c->w.held - (size_t)c->w.share : 0;
	bool committed = false;

	for (size_t i = 0; i < c->site_buckets && c->failed == HEED_OK; i++)
		for (struct heed__site *s = c->sites[i]; s; s = s->next) {
			bool done;
			if (!s->leased || !idle_site(s))
				continue;
			done = !heed__lane_has_work(&s->lane);
			if (!s->lease_lost && !done && !surplus)
				continue;
			if (!committed) {
				heed__crawl_commit(c);
				committed = true;
			}
			if (!s->lease_lost) {
				release(c, s);
				if (!done)
					surplus--;
			}
			forget(c, s);
		}
}

/* ---- renewals and the heartbeat ---- */

struct renewed {
	heed_crawl *c;
	uint64_t mark;
};

static int renewed_one(void *ud, const struct heed_site_lease *l)
{
	struct renewed *r = ud;
	struct heed__site *s = heed__site_find(r->c, l->site);

	if (s && s->leased && s->lease_token == l->token)
		s->lease_until = l->lease_until;
	return 0;
}

/* Renews every lease in one statement; a site whose lease did not come
 * back renewed was lost. Then counts the live workers and the share. */
static void beat(heed_crawl *c)
{
	const struct heed_crawl_worker *w = &c->opt->worker;
	struct renewed r = {c, 0};
	struct heed_lease_counts n;
	int64_t active;

	heed__crawl_commit(c);
	if (c->failed != HEED_OK)
		return;
	if (heed_store_lease_renew_all(c->store, w->holder, c->now.unix_ms,
	                               w->lease_ms, renewed_one,
	                               &r) != HEED_OK ||
	    heed_store_lease_worker_beat(c->store, w->holder, c->now.unix_ms,
	                                 w->lease_ms, &c->w.live) != HEED_OK ||
	    heed_store_lease_counts(c->store, c->now.unix_ms, &n) != HEED_OK) {
		heed__crawl_store_failed(c, "renewing the leases");
		return;
	}
	for (size_t i = 0; i < c->site_buckets; i++)
		for (struct heed__site *s = c->sites[i]; s; s = s->next)
			if (s->leased && s->lease_until <= c->now.unix_ms)
				lose(c, s, "not renewed in time");
	active = n.sites - n.idle;
	if (c->w.live < 1)
		c->w.live = 1;
	c->w.share = (active + c->w.live - 1) / c->w.live;
	if (c->w.share < 1)
		c->w.share = 1;
	if (c->w.share > (int64_t)w->max_sites)
		c->w.share = w->max_sites;
	c->w.store_idle = n.sites == n.idle;
}

/* ---- claims ---- */

/* The grants of one claim, copied: the store's answer is read through
 * before the sites' queues are. */
struct grants {
	heed_crawl *c;
	struct heed_site_lease *items;
	size_t count;
};

static int grant_one(void *ud, const struct heed_site_lease *l)
{
	struct grants *g = ud;
	struct heed_site_lease *x = &g->items[g->count];

	*x = *l;
	x->site = heed__strndup(g->c->alloc, l->site, strlen(l->site));
	x->holder = NULL;
	if (!x->site)
		return 1;
	g->count++;
	return 0;
}

/* Starts the granted site: its in-flight URLs from a dead holder go back
 * in its queue, its first window is loaded, and its lifecycle starts
 * (from the stored robots.txt while that is fresh). */
static void take(heed_crawl *c, const struct heed_site_lease *l)
{
	struct heed__site *s = heed__site_of_url(c, l->site, true);
	int64_t requeued = 0, contacted;

	if (!s) {
		/* Not a site heed would crawl: handed back, not to be
		 * claimed again until a worker finds work for it. */
		bool held;
		heed_log(&c->log, HEED_LOG_WARN, "crawl",
		         "worker: '%s' is not a site; handed back", l->site);
		if (heed_store_lease_release(c->store, l->site,
		                             c->opt->worker.holder, l->token,
		                             HEED_LEASE_IDLE, &held) != HEED_OK)
			heed__crawl_store_failed(c, "handing a site back");
		return;
	}
	c->p.sites_claimed++;
	s->in_scope = true;
	s->lease_token = l->token;
	s->lease_until = l->lease_until;
	if (s->leased || s->state != SITE_NEW) {
		/* Lost here and granted back before it was forgotten: this
		 * process's own politeness still knows its last start. */
		s->lease_lost = false;
		s->leased = true;
		return;
	}
	s->leased = true;
	c->w.held++;
	if (heed_store_frontier_recover_host(c->store, s->origin, &requeued) !=
	    HEED_OK) {
		heed__crawl_store_failed(c, "recovering a site's queue");
		return;
	}
	if (requeued) {
		c->p.taken_over++;
		heed_log(&c->log, HEED_LOG_INFO, "crawl",
		         "%s: taken over, %lld URLs its last holder had in "
		         "flight queued again",
		         s->origin, (long long)requeued);
	}
	/* The grant may follow an expired lease whose holder started a
	 * request after its last recorded one, but never after the grant. */
	contacted = l->last_request_start > c->now.unix_ms
	                    ? l->last_request_start
	                    : c->now.unix_ms;
	if (heed_polite_set_last_start(
	            c->polite, s->host->name,
	            c->now.mono_ms - (c->now.unix_ms - contacted)) != HEED_OK)
		heed__crawl_oom(c);
	heed__queue_refill(c, s);
	heed__site_list_new(c, s);
}

static void claim(heed_crawl *c)
{
	const struct heed_crawl_worker *w = &c->opt->worker;
	int want = (int)(c->w.share - (int64_t)c->w.held);
	struct heed_site_lease items[WORKER_CLAIM_MAX];
	struct grants g = {c, items, 0};

	if (want > WORKER_CLAIM_MAX)
		want = WORKER_CLAIM_MAX;
	heed__crawl_commit(c);
	if (c->failed != HEED_OK)
		return;
	if (heed_store_lease_claim(c->store, w->holder, c->now.unix_ms,
	                           w->lease_ms, want, grant_one, &g) != HEED_OK)
		heed__crawl_store_failed(c, "claiming sites");
	if (g.count)
		c->p.claims++;
	for (size_t i = 0; i < g.count; i++) {
		if (c->failed == HEED_OK)
			take(c, &items[i]);
		heed__free(c->alloc, (char *)items[i].site);
	}
	heed__crawl_commit(c);
	/* A full answer: more may be claimable at once. */
	c->w.next_claim =
	        c->now.mono_ms + ((int)g.count == want ? 0 : WORKER_POLL_MS);
}

void heed__worker_tick(heed_crawl *c)
{
	if (!heed__worker_on(c) || c->failed != HEED_OK)
		return;
	if (c->now.mono_ms >= c->w.next_beat) {
		beat(c);
		/* With no site, only to learn whether the run is over. */
		c->w.next_beat = c->now.mono_ms +
		                 (c->w.held ? c->opt->worker.lease_ms / 3
		                            : WORKER_POLL_MS);
	}
	if (c->now.mono_ms >= c->w.next_poll) {
		sweep(c);
		c->w.next_poll = c->now.mono_ms + WORKER_SWEEP_MS;
	}
	if ((int64_t)c->w.held < c->w.share &&
	    c->now.mono_ms >= c->w.next_claim && c->failed == HEED_OK)
		claim(c);
}

bool heed__worker_may_start(heed_crawl *c, struct heed__site *s)
{
	if (!heed__worker_on(c))
		return true;
	if (s->leased && !s->lease_lost &&
	    heed_lease_may_fetch(s->lease_until, c->now.unix_ms, leave_ms(c)))
		return true;
	if (s->leased)
		lose(c, s, "it ends before a request starting now surely left");
	/* Forgotten at the next sweep, once nothing of it is in flight. */
	if (heed__sched_defer(&c->sched, &s->lane,
	                      c->now.mono_ms + WORKER_SWEEP_MS) != HEED_OK)
		heed__crawl_oom(c);
	return false;
}

void heed__worker_started(heed_crawl *c, struct heed__site *s)
{
	if (heed__worker_on(c))
		s->last_start = c->now.unix_ms;
}

int64_t heed__worker_wait(const heed_crawl *c)
{
	int64_t next = c->w.next_beat < c->w.next_poll ? c->w.next_beat
	                                               : c->w.next_poll;

	if ((int64_t)c->w.held < c->w.share && c->w.next_claim < next)
		next = c->w.next_claim;
	return next > c->now.mono_ms ? next - c->now.mono_ms : 0;
}

bool heed__worker_run_goes_on(const heed_crawl *c)
{
	return heed__worker_on(c) && (c->w.held > 0 || !c->w.store_idle);
}

void heed__worker_finish(heed_crawl *c)
{
	if (!heed__worker_on(c))
		return;
	heed__crawl_commit(c);
	for (size_t i = 0; i < c->site_buckets && c->failed == HEED_OK; i++)
		for (struct heed__site *s = c->sites[i]; s; s = s->next)
			if (s->leased && !s->lease_lost)
				release(c, s);
	if (c->failed == HEED_OK &&
	    heed_store_lease_worker_leave(c->store, c->opt->worker.holder) !=
	            HEED_OK)
		heed__crawl_store_failed(c, "leaving the workers");
	heed_log(&c->log, HEED_LOG_INFO, "crawl",
	         "worker %s: %lld claims, %lld sites claimed (%lld taken "
	         "over), %lld handed back, %lld leases lost",
	         c->opt->worker.holder, (long long)c->p.claims,
	         (long long)c->p.sites_claimed, (long long)c->p.taken_over,
	         (long long)c->p.released, (long long)c->p.leases_lost);
}
