/*
 * Internals of the ACAP module: the parsed form of a robots.txt file's ACAP
 * fields (parse.c, qualifier.c), the pattern rules of 2.4.6 and 2.9
 * (pattern.c), the conventional records ACAP interprets alongside
 * (conventional.c) and the evaluator (decide.c).
 *
 * Everything a heed_acap holds lives in its arena except the growing arrays
 * (struct acap_vec), which it frees one by one. Indexes link the arrays:
 * a field names its record, sub-record and definition by index.
 */
#ifndef HEED_ACAP_INT_H
#define HEED_ACAP_INT_H

#include "common/common-int.h"
#include "heed/acap.h"
#include "heed/robots.h"

/* At most this many diagnostics are kept; a last one counts the rest, so a
 * hostile file of errors costs bounded memory. */
#define ACAP_MAX_DIAGS 1000

/* A growing array; ACAP_VEC_AT casts its items. */
struct acap_vec {
	void *items;
	size_t n, cap;
};

#define ACAP_VEC_AT(v, type, i) (&((type *)(v)->items)[i])

/* Appends a zeroed element of size elem; *slot points to it. */
heed_status heed__acap_vec_push(const struct heed_allocator *a,
                                struct acap_vec *v, size_t elem, void **slot);
void heed__acap_vec_free(const struct heed_allocator *a, struct acap_vec *v);

/* Definitions by name (case-insensitive), so that a file of many
 * definitions and uses parses in linear time. space separates usage names
 * (qualified and composite share one, section 3) from resource set names. */
enum { ACAP_SPACE_USAGE, ACAP_SPACE_SET };
enum { ACAP_DEF_QUALIFIED, ACAP_DEF_COMPOSITE, ACAP_DEF_SET };

struct acap_index_slot {
	const char *name; /* NULL: empty slot */
	int space, kind;
	size_t idx;
};

struct acap_index {
	struct acap_index_slot *slots;
	size_t n, cap; /* cap is 0 or a power of two */
};

/* The index of name in space (and its kind), or -1. */
long heed__acap_index_get(const struct acap_index *ix, int space, const char *s,
                          size_t n, int *kind);
/* Adds name (kept, not copied: an arena string). */
heed_status heed__acap_index_put(const struct heed_allocator *a,
                                 struct acap_index *ix, int space, int kind,
                                 const char *name, size_t idx);
void heed__acap_index_free(const struct heed_allocator *a,
                           struct acap_index *ix);

/* A time-limit as read from one field or definition (2.5.3.1). */
struct acap_time_spec {
	bool present;
	bool until_recrawled;
	bool has_date;
	int64_t date_end; /* Unix seconds the date has ended everywhere */
	bool has_days;
	uint64_t days;
};

/* The qualifiers of one field or qualified-usage definition. */
struct acap_qualset {
	struct heed_acap_qualifier *q; /* as written, in order */
	bool *used;                    /* false: dropped by a repetition rule */
	size_t n;
	bool interpretable; /* heed can act on every used qualifier */
	bool v11;           /* uses a feature of ACAP 1.1 */
	bool broken;        /* a qualifier is no version's: an unknown type,
	                       no value or a value not valid (2.8 cannot
	                       ignore it; 2.4.3 prohibits) */
	const char *why;    /* why not interpretable, for the chain */
	struct acap_time_spec time;
	struct heed_acap_max_length max_length;
};

/* ACAP-qualified-usage (2.7.1). */
struct acap_qdef {
	const char *name;
	unsigned line;
	bool usage_known;
	heed_acap_usage usage;
	struct acap_qualset quals;
};

/* One usage of a composite (2.7.2): a standard usage or a qualified one. */
struct acap_part {
	heed_acap_usage usage;
	long qdef;   /* index into qdefs, or -1 */
	bool broken; /* names nothing heed can resolve: read as crawl */
};

/* ACAP-composite-usage (2.7.2). */
struct acap_cdef {
	const char *name;
	unsigned line;
	struct acap_part *parts;
	size_t nparts;
	bool v11;
};

/* ACAP-resource-set (2.7.3). */
struct acap_rset {
	const char *name;
	unsigned line;
	const char **patterns;
	size_t n;
};

enum acap_usage_kind {
	ACAP_U_STANDARD,
	ACAP_U_QUALIFIED, /* (name) of an ACAP-qualified-usage */
	ACAP_U_COMPOSITE, /* (name) of an ACAP-composite-usage */
	ACAP_U_UNKNOWN,   /* nothing heed knows: read as crawl (2.4.3) */
};

/* A permission, prohibition or action request field. */
struct acap_field {
	struct heed_acap_field pub;
	enum acap_usage_kind ukind;
	heed_acap_usage usage; /* ACAP_U_STANDARD */
	size_t def;            /* ACAP_U_QUALIFIED / _COMPOSITE */
	long rset;             /* resource set index, or -1 */
	const char *pattern;   /* when rset is -1 */
	long sub;              /* sub-record index, or -1 */
	struct acap_qualset quals;
	bool malformed;       /* breaks the grammar: permissions prohibit */
	bool foreign_version; /* its file declares a major version but 1 */
	bool version_ignored; /* ignored for its 1.1 features (2.8) */
	const char *why;      /* why it prohibits (malformed) or is ignored */
};

struct acap_record {
	unsigned line;
	size_t first_crawler, ncrawlers; /* into names */
	bool any;
	const char *reference; /* ACAP-permissions-reference, or NULL */
	unsigned reference_line;
	long source; /* index into sources: the file it came from, -1: this */
};

/* A file added with heed_acap_add_reference (2.3.2). */
struct acap_source {
	const char *locator;
};

struct acap_sub {
	size_t record;
	unsigned line;
	size_t first_purpose, npurposes; /* into names */
};

struct heed_acap {
	struct heed_arena arena;
	const struct heed_allocator *alloc;
	struct acap_vec diags; /* struct heed_acap_diag */
	size_t diags_dropped;
	struct acap_vec qdefs;        /* struct acap_qdef */
	struct acap_vec cdefs;        /* struct acap_cdef */
	struct acap_vec rsets;        /* struct acap_rset */
	struct acap_vec records;      /* struct acap_record */
	struct acap_vec subs;         /* struct acap_sub */
	struct acap_vec fields;       /* struct acap_field */
	struct acap_vec names;        /* const char *: crawlers and purposes */
	struct acap_index defs;       /* qdefs, cdefs and rsets by name */
	struct acap_vec sources;      /* struct acap_source */
	const char *cur_source;       /* tags diagnostics while parsing */
	heed_robots *robots;          /* the conventional records */
	struct acap_vec conv_ignored; /* unsigned: their lines inside ACAP
	                                 records, in order (2.10.2) */
	bool any_acap;
	bool ignore_conventional;
	bool version_declared;
	unsigned version_major, version_minor;
	const char *comment_version;
};

/* Adds a diagnostic (printf-style). Only HEED_ENOMEM can fail. */
heed_status heed__acap_diag(struct heed_acap *r, unsigned line,
                            heed_acap_severity sev, const char *fmt, ...)
        __attribute__((format(printf, 4, 5)));

/* Copies bytes into the rules' (or any) arena; NULL on OOM or bytes 0. */
void *heed__acap_arena_copy(struct heed_acap *r, const void *src, size_t bytes);
void *heed__acap_arena_copy_to(struct heed_arena *ar, const void *src,
                               size_t bytes);

/*
 * Reads the qualifiers in text (space-separated type=value, 2.4.1.2) of a
 * field or definition for usage on line into *out, checking each against
 * Annex A, the repetition rules of 2.5 and the versions of 2.8.
 */
heed_status heed__acap_quals_parse(struct heed_acap *r, const char *text,
                                   size_t len, unsigned line,
                                   heed_acap_usage usage,
                                   struct acap_qualset *out);

/* Whether a name is a valid ACAP name (section 3: ALPHA *name-char). */
bool heed__acap_name_ok(const char *s, size_t len);

/* Pattern matching of 2.9: '*' is any run of characters, a final '$' ends
 * the path; otherwise a pattern matches a prefix. icase for ACAP (2.9);
 * conventional records compare octets as RFC 9309 does. */
bool heed__acap_match(const char *pattern, const char *path, bool icase);
/* The same for usage purposes (2.3.3, 2.9): the pattern must match the whole
 * purpose string, case-insensitively. */
bool heed__acap_match_whole(const char *pattern, const char *purpose);

/* The narrowest-scope comparison of 2.4.6. */
enum acap_scope {
	ACAP_SCOPE_NARROWER,  /* a is narrower than b */
	ACAP_SCOPE_WIDER,     /* b is narrower than a */
	ACAP_SCOPE_SAME,      /* the same pattern */
	ACAP_SCOPE_UNORDERED, /* the method of 2.4.6 cannot tell */
};
enum acap_scope heed__acap_scope(const char *a, const char *b);

/* Whether record i applies to crawler; *named when it names it (rather
 * than only "*"). */
bool heed__acap_record_for(const struct heed_acap *r, size_t i,
                           const char *crawler, bool *named);

/* For the records of referenced file s (2.3.2): -1 when no robots.txt
 * record referring to it applies to crawler, 0 when only "*" ones do, 1 when
 * one names it. */
int heed__acap_source_for(const struct heed_acap *r, long s,
                          const char *crawler);
/* heed__acap_record_for, and for a record of a referenced file also its
 * referrer (via, from heed__acap_source_for). */
bool heed__acap_record_applies(const struct heed_acap *r, size_t i,
                               const char *crawler, int via, bool *named);

/*
 * Conventional records (conventional.c): parsed by the robots module from
 * the same bytes; the ACAP parser notes the lines of Allow and Disallow
 * fields inside ACAP records, which 2.10.2 ignores.
 */
heed_status heed__acap_conv_parse(struct heed_acap *r, const char *data,
                                  size_t len);
heed_status heed__acap_conv_ignore_line(struct heed_acap *r, unsigned line);

/* The conventional rules that apply to one crawler, for one decision. */
struct acap_conv {
	heed_robots_agent *agent;
	const struct heed_robots_rule **rules; /* minus the ignored lines */
	bool *skip;                            /* overridden by ACAP (2.10.2) */
	size_t n;
	bool named; /* a group names the crawler (else "*" groups apply) */
};

heed_status heed__acap_conv_open(const struct heed_acap *r, const char *crawler,
                                 struct acap_conv *out);
void heed__acap_conv_close(const struct heed_acap *r, struct acap_conv *c);
/* Whether rule i matches a normalised path (heed_robots_normalize). */
bool heed__acap_conv_matches(const struct acap_conv *c, size_t i,
                             const char *path);
/* RFC 9309 2.2.2 over the rules not skipped: the index of the deciding
 * rule, or -1 when none matches. */
long heed__acap_conv_decide(const struct acap_conv *c, const char *path);

#endif /* HEED_ACAP_INT_H */
