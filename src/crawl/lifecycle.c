/*
 * The robots.txt lifecycle of each site (seed robots-txt-download-
 * lifecycle.txt; docs/robots-lifecycle.md), driven inside the controller,
 * and the look-ups every site and host needs ("DNS that cannot
 * disqualify a site by itself").
 *
 * A site's pages wait (its lane is held) while the pure machine of
 * heed/sitepolicy.h runs: its RESOLVE becomes a look-up of the robots.txt
 * URL's host, its FETCH a robots.txt job at the front of the site's lane
 * (so the request starts only when politeness allows it, like any other),
 * its WAIT a timer. When it is done the outcome is stored; a qualified
 * site's rules are loaded, its Crawl-delay set, its ACAP action requests
 * acted on, its sitemaps queued, and its lane released once its host's
 * addresses are known. A site that is not qualified is dropped with its
 * queue and reported.
 *
 * Look-ups: at most limits.dns_concurrency at once, in the order asked (a
 * 10,000-site start sent every query at once, and a local dnsmasq dropped
 * enough of them that 157 sites were disqualified for a DNS timeout heed
 * caused itself). A timeout or a server failure is tried again after 1 s,
 * 2 s, 4 s... up to limits.dns_retries times before it counts; NXDOMAIN
 * and "no such record" are definitive at once. One look-up per host name
 * per run serves every site of the host and every request to it.
 */
#include <stdio.h>
#include <string.h>

#include "crawl/crawl-int.h"
#include "heed/url.h"

static bool step(heed_crawl *c, struct heed__site *s,
                 const struct heed_site_event *ev);

static struct heed_site_clock site_clock(const heed_crawl *c)
{
	struct heed_site_clock t = {heed__crawl_unix_s(c), c->now.mono_ms};

	return t;
}

static bool set_str(heed_crawl *c, char **slot, const char *s, size_t len)
{
	char *copy = s ? heed__strndup(c->alloc, s, len) : NULL;

	if (s && !copy)
		return false;
	heed__free(c->alloc, *slot);
	*slot = copy;
	return true;
}

/* ---- hosts: restored, saved, resolved ---- */

/* "the back-off state survives restarts", and so does the time
 * of the host's last request, moved onto this run's monotonic clock. And
 * every host counts as contacted at the end of the last crawl's lease:
 * that crawl may have sent a request after its last commit, but none
 * after its lease (ctl.c). */
static void restore_host(heed_crawl *c, struct heed__host *h)
{
	struct heed_store_host hs;
	int64_t last = c->prev_lease_ms;

	if (h->restored)
		return;
	h->restored = true;
	if (heed__read_host(c, h->name, &hs) == HEED_OK) {
		if (heed_polite_set_backoff(c->polite, h->name, &hs.backoff) !=
		    HEED_OK)
			heed__crawl_oom(c);
		h->stored_backoff = hs.backoff.level || hs.backoff.until_s;
		if (hs.last_request_ms > last)
			last = hs.last_request_ms;
	}
	if (last &&
	    heed_polite_set_last_start(
	            c->polite, h->name,
	            c->now.mono_ms - (c->now.unix_ms - last)) != HEED_OK)
		heed__crawl_oom(c);
}

void heed__life_save_host(heed_crawl *c, struct heed__host *h)
{
	struct heed_store_host hs = {{0}, 0};
	int64_t mono;

	heed_polite_get_backoff(c->polite, h->name, &hs.backoff);
	if (heed_polite_get_last_start(c->polite, h->name, &mono))
		hs.last_request_ms = c->now.unix_ms - (c->now.mono_ms - mono);
	h->stored_backoff = hs.backoff.level || hs.backoff.until_s;
	heed__batch_host_put(c, h->name, &hs);
}

/* A host's back-off is kept in the store while it lasts, and cleared
 * once good answers brought it down, so that it survives a restart. */
void heed__life_keep_backoff(heed_crawl *c, struct heed__host *h)
{
	struct heed_polite_backoff b;

	heed_polite_get_backoff(c->polite, h->name, &b);
	if (b.level || b.until_s || h->stored_backoff)
		heed__life_save_host(c, h);
}

/* Asks for h's addresses unless known or asked. */
static void want_addresses(heed_crawl *c, struct heed__host *h)
{
	if (h->dns != DNS_NONE)
		return;
	h->dns = DNS_QUEUED;
	h->dns_next = NULL;
	if (c->dns_tail)
		c->dns_tail->dns_next = h;
	else
		c->dns_head = h;
	c->dns_tail = h;
}

bool heed__life_next_lookup(heed_crawl *c, struct heed_crawl_action *a)
{
	struct heed_crawl_req *req;
	struct heed__host *h = c->dns_head;

	if (!h || c->dns_running >= c->opt->limits.dns_concurrency)
		return false;
	req = heed__req_new(c);
	if (!req) {
		heed__crawl_oom(c);
		return false;
	}
	c->dns_head = h->dns_next;
	if (!c->dns_head)
		c->dns_tail = NULL;
	h->dns_next = NULL;
	h->dns = DNS_RUNNING;
	c->dns_running++;
	req->is_dns = true;
	req->host = h;
	memset(a, 0, sizeof(*a));
	a->kind = HEED_CRAWL_RESOLVE;
	a->req = req;
	a->name = h->name;
	return true;
}

/* A site waiting for h's addresses after its qualification. */
static void site_addresses_known(heed_crawl *c, struct heed__site *s)
{
	c->resolving--;
	if (s->host->dns == DNS_FAILED) {
		heed__site_set_state(c, s, SITE_OUT);
		c->p.sites_disqualified++;
		heed__queue_drop(c, s, s->host->dns_error);
		return;
	}
	heed__site_set_state(c, s, SITE_READY);
	heed__acapref_release(c, s);
}

/* A qualifying site whose robots.txt host's look-up ended. */
static void refused_by_policy(heed_crawl *c, struct heed__site *s,
                              const char *why);

static void target_addresses_known(heed_crawl *c, struct heed__site *s)
{
	struct heed__host *h = s->life->target;
	struct heed_site_event ev = {.kind = HEED_SITE_EV_RESOLVED};

	if (h->dns == DNS_FAILED && h->refused) {
		refused_by_policy(c, s, h->dns_error);
		return;
	}
	if (h->dns == DNS_FAILED) {
		ev.kind = HEED_SITE_EV_RESOLVE_FAILED;
		ev.detail = h->dns_error;
	} else {
		ev.address_count = h->addr_count;
	}
	step(c, s, &ev);
}

static void notify_waiting(heed_crawl *c, struct heed__host *h)
{
	struct heed__site *s = h->waiting;

	h->waiting = NULL;
	while (s) {
		struct heed__site *next = s->wait_next;
		s->wait_next = NULL;
		if (s->state == SITE_QUALIFYING && s->life &&
		    s->life->target == h)
			target_addresses_known(c, s);
		else if (s->state == SITE_RESOLVING && s->host == h)
			site_addresses_known(c, s);
		s = next;
	}
}

/* Waits (on h's list) for its addresses, or goes on at once when known
 * (the site's lifecycle may then end before this returns). */
static void await_addresses(heed_crawl *c, struct heed__site *s,
                            struct heed__host *h)
{
	restore_host(c, h);
	if (h->dns == DNS_DONE || h->dns == DNS_FAILED) {
		if (s->state == SITE_QUALIFYING)
			target_addresses_known(c, s);
		else
			site_addresses_known(c, s);
		return;
	}
	s->wait_next = h->waiting;
	h->waiting = s;
	want_addresses(c, h);
}

static bool transient(heed_dns_outcome o)
{
	return o == HEED_DNS_TIMEOUT || o == HEED_DNS_SERVFAIL ||
	       o == HEED_DNS_REFUSED || o == HEED_DNS_ERROR;
}

/* Keeps the addresses heed may connect to; false when there are none. */
static bool keep_addresses(heed_crawl *c, struct heed__host *h,
                           const struct heed_dns_result *r)
{
	size_t n = 0;

	heed__free(c->alloc, h->addrs);
	h->addrs =
	        heed__calloc(c->alloc,
	                     r->addr_count < CRAWL_MAX_ADDRS ? r->addr_count
	                                                     : CRAWL_MAX_ADDRS,
	                     sizeof(*h->addrs));
	h->addr_count = h->addr_next = 0;
	if (!h->addrs) {
		heed__crawl_oom(c);
		return false;
	}
	for (size_t i = 0; i < r->addr_count && n < CRAWL_MAX_ADDRS; i++)
		if (heed_net_addr_allowed(&r->addrs[i],
		                          c->opt->net.allow_private))
			h->addrs[n++] = r->addrs[i];
	h->addr_count = n;
	if (n)
		return true;
	h->refused = true;
	heed_net_refusal(r, h->name, c->opt->net.allow_private, h->dns_error,
	                 sizeof(h->dns_error));
	return false;
}

void heed__life_resolved(heed_crawl *c, struct heed__host *h,
                         const struct heed_dns_result *r)
{
	c->dns_running--;
	if (r->outcome == HEED_DNS_CANCELLED) {
		h->dns = DNS_NONE;
		return;
	}
	if (transient(r->outcome) &&
	    h->dns_tries < c->opt->limits.dns_retries && !c->stopped) {
		/* "timeouts retried within the run before they count as a
		 * failure". */
		int64_t pause = (int64_t)CRAWL_DNS_RETRY_MS << h->dns_tries;
		h->dns_tries++;
		h->dns = DNS_QUEUED;
		heed_log(&c->log, HEED_LOG_INFO, "crawl",
		         "%s: DNS %s, trying again in %lld ms", h->name,
		         heed_dns_outcome_name(r->outcome), (long long)pause);
		if (heed__timer_add(c, c->now.mono_ms + pause, NULL, h) !=
		    HEED_OK)
			heed__crawl_oom(c);
		return;
	}
	if (r->outcome == HEED_DNS_FOUND && keep_addresses(c, h, r)) {
		h->dns = DNS_DONE;
	} else {
		if (r->outcome != HEED_DNS_FOUND)
			snprintf(h->dns_error, sizeof(h->dns_error),
			         "%s: %s (%s)", r->query,
			         heed_dns_outcome_name(r->outcome), r->detail);
		h->dns = DNS_FAILED;
	}
	notify_waiting(c, h);
}

/* ---- the machine's actions ---- */

/* Looks up the host of the robots.txt URL asked now (the site's, or a
 * redirect's). */
static bool resolve_target(heed_crawl *c, struct heed__site *s)
{
	struct heed_site_event ev = {.kind = HEED_SITE_EV_RESOLVE_FAILED};
	heed_url *u = NULL;
	struct heed__host *h = NULL;

	if (heed_url_parse(&u, s->life->url, strlen(s->life->url), c->alloc) ==
	    HEED_OK)
		h = heed__host_get(c, heed_url_hostname(u));
	heed_url_free(u);
	if (!h) {
		ev.detail = "redirect to a URL that is not http(s)";
		return step(c, s, &ev);
	}
	s->life->target = h;
	await_addresses(c, s, h);
	return s->state == SITE_QUALIFYING;
}

static bool fetch_robots(heed_crawl *c, struct heed__site *s, size_t address)
{
	struct heed__job job = {
	        0, s->life->url, 0, JOB_ROBOTS, HEED_STORE_NO_DATE, 0, address};

	s->life->fetching = true;
	if (heed__sched_push(&c->sched, &s->lane, &job, true, c->now.mono_ms) !=
	    HEED_OK)
		heed__crawl_oom(c);
	return true;
}

static void done(heed_crawl *c, struct heed__site *s, bool fetched);

static bool apply(heed_crawl *c, struct heed__site *s,
                  const struct heed_site_action *a)
{
	switch (a->kind) {
	case HEED_SITE_DO_NOTHING:
		return true;
	case HEED_SITE_DO_RESOLVE:
		return resolve_target(c, s);
	case HEED_SITE_DO_FETCH:
		return fetch_robots(c, s, a->address);
	case HEED_SITE_DO_WAIT:
		if (heed__timer_add(c, a->until_ms, s, NULL) != HEED_OK)
			heed__crawl_oom(c);
		return true;
	case HEED_SITE_DO_DONE:
		done(c, s, a->fetched);
		return false;
	}
	return true;
}

/* Feeds one event; false when the lifecycle ended (s->life is gone). */
static bool step(heed_crawl *c, struct heed__site *s,
                 const struct heed_site_event *ev)
{
	struct heed_site_clock now = site_clock(c);
	struct heed_site_action a;

	if (heed_site_step(s->life->machine, ev, &now, &a) != HEED_OK) {
		/* A controller bug: end the lifecycle rather than hang it. */
		heed_log(&c->log, HEED_LOG_ERROR, "crawl",
		         "%s: the lifecycle refused event %s", s->origin,
		         heed_site_event_name(ev->kind));
		done(c, s, s->life->attempts > 0);
		return false;
	}
	return apply(c, s, &a);
}

/* ---- starting ---- */

static bool life_new(heed_crawl *c, struct heed__site *s,
                     const struct heed_site_record *record)
{
	struct heed__life *l = heed__calloc(c->alloc, 1, sizeof(*l));
	struct heed_buf url;

	if (!l)
		return false;
	s->life = l;
	l->stored = *record;
	heed__buf_init(&url, c->alloc, HEED_URL_MAX_BYTES);
	if (heed__buf_addf(&url, "%s/robots.txt", s->origin) == HEED_OK)
		l->url = heed__buf_take(&url);
	heed__buf_free(&url);
	return l->url &&
	       heed_site_new(&l->machine, s->origin, record, &c->opt->site,
	                     &c->log, c->alloc) == HEED_OK;
}

/* A stored body a 304 may confirm: one read whole and judged (its
 * reason says so; a truncated one is never kept with validators), with a
 * validator to send. A reset site starts afresh. */
static bool body_judged(heed_site_reason why)
{
	return why == HEED_SITE_R_PARSED || why == HEED_SITE_R_NOT_ROBOTS ||
	       why == HEED_SITE_R_CRAWL_DELAY;
}

static bool confirmable(const struct heed_store_site *row)
{
	return row->robots_body && row->robots_url &&
	       (row->robots_etag || row->robots_last_modified) &&
	       body_judged(row->record.reason);
}

/* Not contacted in this run, by the owner's arrangement: not even
 * robots.txt, and nothing about the site is stored. Its queue is dropped
 * (a later process of the run gets it back if the site may start). */
static void withheld(heed_crawl *c, struct heed__site *s, const char *why)
{
	struct heed_crawl_site_result r = {s->origin, {0}, false, 0};

	/* `heed site qualify` says why the site was not asked. */
	snprintf(r.record.detail, sizeof(r.record.detail),
	         "not contacted: %.*s", (int)(sizeof(r.record.detail) - 16),
	         why);
	if (c->opt->on_site)
		c->opt->on_site(c->opt->site_ud, &r);
	heed__site_set_state(c, s, SITE_OUT);
	c->p.sites_withheld++;
	heed_log(&c->log, HEED_LOG_INFO, "crawl", "%s: not contacted: %s",
	         s->origin, why);
	heed__queue_drop(c, s, why);
}

/* The owner's arrangement before anything is sent: paused or outside its
 * windows, the site waits; else its delay holds from the first request
 * (robots.txt included) and its page limit from the first page. */
static bool arranged(heed_crawl *c, struct heed__site *s)
{
	struct heed__host *h = s->host;
	char why[160];

	if (!heed__arranged_load(c, h))
		return false;
	if (heed__arranged_withhold(c, s, why, sizeof(why))) {
		withheld(c, s, why);
		return false;
	}
	if (!h->arr)
		return true;
	s->lane.max_pages = h->arr->max_pages;
	if (h->arr->delay_ms > h->crawl_delay_ms) {
		h->crawl_delay_ms = h->arr->delay_ms;
		if (heed_polite_set_crawl_delay(c->polite, h->name,
		                                h->crawl_delay_ms) != HEED_OK) {
			heed__crawl_oom(c);
			return false;
		}
	}
	return true;
}

/* Takes s off h's list of sites waiting for its addresses. */
static void unwait(struct heed__host *h, struct heed__site *s)
{
	for (struct heed__site **p = &h->waiting; *p; p = &(*p)->wait_next)
		if (*p == s) {
			*p = s->wait_next;
			s->wait_next = NULL;
			return;
		}
}

void heed__life_abandon(heed_crawl *c, struct heed__site *s)
{
	if (s->state == SITE_QUALIFYING) {
		if (s->life && s->life->target)
			unwait(s->life->target, s);
		heed__life_free(c, s->life);
		s->life = NULL;
		c->qualifying--;
	} else if (s->state == SITE_RESOLVING) {
		unwait(s->host, s);
		c->resolving--;
	}
	heed__site_set_state(c, s, SITE_NEW);
}

bool heed__life_withheld_now(heed_crawl *c, struct heed__site *s)
{
	char why[160];

	if (!heed__arranged_withhold(c, s, why, sizeof(why)))
		return false;
	heed__free(c->alloc,
	           heed__sched_take(&c->sched, &s->lane, c->now.mono_ms));
	c->qualifying--;
	heed__life_free(c, s->life);
	s->life = NULL;
	withheld(c, s, why);
	return true;
}

static void start_one(heed_crawl *c, struct heed__site *s)
{
	struct heed_store_site row = {0};
	struct heed_site_record record = {0};
	struct heed_site_event start = {.kind = HEED_SITE_EV_START};
	heed_status rc;

	if (!arranged(c, s))
		return;
	restore_host(c, s->host);
	rc = heed__read_site(c, s->origin, &row);
	if (rc == HEED_OK)
		record = row.record;
	if (heed__sched_hold(&c->sched, &s->lane, true, c->now.mono_ms) !=
	            HEED_OK ||
	    !life_new(c, s, &record)) {
		heed_store_site_clear(c->store, &row);
		heed__crawl_oom(c);
		return;
	}
	if (confirmable(&row) && !c->opt->refresh_all)
		s->life->kept = row; /* the lifecycle's now */
	else
		heed_store_site_clear(c->store, &row);
	heed__site_set_state(c, s, SITE_QUALIFYING);
	c->qualifying++;
	step(c, s, &start);
}

/* The sites start_new is about to start, asked about together. */
static void ask_known(heed_crawl *c)
{
	struct heed__site **sites;
	size_t n = 0;

	for (struct heed__site *s = c->new_head; s; s = s->new_next)
		n++;
	if (!n)
		return;
	sites = heed__calloc(c->alloc, n, sizeof(*sites));
	if (!sites) {
		heed__crawl_oom(c);
		return;
	}
	n = 0;
	for (struct heed__site *s = c->new_head; s; s = s->new_next)
		if (s->state == SITE_NEW && !s->asked)
			sites[n++] = s;
	heed__read_known(c, sites, n);
	heed__free(c->alloc, sites);
}

void heed__life_start_new(heed_crawl *c)
{
	ask_known(c);
	while (c->new_head && c->failed == HEED_OK) {
		struct heed__site *s = c->new_head;
		c->new_head = s->new_next;
		if (!c->new_head)
			c->new_tail = NULL;
		s->new_next = NULL;
		s->listed = false;
		/* A site of a resumed run with nothing queued is in scope for
		 * its links, but waits for work before its robots.txt and
		 * DNS cost anything (queue.c lists it again then). An ACAP
		 * file another site asks here is work (acapref.c). A site on
		 * a worker's start list waits for its part (worker.c), which
		 * first puts back in its queue the rows its last holder had
		 * in flight: started here, it would leave them in flight. */
		if (s->state == SITE_NEW && !s->to_start &&
		    (c->mode == HEED_CRAWL_QUALIFY ||
		     heed__lane_has_work(&s->lane) || s->ref_count))
			start_one(c, s);
	}
}

void heed__life_timer(heed_crawl *c, const struct heed__timer *t)
{
	struct heed_site_event timer = {.kind = HEED_SITE_EV_TIMER};

	if (t->host) {
		if (t->host->dns == DNS_QUEUED) {
			t->host->dns = DNS_NONE;
			want_addresses(c, t->host);
		}
		return;
	}
	if (t->site && t->site->state == SITE_QUALIFYING && t->site->life &&
	    !t->site->life->fetching)
		step(c, t->site, &timer);
}

/* ---- a robots.txt answer ---- */

static bool set_validators(heed_crawl *c, struct heed__life *l,
                           const char *etag, const char *last_modified)
{
	return set_str(c, &l->etag, etag, etag ? strlen(etag) : 0) &&
	       set_str(c, &l->last_modified, last_modified,
	               last_modified ? strlen(last_modified) : 0);
}

/* ---- conditional re-checks ---- */

void heed__life_robots_headers(heed_crawl *c, struct heed__site *s,
                               struct heed_crawl_req *req)
{
	const struct heed_store_site *k = &s->life->kept;

	/* Validators belong to the URL they came with: a redirect to
	 * another robots.txt URL asks for it whole. */
	s->life->conditional = false;
	if (!k->robots_body || strcmp(req->job.url, k->robots_url) != 0)
		return;
	s->life->conditional =
	        heed__req_validators(c, req, k->robots_etag,
	                             k->robots_last_modified) > 0;
}

/* A 304 to a robots.txt request. When heed asked with the validators of
 * the stored body, that body stands: the machine, which knows nothing of
 * 304, sees the 200 it confirms and judges the stored body again (its
 * rules are read again under today's settings). A 304 heed did not ask
 * for has no body to stand for: an unexpected status (the seed: "If any
 * other HTTP status was returned, the site is disqualified for the time
 * being"). Returns the status the machine sees. */
static int not_modified(heed_crawl *c, struct heed__site *s,
                        const struct heed_net_response *r)
{
	struct heed__life *l = s->life;
	const struct heed_store_site *k = &l->kept;
	bool ok;

	if (!l->conditional || !k->robots_body) {
		heed_log(&c->log, HEED_LOG_WARN, "crawl",
		         "%s: 304 Not Modified to a robots.txt request that "
		         "was not conditional: an unexpected status",
		         r->url);
		return r->status;
	}
	/* RFC 9110 15.4.5: a 304 may carry newer validators. */
	ok = set_str(c, &l->body, k->robots_body, k->robots_body_len) &&
	     set_str(c, &l->content_type, k->robots_type,
	             k->robots_type ? strlen(k->robots_type) : 0) &&
	     set_validators(c, l, r->etag ? r->etag : k->robots_etag,
	                    r->last_modified ? r->last_modified
	                                     : k->robots_last_modified);
	if (!ok) {
		heed__crawl_oom(c);
		return r->status;
	}
	l->body_len = k->robots_body_len;
	l->not_modified = true;
	heed_log(&c->log, HEED_LOG_INFO, "crawl",
	         "%s: 304 Not Modified: the stored robots.txt stands", r->url);
	return 200;
}

static void keep_answer(heed_crawl *c, struct heed__life *l,
                        const struct heed_net_response *r)
{
	bool ok = set_str(c, &l->answer_url, r->url, strlen(r->url));

	if (r->status >= 200 && r->status < 300) {
		ok = ok &&
		     set_str(c, &l->body, r->body ? r->body : "", r->body_len);
		l->body_len = l->body ? r->body_len : 0;
		ok = ok &&
		     set_str(c, &l->content_type, r->content_type,
		             r->content_type ? strlen(r->content_type) : 0);
		ok = ok && set_validators(c, l, r->etag, r->last_modified);
	}
	if (r->location)
		ok = ok &&
		     set_str(c, &l->url, r->location, strlen(r->location));
	if (!ok)
		heed__crawl_oom(c);
}

/* 2xx: the body, then its verdict (seed, step 3). */
static void judge_body(heed_crawl *c, struct heed__site *s,
                       const struct heed_net_response *r)
{
	struct heed_site_event ev = {.kind = HEED_SITE_EV_BODY_COMPLETE};
	struct heed_site_robots robots;
	struct heed__life *l = s->life;

	if (r->truncated ||
	    (r->error != HEED_NET_OK && r->error != HEED_NET_TOO_BIG))
		ev.kind = HEED_SITE_EV_BODY_TRUNCATED;
	if (!step(c, s, &ev) ||
	    heed_site_get_state(s->life->machine) != HEED_SITE_PARSING)
		return;
	memset(&ev, 0, sizeof(ev));
	ev.kind = HEED_SITE_EV_PARSED;
	if (heed_site_read_robots(l->body, l->body_len, l->content_type,
	                          c->opt->agent_token, c->alloc,
	                          &robots) != HEED_OK) {
		heed__crawl_oom(c);
		step(c, s, &ev);
		return;
	}
	ev.verdict = robots.verdict;
	ev.crawl_delay_ms = robots.crawl_delay_ms;
	l->crawl_delay_ms = robots.crawl_delay_ms;
	step(c, s, &ev);
}

void heed__life_not_sent(heed_crawl *c, struct heed__site *s,
                         const struct heed__host *h, int64_t wait_ms)
{
	struct heed_site_event ev = {.kind = HEED_SITE_EV_ATTEMPT_FAILED};
	char detail[200];

	if (s->state != SITE_QUALIFYING || !s->life)
		return;
	s->life->fetching = false;
	snprintf(detail, sizeof(detail),
	         "%s: not sent: the server asked for no request in the next "
	         "%lld s (Retry-After)",
	         h->name, (long long)(wait_ms / 1000));
	ev.detail = detail;
	step(c, s, &ev);
}

void heed__life_fetched(heed_crawl *c, struct heed__site *s,
                        const struct heed_net_response *r)
{
	struct heed_site_event ev = {.kind = HEED_SITE_EV_STATUS};
	char detail[200];

	if (s->state != SITE_QUALIFYING || !s->life)
		return;
	s->life->fetching = false;
	if (r->error == HEED_NET_CANCELLED)
		return;
	heed__life_keep_backoff(c, s->life->target);
	if (r->status == 0) {
		snprintf(detail, sizeof(detail), "%s: %s (%s)",
		         r->address ? r->address : "?",
		         heed_net_error_name(r->error),
		         r->error_text ? r->error_text : "");
		ev.kind = HEED_SITE_EV_ATTEMPT_FAILED;
		ev.detail = detail;
		step(c, s, &ev);
		return;
	}
	keep_answer(c, s->life, r);
	ev.status = r->status == 304 ? not_modified(c, s, r) : r->status;
	ev.has_location = r->location != NULL;
	/* RFC 9309 2.4 allows RFC 9111's cache control: a 2xx (or the 304
	 * that stands for one) may ask for an earlier re-check. */
	ev.fresh_s = heed_net_fresh_for(r->cache_control, r->expires, r->date,
	                                heed__crawl_unix_s(c));
	ev.has_fresh = ev.fresh_s >= 0;
	if (!step(c, s, &ev) ||
	    heed_site_get_state(s->life->machine) != HEED_SITE_READING)
		return;
	judge_body(c, s, r);
}

/* ---- done ---- */

/* ACAP action requests addressed to heed (2.3): a take-down deletes the
 * records of the resource (a folder's when the path ends with '/'); a
 * re-crawl queues it again. Acted on once per robots.txt fetch. */
static void act_on_requests(heed_crawl *c, struct heed__site *s)
{
	struct heed_acap_request req[64];
	size_t n = heed_acap_requests(s->rules.acap, c->opt->agent_token, req,
	                              HEED_ARRAY_SIZE(req));
	struct heed_buf url;

	heed__buf_init(&url, c->alloc, HEED_URL_MAX_BYTES);
	for (size_t i = 0; i < n && i < HEED_ARRAY_SIZE(req); i++) {
		int64_t deleted = 0;
		size_t len = strlen(req[i].path);
		heed__buf_reset(&url);
		if (heed__buf_addf(&url, "%s%s", s->origin, req[i].path) !=
		            HEED_OK ||
		    !heed__crawl_tx(c))
			continue;
		if (req[i].action == HEED_ACAP_RE_CRAWL) {
			/* The owner's word that the page changed now: it is
			 * asked whatever its revisit schedule says. */
			if (c->mode != HEED_CRAWL_QUALIFY)
				heed__queue_add(c, heed__buf_str(&url),
				                JOB_PAGE, 0, NULL,
				                heed__crawl_unix_s(c));
			continue;
		}
		heed__batch_page_delete(c, heed__buf_str(&url),
		                        len && req[i].path[len - 1] == '/',
		                        &deleted, "an ACAP take-down");
		c->p.taken_down += deleted;
		heed_log(&c->log, HEED_LOG_INFO, "crawl",
		         "%s: ACAP take-down (robots.txt line %u): %lld "
		         "records deleted",
		         heed__buf_str(&url), req[i].line, (long long)deleted);
	}
	heed__buf_free(&url);
}

/* The sitemaps robots.txt lists, and /sitemap.xml, as incremental sources
 * (and as more public links in the default mode). */
static void queue_sitemaps(heed_crawl *c, struct heed__site *s)
{
	struct heed_buf url;
	size_t n = s->rules.robots ? heed_robots_sitemap_count(s->rules.robots)
	                           : 0;

	heed__buf_init(&url, c->alloc, HEED_URL_MAX_BYTES);
	for (size_t i = 0; i < n; i++) {
		const struct heed_robots_sitemap *sm =
		        heed_robots_sitemap_get(s->rules.robots, i);
		heed__buf_reset(&url);
		if (heed__buf_add(&url, sm->url, sm->url_len) == HEED_OK)
			heed__queue_add(c, heed__buf_str(&url), JOB_SITEMAP, 0,
			                NULL, HEED_STORE_NO_DATE);
	}
	heed__buf_reset(&url);
	if (heed__buf_addf(&url, "%s/sitemap.xml", s->origin) == HEED_OK)
		heed__queue_add(c, heed__buf_str(&url), JOB_SITEMAP, 0, NULL,
		                HEED_STORE_NO_DATE);
	heed__buf_free(&url);
}

/* Stores the outcome, as `heed site report` shows it: the record always;
 * the robots.txt body, rules and Crawl-delay when this run fetched them.
 * *row gets the row as it was stored before (the caller clears it): its
 * rules are in force when this run did not fetch. */
static void save_site(heed_crawl *c, struct heed__site *s,
                      const struct heed_site_record *rec, bool fetched,
                      struct heed_store_site *row)
{
	struct heed_store_site upd;
	struct heed__life *l = s->life;
	bool has_rules = fetched && rec->state == HEED_SITE_QUALIFIED_RULES;
	heed_status rc = heed__read_site(c, s->origin, row);

	if (rc != HEED_OK && rc != HEED_ENOTFOUND)
		return;
	upd = *row;
	upd.site = s->origin;
	upd.host = s->host->name;
	upd.record = *rec;
	if (fetched) {
		bool judged = l->body && body_judged(rec->reason);
		upd.robots_url = l->answer_url;
		upd.robots_body = l->body;
		upd.robots_body_len = l->body_len;
		upd.rules_body = has_rules ? l->body : NULL;
		upd.rules_body_len = has_rules ? l->body_len : 0;
		upd.crawl_delay_ms = has_rules ? l->crawl_delay_ms : 0;
		/* Validators only with a body read whole and judged: a 304
		 * must never confirm a truncated one. */
		upd.robots_etag = judged ? l->etag : NULL;
		upd.robots_last_modified = judged ? l->last_modified : NULL;
		upd.robots_type = judged ? l->content_type : NULL;
	}
	heed__batch_site_put(c, &upd);
}

static void site_out(heed_crawl *c, struct heed__site *s, const char *why)
{
	heed__site_set_state(c, s, SITE_OUT);
	c->p.sites_disqualified++;
	heed_log(&c->log, HEED_LOG_WARN, "crawl", "%s: not crawled: %s",
	         s->origin, why);
	heed__queue_drop(c, s, "not qualified");
}

/* Qualified: the rules in force are the new body, or the stored ones when
 * the site was not due for a new robots.txt fetch. */
static bool take_rules(heed_crawl *c, struct heed__site *s, bool fetched,
                       const struct heed_site_record *rec,
                       const struct heed_store_site *row, int64_t *delay_ms)
{
	struct heed__life *l = s->life;

	if (fetched) {
		bool rules = rec->state == HEED_SITE_QUALIFIED_RULES;
		*delay_ms = rules ? l->crawl_delay_ms : 0;
		return heed__rules_load(&s->rules, rules ? l->body : NULL,
		                        l->body_len, c->opt->agent_token,
		                        c->alloc) == HEED_OK;
	}
	*delay_ms = row->crawl_delay_ms;
	return heed__rules_load(&s->rules, row->rules_body, row->rules_body_len,
	                        c->opt->agent_token, c->alloc) == HEED_OK;
}

static void report(heed_crawl *c, struct heed__site *s,
                   const struct heed_site_record *rec, bool fetched)
{
	struct heed_crawl_site_result r = {s->origin, *rec, fetched,
	                                   s->life->attempts};

	heed_log(&c->log, HEED_LOG_INFO, "qualify", "%s: %s (%s)", s->origin,
	         heed_site_state_name(rec->state), rec->detail);
	if (c->opt->on_site)
		c->opt->on_site(c->opt->site_ud, &r);
}

/* A site not qualified earlier (in this process, before a lost batch
 * started it again, or by another worker) lost its queue; qualified now,
 * it gets it back. What a page limit dropped comes back too, and is
 * dropped again at once. Another worker's drops are known from what the
 * store held of the site when its host was granted (heed__read_known):
 * only a holder drops a site's rows, and its drops commit before the
 * host changes hands. A worker that could not ask asks back anyway.
 * The rows come back under their old ids, below a window the site may
 * have loaded already as it started (a URL new to the store), which its
 * refills would read on from: the window is read again from the first. */
static void requeue_dropped(heed_crawl *c, struct heed__site *s)
{
	int64_t n = 0;
	heed_status rc;

	if (!s->maybe_dropped && (!heed__worker_on(c) || s->asked))
		return;
	if (!heed__batch_frontier_undrop(c, s->origin, &n) || !n)
		return;
	c->p.queued += n;
	if (s->last_loaded_id) {
		s->last_loaded_id = 0;
		rc = heed__sched_rewind(&c->sched, &s->lane, c->now.mono_ms);
	} else {
		rc = heed__sched_more(&c->sched, &s->lane, 0, c->now.mono_ms);
	}
	if (rc != HEED_OK)
		heed__crawl_oom(c);
}

/* The feed or sitemap the owner named is one of the site's sources, in
 * both modes (answer.c tells a feed from a sitemap by its content). An
 * oEmbed endpoint is no source: the pages the sources list are read
 * through it (answer.c). */
static void queue_endpoint(heed_crawl *c, struct heed__site *s)
{
	const struct heed__arranged *arr = s->host->arr;

	if (arr && arr->endpoint && s->in_scope &&
	    arr->endpoint_kind == HEED_ENDPOINT_SOURCE &&
	    heed__site_of_url(c, arr->endpoint, false) == s)
		heed__queue_add(c, arr->endpoint, JOB_FEED, 0, NULL,
		                HEED_STORE_NO_DATE);
}

static void qualified(heed_crawl *c, struct heed__site *s, bool fetched,
                      const struct heed_site_record *rec,
                      const struct heed_store_site *row)
{
	int64_t delay_ms = 0;

	if (!take_rules(c, s, fetched, rec, row, &delay_ms)) {
		heed__crawl_oom(c);
		return;
	}
	if (delay_ms > c->opt->polite.crawl_delay_cap_ms) {
		site_out(c, s,
		         "its Crawl-delay is above politeness.crawl_delay_cap");
		return;
	}
	/* Politeness counts per host name, and the sites of one name (its
	 * ports and schemes) may each ask for a Crawl-delay: the longest
	 * holds. */
	if (delay_ms > s->host->crawl_delay_ms)
		s->host->crawl_delay_ms = delay_ms;
	if (heed_polite_set_crawl_delay(c->polite, s->host->name,
	                                s->host->crawl_delay_ms) != HEED_OK) {
		heed__crawl_oom(c);
		return;
	}
	if (s->rules.acap && fetched)
		act_on_requests(c, s);
	heed__acapref_start(c, s, fetched, rec->robots_date_s);
	if (c->mode == HEED_CRAWL_QUALIFY) {
		/* No page follows: its addresses are not needed. */
		heed__site_set_state(c, s, SITE_READY);
		return;
	}
	if (s->in_scope)
		queue_sitemaps(c, s);
	queue_endpoint(c, s);
	requeue_dropped(c, s);
	heed__site_set_state(c, s, SITE_RESOLVING);
	c->resolving++;
	await_addresses(c, s, s->host);
}

/* heed's own policy refuses every address of the robots.txt URL's host
 * (private ones without --allow-private): a refusal of heed's, not the
 * site's failure, so nothing about the site is stored and its next run
 * with the setting changed starts afresh. */
static void refused_by_policy(heed_crawl *c, struct heed__site *s,
                              const char *why)
{
	struct heed_crawl_site_result r = {s->origin, s->life->stored, false,
	                                   s->life->attempts};

	c->qualifying--;
	snprintf(r.record.detail, sizeof(r.record.detail),
	         "not contacted: %.*s", (int)(sizeof(r.record.detail) - 16),
	         why);
	heed_log(&c->log, HEED_LOG_WARN, "qualify", "%s: %s", s->origin,
	         r.record.detail);
	if (c->opt->on_site)
		c->opt->on_site(c->opt->site_ud, &r);
	heed__life_free(c, s->life);
	s->life = NULL;
	site_out(c, s, why);
}

/* A Retry-After deadline and the host's delay (doubled by each 5xx in a
 * row) also hold back the next robots.txt attempt, whatever the retry
 * interval says. */
static void hold_next_attempt(heed_crawl *c, const struct heed__host *h,
                              struct heed_site_record *rec)
{
	struct heed_polite_backoff b;
	int64_t mono;

	heed_polite_get_backoff(c->polite, h->name, &b);
	if (b.until_s > rec->next_attempt_s)
		rec->next_attempt_s = b.until_s;
	if (heed_polite_get_last_start(c->polite, h->name, &mono)) {
		int64_t ready_ms = c->now.unix_ms - (c->now.mono_ms - mono) +
		                   heed_polite_delay_ms(c->polite, h->name);
		int64_t ready_s = (ready_ms + 999) / 1000;
		if (ready_s > rec->next_attempt_s)
			rec->next_attempt_s = ready_s;
	}
}

/* The report says what decided: a 304, standing for the stored body that
 * the machine judged as the 200 it confirms ("HTTP 200: ..." in its
 * words). */
static void confirmed_by_304(struct heed_site_record *rec)
{
	char rest[sizeof(rec->detail)];
	const char *from = rec->detail;

	if (strncmp(from, "HTTP 200", 8) == 0)
		from += 8;
	snprintf(rest, sizeof(rest), "%s", from);
	snprintf(rec->detail, sizeof(rec->detail),
	         "HTTP 304, the stored robots.txt confirmed%.110s", rest);
	rec->http_status = 304;
}

static void done(heed_crawl *c, struct heed__site *s, bool fetched)
{
	struct heed_site_record rec = *heed_site_get_record(s->life->machine);
	struct heed_store_site row = {0};

	c->qualifying--;
	if (s->life->not_modified)
		confirmed_by_304(&rec);
	if (rec.state == HEED_SITE_DISQUALIFIED)
		hold_next_attempt(c, s->host, &rec);
	save_site(c, s, &rec, fetched, &row);
	if (fetched)
		heed__life_save_host(c, s->host);
	if (fetched && s->life->target && s->life->target != s->host)
		heed__life_save_host(c, s->life->target);
	report(c, s, &rec, fetched);
	if (!heed_site_state_qualified(rec.state)) {
		site_out(c, s,
		         rec.detail[0] ? rec.detail
		                       : heed_site_reason_name(rec.reason));
	} else if (c->failed == HEED_OK) {
		qualified(c, s, fetched, &rec, &row);
	}
	heed_store_site_clear(c->store, &row);
	heed__life_free(c, s->life);
	s->life = NULL;
}
