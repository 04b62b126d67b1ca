/*
 * sitepolicy internals: nothing beyond the common layer yet; the state
 * machine's struct stays private to sitepolicy.c.
 */
#ifndef HEED_SITEPOLICY_INT_H
#define HEED_SITEPOLICY_INT_H

#include "common/common-int.h"
#include "heed/sitepolicy.h"

#endif /* HEED_SITEPOLICY_INT_H */
