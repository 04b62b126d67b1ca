/*
 * Fuzz target: the search box and the escapes of `heed serve` (src/serve
 * query.c, escape.c). The input is the text of a query and, after a
 * newline, "name=value" lines as search arguments. Invariants: a returned
 * FTS5 expression is accepted by a real FTS5 table of the index's columns
 * and tokenizer (heed's, which cuts scripts without spaces, is fuzzed on
 * the way, with the query as a document too); the marks of a query are
 * non-empty spans in order, on character boundaries, inside the text;
 * escaped HTML holds no raw < > " ' and is valid UTF-8; cleaned text is
 * valid UTF-8; a parsed cursor formats back to one that parses the same.
 */
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "serve/serve-int.h"
#include "store/grams-int.h"

static sqlite3_stmt *match_stmt(void)
{
	static sqlite3 *db;
	static sqlite3_stmt *st;

	if (!st &&
	    (sqlite3_open(":memory:", &db) != SQLITE_OK ||
	     heed__sqlite_search_register(db) != SQLITE_OK ||
	     sqlite3_exec(db,
	                  "CREATE VIRTUAL TABLE search_fts USING fts5(title, "
	                  "description, tags, site, tokenize='heed porter "
	                  "unicode61 remove_diacritics 2');"
	                  "INSERT INTO search_fts VALUES('a','b','c','d');",
	                  NULL, NULL, NULL) != SQLITE_OK ||
	     sqlite3_prepare_v2(db,
	                        "SELECT count(*) FROM search_fts WHERE "
	                        "search_fts MATCH ?",
	                        -1, &st, NULL) != SQLITE_OK))
		abort();
	return st;
}

static void check_fts(const char *fts)
{
	sqlite3_stmt *st = match_stmt();

	sqlite3_bind_text(st, 1, fts, -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_ROW)
		abort(); /* FTS5 rejected what heed built */
	sqlite3_reset(st);
}

/* Valid UTF-8 (RFC 3629) without C0 controls but tab and newline, nor
 * DEL: checked by value here, independently of escape.c's decoder. */
static bool valid_utf8(const unsigned char *s, size_t len)
{
	for (size_t i = 0; i < len;) {
		size_t n = s[i] < 0x80       ? 1
		           : s[i] >> 5 == 6  ? 2
		           : s[i] >> 4 == 14 ? 3
		           : s[i] >> 3 == 30 ? 4
		                             : 0;
		uint32_t v = n == 1 ? s[i] : s[i] & (0xFFu >> (n + 1));
		if (!n || len - i < n)
			return false;
		for (size_t k = 1; k < n; k++) {
			if (s[i + k] >> 6 != 2)
				return false;
			v = v << 6 | (s[i + k] & 0x3Fu);
		}
		if ((n == 2 && v < 0x80) || (n == 3 && v < 0x800) ||
		    (n == 4 && v < 0x10000) || v > 0x10FFFF ||
		    (v >= 0xD800 && v <= 0xDFFF) || v == 0x7F ||
		    (v < 0x20 && v != '\t' && v != '\n'))
			return false;
		i += n;
	}
	return true;
}

static void check_escapes(const char *s, size_t len)
{
	struct heed_buf b;

	heed__buf_init(&b, heed_allocator_default(), 8 * len + 16);
	if (heed__html_escape(&b, s, len) != HEED_OK ||
	    strpbrk(heed__buf_str(&b), "<>\"'") ||
	    !valid_utf8((const unsigned char *)heed__buf_str(&b), b.len))
		abort();
	heed__buf_reset(&b);
	if (heed__utf8_clean(&b, s, len) != HEED_OK ||
	    !valid_utf8((const unsigned char *)heed__buf_str(&b), b.len))
		abort();
	heed__buf_free(&b);
}

static bool boundary(const char *s, size_t len, size_t at)
{
	return at == len || ((unsigned char)s[at] & 0xC0) != 0x80;
}

/* The marks of query q over data as a page shows it (cleaned as the
 * extractor stores text): in order, non-empty, on character boundaries,
 * in bounds. */
static void check_marks(const char *q, const char *data, size_t size)
{
	struct heed__serve_marks m;
	struct heed_buf b;
	size_t at = 0, start, end, len;
	const char *s;

	heed__buf_init(&b, heed_allocator_default(), 3 * size + 16);
	if (heed__utf8_clean(&b, data, size) != HEED_OK)
		abort();
	s = heed__buf_str(&b);
	len = b.len;
	heed__serve_marks_init(&m, q);
	while (heed__serve_mark_next(&m, s, len, at, &start, &end)) {
		if (start < at || end <= start || end > len ||
		    !boundary(s, len, start) || !boundary(s, len, end))
			abort();
		at = end;
	}
	heed__buf_free(&b);
}

/* Splits "name=value" lines into args (in place, in a copy). */
static void split_args(char *s, struct heed__serve_args *a)
{
	a->count = 0;
	while (s && *s && a->count < HEED__SERVE_MAX_ARGS) {
		char *nl = strchr(s, '\n'), *eq;
		if (nl)
			*nl = '\0';
		eq = strchr(s, '=');
		if (eq)
			*eq = '\0';
		a->arg[a->count].name = s;
		a->arg[a->count++].value = eq ? eq + 1 : "";
		s = nl ? nl + 1 : NULL;
	}
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	char *text = malloc(size + 1), *nl, *fts = NULL;
	struct heed__serve_args args;
	struct heed_search_query q;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	check_escapes((const char *)data, size);
	nl = strchr(text, '\n');
	if (nl)
		*nl = '\0';
	if (heed__serve_fts_query(heed_allocator_default(), text, &fts, NULL) ==
	            HEED_OK &&
	    fts) {
		check_fts(fts);
		check_marks(text, (const char *)data, size);
	}
	free(fts);
	split_args(nl ? nl + 1 : NULL, &args);
	if (heed__serve_parse_search(heed_allocator_default(), &args, 20, 0, &q,
	                             &fts, NULL) == HEED_OK) {
		char c[HEED__SERVE_CURSOR_SIZE];
		struct heed_search_cursor back;
		/* The folded tag and site follow the expression in fts. */
		if (q.match)
			check_fts(q.match);
		heed__serve_cursor_format(q.sort, &q.after, c);
		if (q.after.id &&
		    (heed__serve_cursor_parse(c, q.sort, &back) != HEED_OK ||
		     back.id != q.after.id || back.key != q.after.key))
			abort();
		free(fts);
	}
	free(text);
	return 0;
}
