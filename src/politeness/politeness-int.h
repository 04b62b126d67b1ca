/*
 * politeness internals: the table of hosts and addresses, a chained hash of
 * names to timing entries that grows as heed meets new hosts.
 */
#ifndef HEED_POLITENESS_INT_H
#define HEED_POLITENESS_INT_H

#include "common/common-int.h"
#include "heed/politeness.h"

struct heed__polite_entry {
	struct heed__polite_entry *next; /* in its bucket */
	char *name;
	bool started;          /* last_start_ms is valid */
	int64_t last_start_ms; /* last request start that connected */
	bool prev_started;     /* the values before the current attempt, */
	int64_t prev_start_ms; /* restored when it never connected */
	int64_t delay_ms;      /* hosts: Crawl-delay, 0 = default */
	unsigned in_flight;    /* addresses: attempts running */
	struct heed_polite_backoff backoff; /* hosts */
};

struct heed__polite_table {
	struct heed__polite_entry **buckets;
	size_t bucket_count; /* a power of two, or 0 before the first add */
	size_t count;
};

/* The entry named name, or NULL. */
struct heed__polite_entry *heed__polite_find(const struct heed__polite_table *t,
                                             const char *name);

/* The entry named name, created (zeroed) when missing; NULL on ENOMEM. */
struct heed__polite_entry *heed__polite_get(struct heed__polite_table *t,
                                            const char *name,
                                            const struct heed_allocator *a);

void heed__polite_table_free(struct heed__polite_table *t,
                             const struct heed_allocator *a);

#endif /* HEED_POLITENESS_INT_H */
