/*
 * Unit tests for the net shell's pure parts and its contract: the address
 * classes behind the private-address refusal, refused starts that never
 * call back, and cancellation on free (on_done runs exactly once). Real
 * fetches are tested against real servers in tests/integration.
 */
#include "heed_test.h"

#include <arpa/inet.h>
#include <sys/socket.h>

#include "heed/net.h"

static struct heed_dns_addr addr_of(const char *text)
{
	struct heed_dns_addr a = {0};

	a.family = strchr(text, ':') ? AF_INET6 : AF_INET;
	inet_pton(a.family, text, a.bytes);
	snprintf(a.text, sizeof(a.text), "%s", text);
	return a;
}

static const struct addr_case {
	const char *name, *addr;
	heed_net_addr_kind want;
} addr_cases[] = {
        {"public IPv4", "93.184.216.34", HEED_NET_ADDR_PUBLIC},
        {"RFC 1918 10/8", "10.1.2.3", HEED_NET_ADDR_PRIVATE},
        {"RFC 1918 172.16/12 low", "172.16.0.1", HEED_NET_ADDR_PRIVATE},
        {"RFC 1918 172.16/12 high", "172.31.255.255", HEED_NET_ADDR_PRIVATE},
        {"172.32 is public", "172.32.0.1", HEED_NET_ADDR_PUBLIC},
        {"RFC 1918 192.168/16", "192.168.1.1", HEED_NET_ADDR_PRIVATE},
        {"RFC 6598 shared 100.64/10", "100.100.0.1", HEED_NET_ADDR_PRIVATE},
        {"loopback 127/8", "127.0.0.2", HEED_NET_ADDR_LOOPBACK},
        {"RFC 3927 link-local", "169.254.169.254", HEED_NET_ADDR_LINK_LOCAL},
        {"unspecified 0.0.0.0", "0.0.0.0", HEED_NET_ADDR_RESERVED},
        {"multicast", "224.0.0.1", HEED_NET_ADDR_RESERVED},
        {"broadcast", "255.255.255.255", HEED_NET_ADDR_RESERVED},
        {"RFC 5737 documentation", "192.0.2.1", HEED_NET_ADDR_RESERVED},
        {"public IPv6", "2a00:1450:4001::1", HEED_NET_ADDR_PUBLIC},
        {"IPv6 loopback", "::1", HEED_NET_ADDR_LOOPBACK},
        {"IPv6 unspecified", "::", HEED_NET_ADDR_RESERVED},
        {"RFC 4193 unique local", "fd00::1", HEED_NET_ADDR_PRIVATE},
        {"IPv6 link-local", "fe80::1", HEED_NET_ADDR_LINK_LOCAL},
        {"IPv6 multicast", "ff02::1", HEED_NET_ADDR_RESERVED},
        {"RFC 3849 documentation", "2001:db8::1", HEED_NET_ADDR_RESERVED},
        {"IPv4-mapped loopback", "::ffff:127.0.0.1", HEED_NET_ADDR_LOOPBACK},
        {"IPv4-mapped private", "::ffff:10.0.0.1", HEED_NET_ADDR_PRIVATE},
        {"IPv4-mapped public", "::ffff:8.8.8.8", HEED_NET_ADDR_PUBLIC},
};

static void test_address_classes(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < HEED_ARRAY_SIZE(addr_cases); i++) {
		struct heed_dns_addr a = addr_of(addr_cases[i].addr);
		heed_net_addr_kind got = heed_net_addr_classify(&a);
		if (got != addr_cases[i].want)
			fail_msg("%s (%s): %s, want %s", addr_cases[i].name,
			         addr_cases[i].addr,
			         heed_net_addr_kind_name(got),
			         heed_net_addr_kind_name(addr_cases[i].want));
	}
}

static void test_allowed(void **state)
{
	struct heed_dns_addr pub = addr_of("8.8.8.8"),
	                     lo = addr_of("127.0.0.1");
	struct heed_dns_addr mc = addr_of("224.0.0.1");

	(void)state;
	assert_true(heed_net_addr_allowed(&pub, false));
	assert_false(heed_net_addr_allowed(&lo, false));
	assert_true(heed_net_addr_allowed(&lo, true));
	/* --allow-private never opens multicast or unspecified addresses. */
	assert_false(heed_net_addr_allowed(&mc, true));
}

struct done_count {
	int calls;
	heed_net_error last;
};

static void on_done(void *ud, const struct heed_net_response *r)
{
	struct done_count *d = ud;

	d->calls++;
	d->last = r->error;
}

static void test_refused_starts_never_call_back(void **state)
{
	struct heed_net_options opt = {.user_agent = "heed-test/1"};
	struct heed_dns_addr lo = addr_of("127.0.0.1");
	struct done_count d = {0};
	struct heed_net_request req = {
	        "http://a.test/robots.txt", &lo, 0, NULL, on_done, &d};
	heed_net *net;

	(void)state;
	assert_int_equal(
	        heed_net_new(&net, &opt, NULL, heed_test_allocator(), NULL),
	        HEED_OK);
	assert_int_equal(heed_net_start(net, &req), HEED_EDENIED);
	req.url = "ftp://a.test/robots.txt";
	assert_int_equal(heed_net_start(net, &req), HEED_EINVAL);
	assert_int_equal(heed_net_pending(net), 0);
	heed_net_free(net);
	assert_int_equal(d.calls, 0);
}

static void test_free_cancels_once(void **state)
{
	struct heed_net_options opt = {.user_agent = "heed-test/1",
	                               .allow_private = true};
	struct heed_dns_addr lo = addr_of("127.0.0.1");
	struct done_count d = {0};
	struct heed_net_request req = {
	        "http://a.test:9/robots.txt", &lo, 0, NULL, on_done, &d};
	heed_net *net;

	(void)state;
	assert_int_equal(
	        heed_net_new(&net, &opt, NULL, heed_test_allocator(), NULL),
	        HEED_OK);
	assert_int_equal(heed_net_start(net, &req), HEED_OK);
	assert_int_equal(heed_net_pending(net), 1);
	heed_net_free(net);
	assert_int_equal(d.calls, 1);
	assert_int_equal(d.last, HEED_NET_CANCELLED);
}

static void test_no_user_agent(void **state)
{
	struct heed_net_options opt = {0};
	struct heed_diag diag = {0};
	heed_net *net = NULL;

	(void)state;
	assert_int_equal(heed_net_new(&net, &opt, NULL, NULL, &diag),
	                 HEED_ECONFIG);
	assert_null(net);
	assert_non_null(strstr(diag.message, "User-Agent"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_address_classes),
	        cmocka_unit_test(test_allowed),
	        cmocka_unit_test(test_refused_starts_never_call_back),
	        cmocka_unit_test(test_free_cancels_once),
	        cmocka_unit_test(test_no_user_agent),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
