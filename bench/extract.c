/*
 * bench/extract: metadata extraction throughput, beside libxml2's
 * bare SAX parse of the same pages.
 *
 * The corpus is generated deterministically (bench/extract_corpus.h), so
 * every run measures the same bytes: video pages, articles, tag listings,
 * 1 MB listings and broken markup.
 *
 * "bare" is htmlParseDocument over the raw page with no-op element and
 * text callbacks, in two modes: "raw", where libxml2 guesses the encoding
 * itself, and "utf8", with UTF-8 forced and the page's declaration
 * ignored, which is how heed must run it (notes 2.3: libxml2's guessing
 * turns a page with one bad byte into Latin-1). "extract" is
 * heed_extract_html() end to end (charset conversion, the parse, JSON-LD,
 * precedence, link resolution). Each is run ROUNDS times over the whole
 * corpus, alternating; the median round is reported. Times are the
 * thread's CPU time, so other processes on a shared machine disturb the
 * figures less than wall time would. MB = 10^6 bytes.
 *
 *   build/bench/bench_extract [rounds]   (default 7)
 */
#include <libxml/HTMLparser.h>
#include <libxml/parserInternals.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/common-int.h"
#include "extract_corpus.h"
#include "heed/extract.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void nop_start(void *ctx, const xmlChar *n, const xmlChar **a)
{
	(void)ctx, (void)n, (void)a;
}

static void nop_end(void *ctx, const xmlChar *n)
{
	(void)ctx, (void)n;
}

static void nop_text(void *ctx, const xmlChar *c, int len)
{
	(void)ctx, (void)c, (void)len;
}

static void bare(const struct page *p, bool utf8)
{
	htmlParserCtxtPtr ctxt =
	        htmlCreateMemoryParserCtxt(p->data, (int)p->len);
	htmlSAXHandler sax;

	memset(&sax, 0, sizeof(sax));
	sax.startElement = nop_start;
	sax.endElement = nop_end;
	sax.characters = nop_text;
	sax.cdataBlock = nop_text;
	memcpy(ctxt->sax, &sax, sizeof(sax));
	htmlCtxtUseOptions(ctxt, HTML_PARSE_RECOVER | HTML_PARSE_NOERROR |
	                                 HTML_PARSE_NOWARNING |
	                                 HTML_PARSE_NONET |
	                                 (utf8 ? HTML_PARSE_IGNORE_ENC : 0));
	if (utf8)
		xmlSwitchEncoding(ctxt, XML_CHAR_ENCODING_UTF8);
	htmlParseDocument(ctxt);
	htmlFreeParserCtxt(ctxt);
}

static void bare_raw(const struct page *p)
{
	bare(p, false);
}

static void bare_utf8(const struct page *p)
{
	bare(p, true);
}

static size_t links_seen;

static void extract_page(const struct page *p)
{
	struct heed_extract_input in = {0};
	heed_page *pg = NULL;

	in.body = p->data;
	in.body_len = p->len;
	in.url = "https://bench.example/p/1";
	in.agent = "heed";
	if (heed_extract_html(&pg, &in, NULL, NULL) != HEED_OK) {
		fprintf(stderr, "extraction failed\n");
		exit(1);
	}
	links_seen += heed_page_link_count(pg);
	heed_page_free(pg);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double pass(void (*fn)(const struct page *), const struct page *p,
                   size_t n, int k)
{
	double t0 = now_s();

	for (size_t i = 0; i < n; i++)
		if (k == KINDS ? p[i].kind != BROKEN : (int)p[i].kind == k)
			fn(&p[i]);
	return now_s() - t0;
}

/* Median seconds of the two bare parses and of extraction over the pages
 * of kind k (KINDS: every well-formed page), alternating them in each
 * round so all see the same machine load. */
static void measure(const struct page *p, size_t n, int k, int rounds,
                    double t[3])
{
	static void (*const fns[3])(const struct page *) = {bare_raw, bare_utf8,
	                                                    extract_page};
	double runs[3][64];

	for (int r = 0; r < rounds; r++)
		for (int f = 0; f < 3; f++)
			runs[f][r] = pass(fns[f], p, n, k);
	for (int f = 0; f < 3; f++) {
		qsort(runs[f], (size_t)rounds, sizeof(double), cmp_double);
		t[f] = runs[f][rounds / 2];
	}
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? (int)strtol(argv[1], NULL, 10) : 7;
	struct page pages[256];
	size_t n = 0, bytes[KINDS + 1] = {0};
	int count[KINDS + 1] = {0};

	if (rounds < 1 || rounds > 64)
		rounds = 7;
	xmlInitParser();
	for (int k = 0; k < KINDS; k++)
		for (int i = 0; i < kind_count[k]; i++) {
			corpus_make(&pages[n], (enum kind)k, (unsigned)n);
			bytes[k] += pages[n].len;
			count[k]++;
			if (k != BROKEN) {
				bytes[KINDS] += pages[n].len;
				count[KINDS]++;
			}
			n++;
		}
	printf("corpus: %zu pages, %.1f MB well-formed + %.1f MB broken; "
	       "%d rounds, median reported\n",
	       n, (double)bytes[KINDS] / 1e6, (double)bytes[BROKEN] / 1e6,
	       rounds);
	printf("%-12s %5s %7s | %8s %8s | %8s %7s | %6s %6s\n", "kind", "pages",
	       "KB/page", "raw MB/s", "utf8MB/s", "heedMB/s", "pages/s",
	       "/utf8", "/raw");
	for (int k = 0; k <= KINDS; k++) {
		double t[3];
		measure(pages, n, k, rounds, t);
		printf("%-12s %5d %7.1f | %8.1f %8.1f | %8.1f %7.0f | %5.0f%% "
		       "%5.0f%%\n",
		       k == KINDS ? "well-formed" : kind_names[k], count[k],
		       (double)bytes[k] / count[k] / 1e3,
		       (double)bytes[k] / t[0] / 1e6,
		       (double)bytes[k] / t[1] / 1e6,
		       (double)bytes[k] / t[2] / 1e6, count[k] / t[2],
		       100.0 * t[1] / t[2], 100.0 * t[0] / t[2]);
	}
	printf("broken: libxml2 alone stops at the first NUL or bad UTF-8 "
	       "byte, so its figure is not comparable\n");
	printf("links returned per pass over the corpus: %zu\n",
	       links_seen / (size_t)(2 * rounds));
	printf("MB/s of CPU time; /utf8 and /raw: extraction's throughput as a "
	       "share of each bare parse\n");
	for (size_t i = 0; i < n; i++)
		free(pages[i].data);
	return 0;
}
