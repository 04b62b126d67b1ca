/*
 * heed/qualify.h: runs the robots.txt lifecycle (heed/sitepolicy.h) of sites
 * over the network: DNS through heed_dns, fetches through heed_net, timing
 * through heed_polite. Any number of sites run at once in the caller's
 * event loop; the caller loads each site's record from the store before and
 * saves the result after (heed/store_sites.h).
 *
 * The loop, with dns, net and the qualifier sharing one poll():
 *
 *   while (heed_qualify_pending(q)) {
 *       nd = heed_dns_pollfds(dns, fds, 32);
 *       nn = heed_net_pollfds(net, fds + nd, 96);
 *       t = heed_qualify_timeout_ms(q, heed_net_timeout_ms(net,
 *               heed_dns_timeout_ms(dns, 1000)));
 *       poll(fds, nd + nn, t);
 *       heed_dns_process(dns, fds, nd);
 *       heed_net_process(net, fds + nd, nn);
 *       heed_qualify_process(q);
 *   }
 */
#ifndef HEED_QUALIFY_H
#define HEED_QUALIFY_H

#include <stdbool.h>
#include <stddef.h>

#include "heed/dns.h"
#include "heed/net.h"
#include "heed/politeness.h"
#include "heed/sitepolicy.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct heed_qualify heed_qualify;

/* How a site's run ended. Pointers live only during the callback. */
struct heed_qualify_result {
	const char *site; /* "http://host:port" */
	const char *host;
	struct heed_site_record record; /* the new durable record */
	bool fetched;                   /* the site was contacted in this run */
	const char *robots_url; /* the URL of the last answer, or NULL */
	const char *body;       /* the last 2xx body (<= 500 KiB), or NULL */
	size_t body_len;
	bool has_rules;         /* body holds the rules now in force */
	int64_t crawl_delay_ms; /* of those rules for heed, 0 none */
	struct heed_polite_backoff backoff; /* host's, to store */
	int64_t last_request_ms; /* Unix ms of the host's last request that
	                            connected (to store), 0 when none */
	unsigned attempts;       /* fetches started in this run */
};

typedef void heed_qualify_done_fn(void *ud,
                                  const struct heed_qualify_result *r);

struct heed_qualify_options {
	struct heed_site_options site; /* lifecycle intervals */
	const char *agent;             /* User-Agent, for Crawl-delay; copied */
	bool allow_private;            /* keep private addresses */
};

/*
 * A qualifier over dns, net and polite (all borrowed: they must stay alive
 * while runs are pending; see heed_qualify_free for the order of frees).
 * opt is copied. logger and alloc may be NULL. HEED_OK or HEED_ENOMEM.
 */
heed_status heed_qualify_new(heed_qualify **out, heed_dns *dns, heed_net *net,
                             heed_polite *polite,
                             const struct heed_qualify_options *opt,
                             const struct heed_logger *logger,
                             const struct heed_allocator *alloc);

/* Stops every run (without callbacks) and frees. Free it after dns and
 * net: freeing them cancels the lookups and fetches of unfinished runs, and
 * those callbacks still reach the runs (which then ignore them). NULL does
 * nothing. */
void heed_qualify_free(heed_qualify *q);

/*
 * Writes the site key of url ("http://host:port", port only when it is not
 * the scheme's default, host in lower case) into site and its host into
 * host. HEED_EINVAL when url is not an absolute http(s) URL with a host,
 * HEED_ETOOBIG when a buffer is too small.
 */
heed_status heed_qualify_site_of(const char *url, char *site, size_t site_size,
                                 char *host, size_t host_size);

/*
 * Starts the lifecycle of site (a key from heed_qualify_site_of) from
 * record (as stored; zeroed for a new site). done runs exactly once, maybe
 * before this returns (a site not due yet). HEED_OK, HEED_EINVAL,
 * HEED_ENOMEM (done never runs then).
 */
heed_status heed_qualify_start(heed_qualify *q, const char *site,
                               const struct heed_site_record *record,
                               heed_qualify_done_fn *done, void *ud);

/* Runs not yet done. */
size_t heed_qualify_pending(const heed_qualify *q);

/* The poll timeout: at most max_ms, less when a politeness wait or the
 * pause between passes ends sooner. */
int heed_qualify_timeout_ms(heed_qualify *q, int max_ms);

/* Moves runs whose wait is over; call after heed_dns_process and
 * heed_net_process. */
void heed_qualify_process(heed_qualify *q);

#ifdef __cplusplus
}
#endif

#endif /* HEED_QUALIFY_H */
