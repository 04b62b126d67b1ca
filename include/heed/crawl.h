/*
 * heed/crawl.h: the crawl engine's pure core, the scheduler (issue 8,
 * "Scheduling across many sites").
 *
 * One queue per host, a ready heap ordered by the time each host may next
 * be contacted (asked of a politeness function), at most one request in
 * flight per host, a global bound on requests in flight, and the per-site
 * limits an operator sets (pages, depth, URL length, path-repetition traps,
 * run time). The scheduler keeps only a window of each host's queue in
 * memory: when a window runs dry while the store holds more, next() asks
 * the caller to refill it. It reads no clock: every call takes now_ms, a
 * monotonic time in milliseconds.
 */
#ifndef HEED_CRAWL_H
#define HEED_CRAWL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "heed/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The politeness decision the scheduler asks before it hands out a host:
 * next_ms returns the earliest monotonic time at which host may be sent a
 * request, given when the last request to it started (last_start_ms, or
 * INT64_MIN if never) and now. started tells that a request starts now;
 * finished that a response (HTTP status, 0 if none) came back. Either
 * callback may be NULL. src/politeness provides the full rules (Crawl-delay,
 * back-off, per-address budgets); heed_crawl_plain_politeness() is the
 * plain rule "one request per host per delay".
 */
struct heed_crawl_politeness {
	int64_t (*next_ms)(void *ud, const char *host, int64_t last_start_ms,
	                   int64_t now_ms);
	void (*started)(void *ud, const char *host, int64_t now_ms);
	void (*finished)(void *ud, const char *host, int64_t now_ms,
	                 int status);
	void *ud;
};

/* The plain rule with a fixed delay: ud must point to an int64_t holding
 * the delay in milliseconds, which the caller keeps alive. */
struct heed_crawl_politeness
heed_crawl_plain_politeness(const int64_t *delay_ms);

/* The default delay between two requests to one host (crawler operator
 * page: "Maximum: 1 request per second"). */
#define HEED_CRAWL_DELAY_MS 1000

/* Limits an operator sets; 0 means "no limit" unless stated. */
struct heed_crawl_limits {
	unsigned max_active;  /* requests in flight over all hosts (>= 1) */
	unsigned window;      /* queued URLs per host kept in memory (>= 1) */
	int64_t max_pages;    /* pages fetched per site */
	int max_depth;        /* links from a seed; -1: no limit */
	size_t max_url_bytes; /* longer URLs are not queued */
	int max_path_repeat;  /* a path segment repeated more often: trap */
	int64_t max_run_ms;   /* no request starts later than this */
};

/* Sensible defaults: 64 in flight, window 16, 10,000 pages per site,
 * depth 20, 2,048-byte URLs, a segment at most 3 times, no run limit. */
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

/* What the engine fetches. Kinds match heed_frontier_kind, plus robots. */
typedef enum heed_job_kind {
	HEED_JOB_PAGE = 0,
	HEED_JOB_SITEMAP = 1,
	HEED_JOB_FEED = 2,
	HEED_JOB_ROBOTS = 3, /* the site's robots.txt, before anything else */
} heed_job_kind;

/* One fetch. Strings handed out by heed_sched_next() live until
 * heed_sched_done() for that host; pushed jobs are copied. */
struct heed_sched_job {
	int64_t id; /* the frontier row, 0 for none */
	const char *url;
	const char *host; /* the politeness key */
	int depth;
	heed_job_kind kind;
	int64_t lastmod; /* sitemap or feed date; INT64_MIN if none */
};

typedef struct heed_sched heed_sched;

/* What heed_sched_next() asks the caller to do. */
typedef enum heed_sched_verdict {
	HEED_SCHED_FETCH,     /* fetch *job now */
	HEED_SCHED_REFILL,    /* load the queue window of *host, then call
	                         heed_sched_refilled() */
	HEED_SCHED_DROP_HOST, /* *host reached its page limit: drop its rest */
	HEED_SCHED_WAIT,      /* nothing due: call again within *wait_ms */
	HEED_SCHED_BUSY,      /* max_active in flight: call after a done() */
	HEED_SCHED_IDLE,      /* nothing queued, fetches in flight: wait */
	HEED_SCHED_DONE,      /* nothing to fetch and nothing in flight, or
	                         the run time is over */
} heed_sched_verdict;

/* "fetch", "refill", ... Static. */
const char *heed_sched_verdict_name(heed_sched_verdict v);

/*
 * Creates a scheduler. limits and polite are copied (polite->ud is kept).
 * now_ms starts the run clock for max_run_ms. alloc may be NULL. Returns
 * HEED_OK, HEED_EINVAL (max_active or window 0) or HEED_ENOMEM.
 */
heed_status heed_sched_new(heed_sched **out,
                           const struct heed_crawl_limits *limits,
                           const struct heed_crawl_politeness *polite,
                           int64_t now_ms, const struct heed_allocator *alloc);

/* Frees s and every job it holds. NULL does nothing. */
void heed_sched_free(heed_sched *s);

/*
 * Tells that the store holds queued URLs of host (new, or on resume) and
 * that pages_done of its pages were already fetched in this run (count
 * against max_pages). The host becomes ready when its turn comes.
 */
heed_status heed_sched_host_more(heed_sched *s, const char *host,
                                 int64_t pages_done);

/* Appends job to its host's in-memory window (a refill), or puts it first
 * (front: a robots.txt fetch). The job's strings are copied. */
heed_status heed_sched_push(heed_sched *s, const struct heed_sched_job *job,
                            bool front);

/* Holds host (held: only robots.txt jobs pushed to its front may start,
 * while its qualification runs) or releases it. */
heed_status heed_sched_hold(heed_sched *s, const char *host, bool held);

/* Forgets every queued job of host and never hands it out again (a site
 * that is not qualified). A fetch in flight still ends with done(). */
heed_status heed_sched_drop(heed_sched *s, const char *host);

/* Ends a refill: more says whether the store still holds queued URLs of
 * host beyond those pushed. */
heed_status heed_sched_refilled(heed_sched *s, const char *host, bool more);

/*
 * The next thing to do at now_ms; see heed_sched_verdict. On FETCH *job
 * is filled and the host counts as in flight (politeness started() is
 * called); on REFILL and DROP_HOST *host names the host (valid until the
 * scheduler is freed); on WAIT *wait_ms > 0.
 */
heed_sched_verdict heed_sched_next(heed_sched *s, int64_t now_ms,
                                   struct heed_sched_job *job,
                                   const char **host, int64_t *wait_ms);

/*
 * Ends the fetch in flight for host with an HTTP status (0 for none);
 * politeness finished() is called. HEED_ENOTFOUND if host had none.
 */
heed_status heed_sched_done(heed_sched *s, const char *host, int64_t now_ms,
                            int status);

/* Stops the run: next() answers DONE from now on (SIGINT, time limit). */
void heed_sched_stop(heed_sched *s);

/* Counters for the progress line. */
struct heed_sched_stats {
	size_t hosts;         /* every host seen */
	size_t hosts_active;  /* with a fetch in flight */
	size_t hosts_waiting; /* with work, waiting for their turn */
	size_t hosts_done;    /* nothing left (or limit reached) */
	size_t in_flight;
	size_t window_jobs;    /* jobs held in memory */
	int64_t pages_started; /* page fetches handed out */
	int64_t requests;      /* every fetch handed out */
};

void heed_sched_stats_get(const heed_sched *s, struct heed_sched_stats *st);

#ifdef __cplusplus
}
#endif

#endif /* HEED_CRAWL_H */
