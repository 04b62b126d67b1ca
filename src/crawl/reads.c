/*
 * The controller's reads of the store (crawl-int.h), beside its writes
 * (batch.c): the one door every layer above reads the store through, so
 * that what the controller asks of the store can be read from one file
 * and a failed read is handled one way. A read that fails is never taken
 * for a row that is not there: out of memory ends the run as such, any
 * other failure is a store failure (the run ends, or a batch the store
 * lost is redone). HEED_ENOTFOUND is an answer, not a failure. Each
 * function returns what the store's function of the same name returns,
 * and its outputs are those of that function (freed the same way).
 */
#include <string.h>

#include "crawl/crawl-int.h"
#include "heed/store_arrangements.h"

static heed_status read_done(heed_crawl *c, heed_status rc, const char *what)
{
	if (rc == HEED_ENOMEM)
		heed__crawl_oom(c);
	else if (rc != HEED_OK && rc != HEED_ENOTFOUND)
		heed__crawl_store_failed(c, what);
	return rc;
}

void heed__read_known(heed_crawl *c, struct heed__site **sites, size_t n)
{
	const struct heed_allocator *a = c->alloc;
	const char **origins, **hosts;
	unsigned *known;
	heed_status rc;

	if (!n || c->failed != HEED_OK)
		return;
	origins = heed__calloc(a, n, sizeof(*origins));
	hosts = heed__calloc(a, n, sizeof(*hosts));
	known = heed__calloc(a, n, sizeof(*known));
	if (origins && hosts && known) {
		for (size_t i = 0; i < n; i++) {
			origins[i] = sites[i]->origin;
			hosts[i] = sites[i]->host->name;
		}
		rc = heed_store_sites_known(c->store, origins, hosts, n, known);
		/* Outside a batch a failure loses nothing: every row is then
		 * asked for alone, as before, and a store that cannot answer
		 * says so there. In a batch it is the batch's. */
		if (rc != HEED_OK && (c->in_tx || rc == HEED_ENOMEM))
			read_done(c, rc, "asking which sites the store holds");
		else if (rc == HEED_OK)
			for (size_t i = 0; i < n; i++) {
				sites[i]->asked = true;
				sites[i]->absent =
				        ~known[i] & (HEED_STORE_KNOWN_SITE |
				                     HEED_STORE_KNOWN_VISITS |
				                     HEED_STORE_KNOWN_ACAP);
				if (!sites[i]->host->restored)
					sites[i]->host->absent =
					        !(known[i] &
					          HEED_STORE_KNOWN_HOST);
				sites[i]->host->unarranged =
				        !(known[i] & HEED_STORE_KNOWN_ARRANGED);
				if (known[i] & HEED_STORE_KNOWN_DROPPED)
					sites[i]->maybe_dropped = true;
			}
	} else {
		heed__crawl_oom(c);
	}
	heed__free(a, origins);
	heed__free(a, hosts);
	heed__free(a, known);
}

void heed__read_known_forget(struct heed__site *s)
{
	s->absent = 0;
	s->asked = false;
	s->host->absent = false;
	s->host->unarranged = false;
}

/* Whether the store was found to hold no such row of origin's site. */
static bool absent(heed_crawl *c, const char *origin, unsigned row)
{
	const struct heed__site *s = heed__site_find(c, origin);

	return s && (s->absent & row);
}

heed_status heed__read_site(heed_crawl *c, const char *origin,
                            struct heed_store_site *row)
{
	if (absent(c, origin, HEED_STORE_KNOWN_SITE)) {
		memset(row, 0, sizeof(*row));
		return HEED_ENOTFOUND;
	}
	return read_done(c, heed_store_site_get(c->store, origin, row),
	                 "reading a site's state");
}

heed_status heed__read_host(heed_crawl *c, const char *name,
                            struct heed_store_host *row)
{
	if (heed__host_get(c, name)->absent) {
		/* A host heed never asked has no state: the zeroed one. */
		memset(row, 0, sizeof(*row));
		return HEED_OK;
	}
	return read_done(c, heed_store_host_get(c->store, name, row),
	                 "reading a host's state");
}

heed_status heed__read_arrangement(heed_crawl *c, const char *name,
                                   struct heed_arrangement *a)
{
	/* Only `heed sites` writes arrangements, never the crawl: the
	 * answer stays true for the few seconds until this read. */
	if (heed__host_get(c, name)->unarranged)
		return HEED_ENOTFOUND;
	return read_done(c, heed_store_arrangement_get(c->store, name, a),
	                 "reading an arrangement");
}

heed_status heed__read_visit(heed_crawl *c, const char *origin, const char *url,
                             struct heed_visit *v)
{
	return read_done(c, heed_store_visit_get(c->store, origin, url, v),
	                 "reading a visit");
}

heed_status heed__read_visits_of_site(heed_crawl *c, const char *origin,
                                      unsigned kinds, heed_store_visit_fn *fn,
                                      void *ud)
{
	if (absent(c, origin, HEED_STORE_KNOWN_VISITS))
		return HEED_OK;
	return read_done(
	        c, heed_store_visits_of_site(c->store, origin, kinds, fn, ud),
	        "reading the visits of a site");
}

heed_status heed__read_visits_of_urls(heed_crawl *c, const char *origin,
                                      const char *const *urls, size_t n,
                                      heed_store_visit_fn *fn, void *ud)
{
	if (absent(c, origin, HEED_STORE_KNOWN_VISITS))
		return HEED_OK;
	return read_done(
	        c, heed_store_visits_of_urls(c->store, origin, urls, n, fn, ud),
	        "reading the visits of a list of URLs");
}

heed_status heed__read_page(heed_crawl *c, const char *url,
                            heed_store_page_fn *fn, void *ud)
{
	return read_done(c, heed_store_page_get(c->store, url, fn, ud),
	                 "reading a page");
}

heed_status heed__read_page_dates(heed_crawl *c, const char *const *urls,
                                  size_t n, int64_t *fetched_at,
                                  int64_t *source_lastmod)
{
	return read_done(c,
	                 heed_store_page_dates(c->store, urls, n, fetched_at,
	                                       source_lastmod),
	                 "reading the dates of a list of pages");
}

heed_status heed__read_acap_ref(heed_crawl *c, const char *origin,
                                const char *locator,
                                struct heed_store_acap_ref *row)
{
	if (absent(c, origin, HEED_STORE_KNOWN_ACAP)) {
		memset(row, 0, sizeof(*row));
		return HEED_ENOTFOUND;
	}
	return read_done(
	        c, heed_store_acap_ref_get(c->store, origin, locator, row),
	        "reading an ACAP reference");
}

heed_status heed__read_acap_refs(heed_crawl *c, const char *origin,
                                 heed_store_acap_ref_fn *fn, void *ud)
{
	if (absent(c, origin, HEED_STORE_KNOWN_ACAP))
		return HEED_OK;
	return read_done(c, heed_store_acap_ref_each(c->store, origin, fn, ud),
	                 "listing ACAP references");
}

heed_status heed__read_queue_windows(heed_crawl *c, const char *const *origins,
                                     const int64_t *after_ids, size_t n,
                                     int max, heed_store_frontier_window_fn *fn,
                                     void *ud)
{
	return read_done(c,
	                 heed_store_frontier_windows(c->store, origins,
	                                             after_ids, n, max, fn, ud),
	                 "loading the sites' queue windows");
}

heed_status heed__read_queued_hosts(heed_crawl *c,
                                    heed_store_frontier_host_fn *fn, void *ud)
{
	return read_done(c, heed_store_frontier_hosts(c->store, fn, ud),
	                 "listing the sites with queued URLs");
}
