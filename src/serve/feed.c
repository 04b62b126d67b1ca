/*
 * Atom feeds (RFC 4287) of the index, for feed readers: a search, a site
 * and a tag, newest fetched first; and the OpenSearch 1.1 description
 * that lets a browser offer the index as a search engine.
 *
 * A feed shows what the results page shows and nothing more: the title,
 * the original page as the entry's link (only an http(s) URL), the
 * description only where the site permits a snippet and as far as it
 * permits, the tags; never a thumbnail or any other media. Every string
 * goes through heed__html_escape, whose output is also well-formed XML
 * text (no control characters, no U+FFFE/U+FFFF, five entities).
 *
 * Feeds need absolute addresses (an entry's id, the self link): they
 * start with serve.base_url, else with http:// and the request's Host.
 */
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "serve/html-int.h"

#define ATOM_TYPE       "application/atom+xml; charset=utf-8"
#define OPENSEARCH_TYPE "application/opensearchdescription+xml; charset=utf-8"
/* Entries of a feed when the request gives no limit. */
#define FEED_ENTRIES 30

/* The absolute prefix of the index's addresses, escaped for XML. */
static void put_base(struct heed_buf *b, const struct heed__serve_request *req,
                     heed_status *rc)
{
	const char *base = req->ctx->base_url;

	if (*rc != HEED_OK)
		return;
	if (base && base[0]) {
		*rc = heed__html_escape(b, base, strlen(base));
		return;
	}
	*rc = heed__buf_add(b, "http://", 7);
	if (*rc == HEED_OK && req->host)
		*rc = heed__html_escape(b, req->host, strlen(req->host));
}

static void put(struct heed_buf *b, const char *s, heed_status *rc)
{
	if (*rc == HEED_OK && s)
		*rc = heed__buf_add(b, s, strlen(s));
}

static void put_text(struct heed_buf *b, const char *s, size_t len,
                     heed_status *rc)
{
	if (*rc == HEED_OK && s)
		*rc = heed__html_escape(b, s, len);
}

static void put_url(struct heed_buf *b, const char *s, heed_status *rc)
{
	if (*rc == HEED_OK && s)
		*rc = heed__url_encode(b, s, strlen(s));
}

/* An RFC 3339 date (RFC 4287 3.3). */
static void put_date(struct heed_buf *b, int64_t unix_s, heed_status *rc)
{
	char iso[32] = "1970-01-01T00:00:00Z";
	time_t t = (time_t)unix_s;
	struct tm tm;

	if (unix_s > 0 && unix_s != HEED_STORE_NO_DATE && gmtime_r(&t, &tm))
		strftime(iso, sizeof(iso), "%Y-%m-%dT%H:%M:%SZ", &tm);
	put(b, iso, rc);
}

struct feed {
	const struct heed__serve_request *req;
	struct heed_buf entries;
	int64_t updated_s; /* the newest entry's fetch */
	heed_status rc;
};

static void entry_tags(struct feed *f, json_object *rec)
{
	json_object *tags, *t, *v;
	size_t i, n;

	if (!rec || !json_object_object_get_ex(rec, "tags", &tags) ||
	    !json_object_is_type(tags, json_type_array))
		return;
	n = json_object_array_length(tags);
	for (i = 0; i < n && i < 20; i++) {
		t = json_object_array_get_idx(tags, i);
		if (!json_object_is_type(t, json_type_object) ||
		    !json_object_object_get_ex(t, "value", &v) ||
		    !json_object_is_type(v, json_type_string))
			continue;
		put(&f->entries, "<category term=\"", &f->rc);
		put_text(&f->entries, json_object_get_string(v),
		         (size_t)json_object_get_string_len(v), &f->rc);
		put(&f->entries, "\"/>", &f->rc);
	}
}

/* The permitted part of the description, as the results page shows it. */
static void entry_summary(struct feed *f, const struct heed_stored_page *pg,
                          json_object *rec)
{
	const char *desc = hp_record_value(rec, "description");
	struct heed__serve_permit pm;
	size_t len, cut;

	heed__serve_permit(pg->permissions, f->req->now_s, &pm);
	if (!desc || !desc[0] || !pm.snippet)
		return;
	len = strlen(desc);
	cut = heed__serve_snippet_cut(&pm, desc, len);
	put(&f->entries, "<summary type=\"text\">", &f->rc);
	put_text(&f->entries, desc, cut, &f->rc);
	if (cut < len)
		put(&f->entries, "…", &f->rc);
	put(&f->entries, "</summary>", &f->rc);
}

static int on_entry(void *ud, const struct heed_search_hit *hit)
{
	struct feed *f = ud;
	const struct heed_stored_page *pg = &hit->page;
	const char *url = pg->final_url ? pg->final_url : pg->url;
	const char *title = pg->title && pg->title[0] ? pg->title : pg->url;
	json_object *rec = hp_record_parse(pg->record);
	char id[32];

	if (pg->fetched_at > f->updated_s)
		f->updated_s = pg->fetched_at;
	snprintf(id, sizeof(id), "/records/%lld", (long long)hit->id);
	put(&f->entries, "<entry>\n<title type=\"text\">", &f->rc);
	put_text(&f->entries, title, title ? strlen(title) : 0, &f->rc);
	put(&f->entries, "</title>\n<id>", &f->rc);
	put_base(&f->entries, f->req, &f->rc);
	put(&f->entries, id, &f->rc);
	put(&f->entries,
	    "</id>\n<link rel=\"related\" type=\"text/html\" href=\"", &f->rc);
	put_base(&f->entries, f->req, &f->rc);
	put(&f->entries, id, &f->rc);
	put(&f->entries, "\"/>\n", &f->rc);
	if (heed__serve_safe_link(url)) {
		put(&f->entries, "<link rel=\"alternate\" href=\"", &f->rc);
		put_text(&f->entries, url, strlen(url), &f->rc);
		put(&f->entries, "\"/>\n", &f->rc);
	}
	put(&f->entries, "<updated>", &f->rc);
	put_date(&f->entries, pg->fetched_at, &f->rc);
	put(&f->entries, "</updated>\n", &f->rc);
	entry_summary(f, pg, rec);
	entry_tags(f, rec);
	put(&f->entries, "\n</entry>\n", &f->rc);
	json_object_put(rec);
	return f->rc != HEED_OK;
}

/* The feed's own address and its page's, path + the request's arguments
 * but cursor (a feed is always its first page). */
static void put_link(struct heed_buf *b, const struct heed__serve_request *req,
                     const char *rel, const char *type, const char *path,
                     heed_status *rc)
{
	char sep = '?';

	put(b, "<link rel=\"", rc);
	put(b, rel, rc);
	put(b, "\" type=\"", rc);
	put(b, type, rc);
	put(b, "\" href=\"", rc);
	put_base(b, req, rc);
	put_text(b, path, strlen(path), rc);
	for (size_t i = 0; req->args && i < req->args->count; i++) {
		if (strcmp(req->args->arg[i].name, "cursor") == 0 ||
		    !req->args->arg[i].value[0])
			continue;
		if (*rc == HEED_OK)
			*rc = heed__buf_addc(b, sep);
		put_url(b, req->args->arg[i].name, rc);
		put(b, "=", rc);
		put_url(b, req->args->arg[i].value, rc);
		sep = '&';
	}
	put(b, "\"/>\n", rc);
}

/* Writes the feed of q: self is the feed's path (already encoded), page
 * the HTML page it follows, title its title. */
static void write_feed(const struct heed__serve_request *req,
                       struct heed_search_query *q, const char *self,
                       const char *page, const char *title,
                       struct heed__serve_response *resp)
{
	struct feed f = {req, {0}, 0, HEED_OK};
	struct heed_buf *b = &resp->body;
	struct heed_diag diag = {0};
	heed_status rc;

	heed__buf_init(&f.entries, req->ctx->alloc, HEED__SERVE_MAX_BODY);
	q->sort = HEED_SEARCH_SORT_FETCHED;
	rc = heed_store_search(req->store, q, on_entry, &f, NULL, &diag);
	if (rc == HEED_OK)
		rc = f.rc;
	if (rc != HEED_OK) {
		heed__buf_free(&f.entries);
		heed__serve_error(req, rc == HEED_EINVAL ? 400 : 500,
		                  "The feed could not be written.",
		                  "the feed could not be written", resp);
		return;
	}
	put(b,
	    "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
	    "<feed xmlns=\"http://www.w3.org/2005/Atom\">\n<title>",
	    &rc);
	put_text(b, title, strlen(title), &rc);
	put(b, " · heed index</title>\n<id>", &rc);
	put_base(b, req, &rc);
	put_text(b, self, strlen(self), &rc);
	put(b, "</id>\n", &rc);
	put_link(b, req, "self", "application/atom+xml", self, &rc);
	put_link(b, req, "alternate", "text/html", page, &rc);
	put(b, "<updated>", &rc);
	put_date(b, f.updated_s ? f.updated_s : req->now_s, &rc);
	put(b,
	    "</updated>\n<author><name>heed index</name></author>\n"
	    "<generator>heed</generator>\n",
	    &rc);
	if (rc == HEED_OK)
		rc = heed__buf_add(b, f.entries.data, f.entries.len);
	put(b, "</feed>\n", &rc);
	heed__buf_free(&f.entries);
	if (rc != HEED_OK) {
		heed__serve_error(req, 500, "The feed is too large.",
		                  "the feed is too large", resp);
		return;
	}
	resp->status = 200;
	resp->content_type = ATOM_TYPE;
}

/* The feed of a search whose arguments are args; self and page as
 * write_feed. A tag feed's tag must be a shown page's, as on its page. */
static void feed_of(const struct heed__serve_request *req,
                    const struct heed__serve_args *args, const char *self,
                    const char *page, const char *title, bool tag_feed,
                    struct heed__serve_response *resp)
{
	struct heed_search_query q;
	struct heed_diag diag = {0};
	char *fts = NULL;
	bool known = true;
	heed_status rc;

	rc = heed__serve_parse_search(req->ctx->alloc, args, FEED_ENTRIES,
	                              req->now_s, &q, &fts, &diag);
	if (rc == HEED_OK && tag_feed)
		rc = heed__serve_tag_known(req->store, q.tag, req->now_s,
		                           &known);
	if (rc == HEED_OK && !known)
		heed__serve_error(req, 404,
		                  "There is no such tag in the index.",
		                  "no such tag", resp);
	else if (rc == HEED_OK)
		write_feed(req, &q, self, page, title, resp);
	else
		heed__serve_error(req, rc == HEED_ENOMEM ? 500 : 400,
		                  diag.message[0] ? diag.message
		                                  : "The search is not valid.",
		                  diag.message[0] ? diag.message
		                                  : "the search is not valid",
		                  resp);
	heed__free(req->ctx->alloc, fts);
}

void heed__feed_search(const struct heed__serve_request *req,
                       struct heed__serve_response *resp)
{
	static const struct heed__serve_args none = {0};
	const char *q = req->args ? heed__serve_arg(req->args, "q") : NULL;
	char title[HEED__SERVE_MAX_QUERY + 16];

	snprintf(title, sizeof(title), q && q[0] ? "Search: %s" : "%s",
	         q && q[0] ? q : "Recently fetched");
	feed_of(req, req->args ? req->args : &none, "/feeds/search", "/search",
	        title, false, resp);
}

/* A feed over one filter (site= or tag=) named by the path: the other
 * arguments kept, as on the tag page. */
static void feed_filtered(const struct heed__serve_request *req,
                          const char *arg, const char *value,
                          const char *feed_prefix, const char *page_prefix,
                          const char *what, struct heed__serve_response *resp)
{
	struct heed__serve_args args = {0};
	struct heed_buf self, page;
	char title[320];
	size_t i;

	for (i = 0; req->args && i < req->args->count &&
	            args.count < HEED__SERVE_MAX_ARGS - 1;
	     i++)
		if (strcmp(req->args->arg[i].name, arg) != 0)
			args.arg[args.count++] = req->args->arg[i];
	args.arg[args.count].name = arg;
	args.arg[args.count++].value = value;
	heed__buf_init(&self, req->ctx->alloc, 4096);
	heed__buf_init(&page, req->ctx->alloc, 4096);
	if (heed__buf_add(&self, feed_prefix, strlen(feed_prefix)) != HEED_OK ||
	    heed__url_encode(&self, value, strlen(value)) != HEED_OK ||
	    heed__buf_add(&page, page_prefix, strlen(page_prefix)) != HEED_OK ||
	    heed__url_encode(&page, value, strlen(value)) != HEED_OK) {
		heed__serve_error(req, 404, "There is no such feed.",
		                  "no such feed", resp);
	} else {
		snprintf(title, sizeof(title), "%s %.256s", what, value);
		feed_of(req, &args, heed__buf_str(&self), heed__buf_str(&page),
		        title, strcmp(arg, "tag") == 0, resp);
	}
	heed__buf_free(&self);
	heed__buf_free(&page);
}

void heed__feed_site(const struct heed__serve_request *req, const char *rest,
                     struct heed__serve_response *resp)
{
	feed_filtered(req, "site", rest, "/feeds/sites/", "/sites/", "Site",
	              resp);
}

void heed__feed_tag(const struct heed__serve_request *req, const char *rest,
                    struct heed__serve_response *resp)
{
	feed_filtered(req, "tag", rest, "/feeds/tags/", "/tags/", "Tag", resp);
}

void heed__opensearch(const struct heed__serve_request *req,
                      struct heed__serve_response *resp)
{
	struct heed_buf *b = &resp->body;
	heed_status rc = HEED_OK;

	put(b,
	    "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
	    "<OpenSearchDescription "
	    "xmlns=\"http://a9.com/-/spec/opensearch/1.1/\">\n"
	    "<ShortName>heed index</ShortName>\n"
	    "<Description>Titles, descriptions and tags of the pages heed "
	    "read, as their sites permitted.</Description>\n"
	    "<InputEncoding>UTF-8</InputEncoding>\n"
	    "<Url type=\"text/html\" method=\"get\" template=\"",
	    &rc);
	put_base(b, req, &rc);
	put(b,
	    "/search?q={searchTerms}\"/>\n<Url type=\"application/atom+xml\" "
	    "method=\"get\" template=\"",
	    &rc);
	put_base(b, req, &rc);
	put(b,
	    "/feeds/search?q={searchTerms}\"/>\n<Url "
	    "type=\"application/opensearchdescription+xml\" rel=\"self\" "
	    "template=\"",
	    &rc);
	put_base(b, req, &rc);
	put(b, "/opensearch.xml\"/>\n</OpenSearchDescription>\n", &rc);
	if (rc != HEED_OK) {
		heed__serve_error(req, 500, "Out of memory.", "out of memory",
		                  resp);
		return;
	}
	resp->status = 200;
	resp->content_type = OPENSEARCH_TYPE;
	resp->cache = true;
}
