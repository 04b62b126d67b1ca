/*
 * Config internals: an option row is its public description plus where its
 * value lives in struct heed_config and the bounds of integers.
 */
#ifndef HEED_CONFIG_INT_H
#define HEED_CONFIG_INT_H

#include <stddef.h>

#include "common/common-int.h"
#include "heed/config.h"

struct heed_config_option {
	struct heed_config_option_info info;
	size_t offset;    /* of the field in struct heed_config */
	int64_t min, max; /* integers: bounds; strings: min 1 = must be set */
};

extern const struct heed_config_option heed__config_options[];
extern const size_t heed__config_option_count;

#endif /* HEED_CONFIG_INT_H */
