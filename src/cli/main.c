/*
 * heed: the command-line front end of libheed.
 *
 * `heed [--help] [--version] COMMAND [ARGS]`. Each COMMAND is a row of
 * heed_cli_commands (commands.c) and parses its own options with getopt_long.
 * Exit status: 0 success, 1 failure, 2 usage error (GNU conventions).
 */
#include <getopt.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_progress.h"
#include "heed/common.h"

static void print_main_help(FILE *out)
{
	size_t i;

	fputs("Usage: heed [--help] [--version] COMMAND [ARGS]...\n"
	      "heed is a polite metadata crawler for the web and IRC "
	      "networks.\n"
	      "\n"
	      "Commands:\n",
	      out);
	for (i = 0; i < heed_cli_command_count; i++)
		fprintf(out, "  %-10s %s\n", heed_cli_commands[i].name,
		        heed_cli_commands[i].summary);
	fputs("\n"
	      "Run 'heed help COMMAND' or 'heed COMMAND --help' for a "
	      "command's "
	      "options.\n"
	      "Exit status: 0 success, 1 failure, 2 usage error.\n",
	      out);
}

const struct heed_cli_command *heed_cli_find(const char *name)
{
	size_t i;

	for (i = 0; i < heed_cli_command_count; i++)
		if (strcmp(heed_cli_commands[i].name, name) == 0)
			return &heed_cli_commands[i];
	return NULL;
}

void heed_cli_print_help(FILE *out, const struct heed_cli_command *cmd)
{
	fputs(cmd->help, out);
}

int heed_cli_usage(const char *name, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "heed %s: ", name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'heed help %s' for more information.\n", name);
	return HEED_EXIT_USAGE;
}

int heed_cli_subcommand(const char *cmd, int argc, char **argv,
                        const char *const *names, size_t count, size_t stride,
                        const char *missing, size_t *index)
{
	size_t k;

	if (argc < 2)
		return heed_cli_usage(cmd, "%s missing", missing);
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		heed_cli_print_help(stdout, heed_cli_find(cmd));
		return HEED_EXIT_OK;
	}
	for (k = 0; k < count; k++) {
		const char *name = *(
		        const char *const *)(const void *)((const char *)names +
		                                           k * stride);
		if (strcmp(argv[1], name) == 0) {
			*index = k;
			return -1;
		}
	}
	return heed_cli_usage(cmd, "unknown subcommand '%s'", argv[1]);
}

void heed_cli_error(const char *fmt, ...)
{
	char line[2048];
	va_list ap;

	memcpy(line, "heed: ", 6);
	va_start(ap, fmt);
	vsnprintf(line + 6, sizeof(line) - 6, fmt, ap);
	va_end(ap);
	heed_cli_stderr_line(line);
}

/* `heed help [--man] [COMMAND]`: --man, which the build runs to make
 * the manual pages, writes troff instead of the text. */
static int run_help(int argc, char **argv)
{
	const struct heed_cli_command *cmd;
	bool man = argc > 1 && strcmp(argv[1], "--man") == 0;

	if (man) {
		argc--;
		argv++;
	}
	if (argc < 2) {
		if (man)
			heed_cli_print_man_main(stdout);
		else
			print_main_help(stdout);
		return HEED_EXIT_OK;
	}
	cmd = heed_cli_find(argv[1]);
	if (!cmd) {
		heed_cli_error("no such command '%s'; try 'heed --help'",
		               argv[1]);
		return HEED_EXIT_USAGE;
	}
	if (man)
		heed_cli_print_man(stdout, cmd);
	else
		heed_cli_print_help(stdout, cmd);
	return fflush(stdout) == 0 ? HEED_EXIT_OK : HEED_EXIT_FAIL;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
	        {"help", no_argument, NULL, 'h'},
	        {"version", no_argument, NULL, 'V'},
	        {NULL, 0, NULL, 0},
	};
	const struct heed_cli_command *cmd;
	int c;

	/* heed never reads SQLite's memory statistics (sqlite3_memory_used,
	 * a soft heap limit), and keeping them costs a global mutex in each
	 * of SQLite's mallocs and frees: about 400 lock and unlock pairs a
	 * page a crawl stores. The process is the program's, so the
	 * program, not libheed, says so, before SQLite is first used. */
	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
	/* "+" stops at the first non-option: the rest belongs to COMMAND. */
	while ((c = getopt_long(argc, argv, "+hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			print_main_help(stdout);
			return HEED_EXIT_OK;
		case 'V':
			return heed_cmd_version(1, argv);
		default:
			fputs("Try 'heed --help' for more information.\n",
			      stderr);
			return HEED_EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		print_main_help(stderr);
		return HEED_EXIT_USAGE;
	}
	argc -= optind;
	argv += optind;
	if (strcmp(argv[0], "help") == 0)
		return run_help(argc, argv);
	cmd = heed_cli_find(argv[0]);
	if (!cmd) {
		heed_cli_error("no such command '%s'; try 'heed --help'",
		               argv[0]);
		return HEED_EXIT_USAGE;
	}
	/* Each command runs getopt_long afresh over its own arguments. */
	optind = 0;
	return cmd->fn(argc, argv);
}
