/*
 * The orders of the IRC lists (networks, a network's channels), shared by
 * their pages (html_irc.c) and their JSON (api.c), so that `?sort=` means
 * the same in both. Pure: no I/O.
 */
#include <string.h>

#include "serve/serve-int.h"

const struct heed__irc_sort heed__irc_net_sorts[HEED__IRC_NET_SORTS] = {
        {"users", "Users", "users", true},
        {"name", "Network", "network", false},
        {"servers", "Servers", "servers", true},
        {"channels", "Channels", "channels", true},
        {"visit", "Last visit", "last_visit", true},
};

const struct heed__irc_sort heed__irc_chan_sorts[HEED__IRC_CHAN_SORTS] = {
        {"users", "Users", "users", true},
        {"name", "Channel", "channel", false},
};

size_t heed__irc_sort_find(const char *name, const struct heed__irc_sort *keys,
                           size_t n)
{
	if (!name || !name[0])
		return 0;
	for (size_t i = 0; i < n; i++)
		if (strcmp(name, keys[i].name) == 0)
			return i;
	return n;
}

int heed__irc_sort_cmp(const struct heed__irc_sort *key, int64_t a_count,
                       const char *a_name, int64_t b_count, const char *b_name)
{
	if (key->number && a_count != b_count)
		return a_count > b_count ? -1 : 1;
	return strcmp(a_name, b_name);
}
