/*
 * heed/extract.h: the metadata heed keeps from a fetched document (titles,
 * descriptions, views, tags and technical metadata; see the crawler
 * operator page), the links it may follow, and the robots directives the
 * page and its headers give.
 *
 * Pure: bytes, the page URL and the response headers in; a result out.
 * Nothing is fetched (thumbnails are recorded, never requested), nothing is
 * read from files, the clock or the environment. Every result object keeps
 * all of its strings in one arena released by its one _free function; the
 * input is copied where needed and may be released after the call.
 * docs/metadata.md lists the fields, their sources and their precedence.
 */
#ifndef HEED_EXTRACT_H
#define HEED_EXTRACT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "heed/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The largest HTML body parsed; the rest is ignored (and counted). */
#define HEED_EXTRACT_MAX_HTML_BYTES (5u * 1024 * 1024)
/* Sitemap limits from sitemaps.org: 50,000 URLs and 50 MiB uncompressed. */
#define HEED_SITEMAP_MAX_URLS  50000
#define HEED_SITEMAP_MAX_BYTES (50u * 1024 * 1024)
/* How deep sitemap indexes may point at further indexes (the top is 0). */
#define HEED_SITEMAP_MAX_DEPTH 2
/* Entries kept from one feed. */
#define HEED_FEED_MAX_ENTRIES 10000

/* What a response is, judged from its Content-Type alone, so the engine
 * can decide before reading the body. */
typedef enum heed_content_kind {
	HEED_CONTENT_UNKNOWN = 0, /* no or unparsable Content-Type */
	HEED_CONTENT_HTML,        /* text/html */
	HEED_CONTENT_XHTML,       /* application/xhtml+xml */
	HEED_CONTENT_FEED,        /* RSS, Atom (application/rss+xml ...) or
	                           * JSON Feed (application/feed+json) */
	HEED_CONTENT_XML,         /* generic XML: a sitemap or a feed */
	HEED_CONTENT_TEXT,        /* text/plain: a text sitemap */
	HEED_CONTENT_GZIP,        /* application/gzip: a sitemap.xml.gz */
	HEED_CONTENT_MEDIA,       /* image, audio, video, font: never read */
	HEED_CONTENT_OTHER,       /* anything else heed has no use for */
	HEED_CONTENT_JSON,        /* application/json, +json: a JSON Feed */
} heed_content_kind;

/* Classifies a Content-Type header value ("text/html; charset=utf-8");
 * NULL gives HEED_CONTENT_UNKNOWN. */
heed_content_kind heed_extract_content_kind(const char *content_type);
/* "html", "xhtml", "feed", ... Static. */
const char *heed_content_kind_name(heed_content_kind kind);

/* Where a value was found. */
typedef enum heed_source {
	HEED_SOURCE_NONE = 0,
	HEED_SOURCE_JSONLD,    /* <script type="application/ld+json"> */
	HEED_SOURCE_OG,        /* Open Graph: og:*, article:*, video:* */
	HEED_SOURCE_TWITTER,   /* twitter:* cards */
	HEED_SOURCE_META,      /* <meta name=...> (description, DC, ...) */
	HEED_SOURCE_MICRODATA, /* itemprop attributes */
	HEED_SOURCE_TITLE,     /* the <title> element */
	HEED_SOURCE_H1,        /* the page's only <h1> */
	HEED_SOURCE_HTML,      /* <html lang>, <meta charset>, rel=tag,
	                        * <time datetime>, theme classes (byline) */
	HEED_SOURCE_LINK,      /* rel=canonical, rel=author, rel=image_src */
	HEED_SOURCE_HTTP,      /* a response header */
	HEED_SOURCE_FEED,      /* an RSS, Atom or JSON Feed entry */
	HEED_SOURCE_SITEMAP,   /* a sitemap entry and its extensions */
	HEED_SOURCE_OEMBED,    /* the page's oEmbed endpoint's answer */
	HEED_SOURCE_URL,       /* the page's URL (a date in its path) */
} heed_source;

/* "jsonld", "og", "twitter", "meta", ... Static. */
const char *heed_source_name(heed_source source);

/* A value and where it came from; value is NULL when nothing was found. */
struct heed_field {
	const char *value;
	heed_source source;
};

/* Absent numbers: views, duration and max_snippet use -1; dates use
 * HEED_NO_DATE. */
#define HEED_NO_DATE INT64_MIN

/* What a page says about itself. Dates are ISO 8601 ("2024-05-01" or
 * "2024-05-01T10:00:00Z", converted to UTC), with Unix seconds beside. */
struct heed_record {
	struct heed_field title;
	struct heed_field description;
	struct heed_field author;      /* every author, joined by "; " */
	struct heed_field canonical;   /* an absolute, normalised URL */
	struct heed_field language;    /* BCP 47: "en-GB" */
	struct heed_field published;   /* first publication */
	struct heed_field modified;    /* last change the page declares */
	struct heed_field thumbnail;   /* absolute URL, never fetched */
	struct heed_field og_type;     /* "video.other", "article" */
	struct heed_field schema_type; /* JSON-LD or microdata type */
	struct heed_field site_name;   /* also cut from the title ("title") */
	struct heed_field publisher;   /* who publishes the page */
	struct heed_field duration;    /* the raw value: "PT12M34S", "754" */
	struct heed_field charset;     /* what the body was decoded from */
	int64_t published_s, modified_s;
	int64_t duration_s; /* -1 when absent */
	int64_t views;      /* exact; -1 when absent */
	heed_source views_source;
	const struct heed_field *tags; /* de-duplicated, case-folded */
	size_t tag_count;
	/* author split into names, several kept several: same source each. */
	const struct heed_field *authors;
	size_t author_count;
	/* From the response. */
	const char *content_type; /* media type only: "text/html" */
	const char *last_modified;
	int64_t last_modified_s;
	const char *etag;
	size_t byte_size; /* body bytes received */
	/* Counters for logs: bad input is skipped, never fatal. */
	unsigned jsonld_blocks, jsonld_errors;
	bool truncated; /* the body was cut at HEED_EXTRACT_MAX_HTML_BYTES */
};

/* A link the page offers. Links from media elements (img, video, audio,
 * source, track, embed, object, picture) and to media files are never
 * returned: media is never fetched. */
struct heed_link {
	const char *url; /* absolute, normalised */
	const char *rel; /* "a", "next", "prev", "alternate" */
	bool nofollow;   /* rel=nofollow, ugc or sponsored */
	bool feed;       /* <link rel=alternate type=rss/atom/feed+json> */
};

/* Robots directives from <meta name=robots>, <meta name=AGENT> and
 * X-Robots-Tag, merged: the most restrictive wins. */
struct heed_extract_robots {
	bool noindex, nofollow, noarchive, nosnippet, noimageindex;
	int64_t max_snippet;         /* characters; -1 when unlimited */
	int64_t unavailable_after_s; /* Unix seconds; HEED_NO_DATE if none */
	unsigned count;              /* directives that applied */
};

/* Sets d to "everything allowed". */
void heed_extract_robots_init(struct heed_extract_robots *d);

/*
 * Merges one X-Robots-Tag header value into d (RFC-less, as Google and Bing
 * document it): comma-separated directives, each group optionally prefixed
 * by "AGENT:" (then applying only when AGENT equals agent, compared without
 * case). agent may be NULL (only unprefixed directives apply). Never fails:
 * unknown directives are skipped.
 */
void heed_extract_robots_header(struct heed_extract_robots *d,
                                const char *value, size_t len,
                                const char *agent);

/* One response header, as the engine received it. */
struct heed_header {
	const char *name, *value;
};

/* What extraction reads. The strings need only live during the call. */
struct heed_extract_input {
	const char *body; /* need not be NUL-terminated */
	size_t body_len;
	const char *url; /* the final URL of the response */
	const struct heed_header *headers;
	size_t header_count;
	/* Overrides the Content-Type header when not NULL. */
	const char *content_type;
	/* Our robots token ("heed"): <meta name=AGENT> and "AGENT:" prefixes
	 * in X-Robots-Tag apply to it. NULL: only the generic ones. */
	const char *agent;
	/* For sitemaps: how many indexes led here (0 for robots.txt's). */
	unsigned sitemap_depth;
};

typedef struct heed_page heed_page;

/*
 * Extracts the record, links and robots directives of an HTML or XHTML
 * page. The body is converted to UTF-8 (charset from the Content-Type
 * header, else a BOM, else <meta>, else UTF-8 or windows-1252), NUL bytes
 * and invalid sequences become U+FFFD, and the first
 * HEED_EXTRACT_MAX_HTML_BYTES are parsed in one call. alloc may be NULL.
 * On success *out is a page the caller frees with heed_page_free().
 * Returns HEED_OK, HEED_EINVAL (in->url is not an absolute http(s) URL) or
 * HEED_ENOMEM. Broken markup and broken JSON-LD are not errors.
 */
heed_status heed_extract_html(heed_page **out,
                              const struct heed_extract_input *in,
                              const struct heed_allocator *alloc,
                              struct heed_diag *diag);

/* The accessors' results live as long as the page. */
const struct heed_record *heed_page_record(const heed_page *p);
size_t heed_page_link_count(const heed_page *p);
/* NULL when i >= heed_page_link_count(p). */
const struct heed_link *heed_page_link(const heed_page *p, size_t i);
const struct heed_extract_robots *heed_page_robots(const heed_page *p);

/* The formats of an oEmbed endpoint (oembed.com, section 4). */
typedef enum heed_oembed_format {
	HEED_OEMBED_JSON = 0, /* type="application/json+oembed" */
	HEED_OEMBED_XML = 1,  /* type="text/xml+oembed" */
} heed_oembed_format;

/*
 * The page's oEmbed endpoint of that format, from its first
 * <link rel="alternate" type="application/json+oembed" href> (or
 * "text/xml+oembed"): absolute, resolved against <base href>, never
 * fetched by extraction. NULL when the page names none. Such a link is
 * not among heed_page_link()'s: it is a metadata source, not a page.
 */
const char *heed_page_oembed(const heed_page *p, heed_oembed_format format);
/* The endpoint to read, JSON preferred (it carries the same members and
 * costs less to parse); *format (may be NULL) gets its format. NULL when
 * the page names none. */
const char *heed_page_oembed_best(const heed_page *p,
                                  heed_oembed_format *format);
/* Frees p; NULL does nothing. */
void heed_page_free(heed_page *p);

/* The largest oEmbed answer read; a longer one is refused whole. */
#define HEED_OEMBED_MAX_BYTES (1024u * 1024)

/*
 * An oEmbed 1.0 answer (oembed.com, 2.3.4): what a page's provider says
 * about it. Absent strings are NULL, absent numbers -1. URLs are absolute
 * and normalised (resolved against the endpoint's URL), never fetched.
 * The "html" member is never kept (markup to embed, not metadata), nor a
 * photo's "url" (the media itself).
 */
struct heed_oembed {
	heed_oembed_format format; /* what the body was */
	const char *type;          /* "photo", "video", "link" or "rich" */
	const char *version;       /* "1.0" */
	const char *title;
	const char *author_name, *author_url;
	const char *provider_name, *provider_url;
	const char *thumbnail_url;
	int64_t thumbnail_width, thumbnail_height;
	int64_t width, height; /* of the embedded resource, pixels */
	int64_t cache_age;     /* seconds the provider asks to cache it */
	/* Known members skipped: the wrong type, too long, not a URL. */
	unsigned skipped;
};

/*
 * Parses an oEmbed answer, JSON or XML (told apart by the body itself:
 * '{' or '<' after an optional BOM), read from in->body; in->url is the
 * endpoint's URL (relative URLs resolve against it). Text members are
 * sanitised to UTF-8 with white space collapsed, at most 4,096 bytes each;
 * sizes and cache_age are non-negative integers (numbers or digit
 * strings). On success *out is an answer the caller frees with
 * heed_oembed_free(). Returns HEED_OK, HEED_EINVAL (bad in->url),
 * HEED_ETOOBIG (over HEED_OEMBED_MAX_BYTES), HEED_EPARSE (not a JSON
 * object or an <oembed> document, no version 1.x, no known type; diag says
 * which) or HEED_ENOMEM.
 */
heed_status heed_extract_oembed(struct heed_oembed **out,
                                const struct heed_extract_input *in,
                                const struct heed_allocator *alloc,
                                struct heed_diag *diag);
/* Frees o; NULL does nothing. */
void heed_oembed_free(struct heed_oembed *o);

/*
 * Writes r as the record's one JSON shape: what a crawl stores with the
 * page, what `heed export` writes as "record", what the public index's API
 * serves and what `heed extract` prints (docs/metadata.md, "The record as
 * JSON"). In order: the fields found, each {"value": ..., "source": ...}
 * (title ... charset, as in struct heed_record); "views" (a number) and
 * "views_source"; "duration_s"; "authors" (when there are any) and "tags"
 * (always), arrays of {value, source}; then "content_type",
 * "last_modified", "etag", "byte_size", "links" (link_count, which is
 * heed_page_link_count() for a page), "jsonld_blocks", "jsonld_errors"
 * and "truncated". Absent strings, -1 numbers, zero counters and a false
 * "truncated" are left out. Strings are written as they are (extraction
 * gives UTF-8) with quotes, backslashes and control characters escaped.
 *
 * On HEED_OK *out is one compact JSON object (no newline), NUL-terminated
 * and *len bytes long; the caller frees it with alloc's free_fn (alloc
 * NULL: the default allocator, free()). Otherwise *out is NULL and the
 * result is HEED_EINVAL (r is NULL) or HEED_ENOMEM (HEED_ETOOBIG past a
 * size ceiling no extracted record reaches).
 */
heed_status heed_extract_record_json(const struct heed_record *r,
                                     size_t link_count,
                                     const struct heed_allocator *alloc,
                                     char **out, size_t *len);

typedef enum heed_feed_kind {
	HEED_FEED_UNKNOWN = 0,
	HEED_FEED_RSS2,          /* <rss> (also 0.9x) */
	HEED_FEED_RSS1,          /* <rdf:RDF> */
	HEED_FEED_ATOM,          /* <feed> */
	HEED_FEED_SITEMAP,       /* <urlset> */
	HEED_FEED_SITEMAP_INDEX, /* <sitemapindex>: entries are sitemaps */
	HEED_FEED_SITEMAP_TEXT,  /* one URL per line */
	HEED_FEED_JSON,          /* JSON Feed 1 or 1.1 (jsonfeed.org) */
} heed_feed_kind;

/* "rss2", "rss1", "atom", "sitemap", "sitemapindex", "text", "json".
 * Static. */
const char *heed_feed_kind_name(heed_feed_kind kind);

/* One feed item or sitemap URL. Absent strings are NULL. */
struct heed_feed_entry {
	const char *url; /* absolute, normalised */
	const char *title, *description, *thumbnail;
	const char *author;              /* every author, joined by "; " */
	const char *published, *updated; /* ISO 8601; updated = lastmod */
	int64_t published_s, updated_s;  /* HEED_NO_DATE when absent */
	const char *const *tags;         /* categories, video/news tags */
	size_t tag_count;
	int64_t views;                /* video:view_count; -1 when absent */
	int64_t duration_s;           /* video:duration; -1 when absent */
	const char *news_publication; /* news:publication/news:name */
};

typedef struct heed_feed heed_feed;

/*
 * Parses a feed (RSS 2.0, RSS 1.0, Atom, JSON Feed 1 and 1.1) or a sitemap
 * (urlset, sitemapindex, plain text), gzip-compressed or not (detected by
 * its magic bytes). A body whose first character is "{" is read as a JSON
 * Feed: its "version" must start with "https://jsonfeed.org/version/",
 * unless the Content-Type is application/feed+json, which names the
 * format itself. At most HEED_SITEMAP_MAX_BYTES are decompressed and
 * HEED_SITEMAP_MAX_URLS entries kept (HEED_FEED_MAX_ENTRIES for feeds);
 * past either, the result is marked truncated. A sitemap index deeper than
 * HEED_SITEMAP_MAX_DEPTH yields no entries and HEED_EDENIED. Entries with
 * a URL that is not http(s) are skipped and counted. On success *out is a
 * feed the caller frees with heed_feed_free(). Returns HEED_OK,
 * HEED_EINVAL (bad in->url), HEED_EPARSE (not a feed or sitemap: no
 * entries and no known root), HEED_EDENIED or HEED_ENOMEM.
 */
heed_status heed_extract_feed(heed_feed **out,
                              const struct heed_extract_input *in,
                              const struct heed_allocator *alloc,
                              struct heed_diag *diag);

heed_feed_kind heed_feed_kind_get(const heed_feed *f);
/* The feed's own title, or NULL (sitemaps have none). */
const char *heed_feed_title(const heed_feed *f);
size_t heed_feed_entry_count(const heed_feed *f);
/* NULL when i >= heed_feed_entry_count(f). Lives as long as f. */
const struct heed_feed_entry *heed_feed_entry(const heed_feed *f, size_t i);
/* The next page of the feed (JSON Feed's next_url), an absolute http(s)
 * URL, or NULL. */
const char *heed_feed_next(const heed_feed *f);
/* Entries skipped for a bad or missing URL (or not an object in JSON). */
unsigned heed_feed_skipped(const heed_feed *f);
/* True when a size or count limit cut the document. */
bool heed_feed_truncated(const heed_feed *f);
/* Frees f; NULL does nothing. */
void heed_feed_free(heed_feed *f);

#ifdef __cplusplus
}
#endif

#endif /* HEED_EXTRACT_H */
