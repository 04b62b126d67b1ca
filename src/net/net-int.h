/*
 * net internals: shared by the fetcher (net.c) and the address classes
 * (addr.c).
 */
#ifndef HEED_NET_INT_H
#define HEED_NET_INT_H

#include "common/common-int.h"
#include "heed/net.h"

#endif /* HEED_NET_INT_H */
