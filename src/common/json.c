/*
 * A JSON text written straight into a heed_buf (RFC 8259): the crawl
 * stores two JSON texts with every page, hundreds of times a second, and
 * building them as json-c object trees (an allocation per member, each
 * key copied, then the tree serialised and freed) cost 7 % of the crawl's
 * CPU. json-c still parses every JSON heed reads.
 *
 * The writer places commas and colons itself; the caller says what comes
 * in document order. Strings are expected in UTF-8 (extraction output
 * is); quotes, backslashes and control characters are escaped, the rest
 * is copied as is, as json-c does with JSON_C_TO_STRING_NOSLASHESCAPE.
 */
#include <inttypes.h>
#include <stdio.h>

#include "common/common-int.h"

void heed__json_init(struct heed_json *j, struct heed_buf *out)
{
	j->out = out;
	j->rc = HEED_OK;
	j->depth = 0;
	j->members = 0;
	j->after_key = false;
}

static void put(struct heed_json *j, const char *s, size_t len)
{
	if (j->rc == HEED_OK)
		j->rc = heed__buf_add(j->out, s, len);
}

/* The comma before a member or element that is not the first. */
static void separate(struct heed_json *j)
{
	uint64_t bit = j->depth ? UINT64_C(1) << (j->depth - 1) : 0;

	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (j->members & bit)
		put(j, ",", 1);
	j->members |= bit;
}

/* One bit of members per open container: a 65th level would share a bit
 * with the first and misplace commas, so it fails the text instead. */
void heed__json_open(struct heed_json *j, char bracket)
{
	if (j->rc != HEED_OK)
		return;
	if (j->depth >= HEED_JSON_MAX_DEPTH) {
		j->rc = HEED_ETOOBIG;
		return;
	}
	separate(j);
	put(j, &bracket, 1);
	j->depth++;
	j->members &= ~(UINT64_C(1) << (j->depth - 1));
}

/* A close with nothing open is the caller's mistake: the text fails. */
void heed__json_close(struct heed_json *j, char bracket)
{
	if (j->rc != HEED_OK)
		return;
	if (j->depth == 0) {
		j->rc = HEED_EINVAL;
		return;
	}
	put(j, &bracket, 1);
	j->depth--;
	j->after_key = false;
}

static void quoted(struct heed_json *j, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	const char *run = s;

	put(j, "\"", 1);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		char esc[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		put(j, run, (size_t)(s - run));
		run = s + 1;
		switch (c) {
		case '"':
			put(j, "\\\"", 2);
			break;
		case '\\':
			put(j, "\\\\", 2);
			break;
		case '\n':
			put(j, "\\n", 2);
			break;
		case '\r':
			put(j, "\\r", 2);
			break;
		case '\t':
			put(j, "\\t", 2);
			break;
		default:
			put(j, esc, sizeof(esc));
		}
	}
	put(j, run, (size_t)(s - run));
	put(j, "\"", 1);
}

void heed__json_key(struct heed_json *j, const char *key)
{
	separate(j);
	quoted(j, key);
	put(j, ":", 1);
	j->after_key = true;
}

void heed__json_string(struct heed_json *j, const char *s)
{
	separate(j);
	if (s)
		quoted(j, s);
	else
		put(j, "null", 4);
}

void heed__json_int(struct heed_json *j, int64_t v)
{
	char num[24];
	int n = snprintf(num, sizeof(num), "%" PRId64, v);

	separate(j);
	put(j, num, (size_t)n);
}

void heed__json_bool(struct heed_json *j, bool v)
{
	separate(j);
	put(j, v ? "true" : "false", v ? 4 : 5);
}

void heed__json_int_member(struct heed_json *j, const char *key, int64_t v,
                           int64_t absent)
{
	if (v == absent)
		return;
	heed__json_key(j, key);
	heed__json_int(j, v);
}
