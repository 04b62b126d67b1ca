/*
 * heed/dns.h: "An address literal answers itself": a forward lookup of an
 * IPv4 or IPv6 literal calls back at once with that address, and never asks
 * a server (the server here is a closed loopback port; a query would end in
 * a timeout or a refusal, not FOUND).
 */
#include "heed_test.h"

#include <sys/socket.h>

#include "heed/dns.h"

struct answer {
	int calls;
	heed_dns_outcome outcome;
	char text[64];
	int family;
};

static void on_answer(void *ud, const struct heed_dns_result *r)
{
	struct answer *a = ud;

	a->calls++;
	a->outcome = r->outcome;
	if (r->addr_count == 1) {
		snprintf(a->text, sizeof(a->text), "%s", r->addrs[0].text);
		a->family = r->addrs[0].family;
	}
}

static const struct literal_case {
	const char *name, *host;
	int family;
	const char *want;
	int want_family;
} cases[] = {
        {"IPv4 literal", "127.0.0.11", AF_UNSPEC, "127.0.0.11", AF_INET},
        {"IPv4 literal, A only", "127.1.0.3", AF_INET, "127.1.0.3", AF_INET},
        {"IPv6 literal", "::1", AF_UNSPEC, "::1", AF_INET6},
        {"IPv6 literal, AAAA only", "2001:db8::5", AF_INET6, "2001:db8::5",
         AF_INET6},
};

static void test_literals_answer_themselves(void **state)
{
	struct heed_dns_options opt = {"127.0.0.1:9", 200, 1};
	heed_dns *dns = NULL;

	(void)state;
	assert_int_equal(heed_dns_new(&dns, &opt, heed_test_allocator(), NULL),
	                 HEED_OK);
	for (size_t i = 0; i < HEED_ARRAY_SIZE(cases); i++) {
		const struct literal_case *c = &cases[i];
		struct answer a = {0};
		heed_dns_resolve(dns, c->host, c->family, on_answer, &a);
		if (a.calls != 1 || a.outcome != HEED_DNS_FOUND ||
		    strcmp(a.text, c->want) != 0 || a.family != c->want_family)
			fail_msg("%s: calls %d, outcome %d, address '%s'",
			         c->name, a.calls, (int)a.outcome, a.text);
	}
	assert_int_equal(heed_dns_pending(dns), 0);
	heed_dns_free(dns);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_literals_answer_themselves),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
