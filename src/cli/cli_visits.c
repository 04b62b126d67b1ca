/*
 * The visits area's summaries added up and shown alike by `heed queue`,
 * `heed stats` and `heed site report`; see cli_visits.h.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_visits.h"

void heed_cli_visits_zero(struct heed_visit_summary *sum)
{
	memset(sum, 0, sizeof(*sum));
	sum->next_due = HEED_REVISIT_NO_DATE;
	sum->last_checked = HEED_REVISIT_NO_DATE;
}

/* The earlier (later) of two dates, where HEED_REVISIT_NO_DATE is none. */
static int64_t earliest(int64_t a, int64_t b)
{
	if (a == HEED_REVISIT_NO_DATE)
		return b;
	if (b == HEED_REVISIT_NO_DATE)
		return a;
	return a < b ? a : b;
}

void heed_cli_visits_add(struct heed_visit_summary *sum,
                         const struct heed_visit_summary *s)
{
	sum->known += s->known;
	sum->due_now += s->due_now;
	sum->due_day += s->due_day;
	sum->next_due = earliest(sum->next_due, s->next_due);
	/* NO_DATE is the smallest int64_t: the plain maximum ignores it. */
	if (s->last_checked > sum->last_checked)
		sum->last_checked = s->last_checked;
	if (s->last_run_id > sum->last_run_id)
		sum->last_run_id = s->last_run_id;
	sum->last_visited += s->last_visited;
	sum->last_unchanged += s->last_unchanged;
	sum->last_changed += s->last_changed;
}

static int add_one(void *ud, const struct heed_visit_summary *s)
{
	heed_cli_visits_add(ud, s);
	return 0;
}

heed_status heed_cli_visits_total(heed_store *store, const char *site,
                                  int64_t now, struct heed_visit_summary *sum)
{
	heed_cli_visits_zero(sum);
	return heed_store_visits_summary(store, site, now, add_one, sum);
}

const char *heed_cli_due_text(int64_t t, const char *none, char *buf,
                              size_t size)
{
	if (t == HEED_REVISIT_NO_DATE) {
		snprintf(buf, size, "%s", none);
		return buf;
	}
	return heed_cli_format_date(t, buf, size);
}

json_object *heed_cli_due_json(int64_t t)
{
	char buf[32];

	if (t == HEED_REVISIT_NO_DATE)
		return NULL;
	return json_object_new_string(
	        heed_cli_format_date(t, buf, sizeof(buf)));
}

json_object *heed_cli_visits_json(const struct heed_visit_summary *s)
{
	json_object *o = json_object_new_object(), *last = NULL;

	if (s->site)
		json_object_object_add(o, "site",
		                       json_object_new_string(s->site));
	json_object_object_add(o, "known", json_object_new_int64(s->known));
	json_object_object_add(o, "due_now", json_object_new_int64(s->due_now));
	json_object_object_add(o, "due_within_24h",
	                       json_object_new_int64(s->due_day));
	json_object_object_add(o, "next_due", heed_cli_due_json(s->next_due));
	json_object_object_add(o, "last_checked",
	                       heed_cli_due_json(s->last_checked));
	if (s->known) {
		last = json_object_new_object();
		json_object_object_add(last, "run",
		                       json_object_new_int64(s->last_run_id));
		json_object_object_add(last, "visited",
		                       json_object_new_int64(s->last_visited));
		json_object_object_add(
		        last, "unchanged",
		        json_object_new_int64(s->last_unchanged));
		json_object_object_add(last, "changed",
		                       json_object_new_int64(s->last_changed));
	}
	json_object_object_add(o, "last_visit", last);
	return o;
}

const char *heed_cli_visits_last_text(const struct heed_visit_summary *s,
                                      char *buf, size_t size)
{
	snprintf(buf, size, "%lld visited, %lld unchanged, %lld changed",
	         (long long)s->last_visited, (long long)s->last_unchanged,
	         (long long)s->last_changed);
	return buf;
}

void heed_cli_visits_print(const struct heed_visit_summary *s,
                           const char *label1, const char *label2)
{
	char next[32], last[96];

	printf("%s%lld known URLs, %lld due now, %lld due within 24 h, next "
	       "due %s\n",
	       label1, (long long)s->known, (long long)s->due_now,
	       (long long)s->due_day,
	       heed_cli_due_text(s->next_due, "-", next, sizeof(next)));
	if (!label2)
		return;
	if (s->known)
		printf("%srun %lld, %s\n", label2, (long long)s->last_run_id,
		       heed_cli_visits_last_text(s, last, sizeof(last)));
	else
		printf("%snever\n", label2);
}
