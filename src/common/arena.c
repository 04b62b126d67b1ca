/*
 * Arena allocator for parse results. A parsed robots.txt holds thousands of
 * short strings that live and die together; one arena makes the result's
 * _free a single walk over a few blocks instead of thousands of frees.
 *
 * Blocks double in size from ARENA_FIRST_BLOCK up to ARENA_MAX_BLOCK; a
 * request larger than a block gets a block of its own.
 */
#include "common/common-int.h"

#define ARENA_FIRST_BLOCK 4096
#define ARENA_MAX_BLOCK   (1024 * 1024)
#define ARENA_ALIGN       8

struct heed_arena_block {
	struct heed_arena_block *next;
	size_t size; /* usable bytes after the header */
	size_t used;
	/* Payload follows, aligned by the header's size (a multiple of 8). */
};

void heed__arena_init(struct heed_arena *ar, const struct heed_allocator *a)
{
	ar->head = NULL;
	ar->used_bytes = 0;
	ar->alloc = a ? a : heed_allocator_default();
}

static size_t header_size(void)
{
	size_t h = sizeof(struct heed_arena_block);

	return (h + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
}

static struct heed_arena_block *arena_grow(struct heed_arena *ar, size_t size)
{
	size_t want = ar->head ? ar->head->size * 2 : ARENA_FIRST_BLOCK;
	struct heed_arena_block *blk;

	if (want > ARENA_MAX_BLOCK)
		want = ARENA_MAX_BLOCK;
	if (want < size)
		want = size;
	if (want > SIZE_MAX - header_size())
		return NULL;
	blk = heed__malloc(ar->alloc, header_size() + want);
	if (!blk)
		return NULL;
	blk->size = want;
	blk->used = 0;
	blk->next = ar->head;
	ar->head = blk;
	return blk;
}

void *heed__arena_alloc(struct heed_arena *ar, size_t size)
{
	struct heed_arena_block *blk = ar->head;
	size_t rounded;
	void *p;

	if (size > SIZE_MAX - ARENA_ALIGN)
		return NULL;
	rounded = (size + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
	if (!blk || blk->size - blk->used < rounded) {
		blk = arena_grow(ar, rounded);
		if (!blk)
			return NULL;
	}
	p = (char *)blk + header_size() + blk->used;
	blk->used += rounded;
	ar->used_bytes += rounded;
	return p;
}

char *heed__arena_strndup(struct heed_arena *ar, const char *s, size_t len)
{
	char *p = heed__arena_alloc(ar, len + 1);

	if (!p)
		return NULL;
	if (len)
		memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

void heed__arena_free(struct heed_arena *ar)
{
	struct heed_arena_block *blk = ar->head;

	while (blk) {
		struct heed_arena_block *next = blk->next;
		heed__free(ar->alloc, blk);
		blk = next;
	}
	ar->head = NULL;
	ar->used_bytes = 0;
}
