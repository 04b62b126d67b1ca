/*
 * heed/politeness.h: when heed may send the next request to a host, pure.
 *
 * The rules (issue "Site qualification", ARCHITECTURE.md "Rules that hold
 * everywhere"):
 * - No two requests to one host start less than its delay apart: 1 second
 *   by default, longer when robots.txt asks with Crawl-delay (up to a cap,
 *   above which the site is skipped); robots.txt fetches count too.
 * - An attempt that never connected sent no request: it does not count.
 * - 429 and 503 back off exponentially, honouring Retry-After (seconds or
 *   an HTTP date); the back-off is kept in Unix seconds so that the caller
 *   can store it and restore it after a restart.
 * - Optionally per IP address too, so that many host names on one server
 *   share one budget: at most N requests in flight per address (1 by
 *   default) and an optional delay between them.
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
	int64_t default_delay_ms;     /* per host; default 1000 */
	int64_t crawl_delay_cap_ms;   /* longer Crawl-delay: skip; 30000 */
	bool per_address;             /* also limit per IP address; true */
	unsigned address_concurrency; /* in flight per address; 1 */
	int64_t address_delay_ms;     /* between starts per address; 0 */
	int64_t backoff_base_s;       /* first back-off; 60 */
	int64_t backoff_max_s;        /* longest back-off, also caps
	                                 Retry-After; 86400 */
};

/* Fills in the defaults above. */
void heed_polite_options_default(struct heed_polite_options *opt);

/* The time of a call, both clocks read once by the caller. */
struct heed_polite_clock {
	int64_t unix_s;  /* wall clock: back-off deadlines */
	int64_t mono_ms; /* monotonic: delays */
};

/* A host's back-off, as stored between runs. Zeroed: none. */
struct heed_polite_backoff {
	uint32_t level;  /* 429/503 answers in a row */
	int64_t until_s; /* no request before this Unix time; 0 none */
};

typedef struct heed_polite heed_polite;

/* opt is copied. alloc may be NULL. HEED_OK or HEED_ENOMEM. */
heed_status heed_polite_new(heed_polite **out,
                            const struct heed_polite_options *opt,
                            const struct heed_allocator *alloc);

/* NULL does nothing. */
void heed_polite_free(heed_polite *p);

typedef enum heed_polite_verdict {
	HEED_POLITE_READY = 0, /* start now */
	HEED_POLITE_WAIT,      /* start in *wait_ms */
	HEED_POLITE_BUSY,      /* the address has requests in flight: ask
	                          again when one ends */
} heed_polite_verdict;

/* Flags of heed_polite_check. */
enum {
	/* The robots.txt lifecycle tries the next address right after a 503
	 * (the seed calls it a bad connection); the host's delay still holds.
	 */
	HEED_POLITE_IGNORE_BACKOFF = 1,
};

/*
 * May a request to host through address (text, may be NULL when unknown)
 * start at now? *wait_ms (may be NULL) gets how long to wait for WAIT, 0
 * otherwise. Names are case-sensitive; pass normalised host names. Never
 * allocates.
 */
heed_polite_verdict heed_polite_check(const heed_polite *p, const char *host,
                                      const char *address,
                                      const struct heed_polite_clock *now,
                                      unsigned flags, int64_t *wait_ms);

/* Records that a request to host through address starts now (after
 * heed_polite_check said READY). HEED_OK or HEED_ENOMEM. */
heed_status heed_polite_begin(heed_polite *p, const char *host,
                              const char *address,
                              const struct heed_polite_clock *now);

/* How an attempt ended, for heed_polite_end. */
struct heed_polite_result {
	bool connected;        /* false: no request reached the server */
	int status;            /* HTTP status, 0 when none */
	bool has_retry_after;  /* a valid Retry-After came with it */
	int64_t retry_after_s; /* its delay in seconds (>= 0) */
};

/*
 * Records the end of an attempt started with heed_polite_begin. An attempt
 * that never connected is forgotten, as if it had not started (the host's
 * previous start time is restored). 429 and 503 raise the back-off level
 * and push the back-off deadline to now + max(base * 2^(level-1),
 * Retry-After), at most backoff_max_s; any other status clears it.
 */
void heed_polite_end(heed_polite *p, const char *host, const char *address,
                     const struct heed_polite_clock *now,
                     const struct heed_polite_result *result);

/*
 * Sets host's delay from robots.txt's Crawl-delay (0: back to the default;
 * a delay below the default never shortens it). Returns HEED_EDENIED, and
 * changes nothing, when delay_ms is above the cap: the caller skips the site
 * and reports it. HEED_ENOMEM.
 */
heed_status heed_polite_set_crawl_delay(heed_polite *p, const char *host,
                                        int64_t delay_ms);

/* host's delay between request starts, in milliseconds. */
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
