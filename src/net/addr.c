/*
 * Address classes for the refusal of private, loopback and link-local
 * addresses after resolution (issue "Network shell"; RFC 1918, RFC 6598,
 * RFC 4193, RFC 3927, RFC 4291 2.5 and 2.4, RFC 5737, RFC 3849, RFC 6890,
 * RFC 9637). Pure.
 */
#include <stdio.h>
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
	    (b[0] == 192 && b[1] == 0 && (b[2] == 0 || b[2] == 2)) ||
	    (b[0] == 198 && b[1] == 51 && b[2] == 100) ||
	    (b[0] == 203 && b[1] == 0 && b[2] == 113) ||
	    (b[0] == 198 && (b[1] & 0xfe) == 18))
		return HEED_NET_ADDR_RESERVED;
	return HEED_NET_ADDR_PUBLIC;
}

/*
 * An IPv4 address carried inside IPv6 is what the packets reach, so the
 * mapped form (RFC 4291 2.5.5.2), NAT64's well-known prefix (RFC 6052,
 * which may carry only global addresses) and 6to4 (RFC 3056) are classed
 * by it: 64:ff9b::127.0.0.1 is loopback. Only 2000::/3 is global unicast
 * (RFC 4291 2.4); the rest is unassigned, deprecated (IPv4-compatible
 * ::/96, RFC 4291 2.5.5.1) or special-purpose (100::/64, RFC 6666), and
 * never contacted. Site-local fec0::/10 (RFC 3879) is private.
 */
static heed_net_addr_kind classify_v6(const uint8_t *b)
{
	static const uint8_t mapped[12] = {0, 0, 0, 0, 0,    0,
	                                   0, 0, 0, 0, 0xff, 0xff};
	static const uint8_t nat64[12] = {0, 0x64, 0xff, 0x9b, 0, 0,
	                                  0, 0,    0,    0,    0, 0};
	static const uint8_t zero[15] = {0};

	if (memcmp(b, mapped, 12) == 0 || memcmp(b, nat64, 12) == 0)
		return classify_v4(b + 12);
	if (b[0] == 0x20 && b[1] == 0x02)
		return classify_v4(b + 2);
	if (memcmp(b, zero, 15) == 0)
		return b[15] == 1 ? HEED_NET_ADDR_LOOPBACK
		                  : HEED_NET_ADDR_RESERVED;
	if ((b[0] & 0xfe) == 0xfc || (b[0] == 0xfe && (b[1] & 0xc0) == 0xc0))
		return HEED_NET_ADDR_PRIVATE;
	if (b[0] == 0xfe && (b[1] & 0xc0) == 0x80)
		return HEED_NET_ADDR_LINK_LOCAL;
	if ((b[0] & 0xe0) != 0x20 ||
	    (b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x0d && b[3] == 0xb8) ||
	    (b[0] == 0x3f && b[1] == 0xff && (b[2] & 0xf0) == 0))
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

void heed_net_refusal(const struct heed_dns_result *r, const char *host,
                      bool allow_private, char *buf, size_t size)
{
	const struct heed_dns_addr *a = r->addr_count ? &r->addrs[0] : NULL;
	heed_net_addr_kind kind;
	const char *hint;

	if (!a) {
		snprintf(buf, size, "%s has no address", host);
		return;
	}
	kind = heed_net_addr_classify(a);
	/* Short: the message is one line of a report, after the site. */
	hint = allow_private || kind == HEED_NET_ADDR_RESERVED
	               ? "never contacted"
	               : "--allow-private allows it";

	if (r->addr_count == 1 && strcmp(a->text, host) == 0)
		snprintf(buf, size,
		         "refused by heed's address policy: %s is a %s address "
		         "(%s)",
		         a->text, heed_net_addr_kind_name(kind), hint);
	else
		snprintf(buf, size,
		         "refused by heed's address policy: %s resolves only "
		         "to refused addresses (%s: %s%s; %s)",
		         host, a->text, heed_net_addr_kind_name(kind),
		         r->addr_count > 1 ? ", ..." : "", hint);
}
