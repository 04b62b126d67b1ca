/*
 * Opening the store for a command: --store or the settings' store.location,
 * with the reason printed when it cannot be opened.
 */
#include "cli/cli.h"
#include "heed/config.h"
#include "heed/store.h"

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
