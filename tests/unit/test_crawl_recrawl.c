/*
 * Recrawls through the whole crawl controller on an injected
 * clock: a fake web whose every answer carries an ETag and a Last-Modified
 * and answers 304 to a matching If-None-Match, over a real SQLite store,
 * crawled again and again over simulated days.
 *
 * The witness is the fake server's log: which URLs were asked, whether
 * with validators (and the right ones), what was answered, when. The web
 * has one site alone on an address and three sites sharing another, so
 * the courtesy check (no two requests to a host under 1 s apart, across
 * every run) covers both.
 *
 * The same fake web and clock check that a crawl honours arrangements with
 * site owners: a crawl window that closes during the run, a
 * pause, an arranged delay, a page limit and excluded paths.
 *
 * And that the files ACAP-permissions-reference fields name
 * are asked right after robots.txt and before any page, once, reused by
 * later runs within the re-check, asked again (conditionally) with
 * robots.txt, and that a reference answering 404 keeps heed prohibited.
 *
 * And that a crawl's spare time, waiting with nothing out, is where its
 * batch commits and its search index catches up.
 */
#include "heed_test.h"

#include <sqlite3.h>
#include <sys/socket.h>
#include <time.h>

#include "heed/crawl.h"
#include "heed/store.h"
#include "heed/store_arrangements.h"
#include "heed/store_pages.h"
#include "heed/store_visits.h"
#include "store/sqlite-int.h"

#define SITES      4
#define PAGES      4
#define MAX_LOG    4096
#define MAX_FLIGHT 64
/* The fake clocks: Unix time starts on 2027-01-15 08:00 UTC. */
#define UNIX_START_S 1800000000LL
#define HOUR_S       3600LL
#define DAY_S        86400LL

static const char *const hosts[SITES] = {"a.test", "b.test", "c.test",
                                         "d.test"};
/* a.test alone, the other three on one address. */
static const char *const addrs[SITES] = {"127.0.0.2", "127.0.0.3", "127.0.0.3",
                                         "127.0.0.3"};

/* Paths of a site: 0 robots.txt, 1 /, 2 sitemap, 3.. the pages. */
#define P_ROBOTS  0
#define P_HOME    1
#define P_SITEMAP 2
#define P_PAGE0   3
#define P_COUNT   (P_PAGE0 + PAGES)
/* With sim.acap: the file robots.txt's ACAP-permissions-reference names
 * (a.test answers 404 for it). */
#define P_ACAP P_COUNT
#define P_ALL  (P_COUNT + 1)

struct resource {
	int version;
	int64_t modified_s; /* Last-Modified and the sitemap's lastmod */
	int unavailable;    /* answer 503 to this many requests first */
};

struct entry {
	int site, path;
	int status;
	bool inm, ims;  /* If-None-Match, If-Modified-Since sent */
	bool inm_right; /* If-None-Match named the current version's ETag */
	bool ims_right; /* If-Modified-Since gave its Last-Modified */
	int64_t start_ms;
};

struct flight {
	heed_crawl_req *req;
	int site, path;
	int64_t at_ms;
	char url[128];
	bool inm_match, inm, ims, inm_right, ims_right;
};

struct sim {
	heed_store *store;
	heed_crawl *c;
	struct heed_crawl_options opt;
	int64_t mono_ms, unix_ms;
	struct resource web[SITES][P_ALL];
	bool acap; /* robots.txt names an ACAP file for heed */
	const char *acap_elsewhere[SITES]; /* a site names this instead */
	struct entry log[MAX_LOG];
	size_t log_len, run_start;
	struct flight fl[MAX_FLIGHT];
	size_t fl_len;
	char body[4096];
	char etag[64], lastmod[64];
	char path[128]; /* the store */
	/* Hand this many page requests back unsent, as the network shell
	 * does with a request whose decision went stale before it left. */
	int unsend;
	/* Look at the store whenever heed waits with nothing out, and say
	 * how many times it waited so with spare time. */
	bool look_when_spare;
	int spare_looks;
	/* Reads of one URL's visit row in the last run, as SQLite's trace
	 * saw them run, and of a site's known URLs. */
	int url_reads, site_reads;
};

static struct sim sim;

static struct heed_crawl_clock now_clock(void)
{
	struct heed_crawl_clock t = {sim.mono_ms, sim.unix_ms};

	return t;
}

static void advance(int64_t seconds)
{
	sim.mono_ms += seconds * 1000;
	sim.unix_ms += seconds * 1000;
}

static const char *path_of(int p, char *buf, size_t size)
{
	if (p == P_ROBOTS)
		return "/robots.txt";
	if (p == P_HOME)
		return "/";
	if (p == P_SITEMAP)
		return "/sitemap.xml";
	if (p == P_ACAP)
		return "/acap-heed.txt";
	snprintf(buf, size, "/p/%d.html", p - P_PAGE0);
	return buf;
}

static void iso_date(int64_t t, char *buf, size_t size)
{
	time_t tt = (time_t)t;
	struct tm tm;

	gmtime_r(&tt, &tm);
	strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static void validators(int site, int p)
{
	time_t tt = (time_t)sim.web[site][p].modified_s;
	struct tm tm;

	snprintf(sim.etag, sizeof(sim.etag), "\"%d-%d-v%d\"", site, p,
	         sim.web[site][p].version);
	gmtime_r(&tt, &tm);
	strftime(sim.lastmod, sizeof(sim.lastmod), "%a, %d %b %Y %H:%M:%S GMT",
	         &tm);
}

/* The ACAP record robots.txt ends with. */
static const char *acap_lines(int site)
{
	if (!sim.acap)
		return "";
	if (sim.acap_elsewhere[site]) {
		static char lines[128];
		snprintf(lines, sizeof(lines),
		         "ACAP-crawler: heed\nACAP-permissions-reference: %s\n",
		         sim.acap_elsewhere[site]);
		return lines;
	}
	return "ACAP-crawler: heed\n"
	       "ACAP-permissions-reference: /acap-heed.txt\n";
}

static size_t body_of(int site, int p)
{
	size_t n = 0, size = sizeof(sim.body);
	char date[32], buf[32];

	if (p == P_ROBOTS)
		return (size_t)snprintf(sim.body, size,
		                        "User-agent: *\nAllow: /\n"
		                        "Sitemap: http://%s/sitemap.xml\n%s",
		                        hosts[site], acap_lines(site));
	if (p == P_ACAP)
		return (size_t)snprintf(sim.body, size,
		                        "ACAP-crawler: *\n"
		                        "ACAP-disallow-crawl: /p/1.html\n");
	if (p == P_SITEMAP) {
		n += (size_t)snprintf(sim.body + n, size - n,
		                      "<?xml version=\"1.0\"?>\n<urlset xmlns="
		                      "\"http://www.sitemaps.org/schemas/"
		                      "sitemap/0.9\">\n");
		for (int k = P_PAGE0; k < P_COUNT; k++) {
			iso_date(sim.web[site][k].modified_s, date,
			         sizeof(date));
			n += (size_t)snprintf(
			        sim.body + n, size - n,
			        "<url><loc>http://%s%s</loc><lastmod>%s"
			        "</lastmod></url>\n",
			        hosts[site], path_of(k, buf, sizeof(buf)),
			        date);
		}
		return n +
		       (size_t)snprintf(sim.body + n, size - n, "</urlset>\n");
	}
	n += (size_t)snprintf(sim.body + n, size - n,
	                      "<!doctype html><html><head><title>%s %d "
	                      "version %d</title></head><body>",
	                      hosts[site], p, sim.web[site][p].version);
	for (int k = P_PAGE0; p == P_HOME && k < P_COUNT; k++)
		n += (size_t)snprintf(sim.body + n, size - n,
		                      "<a href=\"%s\">page</a>\n",
		                      path_of(k, buf, sizeof(buf)));
	return n + (size_t)snprintf(sim.body + n, size - n, "</body></html>\n");
}

/* The request's site and path, from its URL. */
static bool locate(const char *url, int *site, int *path)
{
	char buf[32];

	for (int s = 0; s < SITES; s++) {
		size_t len = strlen(hosts[s]);
		if (strncmp(url, "http://", 7) != 0 ||
		    strncmp(url + 7, hosts[s], len) != 0)
			continue;
		for (int p = 0; p < P_ALL; p++)
			if (strcmp(url + 7 + len,
			           path_of(p, buf, sizeof(buf))) == 0) {
				*site = s;
				*path = p;
				return true;
			}
	}
	return false;
}

/* a.test's ACAP file is missing. */
static bool gone(int site, int path)
{
	return path == P_ACAP && site == 0;
}

static void fetch_start(const struct heed_crawl_action *a)
{
	struct flight *f;

	assert_true(sim.fl_len < MAX_FLIGHT);
	f = &sim.fl[sim.fl_len++];
	memset(f, 0, sizeof(*f));
	f->req = a->req;
	f->at_ms = sim.mono_ms + 20;
	snprintf(f->url, sizeof(f->url), "%s", a->url);
	if (!locate(a->url, &f->site, &f->path))
		fail_msg("heed asked for a URL the web does not have: %s",
		         a->url);
	validators(f->site, f->path);
	for (size_t i = 0; i < a->header_count; i++) {
		const char *h = a->headers[i];
		if (strncmp(h, "If-None-Match: ", 15) == 0) {
			f->inm = true;
			f->inm_right = f->inm_match =
			        strcmp(h + 15, sim.etag) == 0;
		} else if (strncmp(h, "If-Modified-Since: ", 19) == 0) {
			f->ims = true;
			f->ims_right = strcmp(h + 19, sim.lastmod) == 0;
		}
	}
	assert_true(sim.log_len < MAX_LOG);
	sim.log[sim.log_len++] = (struct entry){
	        .site = f->site,
	        .path = f->path,
	        .status = sim.web[f->site][f->path].unavailable ? 503
	                  : gone(f->site, f->path)              ? 404
	                  : f->inm_match                        ? 304
	                                                        : 200,
	        .inm = f->inm,
	        .ims = f->ims,
	        .inm_right = f->inm_right,
	        .ims_right = f->ims_right,
	        .start_ms = sim.mono_ms,
	};
}

static void deliver(size_t i)
{
	struct flight f = sim.fl[i];
	struct heed_net_response r = {0};
	struct heed_net_response head;
	struct heed_crawl_clock t = now_clock();

	sim.fl[i] = sim.fl[--sim.fl_len];
	validators(f.site, f.path);
	r.error = HEED_NET_OK;
	r.error_text = "";
	r.url = f.url;
	r.address = addrs[f.site];
	r.connected = true;
	r.status = f.inm_match ? 304 : 200;
	r.http_version = 11;
	r.etag = sim.etag;
	r.last_modified = sim.lastmod;
	r.sent_ms = f.at_ms - 19;
	r.first_byte_ms = 10;
	r.elapsed_ms = 20;
	if (sim.web[f.site][f.path].unavailable) {
		sim.web[f.site][f.path].unavailable--;
		r.status = 503;
		r.etag = r.last_modified = NULL;
	} else if (gone(f.site, f.path)) {
		r.status = 404;
		r.etag = r.last_modified = NULL;
	} else if (!f.inm_match) {
		r.body_len = body_of(f.site, f.path);
		r.body = sim.body;
		r.content_type = f.path == P_ROBOTS || f.path == P_ACAP
		                         ? "text/plain"
		                 : f.path == P_SITEMAP ? "application/xml"
		                                       : "text/html";
	}
	head = r;
	head.body = NULL;
	head.body_len = 0;
	assert_true(heed_crawl_headers(sim.c, f.req, &head));
	heed_crawl_fetched(sim.c, f.req, &r, &t);
}

static void resolve(const struct heed_crawl_action *a)
{
	struct heed_dns_addr addr = {0};
	struct heed_dns_result res = {0};
	struct heed_crawl_clock t = now_clock();
	int site = -1;

	for (int s = 0; s < SITES; s++)
		if (strcmp(a->name, hosts[s]) == 0)
			site = s;
	assert_true(site >= 0);
	addr.family = AF_INET;
	addr.bytes[0] = 127;
	addr.bytes[3] = (uint8_t)(addrs[site][8] - '0');
	snprintf(addr.text, sizeof(addr.text), "%s", addrs[site]);
	addr.ttl_s = 300;
	res.outcome = HEED_DNS_FOUND;
	res.detail = "simulated";
	res.query = a->name;
	res.addrs = &addr;
	res.addr_count = 1;
	heed_crawl_resolved(sim.c, a->req, &res, &t);
}

/* One count from the store, read as another process would. */
static int count_in_store(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	int n;

	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	n = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return n;
}

/* heed waits with nothing out and nothing due for 200 ms or more (the
 * crawl's spare time): its batch has committed, so every page answered
 * is in the store for any reader and the store's write lock is free, and
 * the search index holds every page answered 2 s ago or more (its
 * catch-up's pace). */
static void look_when_spare(int64_t until_ms)
{
	sqlite3 *db;
	int pages = 0, old_pages = 0;

	if (sim.fl_len || until_ms - sim.mono_ms < 200)
		return;
	sim.spare_looks++;
	for (size_t i = sim.run_start; i < sim.log_len; i++)
		if (sim.log[i].status == 200 && (sim.log[i].path == P_HOME ||
		                                 (sim.log[i].path >= P_PAGE0 &&
		                                  sim.log[i].path < P_COUNT))) {
			pages++;
			/* Answered 20 ms after it started (fetch_start). */
			if (sim.log[i].start_ms + 20 <= sim.mono_ms - 2000)
				old_pages++;
		}
	assert_int_equal(sqlite3_open(sim.path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "BEGIN IMMEDIATE; ROLLBACK;", NULL,
	                              NULL, NULL),
	                 SQLITE_OK);
	assert_int_equal(count_in_store(db, "SELECT count(*) FROM pages"),
	                 pages);
	assert_true(count_in_store(db, "SELECT count(*) FROM "
	                               "search_fts_docsize") >= old_pages);
	sqlite3_close(db);
}

/* Runs one crawl to its end, which must be ending (heed_crawl_finish's
 * answer); the log from sim.run_start is its own. */
static struct heed_crawl_progress crawl_ending(heed_crawl_mode mode,
                                               bool refresh, heed_status ending)
{
	static const char *seeds[SITES];
	struct heed_diag diag = {0};
	struct heed_crawl_clock t = now_clock();
	struct heed_crawl_action a;
	struct heed_crawl_progress p;
	int steps = 0;
	char url[SITES][64];

	for (int s = 0; s < SITES; s++) {
		snprintf(url[s], sizeof(url[s]), "http://%s/", hosts[s]);
		seeds[s] = url[s];
	}
	heed_crawl_options_default(&sim.opt);
	sim.opt.mode = mode;
	sim.opt.refresh_all = refresh;
	sim.opt.seeds = seeds;
	sim.opt.seed_count = SITES;
	sim.opt.agent_token = "heed";
	sim.opt.user_agent = "heed-test";
	sim.opt.net.allow_private = true;
	sim.run_start = sim.log_len;
	sim.url_reads = 0;
	sim.site_reads = 0;
	if (heed_crawl_new(&sim.c, sim.store, &sim.opt, &t, NULL, &diag) !=
	            HEED_OK ||
	    heed_crawl_start(sim.c, &t, &diag) != HEED_OK)
		fail_msg("crawl: %s", diag.message);
	for (;; steps++) {
		assert_true(steps < 100000);
		t = now_clock();
		switch (heed_crawl_next(sim.c, &t, &a)) {
		case HEED_CRAWL_RESOLVE:
			resolve(&a);
			continue;
		case HEED_CRAWL_FETCH:
			if (sim.unsend > 0 && strstr(a.url, "/p/")) {
				sim.unsend--;
				heed_crawl_unsent(sim.c, a.req, &t);
				continue;
			}
			fetch_start(&a);
			continue;
		case HEED_CRAWL_WAIT: {
			int64_t until = a.until_ms;
			if (sim.look_when_spare)
				look_when_spare(until);
			for (size_t i = 0; i < sim.fl_len; i++)
				if (sim.fl[i].at_ms < until)
					until = sim.fl[i].at_ms;
			if (until > sim.mono_ms) {
				sim.unix_ms += until - sim.mono_ms;
				sim.mono_ms = until;
			}
			for (size_t i = sim.fl_len; i-- > 0;)
				if (sim.fl[i].at_ms <= sim.mono_ms)
					deliver(i);
			continue;
		}
		case HEED_CRAWL_DONE:
			break;
		}
		break;
	}
	assert_int_equal(sim.fl_len, 0);
	assert_int_equal(heed_crawl_finish(sim.c, &t), ending);
	heed_crawl_progress_get(sim.c, &t, &p);
	heed_crawl_free(sim.c);
	sim.c = NULL;
	return p;
}

static struct heed_crawl_progress crawl(heed_crawl_mode mode, bool refresh)
{
	return crawl_ending(mode, refresh, HEED_OK);
}

/* Requests of the last run to path of site (path -1: any), and how many
 * of them carried validators. */
static int asked(int site, int path, int *conditional, int *answered_200)
{
	int n = 0, cond = 0, ok = 0;

	for (size_t i = sim.run_start; i < sim.log_len; i++) {
		const struct entry *e = &sim.log[i];
		if (e->site != site || (path >= 0 && e->path != path))
			continue;
		n++;
		cond += e->inm || e->ims;
		ok += e->status == 200;
	}
	if (conditional)
		*conditional = cond;
	if (answered_200)
		*answered_200 = ok;
	return n;
}

static char *stored_title(int site, int p)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	char url[96], buf[32], *title = NULL;

	snprintf(url, sizeof(url), "http://%s%s", hosts[site],
	         path_of(p, buf, sizeof(buf)));
	assert_int_equal(
	        sqlite3_open_v2(sim.path, &db, SQLITE_OPEN_READONLY, NULL),
	        SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db,
	                                    "SELECT title FROM pages "
	                                    "WHERE url = ?1",
	                                    -1, &st, NULL),
	                 SQLITE_OK);
	sqlite3_bind_text(st, 1, url, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		title = strdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	sqlite3_close(db);
	return title;
}

/* No two requests to one host start under 1 s apart, over every run. */
static void assert_courteous(void)
{
	for (int s = 0; s < SITES; s++) {
		int64_t last = INT64_MIN / 2;
		for (size_t i = 0; i < sim.log_len; i++) {
			if (sim.log[i].site != s)
				continue;
			if (sim.log[i].start_ms - last < 1000)
				fail_msg("%s: two requests %lld ms apart",
				         hosts[s],
				         (long long)(sim.log[i].start_ms -
				                     last));
			last = sim.log[i].start_ms;
		}
	}
}

/* Counts the runs of the store's reads of one URL's visit row and of a
 * site's rows by kind. */
static int on_statement(unsigned type, void *ctx, void *stmt, void *text)
{
	(void)type;
	(void)ctx;
	(void)stmt;
	if (strstr(text, "FROM visits WHERE site = ?1 AND url = ?2"))
		sim.url_reads++;
	if (strstr(text, "FROM visits") && strstr(text, "kind IN ("))
		sim.site_reads++;
	return 0;
}

static int setup(void **state)
{
	struct heed_diag diag = {0};

	heed_test_make_dir(state);
	memset(&sim, 0, sizeof(sim));
	sim.mono_ms = 1000000;
	sim.unix_ms = UNIX_START_S * 1000;
	for (int s = 0; s < SITES; s++)
		for (int p = 0; p < P_ALL; p++)
			sim.web[s][p] =
			        (struct resource){1, UNIX_START_S - 30 * DAY_S};
	snprintf(sim.path, sizeof(sim.path), "%s/heed.db", heed_test_dir());
	if (heed_store_open(&sim.store, sim.path, NULL, &diag) != HEED_OK)
		fail_msg("store: %s", diag.message);
	assert_int_equal(sqlite3_trace_v2(heed__sqlite_db(sim.store),
	                                  SQLITE_TRACE_STMT, on_statement,
	                                  NULL),
	                 SQLITE_OK);
	return 0;
}

static int teardown(void **state)
{
	heed_store_close(sim.store);
	return heed_test_remove_dir(state);
}

/* The first crawl asks for everything whole; nothing is known yet. */
static void first_crawl_unconditional(int s)
{
	int cond, ok;

	assert_int_equal(asked(s, -1, &cond, &ok), P_COUNT);
	assert_int_equal(cond, 0);
	assert_int_equal(ok, P_COUNT);
}

/* A first crawl, looked at in its spare time: four sites at one request a
 * second wait most of each second with nothing out. */
static void test_spare_time_commits(void **state)
{
	struct heed_crawl_progress p;

	(void)state;
	sim.look_when_spare = true;
	p = crawl(HEED_CRAWL_FULL, false);
	assert_int_equal(p.pages, SITES * (PAGES + 1));
	assert_true(sim.spare_looks >= PAGES);
}

static void test_recrawls(void **state)
{
	struct heed_crawl_progress p;
	int cond, ok;
	char *title;

	(void)state;
	p = crawl(HEED_CRAWL_FULL, false);
	assert_int_equal(p.pages, SITES * (PAGES + 1));
	for (int s = 0; s < SITES; s++)
		first_crawl_unconditional(s);

	/* An hour later nothing is due: the start page and the sitemap are
	 * asked with the validators of their last answer (304), the pages
	 * not at all, robots.txt not before its daily re-check. */
	advance(HOUR_S);
	p = crawl(HEED_CRAWL_FULL, false);
	for (int s = 0; s < SITES; s++) {
		assert_int_equal(asked(s, -1, &cond, &ok), 2);
		assert_int_equal(asked(s, P_HOME, &cond, &ok), 1);
		assert_int_equal(cond, 1);
		assert_int_equal(ok, 0);
		assert_int_equal(asked(s, P_SITEMAP, &cond, &ok), 1);
		assert_int_equal(cond, 1);
		assert_int_equal(ok, 0);
	}
	for (size_t i = sim.run_start; i < sim.log_len; i++)
		assert_true(sim.log[i].inm_right && sim.log[i].ims_right);
	assert_int_equal(p.pages, 0);
	assert_int_equal(p.unchanged, 2 * SITES);
	assert_int_equal(p.not_due, PAGES * SITES);

	/* The incremental mode on the unchanged web: only the known
	 * sitemap, 304 (the start page is not due). */
	advance(600);
	p = crawl(HEED_CRAWL_INCREMENTAL, false);
	for (int s = 0; s < SITES; s++) {
		assert_int_equal(asked(s, -1, &cond, &ok), 1);
		assert_int_equal(asked(s, P_SITEMAP, &cond, &ok), 1);
		assert_int_equal(cond, 1);
		assert_int_equal(ok, 0);
	}
	assert_int_equal(p.not_due, SITES);

	/* One page of a.test and one of c.test change, and say so in their
	 * sitemaps: only they are read again, though not due. a.test's
	 * start page changes too: its links to the pages, read before the
	 * sitemap, must not hide the sitemap's word that one changed. */
	advance(600);
	sim.web[0][P_PAGE0 + 2] = (struct resource){2, UNIX_START_S + HOUR_S};
	sim.web[0][P_SITEMAP].version++;
	sim.web[0][P_HOME].version++;
	sim.web[2][P_PAGE0 + 1] = (struct resource){2, UNIX_START_S + HOUR_S};
	sim.web[2][P_SITEMAP].version++;
	p = crawl(HEED_CRAWL_FULL, false);
	assert_int_equal(asked(0, P_PAGE0 + 2, &cond, &ok), 1);
	assert_int_equal(ok, 1);
	assert_int_equal(asked(2, P_PAGE0 + 1, &cond, &ok), 1);
	assert_int_equal(ok, 1);
	assert_int_equal(asked(0, -1, NULL, NULL), 3);
	assert_int_equal(asked(0, P_HOME, &cond, &ok), 1);
	assert_int_equal(ok, 1);
	assert_int_equal(asked(1, -1, NULL, NULL), 2);
	assert_int_equal(p.pages, 3);
	title = stored_title(0, P_PAGE0 + 2);
	assert_non_null(title);
	assert_string_equal(title, "a.test 5 version 2");
	free(title);

	/* Twenty days on every page is due (content a month old is first
	 * given half its age, 15 days): asked with its validators, and so
	 * is robots.txt, checked again after a day. A record lost meanwhile
	 * makes its 304 an error, and the next run asks for that page whole. */
	advance(20 * DAY_S);
	assert_int_equal(heed_store_page_delete(sim.store,
	                                        "http://b.test/p/0.html", false,
	                                        NULL),
	                 HEED_OK);
	p = crawl(HEED_CRAWL_FULL, false);
	for (int s = 0; s < SITES; s++) {
		assert_int_equal(asked(s, -1, &cond, &ok), P_COUNT);
		assert_int_equal(cond, P_COUNT);
		assert_int_equal(ok, 0);
		assert_int_equal(asked(s, P_ROBOTS, &cond, &ok), 1);
		assert_int_equal(cond, 1);
	}
	assert_int_equal(p.errors, 1);
	/* The known pages were read together at each site's start and
	 * judged there: a URL's row is read alone for its request, and a
	 * start page's once more when its seed is queued; robots.txt has
	 * none. */
	assert_int_equal(sim.url_reads, SITES * (P_COUNT - 1) + SITES);
	/* A site's sitemaps, feeds and pages were one read. */
	assert_int_equal(sim.site_reads, SITES);
	advance(600);
	p = crawl(HEED_CRAWL_FULL, false);
	assert_int_equal(asked(1, P_PAGE0, &cond, &ok), 1);
	assert_int_equal(cond, 0);
	assert_int_equal(ok, 1);
	assert_int_equal(p.pages, 1);

	/* --refresh all: everything known is read whole again. */
	advance(600);
	p = crawl(HEED_CRAWL_FULL, true);
	for (int s = 0; s < SITES; s++) {
		assert_int_equal(asked(s, -1, &cond, &ok), P_COUNT - 1);
		assert_int_equal(cond, 0);
		assert_int_equal(ok, P_COUNT - 1);
	}
	assert_courteous();
}

/* The position in the last run's log of site's first request for path
 * (-1: any), or -1. */
static long first_ask(int site, int path)
{
	for (size_t i = sim.run_start; i < sim.log_len; i++)
		if (sim.log[i].site == site &&
		    (path < 0 || sim.log[i].path == path))
			return (long)(i - sim.run_start);
	return -1;
}

/* d.test's ACAP file is its second request, right after robots.txt, and
 * before any page. */
static void assert_ref_second(int site)
{
	long ref = first_ask(site, P_ACAP);
	int n = 0;

	assert_true(first_ask(site, P_ROBOTS) >= 0);
	assert_true(ref > first_ask(site, P_ROBOTS));
	for (size_t i = sim.run_start; i < sim.run_start + (size_t)ref; i++)
		n += sim.log[i].site == site;
	assert_int_equal(n, 1);
}

/* A URL asked again in the run that first met it (a 503, then its
 * retry), on a site the store knew nothing of before the run: one visit
 * with the retry's answer, and the next run asks for it with that
 * answer's validators. */
static void test_retry_then_revisit(void **state)
{
	struct heed_visit v;
	int cond, ok;

	(void)state;
	sim.web[1][P_PAGE0].unavailable = 1;
	crawl(HEED_CRAWL_FULL, false);
	assert_int_equal(asked(1, P_PAGE0, NULL, &ok), 2);
	assert_int_equal(ok, 1);
	assert_int_equal(heed_store_visit_get(sim.store, "http://b.test",
	                                      "http://b.test/p/0.html", &v),
	                 HEED_OK);
	assert_int_equal(v.status, 200);
	assert_int_equal(v.visits, 1);
	assert_int_equal(v.changes, 1);
	assert_non_null(v.etag);
	heed_store_visit_clear(sim.store, &v);
	/* Due again after its interval (content a month old is given half
	 * its age), it is asked with validators. */
	advance(20 * DAY_S);
	crawl(HEED_CRAWL_FULL, false);
	assert_int_equal(asked(1, P_PAGE0, &cond, &ok), 1);
	assert_int_equal(cond, 1);
	assert_int_equal(ok, 0);
	assert_int_equal(heed_store_visit_get(sim.store, "http://b.test",
	                                      "http://b.test/p/0.html", &v),
	                 HEED_OK);
	assert_int_equal(v.visits, 2);
	heed_store_visit_clear(sim.store, &v);
	assert_courteous();
}

/* A page request handed back unsent and started again at once is
 * settled once: the page is asked once, its frontier row ends done (not
 * in flight, which would keep the run open and have the next crawl or
 * another worker ask it again), and the run finishes. */
static void test_unsent_then_sent(void **state)
{
	struct heed_crawl_progress p;
	struct heed_crawl_run run;
	int64_t counts[4];

	(void)state;
	sim.unsend = 3;
	p = crawl(HEED_CRAWL_FULL, false);
	assert_int_equal(sim.unsend, 0);
	assert_int_equal(asked(1, P_PAGE0, NULL, NULL), 1);
	assert_int_equal(heed_store_frontier_counts(sim.store, counts),
	                 HEED_OK);
	assert_int_equal(counts[HEED_FRONTIER_IN_FLIGHT], 0);
	assert_int_equal(counts[HEED_FRONTIER_QUEUED], 0);
	assert_int_equal(p.queued, 0);
	assert_int_equal(heed_store_run_open(sim.store, &run), HEED_ENOTFOUND);
	for (int site = 0; site < SITES; site++)
		for (int path = 0; path < P_ALL; path++)
			if (asked(site, path, NULL, NULL) > 1)
				fail_msg("site %d, path %d asked %d times",
				         site, path,
				         asked(site, path, NULL, NULL));
}

/* ACAP-permissions-reference: robots.txt names a file for heed
 * on every site; b, c and d serve it (it refuses /p/1.html), a answers
 * 404 (heed stays prohibited there). */
static void test_acap_reference(void **state)
{
	struct heed_crawl_progress p;
	int cond, ok;

	(void)state;
	sim.acap = true;
	p = crawl(HEED_CRAWL_FULL, false);
	for (int s = 1; s < SITES; s++) {
		assert_int_equal(asked(s, P_ACAP, &cond, &ok), 1);
		assert_ref_second(s);
		assert_int_equal(asked(s, P_PAGE0, NULL, NULL), 1);
		assert_int_equal(asked(s, P_PAGE0 + 1, NULL, NULL), 0);
		assert_int_equal(asked(s, -1, NULL, NULL), P_COUNT);
	}
	/* a.test: robots.txt and the missing file, nothing else. */
	assert_int_equal(asked(0, -1, NULL, NULL), 2);
	assert_int_equal(asked(0, P_ACAP, NULL, NULL), 1);
	assert_int_equal(p.acap_refs, SITES - 1);
	assert_int_equal(p.acap_ref_failures, 1);
	assert_int_equal(p.pages, (SITES - 1) * PAGES);

	/* An hour later, everything read whole again: neither robots.txt
	 * nor the files are asked, and the stored files judge as before (a
	 * missing one would refuse every page; none refuses nothing). */
	advance(HOUR_S);
	p = crawl(HEED_CRAWL_FULL, true);
	for (int s = 1; s < SITES; s++) {
		assert_int_equal(asked(s, P_ROBOTS, NULL, NULL), 0);
		assert_int_equal(asked(s, P_ACAP, NULL, NULL), 0);
		assert_int_equal(asked(s, P_PAGE0, NULL, NULL), 1);
		assert_int_equal(asked(s, P_PAGE0 + 1, NULL, NULL), 0);
	}
	assert_int_equal(asked(0, -1, NULL, NULL), 0);
	assert_int_equal(p.acap_refs + p.acap_ref_failures, 0);

	/* Two days on, robots.txt is checked again, and so are the files,
	 * with their validators (304); a.test's 404 is asked once more. */
	advance(2 * DAY_S);
	p = crawl(HEED_CRAWL_FULL, true);
	for (int s = 1; s < SITES; s++) {
		assert_int_equal(asked(s, P_ACAP, &cond, &ok), 1);
		assert_int_equal(cond, 1);
		assert_int_equal(ok, 0);
		assert_ref_second(s);
		assert_int_equal(asked(s, P_PAGE0, NULL, NULL), 1);
		assert_int_equal(asked(s, P_PAGE0 + 1, NULL, NULL), 0);
	}
	assert_int_equal(asked(0, -1, NULL, NULL), 2);
	assert_int_equal(p.acap_refs, SITES - 1);
	assert_int_equal(p.acap_ref_failures, 1);
	assert_courteous();
}

/* `heed site qualify` reads robots.txt only: the next crawl, which uses
 * that robots.txt, asks for the files before any page; then the one after
 * a second qualification asks for them again. */
static void test_acap_reference_after_qualify(void **state)
{
	(void)state;
	sim.acap = true;
	crawl(HEED_CRAWL_QUALIFY, false);
	for (int s = 0; s < SITES; s++)
		assert_int_equal(asked(s, -1, NULL, NULL), 1);
	advance(600);
	crawl(HEED_CRAWL_FULL, false);
	for (int s = 1; s < SITES; s++) {
		assert_int_equal(asked(s, P_ROBOTS, NULL, NULL), 0);
		assert_int_equal(first_ask(s, P_ACAP), first_ask(s, -1));
		assert_int_equal(asked(s, P_PAGE0, NULL, NULL), 1);
		assert_int_equal(asked(s, P_PAGE0 + 1, NULL, NULL), 0);
	}
	assert_int_equal(asked(0, -1, NULL, NULL), 1);
	/* Within the re-check, another qualification asks nothing. */
	advance(600);
	crawl(HEED_CRAWL_QUALIFY, false);
	assert_int_equal(sim.log_len, sim.run_start);
	/* Two days on, a qualification reads robots.txt again: the stored
	 * files are older than it, so the next crawl asks for them again
	 * (with their validators) before any page. */
	advance(2 * DAY_S);
	crawl(HEED_CRAWL_QUALIFY, false);
	for (int s = 0; s < SITES; s++)
		assert_int_equal(asked(s, -1, NULL, NULL), 1);
	advance(600);
	crawl(HEED_CRAWL_FULL, true);
	for (int s = 1; s < SITES; s++) {
		int cond;
		assert_int_equal(asked(s, P_ROBOTS, NULL, NULL), 0);
		assert_int_equal(asked(s, P_ACAP, &cond, NULL), 1);
		assert_int_equal(cond, 1);
		assert_int_equal(first_ask(s, P_ACAP), first_ask(s, -1));
		assert_int_equal(asked(s, P_PAGE0 + 1, NULL, NULL), 0);
	}
	assert_int_equal(asked(0, P_ACAP, NULL, NULL), 1);
	assert_courteous();
}

/* A file on another site: asked in that site's lane, under
 * its politeness, after its robots.txt and its own ACAP file (its rules
 * must allow the URL), and before any page of the site that names it. */
static void test_acap_reference_elsewhere(void **state)
{
	struct heed_crawl_progress p;
	size_t own = 0, for_b = 0;

	(void)state;
	sim.acap = true;
	sim.acap_elsewhere[1] = "http://c.test/acap-heed.txt";
	p = crawl(HEED_CRAWL_FULL, false);
	/* c.test's file, twice: for c, then for b. */
	assert_int_equal(asked(2, P_ACAP, NULL, NULL), 2);
	for (size_t i = sim.run_start; i < sim.log_len; i++)
		if (sim.log[i].site == 2 && sim.log[i].path == P_ACAP) {
			if (!own)
				own = i;
			else
				for_b = i;
		}
	assert_true(for_b > own);
	/* b.test's first page after it. */
	for (size_t i = sim.run_start; i < for_b; i++)
		assert_false(sim.log[i].site == 1 &&
		             sim.log[i].path != P_ROBOTS);
	assert_int_equal(asked(1, P_ACAP, NULL, NULL), 0);
	assert_int_equal(asked(1, P_PAGE0, NULL, NULL), 1);
	assert_int_equal(asked(1, P_PAGE0 + 1, NULL, NULL), 0);
	assert_int_equal(p.acap_refs, SITES - 1);
	assert_int_equal(p.acap_ref_failures, 1);
	/* The stored file judges b.test within the re-check. */
	advance(HOUR_S);
	p = crawl(HEED_CRAWL_FULL, true);
	assert_int_equal(asked(2, P_ACAP, NULL, NULL), 0);
	assert_int_equal(asked(1, P_PAGE0, NULL, NULL), 1);
	assert_int_equal(asked(1, P_PAGE0 + 1, NULL, NULL), 0);
	assert_courteous();
}

/* b.test and c.test name each other's file: neither waits for the other
 * for ever. Each file is judged by its own site's rules, which prohibit
 * everything until that site's file is read: both are refused, and both
 * sites stay prohibited (the conservative reading). */
static void test_acap_reference_crossed(void **state)
{
	struct heed_crawl_progress p;

	(void)state;
	sim.acap = true;
	sim.acap_elsewhere[1] = "http://c.test/acap-heed.txt";
	sim.acap_elsewhere[2] = "http://b.test/acap-heed.txt";
	p = crawl(HEED_CRAWL_FULL, false);
	for (int s = 1; s <= 2; s++)
		assert_int_equal(asked(s, -1, NULL, NULL), 1); /* robots.txt */
	assert_int_equal(asked(3, P_PAGE0, NULL, NULL), 1);
	assert_int_equal(p.acap_refs, 1);
	assert_int_equal(p.acap_ref_failures, 3);
	assert_courteous();
}

/* A URL the other site's rules refuse is not asked: the crawlers stay
 * prohibited. */
static void test_acap_reference_elsewhere_refused(void **state)
{
	struct heed_crawl_progress p;

	(void)state;
	sim.acap = true;
	sim.acap_elsewhere[1] =
	        "http://c.test/p/1.html"; /* c's file denies it */
	p = crawl(HEED_CRAWL_FULL, false);
	assert_int_equal(asked(1, -1, NULL, NULL), 1); /* robots.txt */
	assert_int_equal(asked(2, P_PAGE0 + 1, NULL, NULL), 0);
	assert_int_equal(asked(2, P_ACAP, NULL, NULL), 1);
	assert_int_equal(p.acap_refs, SITES - 2);
	assert_int_equal(p.acap_ref_failures, 2);
	assert_courteous();
}

static void arrange(const char *host, int64_t delay_ms, int64_t max_pages,
                    heed_arrangement_mode mode, const char *exclude,
                    const char *windows)
{
	struct heed_arrangement a = {0};

	a.host = (char *)host;
	a.delay_ms = delay_ms;
	a.max_pages = max_pages;
	a.mode = mode;
	a.exclude = (char *)exclude;
	a.windows = (char *)windows;
	assert_int_equal(heed_store_arrangement_put(sim.store, &a), HEED_OK);
}

/* Gaps between the requests of the last run to site, at least min_ms. */
static void assert_gaps(int site, int64_t min_ms)
{
	int64_t last = INT64_MIN / 2;

	for (size_t i = sim.run_start; i < sim.log_len; i++) {
		if (sim.log[i].site != site)
			continue;
		if (sim.log[i].start_ms - last < min_ms)
			fail_msg(
			        "%s: two requests %lld ms apart, arranged %lld",
			        hosts[site],
			        (long long)(sim.log[i].start_ms - last),
			        (long long)min_ms);
		last = sim.log[i].start_ms;
	}
}

static void test_arrangements(void **state)
{
	struct heed_crawl_progress p;
	int64_t start_ms = sim.mono_ms;
	int pages = 0;

	(void)state;
	/* The run starts at 08:00 UTC (UNIX_START_S): a.test's window
	 * closes a minute later, while it still has pages to fetch (one
	 * every 25 s). */
	assert_int_equal(UNIX_START_S % DAY_S, 8 * HOUR_S);
	arrange("a.test", 25000, 0, HEED_ARRANGEMENT_FULL, NULL, "08:00-08:01");
	arrange("b.test", 0, 0, HEED_ARRANGEMENT_PAUSED, NULL, NULL);
	arrange("c.test", 3000, 2, HEED_ARRANGEMENT_FULL, NULL, NULL);
	arrange("d.test", 0, 0, HEED_ARRANGEMENT_FULL, "/p/1.html\n/p/2*",
	        NULL);
	p = crawl(HEED_CRAWL_FULL, false);

	/* Requests start only inside the window, then the site stops. */
	assert_int_equal(asked(0, -1, NULL, NULL), 3);
	for (size_t i = sim.run_start; i < sim.log_len; i++)
		if (sim.log[i].site == 0)
			assert_true(sim.log[i].start_ms - start_ms < 60000);
	assert_gaps(0, 25000);
	/* Paused: nothing, not even robots.txt. */
	assert_int_equal(asked(1, -1, NULL, NULL), 0);
	assert_int_equal(p.sites_withheld, 2);
	/* The delay, and two pages (the home page counts). */
	assert_gaps(2, 3000);
	pages = asked(2, P_HOME, NULL, NULL);
	for (int k = P_PAGE0; k < P_COUNT; k++)
		pages += asked(2, k, NULL, NULL);
	assert_int_equal(pages, 2);
	/* Excluded paths cost no request, counted apart from robots.txt. */
	assert_int_equal(asked(3, P_PAGE0 + 1, NULL, NULL), 0);
	assert_int_equal(asked(3, P_PAGE0 + 2, NULL, NULL), 0);
	assert_int_equal(asked(3, P_PAGE0 + 3, NULL, NULL), 1);
	assert_int_equal(p.refused_owner, 2);
	assert_int_equal(p.refused, 0);
	assert_courteous();
}

/* A read the store fails is not taken for a row that is not there: with
 * the hosts' state unreadable (its table renamed away by another
 * connection), the next run must not take the hosts for ones never asked,
 * whose last request could be less than their delay ago; it stops before
 * asking anything. */
static void test_unreadable_host_state(void **state)
{
	sqlite3 *db;

	(void)state;
	crawl(HEED_CRAWL_FULL, false);
	assert_int_equal(asked(0, P_HOME, NULL, NULL), 1);
	assert_int_equal(sqlite3_open(sim.path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "ALTER TABLE hosts RENAME TO gone;",
	                              NULL, NULL, NULL),
	                 SQLITE_OK);
	sqlite3_close(db);
	advance(DAY_S);
	crawl_ending(HEED_CRAWL_FULL, true, HEED_ESTORE);
	assert_int_equal(sim.log_len - sim.run_start, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test_setup_teardown(test_recrawls, setup, teardown),
	        cmocka_unit_test_setup_teardown(test_spare_time_commits, setup,
	                                        teardown),
	        cmocka_unit_test_setup_teardown(test_unsent_then_sent, setup,
	                                        teardown),
	        cmocka_unit_test_setup_teardown(test_retry_then_revisit, setup,
	                                        teardown),
	        cmocka_unit_test_setup_teardown(test_acap_reference, setup,
	                                        teardown),
	        cmocka_unit_test_setup_teardown(
	                test_acap_reference_after_qualify, setup, teardown),
	        cmocka_unit_test_setup_teardown(test_acap_reference_elsewhere,
	                                        setup, teardown),
	        cmocka_unit_test_setup_teardown(
	                test_acap_reference_elsewhere_refused, setup, teardown),
	        cmocka_unit_test_setup_teardown(test_acap_reference_crossed,
	                                        setup, teardown),
	        cmocka_unit_test_setup_teardown(test_unreadable_host_state,
	                                        setup, teardown),
	        cmocka_unit_test_setup_teardown(test_arrangements, setup,
	                                        teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
