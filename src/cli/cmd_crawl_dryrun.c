/*
 * `heed crawl --dry-run`: what a crawl would do first, and why, before
 * any page is fetched.
 *
 * The sites of the start URLs are qualified for real, by the crawl
 * controller's qualify mode (heed/crawl.h): robots.txt is requested under
 * the usual courtesy, and that is the only traffic. The qualifying runs
 * in a scratch store in memory, seeded with what the real store knows of
 * each site (its robots.txt record and validators, its host's last
 * request and back-off, the owner's arrangement), so a dry run is as
 * polite as a crawl (a fresh robots.txt is not asked again, a site backed
 * off stays untouched) and yet writes nothing at all: the real store is
 * only read, and a robots.txt fetched now is forgotten at the end.
 *
 * Then, per site, the URLs a crawl would ask for first (the start URLs;
 * for a site the store knows, its known URLs by due date, up to --limit)
 * with the rule that allows or refuses each: the robots.txt line, found
 * by the robots matcher of heed/robots.h (the one `heed robots explain`
 * uses), and the include/exclude patterns of an owner's arrangement, read
 * by the same matcher (heed_arrangement_rules_text).
 */
#include <json-c/json.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_text.h"
#include "cli/cli_visits.h"
#include "heed/arrangement.h"
#include "heed/crawl_engine.h"
#include "heed/robots.h"
#include "heed/store_arrangements.h"
#include "heed/store_frontier.h"
#include "heed/store_sites.h"
#include "heed/store_visits.h"
#include "heed/url.h"

/* How a site's qualifying ended, kept from the controller's callback. */
struct site_end {
	char *site;
	char state[40], detail[160];
	bool qualified, contacted;
};

struct dry {
	const struct heed_crawl_options *o;
	heed_store *known;   /* the real store, read-only; may be NULL */
	heed_store *scratch; /* where qualifying writes */
	size_t limit;        /* URLs per site; 0 all */
	json_object *out;    /* --json: the array of sites; else NULL */
	struct site_end *ends;
	size_t end_count;
	int failed;
};

/* The matchers of one site: robots.txt and the owner's patterns. */
struct site_rules {
	heed_robots *robots;
	heed_robots_agent *agent;
	heed_robots *owner;
	heed_robots_agent *owner_agent;
	bool has_include;
	char no_rules[200]; /* why no robots.txt rules, when none */
	char *endpoint;     /* the feed or sitemap the owner named, or NULL */
};

static void on_site(void *ud, const struct heed_crawl_site_result *r)
{
	struct dry *d = ud;
	struct site_end *e;
	struct site_end *grown =
	        realloc(d->ends, (d->end_count + 1) * sizeof(*d->ends));

	if (!grown || !(grown[d->end_count].site = strdup(r->site))) {
		d->failed = 1;
		if (grown)
			d->ends = grown;
		return;
	}
	d->ends = grown;
	e = &d->ends[d->end_count++];
	snprintf(e->state, sizeof(e->state), "%s",
	         heed_site_state_name(r->record.state));
	snprintf(e->detail, sizeof(e->detail), "%s", r->record.detail);
	e->qualified = heed_site_state_qualified(r->record.state);
	e->contacted = r->contacted;
}

static const struct site_end *find_end(const struct dry *d, const char *site)
{
	for (size_t i = 0; i < d->end_count; i++)
		if (strcmp(d->ends[i].site, site) == 0)
			return &d->ends[i];
	return NULL;
}

/* Copies what the real store knows of url's site and host into the
 * scratch store, so qualifying there starts where a crawl would. */
static void seed_scratch(struct dry *d, const heed_url *u)
{
	struct heed_store_site s;
	struct heed_store_host h;
	struct heed_arrangement a;

	if (!d->known)
		return;
	if (heed_store_site_get(d->known, heed_url_origin(u), &s) == HEED_OK)
		(void)heed_store_site_put(d->scratch, &s);
	heed_store_site_clear(d->known, &s);
	if (heed_store_host_get(d->known, heed_url_hostname(u), &h) ==
	            HEED_OK &&
	    h.last_request_ms)
		(void)heed_store_host_put(d->scratch, heed_url_hostname(u), &h);
	if (heed_store_arrangement_get(d->known, heed_url_hostname(u), &a) ==
	    HEED_OK)
		(void)heed_store_arrangement_put(d->scratch, &a);
	heed_store_arrangement_clear(d->known, &a);
}

static heed_status parse_rules(const char *text, size_t len, const char *agent,
                               heed_robots **robots, heed_robots_agent **out)
{
	heed_status rc = heed_robots_parse(robots, NULL, text, len, NULL);

	if (rc == HEED_OK)
		rc = heed_robots_agent_new(out, *robots, agent, strlen(agent));
	return rc;
}

static void rules_load(struct dry *d, const char *site, const char *host,
                       struct site_rules *r)
{
	const struct heed_allocator *al = heed_allocator_default();
	struct heed_store_site s = {0};
	struct heed_arrangement a;
	bool oom = false;
	char *text;

	memset(r, 0, sizeof(*r));
	if (heed_store_site_get(d->scratch, site, &s) == HEED_OK &&
	    s.rules_body) {
		if (parse_rules(s.rules_body, s.rules_body_len,
		                d->o->agent_token, &r->robots,
		                &r->agent) != HEED_OK)
			snprintf(r->no_rules, sizeof(r->no_rules),
			         "robots.txt rules in force, not read again "
			         "here (out of memory)");
	} else {
		snprintf(r->no_rules, sizeof(r->no_rules),
		         "no robots.txt rules (%s)", s.record.detail);
	}
	heed_store_site_clear(d->scratch, &s);
	if (heed_store_arrangement_get(d->scratch, host, &a) != HEED_OK)
		return;
	r->has_include = a.include && *a.include;
	r->endpoint = a.endpoint ? strdup(a.endpoint) : NULL;
	text = heed_arrangement_rules_text(&a, al, &oom);
	if (text)
		(void)parse_rules(text, strlen(text), d->o->agent_token,
		                  &r->owner, &r->owner_agent);
	if (text)
		al->free_fn(al->ud, text);
	heed_store_arrangement_clear(d->scratch, &a);
}

static void rules_free(struct site_rules *r)
{
	heed_robots_agent_free(r->agent);
	heed_robots_free(r->robots);
	heed_robots_agent_free(r->owner_agent);
	heed_robots_free(r->owner);
	free(r->endpoint);
}

/* Why url may or may not be fetched, in words; returns whether it may. */
static bool explain(const struct site_rules *r, const char *url, char *why,
                    size_t size)
{
	struct heed_robots_decision dec;
	char value[HEED_CLI_SHORT_SIZE];

	if (r->agent &&
	    heed_robots_decide(r->agent, url, strlen(url), &dec) == HEED_OK &&
	    dec.matched) {
		heed_cli_short(dec.value, value, sizeof(value));
		snprintf(why, size, "%s by robots.txt line %u `%s: %s`",
		         dec.allowed ? "allowed" : "refused", dec.line,
		         heed_robots_rule_kind_name(dec.kind), value);
		if (!dec.allowed)
			return false;
	} else {
		snprintf(why, size, "%s",
		         r->agent ? "no robots.txt rule matches: allowed"
		                  : r->no_rules);
	}
	if (r->owner_agent &&
	    heed_robots_decide(r->owner_agent, url, strlen(url), &dec) ==
	            HEED_OK &&
	    dec.matched) {
		size_t n = strlen(why);
		heed_cli_short(dec.value, value, sizeof(value));
		if (dec.allowed)
			snprintf(why + n, size - n,
			         "; the arrangement's include `%s`", value);
		else if (r->has_include && strcmp(value, "/") == 0)
			snprintf(why, size,
			         "refused by the arrangement: "
			         "matches none of its includes");
		else
			snprintf(why, size,
			         "refused by the arrangement's exclude `%s`",
			         value);
		return dec.allowed;
	}
	return true;
}

/* Why a URL is in a site's list: a start URL ("would"), a source a crawl
 * asks for first ("source": from says whose), or a URL the store knows
 * ("known": v has its kind and due date). */
struct url_note {
	const char *label;
	const char *from;
	const struct heed_visit *v;
};

/* One URL of a site's list and the rule that allows or refuses it, in
 * text or JSON. */
static void show_url(const struct site_rules *r, json_object *urls,
                     const char *url, const struct url_note *n)
{
	const char *kind = n->v ? heed_frontier_kind_name(n->v->kind) : NULL;
	char why[512], due[32];
	bool allowed = explain(r, url, why, sizeof(why));
	json_object *o;

	if (n->v)
		heed_cli_due_text(n->v->sched.due_at, "now", due, sizeof(due));
	if (!urls) {
		printf("  %-7s %s", allowed ? n->label : "never", url);
		if (n->v)
			printf("  %s, due %s", kind, due);
		if (n->from)
			printf("  (%s)", n->from);
		printf("\n    %s\n", why);
		return;
	}
	o = json_object_new_object();
	json_object_object_add(o, "url", heed_cli_json_text(url, strlen(url)));
	json_object_object_add(o, "as", json_object_new_string(n->label));
	json_object_object_add(o, "allowed", json_object_new_boolean(allowed));
	json_object_object_add(o, "rule", json_object_new_string(why));
	if (n->from)
		json_object_object_add(o, "from",
		                       json_object_new_string(n->from));
	if (n->v) {
		json_object_object_add(o, "kind", json_object_new_string(kind));
		json_object_object_add(o, "due", json_object_new_string(due));
	}
	json_object_array_add(urls, o);
}

struct known_page {
	const struct heed_crawl_options *o;
	const struct site_rules *r;
	json_object *urls;
	size_t left; /* URLs still to show; SIZE_MAX: all */
};

static bool is_seed(const struct heed_crawl_options *o, const char *url)
{
	for (size_t i = 0; i < o->seed_count; i++)
		if (strcmp(o->seeds[i], url) == 0)
			return true;
	return false;
}

/* The number of sources show_sources() may list, at most. */
static size_t source_count(const struct site_rules *r)
{
	return (r->robots ? heed_robots_sitemap_count(r->robots) : 0) + 2;
}

/* True when url is one of the sources of site (show_sources). */
static bool is_source(const struct site_rules *r, const char *site,
                      const char *url)
{
	size_t n = r->robots ? heed_robots_sitemap_count(r->robots) : 0;
	size_t len = strlen(site);

	if (r->endpoint && strcmp(r->endpoint, url) == 0)
		return true;
	if (strncmp(url, site, len) == 0 &&
	    strcmp(url + len, "/sitemap.xml") == 0)
		return true;
	for (size_t i = 0; i < n; i++) {
		const struct heed_robots_sitemap *sm =
		        heed_robots_sitemap_get(r->robots, i);
		if (sm->url_len == strlen(url) &&
		    memcmp(sm->url, url, sm->url_len) == 0)
			return true;
	}
	return false;
}

/* A known URL, unless a start URL or a source showed it already. */
static int known_url(void *ud, const struct heed_visit *v)
{
	struct known_page *k = ud;

	if (!k->left || is_seed(k->o, v->url) ||
	    is_source(k->r, v->site, v->url))
		return 0;
	k->left--;
	struct url_note n = {"known", NULL, v};

	show_url(k->r, k->urls, v->url, &n);
	return 0;
}

/* A site's header: qualified or not, and why. */
static json_object *site_head(struct dry *d, const char *site,
                              const struct site_end *e)
{
	const char *state = e ? e->state : "not-qualified";
	const char *detail = e ? e->detail : "the crawl did not reach it";
	json_object *o;

	if (!d->out) {
		printf("%s: %s: %s (%s)%s\n", site,
		       e && e->qualified ? "qualified" : "not qualified", state,
		       detail, e && !e->contacted ? " [not contacted]" : "");
		return NULL;
	}
	o = json_object_new_object();
	json_object_object_add(o, "site", json_object_new_string(site));
	json_object_object_add(o, "qualified",
	                       json_object_new_boolean(e && e->qualified));
	json_object_object_add(o, "state", json_object_new_string(state));
	json_object_object_add(o, "detail",
	                       heed_cli_json_text(detail, strlen(detail)));
	json_object_object_add(o, "contacted",
	                       json_object_new_boolean(e && e->contacted));
	json_object_array_add(d->out, o);
	return o;
}

/* A source a crawl of the site asks for first, once, when it is the
 * site's own (a crawl leaves other sites' out); false when --limit is
 * reached. */
static bool show_source(const struct dry *d, const struct site_rules *r,
                        json_object *urls, const char *site, const char *url,
                        const char *from, size_t *shown)
{
	struct url_note n = {"source", from, NULL};
	heed_url *u = NULL;

	if (d->limit && *shown >= d->limit)
		return false;
	if (heed_url_parse(&u, url, strlen(url), NULL) == HEED_OK &&
	    strcmp(heed_url_origin(u), site) == 0 &&
	    !is_seed(d->o, heed_url_get(u))) {
		show_url(r, urls, heed_url_get(u), &n);
		(*shown)++;
	}
	heed_url_free(u);
	return true;
}

/* The sources a qualified site's crawl queues in either mode: the owner's
 * endpoint, the sitemaps robots.txt lists, and /sitemap.xml. */
static void show_sources(const struct dry *d, const struct site_rules *r,
                         json_object *urls, const char *site, size_t *shown)
{
	size_t n = r->robots ? heed_robots_sitemap_count(r->robots) : 0;
	char url[2048], from[64];

	if (r->endpoint && !show_source(d, r, urls, site, r->endpoint,
	                                "the owner's endpoint", shown))
		return;
	for (size_t i = 0; i < n; i++) {
		const struct heed_robots_sitemap *sm =
		        heed_robots_sitemap_get(r->robots, i);
		if (sm->url_len >= sizeof(url))
			continue;
		memcpy(url, sm->url, sm->url_len);
		url[sm->url_len] = '\0';
		snprintf(from, sizeof(from), "robots.txt line %u Sitemap",
		         sm->line);
		if (!show_source(d, r, urls, site, url, from, shown))
			return;
	}
	snprintf(url, sizeof(url), "%s/sitemap.xml", site);
	(void)show_source(d, r, urls, site, url, "the usual place", shown);
}

/* The seeds of site (in their order), its sources, then its known URLs by
 * due date. */
static void show_site(struct dry *d, const heed_url *first)
{
	const char *site = heed_url_origin(first);
	const struct site_end *e = find_end(d, site);
	json_object *o = site_head(d, site, e), *urls = NULL;
	struct site_rules r;
	size_t shown = 0;

	if (!e || !e->qualified)
		return;
	rules_load(d, site, heed_url_hostname(first), &r);
	if (o) {
		urls = json_object_new_array();
		json_object_object_add(o, "urls", urls);
	}
	for (size_t i = 0; i < d->o->seed_count; i++) {
		heed_url *u = NULL;
		if (heed_url_parse(&u, d->o->seeds[i], strlen(d->o->seeds[i]),
		                   NULL) == HEED_OK &&
		    strcmp(heed_url_origin(u), site) == 0 &&
		    (!d->limit || shown < d->limit)) {
			struct url_note n = {"would", NULL, NULL};
			show_url(&r, urls, heed_url_get(u), &n);
			shown++;
		}
		heed_url_free(u);
	}
	show_sources(d, &r, urls, site, &shown);
	if (d->known && (!d->limit || shown < d->limit)) {
		/* The start URLs may come again in the list: skipped there,
		 * they make room for as many more rows. */
		struct known_page k = {d->o, &r, urls,
		                       d->limit ? d->limit - shown : SIZE_MAX};
		(void)heed_store_visits_list(
		        d->known, site, 0, NULL,
		        d->limit ? (int64_t)(k.left + d->o->seed_count +
		                             source_count(&r))
		                 : 0,
		        known_url, &k);
	}
	rules_free(&r);
}

/* True when an earlier seed has url's site (it was shown then). */
static bool site_shown_before(const struct dry *d, size_t i, const char *site)
{
	bool seen = false;

	for (size_t j = 0; j < i && !seen; j++) {
		heed_url *u = NULL;
		seen = heed_url_parse(&u, d->o->seeds[j],
		                      strlen(d->o->seeds[j]),
		                      NULL) == HEED_OK &&
		       strcmp(heed_url_origin(u), site) == 0;
		heed_url_free(u);
	}
	return seen;
}

static void show_sites(struct dry *d)
{
	for (size_t i = 0; i < d->o->seed_count; i++) {
		heed_url *u = NULL;
		if (heed_url_parse(&u, d->o->seeds[i], strlen(d->o->seeds[i]),
		                   NULL) != HEED_OK) {
			heed_cli_error("crawl: '%s' is not an http(s) URL",
			               d->o->seeds[i]);
			d->failed = 1;
		} else if (!site_shown_before(d, i, heed_url_origin(u))) {
			show_site(d, u);
		}
		heed_url_free(u);
	}
}

static heed_status qualify(struct dry *d, struct heed_crawl_options *q,
                           struct heed_diag *diag)
{
	heed_status rc;

	for (size_t i = 0; i < q->seed_count; i++) {
		heed_url *u = NULL;
		if (heed_url_parse(&u, q->seeds[i], strlen(q->seeds[i]),
		                   NULL) == HEED_OK)
			seed_scratch(d, u);
		heed_url_free(u);
	}
	q->mode = HEED_CRAWL_QUALIFY;
	q->restart = true;
	q->on_site = on_site;
	q->site_ud = d;
	q->on_progress = NULL;
	heed_cli_catch_stop();
	rc = heed_crawl_run(d->scratch, q, &heed_cli_stop, NULL, NULL, diag);
	heed_cli_release_stop();
	return rc;
}

int heed_cli_crawl_dry_run(const struct heed_crawl_options *o,
                           struct heed_store *known, size_t limit, bool json)
{
	struct heed_crawl_options q = *o;
	struct dry d = {o, known, NULL, limit, NULL, NULL, 0, 0};
	struct heed_diag diag = {0};
	heed_status rc;

	if (!o->seed_count) {
		heed_cli_error("crawl: --dry-run: no start URL and no known "
		               "site");
		return HEED_EXIT_USAGE;
	}
	rc = heed_store_open(&d.scratch, ":memory:", NULL, &diag);
	if (rc == HEED_OK)
		rc = qualify(&d, &q, &diag);
	if (rc == HEED_OK && heed_cli_stop) {
		heed_store_close(d.scratch);
		return HEED_EXIT_INTERRUPTED;
	}
	if (rc == HEED_OK) {
		d.out = json ? json_object_new_array() : NULL;
		show_sites(&d);
	} else {
		heed_cli_error("crawl: --dry-run: %s",
		               diag.message[0] ? diag.message
		                               : heed_strerror(rc));
	}
	if (d.out) {
		printf("%s\n",
		       json_object_to_json_string_ext(
		               d.out, JSON_C_TO_STRING_PRETTY |
		                              JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(d.out);
	}
	for (size_t i = 0; i < d.end_count; i++)
		free(d.ends[i].site);
	free(d.ends);
	heed_store_close(d.scratch);
	if (rc != HEED_OK)
		return rc == HEED_EINVAL ? HEED_EXIT_USAGE : HEED_EXIT_FAIL;
	return d.failed ? HEED_EXIT_FAIL : HEED_EXIT_OK;
}
