/*
 * A site's rules in force (crawl-int.h): the RFC 9309 group for heed and
 * the ACAP 1.1 fields, parsed from one robots.txt body, and the questions
 * the controller asks of them. Pure. "Both rule sets must agree": where
 * the conventional records and ACAP say different things, the more
 * restrictive reading wins (docs/acap.md).
 */
#include <string.h>

#include "crawl/crawl-int.h"

heed_status heed__rules_load(struct heed__rules *r, const char *body,
                             size_t len, const char *agent,
                             const struct heed_allocator *a)
{
	memset(r, 0, sizeof(*r));
	if (!body)
		return HEED_OK;
	if (heed_robots_parse(&r->robots, a, body, len, NULL) != HEED_OK ||
	    heed_robots_agent_new(&r->agent, r->robots, agent, strlen(agent)) !=
	            HEED_OK ||
	    heed_acap_parse(&r->acap, a, body, len) != HEED_OK) {
		heed__rules_free(r);
		return HEED_ENOMEM;
	}
	if (!heed_acap_present(r->acap)) {
		heed_acap_free(r->acap);
		r->acap = NULL;
	}
	return HEED_OK;
}

void heed__rules_free(struct heed__rules *r)
{
	heed_robots_agent_free(r->agent);
	heed_robots_free(r->robots);
	heed_acap_free(r->acap);
	memset(r, 0, sizeof(*r));
}

/* The path and query of an absolute URL ("/" when it has none). */
static const char *path_of(const char *url)
{
	const char *p = strstr(url, "://");
	const char *slash = p ? strchr(p + 3, '/') : NULL;

	return slash ? slash : "/";
}

bool heed__rules_acap_permits(const struct heed__rules *r, const char *agent,
                              heed_acap_usage usage, const char *url,
                              int64_t now_s)
{
	struct heed_acap_decision *d = NULL;
	bool ok;

	if (!r->acap)
		return true;
	if (heed_acap_decide(r->acap, agent, NULL, 0, usage, path_of(url),
	                     now_s, NULL, &d) != HEED_OK)
		return false;
	ok = d->permitted;
	heed_acap_decision_free(d);
	return ok;
}

bool heed__rules_may_crawl(const struct heed__rules *r, const char *agent,
                           const char *url, int64_t now_s)
{
	struct heed_robots_decision d;

	if (r->agent &&
	    (heed_robots_decide(r->agent, url, strlen(url), &d) != HEED_OK ||
	     !d.allowed))
		return false;
	return heed__rules_acap_permits(r, agent, HEED_ACAP_CRAWL, url, now_s);
}
