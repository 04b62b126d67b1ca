/*
 * `heed robots` with ACAP 1.1 (docs/acap.md):
 *
 *   heed robots check --usage USAGE [--purpose P]... FILE URL...
 *   heed robots explain --agent NAME --usage USAGE FILE URL
 *   heed robots lint FILE        (ACAP diagnostics too)
 *
 * The library decides (heed_acap_decide); this file reads the clock, turns
 * decisions into text or JSON and statuses into exit codes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/robots_acap.h"
#include "heed/robots.h"

static int bad_usage(const char *arg)
{
	char names[512] = "";
	size_t used = 0;

	for (unsigned u = 0; u < HEED_ACAP_USAGE_COUNT; u++) {
		int n = snprintf(names + used, sizeof(names) - used, "%s%s",
		                 u ? ", " : "", heed_acap_usage_name(u));
		if (n > 0 && (size_t)n < sizeof(names) - used)
			used += (size_t)n;
	}
	return heed_cli_usage("robots", "'%s' is not an ACAP usage (%s)", arg,
	                      names);
}

/* Appends arg to a growing array; -1, or the exit status on failure. */
static int push_arg(const char ***v, size_t *n, const char *arg)
{
	const char **grown = realloc(*v, (*n + 1) * sizeof(**v));

	if (!grown) {
		heed_cli_error("%s", heed_strerror(HEED_ENOMEM));
		return HEED_EXIT_FAIL;
	}
	*v = grown;
	grown[(*n)++] = arg;
	return -1;
}

bool heed_cli_acap_option(struct heed_cli_acap_opts *o, int c, const char *arg,
                          int *status)
{
	char *end;
	long long v;

	*status = -1;
	switch (c) {
	case HEED_CLI_OPT_USAGE:
		o->usage_set = true;
		if (!heed_acap_usage_from_name(arg, strlen(arg), &o->usage))
			*status = bad_usage(arg);
		return true;
	case HEED_CLI_OPT_PURPOSE:
		*status = push_arg(&o->purposes, &o->npurposes, arg);
		return true;
	case HEED_CLI_OPT_REFERENCE:
		if (!strchr(arg, '=') || arg[0] == '=')
			*status = heed_cli_usage(
			        "robots",
			        "--reference wants LOCATOR=FILE, "
			        "not '%s'",
			        arg);
		else
			*status = push_arg(&o->refs, &o->nrefs, arg);
		return true;
	case HEED_CLI_OPT_NOW:
	case HEED_CLI_OPT_FIRST_INDEXED:
		errno = 0;
		v = strtoll(arg, &end, 10);
		if (errno || end == arg || *end || v <= 0)
			*status = heed_cli_usage("robots",
			                         "'%s' is not a time in Unix "
			                         "seconds",
			                         arg);
		*(c == HEED_CLI_OPT_NOW ? &o->now : &o->first_indexed) = v;
		return true;
	default:
		return false;
	}
}

void heed_cli_acap_opts_free(struct heed_cli_acap_opts *o)
{
	free(o->purposes);
	free(o->refs);
	o->purposes = NULL;
	o->refs = NULL;
	o->npurposes = o->nrefs = 0;
}

static int64_t now_of(const struct heed_cli_acap_opts *o)
{
	return o->now ? o->now : (int64_t)time(NULL);
}

static heed_acap_usage usage_of(const struct heed_cli_acap_opts *o)
{
	return o->usage_set ? o->usage : HEED_ACAP_CRAWL;
}

bool heed_cli_acap_wanted(const struct heed_cli_acap_opts *o, const char *data,
                          size_t len)
{
	size_t n;
	bool *lines, any = false;

	if (o->usage_set || o->npurposes > 0)
		return true;
	lines = heed_cli_acap_lines(data, len, &n);
	for (size_t i = 0; lines && i < n && !any; i++)
		any = lines[i];
	free(lines);
	return any;
}

/* --reference LOCATOR=FILE: reads FILE into r for LOCATOR (2.3.2). */
static bool add_reference(heed_acap *r, const char *spec)
{
	const char *eq = strchr(spec, '=');
	char *locator = strndup(spec, (size_t)(eq - spec)), *data = NULL;
	size_t len;
	int truncated;
	heed_status rc =
	        locator ? heed_cli_read_file(eq + 1,
	                                     HEED_ROBOTS_PARSE_LIMIT_BYTES,
	                                     &data, &len, &truncated)
	                : HEED_ENOMEM;

	if (rc == HEED_EIO)
		heed_cli_error("%s: %m", eq + 1);
	else if (rc == HEED_OK)
		rc = heed_acap_add_reference(r, locator, data, len);
	if (rc == HEED_ENOTFOUND)
		heed_cli_error("%s: no ACAP-permissions-reference names it",
		               locator);
	else if (rc != HEED_OK && rc != HEED_EIO)
		heed_cli_error("%s: %s", spec, heed_strerror(rc));
	free(locator);
	free(data);
	return rc == HEED_OK;
}

static heed_acap *parse_or_complain(const struct heed_cli_acap_opts *o,
                                    const char *name, const char *data,
                                    size_t len)
{
	heed_acap *r = NULL;
	heed_status rc = heed_acap_parse(&r, NULL, data, len);

	if (rc != HEED_OK) {
		heed_cli_error("%s: %s", name, heed_strerror(rc));
		return NULL;
	}
	for (size_t i = 0; o && i < o->nrefs; i++) {
		if (!add_reference(r, o->refs[i])) {
			heed_acap_free(r);
			return NULL;
		}
	}
	return r;
}

static heed_status decide(const struct heed_cli_acap_opts *o,
                          const heed_acap *r, const char *url,
                          struct heed_acap_decision **d)
{
	struct heed_acap_history h = {o->first_indexed, false};
	heed_status rc =
	        heed_acap_decide(r, o->agent, o->purposes, o->npurposes,
	                         usage_of(o), url, now_of(o), &h, d);
	if (rc != HEED_OK)
		heed_cli_error("%s: %s", url, heed_strerror(rc));
	return rc;
}

/* The step that names the deciding line, else the last one. */
static const struct heed_acap_step *
deciding_step(const struct heed_acap_decision *d)
{
	for (size_t i = d->step_count; i > 0; i--)
		if (d->steps[i - 1].line == d->line)
			return &d->steps[i - 1];
	return &d->steps[d->step_count - 1];
}

static void print_qualifiers(const struct heed_acap_decision *d)
{
	char when[32];
	struct tm tm;
	time_t t;

	if (!d->permitted)
		return;
	for (size_t i = 0; i < d->qualifier_count; i++)
		printf("  binding: %s=%s (line %u)\n", d->qualifiers[i].name,
		       d->qualifiers[i].value, d->qualifiers[i].line);
	if (d->time_limit.present && d->time_limit.expires != INT64_MAX) {
		t = (time_t)d->time_limit.expires;
		gmtime_r(&t, &tm);
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
		printf("  permitted until %s\n", when);
	}
	if (d->time_limit.until_recrawled)
		printf("  permitted until the resource is re-crawled\n");
	if (d->max_length.unit != HEED_ACAP_LENGTH_NONE)
		printf("  at most %llu %s\n",
		       (unsigned long long)d->max_length.count,
		       d->max_length.unit == HEED_ACAP_LENGTH_CHARS
		               ? "characters"
		               : "words");
}

static json_object *qualifiers_json(const struct heed_acap_decision *d)
{
	json_object *quals = json_object_new_array();

	for (size_t i = 0; i < d->qualifier_count; i++) {
		json_object *q = json_object_new_object();
		json_object_object_add(
		        q, "type",
		        json_object_new_string(d->qualifiers[i].name));
		json_object_object_add(
		        q, "value",
		        json_object_new_string(d->qualifiers[i].value));
		json_object_object_add(
		        q, "line",
		        json_object_new_int64(d->qualifiers[i].line));
		json_object_array_add(quals, q);
	}
	return quals;
}

static json_object *chain_json(const struct heed_acap_decision *d)
{
	json_object *chain = json_object_new_array();

	for (size_t i = 0; i < d->step_count; i++) {
		json_object *s = json_object_new_object();
		json_object_object_add(s, "line",
		                       json_object_new_int64(d->steps[i].line));
		json_object_object_add(
		        s, "source",
		        d->steps[i].source
		                ? json_object_new_string(d->steps[i].source)
		                : NULL);
		json_object_object_add(
		        s, "reason",
		        json_object_new_string(
		                heed_acap_reason_name(d->steps[i].reason)));
		json_object_object_add(
		        s, "text", json_object_new_string(d->steps[i].text));
		json_object_array_add(chain, s);
	}
	return chain;
}

/* The limits that bind a permission: time limit and maximum length. */
static void limits_json(json_object *j, const struct heed_acap_decision *d)
{
	bool length = d->max_length.unit != HEED_ACAP_LENGTH_NONE;

	json_object_object_add(
	        j, "expires",
	        d->time_limit.present && d->time_limit.expires != INT64_MAX
	                ? json_object_new_int64(d->time_limit.expires)
	                : NULL);
	json_object_object_add(
	        j, "until_recrawled",
	        json_object_new_boolean(d->time_limit.until_recrawled));
	json_object_object_add(
	        j, "max_length",
	        length ? json_object_new_int64((int64_t)d->max_length.count)
	               : NULL);
	json_object_object_add(
	        j, "max_length_unit",
	        length ? json_object_new_string(
	                         d->max_length.unit == HEED_ACAP_LENGTH_CHARS
	                                 ? "chars"
	                                 : "words")
	               : NULL);
}

static json_object *decision_json(const struct heed_cli_acap_opts *o,
                                  const char *url,
                                  const struct heed_acap_decision *d)
{
	json_object *j = json_object_new_object();
	json_object *purposes = json_object_new_array();

	for (size_t i = 0; i < o->npurposes; i++)
		json_object_array_add(purposes,
		                      json_object_new_string(o->purposes[i]));
	json_object_object_add(j, "url", json_object_new_string(url));
	json_object_object_add(j, "agent", json_object_new_string(o->agent));
	json_object_object_add(
	        j, "usage",
	        json_object_new_string(heed_acap_usage_name(usage_of(o))));
	json_object_object_add(j, "purposes", purposes);
	json_object_object_add(j, "allowed",
	                       json_object_new_boolean(d->permitted));
	json_object_object_add(j, "line", json_object_new_int64(d->line));
	json_object_object_add(
	        j, "reference",
	        d->reference ? json_object_new_string(d->reference) : NULL);
	json_object_object_add(j, "qualifiers", qualifiers_json(d));
	limits_json(j, d);
	json_object_object_add(j, "chain", chain_json(d));
	return j;
}

static void print_doc(json_object *doc)
{
	puts(json_object_to_json_string_ext(
	        doc, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(doc);
}

int heed_cli_acap_check(const struct heed_cli_acap_opts *o, const char *name,
                        const char *data, size_t len, int nurls, char **urls)
{
	heed_acap *r = parse_or_complain(o, name, data, len);
	json_object *doc = NULL, *results = NULL;
	int status = HEED_EXIT_OK;

	if (!r)
		return HEED_EXIT_FAIL;
	if (o->json) {
		doc = json_object_new_object();
		results = json_object_new_array();
		json_object_object_add(doc, "file",
		                       json_object_new_string(name));
		json_object_object_add(doc, "agent",
		                       json_object_new_string(o->agent));
		json_object_object_add(doc, "results", results);
	}
	for (int i = 0; i < nurls; i++) {
		struct heed_acap_decision *d;
		const struct heed_acap_step *s;

		if (decide(o, r, urls[i], &d) != HEED_OK) {
			status = HEED_EXIT_FAIL;
			continue;
		}
		if (!d->permitted)
			status = HEED_EXIT_FAIL;
		if (o->json) {
			json_object_array_add(results,
			                      decision_json(o, urls[i], d));
		} else {
			s = deciding_step(d);
			printf("%s: %s (%s)\n", urls[i],
			       d->permitted ? "allowed" : "disallowed",
			       heed_acap_usage_name(usage_of(o)));
			printf("  %s:%u: %s\n", s->source ? s->source : name,
			       s->line, s->text);
			print_qualifiers(d);
		}
		heed_acap_decision_free(d);
	}
	if (doc)
		print_doc(doc);
	heed_acap_free(r);
	return status;
}

static void print_version(const heed_acap *r)
{
	unsigned major, minor;
	bool declared;

	heed_acap_version(r, &major, &minor, &declared);
	if (declared)
		printf("ACAP version %u.%u (its ACAP-version field)\n", major,
		       minor);
	else
		printf("ACAP version 1.0 (no ACAP-version field: fields using "
		       "1.1 features are ignored)\n");
	if (heed_acap_ignores_conventional(r))
		printf("conventional records are ignored "
		       "(ACAP-ignore-conventional-records)\n");
}

/* The action requests addressed to the agent (2.6), which explain lists
 * for the site administrator to see what heed will act on. */
static void print_requests(const struct heed_cli_acap_opts *o,
                           const heed_acap *r)
{
	struct heed_acap_request req[16];
	size_t n = heed_acap_requests(r, o->agent, req, HEED_ARRAY_SIZE(req));

	for (size_t i = 0; i < n && i < HEED_ARRAY_SIZE(req); i++)
		printf("Request on line %u: %s %s\n", req[i].line,
		       req[i].action == HEED_ACAP_TAKE_DOWN ? "take down"
		                                            : "re-crawl",
		       req[i].path);
	if (n > HEED_ARRAY_SIZE(req))
		printf("(%zu more action requests)\n",
		       n - HEED_ARRAY_SIZE(req));
}

int heed_cli_acap_explain(const struct heed_cli_acap_opts *o, const char *name,
                          const char *data, size_t len, const char *url)
{
	heed_acap *r = parse_or_complain(o, name, data, len);
	struct heed_acap_decision *d;
	int status;

	if (!r)
		return HEED_EXIT_FAIL;
	if (decide(o, r, url, &d) != HEED_OK) {
		heed_acap_free(r);
		return HEED_EXIT_FAIL;
	}
	status = d->permitted ? HEED_EXIT_OK : HEED_EXIT_FAIL;
	if (o->json) {
		print_doc(decision_json(o, url, d));
	} else {
		printf("May '%s' %s %s?\n", o->agent,
		       heed_acap_usage_name(usage_of(o)), url);
		printf("%s: ", name);
		print_version(r);
		for (size_t i = 0; i < d->step_count; i++) {
			if (d->steps[i].source)
				printf("  line %u of %s: %s\n",
				       d->steps[i].line, d->steps[i].source,
				       d->steps[i].text);
			else if (d->steps[i].line)
				printf("  line %u: %s\n", d->steps[i].line,
				       d->steps[i].text);
			else
				printf("  %s\n", d->steps[i].text);
		}
		printf("Answer: %s\n",
		       d->permitted ? "permitted" : "prohibited");
		print_qualifiers(d);
		print_requests(o, r);
	}
	heed_acap_decision_free(d);
	heed_acap_free(r);
	return status;
}

bool *heed_cli_acap_lines(const char *data, size_t len, size_t *n)
{
	struct heed_robots_lexer lx;
	struct heed_robots_line ln;
	size_t cap = 1;
	bool *lines;

	for (size_t i = 0; i < len; i++)
		cap += data[i] == '\n' || data[i] == '\r';
	lines = calloc(cap + 1, sizeof(*lines));
	*n = 0;
	if (!lines)
		return NULL;
	heed_robots_lex_init(&lx, data, heed_robots_parse_limit(data, len));
	while (heed_robots_lex_next(&lx, &ln) && ln.number <= cap) {
		lines[ln.number] = ln.name_len >= 5 &&
		                   strncasecmp(ln.name, "ACAP-", 5) == 0;
		*n = ln.number + 1;
	}
	return lines;
}

/* Lint's order: line, then severity name ("error", "note", "warning"),
 * then the parser's (the pointers into its list compare so). */
static int lint_order(const void *pa, const void *pb)
{
	const struct heed_acap_diag *a =
	        *(const struct heed_acap_diag *const *)pa;
	const struct heed_acap_diag *b =
	        *(const struct heed_acap_diag *const *)pb;
	int c;

	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	c = strcmp(heed_acap_severity_name(a->severity),
	           heed_acap_severity_name(b->severity));
	if (c)
		return c;
	return (a > b) - (a < b);
}

long heed_cli_acap_lint(const char *name, const char *data, size_t len,
                        json_object *doc)
{
	heed_acap *r = parse_or_complain(NULL, name, data, len);
	json_object *diags = doc ? json_object_new_array() : NULL;
	const struct heed_acap_diag **sorted;
	size_t n;
	long serious = 0;

	if (!r) {
		json_object_put(diags);
		return -1;
	}
	n = heed_acap_diag_count(r);
	sorted = calloc(n + 1, sizeof(*sorted));
	if (!sorted) {
		heed_cli_error("%s: %s", name, heed_strerror(HEED_ENOMEM));
		json_object_put(diags);
		heed_acap_free(r);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		sorted[i] = heed_acap_diag_get(r, i);
	qsort(sorted, n, sizeof(*sorted), lint_order);
	for (size_t i = 0; i < n; i++) {
		const struct heed_acap_diag *d = sorted[i];
		const char *sev = heed_acap_severity_name(d->severity);

		serious += d->severity != HEED_ACAP_NOTE;
		if (diags) {
			json_object *j = json_object_new_object();
			json_object_object_add(j, "line",
			                       json_object_new_int64(d->line));
			json_object_object_add(j, "severity",
			                       json_object_new_string(sev));
			json_object_object_add(
			        j, "message",
			        json_object_new_string(d->message));
			json_object_array_add(diags, j);
		} else {
			printf("%s:%u: ACAP %s: %s\n", name, d->line, sev,
			       d->message);
		}
	}
	free(sorted);
	if (doc)
		json_object_object_add(doc, "acap_diagnostics", diags);
	heed_acap_free(r);
	return serious;
}
