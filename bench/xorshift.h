/*
 * Marsaglia's xorshift64, for the benchmarks' generated corpora: a fixed
 * seed makes every run (and google/robotstxt's driver, reading the files
 * bench_robots writes) measure the same bytes.
 */
#ifndef HEED_BENCH_XORSHIFT_H
#define HEED_BENCH_XORSHIFT_H

#include <stdint.h>

/* A number below n; *state must not be 0. */
static inline unsigned xorshift_below(uint64_t *state, unsigned n)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return (unsigned)(*state % n);
}

#endif /* HEED_BENCH_XORSHIFT_H */
