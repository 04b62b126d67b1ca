/*
 * A generated robots.txt of ACAP definitions and records, just under the
 * 500 KiB parse limit (RFC 9309 2.5): resource sets, qualified and
 * composite usages, then records until the size is reached. Used by the
 * unit test that bounds parse memory and by bench_acap, which times it.
 */
#ifndef HEED_ACAP_GEN_H
#define HEED_ACAP_GEN_H

#include <stdio.h>
#include <stdlib.h>

#define ACAP_GEN_SETS       1000
#define ACAP_GEN_QUALIFIED  1000
#define ACAP_GEN_COMPOSITES 500

/* Appends to buf at *len if it fits below max; false when it did not. */
static int acap_gen_put(char *buf, size_t *len, size_t max, const char *fmt,
                        unsigned a)
{
	int n = snprintf(buf + *len, max - *len, fmt, a, a, a, a, a, a);

	if (n < 0 || (size_t)n >= max - *len)
		return 0;
	*len += (size_t)n;
	return 1;
}

/* A malloc'd file of at most max bytes (the caller frees it); *len is its
 * size and *records the number of records written. NULL on OOM. */
static char *acap_gen(size_t max, size_t *len, unsigned *records)
{
	char *buf = malloc(max);
	unsigned i;

	if (!buf)
		return NULL;
	*len = 0;
	*records = 0;
	acap_gen_put(buf, len, max, "ACAP-version: 1.1\n", 0);
	for (i = 0; i < ACAP_GEN_SETS; i++)
		acap_gen_put(buf, len, max,
		             "ACAP-resource-set: set%u /d%u/a/ /d%u/b/*.htm "
		             "*.x%u\n",
		             i);
	for (i = 0; i < ACAP_GEN_QUALIFIED; i++)
		acap_gen_put(buf, len, max,
		             "ACAP-qualified-usage: q%u present-snippet "
		             "max-length=%u-words time-limit=%u-days\n",
		             i);
	for (i = 0; i < ACAP_GEN_COMPOSITES; i++)
		acap_gen_put(buf, len, max,
		             "ACAP-composite-usage: c%u crawl index (q%u) "
		             "present-link\n",
		             i);
	for (i = 0;; i++) {
		size_t mark = *len;
		unsigned k = i % ACAP_GEN_COMPOSITES;

		if (!acap_gen_put(buf, len, max, "ACAP-crawler: bot%u\n", i) ||
		    !acap_gen_put(buf, len, max,
		                  "ACAP-allow-(c%u): "
		                  "the-acap:resource-set:set%u\n",
		                  k) ||
		    !acap_gen_put(buf, len, max,
		                  "ACAP-disallow-index: /d%u/a/private/\n",
		                  k) ||
		    !acap_gen_put(buf, len, max,
		                  "ACAP-usage-purpose: news%u\n"
		                  "ACAP-disallow-present: /d%u/\n",
		                  k)) {
			*len = mark;
			break;
		}
		(*records)++;
	}
	return buf;
}

#endif /* HEED_ACAP_GEN_H */
