/*
 * The conventional records of the same robots.txt file, as ACAP 2.10
 * interprets them alongside ACAP records: User-agent groups with Allow and
 * Disallow rules (RFC 9309 2.2), selected and matched as RFC 9309 says.
 *
 * This is the one place where ACAP touches conventional rules, so it can be
 * pointed at the robots module's parser without touching the evaluator.
 * What it adds to RFC 9309 is 2.10.2: "Conventional fields found within
 * ACAP records are always to be ignored", so the caller tells it which lines
 * lie inside an ACAP record.
 */
#include "acap/acap-int.h"

static heed_status push_str(struct heed_acap *r, struct acap_vec *v,
                            const char *s, size_t n)
{
	const char **slot;
	char *copy = heed__arena_strndup(&r->arena, s, n);

	if (!copy ||
	    heed__acap_vec_push(r->alloc, v, sizeof(*slot), (void **)&slot))
		return HEED_ENOMEM;
	*slot = copy;
	return HEED_OK;
}

static heed_status on_agent(struct heed_acap *r, struct acap_conv_state *s,
                            const struct heed_robots_line *ln)
{
	struct acap_conv_group *g;

	if (s->group < 0 || !s->in_agents) {
		if (heed__acap_vec_push(r->alloc, &r->conv_groups, sizeof(*g),
		                        (void **)&g))
			return HEED_ENOMEM;
		g->first_agent = r->conv_agents.n;
		g->first_rule = r->conv_rules.n;
		s->group = (long)r->conv_groups.n - 1;
	}
	g = ACAP_VEC_AT(&r->conv_groups, struct acap_conv_group, s->group);
	s->in_agents = true;
	if (push_str(r, &r->conv_agents, ln->value, ln->value_len))
		return HEED_ENOMEM;
	g->nagents++;
	return HEED_OK;
}

heed_status heed__acap_conv_line(struct heed_acap *r, struct acap_conv_state *s,
                                 const struct heed_robots_line *ln,
                                 bool in_acap_record)
{
	struct acap_conv_group *g;
	struct acap_conv_rule *rule;
	bool allow = heed__ascii_ieq(ln->name, ln->name_len, "allow");

	if (heed__ascii_ieq(ln->name, ln->name_len, "user-agent"))
		return on_agent(r, s, ln);
	if (!allow && !heed__ascii_ieq(ln->name, ln->name_len, "disallow"))
		return HEED_OK;
	s->in_agents = false;
	/* RFC 9309 2.2.2: an empty rule matches nothing. */
	if (in_acap_record || s->group < 0 || ln->value_len == 0)
		return HEED_OK;
	g = ACAP_VEC_AT(&r->conv_groups, struct acap_conv_group, s->group);
	if (heed__acap_vec_push(r->alloc, &r->conv_rules, sizeof(*rule),
	                        (void **)&rule))
		return HEED_ENOMEM;
	rule->allow = allow;
	rule->line = ln->number;
	rule->pattern =
	        heed__arena_strndup(&r->arena, ln->value, ln->value_len);
	if (!rule->pattern)
		return HEED_ENOMEM;
	g->nrules++;
	return HEED_OK;
}

static bool token_char(char c)
{
	c = heed__ascii_lower(c);
	return (c >= 'a' && c <= 'z') || c == '_' || c == '-';
}

bool heed__acap_agent_matches(const char *agent, const char *crawler)
{
	size_t a = 0, c = 0;

	while (agent[a] && token_char(agent[a]))
		a++;
	while (crawler[c] && token_char(crawler[c]))
		c++;
	return a > 0 && a == c && heed__ascii_ieq(agent, a, crawler) &&
	       c == strlen(crawler);
}

/* Appends the rules of groups naming crawler (or "*" when star). */
static size_t collect(const struct heed_acap *r, const char *crawler, bool star,
                      size_t *idx)
{
	size_t n = 0;

	for (size_t g = 0; g < r->conv_groups.n; g++) {
		const struct acap_conv_group *grp =
		        ACAP_VEC_AT(&r->conv_groups, struct acap_conv_group, g);
		bool hit = false;

		for (size_t a = 0; a < grp->nagents && !hit; a++) {
			const char *agent =
			        *ACAP_VEC_AT(&r->conv_agents, const char *,
			                     grp->first_agent + a);
			hit = star ? strcmp(agent, "*") == 0
			           : heed__acap_agent_matches(agent, crawler);
		}
		for (size_t k = 0; hit && k < grp->nrules; k++)
			idx[n++] = grp->first_rule + k;
	}
	return n;
}

size_t heed__acap_conv_rules_for(const struct heed_acap *r, const char *crawler,
                                 size_t *idx, bool *named)
{
	size_t n = collect(r, crawler, false, idx);
	bool any_named = false;

	/* RFC 9309 2.2.1: a group naming the crawler, even without rules,
	 * means the "*" groups do not apply. */
	for (size_t g = 0; g < r->conv_groups.n && !any_named; g++) {
		const struct acap_conv_group *grp =
		        ACAP_VEC_AT(&r->conv_groups, struct acap_conv_group, g);
		for (size_t a = 0; a < grp->nagents && !any_named; a++)
			any_named = heed__acap_agent_matches(
			        *ACAP_VEC_AT(&r->conv_agents, const char *,
			                     grp->first_agent + a),
			        crawler);
	}
	*named = any_named;
	return any_named ? n : collect(r, crawler, true, idx);
}

long heed__acap_conv_decide(const struct heed_acap *r, const size_t *idx,
                            const bool *skip, size_t n, const char *path)
{
	long best = -1;
	size_t best_len = 0;

	/* RFC 9309 2.2.2: the most specific match (most octets) wins; on a
	 * tie, allow wins. */
	for (size_t k = 0; k < n; k++) {
		const struct acap_conv_rule *rule = ACAP_VEC_AT(
		        &r->conv_rules, struct acap_conv_rule, idx[k]);
		size_t len = strlen(rule->pattern);

		if (skip[k] || !heed__acap_match(rule->pattern, path, false))
			continue;
		if (best < 0 || len > best_len ||
		    (len == best_len && rule->allow &&
		     !ACAP_VEC_AT(&r->conv_rules, struct acap_conv_rule,
		                  idx[best])
		              ->allow)) {
			best = (long)k;
			best_len = len;
		}
	}
	return best;
}
