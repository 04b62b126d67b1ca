/*
 * heed/acap.h: the ACAP 1.1 extensions to robots.txt (ACAP Technical
 * Framework, Part 1, Implementation Version 1.1, 2009-09-25).
 *
 * heed_acap_parse() reads a whole robots.txt body: ACAP records, sub-records,
 * definitions, the version and ignore-conventional fields, and the
 * conventional User-agent groups that ACAP interprets alongside (2.10).
 * Every rule the text breaks becomes a diagnostic with its line number; a
 * broken file still yields every rule that can be read.
 *
 * heed_acap_decide() answers whether one usage of one resource is permitted
 * to one crawler at one time, which qualifiers bind the permission, and the
 * chain of fields that decided, each with its line and reason.
 *
 * Pure: bytes and a clock in, decisions out. docs/acap.md says what heed does
 * with every field and each reading it chose where the text is ambiguous.
 */
#ifndef HEED_ACAP_H
#define HEED_ACAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "heed/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The usage types of 2.5: five basic, one general, eight derived from
 * present. The order is part of the ABI. */
typedef enum heed_acap_usage {
	HEED_ACAP_CRAWL,
	HEED_ACAP_FOLLOW,
	HEED_ACAP_INDEX,
	HEED_ACAP_PRESERVE,
	HEED_ACAP_PRESENT,
	HEED_ACAP_OTHER,
	HEED_ACAP_PRESENT_ORIGINAL,
	HEED_ACAP_PRESENT_CURRENTCOPY,
	HEED_ACAP_PRESENT_OLDCOPY,
	HEED_ACAP_PRESENT_SNIPPET,
	HEED_ACAP_PRESENT_THUMBNAIL,
	HEED_ACAP_PRESENT_OLDSNIPPET,
	HEED_ACAP_PRESENT_OLDTHUMBNAIL,
	HEED_ACAP_PRESENT_LINK,
	HEED_ACAP_USAGE_COUNT
} heed_acap_usage;

/* "crawl", "present-snippet"...; NULL for a value out of range. Static. */
const char *heed_acap_usage_name(heed_acap_usage usage);

/* Looks up a usage type by name, case-insensitively (section 3's NOTE: all
 * names are case-insensitive). False when name is not a usage type. */
bool heed_acap_usage_from_name(const char *name, size_t len,
                               heed_acap_usage *out);

/* The basic usage a derived one is based upon (present for present-*); a
 * basic or general usage is its own basic usage. */
heed_acap_usage heed_acap_usage_basic(heed_acap_usage usage);

/* The qualifier types of Annex A. */
typedef enum heed_acap_qualifier_type {
	HEED_ACAP_Q_TIME_LIMIT,
	HEED_ACAP_Q_MAX_LENGTH,
	HEED_ACAP_Q_MUST_USE_RESOURCE,
	HEED_ACAP_Q_MUST_INCLUDE_RESOURCE,
	HEED_ACAP_Q_PROHIBITED_MODIFICATION,
	HEED_ACAP_Q_PROHIBITED_CONTEXT,
	HEED_ACAP_Q_REQUIRED_CONTEXT,
	HEED_ACAP_Q_TARGET_CONDITION,
	HEED_ACAP_Q_USAGE_REF,
	HEED_ACAP_Q_UNKNOWN /* a type Annex A does not define */
} heed_acap_qualifier_type;

/* "time-limit"...; "unknown" for HEED_ACAP_Q_UNKNOWN. Static. */
const char *heed_acap_qualifier_name(heed_acap_qualifier_type type);

/*
 * The qualifiers heed interprets (2.4.3): a bit (1u << type) for each.
 * time-limit (except its value plus-terms, which needs the PLUS license
 * format) and max-length. A permission carrying any other qualifier is read
 * as a prohibition of the same usage for the same resources.
 */
#define HEED_ACAP_INTERPRETED_QUALIFIERS \
	((1u << HEED_ACAP_Q_TIME_LIMIT) | (1u << HEED_ACAP_Q_MAX_LENGTH))

/* One qualifier as written (type=value). Strings live as long as the rules
 * or decision that hold them. */
struct heed_acap_qualifier {
	heed_acap_qualifier_type type;
	const char *name;  /* the type as written */
	const char *value; /* the value as written */
	unsigned line;     /* where it was written (a field or a definition) */
};

/* A parsed robots.txt with its ACAP records. Opaque. */
typedef struct heed_acap heed_acap;

/*
 * Parses len bytes of a robots.txt body. Reads at most
 * HEED_ROBOTS_PARSE_LIMIT_BYTES (cut at a line end, as the robots module
 * does); the rest is reported as a diagnostic. Every string is copied: data
 * may be freed after the call. alloc NULL means the default allocator.
 *
 * Returns HEED_OK and sets *out (free it with heed_acap_free) even when the
 * file breaks ACAP's rules: those are diagnostics, see below. Returns
 * HEED_EINVAL for NULL out or NULL data with len > 0, HEED_ENOMEM when the
 * allocator fails (nothing is leaked, *out is NULL).
 */
heed_status heed_acap_parse(heed_acap **out, const struct heed_allocator *alloc,
                            const char *data, size_t len);

/* Frees rules and everything they hold. NULL is fine. */
void heed_acap_free(heed_acap *rules);

/* Whether the file holds any ACAP field at all. */
bool heed_acap_present(const heed_acap *rules);

/* Whether ACAP-ignore-conventional-records is in force (2.10.1). */
bool heed_acap_ignores_conventional(const heed_acap *rules);

/*
 * The version heed interprets the file as (2.8): from the ACAP-version
 * field; 1.0 when there is none (or it cannot be read). *declared says
 * whether an ACAP-version field was read. A major version other than 1 is
 * returned as written: heed then reads every permission as a prohibition.
 */
void heed_acap_version(const heed_acap *rules, unsigned *major, unsigned *minor,
                       bool *declared);

/* The version in a "##ACAP version=x.y" comment (2.10.3) as written, or
 * NULL. The string lives as long as rules. */
const char *heed_acap_comment_version(const heed_acap *rules);

typedef enum heed_acap_severity {
	HEED_ACAP_ERROR,   /* breaks a rule of the text; heed chose a reading */
	HEED_ACAP_WARNING, /* allowed but probably not what was meant */
	HEED_ACAP_NOTE, /* how heed reads something (e.g. an ignored field) */
} heed_acap_severity;

/* "error", "warning", "note". Static. */
const char *heed_acap_severity_name(heed_acap_severity severity);

struct heed_acap_diag {
	const char *source; /* NULL: this file; else the locator of a file
	                       added with heed_acap_add_reference */
	unsigned line;      /* 1-based; 0 for the file as a whole */
	heed_acap_severity severity;
	const char *message; /* a sentence; lives as long as the rules */
};

/* Diagnostics in line order. get returns NULL past the end. */
size_t heed_acap_diag_count(const heed_acap *rules);
const struct heed_acap_diag *heed_acap_diag_get(const heed_acap *rules,
                                                size_t i);

/* Kinds of ACAP field, as heed_acap_field_get describes them. */
typedef enum heed_acap_field_kind {
	HEED_ACAP_FIELD_ALLOW,
	HEED_ACAP_FIELD_DISALLOW,
	HEED_ACAP_FIELD_TAKE_DOWN,
	HEED_ACAP_FIELD_RE_CRAWL,
} heed_acap_field_kind;

/*
 * A permission, prohibition or action request field, for listing and
 * linting. Strings live as long as the rules.
 */
struct heed_acap_field {
	const char *source; /* NULL, or the locator of a referenced file */
	unsigned line;
	heed_acap_field_kind kind;
	const char *usage;      /* as written: "index", "(my-usage)" */
	const char *resource;   /* the resource specification as written */
	size_t record;          /* index of its record */
	bool in_subrecord;      /* false: the record as a whole */
	bool ignored;           /* it never decides: the version rules (2.8)
	                           drop it, it matches nothing, or it is a
	                           permission after a purpose line without a
	                           pattern (2.3.3) */
	size_t qualifier_count; /* explicit qualifiers */
};

size_t heed_acap_field_count(const heed_acap *rules);
/* NULL past the end. The pointer lives as long as rules. */
const struct heed_acap_field *heed_acap_field_get(const heed_acap *rules,
                                                  size_t i);

/* Records: how many, and whether record i names crawler (case-insensitive;
 * "*" asks whether it is addressed to any crawler). */
size_t heed_acap_record_count(const heed_acap *rules);
bool heed_acap_record_names(const heed_acap *rules, size_t i,
                            const char *crawler);

/*
 * Permissions references (2.3.2): the locators of ACAP-permissions-reference
 * fields, in file order, for the caller to fetch (a path on the same site or
 * a URI). NULL past the end. A locator written twice is listed twice.
 */
size_t heed_acap_reference_count(const heed_acap *rules);
const char *heed_acap_reference_get(const heed_acap *rules, size_t i);

/*
 * Whether reference i (as heed_acap_reference_get numbers them) matters to
 * crawler: its record names crawler, or it is a "*" record and no record
 * names crawler (2.2.1: a named record wins over "*"). A crawler fetches
 * only these. False past the end or for NULL arguments.
 */
bool heed_acap_reference_applies(const heed_acap *rules, size_t i,
                                 const char *crawler);

/*
 * Adds the file an ACAP-permissions-reference field names (2.3.2), fetched
 * by the caller: len bytes in robots.txt format, copied. Its ACAP records
 * apply, in place of the reference, to the crawlers of the records that
 * refer to locator (compared as written); its fields may use this file's
 * definitions (2.4.1.3); its ACAP-version field governs its own fields; its
 * conventional records are not read. A permissions reference inside it is
 * circular (2.3.2): reported and ignored. Until a reference is added,
 * decisions for its crawlers are prohibitions.
 *
 * Returns HEED_OK (problems are diagnostics whose source is locator),
 * HEED_ENOTFOUND when no record refers to locator, HEED_EINVAL for NULL
 * arguments or a locator added already, HEED_ENOMEM (then rules may hold
 * part of the file: free them).
 */
heed_status heed_acap_add_reference(heed_acap *rules, const char *locator,
                                    const char *data, size_t len);

/* What an action request asks (2.6). */
typedef enum heed_acap_action {
	HEED_ACAP_TAKE_DOWN, /* erase every copy and index entry of path */
	HEED_ACAP_RE_CRAWL,  /* re-crawl path as soon as possible */
} heed_acap_action;

struct heed_acap_request {
	heed_acap_action action;
	const char *path; /* lives as long as the rules */
	unsigned line;
};

/*
 * The action requests addressed to crawler, by name or to any crawler, in
 * line order (a request written twice is listed twice). Requests in sub-records
 * are not valid (2.3) and not returned. The crawler acts on them: take-down
 * deletes what it holds of that resource; re-crawl schedules it, at most once
 * per re-check of the robots.txt file. Fills up to max entries of out and
 * returns how many there are in all.
 */
size_t heed_acap_requests(const heed_acap *rules, const char *crawler,
                          struct heed_acap_request *out, size_t max);

/* What the caller knows of the copy a decision concerns, for time-limit. */
struct heed_acap_history {
	int64_t first_indexed; /* Unix seconds it was first indexed or copied;
	                          0: not yet, i.e. now */
	bool recrawled;        /* a newer crawl of it has replaced this copy */
};

/* Why a step of the decision chain applied. */
typedef enum heed_acap_reason {
	HEED_ACAP_R_MATCH,            /* the only field that matched */
	HEED_ACAP_R_NARROWEST,        /* won by narrowest scope (2.4.6) */
	HEED_ACAP_R_UNDECIDABLE,      /* scopes tie or cannot be ordered */
	HEED_ACAP_R_NAMED_OVERRIDE,   /* named record over "*" (2.2.1) */
	HEED_ACAP_R_SUBRECORD,        /* sub-record over record (2.2.1) */
	HEED_ACAP_R_BASIC_USAGE,      /* field for the basic usage (2.5) */
	HEED_ACAP_R_OTHER_USAGE,      /* field for usage type other (2.5.6) */
	HEED_ACAP_R_FALLBACK,         /* read as a prohibition (2.4.3) */
	HEED_ACAP_R_EXPANDED,         /* from a definition (2.7) */
	HEED_ACAP_R_VERSION,          /* ignored by version (2.8) */
	HEED_ACAP_R_TIME_LIMIT,       /* the time limit has passed */
	HEED_ACAP_R_CONVENTIONAL,     /* a conventional record (2.10) */
	HEED_ACAP_R_CONVENTIONAL_OFF, /* conventional field overridden (2.10.2)
	                               */
	HEED_ACAP_R_REFERENCE,        /* rules are elsewhere (2.3.2) */
	HEED_ACAP_R_DEFAULT,          /* nothing applies: permitted */
	HEED_ACAP_R_IGNORED,          /* a field heed cannot place: ignored */
} heed_acap_reason;

/* "narrowest scope", "fallback"... Static. */
const char *heed_acap_reason_name(heed_acap_reason reason);

/* One link of the chain: a field (line > 0) or a conclusion (line 0). */
struct heed_acap_step {
	const char *source; /* NULL, or the locator of a referenced file */
	unsigned line;
	heed_acap_reason reason;
	const char *text; /* a sentence for a site administrator */
};

/* How a time-limit binds a permission (2.5.3.1). */
struct heed_acap_time_limit {
	bool present;
	bool until_recrawled; /* ends when the resource is re-crawled */
	int64_t expires;      /* Unix seconds it ends; INT64_MAX: no date */
};

typedef enum heed_acap_length_unit {
	HEED_ACAP_LENGTH_NONE,
	HEED_ACAP_LENGTH_CHARS,
	HEED_ACAP_LENGTH_WORDS,
} heed_acap_length_unit;

/* A max-length the caller applies to what it presents (2.5.5.4). */
struct heed_acap_max_length {
	heed_acap_length_unit unit;
	uint64_t count;
};

/* The answer of heed_acap_decide(). Owned by the caller: free it with
 * heed_acap_decision_free(); every pointer in it lives as long as it. */
struct heed_acap_decision {
	bool permitted;
	unsigned line; /* the field that decided; 0 when none did */
	struct heed_acap_time_limit time_limit;
	struct heed_acap_max_length max_length;
	const struct heed_acap_qualifier *qualifiers; /* binding ones */
	size_t qualifier_count;
	const struct heed_acap_step *steps; /* the chain, in order */
	size_t step_count;
	const char *reference; /* an ACAP-permissions-reference whose file was
	                          not added (heed_acap_add_reference): the
	                          decision is a prohibition; or NULL */
};

/*
 * Decides whether crawler (its name, e.g. "heed"; matched
 * case-insensitively) may use path (the path and query of a URL on the
 * site, starting with "/") for usage, for any of the purposes given
 * (usage-purpose strings such as "news" or a URI; may be NULL when
 * purpose_count is 0), at now (Unix seconds). history may be NULL (never
 * indexed, not re-crawled).
 *
 * Returns HEED_OK and a decision in *out (free it with
 * heed_acap_decision_free), HEED_EINVAL for NULL rules, crawler, path or out
 * or a usage out of range, HEED_ENOMEM.
 */
heed_status heed_acap_decide(const heed_acap *rules, const char *crawler,
                             const char *const *purposes, size_t purpose_count,
                             heed_acap_usage usage, const char *path,
                             int64_t now,
                             const struct heed_acap_history *history,
                             struct heed_acap_decision **out);

/* Frees a decision. NULL is fine. */
void heed_acap_decision_free(struct heed_acap_decision *decision);

#ifdef __cplusplus
}
#endif

#endif /* HEED_ACAP_H */
