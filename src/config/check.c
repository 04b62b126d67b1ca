/*
 * What a value of an identity setting may hold, checked once where settings
 * are read (heed_config_set: the file, --set and the shorthand options all
 * come through it). These values go into the User-Agent of every request,
 * into IRC commands and into the crawler page: a CR LF in a contact would
 * start a header of the author's choosing, a space in the product token
 * would split it, and a public suffix as the verification domain would tell
 * site administrators to trust anyone.
 */
#include <libpsl.h>
#include <string.h>
#include <strings.h>

#include "config/config-int.h"
#include "heed/url.h"

/* Shown values: at most this many bytes of the value itself. */
#define SHOW_MAX 80

/* Length of the UTF-8 sequence starting with c, 1 for anything else. */
static size_t seq_len(unsigned char c)
{
	return c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
}

const char *heed__config_show(const char *value, char *buf, size_t size)
{
	static const char hex[] = "0123456789abcdef";
	size_t total = strlen(value), in = 0, out = 0;

	if (size < SHOW_MAX * 4 + 32) {
		if (size)
			buf[0] = '\0';
		return buf;
	}
	while (in < total) {
		unsigned char c = (unsigned char)value[in];
		size_t k = c < 0x20 || c == 0x7f ? 4 : seq_len(c);
		if (out + k > SHOW_MAX)
			break;
		if (c < 0x20 || c == 0x7f) {
			memcpy(buf + out, "\\x", 2);
			buf[out + 2] = hex[c >> 4];
			buf[out + 3] = hex[c & 15];
			out += 4;
			in++;
			continue;
		}
		if (in + k > total)
			k = total - in;
		memcpy(buf + out, value + in, k);
		out += k;
		in += k;
	}
	buf[out] = '\0';
	if (in < total)
		snprintf(buf + out, size - out, "\xE2\x80\xA6 (%zu bytes)",
		         total);
	return buf;
}

static bool is_control(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

/* The first control character in v, or NULL. */
static const char *find_control(const char *v)
{
	for (; *v; v++)
		if (is_control((unsigned char)*v))
			return v;
	return NULL;
}

heed_status heed__config_refuse(struct heed_diag *diag, const char *name,
                                const char *value, const char *why)
{
	char shown[SHOW_MAX * 4 + 32];

	return heed_diag_set(diag, HEED_ECONFIG, 0, 0, "%s: '%s' %s", name,
	                     heed__config_show(value, shown, sizeof(shown)),
	                     why);
}

/* RFC 9110 5.6.2: tchar. */
static bool is_tchar(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || (c && strchr("!#$%&'*+-.^_`|~", c));
}

heed_status heed__config_check_token(const char *name, const char *value,
                                     struct heed_diag *diag)
{
	for (const char *p = value; *p; p++)
		if (!is_tchar((unsigned char)*p))
			return heed__config_refuse(
			        diag, name, value,
			        "is not a product token: letters, digits "
			        "and !#$%&'*+-.^_`|~ only (RFC 9110 token)");
	return HEED_OK;
}

heed_status heed__config_check_text(const char *name, const char *value,
                                    struct heed_diag *diag)
{
	if (find_control(value))
		return heed__config_refuse(diag, name, value,
		                           "holds a control character");
	return HEED_OK;
}

heed_status heed__config_check_email(const char *name, const char *value,
                                     struct heed_diag *diag)
{
	const char *at = strchr(value, '@'), *bad;
	size_t n = strlen(value);

	if (find_control(value))
		return heed__config_refuse(
		        diag, name, value,
		        "is not an e-mail address: it holds a control "
		        "character");
	/* Spaces and these would also break the User-Agent's comment
	 * "(+URL; ADDRESS)" (RFC 9110 5.6.5). */
	bad = value + strcspn(value, " <>()[],;:\"\\");
	if (*bad)
		return heed__config_refuse(
		        diag, name, value,
		        "is not an e-mail address: it holds a space or "
		        "one of <>()[],;:\"\\");
	if (!at || at == value || strchr(at + 1, '@') || at[1] == '\0' ||
	    at[1] == '.' || value[n - 1] == '.')
		return heed__config_refuse(
		        diag, name, value,
		        "is not an e-mail address (one @ between a local "
		        "part and a domain, as in crawler@example.org)");
	return HEED_OK;
}

heed_status heed__config_check_url(const char *name, const char *value,
                                   struct heed_diag *diag)
{
	heed_url *u = NULL;
	heed_status rc;

	if (find_control(value) || strchr(value, ' '))
		return heed__config_refuse(
		        diag, name, value,
		        "is not a URL: it holds a space or a control "
		        "character");
	rc = heed_url_parse(&u, value, strlen(value), NULL);
	heed_url_free(u);
	if (rc == HEED_ENOMEM)
		return rc;
	if (rc != HEED_OK)
		return heed__config_refuse(
		        diag, name, value,
		        "is not an absolute http(s) URL (such as "
		        "https://crawler.example.org/bots)");
	return HEED_OK;
}

heed_status heed__config_check_proxy(const char *name, const char *value,
                                     struct heed_diag *diag)
{
	static const char *const schemes[] = {
	        "http://",    "https://",  "socks4://",
	        "socks4a://", "socks5://", "socks5h://",
	};
	size_t i;

	if (strcmp(value, "env") == 0)
		return HEED_OK;
	if (find_control(value) || strchr(value, ' '))
		return heed__config_refuse(diag, name, value,
		                           "is not a proxy URL: it holds a "
		                           "space or a control character");
	for (i = 0; i < sizeof(schemes) / sizeof(schemes[0]); i++) {
		size_t n = strlen(schemes[i]);
		if (strncasecmp(value, schemes[i], n) == 0 && value[n] &&
		    value[n] != '/' && value[n] != ':')
			return HEED_OK;
	}
	return heed__config_refuse(diag, name, value,
	                           "is not `env` nor a proxy URL (such as "
	                           "http://127.0.0.1:3128)");
}

heed_status heed__config_check_nick(const char *name, const char *value,
                                    struct heed_diag *diag)
{
	if (find_control(value) || strchr(value, ' ') || value[0] == ':')
		return heed__config_refuse(
		        diag, name, value,
		        "is not an IRC nick: no spaces, control "
		        "characters or leading ':'");
	return HEED_OK;
}

/* As heed verify reads the domain (src/verify/fcrdns.c): one leading and
 * one trailing dot ignored, compared in ASCII lower case. */
heed_status heed__config_check_domain(const char *name, const char *value,
                                      struct heed_diag *diag)
{
	char lower[256];
	const char *d = value[0] == '.' ? value + 1 : value;
	size_t n = strlen(d), i;
	const psl_ctx_t *list;
	psl_ctx_t *psl;
	bool suffix;

	if (n && d[n - 1] == '.')
		n--;
	if (n == 0 || n >= sizeof(lower) || find_control(value) ||
	    strchr(value, ' ') || strchr(value, '/') || strchr(value, '@'))
		return heed__config_refuse(
		        diag, name, value,
		        "is not a domain (such as crawler.example.org)");
	for (i = 0; i < n; i++)
		lower[i] = heed__ascii_lower(d[i]);
	lower[n] = '\0';
	/* The system's list when installed, the built-in one otherwise. */
	psl = psl_latest(NULL);
	list = psl ? psl : psl_builtin();
	suffix = list && psl_is_public_suffix(list, lower);
	psl_free(psl);
	if (suffix)
		return heed__config_refuse(
		        diag, name, value,
		        "is a public suffix: anyone can have a name "
		        "under it; give a domain of your own (such as "
		        "crawler.example.org)");
	return HEED_OK;
}

heed_status heed__config_check_refresh(const char *name, const char *value,
                                       struct heed_diag *diag)
{
	if (strcmp(value, "due") != 0 && strcmp(value, "all") != 0)
		return heed__config_refuse(
		        diag, name, value,
		        "is neither due (request the known URLs the revisit "
		        "schedule says are due) nor all (request every known "
		        "URL whole)");
	return HEED_OK;
}
