/*
 * Settings for commands that need them: the defaults, then --config FILE,
 * then each --set section.key=value in order, then the command's own
 * options (which the command applies itself with heed_config_set). The
 * command line overrides the file (issue 8: "the command line overrides
 * it").
 */
#include <string.h>

#include "cli/cli.h"
#include "heed/store.h"

void heed_cli_settings_add(struct heed_cli_settings *s, const char *assignment)
{
	if (s->set_count < HEED_ARRAY_SIZE(s->sets))
		s->sets[s->set_count++] = assignment;
	else
		s->overflow = 1;
}

static int apply_set(struct heed_config *cfg, const char *cmd,
                     const char *assignment)
{
	const char *eq = strchr(assignment, '=');
	struct heed_diag d = {0};
	char name[128];
	heed_status rc;

	if (!eq || eq == assignment ||
	    (size_t)(eq - assignment) >= sizeof(name))
		return heed_cli_usage(cmd,
		                      "--set wants SECTION.KEY=VALUE, not '%s'",
		                      assignment);
	memcpy(name, assignment, (size_t)(eq - assignment));
	name[eq - assignment] = '\0';
	rc = heed_config_set(cfg, name, eq + 1, &d);
	if (rc == HEED_ENOTFOUND)
		return heed_cli_usage(cmd, "no such setting '%s'", name);
	if (rc != HEED_OK)
		return heed_cli_usage(cmd, "%s: %s", name,
		                      d.message[0] ? d.message
		                                   : heed_strerror(rc));
	return HEED_EXIT_OK;
}

int heed_cli_settings_apply(const struct heed_cli_settings *s,
                            struct heed_config *cfg, const char *cmd)
{
	struct heed_diag d = {0};
	heed_status rc;
	int ex;

	if (heed_config_init(cfg) != HEED_OK) {
		heed_cli_error("out of memory");
		return HEED_EXIT_FAIL;
	}
	if (s->overflow) {
		heed_config_free(cfg);
		return heed_cli_usage(cmd, "too many --set options");
	}
	if (s->config_file) {
		rc = heed_config_load_file(cfg, s->config_file, &d);
		if (rc != HEED_OK) {
			heed_cli_error("%s:%u: %s", s->config_file, d.line,
			               d.message[0] ? d.message
			                            : heed_strerror(rc));
			heed_config_free(cfg);
			return HEED_EXIT_FAIL;
		}
	}
	for (size_t i = 0; i < s->set_count; i++) {
		ex = apply_set(cfg, cmd, s->sets[i]);
		if (ex != HEED_EXIT_OK) {
			heed_config_free(cfg);
			return ex;
		}
	}
	return HEED_EXIT_OK;
}

int heed_cli_config_set(struct heed_config *cfg, const char *cmd,
                        const char *name, const char *value)
{
	struct heed_diag d = {0};
	heed_status rc = heed_config_set(cfg, name, value, &d);

	if (rc == HEED_OK)
		return HEED_EXIT_OK;
	return heed_cli_usage(cmd, "%s: %s", name,
	                      d.message[0] ? d.message : heed_strerror(rc));
}

/* Opens the store named by --store or the settings. */
heed_store *heed_cli_open_store(const struct heed_config *cfg,
                                const char *override)
{
	const char *where = override ? override : cfg->store_location;
	struct heed_diag d = {0};
	heed_store *store = NULL;

	if (heed_store_open(&store, where, NULL, &d) != HEED_OK)
		heed_cli_error("cannot open the store '%s': %s", where,
		               d.message);
	return store;
}
