/*
 * The conventional records of the same robots.txt file, as ACAP 2.10
 * interprets them alongside ACAP records. The robots module parses and
 * resolves them (RFC 9309); this file is the one place where ACAP touches
 * its API, so a change there touches only this file.
 *
 * What ACAP adds to RFC 9309 is 2.10.2: "Conventional fields found within
 * ACAP records are always to be ignored". An RFC 9309 parser files an Allow
 * or Disallow line that follows ACAP-crawler under the last User-agent
 * group, so the ACAP parser notes the lines of those fields and they are
 * dropped here.
 */
#include "acap/acap-int.h"

heed_status heed__acap_conv_parse(struct heed_acap *r, const char *data,
                                  size_t len)
{
	return heed_robots_parse(&r->robots, r->alloc, data, len, NULL);
}

heed_status heed__acap_conv_ignore_line(struct heed_acap *r, unsigned line)
{
	unsigned *slot;

	if (heed__acap_vec_push(r->alloc, &r->conv_ignored, sizeof(*slot),
	                        (void **)&slot))
		return HEED_ENOMEM;
	*slot = line;
	return HEED_OK;
}

/* conv_ignored is in line order: the parser notes lines as it reads. */
static bool ignored(const struct heed_acap *r, unsigned line)
{
	const unsigned *v = r->conv_ignored.items;
	size_t lo = 0, hi = r->conv_ignored.n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid] == line)
			return true;
		if (v[mid] < line)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

heed_status heed__acap_conv_open(const struct heed_acap *r, const char *crawler,
                                 struct acap_conv *out)
{
	size_t n;
	heed_status rc;

	memset(out, 0, sizeof(*out));
	if (!r->robots)
		return HEED_OK;
	rc = heed_robots_agent_new(&out->agent, r->robots, crawler,
	                           strlen(crawler));
	if (rc != HEED_OK)
		return rc;
	out->named = heed_robots_agent_explicit(out->agent);
	n = heed_robots_agent_rule_count(out->agent);
	out->rules = heed__calloc(r->alloc, n ? n : 1, sizeof(*out->rules));
	out->skip = heed__calloc(r->alloc, n ? n : 1, sizeof(*out->skip));
	if (!out->rules || !out->skip) {
		heed__acap_conv_close(r, out);
		return HEED_ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		const struct heed_robots_rule *rule =
		        heed_robots_agent_rule(out->agent, i);
		if (!ignored(r, rule->line))
			out->rules[out->n++] = rule;
	}
	return HEED_OK;
}

void heed__acap_conv_close(const struct heed_acap *r, struct acap_conv *c)
{
	heed__free(r->alloc, c->rules);
	heed__free(r->alloc, c->skip);
	heed_robots_agent_free(c->agent);
	memset(c, 0, sizeof(*c));
}

bool heed__acap_conv_matches(const struct acap_conv *c, size_t i,
                             const char *path)
{
	const struct heed_robots_rule *rule = c->rules[i];

	return heed_robots_pattern_match(rule->pattern, rule->pattern_len, path,
	                                 strlen(path));
}

long heed__acap_conv_decide(const struct acap_conv *c, const char *path)
{
	long best = -1;

	/* RFC 9309 2.2.2: the most specific match (most octets) wins; on a
	 * tie, allow wins. */
	for (size_t i = 0; i < c->n; i++) {
		const struct heed_robots_rule *rule = c->rules[i];
		const struct heed_robots_rule *b =
		        best >= 0 ? c->rules[best] : NULL;

		if (c->skip[i] || !heed__acap_conv_matches(c, i, path))
			continue;
		if (!b || rule->pattern_len > b->pattern_len ||
		    (rule->pattern_len == b->pattern_len &&
		     rule->kind == HEED_ROBOTS_ALLOW &&
		     b->kind != HEED_ROBOTS_ALLOW))
			best = (long)i;
	}
	return best;
}
