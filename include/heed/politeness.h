/*
 * heed/politeness.h: when heed may send the next request to a host, pure.
 * This module is the one authority for courtesy: every request heed sends,
 * robots.txt, sitemaps and feeds included, starts only when
 * heed_polite_begin() says READY, and begin() refuses a start that would
 * break a rule, so no caller can break one by construction.
 *
 * The rules (ARCHITECTURE.md "Rules that hold everywhere";
 * docs/crawling.md "Politeness" explains them for operators):
 * - One request in flight per host, and no request to a host starts
 *   sooner than its delay after heed knew the server had the previous one
 *   (its answer's first byte; the end of an attempt that got none).
 *   The delay is the largest of: 1 second (the operator page's "Maximum:
 *   1 request per second"), robots.txt's Crawl-delay (up to a cap, above
 *   which the site is skipped), latency_factor times the duration of the
 *   host's last answer (a slow site gets at least as much rest as the
 *   work it did for heed), and the error back-off: each 5xx, 429 or
 *   broken answer in a row doubles the delay (up to error_delay_max_ms);
 *   each good answer halves it again.
 * - Retry-After (seconds or an HTTP date, on any 5xx or 429) holds every
 *   request to the host until then, robots.txt included, at most
 *   backoff_max_s; the deadline is rounded up to the second. The back-off
 *   (level and deadline) is kept in Unix seconds so that the caller can
 *   store it and restore it after a restart.
 * - An attempt that never connected sent no request: it does not count.
 * - Per IP address, so that the many host names of one server (shared
 *   hosting, CDNs) share its capacity: requests in flight to an address
 *   are bounded by a window that follows the server (additive increase,
 *   multiplicative decrease, as TCP does): it grows by one request per
 *   window of fast, clean answers while the window is in use, and halves
 *   (at most once per round trip) on a 5xx, a 429, a timeout, a reset, a
 *   refused connection, or an answer whose time to first byte is slow:
 *   more than twice its host's best (the address's usual time for a
 *   host's first answer) plus slow_ms. Like delay-based congestion
 *   control (TCP Vegas) it also watches the queue build before that: each
 *   answer's time over its host's best, smoothed, against that signal's
 *   best recent level; the window grows only while they agree (within
 *   a quarter) and shrinks by one per round trip once the signal is half
 *   again above its best. It stays between 1 and
 *   address_concurrency. An optional fixed delay between starts to one
 *   address comes on top.
 *
 * The module keeps a table of hosts and addresses; it reads no clock: every
 * call takes the time (monotonic milliseconds for delays, Unix seconds for
 * the back-off that outlives the process).
 */
#ifndef HEED_POLITENESS_H
#define HEED_POLITENESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "heed/common.h"

#ifdef __cplusplus
extern "C" {
#endif

struct heed_polite_options {
	int64_t default_delay_ms;      /* per host, the floor; 1000 */
	int64_t crawl_delay_cap_ms;    /* longer Crawl-delay: skip; 30000 */
	unsigned latency_factor;       /* delay >= this x last answer's
	                                  duration; 2 (0: off) */
	int64_t error_delay_max_ms;    /* the error back-off's doubling stops
	                                  here; 300000 */
	int64_t backoff_max_s;         /* the most of a Retry-After honoured;
	                                  86400 */
	bool per_address;              /* also limit per IP address; true */
	unsigned address_concurrency;  /* the largest window per address; 64
	                                */
	unsigned address_window_start; /* a new address's window; 2 */
	int64_t address_delay_ms;      /* between starts per address; 0 */
	int64_t slow_ms;               /* slack of the slow-answer test; 250 */
	int64_t margin_ms; /* added to every host delay, so that clock
	                      granularity and the jitter of a request's
	                      way never show a gap under the delay in a
	                      server's log; 10 */
};

/* Fills in the defaults above. */
void heed_polite_options_default(struct heed_polite_options *opt);

/* The time of a call, both clocks read once by the caller. */
struct heed_polite_clock {
	int64_t unix_ms; /* wall clock: back-off deadlines */
	int64_t mono_ms; /* monotonic: delays */
};

/* A host's back-off, as stored between runs. Zeroed: none. */
struct heed_polite_backoff {
	uint32_t level;  /* the delay is doubled this many times */
	int64_t until_s; /* no request before this Unix time (Retry-After);
	                    0 none */
};

typedef struct heed_polite heed_polite;

/* opt is copied. alloc may be NULL. HEED_OK or HEED_ENOMEM. */
heed_status heed_polite_new(heed_polite **out,
                            const struct heed_polite_options *opt,
                            const struct heed_allocator *alloc);

/* NULL does nothing. */
void heed_polite_free(heed_polite *p);

typedef enum heed_polite_verdict {
	HEED_POLITE_READY = 0, /* start now (begin: started and recorded) */
	HEED_POLITE_WAIT,      /* the host (or address delay) allows a start
	                          in *wait_ms */
	HEED_POLITE_BUSY,      /* the address's window is full: ask again
	                          when a request to it ends */
	HEED_POLITE_HOST_BUSY, /* the host has a request in flight: ask
	                          again when it ends */
	HEED_POLITE_NOMEM,     /* begin only: nothing recorded, no start */
} heed_polite_verdict;

/* "ready", "wait", "busy", "host-busy", "nomem". Static. */
const char *heed_polite_verdict_name(heed_polite_verdict v);

/*
 * May a request to host through address (text, may be NULL when unknown)
 * start at now? *wait_ms (may be NULL) gets how long to wait for WAIT, 0
 * otherwise. Names are case-sensitive; pass normalised host names. Never
 * allocates. A peek: begin() decides.
 */
heed_polite_verdict heed_polite_check(const heed_polite *p, const char *host,
                                      const char *address,
                                      const struct heed_polite_clock *now,
                                      int64_t *wait_ms);

/*
 * Starts a request to host through address at now if, and only if, the
 * rules allow it (the answer heed_polite_check would give): READY means the
 * start is recorded and the caller must call heed_polite_end() when it
 * ends; any other verdict records nothing (*wait_ms as for check). NOMEM
 * when a new host or address could not be recorded.
 */
heed_polite_verdict heed_polite_begin(heed_polite *p, const char *host,
                                      const char *address,
                                      const struct heed_polite_clock *now,
                                      int64_t *wait_ms);

/* How an attempt ended, for heed_polite_end. */
struct heed_polite_result {
	bool connected;        /* false: no request reached the server */
	int status;            /* HTTP status, 0 when none */
	bool failed;           /* connected, then reset, timed out or cut
	                          short before a whole answer */
	bool has_retry_after;  /* a valid Retry-After came with it */
	int64_t retry_after_s; /* its delay in seconds (>= 0) */
	int64_t heard_ms;      /* when the caller knew the server had the
	                          request (the answer's first byte), on
	                          the mono_ms clock: the start that counts
	                          from then on; 0: unknown, the end (now) */
	int64_t first_byte_ms; /* start to the first byte of the answer */
	int64_t elapsed_ms;    /* start to the end of the answer */
};

/*
 * Records the end of an attempt begun with heed_polite_begin (READY). The
 * host's last start becomes the moment the caller knew the server had the
 * request (r->heard_ms; the end of the attempt when unknown), never
 * earlier than begin: a request cannot reach the server after its answer
 * began, so the next one, sent a delay after that moment, reaches it at
 * least a delay after this one, however late a starved process let this
 * one's bytes leave (docs/crawling.md "Politeness"). An attempt that never
 * connected is forgotten by the host, as if it had not started (its previous
 * start time is restored), but counts against the address's window (a refused
 * or timed-out connection is a sign of an overloaded server). A 5xx, a 429 or a
 * failed answer doubles the host's delay and halves the address's window;
 * Retry-After sets the host's deadline; any other status halves the host's
 * error delay back and lets the window grow unless the answer was slow. Unknown
 * names are ignored.
 */
void heed_polite_end(heed_polite *p, const char *host, const char *address,
                     const struct heed_polite_clock *now,
                     const struct heed_polite_result *result);

/* Takes back an attempt begun with heed_polite_begin (READY) that was
 * never sent (its decision went stale before the request left): the host
 * and the address are as they were before it began. Unknown names are
 * ignored. */
void heed_polite_unbegin(heed_polite *p, const char *host, const char *address);

/*
 * Sets host's Crawl-delay from robots.txt (0: none; one below the default
 * delay never shortens it). Returns HEED_EDENIED, and changes nothing,
 * when delay_ms is above the cap: the caller skips the site and reports
 * it. HEED_ENOMEM.
 */
heed_status heed_polite_set_crawl_delay(heed_polite *p, const char *host,
                                        int64_t delay_ms);

/* host's delay between request starts now, in milliseconds, every rule
 * but the Retry-After deadline included. */
int64_t heed_polite_delay_ms(const heed_polite *p, const char *host);

/* host's back-off (zeroed when none). */
void heed_polite_get_backoff(const heed_polite *p, const char *host,
                             struct heed_polite_backoff *out);

/* Restores host's back-off, as loaded from the store. HEED_ENOMEM. */
heed_status heed_polite_set_backoff(heed_polite *p, const char *host,
                                    const struct heed_polite_backoff *b);

/* The start of host's last request that connected, on the caller's
 * monotonic clock: false (and *mono_ms untouched) when none is known. */
bool heed_polite_get_last_start(const heed_polite *p, const char *host,
                                int64_t *mono_ms);

/* Restores host's last request start, as stored by a previous process and
 * converted to this process's monotonic clock; a later start already known
 * wins. HEED_ENOMEM. */
heed_status heed_polite_set_last_start(heed_polite *p, const char *host,
                                       int64_t mono_ms);

/*
 * Makes this process's budget for each address its part of a budget that
 * parts processes share (workers on one store, "per-address
 * budgets hold across workers"): the largest window address_concurrency /
 * parts (at least 1), the gap between starts address_delay_ms x parts. So
 * parts workers together never have more than address_concurrency (or
 * parts, when that is more) requests in flight to one address, and each
 * still shrinks its window when the server slows down. 0 counts as 1 (a
 * crawl alone, the default).
 */
void heed_polite_share_addresses(heed_polite *p, unsigned parts);

/* What the window of an address stands at, for logs and benchmarks. */
struct heed_polite_address_stats {
	unsigned window;     /* requests that may be in flight now */
	unsigned in_flight;  /* requests in flight */
	int64_t base_ms;     /* its usual time to first byte (windowed
	                        minimum), -1 before the first answer */
	int64_t smoothed_ms; /* smoothed time to first byte, -1 likewise */
	uint64_t decreases;  /* times the window was halved */
	uint64_t eases;      /* times it shrank by one as requests queued */
	int64_t queue_pm;    /* the smoothed queue signal: answers' time
	                        over their host's best, per mille; -1
	                        before the first answer */
};

/* Fills *out for address; false (and a window of address_window_start)
 * when no request to it was seen. */
bool heed_polite_address_get(const heed_polite *p, const char *address,
                             struct heed_polite_address_stats *out);

/*
 * Parses an HTTP date (RFC 9110 5.6.7): IMF-fixdate "Sun, 06 Nov 1994
 * 08:49:37 GMT", and the obsolete RFC 850 ("Sunday, 06-Nov-94 08:49:37
 * GMT") and asctime ("Sun Nov  6 08:49:37 1994") forms recipients must
 * accept. Sets *unix_s. HEED_EPARSE for anything else, including impossible
 * dates. Reads exactly len bytes (no NUL needed).
 */
heed_status heed_http_date_parse(const char *text, size_t len, int64_t *unix_s);

/*
 * Parses a Retry-After value (RFC 9110 10.2.3): delay-seconds or an HTTP
 * date, with surrounding white space. Sets *delay_s to the seconds to wait
 * from now_s: a date in the past gives 0, an enormous number saturates at
 * one year. HEED_EPARSE for anything else.
 */
heed_status heed_retry_after_parse(const char *text, size_t len, int64_t now_s,
                                   int64_t *delay_s);

#ifdef __cplusplus
}
#endif

#endif /* HEED_POLITENESS_H */
