/*
 * Internals of the crawl controller (heed/crawl.h). Its files in layers,
 * from the bottom up; a file calls functions of its own layer and of the
 * layers listed before it, never of one listed after it
 * (tests/crawl_layers.py reads this list and checks every call):
 *
 *   limits.c seen.c rules.c ledger.c sched.c permissions_json.c
 *   record_oembed.c
 *                  pure helpers: URL limits, the seen-table, a site's
 *                  robots.txt and ACAP rules, the courtesy witness, the
 *                  lanes scheduler, the permissions stored with a page,
 *                  an oEmbed answer's record
 *   run.c          the run: the call's clock, the failure latch, whether
 *                  the crawl is a worker's
 *   table.c        the registry: sites (origins) and hosts (names),
 *                  parked lanes per address, timers, requests in progress
 *   indexer.c      the search index caught up: by the batch's layer
 *                  between batches, or beside the crawl on a thread and
 *                  store connection of its own
 *   batch.c        the batch: the one open store transaction every layer
 *                  above writes through (its heed__batch_* functions are
 *                  their only store writes), its commit, a worker's
 *                  fence, and a lost batch redone
 *   reads.c        the reads: the store's rows the layers above read,
 *                  through this one door, a failed read handled one way
 *   arranged.c     the arrangements with site owners (heed sites),
 *                  read once per host, and the questions they answer
 *   visits.c       the crawl's memory of each URL between runs: due or
 *                  not, validators, what a visit found
 *   acapref.c      the files ACAP-permissions-reference fields name:
 *                  fetched before the site's pages, stored, reused
 *   queue.c        the frontier: enqueue, refill, retry, finish, resume
 *   lifecycle.c    robots.txt qualification of sites, and DNS
 *   worker.c       a worker's claims, renewals and hand-backs of hosts
 *   answer.c       what a page, feed or sitemap answer means
 *   ctl.c          the public API: next() and the events
 *   engine.c       the loop that runs the controller over net and DNS,
 *                  and the pool of threads that prepare page answers
 *
 * Ownership: the controller owns every site, host, lane, timer and request
 * (all freed by heed_crawl_free, top layer first); a request lives from
 * the action that handed it out to the event that answers it. Store
 * writes go through one open transaction (batch.c), committed in batches
 * by the injected clock, so that a page and its frontier row are written
 * together.
 *
 * Threads: the controller is one thread's. The one piece of it that may
 * run on another is a prepared answer's work (heed_crawl_prep_run:
 * answer.c's heed__answer_prep_run), which reads only the copies its
 * struct heed_crawl_prep holds, made on the controller's thread, and
 * writes only its struct heed__page_work; the request it answers stays
 * in c->reqs until heed_crawl_prepared() takes the work back.
 */
#ifndef HEED_CRAWL_INT_H
#define HEED_CRAWL_INT_H

#include "common/common-int.h"
#include "crawl/indexer-int.h"
#include "heed/acap.h"
#include "heed/arrangement.h"
#include "heed/crawl.h"
#include "heed/extract.h"
#include "heed/robots.h"
#include "heed/store_frontier.h"
#include "heed/store_pages.h"
#include "heed/store_sites.h"
#include "heed/store_visits.h"

/* Writes per batch, and the longest a batch stays open. Time is the bound
 * that matters for a kill (what the last batch held is fetched again):
 * under the smallest delay between two requests to a site (1 s), a batch
 * holds at most one answer of each site. The count only caps a batch's
 * size. A commit writes every page it changed whole, and a crawl of many
 * sites changes a page of each site-keyed table and index per answer: a
 * batch of 250 ms wrote 5.8 pages of 4 KB to SQLite's WAL per page
 * stored, one of 900 ms about 3.5 (bench/crawl --wal-frames, 1,000 sites). */
#define CRAWL_BATCH_WRITES 16384
#define CRAWL_BATCH_MS     900
/* Spare time: nothing out and nothing due for at least this long. The
 * open batch commits and the search index catches up then (batch.c,
 * heed__crawl_spare) rather than while requests are due. At the polite
 * bound a crawl's sites fall due together, each a second after its last
 * answer: work done in their tenth of a second made every site's next
 * request that much later, round after round (the median same-site gap
 * 1.07 s instead of 1.01, a crawl of 1,000 sites 8 % longer). */
#define CRAWL_SPARE_MS 200
/* The longest the URLs a page linked wait to be known as new: a site's
 * next request waits its delay (1 s at least) after the page's anyway,
 * and answers taken together cost PostgreSQL one statement and one round
 * trip rather than one a URL. */
#define CRAWL_ADDS_MS 100
/* A digest kept from an earlier answer fits here (SHA-256 in hex is the
 * longest heed ever wrote). */
#define CRAWL_KNOWN_DIGEST 65

/* Sitemaps and feeds are read up to this size (decoded). */
#define CRAWL_MAX_FEED_BYTES (10u * 1024 * 1024)
/* Addresses kept per host: the robots.txt lifecycle tries each of them
 * (sitepolicy stops at 32 too). */
#define CRAWL_MAX_ADDRS 32
/* The crawl lease (heed/store_frontier.h) reaches this far past the
 * moment a request may still leave: a request leaves at most the connect
 * timeout after it starts (0 in heed/net.h means 10 s). */
#define CRAWL_LEASE_MS           5000
#define CRAWL_CONNECT_DEFAULT_MS 10000
/* ACAP permissions reference files asked per site and run: a robots.txt
 * naming more (one per record) does not make heed ask dozens of files or
 * sites; the rest keep their crawlers prohibited. */
#define CRAWL_MAX_ACAP_REFS 8
/* The first pause before a look-up that timed out is tried again; it
 * doubles with each try. */
#define CRAWL_DNS_RETRY_MS 1000

/* ---- pure helpers ---- */

/* The seen-table (seen.c): 2^CRAWL_SEEN_SET_BITS sets of CRAWL_SEEN_WAYS
 * URL fingerprints, each set one 64-byte cache line. */
#define CRAWL_SEEN_SET_BITS 18
#define CRAWL_SEEN_WAYS     8

/* URLs already given to the frontier in this run (seen.c). */
struct heed__seen {
	const struct heed_allocator *alloc;
	void *mem;       /* the allocation, sets aligned inside it */
	uint64_t *slots; /* CRAWL_SEEN_WAYS fingerprints a set, 0: empty */
};

heed_status heed__seen_init(struct heed__seen *s,
                            const struct heed_allocator *a);
void heed__seen_free(struct heed__seen *s);
uint64_t heed__seen_fingerprint(const char *url);
/* Starts loading fp's set, for a heed__seen_has soon after. */
void heed__seen_prefetch(const struct heed__seen *s, uint64_t fp);
bool heed__seen_has(const struct heed__seen *s, uint64_t fp);
void heed__seen_add(struct heed__seen *s, uint64_t fp);

/* A site's rules in force (rules.c): RFC 9309 for heed's group and ACAP
 * fields, both parsed from one robots.txt body; all NULL: no rules. */
struct heed__rules {
	heed_robots *robots;
	heed_robots_agent *agent;
	heed_acap *acap; /* NULL when the file has no ACAP field */
};

/* Parses body (len bytes; NULL: no rules) for agent. HEED_OK or
 * HEED_ENOMEM (then r holds no rules). */
heed_status heed__rules_load(struct heed__rules *r, const char *body,
                             size_t len, const char *agent,
                             const struct heed_allocator *a);
void heed__rules_free(struct heed__rules *r);
/* May heed fetch url? Both rule sets must agree (the more restrictive
 * reading, docs/acap.md): RFC 9309's group for heed and ACAP's crawl. */
bool heed__rules_may_crawl(const struct heed__rules *r, const char *agent,
                           const char *url, int64_t now_s);
/* ACAP's answer for usage on url: true when no ACAP field applies; false
 * when the decision failed (out of memory: the polite answer). */
bool heed__rules_acap_permits(const struct heed__rules *r, const char *agent,
                              heed_acap_usage usage, const char *url,
                              int64_t now_s);

/* The stored record text with the oEmbed answer o of endpoint merged in
 * (record_oembed.c; docs/metadata.md, "oEmbed"): the page's own fields
 * stay, o fills the ones it lacks (title, author, publisher, thumbnail;
 * source "oembed"), and "oembed" holds the rest of the answer. *filled
 * gets the fields filled. NULL when record is not a JSON object or memory
 * ran out; the caller frees the text with a. */
char *heed__crawl_record_oembed(const struct heed_allocator *a,
                                const char *record, const struct heed_oembed *o,
                                const char *endpoint, unsigned *filled);
/* The permissions JSON stored with a page (permissions_json.c; the
 * caller frees it with the allocator), NULL when out of memory. The
 * record beside it comes from heed_extract_record_json(); description is
 * its description (NULL: none), of which the permissions say how much
 * the search index may hold. */
char *heed__crawl_permissions_json(const struct heed_allocator *a,
                                   const struct heed__rules *r, const char *url,
                                   const struct heed_extract_robots *d,
                                   const char *description, const char *agent,
                                   int64_t now_s);

/*
 * The courtesy witness (ledger.c): an account of request starts per host,
 * kept apart from the politeness module it checks. Every start is entered
 * before it is handed out; a start under floor_ms after the host's last
 * start that reached the server, or while the host has one in flight, is a
 * breach. Test and debug builds abort on a breach (ctl.c).
 */
struct heed__ledger_entry;
struct heed__ledger {
	const struct heed_allocator *alloc;
	int64_t floor_ms;
	struct heed__ledger_entry **buckets;
	size_t bucket_count, count;
	uint64_t starts, breaches;
};

void heed__ledger_init(struct heed__ledger *l, int64_t floor_ms,
                       const struct heed_allocator *a);
void heed__ledger_free(struct heed__ledger *l);
/* Enters a start to host at now_ms. false on a breach (*gap_ms: the gap
 * to the last start, or -1 when one is still in flight) or when out of
 * memory (*gap_ms 0: nothing could be checked, nothing is entered). */
bool heed__ledger_start(struct heed__ledger *l, const char *host,
                        int64_t now_ms, int64_t *gap_ms);
/* The start entered last for host ended: the server had it by heard_ms
 * (connected; 0: by the end, now_ms), or it never reached the server (the
 * previous start counts again). */
void heed__ledger_end(struct heed__ledger *l, const char *host, bool connected,
                      int64_t heard_ms, int64_t now_ms);

/* What a lane's job fetches. Pages, sitemaps, feeds and oEmbed answers
 * match heed_frontier_kind. */
enum heed__job_kind {
	JOB_PAGE = HEED_FRONTIER_PAGE,
	JOB_SITEMAP = HEED_FRONTIER_SITEMAP,
	JOB_FEED = HEED_FRONTIER_FEED,
	JOB_OEMBED = HEED_FRONTIER_OEMBED, /* fills the record of job.from */
	JOB_ROBOTS,  /* the site's robots.txt, for its lifecycle */
	JOB_ACAPREF, /* a file an ACAP-permissions-reference names */
};

/* A URL's visit row read once for its request (visits.c): the request's
 * validators, the answer's comparison with the last body and the new row
 * all use that one read, not one store round trip each. */
struct heed__visit_read {
	enum { VISIT_UNREAD, VISIT_NONE, VISIT_KNOWN } state;
	struct heed_visit row; /* VISIT_KNOWN: owned, cleared with the
	                          request (heed__req_free) */
};

struct heed__job {
	int64_t id;      /* the frontier row; 0 for robots.txt */
	const char *url; /* the node's copy */
	int depth;
	enum heed__job_kind kind;
	int64_t lastmod;  /* sitemap or feed date; HEED_STORE_NO_DATE */
	int tries;        /* attempts that failed for a passing reason */
	size_t address;   /* robots.txt: which of the target's addresses;
	                     ACAP reference: its index in the site's refs */
	const char *from; /* the URL that named this one, or NULL (the
	                     node's copy): an oEmbed job's page */
	struct heed__visit_read *visit; /* its request's, or NULL */
};

struct heed__job_node {
	struct heed__job_node *next;
	struct heed__job job;
	char url[]; /* job.url points here, job.from past its NUL */
};

/*
 * A lane is a site's queue in the scheduler (sched.c): a window of jobs in
 * memory (the rest wait in the store), at most one job in flight, and a
 * place in the ready heap keyed by the earliest time it may be tried.
 * Invariant: a lane is in the heap exactly when it has work, no job in
 * flight, no refill pending, is not parked, held without a robots.txt job
 * first, or dropped.
 */
struct heed__lane {
	struct heed__job_node *head, *tail; /* the window */
	size_t window_len;
	struct heed__job_node *current; /* in flight, or NULL */
	int64_t key_ms;                 /* heap key: not before */
	uint64_t key_seq;               /* ties: first come first served */
	int64_t pages;                  /* page jobs started in this run */
	int64_t max_pages;              /* the site's own limit; 0: the run's */
	ptrdiff_t heap_index;           /* -1 when not in the heap */
	struct heed__lane *park_next;   /* in an address's parked list */
	bool more;      /* the store holds queued jobs beyond the window */
	bool refilling; /* REFILL handed out, refilled() pending */
	bool dropped;   /* never scheduled again */
	bool held;      /* only a robots.txt job may start */
	bool refs_only; /* held, but ACAP reference jobs may start too */
	bool parked;    /* waiting for room at an address */
	bool candidate; /* handed out by next(), its fate pending */
	bool listed;    /* in the scheduler's list of lanes to refill */
};

struct heed__sched {
	const struct heed_allocator *alloc;
	unsigned max_active;
	int64_t max_pages;
	struct heed__lane **heap;
	size_t heap_len, heap_cap;
	/* Lanes put in the heap without a window, for take_refills; each
	 * checked when taken, since it may have got one or left since. */
	struct heed__lane **refills;
	size_t refills_len, refills_cap;
	uint64_t next_seq;
	size_t in_flight, window_jobs;
	int64_t pages_started, requests;
};

/* What heed__sched_next() asks the caller to do. */
enum heed__sched_verdict {
	SCHED_CANDIDATE, /* *lane's head job may start: call start, defer,
	                    park or take for it */
	SCHED_REFILL,    /* load *lane's window, then call refilled() */
	SCHED_DROP,      /* *lane reached its page limit: its rest goes */
	SCHED_WAIT,      /* nothing due: call again within *wait_ms */
	SCHED_BUSY,      /* max_active in flight: call after a done() */
	SCHED_IDLE,      /* nothing ready, fetches in flight or lanes held */
};

void heed__sched_init(struct heed__sched *s, const struct heed_allocator *a,
                      unsigned max_active, int64_t max_pages);
void heed__sched_free(struct heed__sched *s);
void heed__lane_init(struct heed__lane *l);
/* Frees the lane's jobs (the lane itself is its owner's). */
void heed__lane_free(struct heed__sched *s, struct heed__lane *l);
/* The store holds queued jobs of l; pages_done of its pages were already
 * fetched in this run (they count against max_pages). */
heed_status heed__sched_more(struct heed__sched *s, struct heed__lane *l,
                             int64_t pages_done, int64_t now_ms);
/* Appends a copy of job to l's window (front: first, for robots.txt). */
heed_status heed__sched_push(struct heed__sched *s, struct heed__lane *l,
                             const struct heed__job *job, bool front,
                             int64_t now_ms);
/* Queues job in l's window after the jobs of kind at its front (at the
 * front when there are none). */
heed_status heed__sched_push_after(struct heed__sched *s, struct heed__lane *l,
                                   const struct heed__job *job,
                                   enum heed__job_kind kind, int64_t now_ms);
heed_status heed__sched_hold(struct heed__sched *s, struct heed__lane *l,
                             bool held, int64_t now_ms);
/* Forgets l's window and never schedules it again. */
void heed__sched_drop(struct heed__sched *s, struct heed__lane *l);
/* Forgets l's window, in memory only (its URLs stay queued in the store),
 * and holds it as a new site's lane: a worker handing its site to another
 * (worker.c). l has no job in flight, is not parked nor refilling. */
void heed__sched_reset(struct heed__sched *s, struct heed__lane *l);
/* Forgets the jobs of l's window that are rows of the store (a job id),
 * in memory only, so that the next refill reads them again with rows
 * that came back below them (lifecycle.c's dropped rows); jobs of no row
 * (robots.txt, ACAP references) stay in their order. l is not refilling,
 * and a job parked or handed out by next() at its head is of no row (a
 * held lane's); a job in flight is not in the window. */
heed_status heed__sched_rewind(struct heed__sched *s, struct heed__lane *l,
                               int64_t now_ms);
/* l's window was loaded (more: the store may hold more): l goes back to
 * the heap at now_ms, or at its key if that is later (a lane taken by
 * take_refills before its time). */
heed_status heed__sched_refilled(struct heed__sched *s, struct heed__lane *l,
                                 bool more, int64_t now_ms);
/* Takes out of the heap up to max lanes that wait for their next window,
 * whatever their time, into lanes[], each refilling as after next()'s
 * SCHED_REFILL: one read of the store loads them with the lane next()
 * handed out. Returns how many. */
size_t heed__sched_take_refills(struct heed__sched *s,
                                struct heed__lane **lanes, size_t max);
enum heed__sched_verdict heed__sched_next(struct heed__sched *s, int64_t now_ms,
                                          struct heed__lane **lane,
                                          int64_t *wait_ms);
/* The fate of a candidate: it starts (its head job is in flight); it is
 * tried again at until_ms; it waits, parked, for offer(); or its head job
 * is taken away unstarted (the caller frees the node) and the lane goes
 * back to the heap. */
void heed__sched_start(struct heed__sched *s, struct heed__lane *l);
heed_status heed__sched_defer(struct heed__sched *s, struct heed__lane *l,
                              int64_t until_ms);
/* Undoes start(): l's job in flight goes back to the front of its window,
 * as if it had never started, and l is offered again at now_ms. */
heed_status heed__sched_unstart(struct heed__sched *s, struct heed__lane *l,
                                int64_t now_ms);
void heed__sched_park(struct heed__sched *s, struct heed__lane *l);
struct heed__job_node *heed__sched_take(struct heed__sched *s,
                                        struct heed__lane *l, int64_t now_ms);
/* A parked lane stays out of the heap, whatever work comes, until
 * unpark() (its address has room). */
heed_status heed__sched_unpark(struct heed__sched *s, struct heed__lane *l,
                               int64_t now_ms);
/* Puts l back in the heap at now_ms if it may be scheduled (after a
 * release, new work, its job's end). */
heed_status heed__sched_offer(struct heed__sched *s, struct heed__lane *l,
                              int64_t now_ms);
/* Ends l's job in flight (freed); l is offered again at now_ms. */
heed_status heed__sched_done(struct heed__sched *s, struct heed__lane *l,
                             int64_t now_ms);
bool heed__lane_has_work(const struct heed__lane *l);
/* Whether any lane waits to start a request (now or later). */
bool heed__sched_has_work(const struct heed__sched *s);

/* ---- the registry (table.c) ---- */

enum heed__dns_state {
	DNS_NONE = 0, /* never asked */
	DNS_QUEUED,   /* waiting for a look-up slot (or its retry time) */
	DNS_RUNNING,  /* a RESOLVE action is out */
	DNS_DONE,     /* addresses known */
	DNS_FAILED,   /* no usable address: dns_error says why */
};

/* A host name: what DNS resolves and politeness counts. */
struct heed__host {
	struct heed__host *next; /* hash chain */
	char *name;              /* "a.example", "::1" */
	struct heed_dns_addr *addrs;
	size_t addr_count, addr_next; /* addr_next: the one pages use */
	enum heed__dns_state dns;
	unsigned dns_tries;
	struct heed__host *dns_next; /* the look-up queue */
	struct heed__site *waiting;  /* sites waiting for its addresses */
	char dns_error[256];
	bool restored;          /* its stored back-off is in politeness */
	bool absent;            /* the store was found to hold no row of it */
	bool unarranged;        /* the store holds no arrangement for it */
	bool refused;           /* failed because heed's own policy refuses its
	                           addresses, not because of the host */
	int64_t crawl_delay_ms; /* the longest of its sites' Crawl-delays */
	bool stored_backoff;    /* the store holds a back-off or delay for it */
	struct heed__arranged *arr; /* its owner's arrangement, or NULL */
	bool arr_loaded;            /* arr was looked up in the store */
	/* A worker's lease on the host, all its sites (worker.c); unix ms.
	 * The host, not the site, is leased: politeness counts by host. */
	bool leased;         /* held: its sites' lanes may run */
	bool lease_lost;     /* lost: nothing starts, forgotten once idle */
	bool lease_busy;     /* a sweep's mark: a site of it is not idle */
	bool lease_work;     /* a sweep's mark: a site of it has work */
	bool touched;        /* the open batch wrote for it (the fence) */
	int64_t lease_token; /* of the grant held */
	int64_t lease_epoch; /* this worker's heartbeat epoch at the grant */
	int64_t lease_until; /* the lease holds while now < this */
	int64_t last_start;  /* this worker's last request start to it, 0 */
};

/* An arrangement with a host's owner as the crawl applies it (arranged.c;
 * heed/arrangement.h). */
struct heed__arranged {
	heed_arrangement_mode mode;
	int64_t delay_ms, max_pages; /* 0: none */
	struct heed_arrangement_window windows[HEED_ARRANGEMENT_MAX_WINDOWS];
	size_t window_count;
	struct heed__rules paths; /* include/exclude; all NULL: none */
	char *endpoint;           /* or NULL */
	heed_arrangement_endpoint_kind endpoint_kind;
};

enum heed__site_state {
	SITE_NEW = 0,    /* registered, lifecycle not started */
	SITE_QUALIFYING, /* the robots.txt lifecycle runs */
	SITE_RESOLVING,  /* qualified; waiting for its host's addresses */
	SITE_READY,      /* its URLs may be fetched */
	SITE_OUT,        /* not qualified, or no address: skipped */
};

/* The robots.txt lifecycle of a site, while it runs (lifecycle.c). */
struct heed__life {
	heed_site *machine;
	struct heed_site_record stored; /* as the store held it */
	char *url;                      /* the robots.txt URL asked now */
	struct heed__host *target;      /* its host */
	char *answer_url;               /* the URL of the last answer */
	char *body;                     /* the last 2xx body */
	size_t body_len;
	char *content_type;
	int64_t crawl_delay_ms;
	unsigned attempts;
	bool fetching; /* a robots.txt job is queued or in flight */
	/* Conditional re-checks: the stored row when its body
	 * may be confirmed by a 304 (robots_body NULL otherwise), the
	 * validators of the answer in body, whether the attempt in flight
	 * carries validators, and whether body was confirmed by a 304. */
	struct heed_store_site kept;
	char *etag, *last_modified;
	bool conditional, not_modified;
};

/* A file an ACAP-permissions-reference field names, asked in this run
 * (acapref.c). */
struct heed__acapref {
	char *locator;              /* as written in robots.txt */
	char *url;                  /* asked now (a redirect's target) */
	char *etag, *last_modified; /* of the stored body, for a 304 */
	char *stored;               /* the stored body a 304 confirms */
	size_t stored_len;
	unsigned hops;    /* redirects followed */
	bool conditional; /* the request out carries the validators */
	/* A file another site's robots.txt names, asked in this site's
	 * lane under its rules; NULL: this site's own. */
	struct heed__site *referrer;
	bool settled; /* answered, failed or given up */
	bool pushed;  /* its job is in the lane */
};

/* A frontier row whose in-flight mark is owed: its id and its site's
 * origin (the site's own string, kept for the run), which the store's
 * writes name beside the id. */
struct heed__unmarked {
	int64_t id;
	const char *origin;
};

/* A site: an origin, the unit of robots.txt and of the queue. */
struct heed__site {
	struct heed__site *next; /* hash chain */
	char *origin;            /* "http://a.example:8080" */
	const char *host_key;    /* origin past "://" (the pages' host) */
	struct heed__host *host;
	struct heed__lane lane;
	enum heed__site_state state;
	struct heed__site *new_next;   /* the list of sites to start */
	struct heed__site *offer_next; /* c->offers */
	struct heed__site *wait_next;  /* its host's waiting list */
	struct heed__site *start_next; /* c->w's sites to start (worker.c) */
	struct heed__life *life;       /* while QUALIFYING */
	/* Rows the store was found not to hold of it when it started
	 * (HEED_STORE_KNOWN_* bits of sites, visits, ACAP references): not
	 * asked for until the run writes one (reads.c, batch.c). */
	unsigned absent;
	bool asked; /* absent is the store's answer (reads.c) */
	struct heed__rules rules;
	struct heed__acapref *refs; /* asked in this run, or NULL */
	size_t ref_count;
	size_t refs_waiting;    /* its files asked on other sites, pending: its
	                           lane stays held until none is */
	int64_t last_loaded_id; /* the frontier window loaded up to here */
	bool listed;            /* on the list of sites to start */
	bool offered;       /* on c->offers: a worker's site it does not hold */
	bool in_scope;      /* a seed's site: its links are followed */
	bool has_source;    /* incremental: a sitemap or feed answered */
	bool known_queued;  /* heed__queue_known ran */
	bool known_sources; /* the store knows a sitemap or feed of it */
	/* The store held no visit of it when heed__queue_known read its
	 * known URLs: a URL of it has a row only once this run wrote one,
	 * which only a retry reads, so visits.c asks the store for no other
	 * (a first crawl's two reads a URL, each answering "none"). */
	bool visits_none;
	/* This process dropped URLs of it, or resumed it with dropped ones:
	 * the store may hold dropped rows of it, which its start asks back
	 * (lifecycle.c). A new run's frontier starts empty and a resumed
	 * run asks back every site's dropped rows as it opens, so without
	 * this a site's start asks nothing: on PostgreSQL a statement, and
	 * its round trip, saved at every site's start. */
	bool maybe_dropped;
	/* On c->w's list: its host is held, and it starts from the store at
	 * a later turn of next() (worker.c); its host is kept till then. */
	bool to_start;
};

/* Sites waiting for room at one address (BUSY), first come first served. */
struct heed__addrq {
	struct heed__addrq *next; /* hash chain */
	struct heed__lane *head, *tail;
	char text[46];
};

/* A timer: a site's lifecycle pause, or a host's look-up retry. */
struct heed__timer {
	int64_t at_ms;
	struct heed__site *site; /* or NULL */
	struct heed__host *host; /* or NULL */
};

/* An action in progress (heed_crawl_req in heed/crawl.h). */
struct heed_crawl_req {
	struct heed_crawl_req *prev, *next; /* c->reqs */
	bool is_dns;
	struct heed__host *host; /* DNS: the name; fetch: politeness key */
	struct heed__site *site; /* fetch */
	struct heed__job job;    /* fetch: a copy (url points into the
	                            lane's current node) */
	struct heed_dns_addr addr;
	char *headers[2];
	size_t header_count;
	heed_content_kind kind;        /* from the answer's Content-Type */
	struct heed__visit_read visit; /* job.visit points here */
};

/* ---- the controller ---- */

struct heed_crawl {
	const struct heed_allocator *alloc;
	const struct heed_crawl_options *opt;
	struct heed_logger log;
	heed_store *store;
	heed_polite *polite;
	struct heed__sched sched;
	struct heed__seen seen;
	struct heed__ledger ledger;
	struct heed_crawl_clock now; /* of the call being handled */
	heed_crawl_mode mode;
	int64_t run_id;
	int64_t start_ms;
	int64_t lease_ms;      /* our committed lease (Unix ms) */
	int64_t prev_lease_ms; /* the last holder's, as found */
	/* The registry. */
	struct heed__site **sites;
	size_t site_buckets, site_count;
	struct heed__host **hosts;
	size_t host_buckets, host_count;
	struct heed__addrq **addrqs;
	size_t addrq_buckets, addrq_count;
	struct heed__site *new_head, *new_tail; /* sites to start */
	/* Sites with work whose hosts another worker may hold: offered to
	 * every worker in the next batch (batch.c). */
	struct heed__site *offers;
	struct heed__host *dns_head, *dns_tail; /* look-ups to start */
	size_t dns_running;
	struct heed__timer *timers; /* a min-heap by at_ms */
	size_t timer_count, timer_cap;
	struct heed_crawl_req *reqs; /* every request out */
	size_t qualifying;           /* sites whose lifecycle runs */
	size_t resolving;            /* sites waiting for addresses */
	/* The open batch. */
	bool in_tx;
	int tx_writes;
	/* Frontier rows whose request started in the open batch and is not
	 * marked in flight in the store yet (batch.c, heed__crawl_in_flight).
	 */
	struct heed__unmarked *unmarked;
	size_t unmarked_count, unmarked_cap;
	int64_t tx_start_ms;
	/* URLs handed to the store whose answer (new or not) is not yet
	 * taken (queue.c, heed__queue_take_added), and since when. */
	size_t adds_untold;
	int64_t adds_since_ms;
	int64_t indexed_ms; /* when the search index last caught up */
	/* The engine catches the index up beside the crawl until its end
	 * (heed_crawl_index_beside). */
	bool index_beside;
	int64_t run_pages, run_errors; /* added to the run row per batch */
	heed_status failed;            /* a store error or OOM ends the run */
	/* The batch was lost with the store's connection: nothing is
	 * written or started until the sites start again from the store
	 * (ctl.c, redo). */
	bool rewinding;
	/* A batch committed: what the run's start queued, in the first
	 * batch, is in the store (ctl.c, redo). */
	bool committed;
	bool stopped, started, waited_out;
	/* A worker's leases (worker.c); NULL holder: a crawl alone. */
	struct heed__worker {
		int64_t next_beat, next_claim, next_poll; /* mono ms */
		int64_t beat_at;  /* mono ms of the last beat */
		bool growing;     /* the last claim granted a host */
		int64_t live;     /* workers alive at the last beat */
		int64_t share;    /* the fair share of the sites with work */
		int64_t sized;    /* sites the rate calls for (worker.c) */
		size_t held;      /* sites held */
		size_t held_most; /* the most held at once */
		double rate;      /* requests started a second, moving */
		int64_t rate_at;  /* mono ms of rate's last sample */
		int64_t rate_requests; /* p.requests at rate_at */
		bool store_idle; /* the last poll: no site held or claimable
		                    by anyone, nothing to come */
		struct heed__host **touched; /* held hosts the open batch
		                                wrote for */
		size_t touched_count, touched_cap;
		/* Sites of granted hosts not yet started, started a part
		 * a turn (worker.c). */
		struct heed__site *start_head, *start_tail;
	} w;
	struct heed_crawl_progress p;
};

/* ---- the run (run.c) ---- */

/* The clock of the call, in the units the parts take. */
int64_t heed__crawl_unix_s(const heed_crawl *c);
struct heed_polite_clock heed__crawl_polite_clock(const heed_crawl *c);
/* The longest a request may take to leave once started: its connect
 * timeout (heed/net.h: 0 means the default). */
int64_t heed__crawl_leave_ms(const struct heed_crawl_options *opt);
/* Out of memory: the run ends after the current call. */
void heed__crawl_oom(heed_crawl *c);
/* Is this crawl one of several workers on its store? */
bool heed__worker_on(const heed_crawl *c);

/* The registry (table.c). */
struct heed__site *heed__site_find(heed_crawl *c, const char *origin);
/* The site of origin, created (state NEW, on the list of sites to start)
 * when new: host is its host name. NULL on allocation failure. */
struct heed__site *heed__site_get(heed_crawl *c, const char *origin,
                                  const char *hostname);
/* The site of url, created (in scope) when create is set or when the
 * crawl has the same host and port under the other scheme; NULL for
 * another site, and for a URL that is not http(s). */
struct heed__site *heed__site_of_url(heed_crawl *c, const char *url,
                                     bool create);
struct heed__site *heed__site_of_lane(struct heed__lane *l);
/* The one place a site's state changes: logged at -v (debug). */
void heed__site_set_state(heed_crawl *c, struct heed__site *s,
                          enum heed__site_state state);
/* "new", "qualifying", ...: static. */
const char *heed__site_state_name(enum heed__site_state state);
/* Puts a site that is still NEW on the list of sites to start. */
void heed__site_list_new(heed_crawl *c, struct heed__site *s);
struct heed__host *heed__host_get(heed_crawl *c, const char *name);
/* Parks l until a request to address ends; wakes up to n lanes. */
heed_status heed__addrq_park(heed_crawl *c, const char *address,
                             struct heed__lane *l);
void heed__addrq_wake(heed_crawl *c, const char *address, unsigned n);
/* Wakes as many lanes parked at address as it has room for now. */
void heed__addrq_wake_address(heed_crawl *c, const char *address);
/* Wakes, at every address, as many parked lanes as it has room for now.
 * A request's end wakes the lanes its room allows; when a woken lane
 * leaves without starting (its site forgotten, its host handed to
 * another worker) or an address's room grows (fewer workers share it),
 * this hands the room to the lanes still parked, which no end would
 * otherwise wake. */
void heed__addrq_wake_room(heed_crawl *c);
/* Wakes every lane parked at any address, room or not (a lost batch's
 * redo); returns how many. */
size_t heed__addrq_wake_all(heed_crawl *c);
heed_status heed__timer_add(heed_crawl *c, int64_t at_ms,
                            struct heed__site *site, struct heed__host *host);
/* The earliest timer, or NULL. */
const struct heed__timer *heed__timer_peek(const heed_crawl *c);
void heed__timer_pop(heed_crawl *c, struct heed__timer *out);
void heed__life_free(heed_crawl *c, struct heed__life *l);
struct heed_crawl_req *heed__req_new(heed_crawl *c);
void heed__req_free(heed_crawl *c, struct heed_crawl_req *r);
/* Adds If-None-Match: etag and If-Modified-Since: last_modified to req,
 * each when given (a value that holds CR or LF is not sent back); returns
 * how many were added. */
size_t heed__req_validators(heed_crawl *c, struct heed_crawl_req *req,
                            const char *etag, const char *last_modified);
void heed__table_free(heed_crawl *c);

/* The memory of each URL between runs (visits.c). */
/* true when url of site s, found at depth (hint: a sitemap or feed date,
 * or HEED_STORE_NO_DATE), is known and need not be asked now: a page not
 * due in the default mode, a start page not due in the incremental mode
 * once the site's sources are known, a sitemap or feed still fresh. */
bool heed__visit_skip(heed_crawl *c, const struct heed__site *s,
                      const char *url, enum heed__job_kind kind, int depth,
                      int64_t hint);
/* heed__visit_skip's judgement of v, the URL's row read already. */
bool heed__visit_skip_row(heed_crawl *c, const struct heed__site *s,
                          const struct heed_visit *v, enum heed__job_kind kind,
                          int depth, int64_t hint);
/* What is known of a URL's visit row when it is queued. */
enum heed__judged {
	HEED__JUDGED_NOT,     /* nothing: heed__visit_skip reads it */
	HEED__JUDGED_WANTED,  /* read: to be asked (or no row) */
	HEED__JUDGED_NOT_DUE, /* read: heed__visit_skip would skip it */
};
/* heed__visit_skip for n pages of site s found at depth, urls[i] with the
 * date hints[i], their rows read together: out[i] for each. A URL of
 * another site, or all of them after a store error, stay
 * HEED__JUDGED_NOT. */
void heed__visit_judge(heed_crawl *c, const struct heed__site *s,
                       const char *const *urls, const int64_t *hints, size_t n,
                       int depth, enum heed__judged *out);
/* Adds the validators of the URL's last 2xx to req, unless whole is set or
 * the run refreshes everything. */
void heed__visit_headers(heed_crawl *c, const struct heed__site *s,
                         struct heed_crawl_req *req, bool whole);
/* true when r's body, whose digest is digest, is the URL's last body
 * (never with --refresh all). */
bool heed__visit_same_body(heed_crawl *c, const struct heed__site *s,
                           const struct heed__job *job,
                           const struct heed_net_response *r,
                           const char *digest);
/* Copies the digest of the URL's last body into known ("" when there is
 * none, or with --refresh all): what heed__visit_same_body compares. */
void heed__visit_known_digest(heed_crawl *c, const struct heed__site *s,
                              const struct heed__job *job,
                              char known[CRAWL_KNOWN_DIGEST]);

/* What a visit found, for heed__visit_record. */
struct heed__visit_found {
	heed_revisit_outcome outcome;
	int64_t modified_at;  /* evidence (heed/revisit.h); or NO_DATE */
	const char *digest;   /* of a 2xx body; NULL keeps the stored one */
	bool body;            /* a 2xx body was read: its validators count */
	bool keep_validators; /* false: the row keeps none (a page whose
	                         record heed does not hold) */
	bool due_now;         /* ask for it again in the next run */
};
/* Writes the URL's visit row after answer r (any status). */
void heed__visit_record(heed_crawl *c, struct heed__site *s,
                        const struct heed__job *job,
                        const struct heed_net_response *r,
                        const struct heed__visit_found *found);

/* The frontier (queue.c). */
/* Queues url (kind, depth, from may be NULL, lastmod) unless this run saw
 * it; a seed (depth 0, no from) registers its site. Checks scope and
 * limits; counts what it skips. */
void heed__queue_add(heed_crawl *c, const char *url, enum heed__job_kind kind,
                     int depth, const char *from, int64_t lastmod);
/* heed__queue_add of a URL whose fingerprint (heed__seen_fingerprint) the
 * caller took already, to prefetch its set. */
void heed__queue_add_seen(heed_crawl *c, const char *url, uint64_t fp,
                          enum heed__job_kind kind, int depth, const char *from,
                          int64_t lastmod);
/* heed__queue_add of a URL whose visit row was judged (heed__visit_judge). */
void heed__queue_add_judged(heed_crawl *c, const char *url,
                            enum heed__job_kind kind, int depth,
                            const char *from, int64_t lastmod,
                            enum heed__judged judged);
/* Queues the URLs the store knows of a start URL's site s that this run
 * should ask (visits.c decides): due pages (the default mode) and the
 * site's sitemaps and feeds. Once per site and process. */
void heed__queue_known(heed_crawl *c, struct heed__site *s);
/* Takes the store's answers to the URLs queued (which were new) and gives
 * their sites the work: a PostgreSQL store answers a batch's URLs
 * together, so the controller takes them when it needs them rather than
 * wait on each. */
void heed__queue_take_added(heed_crawl *c);
void heed__queue_refill(heed_crawl *c, struct heed__site *s);
void heed__queue_drop(heed_crawl *c, struct heed__site *s, const char *why);
/* Whether s may be forgotten now: nothing in flight or about to be, no
 * lifecycle or look-up running, no file asked for it or by it elsewhere
 * pending (worker.c). */
bool heed__site_idle(const struct heed__site *s);
/* heed__site_idle whatever its state: nothing of s in flight or about to
 * be, no file asked for it or by it elsewhere pending. */
bool heed__site_at_rest(const struct heed__site *s);
/* Forgets what this process knew of s's queue and rules (s idle): its
 * URLs wait in the store, and s starts afresh from there when it has
 * work again (a worker's next grant, a redone batch). */
void heed__queue_forget(heed_crawl *c, struct heed__site *s);
/* Starts the n forgotten sites again from the store: the URLs in flight
 * when each was forgotten go back in its queue (their answers were never
 * recorded; one write for all n), its window is loaded and its known URLs
 * queued again. */
void heed__queue_restart(heed_crawl *c, struct heed__site **sites, size_t n);

/* ---- the batch (batch.c) ---- */

/* Opens the batch transaction when needed; false after a store error. */
bool heed__crawl_tx(heed_crawl *c);
/* Commits the open batch, if any: a worker's only for hosts it still
 * holds; a batch the store lost is redone (a failure ends the run). */
void heed__crawl_commit(heed_crawl *c);
/* Between batches: the search index catches up with the pages written
 * once it is twice CRAWL_INDEX_MS behind (spare time came too seldom), or
 * now when all (the end of the run). A failure is logged and leaves the
 * marks for the next time. */
void heed__crawl_index(heed_crawl *c, bool all);
/* The crawl has spare_ms with nothing out and nothing due: from
 * CRAWL_SPARE_MS, the open batch commits, and the search index catches up
 * once it is CRAWL_INDEX_MS behind. Only where the crawl's thread keeps
 * the index (SQLite): where it is kept beside the crawl (PostgreSQL) the
 * commit alone was left, and committing then cut a crawl's batches short
 * (10,000 sites x 11 pages: 15-30 % fewer pages a second, more commits). */
void heed__crawl_spare(heed_crawl *c, int64_t spare_ms);
/* The request for frontier row id of site origin (the site's own string)
 * started: the row is marked in flight when the batch commits, unless
 * heed__crawl_unmark says before that the URL was settled otherwise (most
 * answers come within the batch, and one write of the row then does for
 * two). */
void heed__crawl_in_flight(heed_crawl *c, const char *origin, int64_t id);
/* Row id is about to be written with its outcome: no in-flight mark for
 * it is needed any more. */
void heed__crawl_unmark(heed_crawl *c, int64_t id);
/* Writes the in-flight marks still owed, before a statement that reads or
 * changes rows by their state (a site's queue dropped or requeued). */
void heed__crawl_mark_in_flight(heed_crawl *c);
/* Records a store failure: the run ends after the current call, or, for
 * a batch the store lost, the batch is redone. */
void heed__crawl_store_failed(heed_crawl *c, const char *what);
/*
 * The batch's writes, the one door of the controller's durable effects:
 * each opens the batch when needed and records a failure (what, for the
 * log, where the caller names it); true when written. While no batch
 * takes writes (a failed run, a lost batch being redone) nothing is
 * written and they return false.
 */
bool heed__batch_page_put(heed_crawl *c, const struct heed_stored_page *p,
                          const char *what);
/* A page answered unchanged: its check date (and source_lastmod, unless
 * HEED_STORE_NO_DATE). HEED_ENOTFOUND when heed holds no record of url;
 * HEED_OK also when no batch takes writes. */
heed_status heed__batch_page_unchanged(heed_crawl *c, const char *url,
                                       int64_t source_lastmod);
bool heed__batch_page_delete(heed_crawl *c, const char *url, bool prefix,
                             int64_t *deleted, const char *what);
bool heed__batch_visit_put(heed_crawl *c, const struct heed_visit *v);
bool heed__batch_site_put(heed_crawl *c, const struct heed_store_site *row);
bool heed__batch_host_put(heed_crawl *c, const char *name,
                          const struct heed_store_host *row);
bool heed__batch_acap_ref_put(heed_crawl *c,
                              const struct heed_store_acap_ref *row);
bool heed__batch_acap_ref_delete(heed_crawl *c, const char *origin,
                                 const char *locator);
/* e queued if new, whether it was told by heed__batch_frontier_added. */
bool heed__batch_frontier_add(heed_crawl *c,
                              const struct heed_frontier_entry *e);
/* Calls fn with the site of each URL the batches added that was new
 * (heed_store_frontier_added); false after a store error. */
bool heed__batch_frontier_added(heed_crawl *c, heed_store_added_fn *fn,
                                void *ud);
/* Frontier row id of site origin done with outcome (its in-flight mark
 * no longer owed). */
bool heed__batch_frontier_done(heed_crawl *c, const char *origin, int64_t id,
                               int outcome);
/* Row id of site origin back in the queue for another attempt; *tries,
 * its attempts. */
bool heed__batch_frontier_retry(heed_crawl *c, const char *origin, int64_t id,
                                int *tries);
/* A site's queued URLs dropped (the marks owed written first: a URL in
 * flight is not dropped), and put back; the counts in *dropped, *requeued
 * (may be NULL). */
bool heed__batch_frontier_drop(heed_crawl *c, const char *origin,
                               int64_t *dropped, const char *what);
bool heed__batch_frontier_undrop(heed_crawl *c, const char *origin,
                                 int64_t *requeued);
/* The n sites' URLs in flight back in their queues, requeued[i] how many
 * of origins[i]'s: written also while a lost batch is redone, which starts
 * sites again this way. */
bool heed__batch_frontier_recover(heed_crawl *c, const char *const *origins,
                                  size_t n, int64_t *requeued);
/* The open batch writes for h (a held host's pages, queue, records). */
void heed__worker_touch(heed_crawl *c, struct heed__host *h);
/* Before the batch commits: whether every held host it wrote for is still
 * held (the rows of those that are stay locked until the commit); false
 * when one was lost: the batch must not commit. */
bool heed__worker_fence(heed_crawl *c);
/* h's lease is lost (why, for the log): no request to it starts here. */
void heed__lease_lose(heed_crawl *c, struct heed__host *h, const char *why);
/* Frees the batch's lists of hosts and of marks owed. */
void heed__worker_free(heed_crawl *c);

/* ---- the reads (reads.c) ---- */

/*
 * The controller's only reads of the store's rows: each returns what the
 * store's function of the same kind returns, with the same outputs (freed
 * the same way), and records a failure (out of memory, or a store failure
 * as heed__crawl_store_failed does) before returning it. HEED_ENOTFOUND
 * is an answer, not a failure.
 */
/* Learns, in one question for all n sites about to start, which rows the
 * store holds of each (heed_store_sites_known): those it does not are then
 * not asked for one by one. A worker's answers are true while it holds
 * the site's host, as no other worker writes its rows then: it forgets
 * them when it hands the host back (worker.c), and those of the sites of
 * its start URLs, asked before it holds any host, once their known URLs
 * are queued (ctl.c). */
void heed__read_known(heed_crawl *c, struct heed__site **sites, size_t n);
/* Forgets what heed__read_known learnt of s and its host: s asks again
 * when it starts. A worker's answers hold only while it holds the host. */
void heed__read_known_forget(struct heed__site *s);
heed_status heed__read_site(heed_crawl *c, const char *origin,
                            struct heed_store_site *row);
heed_status heed__read_host(heed_crawl *c, const char *name,
                            struct heed_store_host *row);
heed_status heed__read_arrangement(heed_crawl *c, const char *name,
                                   struct heed_arrangement *a);
heed_status heed__read_visit(heed_crawl *c, const char *origin, const char *url,
                             struct heed_visit *v);
heed_status heed__read_visits_of_site(heed_crawl *c, const char *origin,
                                      unsigned kinds, heed_store_visit_fn *fn,
                                      void *ud);
heed_status heed__read_visits_of_urls(heed_crawl *c, const char *origin,
                                      const char *const *urls, size_t n,
                                      heed_store_visit_fn *fn, void *ud);
heed_status heed__read_page(heed_crawl *c, const char *url,
                            heed_store_page_fn *fn, void *ud);
heed_status heed__read_page_dates(heed_crawl *c, const char *const *urls,
                                  size_t n, int64_t *fetched_at,
                                  int64_t *source_lastmod);
heed_status heed__read_acap_ref(heed_crawl *c, const char *origin,
                                const char *locator,
                                struct heed_store_acap_ref *row);
heed_status heed__read_acap_refs(heed_crawl *c, const char *origin,
                                 heed_store_acap_ref_fn *fn, void *ud);
/* The next window (up to max queued URLs after frontier row after_ids[i],
 * or from the first when after_ids is NULL) of each of n origins. */
heed_status heed__read_queue_windows(heed_crawl *c, const char *const *origins,
                                     const int64_t *after_ids, size_t n,
                                     int max, heed_store_frontier_window_fn *fn,
                                     void *ud);
/* Every site with URLs queued or in flight (a run resumed). */
heed_status heed__read_queued_hosts(heed_crawl *c,
                                    heed_store_frontier_host_fn *fn, void *ud);

/* ---- a worker's claims, renewals and hand-backs (worker.c) ---- */

/* Renews, hands back and claims leases as their times come, and starts
 * the next part of the sites waiting to start. */
void heed__worker_tick(heed_crawl *c);
/* Lists s, of a host this worker holds, to start from the store at a
 * later turn of next(), WORKER_START_PART sites a turn after the beat,
 * so that the statements of many starts never hold up a renewal: the
 * sites of a grant (worker.c), and the idle sites a lost batch's redo
 * forgot (ctl.c), each left SITE_NEW. A site already listed stays where
 * it is, once. The list is worker.c's: a listed site is not started by
 * a URL found for it (heed__site_list_new), and its host is not handed
 * back, until its part; a part passes over one whose host was lost
 * meanwhile. */
void heed__worker_start_later(heed_crawl *c, struct heed__site *s);
/* May a request to s start now? false (its lane deferred) when s is not
 * held, or its lease ends before a request starting now surely left. */
bool heed__worker_may_start(heed_crawl *c, struct heed__site *s);
/* A request to s started now. */
void heed__worker_started(heed_crawl *c, struct heed__site *s);
/* The monotonic moment a request to s starting now must have been sent
 * by: its host's lease end (0 for a crawl alone: no limit). */
int64_t heed__worker_send_by(const heed_crawl *c, const struct heed__site *s);
/* Nothing to do here now: does the run go on elsewhere (a site held by
 * another worker may still give this one work)? */
bool heed__worker_run_goes_on(const heed_crawl *c);
/* Until the next renewal, sweep or claim is due (ms, >= 0). */
int64_t heed__worker_wait(const heed_crawl *c);
/* The run ends for this worker: every lease is handed back. */
void heed__worker_finish(heed_crawl *c);

/* ---- arrangements with site owners (arranged.c) ---- */

/* Reads h's arrangement from the store once (h->arr). false when the
 * store failed or memory ran out (the run fails). */
bool heed__arranged_load(heed_crawl *c, struct heed__host *h);
void heed__arranged_free(heed_crawl *c, struct heed__host *h);
/* Why s may not be contacted now (paused, outside its windows, a delay
 * over the cap), in why; NULL when it may. */
const char *heed__arranged_withhold(heed_crawl *c, const struct heed__site *s,
                                    char *why, size_t size);
/* May the page url of s be fetched under its owner's include/exclude? */
bool heed__arranged_permits(heed_crawl *c, const struct heed__site *s,
                            const char *url);
/* The URL of page read through s's arranged oEmbed endpoint
 * (ENDPOINT?url=PAGE&format=json) into out; false when s has none on
 * itself, or the URL would be too long. */
bool heed__arranged_oembed_url(heed_crawl *c, const struct heed__site *s,
                               const char *page, char *out, size_t size);
/* Is url one of s's arranged oEmbed endpoint's URLs? */
bool heed__arranged_oembed_of(const struct heed__site *s, const char *url);
/* A full run reads an incremental-only site as the incremental mode does:
 * its links are not followed. */
bool heed__arranged_incremental(const heed_crawl *c,
                                const struct heed__site *s);
/* Sets the frontier row of job, of site s, to done with outcome (an
 * HTTP status, or a negative heed_status). */
void heed__queue_finish(heed_crawl *c, const struct heed__site *s,
                        const struct heed__job *job, int outcome);
/* job failed for a passing reason: back in its lane for a later try, or
 * given up (finished with outcome) after opt->limits.retries. true when
 * it will be tried again. */
bool heed__queue_retry(heed_crawl *c, struct heed__site *s,
                       const struct heed__job *job, int outcome);
heed_status heed__queue_resume(heed_crawl *c);

/* The lifecycle (lifecycle.c). */
/* Starts the sites registered since the last call. */
void heed__life_start_new(heed_crawl *c);
/* Before s's robots.txt request starts: true when its owner's arrangement
 * now withholds it (a window closed while it waited); its lifecycle then
 * ends with nothing sent or stored. */
bool heed__life_withheld_now(heed_crawl *c, struct heed__site *s);
/* s's host went to another worker (its lease lost): its lifecycle or its
 * wait for addresses ends here, nothing stored, and s is NEW again. */
void heed__life_abandon(heed_crawl *c, struct heed__site *s);
/* A timer of site or host came due. */
void heed__life_timer(heed_crawl *c, const struct heed__timer *t);
/* Hands out the next look-up, if a slot is free: true and *a filled. */
bool heed__life_next_lookup(heed_crawl *c, struct heed_crawl_action *a);
void heed__life_resolved(heed_crawl *c, struct heed__host *h,
                         const struct heed_dns_result *r);
/* Site s's robots.txt request could not be sent: host holds every
 * request back for wait_ms, longer than the run waits. */
void heed__life_not_sent(heed_crawl *c, struct heed__site *s,
                         const struct heed__host *h, int64_t wait_ms);
/* Adds If-None-Match / If-Modified-Since to req, a robots.txt request of
 * site s, when it asks for the URL of a stored body that a 304 may
 * confirm. */
void heed__life_robots_headers(heed_crawl *c, struct heed__site *s,
                               struct heed_crawl_req *req);
/* A robots.txt fetch of site s ended. */
void heed__life_fetched(heed_crawl *c, struct heed__site *s,
                        const struct heed_net_response *r);
/* Saves host's politeness state (back-off, last request) to the store. */
void heed__life_save_host(heed_crawl *c, struct heed__host *h);
/* Saves it while a back-off lasts, and once more when it is over. */
void heed__life_keep_backoff(heed_crawl *c, struct heed__host *h);

/* ACAP permissions references (acapref.c). */
/* Site s qualified with its rules loaded: the stored files of the
 * references that speak to heed are added to them, and those asked again
 * (every one when fetched, robots.txt having been asked in this run; else
 * those not asked since robots_date_s, the robots.txt attempt whose rules
 * are in force) are queued before any page: at the front of its lane, or
 * in another site's lane for a file there (s then waits for it). The
 * files other sites asked in s's lane before it was qualified are queued
 * too, after s's own. */
void heed__acapref_start(heed_crawl *c, struct heed__site *s, bool fetched,
                         int64_t robots_date_s);
/* Whether job, a reference request in site s's lane, may start: a file
 * asked for another site must be allowed by s's own rules. When not, the
 * referring site is told (its crawlers stay prohibited); the caller takes
 * the job out. */
bool heed__acapref_permitted(heed_crawl *c, struct heed__site *s,
                             const struct heed__job *job);
/* Site s's queue is dropped: the files other sites asked in its lane are
 * given up (their crawlers stay prohibited), why says why. */
void heed__acapref_dropped(heed_crawl *c, struct heed__site *s,
                           const char *why);
/* A lost batch is being redone (ctl.c): the files other sites asked in
 * s's lane hold them no more, and are never asked for them. A wait would
 * keep both sites going on through the redo with what the lost batch
 * took (the waiting site's qualification, s's answers), where sites at
 * rest start again from the store: the waiting site then qualifies again
 * and asks its file again. A file not put in s's lane yet (s not ready)
 * never is; one put there already is asked only if s goes on. A waiting
 * site that goes on is released, its file not added (its crawlers stay
 * prohibited). */
void heed__acapref_forget_waits(heed_crawl *c, struct heed__site *s);
/* s is ready (qualified, addresses known): its lane is released unless
 * files it asked elsewhere are pending (then the last one releases it). */
void heed__acapref_release(heed_crawl *c, struct heed__site *s);
/* Adds the stored validators to req, a reference request of site s. */
void heed__acapref_headers(heed_crawl *c, struct heed__site *s,
                           struct heed_crawl_req *req);
/* A reference request of site s ended. */
void heed__acapref_fetched(heed_crawl *c, struct heed__site *s,
                           const struct heed__job *job,
                           const struct heed_net_response *r);
void heed__acapref_free(heed_crawl *c, struct heed__site *s);

/* Answers (answer.c). */
/* Should the body of this answer be read? (the media ban) */
bool heed__answer_wanted(const struct heed__job *job,
                         const struct heed_net_response *r,
                         heed_content_kind *kind);

/* The pure part of a page's 2xx answer: what its bytes say before the
 * controller judges them (robots.txt and ACAP, the store). Computed in
 * page() on the loop's thread, or ahead of it by a prepared answer on any
 * thread. */
struct heed__page_work {
	const struct heed_allocator *alloc; /* of pg and record */
	char digest[HEED_DIGEST_HEX];       /* the body's */
	bool extracted;                     /* rc, pg and record are set */
	heed_status rc;                     /* heed_extract_html's */
	heed_page *pg;
	char *record; /* the record's JSON, unless noindex; NULL also when
	                 out of memory (an empty record is stored) */
};

/* A prepared answer (heed_crawl_prepare in heed/crawl.h): a copy of
 * everything its pure work reads, so that no byte of it is shared with
 * the network layer (which frees its response once its callback
 * returns) or with the controller (which only the loop's thread may
 * touch). One block, allocated with the default allocator: the strings
 * follow the struct, and the body too unless it was handed over
 * (heed_crawl_prepare_owned): a page's copy was a 60 KB memcpy and
 * malloc on the loop's thread. */
struct heed_crawl_prep {
	heed_crawl_req *req;            /* the loop's thread's alone */
	struct heed_net_response r;     /* the answer, strings copied */
	char *body;                     /* the body handed over, or NULL */
	const char *url;                /* the job's */
	const char *agent;              /* the agent token */
	char known[CRAWL_KNOWN_DIGEST]; /* the body's digest at the last
	                                   visit, or "" */
	struct heed__page_work w;
};

/* Has answer r of job pure work to prepare (a page's 2xx)? */
bool heed__answer_has_work(const struct heed__job *job,
                           const struct heed_net_response *r);
/* A prepared answer r of site s's job, for req; NULL when out of memory.
 * body: r->body's buffer, which the answer keeps and frees (on NULL it
 * stays the caller's), or NULL to copy r's body. */
struct heed_crawl_prep *
heed__answer_prep_new(heed_crawl *c, struct heed__site *s,
                      const struct heed__job *job, heed_crawl_req *req,
                      const struct heed_net_response *r, char *body);
/* Runs p's pure work: reads p alone, on any thread. */
void heed__answer_prep_run(struct heed_crawl_prep *p);
/* Frees p and what its work made. NULL does nothing. */
void heed__answer_prep_free(struct heed_crawl_prep *p);
/* A page, sitemap or feed fetch of site s ended. w: the page's work done
 * ahead (a prepared answer), cleared here; NULL: done here if needed. */
void heed__answer(heed_crawl *c, struct heed__site *s,
                  const struct heed__job *job,
                  const struct heed_net_response *r, struct heed__page_work *w);

#endif /* HEED_CRAWL_INT_H */
