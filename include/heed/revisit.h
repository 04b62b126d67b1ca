/*
 * heed/revisit.h: when to ask for a known URL again, a schedule per page
 * that learns from what each visit finds.
 *
 * A pure core: it takes what a visit found, the evidence of when the
 * content last changed, and the time, and returns the URL's next interval
 * and due date. No clock is read and nothing is allocated, so the tests
 * drive it with any dates they like. The crawl keeps one state per URL in
 * the store's visits area (heed/store_visits.h) and asks here after each
 * answer; a full crawl requests only URLs that are due (plus new links),
 * unless `heed crawl --refresh all`.
 *
 * The anchor is Apache Nutch's AdaptiveFetchSchedule: the interval grows
 * when a visit finds the content unchanged and shrinks when it changed,
 * between two bounds. heed also uses what the site says about its own
 * changes: a page's modified or published date, a sitemap's lastmod, a
 * feed entry's date, Last-Modified. Content that last changed long ago is
 * not expected to change soon (the interval is at least a fraction of its
 * age), a change is anchored at the date it happened rather than at the
 * visit that noticed it, and a sitemap or feed date later than heed's last
 * visit makes the URL due at once. docs/crawling.md, "Revisits", states
 * the rules with their numbers.
 */
#ifndef HEED_REVISIT_H
#define HEED_REVISIT_H

#include <stdbool.h>
#include <stdint.h>

#include "heed/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* "No such date" in every Unix-seconds field here (as HEED_STORE_NO_DATE). */
#define HEED_REVISIT_NO_DATE INT64_MIN

/* The bounds and rates of the schedule; all from the configuration
 * ([revisit] in the INI file, docs/configuration.md). */
struct heed_revisit_options {
	int64_t initial_s; /* interval after a URL's first fetch: 1 day */
	int64_t min_s;     /* never sooner than this: 1 hour */
	int64_t max_s;     /* never later than this: 30 days */
	double grow;       /* unchanged: interval x (1 + grow); default 0.5 */
	double shrink;     /* changed: interval x (1 - shrink); default 0.3 */
};

/* Fills in the defaults above. */
void heed_revisit_options_default(struct heed_revisit_options *opt);

/* HEED_OK, or HEED_EINVAL with a sentence in diag when the options make no
 * schedule: min_s < 60, min_s <= initial_s <= max_s broken, grow outside
 * (0, 10], shrink outside [0, 1). */
heed_status heed_revisit_options_check(const struct heed_revisit_options *opt,
                                       struct heed_diag *diag);

/* What heed knows of a URL between visits (kept in the visits area). */
struct heed_revisit_state {
	int64_t interval_s; /* the current interval; 0 before the first visit */
	int64_t checked_at; /* last visit (Unix s), HEED_REVISIT_NO_DATE none */
	int64_t changed_at; /* when the content last changed, as far as heed
	                       knows: the evidence date, else the visit that
	                       saw the change; HEED_REVISIT_NO_DATE none */
	int64_t due_at;     /* not requested before this (Unix s) */
};

/* What a visit found. */
typedef enum heed_revisit_outcome {
	HEED_REVISIT_NEW = 0,   /* the URL's first answer with a body */
	HEED_REVISIT_CHANGED,   /* a body whose digest differs from the last */
	HEED_REVISIT_UNCHANGED, /* 304, or a body with the stored digest */
	HEED_REVISIT_FAILED,    /* gone (4xx), or given up: no evidence */
} heed_revisit_outcome;

/* "new", "changed", "unchanged", "failed". Static. */
const char *heed_revisit_outcome_name(heed_revisit_outcome outcome);

struct heed_revisit_visit {
	heed_revisit_outcome outcome;
	int64_t now; /* Unix s */
	/* The newest date at which the site says the content changed (the
	 * page's modified or published date, a sitemap lastmod, a feed
	 * entry's date, Last-Modified), Unix s; HEED_REVISIT_NO_DATE when
	 * none. A date after now is not evidence and is ignored. */
	int64_t modified_at;
};

/*
 * The state after visit v of a URL that was in state prev (zeroed, or
 * interval_s 0, for a URL never visited). next may be prev. The interval
 * always ends within [min_s, max_s] and due_at at least min_s after v->now
 * (Unix s arithmetic saturates; no overflow for any input).
 */
void heed_revisit_after(const struct heed_revisit_options *opt,
                        const struct heed_revisit_state *prev,
                        const struct heed_revisit_visit *v,
                        struct heed_revisit_state *next);

/* True when a URL in state s should be requested at now: it is due, or
 * was never visited. */
bool heed_revisit_is_due(const struct heed_revisit_state *s, int64_t now);

/* True when hint (a sitemap lastmod or a feed entry's date, Unix s;
 * HEED_REVISIT_NO_DATE: none) says the content changed after heed's last
 * visit: the URL is then requested whatever due_at says. */
bool heed_revisit_hinted(const struct heed_revisit_state *s, int64_t hint);

#ifdef __cplusplus
}
#endif

#endif /* HEED_REVISIT_H */
