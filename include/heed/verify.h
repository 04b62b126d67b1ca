/*
 * heed/verify.h: proof that an IP address belongs to a crawler's operator,
 * and the operator's public crawler page.
 *
 * Two independent proofs, as large crawlers publish them
 * (seeds/crawler-operator-page.md, "Open source & crawler verification"):
 *
 * 1. Forward-confirmed reverse DNS (FCrDNS): every PTR name of the address
 *    that lies under one of the operator's domains is looked up forward (A
 *    for IPv4, AAAA for IPv6, following CNAMEs); the address is verified when
 *    it is among the answers of at least one such name. A heed_verifier does
 *    this asynchronously on heed's resolver (heed/dns.h) and caches results
 *    for their TTL.
 * 2. Published address ranges: the JSON file big crawlers publish
 *    ({"creationTime": ..., "prefixes": [{"ipv4Prefix": "66.249.64.0/27"},
 *    {"ipv6Prefix": "2001:4860:4801:10::/64"}]}), parsed strictly into a
 *    heed_ranges that answers "is this address inside?".
 *
 * The pure parts (suffix rule, address parsing, ranges parser and matcher,
 * page rendering) take bytes and return answers; only the verifier does I/O.
 */
#ifndef HEED_VERIFY_H
#define HEED_VERIFY_H

#include <poll.h>
#include <stdbool.h>
#include <stdint.h>

#include "heed/common.h"
#include "heed/config.h"
#include "heed/dns.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Pure helpers ------------------------------------------------------ */

/*
 * True when name is suffix itself or lies under it at a label boundary:
 * "crawl-1.example.com" and "example.com" are under "example.com",
 * "evil-example.com" is not. ASCII case-insensitive; one trailing dot on
 * either side and one leading dot on suffix are ignored. An empty name or
 * suffix, or NULL, is never a match.
 */
bool heed_verify_name_under(const char *name, const char *suffix);

/* An IP address in binary form. */
struct heed_verify_addr {
	int family;        /* AF_INET or AF_INET6 */
	uint8_t bytes[16]; /* network order; 4 used for AF_INET */
};

/*
 * Parses "192.0.2.1" or "2001:db8::1" into addr. An IPv4-mapped IPv6
 * address ("::ffff:192.0.2.1", how dual-stack servers see IPv4 clients)
 * becomes the IPv4 address it carries. Returns HEED_OK or HEED_EINVAL.
 */
heed_status heed_verify_addr_parse(const char *text,
                                   struct heed_verify_addr *addr);

/* The printable form of addr ("192.0.2.1", "2001:db8::1") into buf of
 * size bytes (46 always suffice). Returns buf. */
const char *heed_verify_addr_format(const struct heed_verify_addr *addr,
                                    char *buf, size_t size);

/* ---- Published ranges -------------------------------------------------- */

typedef struct heed_ranges heed_ranges;

/* One network of a ranges file. */
struct heed_ranges_prefix {
	struct heed_verify_addr network; /* host bits are zero */
	unsigned length;                 /* prefix length in bits */
};

/* Ranges files larger than this are refused (Google's are ~20 KiB). */
#define HEED_RANGES_MAX_BYTES (4u * 1024 * 1024)
/* More prefixes than this are refused. */
#define HEED_RANGES_MAX_PREFIXES 100000u

/*
 * Parses a ranges file of len bytes (need not be NUL-terminated). Strict:
 * the top level must be an object whose "prefixes" is an array of objects,
 * each with exactly one of "ipv4Prefix" / "ipv6Prefix" holding a prefix of
 * that family with no bits set past its length; "creationTime", when
 * present, must be a string. Other keys are ignored. Returns HEED_OK,
 * HEED_EPARSE with the reason in diag (diag->line is the 1-based index of
 * the bad prefix, 0 for other errors; the message names "prefixes[i]"),
 * HEED_ETOOBIG or HEED_ENOMEM. alloc may be NULL. Free with
 * heed_ranges_free.
 */
heed_status heed_ranges_parse(heed_ranges **out, const char *json, size_t len,
                              const struct heed_allocator *alloc,
                              struct heed_diag *diag);

/* NULL does nothing. */
void heed_ranges_free(heed_ranges *r);

/* How many prefixes the file lists. */
size_t heed_ranges_count(const heed_ranges *r);

/* The i-th prefix in file order, or NULL past the last. Lives as long as
 * r. */
const struct heed_ranges_prefix *heed_ranges_get(const heed_ranges *r,
                                                 size_t i);

/* The file's "creationTime" as written, or NULL. Lives as long as r. */
const char *heed_ranges_creation_time_get(const heed_ranges *r);

/* True when prefix contains addr (families must be equal). */
bool heed_ranges_prefix_contains(const struct heed_ranges_prefix *prefix,
                                 const struct heed_verify_addr *addr);

/* "66.249.64.0/27" into buf of size bytes (50 always suffice). Returns
 * buf. */
const char *heed_ranges_prefix_format(const struct heed_ranges_prefix *prefix,
                                      char *buf, size_t size);

/* The first prefix of r that contains addr, or NULL. */
const struct heed_ranges_prefix *
heed_ranges_match(const heed_ranges *r, const struct heed_verify_addr *addr);

/* ---- Forward-confirmed reverse DNS ------------------------------------- */

/* Why an address did or did not verify. */
typedef enum heed_verify_reason {
	HEED_VERIFY_OK = 0,           /* a PTR name's forward answer has it */
	HEED_VERIFY_BAD_ADDRESS,      /* not an IP address */
	HEED_VERIFY_NO_PTR,           /* NXDOMAIN or no PTR record */
	HEED_VERIFY_PTR_FAILED,       /* PTR lookup: SERVFAIL, timeout, ... */
	HEED_VERIFY_NOT_UNDER_DOMAIN, /* no PTR name under a domain */
	HEED_VERIFY_FORWARD_MISMATCH, /* forward answers lack the address */
	HEED_VERIFY_FORWARD_FAILED,   /* every forward lookup failed */
	HEED_VERIFY_BUSY,             /* max_pending lookups in flight */
} heed_verify_reason;

/* "verified", "not an IP address", "no PTR record", ... Static. */
const char *heed_verify_reason_name(heed_verify_reason reason);

/* The step a result ended at. */
typedef enum heed_verify_step {
	HEED_VERIFY_STEP_NONE = 0, /* before any lookup (bad address) */
	HEED_VERIFY_STEP_REVERSE,  /* step 1: the PTR lookup */
	HEED_VERIFY_STEP_FORWARD,  /* step 2: the forward lookups */
} heed_verify_step;

/* "none", "reverse", "forward". Static. */
const char *heed_verify_step_name(heed_verify_step step);

/* One PTR name and what step 2 found for it. */
struct heed_verify_candidate {
	const char *name;   /* the PTR name, as the server gave it */
	const char *suffix; /* the domain it lies under, or NULL */
	/* Step 2 ran only for names under a domain (and at most
	 * HEED_VERIFY_MAX_FORWARD of them). */
	bool looked_up;
	heed_dns_outcome outcome; /* of the forward lookup, when looked_up */
	const char *detail;       /* c-ares's words for it; static */
	const struct heed_dns_addr *addrs; /* forward answer */
	size_t addr_count;
	const char *const *cnames; /* CNAME chain followed */
	size_t cname_count;
	bool has_address; /* the address is among addrs */
};

/* At most this many PTR names are looked up forward per address: a hostile
 * reverse zone must not turn one check into a flood of lookups. */
#define HEED_VERIFY_MAX_FORWARD 8

/*
 * Everything a check found, step by step, for output like the seed's two
 * `host` commands. Owned by the library, valid only during the callback.
 */
struct heed_verify_result {
	const char *query;            /* the address as given */
	struct heed_verify_addr addr; /* parsed (IPv4-mapped unwrapped) */
	char address[46];             /* addr printed */
	char reverse_name[HEED_DNS_REVERSE_NAME_SIZE]; /* step 1 asked */
	bool verified;                    /* reason == HEED_VERIFY_OK */
	heed_verify_reason reason;        /* why (not) */
	heed_verify_step step;            /* the step the check ended at */
	heed_dns_outcome outcome;         /* the DNS outcome that decided */
	heed_dns_outcome reverse_outcome; /* of step 1 */
	const char *reverse_detail;       /* c-ares's words; static */
	const struct heed_verify_candidate *candidates; /* every PTR name */
	size_t candidate_count;
	const char *verified_name; /* the name that proved it, or NULL */
	uint32_t cache_ttl_s;      /* how long the result is cached */
	bool from_cache;           /* answered from the cache */
};

typedef struct heed_verifier heed_verifier;

struct heed_verify_options {
	/* The operator's domains (suffixes); copied. At least one. */
	const char *const *domains;
	size_t domain_count;
	struct heed_dns_options dns; /* the resolver the verifier creates */
	/* Cache: at most cache_entries results (0: 4096; a negative value
	 * disables the cache); lifetimes in seconds, 0 meaning the default:
	 * max_ttl_s 86400 caps every result (positive ones live for the TTL
	 * of the forward record that proved them); negative_ttl_s 3600 for
	 * answers without a TTL (no PTR, PTR outside the domains, forward
	 * NXDOMAIN); failure_ttl_s 60 for SERVFAIL, timeouts and refusals, so
	 * repeated checks of a failing address do not flood DNS. */
	int cache_entries;
	uint32_t max_ttl_s;
	uint32_t negative_ttl_s;
	uint32_t failure_ttl_s;
	/* Addresses looked up at once, at most (0: 256). Past it a check of a
	 * new address answers at once with HEED_VERIFY_BUSY (not cached), so
	 * a flood of new clients cannot turn into a flood of DNS queries. */
	size_t max_pending;
};

/*
 * Creates a verifier with its own resolver. Returns HEED_OK, HEED_ENOMEM,
 * or HEED_ECONFIG with the reason in diag: no domain, an empty domain, a
 * domain that is a public suffix ("com", "co.uk": anyone could put a PTR
 * under it), or DNS servers c-ares rejects. alloc may be NULL. Free with
 * heed_verifier_free.
 */
heed_status heed_verifier_new(heed_verifier **out,
                              const struct heed_verify_options *opt,
                              const struct heed_allocator *alloc,
                              struct heed_diag *diag);

/* Cancels pending checks (their callbacks run with outcome
 * HEED_DNS_CANCELLED, not cached) and frees the verifier. NULL does
 * nothing. */
void heed_verifier_free(heed_verifier *v);

typedef void heed_verify_cb(void *ud, const struct heed_verify_result *result);

/*
 * Starts checking address (text, copied). now_s is the caller's clock in
 * seconds (any epoch, monotonic is best): cache entries are compared with
 * it and stored as now_s + TTL. cb runs exactly once, possibly before this
 * returns (bad address, cache hit), otherwise from heed_verifier_process /
 * heed_verifier_wait / heed_verifier_free. A check of an address that is
 * being looked up already shares that lookup (and its answer). Do not free
 * the verifier from inside a callback.
 */
void heed_verifier_start(heed_verifier *v, const char *address, int64_t now_s,
                         heed_verify_cb *cb, void *ud);

/* Blocking convenience: checks address, running the resolver until the
 * answer is in (bounded by the DNS timeouts and tries). Calls cb (may be
 * NULL) with the result, then returns its reason. Other checks in flight
 * make progress too. */
heed_verify_reason heed_verifier_check(heed_verifier *v, const char *address,
                                       int64_t now_s, heed_verify_cb *cb,
                                       void *ud);

/* For the caller's event loop, as in heed/dns.h: checks in flight, sockets
 * to watch, milliseconds until a timeout is due (at most max_ms), and the
 * handler for what poll() reported. */
size_t heed_verifier_pending(const heed_verifier *v);
int heed_verifier_pollfds(heed_verifier *v, struct pollfd *fds, int max);
int heed_verifier_timeout_ms(heed_verifier *v, int max_ms);
void heed_verifier_process(heed_verifier *v, const struct pollfd *fds,
                           int count);
/* Runs until no check is pending. */
void heed_verifier_wait(heed_verifier *v);

/* Results in the cache (expired ones included until they are looked up or
 * evicted). */
size_t heed_verifier_cache_size(const heed_verifier *v);

/* ---- The operator's crawler page --------------------------------------- */

typedef enum heed_verify_page_format {
	HEED_VERIFY_PAGE_HTML,
	HEED_VERIFY_PAGE_MARKDOWN,
} heed_verify_page_format;

/*
 * Renders the operator's crawler page from cfg: who runs the crawler, its
 * User-Agent, contact, what it collects and does not, crawl modes and how
 * often they run, the rate limit, robots.txt / ACAP / meta robots support,
 * how to opt out, and how to verify an address (cfg's verify.domain and the
 * `heed verify` command). Every configured text is escaped for the format.
 * On HEED_OK, *page is a NUL-terminated buffer of *len bytes that the
 * caller frees with alloc's free (or free() when alloc is NULL). Returns
 * HEED_ENOMEM or HEED_ETOOBIG (page over 1 MiB).
 */
heed_status heed_verify_page_render(const struct heed_config *cfg,
                                    heed_verify_page_format format,
                                    const struct heed_allocator *alloc,
                                    char **page, size_t *len);

#ifdef __cplusplus
}
#endif

#endif /* HEED_VERIFY_H */
