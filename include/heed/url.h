/*
 * heed/url.h: parsing, resolving and normalising http(s) URLs (RFC 3986),
 * the host key politeness uses and the registrable domain (Public Suffix
 * List, through libpsl's built-in list).
 *
 * A heed_url always holds a normalised absolute URL: scheme and host in
 * lower case, an internationalised host in punycode (IDNA 2008 / UTS #46
 * through libidn2), the default port dropped, dot segments removed,
 * percent-encoding normalised (RFC 3986 6.2.2: hex digits upper case,
 * unreserved characters decoded, spaces, controls and non-ASCII bytes
 * encoded), user information, the fragment and session ids (a
 * ";jsessionid=" path parameter, PHPSESSID and the like: docs/metadata.md)
 * dropped. Only http and https are accepted: a crawler has no use for the
 * others. The module is pure: no I/O, no locale, no clock.
 */
#ifndef HEED_URL_H
#define HEED_URL_H

#include <stddef.h>

#include "heed/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The longest URL heed accepts, in bytes, before and after normalisation.
 * Longer ones are refused with HEED_ETOOBIG (browsers and servers rarely go
 * past 8 KiB either). */
#define HEED_URL_MAX_BYTES 8192

typedef struct heed_url heed_url;

/*
 * Parses text (len bytes, need not be NUL-terminated) as an absolute http
 * or https URL and normalises it. Leading and trailing spaces and controls
 * and every tab or line break inside are ignored, as browsers do. alloc may
 * be NULL (the C library's malloc). On success *out is a new URL that the
 * caller frees with heed_url_free(). Returns HEED_OK, HEED_EINVAL (not an
 * absolute http(s) URL, or a malformed one), HEED_ETOOBIG or HEED_ENOMEM;
 * *out is NULL on failure.
 */
heed_status heed_url_parse(heed_url **out, const char *text, size_t len,
                           const struct heed_allocator *alloc);

/*
 * Resolves the reference ref (len bytes: absolute, or relative as in an
 * href) against base (RFC 3986 5.2) and normalises the result. The new URL
 * uses base's allocator; the caller frees it with heed_url_free(). Returns
 * what heed_url_parse() returns; a reference with another scheme
 * ("mailto:", "javascript:") gives HEED_EINVAL.
 */
heed_status heed_url_resolve(heed_url **out, const heed_url *base,
                             const char *ref, size_t len);

/*
 * Resolves ref against base like heed_url_resolve(), but writes only the
 * normalised URL, NUL-terminated, into buf (size bytes; HEED_URL_MAX_BYTES
 * + 1 always suffice) and sets *out_len. Common references (a path with no
 * dot segments, escapes or non-ASCII bytes) are resolved without any
 * allocation; this is what makes link extraction cheap. Returns what
 * heed_url_resolve() returns.
 */
heed_status heed_url_resolve_buf(const heed_url *base, const char *ref,
                                 size_t len, char *buf, size_t size,
                                 size_t *out_len);

/* A copy of u with u's allocator, or NULL when the allocator fails. */
heed_url *heed_url_dup(const heed_url *u);

/* Frees u; NULL does nothing. */
void heed_url_free(heed_url *u);

/* The accessors return strings that live as long as u. */

/* The whole normalised URL: "https://xn--bcher-kva.example/a%20b?q=1". */
const char *heed_url_get(const heed_url *u);
/* "http" or "https". */
const char *heed_url_scheme(const heed_url *u);
/* The host in lower case and punycode; an IPv6 address keeps its
 * brackets ("[::1]"). */
const char *heed_url_host(const heed_url *u);
/* The port a connection uses: the explicit one, else 80 or 443. */
unsigned heed_url_port(const heed_url *u);
/* Path and query as sent in a request line ("/a/b?c"); at least "/". */
const char *heed_url_target(const heed_url *u);
/*
 * The key politeness groups requests by: the host, with ":port" only when
 * the port is not the scheme's default. So http://a.example/ and
 * https://a.example/ share "a.example", and one server is never hit twice
 * as often just because it speaks both.
 */
const char *heed_url_host_key(const heed_url *u);
/*
 * heed's one identity of a site: the origin "scheme://host[:port]" (port
 * only when not the scheme's default), what a robots.txt governs (RFC
 * 9309 2.3: a robots.txt applies to the scheme, host and port it was
 * fetched from), the key of the site's state in the store and of its
 * queue in a crawl.
 */
const char *heed_url_origin(const heed_url *u);
/* The host name as DNS and politeness take it: heed_url_host() without an
 * IPv6 address's brackets ("::1"). Politeness counts per host name, so
 * the origins of one host (http and https, several ports) share one
 * budget. */
const char *heed_url_hostname(const heed_url *u);
/*
 * The origin of text when text is already in heed's normal form (as
 * heed_url_get() and link extraction give it), read off the string
 * without a parse, into buf (size bytes). HEED_OK; HEED_EINVAL when text
 * is not plainly in normal form (upper case, an IPv6 or user part,
 * escapes, a default or odd port, no path), for which heed_url_parse()
 * decides; HEED_ETOOBIG when buf is too small. Links are found in normal
 * form by the thousand, and parsing each again to find its site took 15 %
 * of a large crawl's CPU.
 */
heed_status heed_url_origin_fast(const char *text, char *buf, size_t size);
/* The registrable domain of the host ("example.co.uk" for
 * "www.example.co.uk"), or NULL when the host is an IP address or itself a
 * public suffix. */
const char *heed_url_registrable_domain(const heed_url *u);

#ifdef __cplusplus
}
#endif

#endif /* HEED_URL_H */
