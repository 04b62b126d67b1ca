/*
 * The oEmbed answer of a page's endpoint merged into the page's stored
 * record (docs/metadata.md, "oEmbed"): the page's own markup wins for
 * every field it gives, the answer fills the ones it lacks with the source
 * "oembed", and the rest of the answer goes under "oembed". The record is
 * stored JSON here, not a struct heed_record, so it is edited as a json-c
 * tree; heed_extract_record_json() wrote it.
 */
#include <json-c/json.h>
#include <string.h>

#include "crawl/crawl-int.h"

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
