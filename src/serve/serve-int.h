/*
 * Internals of the serve module (`heed serve`), in layers; each file calls
 * only those above it:
 *
 *   pure, no I/O:  escape.c (HTML, URL and JSON-safe text), query.c (what a
 *                  person typed into an FTS5 expression; search arguments;
 *                  cursors), svg.c (bar charts); what a page's
 *                  permissions let us show is src/common/permit.c,
 *                  which the crawl reads too
 *   pages:         html.c (the HTML pages), api.c (the JSON API),
 *                  openapi.c (its OpenAPI document), route.c (path to page)
 *   shell:         metrics.c (counters for /metrics), http.c
 *                  (libmicrohttpd, threads, headers, limits, access log)
 *
 * The pages take a request (path, arguments, a store, the time) and fill a
 * response; they never touch a socket, so the unit tests call them on a
 * real store without a server.
 */
#ifndef HEED_SERVE_INT_H
#define HEED_SERVE_INT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/common-int.h"
#include "heed/config.h"
#include "heed/store.h"
#include "heed/store_search.h"

/* ---- escape.c: every byte from a crawled page or an IRC server is
 * hostile. Each function appends to b and returns heed__buf_add's status.
 * Invalid UTF-8 becomes U+FFFD (one per bad byte, as the extractor does);
 * C0 controls other than tab and newline, and DEL, are dropped. */

/* Text for HTML element content and double- or single-quoted attribute
 * values: & < > " ' are written as character references, and the
 * explicit bidi controls of s are balanced (UAX #9): a PDF or PDI with
 * no opener is dropped, an opener left open is closed at the end. Put
 * crawled text in an isolating element (<bdi>) as well, so its direction
 * stays its own. */
heed_status heed__html_escape(struct heed_buf *b, const char *s, size_t len);
/* Percent-encodes everything but RFC 3986's unreserved characters, for a
 * path segment or a query value. */
heed_status heed__url_encode(struct heed_buf *b, const char *s, size_t len);
/* Valid UTF-8 with controls dropped, as above, for a JSON string (which
 * heed__json_string then escapes). */
heed_status heed__utf8_clean(struct heed_buf *b, const char *s, size_t len);
/* Whether url may be rendered as a link: an absolute http or https URL
 * with a host, and no byte below 0x21, no quote, '<', '>' or '\\'. Any
 * other scheme (javascript:, data:, ...) is never a link. */
bool heed__serve_safe_link(const char *url);
/* Where to cut s (len bytes) to show at most max characters: the end of
 * the last word that fits when one ends in the second half of the cut,
 * else at a character boundary (a 20,000-character word); len when s is
 * short enough. The caller adds the ellipsis. */
size_t heed__serve_cut_at_word(const char *s, size_t len, size_t max);
/* Copies the len bytes of an IRC text (a topic) to dst without its mIRC
 * formatting codes (bold, colour \x03NN[,NN], hex colour \x04RRGGBB
 * [,RRGGBB], italics, underline, strike, monospace, reverse, reset), so
 * no stray colour digits show. dst has room for len bytes (it may be
 * src); returns the bytes written. */
size_t heed__irc_strip(char *dst, const char *src, size_t len);
/* The same into a new buffer the caller frees with a (NUL-terminated,
 * *out_len bytes before the NUL); NULL when src is NULL or on ENOMEM. */
char *heed__irc_strip_dup(const struct heed_allocator *a, const char *src,
                          size_t len, size_t *out_len);

/* ---- query.c */

/* The decoded arguments of a request (the query string), in order. The
 * shell keeps at most HEED__SERVE_MAX_ARGS; a request with more is
 * refused (400). */
#define HEED__SERVE_MAX_ARGS 32
struct heed__serve_args {
	size_t count;
	struct {
		const char *name;
		const char *value; /* "" for "?flag" */
	} arg[HEED__SERVE_MAX_ARGS];
};

/* The value of the first argument named name, or NULL. */
const char *heed__serve_arg(const struct heed__serve_args *args,
                            const char *name);

/* Longest search text a person may type, in bytes, and most terms. */
#define HEED__SERVE_MAX_QUERY 256
#define HEED__SERVE_MAX_TERMS 16

/*
 * Turns what a person typed into an FTS5 expression heed_store_search can
 * run: words are ANDed; "a phrase" in double quotes; -word excludes it;
 * OR between two terms; word* is a prefix; site: tag: lang: are not
 * special here (the search form has filters). Every term is written as an
 * FTS5 string, so FTS5's own syntax characters in what a person typed are
 * only text. Words are what FTS5's unicode61 tokenizer would make of them.
 * On HEED_OK, *fts is the expression (the caller frees it with a), or NULL
 * when text holds no word (search everything). HEED_EINVAL with a sentence
 * in diag for text that cannot be searched (only exclusions), HEED_ETOOBIG
 * past HEED__SERVE_MAX_QUERY bytes or HEED__SERVE_MAX_TERMS terms,
 * HEED_ENOMEM.
 */
heed_status heed__serve_fts_query(const struct heed_allocator *a,
                                  const char *text, char **fts,
                                  struct heed_diag *diag);

/*
 * The words of a search, to mark where a result shows them (the title and
 * the snippet of a results page). Each word a search looks for (not an
 * excluded one, not an operator) marks every word of the text that starts
 * with it, case folded in ASCII: "film" marks "Films", as the stemmer
 * found it; a word of a script written without spaces marks each place
 * it occurs inside a run. At most HEED__SERVE_MAX_TERMS words are kept.
 */
struct heed__serve_marks {
	struct {
		char text[HEED__SERVE_MAX_QUERY];
		size_t len;
		bool inside; /* a script without spaces: found inside a run */
	} word[HEED__SERVE_MAX_TERMS];
	size_t n;
};

/* The marks of the search text q (NULL: none). */
void heed__serve_marks_init(struct heed__serve_marks *m, const char *q);

/* The first span of s[from..len) that m marks: true with its bytes in
 * *start and *end, false when there is none. Spans never cut a UTF-8
 * sequence. */
bool heed__serve_mark_next(const struct heed__serve_marks *m, const char *s,
                           size_t len, size_t from, size_t *start, size_t *end);

/*
 * Reads the search arguments (docs/serve.md, "Search"): q, site, tag,
 * lang, from, to (YYYY-MM-DD or a full ISO 8601 date), min_views,
 * max_views, sort (relevance, views, date, fetched), cursor, limit (1 to
 * 100; default page_size) into q. q's strings point into args, except
 * q->match, q->tag (case-folded as the extractor folds tags) and q->host
 * (in lower case, as host keys are stored), which point into *fts_out (the
 * caller frees it with a). now_s is q's time. HEED_EINVAL with a sentence
 * naming the argument for a value that is not of its form (the page answers 400
 * with it).
 */
heed_status heed__serve_parse_search(const struct heed_allocator *a,
                                     const struct heed__serve_args *args,
                                     int page_size, int64_t now_s,
                                     struct heed_search_query *q,
                                     char **fts_out, struct heed_diag *diag);

/* A cursor as text for a link ("next page"), and back. The text carries
 * the sort it was made for: parsing it for another sort, or text that is
 * not a cursor, is HEED_EINVAL. heed__serve_cursor_format writes at most
 * HEED__SERVE_CURSOR_SIZE bytes with the NUL. */
#define HEED__SERVE_CURSOR_SIZE 64
void heed__serve_cursor_format(heed_search_sort sort,
                               const struct heed_search_cursor *c,
                               char out[HEED__SERVE_CURSOR_SIZE]);
heed_status heed__serve_cursor_parse(const char *text, heed_search_sort sort,
                                     struct heed_search_cursor *c);

/* ---- svg.c: a small bar chart, drawn by heed, no script. */
struct heed__svg_bar {
	const char *label; /* under the bar (escaped); may be NULL */
	int64_t value;
};

/* Appends an <svg role="img"> of n bars with its title (escaped) as
 * <title> and aria-label, and each value as a <title> of its bar. */
heed_status heed__svg_bars(struct heed_buf *b, const char *title,
                           const struct heed__svg_bar *bars, size_t n);

/* ---- irc_sort.c: the orders of the IRC lists, the same on their pages
 * and in their JSON (?sort=). The first of each table is the default. */
struct heed__irc_sort {
	const char *name;  /* in ?sort= */
	const char *label; /* the page's column header */
	const char *field; /* the JSON field of an item it sorts on */
	bool number;       /* a count: largest first, unknown (-1) last,
	                      then by name; else by name, A to Z (bytes) */
};
#define HEED__IRC_NET_SORTS  5
#define HEED__IRC_CHAN_SORTS 2
/* Networks: users, name (the key), servers, channels, visit (the last). */
extern const struct heed__irc_sort heed__irc_net_sorts[HEED__IRC_NET_SORTS];
/* A network's channels: users, name. */
extern const struct heed__irc_sort heed__irc_chan_sorts[HEED__IRC_CHAN_SORTS];

/* The index of name among the n keys: 0 (the default) for NULL or "",
 * n for a name that is none of them. */
size_t heed__irc_sort_find(const char *name, const struct heed__irc_sort *keys,
                           size_t n);
/* <0, 0, >0 as row a comes before, with, after row b in key's order;
 * counts of -1 are unknown, names break ties (they are unique). */
int heed__irc_sort_cmp(const struct heed__irc_sort *key, int64_t a_count,
                       const char *a_name, int64_t b_count, const char *b_name);

/* ---- metrics.c: counters shared by the request threads (atomics). */
enum heed__serve_route_kind {
	HEED__ROUTE_HOME,
	HEED__ROUTE_SEARCH,
	HEED__ROUTE_RECORD,
	HEED__ROUTE_SITE,
	HEED__ROUTE_TAG,
	HEED__ROUTE_IRC,
	HEED__ROUTE_BOTS,
	HEED__ROUTE_API,
	HEED__ROUTE_STATIC,
	HEED__ROUTE_OPS, /* /healthz, /metrics */
	HEED__ROUTE_OTHER,
	HEED__ROUTE_KINDS
};

/* Latency buckets of the histogram, in microseconds (upper bounds). */
#define HEED__SERVE_LATENCY_BUCKETS 12
struct heed__serve_metrics {
	atomic_uint_fast64_t requests[HEED__ROUTE_KINDS][6]; /* by status
	                                                       class 0xx-5xx */
	atomic_uint_fast64_t latency[HEED__ROUTE_KINDS]
	                            [HEED__SERVE_LATENCY_BUCKETS + 1];
	atomic_uint_fast64_t latency_sum_us[HEED__ROUTE_KINDS];
	atomic_uint_fast64_t bytes_sent;
	int64_t started_s;
};

const char *heed__serve_route_name(enum heed__serve_route_kind kind);
void heed__serve_metrics_observe(struct heed__serve_metrics *m,
                                 enum heed__serve_route_kind kind, int status,
                                 uint64_t micros, size_t bytes);

/* Visits in an IRC network's history, on its page and in the API. */
#define HEED__SERVE_IRC_HISTORY 60

/* ---- counts.c: what the home pages count (HTML and JSON alike). */

/* Counts stop here: counting further costs time and says nothing a
 * person needs ("more than 10,000"). */
#define HEED__SERVE_COUNT_CAP 10000

struct heed__serve_counts {
	int64_t pages, sites, tags, networks; /* each at most the cap */
};

/* The shown pages, sites with shown pages, tags and listed IRC networks
 * at now_s. HEED_OK or the store's status. */
heed_status heed__serve_counts(heed_store *store, int64_t now_s,
                               struct heed__serve_counts *c);

/* *known: whether tag (folded as heed__serve_parse_search folds it) is a
 * tag of any page shown at now_s. HEED_OK or the store's status. */
heed_status heed__serve_tag_known(heed_store *store, const char *tag,
                                  int64_t now_s, bool *known);

/* The record id a path names: plain digits without a leading zero, so a
 * record has one address. False for anything else. */
bool heed__serve_record_id(const char *s, int64_t *id);

/* ---- the pages (html.c, api.c, openapi.c), dispatched by route.c */

/* What every page needs, shared and read-only while the server runs. */
struct heed__serve_ctx {
	const struct heed_config *config; /* identity for /bots; [serve] */
	const char *base_url; /* prefix of every link, without the trailing
	                         '/'; "" for links relative to the host */
	int page_size;        /* results per page by default */
	const struct heed_allocator *alloc;
	struct heed__serve_metrics *metrics;
	const char *store_path; /* for the store size in /metrics */
};

struct heed__serve_request {
	const struct heed__serve_ctx *ctx;
	const char *method; /* "GET" or "HEAD"; others never reach a page */
	const char *path;   /* percent-decoded, starts with '/' */
	const char *host;   /* the Host header field, NULL when absent: for
	                       the absolute addresses of feeds when
	                       base_url is "" */
	const struct heed__serve_args *args;
	heed_store *store; /* this thread's read-only connection */
	int64_t now_s;
};

/* Upper bound of a response body: a page that would be larger answers 500
 * ("page too large") instead of growing without end. */
#define HEED__SERVE_MAX_BODY (8u << 20)
/* Room for a redirect's address: a request target is at most 2 KiB, and
 * re-encoding its arguments can only grow it a little. */
#define HEED__SERVE_MAX_LOCATION 4096

struct heed__serve_response {
	int status;               /* HTTP status */
	const char *content_type; /* static string */
	struct heed_buf body;     /* ceiling HEED__SERVE_MAX_BODY */
	enum heed__serve_route_kind kind;
	bool cache; /* may be cached for a minute (static
	               files, the OpenAPI document) */
	/* Where a redirect (303) sends the client, the Location header
	 * field; "" for any other answer. */
	char location[HEED__SERVE_MAX_LOCATION];
};

/* Fills resp for req: the route table (docs/serve.md, "Pages"). Always
 * sets a status and a body; a store error is a 500 with a short page that
 * says so, a bad argument a 400 that names it, an unknown path a 404. */
void heed__serve_route(const struct heed__serve_request *req,
                       struct heed__serve_response *resp);

/* An error answer in the form the path asks for (route.c): JSON under
 * /api/ (api_message), an HTML page elsewhere (html_message). For the
 * shell's own refusals too; req needs only ctx and path. */
void heed__serve_error(const struct heed__serve_request *req, int status,
                       const char *html_message, const char *api_message,
                       struct heed__serve_response *resp);

/* The pages in HTML (html.c) and their JSON mirrors (api.c): each fills
 * resp. rest is what follows the route's prefix ("12" for "/records/12"),
 * already percent-decoded; NULL for routes that take none. */
void heed__html_home(const struct heed__serve_request *req,
                     struct heed__serve_response *resp);
void heed__html_search(const struct heed__serve_request *req,
                       struct heed__serve_response *resp);
void heed__html_record(const struct heed__serve_request *req, const char *rest,
                       struct heed__serve_response *resp);
void heed__html_sites(const struct heed__serve_request *req,
                      struct heed__serve_response *resp);
void heed__html_site(const struct heed__serve_request *req, const char *rest,
                     struct heed__serve_response *resp);
void heed__html_tags(const struct heed__serve_request *req,
                     struct heed__serve_response *resp);
void heed__html_tag(const struct heed__serve_request *req, const char *rest,
                    struct heed__serve_response *resp);
void heed__html_irc(const struct heed__serve_request *req,
                    struct heed__serve_response *resp);
void heed__html_irc_network(const struct heed__serve_request *req,
                            const char *rest,
                            struct heed__serve_response *resp);
void heed__html_bots(const struct heed__serve_request *req,
                     struct heed__serve_response *resp);
/* An error page in HTML: status and a sentence (escaped). */
void heed__html_error(const struct heed__serve_request *req, int status,
                      const char *message, struct heed__serve_response *resp);

void heed__api_home(const struct heed__serve_request *req,
                    struct heed__serve_response *resp);
void heed__api_search(const struct heed__serve_request *req,
                      struct heed__serve_response *resp);
void heed__api_record(const struct heed__serve_request *req, const char *rest,
                      struct heed__serve_response *resp);
void heed__api_sites(const struct heed__serve_request *req,
                     struct heed__serve_response *resp);
void heed__api_site(const struct heed__serve_request *req, const char *rest,
                    struct heed__serve_response *resp);
void heed__api_tags(const struct heed__serve_request *req,
                    struct heed__serve_response *resp);
void heed__api_tag(const struct heed__serve_request *req, const char *rest,
                   struct heed__serve_response *resp);
void heed__api_irc(const struct heed__serve_request *req,
                   struct heed__serve_response *resp);
void heed__api_irc_network(const struct heed__serve_request *req,
                           const char *rest, struct heed__serve_response *resp);
void heed__api_bots(const struct heed__serve_request *req,
                    struct heed__serve_response *resp);
/* {"error": {"status": N, "message": "..."}} */
void heed__api_error(const struct heed__serve_request *req, int status,
                     const char *message, struct heed__serve_response *resp);
/* The OpenAPI 3.1 document of /api/v1 (openapi.c). */
void heed__api_openapi(const struct heed__serve_request *req,
                       struct heed__serve_response *resp);

/* Atom feeds (feed.c): /feeds/search (the search arguments),
 * /feeds/sites/HOST, /feeds/tags/TAG; newest fetched first. And the
 * OpenSearch description at /opensearch.xml. */
void heed__feed_search(const struct heed__serve_request *req,
                       struct heed__serve_response *resp);
void heed__feed_site(const struct heed__serve_request *req, const char *rest,
                     struct heed__serve_response *resp);
void heed__feed_tag(const struct heed__serve_request *req, const char *rest,
                    struct heed__serve_response *resp);
void heed__opensearch(const struct heed__serve_request *req,
                      struct heed__serve_response *resp);

/* The stylesheet at /static/heed.css (html.c): no inline styles anywhere,
 * so the Content-Security-Policy can forbid them. */
void heed__html_stylesheet(const struct heed__serve_request *req,
                           struct heed__serve_response *resp);

/* /metrics (metrics.c): Prometheus text format 0.0.4. */
void heed__serve_metrics_page(const struct heed__serve_request *req,
                              struct heed__serve_response *resp);

#endif /* HEED_SERVE_INT_H */
