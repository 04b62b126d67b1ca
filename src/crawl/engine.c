/*
 * The crawl engine's loop (issue 8, `heed crawl`): one thread, one poll()
 * over DNS and HTTP sockets, the scheduler deciding which host goes next.
 *
 * Per turn: hand out every fetch the scheduler allows (refilling host
 * windows from the frontier, dropping hosts at their page limit), wait for
 * sockets or the next host's turn, run the callbacks, commit the batch when
 * it is due, report progress. Invariants: a page's record and its frontier
 * row are written in one transaction; a URL is marked in flight before its
 * request starts and done only with its result, so after a crash at most
 * the rows in flight (and the uncommitted batch) are fetched again.
 */
#include <poll.h>
#include <string.h>
#include <time.h>

#include "crawl/engine-int.h"
#include "heed/store_sites.h"
#include "heed/url.h"

/* Sockets watched at once; more fetches than this wait their turn. */
#define ENGINE_MAX_FDS 1024
/* The longest poll() sleep, so a stop request is seen quickly. */
#define ENGINE_TICK_MS 200

int64_t heed__crawl_mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int64_t heed__crawl_unix_s(void)
{
	return (int64_t)time(NULL);
}

int64_t heed__crawl_unix_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

const char *heed_crawl_mode_name(heed_crawl_mode mode)
{
	return mode == HEED_CRAWL_INCREMENTAL ? "incremental" : "full";
}

void heed_crawl_options_default(struct heed_crawl_options *opt)
{
	memset(opt, 0, sizeof(*opt));
	heed_crawl_limits_default(&opt->limits);
	heed_polite_options_default(&opt->polite);
	heed_site_options_default(&opt->site);
	opt->agent_token = HEED_ROBOTS_PRODUCT_TOKEN;
	opt->progress_interval_ms = 1000;
}

void heed__crawl_store_failed(struct crawl_engine *e, const char *what)
{
	if (e->failed == HEED_OK)
		heed_log(&e->log, HEED_LOG_ERROR, "crawl", "store: %s: %s",
		         what, heed_store_errmsg(e->store));
	e->failed = HEED_ESTORE;
}

bool heed__crawl_tx(struct crawl_engine *e)
{
	if (e->failed != HEED_OK)
		return false;
	e->tx_writes++;
	if (e->in_tx)
		return true;
	if (heed_store_begin(e->store) != HEED_OK) {
		heed__crawl_store_failed(e, "starting a batch");
		return false;
	}
	e->in_tx = true;
	e->tx_start_ms = heed__crawl_mono_ms();
	return true;
}

static void commit(struct crawl_engine *e)
{
	if (!e->in_tx)
		return;
	if (heed_store_run_add(e->store, e->run_id, e->run_pages,
	                       e->run_errors) != HEED_OK ||
	    (e->last_request_unix_ms &&
	     heed_store_run_set_last_request(
	             e->store, e->last_request_unix_ms) != HEED_OK) ||
	    heed_store_commit(e->store) != HEED_OK) {
		heed__crawl_store_failed(e, "committing a batch");
		heed_store_rollback(e->store);
	}
	e->run_pages = e->run_errors = 0;
	e->in_tx = false;
	e->tx_writes = 0;
}

static void commit_if_due(struct crawl_engine *e, int64_t now_ms)
{
	if (e->in_tx && (e->tx_writes >= ENGINE_BATCH_WRITES ||
	                 now_ms - e->tx_start_ms >= ENGINE_BATCH_MS))
		commit(e);
}

void heed__crawl_enqueue(struct crawl_engine *e, const char *url,
                         heed_frontier_kind kind, int depth, const char *from,
                         int64_t lastmod)
{
	struct heed_frontier_entry fe = {0,    url,  NULL,   depth,
	                                 kind, from, lastmod};
	struct crawl_host *h;
	heed_url_verdict v = HEED_URL_OK;
	uint64_t fp = heed__seen_fingerprint(url);
	bool added = false;

	/* Queued (or found queued) before, or of a site out of this crawl:
	 * the answer has not changed. */
	if (heed__seen_has(&e->seen, fp))
		return;
	/* Sitemaps and feeds are asked for by robots.txt or pages; the limits
	 * of links (depth, media extensions) apply to pages only. */
	if (kind == HEED_FRONTIER_PAGE)
		v = heed_crawl_check_url(&e->opt->limits, url, depth);
	h = v == HEED_URL_OK ? heed__crawl_host_get(e, url, depth == 0 && !from)
	                     : NULL;
	if (!h || h->state == HOST_OUT) {
		/* Hosts do not join or come back during a run, but a limit
		 * may pass the same URL found at a lower depth. */
		if (v == HEED_URL_OK)
			heed__seen_add(&e->seen, fp);
		e->p.skipped++;
		heed_log(&e->log, HEED_LOG_DEBUG, "crawl",
		         "not queued: %s (%s)", url,
		         v == HEED_URL_OK ? "other site"
		                          : heed_url_verdict_name(v));
		return;
	}
	fe.host = h->key;
	if (!heed__crawl_tx(e))
		return;
	if (heed_store_frontier_add(e->store, &fe, &added) != HEED_OK) {
		heed__crawl_store_failed(e, "queueing a URL");
		return;
	}
	heed__seen_add(&e->seen, fp);
	if (added && heed_sched_host_more(e->sched, h->key, 0) != HEED_OK)
		e->failed = HEED_ENOMEM;
	if (added)
		e->p.queued++;
}

/* Loads the next window of host's queue into the scheduler. */
struct refill {
	struct crawl_engine *e;
	struct crawl_host *h;
	int count;
};

static int refill_one(void *ud, const struct heed_frontier_entry *fe)
{
	struct refill *r = ud;
	struct heed_sched_job job = {fe->id,
	                             fe->url,
	                             fe->host,
	                             fe->depth,
	                             (heed_job_kind)fe->kind,
	                             fe->lastmod};

	r->h->last_loaded_id = fe->id;
	r->count++;
	if (heed_sched_push(r->e->sched, &job, false) != HEED_OK) {
		r->e->failed = HEED_ENOMEM;
		return 1;
	}
	return 0;
}

static void refill(struct crawl_engine *e, const char *key)
{
	struct refill r = {e, heed__crawl_host_find(e, key), 0};
	int window = (int)e->opt->limits.window;

	if (r.h &&
	    heed_store_frontier_queued(e->store, key, r.h->last_loaded_id,
	                               window, refill_one, &r) != HEED_OK)
		heed__crawl_store_failed(e, "loading a queue window");
	heed_sched_refilled(e->sched, key, r.count == window);
}

static void drop_host(struct crawl_engine *e, const char *key)
{
	int64_t n = 0;

	if (heed__crawl_tx(e) &&
	    heed_store_frontier_drop_host(e->store, key, &n) != HEED_OK)
		heed__crawl_store_failed(e, "dropping a queue");
	e->p.queued = e->p.queued > n ? e->p.queued - n : 0;
	heed_log(&e->log, HEED_LOG_INFO, "crawl",
	         "%s: page limit (%lld) reached, %lld queued URLs dropped", key,
	         (long long)e->opt->limits.max_pages, (long long)n);
}

/* Added to every politeness wait: a request's start is when heed asks
 * libcurl for it, its arrival a few milliseconds later and not always
 * equally later, so a wait of exactly the delay could look a little
 * shorter from the server's side. */
#define POLITE_MARGIN_MS 25

/* The politeness decision for the scheduler: the shared heed_polite
 * budget (robots.txt fetches, Crawl-delay and back-off included), keyed
 * like the qualifier keys it: the host name without port. */
static int64_t polite_next_ms(void *ud, const char *key, int64_t last_ms,
                              int64_t now_ms)
{
	struct crawl_engine *e = ud;
	struct crawl_host *h = heed__crawl_host_find(e, key);
	struct heed_polite_clock clock = {heed__crawl_unix_s(), now_ms};
	const char *addr = NULL;
	int64_t wait_ms = 0, floor_ms;

	if (!h)
		return now_ms;
	if (h->addr_count)
		addr = h->addrs[h->addr_next % h->addr_count].text;
	/* The floor counts from when heed really began its last page
	 * request (the scheduler's time is the start of the loop turn). */
	(void)last_ms;
	floor_ms = h->last_begin_ms
	                   ? h->last_begin_ms + POLITE_MARGIN_MS +
	                             heed_polite_delay_ms(e->polite, h->name)
	                   : now_ms;
	switch (heed_polite_check(e->polite, h->name, addr, &clock, 0,
	                          &wait_ms)) {
	case HEED_POLITE_READY:
		return floor_ms > now_ms ? floor_ms : now_ms;
	case HEED_POLITE_WAIT:
		/* After a robots.txt fetch of the qualifier there is no floor
		 * yet: the margin goes on the wait itself. */
		if (!h->last_begin_ms)
			return now_ms + wait_ms + POLITE_MARGIN_MS;
		return floor_ms > now_ms + wait_ms ? floor_ms
		                                   : now_ms + wait_ms;
	default:
		return now_ms + 50; /* the address is busy: look again */
	}
}

static bool engine_open(struct crawl_engine *e, struct heed_diag *diag)
{
	const struct heed_crawl_options *o = e->opt;
	struct heed_crawl_politeness p = {polite_next_ms, NULL, NULL, e};
	struct heed_net_options net = o->net;
	struct heed_qualify_options q = {o->site, o->user_agent,
	                                 o->net.allow_private};

	net.user_agent = o->user_agent;
	q.agent = o->agent_token;
	e->start_ms = e->last_progress_ms = heed__crawl_mono_ms();
	return heed__seen_init(&e->seen, e->alloc) == HEED_OK &&
	       heed_sched_new(&e->sched, &o->limits, &p, e->start_ms,
	                      e->alloc) == HEED_OK &&
	       heed_polite_new(&e->polite, &o->polite, e->alloc) == HEED_OK &&
	       heed_dns_new(&e->dns, &o->dns, e->alloc, diag) == HEED_OK &&
	       heed_net_new(&e->net, &net, &e->log, e->alloc, diag) ==
	               HEED_OK &&
	       heed_qualify_new(&e->qualify, e->dns, e->net, e->polite, &q,
	                        &e->log, e->alloc) == HEED_OK;
}

static void engine_close(struct crawl_engine *e)
{
	heed_qualify_free(e->qualify);
	heed_net_free(e->net);
	heed_dns_free(e->dns);
	heed__crawl_hosts_free(e);
	heed_polite_free(e->polite);
	heed_sched_free(e->sched);
	heed__seen_free(&e->seen);
}

static void progress(struct crawl_engine *e, int64_t now_ms, bool final)
{
	struct heed_sched_stats st;

	if (!final &&
	    now_ms - e->last_progress_ms < e->opt->progress_interval_ms)
		return;
	e->last_progress_ms = now_ms;
	heed_sched_stats_get(e->sched, &st);
	e->p.elapsed_ms = now_ms - e->start_ms;
	e->p.sites_active = st.hosts_active;
	e->p.sites_waiting = st.hosts_waiting + e->qualifying + e->resolving +
	                     e->waiting_qualification;
	e->p.sites_done =
	        e->p.sites > e->p.sites_active + e->p.sites_waiting
	                ? e->p.sites - e->p.sites_active - e->p.sites_waiting
	                : 0;
	if (e->opt->on_progress)
		e->opt->on_progress(e->opt->progress_ud, &e->p);
}

static void on_fetch_done(void *ud, const struct heed_net_response *r);

static bool on_fetch_headers(void *ud, const struct heed_net_response *r)
{
	struct crawl_fetch *f = ud;
	heed_content_kind k = heed_extract_content_kind(r->content_type);

	f->kind = k;
	/* "a response whose headers say image, video, audio or other
	 * non-text types is aborted before its body" (issue 8). */
	if (r->status < 200 || r->status >= 300 ||
	    f->job.kind == HEED_JOB_ROBOTS)
		return true;
	if (k == HEED_CONTENT_MEDIA || k == HEED_CONTENT_OTHER)
		return false;
	if (f->job.kind == HEED_JOB_PAGE)
		return k == HEED_CONTENT_HTML || k == HEED_CONTENT_XHTML ||
		       k == HEED_CONTENT_UNKNOWN;
	return true;
}

static void fetch_free(struct crawl_fetch *f)
{
	const struct heed_allocator *a = f->e->alloc;

	for (size_t i = 0; i < f->request_header_count; i++)
		heed__free(a, f->request_headers[i]);
	heed__free(a, f->url);
	heed__free(a, f);
}

/* Conditional GET in the incremental mode: the stored validators. */
static void add_validators(struct crawl_fetch *f)
{
	struct heed_page_validators v;
	struct heed_buf b;

	/* A start page is always read whole: the feeds it announces are the
	 * incremental mode's sources. */
	if (f->e->mode != HEED_CRAWL_INCREMENTAL ||
	    f->job.kind != HEED_JOB_PAGE || f->job.depth == 0 ||
	    heed_store_page_validators(f->e->store, f->url, &v) != HEED_OK ||
	    v.status != 200)
		return;
	heed__buf_init(&b, f->e->alloc, 512);
	if (v.etag[0] &&
	    heed__buf_addf(&b, "If-None-Match: %s", v.etag) == HEED_OK)
		f->request_headers[f->request_header_count++] =
		        heed__buf_take(&b);
	if (v.last_modified[0] && heed__buf_addf(&b, "If-Modified-Since: %s",
	                                         v.last_modified) == HEED_OK)
		f->request_headers[f->request_header_count++] =
		        heed__buf_take(&b);
	heed__buf_free(&b);
}

/* Finishes a job that was handed out but not sent (refused by the rules,
 * or not startable). It cost no request, so it costs no delay either. */
static void job_refused(struct crawl_engine *e, const struct heed_sched_job *j,
                        int outcome)
{
	if (j->id && e->p.queued > 0)
		e->p.queued--;
	if (j->id && heed__crawl_tx(e) &&
	    heed_store_frontier_set_state(e->store, j->id, HEED_FRONTIER_DONE,
	                                  outcome) != HEED_OK)
		heed__crawl_store_failed(e, "finishing a refused URL");
	heed_sched_done(e->sched, j->host, heed__crawl_mono_ms(), 0);
}

static void start_fetch(struct crawl_engine *e, const struct heed_sched_job *j)
{
	struct crawl_host *h = heed__crawl_host_find(e, j->host);
	struct heed_polite_clock clock = {heed__crawl_unix_s(),
	                                  heed__crawl_mono_ms()};
	struct crawl_fetch *f;
	struct heed_net_request req = {0};

	if (!h || h->state != HOST_READY) {
		job_refused(e, j, -HEED_EDENIED);
		return;
	}
	/* "Before every fetch: ... URL permitted to crawl by RFC 9309 and
	 * ACAP" (issue 8). */
	if (!heed__crawl_may_fetch(h, j->url)) {
		e->p.refused++;
		heed_log(&e->log, HEED_LOG_INFO, "crawl",
		         "refused by robots.txt: %s", j->url);
		job_refused(e, j, -HEED_EDENIED);
		return;
	}
	f = heed__calloc(e->alloc, 1, sizeof(*f));
	if (!f || !(f->url = heed__strndup(e->alloc, j->url, strlen(j->url)))) {
		heed__free(e->alloc, f);
		e->failed = HEED_ENOMEM;
		job_refused(e, j, -HEED_ENOMEM);
		return;
	}
	f->e = e;
	f->host = h;
	f->job = *j;
	f->job.url = f->url;
	f->addr = &h->addrs[h->addr_next % h->addr_count];
	add_validators(f);
	req.url = f->url;
	req.addr = f->addr;
	req.max_body_bytes = j->kind == HEED_JOB_PAGE
	                             ? HEED_EXTRACT_MAX_HTML_BYTES
	                             : ENGINE_MAX_FEED_BYTES;
	req.on_headers = on_fetch_headers;
	req.on_done = on_fetch_done;
	req.ud = f;
	req.headers = (const char *const *)f->request_headers;
	req.header_count = f->request_header_count;
	if (j->id && heed__crawl_tx(e) &&
	    heed_store_frontier_set_state(
	            e->store, j->id, HEED_FRONTIER_IN_FLIGHT, 0) != HEED_OK)
		heed__crawl_store_failed(e, "marking a URL in flight");
	if (heed_polite_begin(e->polite, h->name, f->addr->text, &clock) !=
	            HEED_OK ||
	    heed_net_start(e->net, &req) != HEED_OK) {
		e->p.errors++;
		fetch_free(f);
		job_refused(e, j, -HEED_ENET);
		return;
	}
	e->p.requests++;
	e->last_request_unix_ms = heed__crawl_unix_ms();
	h->last_begin_ms = clock.mono_ms;
}

/* Keeps the host's 429/503 back-off in the store while it lasts, and
 * clears it once a normal answer ended it. */
static void save_backoff(struct crawl_engine *e, struct crawl_host *h,
                         int status)
{
	struct heed_store_host hs = {{0}, e->last_request_unix_ms};

	if (status != 429 && status != 503 && !h->backoff)
		return;
	heed_polite_get_backoff(e->polite, h->name, &hs.backoff);
	h->backoff = hs.backoff.level > 0;
	if (heed__crawl_tx(e) &&
	    heed_store_host_put(e->store, h->name, &hs) != HEED_OK)
		heed__crawl_store_failed(e, "saving a back-off");
}

static void on_fetch_done(void *ud, const struct heed_net_response *r)
{
	struct crawl_fetch *f = ud;
	struct crawl_engine *e = f->e;
	struct heed_polite_clock clock = {heed__crawl_unix_s(),
	                                  heed__crawl_mono_ms()};
	struct heed_polite_result pr = {r->connected, r->status, false, 0};

	if (r->retry_after &&
	    heed_retry_after_parse(r->retry_after, strlen(r->retry_after),
	                           clock.unix_s, &pr.retry_after_s) == HEED_OK)
		pr.has_retry_after = true;
	heed_polite_end(e->polite, f->host->name, f->addr->text, &clock, &pr);
	save_backoff(e, f->host, r->status);
	/* A connection that failed: the next fetch tries the next address. */
	if (!r->connected)
		f->host->addr_next++;
	if (r->error != HEED_NET_CANCELLED)
		heed__crawl_process(f, r);
	heed_sched_done(e->sched, f->host->key, clock.mono_ms, r->status);
	fetch_free(f);
}

/* Hands out everything due now; returns how long to sleep at most. */
static int dispatch(struct crawl_engine *e, int64_t now_ms, bool *finished)
{
	struct heed_sched_job job;
	const char *key;
	int64_t wait_ms;

	*finished = false;
	for (;;) {
		if (e->failed != HEED_OK)
			return 0;
		switch (heed_sched_next(e->sched, now_ms, &job, &key,
		                        &wait_ms)) {
		case HEED_SCHED_FETCH:
			start_fetch(e, &job);
			break;
		case HEED_SCHED_REFILL:
			refill(e, key);
			break;
		case HEED_SCHED_DROP_HOST:
			drop_host(e, key);
			break;
		case HEED_SCHED_WAIT:
			return wait_ms < ENGINE_TICK_MS ? (int)wait_ms
			                                : ENGINE_TICK_MS;
		case HEED_SCHED_DONE:
			*finished = heed_net_pending(e->net) == 0 &&
			            heed_qualify_pending(e->qualify) == 0 &&
			            e->qualifying == 0 && e->resolving == 0 &&
			            e->waiting_qualification == 0;
			return ENGINE_TICK_MS;
		default:
			return ENGINE_TICK_MS;
		}
	}
}

static void loop(struct crawl_engine *e)
{
	struct pollfd fds[ENGINE_MAX_FDS];
	bool finished = false;

	while (e->failed == HEED_OK) {
		int64_t now_ms = heed__crawl_mono_ms();
		int n, timeout;

		if (e->opt->stop && *e->opt->stop)
			heed_sched_stop(e->sched);
		timeout = dispatch(e, now_ms, &finished);
		if (finished)
			break;
		n = heed_dns_pollfds(e->dns, fds, ENGINE_MAX_FDS);
		n += heed_net_pollfds(e->net, fds + n, ENGINE_MAX_FDS - n);
		timeout = heed_qualify_timeout_ms(
		        e->qualify,
		        heed_net_timeout_ms(
		                e->net, heed_dns_timeout_ms(e->dns, timeout)));
		poll(fds, (nfds_t)n, timeout);
		heed_dns_process(e->dns, fds, n);
		heed_net_process(e->net, fds, n);
		heed_qualify_process(e->qualify);
		now_ms = heed__crawl_mono_ms();
		commit_if_due(e, now_ms);
		progress(e, now_ms, false);
	}
}

/* Seeds a new run, or resumes the open one. */
/* A host of the open run, collected before any write: the store's reads
 * finish before the hosts' qualifications start writing. */
struct resumed {
	char *host;
	int64_t queued, pages_done;
};

struct resume_list {
	struct crawl_engine *e;
	struct resumed *items;
	size_t count, cap;
};

static int collect_host(void *ud, const struct heed_frontier_host *fh)
{
	struct resume_list *l = ud;
	const struct heed_allocator *a = l->e->alloc;

	if (fh->queued == 0)
		return 0;
	if (l->count == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 64;
		struct resumed *n =
		        heed__realloc(a, l->items, cap * sizeof(*n));
		if (!n)
			return 1;
		l->items = n;
		l->cap = cap;
	}
	l->items[l->count] =
	        (struct resumed){heed__strndup(a, fh->host, strlen(fh->host)),
	                         fh->queued, fh->pages_done};
	return l->items[l->count++].host == NULL;
}

static int first_url(void *ud, const struct heed_frontier_entry *fe)
{
	struct heed_buf *url = ud;

	heed__buf_add(url, fe->url, strlen(fe->url));
	return 1;
}

/* Registers a resumed host: one of its queued URLs names it, scheme and
 * port included. */
static void resume_host(struct crawl_engine *e, const struct resumed *r)
{
	struct heed_buf url;
	struct crawl_host *h = NULL;

	heed__buf_init(&url, e->alloc, HEED_URL_MAX_BYTES);
	if (heed_store_frontier_queued(e->store, r->host, 0, 1, first_url,
	                               &url) == HEED_OK &&
	    url.len)
		h = heed__crawl_host_get(e, heed__buf_str(&url), true);
	heed__buf_free(&url);
	if (!h ||
	    heed_sched_host_more(e->sched, h->key, r->pages_done) != HEED_OK) {
		e->failed = HEED_ENOMEM;
		return;
	}
	e->p.queued += r->queued;
}

static heed_status resume(struct crawl_engine *e)
{
	struct resume_list l = {e, NULL, 0, 0};
	heed_status rc = heed_store_frontier_hosts(e->store, collect_host, &l);

	for (size_t i = 0; i < l.count; i++) {
		if (rc == HEED_OK && l.items[i].host)
			resume_host(e, &l.items[i]);
		heed__free(e->alloc, l.items[i].host);
	}
	heed__free(e->alloc, l.items);
	return rc;
}

static heed_status start_run(struct crawl_engine *e, struct heed_diag *diag)
{
	struct heed_crawl_run run;
	int64_t requeued = 0;
	heed_status rc = heed_store_run_open(e->store, &run);

	if (rc == HEED_OK && !e->opt->restart) {
		e->run_id = run.id;
		e->mode = strcmp(run.mode, "incremental") == 0
		                  ? HEED_CRAWL_INCREMENTAL
		                  : HEED_CRAWL_FULL;
		if (heed_store_frontier_recover(e->store, &requeued) !=
		            HEED_OK ||
		    resume(e) != HEED_OK)
			return heed_diag_set(diag, HEED_ESTORE, 0, 0, "%s",
			                     heed_store_errmsg(e->store));
		heed_log(&e->log, HEED_LOG_INFO, "crawl",
		         "resuming %s run %lld (%lld URLs were in flight)",
		         run.mode, (long long)run.id, (long long)requeued);
		return e->failed;
	}
	if (rc != HEED_OK && rc != HEED_ENOTFOUND)
		return heed_diag_set(diag, HEED_ESTORE, 0, 0, "%s",
		                     heed_store_errmsg(e->store));
	if (!e->opt->seed_count)
		return heed_diag_set(diag, HEED_EINVAL, 0, 0,
		                     "no seed URLs and no run to resume");
	if ((rc == HEED_OK &&
	     heed_store_run_finish(e->store, run.id, heed__crawl_unix_s()) !=
	             HEED_OK) ||
	    heed_store_frontier_clear(e->store) != HEED_OK ||
	    heed_store_run_begin(e->store, heed_crawl_mode_name(e->mode),
	                         heed__crawl_unix_s(), &e->run_id) != HEED_OK)
		return heed_diag_set(diag, HEED_ESTORE, 0, 0, "%s",
		                     heed_store_errmsg(e->store));
	return HEED_OK;
}

static heed_status seed(struct crawl_engine *e, struct heed_diag *diag)
{
	for (size_t i = 0; i < e->opt->seed_count; i++) {
		heed_url *u = NULL;
		const char *s = e->opt->seeds[i];
		if (heed_url_parse(&u, s, strlen(s), e->alloc) != HEED_OK)
			return heed_diag_set(diag, HEED_EINVAL, 0, 0,
			                     "'%s' is not an http(s) URL", s);
		heed__crawl_enqueue(e, heed_url_get(u), HEED_FRONTIER_PAGE, 0,
		                    NULL, HEED_STORE_NO_DATE);
		heed_url_free(u);
	}
	return e->failed;
}

/* The incremental mode's report: sites with no sitemap or feed. */
static void report_sources(struct crawl_engine *e)
{
	if (e->mode != HEED_CRAWL_INCREMENTAL)
		return;
	for (size_t i = 0; i < e->host_buckets; i++)
		for (struct crawl_host *h = e->hosts[i]; h; h = h->next) {
			if (h->state != HOST_READY || h->has_source)
				continue;
			e->p.sites_without_sources++;
			heed_log(&e->log, HEED_LOG_WARN, "crawl",
			         "%s: no sitemap or feed: not crawled "
			         "incrementally (run a full crawl)",
			         h->origin);
		}
}

static void finish_run(struct crawl_engine *e, bool stopped)
{
	int64_t counts[4];

	commit(e);
	if (e->failed != HEED_OK ||
	    heed_store_frontier_counts(e->store, counts) != HEED_OK)
		return;
	e->p.queued =
	        counts[HEED_FRONTIER_QUEUED] + counts[HEED_FRONTIER_IN_FLIGHT];
	/* A stopped or timed-out run stays open: the next crawl resumes it. */
	if (stopped && e->p.queued > 0)
		return;
	if (heed_store_run_finish(e->store, e->run_id, heed__crawl_unix_s()) !=
	    HEED_OK)
		heed__crawl_store_failed(e, "closing the run");
}

/* A crawl started right after another (or after a kill) waits until the
 * other's last request is a delay old: the budget spans processes. The
 * batch time is added because a killed run may have started requests
 * after its last commit. */
static void wait_for_previous_run(struct crawl_engine *e)
{
	int64_t last = 0, due, now = heed__crawl_unix_ms();
	struct timespec ts;

	if (heed_store_run_get_last_request(e->store, &last) != HEED_OK ||
	    !last)
		return;
	due = last + e->opt->polite.default_delay_ms + ENGINE_BATCH_MS +
	      POLITE_MARGIN_MS;
	if (due <= now || due - now > 60000)
		return;
	ts.tv_sec = (time_t)((due - now) / 1000);
	ts.tv_nsec = (long)((due - now) % 1000) * 1000000;
	nanosleep(&ts, NULL);
}

heed_status heed_crawl_run(heed_store *store,
                           const struct heed_crawl_options *opt,
                           struct heed_crawl_progress *summary,
                           const struct heed_allocator *alloc,
                           struct heed_diag *diag)
{
	struct crawl_engine e = {0};
	heed_status rc;
	bool stopped;

	e.alloc = alloc ? alloc : heed_allocator_default();
	e.opt = opt;
	e.store = store;
	e.mode = opt->mode;
	e.failed = HEED_OK;
	if (opt->logger)
		e.log = *opt->logger;
	if (!opt->user_agent || !opt->agent_token)
		return heed_diag_set(diag, HEED_EINVAL, 0, 0, "no User-Agent");
	if (!engine_open(&e, diag)) {
		engine_close(&e);
		return heed_diag_set(diag, HEED_ECONFIG, 0, 0, "%s",
		                     diag && diag->message[0]
		                             ? diag->message
		                             : "the crawl could not start");
	}
	wait_for_previous_run(&e);
	rc = start_run(&e, diag);
	if (rc == HEED_OK && (opt->restart || !e.p.queued))
		rc = seed(&e, diag);
	if (rc == HEED_OK) {
		commit(&e);
		loop(&e);
		rc = e.failed;
	}
	stopped =
	        (opt->stop && *opt->stop) ||
	        (opt->limits.max_run_ms > 0 &&
	         heed__crawl_mono_ms() - e.start_ms >= opt->limits.max_run_ms);
	report_sources(&e);
	finish_run(&e, stopped);
	progress(&e, heed__crawl_mono_ms(), true);
	if (summary)
		*summary = e.p;
	engine_close(&e);
	if (rc == HEED_OK)
		rc = e.failed;
	if (rc == HEED_ESTORE)
		heed_diag_set(diag, rc, 0, 0, "%s", heed_store_errmsg(store));
	return rc;
}
