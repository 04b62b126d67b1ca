/*
 * Config internals: an option row is its public description plus where its
 * value lives in struct heed_config and the bounds of integers.
 */
#ifndef HEED_CONFIG_INT_H
#define HEED_CONFIG_INT_H

#include <stddef.h>

#include "common/common-int.h"
#include "heed/config.h"

/* Checks a text value beyond its type (every value but the "" that
 * unsets an optional string); returns HEED_OK, or HEED_ECONFIG with a
 * message naming the setting in diag (check.c). */
typedef heed_status heed__config_check_fn(const char *name, const char *value,
                                          struct heed_diag *diag);

struct heed_config_option {
	struct heed_config_option_info info;
	size_t offset;    /* of the field in struct heed_config */
	int64_t min, max; /* integers: bounds; strings: min 1 = must be set */
	heed__config_check_fn *check; /* strings and lists; NULL: any text */
};

/* An RFC 9110 token (tchar only): the product token. */
heed__config_check_fn heed__config_check_token;
/* Any text without control characters. */
heed__config_check_fn heed__config_check_text;
/* A plausible e-mail address: one @ between non-empty parts, no spaces,
 * controls, angle brackets or other characters that end a comment. */
heed__config_check_fn heed__config_check_email;
/* An absolute http(s) URL (heed_url_parse) without spaces or controls. */
heed__config_check_fn heed__config_check_url;
/* An IRC nick: no spaces, controls or leading ':'. */
heed__config_check_fn heed__config_check_nick;
/* A domain that is not a public suffix (libpsl). */
heed__config_check_fn heed__config_check_domain;
/* crawl.refresh: "due" or "all". */
heed__config_check_fn heed__config_check_refresh;
/* net.proxy: "env", or scheme://host[:port] with a scheme libcurl
 * proxies through (http, https, socks4, socks4a, socks5, socks5h). */
heed__config_check_fn heed__config_check_proxy;
/* A listen address, heed_config_parse_listen's form (listen.c). */
heed__config_check_fn heed__config_check_listen;

/* HEED_ECONFIG with "NAME: 'VALUE' WHY" in diag, the value shown as
 * heed__config_show does. */
heed_status heed__config_refuse(struct heed_diag *diag, const char *name,
                                const char *value, const char *why);

/* value as a message shows it, in buf (at least 352 bytes): control
 * characters as \xNN, and when longer than 80 bytes, the first 80 (never
 * cut inside a UTF-8 sequence), then an ellipsis and the length in bytes.
 * Returns buf. */
const char *heed__config_show(const char *value, char *buf, size_t size);

extern const struct heed_config_option heed__config_options[];
extern const size_t heed__config_option_count;

#endif /* HEED_CONFIG_INT_H */
