/*
 * The politeness table: host and address names to timing entries, a chained
 * hash (heed__hash_str) doubled when it holds more entries than buckets, so
 * lookups stay O(1) for the hundreds of thousands of hosts a crawl meets.
 */
#include <string.h>

#include "politeness/politeness-int.h"

#define FIRST_BUCKETS 64

struct heed__polite_entry *heed__polite_find(const struct heed__polite_table *t,
                                             const char *name)
{
	struct heed__polite_entry *e;

	if (!t->bucket_count || !name)
		return NULL;
	for (e = t->buckets[heed__hash_str(name) & (t->bucket_count - 1)]; e;
	     e = e->next)
		if (strcmp(e->name, name) == 0)
			return e;
	return NULL;
}

static bool grow(struct heed__polite_table *t, const struct heed_allocator *a)
{
	size_t n = t->bucket_count ? t->bucket_count * 2 : FIRST_BUCKETS;
	struct heed__polite_entry **b = heed__calloc(a, n, sizeof(*b));
	size_t i;

	if (!b)
		return false;
	for (i = 0; i < t->bucket_count; i++) {
		struct heed__polite_entry *e = t->buckets[i], *next;
		for (; e; e = next) {
			size_t k = heed__hash_str(e->name) & (n - 1);
			next = e->next;
			e->next = b[k];
			b[k] = e;
		}
	}
	heed__free(a, t->buckets);
	t->buckets = b;
	t->bucket_count = n;
	return true;
}

struct heed__polite_entry *heed__polite_get(struct heed__polite_table *t,
                                            const char *name,
                                            const struct heed_allocator *a,
                                            bool *created)
{
	struct heed__polite_entry *e = heed__polite_find(t, name);
	size_t k;

	if (created)
		*created = !e;
	if (e)
		return e;
	if (t->count >= t->bucket_count && !grow(t, a))
		return NULL;
	e = heed__calloc(a, 1, sizeof(*e));
	if (!e)
		return NULL;
	e->name = heed__strndup(a, name, strlen(name));
	if (!e->name) {
		heed__free(a, e);
		return NULL;
	}
	k = heed__hash_str(name) & (t->bucket_count - 1);
	e->next = t->buckets[k];
	t->buckets[k] = e;
	t->count++;
	return e;
}

void heed__polite_table_free(struct heed__polite_table *t,
                             const struct heed_allocator *a)
{
	size_t i;

	for (i = 0; i < t->bucket_count; i++) {
		struct heed__polite_entry *e = t->buckets[i], *next;
		for (; e; e = next) {
			next = e->next;
			heed__free(a, e->name);
			heed__free(a, e);
		}
	}
	heed__free(a, t->buckets);
	memset(t, 0, sizeof(*t));
}
