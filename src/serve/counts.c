/*
 * What the home pages count: shown pages, sites, tags and listed IRC
 * networks, each up to HEED__SERVE_COUNT_CAP, so the HTML home page and
 * its JSON mirror say the same numbers; and whether a tag names any
 * shown page, so a tag's page and its JSON mirror answer 404 alike.
 */
#include <stdlib.h>
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

heed_status heed__serve_tag_known(heed_store *store, const char *tag,
                                  int64_t now_s, bool *known)
{
	struct heed_search_query q;
	int64_t n = 0;
	heed_status rc;

	memset(&q, 0, sizeof(q));
	q.tag = tag;
	q.published_from_s = q.published_to_s = HEED_STORE_NO_DATE;
	q.min_views = q.max_views = -1;
	q.sort = HEED_SEARCH_SORT_FETCHED;
	q.limit = 1;
	q.now_s = now_s;
	rc = heed_store_search_count(store, &q, 1, &n, NULL);
	*known = rc == HEED_OK && n > 0;
	return rc;
}

bool heed__serve_record_id(const char *s, int64_t *id)
{
	char *end;
	long long v;

	/* Digits only, no sign, space or leading zero: /records/014 is not
	 * another name of /records/14. */
	if (!s || s[0] < '1' || s[0] > '9' || strlen(s) > 18)
		return false;
	v = strtoll(s, &end, 10);
	if (*end)
		return false;
	*id = v;
	return true;
}
