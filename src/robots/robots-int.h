/*
 * Internals of the robots module, shared by parse.c (records to groups),
 * match.c (patterns and paths) and agent.c (resolution and decisions).
 * Never included outside src/robots/.
 */
#ifndef HEED_ROBOTS_INT_H
#define HEED_ROBOTS_INT_H

#include "common/common-int.h"
#include "heed/robots.h"

/* In a compiled pattern with literal '*' octets ("%2A"), the octet that
 * stands for the wildcard. Normalised paths never hold it:
 * heed__pct_normalize encodes every control octet. */
#define ROBOTS_WILD '\x01'

/*
 * A rule as the matcher wants it, compiled from the parse's public rule
 * when an agent is resolved (agent.c) and owned by that agent: the parse
 * itself stays immutable. lit is the pattern as literal segments separated
 * by the octet wild, without a final '$' (anchored says it was there). For
 * most patterns lit is the pattern itself and wild is '*'; one with "%2A"
 * or "%24" gets a copy with those decoded and wild ROBOTS_WILD.
 */
struct robots_rule {
	const struct heed_robots_rule *pub;
	/* pub's pattern_len, kind, line and value, copied so that ranking
	 * and deciding read this structure alone: the parse's rules are cold
	 * by the time a big file's URLs are checked. */
	size_t octets;
	heed_robots_rule_kind kind;
	unsigned line;
	const char *value;
	const char *lit;
	size_t lit_len;
	size_t first_len; /* octets before the first wildcard */
	uint64_t need; /* heed__robots_octet_mask of lit: octets a path needs */
	char wild;
	bool anchored;
	bool empty;      /* "Disallow:" with no value: never matches */
	uint16_t bucket; /* the agent's index (agent.c), set there */
};

struct robots_group {
	unsigned line;
	size_t first_agent, agent_count; /* range of heed_robots.agents */
	size_t first_rule, rule_count;   /* range of heed_robots.rules */
	bool star; /* one of its user-agent lines is "*" */
	bool has_delay;
	uint32_t delay_ms;
	unsigned delay_line;
};

/* A growing array whose elements are elem_size bytes. */
struct robots_vec {
	void *data;
	size_t len, cap;
	bool in_block; /* data is part of the result's block: never freed */
};

/*
 * A parse result. It is the head of one block that also holds the first
 * rules (as many as the input's length suggests), groups, tokens and
 * sitemaps, and the copy of the input that values point into: one
 * allocation for most of a parse, which also keeps malloc from returning
 * the memory to the kernel and faulting it back in on every parse of a big
 * file. A vector that outgrows its part of the block moves to its own
 * allocation (in_block turns false).
 */
struct heed_robots {
	const struct heed_allocator *alloc;
	char *text; /* the parsed input, NUL-terminated: values, tokens */
	struct heed_arena arena;    /* every other string */
	struct robots_vec rules;    /* struct heed_robots_rule, file order */
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

static inline const struct heed_robots_rule *
heed__robots_rule(const heed_robots *r, size_t i)
{
	return (const struct heed_robots_rule *)r->rules.data + i;
}

/* RFC 9309 2.2.1: product-token = identifier / "*", identifier =
 * 1*(%x2D / %x41-5A / %x5F / %x61-7A). */
static inline bool heed__robots_token_octet(char c)
{
	/* OR-ing 0x20 folds upper case to lower: one range test for both. */
	return (unsigned char)((c | 0x20) - 'a') < 26 || c == '-' || c == '_';
}

/* Compiles pub into *rule, copying into the arena only a pattern with
 * "%2A" or "%24". Returns HEED_OK or HEED_ENOMEM. */
heed_status heed__robots_compile(struct heed_arena *arena,
                                 struct robots_rule *rule,
                                 const struct heed_robots_rule *pub);

/* A 64-bit summary of which octets occur in s (octet c sets bit c % 64):
 * a rule needing an octet the path lacks is skipped without a search. */
uint64_t heed__robots_octet_mask(const char *s, size_t len);

/* Whether a compiled rule matches a normalised path whose octet mask is
 * path_mask. No allocation, no backtracking: at most lit_len x path_len
 * steps (memmem is linear). */
bool heed__robots_rule_match(const struct robots_rule *rule, const char *path,
                             size_t path_len, uint64_t path_mask);

/* The path-and-query part of a URL, a network-path reference or a path:
 * [*path, *path + *path_len) within url. */
void heed__robots_url_path(const char *url, size_t len, const char **path,
                           size_t *path_len);

#endif /* HEED_ROBOTS_INT_H */
