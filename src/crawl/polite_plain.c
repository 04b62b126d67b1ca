/*
 * The plain politeness rule: no two requests to one host start less than a
 * fixed delay apart (crawler operator page: "Maximum: 1 request per
 * second"). The full rules (Crawl-delay, 429/503 back-off, per-address
 * budgets) are src/politeness's; this one stands in where those are not
 * wanted, and in tests.
 */
#include "crawl/crawl-int.h"

static int64_t plain_next_ms(void *ud, const char *host, int64_t last_start_ms,
                             int64_t now_ms)
{
	const int64_t *delay_ms = ud;

	(void)host;
	if (last_start_ms == INT64_MIN || last_start_ms + *delay_ms <= now_ms)
		return now_ms;
	return last_start_ms + *delay_ms;
}

struct heed_crawl_politeness
heed_crawl_plain_politeness(const int64_t *delay_ms)
{
	struct heed_crawl_politeness p = {plain_next_ms, NULL, NULL,
	                                  (void *)delay_ms};
	return p;
}
