/*
 * What the home pages count: shown pages, sites, tags and listed IRC
 * networks, each up to HEED__SERVE_COUNT_CAP, so the HTML home page and
 * its JSON mirror say the same numbers.
 */
#include <string.h>

#include "heed/store_irc.h"
#include "serve/serve-int.h"

bool heed__serve_irc_listed(const char *verdict)
{
	return strcmp(verdict, "deny") != 0 && strcmp(verdict, "invalid") != 0;
}

static int count_site(void *ud, const struct heed_search_site *s)
{
	(void)s;
	return ++*(int64_t *)ud >= HEED__SERVE_COUNT_CAP;
}

static int count_tag(void *ud, const struct heed_search_tag *t)
{
	(void)t;
	return ++*(int64_t *)ud >= HEED__SERVE_COUNT_CAP;
}

static int count_network(void *ud, const struct heed_store_irc_network_row *r)
{
	if (heed__serve_irc_listed(r->verdict))
		++*(int64_t *)ud;
	return 0;
}

heed_status heed__serve_counts(heed_store *store, int64_t now_s,
                               struct heed__serve_counts *c)
{
	struct heed_search_query q = {0};
	heed_status rc;

	memset(c, 0, sizeof(*c));
	q.published_from_s = q.published_to_s = HEED_STORE_NO_DATE;
	q.min_views = q.max_views = -1;
	q.sort = HEED_SEARCH_SORT_FETCHED;
	q.limit = 1;
	q.now_s = now_s;
	rc = heed_store_search_count(store, &q, HEED__SERVE_COUNT_CAP,
	                             &c->pages, NULL);
	if (rc == HEED_OK)
		rc = heed_store_search_sites(store, NULL, HEED__SERVE_COUNT_CAP,
		                             now_s, count_site, &c->sites);
	if (rc == HEED_OK)
		rc = heed_store_search_tags(store, NULL, HEED__SERVE_COUNT_CAP,
		                            now_s, count_tag, &c->tags);
	if (rc == HEED_OK)
		rc = heed_store_irc_each_network(store, count_network,
		                                 &c->networks);
	return rc;
}
