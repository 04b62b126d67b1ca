/*
 * What the JSON API's files share: the record writer's pieces (record.c),
 * used by heed_record_json (the export's shape) and by the API (api.c),
 * which builds its items from the same members, and the response set-up
 * of api.c that openapi.c uses too. json-c trees: the API and the export
 * print them with the same flags, so a page reads the same in both.
 */
#ifndef HEED_SERVE_API_INT_H
#define HEED_SERVE_API_INT_H

#include <json-c/json.h>

#include "heed/record.h"
#include "serve/serve-int.h"

/* How json-c prints every JSON heed writes: compact, '/' unescaped. */
#define HEED__JSON_FLAGS \
	(JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)

/* len bytes of s as a JSON string of valid UTF-8 (heed__utf8_clean); NULL
 * (JSON null) for a NULL s. */
json_object *heed__record_text(const char *s, size_t len);
/* NUL-terminated s, as above. */
json_object *heed__record_str(const char *s);
/* unix_s as "2024-03-05T09:00:00Z"; null for HEED_STORE_NO_DATE. */
json_object *heed__record_date(int64_t unix_s);
/* A JSON column (permissions, record) as a tree, or as a string when it
 * does not parse; NULL for NULL. */
json_object *heed__record_column(const char *text);

/* What heed__record_apply withheld. */
#define HEED__WITHHELD_DESCRIPTION 0x1u /* left out */
#define HEED__WITHHELD_CUT         0x2u /* cut to the site's limit */
#define HEED__WITHHELD_THUMBNAIL   0x4u /* left out */

/* Applies pm to a parsed record (an object; anything else is left as it
 * is): the description is removed or cut, the thumbnail removed. Returns
 * the HEED__WITHHELD_* bits of what it changed. */
unsigned heed__record_apply(json_object *record,
                            const struct heed__serve_permit *pm);

/* The members of heed_record_json from url to mode, added to o. */
void heed__record_columns(json_object *o, const struct heed_stored_page *p);

/* The whole object of heed_record_json (flags, now_s as there); NULL when
 * out of memory. */
json_object *heed__record_object(const struct heed_stored_page *p,
                                 unsigned flags, int64_t now_s);

/* api.c: readies resp for a JSON answer: its body (created with the
 * context's allocator when the caller made none) emptied, the JSON
 * content type, the API's route kind, not cacheable. */
void heed__api_ready(const struct heed__serve_request *req,
                     struct heed__serve_response *resp);

#endif /* HEED_SERVE_API_INT_H */
