/*
 * The courtesy witness (crawl-int.h): heed's first promise, "at most one
 * request per second per site", checked at every request start by code
 * that shares nothing with the politeness module that enforces it. It
 * keeps, per host name, the moment heed knew its last request had reached
 * the server (the answer's first byte, or the end of an attempt that got
 * none) and whether a request is in flight; a start closer than floor_ms
 * to that moment, or while one is in flight, is a breach. Test and debug builds
 * abort on the first breach (ctl.c), so every test of the crawl checks the
 * promise at every request, and the simulation test does so millions of
 * times. Memory: one small entry per host a run meets.
 */
#include <string.h>

#include "crawl/crawl-int.h"

struct heed__ledger_entry {
	struct heed__ledger_entry *next;
	int64_t last_ms;    /* the server had the last request by then */
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
                      int64_t heard_ms, int64_t now_ms)
{
	struct heed__ledger_entry *e = find(l, host);
	int64_t heard = heard_ms > 0 ? heard_ms : now_ms;

	if (!e || !e->in_flight)
		return;
	e->in_flight = false;
	if (!connected)
		return;
	/* The server had the request by the time heed heard back from it;
	 * when the bytes left is not known to heed (a starved process sends
	 * late), so the gap the site sees is measured from here. */
	e->last_ms = heard > e->pending_ms ? heard : e->pending_ms;
	e->has_last = true;
}
