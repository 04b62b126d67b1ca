/*
 * The route table of `heed serve` (docs/serve.md, "Pages"): a request's
 * path to the page that answers it, HTML or its JSON mirror under
 * /api/v1. An unknown path is a 404 in the form of its area (JSON under
 * /api/, HTML elsewhere).
 */
#include <string.h>

#include "serve/serve-int.h"

typedef void page_fn(const struct heed__serve_request *req,
                     struct heed__serve_response *resp);
typedef void rest_fn(const struct heed__serve_request *req, const char *rest,
                     struct heed__serve_response *resp);

/* A route: an exact path (rest == NULL) or a prefix ending in '/' whose
 * remainder, not empty, is handed to the page. */
struct route {
	const char *path;
	enum heed__serve_route_kind kind;
	page_fn *page;
	rest_fn *rest;
};

/* /favicon.ico: the index has no icon, and says so without an error.
 * Its HTML pages name an empty one, but a browser showing a JSON answer
 * or a feed asks for this path, and a 404 there is an error in its
 * console; 204 No Content is "nothing to show", kept for a minute. */
static void favicon(const struct heed__serve_request *req,
                    struct heed__serve_response *resp)
{
	(void)req;
	heed__buf_reset(&resp->body);
	resp->status = 204;
	resp->cache = true;
}

static const struct route routes[] = {
        {"/favicon.ico", HEED__ROUTE_STATIC, favicon, NULL},
        {"/", HEED__ROUTE_HOME, heed__html_home, NULL},
        {"/search", HEED__ROUTE_SEARCH, heed__html_search, NULL},
        {"/records/", HEED__ROUTE_RECORD, NULL, heed__html_record},
        {"/sites", HEED__ROUTE_SITE, heed__html_sites, NULL},
        {"/sites/", HEED__ROUTE_SITE, NULL, heed__html_site},
        {"/tags", HEED__ROUTE_TAG, heed__html_tags, NULL},
        {"/tags/", HEED__ROUTE_TAG, NULL, heed__html_tag},
        {"/irc", HEED__ROUTE_IRC, heed__html_irc, NULL},
        {"/irc/", HEED__ROUTE_IRC, NULL, heed__html_irc_network},
        {"/bots", HEED__ROUTE_BOTS, heed__html_bots, NULL},
        {"/feeds/search", HEED__ROUTE_SEARCH, heed__feed_search, NULL},
        {"/feeds/sites/", HEED__ROUTE_SITE, NULL, heed__feed_site},
        {"/feeds/tags/", HEED__ROUTE_TAG, NULL, heed__feed_tag},
        {"/opensearch.xml", HEED__ROUTE_STATIC, heed__opensearch, NULL},
        {"/static/heed.css", HEED__ROUTE_STATIC, heed__html_stylesheet, NULL},
        {"/metrics", HEED__ROUTE_OPS, heed__serve_metrics_page, NULL},
        {"/api/v1", HEED__ROUTE_API, heed__api_home, NULL},
        {"/api/v1/search", HEED__ROUTE_API, heed__api_search, NULL},
        {"/api/v1/records/", HEED__ROUTE_API, NULL, heed__api_record},
        {"/api/v1/sites", HEED__ROUTE_API, heed__api_sites, NULL},
        {"/api/v1/sites/", HEED__ROUTE_API, NULL, heed__api_site},
        {"/api/v1/tags", HEED__ROUTE_API, heed__api_tags, NULL},
        {"/api/v1/tags/", HEED__ROUTE_API, NULL, heed__api_tag},
        {"/api/v1/irc", HEED__ROUTE_API, heed__api_irc, NULL},
        {"/api/v1/irc/", HEED__ROUTE_API, NULL, heed__api_irc_network},
        {"/api/v1/bots", HEED__ROUTE_API, heed__api_bots, NULL},
        {"/api/v1/openapi.json", HEED__ROUTE_API, heed__api_openapi, NULL},
};

static bool is_api(const char *path)
{
	return strncmp(path, "/api/", 5) == 0 || strcmp(path, "/api") == 0;
}

/* /healthz: whether this thread's connection answers a query. */
static void healthz(const struct heed__serve_request *req,
                    struct heed__serve_response *resp)
{
	int64_t n = 0;
	bool ok = req->store &&
	          heed_store_pages_count(req->store, NULL, &n) == HEED_OK;

	resp->content_type = "text/plain; charset=utf-8";
	resp->status = ok ? 200 : 503;
	heed__buf_add(&resp->body, ok ? "ok\n" : "unavailable\n", ok ? 3 : 12);
}

void heed__serve_error(const struct heed__serve_request *req, int status,
                       const char *html_message, const char *api_message,
                       struct heed__serve_response *resp)
{
	resp->kind = is_api(req->path) ? HEED__ROUTE_API : HEED__ROUTE_OTHER;
	if (resp->kind == HEED__ROUTE_API)
		heed__api_error(req, status, api_message, resp);
	else
		heed__html_error(req, status, html_message, resp);
}

static void not_found(const struct heed__serve_request *req,
                      struct heed__serve_response *resp)
{
	heed__serve_error(req, 404, "There is no such page here.",
	                  "no such resource", resp);
}

/* The path without one trailing '/' (but "/" stays "/"), or NULL when it
 * does not fit: /records/12/ is /records/12, /sites/ is /sites. */
static const char *trim_slash(const char *path, char *tmp, size_t size)
{
	size_t n = strlen(path);

	if (n <= 1 || path[n - 1] != '/')
		return path;
	if (n >= size)
		return NULL;
	memcpy(tmp, path, n - 1);
	tmp[n - 1] = '\0';
	return tmp;
}

static bool dispatch(const struct heed__serve_request *req, const char *path,
                     struct heed__serve_response *resp)
{
	size_t i, n;

	for (i = 0; i < sizeof(routes) / sizeof(routes[0]); i++) {
		const struct route *r = &routes[i];
		resp->kind = r->kind;
		if (r->page && strcmp(path, r->path) == 0) {
			r->page(req, resp);
			return true;
		}
		n = strlen(r->path);
		if (r->rest && strncmp(path, r->path, n) == 0 && path[n]) {
			r->rest(req, path + n, resp);
			return true;
		}
	}
	return false;
}

void heed__serve_route(const struct heed__serve_request *req,
                       struct heed__serve_response *resp)
{
	char tmp[4096];
	const char *path;

	resp->status = 500;
	resp->content_type = "text/plain; charset=utf-8";
	resp->kind = HEED__ROUTE_OTHER;
	resp->cache = false;
	if (!resp->body.alloc)
		heed__buf_init(&resp->body,
		               req->ctx->alloc ? req->ctx->alloc
		                               : heed_allocator_default(),
		               HEED__SERVE_MAX_BODY);
	if (strcmp(req->path, "/healthz") == 0) {
		resp->kind = HEED__ROUTE_OPS;
		healthz(req, resp);
		return;
	}
	/* "/api/v1/" is the API's home: its trailing slash is the name. */
	path = strcmp(req->path, "/api/v1/") == 0
	               ? "/api/v1"
	               : trim_slash(req->path, tmp, sizeof(tmp));
	if (!path || req->path[0] != '/' || !dispatch(req, path, resp))
		not_found(req, resp);
}
