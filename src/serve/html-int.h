/*
 * What the HTML pages (html.c, html_pages.c) share: a page writer that
 * keeps the first error, so a page is written straight through and checked
 * once at the end, and the pieces every page uses (layout, results list,
 * dates). Private to those two files.
 */
#ifndef HEED_SERVE_HTML_INT_H
#define HEED_SERVE_HTML_INT_H

#include "serve/serve-int.h"

struct hpage {
	const struct heed__serve_request *req;
	struct heed__serve_response *resp;
	heed_status rc; /* the first failed append; nothing is written after */
};

void hp_init(struct hpage *p, const struct heed__serve_request *req,
             struct heed__serve_response *resp);
void hp_raw(struct hpage *p, const char *s);
void hp_rawf(struct hpage *p, const char *fmt, ...)
        __attribute__((format(printf, 2, 3)));
/* Escaped text; NULL writes nothing. */
void hp_text(struct hpage *p, const char *s);
void hp_textn(struct hpage *p, const char *s, size_t len);
/* Crawled text in element content: escaped inside <bdi>, so its
 * direction (and any bidi control it holds) stays inside it; NULL writes
 * nothing. */
void hp_bdi(struct hpage *p, const char *s);
void hp_bdin(struct hpage *p, const char *s, size_t len);
/* Percent-encoded path segment or query value. */
void hp_url(struct hpage *p, const char *s);
/* ctx->base_url then path (a literal internal path). */
void hp_href(struct hpage *p, const char *path);
/* <a class=cls rel="nofollow noopener ugc" href=url>text</a> when url is
 * a safe link, else text alone (or url as text when text is NULL); the
 * text isolated as hp_bdi. */
void hp_external(struct hpage *p, const char *cls, const char *url,
                 const char *text);
void hp_int(struct hpage *p, int64_t v); /* 12,345 */
/* <a href="BASE prefix VALUE">TEXT</a>: value percent-encoded, text
 * isolated as hp_bdi; prefix an internal path such as "/tags/". */
void hp_link(struct hpage *p, const char *prefix, const char *value,
             const char *text);
/* "Follow in a feed reader" linked to the Atom feed at prefix + value
 * (value percent-encoded; NULL: prefix alone, then the request's
 * arguments but cursor). */
void hp_feed_link(struct hpage *p, const char *prefix, const char *value);
/* A Unix time as <time datetime="...">2024-03-05 09:00 UTC</time>; "never"
 * for 0 or HEED_STORE_NO_DATE. */
void hp_time(struct hpage *p, int64_t unix_s);

/* The document up to <main id="main">, with title (escaped). */
void hp_begin(struct hpage *p, const char *title);
/* Closes the document and sets status 200 (or 500 when writing failed). */
void hp_end(struct hpage *p, int status);
/* Drops what was written and answers an error page instead. */
void hp_fail(struct hpage *p, int status, const char *message);
/* The answer for a store status that is not HEED_OK: 400 for a search the
 * store refused (diag), 500 otherwise; the body says which. */
void hp_store_fail(struct hpage *p, heed_status rc,
                   const struct heed_diag *diag);

/* The search form, its fields filled from args (may be NULL). */
void hp_search_form(struct hpage *p, const struct heed__serve_args *args);

/* A results list for q, with the count line and the pagination links.
 * link_path is the internal path of this listing ("/search", or
 * "/tags/x" already encoded), args the request's arguments kept in the
 * next-page link (cursor replaced, skip_arg never copied: the tag of a tag
 * page). Returns HEED_OK or the store's status (diag set). */
heed_status hp_results(struct hpage *p, struct heed_search_query *q,
                       const char *link_path,
                       const struct heed__serve_args *args,
                       const char *skip_arg, struct heed_diag *diag);

/* A short list (<ul>) of at most limit pages in sort order. */
heed_status hp_short_list(struct hpage *p, heed_search_sort sort,
                          const char *host, int limit, const char *id);

/* heed_search_tag_fn writing one <li> of a tag list; ud is the page. */
int hp_tag_item(void *ud, const struct heed_search_tag *t);

struct json_object;
/* A record JSON's tags as <ul class="tags"> of links to their pages, at
 * most max, each with its source when sources is set. */
void hp_tags(struct hpage *p, struct json_object *rec, size_t max,
             bool sources);

/* The description and thumbnail of a record JSON (NULL when absent), as
 * json-c strings owned by the returned object (release with
 * json_object_put). */
struct json_object;
struct json_object *hp_record_parse(const char *record_json);
const char *hp_record_value(struct json_object *rec, const char *field);

#endif /* HEED_SERVE_HTML_INT_H */
