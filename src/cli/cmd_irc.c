/*
 * `heed irc crawl|check|list|reset`: the IRC crawler's front end (the
 * network operators' side is docs/irc.md).
 *
 *   crawl NETWORK...   visit networks (host[:port], ircs://host[:port], or
 *                      -f FILE with one per line), store what they list
 *   check HOST[:PORT]  read the 005 burst only; print how heed reads the
 *                      CRAWLER token and when it would come back
 *   list               print the stored public list
 *   reset NETWORK...   drop heed's own hold on networks (failure, ban,
 *                      floor); their CRAWLER cooldown stays
 *
 * Exit status, the contract every heed command keeps (README, docs/irc.md
 * "Exit status"), so scripts and service managers read them alike: 0
 * done; 1 failed or nothing done (a network failed, was unreachable,
 * banned heed or was not contacted); 2 usage or settings; 130 after a
 * clean stop on SIGINT or SIGTERM.
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/cli_config.h"
#include "heed/irc_crawl.h"
#include "heed/store_irc.h"

/* The store areas the irc commands use, checked when the store opens so
 * a backend without them is refused before anything is written. */
static const char *const irc_areas[] = {"irc", NULL};

/* A networks file is a list of names, not a data set. */
#define NETWORKS_FILE_MAX (1024 * 1024)
#define MAX_TARGETS       100000
/* A network that refused or ignored the connection saw no visit: heed
 * tries again after this, or after irc.min_revisit when that is shorter
 * (docs/irc.md "When heed comes back"). */
#define UNREACHABLE_RETRY_S (10 * 60)

static void fmt_time(int64_t t, char *buf, size_t size)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (t <= 0 || !gmtime_r(&tt, &tm) ||
	    strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(buf, size, "%s", t <= 0 ? "any time" : "far future");
}

static void log_stderr(void *ud, heed_log_level level, const char *module,
                       const char *message)
{
	(void)ud;
	fprintf(stderr, "heed: %s: %s: %s\n", heed_log_level_name(level),
	        module, message);
}

struct targets {
	struct heed_irc_target *items;
	size_t count, cap;
};

static int add_target(struct targets *t, const char *text)
{
	struct heed_diag diag = {0};

	if (t->count == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 16;
		void *n = realloc(t->items, cap * sizeof(*t->items));
		if (!n || cap > MAX_TARGETS) {
			free(n);
			t->items = NULL;
			heed_cli_error("too many networks");
			return HEED_EXIT_FAIL;
		}
		t->items = n;
		t->cap = cap;
	}
	if (heed_irc_target_parse(text, &t->items[t->count], &diag) != HEED_OK)
		return heed_cli_usage("irc", "%s", diag.message);
	t->count++;
	return HEED_EXIT_OK;
}

/* One network per line; '#' starts a comment. */
static int read_networks_file(struct targets *t, const char *path)
{
	char *data = NULL;
	size_t len;
	int truncated = 0, ex = HEED_EXIT_OK;

	if (heed_cli_read_file(path, NETWORKS_FILE_MAX, &data, &len,
	                       &truncated) != HEED_OK) {
		heed_cli_error("cannot read %s", path);
		return HEED_EXIT_FAIL;
	}
	if (truncated) {
		free(data);
		heed_cli_error("%s is larger than %d bytes", path,
		               NETWORKS_FILE_MAX);
		return HEED_EXIT_FAIL;
	}
	for (char *line = data; ex == HEED_EXIT_OK && line < data + len;) {
		char *end = memchr(line, '\n', (size_t)(data + len - line));
		char *next = end ? end + 1 : data + len;
		if (end)
			*end = '\0';
		line[strcspn(line, "#\r")] = '\0';
		line += strspn(line, " \t");
		line[strcspn(line, " \t")] = '\0';
		if (*line)
			ex = add_target(t, line);
		line = next;
	}
	free(data);
	return ex;
}

struct run {
	struct heed_config cfg;
	struct heed_cli_config cc;
	struct targets targets;
	struct heed_logger logger;
	struct heed_irc_crawl_options opts;
	const char *store_path;
	int failures, runs;
	char realname[300];
};

static void print_pref(const struct heed_irc_crawl_result *r)
{
	char problems[256];

	if (!r->token_present) {
		printf("  CRAWLER: not advertised (no preference)\n");
		return;
	}
	printf("  CRAWLER: %s%s%s\n", r->raw_token[0] ? "'" : "",
	       r->raw_token[0] ? r->raw_token : "(no value)",
	       r->raw_token[0] ? "'" : "");
	printf("  reading: %s, cooldown %lld s\n",
	       heed_irc_crawler_verdict_name(r->pref.verdict),
	       (long long)r->pref.cooldown_s);
	heed_irc_crawler_describe_problems(r->pref.problems, problems,
	                                   sizeof(problems));
	if (problems[0])
		printf("  problems: %s\n", problems);
}

/* The visits that count as a failure for the exit status. */
static bool visit_failed(heed_irc_visit_status status)
{
	return status == HEED_IRC_VISIT_FAILED ||
	       status == HEED_IRC_VISIT_BANNED ||
	       status == HEED_IRC_VISIT_UNREACHABLE;
}

/* A network heed did not try to reach (a name that does not resolve, an
 * address heed's own policy refuses): said on stderr whatever log.level
 * is, nothing stored, the next run tries it afresh. A network the stop
 * came before is no failure. */
static void not_contacted(struct run *run,
                          const struct heed_irc_crawl_result *r)
{
	if (r->stopped) {
		printf("%s: not contacted: %s\n", r->target->key, r->reason);
		return;
	}
	heed_cli_error("%s: not contacted: %s", r->target->key, r->reason);
	run->failures++;
}

static void on_crawl_result(void *ud, const struct heed_irc_crawl_result *r)
{
	struct run *run = ud;
	char when[32];

	fmt_time(r->next_visit_s, when, sizeof(when));
	if (r->skipped_cooldown) {
		printf("%s: skipped: in cooldown until %s\n", r->target->key,
		       when);
		return;
	}
	if (r->not_contacted) {
		not_contacted(run, r);
		return;
	}
	run->runs++;
	if (visit_failed(r->status))
		run->failures++;
	printf("%s: %s%s%s\n", r->target->key,
	       heed_irc_visit_status_name(r->status), r->reason[0] ? ": " : "",
	       r->reason);
	if (r->network_name[0] || r->server_name[0])
		printf("  network: %s, server %s %s\n",
		       r->network_name[0] ? r->network_name : "(unnamed)",
		       r->server_name, r->server_version);
	if (!visit_failed(r->status) && r->status != HEED_IRC_VISIT_STOPPED)
		print_pref(r);
	printf("  %llu channels, %llu servers listed; next visit %s\n",
	       (unsigned long long)r->channels, (unsigned long long)r->servers,
	       when);
	/* The wait after an unreachable server is heed's, not a cooldown the
	 * network asked for: say so, and how to lift it. */
	if (r->status == HEED_IRC_VISIT_UNREACHABLE)
		printf("  (heed's own retry wait, not the network's cooldown: "
		       "`heed irc reset %s` lifts it)\n",
		       r->target->key);
}

static void on_check_result(void *ud, const struct heed_irc_crawl_result *r)
{
	struct run *run = ud;
	char when[32];

	if (r->not_contacted) {
		not_contacted(run, r);
		return;
	}
	run->runs++;
	/* When a real visit ending now would let heed come back. */
	fmt_time(heed_irc_next_visit_s(&run->opts.revisit,
	                               heed_irc_crawler_denies(&r->pref)
	                                       ? HEED_IRC_VISIT_DENIED
	                                       : HEED_IRC_VISIT_COMPLETE,
	                               &r->pref, (int64_t)time(NULL)),
	         when, sizeof(when));
	printf("%s: %s\n", r->target->key,
	       r->status == HEED_IRC_VISIT_CHECKED
	               ? "read the 005 burst"
	               : heed_irc_visit_status_name(r->status));
	if (r->reason[0])
		printf("  %s\n", r->reason);
	if (r->status != HEED_IRC_VISIT_CHECKED &&
	    r->status != HEED_IRC_VISIT_DENIED &&
	    r->status != HEED_IRC_VISIT_NO_CONSENT) {
		run->failures++;
		return;
	}
	if (r->server_name[0])
		printf("  network: %s, server %s %s%s\n",
		       r->network_name[0] ? r->network_name : "(unnamed)",
		       r->server_name, r->server_version,
		       r->tls_verified ? ", TLS verified" : "");
	print_pref(r);
	if (r->status == HEED_IRC_VISIT_NO_CONSENT)
		printf("  heed does not index this network: consent is "
		       "required and it does not say index:allow\n");
	else if (heed_irc_crawler_denies(&r->pref))
		printf("  heed will not index this network; it checks the "
		       "token again after %s\n",
		       when);
	else
		printf("  heed indexes this network (LUSERS, LINKS, LIST) and "
		       "comes back after %s at the earliest\n",
		       when);
}

enum {
	OPT_INSECURE = 0x2000,
	OPT_CONSENT,
	OPT_NICK,
	OPT_NETWORKS,
};

static const struct option crawl_options[] = {
        {"help", no_argument, NULL, 'h'},
        HEED_CLI_CONFIG_LONGOPTS,
        {"insecure", no_argument, NULL, OPT_INSECURE},
        {"require-consent", no_argument, NULL, OPT_CONSENT},
        {"nick", required_argument, NULL, OPT_NICK},
        {"networks", required_argument, NULL, OPT_NETWORKS},
        {NULL, 0, NULL, 0},
};

/* Parses the options shared by crawl and check into run. */
static int parse_options(const char *sub, int argc, char **argv,
                         struct run *run, const char **networks_file,
                         const char **nick)
{
	int c, taken;

	(void)sub;
	while ((c = getopt_long(argc, argv, "hf:", crawl_options, NULL)) !=
	       -1) {
		taken = heed_cli_config_option(&run->cc, c, optarg);
		if (taken < 0)
			return HEED_EXIT_USAGE;
		if (taken)
			continue;
		switch (c) {
		case 'h':
			heed_cli_print_help(stdout, heed_cli_find("irc"));
			return -1;
		case OPT_INSECURE:
			run->opts.insecure = true;
			break;
		case OPT_CONSENT:
			run->opts.require_consent = true;
			break;
		case OPT_NICK:
			*nick = optarg;
			break;
		case 'f':
		case OPT_NETWORKS:
			*networks_file = optarg;
			break;
		default:
			return HEED_EXIT_USAGE;
		}
	}
	return HEED_EXIT_OK;
}

/* Fills run->opts from the settings. */
static int configure(const char *sub, struct run *run, const char *nick)
{
	char ua[256];

	if (!heed_cli_config_load(&run->cc, &run->cfg, sub))
		return HEED_EXIT_USAGE;
	if (heed_config_lacks_contact(&run->cfg))
		heed_cli_error("warning: no identity.contact_url or "
		               "identity.contact_email is set; network "
		               "operators cannot reach you");
	heed_config_user_agent(&run->cfg, ua, sizeof(ua));
	snprintf(run->realname, sizeof(run->realname), "%s IRC crawler", ua);
	run->logger.fn = log_stderr;
	run->logger.level = (heed_log_level)run->cfg.log_level;
	run->opts.nick = nick ? nick : run->cfg.irc_nick;
	run->opts.realname = run->realname;
	run->opts.require_consent |= run->cfg.irc_require_consent;
	run->opts.visit_limit_ms = run->cfg.irc_visit_limit * 1000;
	run->opts.max_connections = (int)run->cfg.irc_max_connections;
	run->opts.revisit.min_revisit_s = run->cfg.irc_min_revisit;
	run->opts.revisit.failure_backoff_s = run->cfg.irc_min_revisit;
	run->opts.revisit.ban_backoff_s = 7 * 86400;
	run->opts.revisit.unreachable_retry_s =
	        run->cfg.irc_min_revisit < UNREACHABLE_RETRY_S
	                ? run->cfg.irc_min_revisit
	                : UNREACHABLE_RETRY_S;
	/* One DNS path and one address policy with `heed crawl`. */
	run->opts.dns.servers = run->cfg.net_dns_server;
	run->opts.dns.timeout_ms = (int)run->cfg.net_dns_timeout_ms;
	run->opts.dns.tries = (int)run->cfg.net_dns_tries;
	run->opts.allow_private = run->cfg.net_allow_private;
	run->opts.stop = &heed_cli_stop;
	run->opts.log = &run->logger;
	run->opts.ud = run;
	run->store_path = run->cfg.store_location;
	return HEED_EXIT_OK;
}

/* Runs the visits with SIGINT/SIGTERM asking for a clean stop. */
static heed_status crawl_with_signals(struct run *run)
{
	heed_status rc;

	heed_cli_catch_stop();
	rc = heed_irc_crawl(&run->opts, run->targets.items, run->targets.count);
	heed_cli_release_stop();
	return rc;
}

/* Ends a run that stopped before it crawled (usage, settings, --help):
 * ex, or 0 for the help's -1. Leaves nothing for LeakSanitizer. */
static int drop_run(struct run *run, int ex)
{
	heed_config_free(&run->cfg);
	heed_cli_config_free(&run->cc);
	free(run->targets.items);
	free(run);
	return ex < 0 ? HEED_EXIT_OK : ex;
}

static int finish_run(struct run *run, heed_store *store, heed_status rc)
{
	heed_store_close(store);
	heed_config_free(&run->cfg);
	heed_cli_config_free(&run->cc);
	free(run->targets.items);
	if (rc != HEED_OK) {
		heed_cli_error("IRC crawl failed: %s", heed_strerror(rc));
		/* A resolver that cannot start is a setting's fault
		 * (net.dns_server). */
		return rc == HEED_ECONFIG ? HEED_EXIT_USAGE : HEED_EXIT_FAIL;
	}
	if (heed_cli_stop) {
		heed_cli_error("stopped: the visits under way ended with QUIT; "
		               "networks not started were not contacted");
		return HEED_EXIT_INTERRUPTED;
	}
	return run->failures ? HEED_EXIT_FAIL : HEED_EXIT_OK;
}

static int irc_crawl(int argc, char **argv)
{
	struct run *run = calloc(1, sizeof(*run));
	const char *file = NULL, *nick = NULL;
	struct heed_diag diag = {0};
	heed_store *store = NULL;
	heed_status rc;
	int ex;

	if (!run)
		return HEED_EXIT_FAIL;
	ex = parse_options("irc crawl", argc, argv, run, &file, &nick);
	for (int i = optind; ex == HEED_EXIT_OK && i < argc; i++)
		ex = add_target(&run->targets, argv[i]);
	if (ex == HEED_EXIT_OK && file)
		ex = read_networks_file(&run->targets, file);
	if (ex == HEED_EXIT_OK && run->targets.count == 0)
		ex = heed_cli_usage("irc crawl", "name at least one network");
	if (ex == HEED_EXIT_OK)
		ex = configure("irc crawl", run, nick);
	if (ex != HEED_EXIT_OK)
		return drop_run(run, ex);
	if (heed_store_open(&store, run->store_path, NULL, &diag) != HEED_OK) {
		heed_cli_error("%s", diag.message);
		rc = HEED_ESTORE;
	} else {
		heed_store_set_reconnect(
		        store, run->cfg.store_reconnect_timeout * 1000,
		        &run->logger);
		run->opts.store = store;
		run->opts.on_result = on_crawl_result;
		rc = crawl_with_signals(run);
	}
	ex = finish_run(run, store, rc);
	free(run);
	return ex;
}

static int irc_check(int argc, char **argv)
{
	struct run *run = calloc(1, sizeof(*run));
	const char *file = NULL, *nick = NULL;
	heed_status rc;
	int ex;

	if (!run)
		return HEED_EXIT_FAIL;
	ex = parse_options("irc check", argc, argv, run, &file, &nick);
	if (ex == HEED_EXIT_OK && argc - optind != 1)
		ex = heed_cli_usage("irc check", "name one HOST[:PORT]");
	if (ex == HEED_EXIT_OK)
		ex = add_target(&run->targets, argv[optind]);
	if (ex == HEED_EXIT_OK)
		ex = configure("irc check", run, nick);
	if (ex != HEED_EXIT_OK)
		return drop_run(run, ex);
	run->opts.check_only = true;
	run->opts.on_result = on_check_result;
	rc = crawl_with_signals(run);
	if (rc == HEED_OK && run->runs == 0 && !heed_cli_stop)
		run->failures++;
	ex = finish_run(run, NULL, rc);
	free(run);
	return ex;
}

/* ---- heed irc list ------------------------------------------------------ */

static int print_network(void *ud, const struct heed_store_irc_network_row *r)
{
	char when[32], last[32];

	(void)ud;
	fmt_time(r->next_visit_s, when, sizeof(when));
	fmt_time(r->last_visit_end_s, last, sizeof(last));
	printf("%s  %s  last visit %s (%s)  CRAWLER %s  next visit %s", r->key,
	       r->name[0] ? r->name : "(unnamed)",
	       r->last_status[0] ? r->last_status : "never",
	       r->last_visit_end_s > 0 ? last : "-", r->verdict, when);
	if (r->channels >= 0)
		printf("  %lld users, %lld servers, %lld channels",
		       (long long)r->users, (long long)r->servers,
		       (long long)r->channels);
	putchar('\n');
	return 0;
}

static int print_channel(void *ud, const struct heed_store_irc_channel_row *r)
{
	(void)ud;
	printf("  %s %s %lld %.*s\n", r->network_key, r->name,
	       (long long)r->users, (int)r->topic_len, r->topic);
	return 0;
}

static int irc_list(int argc, char **argv)
{
	static const struct option opts[] = {
	        {"help", no_argument, NULL, 'h'},
	        HEED_CLI_CONFIG_LONGOPTS,
	        {"network", required_argument, NULL, 'n'},
	        {NULL, 0, NULL, 0},
	};
	struct heed_cli_config cc = {0};
	struct heed_config cfg;
	const char *network = NULL;
	heed_store *store = NULL;
	heed_status rc;
	int c, taken;

	while ((c = getopt_long(argc, argv, "hn:", opts, NULL)) != -1) {
		taken = heed_cli_config_option(&cc, c, optarg);
		if (taken < 0)
			return HEED_EXIT_USAGE;
		if (taken)
			continue;
		switch (c) {
		case 'h':
			heed_cli_print_help(stdout, heed_cli_find("irc"));
			return HEED_EXIT_OK;
		case 'n':
			network = optarg;
			break;
		default:
			return HEED_EXIT_USAGE;
		}
	}
	if (optind != argc)
		return heed_cli_usage("irc list", "takes no arguments");
	if (!heed_cli_config_load(&cc, &cfg, "irc list")) {
		heed_config_free(&cfg);
		heed_cli_config_free(&cc);
		return HEED_EXIT_USAGE;
	}
	store = heed_cli_open_store_areas(&cfg, HEED_STORE_OPEN_READONLY,
	                                  irc_areas);
	heed_config_free(&cfg);
	heed_cli_config_free(&cc);
	if (!store)
		return HEED_EXIT_FAIL;
	rc = heed_store_irc_each_network(store, print_network, NULL);
	if (rc == HEED_OK)
		rc = heed_store_irc_each_channel(store, network, print_channel,
		                                 NULL);
	if (rc != HEED_OK)
		heed_cli_error("%s", heed_store_errmsg(store));
	heed_store_close(store);
	return rc == HEED_OK ? HEED_EXIT_OK : HEED_EXIT_FAIL;
}

/* ---- heed irc reset ----------------------------------------------------- */

/* Resets one network; 0, or 1 when the store does not hold it, or -1 when
 * the store failed. */
static int reset_one(heed_store *store, const struct heed_irc_target *t)
{
	int64_t next = 0;
	char when[32];
	heed_status rc = heed_store_irc_reset(store, t->key, &next);

	if (rc == HEED_ENOTFOUND) {
		heed_cli_error("no network %s in the store", t->key);
		return 1;
	}
	if (rc != HEED_OK) {
		heed_cli_error("%s", heed_store_errmsg(store));
		return -1;
	}
	if (next <= (int64_t)time(NULL)) {
		printf("%s: reset; heed may visit it at once\n", t->key);
		return 0;
	}
	fmt_time(next, when, sizeof(when));
	printf("%s: reset; its own CRAWLER cooldown holds it until %s\n",
	       t->key, when);
	return 0;
}

static int irc_reset(int argc, char **argv)
{
	static const struct option opts[] = {
	        {"help", no_argument, NULL, 'h'},
	        HEED_CLI_CONFIG_LONGOPTS,
	        {NULL, 0, NULL, 0},
	};
	struct heed_cli_config cc = {0};
	struct heed_config cfg;
	struct targets t = {0};
	heed_store *store = NULL;
	int c, taken, ex = HEED_EXIT_OK, missing = 0;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		taken = heed_cli_config_option(&cc, c, optarg);
		if (taken > 0)
			continue;
		if (taken < 0 || c != 'h') {
			ex = HEED_EXIT_USAGE;
			goto out;
		}
		heed_cli_print_help(stdout, heed_cli_find("irc"));
		goto out;
	}
	if (optind == argc)
		ex = heed_cli_usage("irc reset", "name at least one network");
	for (int i = optind; ex == HEED_EXIT_OK && i < argc; i++)
		ex = add_target(&t, argv[i]);
	if (ex != HEED_EXIT_OK)
		goto out;
	if (!heed_cli_config_load(&cc, &cfg, "irc reset")) {
		ex = HEED_EXIT_USAGE;
		goto out_cfg;
	}
	/* Nothing to reset in a store that does not exist: say so rather
	 * than create an empty one. */
	store = heed_cli_open_store_areas(&cfg, HEED_STORE_OPEN_EXISTING,
	                                  irc_areas);
	/* One network at a time, each reset whole: a signal stops between
	 * two, with the exit status of every other command (130). */
	heed_cli_catch_stop();
	for (size_t i = 0; store && i < t.count && !heed_cli_stop; i++) {
		int r = reset_one(store, &t.items[i]);
		if (r < 0) {
			missing++;
			break;
		}
		missing += r;
	}
	heed_cli_release_stop();
	if (!store || missing)
		ex = HEED_EXIT_FAIL;
	if (heed_cli_stop)
		ex = HEED_EXIT_INTERRUPTED;
	heed_store_close(store);
out_cfg:
	heed_config_free(&cfg);
out:
	heed_cli_config_free(&cc);
	free(t.items);
	return ex;
}

int heed_cmd_irc(int argc, char **argv)
{
	/* A server that resets the connection while OpenSSL writes must not
	 * kill heed with SIGPIPE: the write fails and the visit ends. */
	signal(SIGPIPE, SIG_IGN);
	static const struct {
		const char *name;
		int (*fn)(int, char **);
	} subs[] = {
	        {"crawl", irc_crawl},
	        {"check", irc_check},
	        {"list", irc_list},
	        {"reset", irc_reset},
	};

	if (argc < 2 || strcmp(argv[1], "--help") == 0 ||
	    strcmp(argv[1], "-h") == 0) {
		heed_cli_print_help(argc < 2 ? stderr : stdout,
		                    heed_cli_find("irc"));
		return argc < 2 ? HEED_EXIT_USAGE : HEED_EXIT_OK;
	}
	for (size_t i = 0; i < HEED_ARRAY_SIZE(subs); i++) {
		if (strcmp(argv[1], subs[i].name) == 0) {
			optind = 0;
			return subs[i].fn(argc - 1, argv + 1);
		}
	}
	return heed_cli_usage("irc", "no such subcommand '%s'", argv[1]);
}
