/*
 * serve.listen: where `heed serve` binds. Numeric addresses only: a name
 * would be looked up through the system resolver when the server starts,
 * and "localhost" may well be ::1 on one machine and 127.0.0.1 on the
 * next; the address the operator writes is the one that is bound.
 */
#include <arpa/inet.h>
#include <sys/socket.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "config/config-int.h"

/* The port after the address: digits only, 0 to 65535. */
static bool parse_port(const char *s, unsigned short *port)
{
	char *end;
	unsigned long v;

	if (*s < '0' || *s > '9' || strlen(s) > 5)
		return false;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (*end || errno || v > 65535)
		return false;
	*port = (unsigned short)v;
	return true;
}

heed_status heed_config_parse_listen(const char *text,
                                     struct sockaddr_storage *addr,
                                     unsigned *len)
{
	char host[INET6_ADDRSTRLEN + 1];
	const char *colon;
	unsigned short port;
	size_t hlen;

	memset(addr, 0, sizeof(*addr));
	if (text[0] == '[') {
		const char *close = strchr(text, ']');
		struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)addr;

		if (!close || close[1] != ':' ||
		    (hlen = (size_t)(close - text - 1)) >= sizeof(host) ||
		    !parse_port(close + 2, &port))
			return HEED_ECONFIG;
		memcpy(host, text + 1, hlen);
		host[hlen] = '\0';
		if (inet_pton(AF_INET6, host, &a6->sin6_addr) != 1)
			return HEED_ECONFIG;
		a6->sin6_family = AF_INET6;
		a6->sin6_port = htons(port);
		*len = sizeof(*a6);
		return HEED_OK;
	}
	colon = strrchr(text, ':');
	if (!colon || (hlen = (size_t)(colon - text)) >= sizeof(host) ||
	    !parse_port(colon + 1, &port))
		return HEED_ECONFIG;
	memcpy(host, text, hlen);
	host[hlen] = '\0';
	struct sockaddr_in *a4 = (struct sockaddr_in *)addr;
	if (inet_pton(AF_INET, host, &a4->sin_addr) != 1)
		return HEED_ECONFIG;
	a4->sin_family = AF_INET;
	a4->sin_port = htons(port);
	*len = sizeof(*a4);
	return HEED_OK;
}

heed_status heed__config_check_listen(const char *name, const char *value,
                                      struct heed_diag *diag)
{
	struct sockaddr_storage addr;
	unsigned len;

	if (heed_config_parse_listen(value, &addr, &len) == HEED_OK)
		return HEED_OK;
	return heed__config_refuse(diag, name, value,
	                           "is not ADDR:PORT with a numeric address "
	                           "(such as 127.0.0.1:8080 or [::1]:8080)");
}
