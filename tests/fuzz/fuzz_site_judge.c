/*
 * Fuzz target: the lifecycle's body verdict ("parsed with errors"). Any
 * bytes, with or without an HTML content type, give one of the two
 * verdicts, the same one every time, and never read past the input.
 */
#include <stdint.h>
#include <stdlib.h>

#include "heed/sitepolicy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *body = (const char *)data;
	heed_site_body_verdict a = heed_site_judge_body(body, size, NULL);
	heed_site_body_verdict b =
	        heed_site_judge_body(body, size, "text/html");

	if (a != HEED_SITE_BODY_RULES && a != HEED_SITE_BODY_NOT_ROBOTS)
		abort();
	if (a != heed_site_judge_body(body, size, NULL))
		abort();
	/* Calling it HTML can only take rules away, never add them. */
	if (a == HEED_SITE_BODY_NOT_ROBOTS && b != HEED_SITE_BODY_NOT_ROBOTS)
		abort();
	return 0;
}
