/*
 * What an answer to a page, sitemap or feed request means ("after:
 * index decides whether the record is stored, follow and nofollow/meta
 * robots decide which links are queued"; "a 5xx or 429 ... the
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
 *                                    new and changed ones), and a JSON
 *                                    Feed's next page
 *   an oEmbed answer (any status)    2xx: its values fill what the page's
 *                                    stored record lacks; never a
 *                                    redirect followed, never a visit row
 *                                    (it is asked again with its page)
 *
 * Every answer but a passing failure is remembered in the URL's visit row
 * (visits.c): validators, digest, what the visit found, when to come back.
 */
#include <string.h>

#include "crawl/crawl-int.h"
#include "heed/url.h"

bool heed__answer_wanted(const struct heed__job *job,
                         const struct heed_net_response *r,
                         heed_content_kind *kind)
{
	heed_content_kind k = heed_extract_content_kind(r->content_type);

	*kind = k;
	/* "a response whose headers say image, video, audio or other
	 * non-text types is aborted before its body". */
	if (r->status < 200 || r->status >= 300 || job->kind == JOB_ROBOTS ||
	    job->kind == JOB_ACAPREF)
		return true;
	/* application/json is "other" to pages, and what oEmbed sends. */
	if (job->kind == JOB_OEMBED)
		return k != HEED_CONTENT_MEDIA;
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

/* What extraction reads of an answer to url; headers[] must outlive
 * *in. */
static void extract_input(const struct heed_net_response *r, const char *url,
                          const char *agent, unsigned feed_depth,
                          struct heed_header headers[4],
                          struct heed_extract_input *in)
{
	*in = (struct heed_extract_input){r->body,
	                                  r->body_len,
	                                  url,
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

	if (!heed__batch_page_put(c, &p, "storing a page"))
		return;
	c->p.pages++;
	c->run_pages++;
}

/* How many links ahead of its look-up a link's set is prefetched: enough
 * to cover a memory access while the links before it are checked. */
#define LINKS_AHEAD 8

static uint64_t prefetch_link(heed_crawl *c, const heed_page *page, size_t i)
{
	uint64_t fp = heed__seen_fingerprint(heed_page_link(page, i)->url);

	heed__seen_prefetch(&c->seen, fp);
	return fp;
}

static void queue_links(heed_crawl *c, const struct heed__site *s,
                        const struct heed__job *job, const heed_page *page,
                        bool follow)
{
	size_t n = heed_page_link_count(page);
	uint64_t fps[LINKS_AHEAD];

	/* The incremental mode reads sitemaps and feeds only, and so does a
	 * full run for a site whose owner asked for it. */
	if (c->mode != HEED_CRAWL_FULL || !follow ||
	    heed__arranged_incremental(c, s)) {
		for (size_t i = 0; i < n; i++)
			if (heed_page_link(page, i)->feed)
				heed__queue_add(c, heed_page_link(page, i)->url,
				                JOB_FEED, job->depth + 1,
				                job->url, HEED_STORE_NO_DATE);
		return;
	}
	/* Each link's seen-table set is asked for LINKS_AHEAD links before
	 * its look-up, so that the look-ups' cache misses overlap. */
	for (size_t i = 0; i < n && i < LINKS_AHEAD; i++)
		fps[i] = prefetch_link(c, page, i);
	for (size_t i = 0; i < n; i++) {
		const struct heed_link *l = heed_page_link(page, i);
		uint64_t fp = fps[i % LINKS_AHEAD];
		if (i + LINKS_AHEAD < n)
			fps[i % LINKS_AHEAD] =
			        prefetch_link(c, page, i + LINKS_AHEAD);
		if (l->feed || !l->nofollow)
			heed__queue_add_seen(
			        c, l->url, fp, l->feed ? JOB_FEED : JOB_PAGE,
			        job->depth + 1, job->url, HEED_STORE_NO_DATE);
	}
}

/* Remembers a 2xx answer whose body was read (visits.c). digest is the
 * body's, computed once per answer: it decided whether the body is the one
 * heed read last time, and is recorded with the visit. */
static void visited(heed_crawl *c, struct heed__site *s,
                    const struct heed__job *job,
                    const struct heed_net_response *r, const char *digest,
                    heed_revisit_outcome outcome, int64_t modified_at,
                    bool keep_validators)
{
	struct heed__visit_found f = {.outcome = outcome,
	                              .modified_at = modified_at,
	                              .digest = digest,
	                              .body = true,
	                              .keep_validators = keep_validators};

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
                      const struct heed_net_response *r, const char *digest)
{
	struct heed__visit_found f = {.outcome = HEED_REVISIT_UNCHANGED,
	                              .modified_at = HEED_REVISIT_NO_DATE,
	                              .digest = digest,
	                              .body = true,
	                              .keep_validators = true};
	heed_status rc = HEED_OK;

	if (!heed__visit_same_body(c, s, job, r, digest))
		return false;
	if (job->kind == JOB_PAGE) {
		/* Nothing of it is recorded while no batch takes writes. */
		if (!heed__crawl_tx(c))
			return true;
		rc = heed__batch_page_unchanged(c, job->url, job->lastmod);
		if (rc == HEED_ENOTFOUND)
			return false;
		if (rc != HEED_OK)
			return true;
	} else {
		s->has_source = true;
	}
	c->p.unchanged++;
	heed__visit_record(c, s, job, r, &f);
	heed__queue_finish(c, s, job, r->status);
	return true;
}

/* Extracts the page r answered url with, and its record's JSON unless
 * it says noindex: pure (it reads r and the strings alone). */
static void page_extract(struct heed__page_work *w,
                         const struct heed_net_response *r, const char *url,
                         const char *agent)
{
	struct heed_header headers[4];
	struct heed_extract_input in;
	size_t len;

	extract_input(r, url, agent, 0, headers, &in);
	w->extracted = true;
	w->rc = heed_extract_html(&w->pg, &in, w->alloc, NULL);
	if (w->rc != HEED_OK || heed_page_robots(w->pg)->noindex)
		return;
	/* The writer `heed extract` prints with: what a site owner sees
	 * there is what is stored. */
	if (heed_extract_record_json(heed_page_record(w->pg),
	                             heed_page_link_count(w->pg), w->alloc,
	                             &w->record, &len) != HEED_OK)
		w->record = NULL;
}

static void page_work_clear(struct heed__page_work *w)
{
	heed_page_free(w->pg);
	heed__free(w->alloc, w->record);
	w->pg = NULL;
	w->record = NULL;
}

/* A page's answer judged, its work w done: stored unless noindex, its
 * links queued unless nofollow. */
static void page_judged(heed_crawl *c, struct heed__site *s,
                        const struct heed__job *job,
                        const struct heed_net_response *r,
                        const struct heed__page_work *w)
{
	const char *agent = c->opt->agent_token;
	int64_t now = heed__crawl_unix_s(c);
	const heed_page *pg = w->pg;
	const struct heed_extract_robots *d = heed_page_robots(pg);
	bool index, follow;
	char *permissions;

	index = !d->noindex &&
	        heed__rules_acap_permits(&s->rules, agent, HEED_ACAP_INDEX,
	                                 job->url, now);
	follow = !d->nofollow &&
	         heed__rules_acap_permits(&s->rules, agent, HEED_ACAP_FOLLOW,
	                                  job->url, now);
	if (index) {
		permissions = heed__crawl_permissions_json(
		        c->alloc, &s->rules, job->url, d,
		        heed_page_record(pg)->description.value, agent, now);
		store_page(c, s, job, r, heed_page_record(pg), w->record,
		           permissions);
		heed__free(c->alloc, permissions);
	} else {
		/* No longer indexable: what heed held of it goes. */
		c->p.not_indexed++;
		heed__batch_page_delete(c, job->url, false, NULL,
		                        "deleting a noindex page");
	}
	visited(c, s, job, r, w->digest, HEED_REVISIT_CHANGED,
	        page_date(heed_page_record(pg), job->lastmod, now), index);
	/* The page's oEmbed endpoint fills what its record lacks: asked only
	 * for a record heed keeps, on the crawl's own sites (queue.c), under
	 * their robots.txt and delay like any request. */
	if (index && heed_page_oembed_best(pg, NULL))
		heed__queue_add(c, heed_page_oembed_best(pg, NULL), JOB_OEMBED,
		                job->depth + 1, job->url, HEED_STORE_NO_DATE);
	queue_links(c, s, job, pg, follow);
	heed__queue_finish(c, s, job, r->status);
}

/* w: the work done ahead, or NULL. Extraction is skipped when the body
 * is the last one; work done ahead on a body that seemed so, for a page
 * heed holds no record of, is finished here. */
static void page(heed_crawl *c, struct heed__site *s,
                 const struct heed__job *job, const struct heed_net_response *r,
                 struct heed__page_work *w)
{
	struct heed__page_work here = {.alloc = c->alloc};

	if (!w) {
		w = &here;
		heed__digest_hex(r->body, r->body_len, w->digest);
	}
	if (!same_body(c, s, job, r, w->digest)) {
		if (!w->extracted)
			page_extract(w, r, job->url, c->opt->agent_token);
		if (w->rc == HEED_OK) {
			page_judged(c, s, job, r, w);
		} else {
			c->p.errors++;
			c->run_errors++;
			heed__queue_finish(c, s, job, -HEED_EPARSE);
		}
	}
	page_work_clear(w);
}

bool heed__answer_has_work(const struct heed__job *job,
                           const struct heed_net_response *r)
{
	/* The test heed__answer makes before page(). */
	return job->kind == JOB_PAGE && r->error == HEED_NET_OK &&
	       r->status >= 200 && r->status < 300;
}

/* A bump allocator over the block after a prepared answer's struct. */
struct prep_block {
	char *at;
};

static const char *prep_copy(struct prep_block *b, const char *s, size_t len)
{
	char *d = b->at;

	memcpy(d, s, len);
	d[len] = '\0';
	b->at += len + 1;
	return d;
}

static size_t prep_len(const char *s)
{
	return s ? strlen(s) + 1 : 0;
}

struct heed_crawl_prep *
heed__answer_prep_new(heed_crawl *c, struct heed__site *s,
                      const struct heed__job *job, heed_crawl_req *req,
                      const struct heed_net_response *r, char *body)
{
	const struct heed_allocator *alloc = heed_allocator_default();
	struct heed_crawl_prep *p;
	struct heed_net_response copy = *r;
	const char **str[] = {
	        &copy.error_text,    &copy.url,           &copy.address,
	        &copy.location,      &copy.content_type,  &copy.retry_after,
	        &copy.etag,          &copy.last_modified, &copy.x_robots_tag,
	        &copy.cache_control, &copy.expires,       &copy.date};
	size_t size = sizeof(*p) + (body ? 0 : r->body_len + 1) +
	              prep_len(job->url) + prep_len(c->opt->agent_token);
	struct prep_block b;

	for (size_t i = 0; i < HEED_ARRAY_SIZE(str); i++)
		size += prep_len(*str[i]);
	p = heed__malloc(alloc, size);
	if (!p)
		return NULL;
	memset(p, 0, sizeof(*p));
	b.at = (char *)(p + 1);
	for (size_t i = 0; i < HEED_ARRAY_SIZE(str); i++)
		*str[i] = *str[i] ? prep_copy(&b, *str[i], strlen(*str[i]))
		                  : NULL;
	/* A body is NUL-terminated (heed/net.h), an empty one too. */
	copy.body = body ? body
	                 : prep_copy(&b, r->body ? r->body : "", r->body_len);
	p->body = body;
	p->url = prep_copy(&b, job->url, strlen(job->url));
	p->agent = c->opt->agent_token ? prep_copy(&b, c->opt->agent_token,
	                                           strlen(c->opt->agent_token))
	                               : NULL;
	p->r = copy;
	p->req = req;
	p->w.alloc = alloc;
	heed__visit_known_digest(c, s, job, p->known);
	return p;
}

void heed__answer_prep_run(struct heed_crawl_prep *p)
{
	struct heed__page_work *w = &p->w;

	heed__digest_hex(p->r.body, p->r.body_len, w->digest);
	/* The last body again: same_body() will most likely say so on the
	 * loop's thread, and extraction would be for nothing. */
	if (p->known[0] &&
	    heed__digest_matches(p->known, w->digest, p->r.body, p->r.body_len))
		return;
	page_extract(w, &p->r, p->url, p->agent);
}

void heed__answer_prep_free(struct heed_crawl_prep *p)
{
	if (!p)
		return;
	page_work_clear(&p->w);
	heed__free(p->w.alloc, p->body);
	heed__free(p->w.alloc, p);
}

/* A listed page of s whose owner named an oEmbed endpoint is read
 * through it, not fetched: true when so queued (or refused). The page
 * itself must be allowed by the site's rules, as if it were fetched. */
static bool queue_through_oembed(heed_crawl *c, struct heed__site *s,
                                 const char *page, int64_t lastmod)
{
	char url[HEED_URL_MAX_BYTES + 1];

	if (!heed__arranged_oembed_url(c, s, page, url, sizeof(url)) ||
	    heed__site_of_url(c, page, false) != s)
		return false;
	if (!heed__rules_may_crawl(&s->rules, c->opt->agent_token, page,
	                           heed__crawl_unix_s(c))) {
		c->p.refused++;
		heed_log(&c->log, HEED_LOG_INFO, "crawl",
		         "refused by robots.txt: %s", page);
		return true;
	}
	heed__queue_add(c, url, JOB_OEMBED, 1, page, lastmod);
	return true;
}

/* The date an entry gives for its page's last change, or NO_DATE. */
static int64_t entry_date(const struct heed_feed_entry *en)
{
	return en->updated_s != HEED_NO_DATE ? en->updated_s : en->published_s;
}

/* Incremental mode: whether each of the n entries (urls, their dates) is
 * unchanged, its date not after what heed stored (or fetched) of its
 * page, the dated entries' pages read together; NULL after a failure
 * (recorded: the crawl stops). Free with heed__free. */
static bool *entries_unchanged(heed_crawl *c, const char *const *urls,
                               const int64_t *dates, size_t n)
{
	const char **ask = heed__malloc(c->alloc, n * sizeof(*ask));
	size_t *pos = heed__malloc(c->alloc, n * sizeof(*pos));
	int64_t *fetched = heed__malloc(c->alloc, 2 * n * sizeof(*fetched));
	bool *out = heed__calloc(c->alloc, n, sizeof(*out));
	size_t m = 0;

	if (!ask || !pos || !fetched || !out) {
		heed__crawl_oom(c);
		heed__free(c->alloc, out);
		out = NULL;
		goto done;
	}
	for (size_t i = 0; i < n; i++)
		if (dates[i] != HEED_NO_DATE) {
			ask[m] = urls[i];
			pos[m++] = i;
		}
	if (m &&
	    heed__read_page_dates(c, ask, m, fetched, fetched + m) != HEED_OK) {
		heed__free(c->alloc, out);
		out = NULL;
		goto done;
	}
	for (size_t k = 0; k < m; k++) {
		int64_t listed = fetched[m + k];
		int64_t known =
		        listed != HEED_STORE_NO_DATE && listed > fetched[k]
		                ? listed
		                : fetched[k];
		out[pos[k]] = fetched[k] != HEED_STORE_NO_DATE &&
		              dates[pos[k]] <= known;
	}
done:
	heed__free(c->alloc, ask);
	heed__free(c->alloc, pos);
	heed__free(c->alloc, fetched);
	return out;
}

/* What the store says of the pages a sitemap or feed lists: each one's
 * verdict by its visit row (heed__visit_judge) into *judged, and in the
 * incremental mode whether it is unchanged (entries_unchanged) into
 * *unchanged, the rows read together. NULL for an index; *judged NULL
 * out of memory too (each is then read when queued). Free both with
 * heed__free. */
static void judge_entries(heed_crawl *c, const struct heed__site *s,
                          const heed_feed *feed, enum heed__judged **judged,
                          bool **unchanged)
{
	size_t n = heed_feed_entry_count(feed);
	const char **urls;
	int64_t *hints;

	*judged = NULL;
	*unchanged = NULL;
	if (!n || heed_feed_kind_get(feed) == HEED_FEED_SITEMAP_INDEX)
		return;
	urls = heed__malloc(c->alloc, n * sizeof(*urls));
	hints = heed__malloc(c->alloc, n * sizeof(*hints));
	if (urls && hints) {
		for (size_t i = 0; i < n; i++) {
			urls[i] = heed_feed_entry(feed, i)->url;
			hints[i] = entry_date(heed_feed_entry(feed, i));
		}
		if (c->mode == HEED_CRAWL_INCREMENTAL)
			*unchanged = entries_unchanged(c, urls, hints, n);
		if ((*judged = heed__malloc(c->alloc, n * sizeof(**judged))))
			heed__visit_judge(c, s, urls, hints, n, 1, *judged);
	} else {
		heed__crawl_oom(c);
	}
	heed__free(c->alloc, urls);
	heed__free(c->alloc, hints);
}

/* Queues the entries of a sitemap or feed; returns the newest entry date
 * not after now (the source's own evidence of change), or NO_DATE. */
static int64_t queue_entries(heed_crawl *c, struct heed__site *s,
                             const struct heed__job *job, const heed_feed *feed)
{
	bool index = heed_feed_kind_get(feed) == HEED_FEED_SITEMAP_INDEX;
	int64_t now = heed__crawl_unix_s(c), newest = HEED_REVISIT_NO_DATE;
	enum heed__judged *judged;
	bool *unchanged;

	judge_entries(c, s, feed, &judged, &unchanged);
	for (size_t i = 0; i < heed_feed_entry_count(feed); i++) {
		const struct heed_feed_entry *en = heed_feed_entry(feed, i);
		int64_t lastmod = entry_date(en);
		if (lastmod != HEED_NO_DATE && lastmod <= now &&
		    lastmod > newest)
			newest = lastmod;
		if (index) {
			heed__queue_add(c, en->url, JOB_SITEMAP, job->depth + 1,
			                job->url, lastmod);
			continue;
		}
		if (unchanged && unchanged[i]) {
			c->p.unchanged++;
			continue;
		}
		if (queue_through_oembed(c, s, en->url, lastmod))
			continue;
		heed__queue_add_judged(c, en->url, JOB_PAGE, 1, job->url,
		                       lastmod,
		                       judged ? judged[i] : HEED__JUDGED_NOT);
	}
	heed__free(c->alloc, judged);
	heed__free(c->alloc, unchanged);
	return newest;
}

/* A JSON Feed's next page lists older items. A full run reads them, as
 * it reads every sitemap of an index; the incremental mode only while
 * every entry of this page was new or changed (older pages then hold
 * nothing new). Each page counts as a link followed, so a feed whose
 * pages never end stops at crawl.max_depth, as a redirect chain does. */
static void queue_next_page(heed_crawl *c, const struct heed__job *job,
                            const heed_feed *f, bool all_new)
{
	const char *next = heed_feed_next(f);
	int max = c->opt->limits.max_depth;

	if (!next || (max >= 0 && job->depth + 1 > max) ||
	    (c->mode == HEED_CRAWL_INCREMENTAL && !all_new))
		return;
	heed__queue_add(c, next, JOB_FEED, job->depth + 1, job->url,
	                HEED_STORE_NO_DATE);
}

static void feed(heed_crawl *c, struct heed__site *s,
                 const struct heed__job *job, const struct heed_net_response *r)
{
	int64_t unchanged = c->p.unchanged;
	struct heed_header headers[4];
	struct heed_extract_input in;
	heed_feed *f = NULL;
	heed_status rc;
	int64_t newest;
	char digest[HEED_DIGEST_HEX];

	heed__digest_hex(r->body, r->body_len, digest);
	if (same_body(c, s, job, r, digest))
		return;
	extract_input(r, job->url, c->opt->agent_token, (unsigned)job->depth,
	              headers, &in);
	rc = heed_extract_feed(&f, &in, c->alloc, NULL);

	if (rc != HEED_OK) {
		heed_log(&c->log, HEED_LOG_INFO, "crawl", "%s: not a %s (%s)",
		         job->url, job->kind == JOB_FEED ? "feed" : "sitemap",
		         heed_strerror(rc));
		heed__queue_finish(c, s, job, -(int)rc);
		return;
	}
	if (heed_feed_entry_count(f))
		s->has_source = true;
	newest = queue_entries(c, s, job, f);
	queue_next_page(c, job, f, c->p.unchanged == unchanged);
	visited(c, s, job, r, digest, HEED_REVISIT_CHANGED, newest, true);
	heed_log(&c->log, HEED_LOG_INFO, "crawl", "%s: %s with %zu entries",
	         job->url, heed_feed_kind_name(heed_feed_kind_get(f)),
	         heed_feed_entry_count(f));
	heed_feed_free(f);
	heed__queue_finish(c, s, job, r->status);
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

	if (job->kind == JOB_PAGE)
		rc = heed__batch_page_unchanged(c, job->url, job->lastmod);
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
		return;
	} else {
		c->p.unchanged++;
		if (job->kind != JOB_PAGE)
			s->has_source = true;
	}
	heed__visit_record(c, s, job, r, &f);
	heed__queue_finish(c, s, job, 304);
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
	heed__queue_finish(c, s, job, r->status);
}

/* A page that answers 404 or 410 is recorded with its status, so the
 * statistics and exports say what became of it. */
static void gone(heed_crawl *c, struct heed__site *s,
                 const struct heed__job *job, const struct heed_net_response *r)
{
	if (job->kind == JOB_PAGE)
		store_page(c, s, job, r, NULL, NULL, NULL);
	no_content(c, s, job, r);
	heed__queue_finish(c, s, job, r->status);
}

/* A stored page, copied out of the store's row to be written back. */
struct stored_copy {
	const struct heed_allocator *alloc;
	struct heed_stored_page p;
	bool oom;
};

static const char *copy_str(struct stored_copy *k, const char *s)
{
	char *d;

	if (!s)
		return NULL;
	d = heed__strndup(k->alloc, s, strlen(s));
	if (!d)
		k->oom = true;
	return d;
}

static int copy_page(void *ud, const struct heed_stored_page *p)
{
	struct stored_copy *k = ud;

	k->p = *p;
	k->p.url = copy_str(k, p->url);
	k->p.final_url = copy_str(k, p->final_url);
	k->p.host = copy_str(k, p->host);
	k->p.title = copy_str(k, p->title);
	k->p.published = copy_str(k, p->published);
	k->p.modified = copy_str(k, p->modified);
	k->p.etag = copy_str(k, p->etag);
	k->p.last_modified = copy_str(k, p->last_modified);
	k->p.permissions = copy_str(k, p->permissions);
	k->p.mode = copy_str(k, p->mode);
	k->p.record = copy_str(k, p->record);
	return 0;
}

static void free_copy(struct stored_copy *k)
{
	const char *s[] = {k->p.url,   k->p.final_url,     k->p.host,
	                   k->p.title, k->p.published,     k->p.modified,
	                   k->p.etag,  k->p.last_modified, k->p.permissions,
	                   k->p.mode,  k->p.record};

	for (size_t i = 0; i < HEED_ARRAY_SIZE(s); i++)
		heed__free(k->alloc, (void *)s[i]);
}

/* The record of a page heed knows nothing of but its oEmbed answer: the
 * one writer's shape with no field found (tags, byte_size and links are
 * always there), byte_size the answer's. */
static char *empty_record(heed_crawl *c, size_t byte_size)
{
	struct heed_record none = {.views = -1,
	                           .duration_s = -1,
	                           .published_s = HEED_NO_DATE,
	                           .modified_s = HEED_NO_DATE,
	                           .last_modified_s = HEED_NO_DATE,
	                           .byte_size = byte_size};
	char *text = NULL;
	size_t len;

	if (heed_extract_record_json(&none, 0, c->alloc, &text, &len) !=
	    HEED_OK)
		return NULL;
	return text;
}

/* A page read only through its owner's oEmbed endpoint: its record is
 * the answer's, stored like a fetched page's (the endpoint's status and
 * validators are not the page's: none are kept). */
static void oembed_new_page(heed_crawl *c, struct heed__site *s,
                            const struct heed__job *job,
                            const struct heed_net_response *r,
                            const struct heed_oembed *o)
{
	int64_t now = heed__crawl_unix_s(c);
	unsigned filled = 0;
	char *base = empty_record(c, r->body_len);
	char *rec = base ? heed__crawl_record_oembed(c->alloc, base, o,
	                                             job->url, &filled)
	                 : NULL;
	struct heed_stored_page p = {
	        .url = job->from,
	        .final_url = job->from,
	        .host = s->host_key,
	        .status = r->status,
	        .fetched_at = now,
	        .checked_at = now,
	        .title = o->title,
	        .views = -1,
	        .source_lastmod = job->lastmod,
	        .mode = heed_crawl_mode_name(c->mode),
	        .record = rec,
	};

	heed__free(c->alloc, base);
	if (!rec) {
		heed__crawl_oom(c);
		return;
	}
	if (heed__batch_page_put(c, &p, "storing a page read through oEmbed")) {
		c->p.pages++;
		c->run_pages++;
		c->p.oembed_read++;
		heed_log(&c->log, HEED_LOG_INFO, "crawl",
		         "%s: read through the owner's oEmbed endpoint (%u "
		         "fields)",
		         job->from, filled);
	}
	heed__free(c->alloc, rec);
}

/* Merges answer o into the stored record of page (record_oembed.c) and
 * writes it back through the store's one page update path. */
static void oembed_merge(heed_crawl *c, struct heed__site *s,
                         const struct heed__job *job,
                         const struct heed_net_response *r,
                         const struct heed_oembed *o)
{
	struct stored_copy k = {.alloc = c->alloc};
	heed_status rc = heed__read_page(c, job->from, copy_page, &k);
	unsigned filled = 0;
	char *rec = NULL;

	if (rc == HEED_ENOTFOUND && heed__arranged_oembed_of(s, job->url)) {
		oembed_new_page(c, s, job, r, o);
		return;
	}
	if (rc == HEED_ENOTFOUND) {
		/* Taken down or no longer indexed since it named o. */
		heed_log(&c->log, HEED_LOG_INFO, "crawl",
		         "%s: oEmbed answer for %s, which heed no longer holds",
		         job->url, job->from);
		return;
	}
	if (rc != HEED_OK)
		return;
	if (!k.oom)
		rec = heed__crawl_record_oembed(c->alloc, k.p.record, o,
		                                job->url, &filled);
	if (!rec) {
		free_copy(&k);
		heed__crawl_oom(c);
		return;
	}
	if (!k.p.title && o->title)
		k.p.title = copy_str(&k, o->title);
	heed__free(c->alloc, (void *)k.p.record);
	k.p.record = rec;
	if (k.oom)
		heed__crawl_oom(c);
	else if (heed__batch_page_put(c, &k.p,
	                              "storing a page's oEmbed values"))
		c->p.oembed_read++;
	heed_log(&c->log, HEED_LOG_INFO, "crawl",
	         "%s: oEmbed %s answer filled %u fields of %s", job->url,
	         o->type, filled, job->from);
	free_copy(&k);
}

/* An answer of a page's oEmbed endpoint. Redirects are not followed (an
 * endpoint that moves is the page's to name again) and nothing is
 * remembered between runs: it is asked again when its page changes. */
static void oembed(heed_crawl *c, struct heed__site *s,
                   const struct heed__job *job,
                   const struct heed_net_response *r)
{
	struct heed_header headers[4];
	struct heed_extract_input in;
	struct heed_oembed *o = NULL;
	struct heed_diag diag = {0};
	heed_status rc;

	if (r->status < 200 || r->status >= 300 || !job->from) {
		heed_log(&c->log, HEED_LOG_INFO, "crawl",
		         "%s: oEmbed endpoint answered %d", job->url,
		         r->status);
		heed__queue_finish(c, s, job, r->status);
		return;
	}
	extract_input(r, job->url, c->opt->agent_token, 0, headers, &in);
	rc = heed_extract_oembed(&o, &in, c->alloc, &diag);
	if (rc == HEED_ENOMEM) {
		heed__crawl_oom(c);
		return;
	}
	if (rc != HEED_OK) {
		heed_log(&c->log, HEED_LOG_INFO, "crawl", "%s: %s", job->url,
		         diag.message);
		c->p.errors++;
		c->run_errors++;
		heed__queue_finish(c, s, job, -(int)rc);
		return;
	}
	oembed_merge(c, s, job, r, o);
	heed_oembed_free(o);
	heed__queue_finish(c, s, job, r->status);
}

static bool passing_failure(const struct heed_net_response *r)
{
	return r->error != HEED_NET_OK || r->status == 0 || r->status == 429 ||
	       r->status >= 500;
}

void heed__answer(heed_crawl *c, struct heed__site *s,
                  const struct heed__job *job,
                  const struct heed_net_response *r, struct heed__page_work *w)
{
	heed_log(&c->log, HEED_LOG_DEBUG, "crawl", "GET %s: %d %s (%zu bytes)",
	         job->url, r->status, heed_net_error_name(r->error),
	         r->body_len);
	if (r->error == HEED_NET_CANCELLED)
		return; /* the row stays in flight: the next run fetches it */
	heed__life_keep_backoff(c, s->host);
	if (r->error == HEED_NET_ABORTED) {
		c->p.media_aborted++;
		heed__queue_finish(c, s, job, -HEED_EDENIED);
		return;
	}
	if (r->error == HEED_NET_TOO_BIG || r->error == HEED_NET_DENIED) {
		c->p.errors++;
		c->run_errors++;
		heed__queue_finish(c, s, job,
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
	if (job->kind == JOB_OEMBED)
		oembed(c, s, job, r);
	else if (r->status == 304)
		not_modified(c, s, job, r);
	else if (r->status >= 300 && r->status < 400 && r->location)
		redirect(c, s, job, r);
	else if (r->status < 200 || r->status >= 300)
		gone(c, s, job, r);
	else if (job->kind == JOB_PAGE)
		page(c, s, job, r, w);
	else
		feed(c, s, job, r);
}
