/*
 * The logging funnel of libheed: modules never print, they hand a message to
 * the caller's callback. The level test comes before any formatting so that
 * disabled debug logging costs one comparison.
 */
#include <stdarg.h>
#include <stdio.h>

#include "heed/common.h"

/* Long enough for a URL and a reason; longer messages are truncated. */
#define LOG_LINE_MAX 1024

const char *heed_log_level_name(heed_log_level level)
{
	switch (level) {
	case HEED_LOG_ERROR:
		return "error";
	case HEED_LOG_WARN:
		return "warn";
	case HEED_LOG_INFO:
		return "info";
	case HEED_LOG_DEBUG:
		return "debug";
	}
	return "unknown";
}

void heed_log(const struct heed_logger *logger, heed_log_level level,
              const char *module, const char *fmt, ...)
{
	char line[LOG_LINE_MAX];
	va_list ap;

	if (!logger || !logger->fn || level > logger->level)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	logger->fn(logger->ud, level, module, line);
}
