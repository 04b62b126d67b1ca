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
        {{"irc.nick", HEED_CONFIG_STRING, "heed",
          "The nick heed asks for on IRC networks (a digit is appended when "
          "it is taken)."},
         FIELD(irc_nick),
         1,
         0},
        {{"irc.require_consent", HEED_CONFIG_BOOL, "false",
          "Crawl only IRC networks whose CRAWLER token says index:allow."},
         FIELD(irc_require_consent),
         0,
         0},
        {{"irc.visit_limit", HEED_CONFIG_DURATION, "5m",
          "The longest an IRC visit may last, connection to QUIT."},
         FIELD(irc_visit_limit),
         10,
         86400},
        {{"irc.min_revisit", HEED_CONFIG_DURATION, "1h",
          "The shortest time between two visits of one IRC network; a longer "
          "CRAWLER cooldown wins."},
         FIELD(irc_min_revisit),
         0,
         31536000},
        {{"irc.max_connections", HEED_CONFIG_INT, "8",
          "How many IRC networks heed visits at once (one connection each)."},
         FIELD(irc_max_connections),
         1,
         256},
};

const size_t heed__config_option_count = HEED_ARRAY_SIZE(heed__config_options);
