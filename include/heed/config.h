/*
 * heed/config.h: heed's settings, with their defaults, from an INI file and
 * the command line.
 *
 * Every setting is one row of a table (src/config/options.c): its INI
 * section and key ("identity.contact_url"), its type, default and a sentence
 * of documentation. The same table parses the file, applies command-line
 * overrides (heed_config_set) and is listed by heed_config_option_at, so the
 * documentation (docs/configuration.md) can be checked against it.
 *
 * Value syntax by type: strings as written; booleans true/false/yes/no/on/
 * off/1/0; integers in decimal; durations as a number of seconds with an
 * optional unit s, m, h, d or w ("90", "15m", "24h"); decimals as digits
 * with an optional fraction ("0.5", "2"); lists repeat the key, one value
 * each.
 */
#ifndef HEED_CONFIG_H
#define HEED_CONFIG_H

#include <stdbool.h>
#include <stdint.h>

#include "heed/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A list of strings, for keys that may be given several times. */
struct heed_config_list {
	char **items;
	size_t count;
};

/*
 * All settings. Strings and lists are owned by the struct: set them only
 * through heed_config_set() and release them with heed_config_free().
 */
struct heed_config {
	/* [identity]: who heed says it is, in its User-Agent. */
	char *product_token; /* "heed" */
	char *contact_url;   /* operator's crawler page, e.g. .../bots */
	char *contact_email; /* operator's address for site administrators */
	char *operator_name; /* who runs the crawler; NULL: product_token */

	/* [verify]: proof that an address is the operator's crawler. */
	struct heed_config_list verify_domains; /* PTR name suffixes */
	char *verify_ranges_file; /* published ranges (JSON), or NULL */

	/* [store] */
	char *store_location;            /* SQLite path, "heed.db" */
	int64_t store_reconnect_timeout; /* seconds a PostgreSQL store waits
	                                    for its server; 60s, 0 none */

	/* [log] */
	int64_t log_level;             /* heed_log_level; 2 (info) */
	int64_t log_progress_interval; /* seconds between two progress log
	                                  lines without a terminal; 30s, 0
	                                  none */

	/* [site]: the robots.txt lifecycle (docs/robots-lifecycle.md). */
	int64_t site_retry_interval;   /* seconds; 1h */
	int64_t site_recheck_interval; /* seconds; 24h */
	int64_t site_max_failures;     /* 24 */
	int64_t site_pass_pause_ms;    /* 2000 */
	int64_t site_max_redirects;    /* 5 */

	/* [politeness] */
	int64_t polite_delay_ms;            /* 1000 */
	int64_t polite_crawl_delay_cap;     /* seconds; 30 */
	bool polite_per_address;            /* true */
	int64_t polite_address_concurrency; /* the largest window; 32 */
	int64_t polite_address_window;      /* a new address's window; 2 */
	int64_t polite_address_delay_ms;    /* 0 */
	int64_t polite_latency_factor;      /* 2 */
	int64_t polite_slow_ms;             /* 250 */
	int64_t polite_error_delay_max;     /* seconds; 5m */
	int64_t polite_backoff_max;         /* seconds; 1d */

	/* [net] */
	int64_t net_connect_timeout_ms;    /* 10000 */
	int64_t net_first_byte_timeout_ms; /* 20000 */
	int64_t net_total_timeout_ms;      /* 60000 */
	int64_t net_max_body_bytes;        /* 5 MiB, decoded */
	bool net_allow_private;            /* false */
	char *net_ca_file;                 /* PEM CA bundle; unset: system */
	char *net_dns_server;              /* "ADDR[:PORT],..."; unset */
	char *net_proxy;    /* a proxy URL, "env", or unset: none */
	char *net_no_proxy; /* hosts not proxied; unset: none (or env's) */
	int64_t net_dns_timeout_ms;  /* 2000 */
	int64_t net_dns_tries;       /* 2 */
	int64_t net_dns_concurrency; /* look-ups at once; 32 */
	int64_t net_dns_retries;     /* within a crawl; 3 */

	/* [irc]: the IRC crawler (docs/irc.md). */
	char *irc_nick;              /* "heed" */
	bool irc_require_consent;    /* crawl only CRAWLER=index:allow */
	int64_t irc_visit_limit;     /* seconds per visit; 300 */
	int64_t irc_min_revisit;     /* seconds between visits; 3600 */
	int64_t irc_max_connections; /* networks at once; 8 */
	/* [crawl]: `heed crawl` (docs/crawling.md). */
	struct heed_config_list crawl_seeds; /* start URLs */
	char *crawl_sites_file;              /* one start URL per line */
	bool crawl_incremental;              /* false: the default mode */
	int64_t crawl_max_pages;             /* per site; 10000 */
	int64_t crawl_max_depth;             /* links from a seed; 20 */
	int64_t crawl_max_url_bytes;         /* 2048 */
	int64_t crawl_max_path_repeat;       /* a segment at most; 3 */
	int64_t crawl_max_run_time;          /* seconds; 0: none */
	int64_t crawl_concurrency;           /* fetches in flight; 64 */
	int64_t crawl_window;                /* URLs in memory per host; 16 */
	int64_t crawl_extract_threads;       /* beside the loop's; 1 */
	int64_t crawl_retries;               /* after a passing failure; 2 */
	int64_t crawl_max_wait;              /* seconds; 10m */
	int64_t crawl_full_interval;         /* --schedule: seconds; 7d */
	int64_t crawl_incremental_interval;  /* --schedule: seconds; 6h */
	char *crawl_refresh;                 /* "due" or "all" (--refresh) */
	bool crawl_worker;                   /* one of several (--worker) */
	char *crawl_worker_name;             /* unset: HOSTNAME:PID */
	int64_t crawl_lease;                 /* seconds; 30 */
	int64_t crawl_worker_sites;          /* sites held at most; 4096 */

	/* [revisit]: when known URLs are asked for again (heed/revisit.h);
	 * checked together by heed_config_revisit. */
	int64_t revisit_initial; /* seconds; 1d */
	int64_t revisit_min;     /* seconds; 1h */
	int64_t revisit_max;     /* seconds; 30d */
	double revisit_grow;     /* 0.5 */
	double revisit_shrink;   /* 0.3 */

	/* [serve]: the public index, `heed serve` (docs/serve.md). */
	char *serve_listen;      /* "127.0.0.1:8080" */
	char *serve_base_url;    /* prefix of links; unset: relative */
	int64_t serve_threads;   /* request threads; 0: one per CPU */
	int64_t serve_page_size; /* results per page; 20 */
	char *serve_access_log;  /* path, "-" for standard output; unset */
	int64_t serve_connections_per_client; /* open connections one
	                                         address may hold; 0: any */
};

/* Sets every field to its default. Returns HEED_ENOMEM or HEED_OK; on
 * failure the struct still holds valid (possibly NULL) pointers for
 * heed_config_free. */
heed_status heed_config_init(struct heed_config *cfg);

/* Frees what the struct owns; the struct itself is the caller's. */
void heed_config_free(struct heed_config *cfg);

/*
 * Sets "section.key" to value, parsed by the option's type (a list key
 * appends). Returns HEED_ENOTFOUND for an unknown key, HEED_ECONFIG for a
 * value of the wrong form (the reason in diag, which may be NULL),
 * HEED_ENOMEM. value is copied.
 */
heed_status heed_config_set(struct heed_config *cfg, const char *name,
                            const char *value, struct heed_diag *diag);

/*
 * Reads an INI file (libinih syntax: [section], key = value, ';' or '#'
 * comments) into cfg, on top of what it holds. Stops at the first bad line
 * and reports it in diag with its line number: HEED_ECONFIG, or HEED_EIO if
 * the file cannot be read.
 */
heed_status heed_config_load_file(struct heed_config *cfg, const char *path,
                                  struct heed_diag *diag);

/*
 * The User-Agent heed sends: "TOKEN/VERSION (+CONTACT_URL; CONTACT_EMAIL)",
 * leaving out whichever contact is unset; just "TOKEN/VERSION" without any.
 * Written into buf (always NUL-terminated); returns HEED_ETOOBIG if size was
 * too small (the text is then cut).
 */
heed_status heed_config_user_agent(const struct heed_config *cfg, char *buf,
                                   size_t size);

/* True when neither a contact URL nor an e-mail address is set: crawling
 * like that is legal but rude, and the command line warns about it. */
bool heed_config_lacks_contact(const struct heed_config *cfg);

/* Option types, for listings. */
typedef enum heed_config_type {
	HEED_CONFIG_STRING,
	HEED_CONFIG_BOOL,
	HEED_CONFIG_INT,
	HEED_CONFIG_DURATION, /* stored as int64_t seconds */
	HEED_CONFIG_LIST,
	HEED_CONFIG_DECIMAL, /* stored as double, never negative */
} heed_config_type;

/* One documented option, as listed by heed_config_option_at. */
struct heed_config_option_info {
	const char *name; /* "identity.contact_url" */
	heed_config_type type;
	const char *default_value; /* as it would be written in the file */
	const char *doc;           /* one sentence */
};

/* The i-th option (0-based), or NULL past the last. */
const struct heed_config_option_info *heed_config_option_at(size_t i);

/*
 * Parses a listen address (serve.listen): "ADDR:PORT" with a numeric IPv4
 * address, or "[ADDR]:PORT" with an IPv6 one; port 0 to 65535 (0: the
 * system chooses). Fills *addr with a struct sockaddr_in or sockaddr_in6
 * and *len with its size. HEED_ECONFIG for anything else, names included.
 */
struct sockaddr_storage;
heed_status heed_config_parse_listen(const char *text,
                                     struct sockaddr_storage *addr,
                                     unsigned *len);

struct heed_revisit_options;

/* Fills opt from the [revisit] settings and checks them together
 * (heed_revisit_options_check: min <= initial <= max and the rates' ranges,
 * which no single setting can check alone). HEED_OK, or HEED_ECONFIG with
 * a sentence naming the settings in diag (may be NULL); opt is filled
 * either way. */
heed_status heed_config_revisit(const struct heed_config *cfg,
                                struct heed_revisit_options *opt,
                                struct heed_diag *diag);

/* Parses a duration ("90", "15m", "24h", "2d", "1w") into seconds.
 * HEED_ECONFIG for anything else, negative values and overflow. */
heed_status heed_config_parse_duration(const char *text, int64_t *seconds);

#ifdef __cplusplus
}
#endif

#endif /* HEED_CONFIG_H */
