/*
 * What part of a shown page the index may show (docs/serve.md, "What may
 * be shown"), from the permissions JSON the crawl stored with the page
 * (src/crawl/permissions_json.c): whether the snippet (the description)
 * is shown and how long it may be, and whether the thumbnail link is.
 *
 * Each thing shown asks its own ACAP usage (2.5.5.1), since heed can act
 * on each: present-snippet for the description, present-thumbnail for
 * the thumbnail, present-link for the listing. The evaluator already
 * reads a present field for each of them (the basic usage, 2.5); the
 * derived-usage fallback of 2.4.3 (a present-snippet prohibition read as
 * one of present) is for a crawler that cannot act on the derived usage,
 * so it is never asked here. Records stored before present-link was
 * stored carry "present" instead, read in its place.
 *
 * The snippet is left out for robots meta nosnippet or max-snippet 0, and
 * for an ACAP present-snippet usage that is refused or whose time limit
 * has passed; it is cut to the smallest of max-snippet (chars) and
 * present-snippet's max-length (chars or words). The thumbnail is left
 * out when present-thumbnail is refused or expired. Anything that is not
 * readable permissions JSON shows neither: when in doubt, show less.
 * `why` names every reason, for the record page.
 *
 * The crawl reads the same rules for what the search index may hold of a
 * description (heed__serve_permit_index_len): a word that may not be
 * shown must not be findable either.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include <json-c/json.h>

#include "common/common-int.h"

/* Appends a reason to p->why, "; " between reasons; a reason that does
 * not fit whole is left out rather than cut mid-word. */
static void reason(struct heed__serve_permit *p, const char *fmt, ...)
        __attribute__((format(printf, 2, 3)));
static void reason(struct heed__serve_permit *p, const char *fmt, ...)
{
	char one[sizeof(p->why)];
	size_t used = strlen(p->why), need;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(one, sizeof(one), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	need = (size_t)n + (used ? 2 : 0);
	if (used + need >= sizeof(p->why))
		return;
	if (used)
		memcpy(p->why + used, "; ", 2);
	memcpy(p->why + used + need - (size_t)n, one, (size_t)n + 1);
}

static json_object *member(json_object *o, const char *key)
{
	json_object *v = NULL;

	if (!json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, key, &v))
		return NULL;
	return v;
}

static bool int_member(json_object *o, const char *key, int64_t *v)
{
	json_object *m = member(o, key);

	if (!json_object_is_type(m, json_type_int))
		return false;
	*v = json_object_get_int64(m);
	return true;
}

/* How an ACAP usage stands: absent (no rule: allowed), allowed, refused
 * (permitted false, or not a boolean), or expired at now_s. */
enum usage { U_ABSENT, U_ALLOWED, U_REFUSED, U_EXPIRED };

static enum usage usage_state(json_object *acap, const char *name,
                              int64_t now_s)
{
	json_object *u = member(acap, name), *ok;
	int64_t expires;

	if (!u)
		return U_ABSENT;
	ok = member(u, "permitted");
	if (!json_object_is_type(ok, json_type_boolean) ||
	    !json_object_get_boolean(ok))
		return U_REFUSED;
	if (int_member(u, "expires", &expires) && expires <= now_s)
		return U_EXPIRED;
	return U_ALLOWED;
}

static void limit_chars(struct heed__serve_permit *p, int64_t n)
{
	if (p->snippet_chars == 0 || (uint64_t)n < p->snippet_chars)
		p->snippet_chars = (size_t)n;
}

static void apply_meta(struct heed__serve_permit *p, json_object *meta)
{
	json_object *ns = member(meta, "nosnippet");
	int64_t max;

	if (json_object_is_type(ns, json_type_boolean) &&
	    json_object_get_boolean(ns)) {
		p->snippet = false;
		reason(p, "nosnippet (robots meta)");
	}
	if (!int_member(meta, "max_snippet", &max) || max < 0)
		return; /* absent, or -1: no limit */
	if (max == 0) {
		p->snippet = false;
		reason(p, "max-snippet 0 (robots meta)");
		return;
	}
	limit_chars(p, max);
	reason(p, "max-snippet %" PRId64 " (robots meta)", max);
}

static void apply_snippet_length(struct heed__serve_permit *p, json_object *u)
{
	json_object *unit = member(u, "max_length_unit");
	bool words = json_object_is_type(unit, json_type_string) &&
	             strcmp(json_object_get_string(unit), "words") == 0;
	int64_t max;

	if (!int_member(u, "max_length", &max) || max < 0)
		return;
	reason(p, "ACAP present-snippet max-length %" PRId64 " %s", max,
	       words ? "words" : "chars");
	if (max == 0)
		p->snippet = false;
	else if (words)
		p->snippet_words = (size_t)max;
	else
		limit_chars(p, max);
}

/* The usage that decides the listing: present-link, or present in a
 * record stored before present-link was. */
static const char *link_usage(json_object *acap)
{
	return member(acap, "present-link") ? "present-link" : "present";
}

static void apply_acap(struct heed__serve_permit *p, json_object *acap,
                       int64_t now_s)
{
	static const char *const state_word[] = {"", "", "refused", "expired"};
	const char *link = link_usage(acap);
	enum usage listed = usage_state(acap, link, now_s);
	enum usage snippet = usage_state(acap, "present-snippet", now_s);
	enum usage thumb = usage_state(acap, "present-thumbnail", now_s);

	if (listed >= U_REFUSED) {
		p->snippet = p->thumbnail = false;
		reason(p, "ACAP %s %s", link, state_word[listed]);
	}
	if (snippet >= U_REFUSED) {
		p->snippet = false;
		reason(p, "ACAP present-snippet %s", state_word[snippet]);
	} else if (snippet == U_ALLOWED) {
		json_object *u = member(acap, "present-snippet");
		p->snippet_timed = member(u, "expires") != NULL;
		apply_snippet_length(p, u);
	}
	if (thumb >= U_REFUSED) {
		p->thumbnail = false;
		reason(p, "ACAP present-thumbnail %s", state_word[thumb]);
	}
}

void heed__serve_permit_open(struct heed__serve_permit *p)
{
	memset(p, 0, sizeof(*p));
	p->snippet = p->thumbnail = true;
}

void heed__serve_permit(const char *permissions_json, int64_t now_s,
                        struct heed__serve_permit *p)
{
	json_object *root =
	        permissions_json ? json_tokener_parse(permissions_json) : NULL;
	json_object *acap;

	if (!json_object_is_type(root, json_type_object)) {
		memset(p, 0, sizeof(*p));
		reason(p, "the page's permissions are unreadable");
		json_object_put(root);
		return;
	}
	heed__serve_permit_open(p);
	apply_meta(p, member(root, "meta_robots"));
	acap = member(root, "acap");
	if (json_object_is_type(acap, json_type_object))
		apply_acap(p, acap, now_s);
	if (!p->snippet) {
		p->snippet_chars = 0;
		p->snippet_words = 0;
	}
	json_object_put(root);
}

size_t heed__serve_cut_chars(const char *s, size_t len, size_t max)
{
	size_t chars = 0;

	for (size_t i = 0; i < len; i++) {
		if (((unsigned char)s[i] & 0xC0) == 0x80)
			continue; /* inside a character */
		if (chars == max)
			return i;
		chars++;
	}
	return len;
}

static bool word_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
	       c == '\v';
}

size_t heed__serve_cut_words(const char *s, size_t len, size_t max)
{
	size_t words = 0, end = 0;

	for (size_t i = 0; i < len; i++) {
		if (word_space(s[i]))
			continue;
		if (i == 0 || word_space(s[i - 1])) {
			if (words == max)
				return end;
			words++;
		}
		end = i + 1;
	}
	return len;
}

size_t heed__serve_snippet_cut(const struct heed__serve_permit *p,
                               const char *desc, size_t len)
{
	size_t cut = len;

	if (p->snippet_chars)
		cut = heed__serve_cut_chars(desc, cut, p->snippet_chars);
	if (p->snippet_words)
		cut = heed__serve_cut_words(desc, cut, p->snippet_words);
	return cut;
}

size_t heed__serve_permit_index_len(const struct heed__serve_permit *p,
                                    const char *desc, size_t len)
{
	if (!desc || !p->snippet || p->snippet_timed)
		return 0;
	return heed__serve_snippet_cut(p, desc, len);
}
