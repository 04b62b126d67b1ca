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

struct nets_view {
	struct hpage *p;
	int shown;
};

static int on_network(void *ud, const struct heed_store_irc_network_row *r)
{
	struct nets_view *v = ud;
	struct hpage *p = v->p;

	if (!heed_store_irc_published(r->verdict))
		return 0;
	hp_raw(p, "<tr><td>");
	hp_link(p, "/irc/", r->key, r->key);
	hp_raw(p, "</td><td>");
	hp_bdi(p, r->name[0] ? r->name : "unnamed");
	hp_raw(p, "</td>");
	count_cell(p, r->users);
	count_cell(p, r->servers);
	count_cell(p, r->channels);
	hp_raw(p, "<td>");
	hp_time(p, r->last_visit_end_s);
	hp_raw(p, "</td></tr>\n");
	v->shown++;
	return p->rc != HEED_OK;
}

void heed__html_irc(const struct heed__serve_request *req,
                    struct heed__serve_response *resp)
{
	struct nets_view v = {0};
	struct hpage p;
	heed_status rc;

	hp_init(&p, req, resp);
	v.p = &p;
	hp_begin(&p, "IRC networks");
	hp_raw(&p, "<h1>IRC networks</h1>\n<p>Networks whose servers allow "
	           "their channel list to be published (the CRAWLER token "
	           "does not deny it).</p>\n<table id=\"networks\">\n<thead>"
	           "<tr><th scope=\"col\">Network</th><th scope=\"col\">Name"
	           "</th><th scope=\"col\" class=\"num\">Users</th><th "
	           "scope=\"col\" class=\"num\">Servers</th><th scope=\"col\" "
	           "class=\"num\">Channels</th><th scope=\"col\">Last visit"
	           "</th></tr></thead>\n<tbody>\n");
	rc = heed_store_irc_each_network(req->store, on_network, &v);
	if (rc != HEED_OK) {
		hp_store_fail(&p, rc, NULL);
		return;
	}
	hp_raw(&p, "</tbody>\n</table>\n");
	if (v.shown == 0)
		hp_raw(&p, "<p id=\"empty\">No networks.</p>\n");
	hp_end(&p, 200);
}

struct net_find {
	const char *key;
	bool found;
	char name[256];
};

static int on_find_network(void *ud, const struct heed_store_irc_network_row *r)
{
	struct net_find *f = ud;

	if (strcmp(r->key, f->key) != 0)
		return 0;
	f->found = heed_store_irc_published(r->verdict);
	snprintf(f->name, sizeof(f->name), "%s", r->name);
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

struct chan_view {
	struct hpage *p;
	const char *q;
	size_t qlen;
	int64_t matched;
};

static int on_channel(void *ud, const struct heed_store_irc_channel_row *r)
{
	struct chan_view *v = ud;
	struct hpage *p = v->p;
	char *topic;
	size_t len;

	if (!contains_fold(r->name, r->name ? strlen(r->name) : 0, v->q,
	                   v->qlen) &&
	    !contains_fold(r->topic, r->topic_len, v->q, v->qlen))
		return 0;
	if (v->matched++ >= CHANNELS_SHOWN)
		return 0; /* counted, not shown */
	hp_raw(p, "<tr><td>");
	hp_bdi(p, r->name);
	hp_raw(p, "</td>");
	count_cell(p, r->users);
	hp_raw(p, "<td>");
	/* Raw bytes from the server: formatting codes go here, the escape
	 * cleans the UTF-8. */
	topic = heed__irc_strip_dup(p->req->ctx->alloc, r->topic, r->topic_len,
	                            &len);
	hp_bdin(p, topic, len);
	heed__free(p->req->ctx->alloc, topic);
	hp_raw(p, "</td></tr>\n");
	return p->rc != HEED_OK;
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
	struct chan_view cv = {p, q, strlen(q), 0};
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
	hp_raw(p, "<table id=\"channels\">\n<thead><tr><th scope=\"col\">"
	          "Channel</th><th scope=\"col\" class=\"num\">Users</th><th "
	          "scope=\"col\">Topic</th></tr></thead>\n<tbody>\n");
	rc = heed_store_irc_each_channel(p->req->store, key, on_channel, &cv);
	if (rc != HEED_OK)
		return rc;
	hp_raw(p, "</tbody>\n</table>\n<p id=\"count\">");
	hp_int(p, cv.matched);
	hp_raw(p, cv.matched == 1 ? " channel" : " channels");
	if (q[0])
		hp_raw(p, cv.matched == 1 ? " matches" : " match");
	if (cv.matched > CHANNELS_SHOWN) {
		hp_raw(p, "; the first ");
		hp_int(p, CHANNELS_SHOWN);
		hp_raw(p, " are shown, narrow the filter to see others");
	}
	hp_raw(p, ".</p>\n");
	return HEED_OK;
}

void heed__html_irc_network(const struct heed__serve_request *req,
                            const char *rest, struct heed__serve_response *resp)
{
	const char *q = heed__serve_arg(req->args, "q");
	struct net_find f = {rest, false, ""};
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
	rc = network_tables(&p, rest, q);
	if (rc != HEED_OK) {
		hp_store_fail(&p, rc, NULL);
		return;
	}
	hp_end(&p, 200);
}
