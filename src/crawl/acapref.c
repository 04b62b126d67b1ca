/*
 * The files ACAP-permissions-reference fields name (ACAP 1.1 2.3.2;
 * docs/acap.md, docs/robots-lifecycle.md). Until such a file is
 * added to the rules, every usage is prohibited for the crawlers its record
 * speaks to; so when one speaks to heed, the crawl asks for it.
 *
 * When: right after robots.txt, before any page of the site. The requests
 * are jobs at the front of the site's lane, so they take the path every
 * request takes (politeness, the courtesy witness, the per-address
 * budget), and the lane's pages, which start one at a time behind them,
 * are judged only once every reference has answered. They are asked
 * whenever robots.txt was asked in this run (conditionally, with the
 * stored validators), and in a run that reuses the stored robots.txt only
 * when the store has no row for them, or one older than that robots.txt
 * (a run killed between robots.txt and the reference; `heed site
 * qualify`, which asks for robots.txt only). Every other run adds the
 * stored files, so a resumed run judges as the first did.
 *
 * Where: a locator is resolved against the site's origin. A file on the
 * site itself is asked in its lane. A file on another site is asked in
 * that site's lane, as any request to it is: only once that site is
 * qualified, with its addresses known, and only if its own rules allow
 * the URL (its robots.txt and ACAP fields for heed); meanwhile the
 * referring site's lane stays held, so its pages still wait. A redirect
 * is followed on the site it was asked on, up to the robots.txt limit.
 *
 * Failures: anything but a 2xx read whole (or a 304 confirming the stored
 * file) keeps the prohibition, as does a file whose site is not crawled
 * or whose rules refuse it. Each outcome is logged once, counted, and
 * stored with its reason for `heed site report`; a failed one is asked
 * again at the next robots.txt re-check, never in a loop.
 *
 * acapref.c sits below queue.c, whose heed__queue_drop gives up the files
 * asked in a dropped lane, and below lifecycle.c, which starts it.
 */
#include <stdio.h>
#include <string.h>

#include "crawl/crawl-int.h"
#include "heed/url.h"

static void ref_free(heed_crawl *c, struct heed__acapref *r)
{
	heed__free(c->alloc, r->locator);
	heed__free(c->alloc, r->url);
	heed__free(c->alloc, r->etag);
	heed__free(c->alloc, r->last_modified);
	heed__free(c->alloc, r->stored);
}

void heed__acapref_free(heed_crawl *c, struct heed__site *s)
{
	for (size_t i = 0; i < s->ref_count; i++)
		ref_free(c, &s->refs[i]);
	heed__free(c->alloc, s->refs);
	s->refs = NULL;
	s->ref_count = 0;
}

/* The absolute URL of locator on s ("/x.txt", "x.txt" or a URI), into
 * buf; false when it is no http(s) URL. */
static bool resolve(heed_crawl *c, const struct heed__site *s,
                    const char *locator, char *buf, size_t size)
{
	heed_url *base = NULL;
	size_t len = 0;
	bool ok;
	char root[HEED_URL_MAX_BYTES + 1];

	snprintf(root, sizeof(root), "%s/", s->origin);
	if (heed_url_parse(&base, root, strlen(root), c->alloc) != HEED_OK)
		return false;
	ok = heed_url_resolve_buf(base, locator, strlen(locator), buf, size,
	                          &len) == HEED_OK;
	heed_url_free(base);
	return ok;
}

/* The reference is not in force: logged once, counted, stored with why. */
static void failed(heed_crawl *c, const struct heed__site *s,
                   const char *locator, const char *url, int status,
                   const char *why)
{
	struct heed_store_acap_ref row = {0};

	row.site = s->origin;
	row.locator = (char *)locator;
	row.url = (char *)url;
	row.http_status = status;
	row.fetched_s = heed__crawl_unix_s(c);
	snprintf(row.detail, sizeof(row.detail),
	         "%.100s: its crawlers stay prohibited", why);
	c->p.acap_ref_failures++;
	heed_log(&c->log, HEED_LOG_WARN, "crawl",
	         "%s: ACAP permissions reference %s: %s", s->origin, locator,
	         row.detail);
	heed__batch_acap_ref_put(c, &row);
}

/* Adds a file to the rules in force. */
static void add(heed_crawl *c, struct heed__site *s, const char *locator,
                const char *body, size_t len)
{
	heed_status rc = heed_acap_add_reference(s->rules.acap, locator,
	                                         body ? body : "", len);

	/* EINVAL: added already (a locator written twice); ENOTFOUND: a
	 * stored row the robots.txt in force no longer names. */
	if (rc == HEED_ENOMEM)
		heed__crawl_oom(c);
}

/* Adds an entry for locator at url to s->refs, asked in s's lane for
 * referrer (NULL: s itself); false when out of memory. */
static bool ask(heed_crawl *c, struct heed__site *s,
                struct heed__site *referrer, const char *locator,
                const char *url, const struct heed_store_acap_ref *row)
{
	struct heed__acapref *grown = heed__realloc(
	        c->alloc, s->refs, (s->ref_count + 1) * sizeof(*grown));
	struct heed__acapref *r;
	bool ok;

	if (!grown) {
		heed__crawl_oom(c);
		return false;
	}
	s->refs = grown;
	r = &s->refs[s->ref_count];
	memset(r, 0, sizeof(*r));
	r->referrer = referrer;
	r->locator = heed__strndup(c->alloc, locator, strlen(locator));
	r->url = heed__strndup(c->alloc, url, strlen(url));
	ok = r->locator && r->url;
	/* Validators belong to the URL and body they came with. */
	if (ok && row && row->body && row->url && strcmp(row->url, url) == 0 &&
	    (row->etag || row->last_modified)) {
		r->stored = heed__strndup(c->alloc, row->body, row->body_len);
		r->stored_len = row->body_len;
		r->etag = row->etag ? heed__strndup(c->alloc, row->etag,
		                                    strlen(row->etag))
		                    : NULL;
		r->last_modified =
		        row->last_modified
		                ? heed__strndup(c->alloc, row->last_modified,
		                                strlen(row->last_modified))
		                : NULL;
		ok = r->stored && (!row->etag || r->etag) &&
		     (!row->last_modified || r->last_modified);
	}
	if (!ok) {
		ref_free(c, r);
		heed__crawl_oom(c);
		return false;
	}
	s->ref_count++;
	return true;
}

/* The job that asks for s->refs[i], marked queued. */
static struct heed__job ref_job(struct heed__site *s, size_t i)
{
	struct heed__job job = {0,
	                        s->refs[i].url,
	                        (int)s->refs[i].hops,
	                        JOB_ACAPREF,
	                        HEED_STORE_NO_DATE,
	                        0,
	                        i};

	s->refs[i].pushed = true;
	return job;
}

static void push(heed_crawl *c, struct heed__site *s, size_t i, bool front)
{
	struct heed__job job = ref_job(s, i);

	if (heed__sched_push(&c->sched, &s->lane, &job, front,
	                     c->now.mono_ms) != HEED_OK)
		heed__crawl_oom(c);
}

/* After t's own files queued (its rules must hold them before another
 * site's file is judged by them), before its pages. */
static void push_after(heed_crawl *c, struct heed__site *t, size_t i)
{
	struct heed__job job = ref_job(t, i);

	if (heed__sched_push_after(&c->sched, &t->lane, &job, JOB_ACAPREF,
	                           c->now.mono_ms) != HEED_OK)
		heed__crawl_oom(c);
}

void heed__acapref_release(heed_crawl *c, struct heed__site *s)
{
	heed_status rc;

	if (s->state != SITE_READY || !s->lane.held)
		return;
	/* Waiting for files asked elsewhere, its pages still wait; but the
	 * files in its own lane (its own, or those of a site waiting for
	 * it in turn) may go, so that two sites naming each other's files
	 * never wait for each other. */
	if (s->refs_waiting) {
		s->lane.refs_only = true;
		rc = heed__sched_offer(&c->sched, &s->lane, c->now.mono_ms);
	} else {
		rc = heed__sched_hold(&c->sched, &s->lane, false,
		                      c->now.mono_ms);
	}
	if (rc != HEED_OK)
		heed__crawl_oom(c);
}

/* r's fate is known: the site that asked for it may go on. */
static void settle(heed_crawl *c, struct heed__acapref *r)
{
	struct heed__site *owner = r->referrer;

	if (r->settled)
		return;
	r->settled = true;
	if (!owner)
		return;
	if (owner->refs_waiting)
		owner->refs_waiting--;
	heed__acapref_release(c, owner);
}

void heed__acapref_forget_waits(heed_crawl *c, struct heed__site *s)
{
	for (size_t i = 0; i < s->ref_count; i++)
		if (s->refs[i].referrer)
			settle(c, &s->refs[i]);
}

/* A file asked for another site that will not be asked after all. */
static void give_up(heed_crawl *c, struct heed__acapref *r, const char *why)
{
	failed(c, r->referrer, r->locator, r->url, 0, why);
	settle(c, r);
}

bool heed__acapref_permitted(heed_crawl *c, struct heed__site *s,
                             const struct heed__job *job)
{
	struct heed__acapref *r;

	if (job->address >= s->ref_count)
		return false;
	r = &s->refs[job->address];
	/* A site's own file is part of its policy, as robots.txt is: never
	 * judged by the rules it completes. Another site's is a request to
	 * this one like any other. */
	if (!r->referrer ||
	    heed__rules_may_crawl(&s->rules, c->opt->agent_token, job->url,
	                          heed__crawl_unix_s(c)))
		return true;
	give_up(c, r, "refused by its own site's robots.txt: not asked");
	return false;
}

void heed__acapref_dropped(heed_crawl *c, struct heed__site *s, const char *why)
{
	char text[120];

	for (size_t i = 0; i < s->ref_count; i++) {
		if (!s->refs[i].referrer || s->refs[i].settled)
			continue;
		snprintf(text, sizeof(text), "its site is not crawled (%.60s)",
		         why);
		give_up(c, &s->refs[i], text);
	}
}

/* A file on another site: asked in that site's lane, after its
 * robots.txt; s waits for it. */
static void elsewhere(heed_crawl *c, struct heed__site *s, const char *locator,
                      const char *url, const struct heed_store_acap_ref *row)
{
	struct heed__site *t = heed__site_of_url(c, url, false);
	heed_url *u = NULL;
	size_t i;

	if (!t && heed_url_parse(&u, url, strlen(url), c->alloc) == HEED_OK) {
		t = heed__site_get(c, heed_url_origin(u), heed_url_hostname(u));
		if (!t)
			heed__crawl_oom(c);
	}
	heed_url_free(u);
	if (!t)
		return;
	if (t->state == SITE_OUT || t->lane.dropped) {
		failed(c, s, locator, url, 0,
		       "its site is not crawled in this run: not asked");
		return;
	}
	/* A worker asks only hosts it holds (worker.c); waiting for a host
	 * another worker holds could keep s here for good. */
	if (heed__worker_on(c) && !t->host->leased) {
		failed(c, s, locator, url, 0,
		       "its host is held by another worker: not asked");
		return;
	}
	i = t->ref_count;
	if (!ask(c, t, s, locator, url, row))
		return;
	s->refs_waiting++;
	/* Before t's own files and pages, once t is qualified (its
	 * heed__acapref_start queues it then); at once when it is. */
	if (t->state == SITE_RESOLVING || t->state == SITE_READY)
		push_after(c, t, i);
	else
		heed__site_list_new(c, t);
	heed_log(&c->log, HEED_LOG_INFO, "crawl",
	         "%s: ACAP permissions reference %s: asked from %s once its "
	         "robots.txt allows it",
	         s->origin, locator, t->origin);
}

static bool listed_before(const heed_acap *a, size_t i, const char *locator)
{
	for (size_t k = 0; k < i; k++)
		if (strcmp(heed_acap_reference_get(a, k), locator) == 0)
			return true;
	return false;
}

/* One reference that speaks to heed: its stored file added, or asked. */
static void start_one(heed_crawl *c, struct heed__site *s, const char *locator,
                      bool fetched, int64_t robots_date_s)
{
	struct heed_store_acap_ref row;
	char url[HEED_URL_MAX_BYTES + 1];
	heed_status rc = heed__read_acap_ref(c, s->origin, locator, &row);

	if (rc != HEED_OK && rc != HEED_ENOTFOUND)
		return;
	if (rc == HEED_OK && !fetched && row.fetched_s >= robots_date_s) {
		if (row.body)
			add(c, s, locator, row.body, row.body_len);
		heed_store_acap_ref_clear(c->store, &row);
		return;
	}
	if (!resolve(c, s, locator, url, sizeof(url)))
		failed(c, s, locator, NULL, 0, "not an http(s) URL: not asked");
	else if (heed__site_of_url(c, url, false) == s)
		ask(c, s, NULL, locator, url, rc == HEED_OK ? &row : NULL);
	else if (c->mode != HEED_CRAWL_QUALIFY)
		elsewhere(c, s, locator, url, rc == HEED_OK ? &row : NULL);
	heed_store_acap_ref_clear(c->store, &row);
}

/* Rows of locators the robots.txt just read no longer names for heed. */
struct stale {
	heed_crawl *c;
	const heed_acap *acap;
	char *names[16];
	size_t count;
};

static void collect_stale(void *ud, const struct heed_store_acap_ref *r)
{
	struct stale *st = ud;
	const heed_acap *a = st->acap;

	for (size_t i = 0; a && i < heed_acap_reference_count(a); i++)
		if (heed_acap_reference_applies(a, i,
		                                st->c->opt->agent_token) &&
		    strcmp(heed_acap_reference_get(a, i), r->locator) == 0)
			return;
	if (st->count < HEED_ARRAY_SIZE(st->names))
		st->names[st->count++] = heed__strndup(st->c->alloc, r->locator,
		                                       strlen(r->locator));
}

static void prune(heed_crawl *c, struct heed__site *s)
{
	struct stale st = {c, s->rules.acap, {0}, 0};

	heed__read_acap_refs(c, s->origin, collect_stale, &st);
	for (size_t i = 0; i < st.count; i++) {
		if (st.names[i])
			heed__batch_acap_ref_delete(c, s->origin, st.names[i]);
		heed__free(c->alloc, st.names[i]);
	}
}

void heed__acapref_start(heed_crawl *c, struct heed__site *s, bool fetched,
                         int64_t robots_date_s)
{
	const heed_acap *a = s->rules.acap;
	size_t n = a ? heed_acap_reference_count(a) : 0;
	size_t first = s->ref_count; /* entries before: other sites' */
	unsigned taken = 0;

	if (fetched)
		prune(c, s);
	for (size_t i = 0; i < n && c->failed == HEED_OK; i++) {
		const char *loc = heed_acap_reference_get(a, i);
		if (!heed_acap_reference_applies(a, i, c->opt->agent_token) ||
		    listed_before(a, i, loc))
			continue;
		if (++taken > CRAWL_MAX_ACAP_REFS) {
			if (fetched) /* said once per robots.txt read */
				failed(c, s, loc, NULL, 0,
				       "more permissions references than heed "
				       "reads per site: not asked");
		} else
			start_one(c, s, loc, fetched, robots_date_s);
	}
	/* `heed site qualify` asks for robots.txt only. */
	if (c->mode == HEED_CRAWL_QUALIFY)
		return;
	/* Files other sites asked here go after this site's own ones, and
	 * both before any page. */
	for (size_t i = first; i-- > 0;)
		if (!s->refs[i].pushed && !s->refs[i].settled)
			push(c, s, i, true);
	for (size_t i = s->ref_count; i-- > first;)
		push(c, s, i, true);
}

void heed__acapref_headers(heed_crawl *c, struct heed__site *s,
                           struct heed_crawl_req *req)
{
	struct heed__acapref *r = &s->refs[req->job.address];

	r->conditional =
	        r->stored && strcmp(r->url, req->job.url) == 0 &&
	        heed__req_validators(c, req, r->etag, r->last_modified) > 0;
}

/* The file is in force: added to the rules and stored. */
static void read_ok(heed_crawl *c, struct heed__site *s,
                    const struct heed__acapref *r,
                    const struct heed_net_response *rs, const char *body,
                    size_t len)
{
	struct heed_store_acap_ref row = {0};
	bool confirmed = rs->status == 304;

	add(c, s, r->locator, body, len);
	row.site = s->origin;
	row.locator = r->locator;
	row.url = r->url;
	row.http_status = rs->status;
	row.fetched_s = heed__crawl_unix_s(c);
	row.body = (char *)body;
	row.body_len = len;
	/* RFC 9110 15.4.5: a 304 may carry newer validators. */
	row.etag = (char *)(rs->etag ? rs->etag : confirmed ? r->etag : NULL);
	row.last_modified = (char *)(rs->last_modified ? rs->last_modified
	                             : confirmed       ? r->last_modified
	                                               : NULL);
	snprintf(row.detail, sizeof(row.detail), "%s",
	         confirmed ? "HTTP 304: the stored file confirmed, in force"
	                   : "in force");
	c->p.acap_refs++;
	heed_log(&c->log, HEED_LOG_INFO, "crawl",
	         "%s: ACAP permissions reference %s read (HTTP %d, %zu bytes)",
	         s->origin, r->locator, rs->status, len);
	heed__batch_acap_ref_put(c, &row);
}

/* A redirect on the site is followed, up to robots.txt's limit. */
static bool follow(heed_crawl *c, struct heed__site *s, size_t i,
                   const struct heed_net_response *rs)
{
	struct heed__acapref *r = &s->refs[i];
	char *url;

	if (!rs->location || r->hops >= c->opt->site.max_redirects ||
	    heed__site_of_url(c, rs->location, false) != s)
		return false;
	url = heed__strndup(c->alloc, rs->location, strlen(rs->location));
	if (!url) {
		heed__crawl_oom(c);
		return true;
	}
	heed__free(c->alloc, r->url);
	r->url = url;
	r->hops++;
	push(c, s, i, true);
	return true;
}

/* The answer to r, asked in s's lane for owner; false when a redirect
 * is followed (r is asked again). */
static bool answered(heed_crawl *c, struct heed__site *s,
                     struct heed__site *owner, size_t i,
                     const struct heed_net_response *rs)
{
	struct heed__acapref *r = &s->refs[i];
	char why[200];
	bool cut = rs->truncated ||
	           (rs->error != HEED_NET_OK && rs->error != HEED_NET_TOO_BIG);

	if (rs->status >= 200 && rs->status < 300 && !cut) {
		read_ok(c, owner, r, rs, rs->body, rs->body ? rs->body_len : 0);
		return true;
	}
	/* Only a 304 to a request that carried the validators confirms
	 * the stored file. */
	if (rs->status == 304 && r->conditional) {
		read_ok(c, owner, r, rs, r->stored, r->stored_len);
		return true;
	}
	if (rs->status >= 300 && rs->status < 400 && follow(c, s, i, rs))
		return false;
	if (rs->status == 0)
		snprintf(why, sizeof(why), "no answer (%s)",
		         heed_net_error_name(rs->error));
	else if (rs->status >= 200 && rs->status < 300)
		snprintf(why, sizeof(why), "HTTP %d, the body cut short",
		         rs->status);
	else if (rs->status >= 300 && rs->status < 400)
		snprintf(why, sizeof(why),
		         "HTTP %d, a redirect off the site or past %u hops",
		         rs->status, c->opt->site.max_redirects);
	else
		snprintf(why, sizeof(why), "HTTP %d", rs->status);
	failed(c, owner, r->locator, r->url, rs->status, why);
	return true;
}

void heed__acapref_fetched(heed_crawl *c, struct heed__site *s,
                           const struct heed__job *job,
                           const struct heed_net_response *rs)
{
	struct heed__acapref *r;

	if (job->address >= s->ref_count || rs->error == HEED_NET_CANCELLED)
		return; /* not stored: the next run asks again */
	r = &s->refs[job->address];
	if (answered(c, s, r->referrer ? r->referrer : s, job->address, rs))
		settle(c, &s->refs[job->address]);
}
