/*
 * The operator's crawler page, rendered from the configuration in HTML or
 * Markdown. It follows seeds/crawler-operator-page.md section by section
 * (User-Agent, what we collect, crawl modes, crawl rate, robots.txt and
 * cooperation, verification, contact), with the operator's real values in
 * place of the seed's: the User-Agent heed actually sends, the domain its
 * addresses' PTR names end in, and the schedules it runs.
 *
 * The page is written once, as calls to a tiny block renderer (heading,
 * paragraph pieces, list item, code block) that escapes every configured
 * text for the format: HTML entities, Markdown backslashes, code fences
 * longer than any backtick run inside. Links are made only from http(s)
 * and mailto: addresses, so a hostile setting cannot become a javascript:
 * link on a page the serve module publishes.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/common-int.h"
#include "heed/verify.h"

/* The crawler page is a few KiB; this bounds a hostile configuration. */
#define PAGE_MAX_BYTES (1024 * 1024)
/* The crawl rate the politeness layer enforces per site, as the seed's
 * "Crawl rate" section promises it: at most one request per second. */
#define PAGE_MAX_REQUESTS_PER_SECOND 1
/* Room for the User-Agent line. */
#define PAGE_UA_SIZE 512

struct page {
	heed_verify_page_format format;
	struct heed_buf buf;
	heed_status rc; /* the first failure; later writes are skipped */
};

static void raw(struct page *p, const char *s)
{
	if (p->rc == HEED_OK)
		p->rc = heed__buf_add(&p->buf, s, strlen(s));
}

/* Configured or literal text, escaped for the format; line breaks are kept
 * only in code blocks (keep_lines). */
static void escaped(struct page *p, const char *s, bool keep_lines)
{
	char one[2] = {0, 0};

	for (; *s && p->rc == HEED_OK; s++) {
		/* Settings are one line; a stray line break must not end a
		 * list item or start a heading. */
		if (!keep_lines && (*s == '\n' || *s == '\r')) {
			raw(p, " ");
			continue;
		}
		if (p->format == HEED_VERIFY_PAGE_HTML) {
			switch (*s) {
			case '&':
				raw(p, "&amp;");
				continue;
			case '<':
				raw(p, "&lt;");
				continue;
			case '>':
				raw(p, "&gt;");
				continue;
			case '"':
				raw(p, "&quot;");
				continue;
			case '\'':
				raw(p, "&#39;");
				continue;
			}
		} else if (strchr("\\`*_[]<>~&", *s)) {
			raw(p, "\\");
		}
		one[0] = *s;
		raw(p, one);
	}
}

static void text(struct page *p, const char *s)
{
	escaped(p, s, false);
}

/* The longest run of backticks in s. */
static size_t backtick_run(const char *s)
{
	size_t best = 0, run = 0;

	for (; *s; s++) {
		run = *s == '`' ? run + 1 : 0;
		best = run > best ? run : best;
	}
	return best;
}

static void backticks(struct page *p, size_t n)
{
	while (n--)
		raw(p, "`");
}

static void code(struct page *p, const char *s)
{
	size_t fence;

	if (p->format == HEED_VERIFY_PAGE_HTML) {
		raw(p, "<code>");
		text(p, s);
		raw(p, "</code>");
		return;
	}
	/* CommonMark 6.1: a code span may hold shorter backtick runs; the
	 * spaces keep a leading or trailing backtick apart from the fence
	 * (and are stripped again by the renderer). */
	fence = backtick_run(s) + 1;
	backticks(p, fence);
	raw(p, fence > 1 ? " " : "");
	raw(p, s);
	raw(p, fence > 1 ? " " : "");
	backticks(p, fence);
}

static void code_block(struct page *p, const char *lang, const char *s)
{
	size_t fence;

	if (p->format == HEED_VERIFY_PAGE_HTML) {
		raw(p, "<pre><code>");
		escaped(p, s, true);
		raw(p, "</code></pre>\n");
		return;
	}
	fence = backtick_run(s) + 1;
	fence = fence < 3 ? 3 : fence;
	backticks(p, fence);
	raw(p, lang);
	raw(p, "\n");
	raw(p, s);
	raw(p, "\n");
	backticks(p, fence);
	raw(p, "\n\n");
}

static void heading(struct page *p, int level, const char *s)
{
	if (p->format == HEED_VERIFY_PAGE_HTML) {
		if (p->rc == HEED_OK)
			p->rc = heed__buf_addf(&p->buf, "<h%d>", level);
		text(p, s);
		if (p->rc == HEED_OK)
			p->rc = heed__buf_addf(&p->buf, "</h%d>\n", level);
		return;
	}
	while (level--)
		raw(p, "#");
	raw(p, " ");
	text(p, s);
	raw(p, "\n\n");
}

/* Paragraphs and list items are opened, filled with text()/code()/link()
 * and closed. */
static void para(struct page *p)
{
	if (p->format == HEED_VERIFY_PAGE_HTML)
		raw(p, "<p>");
}

static void para_end(struct page *p)
{
	raw(p, p->format == HEED_VERIFY_PAGE_HTML ? "</p>\n" : "\n\n");
}

static void list(struct page *p)
{
	if (p->format == HEED_VERIFY_PAGE_HTML)
		raw(p, "<ul>\n");
}

static void list_end(struct page *p)
{
	raw(p, p->format == HEED_VERIFY_PAGE_HTML ? "</ul>\n" : "\n");
}

static void item(struct page *p)
{
	raw(p, p->format == HEED_VERIFY_PAGE_HTML ? "<li>" : "- ");
}

static void item_end(struct page *p)
{
	raw(p, p->format == HEED_VERIFY_PAGE_HTML ? "</li>\n" : "\n");
}

static void strong(struct page *p, const char *s)
{
	raw(p, p->format == HEED_VERIFY_PAGE_HTML ? "<strong>" : "**");
	text(p, s);
	raw(p, p->format == HEED_VERIFY_PAGE_HTML ? "</strong>" : "**");
}

/* A list item of plain text. */
static void item_text(struct page *p, const char *s)
{
	item(p);
	text(p, s);
	item_end(p);
}

static bool safe_link(const char *href)
{
	return strncmp(href, "https://", 8) == 0 ||
	       strncmp(href, "http://", 7) == 0 ||
	       strncmp(href, "mailto:", 7) == 0;
}

/* A link to href showing label, or just the label for anything that is not
 * a web or mail address. Markdown uses an autolink-free form
 * [label](<href>) so parentheses in the address stay inside it. */
static void link(struct page *p, const char *href, const char *label)
{
	if (!safe_link(href) || strpbrk(href, "<> \n\r\t\"")) {
		text(p, label);
		return;
	}
	if (p->format == HEED_VERIFY_PAGE_HTML) {
		raw(p, "<a href=\"");
		text(p, href);
		raw(p, "\">");
		text(p, label);
		raw(p, "</a>");
		return;
	}
	raw(p, "[");
	text(p, label);
	raw(p, "](<");
	raw(p, href);
	raw(p, ">)");
}

/* "week", "6 hours", "90 minutes", "day": the end of "once every ...". */
static void duration(struct page *p, int64_t s)
{
	static const struct {
		int64_t unit;
		const char *one, *many;
	} units[] = {
	        {7 * 86400, "week", "weeks"}, {86400, "day", "days"},
	        {3600, "hour", "hours"},      {60, "minute", "minutes"},
	        {1, "second", "seconds"},
	};
	size_t i;

	for (i = 0; i < HEED_ARRAY_SIZE(units); i++) {
		int64_t n = s / units[i].unit;
		if (s % units[i].unit || (n == 0 && units[i].unit > 1))
			continue;
		if (n == 1)
			raw(p, units[i].one);
		else if (p->rc == HEED_OK)
			p->rc = heed__buf_addf(&p->buf, "%" PRId64 " %s", n,
			                       units[i].many);
		return;
	}
}

static const char *operator_of(const struct heed_config *cfg)
{
	return cfg->operator_name && *cfg->operator_name ? cfg->operator_name
	                                                 : cfg->product_token;
}

static void section_intro(struct page *p, const struct heed_config *cfg)
{
	heading(p, 1, "Crawlers");
	para(p);
	text(p, "This page describes the web crawler operated by ");
	strong(p, operator_of(cfg));
	text(p, ". It is meant for website administrators and developers "
	        "who notice the crawler in their logs. The crawler collects "
	        "publicly available metadata only, without burdening sites "
	        "and without going against their policies.");
	para_end(p);
}

static void section_user_agent(struct page *p, const struct heed_config *cfg,
                               const char *ua)
{
	heading(p, 2, "User-Agent");
	para(p);
	text(p, "Every request carries this User-Agent:");
	para_end(p);
	code_block(p, "", ua);
	para(p);
	text(p, "Its product token, which robots.txt groups name, is ");
	code(p, cfg->product_token);
	text(p, ". The crawler runs heed, which is open source: anyone can "
	        "send this User-Agent, so it alone proves nothing. See ");
	strong(p, "Verifying the crawler");
	text(p, " below.");
	para_end(p);
}

static void section_collect(struct page *p)
{
	heading(p, 2, "What is collected");
	para(p);
	text(p, "Metadata only:");
	para_end(p);
	list(p);
	item_text(p, "titles and descriptions");
	item_text(p, "view counts, tags and categories");
	item_text(p, "other technical metadata: dates, durations, links "
	             "between pages, and the robots.txt / ACAP rules in "
	             "force");
	list_end(p);
	para(p);
	text(p, "What is not collected: ");
	strong(p, "no video, image or audio file is downloaded or "
	          "stored");
	text(p, ", no form is submitted, no login is used, and no cookie "
	        "or personal data of visitors is kept.");
	para_end(p);
}

static void section_modes(struct page *p, const struct heed_config *cfg)
{
	heading(p, 2, "Crawl modes");
	heading(p, 3, "Full mode");
	list(p);
	item_text(p, "Follows a site's public links, as search engines do.");
	item_text(p, "Used for the first indexing of a site.");
	item(p);
	text(p, "Runs at most once every ");
	duration(p, cfg->crawl_full_interval);
	text(p, " per site.");
	item_end(p);
	list_end(p);
	heading(p, 3, "Incremental mode");
	list(p);
	item_text(p, "Only on sites that list recent or updated entries "
	             "(feeds, sitemaps, \"newest\" pages).");
	item_text(p, "Fetches newly published entries only.");
	item(p);
	text(p, "Runs at most once every ");
	duration(p, cfg->crawl_incremental_interval);
	text(p, " per site.");
	item_end(p);
	list_end(p);
}

static void section_rate(struct page *p)
{
	heading(p, 2, "Crawl rate");
	para(p);
	text(p, "In every mode: ");
	if (p->rc == HEED_OK)
		p->rc = heed__buf_addf(
		        &p->buf, "%s%d request per second%s",
		        p->format == HEED_VERIFY_PAGE_HTML ? "<strong>" : "**",
		        PAGE_MAX_REQUESTS_PER_SECOND,
		        p->format == HEED_VERIFY_PAGE_HTML ? "</strong>"
		                                           : "**");
	text(p, " per site at most, one request at a time, slower when "
	        "robots.txt asks for a Crawl-delay or the site answers 429 "
	        "or 503 (Retry-After is honoured). If you see more than "
	        "that, please write: it is a bug and will be fixed at "
	        "once.");
	para_end(p);
}

static void section_robots(struct page *p, const struct heed_config *cfg)
{
	char group[600];

	heading(p, 2, "robots.txt and other rules");
	list(p);
	item(p);
	strong(p, "robots.txt");
	text(p, " (RFC 9309): the crawler obeys the group for ");
	code(p, cfg->product_token);
	text(p, ", or the * group when there is none.");
	item_end(p);
	item(p);
	strong(p, "ACAP");
	text(p, " (Automated Content Access Protocol) rules in robots.txt "
	        "are read and obeyed.");
	item_end(p);
	item(p);
	strong(p, "Meta robots");
	text(p, " tags and X-Robots-Tag headers: noindex, nofollow and "
	        "none are obeyed.");
	item_end(p);
	list_end(p);
	heading(p, 3, "Opting out");
	para(p);
	text(p, "To keep the crawler off your whole site, add to "
	        "robots.txt:");
	para_end(p);
	snprintf(group, sizeof(group), "User-agent: %s\nDisallow: /",
	         cfg->product_token);
	code_block(p, "", group);
	para(p);
	text(p, "To keep it out of some paths only:");
	para_end(p);
	snprintf(group, sizeof(group),
	         "User-agent: %s\nDisallow: /private/\nDisallow: /search",
	         cfg->product_token);
	code_block(p, "", group);
	para(p);
	text(p, "Or, in a single page:");
	para_end(p);
	code_block(p, "html", "<meta name=\"robots\" content=\"noindex\">");
	para(p);
	text(p, "Changes to robots.txt take effect the next time the crawler "
	        "fetches it, within a day. If you would like a different "
	        "crawl, or can offer a more efficient metadata endpoint, "
	        "please get in touch.");
	para_end(p);
	heading(p, 3, "Arrangements with the operator");
	para(p);
	text(p, "Write to the contact below from an address of your site "
	        "(or say how to confirm that you run it) with what you would "
	        "like for your host name: a longer delay between requests "
	        "(never less than one second), a number of pages per run, "
	        "only sitemaps and feeds, a pause, paths to include or leave "
	        "out, hours of the day (UTC) when the crawler may call, or a "
	        "feed (RSS, Atom or JSON Feed) or sitemap URL to read instead "
	        "of your pages. The "
	        "operator records it, with your contact and the date, and "
	        "every later crawl honours it; robots.txt is obeyed all the "
	        "same.");
	para_end(p);
}

/* The seed's two `host` steps with the operator's domain, and the same
 * check in one command. */
static void verify_steps(struct page *p, const char *domain)
{
	char line[600];

	para(p);
	strong(p, "Step 1: reverse lookup.");
	text(p, " Look up the address from your log (here an example):");
	para_end(p);
	code_block(p, "sh", "host 192.0.2.10");
	para(p);
	text(p, "The answer must be a name ending in ");
	code(p, domain);
	text(p, ", for example:");
	para_end(p);
	snprintf(line, sizeof(line),
	         "10.2.0.192.in-addr.arpa domain name pointer "
	         "crawl-192-0-2-10.%s.",
	         domain);
	code_block(p, "", line);
	para(p);
	strong(p, "Step 2: forward lookup.");
	text(p, " Look up that name:");
	para_end(p);
	snprintf(line, sizeof(line), "host crawl-192-0-2-10.%s", domain);
	code_block(p, "sh", line);
	para(p);
	text(p, "The answer must contain the address you started from:");
	para_end(p);
	snprintf(line, sizeof(line),
	         "crawl-192-0-2-10.%s has address 192.0.2.10", domain);
	code_block(p, "", line);
	para(p);
	text(p, "Only when both match is the request from this crawler. A "
	        "name that merely contains the domain (such as "
	        "evil-");
	text(p, domain);
	text(p, ") does not count. heed does both steps, for IPv4 and "
	        "IPv6 and for every PTR name, in one command:");
	para_end(p);
}

static void section_verify(struct page *p, const struct heed_config *cfg)
{
	struct heed_buf cmd;
	size_t i;

	heading(p, 2, "Verifying the crawler");
	if (cfg->verify_domains.count == 0) {
		para(p);
		text(p, "This operator has not published a verification "
		        "domain yet. Until it does, treat the User-Agent as "
		        "unverified and ask the contact below.");
		para_end(p);
		return;
	}
	verify_steps(p, cfg->verify_domains.items[0]);
	heed__buf_init(&cmd, p->buf.alloc, PAGE_UA_SIZE * 4);
	if (p->rc == HEED_OK)
		p->rc = heed__buf_add(&cmd, "heed verify", 11);
	for (i = 0; i < cfg->verify_domains.count && p->rc == HEED_OK; i++)
		p->rc = heed__buf_addf(&cmd, " --domain %s",
		                       cfg->verify_domains.items[i]);
	if (p->rc == HEED_OK)
		p->rc = heed__buf_add(&cmd, " 192.0.2.10", 11);
	if (p->rc == HEED_OK)
		code_block(p, "sh", heed__buf_str(&cmd));
	heed__buf_free(&cmd);
	para(p);
	text(p, "It prints both steps and says verified or not verified; "
	        "its exit status is 0 only when every address verified.");
	para_end(p);
}

static void section_contact(struct page *p, const struct heed_config *cfg)
{
	char mailto[300];

	heading(p, 2, "Contact");
	para(p);
	text(p, "Questions, concerns or suggestions about the crawler: ");
	if (cfg->contact_email) {
		snprintf(mailto, sizeof(mailto), "mailto:%s",
		         cfg->contact_email);
		text(p, "e-mail ");
		link(p, mailto, cfg->contact_email);
	} else {
		text(p, "this operator has not published an e-mail address");
	}
	if (cfg->contact_url) {
		text(p, "; this page: ");
		link(p, cfg->contact_url, cfg->contact_url);
	}
	text(p, ".");
	para_end(p);
}

static void html_head(struct page *p, const struct heed_config *cfg)
{
	raw(p, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	       "<meta charset=\"utf-8\">\n"
	       "<meta name=\"viewport\" content=\"width=device-width, "
	       "initial-scale=1\">\n<title>");
	text(p, operator_of(cfg));
	raw(p, " crawler</title>\n</head>\n<body>\n<main>\n");
}

heed_status heed_verify_page_render(const struct heed_config *cfg,
                                    heed_verify_page_format format,
                                    const struct heed_allocator *alloc,
                                    char **page, size_t *len)
{
	struct page p = {format, {0}, HEED_OK};
	char ua[PAGE_UA_SIZE];

	*page = NULL;
	*len = 0;
	heed__buf_init(&p.buf, alloc ? alloc : heed_allocator_default(),
	               PAGE_MAX_BYTES);
	/* A cut User-Agent would misquote what heed sends: refuse it. */
	p.rc = heed_config_user_agent(cfg, ua, sizeof(ua));
	if (format == HEED_VERIFY_PAGE_HTML)
		html_head(&p, cfg);
	section_intro(&p, cfg);
	section_user_agent(&p, cfg, ua);
	section_collect(&p);
	section_modes(&p, cfg);
	section_rate(&p);
	section_robots(&p, cfg);
	section_verify(&p, cfg);
	section_contact(&p, cfg);
	if (format == HEED_VERIFY_PAGE_HTML)
		raw(&p, "</main>\n</body>\n</html>\n");
	if (p.rc != HEED_OK) {
		heed__buf_free(&p.buf);
		return p.rc;
	}
	*len = p.buf.len;
	*page = heed__buf_take(&p.buf);
	return HEED_OK;
}
