/*
 * Fuzz target: heed's HTML tokenizer (src/extract/htmltok.c). Reads every
 * token, the first byte choosing whether the consumer says "foreign
 * content", and checks: each token lies inside the buffer after the last
 * one (so every call makes progress), names are lower-case and capped,
 * values are within their cap, text decodes, and the end is reached.
 */
#include <stdlib.h>
#include <string.h>

#include "extract/htmltok.h"

static void check_name(const char *s)
{
	size_t n = strlen(s);

	if (n > HTMLTOK_MAX_NAME)
		abort();
	for (size_t i = 0; i < n; i++)
		if (s[i] >= 'A' && s[i] <= 'Z')
			abort();
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct heed_htmltok t;
	struct heed_buf text;
	size_t last = 0;
	bool foreign = size && (data[0] & 1);

	heed__htmltok_init(&t, (const char *)data, size,
	                   heed_allocator_default());
	heed__buf_init(&text, heed_allocator_default(), 1 << 20);
	t.foreign = foreign;
	while (heed__htmltok_next(&t) == HEED_OK && t.kind != HTMLTOK_EOF) {
		if (t.start < last || t.end <= t.start || t.end > size)
			abort();
		last = t.end;
		if (t.kind == HTMLTOK_TEXT) {
			if (t.text < t.buf ||
			    t.text + t.text_len > t.buf + size)
				abort();
			heed__buf_reset(&text);
			if (heed__htmltok_decode(&text, t.text, t.text_len) ==
			            HEED_OK &&
			    text.len > HTMLTOK_DECODED_MAX(t.text_len))
				abort(); /* the room add_attr() reserves */
			continue;
		}
		check_name(t.name);
		for (size_t i = 0; t.atts[i]; i += 2) {
			check_name(t.atts[i]);
			if (strlen(t.atts[i + 1]) > HTMLTOK_MAX_VALUE)
				abort();
		}
		if (t.kind == HTMLTOK_START && t.mode != HTMLTOK_DATA &&
		    (foreign ||
		     t.mode != heed__htmltok_mode_for(t.name, t.name_len)))
			abort();
	}
	if (t.pos != size)
		abort();
	heed__buf_free(&text);
	heed__htmltok_free(&t);
	return 0;
}
