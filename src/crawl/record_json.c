/*
 * The JSON texts stored with each page (docs/storage.md, "Pages area"): the
 * extraction record (every field with its source, docs/metadata.md) and
 * the permissions that applied when it was fetched (issue 8: "present
 * permissions and time limits stored with the record").
 */
#include <json-c/json.h>
#include <string.h>

#include "crawl/engine-int.h"

static char *take_json(const struct heed_allocator *a, json_object *o)
{
	const char *s = json_object_to_json_string_ext(
	        o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
	char *copy = s ? heed__strndup(a, s, strlen(s)) : NULL;

	json_object_put(o);
	return copy;
}

static void add_field(json_object *o, const char *key,
                      const struct heed_field *f)
{
	json_object *v;

	if (!f->value)
		return;
	v = json_object_new_object();
	json_object_object_add(v, "value", json_object_new_string(f->value));
	json_object_object_add(
	        v, "source",
	        json_object_new_string(heed_source_name(f->source)));
	json_object_object_add(o, key, v);
}

static void add_int(json_object *o, const char *key, int64_t v, int64_t none)
{
	if (v != none)
		json_object_object_add(o, key, json_object_new_int64(v));
}

char *heed__crawl_record_json(const struct heed_allocator *a,
                              const struct heed_record *r, size_t link_count)
{
	json_object *o = json_object_new_object();
	json_object *tags = json_object_new_array();
	const struct {
		const char *key;
		const struct heed_field *f;
	} fields[] = {
	        {"title", &r->title},         {"description", &r->description},
	        {"author", &r->author},       {"canonical", &r->canonical},
	        {"language", &r->language},   {"published", &r->published},
	        {"modified", &r->modified},   {"thumbnail", &r->thumbnail},
	        {"og_type", &r->og_type},     {"schema_type", &r->schema_type},
	        {"site_name", &r->site_name}, {"duration", &r->duration},
	        {"charset", &r->charset},
	};

	for (size_t i = 0; i < HEED_ARRAY_SIZE(fields); i++)
		add_field(o, fields[i].key, fields[i].f);
	add_int(o, "views", r->views, -1);
	if (r->views >= 0)
		json_object_object_add(o, "views_source",
		                       json_object_new_string(heed_source_name(
		                               r->views_source)));
	add_int(o, "duration_s", r->duration_s, -1);
	for (size_t i = 0; i < r->tag_count; i++) {
		json_object *t = json_object_new_object();
		json_object_object_add(
		        t, "value", json_object_new_string(r->tags[i].value));
		json_object_object_add(t, "source",
		                       json_object_new_string(heed_source_name(
		                               r->tags[i].source)));
		json_object_array_add(tags, t);
	}
	json_object_object_add(o, "tags", tags);
	if (r->content_type)
		json_object_object_add(o, "content_type",
		                       json_object_new_string(r->content_type));
	json_object_object_add(o, "byte_size",
	                       json_object_new_int64((int64_t)r->byte_size));
	json_object_object_add(o, "links",
	                       json_object_new_int64((int64_t)link_count));
	if (r->jsonld_errors)
		json_object_object_add(
		        o, "jsonld_errors",
		        json_object_new_int((int)r->jsonld_errors));
	if (r->truncated)
		json_object_object_add(o, "truncated",
		                       json_object_new_boolean(1));
	return take_json(a, o);
}

static json_object *acap_usage_json(const struct crawl_host *h,
                                    const char *agent, heed_acap_usage usage,
                                    const char *path, int64_t now_s)
{
	struct heed_acap_decision *d = NULL;
	json_object *o;

	if (heed_acap_decide(h->acap, agent, NULL, 0, usage, path, now_s, NULL,
	                     &d) != HEED_OK)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "permitted",
	                       json_object_new_boolean(d->permitted));
	if (d->line)
		json_object_object_add(o, "line",
		                       json_object_new_int((int)d->line));
	if (d->time_limit.present) {
		if (d->time_limit.until_recrawled)
			json_object_object_add(o, "until_recrawled",
			                       json_object_new_boolean(1));
		if (d->time_limit.expires != INT64_MAX)
			json_object_object_add(
			        o, "expires",
			        json_object_new_int64(d->time_limit.expires));
	}
	if (d->max_length.unit != HEED_ACAP_LENGTH_NONE) {
		json_object_object_add(
		        o, "max_length",
		        json_object_new_int64((int64_t)d->max_length.count));
		json_object_object_add(
		        o, "max_length_unit",
		        json_object_new_string(
		                d->max_length.unit == HEED_ACAP_LENGTH_WORDS
		                        ? "words"
		                        : "chars"));
	}
	heed_acap_decision_free(d);
	return o;
}

static json_object *acap_json(const struct crawl_host *h, const char *agent,
                              const char *url, int64_t now_s)
{
	static const heed_acap_usage usages[] = {
	        HEED_ACAP_CRAWL,           HEED_ACAP_INDEX,
	        HEED_ACAP_FOLLOW,          HEED_ACAP_PRESENT,
	        HEED_ACAP_PRESENT_SNIPPET, HEED_ACAP_PRESENT_THUMBNAIL};
	const char *p = strstr(url, "://");
	const char *path = p && strchr(p + 3, '/') ? strchr(p + 3, '/') : "/";
	json_object *o = json_object_new_object();

	for (size_t i = 0; i < HEED_ARRAY_SIZE(usages); i++) {
		json_object *u =
		        acap_usage_json(h, agent, usages[i], path, now_s);
		if (u)
			json_object_object_add(
			        o, heed_acap_usage_name(usages[i]), u);
	}
	return o;
}

static json_object *meta_json(const struct heed_extract_robots *d)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "noarchive",
	                       json_object_new_boolean(d->noarchive));
	json_object_object_add(o, "nosnippet",
	                       json_object_new_boolean(d->nosnippet));
	json_object_object_add(o, "nofollow",
	                       json_object_new_boolean(d->nofollow));
	add_int(o, "max_snippet", d->max_snippet, -1);
	add_int(o, "unavailable_after", d->unavailable_after_s, HEED_NO_DATE);
	return o;
}

char *heed__crawl_permissions_json(const struct heed_allocator *a,
                                   const struct crawl_host *h, const char *url,
                                   const struct heed_extract_robots *d,
                                   const char *agent, int64_t now_s)
{
	json_object *o = json_object_new_object();
	json_object *robots = json_object_new_object();

	json_object_object_add(robots, "rules",
	                       json_object_new_boolean(h->robots != NULL));
	if (h->agent) {
		struct heed_robots_decision rd;
		if (heed_robots_decide(h->agent, url, strlen(url), &rd) ==
		            HEED_OK &&
		    rd.matched)
			json_object_object_add(
			        robots, "line",
			        json_object_new_int((int)rd.line));
	}
	json_object_object_add(o, "robots_txt", robots);
	json_object_object_add(
	        o, "acap", h->acap ? acap_json(h, agent, url, now_s) : NULL);
	json_object_object_add(o, "meta_robots", meta_json(d));
	return take_json(a, o);
}
