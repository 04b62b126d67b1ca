/*
 * Settings for CLI commands: the defaults, then the INI file (--config FILE,
 * or ./heed.ini when it exists), then each --set section.key=value in order,
 * so the command line always wins (docs/configuration.md).
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"

heed_status heed_cli_settings_add(struct heed_cli_settings *s, const char *arg)
{
	if (s->nsets >= HEED_ARRAY_SIZE(s->sets))
		return HEED_ETOOBIG;
	s->sets[s->nsets++] = arg;
	return HEED_OK;
}

/* One --set: "section.key=value". */
static int apply_set(const char *cmd, struct heed_config *cfg, const char *s)
{
	const char *eq = strchr(s, '=');
	char name[128];
	struct heed_diag diag = {0};

	if (!eq || eq == s || (size_t)(eq - s) >= sizeof(name))
		return heed_cli_usage(cmd,
		                      "--set wants section.key=value, not "
		                      "'%s'",
		                      s);
	memcpy(name, s, (size_t)(eq - s));
	name[eq - s] = '\0';
	if (heed_config_set(cfg, name, eq + 1, &diag) != HEED_OK)
		return heed_cli_usage(cmd, "%s", diag.message);
	return HEED_EXIT_OK;
}

int heed_cli_settings_load(const char *cmd, const struct heed_cli_settings *s,
                           struct heed_config *cfg)
{
	struct heed_diag diag = {0};
	const char *file = s->file;
	heed_status rc;

	if (heed_config_init(cfg) != HEED_OK) {
		heed_cli_error("out of memory");
		return HEED_EXIT_FAIL;
	}
	if (!file && access("heed.ini", R_OK) == 0)
		file = "heed.ini";
	if (file) {
		rc = heed_config_load_file(cfg, file, &diag);
		if (rc != HEED_OK) {
			heed_cli_error("%s:%u: %s", file, diag.line,
			               diag.message);
			heed_config_free(cfg);
			return HEED_EXIT_USAGE;
		}
	}
	for (size_t i = 0; i < s->nsets; i++) {
		int ex = apply_set(cmd, cfg, s->sets[i]);
		if (ex != HEED_EXIT_OK) {
			heed_config_free(cfg);
			return ex;
		}
	}
	return HEED_EXIT_OK;
}

bool heed_cli_settings_option(const char *cmd, struct heed_cli_settings *s,
                              int opt, const char *arg, int *ex)
{
	*ex = HEED_EXIT_OK;
	if (opt == HEED_CLI_OPT_CONFIG) {
		s->file = arg;
		return true;
	}
	if (opt != HEED_CLI_OPT_SET)
		return false;
	if (heed_cli_settings_add(s, arg) != HEED_OK)
		*ex = heed_cli_usage(cmd, "too many --set options");
	return true;
}

int heed_cli_open_store(const char *cmd, const struct heed_cli_settings *s,
                        const char *path, heed_store **out)
{
	struct heed_config cfg;
	struct heed_diag diag = {0};
	int ex = heed_cli_settings_load(cmd, s, &cfg);

	*out = NULL;
	if (ex != HEED_EXIT_OK)
		return ex;
	if (heed_store_open(out, path ? path : cfg.store_location, NULL,
	                    &diag) != HEED_OK) {
		heed_cli_error("%s", diag.message);
		ex = HEED_EXIT_FAIL;
	}
	heed_config_free(&cfg);
	return ex;
}
