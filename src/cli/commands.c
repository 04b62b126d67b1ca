/*
 * The table of heed's subcommands. Adding a command is one row here, its
 * prototype in cli.h and its cmd_<name>.c file.
 */
#include "cli/cli.h"

#define DNS_HELP                                                              \
	"Usage: heed dns [--dns-server ADDR:PORT] [--json] NAME|ADDRESS...\n" \
	"Look names and addresses up the way heed does before it crawls:\n"   \
	"every IPv4 and IPv6 address of a NAME, in the order heed tries\n"    \
	"them, with TTLs and CNAMEs; every PTR name of an ADDRESS.\n"         \
	"\n"                                                                  \
	"  -s, --dns-server ADDR[:PORT][,...]  ask these servers only\n"      \
	"                                      (default: /etc/resolv.conf)\n" \
	"  -j, --json          print JSON\n"                                  \
	"  -h, --help          show this help\n"                              \
	"\n"                                                                  \
	"Exit status: 0 if every lookup found an answer, 1 if not, 2 usage.\n"

#define VERSION_HELP            \
	"Usage: heed version\n" \
	"Print heed's version and the versions of the libraries it uses.\n"

const struct heed_cli_command heed_cli_commands[] = {
        {"dns", "look up names and addresses as heed does", DNS_HELP,
         heed_cmd_dns},
        {"version", "print versions and exit", VERSION_HELP, heed_cmd_version},
};

const size_t heed_cli_command_count = HEED_ARRAY_SIZE(heed_cli_commands);
