/*
 * The table of heed's subcommands. Adding a command is one row here, its
 * prototype in cli.h and its cmd_<name>.c file.
 */
#include "cli/cli.h"

#define VERSION_HELP            \
	"Usage: heed version\n" \
	"Print heed's version and the versions of the libraries it uses.\n"

const struct heed_cli_command heed_cli_commands[] = {
        {"version", "print versions and exit", VERSION_HELP, heed_cmd_version},
};

const size_t heed_cli_command_count = HEED_ARRAY_SIZE(heed_cli_commands);
