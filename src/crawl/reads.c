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

heed_status heed__read_site(heed_crawl *c, const char *origin,
                            struct heed_store_site *row)
{
	return read_done(c, heed_store_site_get(c->store, origin, row),
	                 "reading a site's state");
}

heed_status heed__read_host(heed_crawl *c, const char *name,
                            struct heed_store_host *row)
{
	return read_done(c, heed_store_host_get(c->store, name, row),
	                 "reading a host's state");
}

heed_status heed__read_arrangement(heed_crawl *c, const char *name,
                                   struct heed_arrangement *a)
{
	return read_done(c, heed_store_arrangement_get(c->store, name, a),
	                 "reading an arrangement");
}

heed_status heed__read_visit(heed_crawl *c, const char *url,
                             struct heed_visit *v)
{
	return read_done(c, heed_store_visit_get(c->store, url, v),
	                 "reading a visit");
}

heed_status heed__read_visits_of_site(heed_crawl *c, const char *origin,
                                      unsigned kinds, heed_store_visit_fn *fn,
                                      void *ud)
{
	return read_done(
	        c, heed_store_visits_of_site(c->store, origin, kinds, fn, ud),
	        "reading the visits of a site");
}

heed_status heed__read_page(heed_crawl *c, const char *url,
                            heed_store_page_fn *fn, void *ud)
{
	return read_done(c, heed_store_page_get(c->store, url, fn, ud),
	                 "reading a page");
}

heed_status heed__read_page_validators(heed_crawl *c, const char *url,
                                       struct heed_page_validators *v)
{
	return read_done(c, heed_store_page_validators(c->store, url, v),
	                 "reading a page's validators");
}

heed_status heed__read_acap_ref(heed_crawl *c, const char *origin,
                                const char *locator,
                                struct heed_store_acap_ref *row)
{
	return read_done(
	        c, heed_store_acap_ref_get(c->store, origin, locator, row),
	        "reading an ACAP reference");
}

heed_status heed__read_acap_refs(heed_crawl *c, const char *origin,
                                 heed_store_acap_ref_fn *fn, void *ud)
{
	return read_done(c, heed_store_acap_ref_each(c->store, origin, fn, ud),
	                 "listing ACAP references");
}

heed_status heed__read_queue_window(heed_crawl *c, const char *origin,
                                    int64_t after_id, int max,
                                    heed_store_frontier_fn *fn, void *ud)
{
	return read_done(c,
	                 heed_store_frontier_queued(c->store, origin, after_id,
	                                            max, fn, ud),
	                 "loading a queue window");
}

heed_status heed__read_queued_hosts(heed_crawl *c,
                                    heed_store_frontier_host_fn *fn, void *ud)
{
	return read_done(c, heed_store_frontier_hosts(c->store, fn, ud),
	                 "listing the sites with queued URLs");
}
