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
        {{"identity.operator", HEED_CONFIG_STRING, "",
          "Who runs the crawler, as the crawler page names them; unset means "
          "the product token."},
         FIELD(operator_name),
         0,
         0},
        {{"crawl.full_interval", HEED_CONFIG_DURATION, "7d",
          "How often a full crawl of a site (following its public links) "
          "runs at most; the crawler page states it."},
         FIELD(full_interval_s),
         3600,
         366 * 86400},
        {{"crawl.incremental_interval", HEED_CONFIG_DURATION, "6h",
          "How often a site's recent entries are fetched in incremental "
          "mode; the crawler page states it."},
         FIELD(incremental_interval_s),
         60,
         366 * 86400},
        {{"verify.domain", HEED_CONFIG_LIST, "",
          "A domain the operator's crawler addresses have PTR names under "
          "(repeat for several); heed verify checks against it and the "
          "crawler page names it."},
         FIELD(verify_domains),
         0,
         0},
        {{"verify.ranges_file", HEED_CONFIG_STRING, "",
          "A JSON file of the operator's published address ranges "
          "(ipv4Prefix/ipv6Prefix), a second proof for heed verify."},
         FIELD(verify_ranges_file),
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
