/*
 * politeness internals: the table of hosts and addresses, a chained hash of
 * names to timing entries that grows as heed meets new hosts. Hosts and
 * addresses live in two tables of the same entry type; each uses its own
 * part of the entry.
 */
#ifndef HEED_POLITENESS_INT_H
#define HEED_POLITENESS_INT_H

#include "common/common-int.h"
#include "heed/politeness.h"

/* Answers per epoch of an address's windowed minimum: its usual time to
 * first byte is the least of the last two epochs, so it follows a server
 * that became slower for good within 64 answers. */
#define HEED__POLITE_EPOCH 32

struct heed__polite_entry {
	struct heed__polite_entry *next; /* in its bucket */
	char *name;
	bool started;          /* last_start_ms is valid */
	int64_t last_start_ms; /* last request start that connected */
	bool prev_started;     /* the values before the current attempt, */
	int64_t prev_start_ms; /* restored when it never connected */
	unsigned in_flight;    /* attempts running */
	/* Hosts. */
	int64_t crawl_delay_ms;             /* 0: none */
	int64_t last_elapsed_ms;            /* the last answer's duration */
	struct heed_polite_backoff backoff; /* error doubling, Retry-After */
	bool answered;                      /* best_ttfb_ms is valid */
	int64_t best_ttfb_ms; /* its fastest clean answer: what its address's
	                         queue is measured against */
	/* Addresses: the window (AIMD) and the latency filter. */
	double window;            /* requests allowed in flight */
	bool window_full;         /* in_flight reached the window since the
	                             window last grew */
	int64_t last_decrease_ms; /* monotonic; 0: never */
	uint64_t decreases;
	int64_t epoch_min[2]; /* -1: none yet */
	unsigned epoch_samples;
	int64_t smoothed_ms; /* -1 before the first answer */
	uint64_t eases;      /* times the window shrank by one */
	/* The queue signal: each answer's time over its host's best (per
	 * mille), smoothed, and that smoothed value's least in the same two
	 * epochs as epoch_min: the level the server's own jitter gives. */
	int64_t queue_pm;        /* -1 before the first answer */
	int64_t queue_min_pm[2]; /* -1: none yet */
};

struct heed__polite_table {
	struct heed__polite_entry **buckets;
	size_t bucket_count; /* a power of two, or 0 before the first add */
	size_t count;
};

/* The entry named name, or NULL. */
struct heed__polite_entry *heed__polite_find(const struct heed__polite_table *t,
                                             const char *name);

/* The entry named name, created (zeroed) when missing; NULL on ENOMEM.
 * *created (may be NULL) says which. */
struct heed__polite_entry *heed__polite_get(struct heed__polite_table *t,
                                            const char *name,
                                            const struct heed_allocator *a,
                                            bool *created);

void heed__polite_table_free(struct heed__polite_table *t,
                             const struct heed_allocator *a);

#endif /* HEED_POLITENESS_INT_H */
