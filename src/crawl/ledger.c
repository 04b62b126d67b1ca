/*
 * The courtesy witness (crawl-int.h): heed's first promise, "at most one
 * request per second per site", checked at every request start by code
 * that shares nothing with the politeness module that enforces it. It
 * keeps, per host name, the last start that reached the server and
 * whether a request is in flight; a start closer than floor_ms to the last
 * one, or while one is in flight, is a breach. Test and debug builds abort
 * on the first breach (ctl.c), so every test of the crawl checks the
 * promise at every request, and the simulation test does so millions of
 * times. Memory: one small entry per host a run meets.
 */
#include <string.h>

#include "crawl/crawl-int.h"

struct heed__ledger_entry {
	struct heed__ledger_entry *next;
	int64_t last_ms;    /* the last start that reached the server */
	int64_t pending_ms; /* the start in flight */
	bool has_last, in_flight;
	char name[];
};

void heed__ledger_init(struct heed__ledger *l, int64_t floor_ms,
                       const struct heed_allocator *a)
{
	memset(l, 0, sizeof(*l));
	l->alloc = a;
	l->floor_ms = floor_ms;
}

void heed__ledger_free(struct heed__ledger *l)
{
	for (size_t i = 0; i < l->bucket_count; i++) {
		struct heed__ledger_entry *e = l->buckets[i], *next;
		for (; e; e = next) {
			next = e->next;
			heed__free(l->alloc, e);
		}
	}
	heed__free(l->alloc, l->buckets);
	l->buckets = NULL;
	l->bucket_count = l->count = 0;
}

static struct heed__ledger_entry *find(const struct heed__ledger *l,
                                       const char *host)
{
	struct heed__ledger_entry *e;

	if (!l->bucket_count)
		return NULL;
	e = l->buckets[heed__hash_str(host) & (l->bucket_count - 1)];
	while (e && strcmp(e->name, host) != 0)
		e = e->next;
	return e;
}

static bool grow(struct heed__ledger *l)
{
	size_t n = l->bucket_count ? l->bucket_count * 2 : 256;
	struct heed__ledger_entry **b = heed__calloc(l->alloc, n, sizeof(*b));

	if (!b)
		return false;
	for (size_t i = 0; i < l->bucket_count; i++) {
		struct heed__ledger_entry *e = l->buckets[i], *next;
		for (; e; e = next) {
			size_t k = heed__hash_str(e->name) & (n - 1);
			next = e->next;
			e->next = b[k];
			b[k] = e;
		}
	}
	heed__free(l->alloc, l->buckets);
	l->buckets = b;
	l->bucket_count = n;
	return true;
}

static struct heed__ledger_entry *get(struct heed__ledger *l, const char *host)
{
	struct heed__ledger_entry *e = find(l, host);
	size_t len, k;

	if (e)
		return e;
	if (l->count >= l->bucket_count && !grow(l))
		return NULL;
	len = strlen(host);
	e = heed__calloc(l->alloc, 1, sizeof(*e) + len + 1);
	if (!e)
		return NULL;
	memcpy(e->name, host, len + 1);
	k = heed__hash_str(host) & (l->bucket_count - 1);
	e->next = l->buckets[k];
	l->buckets[k] = e;
	l->count++;
	return e;
}

bool heed__ledger_start(struct heed__ledger *l, const char *host,
                        int64_t now_ms, int64_t *gap_ms)
{
	struct heed__ledger_entry *e = get(l, host);

	*gap_ms = 0;
	if (!e)
		return false;
	l->starts++;
	if (e->in_flight ||
	    (e->has_last && now_ms - e->last_ms < l->floor_ms)) {
		*gap_ms = e->in_flight ? -1 : now_ms - e->last_ms;
		l->breaches++;
		return false;
	}
	e->in_flight = true;
	e->pending_ms = now_ms;
	return true;
}

void heed__ledger_end(struct heed__ledger *l, const char *host, bool connected,
                      int64_t sent_ms)
{
	struct heed__ledger_entry *e = find(l, host);

	if (!e || !e->in_flight)
		return;
	e->in_flight = false;
	if (!connected)
		return;
	/* The request left when it was sent, which a new connection's
	 * handshakes put after the start. */
	e->last_ms = sent_ms > e->pending_ms ? sent_ms : e->pending_ms;
	e->has_last = true;
}
