/*
 * The `heed` command's internals: the table of subcommands and what every
 * subcommand shares (exit codes, reading an input file, usage errors).
 * Only src/cli/ turns libheed statuses into exit codes and text.
 */
#ifndef HEED_CLI_H
#define HEED_CLI_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "heed/common.h"
#include "heed/config.h"

/* Exit statuses, as GNU programs use them. */
enum {
	HEED_EXIT_OK = 0,    /* success; for checks: everything passed */
	HEED_EXIT_FAIL = 1,  /* failure; for checks: something did not pass */
	HEED_EXIT_USAGE = 2, /* the command line was wrong */
	HEED_EXIT_BUSY = 75, /* another heed crawl holds the store: try later
	                        (sysexits.h's EX_TEMPFAIL) */
	HEED_EXIT_INTERRUPTED = 130, /* SIGINT or SIGTERM, after a clean stop
	                                (128 + SIGINT, as shells report it) */
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

/* Writes heed-NAME(1), cmd's manual page in troff, made from its help
 * text (cli_man.c says how the text is read); heed_cli_print_man_main
 * writes heed(1). `heed help --man [COMMAND]`, run by the build. */
void heed_cli_print_man(FILE *out, const struct heed_cli_command *cmd);
void heed_cli_print_man_main(FILE *out);

/* Prints "heed NAME: message" and a pointer to --help on stderr; returns
 * HEED_EXIT_USAGE so callers can `return heed_cli_usage(...)`. */
int heed_cli_usage(const char *name, const char *fmt, ...)
        __attribute__((format(printf, 2, 3)));

/*
 * The subcommand argv[1] of command cmd (`heed site report`): names is the
 * first entry's name member of a table of count entries stride bytes apart
 * (qsort's way), so each command keeps its own table. Returns -1 with
 * *index set; otherwise an exit status: usage when argv[1] is missing
 * (missing says what is) or unknown, 0 after printing --help.
 */
int heed_cli_subcommand(const char *cmd, int argc, char **argv,
                        const char *const *names, size_t count, size_t stride,
                        const char *missing, size_t *index);

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

/* Parses "2026-11-21", "2026-11-21T18:00:00Z" (UTC) or "@UNIXSECONDS"
 * into Unix seconds. Returns 0, or -1 for anything else. */
int heed_cli_parse_date(const char *text, int64_t *unix_s);

/* Writes unix_s as "2026-11-21T18:00:00Z" into buf and returns buf. */
const char *heed_cli_format_date(int64_t unix_s, char *buf, size_t size);

/* Writes an interval of s seconds in its two largest units ("1d 12h",
 * "2h 30min", "45s"; "-" for none) into buf and returns buf. */
const char *heed_cli_format_interval(int64_t s, char *buf, size_t size);

/* Opens the store at override, or else at the settings' store.location;
 * prints why and returns NULL when it cannot. */
struct heed_store;
struct heed_store *heed_cli_open_store(const struct heed_config *cfg,
                                       const char *override);

/* For commands that only read (stats, export, site report, irc list):
 * opens the store read-only (HEED_STORE_OPEN_READONLY), never creating
 * nor writing it; prints "no store at 'PATH'" and returns NULL when there
 * is none, and likewise when it cannot open it. */
struct heed_store *heed_cli_open_store_existing(const struct heed_config *cfg,
                                                const char *override);

/* Opens the store at the settings' store.location with flags
 * (HEED_STORE_OPEN_*: HEED_STORE_OPEN_EXISTING for a writer with nothing
 * to write into a new store, such as the resets); prints why and returns
 * NULL when it cannot. */
struct heed_store *heed_cli_open_store_flags(const struct heed_config *cfg,
                                             unsigned flags);

/* heed_cli_open_store_flags for a command that uses only the store areas
 * named in areas (NULL-ended): a backend that has them all will do. The
 * other openers require every area (heed_store_require). */
struct heed_store *heed_cli_open_store_areas(const struct heed_config *cfg,
                                             unsigned flags,
                                             const char *const *areas);

/* Gives an opened store the settings' store.reconnect_timeout and the
 * command's log for its reconnect warnings (every opener above does). */
void heed_cli_store_reconnect(const struct heed_config *cfg,
                              struct heed_store *store);

/* Set by SIGINT or SIGTERM while caught (cli_signal.c): a long command
 * stops cleanly and exits HEED_EXIT_INTERRUPTED. */
extern volatile sig_atomic_t heed_cli_stop;

/* From here on, the first SIGINT or SIGTERM sets heed_cli_stop instead of
 * killing; a second one kills. */
void heed_cli_catch_stop(void);

/* Back to the default actions: a signal kills at once. */
void heed_cli_release_stop(void);

/* The subcommands; each lives in its own cmd_<name>.c. */
int heed_cmd_crawl(int argc, char **argv);

/* `heed crawl --dry-run` (cmd_crawl_dryrun.c): qualifies the sites of
 * o's seeds in a scratch store seeded from known (the real store, only
 * read; may be NULL), then prints per site the first URLs a crawl would
 * ask for (at most limit per site, 0 all) and the rule that allows or
 * refuses each, as JSON when json. Returns an exit status. */
struct heed_crawl_options;
int heed_cli_crawl_dry_run(const struct heed_crawl_options *o,
                           struct heed_store *known, size_t limit, bool json);
int heed_cmd_dns(int argc, char **argv);
int heed_cmd_page(int argc, char **argv);
int heed_cmd_verify(int argc, char **argv);
int heed_cmd_export(int argc, char **argv);
int heed_cmd_stats(int argc, char **argv);
int heed_cmd_queue(int argc, char **argv);
int heed_cmd_version(int argc, char **argv);
int heed_cmd_extract(int argc, char **argv);
int heed_cmd_robots(int argc, char **argv);
int heed_cmd_site(int argc, char **argv);
int heed_cmd_sites(int argc, char **argv);

/* An arrangement with a site's owner as `heed sites show` prints it, and
 * as JSON (cmd_sites.c; `heed site report` shows it too). */
struct heed_arrangement;
void heed_cli_arrangement_print(const struct heed_arrangement *a);
struct json_object;
struct json_object *heed_cli_arrangement_json(const struct heed_arrangement *a);
int heed_cmd_irc(int argc, char **argv);
int heed_cmd_store(int argc, char **argv);
int heed_cmd_serve(int argc, char **argv);

#endif /* HEED_CLI_H */
