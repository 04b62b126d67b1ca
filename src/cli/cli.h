/*
 * The `heed` command's internals: the table of subcommands and what every
 * subcommand shares (exit codes, reading an input file, usage errors).
 * Only src/cli/ turns libheed statuses into exit codes and text.
 */
#ifndef HEED_CLI_H
#define HEED_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "heed/common.h"
#include "heed/config.h"
#include "heed/store.h"

/* Exit statuses, as GNU programs use them. */
enum {
	HEED_EXIT_OK = 0,    /* success; for checks: everything passed */
	HEED_EXIT_FAIL = 1,  /* failure; for checks: something did not pass */
	HEED_EXIT_USAGE = 2, /* the command line was wrong */
};

/* A subcommand: `heed NAME ARGS...` runs fn with argv[0] == NAME. */
struct heed_cli_command {
	const char *name;
	const char *summary; /* one line for `heed --help` */
	const char *help;    /* full text for `heed help NAME` and --help */
	int (*fn)(int argc, char **argv);
};

/* Every subcommand, in the order `heed --help` lists them. */
extern const struct heed_cli_command heed_cli_commands[];
extern const size_t heed_cli_command_count;

/* The command's entry by name, or NULL. */
const struct heed_cli_command *heed_cli_find(const char *name);

/* Prints cmd's full help to out. */
void heed_cli_print_help(FILE *out, const struct heed_cli_command *cmd);

/* Prints "heed NAME: message" and a pointer to --help on stderr; returns
 * HEED_EXIT_USAGE so callers can `return heed_cli_usage(...)`. */
int heed_cli_usage(const char *name, const char *fmt, ...)
        __attribute__((format(printf, 2, 3)));

/* Prints "heed: message" on stderr. */
void heed_cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Reads the whole of path ("-" for standard input) into a malloc'd buffer
 * that the caller frees; a NUL is appended (not counted in *len). Reads at
 * most max_bytes and sets *truncated when the input was longer (the rest is
 * drained, not kept). Returns HEED_OK, HEED_EIO (errno set) or HEED_ENOMEM.
 */
heed_status heed_cli_read_file(const char *path, size_t max_bytes, char **data,
                               size_t *len, int *truncated);

/*
 * The settings a command was given: --config FILE and each --set
 * section.key=value (cli_config.c). Commands add HEED_CLI_SETTINGS_OPTIONS
 * to their getopt table and pass those two options here.
 */
enum { HEED_CLI_OPT_CONFIG = 0x1000, HEED_CLI_OPT_SET };
#define HEED_CLI_SETTINGS_OPTIONS                                 \
	{"config", required_argument, NULL, HEED_CLI_OPT_CONFIG}, \
	{                                                         \
		"set", required_argument, NULL, HEED_CLI_OPT_SET  \
	}
struct heed_cli_settings {
	const char *file;     /* --config, or NULL for ./heed.ini if present */
	const char *sets[64]; /* --set arguments, in order */
	size_t nsets;
};

/* Records one --set; HEED_ETOOBIG past 64 of them. */
heed_status heed_cli_settings_add(struct heed_cli_settings *s, const char *arg);

/* Fills cfg: defaults, the file, then the --set values. Returns an exit
 * status (HEED_EXIT_OK, or USAGE/FAIL after printing why); on success the
 * caller frees cfg with heed_config_free. */
int heed_cli_settings_load(const char *cmd, const struct heed_cli_settings *s,
                           struct heed_config *cfg);

/* Handles opt when it is --config or --set (true; *ex is the exit status
 * to return unless HEED_EXIT_OK); false for any other option. */
bool heed_cli_settings_option(const char *cmd, struct heed_cli_settings *s,
                              int opt, const char *arg, int *ex);

/* Loads the settings and opens the store at path (NULL: store.location).
 * Returns an exit status; on HEED_EXIT_OK the caller closes *out. */
int heed_cli_open_store(const char *cmd, const struct heed_cli_settings *s,
                        const char *path, heed_store **out);

/* The subcommands; each lives in its own cmd_<name>.c. */
int heed_cmd_version(int argc, char **argv);
int heed_cmd_irc(int argc, char **argv);
int heed_cmd_export(int argc, char **argv);

#endif /* HEED_CLI_H */
