/*
 * The store that the tests of `heed serve` share (test_serve_api.c,
 * test_serve_pages.c): a real SQLite store in /tmp holding pages whose
 * fields are hostile, sites rows and IRC networks, and the serve context
 * over it. Each test adds the rows only it needs; what both build is
 * written once here so that the HTML pages and their JSON mirror are
 * tested against the same kind of data.
 */
#ifndef HEED_TEST_SERVE_FIXTURE_H
#define HEED_TEST_SERVE_FIXTURE_H

#include "heed_test.h"

#include <unistd.h>

#include "heed/store_irc.h"
#include "heed/store_pages.h"
#include "heed/store_sites.h"
#include "serve/serve-int.h"

#define NOW      1767225600 /* 2026-01-01 */
#define DAY      86400
#define HOSTILE1 "<script>alert(1)</script>"
#define HOSTILE2 "\"><img src=x onerror=alert(1)>"
/* HOSTILE2 inside a JSON string */
#define HOSTILE2_J "\\\"><img src=x onerror=alert(1)>"

/* Permissions JSON (src/crawl/record_json.c): everything allowed; an ACAP
 * snippet limit of 20 chars with the thumbnail refused; meta nosnippet. */
static const char allow_all[] =
        "{\"robots_txt\":{\"rules\":true,\"line\":2},\"acap\":null,"
        "\"meta_robots\":{\"noarchive\":false,\"nosnippet\":false,"
        "\"nofollow\":false}}";
static const char snippet20[] =
        "{\"robots_txt\":{\"rules\":true},\"acap\":{\"present-snippet\":"
        "{\"permitted\":true,\"line\":3,\"max_length\":20,"
        "\"max_length_unit\":\"chars\"},\"present-thumbnail\":"
        "{\"permitted\":false,\"line\":4}},\"meta_robots\":{\"noarchive\":"
        "false,\"nosnippet\":false,\"nofollow\":false}}";
static const char nosnippet[] =
        "{\"robots_txt\":{\"rules\":true},\"acap\":null,\"meta_robots\":"
        "{\"noarchive\":false,\"nosnippet\":true,\"nofollow\":false}}";

struct serve_fixture {
	char path[64];
	heed_store *store;
	struct heed_config cfg;
	struct heed__serve_ctx ctx;
};

/* Opens a new store at a temporary path made from tmpl ("...XXXXXX"). */
static inline void serve_fixture_open(struct serve_fixture *fx,
                                      const char *tmpl)
{
	int fd;

	snprintf(fx->path, sizeof(fx->path), "%s", tmpl);
	fd = mkstemp(fx->path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(heed_store_open(&fx->store, fx->path, NULL, NULL),
	                 HEED_OK);
}

/* The serve context both tests request through: base URL /idx, pages of
 * 10, an operator for /bots. */
static inline void serve_fixture_context(struct serve_fixture *fx)
{
	assert_int_equal(heed_config_init(&fx->cfg), HEED_OK);
	assert_int_equal(heed_config_set(&fx->cfg, "identity.contact_email",
	                                 "ops@example.org", NULL),
	                 HEED_OK);
	assert_int_equal(heed_config_set(&fx->cfg, "verify.domain",
	                                 "crawl.example.org", NULL),
	                 HEED_OK);
	fx->ctx.config = &fx->cfg;
	fx->ctx.base_url = "/idx";
	fx->ctx.page_size = 10;
	fx->ctx.alloc = heed_test_allocator();
}

/* Closes the store and removes it with its WAL files. */
static inline void serve_fixture_close(struct serve_fixture *fx)
{
	char side[80];

	heed_store_close(fx->store);
	heed_config_free(&fx->cfg);
	unlink(fx->path);
	snprintf(side, sizeof(side), "%s-wal", fx->path);
	unlink(side);
	snprintf(side, sizeof(side), "%s-shm", fx->path);
	unlink(side);
}

/* A 200 page fetched (and checked) at fetched, published 2025-12-01; the
 * caller changes what its test needs, then stores it. */
static inline struct heed_stored_page
serve_fixture_page(const char *url, const char *host, const char *title,
                   const char *perm, const char *record, int64_t views,
                   int64_t fetched)
{
	struct heed_stored_page p = {0};

	p.url = url;
	p.final_url = url;
	p.host = host;
	p.status = 200;
	p.fetched_at = fetched;
	p.checked_at = fetched;
	p.title = title;
	p.views = views;
	p.published = "2025-12-01";
	p.source_lastmod = HEED_STORE_NO_DATE;
	p.permissions = perm;
	p.mode = "full";
	p.record = record;
	return p;
}

/* A site row whose robots.txt disallows /private and whose detail is
 * hostile; with_body also keeps the robots.txt body itself. */
static inline void serve_fixture_site(heed_store *store, const char *site,
                                      const char *host, const char *robots_url,
                                      bool with_body)
{
	static const char rules[] = "User-agent: *\nDisallow: /private\n";
	struct heed_store_site s = {0};

	s.site = (char *)site;
	s.host = (char *)host;
	s.record.robots_date_s = NOW - DAY;
	snprintf(s.record.detail, sizeof(s.record.detail), "%s", HOSTILE2);
	s.robots_url = (char *)robots_url;
	if (with_body) {
		s.robots_body = (char *)rules;
		s.robots_body_len = sizeof(rules) - 1;
	}
	s.rules_body = (char *)rules;
	s.rules_body_len = sizeof(rules) - 1;
	assert_int_equal(heed_store_site_put(store, &s), HEED_OK);
}

/* A network visited completely with the given verdict: one server whose
 * description is hostile, a channel #hostile whose topic is hostile and
 * invalid UTF-8, and three plain channels #chan0..2. */
static inline void serve_fixture_network(heed_store_irc *w, const char *key,
                                         heed_irc_crawler_verdict verdict)
{
	static const char topic[] = HOSTILE1 " \xff topic";
	struct heed_irc_crawler_pref pref = {verdict, 3600, 0};
	int64_t net, vid;
	char name[64];

	assert_int_equal(heed_store_irc_network(w, key, NOW - DAY, &net, NULL),
	                 HEED_OK);
	assert_int_equal(heed_store_irc_visit_begin(w, net, "127.0.0.1", 6667,
	                                            false, NOW - DAY, &vid),
	                 HEED_OK);
	assert_int_equal(heed_store_irc_server(w, net, vid, "hub.example",
	                                       "hub.example", 0, HOSTILE2,
	                                       NOW - DAY),
	                 HEED_OK);
	assert_int_equal(heed_store_irc_channel(w, net, vid, "#hostile", 42,
	                                        topic, sizeof(topic) - 1,
	                                        NOW - DAY),
	                 HEED_OK);
	for (int i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "#chan%d", i);
		assert_int_equal(heed_store_irc_channel(w, net, vid, name, i,
		                                        "Plain Topic", 11,
		                                        NOW - DAY),
		                 HEED_OK);
	}
	assert_int_equal(heed_store_irc_visit_end(w, net, vid,
	                                          HEED_IRC_VISIT_COMPLETE, "ok",
	                                          &pref, NOW - DAY + 60, 0),
	                 HEED_OK);
}

/* GET path?query, query as "a=1&b=2" (no escapes: the tests spell
 * values), through the route table as the HTTP shell asks it, at NOW. The
 * caller frees resp->body (heed__buf_free). */
static inline void serve_fixture_get(struct serve_fixture *fx, const char *path,
                                     const char *query,
                                     struct heed__serve_response *resp)
{
	struct heed__serve_args args = {0};
	struct heed__serve_request req = {0};
	char qs[2048], *save = NULL, *kv;

	snprintf(qs, sizeof(qs), "%s", query ? query : "");
	for (kv = strtok_r(qs, "&", &save); kv && args.count < 32;
	     kv = strtok_r(NULL, "&", &save)) {
		char *eq = strchr(kv, '=');
		if (eq)
			*eq = '\0';
		args.arg[args.count].name = kv;
		args.arg[args.count++].value = eq ? eq + 1 : "";
	}
	req.ctx = &fx->ctx;
	req.method = "GET";
	req.path = path;
	req.args = &args;
	req.store = fx->store;
	req.now_s = NOW;
	heed__buf_init(&resp->body, fx->ctx.alloc, HEED__SERVE_MAX_BODY);
	heed__serve_route(&req, resp);
}

#endif /* HEED_TEST_SERVE_FIXTURE_H */
