/*
 * heed/irc_crawl.h: the I/O shell of the IRC crawler. It resolves with
 * heed's own resolver (heed/dns.h, the servers of net.dns_server) inside its
 * poll() loop, refuses the addresses the web crawler refuses (private,
 * loopback, link-local unless allowed; reserved always: heed/net.h) and
 * connects to exactly the addresses it checked, plain TCP or TLS with
 * certificate verification. It drives one heed_irc_session per network,
 * several networks at once with one connection each, writes what the
 * sessions report into the store, and keeps every network's cooldown: a
 * network is not contacted before its next allowed visit, across runs.
 *
 * Nothing is stored about a network heed did not try to connect to: a name
 * that does not resolve, or whose every address heed's own policy refuses,
 * is reported, never held against the network.
 *
 * The protocol decisions are all in the pure core (heed/irc.h); this file
 * only moves bytes, reads the clock and writes rows.
 */
#ifndef HEED_IRC_CRAWL_H
#define HEED_IRC_CRAWL_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "heed/common.h"
#include "heed/dns.h"
#include "heed/irc.h"
#include "heed/store.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HEED_IRC_HOST_MAX         256
#define HEED_IRC_DEFAULT_PORT     6667
#define HEED_IRC_DEFAULT_TLS_PORT 6697

/* A network to visit, as the operator named it. */
struct heed_irc_target {
	char host[HEED_IRC_HOST_MAX]; /* name or address, no brackets */
	int port;
	bool tls;
	char key[HEED_IRC_HOST_MAX + 8]; /* "host:port", lowercase: the store's
	                                    name for the network */
};

/*
 * Reads "host", "host:port", "[v6]:port", "irc://host[:port]" or
 * "ircs://host[:port]" (TLS, default port 6697). HEED_EINVAL with the
 * reason in diag (may be NULL) for anything else.
 */
heed_status heed_irc_target_parse(const char *text, struct heed_irc_target *out,
                                  struct heed_diag *diag);

/* What happened to one target, for the caller's report. */
struct heed_irc_crawl_result {
	const struct heed_irc_target *target; /* as passed in */
	bool skipped_cooldown; /* not contacted: next_visit_s is in future */
	/* Not contacted and nothing stored (status means nothing): the name
	 * did not resolve, heed's address policy refused every address
	 * (refused), or the run was stopped first (stopped). reason says
	 * which. */
	bool not_contacted;
	bool refused;
	bool stopped;
	heed_irc_visit_status status;
	const char *reason;       /* "" when none */
	const char *address;      /* the address connected or last tried, "" */
	const char *network_name; /* NETWORK=, "" when unknown */
	const char *server_name, *server_version;
	bool token_present;    /* CRAWLER was advertised */
	const char *raw_token; /* its unescaped value ("" for none) */
	struct heed_irc_crawler_pref pref; /* strongest seen */
	int64_t next_visit_s;              /* Unix time heed may come back */
	uint64_t channels, servers;
	uint64_t bad_lines; /* unparsable or over-long lines skipped */
	bool tls_verified;  /* TLS with a verified certificate */
};

typedef void heed_irc_result_fn(void *ud,
                                const struct heed_irc_crawl_result *r);

struct heed_irc_crawl_options {
	const char *nick;     /* NULL: "heed" */
	const char *realname; /* carries the operator's contact */
	bool require_consent;
	bool insecure;   /* TLS without certificate checks (tests) */
	bool check_only; /* `heed irc check`: 005 burst only, no store */
	int64_t visit_limit_ms;
	int64_t pace_ms;             /* >= 2000; 0 for the default */
	int max_connections;         /* networks at once; 0 for 8 */
	struct heed_dns_options dns; /* the resolver (net.dns_server...) */
	bool allow_private;          /* net.allow_private: private, loopback and
	                                link-local addresses may be contacted */
	/* Set (by a signal handler) to stop cleanly: no new network is
	 * started, visits under way QUIT and are stored. May be NULL. */
	volatile sig_atomic_t *stop;
	struct heed_irc_revisit_policy revisit;
	heed_store *store; /* NULL: nothing stored, no cooldown check */
	const struct heed_logger *log; /* may be NULL */
	heed_irc_result_fn *on_result; /* may be NULL */
	void *ud;
};

/*
 * Visits every target (duplicates by key are visited once) and returns
 * when all are done, or when *opts->stop was set and the visits under way
 * have ended (targets not started then are not reported). Targets inside
 * their cooldown are reported with skipped_cooldown and not contacted.
 * Returns HEED_OK when the crawl ran (individual failures are in the
 * results), HEED_ECONFIG when the resolver cannot start (the reason is
 * logged), HEED_ESTORE when the store failed, HEED_ENOMEM, HEED_EIO when
 * poll() itself failed.
 */
heed_status heed_irc_crawl(const struct heed_irc_crawl_options *opts,
                           const struct heed_irc_target *targets, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* HEED_IRC_CRAWL_H */
