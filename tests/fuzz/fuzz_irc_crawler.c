/*
 * Fuzz target: the CRAWLER token. Whatever the value, the reading is one of
 * the four verdicts, the cooldown is never negative, a token that breaks
 * the spec always denies with the default cooldown, and merging a reading
 * into itself changes nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "heed/irc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char decoded[2048], text[512];
	struct heed_irc_crawler_pref pref, merged;
	size_t len = heed_irc_isupport_unescape((const char *)data, size,
	                                        decoded, sizeof(decoded));

	heed_irc_crawler_parse(decoded, len, size > 0, &pref);
	if (pref.verdict > HEED_IRC_CRAWLER_INVALID || pref.cooldown_s < 0)
		abort();
	if (pref.verdict == HEED_IRC_CRAWLER_INVALID &&
	    (!heed_irc_crawler_denies(&pref) ||
	     pref.cooldown_s != HEED_IRC_CRAWLER_DEFAULT_COOLDOWN))
		abort();
	merged = pref;
	heed_irc_crawler_merge(&merged, &pref);
	if (memcmp(&merged, &pref, sizeof(pref)) != 0)
		abort();
	heed_irc_crawler_describe_problems(pref.problems, text, sizeof(text));
	if (strlen(text) >= sizeof(text) ||
	    !*heed_irc_crawler_verdict_name(pref.verdict))
		abort();
	return 0;
}
