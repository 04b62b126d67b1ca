/*
 * Words in scripts written without spaces (src/common/grams.c): Chinese,
 * Japanese, Korean, Thai, Lao, Khmer and Myanmar text holds no separator
 * between its words, so a word tokenizer sees a whole sentence as one
 * token and "夜行" never finds "夜行列車". The search index cuts such runs into
 * overlapping pairs of characters (bigrams), as Lucene's CJK analyzer
 * does, and a search cuts its words the same way: a word of two or more
 * characters is the phrase of its bigrams, found wherever it occurs
 * inside a run; a word of one character is found as itself.
 *
 * The backends use it on both sides: SQLite's FTS5 tokenizer "heed"
 * (sqlite_search.c) for the index and the query; PostgreSQL's
 * heed_grams() (pg_search.c, the same ranges in a regular expression) for
 * the index and heed__pg_tsquery for the query.
 */
#ifndef HEED_STORE_GRAMS_INT_H
#define HEED_STORE_GRAMS_INT_H

#include "common/common-int.h" /* heed__gram_cp, heed__utf8_next */

/* Registers the FTS5 tokenizer "heed" (sqlite_search.c) on db, which
 * every connection to a store needs before it touches search_fts. Returns
 * an SQLite result code. */
struct sqlite3;
int heed__sqlite_search_register(struct sqlite3 *db);

/* The same ranges as heed__gram_cp, as a PostgreSQL regular expression
 * bracket expression. */
#define HEED__GRAM_CLASS                                                \
	"[\\u0e00-\\u0eff\\u1000-\\u109f\\u1100-\\u11ff\\u1780-\\u17ff" \
	"\\u3005-\\u3007\\u3040-\\u30ff\\u3130-\\u318f\\u31f0-\\u31ff"  \
	"\\u3400-\\u4dbf\\u4e00-\\u9fff\\ua960-\\ua97f\\uac00-\\ud7af"  \
	"\\ud7b0-\\ud7ff\\uf900-\\ufaff\\uff66-\\uff9f\\U00020000-"     \
	"\\U0002fa1f]"

#endif /* HEED_STORE_GRAMS_INT_H */
