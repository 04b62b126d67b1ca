/*
 * heed/net.h: HTTP fetches for heed, on libcurl's multi interface.
 *
 * Many fetches run at once in one thread. Each fetch is pinned to one
 * address that the caller resolved (heed_dns), so that "try every address"
 * means exactly that: libcurl never resolves a name and never picks another
 * address (CURLOPT_CONNECT_TO plus a check when the socket opens). Private,
 * loopback and link-local addresses are refused unless allowed. heed follows
 * redirects itself (a 3xx comes back with its absolute Location), so each
 * hop is checked like the first one. Bodies are decoded (gzip, deflate,
 * brotli, zstd) and capped after decoding; a hook sees the headers and may
 * stop the transfer before the body (the media ban).
 *
 * The caller's event loop asks which sockets to watch (heed_net_pollfds),
 * for how long (heed_net_timeout_ms), and hands the ready ones back
 * (heed_net_process), the same way as heed_dns, so one poll() serves both.
 * Callbacks run only from inside heed_net_process and heed_net_free.
 */
#ifndef HEED_NET_H
#define HEED_NET_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "heed/common.h"
#include "heed/dns.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct heed_net heed_net;

struct heed_net_options {
	const char *user_agent;        /* copied; heed_config_user_agent() */
	int64_t connect_timeout_ms;    /* TCP + TLS; 0 means 10000 */
	int64_t first_byte_timeout_ms; /* start to first byte; 0: 20000 */
	int64_t total_timeout_ms;      /* whole attempt; 0 means 60000 */
	size_t max_body_bytes;         /* decoded; 0 means 5 MiB */
	bool allow_private;            /* allow private/loopback/link-local */
	const char *ca_file; /* PEM CAs to trust; NULL: the system's; copied */
	/* Connections kept open between fetches, for the next fetch to the
	 * same host and address; 0 means the process's open-file limit less
	 * 1,024 (at least 64, at most 65,536). Beyond it the connection idle
	 * longest is closed, so a crawler that visits N sites in turn reuses
	 * nothing unless this exceeds N. */
	long max_idle_connections;
	/* The proxies for http:// and https:// URLs ("http://host:port",
	 * "socks5h://host:port", ...; NULL or "": none), and the hosts that
	 * bypass them (no_proxy syntax: "example.org,.example.net,*"); all
	 * copied. libcurl never reads the environment: the caller decides
	 * (net.proxy, docs/configuration.md). A proxied fetch is checked like
	 * any other (req->addr resolved by heed and allowed) but cannot be
	 * pinned: the proxy connects, after resolving the name itself. */
	const char *http_proxy, *https_proxy, *no_proxy;
};

/* Whether url's host is in the no_proxy list: an entry equal to the host
 * (case-insensitive, a leading or trailing dot ignored), an entry the host
 * is a name under ("example.org" covers "www.example.org"), or "*".
 * Entries are separated by commas or blanks. */
bool heed_net_no_proxy_match(const char *no_proxy, const char *url);

/* How a fetch ended. */
typedef enum heed_net_error {
	HEED_NET_OK = 0,             /* a whole answer (any status) */
	HEED_NET_CONNECT,            /* refused, unreachable */
	HEED_NET_CONNECT_TIMEOUT,    /* no connection in time */
	HEED_NET_FIRST_BYTE_TIMEOUT, /* connected, no answer in time */
	HEED_NET_TOTAL_TIMEOUT,      /* the whole attempt took too long */
	HEED_NET_TLS,                /* handshake or certificate failure */
	HEED_NET_RESET,              /* connection broken or closed early */
	HEED_NET_TRUNCATED,          /* fewer body bytes than announced */
	HEED_NET_TOO_BIG,            /* body over the cap: first bytes kept */
	HEED_NET_ABORTED,            /* the headers hook said stop */
	HEED_NET_DENIED,             /* a private address, not allowed */
	HEED_NET_PROTOCOL,           /* malformed HTTP or content encoding */
	HEED_NET_CANCELLED,          /* heed_net_free ran first */
	HEED_NET_OTHER,              /* anything else (out of memory...) */
	HEED_NET_NOT_SENT,           /* not sent: its send_by_ms had passed
	                                when the connection was ready */
} heed_net_error;

/* "ok", "connect", "connect-timeout", ... Static. */
const char *heed_net_error_name(heed_net_error error);

/* What came back. Every pointer lives only during the callback. */
struct heed_net_response {
	heed_net_error error;
	const char *error_text;   /* libcurl's words, "" when OK */
	const char *url;          /* as requested */
	const char *address;      /* the pinned address, as text */
	bool connected;           /* a connection was made (a request may have
	                             reached the server) */
	int status;               /* HTTP status, 0 when none arrived */
	int http_version;         /* 10, 11, 20; 0 when none */
	const char *location;     /* 3xx: the absolute target, else NULL */
	const char *content_type; /* or NULL */
	const char *retry_after;  /* the raw header value, or NULL */
	/* Validators for the next conditional GET and the X-Robots-Tag
	 * directives (all X-Robots-Tag headers joined with ", "), or NULL. */
	const char *etag, *last_modified, *x_robots_tag;
	/* What the answer says of its own freshness (RFC 9111 5.2, 5.3 and
	 * RFC 9110 6.6.1), raw header values or NULL: all Cache-Control
	 * headers joined with ", ", Expires, Date. heed_net_fresh_for()
	 * reads them. */
	const char *cache_control, *expires, *date;
	const char *body; /* decoded bytes (NUL-terminated), or NULL */
	size_t body_len;
	bool truncated;  /* a status arrived, then the body was cut short */
	int64_t sent_ms; /* when the request left (after connecting), on
	                    CLOCK_MONOTONIC in milliseconds; 0: never sent */
	/* When heed knew the server had the request, on the same clock: the
	 * first byte of the answer came (a server cannot answer what it has
	 * not received), or, for a request that connected and got no
	 * answer, the attempt ended. 0 when nothing can have reached the
	 * server. Courtesy counts a host's delay from here. */
	int64_t heard_ms;
	int64_t first_byte_ms; /* start to the first byte of the answer;
	                          0 when none came */
	int64_t elapsed_ms;    /* start to the end of the attempt */
};

/*
 * How many seconds an answer may be used without asking again, from its
 * Cache-Control, Expires and Date values (each may be NULL), as RFC 9111
 * 4.2.1 computes a freshness lifetime for a private cache: max-age, else
 * Expires minus Date (Date missing or unparsable: now_s), never below 0.
 * no-store or no-cache: 0. Returns -1 when the headers say nothing usable
 * (no directive, an invalid Expires counts as already expired: 0). Pure;
 * any bytes are safe.
 */
int64_t heed_net_fresh_for(const char *cache_control, const char *expires,
                           const char *date, int64_t now_s);

/* Called once the final headers are in (status >= 200); return false to
 * stop the transfer before its body (the fetch then ends ABORTED). The
 * response has no body yet. */
typedef bool heed_net_headers_fn(void *ud, const struct heed_net_response *r);

/* Called exactly once per started fetch. */
typedef void heed_net_done_fn(void *ud, const struct heed_net_response *r);

struct heed_net_request {
	const char *url;                  /* http:// or https://; copied */
	const struct heed_dns_addr *addr; /* connect only here; copied */
	size_t max_body_bytes;            /* 0: the options' cap */
	heed_net_headers_fn *on_headers;  /* may be NULL */
	heed_net_done_fn *on_done;        /* required */
	void *ud;
	/* Extra request headers, "Name: value" (If-None-Match,
	 * If-Modified-Since for a conditional GET); copied. */
	const char *const *headers;
	size_t header_count;
	/* The request is not sent after this moment (CLOCK_MONOTONIC, ms):
	 * a connection ready later ends the fetch, unsent, with
	 * HEED_NET_NOT_SENT. For a caller whose right to send ends (a
	 * crawl worker's lease) and whose loop may have stalled between
	 * asking and sending. 0: no limit. */
	int64_t send_by_ms;
};

/*
 * Creates a fetcher. opt is copied; logger may be NULL, alloc may be NULL.
 * HEED_OK, HEED_ENOMEM, or HEED_ECONFIG with the reason in diag (no
 * User-Agent, libcurl refused to start). Free with heed_net_free.
 */
heed_status heed_net_new(heed_net **out, const struct heed_net_options *opt,
                         const struct heed_logger *logger,
                         const struct heed_allocator *alloc,
                         struct heed_diag *diag);

/* Cancels running fetches (their on_done runs with HEED_NET_CANCELLED) and
 * frees the fetcher. NULL does nothing. */
void heed_net_free(heed_net *net);

/*
 * Starts a GET of req->url pinned to req->addr. On HEED_OK, on_done runs
 * exactly once later. HEED_EDENIED (callback never runs) when the address
 * is private, loopback or link-local and not allowed; HEED_EINVAL for a URL
 * that is not http(s); HEED_ENOMEM.
 */
heed_status heed_net_start(heed_net *net, const struct heed_net_request *req);

/*
 * Inside on_done, for the response r it was given: takes r's body, so
 * that the caller keeps it past the callback instead of copying it. The
 * body stays where r->body points (r->body_len bytes and a NUL), is now
 * the caller's, and is freed with the allocator given to heed_net_new()
 * (the default one for NULL). NULL when r has no body, or outside r's
 * on_done; then nothing changes.
 */
char *heed_net_take_body(heed_net *net, const struct heed_net_response *r);

/* Fetches started and not yet done. */
size_t heed_net_pending(const heed_net *net);

/* Fills up to max pollfds with what to watch and returns how many: one
 * descriptor, an epoll set holding every socket of every fetch, so a
 * poll() costs the same with ten connections or ten thousand. */
int heed_net_pollfds(heed_net *net, struct pollfd *fds, int max);

/* Milliseconds until heed_net_process must run even without socket
 * activity (timeouts), at most max_ms; 0 when it is due now. */
int heed_net_timeout_ms(heed_net *net, int max_ms);

/* Handles the sockets poll() reported (fds may include other sockets: they
 * are ignored) and due timeouts; runs the callbacks of finished fetches. */
void heed_net_process(heed_net *net, const struct pollfd *fds, int count);

/* What kind of address a is, for the private-address refusal. */
typedef enum heed_net_addr_kind {
	HEED_NET_ADDR_PUBLIC = 0,
	HEED_NET_ADDR_PRIVATE,    /* 10/8, 172.16/12, 192.168/16, 100.64/10,
	                             fc00::/7 */
	HEED_NET_ADDR_LOOPBACK,   /* 127/8, ::1 */
	HEED_NET_ADDR_LINK_LOCAL, /* 169.254/16, fe80::/10 */
	HEED_NET_ADDR_RESERVED,   /* unspecified, multicast, broadcast,
	                             0/8, 240/4, documentation ranges */
} heed_net_addr_kind;

/* IPv4-mapped IPv6 addresses are judged by their IPv4 part. Pure. */
heed_net_addr_kind heed_net_addr_classify(const struct heed_dns_addr *a);

/* "public", "private", "loopback", "link-local", "reserved". Static. */
const char *heed_net_addr_kind_name(heed_net_addr_kind kind);

/* True when heed may connect to a: public, or any kind but reserved when
 * allow_private is set. */
bool heed_net_addr_allowed(const struct heed_dns_addr *a, bool allow_private);

/*
 * Why heed contacts none of r's addresses for host (heed_net_addr_allowed
 * refused each under allow_private), in buf, for the web crawl and the IRC
 * crawl alike: the first address and its kind, and what would allow it:
 * "refused by heed's address policy: www.example.org resolves only to
 * refused addresses (127.0.0.1: loopback; --allow-private allows it)". A
 * host written as the address itself reads "127.0.0.1 is a loopback
 * address (--allow-private allows it)"; a reserved address is "never
 * contacted". With no address in r: "HOST has no address". Pure.
 */
void heed_net_refusal(const struct heed_dns_result *r, const char *host,
                      bool allow_private, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* HEED_NET_H */
