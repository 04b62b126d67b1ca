/*
 * The permissions stored with each page (docs/storage.md, "Pages area"):
 * what robots.txt, ACAP and the page's robots directives allowed when it
 * was fetched, with their time limits, so that the index shows only what
 * was allowed, for as long as it was. The record itself is written by the
 * extract module (heed_extract_record_json), the one writer `heed
 * extract` shares.
 *
 * ACAP usages are asked one by one, each the precise question for what
 * the index does with the page (present-link for listing it,
 * present-snippet for its description, present-thumbnail for its
 * thumbnail's address), so a refusal says which usage was refused and a
 * present-snippet prohibition withholds the description, not the page.
 *
 * "search" says how much of the description the search index may hold:
 * description_chars characters, what the index may show of it
 * (src/common/permit.c) and 0 when that depends on the time.
 */
#include <string.h>

#include "crawl/crawl-int.h"

/* The finished text, or NULL if the buffer failed; frees the buffer. */
static char *take_text(struct heed_json *j, struct heed_buf *b)
{
	if (j->rc != HEED_OK) {
		heed__buf_free(b);
		return NULL;
	}
	return heed__buf_take(b);
}

static void acap_usage_json(struct heed_json *j, const struct heed__rules *h,
                            const char *agent, heed_acap_usage usage,
                            const char *path, int64_t now_s)
{
	struct heed_acap_decision *d = NULL;

	if (heed_acap_decide(h->acap, agent, NULL, 0, usage, path, now_s, NULL,
	                     &d) != HEED_OK)
		return;
	heed__json_key(j, heed_acap_usage_name(usage));
	heed__json_open(j, '{');
	heed__json_key(j, "permitted");
	heed__json_bool(j, d->permitted);
	heed__json_int_member(j, "line", (int64_t)d->line, 0);
	if (d->time_limit.present) {
		if (d->time_limit.until_recrawled) {
			heed__json_key(j, "until_recrawled");
			heed__json_bool(j, true);
		}
		heed__json_int_member(j, "expires", d->time_limit.expires,
		                      INT64_MAX);
	}
	if (d->max_length.unit != HEED_ACAP_LENGTH_NONE) {
		heed__json_int_member(j, "max_length",
		                      (int64_t)d->max_length.count, -1);
		heed__json_key(j, "max_length_unit");
		heed__json_string(j,
		                  d->max_length.unit == HEED_ACAP_LENGTH_WORDS
		                          ? "words"
		                          : "chars");
	}
	heed__json_close(j, '}');
	heed_acap_decision_free(d);
}

static void acap_json(struct heed_json *j, const struct heed__rules *h,
                      const char *agent, const char *url, int64_t now_s)
{
	static const heed_acap_usage usages[] = {
	        HEED_ACAP_CRAWL,           HEED_ACAP_INDEX,
	        HEED_ACAP_FOLLOW,          HEED_ACAP_PRESENT_LINK,
	        HEED_ACAP_PRESENT_SNIPPET, HEED_ACAP_PRESENT_THUMBNAIL};
	const char *p = strstr(url, "://");
	const char *path = p && strchr(p + 3, '/') ? strchr(p + 3, '/') : "/";

	heed__json_open(j, '{');
	for (size_t i = 0; i < HEED_ARRAY_SIZE(usages); i++)
		acap_usage_json(j, h, agent, usages[i], path, now_s);
	heed__json_close(j, '}');
}

static void meta_json(struct heed_json *j, const struct heed_extract_robots *d)
{
	heed__json_open(j, '{');
	heed__json_key(j, "noarchive");
	heed__json_bool(j, d->noarchive);
	heed__json_key(j, "nosnippet");
	heed__json_bool(j, d->nosnippet);
	heed__json_key(j, "nofollow");
	heed__json_bool(j, d->nofollow);
	heed__json_int_member(j, "max_snippet", d->max_snippet, -1);
	heed__json_int_member(j, "unavailable_after", d->unavailable_after_s,
	                      HEED_NO_DATE);
	heed__json_close(j, '}');
}

/* heed__serve_permit() of the permissions written so far in b (the
 * object not yet closed); false when out of memory. */
static bool read_back(const struct heed_allocator *a, const struct heed_buf *b,
                      int64_t now_s, struct heed__serve_permit *pm)
{
	struct heed_buf whole;

	heed__buf_init(&whole, a, b->len + 2);
	if (heed__buf_add(&whole, heed__buf_str(b), b->len) != HEED_OK ||
	    heed__buf_addc(&whole, '}') != HEED_OK) {
		heed__buf_free(&whole);
		return false;
	}
	heed__serve_permit(heed__buf_str(&whole), now_s, pm);
	heed__buf_free(&whole);
	return true;
}

/* The characters of description the search index may hold under the
 * permissions written so far in b, which hold h's ACAP rules and the
 * page's robots meta d. heed serve reads the same text
 * (heed__serve_permit), and so are they read back here, but for the
 * permissions of most pages, which limit nothing: reading those back
 * took a sixtieth of a crawl's instructions. */
static int64_t index_chars(const struct heed_allocator *a,
                           const struct heed_buf *b,
                           const struct heed__rules *h,
                           const struct heed_extract_robots *d,
                           const char *description, int64_t now_s)
{
	struct heed__serve_permit pm;
	size_t len = description ? strlen(description) : 0, cut;
	int64_t chars = 0;

	if (!len)
		return 0;
	if (!h->acap && !d->nosnippet && d->max_snippet < 0)
		heed__serve_permit_open(&pm);
	else if (!read_back(a, b, now_s, &pm))
		return 0; /* out of memory: index none of it */
	cut = heed__serve_permit_index_len(&pm, description, len);
	for (size_t i = 0; i < cut; i++)
		chars += ((unsigned char)description[i] & 0xC0) != 0x80;
	return chars;
}

char *heed__crawl_permissions_json(const struct heed_allocator *a,
                                   const struct heed__rules *h, const char *url,
                                   const struct heed_extract_robots *d,
                                   const char *description, const char *agent,
                                   int64_t now_s)
{
	struct heed_buf b;
	struct heed_json j;

	heed__buf_init(&b, a, SIZE_MAX / 2);
	heed__json_init(&j, &b);
	heed__json_open(&j, '{');
	heed__json_key(&j, "robots_txt");
	heed__json_open(&j, '{');
	heed__json_key(&j, "rules");
	heed__json_bool(&j, h->robots != NULL);
	if (h->agent) {
		struct heed_robots_decision rd;
		if (heed_robots_decide(h->agent, url, strlen(url), &rd) ==
		            HEED_OK &&
		    rd.matched)
			heed__json_int_member(&j, "line", (int64_t)rd.line, -1);
	}
	heed__json_close(&j, '}');
	heed__json_key(&j, "acap");
	if (h->acap)
		acap_json(&j, h, agent, url, now_s);
	else
		heed__json_string(&j, NULL);
	heed__json_key(&j, "meta_robots");
	meta_json(&j, d);
	if (j.rc == HEED_OK) {
		/* Read before the member is begun: b is then the whole
		 * permissions but for the closing brace. */
		int64_t chars = index_chars(a, &b, h, d, description, now_s);
		heed__json_key(&j, "search");
		heed__json_open(&j, '{');
		heed__json_key(&j, "description_chars");
		heed__json_int(&j, chars);
		heed__json_close(&j, '}');
	}
	heed__json_close(&j, '}');
	return take_text(&j, &b);
}
