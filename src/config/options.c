/*
 * The table of heed's settings. Adding a setting is a field in struct
 * heed_config, one row here, and a line in docs/configuration.md (a unit
 * test checks that every row is documented there).
 */
#include <stddef.h>

#include "config/config-int.h"

#define FIELD(f) offsetof(struct heed_config, f)

const struct heed_config_option heed__config_options[] = {
        {{"identity.product_token", HEED_CONFIG_STRING, "heed",
          "The product token that starts heed's User-Agent and that robots.txt "
          "groups name."},
         FIELD(product_token),
         1,
         0},
        {{"identity.contact_url", HEED_CONFIG_STRING, "",
          "The operator's crawler page, sent in the User-Agent."},
         FIELD(contact_url),
         0,
         0},
        {{"identity.contact_email", HEED_CONFIG_STRING, "",
          "The operator's e-mail address, sent in the User-Agent."},
         FIELD(contact_email),
         0,
         0},
        {{"store.location", HEED_CONFIG_STRING, "heed.db",
          "Where heed keeps its state and records: a SQLite file path."},
         FIELD(store_location),
         1,
         0},
        {{"log.level", HEED_CONFIG_INT, "2",
          "How much to log: 0 errors, 1 warnings, 2 information, 3 debugging."},
         FIELD(log_level),
         0,
         3},
};

const size_t heed__config_option_count = HEED_ARRAY_SIZE(heed__config_options);
