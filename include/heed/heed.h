/*
 * heed/heed.h: all of libheed in one include.
 *
 * Each module's header is its whole interface and can be included alone;
 * this one is for programs that use several. Link with `pkg-config --libs
 * heed`. The version is heed_version() (heed/common.h).
 */
#ifndef HEED_HEED_H
#define HEED_HEED_H

#include "heed/common.h"
#include "heed/config.h"

/* Pure cores: bytes and a clock in, decisions out. */
#include "heed/acap.h"
#include "heed/crawl.h"
#include "heed/extract.h"
#include "heed/irc.h"
#include "heed/politeness.h"
#include "heed/robots.h"
#include "heed/sitepolicy.h"
#include "heed/url.h"

/* I/O shells. */
#include "heed/crawl_engine.h"
#include "heed/dns.h"
#include "heed/irc_crawl.h"
#include "heed/net.h"
#include "heed/store.h"
#include "heed/store_frontier.h"
#include "heed/store_irc.h"
#include "heed/store_leases.h"
#include "heed/store_pages.h"
#include "heed/store_sites.h"
#include "heed/verify.h"

#endif /* HEED_HEED_H */
