/*
 * The "search" area on SQLite: the full-text index and the queries of the
 * public index, see include/heed/store_search.h.
 *
 * search_fts is an FTS5 table with EXTERNAL content: its text lives in
 * search_text, one row per indexed page, and the index keeps only the
 * tokens. External rather than contentless because SQLite 3.40 (Debian
 * 12) has no contentless_delete: a contentless table cannot forget a
 * taken-down page unless given its old text, and an external content
 * table reads that text from its content table and can check itself with
 * FTS5's 'integrity-check'. What is indexed of a page is computed in one
 * place, the view search_docs over pages.
 *
 * The index is kept off the path that writes a page (version 5, below):
 * changing or deleting a row of pages only marks it in search_pending, a
 * new row is found by its id above the highest one the last catch-up saw
 * (version 15), and the index, page_tags and the kept counts catch up
 * with those pages a set at a time (heed_store_search_catch_up), so the
 * work of thousands of pages is done by one statement per table instead
 * of a dozen per page. A mark is written in the page's own transaction
 * (a new row is its own), so a page written is indexed by the next
 * catch-up whatever happens in between (kill -9 included); a 304
 * (checked_at only) marks nothing.
 *
 * What may be shown (SHOWN below) is read from pages.status and
 * pages.permissions at query time, never stored in the index, since it
 * depends on the time of the query; the kept counts hold what does not
 * depend on it, and the time limits apart.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "heed/store_search.h"
#include "store/grams-int.h"
#include "store/sqlite-rows-int.h"

/*
 * The FTS5 tokenizer "heed": another tokenizer (its arguments name it, as
 * for porter: "heed porter unicode61 remove_diacritics 2") for words, and
 * bigrams for runs of scripts written without spaces (grams-int.h). In a
 * document each character of a run is a token, with the bigram it starts
 * at the same position (FTS5_TOKEN_COLOCATED); in a query a run of two or
 * more characters is the phrase of its bigrams (then its last character,
 * when text follows: gram_run), and one character itself.
 * So "夜行" finds "夜行列車" and "列車", and "車" finds it too. Offsets
 * point into the text, so highlight() and snippet() mark the characters.
 */
struct gram_tok {
	fts5_tokenizer inner;  /* the word tokenizer's functions */
	Fts5Tokenizer *handle; /* and its instance */
};

/*
 * Word pairs. A phrase of frequent words ("kapa rila": words on 815,341
 * and 168,323 of 1,000,000 pages, 3,814 pages with the phrase) was found
 * by comparing the positions of both words in every page that holds both,
 * a pass of about 50 ms, made again by bm25's count of the phrase. So in
 * a document each word after the first of a run of words also brings the
 * token of the pair it closes (PAIR_MARK, the word before, PAIR_MARK, the
 * word), at its own position (FTS5_TOKEN_COLOCATED: no position of its
 * own, and FTS5 counts no length for it, so bm25's lengths are the
 * words'); and in a query a string of two or more words is the phrase of
 * its pairs, which matches exactly where the words stand in a row: one
 * list read instead of two compared. A prefix query, a string with a
 * run of bigrams (above) or a word longer than PAIR_WORD_MAX is searched
 * by its words, as before; no pair is made across such a run or word.
 */
#define PAIR_MARK     '\x01' /* no word holds it: no query matches it */
#define PAIR_WORD_MAX 64

struct pair_word {
	char text[PAIR_WORD_MAX];
	int len, start;
	bool set;
};

/* Where the tokens of one piece of the text go: the piece's offset in the
 * text, and the pair state of the whole text. */
struct gram_piece {
	void *ctx;
	int (*token)(void *, int, const char *, int, int, int);
	int offset;
	int flags;  /* the tokenize flags: document or query */
	bool pairs; /* a query: emit the pairs of its words, not the words */
	struct pair_word prev;
	/* A query's first pass (probe): what its words allow. */
	bool probe;
	int words;
	bool unpairable;
};

static bool pairable(int flags)
{
	return !(flags & FTS5_TOKENIZE_PREFIX);
}

/* The pair token of prev and the word tok into buf (2 * PAIR_WORD_MAX
 * + 2 bytes); its length. */
static int pair_token(char *buf, const struct pair_word *prev, const char *tok,
                      int len)
{
	buf[0] = PAIR_MARK;
	memcpy(buf + 1, prev->text, (size_t)prev->len);
	buf[1 + prev->len] = PAIR_MARK;
	memcpy(buf + 2 + prev->len, tok, (size_t)len);
	return prev->len + 2 + len;
}

static int piece_token(void *ud, int tflags, const char *tok, int len,
                       int start, int end)
{
	struct gram_piece *p = ud;
	char buf[2 * PAIR_WORD_MAX + 2];
	bool query = p->flags & FTS5_TOKENIZE_QUERY;
	bool fits = len <= PAIR_WORD_MAX && !(tflags & FTS5_TOKEN_COLOCATED);
	bool closes = fits && p->prev.set;
	int rc = SQLITE_OK;

	start += p->offset;
	end += p->offset;
	if (p->probe) {
		p->words++;
		p->unpairable |= !fits;
		return SQLITE_OK;
	}
	if (!p->pairs)
		rc = p->token(p->ctx, tflags, tok, len, start, end);
	if (rc == SQLITE_OK && closes && (p->pairs || !query))
		rc = p->token(p->ctx, p->pairs ? 0 : FTS5_TOKEN_COLOCATED, buf,
		              pair_token(buf, &p->prev, tok, len),
		              p->prev.start, end);
	if (tflags & FTS5_TOKEN_COLOCATED)
		return rc;
	p->prev.set = fits && pairable(p->flags);
	if (p->prev.set) {
		memcpy(p->prev.text, tok, (size_t)len);
		p->prev.len = len;
		p->prev.start = start;
	}
	return rc;
}

/* The tokens of a run of n characters, text[at[i]..at[i + 1]) each.
 * more: in a query, text follows the run. Its n - 1 bigrams take n - 1
 * positions where the document's run takes n, so a word after the run
 * would be looked for one position early: the run's last character,
 * at its own position, puts it where the document has it. */
static int gram_run(void *ctx, int flags, const char *text, const int *at,
                    int n, bool more,
                    int (*token)(void *, int, const char *, int, int, int))
{
	bool query = flags & FTS5_TOKENIZE_QUERY;
	int rc = SQLITE_OK;

	if (query && n == 1)
		return token(ctx, 0, text + at[0], at[1] - at[0], at[0], at[1]);
	for (int i = 0; i < n && rc == SQLITE_OK; i++) {
		bool pair = i + 1 < n;
		if (!query || (more && !pair))
			rc = token(ctx, 0, text + at[i], at[i + 1] - at[i],
			           at[i], at[i + 1]);
		if (rc == SQLITE_OK && pair)
			rc = token(ctx, query ? 0 : FTS5_TOKEN_COLOCATED,
			           text + at[i], at[i + 2] - at[i], at[i],
			           at[i + 2]);
	}
	return rc;
}

/* Longest run the tokenizer cuts at once; a longer one goes on as a new
 * run (one bigram across the cut is lost). */
#define GRAM_RUN_MAX 256

/* One pass over the text: the word tokenizer's pieces through p, the
 * runs of bigrams (gram_run) between them, which end a run of words; a
 * probe only notes that a run was there. */
static int gram_pass(struct gram_tok *g, struct gram_piece *p, const char *text,
                     int len)
{
	int at[GRAM_RUN_MAX + 1], rc = SQLITE_OK, i = 0, plain = 0;

	while (i < len && rc == SQLITE_OK) {
		uint32_t cp;
		int n = 0, step = (int)heed__utf8_next(text + i,
		                                       (size_t)(len - i), &cp);
		if (!heed__gram_cp(cp)) {
			i += step;
			continue;
		}
		if (i > plain) {
			p->offset = plain;
			rc = g->inner.xTokenize(g->handle, p, p->flags,
			                        text + plain, i - plain,
			                        piece_token);
		}
		while (i < len && n < GRAM_RUN_MAX && heed__gram_cp(cp)) {
			at[n++] = i;
			i += step;
			if (i < len)
				step = (int)heed__utf8_next(
				        text + i, (size_t)(len - i), &cp);
		}
		at[n] = i;
		p->prev.set = false;
		p->unpairable = true;
		if (rc == SQLITE_OK && !p->probe)
			rc = gram_run(p->ctx, p->flags, text, at, n, i < len,
			              p->token);
		plain = i;
	}
	if (rc == SQLITE_OK && len > plain) {
		p->offset = plain;
		rc = g->inner.xTokenize(g->handle, p, p->flags, text + plain,
		                        len - plain, piece_token);
	}
	return rc;
}

static int gram_tokenize(Fts5Tokenizer *t, void *ctx, int flags,
                         const char *text, int len,
                         int (*token)(void *, int, const char *, int, int, int))
{
	struct gram_tok *g = (struct gram_tok *)t;
	struct gram_piece p = {.ctx = ctx, .token = token, .flags = flags};
	int rc = SQLITE_OK;

	/* A query is read twice: first to see whether it is a row of words
	 * that the pairs can find (word pairs, above). */
	if ((flags & FTS5_TOKENIZE_QUERY) && pairable(flags)) {
		p.probe = true;
		rc = gram_pass(g, &p, text, len);
		p.pairs = rc == SQLITE_OK && !p.unpairable && p.words >= 2;
		p.probe = false;
		p.prev.set = false;
	}
	if (rc == SQLITE_OK)
		rc = gram_pass(g, &p, text, len);
	return rc;
}

static int gram_create(void *api, const char **args, int nargs,
                       Fts5Tokenizer **out)
{
	fts5_api *fts = api;
	struct gram_tok *g;
	void *inner_ud = NULL;
	int rc;

	*out = NULL;
	if (nargs < 1)
		return SQLITE_ERROR;
	g = sqlite3_malloc(sizeof(*g));
	if (!g)
		return SQLITE_NOMEM;
	rc = fts->xFindTokenizer(fts, args[0], &inner_ud, &g->inner);
	if (rc == SQLITE_OK)
		rc = g->inner.xCreate(inner_ud, args + 1, nargs - 1,
		                      &g->handle);
	if (rc != SQLITE_OK) {
		sqlite3_free(g);
		return rc;
	}
	*out = (Fts5Tokenizer *)g;
	return SQLITE_OK;
}

static void gram_delete(Fts5Tokenizer *t)
{
	struct gram_tok *g = (struct gram_tok *)t;

	if (!g)
		return;
	g->inner.xDelete(g->handle);
	sqlite3_free(g);
}

/*
 * What a connection keeps between its searches, all of it of one state
 * of the index (its generation: FTS5's structure record, which every
 * write to the index replaces, read in the statement that uses it):
 *
 * - per match expression, each phrase's document frequency, which bm25
 *   needs for its weight and which FTS5 gets by running the phrase over
 *   the whole index once per statement: for a phrase of two frequent
 *   words that pass reads its pairs' whole list (word pairs, above;
 *   before them it compared every position list of both words, 195 ms
 *   for "kako kako" at 1,000,000 pages, docs/performance.md), however few
 *   results the search returns;
 * - per match expression, how many pages FTS5 matches (up to the bound
 *   of count_reaches_cap), for the same reason;
 * - the last relevance search whose candidates were every match that may
 *   be listed: its count is theirs, so the count that follows it (the
 *   API's "about N results") need not read the matches again.
 *
 * A search sent again, its next page, or another search of the same
 * words then costs what its rows cost. Everything kept is dropped when the
 * generation changes, so a score or a count is what a statement reading
 * the index afresh would give. One memo per connection, used only by the
 * thread that holds the connection; freed when the connection closes.
 */
#define KEPT_MAX       128  /* match expressions kept, replaced in turn */
#define KEPT_MATCH_MAX 1024 /* longer expressions are not kept */
#define GEN_SQL        "(SELECT block FROM search_fts_data WHERE id = 10)"

struct kept {
	char *match;     /* the expression (owned) */
	int nphrase;     /* phrases of df, or 0: not known yet */
	int64_t *df;     /* each phrase's document frequency (owned) */
	int64_t matches; /* FTS5's matches up to matches_limit, or -1 */
	int64_t matches_limit;
};

struct search_memo {
	void *gen; /* the generation all below are of (owned) */
	int gen_len;
	struct kept kept[KEPT_MAX];
	int next;       /* the slot to replace next */
	int64_t scored; /* rows heed_bm25 scored in its last statement */
	/* The last complete candidate set (search_complete). */
	struct {
		char *key; /* what it was of, as written by complete_key */
		void *gen;
		int gen_len;
		int64_t n;
	} last;
};

static void kept_clear(struct kept *k)
{
	sqlite3_free(k->match);
	sqlite3_free(k->df);
	memset(k, 0, sizeof(*k));
}

static void memo_free(void *p)
{
	struct search_memo *m = p;

	if (!m)
		return;
	for (int i = 0; i < KEPT_MAX; i++)
		kept_clear(&m->kept[i]);
	sqlite3_free(m->gen);
	sqlite3_free(m->last.key);
	sqlite3_free(m->last.gen);
	sqlite3_free(m);
}

static bool same_blob(const void *a, int a_len, const void *b, int b_len)
{
	return a && b && a_len == b_len && memcmp(a, b, (size_t)a_len) == 0;
}

/* Makes g (len bytes) the memo's generation, dropping what was kept of
 * another. False when it cannot be kept (no memory, no generation). */
static bool memo_at(struct search_memo *m, const void *g, int len)
{
	if (!g || len <= 0)
		return false;
	if (same_blob(m->gen, m->gen_len, g, len))
		return true;
	for (int i = 0; i < KEPT_MAX; i++)
		kept_clear(&m->kept[i]);
	sqlite3_free(m->gen);
	m->gen_len = 0;
	if (!(m->gen = sqlite3_malloc(len)))
		return false;
	memcpy(m->gen, g, (size_t)len);
	m->gen_len = len;
	return true;
}

/* The entry kept for match, a new one when create (replacing the oldest),
 * or NULL. */
static struct kept *memo_kept(struct search_memo *m, const char *match,
                              bool create)
{
	struct kept *k;

	if (!match || strlen(match) > KEPT_MATCH_MAX)
		return NULL;
	for (int i = 0; i < KEPT_MAX; i++)
		if (m->kept[i].match && strcmp(m->kept[i].match, match) == 0)
			return &m->kept[i];
	if (!create)
		return NULL;
	k = &m->kept[m->next];
	m->next = (m->next + 1) % KEPT_MAX;
	kept_clear(k);
	if (!(k->match = sqlite3_mprintf("%s", match)))
		return NULL;
	k->matches = -1;
	return k;
}

/*
 * heed_bm25(search_fts, match, generation, filter_phrases, weight...):
 * FTS5's bm25() (fts5_aux.c, the same formula and the same order of
 * operations, so the same doubles: test_rank_is_bm25), with each phrase's
 * document frequency kept in the connection's memo for match at
 * generation instead of counted again by every statement, and without the
 * last filter_phrases phrases of the expression, which are a filter's
 * (tag_in_fts), not words of the search. FTS5 offers no way to hand bm25
 * a count it already knows, hence this copy of its twenty lines.
 */
struct rank_data {
	int nphrase;
	double avgdl;
	double *idf;  /* per phrase */
	double *freq; /* per phrase, the current row's, scratch */
};

static int count_row(const Fts5ExtensionApi *api, Fts5Context *fts, void *ud)
{
	(void)api;
	(void)fts;
	(*(int64_t *)ud)++;
	return SQLITE_OK;
}

/* Each phrase's document frequency into df[nphrase]: kept, or counted
 * by FTS5 and kept. */
static int phrase_dfs(const Fts5ExtensionApi *api, Fts5Context *fts,
                      struct search_memo *m, sqlite3_value **args, int64_t *df,
                      int nphrase)
{
	const char *match = (const char *)sqlite3_value_text(args[0]);
	struct kept *k = memo_at(m, sqlite3_value_blob(args[1]),
	                         sqlite3_value_bytes(args[1]))
	                         ? memo_kept(m, match, true)
	                         : NULL;
	int rc = SQLITE_OK;

	if (k && k->nphrase == nphrase) {
		memcpy(df, k->df, sizeof(*df) * (size_t)nphrase);
		return SQLITE_OK;
	}
	for (int i = 0; i < nphrase && rc == SQLITE_OK; i++) {
		df[i] = 0;
		rc = api->xQueryPhrase(fts, i, &df[i], count_row);
	}
	if (rc == SQLITE_OK && k && !k->df &&
	    (k->df = sqlite3_malloc64(sizeof(*df) * (size_t)nphrase))) {
		memcpy(k->df, df, sizeof(*df) * (size_t)nphrase);
		k->nphrase = nphrase;
	}
	return rc;
}

static int rank_data(const Fts5ExtensionApi *api, Fts5Context *fts,
                     sqlite3_value **args, struct rank_data **out)
{
	struct rank_data *p = api->xGetAuxdata(fts, 0);
	int nphrase = api->xPhraseCount(fts) - sqlite3_value_int(args[2]);
	sqlite3_int64 rows = 0, tokens = 0;
	int64_t *df;
	int rc;

	*out = p;
	if (p)
		return SQLITE_OK;
	if (nphrase < 0)
		return SQLITE_ERROR;
	p = sqlite3_malloc64(sizeof(*p) +
	                     (sizeof(double) * 2 + sizeof(int64_t)) *
	                             (size_t)nphrase);
	if (!p)
		return SQLITE_NOMEM;
	((struct search_memo *)api->xUserData(fts))->scored = 0;
	p->nphrase = nphrase;
	p->idf = (double *)&p[1];
	p->freq = &p->idf[nphrase];
	df = (int64_t *)&p->freq[nphrase];
	rc = api->xRowCount(fts, &rows);
	if (rc == SQLITE_OK)
		rc = api->xColumnTotalSize(fts, -1, &tokens);
	if (rc == SQLITE_OK)
		p->avgdl = (double)tokens / (double)rows;
	if (rc == SQLITE_OK)
		rc = phrase_dfs(api, fts, api->xUserData(fts), args, df,
		                nphrase);
	for (int i = 0; rc == SQLITE_OK && i < nphrase; i++) {
		/* bm25's floor for a phrase in more than half the rows. */
		double idf = log((rows - df[i] + 0.5) / (df[i] + 0.5));
		p->idf[i] = idf <= 0.0 ? 1e-6 : idf;
	}
	if (rc == SQLITE_OK)
		rc = api->xSetAuxdata(fts, p, sqlite3_free);
	else
		sqlite3_free(p);
	*out = rc == SQLITE_OK ? p : NULL;
	return rc;
}

static void rank_fn(const Fts5ExtensionApi *api, Fts5Context *fts,
                    sqlite3_context *ctx, int nargs, sqlite3_value **args)
{
	const double k1 = 1.2, b = 0.75;
	struct rank_data *p = NULL;
	double score = 0.0, d = 0.0;
	int ninst = 0, rc = SQLITE_OK;

	if (nargs < 3) {
		sqlite3_result_error(
		        ctx, "heed_bm25: match, generation, filter phrases",
		        -1);
		return;
	}
	rc = rank_data(api, fts, args, &p);
	if (rc == SQLITE_OK) {
		memset(p->freq, 0, sizeof(double) * (size_t)p->nphrase);
		rc = api->xInstCount(fts, &ninst);
	}
	for (int i = 0; rc == SQLITE_OK && i < ninst; i++) {
		int ip, ic, io;
		rc = api->xInst(fts, i, &ip, &ic, &io);
		if (rc == SQLITE_OK && ip < p->nphrase)
			p->freq[ip] +=
			        nargs - 3 > ic
			                ? sqlite3_value_double(args[3 + ic])
			                : 1.0;
	}
	if (rc == SQLITE_OK) {
		int tokens;
		rc = api->xColumnSize(fts, -1, &tokens);
		d = (double)tokens;
	}
	for (int i = 0; rc == SQLITE_OK && i < p->nphrase; i++)
		score += p->idf[i] *
		         ((p->freq[i] * (k1 + 1.0)) /
		          (p->freq[i] + k1 * (1 - b + b * d / p->avgdl)));
	if (rc == SQLITE_OK) {
		((struct search_memo *)api->xUserData(fts))->scored++;
		sqlite3_result_double(ctx, -1.0 * score);
	} else {
		sqlite3_result_error_code(ctx, rc);
	}
}

/* heed_search_memo(): the connection's memo, as a pointer value that
 * only the C side can read (search_memo). */
static void memo_fn(sqlite3_context *ctx, int nargs, sqlite3_value **args)
{
	(void)nargs;
	(void)args;
	sqlite3_result_pointer(ctx, sqlite3_user_data(ctx), "heed_search_memo",
	                       NULL);
}

/* The memo and the functions that read it; the rank function owns it
 * (FTS5 frees it when the connection closes). */
static int register_memo(sqlite3 *db, fts5_api *fts)
{
	struct search_memo *m = sqlite3_malloc(sizeof(*m));

	if (!m)
		return SQLITE_NOMEM;
	memset(m, 0, sizeof(*m));
	if (fts->xCreateFunction(fts, "heed_bm25", m, rank_fn, memo_free) !=
	    SQLITE_OK) {
		memo_free(m);
		return SQLITE_ERROR;
	}
	return sqlite3_create_function(db, "heed_search_memo", 0,
	                               SQLITE_UTF8 | SQLITE_DIRECTONLY, m,
	                               memo_fn, NULL, NULL);
}

int heed__sqlite_search_register(sqlite3 *db)
{
	static fts5_tokenizer gram = {gram_create, gram_delete, gram_tokenize};
	fts5_api *fts = NULL;
	sqlite3_stmt *st = NULL;

	/* FTS5 hands its API over as a pointer value of this type. */
	if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &st, NULL) !=
	    SQLITE_OK)
		return SQLITE_ERROR;
	sqlite3_bind_pointer(st, 1, (void *)&fts, "fts5_api_ptr", NULL);
	sqlite3_step(st);
	sqlite3_finalize(st);
	if (!fts)
		return SQLITE_ERROR;
	if (fts->xCreateTokenizer(fts, "heed", fts, &gram, NULL) != SQLITE_OK)
		return SQLITE_ERROR;
	return register_memo(db, fts);
}

/* A page's record when it is JSON, else NULL: a record that is not JSON
 * indexes as empty instead of failing the write (or the take-down) of its
 * page. */
#define RECORD "CASE WHEN json_valid(p.record) THEN p.record END"

/* A page's tags that are non-empty strings, as rows j of json_each. */
#define TAG_VALUE "json_extract(j.value, '$.value')"
#define TAG_ROWS                                                         \
	"json_each(" RECORD ", '$.tags') j WHERE j.type = 'object' AND " \
	"typeof(" TAG_VALUE ") = 'text' AND " TAG_VALUE " <> ''"

/*
 * The views search_docs (what FTS5 indexes of a page: title, description,
 * tags joined by spaces, site name and host) and search_tags (its tags)
 * are the one place these values are computed. The triggers read them by
 * id: the FTS5 'delete' of an external content table must be given
 * exactly the values that were indexed, so the old values are read before
 * the row changes (BEFORE DELETE / UPDATE) and the new ones after.
 */
#define DOCS_VIEW                                                            \
	"CREATE VIEW search_docs AS SELECT p.id AS id, p.title AS title, "   \
	"json_extract(" RECORD ", '$.description.value') AS description, "   \
	"(SELECT group_concat(" TAG_VALUE ", ' ') FROM " TAG_ROWS            \
	") AS tags, coalesce(json_extract(" RECORD ", '$.site_name.value') " \
	"|| ' ', '') || p.host AS site FROM pages p;"
/*
 * What the index holds of a description: what may be shown of it
 * (docs/serve.md, "What may be shown"), so that a withheld word is not
 * findable either. The crawl stores the number of characters in the
 * permissions (search.description_chars, src/crawl/permissions_json.c).
 * Permissions stored before that hold the description only when nothing
 * withholds or cuts a snippet.
 */
#define DESC_PERMS      "CASE WHEN json_valid(p.permissions) THEN p.permissions END"
#define DESC_KEPT(path) "json_extract(" DESC_PERMS ", '$." path "')"
#define DESC_VALUE      "json_extract(" RECORD ", '$.description.value')"
#define DESC_CHARS      DESC_KEPT("search.description_chars")
#define SNIPPET         "acap.\"present-snippet\"."
/* A kept permission's test, and the AND to the next. */
#define KEPT_IS(path, test) DESC_KEPT(path) " IS " test " AND "
/* Permissions stored before the number of characters was: the whole
 * description when nothing withholds or cuts a snippet. (Laid out by
 * hand: clang-format breaks a chain of macro calls mid-argument.) */
/* clang-format off */
#define DESC_WHOLE                                   \
	DESC_PERMS " IS NOT NULL AND "               \
	KEPT_IS("meta_robots.nosnippet", "NOT 1")    \
	KEPT_IS("meta_robots.max_snippet", "NULL")   \
	KEPT_IS("acap.present.permitted", "NOT 0")   \
	KEPT_IS(SNIPPET "permitted", "NOT 0")        \
	KEPT_IS(SNIPPET "max_length", "NULL")        \
	DESC_KEPT(SNIPPET "expires") " IS NULL"
/* clang-format on */
#define INDEXED_DESCRIPTION                                                    \
	"CASE WHEN typeof(" DESC_CHARS ") = 'integer' THEN substr(" DESC_VALUE \
	", 1, " DESC_CHARS ") WHEN " DESC_WHOLE " THEN " DESC_VALUE " END"
#define DOCS_COLUMNS_V4                                                 \
	"SELECT p.id AS id, p.title AS title, " INDEXED_DESCRIPTION     \
	" AS description, (SELECT group_concat(" TAG_VALUE              \
	", ' ') FROM " TAG_ROWS ") AS tags, coalesce("                  \
	"json_extract(" RECORD ", '$.site_name.value') || ' ', '') || " \
	"p.host AS site"
#define DOCS_VIEW_V4 \
	"CREATE VIEW search_docs AS " DOCS_COLUMNS_V4 " FROM pages p;"
/* Version 5's: with the host, which search_text keeps for the counts. */
#define DOCS_VIEW_V5                                                      \
	"CREATE VIEW search_docs AS " DOCS_COLUMNS_V4 ", p.host AS host " \
	"FROM pages p;"
#define TAGS_VIEW                                                          \
	"CREATE VIEW search_tags AS SELECT " TAG_VALUE " AS tag, p.id AS " \
	"page_id FROM pages p, " TAG_ROWS ";"

#define FTS_COLUMNS "rowid, title, description, tags, site"
#define DOC_INSERT                                                    \
	"INSERT INTO search_fts(" FTS_COLUMNS ") SELECT id, title, "  \
	"description, tags, site FROM search_docs WHERE id = new.id;" \
	"INSERT OR IGNORE INTO page_tags(tag, page_id) SELECT tag, "  \
	"page_id FROM search_tags WHERE page_id = new.id;"
#define DOC_INSERT_V2                                                 \
	"INSERT INTO search_fts(" FTS_COLUMNS ") SELECT id, title, "  \
	"description, tags, site FROM search_docs WHERE id = new.id;" \
	"INSERT INTO page_tags(tag, page_id) SELECT DISTINCT tag, "   \
	"page_id FROM search_tags WHERE page_id = new.id;"
#define DOC_DELETE                                                       \
	"INSERT INTO search_fts(search_fts, " FTS_COLUMNS ") SELECT "    \
	"'delete', id, title, description, tags, site FROM search_docs " \
	"WHERE id = old.id; DELETE FROM page_tags WHERE page_id = old.id;"
/* Only a change of what is indexed costs FTS work: not a 304
 * (checked_at), not a re-fetch that found the same record. */
#define DOC_CHANGED                                                     \
	"UPDATE OF title, record, host ON pages WHEN old.title IS NOT " \
	"new.title OR old.record IS NOT new.record OR old.host IS NOT " \
	"new.host"

/* Every page's text and tags, for the migration and the reindex. Not
 * FTS5's 'rebuild': over this view SQLite 3.40's rebuild fails with "SQL
 * logic error" when pages is empty. */
#define FTS_ALL                                                      \
	"INSERT INTO search_fts(" FTS_COLUMNS ") SELECT id, title, " \
	"description, tags, site FROM search_docs;"
#define TAGS_ALL                                                       \
	"INSERT OR IGNORE INTO page_tags(tag, page_id) SELECT * FROM " \
	"search_tags;"

/* Sort keys, ascending (heed_store_search orders by key, then id): the
 * DESC orders are negated so one keyset condition serves every sort. The
 * indexes pages_search_* (the migration) hold the same expressions, so a
 * sort without a match reads an index in order and stops after limit + 1
 * shown rows. */
#define KEY_VIEWS   "(-coalesce(p.views, -1))"
#define KEY_DATE    "coalesce(-unixepoch(p.published), 9223372036854775807)"
#define KEY_FETCHED "(-p.fetched_at)"

/*
 * Version 2: aggregates, so that the pages people open most (home, /tags,
 * /sites, a site's top tags) cost what they list, not what the store
 * holds. Whether a page is listed apart from the time (LISTED: status
 * 2xx, ACAP index and present not refused) and its earliest time limit
 * (HIDDEN_FROM: ACAP index or present expires, unavailable_after) are
 * functions of its row alone, so triggers keep, in the transaction that
 * writes the page:
 *
 * - search_listed: the listed pages, with their time limit as
 *   hidden_from (NULL: none; a timed page, rare, is shown at now while
 *   hidden_from > now, and keeps its host here).
 * - search_host_counts, search_tag_counts, search_host_tag_counts: how
 *   many listed pages WITHOUT a time limit each host, tag and (host, tag)
 *   has; a row is deleted when its count falls to 0.
 *
 * A query adds to the counts the timed pages whose limit is still ahead
 * (a range of search_listed's partial index, joined with page_tags):
 * exact at any time, and a limit that has passed costs nothing more,
 * however many have. The full-text triggers keep the counts too, so that
 * a page's tags are read from page_tags in a known order (after it is
 * written, before it is deleted) rather than parsed from the record
 * again, and its permissions are parsed once, into search_listed, which
 * the other statements look up.
 */
#define ROW_NEW                                                          \
	"(SELECT new.id AS id, new.host AS host, new.status AS status, " \
	"new.permissions AS permissions) r"
#define PERMS "CASE WHEN json_valid(r.permissions) THEN r.permissions END"
/* The usage that lists a page: present-link, or present in permissions
 * stored before present-link was (src/common/permit.c). */
#define LINK_USAGE(perms, member)                                           \
	"coalesce(json_extract(" perms ", '$.acap.\"present-link\"." member \
	"'), json_extract(" perms ", '$.acap.present." member "'))"
#define LISTED                                                       \
	"(r.status BETWEEN 200 AND 299 AND json_extract(" PERMS ", " \
	"'$.acap.index.permitted') IS NOT 0 AND " LINK_USAGE(        \
	        PERMS, "permitted") " IS NOT 0)"
/* The smallest of the three limits present (min ignores NULL). A limit
 * that is not a number compares above any time, here as in SHOWN. */
#define HIDDEN_FROM                                                        \
	"(SELECT min(value) FROM json_each(json_array(json_extract(" PERMS \
	", '$.acap.index.expires'), " LINK_USAGE(                          \
	        PERMS, "expires") ", "                                     \
	                          "json_extract(" PERMS                    \
	                          ", '$.meta_robots.unavailable_after'))))"
/* Whether page new.id / old.id is listed and has no time limit: one
 * lookup, the permissions being read once per trigger, by the first
 * statement of AGG_ADD. */
#define UNTIMED_NEW                                                      \
	"EXISTS(SELECT 1 FROM search_listed WHERE page_id = new.id AND " \
	"hidden_from IS NULL)"
#define UNTIMED_OLD                                                      \
	"EXISTS(SELECT 1 FROM search_listed WHERE page_id = old.id AND " \
	"hidden_from IS NULL)"
/* The page's tags are page_tags, which the same trigger keeps (written
 * before AGG_ADD, deleted after AGG_SUB), so a record is not parsed
 * again. The host of an untimed page is not kept: the counts have it. */
#define LISTED_ROWS_OF(cols, values, from)                                 \
	"INSERT INTO search_listed(page_id, host, hidden_from" cols        \
	") SELECT id, iif(h IS NULL, NULL, host), h" cols " FROM (SELECT " \
	"r.id AS id, r.host AS host, " HIDDEN_FROM " AS h" values          \
	" FROM " from " WHERE " LISTED ");"
#define LISTED_ROWS(from) LISTED_ROWS_OF("", "", from)
/* The time a page's freshness counts from (docs/serve.md, "Ranking"):
 * its published date, else its fetch. */
#define PAGE_AT(p) "coalesce(unixepoch(" p ".published), " p ".fetched_at)"
/* Version 7's rows: with the page's sort keys, so that scoring a match
 * reads this row and not the page's. */
#define LISTED_ROWS_V7(from)          \
	LISTED_ROWS_OF(", views, at", \
	               ", r.views AS views, " PAGE_AT("r") " AS at", from)
#define AGG_ADD                                                           \
	LISTED_ROWS(ROW_NEW)                                              \
	"INSERT INTO search_host_counts(host, pages) SELECT new.host, 1 " \
	"WHERE " UNTIMED_NEW " ON CONFLICT(host) DO UPDATE SET pages = "  \
	"pages + 1;"                                                      \
	"INSERT INTO search_tag_counts(tag, pages) SELECT tag, 1 FROM "   \
	"page_tags WHERE page_id = new.id AND " UNTIMED_NEW " ON "        \
	"CONFLICT(tag) DO UPDATE SET pages = pages + 1;"                  \
	"INSERT INTO search_host_tag_counts(host, tag, pages) SELECT "    \
	"new.host, tag, 1 FROM page_tags WHERE page_id = new.id "         \
	"AND " UNTIMED_NEW                                                \
	" ON CONFLICT(host, tag) DO UPDATE SET pages = pages + 1;"
#define OLD_TAGS "(SELECT tag FROM page_tags WHERE page_id = old.id)"
#define AGG_SUB                                                               \
	"UPDATE search_host_counts SET pages = pages - 1 WHERE host = "       \
	"old.host AND " UNTIMED_OLD ";"                                       \
	"UPDATE search_tag_counts SET pages = pages - 1 WHERE tag "           \
	"IN " OLD_TAGS " AND " UNTIMED_OLD ";"                                \
	"UPDATE search_host_tag_counts SET pages = pages - 1 WHERE host = "   \
	"old.host AND tag IN " OLD_TAGS " AND " UNTIMED_OLD ";"               \
	"DELETE FROM search_host_counts WHERE host = old.host AND pages <= "  \
	"0;"                                                                  \
	"DELETE FROM search_tag_counts WHERE pages <= 0 AND tag IN " OLD_TAGS \
	";"                                                                   \
	"DELETE FROM search_host_tag_counts WHERE host = old.host AND "       \
	"pages <= 0 AND tag IN " OLD_TAGS ";"                                 \
	"DELETE FROM search_listed WHERE page_id = old.id;"
/* What changes what a page adds to the index or the counts: not a 304
 * (checked_at), not a re-fetch that found the same record and
 * permissions. */
#define PAGE_CHANGED                                                        \
	"UPDATE OF title, record, host, status, permissions ON pages WHEN " \
	"old.title IS NOT new.title OR old.record IS NOT new.record OR "    \
	"old.host IS NOT new.host OR old.status IS NOT new.status OR "      \
	"old.permissions IS NOT new.permissions"
/* The aggregates of every page, from pages and page_tags (filled first):
 * the migration and the reindex. */
#define AGG_ALL    LISTED_ROWS("pages r") AGG_COUNTS_ALL
#define AGG_ALL_V7 LISTED_ROWS_V7("pages r") AGG_COUNTS_ALL
#define AGG_COUNTS_ALL                                                         \
	"INSERT INTO search_host_counts(host, pages) SELECT p.host, count(*) " \
	"FROM search_listed l CROSS JOIN pages p ON p.id = l.page_id WHERE "   \
	"l.hidden_from IS NULL GROUP BY p.host;"                               \
	"INSERT INTO search_tag_counts(tag, pages) SELECT t.tag, count(*) "    \
	"FROM search_listed l CROSS JOIN page_tags t ON t.page_id = "          \
	"l.page_id WHERE l.hidden_from IS NULL GROUP BY t.tag;"                \
	"INSERT INTO search_host_tag_counts(host, tag, pages) SELECT p.host, " \
	"t.tag, count(*) FROM search_listed l CROSS JOIN pages p ON p.id = "   \
	"l.page_id CROSS JOIN page_tags t ON t.page_id = l.page_id WHERE "     \
	"l.hidden_from IS NULL GROUP BY p.host, t.tag;"

/* The triggers of version 2 on: each keeps the index and the counts of
 * one page, in order with page_tags. */
#define TRIGGERS_V2                                                            \
	"CREATE TRIGGER search_pages_ai AFTER INSERT ON pages "                \
	"BEGIN " DOC_INSERT_V2 AGG_ADD " END;"                                 \
	"CREATE TRIGGER search_pages_bd BEFORE DELETE ON pages BEGIN " AGG_SUB \
	        DOC_DELETE " END;"                                             \
	"CREATE TRIGGER search_pages_bu BEFORE " PAGE_CHANGED                  \
	" BEGIN " AGG_SUB DOC_DELETE " END;"                                   \
	"CREATE TRIGGER search_pages_au AFTER " PAGE_CHANGED                   \
	" BEGIN " DOC_INSERT_V2 AGG_ADD " END;"
#define AGG_CLEAR                                                     \
	"DELETE FROM search_listed; DELETE FROM search_host_counts; " \
	"DELETE FROM search_tag_counts; DELETE FROM "                 \
	"search_host_tag_counts;"

/*
 * Version 5: the index off the page's write path (see the top of the
 * file). Three small triggers mark a written page in search_pending, so
 * that no writer can forget to, heed's or a hand-made one (such a writer
 * no longer needs heed's tokenizer either); since version 15 the
 * catch-up's sweep finds inserted rows instead. They mark with NOT EXISTS
 * rather than INSERT OR IGNORE: a re-fetch is an upsert, whose conflict
 * policy SQLite applies to the triggers it fires (version 2's note).
 *
 * search_text holds what the index holds of each page, with the host its
 * counts were added under: by the time a marked page is caught up with,
 * its row may have changed or gone, and FTS5 must be told exactly the old
 * text to forget it.
 */
#define MARK(row)                                                          \
	"INSERT INTO search_pending(page_id) SELECT " row ".id WHERE NOT " \
	"EXISTS (SELECT 1 FROM search_pending WHERE page_id = " row ".id);"
#define MARK_TRIGGERS                                                        \
	"CREATE TRIGGER search_mark_ai AFTER INSERT ON pages BEGIN " MARK(   \
	        "new") " END;"                                               \
	               "CREATE TRIGGER search_mark_au AFTER " PAGE_CHANGED   \
	               " BEGIN " MARK(                                       \
	                       "new") " END;"                                \
	                              "CREATE TRIGGER search_mark_ad AFTER " \
	                              "DELETE ON pages BEGIN " MARK(         \
	                                      "old") " END;"
#define TEXT_COLUMNS "id, title, description, tags, site, host"
#define TEXT_ALL                                                         \
	"INSERT INTO search_text(" TEXT_COLUMNS ") SELECT " TEXT_COLUMNS \
	" FROM search_docs;"
#define FTS_FROM_TEXT                                                \
	"INSERT INTO search_fts(" FTS_COLUMNS ") SELECT id, title, " \
	"description, tags, site FROM search_text;"

/*
 * Version 7: a relevance search scores each of up to 5,000 matches, and
 * reading each one's pages row (a random B-tree lookup of 1 to 2 KB) for
 * its views and date, and its permissions JSON for whether it may be
 * shown, was half of a common word's search. search_listed, already one
 * small row per listed page keyed by id, keeps the two sort keys too:
 * views and at, the time the freshness boost counts from (PAGE_AT). The
 * catch-up writes them with the rest of the row; but views, the
 * published date and, for a page without one, the fetch time change
 * without marking the page (a re-fetch that found the same record), so
 * this trigger keeps them: one update of a row by its key, only when
 * one of them changed, and nothing on an insert (a page is listed by
 * the catch-up).
 */
#define KEYS_TRIGGER                                                         \
	"CREATE TRIGGER search_keys_au AFTER UPDATE OF views, published, "   \
	"fetched_at ON pages WHEN old.views IS NOT new.views OR "            \
	"old.published IS NOT new.published OR (old.fetched_at IS NOT "      \
	"new.fetched_at AND unixepoch(new.published) IS NULL) BEGIN UPDATE " \
	"search_listed SET views = new.views, at = " PAGE_AT(                \
	        "new") " WHERE page_id = new.id; END;"

static const char *const search_migrations[] = {
        DOCS_VIEW TAGS_VIEW
        "CREATE VIRTUAL TABLE search_fts USING fts5(title, description, "
        "tags, site, content='search_docs', content_rowid='id', "
        "tokenize='porter unicode61 remove_diacritics 2');"
        "CREATE TABLE page_tags (tag TEXT NOT NULL, page_id INTEGER NOT "
        "NULL, PRIMARY KEY(tag, page_id)) WITHOUT ROWID;"
        "CREATE INDEX page_tags_page ON page_tags(page_id);"
        "CREATE INDEX pages_search_views ON pages((-coalesce(views, -1)), "
        "id);"
        "CREATE INDEX pages_search_date ON pages(coalesce(-unixepoch("
        "published), 9223372036854775807), id);"
        "CREATE INDEX pages_search_fetched ON pages((-fetched_at), id);"
        "CREATE TRIGGER search_pages_ai AFTER INSERT ON pages BEGIN " DOC_INSERT
        " END;"
        "CREATE TRIGGER search_pages_bd BEFORE DELETE ON pages "
        "BEGIN " DOC_DELETE " END;"
        "CREATE TRIGGER search_pages_bu BEFORE " DOC_CHANGED
        " BEGIN " DOC_DELETE " END;"
        "CREATE TRIGGER search_pages_au AFTER " DOC_CHANGED " BEGIN " DOC_INSERT
        " END;" FTS_ALL TAGS_ALL,
        /* 2: aggregates (above), and an index for a site's newest page. */
        "CREATE TABLE search_listed (page_id INTEGER PRIMARY KEY, host "
        "TEXT, hidden_from);"
        "CREATE INDEX search_listed_timed ON search_listed(hidden_from) "
        "WHERE hidden_from IS NOT NULL;"
        "CREATE TABLE search_host_counts (host TEXT PRIMARY KEY, pages "
        "INTEGER NOT NULL) WITHOUT ROWID;"
        "CREATE TABLE search_tag_counts (tag TEXT PRIMARY KEY, pages "
        "INTEGER NOT NULL) WITHOUT ROWID;"
        "CREATE TABLE search_host_tag_counts (host TEXT NOT NULL, tag TEXT "
        "NOT NULL, pages INTEGER NOT NULL, PRIMARY KEY(host, tag)) WITHOUT "
        "ROWID;"
        "CREATE INDEX pages_search_host_fetched ON pages(host, fetched_at);"
        /* The triggers of version 1, replaced: each keeps the counts
         * too, in order with page_tags. And a re-fetch is an upsert,
         * whose conflict policy SQLite applies to the triggers it fires,
         * so version 1's INSERT OR IGNORE into page_tags failed the write
         * of a page whose changed record repeats a tag: DISTINCT. */
        "DROP TRIGGER search_pages_ai; DROP TRIGGER search_pages_bd;"
        "DROP TRIGGER search_pages_bu; DROP TRIGGER "
        "search_pages_au;" TRIGGERS_V2 AGG_ALL,
        /* 3: prefix indexes of two and three characters. Without them
         * FTS5 answers "kal*" by merging the lists of every word that
         * starts so (dozens, 174,044 pages for kal* at 1,000,000
         * records), three times per search: the scan, bm25's count of
         * the pages that match and the search's count. With them it
         * reads one list, as for a word. Longer prefixes match few words
         * and do without. The table is rebuilt, the triggers are the
         * same (they name it, not its shape). */
        "DROP TABLE search_fts;"
        "CREATE VIRTUAL TABLE search_fts USING fts5(title, description, "
        "tags, site, content='search_docs', content_rowid='id', "
        "tokenize='porter unicode61 remove_diacritics 2', prefix='2 "
        "3');" FTS_ALL,
        /* 4: each thing shown asks its own ACAP usage (present-link
         * lists a page), the index holds only what may be shown of a
         * description, and words of scripts written without spaces are
         * cut into bigrams by the tokenizer "heed" (above), so that a
         * Chinese, Japanese, Korean or Thai word is found inside a run.
         * The view, the listing rule in the triggers and everything
         * computed from them are made again. */
        "DROP TRIGGER search_pages_ai; DROP TRIGGER search_pages_bd;"
        "DROP TRIGGER search_pages_bu; DROP TRIGGER search_pages_au;"
        "DROP TABLE search_fts; DROP VIEW search_docs;" DOCS_VIEW_V4
        "CREATE VIRTUAL TABLE search_fts USING fts5(title, description, "
        "tags, site, content='search_docs', content_rowid='id', "
        "tokenize='heed porter unicode61 remove_diacritics 2', "
        "prefix='2 3');" TRIGGERS_V2 FTS_ALL AGG_CLEAR AGG_ALL,
        /* 5: the index off the page's write path (above). page_tags,
         * search_listed and the counts are those version 4 kept. */
        "DROP TRIGGER search_pages_ai; DROP TRIGGER search_pages_bd;"
        "DROP TRIGGER search_pages_bu; DROP TRIGGER search_pages_au;"
        "DROP TABLE search_fts; DROP VIEW search_docs;" DOCS_VIEW_V5
        "CREATE TABLE search_pending (page_id INTEGER PRIMARY KEY);"
        "CREATE TABLE search_text (id INTEGER PRIMARY KEY, title, "
        "description, tags, site, host TEXT);" TEXT_ALL
        "CREATE VIRTUAL TABLE search_fts USING fts5(title, description, "
        "tags, site, content='search_text', content_rowid='id', "
        "tokenize='heed porter unicode61 remove_diacritics 2', "
        "prefix='2 3');" FTS_FROM_TEXT MARK_TRIGGERS,
        /* 6: PostgreSQL's reading of dates made faster; SQLite reads
         * them with its own unixepoch(). */
        "SELECT 1;",
        /* 7: the sort keys beside the listing (KEYS_TRIGGER above). */
        "ALTER TABLE search_listed ADD COLUMN views INTEGER;"
        "ALTER TABLE search_listed ADD COLUMN at INTEGER;"
        "UPDATE search_listed SET views = p.views, at = " PAGE_AT(
                "p") " FROM pages p WHERE p.id = "
                     "search_listed.page_id;" KEYS_TRIGGER,
        /* 8: PostgreSQL's index drops its foreign keys to pages, whose
         * deletes SQLite has marked for the catch-up since version 5. */
        "SELECT 1;",
        /* 9: the tokenizer "heed" also indexes word pairs (above), so a
         * phrase of frequent words reads one list; the index is made
         * again from search_text with them. */
        "INSERT INTO search_fts(search_fts) VALUES('rebuild');",
        /* 10: PostgreSQL's index keeps the sort keys beside the listing,
         * as search_listed has since version 7. */
        "SELECT 1;",
        /* 11: a site's pages by fetch date from the pages area's
         * pages_host_fetched (its version 3), the same index: a page's
         * row wrote both. */
        "DROP INDEX pages_search_host_fetched;",
        /* 12: FTS5 merges a level's segments once it holds 8 of them, not
         * its default 4. Each flush of new rows pays merge work in
         * proportion to the index's levels, and the catch-up flushes a
         * set every few seconds, so on a store that already held a large
         * index the crawl paid for merging it page by page: crawling into
         * 1,000,000 records, the merges wrote more WAL than any table
         * (docs/performance.md). A search reads at most 7 segments a
         * level instead of 3, over fewer levels. */
        "INSERT INTO search_fts(search_fts, rank) VALUES('automerge', 8);",
        /* 13: PostgreSQL's statistics keep more of the index's lexemes,
         * for its estimates of prefixes. */
        "SELECT 1;",
        /* 14: FTS5 gathers 16 MiB of new tokens in memory before it
         * writes them as a segment, not its default 1 MiB. A catch-up
         * indexes the pages of a few seconds of crawling in one
         * statement, several MiB of tokens with the pairs and prefixes:
         * with 1 MiB each catch-up wrote several small segments, and the
         * crawl paid again to merge them (docs/performance.md). The
         * memory is the writer's, for the length of one statement. */
        ("INSERT INTO search_fts(search_fts, rank) VALUES('hashsize', "
         "16777216);"),
        /* 15: the pages inserted since the last catch-up are found by
         * their ids (sweep_sql below), not marked by a trigger. SQLite
         * runs a trigger's program for each row, and a trigger on pages,
         * even one that does nothing, cost the insert of a crawled page
         * a third of its time (docs/performance.md). The highest page id a
         * catch-up has looked at is kept, and ids only grow past it: a
         * new row takes the highest id plus one, and one that reuses the
         * id of a deleted last row was marked by that delete. Changes
         * and deletes keep their triggers (a change is marked only when
         * an indexed column changed; a deleted row leaves no id to
         * find). Every page there is now was marked on its insert. */
        ("DROP TRIGGER search_mark_ai;"
         "CREATE TABLE search_swept (one INTEGER PRIMARY KEY CHECK (one = "
         "1), max_id INTEGER NOT NULL);"
         "INSERT INTO search_swept(one, max_id) SELECT 1, coalesce(max(id), "
         "0) FROM pages;"),
        /* 16: PostgreSQL's index holds each page's id's ranges, to read
         * a common word's newest matches alone. Nothing here: FTS5 reads
         * a word's pages newest first already. */
        "SELECT 1;",
};

const struct heed_store_area heed__store_search_area = {
        "search",
        search_migrations,
        (int)HEED_ARRAY_SIZE(search_migrations),
};

/*
 * The visibility rule (store_search.h, docs/serve.md), the one place it is
 * written: a page of alias p may be listed at ?1 (now, Unix s) when its
 * status is 2xx, ACAP neither refused index nor present, none of their
 * time limits and no unavailable_after has passed. json_extract gives 0
 * for JSON false. Permissions that are not JSON hide nothing here (the
 * renderer then shows no snippet and no thumbnail).
 */
#define PERM "json_extract(p.permissions, '$."
#define SHOWN                                                              \
	"(p.status BETWEEN 200 AND 299 AND (p.permissions IS NULL OR "     \
	"NOT json_valid(p.permissions) OR (" PERM                          \
	"acap.index.permitted') IS NOT 0 AND " LINK_USAGE(                 \
	        "p.permissions",                                           \
	        "permitted") " IS NOT 0 AND "                              \
	                     "coalesce(" PERM                              \
	                     "acap.index.expires') > ?1, 1) AND "          \
	                     "coalesce(" LINK_USAGE(                       \
	                             "p.permissions",                      \
	                             "expires") " > ?1, 1) AND "           \
	                                        "coalesce(" PERM           \
	                                        "meta_robots.unavailable_" \
	                                        "after') > ?1, 1))))"

#define PAGE_COLUMNS                                                           \
	"p.url, p.final_url, p.host, p.status, p.fetched_at, p.checked_at, "   \
	"p.title, p.views, p.published, p.modified, p.etag, p.last_modified, " \
	"p.source_lastmod, p.permissions, p.mode, p.record"

/* Relevance (docs/serve.md, "Ranking"): bm25 weighted by column, less a
 * views boost and a freshness boost; lower is better. Age counts from the
 * start of the query's UTC day, not its second: a score that moved
 * between two pages of one search would let its cursor repeat or skip a
 * row. */
#define SCORE_OF(views, at)                                               \
	"(heed_bm25(search_fts, ?2, " GEN_SQL ", ?14, 10.0, 4.0, 6.0, "   \
	"2.0) - "                                                         \
	"0.4 * log10(1 + "                                                \
	"max(coalesce(" views ", 0), 0)) - 1.0 / (1 + max((?1 / 86400 * " \
	"86400) - " at ", 0) / 86400.0 / 30.0))"
#define KEY_SCORE SCORE_OF("p.views", PAGE_AT("p"))
/* The same from a page's search_listed row l (version 7). */
#define LISTED_SCORE SCORE_OF("l.views", "l.at")

/* The filters that never pick an index: NULL filters nothing. The
 * language matches a prefix up to '-' without case ("en": "en", "en-GB",
 * not "eng"). */
#define LANG "lower(json_extract(" RECORD ", '$.language.value'))"
#define POST_FILTERS                                                       \
	" AND (?5 IS NULL OR " LANG " = lower(?5) OR substr(" LANG ", 1, " \
	"length(?5) + 1) = lower(?5) || '-')"                              \
	" AND (?6 IS NULL OR unixepoch(p.published) >= ?6)"                \
	" AND (?7 IS NULL OR unixepoch(p.published) <= ?7)"                \
	" AND (?8 IS NULL OR p.views >= ?8)"                               \
	" AND (?9 IS NULL OR p.views <= ?9)"

/* Parameters: ?1 now, ?2 match, ?3 host, ?4 tag, ?5 language, ?6 ?7
 * published range, ?8 ?9 views range, ?10 ?11 the cursor (key, id), ?12
 * limit, ?13 how many matches a relevance search scores, ?14 how many
 * phrases at the end of ?2 are the tag's (tag_in_fts), not the words'. */
enum {
	P_NOW = 1,
	P_MATCH,
	P_HOST,
	P_TAG,
	P_LANG,
	P_FROM,
	P_TO,
	P_VMIN,
	P_VMAX,
	P_KEY,
	P_ID,
	P_LIMIT,
	P_SCORED,
	P_FILTER_PHRASES
};

static const char *sort_key(heed_search_sort sort)
{
	switch (sort) {
	case HEED_SEARCH_SORT_RELEVANCE:
		return KEY_SCORE;
	case HEED_SEARCH_SORT_VIEWS:
		return KEY_VIEWS;
	case HEED_SEARCH_SORT_DATE:
		return KEY_DATE;
	case HEED_SEARCH_SORT_FETCHED:
	default:
		return KEY_FETCHED;
	}
}

/*
 * The text of a search: one of a few fixed variants (kept prepared by
 * heed__sqlite_prepare), chosen by what drives the scan. A match reads the
 * FTS5 index first (CROSS JOIN keeps that order), a tag reads page_tags
 * first, a host lets the planner use pages_host_fetched; without them the
 * sort's own index is read in order. The rows are chosen by id and key alone
 * and their columns read after, so sorting thousands of matches never
 * copies their records into the sorter. Count queries (count set) wrap
 * the rows in count(*) up to ?12.
 */
#define MATCHED                                                            \
	"(SELECT rowid AS fid FROM search_fts WHERE search_fts MATCH ?2) " \
	"f CROSS JOIN pages p ON p.id = f.fid"
#define TAG_EXISTS                                                          \
	" AND EXISTS(SELECT 1 FROM page_tags WHERE tag = ?4 AND page_id = " \
	"p.id)"

/*
 * The tag and site filters checked on a match's id, before its page row
 * is read (HEED_SEARCH_PLAN_FILTER_FIRST): a lookup in page_tags' key,
 * and membership in the site's ids, listed once per statement from
 * pages_host_fetched (the unary + keeps SQLite from handing that
 * list to FTS5 as rowids to seek one by one). Reading a match's page row
 * and its permissions costs about 2 us; these checks 0.2 to 0.4 us, so a
 * selective filter over a common word costs a fifth of what it did
 * (docs/performance.md).
 */
#define FTS_TAG                                                             \
	" AND EXISTS(SELECT 1 FROM page_tags WHERE tag = ?4 AND page_id = " \
	"search_fts.rowid)"
#define FTS_HOST \
	" AND +search_fts.rowid IN (SELECT id FROM pages WHERE host = ?3)"
/* The tag as the site is: its pages listed once per statement, read in
 * order from page_tags' key, each match then a probe of that list rather
 * than a lookup in page_tags, whose key begins with text: a word with a
 * tag filter took half the time at 1,000,000 records (docs/performance.md).
 * Chosen by the default plan for a tag of at most TAG_LIST_MAX pages, so
 * that a huge tag with a rare word does not pay for listing the tag
 * (tag_list_pays). */
#define FTS_TAG_LIST                                                      \
	" AND +search_fts.rowid IN (SELECT page_id FROM page_tags WHERE " \
	"tag = ?4)"
#define TAG_LIST_MAX 50000

/*
 * A tag's words are indexed too, in search_fts' tags column, so FTS5 can
 * intersect the matches with the pages whose tags hold those words
 * ("(words) AND tags : "tag""), reading the two lists side by side
 * instead of checking each match against page_tags: a word of 22,778
 * matches with a tag of 83,752 pages, 2,034 passing, 23 ms of checks
 * became 6 ms (docs/performance.md). The words are a superset of the
 * tag (stems, a tag of several words, the words of other tags), so the
 * exact check stays, on what FTS5 let through. A tag with no ASCII letter
 * or digit may have no word at all for the tokenizer (only symbols), an
 * empty phrase that matches nothing: it is checked as before. The tag's
 * phrase comes last in the expression, and the score leaves it out
 * (heed_bm25's filter_phrases), so the rows and their order are those of
 * the words alone. The default plan only, so that the others stay a
 * reference for it (test_plans_agree).
 */
static bool tag_in_fts(const char *tag)
{
	for (const char *c = tag; c && *c; c++)
		if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		    (*c >= '0' && *c <= '9'))
			return true;
	return false;
}

/*
 * SHOWN of a page l of search_listed, which the catch-up keeps from the
 * same permissions (LISTED, HIDDEN_FROM: a page is listed apart from the
 * time, and shown while its earliest limit is ahead). A search or a count
 * of matches without a filter on the page row reads this small row
 * instead of the page's (0.3 us instead of 2 us a match,
 * docs/performance.md). It is as of the last catch-up, so the rows a
 * search returns are checked with SHOWN on their pages rows too: a page
 * whose permissions changed since is never shown.
 */
#define LISTED_AT "(l.hidden_from IS NULL OR l.hidden_from > ?1)"

/* What a search's plan does (heed_search_plan), once decided. */
struct plan {
	bool filter_first; /* tag and site checked on the match's id */
	bool walk;         /* the sort's index drives (sort_index) */
	bool listed;       /* matches read search_listed, not pages */
	bool tag_list;     /* the tag's pages listed once (FTS_TAG_LIST) */
	bool tag_in_fts;   /* the tag's words ANDed to the match (tag_in_fts) */
};

/* The expression a statement of q matches with under plan: q's words, and
 * the tag's when plan.tag_in_fts; sqlite3_free it (NULL: no memory). */
static char *plan_match(const struct heed_search_query *q, struct plan plan)
{
	if (plan.tag_in_fts)
		return sqlite3_mprintf("(%s) AND tags : \"%w\"", q->match,
		                       q->tag);
	return sqlite3_mprintf("%s", q->match ? q->match : "");
}

/* The tag and site conditions of q, where the plan checks them: on the
 * match (pre, right after the MATCH) or on the page row (post). */
static void filter_terms(const struct heed_search_query *q, bool match,
                         struct plan plan, char *pre, size_t pre_size,
                         char *post, size_t post_size)
{
	bool first = match && plan.filter_first;

	snprintf(pre, pre_size, "%s%s",
	         !first || !q->tag ? ""
	         : plan.tag_list   ? FTS_TAG_LIST
	                           : FTS_TAG,
	         first && q->host ? FTS_HOST : "");
	snprintf(post, post_size, "%s%s%s",
	         !match && q->tag ? " AND t.tag = ?4" : "",
	         match && !first && q->tag ? TAG_EXISTS : "",
	         !first && q->host ? " AND p.host = ?3" : "");
}

/*
 * A relevance search scores at most ?13 matches (HEED_SEARCH_MAX_SCORED):
 * the newest, read from FTS5 in rowid (page id) DESC order, which FTS5
 * gives without sorting; the LIMIT stops the scan, and bm25 is computed
 * only for the rows that pass the filters, since SQLite computes a result
 * column after the WHERE. The candidates are then ordered by score and
 * the cursor resumes within them, so the pages of one search are cut from
 * the same candidate set. Each row also says the generation of the index
 * the candidates were read from; heed_bm25 counts them as it scores each
 * once, and fewer than ?13 are every match that may be listed, which is
 * the search's count (search_complete). Counted so rather than by a
 * window over the candidates, which materialized them again: 7 ms more
 * CPU for a common word (docs/performance.md).
 */
static void relevance_sql(char *buf, size_t size,
                          const struct heed_search_query *q, struct plan plan)
{
	const char *after = q->after.id > 0 ? " WHERE c.k >= ?10 AND (c.k > "
	                                      "?10 OR c.fid > ?11)"
	                                    : "";
	char pre[256], post[256], shown[2048];

	filter_terms(q, true, plan, pre, sizeof(pre), post, sizeof(post));
	/* Whether a match may be shown is read from its search_listed row
	 * (plan.listed; the rows returned are then checked on their pages
	 * rows too) or from its pages row, with the filters on it. */
	if (plan.listed)
		snprintf(shown, sizeof(shown), "%s", LISTED_AT);
	else
		snprintf(shown, sizeof(shown), SHOWN "%s" POST_FILTERS, post);
	snprintf(buf, size,
	         "SELECT p.id, " PAGE_COLUMNS ", s.k, " GEN_SQL
	         " FROM (SELECT c.fid AS sid, c.k AS k FROM (SELECT "
	         "search_fts.rowid AS fid, %s AS k FROM search_fts CROSS JOIN "
	         "%s = search_fts.rowid WHERE search_fts MATCH ?2%s AND %s "
	         "ORDER BY search_fts.rowid DESC LIMIT ?13) c%s ORDER BY c.k, "
	         "c.fid LIMIT ?12) s CROSS JOIN pages p ON p.id = s.sid%s "
	         "ORDER BY s.k, s.sid;",
	         plan.listed ? LISTED_SCORE : KEY_SCORE,
	         plan.listed ? "search_listed l ON l.page_id"
	                     : "pages p ON p.id",
	         pre, shown, after, plan.listed ? " WHERE " SHOWN : "");
}

/* The index a walk reads (HEED_SEARCH_PLAN_WALK), in the sort's order. */
static const char *sort_index(heed_search_sort sort)
{
	switch (sort) {
	case HEED_SEARCH_SORT_VIEWS:
		return "pages_search_views";
	case HEED_SEARCH_SORT_DATE:
		return "pages_search_date";
	default:
		return "pages_search_fetched";
	}
}

/* Where the rows come from and the conditions that go with it (pre: the
 * filters checked on a match's id): the matches, a walk of the sort's
 * index with the matches' ids as a list, a tag's pages, or every page.
 * The matches are a join the planner keeps in order, so that the
 * conditions on the match's id are checked before its page row is
 * read. */
static void rows_from(const struct heed_search_query *q, bool match,
                      struct plan plan, const char *pre, char *from,
                      size_t from_size, char *cond, size_t cond_size)
{
	cond[0] = '\0';
	if (match && plan.walk) {
		snprintf(from, from_size, "pages p INDEXED BY %s",
		         sort_index(heed__search_sort(q)));
		snprintf(cond, cond_size,
		         "+p.id IN (SELECT rowid FROM search_fts WHERE "
		         "search_fts MATCH ?2) AND ");
	} else if (match && plan.filter_first) {
		snprintf(from, from_size,
		         "search_fts CROSS JOIN pages p ON p.id = "
		         "search_fts.rowid");
		snprintf(cond, cond_size, "search_fts MATCH ?2%s AND ", pre);
	} else if (match) {
		snprintf(from, from_size, "%s", MATCHED);
	} else if (q->tag) {
		snprintf(from, from_size,
		         "page_tags t CROSS JOIN pages p ON p.id = t.page_id");
	} else {
		snprintf(from, from_size, "pages p");
	}
}

/* Whether q has a filter that only a page row answers: language,
 * published or views range. */
static bool post_filters(const struct heed_search_query *q)
{
	return (q->language && *q->language) ||
	       q->published_from_s != HEED_STORE_NO_DATE ||
	       q->published_to_s != HEED_STORE_NO_DATE || q->min_views >= 0 ||
	       q->max_views >= 0;
}

static void search_sql(char *buf, size_t size,
                       const struct heed_search_query *q, bool count,
                       struct plan plan)
{
	heed_search_sort sort = heed__search_sort(q);
	bool match = q->match && *q->match;
	const char *key = sort_key(sort);
	char from[256], cond[512], pre[256], post[256], after[1024] = "";

	if (!count && sort == HEED_SEARCH_SORT_RELEVANCE) {
		relevance_sql(buf, size, q, plan);
		return;
	}
	filter_terms(q, match, plan, pre, sizeof(pre), post, sizeof(post));
	rows_from(q, match, plan, pre, from, sizeof(from), cond, sizeof(cond));
	if (!count && q->after.id > 0)
		snprintf(after, sizeof(after),
		         "%s >= ?10 AND (%s > ?10 OR p.id > ?11) AND ", key,
		         key);
	if (count && match && plan.listed)
		snprintf(buf, size,
		         "SELECT count(*) FROM (SELECT 1 FROM search_fts CROSS "
		         "JOIN search_listed l ON l.page_id = search_fts.rowid "
		         "WHERE search_fts MATCH ?2%s AND " LISTED_AT
		         " LIMIT ?12);",
		         pre);
	else if (count)
		snprintf(buf, size,
		         "SELECT count(*) FROM (SELECT 1 FROM %s WHERE %s" SHOWN
		         "%s" POST_FILTERS " LIMIT ?12);",
		         from, cond, post);
	else
		snprintf(
		        buf, size,
		        "SELECT p.id, " PAGE_COLUMNS ", s.k FROM (SELECT p.id "
		        "AS sid, %s AS k FROM %s WHERE %s%s" SHOWN
		        "%s" POST_FILTERS
		        " ORDER BY %s, p.id LIMIT ?12) s CROSS JOIN pages p ON "
		        "p.id = s.sid ORDER BY s.k, s.sid;",
		        key, from, after, cond, post, key);
}

/* Binds q's values to st; expr is the expression to match (plan_match),
 * which must live until st is released. */
static void bind_query(sqlite3_stmt *st, const struct heed_search_query *q,
                       const char *expr)
{
	bool match = q->match && *q->match;
	heed_search_sort sort = heed__search_sort(q);

	sqlite3_bind_int64(st, P_NOW, q->now_s);
	if (match)
		sqlite3_bind_text(st, P_MATCH, expr, -1, SQLITE_STATIC);
	heed__sqlite_bind_text(st, P_HOST, q->host);
	heed__sqlite_bind_text(st, P_TAG, q->tag);
	if (q->language && *q->language)
		sqlite3_bind_text(st, P_LANG, q->language, -1, SQLITE_STATIC);
	heed__sqlite_bind_date(st, P_FROM, q->published_from_s);
	heed__sqlite_bind_date(st, P_TO, q->published_to_s);
	if (q->min_views >= 0)
		sqlite3_bind_int64(st, P_VMIN, q->min_views);
	if (q->max_views >= 0)
		sqlite3_bind_int64(st, P_VMAX, q->max_views);
	if (q->after.id > 0) {
		if (sort == HEED_SEARCH_SORT_RELEVANCE)
			sqlite3_bind_double(st, P_KEY, q->after.score);
		else
			sqlite3_bind_int64(
			        st, P_KEY,
			        heed__search_key_to_sql(sort, q->after.key));
		sqlite3_bind_int64(st, P_ID, q->after.id);
	}
}

/* Bounds a statement's cost (HEED_SEARCH_MAX_STEPS): SQLite calls this
 * every PROGRESS_EVERY virtual machine instructions. */
#define PROGRESS_EVERY 1000
static int progress(void *ud)
{
	long *ticks = ud;

	return ++*ticks > HEED_SEARCH_MAX_STEPS / PROGRESS_EVERY;
}

/* What a failed step means: a match FTS5 rejected (HEED_EINVAL with its
 * reason), the cost bound (HEED_ETOOBIG), or a store failure. */
static heed_status step_failed(heed_store *store, int rc, bool match,
                               struct heed_diag *diag)
{
	if (rc == SQLITE_INTERRUPT)
		return heed_diag_set(diag, HEED_ETOOBIG, 0, 0,
		                     "the search is too costly; narrow it");
	/* FTS5 reports a bad expression as a plain SQLITE_ERROR ("fts5:
	 * syntax error near ...", "no such column: x"); I/O, corruption
	 * and busy have codes of their own. */
	if (match && rc == SQLITE_ERROR)
		return heed_diag_set(diag, HEED_EINVAL, 0, 0, "%s",
		                     sqlite3_errmsg(heed__sqlite_db(store)));
	return heed__store_fail(store, diag, "searching");
}

/* Steps st with the cost bound on. */
static int bounded_step(heed_store *store, sqlite3_stmt *st, long *ticks)
{
	int rc;

	sqlite3_progress_handler(heed__sqlite_db(store), PROGRESS_EVERY,
	                         progress, ticks);
	rc = sqlite3_step(st);
	sqlite3_progress_handler(heed__sqlite_db(store), 0, NULL, NULL);
	return rc;
}

/* Whether q may walk its sort's index (HEED_SEARCH_PLAN_WALK): words
 * and a sort other than relevance, and no other filter, which would
 * thin the pages met along the walk out of reach of the cost estimate
 * below. */
static bool walkable(const struct heed_search_query *q)
{
	heed_search_sort sort = heed__search_sort(q);

	return q->match && *q->match && sort != HEED_SEARCH_SORT_RELEVANCE &&
	       !q->tag && !q->host && !post_filters(q);
}

/* The smallest r with r * r >= n (n >= 0), in at most 64 halvings. */
static int64_t ceil_sqrt(int64_t n)
{
	int64_t lo = 0, hi = 3037000500; /* > sqrt(INT64_MAX) */

	while (lo < hi) {
		int64_t mid = lo + (hi - lo) / 2;
		if (mid * mid >= n)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/*
 * Whether walking the sort's index costs less than reading every match.
 * A walk reads about (limit + 1) * N / m index entries before it has its
 * page (N pages, m matches, about 0.5 us each: the entry and a lookup in
 * the matches' ids), the scan reads the m matches' page rows (about
 * 2 us each), so the walk wins when m * m >= (limit + 1) * N / 4. m is
 * counted from FTS5 alone (0.05 us a match) and only up to that
 * threshold; N is the largest page id, read from the end of the table.
 * An expression FTS5 rejects is not a walk: the search itself then says
 * why.
 */
static bool walk_pays(heed_store *store, const struct heed_search_query *q)
{
	sqlite3_stmt *st;
	int64_t top = 0, matches = 0, need;
	long ticks = 0;

	st = heed__sqlite_prepare(store, "SELECT max(id) FROM pages;");
	if (!st)
		return false;
	if (sqlite3_step(st) == SQLITE_ROW)
		top = sqlite3_column_int64(st, 0);
	heed__sqlite_release(store, st);
	need = ceil_sqrt(((int64_t)q->limit + 1) * top / 4);
	st = heed__sqlite_prepare(
	        store, "SELECT count(*) FROM (SELECT 1 FROM search_fts WHERE "
	               "search_fts MATCH ?1 LIMIT ?2);");
	if (!st)
		return false;
	sqlite3_bind_text(st, 1, q->match, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, need);
	if (bounded_step(store, st, &ticks) == SQLITE_ROW)
		matches = sqlite3_column_int64(st, 0);
	heed__sqlite_release(store, st);
	return matches > 0 && matches >= need;
}

/* Whether listing q's tag once costs little (FTS_TAG_LIST): it has at
 * most TAG_LIST_MAX pages, read from its kept count (its timed pages
 * aside, which are few). */
static bool tag_list_pays(heed_store *store, const struct heed_search_query *q)
{
	sqlite3_stmt *st;
	int64_t pages;

	if (!q->tag || !q->match || !*q->match)
		return false;
	st = heed__sqlite_prepare(
	        store, "SELECT pages FROM search_tag_counts WHERE tag = ?1;");
	if (!st)
		return false;
	sqlite3_bind_text(st, 1, q->tag, -1, SQLITE_STATIC);
	pages = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0)
	                                       : 0;
	heed__sqlite_release(store, st);
	return pages <= TAG_LIST_MAX;
}

/* The plan of q (heed_search_plan), for a search or for its count. */
static struct plan choose_plan(heed_store *store,
                               const struct heed_search_query *q, bool count)
{
	struct plan plan = {true, false, false, false};

	switch (q->plan) {
	case HEED_SEARCH_PLAN_SCAN:
		plan.filter_first = false;
		break;
	case HEED_SEARCH_PLAN_FILTER_FIRST:
		break;
	case HEED_SEARCH_PLAN_WALK:
		plan.walk = !count && walkable(q);
		break;
	default:
		plan.walk = !count && walkable(q) && walk_pays(store, q);
		plan.tag_list = tag_list_pays(store, q);
		plan.tag_in_fts = q->match && *q->match && tag_in_fts(q->tag);
		break;
	}
	plan.listed = plan.filter_first && !post_filters(q);
	return plan;
}

/* The connection's memo (register_memo), or NULL. */
static struct search_memo *search_memo(heed_store *store)
{
	sqlite3_stmt *st =
	        heed__sqlite_prepare(store, "SELECT heed_search_memo();");
	struct search_memo *m = NULL;

	if (!st)
		return NULL;
	if (sqlite3_step(st) == SQLITE_ROW)
		m = sqlite3_value_pointer(sqlite3_column_value(st, 0),
		                          "heed_search_memo");
	heed__sqlite_release(store, st);
	return m;
}

/* Whether the index is still at generation gen (len bytes). */
static bool index_at(heed_store *store, const void *gen, int len)
{
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store, "SELECT block = ?1 FROM search_fts_data WHERE id = 10;");
	bool same = false;

	if (!st)
		return false;
	sqlite3_bind_blob(st, 1, gen, len, SQLITE_STATIC);
	same = sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) == 1;
	heed__sqlite_release(store, st);
	return same;
}

/* What a complete candidate set is of, as a key: the time, the tag, the
 * host (each with its length, -1 for none) and the words. NULL for none
 * or no memory; sqlite3_free it. */
static char *complete_key(const struct heed_search_query *q)
{
	return sqlite3_mprintf("%lld|%d:%s|%d:%s|%s", (long long)q->now_s,
	                       q->tag ? (int)strlen(q->tag) : -1,
	                       q->tag ? q->tag : "",
	                       q->host ? (int)strlen(q->host) : -1,
	                       q->host ? q->host : "", q->match);
}

/*
 * Keeps, at the first row of a relevance search st (all its candidates
 * scored and sorted by then), how many candidates heed_bm25 scored, when
 * they were fewer than scored: then they are every match of
 * q that may be listed at q->now_s, which is what its count counts
 * (plan.listed: the same conditions, without a limit), and the count
 * that follows (count_of_search) need not read the matches again.
 */
static void search_complete(heed_store *store,
                            const struct heed_search_query *q, struct plan plan,
                            sqlite3_stmt *st, int scored)
{
	struct search_memo *m;
	int64_t n;
	int len;
	void *gen;
	char *key;

	if (!plan.listed || !(m = search_memo(store)) ||
	    (n = m->scored) >= scored)
		return;
	sqlite3_free(m->last.key);
	sqlite3_free(m->last.gen);
	memset(&m->last, 0, sizeof(m->last));
	len = sqlite3_column_bytes(st, 18);
	gen = len > 0 ? sqlite3_malloc(len) : NULL;
	key = complete_key(q);
	if (!gen || !key) {
		sqlite3_free(gen);
		sqlite3_free(key);
		return;
	}
	memcpy(gen, sqlite3_column_blob(st, 18), (size_t)len);
	m->last.key = key;
	m->last.gen = gen;
	m->last.gen_len = len;
	m->last.n = n;
}

/* The count of q up to cap from the search of q just before it on this
 * connection, when that search read every match (search_complete) and
 * the index has not changed since. */
static bool count_of_search(heed_store *store,
                            const struct heed_search_query *q, struct plan plan,
                            int64_t cap, int64_t *count)
{
	struct search_memo *m;
	bool same = false;
	char *key;

	if (!plan.listed || !q->match || !*q->match ||
	    !(m = search_memo(store)) || !m->last.key)
		return false;
	key = complete_key(q);
	same = key && strcmp(key, m->last.key) == 0 &&
	       index_at(store, m->last.gen, m->last.gen_len);
	sqlite3_free(key);
	if (same)
		*count = m->last.n < cap ? m->last.n : cap;
	return same;
}

static heed_status sqlite_search(heed_store *store,
                                 const struct heed_search_query *q,
                                 heed_search_fn *fn, void *ud, bool *more,
                                 struct heed_diag *diag)
{
	heed_search_sort sort = heed__search_sort(q);
	struct plan plan = choose_plan(store, q, false);
	int scored = q->max_scored > 0 && q->max_scored < HEED_SEARCH_MAX_SCORED
	                     ? q->max_scored
	                     : HEED_SEARCH_MAX_SCORED;
	char sql[4096], *expr;
	sqlite3_stmt *st;
	heed_status rc;
	long ticks = 0;
	int n = 0, step;
	bool stopped = false;

	if (!(expr = plan_match(q, plan)))
		return heed_diag_set(diag, HEED_ENOMEM, 0, 0, "out of memory");
	search_sql(sql, sizeof(sql), q, false, plan);
	if (!(st = heed__sqlite_prepare(store, sql))) {
		sqlite3_free(expr);
		return heed__store_fail(store, diag, "preparing a search");
	}
	bind_query(st, q, expr);
	sqlite3_bind_int(st, P_LIMIT, q->limit + 1);
	if (sort == HEED_SEARCH_SORT_RELEVANCE) {
		sqlite3_bind_int(st, P_SCORED, scored);
		sqlite3_bind_int(st, P_FILTER_PHRASES, plan.tag_in_fts);
	}
	while ((step = bounded_step(store, st, &ticks)) == SQLITE_ROW) {
		struct heed_search_hit hit = {0};
		if (n == 0 && sort == HEED_SEARCH_SORT_RELEVANCE)
			search_complete(store, q, plan, st, scored);
		if (n == q->limit) {
			if (more)
				*more = true;
			break;
		}
		hit.id = sqlite3_column_int64(st, 0);
		heed__sqlite_read_page(st, 1, &hit.page);
		hit.cursor.id = hit.id;
		if (sort == HEED_SEARCH_SORT_RELEVANCE) {
			hit.score = sqlite3_column_double(st, 17);
			hit.cursor.score = hit.score;
		} else {
			hit.cursor.key = heed__search_key_from_sql(
			        sort, sqlite3_column_int64(st, 17));
		}
		n++;
		if (fn(ud, &hit)) {
			stopped = true;
			break;
		}
	}
	rc = HEED_OK;
	if (!stopped && step != SQLITE_ROW && step != SQLITE_DONE)
		rc = step_failed(store, step, q->match && *q->match, diag);
	heed__sqlite_release(store, st);
	sqlite3_free(expr);
	return rc;
}

/* How many pages FTS5 matches for match, up to limit, when the index is
 * still at generation gen (len bytes); else -1. */
static int64_t fts_matches(heed_store *store, const char *match, int64_t limit,
                           const void *gen, int len)
{
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store,
	        "SELECT (SELECT count(*) FROM (SELECT 1 FROM search_fts "
	        "WHERE search_fts MATCH ?1 LIMIT ?2)), " GEN_SQL " = ?3;");
	int64_t matches = -1;
	long ticks = 0;

	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, match, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, limit);
	sqlite3_bind_blob(st, 3, gen, len, SQLITE_STATIC);
	if (bounded_step(store, st, &ticks) == SQLITE_ROW &&
	    sqlite3_column_int(st, 1) == 1)
		matches = sqlite3_column_int64(st, 0);
	heed__sqlite_release(store, st);
	return matches;
}

/*
 * Whether a count of q's matches that may be shown reaches cap, proven
 * from FTS5 alone, without looking up each match's listing (a count of
 * 10,000 matches of a common word looked up 10,000 search_listed rows:
 * a fifth of its search, docs/performance.md). The pages indexed but not
 * counted as shown are at most the largest indexed id less the listed
 * pages without a time limit (the kept counts: every one of them is
 * indexed, by the same catch-up), so when FTS5 matches cap more than
 * those, at least cap of the matches are shown. Tried only for words
 * alone, whose count reads the listing (plan.listed), and only when that
 * margin is small: FTS5 then reads at most 5 * cap matches, a count kept
 * in the memo for the words at this generation of the index. The margin
 * and the matches are of one generation (a catch-up committing between
 * them would make the proof wrong); pages written since and not yet
 * indexed only make the margin larger.
 */
static bool count_reaches_cap(heed_store *store,
                              const struct heed_search_query *q,
                              struct plan plan, int64_t cap)
{
	sqlite3_stmt *st;
	struct search_memo *m;
	struct kept *k = NULL;
	int64_t margin = -1, matches = -1;
	void *gen = NULL;
	int len = 0;

	if (!plan.listed || !q->match || !*q->match || q->tag || q->host ||
	    cap <= 0 || cap > INT64_MAX / 5)
		return false;
	/* The margin, with the generation of the index it was read at. */
	st = heed__sqlite_prepare(
	        store,
	        "SELECT max(coalesce((SELECT max(id) FROM pages), 0), "
	        "coalesce(("
	        "SELECT max(id) FROM search_text), 0)) - (SELECT coalesce("
	        "sum(pages), 0) FROM search_host_counts), " GEN_SQL ";");
	if (!st)
		return false;
	if (sqlite3_step(st) == SQLITE_ROW &&
	    (len = sqlite3_column_bytes(st, 1)) > 0 &&
	    (gen = sqlite3_malloc(len))) {
		margin = sqlite3_column_int64(st, 0);
		memcpy(gen, sqlite3_column_blob(st, 1), (size_t)len);
	}
	heed__sqlite_release(store, st);
	if (margin < 0 || margin > 4 * cap) {
		sqlite3_free(gen);
		return false;
	}
	if ((m = search_memo(store)) && memo_at(m, gen, len))
		k = memo_kept(m, q->match, true);
	if (k && k->matches >= 0 && k->matches_limit == 5 * cap) {
		matches = k->matches;
	} else {
		matches = fts_matches(store, q->match, 5 * cap, gen, len);
		if (k && matches >= 0) {
			k->matches = matches;
			k->matches_limit = 5 * cap;
		}
	}
	sqlite3_free(gen);
	return matches >= 0 && matches - margin >= cap;
}

static heed_status sqlite_search_count(heed_store *store,
                                       const struct heed_search_query *q,
                                       int64_t cap, int64_t *count,
                                       struct heed_diag *diag)
{
	struct plan plan = choose_plan(store, q, true);
	char sql[4096], *expr;
	sqlite3_stmt *st;
	heed_status rc = HEED_OK;
	long ticks = 0;
	int step;

	if (count_of_search(store, q, plan, cap, count))
		return HEED_OK;
	if (count_reaches_cap(store, q, plan, cap)) {
		*count = cap;
		return HEED_OK;
	}
	if (!(expr = plan_match(q, plan)))
		return heed_diag_set(diag, HEED_ENOMEM, 0, 0, "out of memory");
	search_sql(sql, sizeof(sql), q, true, plan);
	if (!(st = heed__sqlite_prepare(store, sql))) {
		sqlite3_free(expr);
		return heed__store_fail(store, diag, "preparing a search");
	}
	bind_query(st, q, expr);
	sqlite3_bind_int64(st, P_LIMIT, cap < 0 ? 0 : cap);
	step = bounded_step(store, st, &ticks);
	if (step == SQLITE_ROW)
		*count = sqlite3_column_int64(st, 0);
	else
		rc = step_failed(store, step, q->match && *q->match, diag);
	heed__sqlite_release(store, st);
	sqlite3_free(expr);
	return rc;
}

static heed_status sqlite_search_page(heed_store *store, int64_t id,
                                      int64_t now_s, heed_search_fn *fn,
                                      void *ud)
{
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store, "SELECT p.id, " PAGE_COLUMNS " FROM pages p WHERE "
	               "p.id = ?2 AND " SHOWN ";");
	struct heed_search_hit hit = {0};
	int step;

	if (!st)
		return HEED_ESTORE;
	sqlite3_bind_int64(st, 1, now_s);
	sqlite3_bind_int64(st, 2, id);
	step = sqlite3_step(st);
	if (step == SQLITE_ROW) {
		hit.id = id;
		hit.cursor.id = id;
		heed__sqlite_read_page(st, 1, &hit.page);
		fn(ud, &hit);
	} else if (step != SQLITE_DONE) {
		heed__store_fail(store, NULL, "reading a page");
	}
	heed__sqlite_release(store, st);
	if (step == SQLITE_ROW)
		return HEED_OK;
	return step == SQLITE_DONE ? HEED_ENOTFOUND : HEED_ESTORE;
}

struct tag_visit {
	heed_search_tag_fn *fn;
	void *ud;
};

static int visit_tag(sqlite3_stmt *st, void *ctx)
{
	struct tag_visit *v = ctx;
	struct heed_search_tag t = {heed__sqlite_text(st, 0),
	                            sqlite3_column_int64(st, 1)};

	return v->fn(v->ud, &t);
}

/* A tag's shown pages at ?1: its count of pages without a time limit
 * plus its timed pages whose limit is still ahead. */
#define TAGS_SQL(counts, where)                                             \
	"SELECT tag, sum(n) AS n FROM (SELECT tag, pages AS n FROM " counts \
	" WHERE " where " UNION ALL SELECT t.tag, 1 FROM search_listed s "  \
	"CROSS JOIN page_tags t ON t.page_id = s.page_id WHERE "            \
	"s.hidden_from > ?1 AND " where ") GROUP BY tag ORDER BY n DESC, "  \
	"tag LIMIT ?3;"

static heed_status sqlite_search_tags(heed_store *store, const char *host,
                                      int limit, int64_t now_s,
                                      heed_search_tag_fn *fn, void *ud)
{
	struct tag_visit v = {fn, ud};
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store, host ? TAGS_SQL("search_host_tag_counts", "host = ?2")
	                    : TAGS_SQL("search_tag_counts", "?2 IS NULL"));

	if (!st)
		return HEED_ESTORE;
	sqlite3_bind_int64(st, 1, now_s);
	heed__sqlite_bind_text(st, 2, host);
	sqlite3_bind_int(st, 3, limit);
	return heed__sqlite_each_row(store, st, visit_tag, &v);
}

struct site_visit {
	heed_search_site_fn *fn;
	void *ud;
};

static int visit_site(sqlite3_stmt *st, void *ctx)
{
	struct site_visit *v = ctx;
	struct heed_search_site s = {
	        heed__sqlite_text(st, 0),
	        heed__sqlite_text(st, 1),
	        sqlite3_column_int64(st, 2),
	        sqlite3_column_int64(st, 3),
	};

	return v->fn(v->ud, &s);
}

static heed_status sqlite_search_sites(heed_store *store,
                                       const char *after_host, int limit,
                                       int64_t now_s, heed_search_site_fn *fn,
                                       void *ud)
{
	/* Counts as in TAGS_SQL; the last fetch and the site name come
	 * from each listed host's newest shown page, found by walking
	 * pages_host_fetched backwards from its end. */
	struct site_visit v = {fn, ud};
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store,
	        "SELECT k.host, json_extract(CASE WHEN json_valid(l.record) "
	        "THEN l.record END, '$.site_name.value'), k.n, l.fetched_at "
	        "FROM (SELECT host, sum(n) AS n FROM (SELECT host, pages AS n "
	        "FROM search_host_counts WHERE host > coalesce(?2, '') UNION "
	        "ALL SELECT host, 1 FROM search_listed WHERE hidden_from > ?1 "
	        "AND host > coalesce(?2, '')) GROUP BY host ORDER BY host "
	        "LIMIT ?3) k CROSS JOIN pages l ON l.id = (SELECT p.id FROM "
	        "pages p WHERE p.host = k.host AND " SHOWN
	        " ORDER BY p.fetched_at DESC, p.id DESC LIMIT 1) ORDER BY "
	        "k.host;");

	if (!st)
		return HEED_ESTORE;
	sqlite3_bind_int64(st, 1, now_s);
	heed__sqlite_bind_text(st, 2, after_host);
	sqlite3_bind_int(st, 3, limit);
	return heed__sqlite_each_row(store, st, visit_site, &v);
}

static int visit_totals(sqlite3_stmt *st, void *ctx)
{
	struct heed_search_totals *t = ctx;

	t->pages = sqlite3_column_int64(st, 0);
	t->sites = sqlite3_column_int64(st, 1);
	t->tags = sqlite3_column_int64(st, 2);
	return 1;
}

static heed_status sqlite_search_totals(heed_store *store, int64_t now_s,
                                        struct heed_search_totals *t)
{
	/* The hosts and tags with untimed pages are the rows of their
	 * tables; those with only timed pages ahead of their limit are
	 * added, each looked up in the table by its key. */
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store,
	        "SELECT (SELECT coalesce(sum(pages), 0) FROM "
	        "search_host_counts) + (SELECT count(*) FROM search_listed "
	        "WHERE hidden_from > ?1), (SELECT count(*) FROM "
	        "search_host_counts) + (SELECT count(DISTINCT s.host) FROM "
	        "search_listed s WHERE s.hidden_from > ?1 AND NOT EXISTS("
	        "SELECT 1 FROM search_host_counts c WHERE c.host = s.host)), "
	        "(SELECT count(*) FROM search_tag_counts) + (SELECT "
	        "count(DISTINCT t.tag) FROM search_listed s CROSS JOIN "
	        "page_tags t ON t.page_id = s.page_id WHERE s.hidden_from > "
	        "?1 AND NOT EXISTS(SELECT 1 FROM search_tag_counts c WHERE "
	        "c.tag = t.tag));");

	if (!st)
		return HEED_ESTORE;
	sqlite3_bind_int64(st, 1, now_s);
	return heed__sqlite_each_row(store, st, visit_totals, t);
}

struct bucket_visit {
	heed_search_bucket_fn *fn;
	void *ud;
	bool per_day;
};

static int visit_bucket(sqlite3_stmt *st, void *ctx)
{
	struct bucket_visit *v = ctx;
	struct heed_search_bucket b =
	        heed__search_bucket(v->per_day, sqlite3_column_int64(st, 0),
	                            sqlite3_column_int64(st, 1));

	return v->fn(v->ud, &b);
}

static heed_status sqlite_search_per_day(heed_store *store, const char *host,
                                         int days, int64_t now_s,
                                         heed_search_bucket_fn *fn, void *ud)
{
	/* One row per day from a recursive CTE, so empty days are there;
	 * each day counts a range of the fetched_at index. */
	struct bucket_visit v = {fn, ud, true};
	int64_t today = now_s - (now_s % 86400 + 86400) % 86400;
	sqlite3_stmt *st;

	st = heed__sqlite_prepare(
	        store,
	        "WITH RECURSIVE d(day) AS (SELECT ?3 UNION ALL SELECT day + "
	        "86400 FROM d WHERE day < ?4) SELECT day, (SELECT count(*) "
	        "FROM pages p WHERE p.fetched_at >= day AND p.fetched_at < "
	        "day + 86400 AND (?2 IS NULL OR p.host = ?2) AND " SHOWN
	        ") FROM d ORDER BY day;");
	if (!st)
		return HEED_ESTORE;
	sqlite3_bind_int64(st, 1, now_s);
	heed__sqlite_bind_text(st, 2, host);
	sqlite3_bind_int64(st, 3, today - (int64_t)(days - 1) * 86400);
	sqlite3_bind_int64(st, 4, today);
	return heed__sqlite_each_row(store, st, visit_bucket, &v);
}

#define VIEWS_SQL_HEAD                                                    \
	"WITH c(b, n) AS (SELECT CASE WHEN p.views <= 0 THEN 0 ELSE "     \
	"length(CAST(p.views AS TEXT)) END, count(*) FROM pages p WHERE " \
	"p.views IS NOT NULL AND "
#define VIEWS_SQL_TAIL                                                       \
	" AND " SHOWN " GROUP BY 1), r(b) AS (SELECT 0 WHERE EXISTS(SELECT " \
	"1 FROM c) UNION ALL SELECT b + 1 FROM r WHERE b < (SELECT max(b) "  \
	"FROM c)) SELECT r.b, coalesce(c.n, 0) FROM r LEFT JOIN c ON c.b = " \
	"r.b ORDER BY r.b;"

static heed_status sqlite_search_views(heed_store *store, const char *host,
                                       int64_t now_s, heed_search_bucket_fn *fn,
                                       void *ud)
{
	/* Bucket = number of digits (0 for a count of 0); the CTE adds the
	 * empty buckets below the largest. Two texts, so that a host's chart
	 * reads pages_host_fetched rather than every page. */
	struct bucket_visit v = {fn, ud, false};
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store, host ? VIEWS_SQL_HEAD "p.host = ?2" VIEWS_SQL_TAIL
	                    : VIEWS_SQL_HEAD "?2 IS NULL" VIEWS_SQL_TAIL);

	if (!st)
		return HEED_ESTORE;
	sqlite3_bind_int64(st, 1, now_s);
	heed__sqlite_bind_text(st, 2, host);
	return heed__sqlite_each_row(store, st, visit_bucket, &v);
}

/* The rebuild's statements; the front runs them in one transaction. */
static heed_status sqlite_search_reindex(heed_store *store)
{
	static const char rebuild[] =
	        "INSERT INTO search_fts(search_fts) VALUES('delete-all');"
	        "DELETE FROM search_pending; DELETE FROM search_text;" TEXT_ALL
	                FTS_FROM_TEXT
	        "DELETE FROM page_tags;" TAGS_ALL AGG_CLEAR AGG_ALL_V7
	        "UPDATE search_swept SET max_id = (SELECT coalesce(max(id), 0) "
	        "FROM pages);";

	return store->backend->exec(store, rebuild);
}

/*
 * Catching up (version 5): the set is the marked pages up to id ?1, the
 * statements below run in order in the caller's transaction. First what
 * the index held of them comes out (the counts of the listed untimed
 * ones, their text from FTS5, their tags and listing), then what their
 * rows say now goes in, as the triggers of version 4 did page by page;
 * a page that is gone has nothing to put back. Each statement reads the
 * set through search_pending's key, and the kept tables through theirs.
 */
#define SET_PAGES "search_pending b WHERE b.page_id <= ?1"
#define IN_SET    "(SELECT page_id FROM " SET_PAGES ")"
#define SET_JOIN  "search_pending b CROSS JOIN "
#define SET_BOUND " WHERE b.page_id <= ?1"
#define SET_LISTED                                                 \
	"CROSS JOIN search_listed l ON l.page_id = b.page_id AND " \
	"l.hidden_from IS NULL "
#define SET_TEXT "CROSS JOIN search_text t ON t.id = b.page_id "
#define SET_TAGS "CROSS JOIN page_tags g ON g.page_id = b.page_id "
#define OLD_HOSTS                                                  \
	"(SELECT t.host FROM " SET_JOIN "search_text t ON t.id = " \
	"b.page_id" SET_BOUND ")"
#define OLD_TAG_SET                                      \
	"(SELECT g.tag FROM " SET_JOIN "page_tags g ON " \
	"g.page_id = b.page_id" SET_BOUND ")"

static const char *const catch_up_sql[] = {
        "UPDATE search_host_counts SET pages = pages - n FROM (SELECT "
        "t.host AS h, count(*) AS n FROM search_pending b " SET_LISTED SET_TEXT
                SET_BOUND " GROUP BY t.host) WHERE host = h;",
        "UPDATE search_tag_counts SET pages = pages - n FROM (SELECT g.tag "
        "AS k, count(*) AS n FROM search_pending b " SET_LISTED SET_TAGS
                SET_BOUND " GROUP BY g.tag) WHERE tag = k;",
        "UPDATE search_host_tag_counts SET pages = pages - n FROM (SELECT "
        "t.host AS h, g.tag AS k, count(*) AS n FROM search_pending "
        "b " SET_LISTED SET_TEXT SET_TAGS SET_BOUND
        " GROUP BY t.host, g.tag) WHERE host = h AND tag = k;",
        "DELETE FROM search_host_counts WHERE pages <= 0 AND host IN " OLD_HOSTS
        ";",
        "DELETE FROM search_tag_counts WHERE pages <= 0 AND tag IN " OLD_TAG_SET
        ";",
        "DELETE FROM search_host_tag_counts WHERE pages <= 0 AND host "
        "IN " OLD_HOSTS ";",
        "INSERT INTO search_fts(search_fts, " FTS_COLUMNS ") SELECT "
        "'delete', t.id, t.title, t.description, t.tags, t.site FROM "
        "search_pending b " SET_TEXT SET_BOUND ";",
        "DELETE FROM search_text WHERE id IN " IN_SET ";",
        "DELETE FROM page_tags WHERE page_id IN " IN_SET ";",
        "DELETE FROM search_listed WHERE page_id IN " IN_SET ";",
        "INSERT INTO search_text(" TEXT_COLUMNS ") SELECT d.id, d.title, "
        "d.description, d.tags, d.site, d.host FROM " SET_JOIN "search_docs "
        "d ON d.id = b.page_id" SET_BOUND ";",
        "INSERT INTO search_fts(" FTS_COLUMNS ") SELECT t.id, t.title, "
        "t.description, t.tags, t.site FROM search_pending b " SET_TEXT
                SET_BOUND ";",
        "INSERT INTO page_tags(tag, page_id) SELECT DISTINCT tag, page_id "
        "FROM search_tags WHERE page_id IN " IN_SET ";",
        LISTED_ROWS_V7(SET_JOIN
                       "pages r ON r.id = b.page_id AND b.page_id <= ?1"),
        /* Each SELECT has its WHERE before the upsert's ON, which would
         * otherwise read as a join's. */
        "INSERT INTO search_host_counts(host, pages) SELECT t.host, "
        "count(*) FROM search_pending b " SET_LISTED SET_TEXT SET_BOUND
        " GROUP BY t.host ON CONFLICT(host) DO UPDATE SET pages = pages + "
        "excluded.pages;",
        "INSERT INTO search_tag_counts(tag, pages) SELECT g.tag, count(*) "
        "FROM search_pending b " SET_LISTED SET_TAGS SET_BOUND
        " GROUP BY g.tag ON CONFLICT(tag) DO UPDATE SET pages = pages + "
        "excluded.pages;",
        "INSERT INTO search_host_tag_counts(host, tag, pages) SELECT t.host, "
        "g.tag, count(*) FROM search_pending b " SET_LISTED SET_TEXT SET_TAGS
                SET_BOUND " GROUP BY t.host, g.tag ON CONFLICT(host, tag) DO "
        "UPDATE SET pages = pages + excluded.pages;",
        "DELETE FROM search_pending WHERE page_id <= ?1;",
};

/* Marks the pages inserted since the last sweep (version 15 above), and
 * moves the sweep's mark to the highest id there is: after a delete of the
 * last row that can be lower, so that a new row taking that id again is
 * swept too. An idle store's catch-up writes nothing all the same: SQLite
 * leaves a row overwritten with the same bytes, and its page, untouched
 * (test_idle_catch_up_writes_nothing). */
static const char *const sweep_sql[] = {
        "INSERT OR IGNORE INTO search_pending(page_id) SELECT id FROM pages "
        "WHERE id > (SELECT max_id FROM search_swept);",
        "UPDATE search_swept SET max_id = (SELECT coalesce(max(id), 0) FROM "
        "pages);",
};

/* Runs each of n statements, ?1 (where one has it) bound to bound. */
static heed_status run_each(heed_store *store, const char *const *sql, size_t n,
                            int64_t bound)
{
	heed_status rc = HEED_OK;

	for (size_t i = 0; i < n && rc == HEED_OK; i++) {
		sqlite3_stmt *st = heed__sqlite_prepare(store, sql[i]);
		if (!st)
			return HEED_ESTORE;
		sqlite3_bind_int64(st, 1, bound);
		rc = heed__sqlite_step_done(store, st);
		heed__sqlite_release(store, st);
	}
	return rc;
}

/* The highest marked page id of the next set of at most limit, or 0 when
 * nothing is marked; -1 when the store failed. */
static int64_t set_bound(heed_store *store, int64_t limit)
{
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store, "SELECT max(page_id) FROM (SELECT page_id FROM "
	               "search_pending ORDER BY page_id LIMIT ?1);");
	int64_t bound = -1;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, limit);
	if (sqlite3_step(st) == SQLITE_ROW)
		bound = heed__sqlite_int(st, 0, 0);
	heed__sqlite_release(store, st);
	return bound;
}

static heed_status sqlite_search_catch_up(heed_store *store, int64_t limit,
                                          int64_t *indexed)
{
	int64_t bound;
	heed_status rc =
	        run_each(store, sweep_sql, HEED_ARRAY_SIZE(sweep_sql), 0);

	*indexed = 0;
	if (rc != HEED_OK)
		return rc;
	bound = set_bound(store, limit);
	if (bound <= 0)
		return bound < 0 ? HEED_ESTORE : HEED_OK;
	rc = run_each(store, catch_up_sql, HEED_ARRAY_SIZE(catch_up_sql),
	              bound);
	/* The last statement removed the set's marks. */
	if (rc == HEED_OK)
		*indexed = sqlite3_changes(heed__sqlite_db(store));
	return rc;
}

static heed_status sqlite_search_behind(heed_store *store, int64_t *pages)
{
	/* What is marked, and what no sweep has seen yet. */
	sqlite3_stmt *st = heed__sqlite_prepare(
	        store,
	        "SELECT count(*) FROM (SELECT page_id FROM search_pending "
	        "UNION SELECT id FROM pages WHERE id > (SELECT max_id "
	        "FROM search_swept));");
	int rc;

	if (!st)
		return HEED_ESTORE;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*pages = sqlite3_column_int64(st, 0);
	heed__sqlite_release(store, st);
	return rc == SQLITE_ROW ? HEED_OK : HEED_ESTORE;
}

const struct heed__search_ops heed__sqlite_search_ops = {
        .search = sqlite_search,
        .count = sqlite_search_count,
        .page = sqlite_search_page,
        .tags = sqlite_search_tags,
        .sites = sqlite_search_sites,
        .totals = sqlite_search_totals,
        .per_day = sqlite_search_per_day,
        .views = sqlite_search_views,
        .reindex = sqlite_search_reindex,
        .catch_up = sqlite_search_catch_up,
        .behind = sqlite_search_behind,
};
