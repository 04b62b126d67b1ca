/*
 * The sites of the index (docs/serve.md, "Pages"): the list, and a site's
 * page with its robots.txt state (as `heed site report` reads it), its
 * charts, top tags, recent pages and how to opt out.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "heed/robots.h"
#include "heed/sitepolicy.h"
#include "heed/store_sites.h"
#include "serve/html-int.h"

#define SITES_PER_PAGE 100

/* ---- sites ---- */

struct sites_view {
	struct hpage *p;
	int shown;
	char last[512];
};

static int on_site(void *ud, const struct heed_search_site *s)
{
	struct sites_view *sv = ud;
	struct hpage *p = sv->p;

	if (sv->shown == SITES_PER_PAGE)
		return 1; /* the one more that says a next page exists */
	hp_raw(p, "<tr><td>");
	hp_link(p, "/sites/", s->host, s->host);
	hp_raw(p, "</td><td>");
	hp_bdi(p, s->site_name);
	hp_raw(p, "</td><td class=\"num\">");
	hp_int(p, s->pages);
	hp_raw(p, "</td><td>");
	hp_time(p, s->last_fetched);
	hp_raw(p, "</td></tr>\n");
	snprintf(sv->last, sizeof(sv->last), "%s", s->host);
	sv->shown++;
	return p->rc != HEED_OK;
}

void heed__html_sites(const struct heed__serve_request *req,
                      struct heed__serve_response *resp)
{
	const char *after = heed__serve_arg(req->args, "cursor");
	struct sites_view sv = {0};
	struct hpage p;
	heed_status rc;

	hp_init(&p, req, resp);
	sv.p = &p;
	hp_begin(&p, "Sites");
	hp_raw(&p, "<h1>Sites</h1>\n<table id=\"sites\">\n<thead><tr><th "
	           "scope=\"col\">Site</th><th scope=\"col\">Name</th><th "
	           "scope=\"col\" class=\"num\">Pages</th><th "
	           "scope=\"col\">Last fetched</th></tr></thead>\n<tbody>\n");
	rc = heed_store_search_sites(
	        req->store, after && after[0] ? after : NULL,
	        SITES_PER_PAGE + 1, req->now_s, on_site, &sv);
	if (rc != HEED_OK) {
		hp_store_fail(&p, rc, NULL);
		return;
	}
	hp_raw(&p, "</tbody>\n</table>\n");
	if (sv.shown == 0)
		hp_raw(&p, "<p id=\"empty\">No sites.</p>\n");
	hp_raw(&p, "<nav aria-label=\"Pages\"><p>");
	if (after && after[0]) {
		hp_raw(&p, "<a id=\"first\" href=\"");
		hp_href(&p, "/sites");
		hp_raw(&p, "\">First page</a> ");
	}
	if (sv.shown == SITES_PER_PAGE) {
		hp_raw(&p, "<a id=\"next\" rel=\"next\" href=\"");
		hp_href(&p, "/sites?cursor=");
		hp_url(&p, sv.last);
		hp_raw(&p, "\">Next page</a>");
	}
	hp_raw(&p, "</p></nav>\n");
	hp_end(&p, 200);
}

/* ---- a site ---- */

struct robots_view {
	struct hpage *p;
	const char *key; /* host key */
	const char *ua;
	int shown;
};

static void robots_rules(struct hpage *p, const struct heed_store_site *s,
                         const char *ua)
{
	heed_robots *robots = NULL;
	heed_robots_agent *agent = NULL;
	size_t i;

	if (!s->rules_body ||
	    heed_robots_parse(&robots, NULL, s->rules_body, s->rules_body_len,
	                      NULL) != HEED_OK ||
	    heed_robots_agent_new(&agent, robots, ua, strlen(ua)) != HEED_OK) {
		heed_robots_free(robots);
		hp_raw(p, heed_site_state_qualified(s->record.state)
		                  ? "<p>Rules in force: none (everything may "
		                    "be crawled).</p>\n"
		                  : "<p>Rules in force: none (the site is not "
		                    "crawled).</p>\n");
		return;
	}
	hp_raw(p, "<p>Rules in force for ");
	hp_text(p, heed_robots_agent_token(agent));
	hp_raw(p, heed_robots_agent_explicit(agent) ? " (named in the file)"
	                                            : " (the '*' groups)");
	hp_raw(p, ":</p>\n<ul class=\"rules\">\n");
	for (i = 0; i < heed_robots_agent_rule_count(agent); i++) {
		const struct heed_robots_rule *r =
		        heed_robots_agent_rule(agent, i);
		hp_rawf(p, "<li>line %u: %s: <code>", r->line,
		        heed_robots_rule_kind_name(r->kind));
		hp_bdin(p, r->value, r->value_len);
		hp_raw(p, "</code></li>\n");
	}
	hp_raw(p, "</ul>\n");
	if (s->crawl_delay_ms)
		hp_rawf(p, "<p>Crawl-delay: %lld ms</p>\n",
		        (long long)s->crawl_delay_ms);
	heed_robots_agent_free(agent);
	heed_robots_free(robots);
}

/* Whether origin is http:// or https:// followed by exactly key: the
 * sites table is keyed by origin, pages by host key. */
static bool origin_of(const char *origin, const char *key)
{
	const char *rest = strncmp(origin, "https://", 8) == 0  ? origin + 8
	                   : strncmp(origin, "http://", 7) == 0 ? origin + 7
	                                                        : NULL;
	return rest && strcmp(rest, key) == 0;
}

static void on_robots(void *ud, const struct heed_store_site *s)
{
	struct robots_view *v = ud;
	struct hpage *p = v->p;
	const struct heed_site_record *r = &s->record;

	if (!origin_of(s->site, v->key))
		return;
	v->shown++;
	hp_raw(p, "<h3>");
	hp_bdi(p, s->site);
	hp_raw(p, "</h3>\n<dl>\n<dt>State</dt><dd>");
	hp_text(p, heed_site_state_name(r->state));
	hp_raw(p, "</dd>\n<dt>Reason</dt><dd>");
	hp_text(p, heed_site_reason_name(r->reason));
	if (r->detail[0]) {
		hp_raw(p, ": ");
		hp_bdi(p, r->detail);
	}
	hp_raw(p, "</dd>\n");
	if (r->http_status)
		hp_rawf(p, "<dt>HTTP status</dt><dd>%d</dd>\n", r->http_status);
	hp_raw(p, "<dt>Last attempt</dt><dd>");
	hp_time(p, r->robots_date_s);
	hp_raw(p, "</dd>\n<dt>Last success</dt><dd>");
	hp_time(p, r->last_success_s);
	hp_rawf(p, "</dd>\n<dt>Failures in a row</dt><dd>%u</dd>\n</dl>\n",
	        (unsigned)r->failures);
	robots_rules(p, s, v->ua);
	if (s->robots_body) {
		hp_raw(p, "<details><summary>robots.txt as read");
		if (s->robots_url) {
			hp_raw(p, " from ");
			hp_bdi(p, s->robots_url);
		}
		hp_raw(p, "</summary>\n<pre dir=\"ltr\">");
		hp_bdin(p, s->robots_body, s->robots_body_len);
		hp_raw(p, "</pre>\n</details>\n");
	}
}

/* The host name of a host key: "example.org:8080" -> "example.org",
 * "[::1]:8080" -> "::1", as the sites table keeps it. */
static void host_name(const char *key, char *out, size_t size)
{
	const char *end;
	size_t n;

	if (key[0] == '[') {
		end = strchr(key, ']');
		n = end ? (size_t)(end - key - 1) : strlen(key + 1);
		key++;
	} else {
		end = strrchr(key, ':');
		n = end ? (size_t)(end - key) : strlen(key);
	}
	if (n >= size)
		n = size - 1;
	memcpy(out, key, n);
	out[n] = '\0';
	for (size_t i = 0; i < n; i++)
		out[i] = heed__ascii_lower(out[i]);
}

static heed_status site_robots(struct hpage *p, const char *key)
{
	const struct heed_config *cfg = p->req->ctx->config;
	char ua[512] = "heed", host[300];
	struct robots_view v = {p, key, ua, 0};
	heed_status rc;

	if (cfg)
		heed_config_user_agent(cfg, ua, sizeof(ua));
	host_name(key, host, sizeof(host));
	hp_raw(p, "<section id=\"robots\">\n<h2>robots.txt</h2>\n");
	rc = heed_store_site_each(p->req->store, host, on_robots, &v, NULL);
	if (rc != HEED_OK)
		return rc;
	if (v.shown == 0)
		hp_raw(p, "<p>The store holds no robots.txt state for this "
		          "site.</p>\n");
	hp_raw(p, "</section>\n");
	return HEED_OK;
}

static void site_optout(struct hpage *p)
{
	const struct heed_config *cfg = p->req->ctx->config;
	const char *token =
	        cfg && cfg->product_token ? cfg->product_token : "heed";

	hp_raw(p, "<section id=\"optout\">\n<h2>How to opt out</h2>\n"
	          "<p>To keep this crawler out of the whole site, add to "
	          "<code>/robots.txt</code>:</p>\n<pre>User-agent: ");
	hp_text(p, token);
	hp_raw(p, "\nDisallow: /</pre>\n<p>With ACAP, in the same "
	          "file:</p>\n<pre>ACAP-crawler: ");
	hp_text(p, token);
	hp_raw(p, "\nACAP-disallow-crawl: /</pre>\n<p>To keep one page out "
	          "of the index, put <code>&lt;meta name=\"robots\" "
	          "content=\"noindex\"&gt;</code> in its head, or send the "
	          "header <code>X-Robots-Tag: noindex</code>; "
	          "<code>nosnippet</code> and <code>max-snippet</code> limit "
	          "the description shown.</p>\n");
	if (cfg && (cfg->contact_email || cfg->contact_url)) {
		hp_raw(p, "<p>Contact the operator");
		if (cfg->contact_email) {
			hp_raw(p, " at ");
			hp_text(p, cfg->contact_email);
		}
		if (cfg->contact_url) {
			hp_raw(p, cfg->contact_email ? " or " : " at ");
			hp_external(p, NULL, cfg->contact_url,
			            cfg->contact_url);
		}
		hp_raw(p, ".</p>\n");
	}
	hp_raw(p, "</section>\n");
}

struct chart {
	struct heed__svg_bar bars[64];
	char labels[64][48]; /* two counts of up to 20 digits and a dash */
	size_t n;
	bool day; /* labels are days, else view ranges */
};

/* v in at most four characters where it is a round power of ten: 10k,
 * 100M, 1B (views reach billions); other values as digits. */
static void compact_count(char *out, size_t size, int64_t v)
{
	static const char units[] = "kMBT";
	int64_t scale = 1;
	size_t u = 0;

	while (u < sizeof(units) - 1 && v >= scale * 1000 &&
	       v % (scale * 1000) == 0) {
		scale *= 1000;
		u++;
	}
	if (u == 0)
		snprintf(out, size, "%lld", (long long)v);
	else
		snprintf(out, size, "%lld%c", (long long)(v / scale),
		         units[u - 1]);
}

/* A views bucket's label: "0", or "10M–100M" for 10,000,000 to
 * 99,999,999 (the bound above is the next power of ten). */
static void views_label(char *out, size_t size,
                        const struct heed_search_bucket *b)
{
	char from[21], to[21]; /* a sign, 19 digits and the NUL */

	if (b->from == b->to) {
		compact_count(out, size, b->from);
		return;
	}
	compact_count(from, sizeof(from), b->from);
	compact_count(to, sizeof(to), b->to < INT64_MAX ? b->to + 1 : b->to);
	snprintf(out, size, "%s–%s", from, to);
}

static int on_bucket(void *ud, const struct heed_search_bucket *b)
{
	struct chart *c = ud;
	time_t t = (time_t)b->from;
	struct tm tm;

	if (c->n == sizeof(c->bars) / sizeof(c->bars[0]))
		return 1;
	if (c->day && gmtime_r(&t, &tm))
		strftime(c->labels[c->n], sizeof(c->labels[0]), "%m-%d", &tm);
	else if (!c->day)
		views_label(c->labels[c->n], sizeof(c->labels[0]), b);
	c->bars[c->n].label = c->labels[c->n];
	c->bars[c->n].value = b->pages;
	c->n++;
	return 0;
}

static void chart_figure(struct hpage *p, const struct chart *c,
                         const char *title, const char *caption)
{
	hp_raw(p, "<figure class=\"chart\">\n");
	if (p->rc == HEED_OK)
		p->rc = heed__svg_bars(&p->resp->body, title, c->bars, c->n);
	hp_raw(p, "\n<figcaption>");
	hp_raw(p, caption);
	hp_raw(p, "</figcaption>\n</figure>\n");
}

static heed_status site_charts(struct hpage *p, const char *key)
{
	struct chart *c = calloc(1, sizeof(*c));
	heed_status rc;

	if (!c)
		return HEED_ENOMEM;
	c->day = true;
	rc = heed_store_search_per_day(p->req->store, key, 30, p->req->now_s,
	                               on_bucket, c);
	if (rc == HEED_OK)
		chart_figure(p, c, "Pages fetched per day, last 30 days",
		             "Pages fetched per day over the last 30 days.");
	if (rc == HEED_OK) {
		memset(c, 0, sizeof(*c));
		rc = heed_store_search_views(p->req->store, key, p->req->now_s,
		                             on_bucket, c);
	}
	if (rc == HEED_OK && c->n > 0)
		chart_figure(p, c, "Pages by view count",
		             "How many pages have how many views (by powers "
		             "of ten).");
	free(c);
	return rc;
}

static int on_latest(void *ud, const struct heed_search_hit *hit)
{
	*(int64_t *)ud = hit->page.fetched_at;
	return 1;
}

static heed_status site_summary(struct hpage *p, const char *key,
                                int64_t *pages)
{
	struct heed_search_query q = {0};
	int64_t last = 0;
	heed_status rc;

	q.host = key;
	q.published_from_s = q.published_to_s = HEED_STORE_NO_DATE;
	q.min_views = q.max_views = -1;
	q.sort = HEED_SEARCH_SORT_FETCHED;
	q.limit = 1;
	q.now_s = p->req->now_s;
	rc = heed_store_search_count(p->req->store, &q, INT64_MAX, pages, NULL);
	if (rc == HEED_OK)
		rc = heed_store_search(p->req->store, &q, on_latest, &last,
		                       NULL, NULL);
	if (rc != HEED_OK)
		return rc;
	hp_raw(p, "<p id=\"summary\">");
	hp_int(p, *pages);
	hp_raw(p, *pages == 1 ? " page in the index" : " pages in the index");
	hp_raw(p, "; last fetched ");
	hp_time(p, last);
	hp_raw(p, ". <a href=\"");
	hp_href(p, "/search?site=");
	hp_url(p, key);
	hp_raw(p, "\">Search this site</a>.</p>\n");
	return HEED_OK;
}

void heed__html_site(const struct heed__serve_request *req, const char *rest,
                     struct heed__serve_response *resp)
{
	struct hpage p;
	int64_t pages = 0;
	heed_status rc;

	hp_init(&p, req, resp);
	if (!rest || !rest[0] || strlen(rest) > 260) {
		hp_fail(&p, 404, "There is no such site in the index.");
		return;
	}
	hp_begin(&p, rest);
	hp_raw(&p, "<h1 id=\"site\">");
	hp_bdi(&p, rest);
	hp_raw(&p, "</h1>\n");
	hp_feed_link(&p, "/feeds/sites/", rest);
	rc = site_summary(&p, rest, &pages);
	if (rc == HEED_OK && pages == 0) {
		hp_fail(&p, 404, "There is no such site in the index.");
		return;
	}
	if (rc == HEED_OK)
		rc = site_robots(&p, rest);
	if (rc == HEED_OK) {
		hp_raw(&p, "<section id=\"activity\">\n<h2>Activity</h2>\n");
		rc = site_charts(&p, rest);
		hp_raw(&p, "</section>\n");
	}
	if (rc == HEED_OK) {
		hp_raw(&p, "<h2>Top tags</h2>\n<ul id=\"site-tags\">\n");
		rc = heed_store_search_tags(req->store, rest, 20, req->now_s,
		                            hp_tag_item, &p);
		hp_raw(&p, "</ul>\n");
	}
	if (rc == HEED_OK) {
		hp_raw(&p, "<h2>Recently fetched</h2>\n");
		rc = hp_short_list(&p, HEED_SEARCH_SORT_FETCHED, rest, 10,
		                   "recent");
	}
	if (rc != HEED_OK) {
		hp_store_fail(&p, rc, NULL);
		return;
	}
	site_optout(&p);
	hp_end(&p, 200);
}
