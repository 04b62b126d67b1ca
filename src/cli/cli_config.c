/*
 * The shared settings options of heed's commands (see cli_config.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_progress.h"
#include "cli/cli_config.h"
#include "heed/crawl.h"

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
	case HEED_CLI_OPT_PROXY:
		return add(cc, "net.proxy", arg);
	default:
		return 0;
	}
}

/* The [revisit] settings bound each other (min <= initial <= max), so
 * they are checked once all are read, wherever each came from. */
static bool revisit_checked(const struct heed_config *cfg, const char *command)
{
	struct heed_revisit_options opt;
	struct heed_diag diag = {0};

	if (heed_config_revisit(cfg, &opt, &diag) == HEED_OK)
		return true;
	heed_cli_usage(command, "%s", diag.message);
	return false;
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
		/* Without a line, the message names the file itself. */
		if (diag.line)
			heed_cli_error("%s:%u: %s", file, diag.line,
			               diag.message);
		else
			heed_cli_error("%s", diag.message);
		return false;
	}
	for (i = 0; i < cc->count; i++) {
		if (heed_config_set(cfg, cc->names[i], cc->values[i], &diag) !=
		    HEED_OK) {
			heed_cli_usage(command, "%s", diag.message);
			return false;
		}
	}
	return revisit_checked(cfg, command);
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
	char line[1280];

	(void)ud;
	snprintf(line, sizeof(line), "heed: [%s] %s%s", module,
	         level == HEED_LOG_ERROR  ? "error: "
	         : level == HEED_LOG_WARN ? "warning: "
	                                  : "",
	         message);
	heed_cli_stderr_line(line);
}

struct heed_logger heed_cli_logger(const struct heed_config *cfg)
{
	struct heed_logger l = {log_to_stderr, NULL,
	                        (heed_log_level)cfg->log_level};

	return l;
}

/* The first of two environment variables that is set and not empty. */
static const char *env_either(const char *a, const char *b)
{
	const char *v = getenv(a);

	if (!v || !*v)
		v = b ? getenv(b) : NULL;
	return v && *v ? v : NULL;
}

/* net.proxy: a URL serves both schemes; `env` reads the variables libcurl
 * and most tools read (http_proxy in lower case only, as libcurl does:
 * HTTP_PROXY can be set by a CGI request's Proxy header), and only then,
 * since an unnoticed proxy in the environment would resolve names past
 * heed's address checks (docs/security.md). */
static void proxy_options(const struct heed_config *c,
                          struct heed_net_options *n)
{
	const char *all;

	n->no_proxy = c->net_no_proxy;
	if (!c->net_proxy || !*c->net_proxy)
		return;
	if (strcmp(c->net_proxy, "env") != 0) {
		n->http_proxy = n->https_proxy = c->net_proxy;
		return;
	}
	all = env_either("all_proxy", "ALL_PROXY");
	n->http_proxy = env_either("http_proxy", NULL);
	n->https_proxy = env_either("https_proxy", "HTTPS_PROXY");
	if (!n->http_proxy)
		n->http_proxy = all;
	if (!n->https_proxy)
		n->https_proxy = all;
	if (!n->no_proxy || !*n->no_proxy)
		n->no_proxy = env_either("no_proxy", "NO_PROXY");
}

/* Every setting a crawl takes, as the controller takes them (shared by
 * `heed site qualify` and `heed crawl`). */
void heed_cli_crawl_options(const struct heed_config *c,
                            struct heed_crawl_options *o,
                            const char *user_agent)
{
	struct heed_polite_options *po = &o->polite;
	struct heed_crawl_limits *l = &o->limits;

	heed_crawl_options_default(o);
	/* Checked by heed_cli_config_load already. */
	(void)heed_config_revisit(c, &o->revisit, NULL);
	o->refresh_all = strcmp(c->crawl_refresh, "all") == 0;
	o->user_agent = user_agent;
	o->agent_token = c->product_token;
	o->site.retry_interval_s = c->site_retry_interval;
	o->site.recheck_interval_s = c->site_recheck_interval;
	o->site.max_failures = (uint32_t)c->site_max_failures;
	o->site.pass_pause_ms = c->site_pass_pause_ms;
	o->site.max_redirects = (unsigned)c->site_max_redirects;
	o->site.crawl_delay_cap_ms = c->polite_crawl_delay_cap * 1000;
	po->default_delay_ms = c->polite_delay_ms;
	po->crawl_delay_cap_ms = c->polite_crawl_delay_cap * 1000;
	po->per_address = c->polite_per_address;
	po->address_concurrency = (unsigned)c->polite_address_concurrency;
	po->address_window_start = (unsigned)c->polite_address_window;
	po->address_delay_ms = c->polite_address_delay_ms;
	po->latency_factor = (unsigned)c->polite_latency_factor;
	po->slow_ms = c->polite_slow_ms;
	po->error_delay_max_ms = c->polite_error_delay_max * 1000;
	po->backoff_max_s = c->polite_backoff_max;
	o->net.connect_timeout_ms = c->net_connect_timeout_ms;
	o->net.first_byte_timeout_ms = c->net_first_byte_timeout_ms;
	o->net.total_timeout_ms = c->net_total_timeout_ms;
	o->net.max_body_bytes = (size_t)c->net_max_body_bytes;
	o->net.allow_private = c->net_allow_private;
	o->net.ca_file = c->net_ca_file;
	o->net.user_agent = user_agent;
	proxy_options(c, &o->net);
	o->dns.servers = c->net_dns_server;
	o->dns.timeout_ms = (int)c->net_dns_timeout_ms;
	o->dns.tries = (int)c->net_dns_tries;
	o->mode =
	        c->crawl_incremental ? HEED_CRAWL_INCREMENTAL : HEED_CRAWL_FULL;
	l->max_pages = c->crawl_max_pages;
	l->max_depth = (int)c->crawl_max_depth;
	l->max_url_bytes = (size_t)c->crawl_max_url_bytes;
	l->max_path_repeat = (int)c->crawl_max_path_repeat;
	l->max_run_ms = c->crawl_max_run_time * 1000;
	l->max_active = (unsigned)c->crawl_concurrency;
	l->window = (unsigned)c->crawl_window;
	o->extract_threads = (unsigned)c->crawl_extract_threads;
	l->retries = (unsigned)c->crawl_retries;
	l->max_wait_ms = c->crawl_max_wait * 1000;
	l->dns_concurrency = (unsigned)c->net_dns_concurrency;
	l->dns_retries = (unsigned)c->net_dns_retries;
	o->worker.lease_ms = c->crawl_lease * 1000;
	o->worker.max_sites = (unsigned)c->crawl_worker_sites;
}
