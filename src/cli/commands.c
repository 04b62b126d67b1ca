/*
 * The table of heed's subcommands. Adding a command is one row here, its
 * prototype in cli.h and its cmd_<name>.c file.
 */
#include "cli/cli.h"

#define VERSION_HELP            \
	"Usage: heed version\n" \
	"Print heed's version and the versions of the libraries it uses.\n"

#define ROBOTS_HELP                                                            \
	"Usage: heed robots check [--agent NAME] [--json] FILE URL...\n"       \
	"       heed robots check --usage USAGE [--purpose P]... FILE "        \
	"URL...\n"                                                             \
	"       heed robots explain [--agent NAME] [--usage USAGE] URL FILE\n" \
	"       heed robots lint [--json] FILE\n"                              \
	"What heed makes of a robots.txt file (RFC 9309) and its ACAP 1.1 "    \
	"fields.\nFILE - is standard input.\n"                                 \
	"\n"                                                                   \
	"  check   print, for each URL, allowed or disallowed and the rule\n"  \
	"          that decided it (FILE:LINE: Disallow: /private/); exit 0\n" \
	"          when every URL is allowed, 1 when any is disallowed. "      \
	"With\n"                                                               \
	"          --usage, --purpose or ACAP fields in FILE the answer is\n"  \
	"          ACAP's (crawl unless --usage says otherwise)\n"             \
	"  explain print the chain of fields that decided, with line\n"        \
	"          numbers and reasons; exit 0 permitted, 1 prohibited\n"      \
	"  lint    print every diagnostic as FILE:LINE: message (unknown\n"    \
	"          field, missing colon, rule before any user-agent, "         \
	"invalid\n"                                                            \
	"          Crawl-delay, file over 500 KiB, ACAP errors...); exit 1 "   \
	"if\n"                                                                 \
	"          there are any (ACAP notes do not count)\n"                  \
	"\n"                                                                   \
	"  -a, --agent NAME  the crawler's product token or User-Agent\n"      \
	"                    (default: heed)\n"                                \
	"      --usage USAGE an ACAP usage: crawl follow index preserve\n"     \
	"                    present other present-original ... "              \
	"present-link\n"                                                       \
	"      --purpose P   a usage purpose (ACAP-usage-purpose), "           \
	"repeatable\n"                                                         \
	"      --now SECONDS the time for ACAP time limits (Unix seconds)\n"   \
	"      --first-indexed SECONDS  when the resource was first indexed\n" \
	"                    (for time-limit=n-days; default: now)\n"          \
	"      --reference LOCATOR=FILE  read FILE as the file an\n"           \
	"                    ACAP-permissions-reference LOCATOR names\n"       \
	"      --json        print one JSON document instead of text\n"        \
	"  -h, --help        print this help\n"                                \
	"\n"                                                                   \
	"Exit status: 0 allowed / clean, 1 disallowed / diagnostics or an\n"   \
	"unreadable FILE, 2 usage error. See docs/robots.md, docs/acap.md.\n"

const struct heed_cli_command heed_cli_commands[] = {
        {"version", "print versions and exit", VERSION_HELP, heed_cmd_version},
        {"robots", "check URLs against a robots.txt, or lint it", ROBOTS_HELP,
         heed_cmd_robots},
};

const size_t heed_cli_command_count = HEED_ARRAY_SIZE(heed_cli_commands);
