/*
 * The crawl engine (heed/crawl_engine.h): the I/O shell that runs the
 * controller of heed/crawl.h over real DNS and HTTP. It reads the clocks,
 * carries each action out (a c-ares look-up, a libcurl fetch pinned to one
 * address) and hands each answer back; one poll() watches both. It takes
 * the store's crawl lock first: two crawls on one store would each keep
 * their own politeness and break the promise between them.
 *
 * It decides nothing: every rule lives in the controller and the cores it
 * asks, which is what lets a test run the same controller over a
 * simulated network (tests/unit/test_crawl_sim.c).
 */
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "common/common-int.h"
#include "heed/crawl_engine.h"

/* Sockets watched at once (DNS and the one epoll descriptor of net). */
#define ENGINE_MAX_FDS 64
/* The longest poll() sleep, so a stop request is seen quickly. */
#define ENGINE_TICK_MS 200

struct engine {
	heed_crawl *c;
	heed_dns *dns;
	heed_net *net;
	const struct heed_crawl_options *opt;
	struct heed_logger log;
	int64_t last_progress_ms;
};

static struct heed_crawl_clock clock_now(void)
{
	struct heed_crawl_clock t;
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	t.mono_ms = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
	clock_gettime(CLOCK_REALTIME, &ts);
	t.unix_ms = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
	return t;
}

struct pending {
	struct engine *e;
	heed_crawl_req *req;
};

static void on_resolved(void *ud, const struct heed_dns_result *r)
{
	struct pending *p = ud;
	struct heed_crawl_clock now = clock_now();

	heed_crawl_resolved(p->e->c, p->req, r, &now);
	heed__free(heed_allocator_default(), p);
}

static bool on_headers(void *ud, const struct heed_net_response *r)
{
	struct pending *p = ud;

	return heed_crawl_headers(p->e->c, p->req, r);
}

static void on_fetched(void *ud, const struct heed_net_response *r)
{
	struct pending *p = ud;
	struct heed_crawl_clock now = clock_now();

	heed_crawl_fetched(p->e->c, p->req, r, &now);
	heed__free(heed_allocator_default(), p);
}

static struct pending *pending_new(struct engine *e, heed_crawl_req *req)
{
	struct pending *p = heed__malloc(heed_allocator_default(), sizeof(*p));

	if (p) {
		p->e = e;
		p->req = req;
	}
	return p;
}

/* A fetch that could not even start ends at once, as a failed attempt
 * that never connected: the controller tries it again later. */
static void fetch_failed(struct engine *e, heed_crawl_req *req, const char *url,
                         const struct heed_dns_addr *addr, heed_status rc)
{
	struct heed_net_response r = {0};
	struct heed_crawl_clock now = clock_now();

	r.error = rc == HEED_EDENIED ? HEED_NET_DENIED : HEED_NET_OTHER;
	r.error_text = heed_strerror(rc);
	r.url = url;
	r.address = addr->text;
	heed_crawl_fetched(e->c, req, &r, &now);
}

static void carry_out(struct engine *e, const struct heed_crawl_action *a)
{
	struct pending *p = pending_new(e, a->req);
	struct heed_net_request req = {0};
	heed_status rc = HEED_ENOMEM;

	if (a->kind == HEED_CRAWL_RESOLVE) {
		struct heed_dns_result none = {0};
		struct heed_crawl_clock now = clock_now();
		if (p) {
			/* The callback may run at once (an address
			 * literal). */
			heed_dns_resolve(e->dns, a->name, AF_UNSPEC,
			                 on_resolved, p);
			return;
		}
		none.outcome = HEED_DNS_ERROR;
		none.detail = "out of memory";
		none.query = a->name;
		heed_crawl_resolved(e->c, a->req, &none, &now);
		return;
	}
	req.url = a->url;
	req.addr = a->addr;
	req.max_body_bytes = a->max_body_bytes;
	req.on_headers = on_headers;
	req.on_done = on_fetched;
	req.ud = p;
	req.headers = a->headers;
	req.header_count = a->header_count;
	if (p && (rc = heed_net_start(e->net, &req)) == HEED_OK)
		return;
	heed__free(heed_allocator_default(), p);
	fetch_failed(e, a->req, a->url, a->addr, rc);
}

static void progress(struct engine *e, const struct heed_crawl_clock *now,
                     bool final)
{
	struct heed_crawl_progress p;

	if (!e->opt->on_progress ||
	    (!final &&
	     now->mono_ms - e->last_progress_ms < e->opt->progress_interval_ms))
		return;
	e->last_progress_ms = now->mono_ms;
	heed_crawl_progress_get(e->c, now, &p);
	e->opt->on_progress(e->opt->progress_ud, &p);
}

/* Hands out every action due now; returns how long poll() may sleep, or
 * -1 when the run is over. */
static int dispatch(struct engine *e, volatile sig_atomic_t *stop)
{
	struct heed_crawl_action a;

	for (;;) {
		struct heed_crawl_clock now = clock_now();
		int64_t wait;
		if (stop && *stop)
			heed_crawl_stop(e->c);
		switch (heed_crawl_next(e->c, &now, &a)) {
		case HEED_CRAWL_FETCH:
			if (clock_now().mono_ms - now.mono_ms >
			    HEED_CRAWL_STALE_MS) {
				/* Decided before the store made the call
				 * wait: a lease may have ended since. */
				struct heed_crawl_clock late = clock_now();
				heed_crawl_unsent(e->c, a.req, &late);
				continue;
			}
			carry_out(e, &a);
			continue;
		case HEED_CRAWL_RESOLVE:
			carry_out(e, &a);
			continue;
		case HEED_CRAWL_WAIT:
			wait = a.until_ms - now.mono_ms;
			return wait < 0                ? 0
			       : wait > ENGINE_TICK_MS ? ENGINE_TICK_MS
			                               : (int)wait;
		case HEED_CRAWL_DONE:
			return -1;
		}
	}
}

static void loop(struct engine *e, volatile sig_atomic_t *stop)
{
	struct pollfd fds[ENGINE_MAX_FDS];

	for (;;) {
		struct heed_crawl_clock now;
		int n, timeout = dispatch(e, stop);
		if (timeout < 0)
			return;
		n = heed_dns_pollfds(e->dns, fds, ENGINE_MAX_FDS - 1);
		n += heed_net_pollfds(e->net, fds + n, ENGINE_MAX_FDS - n);
		timeout = heed_net_timeout_ms(
		        e->net, heed_dns_timeout_ms(e->dns, timeout));
		/* On a poll error, process anyway: every wait has a
		 * deadline, so the loop stays bounded. */
		if (poll(fds, (nfds_t)n, timeout) < 0)
			memset(fds, 0, sizeof(fds));
		heed_dns_process(e->dns, fds, n);
		heed_net_process(e->net, fds, n);
		now = clock_now();
		progress(e, &now, false);
	}
}

static heed_status open_io(struct engine *e, struct heed_diag *diag)
{
	struct heed_net_options net = e->opt->net;

	net.user_agent = e->opt->user_agent;
	if (heed_dns_new(&e->dns, &e->opt->dns, NULL, diag) != HEED_OK ||
	    heed_net_new(&e->net, &net, &e->log, NULL, diag) != HEED_OK)
		return heed_diag_set(diag, HEED_ECONFIG, 0, 0, "%s",
		                     diag && diag->message[0]
		                             ? diag->message
		                             : "DNS or HTTP could not start");
	return HEED_OK;
}

heed_status
heed_crawl_run(heed_store *store, const struct heed_crawl_options *opt,
               volatile sig_atomic_t *stop, struct heed_crawl_progress *summary,
               const struct heed_allocator *alloc, struct heed_diag *diag)
{
	struct engine e = {0};
	struct heed_crawl_clock now = clock_now();
	heed_status rc;

	e.opt = opt;
	if (opt->logger)
		e.log = *opt->logger;
	if (!opt->user_agent)
		return heed_diag_set(diag, HEED_EINVAL, 0, 0, "no User-Agent");
	rc = opt->worker.holder ? heed_store_lock_shared(store, diag)
	                        : heed_store_lock(store, diag);
	if (rc == HEED_OK)
		rc = heed_crawl_new(&e.c, store, opt, &now, alloc, diag);
	if (rc == HEED_OK)
		rc = open_io(&e, diag);
	if (rc == HEED_OK)
		rc = heed_crawl_start(e.c, &now, diag);
	if (rc == HEED_OK) {
		e.last_progress_ms = now.mono_ms;
		loop(&e, stop);
	}
	/* Freeing the network and DNS first answers what was in progress
	 * (cancelled), while the controller is still there to hear it. */
	heed_net_free(e.net);
	heed_dns_free(e.dns);
	now = clock_now();
	if (e.c) {
		heed_status end = heed_crawl_finish(e.c, &now);
		if (rc == HEED_OK)
			rc = end;
		progress(&e, &now, true);
		if (summary)
			heed_crawl_progress_get(e.c, &now, summary);
	}
	heed_crawl_free(e.c);
	if (rc == HEED_ESTORE && diag && !diag->message[0])
		heed_diag_set(diag, rc, 0, 0, "%s", heed_store_errmsg(store));
	return rc;
}
