/*
 * The batch (crawl-int.h): every durable effect of the controller goes
 * into one open store transaction, committed by the injected clock
 * (ctl.c's commit_if_due) or before a step that needs the store to hold
 * it (a lease handed back, a renewal). A worker's batch carries its
 * fence: it commits only for hosts the worker still holds. A batch the
 * store lost (a connection, a deadlock, a fence) is redone from the
 * store. This file sits just above the registry (table.c): it reads
 * hosts, and every layer above writes the store through it, by the
 * heed__batch_* functions: besides the run's own rows (ctl.c) and the
 * lease protocol (worker.c), which commit around the batches, they are
 * the controller's only store writes (tests/crawl_layers.py checks it),
 * so that what a batch holds can be read from one file.
 */
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "crawl/crawl-int.h"
#include "heed/store_leases.h"

/* ---- failures and batches ---- */

/* The open batch cannot commit: a worker's fence found a host it wrote
 * for taken by another, or the store lost the batch and could not do it
 * again itself (heed_store_begin_batch: a read that answered otherwise
 * the second time, a server away past store.reconnect_timeout); nothing
 * of it was written. Rather than end the run, the controller redoes it
 * the only way that needs no copy of its writes: once the requests in
 * flight have ended, every idle site starts again from the store (redo),
 * which still holds their URLs queued or in flight, so what the batch
 * recorded is fetched and recorded again. */
static void redo_batch(heed_crawl *c, const char *why)
{
	heed_log(&c->log, HEED_LOG_WARN, "crawl",
	         "%s; the batch's %d writes are redone (its URLs fetched "
	         "again)",
	         why, c->tx_writes);
	c->in_tx = false;
	c->tx_writes = 0;
	c->unmarked_count = 0;
	c->run_pages = c->run_errors = 0;
	c->rewinding = true;
	/* Reconnects, waiting as store.reconnect_timeout allows. */
	if (heed_store_rollback(c->store) != HEED_OK && c->failed == HEED_OK) {
		heed_log(&c->log, HEED_LOG_ERROR, "crawl", "store: %s",
		         heed_store_errmsg(c->store));
		c->failed = HEED_ESTORE;
	}
}

void heed__crawl_store_failed(heed_crawl *c, const char *what)
{
	if (c->failed == HEED_OK && c->in_tx && heed_store_tx_lost(c->store)) {
		char why[HEED_DIAG_SIZE + 64];
		snprintf(why, sizeof(why), "store: %s: %s", what,
		         heed_store_errmsg(c->store));
		redo_batch(c, why);
		return;
	}
	if (c->rewinding)
		return; /* a write after the loss, skipped */
	if (c->failed == HEED_OK)
		heed_log(&c->log, HEED_LOG_ERROR, "crawl", "store: %s: %s",
		         what, heed_store_errmsg(c->store));
	if (c->failed == HEED_OK)
		c->failed = HEED_ESTORE;
}

bool heed__crawl_tx(heed_crawl *c)
{
	if (c->failed != HEED_OK || c->rewinding)
		return false;
	c->tx_writes++;
	if (c->in_tx)
		return true;
	if (heed_store_begin_batch(c->store) != HEED_OK) {
		heed__crawl_store_failed(c, "starting a batch");
		return false;
	}
	c->in_tx = true;
	c->tx_start_ms = c->now.mono_ms;
	return true;
}

/* The mark is written directly when the list cannot grow. */
void heed__crawl_in_flight(heed_crawl *c, const char *origin, int64_t id)
{
	if (!heed__crawl_tx(c))
		return;
	if (c->unmarked_count == c->unmarked_cap) {
		size_t cap = c->unmarked_cap ? c->unmarked_cap * 2 : 256;
		struct heed__unmarked *n =
		        heed__realloc(c->alloc, c->unmarked, cap * sizeof(*n));
		if (!n) {
			if (heed_store_frontier_set_state(
			            c->store, origin, id,
			            HEED_FRONTIER_IN_FLIGHT, 0) != HEED_OK)
				heed__crawl_store_failed(
				        c, "marking a URL in flight");
			return;
		}
		c->unmarked = n;
		c->unmarked_cap = cap;
	}
	c->unmarked[c->unmarked_count++] = (struct heed__unmarked){id, origin};
}

/* The list holds the requests started in one batch (a few hundred): a
 * scan from the newest is cheaper than a store statement. */
void heed__crawl_unmark(heed_crawl *c, int64_t id)
{
	for (size_t i = c->unmarked_count; i-- > 0;)
		if (c->unmarked[i].id == id) {
			c->unmarked[i] = c->unmarked[--c->unmarked_count];
			return;
		}
}

void heed__crawl_mark_in_flight(heed_crawl *c)
{
	while (c->unmarked_count && c->failed == HEED_OK && !c->rewinding) {
		struct heed__unmarked m = c->unmarked[--c->unmarked_count];
		if (heed_store_frontier_set_state(c->store, m.origin, m.id,
		                                  HEED_FRONTIER_IN_FLIGHT,
		                                  0) != HEED_OK)
			heed__crawl_store_failed(c, "marking a URL in flight");
	}
	c->unmarked_count = 0;
}

/* ---- the batch's writes: every durable effect of the layers above ----
 *
 * Each opens the batch if needed, writes, and records a failure (the run
 * ends, or a batch the store lost is redone); true when written. While no
 * batch takes writes (the run failed, or a lost batch is being redone)
 * they write nothing and return false, so that what a caller writes next
 * is skipped the same way. */

static bool written(heed_crawl *c, heed_status rc, const char *what)
{
	if (rc == HEED_OK)
		return true;
	heed__crawl_store_failed(c, what);
	return false;
}

bool heed__batch_page_put(heed_crawl *c, const struct heed_stored_page *p,
                          const char *what)
{
	return heed__crawl_tx(c) &&
	       written(c, heed_store_page_put(c->store, p), what);
}

heed_status heed__batch_page_unchanged(heed_crawl *c, const char *url,
                                       int64_t source_lastmod)
{
	heed_status rc;

	if (!heed__crawl_tx(c))
		return HEED_OK;
	rc = heed_store_page_unchanged(c->store, url, heed__crawl_unix_s(c),
	                               source_lastmod);
	if (rc != HEED_OK && rc != HEED_ENOTFOUND)
		heed__crawl_store_failed(c, "recording an unchanged page");
	return rc;
}

bool heed__batch_page_delete(heed_crawl *c, const char *url, bool prefix,
                             int64_t *deleted, const char *what)
{
	return heed__crawl_tx(c) &&
	       written(c,
	               heed_store_page_delete(c->store, url, prefix, deleted),
	               what);
}

/* A row of kind (HEED_STORE_KNOWN_*) written for origin's site: it is
 * read from the store from now on (reads.c). */
static void now_present(heed_crawl *c, const char *origin, unsigned kind)
{
	struct heed__site *s = origin ? heed__site_find(c, origin) : NULL;

	if (s)
		s->absent &= ~kind;
}

bool heed__batch_visit_put(heed_crawl *c, const struct heed_visit *v)
{
	now_present(c, v->site, HEED_STORE_KNOWN_VISITS);
	return heed__crawl_tx(c) &&
	       written(c, heed_store_visit_put(c->store, v),
	               "recording a visit");
}

bool heed__batch_site_put(heed_crawl *c, const struct heed_store_site *row)
{
	now_present(c, row->site, HEED_STORE_KNOWN_SITE);
	return heed__crawl_tx(c) &&
	       written(c, heed_store_site_put(c->store, row),
	               "saving a site's state");
}

bool heed__batch_host_put(heed_crawl *c, const char *name,
                          const struct heed_store_host *row)
{
	heed__host_get(c, name)->absent = false;
	return heed__crawl_tx(c) &&
	       written(c, heed_store_host_put(c->store, name, row),
	               "saving a host's back-off");
}

bool heed__batch_acap_ref_put(heed_crawl *c,
                              const struct heed_store_acap_ref *row)
{
	now_present(c, row->site, HEED_STORE_KNOWN_ACAP);
	return heed__crawl_tx(c) &&
	       written(c, heed_store_acap_ref_put(c->store, row),
	               "saving an ACAP reference");
}

bool heed__batch_acap_ref_delete(heed_crawl *c, const char *origin,
                                 const char *locator)
{
	return heed__crawl_tx(c) &&
	       written(c, heed_store_acap_ref_delete(c->store, origin, locator),
	               "deleting an ACAP reference");
}

bool heed__batch_frontier_add(heed_crawl *c,
                              const struct heed_frontier_entry *e)
{
	return heed__crawl_tx(c) &&
	       written(c, heed_store_frontier_add_later(c->store, e),
	               "queueing a URL");
}

bool heed__batch_frontier_added(heed_crawl *c, heed_store_added_fn *fn,
                                void *ud)
{
	if (c->failed != HEED_OK || c->rewinding)
		return false;
	return written(c, heed_store_frontier_added(c->store, fn, ud),
	               "queueing URLs");
}

bool heed__batch_frontier_done(heed_crawl *c, const char *origin, int64_t id,
                               int outcome)
{
	heed__crawl_unmark(c, id);
	return heed__crawl_tx(c) &&
	       written(c,
	               heed_store_frontier_set_state(c->store, origin, id,
	                                             HEED_FRONTIER_DONE,
	                                             outcome),
	               "finishing a URL");
}

bool heed__batch_frontier_retry(heed_crawl *c, const char *origin, int64_t id,
                                int *tries)
{
	heed__crawl_unmark(c, id);
	return heed__crawl_tx(c) &&
	       written(c,
	               heed_store_frontier_retry(c->store, origin, id, tries),
	               "putting a URL back in the queue");
}

bool heed__batch_frontier_drop(heed_crawl *c, const char *origin,
                               int64_t *dropped, const char *what)
{
	heed__crawl_mark_in_flight(c); /* a URL in flight is not dropped */
	return heed__crawl_tx(c) &&
	       written(c,
	               heed_store_frontier_drop_host(c->store, origin, dropped),
	               what);
}

bool heed__batch_frontier_undrop(heed_crawl *c, const char *origin,
                                 int64_t *requeued)
{
	heed__crawl_mark_in_flight(c);
	return heed__crawl_tx(c) && written(c,
	                                    heed_store_frontier_undrop_host(
	                                            c->store, origin, requeued),
	                                    "requeueing a site's URLs");
}

bool heed__batch_frontier_recover(heed_crawl *c, const char *const *origins,
                                  size_t n, int64_t *requeued)
{
	/* Also while a lost batch is redone: it is how a site starts again
	 * from the store (redo_batch), so it does not wait for a batch. */
	heed__crawl_mark_in_flight(c);
	return written(c,
	               heed_store_frontier_recover_hosts(c->store, origins, n,
	                                                 requeued),
	               "recovering the sites' queues");
}

static int64_t site_delay(const heed_crawl *c, const struct heed__site *s)
{
	return heed_polite_delay_ms(c->polite, s->host->name);
}

/* The sites offered since the last batch (table.c's heed__site_list_new):
 * those still with work, on hosts still not held here, become claimable
 * by every worker when this batch commits. Told together: one statement
 * for them all on PostgreSQL, not a round trip a site. */
static void write_offers(heed_crawl *c)
{
	const struct heed_allocator *a = c->alloc;
	const char **hosts, **origins;
	int64_t *delays;
	size_t n = 0, count = 0;

	for (struct heed__site *s = c->offers; s; s = s->offer_next)
		count++;
	if (!count)
		return;
	hosts = heed__calloc(a, count, sizeof(*hosts));
	origins = heed__calloc(a, count, sizeof(*origins));
	delays = heed__calloc(a, count, sizeof(*delays));
	if (!hosts || !origins || !delays)
		heed__crawl_oom(c);
	while (c->offers) {
		struct heed__site *s = c->offers;
		c->offers = s->offer_next;
		s->offer_next = NULL;
		s->offered = false;
		if (c->failed != HEED_OK || s->host->leased ||
		    !heed__lane_has_work(&s->lane))
			continue;
		hosts[n] = s->host->name;
		origins[n] = s->origin;
		delays[n++] = site_delay(c, s);
	}
	if (n && heed__crawl_tx(c) &&
	    heed_store_lease_ensure_origins(c->store, hosts, origins, delays, n,
	                                    c->now.unix_ms) != HEED_OK)
		heed__crawl_store_failed(c, "offering sites to the workers");
	heed__free(a, hosts);
	heed__free(a, origins);
	heed__free(a, delays);
}

void heed__crawl_commit(heed_crawl *c)
{
	write_offers(c);
	if (!c->in_tx)
		return;
	heed__crawl_mark_in_flight(c);
	if (!c->in_tx)
		return; /* a mark's statement lost the batch */
	/* A worker's batch commits only for hosts it still holds. */
	if (!heed__worker_fence(c)) {
		redo_batch(c, "a lease was lost before the batch that wrote "
		              "for its host committed");
		return;
	}
	if (!c->in_tx)
		return; /* the fence's own statement lost the batch */
	if ((c->run_id && heed_store_run_add(c->store, c->run_id, c->run_pages,
	                                     c->run_errors) != HEED_OK) ||
	    heed_store_commit(c->store) != HEED_OK) {
		heed__crawl_store_failed(c, "committing a batch");
		if (c->in_tx)
			heed_store_rollback(c->store);
	} else {
		c->committed = true;
	}
	c->run_pages = c->run_errors = 0;
	c->in_tx = false;
	c->tx_writes = 0;
}

/* Whether the search index is behind by lag_ms or more, where the
 * crawl's thread keeps it. */
static bool index_behind(const heed_crawl *c, int64_t lag_ms)
{
	return !c->index_beside && c->now.mono_ms - c->indexed_ms >= lag_ms;
}

static void catch_up(heed_crawl *c, int64_t max_pages)
{
	if (c->in_tx || c->failed != HEED_OK || c->rewinding)
		return;
	c->indexed_ms = c->now.mono_ms;
	/* Its own transactions: a failure here is not the batch's. */
	heed__index_catch_up(c->store, &c->log, max_pages, "");
}

void heed__crawl_index(heed_crawl *c, bool all)
{
	if (all)
		catch_up(c, 0);
	else if (index_behind(c, 2 * CRAWL_INDEX_MS))
		catch_up(c, CRAWL_INDEX_PAGES);
}

void heed__crawl_spare(heed_crawl *c, int64_t spare_ms)
{
	if (c->index_beside || c->reqs || spare_ms < CRAWL_SPARE_MS ||
	    c->failed != HEED_OK || c->rewinding)
		return;
	heed__crawl_commit(c);
	if (index_behind(c, CRAWL_INDEX_MS))
		catch_up(c, CRAWL_INDEX_PAGES);
}

void heed__lease_lose(heed_crawl *c, struct heed__host *h, const char *why)
{
	if (h->lease_lost)
		return;
	h->lease_lost = true;
	c->p.leases_lost++;
	heed_log(&c->log, HEED_LOG_WARN, "crawl",
	         "%s: lease lost (%s): no request starts to it here", h->name,
	         why);
}

void heed__worker_touch(heed_crawl *c, struct heed__host *h)
{
	struct heed__worker *w = &c->w;

	if (!heed__worker_on(c) || !h->leased || h->touched)
		return;
	if (w->touched_count == w->touched_cap) {
		size_t cap = w->touched_cap ? w->touched_cap * 2 : 64;
		struct heed__host **n =
		        heed__realloc(c->alloc, w->touched, cap * sizeof(*n));
		if (!n) {
			heed__crawl_oom(c);
			return;
		}
		w->touched = n;
		w->touched_cap = cap;
	}
	w->touched[w->touched_count++] = h;
	h->touched = true;
}

static int still_held(void *ud, const struct heed_site_lease *l)
{
	heed_crawl *c = ud;
	struct heed__host *h = heed__host_get(c, l->site);

	if (h)
		h->touched = false; /* held: its writes may commit */
	return 0;
}

/* The names of the touched hosts as a JSON array; NULL when out of
 * memory (the caller frees it with json_object_put). */
static json_object *touched_names(const heed_crawl *c)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; a && i < c->w.touched_count; i++) {
		json_object *s = json_object_new_string(c->w.touched[i]->name);
		if (!s || json_object_array_add(a, s) != 0) {
			json_object_put(s);
			json_object_put(a);
			return NULL;
		}
	}
	return a;
}

bool heed__worker_fence(heed_crawl *c)
{
	struct heed__worker *w = &c->w;
	json_object *names;
	bool ok = true;

	if (!heed__worker_on(c) || !w->touched_count)
		return true;
	names = touched_names(c);
	if (!names)
		heed__crawl_oom(c);
	else if (heed_store_lease_hold(c->store, c->opt->worker.holder,
	                               json_object_to_json_string_ext(
	                                       names, JSON_C_TO_STRING_PLAIN),
	                               still_held, c) != HEED_OK)
		heed__crawl_store_failed(c, "checking the leases of a batch");
	json_object_put(names);
	for (size_t i = 0; i < w->touched_count; i++) {
		struct heed__host *h = w->touched[i];
		if (h->touched && c->failed == HEED_OK && !c->rewinding) {
			heed__lease_lose(
			        c, h,
			        "lost before the batch that wrote for it "
			        "committed");
			ok = false;
		}
		h->touched = false;
	}
	w->touched_count = 0;
	return ok;
}

void heed__worker_free(heed_crawl *c)
{
	heed__free(c->alloc, c->w.touched);
	c->w.touched = NULL;
	c->w.touched_count = c->w.touched_cap = 0;
	heed__free(c->alloc, c->unmarked);
	c->unmarked = NULL;
	c->unmarked_count = c->unmarked_cap = 0;
}
