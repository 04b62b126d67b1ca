/*
 * Internals of the robots module, shared by parse.c (records to groups),
 * match.c (patterns and paths) and agent.c (resolution and decisions).
 * Never included outside src/robots/.
 */
#ifndef HEED_ROBOTS_INT_H
#define HEED_ROBOTS_INT_H

#include "common/common-int.h"
#include "heed/robots.h"

/* In a compiled pattern, the octet that stands for '*'. Normalised paths
 * never hold it: heed__pct_normalize encodes every control octet. */
#define ROBOTS_WILD '\x01'

/*
 * A rule as the matcher wants it. pub comes first so that a pointer to it is
 * the public view. lit is the pattern with "%2A"/"%24" decoded to literal
 * octets, runs of '*' folded into one ROBOTS_WILD and a final '$' removed
 * (anchored says it was there).
 */
struct robots_rule {
	struct heed_robots_rule pub;
	const char *lit;
	size_t lit_len;
	size_t first_len; /* octets before the first ROBOTS_WILD */
	bool anchored;
	bool empty; /* "Disallow:" with no value: never matches */
};

struct robots_group {
	unsigned line;
	size_t first_agent, agent_count; /* range of heed_robots.agents */
	size_t first_rule, rule_count;   /* range of heed_robots.rules */
	bool has_delay;
	uint32_t delay_ms;
	unsigned delay_line;
};

/* A growing array whose elements are elem_size bytes. */
struct robots_vec {
	void *data;
	size_t len, cap;
};

struct heed_robots {
	const struct heed_allocator *alloc;
	struct heed_arena arena;    /* every string */
	struct robots_vec rules;    /* struct robots_rule, file order */
	struct robots_vec groups;   /* struct robots_group */
	struct robots_vec agents;   /* const char *: product tokens */
	struct robots_vec sitemaps; /* struct heed_robots_sitemap */
	struct robots_vec fields;   /* struct heed_robots_field */
	struct robots_vec diags;    /* struct heed_robots_diagnostic */
	size_t diag_total;
	size_t parsed_bytes;
	bool truncated;
};

static inline const struct robots_group *
heed__robots_group(const heed_robots *r, size_t i)
{
	return i < r->groups.len
	               ? (const struct robots_group *)r->groups.data + i
	               : NULL;
}

static inline const struct robots_rule *heed__robots_rule(const heed_robots *r,
                                                          size_t i)
{
	return (const struct robots_rule *)r->rules.data + i;
}

/* RFC 9309 2.2.1: product-token = identifier / "*", identifier =
 * 1*(%x2D / %x41-5A / %x5F / %x61-7A). */
static inline bool heed__robots_token_octet(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' ||
	       c == '_';
}

/* Fills rule's compiled fields from rule->pub.pattern, in the arena.
 * Returns HEED_OK or HEED_ENOMEM. */
heed_status heed__robots_compile(struct heed_arena *arena,
                                 struct robots_rule *rule);

/* Whether a compiled rule matches a normalised path. No allocation, no
 * backtracking: at most lit_len x path_len steps (memmem is linear). */
bool heed__robots_rule_match(const struct robots_rule *rule, const char *path,
                             size_t path_len);

/* The path-and-query part of a URL, a network-path reference or a path:
 * [*path, *path + *path_len) within url. */
void heed__robots_url_path(const char *url, size_t len, const char **path,
                           size_t *path_len);

#endif /* HEED_ROBOTS_INT_H */
