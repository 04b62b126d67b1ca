/*
 * heed/crawl.h: the crawl controller, a pure core ("The crawl
 * controller as a pure core").
 *
 * The controller decides everything a crawl does: which site is qualified
 * (the robots.txt lifecycle of heed/sitepolicy.h), which URL is fetched
 * when (heed/politeness.h is asked at the moment each request starts, and
 * refuses a start that would break a courtesy rule), what an answer means
 * (robots.txt and ACAP, meta robots, index and follow, the media ban), what
 * is stored and what goes back to the frontier. It never touches a socket
 * or reads a clock: the caller feeds it events (an address lookup answered,
 * a fetch's headers arrived, a fetch ended) with the time, and carries out
 * the actions it returns (look up a name, fetch a URL from one address,
 * wait). Its durable memory is the store it is given (heed/store.h: the
 * frontier, pages, sites and runs areas), written in batches whose timing
 * follows the same injected clock. heed_crawl_run() in
 * heed/crawl_engine.h is the I/O shell that runs it over DNS and HTTP; a
 * test runs it over a simulated network and clock.
 *
 * The loop a shell runs:
 *
 *   heed_crawl_new(&c, store, &opt, &now, alloc, &diag);
 *   heed_crawl_start(c, &now, &diag);
 *   for (;;) {
 *       now = <both clocks>;
 *       switch (heed_crawl_next(c, &now, &a)) {
 *       case HEED_CRAWL_RESOLVE: <look a.name up; later
 *                                heed_crawl_resolved(c, a.req, ...)>
 *       case HEED_CRAWL_FETCH:   <GET a.url from a.addr; later
 *                                heed_crawl_headers() and
 *                                heed_crawl_fetched(c, a.req, ...)>
 *           continue;
 *       case HEED_CRAWL_WAIT:    <wait for answers until a.until_ms>
 *           continue;
 *       case HEED_CRAWL_DONE:    break;
 *       }
 *   }
 *   heed_crawl_finish(c, &now); heed_crawl_free(c);
 *
 * Every action of kind RESOLVE or FETCH must be answered exactly once,
 * also when it is cancelled (with HEED_DNS_CANCELLED or
 * HEED_NET_CANCELLED). Callbacks into the controller never re-enter it.
 *
 * A FETCH is decided at the clock the call was given, but the call may
 * have waited on the store meanwhile (a reconnect). A shell that finds
 * more than HEED_CRAWL_STALE_MS passed since that clock does not send the
 * request: it answers it at once with heed_crawl_unsent() (decided again
 * later, on a fresh clock). A worker's lease covers a request only while
 * that holds (worker.c).
 *
 * The pure URL checks (limits, path-repetition traps, media extensions)
 * are here too.
 */
#ifndef HEED_CRAWL_H
#define HEED_CRAWL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "heed/common.h"
#include "heed/dns.h"
#include "heed/net.h"
#include "heed/politeness.h"
#include "heed/revisit.h"
#include "heed/sitepolicy.h"
#include "heed/store.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The default delay between two requests to one host (crawler operator
 * page: "Maximum: 1 request per second"). */
#define HEED_CRAWL_DELAY_MS 1000

/* The longest a shell sends a FETCH after the clock of the call that
 * decided it (see above). */
#define HEED_CRAWL_STALE_MS 500

/* Limits an operator sets; 0 means "no limit" unless stated. */
struct heed_crawl_limits {
	unsigned max_active;  /* requests in flight over all sites (>= 1) */
	unsigned window;      /* queued URLs per site kept in memory (>= 1) */
	int64_t max_pages;    /* pages fetched per site */
	int max_depth;        /* links from a seed; -1: no limit */
	size_t max_url_bytes; /* longer URLs are not queued */
	int max_path_repeat;  /* a path segment repeated more often: trap */
	int64_t max_run_ms;   /* no request starts later than this */
	unsigned retries;     /* a URL whose fetch failed for a passing
	                         reason (5xx, 429, reset, timeout) is tried
	                         again this many times later in the run */
	int64_t max_wait_ms;  /* when every site left must wait longer than
	                         this (a long Retry-After), the run ends and
	                         stays open for the next one; 0: wait */
	unsigned dns_concurrency; /* look-ups in flight at once (>= 1) */
	unsigned dns_retries;     /* a look-up that timed out or failed at
	                             the server is tried again this many
	                             times before it counts as a failure */
};

/* Sensible defaults: 64 in flight, window 16, 10,000 pages per site,
 * depth 20, 2,048-byte URLs, a segment at most 3 times, no run limit,
 * 2 retries, 10 minutes of waiting at most, 32 look-ups in flight, each
 * tried up to 3 more times. */
void heed_crawl_limits_default(struct heed_crawl_limits *limits);

/* Why a discovered URL is not queued. */
typedef enum heed_url_verdict {
	HEED_URL_OK = 0,   /* may be queued */
	HEED_URL_TOO_DEEP, /* depth above max_depth */
	HEED_URL_TOO_LONG, /* longer than max_url_bytes */
	HEED_URL_TRAP,     /* a path segment repeats past max_path_repeat */
	HEED_URL_MEDIA,    /* the path ends in a media file extension */
	HEED_URL_NOT_HTTP, /* not an http or https URL */
} heed_url_verdict;

/* "ok", "too-deep", "too-long", "trap", "media", "not-http". Static. */
const char *heed_url_verdict_name(heed_url_verdict v);

/* Judges url found at depth against limits (pure, no allocation). */
heed_url_verdict heed_crawl_check_url(const struct heed_crawl_limits *limits,
                                      const char *url, int depth);

/* True when the URL's path ends in an extension of an image, audio, video,
 * font, archive or other non-text file (media is never requested). */
bool heed_crawl_is_media_url(const char *url);

typedef enum heed_crawl_mode {
	HEED_CRAWL_FULL = 0,    /* follow public links within the limits */
	HEED_CRAWL_INCREMENTAL, /* sitemaps and feeds: new and changed only */
	HEED_CRAWL_QUALIFY,     /* only the robots.txt lifecycle of each
	                           seed's site (`heed site qualify`): no run,
	                           no page */
} heed_crawl_mode;

/* "full", "incremental", "qualify". Static. */
const char *heed_crawl_mode_name(heed_crawl_mode mode);

/* How a site's robots.txt lifecycle ended in this run (docs/robots-
 * lifecycle.md), for `heed site qualify` and the logs. Pointers live only
 * during the callback. */
struct heed_crawl_site_result {
	const char *site;               /* its origin, "http://host:port" */
	struct heed_site_record record; /* the durable record, as stored */
	bool contacted;                 /* robots.txt was requested */
	unsigned attempts;              /* robots.txt requests sent */
};

typedef void heed_crawl_site_fn(void *ud,
                                const struct heed_crawl_site_result *r);

/* Counters of a run, for the progress line and the summary. */
struct heed_crawl_progress {
	int64_t elapsed_ms;
	int64_t requests;      /* HTTP requests sent (robots.txt included) */
	int64_t pages;         /* page records stored or updated */
	int64_t unchanged;     /* 304s, bodies with the stored digest, and
	                          entries unchanged by their date */
	int64_t not_due;       /* known URLs not requested: not due on the
	                          revisit schedule, or still fresh */
	int64_t not_indexed;   /* fetched, not stored: noindex, ACAP index */
	int64_t refused;       /* not fetched: robots.txt or ACAP */
	int64_t refused_owner; /* not fetched: an owner's exclude/include
	                          (heed sites) */
	int64_t skipped;       /* not queued: limits, media, out of scope */
	int64_t media_aborted; /* responses dropped after their headers */
	int64_t retried;       /* fetches that failed for a passing reason
	                          and went back to the frontier */
	int64_t errors;        /* URLs given up: network errors, 5xx after
	                          every retry, unusable answers */
	int64_t taken_down;    /* records deleted by an ACAP take-down */
	int64_t acap_refs;     /* ACAP permissions reference files read */
	int64_t acap_ref_failures; /* references not read (an error status,
	                              no answer, another site): their
	                              crawlers stay prohibited */
	int64_t oembed_read;       /* records filled from an oEmbed answer */
	int64_t oembed_other;      /* oEmbed endpoints not asked: on a site
	                              outside the crawl */
	size_t sites, sites_active, sites_waiting, sites_done;
	size_t sites_disqualified;
	size_t sites_withheld; /* not contacted by an owner's arrangement:
	                          paused, outside its windows */
	size_t sites_without_sources; /* incremental: no sitemap or feed */
	int64_t queued;               /* URLs waiting (memory and store) */
	/* A worker's leases (heed_crawl_worker): */
	int64_t claims;        /* claim statements that granted a site */
	int64_t sites_claimed; /* grants */
	int64_t taken_over;    /* grants of a site whose last lease expired
	                          (its holder died or was cut off) */
	int64_t released;      /* sites handed back: done, or surplus */
	int64_t leases_lost;   /* leases not renewed in time: the site was
	                          dropped at once (fencing) */
};

/*
 * A worker among several crawls sharing one store (`heed crawl
 * --worker`, docs/scaling.md "Workers"): it fetches only the sites it
 * holds a lease on (heed/store_leases.h), at most its fair share of the
 * sites with work (the live workers share them), and its run ends when no
 * site of the store is held or claimable by anyone. holder NULL: a crawl
 * alone on its store, as before.
 */
struct heed_crawl_worker {
	const char *holder; /* this worker's name, unique among the workers */
	int64_t lease_ms;   /* a lease's length (30 s); renewed every third */
	unsigned max_sites; /* sites held at once at most (4096) */
};

/* Everything a crawl is told. Strings are borrowed for the controller's
 * life. */
struct heed_crawl_options {
	heed_crawl_mode mode;
	const char *const *seeds; /* start URLs; their sites are the scope */
	size_t seed_count;
	const char *user_agent;  /* the full User-Agent header (the shell) */
	const char *agent_token; /* robots.txt/ACAP crawler name ("heed") */
	struct heed_crawl_limits limits;
	struct heed_polite_options polite;
	struct heed_site_options site;
	struct heed_net_options net; /* the shell's; the controller reads
	                                allow_private and max_body_bytes */
	struct heed_dns_options dns; /* the shell's */
	bool restart;                /* start afresh even if a run is open */
	/* When known URLs are asked for again (heed/revisit.h). */
	struct heed_revisit_options revisit;
	/* `--refresh all`: every known URL is requested whole, due or not,
	 * without validators, and re-read even if its bytes are unchanged
	 * (a new heed reads more metadata from the same page). */
	bool refresh_all;
	int64_t progress_interval_ms;
	void (*on_progress)(void *ud, const struct heed_crawl_progress *p);
	void *progress_ud;
	heed_crawl_site_fn *on_site; /* a site's lifecycle ended; may be NULL */
	void *site_ud;
	const struct heed_logger *logger; /* may be NULL */
	struct heed_crawl_worker worker;
	/* The shell's (heed/crawl_engine.h): threads that do prepared
	 * answers' work (1); 0: the controller's thread does it. */
	unsigned extract_threads;
};

/* Fills opt with the defaults of every part (modes, limits, delays). */
void heed_crawl_options_default(struct heed_crawl_options *opt);

/* The time of a call: both clocks, read once by the caller. */
struct heed_crawl_clock {
	int64_t mono_ms; /* monotonic: delays, timers, batches */
	int64_t unix_ms; /* wall clock: stored dates, back-off deadlines */
};

typedef struct heed_crawl heed_crawl;

/* An action in progress; the caller hands it back with its answer. */
typedef struct heed_crawl_req heed_crawl_req;

typedef enum heed_crawl_action_kind {
	HEED_CRAWL_RESOLVE, /* look up every address of name (A and AAAA) */
	HEED_CRAWL_FETCH,   /* GET url from addr (and nowhere else) */
	HEED_CRAWL_WAIT,    /* nothing to start before until_ms, unless an
	                       answer comes first */
	HEED_CRAWL_DONE,    /* the run is over: call heed_crawl_finish */
} heed_crawl_action_kind;

/* "resolve", "fetch", "wait", "done". Static. */
const char *heed_crawl_action_name(heed_crawl_action_kind kind);

/* What heed_crawl_next() asks for. Pointers live until req is answered. */
struct heed_crawl_action {
	heed_crawl_action_kind kind;
	heed_crawl_req *req;              /* RESOLVE, FETCH */
	const char *name;                 /* RESOLVE: a host name or address */
	const char *url;                  /* FETCH */
	const struct heed_dns_addr *addr; /* FETCH */
	size_t max_body_bytes;            /* FETCH: decoded */
	const char *const *headers;       /* FETCH: "If-None-Match: ..." */
	size_t header_count;
	int64_t send_by_ms; /* FETCH: monotonic; the request must not be sent
	                       after this (0: any time); answered with
	                       HEED_NET_NOT_SENT when it was not */
	int64_t until_ms;   /* WAIT: monotonic */
};

/*
 * Creates a controller over store (borrowed; it must outlive the
 * controller) with opt (borrowed likewise), at now. alloc may be NULL.
 * Returns HEED_OK, HEED_EINVAL (no agent token, max_active, window or
 * dns_concurrency 0: diag says which) or HEED_ENOMEM.
 */
heed_status heed_crawl_new(heed_crawl **out, heed_store *store,
                           const struct heed_crawl_options *opt,
                           const struct heed_crawl_clock *now,
                           const struct heed_allocator *alloc,
                           struct heed_diag *diag);

/*
 * Frees c and every action in progress. A batch not yet committed is
 * rolled back: what a killed process would lose (call heed_crawl_finish
 * first to keep it). NULL does nothing.
 */
void heed_crawl_free(heed_crawl *c);

/*
 * Opens the run: resumes the store's open run (unless opt->restart), or
 * starts a new one from the seeds; in QUALIFY mode only registers the
 * seeds' sites. Returns HEED_OK, HEED_EINVAL (no seeds and nothing to
 * resume, a bad seed URL: diag says which) or HEED_ESTORE.
 */
heed_status heed_crawl_start(heed_crawl *c, const struct heed_crawl_clock *now,
                             struct heed_diag *diag);

/*
 * The next thing to do at now; fills *a. RESOLVE and FETCH hand out a req
 * that must be answered; call again at once for more. WAIT: call again
 * after an answer or at a->until_ms. DONE: nothing is in progress and
 * nothing is left to start (or the run was stopped, its time is over, or
 * every site left waits longer than max_wait_ms).
 */
heed_crawl_action_kind heed_crawl_next(heed_crawl *c,
                                       const struct heed_crawl_clock *now,
                                       struct heed_crawl_action *a);

/* Answers a RESOLVE action; r lives only during the call. */
void heed_crawl_resolved(heed_crawl *c, heed_crawl_req *req,
                         const struct heed_dns_result *r,
                         const struct heed_crawl_clock *now);

/* The headers of a FETCH's answer have arrived (status >= 200, no body
 * yet): false means stop the transfer before its body (media, other
 * non-text types). Optional: a caller that never calls it reads every
 * body, and the controller still drops what it must not keep. */
bool heed_crawl_headers(heed_crawl *c, heed_crawl_req *req,
                        const struct heed_net_response *r);

/* Answers a FETCH action: the whole answer, or how it failed. r->heard_ms
 * (the moment heed knew the server had the request, on the now->mono_ms
 * clock; 0: now) is when the request counts as started for courtesy. */
void heed_crawl_fetched(heed_crawl *c, heed_crawl_req *req,
                        const struct heed_net_response *r,
                        const struct heed_crawl_clock *now);

/*
 * Prepared answers: the pure work of an answer (a page's body digested,
 * extracted, its record written as JSON) done off the thread that runs
 * the controller. The controller itself is not thread-safe: every call
 * but heed_crawl_prep_run() is made on its one thread.
 *
 *   on_done(r):   p = heed_crawl_prepare(c, req, r);
 *                 if (!p) heed_crawl_fetched(c, req, r, &now);
 *                 else    <hand p to any thread>
 *   that thread:  heed_crawl_prep_run(p);   <hand p back>
 *   back:         heed_crawl_prepared(c, p, &now);
 *
 * A request with a prepared answer out is in progress until it is handed
 * back: heed_crawl_next() does not answer DONE meanwhile, so a shell
 * hands every one back before heed_crawl_finish().
 */
typedef struct heed_crawl_prep heed_crawl_prep;

/* The answer r of FETCH req, when it has pure work (a page's 2xx: what
 * heed_crawl_fetched() would extract): a prepared answer holding copies
 * of all that work reads (the answer, its body, the URL, the agent
 * token, the digest of the URL's last body), so r may be freed once this
 * returns. NULL when there is no such work, or out of memory: then
 * answer req with heed_crawl_fetched() as usual. Allocates with the
 * default allocator. */
heed_crawl_prep *heed_crawl_prepare(heed_crawl *c, heed_crawl_req *req,
                                    const struct heed_net_response *r);

/* As heed_crawl_prepare(), keeping body instead of a copy of the answer's
 * body: body is the buffer r->body points to (r->body_len bytes and a
 * NUL, as heed_net_take_body() hands it over), allocated with the
 * default allocator. The prepared answer frees it; on NULL it is still
 * the caller's (and r->body still reads it). */
heed_crawl_prep *heed_crawl_prepare_owned(heed_crawl *c, heed_crawl_req *req,
                                          const struct heed_net_response *r,
                                          char *body);

/* Does p's pure work: on any thread, one call per prepared answer, while
 * the controller goes on with other calls. Reads and writes p alone;
 * allocates with the default allocator. A body whose digest is that of
 * the last one is not extracted (heed_crawl_prepared() extracts it if the
 * controller still wants it). */
void heed_crawl_prep_run(heed_crawl_prep *p);

/* Answers p's FETCH, on the controller's thread, after
 * heed_crawl_prep_run(p) returned: what heed_crawl_fetched() does with
 * the answer, using p's digest, page and record instead of computing
 * them. Frees p. */
void heed_crawl_prepared(heed_crawl *c, heed_crawl_prep *p,
                         const struct heed_crawl_clock *now);

/* Frees p unanswered: only for a shell that frees its controller with
 * prepared answers out (what a killed process loses); also after
 * heed_crawl_free(). NULL does nothing. */
void heed_crawl_prep_free(heed_crawl_prep *p);

/* Answers a FETCH action the shell did not send because its decision had
 * gone stale (more than HEED_CRAWL_STALE_MS since the call's clock, or
 * past the action's send_by_ms: heed_crawl_fetched() with
 * HEED_NET_NOT_SENT does the same): the job goes back to the front of its
 * queue untried, and the start counts for nothing, as if it had never
 * been handed out. */
void heed_crawl_unsent(heed_crawl *c, heed_crawl_req *req,
                       const struct heed_crawl_clock *now);

/* Stops the run: nothing new starts; next() answers DONE once every
 * action in progress is answered. The run stays open when URLs are left. */
void heed_crawl_stop(heed_crawl *c);

/*
 * Ends the run at now: commits the open batch, closes the run when
 * nothing is left to fetch (a stopped, timed-out or waiting run stays open
 * for the next `heed crawl`), reports sites without sources. Returns
 * HEED_OK or the store error that ended the run (HEED_ESTORE, HEED_ENOMEM).
 */
heed_status heed_crawl_finish(heed_crawl *c,
                              const struct heed_crawl_clock *now);

/*
 * Tells c that the store's search index is caught up beside it while it
 * runs (by another thread over another store handle: the engine does so
 * on PostgreSQL): c then catches up only in heed_crawl_finish, with every
 * page still marked, rather than every 2 s between its batches.
 */
void heed_crawl_index_beside(heed_crawl *c);

/* The run's counters at now. */
void heed_crawl_progress_get(heed_crawl *c, const struct heed_crawl_clock *now,
                             struct heed_crawl_progress *p);

/* The mode of the run (a resumed run keeps its own). */
heed_crawl_mode heed_crawl_get_mode(const heed_crawl *c);

/* The politeness state the controller keeps (for statistics: address
 * windows). Lives as long as c. */
const heed_polite *heed_crawl_politeness(const heed_crawl *c);

#ifdef __cplusplus
}
#endif

#endif /* HEED_CRAWL_H */
