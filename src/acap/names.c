/*
 * Names of ACAP's vocabulary (section 2.5 usage types, Annex A qualifier
 * types) and of heed's own enums, plus the small containers the module
 * shares: growing arrays and diagnostics.
 */
#include <stdarg.h>
#include <stdio.h>

#include "acap/acap-int.h"

static const char *const usage_names[HEED_ACAP_USAGE_COUNT] = {
        "crawl",
        "follow",
        "index",
        "preserve",
        "present",
        "other",
        "present-original",
        "present-currentcopy",
        "present-oldcopy",
        "present-snippet",
        "present-thumbnail",
        "present-oldsnippet",
        "present-oldthumbnail",
        "present-link",
};

const char *heed_acap_usage_name(heed_acap_usage usage)
{
	if ((unsigned)usage >= HEED_ACAP_USAGE_COUNT)
		return NULL;
	return usage_names[usage];
}

bool heed_acap_usage_from_name(const char *name, size_t len,
                               heed_acap_usage *out)
{
	for (size_t i = 0; name && i < HEED_ACAP_USAGE_COUNT; i++) {
		if (heed__ascii_ieq(name, len, usage_names[i])) {
			*out = (heed_acap_usage)i;
			return true;
		}
	}
	return false;
}

heed_acap_usage heed_acap_usage_basic(heed_acap_usage usage)
{
	return usage >= HEED_ACAP_PRESENT_ORIGINAL ? HEED_ACAP_PRESENT : usage;
}

static const char *const qualifier_names[] = {
        "time-limit",
        "max-length",
        "must-use-resource",
        "must-include-resource",
        "prohibited-modification",
        "prohibited-context",
        "required-context",
        "target-condition",
        "usage-ref",
        "unknown",
};

const char *heed_acap_qualifier_name(heed_acap_qualifier_type type)
{
	if ((unsigned)type > HEED_ACAP_Q_UNKNOWN)
		type = HEED_ACAP_Q_UNKNOWN;
	return qualifier_names[type];
}

const char *heed_acap_severity_name(heed_acap_severity severity)
{
	switch (severity) {
	case HEED_ACAP_ERROR:
		return "error";
	case HEED_ACAP_WARNING:
		return "warning";
	case HEED_ACAP_NOTE:
		return "note";
	}
	return "unknown";
}

const char *heed_acap_reason_name(heed_acap_reason reason)
{
	static const char *const names[] = {
	        "only match",
	        "narrowest scope",
	        "undecidable scope",
	        "named record",
	        "sub-record",
	        "basic usage",
	        "usage type other",
	        "fallback",
	        "definition",
	        "version",
	        "time limit",
	        "conventional record",
	        "conventional field overridden",
	        "permissions reference",
	        "default",
	        "ignored",
	};
	if ((unsigned)reason >= HEED_ARRAY_SIZE(names))
		return "unknown";
	return names[reason];
}

heed_status heed__acap_vec_push(const struct heed_allocator *a,
                                struct acap_vec *v, size_t elem, void **slot)
{
	if (v->n == v->cap) {
		size_t cap = v->cap ? v->cap * 2 : 8;
		void *items;

		if (cap > SIZE_MAX / elem)
			return HEED_ENOMEM;
		items = heed__realloc(a, v->items, cap * elem);
		if (!items)
			return HEED_ENOMEM;
		v->items = items;
		v->cap = cap;
	}
	*slot = (char *)v->items + v->n * elem;
	memset(*slot, 0, elem);
	v->n++;
	return HEED_OK;
}

void heed__acap_vec_free(const struct heed_allocator *a, struct acap_vec *v)
{
	heed__free(a, v->items);
	v->items = NULL;
	v->n = v->cap = 0;
}

void *heed__acap_arena_copy_to(struct heed_arena *ar, const void *src,
                               size_t bytes)
{
	void *dst;

	if (bytes == 0)
		return NULL;
	dst = heed__arena_alloc(ar, bytes);
	if (dst)
		memcpy(dst, src, bytes);
	return dst;
}

void *heed__acap_arena_copy(struct heed_acap *r, const void *src, size_t bytes)
{
	return heed__acap_arena_copy_to(&r->arena, src, bytes);
}

heed_status heed__acap_diag(struct heed_acap *r, unsigned line,
                            heed_acap_severity sev, const char *fmt, ...)
{
	struct heed_acap_diag *d;
	char msg[512];
	va_list ap;
	int n;

	if (r->diags.n >= ACAP_MAX_DIAGS) {
		r->diags_dropped++;
		return HEED_OK;
	}
	va_start(ap, fmt);
	n = vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	if ((size_t)n >= sizeof(msg))
		n = sizeof(msg) - 1;
	if (heed__acap_vec_push(r->alloc, &r->diags, sizeof(*d), (void **)&d))
		return HEED_ENOMEM;
	d->source = r->cur_source;
	d->line = line;
	d->severity = sev;
	d->message = heed__arena_strndup(&r->arena, msg, (size_t)n);
	if (!d->message) {
		r->diags.n--;
		return HEED_ENOMEM;
	}
	return HEED_OK;
}

bool heed__acap_name_ok(const char *s, size_t len)
{
	if (len == 0 ||
	    !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z')))
		return false;
	for (size_t i = 1; i < len; i++) {
		char c = heed__ascii_lower(s[i]);
		bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		          c == '-' || c == '_' || c == '.';
		if (!ok)
			return false;
	}
	return true;
}

/* Names are case-insensitive. */
static size_t name_hash(const char *s, size_t n)
{
	return (size_t)heed__hash_lower(s, n);
}

static heed_status index_grow(const struct heed_allocator *a,
                              struct acap_index *ix)
{
	size_t cap = ix->cap ? ix->cap * 2 : 64;
	struct acap_index_slot *slots = heed__calloc(a, cap, sizeof(*slots));

	if (!slots)
		return HEED_ENOMEM;
	for (size_t i = 0; i < ix->cap; i++) {
		size_t h;

		if (!ix->slots[i].name)
			continue;
		h = name_hash(ix->slots[i].name, strlen(ix->slots[i].name));
		while (slots[h & (cap - 1)].name)
			h++;
		slots[h & (cap - 1)] = ix->slots[i];
	}
	heed__free(a, ix->slots);
	ix->slots = slots;
	ix->cap = cap;
	return HEED_OK;
}

long heed__acap_index_get(const struct acap_index *ix, int space, const char *s,
                          size_t n, int *kind)
{
	size_t h;

	if (ix->cap == 0)
		return -1;
	for (h = name_hash(s, n); ix->slots[h & (ix->cap - 1)].name; h++) {
		const struct acap_index_slot *sl =
		        &ix->slots[h & (ix->cap - 1)];
		if (sl->space == space && heed__ascii_ieq(s, n, sl->name)) {
			if (kind)
				*kind = sl->kind;
			return (long)sl->idx;
		}
	}
	return -1;
}

heed_status heed__acap_index_put(const struct heed_allocator *a,
                                 struct acap_index *ix, int space, int kind,
                                 const char *name, size_t idx)
{
	size_t h;

	if ((ix->n + 1) * 2 > ix->cap && index_grow(a, ix))
		return HEED_ENOMEM;
	for (h = name_hash(name, strlen(name));
	     ix->slots[h & (ix->cap - 1)].name; h++)
		;
	ix->slots[h & (ix->cap - 1)] = (struct acap_index_slot){
	        .name = name, .space = space, .kind = kind, .idx = idx};
	ix->n++;
	return HEED_OK;
}

void heed__acap_index_free(const struct heed_allocator *a,
                           struct acap_index *ix)
{
	heed__free(a, ix->slots);
	memset(ix, 0, sizeof(*ix));
}
