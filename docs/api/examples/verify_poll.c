/*
 * Example for docs/api/verify.md: checks the addresses on its command line
 * with heed's verifier, driven by the program's own poll() loop, as a web
 * server would. Built with heed (so it always compiles) and run by
 * tests/integration/test_verify.py against dnsmasq.
 *
 *   verify_poll DNS_SERVER DOMAIN ADDRESS...
 *
 * Prints "ADDRESS verified NAME" or "ADDRESS not-verified REASON" per
 * address, in the order the answers come; exits 0 when all verified.
 */
#include <poll.h>
#include <stdio.h>
#include <time.h>

#include <heed/verify.h>

static int unverified;

static void on_verified(void *ud, const struct heed_verify_result *r)
{
	(void)ud;
	if (r->verified) {
		printf("%s verified %s\n", r->query, r->verified_name);
		return;
	}
	unverified++;
	printf("%s not-verified %s\n", r->query,
	       heed_verify_reason_name(r->reason));
}

int main(int argc, char **argv)
{
	struct heed_verify_options opt = {0};
	struct heed_diag diag = {0};
	struct pollfd fds[16];
	struct timespec ts;
	heed_verifier *v;
	int i;

	if (argc < 4) {
		fputs("usage: verify_poll DNS_SERVER DOMAIN ADDRESS...\n",
		      stderr);
		return 2;
	}
	opt.domains = (const char *const *)&argv[2];
	opt.domain_count = 1;
	opt.dns.servers = argv[1];
	if (heed_verifier_new(&v, &opt, NULL, &diag) != HEED_OK) {
		fprintf(stderr, "%s\n", diag.message);
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &ts);
	for (i = 3; i < argc; i++)
		heed_verifier_start(v, argv[i], ts.tv_sec, on_verified, NULL);
	/* The event loop: a server would add its own sockets to fds. */
	while (heed_verifier_pending(v) > 0) {
		int n = heed_verifier_pollfds(v, fds, 16);
		int ms = heed_verifier_timeout_ms(v, 1000);
		if (poll(fds, (nfds_t)n, ms) < 0)
			n = 0;
		heed_verifier_process(v, fds, n);
	}
	heed_verifier_free(v);
	return unverified ? 1 : 0;
}
