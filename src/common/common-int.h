/*
 * Internals shared by libheed's modules: allocation through a context's
 * allocator, a growing buffer with a ceiling, and an arena for parse results.
 * Not installed; never include it from outside src/.
 */
#ifndef HEED_COMMON_INT_H
#define HEED_COMMON_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "heed/common.h"

/* Allocation through an allocator (never NULL: pass
 * heed_allocator_default()). heed__calloc checks n * size for overflow. */
void *heed__malloc(const struct heed_allocator *a, size_t size);
void *heed__calloc(const struct heed_allocator *a, size_t n, size_t size);
void *heed__realloc(const struct heed_allocator *a, void *ptr, size_t size);
void heed__free(const struct heed_allocator *a, void *ptr);
/* A NUL-terminated copy of len bytes of s; the caller frees it. */
char *heed__strndup(const struct heed_allocator *a, const char *s, size_t len);

/*
 * A growing byte buffer that refuses to grow past max_bytes (curl's dynbuf).
 * The content is always NUL-terminated (the NUL does not count in len) so it
 * can be handed to C string functions. heed__buf_init cannot fail; appends
 * return HEED_ETOOBIG past the ceiling (the buffer is left unchanged) and
 * HEED_ENOMEM when the allocator fails.
 */
struct heed_buf {
	char *data;       /* NULL until the first append */
	size_t len;       /* bytes used, excluding the NUL */
	size_t cap;       /* bytes allocated */
	size_t max_bytes; /* ceiling for len */
	const struct heed_allocator *alloc;
};

void heed__buf_init(struct heed_buf *b, const struct heed_allocator *a,
                    size_t max_bytes);
heed_status heed__buf_add(struct heed_buf *b, const void *bytes, size_t len);
/* Makes room for extra more bytes (and the NUL) in one allocation, as when
 * the size to come is known; HEED_ETOOBIG past the ceiling. */
heed_status heed__buf_reserve(struct heed_buf *b, size_t extra);
heed_status heed__buf_addc(struct heed_buf *b, char c);
heed_status heed__buf_addf(struct heed_buf *b, const char *fmt, ...)
        __attribute__((format(printf, 2, 3)));
/* "" when empty; valid until the next append or free. */
const char *heed__buf_str(const struct heed_buf *b);
/* Hands the content over: the caller frees it with the buffer's allocator.
 * Returns NULL for an empty buffer. The buffer is empty afterwards. */
char *heed__buf_take(struct heed_buf *b);
void heed__buf_reset(struct heed_buf *b);
void heed__buf_free(struct heed_buf *b);

/*
 * An arena: many small allocations released together by one free. Parse
 * results keep all their strings here, so their _free is a single call.
 * Allocations are 8-byte aligned and never move.
 */
struct heed_arena_block;
struct heed_arena {
	struct heed_arena_block *head;
	size_t used_bytes; /* total handed out, for limits and benchmarks */
	const struct heed_allocator *alloc;
};

void heed__arena_init(struct heed_arena *ar, const struct heed_allocator *a);
/* NULL when the allocator fails. Memory is not zeroed. */
void *heed__arena_alloc(struct heed_arena *ar, size_t size);
/* A NUL-terminated copy of len bytes of s in the arena. */
char *heed__arena_strndup(struct heed_arena *ar, const char *s, size_t len);
void heed__arena_free(struct heed_arena *ar);

/* ASCII-only helpers: locale-independent, so "I" never folds to dotless i. */
static inline char heed__ascii_lower(char c)
{
	return (c >= 'A' && c <= 'Z') ? (char)(c + ('a' - 'A')) : c;
}

/* A JSON text written into a heed_buf in document order (json.c): open
 * '{' or '[', then key and value for each member (values alone in an
 * array), then close with the matching bracket. rc keeps the first
 * error, and nothing more is written after it; the text is complete only
 * when rc is HEED_OK. Opening a container deeper than
 * HEED_JSON_MAX_DEPTH levels fails the text with HEED_ETOOBIG, closing
 * one that is not open with HEED_EINVAL. */
#define HEED_JSON_MAX_DEPTH 64
struct heed_json {
	struct heed_buf *out;
	heed_status rc;
	unsigned depth;
	uint64_t members; /* bit d: the container at depth d+1 has one */
	bool after_key;
};

void heed__json_init(struct heed_json *j, struct heed_buf *out);
void heed__json_open(struct heed_json *j, char bracket);
void heed__json_close(struct heed_json *j, char bracket);
void heed__json_key(struct heed_json *j, const char *key);
void heed__json_string(struct heed_json *j, const char *s); /* NULL: null */
void heed__json_int(struct heed_json *j, int64_t v);
void heed__json_bool(struct heed_json *j, bool v);
/* The member key: v, left out when v is absent (the value that means "no
 * number": -1, 0, HEED_NO_DATE...). */
void heed__json_int_member(struct heed_json *j, const char *key, int64_t v,
                           int64_t absent);

/* Hashes for the hash tables (hash.c): every bit of the result depends on
 * every input byte, so a table may index with the low bits. _lower hashes
 * the ASCII lower-case of s, for case-insensitive names. */
uint64_t heed__hash(const void *data, size_t len);
uint64_t heed__hash_str(const char *s);
uint64_t heed__hash_lower(const char *s, size_t len);

/* The content digest of len bytes of data (NULL with len 0 is the empty
 * input) that tells a changed body from an unchanged one: XXH3's 128-bit
 * hash as 32 lower-case hex digits and a NUL. */
#define HEED_DIGEST_HEX 33
void heed__digest_hex(const void *data, size_t len, char hex[HEED_DIGEST_HEX]);
/* true when stored, a digest kept from an earlier answer, is that of the
 * body whose digest is hex: equal to hex, or, for a digest of the kind
 * stores kept before (SHA-256, 64 hex digits), equal to data's SHA-256. */
bool heed__digest_matches(const char *stored, const char *hex, const void *data,
                          size_t len);

static inline bool heed__ascii_space(char c)
{
	return c == ' ' || c == '\t';
}

/* Case-insensitive ASCII comparison of a length-delimited string with a
 * NUL-terminated one: true when they are equal. */
bool heed__ascii_ieq(const char *s, size_t len, const char *lit);
/* True when s[0, len) equals one of lits[0, n) by heed__ascii_ieq. */
bool heed__ascii_ieq_any(const char *s, size_t len, const char *const *lits,
                         size_t n);

/*
 * Percent-encoding normalisation of a URL's path and query (RFC 3986 2.1-2.4,
 * 6.2.2; RFC 9309 2.2.2), so that equivalent spellings compare equal bytewise:
 * octets outside ASCII, controls and characters RFC 3986 forbids (space, '"',
 * '<', '>', '\\', '^', '`', '{', '|', '}', and a '%' not starting an escape)
 * are percent-encoded; hex digits of escapes are upper-cased; escapes of
 * unreserved characters (ALPHA DIGIT - . _ ~) are decoded; escapes of anything
 * else, reserved characters included ("%2F" is not "/"), are kept.
 *
 * Writes at most out_size - 1 bytes and a NUL (nothing when out_size is 0)
 * and returns the full length, like snprintf: the output never needs more
 * than 3 * len + 1 bytes. out and in must not overlap.
 */
/* Flags: '#' ends the input (a URL's fragment is dropped); an output that
 * would not start with '/' (empty, or "?q") gets one in front. */
#define HEED_PCT_DROP_FRAGMENT 0x1u
#define HEED_PCT_SLASH_EMPTY   0x2u
/* "%2A" and "%24" are decoded to '*' and '$': a path about to be matched
 * against robots.txt rules, never a URL's normal form. */
#define HEED_PCT_STAR_DOLLAR 0x4u
size_t heed__pct_normalize(char *out, size_t out_size, const char *in,
                           size_t len, unsigned flags);

/* How many octets at the start of in normalisation leaves as they are (no
 * '%', '#' or octet to encode): len means in is already normal, whatever
 * the flags, unless HEED_PCT_SLASH_EMPTY applies. A fast path for callers. */
size_t heed__pct_plain_len(const char *in, size_t len);

/* Whether heed__pct_normalize(..., in, len, 0) would return in unchanged:
 * plain octets and escapes that stay ("%E3", not "%e3" nor "%7E"). Cheaper
 * than normalising and comparing; nothing is written. */
bool heed__pct_is_normal(const char *in, size_t len);

/* The length in bytes of the longest prefix of s (len bytes) that holds at
 * most max characters (code points), or max words (runs of non-space),
 * cut at a character boundary; len when s is short enough. */
size_t heed__serve_cut_chars(const char *s, size_t len, size_t max);
size_t heed__serve_cut_words(const char *s, size_t len, size_t max);

/* ---- permit.c: what a shown page's permissions (the JSON of its
 * `permissions` column) let the index show of it at now_s. Anything that
 * is not readable permissions JSON shows no snippet and no thumbnail.
 * The crawl asks it too, for what the search index may hold of the
 * description: the serving rules are the one definition of both. */
struct heed__serve_permit {
	bool snippet;         /* the description may be shown */
	size_t snippet_chars; /* at most this many characters; 0: no limit */
	size_t snippet_words; /* at most this many words; 0: no limit */
	bool snippet_timed;   /* the snippet's permission has a time limit */
	bool thumbnail;       /* the thumbnail URL may be shown (as a link,
	                         never an <img>: heed shows no media) */
	/* Why the snippet is cut or left out, for the record page, e.g.
	 * "ACAP present-snippet max-length 20 chars" or "nosnippet
	 * (robots meta)"; "" when nothing is withheld. */
	char why[160];
};

void heed__serve_permit(const char *permissions_json, int64_t now_s,
                        struct heed__serve_permit *p);

/* What permissions without ACAP rules and without a robots meta limit on
 * the snippet (nosnippet, max-snippet) allow: all of it, as
 * heed__serve_permit() reads them; where it starts from for any. */
void heed__serve_permit_open(struct heed__serve_permit *p);

/* Where a permitted description (len bytes) ends under p's character and
 * word limits; len when it may be shown whole. */
size_t heed__serve_snippet_cut(const struct heed__serve_permit *p,
                               const char *desc, size_t len);

/* How many bytes at the start of the description desc (len bytes) the
 * search index may hold: what p lets the index show, cut as shown, and
 * nothing when the snippet's permission has a time limit (the index does
 * not change with the time; words must not stay findable once their
 * snippet may no longer be shown). */
size_t heed__serve_permit_index_len(const struct heed__serve_permit *p,
                                    const char *desc, size_t len);

/* ---- grams.c: scripts written without spaces (Chinese, Japanese,
 * Korean, Thai, Lao, Khmer, Myanmar), whose runs the search index cuts
 * into pairs of characters (src/store/grams-int.h). */

/* Whether code point cp belongs to a script written without spaces. */
bool heed__gram_cp(uint32_t cp);

/* The code point at s (len > 0 bytes) in *cp and its length in bytes:
 * an invalid or cut sequence is one byte, read as U+FFFD. */
size_t heed__utf8_next(const char *s, size_t len, uint32_t *cp);

#endif /* HEED_COMMON_INT_H */
