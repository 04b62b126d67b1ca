/*
 * heed/sitepolicy.h: the robots.txt download lifecycle of one site, as a pure
 * state machine (seed robots-txt-download-lifecycle.txt; RFC 9309 2.3.1).
 *
 * The machine never touches the network or the clock. The caller (the
 * crawl controller, src/crawl/lifecycle.c, for `heed crawl` and `heed
 * site qualify`) feeds it events (the
 * site's addresses were resolved, an attempt failed, a status arrived, the
 * body was complete or truncated, the body parsed with or without errors)
 * together with the time, and performs the action it returns: resolve the
 * host, fetch robots.txt from address i, wait, or stop with an outcome.
 *
 * What persists between runs (robots date, failures, next attempt, state and
 * reason) is a struct heed_site_record that the caller loads from and saves
 * to the store; the machine reads it on start and updates it when done.
 *
 * Time comes in two clocks: Unix seconds for dates that are stored (robots
 * date, next attempt) and monotonic milliseconds for the delays of one run
 * (the 2-second pause between the two passes over the addresses).
 */
#ifndef HEED_SITEPOLICY_H
#define HEED_SITEPOLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "heed/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where a site is. The first five are the outcomes kept in the store; the
 * rest only exist while a run is under way. */
typedef enum heed_site_state {
	HEED_SITE_UNKNOWN = 0,        /* never qualified, or reset */
	HEED_SITE_QUALIFIED_RULES,    /* crawl under the robots.txt rules */
	HEED_SITE_QUALIFIED_NO_RULES, /* crawl with no rules (404, not robots)
	                               */
	HEED_SITE_DISQUALIFIED,       /* not for now: retry after an interval */
	HEED_SITE_DISQUALIFIED_RESET, /* not until the operator resets it */
	HEED_SITE_RESOLVING,          /* waiting for the host's addresses */
	HEED_SITE_FETCHING,           /* an attempt on one address is running */
	HEED_SITE_PAUSED,             /* the pause between the two passes */
	HEED_SITE_READING,            /* 2xx received, waiting for the body */
	HEED_SITE_PARSING, /* body complete, waiting for its verdict */
} heed_site_state;

/* "unknown", "qualified-rules", ..., "parsing". Static. */
const char *heed_site_state_name(heed_site_state state);
/* The state named name (as heed_site_state_name gives it), for the store;
 * HEED_ENOTFOUND for any other text. */
heed_status heed_site_state_parse(const char *name, heed_site_state *state);

/* Why a site is where it is. Values are stored by name, never renumber. */
typedef enum heed_site_reason {
	HEED_SITE_R_NONE = 0,     /* nothing happened yet */
	HEED_SITE_R_PARSED,       /* 2xx, parsed without errors */
	HEED_SITE_R_NOT_ROBOTS,   /* 2xx, "parsed with errors": no rules */
	HEED_SITE_R_NO_ROBOTS,    /* 400, 404 or 410: no robots.txt */
	HEED_SITE_R_DNS,          /* the host's addresses could not be found */
	HEED_SITE_R_NO_ANSWER,    /* no status below 500 after both passes */
	HEED_SITE_R_TRUNCATED,    /* 2xx whose body was cut short */
	HEED_SITE_R_STATUS,       /* 401, 403, 429...: any other status */
	HEED_SITE_R_REDIRECTS,    /* more than the allowed redirect hops */
	HEED_SITE_R_CRAWL_DELAY,  /* Crawl-delay above the operator's cap */
	HEED_SITE_R_MAX_FAILURES, /* too many failures in a row */
	HEED_SITE_R_RESET,        /* the operator reset the site */
} heed_site_reason;

/* "parsed", "not-robots", ... Static. */
const char *heed_site_reason_name(heed_site_reason reason);
/* HEED_ENOTFOUND for a text that is no reason's name. */
heed_status heed_site_reason_parse(const char *name, heed_site_reason *reason);

/* The durable part of a site, loaded from and saved to the store. A zeroed
 * record is a site never seen. */
struct heed_site_record {
	heed_site_state state;   /* one of the first five states */
	heed_site_reason reason; /* why */
	int http_status;         /* the status that decided, 0 if none */
	int64_t robots_date_s;   /* last attempt started (Unix s), 0 never */
	int64_t last_success_s;  /* last time qualified (Unix s), 0 never */
	int64_t next_attempt_s;  /* not before this (Unix s), 0 = any time */
	uint32_t failures;       /* consecutive failed attempts */
	char detail[160];        /* a sentence for the report */
};

/* Intervals and limits of the lifecycle; all from the configuration. */
struct heed_site_options {
	int64_t retry_interval_s;   /* after a failure; default 3600 */
	int64_t recheck_interval_s; /* once qualified; default 86400 */
	uint32_t max_failures;      /* then until reset; default 24 */
	int64_t pass_pause_ms;      /* between the passes; default 2000 */
	unsigned max_redirects;     /* RFC 9309 2.3.1.2: 5 */
	int64_t crawl_delay_cap_ms; /* above: skipped; default 30000 */
};

/* Fills in the defaults above. */
void heed_site_options_default(struct heed_site_options *opt);

/* How a run proceeds: an event from the shell. */
typedef enum heed_site_event_kind {
	HEED_SITE_EV_START,          /* begin (or skip) a qualification */
	HEED_SITE_EV_RESOLVED,       /* address_count addresses, in order */
	HEED_SITE_EV_RESOLVE_FAILED, /* detail says why */
	HEED_SITE_EV_ATTEMPT_FAILED, /* low-level error before a status */
	HEED_SITE_EV_STATUS,         /* status arrived (and location for 3xx) */
	HEED_SITE_EV_BODY_COMPLETE, /* the 2xx body arrived whole (or capped) */
	HEED_SITE_EV_BODY_TRUNCATED, /* the 2xx body was cut short */
	HEED_SITE_EV_PARSED,         /* verdict on the body, crawl_delay_ms */
	HEED_SITE_EV_TIMER,          /* a WAIT action's time has come */
} heed_site_event_kind;

const char *heed_site_event_name(heed_site_event_kind kind);

/* The verdict on a 2xx body (docs/robots-lifecycle.md defines it). */
typedef enum heed_site_body_verdict {
	HEED_SITE_BODY_RULES = 0,  /* a robots.txt: use its rules */
	HEED_SITE_BODY_NOT_ROBOTS, /* "parsed with errors": no rules */
} heed_site_body_verdict;

struct heed_site_event {
	heed_site_event_kind kind;
	size_t address_count;           /* RESOLVED */
	int status;                     /* STATUS */
	bool has_location;              /* STATUS 3xx: a Location was given */
	heed_site_body_verdict verdict; /* PARSED */
	int64_t crawl_delay_ms;         /* PARSED: 0 when none */
	const char *detail; /* RESOLVE_FAILED, ATTEMPT_FAILED: for the report;
	                       copied, may be NULL */
	/* STATUS: how long the answer says it stays fresh (RFC 9111 4.2.1,
	 * heed_net_fresh_for), when it says (has_fresh). A 2xx's lifetime
	 * brings the re-check forward: the next attempt is due after
	 * min(fresh_s, recheck_interval_s), 0 meaning the next run (RFC
	 * 9309 2.4: never cached longer than 24 hours). Other statuses'
	 * lifetimes are ignored. */
	bool has_fresh;
	int64_t fresh_s;
};

/* The time of an event: both clocks, read once by the shell. */
struct heed_site_clock {
	int64_t unix_s;  /* wall clock, for stored dates */
	int64_t mono_ms; /* monotonic, for the delays of one run */
};

/* What the shell does next. */
typedef enum heed_site_action_kind {
	HEED_SITE_DO_NOTHING = 0, /* wait for the event already asked for */
	HEED_SITE_DO_RESOLVE,     /* resolve the host (or the redirect's) */
	HEED_SITE_DO_FETCH,       /* GET robots.txt pinned to address */
	HEED_SITE_DO_WAIT,        /* send TIMER at until_ms */
	HEED_SITE_DO_DONE,        /* finished: the record holds the outcome */
} heed_site_action_kind;

const char *heed_site_action_name(heed_site_action_kind kind);

struct heed_site_action {
	heed_site_action_kind kind;
	size_t address;   /* DO_FETCH: index into the resolved addresses */
	unsigned pass;    /* DO_FETCH: 1 or 2 */
	bool follow;      /* DO_RESOLVE: resolve the redirect's target */
	int64_t until_ms; /* DO_WAIT: monotonic time to send TIMER */
	bool fetched;     /* DO_DONE: this run contacted the site */
};

typedef struct heed_site heed_site;

/*
 * A machine for host (copied; used in logs) starting from record (copied;
 * a zeroed record for a new site). opt and logger are copied; logger may be
 * NULL; alloc may be NULL. Returns HEED_OK or HEED_ENOMEM. Free with
 * heed_site_free.
 */
heed_status heed_site_new(heed_site **out, const char *host,
                          const struct heed_site_record *record,
                          const struct heed_site_options *opt,
                          const struct heed_logger *logger,
                          const struct heed_allocator *alloc);

/* NULL does nothing. */
void heed_site_free(heed_site *site);

/*
 * Feeds one event at time now; fills *action. Returns HEED_OK, or
 * HEED_EINVAL for an event the current state does not expect (the machine
 * is unchanged and *action is DO_NOTHING): a bug in the shell, not bad
 * input. Every state change is logged "host: from -> to" at debug level.
 */
heed_status heed_site_step(heed_site *site, const struct heed_site_event *ev,
                           const struct heed_site_clock *now,
                           struct heed_site_action *action);

/* The current state (transient states while a run is under way). */
heed_site_state heed_site_get_state(const heed_site *site);

/* The durable record, updated when a run ends; lives as long as site. */
const struct heed_site_record *heed_site_get_record(const heed_site *site);

/* Redirect hops followed in this run. */
unsigned heed_site_redirects(const heed_site *site);

/* True for the two qualified states. */
bool heed_site_state_qualified(heed_site_state state);

/*
 * Clears a record's failure state, as `heed site reset` does: state
 * UNKNOWN, reason RESET, failures 0, next attempt any time. Dates of past
 * attempts and successes are kept for the report.
 */
void heed_site_record_reset(struct heed_site_record *record);

/*
 * The lifecycle's verdict on a 2xx body: is it a robots.txt at all?
 * (docs/robots-lifecycle.md, "Parsed with errors"). NOT_ROBOTS for an HTML
 * page, binary data (NUL or control bytes) or text that is not UTF-8 (nor
 * Latin-1-looking ASCII), or a body whose non-empty lines are mostly not
 * robots.txt records; RULES otherwise, including a valid file with a few
 * bad lines and an empty body. content_type may be NULL. Pure; reads at
 * most len bytes.
 */
heed_site_body_verdict heed_site_judge_body(const char *body, size_t len,
                                            const char *content_type);

/* What the lifecycle takes from a 2xx body: its verdict and, when it is a
 * robots.txt, the Crawl-delay that applies to heed. */
struct heed_site_robots {
	heed_site_body_verdict verdict;
	int64_t crawl_delay_ms; /* 0 when none applies */
	size_t groups;          /* groups in the file */
	size_t diagnostics;     /* the parser's diagnostics, all of them */
};

/*
 * Reads a 2xx robots.txt body (at most its first 500 KiB, RFC 9309 2.5)
 * with the RFC 9309 parser and decides "parsed with errors": NOT_ROBOTS
 * when heed_site_judge_body says so, or when the parser found no group, no
 * Sitemap and no other record but only lines it could not read. agent is
 * the User-Agent or product token whose Crawl-delay counts. Pure. HEED_OK
 * or HEED_ENOMEM; alloc may be NULL.
 */
heed_status heed_site_read_robots(const char *body, size_t len,
                                  const char *content_type, const char *agent,
                                  const struct heed_allocator *alloc,
                                  struct heed_site_robots *out);

#ifdef __cplusplus
}
#endif

#endif /* HEED_SITEPOLICY_H */
