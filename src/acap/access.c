/*
 * What a parsed file offers besides decisions: its version (2.8), whether
 * conventional records are ignored (2.10.1), diagnostics, the fields and
 * records for listing, and the action requests addressed to a crawler (2.6).
 */
#include "acap/acap-int.h"

void heed_acap_free(heed_acap *r)
{
	const struct heed_allocator *a;

	if (!r)
		return;
	a = r->alloc;
	heed__acap_vec_free(a, &r->diags);
	heed__acap_vec_free(a, &r->qdefs);
	heed__acap_vec_free(a, &r->cdefs);
	heed__acap_vec_free(a, &r->rsets);
	heed__acap_vec_free(a, &r->records);
	heed__acap_vec_free(a, &r->subs);
	heed__acap_vec_free(a, &r->fields);
	heed__acap_vec_free(a, &r->names);
	heed__acap_vec_free(a, &r->conv_ignored);
	heed__acap_index_free(a, &r->defs);
	heed__acap_vec_free(a, &r->sources);
	heed_robots_free(r->robots);
	heed__arena_free(&r->arena);
	heed__free(a, r);
}

bool heed_acap_present(const heed_acap *r)
{
	return r && r->any_acap;
}

bool heed_acap_ignores_conventional(const heed_acap *r)
{
	return r && r->ignore_conventional;
}

void heed_acap_version(const heed_acap *r, unsigned *major, unsigned *minor,
                       bool *declared)
{
	bool d = r && r->version_declared;

	if (major)
		*major = d ? r->version_major : 1;
	if (minor)
		*minor = d ? r->version_minor : 0;
	if (declared)
		*declared = d;
}

const char *heed_acap_comment_version(const heed_acap *r)
{
	return r ? r->comment_version : NULL;
}

size_t heed_acap_diag_count(const heed_acap *r)
{
	return r ? r->diags.n : 0;
}

const struct heed_acap_diag *heed_acap_diag_get(const heed_acap *r, size_t i)
{
	if (!r || i >= r->diags.n)
		return NULL;
	return ACAP_VEC_AT(&r->diags, struct heed_acap_diag, i);
}

size_t heed_acap_field_count(const heed_acap *r)
{
	return r ? r->fields.n : 0;
}

const struct heed_acap_field *heed_acap_field_get(const heed_acap *r, size_t i)
{
	if (!r || i >= r->fields.n)
		return NULL;
	return &ACAP_VEC_AT(&r->fields, struct acap_field, i)->pub;
}

size_t heed_acap_record_count(const heed_acap *r)
{
	return r ? r->records.n : 0;
}

static bool token_char(char c)
{
	c = heed__ascii_lower(c);
	return (c >= 'a' && c <= 'z') || c == '_' || c == '-';
}

/* Whether crawler's product token (RFC 9309 2.2.1: "heed" of "heed/0.1") is
 * name, case-insensitively. */
static bool token_is(const char *name, const char *crawler)
{
	size_t c = 0;

	while (crawler[c] && token_char(crawler[c]))
		c++;
	return c > 0 && heed__ascii_ieq(crawler, c, name);
}

/* Whether a record's crawler name addresses crawler (2.3.1: names are not
 * case-sensitive; a name may be the product token of a longer string). */
bool heed__acap_record_for(const struct heed_acap *r, size_t i,
                           const char *crawler, bool *named)
{
	const struct acap_record *rec =
	        ACAP_VEC_AT(&r->records, struct acap_record, i);

	*named = false;
	for (size_t k = 0; k < rec->ncrawlers; k++) {
		const char *name = *ACAP_VEC_AT(&r->names, const char *,
		                                rec->first_crawler + k);
		if (strcmp(name, "*") != 0 &&
		    (heed__ascii_ieq(name, strlen(name), crawler) ||
		     token_is(name, crawler)))
			*named = true;
	}
	return *named || rec->any;
}

int heed__acap_source_for(const struct heed_acap *r, long s,
                          const char *crawler)
{
	const char *loc =
	        ACAP_VEC_AT(&r->sources, struct acap_source, s)->locator;
	int best = -1;
	bool named;

	for (size_t i = 0; i < r->records.n; i++) {
		const struct acap_record *rec =
		        ACAP_VEC_AT(&r->records, struct acap_record, i);

		if (rec->source >= 0 || !rec->reference ||
		    strcmp(rec->reference, loc) != 0 ||
		    !heed__acap_record_for(r, i, crawler, &named))
			continue;
		if (named)
			return 1;
		best = 0;
	}
	return best;
}

bool heed__acap_record_applies(const struct heed_acap *r, size_t i,
                               const char *crawler, int via, bool *named)
{
	const struct acap_record *rec =
	        ACAP_VEC_AT(&r->records, struct acap_record, i);
	bool hit = heed__acap_record_for(r, i, crawler, named);

	if (rec->source < 0)
		return hit;
	/* 2.3.2: a referenced file speaks to the crawlers that were sent to
	 * it, with the voice of the record that sent them. */
	*named = hit && (*named || via > 0);
	return hit && via >= 0;
}

bool heed_acap_record_names(const heed_acap *r, size_t i, const char *crawler)
{
	bool named;

	if (!r || !crawler || i >= r->records.n)
		return false;
	if (strcmp(crawler, "*") == 0)
		return ACAP_VEC_AT(&r->records, struct acap_record, i)->any;
	return heed__acap_record_for(r, i, crawler, &named) && named;
}

/* heed__acap_source_for for the file field f came from (0 for robots.txt,
 * which needs none). */
static int source_of(const struct heed_acap *r, const struct acap_field *f,
                     const char *crawler)
{
	long s = ACAP_VEC_AT(&r->records, struct acap_record, f->pub.record)
	                 ->source;

	return s < 0 ? 0 : heed__acap_source_for(r, s, crawler);
}

size_t heed_acap_requests(const heed_acap *r, const char *crawler,
                          struct heed_acap_request *out, size_t max)
{
	size_t n = 0;
	bool named;

	if (!r || !crawler)
		return 0;
	for (size_t i = 0; i < r->fields.n; i++) {
		const struct acap_field *f =
		        ACAP_VEC_AT(&r->fields, struct acap_field, i);

		if ((f->pub.kind != HEED_ACAP_FIELD_TAKE_DOWN &&
		     f->pub.kind != HEED_ACAP_FIELD_RE_CRAWL) ||
		    !heed__acap_record_applies(r, f->pub.record, crawler,
		                               source_of(r, f, crawler),
		                               &named))
			continue;
		if (out && n < max) {
			out[n].action = f->pub.kind == HEED_ACAP_FIELD_TAKE_DOWN
			                        ? HEED_ACAP_TAKE_DOWN
			                        : HEED_ACAP_RE_CRAWL;
			out[n].path = f->pattern;
			out[n].line = f->pub.line;
		}
		n++;
	}
	return n;
}
