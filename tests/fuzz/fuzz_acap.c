/*
 * Fuzz target: the ACAP parser and evaluator. Any bytes parse; every
 * accessor answers; diagnostics are in line order; a decision for each
 * usage has a chain, a deciding line within the file, and binds qualifiers
 * only when it permits.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "heed/acap.h"

static void check_decision(const heed_acap *r, heed_acap_usage u,
                           unsigned lines)
{
	const char *purposes[] = {"news", "http://a.org/x#y"};
	struct heed_acap_history h = {1000000000, u % 2 == 0};
	struct heed_acap_decision *d = NULL;

	if (heed_acap_decide(r, u % 3 ? "heed" : "named-crawler", purposes,
	                     u % 3, u, u % 2 ? "/public/a.htm" : "/%7Ex?y=1",
	                     1253836800, &h, &d) != HEED_OK)
		return; /* only HEED_ENOMEM is possible */
	if (d->step_count == 0 || d->line > lines ||
	    (!d->permitted && d->qualifier_count > 0))
		abort();
	for (size_t i = 0; i < d->step_count; i++)
		if (!d->steps[i].text || d->steps[i].line > lines)
			abort();
	heed_acap_decision_free(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct heed_acap_request req[4];
	heed_acap *r = NULL;
	const char *source = NULL, *ref;
	unsigned last = 0, major, minor, lines = 1;
	bool declared;

	for (size_t i = 0; i < size; i++)
		lines += data[i] == '\n' || data[i] == '\r';
	if (heed_acap_parse(&r, NULL, (const char *)data, size) != HEED_OK)
		return 0;
	/* The file as its own referenced file (2.3.2): its references are
	 * then circular, and its definitions are defined twice. */
	ref = heed_acap_reference_get(r, 0);
	if (ref && heed_acap_add_reference(r, ref, (const char *)data, size) ==
	                   HEED_ENOMEM) {
		heed_acap_free(r);
		return 0;
	}
	for (size_t i = 0; i < heed_acap_diag_count(r); i++) {
		const struct heed_acap_diag *d = heed_acap_diag_get(r, i);
		if (d->source != source)
			last = 0; /* each file's diagnostics are in line order
			           */
		source = d->source;
		if (!d->message || (d->line && d->line < last) ||
		    d->line > lines)
			abort();
		last = d->line ? d->line : last;
	}
	for (size_t i = 0; i < heed_acap_field_count(r); i++)
		if (heed_acap_field_get(r, i)->record >=
		    heed_acap_record_count(r))
			abort();
	for (size_t i = 0; i < heed_acap_record_count(r); i++)
		heed_acap_record_names(r, i, "*");
	if (heed_acap_requests(r, "heed", req, 4) > heed_acap_field_count(r))
		abort();
	heed_acap_version(r, &major, &minor, &declared);
	(void)heed_acap_comment_version(r);
	(void)heed_acap_ignores_conventional(r);
	for (unsigned u = 0; u < HEED_ACAP_USAGE_COUNT; u++)
		check_decision(r, (heed_acap_usage)u, lines);
	heed_acap_free(r);
	return 0;
}
