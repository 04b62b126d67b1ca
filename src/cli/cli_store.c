/*
 * Opening the store for a command: --store or the settings' store.location,
 * with the reason printed when it cannot be opened. Commands that write
 * open it with heed_cli_open_store (creating it when missing); commands
 * that only read with heed_cli_open_store_existing, which never creates
 * nor writes it: a mistyped --store gets "no store at 'X'", not an empty
 * store left behind, and a database that is not heed's stays untouched.
 */
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_config.h"
#include "heed/config.h"
#include "heed/store.h"

/* Opens where with flags, printing why it could not. libheed's refusals
 * of the file itself ("no store at 'X'", "'X' is not a heed store: ...")
 * name it already; other failures get it named here. */
static heed_store *open_store(const struct heed_config *cfg, const char *where,
                              unsigned flags, const char *const *areas)
{
	struct heed_diag d = {0};
	heed_store *store = NULL;

	if (heed_store_open_ex(&store, where, flags, NULL, &d) == HEED_OK) {
		heed_cli_store_reconnect(cfg, store);
		/* A backend may lack an area the command uses (PostgreSQL
		 * gained its areas one by one): refuse before the command
		 * writes half its work. */
		if (heed_store_require(store, areas, &d) == HEED_OK)
			return store;
		heed_store_close(store);
		heed_cli_error("%s", d.message);
		return NULL;
	}
	/* A PostgreSQL URI may hold a password: libheed's messages name
	 * that store without it, and so must this one. */
	if (strstr(d.message, where) || strncmp(where, "postgres", 8) == 0)
		heed_cli_error("%s", d.message);
	else
		heed_cli_error("cannot open the store '%s': %s", where,
		               d.message);
	return NULL;
}

void heed_cli_store_reconnect(const struct heed_config *cfg, heed_store *store)
{
	struct heed_logger log = heed_cli_logger(cfg);

	heed_store_set_reconnect(store, cfg->store_reconnect_timeout * 1000,
	                         &log);
}

/* Opens the store named by --store or the settings. */
heed_store *heed_cli_open_store(const struct heed_config *cfg,
                                const char *override)
{
	return open_store(cfg, override ? override : cfg->store_location, 0,
	                  NULL);
}

heed_store *heed_cli_open_store_existing(const struct heed_config *cfg,
                                         const char *override)
{
	return open_store(cfg, override ? override : cfg->store_location,
	                  HEED_STORE_OPEN_READONLY, NULL);
}

heed_store *heed_cli_open_store_flags(const struct heed_config *cfg,
                                      unsigned flags)
{
	return open_store(cfg, cfg->store_location, flags, NULL);
}

heed_store *heed_cli_open_store_areas(const struct heed_config *cfg,
                                      unsigned flags, const char *const *areas)
{
	return open_store(cfg, cfg->store_location, flags, areas);
}
