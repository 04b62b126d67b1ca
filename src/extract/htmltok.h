/*
 * heed's HTML tokenizer (htmltok.c): a pull tokenizer over a UTF-8 buffer
 * following the WHATWG HTML Standard, 13.2.5 "Tokenization". Internal to
 * src/extract; not installed.
 *
 * Each heed__htmltok_next() call gives one token: a start tag (name and
 * attribute names ASCII-lowercased, values with character references
 * decoded, duplicates dropped), an end tag, a run of text (a span of the
 * input, decoded on demand with heed__htmltok_decode()), or the end.
 * Comments, DOCTYPEs and processing instructions are consumed and skipped.
 * After a start tag outside foreign content the tokenizer switches to the
 * text state the tree construction stage would pick (RCDATA for title,
 * RAWTEXT for style, script data for script, ...); the consumer tells it
 * when the current node is foreign (svg, math), where CDATA sections are
 * read and no switch happens.
 *
 * Memory is bounded by the limits below whatever the input; every loop is
 * linear in the input.
 */
#ifndef HEED_HTMLTOK_H
#define HEED_HTMLTOK_H

#include <stdbool.h>
#include <stddef.h>

#include "common/common-int.h"

/* Attributes kept per tag; later ones are dropped (the spec sets no
 * limit; real pages rarely pass 20). */
#define HTMLTOK_MAX_ATTRS 64
/* Bytes kept of a tag or attribute name; the rest is read and dropped. No
 * name heed looks for comes near it, so a cut name never matches one. */
#define HTMLTOK_MAX_NAME 128
/* An attribute value longer than this is dropped, as if absent: a cut URL
 * would be a wrong URL. Data URIs are the usual victims. */
#define HTMLTOK_MAX_VALUE 65536
/* Ceiling of one tag's decoded names and values together. */
#define HTMLTOK_MAX_TAG_BYTES (2 * 1024 * 1024)
/* UTF-8 bytes of one character reference: two code points at most. */
#define HTMLTOK_MAX_REF_UTF8 8
/* Room for s[0..len) with its references decoded. Only "&nGt;" and
 * "&nLt;" grow (5 bytes to 6: U+226B or U+226A, then U+20D2); every other
 * reference, named or numeric, is no longer than its text. */
#define HTMLTOK_DECODED_MAX(len) ((len) + (len) / 5)

enum htmltok_kind {
	HTMLTOK_EOF,   /* the input is used up */
	HTMLTOK_START, /* a start tag */
	HTMLTOK_END,   /* an end tag */
	HTMLTOK_TEXT,  /* character data */
};

/* The text states of 13.2.5.1-13.2.5.5. */
enum htmltok_mode {
	HTMLTOK_DATA,      /* markup is read */
	HTMLTOK_RCDATA,    /* title, textarea: text with references */
	HTMLTOK_RAWTEXT,   /* style, xmp, iframe, noembed, noframes, noscript */
	HTMLTOK_SCRIPT,    /* script data, with its escaped states */
	HTMLTOK_PLAINTEXT, /* everything after <plaintext> */
};

struct heed_htmltok {
	/* The input; pos is where the next token starts. */
	const char *buf;
	size_t len, pos;
	enum htmltok_mode mode;
	/* Set by the consumer: the current node is in SVG or MathML, so
	 * <![CDATA[ is a CDATA section and start tags switch no mode. */
	bool foreign;

	/* The token, valid until the next call. */
	enum htmltok_kind kind;
	size_t start, end; /* its span in buf */
	/* START, END: the lower-cased name, NUL-terminated. */
	const char *name;
	size_t name_len;
	/* START: name/value pairs, then NULL; every value is a string
	 * (an attribute without a value has ""). */
	const char *atts[2 * HTMLTOK_MAX_ATTRS + 1];
	size_t natts;
	bool self_closing;
	/* TEXT: a span of buf. refs: it may hold character references
	 * (data, RCDATA); raw: script or RAWTEXT content. */
	const char *text;
	size_t text_len;
	bool refs, raw;

	/* Private: the tag being read, and the "appropriate end tag". */
	const struct heed_allocator *alloc;
	char *scratch;
	size_t scratch_len, scratch_cap;
	size_t offs[2 * HTMLTOK_MAX_ATTRS];
	char last_start[16];
	size_t last_start_len;
};

/* Prepares t to read buf[0..len) (not copied: it must outlive t). No
 * allocation happens here; heed__htmltok_free() releases what next() took. */
void heed__htmltok_init(struct heed_htmltok *t, const char *buf, size_t len,
                        const struct heed_allocator *a);
/* Reads the next token into t. HEED_OK, or HEED_ENOMEM (t is then at the
 * end). */
heed_status heed__htmltok_next(struct heed_htmltok *t);
void heed__htmltok_free(struct heed_htmltok *t);
/* Switches the text state, as the tree construction stage does; call it
 * right after a start tag, whose name becomes the appropriate end tag
 * (names of 16 bytes or more keep the previous one). */
void heed__htmltok_set_mode(struct heed_htmltok *t, enum htmltok_mode mode);
/* The text state an HTML start tag of that name switches to. */
enum htmltok_mode heed__htmltok_mode_for(const char *name, size_t len);
/* Appends s[0..len) to out with character references decoded (13.2.5.72,
 * outside attributes). Returns heed__buf_add()'s
 * status. */
heed_status heed__htmltok_decode(struct heed_buf *out, const char *s,
                                 size_t len);

#endif /* HEED_HTMLTOK_H */
