/*
 * `heed site qualify URL...`, `heed site report HOST`, `heed site reset
 * HOST`: the robots.txt lifecycle (docs/robots-lifecycle.md) on demand, the
 * site report the seed's troubleshooting tip asks for, and the operator's
 * reset of a site disqualified until reset. The lifecycle itself runs in
 * libheed's crawl controller (heed/crawl.h, qualify mode); this file
 * wires settings, store and output.
 */
#include <getopt.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/cli_config.h"
#include "cli/cli_text.h"
#include "cli/cli_visits.h"
#include "heed/crawl_engine.h"
#include "heed/url.h"
#include "heed/robots.h"
#include "heed/store_arrangements.h"
#include "heed/store_sites.h"

struct site_cli {
	struct heed_cli_config cc;
	struct heed_config cfg;
	int json;
	heed_store *store;
	json_object *out;  /* array, with --json */
	int not_qualified; /* sites that ended anything but qualified */
	int failures;      /* store or other errors */
};

static void print_time(FILE *f, int64_t t, const char *zero)
{
	char buf[64];
	time_t tt = (time_t)t;
	struct tm tm;

	if (t == 0 || !gmtime_r(&tt, &tm)) {
		fputs(zero, f);
		return;
	}
	strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S UTC", &tm);
	fputs(buf, f);
}

static json_object *json_time(int64_t t)
{
	char buf[64];
	time_t tt = (time_t)t;
	struct tm tm;

	if (t == 0 || !gmtime_r(&tt, &tm))
		return NULL;
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return json_object_new_string(buf);
}

/* ---- common setup ---- */

static int parse_args(struct site_cli *sc, int argc, char **argv,
                      const char *name)
{
	static const struct option longopts[] = {
	        HEED_CLI_PROXY_LONGOPT,
	        HEED_CLI_CONFIG_LONGOPTS,
	        {"json", no_argument, NULL, 'j'},
	        {"help", no_argument, NULL, 'h'},
	        {NULL, 0, NULL, 0},
	};
	int c, r;

	while ((c = getopt_long(argc, argv, "jh", longopts, NULL)) != -1) {
		r = heed_cli_config_option(&sc->cc, c, optarg);
		if (r < 0)
			return HEED_EXIT_USAGE;
		if (r > 0)
			continue;
		switch (c) {
		case 'j':
			sc->json = 1;
			break;
		case 'h':
			heed_cli_print_help(stdout, heed_cli_find("site"));
			return HEED_EXIT_OK;
		default:
			return heed_cli_usage(name, "unknown option");
		}
	}
	if (optind >= argc)
		return heed_cli_usage(
		        name, "%s missing",
		        strcmp(name, "site qualify") == 0 ? "URL" : "HOST");
	if (!heed_cli_config_load(&sc->cc, &sc->cfg, name))
		return HEED_EXIT_USAGE;
	return -1;
}

/* Opens the store for subcommand name: qualify creates it when missing,
 * reset wants one that exists (it has nothing to reset in a new one) and
 * report only reads (heed/store.h, HEED_STORE_OPEN_*). */
static bool open_store(struct site_cli *sc, const char *name)
{
	unsigned flags = strcmp(name, "report") == 0  ? HEED_STORE_OPEN_READONLY
	                 : strcmp(name, "reset") == 0 ? HEED_STORE_OPEN_EXISTING
	                                              : 0;

	sc->store = heed_cli_open_store_flags(&sc->cfg, flags);
	return sc->store != NULL;
}

/* ---- qualify ---- */

/* A site's lifecycle ended (the controller stored it already). */
static void on_site(void *ud, const struct heed_crawl_site_result *r)
{
	struct site_cli *sc = ud;
	json_object *o;

	if (!heed_site_state_qualified(r->record.state))
		sc->not_qualified++;
	if (!sc->json) {
		printf("%s: %s (%s)%s\n", r->site,
		       heed_site_state_name(r->record.state), r->record.detail,
		       r->contacted ? "" : " [not contacted]");
		fflush(stdout);
		return;
	}
	o = json_object_new_object();
	json_object_object_add(o, "site", json_object_new_string(r->site));
	json_object_object_add(
	        o, "state",
	        json_object_new_string(heed_site_state_name(r->record.state)));
	json_object_object_add(o, "reason",
	                       json_object_new_string(heed_site_reason_name(
	                               r->record.reason)));
	json_object_object_add(
	        o, "detail",
	        heed_cli_json_text(r->record.detail, strlen(r->record.detail)));
	json_object_object_add(o, "http_status",
	                       json_object_new_int(r->record.http_status));
	json_object_object_add(o, "contacted",
	                       json_object_new_boolean(r->contacted));
	json_object_object_add(o, "attempts",
	                       json_object_new_int((int)r->attempts));
	json_object_object_add(o, "failures",
	                       json_object_new_int64(r->record.failures));
	json_object_array_add(sc->out, o);
}

static void warn_contact(const struct heed_config *cfg)
{
	if (heed_config_lacks_contact(cfg))
		heed_cli_error(
		        "warning: no operator contact in the User-Agent: set "
		        "--contact-url/--contact-email (identity.contact_url, "
		        "identity.contact_email) so site administrators can "
		        "reach you");
}

/* The URLs that name a site; each one that does not is reported. */
static size_t usable_urls(struct site_cli *sc, int argc, char **argv,
                          const char **urls)
{
	size_t n = 0;

	for (int i = optind; i < argc; i++) {
		heed_url *u = NULL;
		if (heed_url_parse(&u, argv[i], strlen(argv[i]), NULL) !=
		    HEED_OK) {
			heed_cli_error("'%s' is not an http(s) URL", argv[i]);
			sc->failures++;
			continue;
		}
		heed_url_free(u);
		urls[n++] = argv[i];
	}
	return n;
}

/* The lifecycle runs in the crawl controller (heed/crawl.h) in its
 * qualify mode: the same robots.txt requests, under the same politeness
 * and the same store lock, as a crawl's. */
static int qualify(struct site_cli *sc, int argc, char **argv)
{
	struct heed_logger log = heed_cli_logger(&sc->cfg);
	struct heed_crawl_options o;
	struct heed_diag diag = {0};
	const char **urls = calloc((size_t)argc, sizeof(*urls));
	char ua[512];
	heed_status rc;

	if (!urls)
		return HEED_EXIT_FAIL;
	warn_contact(&sc->cfg);
	heed_config_user_agent(&sc->cfg, ua, sizeof(ua));
	heed_cli_crawl_options(&sc->cfg, &o, ua);
	o.mode = HEED_CRAWL_QUALIFY;
	o.seeds = urls;
	o.seed_count = usable_urls(sc, argc, argv, urls);
	o.on_site = on_site;
	o.site_ud = sc;
	o.logger = &log;
	heed_cli_catch_stop();
	rc = o.seed_count ? heed_crawl_run(sc->store, &o, &heed_cli_stop, NULL,
	                                   NULL, &diag)
	                  : HEED_OK;
	heed_cli_release_stop();
	free(urls);
	if (rc == HEED_OK && heed_cli_stop)
		return HEED_EXIT_INTERRUPTED;
	if (rc != HEED_OK) {
		heed_cli_error("site qualify: %s", diag.message[0]
		                                           ? diag.message
		                                           : heed_strerror(rc));
		return rc == HEED_EBUSY ? HEED_EXIT_BUSY : HEED_EXIT_FAIL;
	}
	return sc->failures || sc->not_qualified ? HEED_EXIT_FAIL
	                                         : HEED_EXIT_OK;
}

/* ---- report ---- */

static char ascii_lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* HOST, HOST:PORT or a URL: the host name, in lower case. */
static bool host_of(const char *arg, char *host, size_t size)
{
	size_t i, n;

	if (strstr(arg, "://")) {
		heed_url *u = NULL;
		bool ok =
		        heed_url_parse(&u, arg, strlen(arg), NULL) == HEED_OK &&
		        strlen(heed_url_hostname(u)) < size;
		if (ok)
			snprintf(host, size, "%s", heed_url_hostname(u));
		heed_url_free(u);
		return ok;
	}
	n = strcspn(arg, arg[0] == '[' ? "]" : ":/");
	if (arg[0] == '[')
		arg++, n--;
	if (n == 0 || n >= size)
		return false;
	for (i = 0; i < n; i++)
		host[i] = ascii_lower(arg[i]);
	host[n] = '\0';
	return true;
}

/* The rules of the robots.txt in force that apply to heed, as the
 * crawler will read them. */
struct rules_view {
	heed_robots *robots;
	heed_robots_agent *agent;
};

static bool rules_open(struct rules_view *v, const struct heed_store_site *s,
                       const char *ua)
{
	memset(v, 0, sizeof(*v));
	if (!s->rules_body)
		return false;
	if (heed_robots_parse(&v->robots, NULL, s->rules_body,
	                      s->rules_body_len, NULL) != HEED_OK ||
	    heed_robots_agent_new(&v->agent, v->robots, ua, strlen(ua)) !=
	            HEED_OK) {
		heed_robots_free(v->robots);
		v->robots = NULL;
		return false;
	}
	return true;
}

static void rules_close(struct rules_view *v)
{
	heed_robots_agent_free(v->agent);
	heed_robots_free(v->robots);
}

static const char *next_attempt_text(const struct heed_site_record *r)
{
	if (r->state == HEED_SITE_DISQUALIFIED_RESET)
		return "not until 'heed site reset'";
	return "any time";
}

static void print_dates(const struct heed_site_record *r,
                        const struct heed_polite_backoff *b)
{
	fputs("last attempt:   ", stdout);
	print_time(stdout, r->robots_date_s, "never");
	fputs("\nnext attempt:   ", stdout);
	if (r->state == HEED_SITE_DISQUALIFIED_RESET)
		fputs(next_attempt_text(r), stdout);
	else
		print_time(stdout, r->next_attempt_s, next_attempt_text(r));
	fputs("\nlast success:   ", stdout);
	print_time(stdout, r->last_success_s, "never");
	printf("\nfailures:       %u in a row\n", (unsigned)r->failures);
	if (b->until_s) {
		printf("back-off:       level %u, until ", (unsigned)b->level);
		print_time(stdout, b->until_s, "-");
		putchar('\n');
	}
}

/* The rules in force for heed, one per line, as the crawler reads them. */
static void print_rules(const struct heed_store_site *s, const char *ua)
{
	struct rules_view v;
	size_t i;

	if (!rules_open(&v, s, ua)) {
		printf("rules in force: %s\n",
		       heed_site_state_qualified(s->record.state)
		               ? "none (everything may be crawled)"
		               : "none (the site is not crawled)");
		return;
	}
	printf("rules in force for %s (%s):\n",
	       heed_robots_agent_token(v.agent),
	       heed_robots_agent_explicit(v.agent) ? "named in the file"
	                                           : "the '*' groups");
	for (i = 0; i < heed_robots_agent_rule_count(v.agent); i++) {
		const struct heed_robots_rule *rule =
		        heed_robots_agent_rule(v.agent, i);
		printf("  line %u: %s: ", rule->line,
		       heed_robots_rule_kind_name(rule->kind));
		heed_cli_print_text(rule->value, rule->value_len);
		putchar('\n');
	}
	if (s->crawl_delay_ms)
		printf("  Crawl-delay: %lld ms\n",
		       (long long)s->crawl_delay_ms);
	rules_close(&v);
}

static void print_body(const struct heed_store_site *s)
{
	if (s->robots_url)
		printf("robots.txt:     %s (%zu bytes)\n", s->robots_url,
		       s->robots_body_len);
	if (!s->robots_body)
		return;
	fputs("----- robots.txt -----\n", stdout);
	heed_cli_print_text(s->robots_body, s->robots_body_len);
	if (s->robots_body_len &&
	    s->robots_body[s->robots_body_len - 1] != '\n')
		putchar('\n');
	puts("----- end -----");
}

static void report_text(const struct heed_store_site *s, const char *ua,
                        const struct heed_polite_backoff *b,
                        const struct heed_visit_summary *due)
{
	const struct heed_site_record *r = &s->record;

	printf("site:           %s\n", s->site);
	printf("state:          %s\n", heed_site_state_name(r->state));
	printf("reason:         %s: %s\n", heed_site_reason_name(r->reason),
	       r->detail);
	if (r->http_status)
		printf("HTTP status:    %d\n", r->http_status);
	print_dates(r, b);
	if (due)
		heed_cli_visits_print(due,
		                      "revisits:       ", "last visit:     ");
	print_rules(s, ua);
	print_body(s);
}

/* Text from the network (or NULL) as a JSON string that stays valid. */
static void add_opt_string(json_object *o, const char *key, const char *v,
                           size_t len)
{
	json_object_object_add(o, key, v ? heed_cli_json_text(v, len) : NULL);
}

/* The rules in force for heed as a JSON array, or NULL when none. */
static json_object *rules_json(const struct heed_store_site *s, const char *ua)
{
	json_object *rules;
	struct rules_view v;
	size_t i;

	if (!rules_open(&v, s, ua))
		return NULL;
	rules = json_object_new_array();
	for (i = 0; i < heed_robots_agent_rule_count(v.agent); i++) {
		const struct heed_robots_rule *rule =
		        heed_robots_agent_rule(v.agent, i);
		json_object *j = json_object_new_object();
		json_object_object_add(
		        j, "kind",
		        json_object_new_string(
		                heed_robots_rule_kind_name(rule->kind)));
		add_opt_string(j, "value", rule->value, rule->value_len);
		json_object_object_add(j, "line",
		                       json_object_new_int((int)rule->line));
		json_object_array_add(rules, j);
	}
	rules_close(&v);
	return rules;
}

static json_object *report_json(const struct heed_store_site *s, const char *ua,
                                const struct heed_polite_backoff *b,
                                const struct heed_visit_summary *due)
{
	const struct heed_site_record *r = &s->record;
	json_object *o = json_object_new_object(), *rules, *bo;

	json_object_object_add(o, "site", json_object_new_string(s->site));
	json_object_object_add(o, "host", json_object_new_string(s->host));
	json_object_object_add(
	        o, "state",
	        json_object_new_string(heed_site_state_name(r->state)));
	json_object_object_add(
	        o, "reason",
	        json_object_new_string(heed_site_reason_name(r->reason)));
	add_opt_string(o, "detail", r->detail, strlen(r->detail));
	json_object_object_add(o, "http_status",
	                       json_object_new_int(r->http_status));
	json_object_object_add(o, "robots_date",
	                       json_object_new_int64(r->robots_date_s));
	json_object_object_add(o, "last_attempt", json_time(r->robots_date_s));
	json_object_object_add(o, "next_attempt_unix",
	                       json_object_new_int64(r->next_attempt_s));
	json_object_object_add(o, "next_attempt",
	                       r->state == HEED_SITE_DISQUALIFIED_RESET
	                               ? NULL
	                               : json_time(r->next_attempt_s));
	json_object_object_add(o, "last_success", json_time(r->last_success_s));
	json_object_object_add(o, "failures",
	                       json_object_new_int64(r->failures));
	bo = json_object_new_object();
	json_object_object_add(bo, "level", json_object_new_int64(b->level));
	json_object_object_add(bo, "until", json_object_new_int64(b->until_s));
	json_object_object_add(o, "backoff", bo);
	add_opt_string(o, "robots_url", s->robots_url,
	               s->robots_url ? strlen(s->robots_url) : 0);
	add_opt_string(o, "robots_txt", s->robots_body, s->robots_body_len);
	json_object_object_add(o, "crawl_delay_ms",
	                       json_object_new_int64(s->crawl_delay_ms));
	rules = rules_json(s, ua);
	/* null: no rules in force (qualified without rules, or not crawled) */
	json_object_object_add(o, "rules", rules);
	/* null: the store could not say (the error is printed) */
	json_object_object_add(o, "revisits",
	                       due ? heed_cli_visits_json(due) : NULL);
	return o;
}

struct report_ctx {
	struct site_cli *sc;
	const char *ua;
	int shown;
};

/* The arrangement in force for the site's host (heed sites), as text
 * after the report or as its "arrangement" member (null: none). */
static void report_arrangement(struct report_ctx *rc, const char *host,
                               json_object *o)
{
	struct heed_arrangement a;
	heed_status st = heed_store_arrangement_get(rc->sc->store, host, &a);

	if (st != HEED_OK && st != HEED_ENOTFOUND) {
		heed_cli_error("%s", heed_store_errmsg(rc->sc->store));
		rc->sc->failures++;
	}
	if (o) {
		json_object_object_add(
		        o, "arrangement",
		        st == HEED_OK ? heed_cli_arrangement_json(&a) : NULL);
	} else if (st == HEED_OK) {
		puts("arrangement with the owner (heed sites):");
		heed_cli_arrangement_print(&a);
	} else {
		puts("arrangement with the owner: none");
	}
	if (st == HEED_OK)
		heed_store_arrangement_clear(rc->sc->store, &a);
}

/* The files the site's ACAP-permissions-reference fields name, as the crawl
 * last asked for them: in force when a body is stored, else their crawlers
 * are prohibited and detail says why. */
struct refs_ctx {
	json_object *arr; /* --json; NULL: text */
	int count;
};

static void on_ref(void *ud, const struct heed_store_acap_ref *r)
{
	struct refs_ctx *x = ud;
	json_object *j;

	x->count++;
	if (!x->arr) {
		if (x->count == 1)
			puts("ACAP permissions references:");
		fputs("  ", stdout);
		heed_cli_print_text(r->locator, strlen(r->locator));
		printf(": %s, HTTP %d, ", r->body ? "in force" : "not in force",
		       r->http_status);
		print_time(stdout, r->fetched_s, "never asked");
		if (r->body)
			printf(", %zu bytes", r->body_len);
		fputs("\n    ", stdout);
		heed_cli_print_text(r->detail, strlen(r->detail));
		if (r->url) {
			fputs(" (", stdout);
			heed_cli_print_text(r->url, strlen(r->url));
			putchar(')');
		}
		putchar('\n');
		return;
	}
	j = json_object_new_object();
	add_opt_string(j, "locator", r->locator, strlen(r->locator));
	add_opt_string(j, "url", r->url, r->url ? strlen(r->url) : 0);
	json_object_object_add(j, "in_force",
	                       json_object_new_boolean(r->body != NULL));
	json_object_object_add(j, "http_status",
	                       json_object_new_int(r->http_status));
	json_object_object_add(j, "fetched", json_time(r->fetched_s));
	json_object_object_add(j, "bytes",
	                       json_object_new_int64((int64_t)r->body_len));
	add_opt_string(j, "detail", r->detail, strlen(r->detail));
	json_object_array_add(x->arr, j);
}

static void report_refs(struct report_ctx *rc, const char *site, json_object *o)
{
	struct refs_ctx x = {o ? json_object_new_array() : NULL, 0};

	if (heed_store_acap_ref_each(rc->sc->store, site, on_ref, &x) !=
	    HEED_OK) {
		heed_cli_error("%s", heed_store_errmsg(rc->sc->store));
		rc->sc->failures++;
	}
	if (o)
		json_object_object_add(o, "acap_references", x.arr);
}

static void on_site_row(void *ud, const struct heed_store_site *s)
{
	struct report_ctx *rc = ud;
	struct heed_store_host h;
	struct heed_visit_summary due, *d = &due;

	heed_store_host_get(rc->sc->store, s->host, &h);
	/* What is due of the site and what its last visit found. */
	if (heed_cli_visits_total(rc->sc->store, s->site, (int64_t)time(NULL),
	                          &due) != HEED_OK) {
		heed_cli_error("%s", heed_store_errmsg(rc->sc->store));
		rc->sc->failures++;
		d = NULL;
	}
	if (rc->sc->json) {
		json_object *o = report_json(s, rc->ua, &h.backoff, d);
		report_refs(rc, s->site, o);
		report_arrangement(rc, s->host, o);
		json_object_array_add(rc->sc->out, o);
	} else {
		if (rc->shown)
			putchar('\n');
		report_text(s, rc->ua, &h.backoff, d);
		report_refs(rc, s->site, NULL);
		report_arrangement(rc, s->host, NULL);
	}
	rc->shown++;
}

static int report(struct site_cli *sc, int argc, char **argv)
{
	char host[256], ua[512];
	struct report_ctx ctx = {sc, ua, 0};
	int i, missing = 0;

	heed_config_user_agent(&sc->cfg, ua, sizeof(ua));
	for (i = optind; i < argc; i++) {
		int before = ctx.shown;
		if (!host_of(argv[i], host, sizeof(host))) {
			heed_cli_error("'%s' is not a host name", argv[i]);
			missing++;
			continue;
		}
		if (heed_store_site_each(sc->store, host, on_site_row, &ctx,
		                         NULL) != HEED_OK) {
			heed_cli_error("%s", heed_store_errmsg(sc->store));
			return HEED_EXIT_FAIL;
		}
		if (ctx.shown == before) {
			heed_cli_error("no site of %s in the store", host);
			missing++;
		}
	}
	return missing || sc->failures ? HEED_EXIT_FAIL : HEED_EXIT_OK;
}

/* ---- reset ---- */

static int reset(struct site_cli *sc, int argc, char **argv)
{
	char host[256];
	size_t n;
	int i, missing = 0;

	for (i = optind; i < argc; i++) {
		if (!host_of(argv[i], host, sizeof(host))) {
			heed_cli_error("'%s' is not a host name", argv[i]);
			missing++;
			continue;
		}
		if (heed_store_site_reset_host(sc->store, host, &n) !=
		    HEED_OK) {
			heed_cli_error("%s", heed_store_errmsg(sc->store));
			return HEED_EXIT_FAIL;
		}
		if (n == 0) {
			heed_cli_error("no site of %s in the store", host);
			missing++;
			continue;
		}
		printf("%s: %zu site(s) reset; the next qualification "
		       "fetches robots.txt at once\n",
		       host, n);
	}
	return missing ? HEED_EXIT_FAIL : HEED_EXIT_OK;
}

int heed_cmd_site(int argc, char **argv)
{
	static const struct {
		const char *name, *full;
		int (*fn)(struct site_cli *, int, char **);
	} subs[] = {
	        {"qualify", "site qualify", qualify},
	        {"report", "site report", report},
	        {"reset", "site reset", reset},
	};
	struct site_cli sc = {0};
	size_t k;
	int rc;

	rc = heed_cli_subcommand("site", argc, argv, &subs[0].name,
	                         HEED_ARRAY_SIZE(subs), sizeof(subs[0]),
	                         "qualify, report or reset", &k);
	if (rc >= 0)
		return rc;
	rc = parse_args(&sc, argc - 1, argv + 1, subs[k].full);
	if (rc >= 0)
		goto out;
	rc = HEED_EXIT_FAIL;
	if (!open_store(&sc, subs[k].name))
		goto out;
	sc.out = json_object_new_array();
	rc = subs[k].fn(&sc, argc - 1, argv + 1);
	if (sc.json)
		puts(json_object_to_json_string_ext(
		        sc.out, JSON_C_TO_STRING_PRETTY |
		                        JSON_C_TO_STRING_NOSLASHESCAPE));
out:
	json_object_put(sc.out);
	heed_store_close(sc.store);
	heed_config_free(&sc.cfg);
	heed_cli_config_free(&sc.cc);
	return rc;
}
