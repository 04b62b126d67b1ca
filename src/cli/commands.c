/*
 * The table of heed's subcommands. Adding a command is one row here, its
 * prototype in cli.h and its cmd_<name>.c file.
 */
#include "cli/cli.h"

#define VERSION_HELP            \
	"Usage: heed version\n" \
	"Print heed's version and the versions of the libraries it uses.\n"

#define IRC_HELP                                                               \
	"Usage: heed irc crawl [OPTIONS] NETWORK...\n"                         \
	"       heed irc check [OPTIONS] HOST[:PORT]\n"                        \
	"       heed irc list [--store PATH] [--network KEY]\n"                \
	"Build the public list of IRC networks, servers and channels,\n"       \
	"honouring each network's CRAWLER token (docs/irc.md).\n"              \
	"\n"                                                                   \
	"NETWORK is host, host:port, irc://host[:port] or "                    \
	"ircs://host[:port]\n"                                                 \
	"(TLS with certificate verification, port 6697 by default).\n"         \
	"\n"                                                                   \
	"  crawl    visit each network (one connection each, several at\n"     \
	"           once), read LUSERS, LINKS and LIST, store them; "          \
	"networks\n"                                                           \
	"           inside their cooldown are skipped and reported\n"          \
	"  check    read the 005 burst only and print how heed reads the\n"    \
	"           CRAWLER token and when it would come back; stores "        \
	"nothing\n"                                                            \
	"  list     print the stored networks and public channel list\n"       \
	"\n"                                                                   \
	"Options:\n"                                                           \
	"  -f, --networks FILE   more networks, one per line ('#' comments)\n" \
	"      --store PATH      the store (default: store.location)\n"        \
	"      --nick NICK       the nick to ask for (default: irc.nick)\n"    \
	"      --require-consent crawl only networks saying index:allow\n"     \
	"      --insecure        TLS without certificate checks (test "        \
	"servers)\n"                                                           \
	"      --config FILE     settings file (default: ./heed.ini if any)\n" \
	"      --set KEY=VALUE   one setting, e.g. irc.visit_limit=2m\n"       \
	"  -h, --help            this help\n"                                  \
	"Exit status: 0 when every network was visited or skipped for its\n"   \
	"cooldown, 1 when one failed or was banned, 2 for usage errors.\n"

#define EXPORT_HELP                                                         \
	"Usage: heed export --irc [--format jsonl|csv] [--store PATH]\n"    \
	"Print the public records on standard output.\n"                    \
	"\n"                                                                \
	"  --irc              IRC networks, servers and channels; JSON "    \
	"Lines\n"                                                           \
	"                     has one object per line with a \"type\" of\n" \
	"                     irc_network, irc_server or irc_channel; CSV " \
	"has\n"                                                             \
	"                     the channels only\n"                          \
	"  --format FORMAT    jsonl (default) or csv\n"                     \
	"  --store PATH       the store (default: store.location)\n"        \
	"  --config FILE, --set KEY=VALUE   settings, as for every command\n"

const struct heed_cli_command heed_cli_commands[] = {
        {"version", "print versions and exit", VERSION_HELP, heed_cmd_version},
        {"irc", "crawl IRC networks, check their CRAWLER token, list them",
         IRC_HELP, heed_cmd_irc},
        {"export", "print the public records as JSON Lines or CSV", EXPORT_HELP,
         heed_cmd_export},
};

const size_t heed_cli_command_count = HEED_ARRAY_SIZE(heed_cli_commands);
