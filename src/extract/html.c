/*
 * The HTML handlers: what heed reads from the elements of a page, fed by a
 * driver through the event interface in extract-int.h (start, end, text,
 * raw text). The library's driver is htmltree.c over heed's own tokenizer
 * (htmltok.c); the unit tests also feed libxml2's SAX parser through a
 * driver of their own, to compare the two. Drivers balance elements, so
 * the handlers keep a plain explicit stack: memory is bounded and nothing
 * recurses over the document, 10,000-deep nesting costs a counter.
 *
 * What is read (docs/metadata.md has the precedence):
 * - <meta name|property=KEY content> for Open Graph, Twitter cards, Dublin
 *   Core and friends, keywords and robots directives;
 * - <title> (never one inside <svg> or <math>), a lone <h1>, <html lang>,
 *   <base href>, <link rel=canonical|next|prev|alternate>, <a href> and
 *   <area href> with rel=nofollow|ugc|sponsored|tag, <time datetime> (in
 *   an article, in main, anywhere) as the last published date;
 * - microdata: itemprop values on the outermost item, its author's name
 *   and its InteractionCounter;
 * - <script type="application/ld+json"> blocks, handed to jsonld.c.
 * Links inside media elements (video, audio, object, picture) are never
 * returned, nor are img/source/track/embed URLs, which are not links.
 */
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>

#include "extract/extract-int.h"

#define MAX_CAPTURES   8
#define MAX_PAGE_LINKS 8 /* author page links read for a name */
#define MAX_SCOPES     32
#define MAX_KEY        64
#define MAX_KICKER     48 /* a kicker line's bytes: a date, a section */

enum tag {
	T_OTHER,
	T_HTML,
	T_BODY,
	T_BASE,
	T_META,
	T_LINK,
	T_TITLE,
	T_H1,
	T_H2,
	T_HN,     /* h3, h4 */
	T_HMINOR, /* h5, h6: a page's small print, where bylines are set too */
	T_A,
	T_AREA,
	T_SCRIPT,
	T_FOREIGN,    /* svg, math */
	T_MEDIA,      /* video, audio, object, picture: links inside skipped */
	T_MEDIA_VOID, /* img, source, track, embed */
	T_TIME,
	T_DATA,    /* data, meter */
	T_ARTICLE, /* article: <time datetime> inside is the article's */
	T_MAIN,
	T_HEADER, /* header: a byline inside is the article's */
	T_ASIDE,  /* aside, nav: what is inside never dates or signs the page */
	T_FOOTER, /* footer: like aside, outside an article */
	T_P,      /* p: the article's first paragraphs may be "By X" lines */
	T_LI,     /* li: one item of a microdata keywords list */
	T_QUOTE,  /* blockquote: a quoted or embedded post, dated as its own */
	T_BOLD,   /* b, strong: a signature closing an article is set bold */
	T_BR,     /* br: a signature's name is a line before its date */
	T_CELL,   /* td, th: a table's cell, a row's data */
	T_DT,     /* dt: a term, its value in the <dd> after it */
	T_CODE,   /* pre, code: a program's text or output, an example */
	T_COUNT   /* the number of tags above */
};

enum cap_kind {
	CAP_TITLE,
	CAP_H1,
	CAP_HEADING, /* a later h1 or an h2: another word for the title */
	CAP_TAG_LINK,
	CAP_CATEGORY_LINK, /* rel="category tag": the post's section */
	CAP_PROP,
	CAP_JSONLD,
	CAP_AUTHOR_LINK,  /* <a rel=author>: its text names the author */
	CAP_BYLINE,       /* class=byline and friends: "By A and B" */
	CAP_DATE,         /* a date element whose text is the date */
	CAP_SCRIPT,       /* a script that may be schema.org JSON */
	CAP_LEAD,         /* one of the article's first paragraphs */
	CAP_AUTHOR_LABEL, /* an element whose text opens "Von", "Autor:" */
	CAP_SIGNATURE,    /* a paragraph: a name, bold or before its date */
	CAP_BIO,          /* an author box's bio: the full name opening it */
	CAP_MORE_FROM,    /* a sidebar's heading: "Mehr von Ann Lee" */
	CAP_PAGE_LINK,    /* a link to an author's page: the name it shows */
	CAP_ACCOUNT,      /* a forum's or a CMS's shown username */
	CAP_POST_COMMENT, /* the name on a comment by the post's author */
	CAP_SOURCE,       /* a source line: "Quelle: kathpress" */
	CAP_LICENSOR,     /* a licence's attribution link: who to credit */
	CAP_MASTHEAD,     /* the masthead's home link: the site's name */
	CAP_TEASER_DATE,  /* a date element in a teaser: see teaser_date */
};

struct capture {
	enum cap_kind kind;
	size_t depth;     /* element depth that ends the capture */
	const char *prop; /* CAP_PROP: the itemprop name; CAP_PAGE_LINK: the
	                   * account in the link's path (arena) */
	size_t scope;     /* CAP_PROP: scopes open at the element */
	enum field field; /* CAP_DATE: published or modified */
	int sub;          /* CAP_DATE: the sub-rank of its date */
	bool past;        /* CAP_BYLINE: read past a better author, for the
	                   * list of names that author opens */
	bool plain;       /* CAP_SIGNATURE: some of its text is not bold */
	bool inner;       /* CAP_BYLINE, CAP_AUTHOR_LINK: inside the byline
	                   * being read; CAP_MASTHEAD: inside a heading */
	bool gap;         /* CAP_DATE: an element began or ended since its
	                   * last text */
	struct heed_buf text;
};

/* An item (itemscope) being read. */
struct scope {
	const char *prop; /* the itemprop that opened it, or NULL */
	bool article;     /* the page's article inside a WebPage item */
	bool view_type;   /* interactionType is a Watch/View/Listen action */
	bool has_count;
	int64_t count; /* a pending userInteractionCount */
};

struct el {
	unsigned char tag;
	bool scope; /* opened an itemscope */
	bool aside; /* opened an area that is not the page's own */
	bool edit;  /* opened a line that tells of an edit */
	bool site;  /* opened the site's header (outside article and main) */
	bool foot;  /* opened the site's footer by its class or id */
};

/* What a date's label says of its date, beyond the field it gives. */
enum label_kind {
	LABEL_PLAIN,  /* "Published on", "Updated" */
	LABEL_ASOF,   /* "Stand": the page's present state, as of a day */
	LABEL_LATEST, /* "Last updated": the latest of the file's revisions */
	LABEL_PAGE,   /* "This page last modified on": the file's stamp */
};

/* twitter:labelN / twitter:dataN pairs kept until both are seen. */
#define MAX_TWITTER_DATA 4

struct html {
	struct builder *b;
	struct el *stack;
	size_t depth; /* elements open, including those past the stack */
	unsigned foreign, media;
	unsigned article, main; /* open article and main elements */
	unsigned header;        /* open header elements */
	unsigned site_header;   /* open headers outside article and main */
	unsigned aside;         /* open asides, comments, related lists */
	unsigned edit;          /* open "edited"/"updated" lines */
	unsigned site_footer;   /* open footers outside article and main */
	unsigned quote;         /* open blockquotes */
	unsigned code;          /* open pre and code elements */
	bool webpage_item;      /* the outermost item is a WebPage */
	bool article_item_seen; /* the page's article item was found */
	bool article_closed;    /* the page's first article has closed */
	bool h1_outside;        /* an h1 was outside any article and header */
	bool article_listed;    /* the open article came after that h1 */
	bool icon_date;         /* a calendar icon's date is the next text */
	int icon_sub;           /* that date's sub-rank */
	bool written_by[MAX_TWITTER_DATA]; /* twitter:labelN "Written by" */
	const char *twitter_data[MAX_TWITTER_DATA];
	bool byline_done;         /* the first byline was read */
	bool byline_page_done;    /* the first outside the article was read */
	bool byline_past_done;    /* the first past a better author was read */
	bool inner_byline_read;   /* a byline inside the one read was read */
	const char *inner_names;  /* the names it gave (arena) */
	bool bio_done;            /* the first author's bio was read */
	unsigned page_links;      /* author page links read for a name */
	bool page_link_done;      /* one of them named the author */
	bool account_done;        /* a shown username named someone */
	size_t author_link_box;   /* 1 + the depth of the element two levels
	                           * around the first rel=author link, or 0 */
	bool author_links_closed; /* that element has closed */
	size_t post_comment;      /* 1 + the depth of the open comment by the
	                           * post's author, or 0 */
	bool post_comment_seen;   /* an element in it showed a name */
	bool post_comment_done;   /* such a comment named its author */
	size_t self_item;         /* 1 + the depth of the list item,
	                           * article or paragraph that links to the
	                           * page itself, or 0 */
	bool self_item_done;      /* such an item's date was read */
	bool after_author_link;   /* a rel=author link closed and no text
	                           * has shown since */
	const char *self_seg;     /* the last segment of the page's path */
	size_t self_seg_len;      /* its length, 0 when none */
	bool self_seg_known;      /* self_seg was looked for */
	unsigned date_lines;      /* meta and info lines read for a date */
	bool label_pending;       /* a label's value is the next text */
	enum field label_field;   /* what the pending label gives */
	enum label_kind label_kind; /* what the pending label dates */
	bool label_contact;         /* the pending label is a press contact's */
	bool label_term;   /* the pending author's label is a <dt> of its own */
	bool edit_value;   /* the last text was an edit label's value */
	bool contact_done; /* a press contact's label was read */
	bool label_author_done; /* a label named the author */
	bool term_author;       /* a <dt> of its own named the author */
	bool source_done;       /* a source line was read */
	bool licence_link; /* a licence's link opened; the text after it next */
	bool masthead_done;       /* the masthead named the site */
	const char *masthead_alt; /* the alt of the home link's logo (arena) */
	bool keywords_done;       /* a key words label was read */
	bool text_opens;          /* no text yet since the last tag opened */
	uint32_t cls_letters;     /* the opening element's class's letters */
	/* The length of the date opening date_s[0, date_len) in the text
	 * being read (text_date_len), or date_s NULL. */
	const char *date_s;
	size_t date_len, date_n;
	int handle_rank;        /* heed__handle_rank(), asked once */
	unsigned link_heading;  /* open links and headings */
	unsigned minor_heading; /* open h5 and h6, among link_heading */
	unsigned leads;         /* paragraphs of the article read as leads */
	unsigned bold;          /* open b and strong elements */
	size_t para_parent;     /* the element holding the last paragraph */
	unsigned paras;         /* its paragraphs with text so far */
	const char *signature;  /* a bold name closing paragraphs (arena) */
	size_t signature_depth; /* the element that holds it */
	struct scope scopes[MAX_SCOPES];
	size_t nscopes; /* open, including those past MAX_SCOPES */
	struct capture caps[MAX_CAPTURES];
	size_t ncaps;
	bool title_done;
	bool feed_named;   /* a feed link's title gave the site's name */
	unsigned headings; /* heading captures started (nested ones too) */
	const char *h1;
	/* The opening element's href (NULL when it has none) and its rel
	 * types: read in the one walk over its attributes (common_attrs),
	 * since every link asks for both. Valid while the element opens
	 * only: href points into the tokenizer's buffer. */
	const char *href;
	unsigned rel;
	/* tag_count()'s count of the tags it keeps none of */
	unsigned uncounted;
	/* The date opening the last text read, when that text was a kicker
	 * line (kicker_text), for the headline that may follow it: see
	 * kicker_date. kicker_len is 0 when there is none. */
	char kicker[MAX_KICKER];
	size_t kicker_len;
	/* The outermost aside open is a teaser (its class names a teaser
	 * and no other aside); and the date its first date element showed,
	 * kept with its sub-rank until an <h1> opens in it (teaser_lead,
	 * after which no teaser is read). */
	bool teaser;
	bool teaser_lead_done;
	char teaser_day[MAX_KICKER];
	size_t teaser_day_len;
	int teaser_sub;
};

/* strcmp() for the short names of tags and attributes, without a call. */
static bool same(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

/* The elements the handlers know. */
static const struct {
	const char *name;
	unsigned char len, tag;
} known_tags[] = {
        {"a", 1, T_A},
        {"area", 4, T_AREA},
        {"audio", 5, T_MEDIA},
        {"article", 7, T_ARTICLE},
        {"aside", 5, T_ASIDE},
        {"base", 4, T_BASE},
        {"body", 4, T_BODY},
        {"blockquote", 10, T_QUOTE},
        {"code", 4, T_CODE},
        {"b", 1, T_BOLD},
        {"br", 2, T_BR},
        {"data", 4, T_DATA},
        {"dt", 2, T_DT},
        {"embed", 5, T_MEDIA_VOID},
        {"footer", 6, T_FOOTER},
        {"h1", 2, T_H1},
        {"html", 4, T_HTML},
        {"header", 6, T_HEADER},
        {"h2", 2, T_H2},
        {"h3", 2, T_HN},
        {"h4", 2, T_HN},
        {"h5", 2, T_HMINOR},
        {"h6", 2, T_HMINOR},
        {"img", 3, T_MEDIA_VOID},
        {"link", 4, T_LINK},
        {"li", 2, T_LI},
        {"meta", 4, T_META},
        {"math", 4, T_FOREIGN},
        {"meter", 5, T_DATA},
        {"main", 4, T_MAIN},
        {"nav", 3, T_ASIDE},
        {"object", 6, T_MEDIA},
        {"picture", 7, T_MEDIA},
        {"p", 1, T_P},
        {"pre", 3, T_CODE},
        {"script", 6, T_SCRIPT},
        {"source", 6, T_MEDIA_VOID},
        {"svg", 3, T_FOREIGN},
        {"strong", 6, T_BOLD},
        {"title", 5, T_TITLE},
        {"time", 4, T_TIME},
        {"track", 5, T_MEDIA_VOID},
        {"td", 2, T_CELL},
        {"th", 2, T_CELL},
        {"video", 5, T_MEDIA},
};

/* known_tags by their names' hash, filled once by word_lists_init(). */
static struct heed_names tag_index;

_Static_assert(HEED_ARRAY_SIZE(known_tags) < HEED_NAME_SLOTS,
               "the tag index needs an empty slot");

static void tag_index_init(void)
{
	for (size_t i = 0; i < HEED_ARRAY_SIZE(known_tags); i++)
		heed__names_add(&tag_index, known_tags[i].name,
		                known_tags[i].len, (unsigned)i);
}

static enum tag tag_of(const char *n, size_t len)
{
	if (!len)
		return T_OTHER;
	for (unsigned k = heed__names_hash(n, len), i;
	     (i = heed__names_next(&tag_index, &k));) {
		const char *known = known_tags[i - 1].name;
		size_t at = 0;
		if (known_tags[i - 1].len != len)
			continue;
		/* A loop, not memcmp(): names are a few bytes long. */
		while (at < len && known[at] == n[at])
			at++;
		if (at == len)
			return (enum tag)known_tags[i - 1].tag;
	}
	return T_OTHER;
}

/* The first value of attribute name (drivers give lower-cased names);
 * NULL when absent. A present attribute without a value is "". */
static const char *attr(const char *const *atts, const char *name)
{
	for (size_t i = 0; atts && atts[i]; i += 2)
		if (same(atts[i], name))
			return atts[i + 1] ? atts[i + 1] : "";
	return NULL;
}

/* HTML's ASCII whitespace, which separates a list's tokens. */
static bool list_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

/* The next token of a space-separated list (a class or rel value) at
 * *p: its start, its length in *n, and *p moved past it; NULL when the
 * list holds no more. Every walk over a class's tokens goes through it. */
static const char *next_token(const char **p, size_t *n)
{
	const char *t = *p, *e;

	/* Loops, not strspn() and strcspn(): tokens are a few bytes long,
	 * and the calls' set-up cost more than the walk. */
	while (list_space(*t))
		t++;
	for (e = t; *e && !list_space(*e); e++)
		;
	*n = (size_t)(e - t);
	*p = e;
	return *n ? t : NULL;
}

/* True when the space-separated list has token (ASCII case-insensitive). */
static bool has_token(const char *list, const char *token)
{
	size_t tlen = strlen(token), n;

	for (const char *p = list ? list : "", *t; (t = next_token(&p, &n));)
		if (n == tlen && heed__ascii_ieq(t, n, token))
			return true;
	return false;
}

/* The bit of byte c in a letters_of() set: 0 for any but a letter. */
#define LETTER_BIT(c) \
	((unsigned)(((c) | 32) - 'a') < 26 ? 1u << (((c) | 32) - 'a') : 0u)

/* The ASCII letters s holds, in either case, as bits 0 ('a') to 25. */
static uint32_t letters_of(const char *s)
{
	uint32_t bits = 0;

	for (; *s; s++)
		bits |= LETTER_BIT((unsigned char)*s);
	return bits;
}

/* letters_of() of a string literal, in an expression the compiler
 * folds to a constant. Bytes past the twenty-fourth are left out, which
 * only makes a screen by them let more through; LETTER_OF() wants them
 * all. */
#define LITERAL_LETTER(s, i)                                                  \
	(sizeof(s) - 1 > (i) ? LETTER_BIT((s)[sizeof(s) - 1 > (i) ? (i) : 0]) \
	                     : 0u)
#define LITERAL_LETTERS(s)                                                    \
	(LITERAL_LETTER(s, 0) | LITERAL_LETTER(s, 1) | LITERAL_LETTER(s, 2) | \
	 LITERAL_LETTER(s, 3) | LITERAL_LETTER(s, 4) | LITERAL_LETTER(s, 5) | \
	 LITERAL_LETTER(s, 6) | LITERAL_LETTER(s, 7) | LITERAL_LETTER(s, 8) | \
	 LITERAL_LETTER(s, 9) | LITERAL_LETTER(s, 10) |                       \
	 LITERAL_LETTER(s, 11) | LITERAL_LETTER(s, 12) |                      \
	 LITERAL_LETTER(s, 13) | LITERAL_LETTER(s, 14) |                      \
	 LITERAL_LETTER(s, 15) | LITERAL_LETTER(s, 16) |                      \
	 LITERAL_LETTER(s, 17) | LITERAL_LETTER(s, 18) |                      \
	 LITERAL_LETTER(s, 19) | LITERAL_LETTER(s, 20) |                      \
	 LITERAL_LETTER(s, 21) | LITERAL_LETTER(s, 22) |                      \
	 LITERAL_LETTER(s, 23))

/* strchr(set, c) for set, a string literal of at most 24 letters, in
 * either case: one test of a constant mask where the call cost more than
 * the texts it screens (it runs on most texts of a page). */
#define LETTER_OF(c, set) \
	((LETTER_BIT((unsigned char)(c)) & LITERAL_LETTERS(set)) != 0)

/* strstr(cls, part) for the class of the element opening (its letters
 * in h->cls_letters), part a string literal: a part with a letter the
 * class lacks is refused by its letters, a constant. Each element with a
 * class is screened for some twenty parts, most of which it cannot hold
 * ("card c12" no "date"), and the screens were a sixth of a listing
 * page's extraction. */
#define CLASS_HAS(h, cls, part)                              \
	((LITERAL_LETTERS(part) & ~(h)->cls_letters) == 0 && \
	 strstr((cls), (part)) != NULL)

/* The link types (rel values) heed acts on, as bits of rel_types(). */
enum rel_type {
	REL_ALTERNATE = 1 << 0,
	REL_AUTHOR = 1 << 1,
	REL_CANONICAL = 1 << 2,
	REL_CATEGORY = 1 << 3,
	REL_CC_ATTRIBUTION = 1 << 4,
	REL_IMAGE_SRC = 1 << 5,
	REL_LICENSE = 1 << 6,
	REL_NEXT = 1 << 7,
	REL_NOFOLLOW = 1 << 8,
	REL_PREV = 1 << 9,
	REL_SPONSORED = 1 << 10,
	REL_TAG = 1 << 11,
	REL_UGC = 1 << 12,
	REL_HOME = 1 << 13,
};

/* The link types a rel value lists (ASCII case-insensitive), in one walk
 * over its tokens: an anchor asks about up to eight of them, and a walk
 * for each was a tenth of a listing page's extraction. NULL: none. */
static unsigned rel_types(const char *rel)
{
#define REL_TYPE(s, bit)              \
	{                             \
		s, sizeof(s) - 1, bit \
	}
	static const struct {
		const char *name; /* lower case */
		size_t len;
		unsigned bit;
	} types[] = {
	        /* The types most links carry first, two heed ignores among
	         * them: the walk stops at a type's match. */
	        REL_TYPE("tag", REL_TAG),
	        REL_TYPE("nofollow", REL_NOFOLLOW),
	        REL_TYPE("noopener", 0),
	        REL_TYPE("noreferrer", 0),
	        REL_TYPE("author", REL_AUTHOR),
	        REL_TYPE("alternate", REL_ALTERNATE),
	        REL_TYPE("canonical", REL_CANONICAL),
	        REL_TYPE("category", REL_CATEGORY),
	        REL_TYPE("cc:attributionurl", REL_CC_ATTRIBUTION),
	        REL_TYPE("image_src", REL_IMAGE_SRC),
	        REL_TYPE("license", REL_LICENSE),
	        REL_TYPE("next", REL_NEXT),
	        REL_TYPE("prev", REL_PREV),
	        REL_TYPE("previous", REL_PREV),
	        REL_TYPE("sponsored", REL_SPONSORED),
	        REL_TYPE("ugc", REL_UGC),
	        REL_TYPE("home", REL_HOME),
	};
#undef REL_TYPE
	unsigned bits = 0;
	size_t n;

	if (!rel)
		return 0;
	/* The length first, and the compare in place: a listing's every
	 * card has its rel=tag link, and a call a type tried showed. */
	for (const char *p = rel, *t; (t = next_token(&p, &n));)
		for (size_t i = 0; i < HEED_ARRAY_SIZE(types); i++) {
			size_t k = 0;
			if (types[i].len != n)
				continue;
			while (k < n &&
			       heed__ascii_lower(t[k]) == types[i].name[k])
				k++;
			if (k == n) {
				bits |= types[i].bit;
				break;
			}
		}
	return bits;
}

/* The last path segment of a schema.org type or action URL. */
static const char *schema_name(const char *s)
{
	const char *slash = strrchr(s, '/');

	return slash ? slash + 1 : s;
}

/* The new capture, or NULL when MAX_CAPTURES are open. */
static struct capture *start_capture(struct html *h, enum cap_kind kind,
                                     const char *prop)
{
	struct capture *c;

	if (h->ncaps == MAX_CAPTURES)
		return NULL;
	c = &h->caps[h->ncaps++];
	c->kind = kind;
	c->depth = h->depth + 1; /* the element about to be pushed */
	c->prop = prop;
	c->scope = h->nscopes;
	c->field = F_PUBLISHED;
	c->sub = 0;
	c->past = false;
	c->plain = false;
	c->inner = false;
	c->gap = false;
	/* The slot keeps its buffer from the captures before: most pages
	 * open one per paragraph, and an allocation apiece showed. */
	heed__buf_reset(&c->text);
	c->text.max_bytes = kind == CAP_JSONLD || kind == CAP_SCRIPT
	                            ? EXTRACT_MAX_JSONLD
	                            : EXTRACT_MAX_TEXT;
	return c;
}

enum meta_action {
	M_FIELD,
	M_TAGS,
	M_ROBOTS,
	M_AUTHOR_OG,
	M_SITE,
	M_OG_TITLE,
	M_TWITTER_LABEL,
	M_TWITTER_DATA,
};

static const struct meta_key {
	const char *key;
	enum meta_action action;
	enum field field;
	enum origin origin;
	int sub;
} meta_keys[] = {
        {"og:title", M_OG_TITLE, F_TITLE, O_OG, 0},
        {"twitter:title", M_FIELD, F_TITLE, O_TWITTER, 0},
        {"dc.title", M_FIELD, F_TITLE, O_DC, 0},
        {"dcterms.title", M_FIELD, F_TITLE, O_DC, 0},
        {"citation_title", M_FIELD, F_TITLE, O_DC, 1},
        {"parsely-title", M_FIELD, F_TITLE, O_DC, 2},
        {"sailthru.title", M_FIELD, F_TITLE, O_DC, 2},
        {"headline", M_FIELD, F_TITLE, O_DC, 3},
        {"og:description", M_FIELD, F_DESCRIPTION, O_OG, 0},
        {"twitter:description", M_FIELD, F_DESCRIPTION, O_TWITTER, 0},
        {"description", M_FIELD, F_DESCRIPTION, O_META, 0},
        {"dc.description", M_FIELD, F_DESCRIPTION, O_DC, 0},
        {"dcterms.description", M_FIELD, F_DESCRIPTION, O_DC, 0},
        {"dcterms.abstract", M_FIELD, F_DESCRIPTION, O_DC, 1},
        {"sailthru.description", M_FIELD, F_DESCRIPTION, O_DC, 2},
        {"author", M_FIELD, F_AUTHOR, O_META, 0},
        {"byl", M_FIELD, F_AUTHOR, O_META, 1},
        {"article:author", M_AUTHOR_OG, F_AUTHOR, O_OG, 0},
        {"og:article:author", M_AUTHOR_OG, F_AUTHOR, O_OG, 0},
        {"dc.creator", M_FIELD, F_AUTHOR, O_DC, 0},
        {"dcterms.creator", M_FIELD, F_AUTHOR, O_DC, 0},
        {"citation_author", M_FIELD, F_AUTHOR, O_DC, 1},
        /* Dublin Core's contributor is any hand in the work (editors
         * too): a journal that names its authors only so is credited,
         * after a creator. */
        {"dc.contributor", M_FIELD, F_AUTHOR, O_DC, 3},
        {"dcterms.contributor", M_FIELD, F_AUTHOR, O_DC, 3},
        {"parsely-author", M_FIELD, F_AUTHOR, O_DC, 2},
        {"sailthru.author", M_FIELD, F_AUTHOR, O_DC, 2},
        {"shareaholic:article_author_name", M_FIELD, F_AUTHOR, O_DC, 2},
        {"twitter:creator", M_FIELD, F_AUTHOR, O_TWITTER, 0},
        {"twitter:label1", M_TWITTER_LABEL, F_AUTHOR, O_META, 0},
        {"twitter:label2", M_TWITTER_LABEL, F_AUTHOR, O_META, 1},
        {"twitter:label3", M_TWITTER_LABEL, F_AUTHOR, O_META, 2},
        {"twitter:label4", M_TWITTER_LABEL, F_AUTHOR, O_META, 3},
        {"twitter:data1", M_TWITTER_DATA, F_AUTHOR, O_META, 0},
        {"twitter:data2", M_TWITTER_DATA, F_AUTHOR, O_META, 1},
        {"twitter:data3", M_TWITTER_DATA, F_AUTHOR, O_META, 2},
        {"twitter:data4", M_TWITTER_DATA, F_AUTHOR, O_META, 3},
        {"og:url", M_FIELD, F_CANONICAL, O_OG, 0},
        {"twitter:url", M_FIELD, F_CANONICAL, O_TWITTER, 0},
        {"og:locale", M_FIELD, F_LANGUAGE, O_OG, 0},
        {"content-language", M_FIELD, F_LANGUAGE, O_META, 0},
        {"dc.language", M_FIELD, F_LANGUAGE, O_META, 1},
        {"language", M_FIELD, F_LANGUAGE, O_META, 2},
        {"article:published_time", M_FIELD, F_PUBLISHED, O_OG, 0},
        {"og:article:published_time", M_FIELD, F_PUBLISHED, O_OG, 0},
        {"video:release_date", M_FIELD, F_PUBLISHED, O_OG, 1},
        {"og:published_time", M_FIELD, F_PUBLISHED, O_OG, 2},
        {"dc.date.issued", M_FIELD, F_PUBLISHED, O_DC, 0},
        {"dcterms.issued", M_FIELD, F_PUBLISHED, O_DC, 0},
        {"citation_publication_date", M_FIELD, F_PUBLISHED, O_DC, 1},
        {"citation_date", M_FIELD, F_PUBLISHED, O_DC, 2},
        {"bepress_citation_date", M_FIELD, F_PUBLISHED, O_DC, 2},
        {"dcterms.created", M_FIELD, F_PUBLISHED, O_DC, 2},
        {"dc.date", M_FIELD, F_PUBLISHED, O_DC, DC_SUB_DATE},
        {"dcterms.date", M_FIELD, F_PUBLISHED, O_DC, DC_SUB_DATE},
        {"parsely-pub-date", M_FIELD, F_PUBLISHED, O_DC, 4},
        {"sailthru.date", M_FIELD, F_PUBLISHED, O_DC, 4},
        {"shareaholic:article_published_time", M_FIELD, F_PUBLISHED, O_DC, 4},
        {"pubdate", M_FIELD, F_PUBLISHED, O_DC, 5},
        {"publish-date", M_FIELD, F_PUBLISHED, O_DC, 5},
        {"publishdate", M_FIELD, F_PUBLISHED, O_DC, 5},
        {"publication_date", M_FIELD, F_PUBLISHED, O_DC, 5},
        {"sw-pubdate", M_FIELD, F_PUBLISHED, O_DC, 5},
        {"date", M_FIELD, F_PUBLISHED, O_DC, DC_SUB_BARE_DATE},
        {"article:modified_time", M_FIELD, F_MODIFIED, O_OG, 0},
        {"og:article:modified_time", M_FIELD, F_MODIFIED, O_OG, 0},
        {"og:updated_time", M_FIELD, F_MODIFIED, O_OG, 1},
        {"dcterms.modified", M_FIELD, F_MODIFIED, O_DC, 0},
        {"last-modified", M_FIELD, F_MODIFIED, O_DC, 1},
        {"shareaholic:article_modified_time", M_FIELD, F_MODIFIED, O_DC, 2},
        {"og:image:secure_url", M_FIELD, F_THUMBNAIL, O_OG, 0},
        {"og:image:url", M_FIELD, F_THUMBNAIL, O_OG, 1},
        {"og:image", M_FIELD, F_THUMBNAIL, O_OG, 2},
        {"twitter:image:src", M_FIELD, F_THUMBNAIL, O_TWITTER, 0},
        {"twitter:image", M_FIELD, F_THUMBNAIL, O_TWITTER, 1},
        {"og:type", M_FIELD, F_OG_TYPE, O_OG, 0},
        {"og:site_name", M_SITE, F_SITE_NAME, O_OG, 0},
        {"application-name", M_SITE, F_SITE_NAME, O_META, 1},
        {"publisher", M_FIELD, F_PUBLISHER, O_META, 0},
        {"dc.publisher", M_FIELD, F_PUBLISHER, O_META, 2},
        {"dcterms.publisher", M_FIELD, F_PUBLISHER, O_META, 2},
        {"citation_publisher", M_FIELD, F_PUBLISHER, O_META, 2},
        {"video:duration", M_FIELD, F_DURATION, O_OG, 0},
        {"og:video:duration", M_FIELD, F_DURATION, O_OG, 1},
        {"keywords", M_TAGS, F_COUNT, O_META, 0},
        {"news_keywords", M_TAGS, F_COUNT, O_META, 0},
        {"article:tag", M_TAGS, F_COUNT, O_OG, 0},
        {"video:tag", M_TAGS, F_COUNT, O_OG, 0},
        {"og:video:tag", M_TAGS, F_COUNT, O_OG, 0},
        {"book:tag", M_TAGS, F_COUNT, O_OG, 0},
        {"citation_keywords", M_TAGS, F_COUNT, O_DC, 0},
        {"dc.subject", M_TAGS, F_COUNT, O_DC, 0},
        {"dcterms.subject", M_TAGS, F_COUNT, O_DC, 0},
        {"parsely-tags", M_TAGS, F_COUNT, O_DC, 0},
        {"shareaholic:keywords", M_TAGS, F_COUNT, O_DC, 0},
        {"robots", M_ROBOTS, F_COUNT, O_META, 0},
};

/* "Name (@handle) on X: ..." (a post's og:title on X, Twitter and their
 * kin): the post's author is Name. */
static void social_post_author(struct builder *b, const char *t)
{
	const char *h = strstr(t, " (@"), *close;

	if (!h || h == t || !(close = strstr(h, ") on ")) ||
	    memchr(h + 3, ' ', (size_t)(close - h - 3)))
		return;
	heed__cand(b, F_AUTHOR, O_OG, 1, t, (size_t)(h - t));
}

/* twitter:labelN "Written by" names twitter:dataN as the author. */
static void twitter_pair(struct html *h, const struct meta_key *k,
                         const char *content)
{
	size_t i = (size_t)k->sub, n = strlen(content);
	const char *d;

	heed__trim(&content, &n);
	if (k->action == M_TWITTER_LABEL)
		h->written_by[i] = heed__ascii_ieq(content, n, "written by");
	else
		h->twitter_data[i] = heed__strdup_arena(h->b, content, n);
	d = h->twitter_data[i];
	if (h->written_by[i] && d) {
		heed__author_add(h->b, O_META, 2, d, strlen(d));
		h->written_by[i] = false;
	}
}

static void apply_meta(struct html *h, const struct meta_key *k,
                       const char *content)
{
	size_t len = strlen(content);

	switch (k->action) {
	case M_FIELD:
		if (k->field == F_AUTHOR)
			heed__author_add(h->b, k->origin, k->sub, content, len);
		else
			heed__cand(h->b, k->field, k->origin, k->sub, content,
			           len);
		if (k->field == F_TITLE && k->origin == O_DC)
			heed__title_text_seen(h->b, content, len, true);
		break;
	case M_AUTHOR_OG: /* often a profile URL, which the author check
	                   * refuses */
		heed__cand(h->b, k->field, k->origin, k->sub, content, len);
		break;
	case M_OG_TITLE:
		heed__cand(h->b, F_TITLE, O_OG, 0, content, len);
		social_post_author(h->b, content);
		break;
	case M_TWITTER_LABEL:
	case M_TWITTER_DATA:
		twitter_pair(h, k, content);
		break;
	case M_SITE: /* the site's name, and who publishes it */
		heed__site_name_seen(h->b, content, len);
		heed__cand(h->b, F_SITE_NAME, k->origin, k->sub, content, len);
		heed__cand(h->b, F_PUBLISHER, k->origin, k->sub, content, len);
		break;
	case M_TAGS:
		heed__tags(h->b, k->origin, content, len, true);
		break;
	case M_ROBOTS:
		heed__robots_meta(&h->b->robots, content, len);
		break;
	}
}

static void on_meta(struct html *h, const char *const *atts)
{
	const char *key = attr(atts, "property"), *content;
	char lower[MAX_KEY];
	size_t n;

	if (!key || !*key)
		key = attr(atts, "name");
	if (!key || !*key)
		key = attr(atts, "http-equiv");
	content = attr(atts, "content");
	if (!key || !content)
		return;
	n = strlen(key);
	if (n >= MAX_KEY)
		return;
	for (size_t i = 0; i <= n; i++)
		lower[i] = heed__ascii_lower(key[i]);
	/* "DC:date", "dcterms:created": Dublin Core with a colon. */
	if (strncmp(lower, "dc:", 3) == 0)
		lower[2] = '.';
	else if (strncmp(lower, "dcterms:", 8) == 0)
		lower[7] = '.';
	/* <meta name=AGENT>: the robots directives for us alone. */
	if (h->b->agent && strcmp(lower, "robots") != 0 &&
	    heed__ascii_ieq(key, n, h->b->agent)) {
		heed__robots_meta(&h->b->robots, content, strlen(content));
		return;
	}
	for (size_t i = 0; i < HEED_ARRAY_SIZE(meta_keys); i++)
		if (lower[0] == meta_keys[i].key[0] &&
		    strcmp(lower, meta_keys[i].key) == 0) {
			apply_meta(h, &meta_keys[i], content);
			return;
		}
}

/* A type that marks a <link rel=alternate> as a feed: RSS, Atom, or JSON
 * Feed (jsonfeed.org 1.1, "Discovery"). */
static bool feed_type(const char *type)
{
	static const char *const types[] = {"application/rss+xml",
	                                    "application/atom+xml",
	                                    "application/feed+json"};
	size_t n = type ? strlen(type) : 0;

	for (size_t i = 0; type && i < HEED_ARRAY_SIZE(types); i++)
		if (heed__ascii_ieq(type, n, types[i]))
			return true;
	return false;
}

/* <link rel=alternate type=application/json+oembed> (or text/xml+oembed):
 * the page's oEmbed endpoint, kept apart from its links (it is read as a
 * metadata source, never followed as a page). The first of each format
 * counts. true when type names an oEmbed format. */
static bool oembed_link(struct builder *b, const char *type, const char *href)
{
	size_t n = strlen(type);
	heed_oembed_format f;

	heed__trim(&type, &n);
	if (heed__ascii_ieq(type, n, "application/json+oembed"))
		f = HEED_OEMBED_JSON;
	else if (heed__ascii_ieq(type, n, "text/xml+oembed"))
		f = HEED_OEMBED_XML;
	else
		return false;
	if (!b->oembed_raw[f])
		b->oembed_raw[f] = heed__strdup_arena(b, href, strlen(href));
	return true;
}

/*
 * A feed link's title names the site when the page names it nowhere
 * else: "Python Insider - Atom" (Blogger), "jovelblog RSS Feed" and
 * "Site » Feed" (WordPress). Only a title that ends in such a feed word
 * counts; a comments feed ("Site » Post Kommentar-Feed") and a bare
 * format ("RSS 2.0") name nothing. It ranks after every other source.
 */
static void feed_name(struct html *h, const char *t)
{
	static const char *const tails[] = {
	        " - Atom",        " - RSS", " RSS Feed", " Atom Feed",
	        " \xC2\xBB Feed", " Feed",  " RSS",      " Atom"};
	size_t len = t ? strlen(t) : 0, cut = 0;

	if (!len || h->feed_named || strstr(t, "omment") || strstr(t, "OMMENT"))
		return;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(tails) && !cut; i++) {
		size_t n = strlen(tails[i]);
		if (len > n && heed__ascii_ieq(t + len - n, n, tails[i]))
			cut = n;
	}
	len -= cut;
	heed__trim(&t, &len);
	if (!cut || !len)
		return;
	h->feed_named = true;
	heed__cand(h->b, F_SITE_NAME, O_LINK, 0, t, len);
	heed__cand(h->b, F_PUBLISHER, O_LINK, 0, t, len);
}

static void on_link(struct html *h, const char *const *atts)
{
	const char *href = h->href, *type;
	unsigned types = h->rel;
	bool nofollow;

	/* A link of no type heed knows does nothing below. */
	if (!types || !href || h->foreign || h->media)
		return;
	type = attr(atts, "type");
	/* The page's image for sharing (resolved, never fetched). */
	if (types & REL_IMAGE_SRC) {
		heed__cand(h->b, F_THUMBNAIL, O_LINK, 0, href, strlen(href));
		return;
	}
	if (types & REL_CANONICAL) {
		struct builder *b = h->b;
		if (!b->canonical_raw)
			b->canonical_raw =
			        heed__strdup_arena(b, href, strlen(href));
		else if (strcmp(b->canonical_raw, href) != 0)
			b->canonical_conflict = true;
		return;
	}
	if (type && (types & REL_ALTERNATE) && oembed_link(h->b, type, href))
		return;
	/* A book's chunks link its home chunk by its file name (DocBook's
	 * "index.html"); a site's home link ("/") is titled as a slogan
	 * ("taz.de - Schlagzeilen") or "Home" as often as by its name. */
	if (types & REL_HOME) {
		const char *t = attr(atts, "title");
		if (t && !h->b->home_title && !strpbrk(href, "/:"))
			h->b->home_title = heed__collapse(
			        &h->b->arena, t, strlen(t), &h->b->oom);
		return;
	}
	nofollow = types & REL_NOFOLLOW;
	if (types & REL_NEXT)
		heed__add_link(h->b, href, "next", nofollow, false);
	else if (types & REL_PREV)
		heed__add_link(h->b, href, "prev", nofollow, false);
	else if (types & REL_ALTERNATE) {
		heed__add_link(h->b, href, "alternate", nofollow,
		               feed_type(type));
		if (feed_type(type))
			feed_name(h, attr(atts, "title"));
	}
}

/* A heading past the first h1: its text may be the title that <title>
 * carries with more around it. A sidebar's headings are not. */
static void heading(struct html *h)
{
	/* Counted when started, so a thousand nested headings take no more
	 * captures than six. */
	if (!h->foreign && !h->aside && h->headings < EXTRACT_MAX_TITLE_TEXTS) {
		h->headings++;
		start_capture(h, CAP_HEADING, NULL);
	}
}

/* True when the path href[0, n) has a "/category/" or "/categories/"
 * segment. From slash to slash, each found by memchr(): a memmem() had
 * a set-up that cost more than the short paths of tag links. */
static bool category_path(const char *href, size_t n)
{
	const char *end = href + n;

	for (const char *p = memchr(href, '/', n); p;
	     p = memchr(p + 1, '/', (size_t)(end - p - 1))) {
		size_t rest = (size_t)(end - p);
		if (p[1] == 'c' &&
		    ((rest >= 10 && memcmp(p, "/category/", 10) == 0) ||
		     (rest >= 12 && memcmp(p, "/categories/", 12) == 0)))
			return true;
	}
	return false;
}

/*
 * Whether a rel=tag link files the post in a category rather than tagging
 * it: WordPress writes its categories rel="category tag", older themes
 * plain rel=tag to a /category/ archive or to "?cat=81" without pretty
 * links. A category is the site's section ("News", "Uncategorized"), not
 * a word about the post.
 */
static bool category_link(unsigned rel, const char *href)
{
	size_t n = strcspn(href, "?#");
	const char *q = href[n] == '?' ? href + n : NULL;

	return (rel & REL_CATEGORY) || category_path(href, n) ||
	       (q && (strncmp(q, "?cat=", 5) == 0 || strstr(q, "&cat=")));
}

/*
 * A link to a tag's archive inside the article ("/tag/funk",
 * "/blog/tags/tooling"): the post's tag list when the theme writes no
 * rel=tag. Only inside an <article> and outside asides: a site's tag
 * cloud or topic menu links every tag it has.
 */
static bool tag_archive_link(const struct html *h, const char *href)
{
	size_t n;

	/* Most links are outside an article: no scan for them. */
	if (!h->article || h->aside)
		return false;
	n = strcspn(href, "?#");
	return memmem(href, n, "/tag/", 5) || memmem(href, n, "/tags/", 6);
}

/* The account an author page's link names: the part of its path after
 * "/author/", "/authors/", "/autor/", "/autoren/" or "/auteur/"
 * ("/author/jdoe/", "/autor/frank_g"), at most 64 bytes; NULL when the
 * link is to no author page. */
static const char *author_page_account(const char *href, size_t *n)
{
	static const char *const dirs[] = {"author/", "authors/", "autor/",
	                                   "autoren/", "auteur/"};

	/* From slash to slash, each found by strchr() (vector compares):
	 * a walk byte by byte cost a branch a byte that no predictor
	 * guesses (which bytes are slashes), for every link. Every name
	 * opens with an "a". */
	for (const char *p = strchr(href, '/'); p; p = strchr(p + 1, '/')) {
		if ((p[1] | 0x20) != 'a')
			continue;
		for (size_t i = 0; i < HEED_ARRAY_SIZE(dirs); i++) {
			const char *d = dirs[i], *q = p + 1;
			while (*d && heed__ascii_lower(*q) == *d)
				d++, q++;
			if (*d)
				continue;
			*n = strcspn(q, "/?#");
			return *n && *n <= 64 ? q : NULL;
		}
	}
	return NULL;
}

/* Whether href is on the page's own site: a path, or a URL whose host
 * is the page's registrable domain or under it. Another site's author
 * page (a library's "Works by Charles Darwin") credits nobody here. */
static bool own_site_href(const struct html *h, const char *href)
{
	const char *host = strstr(href, "//"), *dom;
	size_t hn, dn;

	if (!host)
		return true;
	dom = heed_url_registrable_domain(h->b->page_url);
	if (!dom)
		return false;
	host += 2;
	hn = strcspn(host, "/?#:");
	dn = strlen(dom);
	return hn >= dn && heed__ascii_ieq(host + hn - dn, dn, dom) &&
	       (hn == dn || host[hn - dn - 1] == '.');
}

/* A link to an author's page ("<a href=/autor/frank_g>Gunter Frank</a>
 * / 22.04.2020") is read for the name it shows, in a teaser's meta line
 * too (a theme sets the post's own so): the first few only, until one
 * names the author. */
static void author_page_link(struct html *h, const char *href)
{
	const char *acct;
	struct capture *c;
	size_t n;

	if (h->page_link_done || h->page_links == MAX_PAGE_LINKS ||
	    !(acct = author_page_account(href, &n)))
		return;
	/* Counted before the site's check, which costs a look-up: a page
	 * of links to another site's authors stops here too. */
	h->page_links++;
	if (!own_site_href(h, href) ||
	    heed__cand_settled(h->b, F_AUTHOR, O_AUTHOR_PAGE, 0))
		return;
	c = start_capture(h, CAP_PAGE_LINK, NULL);
	if (c)
		c->prop = heed__strdup_arena(h->b, acct, n);
}

/* True while the first byline (read past a better author too, but not
 * one inside it) is being read. */
static bool in_first_byline(const struct html *h)
{
	for (size_t i = 0; i < h->ncaps; i++)
		if (h->caps[i].kind == CAP_BYLINE && !h->caps[i].inner)
			return true;
	return false;
}

/* True when an element's own style hides it: "display:none", any case,
 * spaces around the colon allowed. */
static bool hidden_by_style(const char *const *atts)
{
	const char *style = attr(atts, "style");
	size_t len = style ? strlen(style) : 0;

	/* Every comparison stays inside the value: a shorter rest cannot
	 * hold the word. */
	for (size_t i = 0; i + 7 <= len; i++) {
		size_t j = i + 7;
		if (!heed__ascii_ieq(style + i, 7, "display"))
			continue;
		while (j < len && style[j] == ' ')
			j++;
		if (j >= len || style[j] != ':')
			continue;
		j++;
		while (j < len && style[j] == ' ')
			j++;
		if (j + 4 <= len && heed__ascii_ieq(style + j, 4, "none"))
			return true;
	}
	return false;
}

/* True when p is a site's home file: "", or "index." and letters. */
static bool index_file(const char *p)
{
	if (!*p)
		return true;
	if (strncmp(p, "index.", 6) != 0)
		return false;
	for (p += 6; *p; p++)
		if (!LETTER_BIT((unsigned char)*p))
			return false;
	return true;
}

/* True when the relative path p may lead home: "/", "./", "../../",
 * each perhaps with an index file ("index.html"). */
static bool home_path(const char *p)
{
	if (*p == '/')
		p++;
	while (p[0] == '.' && (p[1] == '/' || (p[1] == '.' && p[2] == '/')))
		p += p[1] == '/' ? 2 : 3;
	return index_file(p);
}

/* True when url, written in full, is the home page of host: "http://"
 * or "https://", the host (ASCII case ignored), then nothing, "/" or
 * "/index.html". Read off the text: most links differ at once. */
static bool home_url(const char *url, const char *host)
{
	size_t n = strlen(host);

	url += 4 + (url[4] == 's' || url[4] == 'S');
	if (strncmp(url, "://", 3) != 0 || !heed__ascii_ieq(url + 3, n, host))
		return false;
	url += 3 + n;
	return !*url || (*url == '/' && index_file(url + 1));
}

/* True when href, an address written in the page, is the home page of
 * the page's site: its host's "/" or "/index.html", either scheme. An
 * address in full is read as text; only a path that may lead there
 * (home_path, rare) is resolved. */
static bool home_href(const heed_url *page, const char *href)
{
	char buf[512];
	const char *host;
	size_t n;

	if (!page)
		return false;
	host = heed_url_host(page);
	if (heed__ascii_ieq(href, 4, "http"))
		return home_url(href, host);
	return home_path(href) &&
	       heed_url_resolve_buf(page, href, strlen(href), buf, sizeof(buf),
	                            &n) == HEED_OK &&
	       home_url(buf, host);
}

/* True when an <a href> may be the site's masthead: its home link
 * before the page's content (outside article and main, asides and the
 * footer), as the logo or the heading that names the site links home. */
static bool home_link(const struct html *h, const char *href)
{
	return !h->article && !h->main && !h->aside && !h->site_footer &&
	       home_href(h->b->page_url, href);
}

/* The last segment of the page's path ("slug" in "/blog/slug/?p=1"),
 * found once: a page at the site's root has none. */
static void self_segment(struct html *h)
{
	const char *t = heed_url_target(h->b->page_url), *seg;
	size_t tn = strcspn(t, "?#");

	h->self_seg_known = true;
	while (tn > 1 && t[tn - 1] == '/')
		tn--;
	seg = t + tn;
	while (seg > t && seg[-1] != '/')
		seg--;
	h->self_seg = seg;
	h->self_seg_len = (size_t)(t + tn - seg);
}

/* True when href leads to the page itself: a post's own entry in a
 * list of posts. Only a page below the site's root counts (a home page
 * links itself from every menu), never a link to a part of it (a
 * comment's permalink, "#comment-5", is the comment's date's), and href
 * must hold the last segment of the page's path before it is resolved,
 * a compare per link. */
static bool self_href(struct html *h, const char *href)
{
	char buf[HEED_URL_MAX_BYTES + 1];
	size_t len = strlen(href);

	if (!h->self_seg_known)
		self_segment(h);
	if (h->self_seg_len < 4 || memchr(href, '#', len) ||
	    !memmem(href, len, h->self_seg, h->self_seg_len) ||
	    heed_url_resolve_buf(h->b->page_url, href, len, buf, sizeof(buf),
	                         &len) != HEED_OK)
		return false;
	return strcmp(buf, heed_url_get(h->b->page_url)) == 0;
}

static bool label_date_wanted(const struct html *h, int sub);
static void kicker_date(struct html *h);

/* The list item, article or paragraph around a link to the page
 * itself: the date it shows is the page's, when nothing else dates the
 * page. A paragraph about the post names it so in a sidebar ("<a>Post
 * title</a> wurde am 19. Mai 2010 um 23:03 Uhr gepostet"). */
static void self_link(struct html *h, const char *href)
{
	size_t d = h->depth < EXTRACT_MAX_DEPTH ? h->depth : EXTRACT_MAX_DEPTH;

	if (h->self_item || h->self_item_done || !h->b->page_url ||
	    !label_date_wanted(h, D_SELF_ITEM) || !self_href(h, href))
		return;
	while (d-- > 0)
		if (h->stack[d].tag == T_LI || h->stack[d].tag == T_ARTICLE ||
		    h->stack[d].tag == T_P) {
			h->self_item = d + 1;
			return;
		}
}

static void on_anchor(struct html *h, const char *const *atts)
{
	const char *href = h->href;
	unsigned rel = h->rel;
	bool nofollow;

	if (!href || h->foreign || h->media)
		return;
	nofollow = rel & (REL_NOFOLLOW | REL_UGC | REL_SPONSORED);
	heed__add_link(h->b, href, "a", nofollow, false);
	self_link(h, href);
	if (!h->masthead_done && home_link(h, href)) {
		struct capture *c = start_capture(h, CAP_MASTHEAD, NULL);
		if (c)
			c->inner = h->link_heading > 0;
		h->masthead_alt = NULL;
	}
	if (((rel & REL_TAG) || tag_archive_link(h, href)) &&
	    !category_link(rel, href)) {
		/* A listing's tag links run to thousands; once the page
		 * declared its tags and enough links were noted, their texts
		 * are not even copied. */
		if (heed__tag_link_wanted(h->b))
			start_capture(h, CAP_TAG_LINK, NULL);
	} else if (rel & (REL_TAG | REL_CATEGORY))
		start_capture(h, CAP_CATEGORY_LINK, NULL);
	if (rel & REL_CC_ATTRIBUTION)
		start_capture(h, CAP_LICENSOR, NULL);
	if ((rel & REL_LICENSE) ||
	    strstr(href, "creativecommons.org/licenses/"))
		h->licence_link = true;
	if ((rel & REL_AUTHOR) && !h->aside) {
		/* The byline around the first such link lists the post's
		 * writers; one after it has closed is a listed post's. One
		 * its own style hides is shown to no reader and credits
		 * nobody: Google's blogs hide a rel=author "Google" under
		 * every post, for the authorship markup search engines once
		 * read, while the post names its writers. */
		struct capture *c;
		if (hidden_by_style(atts))
			return;
		c = h->author_links_closed
		            ? NULL
		            : start_capture(h, CAP_AUTHOR_LINK, NULL);
		if (c)
			c->inner = in_first_byline(h);
		if (!h->author_link_box)
			h->author_link_box = h->depth >= 2 ? h->depth - 1 : 1;
	} else
		author_page_link(h, href);
}

/* Inside an article, its header or main: where the page's own byline and
 * date lines are. An article opened after the page's h1 was read outside
 * any article is a listed post's ("Editor's Pick" under the story), not
 * the page's: a page whose title stands outside its articles dates
 * itself beside that title. */
static bool in_body(const struct html *h)
{
	if (h->main)
		return true;
	return h->article ? !h->article_listed : h->header;
}

/* Starts reading a date from an element's text. */
static void date_text(struct html *h, enum field f, int sub)
{
	struct capture *c = start_capture(h, CAP_DATE, NULL);

	if (c) {
		c->field = f;
		c->sub = sub;
	}
}

/* <time datetime>: the published date of last resort (after every meta
 * tag), as htmldate falls back to it. A time marked pubdate (an HTML5
 * draft attribute themes still write) comes first, but in an article
 * after the page's first (a listed post's, where themes mark each
 * teaser's time so), then the first inside
 * an article, then inside main, then anywhere in the page; a value that
 * is no date ("PT2H", "10:00") is skipped by the date parser. A <time>
 * without datetime in the article gives its text. Never a time in an
 * aside, a comment, a teaser, a blockquote (an embedded post's) or the
 * site's header (a header outside the article and main: news sites show
 * the day the page was served there, under their logo). */
static void on_time(struct html *h, const char *const *atts)
{
	const char *v = attr(atts, "datetime");
	int sub = D_TIME_PAGE;

	if (h->foreign || h->media || h->aside || h->quote || h->site_header)
		return;
	/* ikiwiki's <span class=edited>Edited <time ...>: the edit's date,
	 * as a theme's class=updated gives it. */
	if (h->edit) {
		if (v)
			heed__cand(h->b, F_MODIFIED, O_HTML, D_THEME, v,
			           strlen(v));
		else
			date_text(h, F_MODIFIED, D_TEXT_CLASS_BODY);
		return;
	}
	if (!v) {
		if (in_body(h))
			date_text(h, F_PUBLISHED, D_TEXT_BODY);
		return;
	}
	if (attr(atts, "pubdate") && !(h->article && h->article_closed))
		sub = D_THEME;
	else if (h->article && !h->article_listed)
		sub = D_TIME_ARTICLE;
	else if (h->main)
		sub = D_TIME_MAIN;
	heed__cand(h->b, F_PUBLISHED, O_HTML, sub, v, strlen(v));
}

/* True when the token p[0, n) contains word (ASCII case ignored:
 * "postDate", "topAttributionWithDate"). */
static bool token_has(const char *p, size_t n, const char *word)
{
	char first = heed__ascii_lower(word[0]);
	size_t w = 0;

	/* The first byte before the word's length or a call: this runs for
	 * every token of every class, and a page's classes are many. */
	for (size_t i = 0; i < n; i++) {
		if (heed__ascii_lower(p[i]) != first)
			continue;
		if (!w)
			w = strlen(word);
		if (i + w > n)
			return false;
		if (heed__ascii_ieq(p + i, w, word))
			return true;
	}
	return false;
}

/* True when a part of the class token p[0, n) (parts are cut at "-" and
 * "_") is word, ASCII case ignored: "text_datum", not "newsdatum". */
static bool part_is(const char *p, size_t n, const char *word)
{
	size_t w = strlen(word);

	for (size_t i = 0; i + w <= n; i++)
		if ((!i || p[i - 1] == '-' || p[i - 1] == '_') &&
		    (i + w == n || p[i + w] == '-' || p[i + w] == '_') &&
		    heed__ascii_ieq(p + i, w, word))
			return true;
	return false;
}

/* A class token of a date line whose text is the date ("date",
 * "post-date", "timestamp", "dateline", "postDate", German "text_datum",
 * but not "newsdatum", a meta line's); *f gets the
 * modified date for "updated", "last-modified" and the like. */
static bool text_date_class(const char *cls, enum field *f)
{
	bool published = false, modified = false;
	size_t n;

	for (const char *p = cls, *t; (t = next_token(&p, &n));) {
		if (token_has(t, n, "date") || token_has(t, n, "timestamp") ||
		    token_has(t, n, "published") || token_has(t, n, "posted") ||
		    part_is(t, n, "datum")) {
			if (token_has(t, n, "updated") ||
			    token_has(t, n, "modif"))
				modified = true;
			else
				published = true;
		}
	}
	/* "post-date date updated": hAtom wants every entry to carry an
	 * "updated", so themes add it to the one date they show, the
	 * post's; only a line whose every date word is an edit's ("updated",
	 * "date-modified") dates the edit. */
	*f = published ? F_PUBLISHED : F_MODIFIED;
	return published || modified;
}

/* A word a class is screened for, lower case, and its length. */
struct class_word {
	const char *s;
	size_t n;
};
#define CLASS_WORD(w)            \
	{                        \
		w, sizeof(w) - 1 \
	}

/* True when a part of the class token p[0, n) (parts are cut at "-" and
 * "_") ends in one of the count words (lower case), ASCII case ignored:
 * "post-meta", "postMeta", "newsdatum", "h-time", not "infobox" or
 * "timeline". Each part's end is tried against every word, last bytes
 * first: a word tried at every byte of every token, with a call, was a
 * tenth of a real page's extraction (pages carry dozens of classes). */
static bool part_ends_in(const char *p, size_t n,
                         const struct class_word *words, size_t count)
{
	for (size_t e = 1; e <= n; e++) {
		if (e < n && p[e] != '-' && p[e] != '_')
			continue;
		for (size_t k = 0; k < count; k++) {
			size_t w = words[k].n;
			if (w <= e &&
			    heed__ascii_lower(p[e - 1]) == words[k].s[w - 1] &&
			    heed__ascii_ieq(p + e - w, w, words[k].s))
				return true;
		}
	}
	return false;
}

/* Whether a class holding these letters (letters_of) could hold one of
 * date_line_class()'s words: each word holds the letters of one of these
 * ("metadata" those of "meta", "timedata" those of "time"). Most classes
 * hold none, told at a look. */
static bool may_name_date_line(uint32_t letters)
{
#define HOLDS(s) ((LITERAL_LETTERS(s) & ~letters) == 0)
	return HOLDS("meta") || HOLDS("info") || HOLDS("time") ||
	       HOLDS("datum") || HOLDS("fecha") || HOLDS("created") ||
	       HOLDS("submitted") || HOLDS("tagline") || HOLDS("subline");
#undef HOLDS
}

/* A class of a line that holds a date among other words: a post's meta or
 * info line ("entry-meta", "post-info", "article-metadata"), a time
 * element ("post-meta-time", "h-time"), a German "Datum", a Spanish
 * "fecha", a "created" or a Drupal "submitted" line, a tagline. Read after
 * every date element (D_LINE_*). A comment's line ("commentmetadata")
 * dates the comment; *f gets the modified date when a part of the class
 * tells of an edit ("j-modified-time", "lastmod"). */
static bool date_line_class(const char *cls, enum field *f)
{
	static const struct class_word words[] = {
	        CLASS_WORD("meta"),    CLASS_WORD("metadata"),
	        CLASS_WORD("info"),    CLASS_WORD("time"),
	        CLASS_WORD("datum"),   CLASS_WORD("fecha"),
	        CLASS_WORD("created"), CLASS_WORD("submitted"),
	        CLASS_WORD("tagline"), CLASS_WORD("subline"),
	        CLASS_WORD("timedata")};
	bool found = false;
	size_t n;

	if (strstr(cls, "omment"))
		return false;
	for (const char *p = cls, *t; !found && (t = next_token(&p, &n));)
		found = part_ends_in(t, n, words, HEED_ARRAY_SIZE(words));
	if (!found)
		return false;
	/* Only a date line's class is read for an edit's words. */
	*f = F_PUBLISHED;
	for (const char *p = cls, *t; (t = next_token(&p, &n));)
		if (token_has(t, n, "modif") || token_has(t, n, "updated") ||
		    token_has(t, n, "lastmod"))
			*f = F_MODIFIED;
	return true;
}

/* A line that tells of an edit by its class (ikiwiki's "edited", a
 * theme's "updated" or "last-modified" around a <time>): the times in
 * it date the edit, not the publication. */
static bool edit_class(const struct html *h, const char *cls)
{
	static const char *const tokens[] = {
	        "edited",       "updated",       "modified",    "last-modified",
	        "lastmodified", "date-modified", "date-updated"};

	if (!CLASS_HAS(h, cls, "edited") && !CLASS_HAS(h, cls, "updated") &&
	    !CLASS_HAS(h, cls, "odified"))
		return false;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(tokens); i++)
		if (has_token(cls, tokens[i]))
			return true;
	return false;
}

/* True when v reads as a date. */
static bool is_date(const char *v)
{
	int64_t t;
	char iso[HEED_DATE_ISO_MAX];

	return heed__parse_page_date(v, strlen(v), NULL, &t, iso, NULL);
}

/* Theme markup for dates (hAtom's published/updated, WordPress's
 * entry-date): the value is the element's datetime, else its title (an
 * <abbr title=ISO>), else content. Ranked with a time marked pubdate.
 * Without any of them, the element's text is read (below every declared
 * date). */
static void on_date_class(struct html *h, enum tag tag, const char *cls,
                          const char *const *atts)
{
	static const struct {
		const char *token;
		enum field field;
	} classes[] = {
	        {"published", F_PUBLISHED},   {"entry-date", F_PUBLISHED},
	        {"post-date", F_PUBLISHED},   {"date-published", F_PUBLISHED},
	        {"updated", F_MODIFIED},      {"date-modified", F_MODIFIED},
	        {"date-updated", F_MODIFIED}, {"relativetime", F_PUBLISHED},
	};
	const char *v = attr(atts, "datetime");
	enum field f;

	/* hCard's and hCalendar's dates are a person's or an event's
	 * (a Wikipedia infobox's "bday dtstart published updated"). */
	if (has_token(cls, "bday") || has_token(cls, "dtstart") ||
	    has_token(cls, "dtend"))
		return;
	/* Stack Exchange's "asked <span class=relativetime title=ISO>"; in
	 * a link ("edited ..." to the post's revisions) it is an edit's. */
	if (h->link_heading && has_token(cls, "relativetime"))
		return;
	/* A link's title is often its text's ("Permalink to ..."): only
	 * a date there is the date. */
	if (!v && (v = attr(atts, "title")) && !is_date(v))
		v = NULL;
	if (!v)
		v = attr(atts, "content");
	if (!v || !*v) {
		if (tag != T_META && tag != T_TIME && tag != T_SCRIPT &&
		    !h->site_header && text_date_class(cls, &f))
			date_text(h, f,
			          in_body(h) ? D_TEXT_CLASS_BODY
			                     : D_TEXT_CLASS_PAGE);
		return;
	}
	for (size_t i = 0; i < HEED_ARRAY_SIZE(classes); i++)
		if (has_token(cls, classes[i].token))
			heed__cand(h->b, classes[i].field, O_HTML, D_THEME, v,
			           strlen(v));
}

/* Meta and info lines read for a date, at most: a listing repeats such a
 * line on every item ("1.2M views · 3 days ago"), and when the first few
 * hold no date the rest do not either. */
#define MAX_DATE_LINES 6

/* A meta or info line's text may hold the date ("Gespeichert von rasos
 * am 24. Juli 2017 - 18:55"): read it only while no better date is known
 * (a declared one comes first in the head), so most pages never collect
 * these lines' text, and only the first MAX_DATE_LINES of them. */
static void on_date_line(struct html *h, enum tag tag, const char *cls)
{
	int sub = in_body(h) ? D_LINE_BODY : D_LINE_PAGE;
	enum field f;

	if (tag == T_META || tag == T_SCRIPT || tag == T_LINK ||
	    h->site_header || h->date_lines >= MAX_DATE_LINES ||
	    !may_name_date_line(h->cls_letters) || !date_line_class(cls, &f) ||
	    (heed__cand_settled(h->b, f, O_HTML, sub) &&
	     !(f == F_PUBLISHED && heed__published_generic(h->b))))
		return;
	h->date_lines++;
	date_text(h, f, sub);
}

/* True when the class token t[0, n) ends in a byline word: "byline",
 * "author", "authorname", "author-name" or "author-link" (any case:
 * "post-author-name", "news-list-author", "documentAuthor",
 * "byline__author-name"), the German "autor" or the French "auteur", or
 * a plural ("article-authors", "autoren", "auteurs": a list of the
 * credited people is a byline too); not "author-bio" or "author-box",
 * which hold more than the name. */
static bool byline_token(const char *t, size_t n)
{
	static const char *const ends[] = {
	        "byline",      "author",      "authorname", "author-name",
	        "author_name", "author-link", "autor",      "authors",
	        "autoren",     "auteur",      "auteurs"};

	for (size_t i = 0; i < HEED_ARRAY_SIZE(ends); i++) {
		size_t e = strlen(ends[i]);
		if (n >= e && heed__ascii_ieq(t + n - e, e, ends[i]))
			return true;
	}
	return false;
}

/* A commenter's name ("comment-author-link", WordPress's in a comment
 * and in its Recent Comments list; "commentAuthor"), or WordPress's mark
 * on a whole comment by the post's author ("bypostauthor", which holds
 * the comment's text too): never the page's byline, wherever the
 * comment is listed. A commentary's byline ("commentary-author", an
 * opinion piece's) is the page's. */
static bool commenter_token(const char *t, size_t n)
{
	if (n == 12 && heed__ascii_ieq(t, n, "bypostauthor"))
		return true;
	return n > 7 && heed__ascii_ieq(t, 7, "comment") &&
	       !(n >= 10 && heed__ascii_ieq(t, 10, "commentary"));
}

/* Byline markup: an element whose class has a byline token (see
 * byline_token()), also with a last part that says the element holds the
 * name's text ("authorname-txt", "author__name", "autor-text"). The
 * first such element in an article, its header or main gives the author
 * of last resort before a social handle; the first elsewhere (outside
 * any aside: a sidebar's "author" box names someone else) comes after
 * every other byline. */
static bool is_byline_class(const char *cls)
{
	static const char *const texts[] = {"txt", "text", "name"};
	size_t n;

	for (const char *p = cls, *t; (t = next_token(&p, &n));) {
		if (commenter_token(t, n))
			continue;
		if (byline_token(t, n))
			return true;
		for (size_t i = 0; i < HEED_ARRAY_SIZE(texts); i++) {
			size_t e = strlen(texts[i]), m = n - e;
			if (n <= e || !heed__ascii_ieq(t + m, e, texts[i]) ||
			    (t[m - 1] != '-' && t[m - 1] != '_'))
				continue;
			while (m && (t[m - 1] == '-' || t[m - 1] == '_'))
				m--;
			if (byline_token(t, m))
				return true;
		}
	}
	return false;
}

/* <a rel=author> is read as a link (a better source); any other anchor
 * of class author-name may be the byline. */
static bool author_link(const struct html *h, enum tag tag)
{
	return tag == T_A && (h->rel & REL_AUTHOR);
}

/* Starts reading a byline: the first in the article, its header or main
 * (sub-rank 0), or the first elsewhere (sub-rank 2, after a "By X" lead
 * line). Past a better author only the first is read, for a list of
 * writers holding that author's one name (heed__author_list). Inside the
 * byline being read, the first byline is read for its names alone: they
 * stand in for the outer's when those are refused. */
static void on_byline(struct html *h)
{
	bool body = in_body(h);
	int sub = body ? 0 : 2;
	bool past = heed__cand_settled(h->b, F_AUTHOR, O_HTML, sub);
	struct capture *c;

	for (size_t i = 0; i < h->ncaps; i++)
		if (h->caps[i].kind == CAP_BYLINE) {
			if (!h->inner_byline_read && !h->caps[i].past) {
				h->inner_byline_read = true;
				c = start_capture(h, CAP_BYLINE, NULL);
				if (c)
					c->inner = true;
			}
			return;
		}
	if ((body ? h->byline_done : h->byline_page_done) ||
	    (past && h->byline_past_done))
		return;
	if (past)
		h->byline_past_done = true;
	else if (body)
		h->byline_done = true;
	else
		h->byline_page_done = true;
	c = start_capture(h, CAP_BYLINE, NULL);
	if (c) {
		c->sub = sub;
		c->past = past;
	}
}

/* A class that may make a date line. Never inside a blockquote: a quoted
 * or embedded post (Instagram's, a tweet) dates itself, not the page. */
static void on_class_date(struct html *h, enum tag tag, const char *cls,
                          const char *const *atts)
{
	enum field f;

	if (h->quote)
		return;
	/* "date", "postDate", "DateLine": a cased compare costs more. A
	 * "newsdatum" is a meta line's, a "text_datum" a date's. */
	if (CLASS_HAS(h, cls, "date") || CLASS_HAS(h, cls, "Date") ||
	    CLASS_HAS(h, cls, "DATE") || CLASS_HAS(h, cls, "published") ||
	    CLASS_HAS(h, cls, "timestamp") || CLASS_HAS(h, cls, "posted") ||
	    CLASS_HAS(h, cls, "relativetime") ||
	    (CLASS_HAS(h, cls, "datum") && text_date_class(cls, &f)))
		on_date_class(h, tag, cls, atts);
	else
		on_date_line(h, tag, cls);
}

/* True when a class token's last part (cut at "-" or "_") is "bio" or
 * "biography" ("author-bio", "cb-author-bio", "biography"). */
static bool bio_class(const char *cls)
{
	size_t n;

	for (const char *p = cls, *t; (t = next_token(&p, &n));)
		if ((n == 3 ||
		     (n > 3 && (t[n - 4] == '-' || t[n - 4] == '_'))) &&
		    heed__ascii_ieq(t + n - 3, 3, "bio"))
			return true;
		else if (n >= 9 && heed__ascii_ieq(t + n - 9, 9, "biography"))
			return true;
	return false;
}

/* True when a part of a class token is "calendar": a calendar icon
 * ("icon-calendar", "fa-calendar-alt", "glyphicon-calendar"). */
static bool calendar_class(const char *cls)
{
	size_t n;

	for (const char *p = cls, *t; (t = next_token(&p, &n));)
		if (part_is(t, n, "calendar"))
			return true;
	return false;
}

/* A calendar icon stands for a date label: themes set one before the
 * date they show ("<span class=icon-calendar></span>&nbsp;12.01.2022"),
 * so the text that follows it is read as a date element's, unless an
 * element opens first (a calendar widget holds a table of days). */
static void on_calendar_icon(struct html *h, const char *cls)
{
	if (h->quote || h->site_header || !CLASS_HAS(h, cls, "alendar") ||
	    !calendar_class(cls))
		return;
	h->icon_date = true;
	h->icon_sub = in_body(h) ? D_TEXT_CLASS_BODY : D_TEXT_CLASS_PAGE;
}

/* Sub-rank of an account's shown name (a forum's or a CMS's username,
 * the name on a comment by the post's author): after a press contact,
 * before an organisation. */
#define A_ACCOUNT 6

/* True while an account's shown name could still give the author. */
static bool account_wanted(const struct html *h)
{
	return !heed__cand_settled(h->b, F_AUTHOR, O_HTML, A_ACCOUNT);
}

/* Whether a class token is an account's shown name: "username", or a
 * token whose last part is "AccountName" or "account-name" (a forum's
 * "MtnCommentAccountName" over each post). A token that only opens so
 * ("accountname-label") is a form's field. */
static bool account_token(const char *t, size_t n)
{
	static const char *const names[] = {"accountname", "account-name",
	                                    "account_name"};

	if (n == 8 && heed__ascii_ieq(t, n, "username"))
		return true;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(names); i++) {
		size_t e = strlen(names[i]);
		if (n >= e && heed__ascii_ieq(t + n - e, e, names[i]) &&
		    (n == e || t[n - e - 1] == '-' || t[n - e - 1] == '_' ||
		     t[n - e] == 'A'))
			return true;
	}
	return false;
}

/*
 * A teaser that holds an <h1>, the page's headline, is the page's own
 * lead, not a teaser of another page: a site sets its article's picture,
 * day and headline in the frame its listings use for their teasers
 * (`<figure class=teaser><span class=date>02.02.2022</span>…<h1>`).
 * Until that <h1> opens, the teaser's first date element is kept
 * (teaser_date), then given with a date element's rank (teaser_lead);
 * a teaser that closes without it dates nothing.
 */
static void teaser_date_class(struct html *h, enum tag tag, const char *cls)
{
	enum field f;
	int sub = in_body(h) ? D_TEXT_CLASS_BODY : D_TEXT_CLASS_PAGE;

	if (h->teaser_day_len || h->foreign || h->media || h->quote ||
	    tag == T_META || tag == T_TIME || tag == T_SCRIPT ||
	    (!CLASS_HAS(h, cls, "date") && !CLASS_HAS(h, cls, "Date") &&
	     !CLASS_HAS(h, cls, "datum")) ||
	    !text_date_class(cls, &f) || f != F_PUBLISHED ||
	    !label_date_wanted(h, sub))
		return;
	h->teaser_sub = sub;
	(void)start_capture(h, CAP_TEASER_DATE, NULL);
}

/* A teaser's date element ends: its text, when it opens with a date,
 * waits for the page's headline (teaser_lead). */
static void teaser_date(struct html *h, const char *s, size_t len)
{
	size_t n;

	heed__trim(&s, &len);
	if (h->teaser_day_len)
		return; /* a date element inside the first one */
	n = heed__page_date_len(s, len, h->b->cand[F_LANGUAGE].value);
	if (!n || n > MAX_KICKER)
		return;
	memcpy(h->teaser_day, s, n);
	h->teaser_day_len = n;
}

/* An <h1> opens: in a teaser, that teaser is the page's lead and the
 * date it showed the page's. Only the first teaser holding one: a
 * listing's teasers head their posts with the same element. */
static void teaser_lead(struct html *h)
{
	if (!h->teaser || h->aside != 1 || h->foreign)
		return;
	h->teaser_lead_done = true;
	if (h->teaser_day_len)
		heed__cand(h->b, F_PUBLISHED, O_HTML, h->teaser_sub,
		           h->teaser_day, h->teaser_day_len);
	h->teaser_day_len = 0;
}

/* An element whose class is an account's shown name (Drupal's
 * "Gespeichert von <span class=username>rasos</span>", phpBB's post
 * author, a forum's account name over the thread's first post): the
 * account that posted, shown where the writer gives no other name. Read
 * outside asides only (a comment's username is the commenter's). */
static void on_username(struct html *h, const char *cls)
{
	size_t n;
	bool account = false;

	if (h->account_done || !account_wanted(h) ||
	    (!CLASS_HAS(h, cls, "sername") && !CLASS_HAS(h, cls, "ccount")))
		return;
	for (const char *p = cls, *t; !account && (t = next_token(&p, &n));)
		account = account_token(t, n);
	if (account)
		(void)start_capture(h, CAP_ACCOUNT, NULL);
}

static void on_class(struct html *h, enum tag tag, const char *cls,
                     const char *const *atts)
{
	if (h->foreign || h->media || h->aside) {
		if (h->teaser && h->aside == 1)
			teaser_date_class(h, tag, cls);
		return;
	}
	/* Cheap screens first: this runs for every element with a class. */
	on_class_date(h, tag, cls, atts);
	if (!h->bio_done && CLASS_HAS(h, cls, "io") && bio_class(cls)) {
		h->bio_done = true;
		(void)start_capture(h, CAP_BIO, NULL);
	}
	on_calendar_icon(h, cls);
	on_username(h, cls);
	if (tag != T_META && tag != T_LINK && !author_link(h, tag) &&
	    (CLASS_HAS(h, cls, "uthor") || CLASS_HAS(h, cls, "byline") ||
	     CLASS_HAS(h, cls, "Byline") || CLASS_HAS(h, cls, "utor") ||
	     CLASS_HAS(h, cls, "uteur")) &&
	    is_byline_class(cls))
		on_byline(h);
	else if (tag == T_P && h->header && (h->article || h->main) &&
	         CLASS_HAS(h, cls, "credit") && has_token(cls, "credit"))
		/* A credit line of its own in the article's header names its
		 * writer or agency, as a byline does ("<p class=credit>JIJI"
		 * under the headline); a picture's credit is in its caption's
		 * span. */
		on_byline(h);
}

static struct scope *top_scope(struct html *h)
{
	return h->nscopes && h->nscopes <= MAX_SCOPES
	               ? &h->scopes[h->nscopes - 1]
	               : NULL;
}

/* A microdata property and the field it gives, at which sub-rank. */
struct prop_field {
	const char *prop;
	enum field field;
	int sub;
};

/* The date properties of the page's item: the outermost, or the article
 * inside a WebPage item. */
static const struct prop_field date_props[] = {
        {"datePublished", F_PUBLISHED, 0},
        {"uploadDate", F_PUBLISHED, 1},
        {"dateCreated", F_PUBLISHED, 2},
        {"dateModified", F_MODIFIED, 0},
};

/* The other properties of the outermost item. */
static const struct prop_field page_props[] = {
        {"headline", F_TITLE, 0},          {"name", F_TITLE, 1},
        {"description", F_DESCRIPTION, 0}, {"interactionCount", F_VIEWS, 1},
        {"duration", F_DURATION, 0},       {"thumbnailUrl", F_THUMBNAIL, 0},
        {"thumbnailURL", F_THUMBNAIL, 0},  {"image", F_THUMBNAIL, 1},
        {"author", F_AUTHOR, 1},           {"inLanguage", F_LANGUAGE, 0},
        {"publisher", F_PUBLISHER, 1},
};

/* Offers v as the field of prop in table t[0, n), if it is there. */
static void offer_prop(struct builder *b, const struct prop_field *t, size_t n,
                       const char *prop, const char *v, size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(prop, t[i].prop) == 0)
			heed__cand(b, t[i].field, O_MICRODATA, t[i].sub, v,
			           len);
}

/* One microdata property value. nscopes is the number of items open
 * around the element that carries it. */
static void apply_prop(struct html *h, const char *prop, size_t nscopes,
                       const char *v)
{
	struct builder *b = h->b;
	size_t len = strlen(v);
	const char *parent;

	if (nscopes == 1) {
		if (strcmp(prop, "keywords") == 0) {
			heed__tags(b, O_MICRODATA, v, len, true);
			return;
		}
		offer_prop(b, date_props, HEED_ARRAY_SIZE(date_props), prop, v,
		           len);
		offer_prop(b, page_props, HEED_ARRAY_SIZE(page_props), prop, v,
		           len);
		return;
	}
	if (nscopes != 2 || nscopes > MAX_SCOPES)
		return;
	if (h->scopes[1].article)
		offer_prop(b, date_props, HEED_ARRAY_SIZE(date_props), prop, v,
		           len);
	parent = h->scopes[1].prop ? h->scopes[1].prop : "";
	if (strcmp(prop, "name") == 0 &&
	    (strcmp(parent, "author") == 0 || strcmp(parent, "creator") == 0))
		heed__author_add(b, O_MICRODATA, 0, v, len);
	else if (strcmp(prop, "name") == 0 && strcmp(parent, "publisher") == 0)
		heed__cand(b, F_PUBLISHER, O_MICRODATA, 0, v, len);
	else if (strcmp(parent, "interactionStatistic") == 0 &&
	         strcmp(prop, "interactionType") == 0)
		h->scopes[1].view_type =
		        strcmp(schema_name(v), "WatchAction") == 0 ||
		        strcmp(schema_name(v), "ViewAction") == 0 ||
		        strcmp(schema_name(v), "ListenAction") == 0;
	else if (strcmp(parent, "interactionStatistic") == 0 &&
	         strcmp(prop, "userInteractionCount") == 0)
		h->scopes[1].has_count =
		        heed__parse_count(v, len, &h->scopes[1].count);
}

/* The value an element gives its itemprop without reading its text
 * (extruct's w3cmicrodata rules); NULL when the text is the value. */
static const char *prop_value(enum tag tag, const char *const *atts)
{
	const char *v = attr(atts, "content");

	if (v)
		return v;
	/* A date property on any element that carries datetime (themes
	 * write <span itemprop=datePublished datetime=...>). */
	if (tag != T_TIME && (v = attr(atts, "datetime")))
		return v;
	switch (tag) {
	case T_META:
		return "";
	case T_A:
	case T_AREA:
	case T_LINK:
		return attr(atts, "href");
	case T_MEDIA:
	case T_MEDIA_VOID:
		return attr(atts, "src");
	case T_TIME:
		return attr(atts, "datetime");
	case T_DATA:
		return attr(atts, "value");
	default:
		return NULL;
	}
}

/* itemprop outside any itemscope, as themes write them: not microdata,
 * but the same theme markup as class=published, read as such. */
static void on_loose_itemprop(struct html *h, const char *props, const char *v)
{
	if (h->aside)
		return;
	for (enum field f = F_PUBLISHED; f <= F_MODIFIED; f++) {
		if (!has_token(props, f == F_PUBLISHED ? "datePublished"
		                                       : "dateModified"))
			continue;
		if (v)
			heed__cand(h->b, f, O_HTML, D_THEME, v, strlen(v));
		else
			date_text(h, f, D_TEXT_CLASS_BODY);
	}
	if (has_token(props, "author") && !v && !h->byline_done && !h->aside) {
		h->byline_done = true;
		start_capture(h, CAP_BYLINE, NULL);
	}
	/* <meta itemprop=author content=...>: what the page says of its
	 * author, like <meta name=author>. */
	if (has_token(props, "author") && v && *v && !h->aside)
		heed__author_add(h->b, O_META, 3, v, strlen(v));
	if (has_token(props, "publisher") && v && *v && !h->aside)
		heed__cand(h->b, F_PUBLISHER, O_MICRODATA, 1, v, strlen(v));
	if (has_token(props, "inLanguage") && v && *v)
		heed__cand(h->b, F_LANGUAGE, O_MICRODATA, 0, v, strlen(v));
}

static void on_itemprop(struct html *h, enum tag tag, const char *const *atts,
                        const char *props, bool opens_scope)
{
	const char *v;
	char *copy;
	size_t n;

	if (opens_scope)
		return;
	v = prop_value(tag, atts);
	if (!h->nscopes) {
		on_loose_itemprop(h, props, v);
		return;
	}
	/* One element may carry several properties: "name headline". */
	for (const char *p = props, *t; (t = next_token(&p, &n));) {
		copy = heed__strdup_arena(h->b, t, n);
		if (!copy)
			return;
		if (v)
			apply_prop(h, copy, h->nscopes, v);
		else
			start_capture(h, CAP_PROP, copy);
	}
}

/* An item of an article type (Article, NewsArticle, BlogPosting, ...)
 * that is no property, right inside a WebPage item on the page's <html> or
 * <body> (as Drupal writes them): the article the page is, whose dates
 * are the page's. Only the first, and not in an aside: a listing's
 * teasers are such items too. */
static bool page_article_item(struct html *h, const char *prop,
                              const char *type)
{
	if (h->nscopes != 2 || prop || !type || h->aside ||
	    h->article_item_seen || !h->webpage_item)
		return false;
	if (heed__schema_rank(type) != 1)
		return false;
	h->article_item_seen = true;
	return true;
}

static void open_scope(struct html *h, const char *const *atts)
{
	const char *type = attr(atts, "itemtype"),
	           *prop = attr(atts, "itemprop");
	struct scope *s;

	if (h->nscopes++ >= MAX_SCOPES)
		return;
	s = &h->scopes[h->nscopes - 1];
	memset(s, 0, sizeof(*s));
	if (prop)
		s->prop = heed__strdup_arena(h->b, prop, strlen(prop));
	if (h->nscopes == 1 && type && *type)
		heed__cand(h->b, F_SCHEMA_TYPE, O_MICRODATA, 0,
		           schema_name(type), strlen(schema_name(type)));
	if (h->nscopes == 1)
		h->webpage_item = type && heed__schema_rank(type) == 2;
	s->article = page_article_item(h, prop, type);
}

static void close_scope(struct html *h)
{
	struct scope *s = top_scope(h);
	char num[24];

	if (s && h->nscopes == 2 && s->has_count && s->view_type) {
		snprintf(num, sizeof(num), "%lld", (long long)s->count);
		heed__cand(h->b, F_VIEWS, O_MICRODATA, 0, num, strlen(num));
	}
	h->nscopes--;
}

/* Sub-rank of a signature closing the article: after every label. */
#define A_SIGNATURE 4

/* A paragraph opens: it is read for a signature while nothing better
 * names the author (a paragraph inside another's is never one). */
static void signature_paragraph(struct html *h)
{
	if (h->aside || h->foreign || h->link_heading ||
	    heed__cand_settled(h->b, F_AUTHOR, O_HTML, A_SIGNATURE))
		return;
	for (size_t i = 0; i < h->ncaps; i++)
		if (h->caps[i].kind == CAP_SIGNATURE)
			return;
	(void)start_capture(h, CAP_SIGNATURE, NULL);
}

/* A line break inside a paragraph read for a signature ends its line:
 * "Benni<br>10. September 2017" is a name and its date. */
static void signature_break(struct html *h)
{
	for (size_t i = 0; i < h->ncaps; i++)
		if (h->caps[i].kind == CAP_SIGNATURE)
			(void)heed__buf_add(&h->caps[i].text, "\n", 1);
}

/* True when one of an image's class, id or file name says it is a logo
 * ("logo", "Logo_LWK.svg", "sqlite370_banner.gif"), not a menu's button. */
static bool logo_image(const char *const *atts)
{
	static const char *const names[] = {"class", "id", "src"};
	const char *v;

	for (size_t i = 0; i < HEED_ARRAY_SIZE(names); i++)
		if ((v = attr(atts, names[i])) &&
		    (strcasestr(v, "logo") || strcasestr(v, "banner")))
			return true;
	return false;
}

/* A logo inside the masthead's home link names the site by its alt,
 * as a reader who cannot see the image is told it: the first one's. */
static void masthead_logo(struct html *h, const char *const *atts)
{
	const char *alt;

	if (h->masthead_alt)
		return;
	for (size_t i = 0; i < h->ncaps; i++)
		if (h->caps[i].kind == CAP_MASTHEAD &&
		    (alt = attr(atts, "alt")) && logo_image(atts)) {
			h->masthead_alt =
			        heed__strdup_arena(h->b, alt, strlen(alt));
			return;
		}
}

static void on_start_tag(struct html *h, enum tag tag, const char *const *atts)
{
	const char *v;

	/* A sidebar's heading over the writer's other posts may give the
	 * full name of a writer the page names by a first name alone. */
	if ((tag == T_H2 || tag == T_HN) && h->aside && !h->foreign &&
	    !h->b->bio_name)
		(void)start_capture(h, CAP_MORE_FROM, NULL);
	switch (tag) {
	case T_HTML:
		if ((v = attr(atts, "lang")) || (v = attr(atts, "xml:lang")))
			heed__cand(h->b, F_LANGUAGE, O_HTML, 0, v, strlen(v));
		break;
	case T_BASE:
		if ((v = h->href) && !h->b->base_href)
			h->b->base_href =
			        heed__strdup_arena(h->b, v, strlen(v));
		break;
	case T_META:
		on_meta(h, atts);
		break;
	case T_LINK:
		on_link(h, atts);
		break;
	case T_TITLE:
		if (!h->title_done && !h->foreign)
			start_capture(h, CAP_TITLE, NULL);
		break;
	case T_H1:
		/* A site's logo in its header is no page's title. */
		if (!h->article && !h->aside && !h->site_header && !h->foreign)
			h->h1_outside = true;
		kicker_date(h);
		teaser_lead(h);
		if (++h->b->h1_count == 1 && !h->foreign)
			start_capture(h, CAP_H1, NULL);
		else
			heading(h);
		break;
	case T_H2:
		heading(h);
		break;
	case T_A:
	case T_AREA:
		on_anchor(h, atts);
		break;
	case T_MEDIA_VOID:
		masthead_logo(h, atts);
		break;
	case T_TIME:
		on_time(h, atts);
		break;
	case T_P:
		/* "By X", "Von X", "Par X" lines open an article, after its
		 * meta line and a standfirst at most. */
		if (!h->byline_done && h->leads < 3 && in_body(h) &&
		    !h->aside) {
			h->leads++;
			start_capture(h, CAP_LEAD, NULL);
		}
		signature_paragraph(h);
		break;
	case T_BR:
		signature_break(h);
		break;
	case T_SCRIPT:
		v = attr(atts, "type");
		if (v && heed__ascii_ieq(v, strlen(v), "application/ld+json"))
			start_capture(h, CAP_JSONLD, NULL);
		else if (!attr(atts, "src") &&
		         (!v ||
		          heed__ascii_ieq(v, strlen(v), "application/json") ||
		          heed__ascii_ieq(v, strlen(v), "text/json") ||
		          heed__ascii_ieq(v, strlen(v), "text/javascript")))
			start_capture(h, CAP_SCRIPT, NULL);
		break;
	default:
		break;
	}
}

/* The attributes every element is asked for, read in one pass (this
 * runs for every element of every page). */
struct common_attrs {
	const char *props; /* itemprop, or NULL */
	const char *cls;   /* class, or NULL */
	const char *id;    /* id, or NULL */
	const char *href;  /* href, or NULL */
	const char *rel;   /* rel, or NULL */
	bool itemscope;
};

static void common_attrs(const char *const *atts, struct common_attrs *a)
{
	*a = (struct common_attrs){NULL, NULL, NULL, NULL, NULL, false};
	for (size_t i = 0; atts && atts[i]; i += 2) {
		const char *n = atts[i], *v = atts[i + 1] ? atts[i + 1] : "";
		if (n[0] == 'i' && n[1] == 't') {
			if (!a->props && strcmp(n, "itemprop") == 0)
				a->props = v;
			else if (strcmp(n, "itemscope") == 0)
				a->itemscope = true;
		} else if (n[0] == 'c' && !a->cls && same(n, "class")) {
			a->cls = v;
		} else if (n[0] == 'i' && n[1] == 'd' && !n[2] && !a->id) {
			a->id = v;
		} else if (n[0] == 'h' && !a->href && same(n, "href")) {
			a->href = v;
		} else if (n[0] == 'r' && !a->rel && same(n, "rel")) {
			a->rel = v;
		}
	}
}

/* True when a part of the token t[0, n) after its first, cut at "-" or
 * "_", is "comment" or "comments" ("kb-comments", "article_comment-list"):
 * a site's prefix before its comments area. Not a part that only starts
 * so ("PageArticle_commentHeader": an opinion piece's header), nor a
 * token that says a post has comments or none ("has-comments",
 * "no-comments" on the post itself). */
static bool comment_part(const char *t, size_t n)
{
	/* Each compare after a look at its first byte: this runs for every
	 * long token of every class and id. */
	char first = heed__ascii_lower(t[0]);

	if ((first == 'h' && n > 4 && heed__ascii_ieq(t, 4, "has-")) ||
	    (first == 'n' && n > 3 && heed__ascii_ieq(t, 3, "no-")))
		return false;
	for (size_t i = 1; i + 7 <= n; i++) {
		size_t e = i + 7;
		if ((t[i - 1] != '-' && t[i - 1] != '_') ||
		    heed__ascii_lower(t[i]) != 'c' ||
		    !heed__ascii_ieq(t + i, 7, "comment"))
			continue;
		if (e < n && (t[e] == 's' || t[e] == 'S'))
			e++;
		if (e == n || t[e] == '-' || t[e] == '_')
			return true;
	}
	return false;
}

/* True when the token t[0, n) is "sidebar" with a state after it
 * ("sidebar-on", "sidebar_enabled", "sidebar-off"): a theme's flag on
 * the container of the post and its sidebar, saying whether the layout
 * shows one, never the class of the sidebar itself. */
static bool layout_flag(const char *t, size_t n)
{
	static const char *const states[] = {"on",       "off",    "enabled",
	                                     "disabled", "active", "inactive",
	                                     "none"};

	return n > 8 && heed__ascii_ieq(t, 7, "sidebar") &&
	       (t[7] == '-' || t[7] == '_') &&
	       heed__ascii_ieq_any(t + 8, n - 8, states,
	                           HEED_ARRAY_SIZE(states));
}

/* The names of areas that are not the page's own (aside_name), for X.
 * (Laid out by hand: clang-format runs a list of macro calls together.) */
/* clang-format off */
#define ASIDE_NAMES(X) \
	X("comment")   \
	X("sidebar")   \
	X("related")   \
	X("teaser")    \
	X("infobox")   \
	X("reference") \
	X("citation")  \
	X("footnote")
/* clang-format on */

#define ASIDE_NAME(s) {s, sizeof(s) - 1},
static const struct {
	const char *s;
	size_t n;
} aside_names[] = {ASIDE_NAMES(ASIDE_NAME)};
#undef ASIDE_NAME

/* Whether a value holding these letters could name an aside: every one
 * of a name's letters is there for some name. A comment part and a
 * layout flag hold a name too ("comment", "sidebar"), so a value that
 * holds none is no aside at all, told at a look: most classes and ids
 * ("card c12", "entry-title"). */
static bool may_name_aside(uint32_t letters)
{
#define HOLDS_LETTERS_OF(s) || (LITERAL_LETTERS(s) & ~letters) == 0
	return false ASIDE_NAMES(HOLDS_LETTERS_OF);
#undef HOLDS_LETTERS_OF
}

/* True when a class or id token starts with one of the names of areas
 * that are not the page's own ("comment-list", "sidebar-left",
 * "related-posts", "teaser"). A token that only contains one
 * ("has-sidebar" on a wrapper) does not count, and a layout flag among
 * the tokens ("sidebar-on sidebar-right") makes the element the
 * container of the page's layout, not an aside. letters are v's
 * (letters_of). One pass, first letters first: this runs for every
 * element with a class or an id. */
static bool aside_name(const char *v, uint32_t letters)
{
	bool found = false;
	size_t n;

	if (!v || !may_name_aside(letters))
		return false;
	for (const char *p = v, *t; (t = next_token(&p, &n));) {
		char first = heed__ascii_lower(*t);
		if (n > 7 && comment_part(t, n))
			found = true;
		/* Most tokens start with none of the names' letters. */
		if (first != 'c' && first != 's' && first != 'r' &&
		    first != 't' && first != 'i' && first != 'f')
			continue;
		if (layout_flag(t, n))
			return false;
		for (size_t i = 0; i < HEED_ARRAY_SIZE(aside_names); i++)
			if (first == aside_names[i].s[0] &&
			    n >= aside_names[i].n &&
			    heed__ascii_ieq(t, aside_names[i].n,
			                    aside_names[i].s))
				found = true;
	}
	return found;
}

/* True when the names of areas that are not the page's own in the class
 * or id v (aside_name) all name one area, name ("sidebar",
 * "sidebar__item" for "sidebar"), none a comment or another area. */
static bool aside_name_only(const char *v, const char *name)
{
	bool named = false;
	size_t n;

	for (const char *p = v, *t; (t = next_token(&p, &n));) {
		if (n > 7 && comment_part(t, n))
			return false;
		for (size_t i = 0; i < HEED_ARRAY_SIZE(aside_names); i++) {
			if (n < aside_names[i].n ||
			    !heed__ascii_ieq(t, aside_names[i].n,
			                     aside_names[i].s))
				continue;
			if (strcmp(aside_names[i].s, name) != 0)
				return false;
			named = true;
		}
	}
	return named;
}

/* True when the element, named an aside by its class or id, is a sidebar
 * inside the page's own article (not a listed post's): the article's own
 * side column, where a magazine repeats the headline over the article's
 * day, author and tags (`<article>…<div class=sidebar><p
 * class=h1>…</p><time datetime=2022-01-28>`). The site's sidebar stands
 * beside the article, never in it. */
static bool article_sidebar(const struct html *h, const struct common_attrs *ca)
{
	return h->article && !h->article_listed && (ca->cls || ca->id) &&
	       (!ca->cls || !aside_name(ca->cls, h->cls_letters) ||
	        aside_name_only(ca->cls, "sidebar")) &&
	       (!ca->id || !aside_name(ca->id, letters_of(ca->id)) ||
	        aside_name_only(ca->id, "sidebar"));
}

/* True when a class that names a teaser and no other aside also names
 * the single view of an item, the page that shows one post whole
 * ("teaserTyp3 newsSingle": TYPO3's news extension sets its article so
 * in the site's teaser frame; "single-post"): the page's own item, not a
 * teaser of another page. */
static bool single_view_teaser(const char *cls)
{
	size_t n;

	if (!cls || !strstr(cls, "ingle") || !aside_name_only(cls, "teaser"))
		return false;
	for (const char *p = cls, *t; (t = next_token(&p, &n));)
		if (token_has(t, n, "single") && !token_has(t, n, "teaser"))
			return true;
	return false;
}

/* True when a class or id names the page's own content area
 * ("site-content content-area", "mainwrap"): themes give such a wrapper a
 * "sidebar" class or id when the layout has one beside it. */
static bool own_content_name(const char *v)
{
	static const char *const names[] = {
	        "main",         "mainwrap",     "main-wrap",   "main-content",
	        "maincontent",  "main-wrapper", "content",     "content-area",
	        "site-content", "site-main",    "page-content"};

	if (!v || (!strstr(v, "main") && !strstr(v, "content")))
		return false;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(names); i++)
		if (has_token(v, names[i]))
			return true;
	return false;
}

/* True when a class names a box of a post's own metadata ("meta",
 * "post-meta", "metadata", "blogData"): the date and byline of the post
 * it is in, which themes put in an <aside> beside the text. */
static bool meta_box_name(const char *cls)
{
	static const struct class_word box_words[] = {CLASS_WORD("meta"),
	                                              CLASS_WORD("data")};
	size_t n;

	if (!cls || aside_name(cls, letters_of(cls)))
		return false;
	for (const char *p = cls, *t; (t = next_token(&p, &n));)
		if (part_ends_in(t, n, box_words, HEED_ARRAY_SIZE(box_words)))
			return true;
	return false;
}

/* True when an id is the Wayback Machine's toolbar's ("wm-ipp",
 * "wm-ipp-base"), which web.archive.org puts at the top of every page it
 * replays: its dates ("10 Nov 2013", "1 capture") are the capture's,
 * never the archived page's. */
static bool wayback_toolbar(const char *id)
{
	return id && id[0] == 'w' && strncmp(id, "wm-ipp", 6) == 0;
}

/* True when a token of the list v has a part ending in "footer"
 * ("footer", "footer-text", "site-footer"; parts are cut at "-", "_"). */
static bool footer_token(const char *v)
{
	static const struct class_word footer = CLASS_WORD("footer");
	size_t n;

	for (const char *p = v, *t; (t = next_token(&p, &n));)
		if (part_ends_in(t, n, &footer, 1))
			return true;
	return false;
}

/* True when the element's class or id names a footer (footer_token).
 * The site's footer, outside the article and main, is where a
 * documentation generator or a static site stamps the day it last built
 * or changed the file ("Last updated on October 07, 2026", Sphinx). The
 * class's letters screen it first: most classes cannot hold the word. */
static bool footer_name(const struct html *h, const char *cls, const char *id)
{
	return (cls && CLASS_HAS(h, cls, "footer") && footer_token(cls)) ||
	       (id && strstr(id, "footer") && footer_token(id));
}

/* An element that opens an area whose dates and bylines are not the
 * page's: an aside or nav (but for the article's own metadata box in
 * it), a footer outside the article, an article inside the article (a
 * comment or a teaser), comments, sidebars and related-post lists by
 * their class or id. Not by the class of <html>, <body> or <main>: they
 * hold the whole page, and "one-sidebar" there describes its layout; nor
 * a wrapper that also names itself the page's content (`<div id=sidebar
 * class="site-content content-area">`, `<div class="mainwrap sidebar">`:
 * a layout with a sidebar). */
static bool opens_aside(const struct html *h, enum tag tag,
                        const struct common_attrs *ca)
{
	if (tag == T_ASIDE)
		return !h->article || !meta_box_name(ca->cls);
	if ((tag == T_FOOTER && !h->article) ||
	    (tag == T_ARTICLE && h->article))
		return true;
	if (tag == T_HTML || tag == T_BODY || tag == T_MAIN)
		return false;
	if (wayback_toolbar(ca->id))
		return true;
	/* Most elements have neither: no call for them. */
	return ((ca->cls && aside_name(ca->cls, h->cls_letters)) ||
	        (ca->id && aside_name(ca->id, letters_of(ca->id)))) &&
	       !own_content_name(ca->cls) && !own_content_name(ca->id) &&
	       !article_sidebar(h, ca) && !single_view_teaser(ca->cls);
}

/* True when a class token is "fn" (hCard's formatted name) or ends in
 * "author" ("comment-author", "w-comments-item-author"): the element of
 * a comment that shows its writer's name. */
static bool comment_name_class(const char *cls)
{
	size_t n;

	for (const char *p = cls, *t; (t = next_token(&p, &n));)
		if ((n == 2 && heed__ascii_ieq(t, 2, "fn")) ||
		    (n >= 6 && heed__ascii_ieq(t + n - 6, 6, "author")))
			return true;
	return false;
}

/* True while a capture of kind k is open. */
static bool capturing(const struct html *h, enum cap_kind k)
{
	for (size_t i = 0; i < h->ncaps; i++)
		if (h->caps[i].kind == k)
			return true;
	return false;
}

/* WordPress classes a comment by the post's own author "bypostauthor":
 * the name it shows is the author's, on a blog that credits its writer
 * nowhere else. Comments are asides, so this is read before asides are
 * screened: the first element in the comment that shows a name (and an
 * hCard "fn" inside it, which names the writer without the box's
 * "says:"); the replies nested in the comment are other people's. */
static void on_post_comment(struct html *h, const char *cls)
{
	if (h->post_comment_done || h->foreign)
		return;
	if (!h->post_comment) {
		if (CLASS_HAS(h, cls, "bypostauthor") &&
		    has_token(cls, "bypostauthor") && account_wanted(h))
			h->post_comment = h->depth + 1;
		return;
	}
	if (!comment_name_class(cls))
		return;
	if (!h->post_comment_seen || capturing(h, CAP_POST_COMMENT))
		(void)start_capture(h, CAP_POST_COMMENT, NULL);
	h->post_comment_seen = true;
}

/* A microdata keywords property read from an element's text is often a
 * list (<ul itemprop=keywords><li>linux<li>tmux, or one link per
 * keyword): each item or link is one keyword, so its start separates
 * it from the one before, as a comma would. */
static void keyword_item(struct html *h)
{
	for (size_t i = 0; i < h->ncaps; i++)
		if (h->caps[i].kind == CAP_PROP &&
		    strcmp(h->caps[i].prop, "keywords") == 0)
			(void)heed__buf_add(&h->caps[i].text, ",", 1);
}

/* The count of open elements of the tag's kind, or NULL for a tag
 * counted nowhere or elsewhere (article, edits, asides): open_tag() and
 * close_tag() keep them. */
static unsigned *tag_count(struct html *h, enum tag tag)
{
	/* A table, not a switch: the jump a switch compiles to is taken for
	 * every element, and which way it goes no predictor guesses. A tag
	 * counted by none (0 here) counts in a slot nothing reads. */
#define COUNT_OF(m) offsetof(struct html, m)
	static const unsigned short slot[T_COUNT] = {
	        [T_H1] = COUNT_OF(link_heading),
	        [T_H2] = COUNT_OF(link_heading),
	        [T_HN] = COUNT_OF(link_heading),
	        [T_HMINOR] = COUNT_OF(link_heading),
	        [T_A] = COUNT_OF(link_heading),
	        [T_FOREIGN] = COUNT_OF(foreign),
	        [T_MEDIA] = COUNT_OF(media),
	        [T_MAIN] = COUNT_OF(main),
	        [T_HEADER] = COUNT_OF(header),
	        [T_QUOTE] = COUNT_OF(quote),
	        [T_CODE] = COUNT_OF(code),
	        [T_BOLD] = COUNT_OF(bold),
	};
	size_t at = slot[tag] ? slot[tag] : COUNT_OF(uncounted);
#undef COUNT_OF

	return (unsigned *)((char *)h + at);
}

/* Counts the element the tag opens, where close_tag() will uncount it. */
static void open_tag(struct html *h, enum tag tag)
{
	if (tag == T_HMINOR)
		h->minor_heading++;
	(*tag_count(h, tag))++;
}

/* Marks an element's edge in every date element being read: see
 * date_piece. */
static void date_gaps(struct html *h)
{
	for (size_t i = 0; i < h->ncaps; i++)
		h->caps[i].gap = true;
}

void heed__html_start(struct html *h, const char *name, size_t len,
                      const char *const *atts)
{
	enum tag tag = tag_of(name, len);
	struct common_attrs ca;
	bool tracked, scope, aside, edit, site, foot;

	common_attrs(atts, &ca);
	h->cls_letters = ca.cls ? letters_of(ca.cls) : 0;
	h->href = ca.href;
	date_gaps(h);
	h->rel = ca.rel ? rel_types(ca.rel) : 0;
	h->text_opens = true;
	h->icon_date = false;
	/* Past the tracked depth nothing opens, since nothing could close. */
	tracked = h->depth < EXTRACT_MAX_DEPTH;
	if ((tag == T_LI || tag == T_A) && h->ncaps)
		keyword_item(h);
	scope = tracked && ca.itemscope && !h->foreign;
	if (ca.props && !h->foreign)
		on_itemprop(h, tag, atts, ca.props, scope);
	on_start_tag(h, tag, atts);
	if (ca.cls && tracked)
		on_post_comment(h, ca.cls);
	if (ca.cls)
		on_class(h, tag, ca.cls, atts);
	/* MediaWiki's "This page was last edited on ..." line. */
	if (ca.id && !h->foreign && !h->aside && strstr(ca.id, "lastmod"))
		date_text(h, F_MODIFIED, D_TEXT_CLASS_PAGE);
	/* AsciiDoc's header names its writer in <span id="author"> (its
	 * successor adds class=author, read above). */
	if (ca.id && !ca.cls && !h->foreign && !h->media && !h->aside &&
	    strcmp(ca.id, "author") == 0)
		on_byline(h);
	if (scope)
		open_scope(h, atts);
	if (tracked)
		open_tag(h, tag);
	site = tag == T_HEADER && tracked && !h->article && !h->main;
	if (site)
		h->site_header++;
	aside = tracked && opens_aside(h, tag, &ca);
	if (aside && !h->aside++ && !h->teaser_lead_done && ca.cls &&
	    aside_name_only(ca.cls, "teaser"))
		h->teaser = true;
	/* After on_start_tag: a <time class=updated> is read by its class
	 * alone; only the times inside the line are the edit's. */
	edit = tracked && ca.cls && !h->foreign && edit_class(h, ca.cls);
	if (edit)
		h->edit++;
	foot = tracked && !h->article && !h->main &&
	       footer_name(h, ca.cls, ca.id);
	if (foot)
		h->site_footer++;
	if (tag == T_ARTICLE && tracked && !h->article++)
		h->article_listed = h->h1_outside;
	if (tracked)
		h->stack[h->depth] = (struct el){
		        (unsigned char)tag, scope, aside, edit, site, foot};
	h->depth++;
}

/*
 * A list of words read where a text opens (lead_word()), in the order
 * they are tried, with the words each byte opens and the words each byte
 * is second in as bits in that order: a text is compared with the words
 * its first two bytes allow, not with the whole list. The date labels and
 * edit words are read at every text of a page that has no date yet, and
 * a walk over both lists was a fifth of a listing page's text handling.
 * The bits are set once, for every list, by word_lists_init(), before
 * the first page's reader is made (heed__html_new).
 */
struct word_list {
	const char *const *words; /* lower case, two bytes or longer */
	size_t count;
	uint64_t opening[256], second[256];
};

/* Declares list name over the array w, whose words fit the bits. */
#define WORD_LIST(name, w)                                                 \
	_Static_assert(HEED_ARRAY_SIZE(w) <= 64, #w " has over 64 words"); \
	static struct word_list name = {.words = (w),                      \
	                                .count = HEED_ARRAY_SIZE(w)}

/* The length of the first word of list l that opens s[0, len), ASCII
 * case ignored; 0 when none does. */
static size_t lead_word(const char *s, size_t len, const struct word_list *l)
{
	uint64_t can;

	if (len < 2)
		return 0;
	can = l->opening[(unsigned char)heed__ascii_lower(s[0])] &
	      l->second[(unsigned char)heed__ascii_lower(s[1])];
	for (; can; can &= can - 1) {
		const char *w = l->words[__builtin_ctzll(can)];
		size_t n = 2;
		/* Compared as far as they agree: most differ at once. */
		while (w[n] && n < len && heed__ascii_lower(s[n]) == w[n])
			n++;
		if (!w[n])
			return n;
	}
	return 0;
}

/* Words that open an edit's date line or label: "Updated", "Last
 * edited", "Mis à jour", "Aktualisiert", ... */
static const char *const edit_words[] = {"updated",
                                         "last updated",
                                         "last update",
                                         "this page last modified on",
                                         "generated on",
                                         "this document was generated on",
                                         "last edited",
                                         "last modified",
                                         "modified",
                                         "edited",
                                         "mis \303\240 jour",
                                         "modifi\303\251",
                                         "aktualisiert",
                                         "zuletzt ge\303\244ndert am",
                                         "zuletzt ge\303\244ndert",
                                         "zuletzt aktualisiert am",
                                         "zuletzt aktualisiert",
                                         "zuletzt",
                                         "ge\303\244ndert",
                                         "letzte \303\204nderung",
                                         "actualizado",
                                         "atualizado",
                                         "aggiornato",
                                         "modificato",
                                         "bijgewerkt",
                                         "laatst gewijzigd",
                                         "gewijzigd"};
WORD_LIST(edit_list, edit_words);

/* What the edit word w[0, n) says of its date: LABEL_PAGE when it names
 * the page's file ("This page last modified on", as a site stamps each
 * file it serves), LABEL_LATEST when it names the last of the page's
 * revisions ("Last updated", "Zuletzt geändert", "Letzte Änderung"), the
 * words of a stamp kept current on a living page, LABEL_PLAIN for a note
 * that a post was updated ("Updated"). */
static enum label_kind edit_word_kind(const char *w, size_t n)
{
	static const char *const latest[] = {"last ", "zuletzt", "letzte ",
	                                     "laatst "};

	if (n > 15 && heed__ascii_ieq(w, 15, "this page last "))
		return LABEL_PAGE;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(latest); i++) {
		size_t k = strlen(latest[i]);
		if (k <= n && heed__ascii_ieq(w, k, latest[i]))
			return LABEL_LATEST;
	}
	return LABEL_PLAIN;
}

/* Offers the date a date line's text gives, as field f. A line that
 * says it is an edit (edit_words) gives the modified date, whatever its
 * class says; one that says when a source was consulted ("Retrieved",
 * "Accessed": citations) dates nothing of the page. */
static const char *const consulted[] = {"retrieved",  "accessed",
                                        "abgerufen",  "consult\xC3\xA9",
                                        "consultado", "geraadpleegd"};
WORD_LIST(consulted_list, consulted);

static void offer_text_date(struct builder *b, enum field f, int sub,
                            const char *s, size_t len)
{
	heed__trim(&s, &len);
	if (lead_word(s, len, &consulted_list))
		return;
	if (lead_word(s, len, &edit_list))
		f = F_MODIFIED;
	heed__cand(b, f, O_HTML, sub, s, len);
}

/* True when every word of "A; B" is a name's (see
 * heed__capitalised_len()). */
static bool capitalised(const char *names)
{
	return heed__capitalised_len(names) == strlen(names);
}

/* The length of the inline formatting tag at s[0, len) ("<em>",
 * "</i>", "<span class=x>"), 0 when s opens none ("a < b", "<3", a
 * "<meta ...>" an unclosed <title> swallowed, which stays as text). */
static size_t tag_len(const char *s, size_t len)
{
	static const char *const names[] = {"em",  "i",   "b",     "strong",
	                                    "sup", "sub", "small", "span",
	                                    "u",   "br",  "mark",  "cite"};
	size_t i = 1, n;

	if (i < len && s[i] == '/')
		i++;
	n = i;
	while (n < len && (s[n] | 0x20) >= 'a' && (s[n] | 0x20) <= 'z')
		n++;
	if (n == i || n == len || (s[n] != '>' && s[n] != ' ' && s[n] != '/'))
		return 0;
	for (size_t k = 0;; k++) {
		if (k == HEED_ARRAY_SIZE(names))
			return 0;
		if (strlen(names[k]) == n - i &&
		    heed__ascii_ieq(s + i, n - i, names[k]))
			break;
	}
	for (; n < len; n++) {
		if (s[n] == '>')
			return n + 1;
		if (s[n] == '<')
			return 0;
	}
	return 0;
}

/* A <title>'s text as its words: without the formatting tags a CMS wrote
 * into it (<title> holds text only, so "<em>Brachiosaurus</em>" arrives
 * as these characters), and with its no-break spaces plain ones
 * ("Title&nbsp;|&nbsp;Site" is the separator " | "). In the arena; NULL
 * when out of memory. */
static const char *title_words(struct builder *b, const char *s, size_t *len)
{
	char *out = heed__strdup_arena(b, s, *len);
	size_t n = 0;

	if (!out)
		return NULL;
	for (size_t i = 0; i < *len;) {
		size_t t = s[i] == '<' ? tag_len(s + i, *len - i) : 0;
		if (t) {
			i += t;
		} else if (s[i] == '\xC2' && i + 1 < *len &&
		           s[i + 1] == '\xA0') {
			out[n++] = ' ';
			i += 2;
		} else {
			out[n++] = s[i++];
		}
	}
	out[n] = '\0';
	*len = n;
	return out;
}

/* How far past its label a value may start: "Veröffentlicht am Montag,
 * 16. August 2019 um 10:30 Uhr" fits, a paragraph's later date does not;
 * a longer text after an author's label is a sentence, not a byline. */
#define MAX_LABEL_VALUE 80

/* Labels of a publication date ("Datum:", "Published on"). */
static const char *const date_labels[] = {
        "published on",
        "published",
        "posted on",
        "date published",
        "publication date",
        "date de publication",
        "date",
        "datum",
        "ver\303\266ffentlicht am",
        "ver\303\266ffentlicht",
        "ver\303\266ffentlichung",
        "erschienen am",
        "erschienen",
        "pressemitteilung vom",
        "pressemeldung vom",
        "presseinformation vom",
        "erstellt am",
        "erstellt",
        "publi\303\251 le",
        "publi\303\251",
        "mis en ligne le",
        "mis en ligne",
        "mise en ligne le",
        "mise en ligne",
        "publicado el",
        "publicado em",
        "publicado",
        "fecha de publicaci\303\263n",
        "fecha",
        "data de publica\303\247\303\243o",
        "data di pubblicazione",
        "pubblicato il",
        "pubblicato",
        "gepubliceerd op",
        "gepubliceerd",
        /* A post's stamp written as a sentence (sentence_label_ok). */
        "this entry was posted on",
        "dieser artikel wurde am",
        "dieser beitrag wurde am",
        "dieser eintrag wurde am",
};
WORD_LIST(date_label_list, date_labels);

/* Labels of an author: "Von Ann Lee", "by Ann", "Ein Artikel von". */
static const char *const author_leads[] = {"ein artikel von",
                                           "ein beitrag von",
                                           "ein gastbeitrag von",
                                           "ein interview von",
                                           "gastbeitrag von",
                                           "blog beitrag von",
                                           "blogbeitrag von",
                                           "beitrag von",
                                           "interview von",
                                           "text von",
                                           "geschrieben von",
                                           "written by",
                                           "\303\251crit par",
                                           "\303\211crit par",
                                           "von",
                                           "by",
                                           "par",
                                           "por",
                                           "door"};
WORD_LIST(author_lead_list, author_leads);

/* Labels of an author that want their colon: "Autor: Ann Lee", "Text:";
 * without one they are words of a sentence. */
static const char *const author_nouns[] = {
        "autorin", "autoren", "autor",     "author",    "auteur",     "autore",
        "text",    "texte",   "redaktion", "verfasser", "herausgeber"};
WORD_LIST(author_noun_list, author_nouns);

/* Bytes at s[0, len) of the characters in set and no-break spaces. */
static size_t separators_len(const char *s, size_t len, const char *set)
{
	size_t n = 0;

	while (n < len) {
		/* The sets are short: a loop, not a strchr() call a byte
		 * (this runs on most texts of a page). */
		const char *c = set;
		while (*c && *c != s[n])
			c++;
		if (*c)
			n++;
		else if (n + 1 < len && s[n] == '\xC2' && s[n + 1] == '\xA0')
			n += 2;
		else
			break;
	}
	return n;
}

/* n when s[0, n) is a whole word (no letter follows), with the separators
 * after it (spaces, no-break spaces, a colon); 0 otherwise. */
static size_t label_end(const char *s, size_t len, size_t n)
{
	if (!n || (n < len && heed__ascii_lower(s[n]) >= 'a' &&
	           heed__ascii_lower(s[n]) <= 'z'))
		return 0;
	return n + separators_len(s + n, len - n, " \t\n\r\f:");
}

/* False when the date label s[0, n) opens a sentence ("This entry was
 * posted on", "Dieser Artikel wurde am") and no hour follows within the
 * label's reach: a blog theme stamps its post so with the day and the
 * hour ("... am 14. Dezember 2015 um 14:48 von Ann geschrieben", WordPress
 * Kubrick's "This entry was posted on Friday, June 1st, 2012 at 9:15
 * am"), while a notice gives the day alone (Wikipedia's "Dieser Artikel
 * wurde am 24. September 2005 in die Liste der lesenswerten Artikel
 * aufgenommen" dates a review, not the text). */
static bool sentence_label_ok(const char *s, size_t len, size_t n)
{
	size_t end = len < n + MAX_LABEL_VALUE ? len : n + MAX_LABEL_VALUE;

	/* The sentences are the labels opening "this " or "diese". */
	if (n < 5 ||
	    !(heed__ascii_ieq(s, 5, "this ") || heed__ascii_ieq(s, 5, "diese")))
		return true;
	for (size_t i = n; i + 5 <= end; i++)
		if ((heed__ascii_ieq(s + i, 4, " um ") ||
		     heed__ascii_ieq(s + i, 4, " at ")) &&
		    s[i + 4] >= '0' && s[i + 4] <= '9')
			return true;
	return false;
}

/* The length of the date label that opens s[0, len), with the
 * separators after it, or 0; *f gets what the label dates: an edit word
 * and "Stand" ("as of") date an edit, and *kind says which ("Stand" is
 * LABEL_ASOF; an edit word's kind is edit_word_kind's).
 * "Dates of the tour" is no label. */
static size_t date_label_len(const char *s, size_t len, enum field *f,
                             enum label_kind *kind)
{
	/* "[Stand: 09.10.2017, 01:40 Uhr]": a bracketed label. */
	size_t open = len > 1 && (*s == '[' || *s == '('), n;

	s += open;
	len -= open;
	*f = F_PUBLISHED;
	*kind = LABEL_PLAIN;
	n = lead_word(s, len, &date_label_list);
	if (n && !sentence_label_ok(s, len, n))
		return 0;
	if (!n) {
		*f = F_MODIFIED;
		n = lead_word(s, len, &edit_list);
		if (n)
			*kind = edit_word_kind(s, n);
		if (!n && len >= 5 && heed__ascii_lower(*s) == 's' &&
		    heed__ascii_ieq(s, 5, "stand")) {
			n = 5;
			*kind = LABEL_ASOF;
		}
	}
	n = label_end(s, len, n);
	return n ? open + n : 0;
}

/* True when the author's noun s[0, n) names a person ("Autoren", not
 * "Text" or "Redaktion") and a list of names follows it after a space
 * ("Autoren Jelko Djuren und Jutta Klaukien"): a label without its
 * colon, whose names are read as every label's are. One name after the
 * noun ("Author Jane Doe") may open a sentence and is no label. */
static bool bare_author_noun(const char *s, size_t len, size_t n)
{
	static const char *const joins[] = {" und ", " and ", ", ", " & "};
	char c = heed__ascii_lower(*s);

	if ((c != 'a' && c != 'v') || n + 1 >= len || s[n] != ' ')
		return false;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(joins); i++)
		if (memmem(s + n, len - n, joins[i], strlen(joins[i])))
			return true;
	return false;
}

/* The length of the author label that opens s[0, len), with the
 * separators after it, or 0. A bar or a dash may come first: a meta
 * line's "| By" (a theme's screen-reader text between the date and the
 * name) or "- Redaktion:" after its date is the label of the name that
 * follows. */
static size_t author_label_len(const char *s, size_t len)
{
	bool bar_first = len && (*s == '|' || *s == '-');
	size_t bar = bar_first ? separators_len(s, len, "|- \t") : 0, n;

	s += bar;
	len -= bar;
	n = lead_word(s, len, &author_noun_list);
	if (n && (n == len || s[n] != ':') && !bare_author_noun(s, len, n))
		n = 0;
	if (!n)
		n = lead_word(s, len, &author_lead_list);
	n = label_end(s, len, n);
	return n ? bar + n : 0;
}

/* True when a byline's names are a date's label alone: "Veröffentlicht
 * am 19.10.19", cut at its date, leaves "Veröffentlicht", which names
 * nobody. */
static bool date_label_alone(const char *s)
{
	enum field f;
	enum label_kind kind;
	size_t len = strlen(s);

	return date_label_len(s, len, &f, &kind) == len;
}

/* True when a byline element's text s[0, len) is a label alone, a
 * date's ("Posted on", "Publiziert am") or an author's ("By", "Von:"): it
 * names nobody and dates nothing. An empty one is not: a teaser's byline
 * inside a link loses its text to the link, and the next byline is as
 * likely another teaser's. */
static bool byline_label_alone(const char *s, size_t len)
{
	enum field f;
	enum label_kind kind;

	heed__trim(&s, &len);
	if (!len || date_label_len(s, len, &f, &kind) == len)
		return len > 0;
	heed__author_unprefix(&s, &len);
	return !len;
}

/* True when s[0, len) is an author's noun alone ("Autor", "Author:"),
 * as a heading over the name writes it. */
static bool author_noun_alone(const char *s, size_t len)
{
	size_t n = lead_word(s, len, &author_noun_list);

	return n && label_end(s, len, n) == len;
}

/* A byline's lead as a heading over the writer's card writes it. */
static const char *const heading_leads[] = {"published by",
                                            "posted by",
                                            "written by",
                                            "geschrieben von",
                                            "ver\303\266ffentlicht von",
                                            "verfasst von",
                                            "publi\303\251 par",
                                            "\303\251crit par",
                                            "publicado por",
                                            "escrito por"};
WORD_LIST(heading_lead_list, heading_leads);

/* True when s[0, len) is a byline's lead alone ("Published By",
 * "Geschrieben von"). */
static bool heading_lead_alone(const char *s, size_t len)
{
	size_t n = lead_word(s, len, &heading_lead_list);

	return n && label_end(s, len, n) == len;
}

/* The labels of a source line. */
static const char *const source_labels[] = {"quelle", "source", "fuente",
                                            "fonte"};
WORD_LIST(source_label_list, source_labels);

/* The length of a source line's label that opens s[0, len) ("Quelle:",
 * "Source:"), with its colon and the separators after it, or 0. */
static size_t source_label_len(const char *s, size_t len)
{
	size_t n = lead_word(s, len, &source_label_list);

	if (!n || n == len || s[n] != ':')
		return 0;
	return n + separators_len(s + n, len - n, " \t\n\r\f:");
}

/* A source line opens the text of the element s is in: its names are
 * read when the element ends ("Quelle: <a>kathpress</a>"). */
static void source_line(struct html *h, const char *s, size_t len)
{
	struct capture *c = start_capture(h, CAP_SOURCE, NULL);

	h->source_done = true;
	if (!c)
		return;
	c->depth = h->depth;
	(void)heed__buf_add(&c->text, s, len);
}

/* A lead paragraph "By Ann Lee", "Von Anna Schmidt | 5. März 2024", or
 * one opening with another author's lead ("Ein Interview von Ann Lee"):
 * a byline of names only, ranked after a byline marked by its class. */
static void lead_line(struct html *h, const char *s, size_t len)
{
	static const char *const leads[] = {"By ",  "BY ",   "Von ", "Par ",
	                                    "Por ", "Door ", "Di "};
	const char *names;
	bool lead = false;
	size_t n;

	heed__trim(&s, &len);
	for (size_t i = 0; i < HEED_ARRAY_SIZE(leads) && !lead; i++)
		lead = len > strlen(leads[i]) &&
		       memcmp(s, leads[i], strlen(leads[i])) == 0;
	if (!lead && len < 160) {
		/* Another author's lead of several words ("Ein Interview von",
		 * "Written by"); the one-word ones are those above, capitalised
		 * as a line's first word is. "Ein Interview von Ann Lee mit Bo
		 * Chan.": the interviewer wrote it; who answers follows "mit".
		 */
		size_t w = lead_word(s, len, &author_lead_list);
		size_t k = w && memchr(s, ' ', w) ? label_end(s, len, w) : 0;
		const char *mit = k ? memmem(s + k, len - k, " mit ", 5) : NULL;
		if (mit && memmem(s, k, "nterview", 8))
			len = (size_t)(mit - s);
		lead = k > 0;
		s += k;
		len -= k;
	}
	if (!lead || len > 160)
		return;
	names = heed__byline_names(h->b, s, len);
	n = names ? heed__line_names_len(names) : 0;
	if (n) {
		h->byline_done = true;
		heed__lead_names(h->b, names, n);
		heed__cand(h->b, F_AUTHOR, O_HTML, 1, names, n);
		offer_text_date(h->b, F_PUBLISHED, D_TEXT_BODY, s, len);
	}
}

/* Sub-rank of an author named after a label: after every byline. */
#define A_LABEL 3

/* True while a date of sub-rank sub (D_LABEL, D_BARE) could still give
 * the published date. */
static bool label_date_wanted(const struct html *h, int sub)
{
	/* No date yet, as on most texts of a page without one: no call. */
	return !h->b->cand[F_PUBLISHED].value ||
	       !heed__cand_settled(h->b, F_PUBLISHED, O_HTML, sub) ||
	       (sub == D_LABEL && heed__published_generic(h->b));
}

/* True while an author label could still give the author: until the
 * first that names someone, and past a better source that gave one word
 * only, the first name a label's full name opens with. */
static bool label_author_wanted(const struct html *h)
{
	return !h->label_author_done &&
	       (!h->b->cand[F_AUTHOR].value ||
	        !heed__cand_settled(h->b, F_AUTHOR, O_HTML, A_LABEL) ||
	        heed__author_short(h->b));
}

/* Labels of a paper's key words, with their colon ("Key words:
 * Sauropoda, Dinosauria."): a journal that declares no keywords prints
 * them so under the abstract. */
static const char *const keyword_labels[] = {
        "key words",           "keywords",
        "schlagw\303\266rter", "schl\303\274sselw\303\266rter",
        "mots-cl\303\251s",    "mots cl\303\251s",
        "palabras clave",      "parole chiave",
};
WORD_LIST(keyword_label_list, keyword_labels);

/* Weekdays as pages print them before a date ("jeudi 13 juin 2019",
 * "Thursday, June 13, 2019"): English, French, German, Spanish,
 * Italian, Portuguese, Dutch; full names before the abbreviations they
 * open with, since the first word that opens a text is taken. */
static const char *const weekdays[] = {
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
        "lundi",
        "mardi",
        "mercredi",
        "jeudi",
        "vendredi",
        "samedi",
        "dimanche",
        "montag",
        "dienstag",
        "mittwoch",
        "donnerstag",
        "freitag",
        "samstag",
        "sonnabend",
        "sonntag",
        "lunes",
        "martes",
        "mi\303\251rcoles",
        "jueves",
        "viernes",
        "s\303\241bado",
        "domingo",
        "luned\303\254",
        "marted\303\254",
        "mercoled\303\254",
        "gioved\303\254",
        "venerd\303\254",
        "sabato",
        "domenica",
        "segunda-feira",
        "ter\303\247a-feira",
        "quarta-feira",
        "quinta-feira",
        "sexta-feira",
        "maandag",
        "dinsdag",
        "woensdag",
        "donderdag",
        "vrijdag",
        "zaterdag",
        "zondag",
        "mon",
        "tue",
        "wed",
        "thu",
        "fri",
        "sat",
        "sun",
};
WORD_LIST(weekday_list, weekdays);

/* Words that say "on" before a day, a byline's date on a line of its
 * own ("von Ann Lee<br>am 20.09.2020", "le 13 juin 2019"). */
static const char *const day_prepositions[] = {"on", "am", "le", "el",
                                               "em", "il", "op"};
WORD_LIST(day_preposition_list, day_prepositions);

static pthread_once_t word_lists_once = PTHREAD_ONCE_INIT;

static void word_lists_init(void)
{
	struct word_list *const lists[] = {
	        &edit_list,           &consulted_list,     &date_label_list,
	        &author_lead_list,    &author_noun_list,   &heading_lead_list,
	        &source_label_list,   &keyword_label_list, &weekday_list,
	        &day_preposition_list};

	tag_index_init();
	for (size_t i = 0; i < HEED_ARRAY_SIZE(lists); i++) {
		struct word_list *l = lists[i];
		for (size_t w = 0; w < l->count; w++) {
			const unsigned char *word =
			        (const unsigned char *)l->words[w];
			l->opening[word[0]] |= (uint64_t)1 << w;
			l->second[word[1]] |= (uint64_t)1 << w;
		}
	}
}

/* The length of the key words label that opens s[0, len), with its
 * colon and the separators after it, or 0. */
static size_t keyword_label_len(const char *s, size_t len)
{
	size_t n = lead_word(s, len, &keyword_label_list);

	if (!n)
		return 0;
	n += separators_len(s + n, len - n, " \t");
	if (n == len || s[n] != ':')
		return 0;
	return n + separators_len(s + n, len - n, " \t\n\r\f:");
}

/* The tags after a key words label, without the list's full stop. A
 * long text with no list separator is a paragraph that followed an empty
 * label, no key words. */
static void keyword_tags(struct html *h, const char *s, size_t len)
{
	heed__trim(&s, &len);
	if (len && s[len - 1] == '.')
		len--;
	h->keywords_done = true;
	if (len > 1024 ||
	    (len > 64 && !memchr(s, ',', len) && !memchr(s, ';', len)))
		return;
	heed__tags(h->b, O_HTML, s, len, true);
}

/* The sub-rank of a date after a label of kind kind: D_LABEL_STAMP for
 * a file's stamp, a last revision's date in the site's footer ("Last
 * updated on October 07, 2026") or one that names the page ("This page
 * last modified on"), which is the modified date only: a generator
 * stamps every page it builds so, and a reference page is revised
 * without end, so it tells nothing of when the text was first issued.
 * D_LABEL for any other. */
static int label_sub(const struct html *h, enum label_kind kind)
{
	if (kind == LABEL_PAGE || (kind == LABEL_LATEST && h->site_footer))
		return D_LABEL_STAMP;
	return D_LABEL;
}

/* Offers s[0, len), the text after a label of kind kind, as field f.
 * An "as of" date is the modified date, and the published date when
 * nothing else dates the page: a page that shows only the date of its
 * present state ("Stand: 19.10.2019", as German sites write it under an
 * article) was, as far as a reader can tell, published then. */
static void label_value(struct html *h, enum field f, enum label_kind kind,
                        const char *s, size_t len)
{
	const char *names;
	size_t n;

	if (f == F_COUNT) {
		keyword_tags(h, s, len);
		return;
	}
	if (len > MAX_LABEL_VALUE && f != F_AUTHOR)
		len = MAX_LABEL_VALUE;
	if (kind == LABEL_ASOF)
		heed__cand(h->b, F_PUBLISHED, O_HTML, D_ASOF, s, len);
	if (f != F_AUTHOR) {
		heed__cand(h->b, f, O_HTML, label_sub(h, kind), s, len);
		return;
	}
	if (len > MAX_LABEL_VALUE)
		return;
	names = heed__byline_names(h->b, s, len);
	n = names ? heed__line_names_len(names) : 0;
	if (!n)
		return;
	/* A list's further term of the same noun credits one more writer
	 * ("<dt>author:</dt><dd>Peter Moody</dd><dt>author:</dt><dd>Nick
	 * Coghlan</dd>", Sphinx's field list). */
	if (h->label_term && h->term_author) {
		heed__author_add(h->b, O_HTML, A_LABEL, names, n);
		return;
	}
	h->label_author_done = true;
	if (h->label_term) {
		h->term_author = true;
		heed__lead_names(h->b, names, n);
	}
	heed__cand(h->b, F_AUTHOR, O_HTML, A_LABEL, names, n);
}

/* s[0, len) opens with a label n bytes long: the value after it, or,
 * when the label is all of s, the next text's. */
static void after_label(struct html *h, enum field f, enum label_kind kind,
                        const char *s, size_t len, size_t n)
{
	if (n == len) {
		h->label_pending = true;
		h->label_field = f;
		h->label_kind = kind;
		return;
	}
	label_value(h, f, kind, s + n, len - n);
}

/* An author's label opens the text of the element s is in: the names
 * are read from the whole element when it ends ("<p>Von <a>Ann Lee</a>
 * wird berichtet</p>" is a sentence, no byline). */
static void author_label(struct html *h, const char *s, size_t len)
{
	struct capture *c;

	for (size_t i = 0; i < h->ncaps; i++)
		if (h->caps[i].kind == CAP_AUTHOR_LABEL)
			return;
	c = start_capture(h, CAP_AUTHOR_LABEL, NULL);
	if (!c)
		return;
	c->depth = h->depth; /* the element open around s */
	(void)heed__buf_add(&c->text, s, len);
}

/* The text of an element that opens with an author's label: the names
 * after it, or, when the label is all of it ("<b>von</b> <a>Ann
 * Lee</a>"), the next text's. */
static void author_label_end(struct html *h, const char *s, size_t len)
{
	size_t n;

	heed__trim(&s, &len);
	n = author_label_len(s, len);
	if (n)
		after_label(h, F_AUTHOR, LABEL_PLAIN, s, len, n);
}

/* The text of an element that opens with a source line's label: the
 * names after it, kept for heed__source_over_site. */
static void source_line_end(struct html *h, const char *s, size_t len)
{
	const char *names;
	size_t n;

	heed__trim(&s, &len);
	n = source_label_len(s, len);
	if (!n || len - n > MAX_LABEL_VALUE)
		return;
	/* An agency writes its name as it likes ("kathpress", "dpa"): no
	 * capitals asked, but a byline's limits on words and digits. */
	names = heed__byline_names(h->b, s + n, len - n);
	if (names && *names)
		heed__source_names(h->b, names, strlen(names));
}

/* Whether s[0, len), a bracket's words, credits a wire agency: its code
 * alone ("dpa"), after a desk's or an editor's code and "mit" ("FR mit
 * dpa"), or beside an editor's code around a slash ("dpa/gem",
 * "ank/dpa"), as German papers close a story the agency delivered. */
static bool wire_credit(const char *s, size_t len)
{
	static const char *const agencies[] = {
	        "dpa", "afp", "ap",  "apa", "sda",     "sid", "kna",
	        "epd", "dts", "ddp", "efe", "reuters", "ansa"};
	const char *mit = memmem(s, len, " mit ", 5), *slash;
	size_t a;

	if (mit) {
		a = (size_t)(mit - s);
		if (a < 1 || a > 6 || memchr(s, ' ', a))
			return false;
		s = mit + 5;
		len -= a + 5;
	}
	slash = memchr(s, '/', len);
	if (!slash)
		return heed__ascii_ieq_any(s, len, agencies,
		                           HEED_ARRAY_SIZE(agencies));
	if (mit || memchr(s, ' ', len) ||
	    memchr(slash + 1, '/', (size_t)(s + len - slash - 1)))
		return false;
	a = (size_t)(slash - s);
	return (heed__ascii_ieq_any(s, a, agencies,
	                            HEED_ARRAY_SIZE(agencies)) &&
	        len - a - 1 >= 1 && len - a - 1 <= 4) ||
	       (a >= 1 && a <= 4 &&
	        heed__ascii_ieq_any(slash + 1, len - a - 1, agencies,
	                            HEED_ARRAY_SIZE(agencies)));
}

/* A paragraph's text that closes, after its last sentence or alone, on a
 * wire agency's credit in brackets ("... hieß es. (FR mit dpa)"): the
 * story's source, kept as a source line's names are. */
static void closing_wire_credit(struct html *h, const char *s, size_t len)
{
	const char *open = memrchr(s, '(', len);
	size_t n;

	if (!open || len - (size_t)(open - s) > 24)
		return;
	if (open > s &&
	    (open < s + 2 || open[-1] != ' ' || !strchr(".!?", open[-2])))
		return;
	n = len - (size_t)(open - s) - 2;
	if (!wire_credit(open + 1, n))
		return;
	h->source_done = true;
	heed__source_names(h->b, open + 1, n);
}

/* A text that opens with a name and the author's handle in brackets
 * after it ("C.Habermueller (chabermu) ist ITK-Experte ...", a blog's
 * widget about its writer; "Ann Lee (@annlee)"): the page says whose the
 * account is, so the name, one to four capitalised words, is kept for
 * heed__handle_named. */
static void handle_text(struct html *h, const char *s, size_t len)
{
	const char *handle = heed__author_handle(h->b, h->handle_rank);
	const char *open, *close, *p;
	size_t words = 1, hn;

	heed__trim(&s, &len);
	if (!len || !(*s >= 'A' && *s <= 'Z'))
		return;
	open = memmem(s, len < 64 ? len : 64, " (", 2);
	if (!open || open == s)
		return;
	p = open + 2;
	if (p < s + len && *p == '@')
		p++;
	hn = strlen(handle);
	if (hn >= (size_t)(s + len - p))
		return;
	close = p + hn;
	if (*close != ')' || !heed__ascii_ieq(p, hn, handle))
		return;
	for (p = s; p < open; p++)
		if (*p == ' ' && ++words > 4)
			return;
		else if (*p == ' ' && !(p[1] >= 'A' && p[1] <= 'Z'))
			return;
	h->b->handle_name = heed__strdup_arena(h->b, s, (size_t)(open - s));
	h->b->handle_of = handle;
}

/* Text inside a paragraph read for a signature; any outside bold but
 * white space makes it plain. */
static void signature_text(const struct html *h, struct capture *c,
                           const char *s, size_t len)
{
	const char *t = s;
	size_t n = len;

	heed__trim(&t, &n);
	if (!h->bold && n)
		c->plain = true;
	(void)heed__buf_add(&c->text, s, len);
}

/* True when s[0, len) is a signer's office alone, its last word ending
 * in an office's noun ("DITIB-Bundesvorsitzender", "Pr\xC3\xA4sident
 * des Verbandes" is a phrase, no office alone): a statement its officer
 * signs with the name over the office. */
static bool office_line(const char *s, size_t len)
{
	static const char *const offices[] = {"vorsitzender",
	                                      "vorsitzende",
	                                      "pr\xC3\xA4sident",
	                                      "pr\xC3\xA4sidentin",
	                                      "gesch\xC3\xA4"
	                                      "ftsf\xC3\xBChrer",
	                                      "gesch\xC3\xA4"
	                                      "ftsf\xC3\xBChrerin",
	                                      "president",
	                                      "chairman",
	                                      "chairwoman"};

	if (len > 64 || memchr(s, ' ', len))
		return false;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(offices); i++) {
		size_t n = strlen(offices[i]);
		if (len >= n && heed__ascii_ieq(s + len - n, n, offices[i]))
			return true;
	}
	return false;
}

/* True when s[0, *len) is a line, a line break and a date alone
 * ("Benni\n10. September 2017") or an office alone ("Kaz\xC4\xB1m
 * T\xC3\x9CRKMEN\nDITIB-Bundesvorsitzender"); *len becomes the first
 * line's. */
static bool dated_line(const char *s, size_t *len)
{
	const char *nl = memchr(s, '\n', *len), *d;
	size_t n;

	if (!nl)
		return false;
	d = nl + 1;
	n = *len - (size_t)(d - s);
	heed__trim(&d, &n);
	if (!n || (heed__page_date_len(d, n, NULL) != n && !office_line(d, n)))
		return false;
	*len = (size_t)(nl - s);
	return true;
}

/* A paragraph that closes on its writer's name in brackets after its
 * last sentence, as local papers sign ("... bleibt spannend. (Christian
 * P. Stadtfeld) +++"): the name, kept as a bio's is, so that it replaces
 * only a login or a first name it spells or opens with; a bracket after
 * a sentence as often credits an agency or comments. */
static void bio_name(struct builder *b, const char *s, size_t len);

static void closing_bracket(struct builder *b, const char *s, size_t len)
{
	const char *open, *p;

	if (b->bio_name)
		return;
	if (len > 4 && memcmp(s + len - 3, "+++", 3) == 0) {
		len -= 3;
		heed__trim(&s, &len);
	}
	if (len < 8 || s[len - 1] != ')')
		return;
	open = memrchr(s, '(', len);
	if (!open || open < s + 2 || open[-1] != ' ' ||
	    !strchr(".!?", open[-2]))
		return;
	/* Every word a name's: "(Mit Material von dts)" is none. */
	for (p = open + 1; p < s + len - 1; p++)
		if (p[-1] == ' ' && !(*p >= 'A' && *p <= 'Z') &&
		    !((unsigned char)*p >= 0xC3 && (unsigned char)*p <= 0xC5))
			return;
	bio_name(b, open + 1, (size_t)(s + len - 1 - open - 1));
}

/* A paragraph read for a signature ends (h->depth is its own). A bold
 * name alone after two paragraphs with text or more of the same element
 * ("<p>...</p><p>...</p><p><b>Ann Lee</b></p>") waits for that element
 * to end: an article its writer signs so, in its last paragraph, often
 * names them nowhere else. Any later text drops it (a bold name among
 * paragraphs is a subheading or a speaker's), and so does a colon ("Quelle:
 * Kapo BE" credits a source). A name that is not bold signs so only with
 * its date on the next line ("<p>Benni<br>10. September 2017</p>"), one
 * word too: a sentence does not end in a date alone. */
static void signature_end(struct html *h, const struct capture *c,
                          const char *s, size_t len)
{
	const char *names;

	heed__trim(&s, &len);
	if (!len)
		return;
	if (h->para_parent == h->depth) {
		h->paras++;
	} else {
		h->para_parent = h->depth;
		h->paras = 1;
	}
	h->signature = NULL;
	closing_bracket(h->b, s, len);
	if (h->paras < 3 || len > MAX_LABEL_VALUE || memchr(s, ':', len) ||
	    (c->plain && !dated_line(s, &len)))
		return;
	names = heed__byline_names(h->b, s, len);
	if (names && capitalised(names) &&
	    (c->plain ? !strchr(names, ';')
	              : memchr(names, ' ', strcspn(names, ";")) != NULL)) {
		h->signature = names;
		h->signature_depth = h->depth;
	}
}

/* Text after a waiting signature, but white space: it closed nothing. */
static void signature_drop(struct html *h, const char *s, size_t len)
{
	heed__trim(&s, &len);
	if (len)
		h->signature = NULL;
}

/* The element holding a waiting signature has ended: it signed the
 * paragraphs before it. */
static void signature_offer(struct html *h)
{
	heed__cand(h->b, F_AUTHOR, O_HTML, A_SIGNATURE, h->signature,
	           strlen(h->signature));
	h->signature = NULL;
}

/* Sub-rank of a press release's contact: after every signature. */
#define A_CONTACT 5

/* True when s[0, len) is all of a press contact's label ("Pressekontakt",
 * "Media contact", "Kontakt:"; the last wants its colon, or it is a
 * menu's word). */
static bool contact_label(const char *s, size_t len)
{
	static const char *const labels[] = {
	        "pressekontakt",  "pressekontakt:", "medienkontakt",
	        "medienkontakt:", "press contact",  "press contact:",
	        "media contact",  "media contact:", "kontakt:"};

	return heed__ascii_ieq_any(s, len, labels, HEED_ARRAY_SIZE(labels));
}

/* True while a press contact could still give the author. */
static bool contact_wanted(const struct html *h)
{
	return !h->contact_done &&
	       !heed__cand_settled(h->b, F_AUTHOR, O_HTML, A_CONTACT);
}

/* The text after a press contact's label: the name of the person a
 * press release gives to answer for it, the one who wrote it as far as
 * the page tells, when nobody else is named. One name of two words or
 * more; an address or a desk is none. */
static void contact_value(struct html *h, const char *s, size_t len)
{
	const char *names;
	size_t n;

	h->contact_done = true;
	if (len > MAX_LABEL_VALUE)
		return;
	names = heed__byline_names(h->b, s, len);
	n = names ? heed__line_names_len(names) : 0;
	if (n && memchr(names, ' ', strcspn(names, ";")))
		heed__cand(h->b, F_AUTHOR, O_HTML, A_CONTACT, names, n);
}

/* The length of the copyright mark at s[0, len) ("\xC2\xA9", "(c)",
 * "Copyright"), or 0. */
static size_t copyright_mark(const char *s, size_t len)
{
	static const char *const marks[] = {"\xC2\xA9", "(c)", "copyright"};

	for (size_t i = 0; i < HEED_ARRAY_SIZE(marks); i++) {
		size_t n = strlen(marks[i]);
		if (len >= n && heed__ascii_ieq(s, n, marks[i]))
			return n;
	}
	return 0;
}

/* The length of a copyright notice's opening at s[0, len): its marks,
 * in any order and number, and the years after them ("Copyright (c)
 * 2012- "), or 0 when none opens it. */
static size_t copyright_len(const char *s, size_t len)
{
	size_t k, n = 0;

	for (k = copyright_mark(s, len); k;
	     k = copyright_mark(s + n, len - n)) {
		n += k;
		n += separators_len(s + n, len - n, " \t\n\r\f:");
	}
	if (!n)
		return 0;
	return n + separators_len(s + n, len - n, "0123456789-/, \t\n\r\f");
}

/* The end of a copyright holder's name at s[0, len): a comma (a place or
 * an institution follows: "Ann Lee, Universität Wien") or the first full
 * stop after a word ("Ann Lee. All rights reserved."; an initial's "L."
 * goes on). */
static size_t holder_end(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (s[i] == ',' || s[i] == ';' || heed__word_stop(s, i))
			return i;
	return len;
}

/* Whether a copyright notice's holder is an organisation: names, its
 * name as read, opening with "The" ("The Apache Software Foundation") or
 * ending in a legal form or a word for a body of people ("Ericsson AB",
 * "Developer's Reference Team"), or its legal form after the comma that
 * ended it in the notice's text s[0, len) at n ("Kitware, Inc. and
 * Contributors"). Documentation and a company's site sign every page so;
 * only a person's own site names its author there. */
static bool holder_organisation(const char *names, const char *s, size_t n,
                                size_t len)
{
	static const char *const bodies[] = {
	        "Foundation",  "Team",       "Project",     "Contributors",
	        "Authors",     "Developers", "Community",   "Corporation",
	        "Company",     "Group",      "Association", "Society",
	        "Consortium",  "Institute",  "University",  "Organization",
	        "Organisation"};
	size_t end = strlen(names), k;
	const char *w;

	if (strncmp(names, "The ", 4) == 0)
		return true;
	for (k = end; k && names[k - 1] != ' '; k--)
		;
	if (heed__legal_form(names + k, end - k) ||
	    heed__ascii_ieq_any(names + k, end - k, bodies,
	                        HEED_ARRAY_SIZE(bodies)))
		return true;
	if (n >= len || s[n] != ',')
		return false;
	w = s + n + 1 + separators_len(s + n + 1, len - n - 1, " ");
	for (k = 0; w + k < s + len && !strchr(" ,;", w[k]); k++)
		;
	return heed__legal_form(w, k);
}

/* The holder a notice names at s[0, len), after its opening. Two
 * holders around a spaced slash ("\xC2\xA9 Niklas Grapatin / Greenpeace")
 * are a picture's credit, its photographer and agency, not the text's. */
static void copyright_holder_names(struct html *h, const char *s, size_t len)
{
	const char *names;
	size_t n = holder_end(s, len);

	if (n > MAX_LABEL_VALUE || memmem(s, n, " / ", 3))
		return;
	names = heed__byline_names(h->b, s, n);
	if (names && capitalised(names) &&
	    !holder_organisation(names, s, n, len))
		heed__cand(h->b, F_AUTHOR, O_COPYRIGHT, 0, names,
		           strlen(names));
}

/* A copyright notice naming a person ("\xC2\xA9 2019 Ann Lee",
 * "Copyright (c) 2012- Ann Lee. All rights reserved.") credits the page
 * to its holder when nothing else on the page names anyone: personal
 * sites often write their owner's name nowhere else. It ranks after
 * every other name, an organisation's included, since a company's or a
 * site's notice is as common and names no author. */
static void copyright_holder(struct html *h, const char *s, size_t len)
{
	size_t n = copyright_len(s, len);

	if (n && n < len)
		copyright_holder_names(h, s + n, len - n);
}

/* The text right after a licence's link, its years and "by" a name
 * ("<a rel=license>CC BY-SA</a> 2006-2008 by Ann Lee"): the licensor,
 * whom the licence asks to credit, ranked as a copyright holder is. */
static void licence_holder(struct html *h, const char *s, size_t len)
{
	size_t n = separators_len(s, len, ")]0123456789-, \t\n\r\f");

	if (n + 3 < len && heed__ascii_ieq(s + n, 3, "by ") &&
	    !heed__cand_settled(h->b, F_AUTHOR, O_COPYRIGHT, 0))
		copyright_holder_names(h, s + n + 3, len - n - 3);
}

/* A copyright notice opens its element's text, or follows the bar that
 * opens a text after a link, where a footer's row of links ends in it
 * ("<a>Impressum</a> | \xC2\xA9 2020 Ann Lee"). */
static void copyright_notice(struct html *h, const char *s, size_t len,
                             bool opens)
{
	size_t bar = separators_len(s, len, "| \t\n\r\f");

	if ((!opens && !memchr(s, '|', bar)) || bar == len ||
	    !strchr("\xC2(cC", s[bar]) ||
	    heed__cand_settled(h->b, F_AUTHOR, O_COPYRIGHT, 0))
		return;
	copyright_holder(h, s + bar, len - bar);
}

/* A text that is a date and nothing else, in figures ("23.01.2019",
 * "2021-10-16", "30.01.2022 18:36", "02.12.19"): a page's own date shown
 * without a label or a class to say it. Words around a date ("am
 * 3.4.2020 war es") make a sentence's date, no page's. */
static bool bare_date(const char *s, size_t len)
{
	if (len < 8 || len > 32)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || s[i] == '.' ||
		      s[i] == '-' || s[i] == '/' || s[i] == ':' || s[i] == ' '))
			return false;
	return true;
}

/* heed__page_date_len() of s[0, len) in the text being read: the text's
 * readers (a bare date, a dateline, a date and its author) ask it of the
 * same text, and a text that opens with a number and is no date ("1,234
 * views") costs every form tried, once instead of three times. */
static size_t text_date_len(struct html *h, const char *s, size_t len)
{
	if (h->date_s != s || h->date_len != len) {
		h->date_s = s;
		h->date_len = len;
		h->date_n = heed__page_date_len(s, len,
		                                h->b->cand[F_LANGUAGE].value);
	}
	return h->date_n;
}

/* The length of the word of list l opening s[0, len) as a whole word,
 * with a comma and the spaces after it; 0 when none does. */
static size_t day_lead_word(const char *s, size_t len,
                            const struct word_list *l)
{
	size_t n = label_end(s, len, lead_word(s, len, l));

	if (n && n < len && s[n] == ',')
		n += 1 + separators_len(s + n + 1, len - n - 1, " \t");
	return n;
}

/* The length of the words a date shown alone may open with: a word for
 * "on" ("am", "le"), then a weekday ("am Montag, 3. Mai 2021", "jeudi
 * 13 juin 2019", "Thursday, June 13, 2019"); 0 when none. */
static size_t day_lead_len(const char *s, size_t len)
{
	size_t n = day_lead_word(s, len, &day_preposition_list);

	return n + day_lead_word(s + n, len - n, &weekday_list);
}

/* A text that is a date written with its month's name and nothing else
 * ("27 Sep 2016", "Apr 7, 2009", "10. September 2017"), no-break spaces
 * around it: shown alone, as a bare date in figures is, it is the page's;
 * not in a blockquote (an embedded post ends with its day so), the
 * site's header (the day the page was served) or a table's cell (a row's
 * data: an episode's airdate, a list of events). Only short texts are
 * read, so a page of long texts costs a compare each. */
static bool bare_date_words(struct html *h, const char *s, size_t len)
{
	size_t lead = separators_len(s, len, " \t"), n;

	s += lead;
	len -= lead;
	while (len >= 2 && s[len - 2] == '\xC2' && s[len - 1] == '\xA0')
		len -= 2;
	heed__trim(&s, &len);
	/* A weekday, or a word for "on" on a byline's own line, is part of
	 * how the day is written, not a label of it. */
	lead = len && !(*s >= '0' && *s <= '9') ? day_lead_len(s, len) : 0;
	if (lead) {
		s += lead;
		len -= lead;
		if (bare_date(s, len))
			return true;
	}
	/* A word before the date is a label ("Accessed 2 May 2016",
	 * "Updated ..."), not the date alone. */
	if (len < 8 || len > 24 || !memchr(s, ' ', len) ||
	    !((*s >= '0' && *s <= '9') || heed__month_opens(s, len)))
		return false;
	n = text_date_len(h, s, len);
	return n == len;
}

/* The length of a bullet, "\xE2\x80\xA2" or "\xC2\xB7", with the spaces
 * after it, at s[0, len); or 0. */
static size_t bullet_len(const char *s, size_t len)
{
	static const char *const bullets[] = {"\xE2\x80\xA2", "\xC2\xB7"};

	for (size_t i = 0; i < HEED_ARRAY_SIZE(bullets); i++) {
		size_t b = strlen(bullets[i]);
		if (len >= b && memcmp(s, bullets[i], b) == 0)
			return b + separators_len(s + b, len - b, " \t");
	}
	return 0;
}

/* True when s[0] is a letter or a hyphen of a place's name: a byte of
 * UTF-8 counts, but not a no-break space or a bullet, which end it. */
static bool place_letter(const char *s, size_t len)
{
	if ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '-')
		return true;
	return (unsigned char)*s >= 0x80 && !separators_len(s, len, "") &&
	       !bullet_len(s, len);
}

/* The length of a place that opens a dateline, with its comma and the
 * space after it: up to three words, each a capital and then letters or
 * hyphens ("Bonn, ", "Bad Homburg, ", "Karlsruhe, ("), or 0. A credit
 * before a bullet ("Handball Schweiz \xE2\x80\xA2 02.02.2022") counts as
 * a place; *bullet tells it, since its date must end the text. */
static size_t dateline_place(const char *s, size_t len, bool *bullet)
{
	size_t n = 0, b;

	*bullet = false;

	for (unsigned words = 0; words < 3; words++) {
		if (n >= len || s[n] < 'A' || s[n] > 'Z')
			return 0;
		while (n < len && place_letter(s + n, len - n))
			n++;
		if (n < len && s[n] == ',') {
			n++;
			n += separators_len(s + n, len - n, " \t");
			return n < len && s[n] == '(' ? n + 1 : n;
		}
		b = separators_len(s + n, len - n, " \t");
		if (b && bullet_len(s + n + b, len - n - b)) {
			*bullet = true;
			return n + b + bullet_len(s + n + b, len - n - b);
		}
		if (n >= len || s[n] != ' ')
			return 0;
		n++;
	}
	return 0;
}

/* A dateline opening an article's text, as news and press releases
 * write it: a place and a date ("Bonn, 11.10.2021", "Hamburg, 2. November
 * 2021", "Karlsruhe, (12.11.2021). Traditionell ..."), or a date and a
 * dash or an opening quote before the text ("27.1.2022 - Bei der ...",
 * "01.02.2022 \xE2\x80\x9EDer Arbeitsmarkt ...") or a bar ("26 Mai, 2008 |
 * Kommentare"), or a credit, a bullet
 * and a date that ends the text ("Handball Schweiz \xE2\x80\xA2
 * 02.02.2022"; a date before a bullet, "30.01.2022 \xC2\xB7 EURO", is a
 * listing's teaser's as often as the page's). After
 * the date, the text ends or goes on after a dash, a quote, a stop, a
 * bracket or a bar: a date among words ("am 3.4.2020 war es") is a
 * sentence's. True when s[0, len) opens with one; *at and *n give its
 * date. */
static bool dateline(struct html *h, const char *s, size_t len, size_t *at,
                     size_t *n)
{
	/* Dashes, and opening quotes: a press release's first words are
	 * often a quotation. */
	static const char *const breaks[] = {"-",
	                                     "\xE2\x80\x93",
	                                     "\xE2\x80\x94",
	                                     "\xE2\x80\x9E",
	                                     "\xE2\x80\x9C",
	                                     "\xC2\xAB",
	                                     "\""};
	bool bullet = false, bracket = *s == '(';
	size_t place, d, rest;
	const char *e;

	if (bracket)
		place = 1 + separators_len(s + 1, len - 1, " \t");
	else
		place = dateline_place(s, len, &bullet);
	if (place == len || s[place] < '0' || s[place] > '9')
		return false;
	d = text_date_len(h, s + place, len - place);
	if (!d)
		return false;
	e = s + place + d;
	rest = len - place - d;
	e += separators_len(e, rest, " \t");
	rest = (size_t)(s + len - e);
	*at = place;
	*n = d;
	/* "(21. November 2022) Energieverbraucher erhalten ...": the date
	 * set apart in brackets before the text, as a dateline's place is. */
	if (bracket)
		return rest > 1 && *e == ')';
	if (bullet)
		return !rest;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(breaks); i++)
		if (rest >= strlen(breaks[i]) &&
		    memcmp(e, breaks[i], strlen(breaks[i])) == 0)
			return true;
	/* A date alone is a bare date, read by its own rule; after a
	 * place, the text may end, or go on after a stop or a bracket. A
	 * bar after the date alone ("26 Mai, 2008 | 3 Kommentare") opens a
	 * post's header line, as a dash does. */
	return (place && (!rest || strchr(").|", *e))) || (rest && *e == '|');
}

/* The length of a separator between a date and what follows it ("-",
 * "|", an en or em dash), with the spaces around it, at s[0, len); or
 * 0. */
static size_t date_separator_len(const char *s, size_t len)
{
	static const char *const seps[] = {"-", "|", "\xE2\x80\x93",
	                                   "\xE2\x80\x94"};
	size_t n = separators_len(s, len, " \t");

	for (size_t i = 0; i < HEED_ARRAY_SIZE(seps); i++) {
		size_t k = strlen(seps[i]);
		if (len - n >= k && memcmp(s + n, seps[i], k) == 0)
			return n + k +
			       separators_len(s + n + k, len - n - k, " \t");
	}
	return 0;
}

/* The length of the digits opening s[0, len). */
static size_t digits_len(const char *s, size_t len)
{
	size_t n = 0;

	while (n < len && s[n] >= '0' && s[n] <= '9')
		n++;
	return n;
}

/* The length of a time of day after a date's separator ("13:10",
 * "13:10 Uhr") with the spaces after it, at s[0, len); or 0. The text is
 * a slice: nothing past len is read. */
static size_t clock_len(const char *s, size_t len)
{
	size_t n = digits_len(s, len);

	if (n < 1 || n > 2 || n + 3 > len || s[n] != ':' ||
	    digits_len(s + n + 1, len - n - 1) < 2)
		return 0;
	n += 3;
	n += separators_len(s + n, len - n, " \t");
	if (len - n >= 3 && memcmp(s + n, "Uhr", 3) == 0)
		n += 3;
	return n + separators_len(s + n, len - n, " \t");
}

/* True when s[0, len) is one name of two words or more, and nothing
 * else after another separator: a listing writes "02.11.2022 - Placebo -
 * Stadthalle" (a band and a hall), "... - Aymz- Grelle Forelle" and
 * "2021-10-16 | Botschaft" (a category), a post's line its author's full
 * name ("Lange-Fricke" keeps its hyphen: no space beside it). */
static bool one_name_left(const char *s, size_t len)
{
	static const char *const seps[] = {"|", "- ", " -", "\xE2\x80\x93",
	                                   "\xE2\x80\x94"};

	for (size_t i = 0; i < HEED_ARRAY_SIZE(seps); i++)
		if (memmem(s, len, seps[i], strlen(seps[i])))
			return false;
	return memchr(s, ' ', len) != NULL;
}

/* A date, a separator and a name opening an element's text, as themes
 * write their post's line ("11.12.2019 - Ann Lee", "04.02.2022 | 13:10
 * Uhr | Ann Lee"): the names after the last separator, read as a
 * label's value (every word capitalised, at most six words a name). A
 * date, its time of day and an author's lead ("06.11.2023 13:30 von
 * Olga") say whose the line is without a separator, and are read in a
 * heading too (in_heading), where a post's line may sit beside its
 * section's name; a name after a bare separator there may be a
 * listing's band or hall. */
static void date_author(struct html *h, const char *s, size_t len,
                        bool in_heading)
{
	size_t n = text_date_len(h, s, len);
	size_t sep, lead, date;

	if (!n)
		return;
	sep = date_separator_len(s + n, len - n);
	if (!sep) {
		/* The date's length may hold its time and a space after it. */
		n += separators_len(s + n, len - n, " \t");
		if (s[n - 1] != ' ' && s[n - 1] != '\t' && s[n - 1] != '\xA0')
			return;
		date = n;
		n += clock_len(s + n, len - n);
		lead = author_label_len(s + n, len - n);
		if (!lead || lead >= len - n)
			return;
		label_value(h, F_AUTHOR, LABEL_PLAIN, s + n + lead,
		            len - n - lead);
		/* The day on the author's line is the post's, as a bare
		 * date's is: the lead and a name say the line is a byline,
		 * not a sentence ("von 10 bis 12 Uhr" names nobody). */
		if (h->label_author_done && label_date_wanted(h, D_BARE))
			heed__cand(h->b, F_PUBLISHED, O_HTML, D_BARE, s, date);
		return;
	}
	if (in_heading)
		return;
	n += sep;
	if (clock_len(s + n, len - n)) {
		n += clock_len(s + n, len - n);
		sep = date_separator_len(s + n, len - n);
		if (!sep)
			return;
		n += sep;
	}
	if (n < len && !(s[n] >= '0' && s[n] <= '9') &&
	    one_name_left(s + n, len - n))
		label_value(h, F_AUTHOR, LABEL_PLAIN, s + n, len - n);
}

/* The tag of the innermost open element (T_OTHER past the stack). */
static unsigned char top_tag(const struct html *h)
{
	return h->depth && h->depth <= EXTRACT_MAX_DEPTH
	               ? h->stack[h->depth - 1].tag
	               : T_OTHER;
}

/* True when the innermost open element is a paragraph, or an element
 * directly inside one ("<p><em>Quelle: ..."). */
static bool in_paragraph(const struct html *h)
{
	return top_tag(h) == T_P ||
	       (h->depth >= 2 && h->depth <= EXTRACT_MAX_DEPTH &&
	        h->stack[h->depth - 2].tag == T_P);
}

/* True when the innermost open element is a heading (h2 to h4). */
static bool heading_top(const struct html *h)
{
	unsigned char t = top_tag(h);

	return t == T_H2 || t == T_HN;
}

/* True when the innermost open element is a heading outside any link:
 * "<h3>21.01.2022</h3>", a date set as the heading over its text. */
static bool date_heading(const struct html *h)
{
	unsigned char t = top_tag(h);

	return h->link_heading == 1 &&
	       (t == T_H1 || t == T_H2 || t == T_HN || t == T_HMINOR);
}

/* True when the one link or heading open is a heading (h1 to h4): the
 * text is in no link. */
static bool heading_no_link(const struct html *h)
{
	if (h->link_heading != 1 || h->minor_heading)
		return false;
	for (size_t i = h->depth < EXTRACT_MAX_DEPTH ? h->depth
	                                             : EXTRACT_MAX_DEPTH;
	     i-- > 0;) {
		unsigned char t = h->stack[i].tag;
		if (t == T_A)
			return false;
		if (t == T_H1 || t == T_H2 || t == T_HN)
			return true;
	}
	return false;
}

/* True when c may open a label text_label() reads: the first letter of
 * one, or a bar, a dash or a bracket before one. */
static bool label_initial(char c)
{
	return LETTER_OF(c, "abdefghilmprstuvwz") || c == '|' || c == '-' ||
	       c == '[' || c == '(' || c == '\xC3';
}

/*
 * A kicker: the short line over a headline that opens with the article's
 * day and names its section ("31.01.2022 2. HBL" in a <small> right
 * above the <h1>, a German sports league's news). Kept from the text s[0,
 * len) (opens: it opens its element and is no bare date) while the page's
 * headline is still to come; any later text drops it (text_label), so
 * only the line right over the headline counts (kicker_date). Never in a link,
 * a heading, an aside, a quote or the site's header, and it opens with a
 * figure: a weekday's name before a date is the site's date of the day
 * as often.
 */
static void kicker_text(struct html *h, const char *s, size_t len, bool opens)
{
	size_t n;

	if (!opens || h->b->h1_count || len > MAX_KICKER || h->link_heading ||
	    h->aside || h->quote || h->site_header || *s < '0' || *s > '9')
		return;
	n = heed__page_date_len(s, len, h->b->cand[F_LANGUAGE].value);
	if (!n || n == len)
		return;
	memcpy(h->kicker, s, n);
	h->kicker_len = n;
}

/* The page's first <h1> opens: the kicker line right over it dates the
 * page as a bare date would (D_BARE), the first of either counting. A
 * listing's teasers set such lines over their own headings, never over
 * the page's headline. */
static void kicker_date(struct html *h)
{
	if (!h->kicker_len || h->b->h1_count || h->foreign || h->aside ||
	    !label_date_wanted(h, D_BARE))
		return;
	heed__cand(h->b, F_PUBLISHED, O_HTML, D_BARE, h->kicker, h->kicker_len);
	h->kicker_len = 0;
}

/* A text after a label: "Datum: 22.12.2012", "Von Ann Lee", "Autor: Ann
 * Lee" in one text, or a label alone ("<dt>Datum</dt><dd>12.01.2017</dd>",
 * "<span class=label>Stand:</span> <span class=value>...", "<b>von</b>
 * <a>Ann Lee</a>") whose value is the next text. The last source of
 * either field in the page's markup: a label says what its value is, but
 * not whose, and a listing's items carry them. */
static void text_label(struct html *h, const char *s, size_t len)
{
	const char *text = s;
	size_t n = 0, text_len = len;
	enum field f = F_AUTHOR;
	bool opens = h->text_opens, bare;
	enum label_kind kind = LABEL_PLAIN;

	heed__trim(&s, &len);
	if (!len)
		return;
	h->date_s = NULL;  /* a new text, perhaps in the last one's bytes */
	h->kicker_len = 0; /* a kicker is the text right over the headline */
	h->text_opens = false;
	h->edit_value = false;
	if (h->licence_link && !h->link_heading) {
		h->licence_link = false;
		licence_holder(h, s, len);
	}
	if (h->label_pending) {
		/* The label's colon set apart ("<dt>Author<span
		 * class=colon>:</span></dt>", Sphinx): its value is to come. */
		if (len == 1 && *s == ':')
			return;
		h->label_pending = false;
		h->edit_value =
		        !h->label_contact && h->label_field == F_MODIFIED;
		if (h->label_contact)
			contact_value(h, s, len);
		else
			label_value(h, h->label_field, h->label_kind, s, len);
		h->label_contact = h->label_term = false;
		return;
	}
	/* A link's own text (a listing's titles, tags, menus: most texts of
	 * many pages) is read for a date's label alone: every other reader
	 * below wants a text outside links, or in a heading or a term. */
	if (top_tag(h) == T_A) {
		if (!label_initial(*s) || !label_date_wanted(h, D_LABEL))
			return;
		n = date_label_len(s, len, &f, &kind);
		if (n)
			after_label(h, f, kind, s, len, n);
		return;
	}
	/* A press contact's label alone, the name in the next text. */
	if (opens && !h->link_heading && LETTER_OF(*s, "kmp") &&
	    contact_wanted(h) && contact_label(s, len)) {
		h->label_pending = h->label_contact = true;
		return;
	}
	/* The first bare date or dateline, after every label's: outside
	 * links and headings, where a listing's teasers date their own
	 * posts; but a heading that is the date alone and no link dates
	 * the text under it. A dateline opens its element's text. */
	bare = *s >= '0' && *s <= '9' && bare_date(s, len);
	kicker_text(h, s, len, opens && !bare);
	if (!h->link_heading && bare && heed__bare_day_wanted(h->b))
		heed__bare_day(h->b, s, len);
	if ((!h->link_heading || (opens && date_heading(h))) &&
	    label_date_wanted(h, D_BARE)) {
		size_t at, n;
		if (bare)
			heed__cand(h->b, F_PUBLISHED, O_HTML, D_BARE, s, len);
		else if (!h->link_heading && !h->quote && !h->site_header &&
		         top_tag(h) != T_CELL && bare_date_words(h, s, len))
			heed__cand(h->b, F_PUBLISHED, O_HTML, D_BARE, s, len);
		else if (opens && !h->link_heading &&
		         dateline(h, s, len, &at, &n))
			heed__cand(h->b, F_PUBLISHED, O_HTML, D_BARE, s + at,
			           n);
	}
	if (*s >= '0' && *s <= '9') {
		if (opens && (!h->link_heading || heading_no_link(h)) &&
		    label_author_wanted(h))
			date_author(h, s, len, h->link_heading > 0);
		return;
	}
	if (!h->link_heading)
		copyright_notice(h, s, len, opens);
	/* Key words open their element, outside links and headings, on a
	 * page that declared none (meta keywords, tag links before it). */
	if (opens && !h->link_heading && !h->keywords_done &&
	    !h->b->tag_count && !h->aside && LETTER_OF(*s, "ksmp")) {
		size_t k = keyword_label_len(s, len);
		if (k) {
			after_label(h, F_COUNT, LABEL_PLAIN, s, len, k);
			return;
		}
	}
	/* A source line in the text, outside links and headings: the
	 * credit of a page that names only its own site. A paragraph of its
	 * own, as the text's last line is set; a picture's source is in its
	 * caption's small print. */
	if (opens && !h->link_heading && !h->source_done && !h->aside &&
	    !h->site_header && !h->quote && in_paragraph(h) &&
	    LETTER_OF(*s, "qsf") && source_label_len(s, len)) {
		source_line(h, text, text_len);
		return;
	}
	/* A wire agency's credit closing a paragraph, as the last line's
	 * source line would. */
	if (s[len - 1] == ')' && !h->link_heading && !h->source_done &&
	    !h->aside && !h->site_header && !h->quote && in_paragraph(h))
		closing_wire_credit(h, s, len);
	/* Most texts start with none of the labels' letters (nor a bar, a
	 * dash or a bracket). */
	if (!label_initial(*s))
		return;
	/* A heading that is an author's noun alone ("<h4>Autor</h4>") or a
	 * byline's lead alone ("<h3>Published By</h3>", over a profile's
	 * card) heads the name under it, as a label alone does; the lead
	 * before "Published" is read as a date's label. */
	if (opens && heading_top(h) &&
	    h->link_heading == h->minor_heading + 1 &&
	    (author_noun_alone(s, len) || heading_lead_alone(s, len)) &&
	    label_author_wanted(h)) {
		after_label(h, F_AUTHOR, LABEL_PLAIN, s, len, len);
		return;
	}
	if (label_date_wanted(h, D_LABEL))
		n = date_label_len(s, len, &f, &kind);
	/* A definition list's term that is a writer's noun alone
	 * ("<dt>Auteur</dt><dd>Ann Lee</dd>"; "Autor", "Author", not "Text"
	 * or "Herausgeber") names the author in its value: the page states
	 * it as it states its date, so it takes the place of a declared
	 * author who is someone else, as an opening line does. */
	if (!n && opens && top_tag(h) == T_DT && !h->link_heading &&
	    heed__ascii_lower(*s) == 'a' && author_noun_alone(s, len) &&
	    (label_author_wanted(h) || h->term_author)) {
		h->label_term = true;
		after_label(h, F_AUTHOR, LABEL_PLAIN, s, len, len);
		return;
	}
	/* An author's label opens its element ("<p>Von Ann Lee</p>"): "by"
	 * after a link in a sentence ("<a>Portrait</a> by Ann Lee") is none.
	 * "Works by Ann Lee" heads a list of her works, and a link's text
	 * ("By Galileo" in a table of contents) names no byline; h5 and h6
	 * are a page's small print, where themes set the byline too. */
	if (!n && opens && h->link_heading == h->minor_heading &&
	    label_author_wanted(h)) {
		f = F_AUTHOR;
		n = author_label_len(s, len);
	}
	if (!n)
		return;
	if (f == F_AUTHOR) {
		/* A text straight in <body> is a line of its own, as a
		 * browser shows it up to the next block: hand-written HTML
		 * sets "by A, B, C" so under its heading, and the body's
		 * whole text is no byline. */
		if (top_tag(h) == T_BODY)
			author_label_end(h, s, len);
		else /* Untrimmed: "von " and "<em>Ann</em>" make "von Ann". */
			author_label(h, text, text_len);
		return;
	}
	after_label(h, f, kind, s, len, n);
}

/* The name opening an author's bio, two to four words each opening with
 * a capital ("Nils Pickert ist freier Autor": "Nils Pickert"), kept for
 * heed__author_bio; a bio that opens otherwise gives none. */
static void bio_name(struct builder *b, const char *s, size_t len)
{
	size_t words = 0, end = 0, i = 0;

	heed__trim(&s, &len);
	while (i < len && words < 5) {
		unsigned char c = (unsigned char)s[i];
		/* An ASCII capital, or a Latin letter beyond ASCII (U+00C0 to
		 * U+017F, not told apart by case here: "Ørsted", "Émile"). */
		if (!(c >= 'A' && c <= 'Z') && !(c >= 0xC3 && c <= 0xC5))
			break;
		while (i < len && s[i] != ' ' && s[i] != ',' && s[i] != '\n')
			i++;
		words++;
		end = i;
		if (i == len || s[i] != ' ')
			break;
		while (i < len && s[i] == ' ')
			i++;
	}
	if (words >= 2 && words <= 4 && !b->bio_name)
		b->bio_name = heed__strdup_arena(b, s, end);
}

/* A heading over a writer's other posts ("Mehr von Henry Steinhau",
 * "More from Ann Lee"): the name after its lead, kept as a bio's is, so
 * that it replaces only a first name alone that opens it; a sidebar's
 * "More from The Guardian" names no writer the page credits. */
static void more_from_name(struct builder *b, const char *s, size_t len)
{
	static const char *const leads[] = {"mehr von ",
	                                    "more from ",
	                                    "more by ",
	                                    "weitere artikel von ",
	                                    "alle artikel von ",
	                                    "weitere beitr\xC3\xA4ge von ",
	                                    "alle beitr\xC3\xA4ge von "};

	heed__trim(&s, &len);
	for (size_t i = 0; i < HEED_ARRAY_SIZE(leads); i++) {
		size_t n = strlen(leads[i]);
		if (len > n && heed__ascii_ieq(s, n, leads[i])) {
			bio_name(b, s + n, len - n);
			return;
		}
	}
}

/* True when s[0, n) and t[0, n) are equal, ASCII case ignored. */
static bool ascii_ieq_n(const char *s, const char *t, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (heed__ascii_lower(s[i]) != heed__ascii_lower(t[i]))
			return false;
	return true;
}

/* True when a word of name, three letters or more, is in the account
 * (ASCII case ignored): "Gunter Frank" for "frank_g", "Ann Lee" for
 * "ann-lee". A link's "More posts" or "Alle Beiträge" names nobody. */
static bool names_account(const char *name, const char *acct)
{
	size_t an = strlen(acct);

	for (const char *p = name; *p; p += strspn(p, " ")) {
		size_t n = strcspn(p, " ");
		for (size_t i = 0; n >= 3 && i + n <= an; i++)
			if (ascii_ieq_n(acct + i, p, n))
				return true;
		p += n;
	}
	return false;
}

/* An author page link's text, when it is one name of two to four words,
 * each a name's, that the link's account spells in part: the author of
 * last resort, after an organisation but before a copyright holder (a
 * site links its writers from lists and teasers too, so any other
 * credit wins). */
static void page_link_name(struct html *h, const char *acct, const char *s,
                           size_t len)
{
	const char *name;
	size_t words = 0;

	heed__trim(&s, &len);
	if (!acct || !len || len > MAX_LABEL_VALUE || memchr(s, ',', len))
		return;
	/* A line break in a link's text is a space on the page ("Kathrin\n
	 * Führes"), no line of its own. */
	s = heed__collapse(&h->b->arena, s, len, &h->b->oom);
	if (!s)
		return;
	len = strlen(s);
	name = heed__byline_names(h->b, s, len);
	/* The whole text: "Works by Ann Lee" is a list's link. */
	if (!name || strlen(name) != len || memcmp(name, s, len) != 0 ||
	    !capitalised(name))
		return;
	for (const char *p = name; *p; p += strspn(p, " ")) {
		p += strcspn(p, " ");
		words++;
	}
	if (words < 2 || words > 4 || !names_account(name, acct))
		return;
	h->page_link_done = true;
	heed__cand(h->b, F_AUTHOR, O_AUTHOR_PAGE, 0, name, strlen(name));
}

/* An account's shown name, as the page shows it ("rasos",
 * "Isabella.DiBiase", "Karoline Herr"): one to four words. A name the
 * author checks refuse (a placeholder's "admin") leaves the next one to
 * be read. */
static void account_name(struct html *h, const char *s, size_t len, bool *done)
{
	char *name;
	size_t words = 1;

	heed__trim(&s, &len);
	if (*done || !len || len > MAX_LABEL_VALUE || !account_wanted(h))
		return;
	name = heed__collapse(&h->b->arena, s, len, &h->b->oom);
	if (!name)
		return;
	for (const char *p = name; (p = strchr(p, ' ')); p++)
		words++;
	if (words > 4)
		return;
	heed__cand(h->b, F_AUTHOR, O_HTML, A_ACCOUNT, name, strlen(name));
	*done = !account_wanted(h);
}

/* Words that a home link or its logo's alt shows in place of the site's
 * name ("Home", "Zurück zur Startseite", "Site logo"), ASCII case
 * ignored. */
static const char *const home_words[] = {"home", "start", "accueil", "inicio",
                                         "logo"};

/* True when s names no site but the link home: a word for home alone,
 * or a text that holds one ("Back to homepage", "Company logo"). */
static bool home_text(const char *s, size_t len)
{
	if (heed__ascii_ieq_any(s, len, home_words,
	                        HEED_ARRAY_SIZE(home_words)))
		return true;
	return strcasestr(s, "homepage") || strcasestr(s, "home page") ||
	       strcasestr(s, "startseite") || strcasestr(s, "logo");
}

/* Keeps s[0, len), a masthead's name, unless it speaks of home
 * (home_text) or has more than six words (a slogan, a sentence): the
 * next home link is tried then. */
static void masthead_name(struct html *h, const char *s, size_t len)
{
	const char *name;
	size_t words = 1;

	heed__trim(&s, &len);
	if (len < 2 || len > 64)
		return;
	name = heed__collapse(&h->b->arena, s, len, &h->b->oom);
	if (!name || home_text(name, strlen(name)))
		return;
	for (const char *p = name; (p = strchr(p, ' ')); p++)
		words++;
	if (words > 6)
		return;
	h->masthead_done = true;
	h->b->masthead = name;
}

/* The page's masthead is a home link that is a logo alone or stands in
 * a heading, over the page's content: it shows the site's name to every
 * reader ("<a href=index.html><img alt=SQLite></a>", "<h1><a
 * href=https://www.exim.org>Exim Internet Mailer</a></h1>"), the
 * publisher of a page that names none otherwise (heed__title_site). A
 * home link of text outside a heading is the menu's first item ("News",
 * "Back"), no name; the text s[0, len) of one in a heading (in_heading)
 * is the name, and the logo's alt of one with no text. */
static void masthead_link(struct html *h, bool in_heading, const char *s,
                          size_t len)
{
	heed__trim(&s, &len);
	if (len && in_heading)
		masthead_name(h, s, len);
	else if (!len && h->masthead_alt)
		masthead_name(h, h->masthead_alt, strlen(h->masthead_alt));
}

static void finish_capture(struct html *h, struct capture *c)
{
	const char *s = heed__buf_str(&c->text);
	size_t len = c->text.len;
	struct builder *b = h->b;

	switch (c->kind) {
	case CAP_TITLE:
		if (memchr(s, '<', len) || memmem(s, len, "\xC2\xA0", 2))
			s = title_words(b, s, &len);
		if (!s)
			break;
		if (!b->title_tag)
			b->title_tag =
			        heed__collapse(&b->arena, s, len, &b->oom);
		heed__cand(b, F_TITLE, O_TITLE_TAG, 0, s, len);
		h->title_done = b->cand[F_TITLE].value != NULL;
		break;
	case CAP_H1:
		h->h1 = heed__strdup_arena(b, s, len);
		if (!h->aside)
			heed__title_text_seen(b, s, len, false);
		break;
	case CAP_HEADING:
		heed__title_text_seen(b, s, len, false);
		break;
	case CAP_TAG_LINK:
		/* "Coronavirus,": the list's comma inside the link. */
		heed__trim(&s, &len);
		while (len && (s[len - 1] == ',' || s[len - 1] == ';'))
			len--;
		heed__tags(b, O_HTML, s, len, false);
		heed__tag_link_seen(b, s, len, false);
		break;
	case CAP_CATEGORY_LINK:
		heed__tag_link_seen(b, s, len, true);
		break;
	case CAP_PROP:
		heed__trim(&s, &len);
		if (len && h->nscopes == c->scope)
			apply_prop(h, c->prop, c->scope, s);
		break;
	case CAP_JSONLD:
		heed__jsonld_add(b, s, len, true);
		break;
	case CAP_AUTHOR_LINK:
		h->after_author_link = true;
		heed__author_add(b, O_LINK, 0, s, len);
		if (c->inner)
			heed__byline_link(b, s, len);
		break;
	case CAP_BYLINE:
		/* "By Ana Lopez | 5 March 2024" dates the page too; read past
		 * a better author, the byline only may name more people. */
		if (!c->past && !c->inner)
			offer_text_date(b, F_PUBLISHED,
			                c->sub ? D_LINE_PAGE : D_TEXT_BODY, s,
			                len);
		/* Twenty Ten's "Posted on" before the date, in a span of
		 * class meta-prep-author: a label, no byline; the next byline
		 * element holds the name, and a byline inside that one is
		 * read as inside the first. */
		if (!c->inner && !c->past && byline_label_alone(s, len)) {
			h->inner_byline_read = false;
			h->inner_names = NULL;
			if (c->sub)
				h->byline_page_done = false;
			else
				h->byline_done = false;
			break;
		}
		s = heed__byline_names(b, s, len);
		if (s && date_label_alone(s))
			s = NULL;
		if (c->inner) {
			h->inner_names = s;
			break;
		}
		/* "Ann Lee, Bo Chan Hace 13 horas": the byline runs on into
		 * words that are no names, the byline inside it does not. */
		if (!s)
			s = h->inner_names;
		h->inner_names = NULL;
		if (s && c->past)
			heed__author_list(b, s, strlen(s));
		else if (s)
			heed__cand(b, F_AUTHOR, O_HTML, c->sub, s, strlen(s));
		break;
	case CAP_DATE:
		/* "<h4>Zuletzt geändert am:</h4><li class=timestamp>...": a
		 * date class under an edit's label alone dates the edit. */
		offer_text_date(b, h->edit_value ? F_MODIFIED : c->field,
		                c->sub, s, len);
		break;
	case CAP_TEASER_DATE:
		teaser_date(h, s, len);
		break;
	case CAP_LEAD:
		lead_line(h, s, len);
		break;
	case CAP_BIO:
		bio_name(b, s, len);
		break;
	case CAP_MORE_FROM:
		more_from_name(b, s, len);
		break;
	case CAP_PAGE_LINK:
		page_link_name(h, c->prop, s, len);
		break;
	case CAP_AUTHOR_LABEL:
		author_label_end(h, s, len);
		break;
	case CAP_SOURCE:
		source_line_end(h, s, len);
		break;
	case CAP_LICENSOR:
		heed__licensor_name(b, s, len);
		break;
	case CAP_MASTHEAD:
		masthead_link(h, c->inner, s, len);
		break;
	case CAP_SIGNATURE:
		signature_end(h, c, s, len);
		break;
	case CAP_ACCOUNT:
		account_name(h, s, len, &h->account_done);
		break;
	case CAP_POST_COMMENT:
		account_name(h, s, len, &h->post_comment_done);
		break;
	case CAP_SCRIPT:
		/* schema.org JSON without the ld+json type; any other
		 * script is no metadata, neither read nor counted. */
		if (c->sub >= 0 && memmem(s, len, "schema.org", 10) &&
		    memmem(s, len, "\"@context\"", 10))
			heed__jsonld_add(b, s, len, false);
		break;
	}
}

/* Ends what the element's tag opened (open_tag, and an article). */
static void close_tag(struct html *h, enum tag tag)
{
	unsigned *n = tag_count(h, tag);

	if (tag == T_HMINOR && h->minor_heading)
		h->minor_heading--;
	if (tag == T_ARTICLE && h->article)
		h->article_closed = !--h->article || h->article_closed;
	if (*n)
		(*n)--;
}

void heed__html_end(struct html *h)
{
	struct el el = {T_OTHER, false, false, false};

	h->text_opens = false;
	if (!h->depth)
		return;
	date_gaps(h);
	h->depth--;
	if (h->depth < EXTRACT_MAX_DEPTH)
		el = h->stack[h->depth];
	/* A heading is a block: the text after it opens a line, as a
	 * browser shows it ("<h1>Manual</h1> by Ann Lee"). */
	h->text_opens = el.tag == T_H1 || el.tag == T_H2 || el.tag == T_HN;
	while (h->ncaps && h->caps[h->ncaps - 1].depth > h->depth)
		finish_capture(h, &h->caps[--h->ncaps]);
	if (h->signature && h->depth < h->signature_depth)
		signature_offer(h);
	if (h->author_link_box && h->depth < h->author_link_box)
		h->author_links_closed = true;
	if (h->post_comment && h->depth < h->post_comment) {
		h->post_comment = 0;
		h->post_comment_seen = false;
	}
	/* The next element at that depth holds paragraphs of its own. */
	if (h->paras && h->depth < h->para_parent)
		h->paras = 0;
	if (h->self_item && h->depth < h->self_item)
		h->self_item = 0;
	if (el.scope)
		close_scope(h);
	close_tag(h, el.tag);
	/* The outermost aside closes, and with it any teaser. */
	if (el.aside && h->aside && !--h->aside) {
		h->teaser = false;
		h->teaser_day_len = 0;
	}
	if (el.edit && h->edit)
		h->edit--;
	if (el.site && h->site_header)
		h->site_header--;
	if (el.foot && h->site_footer)
		h->site_footer--;
}

void heed__html_link_ends(struct html *h, size_t d)
{
	if (d >= h->depth || d >= EXTRACT_MAX_DEPTH || h->stack[d].tag != T_A)
		return;
	/* Its end, when it comes, is no link's. Its captures read on to
	 * that end: a browser shows "von <a>Ann</a>" under a link to the
	 * author as one line, whatever the tree says of the inner link. */
	h->stack[d].tag = T_OTHER;
	if (h->link_heading)
		h->link_heading--;
}

static bool raw_capture(enum cap_kind k)
{
	return k == CAP_JSONLD || k == CAP_SCRIPT;
}

/* Texts are read for a label only while no better date or author is
 * known: most pages declare both in the head, and then no text of
 * theirs is read for them. Never a program's text or an example's
 * (<pre>, <code>): its dates and names are a log line's ("2005-03-19
 * 15:10:26,618 - INFO") or a sample file's ("Copyright 2008 John
 * Smith"), not the page's. */
static bool label_scan(const struct html *h)
{
	return !h->foreign && !h->media && !h->aside && !h->code &&
	       (label_date_wanted(h, D_LABEL) || label_author_wanted(h) ||
	        heed__bare_day_wanted(h->b));
}

bool heed__html_wants_text(const struct html *h)
{
	for (size_t i = 0; i < h->ncaps; i++)
		if (!raw_capture(h->caps[i].kind))
			return true;
	return h->signature || h->icon_date || h->self_item ||
	       h->after_author_link || label_scan(h) ||
	       (!h->b->handle_name &&
	        heed__author_handle(h->b, h->handle_rank));
}

/* The text after a calendar icon: its first words are the date. Spaces
 * and no-break spaces alone leave the date to the next text. */
static void icon_text(struct html *h, const char *s, size_t len)
{
	size_t blank = separators_len(s, len, " \t\n\r\f");

	s += blank;
	len -= blank;
	heed__trim(&s, &len);
	if (!len)
		return;
	h->icon_date = false;
	offer_text_date(h->b, F_PUBLISHED, h->icon_sub, s, len);
}

/* Text inside a link to an author's page. A picture's copyright credit
 * beside the author's photo in it ("\xC2\xA9 Ann Lee" over "Ann Lee") is
 * the photo's, no part of the name the link shows. */
static void page_link_text(struct capture *c, const char *s, size_t len)
{
	const char *t = s;
	size_t n = len;

	heed__trim(&t, &n);
	if (!copyright_mark(t, n))
		(void)heed__buf_add(&c->text, s, len);
}

/* A text that is a date alone in the item that links to the page
 * itself (a recent-posts widget's "<li><a href=...>Title</a><span
 * class=post-date>26/10/2018</span>"): read in asides too, where such
 * lists are. */
static void self_item_text(struct html *h, const char *s, size_t len)
{
	heed__trim(&s, &len);
	if (!len || !(bare_date(s, len) || bare_date_words(h, s, len)))
		return;
	h->self_item = 0;
	h->self_item_done = true;
	if (label_date_wanted(h, D_SELF_ITEM))
		heed__cand(h->b, F_PUBLISHED, O_HTML, D_SELF_ITEM, s, len);
}

/* A date element's text. A calendar-style date sets its parts in
 * elements of their own, styled apart with nothing between them in the
 * markup (`<span class=day>18</span><span class=year>2009</span>`): a
 * reader sees two numbers, so two numbers that meet at an element's edge
 * are kept apart by a space ("18 2009", not "182009"). */
static void date_piece(struct capture *c, const char *s, size_t len)
{
	char last = c->text.len ? c->text.data[c->text.len - 1] : 0;

	if (c->gap && last >= '0' && last <= '9' && s[0] >= '0' && s[0] <= '9')
		(void)heed__buf_addc(&c->text, ' ');
	c->gap = false;
	(void)heed__buf_add(&c->text, s, len);
}

/* The text right after a link to the post's author: a comma and a date
 * alone ("von <a rel=author>Ann Lee</a>, 8.5.12") is the byline's date,
 * the post's. Another text, or a date among words, dates nothing. */
static void author_link_date(struct html *h, const char *s, size_t len)
{
	heed__trim(&s, &len);
	if (!len)
		return;
	h->after_author_link = false;
	if (*s != ',' || h->aside || h->foreign || h->quote)
		return;
	s++;
	len--;
	heed__trim(&s, &len);
	if (len && text_date_len(h, s, len) == len)
		offer_text_date(h->b, F_PUBLISHED, D_TEXT_BODY, s, len);
}

void heed__html_text(struct html *h, const char *s, size_t len)
{
	if (h->icon_date)
		icon_text(h, s, len);
	if (h->signature)
		signature_drop(h, s, len);
	for (size_t i = 0; i < h->ncaps; i++)
		if (h->caps[i].kind == CAP_SIGNATURE)
			signature_text(h, &h->caps[i], s, len);
		else if (h->caps[i].kind == CAP_PAGE_LINK)
			page_link_text(&h->caps[i], s, len);
		else if (h->caps[i].kind == CAP_DATE && len)
			date_piece(&h->caps[i], s, len);
		else if (!raw_capture(h->caps[i].kind))
			(void)heed__buf_add(&h->caps[i].text, s, len);
	/* Read in asides too: a sidebar's widget about the writer says
	 * whose the account is. */
	if (h->text_opens && !h->foreign && !h->b->handle_name &&
	    heed__author_handle(h->b, h->handle_rank))
		handle_text(h, s, len);
	if (h->self_item)
		self_item_text(h, s, len);
	if (h->after_author_link)
		author_link_date(h, s, len);
	if (label_scan(h))
		text_label(h, s, len);
}

bool heed__html_wants_raw(const struct html *h)
{
	return h->ncaps && raw_capture(h->caps[h->ncaps - 1].kind) &&
	       h->caps[h->ncaps - 1].sub >= 0;
}

/* The keys a page's own script data names its publication with: a
 * shop's product JSON ("published_at"), a review's state
 * ("publishedDate"), a framework's props (Next.js's __NEXT_DATA__,
 * window.__DATA__ = {...}). Each holds "ubli" (at ubli), so one pass
 * over a script finds them all. */
static const struct {
	const char *key;
	size_t ubli;
} script_date_keys[] = {
        {"\"datePublished\"", 6},   {"\"publishedDate\"", 2},
        {"\"publishDate\"", 2},     {"\"publishedAt\"", 2},
        {"\"published_at\"", 2},    {"\"date_published\"", 7},
        {"\"publicationDate\"", 2},
};

/* The end of the key of script_date_keys whose "ubli" is at q, or
 * NULL. */
static const char *script_date_key(const char *s, const char *e, const char *q)
{
	for (size_t i = 0; i < HEED_ARRAY_SIZE(script_date_keys); i++) {
		const char *key = script_date_keys[i].key, *k;
		size_t n;
		if ((size_t)(q - s) < script_date_keys[i].ubli)
			continue;
		k = q - script_date_keys[i].ubli;
		if (k[0] != '"' || k[1] != key[1])
			continue;
		n = strlen(key);
		if ((size_t)(e - k) >= n && memcmp(k, key, n) == 0)
			return k + n;
	}
	return NULL;
}

/* The string after p, a key's end, when a colon leads to one (up to 64
 * bytes): its text, its length in *n; NULL otherwise. */
static const char *script_string(const char *p, const char *e, size_t *n)
{
	const char *q;

	p += separators_len(p, (size_t)(e - p), " \t\n\r");
	if (p == e || *p++ != ':')
		return NULL;
	p += separators_len(p, (size_t)(e - p), " \t\n\r");
	if (p == e || *p++ != '"')
		return NULL;
	q = memchr(p, '"', (size_t)(e - p) < 64 ? (size_t)(e - p) : 64);
	if (!q)
		return NULL;
	*n = (size_t)(q - p);
	return p;
}

/* A script's own data: the first publication date it names is the
 * page's when nothing else dates it. Only while no date is known. */
static void script_dates(struct html *h, const char *s, size_t len)
{
	const char *e = s + len, *p = s, *q, *k, *v;
	size_t n;

	while (!h->b->cand[F_PUBLISHED].value &&
	       (q = memmem(p, (size_t)(e - p), "ubli", 4))) {
		p = q + 4;
		if ((k = script_date_key(s, e, q)) &&
		    (v = script_string(k, e, &n))) {
			heed__cand(h->b, F_PUBLISHED, O_SCRIPT, 0, v, n);
			p = v + n;
		}
	}
}

/* Script and style bodies: only JSON-LD wants them, and a script whose
 * first character opens JSON (any other is JavaScript: read for its
 * dates in place and dropped at once, so a page's scripts are never
 * copied). */
void heed__html_raw(struct html *h, const char *s, size_t len)
{
	struct capture *c;

	if (!heed__html_wants_raw(h))
		return;
	c = &h->caps[h->ncaps - 1];
	if (c->kind == CAP_SCRIPT)
		script_dates(h, s, len);
	if (c->kind == CAP_SCRIPT && !c->text.len) {
		const char *t = s;
		size_t n = len;
		heed__trim(&t, &n);
		if (!n)
			return;
		if (*t != '{' && *t != '[') {
			c->sub = -1;
			return;
		}
	}
	(void)heed__buf_add(&c->text, s, len);
}

heed_status heed__html_new(struct html **out, struct builder *b)
{
	struct html *h = heed__calloc(b->alloc, 1, sizeof(*h));

	*out = h;
	if (!h)
		return HEED_ENOMEM;
	(void)pthread_once(&word_lists_once, word_lists_init);
	h->b = b;
	h->handle_rank = heed__handle_rank();
	for (size_t i = 0; i < MAX_CAPTURES; i++)
		heed__buf_init(&h->caps[i].text, b->alloc, EXTRACT_MAX_TEXT);
	h->stack =
	        heed__malloc(b->alloc, EXTRACT_MAX_DEPTH * sizeof(*h->stack));
	if (!h->stack) {
		heed__free(b->alloc, h);
		*out = NULL;
		return HEED_ENOMEM;
	}
	return HEED_OK;
}

void heed__html_done(struct html *h)
{
	struct builder *b;

	if (!h)
		return;
	b = h->b;
	/* Unclosed elements at the end: finish what they captured. */
	while (h->ncaps)
		finish_capture(h, &h->caps[--h->ncaps]);
	if (h->signature)
		signature_offer(h);
	if (b->h1_count == 1 && h->h1)
		heed__cand(b, F_TITLE, O_H1, 0, h->h1, strlen(h->h1));
	for (size_t i = 0; i < MAX_CAPTURES; i++)
		heed__buf_free(&h->caps[i].text);
	heed__free(b->alloc, h->stack);
	heed__free(b->alloc, h);
}
