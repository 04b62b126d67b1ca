/*
 * `heed verify [--domain SUFFIX]... [--ranges FILE] [--dns-server ADDR:PORT]
 * [--json] IP...`: is this address really the operator's crawler? Runs the
 * two steps of the operator's page (seeds/crawler-operator-page.md,
 * "Open source & crawler verification") through libheed's verifier and
 * prints each: the PTR answer, then the forward answer of every candidate
 * name, like `host` would. With a ranges file, membership in the published
 * ranges is reported as a second, independent proof: an address is
 * verified when either proof holds. Exit 0 only when every address
 * verified, 1 otherwise, 2 for usage and configuration errors.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/cli_config.h"
#include "heed/verify.h"

/* Checks in flight at once: enough to overlap DNS round trips, few enough
 * not to flood the server. */
#define VERIFY_BATCH 32

struct verify_run {
	int json;
	const heed_ranges *ranges;
	const char *ranges_file;
	char **out;     /* per address: its text or JSON, in argv order */
	int unverified; /* addresses with no proof */
	int out_of_memory;
};

/* What one callback needs: the run and the address's slot. */
struct verify_slot {
	struct verify_run *run;
	size_t index;
};

static const struct heed_ranges_prefix *
ranges_proof(const struct verify_run *run, const struct heed_verify_result *r)
{
	if (!run->ranges || r->reason == HEED_VERIFY_BAD_ADDRESS)
		return NULL;
	return heed_ranges_match(run->ranges, &r->addr);
}

/* ---- Text, like host(1) ------------------------------------------------ */

static void print_verdict(FILE *f, const struct verify_run *run,
                          const struct heed_verify_result *r,
                          const struct heed_ranges_prefix *in)
{
	char prefix[50];

	if (r->verified) {
		fprintf(f, "%s: verified (reverse DNS: %s", r->query,
		        r->verified_name);
		if (in)
			fprintf(f, "; published ranges: %s",
			        heed_ranges_prefix_format(in, prefix,
			                                  sizeof(prefix)));
		fputs(")\n", f);
		return;
	}
	if (in) {
		fprintf(f,
		        "%s: verified (published ranges: %s; reverse DNS: "
		        "not verified, %s)\n",
		        r->query,
		        heed_ranges_prefix_format(in, prefix, sizeof(prefix)),
		        heed_verify_reason_name(r->reason));
		return;
	}
	fprintf(f, "%s: not verified: %s", r->query,
	        heed_verify_reason_name(r->reason));
	if (r->step != HEED_VERIFY_STEP_NONE)
		fprintf(f, " (step %d, %s", r->step,
		        heed_verify_step_name(r->step));
	if (r->step != HEED_VERIFY_STEP_NONE && r->outcome != HEED_DNS_FOUND)
		fprintf(f, ": %s", heed_dns_outcome_name(r->outcome));
	if (r->step != HEED_VERIFY_STEP_NONE)
		fputs(")", f);
	if (run->ranges)
		fputs("; not in the published ranges", f);
	fputs("\n", f);
}

static void print_reverse(FILE *f, const struct heed_verify_result *r)
{
	size_t i;

	if (r->reverse_outcome != HEED_DNS_FOUND) {
		fprintf(f, "  step 1, reverse: %s: %s (%s)\n", r->reverse_name,
		        heed_dns_outcome_name(r->reverse_outcome),
		        r->reverse_detail);
		return;
	}
	for (i = 0; i < r->candidate_count; i++) {
		const struct heed_verify_candidate *c = &r->candidates[i];
		fprintf(f, "  step 1, reverse: %s domain name pointer %s",
		        r->reverse_name, c->name);
		if (!c->suffix)
			fputs(" (not under the operator's domains)\n", f);
		else if (!c->looked_up)
			fprintf(f,
			        " (under %s; not looked up: over %d names)\n",
			        c->suffix, HEED_VERIFY_MAX_FORWARD);
		else
			fprintf(f, " (under %s)\n", c->suffix);
	}
}

static void print_forward(FILE *f, const struct heed_verify_result *r,
                          const struct heed_verify_candidate *c)
{
	const char *owner;
	size_t i;

	for (i = 0; i < c->cname_count; i++)
		fprintf(f, "  step 2, forward: %s is an alias for %s\n",
		        i ? c->cnames[i - 1] : c->name, c->cnames[i]);
	if (c->outcome != HEED_DNS_FOUND) {
		fprintf(f, "  step 2, forward: %s: %s (%s)\n", c->name,
		        heed_dns_outcome_name(c->outcome), c->detail);
		return;
	}
	/* The records belong to the end of the CNAME chain, as host says. */
	owner = c->cname_count ? c->cnames[c->cname_count - 1] : c->name;
	for (i = 0; i < c->addr_count; i++) {
		const struct heed_dns_addr *a = &c->addrs[i];
		struct heed_verify_addr got;
		bool same = heed_verify_addr_parse(a->text, &got) == HEED_OK &&
		            got.family == r->addr.family &&
		            memcmp(got.bytes, r->addr.bytes, 16) == 0;
		fprintf(f,
		        "  step 2, forward: %s has %s address %s (ttl %u)%s\n",
		        owner, a->family == AF_INET6 ? "IPv6" : "IPv4", a->text,
		        (unsigned)a->ttl_s, same ? " = the address" : "");
	}
}

static void print_text(FILE *f, const struct verify_run *run,
                       const struct heed_verify_result *r)
{
	const struct heed_ranges_prefix *in = ranges_proof(run, r);
	size_t i;

	print_verdict(f, run, r, in);
	if (r->step == HEED_VERIFY_STEP_NONE)
		return;
	print_reverse(f, r);
	for (i = 0; i < r->candidate_count; i++)
		if (r->candidates[i].looked_up)
			print_forward(f, r, &r->candidates[i]);
	if (run->ranges && !in)
		fprintf(f, "  ranges: not in %s\n", run->ranges_file);
	if (r->from_cache)
		fputs("  (from the cache)\n", f);
}

/* ---- JSON -------------------------------------------------------------- */

static json_object *str_or_null(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

static json_object *forward_json(const struct heed_verify_candidate *c)
{
	json_object *o = json_object_new_object();
	json_object *list;
	size_t i;

	json_object_object_add(o, "name", json_object_new_string(c->name));
	json_object_object_add(o, "domain", str_or_null(c->suffix));
	json_object_object_add(o, "looked_up",
	                       json_object_new_boolean(c->looked_up));
	if (!c->looked_up)
		return o;
	json_object_object_add(
	        o, "outcome",
	        json_object_new_string(heed_dns_outcome_name(c->outcome)));
	list = json_object_new_array();
	for (i = 0; i < c->cname_count; i++)
		json_object_array_add(list,
		                      json_object_new_string(c->cnames[i]));
	json_object_object_add(o, "cnames", list);
	list = json_object_new_array();
	for (i = 0; i < c->addr_count; i++) {
		json_object *a = json_object_new_object();
		json_object_object_add(
		        a, "address", json_object_new_string(c->addrs[i].text));
		json_object_object_add(
		        a, "ttl", json_object_new_int64(c->addrs[i].ttl_s));
		json_object_array_add(list, a);
	}
	json_object_object_add(o, "addresses", list);
	json_object_object_add(o, "has_address",
	                       json_object_new_boolean(c->has_address));
	return o;
}

static json_object *dns_json(const struct heed_verify_result *r)
{
	json_object *o = json_object_new_object();
	json_object *names = json_object_new_array();
	size_t i;

	json_object_object_add(o, "verified",
	                       json_object_new_boolean(r->verified));
	json_object_object_add(
	        o, "reason",
	        json_object_new_string(heed_verify_reason_name(r->reason)));
	json_object_object_add(
	        o, "step",
	        json_object_new_string(heed_verify_step_name(r->step)));
	json_object_object_add(
	        o, "outcome",
	        json_object_new_string(heed_dns_outcome_name(r->outcome)));
	json_object_object_add(o, "verified_name",
	                       str_or_null(r->verified_name));
	json_object_object_add(o, "reverse_name",
	                       json_object_new_string(r->reverse_name));
	json_object_object_add(o, "reverse_outcome",
	                       json_object_new_string(heed_dns_outcome_name(
	                               r->reverse_outcome)));
	for (i = 0; i < r->candidate_count; i++)
		json_object_array_add(names, forward_json(&r->candidates[i]));
	json_object_object_add(o, "names", names);
	json_object_object_add(o, "cache_ttl",
	                       json_object_new_int64(r->cache_ttl_s));
	json_object_object_add(o, "from_cache",
	                       json_object_new_boolean(r->from_cache));
	return o;
}

static json_object *result_json(const struct verify_run *run,
                                const struct heed_verify_result *r)
{
	const struct heed_ranges_prefix *in = ranges_proof(run, r);
	json_object *o = json_object_new_object();
	json_object *ranges = NULL;
	char prefix[50];

	json_object_object_add(o, "address", json_object_new_string(r->query));
	json_object_object_add(o, "verified",
	                       json_object_new_boolean(r->verified || in));
	json_object_object_add(o, "reverse_dns", dns_json(r));
	if (run->ranges) {
		ranges = json_object_new_object();
		json_object_object_add(
		        ranges, "file",
		        json_object_new_string(run->ranges_file));
		json_object_object_add(ranges, "match",
		                       json_object_new_boolean(in != NULL));
		json_object_object_add(
		        ranges, "prefix",
		        in ? json_object_new_string(heed_ranges_prefix_format(
		                     in, prefix, sizeof(prefix)))
		           : NULL);
	}
	json_object_object_add(o, "ranges", ranges);
	return o;
}

/* ---- Running ----------------------------------------------------------- */

static void on_result(void *ud, const struct heed_verify_result *r)
{
	struct verify_slot *slot = ud;
	struct verify_run *run = slot->run;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	if (!r->verified && !ranges_proof(run, r))
		run->unverified++;
	if (run->json) {
		json_object *o = result_json(run, r);
		text = strdup(json_object_to_json_string_ext(
		        o, JSON_C_TO_STRING_PRETTY));
		json_object_put(o);
	} else if ((f = open_memstream(&text, &len))) {
		print_text(f, run, r);
		fclose(f);
	}
	if (!text)
		run->out_of_memory = 1;
	run->out[slot->index] = text;
}

static int64_t now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec;
}

/* Checks every address, VERIFY_BATCH at a time, then prints them in the
 * command line's order. */
static int verify_all(heed_verifier *v, struct verify_run *run, int count,
                      char **addrs)
{
	struct verify_slot *slots = calloc((size_t)count, sizeof(*slots));
	int i, done = 0;

	run->out = calloc((size_t)count, sizeof(*run->out));
	if (!slots || !run->out) {
		free(slots);
		heed_cli_error("out of memory");
		return HEED_EXIT_FAIL;
	}
	while (done < count) {
		for (i = done; i < count && i < done + VERIFY_BATCH; i++) {
			slots[i].run = run;
			slots[i].index = (size_t)i;
			heed_verifier_start(v, addrs[i], now_s(), on_result,
			                    &slots[i]);
		}
		heed_verifier_wait(v);
		done = i;
	}
	if (run->json)
		fputs("[\n", stdout);
	for (i = 0; i < count; i++) {
		if (run->out[i])
			fputs(run->out[i], stdout);
		if (run->json)
			fputs(i + 1 < count ? ",\n" : "\n", stdout);
		free(run->out[i]);
	}
	if (run->json)
		fputs("]\n", stdout);
	free(run->out);
	free(slots);
	if (run->out_of_memory) {
		heed_cli_error("out of memory");
		return HEED_EXIT_FAIL;
	}
	return run->unverified ? HEED_EXIT_FAIL : HEED_EXIT_OK;
}

/* Reads and parses the ranges file; prints why not. */
static int load_ranges(const char *path, heed_ranges **ranges)
{
	struct heed_diag diag = {0};
	char *data;
	size_t len;
	int truncated = 0;
	heed_status rc;

	rc = heed_cli_read_file(path, HEED_RANGES_MAX_BYTES + 1, &data, &len,
	                        &truncated);
	if (rc != HEED_OK) {
		heed_cli_error("%s: %s", path, strerror(errno));
		return HEED_EXIT_USAGE;
	}
	rc = heed_ranges_parse(ranges, data, len, NULL, &diag);
	free(data);
	if (rc != HEED_OK) {
		heed_cli_error("%s: %s", path,
		               rc == HEED_ENOMEM ? "out of memory"
		                                 : diag.message);
		return HEED_EXIT_USAGE;
	}
	return HEED_EXIT_OK;
}

struct verify_args {
	struct heed_cli_config cc;
	const char **domains; /* --domain values (argv strings) */
	size_t domain_count;
	const char *ranges_file;
	int json;
};

/* Parses the command line into a; returns an exit status to stop with,
 * or -1 to go on. */
static int parse_args(int argc, char **argv, struct verify_args *a)
{
	static const struct option longopts[] = {
	        {"domain", required_argument, NULL, 'd'},
	        {"ranges", required_argument, NULL, 'r'},
	        {"json", no_argument, NULL, 'j'},
	        {"help", no_argument, NULL, 'h'},
	        HEED_CLI_CONFIG_LONGOPTS,
	        {NULL, 0, NULL, 0},
	};
	int c, taken;

	while ((c = getopt_long(argc, argv, "d:r:s:jh", longopts, NULL)) !=
	       -1) {
		taken = heed_cli_config_option(&a->cc, c, optarg);
		if (taken < 0)
			return HEED_EXIT_USAGE;
		if (taken)
			continue;
		switch (c) {
		case 'd':
			/* argc bounds the --domain count. */
			a->domains[a->domain_count++] = optarg;
			break;
		case 'r':
			a->ranges_file = optarg;
			break;
		case 's':
			/* -s is the short form of the shared --dns-server. */
			if (heed_cli_config_option(&a->cc,
			                           HEED_CLI_OPT_DNS_SERVER,
			                           optarg) < 0)
				return HEED_EXIT_USAGE;
			break;
		case 'j':
			a->json = 1;
			break;
		case 'h':
			heed_cli_print_help(stdout, heed_cli_find("verify"));
			return HEED_EXIT_OK;
		default:
			return heed_cli_usage("verify", "unknown option");
		}
	}
	if (optind >= argc)
		return heed_cli_usage("verify", "IP address missing");
	return -1;
}

/* Builds the verifier from the arguments, falling back on the settings. */
static int make_verifier(const struct verify_args *a,
                         const struct heed_config *cfg, heed_verifier **v)
{
	struct heed_verify_options opt = {0};
	struct heed_diag diag = {0};
	heed_status rc;

	opt.domains = a->domains;
	opt.domain_count = a->domain_count;
	if (!a->domain_count) {
		opt.domains = (const char *const *)cfg->verify_domains.items;
		opt.domain_count = cfg->verify_domains.count;
	}
	if (!opt.domain_count)
		return heed_cli_usage("verify",
		                      "no domain to verify against: give "
		                      "--domain or set verify.domain");
	opt.dns.servers = cfg->net_dns_server;
	rc = heed_verifier_new(v, &opt, NULL, &diag);
	if (rc == HEED_ENOMEM) {
		heed_cli_error("out of memory");
		return HEED_EXIT_FAIL;
	}
	if (rc != HEED_OK) {
		heed_cli_error("%s", diag.message);
		return HEED_EXIT_USAGE;
	}
	return HEED_EXIT_OK;
}

int heed_cmd_verify(int argc, char **argv)
{
	struct verify_args a = {0};
	struct verify_run run = {0};
	struct heed_config cfg;
	heed_verifier *v = NULL;
	heed_ranges *ranges = NULL;
	int status;

	a.domains = calloc((size_t)argc, sizeof(*a.domains));
	if (!a.domains) {
		heed_cli_error("out of memory");
		return HEED_EXIT_FAIL;
	}
	memset(&cfg, 0, sizeof(cfg));
	status = parse_args(argc, argv, &a);
	if (status >= 0)
		goto out;
	if (!heed_cli_config_load(&a.cc, &cfg, "verify")) {
		status = HEED_EXIT_USAGE;
		goto out;
	}
	run.json = a.json;
	run.ranges_file =
	        a.ranges_file ? a.ranges_file : cfg.verify_ranges_file;
	if (run.ranges_file) {
		status = load_ranges(run.ranges_file, &ranges);
		if (status != HEED_EXIT_OK)
			goto out;
		run.ranges = ranges;
	}
	status = make_verifier(&a, &cfg, &v);
	if (status != HEED_EXIT_OK)
		goto out;
	status = verify_all(v, &run, argc - optind, argv + optind);
out:
	heed_verifier_free(v);
	heed_ranges_free(ranges);
	heed_config_free(&cfg);
	heed_cli_config_free(&a.cc);
	free(a.domains);
	return status;
}
