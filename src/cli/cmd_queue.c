/*
 * `heed queue [--site SITE] [--limit N] [--json]`: what is due for a
 * revisit and when, so an operator sees what the next crawls will ask a
 * site for. Without --site, a line per site from the visits area's
 * summaries; with it, the site's URLs by due date, one page of --limit
 * rows. Reads only: it runs beside a crawl.
 */
#include <getopt.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/cli_config.h"
#include "cli/cli_visits.h"
#include "heed/url.h"

#define DEFAULT_LIMIT 50
#define MAX_LIMIT     1000000000LL

/* Which sites --site names: one origin, or the origins of a host. */
struct site_filter {
	bool given;
	bool origin; /* want is an origin "scheme://host[:port]" */
	bool port;   /* want is "host:port": that port only */
	char want[512];
};

struct queue_cli {
	heed_store *store;
	struct site_filter filter;
	int64_t limit; /* 0: all */
	int64_t now;
	int json;
	json_object *sites; /* array, with --json */
	struct heed_visit_summary total;
	int64_t shown_sites, matched_sites;
	heed_status rc; /* of a listing inside a summary callback */
};

static char ascii_lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* --site as an origin (from a URL or an origin) or a host[:port]. */
static bool filter_parse(struct site_filter *f, const char *arg)
{
	size_t i, n = strlen(arg);

	f->given = true;
	if (strstr(arg, "://")) {
		heed_url *u = NULL;
		bool ok = heed_url_parse(&u, arg, n, NULL) == HEED_OK &&
		          strlen(heed_url_origin(u)) < sizeof(f->want);
		if (ok)
			snprintf(f->want, sizeof(f->want), "%s",
			         heed_url_origin(u));
		heed_url_free(u);
		f->origin = true;
		return ok;
	}
	if (n == 0 || n >= sizeof(f->want) || strchr(arg, '/'))
		return false;
	for (i = 0; i <= n; i++)
		f->want[i] = ascii_lower(arg[i]);
	/* A port after the host, or after an IPv6 address's bracket. */
	if (arg[0] == '[' && !(arg = strchr(arg, ']')))
		return false;
	f->port = strchr(arg, ':') != NULL;
	return true;
}

/* Whether site ("scheme://host[:port]") is one --site names. */
static bool filter_match(const struct site_filter *f, const char *site)
{
	const char *host = strstr(site, "://");
	size_t n;

	if (!f->given)
		return true;
	if (f->origin)
		return strcmp(site, f->want) == 0;
	if (!host)
		return false;
	host += 3;
	if (f->port)
		return strcmp(host, f->want) == 0;
	/* The host without its port (after the bracket of an IPv6). */
	n = host[0] == '[' ? strcspn(host, "]") + 1 : strcspn(host, ":");
	return strlen(f->want) == n && strncmp(host, f->want, n) == 0;
}

/* ---- one line per site ---- */

static void print_site_line(const struct heed_visit_summary *s)
{
	char next[32], last[96];

	printf("%-32s %7lld %8lld %8lld  %-20s  %s\n", s->site,
	       (long long)s->known, (long long)s->due_now,
	       (long long)s->due_day,
	       heed_cli_due_text(s->next_due, "-", next, sizeof(next)),
	       heed_cli_visits_last_text(s, last, sizeof(last)));
}

/* ---- one site's URLs ---- */

struct url_page {
	struct queue_cli *q;
	json_object *urls; /* array, with --json */
	int64_t shown;
};

static json_object *url_json(const struct heed_visit *v)
{
	json_object *o = json_object_new_object();
	char every[32];

	json_object_object_add(o, "url", json_object_new_string(v->url));
	json_object_object_add(
	        o, "kind",
	        json_object_new_string(heed_frontier_kind_name(v->kind)));
	json_object_object_add(o, "due", heed_cli_due_json(v->sched.due_at));
	json_object_object_add(o, "interval_s",
	                       json_object_new_int64(v->sched.interval_s));
	json_object_object_add(
	        o, "interval",
	        json_object_new_string(heed_cli_format_interval(
	                v->sched.interval_s, every, sizeof(every))));
	json_object_object_add(o, "last_outcome",
	                       json_object_new_string(heed_revisit_outcome_name(
	                               v->last_outcome)));
	json_object_object_add(o, "status", json_object_new_int(v->status));
	json_object_object_add(o, "last_checked",
	                       heed_cli_due_json(v->sched.checked_at));
	json_object_object_add(o, "last_changed",
	                       heed_cli_due_json(v->sched.changed_at));
	json_object_object_add(o, "fresh_until",
	                       heed_cli_due_json(v->fresh_until));
	json_object_object_add(o, "found_on",
	                       v->found_on ? json_object_new_string(v->found_on)
	                                   : NULL);
	json_object_object_add(o, "visits", json_object_new_int64(v->visits));
	json_object_object_add(o, "changes", json_object_new_int64(v->changes));
	return o;
}

static int url_row(void *ud, const struct heed_visit *v)
{
	struct url_page *p = ud;
	char due[32], every[32];

	p->shown++;
	if (p->urls) {
		json_object_array_add(p->urls, url_json(v));
		return 0;
	}
	printf("%-20s  %-8s  %-9s  %-7s  %s\n",
	       heed_cli_due_text(v->sched.due_at, "now", due, sizeof(due)),
	       heed_cli_format_interval(v->sched.interval_s, every,
	                                sizeof(every)),
	       heed_revisit_outcome_name(v->last_outcome),
	       heed_frontier_kind_name(v->kind), v->url);
	return 0;
}

/* The site's header, then its first --limit URLs by due date. */
static heed_status show_site_urls(struct queue_cli *q,
                                  const struct heed_visit_summary *s)
{
	struct url_page p = {q, NULL, 0};
	json_object *o = NULL;
	heed_status rc;

	if (q->json) {
		o = heed_cli_visits_json(s);
		p.urls = json_object_new_array();
	} else {
		if (q->shown_sites > 1)
			putchar('\n');
		printf("site %s:\n", s->site);
		heed_cli_visits_print(s, "  ", "  last visit: ");
		printf("%-20s  %-8s  %-9s  %-7s  %s\n", "due", "interval",
		       "outcome", "kind", "URL");
	}
	rc = heed_store_visits_list(q->store, s->site, 0, NULL, q->limit,
	                            url_row, &p);
	if (o) {
		json_object_object_add(o, "urls", p.urls);
		json_object_object_add(
		        o, "more", json_object_new_int64(s->known - p.shown));
		json_object_array_add(q->sites, o);
	} else if (rc == HEED_OK && p.shown < s->known) {
		printf("%lld more (--limit 0 shows all)\n",
		       (long long)(s->known - p.shown));
	}
	return rc;
}

static int on_summary(void *ud, const struct heed_visit_summary *s)
{
	struct queue_cli *q = ud;

	if (!filter_match(&q->filter, s->site))
		return 0;
	q->matched_sites++;
	heed_cli_visits_add(&q->total, s);
	if (q->filter.given) {
		/* Every matching site's URLs: a host has a few sites, and
		 * --limit bounds each one's page. */
		q->shown_sites++;
		q->rc = show_site_urls(q, s);
		return q->rc != HEED_OK;
	}
	if (q->limit && q->shown_sites >= q->limit)
		return 0;
	q->shown_sites++;
	if (q->json)
		json_object_array_add(q->sites, heed_cli_visits_json(s));
	else
		print_site_line(s);
	return 0;
}

static void print_total(const struct queue_cli *q)
{
	char next[32];

	if (!q->filter.given && q->shown_sites < q->matched_sites)
		printf("%lld more site(s) (--limit 0 shows all)\n",
		       (long long)(q->matched_sites - q->shown_sites));
	printf("total: %lld URLs on %lld site%s, %lld due now, %lld due "
	       "within 24 h, next due %s\n",
	       (long long)q->total.known, (long long)q->matched_sites,
	       q->matched_sites == 1 ? "" : "s", (long long)q->total.due_now,
	       (long long)q->total.due_day,
	       heed_cli_due_text(q->total.next_due, "-", next, sizeof(next)));
}

static void print_json(struct queue_cli *q)
{
	json_object *o = json_object_new_object();
	json_object *total = heed_cli_visits_json(&q->total);

	json_object_object_add(o, "now", heed_cli_due_json(q->now));
	json_object_object_add(total, "sites",
	                       json_object_new_int64(q->matched_sites));
	json_object_object_add(o, "sites", json_object_get(q->sites));
	json_object_object_add(
	        o, "more_sites",
	        json_object_new_int64(q->matched_sites - q->shown_sites));
	json_object_object_add(o, "total", total);
	puts(json_object_to_json_string_ext(
	        o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
}

static int queue_print(struct queue_cli *q, const char *site_arg)
{
	heed_status rc;

	heed_cli_visits_zero(&q->total);
	q->now = (int64_t)time(NULL);
	if (q->json)
		q->sites = json_object_new_array();
	else if (!q->filter.given)
		printf("%-32s %7s %8s %8s  %-20s  %s\n", "site", "known",
		       "due now", "due 24h", "next due", "last visit");
	/* An origin is read alone; a host's sites are picked from all. */
	rc = heed_store_visits_summary(q->store,
	                               q->filter.origin ? q->filter.want : NULL,
	                               q->now, on_summary, q);
	if (rc == HEED_OK)
		rc = q->rc;
	if (rc != HEED_OK) {
		heed_cli_error("queue: %s", heed_store_errmsg(q->store));
		return HEED_EXIT_FAIL;
	}
	if (q->filter.given && q->matched_sites == 0) {
		heed_cli_error("no known URL of %s in the store", site_arg);
		return HEED_EXIT_FAIL;
	}
	if (q->json)
		print_json(q);
	else if (!q->filter.given)
		print_total(q);
	return HEED_EXIT_OK;
}

/* --limit: a whole number of lines, 0 for all. */
static bool parse_limit(const char *arg, int64_t *limit)
{
	char *end;
	long long n;

	if (!arg[0] || arg[0] == '-' || arg[0] == '+')
		return false;
	n = strtoll(arg, &end, 10);
	if (*end || n > MAX_LIMIT)
		return false;
	*limit = n;
	return true;
}

int heed_cmd_queue(int argc, char **argv)
{
	static const struct option longopts[] = {
	        {"site", required_argument, NULL, 's'},
	        {"limit", required_argument, NULL, 'n'},
	        {"json", no_argument, NULL, 'j'},
	        {"help", no_argument, NULL, 'h'},
	        HEED_CLI_CONFIG_LONGOPTS,
	        {NULL, 0, NULL, 0},
	};
	struct queue_cli q = {.limit = DEFAULT_LIMIT};
	struct heed_cli_config cc = {0};
	struct heed_config cfg;
	const char *site_arg = NULL;
	int c, ex = HEED_EXIT_USAGE;

	while ((c = getopt_long(argc, argv, "s:n:jh", longopts, NULL)) != -1) {
		int shared = heed_cli_config_option(&cc, c, optarg);
		if (shared > 0)
			continue;
		if (shared < 0)
			goto out;
		switch (c) {
		case 's':
			site_arg = optarg;
			if (!filter_parse(&q.filter, optarg)) {
				ex = heed_cli_usage("queue",
				                    "--site takes a site "
				                    "(https://host[:port]), a "
				                    "URL of it, or "
				                    "HOST[:PORT], not '%s'",
				                    optarg);
				goto out;
			}
			break;
		case 'n':
			if (!parse_limit(optarg, &q.limit)) {
				ex = heed_cli_usage(
				        "queue",
				        "--limit takes a whole number of lines "
				        "from 0 (all) to %lld, not '%s'",
				        MAX_LIMIT, optarg);
				goto out;
			}
			break;
		case 'j':
			q.json = 1;
			break;
		case 'h':
			heed_cli_print_help(stdout, heed_cli_find("queue"));
			ex = HEED_EXIT_OK;
			goto out;
		default:
			goto out;
		}
	}
	if (optind < argc) {
		ex = heed_cli_usage("queue", "unexpected argument '%s'",
		                    argv[optind]);
		goto out;
	}
	/* A bad setting is a settings error, from any source. */
	if (heed_cli_config_load(&cc, &cfg, "queue")) {
		ex = HEED_EXIT_FAIL;
		q.store = heed_cli_open_store_existing(&cfg, NULL);
	}
	heed_config_free(&cfg);
	if (q.store) {
		ex = queue_print(&q, site_arg);
		heed_store_close(q.store);
	}
out:
	json_object_put(q.sites);
	heed_cli_config_free(&cc);
	return ex;
}
