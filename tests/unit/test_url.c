/*
 * Unit tests for src/url: RFC 3986 5.4 reference resolution, 6.2
 * normalisation, IDN, host keys, registrable domains and the OOM loop.
 */
#include "heed_test.h"

#include "heed/url.h"

struct resolve_case {
	const char *name, *ref, *want; /* want NULL: HEED_EINVAL */
};

/* RFC 3986 5.4: base "http://a/b/c/d;p?q"; fragments are dropped. */
static const struct resolve_case rfc_cases[] = {
        {"5.4.1 g:h (not http: refused)", "g:h", NULL},
        {"5.4.1 g", "g", "http://a/b/c/g"},
        {"5.4.1 ./g", "./g", "http://a/b/c/g"},
        {"5.4.1 g/", "g/", "http://a/b/c/g/"},
        {"5.4.1 /g", "/g", "http://a/g"},
        {"5.4.1 //g", "//g", "http://g/"},
        {"5.4.1 ?y", "?y", "http://a/b/c/d;p?y"},
        {"5.4.1 g?y", "g?y", "http://a/b/c/g?y"},
        {"5.4.1 #s", "#s", "http://a/b/c/d;p?q"},
        {"5.4.1 g#s", "g#s", "http://a/b/c/g"},
        {"5.4.1 g?y#s", "g?y#s", "http://a/b/c/g?y"},
        {"5.4.1 ;x", ";x", "http://a/b/c/;x"},
        {"5.4.1 g;x", "g;x", "http://a/b/c/g;x"},
        {"5.4.1 g;x?y#s", "g;x?y#s", "http://a/b/c/g;x?y"},
        {"5.4.1 empty", "", "http://a/b/c/d;p?q"},
        {"5.4.1 .", ".", "http://a/b/c/"},
        {"5.4.1 ./", "./", "http://a/b/c/"},
        {"5.4.1 ..", "..", "http://a/b/"},
        {"5.4.1 ../", "../", "http://a/b/"},
        {"5.4.1 ../g", "../g", "http://a/b/g"},
        {"5.4.1 ../..", "../..", "http://a/"},
        {"5.4.1 ../../", "../../", "http://a/"},
        {"5.4.1 ../../g", "../../g", "http://a/g"},
        {"5.4.2 ../../../g", "../../../g", "http://a/g"},
        {"5.4.2 ../../../../g", "../../../../g", "http://a/g"},
        {"5.4.2 /./g", "/./g", "http://a/g"},
        {"5.4.2 /../g", "/../g", "http://a/g"},
        {"5.4.2 g.", "g.", "http://a/b/c/g."},
        {"5.4.2 .g", ".g", "http://a/b/c/.g"},
        {"5.4.2 g..", "g..", "http://a/b/c/g.."},
        {"5.4.2 ..g", "..g", "http://a/b/c/..g"},
        {"5.4.2 ./../g", "./../g", "http://a/b/g"},
        {"5.4.2 ./g/.", "./g/.", "http://a/b/c/g/"},
        {"5.4.2 g/./h", "g/./h", "http://a/b/c/g/h"},
        {"5.4.2 g/../h", "g/../h", "http://a/b/c/h"},
        {"5.4.2 g;x=1/./y", "g;x=1/./y", "http://a/b/c/g;x=1/y"},
        {"5.4.2 g;x=1/../y", "g;x=1/../y", "http://a/b/c/y"},
        {"5.4.2 g?y/./x", "g?y/./x", "http://a/b/c/g?y/./x"},
        {"5.4.2 g?y/../x", "g?y/../x", "http://a/b/c/g?y/../x"},
        {"5.4.2 g#s/./x", "g#s/./x", "http://a/b/c/g"},
        {"5.4.2 g#s/../x", "g#s/../x", "http://a/b/c/g"},
        {"5.4.2 http:g (strict parser: refused)", "http:g", NULL},
        {"href: mailto refused", "mailto:a@b.example", NULL},
        {"href: javascript refused", "javascript:void(0)", NULL},
        {"href: spaces trimmed, newline removed", "  g\n/h ",
         "http://a/b/c/g/h"},
        {"href: space inside encoded", "g h", "http://a/b/c/g%20h"},
        {"href: other host", "https://B.example:443/x", "https://b.example/x"},
        {"href: backslashes as slashes", "\\\\c.example\\x",
         "http://c.example/x"},
};

static void test_url_resolve_rfc3986(void **state)
{
	heed_url *base;
	(void)state;

	assert_int_equal(heed_url_parse(&base, "http://a/b/c/d;p?q", 18,
	                                heed_test_allocator()),
	                 HEED_OK);
	for (size_t i = 0; i < HEED_ARRAY_SIZE(rfc_cases); i++) {
		const struct resolve_case *c = &rfc_cases[i];
		heed_url *u = NULL;
		heed_status rc =
		        heed_url_resolve(&u, base, c->ref, strlen(c->ref));
		if (!c->want && rc != HEED_EINVAL)
			fail_msg("%s: got %s, want EINVAL", c->name,
			         heed_status_name(rc));
		if (c->want &&
		    (rc != HEED_OK || strcmp(heed_url_get(u), c->want) != 0))
			fail_msg("%s: got %s %s, want %s", c->name,
			         heed_status_name(rc), u ? heed_url_get(u) : "",
			         c->want);
		heed_url_free(u);
	}
	heed_url_free(base);
}

struct norm_case {
	const char *name, *in, *want, *host_key, *regdom;
	heed_status rc;
};

static const struct norm_case norm_cases[] = {
        {"6.2.2.1 scheme and host lower-cased", "HTTP://ExAmple.COM/A",
         "http://example.com/A", "example.com", "example.com", HEED_OK},
        {"6.2.3 default port dropped", "http://example.com:80/",
         "http://example.com/", "example.com", "example.com", HEED_OK},
        {"6.2.3 https default port dropped", "https://example.com:443",
         "https://example.com/", "example.com", "example.com", HEED_OK},
        {"other port kept, in host key", "http://example.com:8080/x",
         "http://example.com:8080/x", "example.com:8080", "example.com",
         HEED_OK},
        {"6.2.2.3 dot segments removed", "http://e.com/a/./b/../c",
         "http://e.com/a/c", "e.com", "e.com", HEED_OK},
        {"6.2.2.2 unreserved decoded, hex upper-cased",
         "http://e.com/%7e%41%2f%3a?q=%c3%a9", "http://e.com/~A%2F%3A?q=%C3%A9",
         "e.com", "e.com", HEED_OK},
        {"stray percent encoded", "http://e.com/100%/%zz",
         "http://e.com/100%25/%25zz", "e.com", "e.com", HEED_OK},
        {"non-ASCII path and query encoded", "http://e.com/é?q=ü b",
         "http://e.com/%C3%A9?q=%C3%BC%20b", "e.com", "e.com", HEED_OK},
        {"fragment dropped", "http://e.com/a#top", "http://e.com/a", "e.com",
         "e.com", HEED_OK},
        {"userinfo dropped", "http://user:pw@e.com/", "http://e.com/", "e.com",
         "e.com", HEED_OK},
        {"IDN to punycode", "http://Bücher.example/x",
         "http://xn--bcher-kva.example/x", "xn--bcher-kva.example",
         "xn--bcher-kva.example", HEED_OK},
        {"IDN with TLD", "https://日本.jp/", "https://xn--wgv71a.jp/",
         "xn--wgv71a.jp", "xn--wgv71a.jp", HEED_OK},
        {"PSL: co.uk", "http://a.b.example.co.uk/", "http://a.b.example.co.uk/",
         "a.b.example.co.uk", "example.co.uk", HEED_OK},
        {"PSL: public suffix itself has none", "http://co.uk/", "http://co.uk/",
         "co.uk", NULL, HEED_OK},
        {"IPv4 has no registrable domain", "http://127.0.0.1:8080/",
         "http://127.0.0.1:8080/", "127.0.0.1:8080", NULL, HEED_OK},
        {"IPv6 literal", "http://[::1]/", "http://[::1]/", "[::1]", NULL,
         HEED_OK},
        {"relative refused", "/a/b", NULL, NULL, NULL, HEED_EINVAL},
        {"ftp refused", "ftp://e.com/", NULL, NULL, NULL, HEED_EINVAL},
        {"extra slashes read as browsers do", "http:///x", "http://x/", "x",
         NULL, HEED_OK},
        {"no host", "http://", NULL, NULL, NULL, HEED_EINVAL},
        {"one slash: host still folded (fuzz repro)", "http:/AbC/x",
         "http://abc/x", "abc", NULL, HEED_OK},
        {"bad host", "http://exa mple.com/", NULL, NULL, NULL, HEED_EINVAL},
        {"bad port", "http://e.com:99999/", NULL, NULL, NULL, HEED_EINVAL},
        {"port zero (fuzz repro)", "http://e.com:0/", NULL, NULL, NULL,
         HEED_EINVAL},
};

static void test_url_normalize(void **state)
{
	(void)state;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(norm_cases); i++) {
		const struct norm_case *c = &norm_cases[i];
		heed_url *u = NULL, *again = NULL;
		heed_status rc = heed_url_parse(&u, c->in, strlen(c->in),
		                                heed_test_allocator());
		const char *rd;

		if (rc != c->rc)
			fail_msg("%s: got %s", c->name, heed_status_name(rc));
		if (rc != HEED_OK)
			continue;
		rd = heed_url_registrable_domain(u);
		if (strcmp(heed_url_get(u), c->want) != 0 ||
		    strcmp(heed_url_host_key(u), c->host_key) != 0 ||
		    (c->regdom == NULL) != (rd == NULL) ||
		    (rd && strcmp(rd, c->regdom) != 0))
			fail_msg("%s: got %s key %s domain %s", c->name,
			         heed_url_get(u), heed_url_host_key(u),
			         rd ? rd : "(none)");
		/* Normalising a normalised URL changes nothing. */
		assert_int_equal(heed_url_parse(&again, c->want,
		                                strlen(c->want),
		                                heed_test_allocator()),
		                 HEED_OK);
		assert_string_equal(heed_url_get(again), c->want);
		heed_url_free(again);
		heed_url_free(u);
	}
}

static void test_url_parts(void **state)
{
	heed_url *u, *d;
	(void)state;

	assert_int_equal(heed_url_parse(&u, "https://E.com:8443/p/q?x=1#f", 28,
	                                heed_test_allocator()),
	                 HEED_OK);
	assert_string_equal(heed_url_scheme(u), "https");
	assert_string_equal(heed_url_host(u), "e.com");
	assert_int_equal(heed_url_port(u), 8443);
	assert_string_equal(heed_url_target(u), "/p/q?x=1");
	d = heed_url_dup(u);
	heed_url_free(u);
	assert_string_equal(heed_url_get(d), "https://e.com:8443/p/q?x=1");
	assert_string_equal(heed_url_target(d), "/p/q?x=1");
	assert_string_equal(heed_url_host_key(d), "e.com:8443");
	heed_url_free(d);
	heed_url_free(NULL);
}

/* heed_url_resolve_buf() gives what heed_url_resolve() gives, on the fast
 * path (plain references) and the slow one (everything else). */
static void test_url_resolve_buf(void **state)
{
	heed_url *base;
	char buf[HEED_URL_MAX_BYTES + 1];
	(void)state;

	assert_int_equal(heed_url_parse(&base, "http://a/b/c/d;p?q", 18,
	                                heed_test_allocator()),
	                 HEED_OK);
	for (size_t i = 0; i < HEED_ARRAY_SIZE(rfc_cases); i++) {
		const struct resolve_case *c = &rfc_cases[i];
		size_t len = 0;
		heed_status rc = heed_url_resolve_buf(
		        base, c->ref, strlen(c->ref), buf, sizeof(buf), &len);
		if (c->want ? (rc != HEED_OK || strcmp(buf, c->want) != 0 ||
		               len != strlen(c->want))
		            : rc != HEED_EINVAL)
			fail_msg("%s: got %s %s", c->name, heed_status_name(rc),
			         rc == HEED_OK ? buf : "");
	}
	assert_int_equal(heed_url_resolve_buf(base, "/long/path", 10, buf, 10,
	                                      &(size_t){0}),
	                 HEED_ETOOBIG);
	heed_url_free(base);
}

/* Session ids are dropped from the normal form, by heed_url_parse and by
 * both paths of heed_url_resolve_buf alike; everything else stays. */
static void test_url_session_ids(void **state)
{
	static const struct {
		const char *in, *want;
	} cases[] = {
	        {"http://e.com/a?PHPSESSID=0000002a", "http://e.com/a"},
	        {"http://e.com/a?x=1&phpsessid=ab&y=2",
	         "http://e.com/a?x=1&y=2"},
	        {"http://e.com/a?x=1&JSESSIONID=ab", "http://e.com/a?x=1"},
	        {"http://e.com/a;jsessionid=A1B2?x=1", "http://e.com/a?x=1"},
	        {"http://e.com/a;jsessionid=A1B2/b", "http://e.com/a/b"},
	        {"http://e.com/a;v=1;jsessionid=A1", "http://e.com/a;v=1"},
	        {"http://e.com/?ASPSESSIONIDQQGGQGPG=XYZ&p=2",
	         "http://e.com/?p=2"},
	        {"http://e.com/?sessionid=1&session_id=2&cfid=3&cftoken=4"
	         "&osCsid=5&zenid=6",
	         "http://e.com/"},
	        /* "sid" is a session id only as a long token. */
	        {"http://e.com/s?sid=0123456789abcdef0123", "http://e.com/s"},
	        {"http://e.com/s?sid=42", "http://e.com/s?sid=42"},
	        /* Names that only contain one, and values, stay. */
	        {"http://e.com/?mysessionid=1&q=phpsessid",
	         "http://e.com/?mysessionid=1&q=phpsessid"},
	        {"http://e.com/a;jsession=1", "http://e.com/a;jsession=1"},
	};
	char buf[HEED_URL_MAX_BYTES + 1];
	heed_url *base;
	(void)state;

	assert_int_equal(heed_url_parse(&base, "http://e.com/dir/page", 21,
	                                heed_test_allocator()),
	                 HEED_OK);
	for (size_t i = 0; i < HEED_ARRAY_SIZE(cases); i++) {
		heed_url *u = NULL;
		const char *target = cases[i].in + strlen("http://e.com");
		size_t len = 0;

		assert_int_equal(heed_url_parse(&u, cases[i].in,
		                                strlen(cases[i].in),
		                                heed_test_allocator()),
		                 HEED_OK);
		if (strcmp(heed_url_get(u), cases[i].want) != 0)
			fail_msg("parse %s: got %s", cases[i].in,
			         heed_url_get(u));
		heed_url_free(u);
		/* As a link: the fast path (plain) or the slow one. */
		assert_int_equal(heed_url_resolve_buf(base, target,
		                                      strlen(target), buf,
		                                      sizeof(buf), &len),
		                 HEED_OK);
		if (strcmp(buf, cases[i].want) != 0 ||
		    len != strlen(cases[i].want))
			fail_msg("resolve %s: got %s", target, buf);
	}
	heed_url_free(base);
}

static void test_url_limits(void **state)
{
	static char big[HEED_URL_MAX_BYTES + 64];
	heed_url *u = NULL;
	(void)state;

	memset(big, 'a', sizeof(big));
	memcpy(big, "http://e.com/", 13);
	assert_int_equal(
	        heed_url_parse(&u, big, sizeof(big), heed_test_allocator()),
	        HEED_ETOOBIG);
	assert_null(u);
	/* Encoding triples the length: the limit holds after it too. */
	memset(big + 13, ' ', HEED_URL_MAX_BYTES / 2);
	assert_int_equal(heed_url_parse(&u, big, HEED_URL_MAX_BYTES / 2 + 14,
	                                heed_test_allocator()),
	                 HEED_ETOOBIG);
}

static void test_url_oom(void **state)
{
	(void)state;
	for (unsigned long n = 0;; n++) {
		struct heed_test_fail f = {.fail_at = n};
		heed_url *u = NULL, *r = NULL;
		heed_status rc =
		        heed_url_parse(&u, "http://bücher.example/a", 24,
		                       heed_test_failing_allocator(&f));
		if (rc == HEED_OK)
			rc = heed_url_resolve(&r, u, "../b?c", 6);
		heed_url_free(r);
		heed_url_free(u);
		if (rc == HEED_OK)
			break;
		assert_int_equal(rc, HEED_ENOMEM);
	}
}

/* The origin read off a URL string: when it gives one, the full parse
 * gives the same; the URLs it turns down are the ones needing work. */
static void test_origin_fast(void **state)
{
	static const struct {
		const char *url, *origin; /* NULL: left to heed_url_parse */
	} cases[] = {
	        {"http://a.test/x", "http://a.test"},
	        {"https://a.test/", "https://a.test"},
	        {"http://127.1.0.5:18081/p/1.html", "http://127.1.0.5:18081"},
	        {"https://a.test:8443/?q=1", "https://a.test:8443"},
	        {"http://a-b.c.test/x?y", "http://a-b.c.test"},
	        {"http://0.0.0.0/", "http://0.0.0.0"},
	        {"https://a.test", NULL},
	        {"http://A.test/x", NULL},
	        {"http://a.test:80/x", NULL},
	        {"https://a.test:443/", NULL},
	        {"http://a.test:080/", NULL},
	        {"http://a.test:/", NULL},
	        {"http://a.test./", NULL},
	        {"http://u@a.test/", NULL},
	        {"http://[::1]/", NULL},
	        {"http://a%2Etest/", NULL},
	        {"http://a.test/p q", NULL},
	        {"http://a.test/caf\xc3\xa9", NULL},
	        {"http://a.test/a\\b", NULL},
	        {"http://a.test/#f", NULL},
	        {"ftp://a.test/", NULL},
	        {"http://127.1/", NULL},
	        {"http://127.0.0.01/", NULL},
	        {"http://1.2.3.256/", NULL},
	        {"http://", NULL},
	};
	char origin[300];

	(void)state;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(cases); i++) {
		heed_status rc = heed_url_origin_fast(cases[i].url, origin,
		                                      sizeof(origin));
		heed_url *u = NULL;
		if (!cases[i].origin) {
			if (rc != HEED_EINVAL)
				fail_msg("%s: %s", cases[i].url,
				         heed_status_name(rc));
			continue;
		}
		assert_int_equal(rc, HEED_OK);
		assert_string_equal(origin, cases[i].origin);
		assert_int_equal(heed_url_parse(&u, cases[i].url,
		                                strlen(cases[i].url),
		                                heed_test_allocator()),
		                 HEED_OK);
		assert_string_equal(heed_url_origin(u), origin);
		heed_url_free(u);
	}
	assert_int_equal(heed_url_origin_fast("http://a.test/", origin, 13),
	                 HEED_ETOOBIG);
}

/* The site identity of parsed URLs: origin and host name. */
static void test_origin_and_hostname(void **state)
{
	static const struct {
		const char *url, *origin, *hostname;
	} cases[] = {
	        {"HTTP://A.Example:80/x", "http://a.example", "a.example"},
	        {"https://a.example:8443/", "https://a.example:8443",
	         "a.example"},
	        {"http://[::1]:8080/", "http://[::1]:8080", "::1"},
	        {"http://127.1/", "http://127.0.0.1", "127.0.0.1"},
	};

	(void)state;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(cases); i++) {
		heed_url *u = NULL, *d;
		assert_int_equal(heed_url_parse(&u, cases[i].url,
		                                strlen(cases[i].url),
		                                heed_test_allocator()),
		                 HEED_OK);
		assert_string_equal(heed_url_origin(u), cases[i].origin);
		assert_string_equal(heed_url_hostname(u), cases[i].hostname);
		d = heed_url_dup(u);
		assert_non_null(d);
		assert_string_equal(heed_url_origin(d), cases[i].origin);
		assert_string_equal(heed_url_hostname(d), cases[i].hostname);
		heed_url_free(d);
		heed_url_free(u);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_origin_fast),
	        cmocka_unit_test(test_origin_and_hostname),
	        cmocka_unit_test(test_url_resolve_rfc3986),
	        cmocka_unit_test(test_url_normalize),
	        cmocka_unit_test(test_url_parts),
	        cmocka_unit_test(test_url_resolve_buf),
	        cmocka_unit_test(test_url_session_ids),
	        cmocka_unit_test(test_url_limits),
	        cmocka_unit_test(test_url_oom),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
