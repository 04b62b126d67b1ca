/*
 * The bottom of the crawl controller (crawl-int.h): the clock of the call
 * being handled, the failure latch, and what every layer may ask of the
 * run without reaching up: whether it is a worker's, how long a request
 * may take to leave. It calls nothing else in src/crawl.
 */
#include "crawl/crawl-int.h"

const char *heed_crawl_mode_name(heed_crawl_mode mode)
{
	static const char *const names[] = {"full", "incremental", "qualify"};

	if ((unsigned)mode >= HEED_ARRAY_SIZE(names))
		return "unknown";
	return names[mode];
}

int64_t heed__crawl_unix_s(const heed_crawl *c)
{
	return c->now.unix_ms / 1000;
}

struct heed_polite_clock heed__crawl_polite_clock(const heed_crawl *c)
{
	struct heed_polite_clock t = {c->now.unix_ms, c->now.mono_ms};

	return t;
}

void heed__crawl_oom(heed_crawl *c)
{
	if (c->failed == HEED_OK)
		heed_log(&c->log, HEED_LOG_ERROR, "crawl", "out of memory");
	if (c->failed == HEED_OK)
		c->failed = HEED_ENOMEM;
}

int64_t heed__crawl_leave_ms(const struct heed_crawl_options *opt)
{
	return opt->net.connect_timeout_ms > 0 ? opt->net.connect_timeout_ms
	                                       : CRAWL_CONNECT_DEFAULT_MS;
}

bool heed__worker_on(const heed_crawl *c)
{
	return c->opt->worker.holder != NULL;
}
