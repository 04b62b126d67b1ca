/*
 * The ACAP parser: robots.txt lines (from the robots lexer) to records,
 * sub-records, definitions and fields (sections 2.2 to 2.10 and the grammar
 * of section 3).
 *
 * One pass over the lines. A record starts at an ACAP-crawler line that
 * follows some other field (2.3); a sub-record at an ACAP-usage-purpose line
 * that follows a permission (2.3). Definitions are resolved when they are
 * used, so a use before its definition does not resolve ("All definition
 * fields must occur before all ACAP records", 2.2.1). Breaking a rule of the
 * text gives a diagnostic and the most restrictive reading heed can make;
 * docs/acap.md lists them. A 500 KiB file costs O(bytes) time and memory.
 */
#include "acap/acap-int.h"

struct parser {
	struct heed_acap *r;
	long record;        /* current ACAP record, -1 outside one */
	bool record_body;   /* it has a field after its crawler lines */
	long sub;           /* current sub-record, -1 for the record level */
	bool sub_fields;    /* it has a permission or prohibition */
	bool blind_sub;     /* after a purpose line without a pattern */
	bool record_fields; /* it has a field (not counting purposes) */
	bool record_subs;   /* it has a sub-record */
	bool seen_acap;     /* an ACAP field other than the version */
	bool seen_definition, seen_record;
	bool seen_conventional;  /* a field that is not ACAP */
	struct acap_vec scratch; /* const char * while a line is read */
	long source;             /* -1: the robots.txt file; else a referenced
	                            file (index into sources, 2.3.2) */
	size_t first_field;      /* the first field this parse added */
	bool vdeclared;          /* this file's ACAP-version (2.8) */
	unsigned vmajor, vminor;
};

/* A field's name and value as the grammar sees them. */
struct acap_line {
	const struct heed_robots_line *ln;
	const char *rest; /* the name after "ACAP-" */
	size_t rest_len;
};

static bool next_token(const char **s, const char *end, const char **tok,
                       size_t *len)
{
	const char *p = *s;

	while (p < end && heed__ascii_space(*p))
		p++;
	if (p == end)
		return false;
	*tok = p;
	while (p < end && !heed__ascii_space(*p))
		p++;
	*len = (size_t)(p - *tok);
	*s = p;
	return true;
}

static char *dup(struct parser *p, const char *s, size_t n)
{
	return heed__arena_strndup(&p->r->arena, s, n);
}

static heed_status push_name(struct heed_acap *r, const char *s, size_t n)
{
	const char **slot;
	char *copy = heed__arena_strndup(&r->arena, s, n);

	if (!copy || heed__acap_vec_push(r->alloc, &r->names, sizeof(*slot),
	                                 (void **)&slot))
		return HEED_ENOMEM;
	*slot = copy;
	return HEED_OK;
}

/* "##ACAP version=1.1" (2.10.3): the lexer hands us "#ACAP version=1.1". */
static heed_status on_comment(struct parser *p,
                              const struct heed_robots_line *ln)
{
	static const char tag[] = "#ACAP version=";
	size_t n = sizeof(tag) - 1;
	const char *v;
	size_t vlen;

	if (ln->comment_len < n || !heed__ascii_ieq(ln->comment, n, tag))
		return HEED_OK;
	v = ln->comment + n;
	vlen = ln->comment_len - n;
	while (vlen && heed__ascii_space(v[vlen - 1]))
		vlen--;
	if (p->r->comment_version)
		return HEED_OK;
	p->r->comment_version = dup(p, v, vlen);
	if (!p->r->comment_version)
		return HEED_ENOMEM;
	if (p->seen_acap || p->seen_conventional)
		return heed__acap_diag(p->r, ln->number, HEED_ACAP_NOTE,
		                       "the ##ACAP comment is recommended to "
		                       "come before any other record (2.10.3)");
	return HEED_OK;
}

/* ACAP-version: n.m (2.8) */
static heed_status on_version(struct parser *p,
                              const struct heed_robots_line *ln)
{
	struct heed_acap *r = p->r;
	unsigned major = 0, minor = 0;
	size_t i = 0, n = ln->value_len;
	const char *v = ln->value;
	bool ok;

	if (p->vdeclared)
		return heed__acap_diag(r, ln->number, HEED_ACAP_ERROR,
		                       "a second ACAP-version field is ignored "
		                       "(2.8)");
	for (; i < n && v[i] >= '0' && v[i] <= '9' && major < 100000; i++)
		major = major * 10 + (unsigned)(v[i] - '0');
	ok = i > 0 && i < n && v[i] == '.';
	for (size_t j = ++i; ok && j < n; j++) {
		ok = v[j] >= '0' && v[j] <= '9' && minor < 100000;
		minor = ok ? minor * 10 + (unsigned)(v[j] - '0') : minor;
	}
	if (!ok || i >= n)
		return heed__acap_diag(r, ln->number, HEED_ACAP_ERROR,
		                       "'%.*s' is not a version number n.m "
		                       "(2.8); heed reads the file as ACAP 1.0",
		                       (int)n, v);
	p->vdeclared = true;
	p->vmajor = major;
	p->vminor = minor;
	if (p->seen_acap &&
	    heed__acap_diag(r, ln->number, HEED_ACAP_WARNING,
	                    "the ACAP-version field must precede all other "
	                    "ACAP fields (2.8)"))
		return HEED_ENOMEM;
	if (major != 1)
		return heed__acap_diag(
		        r, ln->number, HEED_ACAP_ERROR,
		        "heed knows ACAP 1.0 and 1.1 only: it reads "
		        "every permission of ACAP %u.%u as a "
		        "prohibition (2.4.3)",
		        major, minor);
	return HEED_OK;
}

static heed_status on_ignore_conventional(struct parser *p,
                                          const struct heed_robots_line *ln)
{
	if (p->source >= 0)
		return heed__acap_diag(
		        p->r, ln->number, HEED_ACAP_NOTE,
		        "a referenced file's conventional records "
		        "are never read; this field changes "
		        "nothing (2.3.2)");
	p->r->ignore_conventional = true;
	if (ln->value_len > 0 &&
	    heed__acap_diag(p->r, ln->number, HEED_ACAP_WARNING,
	                    "ACAP-ignore-conventional-records takes no value"))
		return HEED_ENOMEM;
	if (p->seen_definition || p->seen_record)
		return heed__acap_diag(p->r, ln->number, HEED_ACAP_WARNING,
		                       "ACAP-ignore-conventional-records must "
		                       "come before all other ACAP fields but "
		                       "the version (2.2.1, 2.10.1)");
	return HEED_OK;
}

static long find_kind(const struct heed_acap *r, int space, int want,
                      const char *s, size_t n)
{
	int kind;
	long i = heed__acap_index_get(&r->defs, space, s, n, &kind);

	return i >= 0 && kind == want ? i : -1;
}

static long find_qdef(const struct heed_acap *r, const char *s, size_t n)
{
	return find_kind(r, ACAP_SPACE_USAGE, ACAP_DEF_QUALIFIED, s, n);
}

static long find_cdef(const struct heed_acap *r, const char *s, size_t n)
{
	return find_kind(r, ACAP_SPACE_USAGE, ACAP_DEF_COMPOSITE, s, n);
}

static long find_rset(const struct heed_acap *r, const char *s, size_t n)
{
	return find_kind(r, ACAP_SPACE_SET, ACAP_DEF_SET, s, n);
}

/* Checks a definition's name: valid and not taken (section 3 NOTEs). */
static heed_status def_name_ok(struct parser *p, unsigned line, const char *s,
                               size_t n, bool usage, bool *ok)
{
	bool taken =
	        heed__acap_index_get(&p->r->defs,
	                             usage ? ACAP_SPACE_USAGE : ACAP_SPACE_SET,
	                             s, n, NULL) >= 0;

	*ok = false;
	if (!heed__acap_name_ok(s, n))
		return heed__acap_diag(
		        p->r, line, HEED_ACAP_ERROR,
		        "'%.*s' is not a valid name (section 3); "
		        "the definition is ignored",
		        (int)n, s);
	if (taken)
		return heed__acap_diag(
		        p->r, line, HEED_ACAP_ERROR,
		        "'%.*s' is already defined (section 3: no "
		        "two may share a name); the first "
		        "definition stands",
		        (int)n, s);
	*ok = true;
	return HEED_OK;
}

static heed_status definition_placement(struct parser *p, unsigned line)
{
	p->seen_definition = true;
	if (!p->seen_record)
		return HEED_OK;
	return heed__acap_diag(p->r, line, HEED_ACAP_ERROR,
	                       "definitions must come before all ACAP records "
	                       "(2.2.1); records above cannot use this one");
}

/*
 * Starts a definition field: checks its place, reads its name (advancing
 * *s) and adds an element of elem bytes to v with that name checked and
 * indexed. *slot is the new element, NULL when the field is refused (a
 * diagnostic, naming `what`, says why); *copy is the name in the arena.
 */
static heed_status define(struct parser *p, const struct heed_robots_line *ln,
                          const char **s, int kind, const char *what,
                          struct acap_vec *v, size_t elem, void **slot,
                          const char **copy)
{
	int space = kind == ACAP_DEF_SET ? ACAP_SPACE_SET : ACAP_SPACE_USAGE;
	const char *name;
	size_t nlen;
	bool ok;
	heed_status rc = definition_placement(p, ln->number);

	*slot = NULL;
	if (rc != HEED_OK)
		return rc;
	if (!next_token(s, ln->value + ln->value_len, &name, &nlen))
		return heed__acap_diag(p->r, ln->number, HEED_ACAP_ERROR,
		                       "%s needs a name (2.7)", what);
	rc = def_name_ok(p, ln->number, name, nlen, space == ACAP_SPACE_USAGE,
	                 &ok);
	if (rc != HEED_OK || !ok)
		return rc;
	*copy = dup(p, name, nlen);
	if (!*copy || heed__acap_vec_push(p->r->alloc, v, elem, slot) ||
	    heed__acap_index_put(p->r->alloc, &p->r->defs, space, kind, *copy,
	                         v->n - 1))
		return HEED_ENOMEM;
	return HEED_OK;
}

/* ACAP-qualified-usage: name usage qualifiers (2.7.1) */
static heed_status on_qualified(struct parser *p,
                                const struct heed_robots_line *ln)
{
	const char *s = ln->value, *end = ln->value + ln->value_len;
	const char *usage, *copy;
	size_t ulen = 0;
	struct acap_qdef *d;
	heed_status rc =
	        define(p, ln, &s, ACAP_DEF_QUALIFIED, "ACAP-qualified-usage",
	               &p->r->qdefs, sizeof(*d), (void **)&d, &copy);

	if (rc != HEED_OK || !d)
		return rc;
	d->line = ln->number;
	d->name = copy;
	if (!next_token(&s, end, &usage, &ulen))
		usage = "";
	d->usage_known = heed_acap_usage_from_name(usage, ulen, &d->usage);
	if (!d->usage_known)
		return heed__acap_diag(
		        p->r, ln->number, HEED_ACAP_ERROR,
		        "'%.*s' is not an ACAP usage type (2.5); "
		        "permissions using (%s) are read as "
		        "prohibitions to crawl",
		        (int)ulen, usage, d->name);
	rc = heed__acap_quals_parse(p->r, s, (size_t)(end - s), ln->number,
	                            d->usage, &d->quals);
	if (rc == HEED_OK && d->quals.n == 0)
		rc = heed__acap_diag(p->r, ln->number, HEED_ACAP_WARNING,
		                     "qualified usage '%s' has no qualifiers "
		                     "(2.7.1)",
		                     d->name);
	return rc;
}

/* One usage of a composite: a standard usage or (qualified-usage). */
static heed_status composite_part(struct parser *p, unsigned line,
                                  const char *t, size_t n,
                                  struct acap_part *part)
{
	long q;

	part->qdef = -1;
	if (heed_acap_usage_from_name(t, n, &part->usage))
		return HEED_OK;
	part->usage = HEED_ACAP_CRAWL;
	part->broken = true;
	if (n < 2 || t[0] != '(' || t[n - 1] != ')')
		return heed__acap_diag(p->r, line, HEED_ACAP_ERROR,
		                       "'%.*s' is not an ACAP usage type (2.5)",
		                       (int)n, t);
	q = find_qdef(p->r, t + 1, n - 2);
	if (q >= 0) {
		const struct acap_qdef *d =
		        ACAP_VEC_AT(&p->r->qdefs, struct acap_qdef, q);
		part->qdef = q;
		part->broken = !d->usage_known;
		part->usage = d->usage_known ? d->usage : HEED_ACAP_CRAWL;
		return HEED_OK;
	}
	if (find_cdef(p->r, t + 1, n - 2) >= 0)
		return heed__acap_diag(p->r, line, HEED_ACAP_ERROR,
		                       "a composite usage may only name "
		                       "qualified usages, not the composite "
		                       "%.*s (section 3)",
		                       (int)n, t);
	return heed__acap_diag(p->r, line, HEED_ACAP_ERROR,
	                       "%.*s is not defined above (2.7)", (int)n, t);
}

/* ACAP-composite-usage: name usage... (2.7.2) */
static heed_status on_composite(struct parser *p,
                                const struct heed_robots_line *ln)
{
	const char *s = ln->value, *end = ln->value + ln->value_len;
	const char *t, *copy;
	size_t tlen;
	struct acap_vec parts = {0};
	struct acap_cdef *d;
	heed_status rc =
	        define(p, ln, &s, ACAP_DEF_COMPOSITE, "ACAP-composite-usage",
	               &p->r->cdefs, sizeof(*d), (void **)&d, &copy);

	if (rc != HEED_OK || !d)
		return rc;
	d->line = ln->number;
	d->name = copy;
	while (rc == HEED_OK && next_token(&s, end, &t, &tlen)) {
		struct acap_part *part;

		rc = heed__acap_vec_push(p->r->alloc, &parts, sizeof(*part),
		                         (void **)&part);
		if (rc == HEED_OK)
			rc = composite_part(p, ln->number, t, tlen, part);
		if (rc == HEED_OK && part->qdef >= 0)
			d->v11 |= ACAP_VEC_AT(&p->r->qdefs, struct acap_qdef,
			                      part->qdef)
			                  ->quals.v11;
	}
	d->nparts = parts.n;
	d->parts = heed__acap_arena_copy(p->r, parts.items,
	                                 parts.n * sizeof(struct acap_part));
	if (rc == HEED_OK && parts.n > 0 && !d->parts)
		rc = HEED_ENOMEM;
	heed__acap_vec_free(p->r->alloc, &parts);
	if (rc == HEED_OK && d->nparts == 0)
		rc = heed__acap_diag(p->r, ln->number, HEED_ACAP_ERROR,
		                     "composite usage '%s' names no usages "
		                     "(2.7.2)",
		                     d->name);
	return rc;
}

/* s (n octets) percent-normalised as the path will be (RFC 9309 2.2.2),
 * so that "%7e" and "~" compare equal ('*' and '$' are reserved and
 * stay), after a "/" when slash; in the arena, NULL on OOM. */
static char *norm_pattern(struct parser *p, const char *s, size_t n, bool slash)
{
	size_t size = heed__pct_normalize(NULL, 0, s, n, 0) + 2;
	char *copy = heed__arena_alloc(&p->r->arena, size);

	if (!copy)
		return NULL;
	copy[0] = '/';
	heed__pct_normalize(copy + slash, size - slash, s, n, 0);
	return copy;
}

/*
 * A resource path pattern as heed matches it. Paths start with "/": a
 * pattern that starts with neither "/" nor "*" gets a "/" in front (as the
 * major crawlers do with conventional rules) and a warning. NULL (no
 * diagnostic needed beyond the one given) when the pattern is unusable.
 *
 * 2.9: '$' "may only occur as the last character in the pattern". One
 * before the end is read as a character, as in conventional records (RFC
 * 9309 readers take it so), with an error for lint.
 */
static heed_status path_pattern(struct parser *p, unsigned line, const char *s,
                                size_t n, const char **out)
{
	bool slash = n > 0 && s[0] != '/' && s[0] != '*';

	*out = NULL;
	if (n == 0)
		return heed__acap_diag(
		        p->r, line, HEED_ACAP_ERROR,
		        "empty resource specification; the field "
		        "is ignored (2.4.4)");
	if (memchr(s, ':', n) && memchr(s, '/', n) &&
	    (size_t)((const char *)memchr(s, ':', n) - s) <
	            (size_t)((const char *)memchr(s, '/', n) - s))
		return heed__acap_diag(p->r, line, HEED_ACAP_ERROR,
		                       "'%.*s' is not a path relative to the "
		                       "site (2.4.4); the field is ignored",
		                       (int)n, s);
	if (slash && heed__acap_diag(p->r, line, HEED_ACAP_WARNING,
	                             "'%.*s' does not start with '/'; heed "
	                             "reads it as '/%.*s'",
	                             (int)n, s, (int)n, s))
		return HEED_ENOMEM;
	*out = norm_pattern(p, s, n, slash);
	if (!*out)
		return HEED_ENOMEM;
	if (n < 2 || !memchr(s, '$', n - 1))
		return HEED_OK;
	return heed__acap_diag(p->r, line, HEED_ACAP_ERROR,
	                       "'$' may only end a pattern (2.9): heed reads "
	                       "the '$' in '%.*s' as a character, as in "
	                       "conventional records; a literal '$' is "
	                       "written %%24",
	                       (int)n, s);
}

/* Adds pattern to the scratch list of a resource set's patterns. */
static heed_status push_pattern(struct parser *p, const char *pattern)
{
	const char **slot;

	if (heed__acap_vec_push(p->r->alloc, &p->scratch, sizeof(*slot),
	                        (void **)&slot))
		return HEED_ENOMEM;
	*slot = pattern;
	return HEED_OK;
}

/* ACAP-resource-set: name pattern... (2.7.3) */
static heed_status on_resource_set(struct parser *p,
                                   const struct heed_robots_line *ln)
{
	const char *s = ln->value, *end = ln->value + ln->value_len;
	const char *t, *copy;
	size_t tlen;
	struct acap_rset *d;
	heed_status rc = define(p, ln, &s, ACAP_DEF_SET, "ACAP-resource-set",
	                        &p->r->rsets, sizeof(*d), (void **)&d, &copy);

	if (rc != HEED_OK || !d)
		return rc;
	d->line = ln->number;
	d->name = copy;
	p->scratch.n = 0;
	while (rc == HEED_OK && next_token(&s, end, &t, &tlen)) {
		const char *pat;

		rc = path_pattern(p, ln->number, t, tlen, &pat);
		if (rc == HEED_OK && pat)
			rc = push_pattern(p, pat);
	}
	if (rc != HEED_OK)
		return rc;
	d->n = p->scratch.n;
	d->patterns = heed__acap_arena_copy(p->r, p->scratch.items,
	                                    d->n * sizeof(char *));
	if (d->n > 0 && !d->patterns)
		return HEED_ENOMEM;
	if (d->n == 0)
		return heed__acap_diag(p->r, ln->number, HEED_ACAP_ERROR,
		                       "resource set '%s' has no patterns "
		                       "(2.7.3)",
		                       d->name);
	return HEED_OK;
}

/*
 * 2.3: a sub-record "must be followed by one or more permission or
 * prohibition fields"; a record by a permissions reference, fields or
 * sub-records. One without them says nothing, which is rarely what its
 * author meant (a field misspelled, or lines lost): lint says so where it
 * ends. Both are read as what they are, empty.
 */
static heed_status close_sub(struct parser *p)
{
	const struct acap_sub *sub;

	if (p->sub < 0 || p->sub_fields)
		return HEED_OK;
	sub = ACAP_VEC_AT(&p->r->subs, struct acap_sub, p->sub);
	p->sub_fields = true; /* reported once */
	return heed__acap_diag(p->r, sub->line, HEED_ACAP_ERROR,
	                       "this sub-record has no permission or "
	                       "prohibition fields (2.3): it permits and "
	                       "prohibits nothing");
}

static heed_status close_record(struct parser *p)
{
	const struct acap_record *rec;
	heed_status rc = close_sub(p);

	if (rc != HEED_OK || p->record < 0 || p->record_fields ||
	    p->record_subs)
		return rc;
	rec = ACAP_VEC_AT(&p->r->records, struct acap_record, p->record);
	p->record_fields = true; /* reported once */
	return heed__acap_diag(p->r, rec->line, HEED_ACAP_ERROR,
	                       "this ACAP record has no fields (2.3): it "
	                       "permits and prohibits nothing, and a record "
	                       "naming a crawler overrides nothing for it");
}

/* ACAP-crawler: name (2.3.1) */
static heed_status on_crawler(struct parser *p,
                              const struct heed_robots_line *ln)
{
	struct heed_acap *r = p->r;
	struct acap_record *rec;
	bool any = ln->value_len == 1 && ln->value[0] == '*';

	if (ln->value_len == 0)
		return heed__acap_diag(r, ln->number, HEED_ACAP_ERROR,
		                       "ACAP-crawler without a name is ignored "
		                       "(2.3.1)");
	if (p->record < 0 || p->record_body) {
		if (close_record(p) ||
		    heed__acap_vec_push(r->alloc, &r->records, sizeof(*rec),
		                        (void **)&rec))
			return HEED_ENOMEM;
		rec->line = ln->number;
		rec->first_crawler = r->names.n;
		rec->source = p->source;
		p->record = (long)r->records.n - 1;
		p->record_body = false;
		p->record_fields = p->record_subs = false;
		p->sub = -1;
		p->blind_sub = false;
		p->seen_record = true;
	}
	rec = ACAP_VEC_AT(&r->records, struct acap_record, p->record);
	if (push_name(r, ln->value, ln->value_len))
		return HEED_ENOMEM;
	rec->ncrawlers++;
	rec->any |= any;
	if (rec->any && rec->ncrawlers > 1)
		return heed__acap_diag(r, ln->number, HEED_ACAP_ERROR,
		                       "a record addressed to any crawler (*) "
		                       "must not name others (2.3.1); heed "
		                       "applies it to all of them");
	return HEED_OK;
}

static heed_status outside_record(struct parser *p, unsigned line,
                                  const char *what)
{
	return heed__acap_diag(p->r, line, HEED_ACAP_ERROR,
	                       "%s outside an ACAP record (no ACAP-crawler "
	                       "line above) is ignored (2.3)",
	                       what);
}

/* Marks the current record as having a body; complains after a reference. */
static heed_status record_body(struct parser *p, unsigned line)
{
	const struct acap_record *rec =
	        ACAP_VEC_AT(&p->r->records, struct acap_record, p->record);

	p->record_body = true;
	if (!rec->reference)
		return HEED_OK;
	return heed__acap_diag(p->r, line, HEED_ACAP_ERROR,
	                       "no field may follow ACAP-permissions-reference "
	                       "in its record (2.3)");
}

/* ACAP-permissions-reference: locator (2.3.2) */
static heed_status on_reference(struct parser *p,
                                const struct heed_robots_line *ln)
{
	struct acap_record *rec;
	heed_status rc;

	if (p->record < 0)
		return outside_record(p, ln->number,
		                      "ACAP-permissions-reference");
	if (p->source >= 0)
		return heed__acap_diag(p->r, ln->number, HEED_ACAP_ERROR,
		                       "a file reached through a permissions "
		                       "reference may not refer further: a "
		                       "circular reference (2.3.2); ignored");
	rc = record_body(p, ln->number);
	p->record_fields = true;
	rec = ACAP_VEC_AT(&p->r->records, struct acap_record, p->record);
	if (rc != HEED_OK || rec->reference)
		return rc;
	if (p->r->fields.n > 0 &&
	    ACAP_VEC_AT(&p->r->fields, struct acap_field, p->r->fields.n - 1)
	                    ->pub.record == (size_t)p->record &&
	    heed__acap_diag(p->r, ln->number, HEED_ACAP_ERROR,
	                    "ACAP-permissions-reference must follow the "
	                    "crawler lines directly (2.3)"))
		return HEED_ENOMEM;
	rec->reference = dup(p, ln->value, ln->value_len);
	rec->reference_line = ln->number;
	if (!rec->reference)
		return HEED_ENOMEM;
	/* 2.3.2: "a permission reference definition field may not refer to a
	 * resource that itself contains a permission reference definition
	 * field"; this very file does. */
	if (ln->value_len >= 11 &&
	    heed__ascii_ieq(ln->value + ln->value_len - 11, 11, "/robots.txt"))
		return heed__acap_diag(
		        p->r, ln->number, HEED_ACAP_ERROR,
		        "the permissions reference points back to "
		        "robots.txt, which holds a reference "
		        "itself: a circular reference (2.3.2)");
	return HEED_OK;
}

/*
 * Starts a sub-record at a usage purpose line when the current one has
 * fields already (consecutive purpose lines make one sub-record, 2.3).
 */
static heed_status open_sub(struct parser *p, unsigned line)
{
	struct heed_acap *r = p->r;
	struct acap_sub *sub;

	if (p->sub >= 0 && !p->sub_fields)
		return HEED_OK;
	if (heed__acap_vec_push(r->alloc, &r->subs, sizeof(*sub),
	                        (void **)&sub))
		return HEED_ENOMEM;
	sub->record = (size_t)p->record;
	sub->line = line;
	sub->first_purpose = r->names.n;
	p->sub = (long)r->subs.n - 1;
	p->sub_fields = false;
	p->record_subs = true;
	return HEED_OK;
}

/*
 * A usage purpose pattern cut short by a '#' with no white space before it.
 * Section 3 says such a '#' starts a comment ("A <URI-pattern> ... may not
 * contain the character "#""), so the pattern is what comes before it, as
 * for every field; but 2.3.3 itself prints a purpose URI with a fragment
 * (".../usage-purpose-categories#preservation"). In doubt, the sub-record
 * is for both readings: a prohibition it holds then binds a crawler that
 * serves either purpose. t is the pattern, the line's first word.
 */
static heed_status glued_comment(struct parser *p,
                                 const struct heed_robots_line *ln,
                                 const char *t, size_t tlen)
{
	struct heed_acap *r = p->r;
	const char *end = ln->raw_value + ln->raw_value_len, *e = t + tlen;

	if (e >= end || *e != '#')
		return HEED_OK;
	while (e < end && !heed__ascii_space(*e))
		e++;
	if (push_name(r, t, (size_t)(e - t)))
		return HEED_ENOMEM;
	ACAP_VEC_AT(&r->subs, struct acap_sub, p->sub)->npurposes++;
	return heed__acap_diag(r, ln->number, HEED_ACAP_WARNING,
	                       "'#' begins a comment (section 3: a usage "
	                       "purpose pattern may not contain '#'): heed "
	                       "reads the pattern as '%.*s' and, in doubt, "
	                       "also as '%.*s' (2.3.3); write one of them",
	                       (int)tlen, t, (int)(e - t), t);
}

/*
 * ACAP-usage-purpose: pattern (2.3.3). '#' begins a comment everywhere
 * (2.2, footnote 2; section 3: "A <URI-pattern> ... may not contain the
 * character "#", as this would be interpreted as the start of a comment"),
 * so the pattern is the value before any comment, as for every field.
 *
 * A purpose line without a pattern still opens a sub-record: were it
 * ignored, the permissions meant for one purpose would apply at the record
 * level, to every purpose. Which purposes it meant is unknown, so its
 * permissions are ignored and its prohibitions apply to every purpose
 * (at the record level).
 */
static heed_status on_purpose(struct parser *p,
                              const struct heed_robots_line *ln)
{
	struct heed_acap *r = p->r;
	const char *s = ln->value, *end = s + ln->value_len, *t;
	size_t tlen;
	heed_status rc;

	if (p->record < 0)
		return outside_record(p, ln->number, "ACAP-usage-purpose");
	rc = record_body(p, ln->number);
	if (rc != HEED_OK)
		return rc;
	if (!next_token(&s, end, &t, &tlen)) {
		if (p->sub >= 0 && !p->sub_fields)
			return heed__acap_diag(
			        r, ln->number, HEED_ACAP_ERROR,
			        "ACAP-usage-purpose without a pattern "
			        "(2.3.3); ignored");
		p->sub = -1;
		p->blind_sub = true;
		p->sub_fields = false;
		return heed__acap_diag(
		        r, ln->number, HEED_ACAP_ERROR,
		        "ACAP-usage-purpose without a pattern (2.3.3): heed "
		        "cannot tell which purposes the sub-record is for; "
		        "it ignores its permissions and applies its "
		        "prohibitions to every purpose");
	}
	p->blind_sub = false;
	rc = open_sub(p, ln->number);
	if (rc == HEED_OK && push_name(r, t, tlen))
		rc = HEED_ENOMEM;
	if (rc != HEED_OK)
		return rc;
	ACAP_VEC_AT(&r->subs, struct acap_sub, p->sub)->npurposes++;
	rc = glued_comment(p, ln, t, tlen);
	if (rc == HEED_OK && next_token(&s, end, &t, &tlen))
		return heed__acap_diag(r, ln->number, HEED_ACAP_WARNING,
		                       "a usage purpose pattern is one word: "
		                       "heed ignores '%.*s' and what follows",
		                       (int)tlen, t);
	return rc;
}

/* The usage in "ACAP-allow-<usage>" / "ACAP-disallow-<usage>". */
static heed_status field_usage(struct parser *p, struct acap_field *f,
                               const char *u, size_t n)
{
	struct heed_acap *r = p->r;
	bool allow = f->pub.kind == HEED_ACAP_FIELD_ALLOW;
	long d;

	if (heed_acap_usage_from_name(u, n, &f->usage))
		return HEED_OK;
	if (n >= 2 && u[0] == '(' && u[n - 1] == ')') {
		if ((d = find_qdef(r, u + 1, n - 2)) >= 0)
			f->ukind = ACAP_U_QUALIFIED;
		else if ((d = find_cdef(r, u + 1, n - 2)) >= 0)
			f->ukind = ACAP_U_COMPOSITE;
		else
			f->ukind = ACAP_U_UNKNOWN;
		f->def = d >= 0 ? (size_t)d : 0;
		if (f->ukind == ACAP_U_UNKNOWN)
			return heed__acap_diag(
			        r, f->pub.line, HEED_ACAP_ERROR,
			        "%.*s is not defined above (2.7); "
			        "heed reads the field as a "
			        "prohibition to crawl",
			        (int)n, u);
		if (!allow)
			return heed__acap_diag(
			        r, f->pub.line, HEED_ACAP_ERROR,
			        "a prohibition may not name a "
			        "locally-defined usage (2.4.2); heed "
			        "prohibits each usage it stands for");
		return HEED_OK;
	}
	/* 2.4.3: a derived usage heed does not know falls back to its basic
	 * usage; anything else to the most basic prohibition, crawl. */
	if (n > 8 && heed__ascii_ieq(u, 8, "present-")) {
		f->usage = HEED_ACAP_PRESENT;
		f->malformed = allow;
		f->why = "its usage type is not one ACAP defines";
		return heed__acap_diag(
		        r, f->pub.line, HEED_ACAP_ERROR,
		        "'%.*s' is not an ACAP usage type (2.5); "
		        "heed reads the field as a prohibition "
		        "to present (2.4.3)",
		        (int)n, u);
	}
	f->ukind = ACAP_U_UNKNOWN;
	if (n == 0)
		return heed__acap_diag(r, f->pub.line, HEED_ACAP_ERROR,
		                       "the field names no usage type "
		                       "(ACAP-%s-crawl..., 2.4); heed reads it "
		                       "as a prohibition to crawl (2.4.3)",
		                       allow ? "allow" : "disallow");
	return heed__acap_diag(r, f->pub.line, HEED_ACAP_ERROR,
	                       "'%.*s' is not an ACAP usage type (2.5); heed "
	                       "reads the field as a prohibition to crawl "
	                       "(2.4.3)",
	                       (int)n, u);
}

/* The resource specification: a path pattern or a resource set (2.4.4). */
static heed_status field_resource(struct parser *p, struct acap_field *f,
                                  const char *t, size_t n)
{
	static const char set[] = "the-acap:resource-set:";
	size_t sn = sizeof(set) - 1;

	f->rset = -1;
	f->pub.resource = dup(p, t, n);
	if (!f->pub.resource)
		return HEED_ENOMEM;
	if (n < sn || !heed__ascii_ieq(t, sn, set))
		return path_pattern(p, f->pub.line, t, n, &f->pattern);
	f->rset = find_rset(p->r, t + sn, n - sn);
	if (f->rset >= 0)
		return HEED_OK;
	if (f->pub.kind == HEED_ACAP_FIELD_DISALLOW) {
		f->pattern = "/";
		return heed__acap_diag(p->r, f->pub.line, HEED_ACAP_ERROR,
		                       "resource set '%.*s' is not defined "
		                       "above (2.4.5); heed applies the "
		                       "prohibition to the whole site",
		                       (int)(n - sn), t + sn);
	}
	return heed__acap_diag(p->r, f->pub.line, HEED_ACAP_ERROR,
	                       "resource set '%.*s' is not defined above "
	                       "(2.4.5); the permission is ignored",
	                       (int)(n - sn), t + sn);
}

/* Qualifiers after the resource specification (2.4.1.2, 2.4.2). */
static heed_status field_qualifiers(struct parser *p, struct acap_field *f,
                                    const char *s, const char *end)
{
	const char *t;
	size_t tlen;
	const char *probe = s;

	if (!next_token(&probe, end, &t, &tlen))
		return f->pub.kind == HEED_ACAP_FIELD_ALLOW &&
		                       f->ukind == ACAP_U_STANDARD &&
		                       f->usage == HEED_ACAP_OTHER
		               ? (f->malformed = true,
		                  f->why = "a permission for other needs "
		                           "usage-ref",
		                  heed__acap_diag(p->r, f->pub.line,
		                                  HEED_ACAP_ERROR,
		                                  "ACAP-allow-other needs a "
		                                  "usage-ref qualifier "
		                                  "(2.5.6.1); heed reads it as "
		                                  "a prohibition"))
		               : HEED_OK;
	if (f->pub.kind == HEED_ACAP_FIELD_DISALLOW)
		return heed__acap_diag(
		        p->r, f->pub.line, HEED_ACAP_ERROR,
		        "a prohibition may not contain qualifiers "
		        "(2.4.2); heed ignores them and keeps the "
		        "prohibition");
	if (f->ukind != ACAP_U_STANDARD) {
		f->malformed = true;
		f->why = "a locally-defined usage may not carry qualifiers";
		return heed__acap_diag(p->r, f->pub.line, HEED_ACAP_ERROR,
		                       "no explicit qualifiers may follow a "
		                       "locally-defined usage (2.4.1.3); heed "
		                       "reads the field as a prohibition");
	}
	return heed__acap_quals_parse(p->r, s, (size_t)(end - s), f->pub.line,
	                              f->usage, &f->quals);
}

/* ACAP-allow-<usage> / ACAP-disallow-<usage> (2.4) */
static heed_status on_permission(struct parser *p,
                                 const struct heed_robots_line *ln,
                                 const char *u, size_t ulen, bool allow)
{
	struct heed_acap *r = p->r;
	const char *s = ln->value, *end = s + ln->value_len, *t = "";
	size_t tlen = 0;
	struct acap_field *f;
	heed_status rc;

	if (p->record < 0)
		return outside_record(p, ln->number, "a permission field");
	rc = record_body(p, ln->number);
	if (rc != HEED_OK)
		return rc;
	p->record_fields |= p->sub < 0;
	if (heed__acap_vec_push(r->alloc, &r->fields, sizeof(*f), (void **)&f))
		return HEED_ENOMEM;
	f->pub.line = ln->number;
	f->pub.source = r->cur_source;
	f->pub.kind = allow ? HEED_ACAP_FIELD_ALLOW : HEED_ACAP_FIELD_DISALLOW;
	f->pub.record = (size_t)p->record;
	f->pub.in_subrecord = p->sub >= 0;
	f->sub = p->sub;
	p->sub_fields = p->sub >= 0;
	f->pub.usage = dup(p, u, ulen);
	f->quals.interpretable = true;
	if (!f->pub.usage)
		return HEED_ENOMEM;
	rc = field_usage(p, f, u, ulen);
	next_token(&s, end, &t, &tlen);
	if (rc == HEED_OK)
		rc = field_resource(p, f, t, tlen);
	if (rc == HEED_OK)
		rc = field_qualifiers(p, f, s, end);
	f->pub.qualifier_count = f->quals.n;
	/* A field that matches nothing stays listed but never decides. */
	if (rc == HEED_OK && f->rset < 0 && !f->pattern)
		f->pub.ignored = true;
	/* A permission of a sub-record whose purposes are unknown. */
	if (rc == HEED_OK && allow && p->blind_sub) {
		f->pub.ignored = true;
		f->why = "it follows an ACAP-usage-purpose line without a "
		         "pattern (2.3.3)";
	}
	return rc;
}

/*
 * The resource an action request names (2.6, section 3: relative-part,
 * which "may not contain" the reserved '*' and '$' of patterns). A final
 * '$' can only mean the path itself. A wildcard makes the request a
 * pattern heed cannot act on exactly, so it reads it the way that holds
 * the least: a take-down takes down the whole folder before the first
 * wildcard (what the pattern may cover and more; a later crawl fetches
 * again what may be fetched), a re-crawl is ignored (*out NULL).
 */
static heed_status request_path(struct parser *p,
                                const struct heed_robots_line *ln,
                                heed_acap_field_kind kind, const char **out,
                                size_t *len)
{
	const char *v = ln->value;
	size_t n = ln->value_len, cut = 0;
	bool take_down = kind == HEED_ACAP_FIELD_TAKE_DOWN;

	while (cut < n && v[cut] != '*' && v[cut] != '$')
		cut++;

	*out = v;
	*len = n;
	if (cut >= n)
		return HEED_OK;
	if (cut == n - 1 && v[cut] == '$') {
		*len = cut;
		return heed__acap_diag(p->r, ln->number, HEED_ACAP_ERROR,
		                       "an action request names one resource: "
		                       "'$' is not allowed in it (2.6, section "
		                       "3); heed reads '%.*s'",
		                       (int)cut, v);
	}
	if (!take_down) {
		*out = NULL;
		return heed__acap_diag(p->r, ln->number, HEED_ACAP_ERROR,
		                       "an action request names one resource, "
		                       "not a pattern: '*' and '$' are not "
		                       "allowed in it (2.6, section 3); the "
		                       "re-crawl request is ignored");
	}
	while (cut > 0 && v[cut - 1] != '/')
		cut--;
	*len = cut;
	return heed__acap_diag(p->r, ln->number, HEED_ACAP_ERROR,
	                       "an action request names one resource, not a "
	                       "pattern: '*' and '$' are not allowed in it "
	                       "(2.6, section 3); heed takes down everything "
	                       "under '%.*s'",
	                       (int)cut, v);
}

/* ACAP-request-take-down / ACAP-request-re-crawl: path (2.6) */
static heed_status on_request(struct parser *p,
                              const struct heed_robots_line *ln,
                              const char *action, size_t alen)
{
	struct heed_acap *r = p->r;
	struct acap_field *f;
	heed_acap_field_kind kind;
	const char *path;
	size_t plen;
	heed_status rc;

	if (heed__ascii_ieq(action, alen, "take-down"))
		kind = HEED_ACAP_FIELD_TAKE_DOWN;
	else if (heed__ascii_ieq(action, alen, "re-crawl"))
		kind = HEED_ACAP_FIELD_RE_CRAWL;
	else
		return heed__acap_diag(r, ln->number, HEED_ACAP_WARNING,
		                       "'%.*s' is not an ACAP action "
		                       "(take-down, re-crawl; 2.6); ignored",
		                       (int)alen, action);
	if (p->record < 0)
		return outside_record(p, ln->number, "an action request");
	if (p->sub >= 0)
		return heed__acap_diag(r, ln->number, HEED_ACAP_ERROR,
		                       "a sub-record may not contain action "
		                       "requests (2.3); ignored");
	rc = record_body(p, ln->number);
	if (rc != HEED_OK)
		return rc;
	p->record_fields = true;
	if (ln->value_len == 0 || ln->value[0] != '/')
		return heed__acap_diag(
		        r, ln->number, HEED_ACAP_ERROR,
		        "an action request needs a path starting "
		        "with '/' (2.6); ignored");
	rc = request_path(p, ln, kind, &path, &plen);
	if (rc != HEED_OK || !path)
		return rc;
	if (heed__acap_vec_push(r->alloc, &r->fields, sizeof(*f), (void **)&f))
		return HEED_ENOMEM;
	f->pub.line = ln->number;
	f->pub.source = r->cur_source;
	f->pub.kind = kind;
	f->pub.record = (size_t)p->record;
	f->sub = -1;
	f->rset = -1;
	f->quals.interpretable = true;
	f->pub.usage =
	        kind == HEED_ACAP_FIELD_TAKE_DOWN ? "take-down" : "re-crawl";
	f->pub.resource = dup(p, ln->value, ln->value_len);
	f->pattern = dup(p, path, plen);
	return f->pattern && f->pub.resource ? HEED_OK : HEED_ENOMEM;
}

static bool ihas_prefix(const char *s, size_t n, const char *lit,
                        const char **rest, size_t *rest_len)
{
	size_t k = strlen(lit);

	if (n < k || !heed__ascii_ieq(s, k, lit))
		return false;
	*rest = s + k;
	*rest_len = n - k;
	return true;
}

/* Fields that may appear before the records. */
static heed_status on_preamble_field(struct parser *p,
                                     const struct heed_robots_line *ln,
                                     const char *n, size_t len, bool *done)
{
	*done = true;
	if (heed__ascii_ieq(n, len, "version"))
		return on_version(p, ln);
	if (heed__ascii_ieq(n, len, "ignore-conventional-records"))
		return on_ignore_conventional(p, ln);
	if (heed__ascii_ieq(n, len, "qualified-usage"))
		return on_qualified(p, ln);
	if (heed__ascii_ieq(n, len, "composite-usage"))
		return on_composite(p, ln);
	if (heed__ascii_ieq(n, len, "resource-set"))
		return on_resource_set(p, ln);
	*done = false;
	return HEED_OK;
}

static heed_status on_acap_field(struct parser *p,
                                 const struct heed_robots_line *ln,
                                 const char *n, size_t len)
{
	const char *rest;
	size_t rlen;
	bool done;
	heed_status rc = on_preamble_field(p, ln, n, len, &done);

	if (!heed__ascii_ieq(n, len, "version"))
		p->seen_acap = true;
	if (done)
		return rc;
	if (ln->kind == HEED_ROBOTS_LINE_NO_COLON &&
	    heed__acap_diag(p->r, ln->number, HEED_ACAP_WARNING,
	                    "a ':' is missing after the field name (section "
	                    "3); heed reads the line anyway"))
		return HEED_ENOMEM;
	if (heed__ascii_ieq(n, len, "crawler"))
		return on_crawler(p, ln);
	if (heed__ascii_ieq(n, len, "permissions-reference"))
		return on_reference(p, ln);
	if (heed__ascii_ieq(n, len, "usage-purpose"))
		return on_purpose(p, ln);
	if (ihas_prefix(n, len, "allow-", &rest, &rlen))
		return on_permission(p, ln, rest, rlen, true);
	if (ihas_prefix(n, len, "disallow-", &rest, &rlen))
		return on_permission(p, ln, rest, rlen, false);
	if (ihas_prefix(n, len, "request-", &rest, &rlen))
		return on_request(p, ln, rest, rlen);
	return heed__acap_diag(p->r, ln->number, HEED_ACAP_WARNING,
	                       "'ACAP-%.*s' is not an ACAP field; ignored",
	                       (int)len, n);
}

/* A line that is not an ACAP field: conventional records (2.10). A
 * User-agent line ends an ACAP record: the conventional record it starts is
 * then read as one, the more restrictive reading of a file that mixes them.
 */
static heed_status on_conventional(struct parser *p,
                                   const struct heed_robots_line *ln)
{
	p->seen_conventional = true;
	if (p->record < 0)
		return HEED_OK;
	if (heed__ascii_ieq(ln->name, ln->name_len, "user-agent")) {
		if (close_record(p))
			return HEED_ENOMEM;
		p->record = -1;
		p->sub = -1;
		p->blind_sub = false;
		return HEED_OK;
	}
	if (!heed__ascii_ieq(ln->name, ln->name_len, "allow") &&
	    !heed__ascii_ieq(ln->name, ln->name_len, "disallow"))
		return HEED_OK;
	if (p->source < 0 && heed__acap_conv_ignore_line(p->r, ln->number))
		return HEED_ENOMEM;
	return heed__acap_diag(p->r, ln->number, HEED_ACAP_WARNING,
	                       "conventional fields inside an ACAP record are "
	                       "ignored (2.10.2)");
}

/*
 * "ACAP-allow-index /articles/ must-use-resource=the-acap:extract:..."
 * (2.5.3.2 prints it without its colon): the lexer splits at the first
 * colon, inside the value. A field name never holds white space, so such a
 * line is re-split after its first word, as a line without a colon.
 */
static void resplit(const struct heed_robots_line *ln,
                    struct heed_robots_line *out)
{
	size_t n = 0;
	const char *end = ln->value + ln->value_len;
	const char *raw_end = ln->raw_value + ln->raw_value_len;

	*out = *ln;
	while (n < ln->name_len && !heed__ascii_space(ln->name[n]))
		n++;
	if (n == ln->name_len)
		return;
	out->kind = HEED_ROBOTS_LINE_NO_COLON;
	out->name_len = n;
	out->value = ln->name + n;
	while (out->value < end && heed__ascii_space(*out->value))
		out->value++;
	out->value_len = (size_t)(end - out->value);
	out->raw_value = out->value;
	out->raw_value_len = (size_t)(raw_end - out->value);
}

static heed_status on_line(struct parser *p, const struct heed_robots_line *in)
{
	struct heed_robots_line split;
	const struct heed_robots_line *ln = &split;
	const char *rest;
	size_t rlen;

	resplit(in, &split);

	if (ln->kind == HEED_ROBOTS_LINE_COMMENT ||
	    (ln->kind == HEED_ROBOTS_LINE_FIELD && ln->comment))
		if (on_comment(p, ln))
			return HEED_ENOMEM;
	if (ln->kind == HEED_ROBOTS_LINE_BLANK ||
	    ln->kind == HEED_ROBOTS_LINE_COMMENT)
		return HEED_OK;
	if (ihas_prefix(ln->name, ln->name_len, "ACAP-", &rest, &rlen)) {
		p->r->any_acap = true;
		return on_acap_field(p, ln, rest, rlen);
	}
	return on_conventional(p, ln);
}

/* Whether field f uses a feature of ACAP 1.1 (2.8), itself or through a
 * definition. */
static bool uses_v11(const struct heed_acap *r, const struct acap_field *f)
{
	if (f->quals.v11)
		return true;
	if (f->ukind == ACAP_U_QUALIFIED)
		return ACAP_VEC_AT(&r->qdefs, struct acap_qdef, f->def)
		        ->quals.v11;
	if (f->ukind == ACAP_U_COMPOSITE)
		return ACAP_VEC_AT(&r->cdefs, struct acap_cdef, f->def)->v11;
	return false;
}

/* Whether a qualifier of field f is not ACAP's in any version: a type
 * Annex A does not define, or a value that is not valid (a mistyped
 * time-limit such as "7-dys"), itself or through a definition. */
static bool broken_quals(const struct heed_acap *r, const struct acap_field *f)
{
	if (f->quals.broken)
		return true;
	return f->ukind == ACAP_U_QUALIFIED &&
	       ACAP_VEC_AT(&r->qdefs, struct acap_qdef, f->def)->quals.broken;
}

/*
 * 2.8: without a version field, or with 1.0, "a crawler is expected to
 * ignore any ACAP field that contains features of all versions of ACAP
 * other than Version 1.0". A field whose qualifier is no version's (a
 * mistyped name or value) contains no 1.1 feature it could be ignored for:
 * it is a permission heed cannot interpret, read as a prohibition (2.4.3,
 * and "a crawler must not ignore any permission or prohibition field").
 * Ignoring it would let a wider, unlimited permission decide. With a major
 * version other than 1, heed knows no field. Applies to the fields this
 * parse added.
 */
static heed_status apply_version(struct parser *p)
{
	struct heed_acap *r = p->r;
	bool v11 = p->vdeclared &&
	           (p->vmajor > 1 || (p->vmajor == 1 && p->vminor >= 1));

	for (size_t i = p->first_field; i < r->fields.n; i++) {
		struct acap_field *f =
		        ACAP_VEC_AT(&r->fields, struct acap_field, i);

		f->foreign_version = p->vdeclared && p->vmajor != 1;
		if (v11 || !uses_v11(r, f) || f->pub.ignored ||
		    broken_quals(r, f))
			continue;
		f->pub.ignored = true;
		f->why = "it uses ACAP 1.1 features and the file has no "
		         "'ACAP-version: 1.1' field (2.8)";
		f->version_ignored = true;
		if (heed__acap_diag(
		            r, f->pub.line, HEED_ACAP_NOTE,
		            "this field uses ACAP 1.1 features but the "
		            "file has no 'ACAP-version: 1.1' field; it is "
		            "ignored (2.8)"))
			return HEED_ENOMEM;
	}
	if (p->source < 0 && !p->vdeclared && r->comment_version &&
	    strcmp(r->comment_version, "1.0") != 0)
		return heed__acap_diag(r, 0, HEED_ACAP_WARNING,
		                       "the ##ACAP comment says version %s but "
		                       "only an ACAP-version field enables its "
		                       "features (2.8)",
		                       r->comment_version);
	return HEED_OK;
}

/* Diagnostics come mostly in line order; those made where a record ends,
 * or at the end (versions, the file as a whole), name earlier lines. One
 * stable insertion sort, linear on the nearly sorted list, puts them all
 * in line order (line 0, the file as a whole, first). */
static void sort_diags(struct heed_acap *r, size_t from)
{
	struct heed_acap_diag *d = (struct heed_acap_diag *)r->diags.items;

	for (size_t i = from + 1; i < r->diags.n; i++) {
		struct heed_acap_diag x = d[i];
		size_t j = i;
		for (; j > from && d[j - 1].line > x.line; j--)
			d[j] = d[j - 1];
		d[j] = x;
	}
}

static heed_status finish(struct parser *p, size_t skipped, size_t from)
{
	struct heed_acap *r = p->r;
	heed_status rc = apply_version(p);
	struct heed_acap_diag *d;

	if (rc == HEED_OK && skipped > 0)
		rc = heed__acap_diag(r, 0, HEED_ACAP_WARNING,
		                     "the file is longer than %u bytes; heed "
		                     "reads only the first %u (RFC 9309 2.5)",
		                     HEED_ROBOTS_PARSE_LIMIT_BYTES,
		                     HEED_ROBOTS_PARSE_LIMIT_BYTES);
	if (rc == HEED_OK)
		sort_diags(r, from);
	if (rc != HEED_OK || r->diags_dropped == 0)
		return rc;
	/* Past the cap on purpose: the reader must know some are missing. */
	if (heed__acap_vec_push(r->alloc, &r->diags, sizeof(*d), (void **)&d))
		return HEED_ENOMEM;
	d->severity = HEED_ACAP_NOTE;
	d->message = "more diagnostics were found but not kept";
	d->line = 0;
	d->source = r->cur_source;
	r->diags_dropped = 0;
	return HEED_OK;
}

/* Reads every line of data (at most the parse limit) into p->r. */
static heed_status read_lines(struct parser *p, const char *data, size_t len)
{
	struct heed_robots_lexer lx;
	struct heed_robots_line ln;
	size_t n = data ? heed_robots_parse_limit(data, len) : 0;
	size_t from = p->r->diags.n;
	heed_status rc = HEED_OK;

	p->first_field = p->r->fields.n;
	heed_robots_lex_init(&lx, data ? data : "", n);
	while (rc == HEED_OK && heed_robots_lex_next(&lx, &ln))
		rc = on_line(p, &ln);
	if (rc == HEED_OK)
		rc = close_record(p);
	if (rc == HEED_OK)
		rc = finish(p, len - n, from);
	heed__acap_vec_free(p->r->alloc, &p->scratch);
	return rc;
}

heed_status heed_acap_parse(heed_acap **out, const struct heed_allocator *alloc,
                            const char *data, size_t len)
{
	struct parser p = {.record = -1, .sub = -1, .source = -1};
	struct heed_acap *r;
	heed_status rc;

	if (!out || (!data && len > 0))
		return HEED_EINVAL;
	*out = NULL;
	alloc = alloc ? alloc : heed_allocator_default();
	r = heed__calloc(alloc, 1, sizeof(*r));
	if (!r)
		return HEED_ENOMEM;
	r->alloc = alloc;
	heed__arena_init(&r->arena, alloc);
	p.r = r;
	rc = read_lines(&p, data, len);
	r->version_declared = p.vdeclared;
	r->version_major = p.vdeclared ? p.vmajor : 1;
	r->version_minor = p.vdeclared ? p.vminor : 0;
	if (rc == HEED_OK)
		rc = heed__acap_conv_parse(r, data, len);
	if (rc != HEED_OK) {
		heed_acap_free(r);
		return rc;
	}
	*out = r;
	return HEED_OK;
}

static bool referred_to(const struct heed_acap *r, const char *locator)
{
	for (size_t i = 0; i < r->records.n; i++) {
		const struct acap_record *rec =
		        ACAP_VEC_AT(&r->records, struct acap_record, i);
		if (rec->source < 0 && rec->reference &&
		    strcmp(rec->reference, locator) == 0)
			return true;
	}
	return false;
}

heed_status heed_acap_add_reference(heed_acap *r, const char *locator,
                                    const char *data, size_t len)
{
	struct parser p = {.r = r, .record = -1, .sub = -1};
	struct acap_source *src;
	heed_status rc;

	if (!r || !locator || (!data && len > 0))
		return HEED_EINVAL;
	for (size_t i = 0; i < r->sources.n; i++)
		if (strcmp(ACAP_VEC_AT(&r->sources, struct acap_source, i)
		                   ->locator,
		           locator) == 0)
			return HEED_EINVAL;
	if (!referred_to(r, locator))
		return HEED_ENOTFOUND;
	if (heed__acap_vec_push(r->alloc, &r->sources, sizeof(*src),
	                        (void **)&src))
		return HEED_ENOMEM;
	src->locator = dup(&p, locator, strlen(locator));
	if (!src->locator) {
		r->sources.n--;
		return HEED_ENOMEM;
	}
	p.source = (long)r->sources.n - 1;
	r->cur_source = src->locator;
	rc = read_lines(&p, data, len);
	r->cur_source = NULL;
	return rc;
}

size_t heed_acap_reference_count(const heed_acap *r)
{
	size_t n = 0;

	for (size_t i = 0; r && i < r->records.n; i++)
		n += ACAP_VEC_AT(&r->records, struct acap_record, i)->source <
		             0 &&
		     ACAP_VEC_AT(&r->records, struct acap_record, i)->reference;
	return n;
}

/* The record of reference i, as heed_acap_reference_get numbers them, or
 * -1. */
static long reference_record(const heed_acap *r, size_t i)
{
	for (size_t k = 0; r && k < r->records.n; k++) {
		const struct acap_record *rec =
		        ACAP_VEC_AT(&r->records, struct acap_record, k);
		if (rec->source >= 0 || !rec->reference)
			continue;
		if (i-- == 0)
			return (long)k;
	}
	return -1;
}

const char *heed_acap_reference_get(const heed_acap *r, size_t i)
{
	long k = reference_record(r, i);

	return k < 0 ? NULL
	             : ACAP_VEC_AT(&r->records, struct acap_record, (size_t)k)
	                       ->reference;
}

bool heed_acap_reference_applies(const heed_acap *r, size_t i,
                                 const char *crawler)
{
	long k = r && crawler ? reference_record(r, i) : -1;
	bool named = false, any_named = false;

	if (k < 0 || !heed__acap_record_for(r, (size_t)k, crawler, &named))
		return false;
	if (named)
		return true;
	/* A "*" record speaks only to crawlers that no record names. */
	for (size_t j = 0; j < r->records.n && !any_named; j++) {
		bool nj = false;
		if (ACAP_VEC_AT(&r->records, struct acap_record, j)->source <
		            0 &&
		    heed__acap_record_for(r, j, crawler, &nj))
			any_named = nj;
	}
	return !any_named;
}
