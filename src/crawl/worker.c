/*
 * A worker among several crawls on one store ("heed crawl on
 * several machines against one PostgreSQL share one frontier and one set
 * of sites. A worker leases sites ...; only the holder fetches a site").
 *
 * The lease is per host name, the unit politeness counts by, and covers
 * every site (origin) of the host. The controller runs as it does alone,
 * with one gate: a site's lane starts only while this worker holds its
 * host's lease. The frontier is the store's (unique by URL), so a URL any
 * worker finds is queued once; when its host is not held here, the store
 * is told (heed_store_lease_ensure_origin) and the host becomes claimable
 * by every worker.
 *
 * Courtesy across workers rests on three rules:
 *  - a grant happens only once the last lease ended (released or expired);
 *  - a holder starts no request once a request starting now might still
 *    be connecting at the lease's end: the lease outlives every request it
 *    covers by the connect timeout;
 *  - a new holder counts the host as contacted when it got the grant, or
 *    at the last start its last holder recorded when that is later, so its
 *    first request comes one delay after both.
 * A worker cut off from the store cannot renew: its leases run out and it
 * stops fetching their hosts before they end, whoever takes them next.
 *
 * Each worker holds at most its fair share of the hosts that have work
 * (their count over the live workers, from a heartbeat), so workers that
 * join late get hosts from those that started first: a worker over its
 * share hands back hosts with nothing in flight. Its part of each
 * address's budget follows the same count (heed_polite_share_addresses).
 *
 * Within the share, a worker holds only what it can fetch from: a
 * worker starting R requests a second to hosts with a delay of D seconds
 * keeps R x D hosts busy (Little's law), and claims up to
 * WORKER_HOLD_FACTOR (2) times that (R a moving figure, D the mean delay
 * of the hosts it holds), at least WORKER_HOLD_FLOOR (one claim
 * statement's 256 hosts: a starting worker, whose rate is still 0, gets
 * going with a whole first claim), at most crawl.worker_sites.
 * Measured (docs/scaling.md, "Held sites sized to the work"): where the
 * hosts' delays set a worker's pace, nearly every host it holds is
 * waiting on its delay and R x D is what it holds, so the factor is only
 * room to grow: it doubles the holding for as long as the hosts limit
 * the rate. Where something else sets the pace (its address budgets,
 * its CPU, the store), the hosts past R x D would only wait, parked: a
 * dead worker strands them for a lease, and a worker that could fetch
 * them does not get them; with 2, at most half of what it holds above
 * the floor waits so. A worker whose rate falls claims no more, but
 * keeps what it holds until its hosts are done or its share shrinks:
 * handing back a host with work makes its next holder resolve it
 * again.
 */
#include <json-c/json.h>
#include <string.h>

#include "crawl/crawl-int.h"
#include "heed/store_leases.h"

/* Hosts asked for in one claim statement. */
#define WORKER_CLAIM_MAX 256
/* How often a worker with no host to claim asks the store again. */
#define WORKER_POLL_MS 500
/* How often held hosts are looked over (done, surplus, lost), and the
 * rate sampled. */
#define WORKER_SWEEP_MS 250
/* The oldest beat a claim goes by: its count of live workers and of
 * hosts with work. */
#define WORKER_SHARE_FRESH_MS 1000
/* Hosts held at least, at most the fair share: a worker that has just
 * started, or fetches little, gets going with one claim's worth. */
#define WORKER_HOLD_FLOOR WORKER_CLAIM_MAX
/* Hosts held for each host the rate keeps busy (docs/scaling.md). */
#define WORKER_HOLD_FACTOR 2
/* The rate's time constants: it follows a rise within a second or so,
 * so a starting worker's holding grows as fast as its hosts answer, and
 * forgets a fall over ten, so a pause (a commit, a slow second) does not
 * stop its claims. */
#define WORKER_RATE_RISE_MS 1000
#define WORKER_RATE_FALL_MS 10000
/* Sites of granted hosts started in one turn of the loop (next()), the
 * rest a part a turn after it. A site taken over, or handed back with
 * URLs, starts with statements of its own (its known URLs, its stored
 * robots.txt): an ASan build on a loaded 2-core machine took 15 to 70 ms
 * a site, and a claim that took over 108 hosts, all started in one turn,
 * ran past the 6 s lease the beat at the start of each turn renews: the
 * worker lost every host it held (integration.crawl_workers). A part of
 * 16 keeps a turn near a second at worst, so the beat comes when due.
 * The sites a lost batch's redo starts again from the store (ctl.c) cost
 * the same and go the same way. */
#define WORKER_START_PART 16

/* ---- handing a host back ---- */

bool heed__site_at_rest(const struct heed__site *s)
{
	const struct heed__lane *l = &s->lane;

	for (size_t i = 0; i < s->ref_count; i++)
		if (s->refs[i].referrer && !s->refs[i].settled)
			return false; /* another site waits for it */
	return !l->current && !l->parked && !l->refilling && !l->candidate &&
	       !s->listed && !s->refs_waiting;
}

bool heed__site_idle(const struct heed__site *s)
{
	return heed__site_at_rest(s) &&
	       (s->state == SITE_NEW || s->state == SITE_READY ||
	        s->state == SITE_OUT);
}

/* The hosts a sweep hands back, told to the store together
 * (release_all): one statement on PostgreSQL, not one a host. */
struct releases {
	struct heed_lease_release *r;
	size_t n, cap;
};

/* Hands h back: claimable at once when a site of it has work left, else
 * when a worker finds some. Its last start goes with it, so the next
 * holder counts its delay from there: the moment politeness counts from
 * (the last answer's first byte), not the request's start here, which a
 * busy machine may send hundreds of milliseconds later. Told at
 * release_all. */
static void release(heed_crawl *c, struct releases *rs, struct heed__host *h,
                    bool more)
{
	int64_t last = h->last_start, mono;

	if (heed_polite_get_last_start(c->polite, h->name, &mono) &&
	    c->now.unix_ms - (c->now.mono_ms - mono) > last)
		last = c->now.unix_ms - (c->now.mono_ms - mono);
	if (rs->n == rs->cap) {
		size_t cap = rs->cap ? 2 * rs->cap : 64;
		struct heed_lease_release *r =
		        heed__realloc(c->alloc, rs->r, cap * sizeof(*r));
		if (!r) {
			heed__crawl_oom(c);
			return;
		}
		rs->r = r;
		rs->cap = cap;
	}
	rs->r[rs->n++] = (struct heed_lease_release){
	        h->name, h->lease_token, last,
	        more ? c->now.unix_ms : HEED_LEASE_IDLE, false};
}

static void release_all(heed_crawl *c, struct releases *rs)
{
	if (rs->n && c->failed == HEED_OK &&
	    heed_store_lease_release_all(c->store, c->opt->worker.holder, rs->r,
	                                 rs->n) != HEED_OK)
		heed__crawl_store_failed(c, "handing hosts back");
	for (size_t i = 0; i < rs->n && c->failed == HEED_OK; i++) {
		if (!rs->r[i].held)
			continue; /* another worker has it by now */
		c->p.released++;
		heed_log(&c->log, HEED_LOG_DEBUG, "crawl",
		         "%s: handed back (%s)", rs->r[i].site,
		         rs->r[i].next_ms == HEED_LEASE_IDLE ? "done"
		                                             : "work left");
	}
	heed__free(c->alloc, rs->r);
	*rs = (struct releases){NULL, 0, 0};
}

/* Nothing of s is in flight or about to be: enough to let it go once its
 * host's lease is lost (its lifecycle is abandoned, heed__life_abandon);
 * a held host waits for heed__site_idle. */
static bool quiet(const struct heed__site *s)
{
	const struct heed__lane *l = &s->lane;

	return !l->current && !l->parked && !l->refilling && !l->candidate;
}

/* Which held hosts have a site that is busy, or has work. */
static void mark_hosts(heed_crawl *c)
{
	for (size_t i = 0; i < c->host_buckets; i++)
		for (struct heed__host *h = c->hosts[i]; h; h = h->next)
			h->lease_busy = h->lease_work = false;
	for (size_t i = 0; i < c->site_buckets; i++)
		for (struct heed__site *s = c->sites[i]; s; s = s->next) {
			if (!s->host->leased)
				continue;
			/* A site waiting to start has its work in the store:
			 * its host stays until the site has started. */
			if (s->to_start ||
			    !(s->host->lease_lost ? quiet(s)
			                          : heed__site_idle(s)))
				s->host->lease_busy = true;
			if (s->to_start || heed__lane_has_work(&s->lane))
				s->host->lease_work = true;
		}
}

/* ---- the holding, sized to the work ---- */

/* Folds the requests started since the last sample into the moving
 * rate: an exponential average with WORKER_RATE_RISE_MS as its time
 * constant when the rate rises, WORKER_RATE_FALL_MS when it falls. */
static void sample_rate(heed_crawl *c)
{
	struct heed__worker *w = &c->w;
	int64_t dt = c->now.mono_ms - w->rate_at, tau;
	double got;

	if (!w->rate_at || dt <= 0) {
		if (!w->rate_at) {
			w->rate_at = c->now.mono_ms;
			w->rate_requests = c->p.requests;
		}
		return;
	}
	got = (double)(c->p.requests - w->rate_requests) * 1000.0 / (double)dt;
	tau = got > w->rate ? WORKER_RATE_RISE_MS : WORKER_RATE_FALL_MS;
	w->rate += (got - w->rate) * (double)dt / (double)(dt + tau);
	if (w->rate < 0)
		w->rate = 0; /* requests not sent after all are taken back */
	w->rate_at = c->now.mono_ms;
	w->rate_requests = c->p.requests;
}

/* The mean delay of the hosts held, ms; the default one when none is. */
static int64_t held_delay_ms(const heed_crawl *c)
{
	int64_t sum = 0, n = 0;

	for (size_t i = 0; i < c->host_buckets; i++)
		for (const struct heed__host *h = c->hosts[i]; h; h = h->next)
			if (h->leased && !h->lease_lost) {
				sum += heed_polite_delay_ms(c->polite, h->name);
				n++;
			}
	return n ? sum / n : c->opt->polite.default_delay_ms;
}

/* The hosts the rate calls for: WORKER_HOLD_FACTOR x rate x delay,
 * within WORKER_HOLD_FLOOR and crawl.worker_sites. */
static void size_holding(heed_crawl *c)
{
	int64_t most = (int64_t)c->opt->worker.max_sites;
	double want;

	sample_rate(c);
	want = WORKER_HOLD_FACTOR * c->w.rate * (double)held_delay_ms(c) /
	       1000.0;
	c->w.sized = want >= (double)most ? most : (int64_t)want + 1;
	if (c->w.sized < WORKER_HOLD_FLOOR)
		c->w.sized = WORKER_HOLD_FLOOR;
	if (c->w.sized > most)
		c->w.sized = most;
}

/* Hosts to hold now: the fair share, or fewer when the rate calls for
 * fewer. */
static int64_t hold(const heed_crawl *c)
{
	return c->w.sized < c->w.share ? c->w.sized : c->w.share;
}

/* What the sites of the held hosts are doing, for the log at each beat:
 * the figures the factor was chosen from. A site counts once, in the
 * first class it fits. */
struct census {
	size_t in_flight; /* a request of it is out */
	size_t parked;    /* its lane waits for room at an address */
	size_t waiting;   /* it has work, waiting on its delay (or its
	                     robots.txt lifecycle, its window's refill, its
	                     start) */
	size_t idle;      /* nothing to do: handed back at a sweep */
};

static void take_census(const heed_crawl *c, struct census *n)
{
	memset(n, 0, sizeof(*n));
	for (size_t i = 0; i < c->site_buckets; i++)
		for (const struct heed__site *s = c->sites[i]; s; s = s->next) {
			if (!s->host->leased)
				continue;
			if (s->lane.current)
				n->in_flight++;
			else if (s->lane.parked)
				n->parked++;
			else if (s->to_start || heed__lane_has_work(&s->lane))
				n->waiting++;
			else
				n->idle++;
		}
}

/* Looks over the held hosts: a lost one is forgotten, a finished one or
 * one over the share handed back; a host leaves only when none of its
 * sites has anything in flight. Store writes are committed first, and
 * nothing is handed back when that commit fails, so the next holder
 * finds every page this worker fetched. */
static void sweep(heed_crawl *c)
{
	size_t keep = (size_t)(c->w.share + c->w.share / 8 + 1);
	size_t surplus = c->w.held > keep ? c->w.held - (size_t)c->w.share : 0;
	bool committed = false, gone = false;
	struct releases rs = {NULL, 0, 0};

	mark_hosts(c);
	for (size_t i = 0; i < c->host_buckets && c->failed == HEED_OK; i++)
		for (struct heed__host *h = c->hosts[i]; h; h = h->next) {
			if (!h->leased || h->lease_busy)
				continue;
			if (!h->lease_lost && h->lease_work && !surplus)
				continue;
			if (!committed) {
				heed__crawl_commit(c);
				committed = true;
				/* The batch was lost (heed__crawl_commit
				 * redoes it): its answers are not in the
				 * store, and a host handed back now would be
				 * fetched again by its next holder. Hosts
				 * change hands only once the batch with
				 * their answers has committed. */
				if (c->rewinding || c->failed != HEED_OK)
					return;
			}
			/* A lost lease is handed back too: refused if another
			 * worker has it, else it frees the host at once, as
			 * having work (what this worker knew of its queue may
			 * be gone with a batch it could not commit). */
			release(c, &rs, h, h->lease_work || h->lease_lost);
			if (!h->lease_lost && h->lease_work)
				surplus--;
			h->leased = h->lease_lost = false;
			h->last_start = 0;
			/* Its next holder may store a back-off (a
			 * Retry-After): read again at its next grant here. */
			h->restored = false;
			c->w.held--;
			gone = true;
		}
	release_all(c, &rs);
	if (!gone)
		return;
	for (size_t i = 0; i < c->site_buckets; i++)
		for (struct heed__site *s = c->sites[i]; s; s = s->next) {
			if (s->host->leased)
				continue;
			if (s->state != SITE_NEW || s->lane.head) {
				heed__life_abandon(c, s);
				heed__queue_forget(c, s);
			}
			/* Its next holder, here or elsewhere, may write any
			 * of its rows. */
			heed__read_known_forget(s);
		}
	heed__addrq_wake_room(c);
}

/* ---- renewals and the heartbeat ---- */

static void log_holding(const heed_crawl *c)
{
	struct census n;

	if (!c->log.fn || c->log.level < HEED_LOG_DEBUG)
		return; /* the census walks every site: only when it is read */
	take_census(c, &n);
	heed_log(&c->log, HEED_LOG_DEBUG, "crawl",
	         "worker %s: holds %zu hosts (share %lld, the rate's %lld: "
	         "%.1f requests/s); their sites: %zu in flight, %zu parked "
	         "at an address, %zu waiting on their delay, %zu idle",
	         c->opt->worker.holder, c->w.held, (long long)c->w.share,
	         (long long)c->w.sized, c->w.rate, n.in_flight, n.parked,
	         n.waiting, n.idle);
}

/* The beat renews every lease in one row, the worker's heartbeat: a
 * host granted under the heartbeat's epoch holds until its end; one of an
 * older epoch was lost (the heartbeat had ended, so another worker may
 * have it). Then the share, from the live workers and the kept count of
 * hosts with work. */
static void beat(heed_crawl *c)
{
	const struct heed_crawl_worker *w = &c->opt->worker;
	struct heed_lease_beat b;

	heed__crawl_commit(c);
	if (c->failed != HEED_OK)
		return;
	if (heed_store_lease_worker_beat(c->store, w->holder, c->now.unix_ms,
	                                 w->lease_ms, &b) != HEED_OK) {
		heed__crawl_store_failed(c, "renewing the leases");
		return;
	}
	for (size_t i = 0; i < c->host_buckets; i++)
		for (struct heed__host *h = c->hosts[i]; h; h = h->next) {
			if (!h->leased)
				continue;
			if (h->lease_epoch == b.epoch &&
			    b.alive_until > c->now.unix_ms) {
				/* Still ours, for a whole lease again. */
				h->lease_until = b.alive_until;
				h->lease_lost = false;
			} else
				heed__lease_lose(c, h, "not renewed in time");
		}
	c->w.live = b.live < 1 ? 1 : b.live;
	c->w.share = (b.active + c->w.live - 1) / c->w.live;
	if (c->w.share < 1)
		c->w.share = 1;
	if (c->w.share > (int64_t)w->max_sites)
		c->w.share = w->max_sites;
	c->w.store_idle = b.active == 0;
	log_holding(c);
	heed_polite_share_addresses(c->polite, (unsigned)c->w.live);
	heed__addrq_wake_room(c);
}

/* ---- claims ---- */

/* The grants of one claim, copied: the store's answer is read through
 * before the hosts' queues are. */
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
	x->holder = NULL;
	x->site = heed__strndup(g->c->alloc, l->site, strlen(l->site));
	x->taken_from = l->taken_from
	                        ? heed__strndup(g->c->alloc, l->taken_from,
	                                        strlen(l->taken_from))
	                        : NULL;
	if (!x->site || (l->taken_from && !x->taken_from)) {
		heed__free(g->c->alloc, (char *)x->site);
		heed__free(g->c->alloc, (char *)x->taken_from);
		return 1;
	}
	g->count++;
	return 0;
}

/* A grant lists its hosts' sites, redo() (ctl.c) the idle sites it
 * forgot; already listed, s stays where it is (start_part). */
void heed__worker_start_later(heed_crawl *c, struct heed__site *s)
{
	struct heed__worker *w = &c->w;

	if (s->to_start)
		return;
	s->to_start = true;
	s->start_next = NULL;
	if (w->start_tail)
		w->start_tail->start_next = s;
	else
		w->start_head = s;
	w->start_tail = s;
}

static int note_origin(void *ud, const char *host, const char *origin)
{
	heed_crawl *c = ud;
	struct heed__site *s = heed__site_of_url(c, origin, true);

	if (!s) {
		heed_log(
		        &c->log, HEED_LOG_WARN, "crawl",
		        "worker: '%s' (of %s) is not a site; its URLs are left",
		        origin, host);
		return 0;
	}
	/* A granted host's sites are the crawl's: their links are followed,
	 * their sitemaps read. Said here, not at the part, which also starts
	 * the sites a redo forgot: those keep what they were. */
	s->in_scope = true;
	heed__worker_start_later(c, s);
	return 0;
}

/* Starts the next WORKER_START_PART sites waiting, together once the
 * store has said in one question which rows it holds of them
 * (heed__queue_restart): the URLs a dead holder had in flight go back in
 * their queues, and their lifecycles start from the stored robots.txt
 * while that is fresh. A site a redo forgot (SITE_NEW again) starts the
 * same way, its URLs in flight when the batch was lost queued again. A
 * site still busy here from an earlier grant goes on as it is; one whose
 * host was lost while it waited is left to the host's next holder. */
static void start_part(heed_crawl *c)
{
	struct heed__worker *w = &c->w;
	struct heed__site *part[WORKER_START_PART];
	size_t n = 0, fresh = 0;

	/* A claim whose first commit lost the batch: a part now would write
	 * nothing of what it queues. Its sites wait for the turns after the
	 * redo. */
	if (c->rewinding)
		return;
	while (n < WORKER_START_PART && w->start_head) {
		struct heed__site *s = w->start_head;
		w->start_head = s->start_next;
		if (!w->start_head)
			w->start_tail = NULL;
		s->start_next = NULL;
		s->to_start = false;
		if (s->host->leased && !s->host->lease_lost)
			part[n++] = s;
	}
	heed__read_known(c, part, n);
	for (size_t i = 0; i < n; i++) {
		struct heed__site *s = part[i];
		if (s->state == SITE_NEW && !s->lane.current)
			part[fresh++] = s;
	}
	if (c->failed == HEED_OK)
		heed__queue_restart(c, part, fresh);
	heed__crawl_commit(c);
	/* The part's statements ride in the batch open at the time. Lost
	 * there (the rows in flight queued again, the windows, the commit),
	 * it leaves these sites new, off the list, their lanes empty or
	 * holding rows the store no longer has; redo() starts again only
	 * sites that had started, so nothing would start these, and their
	 * hosts would be handed back as done. Back on the list, forgotten,
	 * they start at a part after the redo, from the store. */
	if (c->rewinding)
		for (size_t i = 0; i < fresh; i++) {
			heed__queue_forget(c, part[i]);
			heed__worker_start_later(c, part[i]);
		}
}

static void take(heed_crawl *c, const struct heed_site_lease *l)
{
	struct heed__host *h = heed__host_get(c, l->site);
	int64_t contacted;

	if (!h) {
		heed__crawl_oom(c);
		return;
	}
	c->p.sites_claimed++;
	if (l->taken_from) {
		c->p.taken_over++;
		heed_log(&c->log, HEED_LOG_INFO, "crawl",
		         "%s: taken over from %s, whose lease expired", h->name,
		         l->taken_from);
	}
	if (!h->leased && ++c->w.held > c->w.held_most)
		c->w.held_most = c->w.held;
	h->leased = true;
	h->lease_lost = false;
	h->lease_token = l->token;
	h->lease_epoch = l->epoch;
	h->lease_until = l->lease_until;
	/* A host handed back carries its holder's last start, written with
	 * the release, so the delay counts from there. A takeover follows an
	 * expired lease whose holder may have started a request after its
	 * last recorded one, though never after the grant: count from the
	 * grant. A host never held has no start to wait for. */
	contacted = l->last_request_start;
	if (l->taken_from && contacted < c->now.unix_ms)
		contacted = c->now.unix_ms;
	if (contacted > 0 &&
	    heed_polite_set_last_start(
	            c->polite, h->name,
	            c->now.mono_ms - (c->now.unix_ms - contacted)) != HEED_OK)
		heed__crawl_oom(c);
}

static void claim(heed_crawl *c)
{
	const struct heed_crawl_worker *w = &c->opt->worker;
	int want = (int)(hold(c) - (int64_t)c->w.held);
	struct heed_site_lease items[WORKER_CLAIM_MAX];
	const char *hosts[WORKER_CLAIM_MAX];
	struct grants g = {c, items, 0};

	if (want > WORKER_CLAIM_MAX)
		want = WORKER_CLAIM_MAX;
	heed__crawl_commit(c);
	if (c->failed != HEED_OK)
		return;
	if (heed_store_lease_claim(c->store, w->holder, c->now.unix_ms,
	                           w->lease_ms, want, grant_one, &g) != HEED_OK)
		heed__crawl_store_failed(c, "claiming hosts");
	if (g.count)
		c->p.claims++;
	c->w.growing = g.count > 0;
	for (size_t i = 0; i < g.count; i++) {
		if (c->failed == HEED_OK)
			take(c, &items[i]);
		hosts[i] = items[i].site;
	}
	if (c->failed == HEED_OK &&
	    heed_store_lease_origins(c->store, hosts, g.count, note_origin,
	                             c) != HEED_OK)
		heed__crawl_store_failed(c, "reading the granted hosts' sites");
	for (size_t i = 0; i < g.count; i++) {
		heed__free(c->alloc, (char *)items[i].site);
		heed__free(c->alloc, (char *)items[i].taken_from);
	}
	/* The first part now, the rest at the turns that follow. */
	if (c->failed == HEED_OK)
		start_part(c);
	else
		heed__crawl_commit(c);
	/* A full answer: more may be claimable at once. */
	c->w.next_claim =
	        c->now.mono_ms + ((int)g.count == want ? 0 : WORKER_POLL_MS);
}

/* Would this worker claim hosts now? Not while sites of its last
 * grants wait to start: those come first, a part a turn. */
static bool claim_due(const heed_crawl *c)
{
	return !c->w.start_head && (int64_t)c->w.held < hold(c) &&
	       c->now.mono_ms >= c->w.next_claim;
}

void heed__worker_tick(heed_crawl *c)
{
	if (!heed__worker_on(c) || c->failed != HEED_OK)
		return;
	/* A claim goes by a fresh share: a worker growing its holding while
	 * others join would otherwise claim by the count of its last beat,
	 * up to a third of a lease old, and hand the surplus back with its
	 * pages half fetched. Only while claims grant: one that finds
	 * nothing to claim (the run's end) is asked again every
	 * WORKER_POLL_MS, and a beat each time would cost the store a
	 * statement a second per worker. */
	if (c->now.mono_ms >= c->w.next_beat ||
	    (claim_due(c) && c->w.growing &&
	     c->now.mono_ms - c->w.beat_at >= WORKER_SHARE_FRESH_MS)) {
		beat(c);
		c->w.beat_at = c->now.mono_ms;
		/* With no site, only to learn whether the run is over. */
		c->w.next_beat = c->now.mono_ms +
		                 (c->w.held ? c->opt->worker.lease_ms / 3
		                            : WORKER_POLL_MS);
	}
	/* A lost batch is being redone: leases are kept, nothing else. */
	if (c->rewinding)
		return;
	if (c->now.mono_ms >= c->w.next_poll) {
		size_holding(c);
		sweep(c);
		c->w.next_poll = c->now.mono_ms + WORKER_SWEEP_MS;
		/* The last host handed back: the next beat comes as one of a
		 * worker holding nothing, to learn soon whether the run is
		 * over, not a third of a lease after the last. */
		if (!c->w.held &&
		    c->w.next_beat > c->now.mono_ms + WORKER_POLL_MS)
			c->w.next_beat = c->now.mono_ms + WORKER_POLL_MS;
	}
	if (c->w.start_head && c->failed == HEED_OK)
		start_part(c);
	else if (claim_due(c) && c->failed == HEED_OK)
		claim(c);
}

bool heed__worker_may_start(heed_crawl *c, struct heed__site *s)
{
	struct heed__host *h = s->host;

	if (!heed__worker_on(c))
		return true;
	/* The request leaves within its connect timeout of being sent, and
	 * is sent within HEED_CRAWL_STALE_MS of this clock. */
	if (h->leased && !h->lease_lost &&
	    heed_lease_may_fetch(h->lease_until, c->now.unix_ms,
	                         heed__crawl_leave_ms(c->opt) +
	                                 HEED_CRAWL_STALE_MS))
		return true;
	if (h->leased)
		heed__lease_lose(
		        c, h,
		        "it ends before a request starting now surely left");
	/* Forgotten at a sweep, once nothing of it is in flight. */
	if (heed__sched_defer(&c->sched, &s->lane,
	                      c->now.mono_ms + WORKER_SWEEP_MS) != HEED_OK)
		heed__crawl_oom(c);
	return false;
}

void heed__worker_started(heed_crawl *c, struct heed__site *s)
{
	if (heed__worker_on(c))
		s->host->last_start = c->now.unix_ms;
}

int64_t heed__worker_send_by(const heed_crawl *c, const struct heed__site *s)
{
	if (!heed__worker_on(c))
		return 0;
	/* Sent after the lease ended, a request could meet the next
	 * holder's: the transfer is ended unsent instead (heed/net.h). */
	return c->now.mono_ms + (s->host->lease_until - c->now.unix_ms);
}

int64_t heed__worker_wait(const heed_crawl *c)
{
	int64_t next = c->w.next_beat < c->w.next_poll ? c->w.next_beat
	                                               : c->w.next_poll;

	/* While a lost batch waits for its requests to end, the beat is all
	 * a turn runs (heed__worker_tick): a sweep or a claim gone due
	 * meanwhile would ask for the next turn at once, turn after turn,
	 * until the last answer. */
	if (c->rewinding)
		next = c->w.next_beat;
	else if (c->w.start_head)
		return 0; /* the next part starts at the next turn */
	else if ((int64_t)c->w.held < hold(c) && c->w.next_claim < next)
		next = c->w.next_claim;
	return next > c->now.mono_ms ? next - c->now.mono_ms : 0;
}

bool heed__worker_run_goes_on(const heed_crawl *c)
{
	return heed__worker_on(c) && (c->w.held > 0 || !c->w.store_idle);
}

void heed__worker_finish(heed_crawl *c)
{
	struct releases rs = {NULL, 0, 0};

	if (!heed__worker_on(c))
		return;
	heed__crawl_commit(c);
	mark_hosts(c);
	for (size_t i = 0; i < c->host_buckets && c->failed == HEED_OK; i++)
		for (struct heed__host *h = c->hosts[i]; h; h = h->next)
			if (h->leased)
				release(c, &rs, h, h->lease_work);
	release_all(c, &rs);
	if (c->failed == HEED_OK &&
	    heed_store_lease_worker_leave(c->store, c->opt->worker.holder) !=
	            HEED_OK)
		heed__crawl_store_failed(c, "leaving the workers");
	/* A lone crawl may take the store once the last worker left: it
	 * counts every host as contacted now (heed/store_frontier.h). */
	if (c->failed == HEED_OK &&
	    heed_store_crawl_lease_set(c->store, c->now.unix_ms) != HEED_OK)
		heed__crawl_store_failed(c, "ending the crawl lease");
	heed_log(&c->log, HEED_LOG_INFO, "crawl",
	         "worker %s: %lld claims, %lld hosts claimed (%lld taken "
	         "over), %lld handed back, %lld leases lost; at most %zu "
	         "hosts held at once",
	         c->opt->worker.holder, (long long)c->p.claims,
	         (long long)c->p.sites_claimed, (long long)c->p.taken_over,
	         (long long)c->p.released, (long long)c->p.leases_lost,
	         c->w.held_most);
}
