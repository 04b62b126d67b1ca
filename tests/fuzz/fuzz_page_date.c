/*
 * Fuzz target: dates as pages write them (heed__parse_page_date). The
 * first byte picks the page's language (none, en, en-US, en-GB, fr, de);
 * the rest is the text. A date read must be written as ISO 8601 that
 * reads back as the same instant, so the text forms and the offsets kept
 * can never produce a date the record's readers would take differently.
 * A time read is also shown at an offset picked by the first byte
 * (heed__date_at_offset, as the record gives a UTC value the offset of a
 * bare wall-clock time), which must read back as the same instant.
 */
#include <stdlib.h>
#include <string.h>

#include "extract/extract-int.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static const char *const langs[] = {NULL,    "en", "en-US",
	                                    "en-GB", "fr", "de"};
	char iso[HEED_DATE_ISO_MAX], again[HEED_DATE_ISO_MAX];
	char utc[32];
	struct heed__date_form form;
	int64_t t, t2, off;
	const char *lang;

	if (!size)
		return 0;
	lang = langs[data[0] % (sizeof(langs) / sizeof(langs[0]))];
	/* A bare date's month test reads only its slice (ASan checks). */
	(void)heed__month_opens((const char *)data + 1, size - 1);
	if (!heed__parse_page_date((const char *)data + 1, size - 1, lang, &t,
	                           iso, &form))
		return 0;
	if (strlen(iso) < 10 || iso[4] != '-' || iso[7] != '-' ||
	    (form.wall_clock && !strchr(iso, 'T')))
		abort();
	if (!heed__parse_page_date(iso, strlen(iso), NULL, &t2, again, NULL) ||
	    t2 != t || strcmp(iso, again) != 0)
		abort();
	if (!strchr(iso, 'T'))
		return 0;
	/* Quarter hours from -12:00 to +14:00, as zones have them. */
	off = (int64_t)(data[0] % 105) * 900 - 12 * 3600;
	if (!heed__parse_date(iso, strlen(iso), &t2, utc, NULL) ||
	    (heed__date_at_offset(utc, off, again) &&
	     (!heed__parse_page_date(again, strlen(again), NULL, &t2, iso,
	                             NULL) ||
	      t2 != t)))
		abort();
	return 0;
}
