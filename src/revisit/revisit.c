/*
 * The revisit schedule: when to ask for a known URL again, so a recrawl
 * spends a site's requests where its content changes.
 * Pure: the time and the evidence are arguments, nothing is allocated.
 *
 * The anchor is Apache Nutch's AdaptiveFetchSchedule: multiply the
 * interval by (1 + grow) when a visit finds the content unchanged and by
 * (1 - shrink) when it changed, between min and max. Nutch also shifts the
 * next fetch towards the modification time (sync_delta), but only by a
 * fixed fraction of the distance, and it sets the interval to at least the
 * content's age, which lets one old date stretch the interval at once.
 * heed uses the site's own dates (a page's modified date, sitemap lastmod,
 * feed entry date, Last-Modified) more carefully. The rules, one per
 * outcome; "age" is now minus the newest known change date, and a date
 * after now is no evidence:
 *
 *   new:       interval = initial, raised to half the age when the site
 *              gives a date: a page unchanged for 60 days is not checked
 *              daily. due = now + interval.
 *   changed:   interval x (1 - shrink). When the site's date lies after
 *              the previous visit the change is anchored there (it is the
 *              real time of the change, not the time heed noticed it) and
 *              due = that date + interval, so the visits fall in step with
 *              the site's changes. When the previous change date is known
 *              too, the interval is at most the time between the two
 *              changes: heed saw the content change that fast.
 *   unchanged: interval x (1 + grow), and at least half the age (the age
 *              counts from the newest of the site's date and the change
 *              heed saw last). due = now + interval.
 *   failed:    no evidence of anything: the interval stays, due = now +
 *              interval.
 *
 * Always: the interval within [min, max] and due at least min after now.
 * All date arithmetic saturates, so INT64_MIN or INT64_MAX dates and huge
 * intervals neither overflow nor wrap; rates outside their ranges (which
 * heed_revisit_options_check refuses) are clamped, NaN counts as 0.
 */
#include <stddef.h>

#include "heed/revisit.h"

#define NO_DATE   HEED_REVISIT_NO_DATE
#define GROW_MAX  10.0
#define MIN_MIN_S 60

void heed_revisit_options_default(struct heed_revisit_options *opt)
{
	opt->initial_s = 86400;
	opt->min_s = 3600;
	opt->max_s = 30 * 86400;
	opt->grow = 0.5;
	opt->shrink = 0.3;
}

heed_status heed_revisit_options_check(const struct heed_revisit_options *opt,
                                       struct heed_diag *diag)
{
	if (opt->min_s < MIN_MIN_S)
		return heed_diag_set(diag, HEED_EINVAL, 0, 0,
		                     "revisit.min is %lld s; it must be at "
		                     "least %d s (1 minute)",
		                     (long long)opt->min_s, MIN_MIN_S);
	if (opt->max_s < opt->min_s)
		return heed_diag_set(diag, HEED_EINVAL, 0, 0,
		                     "revisit.max (%lld s) is shorter than "
		                     "revisit.min (%lld s)",
		                     (long long)opt->max_s,
		                     (long long)opt->min_s);
	if (opt->initial_s < opt->min_s || opt->initial_s > opt->max_s)
		return heed_diag_set(
		        diag, HEED_EINVAL, 0, 0,
		        "revisit.initial (%lld s) must lie between "
		        "revisit.min (%lld s) and revisit.max "
		        "(%lld s)",
		        (long long)opt->initial_s, (long long)opt->min_s,
		        (long long)opt->max_s);
	/* Written so that NaN fails too. */
	if (!(opt->grow > 0 && opt->grow <= GROW_MAX))
		return heed_diag_set(
		        diag, HEED_EINVAL, 0, 0,
		        "revisit.grow is %g; it must be more than 0 "
		        "and at most 10",
		        opt->grow);
	if (!(opt->shrink >= 0 && opt->shrink < 1))
		return heed_diag_set(
		        diag, HEED_EINVAL, 0, 0,
		        "revisit.shrink is %g; it must be at least "
		        "0 and less than 1",
		        opt->shrink);
	return HEED_OK;
}

const char *heed_revisit_outcome_name(heed_revisit_outcome outcome)
{
	static const char *const names[] = {"new", "changed", "unchanged",
	                                    "failed"};

	if ((unsigned)outcome >= HEED_ARRAY_SIZE(names))
		return "unknown";
	return names[outcome];
}

static int64_t add_sat(int64_t a, int64_t b)
{
	int64_t r;

	if (__builtin_add_overflow(a, b, &r))
		return b > 0 ? INT64_MAX : INT64_MIN;
	return r;
}

static int64_t sub_sat(int64_t a, int64_t b)
{
	int64_t r;

	if (__builtin_sub_overflow(a, b, &r))
		return b < 0 ? INT64_MAX : INT64_MIN;
	return r;
}

static int64_t max64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

static int64_t min64(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

/* The bounds in force: the options' when they make sense; otherwise the
 * nearest that do, so that broken options cannot break the promises of
 * heed_revisit_after (an interval of at least 1 s, and lo <= hi). */
struct bounds {
	int64_t lo, hi;
};

static struct bounds bounds_of(const struct heed_revisit_options *opt)
{
	struct bounds b;

	b.lo = max64(opt->min_s, 1);
	b.hi = max64(opt->max_s, b.lo);
	return b;
}

static int64_t clamp(struct bounds b, int64_t v)
{
	return v < b.lo ? b.lo : v > b.hi ? b.hi : v;
}

/* interval x factor rounded, within b; a NaN product keeps the
 * interval. */
static int64_t scale(struct bounds b, int64_t interval, double factor)
{
	double x = (double)interval * factor;

	if (x != x)
		return clamp(b, interval);
	if (x >= (double)b.hi)
		return b.hi;
	if (x <= (double)b.lo)
		return b.lo;
	return (int64_t)(x + 0.5);
}

/* A rate within [lo, hi]; NaN counts as 0. */
static double rate(double r, double lo, double hi)
{
	if (r != r)
		return 0;
	return r < lo ? lo : r > hi ? hi : r;
}

/* The visit's evidence date, or NO_DATE when it is none (after now). */
static int64_t evidence(const struct heed_revisit_visit *v)
{
	if (v->modified_at == NO_DATE || v->modified_at > v->now)
		return NO_DATE;
	return v->modified_at;
}

/* Half the time since changed (NO_DATE: 0): content that has not changed
 * for a long time is not expected to change soon. */
static int64_t half_age(int64_t changed, int64_t now)
{
	if (changed == NO_DATE)
		return 0;
	return max64(sub_sat(now, changed), 0) / 2;
}

static void after_changed(const struct heed_revisit_options *opt,
                          struct bounds b,
                          const struct heed_revisit_state *prev,
                          const struct heed_revisit_visit *v, int64_t seen,
                          struct heed_revisit_state *next)
{
	int64_t interval, change = v->now;

	interval =
	        scale(b, prev->interval_s, 1.0 - rate(opt->shrink, 0.0, 1.0));
	/* A site date after the previous visit places the change; one before
	 * it contradicts what this visit saw and is not used. */
	if (seen != NO_DATE &&
	    (prev->checked_at == NO_DATE || seen > prev->checked_at))
		change = seen;
	if (prev->changed_at != NO_DATE && change > prev->changed_at)
		interval = clamp(
		        b, min64(interval, sub_sat(change, prev->changed_at)));
	next->interval_s = interval;
	next->changed_at = change;
	next->due_at = add_sat(change, interval);
}

void heed_revisit_after(const struct heed_revisit_options *opt,
                        const struct heed_revisit_state *prev,
                        const struct heed_revisit_visit *v,
                        struct heed_revisit_state *next)
{
	struct bounds b = bounds_of(opt);
	struct heed_revisit_state old = *prev; /* next may be prev */
	int64_t seen = evidence(v), newest;
	heed_revisit_outcome outcome = v->outcome;

	/* Never visited: whatever this visit found is a first answer, or a
	 * first failure. */
	if (old.interval_s <= 0) {
		old.interval_s = clamp(b, opt->initial_s);
		old.changed_at = NO_DATE;
		if (outcome != HEED_REVISIT_FAILED)
			outcome = HEED_REVISIT_NEW;
	}
	newest = seen != NO_DATE && (old.changed_at == NO_DATE ||
	                             seen > old.changed_at)
	                 ? seen
	                 : old.changed_at;
	switch (outcome) {
	case HEED_REVISIT_NEW:
		next->interval_s =
		        clamp(b, max64(opt->initial_s, half_age(seen, v->now)));
		next->changed_at = seen;
		next->due_at = add_sat(v->now, next->interval_s);
		break;
	case HEED_REVISIT_CHANGED:
		after_changed(opt, b, &old, v, seen, next);
		break;
	case HEED_REVISIT_UNCHANGED:
		next->interval_s =
		        max64(scale(b, old.interval_s,
		                    1.0 + rate(opt->grow, 0.0, GROW_MAX)),
		              clamp(b, half_age(newest, v->now)));
		next->changed_at = newest;
		next->due_at = add_sat(v->now, next->interval_s);
		break;
	case HEED_REVISIT_FAILED:
	default:
		next->interval_s = clamp(b, old.interval_s);
		next->changed_at = old.changed_at;
		next->due_at = add_sat(v->now, next->interval_s);
		break;
	}
	next->checked_at = v->now;
	next->due_at = max64(next->due_at, add_sat(v->now, b.lo));
}

bool heed_revisit_is_due(const struct heed_revisit_state *s, int64_t now)
{
	/* A negative interval is no state heed writes: ask again. */
	if (s->interval_s <= 0 || s->checked_at == NO_DATE)
		return true;
	return now >= s->due_at;
}

bool heed_revisit_hinted(const struct heed_revisit_state *s, int64_t hint)
{
	if (hint == NO_DATE)
		return false;
	if (s->interval_s <= 0 || s->checked_at == NO_DATE)
		return true;
	return hint > s->checked_at;
}
