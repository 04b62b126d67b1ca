/*
 * The frontier as the controller sees it ("frontier and seen-URL
 * set on disk in the store"): URLs go into the store's frontier area and
 * come back a window at a time into their site's lane; every row ends
 * done (fetched, refused, given up) or dropped (a site limit, a site not
 * qualified); a URL that failed for a passing reason goes back into its
 * lane for a later try ("a transient failure never replaces a
 * good record").
 *
 * Invariant: a row is marked in flight before its request starts and done
 * only with its result, in the batch that stores the result, so after a
 * kill at most the rows in flight and the last batch are fetched again.
 */
#include <string.h>

#include "crawl/crawl-int.h"
#include "heed/store_visits.h"

/* The seen-table's second mark of a URL: judged not due in this run (its
 * first mark means queued, or out of the crawl). Never 0, the empty slot. */
static uint64_t not_due_mark(uint64_t fp)
{
	uint64_t m = fp ^ 0x9e3779b97f4a7c15ULL;

	return m ? m : 1;
}

void heed__queue_add(heed_crawl *c, const char *url, enum heed__job_kind kind,
                     int depth, const char *from, int64_t lastmod)
{
	heed__queue_add_seen(c, url, heed__seen_fingerprint(url), kind, depth,
	                     from, lastmod);
}

/* Queues url as heed__queue_add_seen does; judged: what its visit row,
 * read already, said of it (not read again then). */
static void queue_add(heed_crawl *c, const char *url, uint64_t fp,
                      enum heed__job_kind kind, int depth, const char *from,
                      int64_t lastmod, enum heed__judged judged)
{
	struct heed_frontier_entry fe = {
	        0,    url,     NULL, depth, (heed_frontier_kind)kind,
	        from, lastmod, 0};
	struct heed__site *s;
	heed_url_verdict v = HEED_URL_OK;

	/* Queued (or found queued) before, or of a site out of this crawl:
	 * the answer has not changed. */
	if (heed__seen_has(&c->seen, fp))
		return;
	/* Sitemaps and feeds are asked for by robots.txt or pages; the limits
	 * of links (depth, media extensions) apply to pages only. */
	if (kind == JOB_PAGE)
		v = heed_crawl_check_url(&c->opt->limits, url, depth);
	s = v == HEED_URL_OK ? heed__site_of_url(c, url, depth == 0 && !from)
	                     : NULL;
	if (!s) {
		/* Sites do not join during a run, but a limit may pass the
		 * same URL found at a lower depth. */
		if (v == HEED_URL_OK)
			heed__seen_add(&c->seen, fp);
		/* An oEmbed endpoint on a host the crawl does not cover is
		 * never asked: no site's robots.txt or delay would cover
		 * the request. */
		if (kind == JOB_OEMBED)
			c->p.oembed_other++;
		c->p.skipped++;
		heed_log(&c->log, HEED_LOG_DEBUG, "crawl",
		         "not queued: %s (%s)", url,
		         v != HEED_URL_OK     ? heed_url_verdict_name(v)
		         : kind == JOB_OEMBED ? "oEmbed endpoint of a site "
		                                "outside the crawl"
		                              : "other site");
		return;
	}
	if (depth == 0 && !from)
		s->in_scope = true;
	/* Known and not wanted now. A link to it again costs no look-up;
	 * a sitemap or feed date found later may still say it changed. */
	if (lastmod == HEED_STORE_NO_DATE &&
	    heed__seen_has(&c->seen, not_due_mark(fp)))
		return;
	if (judged == HEED__JUDGED_NOT
	            ? heed__visit_skip(c, s, url, kind, depth, lastmod)
	            : judged == HEED__JUDGED_NOT_DUE) {
		if (!heed__seen_has(&c->seen, not_due_mark(fp))) {
			heed__seen_add(&c->seen, not_due_mark(fp));
			c->p.not_due++;
		}
		/* A sitemap or feed still fresh is a source all the same. */
		if (kind != JOB_PAGE)
			s->has_source = true;
		return;
	}
	fe.host = s->origin;
	/* Touched now, whatever the answer: the batch that holds the row
	 * commits only if the host is still held. A host already lost is
	 * another worker's, whose queue takes rows from any worker. */
	if (!s->host->lease_lost)
		heed__worker_touch(c, s->host);
	if (!heed__batch_frontier_add(c, &fe))
		return;
	heed__seen_add(&c->seen, fp);
	if (!c->adds_untold++)
		c->adds_since_ms = c->now.mono_ms;
}

void heed__queue_add_seen(heed_crawl *c, const char *url, uint64_t fp,
                          enum heed__job_kind kind, int depth, const char *from,
                          int64_t lastmod)
{
	queue_add(c, url, fp, kind, depth, from, lastmod, HEED__JUDGED_NOT);
}

void heed__queue_add_judged(heed_crawl *c, const char *url,
                            enum heed__job_kind kind, int depth,
                            const char *from, int64_t lastmod,
                            enum heed__judged judged)
{
	queue_add(c, url, heed__seen_fingerprint(url), kind, depth, from,
	          lastmod, judged);
}

/* A URL of the site origin was new in the store. */
static void added_one(void *ud, const char *origin)
{
	heed_crawl *c = ud;
	struct heed__site *s = heed__site_find(c, origin);

	if (!s || c->failed != HEED_OK)
		return;
	if (s->state == SITE_OUT) {
		/* Not qualified in this process: the URL is kept, dropped, so
		 * that the site gets it back if a later process of the run
		 * qualifies it (resume_site below) or this one does after a
		 * lost batch (lifecycle.c). */
		c->p.skipped++;
		s->maybe_dropped = true;
		/* A write for the host, fenced like the rest: a worker
		 * whose lease ended must not drop the next holder's URL. */
		heed__worker_touch(c, s->host);
		heed__batch_frontier_drop(c, s->origin, NULL, "dropping a URL");
		return;
	}
	c->p.queued++;
	if (heed__sched_more(&c->sched, &s->lane, 0, c->now.mono_ms) != HEED_OK)
		heed__crawl_oom(c);
	/* A site of a resumed run waits for its first URL to start. */
	heed__site_list_new(c, s);
}

void heed__queue_take_added(heed_crawl *c)
{
	if (!c->adds_untold)
		return;
	c->adds_untold = 0;
	heed__batch_frontier_added(c, added_one, c);
}

/* URLs of a site the store knows, collected before any is queued: the
 * store's read ends before the frontier's writes start. */
struct known {
	heed_crawl *c;
	struct heed__site *s;
	char **urls;
	enum heed__job_kind *kinds;
	size_t count, cap;
	size_t rows;    /* read, of every kind, queued or not */
	size_t sources; /* sitemaps and feeds not seen before in this run */
};

/* Judges each row as it is read, as a link to its URL would be, so that
 * the URLs kept are queued without reading their rows again. An oEmbed
 * answer's row is only counted: its page queues it. */
static int collect_known(void *ud, const struct heed_visit *v)
{
	struct known *k = ud;
	const struct heed_allocator *a = k->c->alloc;
	uint64_t fp = heed__seen_fingerprint(v->url);
	enum heed__job_kind kind = (enum heed__job_kind)v->kind;

	k->rows++;
	/* Queued already (a start URL), or judged already. */
	if (v->kind == HEED_FRONTIER_OEMBED ||
	    heed__seen_has(&k->c->seen, fp) ||
	    heed__seen_has(&k->c->seen, not_due_mark(fp)))
		return 0;
	if (kind != JOB_PAGE)
		k->sources++;
	/* A page that is not due, or a sitemap or feed still fresh, costs
	 * nothing, not even a queue row; such a source is a source all the
	 * same. */
	if (heed__visit_skip_row(k->c, k->s, v, kind, 1, HEED_STORE_NO_DATE)) {
		heed__seen_add(&k->c->seen, not_due_mark(fp));
		k->c->p.not_due++;
		if (kind != JOB_PAGE)
			k->s->has_source = true;
		return 0;
	}
	if (k->count == k->cap) {
		size_t cap = k->cap ? k->cap * 2 : 64;
		char **urls = heed__realloc(a, k->urls, cap * sizeof(*urls));
		enum heed__job_kind *kinds;
		if (!urls)
			return 1;
		k->urls = urls;
		kinds = heed__realloc(a, k->kinds, cap * sizeof(*kinds));
		if (!kinds)
			return 1;
		k->kinds = kinds;
		k->cap = cap;
	}
	k->urls[k->count] = heed__strndup(a, v->url, strlen(v->url));
	k->kinds[k->count] = kind;
	return k->urls[k->count++] == NULL;
}

/* Queues the URLs collected whose kind is (pages) or is not (sources) a
 * page, in the order read. */
static void queue_collected(heed_crawl *c, struct heed__site *s,
                            const struct known *k, bool pages)
{
	for (size_t i = 0; i < k->count && c->failed == HEED_OK; i++)
		if (k->urls[i] && (k->kinds[i] == JOB_PAGE) == pages)
			queue_add(c, k->urls[i],
			          heed__seen_fingerprint(k->urls[i]),
			          k->kinds[i], 1, s->origin, HEED_STORE_NO_DATE,
			          HEED__JUDGED_WANTED);
}

void heed__queue_known(heed_crawl *c, struct heed__site *s)
{
	struct known k = {c, s, NULL, NULL, 0, 0, 0, 0};
	unsigned kinds = HEED_VISIT_SOURCES;
	heed_status rc;

	if (s->known_queued)
		return;
	s->known_queued = true;
	s->visits_none = false;
	/* Sitemaps and feeds are where a site says what changed: asked in
	 * both modes, conditionally (visits.c skips one still fresh). The
	 * default mode asks the known pages that are due too; a link to
	 * one that is not is skipped. The page limit caps what a run
	 * fetches. Read together, as one statement: the pages' read is the
	 * site's range of the key, which holds its sources. */
	if (c->mode == HEED_CRAWL_FULL && heed__arranged_load(c, s->host) &&
	    !heed__arranged_incremental(c, s))
		kinds = HEED_VISIT_ANY_KIND;
	rc = heed__read_visits_of_site(c, s->origin, kinds, collect_known, &k);
	s->known_sources = k.sources > 0;
	/* Every row of the site read, oEmbed answers included: none says
	 * the store knew nothing of it (visits_none). */
	if (rc == HEED_OK && kinds == HEED_VISIT_ANY_KIND)
		s->visits_none = k.rows == 0;
	queue_collected(c, s, &k, false);
	queue_collected(c, s, &k, true);
	for (size_t i = 0; i < k.count; i++)
		heed__free(c->alloc, k.urls[i]);
	heed__free(c->alloc, k.urls);
	heed__free(c->alloc, k.kinds);
}

/* Loads the next window of a site's queue into its lane. */
struct refill {
	heed_crawl *c;
	struct heed__site *s;
	int count;
};

static int refill_one(void *ud, const struct heed_frontier_entry *fe)
{
	struct refill *r = ud;
	struct heed__job job = {fe->id,      fe->url,
	                        fe->depth,   (enum heed__job_kind)fe->kind,
	                        fe->lastmod, fe->tries,
	                        0,           fe->discovered_from};

	r->s->last_loaded_id = fe->id;
	r->count++;
	if (heed__sched_push(&r->c->sched, &r->s->lane, &job, false,
	                     r->c->now.mono_ms) != HEED_OK) {
		heed__crawl_oom(r->c);
		return 1;
	}
	return 0;
}

/* A row of the windows of the sites read together. */
static int window_one(void *ud, size_t i, const struct heed_frontier_entry *fe)
{
	struct refill *r = ud;

	return refill_one(&r[i], fe);
}

/* At most this many windows a read: the lane next() handed out and the
 * lanes waiting for theirs, so that on PostgreSQL a crawl waits on one
 * answer where it waited on one a site. */
#define REFILLS_AT_ONCE 64

void heed__queue_refill(heed_crawl *c, struct heed__site *s)
{
	struct heed__lane *lanes[REFILLS_AT_ONCE];
	const char *origins[REFILLS_AT_ONCE];
	int64_t after[REFILLS_AT_ONCE];
	struct refill r[REFILLS_AT_ONCE];
	int window = (int)c->opt->limits.window;
	size_t n;

	/* The windows show the URLs held, so the lanes learn of them first:
	 * a lane told after its window holds them would look again. */
	heed__queue_take_added(c);
	lanes[0] = &s->lane;
	n = 1 +
	    heed__sched_take_refills(&c->sched, lanes + 1, REFILLS_AT_ONCE - 1);
	for (size_t i = 0; i < n; i++) {
		struct heed__site *si = heed__site_of_lane(lanes[i]);
		origins[i] = si->origin;
		after[i] = si->last_loaded_id;
		r[i] = (struct refill){c, si, 0};
	}
	heed__read_queue_windows(c, origins, after, n, window, window_one, r);
	for (size_t i = 0; i < n; i++)
		if (heed__sched_refilled(&c->sched, lanes[i],
		                         r[i].count == window,
		                         c->now.mono_ms) != HEED_OK)
			heed__crawl_oom(c);
}

void heed__queue_drop(heed_crawl *c, struct heed__site *s, const char *why)
{
	int64_t n = 0;

	heed__sched_drop(&c->sched, &s->lane);
	heed__acapref_dropped(c, s, why);
	heed__worker_touch(c, s->host);
	s->maybe_dropped = true;
	heed__batch_frontier_drop(c, s->origin, &n, "dropping a queue");
	c->p.queued = c->p.queued > n ? c->p.queued - n : 0;
	heed_log(&c->log, HEED_LOG_INFO, "crawl",
	         "%s: %s, %lld queued URLs dropped", s->origin, why,
	         (long long)n);
}

void heed__queue_finish(heed_crawl *c, const struct heed__site *s,
                        const struct heed__job *job, int outcome)
{
	if (!job->id)
		return;
	if (c->p.queued > 0)
		c->p.queued--;
	heed__batch_frontier_done(c, s->origin, job->id, outcome);
}

bool heed__queue_retry(heed_crawl *c, struct heed__site *s,
                       const struct heed__job *job, int outcome)
{
	struct heed__job again = *job;
	int tries = 0;

	if (!job->id || (unsigned)job->tries >= c->opt->limits.retries ||
	    s->lane.dropped) {
		heed_log(&c->log, HEED_LOG_INFO, "crawl",
		         "%s: given up after %d attempts (%d)", job->url,
		         job->tries + 1, outcome);
		c->p.errors++;
		c->run_errors++;
		heed__queue_finish(c, s, job, outcome);
		return false;
	}
	if (!heed__batch_frontier_retry(c, s->origin, job->id, &tries))
		return false;
	/* Last in its window: the site's politeness (its delay doubled by
	 * the failure) decides when, the other URLs go first. */
	again.tries = tries;
	c->p.retried++;
	if (heed__sched_push(&c->sched, &s->lane, &again, false,
	                     c->now.mono_ms) != HEED_OK)
		heed__crawl_oom(c);
	return true;
}

void heed__queue_forget(heed_crawl *c, struct heed__site *s)
{
	heed__sched_reset(&c->sched, &s->lane);
	heed__rules_free(&s->rules);
	heed__acapref_free(c, s);
	heed__site_set_state(c, s, SITE_NEW);
	s->last_loaded_id = 0;
	s->absent = 0; /* asked again when it starts again */
	s->asked = false;
}

/* Site r->s started again with the window r loaded. */
static void restart_one(heed_crawl *c, struct refill *r, int64_t requeued)
{
	struct heed__site *s = r->s;

	if (requeued)
		heed_log(&c->log, HEED_LOG_INFO, "crawl",
		         "%s: %lld URLs that were in flight queued again",
		         s->origin, (long long)requeued);
	if (heed__sched_refilled(&c->sched, &s->lane,
	                         r->count == (int)c->opt->limits.window,
	                         c->now.mono_ms) != HEED_OK)
		heed__crawl_oom(c);
	if (s->known_queued) {
		s->known_queued = false;
		heed__queue_known(c, s);
	}
	heed__site_list_new(c, s);
}

void heed__queue_restart(heed_crawl *c, struct heed__site **sites, size_t n)
{
	const char **origins;
	int64_t *requeued;
	struct refill *r;

	if (!n)
		return;
	origins = heed__calloc(c->alloc, n, sizeof(*origins));
	requeued = heed__calloc(c->alloc, n, sizeof(*requeued));
	r = heed__calloc(c->alloc, n, sizeof(*r));
	if (!origins || !requeued || !r) {
		heed__crawl_oom(c);
	} else {
		for (size_t i = 0; i < n; i++) {
			origins[i] = sites[i]->origin;
			sites[i]->last_loaded_id = 0;
			r[i] = (struct refill){c, sites[i], 0};
		}
		/* The windows show the URLs held, so the lanes learn of them
		 * first (heed__queue_refill). */
		if (heed__batch_frontier_recover(c, origins, n, requeued)) {
			heed__queue_take_added(c);
			heed__read_queue_windows(c, origins, NULL, n,
			                         (int)c->opt->limits.window,
			                         window_one, r);
		}
		for (size_t i = 0; i < n && c->failed == HEED_OK; i++)
			restart_one(c, &r[i], requeued[i]);
	}
	heed__free(c->alloc, origins);
	heed__free(c->alloc, requeued);
	heed__free(c->alloc, r);
}

/* ---- resuming an open run ---- */

/* A site of the open run, collected before any write: the store's reads
 * finish before the sites' lifecycles start writing. */
struct resumed {
	char *origin;
	int64_t queued, pages_done, dropped;
};

struct resume_list {
	heed_crawl *c;
	struct resumed *items;
	size_t count, cap;
};

static int collect_site(void *ud, const struct heed_frontier_host *fh)
{
	struct resume_list *l = ud;
	const struct heed_allocator *a = l->c->alloc;

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
	                         fh->queued, fh->pages_done, fh->dropped};
	return l->items[l->count++].origin == NULL;
}

/* Registers a site of the resumed run, in scope whether or not it still
 * has URLs queued (links to it are followed), with its queued URLs when it
 * has some. Its origin names it (an origin is a URL without a path). */
static void resume_site(heed_crawl *c, const struct resumed *r)
{
	struct heed__site *s = heed__site_of_url(c, r->origin, true);
	int64_t queued = r->queued;

	if (!s) {
		heed_log(&c->log, HEED_LOG_WARN, "crawl",
		         "resuming: '%s' is not a site; its URLs are left",
		         r->origin);
		return;
	}
	s->in_scope = true;
	/* A process of the run dropped the site's queue (not qualified, or
	 * at a limit) and was killed: the site starts again as if its URLs
	 * were still queued, and its lifecycle decides anew. Left dropped,
	 * a site whose whole queue was dropped would never start: its URLs
	 * are known, so neither its seed nor a link brings them back. */
	if (r->dropped) {
		int64_t n = 0;
		s->maybe_dropped = true; /* the undrop may be lost with
		                          * its batch */
		if (!heed__batch_frontier_undrop(c, s->origin, &n))
			return;
		queued += n;
	}
	if (!queued) {
		s->lane.pages += r->pages_done;
		return;
	}
	if (heed__sched_more(&c->sched, &s->lane, r->pages_done,
	                     c->now.mono_ms) != HEED_OK) {
		heed__crawl_oom(c);
		return;
	}
	c->p.queued += queued;
}

heed_status heed__queue_resume(heed_crawl *c)
{
	struct resume_list l = {c, NULL, 0, 0};
	heed_status rc = heed__read_queued_hosts(c, collect_site, &l);

	for (size_t i = 0; i < l.count; i++) {
		if (rc == HEED_OK && l.items[i].origin)
			resume_site(c, &l.items[i]);
		heed__free(c->alloc, l.items[i].origin);
	}
	heed__free(c->alloc, l.items);
	return rc;
}
