/*
 * Internals of the crawl module. The scheduler and the URL limits are pure
 * (src/crawl/sched.c, limits.c, polite_plain.c).
 */
#ifndef HEED_CRAWL_INT_H
#define HEED_CRAWL_INT_H

#include "common/common-int.h"
#include "heed/crawl.h"

#endif /* HEED_CRAWL_INT_H */
