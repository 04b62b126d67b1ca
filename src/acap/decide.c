/*
 * The ACAP evaluator: one usage of one resource for one crawler at one time.
 *
 * Order of reasoning, each step recorded in the decision's chain:
 *  1. Records for the crawler: named ones and "*" ones (2.3.1); a record
 *     that only refers elsewhere (2.3.2) prohibits until followed.
 *  2. Every applicable field, with definitions expanded (2.7), becomes a
 *     candidate if one of its patterns matches the path (2.9). A permission
 *     heed cannot interpret becomes a prohibition (2.4.3).
 *  3. Candidates for the usage itself decide before those for its basic
 *     usage, and those before usage type other (2.5, 2.5.6).
 *  4. Within that: sub-records over their record, named records over "*"
 *     (2.2.1); among the fields left, the narrowest scope (2.4.6).
 *  5. A permission's time-limit is checked against now (2.5.3.1).
 *  6. For crawl, the conventional records must allow it too (2.10).
 * Nothing applies: permitted ("a usage is generally interpreted to be
 * permitted unless it is explicitly prohibited", 2.4.3 NOTE).
 */
#include <stdarg.h>
#include <stdio.h>

#include "acap/acap-int.h"

enum { TIER_EXACT, TIER_BASIC, TIER_OTHER, TIERS };
enum { L_NAMED_SUB, L_NAMED, L_ANY_SUB, L_ANY, LAYERS };

struct cand {
	const struct acap_field *f;
	const char *pattern;
	heed_acap_usage usage;
	bool allow;
	int tier, layer;
	const struct acap_qualset *qs; /* NULL: unqualified */
	const char *fallback;  /* why a permission became a prohibition */
	const char *via;       /* the definition it came from */
	bool derived_fallback; /* a present-* prohibition read as present */
};

struct decision_impl {
	struct heed_acap_decision pub; /* first: the caller's pointer */
	struct heed_arena arena;
	const struct heed_allocator *alloc;
};

struct ctx {
	const struct heed_acap *r;
	const char *crawler;
	const char *const *purposes;
	size_t npurposes;
	heed_acap_usage usage;
	const char *path;
	int64_t now;
	struct heed_acap_history hist;
	struct acap_vec cands; /* struct cand */
	struct acap_vec steps; /* struct heed_acap_step */
	struct acap_vec quals; /* struct heed_acap_qualifier */
	const char **set_best; /* per resource set: its deciding pattern */
	bool *set_done;        /* per resource set: set_best is computed */
	signed char *rec_for;  /* per record: -1 not for us, 0 "*", 1 named */
	struct decision_impl *d;
};

/* The outcome of one list of candidates (2.4.6). */
struct outcome {
	bool found, allow, undecidable;
	const struct cand *winner, *rival;
	size_t count;
};

static heed_status vstep(struct ctx *c, const char *source, unsigned line,
                         heed_acap_reason reason, const char *fmt, va_list ap)
{
	struct heed_acap_step *s;
	char text[640];
	int n = vsnprintf(text, sizeof(text), fmt, ap);

	n = n < 0 ? 0 : n >= (int)sizeof(text) ? (int)sizeof(text) - 1 : n;
	if (heed__acap_vec_push(c->d->alloc, &c->steps, sizeof(*s),
	                        (void **)&s))
		return HEED_ENOMEM;
	s->source = source;
	s->line = line;
	s->reason = reason;
	s->text = heed__arena_strndup(&c->d->arena, text, (size_t)n);
	return s->text ? HEED_OK : HEED_ENOMEM;
}

/* A step about line of robots.txt itself (0: about no line). */
static heed_status step(struct ctx *c, unsigned line, heed_acap_reason reason,
                        const char *fmt, ...)
        __attribute__((format(printf, 4, 5)));

static heed_status step(struct ctx *c, unsigned line, heed_acap_reason reason,
                        const char *fmt, ...)
{
	va_list ap;
	heed_status rc;

	va_start(ap, fmt);
	rc = vstep(c, NULL, line, reason, fmt, ap);
	va_end(ap);
	return rc;
}

/* A step about field f, in whichever file it was written. */
static heed_status fstep(struct ctx *c, const struct acap_field *f,
                         heed_acap_reason reason, const char *fmt, ...)
        __attribute__((format(printf, 4, 5)));

static heed_status fstep(struct ctx *c, const struct acap_field *f,
                         heed_acap_reason reason, const char *fmt, ...)
{
	va_list ap;
	heed_status rc;

	va_start(ap, fmt);
	rc = vstep(c, f->pub.source, f->pub.line, reason, fmt, ap);
	va_end(ap);
	return rc;
}

/* "ACAP-disallow-crawl: /private/" for a field, as written. */
static const char *verb(const struct acap_field *f)
{
	return f->pub.kind == HEED_ACAP_FIELD_ALLOW ? "allow" : "disallow";
}

static const char *layer_name(int layer)
{
	static const char *const names[] = {
	        "a sub-record of a record naming this crawler",
	        "a record naming this crawler",
	        "a sub-record of the record for any crawler",
	        "the record for any crawler",
	};
	return names[layer];
}

static bool sub_applies(const struct ctx *c, long sub)
{
	const struct acap_sub *s =
	        ACAP_VEC_AT(&c->r->subs, struct acap_sub, sub);

	for (size_t i = 0; i < s->npurposes; i++) {
		const char *pat = *ACAP_VEC_AT(&c->r->names, const char *,
		                               s->first_purpose + i);
		for (size_t k = 0; k < c->npurposes; k++)
			if (c->purposes[k] &&
			    heed__acap_match_whole(pat, c->purposes[k]))
				return true;
	}
	return false;
}

/* Which tier a candidate of usage u with verdict allow belongs to, or -1. */
static int tier_of(const struct ctx *c, heed_acap_usage u, bool allow,
                   bool *derived_fallback)
{
	*derived_fallback = false;
	if (u == c->usage)
		return TIER_EXACT;
	if (u == heed_acap_usage_basic(c->usage) && u != c->usage)
		return TIER_BASIC;
	/* 2.4.3: a prohibition of a derived usage, for a crawler that asks
	 * about presenting in general, is a prohibition of present. */
	if (c->usage == HEED_ACAP_PRESENT && !allow &&
	    heed_acap_usage_basic(u) == HEED_ACAP_PRESENT) {
		*derived_fallback = true;
		return TIER_EXACT;
	}
	if (u == HEED_ACAP_OTHER)
		return TIER_OTHER;
	return -1;
}

/* The pattern of a resource set that decides for this path: the narrowest
 * of those that match (2.4.6), the longest where they cannot be ordered. */
static const char *set_pattern(struct ctx *c, long rset)
{
	const struct acap_rset *s =
	        ACAP_VEC_AT(&c->r->rsets, struct acap_rset, rset);
	const char *best = NULL;

	/* Many fields may name one large set: match it once per decision. */
	if (c->set_done[rset])
		return c->set_best[rset];
	c->set_done[rset] = true;

	for (size_t i = 0; i < s->n; i++) {
		enum acap_scope sc;

		if (!heed__acap_match(s->patterns[i], c->path, true))
			continue;
		sc = best ? heed__acap_scope(s->patterns[i], best)
		          : ACAP_SCOPE_NARROWER;
		if (sc == ACAP_SCOPE_NARROWER ||
		    (sc == ACAP_SCOPE_UNORDERED &&
		     strlen(s->patterns[i]) > strlen(best)))
			best = s->patterns[i];
	}
	c->set_best[rset] = best;
	return best;
}

static const char *fallback_of(const struct acap_field *f,
                               const struct acap_qualset *qs, bool broken)
{
	if (broken || f->ukind == ACAP_U_UNKNOWN)
		return "it names a usage heed cannot resolve";
	if (f->malformed)
		return f->why;
	if (qs && !qs->interpretable)
		return qs->why;
	if (f->foreign_version)
		return "the file is written for an ACAP version heed does not "
		       "know";
	return NULL;
}

static heed_status add_cand(struct ctx *c, const struct acap_field *f,
                            int layer, heed_acap_usage usage,
                            const struct acap_qualset *qs, bool broken,
                            const char *via)
{
	struct cand *k;
	const char *pattern;
	bool allow = f->pub.kind == HEED_ACAP_FIELD_ALLOW, dfb;
	const char *fb = allow ? fallback_of(f, qs, broken) : NULL;
	int tier;

	if (broken)
		usage = HEED_ACAP_CRAWL;
	tier = tier_of(c, usage, allow && !fb, &dfb);
	if (tier < 0)
		return HEED_OK;
	pattern = f->rset >= 0 ? set_pattern(c, f->rset) : f->pattern;
	if (!pattern ||
	    (f->rset < 0 && !heed__acap_match(pattern, c->path, true)))
		return HEED_OK;
	if (heed__acap_vec_push(c->d->alloc, &c->cands, sizeof(*k),
	                        (void **)&k))
		return HEED_ENOMEM;
	k->f = f;
	k->pattern = pattern;
	k->usage = usage;
	k->allow = allow && !fb;
	k->tier = tier;
	k->layer = layer;
	k->qs = qs;
	k->fallback = fb;
	k->via = via;
	k->derived_fallback = dfb;
	return HEED_OK;
}

/* Expands a field's usage (2.7.1, 2.7.2) into candidates. */
static heed_status expand(struct ctx *c, const struct acap_field *f, int layer)
{
	const struct heed_acap *r = c->r;
	const struct acap_qdef *q;
	const struct acap_cdef *cd;
	heed_status rc = HEED_OK;

	switch (f->ukind) {
	case ACAP_U_STANDARD:
		return add_cand(c, f, layer, f->usage, &f->quals, false, NULL);
	case ACAP_U_UNKNOWN:
		return add_cand(c, f, layer, HEED_ACAP_CRAWL, NULL, true, NULL);
	case ACAP_U_QUALIFIED:
		q = ACAP_VEC_AT(&r->qdefs, struct acap_qdef, f->def);
		return add_cand(c, f, layer, q->usage, &q->quals,
		                !q->usage_known, q->name);
	case ACAP_U_COMPOSITE:
		cd = ACAP_VEC_AT(&r->cdefs, struct acap_cdef, f->def);
		for (size_t i = 0; rc == HEED_OK && i < cd->nparts; i++) {
			const struct acap_part *pt = &cd->parts[i];
			q = pt->qdef >= 0
			            ? ACAP_VEC_AT(&r->qdefs, struct acap_qdef,
			                          pt->qdef)
			            : NULL;
			rc = add_cand(c, f, layer, pt->usage,
			              q ? &q->quals : NULL, pt->broken,
			              cd->name);
		}
		return rc;
	}
	return HEED_OK;
}

/* Step of a field that is listed but never decides, when it would have
 * matched: the administrator sees why it did not count. */
static heed_status note_ignored(struct ctx *c, const struct acap_field *f)
{
	heed_acap_usage u;
	bool dfb;
	const char *pattern;

	if (!f->why || f->ukind != ACAP_U_STANDARD ||
	    !heed_acap_usage_from_name(f->pub.usage, strlen(f->pub.usage),
	                               &u) ||
	    tier_of(c, u, false, &dfb) < 0)
		return HEED_OK;
	pattern = f->rset >= 0 ? set_pattern(c, f->rset) : f->pattern;
	if (!pattern ||
	    (f->rset < 0 && !heed__acap_match(pattern, c->path, true)))
		return HEED_OK;
	return fstep(c, f,
	             f->version_ignored ? HEED_ACAP_R_VERSION
	                                : HEED_ACAP_R_IGNORED,
	             "ACAP-%s-%s: %s is ignored: %s.", verb(f), f->pub.usage,
	             f->pub.resource, f->why);
}

static heed_status gather(struct ctx *c)
{
	const struct heed_acap *r = c->r;
	heed_status rc = HEED_OK;

	for (size_t i = 0; rc == HEED_OK && i < r->fields.n; i++) {
		const struct acap_field *f =
		        ACAP_VEC_AT(&r->fields, struct acap_field, i);
		const struct acap_record *rec = ACAP_VEC_AT(
		        &r->records, struct acap_record, f->pub.record);
		bool named = c->rec_for[f->pub.record] > 0;
		int layer;

		if ((f->pub.kind != HEED_ACAP_FIELD_ALLOW &&
		     f->pub.kind != HEED_ACAP_FIELD_DISALLOW) ||
		    rec->reference || c->rec_for[f->pub.record] < 0 ||
		    (f->sub >= 0 && !sub_applies(c, f->sub)))
			continue;
		if (f->pub.ignored) {
			rc = note_ignored(c, f);
			continue;
		}
		layer = (named ? L_NAMED_SUB : L_ANY_SUB) + (f->sub < 0);
		rc = expand(c, f, layer);
	}
	return rc;
}

/*
 * 2.4.6 over one list: "the permission or prohibition with the narrowest
 * effective scope is applied and the others are ignored"; "In the event that
 * a crawler is unable to determine which ... has the narrowest scope ... the
 * usage is prohibited on that resource." Fields that agree never conflict.
 */
static struct outcome resolve(const struct ctx *c, int tier, int layer)
{
	const struct cand *k = c->cands.items;
	struct outcome o = {0};

	for (size_t i = 0; i < c->cands.n; i++) {
		if (k[i].tier != tier || k[i].layer != layer)
			continue;
		o.count++;
		if (!o.winner ||
		    heed__acap_scope(k[i].pattern, o.winner->pattern) ==
		            ACAP_SCOPE_NARROWER)
			o.winner = &k[i];
	}
	if (!o.winner)
		return o;
	o.found = true;
	for (size_t i = 0; i < c->cands.n && !o.undecidable; i++) {
		if (k[i].tier != tier || k[i].layer != layer ||
		    &k[i] == o.winner || k[i].allow == o.winner->allow ||
		    heed__acap_scope(o.winner->pattern, k[i].pattern) ==
		            ACAP_SCOPE_NARROWER)
			continue;
		o.undecidable = true;
		o.rival = &k[i];
		/* Explain with the prohibition that stands. */
		if (o.winner->allow) {
			o.rival = o.winner;
			o.winner = &k[i];
		}
	}
	o.allow = o.winner->allow && !o.undecidable;
	return o;
}

static const char *record_words(const struct ctx *c, const struct cand *k,
                                char *buf, size_t size)
{
	const struct acap_record *rec = ACAP_VEC_AT(
	        &c->r->records, struct acap_record, k->f->pub.record);

	snprintf(buf, size, "%s (line %u)", layer_name(k->layer),
	         k->layer >= L_ANY_SUB && k->f->sub < 0
	                 ? rec->line
	                 : (k->f->sub >= 0
	                            ? ACAP_VEC_AT(&c->r->subs, struct acap_sub,
	                                          k->f->sub)
	                                      ->line
	                            : rec->line));
	return buf;
}

/* Explains the candidate that decided a list. */
static heed_status explain(struct ctx *c, const struct outcome *o)
{
	const struct cand *w = o->winner;
	char where[160];
	heed_status rc = HEED_OK;

	if (w->via)
		rc = fstep(c, w->f, HEED_ACAP_R_EXPANDED,
		           "(%s) stands for %s here (2.7).", w->via,
		           heed_acap_usage_name(w->usage));
	if (rc == HEED_OK && w->fallback)
		rc = fstep(
		        c, w->f, HEED_ACAP_R_FALLBACK,
		        "The permission is read as a prohibition of %s because "
		        "%s (2.4.3).",
		        heed_acap_usage_name(w->usage), w->fallback);
	if (rc == HEED_OK && w->derived_fallback)
		rc = fstep(
		        c, w->f, HEED_ACAP_R_FALLBACK,
		        "A prohibition of %s counts as a prohibition of "
		        "present "
		        "when the question is presenting in general (2.4.3).",
		        heed_acap_usage_name(w->usage));
	if (rc != HEED_OK)
		return rc;
	record_words(c, w, where, sizeof(where));
	if (o->undecidable)
		return fstep(c, w->f, HEED_ACAP_R_UNDECIDABLE,
		             "ACAP-%s-%s: %s in %s and line %u (%s) match with "
		             "scopes heed cannot order, so the usage is "
		             "prohibited (2.4.6).",
		             verb(w->f), w->f->pub.usage, w->pattern, where,
		             o->rival->f->pub.line, o->rival->pattern);
	if (o->count > 1)
		return fstep(
		        c, w->f, HEED_ACAP_R_NARROWEST,
		        "ACAP-%s-%s: %s in %s is the narrowest of %zu matching "
		        "fields (2.4.6): %s.",
		        verb(w->f), w->f->pub.usage, w->pattern, where,
		        o->count, w->allow ? "permitted" : "prohibited");
	return fstep(c, w->f, HEED_ACAP_R_MATCH,
	             "ACAP-%s-%s: %s in %s matches: %s.", verb(w->f),
	             w->f->pub.usage, w->pattern, where,
	             w->allow ? "permitted" : "prohibited");
}

/* Sub-record over record (2.2.1) within named or within "*" records. */
static heed_status layered(struct ctx *c, int tier, int sub, struct outcome *o)
{
	struct outcome in_sub = resolve(c, tier, sub);
	struct outcome whole = resolve(c, tier, sub + 1);

	*o = in_sub.found ? in_sub : whole;
	if (!in_sub.found || !whole.found)
		return HEED_OK;
	return fstep(c, whole.winner->f, HEED_ACAP_R_SUBRECORD,
	             "The sub-record for this usage purpose overrides line %u "
	             "of its record (2.2.1).",
	             whole.winner->f->pub.line);
}

/* The outcome of one tier: named records over "*" (2.2.1). */
static heed_status decide_tier(struct ctx *c, int tier, struct outcome *o)
{
	struct outcome named, any;
	heed_status rc = layered(c, tier, L_NAMED_SUB, &named);

	if (rc == HEED_OK)
		rc = layered(c, tier, L_ANY_SUB, &any);
	if (rc != HEED_OK)
		return rc;
	*o = named.found ? named : any;
	if (!named.found || !any.found)
		return o->found ? explain(c, o) : HEED_OK;
	/* A named record's general field against a sub-record of "*" for this
	 * purpose: the text ranks neither, so the prohibition stands. */
	if (named.winner->layer == L_NAMED && any.winner->layer == L_ANY_SUB &&
	    named.allow != any.allow) {
		*o = named.allow ? any : named;
		rc = explain(c, o);
		return rc != HEED_OK
		               ? rc
		               : step(c, 0, HEED_ACAP_R_UNDECIDABLE,
		                      "A record naming this crawler and a "
		                      "sub-record for any crawler disagree; "
		                      "heed takes the prohibition.");
	}
	rc = explain(c, o);
	if (rc != HEED_OK)
		return rc;
	return fstep(c, any.winner->f, HEED_ACAP_R_NAMED_OVERRIDE,
	             "The record naming this crawler overrides line %u of the "
	             "record for any crawler (2.2.1).",
	             any.winner->f->pub.line);
}

static int64_t add_days(int64_t base, uint64_t days)
{
	if (days > (uint64_t)(INT64_MAX - (base > 0 ? base : 0)) / 86400)
		return INT64_MAX;
	return base + (int64_t)days * 86400;
}

/* Adds the qualifiers of a permission that binds (2.4.6: all qualifiers of
 * an applicable permission bind, the tightest time-limit and length win). */
static heed_status bind_quals(struct ctx *c, const struct acap_qualset *qs)
{
	struct heed_acap_decision *d = &c->d->pub;
	int64_t base =
	        c->hist.first_indexed > 0 ? c->hist.first_indexed : c->now;

	for (size_t i = 0; qs && i < qs->n; i++) {
		struct heed_acap_qualifier *q;

		if (!qs->used[i])
			continue;
		if (heed__acap_vec_push(c->d->alloc, &c->quals, sizeof(*q),
		                        (void **)&q))
			return HEED_ENOMEM;
		*q = qs->q[i];
		q->name = heed__arena_strndup(&c->d->arena, q->name,
		                              strlen(q->name));
		q->value = heed__arena_strndup(&c->d->arena, q->value,
		                               strlen(q->value));
		if (!q->name || !q->value)
			return HEED_ENOMEM;
	}
	if (!qs)
		return HEED_OK;
	if (qs->time.present) {
		d->time_limit.present = true;
		d->time_limit.until_recrawled |= qs->time.until_recrawled;
		if (qs->time.has_date &&
		    qs->time.date_end < d->time_limit.expires)
			d->time_limit.expires = qs->time.date_end;
		if (qs->time.has_days &&
		    add_days(base, qs->time.days) < d->time_limit.expires)
			d->time_limit.expires = add_days(base, qs->time.days);
	}
	if (qs->max_length.unit != HEED_ACAP_LENGTH_NONE &&
	    (d->max_length.unit == HEED_ACAP_LENGTH_NONE ||
	     qs->max_length.count < d->max_length.count))
		d->max_length = qs->max_length;
	return HEED_OK;
}

/* A permission: bind the qualifiers of every permission that ties with the
 * winner, then check the time-limit against now (2.5.3.1). */
static heed_status permit(struct ctx *c, const struct outcome *o, bool *allow)
{
	const struct cand *k = c->cands.items;
	struct heed_acap_time_limit *tl = &c->d->pub.time_limit;
	heed_status rc = HEED_OK;

	for (size_t i = 0; rc == HEED_OK && i < c->cands.n; i++)
		if (&k[i] == o->winner ||
		    (k[i].tier == o->winner->tier &&
		     k[i].layer == o->winner->layer && k[i].allow &&
		     heed__acap_scope(o->winner->pattern, k[i].pattern) !=
		             ACAP_SCOPE_NARROWER))
			rc = bind_quals(c, k[i].qs);
	if (rc != HEED_OK || !tl->present)
		return rc;
	if (tl->until_recrawled && c->hist.recrawled) {
		*allow = false;
		return fstep(c, o->winner->f, HEED_ACAP_R_TIME_LIMIT,
		             "The permission lasts until the resource is "
		             "re-crawled, and it has been.");
	}
	if (c->now >= tl->expires) {
		*allow = false;
		return fstep(c, o->winner->f, HEED_ACAP_R_TIME_LIMIT,
		             "The permission's time limit ended at %lld (Unix "
		             "time); it is now %lld.",
		             (long long)tl->expires, (long long)c->now);
	}
	return HEED_OK;
}

/* A prohibition of a less specific usage in a record or sub-record that
 * ranks higher (2.2.1: sub-record over record, named over "*") is not lifted
 * by a more specific permission that ranks lower. */
static const struct cand *veto_of(const struct ctx *c, const struct outcome *o)
{
	const struct cand *k = c->cands.items;

	for (size_t i = 0; i < c->cands.n; i++)
		if (k[i].layer < o->winner->layer &&
		    k[i].tier > o->winner->tier && !k[i].allow)
			return &k[i];
	return NULL;
}

/* Steps 2 to 5: the ACAP answer. *decided is false when no field applies. */
static heed_status acap_decide(struct ctx *c, bool *decided, bool *allow)
{
	static const heed_acap_reason tier_reason[] = {HEED_ACAP_R_MATCH,
	                                               HEED_ACAP_R_BASIC_USAGE,
	                                               HEED_ACAP_R_OTHER_USAGE};
	struct outcome o = {0};
	const struct cand *veto;
	heed_status rc = gather(c);
	int tier = 0;

	for (; rc == HEED_OK && tier < TIERS && !o.found; tier++)
		rc = decide_tier(c, tier, &o);
	*decided = o.found;
	if (rc != HEED_OK || !o.found)
		return rc;
	tier--;
	if (tier > TIER_EXACT)
		rc = step(
		        c, 0, tier_reason[tier],
		        tier == TIER_BASIC
		                ? "No field for %s matched; the field for its "
		                  "basic usage applies (2.5)."
		                : "No field for %s matched; the field for "
		                  "usage "
		                  "type other applies (2.5.6).",
		        heed_acap_usage_name(c->usage));
	*allow = o.allow;
	c->d->pub.line = o.winner->f->pub.line;
	veto = o.allow ? veto_of(c, &o) : NULL;
	if (rc == HEED_OK && veto) {
		*allow = false;
		c->d->pub.line = veto->f->pub.line;
		return fstep(
		        c, veto->f,
		        veto->layer == L_NAMED_SUB || veto->layer == L_ANY_SUB
		                ? HEED_ACAP_R_SUBRECORD
		                : HEED_ACAP_R_NAMED_OVERRIDE,
		        "ACAP-disallow-%s: %s in %s still prohibits it: it "
		        "ranks above line %u (2.2.1).",
		        veto->f->pub.usage, veto->pattern,
		        layer_name(veto->layer), o.winner->f->pub.line);
	}
	if (rc == HEED_OK && o.allow)
		rc = permit(c, &o, allow);
	return rc;
}

/* Whether an ACAP crawl candidate has the same pattern as a conventional
 * rule and the opposite verdict (2.10.2). A "*" ACAP record does not
 * override a conventional group that names the crawler. */
static const struct cand *acap_twin(const struct ctx *c,
                                    const struct heed_robots_rule *rule,
                                    bool named_group)
{
	const struct cand *k = c->cands.items;
	bool allow = rule->kind == HEED_ROBOTS_ALLOW;

	for (size_t i = 0; i < c->cands.n; i++) {
		const struct acap_field *f = k[i].f;
		bool same = false;

		if (k[i].usage != HEED_ACAP_CRAWL || k[i].allow == allow ||
		    (named_group && k[i].layer >= L_ANY_SUB))
			continue;
		if (f->rset < 0) {
			same = heed__ascii_ieq(rule->pattern, rule->pattern_len,
			                       f->pattern);
		} else {
			const struct acap_rset *s = ACAP_VEC_AT(
			        &c->r->rsets, struct acap_rset, f->rset);
			for (size_t p = 0; p < s->n && !same; p++)
				same = heed__ascii_ieq(rule->pattern,
				                       rule->pattern_len,
				                       s->patterns[p]);
		}
		if (same)
			return &k[i];
	}
	return NULL;
}

static heed_status conventional_overrides(struct ctx *c, struct acap_conv *cv)
{
	heed_status rc = HEED_OK;

	for (size_t i = 0; rc == HEED_OK && i < cv->n; i++) {
		const struct heed_robots_rule *rule = cv->rules[i];
		const struct cand *twin;

		if (!heed__acap_conv_matches(cv, i, c->path))
			continue;
		twin = acap_twin(c, rule, cv->named);
		cv->skip[i] = twin != NULL;
		if (twin)
			rc = step(c, rule->line, HEED_ACAP_R_CONVENTIONAL_OFF,
			          "Conventional '%s: %s' is ignored: line %u "
			          "says "
			          "the opposite for the same pattern (2.10.2).",
			          heed_robots_rule_kind_name(rule->kind),
			          rule->value, twin->f->pub.line);
	}
	return rc;
}

/* Step 6: conventional records for crawl (2.10.2: "a Disallow: field in
 * conventional REP terms" means do not crawl). */
static heed_status conventional(struct ctx *c, bool *decided, bool *allow)
{
	const struct heed_acap *r = c->r;
	const struct heed_robots_rule *rule;
	struct acap_conv cv;
	long best;
	heed_status rc;

	*decided = false;
	if (c->usage != HEED_ACAP_CRAWL || r->ignore_conventional)
		return HEED_OK;
	rc = heed__acap_conv_open(r, c->crawler, &cv);
	if (rc == HEED_OK)
		rc = conventional_overrides(c, &cv);
	best = rc == HEED_OK ? heed__acap_conv_decide(&cv, c->path) : -1;
	if (best >= 0) {
		rule = cv.rules[best];
		*decided = true;
		*allow = rule->kind == HEED_ROBOTS_ALLOW;
		rc = step(c, rule->line, HEED_ACAP_R_CONVENTIONAL,
		          "Conventional '%s: %s' in the User-agent group %s "
		          "%s crawling (RFC 9309; ACAP 2.10).",
		          heed_robots_rule_kind_name(rule->kind), rule->value,
		          cv.named ? "naming this crawler"
		                   : "for any crawler (*)",
		          *allow ? "permits" : "prohibits");
		if (!*allow)
			c->d->pub.line = rule->line;
	}
	heed__acap_conv_close(r, &cv);
	return rc;
}

/* Step 1: a record for this crawler that points elsewhere (2.3.2). */
static bool attached(const struct heed_acap *r, const char *locator)
{
	for (size_t s = 0; s < r->sources.n; s++)
		if (strcmp(ACAP_VEC_AT(&r->sources, struct acap_source, s)
		                   ->locator,
		           locator) == 0)
			return true;
	return false;
}

static const struct acap_record *reference_for(const struct ctx *c)
{
	const struct acap_record *any = NULL;
	bool named_seen = false;

	for (size_t i = 0; i < c->r->records.n; i++) {
		const struct acap_record *rec =
		        ACAP_VEC_AT(&c->r->records, struct acap_record, i);
		bool named = c->rec_for[i] > 0;

		if (c->rec_for[i] < 0)
			continue;
		named_seen |= named;
		if (!rec->reference || attached(c->r, rec->reference))
			continue;
		if (named)
			return rec;
		if (!any)
			any = rec;
	}
	return named_seen ? NULL : any;
}

static heed_status finish(struct ctx *c)
{
	struct heed_acap_decision *d = &c->d->pub;

	d->step_count = c->steps.n;
	d->steps = heed__acap_arena_copy_to(&c->d->arena, c->steps.items,
	                                    c->steps.n * sizeof(*d->steps));
	d->qualifier_count = c->quals.n;
	d->qualifiers =
	        heed__acap_arena_copy_to(&c->d->arena, c->quals.items,
	                                 c->quals.n * sizeof(*d->qualifiers));
	if ((c->steps.n && !d->steps) || (c->quals.n && !d->qualifiers))
		return HEED_ENOMEM;
	if (!d->permitted) {
		/* Qualifiers bind permissions only. */
		d->qualifier_count = 0;
		d->time_limit.present = false;
		d->time_limit.until_recrawled = false;
		d->time_limit.expires = INT64_MAX;
		d->max_length.unit = HEED_ACAP_LENGTH_NONE;
		d->max_length.count = 0;
	}
	return HEED_OK;
}

/* Which records address the crawler, once per decision. */
static heed_status records_for(struct ctx *c)
{
	const struct heed_acap *r = c->r;
	signed char *via = heed__arena_alloc(&c->d->arena, r->sources.n + 1);

	c->rec_for = heed__arena_alloc(&c->d->arena, r->records.n + 1);
	if (!c->rec_for || !via)
		return HEED_ENOMEM;
	for (size_t s = 0; s < r->sources.n; s++)
		via[s] = (signed char)heed__acap_source_for(r, (long)s,
		                                            c->crawler);
	for (size_t i = 0; i < r->records.n; i++) {
		long s =
		        ACAP_VEC_AT(&r->records, struct acap_record, i)->source;
		bool named;
		bool hit = heed__acap_record_applies(
		        r, i, c->crawler, s < 0 ? 0 : via[s], &named);
		c->rec_for[i] = (signed char)(hit ? named : -1);
	}
	return HEED_OK;
}

static heed_status run(struct ctx *c)
{
	struct heed_acap_decision *d = &c->d->pub;
	const struct acap_record *ref;
	bool acap_decided = false, acap_allow = true;
	bool conv_decided = false, conv_allow = true;
	heed_status rc = records_for(c);

	if (rc != HEED_OK)
		return rc;
	ref = reference_for(c);
	if (ref) {
		d->permitted = false;
		d->line = ref->reference_line;
		d->reference = heed__arena_strndup(&c->d->arena, ref->reference,
		                                   strlen(ref->reference));
		if (!d->reference)
			return HEED_ENOMEM;
		return step(
		        c, ref->reference_line, HEED_ACAP_R_REFERENCE,
		        "The rules for this crawler are in %s (2.3.2), which "
		        "heed has not read: prohibited until it does.",
		        ref->reference);
	}
	rc = acap_decide(c, &acap_decided, &acap_allow);
	if (rc == HEED_OK)
		rc = conventional(c, &conv_decided, &conv_allow);
	if (rc != HEED_OK)
		return rc;
	d->permitted = acap_allow && conv_allow;
	if (acap_decided || conv_decided)
		return HEED_OK;
	return step(c, 0, HEED_ACAP_R_DEFAULT,
	            "No field applies to %s of %s for this crawler: permitted "
	            "(2.4.3 NOTE).",
	            heed_acap_usage_name(c->usage), c->path);
}

/* The decision's own memory: the normalised path and the per-set cache. */
static heed_status prepare(struct ctx *c, const char *path)
{
	struct heed_arena *ar = &c->d->arena;
	size_t sets = c->r->rsets.n + 1;
	size_t size = heed_robots_normalize(NULL, 0, path, strlen(path)) + 1;
	char *norm = heed__arena_alloc(ar, size);

	/* Both sides of every match are percent-normalised (RFC 9309 2.2.2),
	 * as the robots module does; ACAP patterns were at parse time. */
	if (!norm)
		return HEED_ENOMEM;
	heed_robots_normalize(norm, size, path, strlen(path));
	c->path = norm;
	c->set_best = heed__arena_alloc(ar, sets * sizeof(*c->set_best));
	c->set_done = heed__arena_alloc(ar, sets);
	if (!c->set_best || !c->set_done)
		return HEED_ENOMEM;
	memset(c->set_done, 0, sets);
	return HEED_OK;
}

heed_status heed_acap_decide(const heed_acap *rules, const char *crawler,
                             const char *const *purposes, size_t purpose_count,
                             heed_acap_usage usage, const char *path,
                             int64_t now,
                             const struct heed_acap_history *history,
                             struct heed_acap_decision **out)
{
	struct ctx c = {0};
	struct decision_impl *d;
	heed_status rc;

	if (!out)
		return HEED_EINVAL;
	*out = NULL;
	if (!rules || !crawler || !path ||
	    (unsigned)usage >= HEED_ACAP_USAGE_COUNT ||
	    (purpose_count > 0 && !purposes))
		return HEED_EINVAL;
	d = heed__calloc(rules->alloc, 1, sizeof(*d));
	if (!d)
		return HEED_ENOMEM;
	d->alloc = rules->alloc;
	heed__arena_init(&d->arena, rules->alloc);
	d->pub.time_limit.expires = INT64_MAX;
	c = (struct ctx){.r = rules,
	                 .crawler = crawler,
	                 .purposes = purposes,
	                 .npurposes = purpose_count,
	                 .usage = usage,
	                 .now = now,
	                 .d = d};
	if (history)
		c.hist = *history;
	rc = prepare(&c, path);
	if (rc == HEED_OK)
		rc = run(&c);
	if (rc == HEED_OK)
		rc = finish(&c);
	heed__acap_vec_free(d->alloc, &c.cands);
	heed__acap_vec_free(d->alloc, &c.steps);
	heed__acap_vec_free(d->alloc, &c.quals);
	if (rc != HEED_OK) {
		heed_acap_decision_free(&d->pub);
		return rc;
	}
	*out = &d->pub;
	return HEED_OK;
}

void heed_acap_decision_free(struct heed_acap_decision *decision)
{
	struct decision_impl *d = (struct decision_impl *)decision;

	if (!d)
		return;
	heed__arena_free(&d->arena);
	heed__free(d->alloc, d);
}
