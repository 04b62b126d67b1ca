/*
 * Address classes for the refusal of private, loopback and link-local
 * addresses after resolution (issue "Network shell"; RFC 1918, RFC 6598,
 * RFC 4193, RFC 3927, RFC 4291 2.5 and 2.4, RFC 5737, RFC 3849). Pure.
 */
#include <string.h>
#include <sys/socket.h>

#include "net/net-int.h"

static heed_net_addr_kind classify_v4(const uint8_t *b)
{
	if (b[0] == 127)
		return HEED_NET_ADDR_LOOPBACK;
	if (b[0] == 10 || (b[0] == 172 && (b[1] & 0xf0) == 16) ||
	    (b[0] == 192 && b[1] == 168) ||
	    (b[0] == 100 && (b[1] & 0xc0) == 64))
		return HEED_NET_ADDR_PRIVATE;
	if (b[0] == 169 && b[1] == 254)
		return HEED_NET_ADDR_LINK_LOCAL;
	if (b[0] == 0 || b[0] >= 224 ||
	    (b[0] == 192 && b[1] == 0 && b[2] == 2) ||
	    (b[0] == 198 && b[1] == 51 && b[2] == 100) ||
	    (b[0] == 203 && b[1] == 0 && b[2] == 113) ||
	    (b[0] == 198 && (b[1] & 0xfe) == 18))
		return HEED_NET_ADDR_RESERVED;
	return HEED_NET_ADDR_PUBLIC;
}

static heed_net_addr_kind classify_v6(const uint8_t *b)
{
	static const uint8_t mapped[12] = {0, 0, 0, 0, 0,    0,
	                                   0, 0, 0, 0, 0xff, 0xff};
	static const uint8_t zero[15] = {0};

	if (memcmp(b, mapped, 12) == 0)
		return classify_v4(b + 12);
	if (memcmp(b, zero, 15) == 0)
		return b[15] == 1 ? HEED_NET_ADDR_LOOPBACK
		                  : HEED_NET_ADDR_RESERVED;
	if ((b[0] & 0xfe) == 0xfc)
		return HEED_NET_ADDR_PRIVATE;
	if (b[0] == 0xfe && (b[1] & 0xc0) == 0x80)
		return HEED_NET_ADDR_LINK_LOCAL;
	if (b[0] == 0xff ||
	    (b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x0d && b[3] == 0xb8))
		return HEED_NET_ADDR_RESERVED;
	return HEED_NET_ADDR_PUBLIC;
}

heed_net_addr_kind heed_net_addr_classify(const struct heed_dns_addr *a)
{
	return a->family == AF_INET6 ? classify_v6(a->bytes)
	                             : classify_v4(a->bytes);
}

const char *heed_net_addr_kind_name(heed_net_addr_kind kind)
{
	static const char *const names[] = {"public", "private", "loopback",
	                                    "link-local", "reserved"};

	return (size_t)kind < HEED_ARRAY_SIZE(names) ? names[kind] : "invalid";
}

bool heed_net_addr_allowed(const struct heed_dns_addr *a, bool allow_private)
{
	heed_net_addr_kind k = heed_net_addr_classify(a);

	if (k == HEED_NET_ADDR_PUBLIC)
		return true;
	return allow_private && k != HEED_NET_ADDR_RESERVED;
}
