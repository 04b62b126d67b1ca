/*
 * The files ACAP-permissions-reference fields name (ACAP 1.1 2.3.2;
 * docs/acap.md, docs/robots-lifecycle.md; issue 15). Until such a file is
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
 * What: a locator is resolved against the site's origin; only a file on
 * the site itself is asked (a redirect is followed on the site, up to the
 * robots.txt limit). A file elsewhere would be a request to another site
 * outside its own robots.txt's say: it is not asked, and the crawlers stay
 * prohibited, as for an answer that is not a 2xx (or a 304 confirming the
 * stored file). Each outcome is logged once, counted, and stored with its
 * reason for `heed site report`; a failed one is asked again at the next
 * robots.txt re-check, never in a loop.
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

/* Writes the outcome of locator (body NULL: not in force). */
static void store_ref(heed_crawl *c, const struct heed_store_acap_ref *row)
{
	if (heed__crawl_tx(c) &&
	    heed_store_acap_ref_put(c->store, row) != HEED_OK)
		heed__crawl_store_failed(c, "saving an ACAP reference");
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
	store_ref(c, &row);
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

/* Asks for locator at url before any page (heed__acapref_start queues
 * it). */
static void ask(heed_crawl *c, struct heed__site *s, const char *locator,
                const char *url, const struct heed_store_acap_ref *row)
{
	struct heed__acapref *grown = heed__realloc(
	        c->alloc, s->refs, (s->ref_count + 1) * sizeof(*grown));
	struct heed__acapref *r;
	bool ok;

	if (!grown) {
		heed__crawl_oom(c);
		return;
	}
	s->refs = grown;
	r = &s->refs[s->ref_count];
	memset(r, 0, sizeof(*r));
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
		return;
	}
	s->ref_count++;
}

static void push(heed_crawl *c, struct heed__site *s, size_t i)
{
	struct heed__job job = {0,
	                        s->refs[i].url,
	                        (int)s->refs[i].hops,
	                        JOB_ACAPREF,
	                        HEED_STORE_NO_DATE,
	                        0,
	                        i};

	if (heed__sched_push(&c->sched, &s->lane, &job, true, c->now.mono_ms) !=
	    HEED_OK)
		heed__crawl_oom(c);
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
	heed_status rc =
	        heed_store_acap_ref_get(c->store, s->origin, locator, &row);

	if (rc != HEED_OK && rc != HEED_ENOTFOUND) {
		heed__crawl_store_failed(c, "reading an ACAP reference");
		return;
	}
	if (rc == HEED_OK && !fetched && row.fetched_s >= robots_date_s) {
		if (row.body)
			add(c, s, locator, row.body, row.body_len);
		heed_store_acap_ref_clear(c->store, &row);
		return;
	}
	if (!resolve(c, s, locator, url, sizeof(url)))
		failed(c, s, locator, NULL, 0, "not an http(s) URL: not asked");
	else if (heed__site_of_url(c, url, false) != s)
		failed(c, s, locator, url, 0,
		       "on another site: not asked (docs/acap.md)");
	else
		ask(c, s, locator, url, rc == HEED_OK ? &row : NULL);
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

	if (heed_store_acap_ref_each(c->store, s->origin, collect_stale, &st) !=
	    HEED_OK)
		heed__crawl_store_failed(c, "listing ACAP references");
	for (size_t i = 0; i < st.count; i++) {
		if (st.names[i] && heed__crawl_tx(c) &&
		    heed_store_acap_ref_delete(c->store, s->origin,
		                               st.names[i]) != HEED_OK)
			heed__crawl_store_failed(c,
			                         "deleting an ACAP reference");
		heed__free(c->alloc, st.names[i]);
	}
}

void heed__acapref_start(heed_crawl *c, struct heed__site *s, bool fetched,
                         int64_t robots_date_s)
{
	const heed_acap *a = s->rules.acap;
	size_t n = a ? heed_acap_reference_count(a) : 0;

	heed__acapref_free(c, s);
	if (fetched)
		prune(c, s);
	for (size_t i = 0; i < n && c->failed == HEED_OK; i++) {
		const char *loc = heed_acap_reference_get(a, i);
		if (!heed_acap_reference_applies(a, i, c->opt->agent_token) ||
		    listed_before(a, i, loc))
			continue;
		start_one(c, s, loc, fetched, robots_date_s);
	}
	/* `heed site qualify` asks for robots.txt only. */
	if (c->mode == HEED_CRAWL_QUALIFY)
		return;
	for (size_t i = s->ref_count; i-- > 0;)
		push(c, s, i);
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
	store_ref(c, &row);
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
	push(c, s, i);
	return true;
}

void heed__acapref_fetched(heed_crawl *c, struct heed__site *s,
                           const struct heed__job *job,
                           const struct heed_net_response *rs)
{
	struct heed__acapref *r;
	char why[200];
	bool cut;

	if (job->address >= s->ref_count || rs->error == HEED_NET_CANCELLED)
		return; /* not stored: the next run asks again */
	r = &s->refs[job->address];
	heed__life_keep_backoff(c, s->host);
	cut = rs->truncated ||
	      (rs->error != HEED_NET_OK && rs->error != HEED_NET_TOO_BIG);
	if (rs->status >= 200 && rs->status < 300 && !cut) {
		read_ok(c, s, r, rs, rs->body, rs->body ? rs->body_len : 0);
		return;
	}
	/* Only a 304 to a request that carried the validators confirms
	 * the stored file. */
	if (rs->status == 304 && r->conditional) {
		read_ok(c, s, r, rs, r->stored, r->stored_len);
		return;
	}
	if (rs->status >= 300 && rs->status < 400 &&
	    follow(c, s, job->address, rs))
		return;
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
	failed(c, s, r->locator, r->url, rs->status, why);
}
