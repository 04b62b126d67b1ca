/*
 * heed/store_leases.h: the "leases" area of the store, per-site leases and
 * per-address budgets for many crawl workers sharing one store (what
 * they promise: "a worker leases sites (a lease row with holder, expiry and the
 * site's last request start); only the holder fetches a site; a lease is
 * renewed while in use and taken over after expiry, and the new holder starts
 * no sooner than the site's delay after the last recorded start").
 *
 * One row per site (the origin "scheme://host[:port]" as the crawl engine
 * names it), and one per worker: its heartbeat, which is every lease it
 * holds. A lease names its holder and the holder's epoch, and lives while
 * that holder's heartbeat does and is of that epoch; renewing a worker is
 * one row whatever it holds, and a site's row changes only when it is
 * claimed, released or its last start recorded. A heartbeat that ended
 * and starts again begins a new epoch: the old epoch's leases stay ended.
 *
 * An unheld site is claimable when its next_allowed_at has come (claiming
 * it is one range read of the index on next_allowed_at, never a scan); a
 * held one is out of that range (HEED_LEASE_HELD) and claimable once its
 * lease ended, found through its holder's row. Each grant raises the
 * site's token: a write by an older holder (record_start, release) names
 * an older token and is refused, which fences a worker that lost its lease
 * (killed, paused, cut off by a partition) out of the site for good.
 *
 * Times are Unix milliseconds the caller passes (workers share a clock
 * only as far as their hosts' clocks agree; leases are meant to be long
 * against that skew). `heed crawl --worker` runs on it (src/crawl/
 * worker.c; docs/scaling.md "Workers").
 */
#ifndef HEED_STORE_LEASES_H
#define HEED_STORE_LEASES_H

#include <stdbool.h>
#include <stdint.h>

#include "heed/store.h"

#ifdef __cplusplus
extern "C" {
#endif

/* next_allowed_at of a site with nothing to fetch: never claimed until
 * heed_store_lease_ensure brings its due time back. */
#define HEED_LEASE_IDLE INT64_MAX
/* next_allowed_at of a held site: out of the due range, whether its
 * holder lives or not (its release sets the due time again). */
#define HEED_LEASE_HELD (INT64_MAX - 1)

/* A site's lease row. Strings live only during the callback. */
struct heed_site_lease {
	const char *site;
	const char *holder; /* NULL: never granted or released */
	int64_t token;      /* raised by each grant; 0 never */
	int64_t epoch;      /* the holder's epoch at the grant */
	/* The lease holds while now < this: its holder's heartbeat while
	 * the holder is in the lease's epoch, else the end it was granted
	 * with (0 once released). */
	int64_t lease_until;
	int64_t next_allowed_at;    /* claimable from then on */
	int64_t delay_ms;           /* the site's gap between requests */
	int64_t last_request_start; /* the last recorded start; 0 none */
	/* Set by a claim: the earliest the new holder may start a request,
	 * never before last_request_start + delay_ms. */
	int64_t start_at;
	/* The holder whose expired lease the last grant followed (it died
	 * or was cut off); NULL when the site was released or new. */
	const char *taken_from;
};

/* Called per site; non-zero stops the listing (claimed sites stay
 * claimed: the caller releases what it does not want). */
typedef int heed_store_lease_fn(void *ud, const struct heed_site_lease *l);

/*
 * Adds site with delay_ms between its requests, claimable from due_ms
 * (HEED_LEASE_IDLE: not yet). For a known site, sets its delay and brings
 * its due time forward to due_ms; a held site stays with its holder, and
 * due_ms is kept for the holder's release (below). HEED_EINVAL for no
 * site or a negative delay.
 */
heed_status heed_store_lease_ensure(heed_store *store, const char *site,
                                    int64_t delay_ms, int64_t due_ms);

/*
 * heed_store_lease_ensure, and notes that origin (a crawl's site,
 * "scheme://host[:port]") has work under the lease site (its host name,
 * the unit of courtesy: http and https, or two ports, of one host are
 * one lease), so whoever claims site learns which origins to start.
 */
heed_status heed_store_lease_ensure_origin(heed_store *store, const char *site,
                                           const char *origin, int64_t delay_ms,
                                           int64_t due_ms);

/*
 * heed_store_lease_ensure_origin for n sites at once: site i with origin
 * i and delay i, all claimable from due_ms; two statements on PostgreSQL
 * whatever n is, its rows written in the sites' order (workers offering
 * the same hosts at once take their row locks in one order). Sites and
 * origins hold no newline. HEED_EINVAL as ensure_origin, nothing written.
 */
heed_status heed_store_lease_ensure_origins(heed_store *store,
                                            const char *const *sites,
                                            const char *const *origins,
                                            const int64_t *delays_ms, size_t n,
                                            int64_t due_ms);

/* Each origin noted (heed_store_lease_ensure_origin) for each of the n
 * sites, to fn with its site (non-zero stops): the sites in the order
 * given, each one's origins in byte order, none for a site nobody noted;
 * the strings live during the call. One statement on PostgreSQL, for the
 * hosts one claim grants. HEED_EINVAL for no fn, or a site that is NULL
 * or holds a newline. */
typedef int heed_store_lease_origin_fn(void *ud, const char *site,
                                       const char *origin);
heed_status heed_store_lease_origins(heed_store *store,
                                     const char *const *sites, size_t n,
                                     heed_store_lease_origin_fn *fn, void *ud);

/*
 * Beats holder's heartbeat to now_ms + lease_ms at least (as
 * heed_store_lease_worker_beat) and ends the epoch of every worker whose
 * heartbeat ended while it held leases, then grants holder up to max
 * claimable sites, those whose lease ended first (their holder's
 * heartbeat ended, or its epoch moved on), then unheld ones with
 * next_allowed_at <= now_ms, earliest due first, each with a new token under
 * holder's epoch, in ONE statement (PostgreSQL: FOR UPDATE SKIP LOCKED, so
 * workers claiming at once never wait for each other nor get the same site;
 * a statement for dead workers' leases in every partition of the sites,
 * then one a partition, from one of holder's own to the next while grants
 * are missing, so earliest due first within a partition).
 * fn sees each grant, start_at filled in. HEED_EINVAL for no holder, max < 1
 * or lease_ms < 1.
 */
heed_status heed_store_lease_claim(heed_store *store, const char *holder,
                                   int64_t now_ms, int64_t lease_ms, int max,
                                   heed_store_lease_fn *fn, void *ud);

/*
 * The fencing checks: each succeeds only while holder holds site under
 * token and the lease is alive at now_ms; otherwise *held is false and the
 * caller must stop fetching the site at once (its lease was lost).
 *
 * renew extends holder's heartbeat, and with it every lease of its epoch,
 * to now_ms + lease_ms at least; record_start records that
 * a request to site starts at now_ms (call it before each request: it is
 * the write every later holder's delay counts from); release ends the
 * lease with the site claimable again from next_ms (HEED_LEASE_IDLE: when
 * ensure brings it back, or at the earliest due time an ensure asked for
 * while the site was held, so work added meanwhile is not lost), records
 * last_start_ms as the site's last request start when it is later than
 * the one recorded (0: none to record; one statement where a holder that
 * keeps its starts in memory would need two), and also succeeds on an
 * expired lease nobody took over.
 */
heed_status heed_store_lease_renew(heed_store *store, const char *site,
                                   const char *holder, int64_t token,
                                   int64_t now_ms, int64_t lease_ms,
                                   bool *held);
heed_status heed_store_lease_record_start(heed_store *store, const char *site,
                                          const char *holder, int64_t token,
                                          int64_t now_ms, bool *held);
heed_status heed_store_lease_release(heed_store *store, const char *site,
                                     const char *holder, int64_t token,
                                     int64_t last_start_ms, int64_t next_ms,
                                     bool *held);

/* One release of heed_store_lease_release_all: its arguments, and held. */
struct heed_lease_release {
	const char *site; /* no newline */
	int64_t token;
	int64_t last_start_ms;
	int64_t next_ms;
	bool held; /* out: as heed_store_lease_release's *held */
};

/*
 * heed_store_lease_release of each of n sites by holder: one statement for
 * them all on PostgreSQL (a worker hands back the hosts it swept together),
 * each r[i].held set. HEED_EINVAL (no holder, a site NULL or with a
 * newline, a last start below 0: nothing released), HEED_ENOMEM,
 * HEED_ESTORE.
 */
heed_status heed_store_lease_release_all(heed_store *store, const char *holder,
                                         struct heed_lease_release *r,
                                         size_t n);

/*
 * The fence of a holder's writes ("a token checked at each
 * write"), called inside the transaction that carries them: of the sites
 * named in sites_json (a JSON array of strings), those still granted to
 * holder go to fn, their lease live or expired but taken over by no one;
 * the others went to another worker or were released, and what the
 * transaction wrote for them must not commit. On PostgreSQL the reported
 * rows are locked (FOR SHARE) until the transaction ends, so no claim
 * (which skips locked rows) takes them over before the writes commit.
 * HEED_EINVAL for no holder or no array.
 */
heed_status heed_store_lease_hold(heed_store *store, const char *holder,
                                  const char *sites_json,
                                  heed_store_lease_fn *fn, void *ud);

/* What a worker learns at its beat. */
struct heed_lease_beat {
	/* The holder's epoch: its leases of this epoch hold until
	 * alive_until; any lease it believed it held under another epoch
	 * ended (maybe taken over) and must not be fetched again. */
	int64_t epoch;
	int64_t alive_until;
	int64_t live;   /* workers alive at now_ms, holder among them */
	int64_t active; /* sites with work: held, due or due later */
};

/*
 * The workers sharing the store, for each one's fair share of the sites.
 * beat keeps holder alive until now_ms + ttl_ms at least, in one row
 * whatever it holds: every lease of its epoch is renewed with it. A
 * holder whose heartbeat had ended starts a new epoch. *b receives the
 * epoch, the heartbeat's end, the live workers and the sites with work;
 * the last is a count kept as sites are ensured, claimed and released
 * (never a scan of the sites: a beat costs the same at a million sites as
 * at ten). Rows of workers gone for more than an hour and holding nothing
 * are deleted on the way. leave ends holder's heartbeat at once (a clean
 * exit: any lease it still has is claimable now). HEED_EINVAL for no
 * holder or ttl_ms < 1.
 */
heed_status heed_store_lease_worker_beat(heed_store *store, const char *holder,
                                         int64_t now_ms, int64_t ttl_ms,
                                         struct heed_lease_beat *b);
heed_status heed_store_lease_worker_leave(heed_store *store,
                                          const char *holder);

/* site's row to fn (start_at 0), or nothing when the store has no such
 * site. */
heed_status heed_store_lease_get(heed_store *store, const char *site,
                                 heed_store_lease_fn *fn, void *ud);

/* The sites counted by a scan of every row: for checks and reports,
 * not for every beat (heed_store_lease_worker_beat keeps a count). */
struct heed_lease_counts {
	int64_t sites;     /* rows */
	int64_t held;      /* live leases at now */
	int64_t claimable; /* due and unheld, or a lease that ended */
	int64_t idle;      /* HEED_LEASE_IDLE */
};

heed_status heed_store_lease_counts(heed_store *store, int64_t now_ms,
                                    struct heed_lease_counts *c);

/*
 * Per-address budgets across workers: takes address's request slot at
 * now_ms when the last one taken (by any worker) started gap_ms or more
 * before (the larger of this gap and the one stored wins), in one
 * conditional write, so two workers never take the same slot. *taken says
 * whether it did; *next_ms (may be NULL) the earliest the next slot is
 * free. HEED_EINVAL for no address or a negative gap.
 */
heed_status heed_store_address_take(heed_store *store, const char *address,
                                    int64_t gap_ms, int64_t now_ms, bool *taken,
                                    int64_t *next_ms);

/*
 * The lease policy, pure. A holder fetches only while a request started
 * now would end inside the lease: now + margin_ms < lease_until, margin
 * being the request's timeout (so a worker cut off from the store stops
 * before its lease ends, and a new holder never overlaps it).
 */
bool heed_lease_may_fetch(int64_t lease_until, int64_t now_ms,
                          int64_t margin_ms);
/* Whether to renew now: less than half of a lease of lease_ms is left
 * (or less than the margin), so a renewal that fails still leaves time
 * to stop. */
bool heed_lease_renew_due(int64_t lease_until, int64_t now_ms, int64_t lease_ms,
                          int64_t margin_ms);
/* The earliest start for a holder granted a site whose last request
 * started at last_start (0: none) with delay_ms between requests. */
int64_t heed_lease_start_at(int64_t now_ms, int64_t last_start,
                            int64_t delay_ms);

#ifdef __cplusplus
}
#endif

#endif /* HEED_STORE_LEASES_H */
