/*
 * The robots.txt lifecycle over the network: a thin shell that feeds the
 * pure state machine (src/sitepolicy) with what DNS (heed_dns) and HTTP
 * (heed_net) report, asks politeness (src/politeness) before every fetch,
 * and performs the machine's actions. Seed: robots-txt-download-lifecycle;
 * docs/robots-lifecycle.md.
 *
 * Invariants: a job is in q->jobs from heed_qualify_start until its done
 * callback has run; only finish() frees it, and step() reports whether the
 * job survived, so no code touches a finished job. A fetch starts only when
 * heed_polite_check says READY for the host and the address.
 */
#include <curl/curl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "heed/robots.h"
#include "net/net-int.h"
#include "heed/qualify.h"

#define MAX_ADDRS 32
/* How often a run whose address is busy asks politeness again. */
#define BUSY_RETRY_MS 100

enum phase {
	PH_IDLE,   /* waiting for DNS or for a fetch to end */
	PH_POLITE, /* waiting until ready_ms to fetch address */
	PH_PAUSE,  /* waiting until ready_ms to send TIMER */
};

struct job {
	struct job *next;
	heed_qualify *q;
	heed_site *site;
	char *key;  /* the site, "http://host:port" */
	char *host; /* the site's host: the politeness and back-off key */
	char *url;  /* robots.txt URL being fetched (changes on redirect) */
	char *target_host; /* host of url */
	struct heed_dns_addr addrs[MAX_ADDRS];
	size_t addr_count;
	size_t address; /* to fetch */
	enum phase phase;
	int64_t ready_ms;
	bool dns_pending, fetch_pending;
	char *answer_url; /* URL of the last answer */
	char *body;       /* last 2xx body */
	size_t body_len;
	char *content_type; /* of that body */
	int64_t crawl_delay_ms;
	unsigned attempts;
	heed_qualify_done_fn *done;
	void *ud;
};

struct heed_qualify {
	const struct heed_allocator *alloc;
	struct heed_logger logger;
	heed_dns *dns;
	heed_net *net;
	heed_polite *polite;
	struct heed_qualify_options opt;
	char *agent;
	struct job *jobs;
	size_t pending;
};

static void clock_now(struct heed_site_clock *c)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	c->unix_s = ts.tv_sec;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	c->mono_ms = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static struct heed_polite_clock polite_now(const struct heed_site_clock *c)
{
	struct heed_polite_clock p = {c->unix_s, c->mono_ms};

	return p;
}

static bool set_str(heed_qualify *q, char **slot, const char *s, size_t len)
{
	char *copy = s ? heed__strndup(q->alloc, s, len) : NULL;

	if (s && !copy)
		return false;
	heed__free(q->alloc, *slot);
	*slot = copy;
	return true;
}

static void free_job(heed_qualify *q, struct job *j)
{
	heed_site_free(j->site);
	heed__free(q->alloc, j->key);
	heed__free(q->alloc, j->host);
	heed__free(q->alloc, j->url);
	heed__free(q->alloc, j->target_host);
	heed__free(q->alloc, j->answer_url);
	heed__free(q->alloc, j->body);
	heed__free(q->alloc, j->content_type);
	heed__free(q->alloc, j);
}

static void unlink_job(heed_qualify *q, struct job *j)
{
	struct job **pp;

	for (pp = &q->jobs; *pp; pp = &(*pp)->next) {
		if (*pp == j) {
			*pp = j->next;
			q->pending--;
			return;
		}
	}
}

/* The host's last request as Unix milliseconds, for the store: the
 * monotonic time politeness knows, moved onto the wall clock. */
static int64_t last_request_unix_ms(heed_qualify *q, const char *host)
{
	struct heed_site_clock now;
	struct timespec ts;
	int64_t mono = 0;

	if (!heed_polite_get_last_start(q->polite, host, &mono))
		return 0;
	clock_now(&now);
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000 -
	       (now.mono_ms - mono);
}

/* The run is over: hand the result over, then forget the job. */
static void finish(struct job *j)
{
	heed_qualify *q = j->q;
	struct heed_qualify_result r = {0};
	const struct heed_site_record *rec = heed_site_get_record(j->site);

	r.site = j->key;
	r.host = j->host;
	r.record = *rec;
	r.fetched = j->attempts > 0;
	r.robots_url = j->answer_url;
	r.body = j->body;
	r.body_len = j->body_len;
	r.attempts = j->attempts;
	r.has_rules = rec->state == HEED_SITE_QUALIFIED_RULES && r.fetched;
	r.crawl_delay_ms = r.has_rules ? j->crawl_delay_ms : 0;
	if (r.has_rules)
		heed_polite_set_crawl_delay(q->polite, j->host,
		                            r.crawl_delay_ms);
	heed_polite_get_backoff(q->polite, j->host, &r.backoff);
	r.last_request_ms = last_request_unix_ms(q, j->host);
	/* A 429/503 back-off also holds back the next robots.txt attempt. */
	if (r.record.state == HEED_SITE_DISQUALIFIED &&
	    r.backoff.until_s > r.record.next_attempt_s)
		r.record.next_attempt_s = r.backoff.until_s;
	heed_log(&q->logger, HEED_LOG_INFO, "qualify", "%s: %s (%s)", j->key,
	         heed_site_state_name(r.record.state), r.record.detail);
	unlink_job(q, j);
	j->done(j->ud, &r);
	free_job(q, j);
}

static bool apply(struct job *j, const struct heed_site_action *a);

/* Feeds one event; false when the run finished (j is gone). */
static bool step(struct job *j, const struct heed_site_event *ev)
{
	struct heed_site_clock now;
	struct heed_site_action a;

	clock_now(&now);
	if (heed_site_step(j->site, ev, &now, &a) != HEED_OK) {
		/* A shell bug: end the run rather than hang it. */
		finish(j);
		return false;
	}
	return apply(j, &a);
}

static bool fail_event(struct job *j, heed_site_event_kind kind,
                       const char *detail)
{
	struct heed_site_event ev = {.kind = kind, .detail = detail};

	return step(j, &ev);
}

static void on_dns(void *ud, const struct heed_dns_result *res)
{
	struct job *j = ud;
	struct heed_site_event ev = {.kind = HEED_SITE_EV_RESOLVED};
	char detail[160];
	size_t i, refused = 0;

	j->dns_pending = false;
	if (res->outcome == HEED_DNS_CANCELLED)
		return;
	if (res->outcome != HEED_DNS_FOUND) {
		snprintf(detail, sizeof(detail), "%s: %s (%s)", res->query,
		         heed_dns_outcome_name(res->outcome), res->detail);
		fail_event(j, HEED_SITE_EV_RESOLVE_FAILED, detail);
		return;
	}
	j->addr_count = 0;
	for (i = 0; i < res->addr_count && j->addr_count < MAX_ADDRS; i++) {
		if (!heed_net_addr_allowed(&res->addrs[i],
		                           j->q->opt.allow_private)) {
			refused++;
			continue;
		}
		j->addrs[j->addr_count++] = res->addrs[i];
	}
	if (j->addr_count == 0 && refused) {
		snprintf(detail, sizeof(detail),
		         "%s: every address is private, loopback, link-local "
		         "or reserved (--allow-private allows the first three)",
		         res->query);
		fail_event(j, HEED_SITE_EV_RESOLVE_FAILED, detail);
		return;
	}
	ev.address_count = j->addr_count;
	step(j, &ev);
}

static bool resolve(struct job *j)
{
	char site[512], host[256];

	if (heed_qualify_site_of(j->url, site, sizeof(site), host,
	                         sizeof(host)) != HEED_OK)
		return fail_event(j, HEED_SITE_EV_RESOLVE_FAILED,
		                  "redirect to a URL that is not http(s)");
	if (!set_str(j->q, &j->target_host, host, strlen(host)))
		return fail_event(j, HEED_SITE_EV_RESOLVE_FAILED,
		                  "out of memory");
	j->phase = PH_IDLE;
	j->dns_pending = true;
	/* The callback may run at once (an address literal): nothing may
	 * touch j after this call. */
	heed_dns_resolve(j->q->dns, host, AF_UNSPEC, on_dns, j);
	return true;
}

static void keep_answer(struct job *j, const struct heed_net_response *r)
{
	heed_qualify *q = j->q;

	set_str(q, &j->answer_url, r->url, strlen(r->url));
	if (r->status >= 200 && r->status < 300) {
		set_str(q, &j->body, r->body ? r->body : "", r->body_len);
		j->body_len = j->body ? r->body_len : 0;
		set_str(q, &j->content_type, r->content_type,
		        r->content_type ? strlen(r->content_type) : 0);
	}
	if (r->location)
		set_str(q, &j->url, r->location, strlen(r->location));
}

/* 2xx: the body, then its verdict (seed, step 3). */
static void judge_body(struct job *j, const struct heed_net_response *r)
{
	struct heed_site_event ev = {.kind = HEED_SITE_EV_BODY_COMPLETE};
	struct heed_site_robots robots;

	if (r->truncated ||
	    (r->error != HEED_NET_OK && r->error != HEED_NET_TOO_BIG))
		ev.kind = HEED_SITE_EV_BODY_TRUNCATED;
	if (!step(j, &ev) || heed_site_get_state(j->site) != HEED_SITE_PARSING)
		return;
	memset(&ev, 0, sizeof(ev));
	ev.kind = HEED_SITE_EV_PARSED;
	if (heed_site_read_robots(j->body, j->body_len, j->content_type,
	                          j->q->agent, j->q->alloc,
	                          &robots) != HEED_OK) {
		/* Out of memory: the body is kept with the record, and the
		 * crawler parses its rules again before using them. */
		fail_event(j, HEED_SITE_EV_PARSED, NULL);
		return;
	}
	ev.verdict = robots.verdict;
	ev.crawl_delay_ms = robots.crawl_delay_ms;
	j->crawl_delay_ms = robots.crawl_delay_ms;
	step(j, &ev);
}

static void on_fetched(void *ud, const struct heed_net_response *r)
{
	struct job *j = ud;
	struct heed_site_event ev = {.kind = HEED_SITE_EV_STATUS};
	struct heed_site_clock now;
	struct heed_polite_clock pnow;
	struct heed_polite_result pr = {r->connected, r->status, false, 0};
	char detail[200];

	j->fetch_pending = false;
	if (r->error == HEED_NET_CANCELLED)
		return;
	clock_now(&now);
	pnow = polite_now(&now);
	if (r->retry_after &&
	    heed_retry_after_parse(r->retry_after, strlen(r->retry_after),
	                           now.unix_s, &pr.retry_after_s) == HEED_OK)
		pr.has_retry_after = true;
	heed_polite_end(j->q->polite, j->target_host, r->address, &pnow, &pr);
	if (r->status == 0) {
		snprintf(detail, sizeof(detail), "%s: %s (%s)", r->address,
		         heed_net_error_name(r->error), r->error_text);
		fail_event(j, HEED_SITE_EV_ATTEMPT_FAILED, detail);
		return;
	}
	keep_answer(j, r);
	ev.status = r->status;
	ev.has_location = r->location != NULL;
	if (!step(j, &ev) || heed_site_get_state(j->site) != HEED_SITE_READING)
		return;
	judge_body(j, r);
}

/* Fetches address j->address if politeness allows it now; otherwise
 * schedules another try. False when the run finished. */
static bool try_fetch(struct job *j)
{
	heed_qualify *q = j->q;
	const struct heed_dns_addr *addr = &j->addrs[j->address];
	struct heed_net_request req = {
	        j->url, addr,       HEED_ROBOTS_PARSE_LIMIT_BYTES,
	        NULL,   on_fetched, j};
	struct heed_site_clock now;
	struct heed_polite_clock pnow;
	int64_t wait = 0;
	heed_polite_verdict v;
	heed_status rc;

	clock_now(&now);
	pnow = polite_now(&now);
	v = heed_polite_check(q->polite, j->target_host, addr->text, &pnow,
	                      HEED_POLITE_IGNORE_BACKOFF, &wait);
	if (v != HEED_POLITE_READY) {
		j->phase = PH_POLITE;
		j->ready_ms = now.mono_ms +
		              (v == HEED_POLITE_WAIT ? wait : BUSY_RETRY_MS);
		return true;
	}
	j->phase = PH_IDLE;
	if (heed_polite_begin(q->polite, j->target_host, addr->text, &pnow) !=
	    HEED_OK)
		return fail_event(j, HEED_SITE_EV_ATTEMPT_FAILED,
		                  "out of memory");
	rc = heed_net_start(q->net, &req);
	if (rc != HEED_OK) {
		struct heed_polite_result none = {0};
		heed_polite_end(q->polite, j->target_host, addr->text, &pnow,
		                &none);
		return fail_event(j, HEED_SITE_EV_ATTEMPT_FAILED,
		                  heed_strerror(rc));
	}
	j->attempts++;
	j->fetch_pending = true;
	return true;
}

static bool apply(struct job *j, const struct heed_site_action *a)
{
	switch (a->kind) {
	case HEED_SITE_DO_NOTHING:
		return true;
	case HEED_SITE_DO_RESOLVE:
		return resolve(j);
	case HEED_SITE_DO_FETCH:
		j->address = a->address;
		return try_fetch(j);
	case HEED_SITE_DO_WAIT:
		j->phase = PH_PAUSE;
		j->ready_ms = a->until_ms;
		return true;
	case HEED_SITE_DO_DONE:
		finish(j);
		return false;
	}
	return true;
}

heed_status heed_qualify_site_of(const char *url, char *site, size_t site_size,
                                 char *host, size_t host_size)
{
	CURLU *u = curl_url();
	char *scheme = NULL, *h = NULL, *port = NULL;
	heed_status rc = HEED_EINVAL;
	size_t i;
	int n;

	if (!u)
		return HEED_ENOMEM;
	if (curl_url_set(u, CURLUPART_URL, url, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_HOST, &h, 0) != CURLUE_OK ||
	    (strcmp(scheme, "http") != 0 && strcmp(scheme, "https") != 0))
		goto out;
	for (i = 0; h[i]; i++)
		h[i] = heed__ascii_lower(h[i]);
	/* CURLUPART_PORT without CURLU_DEFAULT_PORT is set only when the
	 * URL names a port; a default port written out is dropped. */
	curl_url_get(u, CURLUPART_PORT, &port, 0);
	if (port &&
	    ((strcmp(scheme, "http") == 0 && strcmp(port, "80") == 0) ||
	     (strcmp(scheme, "https") == 0 && strcmp(port, "443") == 0)))
		port = (curl_free(port), NULL);
	n = port ? snprintf(site, site_size, "%s://%s:%s", scheme, h, port)
	         : snprintf(site, site_size, "%s://%s", scheme, h);
	rc = (n < 0 || (size_t)n >= site_size) ? HEED_ETOOBIG : HEED_OK;
	/* The host without IPv6 brackets, as DNS and politeness use it. */
	if (rc == HEED_OK) {
		const char *bare = h[0] == '[' ? h + 1 : h;
		size_t len = strlen(bare) - (h[0] == '[');
		n = snprintf(host, host_size, "%.*s", (int)len, bare);
		rc = (n < 0 || (size_t)n >= host_size) ? HEED_ETOOBIG : HEED_OK;
	}
out:
	curl_free(scheme);
	curl_free(h);
	curl_free(port);
	curl_url_cleanup(u);
	return rc;
}

heed_status heed_qualify_new(heed_qualify **out, heed_dns *dns, heed_net *net,
                             heed_polite *polite,
                             const struct heed_qualify_options *opt,
                             const struct heed_logger *logger,
                             const struct heed_allocator *alloc)
{
	heed_qualify *q;
	const char *agent = opt->agent ? opt->agent : HEED_ROBOTS_PRODUCT_TOKEN;

	*out = NULL;
	alloc = alloc ? alloc : heed_allocator_default();
	q = heed__calloc(alloc, 1, sizeof(*q));
	if (!q)
		return HEED_ENOMEM;
	q->alloc = alloc;
	if (logger)
		q->logger = *logger;
	q->dns = dns;
	q->net = net;
	q->polite = polite;
	q->opt = *opt;
	q->agent = heed__strndup(alloc, agent, strlen(agent));
	if (!q->agent) {
		heed__free(alloc, q);
		return HEED_ENOMEM;
	}
	q->opt.agent = q->agent;
	*out = q;
	return HEED_OK;
}

void heed_qualify_free(heed_qualify *q)
{
	struct job *j, *next;

	if (!q)
		return;
	for (j = q->jobs; j; j = next) {
		next = j->next;
		free_job(q, j);
	}
	heed__free(q->alloc, q->agent);
	heed__free(q->alloc, q);
}

static heed_status new_job(heed_qualify *q, const char *site,
                           const struct heed_site_record *record,
                           struct job **out)
{
	char key[512], host[256], url[600];
	struct job *j;

	if (heed_qualify_site_of(site, key, sizeof(key), host, sizeof(host)) !=
	    HEED_OK)
		return HEED_EINVAL;
	snprintf(url, sizeof(url), "%s/robots.txt", key);
	j = heed__calloc(q->alloc, 1, sizeof(*j));
	if (!j)
		return HEED_ENOMEM;
	j->q = q;
	if (!set_str(q, &j->key, key, strlen(key)) ||
	    !set_str(q, &j->host, host, strlen(host)) ||
	    !set_str(q, &j->url, url, strlen(url)) ||
	    heed_site_new(&j->site, key, record, &q->opt.site, &q->logger,
	                  q->alloc) != HEED_OK) {
		free_job(q, j);
		return HEED_ENOMEM;
	}
	*out = j;
	return HEED_OK;
}

heed_status heed_qualify_start(heed_qualify *q, const char *site,
                               const struct heed_site_record *record,
                               heed_qualify_done_fn *done, void *ud)
{
	struct heed_site_event start = {.kind = HEED_SITE_EV_START};
	struct job *j = NULL;
	heed_status rc = new_job(q, site, record, &j);

	if (rc != HEED_OK)
		return rc;
	j->done = done;
	j->ud = ud;
	j->next = q->jobs;
	q->jobs = j;
	q->pending++;
	step(j, &start);
	return HEED_OK;
}

size_t heed_qualify_pending(const heed_qualify *q)
{
	return q->pending;
}

int heed_qualify_timeout_ms(heed_qualify *q, int max_ms)
{
	struct heed_site_clock now;
	const struct job *j;
	int64_t t = max_ms;

	clock_now(&now);
	for (j = q->jobs; j; j = j->next)
		if (j->phase != PH_IDLE && j->ready_ms - now.mono_ms < t)
			t = j->ready_ms - now.mono_ms;
	return t < 0 ? 0 : (int)t;
}

void heed_qualify_process(heed_qualify *q)
{
	struct heed_site_event timer = {.kind = HEED_SITE_EV_TIMER};
	struct heed_site_clock now;
	struct job *j, *next;

	clock_now(&now);
	for (j = q->jobs; j; j = next) {
		next = j->next;
		if (j->phase == PH_IDLE || j->ready_ms > now.mono_ms)
			continue;
		if (j->phase == PH_POLITE)
			try_fetch(j);
		else
			step(j, &timer);
		/* A finished run only ever removes itself; a new one is
		 * only added at the head: next is still valid. */
	}
}
