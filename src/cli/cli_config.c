/*
 * What every command that reads settings shares: `--config FILE` and
 * `--set section.key=value`, applied on top of the defaults in that order
 * (docs/configuration.md: the command line wins over the file). Without
 * --config, heed.ini in the current folder is read when it exists.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"

#define DEFAULT_CONFIG_FILE "heed.ini"

int heed_cli_config_option(struct heed_cli_config *cc, int opt, char *arg)
{
	char **sets;

	if (opt == HEED_CLI_OPT_CONFIG) {
		cc->file = arg;
		return 1;
	}
	if (opt != HEED_CLI_OPT_SET)
		return 0;
	sets = realloc(cc->sets, (cc->set_count + 1) * sizeof(*sets));
	if (!sets) {
		heed_cli_error("out of memory");
		return -1;
	}
	cc->sets = sets;
	cc->sets[cc->set_count++] = arg;
	return 1;
}

void heed_cli_config_free(struct heed_cli_config *cc)
{
	free(cc->sets);
	memset(cc, 0, sizeof(*cc));
}

/* Applies one "section.key=value". */
static int apply_set(const char *name, struct heed_config *cfg, char *arg)
{
	struct heed_diag diag = {0};
	char *eq = strchr(arg, '=');
	heed_status rc;

	if (!eq)
		return heed_cli_usage(name,
		                      "--set needs section.key=value, "
		                      "not '%s'",
		                      arg);
	*eq = '\0';
	rc = heed_config_set(cfg, arg, eq + 1, &diag);
	*eq = '=';
	if (rc == HEED_ENOMEM) {
		heed_cli_error("out of memory");
		return HEED_EXIT_FAIL;
	}
	if (rc != HEED_OK)
		return heed_cli_usage(name, "--set: %s", diag.message);
	return HEED_EXIT_OK;
}

int heed_cli_config_load(const char *name, const struct heed_cli_config *cc,
                         struct heed_config *cfg)
{
	struct heed_diag diag = {0};
	const char *file = cc->file;
	heed_status rc;
	size_t i;
	int status;

	if (heed_config_init(cfg) != HEED_OK) {
		heed_cli_error("out of memory");
		return HEED_EXIT_FAIL;
	}
	if (!file && access(DEFAULT_CONFIG_FILE, F_OK) == 0)
		file = DEFAULT_CONFIG_FILE;
	if (file) {
		rc = heed_config_load_file(cfg, file, &diag);
		if (rc != HEED_OK) {
			if (diag.line)
				heed_cli_error("%s:%u: %s", file, diag.line,
				               diag.message);
			else
				heed_cli_error("%s: %s", file, diag.message);
			return HEED_EXIT_USAGE;
		}
	}
	for (i = 0; i < cc->set_count; i++) {
		status = apply_set(name, cfg, cc->sets[i]);
		if (status != HEED_EXIT_OK)
			return status;
	}
	return HEED_EXIT_OK;
}
