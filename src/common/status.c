/*
 * Status names and messages, expanded from HEED_STATUS_MAP so that the three
 * views of a status (enum, name, sentence) come from one list.
 */
#include <stdarg.h>
#include <stdio.h>

#include "heed/common.h"

const char *heed_status_name(heed_status status)
{
	switch (status) {
#define HEED_XX(name, num, msg) \
	case HEED_##name:       \
		return "HEED_" #name;
		HEED_STATUS_MAP(HEED_XX)
#undef HEED_XX
	}
	return "HEED_UNKNOWN";
}

const char *heed_strerror(heed_status status)
{
	switch (status) {
#define HEED_XX(name, num, msg) \
	case HEED_##name:       \
		return msg;
		HEED_STATUS_MAP(HEED_XX)
#undef HEED_XX
	}
	return "unknown status";
}

heed_status heed_diag_set(struct heed_diag *diag, heed_status status,
                          unsigned line, unsigned column, const char *fmt, ...)
{
	va_list ap;

	if (!diag)
		return status;
	diag->line = line;
	diag->column = column;
	va_start(ap, fmt);
	vsnprintf(diag->message, sizeof(diag->message), fmt, ap);
	va_end(ap);
	return status;
}

const char *heed_version(void)
{
	return HEED_VERSION;
}
