/*
 * heed/store_sites.h: the durable state of sites (the robots.txt lifecycle's
 * record, the robots.txt body and the rules in force) and of hosts (the
 * politeness back-off), in the store opened with heed_store_open.
 *
 * A site is an origin, "scheme://host[:port]" with the port only when it is
 * not the scheme's default: RFC 9309 2.3 scopes a robots.txt to exactly
 * that. Its host is kept beside it so that `heed site report HOST` finds
 * every site of a host. The back-off and the time of the last request are
 * per host, as politeness keeps them.
 * docs/storage.md describes the tables, the same on SQLite and
 * PostgreSQL.
 */
#ifndef HEED_STORE_SITES_H
#define HEED_STORE_SITES_H

#include <stdbool.h>
#include <stddef.h>

#include "heed/politeness.h"
#include "heed/sitepolicy.h"
#include "heed/store.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * One site row. The strings and bodies belong to the struct once filled by
 * heed_store_site_get (release them with heed_store_site_clear); for
 * heed_store_site_put they are the caller's and are copied.
 */
struct heed_store_site {
	char *site; /* "http://host:port", the key */
	char *host; /* "host" */
	struct heed_site_record record;
	char *robots_url;       /* the URL the last answer came from, or NULL */
	char *robots_body;      /* the last 2xx body, or NULL */
	size_t robots_body_len; /* bytes */
	char *rules_body;       /* the robots.txt in force; NULL: no rules */
	size_t rules_body_len;  /* bytes */
	int64_t crawl_delay_ms; /* from the rules in force; 0 none */
	/* The validators and Content-Type of the answer robots_body came
	 * from, or NULL: kept only with a body that was read whole and
	 * judged, for the next check's If-None-Match / If-Modified-Since (a
	 * 304 then confirms robots_body; docs/robots-lifecycle.md). */
	char *robots_etag, *robots_last_modified, *robots_type;
};

/* What the store holds of a site (heed_store_sites_known's bits). */
enum {
	HEED_STORE_KNOWN_SITE = 1u << 0,   /* its row in sites */
	HEED_STORE_KNOWN_VISITS = 1u << 1, /* a visit of it (any kind) */
	HEED_STORE_KNOWN_ACAP = 1u << 2,   /* an ACAP reference row of it */
	HEED_STORE_KNOWN_HOST = 1u << 3,   /* its host's row in hosts */
	/* an arrangement of its host's with the owner (heed sites) */
	HEED_STORE_KNOWN_ARRANGED = 1u << 4,
	/* a URL of its queue dropped (its site was not qualified, or at a
	 * limit), to be asked back if it qualifies */
	HEED_STORE_KNOWN_DROPPED = 1u << 5,
};

/*
 * For each of n sites (origins[i], of host hosts[i]), which rows the store
 * holds of it, as HEED_STORE_KNOWN_* bits in known[i]: one statement for
 * all of them on PostgreSQL, so that a crawl starting many sites learns
 * which it need not ask about one by one. Neither string may hold a
 * newline. HEED_OK, HEED_EINVAL (a newline), HEED_ENOMEM or HEED_ESTORE.
 */
heed_status heed_store_sites_known(heed_store *store,
                                   const char *const *origins,
                                   const char *const *hosts, size_t n,
                                   unsigned *known);

/*
 * Reads site's row into *out (zeroed first). HEED_ENOTFOUND when the store
 * has no such site (*out is then zeroed, a valid new record),
 * HEED_ESTORE, HEED_ENOMEM. Release with heed_store_site_clear.
 */
heed_status heed_store_site_get(heed_store *store, const char *site,
                                struct heed_store_site *out);

/* Writes (inserts or replaces) the row in->site; everything is copied.
 * HEED_OK, HEED_EINVAL when in->site or in->host is NULL, HEED_ESTORE. */
heed_status heed_store_site_put(heed_store *store,
                                const struct heed_store_site *in);

/* Frees what heed_store_site_get put in *s and zeroes it. */
void heed_store_site_clear(heed_store *store, struct heed_store_site *s);

typedef void heed_store_site_fn(void *ud, const struct heed_store_site *s);

/*
 * Calls fn for every site of host (in site order); the row is valid only
 * during the call. host NULL lists every site. *count (may be NULL) gets
 * the number of rows. HEED_OK, HEED_ESTORE or HEED_ENOMEM.
 */
heed_status heed_store_site_each(heed_store *store, const char *host,
                                 heed_store_site_fn *fn, void *ud,
                                 size_t *count);

/*
 * Clears the failure state of every site of host (heed_site_record_reset)
 * and its back-off (not its last request time), in one transaction. *count gets
 * the number of sites reset. HEED_OK (also for none), HEED_ESTORE.
 */
heed_status heed_store_site_reset_host(heed_store *store, const char *host,
                                       size_t *count);

/*
 * A file named by an ACAP-permissions-reference field (ACAP 1.1 2.3.2) of a
 * site's robots.txt, as the crawl last asked for it: one row per site and
 * locator (as written in robots.txt). body is NULL when the last attempt
 * failed or the file was not asked (detail says why): the crawlers the
 * reference speaks to then stay prohibited. Strings are owned as in
 * struct heed_store_site (heed_store_acap_ref_clear).
 */
struct heed_store_acap_ref {
	char *site;        /* the key, with locator */
	char *locator;     /* as written in robots.txt */
	char *url;         /* the URL asked (the last redirect's), or NULL */
	int http_status;   /* 0: no answer (or not asked) */
	int64_t fetched_s; /* Unix s of the last attempt; 0 never */
	char *body;        /* the file in force, or NULL */
	size_t body_len;
	char *etag, *last_modified; /* of the answer body came from, or NULL */
	char detail[160];           /* a sentence for the report */
};

/* Reads the row of site and locator into *out (zeroed first);
 * HEED_ENOTFOUND when there is none, HEED_ESTORE, HEED_ENOMEM. */
heed_status heed_store_acap_ref_get(heed_store *store, const char *site,
                                    const char *locator,
                                    struct heed_store_acap_ref *out);

/* Writes (inserts or replaces) the row; everything is copied. HEED_OK or
 * HEED_ESTORE. */
heed_status heed_store_acap_ref_put(heed_store *store,
                                    const struct heed_store_acap_ref *in);

/* Deletes the row of site and locator (none: HEED_OK). HEED_ESTORE. */
heed_status heed_store_acap_ref_delete(heed_store *store, const char *site,
                                       const char *locator);

/* Frees what heed_store_acap_ref_get put in *r and zeroes it. */
void heed_store_acap_ref_clear(heed_store *store,
                               struct heed_store_acap_ref *r);

typedef void heed_store_acap_ref_fn(void *ud,
                                    const struct heed_store_acap_ref *r);

/* Calls fn for every row of site, by locator; the row is valid only during
 * the call. HEED_OK, HEED_ESTORE or HEED_ENOMEM. */
heed_status heed_store_acap_ref_each(heed_store *store, const char *site,
                                     heed_store_acap_ref_fn *fn, void *ud);

/* A host's politeness state, kept between runs so that a restarted heed
 * neither forgets a back-off nor sends a request less than the host's delay
 * after the previous process's last one. */
struct heed_store_host {
	struct heed_polite_backoff backoff;
	int64_t last_request_ms; /* Unix ms of the last request that reached
	                            the host (connected); 0 none */
};

/* host's stored state; zeroed when none. HEED_OK or HEED_ESTORE. */
heed_status heed_store_host_get(heed_store *store, const char *host,
                                struct heed_store_host *out);

/* Stores host's state (inserted or replaced). HEED_OK, HEED_EINVAL for a
 * NULL host, HEED_ESTORE. */
heed_status heed_store_host_put(heed_store *store, const char *host,
                                const struct heed_store_host *in);

#ifdef __cplusplus
}
#endif

#endif /* HEED_STORE_SITES_H */
