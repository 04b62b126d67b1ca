/*
 * `heed store migrate`: copies a store to another of either backend (an
 * operator who outgrows one machine moves to PostgreSQL without crawling
 * again), then checks the copy table by table.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_progress.h"
#include "heed/store.h"
#include "heed/store_copy.h"

#define DEFAULT_BATCH 1000

struct migrate_progress {
	struct timespec start;
	bool tty;
};

static int64_t elapsed_ms(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (int64_t)(now.tv_sec - start->tv_sec) * 1000 +
	       (now.tv_nsec - start->tv_nsec) / 1000000;
}

static void on_progress(void *ud, const char *table, int64_t done,
                        int64_t total)
{
	struct migrate_progress *p = ud;
	char line[160];

	snprintf(line, sizeof(line),
	         "copying %s: %" PRId64 " of %" PRId64 " rows", table, done,
	         total);
	if (p->tty)
		heed_cli_progress_show(line, elapsed_ms(&p->start), false);
	else if (done == total)
		heed_cli_stderr_line(line);
}

static void on_check(void *ud, const struct heed_store_copy_check *c)
{
	bool same = c->src_rows == c->dst_rows && c->src_sum == c->dst_sum;

	(void)ud;
	printf("%-16s %10" PRId64 " %10" PRId64 " %016" PRIx64 " %016" PRIx64
	       " %s\n",
	       c->table, c->src_rows, c->dst_rows, c->src_sum, c->dst_sum,
	       same ? "ok" : "DIFFERS");
}

/* A refusal before anything was written is the operator's to fix: 2. */
static int exit_for(heed_status hs)
{
	switch (hs) {
	case HEED_EBUSY:
		return HEED_EXIT_BUSY;
	case HEED_EDENIED:
	case HEED_ENOTSUP:
	case HEED_EINVAL:
		return HEED_EXIT_USAGE;
	default:
		return HEED_EXIT_FAIL;
	}
}

static int open_both(const char *from, const char *to, heed_store **src,
                     heed_store **dst)
{
	struct heed_diag d = {0};

	/* The source is only read: never created, migrated nor written. */
	if (heed_store_open_ex(src, from, HEED_STORE_OPEN_READONLY, NULL, &d) !=
	    HEED_OK) {
		heed_cli_error("store migrate: source: %s", d.message);
		return HEED_EXIT_FAIL;
	}
	/* Opening makes a new destination and brings it to this heed's
	 * versions, as any writer does. */
	if (heed_store_open(dst, to, NULL, &d) != HEED_OK) {
		heed_cli_error("store migrate: destination: %s", d.message);
		heed_store_close(*src);
		*src = NULL;
		return HEED_EXIT_FAIL;
	}
	return HEED_EXIT_OK;
}

static int store_migrate(int argc, char **argv)
{
	static const struct option opts[] = {
	        {"from", required_argument, NULL, 'f'},
	        {"to", required_argument, NULL, 't'},
	        {"batch", required_argument, NULL, 'b'},
	        {"quiet", no_argument, NULL, 'q'},
	        {"help", no_argument, NULL, 'h'},
	        {NULL, 0, NULL, 0},
	};
	const char *from = NULL, *to = NULL;
	int64_t batch = DEFAULT_BATCH;
	bool quiet = false;
	int c;

	while ((c = getopt_long(argc, argv, "qh", opts, NULL)) != -1) {
		char *end;

		switch (c) {
		case 'f':
			from = optarg;
			break;
		case 't':
			to = optarg;
			break;
		case 'b':
			batch = strtoll(optarg, &end, 10);
			if (*end || batch < 1 || batch > 1000000)
				return heed_cli_usage("store", "--batch takes "
				                               "1 to 1000000");
			break;
		case 'q':
			quiet = true;
			break;
		case 'h':
			heed_cli_print_help(stdout, heed_cli_find("store"));
			return HEED_EXIT_OK;
		default:
			return heed_cli_usage("store", "unknown option");
		}
	}
	if (!from || !to || optind != argc)
		return heed_cli_usage("store",
		                      "migrate takes --from LOCATION and "
		                      "--to LOCATION, nothing else");
	if (strcmp(from, to) == 0)
		return heed_cli_usage("store", "--from and --to are the same");

	heed_store *src = NULL, *dst = NULL;
	int ex = open_both(from, to, &src, &dst);

	if (ex != HEED_EXIT_OK)
		return ex;

	struct migrate_progress p = {.tty = !quiet && isatty(STDERR_FILENO)};
	struct heed_diag d = {0};
	heed_status hs;

	clock_gettime(CLOCK_MONOTONIC, &p.start);
	heed_cli_progress_begin(
	        p.tty ? HEED_CLI_PROGRESS_TTY : HEED_CLI_PROGRESS_OFF, 0, NULL);
	hs = heed_store_copy(src, dst, batch, quiet ? NULL : on_progress, &p,
	                     &d);
	heed_cli_progress_end();
	if (hs != HEED_OK) {
		heed_cli_error("store migrate: %s", d.message);
		ex = exit_for(hs);
	} else {
		printf("%-16s %10s %10s %-16s %-16s\n", "table", "source",
		       "copy", "source sum", "copy sum");
		hs = heed_store_copy_verify(src, dst, on_check, NULL, &d);
		if (hs != HEED_OK) {
			heed_cli_error("store migrate: %s", d.message);
			ex = HEED_EXIT_FAIL;
		}
	}
	heed_store_close(dst);
	heed_store_close(src);
	return ex;
}

int heed_cmd_store(int argc, char **argv)
{
	if (argc < 2 || strcmp(argv[1], "--help") == 0 ||
	    strcmp(argv[1], "-h") == 0) {
		heed_cli_print_help(argc < 2 ? stderr : stdout,
		                    heed_cli_find("store"));
		return argc < 2 ? HEED_EXIT_USAGE : HEED_EXIT_OK;
	}
	if (strcmp(argv[1], "migrate") == 0) {
		optind = 0;
		return store_migrate(argc - 1, argv + 1);
	}
	return heed_cli_usage("store", "no such subcommand '%s'", argv[1]);
}
