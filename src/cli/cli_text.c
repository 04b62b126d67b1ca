/*
 * Network text for humans and JSON parsers (see cli_text.h).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_text.h"

/* Length of the valid UTF-8 sequence at s[0] (of n octets), 0 if none. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t want = s[0] < 0x80   ? 1
	              : s[0] < 0xC2 ? 0
	              : s[0] < 0xE0 ? 2
	              : s[0] < 0xF0 ? 3
	              : s[0] < 0xF5 ? 4
	                            : 0;
	size_t i;

	if (want == 0 || want > n)
		return 0;
	for (i = 1; i < want; i++)
		if ((s[i] & 0xC0) != 0x80)
			return 0;
	return want;
}

json_object *heed_cli_json_text(const char *s, size_t len)
{
	char *clean = malloc(3 * len + 1);
	size_t i = 0, n = 0;
	json_object *o;

	if (!clean)
		return NULL;
	while (i < len) {
		size_t k = utf8_len((const unsigned char *)s + i, len - i);
		if (k == 0) {
			memcpy(clean + n, "\xEF\xBF\xBD", 3);
			n += 3;
			i++;
			continue;
		}
		memcpy(clean + n, s + i, k);
		n += k;
		i += k;
	}
	o = json_object_new_string_len(clean, (int)n);
	free(clean);
	return o;
}

void heed_cli_print_text(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f)
			printf("\\x%02x", c);
		else
			putchar(c);
	}
}

#define SHORT_MAX 80

const char *heed_cli_short(const char *s, char *buf, size_t size)
{
	static const char hex[] = "0123456789abcdef";
	size_t total = strlen(s), in = 0, out = 0;

	if (size < HEED_CLI_SHORT_SIZE) {
		if (size)
			buf[0] = '\0';
		return buf;
	}
	while (in < total) {
		unsigned char c = (unsigned char)s[in];
		bool control = c < 0x20 || c == 0x7f;
		size_t k = control ? 4
		                   : utf8_len((const unsigned char *)s + in,
		                              total - in);
		if (k == 0)
			k = 1; /* an invalid octet goes alone */
		if (out + k > SHORT_MAX)
			break;
		if (control) {
			buf[out++] = '\\';
			buf[out++] = 'x';
			buf[out++] = hex[c >> 4];
			buf[out++] = hex[c & 15];
		} else {
			memcpy(buf + out, s + in, k);
			out += k;
		}
		in += control ? 1 : k;
	}
	buf[out] = '\0';
	if (in < total)
		snprintf(buf + out, size - out, "\xE2\x80\xA6 (%zu bytes)",
		         total);
	return buf;
}
