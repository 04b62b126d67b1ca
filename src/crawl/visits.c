/*
 * The crawl's memory of each URL between runs ("recrawls that
 * cost a site almost nothing"): the store's visits area
 * (heed/store_visits.h) read before a request and written after its
 * answer.
 *
 * Before: a known URL that is not due on its revisit schedule is not
 * queued (pages in the default mode; a sitemap or feed only while the
 * site's Cache-Control keeps it fresh), and one that is requested carries
 * the validators of its last 2xx answer (If-None-Match, If-Modified-Since;
 * RFC 9110 13.1). After: the answer's validators and body digest, what the
 * visit found (new, changed, unchanged, failed) and the next due date from
 * heed/revisit.h.
 *
 * A page's validators are kept only while heed holds its record, so a 304
 * always confirms a record heed has; one that is no longer indexed is
 * asked for whole when it is due.
 */
#include <stdlib.h>
#include <string.h>

#include "crawl/crawl-int.h"
#include "heed/store_visits.h"

/* A sitemap's or feed's own freshness is honoured up to a day, as RFC 9309
 * 2.4 bounds the caching of robots.txt. */
#define VISIT_MAX_FRESH_S 86400

/* Reads the row of url, a URL of s asked tries times before in this run;
 * false when there is none (a store error is recorded). A site the store
 * knew nothing of has no row but those this run wrote (visits_none), and
 * the run writes one only for a URL it asked, which it asks again only
 * as a retry. */
static bool visit_get(heed_crawl *c, const struct heed__site *s,
                      const char *url, int tries, struct heed_visit *v)
{
	if ((s->visits_none && tries == 0) ||
	    (s->absent & HEED_STORE_KNOWN_VISITS))
		return false;
	return heed__read_visit(c, s->origin, url, v) == HEED_OK;
}

/* The row of job's URL, or NULL when there is none: read once for the
 * job's request and kept with it (heed__visit_read), or, for a job without
 * one, read into *tmp, which the caller then clears (visit_done). */
static const struct heed_visit *job_visit(heed_crawl *c,
                                          const struct heed__site *s,
                                          const struct heed__job *job,
                                          struct heed_visit *tmp)
{
	struct heed__visit_read *k = job->visit;

	if (k && k->state != VISIT_UNREAD)
		return k->state == VISIT_KNOWN ? &k->row : NULL;
	if (!visit_get(c, s, job->url, job->tries, k ? &k->row : tmp)) {
		if (k && c->failed == HEED_OK)
			k->state = VISIT_NONE;
		return NULL;
	}
	if (!k)
		return tmp;
	k->state = VISIT_KNOWN;
	return &k->row;
}

static void visit_done(heed_crawl *c, const struct heed__job *job,
                       const struct heed_visit *v, struct heed_visit *tmp)
{
	if (v && v == tmp && !job->visit)
		heed_store_visit_clear(c->store, tmp);
}

/* The row was rewritten: the kept read is stale. */
static void visit_forget(heed_crawl *c, const struct heed__job *job)
{
	struct heed__visit_read *k = job->visit;

	if (!k)
		return;
	if (k->state == VISIT_KNOWN)
		heed_store_visit_clear(c->store, &k->row);
	k->state = VISIT_UNREAD;
}

static int found_one(void *ud, const struct heed_visit *v)
{
	(void)v;
	*(bool *)ud = true;
	return 1;
}

/* Does the store know a sitemap or feed of site s? */
static bool has_sources(heed_crawl *c, const struct heed__site *s)
{
	bool found = false;

	heed__read_visits_of_site(c, s->origin, HEED_VISIT_SOURCES, found_one,
	                          &found);
	return found;
}

bool heed__visit_skip_row(heed_crawl *c, const struct heed__site *s,
                          const struct heed_visit *v, enum heed__job_kind kind,
                          int depth, int64_t hint)
{
	int64_t now = heed__crawl_unix_s(c);
	bool skip;

	if (c->opt->refresh_all || heed_revisit_hinted(&v->sched, hint))
		skip = false; /* the site says it changed since */
	else if (kind != JOB_PAGE)
		skip = v->fresh_until != HEED_REVISIT_NO_DATE &&
		       now < v->fresh_until;
	else if (depth == 0)
		/* A start page is where a site says what is new: always
		 * asked in the default mode; in the incremental mode only
		 * when due once its sitemaps or feeds are known, which say
		 * the same more cheaply. */
		skip = c->mode == HEED_CRAWL_INCREMENTAL &&
		       !heed_revisit_is_due(&v->sched, now) &&
		       has_sources(c, s);
	else
		skip = c->mode == HEED_CRAWL_FULL &&
		       !heed_revisit_is_due(&v->sched, now);
	if (skip)
		heed_log(&c->log, HEED_LOG_DEBUG, "crawl", "not due: %s",
		         v->url);
	return skip;
}

bool heed__visit_skip(heed_crawl *c, const struct heed__site *s,
                      const char *url, enum heed__job_kind kind, int depth,
                      int64_t hint)
{
	struct heed_visit v;
	bool skip;

	/* A URL this run asked is in the frontier already: whatever is
	 * said here, queueing it again changes nothing. */
	if (c->opt->refresh_all || !visit_get(c, s, url, 0, &v))
		return false;
	skip = heed__visit_skip_row(c, s, &v, kind, depth, hint);
	heed_store_visit_clear(c->store, &v);
	return skip;
}

/* A URL of heed__visit_judge and its place in the list. */
struct judged_url {
	const char *url;
	size_t i;
};

static int by_url(const void *a, const void *b)
{
	return strcmp(((const struct judged_url *)a)->url,
	              ((const struct judged_url *)b)->url);
}

struct judging {
	heed_crawl *c;
	const struct heed__site *s;
	const int64_t *hints;
	int depth;
	struct judged_url *sorted; /* the URLs of s, by URL */
	size_t n;
	enum heed__judged *out;
};

/* A row read: the verdict of each place its URL holds in the list. */
static int judge_row(void *ud, const struct heed_visit *v)
{
	struct judging *j = ud;
	struct judged_url key = {v->url, 0};
	struct judged_url *at =
	        bsearch(&key, j->sorted, j->n, sizeof(*j->sorted), by_url);
	struct judged_url *end = j->sorted + j->n;

	if (!at)
		return 0;
	while (at > j->sorted && strcmp(at[-1].url, v->url) == 0)
		at--;
	for (; at < end && strcmp(at->url, v->url) == 0; at++)
		j->out[at->i] = heed__visit_skip_row(j->c, j->s, v, JOB_PAGE,
		                                     j->depth, j->hints[at->i])
		                        ? HEED__JUDGED_NOT_DUE
		                        : HEED__JUDGED_WANTED;
	return 0;
}

/* Whether url is of the site whose origin is origin (len bytes). */
static bool of_origin(const char *url, const char *origin, size_t len)
{
	return strncmp(url, origin, len) == 0 && url[len] == '/';
}

void heed__visit_judge(heed_crawl *c, const struct heed__site *s,
                       const char *const *urls, const int64_t *hints, size_t n,
                       int depth, enum heed__judged *out)
{
	struct judging j = {c, s, hints, depth, NULL, 0, out};
	size_t len = strlen(s->origin);
	const char **ask = NULL;

	for (size_t i = 0; i < n; i++)
		out[i] = HEED__JUDGED_NOT;
	if (n == 0 ||
	    !(j.sorted = heed__malloc(c->alloc, n * sizeof(*j.sorted))) ||
	    !(ask = heed__malloc(c->alloc, n * sizeof(*ask))))
		goto done;
	for (size_t i = 0; i < n; i++)
		if (of_origin(urls[i], s->origin, len))
			j.sorted[j.n++] = (struct judged_url){urls[i], i};
	qsort(j.sorted, j.n, sizeof(*j.sorted), by_url);
	for (size_t k = 0; k < j.n; k++)
		ask[k] = j.sorted[k].url;
	/* As visit_get: no row to read is a URL to ask. */
	if (!c->opt->refresh_all && !s->visits_none &&
	    !(s->absent & HEED_STORE_KNOWN_VISITS) &&
	    heed__read_visits_of_urls(c, s->origin, ask, j.n, judge_row, &j) !=
	            HEED_OK) {
		for (size_t i = 0; i < n; i++)
			out[i] = HEED__JUDGED_NOT;
		goto done;
	}
	for (size_t k = 0; k < j.n; k++)
		if (out[j.sorted[k].i] == HEED__JUDGED_NOT)
			out[j.sorted[k].i] = HEED__JUDGED_WANTED;
done:
	heed__free(c->alloc, ask);
	heed__free(c->alloc, j.sorted);
}

void heed__visit_headers(heed_crawl *c, const struct heed__site *s,
                         struct heed_crawl_req *req, bool whole)
{
	struct heed_visit tmp;
	const struct heed_visit *v;

	if (c->opt->refresh_all || whole || req->job.kind == JOB_ROBOTS)
		return;
	v = job_visit(c, s, &req->job, &tmp);
	if (!v)
		return;
	heed__req_validators(c, req, v->etag, v->last_modified);
	visit_done(c, &req->job, v, &tmp);
}

/* The freshness the site gave a sitemap or feed, bounded to a day. */
static int64_t fresh_until(const struct heed_net_response *r, int64_t now)
{
	int64_t life =
	        heed_net_fresh_for(r->cache_control, r->expires, r->date, now);

	if (life <= 0)
		return HEED_REVISIT_NO_DATE;
	return now + (life < VISIT_MAX_FRESH_S ? life : VISIT_MAX_FRESH_S);
}

/* The row to write after answer r: row (the stored one, or a new one) with
 * what the answer said. Its strings are borrowed from row, job, s and r. */
static struct heed_visit next_row(const heed_crawl *c, struct heed__site *s,
                                  const struct heed__job *job,
                                  const struct heed_net_response *r,
                                  const struct heed__visit_found *found,
                                  heed_revisit_outcome outcome,
                                  const struct heed_visit *row)
{
	struct heed_visit w = *row;

	w.url = (char *)job->url;
	w.site = s->origin;
	w.kind = (heed_frontier_kind)job->kind;
	w.status = r->status;
	w.last_outcome = outcome;
	w.run_id = c->run_id;
	w.visits = row->visits + 1;
	if (outcome == HEED_REVISIT_NEW || outcome == HEED_REVISIT_CHANGED)
		w.changes = row->changes + 1;
	if (found->digest)
		w.digest = (char *)found->digest;
	if (found->body) {
		/* A 2xx: its validators replace the old ones (a page's only
		 * while its record is kept). */
		w.etag = found->keep_validators ? (char *)r->etag : NULL;
		w.last_modified = found->keep_validators
		                          ? (char *)r->last_modified
		                          : NULL;
	} else if (!found->keep_validators) {
		w.etag = w.last_modified = NULL;
	}
	if (job->kind != JOB_PAGE && r->status >= 200 && r->status < 400)
		w.fresh_until = fresh_until(r, heed__crawl_unix_s(c));
	return w;
}

void heed__visit_record(heed_crawl *c, struct heed__site *s,
                        const struct heed__job *job,
                        const struct heed_net_response *r,
                        const struct heed__visit_found *found)
{
	int64_t now = heed__crawl_unix_s(c);
	struct heed_visit row, w, tmp;
	struct heed_revisit_visit seen = {found->outcome, now,
	                                  found->modified_at};
	const struct heed_visit *kept = job_visit(c, s, job, &tmp);
	bool known = kept != NULL;

	if (c->failed != HEED_OK)
		return;
	if (known) {
		row = *kept; /* its strings stay the kept row's */
	} else {
		memset(&row, 0, sizeof(row));
		row.fresh_until = HEED_REVISIT_NO_DATE;
		row.sched.checked_at = row.sched.changed_at =
		        HEED_REVISIT_NO_DATE;
		if (seen.outcome == HEED_REVISIT_CHANGED)
			seen.outcome = HEED_REVISIT_NEW;
	}
	heed_revisit_after(&c->opt->revisit, &row.sched, &seen, &row.sched);
	if (found->due_now)
		row.sched.due_at = now;
	w = next_row(c, s, job, r, found, seen.outcome, &row);
	heed__batch_visit_put(c, &w);
	visit_done(c, job, kept, &tmp);
	visit_forget(c, job);
}

bool heed__visit_same_body(heed_crawl *c, const struct heed__site *s,
                           const struct heed__job *job,
                           const struct heed_net_response *r,
                           const char *digest)
{
	struct heed_visit tmp;
	const struct heed_visit *v;
	bool same;

	if (c->opt->refresh_all)
		return false;
	v = job_visit(c, s, job, &tmp);
	if (!v)
		return false;
	same = heed__digest_matches(v->digest, digest, r->body, r->body_len);
	visit_done(c, job, v, &tmp);
	return same;
}

void heed__visit_known_digest(heed_crawl *c, const struct heed__site *s,
                              const struct heed__job *job,
                              char known[CRAWL_KNOWN_DIGEST])
{
	struct heed_visit tmp;
	const struct heed_visit *v;

	known[0] = '\0';
	if (c->opt->refresh_all)
		return;
	v = job_visit(c, s, job, &tmp);
	/* One longer than any heed wrote is left to the comparison made
	 * afterwards on the loop's thread. */
	if (v && v->digest && strlen(v->digest) < CRAWL_KNOWN_DIGEST)
		strcpy(known, v->digest);
	visit_done(c, job, v, &tmp);
}
