/*
 * The lifecycle's "parsed with errors" (seed, step 3 of the decisions): is a
 * 2xx body a robots.txt at all? docs/robots-lifecycle.md defines it so that
 * the polite result follows. RFC 9309 2.2 asks crawlers to use whatever
 * rules parse, so a robots.txt with a bad line keeps its other rules; only a
 * body that is not a robots.txt (an HTML page, binary data, undecodable
 * text, or text without a single robots.txt record) gets "no rules".
 *
 * Reads at most HEED_ROBOTS_PARSE_LIMIT_BYTES (cut on a line end), the same
 * bytes the rule parser sees.
 */
#include <string.h>

#include "heed/robots.h"
#include "sitepolicy/sitepolicy-int.h"

/* Record names a robots.txt carries (RFC 9309 and the common extensions,
 * with the typos google/robotstxt accepts). ACAP-* is checked apart. */
static const char *const known_records[] = {
        "user-agent",  "useragent", "user agent",     "allow",
        "disallow",    "dissallow", "dissalow",       "disalow",
        "diasllow",    "disallaw",  "sitemap",        "site-map",
        "crawl-delay", "host",      "clean-param",    "request-rate",
        "visit-time",  "noindex",   "content-signal",
};

/* An undecodable body: more than one byte in this many is part of an
 * invalid UTF-8 sequence. A Latin-1 comment with a few accents stays far
 * below it; random bytes are far above it. */
#define UNDECODABLE_ONE_IN 8

static bool ieq_prefix(const char *s, size_t len, const char *lit)
{
	size_t n = strlen(lit);

	return len >= n && heed__ascii_ieq(s, n, lit);
}

/* Bytes of the valid UTF-8 sequence at p, or 0 when it is invalid. */
static size_t utf8_len(const unsigned char *p, size_t left)
{
	size_t n, i;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4;
	else
		return 0;
	if (left < n)
		return 0;
	for (i = 1; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

/* Binary: a NUL or a control byte no text file has. */
static bool binary_byte(unsigned char c)
{
	return c == 0 || (c < 0x20 && c != '\t' && c != '\n' && c != '\r' &&
	                  c != '\f' && c != '\v' && c != 0x1a);
}

static bool binary_or_undecodable(const char *body, size_t len)
{
	const unsigned char *p = (const unsigned char *)body;
	size_t i = 0, bad = 0, n;

	while (i < len) {
		if (binary_byte(p[i]))
			return true;
		n = utf8_len(p + i, len - i);
		if (n == 0) {
			bad++;
			n = 1;
		}
		i += n;
	}
	return bad * UNDECODABLE_ONE_IN > len;
}

/* The first non-space byte opens a markup tag: HTML or XML, never a
 * robots.txt record. */
static bool markup(const char *body, size_t len, const char *content_type)
{
	size_t i = 0;

	if (len >= 3 && memcmp(body, "\xef\xbb\xbf", 3) == 0)
		i = 3;
	while (i < len && (heed__ascii_space(body[i]) || body[i] == '\r' ||
	                   body[i] == '\n'))
		i++;
	if (i < len && body[i] == '<')
		return true;
	/* A page the server calls HTML whose markup starts later (after a
	 * text preamble) is still a page, not a robots.txt. */
	if (!content_type ||
	    !(ieq_prefix(content_type, strlen(content_type), "text/html") ||
	      ieq_prefix(content_type, strlen(content_type),
	                 "application/xhtml")))
		return false;
	for (; i + 5 <= len; i++)
		if (body[i] == '<' && (ieq_prefix(body + i, len - i, "<html") ||
		                       ieq_prefix(body + i, len - i, "<body") ||
		                       ieq_prefix(body + i, len - i, "<!doc")))
			return true;
	return false;
}

static bool known_record(const struct heed_robots_line *l)
{
	size_t i;

	if (ieq_prefix(l->name, l->name_len, "acap-"))
		return true;
	for (i = 0; i < HEED_ARRAY_SIZE(known_records); i++)
		if (heed__ascii_ieq(l->name, l->name_len, known_records[i]))
			return true;
	return false;
}

/* Text without a single robots.txt record, but with other content. */
static bool no_record(const char *body, size_t len)
{
	struct heed_robots_lexer lx;
	struct heed_robots_line l;
	size_t known = 0, other = 0;

	heed_robots_lex_init(&lx, body, len);
	while (heed_robots_lex_next(&lx, &l)) {
		if (l.kind == HEED_ROBOTS_LINE_BLANK ||
		    l.kind == HEED_ROBOTS_LINE_COMMENT)
			continue;
		if (l.kind == HEED_ROBOTS_LINE_FIELD && known_record(&l))
			known++;
		else
			other++;
	}
	return known == 0 && other > 0;
}

heed_site_body_verdict heed_site_judge_body(const char *body, size_t len,
                                            const char *content_type)
{
	if (!body || len == 0)
		return HEED_SITE_BODY_RULES;
	len = heed_robots_parse_limit(body, len);
	if (markup(body, len, content_type) ||
	    binary_or_undecodable(body, len) || no_record(body, len))
		return HEED_SITE_BODY_NOT_ROBOTS;
	return HEED_SITE_BODY_RULES;
}

/* Lines the parser could not read at all, as opposed to records it read
 * leniently or knowingly ignored. */
static void count_unreadable(void *ud, const struct heed_robots_diagnostic *d)
{
	if (d->code == HEED_ROBOTS_DIAG_SYNTAX ||
	    d->code == HEED_ROBOTS_DIAG_BAD_OCTETS)
		(*(size_t *)ud)++;
}

heed_status heed_site_read_robots(const char *body, size_t len,
                                  const char *content_type, const char *agent,
                                  const struct heed_allocator *alloc,
                                  struct heed_site_robots *out)
{
	size_t unreadable = 0;
	struct heed_robots_parse_options opts = {count_unreadable, &unreadable};
	heed_robots_agent *who = NULL;
	heed_robots *r = NULL;
	uint32_t delay_ms = 0;
	heed_status rc;

	memset(out, 0, sizeof(*out));
	out->verdict = heed_site_judge_body(body, len, content_type);
	if (out->verdict == HEED_SITE_BODY_NOT_ROBOTS)
		return HEED_OK;
	rc = heed_robots_parse(&r, alloc, body ? body : "", body ? len : 0,
	                       &opts);
	if (rc != HEED_OK)
		return rc;
	out->groups = heed_robots_group_count(r);
	out->diagnostics = heed_robots_diag_total(r);
	if (out->groups == 0 && heed_robots_sitemap_count(r) == 0 &&
	    heed_robots_field_count(r) == 0 && unreadable > 0) {
		out->verdict = HEED_SITE_BODY_NOT_ROBOTS;
		heed_robots_free(r);
		return HEED_OK;
	}
	rc = heed_robots_agent_new(&who, r, agent, strlen(agent));
	if (rc == HEED_OK &&
	    heed_robots_agent_crawl_delay(who, &delay_ms, NULL))
		out->crawl_delay_ms = delay_ms;
	heed_robots_agent_free(who);
	heed_robots_free(r);
	return rc;
}
