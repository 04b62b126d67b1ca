/*
 * The ACAP side of `heed robots` (cmd_robots_acap.c): check --usage,
 * explain and the ACAP diagnostics of lint. cmd_robots.c owns the command
 * line and the file; these functions only need what is below.
 */
#ifndef HEED_CLI_ROBOTS_ACAP_H
#define HEED_CLI_ROBOTS_ACAP_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "heed/acap.h"

struct heed_cli_acap_opts {
	const char *agent;
	bool json;
	bool usage_set; /* --usage was given */
	heed_acap_usage usage;
	const char **purposes; /* --purpose, repeatable; malloc'd */
	size_t npurposes;
	int64_t now;           /* --now, or the clock (Unix seconds) */
	int64_t first_indexed; /* --first-indexed, for n-days time limits */
	const char **refs; /* --reference LOCATOR=FILE, repeatable; malloc'd */
	size_t nrefs;
};

/* Handles --usage, --purpose, --now and --first-indexed for getopt_long: true
 * when c was one of them (then *status is -1, or HEED_EXIT_USAGE on a bad
 * value). */
bool heed_cli_acap_option(struct heed_cli_acap_opts *o, int c, const char *arg,
                          int *status);
void heed_cli_acap_opts_free(struct heed_cli_acap_opts *o);

/* The getopt_long codes of those options. */
enum {
	HEED_CLI_OPT_USAGE = 0x100,
	HEED_CLI_OPT_PURPOSE,
	HEED_CLI_OPT_NOW,
	HEED_CLI_OPT_FIRST_INDEXED,
	HEED_CLI_OPT_REFERENCE,
};

/* Whether check should answer through ACAP: an ACAP option was given or
 * the file holds ACAP fields. */
bool heed_cli_acap_wanted(const struct heed_cli_acap_opts *o, const char *data,
                          size_t len);

/* check through ACAP: exit 0 when every URL is permitted, 1 otherwise. */
int heed_cli_acap_check(const struct heed_cli_acap_opts *o, const char *name,
                        const char *data, size_t len, int nurls, char **urls);

/* explain URL: the chain of fields that decided, in words. */
int heed_cli_acap_explain(const struct heed_cli_acap_opts *o, const char *name,
                          const char *data, size_t len, const char *url);

/* Whether line (1-based) of data is an ACAP field, whose robots.txt
 * diagnostics ("unknown field") lint leaves to ACAP. lines is an array from
 * heed_cli_acap_lines (free it), n its length. */
bool *heed_cli_acap_lines(const char *data, size_t len, size_t *n);

/* Prints the ACAP diagnostics (text), or adds them to doc (JSON) as
 * "acap_diagnostics". Returns how many are errors or warnings; -1 when the
 * file could not be parsed (out of memory). */
long heed_cli_acap_lint(const char *name, const char *data, size_t len,
                        json_object *doc);

#endif /* HEED_CLI_ROBOTS_ACAP_H */
