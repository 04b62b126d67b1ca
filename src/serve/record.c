/*
 * One stored page as JSON (heed/record.h): the export's records and the
 * API's items come from here, so their names, dates and escaping agree.
 *
 * Every string from a crawled page is cleaned to valid UTF-8 before it
 * reaches json-c, which copies bytes as they are: a title with a stray
 * 0xFF byte would otherwise make the whole line invalid JSON for a strict
 * reader. The permissions are applied to the record itself, not only to
 * the summary fields, so that no part of a response shows what the site
 * withheld.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "serve/api-int.h"

json_object *heed__record_text(const char *s, size_t len)
{
	struct heed_buf b;
	json_object *o = NULL;

	if (!s)
		return NULL;
	/* U+FFFD is 3 bytes per bad byte: 3 * len is the most it can take. */
	heed__buf_init(&b, heed_allocator_default(), 3 * len + 16);
	if (heed__utf8_clean(&b, s, len) == HEED_OK)
		o = json_object_new_string_len(heed__buf_str(&b), (int)b.len);
	heed__buf_free(&b);
	return o;
}

json_object *heed__record_str(const char *s)
{
	return s ? heed__record_text(s, strlen(s)) : NULL;
}

json_object *heed__record_date(int64_t unix_s)
{
	char buf[32];
	time_t t = (time_t)unix_s;
	struct tm tm;

	if (unix_s == HEED_STORE_NO_DATE)
		return NULL;
	/* As heed_cli_format_date writes it, "@N" past what gmtime takes. */
	if (!gmtime_r(&t, &tm) ||
	    strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(buf, sizeof(buf), "@%lld", (long long)unix_s);
	return json_object_new_string(buf);
}

json_object *heed__record_column(const char *text)
{
	struct heed_buf b;
	json_object *o = NULL;
	size_t len;

	if (!text)
		return NULL;
	len = strlen(text);
	heed__buf_init(&b, heed_allocator_default(), 3 * len + 16);
	if (heed__utf8_clean(&b, text, len) == HEED_OK) {
		o = json_tokener_parse(heed__buf_str(&b));
		if (!o)
			o = json_object_new_string_len(heed__buf_str(&b),
			                               (int)b.len);
	}
	heed__buf_free(&b);
	return o;
}

const char *heed_record_field(json_object *record, const char *key)
{
	json_object *v;

	if (!record || !json_object_is_type(record, json_type_object) ||
	    !json_object_object_get_ex(record, key, &v))
		return NULL;
	if (json_object_is_type(v, json_type_object) &&
	    !json_object_object_get_ex(v, "value", &v))
		return NULL;
	return json_object_is_type(v, json_type_string)
	               ? json_object_get_string(v)
	               : NULL;
}

/* The description cut to pm's limits: the number of bytes to keep. */
static size_t cut_length(const char *s, size_t len,
                         const struct heed__serve_permit *pm)
{
	size_t keep = len, n;

	if (pm->snippet_chars) {
		n = heed__serve_cut_chars(s, len, pm->snippet_chars);
		keep = n < keep ? n : keep;
	}
	if (pm->snippet_words) {
		n = heed__serve_cut_words(s, len, pm->snippet_words);
		keep = n < keep ? n : keep;
	}
	return keep;
}

static unsigned apply_description(json_object *record,
                                  const struct heed__serve_permit *pm)
{
	json_object *field, *holder = record;
	const char *key = "description", *s;
	size_t len, keep;

	if (!json_object_object_get_ex(record, key, &field))
		return 0;
	if (!pm->snippet) {
		json_object_object_del(record, key);
		return HEED__WITHHELD_DESCRIPTION;
	}
	if (json_object_is_type(field, json_type_object)) {
		holder = field;
		key = "value";
		if (!json_object_object_get_ex(field, key, &field))
			return 0;
	}
	if (!json_object_is_type(field, json_type_string)) {
		if (!pm->snippet_chars && !pm->snippet_words)
			return 0;
		/* A limit cannot be measured on an array or an object:
		 * none of it is shown. */
		json_object_object_del(record, "description");
		return HEED__WITHHELD_DESCRIPTION;
	}
	s = json_object_get_string(field);
	len = (size_t)json_object_get_string_len(field);
	keep = cut_length(s, len, pm);
	if (keep >= len)
		return 0;
	json_object_object_add(holder, key,
	                       json_object_new_string_len(s, (int)keep));
	return HEED__WITHHELD_CUT;
}

unsigned heed__record_apply(json_object *record,
                            const struct heed__serve_permit *pm)
{
	unsigned withheld;

	if (!record || !json_object_is_type(record, json_type_object))
		return 0;
	withheld = apply_description(record, pm);
	if (!pm->thumbnail &&
	    json_object_object_get_ex(record, "thumbnail", NULL)) {
		json_object_object_del(record, "thumbnail");
		withheld |= HEED__WITHHELD_THUMBNAIL;
	}
	return withheld;
}

void heed__record_columns(json_object *o, const struct heed_stored_page *p)
{
	json_object_object_add(o, "url", heed__record_str(p->url));
	json_object_object_add(o, "final_url", heed__record_str(p->final_url));
	json_object_object_add(o, "host", heed__record_str(p->host));
	json_object_object_add(o, "status", json_object_new_int(p->status));
	json_object_object_add(o, "fetched_at",
	                       heed__record_date(p->fetched_at));
	json_object_object_add(o, "checked_at",
	                       heed__record_date(p->checked_at));
	json_object_object_add(o, "title", heed__record_str(p->title));
	json_object_object_add(o, "views",
	                       p->views >= 0 ? json_object_new_int64(p->views)
	                                     : NULL);
	json_object_object_add(o, "published", heed__record_str(p->published));
	json_object_object_add(o, "modified", heed__record_str(p->modified));
	json_object_object_add(o, "etag", heed__record_str(p->etag));
	json_object_object_add(o, "last_modified",
	                       heed__record_str(p->last_modified));
	json_object_object_add(o, "source_lastmod",
	                       heed__record_date(p->source_lastmod));
	json_object_object_add(o, "mode", heed__record_str(p->mode));
}

json_object *heed__record_object(const struct heed_stored_page *p,
                                 unsigned flags, int64_t now_s)
{
	json_object *o = json_object_new_object(), *record;
	struct heed__serve_permit pm;

	if (!o)
		return NULL;
	heed__record_columns(o, p);
	json_object_object_add(o, "permissions",
	                       heed__record_column(p->permissions));
	record = heed__record_column(p->record);
	if (flags & HEED_RECORD_JSON_PERMIT) {
		heed__serve_permit(p->permissions, now_s, &pm);
		if (record && !json_object_is_type(record, json_type_object) &&
		    (!pm.snippet || !pm.thumbnail)) {
			/* Text that is no record: nothing in it can be
			 * told apart, so none of it is shown. */
			json_object_put(record);
			record = NULL;
		}
		heed__record_apply(record, &pm);
	}
	json_object_object_add(o, "record", record);
	return o;
}

heed_status heed_record_json(const struct heed_stored_page *page,
                             unsigned flags, int64_t now_s,
                             const struct heed_allocator *alloc, char **out,
                             size_t *len)
{
	json_object *o = heed__record_object(page, flags, now_s);
	const char *text;
	size_t n;

	*out = NULL;
	*len = 0;
	if (!alloc)
		alloc = heed_allocator_default();
	text = o ? json_object_to_json_string_length(o, HEED__JSON_FLAGS, &n)
	         : NULL;
	if (text)
		*out = heed__strndup(alloc, text, n);
	json_object_put(o);
	if (!*out)
		return HEED_ENOMEM;
	*len = n;
	return HEED_OK;
}
