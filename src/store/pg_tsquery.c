/*
 * An FTS5 expression (https://sqlite.org/fts5.html, 3 "Full-text Query
 * Syntax") as the text of a PostgreSQL tsquery, for the search area on
 * PostgreSQL (src/store/pg_search.c): heed_search_query.match is FTS5's
 * language on every backend, so `heed serve` writes one expression for
 * both.
 *
 * What is translated is what heed writes and a little more: strings
 * ("..." with "" for a quote), barewords, a trailing * (prefix), the
 * column filters title:, description:, tags: and site: (on a phrase or a
 * parenthesised group), AND, OR, NOT and parentheses, with FTS5's
 * precedence (NOT binds tightest, then AND, implicit between two terms,
 * then OR). The result is fully parenthesised, so tsquery's own
 * precedence never decides anything. NEAR, ^, + and {col ...}: filters
 * are refused as FTS5 refuses a syntax error.
 *
 * Each phrase becomes one quoted operand of to_tsquery, which runs it
 * through the store's text search configuration (the same one that
 * indexes the pages) and makes the words of a phrase a <-> sequence. The
 * phrase's bytes are reduced to words first, as FTS5's unicode61
 * tokenizer does: ASCII other than letters and digits separates words
 * (PostgreSQL's parser would keep "a.example" or "e-mail" whole), bytes of
 * other characters are left to PostgreSQL's parser, which separates on
 * what is not a letter or digit. The columns are the tsvector's weights:
 * title A, description B, tags C, site D.
 *
 * A phrase without a word matches nothing, as in FTS5: it becomes
 * ('x' & !'x'), since to_tsquery refuses an empty operand ('').
 */
#include <string.h>
#include <strings.h>

#include "store/grams-int.h"
#include "store/pg-int.h"

/* Nesting bound: parentheses and column filters deeper than this are
 * refused rather than recursed into. */
#define MAX_DEPTH 64

enum tok {
	T_END,
	T_LP,
	T_RP,
	T_COLON,
	T_STAR,
	T_STRING,
	T_WORD,
	T_AND,
	T_OR,
	T_NOT,
	T_BAD
};

struct lexer {
	const char *p;
	enum tok tok;
	const char *text; /* T_STRING: inside the quotes; T_WORD, T_BAD */
	size_t len;
};

struct xlate {
	struct lexer lx;
	struct heed_buf *out;
	struct heed_diag *diag;
	heed_status rc;
};

static bool bare(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z') || c == '_' || c == 0x1A || c >= 0x80;
}

static bool keyword(const struct lexer *lx, const char *kw)
{
	return lx->len == strlen(kw) && memcmp(lx->text, kw, lx->len) == 0;
}

/* Reads the next token; an unterminated string is T_BAD with len 0. */
static void next(struct lexer *lx)
{
	const char *s = lx->p;

	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	lx->text = s;
	lx->len = 1;
	switch (*s) {
	case '\0':
		lx->tok = T_END;
		lx->len = 0;
		break;
	case '(':
		lx->tok = T_LP;
		break;
	case ')':
		lx->tok = T_RP;
		break;
	case ':':
		lx->tok = T_COLON;
		break;
	case '*':
		lx->tok = T_STAR;
		break;
	case '"':
		lx->text = ++s;
		while (*s && !(s[0] == '"' && s[1] != '"'))
			s += s[0] == '"' ? 2 : 1;
		lx->tok = *s ? T_STRING : T_BAD;
		lx->len = *s ? (size_t)(s - lx->text) : 0;
		lx->p = *s ? s + 1 : s;
		return;
	default:
		if (!bare((unsigned char)*s)) {
			lx->tok = T_BAD;
			break;
		}
		while (bare((unsigned char)s[lx->len]))
			lx->len++;
		lx->tok = keyword(lx, "AND")   ? T_AND
		          : keyword(lx, "OR")  ? T_OR
		          : keyword(lx, "NOT") ? T_NOT
		                               : T_WORD;
		break;
	}
	lx->p = lx->text + lx->len;
}

static heed_status fail(struct xlate *x)
{
	const struct lexer *lx = &x->lx;

	if (x->rc != HEED_OK)
		return x->rc;
	if (lx->tok == T_BAD && lx->len == 0)
		x->rc = heed_diag_set(x->diag, HEED_EINVAL, 0, 0,
		                      "unterminated string");
	else
		x->rc = heed_diag_set(x->diag, HEED_EINVAL, 0, 0,
		                      "fts5: syntax error near \"%.*s\"",
		                      (int)lx->len, lx->text);
	return x->rc;
}

static void put(struct xlate *x, const char *s)
{
	if (x->rc == HEED_OK)
		x->rc = heed__buf_add(x->out, s, strlen(s));
}

/* The run of characters of a script written without spaces at text[i]
 * (grams-int.h), as the index holds it: the bigrams of a run of two or
 * more, a lone character as itself, each a word. Returns the index past
 * the run. */
static size_t gram_run(struct xlate *x, const char *text, size_t i, size_t len,
                       bool *any)
{
	size_t at[3] = {i, i, i}, n = 0;
	uint32_t cp;

	while (i < len && x->rc == HEED_OK) {
		size_t step = heed__utf8_next(text + i, len - i, &cp);
		if (!heed__gram_cp(cp))
			break;
		at[0] = at[1];
		at[1] = i;
		at[2] = i + step;
		i += step;
		if (++n >= 2) {
			if (*any)
				x->rc = heed__buf_addc(x->out, ' ');
			if (x->rc == HEED_OK)
				x->rc = heed__buf_add(x->out, text + at[0],
				                      at[2] - at[0]);
			*any = true;
		}
	}
	if (n == 1 && x->rc == HEED_OK) {
		if (*any)
			x->rc = heed__buf_addc(x->out, ' ');
		if (x->rc == HEED_OK)
			x->rc = heed__buf_add(x->out, text + at[1],
			                      at[2] - at[1]);
		*any = true;
	}
	return i;
}

/* The phrase at the current token as one quoted to_tsquery operand:
 * words separated by single spaces (nothing for a phrase without one),
 * then :* for a prefix and the column's weight. */
static void phrase(struct xlate *x, char weight)
{
	const struct lexer *lx = &x->lx;
	struct heed_buf *b = x->out;
	size_t start = b->len;
	bool space = false, any = false, prefix;

	put(x, "'");
	for (size_t i = 0; i < lx->len && x->rc == HEED_OK; i++) {
		unsigned char c = (unsigned char)lx->text[i];
		uint32_t cp = 0;
		if (c >= 0x80)
			heed__utf8_next(lx->text + i, lx->len - i, &cp);
		if (heed__gram_cp(cp)) {
			i = gram_run(x, lx->text, i, lx->len, &any) - 1;
			space = true;
			continue;
		}
		if (c < 0x80 && !bare(c)) {
			space = any;
			continue;
		}
		if (c == '_' || c == 0x1A) {
			/* Barewords may hold them; unicode61 separates. */
			space = any;
			continue;
		}
		if (space)
			x->rc = heed__buf_addc(b, ' ');
		if (x->rc == HEED_OK)
			x->rc = heed__buf_addc(b, (char)c);
		space = false;
		any = true;
	}
	next(&x->lx);
	prefix = x->lx.tok == T_STAR;
	if (prefix)
		next(&x->lx);
	if (x->rc != HEED_OK)
		return;
	if (!any) {
		/* No word: no operand (see the top of the file). */
		b->len = start;
		b->data[start] = '\0';
		put(x, "('x' & !'x')");
		return;
	}
	put(x, "'");
	if (prefix || weight) {
		char tail[4] = ":";
		size_t n = 1;
		if (prefix)
			tail[n++] = '*';
		if (weight)
			tail[n++] = weight;
		tail[n] = '\0';
		put(x, tail);
	}
}

/* The weight of FTS5 column name, or 0. */
static char column_weight(const char *name, size_t len)
{
	static const struct {
		const char *name;
		char weight;
	} cols[] = {{"title", 'A'},
	            {"description", 'B'},
	            {"tags", 'C'},
	            {"site", 'D'}};

	for (size_t i = 0; i < HEED_ARRAY_SIZE(cols); i++)
		if (strlen(cols[i].name) == len &&
		    strncasecmp(cols[i].name, name, len) == 0)
			return cols[i].weight;
	return 0;
}

static void or_expr(struct xlate *x, char weight, int depth);

static void primary(struct xlate *x, char weight, int depth)
{
	struct lexer *lx = &x->lx;

	if (x->rc != HEED_OK)
		return;
	if (depth > MAX_DEPTH) {
		x->rc = heed_diag_set(x->diag, HEED_EINVAL, 0, 0,
		                      "the search nests deeper than %d",
		                      MAX_DEPTH);
		return;
	}
	if (lx->tok == T_LP) {
		/* A group needs no parentheses of its own: an operator
		 * writes them around what it joins. */
		next(lx);
		or_expr(x, weight, depth + 1);
		if (x->rc == HEED_OK && lx->tok != T_RP) {
			fail(x);
			return;
		}
		next(lx);
		return;
	}
	if (lx->tok == T_WORD) {
		struct lexer peek = *lx;
		next(&peek);
		if (peek.tok == T_COLON) {
			char w = column_weight(lx->text, lx->len);
			if (!w) {
				x->rc = heed_diag_set(x->diag, HEED_EINVAL, 0,
				                      0, "no such column: %.*s",
				                      (int)lx->len, lx->text);
				return;
			}
			*lx = peek;
			next(lx);
			primary(x, w, depth + 1);
			return;
		}
		/* NEAR(...) is a word here only when it is not followed by
		 * '(': FTS5's own rule. */
		if (keyword(lx, "NEAR") && peek.tok == T_LP) {
			x->rc = heed_diag_set(x->diag, HEED_EINVAL, 0, 0,
			                      "NEAR is not supported on "
			                      "PostgreSQL");
			return;
		}
	}
	if (lx->tok == T_WORD || lx->tok == T_STRING) {
		phrase(x, weight);
		return;
	}
	fail(x);
}

/* Puts '(' before what was written from start: the left side of an
 * operator, known to be one only once the operator is read. */
static void wrap(struct xlate *x, size_t start)
{
	struct heed_buf *b = x->out;

	if (x->rc != HEED_OK || (x->rc = heed__buf_reserve(b, 1)) != HEED_OK)
		return;
	memmove(b->data + start + 1, b->data + start, b->len - start + 1);
	b->data[start] = '(';
	b->len++;
}

static void not_expr(struct xlate *x, char weight, int depth)
{
	size_t start = x->out->len;

	primary(x, weight, depth);
	while (x->rc == HEED_OK && x->lx.tok == T_NOT) {
		/* (left & !right), the left side wrapped from its start. */
		wrap(x, start);
		next(&x->lx);
		put(x, " & !");
		primary(x, weight, depth);
		put(x, ")");
	}
}

static bool starts_term(enum tok t)
{
	return t == T_LP || t == T_WORD || t == T_STRING;
}

static void and_expr(struct xlate *x, char weight, int depth)
{
	size_t start = x->out->len;
	bool first = true;

	not_expr(x, weight, depth);
	while (x->rc == HEED_OK &&
	       (x->lx.tok == T_AND || starts_term(x->lx.tok))) {
		if (x->lx.tok == T_AND)
			next(&x->lx);
		if (first)
			wrap(x, start);
		first = false;
		put(x, " & ");
		not_expr(x, weight, depth);
	}
	if (!first)
		put(x, ")");
}

static void or_expr(struct xlate *x, char weight, int depth)
{
	size_t start = x->out->len;
	bool first = true;

	and_expr(x, weight, depth);
	while (x->rc == HEED_OK && x->lx.tok == T_OR) {
		next(&x->lx);
		if (first)
			wrap(x, start);
		first = false;
		put(x, " | ");
		and_expr(x, weight, depth);
	}
	if (!first)
		put(x, ")");
}

heed_status heed__pg_tsquery(const struct heed_allocator *alloc,
                             const char *fts, char **out,
                             struct heed_diag *diag)
{
	struct heed_buf b;
	struct xlate x = {{fts, T_END, NULL, 0}, &b, diag, HEED_OK};

	*out = NULL;
	/* Each input byte becomes at most a few: ":*D", "(", " & !". */
	heed__buf_init(&b, alloc, 16 * strlen(fts) + 64);
	next(&x.lx);
	or_expr(&x, 0, 0);
	if (x.rc == HEED_OK && x.lx.tok != T_END)
		fail(&x);
	if (x.rc == HEED_OK && !(*out = heed__buf_take(&b)))
		x.rc = HEED_ENOMEM;
	heed__buf_free(&b);
	return x.rc;
}
