/*
 * heed/dns.h: asynchronous DNS for heed, on c-ares.
 *
 * heed needs every address of a host (the robots.txt lifecycle tries each one
 * in turn), PTR names of an address (crawler verification), and its own DNS
 * server when asked (tests and operators: "127.0.0.1:5353"). Lookups run in
 * the background; the caller's event loop asks which sockets to watch
 * (heed_dns_pollfds), for how long (heed_dns_timeout_ms), and hands the ready
 * ones back (heed_dns_process). heed_dns_wait runs that loop for callers that
 * have nothing else to do.
 *
 * Callbacks run from inside heed_dns_process / heed_dns_wait /
 * heed_dns_free (cancelled with HEED_DNS_CANCELLED); the result they get is
 * valid only during the call.
 */
#ifndef HEED_DNS_H
#define HEED_DNS_H

#include <poll.h>
#include <stdbool.h>
#include <stdint.h>

#include "heed/common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct heed_dns heed_dns;

struct heed_dns_options {
	/* Servers as "ADDR[:PORT],..." ("[::1]:5353" for IPv6 with a port);
	 * NULL or "" uses the system's resolv.conf. */
	const char *servers;
	int timeout_ms; /* per try; 0 means 2000 */
	int tries;      /* per server; 0 means 2 */
	/* Report a SERVFAIL or REFUSED answer as such (HEED_DNS_SERVFAIL,
	 * HEED_DNS_REFUSED) instead of trying the next server: c-ares 1.18
	 * otherwise ends with "could not contact DNS servers" (refused) after
	 * all servers answered SERVFAIL. Crawler verification wants the
	 * reason; crawling wants the failover (false). */
	bool report_rcode;
};

/* Why a lookup ended. */
typedef enum heed_dns_outcome {
	HEED_DNS_FOUND = 0, /* answers in the result */
	HEED_DNS_NXDOMAIN,  /* the name does not exist */
	HEED_DNS_NODATA,    /* the name exists, with no record of that type */
	HEED_DNS_SERVFAIL,  /* the server failed */
	HEED_DNS_REFUSED,   /* the server refused, or the connection was */
	HEED_DNS_TIMEOUT,   /* no answer in time from any server */
	HEED_DNS_BADNAME,   /* not a name or address heed will look up */
	HEED_DNS_CANCELLED, /* heed_dns_free ran before an answer came */
	HEED_DNS_ERROR,     /* anything else (out of memory, ...) */
} heed_dns_outcome;

/* "found", "NXDOMAIN", "no data", "SERVFAIL", "refused", "timeout", ...
 * Static. */
const char *heed_dns_outcome_name(heed_dns_outcome outcome);

/* One address. text is its printable form ("127.0.0.2", "::1"). */
struct heed_dns_addr {
	int family;        /* AF_INET or AF_INET6 */
	uint8_t bytes[16]; /* network order; 4 used for AF_INET */
	char text[46];     /* INET6_ADDRSTRLEN */
	uint32_t ttl_s;    /* from the answer's record */
};

/* What a lookup found. All arrays are owned by the library. */
struct heed_dns_result {
	heed_dns_outcome outcome;
	const char *detail; /* c-ares's words for the outcome; static */
	const char *query;  /* the name or address asked about */
	/* Forward lookups: every address, in the order the server gave. */
	const struct heed_dns_addr *addrs;
	size_t addr_count;
	/* Forward lookups: the CNAME chain followed, first alias first. */
	const char *const *cnames;
	size_t cname_count;
	/* Reverse lookups: every PTR name (c-ares 1.18 gives no PTR TTL). */
	const char *const *names;
	size_t name_count;
};

typedef void heed_dns_cb(void *ud, const struct heed_dns_result *result);

/*
 * Creates a resolver. Returns HEED_OK, HEED_ENOMEM, or HEED_ECONFIG with the
 * reason in diag (a servers string c-ares rejects). alloc may be NULL. Free
 * with heed_dns_free.
 */
heed_status heed_dns_new(heed_dns **out, const struct heed_dns_options *opt,
                         const struct heed_allocator *alloc,
                         struct heed_diag *diag);

/* Cancels pending lookups (their callbacks run with HEED_DNS_CANCELLED) and
 * frees the resolver. NULL does nothing. */
void heed_dns_free(heed_dns *dns);

/*
 * Starts a forward lookup of host: family AF_INET (A), AF_INET6 (AAAA) or
 * AF_UNSPEC (both). An address literal answers itself. cb runs exactly once,
 * possibly before this returns (address literals, bad names). host is
 * copied.
 */
void heed_dns_resolve(heed_dns *dns, const char *host, int family,
                      heed_dns_cb *cb, void *ud);

/* Starts a reverse (PTR) lookup of an address given as text ("192.0.2.1",
 * "2001:db8::1"). cb runs exactly once. */
void heed_dns_reverse(heed_dns *dns, const char *address, heed_dns_cb *cb,
                      void *ud);

/* Room for any reverse name, its NUL included. */
#define HEED_DNS_REVERSE_NAME_SIZE 74

/* The name a PTR lookup asks for: "1.2.0.192.in-addr.arpa" for AF_INET,
 * 32 nibbles then "ip6.arpa" for AF_INET6 (bytes in network order), into
 * buf of size bytes (at least HEED_DNS_REVERSE_NAME_SIZE, or buf gets "").
 * Returns buf. */
const char *heed_dns_reverse_name(int family, const uint8_t *bytes, char *buf,
                                  size_t size);

/* Lookups started and not yet answered. */
size_t heed_dns_pending(const heed_dns *dns);

/* Fills up to max pollfds with the sockets to watch; returns how many. */
int heed_dns_pollfds(heed_dns *dns, struct pollfd *fds, int max);

/* Milliseconds until c-ares needs to run for a timeout, at most max_ms. */
int heed_dns_timeout_ms(heed_dns *dns, int max_ms);

/* Handles the sockets poll() reported (revents set) and expired timeouts;
 * runs the callbacks of finished lookups. */
void heed_dns_process(heed_dns *dns, const struct pollfd *fds, int count);

/* Runs the lookups until none is pending (each bounded by the options'
 * timeouts and tries). */
void heed_dns_wait(heed_dns *dns);

#ifdef __cplusplus
}
#endif

#endif /* HEED_DNS_H */
