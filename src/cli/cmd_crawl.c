/*
 * `heed crawl [--incremental] [URL...]`: heed's main job. Reads the settings
 * (file, then command line), gathers the start URLs (command line,
 * crawl.seeds, crawl.sites_file; with none and no run to resume, the sites
 * the store knows, so a bare `heed crawl` revisits them), runs the engine of
 * heed/crawl_engine.h into the store, shows its progress (cli_progress.c: a
 * line redrawn on a terminal, a log line every log.progress_interval without
 * one) and prints a summary at the end. SIGINT or SIGTERM stop it cleanly;
 * the next `heed crawl` resumes the run. -v raises the log level, -q leaves
 * errors only, and --dry-run (cmd_crawl_dryrun.c) qualifies the sites and
 * says what would be fetched, writing nothing.
 */
#include <errno.h>
#include <getopt.h>
#include <json-c/json.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_config.h"
#include "cli/cli_progress.h"
#include "heed/crawl_engine.h"
#include "heed/store_frontier.h"
#include "heed/store_sites.h"

enum {
	OPT_SITES = 0x200,
	OPT_MAX_PAGES,
	OPT_MAX_DEPTH,
	OPT_MAX_URL,
	OPT_MAX_REPEAT,
	OPT_MAX_TIME,
	OPT_CONCURRENCY,
	OPT_RESTART,
	OPT_LOG,
	OPT_SCHEDULE,
	OPT_REFRESH,
	OPT_PROGRESS_INTERVAL,
	OPT_DRY_RUN,
	OPT_LIMIT,
	OPT_JSON,
	OPT_WORKER,
	OPT_WORKER_NAME,
	OPT_LEASE,
};

/* Command-line overrides, applied after the file and --set. */
struct crawl_args {
	struct heed_cli_config cc;
	const char *names[16], *values[16];
	size_t count;
	int quiet, verbose, json_log, restart, schedule;
	int dry_run, json; /* --dry-run and its --json */
	int64_t limit;     /* --dry-run's URLs per site */
};

/* A whole number of at most max from an option's text; -1 otherwise. */
static int64_t count_arg(const char *arg, int64_t max)
{
	char *end;
	long long n;

	errno = 0;
	n = strtoll(arg, &end, 10);
	if (errno || end == arg || *end || n < 0 || n > max)
		return -1;
	return n;
}

static const struct {
	int opt;
	const char *name;
} overrides[] = {
        {OPT_SITES, "crawl.sites_file"},
        {OPT_MAX_PAGES, "crawl.max_pages"},
        {OPT_MAX_DEPTH, "crawl.max_depth"},
        {OPT_MAX_URL, "crawl.max_url_bytes"},
        {OPT_MAX_REPEAT, "crawl.max_path_repeat"},
        {OPT_MAX_TIME, "crawl.max_run_time"},
        {OPT_CONCURRENCY, "crawl.concurrency"},
        {OPT_REFRESH, "crawl.refresh"},
        {OPT_PROGRESS_INTERVAL, "log.progress_interval"},
        {'i', "crawl.incremental"},
        {OPT_WORKER, "crawl.worker"},
        {OPT_WORKER_NAME, "crawl.worker_name"},
        {OPT_LEASE, "crawl.lease"},
};

static int take_option(struct crawl_args *a, int c, const char *arg)
{
	for (size_t i = 0; i < HEED_ARRAY_SIZE(overrides); i++) {
		if (overrides[i].opt != c ||
		    a->count == HEED_ARRAY_SIZE(a->names))
			continue;
		a->names[a->count] = overrides[i].name;
		a->values[a->count++] = arg ? arg : "true";
		return 1;
	}
	switch (c) {
	case 'q':
		a->quiet = 1;
		return 1;
	case 'v':
		a->verbose++;
		return 1;
	case OPT_DRY_RUN:
		a->dry_run = 1;
		return 1;
	case OPT_JSON:
		a->json = 1;
		return 1;
	case OPT_LIMIT:
		if ((a->limit = count_arg(arg, 1000000)) >= 0)
			return 1;
		heed_cli_usage("crawl", "--limit is a count, not '%s'", arg);
		return -1;
	case OPT_SCHEDULE:
		a->schedule = 1;
		return 1;
	case OPT_RESTART:
		a->restart = 1;
		return 1;
	case OPT_LOG:
		if (strcmp(arg, "json") == 0 || strcmp(arg, "text") == 0) {
			a->json_log = strcmp(arg, "json") == 0;
			return 1;
		}
		heed_cli_usage("crawl", "--log is json or text, not '%s'", arg);
		return -1;
	default:
		return 0;
	}
}

/* Parses argv; returns an exit code, or -1 to go on. */
static int parse_args(int argc, char **argv, struct crawl_args *a)
{
	static const struct option longopts[] = {
	        {"incremental", no_argument, NULL, 'i'},
	        {"sites", required_argument, NULL, OPT_SITES},
	        {"max-pages", required_argument, NULL, OPT_MAX_PAGES},
	        {"max-depth", required_argument, NULL, OPT_MAX_DEPTH},
	        {"max-url-length", required_argument, NULL, OPT_MAX_URL},
	        {"max-repeat", required_argument, NULL, OPT_MAX_REPEAT},
	        {"max-time", required_argument, NULL, OPT_MAX_TIME},
	        {"concurrency", required_argument, NULL, OPT_CONCURRENCY},
	        {"restart", no_argument, NULL, OPT_RESTART},
	        {"quiet", no_argument, NULL, 'q'},
	        {"verbose", no_argument, NULL, 'v'},
	        {"progress-interval", required_argument, NULL,
	         OPT_PROGRESS_INTERVAL},
	        {"dry-run", no_argument, NULL, OPT_DRY_RUN},
	        {"worker", no_argument, NULL, OPT_WORKER},
	        {"worker-name", required_argument, NULL, OPT_WORKER_NAME},
	        {"lease", required_argument, NULL, OPT_LEASE},
	        {"limit", required_argument, NULL, OPT_LIMIT},
	        {"json", no_argument, NULL, OPT_JSON},
	        {"log", required_argument, NULL, OPT_LOG},
	        {"schedule", no_argument, NULL, OPT_SCHEDULE},
	        {"refresh", required_argument, NULL, OPT_REFRESH},
	        {"help", no_argument, NULL, 'h'},
	        HEED_CLI_PROXY_LONGOPT,
	        HEED_CLI_CONFIG_LONGOPTS,
	        {NULL, 0, NULL, 0},
	};
	int c;

	a->limit = 10;
	while ((c = getopt_long(argc, argv, "iqvh", longopts, NULL)) != -1) {
		int taken = heed_cli_config_option(&a->cc, c, optarg);
		if (!taken)
			taken = take_option(a, c, optarg);
		if (taken > 0)
			continue;
		if (c == 'h') {
			heed_cli_print_help(stdout, heed_cli_find("crawl"));
			return HEED_EXIT_OK;
		}
		return HEED_EXIT_USAGE;
	}
	if (a->quiet && a->verbose)
		return heed_cli_usage("crawl",
		                      "-q and -v contradict each other");
	if (a->dry_run && a->schedule)
		return heed_cli_usage("crawl", "--dry-run shows one crawl, "
		                               "not a --schedule");
	if (a->json && !a->dry_run)
		return heed_cli_usage("crawl", "--json goes with --dry-run "
		                               "(--log json for the logs)");
	return -1;
}

/* One JSON object per log line on stderr (--log json). */
static void log_json(void *ud, heed_log_level level, const char *module,
                     const char *message)
{
	json_object *o = json_object_new_object();
	char when[32];

	(void)ud;
	json_object_object_add(
	        o, "time",
	        json_object_new_string(heed_cli_format_date(
	                (int64_t)time(NULL), when, sizeof(when))));
	json_object_object_add(
	        o, "level", json_object_new_string(heed_log_level_name(level)));
	json_object_object_add(o, "module", json_object_new_string(module));
	json_object_object_add(o, "message", json_object_new_string(message));
	heed_cli_stderr_line(json_object_to_json_string_ext(
	        o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
}

/* Appends a copy of url to seeds; -1 when out of memory. */
static int add_seed(char ***seeds, size_t *count, const char *url)
{
	char **grown = realloc(*seeds, (*count + 1) * sizeof(**seeds));

	if (!grown)
		return -1;
	*seeds = grown;
	if (!(grown[*count] = strdup(url)))
		return -1;
	(*count)++;
	return 0;
}

static void free_seeds(char **seeds, size_t count)
{
	for (size_t i = 0; i < count; i++)
		free(seeds[i]);
	free(seeds);
}

/* Reads a sites file: one URL per line, blank lines and # comments
 * skipped. The strings are appended to seeds (freed by the caller). */
static int read_sites(const char *path, char ***seeds, size_t *count)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
	char line[4096];
	int rc = 0;

	if (!f) {
		heed_cli_error("%s: %s", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char *s = line + strspn(line, " \t");
		s[strcspn(s, " \t\r\n#")] = '\0';
		if (*s && add_seed(seeds, count, s) != 0) {
			rc = -1;
			break;
		}
	}
	if (f != stdin)
		fclose(f);
	return rc;
}

static int gather_seeds(const struct heed_config *cfg, int argc, char **argv,
                        char ***seeds, size_t *count)
{
	for (int i = optind; i < argc; i++)
		if (add_seed(seeds, count, argv[i]) != 0)
			return -1;
	for (size_t i = 0; i < cfg->crawl_seeds.count; i++)
		if (add_seed(seeds, count, cfg->crawl_seeds.items[i]) != 0)
			return -1;
	if (cfg->crawl_sites_file && *cfg->crawl_sites_file)
		return read_sites(cfg->crawl_sites_file, seeds, count);
	return 0;
}

/* The known sites, taken as start URLs when a crawl is given none. */
struct known_sites {
	char **seeds;
	size_t count;   /* taken */
	size_t skipped; /* not qualified until later */
	int64_t now_s;
	int failed;
};

/* The store keeps sites, not the start URLs that brought them, so a known
 * site starts from its origin's "/". A site the lifecycle would not contact
 * now (disqualified until a later attempt, or until reset) is left out, so
 * that it does not count as a site of the run that could not be crawled. */
static void take_known_site(void *ud, const struct heed_store_site *s)
{
	struct known_sites *k = ud;
	const struct heed_site_record *r = &s->record;
	char url[1024];

	if (k->failed)
		return;
	if (r->state == HEED_SITE_DISQUALIFIED_RESET ||
	    (r->state == HEED_SITE_DISQUALIFIED &&
	     k->now_s < r->next_attempt_s)) {
		k->skipped++;
		return;
	}
	if ((size_t)snprintf(url, sizeof(url), "%s/", s->site) >= sizeof(url) ||
	    add_seed(&k->seeds, &k->count, url) != 0)
		k->failed = 1;
}

/* With no start URL and no run to resume, a crawl visits the sites the
 * store knows. Returns an exit code, or -1 to go on with *k's seeds (none
 * for an empty store: the engine then says there is nothing to do). */
static int known_seeds(const struct crawl_args *a, heed_store *store,
                       struct known_sites *k)
{
	struct heed_crawl_run r;
	char msg[160];

	/* A dry run shows the known sites even when a run is open: its
	 * frontier is what `heed queue` lists. */
	if (!a->restart && !a->dry_run &&
	    heed_store_run_open(store, &r) != HEED_ENOTFOUND)
		return -1; /* resumed (or the engine reports the store) */
	k->now_s = (int64_t)time(NULL);
	if (heed_store_site_each(store, NULL, take_known_site, k, NULL) !=
	            HEED_OK ||
	    k->failed) {
		heed_cli_error("crawl: listing the known sites: %s",
		               k->failed ? "out of memory"
		                         : heed_store_errmsg(store));
		return HEED_EXIT_FAIL;
	}
	if (!k->count && !k->skipped)
		return -1;
	snprintf(msg, sizeof(msg),
	         "no start URL: %zu known sites taken from the store, %zu "
	         "skipped (not qualified until later)",
	         k->count, k->skipped);
	if (a->json_log)
		log_json(NULL, HEED_LOG_INFO, "crawl", msg);
	else if (!a->quiet && !a->json)
		printf("heed crawl: %s\n", msg);
	if (!k->count) {
		heed_cli_error("crawl: no site could be crawled (see `heed "
		               "site report`)");
		return HEED_EXIT_FAIL;
	}
	return -1;
}

/* The counters in one line: the progress line on a terminal, and the
 * progress log line without one. */
static void show_progress(const struct heed_crawl_progress *p, bool final)
{
	double s = (double)p->elapsed_ms / 1000.0;
	double rate = s > 0 ? (double)p->requests / s : 0;
	char text[256];

	snprintf(text, sizeof(text),
	         "%lld pages | %lld requests | sites %zu active, %zu waiting, "
	         "%zu done | %.1f req/s | queue %lld | errors %lld | "
	         "%lld:%02lld",
	         (long long)p->pages, (long long)p->requests, p->sites_active,
	         p->sites_waiting, p->sites_done, rate, (long long)p->queued,
	         (long long)p->errors, (long long)(p->elapsed_ms / 60000),
	         (long long)(p->elapsed_ms / 1000 % 60));
	heed_cli_progress_show(text, p->elapsed_ms, final);
}

static void print_progress(void *ud, const struct heed_crawl_progress *p)
{
	(void)ud;
	show_progress(p, false);
}

static void print_summary(FILE *out, heed_crawl_mode mode,
                          const struct heed_crawl_progress *p)
{
	double s = (double)p->elapsed_ms / 1000.0;

	fprintf(out,
	        "heed crawl (%s): %lld pages stored, %lld unchanged, %lld not "
	        "due (revisit schedule), %lld not indexed (noindex), %lld "
	        "refused by robots.txt/ACAP, %lld "
	        "links skipped (limits, media, other sites), %lld media "
	        "responses aborted, %lld tried again later, %lld errors\n",
	        heed_crawl_mode_name(mode), (long long)p->pages,
	        (long long)p->unchanged, (long long)p->not_due,
	        (long long)p->not_indexed, (long long)p->refused,
	        (long long)p->skipped, (long long)p->media_aborted,
	        (long long)p->retried, (long long)p->errors);
	fprintf(out,
	        "sites: %zu seen, %zu not qualified, %zu without sitemap or "
	        "feed; %lld requests in %.1f s (%.2f/s); %lld URLs left in "
	        "the queue%s\n",
	        p->sites, p->sites_disqualified, p->sites_without_sources,
	        (long long)p->requests, s, s > 0 ? (double)p->requests / s : 0,
	        (long long)p->queued,
	        p->queued ? " (run `heed crawl` again to resume)" : "");
	if (p->taken_down)
		fprintf(out, "ACAP take-down: %lld records deleted\n",
		        (long long)p->taken_down);
	if (p->acap_refs || p->acap_ref_failures)
		fprintf(out,
		        "ACAP permissions references: %lld read, %lld not "
		        "(their crawlers stay prohibited; heed site report)\n",
		        (long long)p->acap_refs,
		        (long long)p->acap_ref_failures);
	if (p->refused_owner || p->sites_withheld)
		fprintf(out,
		        "arrangements with owners (heed sites): %lld URLs "
		        "refused by include/exclude, %zu sites not contacted "
		        "(paused, outside their windows)\n",
		        (long long)p->refused_owner, p->sites_withheld);
	if (p->oembed_read || p->oembed_other)
		fprintf(out,
		        "oEmbed: %lld records filled from their page's "
		        "endpoint, %lld endpoints not asked (a site outside "
		        "the crawl)\n",
		        (long long)p->oembed_read, (long long)p->oembed_other);
}

/* The exit contract: 130 after a clean stop on SIGINT or SIGTERM (the
 * run stays open); 1 when nothing could be done, every site of the run
 * unreachable or not qualified; else 0 (some sites failing is what the
 * summary reports). */
static int crawl_exit(const struct heed_crawl_progress *p)
{
	if (heed_cli_stop)
		return HEED_EXIT_INTERRUPTED;
	if (p->sites && p->sites_disqualified == p->sites && !p->pages) {
		heed_cli_error("crawl: no site could be crawled (see the "
		               "reasons above, or `heed site report`)");
		return HEED_EXIT_FAIL;
	}
	return HEED_EXIT_OK;
}

/* The log level: the setting (log.level), one step more per -v; only
 * errors with -q. */
static heed_log_level log_level(const struct crawl_args *a,
                                const struct heed_config *cfg)
{
	int64_t level = a->quiet ? HEED_LOG_ERROR : cfg->log_level + a->verbose;

	return level > HEED_LOG_DEBUG ? HEED_LOG_DEBUG : (heed_log_level)level;
}

/* On a terminal, a progress line redrawn in place; without one, a log
 * line every log.progress_interval (--progress-interval); with -q, none. */
static void progress_begin(const struct crawl_args *a,
                           const struct heed_config *cfg,
                           const struct heed_logger *logger)
{
	if (a->quiet)
		heed_cli_progress_begin(HEED_CLI_PROGRESS_OFF, 0, NULL);
	else if (!a->json_log && isatty(STDERR_FILENO))
		heed_cli_progress_begin(HEED_CLI_PROGRESS_TTY, 0, NULL);
	else
		heed_cli_progress_begin(HEED_CLI_PROGRESS_LOG,
		                        cfg->log_progress_interval * 1000,
		                        logger);
}

/* --dry-run: the store is only read (when there is one), never made. */
static int dry_run(struct crawl_args *a, struct heed_config *cfg,
                   struct heed_crawl_options *o)
{
	struct known_sites known = {0};
	struct heed_diag d = {0};
	heed_store *store = NULL;
	int ex = -1;

	if (heed_store_open_ex(&store, cfg->store_location,
	                       HEED_STORE_OPEN_EXISTING |
	                               HEED_STORE_OPEN_READONLY,
	                       NULL, &d) != HEED_OK)
		store = NULL;
	if (!o->seed_count && store)
		ex = known_seeds(a, store, &known);
	if (ex < 0) {
		if (!o->seed_count) {
			o->seeds = (const char *const *)known.seeds;
			o->seed_count = known.count;
		}
		ex = heed_cli_crawl_dry_run(o, store, (size_t)a->limit,
		                            a->json);
	}
	heed_store_close(store);
	free_seeds(known.seeds, known.count);
	return ex;
}

/* The worker's name in the leases: crawl.worker_name, or HOSTNAME:PID,
 * which no other live worker has. Into buf. */
static const char *worker_name(const struct heed_config *cfg, char *buf,
                               size_t size)
{
	char host[256] = "localhost";

	if (cfg->crawl_worker_name && *cfg->crawl_worker_name) {
		snprintf(buf, size, "%s", cfg->crawl_worker_name);
		return buf;
	}
	gethostname(host, sizeof(host) - 1);
	snprintf(buf, size, "%s:%ld", host, (long)getpid());
	return buf;
}

static int run(struct crawl_args *a, struct heed_config *cfg, char **seeds,
               size_t seed_count)
{
	struct heed_crawl_options o;
	struct heed_crawl_progress summary = {0};
	struct heed_logger logger = heed_cli_logger(cfg);
	struct heed_diag d = {0};
	struct known_sites known = {0};
	char ua[512], holder[320];
	heed_store *store;
	heed_status rc;
	int ex;

	heed_config_user_agent(cfg, ua, sizeof(ua));
	if (heed_config_lacks_contact(cfg) && !a->quiet)
		heed_cli_error("warning: no contact in the User-Agent: set "
		               "identity.contact_url or identity.contact_email "
		               "(--contact-url, --contact-email) so site "
		               "administrators can reach you");
	logger.level = log_level(a, cfg);
	if (a->json_log)
		logger.fn = log_json;
	heed_cli_crawl_options(cfg, &o, ua);
	o.seeds = (const char *const *)seeds;
	o.seed_count = seed_count;
	o.logger = &logger;
	if (a->dry_run)
		return dry_run(a, cfg, &o);
	/* Said before a store is made. */
	if (cfg->crawl_worker &&
	    !heed_store_location_is_postgres(cfg->store_location))
		return heed_cli_usage("crawl", "workers (--worker) share a "
		                               "PostgreSQL store: give --store "
		                               "postgresql://...");
	if (cfg->crawl_worker && a->restart)
		return heed_cli_usage("crawl", "a worker cannot start the run "
		                               "afresh (--restart): other "
		                               "workers share it");
	store = heed_cli_open_store(cfg, NULL);
	if (!store)
		return HEED_EXIT_FAIL;
	/* Each turn of --schedule reads the known sites again. */
	if (!seed_count && (ex = known_seeds(a, store, &known)) >= 0) {
		heed_store_close(store);
		free_seeds(known.seeds, known.count);
		return ex;
	}
	if (!seed_count) {
		o.seeds = (const char *const *)known.seeds;
		o.seed_count = known.count;
	}
	o.restart = a->restart;
	if (cfg->crawl_worker)
		o.worker.holder = worker_name(cfg, holder, sizeof(holder));
	o.on_progress = print_progress;
	o.progress_ud = NULL;
	progress_begin(a, cfg, &logger);
	heed_cli_catch_stop();
	rc = heed_crawl_run(store, &o, &heed_cli_stop, &summary, NULL, &d);
	heed_cli_release_stop();
	/* The last counts, once: the log's final progress line. */
	if (rc == HEED_OK)
		show_progress(&summary, true);
	heed_cli_progress_end();
	heed_store_close(store);
	free_seeds(known.seeds, known.count);
	if (rc != HEED_OK) {
		heed_cli_error("crawl: %s",
		               d.message[0] ? d.message : heed_strerror(rc));
		/* Another crawl holds the store: a timer that fired while the
		 * last run still goes tries again at its next turn. A start URL
		 * heed cannot take is the command line's fault. */
		return rc == HEED_EBUSY ? HEED_EXIT_BUSY
		       : rc == HEED_EINVAL || rc == HEED_ENOTSUP
		               ? HEED_EXIT_USAGE
		               : HEED_EXIT_FAIL;
	}
	if (!a->quiet)
		print_summary(stdout, o.mode, &summary);
	if (!a->quiet && o.worker.holder)
		printf("worker %s: %lld claims, %lld sites claimed (%lld taken "
		       "over after expiry), %lld released, %lld lost\n",
		       o.worker.holder, (long long)summary.claims,
		       (long long)summary.sites_claimed,
		       (long long)summary.taken_over,
		       (long long)summary.released,
		       (long long)summary.leases_lost);
	return crawl_exit(&summary);
}

/* When the next crawl is due, from the store's finished runs: a full one
 * full_interval after the last full one, else an incremental one
 * incremental_interval after the last run of either mode. An open run is
 * due now. Returns the Unix time and sets *full. */
static int64_t next_due(heed_store *store, const struct heed_config *cfg,
                        bool *full)
{
	struct heed_crawl_run full_run, any_run;
	int64_t due_full, due_inc;

	*full = false;
	if (heed_store_run_open(store, &any_run) == HEED_OK) {
		*full = strcmp(any_run.mode, "full") == 0;
		return 0;
	}
	if (heed_store_run_last(store, "full", &full_run) != HEED_OK) {
		*full = true;
		return 0;
	}
	heed_store_run_last(store, NULL, &any_run);
	due_full = full_run.finished_at + cfg->crawl_full_interval;
	due_inc = any_run.finished_at + cfg->crawl_incremental_interval;
	*full = due_full <= due_inc;
	return *full ? due_full : due_inc;
}

/* --schedule: full crawls at most every crawl.full_interval, incremental
 * ones every crawl.incremental_interval in between, until SIGINT/SIGTERM,
 * so heed can run as a service that keeps its index fresh. Being stopped
 * is how a schedule ends (a service's stop), so it exits 0, whether the
 * signal came during a crawl (which stops cleanly, its run left open) or
 * between two. */
static int schedule(struct crawl_args *a, struct heed_config *cfg, char **seeds,
                    size_t seed_count)
{
	heed_cli_catch_stop();
	while (!heed_cli_stop) {
		heed_store *store = heed_cli_open_store(cfg, NULL);
		bool full;
		int64_t due;
		int rc;

		if (!store)
			return HEED_EXIT_FAIL;
		due = next_due(store, cfg, &full);
		heed_store_close(store);
		if (due > (int64_t)time(NULL)) {
			sleep(1); /* wakes for signals; the next turn re-reads
			           */
			continue;
		}
		cfg->crawl_incremental = !full;
		rc = run(a, cfg, seeds, seed_count);
		heed_cli_catch_stop();
		/* Another crawl holds the store (started by hand, or a timer):
		 * its end is what this loop waits for anyway. A run that could
		 * crawl no site (the network down, say) is no reason to stop
		 * either: the next turn tries again. A start URL heed cannot
		 * take will not get better. */
		if (rc == HEED_EXIT_USAGE)
			return rc;
		if (rc == HEED_EXIT_BUSY || rc == HEED_EXIT_FAIL)
			sleep(10);
	}
	heed_cli_release_stop();
	return HEED_EXIT_OK;
}

/* A crawl keeps one connection per site between its requests (libheed
 * sizes that pool from this limit): lift the soft limit to the hard one,
 * as Debian's soft default of 1,024 would close them all on a large crawl. */
static void raise_open_file_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		(void)setrlimit(RLIMIT_NOFILE, &rl);
	}
}

/* Every answer's body is a fresh allocation of tens of kilobytes, freed by
 * the extraction thread once read. By default glibc hands the heap's top
 * back to the kernel whenever more than 128 KiB of it are free, so the next
 * body faults its pages in again, each zeroed by the kernel: several faults
 * a page crawled, each of them microseconds on a virtual machine. Kept
 * free memory, up to 64 MiB, serves the next bodies instead; and a body up
 * to 8 MiB (the default cap is 5 MiB) comes from the heap rather than from
 * a mapping of its own, unmapped again once freed. */
static void keep_freed_memory(void)
{
#ifdef __GLIBC__
	(void)mallopt(M_TRIM_THRESHOLD, 64 << 20);
	(void)mallopt(M_MMAP_THRESHOLD, 8 << 20);
#endif
}

int heed_cmd_crawl(int argc, char **argv)
{
	struct crawl_args a = {0};
	struct heed_config cfg;
	char **seeds = NULL;
	size_t seed_count = 0;
	int ex = parse_args(argc, argv, &a);

	if (ex >= 0) {
		heed_cli_config_free(&a.cc);
		return ex;
	}
	/* A bad setting is a settings error, from any source. */
	ex = HEED_EXIT_USAGE;
	if (!heed_cli_config_load(&a.cc, &cfg, "crawl"))
		goto out;
	ex = HEED_EXIT_FAIL;
	for (size_t i = 0; i < a.count; i++) {
		struct heed_diag d = {0};
		if (heed_config_set(&cfg, a.names[i], a.values[i], &d) !=
		    HEED_OK) {
			ex = heed_cli_usage("crawl", "%s", d.message);
			goto out;
		}
	}
	if (gather_seeds(&cfg, argc, argv, &seeds, &seed_count) != 0)
		goto out;
	raise_open_file_limit();
	keep_freed_memory();
	ex = a.schedule ? schedule(&a, &cfg, seeds, seed_count)
	                : run(&a, &cfg, seeds, seed_count);
out:
	free_seeds(seeds, seed_count);
	heed_config_free(&cfg);
	heed_cli_config_free(&a.cc);
	return ex;
}
