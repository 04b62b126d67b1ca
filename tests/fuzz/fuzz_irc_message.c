/*
 * Fuzz target: IRC line framing and message parsing. Every line the reader
 * hands out fits the buffer and holds no LF; every parsed message has a
 * command, parameters inside the message and a tag lookup that agrees with
 * the tag list.
 */
#include <stdlib.h>
#include <string.h>

#include "heed/irc.h"

static struct heed_irc_reader reader;
static struct heed_irc_msg msg;

static void check(const char *line, size_t len)
{
	char nick[32];

	if (len > HEED_IRC_BUF_MAX + 1 || memchr(line, '\n', len))
		abort();
	if (heed_irc_msg_parse(&msg, line, len) != HEED_OK)
		return;
	if (!msg.command || !*msg.command || msg.nparams > HEED_IRC_MAX_PARAMS)
		abort();
	for (size_t i = 0; i < msg.nparams; i++)
		if (strlen(heed_irc_msg_param(&msg, i)) > HEED_IRC_BUF_MAX)
			abort();
	for (size_t i = 0; i < msg.ntags; i++)
		if (!heed_irc_msg_tag(&msg, msg.tags[i].key))
			abort();
	heed_irc_msg_source_nick(&msg, nick, sizeof(nick));
	if (strlen(nick) >= sizeof(nick) || *heed_irc_msg_param(&msg, 999))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data;

	heed_irc_reader_init(&reader);
	while (size > 0) {
		const char *line;
		size_t len, used = heed_irc_reader_feed(&reader, p, size, &line,
		                                        &len);
		if (used == 0 || used > size)
			abort();
		p += used;
		size -= used;
		if (line)
			check(line, len);
	}
	return 0;
}
