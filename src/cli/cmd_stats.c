/*
 * `heed stats [--json]`: what the store holds (counts per site and per
 * status), with the frontier's state and the last crawl runs, so an
 * operator sees at a glance what a crawl found, and what is due for a
 * revisit (`heed queue` shows it per site).
 */
#include <getopt.h>
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/cli_config.h"
#include "cli/cli_visits.h"
#include "heed/store_frontier.h"
#include "heed/store_pages.h"

struct stats_run {
	json_object *json; /* array of rows with --json, else NULL */
	int64_t pages, with_views;
	size_t sites;
	char last_host[256];
};

static int stats_row(void *ud, const struct heed_store_page_count *c)
{
	struct stats_run *r = ud;
	char when[32];

	if (strcmp(r->last_host, c->host) != 0) {
		r->sites++;
		snprintf(r->last_host, sizeof(r->last_host), "%s", c->host);
	}
	r->pages += c->pages;
	r->with_views += c->with_views;
	heed_cli_format_date(c->last_fetched, when, sizeof(when));
	if (!r->json) {
		printf("%-32s %6d %7lld %10lld  %s\n", c->host, c->status,
		       (long long)c->pages, (long long)c->with_views, when);
		return 0;
	}
	json_object *o = json_object_new_object();
	json_object_object_add(o, "site", json_object_new_string(c->host));
	json_object_object_add(o, "status", json_object_new_int(c->status));
	json_object_object_add(o, "pages", json_object_new_int64(c->pages));
	json_object_object_add(o, "with_views",
	                       json_object_new_int64(c->with_views));
	json_object_object_add(o, "last_fetched", json_object_new_string(when));
	json_object_array_add(r->json, o);
	return 0;
}

static json_object *run_json(const struct heed_crawl_run *run)
{
	json_object *o = json_object_new_object();
	char when[32];

	json_object_object_add(o, "mode", json_object_new_string(run->mode));
	json_object_object_add(o, "started",
	                       json_object_new_string(heed_cli_format_date(
	                               run->started_at, when, sizeof(when))));
	json_object_object_add(
	        o, "finished",
	        run->finished_at
	                ? json_object_new_string(heed_cli_format_date(
	                          run->finished_at, when, sizeof(when)))
	                : NULL);
	json_object_object_add(o, "pages", json_object_new_int64(run->pages));
	json_object_object_add(o, "errors", json_object_new_int64(run->errors));
	return o;
}

static void print_run(const char *label, const struct heed_crawl_run *run)
{
	char start[32], end[32];

	printf("%s: %s crawl started %s, %s, %lld pages, %lld errors\n", label,
	       run->mode,
	       heed_cli_format_date(run->started_at, start, sizeof(start)),
	       run->finished_at ? heed_cli_format_date(run->finished_at, end,
	                                               sizeof(end))
	                        : "not finished",
	       (long long)run->pages, (long long)run->errors);
}

static int stats_print(heed_store *store, int json)
{
	struct stats_run r = {0};
	struct heed_crawl_run last, open;
	struct heed_visit_summary due;
	int64_t f[4];
	int has_last, has_open;

	if (json)
		r.json = json_object_new_array();
	else
		printf("%-32s %6s %7s %10s  %s\n", "site", "status", "pages",
		       "with views", "last fetched");
	if (heed_store_pages_stats(store, stats_row, &r) != HEED_OK ||
	    heed_store_frontier_counts(store, f) != HEED_OK ||
	    heed_cli_visits_total(store, NULL, (int64_t)time(NULL), &due) !=
	            HEED_OK) {
		heed_cli_error("stats: %s", heed_store_errmsg(store));
		json_object_put(r.json);
		return HEED_EXIT_FAIL;
	}
	has_last = heed_store_run_last(store, NULL, &last) == HEED_OK;
	has_open = heed_store_run_open(store, &open) == HEED_OK;
	if (!json) {
		printf("total: %lld pages (%lld with views) on %zu sites\n",
		       (long long)r.pages, (long long)r.with_views, r.sites);
		printf("frontier: %lld queued, %lld in flight, %lld done, "
		       "%lld dropped\n",
		       (long long)f[0], (long long)f[1], (long long)f[2],
		       (long long)f[3]);
		heed_cli_visits_print(&due, "revisits: ", NULL);
		if (has_last)
			print_run("last run", &last);
		if (has_open)
			print_run("open run", &open);
		return HEED_EXIT_OK;
	}
	json_object *o = json_object_new_object();
	json_object *fr = json_object_new_object();
	json_object_object_add(o, "sites", r.json);
	json_object_object_add(o, "pages", json_object_new_int64(r.pages));
	for (int i = 0; i < 4; i++)
		json_object_object_add(fr, heed_frontier_state_name(i),
		                       json_object_new_int64(f[i]));
	json_object_object_add(o, "frontier", fr);
	json_object_object_add(o, "revisits", heed_cli_visits_json(&due));
	json_object_object_add(o, "last_run",
	                       has_last ? run_json(&last) : NULL);
	json_object_object_add(o, "open_run",
	                       has_open ? run_json(&open) : NULL);
	puts(json_object_to_json_string_ext(
	        o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
	return HEED_EXIT_OK;
}

int heed_cmd_stats(int argc, char **argv)
{
	static const struct option longopts[] = {
	        {"json", no_argument, NULL, 'j'},
	        {"help", no_argument, NULL, 'h'},
	        HEED_CLI_CONFIG_LONGOPTS,
	        {NULL, 0, NULL, 0},
	};
	struct heed_cli_config cc = {0};
	struct heed_config cfg;
	heed_store *store = NULL;
	int c, json = 0, ex;

	while ((c = getopt_long(argc, argv, "jh", longopts, NULL)) != -1) {
		int shared = heed_cli_config_option(&cc, c, optarg);
		if (shared < 0 || (!shared && c != 'j' && c != 'h')) {
			heed_cli_config_free(&cc);
			return HEED_EXIT_USAGE;
		}
		if (c == 'j')
			json = 1;
		if (c == 'h') {
			heed_cli_config_free(&cc);
			heed_cli_print_help(stdout, heed_cli_find("stats"));
			return HEED_EXIT_OK;
		}
	}
	if (optind < argc) {
		heed_cli_config_free(&cc);
		return heed_cli_usage("stats", "unexpected argument '%s'",
		                      argv[optind]);
	}
	/* A bad setting is a settings error, from any source. */
	ex = HEED_EXIT_USAGE;
	if (heed_cli_config_load(&cc, &cfg, "stats")) {
		ex = HEED_EXIT_FAIL;
		store = heed_cli_open_store_existing(&cfg, NULL);
	}
	heed_config_free(&cfg);
	heed_cli_config_free(&cc);
	if (!store)
		return ex;
	ex = stats_print(store, json);
	heed_store_close(store);
	return ex;
}
