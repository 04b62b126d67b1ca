/*
 * The generated corpus of bench/extract, shared with the unit
 * test that compares heed's HTML driver with libxml2's on it
 * (tests/unit/test_htmltok.c). Deterministic (xorshift, fixed seed; call
 * corpus_make() in the same order to get the same bytes): video pages,
 * articles, tag listings, 1 MB listings and broken markup, each with the
 * metadata real sites carry (Open Graph, Twitter cards, JSON-LD graphs,
 * microdata, inline scripts and JSON state, navigation and card links).
 */
#ifndef HEED_EXTRACT_CORPUS_H
#define HEED_EXTRACT_CORPUS_H

#include <stdint.h>

#include "common/common-int.h"
#include "xorshift.h"

enum kind { VIDEO, ARTICLE, LISTING, BIG, BROKEN, KINDS };
static const char *const kind_names[KINDS] = {"video", "article", "listing",
                                              "1MB listing", "broken"};
static const int kind_count[KINDS] = {60, 40, 30, 4, 30};

struct page {
	enum kind kind;
	char *data;
	size_t len;
};

static uint64_t rng = 0x9E3779B97F4A7C15u;

static unsigned rnd(unsigned n)
{
	return xorshift_below(&rng, n);
}

static const char *const words[] = {
        "sunset", "city",    "night",     "drive", "music", "live",
        "travel", "ocean",   "café",      "über",  "cat",   "review",
        "guide",  "how",     "to",        "build", "retro", "game",
        "news",   "weather", "timelapse", "drone", "4k",    "tutorial"};

static void words_to(struct heed_buf *b, int n)
{
	for (int i = 0; i < n; i++)
		heed__buf_addf(b, "%s%s", i ? " " : "",
		               words[rnd(HEED_ARRAY_SIZE(words))]);
}

static void head(struct heed_buf *b, enum kind k, unsigned id)
{
	heed__buf_addf(b, "<!DOCTYPE html>\n<html lang=\"en\"><head>"
	                  "<meta charset=\"utf-8\"><title>");
	words_to(b, 6);
	heed__buf_addf(b, " | Example</title>\n<meta name=\"description\" "
	                  "content=\"");
	words_to(b, 30);
	heed__buf_addf(b, "\">\n<meta property=\"og:title\" content=\"");
	words_to(b, 6);
	heed__buf_addf(b,
	               "\"><meta property=\"og:type\" content=\"%s\">"
	               "<meta property=\"og:image\" content=\"/t/%u.jpg\">"
	               "<meta name=\"twitter:card\" content=\"summary\">\n",
	               k == VIDEO ? "video.other" : "article", id);
	for (int i = 0; i < 12; i++)
		heed__buf_addf(b, "<meta property=\"%s\" content=\"%s\">\n",
		               k == VIDEO ? "og:video:tag" : "article:tag",
		               words[rnd(HEED_ARRAY_SIZE(words))]);
	heed__buf_addf(b,
	               "<link rel=\"canonical\" href=\"/p/%u\">"
	               "<link rel=\"stylesheet\" href=\"/s.css\">"
	               "<link rel=\"alternate\" type=\"application/rss+xml\" "
	               "href=\"/feed.xml\">\n<style>",
	               id);
	for (int i = 0; i < 150; i++)
		heed__buf_addf(b, ".c%d{margin:%dpx;color:#%06x}", i, i,
		               rnd(0xffffff));
	heed__buf_addf(b, "</style>\n<script>var s=\"</div><a href='/x'>\";"
	                  "if(a<b){c()}</script>\n");
	heed__buf_addf(
	        b,
	        "<script type=\"application/ld+json\">{\"@context\":"
	        "\"https://schema.org\",\"@graph\":[{\"@type\":\"WebPage\","
	        "\"name\":\"p\"},{\"@type\":\"%s\",\"name\":\"Item %u\","
	        "\"description\":\"d\",\"uploadDate\":\"2024-03-05T10:00:00Z\","
	        "\"duration\":\"PT%uM%uS\",\"thumbnailUrl\":\"/t/%u.jpg\","
	        "\"interactionStatistic\":{\"@type\":\"InteractionCounter\","
	        "\"interactionType\":{\"@type\":\"WatchAction\"},"
	        "\"userInteractionCount\":%u},\"keywords\":[\"a\",\"b\"]}]}"
	        "</script>\n</head>\n",
	        k == VIDEO ? "VideoObject" : "NewsArticle", id, rnd(60),
	        rnd(60), id, rnd(10000000));
}

static void nav(struct heed_buf *b)
{
	heed__buf_addf(b, "<body><header><nav><ul>");
	for (int i = 0; i < 40; i++)
		heed__buf_addf(b, "<li><a href=\"/c/%d\">%s</a></li>", i,
		               words[rnd(HEED_ARRAY_SIZE(words))]);
	heed__buf_addf(b, "</ul></nav></header>\n");
}

static void card(struct heed_buf *b, unsigned id)
{
	heed__buf_addf(b,
	               "<div class=\"card c%u\"><a href=\"/p/%u\">"
	               "<img src=\"/t/%u.jpg\" alt=\"",
	               id % 150, id, id);
	words_to(b, 5);
	heed__buf_addf(b, "\"></a><h3><a href=\"/p/%u\">", id);
	words_to(b, 7);
	heed__buf_addf(b,
	               "</a></h3><span class=\"meta\">%u views</span>"
	               "<a href=\"/tag/%s\" rel=\"tag\">%s</a></div>\n",
	               rnd(100000), words[id % HEED_ARRAY_SIZE(words)],
	               words[id % HEED_ARRAY_SIZE(words)]);
}

static void state_blob(struct heed_buf *b, int n)
{
	heed__buf_addf(b, "<script>window.__STATE__={\"items\":[");
	for (int i = 0; i < n; i++)
		heed__buf_addf(b,
		               "%s{\"id\":%d,\"html\":\"<b>x</b>\","
		               "\"t\":\"%s\"}",
		               i ? "," : "", i, words[rnd(24)]);
	heed__buf_addf(b, "]};</script>\n");
}

static void body(struct heed_buf *b, enum kind k, unsigned id)
{
	int cards = k == VIDEO     ? 60
	            : k == ARTICLE ? 10
	            : k == LISTING ? 300
	                           : 4500;
	nav(b);
	if (k == VIDEO)
		heed__buf_addf(b,
		               "<video poster=\"/t/%u.jpg\"><source "
		               "src=\"/v/%u.mp4\"></video>",
		               id, id);
	heed__buf_addf(b, "<main><h1>");
	words_to(b, 6);
	heed__buf_addf(b, "</h1>\n");
	for (int i = 0; i < (k == ARTICLE ? 120 : 8); i++) {
		heed__buf_addf(b, "<p>");
		words_to(b, 60);
		heed__buf_addf(b, " <a href=\"/p/%u\">more</a></p>\n",
		               rnd(99999));
	}
	for (int i = 0; i < cards; i++)
		card(b, rnd(999999));
	state_blob(b, k == BIG ? 800 : 200);
	heed__buf_addf(b, "</main><footer><ul>");
	for (int i = 0; i < 150; i++) /* unclosed <li>, as real footers do */
		heed__buf_addf(b, "<li><a href=\"/f/%d\">f%d</a>", i, i);
	heed__buf_addf(b, "</ul></footer></body></html>\n");
}

/* Broken markup: misnesting, stray end tags, bad entities, NUL bytes,
 * invalid UTF-8, an unclosed title and attribute. */
static void broken(struct heed_buf *b, unsigned id)
{
	head(b, ARTICLE, id);
	nav(b);
	for (int i = 0; i < 200; i++) {
		heed__buf_addf(b, "<p><b><i>");
		words_to(b, 20);
		heed__buf_addf(b,
		               "</b></i></span>&amp B &#128; &#xD800; "
		               "<a href=/p/%d>x</a>",
		               i);
		heed__buf_add(b, "\0\xC3\x28\xFF", 4);
		card(b, rnd(999999));
	}
	heed__buf_addf(b, "<title>unclosed <meta name=x content=\"cut");
}

/* Builds page p of kind k; p->data is malloc'd (free() it). */
static void corpus_make(struct page *p, enum kind k, unsigned id)
{
	struct heed_buf b;

	heed__buf_init(&b, heed_allocator_default(), 8u << 20);
	if (k == BROKEN) {
		broken(&b, id);
	} else {
		head(&b, k, id);
		body(&b, k, id);
	}
	p->kind = k;
	p->len = b.len;
	p->data = heed__buf_take(&b);
}

#endif /* HEED_EXTRACT_CORPUS_H */
