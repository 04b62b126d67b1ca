/*
 * heed/store_irc.h: the "irc" area of the store: networks, visits, servers,
 * channels (with first-seen and last-seen), the CRAWLER preferences seen and
 * each network's next allowed visit, which survives restarts so a cooldown
 * is never cut short by running heed again. Tables: docs/storage.md "IRC".
 *
 * Writes go through a heed_store_irc writer that keeps its prepared
 * statements and groups rows into transactions (a 100,000-channel LIST is
 * one statement execution per channel, committed in batches). Reads take
 * the store itself and call back once per row.
 */
#ifndef HEED_STORE_IRC_H
#define HEED_STORE_IRC_H

#include <stdbool.h>
#include <stdint.h>

#include "heed/irc.h"
#include "heed/store.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A writer on a store. Opaque; heed_store_irc_new/free. */
typedef struct heed_store_irc heed_store_irc;

/* A writer on store (which must outlive it). HEED_ENOMEM or HEED_OK. */
heed_status heed_store_irc_new(heed_store_irc **out, heed_store *store);

/* Commits what is pending and frees the writer. NULL does nothing. */
void heed_store_irc_free(heed_store_irc *w);

/* Commits the rows written so far (the writer also does it every few
 * thousand rows). HEED_ESTORE on failure. */
heed_status heed_store_irc_flush(heed_store_irc *w);

/*
 * The network named key (the operator's "host:port", lowercase), created
 * on first use with first_seen now_s. Sets *id. *next_visit_s (may be NULL)
 * receives the Unix time before which it must not be contacted (0: any
 * time).
 */
heed_status heed_store_irc_network(heed_store_irc *w, const char *key,
                                   int64_t now_s, int64_t *id,
                                   int64_t *next_visit_s);

/* Starts a visit of network id to host:port; sets *visit_id. */
heed_status heed_store_irc_visit_begin(heed_store_irc *w, int64_t network_id,
                                       const char *host, int port, bool tls,
                                       int64_t started_s, int64_t *visit_id);

/* Server name and version (004) and NETWORK= of a visit. Strings copied. */
heed_status heed_store_irc_visit_server(heed_store_irc *w, int64_t visit_id,
                                        const char *server_name,
                                        const char *server_version,
                                        const char *network_name);

/* LUSERS counts of a visit (-1 fields stored as NULL). */
heed_status heed_store_irc_visit_lusers(heed_store_irc *w, int64_t visit_id,
                                        const struct heed_irc_lusers *l);

/* A CRAWLER preference seen (raw_value: the unescaped token value, NULL
 * when the token was absent). */
heed_status heed_store_irc_preference(heed_store_irc *w, int64_t network_id,
                                      int64_t visit_id, const char *server_name,
                                      const char *raw_value,
                                      const struct heed_irc_crawler_pref *p,
                                      int64_t seen_s);

/* One LINKS entry; updates last_seen, keeps first_seen. hops -1: hidden. */
heed_status heed_store_irc_server(heed_store_irc *w, int64_t network_id,
                                  int64_t visit_id, const char *name,
                                  const char *hub, int hops,
                                  const char *description, int64_t seen_s);

/* One LIST entry; topic bytes are kept as they came (len bytes). */
heed_status heed_store_irc_channel(heed_store_irc *w, int64_t network_id,
                                   int64_t visit_id, const char *name,
                                   int64_t users, const char *topic,
                                   size_t topic_len, int64_t seen_s);

/*
 * Ends a visit: its status, reason and end time, the network's latest
 * preference (verdict, cooldown), its next allowed visit, and, for a
 * complete visit, the visit that defines the current channel list.
 */
heed_status heed_store_irc_visit_end(heed_store_irc *w, int64_t network_id,
                                     int64_t visit_id,
                                     heed_irc_visit_status status,
                                     const char *reason,
                                     const struct heed_irc_crawler_pref *pref,
                                     int64_t ended_s, int64_t next_visit_s);

/* STS: a policy for host (only ever from verified TLS), and its lookup. */
heed_status heed_store_irc_sts_set(heed_store_irc *w, const char *host,
                                   int port, int64_t expires_s);
/* *port is 0 when no policy for host is in force at now_s. */
heed_status heed_store_irc_sts_get(heed_store *store, const char *host,
                                   int64_t now_s, int *port);

/* The Unix time before which network key must not be contacted, read
 * without creating it: 0 for any time, or a key the store does not hold.
 * HEED_OK or HEED_ESTORE. */
heed_status heed_store_irc_next_visit(heed_store *store, const char *key,
                                      int64_t *next_visit_s);

/*
 * `heed irc reset`: drops heed's own hold on network key (the wait after a
 * failure, an unreachable server or a ban, and the operator's
 * irc.min_revisit) and keeps only what the network asked for: the end of
 * each visit that read a CRAWLER token plus its cooldown, the latest of
 * them. A hold is never lengthened. Visits stay for the record.
 * HEED_ENOTFOUND when the store holds no network key; HEED_ESTORE.
 * *next_visit_s (may be NULL) receives the hold left (0: any time).
 */
heed_status heed_store_irc_reset(heed_store *store, const char *key,
                                 int64_t *next_visit_s);

/* ---- Reading the public list ------------------------------------------- */

struct heed_store_irc_network_row {
	int64_t id;
	const char *key, *name;  /* name: NETWORK=, "" when unknown */
	const char *last_status; /* "complete", "partial"..., "" never */
	const char *verdict;     /* latest preference: "none", "allow"... */
	int64_t cooldown_s, first_seen_s, last_visit_end_s, next_visit_s;
	int64_t users, servers, channels; /* latest counts, -1 unknown */
};

struct heed_store_irc_channel_row {
	int64_t network_id;
	const char *network_key, *network_name, *name, *topic;
	size_t topic_len;
	int64_t users, first_seen_s, last_seen_s;
};

struct heed_store_irc_server_row {
	int64_t network_id;
	const char *network_key, *name, *hub, *description;
	int hops;
	int64_t first_seen_s, last_seen_s;
};

/* Row callbacks: pointers valid during the call; nonzero stops. */
typedef int
heed_store_irc_network_fn(void *ud,
                          const struct heed_store_irc_network_row *row);
typedef int
heed_store_irc_channel_fn(void *ud,
                          const struct heed_store_irc_channel_row *row);
typedef int
heed_store_irc_server_fn(void *ud, const struct heed_store_irc_server_row *row);

/* Whether what heed saw of a network (users, servers, channels) may be
 * published, from its latest CRAWLER verdict as the store names it
 * (heed_irc_crawler_verdict_name): never after "deny" or "invalid". The
 * public index lists such a network not at all; the export names it with
 * its verdict only. */
bool heed_store_irc_published(const char *verdict);

/* Every network, by key (also those that deny: their preference is what
 * heed publishes about them). */
heed_status heed_store_irc_each_network(heed_store *store,
                                        heed_store_irc_network_fn *fn,
                                        void *ud);

/*
 * The public channel list: channels seen in or after each network's latest
 * complete visit (or any, before the first complete one), by network then
 * name; networks whose latest preference forbids indexing are left out.
 * network_key NULL means every network.
 */
heed_status heed_store_irc_each_channel(heed_store *store,
                                        const char *network_key,
                                        heed_store_irc_channel_fn *fn,
                                        void *ud);

/* The servers of the public list, with the same rules as channels. */
heed_status heed_store_irc_each_server(heed_store *store,
                                       const char *network_key,
                                       heed_store_irc_server_fn *fn, void *ud);

/* One finished visit of a network: what its LUSERS, LINKS and LIST gave. */
struct heed_store_irc_visit_row {
	int64_t started_s, ended_s;
	const char *status; /* "complete", "partial", "failed"... */
	int64_t users;      /* LUSERS users + invisible, -1 unknown */
	int64_t servers;    /* servers listed by LINKS */
	int64_t channels;   /* channels listed by LIST */
};
typedef int heed_store_irc_visit_fn(void *ud,
                                    const struct heed_store_irc_visit_row *row);

/* The last at most limit finished visits of the network network_key,
 * oldest first, for its history; none for a network whose latest
 * preference forbids indexing. fn returning non-zero stops the walk. */
heed_status heed_store_irc_each_visit(heed_store *store,
                                      const char *network_key, int limit,
                                      heed_store_irc_visit_fn *fn, void *ud);

#ifdef __cplusplus
}
#endif

#endif /* HEED_STORE_IRC_H */
