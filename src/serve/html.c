/*
 * The HTML pages of the public index (docs/serve.md, "Pages"): the page
 * writer and layout every page shares (html-int.h), the search form and
 * results list, and the home, search, error and /bots pages. The others:
 * html_pages.c (a record, tags), html_site.c (sites), html_irc.c (IRC
 * networks), html_style.c (the stylesheet).
 *
 * Every value from the store goes through heed__html_escape, every part
 * of an internal link through heed__url_encode, every external link
 * through heed__serve_safe_link. No script, no inline style: the
 * Content-Security-Policy forbids both.
 */
#include <json-c/json.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "heed/verify.h"
#include "serve/html-int.h"

#define HTML_TYPE "text/html; charset=utf-8"

/* ---- the writer ---- */

void hp_init(struct hpage *p, const struct heed__serve_request *req,
             struct heed__serve_response *resp)
{
	p->req = req;
	p->resp = resp;
	p->rc = HEED_OK;
	resp->content_type = HTML_TYPE;
}

static void hp_add(struct hpage *p, const char *s, size_t len)
{
	if (p->rc == HEED_OK)
		p->rc = heed__buf_add(&p->resp->body, s, len);
}

void hp_raw(struct hpage *p, const char *s)
{
	hp_add(p, s, strlen(s));
}

void hp_rawf(struct hpage *p, const char *fmt, ...)
{
	char tmp[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	/* Only short literals and numbers come here. */
	if (n > 0)
		hp_add(p, tmp,
		       (size_t)n < sizeof(tmp) ? (size_t)n : sizeof(tmp) - 1);
}

void hp_textn(struct hpage *p, const char *s, size_t len)
{
	if (s && p->rc == HEED_OK)
		p->rc = heed__html_escape(&p->resp->body, s, len);
}

void hp_text(struct hpage *p, const char *s)
{
	if (s)
		hp_textn(p, s, strlen(s));
}

void hp_bdin(struct hpage *p, const char *s, size_t len)
{
	if (!s)
		return;
	hp_raw(p, "<bdi>");
	hp_textn(p, s, len);
	hp_raw(p, "</bdi>");
}

void hp_bdi(struct hpage *p, const char *s)
{
	if (s)
		hp_bdin(p, s, strlen(s));
}

void hp_url(struct hpage *p, const char *s)
{
	if (s && p->rc == HEED_OK)
		p->rc = heed__url_encode(&p->resp->body, s, strlen(s));
}

void hp_href(struct hpage *p, const char *path)
{
	hp_text(p, p->req->ctx->base_url);
	hp_raw(p, path);
}

void hp_external(struct hpage *p, const char *cls, const char *url,
                 const char *text)
{
	bool safe = url && heed__serve_safe_link(url);

	if (safe) {
		hp_raw(p, "<a ");
		if (cls)
			hp_rawf(p, "class=\"%s\" ", cls);
		hp_raw(p, "rel=\"nofollow noopener ugc\" href=\"");
		hp_text(p, url);
		hp_raw(p, "\">");
	}
	hp_bdi(p, text ? text : url);
	if (safe)
		hp_raw(p, "</a>");
}

void hp_int(struct hpage *p, int64_t v)
{
	char digits[32], out[48];
	size_t n, i, o = 0;

	if (v < 0) {
		out[o++] = '-';
		v = v == INT64_MIN ? INT64_MAX : -v;
	}
	n = (size_t)snprintf(digits, sizeof(digits), "%lld", (long long)v);
	for (i = 0; i < n; i++) {
		if (i && (n - i) % 3 == 0)
			out[o++] = ',';
		out[o++] = digits[i];
	}
	out[o] = '\0';
	hp_raw(p, out);
}

void hp_time(struct hpage *p, int64_t unix_s)
{
	char iso[32], human[32];
	time_t t = (time_t)unix_s;
	struct tm tm;

	if (unix_s == 0 || unix_s == HEED_STORE_NO_DATE || !gmtime_r(&t, &tm)) {
		hp_raw(p, "never");
		return;
	}
	strftime(iso, sizeof(iso), "%Y-%m-%dT%H:%M:%SZ", &tm);
	strftime(human, sizeof(human), "%Y-%m-%d %H:%M UTC", &tm);
	hp_rawf(p, "<time datetime=\"%s\">%s</time>", iso, human);
}

/* ---- the layout ---- */

static const char *const nav[][2] = {
        {"/", "Home"},
        {"/sites", "Sites"},
        {"/tags", "Tags"},
        {"/irc", "IRC"},
        {"/bots", "About this crawler"},
};

void hp_begin(struct hpage *p, const char *title)
{
	size_t i;

	hp_raw(p, "<!doctype html>\n<html lang=\"en\">\n<head>\n"
	          "<meta charset=\"utf-8\">\n"
	          "<meta name=\"viewport\" content=\"width=device-width, "
	          "initial-scale=1\">\n<title>");
	hp_text(p, title);
	hp_raw(p, " · heed index</title>\n<link rel=\"stylesheet\" href=\"");
	hp_href(p, "/static/heed.css");
	/* An empty icon of our own: without one every browser asks for
	 * /favicon.ico after each page, a request and a 404 for nothing
	 * (the CSP allows data: images). */
	hp_raw(p, "\">\n<link rel=\"search\" "
	          "type=\"application/opensearchdescription+xml\" "
	          "title=\"heed index\" href=\"");
	hp_href(p, "/opensearch.xml");
	hp_raw(p, "\">\n<link rel=\"icon\" href=\"data:,\">\n</head>\n<body>\n"
	          "<a class=\"skip\" href=\"#main\">Skip to content</a>\n"
	          "<header>\n<nav aria-label=\"Site\">\n<ul>\n");
	for (i = 0; i < sizeof(nav) / sizeof(nav[0]); i++) {
		hp_raw(p, "<li><a href=\"");
		hp_href(p, nav[i][0]);
		hp_rawf(p, "\">%s</a></li>\n", nav[i][1]);
	}
	hp_raw(p, "</ul>\n</nav>\n</header>\n<main id=\"main\">\n");
}

void hp_end(struct hpage *p, int status)
{
	hp_raw(p, "</main>\n<footer><p>Metadata collected by heed, shown as "
	          "each site permitted. <a href=\"");
	hp_href(p, "/bots");
	hp_raw(p, "\">How to opt out</a>.</p>\n<p>For programs: <a id=\"api\" "
	          "href=\"");
	hp_href(p, "/api/v1/");
	hp_raw(p, "\">the JSON API</a>, described in <a id=\"openapi\" "
	          "href=\"");
	hp_href(p, "/api/v1/openapi.json");
	hp_raw(p, "\">its OpenAPI document</a>.</p></footer>\n</body>\n"
	          "</html>\n");
	if (p->rc != HEED_OK) {
		hp_fail(p, 500,
		        p->rc == HEED_ETOOBIG ? "The page is too large."
		                              : "Out of memory.");
		return;
	}
	p->resp->status = status;
}

void heed__html_error(const struct heed__serve_request *req, int status,
                      const char *message, struct heed__serve_response *resp)
{
	struct hpage p;
	char title[32];

	heed__buf_reset(&resp->body);
	hp_init(&p, req, resp);
	snprintf(title, sizeof(title), "Error %d", status);
	hp_begin(&p, title);
	hp_rawf(&p, "<h1>%s</h1>\n<p id=\"error\">", title);
	hp_text(&p, message);
	hp_raw(&p, "</p>\n<p><a href=\"");
	hp_href(&p, "/");
	hp_raw(&p, "\">Back to the search</a></p>\n");
	hp_raw(&p, "</main>\n</body>\n</html>\n");
	resp->status = status;
	if (p.rc != HEED_OK) {
		/* Even the error page did not fit: a body without markup. */
		heed__buf_reset(&resp->body);
		heed__buf_add(&resp->body, "error\n", 6);
		resp->content_type = "text/plain; charset=utf-8";
	}
}

void hp_fail(struct hpage *p, int status, const char *message)
{
	heed__html_error(p->req, status, message, p->resp);
	p->rc = HEED_OK;
}

void hp_store_fail(struct hpage *p, heed_status rc,
                   const struct heed_diag *diag)
{
	char msg[HEED_DIAG_SIZE + 64];

	if (rc == HEED_EINVAL || rc == HEED_ETOOBIG) {
		snprintf(msg, sizeof(msg), "This search cannot be run: %s",
		         diag && diag->message[0]
		                 ? diag->message
		                 : (rc == HEED_ETOOBIG
		                            ? "it is too costly; narrow it."
		                            : "it is not valid."));
		hp_fail(p, 400, msg);
		return;
	}
	if (rc == HEED_ENOTFOUND) {
		hp_fail(p, 404, "There is no such page in the index.");
		return;
	}
	/* The SQL and SQLite's message stay in the server: they help no
	 * visitor and tell an attacker about the schema. */
	hp_fail(p, 500, "The store could not be read. Try again later.");
}

/* ---- the search form ---- */

static const char *arg_or_empty(const struct heed__serve_args *args,
                                const char *name)
{
	const char *v = args ? heed__serve_arg(args, name) : NULL;
	return v ? v : "";
}

static void form_input(struct hpage *p, const struct heed__serve_args *args,
                       const char *name, const char *label, const char *type,
                       const char *hint)
{
	hp_rawf(p, "<div><label for=\"f-%s\">%s</label>", name, label);
	hp_rawf(p, "<input id=\"f-%s\" name=\"%s\" type=\"%s\"", name, name,
	        type);
	if (hint)
		hp_rawf(p, " placeholder=\"%s\"", hint);
	hp_raw(p, " value=\"");
	hp_text(p, arg_or_empty(args, name));
	hp_raw(p, "\"></div>\n");
}

static const char *const sorts[][2] = {
        {"relevance", "Relevance"},
        {"views", "Most views"},
        {"date", "Newest published"},
        {"fetched", "Most recently fetched"},
};

static const char *const advanced[] = {
        "site", "tag", "lang", "from", "to", "min_views", "max_views", "sort"};

void hp_search_form(struct hpage *p, const struct heed__serve_args *args)
{
	const char *sort = arg_or_empty(args, "sort");
	int in_use = 0;
	size_t i;

	for (i = 0; i < sizeof(advanced) / sizeof(advanced[0]); i++)
		in_use += arg_or_empty(args, advanced[i])[0] != '\0';
	hp_raw(p, "<form id=\"search\" action=\"");
	hp_href(p, "/search");
	hp_raw(p,
	       "\" method=\"get\" role=\"search\">\n"
	       "<label for=\"q\">Search the index</label>\n"
	       "<input name=\"q\" id=\"q\" type=\"search\" maxlength=\"256\" "
	       "value=\"");
	hp_text(p, arg_or_empty(args, "q"));
	hp_raw(p, "\">\n");
	/* Folded even when some are in use, so that on a phone the results,
	 * not eight fields, fill the first screen; the summary says how
	 * many apply. */
	hp_raw(p, "<details id=\"filters\"><summary>Filters and order");
	if (in_use)
		hp_rawf(p, " <span class=\"meta\">(%d in use)</span>", in_use);
	hp_raw(p, "</summary>\n<div class=\"grid\">\n");
	form_input(p, args, "site", "Site", "text", "example.org");
	form_input(p, args, "tag", "Tag", "text", NULL);
	form_input(p, args, "lang", "Language", "text", "en");
	form_input(p, args, "from", "Published from", "text", "YYYY-MM-DD");
	form_input(p, args, "to", "Published to", "text", "YYYY-MM-DD");
	form_input(p, args, "min_views", "At least views", "number", NULL);
	form_input(p, args, "max_views", "At most views", "number", NULL);
	/* An empty first choice: a search sent as it was shown carries no
	 * order (the empty argument is then dropped, canonical_search). */
	hp_raw(p, "<div><label for=\"f-sort\">Order</label>"
	          "<select id=\"f-sort\" name=\"sort\">"
	          "<option value=\"\">Default (relevance with words, "
	          "else newest fetched)</option>");
	for (i = 0; i < sizeof(sorts) / sizeof(sorts[0]); i++)
		hp_rawf(p, "<option value=\"%s\"%s>%s</option>", sorts[i][0],
		        strcmp(sort, sorts[i][0]) == 0 ? " selected" : "",
		        sorts[i][1]);
	hp_raw(p, "</select></div>\n</div>\n</details>\n"
	          "<button type=\"submit\">Search</button>\n</form>\n");
}

/* ---- records: the parts of the record JSON a list shows ---- */

struct json_object *hp_record_parse(const char *record_json)
{
	json_object *o;

	if (!record_json)
		return NULL;
	o = json_tokener_parse(record_json);
	if (o && !json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

/* A field's "value" when it is a string: the record's fields are
 * {"value": ..., "source": ...} objects (docs/metadata.md). */
const char *hp_record_value(struct json_object *rec, const char *field)
{
	json_object *f, *v;

	if (!rec || !json_object_object_get_ex(rec, field, &f))
		return NULL;
	if (json_object_is_type(f, json_type_object) &&
	    json_object_object_get_ex(f, "value", &v) &&
	    json_object_is_type(v, json_type_string))
		return json_object_get_string(v);
	return NULL;
}

/* Escaped text with the words of the search in <mark>. */
static void marked_text(struct hpage *p, const char *s, size_t len,
                        const struct heed__serve_marks *m)
{
	size_t at = 0, start, end;

	while (m && heed__serve_mark_next(m, s, len, at, &start, &end)) {
		hp_textn(p, s + at, start - at);
		hp_raw(p, "<mark>");
		hp_textn(p, s + start, end - start);
		hp_raw(p, "</mark>");
		at = end;
	}
	hp_textn(p, s + at, len - at);
}

/* A list shows this much of a title or a description, cut at a word; the
 * record page shows them whole. */
#define LIST_TITLE_CHARS   120
#define LIST_SNIPPET_CHARS 320

/* s (len bytes, of which whole bytes were allowed: "…" when fewer) cut
 * to at most max characters at a word, "…" when cut, isolated in <bdi>,
 * the words of the search in <mark>. */
static void cut_text(struct hpage *p, const char *s, size_t len, size_t whole,
                     size_t max, const struct heed__serve_marks *m)
{
	size_t cut = heed__serve_cut_at_word(s, len, max);

	hp_raw(p, "<bdi>");
	marked_text(p, s, cut, m);
	hp_raw(p, "</bdi>");
	if (cut < whole)
		hp_raw(p, "…");
}

/* The description as a permitted snippet, "…" when cut. */
static void hit_snippet(struct hpage *p, const char *desc,
                        const struct heed__serve_permit *pm,
                        const struct heed__serve_marks *m)
{
	size_t len = strlen(desc), cut = heed__serve_snippet_cut(pm, desc, len);

	hp_raw(p, "<p class=\"snippet\">");
	cut_text(p, desc, cut, len, LIST_SNIPPET_CHARS, m);
	hp_raw(p, "</p>\n");
}

void hp_feed_link(struct hpage *p, const char *prefix, const char *value)
{
	const struct heed__serve_args *args = p->req->args;
	char sep = '?';

	hp_raw(p, "<p class=\"feed\"><a id=\"feed\" "
	          "type=\"application/atom+xml\" href=\"");
	hp_href(p, prefix);
	hp_url(p, value);
	for (size_t i = 0; !value && args && i < args->count; i++) {
		if (strcmp(args->arg[i].name, "cursor") == 0 ||
		    !args->arg[i].value[0])
			continue;
		hp_rawf(p, "%c", sep);
		hp_url(p, args->arg[i].name);
		hp_raw(p, "=");
		hp_url(p, args->arg[i].value);
		sep = '&';
	}
	hp_raw(p, "\">Follow in a feed reader (Atom)</a></p>\n");
}

void hp_link(struct hpage *p, const char *prefix, const char *value,
             const char *text)
{
	hp_raw(p, "<a href=\"");
	hp_href(p, prefix);
	hp_url(p, value);
	hp_raw(p, "\">");
	hp_bdi(p, text);
	hp_raw(p, "</a>");
}

void hp_tags(struct hpage *p, json_object *rec, size_t max, bool sources)
{
	json_object *tags, *t, *v, *src;
	size_t i, n;

	if (!rec || !json_object_object_get_ex(rec, "tags", &tags) ||
	    !json_object_is_type(tags, json_type_array))
		return;
	n = json_object_array_length(tags);
	if (n == 0)
		return;
	hp_raw(p, "<ul class=\"tags\">");
	for (i = 0; i < n && i < max; i++) {
		t = json_object_array_get_idx(tags, i);
		if (!json_object_is_type(t, json_type_object) ||
		    !json_object_object_get_ex(t, "value", &v) ||
		    !json_object_is_type(v, json_type_string))
			continue;
		hp_raw(p, "<li>");
		hp_link(p, "/tags/", json_object_get_string(v),
		        json_object_get_string(v));
		if (sources && json_object_object_get_ex(t, "source", &src) &&
		    json_object_is_type(src, json_type_string)) {
			hp_raw(p, " <span class=\"source\">from ");
			hp_bdi(p, json_object_get_string(src));
			hp_raw(p, "</span>");
		}
		hp_raw(p, "</li>");
	}
	hp_raw(p, "</ul>\n");
}

/* The title of a page for a link: its title, else its URL. */
static const char *page_title(const struct heed_stored_page *pg)
{
	return pg->title && pg->title[0] ? pg->title : pg->url;
}

static void hit_title(struct hpage *p, const struct heed_search_hit *hit,
                      const struct heed__serve_marks *m)
{
	const char *title = page_title(&hit->page);
	size_t len = strlen(title);

	hp_rawf(p, "<a class=\"title\" href=\"");
	hp_href(p, "/records/");
	hp_rawf(p, "%lld\">", (long long)hit->id);
	cut_text(p, title, len, len, LIST_TITLE_CHARS, m);
	hp_raw(p, "</a>");
}

/* "host · N views" (without views when the page has no count): the line
 * under a result and beside a short-list entry. */
static void hit_host_views(struct hpage *p, const struct heed_search_hit *hit)
{
	hp_bdi(p, hit->page.host);
	if (hit->page.views >= 0) {
		hp_raw(p, " · ");
		hp_int(p, hit->page.views);
		hp_raw(p, hit->page.views == 1 ? " view" : " views");
	}
}

struct results {
	struct hpage *p;
	const struct heed__serve_marks *marks; /* NULL: none */
	struct heed_search_cursor last;
	int shown;
};

static int on_result(void *ud, const struct heed_search_hit *hit)
{
	struct results *r = ud;
	struct hpage *p = r->p;
	const char *url =
	        hit->page.final_url ? hit->page.final_url : hit->page.url;
	struct heed__serve_permit pm;
	json_object *rec = hp_record_parse(hit->page.record);
	const char *desc = hp_record_value(rec, "description");

	heed__serve_permit(hit->page.permissions, p->req->now_s, &pm);
	hp_raw(p, "<li class=\"result\">");
	hit_title(p, hit, r->marks);
	hp_raw(p, "<br>");
	if (url && heed__serve_safe_link(url))
		hp_external(p, "original", url, url);
	else
		hp_bdi(p, url);
	hp_raw(p, "<br><span class=\"meta\">");
	hit_host_views(p, hit);
	if (hit->page.published) {
		hp_raw(p, " · published ");
		hp_bdi(p, hit->page.published);
	}
	hp_raw(p, "</span>\n");
	if (desc && desc[0] && pm.snippet)
		hit_snippet(p, desc, &pm, r->marks);
	hp_tags(p, rec, 20, false);
	hp_raw(p, "</li>\n");
	json_object_put(rec);
	r->last = hit->cursor;
	r->shown++;
	return p->rc != HEED_OK;
}

/* path?args with cursor set to cursor (NULL: none), every other argument
 * kept but skip_arg and limit's default. */
static void page_link(struct hpage *p, const char *path,
                      const struct heed__serve_args *args, const char *skip_arg,
                      const char *cursor)
{
	char sep = '?';
	size_t i;

	hp_href(p, path);
	for (i = 0; args && i < args->count; i++) {
		const char *n = args->arg[i].name;
		if (strcmp(n, "cursor") == 0 ||
		    (skip_arg && strcmp(n, skip_arg) == 0) ||
		    !args->arg[i].value[0])
			continue;
		hp_rawf(p, "%c", sep);
		hp_url(p, n);
		hp_raw(p, "=");
		hp_url(p, args->arg[i].value);
		sep = '&';
	}
	if (cursor) {
		hp_rawf(p, "%ccursor=", sep);
		hp_url(p, cursor);
	}
}

static void reverse(char *s, size_t len)
{
	for (size_t i = 0; i < len / 2; i++) {
		char c = s[i];
		s[i] = s[len - 1 - i];
		s[len - 1 - i] = c;
	}
}

/* Moves the body's text written since from to offset at (at <= from),
 * after what was written between them: a part that could only be
 * written after the part it goes before. Rotated in place (three
 * reversals), so it needs no memory; nothing when a write failed (the
 * page is replaced by an error then). */
static void hp_move_back(struct hpage *p, size_t at, size_t from)
{
	struct heed_buf *b = &p->resp->body;

	if (p->rc != HEED_OK || at >= from || from >= b->len)
		return;
	reverse(b->data + at, from - at);
	reverse(b->data + from, b->len - from);
	reverse(b->data + at, b->len - at);
}

static void count_line(struct hpage *p, int64_t count)
{
	hp_raw(p, "<p id=\"count\">");
	if (count >= HEED__SERVE_COUNT_CAP) {
		hp_raw(p, "More than ");
		hp_int(p, HEED__SERVE_COUNT_CAP);
		hp_raw(p, " results");
	} else if (count == 1) {
		hp_raw(p, "1 result");
	} else {
		hp_raw(p, "About ");
		hp_int(p, count);
		hp_raw(p, " results");
	}
	hp_raw(p, ".</p>\n");
}

/* How far back a results page looks for the page before it: the rows
 * of a search are read from the first again, so the cost grows with the
 * depth; a relevance search has at most HEED_SEARCH_MAX_SCORED rows. */
#define PREV_SCAN_ROWS 5000
/* The most rows a single store call returns. */
#define PREV_SCAN_CHUNK 1000

/* The cursors of the last size rows read, to find where the page before
 * the current one began. */
struct prev_scan {
	struct heed_search_cursor ring[101]; /* limit (at most 100) + 1 */
	size_t size;
	int64_t rows;
	int64_t target; /* the id of the last row of the page before */
	bool found;
	struct heed_search_cursor last;
};

static int on_prev_row(void *ud, const struct heed_search_hit *hit)
{
	struct prev_scan *s = ud;

	s->ring[(size_t)(s->rows % (int64_t)s->size)] = hit->cursor;
	s->rows++;
	s->last = hit->cursor;
	s->found = hit->id == s->target;
	return s->found;
}

/*
 * Keyset cursors only go forward, so the page before the one that starts
 * after q->after is found by reading the search again from its first row
 * up to q->after's row, keeping the cursors of the last limit + 1 rows:
 * the previous page starts after the row limit rows before it. On HEED_OK
 * *found says whether the row was met within PREV_SCAN_ROWS (a crawl may
 * have removed it), *prev is that page's cursor (id 0: the first page).
 */
static heed_status prev_cursor(struct hpage *p,
                               const struct heed_search_query *q,
                               struct heed_search_cursor *prev, bool *found,
                               struct heed_diag *diag)
{
	struct prev_scan s = {.size = (size_t)q->limit + 1,
	                      .target = q->after.id};
	struct heed_search_query scan = *q;
	bool more = true;
	heed_status rc = HEED_OK;

	*found = false;
	memset(prev, 0, sizeof(*prev));
	if (s.size > HEED_ARRAY_SIZE(s.ring))
		return HEED_OK;
	memset(&scan.after, 0, sizeof(scan.after));
	while (more && !s.found && s.rows < PREV_SCAN_ROWS) {
		int64_t left = PREV_SCAN_ROWS - s.rows;
		scan.limit =
		        left < PREV_SCAN_CHUNK ? (int)left : PREV_SCAN_CHUNK;
		rc = heed_store_search(p->req->store, &scan, on_prev_row, &s,
		                       &more, diag);
		if (rc != HEED_OK)
			return rc;
		scan.after = s.last;
	}
	if (!s.found)
		return HEED_OK;
	*found = true;
	/* The target is row s.rows (from 1); the page before holds rows
	 * s.rows - limit + 1 .. s.rows and starts after row s.rows - limit. */
	if (s.rows > q->limit)
		*prev = s.ring[(size_t)((s.rows - q->limit - 1) %
		                        (int64_t)s.size)];
	return HEED_OK;
}

/* The links between pages: the first page, the previous one (when the
 * row the current page follows is still found) and the next one. */
static heed_status page_nav(struct hpage *p, const struct heed_search_query *q,
                            const struct results *r, bool more,
                            const char *link_path,
                            const struct heed__serve_args *args,
                            const char *skip_arg, struct heed_diag *diag)
{
	struct heed_search_cursor prev;
	char cursor[HEED__SERVE_CURSOR_SIZE];
	bool found = false;
	heed_status rc;

	if (q->after.id != 0) {
		rc = prev_cursor(p, q, &prev, &found, diag);
		if (rc != HEED_OK)
			return rc;
	}
	if (q->after.id == 0 && !(more && r->shown > 0))
		return HEED_OK;
	hp_raw(p, "<nav aria-label=\"Pages\" class=\"pages\"><p>");
	if (q->after.id != 0 && !(found && prev.id == 0)) {
		hp_raw(p, "<a id=\"first\" href=\"");
		page_link(p, link_path, args, skip_arg, NULL);
		hp_raw(p, "\">First page</a> ");
	}
	if (found) {
		if (prev.id != 0)
			heed__serve_cursor_format(q->sort, &prev, cursor);
		hp_raw(p, "<a id=\"prev\" rel=\"prev\" href=\"");
		page_link(p, link_path, args, skip_arg,
		          prev.id != 0 ? cursor : NULL);
		hp_raw(p, "\">Previous page</a> ");
	}
	if (more && r->shown > 0) {
		heed__serve_cursor_format(q->sort, &r->last, cursor);
		hp_raw(p, "<a id=\"next\" rel=\"next\" href=\"");
		page_link(p, link_path, args, skip_arg, cursor);
		hp_raw(p, "\">Next page</a>");
	}
	hp_raw(p, "</p></nav>\n");
	return HEED_OK;
}

heed_status hp_results(struct hpage *p, struct heed_search_query *q,
                       const char *link_path,
                       const struct heed__serve_args *args,
                       const char *skip_arg, struct heed_diag *diag)
{
	struct heed__serve_marks marks;
	struct results r = {p, NULL, {0}, 0};
	size_t list_at = p->resp->body.len, count_at;
	int64_t count = 0;
	bool more = false;
	heed_status rc;

	/* The results are read before the count, so that the store can take
	 * the count from the search (when its candidates were every match)
	 * instead of reading the matches again; the count line is then moved
	 * above them. */
	if (q->match) {
		heed__serve_marks_init(&marks, heed__serve_arg(args, "q"));
		r.marks = &marks;
	}
	hp_raw(p, "<ol id=\"results\">\n");
	rc = heed_store_search(p->req->store, q, on_result, &r, &more, diag);
	if (rc != HEED_OK)
		return rc;
	hp_raw(p, "</ol>\n");
	if (r.shown == 0)
		hp_raw(p,
		       "<p id=\"empty\">Nothing in the index matches.</p>\n");
	rc = heed_store_search_count(p->req->store, q, HEED__SERVE_COUNT_CAP,
	                             &count, diag);
	if (rc != HEED_OK)
		return rc;
	count_at = p->resp->body.len;
	count_line(p, count);
	hp_move_back(p, list_at, count_at);
	return page_nav(p, q, &r, more, link_path, args, skip_arg, diag);
}

/* One <li> of a tag list: the tag linked to its page, its count. */
int hp_tag_item(void *ud, const struct heed_search_tag *t)
{
	struct hpage *p = ud;

	hp_raw(p, "<li>");
	hp_link(p, "/tags/", t->tag, t->tag);
	hp_raw(p, " <span class=\"meta\">");
	hp_int(p, t->pages);
	hp_raw(p, "</span></li>\n");
	return p->rc != HEED_OK;
}

/* ---- short lists (home, site page) ---- */

static int on_short(void *ud, const struct heed_search_hit *hit)
{
	struct hpage *p = ud;

	hp_raw(p, "<li>");
	hit_title(p, hit, NULL);
	hp_raw(p, " <span class=\"meta\">");
	hit_host_views(p, hit);
	hp_raw(p, "</span></li>\n");
	return p->rc != HEED_OK;
}

heed_status hp_short_list(struct hpage *p, heed_search_sort sort,
                          const char *host, int limit, const char *id)
{
	struct heed_search_query q = {0};
	heed_status rc;

	q.host = host;
	q.published_from_s = q.published_to_s = HEED_STORE_NO_DATE;
	q.min_views = q.max_views = -1;
	q.sort = sort;
	q.limit = limit;
	q.now_s = p->req->now_s;
	hp_rawf(p, "<ul id=\"%s\">\n", id);
	rc = heed_store_search(p->req->store, &q, on_short, p, NULL, NULL);
	hp_raw(p, "</ul>\n");
	return rc;
}

/* ---- home ---- */

/* n things, with the noun in the singular for exactly one. */
static void count_item(struct hpage *p, int64_t n, const char *one,
                       const char *many, const char *path)
{
	hp_raw(p, "<li><a href=\"");
	hp_href(p, path);
	hp_raw(p, "\">");
	if (n >= HEED__SERVE_COUNT_CAP)
		hp_raw(p, "more than ");
	hp_int(p, n);
	hp_rawf(p, " %s</a></li>\n", n == 1 ? one : many);
}

static heed_status home_counts(struct hpage *p)
{
	struct heed__serve_counts c;
	heed_status rc;

	rc = heed__serve_counts(p->req->store, p->req->now_s, &c);
	if (rc != HEED_OK)
		return rc;
	hp_raw(p, "<h2>In the index</h2>\n<ul id=\"counts\">\n");
	count_item(p, c.pages, "page", "pages", "/search");
	count_item(p, c.sites, "site", "sites", "/sites");
	count_item(p, c.tags, "tag", "tags", "/tags");
	count_item(p, c.networks, "IRC network", "IRC networks", "/irc");
	hp_raw(p, "</ul>\n");
	return HEED_OK;
}

void heed__html_home(const struct heed__serve_request *req,
                     struct heed__serve_response *resp)
{
	struct hpage p;
	heed_status rc;

	hp_init(&p, req, resp);
	hp_begin(&p, "Search");
	hp_raw(&p, "<h1>The heed index</h1>\n<p>Titles, descriptions and tags "
	           "of the pages this crawler read, as their sites "
	           "permitted.</p>\n");
	hp_search_form(&p, NULL);
	rc = home_counts(&p);
	if (rc == HEED_OK) {
		hp_raw(&p, "<h2>Recently fetched</h2>\n");
		rc = hp_short_list(&p, HEED_SEARCH_SORT_FETCHED, NULL, 10,
		                   "recent");
	}
	if (rc == HEED_OK) {
		hp_raw(&p, "<h2>Most viewed</h2>\n");
		rc = hp_short_list(&p, HEED_SEARCH_SORT_VIEWS, NULL, 10,
		                   "popular");
	}
	if (rc != HEED_OK) {
		hp_store_fail(&p, rc, NULL);
		return;
	}
	hp_raw(&p, "<p>Browse by <a href=\"");
	hp_href(&p, "/tags");
	hp_raw(&p, "\">tag</a> or by <a href=\"");
	hp_href(&p, "/sites");
	hp_raw(&p, "\">site</a>.</p>\n");
	hp_end(&p, 200);
}

/* ---- search ---- */

static bool has_empty_arg(const struct heed__serve_args *args)
{
	for (size_t i = 0; args && i < args->count; i++)
		if (!args->arg[i].value[0])
			return true;
	return false;
}

/*
 * A GET form sends every field, the empty ones too ("?q=film&site=&tag=
 * ..."), and without a script it cannot leave them out. So a search with
 * an empty argument is sent (303) to the same search without it: the
 * address in the browser's bar, its history and a shared link are the
 * short one, and the page has one address. False, and nothing written,
 * when the address would not fit (the search is then answered as it is).
 */
static bool canonical_search(const struct heed__serve_request *req,
                             struct heed__serve_response *resp)
{
	const struct heed__serve_args *args = req->args;
	struct heed_buf b;
	char sep = '?';
	heed_status rc;
	struct hpage p;

	heed__buf_init(&b, req->ctx->alloc, sizeof(resp->location) - 1);
	rc = heed__buf_add(&b, req->ctx->base_url, strlen(req->ctx->base_url));
	if (rc == HEED_OK)
		rc = heed__buf_add(&b, "/search", 7);
	for (size_t i = 0; rc == HEED_OK && i < args->count; i++) {
		const char *n = args->arg[i].name, *v = args->arg[i].value;
		if (!v[0])
			continue;
		rc = heed__buf_addc(&b, sep);
		if (rc == HEED_OK)
			rc = heed__url_encode(&b, n, strlen(n));
		if (rc == HEED_OK)
			rc = heed__buf_addc(&b, '=');
		if (rc == HEED_OK)
			rc = heed__url_encode(&b, v, strlen(v));
		sep = '&';
	}
	if (rc != HEED_OK) {
		heed__buf_free(&b);
		return false;
	}
	memcpy(resp->location, b.data, b.len);
	resp->location[b.len] = '\0';
	heed__buf_free(&b);
	hp_init(&p, req, resp);
	hp_begin(&p, "Search");
	hp_raw(&p, "<h1>Search</h1>\n<p>This search is at <a id=\"canonical\" "
	           "href=\"");
	hp_text(&p, resp->location);
	hp_raw(&p, "\">its short address</a>.</p>\n");
	hp_end(&p, 303);
	return true;
}

void heed__html_search(const struct heed__serve_request *req,
                       struct heed__serve_response *resp)
{
	struct heed_search_query q;
	struct heed_diag diag = {0};
	char *fts = NULL;
	struct hpage p;
	heed_status rc;

	hp_init(&p, req, resp);
	if (has_empty_arg(req->args) && canonical_search(req, resp))
		return;
	rc = heed__serve_parse_search(req->ctx->alloc, req->args,
	                              req->ctx->page_size, req->now_s, &q, &fts,
	                              &diag);
	if (rc != HEED_OK) {
		heed__free(req->ctx->alloc, fts);
		if (rc == HEED_EINVAL || rc == HEED_ETOOBIG)
			hp_fail(&p, 400,
			        diag.message[0] ? diag.message
			                        : "The search is not valid.");
		else
			hp_fail(&p, 500, "Out of memory.");
		return;
	}
	hp_begin(&p, "Search results");
	hp_raw(&p, "<h1>Search results</h1>\n");
	hp_feed_link(&p, "/feeds/search", NULL);
	hp_search_form(&p, req->args);
	rc = hp_results(&p, &q, "/search", req->args, NULL, &diag);
	heed__free(req->ctx->alloc, fts);
	if (rc != HEED_OK) {
		hp_store_fail(&p, rc, &diag);
		return;
	}
	hp_end(&p, 200);
}

/* ---- /bots ---- */

/* The body of heed page's HTML document, between <main> and </main>: the
 * same text as `heed page`, inside our layout (the document has no
 * inline style, so the Content-Security-Policy needs no exception). */
static bool bots_body(const char *doc, size_t len, const char **body,
                      size_t *body_len)
{
	const char *start = memmem(doc, len, "<main>", 6), *end;

	if (!start)
		return false;
	start += 6;
	end = memmem(start, len - (size_t)(start - doc), "</main>", 7);
	if (!end)
		return false;
	*body = start;
	*body_len = (size_t)(end - start);
	return true;
}

static void bots_steps(struct hpage *p, const struct heed_config *cfg)
{
	const char *domain =
	        cfg->verify_domains.count ? cfg->verify_domains.items[0] : NULL;

	hp_raw(p, "<section id=\"verify-steps\">\n<h2>Checking an address, "
	          "step by step</h2>\n<ol>\n<li>Look up the name of the "
	          "address: <code>host 192.0.2.10</code> or <code>dig -x "
	          "192.0.2.10 +short</code>.</li>\n<li>The name must end in ");
	if (domain) {
		hp_raw(p, "<code>.");
		hp_text(p, domain);
		hp_raw(p, "</code>");
	} else {
		hp_raw(p, "the operator's verification domain (none is "
		          "published yet)");
	}
	hp_raw(p, ".</li>\n<li>Look up that name forward (<code>host "
	          "NAME</code>): it must give the same address back.</li>\n"
	          "<li>Or run <code>heed verify 192.0.2.10</code>, which does "
	          "both.</li>\n</ol>\n</section>\n");
}

void heed__html_bots(const struct heed__serve_request *req,
                     struct heed__serve_response *resp)
{
	const struct heed_config *cfg = req->ctx->config;
	const char *body = NULL;
	size_t len = 0, body_len = 0;
	char *doc = NULL;
	struct hpage p;

	hp_init(&p, req, resp);
	if (!cfg ||
	    heed_verify_page_render(cfg, HEED_VERIFY_PAGE_HTML, req->ctx->alloc,
	                            &doc, &len) != HEED_OK ||
	    !bots_body(doc, len, &body, &body_len)) {
		if (doc)
			heed__free(req->ctx->alloc, doc);
		hp_fail(&p, 500, "The crawler page could not be written.");
		return;
	}
	hp_begin(&p, "About this crawler");
	/* Already escaped by heed_verify_page_render: copied as it is. */
	hp_add(&p, body, body_len);
	heed__free(req->ctx->alloc, doc);
	bots_steps(&p, cfg);
	hp_end(&p, 200);
}
