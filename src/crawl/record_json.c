/*
 * The JSON texts stored with each page (docs/storage.md, "Pages area"): the
 * extraction record (every field with its source, docs/metadata.md) and
 * the permissions that applied when it was fetched (issue 8: "present
 * permissions and time limits stored with the record").
 */
#include <json-c/json.h>
#include <string.h>

#include "crawl/crawl-int.h"

/* The finished text, or NULL if the buffer failed; frees the buffer. */
static char *take_text(struct heed_json *j, struct heed_buf *b)
{
	if (j->rc != HEED_OK) {
		heed__buf_free(b);
		return NULL;
	}
	return heed__buf_take(b);
}

static void add_field(struct heed_json *j, const char *key,
                      const struct heed_field *f)
{
	if (!f->value)
		return;
	heed__json_key(j, key);
	heed__json_open(j, '{');
	heed__json_key(j, "value");
	heed__json_string(j, f->value);
	heed__json_key(j, "source");
	heed__json_string(j, heed_source_name(f->source));
	heed__json_close(j, '}');
}

/* An array of {value, source}: tags, authors. */
static void add_list(struct heed_json *j, const char *key,
                     const struct heed_field *f, size_t n)
{
	heed__json_key(j, key);
	heed__json_open(j, '[');
	for (size_t i = 0; i < n; i++) {
		heed__json_open(j, '{');
		heed__json_key(j, "value");
		heed__json_string(j, f[i].value);
		heed__json_key(j, "source");
		heed__json_string(j, heed_source_name(f[i].source));
		heed__json_close(j, '}');
	}
	heed__json_close(j, ']');
}

static void add_int(struct heed_json *j, const char *key, int64_t v,
                    int64_t none)
{
	if (v == none)
		return;
	heed__json_key(j, key);
	heed__json_int(j, v);
}

char *heed__crawl_record_json(const struct heed_allocator *a,
                              const struct heed_record *r, size_t link_count)
{
	const struct {
		const char *key;
		const struct heed_field *f;
	} fields[] = {
	        {"title", &r->title},         {"description", &r->description},
	        {"author", &r->author},       {"canonical", &r->canonical},
	        {"language", &r->language},   {"published", &r->published},
	        {"modified", &r->modified},   {"thumbnail", &r->thumbnail},
	        {"og_type", &r->og_type},     {"schema_type", &r->schema_type},
	        {"site_name", &r->site_name}, {"publisher", &r->publisher},
	        {"duration", &r->duration},   {"charset", &r->charset},
	};
	struct heed_buf b;
	struct heed_json j;

	heed__buf_init(&b, a, SIZE_MAX / 2);
	heed__json_init(&j, &b);
	heed__json_open(&j, '{');
	for (size_t i = 0; i < HEED_ARRAY_SIZE(fields); i++)
		add_field(&j, fields[i].key, fields[i].f);
	add_int(&j, "views", r->views, -1);
	if (r->views >= 0) {
		heed__json_key(&j, "views_source");
		heed__json_string(&j, heed_source_name(r->views_source));
	}
	add_int(&j, "duration_s", r->duration_s, -1);
	/* Several authors stay several; "author" still joins them. */
	if (r->author_count)
		add_list(&j, "authors", r->authors, r->author_count);
	add_list(&j, "tags", r->tags, r->tag_count);
	if (r->content_type) {
		heed__json_key(&j, "content_type");
		heed__json_string(&j, r->content_type);
	}
	add_int(&j, "byte_size", (int64_t)r->byte_size, -1);
	add_int(&j, "links", (int64_t)link_count, -1);
	add_int(&j, "jsonld_errors", (int64_t)r->jsonld_errors, 0);
	if (r->truncated) {
		heed__json_key(&j, "truncated");
		heed__json_bool(&j, true);
	}
	heed__json_close(&j, '}');
	return take_text(&j, &b);
}

/* Adds {value, source: "oembed"} under key unless the record has key. */
static bool fill(struct json_object *rec, const char *key, const char *value,
                 bool *oom)
{
	struct json_object *f;

	if (!value || json_object_object_get_ex(rec, key, NULL))
		return false;
	f = json_object_new_object();
	if (!f ||
	    json_object_object_add(f, "value", json_object_new_string(value)) ||
	    json_object_object_add(f, "source",
	                           json_object_new_string(heed_source_name(
	                                   HEED_SOURCE_OEMBED))) ||
	    json_object_object_add(rec, key, f)) {
		*oom = true;
		return false;
	}
	return true;
}

static void add_json_int(struct json_object *o, const char *key, int64_t v,
                         bool *oom)
{
	if (v >= 0 && json_object_object_add(o, key, json_object_new_int64(v)))
		*oom = true;
}

static void add_json_string(struct json_object *o, const char *key,
                            const char *v, bool *oom)
{
	if (v && json_object_object_add(o, key, json_object_new_string(v)))
		*oom = true;
}

/* "oembed": what the answer says beyond the record's fields. The html
 * member is not here: the parser never keeps it. */
static struct json_object *oembed_json(const struct heed_oembed *o,
                                       const char *endpoint, bool *oom)
{
	struct json_object *j = json_object_new_object();

	if (!j) {
		*oom = true;
		return NULL;
	}
	add_json_string(j, "url", endpoint, oom);
	add_json_string(j, "type", o->type, oom);
	add_json_string(j, "author_url", o->author_url, oom);
	add_json_string(j, "provider_url", o->provider_url, oom);
	add_json_int(j, "width", o->width, oom);
	add_json_int(j, "height", o->height, oom);
	add_json_int(j, "thumbnail_width", o->thumbnail_width, oom);
	add_json_int(j, "thumbnail_height", o->thumbnail_height, oom);
	add_json_int(j, "cache_age", o->cache_age, oom);
	return j;
}

char *heed__crawl_record_oembed(const struct heed_allocator *a,
                                const char *record, const struct heed_oembed *o,
                                const char *endpoint, unsigned *filled)
{
	struct json_object *rec = json_tokener_parse(record ? record : "{}");
	struct json_object *extra;
	bool oom = false;
	char *out = NULL;

	*filled = 0;
	if (!rec || !json_object_is_type(rec, json_type_object)) {
		json_object_put(rec);
		return NULL;
	}
	/* The page's own markup wins for every field it gives. */
	*filled += fill(rec, "title", o->title, &oom);
	if (fill(rec, "author", o->author_name, &oom)) {
		/* "authors" lists the names apart: here the one name. */
		struct json_object *one = json_object_new_object();
		struct json_object *list = json_object_new_array();
		(*filled)++;
		if (one && list &&
		    !json_object_object_add(
		            one, "value",
		            json_object_new_string(o->author_name)) &&
		    !json_object_object_add(
		            one, "source",
		            json_object_new_string(
		                    heed_source_name(HEED_SOURCE_OEMBED))) &&
		    !json_object_array_add(list, one)) {
			one = NULL; /* list holds it */
			if (json_object_object_add(rec, "authors", list))
				oom = true;
			list = NULL; /* rec holds it, or put it on failure */
		} else {
			oom = true;
		}
		json_object_put(one);
		json_object_put(list);
	}
	*filled += fill(rec, "publisher", o->provider_name, &oom);
	*filled += fill(rec, "thumbnail", o->thumbnail_url, &oom);
	extra = oembed_json(o, endpoint, &oom);
	if (extra && json_object_object_add(rec, "oembed", extra))
		oom = true;
	if (!oom) {
		const char *s = json_object_to_json_string_ext(
		        rec, JSON_C_TO_STRING_PLAIN |
		                     JSON_C_TO_STRING_NOSLASHESCAPE);
		out = s ? heed__strndup(a, s, strlen(s)) : NULL;
	}
	json_object_put(rec);
	return out;
}

static void acap_usage_json(struct heed_json *j, const struct heed__rules *h,
                            const char *agent, heed_acap_usage usage,
                            const char *path, int64_t now_s)
{
	struct heed_acap_decision *d = NULL;

	if (heed_acap_decide(h->acap, agent, NULL, 0, usage, path, now_s, NULL,
	                     &d) != HEED_OK)
		return;
	heed__json_key(j, heed_acap_usage_name(usage));
	heed__json_open(j, '{');
	heed__json_key(j, "permitted");
	heed__json_bool(j, d->permitted);
	add_int(j, "line", (int64_t)d->line, 0);
	if (d->time_limit.present) {
		if (d->time_limit.until_recrawled) {
			heed__json_key(j, "until_recrawled");
			heed__json_bool(j, true);
		}
		add_int(j, "expires", d->time_limit.expires, INT64_MAX);
	}
	if (d->max_length.unit != HEED_ACAP_LENGTH_NONE) {
		add_int(j, "max_length", (int64_t)d->max_length.count, -1);
		heed__json_key(j, "max_length_unit");
		heed__json_string(j,
		                  d->max_length.unit == HEED_ACAP_LENGTH_WORDS
		                          ? "words"
		                          : "chars");
	}
	heed__json_close(j, '}');
	heed_acap_decision_free(d);
}

static void acap_json(struct heed_json *j, const struct heed__rules *h,
                      const char *agent, const char *url, int64_t now_s)
{
	static const heed_acap_usage usages[] = {
	        HEED_ACAP_CRAWL,           HEED_ACAP_INDEX,
	        HEED_ACAP_FOLLOW,          HEED_ACAP_PRESENT,
	        HEED_ACAP_PRESENT_SNIPPET, HEED_ACAP_PRESENT_THUMBNAIL};
	const char *p = strstr(url, "://");
	const char *path = p && strchr(p + 3, '/') ? strchr(p + 3, '/') : "/";

	heed__json_open(j, '{');
	for (size_t i = 0; i < HEED_ARRAY_SIZE(usages); i++)
		acap_usage_json(j, h, agent, usages[i], path, now_s);
	heed__json_close(j, '}');
}

static void meta_json(struct heed_json *j, const struct heed_extract_robots *d)
{
	heed__json_open(j, '{');
	heed__json_key(j, "noarchive");
	heed__json_bool(j, d->noarchive);
	heed__json_key(j, "nosnippet");
	heed__json_bool(j, d->nosnippet);
	heed__json_key(j, "nofollow");
	heed__json_bool(j, d->nofollow);
	add_int(j, "max_snippet", d->max_snippet, -1);
	add_int(j, "unavailable_after", d->unavailable_after_s, HEED_NO_DATE);
	heed__json_close(j, '}');
}

char *heed__crawl_permissions_json(const struct heed_allocator *a,
                                   const struct heed__rules *h, const char *url,
                                   const struct heed_extract_robots *d,
                                   const char *agent, int64_t now_s)
{
	struct heed_buf b;
	struct heed_json j;

	heed__buf_init(&b, a, SIZE_MAX / 2);
	heed__json_init(&j, &b);
	heed__json_open(&j, '{');
	heed__json_key(&j, "robots_txt");
	heed__json_open(&j, '{');
	heed__json_key(&j, "rules");
	heed__json_bool(&j, h->robots != NULL);
	if (h->agent) {
		struct heed_robots_decision rd;
		if (heed_robots_decide(h->agent, url, strlen(url), &rd) ==
		            HEED_OK &&
		    rd.matched)
			add_int(&j, "line", (int64_t)rd.line, -1);
	}
	heed__json_close(&j, '}');
	heed__json_key(&j, "acap");
	if (h->acap)
		acap_json(&j, h, agent, url, now_s);
	else
		heed__json_string(&j, NULL);
	heed__json_key(&j, "meta_robots");
	meta_json(&j, d);
	heed__json_close(&j, '}');
	return take_text(&j, &b);
}
