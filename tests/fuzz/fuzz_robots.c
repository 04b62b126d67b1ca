/*
 * Fuzz target: the robots.txt parser, agents and matcher. The input is both
 * the file and, line by line, the URLs checked against it; every accessor
 * runs, and the invariants are asserted: a decision's rule belongs to the
 * agent and says what the decision says, the normalised path decides as
 * the URL did, normalising twice changes nothing, and the compiled matcher
 * agrees with the text matcher.
 */
#include <stdlib.h>
#include <string.h>

#include "common/common-int.h"
#include "heed/robots.h"

static void check_url(const heed_robots_agent *a, const char *u, size_t n)
{
	struct heed_robots_decision d, again_d;
	char norm[256], again[256];
	size_t len = heed_robots_normalize(norm, sizeof(norm), u, n);

	if (heed_robots_decide(a, u, n, &d) != HEED_OK)
		abort();
	if (d.matched &&
	    (!d.rule || d.allowed != (d.kind == HEED_ROBOTS_ALLOW) ||
	     d.line != d.rule->line))
		abort();
	if (d.matched && len < sizeof(norm) &&
	    !heed_robots_pattern_match(d.rule->pattern, d.rule->pattern_len,
	                               norm, len))
		abort();
	if (len >= sizeof(norm))
		return;
	/* The path decides as the URL did, and normalising it again (as a
	 * path: "//x" is a path here, not an authority) changes nothing. */
	heed_robots_decide_path(a, norm, len, &again_d);
	if (again_d.allowed != d.allowed || again_d.line != d.line)
		abort();
	if (heed__pct_normalize(again, sizeof(again), norm, len, 0) != len ||
	    memcmp(norm, again, len) != 0)
		abort();
}

static void visit(const heed_robots *r)
{
	size_t g, i;

	for (i = 0; i < heed_robots_diag_count(r); i++)
		if (!heed_robots_diag_get(r, i)->message ||
		    !*heed_robots_diag_code_name(
		            heed_robots_diag_get(r, i)->code))
			abort();
	for (i = 0; i < heed_robots_sitemap_count(r); i++)
		if (heed_robots_sitemap_get(r, i)
		            ->url[heed_robots_sitemap_get(r, i)->url_len] !=
		    '\0')
			abort();
	for (i = 0; i < heed_robots_field_count(r); i++)
		if (heed_robots_field_get(r, i)->group !=
		            HEED_ROBOTS_NO_GROUP &&
		    heed_robots_field_get(r, i)->group >=
		            heed_robots_group_count(r))
			abort();
	for (g = 0; g < heed_robots_group_count(r); g++) {
		heed_robots_group_crawl_delay(r, g, NULL, NULL);
		for (i = 0; i < heed_robots_group_agent_count(r, g); i++)
			if (!heed_robots_group_agent(r, g, i))
				abort();
		for (i = 0; i < heed_robots_group_rule_count(r, g); i++)
			if (heed_robots_group_rule(r, g, i)->line <
			    heed_robots_group_line(r, g))
				abort();
	}
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	const char *text = (const char *)data, *line, *end = text + size;
	heed_robots *r = NULL;
	heed_robots_agent *a = NULL;
	size_t i;

	/* lint: the checks only `heed robots lint` runs are parsers too. */
	static const struct heed_robots_parse_options opts = {.lint = true};

	if (heed_robots_parse(&r, NULL, text, size, &opts) != HEED_OK)
		abort();
	visit(r);
	if (heed_robots_agent_new(&a, r, text, size < 16 ? size : 16) !=
	    HEED_OK)
		abort();
	heed_robots_agent_explicit(a);
	heed_robots_agent_crawl_delay(a, NULL, NULL);
	for (i = 0; i < heed_robots_agent_group_count(a); i++)
		if (heed_robots_agent_group(a, i) >= heed_robots_group_count(r))
			abort();
	for (i = 0; i < heed_robots_agent_rule_count(a); i++)
		if (!heed_robots_agent_rule(a, i)->pattern)
			abort();
	for (line = text; line < end && line < text + 65536;) {
		const char *nl = memchr(line, '\n', (size_t)(end - line));
		size_t n = (size_t)((nl ? nl : end) - line);
		check_url(a, line, n < 512 ? n : 512);
		line += n + 1;
	}
	heed_robots_agent_free(a);
	heed_robots_free(r);
	return 0;
}
