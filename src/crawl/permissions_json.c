/*
 * The permissions stored with each page (docs/storage.md, "Pages area";
 * "present permissions and time limits stored with the record"):
 * what robots.txt, ACAP and the page's robots directives allowed when it
 * was fetched. The record itself is written by the extract module
 * (heed_extract_record_json), the one writer `heed extract` shares.
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
	        HEED_ACAP_FOLLOW,          HEED_ACAP_PRESENT,
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

char *heed__crawl_permissions_json(const struct heed_allocator *a,
                                   const struct heed__rules *h, const char *url,
                                   const struct heed_extract_robots *d,
                                   const char *agent, int64_t now_s)
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
	heed__json_close(&j, '}');
	return take_text(&j, &b);
}
