/*
 * The IRC pages (docs/serve.md, "Pages"): the networks that let their
 * channel list be published (never one whose CRAWLER verdict is deny or
 * invalid) and a network's servers and channels, filtered in C.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "heed/store_irc.h"
#include "serve/html-int.h"

#define CHANNELS_SHOWN 500

/* ---- IRC ---- */

static void count_cell(struct hpage *p, int64_t v)
{
	hp_raw(p, "<td class=\"num\">");
	if (v >= 0)
		hp_int(p, v);
	else
		hp_raw(p, "unknown");
	hp_raw(p, "</td>");
}

/* The index of the ?sort= argument among n keys; the default (0) when
 * absent or unknown: a page is lenient where the API answers 400. */
static size_t sort_of(const struct heed__serve_request *req,
                      const struct heed__irc_sort *keys, size_t n)
{
	const char *v = req->args ? heed__serve_arg(req->args, "sort") : NULL;
	size_t i = heed__irc_sort_find(v, keys, n);

	return i == n ? 0 : i;
}

/* A column header that sorts the table by its key: a link, or the
 * current order (aria-sort). path is the page's internal path, extra
 * an argument kept ("q=..." already encoded, or ""). */
static void sort_header(struct hpage *p, const struct heed__irc_sort *k,
                        bool current, const char *path, const char *key,
                        const char *q)
{
	hp_rawf(p, "<th scope=\"col\"%s", k->number ? " class=\"num\"" : "");
	if (current)
		hp_rawf(p, " aria-sort=\"%s\"",
		        k->number ? "descending" : "ascending");
	hp_raw(p, "><a href=\"");
	hp_href(p, path);
	hp_url(p, key);
	hp_rawf(p, "?sort=%s", k->name);
	if (q && q[0]) {
		hp_raw(p, "&amp;q=");
		hp_url(p, q);
	}
	hp_rawf(p, "\"%s>%s</a></th>", current ? " aria-current=\"true\"" : "",
	        k->label);
}

/* A published network, copied out of the store's row. */
struct net {
	char *key, *name;
	int64_t users, servers, channels, last_visit_s;
};

struct nets {
	const struct heed_allocator *a;
	struct net *v;
	size_t n, cap;
	heed_status rc;
};

static int on_network(void *ud, const struct heed_store_irc_network_row *r)
{
	struct nets *ns = ud;
	struct net *grown, *x;

	if (!heed_store_irc_published(r->verdict))
		return 0;
	if (ns->n == ns->cap) {
		size_t cap = ns->cap ? 2 * ns->cap : 32;
		grown = heed__malloc(ns->a, cap * sizeof(*grown));
		if (!grown) {
			ns->rc = HEED_ENOMEM;
			return 1;
		}
		if (ns->n)
			memcpy(grown, ns->v, ns->n * sizeof(*grown));
		heed__free(ns->a, ns->v);
		ns->v = grown;
		ns->cap = cap;
	}
	x = &ns->v[ns->n];
	x->key = heed__strndup(ns->a, r->key, strlen(r->key));
	x->name = heed__strndup(ns->a, r->name, strlen(r->name));
	x->users = r->users;
	x->servers = r->servers;
	x->channels = r->channels;
	x->last_visit_s = r->last_visit_end_s;
	ns->n++;
	if (!x->key || !x->name) {
		ns->rc = HEED_ENOMEM;
		return 1;
	}
	return 0;
}

static void nets_free(struct nets *ns)
{
	for (size_t i = 0; i < ns->n; i++) {
		heed__free(ns->a, ns->v[i].key);
		heed__free(ns->a, ns->v[i].name);
	}
	heed__free(ns->a, ns->v);
}

/* The count a network sorts on for key k, -1 for none (by name). */
static int64_t net_count(const struct net *n, const struct heed__irc_sort *k)
{
	if (!k->number)
		return -1;
	if (strcmp(k->name, "servers") == 0)
		return n->servers;
	if (strcmp(k->name, "channels") == 0)
		return n->channels;
	if (strcmp(k->name, "visit") == 0)
		return n->last_visit_s;
	return n->users;
}

/* qsort_r's comparison; order is the index in heed__irc_net_sorts. */
static int net_cmp(const void *pa, const void *pb, void *order)
{
	const struct net *a = pa, *b = pb;
	const struct heed__irc_sort *k =
	        &heed__irc_net_sorts[*(const size_t *)order];

	return heed__irc_sort_cmp(k, net_count(a, k), a->key, net_count(b, k),
	                          b->key);
}

static void network_row(struct hpage *p, const struct net *n)
{
	hp_raw(p, "<tr><td>");
	hp_link(p, "/irc/", n->key, n->key);
	hp_raw(p, "</td><td>");
	hp_bdi(p, n->name[0] ? n->name : "unnamed");
	hp_raw(p, "</td>");
	count_cell(p, n->users);
	count_cell(p, n->servers);
	count_cell(p, n->channels);
	hp_raw(p, "<td>");
	hp_time(p, n->last_visit_s);
	hp_raw(p, "</td></tr>\n");
}

void heed__html_irc(const struct heed__serve_request *req,
                    struct heed__serve_response *resp)
{
	struct nets ns = {req->ctx->alloc, NULL, 0, 0, HEED_OK};
	size_t order = sort_of(req, heed__irc_net_sorts,
	                       HEED_ARRAY_SIZE(heed__irc_net_sorts));
	struct hpage p;
	heed_status rc;

	hp_init(&p, req, resp);
	rc = heed_store_irc_each_network(req->store, on_network, &ns);
	if (rc == HEED_OK)
		rc = ns.rc;
	if (rc != HEED_OK) {
		nets_free(&ns);
		hp_store_fail(&p, rc, NULL);
		return;
	}
	if (ns.n)
		qsort_r(ns.v, ns.n, sizeof(*ns.v), net_cmp, &order);
	hp_begin(&p, "IRC networks");
	hp_raw(&p, "<h1>IRC networks</h1>\n<p>Networks whose servers allow "
	           "their channel list to be published (the CRAWLER token "
	           "does not deny it). Sort by a column's name.</p>\n"
	           "<table id=\"networks\">\n<thead><tr>");
	sort_header(&p, &heed__irc_net_sorts[1], order == 1, "/irc", "", NULL);
	hp_raw(&p, "<th scope=\"col\">Name</th>");
	for (size_t i = 0; i < HEED_ARRAY_SIZE(heed__irc_net_sorts); i++)
		if (i != 1)
			sort_header(&p, &heed__irc_net_sorts[i], i == order,
			            "/irc", "", NULL);
	hp_raw(&p, "</tr></thead>\n<tbody>\n");
	for (size_t i = 0; i < ns.n; i++)
		network_row(&p, &ns.v[i]);
	hp_raw(&p, "</tbody>\n</table>\n");
	if (ns.n == 0)
		hp_raw(&p, "<p id=\"empty\">No networks.</p>\n");
	nets_free(&ns);
	hp_end(&p, 200);
}

struct net_find {
	const char *key;
	bool found;
	char name[256];
	char verdict[16];
	int64_t cooldown_s, last_visit_s, next_visit_s;
};

static int on_find_network(void *ud, const struct heed_store_irc_network_row *r)
{
	struct net_find *f = ud;

	if (strcmp(r->key, f->key) != 0)
		return 0;
	f->found = heed_store_irc_published(r->verdict);
	snprintf(f->name, sizeof(f->name), "%s", r->name);
	snprintf(f->verdict, sizeof(f->verdict), "%s", r->verdict);
	f->cooldown_s = r->cooldown_s;
	f->last_visit_s = r->last_visit_end_s;
	f->next_visit_s = r->next_visit_s;
	return 1;
}

static int on_server(void *ud, const struct heed_store_irc_server_row *r)
{
	struct hpage *p = ud;

	hp_raw(p, "<tr><td>");
	hp_bdi(p, r->name);
	hp_raw(p, "</td><td>");
	hp_bdi(p, r->hub);
	hp_raw(p, "</td><td class=\"num\">");
	if (r->hops >= 0)
		hp_rawf(p, "%d", r->hops);
	hp_raw(p, "</td><td>");
	hp_bdi(p, r->description);
	hp_raw(p, "</td></tr>\n");
	return p->rc != HEED_OK;
}

/* Whether needle (lower case ASCII folding, nlen bytes) occurs in the len
 * bytes of hay, ignoring ASCII case. */
static bool contains_fold(const char *hay, size_t len, const char *needle,
                          size_t nlen)
{
	size_t i, j;

	if (nlen == 0)
		return true;
	for (i = 0; hay && i + nlen <= len; i++) {
		for (j = 0; j < nlen; j++)
			if (heed__ascii_lower(hay[i + j]) !=
			    heed__ascii_lower(needle[j]))
				break;
		if (j == nlen)
			return true;
	}
	return false;
}

/* A matching channel, copied: the table is sorted before it is shown. */
struct chan {
	char *name;
	char *topic; /* without formatting codes */
	size_t topic_len;
	int64_t users;
};

struct chan_view {
	const struct heed_allocator *a;
	const char *q;
	size_t qlen;
	struct chan *v;
	size_t n, cap;
	heed_status rc;
};

static bool chan_grow(struct chan_view *cv)
{
	size_t cap = cv->cap ? 2 * cv->cap : 64;
	struct chan *grown;

	if (cv->n < cv->cap)
		return true;
	grown = heed__malloc(cv->a, cap * sizeof(*grown));
	if (!grown)
		return false;
	if (cv->n)
		memcpy(grown, cv->v, cv->n * sizeof(*grown));
	heed__free(cv->a, cv->v);
	cv->v = grown;
	cv->cap = cap;
	return true;
}

static int on_channel(void *ud, const struct heed_store_irc_channel_row *r)
{
	struct chan_view *cv = ud;
	struct chan *c;

	if (!contains_fold(r->name, r->name ? strlen(r->name) : 0, cv->q,
	                   cv->qlen) &&
	    !contains_fold(r->topic, r->topic_len, cv->q, cv->qlen))
		return 0;
	if (!chan_grow(cv)) {
		cv->rc = HEED_ENOMEM;
		return 1;
	}
	c = &cv->v[cv->n++];
	c->users = r->users;
	c->name = heed__strndup(cv->a, r->name, strlen(r->name));
	/* Raw bytes from the server: formatting codes go here, the escape
	 * cleans the UTF-8. */
	c->topic =
	        heed__irc_strip_dup(cv->a, r->topic ? r->topic : "",
	                            r->topic ? r->topic_len : 0, &c->topic_len);
	if (!c->name || !c->topic) {
		cv->rc = HEED_ENOMEM;
		return 1;
	}
	return 0;
}

static void chans_free(struct chan_view *cv)
{
	for (size_t i = 0; i < cv->n; i++) {
		heed__free(cv->a, cv->v[i].name);
		heed__free(cv->a, cv->v[i].topic);
	}
	heed__free(cv->a, cv->v);
}

static int chan_cmp(const void *pa, const void *pb, void *order)
{
	const struct chan *a = pa, *b = pb;

	return heed__irc_sort_cmp(&heed__irc_chan_sorts[*(const size_t *)order],
	                          a->users, a->name, b->users, b->name);
}

static void channel_row(struct hpage *p, const struct chan *c)
{
	hp_raw(p, "<tr><td>");
	hp_bdi(p, c->name);
	hp_raw(p, "</td>");
	count_cell(p, c->users);
	hp_raw(p, "<td>");
	hp_bdin(p, c->topic, c->topic_len);
	hp_raw(p, "</td></tr>\n");
}

static void channel_form(struct hpage *p, const char *key, const char *q)
{
	hp_raw(p, "<form id=\"channel-search\" action=\"");
	hp_href(p, "/irc/");
	hp_url(p, key);
	hp_raw(p, "\" method=\"get\" role=\"search\">\n<label for=\"cq\">"
	          "Filter channels by name or topic</label>\n<input id=\"cq\" "
	          "name=\"q\" type=\"search\" maxlength=\"256\" value=\"");
	hp_text(p, q);
	hp_raw(p, "\">\n<button type=\"submit\">Filter</button>\n</form>\n");
}

static heed_status network_tables(struct hpage *p, const char *key,
                                  const char *q)
{
	struct chan_view cv = {
	        p->req->ctx->alloc, q, strlen(q), NULL, 0, 0, HEED_OK};
	size_t order = sort_of(p->req, heed__irc_chan_sorts,
	                       HEED_ARRAY_SIZE(heed__irc_chan_sorts));
	heed_status rc;

	hp_raw(p, "<h2>Servers</h2>\n<table id=\"servers\">\n<thead><tr><th "
	          "scope=\"col\">Server</th><th scope=\"col\">Hub</th><th "
	          "scope=\"col\" class=\"num\">Hops</th><th scope=\"col\">"
	          "Description</th></tr></thead>\n<tbody>\n");
	rc = heed_store_irc_each_server(p->req->store, key, on_server, p);
	if (rc != HEED_OK)
		return rc;
	hp_raw(p, "</tbody>\n</table>\n<h2>Channels</h2>\n");
	channel_form(p, key, q);
	rc = heed_store_irc_each_channel(p->req->store, key, on_channel, &cv);
	if (rc == HEED_OK)
		rc = cv.rc;
	if (rc != HEED_OK) {
		chans_free(&cv);
		return rc;
	}
	if (cv.n)
		qsort_r(cv.v, cv.n, sizeof(*cv.v), chan_cmp, &order);
	hp_raw(p, "<table id=\"channels\">\n<thead><tr>");
	sort_header(p, &heed__irc_chan_sorts[1], order == 1, "/irc/", key, q);
	sort_header(p, &heed__irc_chan_sorts[0], order == 0, "/irc/", key, q);
	hp_raw(p, "<th scope=\"col\">Topic</th></tr></thead>\n<tbody>\n");
	for (size_t i = 0; i < cv.n && i < CHANNELS_SHOWN; i++)
		channel_row(p, &cv.v[i]);
	chans_free(&cv);
	hp_raw(p, "</tbody>\n</table>\n<p id=\"count\">");
	hp_int(p, (int64_t)cv.n);
	hp_raw(p, cv.n == 1 ? " channel" : " channels");
	if (q[0])
		hp_raw(p, cv.n == 1 ? " matches" : " match");
	if (cv.n > CHANNELS_SHOWN) {
		hp_raw(p, "; the first ");
		hp_int(p, CHANNELS_SHOWN);
		hp_raw(p, " are shown, narrow the filter to see others");
	}
	hp_raw(p, ".</p>\n");
	return HEED_OK;
}

/* What the network said about crawlers and when heed comes back: the
 * operator sees heed honour CRAWLER's cooldown. */
static void network_preference(struct hpage *p, const struct net_find *f)
{
	hp_raw(p, "<dl id=\"preference\">\n<dt>Crawler preference</dt><dd>");
	if (strcmp(f->verdict, "allow") == 0)
		hp_raw(p, "CRAWLER index:allow");
	else
		hp_raw(p, "not advertised (no CRAWLER token)");
	if (f->cooldown_s > 0) {
		hp_raw(p, ", cooldown ");
		hp_int(p, f->cooldown_s);
		hp_raw(p, f->cooldown_s == 1 ? " second" : " seconds");
	}
	hp_raw(p, "</dd>\n<dt>Last visit</dt><dd>");
	hp_time(p, f->last_visit_s);
	hp_raw(p, "</dd>\n<dt>Next visit</dt><dd>");
	hp_time(p, f->next_visit_s);
	hp_raw(p, " at the earliest</dd>\n</dl>\n");
}

struct history {
	struct heed__svg_bar users[HEED__SERVE_IRC_HISTORY],
	        channels[HEED__SERVE_IRC_HISTORY],
	        servers[HEED__SERVE_IRC_HISTORY];
	char labels[HEED__SERVE_IRC_HISTORY][16];
	size_t n;
};

static int on_visit(void *ud, const struct heed_store_irc_visit_row *r)
{
	struct history *h = ud;
	time_t t = (time_t)r->ended_s;
	struct tm tm;

	if (h->n == HEED__SERVE_IRC_HISTORY)
		return 1;
	h->labels[h->n][0] = '\0';
	if (gmtime_r(&t, &tm))
		strftime(h->labels[h->n], sizeof(h->labels[0]), "%m-%d", &tm);
	h->users[h->n] = (struct heed__svg_bar){h->labels[h->n],
	                                        r->users > 0 ? r->users : 0};
	h->channels[h->n] =
	        (struct heed__svg_bar){h->labels[h->n], r->channels};
	h->servers[h->n] = (struct heed__svg_bar){h->labels[h->n], r->servers};
	h->n++;
	return 0;
}

static void history_chart(struct hpage *p, const char *title,
                          const struct heed__svg_bar *bars, size_t n)
{
	hp_raw(p, "<figure class=\"chart\">\n");
	if (p->rc == HEED_OK)
		p->rc = heed__svg_bars(&p->resp->body, title, bars, n);
	hp_rawf(p,
	        "\n<figcaption>%s, one bar per visit (UTC day of "
	        "its end).</figcaption>\n</figure>\n",
	        title);
}

static heed_status network_history(struct hpage *p, const char *key)
{
	struct history *h = heed__malloc(p->req->ctx->alloc, sizeof(*h));
	heed_status rc;

	if (!h)
		return HEED_ENOMEM;
	h->n = 0;
	rc = heed_store_irc_each_visit(p->req->store, key,
	                               HEED__SERVE_IRC_HISTORY, on_visit, h);
	if (rc == HEED_OK && h->n > 0) {
		hp_raw(p, "<h2>History</h2>\n");
		history_chart(p, "Users", h->users, h->n);
		history_chart(p, "Channels", h->channels, h->n);
		history_chart(p, "Servers", h->servers, h->n);
	}
	heed__free(p->req->ctx->alloc, h);
	return rc;
}

void heed__html_irc_network(const struct heed__serve_request *req,
                            const char *rest, struct heed__serve_response *resp)
{
	const char *q = heed__serve_arg(req->args, "q");
	struct net_find f = {.key = rest};
	struct hpage p;
	heed_status rc;

	hp_init(&p, req, resp);
	if (!q)
		q = "";
	if (strlen(q) > HEED__SERVE_MAX_QUERY) {
		hp_fail(&p, 400, "The filter is longer than 256 bytes.");
		return;
	}
	if (!rest || !rest[0]) {
		hp_fail(&p, 404, "There is no such network in the index.");
		return;
	}
	rc = heed_store_irc_each_network(req->store, on_find_network, &f);
	if (rc != HEED_OK) {
		hp_store_fail(&p, rc, NULL);
		return;
	}
	if (!f.found) {
		hp_fail(&p, 404, "There is no such network in the index.");
		return;
	}
	hp_begin(&p, rest);
	hp_raw(&p, "<h1 id=\"network\">");
	hp_bdi(&p, rest);
	if (f.name[0]) {
		hp_raw(&p, " <span class=\"meta\">");
		hp_bdi(&p, f.name);
		hp_raw(&p, "</span>");
	}
	hp_raw(&p, "</h1>\n");
	network_preference(&p, &f);
	rc = network_history(&p, rest);
	if (rc == HEED_OK)
		rc = network_tables(&p, rest, q);
	if (rc != HEED_OK) {
		hp_store_fail(&p, rc, NULL);
		return;
	}
	hp_end(&p, 200);
}
