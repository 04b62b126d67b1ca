/*
 * robots.txt records to groups (RFC 9309 2.1, 2.2, 2.2.1, 2.2.4, 2.5), on
 * top of the lexer.
 *
 * A group is one or more user-agent lines followed by rules. As in
 * google/robotstxt (and as 2.2.4 demands: other records "MUST NOT interfere
 * with the parsing of explicitly defined records"), a user-agent line only
 * starts a new group after the open group has had an allow or disallow
 * line; Sitemap, Crawl-delay, unknown and blank lines never end a group.
 *
 * Leniency (2.2.4: crawlers "MAY be lenient"), each reported: common
 * misspellings of record names, a missing colon after a known name, a
 * user-agent value matched on its leading product token ("FooBot/1.2" is
 * FooBot), a rule without its leading "/" read with one. Everything odd is
 * a diagnostic with a line number, never a failure.
 *
 * Workload: most files are a few KiB; some run to the 500 KiB limit with tens
 * of thousands of rules in a dozen groups, of which a crawler uses one or
 * two. So the parse does only what every reader needs: one pass of the
 * lexer, the record's kind from its length and two word compares, every
 * diagnostic, and each rule's normalised pattern, which for most rules is
 * the value itself (the lexer's scan already tells). Compiling rules for
 * matching waits for heed_robots_agent_new, which compiles only the groups
 * that apply, into the agent (agent.c).
 *
 * Memory: the result, its first rules, groups, tokens and sitemaps, and one
 * copy of the parsed input share one block (new_result); the input is
 * lexed in that copy, and a rule's value, a user-agent's product token and
 * a sitemap's URL stay there (NUL-terminated in place), as does a rule's
 * pattern when it equals the value. Everything is bounded by the 500 KiB
 * limit, and the kept diagnostics by HEED_ROBOTS_MAX_DIAGNOSTICS.
 */
#include <stdarg.h>
#include <stdio.h>

#include "robots/lexer-int.h"

/* Diagnostics quote at most this many octets of the offending text. */
#define QUOTE_MAX 60

/* Zero octets after the text's NUL, so that fold_eq may read two words at
 * any name. */
#define TEXT_PAD 16

/* Octets of input per rule, for sizing the rule array before the parse. */
#define RULE_BYTES_GUESS 24

enum record {
	RECORD_UNKNOWN,
	RECORD_USER_AGENT,
	RECORD_ALLOW,
	RECORD_DISALLOW,
	RECORD_SITEMAP,
	RECORD_CRAWL_DELAY,
};

/* Record names, lower case: the five of RFC 9309 first, in the order of
 * enum record from 1 (find_record relies on it), then the misspellings
 * google/robotstxt and crawler-commons accept, seen in real files. */
#define NAME(s) s, sizeof(s) - 1

static const struct record_name {
	const char *name;
	size_t len;
	enum record record;
	bool misspelled;
} record_names[] = {
        {NAME("user-agent"), RECORD_USER_AGENT, false},
        {NAME("allow"), RECORD_ALLOW, false},
        {NAME("disallow"), RECORD_DISALLOW, false},
        {NAME("sitemap"), RECORD_SITEMAP, false},
        {NAME("crawl-delay"), RECORD_CRAWL_DELAY, false},
        {NAME("useragent"), RECORD_USER_AGENT, true},
        {NAME("user agent"), RECORD_USER_AGENT, true},
        {NAME("user_agent"), RECORD_USER_AGENT, true},
        {NAME("dissallow"), RECORD_DISALLOW, true},
        {NAME("dissalow"), RECORD_DISALLOW, true},
        {NAME("disalow"), RECORD_DISALLOW, true},
        {NAME("diasllow"), RECORD_DISALLOW, true},
        {NAME("disallaw"), RECORD_DISALLOW, true},
        {NAME("desallow"), RECORD_DISALLOW, true},
        {NAME("site-map"), RECORD_SITEMAP, true},
        {NAME("crawldelay"), RECORD_CRAWL_DELAY, true},
        {NAME("crawl_delay"), RECORD_CRAWL_DELAY, true},
};

static const char *const diag_code_names[] = {
        [HEED_ROBOTS_DIAG_SYNTAX] = "syntax",
        [HEED_ROBOTS_DIAG_MISSING_COLON] = "missing-colon",
        [HEED_ROBOTS_DIAG_UNKNOWN_FIELD] = "unknown-field",
        [HEED_ROBOTS_DIAG_MISSPELLED_FIELD] = "misspelled-field",
        [HEED_ROBOTS_DIAG_RULE_OUTSIDE_GROUP] = "rule-outside-group",
        [HEED_ROBOTS_DIAG_EMPTY_USER_AGENT] = "empty-user-agent",
        [HEED_ROBOTS_DIAG_BAD_USER_AGENT] = "bad-user-agent",
        [HEED_ROBOTS_DIAG_BAD_PATH] = "bad-path",
        [HEED_ROBOTS_DIAG_BAD_OCTETS] = "bad-octets",
        [HEED_ROBOTS_DIAG_INVALID_CRAWL_DELAY] = "invalid-crawl-delay",
        [HEED_ROBOTS_DIAG_CRAWL_DELAY_CLAMPED] = "crawl-delay-clamped",
        [HEED_ROBOTS_DIAG_DUPLICATE_CRAWL_DELAY] = "duplicate-crawl-delay",
        [HEED_ROBOTS_DIAG_CRAWL_DELAY_OUTSIDE_GROUP] =
                "crawl-delay-outside-group",
        [HEED_ROBOTS_DIAG_BAD_SITEMAP] = "bad-sitemap",
        [HEED_ROBOTS_DIAG_TOO_BIG] = "too-big",
        [HEED_ROBOTS_DIAG_EMPTY_GROUP] = "empty-group",
        [HEED_ROBOTS_DIAG_MISPLACED_DOLLAR] = "misplaced-dollar",
        [HEED_ROBOTS_DIAG_WILDCARD_PATH] = "wildcard-path",
};

const char *heed_robots_diag_code_name(heed_robots_diag_code code)
{
	if ((size_t)code >= HEED_ARRAY_SIZE(diag_code_names))
		return "unknown";
	return diag_code_names[code];
}

const char *heed_robots_rule_kind_name(heed_robots_rule_kind kind)
{
	return kind == HEED_ROBOTS_ALLOW ? "Allow" : "Disallow";
}

struct parser {
	heed_robots *r;
	const struct heed_robots_parse_options *opts;
	struct robots_group *group; /* the open group, or NULL */
	bool group_has_rules; /* the next user-agent line starts a group */
	bool maybe_odd;       /* the lexer's word on the line's value */
	char *scratch;        /* normalisation output, reused */
	size_t scratch_cap;
	heed_status rc; /* first failure (only ever HEED_ENOMEM) */
};

/* Makes room for at least cap elements; false (and p->rc set) when memory
 * runs out. */
static bool vec_reserve(struct parser *p, struct robots_vec *v, size_t cap,
                        size_t elem_size)
{
	void *data;

	if (cap <= v->cap)
		return true;
	if (v->in_block) {
		data = heed__malloc(p->r->alloc, cap * elem_size);
		if (data)
			memcpy(data, v->data, v->len * elem_size);
	} else {
		data = heed__realloc(p->r->alloc, v->data, cap * elem_size);
	}
	if (!data) {
		p->rc = HEED_ENOMEM;
		return false;
	}
	v->data = data;
	v->cap = cap;
	v->in_block = false;
	return true;
}

/* Appends an element for the caller to fill in; NULL (and p->rc set) when
 * memory runs out. Inline: it runs for most lines. */
static inline void *vec_push(struct parser *p, struct robots_vec *v,
                             size_t elem_size)
{
	char *slot;

	if (v->len == v->cap &&
	    !vec_reserve(p, v, v->cap ? v->cap * 2 : 16, elem_size))
		return NULL;
	slot = (char *)v->data + v->len++ * elem_size;
	return slot;
}

static char *copy(struct parser *p, const char *s, size_t len)
{
	char *c = heed__arena_strndup(&p->r->arena, s, len);

	if (!c)
		p->rc = HEED_ENOMEM;
	return c;
}

/* Writes a printable excerpt of s into out: controls and non-ASCII octets
 * become '?', and "..." marks a cut. */
static const char *quote(char out[QUOTE_MAX + 4], const char *s, size_t len)
{
	size_t n = len < QUOTE_MAX ? len : QUOTE_MAX, i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		out[i] = (c < 0x20 || c >= 0x7F) ? '?' : (char)c;
	}
	if (len > QUOTE_MAX) {
		memcpy(out + n, "...", 3);
		n += 3;
	}
	out[n] = '\0';
	return out;
}

static void diag(struct parser *p, unsigned line, heed_robots_diag_code code,
                 const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void diag(struct parser *p, unsigned line, heed_robots_diag_code code,
                 const char *fmt, ...)
{
	char msg[HEED_DIAG_SIZE];
	struct heed_robots_diagnostic d = {line, code, msg};
	struct heed_robots_diagnostic *kept;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	p->r->diag_total++;
	if (p->opts && p->opts->on_diag)
		p->opts->on_diag(p->opts->ud, &d);
	if (p->r->diags.len >= HEED_ROBOTS_MAX_DIAGNOSTICS)
		return;
	kept = vec_push(p, &p->r->diags, sizeof(*kept));
	if (!kept)
		return;
	*kept = d;
	kept->message = copy(p, msg, strlen(msg));
}

/* Whether name (len octets) is rn's lower-case name in any case. */
static bool name_is(const char *name, size_t len, const struct record_name *rn)
{
	size_t i;

	if (len != rn->len)
		return false;
	for (i = 0; i < len; i++)
		if (heed__ascii_lower(name[i]) != rn->name[i])
			return false;
	return true;
}

static inline uint64_t load8(const char *s)
{
	uint64_t w;

	memcpy(&w, s, sizeof(w));
	return w;
}

/* The five names of RFC 9309 by enum record, zero-padded to two words. */
static const char canonical[][16] = {
        [RECORD_USER_AGENT] = "user-agent",   [RECORD_ALLOW] = "allow",
        [RECORD_DISALLOW] = "disallow",       [RECORD_SITEMAP] = "sitemap",
        [RECORD_CRAWL_DELAY] = "crawl-delay",
};

/* The five have five lengths: the one a name of this length can be. */
static const unsigned char record_by_len[16] = {
        [10] = RECORD_USER_AGENT,  [5] = RECORD_ALLOW,
        [8] = RECORD_DISALLOW,     [7] = RECORD_SITEMAP,
        [11] = RECORD_CRAWL_DELAY,
};

/* load8(keep + 16 - n) keeps the first n octets of a word (n <= 16), and
 * load8(keep + 24 - n) the first n - 8 of the next: in memory order, so
 * whatever the machine's byte order. */
static const unsigned char keep[32] = {
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
};

/*
 * name_is for the canonical name of a record, without a branch on the
 * name's length (allow and disallow alternate unpredictably): two word
 * compares, masked to len octets. OR-ing 0x20 into an octet folds an
 * upper-case letter to lower case; it also turns a CR into '-', but a name
 * never holds a line end. Reads 16 octets at name: the text has room after
 * it (TEXT_PAD).
 */
static bool fold_eq(const char *name, size_t len, const char lit[16])
{
	const uint64_t f = 0x2020202020202020u;
	const char *k = (const char *)keep;
	uint64_t d0 = ((load8(name) | f) ^ load8(lit)) & load8(k + 16 - len);
	uint64_t d1 =
	        ((load8(name + 8) | f) ^ load8(lit + 8)) & load8(k + 24 - len);

	return (d0 | d1) == 0;
}

static const struct record_name *find_record(const char *name, size_t len)
{
	enum record guess = len < 16 ? record_by_len[len] : RECORD_UNKNOWN;
	size_t i;

	if (guess != RECORD_UNKNOWN && fold_eq(name, len, canonical[guess]))
		return &record_names[guess - 1];
	for (i = RECORD_CRAWL_DELAY; i < HEED_ARRAY_SIZE(record_names); i++)
		if (name_is(name, len, &record_names[i]))
			return &record_names[i];
	return NULL;
}

static void user_agent(struct parser *p, const struct heed_robots_line *l)
{
	size_t n = 0;
	const char **slot;
	char q[QUOTE_MAX + 4];

	if (!p->group || p->group_has_rules) {
		p->group = vec_push(p, &p->r->groups, sizeof(*p->group));
		if (!p->group)
			return;
		*p->group = (struct robots_group){
		        .line = l->number,
		        .first_agent = p->r->agents.len,
		        .first_rule = p->r->rules.len,
		};
		p->group_has_rules = false;
	}
	if (l->value_len > 0 && l->value[0] == '*' &&
	    (l->value_len == 1 || heed__ascii_space(l->value[1]))) {
		n = 1; /* "* anything" is the global group, as in google's */
		p->group->star = true;
	} else {
		while (n < l->value_len &&
		       heed__robots_token_octet(l->value[n]))
			n++;
	}
	if (l->value_len == 0)
		diag(p, l->number, HEED_ROBOTS_DIAG_EMPTY_USER_AGENT,
		     "empty user-agent: the line names no crawler");
	else if (n == 0)
		diag(p, l->number, HEED_ROBOTS_DIAG_BAD_USER_AGENT,
		     "user-agent '%s' does not start with a product token "
		     "(letters, '-', '_'); it names no crawler",
		     quote(q, l->value, l->value_len));
	else if (n < l->value_len)
		diag(p, l->number, HEED_ROBOTS_DIAG_BAD_USER_AGENT,
		     "user-agent '%s' is not a product token; matched as "
		     "'%.*s'",
		     quote(q, l->value, l->value_len), (int)n, l->value);
	slot = vec_push(p, &p->r->agents, sizeof(*slot));
	if (!slot)
		return;
	/* The token stays in the parser's copy of the input: the octet after
	 * it is no longer needed (the diagnostics above have quoted it). */
	((char *)l->value)[n] = '\0';
	*slot = l->value;
	p->group->agent_count++;
}

/* Whether s holds a control octet or is not valid UTF-8 (RFC 9309 2.2's
 * path-pattern is UTF8-char-noctl). Overlong forms and surrogates are let
 * through: they get percent-encoded like any other non-ASCII octet. */
static bool bad_octets(const char *s, size_t len)
{
	size_t i = 0;

	while (i < len) {
		unsigned char c = (unsigned char)s[i];
		size_t follow = c < 0x80    ? 0
		                : c >= 0xF0 ? 3
		                : c >= 0xE0 ? 2
		                            : 1;
		if (c < 0x20 || c == 0x7F || (c >= 0x80 && c < 0xC0) ||
		    c > 0xF4)
			return true;
		for (i++; follow > 0; follow--, i++)
			if (i >= len || ((unsigned char)s[i] & 0xC0) != 0x80)
				return true;
	}
	return false;
}

/* Normalises value, a copy in the arena (RFC 9309 2.2.2). Most values are
 * already normal: then value itself is returned, and nothing is copied.
 * NULL on OOM. */
static char *normalize(struct parser *p, const char *value, size_t len,
                       unsigned flags, size_t *out_len)
{
	size_t need = 3 * len + 2;

	/* Nothing to change: the lexer's scan says so for most rules, and
	 * a check that writes nothing for most of the others. */
	if (flags == 0 && (!p->maybe_odd || heed__pct_is_normal(value, len))) {
		*out_len = len;
		return (char *)value;
	}
	if (need > p->scratch_cap) {
		char *s = heed__realloc(p->r->alloc, p->scratch, need);
		if (!s) {
			p->rc = HEED_ENOMEM;
			return NULL;
		}
		p->scratch = s;
		p->scratch_cap = need;
	}
	*out_len = heed__pct_normalize(p->scratch, p->scratch_cap, value, len,
	                               flags);
	if (*out_len == len && memcmp(p->scratch, value, len) == 0)
		return (char *)value;
	return copy(p, p->scratch, *out_len);
}

/*
 * RFC 9309 2.2.3: '$' "designates the end of the match pattern", and a
 * literal '$' is written "%24". The RFC says nothing of a '$' before the
 * end; heed reads it as an octet, as google/robotstxt (the RFC authors'
 * parser) and the major crawlers do, so that heed decides what they decide.
 * It is rarely meant: the author wanted the end of a shorter pattern, or a
 * literal '$' that should be written %24. Lint says so.
 */
static void misplaced_dollar(struct parser *p, const struct heed_robots_line *l,
                             heed_robots_rule_kind kind)
{
	char q[QUOTE_MAX + 4];

	diag(p, l->number, HEED_ROBOTS_DIAG_MISPLACED_DOLLAR,
	     "%s path '%s' has '$' before its end: heed reads that '$' as a "
	     "character, as major crawlers do; '$' only ends a pattern at "
	     "its end, and a literal '$' is written %%24 (RFC 9309 2.2.3)",
	     heed_robots_rule_kind_name(kind),
	     quote(q, l->value, l->value_len));
}

/* Adds the rule of line l to the open group; flags are for its
 * normalisation. */
static void add_rule(struct parser *p, const struct heed_robots_line *l,
                     heed_robots_rule_kind kind, unsigned flags)
{
	struct heed_robots_rule *r;

	p->group_has_rules = true;
	r = vec_push(p, &p->r->rules, sizeof(*r));
	if (!r)
		return;
	p->group->rule_count++;
	r->kind = kind;
	r->line = l->number;
	/* The value stays where it is, in the parser's copy of the input: the
	 * octet after it (white space, '#' or a line end the lexer has passed)
	 * becomes its NUL. Rules are most of a file; this saves a copy each. */
	((char *)l->value)[l->value_len] = '\0';
	r->value = l->value;
	r->value_len = l->value_len;
	r->pattern =
	        normalize(p, r->value, l->value_len, flags, &r->pattern_len);
	/* Only a value that normalisation changed can hold such octets. */
	if (r->pattern != r->value && bad_octets(l->value, l->value_len))
		diag(p, l->number, HEED_ROBOTS_DIAG_BAD_OCTETS,
		     "%s path holds control octets or invalid UTF-8; they are "
		     "matched percent-encoded",
		     heed_robots_rule_kind_name(kind));
	/* A scan of every rule costs a crawler's parse a third of its
	 * speed: only lint asks for it. */
	if (p->opts && p->opts->lint && r->pattern && r->pattern_len > 1 &&
	    memchr(r->pattern, '$', r->pattern_len - 1))
		misplaced_dollar(p, l, kind);
}

static void rule(struct parser *p, const struct heed_robots_line *l,
                 heed_robots_rule_kind kind)
{
	unsigned flags = 0;
	char q[QUOTE_MAX + 4];

	if (!p->group) {
		diag(p, l->number, HEED_ROBOTS_DIAG_RULE_OUTSIDE_GROUP,
		     "%s before any user-agent line; ignored",
		     heed_robots_rule_kind_name(kind));
		return;
	}
	if (l->value_len > 0 && l->value[0] != '/' && l->value[0] != '*') {
		diag(p, l->number, HEED_ROBOTS_DIAG_BAD_PATH,
		     "%s path '%s' does not start with '/'; read as '/%s'",
		     heed_robots_rule_kind_name(kind),
		     quote(q, l->value, l->value_len), q);
		flags = HEED_PCT_SLASH_EMPTY;
	} else if (l->value_len > 0 && l->value[0] == '*' && p->opts &&
	           p->opts->lint) {
		/* RFC 9309 2.2.2: a path-pattern starts with '/', and "the
		 * matching MUST start with the first octet of the path". heed
		 * reads "*.html" as written, its '*' taking the path's first
		 * '/' as any other octet, as google/robotstxt does. But other
		 * crawlers may drop such a rule, and one meant for a directory
		 * ("*private/") reaches every directory. Lint says so. */
		diag(p, l->number, HEED_ROBOTS_DIAG_WILDCARD_PATH,
		     "%s path '%s' does not start with '/': heed matches it "
		     "from the path's first octet, its '*' also matching the "
		     "leading '/'; write '/%s' (RFC 9309 2.2.2)",
		     heed_robots_rule_kind_name(kind),
		     quote(q, l->value, l->value_len), q);
	}
	add_rule(p, l, kind, flags);
}

/* A word holding the first 8 octets of s, which has at least 8. */
#define WORD8(s) load8(s "\0\0\0\0\0\0\0")

/*
 * A rule line in its most common shape, "Disallow: /..." or "Allow: /..."
 * in any case, one space, no comment, in an open group: recognised from
 * its first 16 octets with word compares, without a branch on which of the
 * two it is, and added without the general lexer and record dispatch. On
 * a small file this is a fifth of the parse. False, having done nothing,
 * for any other line. Reads 16 octets at the line's start: the text has
 * room after it (TEXT_PAD), and those octets past the input are zero,
 * which no compare below accepts.
 */
static bool fast_rule(struct parser *p, struct heed_robots_lexer *lx,
                      struct heed_robots_line *l)
{
	const char *s = lx->data + lx->pos;
	uint64_t w0 = load8(s), w1 = load8(s + 8);
	/* OR-ing 0x20 into the letters' octets folds them to lower case;
	 * the separator ": /" is compared exactly. */
	bool dis = (w0 | WORD8("        ")) == WORD8("disallow") &&
	           (w1 & load8((const char *)keep + 16 - 3)) == WORD8(": /");
	bool allow = (w0 | WORD8("     ")) == WORD8("allow: /");

	if (!p->group || !(dis || allow) ||
	    !lex_value_at(lx, l, dis ? 8 : 5, dis ? 8 : 5, dis ? 10 : 7,
	                  &p->maybe_odd))
		return false;
	add_rule(p, l, dis ? HEED_ROBOTS_DISALLOW : HEED_ROBOTS_ALLOW, 0);
	return true;
}

/*
 * Parses a Crawl-delay value in seconds: digits, optionally a '.' and more
 * digits (".5" and "2." too). Fractions of a millisecond round up. Returns
 * false for anything else; *clamped when it was over the maximum.
 */
static bool parse_delay(const char *s, size_t len, uint32_t *ms, bool *clamped)
{
	uint64_t whole = 0, frac = 0, scale = 1000;
	size_t i = 0, digits = 0;

	*clamped = false;
	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++, digits++)
		if (whole <= HEED_ROBOTS_MAX_CRAWL_DELAY_MS)
			whole = whole * 10 + (uint64_t)(s[i] - '0');
	if (i < len && s[i] == '.')
		for (i++; i < len && s[i] >= '0' && s[i] <= '9';
		     i++, digits++) {
			if (scale > 1) {
				scale /= 10;
				frac += (uint64_t)(s[i] - '0') * scale;
			} else if (s[i] != '0') {
				frac = frac + 1; /* round up what is left */
				scale = 0;
			}
		}
	if (digits == 0 || i != len)
		return false;
	whole = whole * 1000 + frac;
	if (whole > HEED_ROBOTS_MAX_CRAWL_DELAY_MS) {
		whole = HEED_ROBOTS_MAX_CRAWL_DELAY_MS;
		*clamped = true;
	}
	*ms = (uint32_t)whole;
	return true;
}

static void crawl_delay(struct parser *p, const struct heed_robots_line *l)
{
	uint32_t ms;
	bool clamped;
	char q[QUOTE_MAX + 4];

	if (!p->group) {
		diag(p, l->number, HEED_ROBOTS_DIAG_CRAWL_DELAY_OUTSIDE_GROUP,
		     "Crawl-delay before any user-agent line; ignored");
		return;
	}
	if (!parse_delay(l->value, l->value_len, &ms, &clamped)) {
		diag(p, l->number, HEED_ROBOTS_DIAG_INVALID_CRAWL_DELAY,
		     "invalid Crawl-delay '%s': want a number of seconds such "
		     "as 2 or 0.5; ignored",
		     quote(q, l->value, l->value_len));
		return;
	}
	if (clamped)
		diag(p, l->number, HEED_ROBOTS_DIAG_CRAWL_DELAY_CLAMPED,
		     "Crawl-delay '%s' is over a day; read as %u seconds",
		     quote(q, l->value, l->value_len),
		     HEED_ROBOTS_MAX_CRAWL_DELAY_MS / 1000);
	if (p->group->has_delay) {
		diag(p, l->number, HEED_ROBOTS_DIAG_DUPLICATE_CRAWL_DELAY,
		     "second Crawl-delay in the group of line %u (first on "
		     "line "
		     "%u); the longer one applies",
		     p->group->line, p->group->delay_line);
		if (ms <= p->group->delay_ms)
			return;
	}
	p->group->has_delay = true;
	p->group->delay_ms = ms;
	p->group->delay_line = l->number;
}

/* Whether s (len octets) is lit (lower case) in any case and more. */
static bool starts_ci(const char *s, size_t len, const char *lit)
{
	size_t i;

	for (i = 0; lit[i]; i++)
		if (i >= len || heed__ascii_lower(s[i]) != lit[i])
			return false;
	return len > i;
}

static void sitemap(struct parser *p, const struct heed_robots_line *l)
{
	struct heed_robots_sitemap *s;
	char q[QUOTE_MAX + 4];

	if (l->value_len == 0) {
		diag(p, l->number, HEED_ROBOTS_DIAG_BAD_SITEMAP,
		     "empty Sitemap; ignored");
		return;
	}
	if (!starts_ci(l->value, l->value_len, "http://") &&
	    !starts_ci(l->value, l->value_len, "https://"))
		diag(p, l->number, HEED_ROBOTS_DIAG_BAD_SITEMAP,
		     "Sitemap '%s' is not an absolute http(s) URL",
		     quote(q, l->value, l->value_len));
	s = vec_push(p, &p->r->sitemaps, sizeof(*s));
	if (!s)
		return;
	s->line = l->number;
	/* In place, as rule values are. */
	((char *)l->value)[l->value_len] = '\0';
	s->url = l->value;
	s->url_len = l->value_len;
}

static void unknown(struct parser *p, const struct heed_robots_line *l)
{
	struct heed_robots_field *f;
	char q[QUOTE_MAX + 4];

	diag(p, l->number, HEED_ROBOTS_DIAG_UNKNOWN_FIELD,
	     "unknown field '%s'; ignored", quote(q, l->name, l->name_len));
	f = vec_push(p, &p->r->fields, sizeof(*f));
	if (!f)
		return;
	f->line = l->number;
	f->group = p->group ? (size_t)(p->group -
	                               (struct robots_group *)p->r->groups.data)
	                    : HEED_ROBOTS_NO_GROUP;
	f->name = copy(p, l->name, l->name_len);
	f->name_len = l->name_len;
	f->value = copy(p, l->value, l->value_len);
	f->value_len = l->value_len;
	f->raw_value = copy(p, l->raw_value, l->raw_value_len);
	f->raw_value_len = l->raw_value_len;
}

static void record(struct parser *p, const struct heed_robots_line *l)
{
	const struct record_name *rn = find_record(l->name, l->name_len);
	char q[QUOTE_MAX + 4], q2[QUOTE_MAX + 4];

	if (l->kind == HEED_ROBOTS_LINE_NO_COLON) {
		if (!rn) {
			diag(p, l->number, HEED_ROBOTS_DIAG_SYNTAX,
			     "'%s' is not a 'name: value' record; ignored",
			     quote(q, l->line, l->line_len));
			return;
		}
		diag(p, l->number, HEED_ROBOTS_DIAG_MISSING_COLON,
		     "missing ':' after '%s'; read as '%s: %s'",
		     quote(q, l->name, l->name_len), q,
		     quote(q2, l->value, l->value_len));
	}
	if (rn && rn->misspelled)
		diag(p, l->number, HEED_ROBOTS_DIAG_MISSPELLED_FIELD,
		     "'%s' is misspelled; read as a record of that meaning",
		     quote(q, l->name, l->name_len));
	switch (rn ? rn->record : RECORD_UNKNOWN) {
	case RECORD_USER_AGENT:
		user_agent(p, l);
		break;
	case RECORD_ALLOW:
	case RECORD_DISALLOW:
		/* One case: which of the two a rule is, is data. */
		rule(p, l,
		     rn->record == RECORD_ALLOW ? HEED_ROBOTS_ALLOW
		                                : HEED_ROBOTS_DISALLOW);
		break;
	case RECORD_SITEMAP:
		sitemap(p, l);
		break;
	case RECORD_CRAWL_DELAY:
		crawl_delay(p, l);
		break;
	case RECORD_UNKNOWN:
		unknown(p, l);
		break;
	}
}

/* Whether some "*" group has a rule. */
static bool star_rules(const struct parser *p)
{
	const struct robots_group *g = p->r->groups.data;

	for (size_t i = 0; i < p->r->groups.len; i++)
		if (g[i].star && g[i].rule_count > 0)
			return true;
	return false;
}

/*
 * RFC 9309 2.2.1: a crawler obeys the group that names it, and the "*"
 * group only if none does; so a group of user-agent lines without a rule
 * lets the crawlers it names fetch everything, whatever the "*" group
 * says. That is the RFC's reading, and heed's; but it is rarely meant
 * (rules lost, or a User-agent line left at the end of the file), so lint
 * says so: for a group with nothing at all, and for a named group with
 * only a Crawl-delay that escapes the rules of a "*" group ("User-agent: *"
 * with only a Crawl-delay is a common, clear way to allow everything
 * slowly). Only the last group can be empty: a user-agent line joins the
 * open group until that group has a rule. The diagnostic goes where its
 * line sorts among those kept.
 */
static void empty_group(struct parser *p)
{
	struct heed_robots_diagnostic *d, x;
	const struct robots_group *g = p->group;
	bool escapes, many;
	size_t i;
	char q[QUOTE_MAX + 4];
	const char *first;

	if (!g || g->rule_count > 0 || p->rc != HEED_OK)
		return;
	escapes = !g->star && star_rules(p);
	if (g->has_delay && !escapes)
		return;
	first = ((const char *const *)p->r->agents.data)[g->first_agent];
	many = g->agent_count > 1;
	diag(p, g->line, HEED_ROBOTS_DIAG_EMPTY_GROUP,
	     "the group of user-agent '%s'%s has no rules: %s may fetch "
	     "everything%s (RFC 9309 2.2.1)",
	     g->star ? "*" : quote(q, first, strlen(first)),
	     many ? " and others" : "", many ? "they" : "it",
	     escapes ? ", and the rules of the '*' group do not apply" : "");
	d = p->r->diags.data;
	i = p->r->diags.len;
	if (i == 0 || d[i - 1].code != HEED_ROBOTS_DIAG_EMPTY_GROUP ||
	    d[i - 1].line != g->line)
		return; /* not kept: over the cap */
	x = d[--i];
	for (; i > 0 && d[i - 1].line > x.line; i--)
		d[i] = d[i - 1];
	d[i] = x;
}

static void parse_lines(struct parser *p, const char *data)
{
	struct heed_robots_lexer lx;
	struct heed_robots_line l;
	unsigned last;

	heed_robots_lex_init(&lx, data, p->r->parsed_bytes);
	while (p->rc == HEED_OK && lx.pos < lx.len) {
		if (fast_rule(p, &lx, &l))
			continue;
		if (!robots_lex_line(&lx, &l, &p->maybe_odd))
			break;
		if (l.kind == HEED_ROBOTS_LINE_FIELD ||
		    l.kind == HEED_ROBOTS_LINE_NO_COLON)
			record(p, &l);
	}
	last = lx.line;
	empty_group(p);
	if (p->r->truncated)
		diag(p, last + 1, HEED_ROBOTS_DIAG_TOO_BIG,
		     "robots.txt is over the %u KiB limit of RFC 9309 2.5; "
		     "only lines 1-%u (%zu bytes) were parsed, the rest is "
		     "ignored",
		     HEED_ROBOTS_PARSE_LIMIT_BYTES / 1024, last,
		     p->r->parsed_bytes);
}

/* Room for this many groups, product tokens and sitemaps comes with the
 * block: most files need no more, and then no other allocation. */
#define BLOCK_GROUPS   16
#define BLOCK_AGENTS   32
#define BLOCK_SITEMAPS 4

/* Gives v room for cap elements of elem_size at *at in block. */
static void carve(char *block, size_t *at, struct robots_vec *v, size_t cap,
                  size_t elem_size)
{
	v->data = block + *at;
	v->cap = cap;
	v->in_block = true;
	*at += (cap * elem_size + 15) & ~(size_t)15;
}

/* Allocates the result's block (see robots-int.h) for parsed input bytes
 * and copies them in. NULL on OOM. */
static heed_robots *new_result(const struct heed_allocator *alloc,
                               const char *data, size_t parsed)
{
	/* Rule lines are most of a file, typically this long or longer. */
	size_t rule_cap = parsed / RULE_BYTES_GUESS + 16;
	size_t at = (sizeof(heed_robots) + 15) & ~(size_t)15;
	size_t size = at + rule_cap * sizeof(struct heed_robots_rule) +
	              BLOCK_GROUPS * sizeof(struct robots_group) +
	              BLOCK_AGENTS * sizeof(const char *) +
	              BLOCK_SITEMAPS * sizeof(struct heed_robots_sitemap) +
	              4 * 15 + parsed + 1 + TEXT_PAD;
	char *block = heed__malloc(alloc, size);
	heed_robots *r = (heed_robots *)(void *)block;

	if (!block)
		return NULL;
	memset(r, 0, sizeof(*r));
	r->alloc = alloc;
	heed__arena_init(&r->arena, alloc);
	carve(block, &at, &r->rules, rule_cap, sizeof(struct heed_robots_rule));
	carve(block, &at, &r->groups, BLOCK_GROUPS,
	      sizeof(struct robots_group));
	carve(block, &at, &r->agents, BLOCK_AGENTS, sizeof(const char *));
	carve(block, &at, &r->sitemaps, BLOCK_SITEMAPS,
	      sizeof(struct heed_robots_sitemap));
	r->text = block + at;
	if (parsed)
		memcpy(r->text, data, parsed);
	memset(r->text + parsed, 0, 1 + TEXT_PAD);
	r->parsed_bytes = parsed;
	return r;
}

heed_status heed_robots_parse(heed_robots **out,
                              const struct heed_allocator *alloc,
                              const char *data, size_t len,
                              const struct heed_robots_parse_options *opts)
{
	struct parser p = {0};
	heed_robots *r;

	if (!out)
		return HEED_EINVAL;
	*out = NULL;
	if (!data && len > 0)
		return HEED_EINVAL;
	alloc = alloc ? alloc : heed_allocator_default();
	r = new_result(alloc, data,
	               data ? heed_robots_parse_limit(data, len) : 0);
	if (!r)
		return HEED_ENOMEM;
	r->truncated = r->parsed_bytes < len;
	p.r = r;
	p.opts = opts;
	parse_lines(&p, r->text);
	heed__free(alloc, p.scratch);
	if (p.rc != HEED_OK) {
		heed_robots_free(r);
		return p.rc;
	}
	*out = r;
	return HEED_OK;
}

/* Frees a vector's array unless it is part of the block. */
static void vec_free(const heed_robots *r, struct robots_vec *v)
{
	if (!v->in_block)
		heed__free(r->alloc, v->data);
}

void heed_robots_free(heed_robots *r)
{
	if (!r)
		return;
	vec_free(r, &r->rules);
	vec_free(r, &r->groups);
	vec_free(r, &r->agents);
	vec_free(r, &r->sitemaps);
	vec_free(r, &r->fields);
	vec_free(r, &r->diags);
	heed__arena_free(&r->arena);
	heed__free(r->alloc, r); /* the block */
}
