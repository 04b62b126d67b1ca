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
         0,
         heed__config_check_token},
        {{"identity.contact_url", HEED_CONFIG_STRING, "",
          "The operator's crawler page, sent in the User-Agent."},
         FIELD(contact_url),
         0,
         0,
         heed__config_check_url},
        {{"identity.contact_email", HEED_CONFIG_STRING, "",
          "The operator's e-mail address, sent in the User-Agent."},
         FIELD(contact_email),
         0,
         0,
         heed__config_check_email},
        {{"identity.operator", HEED_CONFIG_STRING, "",
          "Who runs the crawler, as the crawler page names them; unset means "
          "the product token."},
         FIELD(operator_name),
         0,
         0,
         heed__config_check_text},
        {{"verify.domain", HEED_CONFIG_LIST, "",
          "A domain the operator's crawler addresses have PTR names under "
          "(repeat for several); heed verify checks against it and the "
          "crawler page names it."},
         FIELD(verify_domains),
         0,
         0,
         heed__config_check_domain},
        {{"verify.ranges_file", HEED_CONFIG_STRING, "",
          "A JSON file of the operator's published address ranges "
          "(ipv4Prefix/ipv6Prefix), a second proof for heed verify."},
         FIELD(verify_ranges_file),
         0,
         0},
        {{"store.location", HEED_CONFIG_STRING, "heed.db",
          "Where heed keeps its state and records: a SQLite file path, or "
          "a PostgreSQL URI (postgresql://USER@HOST:PORT/DB), which holds "
          "the same areas; one crawl at a time on either for now "
          "(docs/storage.md, docs/scaling.md)."},
         FIELD(store_location),
         1,
         0},
        {{"store.reconnect_timeout", HEED_CONFIG_DURATION, "60s",
          "How long a command waits for a PostgreSQL store that went away "
          "(a server restart) to come back, reconnecting with back-off, "
          "before it fails; 0: fail at once."},
         FIELD(store_reconnect_timeout),
         0,
         86400},
        {{"log.level", HEED_CONFIG_INT, "2",
          "How much to log: 0 errors, 1 warnings, 2 information, 3 debugging."},
         FIELD(log_level),
         0,
         3},
        {{"log.progress_interval", HEED_CONFIG_DURATION, "30s",
          "Without a terminal, how often heed crawl writes its progress "
          "as a log line (and once at the end); 0: never."},
         FIELD(log_progress_interval),
         0,
         86400},
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
        {{"politeness.address_concurrency", HEED_CONFIG_INT, "64",
          "The most requests in flight at once to one IP address; the window "
          "grows up to it while the server answers fast and clean, shrinks by "
          "one as its answers slow down (requests queue), and halves on slow "
          "answers, 5xx, 429, timeouts and resets."},
         FIELD(polite_address_concurrency),
         1,
         1024},
        {{"politeness.address_window_start", HEED_CONFIG_INT, "2",
          "Requests in flight at once to an IP address heed has not seen "
          "answer yet (the window it starts from)."},
         FIELD(polite_address_window),
         1,
         1024},
        {{"politeness.address_delay_ms", HEED_CONFIG_INT, "0",
          "Least time between two requests to one IP address, in milliseconds "
          "(0: only the window limits them)."},
         FIELD(polite_address_delay_ms),
         0,
         86400000},
        {{"politeness.latency_factor", HEED_CONFIG_INT, "2",
          "A site's delay is at least this many times its last answer took, so "
          "a slow site rests as long as it worked for heed (0: off)."},
         FIELD(polite_latency_factor),
         0,
         100},
        {{"politeness.slow_ms", HEED_CONFIG_INT, "250",
          "An answer is slow, and halves its address's window, when it takes "
          "more than twice its site's best answer (the address's usual time "
          "for a site's first answer) plus this many milliseconds."},
         FIELD(polite_slow_ms),
         0,
         600000},
        {{"politeness.error_delay_max", HEED_CONFIG_DURATION, "5m",
          "Each 5xx, 429 or broken answer in a row doubles a site's delay, up "
          "to this; each good answer halves it again."},
         FIELD(polite_error_delay_max),
         1,
         86400},
        {{"politeness.backoff_max", HEED_CONFIG_DURATION, "1d",
          "The most of a Retry-After heed honours."},
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
        {{"net.ca_file", HEED_CONFIG_STRING, "",
          "A PEM file of certificate authorities to trust for HTTPS instead "
          "of the system's."},
         FIELD(net_ca_file),
         0,
         0},
        {{"net.dns_server", HEED_CONFIG_STRING, "",
          "DNS servers to ask, `ADDR[:PORT],...`; unset uses "
          "/etc/resolv.conf."},
         FIELD(net_dns_server),
         0,
         0},
        {{"net.proxy", HEED_CONFIG_STRING, "",
          "A proxy for every fetch, `http://HOST:PORT` (or https, socks5h, "
          "...), or `env` for https_proxy / http_proxy / all_proxy and "
          "no_proxy from the environment; unset: none, whatever the "
          "environment holds."},
         FIELD(net_proxy),
         0,
         0,
         heed__config_check_proxy},
        {{"net.no_proxy", HEED_CONFIG_STRING, "",
          "Hosts fetched directly despite net.proxy, `example.org,"
          ".example.net` (a name and the names under it; `*` all); unset "
          "with `net.proxy = env`: the environment's no_proxy."},
         FIELD(net_no_proxy),
         0,
         0,
         heed__config_check_text},
        {{"net.dns_timeout_ms", HEED_CONFIG_INT, "2000",
          "Milliseconds to wait for one DNS try."},
         FIELD(net_dns_timeout_ms),
         100,
         60000},
        {{"net.dns_tries", HEED_CONFIG_INT, "2", "DNS tries per server."},
         FIELD(net_dns_tries),
         1,
         10},
        {{"net.dns_concurrency", HEED_CONFIG_INT, "32",
          "Look-ups a crawl has in flight at once; more wait their turn."},
         FIELD(net_dns_concurrency),
         1,
         4096},
        {{"net.dns_retries", HEED_CONFIG_INT, "3",
          "Times a crawl tries a look-up again (after 1 s, 2 s, 4 s...) when "
          "it timed out or the server failed, before it counts as the site's "
          "failure; NXDOMAIN counts at once."},
         FIELD(net_dns_retries),
         0,
         10},
        {{"irc.nick", HEED_CONFIG_STRING, "heed",
          "The nick heed asks for on IRC networks (a digit is appended when "
          "it is taken)."},
         FIELD(irc_nick),
         1,
         0,
         heed__config_check_nick},
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
        {{"crawl.seeds", HEED_CONFIG_LIST, "",
          "Start URLs of `heed crawl` (repeat the key); their sites are the "
          "crawl's scope."},
         FIELD(crawl_seeds),
         0,
         0},
        {{"crawl.sites_file", HEED_CONFIG_STRING, "",
          "A file of start URLs, one per line (`#` starts a comment)."},
         FIELD(crawl_sites_file),
         0,
         0},
        {{"crawl.incremental", HEED_CONFIG_BOOL, "false",
          "Crawl incrementally (sitemaps and feeds, new and changed entries "
          "only) instead of following links."},
         FIELD(crawl_incremental),
         0,
         0},
        {{"crawl.max_pages", HEED_CONFIG_INT, "10000",
          "Pages fetched per site in one run (0: no limit)."},
         FIELD(crawl_max_pages),
         0,
         INT64_MAX},
        {{"crawl.max_depth", HEED_CONFIG_INT, "20",
          "Links followed from a start URL (-1: no limit)."},
         FIELD(crawl_max_depth),
         -1,
         100000},
        {{"crawl.max_url_bytes", HEED_CONFIG_INT, "2048",
          "Longer URLs are not queued (0: no limit)."},
         FIELD(crawl_max_url_bytes),
         0,
         65536},
        {{"crawl.max_path_repeat", HEED_CONFIG_INT, "3",
          "A URL whose path repeats one segment more often is a crawler "
          "trap and is not queued (0: no check)."},
         FIELD(crawl_max_path_repeat),
         0,
         1000},
        {{"crawl.max_run_time", HEED_CONFIG_DURATION, "0",
          "Longest run; no request starts later and the next run resumes "
          "(0: no limit)."},
         FIELD(crawl_max_run_time),
         0,
         INT64_MAX},
        {{"crawl.concurrency", HEED_CONFIG_INT, "64",
          "Requests in flight at once over all sites (each site still gets "
          "one at a time)."},
         FIELD(crawl_concurrency),
         1,
         4096},
        {{"crawl.window", HEED_CONFIG_INT, "16",
          "Queued URLs per site kept in memory; the rest wait in the store."},
         FIELD(crawl_window),
         1,
         10000},
        {{"crawl.extract_threads", HEED_CONFIG_INT, "1",
          "Threads that digest and extract fetched pages beside the "
          "crawl's own, which runs the network and the store (0: the "
          "crawl's own does it all)."},
         FIELD(crawl_extract_threads),
         0,
         64},
        {{"crawl.retries", HEED_CONFIG_INT, "2",
          "Times a URL is tried again later in the run after a 5xx, a 429, a "
          "reset or a timeout; then it is given up (an earlier record of it "
          "is kept)."},
         FIELD(crawl_retries),
         0,
         100},
        {{"crawl.max_wait", HEED_CONFIG_DURATION, "10m",
          "When every site left must wait longer than this (a long "
          "Retry-After), the run ends and stays open for the next one (0: "
          "wait)."},
         FIELD(crawl_max_wait),
         0,
         INT64_MAX},
        {{"crawl.full_interval", HEED_CONFIG_DURATION, "7d",
          "How often a full crawl of a site (following its public links) "
          "runs at most under `heed crawl --schedule`; the crawler page "
          "states it."},
         FIELD(crawl_full_interval),
         1,
         INT64_MAX},
        {{"crawl.incremental_interval", HEED_CONFIG_DURATION, "6h",
          "Under `heed crawl --schedule`, an incremental crawl (recent "
          "entries only) this long after the last crawl of either mode; the "
          "crawler page states it."},
         FIELD(crawl_incremental_interval),
         1,
         INT64_MAX},
        {{"crawl.refresh", HEED_CONFIG_STRING, "due",
          "Which known URLs a crawl requests again: due, those the revisit "
          "schedule says are due (conditionally), or all, every one whole; "
          "`heed crawl --refresh`."},
         FIELD(crawl_refresh),
         1,
         0,
         heed__config_check_refresh},
        {{"crawl.worker", HEED_CONFIG_BOOL, "false",
          "Crawl as one of several workers sharing a PostgreSQL store: only "
          "the hosts this worker holds a lease on are fetched "
          "(docs/scaling.md, Workers; `heed crawl --worker`)."},
         FIELD(crawl_worker),
         0,
         0},
        {{"crawl.worker_name", HEED_CONFIG_STRING, "",
          "The worker's name in the store's leases, unique among the "
          "workers (empty: HOSTNAME:PID)."},
         FIELD(crawl_worker_name),
         0,
         0},
        {{"crawl.lease", HEED_CONFIG_DURATION, "30s",
          "How long a worker's lease on a host lasts (renewed every third "
          "of it); a dead worker's hosts are taken over after this. More "
          "than 1.5 x (net.connect_timeout_ms + 0.5 s)."},
         FIELD(crawl_lease),
         1,
         86400},
        {{"crawl.worker_sites", HEED_CONFIG_INT, "4096",
          "The most hosts a worker holds at once (its fair share of the "
          "hosts with work is the usual limit)."},
         FIELD(crawl_worker_sites),
         1,
         1000000},
        {{"revisit.initial", HEED_CONFIG_DURATION, "1d",
          "When a page, sitemap or feed heed has just read for the first "
          "time is asked for again (longer when the content's date shows it "
          "has not changed for a while: at least half its age)."},
         FIELD(revisit_initial),
         1,
         INT64_MAX},
        {{"revisit.min", HEED_CONFIG_DURATION, "1h",
          "The shortest time between two requests for one known URL, however "
          "often it changes (at least 1m)."},
         FIELD(revisit_min),
         1,
         INT64_MAX},
        {{"revisit.max", HEED_CONFIG_DURATION, "30d",
          "The longest time a known URL goes without being asked for again, "
          "however rarely it changes."},
         FIELD(revisit_max),
         1,
         INT64_MAX},
        {{"revisit.grow", HEED_CONFIG_DECIMAL, "0.5",
          "A visit that finds the content unchanged multiplies the URL's "
          "interval by 1 + grow (more than 0, at most 10)."},
         FIELD(revisit_grow),
         0,
         0},
        {{"revisit.shrink", HEED_CONFIG_DECIMAL, "0.3",
          "A visit that finds the content changed multiplies the URL's "
          "interval by 1 - shrink (at least 0, less than 1)."},
         FIELD(revisit_shrink),
         0,
         0},
        {{"serve.listen", HEED_CONFIG_STRING, "127.0.0.1:8080",
          "Where `heed serve` listens: ADDR:PORT ([ADDR]:PORT for IPv6; port 0 "
          "lets the system choose). Loopback by default: put a reverse proxy "
          "in front to publish the index."},
         FIELD(serve_listen),
         1,
         0,
         heed__config_check_listen},
        {{"serve.base_url", HEED_CONFIG_STRING, "",
          "The address people reach the index at behind a reverse proxy "
          "(https://index.example/heed); every link the pages write starts "
          "with it. Unset: links relative to the host."},
         FIELD(serve_base_url),
         0,
         0,
         heed__config_check_url},
        {{"serve.threads", HEED_CONFIG_INT, "0",
          "Threads answering requests, each with its own read-only connection "
          "to the store (0: one per CPU)."},
         FIELD(serve_threads),
         0,
         256},
        {{"serve.page_size", HEED_CONFIG_INT, "20",
          "Results per page when a request does not say (limit=, at most "
          "100)."},
         FIELD(serve_page_size),
         1,
         100},
        {{"serve.access_log", HEED_CONFIG_STRING, "",
          "Where `heed serve` writes one line per request (combined log "
          "format and the microseconds taken): a file path, or - for "
          "standard output. Unset: no access log."},
         FIELD(serve_access_log),
         0,
         0},
        {{"serve.connections_per_client", HEED_CONFIG_INT, "64",
          "The most connections one client address may hold open at once "
          "(libmicrohttpd closes the ones past it at once), so one client "
          "cannot take every connection from the others. Behind a reverse "
          "proxy every client has the proxy's address: raise it to the "
          "proxy's own connection limit, or 0 for no limit, and limit "
          "clients at the proxy."},
         FIELD(serve_connections_per_client),
         0,
         1024},
};

const size_t heed__config_option_count = HEED_ARRAY_SIZE(heed__config_options);
