/*
 * Fuzz target: HTML extraction (src/extract). Calls every accessor and
 * checks invariants: links are absolute http(s) URLs, tags are unique,
 * every present field names a source, counts are -1 or non-negative.
 * Then writes the record as it is stored (heed_extract_record_json) and
 * reads it back with json-c: whatever a page holds, the text is one JSON
 * object with every tag in it (escaping bugs show here).
 */
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "heed/extract.h"

static void check_field(const struct heed_field *f)
{
	if ((f->value != NULL) != (f->source != HEED_SOURCE_NONE))
		abort();
	if (f->value)
		(void)strlen(f->value);
}

static void check_record_json(const heed_page *p)
{
	const struct heed_record *r = heed_page_record(p);
	json_object *o, *tags;
	char *text;
	size_t len;

	if (heed_extract_record_json(r, heed_page_link_count(p), NULL, &text,
	                             &len) != HEED_OK)
		abort(); /* only on OOM */
	o = json_tokener_parse(text);
	if (!o || strlen(text) != len ||
	    !json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, "tags", &tags) ||
	    json_object_array_length(tags) != r->tag_count)
		abort();
	json_object_put(o);
	free(text);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	const struct heed_header hdr[] = {{"X-Robots-Tag", "heed: noindex"}};
	/* A dated permalink, so the URL's day meets the page's dates; in
	 * either form a CMS writes it (by the input's length, so each input
	 * always meets the same one). */
	struct heed_extract_input in = {(const char *)data,
	                                size,
	                                size % 2 ? "https://fuzz.example/n/"
	                                           "20200217/b?c"
	                                         : "https://fuzz.example/2020/"
	                                           "02/17/b?c",
	                                hdr,
	                                1,
	                                "text/html",
	                                "heed",
	                                0};
	const struct heed_record *r;
	heed_page *p = NULL;

	if (heed_extract_html(&p, &in, NULL, NULL) != HEED_OK)
		abort(); /* a valid page URL never fails but on OOM */
	r = heed_page_record(p);
	for (const struct heed_field *f = &r->title; f <= &r->charset; f++)
		check_field(f);
	for (size_t i = 0; i < r->tag_count; i++)
		for (size_t j = i + 1; j < r->tag_count; j++)
			if (strcmp(r->tags[i].value, r->tags[j].value) == 0)
				abort();
	for (size_t i = 0; i < heed_page_link_count(p); i++)
		if (strncmp(heed_page_link(p, i)->url, "http", 4) != 0)
			abort();
	if (r->views < -1 || r->duration_s < -1 ||
	    !heed_page_robots(p)->noindex)
		abort();
	check_record_json(p);
	heed_page_free(p);
	return 0;
}
