/*
 * One string hash for every table in libheed: FNV-1a over the bytes, then
 * MurmurHash3's 64-bit finaliser. The tables index buckets with the low
 * bits, and FNV-1a alone keeps in its low k bits only the low k bits of
 * each input byte: 10,000 addresses 127.1.x.y fell into 4 of 8 buckets,
 * one with half of them, and the linear-probing tables clustered the same
 * way. The finaliser makes every output bit depend on every input bit.
 */
#include "common/common-int.h"

#define FNV_OFFSET 14695981039346656037ULL
#define FNV_PRIME  1099511628211ULL

static uint64_t finish(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return h;
}

uint64_t heed__hash(const void *data, size_t len)
{
	const unsigned char *p = data;
	uint64_t h = FNV_OFFSET;

	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * FNV_PRIME;
	return finish(h);
}

uint64_t heed__hash_str(const char *s)
{
	uint64_t h = FNV_OFFSET;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * FNV_PRIME;
	return finish(h);
}

uint64_t heed__hash_lower(const char *s, size_t len)
{
	uint64_t h = FNV_OFFSET;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)heed__ascii_lower(s[i])) * FNV_PRIME;
	return finish(h);
}
