/*
 * Settings on the command line, shared by every command that needs them:
 * --config FILE, --set section.key=value, and shorthands for the common
 * ones (--store, --dns-server, --allow-private, --contact-url,
 * --contact-email). The file is read first (FILE, or ./heed.ini when it
 * exists), then the command-line settings in their order, so the command
 * line always wins (docs/configuration.md).
 *
 * A command adds HEED_CLI_CONFIG_LONGOPTS to its getopt_long table, hands
 * every option to heed_cli_config_option, then calls heed_cli_config_load.
 */
#ifndef HEED_CLI_CONFIG_H
#define HEED_CLI_CONFIG_H

#include <getopt.h>
#include <stdbool.h>

#include "heed/config.h"

/* getopt_long values of the shared options (outside the char range). */
enum {
	HEED_CLI_OPT_CONFIG = 0x100,
	HEED_CLI_OPT_SET,
	HEED_CLI_OPT_STORE,
	HEED_CLI_OPT_DNS_SERVER,
	HEED_CLI_OPT_ALLOW_PRIVATE,
	HEED_CLI_OPT_CONTACT_URL,
	HEED_CLI_OPT_CONTACT_EMAIL,
	HEED_CLI_OPT_PROXY,
};

/* --proxy, for the commands that fetch over HTTP (crawl, site). */
#define HEED_CLI_PROXY_LONGOPT                                       \
	{                                                            \
		"proxy", required_argument, NULL, HEED_CLI_OPT_PROXY \
	}
#define HEED_CLI_PROXY_HELP                                                   \
	"  --proxy URL|env        fetch through this proxy, or the one the\n" \
	"                         environment names (net.proxy)\n"

#define HEED_CLI_CONFIG_LONGOPTS                                        \
	{"config", required_argument, NULL, HEED_CLI_OPT_CONFIG},       \
	        {"set", required_argument, NULL, HEED_CLI_OPT_SET},     \
	        {"store", required_argument, NULL, HEED_CLI_OPT_STORE}, \
	        {"dns-server", required_argument, NULL,                 \
	         HEED_CLI_OPT_DNS_SERVER},                              \
	        {"allow-private", no_argument, NULL,                    \
	         HEED_CLI_OPT_ALLOW_PRIVATE},                           \
	        {"contact-url", required_argument, NULL,                \
	         HEED_CLI_OPT_CONTACT_URL},                             \
	{                                                               \
		"contact-email", required_argument, NULL,               \
		        HEED_CLI_OPT_CONTACT_EMAIL                      \
	}

/* The help lines of the shared options, for a command's help text. */
#define HEED_CLI_CONFIG_HELP                                                \
	"  --config FILE          read settings from FILE (default: "       \
	"./heed.ini "                                                       \
	"if any)\n"                                                         \
	"  --set SECTION.KEY=VALUE  override one setting (repeatable)\n"    \
	"  --store PATH           the store (store.location)\n"             \
	"  --dns-server ADDR[:PORT][,...]  ask these DNS servers "          \
	"(net.dns_server)\n"                                                \
	"  --allow-private        allow private, loopback and link-local\n" \
	"                         addresses (net.allow_private)\n"          \
	"  --contact-url URL      your crawler page, in the User-Agent\n"   \
	"  --contact-email ADDR   your e-mail address, in the User-Agent\n"

/* Command-line settings gathered before the file is read. */
struct heed_cli_config {
	const char *file;   /* --config, or NULL */
	const char **names; /* settings in command-line order */
	const char **values;
	char **owned; /* "section.key" copies made by --set */
	size_t count, owned_count;
};

/* Takes option c (a HEED_CLI_OPT_* value) with its argument. Returns 1
 * when the option was one of the shared ones, 0 when it is not, -1 on a
 * bad --set (a message is printed). */
int heed_cli_config_option(struct heed_cli_config *cc, int c, const char *arg);

/* Fills cfg: defaults, the file, then the command line. Prints the reason
 * and returns false on a bad file or setting, which every command reports
 * with exit status 2 (HEED_EXIT_USAGE), wherever the setting came from.
 * cfg must be released with heed_config_free, whatever the result. */
bool heed_cli_config_load(struct heed_cli_config *cc, struct heed_config *cfg,
                          const char *command);

/* Frees what the gathering kept. */
void heed_cli_config_free(struct heed_cli_config *cc);

struct heed_crawl_options;

/* Fills every option a crawl takes (lifecycle, politeness, network, DNS,
 * limits) from cfg, for `heed crawl` and `heed site qualify`; user_agent
 * is borrowed. */
void heed_cli_crawl_options(const struct heed_config *c,
                            struct heed_crawl_options *o,
                            const char *user_agent);

/* A logger that prints "heed: [module] message" on stderr up to the
 * configured level. */
struct heed_logger heed_cli_logger(const struct heed_config *cfg);

#endif /* HEED_CLI_CONFIG_H */
