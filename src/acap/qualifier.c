/*
 * Usage qualifiers (2.4.1.2, 2.5 and Annex A): the value grammar of each
 * type, the usage types it may qualify, its repetition rule and the ACAP
 * version that introduced each value.
 *
 * A qualifier heed cannot act on makes its permission a prohibition at
 * decision time (2.4.3); here we only record why. heed acts on time-limit
 * (not its plus-terms value) and max-length: HEED_ACAP_INTERPRETED_QUALIFIERS.
 */
#include "acap/acap-int.h"

#define U(x) (1u << HEED_ACAP_##x)
#define PRESENT_ALL                                                       \
	(U(PRESENT) | U(PRESENT_ORIGINAL) | U(PRESENT_CURRENTCOPY) |      \
	 U(PRESENT_OLDCOPY) | U(PRESENT_SNIPPET) | U(PRESENT_THUMBNAIL) | \
	 U(PRESENT_OLDSNIPPET) | U(PRESENT_OLDTHUMBNAIL) | U(PRESENT_LINK))
#define PRESENT_COPIES                                               \
	(U(PRESENT) | U(PRESENT_ORIGINAL) | U(PRESENT_CURRENTCOPY) | \
	 U(PRESENT_OLDCOPY))

/* Annex A, column "Applicable usage type". */
static const unsigned applicable[] = {
        [HEED_ACAP_Q_TIME_LIMIT] = U(INDEX) | U(PRESERVE) | PRESENT_ALL,
        [HEED_ACAP_Q_MAX_LENGTH] = U(PRESENT_SNIPPET) | U(PRESENT_OLDSNIPPET),
        [HEED_ACAP_Q_MUST_USE_RESOURCE] =
                U(INDEX) | U(PRESENT) | U(PRESENT_SNIPPET) |
                U(PRESENT_THUMBNAIL) | U(PRESENT_OLDSNIPPET) |
                U(PRESENT_OLDTHUMBNAIL) | U(PRESENT_LINK),
        [HEED_ACAP_Q_MUST_INCLUDE_RESOURCE] =
                U(PRESENT) | U(PRESENT_SNIPPET) | U(PRESENT_OLDSNIPPET),
        [HEED_ACAP_Q_PROHIBITED_MODIFICATION] = PRESENT_COPIES,
        [HEED_ACAP_Q_PROHIBITED_CONTEXT] = PRESENT_COPIES,
        [HEED_ACAP_Q_REQUIRED_CONTEXT] = PRESENT_COPIES,
        [HEED_ACAP_Q_TARGET_CONDITION] = U(PRESENT),
        [HEED_ACAP_Q_USAGE_REF] = U(OTHER),
};

/* What a value check found. */
enum verdict { V_BAD, V_10, V_11 };

/* section 3: value-char = %x21 / %x24-26 / %x28-7E */
static bool value_chars_ok(const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c < 0x21 || c > 0x7E || c == '"' || c == '#' || c == '\'')
			return false;
	}
	return true;
}

static bool ieq(const char *s, const char *lit)
{
	return heed__ascii_ieq(s, strlen(s), lit);
}

/* Whether s starts with lit, case-insensitively; *rest is what follows. */
static bool iprefix(const char *s, const char *lit, const char **rest)
{
	size_t n = strlen(lit);

	if (strlen(s) < n || !heed__ascii_ieq(s, n, lit))
		return false;
	*rest = s + n;
	return true;
}

/* "n" followed by suffix, n a decimal integer; stores n (saturated). */
static bool number_then(const char *s, const char *suffix, uint64_t *n)
{
	uint64_t v = 0;
	size_t i = 0;

	for (; s[i] >= '0' && s[i] <= '9'; i++)
		v = v > (UINT64_MAX - 9) / 10 ? UINT64_MAX
		                              : v * 10 + (uint64_t)(s[i] - '0');
	if (i == 0 || !ieq(s + i, suffix))
		return false;
	*n = v;
	return true;
}

/* Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant). */
static int64_t days_from_civil(int64_t y, unsigned m, unsigned d)
{
	int64_t era;
	unsigned yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (unsigned)(y - era * 400);
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (int64_t)doe - 719468;
}

static bool digits(const char *s, size_t n, unsigned *out)
{
	unsigned v = 0;

	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (unsigned)(s[i] - '0');
	}
	*out = v;
	return true;
}

/*
 * until-yyyy-mm-dd: "may be indexed until but not after the specified
 * date". The text names no time zone, so heed takes the reading that ends
 * first: the date is over once it is over anywhere, that is at its end in
 * UTC+14 (10:00 UTC on that date).
 */
static bool parse_date(const char *s, int64_t *end)
{
	static const unsigned mdays[] = {31, 29, 31, 30, 31, 30,
	                                 31, 31, 30, 31, 30, 31};
	unsigned y, m, d;
	bool leap;

	if (strlen(s) != 10 || s[4] != '-' || s[7] != '-' ||
	    !digits(s, 4, &y) || !digits(s + 5, 2, &m) ||
	    !digits(s + 8, 2, &d) || m < 1 || m > 12 || d < 1 ||
	    d > mdays[m - 1])
		return false;
	leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
	if (m == 2 && d == 29 && !leap)
		return false;
	*end = (days_from_civil(y, m, d) + 1) * 86400 - 14 * 3600;
	return true;
}

enum tl_kind { TL_BAD, TL_RECRAWLED, TL_DATE, TL_DAYS, TL_PLUS };

static enum tl_kind time_limit_kind(const char *v, int64_t *date,
                                    uint64_t *days)
{
	const char *rest;

	/* 2.4.1.2's own example spells it "until-recrawl". */
	if (ieq(v, "until-recrawled") || ieq(v, "until-recrawl"))
		return TL_RECRAWLED;
	if (ieq(v, "plus-terms"))
		return TL_PLUS;
	if (iprefix(v, "until-", &rest) && parse_date(rest, date))
		return TL_DATE;
	if (number_then(v, "-days", days))
		return TL_DAYS;
	return TL_BAD;
}

static enum verdict check_time_limit(const char *v)
{
	int64_t date;
	uint64_t days;
	enum tl_kind k = time_limit_kind(v, &date, &days);

	if (k == TL_BAD)
		return V_BAD;
	return k == TL_PLUS ? V_11 : V_10;
}

static enum verdict check_max_length(const char *v)
{
	uint64_t n;

	return number_then(v, "-chars", &n) || number_then(v, "-words", &n)
	               ? V_10
	               : V_BAD;
}

static enum verdict one_of(const char *v, const char *const *v10,
                           const char *const *v11)
{
	for (; v10 && *v10; v10++)
		if (ieq(v, *v10))
			return V_10;
	for (; v11 && *v11; v11++)
		if (ieq(v, *v11))
			return V_11;
	return V_BAD;
}

/* Whether s starts with one of prefixes; *arg is what follows it. */
static bool prefixed(const char *s, const char *const *prefixes,
                     const char **arg)
{
	for (; *prefixes; prefixes++)
		if (iprefix(s, *prefixes, arg))
			return true;
	return false;
}

/* A locator after "the-acap:<role>:": id:, class:, meta: (1.0), [V1.1]
 * text: or a general URI (2.5.5.6, 2.5.6.1). */
static enum verdict check_locator(const char *loc)
{
	static const char *const v10[] = {"id:", "class:", "meta:", NULL};
	static const char *const v11[] = {"text:", NULL};
	const char *arg;

	if (*loc == '\0')
		return V_BAD;
	if (prefixed(loc, v10, &arg))
		return *arg ? V_10 : V_BAD;
	if (prefixed(loc, v11, &arg))
		return *arg ? V_11 : V_BAD;
	return V_10;
}

/* must-use-resource (2.5.3.2): a regular URI, the-acap:extract:id|class|
 * meta:..., [V1.1] the-acap:extract:idlist|classlist|taglist:... or
 * [V1.1] the-acap:text:... */
static enum verdict check_must_use(const char *v)
{
	static const char *const v10[] = {"id:", "class:", "meta:", NULL};
	static const char *const v11[] = {
	        "idlist:", "classlist:", "taglist:", NULL};
	const char *rest, *arg;

	if (!iprefix(v, "the-acap:", &rest))
		return V_10;
	if (iprefix(rest, "text:", &arg))
		return *arg ? V_11 : V_BAD;
	if (!iprefix(rest, "extract:", &rest))
		return V_BAD;
	if (prefixed(rest, v10, &arg))
		return *arg ? V_10 : V_BAD;
	if (prefixed(rest, v11, &arg))
		return *arg ? V_11 : V_BAD;
	return V_BAD;
}

/* the-acap:<role>:<locator> with the roles given, or a general URI. */
static enum verdict check_role_uri(const char *v, const char *const *r10,
                                   const char *const *r11)
{
	const char *rest, *colon;
	char role[32];
	size_t n;
	enum verdict rv, lv;

	if (!iprefix(v, "the-acap:", &rest))
		return V_10;
	colon = strchr(rest, ':');
	n = colon ? (size_t)(colon - rest) : 0;
	if (!colon || n == 0 || n >= sizeof(role))
		return V_BAD;
	memcpy(role, rest, n);
	role[n] = '\0';
	rv = one_of(role, r10, r11);
	lv = rv == V_BAD ? V_BAD : check_locator(colon + 1);
	if (rv == V_BAD || lv == V_BAD)
		return V_BAD;
	return rv == V_11 || lv == V_11 ? V_11 : V_10;
}

static enum verdict check_must_include(const char *v)
{
	static const char *const r10[] = {"extract", "credit", "link", NULL};
	static const char *const r11[] = {"license-link", "registration-link",
	                                  NULL};

	if (ieq(v, "plus-terms"))
		return V_11;
	return check_role_uri(v, r10, r11);
}

static enum verdict check_usage_ref(const char *v)
{
	static const char *const r[] = {"link", "terms-link", "permission-link",
	                                NULL};

	return check_role_uri(v, r, NULL) == V_BAD ? V_BAD : V_11;
}

static enum verdict check_target(const char *v)
{
	static const char *const types[] = {"ipaddressrangelist:",
	                                    "ipaddressmasklist:",
	                                    "permitteddomainlist:",
	                                    "prohibiteddomainlist:",
	                                    "permittedcountrylist:",
	                                    "prohibitedcountrylist:",
	                                    "rulesref:",
	                                    NULL};
	const char *rest;

	for (size_t i = 0; types[i]; i++)
		if (iprefix(v, types[i], &rest))
			return *rest ? V_11 : V_BAD;
	return V_BAD;
}

static enum verdict check_value(heed_acap_qualifier_type t, const char *v)
{
	static const char *const mod10[] = {
	        "any", "format", "style", "translation", "annotation", NULL};
	static const char *const mod11[] = {"appearance", "content",
	                                    "metadata",   "structure",
	                                    "plus-terms", NULL};
	static const char *const pctx[] = {"within-user-frame", NULL};
	static const char *const rctx10[] = {"within-original-frame", NULL};

	if (*v == '\0' || !value_chars_ok(v))
		return V_BAD;
	switch (t) {
	case HEED_ACAP_Q_TIME_LIMIT:
		return check_time_limit(v);
	case HEED_ACAP_Q_MAX_LENGTH:
		return check_max_length(v);
	case HEED_ACAP_Q_MUST_USE_RESOURCE:
		return check_must_use(v);
	case HEED_ACAP_Q_MUST_INCLUDE_RESOURCE:
		return check_must_include(v);
	case HEED_ACAP_Q_PROHIBITED_MODIFICATION:
		return one_of(v, mod10, mod11);
	case HEED_ACAP_Q_PROHIBITED_CONTEXT:
		return one_of(v, pctx, NULL);
	case HEED_ACAP_Q_REQUIRED_CONTEXT:
		return one_of(v, rctx10, pctx);
	case HEED_ACAP_Q_TARGET_CONDITION:
		return check_target(v);
	case HEED_ACAP_Q_USAGE_REF:
		return check_usage_ref(v);
	case HEED_ACAP_Q_UNKNOWN:
		break;
	}
	return V_BAD;
}

static heed_acap_qualifier_type type_from_name(const char *s, size_t n)
{
	for (unsigned t = 0; t < HEED_ACAP_Q_UNKNOWN; t++)
		if (heed__ascii_ieq(s, n, heed_acap_qualifier_name(t)))
			return (heed_acap_qualifier_type)t;
	return HEED_ACAP_Q_UNKNOWN;
}

/* Qualifier type names are this long at most, and so are the typos
 * nearest_type looks at. */
#define TYPE_NAME_MAX 32

/* The edit distance of a and b (insertions, deletions, substitutions and
 * swaps of neighbours), case-insensitively; both at most TYPE_NAME_MAX. */
static size_t distance(const char *a, size_t n, const char *b, size_t m)
{
	size_t d[TYPE_NAME_MAX + 1][TYPE_NAME_MAX + 1];

	for (size_t i = 0; i <= n; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= m; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= n; i++) {
		for (size_t j = 1; j <= m; j++) {
			char x = heed__ascii_lower(a[i - 1]);
			char y = heed__ascii_lower(b[j - 1]);
			size_t best = d[i - 1][j - 1] + (x != y);
			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 &&
			    x == heed__ascii_lower(b[j - 2]) &&
			    heed__ascii_lower(a[i - 2]) == y &&
			    d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	}
	return d[n][m];
}

/* The qualifier type a mistyped name most likely meant ("time_limit",
 * "timelimit", "time-limt": time-limit), or NULL. */
static const char *nearest_type(const char *name)
{
	size_t n = strlen(name);

	if (n > TYPE_NAME_MAX)
		return NULL;
	for (unsigned t = 0; t < HEED_ACAP_Q_UNKNOWN; t++) {
		const char *k = heed_acap_qualifier_name(t);
		if (strlen(k) <= TYPE_NAME_MAX &&
		    distance(name, n, k, strlen(k)) <= 2)
			return k;
	}
	return NULL;
}

static void not_interpretable(struct acap_qualset *qs, const char *why)
{
	if (qs->interpretable)
		qs->why = why;
	qs->interpretable = false;
}

/* Splits "type = value type=value ..." (section 3: qualifier-specification
 * = qualifier-type *WSP "=" *WSP qualifier-value) into a vector. */
static heed_status tokenize(struct heed_acap *r, const char *s, size_t len,
                            unsigned line, struct acap_vec *v,
                            struct acap_qualset *out)
{
	size_t i = 0;

	while (i < len) {
		size_t ns, ne, vs;
		struct heed_acap_qualifier *q;

		while (i < len && heed__ascii_space(s[i]))
			i++;
		if (i == len)
			break;
		ns = i;
		while (i < len && !heed__ascii_space(s[i]) && s[i] != '=')
			i++;
		ne = i;
		while (i < len && heed__ascii_space(s[i]))
			i++;
		if (i == len || s[i] != '=') {
			not_interpretable(out, "a qualifier has no value");
			out->broken = true;
			if (heed__acap_diag(
			            r, line, HEED_ACAP_ERROR,
			            "'%.*s' is not a qualifier "
			            "(type=value, 2.4.1.2); permissions "
			            "with it are read as prohibitions "
			            "(2.4.3)",
			            (int)(ne - ns), s + ns))
				return HEED_ENOMEM;
			continue;
		}
		i++;
		while (i < len && heed__ascii_space(s[i]))
			i++;
		vs = i;
		while (i < len && !heed__ascii_space(s[i]))
			i++;
		if (heed__acap_vec_push(r->alloc, v, sizeof(*q), (void **)&q))
			return HEED_ENOMEM;
		q->type = type_from_name(s + ns, ne - ns);
		q->line = line;
		q->name = heed__arena_strndup(&r->arena, s + ns, ne - ns);
		q->value = heed__arena_strndup(&r->arena, s + vs, i - vs);
		if (!q->name || !q->value)
			return HEED_ENOMEM;
	}
	return HEED_OK;
}

static heed_status note_ignored(struct heed_acap *r,
                                const struct heed_acap_qualifier *q,
                                const char *rule)
{
	return heed__acap_diag(r, q->line, HEED_ACAP_NOTE,
	                       "%s=%s is ignored: %s", q->name, q->value, rule);
}

/* 2.5.3.1 [V1.1]: at most two time-limits count; plus-terms only as the
 * first and only one; of two of the same kind the second is ignored. */
static heed_status time_limit_rules(struct heed_acap *r,
                                    struct acap_qualset *qs)
{
	size_t idx[2], n = 0, total = 0;
	int64_t date;
	uint64_t days;

	for (size_t i = 0; i < qs->n; i++) {
		if (qs->q[i].type != HEED_ACAP_Q_TIME_LIMIT)
			continue;
		if (++total > 2) {
			qs->used[i] = false;
			if (note_ignored(
			            r, &qs->q[i],
			            "only two time-limits count (2.5.3.1)"))
				return HEED_ENOMEM;
			continue;
		}
		idx[n++] = i;
	}
	if (total > 1)
		qs->v11 = true;
	for (size_t k = 0; total > 1 && k < n; k++) {
		if (time_limit_kind(qs->q[idx[k]].value, &date, &days) !=
		    TL_PLUS)
			continue;
		qs->used[idx[k]] = false;
		if (note_ignored(r, &qs->q[idx[k]],
		                 "plus-terms must be the only time-limit "
		                 "(2.5.3.1)"))
			return HEED_ENOMEM;
	}
	if (n == 2 && qs->used[idx[0]] && qs->used[idx[1]] &&
	    time_limit_kind(qs->q[idx[0]].value, &date, &days) ==
	            time_limit_kind(qs->q[idx[1]].value, &date, &days)) {
		qs->used[idx[1]] = false;
		if (note_ignored(r, &qs->q[idx[1]],
		                 "a second time-limit of the same kind "
		                 "(2.5.3.1)"))
			return HEED_ENOMEM;
	}
	return HEED_OK;
}

/* prohibited-modification (2.5.5.5): "If any occurrence of this qualifier
 * has the value any or plus-terms, all other occurrences of the same
 * qualifier are to be ignored." target-condition (2.5.5.9): rulesref only as
 * the first and only one. The rest: the first occurrence wins. */
static heed_status repetition_rules(struct heed_acap *r,
                                    struct acap_qualset *qs)
{
	size_t count[HEED_ACAP_Q_UNKNOWN + 1] = {0};
	size_t seen[HEED_ACAP_Q_UNKNOWN + 1] = {0};
	long sole_mod = -1;
	const char *rest;

	for (size_t i = 0; i < qs->n; i++) {
		count[qs->q[i].type]++;
		if (sole_mod < 0 &&
		    qs->q[i].type == HEED_ACAP_Q_PROHIBITED_MODIFICATION &&
		    (ieq(qs->q[i].value, "any") ||
		     ieq(qs->q[i].value, "plus-terms")))
			sole_mod = (long)i;
	}
	for (size_t i = 0; i < qs->n; i++) {
		const struct heed_acap_qualifier *q = &qs->q[i];
		const char *rule = NULL;

		seen[q->type]++;
		switch (q->type) {
		case HEED_ACAP_Q_MAX_LENGTH:
		case HEED_ACAP_Q_MUST_USE_RESOURCE:
		case HEED_ACAP_Q_MUST_INCLUDE_RESOURCE:
		case HEED_ACAP_Q_PROHIBITED_CONTEXT:
		case HEED_ACAP_Q_REQUIRED_CONTEXT:
			if (count[q->type] > 1)
				qs->v11 = true;
			if (seen[q->type] > 1)
				rule = "only the first one counts (2.5)";
			break;
		case HEED_ACAP_Q_PROHIBITED_MODIFICATION:
			if (sole_mod >= 0 && (long)i != sole_mod)
				rule = "'any' or 'plus-terms' overrides other "
				       "values (2.5.5.5)";
			break;
		case HEED_ACAP_Q_TARGET_CONDITION:
			if (iprefix(q->value, "rulesref:", &rest) &&
			    count[q->type] > 1)
				rule = "rulesref must be the only "
				       "target-condition (2.5.5.9)";
			break;
		default:
			break;
		}
		if (rule) {
			qs->used[i] = false;
			if (note_ignored(r, q, rule))
				return HEED_ENOMEM;
		}
	}
	return time_limit_rules(r, qs);
}

/* Fills the time-limit and max-length heed acts on from used qualifiers. */
static void interpret(struct acap_qualset *qs)
{
	for (size_t i = 0; i < qs->n; i++) {
		const struct heed_acap_qualifier *q = &qs->q[i];
		int64_t date = 0;
		uint64_t n = 0;

		if (!qs->used[i])
			continue;
		if (q->type == HEED_ACAP_Q_MAX_LENGTH &&
		    qs->max_length.unit == HEED_ACAP_LENGTH_NONE) {
			if (number_then(q->value, "-chars", &n))
				qs->max_length.unit = HEED_ACAP_LENGTH_CHARS;
			else if (number_then(q->value, "-words", &n))
				qs->max_length.unit = HEED_ACAP_LENGTH_WORDS;
			qs->max_length.count = n;
		}
		if (q->type != HEED_ACAP_Q_TIME_LIMIT)
			continue;
		switch (time_limit_kind(q->value, &date, &n)) {
		case TL_RECRAWLED:
			qs->time.present = qs->time.until_recrawled = true;
			break;
		case TL_DATE:
			qs->time.present = qs->time.has_date = true;
			qs->time.date_end = date;
			break;
		case TL_DAYS:
			qs->time.present = qs->time.has_days = true;
			qs->time.days = n;
			break;
		default:
			break;
		}
	}
}

/* Checks each used qualifier's value and usage type (Annex A). */
static heed_status check_each(struct heed_acap *r, struct acap_qualset *qs,
                              heed_acap_usage usage)
{
	for (size_t i = 0; i < qs->n; i++) {
		const struct heed_acap_qualifier *q = &qs->q[i];
		enum verdict v;

		if (q->type == HEED_ACAP_Q_UNKNOWN) {
			const char *near = nearest_type(q->name);
			not_interpretable(qs, "it has a qualifier ACAP does "
			                      "not define");
			qs->broken = true;
			if (heed__acap_diag(
			            r, q->line, HEED_ACAP_ERROR,
			            "'%s' is not a qualifier type "
			            "(Annex A%s%s%s); permissions with "
			            "it are read as prohibitions (2.4.3)",
			            q->name, near ? "; did you mean " : "",
			            near ? near : "", near ? "?" : ""))
				return HEED_ENOMEM;
			continue;
		}
		v = check_value(q->type, q->value);
		if (v == V_11 && qs->used[i])
			qs->v11 = true;
		/* A mistyped value is a prohibition even where a repetition
		 * rule would drop it: the author may have meant it to be
		 * the one that counts. */
		if (v == V_BAD) {
			not_interpretable(qs, "a qualifier value is not valid");
			qs->broken = true;
			if (heed__acap_diag(r, q->line, HEED_ACAP_ERROR,
			                    "'%s' is not a valid value of %s "
			                    "(Annex A); permissions with it "
			                    "are read as prohibitions (2.4.3)",
			                    q->value, q->name))
				return HEED_ENOMEM;
		}
		if (!qs->used[i])
			continue;
		if (!(applicable[q->type] & (1u << usage))) {
			not_interpretable(qs, "a qualifier does not apply to "
			                      "its usage type");
			if (heed__acap_diag(r, q->line, HEED_ACAP_ERROR,
			                    "%s does not apply to usage %s "
			                    "(Annex A)",
			                    q->name,
			                    heed_acap_usage_name(usage)))
				return HEED_ENOMEM;
		}
		if (!(HEED_ACAP_INTERPRETED_QUALIFIERS & (1u << q->type)))
			not_interpretable(qs, "heed does not interpret one of "
			                      "its qualifiers");
		else if (q->type == HEED_ACAP_Q_TIME_LIMIT &&
		         ieq(q->value, "plus-terms"))
			not_interpretable(qs, "heed cannot read PLUS license "
			                      "terms (time-limit=plus-terms)");
	}
	return HEED_OK;
}

heed_status heed__acap_quals_parse(struct heed_acap *r, const char *text,
                                   size_t len, unsigned line,
                                   heed_acap_usage usage,
                                   struct acap_qualset *out)
{
	struct acap_vec v = {0};
	heed_status rc;

	memset(out, 0, sizeof(*out));
	out->interpretable = true;
	rc = tokenize(r, text, len, line, &v, out);
	if (rc != HEED_OK || v.n == 0)
		goto out;
	rc = HEED_ENOMEM;
	out->n = v.n;
	out->q = heed__acap_arena_copy(r, v.items, v.n * sizeof(*out->q));
	out->used = heed__arena_alloc(&r->arena, v.n * sizeof(bool));
	if (!out->q || !out->used)
		goto out;
	for (size_t i = 0; i < v.n; i++)
		out->used[i] = true;
	rc = repetition_rules(r, out);
	if (rc == HEED_OK)
		rc = check_each(r, out, usage);
	interpret(out);
out:
	heed__acap_vec_free(r->alloc, &v);
	return rc;
}
