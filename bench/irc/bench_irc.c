/*
 * bench/irc: how fast heed reads a LIST. Builds a 100,000-channel LIST in
 * memory (322 lines like real servers send, with topics of 20-60 bytes) and
 * measures, each best of five runs:
 *   1. heed_irc_msg_parse alone (lines per second);
 *   2. the whole visit core: reader framing + parser + session filters, fed
 *      in 16 KiB reads as the shell does (lines per second);
 *   3. the same into the SQLite store (channels per second, a temp file).
 * Prints the figures; asserts nothing about time.
 *
 *   ninja -C build bench/bench_irc && build/bench/bench_irc
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "heed/irc.h"
#include "heed/store_irc.h"

#define CHANNELS 100000
#define RUNS     5

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static char *make_list(size_t *len)
{
	size_t cap = (size_t)CHANNELS * 128 + 1024, n = 0;
	char *buf = malloc(cap);

	if (!buf)
		exit(1);
	n += (size_t)snprintf(buf + n, cap - n,
	                      ":irc.bench 321 heed Channel :Users  Name\r\n");
	for (int i = 0; i < CHANNELS; i++)
		n += (size_t)snprintf(
		        buf + n, cap - n,
		        ":irc.bench 322 heed #channel-%d %d :[+nt] "
		        "topic of channel %d%.*s\r\n",
		        i, i % 500, i, i % 40,
		        " with some more words in it to vary");
	n += (size_t)snprintf(buf + n, cap - n,
	                      ":irc.bench 323 heed :End of /LIST\r\n");
	*len = n;
	return buf;
}

static double bench_parse(const char *list, size_t len, size_t *lines)
{
	static struct heed_irc_msg m;
	double t0 = now();
	const char *p = list, *end = list + len;

	*lines = 0;
	while (p < end) {
		const char *lf = memchr(p, '\n', (size_t)(end - p));
		if (heed_irc_msg_parse(&m, p, (size_t)(lf - p)) == HEED_OK)
			(*lines)++;
		p = lf + 1;
	}
	return now() - t0;
}

struct sink {
	heed_store_irc *w;
	int64_t net, visit;
	uint64_t channels;
	int lists, links;
};

static void on_action(void *ud, const struct heed_irc_action *a)
{
	struct sink *s = ud;

	if (a->kind == HEED_IRC_ACT_SEND && strncmp(a->line, "LIST", 4) == 0)
		s->lists++;
	if (a->kind == HEED_IRC_ACT_SEND && strncmp(a->line, "LINKS", 5) == 0)
		s->links++;
	if (a->kind != HEED_IRC_ACT_CHANNEL)
		return;
	s->channels++;
	if (s->w)
		heed_store_irc_channel(s->w, s->net, s->visit, a->channel,
		                       a->users, a->topic, strlen(a->topic), 1);
}

static const char welcome[] =
        ":irc.bench 001 heed :Welcome\r\n:irc.bench 004 heed irc.bench b-1 "
        "i b\r\n:irc.bench 005 heed NETWORK=Bench CHANTYPES=# :are "
        "supported\r\n:irc.bench 376 heed :End of MOTD\r\n";
static const char links_end[] = ":irc.bench 365 heed * :End of LINKS\r\n";

/* Drives a session up to its LIST, then feeds the list in 16 KiB reads. */
static double bench_session(const char *list, size_t len, struct sink *sink)
{
	struct heed_irc_session_config cfg = {0};
	heed_irc_session *s;
	int64_t t = 0;
	double t0;

	if (heed_irc_session_new(&s, &cfg, on_action, sink, NULL) != HEED_OK)
		exit(1);
	heed_irc_session_connected(s, t);
	heed_irc_session_recv(s, welcome, strlen(welcome), t);
	for (int answered = 0; !sink->lists && t < 60000;) {
		heed_irc_session_tick(s, t += 500);
		if (sink->links && !answered++)
			heed_irc_session_recv(s, links_end, strlen(links_end),
			                      t);
	}
	t0 = now();
	for (size_t off = 0; off < len; off += 16384)
		heed_irc_session_recv(s, list + off,
		                      len - off < 16384 ? len - off : 16384, t);
	t0 = now() - t0;
	heed_irc_session_free(s);
	return t0;
}

static double bench_store(const char *list, size_t len, uint64_t *n)
{
	char path[] = "/tmp/heed-bench-irc-XXXXXX";
	int fd = mkstemp(path);
	struct sink sink = {0};
	heed_store *st;
	double took;

	if (fd < 0)
		exit(1);
	close(fd);
	if (heed_store_open(&st, path, NULL, NULL) != HEED_OK ||
	    heed_store_irc_new(&sink.w, st) != HEED_OK ||
	    heed_store_irc_network(sink.w, "bench:6667", 1, &sink.net, NULL) ||
	    heed_store_irc_visit_begin(sink.w, sink.net, "bench", 6667, false,
	                               1, &sink.visit))
		exit(1);
	took = bench_session(list, len, &sink);
	double t0 = now();
	heed_store_irc_flush(sink.w);
	took += now() - t0;
	*n = sink.channels;
	heed_store_irc_free(sink.w);
	heed_store_close(st);
	unlink(path);
	for (int i = 0; i < 2; i++) {
		char side[64];
		snprintf(side, sizeof(side), "%s%s", path, i ? "-shm" : "-wal");
		unlink(side);
	}
	return took;
}

int main(void)
{
	size_t len, lines = 0;
	char *list = make_list(&len);
	double best[3] = {1e9, 1e9, 1e9};
	uint64_t channels = 0, stored = 0;

	for (int r = 0; r < RUNS; r++) {
		struct sink sink = {0};
		double t = bench_parse(list, len, &lines);
		best[0] = t < best[0] ? t : best[0];
		t = bench_session(list, len, &sink);
		best[1] = t < best[1] ? t : best[1];
		channels = sink.channels;
		t = bench_store(list, len, &stored);
		best[2] = t < best[2] ? t : best[2];
	}
	printf("LIST of %d channels, %.1f MiB, best of %d runs\n", CHANNELS,
	       (double)len / 1048576.0, RUNS);
	printf("parse only:        %9.0f lines/s (%zu lines, %.3f s)\n",
	       (double)lines / best[0], lines, best[0]);
	printf("session (reader+parser+filters): %9.0f lines/s (%llu "
	       "channels, %.3f s)\n",
	       (double)(CHANNELS + 2) / best[1], (unsigned long long)channels,
	       best[1]);
	printf("session + SQLite store:          %9.0f channels/s (%llu "
	       "stored, %.3f s)\n",
	       (double)stored / best[2], (unsigned long long)stored, best[2]);
	free(list);
	return channels == CHANNELS && stored == CHANNELS ? 0 : 1;
}
