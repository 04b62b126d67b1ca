/*
 * What is due and when, as `heed queue`, `heed stats` and `heed site report`
 * show it: one site's or many sites' summaries of the store's visits area
 * (heed/store_visits.h) added up, and the same JSON object and text for them
 * in every command.
 */
#ifndef HEED_CLI_VISITS_H
#define HEED_CLI_VISITS_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdint.h>

#include "heed/store_visits.h"

/* An empty sum: no URL, no date. site stays NULL. */
void heed_cli_visits_zero(struct heed_visit_summary *sum);

/* Adds site summary s to sum: counts add up, next_due is the earliest,
 * last_checked and last_run_id the latest. */
void heed_cli_visits_add(struct heed_visit_summary *sum,
                         const struct heed_visit_summary *s);

/* The sum of the summaries of site (NULL: every site) at now into *sum.
 * HEED_OK, or HEED_ESTORE (heed_store_errmsg says why). */
heed_status heed_cli_visits_total(heed_store *store, const char *site,
                                  int64_t now, struct heed_visit_summary *sum);

/* A date as the commands print it, "2026-11-21T18:00:00Z" (UTC), or none
 * for HEED_REVISIT_NO_DATE: "-" where there is no next due date, "now"
 * for the due date of a URL never visited. Returns buf. */
const char *heed_cli_due_text(int64_t t, const char *none, char *buf,
                              size_t size);

/* A date as JSON: the UTC date string, or null for HEED_REVISIT_NO_DATE. */
json_object *heed_cli_due_json(int64_t t);

/* The JSON object of a summary: site (when s->site is not NULL), known,
 * due_now, due_within_24h, next_due, last_checked and last_visit {run,
 * visited, unchanged, changed} (null when the store knows no URL). */
json_object *heed_cli_visits_json(const struct heed_visit_summary *s);

/* Prints the two lines of a summary, each after label1 and label2:
 * "N known URLs, N due now, N due within 24 h, next due DATE" and
 * "run N, N visited, N unchanged, N changed" (or "never"); label2 NULL
 * prints the first only. */
void heed_cli_visits_print(const struct heed_visit_summary *s,
                           const char *label1, const char *label2);

/* "N visited, N unchanged, N changed" of the last visit, into buf. */
const char *heed_cli_visits_last_text(const struct heed_visit_summary *s,
                                      char *buf, size_t size);

#endif /* HEED_CLI_VISITS_H */
