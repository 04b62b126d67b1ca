/*
 * Internals of the crawl engine (src/crawl/engine.c, hosts.c, process.c,
 * record_json.c): the run's context, its hosts and its fetches in flight.
 *
 * Ownership: the engine owns every host (a chained hash table by host key,
 * freed at the end of the run) and every fetch (freed by its completion
 * callback). Store writes go through one open transaction that is
 * committed in small batches (engine_commit_due), so that a page and its
 * frontier row are written together.
 */
#ifndef HEED_CRAWL_ENGINE_INT_H
#define HEED_CRAWL_ENGINE_INT_H

#include "common/common-int.h"
#include "heed/acap.h"
#include "heed/crawl_engine.h"
#include "heed/extract.h"
#include "heed/qualify.h"
#include "heed/robots.h"
#include "heed/store_frontier.h"
#include "heed/store_pages.h"

/* Writes per batch, and the longest a batch stays open. Time is the bound
 * that matters for a kill (what the last batch held is fetched again);
 * the count only caps a batch's size. Each commit rewrites the indexes'
 * inner pages, so at 2,000 pages a second (three or four writes each)
 * 256 writes a batch cost 15 % of the crawl's CPU in commits. */
#define ENGINE_BATCH_WRITES 4096
#define ENGINE_BATCH_MS     250
/* Addresses kept per host for page fetches. */
#define ENGINE_MAX_ADDRS 8
/* Sitemaps and feeds are read up to this size (decoded). */
#define ENGINE_MAX_FEED_BYTES (10u * 1024 * 1024)

/* Sets of two URL fingerprints remembered by the seen-table (seen.c). */
#define ENGINE_SEEN_SETS (1u << 20)

/* URLs already given to the frontier in this run (seen.c). */
struct heed__seen {
	const struct heed_allocator *alloc;
	uint64_t *slots; /* 2 * ENGINE_SEEN_SETS fingerprints, 0: empty */
};

heed_status heed__seen_init(struct heed__seen *s,
                            const struct heed_allocator *a);
void heed__seen_free(struct heed__seen *s);
uint64_t heed__seen_fingerprint(const char *url);
bool heed__seen_has(const struct heed__seen *s, uint64_t fp);
void heed__seen_add(struct heed__seen *s, uint64_t fp);

/* Where a host stands in this run. */
typedef enum host_state {
	HOST_QUALIFYING = 0, /* robots.txt lifecycle running */
	HOST_RESOLVING,      /* qualified; looking up addresses for pages */
	HOST_READY,          /* pages may be fetched */
	HOST_OUT,            /* not qualified, or no address: skipped */
} host_state;

struct crawl_host {
	struct crawl_host *next;      /* hash chain */
	struct crawl_engine *e;       /* for callbacks */
	struct crawl_host *wait_next; /* waiting for a qualification slot */
	char *key;                    /* politeness key "host[:port]" */
	char *origin;                 /* "http://host[:port]" */
	char *name;                   /* host name or address, for DNS */
	char site[300];               /* heed_qualify_site_of key */
	host_state state;
	heed_robots *robots; /* rules in force, or NULL: none */
	heed_robots_agent *agent;
	heed_acap *acap; /* ACAP fields, or NULL */
	struct heed_dns_addr addrs[ENGINE_MAX_ADDRS];
	size_t addr_count, addr_next;
	int64_t last_loaded_id; /* the frontier window loaded up to here */
	bool has_source;        /* incremental: a sitemap or feed answered */
	bool in_scope;          /* a seed host: links to it are followed */
	bool backoff;           /* a 429/503 back-off is stored for it */
	int64_t last_begin_ms;  /* monotonic start of its last page request */
};

/* One fetch in flight. */
struct crawl_fetch {
	struct crawl_engine *e;
	struct crawl_host *host;
	struct heed_sched_job job; /* url points into the copy below */
	char *url;
	char *request_headers[2];
	size_t request_header_count;
	const struct heed_dns_addr *addr;
	heed_content_kind kind; /* from the response's Content-Type */
};

struct crawl_engine {
	const struct heed_allocator *alloc;
	const struct heed_crawl_options *opt;
	struct heed_logger log;
	heed_store *store;
	heed_sched *sched;
	heed_dns *dns;
	heed_net *net;
	heed_polite *polite;
	heed_qualify *qualify;
	struct crawl_host **hosts; /* chained hash table */
	struct heed__seen seen;    /* URLs given to the frontier */
	size_t host_buckets, host_count;
	int64_t run_id;
	heed_crawl_mode mode;
	int64_t start_ms, last_progress_ms;
	/* The open batch. */
	bool in_tx;
	int tx_writes;
	int64_t tx_start_ms;
	int64_t run_pages, run_errors; /* added to the run row per batch */
	int64_t last_request_unix_ms;  /* saved with each batch */
	heed_status failed;            /* a store error ends the run */
	size_t qualifying, resolving;  /* hosts waiting on those */
	/* Hosts whose qualification waits for a slot: at most max_active run
	 * at once, so memory (one HTTP handle each) stays bounded. */
	struct crawl_host *wait_head, *wait_tail;
	size_t waiting_qualification;
	bool starting_waiting; /* start_waiting() is running */
	struct heed_crawl_progress p;
};

/* Clocks. */
int64_t heed__crawl_mono_ms(void);
int64_t heed__crawl_unix_s(void);
int64_t heed__crawl_unix_ms(void); /* wall clock, milliseconds */

/* The host of url. A seed's host is created (in scope, its qualification
 * started) when new; for other URLs NULL means "not a host of this
 * crawl". NULL also on allocation failure or an unusable URL. */
struct crawl_host *heed__crawl_host_get(struct crawl_engine *e, const char *url,
                                        bool seed);
struct crawl_host *heed__crawl_host_find(struct crawl_engine *e,
                                         const char *key);
void heed__crawl_hosts_free(struct crawl_engine *e);
/*
 * The host key of a URL already in normal form ("http://a.example:8080/x"
 * gives "a.example:8080"), read off the string; false when the URL might
 * be anything else (upper case, an IPv6 or user part, escapes, a default
 * or odd port), which heed_url_parse must then normalise. Links come out
 * of extraction normalised, and parsing each of them again to find its
 * site took 15 % of a large crawl's CPU.
 */
bool heed__crawl_plain_host_key(const char *url, char key[256]);

/* Opens the batch transaction when needed; false after a store error. */
bool heed__crawl_tx(struct crawl_engine *e);
/* Records a store failure: the run ends after the current batch. */
void heed__crawl_store_failed(struct crawl_engine *e, const char *what);

/*
 * Queues url (kind, depth, discovered_from may be NULL, lastmod) in the
 * frontier if it was not seen in this run, registering its host. Checks
 * the scope and the limits; counts what it skips.
 */
void heed__crawl_enqueue(struct crawl_engine *e, const char *url,
                         heed_frontier_kind kind, int depth, const char *from,
                         int64_t lastmod);

/* May the host's rules let heed fetch url (robots.txt and ACAP crawl)? */
bool heed__crawl_may_fetch(const struct crawl_host *h, const char *url);

/* Handles a finished fetch: stores, queues links, updates counters. */
void heed__crawl_process(struct crawl_fetch *f,
                         const struct heed_net_response *r);

/* The JSON texts stored with a page (caller frees with the allocator). */
char *heed__crawl_record_json(const struct heed_allocator *a,
                              const struct heed_record *rec, size_t link_count);
char *heed__crawl_permissions_json(const struct heed_allocator *a,
                                   const struct crawl_host *h, const char *url,
                                   const struct heed_extract_robots *d,
                                   const char *agent, int64_t now_s);

/* The ACAP answer for usage on url's path: true when no ACAP fields
 * apply. */
bool heed__crawl_acap_permits(const struct crawl_host *h, const char *agent,
                              heed_acap_usage usage, const char *url,
                              int64_t now_s);

#endif /* HEED_CRAWL_ENGINE_INT_H */
