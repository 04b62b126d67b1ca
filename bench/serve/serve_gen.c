/*
 * bench/serve: writes N generated records into a new heed store through the
 * store's API, as a crawl would (heed_store_page_put inside transactions of
 * BATCH pages, the search index caught up after each), so whatever the
 * store does for a page written (the marks, the index's catch-up) is paid
 * here too. Prints the write rate and the store's size: that is what
 * indexing costs a crawl.
 *
 * The records look like a video site's: titles of 4-12 words and
 * descriptions of 15-40 words drawn from a Zipf-distributed vocabulary of
 * VOCAB made-up words, 0-6 tags from a smaller Zipf list, ~2,000 hosts of
 * Zipf-distributed size, view counts with a heavy tail (a quarter without
 * one), published dates over five years, a mix of languages. The record and
 * permissions JSON have the shape src/crawl/record_json.c writes: mostly
 * permitted, ~2% with an ACAP present-snippet max-length, ~0.5% that may
 * not be shown (ACAP present refused or robots unavailable_after passed),
 * ~2.5% stored with a non-2xx status. Everything comes from one xorshift
 * seed and fixed dates, so the same N and seed give the same store.
 *
 *   build/bench/bench_serve_gen [-n N] [-s SEED] STORE
 *   build/bench/bench_serve_gen -u STORE
 *
 * STORE must not exist; with -u it must, and is only migrated to this
 * heed's schema. bench/serve/bench.py runs this and caches the
 * store by N and seed.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "../xorshift.h"
#include "heed/store.h"
#include "heed/store_pages.h"
#include "heed/store_search.h"

#define VOCAB      4000
#define TAGS       600
#define HOSTS      2000
#define BATCH      10000
#define TEXT_MAX   4096
#define JSON_MAX   8192
#define FETCH_T0   1788220800        /* 2026-09-01: first fetch */
#define FETCH_SPAN (90 * 86400)      /* the crawl took 90 days */
#define PUB_SPAN   (5 * 365 * 86400) /* published over 5 years before it */

/* A Zipf distribution over n ranks as its cumulative weights. */
struct zipf {
	double *cdf;
	unsigned n;
};

struct gen {
	uint64_t rng;
	struct zipf words, tags, hosts;
	char *vocab[VOCAB];
	char *host[HOSTS];
	char *site_name[HOSTS];
};

static double uniform(uint64_t *rng)
{
	/* (0, 1]: never 0, so 1 / u and logarithms stay finite. */
	return ((double)xorshift_below(rng, 1u << 30) + 1.0) /
	       (double)(1u << 30);
}

static void zipf_init(struct zipf *z, unsigned n, double s)
{
	double sum = 0;

	z->cdf = malloc(n * sizeof(*z->cdf));
	if (!z->cdf)
		exit(1);
	z->n = n;
	for (unsigned i = 0; i < n; i++) {
		sum += 1.0 / pow((double)(i + 1), s);
		z->cdf[i] = sum;
	}
	for (unsigned i = 0; i < n; i++)
		z->cdf[i] /= sum;
}

/* A rank, 0 the most frequent. */
static unsigned zipf_draw(const struct zipf *z, uint64_t *rng)
{
	double u = uniform(rng);
	unsigned lo = 0, hi = z->n - 1;

	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;
		if (z->cdf[mid] < u)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Word i of the vocabulary: two syllables for the 900 most frequent ranks,
 * three after, so frequent words are short as in real text. Distinct i give
 * distinct words (the syllables are the digits of i in base 30).
 */
static char *make_word(unsigned i)
{
	static const char *const syl[30] = {
	        "ka", "lo", "mi", "ne", "ru", "ta", "si", "po", "da", "ve",
	        "ba", "ko", "li", "mu", "na", "re", "so", "tu", "va", "zi",
	        "fe", "go", "hi", "ja", "ke", "la", "mo", "ni", "pa", "ri"};
	char w[8];
	/* Scrambled (multipliers prime to 900 and 27,000) so that the
	 * frequent words do not all share their first syllable. */
	unsigned n =
	        i < 900 ? (i * 17 + 11) % 900 : ((i - 900) * 7919 + 13) % 27000;

	if (i < 900)
		snprintf(w, sizeof(w), "%s%s", syl[n / 30], syl[n % 30]);
	else
		snprintf(w, sizeof(w), "%s%s%s", syl[n / 900 % 30],
		         syl[n / 30 % 30], syl[n % 30]);
	return strdup(w);
}

static void gen_init(struct gen *g, uint64_t seed)
{
	char buf[64];

	memset(g, 0, sizeof(*g));
	g->rng = seed ? seed : 1;
	zipf_init(&g->words, VOCAB, 1.0);
	zipf_init(&g->tags, TAGS, 0.9);
	zipf_init(&g->hosts, HOSTS, 0.8);
	for (unsigned i = 0; i < VOCAB; i++)
		g->vocab[i] = make_word(i);
	for (unsigned i = 0; i < HOSTS; i++) {
		/* Host and site names from mid-frequency words, so a site
		 * filter and a word in the site column both mean something. */
		const char *a = g->vocab[200 + i % 1500];
		const char *b = g->vocab[1700 + (i * 7) % 2300];
		snprintf(buf, sizeof(buf), "%s%s.example", a, b);
		g->host[i] = strdup(buf);
		snprintf(buf, sizeof(buf), "%c%s %c%s", a[0] - 32, a + 1,
		         b[0] - 32, b + 1);
		g->site_name[i] = strdup(buf);
	}
}

/* Appends count Zipf words to out (space-separated), first one capitalised
 * when cap is set. */
static size_t words(struct gen *g, char *out, size_t size, unsigned count,
                    int cap)
{
	size_t n = 0;

	out[0] = '\0';
	for (unsigned i = 0; i < count && n + 8 < size; i++) {
		const char *w = g->vocab[zipf_draw(&g->words, &g->rng)];
		n += (size_t)snprintf(out + n, size - n, "%s%s", i ? " " : "",
		                      w);
		if (i == 0 && cap)
			out[0] = (char)(out[0] - 32);
	}
	return n;
}

/* A bounded JSON text; values are generated ASCII, escaped all the same. */
struct json {
	char *p;
	size_t n, size;
};

static void put(struct json *j, const char *s)
{
	size_t len = strlen(s);

	if (j->n + len >= j->size) {
		fprintf(stderr, "bench_serve_gen: a JSON text overflowed\n");
		exit(1);
	}
	memcpy(j->p + j->n, s, len + 1);
	j->n += len;
}

static void put_string(struct json *j, const char *s)
{
	char one[3] = {'\\', 0, 0};

	put(j, "\"");
	for (; *s; s++) {
		char c[2] = {*s, 0};
		one[1] = *s;
		put(j, *s == '"' || *s == '\\' ? one : c);
	}
	put(j, "\"");
}

static void put_int(struct json *j, const char *key, long long v)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%s\"%s\":%lld", j->n > 1 ? "," : "", key,
	         v);
	put(j, buf);
}

static void put_field(struct json *j, const char *key, const char *value,
                      const char *source)
{
	if (!value)
		return;
	if (j->n > 1)
		put(j, ",");
	put_string(j, key);
	put(j, ":{\"value\":");
	put_string(j, value);
	put(j, ",\"source\":");
	put_string(j, source);
	put(j, "}");
}

static void iso_date(char *out, size_t size, long long t, int with_time)
{
	time_t tt = (time_t)t;
	struct tm tm;

	gmtime_r(&tt, &tm);
	strftime(out, size, with_time ? "%Y-%m-%dT%H:%M:%SZ" : "%Y-%m-%d", &tm);
}

static const char *language(uint64_t *rng)
{
	static const struct {
		const char *tag;
		unsigned per_100;
	} mix[] = {{"en", 45}, {"en-US", 10}, {"en-GB", 5}, {"de", 10},
	           {"fr", 8},  {"es", 8},     {"ja", 4},    {"pt-BR", 4}};
	unsigned u = xorshift_below(rng, 100), acc = 0;

	for (size_t i = 0; i < sizeof(mix) / sizeof(mix[0]); i++) {
		acc += mix[i].per_100;
		if (u < acc)
			return mix[i].tag;
	}
	return NULL; /* 6%: none declared */
}

/* A heavy tail: median ~100, 1% above ~15,000, a few in the millions. */
static long long views(uint64_t *rng)
{
	double v;

	if (xorshift_below(rng, 4) == 0)
		return -1;
	v = 100.0 * (1.0 / pow(uniform(rng), 1.1) - 1.0);
	return v > 5e7 ? 50000000 : (long long)v;
}

/* The tags of a record into j, and their text (space-separated). */
static void tags(struct gen *g, struct json *j)
{
	unsigned count = xorshift_below(&g->rng, 7), got[6];
	unsigned n = 0;

	put(j, ",\"tags\":[");
	for (unsigned i = 0; i < count; i++) {
		/* Tags are topic words: vocabulary ranks 50 and after. */
		unsigned t = 50 + zipf_draw(&g->tags, &g->rng);
		int dup = 0;
		for (unsigned k = 0; k < n; k++)
			dup |= got[k] == t;
		if (dup)
			continue;
		got[n] = t;
		put(j, n++ ? ",{\"value\":" : "{\"value\":");
		put_string(j, g->vocab[t]);
		put(j, ",\"source\":\"og\"}");
	}
	put(j, "]");
}

/*
 * The permissions JSON: mostly everything permitted; 2% ACAP with a
 * present-snippet max-length; 0.25% ACAP present refused and 0.25% robots
 * unavailable_after passed (both hidden); 1% nosnippet; 1% max-snippet 50.
 */
static void permissions(struct gen *g, char *out, size_t size)
{
	unsigned u = xorshift_below(&g->rng, 10000);
	int snippet_words = xorshift_below(&g->rng, 5) < 2;
	unsigned len = snippet_words ? 5 + xorshift_below(&g->rng, 11)
	                             : 10 + xorshift_below(&g->rng, 31);
	const char *robots = xorshift_below(&g->rng, 10) ? "{\"rules\":true}"
	                                                 : "{\"rules\":false}";
	const char *meta_plain = "{\"noarchive\":false,\"nosnippet\":false,"
	                         "\"nofollow\":false}";
	char acap[640], meta[256];

	snprintf(meta, sizeof(meta), "%s", meta_plain);
	snprintf(acap, sizeof(acap), "null");
	if (u < 250) {
		/* ACAP with a snippet limit; 25 of these refuse present. */
		snprintf(acap, sizeof(acap),
		         "{\"crawl\":{\"permitted\":true,\"line\":3},"
		         "\"index\":{\"permitted\":true,\"line\":4},"
		         "\"follow\":{\"permitted\":true},"
		         "\"present\":{\"permitted\":%s,\"line\":5},"
		         "\"present-snippet\":{\"permitted\":true,\"line\":6,"
		         "\"max_length\":%u,\"max_length_unit\":\"%s\"},"
		         "\"present-thumbnail\":{\"permitted\":false,"
		         "\"line\":7}}",
		         u < 225 ? "true" : "false", len,
		         snippet_words ? "words" : "chars");
	} else if (u < 275) {
		snprintf(meta, sizeof(meta),
		         "{\"noarchive\":false,\"nosnippet\":false,"
		         "\"nofollow\":false,\"unavailable_after\":%d}",
		         FETCH_T0 - 86400);
	} else if (u < 375) {
		snprintf(meta, sizeof(meta),
		         "{\"noarchive\":true,\"nosnippet\":true,"
		         "\"nofollow\":false}");
	} else if (u < 475) {
		snprintf(meta, sizeof(meta),
		         "{\"noarchive\":false,\"nosnippet\":false,"
		         "\"nofollow\":false,\"max_snippet\":50}");
	}
	snprintf(out, size,
	         "{\"robots_txt\":%s,\"acap\":%s,\"meta_robots\":%s}", robots,
	         acap, meta);
}

/* One page: page->* point into the buffers of r. */
struct rec {
	char url[256], title[TEXT_MAX], desc[TEXT_MAX], published[32],
	        modified[32], thumb[256], canonical[256], slug[64];
	char record[JSON_MAX], perms[2048];
	struct heed_stored_page page;
};

static void slug_of(char *out, size_t size, const char *title)
{
	size_t n = 0;

	for (const char *p = title; *p && n + 1 < size && n < 40; p++)
		out[n++] = *p == ' ' ? '-' : (char)(*p | 0x20);
	out[n] = '\0';
}

static void record_json(struct gen *g, struct rec *r, unsigned h,
                        const char *lang, long long v)
{
	struct json j = {r->record, 0, sizeof(r->record)};
	int video = xorshift_below(&g->rng, 4) != 0;
	long long dur = 30 + xorshift_below(&g->rng, 3600);
	char duration[32];

	snprintf(duration, sizeof(duration), "PT%lldM%lldS", dur / 60,
	         dur % 60);
	put(&j, "{");
	put_field(&j, "title", r->title, "og");
	put_field(&j, "description", r->desc,
	          xorshift_below(&g->rng, 3) ? "og" : "meta");
	put_field(&j, "author",
	          xorshift_below(&g->rng, 3)
	                  ? NULL
	                  : g->vocab[zipf_draw(&g->words, &g->rng)],
	          "jsonld");
	put_field(&j, "canonical", r->canonical, "link");
	put_field(&j, "language", lang, "html");
	put_field(&j, "published", r->published[0] ? r->published : NULL,
	          "jsonld");
	put_field(&j, "modified", r->modified[0] ? r->modified : NULL,
	          "jsonld");
	put_field(&j, "thumbnail", r->thumb, "og");
	put_field(&j, "og_type", video ? "video.other" : "article", "og");
	put_field(&j, "schema_type", video ? "VideoObject" : "Article",
	          "jsonld");
	put_field(&j, "site_name", g->site_name[h], "og");
	put_field(&j, "duration", video ? duration : NULL, "jsonld");
	put_field(&j, "charset", "utf-8", "html");
	if (v >= 0) {
		put_int(&j, "views", v);
		put(&j, ",\"views_source\":\"jsonld\"");
	}
	if (video)
		put_int(&j, "duration_s", dur);
	tags(g, &j);
	put(&j, ",\"content_type\":\"text/html; charset=utf-8\"");
	put_int(&j, "byte_size", 20000 + xorshift_below(&g->rng, 80000));
	put_int(&j, "links", 20 + xorshift_below(&g->rng, 200));
	put(&j, "}");
}

static void make_record(struct gen *g, long long i, long long n, struct rec *r)
{
	unsigned h = zipf_draw(&g->hosts, &g->rng);
	unsigned st = xorshift_below(&g->rng, 1000);
	long long fetched = FETCH_T0 + i * (long long)FETCH_SPAN / n;
	long long pub = fetched - 3600 -
	                (long long)(uniform(&g->rng) * (double)PUB_SPAN);
	const char *lang = language(&g->rng);
	long long v = views(&g->rng);
	int dated = xorshift_below(&g->rng, 10) != 0;

	words(g, r->title, sizeof(r->title), 4 + xorshift_below(&g->rng, 9), 1);
	words(g, r->desc, sizeof(r->desc), 15 + xorshift_below(&g->rng, 26), 1);
	slug_of(r->slug, sizeof(r->slug), r->title);
	snprintf(r->url, sizeof(r->url), "https://%s/v/%lld-%s", g->host[h],
	         i + 1, r->slug);
	snprintf(r->canonical, sizeof(r->canonical), "%s", r->url);
	snprintf(r->thumb, sizeof(r->thumb), "https://%s/thumbs/%lld.jpg",
	         g->host[h], i + 1);
	r->published[0] = r->modified[0] = '\0';
	if (dated)
		iso_date(r->published, sizeof(r->published), pub,
		         xorshift_below(&g->rng, 5) < 2);
	if (dated && xorshift_below(&g->rng, 5) == 0)
		iso_date(r->modified, sizeof(r->modified),
		         pub + xorshift_below(&g->rng, 400) * 86400LL, 1);
	record_json(g, r, h, lang, v);
	permissions(g, r->perms, sizeof(r->perms));
	r->page = (struct heed_stored_page){
	        .url = r->url,
	        .final_url = r->url,
	        .host = g->host[h],
	        .status = 200,
	        .fetched_at = fetched,
	        .checked_at = fetched,
	        .title = r->title,
	        .views = v,
	        .published = r->published[0] ? r->published : NULL,
	        .modified = r->modified[0] ? r->modified : NULL,
	        .etag = NULL,
	        .last_modified = NULL,
	        .source_lastmod = HEED_STORE_NO_DATE,
	        .permissions = r->perms,
	        .mode = "full",
	        .record = r->record,
	};
	/* 2.5% answered otherwise: stored as the crawl stores them, with an
	 * empty record, and never in the index. */
	if (st < 25) {
		r->page.status = st < 20 ? 404 : 503;
		r->page.title = r->page.published = r->page.modified = NULL;
		r->page.views = -1;
		r->page.record = "{}";
	}
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static long long file_size(const char *path, const char *suffix)
{
	char name[4096];
	struct stat sb;

	snprintf(name, sizeof(name), "%s%s", path, suffix);
	return stat(name, &sb) == 0 ? (long long)sb.st_size : 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: bench_serve_gen [-n N] [-s SEED] STORE\n"
	                "       bench_serve_gen -u STORE\n");
	return 2;
}

/* -u: opens the existing store (a file or a PostgreSQL URL) for
 * writing, which migrates it to this heed's schema, and closes it: a
 * store of millions of records kept by bench.py is upgraded in the time
 * of the migration instead of written again. */
static int upgrade(const char *path)
{
	struct heed_diag diag = {0};
	heed_store *st = NULL;
	double t0 = now();
	heed_status rc = heed_store_open_ex(&st, path, HEED_STORE_OPEN_EXISTING,
	                                    NULL, &diag);

	if (rc != HEED_OK) {
		fprintf(stderr, "bench_serve_gen: %s\n", diag.message);
		return rc == HEED_ENOTFOUND ? 2 : 1;
	}
	heed_store_close(st);
	printf("upgrade time: %.1f s\n", now() - t0);
	return 0;
}

static int fail(heed_store *st, const char *what)
{
	fprintf(stderr, "bench_serve_gen: %s: %s\n", what,
	        heed_store_errmsg(st));
	heed_store_close(st);
	return 1;
}

int main(int argc, char **argv)
{
	long long n = 1000000;
	unsigned long long seed = 0x5eed2026;
	const char *path = NULL;
	struct heed_diag diag = {0};
	heed_store *st = NULL;
	static struct gen g;
	static struct rec r;
	struct stat sb;
	double t0, t;

	if (argc == 3 && !strcmp(argv[1], "-u"))
		return upgrade(argv[2]);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-n") && i + 1 < argc)
			n = atoll(argv[++i]);
		else if (!strcmp(argv[i], "-s") && i + 1 < argc)
			seed = strtoull(argv[++i], NULL, 0);
		else if (argv[i][0] != '-' && !path)
			path = argv[i];
		else
			return usage();
	}
	if (!path || n < 1)
		return usage();
	if (stat(path, &sb) == 0) {
		fprintf(stderr, "bench_serve_gen: %s exists\n", path);
		return 2;
	}
	if (heed_store_open(&st, path, NULL, &diag) != HEED_OK) {
		fprintf(stderr, "bench_serve_gen: %s\n", diag.message);
		return 1;
	}
	gen_init(&g, seed);
	t0 = now();
	for (long long i = 0; i < n; i++) {
		if (i % BATCH == 0 && heed_store_begin(st) != HEED_OK)
			return fail(st, "begin");
		make_record(&g, i, n, &r);
		if (heed_store_page_put(st, &r.page) != HEED_OK)
			return fail(st, "page_put");
		if ((i + 1) % BATCH == 0 || i + 1 == n) {
			if (heed_store_commit(st) != HEED_OK)
				return fail(st, "commit");
			if (heed_store_search_catch_up(st, 0, NULL) != HEED_OK)
				return fail(st, "search index catch-up");
		}
		if ((i + 1) % 100000 == 0)
			fprintf(stderr,
			        "bench_serve_gen: %lld records, %.0f s\n",
			        i + 1, now() - t0);
	}
	t = now() - t0;
	heed_store_close(st);
	printf("records:    %lld (seed 0x%llx, %d hosts, %d words, batches "
	       "of %d)\n",
	       n, seed, HOSTS, VOCAB, BATCH);
	printf("write time: %.1f s\n", t);
	printf("write rate: %.0f records/s\n", (double)n / t);
	printf("store size: %.1f MiB (%s, after close)\n",
	       (double)(file_size(path, "") + file_size(path, "-wal")) /
	               1048576.0,
	       path);
	return 0;
}
