/*
 * Example for docs/api/crawl.md: the crawl controller of heed/crawl.h
 * driven over a network and a clock that exist only in this file, with an
 * in-memory store. The controller never touches a socket or reads a clock,
 * so the caller decides both; heed_crawl_run() does the same over real DNS
 * and HTTP.
 *
 * The one site, http://www.example.org, has no robots.txt (404) and a home
 * page that links to /a and /b; every answer takes 50 ms. The program
 * prints each request with the time it starts, so the spacing that
 * politeness asks for shows.
 *
 *   cc crawl_sim.c $(pkg-config --cflags --libs heed) && ./a.out
 */
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include <heed/crawl.h>

#define SITE       "http://www.example.org"
#define LATENCY_MS 50
#define MAX_OUT    16

/* A fetch on its way: answered once the fake clock reaches due_ms. */
struct pending {
	heed_crawl_req *req;
	const char *url; /* the action's, valid until req is answered */
	int64_t sent_ms, due_ms;
};

static struct pending out[MAX_OUT];
static size_t out_count;

/* The fake server: a status and a body for url. */
static int serve(const char *url, const char **body)
{
	if (strcmp(url, SITE "/") == 0) {
		*body = "<!doctype html><title>Home</title>"
		        "<a href=\"/a\">A</a> <a href=\"/b\">B</a>";
		return 200;
	}
	if (strcmp(url, SITE "/a") == 0 || strcmp(url, SITE "/b") == 0) {
		*body = "<!doctype html><title>A page</title>";
		return 200;
	}
	*body = "not found";
	return 404; /* robots.txt, /sitemap.xml and anything else */
}

/* The fake DNS: every name is one loopback address (which is why the
 * options allow private addresses). */
static void resolve(heed_crawl *c, const struct heed_crawl_action *a,
                    const struct heed_crawl_clock *now)
{
	struct heed_dns_addr addr = {AF_INET, {127, 0, 0, 1}, "127.0.0.1", 300};
	struct heed_dns_result r = {0};

	r.outcome = HEED_DNS_FOUND;
	r.detail = "";
	r.query = a->name;
	r.addrs = &addr;
	r.addr_count = 1;
	heed_crawl_resolved(c, a->req, &r, now); /* r is copied */
}

/* Answers the fetch p at now: the whole answer at once. */
static void answer(heed_crawl *c, const struct pending *p,
                   const struct heed_crawl_clock *now)
{
	struct heed_net_response r = {0};
	const char *body;

	r.status = serve(p->url, &body);
	r.url = p->url;
	r.address = "127.0.0.1";
	r.connected = true;
	r.http_version = 11;
	r.content_type =
	        r.status == 200 ? "text/html; charset=utf-8" : "text/plain";
	r.body = body;
	r.body_len = strlen(body);
	/* When the request left: the moment courtesy counts from. */
	r.sent_ms = p->sent_ms;
	r.first_byte_ms = r.elapsed_ms = now->mono_ms - p->sent_ms;
	heed_crawl_fetched(c, p->req, &r, now);
}

/* Moves the clock to until_ms, or to the first answer due before it, and
 * delivers that answer. */
static void advance(heed_crawl *c, struct heed_crawl_clock *now,
                    int64_t until_ms)
{
	size_t first = MAX_OUT;
	struct pending p;

	for (size_t i = 0; i < out_count; i++)
		if (out[i].due_ms <= until_ms &&
		    (first == MAX_OUT || out[i].due_ms < out[first].due_ms))
			first = i;
	if (first != MAX_OUT)
		until_ms = out[first].due_ms;
	if (until_ms > now->mono_ms) {
		now->unix_ms += until_ms - now->mono_ms;
		now->mono_ms = until_ms;
	}
	if (first == MAX_OUT)
		return;
	p = out[first];
	out[first] = out[--out_count];
	answer(c, &p, now);
}

int main(void)
{
	const char *seeds[] = {SITE "/"};
	struct heed_crawl_clock now = {0, 1767225600000}; /* 2026-01-01 */
	struct heed_crawl_options opt;
	struct heed_crawl_progress prog;
	struct heed_crawl_action a;
	struct heed_diag diag = {0};
	heed_store *store = NULL;
	heed_crawl *c = NULL;
	const char *body;
	int rc = 1;

	heed_crawl_options_default(&opt);
	opt.seeds = seeds;
	opt.seed_count = 1;
	opt.user_agent = "heed/0.1.0 (+https://crawler.example.org/bots)";
	opt.net.allow_private = true;
	if (heed_store_open(&store, ":memory:", NULL, &diag) != HEED_OK ||
	    heed_crawl_new(&c, store, &opt, &now, NULL, &diag) != HEED_OK ||
	    heed_crawl_start(c, &now, &diag) != HEED_OK) {
		fprintf(stderr, "crawl_sim: %s\n", diag.message);
		goto out;
	}
	for (;;) {
		heed_crawl_action_kind k = heed_crawl_next(c, &now, &a);
		if (k == HEED_CRAWL_DONE)
			break;
		if (k == HEED_CRAWL_RESOLVE) {
			resolve(c, &a, &now);
		} else if (k == HEED_CRAWL_FETCH && out_count < MAX_OUT) {
			printf("%5lld ms  GET %-40s %d\n",
			       (long long)now.mono_ms, a.url,
			       serve(a.url, &body));
			out[out_count++] =
			        (struct pending){a.req, a.url, now.mono_ms,
			                         now.mono_ms + LATENCY_MS};
		} else if (k == HEED_CRAWL_WAIT) {
			advance(c, &now, a.until_ms);
		} else {
			break; /* more fetches at once than this fake holds */
		}
	}
	rc = heed_crawl_finish(c, &now) == HEED_OK ? 0 : 1;
	heed_crawl_progress_get(c, &now, &prog);
	printf("%lld requests, %lld pages stored, %lld errors\n",
	       (long long)prog.requests, (long long)prog.pages,
	       (long long)prog.errors);
out:
	heed_crawl_free(c);
	heed_store_close(store);
	return rc;
}
