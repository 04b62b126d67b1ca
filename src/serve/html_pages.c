/*
 * The HTML pages of one record and of tags (docs/serve.md, "Pages").
 * html.c has the layout and the helpers (html-int.h), html_site.c the
 * sites, html_irc.c the IRC networks.
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "serve/html-int.h"

#define TAGS_SHOWN 200

/* ---- the record page ---- */

/* Items of an array field shown on the record page: a record may hold
 * 20,000 links, which no one reads on a page. */
#define ARRAY_ITEMS_SHOWN 50

static void value_text(struct hpage *p, json_object *v);

/* " from SOURCE" after a value the record says where it came from. */
static void source_note(struct hpage *p, json_object *src)
{
	hp_raw(p, " <span class=\"source\">from ");
	value_text(p, src);
	hp_raw(p, "</span>");
}

/* An item of a list field: {"value": ..., "source": ...} (an author, a
 * tag) as its value and source, like a field of its own. */
static bool sourced_item(struct hpage *p, json_object *item)
{
	json_object *v, *src;

	if (!json_object_is_type(item, json_type_object) ||
	    !json_object_object_get_ex(item, "value", &v) ||
	    json_object_is_type(v, json_type_object) ||
	    json_object_is_type(v, json_type_array))
		return false;
	value_text(p, v);
	if (json_object_object_get_ex(item, "source", &src))
		source_note(p, src);
	return true;
}

/* A record field's value as text: strings as they are, numbers and
 * booleans as JSON writes them, objects as compact JSON, arrays as a list
 * of their first items. */
static void value_text(struct hpage *p, json_object *v)
{
	size_t i, n;

	if (!v) {
		hp_raw(p, "none");
		return;
	}
	if (json_object_is_type(v, json_type_string)) {
		hp_bdin(p, json_object_get_string(v),
		        (size_t)json_object_get_string_len(v));
		return;
	}
	if (!json_object_is_type(v, json_type_array)) {
		hp_bdi(p, json_object_to_json_string_ext(
		                  v, JSON_C_TO_STRING_PLAIN));
		return;
	}
	n = json_object_array_length(v);
	hp_int(p, (int64_t)n);
	hp_raw(p, n == 1 ? " item" : " items");
	if (n == 0)
		return;
	hp_raw(p, "<ul class=\"items\">");
	for (i = 0; i < n && i < ARRAY_ITEMS_SHOWN; i++) {
		json_object *item = json_object_array_get_idx(v, i);
		hp_raw(p, "<li>");
		if (json_object_is_type(item, json_type_array))
			hp_bdi(p, json_object_to_json_string_ext(
			                  item, JSON_C_TO_STRING_PLAIN));
		else if (!sourced_item(p, item))
			value_text(p, item);
		hp_raw(p, "</li>");
	}
	hp_raw(p, "</ul>");
	if (n > ARRAY_ITEMS_SHOWN) {
		hp_raw(p, "and ");
		hp_int(p, (int64_t)(n - ARRAY_ITEMS_SHOWN));
		hp_raw(p, " more");
	}
}

struct record_view {
	struct hpage *p;
	json_object *rec;
	struct heed__serve_permit pm;
	bool snippet_cut;      /* the description is shown cut */
	bool snippet_withheld; /* the description is not shown */
	bool thumb_withheld;
};

static void field_description(struct record_view *rv, const char *desc)
{
	struct hpage *p = rv->p;
	size_t len = strlen(desc),
	       cut = heed__serve_snippet_cut(&rv->pm, desc, len);

	hp_bdin(p, desc, cut);
	if (cut < len) {
		hp_raw(p, "…");
		rv->snippet_cut = true;
	}
}

static void field_value(struct record_view *rv, const char *key, json_object *v)
{
	struct hpage *p = rv->p;
	bool desc = strcmp(key, "description") == 0;
	bool thumb = strcmp(key, "thumbnail") == 0;
	const char *s = json_object_is_type(v, json_type_string)
	                        ? json_object_get_string(v)
	                        : NULL;

	/* Whatever its type, a field the permissions withhold is not shown. */
	if ((desc && !rv->pm.snippet) || (thumb && !rv->pm.thumbnail)) {
		rv->snippet_withheld |= desc;
		rv->thumb_withheld |= thumb;
		hp_raw(p, "<em>withheld</em>");
	} else if (desc && s) {
		field_description(rv, s);
	} else if (thumb && s && heed__serve_safe_link(s)) {
		/* A link, never an <img>: heed shows no media. */
		hp_external(p, NULL, s, "thumbnail");
		hp_raw(p, " <span class=\"url\">");
		hp_bdi(p, s);
		hp_raw(p, "</span>");
	} else if (strcmp(key, "canonical") == 0 && s) {
		hp_external(p, NULL, s, s);
	} else {
		value_text(p, v);
	}
}

/* One <dt>/<dd> row per field of the record JSON, in its order. */
static void record_fields(struct record_view *rv)
{
	struct hpage *p = rv->p;

	hp_raw(p, "<dl id=\"fields\">\n");
	json_object_object_foreach(rv->rec, key, val)
	{
		json_object *v = val, *src = NULL;
		bool field = json_object_is_type(val, json_type_object) &&
		             json_object_object_get_ex(val, "value", &v);

		if (field)
			json_object_object_get_ex(val, "source", &src);
		hp_raw(p, "<dt>");
		hp_bdi(p, key);
		hp_raw(p, "</dt><dd>");
		if (strcmp(key, "tags") == 0 &&
		    json_object_is_type(val, json_type_array))
			hp_tags(p, rv->rec, SIZE_MAX, true);
		else
			field_value(rv, key, v);
		if (src)
			source_note(p, src);
		hp_raw(p, "</dd>\n");
	}
	hp_raw(p, "</dl>\n");
}

static void usage_words(struct hpage *p, const char *name, json_object *u)
{
	json_object *v;

	hp_raw(p, "<li>ACAP ");
	hp_text(p, name);
	hp_raw(p, ": ");
	if (!json_object_is_type(u, json_type_object)) {
		hp_raw(p, "not stated</li>\n");
		return;
	}
	hp_raw(p, json_object_object_get_ex(u, "permitted", &v) &&
	                          json_object_get_boolean(v)
	                  ? "permitted"
	                  : "refused");
	if (json_object_object_get_ex(u, "line", &v))
		hp_rawf(p, " (line %lld)", (long long)json_object_get_int64(v));
	if (json_object_object_get_ex(u, "max_length", &v)) {
		json_object *unit = NULL;
		json_object_object_get_ex(u, "max_length_unit", &unit);
		hp_rawf(p, ", at most %lld ",
		        (long long)json_object_get_int64(v));
		hp_text(p, unit ? json_object_get_string(unit) : "chars");
	}
	if (json_object_object_get_ex(u, "until_recrawled", &v))
		hp_raw(p, ", until the page is read again");
	if (json_object_object_get_ex(u, "expires", &v)) {
		hp_raw(p, ", until ");
		hp_time(p, json_object_get_int64(v));
	}
	hp_raw(p, "</li>\n");
}

static void meta_words(struct hpage *p, json_object *m)
{
	static const char *const flags[] = {"noarchive", "nosnippet",
	                                    "nofollow"};
	json_object *v;
	size_t i;
	bool any = false;

	hp_raw(p, "<li>Robots meta and X-Robots-Tag: ");
	for (i = 0; m && i < sizeof(flags) / sizeof(flags[0]); i++) {
		if (json_object_object_get_ex(m, flags[i], &v) &&
		    json_object_get_boolean(v)) {
			hp_rawf(p, "%s%s", any ? ", " : "", flags[i]);
			any = true;
		}
	}
	if (m && json_object_object_get_ex(m, "max_snippet", &v)) {
		hp_rawf(p, "%smax-snippet %lld", any ? ", " : "",
		        (long long)json_object_get_int64(v));
		any = true;
	}
	if (m && json_object_object_get_ex(m, "unavailable_after", &v)) {
		hp_rawf(p, "%sunavailable after ", any ? ", " : "");
		hp_time(p, json_object_get_int64(v));
		any = true;
	}
	hp_raw(p, any ? "</li>\n" : "no limits</li>\n");
}

/* The permissions JSON in plain words (src/crawl/record_json.c). */
static void permissions_words(struct hpage *p, const char *json)
{
	static const char *const usages[] = {"crawl",
	                                     "index",
	                                     "follow",
	                                     "present",
	                                     "present-link",
	                                     "present-snippet",
	                                     "present-thumbnail"};
	json_object *o = hp_record_parse(json), *r, *v, *acap, *u;
	size_t i;

	hp_raw(p, "<section id=\"permissions\">\n<h2>What the site "
	          "permitted</h2>\n");
	if (!o) {
		hp_raw(p,
		       "<p>No readable permissions were stored: no "
		       "description or thumbnail is shown.</p>\n</section>\n");
		return;
	}
	hp_raw(p, "<ul>\n<li>robots.txt: ");
	if (json_object_object_get_ex(o, "robots_txt", &r) &&
	    json_object_object_get_ex(r, "rules", &v) &&
	    json_object_get_boolean(v)) {
		hp_raw(p, "the rules allowed reading this page");
		if (json_object_object_get_ex(r, "line", &v))
			hp_rawf(p, " (line %lld)",
			        (long long)json_object_get_int64(v));
	} else {
		hp_raw(p, "no rules applied");
	}
	hp_raw(p, "</li>\n");
	if (!json_object_object_get_ex(o, "acap", &acap) || !acap) {
		hp_raw(p, "<li>ACAP: none</li>\n");
	} else {
		for (i = 0; i < sizeof(usages) / sizeof(usages[0]); i++) {
			u = NULL;
			if (json_object_object_get_ex(acap, usages[i], &u))
				usage_words(p, usages[i], u);
		}
	}
	meta_words(p,
	           json_object_object_get_ex(o, "meta_robots", &v) ? v : NULL);
	hp_raw(p, "</ul>\n</section>\n");
	json_object_put(o);
}

/* What the page does not show and why: permit.c names every reason. */
static void withheld_note(struct hpage *p, const struct record_view *rv)
{
	if (!rv->snippet_cut && !rv->snippet_withheld && !rv->thumb_withheld)
		return;
	hp_raw(p, "<p id=\"withheld\">");
	if (rv->snippet_cut)
		hp_raw(p, "The description is cut");
	else if (rv->snippet_withheld)
		hp_raw(p, "The description is withheld");
	if (rv->thumb_withheld)
		hp_raw(p, rv->snippet_cut || rv->snippet_withheld
		                  ? " and the thumbnail withheld"
		                  : "The thumbnail is withheld");
	hp_raw(p, ", as the site's permissions ask: ");
	hp_text(p, rv->pm.why[0] ? rv->pm.why
	                         : "no readable permissions were stored");
	hp_raw(p, ".</p>\n");
}

static void record_dates(struct hpage *p, const struct heed_stored_page *pg)
{
	hp_raw(p, "<dl id=\"dates\">\n<dt>Fetched</dt><dd>");
	hp_time(p, pg->fetched_at);
	hp_raw(p, "</dd>\n<dt>Checked</dt><dd>");
	hp_time(p, pg->checked_at);
	hp_raw(p, "</dd>\n<dt>Published</dt><dd>");
	hp_bdi(p, pg->published ? pg->published : "unknown");
	hp_raw(p, "</dd>\n<dt>Modified</dt><dd>");
	hp_bdi(p, pg->modified ? pg->modified : "unknown");
	hp_rawf(p, "</dd>\n<dt>HTTP status</dt><dd>%d</dd>\n", pg->status);
	hp_raw(p, "<dt>Views</dt><dd>");
	if (pg->views >= 0)
		hp_int(p, pg->views);
	else
		hp_raw(p, "not given");
	hp_raw(p, "</dd>\n<dt>Mode</dt><dd>");
	hp_text(p, pg->mode ? pg->mode : "unknown");
	hp_raw(p, "</dd>\n<dt>Site</dt><dd>");
	hp_link(p, "/sites/", pg->host, pg->host);
	hp_raw(p, "</dd>\n</dl>\n");
}

static int on_record(void *ud, const struct heed_search_hit *hit)
{
	struct record_view *rv = ud;
	struct hpage *p = rv->p;
	const struct heed_stored_page *pg = &hit->page;
	const char *url = pg->final_url ? pg->final_url : pg->url;

	heed__serve_permit(pg->permissions, p->req->now_s, &rv->pm);
	rv->rec = hp_record_parse(pg->record);
	hp_begin(p, pg->title && pg->title[0] ? pg->title : pg->url);
	hp_raw(p, "<h1 id=\"title\">");
	hp_bdi(p, pg->title && pg->title[0] ? pg->title : pg->url);
	hp_raw(p, "</h1>\n<p>Original page: ");
	hp_external(p, "original", url, url);
	hp_raw(p, "</p>\n");
	record_dates(p, pg);
	hp_raw(p, "<h2>Fields and their sources</h2>\n");
	if (rv->rec)
		record_fields(rv);
	else
		hp_raw(p, "<p>The stored record is not readable.</p>\n");
	withheld_note(p, rv);
	permissions_words(p, pg->permissions);
	json_object_put(rv->rec);
	rv->rec = NULL;
	return 0;
}

void heed__html_record(const struct heed__serve_request *req, const char *rest,
                       struct heed__serve_response *resp)
{
	struct record_view rv = {0};
	struct hpage p;
	int64_t id;
	heed_status rc;

	hp_init(&p, req, resp);
	rv.p = &p;
	if (!heed__serve_record_id(rest, &id)) {
		hp_fail(&p, 404, "There is no such record in the index.");
		return;
	}
	rc = heed_store_search_page(req->store, id, req->now_s, on_record, &rv);
	if (rc != HEED_OK) {
		hp_store_fail(&p, rc, NULL);
		return;
	}
	hp_end(&p, 200);
}

/* ---- tags ---- */

void heed__html_tags(const struct heed__serve_request *req,
                     struct heed__serve_response *resp)
{
	struct hpage p;
	heed_status rc;

	hp_init(&p, req, resp);
	hp_begin(&p, "Tags");
	hp_raw(&p, "<h1>Tags</h1>\n<ul id=\"tags\">\n");
	rc = heed_store_search_tags(req->store, NULL, TAGS_SHOWN, req->now_s,
	                            hp_tag_item, &p);
	if (rc != HEED_OK) {
		hp_store_fail(&p, rc, NULL);
		return;
	}
	hp_raw(&p, "</ul>\n");
	hp_end(&p, 200);
}

void heed__html_tag(const struct heed__serve_request *req, const char *rest,
                    struct heed__serve_response *resp)
{
	struct heed__serve_args args = {0};
	struct heed_search_query q;
	struct heed_diag diag = {0};
	struct heed_buf path;
	char *fts = NULL;
	struct hpage p;
	heed_status rc;
	bool known;
	size_t i;

	hp_init(&p, req, resp);
	if (!rest || !rest[0]) {
		hp_fail(&p, 404, "There is no such tag in the index.");
		return;
	}
	/* The tag from the path replaces any tag argument. */
	for (i = 0; req->args && i < req->args->count &&
	            args.count < HEED__SERVE_MAX_ARGS - 1;
	     i++)
		if (strcmp(req->args->arg[i].name, "tag") != 0)
			args.arg[args.count++] = req->args->arg[i];
	args.arg[args.count].name = "tag";
	args.arg[args.count++].value = rest;
	rc = heed__serve_parse_search(req->ctx->alloc, &args,
	                              req->ctx->page_size, req->now_s, &q, &fts,
	                              &diag);
	if (rc != HEED_OK) {
		heed__free(req->ctx->alloc, fts);
		hp_fail(&p, rc == HEED_ENOMEM ? 500 : 400,
		        diag.message[0] ? diag.message
		                        : "Not a valid request.");
		return;
	}
	rc = heed__serve_tag_known(req->store, q.tag, req->now_s, &known);
	if (rc != HEED_OK || !known) {
		heed__free(req->ctx->alloc, fts);
		if (rc != HEED_OK)
			hp_store_fail(&p, rc, NULL);
		else
			hp_fail(&p, 404, "There is no such tag in the index.");
		return;
	}
	heed__buf_init(&path, req->ctx->alloc, 4096);
	if (heed__buf_add(&path, "/tags/", 6) != HEED_OK ||
	    heed__url_encode(&path, rest, strlen(rest)) != HEED_OK) {
		heed__buf_free(&path);
		heed__free(req->ctx->alloc, fts);
		hp_fail(&p, 400, "The tag is too long.");
		return;
	}
	hp_begin(&p, rest);
	hp_raw(&p, "<h1 id=\"tag\">Tag: ");
	hp_bdi(&p, rest);
	hp_raw(&p, "</h1>\n");
	hp_feed_link(&p, "/feeds/tags/", rest);
	rc = hp_results(&p, &q, heed__buf_str(&path), &args, "tag", &diag);
	heed__buf_free(&path);
	heed__free(req->ctx->alloc, fts);
	if (rc != HEED_OK) {
		hp_store_fail(&p, rc, &diag);
		return;
	}
	hp_end(&p, 200);
}
