/*
 * The pure half of forward-confirmed reverse DNS: the suffix rule that
 * decides whether a PTR name belongs to the operator, and IP addresses in
 * binary form (parsing, printing).
 *
 * The suffix rule follows the vendors' procedures (Google, Bing, Apple; see
 * notes/metadata-verify-scale.md section 4): the name must end at a label
 * boundary ("evilgooglebot.com" is not under "googlebot.com"), compared
 * without regard to ASCII case, and a trailing root dot changes nothing.
 */
#include <arpa/inet.h>
#include <string.h>
#include <sys/socket.h>

#include "common/common-int.h"
#include "heed/verify.h"

/* Length of s without one trailing dot. */
static size_t without_root_dot(const char *s)
{
	size_t n = strlen(s);

	return n && s[n - 1] == '.' ? n - 1 : n;
}

static bool ieq_n(const char *a, const char *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (heed__ascii_lower(a[i]) != heed__ascii_lower(b[i]))
			return false;
	return true;
}

bool heed_verify_name_under(const char *name, const char *suffix)
{
	size_t n, s;

	if (!name || !suffix)
		return false;
	/* ".example.com" is how some vendors write the rule; same meaning. */
	if (*suffix == '.')
		suffix++;
	n = without_root_dot(name);
	s = without_root_dot(suffix);
	if (n == 0 || s == 0 || n < s)
		return false;
	if (!ieq_n(name + n - s, suffix, s))
		return false;
	/* The label boundary: the whole name, or a dot right before. */
	return n == s || name[n - s - 1] == '.';
}

heed_status heed_verify_addr_parse(const char *text,
                                   struct heed_verify_addr *addr)
{
	static const uint8_t v4_mapped[12] = {0, 0, 0, 0, 0,    0,
	                                      0, 0, 0, 0, 0xff, 0xff};

	memset(addr, 0, sizeof(*addr));
	if (!text)
		return HEED_EINVAL;
	if (inet_pton(AF_INET, text, addr->bytes) == 1) {
		addr->family = AF_INET;
		return HEED_OK;
	}
	if (inet_pton(AF_INET6, text, addr->bytes) != 1)
		return HEED_EINVAL;
	addr->family = AF_INET6;
	/* A dual-stack server sees an IPv4 client as ::ffff:a.b.c.d; its PTR
	 * and A records are those of a.b.c.d. */
	if (memcmp(addr->bytes, v4_mapped, sizeof(v4_mapped)) == 0) {
		memmove(addr->bytes, addr->bytes + 12, 4);
		memset(addr->bytes + 4, 0, 12);
		addr->family = AF_INET;
	}
	return HEED_OK;
}

const char *heed_verify_addr_format(const struct heed_verify_addr *addr,
                                    char *buf, size_t size)
{
	if (size == 0)
		return buf;
	if (!inet_ntop(addr->family, addr->bytes, buf, (socklen_t)size))
		buf[0] = '\0';
	return buf;
}
