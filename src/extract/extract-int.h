/*
 * Internals of src/extract: the record builder with its precedence table,
 * value parsers (dates, durations, counts), charset conversion, JSON-LD and
 * robots directives. Not installed.
 */
#ifndef HEED_EXTRACT_INT_H
#define HEED_EXTRACT_INT_H

#include <stdbool.h>
#include <stdint.h>

#include <limits.h>

#include "common/common-int.h"
#include "heed/extract.h"
#include "heed/url.h"

/* Ceilings for one page (each a named limit, curl's habit). */
#define EXTRACT_MAX_TEXT          65536         /* one captured text */
#define EXTRACT_MAX_JSONLD        (1024 * 1024) /* one JSON-LD block */
#define EXTRACT_MAX_JSONLD_BLOCKS 32            /* JSON-LD blocks parsed */
#define EXTRACT_JSONLD_DEPTH      128           /* json-c's default is 32 */
#define EXTRACT_MAX_JSONLD_NODES  64            /* typed objects considered */
#define EXTRACT_MAX_TAGS          256           /* tags kept per page */
#define EXTRACT_MAX_AUTHORS       128           /* names kept in author */
#define EXTRACT_MAX_SITE_NAMES    8             /* declared site names */
#define EXTRACT_MAX_CATEGORIES    16            /* the post's categories */
#define EXTRACT_MAX_TAG_LINKS     64            /* rel=tag texts compared */
#define EXTRACT_MAX_TITLE_TEXTS   6             /* headings, DC titles */
#define EXTRACT_MAX_LINKS         20000         /* links kept per page */
#define EXTRACT_MAX_DEPTH         4096          /* element stack tracked */

/* Fields that take one value chosen by precedence. */
enum field {
	F_TITLE,
	F_DESCRIPTION,
	F_AUTHOR,
	F_CANONICAL,
	F_LANGUAGE,
	F_PUBLISHED,
	F_MODIFIED,
	F_THUMBNAIL,
	F_OG_TYPE,
	F_SCHEMA_TYPE,
	F_SITE_NAME,
	F_PUBLISHER,
	F_DURATION,
	F_VIEWS,
	F_COUNT,
};

/* Where a candidate came from, finer than heed_source: the precedence
 * table in record.c orders these per field. */
enum origin {
	O_OG,        /* og:*, article:*, video:* */
	O_TWITTER,   /* twitter:* */
	O_TITLE_TAG, /* <title> */
	O_JSONLD,
	O_META, /* <meta name=description|author|keywords> */
	O_DC,   /* Dublin Core, citation_*, parsely-*, sailthru.* */
	O_MICRODATA,
	O_H1,
	O_HTML, /* <html lang>, rel=tag, <time datetime>, theme classes */
	O_LINK, /* rel=canonical, rel=author, rel=image_src, a feed's title */
	O_HTTP,
	O_URL,         /* a date in the page URL's path */
	O_JSONLD_ORG,  /* a JSON-LD author that is an organisation */
	O_JSONLD_CLIP, /* a JSON-LD date of a video a non-video page embeds */
	O_COPYRIGHT,   /* a copyright notice's holder */
	O_SCRIPT,      /* a date in a page's own script data, not JSON-LD */
	O_AUTHOR_PAGE, /* a link to an author's page: the name it shows */
	O_COUNT,
};

/* Sub-ranks of the O_DC published dates whose name says only "date":
 * dc.date and dcterms.date (Dublin Core's "an event in the lifecycle of
 * the resource"), and the bare <meta name=date>. */
#define DC_SUB_DATE      3
#define DC_SUB_BARE_DATE 6

/* Sub-ranks of O_HTML dates, best first (html.c offers them; record.c
 * reads the page's shown date from them): attribute values (a theme's
 * date class, a time marked pubdate, a loose itemprop; a <time datetime>
 * in an article, in main, anywhere), then dates read from text (a date
 * element's in the article, anywhere; a <time>'s or a byline's in the
 * article; a meta or info line's in the article, anywhere; a text after
 * a date label, "Datum: 22.12.2012"; a file's stamp, a last update's
 * label in the site's footer ("Last updated on October 07, 2026") or one
 * that names the page ("This page last modified on"), which is no edit
 * of the text (see heed__edit_only); a text that is a bare date; last,
 * an "as of" date, "Stand: 19.10.2019", when nothing else dates the
 * page; then the date a list's item shows beside a link to the page
 * itself, a recent-posts widget's or a section's teaser of this very
 * post). */
enum {
	D_THEME,
	D_TIME_ARTICLE,
	D_TIME_MAIN,
	D_TIME_PAGE,
	D_TEXT_CLASS_BODY,
	D_TEXT_CLASS_PAGE,
	D_TEXT_BODY,
	D_LINE_BODY,
	D_LINE_PAGE,
	D_LABEL,
	D_LABEL_STAMP,
	D_BARE,
	D_ASOF,
	D_SELF_ITEM,
};

/* How a page date was written: wall_clock when it has a time but no zone
 * or offset ("2023-11-08 17:49:09", "8 Nov 2023, 5:49 pm"; read as UTC,
 * though it is usually the publisher's local time), seconds when the time
 * has its seconds. */
struct heed__date_form {
	bool wall_clock, seconds;
};

struct cand {
	const char *value;           /* in the arena; NULL when empty */
	int rank;                    /* lower wins */
	int64_t num;                 /* dates: Unix seconds; duration, views */
	struct heed__date_form form; /* dates: how the value was written */
	enum origin origin;
};

/* The page being built. */
struct builder {
	const struct heed_allocator *alloc;
	struct heed_arena arena;
	struct cand cand[F_COUNT];
	struct heed_field *tags;
	size_t tag_count;
	/* The categories the page files the post in (rel="category tag"
	 * link texts) and the tags it links (rel=tag texts), case-folded,
	 * in the arena: where the page links its tags, a declared keyword
	 * that repeats a category and no tag is a section. */
	const char *categories[EXTRACT_MAX_CATEGORIES];
	size_t category_count;
	const char *tag_links[EXTRACT_MAX_TAG_LINKS];
	size_t tag_link_count;
	const char *agent;
	struct heed_extract_robots robots;
	heed_url *page_url;    /* the response URL */
	const char *base_href; /* first <base href>, raw, in the arena */
	const char *canonical_raw;
	bool canonical_conflict;
	/* The first oEmbed endpoint of each format, raw, in the arena
	 * (indexed by heed_oembed_format). */
	const char *oembed_raw[2];
	unsigned h1_count;
	/* Every site name the page declares (og:site_name, application-name,
	 * JSON-LD publisher.name), to find one cut off the title. */
	const char *site_names[EXTRACT_MAX_SITE_NAMES];
	size_t site_name_count;
	/* The page's other words for its title (its first h1 and h2
	 * headings outside asides, Dublin Core and citation titles), to
	 * find the title inside a <title> that adds more. */
	const char *title_texts[EXTRACT_MAX_TITLE_TEXTS];
	bool title_text_declared[EXTRACT_MAX_TITLE_TEXTS]; /* not a heading */
	size_t title_text_count;
	/* The first <title>'s text, collapsed, in the arena: the site's
	 * name after it counts even when a meta gives the title. */
	const char *title_tag;
	/* The title of the page's <link rel=home> (arena): the name of the
	 * set a chunk of a DocBook book or manual belongs to. */
	const char *home_title;
	/* The name the page's masthead shows, its home link's text or its
	 * logo's alt (arena): see heed__title_site. */
	const char *masthead;
	/* The names of the article's opening "By X" line (arena), kept
	 * while a declared author wins: see heed__lead_over_declared. */
	const char *lead_names;
	/* The names of the rel=author links inside the page's first byline,
	 * "A; B" (arena): see heed__byline_links_over_declared. */
	const char *byline_links;
	const char *licensor; /* a licence notice's name to credit (arena) */
	const char *source_names; /* the first source line's (arena) */
	struct heed_record rec;
	/* Links as found: resolved at the end, once <base> is known. */
	struct raw_link *links;
	size_t link_count, link_cap;
	/* JSON-LD objects kept until the end, to be ranked together. */
	void *jsonld_roots[EXTRACT_MAX_JSONLD_BLOCKS];
	size_t jsonld_root_count;
	/* The day (YYYY-MM-DD) of the best published date the page's own
	 * markup and text give (origin O_HTML), kept even while a declared
	 * date wins, and its rank; "" when none: see heed__republished. */
	char shown_day[11];
	int shown_rank;
	const char *shown_value;           /* that date, in the arena */
	int64_t shown_num;                 /* its Unix seconds */
	struct heed__date_form shown_form; /* how it was written */
	/* The article:published_time a JSON-LD datePublished at another
	 * instant displaced, and the day of the first bare date the page
	 * shows (YYYY-MM-DD, "" when none): see heed__shown_over_draft. */
	struct cand og_published;
	char bare_day[11];
	/* The day of the first edit's date the page's own markup and text
	 * give (an "Updated" line, MediaWiki's "last edited"), "" when none:
	 * see heed__republished. */
	char edit_day[11];
	/* The full name opening the page's first author bio ("Nils
	 * Pickert ist ..."), a sidebar's "Mehr von" heading or a closing
	 * bracket, in the arena, or NULL: see heed__author_bio. */
	const char *bio_name;
	/* The name a text gives the author's handle ("C.Habermueller
	 * (chabermu) ist ..."), in the arena, or NULL: see
	 * heed__handle_named. */
	const char *handle_name, *handle_of;
	heed_status oom; /* HEED_ENOMEM once an allocation failed */
};

struct raw_link {
	const char *href, *rel;
	bool nofollow, feed;
};

/* record.c */
heed_status heed__builder_init(struct builder *b,
                               const struct heed_allocator *a,
                               const struct heed_extract_input *in);
void heed__builder_release(struct builder *b);
/* Offers a candidate for f; whitespace is collapsed, empties ignored.
 * sub orders candidates of one origin (og:image:secure_url before
 * og:image); equal ranks keep the first (the Open Graph rule). */
void heed__cand(struct builder *b, enum field f, enum origin o, int sub,
                const char *s, size_t len);
/* True when f already holds a value that a candidate from (o, sub) could
 * not replace: reading that candidate would be wasted work. */
bool heed__cand_settled(const struct builder *b, enum field f, enum origin o,
                        int sub);
/* True when the published date known so far comes from a meta tag named
 * only "date" (DC_SUB_DATE, DC_SUB_BARE_DATE), which the day the page
 * shows replaces (heed__shown_over_generic): it settles no shown date. */
bool heed__published_generic(const struct builder *b);
/* True while the page's first bare date is wanted to settle which of
 * two declared published dates it shows: while article:published_time
 * holds the published date (JSON-LD, read at the end, may give
 * another) and no bare date was read. */
bool heed__bare_day_wanted(const struct builder *b);
/* Keeps the day of s[0, len), the page's first bare date. */
void heed__bare_day(struct builder *b, const char *s, size_t len);
/* A JSON-LD datePublished that displaced an article:published_time at
 * another instant gives way to it when the page shows the latter's day
 * and not its own. Called once the page is read. */
void heed__shown_over_draft(struct builder *b);
/* A page that shows its modified day as its date (its own markup and
 * text give that day, not the declared published one) was republished
 * then: the published date becomes the modified one. Called once the
 * page is read. */
void heed__republished(struct builder *b);
/* A page dated only by an edit it shows: the published date becomes
 * that edit's. Called once the page is read, after its URL's date. */
void heed__edit_only(struct builder *b);
/* A published or modified date in UTC that is exactly midnight where
 * the page's language is spoken is a day stored at that midnight: it is
 * written at that zone's offset. Called once the page is read. */
void heed__midnight_days(struct builder *b);
/* An author that is a first name alone ("Nils", a CMS's display name)
 * or a login gives way to the full name the page gives in its author
 * bio, a sidebar's "Mehr von" heading or a closing bracket, when that
 * name opens with it ("Nils Pickert") or spells it ("Christian P.
 * Stadtfeld" for "christian.stadtfeld"). Called once the JSON-LD is
 * applied. */
void heed__author_bio(struct builder *b);
/* A page whose published date comes from a meta tag named only "date"
 * (DC_SUB_DATE, DC_SUB_BARE_DATE) and whose own markup or text shows
 * another day is dated by that shown day. Called once the page is read,
 * before heed__republished. */
void heed__shown_over_generic(struct builder *b);
/* A page that credits nobody and whose description opens with a wire
 * story's dateline ("Hamburg (dpa/lno) – ...") is credited to the
 * agency in its brackets. Called once the page is read. */
void heed__dateline_agency(struct builder *b);
/* A page that credits nobody, or only a handle or a login, and whose
 * description opens with a byline
 * that a separator ends ("Posted by Ann Lee and Bo Chan - Team ...") is
 * credited to its names. Called once the page is read, after
 * heed__dateline_agency. */
void heed__description_byline(struct builder *b);
/* A page that credits nobody on a site whose declared name is an academic
 * title and a person's name spelling its domain ("Dr. Alexander Klier" on
 * alexander-klier.net) is credited to that person, the site's owner.
 * Called once the page is read. */
void heed__personal_site(struct builder *b);
/* Notes the name a Creative Commons notice asks to credit (its
 * rel=cc:attributionURL link's text). */
void heed__licensor_name(struct builder *b, const char *s, size_t len);
/* An author of initials alone ("DT") gives way to the licensor's name
 * whose words they are the initials of ("Donald Townsend"): a blog
 * signs its posts so and names its writer in full in its licence's
 * notice. Called once the page is read. */
void heed__initials_named(struct builder *b);
/* The rank of a handle or a login alone as the author (twitter:creator's). */
int heed__handle_rank(void);
/* The author when it is a handle or a login alone, ranked at handle_rank
 * (heed__handle_rank()) or after, else NULL: asked of every text while
 * one is, so kept in line. */
static inline const char *heed__author_handle(const struct builder *b,
                                              int handle_rank)
{
	const struct cand *c = &b->cand[F_AUTHOR];

	return c->value && c->rank >= handle_rank ? c->value : NULL;
}
/* A handle gives way to the name a text writes before it in brackets. */
void heed__handle_named(struct builder *b);
/* Notes the names of the article's first source line ("Quelle:
 * kathpress"). */
void heed__source_names(struct builder *b, const char *s, size_t len);
/* A page whose only credit is the site's own name (its declared name,
 * its domain: a CMS's default) is credited to its source line's names:
 * the agency or the desk the text came from. Called once the page is
 * read. */
void heed__source_over_site(struct builder *b);
/* Notes the names of the article's opening "By X" line. */
void heed__lead_names(struct builder *b, const char *s, size_t len);
/* The article's opening "Von X" line naming one person of two words or
 * more takes the place of a single declared author (JSON-LD, a meta
 * author, rel=author) who is someone else: a CMS declares the account
 * that posted the article, where the article's first lines credit its
 * writer. Called once the page is read, as JSON-LD is ranked then. */
void heed__lead_over_declared(struct builder *b);
/* Notes the name of a rel=author link inside the page's first byline. */
void heed__byline_link(struct builder *b, const char *s, size_t len);
/* The page's first byline whose names are rel=author links, two or more
 * ("By <a rel=author>Ann Lee</a>, <a rel=author>Bo Chan</a>"), takes the
 * place of a single declared author who is none of them: the byline
 * credits its writers by their author pages, a CMS's JSON-LD the account
 * that posted. Called once the page is read, as JSON-LD is ranked then. */
void heed__byline_links_over_declared(struct builder *b);
/* Offers an author: a further one from the same source and rank
 * (several <meta name=author>, <a rel=author> links) joins the first,
 * "A; B", so several authors stay several. */
void heed__author_add(struct builder *b, enum origin o, int sub, const char *s,
                      size_t len);
/* Notes the text of a link filing the post in a category (category) or
 * tagging it. */
void heed__tag_link_seen(struct builder *b, const char *s, size_t len,
                         bool category);
/* True while a tag link's text could still be used: as a tag (no tag
 * declared) or to tell tags from categories (fewer than
 * EXTRACT_MAX_TAG_LINKS noted). */
bool heed__tag_link_wanted(const struct builder *b);
/* Where the page links its tags, drops the declared tags that repeat a
 * category it links and no tag (hypotheses.org's dc:subject lists the
 * post's categories with its tags). */
void heed__drop_category_tags(struct builder *b);
/* Splits a keyword list and adds each tag (de-duplicated, case-folded). */
void heed__tags(struct builder *b, enum origin o, const char *s, size_t len,
                bool split);
void heed__add_link(struct builder *b, const char *href, const char *rel,
                    bool nofollow, bool feed);
char *heed__strdup_arena(struct builder *b, const char *s, size_t len);
/* A copy in arena with white space runs (and control characters)
 * collapsed to one space and trimmed; NULL when nothing is left, or on
 * OOM, then recorded in *oom. */
char *heed__collapse(struct heed_arena *arena, const char *s, size_t len,
                     heed_status *oom);
/* Remembers a declared site name for the title's suffix (titlesite.c). */
void heed__site_name_seen(struct builder *b, const char *s, size_t len);
/* Remembers another of the page's words for its title (titlesite.c):
 * a heading's text, or a title a meta declares. */
void heed__title_text_seen(struct builder *b, const char *s, size_t len,
                           bool declared);
/* True when s is the site's own social account: "@name" where name
 * spells a declared site name or the registrable domain, with or without
 * its suffix ("@BoingBoing" on boingboing.net, "@FinCompareDE" on
 * fincompare.de). */
bool heed__is_site_handle(const struct builder *b, const char *s, size_t len);
/* True when the author held so far is one word ("Todd", "jdoe"): a
 * fuller name the page gives later takes its place (record.c). */
bool heed__author_short(const struct builder *b);
/* A byline's names ("Ann Lee; Bo Chan", read past a better author) take
 * the place of the one name held when they list it and every part is a
 * name of two words or more (record.c). */
void heed__author_list(struct builder *b, const char *s, size_t len);
/* True when s[0, len) is a particle of a person's name ("van", "von",
 * "de", "des", ...), ASCII case ignored: a name's word that opens in lower
 * case (record.c). */
bool heed__name_particle(const char *s, size_t len);
/* True when the word w[0, n) is a company's legal form ("GmbH", "Ltd.",
 * "Inc", "AB"), case as written. */
bool heed__legal_form(const char *w, size_t n);
/* True when s[i] is a full stop after a word of two letters or more,
 * which ends a sentence ("Ann Lee. All rights reserved."), not an
 * initial's ("Ann L. Lee"). */
bool heed__word_stop(const char *s, size_t i);
/* True when s is a site name the page declared so far (ASCII case
 * ignored). */
bool heed__is_site_name(const struct builder *b, const char *s, size_t len);
/* True when s is the last part of the page's <title> read so far, after
 * a separator ("Die FURCHE" in "Achtsam durch die Krise | Die FURCHE"),
 * ASCII case ignored: where a site writes its name. */
bool heed__is_title_suffix(const struct builder *b, const char *s, size_t len);
/* True when the letters and digits of s spell the registrable domain,
 * with or without its suffix ("tagesschau.de" on www.tagesschau.de,
 * "Eat Smarter" on www.eatsmarter.de, "Badische Zeitung" on
 * www.badische-zeitung.de), ASCII case ignored. */
bool heed__spells_site_domain(const struct builder *b, const char *s,
                              size_t len);
/* True when a run of whole words of s spells the registrable domain
 * without its suffix ("EFC Bayrische Bembel" on bayrische-bembel.de,
 * "L-MAG - Das Magazin" on l-mag.de), ASCII case ignored. */
bool heed__words_spell_site_domain(const struct builder *b, const char *s,
                                   size_t len);
/* Cuts a site name off the chosen title, then names the publisher by
 * a home link's title or the masthead when nothing else did
 * (titlesite.c). */
void heed__title_site(struct builder *b);
/* A byline's text ("By A, B and C") as "A; B; C", in the arena; NULL
 * when it holds no name (titlesite.c). */
const char *heed__byline_names(struct builder *b, const char *s, size_t len);
/* The length of the leading names of "A; B; C" whose every word is a
 * name's: opens with a capital or is a particle ("van", "de"); 0 for "By
 * the time we arrived". */
size_t heed__capitalised_len(const char *names);
/* The length of the names a byline line or a label gives in "A; B; C"
 * (see titlesite.c): the capitalised ones, or none. */
size_t heed__line_names_len(const char *names);
/* Drops what leads a name in an author value: "By " (also "Par ", "Von ",
 * "Por "), a profile link's "View all posts by", a label's "Text:", and a
 * trailing arrow (titlesite.c). */
void heed__author_unprefix(const char **s, size_t *len);
/* True when a normalised URL's path ends in a media file's extension
 * (.jpg, .mp4, .m3u8, ...): following it would download media. */
bool heed__url_looks_media(const char *url);
heed_source heed__origin_source(enum origin o);

/* values.c: value parsers. Each returns false when s is not valid. */
/* ISO 8601, RFC 822/1123/850 and asctime dates; *consumed (may be NULL)
 * gets the bytes read. iso gets "YYYY-MM-DD", "YYYY-MM-DDTHH:MM:SSZ" or,
 * when the value had a fraction of a second, "YYYY-MM-DDTHH:MM:SS.fffZ"
 * with its digits as given (at most 9). */
bool heed__parse_date(const char *s, size_t len, int64_t *unix_s, char iso[32],
                      size_t *consumed);
/* "2016-01-12T22:34:00.123456789+05:30" and its NUL. */
#define HEED_DATE_ISO_MAX 48
/* A date as pages give it, in a meta tag, JSON-LD or a date line's text:
 * what heed__parse_date reads, else the first date written in s as text
 * (month names in English, French, German, Spanish, Portuguese, Italian
 * and Dutch; "12/01/2016" only where a number over 12 or lang, the page's
 * BCP 47 language or NULL, settles which is the day; a time and its zone
 * after it). iso keeps a time's own offset ("...T22:34:00+05:30"), so
 * the publisher's day stays theirs; *unix_s is the instant. form (may be
 * NULL) gets how the date was written. */
bool heed__parse_page_date(const char *s, size_t len, const char *lang,
                           int64_t *unix_s, char iso[HEED_DATE_ISO_MAX],
                           struct heed__date_form *form);
/* The length of the date s opens, in a form heed__parse_page_date reads,
 * with its time if one follows ("2. November 2021", "11.10.2021 14:30
 * Uhr" up to "Uhr"), or 0 when s opens with none. */
size_t heed__page_date_len(const char *s, size_t len, const char *lang);
/* True when s[0, len) opens with a month's name, in a language
 * heed__parse_page_date reads ("Apr", "September", "Mai"). */
bool heed__month_opens(const char *s, size_t len);
/* iso, a UTC time as heed__parse_page_date writes it ("...T01:49:09Z",
 * its fraction kept), as the same instant at offset off_s seconds
 * ("...T17:49:09-08:00") into out. False when iso is no such time. */
bool heed__date_at_offset(const char *iso, int64_t off_s,
                          char out[HEED_DATE_ISO_MAX]);
/* iso, a UTC time as heed__parse_page_date writes it, of the instant
 * unix_s, as the same instant at the offset of the one civil zone where a
 * page in lang (BCP 47; may be NULL) is published, into out, when the
 * instant is that zone's midnight to the second ("2022-11-06T23:00:00Z"
 * on a German page is "2022-11-07T00:00:00+01:00"). False otherwise, and
 * when lang is spoken in several zones. */
bool heed__local_midnight(const char *iso, int64_t unix_s, const char *lang,
                          char out[HEED_DATE_ISO_MAX]);
/* ISO 8601 durations ("PT1H2M3S", "P1DT2H"), plain seconds ("754") and
 * clock times ("12:34", "1:02:03"). */
bool heed__parse_duration(const char *s, size_t len, int64_t *seconds);
/* A non-negative count: "1234", "1,234", "1.234.567", "1 234". */
bool heed__parse_count(const char *s, size_t len, int64_t *count);
/* "UserPlays:1234" and friends (schema.org's superseded interactionCount
 * strings), or a plain count. */
bool heed__parse_interaction_count(const char *s, size_t len, int64_t *n);
/* Trims ASCII white space (and control bytes) on both ends. Inline: the
 * HTML readers trim each text of a page, some twice. */
static inline void heed__trim(const char **s, size_t *len)
{
	while (*len && ((unsigned char)**s <= ' '))
		(*s)++, (*len)--;
	while (*len && ((unsigned char)(*s)[*len - 1] <= ' '))
		(*len)--;
}

/* charset.c */
/* The charset label in a Content-Type value ("utf-8"), or NULL; *len set. */
const char *heed__content_type_param(const char *ct, const char *param,
                                     size_t *len);
/* Converts body to UTF-8: charset from header_charset (may be NULL),
 * else BOM, else <meta> prescan, else UTF-8 if valid, else windows-1252.
 * NULs, C0 controls and invalid sequences become U+FFFD. *res and
 * *res_len get the result: body itself when it is already clean UTF-8
 * (not NUL-terminated then), else out's content. *used gets the charset
 * chosen (a static string). */
heed_status heed__to_utf8(struct heed_buf *out, const char *body, size_t len,
                          const char *header_charset, size_t hc_len,
                          const char **used, const char **res, size_t *res_len);
/* True when heed knows the charset label (so a header's label decides). */
bool heed__charset_known(const char *label, size_t len);
/* Replaces invalid UTF-8, NUL and C0 controls (but tab, LF, FF, CR). */
heed_status heed__utf8_sanitize(struct heed_buf *out, const char *s,
                                size_t len);

/* jsonld.c */
/* Parses one JSON-LD block and keeps it for heed__jsonld_apply().
 * declared: the script said application/ld+json, so a block that does
 * not parse is counted as an error (jsonld_errors); an untyped script
 * that is not JSON is not counted at all. */
void heed__jsonld_add(struct builder *b, const char *s, size_t len,
                      bool declared);
/* Offers the kept blocks' values, best typed object first, and frees them. */
void heed__jsonld_apply(struct builder *b);
/* How well a schema.org type (a name or its URL) describes the page: 0
 * a video or audio, 1 an article or another creative work, 2 a web
 * page, 3 an unknown type, -1 a supporting type (a person, a site, a
 * breadcrumb list) that never does. */
int heed__schema_rank(const char *type);

/* robots_meta.c: applies a <meta name=robots> content. */
void heed__robots_meta(struct heed_extract_robots *d, const char *s,
                       size_t len);

/* tag case folding for tags (ASCII, Latin-1, Greek, Cyrillic). */
size_t heed__fold_case(char *s, size_t len);

/*
 * An index of a table of up to 255 element names by a hash of a name's
 * length and its first and last bytes: a name is found with one look-up
 * and one compare, where a walk of the names by first letter cost a
 * compare for each name tried and branches no predictor guesses. Both
 * HTML readers look up every element's name (htmltree.c for the tree's
 * rules, html.c for the metadata's). slot[] holds an entry's index + 1,
 * 0 when empty; fill it once with heed__names_add(), then walk a name's
 * candidates:
 *
 *   for (unsigned k = heed__names_hash(n, len), i;
 *        (i = heed__names_next(&index, &k));)
 *           if (entry i - 1 is named n[0, len)) ...
 */
#define HEED_NAME_SLOTS 256
struct heed_names {
	unsigned char slot[HEED_NAME_SLOTS];
};

/* The first slot of the name n[0, len); len is at least 1. */
static inline unsigned heed__names_hash(const char *n, size_t len)
{
	return ((unsigned)len * 6u + (unsigned char)n[0] * 38u +
	        (unsigned char)n[len - 1] * 37u) &
	       (HEED_NAME_SLOTS - 1);
}

/* Adds entry i (below 255) named n[0, len) to x, which has a free slot. */
static inline void heed__names_add(struct heed_names *x, const char *n,
                                   size_t len, unsigned i)
{
	unsigned k = heed__names_hash(n, len);

	while (x->slot[k])
		k = (k + 1) & (HEED_NAME_SLOTS - 1);
	x->slot[k] = (unsigned char)(i + 1);
}

/* The entry at slot *k, plus 1, and *k moved to the next slot; 0 at an
 * empty slot, where the walk ends. */
static inline unsigned heed__names_next(const struct heed_names *x, unsigned *k)
{
	unsigned i = x->slot[*k];

	*k = (*k + 1) & (HEED_NAME_SLOTS - 1);
	return i;
}

/* html.c: the HTML handlers, fed by a driver (htmltree.c, or libxml2's
 * SAX parser in the unit tests) that balances elements: every start gets
 * its end, innermost first. Names and attribute names are lower-case;
 * atts is name/value pairs ending in NULL (NULL itself for none). */
struct html;
/* The handlers' state for b's page; *h is freed by heed__html_done(). */
heed_status heed__html_new(struct html **h, struct builder *b);
/* An element opens: its name (len bytes, lower case, NUL-terminated)
 * and its attributes (name, value, ..., NULL; a value may be NULL). */
void heed__html_start(struct html *h, const char *name, size_t len,
                      const char *const *atts);
/* The end of the innermost open element. */
void heed__html_end(struct html *h);
/* The link open at depth d (0 the root) stops being one while the
 * elements inside it stay open: a nested <a> has moved them out of it. */
void heed__html_link_ends(struct html *h, size_t d);
/* True when some capture wants decoded text (title, h1, itemprop). */
bool heed__html_wants_text(const struct html *h);
/* Character data, references decoded. */
void heed__html_text(struct html *h, const char *s, size_t len);
/* True when a JSON-LD script is open. */
bool heed__html_wants_raw(const struct html *h);
/* Script and style contents. */
void heed__html_raw(struct html *h, const char *s, size_t len);
/* Finishes what open elements captured, offers the lone h1, frees h
 * (NULL is fine). */
void heed__html_done(struct html *h);

/* htmltree.c: tokenizes sanitised UTF-8 (htmltok.c), balances the
 * elements and feeds the handlers. HEED_OK or HEED_ENOMEM. */
heed_status heed__html_parse(struct builder *b, const char *utf8, size_t len);

/* page.c: heed_extract_html() with another HTML driver (the tests' libxml2
 * one); parse is called once with the sanitised UTF-8 body. */
heed_status heed__extract_html_with(
        heed_page **out, const struct heed_extract_input *in,
        const struct heed_allocator *alloc, struct heed_diag *diag,
        heed_status (*parse)(struct builder *b, const char *utf8, size_t len));

#endif /* HEED_EXTRACT_INT_H */
