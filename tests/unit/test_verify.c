/*
 * Unit tests for src/verify: the suffix rule, addresses, the published
 * ranges parser and matcher, the result cache, the verifier's settings
 * checks and the crawler page. Tables name the rule each case checks.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "heed_test.h"
#include "heed/verify.h"
#include "verify/verify-int.h"

static const struct suffix_case {
	const char *name, *domain;
	bool want;
} suffix_cases[] = {
        {"crawl-1.example.com", "example.com", true},
        {"a.b.example.com", "example.com", true},
        {"example.com", "example.com", true},
        {"label boundary: evil-example.com", "example.com", false},
        {"evilexample.com", "example.com", false},
        {"example.com.evil.net", "example.com", false},
        {"case: CRAWL.Example.COM", "example.com", true},
        {"crawl.example.com", "EXAMPLE.com", true},
        {"trailing dot: crawl.example.com.", "example.com", true},
        {"crawl.example.com", "example.com.", true},
        {"crawl.example.com.", "example.com.", true},
        {"leading dot in suffix: crawl.example.com", ".example.com", true},
        {"example.com", ".example.com", true},
        {"xample.com", "example.com", false},
        {"com", "example.com", false},
        {"", "example.com", false},
        {".", "example.com", false},
        {"crawl.example.com", "", false},
        {"crawl.example.com", ".", false},
        {"crawl.example.co", "example.com", false},
};

/* The name of a case may carry a "rule: " prefix before the real name. */
static const char *case_name(const char *s)
{
	const char *colon = strstr(s, ": ");
	return colon ? colon + 2 : s;
}

static void test_suffix_rule(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < HEED_ARRAY_SIZE(suffix_cases); i++) {
		const struct suffix_case *c = &suffix_cases[i];
		bool got =
		        heed_verify_name_under(case_name(c->name), c->domain);
		if (got != c->want)
			fail_msg("'%s' under '%s': got %d, want %d", c->name,
			         c->domain, got, c->want);
	}
	assert_false(heed_verify_name_under(NULL, "example.com"));
	assert_false(heed_verify_name_under("example.com", NULL));
}

static const struct addr_case {
	const char *text;
	heed_status want;
	int family;
	const char *printed, *reverse;
} addr_cases[] = {
        {"192.0.2.1", HEED_OK, AF_INET, "192.0.2.1", "1.2.0.192.in-addr.arpa"},
        {"IPv4-mapped unwrapped: ::ffff:192.0.2.1", HEED_OK, AF_INET,
         "192.0.2.1", "1.2.0.192.in-addr.arpa"},
        {"2001:db8::7", HEED_OK, AF_INET6, "2001:db8::7",
         "7.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2."
         "ip6.arpa"},
        {"::1", HEED_OK, AF_INET6, "::1",
         "1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0."
         "ip6.arpa"},
        {"crawl.example.com", HEED_EINVAL, 0, "", ""},
        {"192.0.2.1/24", HEED_EINVAL, 0, "", ""},
        {"", HEED_EINVAL, 0, "", ""},
};

static void test_addresses(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < HEED_ARRAY_SIZE(addr_cases); i++) {
		const struct addr_case *c = &addr_cases[i];
		struct heed_verify_addr a;
		char buf[80];
		heed_status rc = heed_verify_addr_parse(case_name(c->text), &a);
		if (rc != c->want)
			fail_msg("%s: status %s", c->text,
			         heed_status_name(rc));
		if (rc != HEED_OK)
			continue;
		if (a.family != c->family ||
		    strcmp(heed_verify_addr_format(&a, buf, sizeof(buf)),
		           c->printed) != 0)
			fail_msg("%s: printed %s", c->text, buf);
		if (strcmp(heed_dns_reverse_name(a.family, a.bytes, buf,
		                                 sizeof(buf)),
		           c->reverse) != 0)
			fail_msg("%s: reverse name %s", c->text, buf);
	}
}

static const struct ranges_case {
	const char *name, *json;
	heed_status want;
	size_t count;    /* on success */
	unsigned line;   /* on failure: 1-based index of the bad prefix */
	const char *msg; /* on failure: part of the message */
} ranges_cases[] = {
        {"the published shape",
         "{\"creationTime\": \"2024-05-01T00:00:00.000000\", \"prefixes\": "
         "[{\"ipv4Prefix\": \"66.249.64.0/27\"}, {\"ipv6Prefix\": "
         "\"2001:4860:4801:10::/64\"}]}",
         HEED_OK, 2, 0, NULL},
        {"empty list", "{\"prefixes\": []}", HEED_OK, 0, 0, NULL},
        {"unknown keys ignored",
         "{\"syncToken\": \"1\", \"prefixes\": [{\"ipv4Prefix\": "
         "\"10.0.0.0/8\", \"service\": \"x\"}]}\n",
         HEED_OK, 1, 0, NULL},
        {"whole spaces",
         "{\"prefixes\": [{\"ipv4Prefix\": \"0.0.0.0/0\"}, "
         "{\"ipv6Prefix\": \"::/0\"}]}",
         HEED_OK, 2, 0, NULL},
        {"host bits set",
         "{\"prefixes\": [{\"ipv4Prefix\": \"1.0.0.0/8\"}, "
         "{\"ipv4Prefix\": \"10.0.0.1/8\"}]}",
         HEED_EPARSE, 0, 2, "prefixes[1]"},
        {"IPv6 in ipv4Prefix", "{\"prefixes\": [{\"ipv4Prefix\": \"::/0\"}]}",
         HEED_EPARSE, 0, 1, "not an IPv4 prefix"},
        {"IPv4 in ipv6Prefix",
         "{\"prefixes\": [{\"ipv6Prefix\": \"10.0.0.0/8\"}]}", HEED_EPARSE, 0,
         1, "not an IPv6 prefix"},
        {"length too long",
         "{\"prefixes\": [{\"ipv4Prefix\": \"10.0.0.0/33\"}]}", HEED_EPARSE, 0,
         1, "length"},
        {"no length", "{\"prefixes\": [{\"ipv4Prefix\": \"10.0.0.0\"}]}",
         HEED_EPARSE, 0, 1, "ADDRESS/LENGTH"},
        {"signed length", "{\"prefixes\": [{\"ipv4Prefix\": \"10.0.0.0/+8\"}]}",
         HEED_EPARSE, 0, 1, "length"},
        {"both keys",
         "{\"prefixes\": [{\"ipv4Prefix\": \"10.0.0.0/8\", \"ipv6Prefix\": "
         "\"::/0\"}]}",
         HEED_EPARSE, 0, 1, "exactly one"},
        {"neither key", "{\"prefixes\": [{}]}", HEED_EPARSE, 0, 1,
         "exactly one"},
        {"not an object",
         "{\"prefixes\": [{\"ipv4Prefix\": \"1.0.0.0/8\"}, "
         "\"2.0.0.0/8\"]}",
         HEED_EPARSE, 0, 2, "not an object"},
        {"number prefix", "{\"prefixes\": [{\"ipv4Prefix\": 10}]}", HEED_EPARSE,
         0, 1, "not a string"},
        {"no prefixes", "{\"creationTime\": \"x\"}", HEED_EPARSE, 0, 0,
         "prefixes"},
        {"prefixes not a list", "{\"prefixes\": {}}", HEED_EPARSE, 0, 0,
         "prefixes"},
        {"creationTime not text", "{\"creationTime\": 5, \"prefixes\": []}",
         HEED_EPARSE, 0, 0, "creationTime"},
        {"top level a list", "[]", HEED_EPARSE, 0, 0, "object"},
        {"not JSON", "prefixes: 1", HEED_EPARSE, 0, 0, "not JSON"},
        {"cut short", "{\"prefixes\": [", HEED_EPARSE, 0, 0, "not JSON"},
        {"trailing text", "{\"prefixes\": []} x", HEED_EPARSE, 0, 0, "after"},
        {"empty", "", HEED_EPARSE, 0, 0, "not JSON"},
};

static void test_ranges_parse(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < HEED_ARRAY_SIZE(ranges_cases); i++) {
		const struct ranges_case *c = &ranges_cases[i];
		struct heed_diag d = {0};
		heed_ranges *r;
		heed_status rc = heed_ranges_parse(&r, c->json, strlen(c->json),
		                                   heed_test_allocator(), &d);
		if (rc != c->want)
			fail_msg("%s: got %s (%s)", c->name,
			         heed_status_name(rc), d.message);
		if (rc != HEED_OK) {
			assert_null(r);
			if (d.line != c->line || !strstr(d.message, c->msg))
				fail_msg("%s: line %u, message '%s'", c->name,
				         d.line, d.message);
			continue;
		}
		if (heed_ranges_count(r) != c->count)
			fail_msg("%s: %zu prefixes", c->name,
			         heed_ranges_count(r));
		heed_ranges_free(r);
	}
}

static void test_ranges_nul_and_size(void **state)
{
	static const char nul[] = "{\"prefixes\": []}\0junk";
	struct heed_diag d;
	heed_ranges *r;

	(void)state;
	assert_int_equal(heed_ranges_parse(&r, nul, sizeof(nul) - 1, NULL, &d),
	                 HEED_EPARSE);
	assert_int_equal(
	        heed_ranges_parse(&r, nul, HEED_RANGES_MAX_BYTES + 1, NULL, &d),
	        HEED_ETOOBIG);
}

static const struct match_case {
	const char *name, *addr;
	const char *want; /* the matching prefix, or NULL */
} match_cases[] = {
        {"inside /27", "66.249.64.31", "66.249.64.0/27"},
        {"first of /27", "66.249.64.0", "66.249.64.0/27"},
        {"just past /27", "66.249.64.32", NULL},
        {"IPv4-mapped client", "::ffff:66.249.64.5", "66.249.64.0/27"},
        {"inside /64", "2001:4860:4801:10::99", "2001:4860:4801:10::/64"},
        {"next /64", "2001:4860:4801:11::1", NULL},
        {"odd length /61", "2001:db8:0:7::1", "2001:db8::/61"},
        {"past /61", "2001:db8:0:8::1", NULL},
        {"/32 exact", "192.0.2.7", "192.0.2.7/32"},
        {"/32 neighbour", "192.0.2.8", NULL},
};

static void test_ranges_match(void **state)
{
	static const char json[] =
	        "{\"creationTime\": \"2024-05-01T00:00:00\", \"prefixes\": ["
	        "{\"ipv4Prefix\": \"66.249.64.0/27\"},"
	        "{\"ipv6Prefix\": \"2001:4860:4801:10::/64\"},"
	        "{\"ipv6Prefix\": \"2001:db8::/61\"},"
	        "{\"ipv4Prefix\": \"192.0.2.7/32\"}]}";
	heed_ranges *r;
	size_t i;

	(void)state;
	assert_int_equal(heed_ranges_parse(&r, json, sizeof(json) - 1,
	                                   heed_test_allocator(), NULL),
	                 HEED_OK);
	assert_string_equal(heed_ranges_creation_time_get(r),
	                    "2024-05-01T00:00:00");
	for (i = 0; i < HEED_ARRAY_SIZE(match_cases); i++) {
		const struct match_case *c = &match_cases[i];
		struct heed_verify_addr a;
		const struct heed_ranges_prefix *p;
		char buf[50] = "";
		assert_int_equal(heed_verify_addr_parse(c->addr, &a), HEED_OK);
		p = heed_ranges_match(r, &a);
		if (p)
			heed_ranges_prefix_format(p, buf, sizeof(buf));
		if (!p != !c->want || (p && strcmp(buf, c->want) != 0))
			fail_msg("%s: %s matched '%s'", c->name, c->addr, buf);
	}
	heed_ranges_free(r);
}

static void test_ranges_oom(void **state)
{
	static const char json[] =
	        "{\"creationTime\": \"x\", \"prefixes\": [{\"ipv4Prefix\": "
	        "\"10.0.0.0/8\"}]}";
	unsigned long n;

	(void)state;
	for (n = 0;; n++) {
		struct heed_test_fail f = {.fail_at = n};
		heed_ranges *r;
		heed_status rc = heed_ranges_parse(
		        &r, json, sizeof(json) - 1,
		        heed_test_failing_allocator(&f), NULL);
		if (rc == HEED_OK) {
			heed_ranges_free(r);
			break;
		}
		assert_int_equal(rc, HEED_ENOMEM);
		assert_null(r);
	}
}

/* Puts a result for text into c, expiring at expires_s. */
static void cache_put(struct heed__verify_cache *c, const char *text,
                      int64_t expires_s)
{
	struct heed_arena ar;
	struct heed_verify_result *res;
	struct heed_verify_addr a;

	assert_int_equal(heed_verify_addr_parse(text, &a), HEED_OK);
	heed__arena_init(&ar, heed_test_allocator());
	res = heed__arena_alloc(&ar, sizeof(*res));
	assert_non_null(res);
	memset(res, 0, sizeof(*res));
	res->query = heed__arena_strndup(&ar, text, strlen(text));
	heed__verify_cache_put(c, &a, expires_s, &ar, res);
}

static const char *cache_get(struct heed__verify_cache *c, const char *text,
                             int64_t now_s)
{
	struct heed_verify_addr a;
	const struct heed_verify_result *res;

	assert_int_equal(heed_verify_addr_parse(text, &a), HEED_OK);
	res = heed__verify_cache_get(c, &a, now_s);
	return res ? res->query : NULL;
}

static void test_cache_ttl_and_eviction(void **state)
{
	struct heed__verify_cache c;

	(void)state;
	assert_int_equal(heed__verify_cache_init(&c, heed_test_allocator(), 2),
	                 HEED_OK);
	cache_put(&c, "192.0.2.1", 100);
	assert_string_equal(cache_get(&c, "192.0.2.1", 99), "192.0.2.1");
	/* Expired at exactly now == expires. */
	assert_null(cache_get(&c, "192.0.2.1", 100));
	assert_int_equal(c.size, 0);
	/* The same address under another form is the same entry. */
	cache_put(&c, "192.0.2.1", 100);
	cache_put(&c, "::ffff:192.0.2.1", 200);
	assert_int_equal(c.size, 1);
	assert_string_equal(cache_get(&c, "192.0.2.1", 150),
	                    "::ffff:192.0.2.1");
	/* Full: the oldest goes first. */
	cache_put(&c, "2001:db8::1", 500);
	cache_put(&c, "2001:db8::2", 500);
	assert_int_equal(c.size, 2);
	assert_null(cache_get(&c, "192.0.2.1", 0));
	assert_non_null(cache_get(&c, "2001:db8::1", 0));
	assert_non_null(cache_get(&c, "2001:db8::2", 0));
	heed__verify_cache_free(&c);
	/* A zero-size cache stores nothing and leaks nothing. */
	assert_int_equal(heed__verify_cache_init(&c, heed_test_allocator(), 0),
	                 HEED_OK);
	cache_put(&c, "192.0.2.1", 100);
	assert_null(cache_get(&c, "192.0.2.1", 0));
	heed__verify_cache_free(&c);
}

static const struct domain_case {
	const char *name;
	const char *domains[2];
	size_t count;
	heed_status want;
} domain_cases[] = {
        {"a registrable domain", {"crawler.example.com", NULL}, 1, HEED_OK},
        {"two domains", {"example.org", ".example.net."}, 2, HEED_OK},
        {"none", {NULL, NULL}, 0, HEED_ECONFIG},
        {"empty", {"", NULL}, 1, HEED_ECONFIG},
        {"public suffix com", {"example.org", "com"}, 2, HEED_ECONFIG},
        {"public suffix co.uk", {"CO.UK.", NULL}, 1, HEED_ECONFIG},
};

static void test_verifier_domains(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < HEED_ARRAY_SIZE(domain_cases); i++) {
		const struct domain_case *c = &domain_cases[i];
		struct heed_verify_options opt = {0};
		struct heed_diag d = {0};
		heed_verifier *v;
		heed_status rc;

		opt.domains = c->domains;
		opt.domain_count = c->count;
		/* Nothing is sent: no check starts. */
		opt.dns.servers = "127.0.0.1:9";
		rc = heed_verifier_new(&v, &opt, heed_test_allocator(), &d);
		if (rc != c->want)
			fail_msg("%s: got %s (%s)", c->name,
			         heed_status_name(rc), d.message);
		heed_verifier_free(v);
	}
}

/* A bad address and the OOM loop need no DNS answer. */
static void on_result(void *ud, const struct heed_verify_result *r)
{
	*(heed_verify_reason *)ud = r->reason;
}

static void test_verifier_bad_address_and_oom(void **state)
{
	static const char *const domains[] = {"example.org"};
	struct heed_verify_options opt = {domains, 1, {"127.0.0.1:9", 0, 0}};
	heed_verify_reason got = HEED_VERIFY_OK;
	heed_verifier *v;
	unsigned long n;
	heed_status rc;

	(void)state;
	assert_int_equal(
	        heed_verifier_new(&v, &opt, heed_test_allocator(), NULL),
	        HEED_OK);
	heed_verifier_start(v, "not-an-address", 0, on_result, &got);
	assert_int_equal(got, HEED_VERIFY_BAD_ADDRESS);
	assert_int_equal(heed_verifier_pending(v), 0);
	heed_verifier_free(v);
	for (n = 0;; n++) {
		struct heed_test_fail f = {.fail_at = n};
		rc = heed_verifier_new(&v, &opt,
		                       heed_test_failing_allocator(&f), NULL);
		if (rc == HEED_OK) {
			heed_verifier_free(v);
			break;
		}
		assert_int_equal(rc, HEED_ENOMEM);
		assert_null(v);
	}
}

struct cancel_seen {
	int calls;
	heed_dns_outcome outcome;
	size_t cache_ttl_s;
};

static void on_cancel(void *ud, const struct heed_verify_result *r)
{
	struct cancel_seen *seen = ud;

	seen->calls++;
	seen->outcome = r->outcome;
	seen->cache_ttl_s = r->cache_ttl_s;
}

/* A check in flight when the verifier is freed ends cancelled, shared
 * checks included, and nothing leaks; past max_pending, checks of new
 * addresses are refused at once. The server is a loopback socket that
 * never answers. */
static void test_verifier_free_cancels(void **state)
{
	static const char *const domains[] = {"example.org"};
	struct heed_verify_options opt = {domains, 1, {NULL, 0, 0}};
	struct cancel_seen seen = {0, HEED_DNS_FOUND, 1};
	heed_verify_reason busy = HEED_VERIFY_OK;
	struct sockaddr_in sin = {0};
	socklen_t len = sizeof(sin);
	char server[40];
	heed_verifier *v;
	int fd;

	(void)state;
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	assert_true(fd >= 0);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(fd, (struct sockaddr *)&sin, sizeof(sin)), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&sin, &len), 0);
	snprintf(server, sizeof(server), "127.0.0.1:%u", ntohs(sin.sin_port));
	opt.dns.servers = server;
	opt.max_pending = 1;
	assert_int_equal(
	        heed_verifier_new(&v, &opt, heed_test_allocator(), NULL),
	        HEED_OK);
	heed_verifier_start(v, "192.0.2.1", 0, on_cancel, &seen);
	heed_verifier_start(v, "::ffff:192.0.2.1", 0, on_cancel, &seen);
	assert_int_equal(heed_verifier_pending(v), 2);
	assert_int_equal(seen.calls, 0);
	/* max_pending 1: a second address is refused at once, uncached. */
	heed_verifier_start(v, "192.0.2.2", 0, on_result, &busy);
	assert_int_equal(busy, HEED_VERIFY_BUSY);
	assert_int_equal(heed_verifier_pending(v), 2);
	heed_verifier_free(v);
	assert_int_equal(seen.calls, 2);
	assert_int_equal(seen.outcome, HEED_DNS_CANCELLED);
	assert_int_equal(seen.cache_ttl_s, 0);
	close(fd);
}

/* A configuration with hostile values, for the escaping tests. */
static void hostile_config(struct heed_config *cfg)
{
	assert_int_equal(heed_config_init(cfg), HEED_OK);
	assert_int_equal(heed_config_set(cfg, "identity.operator",
	                                 "<script>alert(1)</script> & *co*",
	                                 NULL),
	                 HEED_OK);
	/* Refused where settings are read; the page escapes what is left. */
	assert_int_equal(heed_config_set(cfg, "identity.contact_url",
	                                 "javascript:alert(1)", NULL),
	                 HEED_ECONFIG);
	assert_int_equal(heed_config_set(cfg, "identity.contact_url",
	                                 "https://example.org/a?b=1&c=\"x\"",
	                                 NULL),
	                 HEED_OK);
	assert_int_equal(heed_config_set(cfg, "identity.contact_email",
	                                 "bots@example.org", NULL),
	                 HEED_OK);
	assert_int_equal(heed_config_set(cfg, "verify.domain",
	                                 "crawler.example.org", NULL),
	                 HEED_OK);
	assert_int_equal(
	        heed_config_set(cfg, "crawl.incremental_interval", "90m", NULL),
	        HEED_OK);
}

static char *render(const struct heed_config *cfg, heed_verify_page_format f)
{
	char *page;
	size_t len;

	assert_int_equal(heed_verify_page_render(cfg, f, heed_test_allocator(),
	                                         &page, &len),
	                 HEED_OK);
	assert_int_equal(strlen(page), len);
	return page;
}

static void test_page_html_escapes(void **state)
{
	struct heed_config cfg;
	char *page;

	(void)state;
	hostile_config(&cfg);
	page = render(&cfg, HEED_VERIFY_PAGE_HTML);
	assert_null(strstr(page, "<script>"));
	assert_non_null(strstr(page, "&lt;script&gt;alert(1)&lt;/script&gt; "
	                             "&amp; *co*"));
	/* Not a link: only http(s) and mailto: addresses become one. */
	assert_null(strstr(page, "href=\"javascript:"));
	assert_non_null(strstr(page, "a?b=1&amp;c=&quot;x&quot;"));
	assert_null(strstr(page, "c=\"x\""));
	assert_non_null(strstr(page, "href=\"mailto:bots@example.org\""));
	assert_non_null(
	        strstr(page, "heed verify --domain crawler.example.org"));
	assert_non_null(strstr(page, "once every week"));
	assert_non_null(strstr(page, "once every 90 minutes"));
	assert_non_null(strstr(page, "User-agent: heed\nDisallow: /"));
	/* How an owner asks the operator for an arrangement. */
	assert_non_null(strstr(page, "Arrangements with the operator"));
	assert_non_null(strstr(page, "never less than one second"));
	assert_non_null(strstr(page, "</html>\n"));
	test_free(page);
	heed_config_free(&cfg);
}

static void test_page_markdown_escapes(void **state)
{
	struct heed_config cfg;
	char *page;

	(void)state;
	hostile_config(&cfg);
	assert_int_equal(
	        heed_config_set(&cfg, "identity.product_token", "a`b", NULL),
	        HEED_OK);
	page = render(&cfg, HEED_VERIFY_PAGE_MARKDOWN);
	assert_non_null(strstr(page, "\\<script\\>alert(1)\\</script\\> \\& "
	                             "\\*co\\*"));
	assert_non_null(strstr(page, "[bots@example.org](<mailto:"
	                             "bots@example.org>)"));
	/* A backtick in the token gets a longer code fence. */
	assert_non_null(strstr(page, "`` a`b ``"));
	assert_null(strstr(page, "](<javascript"));
	test_free(page);
	heed_config_free(&cfg);
}

static void test_page_without_domain_or_contact(void **state)
{
	struct heed_config cfg;
	char *page;
	unsigned long n;

	(void)state;
	assert_int_equal(heed_config_init(&cfg), HEED_OK);
	page = render(&cfg, HEED_VERIFY_PAGE_MARKDOWN);
	assert_non_null(strstr(page, "not published a verification domain"));
	assert_non_null(strstr(page, "not published an e-mail address"));
	assert_null(strstr(page, "heed verify --domain"));
	test_free(page);
	for (n = 0;; n++) {
		struct heed_test_fail f = {.fail_at = n};
		size_t len;
		heed_status rc = heed_verify_page_render(
		        &cfg, HEED_VERIFY_PAGE_HTML,
		        heed_test_failing_allocator(&f), &page, &len);
		if (rc == HEED_OK) {
			test_free(page);
			break;
		}
		assert_int_equal(rc, HEED_ENOMEM);
		assert_null(page);
	}
	heed_config_free(&cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_suffix_rule),
	        cmocka_unit_test(test_addresses),
	        cmocka_unit_test(test_ranges_parse),
	        cmocka_unit_test(test_ranges_nul_and_size),
	        cmocka_unit_test(test_ranges_match),
	        cmocka_unit_test(test_ranges_oom),
	        cmocka_unit_test(test_cache_ttl_and_eviction),
	        cmocka_unit_test(test_verifier_domains),
	        cmocka_unit_test(test_verifier_bad_address_and_oom),
	        cmocka_unit_test(test_verifier_free_cancels),
	        cmocka_unit_test(test_page_html_escapes),
	        cmocka_unit_test(test_page_markdown_escapes),
	        cmocka_unit_test(test_page_without_domain_or_contact),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
