/*
 * Network names as the operator writes them: host, host:port, [v6]:port,
 * irc://host[:port] and ircs://host[:port] (TLS; port 6697 by default, as
 * IRCv3 STS and the ircs URI scheme use it).
 */
#include <stdio.h>
#include <string.h>

#include "heed/irc_crawl.h"
#include "irc/irc-int.h"

static bool host_ok(const char *h, size_t len)
{
	if (len == 0 || len >= HEED_IRC_HOST_MAX)
		return false;
	for (size_t i = 0; i < len; i++) {
		char c = h[i];
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		          (c >= '0' && c <= '9') || c == '.' || c == '-' ||
		          c == ':' || c == '_';
		if (!ok)
			return false;
	}
	return true;
}

static int parse_port(const char *p)
{
	int port = 0;

	if (!*p)
		return -1;
	for (; *p; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		port = port * 10 + (*p - '0');
		if (port > 65535)
			return -1;
	}
	return port > 0 ? port : -1;
}

/* Splits "host[:port]" or "[v6][:port]" into host and port text. */
static bool split_host_port(const char *s, const char **host, size_t *hlen,
                            const char **port)
{
	const char *colon;

	if (*s == '[') {
		const char *end = strchr(s, ']');
		if (!end || (end[1] && end[1] != ':'))
			return false;
		*host = s + 1;
		*hlen = (size_t)(end - s - 1);
		*port = end[1] ? end + 2 : NULL;
		return true;
	}
	colon = strchr(s, ':');
	/* A bare IPv6 address has several colons and no port. */
	if (colon && strchr(colon + 1, ':'))
		colon = NULL;
	*host = s;
	*hlen = colon ? (size_t)(colon - s) : strlen(s);
	*port = colon ? colon + 1 : NULL;
	return true;
}

heed_status heed_irc_target_parse(const char *text, struct heed_irc_target *out,
                                  struct heed_diag *diag)
{
	const char *s = text, *host, *port;
	size_t hlen, n;

	memset(out, 0, sizeof(*out));
	if (strncmp(s, "ircs://", 7) == 0) {
		out->tls = true;
		s += 7;
	} else if (strncmp(s, "irc://", 6) == 0) {
		s += 6;
	}
	n = strlen(s);
	if (n > 0 && s[n - 1] == '/')
		n--;
	char copy[HEED_IRC_HOST_MAX + 16];
	if (n >= sizeof(copy))
		return heed_diag_set(diag, HEED_EINVAL, 0, 0,
		                     "'%s': name too long", text);
	memcpy(copy, s, n);
	copy[n] = '\0';
	if (!split_host_port(copy, &host, &hlen, &port) || !host_ok(host, hlen))
		return heed_diag_set(
		        diag, HEED_EINVAL, 0, 0,
		        "'%s' is not host[:port], irc://host[:port] "
		        "or ircs://host[:port]",
		        text);
	out->port =
	        out->tls ? HEED_IRC_DEFAULT_TLS_PORT : HEED_IRC_DEFAULT_PORT;
	if (port && (out->port = parse_port(port)) < 0)
		return heed_diag_set(diag, HEED_EINVAL, 0, 0,
		                     "'%s': bad port number", text);
	memcpy(out->host, host, hlen);
	out->host[hlen] = '\0';
	for (size_t i = 0; i < hlen; i++)
		out->host[i] = heed__ascii_lower(out->host[i]);
	snprintf(out->key, sizeof(out->key), "%s%s%s:%d",
	         strchr(out->host, ':') ? "[" : "", out->host,
	         strchr(out->host, ':') ? "]" : "", out->port);
	return HEED_OK;
}
