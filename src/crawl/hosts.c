/*
 * The crawl engine's hosts (issue 8: "Before every fetch: site qualified"):
 * a host is created the first time one of its URLs is queued; its pages
 * wait (the scheduler holds it) while heed_qualify runs the robots.txt
 * lifecycle of its site; once qualified, its rules (RFC 9309 and ACAP) are
 * parsed, ACAP action requests are acted on, its addresses are looked up
 * for page fetches, and the hold is released. A site that is not qualified
 * is dropped with its queue and reported.
 */
#include <string.h>
#include <sys/socket.h>

#include "crawl/engine-int.h"
#include "heed/store_sites.h"
#include "heed/url.h"

struct crawl_host *heed__crawl_host_find(struct crawl_engine *e,
                                         const char *key)
{
	struct crawl_host *h;

	if (!e->host_buckets)
		return NULL;
	h = e->hosts[(size_t)heed__hash_str(key) % e->host_buckets];
	while (h && strcmp(h->key, key) != 0)
		h = h->next;
	return h;
}

static void host_free(struct crawl_engine *e, struct crawl_host *h)
{
	heed_robots_agent_free(h->agent);
	heed_robots_free(h->robots);
	heed_acap_free(h->acap);
	heed__free(e->alloc, h->key);
	heed__free(e->alloc, h->origin);
	heed__free(e->alloc, h->name);
	heed__free(e->alloc, h);
}

void heed__crawl_hosts_free(struct crawl_engine *e)
{
	for (size_t i = 0; i < e->host_buckets; i++) {
		struct crawl_host *h = e->hosts[i];
		while (h) {
			struct crawl_host *next = h->next;
			host_free(e, h);
			h = next;
		}
	}
	heed__free(e->alloc, e->hosts);
	e->hosts = NULL;
	e->host_buckets = e->host_count = 0;
}

/* Keeps chains short: rehash at one host per bucket on average. */
static bool hosts_grow(struct crawl_engine *e)
{
	size_t n = e->host_buckets ? e->host_buckets * 2 : 256;
	struct crawl_host **t = heed__calloc(e->alloc, n, sizeof(*t));

	if (!t)
		return false;
	for (size_t i = 0; i < e->host_buckets; i++) {
		struct crawl_host *h = e->hosts[i];
		while (h) {
			struct crawl_host *next = h->next;
			size_t b = (size_t)heed__hash_str(h->key) % n;
			h->next = t[b];
			t[b] = h;
			h = next;
		}
	}
	heed__free(e->alloc, e->hosts);
	e->hosts = t;
	e->host_buckets = n;
	return true;
}

static char *dup_str(struct crawl_engine *e, const char *s)
{
	return heed__strndup(e->alloc, s, strlen(s));
}

/* The host name to look up: an IPv6 literal loses its brackets. */
static char *dns_name(struct crawl_engine *e, const char *host)
{
	size_t len = strlen(host);

	if (len >= 2 && host[0] == '[' && host[len - 1] == ']')
		return heed__strndup(e->alloc, host + 1, len - 2);
	return dup_str(e, host);
}

static struct crawl_host *host_new(struct crawl_engine *e, const heed_url *u,
                                   const char *url)
{
	struct crawl_host *h = heed__calloc(e->alloc, 1, sizeof(*h));
	struct heed_buf origin;
	char name[256];

	if (!h)
		return NULL;
	h->e = e;
	heed__buf_init(&origin, e->alloc, 1024);
	h->key = dup_str(e, heed_url_host_key(u));
	h->name = dns_name(e, heed_url_host(u));
	if (heed__buf_addf(&origin, "%s://%s", heed_url_scheme(u),
	                   heed_url_host_key(u)) == HEED_OK)
		h->origin = heed__buf_take(&origin);
	heed__buf_free(&origin);
	if (!h->key || !h->name || !h->origin ||
	    heed_qualify_site_of(url, h->site, sizeof(h->site), name,
	                         sizeof(name)) != HEED_OK) {
		host_free(e, h);
		return NULL;
	}
	return h;
}

static void host_out(struct crawl_engine *e, struct crawl_host *h,
                     const char *why)
{
	int64_t dropped = 0;

	h->state = HOST_OUT;
	e->p.sites_disqualified++;
	heed_sched_drop(e->sched, h->key);
	if (heed__crawl_tx(e) && heed_store_frontier_drop_host(
	                                 e->store, h->key, &dropped) != HEED_OK)
		heed__crawl_store_failed(e, "dropping a site's queue");
	e->p.queued = e->p.queued > dropped ? e->p.queued - dropped : 0;
	heed_log(&e->log, HEED_LOG_WARN, "crawl",
	         "%s: not crawled: %s (%lld queued URLs dropped)", h->origin,
	         why, (long long)dropped);
}

static void on_resolved(void *ud, const struct heed_dns_result *r)
{
	struct crawl_host *h = ud;
	struct crawl_engine *e = h->e;

	e->resolving--;
	for (size_t i = 0;
	     i < r->addr_count && h->addr_count < ENGINE_MAX_ADDRS; i++)
		if (heed_net_addr_allowed(&r->addrs[i],
		                          e->opt->net.allow_private))
			h->addrs[h->addr_count++] = r->addrs[i];
	if (r->outcome != HEED_DNS_FOUND || !h->addr_count) {
		host_out(e, h,
		         r->outcome != HEED_DNS_FOUND
		                 ? r->detail
		                 : "no address heed may connect to (private "
		                   "addresses need --allow-private)");
		return;
	}
	h->state = HOST_READY;
	if (heed_sched_hold(e->sched, h->key, false) != HEED_OK)
		e->failed = HEED_ENOMEM;
}

/* ACAP action requests addressed to heed (2.3): a take-down deletes the
 * records of the resource (a folder's when the path ends with '/'); a
 * re-crawl queues it again. Acted on once per robots.txt fetch. */
static void act_on_requests(struct crawl_engine *e, struct crawl_host *h)
{
	struct heed_acap_request req[64];
	size_t n = heed_acap_requests(h->acap, e->opt->agent_token, req,
	                              HEED_ARRAY_SIZE(req));
	struct heed_buf url;

	heed__buf_init(&url, e->alloc, HEED_URL_MAX_BYTES);
	for (size_t i = 0; i < n && i < HEED_ARRAY_SIZE(req); i++) {
		int64_t deleted = 0;
		size_t len = strlen(req[i].path);
		heed__buf_reset(&url);
		if (heed__buf_addf(&url, "%s%s", h->origin, req[i].path) !=
		            HEED_OK ||
		    !heed__crawl_tx(e))
			continue;
		if (req[i].action == HEED_ACAP_RE_CRAWL) {
			heed__crawl_enqueue(e, heed__buf_str(&url),
			                    HEED_FRONTIER_PAGE, 0, NULL,
			                    HEED_STORE_NO_DATE);
			continue;
		}
		if (heed_store_page_delete(e->store, heed__buf_str(&url),
		                           len && req[i].path[len - 1] == '/',
		                           &deleted) != HEED_OK)
			heed__crawl_store_failed(e, "an ACAP take-down");
		e->p.taken_down += deleted;
		heed_log(&e->log, HEED_LOG_INFO, "crawl",
		         "%s: ACAP take-down (robots.txt line %u): %lld "
		         "records deleted",
		         heed__buf_str(&url), req[i].line, (long long)deleted);
	}
	heed__buf_free(&url);
}

/* The sitemaps robots.txt lists, and /sitemap.xml, as incremental sources
 * (and as more public links in the default mode). */
static void queue_sitemaps(struct crawl_engine *e, struct crawl_host *h)
{
	struct heed_buf url;
	size_t n = h->robots ? heed_robots_sitemap_count(h->robots) : 0;

	heed__buf_init(&url, e->alloc, HEED_URL_MAX_BYTES);
	for (size_t i = 0; i < n; i++) {
		const struct heed_robots_sitemap *sm =
		        heed_robots_sitemap_get(h->robots, i);
		heed__buf_reset(&url);
		if (heed__buf_add(&url, sm->url, sm->url_len) == HEED_OK)
			heed__crawl_enqueue(e, heed__buf_str(&url),
			                    HEED_FRONTIER_SITEMAP, 0, NULL,
			                    HEED_STORE_NO_DATE);
	}
	heed__buf_reset(&url);
	if (heed__buf_addf(&url, "%s/sitemap.xml", h->origin) == HEED_OK)
		heed__crawl_enqueue(e, heed__buf_str(&url),
		                    HEED_FRONTIER_SITEMAP, 0, NULL,
		                    HEED_STORE_NO_DATE);
	heed__buf_free(&url);
}

/* Parses the rules in force. false on allocation failure. */
static bool load_rules(struct crawl_engine *e, struct crawl_host *h,
                       const char *body, size_t len)
{
	const char *agent = e->opt->agent_token;

	if (!body)
		return true;
	if (heed_robots_parse(&h->robots, e->alloc, body, len, NULL) !=
	            HEED_OK ||
	    heed_robots_agent_new(&h->agent, h->robots, agent, strlen(agent)) !=
	            HEED_OK ||
	    heed_acap_parse(&h->acap, e->alloc, body, len) != HEED_OK)
		return false;
	if (!heed_acap_present(h->acap)) {
		heed_acap_free(h->acap);
		h->acap = NULL;
	}
	return true;
}

/* Saves what the qualification learnt, as `heed site report` shows it. */
static void save_site(struct crawl_engine *e, struct crawl_host *h,
                      const struct heed_qualify_result *r)
{
	struct heed_store_site row = {0};
	struct heed_store_host hs = {r->backoff, r->last_request_ms};

	row.site = h->site;
	row.host = (char *)r->host;
	row.record = r->record;
	row.robots_url = (char *)r->robots_url;
	row.robots_body = (char *)r->body;
	row.robots_body_len = r->body_len;
	row.rules_body = r->has_rules ? (char *)r->body : NULL;
	row.rules_body_len = r->has_rules ? r->body_len : 0;
	row.crawl_delay_ms = r->crawl_delay_ms;
	if (!heed__crawl_tx(e) ||
	    heed_store_site_put(e->store, &row) != HEED_OK ||
	    heed_store_host_put(e->store, h->name, &hs) != HEED_OK)
		heed__crawl_store_failed(e, "saving a site's state");
}

/* Qualified: the rules in force are the new body, or the stored ones when
 * the site was not due for a new robots.txt fetch. */
static bool take_rules(struct crawl_engine *e, struct crawl_host *h,
                       const struct heed_qualify_result *r,
                       int64_t *crawl_delay_ms)
{
	struct heed_store_site row = {0};
	bool ok;

	*crawl_delay_ms = r->crawl_delay_ms;
	if (r->fetched)
		return load_rules(e, h, r->has_rules ? r->body : NULL,
		                  r->body_len);
	if (heed_store_site_get(e->store, h->site, &row) != HEED_OK)
		return true; /* nothing stored: qualified with no rules */
	ok = load_rules(e, h, row.rules_body, row.rules_body_len);
	*crawl_delay_ms = row.crawl_delay_ms;
	heed_store_site_clear(e->store, &row);
	return ok;
}

static void start_waiting(struct crawl_engine *e);

static void on_qualified(void *ud, const struct heed_qualify_result *r)
{
	struct crawl_host *h = ud;
	struct crawl_engine *e = h->e;
	int64_t delay_ms = 0;

	e->qualifying--;
	start_waiting(e);
	if (r->fetched)
		save_site(e, h, r);
	if (!heed_site_state_qualified(r->record.state)) {
		host_out(e, h,
		         r->record.detail[0]
		                 ? r->record.detail
		                 : heed_site_reason_name(r->record.reason));
		return;
	}
	if (!take_rules(e, h, r, &delay_ms)) {
		e->failed = HEED_ENOMEM;
		return;
	}
	if (heed_polite_set_crawl_delay(e->polite, h->name, delay_ms) ==
	    HEED_EDENIED) {
		host_out(e, h,
		         "its Crawl-delay is above politeness.crawl_delay_cap");
		return;
	}
	if (h->acap && r->fetched)
		act_on_requests(e, h);
	if (h->in_scope)
		queue_sitemaps(e, h);
	h->state = HOST_RESOLVING;
	e->resolving++;
	heed_dns_resolve(e->dns, h->name, AF_UNSPEC, on_resolved, h);
}

/* "the back-off state survives restarts" (issue 4), and so does the time
 * of the host's last request, moved onto this process's monotonic clock. */
static bool restore_host(struct crawl_engine *e, struct crawl_host *h)
{
	struct heed_store_host hs;
	int64_t mono_ms = heed__crawl_mono_ms();

	if (heed_store_host_get(e->store, h->name, &hs) != HEED_OK)
		return true; /* nothing stored, or unreadable: start afresh */
	if (heed_polite_set_backoff(e->polite, h->name, &hs.backoff) != HEED_OK)
		return false;
	h->backoff = hs.backoff.level > 0;
	if (!hs.last_request_ms)
		return true;
	return heed_polite_set_last_start(e->polite, h->name,
	                                  mono_ms - (heed__crawl_unix_ms() -
	                                             hs.last_request_ms)) ==
	       HEED_OK;
}

/* Starts the qualification of a host from its stored record. */
static bool qualify_now(struct crawl_engine *e, struct crawl_host *h)
{
	struct heed_store_site row = {0};
	struct heed_site_record record = {0};
	heed_status rc;

	if (!restore_host(e, h))
		return false;
	rc = heed_store_site_get(e->store, h->site, &row);
	if (rc == HEED_OK) {
		record = row.record;
		heed_store_site_clear(e->store, &row);
	} else if (rc != HEED_ENOTFOUND) {
		heed__crawl_store_failed(e, "reading a site's state");
	}
	h->state = HOST_QUALIFYING;
	e->qualifying++;
	if (heed_qualify_start(e->qualify, h->site, &record, on_qualified, h) !=
	    HEED_OK) {
		e->qualifying--;
		return false;
	}
	return true;
}

/* Holds a new host's pages and starts its qualification, or queues it
 * when max_active qualifications already run. */
static bool host_start(struct crawl_engine *e, struct crawl_host *h)
{
	if (heed_sched_hold(e->sched, h->key, true) != HEED_OK)
		return false;
	h->state = HOST_QUALIFYING;
	if (e->qualifying < e->opt->limits.max_active)
		return qualify_now(e, h);
	if (e->wait_tail)
		e->wait_tail->wait_next = h;
	else
		e->wait_head = h;
	e->wait_tail = h;
	e->waiting_qualification++;
	return true;
}

/* Starts waiting qualifications while slots are free. A qualification
 * may end inside heed_qualify_start (a site not due) and call this again:
 * the guard turns that into one more turn of this loop, not recursion. */
static void start_waiting(struct crawl_engine *e)
{
	if (e->starting_waiting)
		return;
	e->starting_waiting = true;
	while (e->wait_head && e->qualifying < e->opt->limits.max_active &&
	       e->failed == HEED_OK) {
		struct crawl_host *h = e->wait_head;
		e->wait_head = h->wait_next;
		if (!e->wait_head)
			e->wait_tail = NULL;
		e->waiting_qualification--;
		if (!qualify_now(e, h))
			e->failed = HEED_ENOMEM;
	}
	e->starting_waiting = false;
}

/* Normalised links skip heed_url_parse (engine-int.h). */
bool heed__crawl_plain_host_key(const char *url, char key[256])
{
	const char *p = url;
	size_t n = 0, colon = 0;
	bool https = strncmp(p, "https://", 8) == 0;

	if (!https && strncmp(p, "http://", 7) != 0)
		return false;
	p += https ? 8 : 7;
	for (; *p && *p != '/' && *p != '?' && *p != '#'; p++) {
		char c = *p;
		if (n == 255)
			return false;
		bool digit = c >= '0' && c <= '9';
		if (c == ':' && !colon && n)
			colon = n;
		else if (colon ? !digit
		               : !(digit || (c >= 'a' && c <= 'z') ||
		                   c == '.' || c == '-'))
			return false;
		key[n++] = c;
	}
	key[n] = '\0';
	if (!n || key[n - 1] == '.' || colon == n - 1)
		return false;
	/* A port the normal form would drop or rewrite. */
	if (colon && (key[colon + 1] == '0' ||
	              strcmp(key + colon, https ? ":443" : ":80") == 0))
		return false;
	/* Path and query: nothing the normal form would escape. */
	for (; *p; p++)
		if ((unsigned char)*p <= ' ' || (unsigned char)*p >= 0x7f ||
		    *p == '\\')
			return false;
	return true;
}

struct crawl_host *heed__crawl_host_get(struct crawl_engine *e, const char *url,
                                        bool seed)
{
	heed_url *u = NULL;
	struct crawl_host *h = NULL;
	char key[256];
	size_t b;

	if (!seed && heed__crawl_plain_host_key(url, key) &&
	    (h = heed__crawl_host_find(e, key)) != NULL)
		return h;
	if (heed_url_parse(&u, url, strlen(url), e->alloc) != HEED_OK)
		return NULL;
	h = heed__crawl_host_find(e, heed_url_host_key(u));
	if (h || !seed) {
		heed_url_free(u);
		return h;
	}
	if (e->host_count >= e->host_buckets && !hosts_grow(e)) {
		heed_url_free(u);
		return NULL;
	}
	h = host_new(e, u, url);
	heed_url_free(u);
	if (!h)
		return NULL;
	h->in_scope = true;
	b = (size_t)heed__hash_str(h->key) % e->host_buckets;
	h->next = e->hosts[b];
	e->hosts[b] = h;
	e->host_count++;
	e->p.sites++;
	if (!host_start(e, h))
		e->failed = HEED_ENOMEM;
	return h;
}
