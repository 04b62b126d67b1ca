/*
 * Arrangements with site owners in the crawl (docs/crawling.md
 * "Arrangements with site owners"): what `heed sites set` recorded for a
 * host is read once per run, when the first of its sites starts, and
 * answers the lifecycle's and the scheduler's questions. The values were
 * checked when written (heed/arrangement.h); a row the crawl cannot read
 * (bad windows written by hand) withholds the host rather than guess.
 */
#include <stdio.h>
#include <string.h>

#include "crawl/crawl-int.h"
#include "heed/store_arrangements.h"

static bool take(heed_crawl *c, struct heed__arranged *arr,
                 const struct heed_arrangement *a)
{
	bool oom = false;
	char *text;

	arr->mode = a->mode;
	arr->endpoint_kind = a->endpoint_kind;
	arr->delay_ms = a->delay_ms;
	arr->max_pages = a->max_pages;
	if (a->windows && heed_arrangement_parse_windows(
	                          a->windows, strlen(a->windows), arr->windows,
	                          &arr->window_count, NULL) != HEED_OK) {
		/* Unreadable windows: a window that never opens. */
		arr->windows[0].start_min = 0;
		arr->windows[0].end_min = 0;
		arr->window_count = 1;
	}
	if (a->endpoint) {
		arr->endpoint = heed__strndup(c->alloc, a->endpoint,
		                              strlen(a->endpoint));
		if (!arr->endpoint)
			return false;
	}
	text = heed_arrangement_rules_text(a, c->alloc, &oom);
	if (oom)
		return false;
	if (text && heed__rules_load(&arr->paths, text, strlen(text),
	                             c->opt->agent_token, c->alloc) != HEED_OK)
		oom = true;
	heed__free(c->alloc, text);
	return !oom;
}

bool heed__arranged_load(heed_crawl *c, struct heed__host *h)
{
	struct heed_arrangement a;
	heed_status rc;

	if (h->arr_loaded)
		return true;
	h->arr_loaded = true;
	rc = heed__read_arrangement(c, h->name, &a);
	if (rc == HEED_ENOTFOUND)
		return true;
	if (rc != HEED_OK)
		return false;
	h->arr = heed__calloc(c->alloc, 1, sizeof(*h->arr));
	if (!h->arr || !take(c, h->arr, &a)) {
		heed_store_arrangement_clear(c->store, &a);
		heed__crawl_oom(c);
		return false;
	}
	heed_log(&c->log, HEED_LOG_INFO, "crawl",
	         "%s: arrangement with its owner: mode %s, delay %lld ms, "
	         "max pages %lld%s%s",
	         h->name, heed_arrangement_mode_name(a.mode),
	         (long long)a.delay_ms, (long long)a.max_pages,
	         a.windows ? ", windows " : "", a.windows ? a.windows : "");
	heed_store_arrangement_clear(c->store, &a);
	return true;
}

void heed__arranged_free(heed_crawl *c, struct heed__host *h)
{
	if (!h->arr)
		return;
	heed__rules_free(&h->arr->paths);
	heed__free(c->alloc, h->arr->endpoint);
	heed__free(c->alloc, h->arr);
	h->arr = NULL;
}

const char *heed__arranged_withhold(heed_crawl *c, const struct heed__site *s,
                                    char *why, size_t size)
{
	const struct heed__arranged *arr = s->host->arr;
	int64_t opens = 0;

	if (!arr)
		return NULL;
	if (arr->mode == HEED_ARRANGEMENT_PAUSED) {
		snprintf(why, size, "paused by arrangement with its owner");
		return why;
	}
	if (!heed_arrangement_window_open(arr->windows, arr->window_count,
	                                  heed__crawl_unix_s(c), &opens)) {
		/* A run does not wait hours for a window: the site is left
		 * for a run that starts inside one. */
		snprintf(why, size,
		         "outside its crawl windows (the next opens in %lld "
		         "min); left for a later run",
		         (long long)(opens + 59) / 60);
		return why;
	}
	if (arr->delay_ms > c->opt->polite.crawl_delay_cap_ms) {
		snprintf(why, size,
		         "its arranged delay is above "
		         "politeness.crawl_delay_cap");
		return why;
	}
	return NULL;
}

bool heed__arranged_permits(heed_crawl *c, const struct heed__site *s,
                            const char *url)
{
	const struct heed__arranged *arr = s->host->arr;

	return !arr || heed__rules_may_crawl(&arr->paths, c->opt->agent_token,
	                                     url, heed__crawl_unix_s(c));
}

bool heed__arranged_incremental(const heed_crawl *c, const struct heed__site *s)
{
	return c->mode == HEED_CRAWL_FULL && s->host->arr &&
	       s->host->arr->mode == HEED_ARRANGEMENT_INCREMENTAL;
}

/* RFC 3986 unreserved characters stay; everything else is escaped, so the
 * page's URL is one query value. */
static bool query_value(char *out, size_t size, size_t *n, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";

	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		bool plain = (ch >= 'A' && ch <= 'Z') ||
		             (ch >= 'a' && ch <= 'z') ||
		             (ch >= '0' && ch <= '9') || strchr("-._~", ch);
		if (*n + 4 > size)
			return false;
		if (plain) {
			out[(*n)++] = (char)ch;
		} else {
			out[(*n)++] = '%';
			out[(*n)++] = hex[ch >> 4];
			out[(*n)++] = hex[ch & 15];
		}
	}
	out[*n] = '\0';
	return true;
}

bool heed__arranged_oembed_url(heed_crawl *c, const struct heed__site *s,
                               const char *page, char *out, size_t size)
{
	const struct heed__arranged *arr = s->host->arr;
	int n;
	size_t len;

	if (!arr || !arr->endpoint ||
	    arr->endpoint_kind != HEED_ENDPOINT_OEMBED ||
	    heed__site_of_url(c, arr->endpoint, false) != s)
		return false;
	n = snprintf(out, size, "%s%curl=", arr->endpoint,
	             strchr(arr->endpoint, '?') ? '&' : '?');
	if (n < 0 || (size_t)n >= size)
		return false;
	len = (size_t)n;
	if (!query_value(out, size, &len, page))
		return false;
	return len + sizeof("&format=json") <= size &&
	       strcat(out, "&format=json") != NULL;
}

bool heed__arranged_oembed_of(const struct heed__site *s, const char *url)
{
	const struct heed__arranged *arr = s->host->arr;

	return arr && arr->endpoint &&
	       arr->endpoint_kind == HEED_ENDPOINT_OEMBED &&
	       strncmp(url, arr->endpoint, strlen(arr->endpoint)) == 0;
}
