/*
 * Unit tests for the revisit schedule (src/revisit): each rule with
 * injected dates, the bounds, the anchor of a change at the site's date,
 * hints, saturation at the int64 edges, and simulated pages visited many
 * times (the schedule must follow how often they really change).
 */
#include "heed_test.h"

#include <stdbool.h>

#include "heed/revisit.h"

#define NO    HEED_REVISIT_NO_DATE
#define MIN_S 60
#define HOUR  3600
#define DAY   86400
#define T0    1700000000 /* an ordinary date, Unix s */

static struct heed_revisit_options defaults(void)
{
	struct heed_revisit_options o;

	heed_revisit_options_default(&o);
	return o;
}

static struct heed_revisit_state after(const struct heed_revisit_options *o,
                                       struct heed_revisit_state prev,
                                       heed_revisit_outcome outcome,
                                       int64_t now, int64_t modified_at)
{
	struct heed_revisit_visit v = {outcome, now, modified_at};
	struct heed_revisit_state next;

	memset(&next, 0xa5, sizeof(next));
	heed_revisit_after(o, &prev, &v, &next);
	return next;
}

/* Every state heed_revisit_after returns keeps its promises. */
static void assert_sane(const struct heed_revisit_options *o,
                        const struct heed_revisit_state *s, int64_t now)
{
	int64_t lo = o->min_s > 0 ? o->min_s : 1;

	assert_true(s->interval_s >= lo);
	assert_true(s->interval_s <= (o->max_s > lo ? o->max_s : lo));
	assert_int_equal(s->checked_at, now);
	if (now <= INT64_MAX - lo)
		assert_true(s->due_at >= now + lo);
	else
		assert_true(s->due_at == INT64_MAX);
}

/* The three fields a visit sets besides checked_at. */
static void assert_state(const struct heed_revisit_state *s, int64_t interval,
                         int64_t changed, int64_t due)
{
	assert_int_equal(s->interval_s, interval);
	assert_int_equal(s->changed_at, changed);
	assert_int_equal(s->due_at, due);
}

static void test_defaults_and_names(void **state)
{
	struct heed_revisit_options o = defaults();
	struct heed_diag d = {0};

	(void)state;
	assert_int_equal(o.initial_s, DAY);
	assert_int_equal(o.min_s, HOUR);
	assert_int_equal(o.max_s, 30 * DAY);
	assert_true(o.grow == 0.5);
	assert_true(o.shrink == 0.3);
	assert_int_equal(heed_revisit_options_check(&o, &d), HEED_OK);
	assert_string_equal(heed_revisit_outcome_name(HEED_REVISIT_NEW), "new");
	assert_string_equal(heed_revisit_outcome_name(HEED_REVISIT_CHANGED),
	                    "changed");
	assert_string_equal(heed_revisit_outcome_name(HEED_REVISIT_UNCHANGED),
	                    "unchanged");
	assert_string_equal(heed_revisit_outcome_name(HEED_REVISIT_FAILED),
	                    "failed");
	assert_string_equal(heed_revisit_outcome_name((heed_revisit_outcome)9),
	                    "unknown");
}

struct bad_case {
	int64_t initial_s, min_s, max_s;
	double grow, shrink;
	const char *says; /* a piece of the message */
};

static void test_options_check(void **state)
{
	static const struct bad_case bad[] = {
	        {DAY, 59, 30 * DAY, 0.5, 0.3, "revisit.min is 59 s"},
	        {DAY, -5, 30 * DAY, 0.5, 0.3, "at least 60 s"},
	        {DAY, HOUR, HOUR - 1, 0.5, 0.3, "revisit.max (3599 s) is"},
	        {60, HOUR, 30 * DAY, 0.5, 0.3, "revisit.initial (60 s)"},
	        {31 * DAY, HOUR, 30 * DAY, 0.5, 0.3, "must lie between"},
	        {DAY, HOUR, 30 * DAY, 0, 0.3, "revisit.grow is 0"},
	        {DAY, HOUR, 30 * DAY, 10.5, 0.3, "revisit.grow is 10.5"},
	        {DAY, HOUR, 30 * DAY, 0.0 / 0.0, 0.3, "revisit.grow"},
	        {DAY, HOUR, 30 * DAY, 0.5, 1, "revisit.shrink is 1"},
	        {DAY, HOUR, 30 * DAY, 0.5, -0.1, "revisit.shrink is -0.1"},
	        {DAY, HOUR, 30 * DAY, 0.5, 0.0 / 0.0, "revisit.shrink"},
	};
	struct heed_revisit_options o;
	struct heed_diag d;

	(void)state;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(bad); i++) {
		o = (struct heed_revisit_options){bad[i].initial_s,
		                                  bad[i].min_s, bad[i].max_s,
		                                  bad[i].grow, bad[i].shrink};
		memset(&d, 0, sizeof(d));
		assert_int_equal(heed_revisit_options_check(&o, &d),
		                 HEED_EINVAL);
		if (!strstr(d.message, bad[i].says))
			fail_msg("case %zu: '%s' lacks '%s'", i, d.message,
			         bad[i].says);
	}
	/* The edges that are allowed, and a NULL diag. */
	o = (struct heed_revisit_options){MIN_S, MIN_S, MIN_S, 10, 0};
	assert_int_equal(heed_revisit_options_check(&o, NULL), HEED_OK);
	o.grow = 0;
	assert_int_equal(heed_revisit_options_check(&o, NULL), HEED_EINVAL);
}

static void test_new(void **state)
{
	struct heed_revisit_options o = defaults();
	struct heed_revisit_state zero = {0}, s;

	(void)state;
	/* No date: the initial interval. */
	s = after(&o, zero, HEED_REVISIT_NEW, T0, NO);
	assert_sane(&o, &s, T0);
	assert_state(&s, DAY, NO, T0 + DAY);
	/* Changed an hour ago: still the initial interval. */
	s = after(&o, zero, HEED_REVISIT_NEW, T0, T0 - HOUR);
	assert_int_equal(s.interval_s, DAY);
	assert_int_equal(s.changed_at, T0 - HOUR);
	/* Unchanged for 10 days: checked after 5, not daily. */
	s = after(&o, zero, HEED_REVISIT_NEW, T0, T0 - 10 * DAY);
	assert_int_equal(s.interval_s, 5 * DAY);
	assert_int_equal(s.due_at, T0 + 5 * DAY);
	/* For two years: max. */
	s = after(&o, zero, HEED_REVISIT_NEW, T0, T0 - 730 * DAY);
	assert_int_equal(s.interval_s, 30 * DAY);
	/* A date in the future is no evidence. */
	s = after(&o, zero, HEED_REVISIT_NEW, T0, T0 + 10 * DAY);
	assert_int_equal(s.interval_s, DAY);
	assert_int_equal(s.changed_at, NO);
	/* Any outcome on a URL never visited is a first answer. */
	s = after(&o, zero, HEED_REVISIT_UNCHANGED, T0, NO);
	assert_int_equal(s.interval_s, DAY);
	s = after(&o, zero, HEED_REVISIT_CHANGED, T0, NO);
	assert_int_equal(s.interval_s, DAY);
}

static void test_changed(void **state)
{
	struct heed_revisit_options o = defaults();
	struct heed_revisit_state prev = {10 * DAY, T0, NO, T0 + 10 * DAY}, s;
	int64_t now = T0 + 10 * DAY;

	(void)state;
	/* No date: x 0.7, from now. */
	s = after(&o, prev, HEED_REVISIT_CHANGED, now, NO);
	assert_sane(&o, &s, now);
	assert_state(&s, 7 * DAY, now, now + 7 * DAY);
	/* A date before the previous visit contradicts the change seen: the
	 * change is placed at this visit. */
	s = after(&o, prev, HEED_REVISIT_CHANGED, now, T0 - DAY);
	assert_state(&s, 7 * DAY, now, now + 7 * DAY);
	/* Equal to the previous visit: the same. */
	s = after(&o, prev, HEED_REVISIT_CHANGED, now, T0);
	assert_int_equal(s.changed_at, now);
}

/* The change placed at the site's date. */
static void test_changed_anchor(void **state)
{
	struct heed_revisit_options o = defaults();
	struct heed_revisit_state prev = {10 * DAY, T0, NO, T0 + 10 * DAY}, s;

	(void)state;
	s = (struct heed_revisit_state){2 * DAY, T0, NO, T0 + 2 * DAY};
	s = after(&o, s, HEED_REVISIT_CHANGED, T0 + 2 * DAY, T0 + DAY);
	assert_sane(&o, &s, T0 + 2 * DAY);
	/* Changed a day after the previous visit: x 0.7 = 1.4 days from that
	 * change, not from this visit (Nutch's sync_delta, made exact). */
	assert_state(&s, 120960, T0 + DAY, T0 + DAY + 120960);
	/* A change long before this visit: the anchored due date is past,
	 * so min after now. */
	s = after(&o, prev, HEED_REVISIT_CHANGED, T0 + 10 * DAY, T0 + HOUR);
	assert_int_equal(s.interval_s, 7 * DAY);
	assert_int_equal(s.due_at, T0 + 10 * DAY + HOUR);
	assert_false(heed_revisit_is_due(&s, T0 + 10 * DAY));
	/* Never visited before (no previous visit date): the date anchors. */
	prev.checked_at = NO;
	s = after(&o, prev, HEED_REVISIT_CHANGED, T0 + 10 * DAY, T0 + 9 * DAY);
	assert_int_equal(s.due_at, T0 + 16 * DAY);
}

static void test_changed_between_changes(void **state)
{
	struct heed_revisit_options o = defaults();
	/* The previous change heed knew of was 3 days before this one. */
	struct heed_revisit_state prev = {10 * DAY, T0, T0 - DAY,
	                                  T0 + 10 * DAY},
	                          s;
	int64_t now = T0 + 10 * DAY;

	(void)state;
	s = after(&o, prev, HEED_REVISIT_CHANGED, now, T0 + 2 * DAY);
	assert_sane(&o, &s, now);
	assert_int_equal(s.interval_s, 3 * DAY);
	assert_int_equal(s.changed_at, T0 + 2 * DAY);
	/* Anchored: T0 + 5 days is past, so min after now. */
	assert_int_equal(s.due_at, now + HOUR);
	/* Two changes 10 minutes apart: the bound is min, not less. */
	prev.changed_at = T0 + 2 * DAY - 600;
	s = after(&o, prev, HEED_REVISIT_CHANGED, now, T0 + 2 * DAY);
	assert_int_equal(s.interval_s, HOUR);
	/* The bound only lowers: a slower history keeps x 0.7. */
	prev.changed_at = T0 - 100 * DAY;
	s = after(&o, prev, HEED_REVISIT_CHANGED, now, T0 + 2 * DAY);
	assert_int_equal(s.interval_s, 7 * DAY);
	assert_int_equal(s.due_at, now + HOUR);
}

static void test_unchanged(void **state)
{
	struct heed_revisit_options o = defaults();
	struct heed_revisit_state prev = {2 * DAY, T0, NO, T0 + 2 * DAY}, s;
	int64_t now = T0 + 2 * DAY;

	(void)state;
	s = after(&o, prev, HEED_REVISIT_UNCHANGED, now, NO);
	assert_sane(&o, &s, now);
	assert_int_equal(s.interval_s, 3 * DAY);
	assert_int_equal(s.due_at, now + 3 * DAY);
	assert_int_equal(s.changed_at, NO);
	/* The site says 40 days old: at least 20 days. */
	s = after(&o, prev, HEED_REVISIT_UNCHANGED, now, now - 40 * DAY);
	assert_int_equal(s.interval_s, 20 * DAY);
	assert_int_equal(s.changed_at, now - 40 * DAY);
	/* The change heed saw last counts as the age too. */
	prev.changed_at = now - 12 * DAY;
	s = after(&o, prev, HEED_REVISIT_UNCHANGED, now, NO);
	assert_int_equal(s.interval_s, 6 * DAY);
	assert_int_equal(s.changed_at, now - 12 * DAY);
	/* The newer of the two dates counts. */
	s = after(&o, prev, HEED_REVISIT_UNCHANGED, now, now - 14 * DAY);
	assert_int_equal(s.interval_s, 6 * DAY);
	assert_int_equal(s.changed_at, now - 12 * DAY);
	/* Growth stops at max. */
	prev = (struct heed_revisit_state){29 * DAY, T0, NO, T0 + 29 * DAY};
	s = after(&o, prev, HEED_REVISIT_UNCHANGED, T0 + 29 * DAY, NO);
	assert_int_equal(s.interval_s, 30 * DAY);
}

static void test_failed(void **state)
{
	struct heed_revisit_options o = defaults();
	struct heed_revisit_state prev = {5 * DAY, T0, T0 - DAY, T0 + 5 * DAY},
	                          zero = {0}, s;
	int64_t now = T0 + 6 * DAY;

	(void)state;
	s = after(&o, prev, HEED_REVISIT_FAILED, now, now - HOUR);
	assert_sane(&o, &s, now);
	assert_state(&s, 5 * DAY, T0 - DAY, now + 5 * DAY);
	/* A first failure: the initial interval, no change known. */
	s = after(&o, zero, HEED_REVISIT_FAILED, now, NO);
	assert_int_equal(s.interval_s, DAY);
	assert_int_equal(s.changed_at, NO);
	assert_false(heed_revisit_is_due(&s, now));
}

static void test_bounds_and_in_place(void **state)
{
	struct heed_revisit_options o = defaults();
	struct heed_revisit_state s = {HOUR, T0, NO, T0 + HOUR};
	struct heed_revisit_visit v = {HEED_REVISIT_CHANGED, T0 + HOUR, NO};

	(void)state;
	/* Shrinking below min stops at min; next may be prev. */
	heed_revisit_after(&o, &s, &v, &s);
	assert_sane(&o, &s, T0 + HOUR);
	assert_int_equal(s.interval_s, HOUR);
	assert_int_equal(s.due_at, T0 + 2 * HOUR);
	/* A stored interval beyond max (the setting was lowered) comes back
	 * within bounds on any outcome. */
	for (int k = HEED_REVISIT_NEW; k <= HEED_REVISIT_FAILED; k++) {
		struct heed_revisit_state big = {400 * DAY, T0, NO, T0};

		big = after(&o, big, (heed_revisit_outcome)k, T0 + DAY, NO);
		assert_sane(&o, &big, T0 + DAY);
	}
}

static void test_overflow(void **state)
{
	static const int64_t dates[] = {INT64_MIN, INT64_MIN + 1, -1,       0,
	                                T0,        INT64_MAX - 1, INT64_MAX};
	static const int64_t intervals[] = {INT64_MIN, -1,  0,
	                                    1,         DAY, INT64_MAX};
	struct heed_revisit_options o = defaults(), huge = defaults();

	(void)state;
	huge.max_s = INT64_MAX;
	huge.initial_s = INT64_MAX / 2;
	for (size_t n = 0; n < HEED_ARRAY_SIZE(dates); n++)
		for (size_t c = 0; c < HEED_ARRAY_SIZE(dates); c++)
			for (size_t i = 0; i < HEED_ARRAY_SIZE(intervals); i++)
				for (int k = 0; k <= HEED_REVISIT_FAILED; k++) {
					struct heed_revisit_state p = {
					        intervals[i], dates[c],
					        dates[(c + 1) %
					              HEED_ARRAY_SIZE(dates)],
					        dates[c]};
					struct heed_revisit_state s;
					heed_revisit_outcome out = k;

					s = after(&o, p, out, dates[n],
					          dates[c]);
					assert_sane(&o, &s, dates[n]);
					s = after(
					        &huge, p, out, dates[n],
					        dates[(c + 3) %
					              HEED_ARRAY_SIZE(dates)]);
					assert_sane(&huge, &s, dates[n]);
				}
}

static void test_bad_options_do_not_break(void **state)
{
	struct heed_revisit_options o = {0, 0, -5, 0.0 / 0.0, 1.0 / 0.0};
	struct heed_revisit_state p = {DAY, T0, T0 - DAY, T0 + DAY}, s;

	(void)state;
	for (int k = 0; k <= HEED_REVISIT_FAILED; k++) {
		s = after(&o, p, (heed_revisit_outcome)k, T0 + DAY, T0);
		assert_sane(&o, &s, T0 + DAY);
	}
	o = (struct heed_revisit_options){DAY, HOUR, 30 * DAY, 1.0 / 0.0,
	                                  -1.0 / 0.0};
	s = after(&o, p, HEED_REVISIT_UNCHANGED, T0 + DAY, NO);
	assert_sane(&o, &s, T0 + DAY);
	assert_int_equal(s.interval_s, 11 * DAY); /* grow clamped to 10 */
	s = after(&o, p, HEED_REVISIT_CHANGED, T0 + DAY, NO);
	assert_int_equal(s.interval_s, DAY); /* shrink clamped to 0 */
}

static void test_is_due(void **state)
{
	struct heed_revisit_state zero = {0};
	struct heed_revisit_state s = {DAY, T0, NO, T0 + DAY};
	struct heed_revisit_state unchecked = {DAY, NO, NO, INT64_MAX};

	(void)state;
	assert_true(heed_revisit_is_due(&zero, INT64_MIN));
	assert_true(heed_revisit_is_due(&unchecked, T0));
	assert_false(heed_revisit_is_due(&s, T0));
	assert_false(heed_revisit_is_due(&s, T0 + DAY - 1));
	assert_true(heed_revisit_is_due(&s, T0 + DAY));
	assert_true(heed_revisit_is_due(&s, INT64_MAX));
}

static void test_hinted(void **state)
{
	struct heed_revisit_state zero = {0};
	struct heed_revisit_state s = {DAY, T0, NO, T0 + DAY};

	(void)state;
	assert_false(heed_revisit_hinted(&zero, NO));
	assert_false(heed_revisit_hinted(&s, NO));
	assert_true(heed_revisit_hinted(&zero, T0));
	assert_true(heed_revisit_hinted(&zero, INT64_MIN + 1));
	assert_false(heed_revisit_hinted(&s, T0 - 1));
	assert_false(heed_revisit_hinted(&s, T0));
	assert_true(heed_revisit_hinted(&s, T0 + 1));
	assert_true(heed_revisit_hinted(&s, INT64_MAX));
}

/* A page that changes every period_s from T0 on; visited whenever due,
 * with the site's date of its last change or without. Returns the mean
 * interval of the last 20 of the visits; *changed counts visits that saw
 * a change among them. */
static double simulate(const struct heed_revisit_options *o, int64_t period_s,
                       bool dated, int visits, int *changed)
{
	struct heed_revisit_state s = {0};
	int64_t now = T0, sum = 0, last_change = T0;

	*changed = 0;
	for (int i = 0; i < visits; i++) {
		heed_revisit_outcome out = HEED_REVISIT_NEW;
		int64_t change =
		        period_s ? T0 + (now - T0) / period_s * period_s : T0;

		if (i > 0)
			out = change > last_change ? HEED_REVISIT_CHANGED
			                           : HEED_REVISIT_UNCHANGED;
		last_change = change;
		s = after(o, s, out, now, dated ? change : NO);
		assert_sane(o, &s, now);
		if (i >= visits - 20) {
			sum += s.interval_s;
			*changed += out == HEED_REVISIT_CHANGED;
		}
		now = s.due_at;
	}
	return (double)sum / 20;
}

static void test_converges(void **state)
{
	struct heed_revisit_options o = defaults();
	int changed;
	double mean;

	(void)state;
	/* Every 6 hours, with dates: the visits fall in step. */
	mean = simulate(&o, 6 * HOUR, true, 200, &changed);
	print_message("6 h page, dated: mean %.0f s, %d/20 changed\n", mean,
	              changed);
	assert_true(mean >= 3 * HOUR && mean <= 12 * HOUR);
	assert_true(changed >= 10);
	/* Without dates: near 6 h too. */
	mean = simulate(&o, 6 * HOUR, false, 200, &changed);
	print_message("6 h page, undated: mean %.0f s, %d/20 changed\n", mean,
	              changed);
	assert_true(mean >= 3 * HOUR && mean <= 12 * HOUR);
	/* Never changes: max, and stays there. */
	mean = simulate(&o, 0, true, 60, &changed);
	assert_true(mean == 30 * DAY);
	assert_int_equal(changed, 0);
	mean = simulate(&o, 0, false, 60, &changed);
	assert_true(mean == 30 * DAY);
	/* Changes every 10 minutes: min, every visit a change. */
	mean = simulate(&o, 600, true, 60, &changed);
	assert_true(mean == HOUR);
	assert_int_equal(changed, 20);
}

static void test_alternating(void **state)
{
	struct heed_revisit_options o = defaults();
	struct heed_revisit_state s = {DAY, T0, NO, T0 + DAY};

	(void)state;
	/* changed, unchanged, changed, ...: x 0.7 then x 1.5, so x 1.05 a
	 * pair; within bounds all along and never collapsing to min. */
	s = after(&o, s, HEED_REVISIT_CHANGED, s.due_at, NO);
	s = after(&o, s, HEED_REVISIT_UNCHANGED, s.due_at, NO);
	assert_int_equal(s.interval_s, 90720);
	for (int i = 0; i < 200; i++) {
		int64_t now = s.due_at;

		s = after(&o, s,
		          i % 2 ? HEED_REVISIT_UNCHANGED : HEED_REVISIT_CHANGED,
		          now, NO);
		assert_sane(&o, &s, now);
		assert_true(s.interval_s > 10 * HOUR);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_defaults_and_names),
	        cmocka_unit_test(test_options_check),
	        cmocka_unit_test(test_new),
	        cmocka_unit_test(test_changed),
	        cmocka_unit_test(test_changed_anchor),
	        cmocka_unit_test(test_changed_between_changes),
	        cmocka_unit_test(test_unchanged),
	        cmocka_unit_test(test_failed),
	        cmocka_unit_test(test_bounds_and_in_place),
	        cmocka_unit_test(test_overflow),
	        cmocka_unit_test(test_bad_options_do_not_break),
	        cmocka_unit_test(test_is_due),
	        cmocka_unit_test(test_hinted),
	        cmocka_unit_test(test_converges),
	        cmocka_unit_test(test_alternating),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
