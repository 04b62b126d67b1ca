/*
 * The shared settings options of heed's commands (see cli_config.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_config.h"
#include "heed/qualify.h"

static int add(struct heed_cli_config *cc, const char *name, const char *value)
{
	const char **names, **values;

	names = realloc(cc->names, (cc->count + 1) * sizeof(*names));
	if (!names)
		return -1;
	cc->names = names;
	values = realloc(cc->values, (cc->count + 1) * sizeof(*values));
	if (!values)
		return -1;
	cc->values = values;
	cc->names[cc->count] = name;
	cc->values[cc->count] = value;
	cc->count++;
	return 1;
}

/* --set section.key=value: the name is copied, the value points into arg. */
static int add_set(struct heed_cli_config *cc, const char *arg)
{
	const char *eq = strchr(arg, '=');
	char **owned, *name;

	if (!eq || eq == arg) {
		heed_cli_error("--set needs SECTION.KEY=VALUE, not '%s'", arg);
		return -1;
	}
	owned = realloc(cc->owned, (cc->owned_count + 1) * sizeof(*owned));
	if (!owned)
		return -1;
	cc->owned = owned;
	name = strndup(arg, (size_t)(eq - arg));
	if (!name)
		return -1;
	cc->owned[cc->owned_count++] = name;
	return add(cc, name, eq + 1);
}

int heed_cli_config_option(struct heed_cli_config *cc, int c, const char *arg)
{
	switch (c) {
	case HEED_CLI_OPT_CONFIG:
		cc->file = arg;
		return 1;
	case HEED_CLI_OPT_SET:
		return add_set(cc, arg);
	case HEED_CLI_OPT_STORE:
		return add(cc, "store.location", arg);
	case HEED_CLI_OPT_DNS_SERVER:
		return add(cc, "net.dns_server", arg);
	case HEED_CLI_OPT_ALLOW_PRIVATE:
		return add(cc, "net.allow_private", "true");
	case HEED_CLI_OPT_CONTACT_URL:
		return add(cc, "identity.contact_url", arg);
	case HEED_CLI_OPT_CONTACT_EMAIL:
		return add(cc, "identity.contact_email", arg);
	default:
		return 0;
	}
}

bool heed_cli_config_load(struct heed_cli_config *cc, struct heed_config *cfg,
                          const char *command)
{
	struct heed_diag diag = {0};
	const char *file = cc->file;
	size_t i;

	if (heed_config_init(cfg) != HEED_OK) {
		heed_cli_error("out of memory");
		return false;
	}
	if (!file && access("heed.ini", R_OK) == 0)
		file = "heed.ini";
	if (file && heed_config_load_file(cfg, file, &diag) != HEED_OK) {
		if (diag.line)
			heed_cli_error("%s:%u: %s", file, diag.line,
			               diag.message);
		else
			heed_cli_error("%s: %s", file, diag.message);
		return false;
	}
	for (i = 0; i < cc->count; i++) {
		if (heed_config_set(cfg, cc->names[i], cc->values[i], &diag) !=
		    HEED_OK) {
			heed_cli_usage(command, "%s", diag.message);
			return false;
		}
	}
	return true;
}

void heed_cli_config_free(struct heed_cli_config *cc)
{
	size_t i;

	for (i = 0; i < cc->owned_count; i++)
		free(cc->owned[i]);
	free(cc->owned);
	free(cc->names);
	free(cc->values);
	memset(cc, 0, sizeof(*cc));
}

static void log_to_stderr(void *ud, heed_log_level level, const char *module,
                          const char *message)
{
	(void)ud;
	fprintf(stderr, "heed: [%s] %s%s\n", module,
	        level == HEED_LOG_ERROR  ? "error: "
	        : level == HEED_LOG_WARN ? "warning: "
	                                 : "",
	        message);
}

struct heed_logger heed_cli_logger(const struct heed_config *cfg)
{
	struct heed_logger l = {log_to_stderr, NULL,
	                        (heed_log_level)cfg->log_level};

	return l;
}

/* The lifecycle, politeness and network settings as the libraries take
 * them (shared by `heed site` and `heed crawl`). */
void heed_cli_net_options(const struct heed_config *c,
                          struct heed_qualify_options *qo,
                          struct heed_polite_options *po,
                          struct heed_net_options *no)
{
	heed_site_options_default(&qo->site);
	qo->site.retry_interval_s = c->site_retry_interval;
	qo->site.recheck_interval_s = c->site_recheck_interval;
	qo->site.max_failures = (uint32_t)c->site_max_failures;
	qo->site.pass_pause_ms = c->site_pass_pause_ms;
	qo->site.max_redirects = (unsigned)c->site_max_redirects;
	qo->site.crawl_delay_cap_ms = c->polite_crawl_delay_cap * 1000;
	qo->allow_private = c->net_allow_private;
	heed_polite_options_default(po);
	po->default_delay_ms = c->polite_delay_ms;
	po->crawl_delay_cap_ms = c->polite_crawl_delay_cap * 1000;
	po->per_address = c->polite_per_address;
	po->address_concurrency = (unsigned)c->polite_address_concurrency;
	po->address_delay_ms = c->polite_address_delay_ms;
	po->backoff_base_s = c->polite_backoff_base;
	po->backoff_max_s = c->polite_backoff_max;
	no->connect_timeout_ms = c->net_connect_timeout_ms;
	no->first_byte_timeout_ms = c->net_first_byte_timeout_ms;
	no->total_timeout_ms = c->net_total_timeout_ms;
	no->max_body_bytes = (size_t)c->net_max_body_bytes;
	no->allow_private = c->net_allow_private;
	no->ca_file = c->net_ca_file;
}
