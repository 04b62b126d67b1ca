/*
 * Fuzz target: ISUPPORT. Each input line is parsed as a message and
 * applied as a 005 line to one table; the table never passes its ceiling,
 * every listed name can be looked up, and the readers with defaults never
 * return NULL.
 */
#include <stdlib.h>
#include <string.h>

#include "heed/irc.h"

static struct heed_irc_msg msg;

static void check(const heed_irc_isupport *is)
{
	size_t n = heed_irc_isupport_count(is);
	struct heed_irc_crawler_pref pref;

	if (n > HEED_IRC_ISUPPORT_MAX_TOKENS ||
	    heed_irc_isupport_name_at(is, n) != NULL)
		abort();
	for (size_t i = 0; i < n; i++)
		if (!heed_irc_isupport_get(is, heed_irc_isupport_name_at(is, i),
		                           NULL, NULL))
			abort();
	if (!heed_irc_isupport_network(is) ||
	    !heed_irc_isupport_chantypes(is) ||
	    !heed_irc_isupport_casemapping(is) ||
	    !heed_irc_isupport_elist(is) || heed_irc_isupport_nicklen(is) <= 0)
		abort();
	(void)heed_irc_isupport_safelist(is);
	(void)heed_irc_isupport_bot_mode(is);
	(void)heed_irc_isupport_maxtargets(is);
	heed_irc_crawler_from_isupport(is, &pref);
	if (pref.cooldown_s < 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	heed_irc_isupport *is;
	const char *p = (const char *)data, *end = p + size;

	if (heed_irc_isupport_new(&is, NULL) != HEED_OK)
		return 0;
	while (p < end) {
		const char *lf = memchr(p, '\n', (size_t)(end - p));
		size_t len = lf ? (size_t)(lf - p) : (size_t)(end - p);
		if (heed_irc_msg_parse(&msg, p, len) == HEED_OK)
			heed_irc_isupport_apply(is, &msg);
		p += len + (lf ? 1 : 0);
	}
	check(is);
	heed_irc_isupport_free(is);
	return 0;
}
