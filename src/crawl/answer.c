/*
 * What an answer to a page, sitemap or feed request means (issue 8: "after:
 * index decides whether the record is stored, follow and nofollow/meta
 * robots decide which links are queued"; issue 18: "a 5xx or 429 ... the
 * page goes back to the frontier and is tried again later in the run (a
 * bounded number of times) instead of being stored as a record; a
 * transient failure never replaces a good record from an earlier crawl").
 *
 *   media or other non-text headers  aborted before the body, counted
 *   no connection                    the next address; tried again later
 *   reset, timeout, cut short        tried again later
 *   429, 5xx                         tried again later (politeness has
 *                                    doubled the site's delay)
 *   304, or a 2xx with the last body unchanged: only the check dates move
 *                                    (a 304 for a page heed holds no
 *                                    record of is an error, and the next
 *                                    request is whole)
 *   3xx with a Location              the target is queued like a link
 *   other 4xx                        a record with the status (the page
 *                                    is gone, not resting)
 *   2xx page                         extracted; stored unless noindex;
 *                                    links queued unless nofollow
 *   2xx sitemap or feed              its entries queued (incremental: the
 *                                    new and changed ones)
 *
 * Every answer but a passing failure is remembered in the URL's visit row
 * (visits.c): validators, digest, what the visit found, when to come back.
 */
#include <string.h>

#include "crawl/crawl-int.h"

bool heed__answer_wanted(const struct heed__job *job,
                         const struct heed_net_response *r,
                         heed_content_kind *kind)
{
	heed_content_kind k = heed_extract_content_kind(r->content_type);

	*kind = k;
	/* "a response whose headers say image, video, audio or other
	 * non-text types is aborted before its body" (issue 8). */
	if (r->status < 200 || r->status >= 300 || job->kind == JOB_ROBOTS ||
	    job->kind == JOB_ACAPREF)
		return true;
	if (k == HEED_CONTENT_MEDIA || k == HEED_CONTENT_OTHER)
		return false;
	if (job->kind == JOB_PAGE)
		return k == HEED_CONTENT_HTML || k == HEED_CONTENT_XHTML ||
		       k == HEED_CONTENT_UNKNOWN;
	return true;
}

/* The response headers extraction reads. */
static size_t response_headers(const struct heed_net_response *r,
                               struct heed_header *h)
{
	size_t n = 0;

	if (r->content_type)
		h[n++] = (struct heed_header){"Content-Type", r->content_type};
	if (r->etag)
		h[n++] = (struct heed_header){"ETag", r->etag};
	if (r->last_modified)
		h[n++] =
		        (struct heed_header){"Last-Modified", r->last_modified};
	if (r->x_robots_tag)
		h[n++] = (struct heed_header){"X-Robots-Tag", r->x_robots_tag};
	return n;
}

/* What extraction reads of an answer; headers[] must outlive *in. */
static void extract_input(const struct heed_net_response *r,
                          const struct heed__job *job, const char *agent,
                          unsigned feed_depth, struct heed_header headers[4],
                          struct heed_extract_input *in)
{
	*in = (struct heed_extract_input){r->body,
	                                  r->body_len,
	                                  job->url,
	                                  headers,
	                                  response_headers(r, headers),
	                                  NULL,
	                                  agent,
	                                  feed_depth};
}

static void store_page(heed_crawl *c, struct heed__site *s,
                       const struct heed__job *job,
                       const struct heed_net_response *r,
                       const struct heed_record *rec, char *record,
                       char *permissions)
{
	int64_t now = heed__crawl_unix_s(c);
	struct heed_stored_page p = {
	        .url = job->url,
	        .final_url = r->url,
	        .host = s->host_key,
	        .status = r->status,
	        .fetched_at = now,
	        .checked_at = now,
	        .title = rec ? rec->title.value : NULL,
	        .views = rec ? rec->views : -1,
	        .published = rec ? rec->published.value : NULL,
	        .modified = rec ? rec->modified.value : NULL,
	        .etag = r->etag,
	        .last_modified = r->last_modified,
	        .source_lastmod = job->lastmod,
	        .permissions = permissions,
	        .mode = heed_crawl_mode_name(c->mode),
	        .record = record ? record : "{}",
	};

	if (!heed__crawl_tx(c) ||
	    heed_store_page_put(c->store, &p) != HEED_OK) {
		heed__crawl_store_failed(c, "storing a page");
		return;
	}
	c->p.pages++;
	c->run_pages++;
}

static void queue_links(heed_crawl *c, const struct heed__site *s,
                        const struct heed__job *job, const heed_page *page,
                        bool follow)
{
	bool incremental_only = heed__arranged_incremental(c, s);

	for (size_t i = 0; i < heed_page_link_count(page); i++) {
		const struct heed_link *l = heed_page_link(page, i);
		if (l->feed) {
			heed__queue_add(c, l->url, JOB_FEED, job->depth + 1,
			                job->url, HEED_STORE_NO_DATE);
			continue;
		}
		/* The incremental mode reads sitemaps and feeds only, and so
		 * does a full run for a site whose owner asked for it. */
		if (c->mode != HEED_CRAWL_FULL || !follow || l->nofollow ||
		    incremental_only)
			continue;
		heed__queue_add(c, l->url, JOB_PAGE, job->depth + 1, job->url,
		                HEED_STORE_NO_DATE);
	}
}

/* Remembers a 2xx answer whose body was read (visits.c). */
static void visited(heed_crawl *c, struct heed__site *s,
                    const struct heed__job *job,
                    const struct heed_net_response *r,
                    heed_revisit_outcome outcome, int64_t modified_at,
                    bool keep_validators)
{
	char digest[HEED_SHA256_HEX];
	struct heed__visit_found f = {.outcome = outcome,
	                              .modified_at = modified_at,
	                              .body = true,
	                              .keep_validators = keep_validators};

	if (heed__sha256_hex(r->body, r->body_len, digest))
		f.digest = digest;
	heed__visit_record(c, s, job, r, &f);
}

/* The newest date a page gives for its own last change: its modified or
 * published date, its Last-Modified, its sitemap or feed entry's date. */
static int64_t page_date(const struct heed_record *rec, int64_t lastmod,
                         int64_t now)
{
	int64_t dates[] = {rec->modified_s, rec->published_s,
	                   rec->last_modified_s, lastmod};
	int64_t best = HEED_REVISIT_NO_DATE;

	for (size_t i = 0; i < HEED_ARRAY_SIZE(dates); i++)
		if (dates[i] != HEED_NO_DATE && dates[i] <= now &&
		    dates[i] > best)
			best = dates[i];
	return best;
}

/* A 2xx whose body is byte for byte the last one heed read of the URL:
 * unchanged, as a 304 would have said, and not read again. true when it
 * was handled so. A page heed holds no record of is read all the same. */
static bool same_body(heed_crawl *c, struct heed__site *s,
                      const struct heed__job *job,
                      const struct heed_net_response *r)
{
	char digest[HEED_SHA256_HEX];
	struct heed__visit_found f = {.outcome = HEED_REVISIT_UNCHANGED,
	                              .modified_at = HEED_REVISIT_NO_DATE,
	                              .digest = digest,
	                              .body = true,
	                              .keep_validators = true};
	heed_status rc = HEED_OK;

	if (!heed__sha256_hex(r->body, r->body_len, digest) ||
	    !heed__visit_same_body(c, job->url, digest))
		return false;
	if (job->kind == JOB_PAGE) {
		if (!heed__crawl_tx(c))
			return true;
		rc = heed_store_page_unchanged(c->store, job->url,
		                               heed__crawl_unix_s(c),
		                               job->lastmod);
		if (rc == HEED_ENOTFOUND)
			return false;
		if (rc != HEED_OK) {
			heed__crawl_store_failed(c, "recording an unchanged "
			                            "page");
			return true;
		}
	} else {
		s->has_source = true;
	}
	c->p.unchanged++;
	heed__visit_record(c, s, job, r, &f);
	heed__queue_finish(c, job, r->status);
	return true;
}

static void page(heed_crawl *c, struct heed__site *s,
                 const struct heed__job *job, const struct heed_net_response *r)
{
	const char *agent = c->opt->agent_token;
	struct heed_header headers[4];
	struct heed_extract_input in;
	int64_t now = heed__crawl_unix_s(c);
	const struct heed_extract_robots *d;
	heed_page *pg = NULL;
	char *record, *permissions;
	bool index, follow;

	if (same_body(c, s, job, r))
		return;
	extract_input(r, job, agent, 0, headers, &in);
	if (heed_extract_html(&pg, &in, c->alloc, NULL) != HEED_OK) {
		c->p.errors++;
		c->run_errors++;
		heed__queue_finish(c, job, -HEED_EPARSE);
		return;
	}
	d = heed_page_robots(pg);
	index = !d->noindex &&
	        heed__rules_acap_permits(&s->rules, agent, HEED_ACAP_INDEX,
	                                 job->url, now);
	follow = !d->nofollow &&
	         heed__rules_acap_permits(&s->rules, agent, HEED_ACAP_FOLLOW,
	                                  job->url, now);
	if (index) {
		record = heed__crawl_record_json(c->alloc, heed_page_record(pg),
		                                 heed_page_link_count(pg));
		permissions = heed__crawl_permissions_json(
		        c->alloc, &s->rules, job->url, d, agent, now);
		store_page(c, s, job, r, heed_page_record(pg), record,
		           permissions);
		heed__free(c->alloc, record);
		heed__free(c->alloc, permissions);
	} else {
		/* No longer indexable: what heed held of it goes. */
		c->p.not_indexed++;
		if (heed__crawl_tx(c) &&
		    heed_store_page_delete(c->store, job->url, false, NULL) !=
		            HEED_OK)
			heed__crawl_store_failed(c, "deleting a noindex page");
	}
	visited(c, s, job, r, HEED_REVISIT_CHANGED,
	        page_date(heed_page_record(pg), job->lastmod, now), index);
	queue_links(c, s, job, pg, follow);
	heed_page_free(pg);
	heed__queue_finish(c, job, r->status);
}

/* Incremental mode: an entry whose date is not after what heed stored (or
 * fetched) is unchanged and not fetched again. */
static bool entry_unchanged(heed_crawl *c, const char *url, int64_t lastmod)
{
	struct heed_page_validators v;
	int64_t known;

	if (c->mode != HEED_CRAWL_INCREMENTAL ||
	    lastmod == HEED_STORE_NO_DATE ||
	    heed_store_page_validators(c->store, url, &v) != HEED_OK)
		return false;
	known = v.source_lastmod != HEED_STORE_NO_DATE &&
	                        v.source_lastmod > v.fetched_at
	                ? v.source_lastmod
	                : v.fetched_at;
	return lastmod <= known;
}

/* Queues the entries of a sitemap or feed; returns the newest entry date
 * not after now (the source's own evidence of change), or NO_DATE. */
static int64_t queue_entries(heed_crawl *c, const struct heed__job *job,
                             const heed_feed *feed)
{
	bool index = heed_feed_kind_get(feed) == HEED_FEED_SITEMAP_INDEX;
	int64_t now = heed__crawl_unix_s(c), newest = HEED_REVISIT_NO_DATE;

	for (size_t i = 0; i < heed_feed_entry_count(feed); i++) {
		const struct heed_feed_entry *en = heed_feed_entry(feed, i);
		int64_t lastmod = en->updated_s != HEED_NO_DATE
		                          ? en->updated_s
		                          : en->published_s;
		if (lastmod != HEED_NO_DATE && lastmod <= now &&
		    lastmod > newest)
			newest = lastmod;
		if (index) {
			heed__queue_add(c, en->url, JOB_SITEMAP, job->depth + 1,
			                job->url, lastmod);
			continue;
		}
		if (entry_unchanged(c, en->url, lastmod)) {
			c->p.unchanged++;
			continue;
		}
		heed__queue_add(c, en->url, JOB_PAGE, 1, job->url, lastmod);
	}
	return newest;
}

static void feed(heed_crawl *c, struct heed__site *s,
                 const struct heed__job *job, const struct heed_net_response *r)
{
	struct heed_header headers[4];
	struct heed_extract_input in;
	heed_feed *f = NULL;
	heed_status rc;
	int64_t newest;

	if (same_body(c, s, job, r))
		return;
	extract_input(r, job, c->opt->agent_token, (unsigned)job->depth,
	              headers, &in);
	rc = heed_extract_feed(&f, &in, c->alloc, NULL);

	if (rc != HEED_OK) {
		heed_log(&c->log, HEED_LOG_INFO, "crawl", "%s: not a %s (%s)",
		         job->url, job->kind == JOB_FEED ? "feed" : "sitemap",
		         heed_strerror(rc));
		heed__queue_finish(c, job, -(int)rc);
		return;
	}
	if (heed_feed_entry_count(f))
		s->has_source = true;
	newest = queue_entries(c, job, f);
	visited(c, s, job, r, HEED_REVISIT_CHANGED, newest, true);
	heed_log(&c->log, HEED_LOG_INFO, "crawl", "%s: %s with %zu entries",
	         job->url, heed_feed_kind_name(heed_feed_kind_get(f)),
	         heed_feed_entry_count(f));
	heed_feed_free(f);
	heed__queue_finish(c, job, r->status);
}

/* A 304: the stored record (or the source's last entries) still holds. */
static void not_modified(heed_crawl *c, struct heed__site *s,
                         const struct heed__job *job,
                         const struct heed_net_response *r)
{
	struct heed__visit_found f = {.outcome = HEED_REVISIT_UNCHANGED,
	                              .modified_at = HEED_REVISIT_NO_DATE,
	                              .keep_validators = true};
	heed_status rc = HEED_OK;

	if (job->kind == JOB_PAGE && heed__crawl_tx(c))
		rc = heed_store_page_unchanged(c->store, job->url,
		                               heed__crawl_unix_s(c),
		                               job->lastmod);
	if (rc == HEED_ENOTFOUND) {
		/* Only a URL sent with validators gets a 304, and a page
		 * keeps them only with its record: the record went since
		 * (a take-down, a store edited by hand). Nothing is
		 * stored empty; the next request asks for the whole page. */
		heed_log(&c->log, HEED_LOG_ERROR, "crawl",
		         "%s: 304 Not Modified, but heed holds no record of "
		         "it: the next request asks for it whole",
		         job->url);
		c->p.errors++;
		c->run_errors++;
		f.outcome = HEED_REVISIT_FAILED;
		f.keep_validators = false;
		f.due_now = true;
	} else if (rc != HEED_OK) {
		heed__crawl_store_failed(c, "recording an unchanged page");
		return;
	} else {
		c->p.unchanged++;
		if (job->kind != JOB_PAGE)
			s->has_source = true;
	}
	heed__visit_record(c, s, job, r, &f);
	heed__queue_finish(c, job, 304);
}

/* An answer with no content to judge (a redirect, a 4xx): the URL is
 * asked again on its schedule, whole. */
static void no_content(heed_crawl *c, struct heed__site *s,
                       const struct heed__job *job,
                       const struct heed_net_response *r)
{
	struct heed__visit_found f = {.outcome = HEED_REVISIT_FAILED,
	                              .modified_at = HEED_REVISIT_NO_DATE};

	heed__visit_record(c, s, job, r, &f);
}

/* heed follows redirects itself, one request per hop, so every hop is
 * checked and paced like a first request. A hop counts as a link
 * followed: a server redirecting to a new URL forever is stopped by
 * crawl.max_depth, as a chain of links is. */
static void redirect(heed_crawl *c, struct heed__site *s,
                     const struct heed__job *job,
                     const struct heed_net_response *r)
{
	no_content(c, s, job, r);
	heed__queue_add(c, r->location, job->kind, job->depth + 1, job->url,
	                job->lastmod);
	heed__queue_finish(c, job, r->status);
}

/* A page that answers 404 or 410 is recorded with its status, so the
 * statistics and exports say what became of it. */
static void gone(heed_crawl *c, struct heed__site *s,
                 const struct heed__job *job, const struct heed_net_response *r)
{
	if (job->kind == JOB_PAGE)
		store_page(c, s, job, r, NULL, NULL, NULL);
	no_content(c, s, job, r);
	heed__queue_finish(c, job, r->status);
}

static bool passing_failure(const struct heed_net_response *r)
{
	return r->error != HEED_NET_OK || r->status == 0 || r->status == 429 ||
	       r->status >= 500;
}

void heed__answer(heed_crawl *c, struct heed__site *s,
                  const struct heed__job *job,
                  const struct heed_net_response *r)
{
	heed_log(&c->log, HEED_LOG_DEBUG, "crawl", "GET %s: %d %s (%zu bytes)",
	         job->url, r->status, heed_net_error_name(r->error),
	         r->body_len);
	if (r->error == HEED_NET_CANCELLED)
		return; /* the row stays in flight: the next run fetches it */
	heed__life_keep_backoff(c, s->host);
	if (r->error == HEED_NET_ABORTED) {
		c->p.media_aborted++;
		heed__queue_finish(c, job, -HEED_EDENIED);
		return;
	}
	if (r->error == HEED_NET_TOO_BIG || r->error == HEED_NET_DENIED) {
		c->p.errors++;
		c->run_errors++;
		heed__queue_finish(c, job,
		                   r->error == HEED_NET_TOO_BIG
		                           ? -HEED_ETOOBIG
		                           : -HEED_EDENIED);
		return;
	}
	if (passing_failure(r)) {
		/* A connection that failed: the next try uses the next
		 * address. */
		if (!r->connected)
			s->host->addr_next++;
		heed_log(&c->log, HEED_LOG_INFO, "crawl", "%s: %d %s", job->url,
		         r->status,
		         r->status ? "" : heed_net_error_name(r->error));
		heed__queue_retry(c, s, job,
		                  r->status ? r->status : -HEED_ENET);
		return;
	}
	if (r->status == 304)
		not_modified(c, s, job, r);
	else if (r->status >= 300 && r->status < 400 && r->location)
		redirect(c, s, job, r);
	else if (r->status < 200 || r->status >= 300)
		gone(c, s, job, r);
	else if (job->kind == JOB_PAGE)
		page(c, s, job, r);
	else
		feed(c, s, job, r);
}
