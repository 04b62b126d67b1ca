/*
 * The record as JSON (heed_extract_record_json, heed/extract.h): the one
 * writer of the shape a crawl stores with each page (docs/storage.md,
 * "Pages area"), `heed export` writes in its "record" member, the public
 * index's API serves and `heed extract` prints. One writer, so that what
 * a site owner sees from `heed extract` is what heed keeps of the page.
 *
 * Written straight into a buffer (common/json.c), not as a json-c tree:
 * the crawl writes one per page, hundreds a second.
 */
#include <string.h>

#include "extract/extract-int.h"

/* Extraction already bounds every value (EXTRACT_MAX_TEXT, _TAGS,
 * _AUTHORS), so a record is bounded by those; this ceiling only keeps the
 * buffer's arithmetic safe. */
#define RECORD_JSON_MAX_BYTES (SIZE_MAX / 2)

/* {"value": ..., "source": ...}: how every field carries its source. */
static void add_sourced(struct heed_json *j, const struct heed_field *f)
{
	heed__json_open(j, '{');
	heed__json_key(j, "value");
	heed__json_string(j, f->value);
	heed__json_key(j, "source");
	heed__json_string(j, heed_source_name(f->source));
	heed__json_close(j, '}');
}

/* A field that was found; an absent one is left out. */
static void add_field(struct heed_json *j, const char *key,
                      const struct heed_field *f)
{
	if (!f->value)
		return;
	heed__json_key(j, key);
	add_sourced(j, f);
}

/* An array of {value, source}: tags, authors. */
static void add_list(struct heed_json *j, const char *key,
                     const struct heed_field *f, size_t n)
{
	heed__json_key(j, key);
	heed__json_open(j, '[');
	for (size_t i = 0; i < n; i++)
		add_sourced(j, &f[i]);
	heed__json_close(j, ']');
}

static void add_str(struct heed_json *j, const char *key, const char *s)
{
	if (!s)
		return;
	heed__json_key(j, key);
	heed__json_string(j, s);
}

/* The fields that take one value, in the order they are written. */
static void add_fields(struct heed_json *j, const struct heed_record *r)
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

	for (size_t i = 0; i < HEED_ARRAY_SIZE(fields); i++)
		add_field(j, fields[i].key, fields[i].f);
}

/* The response's own metadata and the counters of what was skipped. */
static void add_response(struct heed_json *j, const struct heed_record *r,
                         size_t link_count)
{
	add_str(j, "content_type", r->content_type);
	add_str(j, "last_modified", r->last_modified);
	add_str(j, "etag", r->etag);
	heed__json_int_member(j, "byte_size", (int64_t)r->byte_size, -1);
	heed__json_int_member(j, "links", (int64_t)link_count, -1);
	heed__json_int_member(j, "jsonld_blocks", (int64_t)r->jsonld_blocks, 0);
	heed__json_int_member(j, "jsonld_errors", (int64_t)r->jsonld_errors, 0);
	if (r->truncated) {
		heed__json_key(j, "truncated");
		heed__json_bool(j, true);
	}
}

heed_status heed_extract_record_json(const struct heed_record *r,
                                     size_t link_count,
                                     const struct heed_allocator *alloc,
                                     char **out, size_t *len)
{
	struct heed_buf b;
	struct heed_json j;

	*out = NULL;
	*len = 0;
	if (!r)
		return HEED_EINVAL;
	if (!alloc)
		alloc = heed_allocator_default();
	heed__buf_init(&b, alloc, RECORD_JSON_MAX_BYTES);
	heed__json_init(&j, &b);
	heed__json_open(&j, '{');
	add_fields(&j, r);
	/* A number, with its source beside it: what existing stores hold,
	 * and what the API's filters and sorts read as a number. */
	heed__json_int_member(&j, "views", r->views, -1);
	if (r->views >= 0) {
		heed__json_key(&j, "views_source");
		heed__json_string(&j, heed_source_name(r->views_source));
	}
	heed__json_int_member(&j, "duration_s", r->duration_s, -1);
	/* Several authors stay several; "author" still joins them. */
	if (r->author_count)
		add_list(&j, "authors", r->authors, r->author_count);
	add_list(&j, "tags", r->tags, r->tag_count);
	add_response(&j, r, link_count);
	heed__json_close(&j, '}');
	if (j.rc != HEED_OK) {
		heed__buf_free(&b);
		return j.rc;
	}
	*len = b.len;
	*out = heed__buf_take(&b);
	return *out ? HEED_OK : HEED_ENOMEM;
}
