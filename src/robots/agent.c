/*
 * Agents and decisions (RFC 9309 2.2.1, 2.2.2), and the result accessors.
 *
 * An agent is resolved once: the groups naming its product token (compared
 * case-insensitively) are merged, or else the "*" groups are. Their rules
 * are compiled for matching here, into the agent, not at parse time: a file
 * has many groups and a crawler uses one or two, and the parse stays
 * immutable, so agents resolved on several threads never share a write.
 * The rules are then sorted by specificity (most octets first, allow before
 * disallow on a tie, as 2.2.2 says) so that the first rule that matches
 * decides, and bucketed by the octet after the leading '/' so that a check only
 * looks at rules that can match: a 5,000-rule file costs a few dozen
 * comparisons per URL. Deciding never allocates (unless the URL's path is over
 * 4 KiB).
 */
#include <stdlib.h>

#include "robots/robots-int.h"

/* Paths up to this long are normalised on the stack. */
#define STACK_PATH_BYTES 4096

/* Bucket of rules whose first literal is shorter than 2 octets (patterns
 * "/", "*x", or "/" then a wildcard): they are tried for every path. */
#define BUCKET_ANY   256
#define BUCKET_COUNT 257

struct heed_robots_agent {
	const heed_robots *r;
	char *token;
	bool explicit;
	size_t *groups; /* indexes into r's groups, file order */
	size_t group_count;
	struct robots_rule *rules;            /* compiled, file order */
	const struct robots_rule **by_bucket; /* sorted, grouped by bucket */
	struct heed_arena arena; /* literals of rules with "%2A"/"%24" */
	uint64_t *need; /* by_bucket[i]->need, kept dense for the scan */
	size_t rule_count;
	size_t bucket_start[BUCKET_COUNT + 1];
};

/* Whether group names token (token "" names nobody) or, when star, "*". */
static bool group_names(const heed_robots *r, const struct robots_group *g,
                        const char *token, size_t token_len, bool star)
{
	const char *const *agents = (const char *const *)r->agents.data;
	size_t i;

	for (i = 0; i < g->agent_count; i++) {
		const char *a = agents[g->first_agent + i];
		if (star ? strcmp(a, "*") == 0
		         : token_len > 0 &&
		                    heed__ascii_ieq(token, token_len, a))
			return true;
	}
	return false;
}

/* Appends to agent->groups every group naming the agent (or "*"). */
static void collect_groups(heed_robots_agent *agent, size_t token_len,
                           bool star)
{
	const heed_robots *r = agent->r;
	size_t i;

	for (i = 0; i < r->groups.len; i++)
		if (group_names(r, heed__robots_group(r, i), agent->token,
		                token_len, star))
			agent->groups[agent->group_count++] = i;
}

/* RFC 9309 2.2.1: the groups naming the product token, merged; failing
 * those, the "*" groups; failing those, none. */
static heed_status resolve_groups(heed_robots_agent *agent, size_t token_len)
{
	agent->groups = heed__calloc(agent->r->alloc, agent->r->groups.len + 1,
	                             sizeof(*agent->groups));
	if (!agent->groups)
		return HEED_ENOMEM;
	collect_groups(agent, token_len, false);
	agent->explicit = agent->group_count > 0;
	if (!agent->explicit)
		collect_groups(agent, token_len, true);
	return HEED_OK;
}

static size_t bucket_of(const struct robots_rule *rule)
{
	return rule->first_len >= 2 ? (unsigned char)rule->lit[1] : BUCKET_ANY;
}

/* Most octets first; allow before disallow; then file order. */
static int by_priority(const void *a, const void *b)
{
	const struct robots_rule *x = *(const struct robots_rule *const *)a;
	const struct robots_rule *y = *(const struct robots_rule *const *)b;

	if (x->octets != y->octets)
		return x->octets > y->octets ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind == HEED_ROBOTS_ALLOW ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

static heed_status index_rules(heed_robots_agent *agent)
{
	const heed_robots *r = agent->r;
	size_t i, j, n = 0, fill[BUCKET_COUNT];
	const struct robots_rule **sorted;

	for (i = 0; i < agent->group_count; i++)
		n += heed__robots_group(r, agent->groups[i])->rule_count;
	agent->rules = heed__calloc(r->alloc, n + 1, sizeof(*agent->rules));
	agent->by_bucket = heed__calloc(r->alloc, n + 1, sizeof(*sorted));
	agent->need = heed__calloc(r->alloc, n + 1, sizeof(*agent->need));
	sorted = heed__calloc(r->alloc, n + 1, sizeof(*sorted));
	if (!agent->rules || !agent->by_bucket || !agent->need || !sorted) {
		heed__free(r->alloc, sorted);
		return HEED_ENOMEM;
	}
	for (i = 0; i < agent->group_count; i++) {
		const struct robots_group *g =
		        heed__robots_group(r, agent->groups[i]);
		for (j = 0; j < g->rule_count; j++) {
			struct robots_rule *rule =
			        &agent->rules[agent->rule_count++];
			sorted[agent->rule_count - 1] = rule;
			if (heed__robots_compile(
			            &agent->arena, rule,
			            heed__robots_rule(r, g->first_rule + j)) !=
			    HEED_OK) {
				heed__free(r->alloc, sorted);
				return HEED_ENOMEM;
			}
		}
	}
	qsort(sorted, n, sizeof(*sorted), by_priority);
	/* A counting sort by bucket keeps the priority order in each. */
	memset(agent->bucket_start, 0, sizeof(agent->bucket_start));
	for (i = 0; i < n; i++)
		agent->bucket_start[bucket_of(sorted[i]) + 1]++;
	for (i = 0; i < BUCKET_COUNT; i++) {
		agent->bucket_start[i + 1] += agent->bucket_start[i];
		fill[i] = agent->bucket_start[i];
	}
	for (i = 0; i < n; i++) {
		size_t at = fill[bucket_of(sorted[i])]++;
		agent->by_bucket[at] = sorted[i];
		agent->need[at] = sorted[i]->need;
	}
	heed__free(r->alloc, sorted);
	return HEED_OK;
}

heed_status heed_robots_agent_new(heed_robots_agent **out, const heed_robots *r,
                                  const char *name, size_t name_len)
{
	heed_robots_agent *agent;
	size_t token_len = 0;
	heed_status rc;

	if (!out)
		return HEED_EINVAL;
	*out = NULL;
	if (!r || (!name && name_len > 0))
		return HEED_EINVAL;
	while (token_len < name_len &&
	       heed__robots_token_octet(name[token_len]))
		token_len++;
	agent = heed__calloc(r->alloc, 1, sizeof(*agent));
	if (!agent)
		return HEED_ENOMEM;
	agent->r = r;
	heed__arena_init(&agent->arena, r->alloc);
	agent->token = heed__strndup(r->alloc, name ? name : "", token_len);
	rc = agent->token ? resolve_groups(agent, token_len) : HEED_ENOMEM;
	if (rc == HEED_OK)
		rc = index_rules(agent);
	if (rc != HEED_OK) {
		heed_robots_agent_free(agent);
		return rc;
	}
	*out = agent;
	return HEED_OK;
}

void heed_robots_agent_free(heed_robots_agent *agent)
{
	const struct heed_allocator *a;

	if (!agent)
		return;
	a = agent->r->alloc;
	heed__free(a, agent->token);
	heed__free(a, agent->groups);
	heed__free(a, agent->rules);
	heed__free(a, agent->by_bucket);
	heed__free(a, agent->need);
	heed__arena_free(&agent->arena);
	heed__free(a, agent);
}

const char *heed_robots_agent_token(const heed_robots_agent *agent)
{
	return agent->token;
}

bool heed_robots_agent_explicit(const heed_robots_agent *agent)
{
	return agent->explicit;
}

size_t heed_robots_agent_group_count(const heed_robots_agent *agent)
{
	return agent->group_count;
}

size_t heed_robots_agent_group(const heed_robots_agent *agent, size_t i)
{
	return i < agent->group_count ? agent->groups[i] : HEED_ROBOTS_NO_GROUP;
}

size_t heed_robots_agent_rule_count(const heed_robots_agent *agent)
{
	return agent->rule_count;
}

const struct heed_robots_rule *
heed_robots_agent_rule(const heed_robots_agent *agent, size_t i)
{
	return i < agent->rule_count ? agent->rules[i].pub : NULL;
}

bool heed_robots_agent_crawl_delay(const heed_robots_agent *agent,
                                   uint32_t *delay_ms, unsigned *line)
{
	const struct robots_group *best = NULL;
	size_t i;

	for (i = 0; i < agent->group_count; i++) {
		const struct robots_group *g =
		        heed__robots_group(agent->r, agent->groups[i]);
		if (g->has_delay && (!best || g->delay_ms > best->delay_ms))
			best = g;
	}
	if (!best)
		return false;
	if (delay_ms)
		*delay_ms = best->delay_ms;
	if (line)
		*line = best->delay_line;
	return true;
}

/* The first rule of a bucket that matches: the bucket's best. Most rules
 * need an octet the path lacks: the dense mask array turns those away
 * without touching the rule. */
static const struct robots_rule *first_match(const heed_robots_agent *agent,
                                             size_t bucket, const char *path,
                                             size_t path_len, uint64_t mask)
{
	size_t i;

	for (i = agent->bucket_start[bucket];
	     i < agent->bucket_start[bucket + 1]; i++) {
		if (agent->need[i] & ~mask)
			continue;
		if (heed__robots_rule_match(agent->by_bucket[i], path, path_len,
		                            mask))
			return agent->by_bucket[i];
	}
	return NULL;
}

void heed_robots_decide_path(const heed_robots_agent *agent, const char *path,
                             size_t path_len, struct heed_robots_decision *out)
{
	const struct robots_rule *any, *best = NULL;
	uint64_t mask;

	memset(out, 0, sizeof(*out));
	out->allowed = true;
	/* 2.2.2: "The /robots.txt URI is implicitly allowed." */
	if (path_len == 11 && memcmp(path, "/robots.txt", 11) == 0) {
		out->implicit = true;
		return;
	}
	mask = heed__robots_octet_mask(path, path_len);
	if (path_len >= 2)
		best = first_match(agent, (unsigned char)path[1], path,
		                   path_len, mask);
	any = first_match(agent, BUCKET_ANY, path, path_len, mask);
	if (!best || (any && by_priority(&any, &best) < 0))
		best = any;
	if (!best)
		return;
	out->matched = true;
	out->allowed = best->kind == HEED_ROBOTS_ALLOW;
	out->line = best->line;
	out->kind = best->kind;
	out->value = best->pub->value;
	out->rule = best->pub;
}

heed_status heed_robots_decide(const heed_robots_agent *agent, const char *url,
                               size_t url_len, struct heed_robots_decision *out)
{
	char stack[STACK_PATH_BYTES];
	char *path = stack;
	size_t len;

	if (!agent || !out || (!url && url_len > 0))
		return HEED_EINVAL;
	len = heed_robots_normalize(stack, sizeof(stack), url, url_len);
	if (len >= sizeof(stack)) {
		path = heed__malloc(agent->r->alloc, len + 1);
		if (!path)
			return HEED_ENOMEM;
		heed_robots_normalize(path, len + 1, url, url_len);
	}
	heed_robots_decide_path(agent, path, len, out);
	if (path != stack)
		heed__free(agent->r->alloc, path);
	return HEED_OK;
}

/* Accessors of the parse result. */

size_t heed_robots_diag_count(const heed_robots *r)
{
	return r->diags.len;
}

const struct heed_robots_diagnostic *heed_robots_diag_get(const heed_robots *r,
                                                          size_t i)
{
	return i < r->diags.len
	               ? (const struct heed_robots_diagnostic *)r->diags.data +
	                         i
	               : NULL;
}

size_t heed_robots_diag_total(const heed_robots *r)
{
	return r->diag_total;
}

size_t heed_robots_parsed_bytes(const heed_robots *r)
{
	return r->parsed_bytes;
}

bool heed_robots_truncated(const heed_robots *r)
{
	return r->truncated;
}

size_t heed_robots_sitemap_count(const heed_robots *r)
{
	return r->sitemaps.len;
}

const struct heed_robots_sitemap *heed_robots_sitemap_get(const heed_robots *r,
                                                          size_t i)
{
	return i < r->sitemaps.len
	               ? (const struct heed_robots_sitemap *)r->sitemaps.data +
	                         i
	               : NULL;
}

size_t heed_robots_field_count(const heed_robots *r)
{
	return r->fields.len;
}

const struct heed_robots_field *heed_robots_field_get(const heed_robots *r,
                                                      size_t i)
{
	return i < r->fields.len
	               ? (const struct heed_robots_field *)r->fields.data + i
	               : NULL;
}

size_t heed_robots_group_count(const heed_robots *r)
{
	return r->groups.len;
}

unsigned heed_robots_group_line(const heed_robots *r, size_t group)
{
	const struct robots_group *g = heed__robots_group(r, group);

	return g ? g->line : 0;
}

size_t heed_robots_group_agent_count(const heed_robots *r, size_t group)
{
	const struct robots_group *g = heed__robots_group(r, group);

	return g ? g->agent_count : 0;
}

const char *heed_robots_group_agent(const heed_robots *r, size_t group,
                                    size_t i)
{
	const struct robots_group *g = heed__robots_group(r, group);

	if (!g || i >= g->agent_count)
		return NULL;
	return ((const char *const *)r->agents.data)[g->first_agent + i];
}

size_t heed_robots_group_rule_count(const heed_robots *r, size_t group)
{
	const struct robots_group *g = heed__robots_group(r, group);

	return g ? g->rule_count : 0;
}

const struct heed_robots_rule *heed_robots_group_rule(const heed_robots *r,
                                                      size_t group, size_t i)
{
	const struct robots_group *g = heed__robots_group(r, group);

	if (!g || i >= g->rule_count)
		return NULL;
	return heed__robots_rule(r, g->first_rule + i);
}

bool heed_robots_group_crawl_delay(const heed_robots *r, size_t group,
                                   uint32_t *delay_ms, unsigned *line)
{
	const struct robots_group *g = heed__robots_group(r, group);

	if (!g || !g->has_delay)
		return false;
	if (delay_ms)
		*delay_ms = g->delay_ms;
	if (line)
		*line = g->delay_line;
	return true;
}
