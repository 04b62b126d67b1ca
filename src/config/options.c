/*
 * The table of heed's settings. Adding a setting is a field in struct
 * heed_config, one row here, and a line in docs/configuration.md (a unit
 * test checks that every row is documented there).
 */
#include <stddef.h>
#include <stdint.h>

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
        {{"site.retry_interval", HEED_CONFIG_DURATION, "1h",
          "How long a site disqualified for now waits before heed tries its "
          "robots.txt again."},
         FIELD(site_retry_interval),
         1,
         INT64_MAX},
        {{"site.recheck_interval", HEED_CONFIG_DURATION, "24h",
          "How long heed uses a qualified site's robots.txt result before "
          "fetching it again."},
         FIELD(site_recheck_interval),
         1,
         INT64_MAX},
        {{"site.max_failures", HEED_CONFIG_INT, "24",
          "Failed robots.txt attempts in a row after which a site is "
          "disqualified until `heed site reset`."},
         FIELD(site_max_failures),
         1,
         1000000},
        {{"site.pass_pause_ms", HEED_CONFIG_INT, "2000",
          "Milliseconds between the two passes over a site's addresses."},
         FIELD(site_pass_pause_ms),
         0,
         600000},
        {{"site.max_redirects", HEED_CONFIG_INT, "5",
          "Redirect hops followed for robots.txt (RFC 9309 asks for at least "
          "five)."},
         FIELD(site_max_redirects),
         0,
         20},
        {{"politeness.delay_ms", HEED_CONFIG_INT, "1000",
          "Least time between two requests to one host, in milliseconds; never "
          "below one second."},
         FIELD(polite_delay_ms),
         1000,
         86400000},
        {{"politeness.crawl_delay_cap", HEED_CONFIG_DURATION, "30s",
          "Longest robots.txt Crawl-delay heed honours; a site asking for more "
          "is skipped and reported."},
         FIELD(polite_crawl_delay_cap),
         1,
         86400},
        {{"politeness.per_address", HEED_CONFIG_BOOL, "true",
          "Also limit requests per IP address, so host names sharing a server "
          "share one budget."},
         FIELD(polite_per_address),
         0,
         0},
        {{"politeness.address_concurrency", HEED_CONFIG_INT, "1",
          "Requests in flight at once to one IP address."},
         FIELD(polite_address_concurrency),
         1,
         64},
        {{"politeness.address_delay_ms", HEED_CONFIG_INT, "0",
          "Least time between two requests to one IP address, in milliseconds "
          "(0: only the concurrency limit)."},
         FIELD(polite_address_delay_ms),
         0,
         86400000},
        {{"politeness.backoff_base", HEED_CONFIG_DURATION, "60s",
          "First back-off after a 429 or 503 answer; it doubles with each one "
          "in a row."},
         FIELD(polite_backoff_base),
         1,
         86400},
        {{"politeness.backoff_max", HEED_CONFIG_DURATION, "1d",
          "Longest back-off, also the most of a Retry-After heed honours."},
         FIELD(polite_backoff_max),
         1,
         31536000},
        {{"net.connect_timeout_ms", HEED_CONFIG_INT, "10000",
          "Milliseconds to establish a connection (TCP and TLS) to one "
          "address."},
         FIELD(net_connect_timeout_ms),
         100,
         600000},
        {{"net.first_byte_timeout_ms", HEED_CONFIG_INT, "20000",
          "Milliseconds from the start of an attempt to the first byte of the "
          "answer."},
         FIELD(net_first_byte_timeout_ms),
         100,
         600000},
        {{"net.total_timeout_ms", HEED_CONFIG_INT, "60000",
          "Milliseconds for a whole attempt, body included."},
         FIELD(net_total_timeout_ms),
         100,
         3600000},
        {{"net.max_body_bytes", HEED_CONFIG_INT, "5242880",
          "Largest body heed reads, counted after gzip/brotli decoding; "
          "robots.txt is read up to 500 KiB."},
         FIELD(net_max_body_bytes),
         1024,
         1073741824},
        {{"net.allow_private", HEED_CONFIG_BOOL, "false",
          "Allow private, loopback and link-local addresses (tests, "
          "intranets); refused by default after resolution."},
         FIELD(net_allow_private),
         0,
         0},
        {{"net.dns_server", HEED_CONFIG_STRING, "",
          "DNS servers to ask, `ADDR[:PORT],...`; unset uses "
          "/etc/resolv.conf."},
         FIELD(net_dns_server),
         0,
         0},
        {{"net.dns_timeout_ms", HEED_CONFIG_INT, "2000",
          "Milliseconds to wait for one DNS try."},
         FIELD(net_dns_timeout_ms),
         100,
         60000},
        {{"net.dns_tries", HEED_CONFIG_INT, "2", "DNS tries per server."},
         FIELD(net_dns_tries),
         1,
         10},
};

const size_t heed__config_option_count = HEED_ARRAY_SIZE(heed__config_options);
