/*
 * `heed dns [--dns-server ADDR:PORT] [--json] NAME|ADDRESS...`: what heed's
 * resolver answers, like host(1): every address of a name in the order heed
 * will try them, with TTLs and the CNAME chain, or every PTR name of an
 * address. An operator uses it to see why a site could not be resolved.
 * Exit 0 when every lookup found something.
 */
#include <arpa/inet.h>
#include <getopt.h>
#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "cli/cli.h"
#include "cli/cli_text.h"
#include "heed/dns.h"

struct dns_run {
	int json;
	int failures;
	json_object *out; /* array, with --json */
};

static int is_address(const char *s)
{
	unsigned char b[16];

	return inet_pton(AF_INET, s, b) == 1 || inet_pton(AF_INET6, s, b) == 1;
}

/* A name heed would look up: not empty and not the root ("" or "."),
 * which a crawler never asks for, and no longer than DNS allows (RFC 1035
 * 2.3.4: 253 octets written out, 254 with the root's dot). Prints why
 * not and returns false. */
static bool check_name(const char *name)
{
	char shown[HEED_CLI_SHORT_SIZE];
	size_t n = strlen(name);

	if (n == 0 || strcmp(name, ".") == 0) {
		heed_cli_usage(
		        "dns",
		        "an empty name is the DNS root, not a host: give "
		        "a host name or an address");
		return false;
	}
	if (n > 254 || (n == 254 && name[253] != '.')) {
		heed_cli_usage("dns",
		               "'%s' is not a DNS name: longer than 253 bytes",
		               heed_cli_short(name, shown, sizeof(shown)));
		return false;
	}
	return true;
}

static json_object *result_json(const struct heed_dns_result *r)
{
	json_object *o = json_object_new_object();
	json_object *list = json_object_new_array();
	size_t i;

	json_object_object_add(o, "query", json_object_new_string(r->query));
	json_object_object_add(
	        o, "outcome",
	        json_object_new_string(heed_dns_outcome_name(r->outcome)));
	for (i = 0; i < r->addr_count; i++) {
		json_object *a = json_object_new_object();
		json_object_object_add(
		        a, "address", json_object_new_string(r->addrs[i].text));
		json_object_object_add(
		        a, "ttl", json_object_new_int64(r->addrs[i].ttl_s));
		json_object_array_add(list, a);
	}
	json_object_object_add(o, "addresses", list);
	list = json_object_new_array();
	for (i = 0; i < r->cname_count; i++)
		json_object_array_add(list,
		                      json_object_new_string(r->cnames[i]));
	json_object_object_add(o, "cnames", list);
	list = json_object_new_array();
	for (i = 0; i < r->name_count; i++)
		json_object_array_add(list,
		                      json_object_new_string(r->names[i]));
	json_object_object_add(o, "names", list);
	return o;
}

static void print_result(const struct heed_dns_result *r)
{
	size_t i;

	if (r->outcome != HEED_DNS_FOUND) {
		printf("%s: %s (%s)\n", r->query,
		       heed_dns_outcome_name(r->outcome), r->detail);
		return;
	}
	for (i = 0; i < r->cname_count; i++)
		printf("%s is an alias for %s\n",
		       i ? r->cnames[i - 1] : r->query, r->cnames[i]);
	for (i = 0; i < r->addr_count; i++)
		printf("%s has %s address %s (ttl %u)\n", r->query,
		       r->addrs[i].family == AF_INET6 ? "IPv6" : "IPv4",
		       r->addrs[i].text, (unsigned)r->addrs[i].ttl_s);
	for (i = 0; i < r->name_count; i++)
		printf("%s domain name pointer %s\n", r->query, r->names[i]);
}

static void on_result(void *ud, const struct heed_dns_result *r)
{
	struct dns_run *run = ud;

	if (r->outcome != HEED_DNS_FOUND)
		run->failures++;
	if (run->json)
		json_object_array_add(run->out, result_json(r));
	else
		print_result(r);
}

int heed_cmd_dns(int argc, char **argv)
{
	static const struct option longopts[] = {
	        {"dns-server", required_argument, NULL, 's'},
	        {"json", no_argument, NULL, 'j'},
	        {"help", no_argument, NULL, 'h'},
	        {NULL, 0, NULL, 0},
	};
	struct heed_dns_options opt = {0};
	struct dns_run run = {0};
	struct heed_diag diag = {0};
	heed_dns *dns;
	int c, i;

	while ((c = getopt_long(argc, argv, "s:jh", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			opt.servers = optarg;
			break;
		case 'j':
			run.json = 1;
			break;
		case 'h':
			heed_cli_print_help(stdout, heed_cli_find("dns"));
			return HEED_EXIT_OK;
		default:
			return heed_cli_usage("dns", "unknown option");
		}
	}
	if (optind >= argc)
		return heed_cli_usage("dns", "name or address missing");
	for (i = optind; i < argc; i++)
		if (!is_address(argv[i]) && !check_name(argv[i]))
			return HEED_EXIT_USAGE;
	if (heed_dns_new(&dns, &opt, NULL, &diag) != HEED_OK) {
		heed_cli_error("%s", diag.message);
		return HEED_EXIT_USAGE;
	}
	run.out = json_object_new_array();
	/* One at a time, so the output keeps the command line's order. */
	for (i = optind; i < argc; i++) {
		if (is_address(argv[i]))
			heed_dns_reverse(dns, argv[i], on_result, &run);
		else
			heed_dns_resolve(dns, argv[i], AF_UNSPEC, on_result,
			                 &run);
		heed_dns_wait(dns);
	}
	if (run.json)
		puts(json_object_to_json_string_ext(run.out,
		                                    JSON_C_TO_STRING_PRETTY));
	json_object_put(run.out);
	heed_dns_free(dns);
	return run.failures ? HEED_EXIT_FAIL : HEED_EXIT_OK;
}
