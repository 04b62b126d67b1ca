/*
 * heed_extract_oembed(): an oEmbed 1.0 answer (oembed.com, sections 2.3.4
 * and 2.3.5), JSON through json-c or XML through libxml2, as the rest of
 * the module reads them.
 *
 * Only the members that describe the resource are kept: type, version,
 * title, author and provider, thumbnail, sizes and cache_age. The "html"
 * member is never kept: it is markup for a browser to embed (often an
 * iframe or a script), not metadata, and keeping it would invite someone
 * to render or follow it; "url" of a photo is the media itself, also never
 * kept (the media ban).
 *
 * Every value is bounded (OEMBED_MAX_TEXT, HEED_URL_MAX_BYTES); a member of
 * the wrong type or too long is skipped and counted, never fatal. An
 * answer that is not an object (JSON) or an <oembed> root (XML), or that
 * lacks a version 1.x or a known type, is an error: an endpoint that says
 * something else is not speaking oEmbed.
 */
#include <json-c/json.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <stdio.h>

#include "extract/extract-int.h"

/* One text member (a title, a name); an answer's members read. */
#define OEMBED_MAX_TEXT    4096
#define OEMBED_MAX_MEMBERS 256
/* Objects inside the answer are never read: json-c stops past this. */
#define OEMBED_JSON_DEPTH 16

struct oembed_full {
	struct heed_oembed pub; /* first: heed_oembed_free() casts back */
	const struct heed_allocator *alloc;
	struct heed_arena arena;
};

struct reader {
	struct oembed_full *o;
	heed_url *base;
	heed_status oom;
};

enum kind { K_TEXT, K_URL, K_NUMBER, K_VERSION, K_TYPE };

static const struct member {
	const char *name;
	enum kind kind;
	size_t off; /* of a const char * or an int64_t in heed_oembed */
} members[] = {
#define S(m, k)                                        \
	{                                              \
#m, k, offsetof(struct heed_oembed, m) \
	}
        S(type, K_TYPE),
        S(version, K_VERSION),
        S(title, K_TEXT),
        S(author_name, K_TEXT),
        S(author_url, K_URL),
        S(provider_name, K_TEXT),
        S(provider_url, K_URL),
        S(thumbnail_url, K_URL),
        S(thumbnail_width, K_NUMBER),
        S(thumbnail_height, K_NUMBER),
        S(width, K_NUMBER),
        S(height, K_NUMBER),
        S(cache_age, K_NUMBER),
#undef S
};

static const char *const types[] = {"photo", "video", "link", "rich"};

/* A count: ASCII digits only (XML gives every number as text), at most
 * 2^53 so that JSON readers downstream keep it exact. */
static bool digits(const char *s, size_t len, int64_t *v)
{
	int64_t n = 0;

	heed__trim(&s, &len);
	if (!len || len > 16)
		return false;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		n = n * 10 + (s[i] - '0');
	}
	if (n > ((int64_t)1 << 53))
		return false;
	*v = n;
	return true;
}

/* "1.0", also "1" and "1.0.x": a major version other than 1 is another
 * protocol. */
static bool version_ok(const char *s)
{
	return s[0] == '1' && (s[1] == '\0' || s[1] == '.');
}

static bool type_ok(const char *s)
{
	for (size_t i = 0; i < HEED_ARRAY_SIZE(types); i++)
		if (strcmp(s, types[i]) == 0)
			return true;
	return false;
}

/* Keeps the member m from its text (an XML element's, a JSON string's or
 * a JSON number's as written); false when it is not usable. */
static bool keep_text(struct reader *r, const struct member *m, const char *s,
                      size_t len)
{
	char *field = (char *)&r->o->pub + m->off;
	struct heed_buf clean;
	const char *v = NULL;
	bool ok = false;

	if (m->kind == K_NUMBER) {
		int64_t n;
		if (!digits(s, len, &n))
			return false;
		memcpy(field, &n, sizeof(n));
		return true;
	}
	if (len > (m->kind == K_URL ? HEED_URL_MAX_BYTES : OEMBED_MAX_TEXT))
		return false;
	/* NUL, C0 controls and invalid UTF-8 become U+FFFD. */
	heed__buf_init(&clean, r->o->alloc, 4 * len + 16);
	if (heed__utf8_sanitize(&clean, s, len) != HEED_OK) {
		/* The cap holds any sanitised copy: only memory fails. */
		r->oom = HEED_ENOMEM;
		heed__buf_free(&clean);
		return false;
	}
	if (m->kind == K_URL) {
		char url[HEED_URL_MAX_BYTES + 1];
		size_t n;
		const char *t = heed__buf_str(&clean);
		size_t tl = strlen(t);
		heed_status rc;
		heed__trim(&t, &tl);
		rc = tl ? heed_url_resolve_buf(r->base, t, tl, url, sizeof(url),
		                               &n)
		        : HEED_EINVAL;
		if (rc == HEED_ENOMEM)
			r->oom = rc;
		if (rc == HEED_OK)
			v = heed__arena_strndup(&r->o->arena, url, n);
		if (rc == HEED_OK && !v)
			r->oom = HEED_ENOMEM;
	} else {
		v = heed__collapse(&r->o->arena, heed__buf_str(&clean),
		                   strlen(heed__buf_str(&clean)), &r->oom);
	}
	heed__buf_free(&clean);
	if (v && m->kind == K_VERSION)
		ok = version_ok(v);
	else if (v && m->kind == K_TYPE)
		ok = type_ok(v);
	else
		ok = v != NULL;
	if (ok)
		memcpy(field, &v, sizeof(v));
	return ok;
}

static const struct member *member_named(const char *name)
{
	for (size_t i = 0; i < HEED_ARRAY_SIZE(members); i++)
		if (strcmp(name, members[i].name) == 0)
			return &members[i];
	return NULL;
}

/* Members heed does not know are read past; "html" and a photo's "url"
 * are so on purpose (see the top of the file). */
static void json_member(struct reader *r, const char *key,
                        struct json_object *v)
{
	const struct member *m = member_named(key);
	bool ok = false;

	if (!m)
		return;
	switch (json_object_get_type(v)) {
	case json_type_string:
		/* A number written as a string is still a number. */
		ok = keep_text(r, m, json_object_get_string(v),
		               (size_t)json_object_get_string_len(v));
		break;
	case json_type_int:
		if (m->kind == K_NUMBER || m->kind == K_VERSION) {
			char num[32];
			int64_t n = json_object_get_int64(v);
			int len = snprintf(num, sizeof(num), "%lld",
			                   (long long)n);
			ok = n >= 0 && keep_text(r, m, num, (size_t)len);
		}
		break;
	case json_type_double:
		/* "version": 1.0 as a number, a width of 640.0. */
		if (m->kind == K_NUMBER || m->kind == K_VERSION) {
			double d = json_object_get_double(v);
			char num[32];
			int len = d >= 0 && d <= 9007199254740992.0 &&
			                          d == (double)(int64_t)d
			                  ? snprintf(num, sizeof(num), "%lld",
			                             (long long)d)
			                  : 0;
			ok = len > 0 && keep_text(r, m, num, (size_t)len);
		}
		break;
	default:
		break;
	}
	if (!ok)
		r->o->pub.skipped++;
}

static heed_status parse_json(struct reader *r, const char *s, size_t len,
                              struct heed_diag *diag)
{
	struct json_tokener *tok = json_tokener_new_ex(OEMBED_JSON_DEPTH);
	struct json_object *root;
	unsigned n = 0;

	if (!tok)
		return HEED_ENOMEM;
	root = json_tokener_parse_ex(tok, s, (int)len);
	if (!root || json_tokener_get_error(tok) != json_tokener_success) {
		const char *why =
		        json_tokener_error_desc(json_tokener_get_error(tok));
		json_object_put(root);
		json_tokener_free(tok);
		return heed_diag_set(diag, HEED_EPARSE, 0, 0,
		                     "oEmbed: not JSON (%s)", why);
	}
	json_tokener_free(tok);
	if (!json_object_is_type(root, json_type_object)) {
		json_object_put(root);
		return heed_diag_set(
		        diag, HEED_EPARSE, 0, 0,
		        "oEmbed: the JSON answer is not an object");
	}
	json_object_object_foreach(root, key, val)
	{
		if (++n > OEMBED_MAX_MEMBERS || r->oom != HEED_OK)
			break;
		json_member(r, key, val);
	}
	json_object_put(root);
	return r->oom;
}

/* The text of an XML member: its text and CDATA children only. Entity
 * references are never expanded (XML_PARSE_NOENT is not set, and entity
 * nodes are skipped here), so an entity bomb costs nothing. HEED_ETOOBIG
 * past the buffer's cap. */
static heed_status xml_text(struct heed_buf *b, const xmlNode *e)
{
	heed_status rc = HEED_OK;

	for (const xmlNode *c = e->children; c && rc == HEED_OK; c = c->next)
		if ((c->type == XML_TEXT_NODE ||
		     c->type == XML_CDATA_SECTION_NODE) &&
		    c->content)
			rc = heed__buf_add(b, c->content,
			                   strlen((const char *)c->content));
	return rc;
}

static heed_status parse_xml(struct reader *r, const char *s, size_t len,
                             struct heed_diag *diag)
{
	xmlDoc *doc;
	const xmlNode *root;
	unsigned n = 0;
	heed_status rc;

	xmlInitParser();
	doc = xmlReadMemory(s, (int)len, NULL, NULL,
	                    XML_PARSE_NONET | XML_PARSE_NOERROR |
	                            XML_PARSE_NOWARNING | XML_PARSE_NOCDATA);
	root = doc ? xmlDocGetRootElement(doc) : NULL;
	if (!root || strcmp((const char *)root->name, "oembed") != 0) {
		xmlFreeDoc(doc);
		return heed_diag_set(
		        diag, HEED_EPARSE, 0, 0,
		        doc ? "oEmbed: the XML root is not <oembed>"
		            : "oEmbed: not well-formed XML");
	}
	for (const xmlNode *e = root->children; e && r->oom == HEED_OK;
	     e = e->next) {
		const struct member *m;
		struct heed_buf text;
		if (e->type != XML_ELEMENT_NODE)
			continue;
		if (++n > OEMBED_MAX_MEMBERS)
			break;
		m = member_named((const char *)e->name);
		if (!m)
			continue;
		heed__buf_init(&text, r->o->alloc, HEED_URL_MAX_BYTES + 1);
		rc = xml_text(&text, e);
		if (rc == HEED_ENOMEM)
			r->oom = rc;
		else if (rc != HEED_OK ||
		         !keep_text(r, m, heed__buf_str(&text),
		                    strlen(heed__buf_str(&text))))
			r->o->pub.skipped++;
		heed__buf_free(&text);
	}
	xmlFreeDoc(doc);
	return r->oom;
}

static void init_answer(struct heed_oembed *p)
{
	p->thumbnail_width = p->thumbnail_height = -1;
	p->width = p->height = -1;
	p->cache_age = -1;
}

void heed_oembed_free(struct heed_oembed *o)
{
	struct oembed_full *f = (struct oembed_full *)o;

	if (!o)
		return;
	heed__arena_free(&f->arena);
	heed__free(f->alloc, f);
}

heed_status heed_extract_oembed(struct heed_oembed **out,
                                const struct heed_extract_input *in,
                                const struct heed_allocator *alloc,
                                struct heed_diag *diag)
{
	const struct heed_allocator *a =
	        alloc ? alloc : heed_allocator_default();
	const char *s = in->body ? in->body : "";
	size_t len = in->body_len;
	struct reader r = {0};
	heed_status rc;

	*out = NULL;
	rc = in->url ? heed_url_parse(&r.base, in->url, strlen(in->url), a)
	             : HEED_EINVAL;
	if (rc == HEED_ENOMEM)
		return rc;
	if (rc != HEED_OK)
		return heed_diag_set(diag, HEED_EINVAL, 0, 0,
		                     "oEmbed URL %s unusable",
		                     in->url ? in->url : "(none)");
	if (len > HEED_OEMBED_MAX_BYTES) {
		heed_url_free(r.base);
		return heed_diag_set(diag, HEED_ETOOBIG, 0, 0,
		                     "oEmbed answer over %u bytes",
		                     HEED_OEMBED_MAX_BYTES);
	}
	r.o = heed__calloc(a, 1, sizeof(*r.o));
	if (!r.o) {
		heed_url_free(r.base);
		return HEED_ENOMEM;
	}
	r.o->alloc = a;
	heed__arena_init(&r.o->arena, a);
	init_answer(&r.o->pub);
	/* The body says which format it is, whatever the link or the
	 * Content-Type claimed: a BOM, then '{' (or '[', to say that an
	 * array is not an answer) or '<'. */
	if (len >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0) {
		s += 3;
		len -= 3;
	}
	heed__trim(&s, &len);
	if (len && (s[0] == '{' || s[0] == '[')) {
		r.o->pub.format = HEED_OEMBED_JSON;
		rc = parse_json(&r, s, len, diag);
	} else if (len && s[0] == '<') {
		r.o->pub.format = HEED_OEMBED_XML;
		rc = parse_xml(&r, s, len, diag);
	} else {
		rc = heed_diag_set(diag, HEED_EPARSE, 0, 0,
		                   "oEmbed: neither JSON nor XML");
	}
	heed_url_free(r.base);
	if (rc == HEED_OK && !r.o->pub.version)
		rc = heed_diag_set(diag, HEED_EPARSE, 0, 0,
		                   "oEmbed: no version 1.0");
	else if (rc == HEED_OK && !r.o->pub.type)
		rc = heed_diag_set(
		        diag, HEED_EPARSE, 0, 0,
		        "oEmbed: no type (photo, video, link, rich)");
	if (rc != HEED_OK) {
		heed_oembed_free(&r.o->pub);
		return rc;
	}
	*out = &r.o->pub;
	return HEED_OK;
}
