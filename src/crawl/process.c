/*
 * What the crawl engine does with an answer (issue 8): "after: index decides
 * whether the record is stored, follow and nofollow/meta robots decide which
 * links are queued"; 304 kept as "unchanged"; sitemaps and feeds give the
 * incremental mode its new and changed entries; a response aborted after
 * its headers (media, other non-text types) is counted, never read.
 */
#include <string.h>

#include "crawl/engine-int.h"

/* The path and query of an absolute URL ("/" when it has none). */
static const char *path_of(const char *url)
{
	const char *p = strstr(url, "://");
	const char *slash = p ? strchr(p + 3, '/') : NULL;

	return slash ? slash : "/";
}

bool heed__crawl_acap_permits(const struct crawl_host *h, const char *agent,
                              heed_acap_usage usage, const char *url,
                              int64_t now_s)
{
	struct heed_acap_decision *d = NULL;
	bool ok;

	if (!h->acap)
		return true;
	/* On failure (out of memory) the answer is the polite one: no. */
	if (heed_acap_decide(h->acap, agent, NULL, 0, usage, path_of(url),
	                     now_s, NULL, &d) != HEED_OK)
		return false;
	ok = d->permitted;
	heed_acap_decision_free(d);
	return ok;
}

/* Both rule sets must agree (the more restrictive reading, issue 3): the
 * RFC 9309 rules of the group for heed, and ACAP's crawl usage. */
bool heed__crawl_may_fetch(const struct crawl_host *h, const char *url)
{
	struct heed_robots_decision d;

	if (h->agent) {
		if (heed_robots_decide(h->agent, url, strlen(url), &d) !=
		            HEED_OK ||
		    !d.allowed)
			return false;
	}
	return heed__crawl_acap_permits(h, h->e->opt->agent_token,
	                                HEED_ACAP_CRAWL, url,
	                                heed__crawl_unix_s());
}

static void finish_row(struct crawl_fetch *f, int outcome)
{
	struct crawl_engine *e = f->e;

	if (f->job.id && heed__crawl_tx(e) &&
	    heed_store_frontier_set_state(e->store, f->job.id,
	                                  HEED_FRONTIER_DONE,
	                                  outcome) != HEED_OK)
		heed__crawl_store_failed(e, "finishing a URL");
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

static void store_page(struct crawl_fetch *f, const struct heed_net_response *r,
                       const struct heed_record *rec, char *record,
                       char *permissions)
{
	struct crawl_engine *e = f->e;
	int64_t now = heed__crawl_unix_s();
	struct heed_stored_page p = {
	        .url = f->url,
	        .final_url = r->url,
	        .host = f->host->key,
	        .status = r->status,
	        .fetched_at = now,
	        .checked_at = now,
	        .title = rec ? rec->title.value : NULL,
	        .views = rec ? rec->views : -1,
	        .published = rec ? rec->published.value : NULL,
	        .modified = rec ? rec->modified.value : NULL,
	        .etag = r->etag,
	        .last_modified = r->last_modified,
	        .source_lastmod = f->job.lastmod,
	        .permissions = permissions,
	        .mode = heed_crawl_mode_name(e->mode),
	        .record = record ? record : "{}",
	};

	if (!heed__crawl_tx(e) ||
	    heed_store_page_put(e->store, &p) != HEED_OK) {
		heed__crawl_store_failed(e, "storing a page");
		return;
	}
	e->p.pages++;
	e->run_pages++;
}

static void queue_links(struct crawl_fetch *f, const heed_page *page,
                        bool follow)
{
	struct crawl_engine *e = f->e;

	for (size_t i = 0; i < heed_page_link_count(page); i++) {
		const struct heed_link *l = heed_page_link(page, i);
		if (l->feed) {
			heed__crawl_enqueue(e, l->url, HEED_FRONTIER_FEED,
			                    f->job.depth + 1, f->url,
			                    HEED_STORE_NO_DATE);
			continue;
		}
		/* The incremental mode reads sitemaps and feeds only. */
		if (e->mode != HEED_CRAWL_FULL || !follow || l->nofollow)
			continue;
		heed__crawl_enqueue(e, l->url, HEED_FRONTIER_PAGE,
		                    f->job.depth + 1, f->url,
		                    HEED_STORE_NO_DATE);
	}
}

static void process_page(struct crawl_fetch *f,
                         const struct heed_net_response *r)
{
	struct crawl_engine *e = f->e;
	const char *agent = e->opt->agent_token;
	struct heed_header headers[4];
	struct heed_extract_input in = {r->body,
	                                r->body_len,
	                                f->url,
	                                headers,
	                                response_headers(r, headers),
	                                NULL,
	                                agent,
	                                0};
	int64_t now = heed__crawl_unix_s();
	const struct heed_extract_robots *d;
	heed_page *page = NULL;
	char *record, *permissions;
	bool index, follow;

	if (heed_extract_html(&page, &in, e->alloc, NULL) != HEED_OK) {
		e->p.errors++;
		finish_row(f, -HEED_EPARSE);
		return;
	}
	d = heed_page_robots(page);
	index = !d->noindex &&
	        heed__crawl_acap_permits(f->host, agent, HEED_ACAP_INDEX,
	                                 f->url, now);
	follow = !d->nofollow &&
	         heed__crawl_acap_permits(f->host, agent, HEED_ACAP_FOLLOW,
	                                  f->url, now);
	if (index) {
		record = heed__crawl_record_json(e->alloc,
		                                 heed_page_record(page),
		                                 heed_page_link_count(page));
		permissions = heed__crawl_permissions_json(
		        e->alloc, f->host, f->url, d, agent, now);
		store_page(f, r, heed_page_record(page), record, permissions);
		heed__free(e->alloc, record);
		heed__free(e->alloc, permissions);
	} else {
		/* No longer indexable: what heed held of it goes. */
		e->p.not_indexed++;
		if (heed__crawl_tx(e) &&
		    heed_store_page_delete(e->store, f->url, false, NULL) !=
		            HEED_OK)
			heed__crawl_store_failed(e, "deleting a noindex page");
	}
	queue_links(f, page, follow);
	heed_page_free(page);
	finish_row(f, r->status);
}

/* Incremental mode: an entry whose date is not after what heed stored (or
 * fetched) is unchanged and not fetched again. */
static bool entry_unchanged(struct crawl_engine *e, const char *url,
                            int64_t lastmod)
{
	struct heed_page_validators v;
	int64_t known;

	if (e->mode != HEED_CRAWL_INCREMENTAL ||
	    lastmod == HEED_STORE_NO_DATE ||
	    heed_store_page_validators(e->store, url, &v) != HEED_OK)
		return false;
	known = v.source_lastmod != HEED_STORE_NO_DATE &&
	                        v.source_lastmod > v.fetched_at
	                ? v.source_lastmod
	                : v.fetched_at;
	return lastmod <= known;
}

static void queue_entries(struct crawl_fetch *f, const heed_feed *feed)
{
	struct crawl_engine *e = f->e;
	bool index = heed_feed_kind_get(feed) == HEED_FEED_SITEMAP_INDEX;

	for (size_t i = 0; i < heed_feed_entry_count(feed); i++) {
		const struct heed_feed_entry *en = heed_feed_entry(feed, i);
		int64_t lastmod = en->updated_s != HEED_NO_DATE
		                          ? en->updated_s
		                          : en->published_s;
		if (index) {
			heed__crawl_enqueue(e, en->url, HEED_FRONTIER_SITEMAP,
			                    f->job.depth + 1, f->url, lastmod);
			continue;
		}
		if (entry_unchanged(e, en->url, lastmod)) {
			e->p.unchanged++;
			continue;
		}
		heed__crawl_enqueue(e, en->url, HEED_FRONTIER_PAGE, 1, f->url,
		                    lastmod);
	}
}

static void process_feed(struct crawl_fetch *f,
                         const struct heed_net_response *r)
{
	struct crawl_engine *e = f->e;
	struct heed_header headers[4];
	struct heed_extract_input in = {r->body,
	                                r->body_len,
	                                f->url,
	                                headers,
	                                response_headers(r, headers),
	                                NULL,
	                                e->opt->agent_token,
	                                (unsigned)f->job.depth};
	heed_feed *feed = NULL;
	heed_status rc = heed_extract_feed(&feed, &in, e->alloc, NULL);

	if (rc != HEED_OK) {
		heed_log(&e->log, HEED_LOG_INFO, "crawl", "%s: not a %s (%s)",
		         f->url,
		         f->job.kind == HEED_JOB_FEED ? "feed" : "sitemap",
		         heed_strerror(rc));
		finish_row(f, -(int)rc);
		return;
	}
	if (heed_feed_entry_count(feed))
		f->host->has_source = true;
	queue_entries(f, feed);
	heed_log(&e->log, HEED_LOG_INFO, "crawl", "%s: %s with %zu entries",
	         f->url, heed_feed_kind_name(heed_feed_kind_get(feed)),
	         heed_feed_entry_count(feed));
	heed_feed_free(feed);
	finish_row(f, r->status);
}

static void process_redirect(struct crawl_fetch *f,
                             const struct heed_net_response *r)
{
	/* heed follows redirects itself, one request per hop, so every hop
	 * is checked and paced like a first request. */
	heed__crawl_enqueue(f->e, r->location, (heed_frontier_kind)f->job.kind,
	                    f->job.depth, f->url, f->job.lastmod);
	finish_row(f, r->status);
}

static void process_error_status(struct crawl_fetch *f,
                                 const struct heed_net_response *r)
{
	/* A page that answers 404 or 500 is recorded with its status, so the
	 * statistics and exports say what became of it. */
	if (f->job.kind == HEED_JOB_PAGE) {
		store_page(f, r, NULL, NULL, NULL);
		if (r->status >= 500 || r->status == 429)
			f->e->p.errors++;
	}
	finish_row(f, r->status);
}

void heed__crawl_process(struct crawl_fetch *f,
                         const struct heed_net_response *r)
{
	struct crawl_engine *e = f->e;

	heed_log(&e->log, HEED_LOG_DEBUG, "crawl", "GET %s: %d %s (%zu bytes)",
	         f->url, r->status, heed_net_error_name(r->error), r->body_len);
	if (r->error == HEED_NET_ABORTED) {
		e->p.media_aborted++;
		finish_row(f, -HEED_EDENIED);
		return;
	}
	if (r->error != HEED_NET_OK || r->status == 0) {
		e->p.errors++;
		e->run_errors++;
		finish_row(f, -HEED_ENET);
		return;
	}
	if (r->status == 304) {
		e->p.unchanged++;
		if (heed__crawl_tx(e) &&
		    heed_store_page_unchanged(e->store, f->url,
		                              heed__crawl_unix_s(),
		                              f->job.lastmod) == HEED_ESTORE)
			heed__crawl_store_failed(e,
			                         "recording an unchanged page");
		finish_row(f, r->status);
	} else if (r->status >= 300 && r->status < 400 && r->location) {
		process_redirect(f, r);
	} else if (r->status < 200 || r->status >= 300) {
		process_error_status(f, r);
	} else if (f->job.kind == HEED_JOB_PAGE) {
		process_page(f, r);
	} else {
		process_feed(f, r);
	}
}
