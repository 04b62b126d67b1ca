/*
 * Fuzz target: dates as pages write them (heed__parse_page_date). The
 * first byte picks the page's language (none, en, en-US, en-GB, fr, de);
 * the rest is the text. A date read must be written as ISO 8601 that
 * reads back as the same instant, so the text forms and the offsets kept
 * can never produce a date the record's readers would take differently.
 */
#include <stdlib.h>
#include <string.h>

#include "extract/extract-int.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static const char *const langs[] = {NULL,    "en", "en-US",
	                                    "en-GB", "fr", "de"};
	char iso[HEED_DATE_ISO_MAX], again[HEED_DATE_ISO_MAX];
	int64_t t, t2;
	const char *lang;

	if (!size)
		return 0;
	lang = langs[data[0] % (sizeof(langs) / sizeof(langs[0]))];
	if (!heed__parse_page_date((const char *)data + 1, size - 1, lang, &t,
	                           iso))
		return 0;
	if (strlen(iso) < 10 || iso[4] != '-' || iso[7] != '-')
		abort();
	if (!heed__parse_page_date(iso, strlen(iso), NULL, &t2, again) ||
	    t2 != t || strcmp(iso, again) != 0)
		abort();
	return 0;
}
