/*
 * heed/robots.h: robots.txt as RFC 9309 defines it.
 *
 * The lexer below splits a robots.txt body into lines of `name: value`
 * without interpreting them; the rule parser and the ACAP module build on it.
 * It is pure: bytes in, lines out, no allocation.
 */
#ifndef HEED_ROBOTS_H
#define HEED_ROBOTS_H

#include <stdbool.h>
#include <stddef.h>

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
 * is the value before comment removal (ACAP's usage-purpose URIs may contain
 * '#'). For NO_COLON lines, name is the first word and value the rest, so a
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

#ifdef __cplusplus
}
#endif

#endif /* HEED_ROBOTS_H */
