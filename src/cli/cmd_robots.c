/*
 * `heed robots`: what heed makes of a robots.txt file (RFC 9309).
 *
 *   heed robots check [--agent NAME] [--json] FILE URL...
 *   heed robots lint [--json] FILE
 *
 * With ACAP (cmd_robots_acap.c, docs/acap.md): check --usage USAGE
 * [--purpose P]... [--now SECONDS], explain URL FILE, and ACAP diagnostics
 * in lint.
 *
 * FILE "-" is standard input. check exits 0 when every URL is allowed and 1
 * when any is disallowed; lint exits 0 for a file without diagnostics and 1
 * otherwise; both exit 1 when FILE cannot be read and 2 on a usage error.
 *
 * Shape: options are parsed once into struct robots_opts for every
 * subcommand, FILE is loaded once into struct robots_file, and each
 * subcommand is a row of `subcommands` with text and JSON printers of its
 * own. New options (ACAP's --usage and --purpose) go into robots_opts and
 * long_options; new subcommands (explain) are one more row.
 */
#include <getopt.h>
#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_text.h"
#include "cli/robots_acap.h"
#include "heed/robots.h"

/* Options of every `heed robots` subcommand. */
struct robots_opts {
	const char *agent; /* --agent: product token or User-Agent string */
	bool json;         /* --json: one JSON document on stdout */
	struct heed_cli_acap_opts acap; /* --usage, --purpose, --now */
};

/* FILE, read and parsed. */
struct robots_file {
	const char *name; /* as shown in messages: the path, or "<stdin>" */
	char *data;
	size_t len;
	heed_robots *robots;
};

struct robots_subcommand {
	const char *name;
	int min_args, max_args; /* operands after the name; -1: no limit */
	int (*run)(const struct robots_opts *o, struct robots_file *f, int argc,
	           char **argv);
	bool file_last; /* FILE is the last operand (explain URL FILE) */
};

static int run_check(const struct robots_opts *o, struct robots_file *f,
                     int argc, char **argv);
static int run_lint(const struct robots_opts *o, struct robots_file *f,
                    int argc, char **argv);
static int run_explain(const struct robots_opts *o, struct robots_file *f,
                       int argc, char **argv);

static const struct robots_subcommand subcommands[] = {
        {"check", 2, -1, run_check, false},
        {"lint", 1, 1, run_lint, false},
        {"explain", 2, 2, run_explain, true},
};

static void unload(struct robots_file *f)
{
	heed_robots_free(f->robots);
	free(f->data);
}

/* Reads and parses path ("-": standard input). Prints the error and returns
 * false when it cannot. Past the parse limit only one byte more is read:
 * enough for the parser to report the file as over-long. */
static bool load(const char *path, struct robots_file *f)
{
	int truncated;
	heed_status rc;

	memset(f, 0, sizeof(*f));
	f->name = strcmp(path, "-") == 0 ? "<stdin>" : path;
	rc = heed_cli_read_file(path, HEED_ROBOTS_PARSE_LIMIT_BYTES + 1,
	                        &f->data, &f->len, &truncated);
	if (rc == HEED_EIO) {
		heed_cli_error("%s: %m", f->name);
		return false;
	}
	if (rc == HEED_OK)
		rc = heed_robots_parse(&f->robots, NULL, f->data, f->len, NULL);
	if (rc != HEED_OK) {
		heed_cli_error("%s: %s", f->name, heed_strerror(rc));
		unload(f);
		return false;
	}
	return true;
}

/* Prints obj on stdout and frees it. */
static void print_json(json_object *obj)
{
	puts(json_object_to_json_string_ext(
	        obj, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(obj);
}

/* ---- check ----------------------------------------------------------- */

/* Which groups apply, as a line of text ("its own group (line 4)"). */
static void print_agent(const struct robots_file *f, const heed_robots_agent *a)
{
	size_t i, n = heed_robots_agent_group_count(a);
	uint32_t ms;
	unsigned line;

	printf("agent '%s': ", heed_robots_agent_token(a));
	if (n == 0)
		printf("no group applies, every URL is allowed\n");
	else
		printf("%s group%s at line%s",
		       heed_robots_agent_explicit(a) ? "its own" : "the '*'",
		       n > 1 ? "s" : "", n > 1 ? "s" : "");
	for (i = 0; i < n; i++)
		printf("%s%u", i ? ", " : " ",
		       heed_robots_group_line(f->robots,
		                              heed_robots_agent_group(a, i)));
	if (n > 0)
		putchar('\n');
	if (heed_robots_agent_crawl_delay(a, &ms, &line))
		printf("%s:%u: Crawl-delay: %u.%03u s\n", f->name, line,
		       ms / 1000, ms % 1000);
}

static void print_decision(const struct robots_file *f, const char *url,
                           const struct heed_robots_decision *d)
{
	printf("%s: %s\n", url, d->allowed ? "allowed" : "disallowed");
	if (d->implicit) {
		printf("  /robots.txt is always allowed (RFC 9309 2.2.2)\n");
	} else if (!d->matched) {
		printf("  no rule matches; allowed\n");
	} else {
		printf("  %s:%u: %s: ", f->name, d->line,
		       heed_robots_rule_kind_name(d->kind));
		heed_cli_print_text(d->value, d->rule->value_len);
		putchar('\n');
	}
}

static json_object *decision_json(const char *url,
                                  const struct heed_robots_decision *d)
{
	json_object *o = json_object_new_object();
	char path[2048];
	size_t n = heed_robots_normalize(path, sizeof(path), url, strlen(url));

	json_object_object_add(o, "url", heed_cli_json_text(url, strlen(url)));
	json_object_object_add(
	        o, "path",
	        heed_cli_json_text(path,
	                           n < sizeof(path) ? n : sizeof(path) - 1));
	json_object_object_add(o, "allowed",
	                       json_object_new_boolean(d->allowed));
	json_object_object_add(o, "matched",
	                       json_object_new_boolean(d->matched));
	json_object_object_add(o, "implicit",
	                       json_object_new_boolean(d->implicit));
	if (d->matched) {
		json_object_object_add(o, "line",
		                       json_object_new_int64(d->line));
		json_object_object_add(
		        o, "rule",
		        json_object_new_string(
		                heed_robots_rule_kind_name(d->kind)));
		json_object_object_add(
		        o, "value",
		        heed_cli_json_text(d->value, d->rule->value_len));
		json_object_object_add(
		        o, "pattern",
		        heed_cli_json_text(d->rule->pattern,
		                           d->rule->pattern_len));
	}
	return o;
}

static json_object *agent_json(const struct robots_file *f,
                               const heed_robots_agent *a)
{
	json_object *o = json_object_new_object(), *groups;
	size_t i;
	uint32_t ms;

	json_object_object_add(o, "file", json_object_new_string(f->name));
	json_object_object_add(
	        o, "agent", json_object_new_string(heed_robots_agent_token(a)));
	json_object_object_add(
	        o, "explicit",
	        json_object_new_boolean(heed_robots_agent_explicit(a)));
	groups = json_object_new_array();
	for (i = 0; i < heed_robots_agent_group_count(a); i++)
		json_object_array_add(
		        groups,
		        json_object_new_int64(heed_robots_group_line(
		                f->robots, heed_robots_agent_group(a, i))));
	json_object_object_add(o, "group_lines", groups);
	json_object_object_add(o, "crawl_delay_ms",
	                       heed_robots_agent_crawl_delay(a, &ms, NULL)
	                               ? json_object_new_int64(ms)
	                               : NULL);
	return o;
}

static int run_check(const struct robots_opts *o, struct robots_file *f,
                     int argc, char **argv)
{
	heed_robots_agent *a;
	json_object *doc = NULL, *results = NULL;
	int i, status = HEED_EXIT_OK;
	heed_status rc;

	if (heed_cli_acap_wanted(&o->acap, f->data, f->len))
		return heed_cli_acap_check(&o->acap, f->name, f->data, f->len,
		                           argc - 1, argv + 1);
	rc = heed_robots_agent_new(&a, f->robots, o->agent, strlen(o->agent));
	if (rc != HEED_OK) {
		heed_cli_error("%s", heed_strerror(rc));
		return HEED_EXIT_FAIL;
	}
	if (o->json) {
		doc = agent_json(f, a);
		results = json_object_new_array();
		json_object_object_add(doc, "results", results);
	} else {
		print_agent(f, a);
	}
	for (i = 1; i < argc; i++) {
		struct heed_robots_decision d;
		rc = heed_robots_decide(a, argv[i], strlen(argv[i]), &d);
		if (rc != HEED_OK) {
			heed_cli_error("%s: %s", argv[i], heed_strerror(rc));
			status = HEED_EXIT_FAIL;
			continue;
		}
		if (!d.allowed)
			status = HEED_EXIT_FAIL;
		if (o->json)
			json_object_array_add(results,
			                      decision_json(argv[i], &d));
		else
			print_decision(f, argv[i], &d);
	}
	if (doc)
		print_json(doc);
	heed_robots_agent_free(a);
	return status;
}

/* ---- lint ------------------------------------------------------------ */

static json_object *groups_json(const heed_robots *r)
{
	json_object *groups = json_object_new_array();
	size_t g, i;
	uint32_t ms;

	for (g = 0; g < heed_robots_group_count(r); g++) {
		json_object *o = json_object_new_object();
		json_object *agents = json_object_new_array();
		for (i = 0; i < heed_robots_group_agent_count(r, g); i++)
			json_object_array_add(
			        agents,
			        json_object_new_string(
			                heed_robots_group_agent(r, g, i)));
		json_object_object_add(
		        o, "line",
		        json_object_new_int64(heed_robots_group_line(r, g)));
		json_object_object_add(o, "agents", agents);
		json_object_object_add(
		        o, "rules",
		        json_object_new_int64(
		                (int64_t)heed_robots_group_rule_count(r, g)));
		json_object_object_add(
		        o, "crawl_delay_ms",
		        heed_robots_group_crawl_delay(r, g, &ms, NULL)
		                ? json_object_new_int64(ms)
		                : NULL);
		json_object_array_add(groups, o);
	}
	return groups;
}

static bool acap_owned(const struct heed_robots_diagnostic *d,
                       const bool *acap_lines, size_t n);

static json_object *lint_json(const struct robots_file *f,
                              const bool *acap_lines, size_t n)
{
	const heed_robots *r = f->robots;
	json_object *doc = json_object_new_object();
	json_object *diags = json_object_new_array();
	json_object *sitemaps = json_object_new_array();
	size_t i, skipped = 0;

	for (i = 0; i < heed_robots_diag_count(r); i++) {
		const struct heed_robots_diagnostic *d =
		        heed_robots_diag_get(r, i);
		json_object *o;

		if (acap_owned(d, acap_lines, n)) {
			skipped++;
			continue;
		}
		o = json_object_new_object();
		json_object_object_add(o, "line",
		                       json_object_new_int64(d->line));
		json_object_object_add(
		        o, "code",
		        json_object_new_string(
		                heed_robots_diag_code_name(d->code)));
		json_object_object_add(
		        o, "message",
		        heed_cli_json_text(d->message, strlen(d->message)));
		json_object_array_add(diags, o);
	}
	for (i = 0; i < heed_robots_sitemap_count(r); i++) {
		const struct heed_robots_sitemap *s =
		        heed_robots_sitemap_get(r, i);
		json_object_array_add(sitemaps,
		                      heed_cli_json_text(s->url, s->url_len));
	}
	json_object_object_add(doc, "file", json_object_new_string(f->name));
	json_object_object_add(
	        doc, "parsed_bytes",
	        json_object_new_int64((int64_t)heed_robots_parsed_bytes(r)));
	json_object_object_add(
	        doc, "truncated",
	        json_object_new_boolean(heed_robots_truncated(r)));
	json_object_object_add(doc, "diagnostics", diags);
	json_object_object_add(
	        doc, "diagnostics_total",
	        json_object_new_int64(
	                (int64_t)(heed_robots_diag_total(r) - skipped)));
	json_object_object_add(doc, "groups", groups_json(r));
	json_object_object_add(doc, "sitemaps", sitemaps);
	return doc;
}

/* Whether robots diagnostic d is about an ACAP field, which the robots
 * parser does not know and the ACAP parser reports on instead. */
static bool acap_owned(const struct heed_robots_diagnostic *d,
                       const bool *acap_lines, size_t n)
{
	return acap_lines && d->line < n && acap_lines[d->line] &&
	       (d->code == HEED_ROBOTS_DIAG_UNKNOWN_FIELD ||
	        d->code == HEED_ROBOTS_DIAG_MISSING_COLON ||
	        d->code == HEED_ROBOTS_DIAG_SYNTAX);
}

static int run_lint(const struct robots_opts *o, struct robots_file *f,
                    int argc, char **argv)
{
	const heed_robots *r = f->robots;
	size_t i, n, skipped = 0, shown = heed_robots_diag_count(r);
	bool *acap_lines = heed_cli_acap_lines(f->data, f->len, &n);
	json_object *doc = o->json ? lint_json(f, acap_lines, n) : NULL;
	long acap;

	(void)argc;
	(void)argv;
	for (i = 0; i < shown; i++) {
		const struct heed_robots_diagnostic *d =
		        heed_robots_diag_get(r, i);
		if (acap_owned(d, acap_lines, n))
			skipped++;
		else if (!doc)
			printf("%s:%u: %s\n", f->name, d->line, d->message);
	}
	if (!doc && heed_robots_diag_total(r) > shown)
		printf("%s: %zu more diagnostics not shown\n", f->name,
		       heed_robots_diag_total(r) - shown);
	acap = heed_cli_acap_lint(f->name, f->data, f->len, doc);
	free(acap_lines);
	if (doc)
		print_json(doc);
	if (acap < 0)
		return HEED_EXIT_FAIL;
	return heed_robots_diag_total(r) - skipped + (size_t)acap
	               ? HEED_EXIT_FAIL
	               : HEED_EXIT_OK;
}

static int run_explain(const struct robots_opts *o, struct robots_file *f,
                       int argc, char **argv)
{
	(void)argc;
	return heed_cli_acap_explain(&o->acap, f->name, f->data, f->len,
	                             argv[1]);
}

/* ---- the command ----------------------------------------------------- */

static const struct robots_subcommand *find_subcommand(const char *name)
{
	size_t i;

	for (i = 0; i < HEED_ARRAY_SIZE(subcommands); i++)
		if (strcmp(subcommands[i].name, name) == 0)
			return &subcommands[i];
	return NULL;
}

/* Parses the options, anywhere on the line (GNU permutation), into o;
 * returns -1 to go on, or the exit status. */
static int parse_options(int argc, char **argv, struct robots_opts *o)
{
	static const struct option long_options[] = {
	        {"agent", required_argument, NULL, 'a'},
	        {"json", no_argument, NULL, 'j'},
	        {"usage", required_argument, NULL, HEED_CLI_OPT_USAGE},
	        {"purpose", required_argument, NULL, HEED_CLI_OPT_PURPOSE},
	        {"now", required_argument, NULL, HEED_CLI_OPT_NOW},
	        {"first-indexed", required_argument, NULL,
	         HEED_CLI_OPT_FIRST_INDEXED},
	        {"reference", required_argument, NULL, HEED_CLI_OPT_REFERENCE},
	        {"help", no_argument, NULL, 'h'},
	        {NULL, 0, NULL, 0},
	};
	int c, status;

	o->agent = HEED_ROBOTS_PRODUCT_TOKEN;
	o->json = false;
	while ((c = getopt_long(argc, argv, "a:h", long_options, NULL)) != -1) {
		switch (c) {
		case 'a':
			o->agent = optarg;
			break;
		case 'j':
			o->json = true;
			break;
		case 'h':
			heed_cli_print_help(stdout, heed_cli_find("robots"));
			return HEED_EXIT_OK;
		default:
			if (!heed_cli_acap_option(&o->acap, c, optarg, &status))
				return heed_cli_usage("robots",
				                      "unknown option");
			if (status >= 0)
				return status;
		}
	}
	o->acap.agent = o->agent;
	o->acap.json = o->json;
	return -1;
}

static int robots_main(int argc, char **argv, struct robots_opts *o)
{
	const struct robots_subcommand *sub;
	struct robots_file file;
	int status = parse_options(argc, argv, o), operands;

	if (status >= 0)
		return status;
	if (optind >= argc)
		return heed_cli_usage("robots", "missing subcommand");
	sub = find_subcommand(argv[optind]);
	if (!sub)
		return heed_cli_usage("robots", "unknown subcommand '%s'",
		                      argv[optind]);
	operands = argc - optind - 1;
	if (operands < sub->min_args ||
	    (sub->max_args >= 0 && operands > sub->max_args))
		return heed_cli_usage("robots", "%s: wrong number of operands",
		                      sub->name);
	if (sub->file_last) {
		/* "explain URL FILE": the subcommand still sees FILE first. */
		char *tmp = argv[optind + 1];
		argv[optind + 1] = argv[argc - 1];
		argv[argc - 1] = tmp;
	}
	if (!load(argv[optind + 1], &file))
		return HEED_EXIT_FAIL;
	/* The subcommand sees FILE as its argv[0] and its operands after. */
	status = sub->run(o, &file, operands, argv + optind + 1);
	unload(&file);
	return status;
}

int heed_cmd_robots(int argc, char **argv)
{
	struct robots_opts opts = {0};
	int status = robots_main(argc, argv, &opts);

	heed_cli_acap_opts_free(&opts.acap);
	return status;
}
