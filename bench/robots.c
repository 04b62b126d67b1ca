/*
 * bench_robots: robots.txt parse throughput (MB/s), parse plus resolving the
 * agent "heed" (what a crawler pays before its first check, MB/s), and URL
 * checks per second on a generated corpus of realistic files: small
 * hand-written-style files, large generated ones with thousands of rules and
 * wildcards, and files near the 500 KiB parse limit, each checked against
 * realistic URLs.
 *
 *   ninja -C build bench/bench_robots && ./build/bench/bench_robots
 *   ./build/bench/bench_robots --write-corpus DIR   (files for other tools)
 *   ./build/bench/bench_robots small   (only the corpora named so)
 *
 * Figures go to docs/performance.md. The corpus is generated from a fixed
 * seed, so runs compare. Each figure is the best of REPEATS runs of about
 * RUN_SECONDS of thread CPU time. google/robotstxt re-parses the file for every
 * check; the "parse+check" line measures heed doing the same.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "heed/robots.h"
#include "xorshift.h"

#define MAX_URLS    2000
#define REPEATS     5
#define RUN_SECONDS 0.3

static uint64_t rng = 88172645463325252ULL;

static unsigned rnd(unsigned n)
{
	return xorshift_below(&rng, n);
}

static const char *const words[] = {
        "news",    "sport",   "video",   "world",  "business", "tech",
        "science", "culture", "opinion", "travel", "food",     "music",
        "film",    "books",   "health",  "money",  "climate",  "local",
        "archive", "tag",     "author",  "search", "product",  "category",
        "user",    "account", "cart",    "login",  "api",      "static",
        "images",  "feeds",   "print",   "amp",    "page",     "comments"};

static const char *word(void)
{
	return words[rnd(sizeof(words) / sizeof(words[0]))];
}

struct text {
	char *s;
	size_t len, cap;
};

static void add(struct text *t, const char *fmt, ...)
        __attribute__((format(printf, 2, 3)));

static void add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
		va_end(ap);
		if ((size_t)n < t->cap - t->len)
			break;
		t->cap = t->cap * 2 + 4096;
		t->s = realloc(t->s, t->cap);
		if (!t->s)
			exit(1);
	}
	t->len += (size_t)n;
}

/* One rule value in the styles real files use. */
static void add_rule(struct text *t)
{
	const char *kind = rnd(5) ? "Disallow" : "Allow";

	switch (rnd(8)) {
	case 0:
		add(t, "%s: /%s/\n", kind, word());
		break;
	case 1:
		add(t, "%s: /%s/%s/%u\n", kind, word(), word(), rnd(100000));
		break;
	case 2:
		add(t, "%s: /*?%s=\n", kind, word());
		break;
	case 3:
		add(t, "%s: /%s/*/%s$\n", kind, word(), word());
		break;
	case 4:
		add(t, "%s: /*.%s$\n", kind, rnd(2) ? "pdf" : "json");
		break;
	case 5:
		add(t, "%s: /%s/%s-%u.html\n", kind, word(), word(), rnd(1000));
		break;
	case 6:
		add(t, "%s: /%s/%%E3%%83%%84/%s\n", kind, word(), word());
		break;
	default:
		add(t, "%s: /%s*%s\n", kind, word(), word());
		break;
	}
}

/* A file of about `rules` rules in `groups` groups, with the records real
 * files mix in. */
static struct text make_file(unsigned groups, unsigned rules)
{
	struct text t = {NULL, 0, 0};
	unsigned g, r;

	add(&t, "# robots.txt generated for bench_robots\n\n");
	for (g = 0; g < groups; g++) {
		if (g == groups - 1)
			add(&t, "User-agent: *\n");
		else
			add(&t, "User-agent: %sBot\nUser-agent: %s-crawler\n",
			    word(), word());
		for (r = 0; r < rules / groups; r++)
			add_rule(&t);
		if (g % 3 == 0)
			add(&t, "Crawl-delay: %u.5\n", rnd(10));
		add(&t, "\n");
	}
	add(&t, "Sitemap: https://www.example.org/sitemap.xml\n");
	return t;
}

static void make_urls(char **urls, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		char buf[512];
		switch (rnd(6)) {
		case 0:
			snprintf(buf, sizeof(buf),
			         "https://www.example.org/%s/2026/%02u/"
			         "%s-%s-%s.html",
			         word(), 1 + rnd(12), word(), word(), word());
			break;
		case 1:
			snprintf(buf, sizeof(buf),
			         "https://www.example.org/%s/%u?%s=%s&sort=%s",
			         word(), rnd(100000), word(), word(), word());
			break;
		case 2:
			snprintf(buf, sizeof(buf),
			         "https://www.example.org/%s/%s/%s/%u/", word(),
			         word(), word(), rnd(100));
			break;
		case 3:
			snprintf(
			        buf, sizeof(buf),
			        "https://www.example.org/%s/caf\xC3\xA9-%s#top",
			        word(), word());
			break;
		case 4:
			snprintf(buf, sizeof(buf),
			         "https://www.example.org/%s/%%7e%s/%s.pdf",
			         word(), word(), word());
			break;
		default:
			snprintf(buf, sizeof(buf), "https://www.example.org/");
			break;
		}
		urls[i] = strdup(buf);
	}
}

static double now_s(void)
{
	struct timespec ts;

	/* CPU time of this thread: the machine is shared, and wall time
	 * would charge heed for other processes' turns. */
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Octets parsed between two reads of the clock: reading this thread's CPU
 * clock is a system call of about 0.55 us here, as long as a whole parse
 * of the small file, so timing each parse would mostly time the clock. */
#define BATCH_BYTES 65536

/* How many parses of a len-octet file make a batch between clock reads. */
static size_t batch_runs(size_t len)
{
	return len >= BATCH_BYTES ? 1 : BATCH_BYTES / len;
}

static _Noreturn void fail(const char *what)
{
	fprintf(stderr, "bench_robots: %s failed\n", what);
	exit(1);
}

/* Parses the file repeatedly for RUN_SECONDS; returns MB/s. */
static double bench_parse(const struct text *t)
{
	double start = now_s(), elapsed;
	size_t runs = 0, batch = batch_runs(t->len), k;

	do {
		for (k = 0; k < batch; k++) {
			heed_robots *r;
			if (heed_robots_parse(&r, NULL, t->s, t->len, NULL) !=
			    HEED_OK)
				fail("parse");
			heed_robots_free(r);
		}
		runs += batch;
	} while ((elapsed = now_s() - start) < RUN_SECONDS);
	return (double)(t->len * runs) / elapsed / 1e6;
}

/* Parses the file and resolves the agent "heed" (compiling the rules of the
 * groups that apply) repeatedly for RUN_SECONDS; returns MB/s. */
static double bench_parse_agent(const struct text *t)
{
	double start = now_s(), elapsed;
	size_t runs = 0, batch = batch_runs(t->len), k;

	do {
		for (k = 0; k < batch; k++) {
			heed_robots *r;
			heed_robots_agent *a;
			if (heed_robots_parse(&r, NULL, t->s, t->len, NULL) !=
			            HEED_OK ||
			    heed_robots_agent_new(&a, r, "heed", 4) != HEED_OK)
				fail("parse");
			heed_robots_agent_free(a);
			heed_robots_free(r);
		}
		runs += batch;
	} while ((elapsed = now_s() - start) < RUN_SECONDS);
	return (double)(t->len * runs) / elapsed / 1e6;
}

/* Checks the URLs against one resolved agent; returns checks/s and counts
 * the disallowed ones. */
static double bench_check(const struct text *t, char **urls, size_t n,
                          size_t *disallowed)
{
	heed_robots *r;
	heed_robots_agent *a;
	struct heed_robots_decision d;
	double start, elapsed;
	size_t checks = 0, i;

	if (heed_robots_parse(&r, NULL, t->s, t->len, NULL) != HEED_OK ||
	    heed_robots_agent_new(&a, r, "heed", 4) != HEED_OK)
		fail("parse");
	*disallowed = 0;
	start = now_s();
	do {
		for (i = 0; i < n; i++) {
			heed_robots_decide(a, urls[i], strlen(urls[i]), &d);
			*disallowed += !d.allowed;
		}
		checks += n;
	} while ((elapsed = now_s() - start) < RUN_SECONDS);
	heed_robots_agent_free(a);
	heed_robots_free(r);
	return (double)checks / elapsed;
}

/* google/robotstxt's model: parse the whole file for every check. */
static double bench_parse_per_check(const struct text *t, char **urls, size_t n)
{
	double start = now_s(), elapsed;
	size_t checks = 0, batch = batch_runs(t->len), k;

	do {
		for (k = 0; k < batch; k++, checks++) {
			heed_robots *r;
			heed_robots_agent *a;
			struct heed_robots_decision d;
			const char *u = urls[checks % n];
			if (heed_robots_parse(&r, NULL, t->s, t->len, NULL) !=
			            HEED_OK ||
			    heed_robots_agent_new(&a, r, "heed", 4) != HEED_OK)
				fail("parse");
			heed_robots_decide(a, u, strlen(u), &d);
			heed_robots_agent_free(a);
			heed_robots_free(r);
		}
	} while ((elapsed = now_s() - start) < RUN_SECONDS);
	return (double)checks / elapsed;
}

static double best(double a, double b)
{
	return a > b ? a : b;
}

static void write_file(const char *dir, const char *name, const char *data,
                       size_t len)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0)
		fail(path);
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		unsigned groups, rules;
	} shapes[] = {
	        {"small (3 groups, 24 rules)", 3, 24},
	        {"large (10 groups, 5,000 rules)", 10, 5000},
	        {"near limit (20 groups, 20,000 rules)", 20, 20000},
	};
	char *urls[MAX_URLS];
	struct rusage ru;
	size_t s;

	make_urls(urls, MAX_URLS);
	if (argc == 3 && strcmp(argv[1], "--write-corpus") == 0) {
		struct text u = {NULL, 0, 0};
		for (s = 0; s < MAX_URLS; s++)
			add(&u, "%s\n", urls[s]);
		write_file(argv[2], "urls.txt", u.s, u.len);
		for (s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
			struct text t =
			        make_file(shapes[s].groups, shapes[s].rules);
			char name[32];
			snprintf(name, sizeof(name), "corpus%zu.txt", s);
			write_file(argv[2], name, t.s, t.len);
			free(t.s);
		}
		free(u.s);
		return 0;
	}
	printf("%-38s %9s %10s %12s %14s %16s\n", "corpus", "bytes",
	       "parse MB/s", "+agent MB/s", "checks/s", "parse+check/s");
	for (s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
		struct text t = make_file(shapes[s].groups, shapes[s].rules);
		size_t disallowed, rep;
		double mbs = 0, pas = 0, cps = 0, ppc = 0;

		if (argc == 2 &&
		    strncmp(shapes[s].name, argv[1], strlen(argv[1])) != 0) {
			free(t.s);
			continue;
		}

		for (rep = 0; rep < REPEATS; rep++) {
			mbs = best(mbs, bench_parse(&t));
			pas = best(pas, bench_parse_agent(&t));
			cps = best(cps, bench_check(&t, urls, MAX_URLS,
			                            &disallowed));
			ppc = best(ppc,
			           bench_parse_per_check(&t, urls, MAX_URLS));
		}

		printf("%-38s %9zu %10.1f %12.1f %14.0f %16.0f\n",
		       shapes[s].name, t.len, mbs, pas, cps, ppc);
		if (disallowed == 0)
			fail("corpus: no URL disallowed");
		free(t.s);
	}
	getrusage(RUSAGE_SELF, &ru);
	printf("peak RSS %ld KiB; %d URLs\n", ru.ru_maxrss, MAX_URLS);
	for (s = 0; s < MAX_URLS; s++)
		free(urls[s]);
	return 0;
}
