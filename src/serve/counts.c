/*
 * What the home pages count: shown pages, sites, tags and listed IRC
 * networks, each up to HEED__SERVE_COUNT_CAP, so the HTML home page and
 * its JSON mirror say the same numbers.
 */
#include <string.h>

#include "heed/store_irc.h"
#include "serve/serve-int.h"

static int count_network(void *ud, const struct heed_store_irc_network_row *r)
{
	if (heed_store_irc_published(r->verdict))
		++*(int64_t *)ud;
	return 0;
}

/* The store's totals are exact; the pages print them up to the cap, as
 * they always have. */
static int64_t capped(int64_t n)
{
	return n < HEED__SERVE_COUNT_CAP ? n : HEED__SERVE_COUNT_CAP;
}

heed_status heed__serve_counts(heed_store *store, int64_t now_s,
                               struct heed__serve_counts *c)
{
	struct heed_search_totals t;
	heed_status rc;

	memset(c, 0, sizeof(*c));
	rc = heed_store_search_totals(store, now_s, &t);
	if (rc == HEED_OK) {
		c->pages = capped(t.pages);
		c->sites = capped(t.sites);
		c->tags = capped(t.tags);
		rc = heed_store_irc_each_network(store, count_network,
		                                 &c->networks);
	}
	return rc;
}
