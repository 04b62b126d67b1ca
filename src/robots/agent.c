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

/* An agent is one block: this head, then its arrays and token. */
struct heed_robots_agent {
	const heed_robots *r;
	char *token;
	bool explicit;
	size_t *groups; /* indexes into r's groups, file order */
	size_t group_count;
	struct robots_rule *rules;            /* compiled, file order */
	const struct robots_rule **by_bucket; /* sorted, grouped by bucket */
	uint64_t *need; /* by_bucket[i]->need, kept dense for the scan */
	size_t rule_count;
	struct heed_arena arena;  /* literals of rules with "%2A"/"%24" */
	bool literal_star_dollar; /* a rule matches a literal '*' or '$' */
	/* Bucket b is by_bucket[start, end) of buckets[b]; an empty one is
	 * {0, 0}, as the block's head is zeroed. 32 bits are plenty: 500 KiB
	 * hold fewer rules. */
	struct {
		uint32_t start, end;
	} buckets[BUCKET_COUNT];
};

/* Whether group names token (token "" names nobody) or, when star, "*". */
static bool group_names(const heed_robots *r, const struct robots_group *g,
                        const char *token, size_t token_len, bool star)
{
	const char *const *agents = (const char *const *)r->agents.data;
	size_t i;

	if (star || token_len == 0)
		return star && g->star;
	for (i = 0; i < g->agent_count; i++)
		if (heed__ascii_ieq(token, token_len,
		                    agents[g->first_agent + i]))
			return true;
	return false;
}

/* Writes the indexes of the groups naming token (or, when star, "*") to
 * groups, file order; returns how many there are. */
static size_t find_groups(const heed_robots *r, const char *token,
                          size_t token_len, bool star, size_t *groups)
{
	size_t i, n = 0;

	for (i = 0; i < r->groups.len; i++)
		if (group_names(r, heed__robots_group(r, i), token, token_len,
		                star))
			groups[n++] = i;
	return n;
}

/* How many groups name token, and their rules; and the same for the "*"
 * groups: one pass for both, as most agents fall back to "*". */
struct group_counts {
	size_t named, named_rules, star, star_rules;
};

static struct group_counts count_groups(const heed_robots *r, const char *token,
                                        size_t token_len)
{
	struct group_counts c = {0, 0, 0, 0};
	size_t i;

	for (i = 0; i < r->groups.len; i++) {
		const struct robots_group *g = heed__robots_group(r, i);
		if (group_names(r, g, token, token_len, false)) {
			c.named++;
			c.named_rules += g->rule_count;
		}
		if (g->star) {
			c.star++;
			c.star_rules += g->rule_count;
		}
	}
	return c;
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

/* By bucket, then by priority within each. */
static int by_bucket_priority(const void *a, const void *b)
{
	unsigned x = (*(const struct robots_rule *const *)a)->bucket;
	unsigned y = (*(const struct robots_rule *const *)b)->bucket;

	return x != y ? (x < y ? -1 : 1) : by_priority(a, b);
}

/* Sorts n rules by bucket and priority: an insertion sort for the few
 * rules of most files (qsort's set-up costs more than their sort), qsort
 * beyond. */
static void sort_rules(const struct robots_rule **v, size_t n)
{
	size_t i, j;

	if (n > 16) {
		qsort(v, n, sizeof(*v), by_bucket_priority);
		return;
	}
	for (i = 1; i < n; i++) {
		const struct robots_rule *x = v[i];
		for (j = i; j > 0 && by_bucket_priority(&v[j - 1], &x) > 0; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

/* Whether a compiled rule has a literal '*' or '$': from "%2A" or "%24",
 * or a '$' before the pattern's end. */
static bool matches_star_dollar(const struct robots_rule *rule)
{
	return memchr(rule->lit, '$', rule->lit_len) ||
	       (rule->wild == ROBOTS_WILD &&
	        memchr(rule->lit, '*', rule->lit_len));
}

/* Compiles the rules of the agent's groups into agent->rules, sorts them
 * by bucket and priority into by_bucket and notes where each bucket is.
 * Returns HEED_OK or HEED_ENOMEM. */
static heed_status index_rules(heed_robots_agent *agent)
{
	const heed_robots *r = agent->r;
	const struct robots_rule **sorted = agent->by_bucket;
	size_t i, j, n = 0;

	for (i = 0; i < agent->group_count; i++) {
		const struct robots_group *g =
		        heed__robots_group(r, agent->groups[i]);
		for (j = 0; j < g->rule_count; j++, n++) {
			sorted[n] = &agent->rules[n];
			if (heed__robots_compile(
			            &agent->arena, &agent->rules[n],
			            heed__robots_rule(r, g->first_rule + j)) !=
			    HEED_OK)
				return HEED_ENOMEM;
			agent->rules[n].bucket =
			        (uint16_t)bucket_of(&agent->rules[n]);
			agent->literal_star_dollar |=
			        matches_star_dollar(&agent->rules[n]);
		}
	}
	sort_rules(sorted, n);
	for (i = 0; i < n; i++) {
		size_t b = sorted[i]->bucket;
		if (agent->buckets[b].end == 0)
			agent->buckets[b].start = (uint32_t)i;
		agent->buckets[b].end = (uint32_t)(i + 1);
		agent->need[i] = sorted[i]->need;
	}
	return HEED_OK;
}

/* Room for n objects of size after *at in a block, aligned for any of
 * them; returns their offset. */
static size_t take(size_t *at, size_t n, size_t size)
{
	size_t off = (*at + 15) & ~(size_t)15;

	*at = off + n * size;
	return off;
}

/* RFC 9309 2.2.1: the groups naming the product token, merged; failing
 * those, the "*" groups; failing those, none. Allocates the agent's block
 * for them and fills in everything but the rules. */
static heed_robots_agent *new_agent(const heed_robots *r, const char *name,
                                    size_t token_len)
{
	struct group_counts c = count_groups(r, name, token_len);
	bool explicit = c.named > 0;
	size_t count = explicit ? c.named : c.star;
	size_t rules = explicit ? c.named_rules : c.star_rules;
	size_t at = sizeof(heed_robots_agent);
	size_t groups_at, rules_at, bucket_at, need_at, token_at;
	heed_robots_agent *agent;
	char *block;

	groups_at = take(&at, count, sizeof(size_t));
	rules_at = take(&at, rules, sizeof(struct robots_rule));
	bucket_at = take(&at, rules, sizeof(struct robots_rule *));
	need_at = take(&at, rules, sizeof(uint64_t));
	token_at = take(&at, token_len + 1, 1);
	block = heed__malloc(r->alloc, at);
	if (!block)
		return NULL;
	agent = (heed_robots_agent *)(void *)block;
	memset(agent, 0, sizeof(*agent));
	agent->r = r;
	heed__arena_init(&agent->arena, r->alloc);
	agent->explicit = explicit;
	agent->groups = (size_t *)(void *)(block + groups_at);
	agent->group_count =
	        find_groups(r, name, token_len, !explicit, agent->groups);
	agent->rules = (struct robots_rule *)(void *)(block + rules_at);
	agent->by_bucket =
	        (const struct robots_rule **)(void *)(block + bucket_at);
	agent->need = (uint64_t *)(void *)(block + need_at);
	agent->rule_count = rules;
	agent->token = block + token_at;
	memcpy(agent->token, name, token_len);
	agent->token[token_len] = '\0';
	return agent;
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
	agent = new_agent(r, name ? name : "", token_len);
	if (!agent)
		return HEED_ENOMEM;
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
	heed__arena_free(&agent->arena);
	heed__free(a, agent); /* the block */
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
	size_t i, end = agent->buckets[bucket].end;
	const uint64_t *need = agent->need;

	for (i = agent->buckets[bucket].start; i < end; i++) {
		if (need[i] & ~mask)
			continue;
		if (heed__robots_rule_match(agent->by_bucket[i], path, path_len,
		                            mask))
			return agent->by_bucket[i];
	}
	return NULL;
}

static void decide(const heed_robots_agent *agent, const char *path,
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
	out->value = best->value;
	out->rule = best->pub;
}

/*
 * RFC 9309 2.2.3: a rule's "%2A" and "%24" are a literal '*' and '$', and
 * compile to those octets. A URL may carry them escaped too, and the
 * normal form keeps reserved escapes (RFC 3986 2.2), so the same escape in
 * a rule and a URL would differ: the path's "%2A" and "%24" are read as '*'
 * and '$' here. Only for an agent with such a rule and a path with a '%':
 * every other decision reads the path as it is.
 */
void heed_robots_decide_path(const heed_robots_agent *agent, const char *path,
                             size_t path_len, struct heed_robots_decision *out)
{
	char stack[STACK_PATH_BYTES];
	char *folded = stack;
	size_t len;

	if (!agent->literal_star_dollar || !memchr(path, '%', path_len)) {
		decide(agent, path, path_len, out);
		return;
	}
	/* Folding only shortens a normal path: path_len + 1 is room. */
	if (path_len >= sizeof(stack))
		folded = heed__malloc(agent->r->alloc, path_len + 1);
	if (!folded) {
		/* Out of memory: the path as it is, unfolded; only its "%2A"
		 * and "%24" then miss a rule's literal '*' and '$'. */
		decide(agent, path, path_len, out);
		return;
	}
	len = heed__pct_normalize(folded, path_len + 1, path, path_len,
	                          HEED_PCT_STAR_DOLLAR);
	/* A path that was not normal could grow: then it is read as it is. */
	if (len <= path_len)
		decide(agent, folded, len, out);
	else
		decide(agent, path, path_len, out);
	if (folded != stack)
		heed__free(agent->r->alloc, folded);
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
