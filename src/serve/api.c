/*
 * The JSON API of the public index, /api/v1/ (docs/serve.md, "API"): the
 * mirror of every HTML page, for programs. Lists are {"items": [...],
 * "next_cursor": text | null, ...}; errors {"error": {"status": N,
 * "message": "..."}}. A record item uses the names and date format of
 * `heed export` (record.c writes both), with what the site withheld left
 * out (permit.c).
 *
 * Responses are json-c trees printed once at the end: every string from a
 * crawled page or an IRC server goes through heed__utf8_clean first
 * (record.c), and json-c escapes quotes, backslashes and controls, so no
 * value can end its string early. Lists that can grow long take a cursor
 * and a limit; the ones the store cannot resume (tags) take an offset
 * with a ceiling.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "heed/irc.h"
#include "heed/robots.h"
#include "heed/store_irc.h"
#include "heed/store_sites.h"
#include "heed/verify.h"
#include "serve/api-int.h"

#define JSON_TYPE "application/json; charset=utf-8"

/* Counts above these are shown as "at least": counting further costs
 * more than a reader learns from it. */
#define COUNT_CAP    HEED__SERVE_COUNT_CAP
#define HOME_ITEMS   10    /* recent and popular on the home answer */
#define SITE_DAYS    30    /* the pages-per-day chart of a site */
#define SITE_TAGS    20    /* top tags of a site */
#define TAGS_MAX     10000 /* deepest offset into the tag list */
#define SERVERS_MAX  1000  /* servers shown for one IRC network */
#define HOST_KEY_MAX 300   /* longest host key or IRC key taken */
#define LIMIT_MAX    100   /* rows per page, as heed__serve_parse_search */

/* ---- the response ----------------------------------------------------- */

void heed__api_ready(const struct heed__serve_request *req,
                     struct heed__serve_response *resp)
{
	if (!resp->body.alloc)
		heed__buf_init(&resp->body,
		               req->ctx && req->ctx->alloc
		                       ? req->ctx->alloc
		                       : heed_allocator_default(),
		               HEED__SERVE_MAX_BODY);
	heed__buf_reset(&resp->body);
	resp->content_type = JSON_TYPE;
	resp->kind = HEED__ROUTE_API;
	resp->cache = false;
}

/* Prints o into resp's body with status, and frees o. */
static heed_status put_json(const struct heed__serve_request *req,
                            struct heed__serve_response *resp, int status,
                            json_object *o)
{
	const char *text;
	size_t n = 0;
	heed_status rc = HEED_ENOMEM;

	heed__api_ready(req, resp);
	resp->status = status;
	text = o ? json_object_to_json_string_length(o, HEED__JSON_FLAGS, &n)
	         : NULL;
	if (text) {
		rc = heed__buf_reserve(&resp->body, n + 1);
		if (rc == HEED_OK)
			rc = heed__buf_add(&resp->body, text, n);
		if (rc == HEED_OK)
			rc = heed__buf_addc(&resp->body, '\n');
	}
	json_object_put(o);
	return rc;
}

void heed__api_error(const struct heed__serve_request *req, int status,
                     const char *message, struct heed__serve_response *resp)
{
	json_object *o = json_object_new_object(),
	            *e = json_object_new_object();

	json_object_object_add(e, "status", json_object_new_int(status));
	json_object_object_add(e, "message", heed__record_str(message));
	json_object_object_add(o, "error", e);
	if (put_json(req, resp, status, o) != HEED_OK) {
		/* Nothing smaller can be said: a fixed text always fits. */
		static const char oom[] =
		        "{\"error\":{\"status\":500,\"message\":\"out of "
		        "memory\"}}\n";
		heed__buf_reset(&resp->body);
		resp->status = 500;
		heed__buf_add(&resp->body, oom, sizeof(oom) - 1);
	}
}

/* Sends o (freed here), or a 500 when it does not fit. */
static void respond(const struct heed__serve_request *req,
                    struct heed__serve_response *resp, json_object *o)
{
	heed_status rc = put_json(req, resp, 200, o);

	if (rc == HEED_ETOOBIG)
		heed__api_error(req, 500, "page too large", resp);
	else if (rc != HEED_OK)
		heed__api_error(req, 500, "out of memory", resp);
}

/* The answer to a failed call: what the reader can fix is a 400 with
 * the reason, a missing thing a 404, the rest a 500 that names no
 * internals. */
static void fail(const struct heed__serve_request *req,
                 struct heed__serve_response *resp, heed_status rc,
                 const struct heed_diag *diag)
{
	const char *why = diag && diag->message[0] ? diag->message : NULL;

	switch (rc) {
	case HEED_EINVAL:
	case HEED_ETOOBIG:
		heed__api_error(req, 400, why ? why : "bad request", resp);
		break;
	case HEED_ENOTFOUND:
		heed__api_error(req, 404, "not found", resp);
		break;
	case HEED_ENOMEM:
		heed__api_error(req, 500, "out of memory", resp);
		break;
	default:
		heed__api_error(req, 500, "the store could not answer", resp);
	}
}

/* ---- small pieces ----------------------------------------------------- */

static const char *base_of(const struct heed__serve_request *req)
{
	return req->ctx && req->ctx->base_url ? req->ctx->base_url : "";
}

/* BASE + prefix + segment (percent-encoded; may be NULL) + suffix. */
static json_object *link_to(const struct heed__serve_request *req,
                            const char *prefix, const char *segment,
                            const char *suffix)
{
	struct heed_buf b;
	heed_status rc;
	json_object *o = NULL;

	heed__buf_init(&b, heed_allocator_default(), 8192);
	rc = heed__buf_addf(&b, "%s%s", base_of(req), prefix);
	if (rc == HEED_OK && segment)
		rc = heed__url_encode(&b, segment, strlen(segment));
	if (rc == HEED_OK && suffix)
		rc = heed__buf_addf(&b, "%s", suffix);
	if (rc == HEED_OK)
		o = json_object_new_string_len(heed__buf_str(&b), (int)b.len);
	heed__buf_free(&b);
	return o;
}

/* {"self": /api/v1/PREFIX/SEG, "html": /PREFIX/SEG} */
static json_object *links_pair(const struct heed__serve_request *req,
                               const char *html_prefix, const char *segment)
{
	json_object *o = json_object_new_object();
	char api[64];

	snprintf(api, sizeof(api), "/api/v1%s", html_prefix);
	json_object_object_add(o, "self", link_to(req, api, segment, NULL));
	json_object_object_add(o, "html",
	                       link_to(req, html_prefix, segment, NULL));
	return o;
}

static json_object *int_or_null(int64_t v)
{
	return v < 0 ? NULL : json_object_new_int64(v);
}

static json_object *count_object(int64_t value, int64_t cap)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "value", json_object_new_int64(value));
	json_object_object_add(o, "capped",
	                       json_object_new_boolean(value >= cap));
	return o;
}

/* limit: 1 to max, default def; -1 for anything else. */
static int read_limit(const struct heed__serve_args *args, int def, int max)
{
	const char *s = heed__serve_arg(args, "limit");
	char *end;
	long v;

	if (!s)
		return def < 1 ? 1 : def > max ? max : def;
	if (*s < '0' || *s > '9')
		return -1;
	v = strtol(s, &end, 10);
	return *end || v < 1 || v > max ? -1 : (int)v;
}

static bool bad_limit(const struct heed__serve_request *req,
                      struct heed__serve_response *resp, int limit)
{
	if (limit > 0)
		return false;
	heed__api_error(req, 400, "limit must be a number from 1 to 100", resp);
	return true;
}

static int page_size(const struct heed__serve_request *req)
{
	return req->ctx && req->ctx->page_size > 0 ? req->ctx->page_size : 20;
}

/* A path segment the API takes (a host key, a tag, an IRC key): not
 * empty, not too long. */
static bool bad_segment(const struct heed__serve_request *req,
                        struct heed__serve_response *resp, const char *rest)
{
	if (rest && *rest && strlen(rest) <= HOST_KEY_MAX)
		return false;
	heed__api_error(req, 404, "not found", resp);
	return true;
}

/* ---- record items ----------------------------------------------------- */

/* The values of a list field of the record ("tags", "authors": each
 * {value, source}, or a bare string in older records) as strings. */
static json_object *value_strings(json_object *record, const char *key)
{
	json_object *out = json_object_new_array(), *tags;
	size_t i, n;

	if (!record || !json_object_is_type(record, json_type_object) ||
	    !json_object_object_get_ex(record, key, &tags) ||
	    !json_object_is_type(tags, json_type_array))
		return out;
	n = json_object_array_length(tags);
	for (i = 0; i < n; i++) {
		json_object *t = json_object_array_get_idx(tags, i);
		if (json_object_is_type(t, json_type_object))
			json_object_object_get_ex(t, "value", &t);
		if (json_object_is_type(t, json_type_string))
			json_object_array_add(
			        out, json_object_new_string(
			                     json_object_get_string(t)));
	}
	return out;
}

static void add_field(json_object *o, json_object *record, const char *key)
{
	const char *v = heed_record_field(record, key);

	json_object_object_add(o, key, v ? json_object_new_string(v) : NULL);
}

/*
 * One page as the API lists it (docs/serve.md, "A record item"). With
 * full set (the record route), "record" and "permissions" are added: the
 * record with what was withheld removed, as in the item.
 */
static json_object *item_object(const struct heed__serve_request *req,
                                int64_t id, const struct heed_stored_page *p,
                                bool full)
{
	json_object *o = json_object_new_object(), *record;
	struct heed__serve_permit pm;
	unsigned withheld;
	char num[24];

	json_object_object_add(o, "id", json_object_new_int64(id));
	heed__record_columns(o, p);
	heed__serve_permit(p->permissions, req->now_s, &pm);
	record = heed__record_column(p->record);
	if (record && !json_object_is_type(record, json_type_object)) {
		json_object_put(record); /* no record: nothing to show */
		record = NULL;
	}
	withheld = heed__record_apply(record, &pm);
	add_field(o, record, "language");
	add_field(o, record, "description");
	if (withheld & (HEED__WITHHELD_DESCRIPTION | HEED__WITHHELD_CUT))
		json_object_object_add(
		        o, "description_withheld",
		        json_object_new_string(pm.why[0] ? pm.why
		                                         : "the site's "
		                                           "permissions"));
	json_object_object_add(o, "tags", value_strings(record, "tags"));
	add_field(o, record, "site_name");
	add_field(o, record, "author");
	/* author joins them; authors keeps several several. */
	json_object_object_add(o, "authors", value_strings(record, "authors"));
	add_field(o, record, "publisher");
	add_field(o, record, "thumbnail");
	if (withheld & HEED__WITHHELD_THUMBNAIL)
		json_object_object_add(
		        o, "thumbnail_withheld",
		        json_object_new_string(pm.why[0]
		                                       ? pm.why
		                                       : "ACAP "
		                                         "present-thumbnail"));
	snprintf(num, sizeof(num), "%lld", (long long)id);
	json_object_object_add(o, "links", links_pair(req, "/records/", num));
	if (full) {
		json_object_object_add(o, "record", record);
		json_object_object_add(o, "permissions",
		                       heed__record_column(p->permissions));
	} else {
		json_object_put(record);
	}
	return o;
}

/* ---- search ----------------------------------------------------------- */

struct hits {
	const struct heed__serve_request *req;
	json_object *items;
	struct heed_search_cursor last;
	int n;
	bool full;
};

static int on_hit(void *ud, const struct heed_search_hit *h)
{
	struct hits *x = ud;

	json_object_array_add(x->items,
	                      item_object(x->req, h->id, &h->page, x->full));
	x->last = h->cursor;
	x->n++;
	return 0;
}

static const char *sort_name(heed_search_sort sort)
{
	switch (sort) {
	case HEED_SEARCH_SORT_RELEVANCE:
		return "relevance";
	case HEED_SEARCH_SORT_VIEWS:
		return "views";
	case HEED_SEARCH_SORT_DATE:
		return "date";
	case HEED_SEARCH_SORT_FETCHED:
		return "fetched";
	}
	return "relevance";
}

/* What the search understood, so a program can tell how it was read. */
static json_object *query_echo(const struct heed__serve_args *args,
                               const struct heed_search_query *q,
                               const char *fts)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "q",
	                       heed__record_str(heed__serve_arg(args, "q")));
	json_object_object_add(o, "match", heed__record_str(fts));
	json_object_object_add(o, "site", heed__record_str(q->host));
	json_object_object_add(o, "tag", heed__record_str(q->tag));
	json_object_object_add(o, "lang", heed__record_str(q->language));
	json_object_object_add(o, "from",
	                       heed__record_date(q->published_from_s));
	json_object_object_add(o, "to", heed__record_date(q->published_to_s));
	json_object_object_add(o, "min_views", int_or_null(q->min_views));
	json_object_object_add(o, "max_views", int_or_null(q->max_views));
	json_object_object_add(o, "sort",
	                       json_object_new_string(sort_name(q->sort)));
	json_object_object_add(
	        o, "cursor", heed__record_str(heed__serve_arg(args, "cursor")));
	json_object_object_add(o, "limit", json_object_new_int(q->limit));
	return o;
}

/* Runs q and adds items, next_cursor and count to o. */
static heed_status run_search(const struct heed__serve_request *req,
                              const struct heed_search_query *q, json_object *o,
                              struct heed_diag *diag)
{
	struct hits x = {req, json_object_new_array(), {0}, 0, false};
	char cursor[HEED__SERVE_CURSOR_SIZE];
	int64_t count = 0;
	bool more = false;
	heed_status rc;

	rc = heed_store_search(req->store, q, on_hit, &x, &more, diag);
	if (rc == HEED_OK)
		rc = heed_store_search_count(req->store, q, COUNT_CAP, &count,
		                             diag);
	json_object_object_add(o, "items", x.items);
	if (more && x.n > 0) {
		heed__serve_cursor_format(q->sort, &x.last, cursor);
		json_object_object_add(o, "next_cursor",
		                       json_object_new_string(cursor));
	} else {
		json_object_object_add(o, "next_cursor", NULL);
	}
	json_object_object_add(o, "count", count_object(count, COUNT_CAP));
	return rc;
}

/* The search answer for args; tag names the /tags/TAG route's tag. */
/* Whether q's tag names any shown page; answers 404 (or the store's
 * error) when it does not. */
static bool tag_known(const struct heed__serve_request *req,
                      const struct heed_search_query *q,
                      struct heed__serve_response *resp)
{
	bool known = false;
	heed_status rc =
	        heed__serve_tag_known(req->store, q->tag, req->now_s, &known);

	if (rc != HEED_OK)
		fail(req, resp, rc, NULL);
	else if (!known)
		heed__api_error(req, 404, "no such tag", resp);
	return rc == HEED_OK && known;
}

static void search_with(const struct heed__serve_request *req,
                        const struct heed__serve_args *args, const char *tag,
                        struct heed__serve_response *resp)
{
	const struct heed_allocator *a = req->ctx && req->ctx->alloc
	                                         ? req->ctx->alloc
	                                         : heed_allocator_default();
	struct heed_diag diag = {0};
	struct heed_search_query q;
	json_object *o;
	char *fts = NULL;
	heed_status rc;

	memset(&q, 0, sizeof(q));
	rc = heed__serve_parse_search(a, args, page_size(req), req->now_s, &q,
	                              &fts, &diag);
	if (rc != HEED_OK) {
		heed__free(a, fts);
		fail(req, resp, rc, &diag);
		return;
	}
	if (tag && !tag_known(req, &q, resp)) {
		heed__free(a, fts);
		return;
	}
	o = json_object_new_object();
	if (tag)
		json_object_object_add(o, "tag", heed__record_str(tag));
	rc = run_search(req, &q, o, &diag);
	json_object_object_add(o, "query", query_echo(args, &q, fts));
	heed__free(a, fts);
	if (rc != HEED_OK) {
		json_object_put(o);
		fail(req, resp, rc, &diag);
		return;
	}
	respond(req, resp, o);
}

void heed__api_search(const struct heed__serve_request *req,
                      struct heed__serve_response *resp)
{
	static const struct heed__serve_args none = {0};

	search_with(req, req->args ? req->args : &none, NULL, resp);
}

void heed__api_tag(const struct heed__serve_request *req, const char *rest,
                   struct heed__serve_response *resp)
{
	struct heed__serve_args args = {0};
	size_t i;

	if (bad_segment(req, resp, rest))
		return;
	/* The path's tag replaces any tag= argument. */
	for (i = 0; req->args && i < req->args->count; i++) {
		if (strcmp(req->args->arg[i].name, "tag") == 0)
			continue;
		args.arg[args.count++] = req->args->arg[i];
	}
	if (args.count >= HEED__SERVE_MAX_ARGS) {
		heed__api_error(req, 400, "too many arguments", resp);
		return;
	}
	args.arg[args.count].name = "tag";
	args.arg[args.count++].value = rest;
	search_with(req, &args, rest, resp);
}

/* ---- one record ------------------------------------------------------- */

static int on_record(void *ud, const struct heed_search_hit *h)
{
	struct hits *x = ud;

	x->items = item_object(x->req, h->id, &h->page, true);
	x->n++;
	return 1;
}

void heed__api_record(const struct heed__serve_request *req, const char *rest,
                      struct heed__serve_response *resp)
{
	struct hits x = {req, NULL, {0}, 0, true};
	heed_status rc;
	int64_t id;

	if (!heed__serve_record_id(rest, &id)) {
		heed__api_error(req, 404, "no such record", resp);
		return;
	}
	rc = heed_store_search_page(req->store, id, req->now_s, on_record, &x);
	if (rc == HEED_ENOTFOUND || (rc == HEED_OK && !x.items)) {
		json_object_put(x.items);
		heed__api_error(req, 404, "no such record", resp);
		return;
	}
	if (rc != HEED_OK) {
		json_object_put(x.items);
		fail(req, resp, rc, NULL);
		return;
	}
	respond(req, resp, x.items);
}

/* ---- home ------------------------------------------------------------- */

/* A query for every shown page, in sort order, limit at a time. */
static void query_all(struct heed_search_query *q, int64_t now_s,
                      heed_search_sort sort, int limit)
{
	memset(q, 0, sizeof(*q));
	q->published_from_s = HEED_STORE_NO_DATE;
	q->published_to_s = HEED_STORE_NO_DATE;
	q->min_views = -1;
	q->max_views = -1;
	q->sort = sort;
	q->limit = limit;
	q->now_s = now_s;
}

/* Items of the limit first pages in sort order. */
static heed_status list_pages(const struct heed__serve_request *req,
                              const char *host, heed_search_sort sort,
                              int limit, json_object **out)
{
	struct hits x = {req, json_object_new_array(), {0}, 0, false};
	struct heed_search_query q;
	heed_status rc;

	query_all(&q, req->now_s, sort, limit);
	q.host = host;
	rc = heed_store_search(req->store, &q, on_hit, &x, NULL, NULL);
	*out = x.items;
	return rc;
}

void heed__api_home(const struct heed__serve_request *req,
                    struct heed__serve_response *resp)
{
	static const char *const home_links[] = {"search", "sites", "tags",
	                                         "irc",    "bots",  "openapi"};
	json_object *o = json_object_new_object(), *counts, *list, *links;
	struct heed__serve_counts c;
	heed_status rc;

	/* The same numbers as the HTML home (counts.c). */
	rc = heed__serve_counts(req->store, req->now_s, &c);
	counts = json_object_new_object();
	json_object_object_add(counts, "pages",
	                       count_object(c.pages, COUNT_CAP));
	json_object_object_add(counts, "sites",
	                       count_object(c.sites, COUNT_CAP));
	json_object_object_add(counts, "tags", count_object(c.tags, COUNT_CAP));
	json_object_object_add(counts, "irc_networks",
	                       json_object_new_int64(c.networks));
	json_object_object_add(o, "counts", counts);
	if (rc == HEED_OK) {
		rc = list_pages(req, NULL, HEED_SEARCH_SORT_FETCHED, HOME_ITEMS,
		                &list);
		json_object_object_add(o, "recent", list);
	}
	if (rc == HEED_OK) {
		rc = list_pages(req, NULL, HEED_SEARCH_SORT_VIEWS, HOME_ITEMS,
		                &list);
		json_object_object_add(o, "popular", list);
	}
	links = json_object_new_object();
	for (size_t i = 0; i < HEED_ARRAY_SIZE(home_links); i++)
		json_object_object_add(
		        links, home_links[i],
		        link_to(req, "/api/v1/", home_links[i],
		                strcmp(home_links[i], "openapi") == 0 ? ".json"
		                                                      : NULL));
	json_object_object_add(o, "links", links);
	if (rc != HEED_OK) {
		json_object_put(o);
		fail(req, resp, rc, NULL);
		return;
	}
	respond(req, resp, o);
}

/* ---- sites ------------------------------------------------------------ */

static json_object *site_object(const struct heed__serve_request *req,
                                const struct heed_search_site *s)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "host", heed__record_str(s->host));
	json_object_object_add(o, "site_name", heed__record_str(s->site_name));
	json_object_object_add(o, "pages", json_object_new_int64(s->pages));
	json_object_object_add(o, "last_fetched",
	                       heed__record_date(s->last_fetched));
	json_object_object_add(o, "links", links_pair(req, "/sites/", s->host));
	return o;
}

struct site_list {
	const struct heed__serve_request *req;
	json_object *items;
	int n;
	const char *only; /* a single host key wanted, or NULL */
};

static int on_site(void *ud, const struct heed_search_site *s)
{
	struct site_list *x = ud;

	if (x->only && strcmp(s->host, x->only) != 0)
		return 1;
	json_object_array_add(x->items, site_object(x->req, s));
	x->n++;
	return 0;
}

void heed__api_sites(const struct heed__serve_request *req,
                     struct heed__serve_response *resp)
{
	struct site_list x = {req, json_object_new_array(), 0, NULL};
	const char *cursor = heed__serve_arg(req->args, "cursor");
	int limit = read_limit(req->args, page_size(req), LIMIT_MAX);
	json_object *o, *last;
	heed_status rc;

	if (bad_limit(req, resp, limit)) {
		json_object_put(x.items);
		return;
	}
	/* One row more than shown says whether a next page exists. */
	rc = heed_store_search_sites(req->store,
	                             cursor && *cursor ? cursor : NULL,
	                             limit + 1, req->now_s, on_site, &x);
	if (rc != HEED_OK) {
		json_object_put(x.items);
		fail(req, resp, rc, NULL);
		return;
	}
	o = json_object_new_object();
	if (x.n > limit) {
		json_object_array_del_idx(x.items, (size_t)limit, 1);
		json_object_object_get_ex(
		        json_object_array_get_idx(x.items, (size_t)limit - 1),
		        "host", &last);
		json_object_object_add(o, "next_cursor", json_object_get(last));
	} else {
		json_object_object_add(o, "next_cursor", NULL);
	}
	json_object_object_add(o, "items", x.items);
	respond(req, resp, o);
}

/* ---- one site --------------------------------------------------------- */

/* The host name of a host key: "example.org:8080" -> "example.org",
 * "[::1]:8080" -> "::1", as the sites table keeps it beside the origin. */
static void host_name(const char *key, char *out, size_t size)
{
	size_t n;

	if (key[0] == '[') {
		key++;
		n = strcspn(key, "]");
	} else {
		n = strcspn(key, ":");
	}
	if (n >= size)
		n = size - 1;
	memcpy(out, key, n);
	out[n] = '\0';
}

struct robots_ctx {
	const struct heed__serve_request *req;
	const char *key; /* the host key: origins http://KEY and https://KEY */
	const char *ua;
	json_object *list;
};

static json_object *rules_of(const struct heed_store_site *s, const char *ua)
{
	heed_robots *robots = NULL;
	heed_robots_agent *agent = NULL;
	json_object *rules;
	size_t i;

	if (!s->rules_body)
		return NULL;
	if (heed_robots_parse(&robots, NULL, s->rules_body, s->rules_body_len,
	                      NULL) != HEED_OK ||
	    heed_robots_agent_new(&agent, robots, ua, strlen(ua)) != HEED_OK) {
		heed_robots_free(robots);
		return NULL;
	}
	rules = json_object_new_array();
	for (i = 0; i < heed_robots_agent_rule_count(agent); i++) {
		const struct heed_robots_rule *r =
		        heed_robots_agent_rule(agent, i);
		json_object *j = json_object_new_object();
		json_object_object_add(
		        j, "kind",
		        json_object_new_string(
		                heed_robots_rule_kind_name(r->kind)));
		json_object_object_add(
		        j, "value", heed__record_text(r->value, r->value_len));
		json_object_object_add(j, "line",
		                       json_object_new_int((int)r->line));
		json_object_array_add(rules, j);
	}
	heed_robots_agent_free(agent);
	heed_robots_free(robots);
	return rules;
}

/* Unix s as a date, 0 as null (the sites table's "never"). */
static json_object *date_or_never(int64_t t)
{
	return t ? heed__record_date(t) : NULL;
}

/* One origin of the site, in the names `heed site report --json` uses. */
static void on_origin(void *ud, const struct heed_store_site *s)
{
	struct robots_ctx *c = ud;
	const struct heed_site_record *r = &s->record;
	const char *authority = strstr(s->site, "://");
	json_object *o;

	if (!authority || strcmp(authority + 3, c->key) != 0)
		return;
	o = json_object_new_object();
	json_object_object_add(o, "site", heed__record_str(s->site));
	json_object_object_add(
	        o, "state",
	        json_object_new_string(heed_site_state_name(r->state)));
	json_object_object_add(
	        o, "reason",
	        json_object_new_string(heed_site_reason_name(r->reason)));
	json_object_object_add(o, "detail", heed__record_str(r->detail));
	json_object_object_add(o, "http_status",
	                       json_object_new_int(r->http_status));
	json_object_object_add(o, "last_attempt",
	                       date_or_never(r->robots_date_s));
	json_object_object_add(o, "next_attempt",
	                       r->state == HEED_SITE_DISQUALIFIED_RESET
	                               ? NULL
	                               : date_or_never(r->next_attempt_s));
	json_object_object_add(o, "last_success",
	                       date_or_never(r->last_success_s));
	json_object_object_add(o, "failures",
	                       json_object_new_int64(r->failures));
	json_object_object_add(o, "robots_url",
	                       heed__record_str(s->robots_url));
	json_object_object_add(o, "crawl_delay_ms",
	                       json_object_new_int64(s->crawl_delay_ms));
	json_object_object_add(o, "rules", rules_of(s, c->ua));
	json_object_array_add(c->list, o);
}

static heed_status site_robots(const struct heed__serve_request *req,
                               const char *key, json_object **out)
{
	char name[HOST_KEY_MAX + 1], ua[512] = "heed";
	struct robots_ctx c = {req, key, ua, json_object_new_array()};
	heed_status rc;

	if (req->ctx && req->ctx->config)
		heed_config_user_agent(req->ctx->config, ua, sizeof(ua));
	host_name(key, name, sizeof(name));
	rc = heed_store_site_each(req->store, name, on_origin, &c, NULL);
	*out = c.list;
	return rc;
}

static const char *product_token(const struct heed__serve_request *req)
{
	const struct heed_config *cfg = req->ctx ? req->ctx->config : NULL;

	return cfg && cfg->product_token ? cfg->product_token : "heed";
}

/* How a site keeps heed out, or keeps its snippets out of the index. */
static json_object *optout_object(const struct heed__serve_request *req)
{
	json_object *o = json_object_new_object();
	char text[400];
	const char *token = product_token(req);

	snprintf(text, sizeof(text), "User-agent: %s\nDisallow: /\n", token);
	json_object_object_add(o, "robots_txt", heed__record_str(text));
	snprintf(text, sizeof(text),
	         "ACAP-crawler: %s\nACAP-disallow-crawl: /\n", token);
	json_object_object_add(o, "acap", heed__record_str(text));
	json_object_object_add(
	        o, "meta_robots",
	        json_object_new_string(
	                "<meta name=\"robots\" content=\"noindex\">"));
	json_object_object_add(
	        o, "nosnippet",
	        json_object_new_string("<meta name=\"robots\" "
	                               "content=\"nosnippet\">"));
	json_object_object_add(o, "x_robots_tag",
	                       json_object_new_string("X-Robots-Tag: noindex"));
	return o;
}

static int on_day(void *ud, const struct heed_search_bucket *b)
{
	json_object *o = json_object_new_object();
	char day[16];
	time_t t = (time_t)b->from;
	struct tm tm;

	if (!gmtime_r(&t, &tm) || !strftime(day, sizeof(day), "%Y-%m-%d", &tm))
		snprintf(day, sizeof(day), "@%lld", (long long)b->from);
	json_object_object_add(o, "day", json_object_new_string(day));
	json_object_object_add(o, "pages", json_object_new_int64(b->pages));
	json_object_array_add(ud, o);
	return 0;
}

static int on_views(void *ud, const struct heed_search_bucket *b)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "from", json_object_new_int64(b->from));
	json_object_object_add(o, "to", json_object_new_int64(b->to));
	json_object_object_add(o, "pages", json_object_new_int64(b->pages));
	json_object_array_add(ud, o);
	return 0;
}

struct tag_list {
	const struct heed__serve_request *req;
	json_object *items;
	int64_t skip; /* rows before the page */
	int64_t n;    /* rows seen */
};

static int on_tag(void *ud, const struct heed_search_tag *t)
{
	struct tag_list *x = ud;
	json_object *o;

	if (x->n++ < x->skip)
		return 0;
	o = json_object_new_object();
	json_object_object_add(o, "tag", heed__record_str(t->tag));
	json_object_object_add(o, "pages", json_object_new_int64(t->pages));
	json_object_object_add(o, "links",
	                       links_pair(x->req, "/tags/", t->tag));
	json_object_array_add(x->items, o);
	return 0;
}

/* The charts, top tags and recent pages of a site, added to o. */
static heed_status site_details(const struct heed__serve_request *req,
                                const char *key, json_object *o)
{
	struct tag_list tags = {req, json_object_new_array(), 0, 0};
	json_object *days = json_object_new_array();
	json_object *views = json_object_new_array(), *recent = NULL;
	heed_status rc;

	rc = heed_store_search_per_day(req->store, key, SITE_DAYS, req->now_s,
	                               on_day, days);
	json_object_object_add(o, "per_day", days);
	if (rc == HEED_OK)
		rc = heed_store_search_views(req->store, key, req->now_s,
		                             on_views, views);
	json_object_object_add(o, "views", views);
	if (rc == HEED_OK)
		rc = heed_store_search_tags(req->store, key, SITE_TAGS,
		                            req->now_s, on_tag, &tags);
	json_object_object_add(o, "top_tags", tags.items);
	if (rc == HEED_OK)
		rc = list_pages(req, key, HEED_SEARCH_SORT_FETCHED, HOME_ITEMS,
		                &recent);
	json_object_object_add(o, "recent", recent);
	return rc;
}

/* The site row of host key key: heed_store_search_sites resumes after a
 * key, so it is asked from the largest string below key (key's last
 * byte one less, then 0xFF: no host key, which is ASCII, lies between). */
static heed_status find_site(const struct heed__serve_request *req,
                             const char *key, struct site_list *x)
{
	char before[HOST_KEY_MAX + 2];
	size_t n = strlen(key);

	memcpy(before, key, n + 1);
	if ((unsigned char)before[n - 1] <= 1)
		return HEED_ENOTFOUND;
	before[n - 1]--;
	before[n] = (char)0xFF;
	before[n + 1] = '\0';
	x->only = key;
	return heed_store_search_sites(req->store, before, 1, req->now_s,
	                               on_site, x);
}

void heed__api_site(const struct heed__serve_request *req, const char *rest,
                    struct heed__serve_response *resp)
{
	struct site_list x = {req, json_object_new_array(), 0, NULL};
	json_object *o, *robots = NULL;
	heed_status rc;

	if (bad_segment(req, resp, rest)) {
		json_object_put(x.items);
		return;
	}
	rc = find_site(req, rest, &x);
	if (rc == HEED_OK && x.n == 0)
		rc = HEED_ENOTFOUND;
	if (rc != HEED_OK) {
		json_object_put(x.items);
		if (rc == HEED_ENOTFOUND)
			heed__api_error(req, 404, "no such site in the index",
			                resp);
		else
			fail(req, resp, rc, NULL);
		return;
	}
	o = json_object_get(json_object_array_get_idx(x.items, 0));
	json_object_put(x.items);
	json_object_object_add(
	        json_object_object_get(o, "links"), "pages",
	        link_to(req, "/api/v1/search?site=", rest, NULL));
	rc = site_robots(req, rest, &robots);
	json_object_object_add(o, "robots", robots);
	json_object_object_add(o, "optout", optout_object(req));
	if (rc == HEED_OK)
		rc = site_details(req, rest, o);
	if (rc != HEED_OK) {
		json_object_put(o);
		fail(req, resp, rc, NULL);
		return;
	}
	respond(req, resp, o);
}

/* ---- tags ------------------------------------------------------------- */

/* An offset cursor ("" or digits, at most TAGS_MAX); -1 when bad. */
static int64_t read_offset(const char *s)
{
	char *end;
	long long v;

	if (!s || !*s)
		return 0;
	if (*s < '0' || *s > '9' || strlen(s) > 6)
		return -1;
	v = strtoll(s, &end, 10);
	return *end || v > TAGS_MAX ? -1 : v;
}

void heed__api_tags(const struct heed__serve_request *req,
                    struct heed__serve_response *resp)
{
	struct tag_list x = {req, NULL, 0, 0};
	int limit = read_limit(req->args, 100, LIMIT_MAX);
	json_object *o;
	heed_status rc;
	char next[24];

	if (bad_limit(req, resp, limit))
		return;
	x.skip = read_offset(heed__serve_arg(req->args, "cursor"));
	if (x.skip < 0) {
		heed__api_error(req, 400,
		                "cursor must be a number from 0 to 10000",
		                resp);
		return;
	}
	/* The store gives the top N: the page is rows skip .. skip+limit,
	 * and one more says a next page exists. */
	x.items = json_object_new_array();
	rc = heed_store_search_tags(req->store, NULL, (int)(x.skip + limit + 1),
	                            req->now_s, on_tag, &x);
	if (rc != HEED_OK) {
		json_object_put(x.items);
		fail(req, resp, rc, NULL);
		return;
	}
	o = json_object_new_object();
	if (x.n > x.skip + limit && x.skip + limit <= TAGS_MAX) {
		json_object_array_del_idx(x.items, (size_t)limit, 1);
		snprintf(next, sizeof(next), "%lld",
		         (long long)(x.skip + limit));
		json_object_object_add(o, "next_cursor",
		                       json_object_new_string(next));
	} else {
		if (x.n > x.skip + limit)
			json_object_array_del_idx(x.items, (size_t)limit, 1);
		json_object_object_add(o, "next_cursor", NULL);
	}
	json_object_object_add(o, "items", x.items);
	respond(req, resp, o);
}

/* ---- IRC -------------------------------------------------------------- */

/* A network in the names of `heed export --irc`. */
static json_object *network_object(const struct heed__serve_request *req,
                                   const struct heed_store_irc_network_row *r)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "network", heed__record_str(r->key));
	json_object_object_add(o, "name", heed__record_str(r->name));
	json_object_object_add(o, "crawler", heed__record_str(r->verdict));
	json_object_object_add(o, "cooldown", int_or_null(r->cooldown_s));
	json_object_object_add(o, "last_status",
	                       heed__record_str(r->last_status));
	json_object_object_add(o, "last_visit",
	                       int_or_null(r->last_visit_end_s));
	json_object_object_add(o, "next_visit", int_or_null(r->next_visit_s));
	json_object_object_add(o, "first_seen", int_or_null(r->first_seen_s));
	json_object_object_add(o, "users", int_or_null(r->users));
	json_object_object_add(o, "servers", int_or_null(r->servers));
	json_object_object_add(o, "channels", int_or_null(r->channels));
	json_object_object_add(o, "links", links_pair(req, "/irc/", r->key));
	return o;
}

/*
 * The items of an IRC list, gathered whole and sorted in one of the orders
 * of irc_sort.c (as the pages sort them), then cut after the cursor: a
 * network has at most tens of thousands of channels, and every order but
 * the name needs them all before the first can be given.
 */
struct sorted {
	const struct heed__irc_sort *key;
	const char *name_field; /* "network" or "channel": the tie-breaker */
	json_object **v;        /* owned references */
	size_t n, cap;
	bool nomem;
};

/* Adds o (its reference is taken over); false when out of memory. */
static bool sorted_add(struct sorted *s, json_object *o)
{
	const struct heed_allocator *a = heed_allocator_default();

	if (!o || s->nomem) {
		json_object_put(o);
		s->nomem = true;
		return false;
	}
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		json_object **grown = heed__malloc(a, cap * sizeof(*grown));
		if (!grown) {
			json_object_put(o);
			s->nomem = true;
			return false;
		}
		if (s->n)
			memcpy(grown, s->v, s->n * sizeof(*grown));
		heed__free(a, s->v);
		s->v = grown;
		s->cap = cap;
	}
	s->v[s->n++] = o;
	return true;
}

static void sorted_free(struct sorted *s)
{
	for (size_t i = 0; i < s->n; i++)
		json_object_put(s->v[i]);
	heed__free(heed_allocator_default(), s->v);
}

/* The count an item sorts on (-1: none, or by name) and its name. */
static int64_t item_count(json_object *o, const struct heed__irc_sort *k)
{
	json_object *v;

	if (!k->number || !json_object_object_get_ex(o, k->field, &v) ||
	    !json_object_is_type(v, json_type_int))
		return -1;
	return json_object_get_int64(v);
}

static const char *item_name(json_object *o, const char *field)
{
	json_object *v;

	return json_object_object_get_ex(o, field, &v)
	               ? json_object_get_string(v)
	               : "";
}

static int sorted_cmp(const void *pa, const void *pb, void *ud)
{
	const struct sorted *s = ud;
	json_object *a = *(json_object *const *)pa;
	json_object *b = *(json_object *const *)pb;

	return heed__irc_sort_cmp(
	        s->key, item_count(a, s->key), item_name(a, s->name_field),
	        item_count(b, s->key), item_name(b, s->name_field));
}

/* Where a page of an IRC list resumes: after the row (count, name) in
 * the list's order. As text, the name alone in name order (the last
 * network key or channel name, as before orders existed), else
 * "COUNT:NAME". */
struct irc_cursor {
	bool set;
	int64_t count;
	const char *name;
};

/* Reads ?sort= and ?cursor= for a list of keys; false after answering
 * 400 for an unknown order or a cursor not of its form. */
static bool irc_order(const struct heed__serve_request *req,
                      struct heed__serve_response *resp,
                      const struct heed__irc_sort *keys, size_t n,
                      struct sorted *s, struct irc_cursor *c)
{
	const char *sort = heed__serve_arg(req->args, "sort");
	const char *text = heed__serve_arg(req->args, "cursor");
	size_t i = heed__irc_sort_find(sort, keys, n);
	char msg[160];

	if (i == n) {
		size_t len = 0;
		len += (size_t)snprintf(msg, sizeof(msg),
		                        "sort must be one of");
		for (size_t k = 0; k < n && len < sizeof(msg); k++)
			len += (size_t)snprintf(msg + len, sizeof(msg) - len,
			                        "%s %s", k ? "," : "",
			                        keys[k].name);
		heed__api_error(req, 400, msg, resp);
		return false;
	}
	s->key = &keys[i];
	memset(c, 0, sizeof(*c));
	if (!text || !text[0])
		return true;
	c->set = true;
	c->count = -1;
	c->name = text;
	if (s->key->number) {
		char *end;
		errno = 0;
		c->count = strtoll(text, &end, 10);
		if (errno || end == text || *end != ':' || c->count < -1) {
			heed__api_error(
			        req, 400,
			        "cursor: not a cursor of this order (copy "
			        "next_cursor)",
			        resp);
			return false;
		}
		c->name = end + 1;
	}
	return true;
}

/* The page of s after c (sorted first): at most limit items moved into a
 * new array, *next the cursor of its last item when more follow (NULL
 * otherwise; a new reference). */
static json_object *sorted_page(struct sorted *s, const struct irc_cursor *c,
                                int limit, json_object **next)
{
	json_object *items = json_object_new_array();
	size_t i = 0;
	int n = 0;

	*next = NULL;
	if (s->n)
		qsort_r(s->v, s->n, sizeof(*s->v), sorted_cmp, s);
	while (c->set && i < s->n &&
	       heed__irc_sort_cmp(s->key, item_count(s->v[i], s->key),
	                          item_name(s->v[i], s->name_field), c->count,
	                          c->name) <= 0)
		i++;
	for (; i < s->n && n < limit; i++, n++)
		json_object_array_add(items, json_object_get(s->v[i]));
	if (i < s->n && n > 0) {
		json_object *last = s->v[i - 1];
		const char *name = item_name(last, s->name_field);
		if (!s->key->number) {
			*next = json_object_new_string(name);
		} else {
			struct heed_buf b;
			heed__buf_init(&b, heed_allocator_default(),
			               HEED__SERVE_MAX_BODY);
			if (heed__buf_addf(&b, "%lld:%s",
			                   (long long)item_count(last, s->key),
			                   name) == HEED_OK)
				*next = json_object_new_string(
				        heed__buf_str(&b));
			heed__buf_free(&b);
		}
	}
	return items;
}

struct net_list {
	const struct heed__serve_request *req;
	struct sorted *items;
	const char *only; /* one key wanted, or NULL */
};

static int on_network(void *ud, const struct heed_store_irc_network_row *r)
{
	struct net_list *x = ud;

	if (!heed_store_irc_published(r->verdict) ||
	    (x->only && strcmp(r->key, x->only) != 0))
		return 0;
	return !sorted_add(x->items, network_object(x->req, r));
}

void heed__api_irc(const struct heed__serve_request *req,
                   struct heed__serve_response *resp)
{
	struct sorted s = {.name_field = "network"};
	struct net_list x = {req, &s, NULL};
	struct irc_cursor c;
	json_object *o, *items, *next;
	int limit = read_limit(req->args, LIMIT_MAX, LIMIT_MAX);
	heed_status rc;

	if (bad_limit(req, resp, limit) ||
	    !irc_order(req, resp, heed__irc_net_sorts, HEED__IRC_NET_SORTS, &s,
	               &c))
		return;
	rc = heed_store_irc_each_network(req->store, on_network, &x);
	if (rc == HEED_OK && s.nomem)
		rc = HEED_ENOMEM;
	if (rc != HEED_OK) {
		sorted_free(&s);
		fail(req, resp, rc, NULL);
		return;
	}
	items = sorted_page(&s, &c, limit, &next);
	sorted_free(&s);
	o = json_object_new_object();
	json_object_object_add(o, "items", items);
	json_object_object_add(o, "next_cursor", next);
	respond(req, resp, o);
}

/* One visit of a network's history (oldest first), added to ud. */
static int on_visit(void *ud, const struct heed_store_irc_visit_row *r)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "started",
	                       json_object_new_int64(r->started_s));
	json_object_object_add(o, "ended", json_object_new_int64(r->ended_s));
	json_object_object_add(o, "status", heed__record_str(r->status));
	json_object_object_add(o, "users", int_or_null(r->users));
	json_object_object_add(o, "servers", json_object_new_int64(r->servers));
	json_object_object_add(o, "channels",
	                       json_object_new_int64(r->channels));
	json_object_array_add(ud, o);
	return 0;
}

static json_object *server_object(const struct heed_store_irc_server_row *r)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "name", heed__record_str(r->name));
	json_object_object_add(o, "hub", heed__record_str(r->hub));
	json_object_object_add(o, "hops", int_or_null(r->hops));
	json_object_object_add(o, "description",
	                       heed__record_str(r->description));
	json_object_object_add(o, "first_seen", int_or_null(r->first_seen_s));
	json_object_object_add(o, "last_seen", int_or_null(r->last_seen_s));
	return o;
}

struct server_list {
	json_object *items;
	int n;
	bool capped;
};

static int on_server(void *ud, const struct heed_store_irc_server_row *r)
{
	struct server_list *x = ud;

	if (x->n == SERVERS_MAX) {
		x->capped = true;
		return 1;
	}
	json_object_array_add(x->items, server_object(r));
	x->n++;
	return 0;
}

/* Whether needle (ASCII case folded) occurs in len bytes of hay. */
static bool contains_fold(const char *hay, size_t len, const char *needle)
{
	size_t n = strlen(needle), i, k;

	if (n == 0)
		return true;
	for (i = 0; i + n <= len; i++) {
		for (k = 0; k < n; k++)
			if (heed__ascii_lower(hay[i + k]) !=
			    heed__ascii_lower(needle[k]))
				break;
		if (k == n)
			return true;
	}
	return false;
}

struct channel_list {
	struct sorted *items;
	const char *q;   /* filter, or NULL */
	int64_t matched; /* every match, reported up to COUNT_CAP */
};

/* A topic as JSON text without its mIRC formatting codes. */
static json_object *topic_json(const char *topic, size_t len)
{
	const struct heed_allocator *a = heed_allocator_default();
	size_t n;
	char *clean = heed__irc_strip_dup(a, topic, len, &n);
	json_object *o = heed__record_text(clean, n);

	heed__free(a, clean);
	return o;
}

static json_object *channel_object(const struct heed_store_irc_channel_row *r)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "network", heed__record_str(r->network_key));
	json_object_object_add(o, "network_name",
	                       heed__record_str(r->network_name));
	json_object_object_add(o, "channel", heed__record_str(r->name));
	json_object_object_add(o, "users", int_or_null(r->users));
	json_object_object_add(o, "topic", topic_json(r->topic, r->topic_len));
	json_object_object_add(o, "first_seen", int_or_null(r->first_seen_s));
	json_object_object_add(o, "last_seen", int_or_null(r->last_seen_s));
	return o;
}

static int on_channel(void *ud, const struct heed_store_irc_channel_row *r)
{
	struct channel_list *x = ud;
	size_t len = strlen(r->name);

	if (x->q && !contains_fold(r->name, len, x->q) &&
	    !(r->topic && contains_fold(r->topic, r->topic_len, x->q)))
		return 0;
	x->matched++;
	return !sorted_add(x->items, channel_object(r));
}

static heed_status find_network(const struct heed__serve_request *req,
                                const char *key, json_object **out)
{
	struct sorted s = {0};
	struct net_list x = {req, &s, key};
	heed_status rc =
	        heed_store_irc_each_network(req->store, on_network, &x);

	if (rc == HEED_OK && s.nomem)
		rc = HEED_ENOMEM;
	*out = rc == HEED_OK && s.n ? json_object_get(s.v[0]) : NULL;
	sorted_free(&s);
	return rc == HEED_OK && !*out ? HEED_ENOTFOUND : rc;
}

void heed__api_irc_network(const struct heed__serve_request *req,
                           const char *rest, struct heed__serve_response *resp)
{
	struct server_list servers = {NULL, 0, false};
	struct sorted chans = {.name_field = "channel"};
	struct channel_list ch = {&chans, NULL, 0};
	struct irc_cursor c;
	const char *cursor = heed__serve_arg(req->args, "cursor");
	json_object *o, *net = NULL, *query, *history, *items, *next;
	int limit = read_limit(req->args, LIMIT_MAX, LIMIT_MAX);
	heed_status rc;

	if (bad_segment(req, resp, rest) || bad_limit(req, resp, limit) ||
	    !irc_order(req, resp, heed__irc_chan_sorts, HEED__IRC_CHAN_SORTS,
	               &chans, &c))
		return;
	ch.q = heed__serve_arg(req->args, "q");
	if (ch.q && strlen(ch.q) > HEED__SERVE_MAX_QUERY) {
		heed__api_error(req, 400, "q is longer than 256 bytes", resp);
		return;
	}
	if (ch.q && !*ch.q)
		ch.q = NULL;
	rc = find_network(req, rest, &net);
	if (rc == HEED_ENOTFOUND) {
		heed__api_error(req, 404, "no such network in the list", resp);
		return;
	}
	servers.items = json_object_new_array();
	history = json_object_new_array();
	if (rc == HEED_OK)
		rc = heed_store_irc_each_visit(req->store, rest,
		                               HEED__SERVE_IRC_HISTORY,
		                               on_visit, history);
	if (rc == HEED_OK)
		rc = heed_store_irc_each_server(req->store, rest, on_server,
		                                &servers);
	if (rc == HEED_OK)
		rc = heed_store_irc_each_channel(req->store, rest, on_channel,
		                                 &ch);
	if (rc == HEED_OK && chans.nomem)
		rc = HEED_ENOMEM;
	items = sorted_page(&chans, &c, limit, &next);
	sorted_free(&chans);
	o = json_object_new_object();
	json_object_object_add(o, "network", net);
	json_object_object_add(o, "servers", servers.items);
	json_object_object_add(o, "servers_capped",
	                       json_object_new_boolean(servers.capped));
	json_object_object_add(o, "history", history);
	json_object_object_add(o, "items", items);
	json_object_object_add(o, "next_cursor", next);
	json_object_object_add(
	        o, "count",
	        count_object(ch.matched < COUNT_CAP ? ch.matched : COUNT_CAP,
	                     COUNT_CAP));
	query = json_object_new_object();
	json_object_object_add(query, "q", heed__record_str(ch.q));
	json_object_object_add(query, "sort",
	                       json_object_new_string(chans.key->name));
	json_object_object_add(
	        query, "cursor",
	        heed__record_str(cursor && *cursor ? cursor : NULL));
	json_object_object_add(query, "limit", json_object_new_int(limit));
	json_object_object_add(o, "query", query);
	if (rc != HEED_OK) {
		json_object_put(o);
		fail(req, resp, rc, NULL);
		return;
	}
	respond(req, resp, o);
}

/* ---- the crawler ------------------------------------------------------ */

static json_object *string_list(const char *const *items, size_t n)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < n; i++)
		json_object_array_add(a, heed__record_str(items[i]));
	return a;
}

/* The seed's two `host` steps, then heed's own command. */
static json_object *verify_object(const struct heed_config *cfg)
{
	json_object *o = json_object_new_object(), *steps;
	const char *domain = cfg && cfg->verify_domains.count
	                             ? cfg->verify_domains.items[0]
	                             : NULL;
	struct heed_buf cmd;
	char step[600];

	json_object_object_add(
	        o, "domains",
	        string_list(cfg ? (const char *const *)cfg->verify_domains.items
	                        : NULL,
	                    cfg ? cfg->verify_domains.count : 0));
	steps = json_object_new_array();
	json_object_object_add(o, "steps", steps);
	if (!domain) {
		json_object_array_add(
		        steps, json_object_new_string(
		                       "This operator has not published a "
		                       "verification domain yet: treat the "
		                       "User-Agent as unverified."));
		json_object_object_add(o, "command", NULL);
		return o;
	}
	snprintf(step, sizeof(step),
	         "Reverse lookup: `host ADDRESS` must answer a name ending in "
	         "%s (a name merely containing it does not count).",
	         domain);
	json_object_array_add(steps, heed__record_str(step));
	json_object_array_add(
	        steps, json_object_new_string(
	                       "Forward lookup: `host NAME` of that name must "
	                       "answer the address you started from."));
	json_object_array_add(
	        steps,
	        json_object_new_string("Only when both match is the request "
	                               "from this crawler."));
	heed__buf_init(&cmd, heed_allocator_default(), 16384);
	heed__buf_add(&cmd, "heed verify", 11);
	for (size_t i = 0; i < cfg->verify_domains.count; i++)
		heed__buf_addf(&cmd, " --domain %s",
		               cfg->verify_domains.items[i]);
	heed__buf_add(&cmd, " ADDRESS", 8);
	json_object_object_add(o, "command",
	                       heed__record_str(heed__buf_str(&cmd)));
	heed__buf_free(&cmd);
	return o;
}

void heed__api_bots(const struct heed__serve_request *req,
                    struct heed__serve_response *resp)
{
	static const char *const collected[] = {
	        "titles and descriptions", "view counts, tags and categories",
	        ("other technical metadata: dates, durations, links between "
	         "pages, and the robots.txt / ACAP rules in force")};
	static const char *const not_collected[] = {
	        "video, image or audio files", "form submissions", "logins",
	        "cookies or personal data of visitors"};
	const struct heed_config *cfg = req->ctx ? req->ctx->config : NULL;
	json_object *o = json_object_new_object(), *rate;
	char ua[512] = "heed";
	char *page = NULL;
	size_t len = 0;

	if (cfg)
		heed_config_user_agent(cfg, ua, sizeof(ua));
	json_object_object_add(o, "product_token",
	                       heed__record_str(product_token(req)));
	json_object_object_add(o, "user_agent", heed__record_str(ua));
	json_object_object_add(
	        o, "operator",
	        heed__record_str(cfg && cfg->operator_name &&
	                                         *cfg->operator_name
	                                 ? cfg->operator_name
	                                 : product_token(req)));
	json_object_object_add(o, "contact_url",
	                       heed__record_str(cfg ? cfg->contact_url : NULL));
	json_object_object_add(
	        o, "contact_email",
	        heed__record_str(cfg ? cfg->contact_email : NULL));
	rate = json_object_new_object();
	json_object_object_add(
	        rate, "delay_ms",
	        json_object_new_int64(cfg ? cfg->polite_delay_ms : 1000));
	json_object_object_add(rate, "concurrency_per_site",
	                       json_object_new_int(1));
	json_object_object_add(
	        rate, "crawl_delay_cap_s",
	        json_object_new_int64(cfg ? cfg->polite_crawl_delay_cap : 30));
	json_object_object_add(o, "rate", rate);
	json_object_object_add(
	        o, "collected",
	        string_list(collected, HEED_ARRAY_SIZE(collected)));
	json_object_object_add(
	        o, "not_collected",
	        string_list(not_collected, HEED_ARRAY_SIZE(not_collected)));
	json_object_object_add(o, "verify", verify_object(cfg));
	json_object_object_add(o, "optout", optout_object(req));
	/* The same page `heed page --format markdown` writes. */
	if (cfg && heed_verify_page_render(cfg, HEED_VERIFY_PAGE_MARKDOWN, NULL,
	                                   &page, &len) == HEED_OK)
		json_object_object_add(o, "page_markdown",
		                       heed__record_text(page, len));
	else
		json_object_object_add(o, "page_markdown", NULL);
	free(page);
	json_object_object_add(o, "links", links_pair(req, "/bots", NULL));
	respond(req, resp, o);
}
