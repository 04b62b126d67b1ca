/*
 * `heed serve`: the public index of what heed collected, a read-only web
 * list and JSON API over the store, served until SIGINT or SIGTERM; `heed
 * serve --reindex` rebuilds the store's search index and exits. The server
 * itself is libheed's (heed/serve.h); this file reads the settings, says
 * where it listens and waits.
 */
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_config.h"
#include "heed/serve.h"
#include "heed/store.h"
#include "heed/store_pages.h"
#include "heed/store_search.h"

enum {
	OPT_LISTEN = 0x200,
	OPT_BASE_URL,
	OPT_THREADS,
	OPT_ACCESS_LOG,
	OPT_REINDEX,
};

/* The options that stand for a setting, applied over the file's. */
static const struct {
	int opt;
	const char *name;
} overrides[] = {
        {OPT_LISTEN, "serve.listen"},
        {OPT_BASE_URL, "serve.base_url"},
        {OPT_THREADS, "serve.threads"},
        {OPT_ACCESS_LOG, "serve.access_log"},
};

struct serve_args {
	struct heed_cli_config cc;
	const char *values[HEED_ARRAY_SIZE(overrides)]; /* NULL: not given */
	int reindex;
};

/* Returns -1 to go on, or the exit status. */
static int parse_args(int argc, char **argv, struct serve_args *a)
{
	static const struct option longopts[] = {
	        {"listen", required_argument, NULL, OPT_LISTEN},
	        {"base-url", required_argument, NULL, OPT_BASE_URL},
	        {"threads", required_argument, NULL, OPT_THREADS},
	        {"access-log", required_argument, NULL, OPT_ACCESS_LOG},
	        {"reindex", no_argument, NULL, OPT_REINDEX},
	        {"help", no_argument, NULL, 'h'},
	        /* The shared options but the resolver's: the index makes
	         * no lookups. The contact is shown on /bots. */
	        {"config", required_argument, NULL, HEED_CLI_OPT_CONFIG},
	        {"set", required_argument, NULL, HEED_CLI_OPT_SET},
	        {"store", required_argument, NULL, HEED_CLI_OPT_STORE},
	        {"contact-url", required_argument, NULL,
	         HEED_CLI_OPT_CONTACT_URL},
	        {"contact-email", required_argument, NULL,
	         HEED_CLI_OPT_CONTACT_EMAIL},
	        {NULL, 0, NULL, 0},
	};
	int c;

	while ((c = getopt_long(argc, argv, "l:h", longopts, NULL)) != -1) {
		int shared = heed_cli_config_option(&a->cc, c, optarg);
		if (shared < 0)
			return HEED_EXIT_USAGE;
		if (shared)
			continue;
		if (c == 'l')
			c = OPT_LISTEN;
		if (c == 'h') {
			heed_cli_print_help(stdout, heed_cli_find("serve"));
			return HEED_EXIT_OK;
		}
		if (c == OPT_REINDEX) {
			a->reindex = 1;
			continue;
		}
		size_t i = 0;
		while (i < HEED_ARRAY_SIZE(overrides) && overrides[i].opt != c)
			i++;
		if (i == HEED_ARRAY_SIZE(overrides))
			return HEED_EXIT_USAGE; /* getopt printed why */
		a->values[i] = optarg;
	}
	if (optind < argc)
		return heed_cli_usage("serve", "unexpected argument '%s'",
		                      argv[optind]);
	return -1;
}

/* The settings: defaults, the file, --set, then this command's options.
 * false (a message printed) on any bad one. */
static bool load_settings(struct serve_args *a, struct heed_config *cfg)
{
	if (!heed_cli_config_load(&a->cc, cfg, "serve"))
		return false;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(overrides); i++) {
		struct heed_diag d = {0};
		if (a->values[i] &&
		    heed_config_set(cfg, overrides[i].name, a->values[i], &d) !=
		            HEED_OK) {
			heed_cli_usage("serve", "%s", d.message);
			return false;
		}
	}
	return true;
}

static int reindex(const struct heed_config *cfg)
{
	/* The rebuild reads the pages and writes the search area only. */
	static const char *const areas[] = {"pages", "search", NULL};
	heed_store *store =
	        heed_cli_open_store_areas(cfg, HEED_STORE_OPEN_EXISTING, areas);
	struct heed_diag d = {0};
	struct timespec t0, t1;
	int64_t pages = 0;
	heed_status rc;

	if (!store)
		return HEED_EXIT_FAIL;
	/* The rebuild is one long write transaction: a crawl writing at
	 * the same time would wait past its busy timeout and fail. */
	rc = heed_store_lock(store, &d);
	if (rc != HEED_OK) {
		heed_cli_error("%s",
		               d.message[0] ? d.message : heed_status_name(rc));
		heed_store_close(store);
		return rc == HEED_EBUSY ? HEED_EXIT_BUSY : HEED_EXIT_FAIL;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	rc = heed_store_search_reindex(store);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (rc == HEED_OK)
		rc = heed_store_pages_count(store, NULL, &pages);
	if (rc != HEED_OK) {
		heed_cli_error("cannot rebuild the search index of '%s': %s",
		               cfg->store_location, heed_store_errmsg(store));
		heed_store_close(store);
		return HEED_EXIT_FAIL;
	}
	printf("heed serve: search index rebuilt over %lld pages in %.1f s\n",
	       (long long)pages,
	       (double)(t1.tv_sec - t0.tv_sec) +
	               (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	heed_store_close(store);
	return HEED_EXIT_OK;
}

/* The access log the settings name: NULL for none, stdout for "-". */
static bool open_access_log(const struct heed_config *cfg, FILE **log)
{
	const char *path = cfg->serve_access_log;

	*log = NULL;
	if (!path || !*path)
		return true;
	if (strcmp(path, "-") == 0) {
		*log = stdout;
		return true;
	}
	*log = fopen(path, "a");
	if (!*log)
		heed_cli_error("serve.access_log: cannot open '%s': %s", path,
		               strerror(errno));
	return *log != NULL;
}

/* The address people can open, for the listening line. */
static void print_listening(const struct heed_config *cfg, unsigned port)
{
	const char *listen = cfg->serve_listen;
	const char *colon = strrchr(listen, ':');
	int host_len = colon ? (int)(colon - listen) : 0;

	printf("heed serve: listening on http://%.*s:%u/\n", host_len, listen,
	       port);
	if (cfg->serve_base_url && *cfg->serve_base_url)
		printf("heed serve: links start with %s\n",
		       cfg->serve_base_url);
	fflush(stdout);
}

/* A crawl killed between two catch-ups of the search index leaves its
 * last pages marked, which a read-only server cannot index: say so, and
 * what will. */
static void say_index_behind(const struct heed_config *cfg)
{
	heed_store *store = NULL;
	int64_t behind = 0;

	if (heed_store_open_ex(&store, cfg->store_location,
	                       HEED_STORE_OPEN_READONLY, NULL,
	                       NULL) == HEED_OK &&
	    heed_store_search_behind(store, &behind) == HEED_OK && behind > 0)
		printf("heed serve: %lld stored %s for the search index; the "
		       "next heed command that writes the store (heed crawl, "
		       "heed serve --reindex) indexes %s\n",
		       (long long)behind,
		       behind == 1 ? "page waits" : "pages wait",
		       behind == 1 ? "it" : "them");
	heed_store_close(store);
}

/* SIGINT and SIGTERM are blocked before the server starts, so that
 * libmicrohttpd's threads inherit the mask and only this thread takes them,
 * in sigsuspend(); one that comes before the sleep stays pending and
 * still wakes it. */
static void block_stop_signals(sigset_t *old)
{
	sigset_t stop;

	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	heed_cli_catch_stop();
	pthread_sigmask(SIG_BLOCK, &stop, old);
}

static int serve(const struct heed_config *cfg)
{
	struct heed_serve_options o = {.config = cfg};
	struct heed_diag d = {0};
	heed_serve *server = NULL;
	heed_status rc;
	sigset_t old;

	if (!open_access_log(cfg, &o.access_log))
		return HEED_EXIT_FAIL;
	block_stop_signals(&old);
	rc = heed_serve_start(&server, &o, &d);
	if (rc == HEED_OK) {
		print_listening(cfg, heed_serve_port(server));
		say_index_behind(cfg);
		fflush(stdout);
		while (!heed_cli_stop)
			sigsuspend(&old);
		heed_serve_stop(server);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	heed_cli_release_stop();
	if (rc != HEED_OK) {
		heed_cli_error("%s",
		               d.message[0] ? d.message : heed_status_name(rc));
	}
	if (o.access_log && o.access_log != stdout)
		fclose(o.access_log);
	if (rc == HEED_OK)
		return HEED_EXIT_OK;
	return rc == HEED_ECONFIG ? HEED_EXIT_USAGE : HEED_EXIT_FAIL;
}

int heed_cmd_serve(int argc, char **argv)
{
	struct serve_args a = {0};
	struct heed_config cfg;
	int ex = parse_args(argc, argv, &a);

	if (ex >= 0) {
		heed_cli_config_free(&a.cc);
		return ex;
	}
	ex = HEED_EXIT_USAGE;
	if (load_settings(&a, &cfg))
		ex = a.reindex ? reindex(&cfg) : serve(&cfg);
	heed_config_free(&cfg);
	heed_cli_config_free(&a.cc);
	return ex;
}
