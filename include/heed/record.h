/*
 * heed/record.h: one stored page as a JSON object, in the names and formats
 * that `heed export --format jsonl` writes and the public index's JSON API
 * (`heed serve`, /api/v1) serves: one writer, so that the two never drift
 * apart. Dates are ISO 8601 in UTC ("2024-03-05T09:00:00Z"), strings are
 * valid UTF-8 (invalid bytes become U+FFFD, control characters other than
 * tab and newline are dropped), the permissions and record columns are
 * JSON objects (a column that does not parse is kept as a string).
 *
 * The members, in order: url, final_url, host, status, fetched_at,
 * checked_at, title, views, published, modified, etag, last_modified,
 * source_lastmod, mode, permissions, record. docs/serve.md and
 * docs/metadata.md describe them.
 */
#ifndef HEED_RECORD_H
#define HEED_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "heed/common.h"
#include "heed/store_pages.h"

struct json_object;

#ifdef __cplusplus
extern "C" {
#endif

/* Apply the page's permissions at now_s, as the public index shows it: a
 * description the site did not let us show is removed from "record", one
 * longer than the site's limit is cut to it, a withheld thumbnail is
 * removed. Without it the record is written as stored (the operator's
 * export). */
#define HEED_RECORD_JSON_PERMIT 0x1u

/*
 * Writes page as one JSON object (no newline) into a new buffer: on
 * HEED_OK *out is NUL-terminated, *len bytes long, and the caller frees it
 * with alloc (NULL: the default allocator). flags: 0 or
 * HEED_RECORD_JSON_PERMIT, which reads now_s. HEED_ENOMEM otherwise.
 */
heed_status heed_record_json(const struct heed_stored_page *page,
                             unsigned flags, int64_t now_s,
                             const struct heed_allocator *alloc, char **out,
                             size_t *len);

/*
 * A field of a record JSON tree (the "record" column parsed by json-c, as
 * docs/metadata.md describes it): the string "value" of record[key], or
 * record[key] itself when it is a string. NULL when record is NULL or no
 * object, when the field is absent, or when its value is no string. The
 * string belongs to record.
 */
const char *heed_record_field(struct json_object *record, const char *key);

#ifdef __cplusplus
}
#endif

#endif /* HEED_RECORD_H */
