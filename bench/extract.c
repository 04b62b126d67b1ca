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
 *   build/bench/bench_extract --compare PASSES [--pages DIR]... LIB.so...
 *
 * The second form times extraction alone over the *.html files in DIR
 * (the labelled real pages, for bench/extract/compare.py), so heed's
 * pages/s there is measured as the other extractors' are: in process,
 * in CPU time, without a process start per page. The third runs one pass
 * of extraction alone over the generated corpus, for an instruction count
 * (valgrind --tool=callgrind) that leaves libxml2's passes out.
 *
 * The fourth compares builds of heed in one process: each LIB.so (a
 * build's libheed.so.*) is dlopen()ed on its own (RTLD_LOCAL |
 * RTLD_DEEPBIND) and their extractions alternate pass by pass over the
 * same pages, the generated well-formed ones or every *.html of each DIR;
 * the best pass of each is reported, in MB/s of CPU time. On a host whose
 * pace swings within seconds (a shared machine's neighbours), runs of one
 * build after another, or a ratio to libxml2 taken minutes apart, cannot
 * tell a few per cent; passes side by side can.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <libxml/HTMLparser.h>
#include <libxml/parserInternals.h>
#include <malloc.h>
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

typedef heed_status (*extract_fn)(heed_page **,
                                  const struct heed_extract_input *,
                                  const struct heed_allocator *,
                                  struct heed_diag *);
typedef void (*page_free_fn)(heed_page *);

/* A build under comparison: its extraction, and the best pass's time. */
struct build {
	const char *lib;
	extract_fn extract;
	page_free_fn page_free;
	double best;
};

/* Opens lib on its own (its symbols neither seen by nor taken from the
 * others'); false with a message when it cannot. */
static bool build_open(struct build *b, const char *lib)
{
	void *d = dlopen(lib, RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);

	b->lib = lib;
	b->best = 1e30;
	if (d) {
		b->extract = (extract_fn)dlsym(d, "heed_extract_html");
		b->page_free = (page_free_fn)dlsym(d, "heed_page_free");
	}
	if (!d || !b->extract || !b->page_free) {
		fprintf(stderr, "bench_extract: %s: %s\n", lib,
		        d ? "no heed_extract_html" : dlerror());
		return false;
	}
	return true;
}

/* Seconds of one pass of build b over the pages. */
static double build_pass(const struct build *b, const struct page *p, size_t n)
{
	double t0 = now_s();

	for (size_t i = 0; i < n; i++) {
		struct heed_extract_input in = {0};
		heed_page *pg = NULL;
		in.body = p[i].data;
		in.body_len = p[i].len;
		in.url = "https://bench.example/p/1";
		in.agent = "heed";
		if (b->extract(&pg, &in, NULL, NULL) != HEED_OK) {
			fprintf(stderr, "extraction failed\n");
			exit(1);
		}
		b->page_free(pg);
	}
	return now_s() - t0;
}

/* The --compare form: passes rounds over the pages, the builds in turn
 * (the order reversed every other round, so neither end is favoured). */
static int compare(struct build *b, int nb, const struct page *p, size_t n,
                   int passes)
{
	size_t bytes = 0;

	for (size_t i = 0; i < n; i++)
		bytes += p[i].len;
	/* As heed crawl runs: a page's arenas are not handed back to the
	 * system between pages. */
	(void)mallopt(M_TRIM_THRESHOLD, 64 << 20);
	(void)mallopt(M_MMAP_THRESHOLD, 8 << 20);
	for (int r = 0; r < passes; r++)
		for (int k = 0; k < nb; k++) {
			struct build *x = &b[(r & 1) ? nb - 1 - k : k];
			double t = build_pass(x, p, n);
			if (t < x->best)
				x->best = t;
		}
	printf("%zu pages, %.1f MB, best of %d passes each, builds "
	       "alternated\n",
	       n, (double)bytes / 1e6, passes);
	for (int k = 0; k < nb; k++)
		printf("%8.1f MB/s  %s\n", (double)bytes / b[k].best / 1e6,
		       b[k].lib);
	return 0;
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

/* --compare's arguments after the word: PASSES [--pages DIR]... LIB... */
static int compare_main(int argc, char **argv)
{
	static struct page p[8192];
	struct build b[8];
	int passes = (int)strtol(argv[0], NULL, 10), nb = 0, rc;
	size_t n = 0;
	bool dirs = false;

	if (passes < 1 || passes > 1000)
		passes = 20;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--pages") && i + 1 < argc) {
			int got = load_dir(argv[++i], p + n,
			                   (int)(HEED_ARRAY_SIZE(p) - n));
			if (got < 0) {
				fprintf(stderr,
				        "bench_extract: cannot read %s\n",
				        argv[i]);
				return 1;
			}
			n += (size_t)got;
			dirs = true;
		} else if (nb == (int)HEED_ARRAY_SIZE(b) ||
		           !build_open(&b[nb++], argv[i])) {
			return 1;
		}
	}
	if (!nb || (dirs && !n)) {
		fprintf(stderr, "bench_extract: no %s\n",
		        nb ? "*.html pages" : "build to compare");
		return 1;
	}
	/* The well-formed pages of the generated corpus, made as main()
	 * makes them (each page's id is its place in the whole corpus). */
	for (unsigned id = 0, k = 0; !dirs && k < KINDS; k++)
		for (int i = 0; i < kind_count[k]; i++, id++) {
			corpus_make(&p[n], (enum kind)k, id);
			if (k == BROKEN)
				free(p[n].data);
			else
				n++;
		}
	rc = compare(b, nb, p, n, passes);
	for (size_t i = 0; i < n; i++)
		free(p[i].data);
	return rc;
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
	if (argc > 3 && !strcmp(argv[1], "--compare"))
		return compare_main(argc - 2, argv + 2);
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
