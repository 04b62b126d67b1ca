/*
 * The crawl engine (heed/crawl_engine.h): the I/O shell that runs the
 * controller of heed/crawl.h over real DNS and HTTP. It reads the clocks,
 * carries each action out (a c-ares look-up, a libcurl fetch pinned to one
 * address) and hands each answer back; one poll() watches both. It takes
 * the store's crawl lock first: two crawls on one store would each keep
 * their own politeness and break the promise between them.
 *
 * The controller, DNS and HTTP run on this one thread, and at thousands
 * of sites it is the bound. So a page's answer is prepared
 * (heed_crawl_prepare_owned: the body libcurl wrote, taken from the
 * fetcher, and a copy of all else its pure work reads) and handed to a
 * small pool of threads (crawl.extract_threads) that digest and extract
 * it; done, it goes on a queue back, an eventfd wakes the poll(), and the
 * loop hands it to the controller (heed_crawl_prepared). The loop never
 * waits for the pool; the pool's threads never touch the controller, the
 * network or the store. A request stays in progress until its answer is
 * handed back, so the controller does not end the run before; every job
 * is handed back before heed_crawl_finish() all the same. With 0 threads,
 * or an allocator of the caller's (whose thread-safety heed cannot know),
 * every answer is handled on this thread as it arrives.
 *
 * It decides nothing: every rule lives in the controller and the cores it
 * asks, which is what lets a test run the same controller over a
 * simulated network (tests/unit/test_crawl_sim.c).
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "common/common-int.h"
#include "crawl/indexer-int.h"
#include "heed/crawl_engine.h"

/* Sockets watched at once (DNS and the one epoll descriptor of net). */
#define ENGINE_MAX_FDS 64
/* The longest poll() sleep, so a stop request is seen quickly. */
#define ENGINE_TICK_MS 200

/* A prepared answer on one of the pool's queues. */
struct pool_item {
	struct pool_item *next;
	heed_crawl_prep *p;
};

struct pool_queue {
	struct pool_item *head, *tail;
};

/* The threads that do prepared answers' work. lock guards the queues and
 * quit; the rest is the loop's thread's. */
struct pool {
	pthread_mutex_t lock;
	pthread_cond_t work; /* a job came in, or quit */
	struct pool_queue in, out;
	bool quit;
	int done_fd; /* an eventfd, readable while out has jobs */
	pthread_t *threads;
	unsigned started;
	size_t out_count; /* jobs given to the pool, not yet handed back */
};

struct engine {
	heed_crawl *c;
	heed_dns *dns;
	heed_net *net;
	const struct heed_crawl_options *opt;
	struct heed_logger log;
	int64_t last_progress_ms;
	struct pool pool;
	struct heed__indexer *indexer; /* NULL: the controller catches up */
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

/* ---- the pool ---- */

static void queue_push(struct pool_queue *q, struct pool_item *it)
{
	it->next = NULL;
	if (q->tail)
		q->tail->next = it;
	else
		q->head = it;
	q->tail = it;
}

static struct pool_item *queue_pop(struct pool_queue *q)
{
	struct pool_item *it = q->head;

	q->head = it->next;
	if (!q->head)
		q->tail = NULL;
	return it;
}

static void *pool_thread(void *ud)
{
	struct pool *pl = ud;
	const uint64_t one = 1;

	pthread_mutex_lock(&pl->lock);
	for (;;) {
		struct pool_item *it;
		bool was_empty;
		while (!pl->in.head && !pl->quit)
			pthread_cond_wait(&pl->work, &pl->lock);
		if (!pl->in.head)
			break;
		it = queue_pop(&pl->in);
		pthread_mutex_unlock(&pl->lock);
		heed_crawl_prep_run(it->p);
		pthread_mutex_lock(&pl->lock);
		was_empty = !pl->out.head;
		queue_push(&pl->out, it);
		/* The loop reads the eventfd before it takes the queue: a
		 * queue that was not empty has a wake-up pending already.
		 * The write fails only when the count would overflow. */
		if (was_empty) {
			ssize_t w = write(pl->done_fd, &one, sizeof(one));
			(void)w;
		}
	}
	pthread_mutex_unlock(&pl->lock);
	return NULL;
}

/* Starts n threads; false when none started. Signals stay the loop's:
 * a stop request reaches the thread that reads it. */
static bool pool_threads(struct pool *pl, unsigned n)
{
	sigset_t all, old;

	if (pthread_mutex_init(&pl->lock, NULL) != 0)
		return false;
	if (pthread_cond_init(&pl->work, NULL) != 0) {
		pthread_mutex_destroy(&pl->lock);
		return false;
	}
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	while (pl->started < n && pthread_create(&pl->threads[pl->started],
	                                         NULL, pool_thread, pl) == 0)
		pl->started++;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (pl->started)
		return true;
	pthread_cond_destroy(&pl->work);
	pthread_mutex_destroy(&pl->lock);
	return false;
}

/* Starts the pool's threads; none (every answer on the loop's thread)
 * when asked for none, with the caller's allocator (heed cannot know it
 * is thread-safe), or when they cannot start. */
static void pool_start(struct engine *e, const struct heed_allocator *alloc)
{
	struct pool *pl = &e->pool;
	unsigned n = e->opt->extract_threads;

	pl->done_fd = -1;
	if (n == 0 || (alloc && alloc != heed_allocator_default()))
		return;
	pl->threads =
	        heed__calloc(heed_allocator_default(), n, sizeof(*pl->threads));
	if (pl->threads)
		pl->done_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (pl->done_fd >= 0 && pool_threads(pl, n)) {
		if (pl->started < n)
			heed_log(&e->log, HEED_LOG_WARN, "crawl",
			         "%u of %u extraction threads started",
			         pl->started, n);
		return;
	}
	heed_log(&e->log, HEED_LOG_WARN, "crawl",
	         "no extraction threads: pages are read on the crawl's own");
	heed__free(heed_allocator_default(), pl->threads);
	pl->threads = NULL;
	if (pl->done_fd >= 0)
		close(pl->done_fd);
	pl->done_fd = -1;
}

/* Hands every job the pool has done back to the controller. */
static void pool_collect(struct engine *e)
{
	struct pool *pl = &e->pool;
	struct pool_item *done;
	uint64_t count;
	/* EAGAIN when no wake-up is pending: the queue says the same. */
	ssize_t got = read(pl->done_fd, &count, sizeof(count));

	(void)got;
	pthread_mutex_lock(&pl->lock);
	done = pl->out.head;
	pl->out.head = pl->out.tail = NULL;
	pthread_mutex_unlock(&pl->lock);
	while (done) {
		struct pool_item *it = done;
		struct heed_crawl_clock now = clock_now();
		done = it->next;
		heed_crawl_prepared(e->c, it->p, &now);
		heed__free(heed_allocator_default(), it);
		pl->out_count--;
	}
}

/* Answer r of req, given to the pool when it has work to prepare, with
 * its body when *body holds it (NULL after, the prepared answer's): true
 * when it was (or done at once, out of memory), false when the caller
 * answers it itself. */
static bool pool_give(struct engine *e, heed_crawl_req *req,
                      const struct heed_net_response *r, char **body)
{
	struct pool *pl = &e->pool;
	struct pool_item *it;
	heed_crawl_prep *p;

	if (!pl->started ||
	    !(p = heed_crawl_prepare_owned(e->c, req, r, *body)))
		return false;
	*body = NULL;
	it = heed__malloc(heed_allocator_default(), sizeof(*it));
	if (!it) {
		struct heed_crawl_clock now = clock_now();
		heed_crawl_prep_run(p);
		heed_crawl_prepared(e->c, p, &now);
		return true;
	}
	it->p = p;
	pthread_mutex_lock(&pl->lock);
	queue_push(&pl->in, it);
	pthread_cond_signal(&pl->work);
	pthread_mutex_unlock(&pl->lock);
	pl->out_count++;
	return true;
}

/* Waits for every job in the pool and hands it back. */
static void pool_drain(struct engine *e)
{
	struct pollfd fd = {.fd = e->pool.done_fd, .events = POLLIN};

	while (e->pool.out_count > 0) {
		if (poll(&fd, 1, ENGINE_TICK_MS) < 0 && errno != EINTR)
			break;
		pool_collect(e);
	}
}

static void pool_stop(struct pool *pl)
{
	if (!pl->started)
		return;
	pthread_mutex_lock(&pl->lock);
	pl->quit = true;
	pthread_cond_broadcast(&pl->work);
	pthread_mutex_unlock(&pl->lock);
	for (unsigned i = 0; i < pl->started; i++)
		pthread_join(pl->threads[i], NULL);
	pthread_cond_destroy(&pl->work);
	pthread_mutex_destroy(&pl->lock);
	close(pl->done_fd);
	heed__free(heed_allocator_default(), pl->threads);
}

/* ---- the loop ---- */

static void on_fetched(void *ud, const struct heed_net_response *r)
{
	struct pending *p = ud;
	struct heed_crawl_clock now;
	/* Taken only for the pool; r->body still reads it either way. */
	char *body =
	        p->e->pool.started ? heed_net_take_body(p->e->net, r) : NULL;

	if (!pool_give(p->e, p->req, r, &body)) {
		now = clock_now();
		heed_crawl_fetched(p->e->c, p->req, r, &now);
	}
	heed__free(heed_allocator_default(), body);
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
	/* Sent by the time the decision allowed for (heed/crawl.h), or
	 * not at all: a loop stalled between asking and sending must not
	 * send late. */
	req.send_by_ms = a->send_by_ms;
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
		int n, done = -1, timeout = dispatch(e, stop);
		if (timeout < 0)
			return;
		n = heed_dns_pollfds(e->dns, fds, ENGINE_MAX_FDS - 2);
		n += heed_net_pollfds(e->net, fds + n, ENGINE_MAX_FDS - 1 - n);
		if (e->pool.started) {
			done = n++;
			fds[done] = (struct pollfd){.fd = e->pool.done_fd,
			                            .events = POLLIN};
		}
		timeout = heed_net_timeout_ms(
		        e->net, heed_dns_timeout_ms(e->dns, timeout));
		/* On a poll error, process anyway: every wait has a
		 * deadline, so the loop stays bounded. */
		if (poll(fds, (nfds_t)n, timeout) < 0)
			memset(fds, 0, sizeof(fds));
		heed_dns_process(e->dns, fds, n);
		heed_net_process(e->net, fds, n);
		if (done >= 0 && fds[done].revents)
			pool_collect(e);
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

/* Where the store's writers run together, its search index is caught up
 * on a thread of its own; otherwise, or when that cannot start, by the
 * controller between its batches, as before. A qualifying run writes no
 * page: it needs neither the thread nor a second connection. */
static void index_beside(struct engine *e, heed_store *store)
{
	heed_status rc;

	if (e->opt->mode == HEED_CRAWL_QUALIFY)
		return;
	rc = heed__indexer_start(&e->indexer, store, &e->log);
	if (rc == HEED_OK)
		heed_crawl_index_beside(e->c);
	else if (rc != HEED_ENOTSUP)
		heed_log(&e->log, HEED_LOG_WARN, "crawl",
		         "the search index is caught up on the crawl's thread: "
		         "a second store connection could not open (%s)",
		         heed_strerror(rc));
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
		pool_start(&e, alloc);
	if (rc == HEED_OK)
		index_beside(&e, store);
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
	/* Every request lives until its answer is handed back. */
	pool_drain(&e);
	pool_stop(&e.pool);
	heed__indexer_stop(e.indexer);
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
