/*
 * Which fetches go through the proxy: the no_proxy list, matched the way
 * libcurl and most tools match it, but by heed, so that heed knows for
 * each fetch whether it may pin the address (direct) or must leave the
 * connection to the proxy (docs/security.md).
 */
#include <arpa/inet.h>
#include <stdbool.h>
#include <string.h>
#include <strings.h>

#include "net/net-int.h"

/* The host of a URL: after "://", before the port, path, query or
 * fragment, without userinfo nor IPv6 brackets. */
static void url_host(const char *url, const char **host, size_t *len)
{
	const char *p = strstr(url, "://");
	const char *end, *at;

	p = p ? p + 3 : url;
	end = p + strcspn(p, "/?#");
	at = memchr(p, '@', (size_t)(end - p));
	if (at)
		p = at + 1;
	if (*p == '[') {
		const char *close = memchr(p, ']', (size_t)(end - p));
		*host = p + 1;
		*len = close ? (size_t)(close - p - 1) : (size_t)(end - p - 1);
		return;
	}
	*host = p;
	*len = strcspn(p, ":/?#");
	if (p + *len > end)
		*len = (size_t)(end - p);
}

/* An IPv4 or IPv6 address, not a name: matched whole, never by suffix
 * ("0.0.1" must not cover 127.0.0.1). */
static bool is_address(const char *host, size_t hlen)
{
	char text[64];
	unsigned char bytes[16];

	if (hlen == 0 || hlen >= sizeof(text))
		return false;
	memcpy(text, host, hlen);
	text[hlen] = '\0';
	return inet_pton(AF_INET, text, bytes) == 1 ||
	       inet_pton(AF_INET6, text, bytes) == 1;
}

/* One entry ("example.org", ".example.org", "*") against a host. */
static bool entry_matches(const char *e, size_t elen, const char *host,
                          size_t hlen)
{
	if (elen == 1 && e[0] == '*')
		return true;
	if (is_address(host, hlen))
		return elen == hlen && strncasecmp(e, host, hlen) == 0;
	if (elen && e[0] == '.') {
		e++;
		elen--;
	}
	if (elen && e[elen - 1] == '.')
		elen--;
	if (hlen && host[hlen - 1] == '.')
		hlen--;
	if (elen == 0 || elen > hlen)
		return false;
	if (strncasecmp(host + hlen - elen, e, elen) != 0)
		return false;
	/* The whole host, or a name under the entry at a label boundary. */
	return elen == hlen || host[hlen - elen - 1] == '.';
}

bool heed_net_no_proxy_match(const char *no_proxy, const char *url)
{
	const char *host, *p = no_proxy;
	size_t hlen;

	if (!no_proxy || !url)
		return false;
	url_host(url, &host, &hlen);
	while (*p) {
		size_t n;

		p += strspn(p, ", \t");
		n = strcspn(p, ", \t");
		if (n && entry_matches(p, n, host, hlen))
			return true;
		p += n;
	}
	return false;
}
