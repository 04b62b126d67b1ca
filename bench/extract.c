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
 *   build/bench/bench_extract --pages DIR [rounds]
 *   build/bench/bench_extract --extract-only
 *
 * The second form times extraction alone over the *.html files in DIR
 * (the labelled real pages, for bench/extract/compare.py), so heed's
 * pages/s there is measured as the other extractors' are: in process,
 * in CPU time, without a process start per page. The third runs one pass
 * of extraction alone over the generated corpus, for an instruction count
 * (valgrind --tool=callgrind) that leaves libxml2's passes out.
 */
#include <dirent.h>
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

/* Reads every *.html file in dir into p (at most max); returns how many,
 * or -1 when dir cannot be read. The caller frees each p[i].data. */
static int load_dir(const char *dir, struct page *p, int max)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while (n < max && (e = readdir(d))) {
		size_t len = strlen(e->d_name);
		char path[4096];
		FILE *f;

		if (len < 5 || strcmp(e->d_name + len - 5, ".html"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		f = fopen(path, "rb");
		if (!f)
			continue;
		fseek(f, 0, SEEK_END);
		p[n].len = (size_t)ftell(f);
		rewind(f);
		p[n].data = malloc(p[n].len ? p[n].len : 1);
		if (p[n].data && fread(p[n].data, 1, p[n].len, f) == p[n].len)
			p[n++].kind = ARTICLE;
		else
			free(p[n].data);
		fclose(f);
	}
	closedir(d);
	return n;
}

/* Median pages/s of extraction alone over the pages in dir. */
static int real_pages(const char *dir, int rounds)
{
	static struct page p[1024];
	double runs[64];
	size_t bytes = 0;
	int n = load_dir(dir, p, 1024);

	if (n <= 0) {
		fprintf(stderr, "bench_extract: no *.html pages in %s\n", dir);
		return 1;
	}
	for (int i = 0; i < n; i++)
		bytes += p[i].len;
	for (int r = 0; r < rounds; r++) {
		double t0 = now_s();
		for (int i = 0; i < n; i++)
			extract_page(&p[i]);
		runs[r] = now_s() - t0;
	}
	qsort(runs, (size_t)rounds, sizeof(double), cmp_double);
	printf("pages %d, %.1f MB, median of %d rounds: %.4f s, %.0f pages/s, "
	       "%.1f MB/s (CPU time)\n",
	       n, (double)bytes / 1e6, rounds, runs[rounds / 2],
	       n / runs[rounds / 2], (double)bytes / runs[rounds / 2] / 1e6);
	for (int i = 0; i < n; i++)
		free(p[i].data);
	return 0;
}

int main(int argc, char **argv)
{
	struct page pages[256];
	int rounds;
	size_t n = 0, bytes[KINDS + 1] = {0};
	int count[KINDS + 1] = {0};

	if (argc > 2 && !strcmp(argv[1], "--pages")) {
		rounds = argc > 3 ? (int)strtol(argv[3], NULL, 10) : 7;
		if (rounds < 1 || rounds > 64)
			rounds = 7;
		return real_pages(argv[2], rounds);
	}
	rounds = argc > 1 ? (int)strtol(argv[1], NULL, 10) : 7;
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
	if (argc > 1 && !strcmp(argv[1], "--extract-only")) {
		for (size_t i = 0; i < n; i++) {
			extract_page(&pages[i]);
			free(pages[i].data);
		}
		printf("extracted %zu pages once; links %zu\n", n, links_seen);
		return 0;
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
