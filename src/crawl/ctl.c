/*
 * The crawl controller's API (heed/crawl.h): next() hands out the actions
 * (look-ups first, then fetches in the order the lanes scheduler gives,
 * each one started only if politeness says READY at that moment), the
 * events route answers to the lifecycle (robots.txt) or to answer.c, and
 * the run is opened, batched and closed here.
 *
 * One authority: a fetch is handed out only after heed_polite_begin()
 * recorded it, and the courtesy witness (ledger.c) checks every start on
 * its own account; test and debug builds abort on a breach, so every test
 * of a crawl proves the rule at every request.
 */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "crawl/crawl-int.h"
#include "heed/url.h"

const char *heed_crawl_action_name(heed_crawl_action_kind kind)
{
	static const char *const names[] = {"resolve", "fetch", "wait", "done"};

	if ((unsigned)kind >= HEED_ARRAY_SIZE(names))
		return "unknown";
	return names[kind];
}

void heed_crawl_options_default(struct heed_crawl_options *opt)
{
	memset(opt, 0, sizeof(*opt));
	heed_crawl_limits_default(&opt->limits);
	heed_polite_options_default(&opt->polite);
	heed_site_options_default(&opt->site);
	heed_revisit_options_default(&opt->revisit);
	opt->agent_token = HEED_ROBOTS_PRODUCT_TOKEN;
	opt->progress_interval_ms = 1000;
	opt->extract_threads = 1;
}

/* Makes sure the committed lease covers a request starting now: the
 * request may leave up to the connect timeout later. A renewal commits the
 * batch, so a kill right after it still leaves the lease in the store. */
static bool lease_covers_start(heed_crawl *c)
{
	int64_t until = c->now.unix_ms + heed__crawl_leave_ms(c->opt);

	/* A worker's requests are covered by its sites' leases instead
	 * (worker.c): the store is not its alone. */
	if (heed__worker_on(c) || c->lease_ms >= until)
		return true;
	if (!heed__crawl_tx(c))
		return false;
	if (heed_store_crawl_lease_set(c->store, until + CRAWL_LEASE_MS) !=
	    HEED_OK) {
		heed__crawl_store_failed(c, "renewing the crawl lease");
		return false;
	}
	heed__crawl_commit(c);
	if (c->failed != HEED_OK)
		return false;
	c->lease_ms = until + CRAWL_LEASE_MS;
	return true;
}

static void commit_if_due(heed_crawl *c)
{
	/* Sites offered to the other workers ride with the open batch, or
	 * go at once when none is open. */
	if ((c->in_tx && (c->tx_writes >= CRAWL_BATCH_WRITES ||
	                  c->now.mono_ms - c->tx_start_ms >= CRAWL_BATCH_MS)) ||
	    (c->offers && !c->in_tx))
		heed__crawl_commit(c);
	heed__crawl_index(c, false);
}

/* ---- creating and freeing ---- */

heed_status heed_crawl_new(heed_crawl **out, heed_store *store,
                           const struct heed_crawl_options *opt,
                           const struct heed_crawl_clock *now,
                           const struct heed_allocator *alloc,
                           struct heed_diag *diag)
{
	const struct heed_crawl_limits *l = &opt->limits;
	heed_crawl *c;

	*out = NULL;
	if (!opt->agent_token || !*opt->agent_token)
		return heed_diag_set(diag, HEED_EINVAL, 0, 0,
		                     "no robots.txt agent token");
	if (!l->max_active || !l->window || !l->dns_concurrency)
		return heed_diag_set(diag, HEED_EINVAL, 0, 0,
		                     "crawl.concurrency, crawl.window and the "
		                     "look-ups in flight must be at least 1");
	if (opt->worker.holder &&
	    (!*opt->worker.holder || !opt->worker.max_sites ||
	     opt->worker.lease_ms * 2 <=
	             3 * (heed__crawl_leave_ms(opt) + HEED_CRAWL_STALE_MS)))
		/* A lease renewed every third of it must still outlive a
		 * request decided just before the renewal by its connect
		 * timeout and HEED_CRAWL_STALE_MS (worker.c). */
		return heed_diag_set(
		        diag, HEED_EINVAL, 0, 0,
		        "a worker needs a name, a site or more, and "
		        "a lease (crawl.lease) more than 1.5 times "
		        "(net.connect_timeout_ms + 0.5 s)");
	alloc = alloc ? alloc : heed_allocator_default();
	c = heed__calloc(alloc, 1, sizeof(*c));
	if (!c)
		return HEED_ENOMEM;
	c->alloc = alloc;
	c->opt = opt;
	c->store = store;
	c->now = *now;
	c->mode = opt->mode;
	c->start_ms = now->mono_ms;
	c->failed = HEED_OK;
	if (opt->logger)
		c->log = *opt->logger;
	heed__sched_init(&c->sched, alloc, l->max_active, l->max_pages);
	heed__ledger_init(&c->ledger, opt->polite.default_delay_ms, alloc);
	if (heed__seen_init(&c->seen, alloc) != HEED_OK ||
	    heed_polite_new(&c->polite, &opt->polite, alloc) != HEED_OK) {
		heed_crawl_free(c);
		return HEED_ENOMEM;
	}
	*out = c;
	return HEED_OK;
}

/* What the layers above the registry keep with its sites and hosts: freed
 * first, so that teardown runs top to bottom (crawl-int.h). */
static void free_upper_layers(heed_crawl *c)
{
	for (size_t i = 0; i < c->site_buckets; i++)
		for (struct heed__site *s = c->sites[i]; s; s = s->next)
			heed__acapref_free(c, s);
	for (size_t i = 0; i < c->host_buckets; i++)
		for (struct heed__host *h = c->hosts[i]; h; h = h->next)
			heed__arranged_free(c, h);
}

void heed_crawl_free(heed_crawl *c)
{
	if (!c)
		return;
	if (c->in_tx)
		heed_store_rollback(c->store);
	free_upper_layers(c);
	heed__table_free(c);
	heed__sched_free(&c->sched);
	heed__ledger_free(&c->ledger);
	heed__seen_free(&c->seen);
	heed__worker_free(c);
	heed_polite_free(c->polite);
	heed__free(c->alloc, c);
}

/* ---- opening the run ---- */

static heed_status store_error(heed_crawl *c, struct heed_diag *diag)
{
	return heed_diag_set(diag, HEED_ESTORE, 0, 0, "%s",
	                     heed_store_errmsg(c->store));
}

/* A start URL as a message quotes it: a 100 kB one is cut, and says so. */
static heed_status bad_seed(struct heed_diag *diag, const char *url,
                            const char *why)
{
	size_t len = strlen(url);

	if (len <= 80)
		return heed_diag_set(diag, HEED_EINVAL, 0, 0,
		                     "start URL '%s': %s", url, why);
	return heed_diag_set(diag, HEED_EINVAL, 0, 0,
	                     "start URL '%.60s...' (%zu bytes): %s", url, len,
	                     why);
}

/* Queues start URL s, or says why it is refused (HEED_EINVAL in diag);
 * *site is its site once queued (NULL in the qualify mode). */
static heed_status seed_one(heed_crawl *c, const char *s,
                            struct heed__site **site, struct heed_diag *diag)
{
	heed_url *u = NULL;
	heed_url_verdict v;

	*site = NULL;
	if (heed_url_parse(&u, s, strlen(s), c->alloc) != HEED_OK)
		return bad_seed(diag, s, "not an http(s) URL");
	/* A start URL the limits would skip is said, not counted as a
	 * skipped link. */
	v = heed_crawl_check_url(&c->opt->limits, heed_url_get(u), 0);
	if (v != HEED_URL_OK && c->mode != HEED_CRAWL_QUALIFY) {
		heed_url_free(u);
		return bad_seed(diag, s,
		                v == HEED_URL_TOO_LONG
		                        ? "longer than crawl.max_url_bytes"
		                : v == HEED_URL_MEDIA
		                        ? "a media file, never requested"
		                        : heed_url_verdict_name(v));
	}
	if (c->mode == HEED_CRAWL_QUALIFY) {
		struct heed__site *q = heed__site_get(c, heed_url_origin(u),
		                                      heed_url_hostname(u));
		if (q)
			q->in_scope = true;
		else
			heed__crawl_oom(c);
	} else {
		heed__queue_add(c, heed_url_get(u), JOB_PAGE, 0, NULL,
		                HEED_STORE_NO_DATE);
		*site = heed__site_of_url(c, heed_url_get(u), false);
	}
	heed_url_free(u);
	return HEED_OK;
}

/* The sites of the start URLs, asked about together before any of them
 * reads what the store knows of it (heed__read_known), and before the
 * first batch: a store that cannot answer is asked again row by row,
 * where a failure ends the run as it always did. */
static void seed_sites_known(heed_crawl *c)
{
	struct heed__site **sites =
	        heed__calloc(c->alloc, c->opt->seed_count + 1, sizeof(*sites));
	size_t n = 0;

	if (!sites) {
		heed__crawl_oom(c);
		return;
	}
	for (size_t i = 0; i < c->opt->seed_count; i++) {
		const char *url = c->opt->seeds[i];
		struct heed__site *site;
		if (heed_crawl_check_url(&c->opt->limits, url, 0) !=
		    HEED_URL_OK)
			continue;
		site = heed__site_of_url(c, url, true);
		/* Each site once; "asked" marks it listed meanwhile. */
		if (site && !site->asked) {
			site->asked = true;
			sites[n++] = site;
		}
	}
	for (size_t i = 0; i < n; i++)
		sites[i]->asked = false;
	heed__read_known(c, sites, n);
	heed__free(c->alloc, sites);
}

static heed_status seed(heed_crawl *c, struct heed_diag *diag)
{
	heed_status rc = HEED_OK;

	if (c->mode != HEED_CRAWL_QUALIFY)
		seed_sites_known(c);
	for (size_t i = 0; i < c->opt->seed_count && rc == HEED_OK; i++) {
		struct heed__site *site;
		rc = seed_one(c, c->opt->seeds[i], &site, diag);
		if (site)
			heed__queue_known(c, site);
	}
	/* A worker holds none of these sites yet: whoever holds them may
	 * write their rows before it claims one. */
	for (size_t i = 0; heed__worker_on(c) && i < c->site_buckets; i++)
		for (struct heed__site *s = c->sites[i]; s; s = s->next)
			heed__read_known_forget(s);
	return rc != HEED_OK ? rc : c->failed;
}

/* Resumes the open run, or opens a new one. */
static heed_status open_run(heed_crawl *c, struct heed_diag *diag)
{
	struct heed_crawl_run run;
	int64_t requeued = 0;
	heed_status rc = heed_store_run_open(c->store, &run);

	if (rc == HEED_OK && !c->opt->restart) {
		c->run_id = run.id;
		c->mode = strcmp(run.mode, "incremental") == 0
		                  ? HEED_CRAWL_INCREMENTAL
		                  : HEED_CRAWL_FULL;
		if (heed_store_frontier_recover(c->store, &requeued) !=
		            HEED_OK ||
		    heed__queue_resume(c) != HEED_OK)
			return store_error(c, diag);
		heed_log(&c->log, HEED_LOG_INFO, "crawl",
		         "resuming %s run %lld (%lld URLs were in flight)",
		         run.mode, (long long)run.id, (long long)requeued);
		return c->failed;
	}
	if (rc != HEED_OK && rc != HEED_ENOTFOUND)
		return store_error(c, diag);
	if (!c->opt->seed_count)
		return heed_diag_set(diag, HEED_EINVAL, 0, 0,
		                     "no seed URLs and no run to resume");
	if ((rc == HEED_OK &&
	     heed_store_run_finish(c->store, run.id, heed__crawl_unix_s(c)) !=
	             HEED_OK) ||
	    heed_store_frontier_clear(c->store) != HEED_OK ||
	    heed_store_run_begin(c->store, heed_crawl_mode_name(c->mode),
	                         heed__crawl_unix_s(c), &c->run_id) != HEED_OK)
		return store_error(c, diag);
	return HEED_OK;
}

/* A worker joins the open run, or begins one: workers starting at once
 * join the same run, and only one clears the frontier. The URLs other
 * workers had in flight stay theirs: a site's are recovered by whoever
 * takes it over (worker.c). */
static heed_status join_run(heed_crawl *c, struct heed_diag *diag)
{
	struct heed_crawl_run run;
	bool joined = false;

	if (c->opt->restart)
		return heed_diag_set(diag, HEED_EINVAL, 0, 0,
		                     "a worker cannot start the run afresh "
		                     "(--restart): other workers share it");
	if (heed_store_run_join(c->store, heed_crawl_mode_name(c->mode),
	                        heed__crawl_unix_s(c), &run,
	                        &joined) != HEED_OK)
		return store_error(c, diag);
	c->run_id = run.id;
	if (joined)
		c->mode = strcmp(run.mode, "incremental") == 0
		                  ? HEED_CRAWL_INCREMENTAL
		                  : HEED_CRAWL_FULL;
	heed_log(&c->log, HEED_LOG_INFO, "crawl", "worker %s: %s %s run %lld",
	         c->opt->worker.holder, joined ? "joining" : "beginning",
	         heed_crawl_mode_name(c->mode), (long long)run.id);
	if (!joined && !c->opt->seed_count)
		return heed_diag_set(diag, HEED_EINVAL, 0, 0,
		                     "no seed URLs and no run to join");
	return HEED_OK;
}

heed_status heed_crawl_start(heed_crawl *c, const struct heed_crawl_clock *now,
                             struct heed_diag *diag)
{
	heed_status rc;

	c->now = *now;
	if (c->started)
		return HEED_EINVAL;
	c->started = true;
	if (heed_store_crawl_lease_get(c->store, &c->prev_lease_ms) != HEED_OK)
		return store_error(c, diag);
	if (c->mode == HEED_CRAWL_QUALIFY) {
		if (!c->opt->seed_count)
			return heed_diag_set(diag, HEED_EINVAL, 0, 0,
			                     "no site to qualify");
		return seed(c, diag);
	}
	rc = heed__worker_on(c) ? join_run(c, diag) : open_run(c, diag);
	/* Start URLs given to a resumed run join it (those it already has
	 * are not queued twice). */
	if (rc == HEED_OK)
		rc = seed(c, diag);
	/* The start URLs' sites are offered to the other workers with the
	 * batch that queues them: a worker that joins finds them. */
	if (rc == HEED_OK)
		heed__queue_take_added(c);
	if (rc == HEED_OK)
		heed__crawl_commit(c);
	return rc == HEED_OK ? c->failed : rc;
}

/* ---- handing out fetches ---- */

static size_t body_cap(const heed_crawl *c, enum heed__job_kind kind)
{
	bool policy = kind == JOB_ROBOTS || kind == JOB_ACAPREF;
	size_t cap = policy               ? HEED_ROBOTS_PARSE_LIMIT_BYTES
	             : kind == JOB_PAGE   ? HEED_EXTRACT_MAX_HTML_BYTES
	             : kind == JOB_OEMBED ? HEED_OEMBED_MAX_BYTES
	                                  : CRAWL_MAX_FEED_BYTES;
	size_t set = c->opt->net.max_body_bytes;

	/* robots.txt, and the ACAP files it names, are read up to RFC
	 * 9309's limit whatever the setting: the lifecycle judges a longer
	 * file by its first 500 KiB. */
	return !policy && set && set < cap ? set : cap;
}

/* The witness's view of a start (ledger.c). */
static void witness(heed_crawl *c, const struct heed__host *h)
{
	int64_t gap = 0;

	if (heed__ledger_start(&c->ledger, h->name, c->now.mono_ms, &gap) ||
	    gap == 0)
		return;
	heed_log(&c->log, HEED_LOG_ERROR, "crawl",
	         "courtesy breach: a request to %s starts %lld ms after the "
	         "last one (%s)",
	         h->name, (long long)gap,
	         gap < 0 ? "one is in flight" : "under the delay");
	assert(!"courtesy breach: two request starts to one host under its "
	        "delay, or two in flight");
}

/* The candidate lane's head job is refused by the site's rules, or by its
 * owner's include/exclude (heed sites; counted apart): it costs no request
 * and no delay. */
static void refuse(heed_crawl *c, struct heed__site *s, bool by_owner)
{
	struct heed__job_node *n =
	        heed__sched_take(&c->sched, &s->lane, c->now.mono_ms);

	if (!n)
		return;
	if (by_owner) {
		c->p.refused_owner++;
		heed_log(&c->log, HEED_LOG_INFO, "crawl",
		         "refused by the owner's arrangement: %s", n->job.url);
	} else if (n->job.kind != JOB_ROBOTS) {
		c->p.refused++;
		heed_log(&c->log, HEED_LOG_INFO, "crawl",
		         "refused by robots.txt: %s", n->job.url);
	}
	heed__queue_finish(c, s, &n->job, -HEED_EDENIED);
	heed__free(c->alloc, n);
}

/* A window that closed during the run (or a pause recorded since): the
 * site's rest waits for a later run. */
static bool withheld_now(heed_crawl *c, struct heed__site *s)
{
	char why[160];

	if (!heed__arranged_withhold(c, s, why, sizeof(why)))
		return false;
	c->p.sites_withheld++;
	heed_log(&c->log, HEED_LOG_INFO, "crawl", "%s: stopped: %s", s->origin,
	         why);
	heed__site_set_state(c, s, SITE_OUT);
	heed__queue_drop(c, s, why);
	return true;
}

/* Asks politeness whether the candidate may start now; on any answer but
 * READY the lane's fate is settled here (deferred or parked). */
/* A robots.txt request the host's Retry-After holds back longer than a
 * run waits: the lifecycle counts the attempt as failed at once (its next
 * attempt is held back past the deadline), rather than keep the site, and
 * `heed site qualify`, waiting. */
static bool robots_held_too_long(heed_crawl *c, struct heed__site *s,
                                 const struct heed__host *h, int64_t wait)
{
	int64_t max = c->opt->limits.max_wait_ms;
	struct heed__job_node *n;

	if (s->lane.head->job.kind != JOB_ROBOTS || max <= 0 || wait <= max)
		return false;
	n = heed__sched_take(&c->sched, &s->lane, c->now.mono_ms);
	heed__free(c->alloc, n);
	heed__life_not_sent(c, s, h, wait);
	return true;
}

static bool may_start(heed_crawl *c, struct heed__site *s,
                      const struct heed__host *h,
                      const struct heed_dns_addr *addr)
{
	struct heed_polite_clock now = heed__crawl_polite_clock(c);
	int64_t wait = 0;

	switch (heed_polite_begin(c->polite, h->name, addr->text, &now,
	                          &wait)) {
	case HEED_POLITE_READY:
		return true;
	case HEED_POLITE_WAIT:
		if (robots_held_too_long(c, s, h, wait))
			return false;
		if (heed__sched_defer(&c->sched, &s->lane,
		                      c->now.mono_ms + wait) != HEED_OK)
			heed__crawl_oom(c);
		return false;
	case HEED_POLITE_HOST_BUSY:
		/* Another site of the host name (another scheme or port)
		 * has a request out; its end starts the delay again. */
		if (heed__sched_defer(
		            &c->sched, &s->lane,
		            c->now.mono_ms +
		                    heed_polite_delay_ms(c->polite, h->name)) !=
		    HEED_OK)
			heed__crawl_oom(c);
		return false;
	case HEED_POLITE_BUSY:
		if (heed__addrq_park(c, addr->text, &s->lane) != HEED_OK)
			heed__crawl_oom(c);
		return false;
	default:
		heed__crawl_oom(c);
		heed__sched_park(&c->sched, &s->lane);
		return false;
	}
}

static void fill_fetch(heed_crawl *c, struct heed_crawl_req *req,
                       struct heed_crawl_action *a)
{
	memset(a, 0, sizeof(*a));
	a->kind = HEED_CRAWL_FETCH;
	a->req = req;
	a->url = req->job.url;
	a->addr = &req->addr;
	a->max_body_bytes = body_cap(c, req->job.kind);
	a->headers = (const char *const *)req->headers;
	a->header_count = req->header_count;
	a->send_by_ms = heed__worker_send_by(c, req->site);
}

/* Tries the candidate lane of s: true and *a filled when its head job
 * starts. */
static bool try_start(heed_crawl *c, struct heed__site *s,
                      struct heed_crawl_action *a)
{
	const struct heed__job *job = &s->lane.head->job;
	struct heed__host *h = s->host;
	const struct heed_dns_addr *addr;
	struct heed_crawl_req *req;

	if (job->kind == JOB_ROBOTS && heed__life_withheld_now(c, s)) {
		return false;
	} else if (job->kind == JOB_ROBOTS) {
		/* The lifecycle asked for this address of a host it saw
		 * resolved. */
		h = s->life->target;
		assert(job->address < h->addr_count);
		addr = &h->addrs[job->address];
	} else if (job->kind == JOB_ACAPREF
	                   ? !heed__acapref_permitted(c, s, job)
	                   : !heed__rules_may_crawl(
	                             &s->rules, c->opt->agent_token, job->url,
	                             heed__crawl_unix_s(c))) {
		/* "Before every fetch: ... URL permitted to crawl by RFC
		 * 9309 and ACAP". */
		refuse(c, s, false);
		return false;
	} else if (job->kind == JOB_PAGE &&
	           !heed__arranged_permits(c, s, job->url)) {
		refuse(c, s, true);
		return false;
	} else if (withheld_now(c, s)) {
		return false;
	} else {
		/* A lane is released only once its site is ready, with an
		 * address (lifecycle.c). */
		assert(s->state == SITE_READY && h->addr_count);
		addr = &h->addrs[h->addr_next % h->addr_count];
	}
	if (!heed__worker_may_start(c, s))
		return false;
	req = heed__req_new(c);
	if (!req || !lease_covers_start(c)) {
		if (!req)
			heed__crawl_oom(c);
		else
			heed__req_free(c, req);
		heed__sched_park(&c->sched, &s->lane);
		return false;
	}
	if (!may_start(c, s, h, addr)) {
		heed__req_free(c, req);
		return false;
	}
	witness(c, h);
	heed__worker_started(c, s);
	heed__sched_start(&c->sched, &s->lane);
	req->site = s;
	req->host = h;
	req->addr = *addr;
	req->job = s->lane.current->job;
	req->job.visit = &req->visit;
	if (job->kind == JOB_ROBOTS) {
		s->life->attempts++;
		heed__life_robots_headers(c, s, req);
	} else if (job->kind == JOB_ACAPREF) {
		heed__acapref_headers(c, s, req);
	} else if (req->job.id) {
		heed__crawl_in_flight(c, s->origin, req->job.id);
		/* A start page is read whole in the incremental mode until
		 * the store knows the site's sitemaps and feeds: the page
		 * announces them. */
		heed__visit_headers(c, s, req,
		                    c->mode == HEED_CRAWL_INCREMENTAL &&
		                            req->job.depth == 0 &&
		                            !s->known_sources);
	}
	c->p.requests++;
	fill_fetch(c, req, a);
	return true;
}

/* Hands out the next fetch: true and *a filled; false with *wait_ms the
 * time until the next lane is due (-1: none is). */
static bool next_fetch(heed_crawl *c, struct heed_crawl_action *a,
                       int64_t *wait_ms)
{
	struct heed__lane *lane;
	int64_t wait;

	*wait_ms = -1;
	while (c->failed == HEED_OK) {
		struct heed__site *s;
		switch (heed__sched_next(&c->sched, c->now.mono_ms, &lane,
		                         &wait)) {
		case SCHED_REFILL:
			heed__queue_refill(c, heed__site_of_lane(lane));
			continue;
		case SCHED_DROP:
			s = heed__site_of_lane(lane);
			heed__queue_drop(c, s, "page limit reached");
			continue;
		case SCHED_CANDIDATE:
			if (try_start(c, heed__site_of_lane(lane), a))
				return true;
			continue;
		case SCHED_WAIT:
			*wait_ms = wait;
			return false;
		default:
			return false;
		}
	}
	return false;
}

/* Whether redo() forgets s and starts it again: an idle site that had
 * started, and one waiting for its host's addresses, whose qualification
 * wrote its row, its sitemaps and the rows it asked back into a batch
 * that may be the one lost. That one's lifecycle ends here: started
 * again, it qualifies again from what the store holds (a robots.txt
 * answer lost with the batch is asked again). */
static bool starts_again(heed_crawl *c, struct heed__site *s)
{
	if (!heed__site_at_rest(s) || s->state == SITE_NEW ||
	    s->state == SITE_QUALIFYING)
		return false;
	if (s->state == SITE_RESOLVING)
		heed__life_abandon(c, s);
	return true;
}

/* What the run's start queued, queued again: the start URLs, and, while
 * no batch has committed (the batch lost was the start's, or a redo's
 * before any commit), the URLs the store knows of their sites
 * (heed__queue_known) for the n sites in on, which go on through the
 * redo (a site started again queues its own as it starts). Only the
 * start's batch holds such rows new: later ones find them queued. */
static void requeue_start(heed_crawl *c, struct heed__site **on, size_t n)
{
	for (size_t i = 0;
	     i < c->opt->seed_count && c->mode != HEED_CRAWL_QUALIFY; i++)
		heed__queue_add(c, c->opt->seeds[i], JOB_PAGE, 0, NULL,
		                HEED_STORE_NO_DATE);
	for (size_t i = 0; i < n; i++) {
		on[i]->known_queued = false;
		heed__queue_known(c, on[i]);
	}
}

/* Redoes a lost batch (redo_batch) once no fetch is in flight: the run's
 * memory of what it queued is dropped, every lane parked at an address is
 * woken (its window may hold rows of the lost batch: a URL it no longer
 * has, asked again once the row is written again, or a row whose id the
 * store gives another), every wait for an ACAP file asked on another site
 * is forgotten (heed__acapref_forget_waits: both sites would otherwise
 * go on), every site starts_again() picks is forgotten and,
 * unless another worker may have its host by now, started again from the
 * store, and what the start queued is queued again (requeue_start). Sites
 * still qualifying, or never started, go on: their writes come later.
 * false while it must wait.
 *
 * A worker's sites start a part a turn (heed__worker_start_later), as a
 * grant's do: their statements in this one turn, for the hundreds of
 * sites a worker may hold, would hold up the beat past its leases' end,
 * and it would lose them all. A crawl alone has no lease to keep: its
 * sites start here. */
static bool redo(heed_crawl *c)
{
	struct heed__site **sites, **on;
	size_t n = 0, k = 0, held = 0, later = 0, woken;

	for (struct heed_crawl_req *r = c->reqs; r; r = r->next)
		if (!r->is_dns)
			return false;
	sites = heed__calloc(c->alloc, c->site_count + 1, sizeof(*sites));
	on = heed__calloc(c->alloc, c->site_count + 1, sizeof(*on));
	heed__seen_free(&c->seen);
	if (!sites || !on || heed__seen_init(&c->seen, c->alloc) != HEED_OK) {
		heed__free(c->alloc, sites);
		heed__free(c->alloc, on);
		heed__crawl_oom(c);
		return true;
	}
	c->rewinding = false;
	woken = heed__addrq_wake_all(c);
	for (size_t i = 0; i < c->site_buckets; i++)
		for (struct heed__site *s = c->sites[i]; s; s = s->next)
			heed__acapref_forget_waits(c, s);
	for (size_t i = 0; i < c->site_buckets; i++)
		for (struct heed__site *s = c->sites[i]; s; s = s->next)
			if (n < c->site_count && starts_again(c, s))
				sites[n++] = s;
			else if (k < c->site_count && s->known_queued &&
			         !c->committed)
				on[k++] = s;
	for (size_t i = 0; i < n; i++)
		heed__queue_forget(c, sites[i]);
	requeue_start(c, on, k);
	heed__free(c->alloc, on);
	for (size_t i = 0; i < n; i++) {
		struct heed__host *h = sites[i]->host;
		if (!heed__worker_on(c)) {
			sites[held++] = sites[i];
		} else if (h->leased && !h->lease_lost) {
			heed__worker_start_later(c, sites[i]);
			later++;
		}
	}
	if (c->failed == HEED_OK)
		heed__queue_restart(c, sites, held);
	heed__free(c->alloc, sites);
	heed__addrq_wake_room(c);
	heed_log(&c->log, HEED_LOG_INFO, "crawl",
	         "batch redone: %zu sites forgotten (%zu woken at an address), "
	         "%zu started again from the store%s",
	         n, woken, held + later, later ? ", a part a turn" : "");
	return true;
}

/* Due timers: lifecycle pauses and look-up retries. */
static void run_timers(heed_crawl *c)
{
	const struct heed__timer *t;

	while ((t = heed__timer_peek(c)) && t->at_ms <= c->now.mono_ms &&
	       c->failed == HEED_OK) {
		struct heed__timer due;
		heed__timer_pop(c, &due);
		heed__life_timer(c, &due);
	}
}

static bool run_over(const heed_crawl *c)
{
	int64_t max = c->opt->limits.max_run_ms;

	return max > 0 && c->now.mono_ms - c->start_ms >= max;
}

static int64_t min_wait(int64_t a, int64_t b)
{
	if (a < 0)
		return b;
	if (b < 0)
		return a;
	return a < b ? a : b;
}

/* Nothing to start now: how long to wait, or DONE. */
static heed_crawl_action_kind wait_or_done(heed_crawl *c, int64_t fetch_wait,
                                           struct heed_crawl_action *a)
{
	const struct heed__timer *t = heed__timer_peek(c);
	int64_t wait = fetch_wait;

	memset(a, 0, sizeof(*a));
	/* While a lost batch waits for its requests to end, a turn runs no
	 * timer and tells no URL (next()): either, once due, would ask for
	 * the next turn at once, turn after turn, until the last answer. */
	if (t && !c->rewinding)
		wait = min_wait(wait, t->at_ms > c->now.mono_ms
		                              ? t->at_ms - c->now.mono_ms
		                              : 0);
	if (c->stopped)
		wait = -1;
	/* URLs queued and not yet told may be the run's last work. */
	if (c->adds_untold && !c->stopped && !c->rewinding) {
		int64_t due = c->adds_since_ms + CRAWL_ADDS_MS - c->now.mono_ms;
		wait = min_wait(wait, due > 0 ? due : 0);
	}
	if (!c->reqs) {
		/* Nothing out: nothing will happen before the next due
		 * time, and with none the run is over. */
		int64_t max = c->opt->limits.max_wait_ms;
		/* A worker with nothing to do asks the store again while
		 * other workers may still find it work. */
		if (wait < 0 && !c->stopped && heed__worker_run_goes_on(c))
			wait = heed__worker_wait(c);
		if (wait < 0)
			return a->kind = HEED_CRAWL_DONE;
		if (max > 0 && wait > max) {
			/* "A run is never held hostage by one site": what is
			 * left waits for the next run. */
			heed_log(&c->log, HEED_LOG_WARN, "crawl",
			         "every site left must wait %lld s or more: "
			         "ending the run, the next one resumes it",
			         (long long)(wait / 1000));
			c->waited_out = true;
			return a->kind = HEED_CRAWL_DONE;
		}
	}
	/* Leases are renewed on time whatever else waits. */
	if (!c->stopped && heed__worker_on(c))
		wait = min_wait(wait, heed__worker_wait(c));
	/* The batch's own deadline is what spare time does early. */
	if (wait >= 0 && !c->stopped)
		heed__crawl_spare(c, wait);
	if (c->in_tx) {
		int64_t due = c->tx_start_ms + CRAWL_BATCH_MS - c->now.mono_ms;
		wait = min_wait(wait, due > 0 ? due : 0);
	}
	a->kind = HEED_CRAWL_WAIT;
	a->until_ms = c->now.mono_ms + (wait < 0 ? 1000 : wait);
	return a->kind;
}

heed_crawl_action_kind heed_crawl_next(heed_crawl *c,
                                       const struct heed_crawl_clock *now,
                                       struct heed_crawl_action *a)
{
	int64_t fetch_wait = -1;

	c->now = *now;
	if (c->failed != HEED_OK || run_over(c))
		c->stopped = true;
	commit_if_due(c);
	if (c->rewinding && !redo(c)) {
		heed__worker_tick(c);
		return wait_or_done(c, -1, a);
	}
	if (!c->stopped) {
		/* The URLs queued are told together: once they have waited
		 * long enough, or at once when no site has work without them
		 * (the start, a site's last page). Before a worker's beat,
		 * which offers the sites with work to the others. */
		if (c->adds_untold &&
		    (c->now.mono_ms - c->adds_since_ms >= CRAWL_ADDS_MS ||
		     !heed__sched_has_work(&c->sched)))
			heed__queue_take_added(c);
		heed__worker_tick(c);
		heed__life_start_new(c);
		run_timers(c);
	}
	if (!c->stopped && heed__life_next_lookup(c, a))
		return a->kind;
	/* With nothing out, no request's end will wake a parked lane. */
	if (!c->reqs)
		heed__addrq_wake_room(c);
	if (!c->stopped && next_fetch(c, a, &fetch_wait))
		return a->kind;
	return wait_or_done(c, fetch_wait, a);
}

/* ---- events ---- */

void heed_crawl_resolved(heed_crawl *c, heed_crawl_req *req,
                         const struct heed_dns_result *r,
                         const struct heed_crawl_clock *now)
{
	struct heed__host *h = req->host;

	c->now = *now;
	heed__req_free(c, req);
	heed__life_resolved(c, h, r);
}

bool heed_crawl_headers(heed_crawl *c, heed_crawl_req *req,
                        const struct heed_net_response *r)
{
	(void)c;
	return heed__answer_wanted(&req->job, r, &req->kind);
}

/* Tells politeness how the attempt ended, and wakes the lanes waiting for
 * room at its address. */
static void polite_end(heed_crawl *c, struct heed_crawl_req *req,
                       const struct heed_net_response *r)
{
	struct heed_polite_clock now = heed__crawl_polite_clock(c);
	struct heed_polite_result pr = {
	        .connected = r->connected,
	        .status = r->status,
	        .failed = r->connected && r->error != HEED_NET_OK &&
	                  r->error != HEED_NET_TOO_BIG &&
	                  r->error != HEED_NET_ABORTED &&
	                  r->error != HEED_NET_CANCELLED,
	        .heard_ms = r->heard_ms,
	        .first_byte_ms = r->first_byte_ms,
	        .elapsed_ms = r->elapsed_ms,
	};
	if (r->retry_after &&
	    heed_retry_after_parse(r->retry_after, strlen(r->retry_after),
	                           heed__crawl_unix_s(c),
	                           &pr.retry_after_s) == HEED_OK)
		pr.has_retry_after = true;
	heed_polite_end(c->polite, req->host->name, req->addr.text, &now, &pr);
	heed__ledger_end(&c->ledger, req->host->name, r->connected, r->heard_ms,
	                 now.mono_ms);
	heed__addrq_wake_address(c, req->addr.text);
}

/* An ACAP reference answer. acapref.c sits below lifecycle.c, which
 * keeps the host's back-off: this layer, above both, asks each. */
static void acapref_fetched(heed_crawl *c, struct heed__site *s,
                            const struct heed__job *job,
                            const struct heed_net_response *r)
{
	if (r->error != HEED_NET_CANCELLED)
		heed__life_keep_backoff(c, s->host);
	heed__acapref_fetched(c, s, job, r);
}

/* A FETCH answered; w: its page's work done ahead, or NULL. */
static void fetched(heed_crawl *c, heed_crawl_req *req,
                    const struct heed_net_response *r,
                    const struct heed_crawl_clock *now,
                    struct heed__page_work *w)
{
	struct heed__site *s = req->site;
	struct heed__job job = req->job;

	if (r->error == HEED_NET_NOT_SENT) {
		heed_crawl_unsent(c, req, now);
		return;
	}
	c->now = *now;
	heed__worker_touch(c, req->host);
	polite_end(c, req, r);
	if (job.kind == JOB_ROBOTS)
		heed__life_fetched(c, s, r);
	else if (job.kind == JOB_ACAPREF)
		acapref_fetched(c, s, &job, r);
	else
		heed__answer(c, s, &job, r, w);
	/* job.url lives in the lane's current node: freed only now. */
	if (heed__sched_done(&c->sched, &s->lane, c->now.mono_ms) != HEED_OK)
		heed__crawl_oom(c);
	heed__req_free(c, req);
}

void heed_crawl_fetched(heed_crawl *c, heed_crawl_req *req,
                        const struct heed_net_response *r,
                        const struct heed_crawl_clock *now)
{
	fetched(c, req, r, now, NULL);
}

heed_crawl_prep *heed_crawl_prepare(heed_crawl *c, heed_crawl_req *req,
                                    const struct heed_net_response *r)
{
	return heed_crawl_prepare_owned(c, req, r, NULL);
}

heed_crawl_prep *heed_crawl_prepare_owned(heed_crawl *c, heed_crawl_req *req,
                                          const struct heed_net_response *r,
                                          char *body)
{
	if (!heed__answer_has_work(&req->job, r) || (body && body != r->body))
		return NULL;
	return heed__answer_prep_new(c, req->site, &req->job, req, r, body);
}

void heed_crawl_prep_run(heed_crawl_prep *p)
{
	heed__answer_prep_run(p);
}

void heed_crawl_prepared(heed_crawl *c, heed_crawl_prep *p,
                         const struct heed_crawl_clock *now)
{
	fetched(c, p->req, &p->r, now, &p->w);
	heed__answer_prep_free(p);
}

void heed_crawl_prep_free(heed_crawl_prep *p)
{
	heed__answer_prep_free(p);
}

void heed_crawl_unsent(heed_crawl *c, heed_crawl_req *req,
                       const struct heed_crawl_clock *now)
{
	struct heed__site *s = req->site;

	c->now = *now;
	/* As if never begun: the host's previous start counts again (for
	 * the witness too), and the address's slot is free. */
	heed_polite_unbegin(c->polite, req->host->name, req->addr.text);
	heed__ledger_end(&c->ledger, req->host->name, false, 0, 0);
	heed__addrq_wake_address(c, req->addr.text);
	if (req->job.kind == JOB_ROBOTS && s->life)
		s->life->attempts--;
	/* Nor is its row in flight: started again, the request owes one
	 * in-flight mark, not two, and a second left after its answer would
	 * mark the settled row in flight at the commit (a URL a resume or
	 * the next holder asks again). */
	else if (req->job.kind != JOB_ACAPREF && req->job.id)
		heed__crawl_unmark(c, req->job.id);
	c->p.requests--;
	if (heed__sched_unstart(&c->sched, &s->lane, c->now.mono_ms) != HEED_OK)
		heed__crawl_oom(c);
	heed__req_free(c, req);
}

void heed_crawl_stop(heed_crawl *c)
{
	c->stopped = true;
}

/* ---- the end ---- */

/* The incremental mode's report: sites with no sitemap or feed. */
static void report_sources(heed_crawl *c)
{
	if (c->mode != HEED_CRAWL_INCREMENTAL)
		return;
	for (size_t i = 0; i < c->site_buckets; i++)
		for (struct heed__site *s = c->sites[i]; s; s = s->next) {
			if (s->state != SITE_READY || s->has_source)
				continue;
			c->p.sites_without_sources++;
			heed_log(&c->log, HEED_LOG_WARN, "crawl",
			         "%s: no sitemap or feed: not crawled "
			         "incrementally (run a full crawl)",
			         s->origin);
		}
}

heed_status heed_crawl_finish(heed_crawl *c, const struct heed_crawl_clock *now)
{
	int64_t counts[4];
	bool left_open = c->stopped || c->waited_out || run_over(c);

	c->now = *now;
	/* URLs of sites a worker does not hold are offered to the others
	 * as they are told. */
	heed__queue_take_added(c);
	/* Nothing is on its way any more: the next crawl need not wait for
	 * the rest of our lease. */
	if (c->lease_ms && heed__crawl_tx(c) &&
	    heed_store_crawl_lease_set(c->store, c->now.unix_ms) != HEED_OK)
		heed__crawl_store_failed(c, "ending the crawl lease");
	heed__crawl_commit(c);
	heed__crawl_index(c, true);
	heed__worker_finish(c);
	if (c->mode == HEED_CRAWL_QUALIFY || c->failed != HEED_OK)
		return c->failed;
	report_sources(c);
	if (heed_store_frontier_counts(c->store, counts) != HEED_OK) {
		heed__crawl_store_failed(c, "counting the queue");
		return c->failed;
	}
	c->p.queued =
	        counts[HEED_FRONTIER_QUEUED] + counts[HEED_FRONTIER_IN_FLIGHT];
	/* A stopped, timed-out or waiting run stays open: the next crawl
	 * resumes it. So does one that ended with URLs still queued, which
	 * only a fault of heed's own can leave: the next run fetches them
	 * rather than lose them. */
	if (c->p.queued > 0 || (heed__worker_on(c) && !c->w.store_idle)) {
		if (!left_open && !heed__worker_on(c))
			heed_log(&c->log, HEED_LOG_WARN, "crawl",
			         "%lld URLs left queued: the run stays open",
			         (long long)c->p.queued);
		return HEED_OK;
	}
	if (heed_store_run_finish(c->store, c->run_id, heed__crawl_unix_s(c)) !=
	    HEED_OK)
		heed__crawl_store_failed(c, "closing the run");
	return c->failed;
}

void heed_crawl_progress_get(heed_crawl *c, const struct heed_crawl_clock *now,
                             struct heed_crawl_progress *p)
{
	size_t active = 0, waiting = 0;

	for (size_t i = 0; i < c->site_buckets; i++)
		for (struct heed__site *s = c->sites[i]; s; s = s->next) {
			/* A worker counts only what it holds. */
			if (heed__worker_on(c) && !s->host->leased)
				continue;
			if (s->lane.current)
				active++;
			else if (s->state == SITE_NEW ||
			         s->state == SITE_QUALIFYING ||
			         s->state == SITE_RESOLVING ||
			         (s->state == SITE_READY &&
			          heed__lane_has_work(&s->lane)))
				waiting++;
		}
	c->p.elapsed_ms = now->mono_ms - c->start_ms;
	c->p.sites_active = active;
	c->p.sites_waiting = waiting;
	c->p.sites_done = c->p.sites > active + waiting
	                          ? c->p.sites - active - waiting
	                          : 0;
	*p = c->p;
}

void heed_crawl_index_beside(heed_crawl *c)
{
	c->index_beside = true;
}

heed_crawl_mode heed_crawl_get_mode(const heed_crawl *c)
{
	return c->mode;
}

const heed_polite *heed_crawl_politeness(const heed_crawl *c)
{
	return c->polite;
}
