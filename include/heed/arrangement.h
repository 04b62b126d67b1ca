/*
 * heed/arrangement.h: what a site's owner asked of heed, as the operator
 * records it with `heed sites set HOST` (docs/crawling.md "Arrangements with
 * site owners"). This module is the pure core: it checks and reads the
 * values an operator writes (a delay, a page limit, a mode, path patterns,
 * crawl windows, an endpoint) and answers the crawl's questions about them
 * (is the window open now, may this URL be fetched). It touches no clock,
 * network or store: the store keeps an arrangement
 * (heed/store_arrangements.h), the crawl applies it.
 *
 * An arrangement is keyed by host name: an owner speaks for a host, so
 * every origin of it (its schemes and ports) is under the one arrangement.
 */
#ifndef HEED_ARRANGEMENT_H
#define HEED_ARRANGEMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "heed/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* No arrangement delay is under this: one request per second per host,
 * whatever an owner or operator writes. */
#define HEED_ARRANGEMENT_MIN_DELAY_MS 1000
/* And none over a day: a longer one is a typo, or a pause. */
#define HEED_ARRANGEMENT_MAX_DELAY_MS (86400LL * 1000)
/* Bounds that keep an arrangement small and its checks cheap. */
#define HEED_ARRANGEMENT_MAX_PATTERNS    32
#define HEED_ARRANGEMENT_MAX_PATTERN_LEN 256
#define HEED_ARRANGEMENT_MAX_WINDOWS     8
#define HEED_ARRANGEMENT_MAX_NOTE        2000
#define HEED_ARRANGEMENT_MAX_URL         2000

typedef enum heed_arrangement_mode {
	HEED_ARRANGEMENT_FULL = 0,    /* crawled by every run (the default) */
	HEED_ARRANGEMENT_INCREMENTAL, /* only its sources: sitemaps, feeds,
	                                 the endpoint, what they list */
	HEED_ARRANGEMENT_PAUSED,      /* never contacted, not even robots.txt */
} heed_arrangement_mode;

/* "full", "incremental", "paused". Static. */
const char *heed_arrangement_mode_name(heed_arrangement_mode mode);
/* "full", "incremental" (or "incremental-only"), "paused";
 * HEED_EINVAL for anything else. */
heed_status heed_arrangement_mode_parse(const char *text,
                                        heed_arrangement_mode *mode);

/* What the owner's endpoint is. */
typedef enum heed_arrangement_endpoint_kind {
	HEED_ENDPOINT_SOURCE = 0, /* a feed or sitemap: read as a source */
	HEED_ENDPOINT_OEMBED,     /* an oEmbed endpoint: the pages the site's
	                             sitemaps and feeds list are read through
	                             it (ENDPOINT?url=PAGE&format=json)
	                             instead of their HTML */
} heed_arrangement_endpoint_kind;

/* "source", "oembed". Static. */
const char *
heed_arrangement_endpoint_kind_name(heed_arrangement_endpoint_kind kind);
/* "source" (also "feed", "sitemap"), "oembed"; HEED_EINVAL else. */
heed_status
heed_arrangement_endpoint_kind_parse(const char *text,
                                     heed_arrangement_endpoint_kind *kind);

/*
 * One arrangement. For heed_store_arrangement_get the strings are the
 * store's (heed_store_arrangement_clear frees them); for _put they are the
 * caller's. NULL strings and zero numbers: nothing was asked.
 */
struct heed_arrangement {
	char *host;        /* lower-case host name, the key */
	int64_t delay_ms;  /* 0 or >= HEED_ARRANGEMENT_MIN_DELAY_MS */
	int64_t max_pages; /* pages per run; 0 none */
	heed_arrangement_mode mode;
	char *include;  /* path patterns, one per line; NULL none */
	char *exclude;  /* path patterns, one per line; NULL none */
	char *windows;  /* "01:00-06:00,22:00-23:30" (UTC); NULL always */
	char *endpoint; /* a feed, sitemap or oEmbed URL on the host;
	                   NULL none */
	heed_arrangement_endpoint_kind endpoint_kind;
	char *note;        /* the owner's contact, the date, free text */
	int64_t updated_s; /* when the operator last changed it (Unix s) */
};

/*
 * A delay as written: "5s", "1500ms", "2m", "1h", or plain seconds
 * ("5", "2.5"). A value under HEED_ARRANGEMENT_MIN_DELAY_MS is raised to it
 * and *raised set (the caller says so); over the maximum, or anything
 * unreadable, is HEED_EINVAL with the reason in diag.
 */
heed_status heed_arrangement_parse_delay(const char *text, int64_t *delay_ms,
                                         bool *raised, struct heed_diag *diag);

/* A positive page count ("500"), at most 10,000,000. HEED_EINVAL. */
heed_status heed_arrangement_parse_count(const char *text, int64_t *count,
                                         struct heed_diag *diag);

/*
 * A path pattern in robots.txt's syntax (RFC 9309 2.2.3): it starts with
 * "/" (or "*"), "*" is any run of characters and a final "$" the end of
 * the path; no spaces or control characters, at most
 * HEED_ARRANGEMENT_MAX_PATTERN_LEN bytes. HEED_OK or HEED_EINVAL.
 */
heed_status heed_arrangement_check_pattern(const char *text,
                                           struct heed_diag *diag);

/* A crawl window: minutes of the UTC day, [start, end); end <= start
 * crosses midnight ("22:00-02:00"); "00:00-24:00" is the whole day. */
struct heed_arrangement_window {
	int start_min, end_min;
};

/*
 * Windows as written: "HH:MM-HH:MM" ("1:00-6:00" too), several separated
 * by commas or spaces, at most HEED_ARRANGEMENT_MAX_WINDOWS. Writes *count
 * windows into out (room for HEED_ARRANGEMENT_MAX_WINDOWS). An empty
 * window ("03:00-03:00") or a bad time is HEED_EINVAL with diag.
 */
heed_status heed_arrangement_parse_windows(
        const char *text, size_t len,
        struct heed_arrangement_window out[HEED_ARRANGEMENT_MAX_WINDOWS],
        size_t *count, struct heed_diag *diag);

/* The canonical text of windows ("01:00-06:00,22:00-02:00") into buf;
 * returns buf. */
const char *
heed_arrangement_windows_format(const struct heed_arrangement_window *w,
                                size_t count, char *buf, size_t size);

/*
 * Whether unix_s falls in one of the windows (count 0: always). When it
 * does not, *opens_in_s (may be NULL) gets the seconds until the next one
 * opens (0 when open).
 */
bool heed_arrangement_window_open(const struct heed_arrangement_window *w,
                                  size_t count, int64_t unix_s,
                                  int64_t *opens_in_s);

/*
 * The robots.txt text that says what the patterns allow, for heed's own
 * robots matcher (heed/robots.h, any agent): with includes, "Disallow: /"
 * and an "Allow:" per include; an exclude is a "Disallow:". The longest
 * matching pattern decides, and an include wins a tie (RFC 9309's
 * reading). NULL when there is no pattern, or out of memory (*oom).
 * Free with the allocator.
 */
char *heed_arrangement_rules_text(const struct heed_arrangement *a,
                                  const struct heed_allocator *alloc,
                                  bool *oom);

#ifdef __cplusplus
}
#endif

#endif /* HEED_ARRANGEMENT_H */
