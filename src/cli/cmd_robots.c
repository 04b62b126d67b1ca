/*
 * `heed robots`: what heed makes of a robots.txt file (RFC 9309).
 *
 *   heed robots check [--agent NAME] [--json] FILE URL...
 *   heed robots lint [--json] FILE
 *
 * With ACAP (cmd_robots_acap.c, docs/acap.md): check --usage USAGE
 * [--purpose P]... [--now SECONDS], explain FILE URL (the old order, URL
 * FILE, is still read when only the first operand has a scheme), and ACAP
 * diagnostics in lint, sorted with the others by line, then code.
 *
 * URL is an absolute http(s) URL or a path starting with '/'; anything else
 * is a usage error, never a decision for a path heed had to guess.
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
#include <ctype.h>
#include <getopt.h>
#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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
	bool old_order; /* also read "URL FILE", explain's former order */
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
	/* Lint's checks too: a CLI parses one file, and lint shows them. */
	const struct heed_robots_parse_options opts = {.lint = true};
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
		rc = heed_robots_parse(&f->robots, NULL, f->data, f->len,
		                       &opts);
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

/*
 * One diagnostic line of lint's text output. Both parsers report in line
 * order already; lint merges their lists and sorts them by line, then code
 * (heed's diagnostics are about whole lines: no column), keeping the
 * parsers' order among equals, so the same file always lints the same.
 */
struct lint_line {
	unsigned line;
	const char *code; /* "unknown-field"; ACAP: its severity */
	const char *acap; /* ACAP's severity, NULL for robots.txt */
	const char *message;
	size_t order; /* the tie-break that makes qsort stable */
};

static int lint_line_cmp(const void *pa, const void *pb)
{
	const struct lint_line *a = pa, *b = pb;
	int c;

	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	c = strcmp(a->code, b->code);
	if (c)
		return c;
	return a->order < b->order ? -1 : a->order > b->order;
}

/* The robots.txt diagnostics lint shows (not those ACAP reports on),
 * sorted, into lines (room for heed_robots_diag_count); returns how many. */
static size_t robots_lines(const heed_robots *r, const bool *acap_lines,
                           size_t nlines, struct lint_line *lines)
{
	size_t n = 0;

	for (size_t i = 0; i < heed_robots_diag_count(r); i++) {
		const struct heed_robots_diagnostic *d =
		        heed_robots_diag_get(r, i);
		if (acap_owned(d, acap_lines, nlines))
			continue;
		lines[n] = (struct lint_line){
		        d->line, heed_robots_diag_code_name(d->code), NULL,
		        d->message, n};
		n++;
	}
	qsort(lines, n, sizeof(*lines), lint_line_cmp);
	return n;
}

static json_object *lint_json(const struct robots_file *f,
                              const bool *acap_lines, size_t n)
{
	const heed_robots *r = f->robots;
	json_object *doc = json_object_new_object();
	json_object *diags = json_object_new_array();
	json_object *sitemaps = json_object_new_array();
	struct lint_line *lines =
	        calloc(heed_robots_diag_count(r) + 1, sizeof(*lines));
	size_t i, shown = lines ? robots_lines(r, acap_lines, n, lines) : 0;
	size_t skipped = heed_robots_diag_count(r) - shown;

	for (i = 0; i < shown; i++) {
		json_object *o = json_object_new_object();
		json_object_object_add(o, "line",
		                       json_object_new_int64(lines[i].line));
		json_object_object_add(o, "code",
		                       json_object_new_string(lines[i].code));
		json_object_object_add(
		        o, "message",
		        heed_cli_json_text(lines[i].message,
		                           strlen(lines[i].message)));
		json_object_array_add(diags, o);
	}
	free(lines);
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

/* Adds the ACAP diagnostics of acap_doc ("acap_diagnostics") to lines. */
static size_t add_acap_lines(struct lint_line *lines, size_t n,
                             json_object *acap_doc)
{
	json_object *arr, *j, *v;

	if (!json_object_object_get_ex(acap_doc, "acap_diagnostics", &arr))
		return n;
	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		struct lint_line *l = &lines[n];
		j = json_object_array_get_idx(arr, i);
		l->line = json_object_object_get_ex(j, "line", &v)
		                  ? (unsigned)json_object_get_int64(v)
		                  : 0;
		l->acap = json_object_object_get_ex(j, "severity", &v)
		                  ? json_object_get_string(v)
		                  : "error";
		l->code = l->acap;
		l->message = json_object_object_get_ex(j, "message", &v)
		                     ? json_object_get_string(v)
		                     : "";
		l->order = n++;
	}
	return n;
}

/* Prints the diagnostics of both parsers, sorted; returns the ACAP count
 * of heed_cli_acap_lint. */
static long print_lint_text(const struct robots_file *f, const bool *acap_lines,
                            size_t nlines)
{
	const heed_robots *r = f->robots;
	size_t i, n = 0, shown = heed_robots_diag_count(r);
	json_object *acap_doc = json_object_new_object();
	long acap = heed_cli_acap_lint(f->name, f->data, f->len, acap_doc);
	json_object *arr = NULL;
	size_t nacap =
	        json_object_object_get_ex(acap_doc, "acap_diagnostics", &arr)
	                ? json_object_array_length(arr)
	                : 0;
	struct lint_line *lines = calloc(shown + nacap + 1, sizeof(*lines));

	if (!lines) {
		json_object_put(acap_doc);
		heed_cli_error("%s: %s", f->name, heed_strerror(HEED_ENOMEM));
		return -1;
	}
	n = robots_lines(r, acap_lines, nlines, lines);
	n = add_acap_lines(lines, n, acap_doc);
	qsort(lines, n, sizeof(*lines), lint_line_cmp);
	for (i = 0; i < n; i++) {
		if (lines[i].acap)
			printf("%s:%u: ACAP %s: %s\n", f->name, lines[i].line,
			       lines[i].acap, lines[i].message);
		else
			printf("%s:%u: %s\n", f->name, lines[i].line,
			       lines[i].message);
	}
	if (heed_robots_diag_total(r) > shown)
		printf("%s: %zu more diagnostics not shown\n", f->name,
		       heed_robots_diag_total(r) - shown);
	free(lines);
	json_object_put(acap_doc);
	return acap;
}

static int run_lint(const struct robots_opts *o, struct robots_file *f,
                    int argc, char **argv)
{
	const heed_robots *r = f->robots;
	size_t i, n, skipped = 0;
	bool *acap_lines = heed_cli_acap_lines(f->data, f->len, &n);
	json_object *doc = o->json ? lint_json(f, acap_lines, n) : NULL;
	long acap;

	(void)argc;
	(void)argv;
	for (i = 0; i < heed_robots_diag_count(r); i++)
		skipped +=
		        acap_owned(heed_robots_diag_get(r, i), acap_lines, n);
	if (doc)
		acap = heed_cli_acap_lint(f->name, f->data, f->len, doc);
	else
		acap = print_lint_text(f, acap_lines, n);
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

/* Whether s starts with a URI scheme and "//" (RFC 3986 3.1: ALPHA *(
 * ALPHA / DIGIT / "+" / "-" / "." ) ":"), as every URL explain takes
 * does; a file name seldom does. */
static bool has_scheme(const char *s)
{
	size_t i = 0;

	if (!isalpha((unsigned char)s[0]))
		return false;
	while (isalnum((unsigned char)s[i]) || s[i] == '+' || s[i] == '-' ||
	       s[i] == '.')
		i++;
	return strncmp(s + i, "://", 3) == 0;
}

/* What check can decide: a path ("/p?q", "//host/p") or an absolute
 * http(s) URL. Anything else ("example.com/x", "private", "ftp://h/") has
 * no robots.txt path heed could say it reads right. */
static bool checkable(const char *s)
{
	return s[0] == '/' || strncasecmp(s, "http://", 7) == 0 ||
	       strncasecmp(s, "https://", 8) == 0;
}

/* The first of check's URL operands that is not checkable, or NULL. */
static const char *bad_target(int operands, char **targets)
{
	for (int i = 0; i < operands; i++)
		if (!checkable(targets[i]))
			return targets[i];
	return NULL;
}

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
	const char *bad;

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
	if (strcmp(sub->name, "check") == 0 &&
	    (bad = bad_target(operands - 1, argv + optind + 2)) != NULL)
		return heed_cli_usage(
		        "robots",
		        "check: '%s' is neither an absolute http(s) "
		        "URL nor a path starting with '/'",
		        bad);
	if (sub->old_order && operands == 2 && has_scheme(argv[optind + 1]) &&
	    !has_scheme(argv[optind + 2])) {
		/* "explain URL FILE", the order explain took before it
		 * learnt check's FILE URL, so older scripts still work: a URL
		 * has a scheme and FILE does not, so the order is plain. */
		char *tmp = argv[optind + 1];
		argv[optind + 1] = argv[optind + 2];
		argv[optind + 2] = tmp;
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
