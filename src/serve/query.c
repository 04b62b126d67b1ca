/*
 * What a person typed into the search box, made into an FTS5 expression
 * (https://sqlite.org/fts5.html, 3 "Full-text Query Syntax"), the other
 * search arguments, and the cursors of "next page" links.
 *
 * Safety comes from one rule: every term is written as an FTS5 string
 * ("..." with '"' doubled), so FTS5's own syntax (column filters "col:",
 * "^", NEAR, parentheses, AND/OR/NOT) typed by a person is only text; the
 * operators in the result are heed's own. The expression is built so
 * FTS5 always accepts it: a binary NOT needs a left side, so exclusions
 * follow the positive terms ("-a b" is "b" NOT "a"), and a query of
 * exclusions alone is refused. A term that holds no word for FTS5's
 * unicode61 tokenizer (only punctuation, symbols or emoji) would be an
 * empty phrase, which matches nothing and would empty every AND: it is
 * left out.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "extract/extract-int.h" /* heed__parse_date */
#include "serve/serve-int.h"

const char *heed__serve_arg(const struct heed__serve_args *args,
                            const char *name)
{
	size_t n = args ? args->count : 0;

	if (n > HEED__SERVE_MAX_ARGS)
		n = HEED__SERVE_MAX_ARGS;
	for (size_t i = 0; i < n; i++)
		if (args->arg[i].name && strcmp(args->arg[i].name, name) == 0)
			return args->arg[i].value ? args->arg[i].value : "";
	return NULL;
}

/* ---- words: which characters unicode61 keeps in a token ---- */

/* Code points above ASCII that unicode61 (Unicode 6.1 categories other
 * than L*, N* and Co) treats as separators, for the common blocks: Latin-1
 * punctuation, combining marks, general punctuation, symbols, arrows,
 * shapes, dingbats, CJK punctuation, fullwidth punctuation, emoji. A rare
 * symbol missing here is only a term that matches nothing. */
static const uint32_t separators[][2] = {
        {0x80, 0xA9},       {0xAB, 0xB1},       {0xB4, 0xB4},
        {0xB6, 0xB8},       {0xBB, 0xBB},       {0xBF, 0xBF},
        {0xD7, 0xD7},       {0xF7, 0xF7},       {0x2C2, 0x2C5},
        {0x2D2, 0x2DF},     {0x2E5, 0x2EB},     {0x2ED, 0x2ED},
        {0x2EF, 0x36F},     {0x37E, 0x37E},     {0x387, 0x387},
        {0x55A, 0x55F},     {0x589, 0x58A},     {0x5BE, 0x5BE},
        {0x60C, 0x60D},     {0x61B, 0x61F},     {0x66A, 0x66D},
        {0x6D4, 0x6D4},     {0x964, 0x965},     {0x970, 0x970},
        {0xE3F, 0xE3F},     {0xE4F, 0xE4F},     {0xE5A, 0xE5B},
        {0x10FB, 0x10FB},   {0x1360, 0x1368},   {0x1400, 0x1400},
        {0x166D, 0x166E},   {0x1680, 0x1680},   {0x169B, 0x169C},
        {0x16EB, 0x16ED},   {0x1735, 0x1736},   {0x17D4, 0x17D6},
        {0x17D8, 0x17DB},   {0x1800, 0x180E},   {0x1AB0, 0x1AFF},
        {0x1DC0, 0x1DFF},   {0x1FBD, 0x1FBD},   {0x1FBF, 0x1FC1},
        {0x1FCD, 0x1FCF},   {0x1FDD, 0x1FDF},   {0x1FED, 0x1FEF},
        {0x1FFD, 0x1FFE},   {0x2000, 0x2064},   {0x206A, 0x206F},
        {0x207A, 0x207E},   {0x208A, 0x208E},   {0x20A0, 0x20B9},
        {0x20D0, 0x20F0},   {0x2100, 0x2101},   {0x2103, 0x2106},
        {0x2108, 0x2109},   {0x2114, 0x2114},   {0x2116, 0x2118},
        {0x211E, 0x2123},   {0x2125, 0x2125},   {0x2127, 0x2127},
        {0x2129, 0x2129},   {0x212E, 0x212E},   {0x213A, 0x213B},
        {0x2140, 0x2144},   {0x214A, 0x214D},   {0x214F, 0x214F},
        {0x2190, 0x23F3},   {0x2400, 0x2426},   {0x2440, 0x244A},
        {0x249C, 0x24E9},   {0x2500, 0x26FF},   {0x2701, 0x2775},
        {0x2794, 0x2B4C},   {0x2B50, 0x2B59},   {0x2CE5, 0x2CEA},
        {0x2CF9, 0x2CFC},   {0x2CFE, 0x2CFF},   {0x2DE0, 0x2E2E},
        {0x2E30, 0x2E3B},   {0x2E80, 0x2E99},   {0x2E9B, 0x2EF3},
        {0x2F00, 0x2FD5},   {0x2FF0, 0x2FFB},   {0x3000, 0x3004},
        {0x3008, 0x3020},   {0x302A, 0x3030},   {0x3036, 0x3037},
        {0x303D, 0x303F},   {0x3099, 0x309C},   {0x30A0, 0x30A0},
        {0x30FB, 0x30FB},   {0x3190, 0x3191},   {0x3196, 0x319F},
        {0x31C0, 0x31E3},   {0x3200, 0x321E},   {0x322A, 0x3247},
        {0x3250, 0x3250},   {0x3260, 0x327F},   {0x328A, 0x32B0},
        {0x32C0, 0x32FE},   {0x3300, 0x33FF},   {0x4DC0, 0x4DFF},
        {0xA490, 0xA4C6},   {0xA4FE, 0xA4FF},   {0xA60D, 0xA60F},
        {0xA673, 0xA673},   {0xA67E, 0xA67E},   {0xA6F2, 0xA6F7},
        {0xA700, 0xA716},   {0xA720, 0xA721},   {0xA789, 0xA78A},
        {0xFD3E, 0xFD3F},   {0xFDFC, 0xFDFD},   {0xFE00, 0xFE19},
        {0xFE20, 0xFE26},   {0xFE30, 0xFE52},   {0xFE54, 0xFE66},
        {0xFE68, 0xFE6B},   {0xFEFF, 0xFEFF},   {0xFF01, 0xFF0F},
        {0xFF1A, 0xFF20},   {0xFF3B, 0xFF40},   {0xFF5B, 0xFF65},
        {0xFFE0, 0xFFE6},   {0xFFE8, 0xFFEE},   {0xFFF9, 0xFFFF},
        {0x1D100, 0x1D126}, {0x1D129, 0x1D164}, {0x1D16A, 0x1D16C},
        {0x1D183, 0x1D184}, {0x1D18C, 0x1D1A9}, {0x1D1AE, 0x1D1DD},
        {0x1D200, 0x1D241}, {0x1D245, 0x1D245}, {0x1D300, 0x1D356},
        {0x1F000, 0x1F0FF}, {0x1F110, 0x1F2FF}, {0x1F300, 0x1FAFF},
        {0xE0001, 0xE007F}, {0xE0100, 0xE01EF},
};

static bool separator(uint32_t cp)
{
	size_t lo = 0, hi = HEED_ARRAY_SIZE(separators);

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (cp < separators[mid][0])
			hi = mid;
		else if (cp > separators[mid][1])
			lo = mid + 1;
		else
			return true;
	}
	return false;
}

/* The code point at s (valid UTF-8, as heed__utf8_clean leaves it) and
 * its length. */
static size_t code_point(const unsigned char *s, size_t len, uint32_t *cp)
{
	size_t n = s[0] < 0x80 ? 1 : s[0] < 0xE0 ? 2 : s[0] < 0xF0 ? 3 : 4;
	uint32_t v = n == 1 ? s[0] : s[0] & (0x7Fu >> n);

	if (n > len)
		n = len;
	for (size_t i = 1; i < n; i++)
		v = (v << 6) | (s[i] & 0x3Fu);
	*cp = v;
	return n;
}

/* Whether unicode61 finds at least one token in s. */
static bool has_word(const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;

	for (size_t i = 0; i < len;) {
		uint32_t cp;
		size_t n = code_point(s + i, len - i, &cp);
		if (cp < 0x80 ? ((cp | 0x20) >= 'a' && (cp | 0x20) <= 'z') ||
		                        (cp >= '0' && cp <= '9')
		              : !separator(cp))
			return true;
		i += n;
	}
	return false;
}

/* ---- terms ---- */

struct term {
	const char *text; /* into the cleaned query */
	size_t len;
	bool prefix;  /* word* */
	bool exclude; /* -word */
	bool or_prev; /* OR with the positive term before */
};

struct terms {
	struct term t[HEED__SERVE_MAX_TERMS];
	size_t n, positive;
	bool pending_or; /* an OR was read since the last term */
	bool negate;     /* a NOT was read since the last term */
};

static bool blank(char c)
{
	return (unsigned char)c <= 0x20;
}

static bool only_blanks(const char *s, const char *end)
{
	while (s < end && blank(*s))
		s++;
	return s == end;
}

/* Adds a term unless it holds no word. */
static heed_status add_term(struct terms *ts, struct term t,
                            struct heed_diag *diag)
{
	if (!has_word(t.text, t.len))
		return HEED_OK;
	if (ts->n == HEED__SERVE_MAX_TERMS)
		return heed_diag_set(diag, HEED_ETOOBIG, 0, 0,
		                     "the search has more than %d terms; "
		                     "use fewer words",
		                     HEED__SERVE_MAX_TERMS);
	t.exclude = t.exclude || ts->negate;
	t.or_prev = !t.exclude && ts->pending_or && ts->n > 0 &&
	            !ts->t[ts->n - 1].exclude;
	ts->t[ts->n++] = t;
	ts->positive += !t.exclude;
	ts->pending_or = false;
	ts->negate = false;
	return HEED_OK;
}

/* Reads one item at *p: a "phrase", a word, or an operator. */
static heed_status read_item(struct terms *ts, const char **p, const char *end,
                             struct heed_diag *diag)
{
	const char *s = *p;
	struct term t = {0};

	if (*s == '-' && s + 1 < end && !blank(s[1])) {
		t.exclude = true;
		s++;
	}
	if (*s == '"') {
		const char *close = memchr(s + 1, '"', (size_t)(end - s - 1));
		t.text = s + 1;
		t.len = (size_t)((close ? close : end) - t.text);
		s = close ? close + 1 : end;
		if (s < end && *s == '*') {
			t.prefix = true;
			s++;
		}
		*p = s;
		return add_term(ts, t, diag);
	}
	t.text = s;
	while (s < end && !blank(*s) && *s != '"')
		s++;
	*p = s;
	t.len = (size_t)(s - t.text);
	/* Operators count only between terms; elsewhere they are words. */
	if (!t.exclude && ts->n > 0 && *p < end) {
		if (t.len == 2 && memcmp(t.text, "OR", 2) == 0)
			return ts->pending_or = true, HEED_OK;
		if (t.len == 3 && memcmp(t.text, "AND", 3) == 0)
			return HEED_OK;
		if (t.len == 3 && memcmp(t.text, "NOT", 3) == 0)
			return ts->negate = true, HEED_OK;
	}
	while (t.len > 0 && t.text[t.len - 1] == '*') {
		t.prefix = true;
		t.len--;
	}
	return add_term(ts, t, diag);
}

static heed_status put_term(struct heed_buf *b, const struct term *t)
{
	heed_status rc = heed__buf_addc(b, '"');

	for (size_t i = 0; i < t->len && rc == HEED_OK; i++) {
		if (t->text[i] == '"')
			rc = heed__buf_addc(b, '"');
		if (rc == HEED_OK)
			rc = heed__buf_addc(b, t->text[i]);
	}
	if (rc == HEED_OK)
		rc = heed__buf_add(b, t->prefix ? "\" *" : "\"",
		                   t->prefix ? 3 : 1);
	return rc;
}

/* Positive terms ANDed, OR groups in parentheses, then each exclusion
 * as a binary NOT: ("a" AND ("b" OR "c")) NOT "d", "b" NOT "a". */
static heed_status write_expr(struct heed_buf *b, const struct terms *ts)
{
	size_t groups = 0;
	bool paren, first = true;
	heed_status rc;

	for (size_t i = 0; i < ts->n; i++)
		groups += !ts->t[i].exclude && !ts->t[i].or_prev;
	/* A NOT takes the whole ANDed left side; one term or one OR group
	 * is whole already. */
	paren = ts->positive < ts->n && groups > 1;
	rc = paren ? heed__buf_addc(b, '(') : HEED_OK;

	for (size_t i = 0; i < ts->n && rc == HEED_OK; i++) {
		const struct term *t = &ts->t[i];
		bool group = i + 1 < ts->n && ts->t[i + 1].or_prev;
		if (t->exclude)
			continue;
		if (!t->or_prev && !first)
			rc = heed__buf_add(b, " AND ", 5);
		if (rc == HEED_OK && !t->or_prev && group)
			rc = heed__buf_addc(b, '(');
		if (rc == HEED_OK && t->or_prev)
			rc = heed__buf_add(b, " OR ", 4);
		if (rc == HEED_OK)
			rc = put_term(b, t);
		if (rc == HEED_OK && t->or_prev && !group)
			rc = heed__buf_addc(b, ')');
		first = false;
	}
	if (paren && rc == HEED_OK)
		rc = heed__buf_addc(b, ')');
	for (size_t i = 0; i < ts->n && rc == HEED_OK; i++) {
		if (!ts->t[i].exclude)
			continue;
		rc = heed__buf_add(b, " NOT ", 5);
		if (rc == HEED_OK)
			rc = put_term(b, &ts->t[i]);
	}
	return rc;
}

heed_status heed__serve_fts_query(const struct heed_allocator *a,
                                  const char *text, char **fts,
                                  struct heed_diag *diag)
{
	struct heed_buf clean, out;
	struct terms ts = {0};
	size_t len = text ? strlen(text) : 0;
	const char *p, *end;
	heed_status rc;

	*fts = NULL;
	if (len > HEED__SERVE_MAX_QUERY)
		return heed_diag_set(diag, HEED_ETOOBIG, 0, 0,
		                     "the search is longer than %d bytes",
		                     HEED__SERVE_MAX_QUERY);
	heed__buf_init(&clean, a, 3 * HEED__SERVE_MAX_QUERY);
	heed__buf_init(&out, a, 16 * HEED__SERVE_MAX_QUERY);
	rc = heed__utf8_clean(&clean, text ? text : "", len);
	p = heed__buf_str(&clean);
	end = p + clean.len;
	while (rc == HEED_OK && p < end) {
		if (blank(*p))
			p++;
		else
			rc = read_item(&ts, &p, end, diag);
	}
	/* Only blanks asks for everything; anything else that holds no
	 * word (symbols, quotes, emoji, an invalid byte) would too, which
	 * is not what was asked. */
	if (rc == HEED_OK && ts.n == 0 &&
	    !only_blanks(heed__buf_str(&clean), end))
		rc = heed_diag_set(diag, HEED_EINVAL, 0, 0,
		                   "the search has no searchable words (only "
		                   "symbols or punctuation); type a word");
	if (rc == HEED_OK && ts.n > 0 && ts.positive == 0)
		rc = heed_diag_set(diag, HEED_EINVAL, 0, 0,
		                   "the search only excludes words (-word); "
		                   "add a word to look for");
	if (rc == HEED_OK && ts.n > 0)
		rc = write_expr(&out, &ts);
	if (rc == HEED_OK && ts.n > 0) {
		*fts = heed__buf_take(&out);
		if (!*fts)
			rc = HEED_ENOMEM;
	}
	heed__buf_free(&clean);
	heed__buf_free(&out);
	return rc;
}

/* ---- marks: the words of a search in what a result shows ---- */

/* Whether the character at s is part of a word for unicode61, and its
 * length. */
static bool word_char(const char *s, size_t len, size_t *n)
{
	uint32_t cp;

	*n = code_point((const unsigned char *)s, len, &cp);
	if (cp < 0x80)
		return ((cp | 0x20) >= 'a' && (cp | 0x20) <= 'z') ||
		       (cp >= '0' && cp <= '9');
	return !separator(cp);
}

static bool gram_word(const char *s, size_t len)
{
	for (size_t i = 0; i < len;) {
		uint32_t cp;
		i += heed__utf8_next(s + i, len - i, &cp);
		if (heed__gram_cp(cp))
			return true;
	}
	return false;
}

static void add_mark(struct heed__serve_marks *m, const char *w, size_t len)
{
	if (m->n == HEED__SERVE_MAX_TERMS || len == 0 ||
	    len >= sizeof(m->word[0].text))
		return;
	if ((len == 2 && memcmp(w, "OR", 2) == 0) ||
	    (len == 3 &&
	     (memcmp(w, "AND", 3) == 0 || memcmp(w, "NOT", 3) == 0)))
		return;
	for (size_t i = 0; i < len; i++)
		m->word[m->n].text[i] = heed__ascii_lower(w[i]);
	m->word[m->n].len = len;
	m->word[m->n].inside = gram_word(w, len);
	m->n++;
}

void heed__serve_marks_init(struct heed__serve_marks *m, const char *q)
{
	size_t len = q ? strlen(q) : 0, i = 0;
	bool excluded = false;

	memset(m, 0, sizeof(*m));
	while (i < len) {
		size_t start = i, n;
		if (!word_char(q + i, len - i, &n)) {
			/* "-word" excludes; a dash inside a phrase is text. */
			if (q[i] == '-' && (i == 0 || blank(q[i - 1])))
				excluded = true;
			else if (blank(q[i]))
				excluded = false;
			i += n;
			continue;
		}
		while (i < len && word_char(q + i, len - i, &n))
			i += n;
		if (!excluded)
			add_mark(m, q + start, i - start);
	}
}

/* Whether word w of s starts with mark k, ASCII case folded. */
static bool starts_with(const char *w, size_t wlen, const char *k, size_t klen)
{
	if (wlen < klen)
		return false;
	for (size_t i = 0; i < klen; i++)
		if (heed__ascii_lower(w[i]) != k[i])
			return false;
	return true;
}

/* The span marked at s[i] (a word's start, or inside a run), if any. */
static bool mark_at(const struct heed__serve_marks *m, const char *s,
                    size_t len, size_t i, bool word_start, size_t *end)
{
	size_t e = i, n;

	while (word_start && e < len && word_char(s + e, len - e, &n))
		e += n;
	for (size_t k = 0; k < m->n; k++) {
		const char *t = m->word[k].text;
		size_t tl = m->word[k].len;
		/* A mark cut inside a character (a query ending in half of
		 * one) would end a span mid-character: not a match. */
		if (m->word[k].inside && tl <= len - i &&
		    memcmp(s + i, t, tl) == 0 &&
		    (i + tl == len ||
		     ((unsigned char)s[i + tl] & 0xC0) != 0x80)) {
			*end = i + tl;
			return true;
		}
		if (!m->word[k].inside && word_start &&
		    starts_with(s + i, e - i, t, tl)) {
			*end = e;
			return true;
		}
	}
	return false;
}

bool heed__serve_mark_next(const struct heed__serve_marks *m, const char *s,
                           size_t len, size_t from, size_t *start, size_t *end)
{
	size_t i = from, n;
	bool prev_word = false;

	/* Whether from begins a word: the character before it says. */
	if (from > 0) {
		size_t b = from - 1;
		while (b > 0 && ((unsigned char)s[b] & 0xC0) == 0x80)
			b--;
		prev_word = word_char(s + b, len - b, &n);
	}
	while (i < len) {
		bool w = word_char(s + i, len - i, &n);
		if (w && mark_at(m, s, len, i, !prev_word, end)) {
			*start = i;
			return true;
		}
		prev_word = w;
		i += n;
	}
	return false;
}

/* ---- cursors: "<sort letter>.<key>.<id>", URL-safe as they are ---- */

static const char sort_letter[] = {'r', 'v', 'd', 'f'};

void heed__serve_cursor_format(heed_search_sort sort,
                               const struct heed_search_cursor *c,
                               char out[HEED__SERVE_CURSOR_SIZE])
{
	unsigned s = (unsigned)sort < sizeof(sort_letter) ? (unsigned)sort : 0;

	if (sort == HEED_SEARCH_SORT_RELEVANCE) {
		/* The score's bits in hex: exact, and no '+' (a space in a
		 * query string) as "%a" would write. */
		uint64_t bits;
		memcpy(&bits, &c->score, sizeof(bits));
		snprintf(out, HEED__SERVE_CURSOR_SIZE,
		         "r.%016" PRIx64 ".%" PRId64, bits, c->id);
		return;
	}
	snprintf(out, HEED__SERVE_CURSOR_SIZE, "%c.%" PRId64 ".%" PRId64,
	         sort_letter[s], c->key, c->id);
}

/* A decimal int64 filling [s, e): an optional '-', then digits. */
static bool int_field(const char *s, const char *e, int64_t *v)
{
	char num[24];
	char *end;
	size_t n = (size_t)(e - s);

	if (n == 0 || n >= sizeof(num) || (s[0] == '-' && n == 1))
		return false;
	for (size_t i = s[0] == '-'; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	memcpy(num, s, n);
	num[n] = '\0';
	errno = 0;
	*v = strtoll(num, &end, 10);
	return errno == 0 && *end == '\0';
}

static bool hex_field(const char *s, const char *e, uint64_t *v)
{
	*v = 0;
	if (e - s != 16)
		return false;
	for (; s < e; s++) {
		char c = heed__ascii_lower(*s);
		unsigned d = c >= '0' && c <= '9'   ? (unsigned)(c - '0')
		             : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
		                                    : 16;
		if (d == 16)
			return false;
		*v = (*v << 4) | d;
	}
	return true;
}

heed_status heed__serve_cursor_parse(const char *text, heed_search_sort sort,
                                     struct heed_search_cursor *c)
{
	const char *key, *dot, *end;
	struct heed_search_cursor r = {0};

	if (!text || (unsigned)sort >= sizeof(sort_letter) ||
	    text[0] != sort_letter[sort] || text[1] != '.')
		return HEED_EINVAL;
	key = text + 2;
	dot = strchr(key, '.');
	if (!dot)
		return HEED_EINVAL;
	end = dot + 1 + strlen(dot + 1);
	if (!int_field(dot + 1, end, &r.id) || r.id <= 0)
		return HEED_EINVAL;
	if (sort == HEED_SEARCH_SORT_RELEVANCE) {
		uint64_t bits;
		if (!hex_field(key, dot, &bits))
			return HEED_EINVAL;
		memcpy(&r.score, &bits, sizeof(bits));
		if (r.score != r.score) /* NaN orders nothing */
			return HEED_EINVAL;
	} else if (!int_field(key, dot, &r.key)) {
		return HEED_EINVAL;
	}
	*c = r;
	return HEED_OK;
}

/* ---- the search arguments ---- */

/* A value given and not empty: a form sends its empty fields as "". */
static const char *given(const struct heed__serve_args *args, const char *name)
{
	const char *v = heed__serve_arg(args, name);

	return v && *v ? v : NULL;
}

static bool digit(char c)
{
	return c >= '0' && c <= '9';
}

/* YYYY-MM-DD alone (*date_only), or followed by T and a time that
 * heed__parse_date reads to the end. */
static bool parse_day_or_time(const char *v, int64_t *unix_s, bool *date_only)
{
	size_t len = strlen(v), used = 0;
	char iso[32];

	if (len < 10 || !digit(v[0]) || !digit(v[1]) || !digit(v[2]) ||
	    !digit(v[3]) || v[4] != '-' || !digit(v[5]) || !digit(v[6]) ||
	    v[7] != '-' || !digit(v[8]) || !digit(v[9]))
		return false;
	if (len > 10 && v[10] != 'T' && v[10] != 't')
		return false;
	*date_only = len == 10;
	return heed__parse_date(v, len, unix_s, iso, &used) && used == len;
}

static heed_status parse_date_arg(const struct heed__serve_args *args,
                                  const char *name, bool end_of_day,
                                  int64_t *out, struct heed_diag *diag)
{
	const char *v = given(args, name);
	bool date_only = false;

	*out = HEED_STORE_NO_DATE;
	if (!v)
		return HEED_OK;
	if (!parse_day_or_time(v, out, &date_only))
		return heed_diag_set(diag, HEED_EINVAL, 0, 0,
		                     "%s: '%.40s' is not a date (YYYY-MM-DD)",
		                     name, v);
	if (date_only && end_of_day)
		*out += 86399; /* "to" holds its whole day */
	return HEED_OK;
}

static heed_status parse_count(const struct heed__serve_args *args,
                               const char *name, int64_t *out,
                               struct heed_diag *diag)
{
	const char *v = given(args, name);

	*out = -1;
	if (!v)
		return HEED_OK;
	if (v[0] == '-' || !int_field(v, v + strlen(v), out))
		return heed_diag_set(diag, HEED_EINVAL, 0, 0,
		                     "%s: '%.40s' is not a whole number of "
		                     "views (0 or more)",
		                     name, v);
	return HEED_OK;
}

static heed_status parse_lang(const char *v, struct heed_diag *diag)
{
	size_t len = strlen(v);
	bool ok = len <= 35;

	for (size_t i = 0; i < len && ok; i++) {
		char c = heed__ascii_lower(v[i]);
		ok = (c >= 'a' && c <= 'z') || digit(c) || (c == '-' && i > 0);
	}
	if (!ok)
		return heed_diag_set(diag, HEED_EINVAL, 0, 0,
		                     "lang: '%.40s' is not a language tag "
		                     "(such as en or pt-BR)",
		                     v);
	return HEED_OK;
}

static heed_status parse_sort(const char *v, bool words, heed_search_sort *s,
                              struct heed_diag *diag)
{
	static const char *const names[] = {"relevance", "views", "date",
	                                    "fetched"};

	*s = words ? HEED_SEARCH_SORT_RELEVANCE : HEED_SEARCH_SORT_FETCHED;
	if (!v)
		return HEED_OK;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(names); i++)
		if (strcmp(v, names[i]) == 0) {
			*s = (heed_search_sort)i;
			/* Without words there is nothing to rank: the
			 * store orders by fetch time, and so do cursors. */
			if (*s == HEED_SEARCH_SORT_RELEVANCE && !words)
				*s = HEED_SEARCH_SORT_FETCHED;
			return HEED_OK;
		}
	return heed_diag_set(diag, HEED_EINVAL, 0, 0,
	                     "sort: '%.40s' is not one of relevance, views, "
	                     "date, fetched",
	                     v);
}

static heed_status parse_limit(const char *v, int page_size, int *limit,
                               struct heed_diag *diag)
{
	int64_t n = 0;

	*limit = page_size < 1 ? 20 : page_size > 100 ? 100 : page_size;
	if (!v)
		return HEED_OK;
	if (!int_field(v, v + strlen(v), &n) || n < 1 || n > 100)
		return heed_diag_set(diag, HEED_EINVAL, 0, 0,
		                     "limit: '%.40s' is not a number from 1 to "
		                     "100",
		                     v);
	*limit = (int)n;
	return HEED_OK;
}

/* q, the one argument that may be long or refused for its content. */
static heed_status parse_q(const struct heed_allocator *a,
                           const struct heed__serve_args *args, char **fts,
                           struct heed_diag *diag)
{
	const char *v = given(args, "q");
	struct heed_diag d = {0};
	heed_status rc;

	if (!v)
		return HEED_OK;
	rc = heed__serve_fts_query(a, v, fts, &d);
	if (rc == HEED_EINVAL || rc == HEED_ETOOBIG)
		heed_diag_set(diag, rc, 0, 0, "q: %s", d.message);
	return rc;
}

static heed_status parse_filters(const struct heed__serve_args *args,
                                 struct heed_search_query *q,
                                 struct heed_diag *diag)
{
	heed_status rc;

	q->host = given(args, "site");
	q->tag = given(args, "tag");
	q->language = given(args, "lang");
	if (q->language && (rc = parse_lang(q->language, diag)) != HEED_OK)
		return rc;
	rc = parse_date_arg(args, "from", false, &q->published_from_s, diag);
	if (rc == HEED_OK)
		rc = parse_date_arg(args, "to", true, &q->published_to_s, diag);
	if (rc != HEED_OK)
		return rc;
	if (q->published_from_s != HEED_STORE_NO_DATE &&
	    q->published_to_s != HEED_STORE_NO_DATE &&
	    q->published_from_s > q->published_to_s)
		return heed_diag_set(diag, HEED_EINVAL, 0, 0,
		                     "from: the date is after to");
	rc = parse_count(args, "min_views", &q->min_views, diag);
	if (rc == HEED_OK)
		rc = parse_count(args, "max_views", &q->max_views, diag);
	if (rc == HEED_OK && q->min_views >= 0 && q->max_views >= 0 &&
	    q->min_views > q->max_views)
		rc = heed_diag_set(diag, HEED_EINVAL, 0, 0,
		                   "min_views: %" PRId64
		                   " is more than max_views (%" PRId64 ")",
		                   q->min_views, q->max_views);
	return rc;
}

/* The filters compared with what the store holds in its own case: tags
 * are stored case-folded by the extractor (heed__fold_case) and host keys
 * in lower case, so "Music" must find the pages tagged "music" and
 * "NEWS.test" the site news.test. The folded copies go after the FTS5
 * expression in *owned, the one allocation the caller frees. */
static heed_status fold_filters(const struct heed_allocator *a,
                                struct heed_search_query *q, char **owned)
{
	size_t fts_len = *owned ? strlen(*owned) : 0;
	size_t tag_len = q->tag ? strlen(q->tag) : 0;
	size_t host_len = q->host ? strlen(q->host) : 0;
	char *all, *tag, *host;

	if (!q->tag && !q->host)
		return HEED_OK;
	all = heed__malloc(a, fts_len + tag_len + host_len + 3);
	if (!all)
		return HEED_ENOMEM;
	memcpy(all, *owned ? *owned : "", fts_len + 1);
	tag = all + fts_len + 1;
	memcpy(tag, q->tag ? q->tag : "", tag_len + 1);
	tag[heed__fold_case(tag, tag_len)] = '\0';
	host = tag + tag_len + 1;
	for (size_t i = 0; i <= host_len; i++)
		host[i] = heed__ascii_lower(q->host ? q->host[i] : '\0');
	heed__free(a, *owned);
	*owned = all;
	q->tag = q->tag ? tag : NULL;
	q->host = q->host ? host : NULL;
	return HEED_OK;
}

heed_status heed__serve_parse_search(const struct heed_allocator *a,
                                     const struct heed__serve_args *args,
                                     int page_size, int64_t now_s,
                                     struct heed_search_query *q,
                                     char **fts_out, struct heed_diag *diag)
{
	const char *cursor;
	heed_status rc;

	memset(q, 0, sizeof(*q));
	*fts_out = NULL;
	q->now_s = now_s;
	rc = parse_q(a, args, fts_out, diag);
	if (rc == HEED_OK)
		rc = parse_filters(args, q, diag);
	if (rc == HEED_OK)
		rc = parse_sort(given(args, "sort"), *fts_out != NULL, &q->sort,
		                diag);
	if (rc == HEED_OK)
		rc = parse_limit(given(args, "limit"), page_size, &q->limit,
		                 diag);
	cursor = given(args, "cursor");
	if (rc == HEED_OK && cursor &&
	    heed__serve_cursor_parse(cursor, q->sort, &q->after) != HEED_OK)
		rc = heed_diag_set(diag, HEED_EINVAL, 0, 0,
		                   "cursor: '%.40s' is not a cursor of this "
		                   "search (start again from the first page)",
		                   cursor);
	bool has_match = *fts_out != NULL;
	if (rc == HEED_OK)
		rc = fold_filters(a, q, fts_out);
	if (rc != HEED_OK) {
		heed__free(a, *fts_out);
		*fts_out = NULL;
		return rc;
	}
	q->match = has_match ? *fts_out : NULL;
	return HEED_OK;
}
