/*
 * heed/robots.h: robots.txt as RFC 9309 defines it.
 *
 * The lexer splits a robots.txt body into lines of `name: value` without
 * interpreting them; the parser builds groups of normalised rules on it,
 * and agents resolved from a parse compile the rules of their groups and
 * decide URLs (compile once per agent, match many). The
 * ACAP module builds on the same parse through the field accessors. All of
 * it is pure: bytes in, decisions out. See docs/robots.md.
 */
#ifndef HEED_ROBOTS_H
#define HEED_ROBOTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "heed/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* RFC 9309 2.5: crawlers MUST parse at least 500 kibibytes. heed parses
 * exactly this much of a longer file and reports the rest as skipped. */
#define HEED_ROBOTS_PARSE_LIMIT_BYTES (500 * 1024)

/* What a line holds, once comments and surrounding white space are gone. */
typedef enum heed_robots_line_kind {
	HEED_ROBOTS_LINE_BLANK,    /* nothing but white space */
	HEED_ROBOTS_LINE_COMMENT,  /* only a comment (the text is in comment) */
	HEED_ROBOTS_LINE_FIELD,    /* name ":" value */
	HEED_ROBOTS_LINE_NO_COLON, /* text without a colon; see name/value */
} heed_robots_line_kind;

/*
 * One line of robots.txt. Every pointer points into the caller's buffer and
 * is valid as long as that buffer is; none is NUL-terminated.
 *
 * For FIELD lines, name is the text before the first colon and value the text
 * after it up to a comment, both without surrounding white space; raw_value
 * is the value before comment removal, for showing a line as written ('#'
 * always begins a comment: RFC 9309 2.2.3, ACAP 1.1 section 3). For
 * NO_COLON lines, name is the first word and value the rest, so a
 * lenient parser can accept "Disallow /x" (RFC 9309 2.2 allows leniency).
 */
struct heed_robots_line {
	unsigned number; /* 1-based line number */
	heed_robots_line_kind kind;
	const char *name;
	size_t name_len;
	const char *value;
	size_t value_len;
	const char *raw_value; /* value with any comment, trimmed */
	size_t raw_value_len;
	const char *comment; /* text after '#', or NULL */
	size_t comment_len;
	const char *line; /* the whole line without its end */
	size_t line_len;
};

/*
 * Lexer state. The caller owns it (usually on the stack); the fields are
 * private. The input buffer must outlive the lexer and every line it yields.
 */
struct heed_robots_lexer {
	const char *data;
	size_t len;
	size_t pos;
	unsigned line;
};

/*
 * Starts lexing len bytes of data. A UTF-8 byte order mark, whole or cut
 * short, at the very start is skipped. Line ends are LF, CR or CRLF. NUL
 * bytes are ordinary bytes. The lexer does not cap the input: callers pass
 * at most HEED_ROBOTS_PARSE_LIMIT_BYTES (see heed_robots_parse_limit).
 */
void heed_robots_lex_init(struct heed_robots_lexer *lx, const char *data,
                          size_t len);

/* Yields the next line into *out; false at the end of input. */
bool heed_robots_lex_next(struct heed_robots_lexer *lx,
                          struct heed_robots_line *out);

/*
 * How many of len bytes to parse: len itself when it is within
 * HEED_ROBOTS_PARSE_LIMIT_BYTES, otherwise the limit moved back to the end of
 * the last whole line before it, so that no rule is cut in half (a line longer
 * than the whole limit is cut at the limit).
 */
size_t heed_robots_parse_limit(const char *data, size_t len);

/* ---------------------------------------------------------------------------
 * The parser: bytes to groups of rules (RFC 9309 2.1-2.2), normalised once.
 * ------------------------------------------------------------------------ */

/* A parsed robots.txt. Immutable after heed_robots_parse: any number of
 * threads may resolve agents and decide against it at once (an agent
 * compiles its rules into itself, never into the parse). */
typedef struct heed_robots heed_robots;

/* The rules that apply to one crawler, resolved once (RFC 9309 2.2.1). */
typedef struct heed_robots_agent heed_robots_agent;

/* heed's own product token, the default agent of `heed robots`. */
#define HEED_ROBOTS_PRODUCT_TOKEN "heed"

/* At most this many diagnostics are kept in a result (heed_robots_diag_get);
 * the callback sees every one and heed_robots_diag_total() counts them all. */
#define HEED_ROBOTS_MAX_DIAGNOSTICS 10000

/* A Crawl-delay above this is clamped to it and reported (one day). */
#define HEED_ROBOTS_MAX_CRAWL_DELAY_MS (24u * 60 * 60 * 1000)

/* What a diagnostic is about. Values are stable: new ones go at the end. */
typedef enum heed_robots_diag_code {
	HEED_ROBOTS_DIAG_SYNTAX,             /* not a record; line ignored */
	HEED_ROBOTS_DIAG_MISSING_COLON,      /* "Disallow /x" read leniently */
	HEED_ROBOTS_DIAG_UNKNOWN_FIELD,      /* not an RFC 9309 record */
	HEED_ROBOTS_DIAG_MISSPELLED_FIELD,   /* "Dissallow": read as intended */
	HEED_ROBOTS_DIAG_RULE_OUTSIDE_GROUP, /* rule before any user-agent */
	HEED_ROBOTS_DIAG_EMPTY_USER_AGENT,   /* "User-agent:" names nobody */
	HEED_ROBOTS_DIAG_BAD_USER_AGENT, /* "FooBot/1.2": matched as FooBot */
	HEED_ROBOTS_DIAG_BAD_PATH,       /* rule not starting with / or * */
	HEED_ROBOTS_DIAG_BAD_OCTETS,     /* controls or invalid UTF-8 */
	HEED_ROBOTS_DIAG_INVALID_CRAWL_DELAY,   /* not a non-negative number */
	HEED_ROBOTS_DIAG_CRAWL_DELAY_CLAMPED,   /* above the maximum */
	HEED_ROBOTS_DIAG_DUPLICATE_CRAWL_DELAY, /* a group has two; max kept */
	HEED_ROBOTS_DIAG_CRAWL_DELAY_OUTSIDE_GROUP, /* before any user-agent */
	HEED_ROBOTS_DIAG_BAD_SITEMAP,      /* not an absolute http(s) URL */
	HEED_ROBOTS_DIAG_TOO_BIG,          /* over 500 KiB; the rest ignored */
	HEED_ROBOTS_DIAG_EMPTY_GROUP,      /* user-agent lines and no rules */
	HEED_ROBOTS_DIAG_MISPLACED_DOLLAR, /* '$' before a pattern's end;
	                                      only with the lint option */
	HEED_ROBOTS_DIAG_WILDCARD_PATH,    /* "*.html": no leading '/'; only
	                                      with the lint option */
} heed_robots_diag_code;

/* "unknown-field" for HEED_ROBOTS_DIAG_UNKNOWN_FIELD, and so on; "unknown"
 * for a value not in the enum. Static: never free it. */
const char *heed_robots_diag_code_name(heed_robots_diag_code code);

/* One diagnostic. message is NUL-terminated; it lives as long as the result
 * (heed_robots_diag_get) or only during the callback (on_diag). */
struct heed_robots_diagnostic {
	unsigned line; /* 1-based line of the input the message is about */
	heed_robots_diag_code code;
	const char *message; /* "unknown field 'Foo'; ignored" */
};

typedef void heed_robots_diag_fn(void *ud,
                                 const struct heed_robots_diagnostic *diag);

/* Options of heed_robots_parse; NULL means all defaults. */
struct heed_robots_parse_options {
	heed_robots_diag_fn *on_diag; /* sees every diagnostic, may be NULL */
	void *ud;                     /* passed to on_diag */
	bool lint; /* also the checks only a linter wants, which cost time on
	              every rule (HEED_ROBOTS_DIAG_MISPLACED_DOLLAR,
	              HEED_ROBOTS_DIAG_WILDCARD_PATH) */
};

typedef enum heed_robots_rule_kind {
	HEED_ROBOTS_DISALLOW = 0,
	HEED_ROBOTS_ALLOW = 1,
} heed_robots_rule_kind;

/* "Disallow" or "Allow". Static. */
const char *heed_robots_rule_kind_name(heed_robots_rule_kind kind);

/* An allow or disallow rule. Strings are NUL-terminated and live as long as
 * the heed_robots they came from. */
struct heed_robots_rule {
	heed_robots_rule_kind kind;
	unsigned line; /* 1-based line of the rule */
	const char
	        *pattern; /* normalised (RFC 9309 2.2.2): see docs/robots.md */
	size_t pattern_len; /* octets: the rule's specificity */
	const char *value;  /* the value as written, comment removed */
	size_t value_len;
};

/* A Sitemap record (RFC 9309 2.2.4). url is as written, NUL-terminated. */
struct heed_robots_sitemap {
	unsigned line;
	const char *url;
	size_t url_len;
};

/* Set in heed_robots_field.group for a field before any user-agent line. */
#define HEED_ROBOTS_NO_GROUP ((size_t)-1)

/* A record heed does not interpret (ACAP-*, Host, Request-rate...), for the
 * modules that do. Strings are NUL-terminated copies that live as long as
 * the heed_robots; the lexer's meaning of value and raw_value applies. */
struct heed_robots_field {
	unsigned line;
	size_t group; /* index of the group open at this line, or NO_GROUP */
	const char *name;
	size_t name_len;
	const char *value;
	size_t value_len;
	const char *raw_value;
	size_t raw_value_len;
};

/*
 * Parses len bytes of robots.txt into *out. The input is not kept: every
 * string of the result is copied into one arena that heed_robots_free
 * releases. alloc NULL means the default allocator; opts may be NULL.
 *
 * Everything past HEED_ROBOTS_PARSE_LIMIT_BYTES (cut at a line end) is
 * ignored and reported (HEED_ROBOTS_DIAG_TOO_BIG). Problems in the text are
 * diagnostics, never failures: any bytes give a result.
 *
 * Returns HEED_OK, HEED_EINVAL (out NULL, or data NULL with len > 0) or
 * HEED_ENOMEM (*out is NULL then).
 */
heed_status heed_robots_parse(heed_robots **out,
                              const struct heed_allocator *alloc,
                              const char *data, size_t len,
                              const struct heed_robots_parse_options *opts);

/* Frees a result and every string it handed out. NULL is fine. The agents
 * resolved from r must be freed first. */
void heed_robots_free(heed_robots *r);

/* Diagnostics kept in r, in line order (at most HEED_ROBOTS_MAX_DIAGNOSTICS).
 * heed_robots_diag_get returns NULL for i >= count. */
size_t heed_robots_diag_count(const heed_robots *r);
const struct heed_robots_diagnostic *heed_robots_diag_get(const heed_robots *r,
                                                          size_t i);
/* Every diagnostic found, including those past the kept maximum. */
size_t heed_robots_diag_total(const heed_robots *r);

/* Bytes of the input that were parsed; less than its length when the input
 * was over the limit (then heed_robots_truncated is true). */
size_t heed_robots_parsed_bytes(const heed_robots *r);
bool heed_robots_truncated(const heed_robots *r);

/* Every Sitemap record, in file order, wherever it stands (RFC 9309 2.2.4:
 * it never ends a group). NULL for i >= count. */
size_t heed_robots_sitemap_count(const heed_robots *r);
const struct heed_robots_sitemap *heed_robots_sitemap_get(const heed_robots *r,
                                                          size_t i);

/* Every record heed did not interpret, in file order. NULL for i >= count. */
size_t heed_robots_field_count(const heed_robots *r);
const struct heed_robots_field *heed_robots_field_get(const heed_robots *r,
                                                      size_t i);

/*
 * Groups in file order (RFC 9309 2.1: one or more user-agent lines, then
 * rules). Group indexes run from 0 to count - 1; out-of-range indexes give 0,
 * NULL or false.
 */
size_t heed_robots_group_count(const heed_robots *r);
/* Line of the group's first user-agent line. */
unsigned heed_robots_group_line(const heed_robots *r, size_t group);
/* The group's product tokens as matched ("FooBot" for "FooBot/1.2"; "*"). */
size_t heed_robots_group_agent_count(const heed_robots *r, size_t group);
const char *heed_robots_group_agent(const heed_robots *r, size_t group,
                                    size_t i);
/* The group's rules in file order. */
size_t heed_robots_group_rule_count(const heed_robots *r, size_t group);
const struct heed_robots_rule *heed_robots_group_rule(const heed_robots *r,
                                                      size_t group, size_t i);
/* The group's Crawl-delay: true and *delay_ms (rounded up to whole
 * milliseconds) and *line when it has a valid one. Either pointer may be
 * NULL. */
bool heed_robots_group_crawl_delay(const heed_robots *r, size_t group,
                                   uint32_t *delay_ms, unsigned *line);

/* ---------------------------------------------------------------------------
 * Agents and decisions: resolve once, decide many times.
 * ------------------------------------------------------------------------ */

/*
 * Resolves the groups that apply to a crawler (RFC 9309 2.2.1): name is its
 * product token, or a whole User-Agent string whose leading product token is
 * used ("heed/0.1 (+https://...)" is "heed"). Every group naming the token,
 * compared case-insensitively, applies and their rules are merged; when none
 * does, every "*" group applies; otherwise no rule applies. The rules of
 * those groups are compiled and indexed for matching here, once, into the
 * agent: the parse compiles none, so a crawler pays only for the groups it
 * uses.
 *
 * r must outlive the agent; name is not kept. Allocates with r's allocator.
 * Returns HEED_OK, HEED_EINVAL (a NULL argument) or HEED_ENOMEM.
 */
heed_status heed_robots_agent_new(heed_robots_agent **out, const heed_robots *r,
                                  const char *name, size_t name_len);
/* NULL is fine. */
void heed_robots_agent_free(heed_robots_agent *agent);

/* The product token the agent was resolved for (NUL-terminated; "" when the
 * name had none, and then only "*" groups apply). */
const char *heed_robots_agent_token(const heed_robots_agent *agent);
/* True when some group names this agent; false when only "*" groups (or
 * none) apply. */
bool heed_robots_agent_explicit(const heed_robots_agent *agent);
/* The indexes of the groups that apply, in file order;
 * HEED_ROBOTS_NO_GROUP for i >= count. */
size_t heed_robots_agent_group_count(const heed_robots_agent *agent);
size_t heed_robots_agent_group(const heed_robots_agent *agent, size_t i);
/* The rules of those groups merged, in file order. NULL for i >= count. */
size_t heed_robots_agent_rule_count(const heed_robots_agent *agent);
const struct heed_robots_rule *
heed_robots_agent_rule(const heed_robots_agent *agent, size_t i);
/* The largest valid Crawl-delay of the groups that apply; false when none
 * has one. Either pointer may be NULL. */
bool heed_robots_agent_crawl_delay(const heed_robots_agent *agent,
                                   uint32_t *delay_ms, unsigned *line);

/* The outcome of a check. rule and value point into the heed_robots. */
struct heed_robots_decision {
	bool allowed;
	bool matched;  /* a rule decided; false: allowed because none matched */
	bool implicit; /* the path is /robots.txt, always allowed (2.2.2) */
	unsigned line; /* the deciding rule's line, 0 when !matched */
	heed_robots_rule_kind kind;          /* the deciding rule's kind */
	const char *value;                   /* its text as written, or NULL */
	const struct heed_robots_rule *rule; /* the deciding rule, or NULL */
};

/*
 * Decides whether the agent may fetch url: an absolute URL, a network-path
 * reference ("//host/p") or a path ("/p?q"). Its path and query are
 * normalised (heed_robots_normalize) and matched against the agent's rules:
 * the rule with the most octets wins and allow wins a tie (RFC 9309 2.2.2).
 * The host is not looked at: the caller picks the right robots.txt.
 *
 * No allocation unless the normalised path is over 4 KiB. Returns HEED_OK,
 * HEED_EINVAL (a NULL argument) or HEED_ENOMEM.
 */
heed_status heed_robots_decide(const heed_robots_agent *agent, const char *url,
                               size_t url_len,
                               struct heed_robots_decision *out);

/* As heed_robots_decide, for a path already normalised by
 * heed_robots_normalize. Its "%2A" and "%24" compare equal to a rule's
 * (RFC 9309 2.2.3: a literal '*' and '$'), as do a plain '*' and '$'.
 * Never fails; allocates only for a path over 4 KiB holding a '%' when the
 * agent has a rule with a literal '*' or '$'. */
void heed_robots_decide_path(const heed_robots_agent *agent, const char *path,
                             size_t path_len, struct heed_robots_decision *out);

/*
 * Writes the normalised path and query of url (as heed_robots_decide reads
 * it) into out, NUL-terminated, truncated to out_size - 1 bytes. Returns the
 * full length, so a return value >= out_size means "too small" (snprintf's
 * contract); at most 3 * url_len + 1 bytes are ever needed.
 */
size_t heed_robots_normalize(char *out, size_t out_size, const char *url,
                             size_t url_len);

/*
 * Whether a normalised pattern (heed_robots_rule.pattern: "*" any octets,
 * a final "$" the end, "%2A" and "%24" a literal "*" and "$", which the
 * path may carry plain or as "%2A" and "%24") matches a normalised path,
 * for modules that keep rules of their own (ACAP). Never
 * allocates; at most pattern_len x path_len steps.
 */
bool heed_robots_pattern_match(const char *pattern, size_t pattern_len,
                               const char *path, size_t path_len);

#ifdef __cplusplus
}
#endif

#endif /* HEED_ROBOTS_H */
