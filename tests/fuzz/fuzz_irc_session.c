/*
 * Fuzz target: the visit state machine fed a hostile server. The input is
 * cut into chunks, each delivered 700 ms after the last with a tick in
 * between, then time runs on until the visit ends. Invariants: every line
 * heed sends is at most 512 bytes, ends in CRLF and holds no other CR, LF
 * or NUL; END and CLOSE come exactly once, END before CLOSE, and nothing
 * after CLOSE; the visit always ends, however the server behaves. With
 * bit 2 of the first byte the operator stops the run (SIGINT) before the
 * chunk that the first byte's high bits name, and again after it: the
 * visit still ends exactly once.
 */
#include <stdlib.h>
#include <string.h>

#include "heed/irc.h"

struct watch {
	int ends, closes, after_close;
};

static void on_action(void *ud, const struct heed_irc_action *a)
{
	struct watch *w = ud;

	if (w->closes)
		w->after_close++;
	if (a->kind == HEED_IRC_ACT_END && (w->ends++ || w->closes))
		abort();
	if (a->kind == HEED_IRC_ACT_CLOSE && (w->closes++ || !w->ends))
		abort();
	if (a->kind != HEED_IRC_ACT_SEND)
		return;
	if (a->line_len > HEED_IRC_LINE_MAX || a->line_len < 3 ||
	    memcmp(a->line + a->line_len - 2, "\r\n", 2) != 0 ||
	    strcspn(a->line, "\r\n") != a->line_len - 2)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct heed_irc_session_config cfg = {0};
	struct watch w = {0, 0, 0};
	heed_irc_session *s;
	int64_t t = 0;

	cfg.tls = size > 0 && data[0] & 1;
	cfg.require_consent = size > 0 && data[0] & 2;
	if (heed_irc_session_new(&s, &cfg, on_action, &w, NULL) != HEED_OK)
		return 0;
	heed_irc_session_connected(s, t);
	for (size_t off = 0, i = 0; off < size && !w.ends; off += 97, i++) {
		size_t n = size - off < 97 ? size - off : 97;
		if ((data[0] & 4) && i == (size_t)(data[0] >> 3))
			heed_irc_session_stop(s, t);
		heed_irc_session_recv(s, (const char *)data + off, n, t += 700);
		heed_irc_session_tick(s, t);
		if ((data[0] & 4) && i == (size_t)(data[0] >> 3))
			heed_irc_session_stop(s, t);
	}
	while (!w.ends && t < 3600000)
		heed_irc_session_tick(s, t += 1000);
	if (w.ends != 1 || w.closes != 1 || w.after_close ||
	    heed_irc_session_status(s) == HEED_IRC_VISIT_RUNNING)
		abort();
	heed_irc_session_free(s);
	return 0;
}
