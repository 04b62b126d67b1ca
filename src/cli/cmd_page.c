/*
 * `heed page [--format html|markdown] [--output FILE]`: writes the
 * operator's crawler page (seeds/crawler-operator-page.md) from the
 * settings, for the operator to publish at identity.contact_url. The serve
 * module will publish the same rendering at /bots. Warns on stderr about
 * settings a site administrator would miss: a contact and a verification
 * domain.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_config.h"
#include "heed/verify.h"

static int parse_format(const char *s, heed_verify_page_format *format)
{
	if (strcmp(s, "html") == 0) {
		*format = HEED_VERIFY_PAGE_HTML;
		return 0;
	}
	if (strcmp(s, "markdown") == 0 || strcmp(s, "md") == 0) {
		*format = HEED_VERIFY_PAGE_MARKDOWN;
		return 0;
	}
	return -1;
}

static void warn_missing(const struct heed_config *cfg)
{
	if (heed_config_lacks_contact(cfg))
		heed_cli_error("warning: no contact set (identity.contact_url, "
		               "identity.contact_email): the page cannot say "
		               "how to reach you");
	if (cfg->verify_domains.count == 0)
		heed_cli_error("warning: verify.domain is not set: the page "
		               "cannot say how to verify your crawler");
}

/* Writes len bytes of page to path ("-" or NULL: standard output). */
static int write_page(const char *path, const char *page, size_t len)
{
	FILE *f = stdout;

	if (path && strcmp(path, "-") != 0) {
		f = fopen(path, "wb");
		if (!f) {
			heed_cli_error("%s: %s", path, strerror(errno));
			return HEED_EXIT_FAIL;
		}
	}
	if (fwrite(page, 1, len, f) != len || fflush(f) != 0 ||
	    (f != stdout && fclose(f) != 0)) {
		heed_cli_error("%s: %s", path ? path : "standard output",
		               strerror(errno));
		if (f != stdout)
			fclose(f);
		return HEED_EXIT_FAIL;
	}
	return HEED_EXIT_OK;
}

struct page_args {
	struct heed_cli_config cc;
	heed_verify_page_format format;
	const char *output;
};

/* Parses the command line into a; returns an exit status to stop with,
 * or -1 to go on. */
static int parse_args(int argc, char **argv, struct page_args *a)
{
	static const struct option longopts[] = {
	        {"format", required_argument, NULL, 'f'},
	        {"output", required_argument, NULL, 'o'},
	        {"help", no_argument, NULL, 'h'},
	        HEED_CLI_CONFIG_LONGOPTS,
	        {NULL, 0, NULL, 0},
	};
	int c, taken;

	while ((c = getopt_long(argc, argv, "f:o:h", longopts, NULL)) != -1) {
		taken = heed_cli_config_option(&a->cc, c, optarg);
		if (taken < 0)
			return HEED_EXIT_USAGE;
		if (taken)
			continue;
		switch (c) {
		case 'f':
			if (parse_format(optarg, &a->format) != 0)
				return heed_cli_usage("page",
				                      "--format is html or "
				                      "markdown, not '%s'",
				                      optarg);
			break;
		case 'o':
			a->output = optarg;
			break;
		case 'h':
			heed_cli_print_help(stdout, heed_cli_find("page"));
			return HEED_EXIT_OK;
		default:
			return heed_cli_usage("page", "unknown option");
		}
	}
	if (optind < argc)
		return heed_cli_usage("page", "unexpected argument '%s'",
		                      argv[optind]);
	return -1;
}

int heed_cmd_page(int argc, char **argv)
{
	struct page_args a = {0};
	struct heed_config cfg;
	char *page = NULL;
	size_t len = 0;
	int status;

	memset(&cfg, 0, sizeof(cfg));
	a.format = HEED_VERIFY_PAGE_HTML;
	status = parse_args(argc, argv, &a);
	if (status >= 0)
		goto out;
	if (!heed_cli_config_load(&a.cc, &cfg, "page")) {
		status = HEED_EXIT_USAGE;
		goto out;
	}
	if (heed_verify_page_render(&cfg, a.format, NULL, &page, &len) !=
	    HEED_OK) {
		heed_cli_error("cannot render the page: out of memory, or a "
		               "setting is too long");
		status = HEED_EXIT_FAIL;
		goto out;
	}
	warn_missing(&cfg);
	status = write_page(a.output, page, len);
out:
	free(page);
	heed_config_free(&cfg);
	heed_cli_config_free(&a.cc);
	return status;
}
