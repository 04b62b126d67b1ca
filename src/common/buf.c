/*
 * Bounded growing buffer. Every use names its own ceiling, so a hostile peer
 * can make heed refuse input but never make it allocate without limit.
 */
#include <stdarg.h>
#include <stdio.h>

#include "common/common-int.h"

#define BUF_MIN_CAP 64

void heed__buf_init(struct heed_buf *b, const struct heed_allocator *a,
                    size_t max_bytes)
{
	b->data = NULL;
	b->len = 0;
	b->cap = 0;
	b->max_bytes = max_bytes;
	b->alloc = a ? a : heed_allocator_default();
}

heed_status heed__buf_reserve(struct heed_buf *b, size_t extra)
{
	size_t need, cap;
	char *p;

	if (extra > b->max_bytes - b->len)
		return HEED_ETOOBIG;
	need = b->len + extra + 1;
	if (need <= b->cap)
		return HEED_OK;
	cap = b->cap ? b->cap : BUF_MIN_CAP;
	while (cap < need)
		cap = cap > SIZE_MAX / 2 ? need : cap * 2;
	/* Never allocate far past the ceiling just because doubling says so. */
	if (cap > b->max_bytes + 1 && need <= b->max_bytes + 1)
		cap = b->max_bytes + 1;
	p = heed__realloc(b->alloc, b->data, cap);
	if (!p)
		return HEED_ENOMEM;
	b->data = p;
	b->cap = cap;
	return HEED_OK;
}

heed_status heed__buf_add(struct heed_buf *b, const void *bytes, size_t len)
{
	heed_status rc = heed__buf_reserve(b, len);

	if (rc != HEED_OK)
		return rc;
	if (len)
		memcpy(b->data + b->len, bytes, len);
	b->len += len;
	b->data[b->len] = '\0';
	return HEED_OK;
}

heed_status heed__buf_addc(struct heed_buf *b, char c)
{
	/* The byte and the NUL fit, under the ceiling: no reservation.
	 * URLs are built a byte at a time, so this skips two calls for most
	 * bytes of most links. */
	if (b->len + 2 <= b->cap && b->len < b->max_bytes) {
		b->data[b->len++] = c;
		b->data[b->len] = '\0';
		return HEED_OK;
	}
	return heed__buf_add(b, &c, 1);
}

heed_status heed__buf_addf(struct heed_buf *b, const char *fmt, ...)
{
	va_list ap, ap2;
	int n;
	heed_status rc;

	va_start(ap, fmt);
	va_copy(ap2, ap);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0) {
		va_end(ap2);
		return HEED_EINVAL;
	}
	rc = heed__buf_reserve(b, (size_t)n);
	if (rc == HEED_OK) {
		vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap2);
		b->len += (size_t)n;
	}
	va_end(ap2);
	return rc;
}

const char *heed__buf_str(const struct heed_buf *b)
{
	return b->data ? b->data : "";
}

char *heed__buf_take(struct heed_buf *b)
{
	char *p = b->data;

	b->data = NULL;
	b->len = 0;
	b->cap = 0;
	return p;
}

void heed__buf_reset(struct heed_buf *b)
{
	b->len = 0;
	if (b->data)
		b->data[0] = '\0';
}

void heed__buf_free(struct heed_buf *b)
{
	heed__free(b->alloc, b->data);
	b->data = NULL;
	b->len = 0;
	b->cap = 0;
}

bool heed__ascii_ieq(const char *s, size_t len, const char *lit)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (lit[i] == '\0' ||
		    heed__ascii_lower(s[i]) != heed__ascii_lower(lit[i]))
			return false;
	}
	return lit[len] == '\0';
}

bool heed__ascii_ieq_any(const char *s, size_t len, const char *const *lits,
                         size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (heed__ascii_ieq(s, len, lits[i]))
			return true;
	return false;
}
