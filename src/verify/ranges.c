/*
 * Published address ranges: the JSON file large crawlers publish so that
 * site administrators can check an address without DNS (Google's
 * googlebot.json, Apple's applebot.json, OpenAI's gptbot.json; see
 * notes/metadata-verify-scale.md section 4):
 *
 *   {"creationTime": "2024-05-01T00:00:00.000000",
 *    "prefixes": [{"ipv4Prefix": "66.249.64.0/27"},
 *                 {"ipv6Prefix": "2001:4860:4801:10::/64"}]}
 *
 * The parser is strict about prefixes, because a ranges file is a proof: a
 * prefix it cannot read, of the wrong family, or with host bits set (a typo
 * that would widen or narrow the range) is an error naming its index, never
 * a silent skip. Keys it does not know are ignored, so a vendor adding
 * "service" or "region" fields does not break it. The matcher is a linear
 * scan: files list a few hundred prefixes and a check is a few hundred
 * 16-byte comparisons.
 */
#include <arpa/inet.h>
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "common/common-int.h"
#include "heed/verify.h"

/* Nesting deeper than this is not a ranges file (it uses 3 levels). */
#define RANGES_MAX_DEPTH 16
/* "ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255/128" and a little more. */
#define RANGES_MAX_PREFIX_TEXT 64

struct heed_ranges {
	const struct heed_allocator *alloc;
	struct heed_ranges_prefix *prefixes;
	size_t count;
	char *creation_time; /* NULL when the file has none */
};

/* Parses "ADDR/LEN" of the given family. Returns a static reason or NULL
 * when the prefix is good. */
static const char *parse_prefix(const char *text, size_t len, int family,
                                struct heed_ranges_prefix *out)
{
	char addr[RANGES_MAX_PREFIX_TEXT];
	const char *slash = memchr(text, '/', len);
	unsigned max_bits = family == AF_INET ? 32 : 128;
	unsigned bits = 0, i;
	size_t alen, digits;

	if (len >= sizeof(addr) || !slash)
		return "is not ADDRESS/LENGTH";
	alen = (size_t)(slash - text);
	digits = len - alen - 1;
	if (digits == 0 || digits > 3)
		return "has no valid prefix length";
	for (i = 0; i < digits; i++) {
		char c = slash[1 + i];
		if (c < '0' || c > '9')
			return "has no valid prefix length";
		bits = bits * 10 + (unsigned)(c - '0');
	}
	if (bits > max_bits)
		return "has a prefix length past the address size";
	memcpy(addr, text, alen);
	addr[alen] = '\0';
	memset(out, 0, sizeof(*out));
	if (inet_pton(family, addr, out->network.bytes) != 1)
		return family == AF_INET ? "is not an IPv4 prefix"
		                         : "is not an IPv6 prefix";
	out->network.family = family;
	out->length = bits;
	/* Host bits set mean the file says something else than it seems
	 * to: refuse rather than guess. */
	for (i = bits; i < max_bits; i++)
		if (out->network.bytes[i / 8] & (0x80u >> (i % 8)))
			return "has bits set past its prefix length";
	return NULL;
}

/* Reads prefixes[i] into r->prefixes[i]. */
static heed_status read_entry(heed_ranges *r, json_object *entry, size_t i,
                              struct heed_diag *diag)
{
	json_object *v4 = NULL, *v6 = NULL, *value;
	const char *text, *why;
	int family;
	unsigned line = i + 1 > 0xffffffffu ? 0 : (unsigned)(i + 1);

	if (!json_object_is_type(entry, json_type_object))
		return heed_diag_set(diag, HEED_EPARSE, line, 0,
		                     "prefixes[%zu] is not an object", i);
	json_object_object_get_ex(entry, "ipv4Prefix", &v4);
	json_object_object_get_ex(entry, "ipv6Prefix", &v6);
	if (!v4 == !v6)
		return heed_diag_set(diag, HEED_EPARSE, line, 0,
		                     "prefixes[%zu] needs exactly one of "
		                     "ipv4Prefix and ipv6Prefix",
		                     i);
	value = v4 ? v4 : v6;
	family = v4 ? AF_INET : AF_INET6;
	if (!json_object_is_type(value, json_type_string))
		return heed_diag_set(diag, HEED_EPARSE, line, 0,
		                     "prefixes[%zu]: %s is not a string", i,
		                     v4 ? "ipv4Prefix" : "ipv6Prefix");
	text = json_object_get_string(value);
	why = parse_prefix(text, (size_t)json_object_get_string_len(value),
	                   family, &r->prefixes[i]);
	if (why)
		return heed_diag_set(diag, HEED_EPARSE, line, 0,
		                     "prefixes[%zu]: '%.64s' %s", i, text, why);
	return HEED_OK;
}

static heed_status read_document(heed_ranges *r, json_object *doc,
                                 struct heed_diag *diag)
{
	json_object *prefixes, *created;
	size_t i, n;
	heed_status rc;

	if (!json_object_is_type(doc, json_type_object))
		return heed_diag_set(diag, HEED_EPARSE, 0, 0,
		                     "a ranges file is a JSON object");
	if (json_object_object_get_ex(doc, "creationTime", &created)) {
		if (!json_object_is_type(created, json_type_string))
			return heed_diag_set(diag, HEED_EPARSE, 0, 0,
			                     "creationTime is not a string");
		r->creation_time = heed__strndup(
		        r->alloc, json_object_get_string(created),
		        (size_t)json_object_get_string_len(created));
		if (!r->creation_time)
			return HEED_ENOMEM;
	}
	if (!json_object_object_get_ex(doc, "prefixes", &prefixes) ||
	    !json_object_is_type(prefixes, json_type_array))
		return heed_diag_set(diag, HEED_EPARSE, 0, 0,
		                     "no \"prefixes\" array");
	n = json_object_array_length(prefixes);
	if (n > HEED_RANGES_MAX_PREFIXES)
		return heed_diag_set(diag, HEED_ETOOBIG, 0, 0,
		                     "%zu prefixes, more than %u", n,
		                     HEED_RANGES_MAX_PREFIXES);
	r->prefixes = heed__calloc(r->alloc, n ? n : 1, sizeof(*r->prefixes));
	if (!r->prefixes)
		return HEED_ENOMEM;
	for (i = 0; i < n; i++) {
		rc = read_entry(r, json_object_array_get_idx(prefixes, i), i,
		                diag);
		if (rc != HEED_OK)
			return rc;
		r->count++;
	}
	return HEED_OK;
}

/* Parses the JSON text itself; *doc is NULL on failure. */
static heed_status parse_json(const char *json, size_t len, json_object **doc,
                              struct heed_diag *diag)
{
	json_tokener *tok = json_tokener_new_ex(RANGES_MAX_DEPTH);
	enum json_tokener_error err;
	size_t end;

	*doc = NULL;
	if (!tok)
		return HEED_ENOMEM;
	*doc = json_tokener_parse_ex(tok, json, (int)len);
	err = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (!*doc || err != json_tokener_success) {
		json_object_put(*doc);
		*doc = NULL;
		return heed_diag_set(diag, HEED_EPARSE, 0, 0,
		                     "not JSON (%s at byte %zu)",
		                     err == json_tokener_continue
		                             ? "unexpected end"
		                             : json_tokener_error_desc(err),
		                     end);
	}
	for (; end < len; end++) {
		char c = json[end];
		if (c != ' ' && c != '\t' && c != '\r' && c != '\n') {
			json_object_put(*doc);
			*doc = NULL;
			return heed_diag_set(diag, HEED_EPARSE, 0, 0,
			                     "text after the JSON value at "
			                     "byte %zu",
			                     end);
		}
	}
	return HEED_OK;
}

heed_status heed_ranges_parse(heed_ranges **out, const char *json, size_t len,
                              const struct heed_allocator *alloc,
                              struct heed_diag *diag)
{
	json_object *doc;
	heed_ranges *r;
	heed_status rc;

	*out = NULL;
	alloc = alloc ? alloc : heed_allocator_default();
	if (len > HEED_RANGES_MAX_BYTES)
		return heed_diag_set(diag, HEED_ETOOBIG, 0, 0,
		                     "ranges file over %u bytes",
		                     HEED_RANGES_MAX_BYTES);
	/* json-c stops at a NUL byte without saying so. */
	if (memchr(json, '\0', len))
		return heed_diag_set(diag, HEED_EPARSE, 0, 0,
		                     "NUL byte in the ranges file");
	rc = parse_json(json, len, &doc, diag);
	if (rc != HEED_OK)
		return rc;
	r = heed__calloc(alloc, 1, sizeof(*r));
	if (!r) {
		json_object_put(doc);
		return HEED_ENOMEM;
	}
	r->alloc = alloc;
	rc = read_document(r, doc, diag);
	json_object_put(doc);
	if (rc != HEED_OK) {
		heed_ranges_free(r);
		return rc;
	}
	*out = r;
	return HEED_OK;
}

void heed_ranges_free(heed_ranges *r)
{
	if (!r)
		return;
	heed__free(r->alloc, r->prefixes);
	heed__free(r->alloc, r->creation_time);
	heed__free(r->alloc, r);
}

size_t heed_ranges_count(const heed_ranges *r)
{
	return r->count;
}

const struct heed_ranges_prefix *heed_ranges_get(const heed_ranges *r, size_t i)
{
	return i < r->count ? &r->prefixes[i] : NULL;
}

const char *heed_ranges_creation_time_get(const heed_ranges *r)
{
	return r->creation_time;
}

bool heed_ranges_prefix_contains(const struct heed_ranges_prefix *prefix,
                                 const struct heed_verify_addr *addr)
{
	unsigned whole = prefix->length / 8, rest = prefix->length % 8;
	uint8_t mask;

	if (prefix->network.family != addr->family)
		return false;
	if (memcmp(prefix->network.bytes, addr->bytes, whole) != 0)
		return false;
	if (rest == 0)
		return true;
	mask = (uint8_t)(0xffu << (8 - rest));
	return (addr->bytes[whole] & mask) == prefix->network.bytes[whole];
}

const char *heed_ranges_prefix_format(const struct heed_ranges_prefix *prefix,
                                      char *buf, size_t size)
{
	char addr[46];

	if (size == 0)
		return buf;
	heed_verify_addr_format(&prefix->network, addr, sizeof(addr));
	snprintf(buf, size, "%s/%u", addr, prefix->length);
	return buf;
}

const struct heed_ranges_prefix *
heed_ranges_match(const heed_ranges *r, const struct heed_verify_addr *addr)
{
	size_t i;

	for (i = 0; i < r->count; i++)
		if (heed_ranges_prefix_contains(&r->prefixes[i], addr))
			return &r->prefixes[i];
	return NULL;
}
