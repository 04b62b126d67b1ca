/*
 * Unit tests for src/extract's HTML side: tables of pages (files under
 * tests/unit/data/extract/ and inline snippets) with the record, links and
 * robots directives they must give; value parsers; X-Robots-Tag; the
 * content-type test; hostile input; the OOM loop.
 *
 * A page's result is rendered as "key=value" lines (render() below) and
 * each case lists lines that must be present, or "-key" for keys that
 * must be absent, so a case states only what it is about.
 */
#include "heed_test.h"
#include "html_libxml2.h"
#include "test_data.h"

#include "../../bench/extract_corpus.h"

#include "extract/extract-int.h"
#include "heed/extract.h"

static void line(struct heed_buf *b, const char *key,
                 const struct heed_field *f)
{
	if (f->value)
		heed__buf_addf(b, "%s=%s:%s\n", key,
		               heed_source_name(f->source), f->value);
}

/* "key=value:source|value:source"; nothing when n is 0. */
static void list_line(struct heed_buf *b, const char *key,
                      const struct heed_field *f, size_t n)
{
	if (!n)
		return;
	heed__buf_addf(b, "%s=", key);
	for (size_t i = 0; i < n; i++)
		heed__buf_addf(b, "%s%s:%s", i ? "|" : "", f[i].value,
		               heed_source_name(f[i].source));
	heed__buf_addf(b, "\n");
}

static void render_robots(struct heed_buf *b,
                          const struct heed_extract_robots *d)
{
	heed__buf_addf(b, "robots=%s%s%s%s%s", d->noindex ? "noindex " : "",
	               d->nofollow ? "nofollow " : "",
	               d->noarchive ? "noarchive " : "",
	               d->nosnippet ? "nosnippet " : "",
	               d->noimageindex ? "noimageindex " : "");
	if (d->max_snippet >= 0)
		heed__buf_addf(b, "max-snippet=%lld ",
		               (long long)d->max_snippet);
	if (d->unavailable_after_s != HEED_NO_DATE)
		heed__buf_addf(b, "until=%lld ",
		               (long long)d->unavailable_after_s);
	heed__buf_addf(b, "\n");
}

/* Every fact about a page, one per line. */
static void render(struct heed_buf *b, const heed_page *p)
{
	const struct heed_record *r = heed_page_record(p);

	line(b, "title", &r->title);
	line(b, "description", &r->description);
	line(b, "author", &r->author);
	line(b, "canonical", &r->canonical);
	line(b, "language", &r->language);
	line(b, "published", &r->published);
	line(b, "modified", &r->modified);
	line(b, "thumbnail", &r->thumbnail);
	line(b, "og_type", &r->og_type);
	line(b, "schema_type", &r->schema_type);
	line(b, "site_name", &r->site_name);
	line(b, "publisher", &r->publisher);
	line(b, "duration", &r->duration);
	line(b, "charset", &r->charset);
	if (r->duration_s >= 0)
		heed__buf_addf(b, "duration_s=%lld\n",
		               (long long)r->duration_s);
	if (r->views >= 0)
		heed__buf_addf(b, "views=%s:%lld\n",
		               heed_source_name(r->views_source),
		               (long long)r->views);
	if (r->published_s != HEED_NO_DATE)
		heed__buf_addf(b, "published_s=%lld\n",
		               (long long)r->published_s);
	list_line(b, "authors", r->authors, r->author_count);
	list_line(b, "tags", r->tags, r->tag_count);
	if (r->last_modified)
		heed__buf_addf(b, "last_modified=%s\n", r->last_modified);
	heed__buf_addf(b, "jsonld=%u/%u\n", r->jsonld_blocks, r->jsonld_errors);
	if (r->truncated)
		heed__buf_addf(b, "truncated\n");
	render_robots(b, heed_page_robots(p));
	if (heed_page_oembed(p, HEED_OEMBED_JSON))
		heed__buf_addf(b, "oembed_json=%s\n",
		               heed_page_oembed(p, HEED_OEMBED_JSON));
	if (heed_page_oembed(p, HEED_OEMBED_XML))
		heed__buf_addf(b, "oembed_xml=%s\n",
		               heed_page_oembed(p, HEED_OEMBED_XML));
	if (heed_page_oembed_best(p, NULL)) {
		heed_oembed_format f;
		const char *u = heed_page_oembed_best(p, &f);
		heed__buf_addf(b, "oembed_best=%s %s\n",
		               f == HEED_OEMBED_JSON ? "json" : "xml", u);
	}
	for (size_t i = 0; i < heed_page_link_count(p); i++) {
		const struct heed_link *l = heed_page_link(p, i);
		heed__buf_addf(b, "link=%s %s%s%s\n", l->url, l->rel,
		               l->nofollow ? " nofollow" : "",
		               l->feed ? " feed" : "");
	}
}

/* True when got has l as a whole line ("-key" lines: as a line prefix). */
static bool has_line(const char *got, const char *l, bool prefix)
{
	size_t n = strlen(l);

	for (const char *p = got; *p; p += strcspn(p, "\n") + 1) {
		if (strncmp(p, l, n) == 0 && (prefix || p[n] == '\n'))
			return true;
		if (!p[strcspn(p, "\n")])
			break;
	}
	return false;
}

/* Checks want ("line\nline\n-key\n...") against the rendering. */
static void expect(const char *name, const char *got, const char *want)
{
	while (*want) {
		size_t n = strcspn(want, "\n");
		char l[1024];
		snprintf(l, sizeof(l), "%.*s", (int)n, want);
		if (l[0] == '-' && has_line(got, l + 1, true))
			fail_msg("%s: unexpected %s in\n%s", name, l + 1, got);
		if (l[0] != '-' && !has_line(got, l, false))
			fail_msg("%s: missing \"%s\" in\n%s", name, l, got);
		want += n + (want[n] == '\n');
	}
}

struct page_case {
	const char *name;
	const char *file;    /* under tests/unit/data/extract/, or NULL */
	const char *html;    /* when file is NULL */
	size_t len;          /* 0: strlen(html) */
	const char *headers; /* "Name: value\n" lines */
	const char *want;
	const char *url; /* the page's URL; NULL: PAGE_URL */
};

#define PAGE_URL "https://site.example/dir/page.html"
/* 1,025 bytes of text: longer than any summary a CMS declares. */
#define WORDS_5   "Word Word Word Word Word "
#define WORDS_40  WORDS_5 WORDS_5 WORDS_5 WORDS_5 WORDS_5 WORDS_5 WORDS_5 WORDS_5
#define WORDS_205 WORDS_40 WORDS_40 WORDS_40 WORDS_40 WORDS_40 WORDS_5

/* A meta author of 10,240 bytes of one-letter words and marks, then the
 * site's name spelt out: every word of it starts a run of words that
 * might spell the domain. */
#define MARKS_5  "a - a - a - a - a - "
#define MARKS_40 MARKS_5 MARKS_5 MARKS_5 MARKS_5 MARKS_5 MARKS_5 MARKS_5 MARKS_5
#define MARKS_320 \
	MARKS_40 MARKS_40 MARKS_40 MARKS_40 MARKS_40 MARKS_40 MARKS_40 MARKS_40
#define MARKS_2560                                                            \
	MARKS_320 MARKS_320 MARKS_320 MARKS_320 MARKS_320 MARKS_320 MARKS_320 \
	        MARKS_320
#define LONG_SITE_AUTHOR                                                  \
	"<meta name=author content=\"" MARKS_2560 "Eat Smarter\"><p>Von " \
	"Ann Lee</p>"

/* Extracts c with the library's HTML driver, or with parse when not
 * NULL. */
static heed_page *extract_with(const struct page_case *c,
                               const struct heed_allocator *a, heed_status *rc,
                               heed_status (*parse)(struct builder *,
                                                    const char *, size_t))
{
	struct heed_header h[8];
	char hbuf[1024];
	size_t nh = 0, len = c->len;
	char *body = NULL;
	const char *html = c->html;
	struct heed_extract_input in = {0};
	heed_page *p = NULL;

	snprintf(hbuf, sizeof(hbuf), "%s", c->headers ? c->headers : "");
	for (char *s = hbuf; *s && nh < 8;) {
		char *nl = strchr(s, '\n'), *colon = strchr(s, ':');
		if (nl)
			*nl = '\0';
		*colon = '\0';
		h[nh].name = s;
		h[nh++].value = colon + 2;
		s = nl ? nl + 1 : s + strlen(s);
	}
	if (c->file)
		html = body = read_data(c->file, &len);
	in.body = html;
	in.body_len = len ? len : strlen(html);
	in.url = c->url ? c->url : PAGE_URL;
	in.headers = h;
	in.header_count = nh;
	in.agent = "heed";
	*rc = parse ? heed__extract_html_with(&p, &in, a, NULL, parse)
	            : heed_extract_html(&p, &in, a, NULL);
	free(body);
	return p;
}

static heed_page *extract(const struct page_case *c,
                          const struct heed_allocator *a, heed_status *rc)
{
	return extract_with(c, a, rc, NULL);
}

#define NUL_PAGE                                                          \
	"<a href=\"/a\0b\">x</a><meta name=description content=\"d\0e\">" \
	"<a href=/after>y</a>"
#define UTF16_PAGE "\xFF\xFE<\0t\0i\0t\0l\0e\0>\0O\0K\0<\0/\0t\0i\0t\0l\0e\0>\0"

static const struct page_case cases[] = {

        /* Dates given as text, and the date sources real pages use
         *. */
        {"text date: a date element's text in the article", NULL,
         "<article><h1>T</h1><p class=\"date\">July 05, 2017</p></article>", 0,
         NULL, "published=html:2017-07-05\n"},
        {"text date: post-timestamp span", NULL,
         "<main><span class=\"post-timestamp\"> 2024-03-03</span></main>", 0,
         NULL, "published=html:2024-03-03\n"},
        {"text date: <time> without datetime in the article", NULL,
         "<article><time>March 3, 2024</time></article>", 0, NULL,
         "published=html:2024-03-03\n"},
        {"text date: microdata datePublished whose value is its text", NULL,
         "<div itemscope itemtype=https://schema.org/NewsArticle><span "
         "itemprop=datePublished>12 Jan, 2016, 10.34PM IST</span></div>",
         0, NULL, "published=microdata:2016-01-12T22:34:00+05:30\n"},
        {"microdata: the article item inside a WebPage item dates the page",
         NULL,
         "<body itemscope itemtype=https://schema.org/WebPage><article "
         "itemscope itemtype=https://schema.org/Article><time "
         "itemprop=datePublished datetime=2023-10-18>x</time><time "
         "itemprop=dateModified datetime=2023-10-19>y</time></article><div "
         "class=views-row><article><time itemprop=dateCreated "
         "datetime=2023-10-10>z</time></article></div></body>",
         0, NULL,
         "published=microdata:2023-10-18\nmodified=microdata:2023-10-19\n"},
        {"microdata: only the first article item, never an aside's, dates "
         "the page",
         NULL,
         "<body itemscope itemtype=https://schema.org/WebPage><aside><div "
         "itemscope itemtype=https://schema.org/BlogPosting><meta "
         "itemprop=datePublished content=2020-01-01></div></aside><div "
         "itemscope itemtype=https://schema.org/NewsArticle><meta "
         "itemprop=dateModified content=2021-02-02></div><div itemscope "
         "itemtype=https://schema.org/NewsArticle><meta "
         "itemprop=datePublished content=2019-03-03></div></body>",
         0, NULL, "-published\nmodified=microdata:2021-02-02\n"},
        {"microdata: an article item inside a product's is not the page's",
         NULL,
         "<body itemscope itemtype=https://schema.org/Product><div itemscope "
         "itemtype=https://schema.org/Review><meta itemprop=datePublished "
         "content=2020-01-01></div></body>",
         0, NULL, "-published\n"},
        {"text date: JSON-LD in RFC 2822 style with a zone name", NULL,
         "<script type=application/ld+json>{\"@type\":\"NewsArticle\","
         "\"datePublished\":\"Mon, Jan 7 2019 15:37:00 EST\"}</script>",
         0, NULL, "published=jsonld:2019-01-07T15:37:00-05:00\n"},
        {"text date: 12/01/2016 refused on a page without a language", NULL,
         "<html lang=en><meta name=date content=12/01/2016>", 0, NULL,
         "-published\n"},
        {"text date: 12/01/2016 is 12 January on an en-GB page", NULL,
         "<html lang=en-GB><meta name=date content=12/01/2016>", 0, NULL,
         "published=meta:2016-01-12\n"},
        {"text date: a slashed 11/01/2023 on a German page gives way to the "
         "day the page shows",
         NULL,
         "<html lang=de><meta name=date content=\"11/01/2023 12:43:42\">"
         "<body><div class=story><p>Text.</p><p>Erstellt am: "
         "01.11.2023</p></div></body>",
         0, NULL, "published=html:2023-11-01\n"},
        {"text date: a slashed 11/01/2023 alone on a German page is refused",
         NULL, "<html lang=de><meta name=date content=11/01/2023>", 0, NULL,
         "-published\n"},
        {"text date: a German text_datum class is a date's, before a "
         "listing's date class",
         NULL,
         "<html lang=de><body><div class=item><p><span class=text_datum>31. "
         "Oktober 2023.</span> Dragqueens sind Kunstfiguren.</p></div>"
         "<div class=slide><div class=date>24. Oktober 2023</div></div>"
         "</body>",
         0, NULL, "published=html:2023-10-31\n"},
        {"text date: German month names", NULL,
         "<html lang=de><article><p class=datum-date>5. März 2024, 14:30 "
         "Uhr</p></article>",
         0, NULL, "published=html:2024-03-05T14:30:00Z\n"},
        {"text date: Russian month names in the genitive", NULL,
         "<html lang=ru><article><p class=date>15 "
         "\320\260\320\262\320\263\321\203\321\201\321\202\320\260 2016, "
         "13:43</p></article>",
         0, NULL, "published=html:2016-08-15T13:43:00Z\n"},
        {"text date: Arabic month names, Egypt's and the Levant's after a "
         "slash",
         NULL,
         "<html lang=ar><article><p class=date>\330\247\331\204\330"
         "\254\331\205\330\271\330\251 24 \331\206\331\212\330\263"
         "\330\247\331\206 / \330\243\330\250\330\261\331\212\331"
         "\204 2020</p></article>",
         0, NULL, "published=html:2020-04-24\n"},
        {"text date: an Arabic month name of two words", NULL,
         "<html lang=ar><meta property=article:published_time "
         "content=\"\330\247\331\204\330\243\330\261\330\250\330\271\330"
         "\247\330\241\330\214 3 \330\252\330\264\330\261\331\212"
         "\331\206 \330\247\331\204\330\253\330\247\331\206\331\212 "
         "2020\">",
         0, NULL, "published=og:2020-11-03\n"},
        {"text date: another month after the slash is no date's", NULL,
         "<html lang=ar><article><p class=date>24 \331\206\331\212"
         "\330\263\330\247\331\206 / \331\205\330\247\331\212\331"
         "\210 2020</p></article>",
         0, NULL, "-published\n"},
        {"text date: never from comments, a sidebar or a teaser", NULL,
         "<article><h1>A</h1><div class=comments><p class=date>May 1, "
         "2020</p><time datetime=2020-05-01>x</time></div><article "
         "class=teaser><time datetime=2019-01-01>y</time></article></article>"
         "<aside><time datetime=2018-01-01>z</time><p class=date>June 2, "
         "2018</p></aside><div class=sidebar-recent><span class=date>June 3, "
         "2018</span></div>",
         0, NULL, "-published\n"},
        {"text date: a teaser's frame that names an item's single view is "
         "the page's own",
         NULL,
         "<div class=\"teaser single-comment\"><span "
         "class=date>03.02.2022</span></div><h2>A</h2><div "
         "class=\"teaserTyp3 newsSingle\"><span "
         "class=blue>01.02.2022</span> Kategorie: B</div>",
         0, NULL, "published=html:2022-02-01\n"},
        {"text date: a teaser that holds the page's h1 is its own lead", NULL,
         "<div class=teaser><span class=date>03.02.2022</span><h2>B</h2>"
         "</div><figure class=teaser><span class=date>02.02.2022</span>"
         "<span class=category>C</span><h1>A</h1></figure><p>Text</p>"
         "<div class=teaser><span class=date>04.02.2022</span><h1>D</h1>"
         "</div>",
         0, NULL, "published=html:2022-02-02\n"},
        {"text date: a teaser's time gives way to the article's", NULL,
         "<article><h1>A</h1><article><time datetime=2019-01-01>y</time>"
         "</article><time datetime=2024-01-01>x</time></article>",
         0, NULL, "published=html:2024-01-01\n"},
        {"text date: an article after the page's h1 outside articles is a "
         "listed post's",
         NULL,
         "<body><div class=view><h1>A</h1><p class=date>2023-11-07</p></div>"
         "<article><h2>B</h2><p class=date>2023-11-03</p></article></body>",
         0, NULL, "published=html:2023-11-07\n"},
        {"text date: a listed article's time ranks below the page's own", NULL,
         "<body><h1>A</h1><p><time datetime=2023-11-07>x</time></p>"
         "<article><h2>B</h2><time datetime=2023-11-03>y</time></article>"
         "</body>",
         0, NULL, "published=html:2023-11-07\n"},
        {"text date: a site header's h1 leaves the article the page's", NULL,
         "<body><header><h1>Site</h1></header><article><h2>A</h2><p "
         "class=date>2023-11-03</p></article><div><p class=date>2023-11-07"
         "</p></div></body>",
         0, NULL, "published=html:2023-11-03\n"},
        {"text date: an embedded post's time in a blockquote is not the "
         "page's",
         NULL,
         "<article><h1>A</h1><blockquote class=instagram-media><p>x am <time "
         "datetime=2018-03-12T19:30:12+00:00>Mar 12, 2018</time></p>"
         "<p class=date>March 12, 2018</p></blockquote></article>",
         0, NULL, "-published\n"},
        {"text date: the page's time after a blockquote is read", NULL,
         "<article><blockquote><time datetime=2018-03-12>x</time></blockquote>"
         "<p>y</p><time datetime=2019-01-29>29.01.2019</time></article>",
         0, NULL, "published=html:2019-01-29\n"},
        {"text date: a 'last edited' line is the modified date", NULL,
         "<article><p class=date>Last edited March 4, 2024</p></article>", 0,
         NULL, "modified=html:2024-03-04\npublished=url:2020-02-17\n",
         "https://site.example/2020/02/17/slug/"},
        {"text date: below every declared date", NULL,
         "<meta name=pubdate content=2020-02-02><article><p class=date>July "
         "05, 2017</p></article>",
         0, NULL, "published=meta:2020-02-02\n"},
        {"text date: a byline's date", NULL,
         "<article><p class=byline>By Ann Lee | 3 de marzo de 2024</p>"
         "</article>",
         0, NULL, "author=html:Ann Lee\npublished=html:2024-03-03\n"},
        {"text date: hAtom's updated beside a post's date word dates the "
         "post",
         NULL,
         "<article><span class=\"post_date date updated\">July 12, "
         "2017</span></article>",
         0, NULL, "published=html:2017-07-12\n-modified\n"},
        {"text date: a date class's link title that is no date gives way "
         "to its text",
         NULL,
         "<article><a class=\"post-date updated\" title=\"Permalink to "
         "Post\" href=/p>3 March 2024</a></article>",
         0, NULL, "published=html:2024-03-03\n"},
        {"text date: a meta line's date among its words", NULL,
         "<html lang=de><article><div class=submitted>Gespeichert von ann "
         "am 24. Juli 2017 - 18:55</div></article>",
         0, NULL, "published=html:2017-07-24T18:55:00Z\n"},
        {"text date: an info or time line gives way to a date element", NULL,
         "<html lang=de><p class=info>3.5.2019</p><span "
         "class=post-meta-time>3.5.2019</span><p class=date>4.5.2019</p>",
         0, NULL, "published=html:2019-05-04\n"},
        {"text date: only a listing's first six meta lines are read", NULL,
         "<p class=meta>1 view</p><p class=meta>2 views</p><p "
         "class=meta>3 views</p><p class=meta>4 views</p><p class=meta>5 "
         "views</p><p class=meta>6 views</p><p class=meta>May 1, 2020 \302\267 "
         "7 views</p>",
         0, NULL, "-published\n"},
        {"text date: a comment's meta line dates the comment", NULL,
         "<small class=commentmetadata>May 1, 2020</small>", 0, NULL,
         "-published\n"},
        {"text date: a text after a date label", NULL,
         "<h1>Dow</h1><h3>Datum: 22.12.2012, Rubrik: USA</h3>", 0, NULL,
         "published=html:2012-12-22\n"},
        {"text date: a label's value in the next text (dt and dd)", NULL,
         "<dl><dt>Ort</dt><dd>Bonn</dd><dt>Datum</dt><dd>12.01.2017</dd>"
         "</dl>",
         0, NULL, "published=html:2017-01-12\n"},
        {"text date: a label in its own inline element", NULL,
         "<p><strong>Ver\303\266ffentlicht am</strong> 16. August 2019</p>", 0,
         NULL, "published=html:2019-08-16\n"},
        {"text date: a text that is a bare date, after every label", NULL,
         "<p><span class=blue>01.02.2022</span> Kategorie</p><p>Published: "
         "3 March 2024</p>",
         0, NULL, "published=html:2024-03-03\n"},
        {"text date: the first bare date when nothing else dates the page",
         NULL,
         "<p>Tel. 0341/696290</p><h5><a href=/p>23.01.2019</a></h5><a "
         "href=/o>22.01.2019</a><h3>News <b>21.01.2019</b></h3><span>"
         "30.01.2022 18:36</span><span>01.02.2022</span>",
         0, NULL, "published=html:2022-01-30T18:36:00Z\n"},
        {"text date: a bare date with its month's name, nothing else", NULL,
         "<p>Seit 27 Sep 2016 offen</p><a href=/p>3 Mar 2016</a><p>Mai "
         "2019</p><div><img src=i.png>&nbsp; 27 Sep 2016 </div>"
         "<div>Apr 7, 2009</div>",
         0, NULL, "published=html:2016-09-27\n"},
        {"text date: a weekday before a bare date is part of it", NULL,
         "<p>Sunday morning 3 May</p><div>samedi 4 mai 2024</div>", 0, NULL,
         "published=html:2024-05-04\n"},
        {"text date: a weekday with a comma before a month-first date", NULL,
         "<div>Saturday, May 4, 2024</div>", 0, NULL,
         "published=html:2024-05-04\n"},
        {"text date: a byline's \"on\" line with a date alone", NULL,
         "<p>von <a href=/u/ann>Ann</a><br>am 04.05.2024</p><p>am Ende 5 "
         "Mai 2024 war es</p>",
         0, NULL, "published=html:2024-05-04\n"},
        {"text date: a weekday or \"on\" before words is no bare date", NULL,
         "<p>Sunday 4 May 2024 we met</p><p>on 4 May 2024 we met</p>"
         "<p>Monday</p>",
         0, NULL, "-published\n"},
        {"text date: the day on an author's line beside its lead", NULL,
         "<h2>News <span>14.03.2024 09:15 von Bea</span></h2><p>Text</p>"
         "<p>15.03.2024 by Ann Lee</p>",
         0, NULL, "published=html:2024-03-14T09:15:00Z\n"},
        {"text date: a date and a lead that is no byline give no day", NULL,
         "<h2><a href=/p>14.03.2024 von Ann Lee</a></h2><h2>14.03.2024 von "
         "10 bis 12 Uhr</h2>",
         0, NULL, "-published\n"},
        {"text date: a comma and a date alone after the author's link", NULL,
         "<p>von <a rel=author href=/author/ann-lee/>Ann Lee</a>, 8.5.12</p>"
         "<p>Text.</p>",
         0, NULL, "published=html:2012-05-08\nauthor=link:Ann Lee\n"},
        {"text date: no date among words after the author's link", NULL,
         "<p>von <a rel=author href=/author/ann-lee/>Ann Lee</a>, seit "
         "8.5.12 dabei</p>",
         0, NULL, "-published\n"},
        {"text date: a listed item's date beside a link to the page itself",
         NULL,
         "<h1>Spring walk</h1><p>Text</p><aside><ul><li><a "
         "href=/blog/autumn-walk/>Autumn walk</a><span>03/11/2023</span>"
         "</li><li><a href=/blog/spring-walk/>Spring walk</a><span "
         "class=post-date>21/04/2024</span></li></ul></aside>",
         0, NULL, "published=html:2024-04-21\n",
         "https://site.example/blog/spring-walk/"},
        {"text date: a paragraph about the post, its link then its day", NULL,
         "<h1>Spring walk</h1><p>Text</p><div id=sidebar><h2>About this "
         "post</h2><p><a href=/blog/spring-walk/>Spring walk</a> wurde am "
         "<nobr>21. April 2024</nobr> um <nobr>09:30</nobr> Uhr gepostet."
         "</p></div>",
         0, NULL, "published=html:2024-04-21\n",
         "https://site.example/blog/spring-walk/"},
        {"text date: a paragraph linking another post dates nothing", NULL,
         "<h1>Spring walk</h1><div id=sidebar><p><a href=/blog/autumn-walk/>"
         "Autumn walk</a> wurde am <nobr>3. November 2023</nobr> gepostet."
         "</p></div>",
         0, NULL, "-published\n", "https://site.example/blog/spring-walk/"},
        {"text date: a bare date in the page wins over its listed item's", NULL,
         "<h1>Spring walk</h1><p>20.04.2024</p><aside><ul><li><a "
         "href=/blog/spring-walk/>Spring walk</a><span>21/04/2024</span>"
         "</li></ul></aside>",
         0, NULL, "published=html:2024-04-20\n",
         "https://site.example/blog/spring-walk/"},
        {"text date: a home page's link to itself dates nothing", NULL,
         "<aside><ul><li><a href=/>Home</a><span>21/04/2024</span></li>"
         "</ul></aside>",
         0, NULL, "-published\n", "https://site.example/"},
        {"text date: a comment's permalink to the page is no link to it", NULL,
         "<aside><ul><li><a href=/blog/spring-walk/#comment-5>Ann</a><span>"
         "22/04/2024</span></li></ul></aside>",
         0, NULL, "-published\n", "https://site.example/blog/spring-walk/"},
        {"text date: a date after the self-linked item closed is none", NULL,
         "<aside><ul><li><a href=/blog/spring-walk/>Spring walk</a></li>"
         "</ul><span>22/04/2024</span></aside>",
         0, NULL, "-published\n", "https://site.example/blog/spring-walk/"},
        {"text date: the Wayback Machine's toolbar dates the capture", NULL,
         "<div id=wm-ipp-base><div id=wm-ipp><div class=r>10 Nov "
         "2013</div><span>10.11.2013</span></div></div><p>Text</p>"
         "<div>4 Apr 2013</div>",
         0, NULL, "published=html:2013-04-04\n"},
        {"text date: a month's name alone, a date among words or in a table's "
         "cell is no bare date",
         NULL,
         "<p>Seit 27 Sep 2016 offen</p><a href=/p>3 Mar 2016</a><p>Mai "
         "2019</p><p>Apr 7, 2009 war es</p><table><tr><th>1</th><td>October "
         "14, 1999</td></tr></table>",
         0, NULL, "-published\n"},
        {"text date: a heading that is a bare date alone dates the page", NULL,
         "<h2>Jahresbericht</h2><h3>21.01.2022</h3><p>Text</p>"
         "<span>01.02.2022</span>",
         0, NULL, "published=html:2022-01-21\n"},
        {"text date: a dateline's date after a no-break space", NULL,
         "<p><span class=metadata>Bonn,&nbsp;11.10.2021</span></p>", 0, NULL,
         "published=html:2021-10-11\n"},
        {"text date: a dateline of a place and a date opens the text", NULL,
         "<h1>T</h1><p><span>Hamburg, 2. November 2021</span></p><p>Text</p>",
         0, NULL, "published=html:2021-11-02\n"},
        {"text date: a dateline goes on after a stop or a dash", NULL,
         "<p><strong>Karlsruhe, (12.11.2021). Traditionell wird</strong></p>"
         "<p>27.1.2022 - Bei der Feier</p>",
         0, NULL, "published=html:2021-11-12\n"},
        {"text date: a date in brackets opens a dateline", NULL,
         "<h1>T</h1><p>(21. November 2022) Energieverbraucher erhalten "
         "mehr.</p><p>(22.11.2022) Zweiter Absatz.</p>",
         0, NULL, "published=html:2022-11-21\n"},
        {"text date: a bracket that holds more than the date is none", NULL,
         "<p>(21.11.2022 bis 23.11.2022) Messe</p><p>(ab 1. Mai 2022) "
         "offen</p><p>(21.11.2022)</p>",
         0, NULL, "-published\n"},
        {"text date: a date and a dash open a dateline", NULL,
         "<p>27.1.2022 \342\200\223 Bei der Feier am 3.2.2022</p>", 0, NULL,
         "published=html:2022-01-27\n"},
        {"text date: a date and an opening quote open a dateline", NULL,
         "<p><strong>01.02.2022 \342\200\236Der Arbeitsmarkt ist gut in "
         "das Jahr 2022 gestartet.\342\200\234</strong></p>",
         0, NULL, "published=html:2022-02-01\n"},
        {"text date: a date and a bar open a dateline", NULL,
         "<div class=left>26 Mai, 2008 | <a href=/c>3 Kommentare</a></div>", 0,
         NULL, "published=html:2008-05-26\n"},
        {"text date: a bar after words after a date is no dateline", NULL,
         "<p>26 Mai 2008 war es | x</p>", 0, NULL, "-published\n"},
        {"text date: a date and a closing quote are a sentence's", NULL,
         "<p>\342\200\236Seit 01.02.2022\342\200\234 sagt er</p>"
         "<p>03.02.2022\342\200\231 war es</p>",
         0, NULL, "-published\n"},
        {"text date: a date, a time and a dash open a dateline", NULL,
         "<p>02.02.2022 10:16 Uhr - 1. Bundesliga - PM Vereine</p>", 0, NULL,
         "published=html:2022-02-02T10:16:00Z\n"},
        {"text date: a dash before words after a time is no offset", NULL,
         "<span class=date>02.02.2022 10:16 - Sport</span>", 0, NULL,
         "published=html:2022-02-02T10:16:00Z\n"},
        {"text date: a dash before a digit after a time is an offset", NULL,
         "<span class=date>2016-01-12 22:34:00 -0500</span>", 0, NULL,
         "published=html:2016-01-12T22:34:00-05:00\n"},
        {"text date: a credit, a bullet and a date that ends the text", NULL,
         "<p>Handball Schweiz&nbsp;&nbsp;&bull;&nbsp;&nbsp;02.02.2022</p>", 0,
         NULL, "published=html:2022-02-02\n"},
        {"text date: a date before a bullet, or a credit's date among words, "
         "is no dateline",
         NULL,
         "<p>30.01.2022 \302\267 M\303\244nner \302\267 EURO</p><p>dpa "
         "\342\200\242 01.02.2022</p><p>Ann Lee \342\200\242 03.02.2022 und "
         "mehr</p>",
         0, NULL, "-published\n"},
        {"text date: a date among words, or a place's date in a sentence, is "
         "no dateline",
         NULL,
         "<p>Bonn, am 11.10.2021 war es</p><p>Wir waren in Bonn, 11.10.2021"
         "</p><p>12.10.2021 war es</p><p>Bonn und Berlin, 13.10.2021 und "
         "mehr</p><a href=/x>Bonn, 14.10.2021</a>",
         0, NULL, "-published\n"},
        {"text date: a documentation build's stamp dates an edit", NULL,
         "<p><small><i>This page last modified on <a href=/m>2022-12-14 "
         "16:04:04</a> UTC</i></small></p><p><font size=-1>This document "
         "was generated on <em>February 5, 2023</em> using <a "
         "href=/t>texi2any</a>.</font></p>",
         0, NULL,
         "modified=html:2022-12-14T16:04:04Z\npublished=url:2019-09-17\n",
         "https://site.example/2019/09/17/slug"},
        {"text date: a Doxygen page's stamp dates an edit", NULL,
         "<address>Generated on Tue Mar 5 2024 10:00:00 for Eigen by "
         "doxygen</address>",
         0, NULL, "modified=html:2024-03-05T10:00:00Z\n"},
        {"text date: \"Last update:\" is an edit's label", NULL,
         "<div>Last update: 3 March 2021</div>", 0, NULL,
         "modified=html:2021-03-03\npublished=url:2019-09-17\n",
         "https://site.example/2019/09/17/slug"},
        {"text date: an edit's label dates the edit", NULL,
         "<div>Aktualisiert: 19.10.2019 11:05 Uhr</div>", 0, NULL,
         "modified=html:2019-10-19T11:05:00Z\npublished=url:2019-09-17\n",
         "https://site.example/2019/09/17/slug"},
        {"text date: an as-of date dates the edit, and the publication when "
         "nothing else does",
         NULL, "<div>Stand: 19.10.2019 11:05 Uhr</div>", 0, NULL,
         "modified=html:2019-10-19T11:05:00Z\n"
         "published=html:2019-10-19T11:05:00Z\n"},
        {"text date: a label in brackets", NULL,
         "<div>[Stand: 09.10.2017, 01:40 Uhr]</div><p>(Datum: 08.10.2017)</p>",
         0, NULL,
         "modified=html:2017-10-09T01:40:00Z\npublished=html:2017-10-08\n"},
        {"text date: a bracket before no label is no label", NULL,
         "<div>(Wir 09.10.2017)</div>", 0, NULL, "-published\n-modified\n"},
        {"text date: an as-of date gives way to any other published date", NULL,
         "<div>Stand: 19.10.2019</div><p><span>01.02.2019</span></p>", 0, NULL,
         "modified=html:2019-10-19\npublished=html:2019-02-01\n"},
        {"text date: a label comes after every date element", NULL,
         "<p>Published: March 3, 2024</p><p class=date>July 05, 2017</p>", 0,
         NULL, "published=html:2017-07-05\n"},
        {"text date: a press release's label", NULL,
         "<p>Pressemitteilung vom 25. Januar 2022 |&nbsp; Berlin</p>", 0, NULL,
         "published=html:2022-01-25\n"},
        {"text date: French 'Mise en ligne' labels its value", NULL,
         "<html lang=fr><ul><li><p class=title>Mise en ligne</p><p "
         "class=content>23 mai 2019</p></li></ul>",
         0, NULL, "published=html:2019-05-23\n"},
        {"text date: 'Mise en ligne' as a heading's words dates nothing", NULL,
         "<html lang=fr><h2>Mise en ligne de votre site</h2><p>Texte du "
         "23 mai 2019</p>",
         0, NULL, "-published\n"},
        {"text date: a press release's word with no date after it, or in a "
         "sentence, dates nothing",
         NULL,
         "<p>Pressemitteilung vom Verband</p><p>Dieser Artikel wurde am 24. "
         "September 2005 in die Liste aufgenommen.</p>",
         0, NULL, "-published\n"},
        {"text date: a post's stamp as a sentence, with its hour", NULL,
         "<div class=post-footer>Dieser Beitrag wurde am 3. Mai 2012 um "
         "10:05 von <a href=/u/ann>Ann</a> geschrieben.</div>",
         0, NULL, "published=html:2012-05-03T10:05:00Z\n"},
        {"text date: Kubrick's 'This entry was posted on'", NULL,
         "<p><small>This entry was posted on Friday, June 1st, 2012 at 9:15 "
         "am and is filed under <a href=/c/x>X</a>.</small></p>",
         0, NULL, "published=html:2012-06-01T09:15:00Z\n"},
        {"text date: the sentence with a day alone is a notice's", NULL,
         "<p>Dieser Artikel wurde am 4. Juni 2010 in die Liste der guten "
         "Artikel aufgenommen.</p>",
         0, NULL, "-published\n"},
        {"text date: no label in a word, an aside, or a value without a "
         "date",
         NULL,
         "<p>Dates: 3 March 2024</p><aside>Datum: 01.02.2020</aside><dl><dt>"
         "Datum</dt><dd>bald</dd></dl><p>am 3.4.2020 war es</p>",
         0, NULL, "-published\n"},
        {"date: the chosen instant in the offset another source writes it "
         "with",
         NULL,
         "<meta name=date content=\"Sat, 19 Oct 2019 00:04:00 +0200\"><script "
         "type=application/ld+json>{\"@type\":\"NewsArticle\","
         "\"datePublished\":\"2019-10-18T22:04:00Z\"}</script>",
         0, NULL, "published=jsonld:2019-10-19T00:04:00+02:00\n"},
        {"date: another instant's offset is not taken", NULL,
         "<meta name=date content=\"2019-10-19T00:05:00+02:00\"><script "
         "type=application/ld+json>{\"@type\":\"NewsArticle\","
         "\"datePublished\":\"2019-10-18T22:04:00Z\"}</script>",
         0, NULL, "published=jsonld:2019-10-18T22:04:00Z\n"},
        {"date: a bare wall-clock time gives the UTC instant its offset", NULL,
         "<meta name=sailthru.date content=\"2023-11-08 22:28:35\"><script "
         "type=application/ld+json>{\"@type\":\"NewsArticle\","
         "\"datePublished\":\"2023-11-09T03:28:35.120Z\"}</script>",
         0, NULL, "published=jsonld:2023-11-08T22:28:35.120-05:00\n"},
        {"date: a better UTC instant takes a bare wall-clock time's offset",
         NULL,
         "<script type=application/ld+json>{\"@type\":\"NewsArticle\","
         "\"datePublished\":\"2023-11-09T01:49:09Z\"}</script><article>"
         "<time class=published datetime=\"2023-11-08 17:49:09\">Nov 8"
         "</time></article>",
         0, NULL, "published=jsonld:2023-11-08T17:49:09-08:00\n"},
        {"date: a wall-clock time without seconds is compared to the minute",
         NULL,
         "<meta property=article:published_time content="
         "\"2019-12-31T23:11:59+00:00\"><meta name=date content=\"January "
         "1, 2020, 1:11 am\">",
         0, NULL, "published=og:2020-01-01T01:11:59+02:00\n"},
        {"date: a wall-clock time that is no zone's offset away is another "
         "time",
         NULL,
         "<meta name=date content=\"2023-11-08 22:21:35\"><meta "
         "property=article:published_time content=2023-11-09T03:28:35Z>",
         0, NULL, "published=og:2023-11-09T03:28:35Z\n"},
        {"date: a wall-clock time gives no offset to another wall-clock time",
         NULL,
         "<meta property=article:published_time content=\"2023-11-09 "
         "03:28:35\"><meta name=date content=\"2023-11-08 22:28:35\">",
         0, NULL, "published=og:2023-11-09T03:28:35Z\n"},
        {"date: Open Graph's published day over JSON-LD's other instant when "
         "the page shows it",
         NULL,
         "<meta property=article:published_time content="
         "2022-01-06T08:29:34Z><script type=application/ld+json>{\"@type\":"
         "\"NewsArticle\",\"datePublished\":\"2022-01-04T07:29:00Z\"}"
         "</script><div><div class=info>06.01.2022</div><p>Text vom "
         "04.01.2022</p></div>",
         0, NULL, "published=og:2022-01-06T08:29:34Z\n"},
        {"date: JSON-LD's published day when the page shows it", NULL,
         "<meta property=article:published_time content="
         "2019-12-12T21:17:43Z><script type=application/ld+json>{\"@type\":"
         "\"NewsArticle\",\"datePublished\":\"2019-12-09T22:25:10Z\"}"
         "</script><div><a href=/p>12.12.2019</a><span>09.12.2019</span>"
         "</div>",
         0, NULL, "published=jsonld:2019-12-09T22:25:10Z\n"},
        {"date: JSON-LD's published day when the page shows neither", NULL,
         "<meta property=article:published_time content="
         "2019-12-12T21:17:43Z><script type=application/ld+json>{\"@type\":"
         "\"NewsArticle\",\"datePublished\":\"2019-12-09T22:25:10Z\"}"
         "</script><p>Am 12.12.2019 war es</p>",
         0, NULL, "published=jsonld:2019-12-09T22:25:10Z\n"},
        {"date: a page that shows its modified day was republished then", NULL,
         "<script type=application/ld+json>{\"@type\":\"NewsArticle\","
         "\"datePublished\":\"2017-08-21T13:09:00Z\",\"dateModified\":"
         "\"2019-04-03T08:04:01Z\"}</script>"
         "<article><p class=date>03.04.2019</p></article>",
         0, NULL,
         "published=jsonld:2019-04-03T08:04:01Z\n"
         "modified=jsonld:2019-04-03T08:04:01Z\n"},
        {"date: a page that shows only its edit's day was republished then",
         NULL,
         "<script type=application/ld+json>{\"@type\":\"NewsArticle\","
         "\"datePublished\":\"2017-08-21T13:09:00Z\",\"dateModified\":"
         "\"2019-04-03T08:04:01Z\"}</script>"
         "<article><div>Aktualisiert: 03.04.2019</div></article>",
         0, NULL,
         "published=jsonld:2019-04-03T08:04:01Z\n"
         "modified=jsonld:2019-04-03T08:04:01Z\n"},
        {"date: a page's own script data dates it when nothing else does", NULL,
         "<script>window.__DATA__ = {\"review\": {\"publishedDate\" : "
         "\"2016-11-04T20:37:27Z\"}};</script><p>Text.</p>",
         0, NULL, "published=html:2016-11-04T20:37:27Z\n"},
        {"date: the script's first key with a date, in the script's order",
         NULL,
         "<script>var d = {\"datePublished\":\"soon\",\"publishDate\":"
         "\"2019-01-02\",\"datePublished\":\"2020-05-01\"};</script>",
         0, NULL, "published=html:2019-01-02\n"},
        {"date: a shop's product JSON dates its page", NULL,
         "<script type=application/json>{\"product\":{\"title\":\"Kaffee\","
         "\"published_at\":\"2019-03-02T06:22:28+01:00\"}}</script>",
         0, NULL, "published=html:2019-03-02T06:22:28+01:00\n"},
        {"date: script data gives way to the page's shown date and its URL's",
         NULL,
         "<script>var d = {\"datePublished\":\"2016-11-04\"};</script>"
         "<article><p class=date>05.07.2017</p></article>",
         0, NULL, "published=html:2017-07-05\n",
         "https://site.example/2019/09/17/slug"},
        {"date: script data's URL date", NULL,
         "<script>var d = {\"datePublished\":\"2016-11-04\"};</script>", 0,
         NULL, "published=url:2019-09-17\n",
         "https://site.example/2019/09/17/slug"},
        {"date: a script's key that names no string, or a script file, dates "
         "nothing",
         NULL,
         "<script>var k = \"datePublished\"; var d = {\"publishDate\": "
         "null};</script><script src=/a.js>{\"datePublished\":\"2016-11-04"
         "\"}</script>",
         0, NULL, "-published\n"},
        {"date: a page dated only by an edit's line is published then", NULL,
         "<div><p>Text.</p><p class=info>Aktualisiert: 30.12.2016</p></div>", 0,
         NULL, "published=html:2016-12-30\nmodified=html:2016-12-30\n"},
        {"date: a page dated only by an edit's label alone is published then",
         NULL,
         "<p>Text.</p><div><label>Letzte \303\204nderung:</label><div>"
         "14.01.2022 um 09:25</div></div>",
         0, NULL,
         "published=html:2022-01-14T09:25:00Z\n"
         "modified=html:2022-01-14T09:25:00Z\n"},
        {"date: a wiki's last edit outside the article dates no page", NULL,
         "<div>Text</div><ul><li id=footer-info-lastmod>This page was last "
         "edited on 3 April 2019, at 08:04.</li></ul>",
         0, NULL, "-published\nmodified=html:2019-04-03T08:04:00Z\n"},
        {"date: a build's last-update stamp in the site's footer dates no "
         "page",
         NULL,
         "<div role=main><h1>Logging</h1><p>Text.</p></div><div "
         "class=footer>&copy; 2001-2026.<br> Last updated on October 07, "
         "2026.</div>",
         0, NULL, "-published\nmodified=html:2026-10-07\n"},
        {"date: a last-update stamp in a footer by its id, its label alone",
         NULL,
         "<p>Text.</p><div id=footer><div id=footer-text><b>Last "
         "updated</b> 2024-05-31 00:35:55 UTC</div></div>",
         0, NULL, "-published\nmodified=html:2024-05-31T00:35:55Z\n"},
        {"date: a stamp that names the page dates no page, footer or not", NULL,
         "<p>Text.</p><p align=center><small><i>This page last modified "
         "on <a href=/docsrc>2022-12-14 16:04:04</a> UTC</i></small></p>",
         0, NULL, "-published\nmodified=html:2022-12-14T16:04:04Z\n"},
        {"date: an update line in a footer, or a last update elsewhere, "
         "still dates the page",
         NULL,
         "<p>Text.</p><div id=footer><p>Updated: $Date: 2016/11/18 "
         "06:31:41 $</p></div>",
         0, NULL,
         "published=html:2016-11-18T06:31:41Z\n"
         "modified=html:2016-11-18T06:31:41Z\n"},
        {"date: a last update outside any footer still dates the page", NULL,
         "<p>Text.</p><p class=info>Last updated: 30.12.2016</p>", 0, NULL,
         "published=html:2016-12-30\nmodified=html:2016-12-30\n"},
        {"date: a wiki's last edit outside the article dates no republication",
         NULL,
         "<script type=application/ld+json>{\"@type\":\"Article\","
         "\"datePublished\":\"2003-02-28T13:09:00Z\",\"dateModified\":"
         "\"2019-04-03T08:04:01Z\"}</script><div>Text</div>"
         "<ul><li id=footer-info-lastmod>This page was last edited on 3 "
         "April 2019, at 08:04.</li></ul>",
         0, NULL,
         "published=jsonld:2003-02-28T13:09:00Z\n"
         "modified=jsonld:2019-04-03T08:04:01Z\n"},
        {"date: a page that shows its first day beside its edit's keeps it",
         NULL,
         "<script type=application/ld+json>{\"@type\":\"NewsArticle\","
         "\"datePublished\":\"2017-08-21T13:09:00Z\",\"dateModified\":"
         "\"2019-04-03T08:04:01Z\"}</script>"
         "<article><div>Aktualisiert: 03.04.2019</div><p "
         "class=date>21.08.2017</p></article>",
         0, NULL,
         "published=jsonld:2017-08-21T13:09:00Z\n"
         "modified=jsonld:2019-04-03T08:04:01Z\n"},
        {"date: a page that shows its first day, or none, keeps it", NULL,
         "<script type=application/ld+json>{\"@type\":\"NewsArticle\","
         "\"datePublished\":\"2017-08-21T13:09:00Z\",\"dateModified\":"
         "\"2019-04-03T08:04:01Z\"}</script>"
         "<article><time datetime=2017-08-21>21.08.2017</time></article>",
         0, NULL,
         "published=jsonld:2017-08-21T13:09:00Z\n"
         "modified=jsonld:2019-04-03T08:04:01Z\n"},
        {"date: a time outside the article and main is not the page's shown "
         "day",
         NULL,
         "<script type=application/ld+json>{\"@type\":\"NewsArticle\","
         "\"datePublished\":\"2017-08-21T13:09:00Z\",\"dateModified\":"
         "\"2019-04-03T08:04:01Z\"}</script>"
         "<ul class=thread><li><time datetime=2019-04-03>3 Apr</time></li>"
         "</ul>",
         0, NULL, "published=jsonld:2017-08-21T13:09:00Z\n"},
        {"date: a meta tag named only date gives way to the article's shown "
         "day",
         NULL,
         "<meta name=date content=2021-12-20T11:02:44+01:00>"
         "<article><span class=date>27.01.2022</span></article>",
         0, NULL, "published=html:2022-01-27\n"},
        {"date: dcterms.date gives way to the shown day too", NULL,
         "<meta name=dcterms.date content=2022-01-21>"
         "<main><time itemprop=datePublished "
         "datetime=2022-01-27>27.01.2022</time></main>",
         0, NULL, "published=html:2022-01-27\n"},
        {"date: a meta tag named only date gives way to a labelled day", NULL,
         "<meta name=date content=2021-10-15><article><p>Text.</p>"
         "<p>Erschienen am: 13.10.2021</p></article>",
         0, NULL, "published=html:2021-10-13\n"},
        {"date: a meta date gives way to a label where the author is known",
         NULL,
         "<meta name=author content=\"Ann Lee\"><meta name=date "
         "content=2021-10-15><div><span>Erschienen am:</span><h2>13.10.2021"
         "</h2></div>",
         0, NULL, "published=html:2021-10-13\n"},
        {"date: a meta tag named only date gives way to a meta line's day",
         NULL,
         "<meta name=dc.date content=2020-03-03><div class=citation-info>"
         "Original Research 7 April 2020</div>",
         0, NULL, "published=html:2020-04-07\n"},
        {"date: a meta tag named only date keeps its day against a bare date",
         NULL,
         "<meta name=date content=2017-05-01><div><span>Mittwoch, </span>"
         "26.02.2020</div>",
         0, NULL, "published=meta:2017-05-01\n"},
        {"date: a named publication date keeps its day against a label", NULL,
         "<meta name=pubdate content=2021-10-15><article><p>Erschienen am: "
         "13.10.2021</p></article>",
         0, NULL, "published=meta:2021-10-15\n"},
        {"date: a date class under an edit's label alone dates the edit", NULL,
         "<meta name=date content=2021-10-15><div><span>Erschienen am:"
         "</span><h2>13.10.2021</h2></div><h4 class=timestamp__title>"
         "Zuletzt ge\xC3\xA4ndert am:</h4><ul><li class=timestamp-item>"
         "15.10.2021</li></ul>",
         0, NULL, "published=html:2021-10-13\nmodified=html:2021-10-15\n"},
        {"date: an edit's label of words after Zuletzt stands alone", NULL,
         "<div><p>Text.</p><h4>Zuletzt aktualisiert am</h4><p>15.10.2021"
         "</p></div>",
         0, NULL, "published=url:2019-09-17\nmodified=html:2021-10-15\n",
         "https://site.example/2019/09/17/slug"},
        {"date: a calendar icon's text is a date", NULL,
         "<h1>Title<br><small><span class=\"glyphicon glyphicon-calendar\">"
         "</span>&nbsp;\n 02.02.2022 &bull; News</small></h1>",
         0, NULL, "published=html:2022-02-02\n"},
        {"date: a calendar widget's days are no date", NULL,
         "<div class=calendar><table><tr><td>Mo 12.01.2022</td></tr></table>"
         "</div>",
         0, NULL, "-published\n"},
        {"date: a calendar icon's date shows a republished day", NULL,
         "<script type=application/ld+json>{\"@type\":\"Article\","
         "\"datePublished\":\"2021-11-29\",\"dateModified\":"
         "\"2022-01-12\"}</script><div><span class=icon-calendar></span>"
         "&nbsp; 12.01.2022</div>",
         0, NULL, "published=jsonld:2022-01-12\n"},
        {"date: a meta date the page shows keeps its time", NULL,
         "<meta name=date content=2020-04-20T14:57:27+02:00>"
         "<article><span class=date>20.04.2020</span></article>",
         0, NULL, "published=meta:2020-04-20T14:57:27+02:00\n"},
        {"date: a named publication date keeps its day against the shown "
         "one",
         NULL,
         "<meta name=pubdate content=2021-12-20>"
         "<article><span class=date>27.01.2022</span></article>",
         0, NULL, "published=meta:2021-12-20\n"},
        {"date: the site header's date of the day is no shown day", NULL,
         "<meta name=date content=2017-05-01T17:05:00+0200>"
         "<header><span class=dlf-date>Mittwoch, 26.02.2020</span></header>"
         "<article><p>Text</p></article>",
         0, NULL, "published=meta:2017-05-01T17:05:00+02:00\n"},
        {"date: the site header's date of the day dates no page", NULL,
         "<header class=site-header><ul class=topbar-info><li>Tuesday, (08 "
         "Dec 2020)</li></ul><time datetime=2020-12-08>Tuesday</time><span "
         "class=date>08.12.2020</span></header><div class=post><p "
         "class=post-info>13 Oct 2020 18:29</p></div>",
         0, NULL, "published=html:2020-10-13T18:29:00Z\n"},
        {"date: an article's or main's header is the page's own", NULL,
         "<main><header><span class=date>13.10.2020</span></header></main>"
         "<article><header><time>14.10.2020</time></header></article>",
         0, NULL, "published=html:2020-10-13\n"},
        {"date: a theme's date class dates the page in the site header too",
         NULL,
         "<header><time class=published datetime=2020-10-12>12 Oct</time>"
         "</header>",
         0, NULL, "published=html:2020-10-12\n"},
        {"date: a modified date before the published one is no "
         "republication",
         NULL,
         "<meta property=article:published_time content=2019-10-19T10:00:00Z>"
         "<meta property=article:modified_time content=2019-10-18T10:00:00Z>"
         "<article><p class=date>18.10.2019</p></article>",
         0, NULL, "published=og:2019-10-19T10:00:00Z\n"},
        {"aside: an article's metadata box is the article's own", NULL,
         "<article><aside class=\"meta\" role=complementary><p>Von Ann "
         "Lee</p><time datetime=2022-01-21>21.01.2022</time></aside><p>Text"
         "</p></article>",
         0, NULL, "published=html:2022-01-21\nauthor=html:Ann Lee\n"},
        {"aside: a blog's data box in the article dates it", NULL,
         "<article><aside class=blogData>Datum 12.01.2017</aside></article>", 0,
         NULL, "published=html:2017-01-12\n"},
        {"aside: a metadata box outside the article, or a sidebar's, is "
         "not",
         NULL,
         "<aside class=\"widget widget_meta\"><time datetime=2020-01-01>"
         "x</time></aside><article><aside class=\"sidebar-meta\"><time "
         "datetime=2021-01-01>y</time></aside><aside class=kiosk><time "
         "datetime=2019-01-01>z</time></aside></article>",
         0, NULL, "-published\n"},
        {"date: a kicker line opening with the day over the headline", NULL,
         "<div class=aufmacher><figcaption><small>31.01.2022&nbsp; 2. HBL"
         "</small><h1>Neuer Cheftrainer</h1><p>Text.</p></figcaption></div>",
         0, NULL, "published=html:2022-01-31\n"},
        {"date: no kicker with a text between it and the headline", NULL,
         "<small>30.01.2022 Sport</small><p>Ein Text.</p><h1>News</h1>", 0,
         NULL, "-published\n"},
        {"date: no kicker over another heading than the page's h1", NULL,
         "<small>29.01.2022 Sport</small><h2>Ein Beitrag</h2>", 0, NULL,
         "-published\n"},
        {"date: no kicker in a link", NULL,
         "<a href=/x>28.01.2022 Sport</a><h1>T</h1>", 0, NULL, "-published\n"},
        {"date: no kicker in a sentence", NULL,
         "<p>27.01.2022 war ein Tag, an dem die Mannschaft lange trainierte."
         "</p><h1>T</h1>",
         0, NULL, "-published\n"},
        {"date: a date's parts in elements of their own are words apart", NULL,
         "<div class=datum><span class=monat>Mar</span> <span "
         "class=tag>7</span><span class=jahr>2011</span></div>",
         0, NULL, "published=html:2011-03-07\n"},
        {"date: a dot between a date's elements keeps it one date", NULL,
         "<div class=datum><span>24</span>.<span>03</span>.<b>2011</b>"
         "</div>",
         0, NULL, "published=html:2011-03-24\n"},
        {"date: a subline under the headline is a date line", NULL,
         "<h1>Perfekte Schnitte</h1><p class=\"upperCase subline\"> 21. Jan "
         "2022 // Dominik Ricker</p>",
         0, NULL, "published=html:2022-01-21\n"},
        {"date: a news item's time-data line is a date line", NULL,
         "<meta name=date content=2020-02-12><div class=news-single-item>"
         "<div class=news-single-timedata>05.02.2020 <span>- Redaktion: "
         "Ann Lee</span></div></div>",
         0, NULL, "published=html:2020-02-05\n"},
        {"aside: a comments area under a site's prefix is not the page's", NULL,
         "<div id=kb-comments><div class=kb-comment><time "
         "datetime=2020-09-23T18:19:06+02:00>23.09.20</time></div></div>"
         "<ul class=article_comment-list><li><time datetime=2020-09-24>x"
         "</time></li></ul>",
         0, NULL, "-published\n"},
        {"aside: an opinion piece's comment header is the page's own, and a "
         "post that has comments",
         NULL,
         "<div class=\"post has-comments\"><div "
         "class=PageArticle_commentHeader><time "
         "datetime=2019-01-29>29.01.2019</time></div></div>",
         0, NULL, "published=html:2019-01-29\n"},
        {"aside: a content wrapper with a sidebar class is the page's own",
         NULL,
         "<div id=sidebar class=\"site-content content-area\"><header><time "
         "class=entry-date datetime=2019-07-13>13 Jul</time></header></div>"
         "<div class=sidebar><time datetime=2018-01-01>x</time></div>",
         0, NULL, "published=html:2019-07-13\n"},
        {"aside: a wrapper flagged sidebar-on holds the post and its sidebar",
         NULL,
         "<div class=\"post-wrap sidebar-on sidebar-right\"><p class=byline>"
         "By Ana Lopez</p><time class=entry-date datetime=2019-07-13>13 Jul"
         "</time><div class=sidebar-wrap><time datetime=2018-01-01>x</time>"
         "</div></div>",
         0, NULL, "published=html:2019-07-13\nauthor=html:Ana Lopez\n"},
        {"aside: the sidebar itself is one, whatever its side", NULL,
         "<div class=\"sidebar sidebar-right\"><p class=byline>By Ana Lopez"
         "</p><time datetime=2018-01-01>x</time></div>",
         0, NULL, "-published\n-author\n"},
        {"aside: a sidebar inside the article is the article's side column",
         NULL,
         "<article><h1>T</h1><div class=\"sidebar js-copypaste\"><p "
         "class=h1>T</p><p class=time><time datetime=2022-01-28>28. Januar "
         "2022</time></p></div><p>Text.</p></article>",
         0, NULL, "published=html:2022-01-28\n"},
        {"aside: a sidebar after the article, or in a listed post, is not",
         NULL,
         "<h1>Posts</h1><article><h2>P</h2><div class=sidebar><time "
         "datetime=2022-01-24>x</time></div></article><article><div "
         "class=\"sidebar related-posts\"><time datetime=2022-01-25>x</time>"
         "</div></article><div class=sidebar><time "
         "datetime=2022-01-26>x</time></div>",
         0, NULL, "-published\n"},
        {"aside: a comments or a related sidebar in the page's article is "
         "not its own",
         NULL,
         "<article><h1>T</h1><div id=sidebar-comments><time "
         "datetime=2022-01-27>x</time></div><div class=\"sidebar "
         "related-posts\"><span class=date>26.01.2022</span></div><div "
         "class=sidebar><span class=date>28.01.2022</span></div></article>",
         0, NULL, "published=html:2022-01-28\n"},
        {"meta: og:article:published_time", NULL,
         "<meta property=og:article:published_time content=2021-01-02>", 0,
         NULL, "published=og:2021-01-02\n"},
        {"meta: publishdate", NULL,
         "<meta name=publishdate content=2021-01-03>", 0, NULL,
         "published=meta:2021-01-03\n"},
        {"meta: publication_date", NULL,
         "<meta name=publication_date content=2021-01-04>", 0, NULL,
         "published=meta:2021-01-04\n"},
        {"meta: sw-pubdate", NULL, "<meta name=sw-pubdate content=2021-01-05>",
         0, NULL, "published=meta:2021-01-05\n"},
        {"meta: Shareaholic's article times", NULL,
         "<meta name=shareaholic:article_published_time "
         "content=2017-06-07T11:19:22+02:00><meta "
         "name=shareaholic:article_modified_time "
         "content=2017-06-09T10:00:00+02:00>",
         0, NULL,
         "published=meta:2017-06-07T11:19:22+02:00\n"
         "modified=meta:2017-06-09T10:00:00+02:00\n"},
        {"meta: DC:date in any case", NULL,
         "<meta name=DC:Date content=2021-01-06>", 0, NULL,
         "published=meta:2021-01-06\n"},
        {"meta: bepress_citation_date", NULL,
         "<meta name=bepress_citation_date content=2021/01/07>", 0, NULL,
         "published=meta:2021-01-07\n"},
        {"itemprop datePublished on a span carrying datetime", NULL,
         "<span itemprop=datePublished datetime=2020-02-02>Feb 2</span>", 0,
         NULL, "published=html:2020-02-02\n"},
        {"schema.org JSON in a script without the ld+json type", NULL,
         "<script>var x = {\"@context\":\"https://schema.org\"};</script>"
         "<script type=application/json>{\"@context\":\"https://schema.org\","
         "\"@type\":\"NewsArticle\",\"datePublished\":\"2021-03-04\"}"
         "</script><script>{not json at all schema.org \"@context\"</script>",
         0, NULL, "published=jsonld:2021-03-04\njsonld=1/0\n"},
        {"a date in the URL path, the last resort", NULL, "<title>T</title>", 0,
         NULL, "published=url:2019-09-17\n",
         "https://site.example/news/2019/09/17/slug"},
        {"a URL date whose year and month a dash joins, its day a slash", NULL,
         "<title>T</title>", 0, NULL, "published=url:2013-07-05\n",
         "https://site.example/news/2013-07/05/content_1.htm"},
        {"a URL date whose year a slash ends, its month and day a dash", NULL,
         "<title>T</title>", 0, NULL, "published=url:2013-07-05\n",
         "https://site.example/gn/2013/07-05/1234.shtml"},
        {"a compact date that is a segment of the URL's path", NULL,
         "<title>T</title>", 0, NULL, "published=url:2020-04-28\n",
         "https://site.example/20200428/slug"},
        {"an id of eight digits that is no date, or of nine, dates nothing",
         NULL, "<title>T</title>", 0, NULL, "-published\n",
         "https://site.example/20201345/a/202004281/b/20200428x/c"},
        {"a UTC time takes a compact URL day before it", NULL,
         "<script type=application/ld+json>{\"@type\":\"NewsArticle\","
         "\"datePublished\":\"2020-04-14T00:38:07Z\"}</script>",
         0, NULL, "published=jsonld:2020-04-13\n",
         "https://site.example/news/20200413/slug"},
        {"a month archive's URL dates no page", NULL, "<title>T</title>", 0,
         NULL, "-published\n", "https://site.example/2019/09/"},
        {"a UTC time takes the URL's day before, an evening in the Americas",
         NULL,
         "<script type=application/ld+json>{\"@type\":\"NewsArticle\","
         "\"datePublished\":\"2020-02-18T02:18:11Z\"}</script>",
         0, NULL, "published=jsonld:2020-02-17\n",
         "https://site.example/2020/02/17/slug/"},
        {"a UTC time takes the URL's day after, a morning east of UTC", NULL,
         "<meta property=article:published_time "
         "content=2018-12-31T23:11:59+00:00>",
         0, NULL, "published=og:2019-01-01\n",
         "https://site.example/2019/01/01/slug/"},
        {"a URL's day no common zone gives, or an offset written, keeps the "
         "time",
         NULL,
         "<meta property=article:published_time content=2020-07-09T10:04:04Z>"
         "<meta property=article:modified_time "
         "content=2020-07-10T02:00:00+01:00>",
         0, NULL, "published=og:2020-07-09T10:04:04Z\n",
         "https://site.example/2020/07/08/slug/"},
        {"a time with its own offset keeps its day against the URL's", NULL,
         "<meta property=article:published_time "
         "content=2020-07-09T01:00:00+01:00>",
         0, NULL, "published=og:2020-07-09T01:00:00+01:00\n",
         "https://site.example/2020/07/08/slug/"},
        {"a URL two days away moves no UTC time", NULL,
         "<meta property=article:published_time content=2020-07-10T01:00:00Z>",
         0, NULL, "published=og:2020-07-10T01:00:00Z\n",
         "https://site.example/2020/07/08/slug/"},
        {"a UTC time at midnight in the page's language's zone is its day",
         NULL,
         "<html lang=de><meta property=article:published_time "
         "content=2022-11-06T23:00:00.000Z><meta "
         "property=article:modified_time content=2022-11-08T09:30:00Z>",
         0, NULL,
         "published=og:2022-11-07T00:00:00.000+01:00\n"
         "modified=og:2022-11-08T09:30:00Z\n"},
        {"a midnight in no zone of the page's language, or a bare time, "
         "keeps its day",
         NULL,
         "<html lang=fr><meta property=article:published_time "
         "content=2022-11-06T23:00:00Z><meta name=date "
         "content=\"2022-07-14 22:00:00\">",
         0, NULL, "published=og:2022-11-06T23:00:00Z\n"},
        {"a bare time at a zone's midnight is the publisher's clock already",
         NULL, "<html lang=de><p class=date>10.06.2018 22:00</p>", 0, NULL,
         "published=html:2018-06-10T22:00:00Z\n"},
        {"an embedded video's uploadDate never dates the article", NULL,
         "<script type=application/ld+json>{\"@graph\":[{\"@type\":"
         "\"VideoObject\",\"name\":\"Clip\",\"uploadDate\":\"2020-01-01\"},"
         "{\"@type\":\"NewsArticle\",\"datePublished\":\"2024-01-02\"}]}"
         "</script>",
         0, NULL, "published=jsonld:2024-01-02\n"},
        {"an embedded video's JSON-LD dates come after the page's meta", NULL,
         "<meta property=og:type content=article><div itemscope "
         "itemtype=https://schema.org/NewsArticle><meta itemprop=datePublished "
         "content=2020-09-30T02:00:07-07:00></div><script "
         "type=application/ld+json>"
         "{\"@type\":\"VideoObject\",\"name\":\"Clip\",\"uploadDate\":"
         "\"2020-09-29T22:40:00-07:00\"}</script>",
         0, NULL, "published=microdata:2020-09-30T02:00:07-07:00\n"},
        {"an embedded video's uploadDate dates the page that has no other",
         NULL,
         "<meta property=og:type content=article><script "
         "type=application/ld+json>{\"@type\":\"VideoObject\",\"name\":"
         "\"Clip\",\"uploadDate\":\"2020-09-29\"}</script>",
         0, NULL, "published=jsonld:2020-09-29\n"},
        {"the page's shown date beats an embedded video's uploadDate", NULL,
         "<meta property=og:type content=article><script "
         "type=application/ld+json>{\"@type\":\"VideoObject\",\"name\":"
         "\"Clip\",\"uploadDate\":\"2020-09-29\"}</script><article><p "
         "class=date>1 May 2020</p></article>",
         0, NULL, "published=html:2020-05-01\n"},
        {"a video page's uploadDate beats its meta", NULL,
         "<meta property=og:type content=video.other><meta name=pubdate "
         "content=2020-01-02><script type=application/ld+json>{\"@type\":"
         "\"VideoObject\",\"name\":\"Clip\",\"uploadDate\":\"2020-01-01\"}"
         "</script>",
         0, NULL, "published=jsonld:2020-01-01\n"},
        {"text date: a citation's 'Retrieved' date dates nothing", NULL,
         "<p><span class=reference-accessdate>Retrieved <span>1 May</span> "
         "2016</span></p><p class=accessdate>Accessed 2 May 2016</p>",
         0, NULL, "-published\n"},
        {"text date: an infobox's hCard dates are the subject's", NULL,
         "<table class=\"infobox vcard\"><tr><td><span class=\"bday "
         "dtstart published updated\">1998-02-28</span></td></tr></table>",
         0, NULL, "-published\n-modified\n"},
        {"text date: MediaWiki's last-edited line, with its time", NULL,
         "<ul><li id=footer-info-lastmod> This page was last modified on 28 "
         "October 2016, at 06:56.</li></ul>",
         0, NULL, "modified=html:2016-10-28T06:56:00Z\n"},
        {"text date: a camelCase class", NULL,
         "<article><p class=topAttributionWithDate>Tuesday 15 October 2019 "
         "by Bradley M. Kuhn</p></article>",
         0, NULL, "published=html:2019-10-15\n"},
        {"author: a \"by\" line straight in the body under the heading", NULL,
         "<body><hr><h1><a href=/><img src=logo.gif alt=\"\"></a> Lua 5.2 "
         "Reference Manual</h1>\n\nby Roberto Ierusalimschy, Luiz Henrique "
         "de Figueiredo, Waldemar Celes\n<p><small>Copyright 2011&ndash;2015 "
         "Lua.org, PUC-Rio.</small><hr><p>Text of the manual.</p></body>",
         0, NULL,
         "author=html:Roberto Ierusalimschy; Luiz Henrique de Figueiredo; "
         "Waldemar Celes\n"},
        {"date: the text after a heading opens a line: its dateline dates it",
         NULL,
         "<h1>News</h1><div><h2>Site Update</h2> 24.03.2004, 19:49 "
         "| <a href=/u>genesis</a> Kapitel 121 ist online.</div><div><h3>"
         "Kommentar</h3> 26.03.2004, 16:19 <p>Danke</p></div>",
         0, NULL, "published=html:2004-03-24T19:49:00Z\n"},
        {"author: a URL in brackets after the name is no part of it", NULL,
         "<meta name=author content=\"Bradley M. Kuhn (http://ebb.org/b/)\">",
         0, NULL, "author=meta:Bradley M. Kuhn\n"},
        {"author: an e-mail address after the name is no part of it", NULL,
         "<meta name=author content=\"Ann Lee info@example.org\">", 0, NULL,
         "author=meta:Ann Lee\n"},
        {"author: the article's opening 'Von X' line over a declared other",
         NULL,
         "<script type=application/ld+json>{\"@type\":\"Article\","
         "\"author\":{\"@type\":\"Person\",\"name\":\"Isa Angele\"}}"
         "</script><meta name=author content=\"Isa Angele\"><main><article>"
         "<p><em>Ein Resümee.</em></p><p><strong>Von Mat\xC2\xAD"
         "thi\xC2\xAD"
         "as "
         "Lauerer</strong></p><p>Text.</p></article></main>",
         0, NULL, "author=html:Matthias Lauerer\n"},
        {"author: an interview's opening line credits the interviewer", NULL,
         "<meta name=author content=\"Paul Soldan\"><main><p><strong>"
         "Ver\xC3\xB6"
         "ffentlicht am:</strong> 28. Oktober 2023</p><p><strong>"
         "Ein Zitat.</strong></p><p><em>Ein Interview von <strong>Eugen "
         "Zentner</strong> mit <strong>Sonja Silberhorn</strong>.</em></p>"
         "<p>Text.</p></main>",
         0, NULL, "author=html:Eugen Zentner\n"},
        {"author: an opening line naming the declared author keeps it", NULL,
         "<meta name=author content=\"Ann Lee\"><article><p>By Ann "
         "Lee</p><p>Text.</p></article>",
         0, NULL, "author=meta:Ann Lee\n"},
        {"author: an opening line's list leaves the declared author", NULL,
         "<meta name=author content=\"Ann Lee\"><article><p>By Bo Chan, "
         "Cy Dunn</p><p>Text.</p></article>",
         0, NULL, "author=meta:Ann Lee\n"},
        {"author: a source line over the site's own name as author", NULL,
         "<meta name=author content=planet.example><h1>Kinder</h1><p>Text."
         "</p><p>Quelle: <a href=http://agency.example>kathpress</a></p>",
         0, NULL, "author=html:kathpress\n", "https://www.planet.example/a"},
        {"author: a source line with its editor's code after a slash", NULL,
         "<meta property=og:site_name content=\"Planet\"><meta name=author "
         "content=Planet><article><p>Text.</p><p><em>Quelle: PLANET "
         "RADIO/ls</em></p></article>",
         0, NULL, "author=html:PLANET RADIO/ls\n"},
        {"author: a source line leaves a person credited", NULL,
         "<meta name=author content=\"Ann Lee\"><p>Text.</p><p>Quelle: "
         "dpa</p>",
         0, NULL, "author=meta:Ann Lee\n"},
        {"author: a picture's source in its small print is no source line",
         NULL,
         "<meta name=author content=planet.example><div><img src=a.jpg><br>"
         "<small>Quelle: Lars Gummich / ASV</small></div><p>Text.</p>",
         0, NULL, "author=meta:planet.example\n",
         "https://www.planet.example/a"},
        {"author: a source line alone credits nobody", NULL,
         "<p>Text.</p><p>Source: Statistics Office</p>", 0, NULL, "-author\n"},
        {"author: a wire agency's closing credit over the site's own name",
         NULL,
         "<meta name=author content=planet.example><article><p>One.</p>"
         "<p>Der Preis steigt, hie\xC3\x9F es. (dpa/gem)</p></article>",
         0, NULL, "author=html:dpa/gem\n", "https://www.planet.example/a"},
        {"author: a desk's noun gives way to a closing wire credit", NULL,
         "<script type=application/ld+json>{\"@type\": \"NewsArticle\", "
         "\"author\": {\"@type\": \"Person\", \"name\": [\"Redaktion\"]}}"
         "</script><article><p>One.</p><p>Er sei krank, hie\xC3\x9F es. (FR "
         "mit dpa)</p><p><em>*fr.de ist Teil des Netzwerks.</em></p>"
         "</article>",
         0, NULL, "author=html:FR mit dpa\n"},
        {"author: a desk's noun stays without a closing wire credit", NULL,
         "<script type=application/ld+json>{\"@type\": \"NewsArticle\", "
         "\"author\": {\"@type\": \"Person\", \"name\": \"Redaktion\"}}"
         "</script><article><p>One.</p><p>Es bleibt spannend. (Alterno)</p>"
         "<p>Montpellier (SID) - Two.</p></article>",
         0, NULL, "author=jsonld:Redaktion\n"},
        {"author: a closing wire credit leaves a person credited", NULL,
         "<meta name=author content=\"Ann Lee\"><article><p>One.</p><p>Es "
         "bleibt spannend. (ank/dpa)</p></article>",
         0, NULL, "author=meta:Ann Lee\n"},
        {"author: a bracket inside a sentence is no wire credit", NULL,
         "<meta name=author content=planet.example><article><p>One.</p>"
         "<p>Die Agentur (dpa)</p><p>Mehr (FR mit Freunden)</p></article>",
         0, NULL, "author=meta:planet.example\n",
         "https://www.planet.example/a"},
        {"author: the site's name with its seat gives way to a source line",
         NULL,
         "<meta name=author content=\"planet.example, Frankfurt, Germany\">"
         "<article><p>Text.</p><footer><p>Quelle: planet.example/bb</p>"
         "</footer></article>",
         0, NULL, "author=html:planet.example/bb\n",
         "https://www.planet.example/a"},
        {"author: a byline that is a date's label and its date names nobody",
         NULL,
         "<article><p class=byline><time>Ver\xC3\xB6"
         "ffentlicht am 19.10.19 "
         "um 14:34 Uhr</time></p><p>Text.</p></article>",
         0, NULL, "-author\n"},
        {"author: a byline element that is a label alone leaves the next "
         "byline to be read",
         NULL,
         "<div class=post><div class=entry-meta><span class=\"meta-prep "
         "meta-prep-author\">Publiziert am</span> <a href=/p1><span "
         "class=entry-date>13. Januar 2014</span></a> <span "
         "class=meta-sep>von</span> <span class=\"author vcard\"><a "
         "class=\"url fn n\" href=/author/admin/>uriebe</a></span></div>"
         "<p>Text.</p></div><div class=post><div class=entry-meta><span "
         "class=\"meta-prep meta-prep-author\">By</span> <span class=\"author "
         "vcard\"><a class=\"url fn n\" href=/author/ts/>Tom Stelling</a>"
         "</span></div><p>Text.</p></div>",
         0, NULL, "author=html:uriebe\n"},
        {"author: an empty byline element still ends the reading", NULL,
         "<div class=post><span class=author></span><p>Text.</p></div><div "
         "class=post><span class=author>Bo Chan</span><p>Text.</p></div>",
         0, NULL, "-author\n"},
        {"author: a byline refused for its words still ends the reading", NULL,
         "<article><p class=byline>Written in haste before the 12 trains "
         "left</p><p>Text.</p><span class=author>Bo Chan</span></article>",
         0, NULL, "-author\n"},
        {"author: a definition list's author over a declared other", NULL,
         "<script type=application/ld+json>{\"@type\": \"Article\", "
         "\"author\": {\"@type\": \"Person\", \"name\": \"Bo Chan\"}}"
         "</script><article><dl><dt>Auteur"
         "</dt><dd><a href=/staff/ann-lee/>Ann Lee</a></dd><dt>Date</dt>"
         "<dd>2 mars 2020</dd></dl><p>Text.</p></article>",
         0, NULL, "author=html:Ann Lee\n"},
        {"author: a definition list's publisher is no author", NULL,
         "<meta name=author content=\"Bo Chan\"><article><dl><dt>"
         "Herausgeber</dt><dd>Ann Lee</dd></dl><p>Text.</p></article>",
         0, NULL, "author=meta:Bo Chan\n"},
        {"author: the licensor a licence notice names after its link", NULL,
         "<p>Text.</p><div id=credits><p><small>(<a href=https://"
         "creativecommons.org/licenses/by-nc-sa/2.0/de/>Creative Commons"
         "</a>) 2006-2008 by Ann Lee<br>Theme by <a href=/>Planet</a>"
         "</small></p></div>",
         0, NULL, "author=html:Ann Lee\n"},
        {"author: a licence's link then other words credits nobody", NULL,
         "<p>Text.</p><p>Foto: <a rel=license href=/cc>CC BY 3.0</a> "
         "\xC3\xBC"
         "ber Wikimedia Commons. Icons by Bo Chan</p>",
         0, NULL, "-author\n"},
        {"author: a first name gives way to a sidebar's 'more from' name", NULL,
         "<article><a rel=author href=/author/henry/>Henry</a><p>Text.</p>"
         "</article><aside><h3>MEHR VON HENRY LEE</h3><p>Books</p></aside>",
         0, NULL, "author=link:HENRY LEE\n"},
        {"author: a sidebar's 'more from' another name leaves the author", NULL,
         "<article><a rel=author href=/author/ann/>Ann</a><p>Text.</p>"
         "</article><aside><h3>More from The Guardian</h3></aside>",
         0, NULL, "author=link:Ann\n"},
        {"author: a login gives way to the name closing the text in brackets",
         NULL,
         "<script type=application/ld+json>{\"@type\": \"Article\", "
         "\"author\": {\"@type\": \"Person\", \"name\": \"ann.lee\"}}"
         "</script><article><p>One.</p><p><b>Es bleibt spannend.</b> (Ann "
         "B. Lee) +++</p></article>",
         0, NULL, "author=jsonld:Ann B. Lee\n"},
        {"author: a closing bracket's other words leave the login", NULL,
         "<script type=application/ld+json>{\"@type\": \"Article\", "
         "\"author\": {\"@type\": \"Person\", \"name\": \"ann.lee\"}}"
         "</script><article><p>One.</p><p>Es bleibt spannend. (Mit Ann Lee "
         "von dpa)</p><p>Two. (Bo Chan)</p></article>",
         0, NULL, "author=jsonld:ann.lee\n"},
        {"author: a handle gives way to the name a text writes before it in "
         "brackets",
         NULL,
         "<meta name=twitter:creator content=@chabermu><article><p>Text.</p>"
         "</article><aside><div class=widget>C.Habermueller (chabermu) ist "
         "ITK-Experte.</div></aside>",
         0, NULL, "author=html:C.Habermueller\n"},
        {"author: a bracketed handle after a phrase or another's leaves it",
         NULL,
         "<meta name=twitter:creator content=@annlee><article><p>Folge mir "
         "auf Twitter (annlee)</p><p>Bo Chan (bochan) sagt.</p></article>",
         0, NULL, "author=twitter:annlee\n"},
        {"author: a name credited leaves a handle's bracketed name", NULL,
         "<meta name=author content=\"Ann Lee\"><meta name=twitter:creator "
         "content=@annlee><article><p>Text.</p></article><aside><p>Bo Chan "
         "(@annlee)</p></aside>",
         0, NULL, "author=meta:Ann Lee\n"},
        {"author: initials give way to the licence notice's full name", NULL,
         "<article><a rel=author href=/author/dt>DT</a><p>Text.</p></article>"
         "<footer><span>Ein Tagebuch</span> von <a href=/ "
         "rel=cc:attributionURL>Donald Townsend</a> steht unter einer <a "
         "rel=license href=https://creativecommons.org/licenses/by/3.0/>"
         "CC-Lizenz</a></footer>",
         0, NULL, "author=link:Donald Townsend\n"},
        {"author: initials stay before a licensor they do not abbreviate", NULL,
         "<meta name=author content=EFE><p>Text.</p><footer><a href=/ "
         "rel=cc:attributionURL>Planet Media</a></footer>",
         0, NULL, "author=meta:EFE\n"},
        {"author: a titled owner's name spelling the domain, nobody else", NULL,
         "<meta property=og:site_name content=\"Dr. Ann Lee\">", 0, NULL,
         "author=og:Ann Lee\n", "https://www.ann-lee.net/post/"},
        {"author: a site name spelling the domain without a title", NULL,
         "<meta property=og:site_name content=\"Harbour Courier\">", 0, NULL,
         "-author\n", "https://www.harbour-courier.com/post/"},
        {"author: a titled owner's site name gives way to a byline", NULL,
         "<meta property=og:site_name content=\"Dr. Ann Lee\"><article><p "
         "class=byline>By Bo Chan</p></article>",
         0, NULL, "author=html:Bo Chan\n", "https://www.ann-lee.net/post/"},
        {"author: a guarded e-mail address alone names nobody", NULL,
         "<meta name=author content=\"ann[at]example.org\"><a rel=author "
         "href=/author/c1ph4>c1ph4</a>",
         0, NULL, "author=link:c1ph4\n"},
        {"title: the domain's name is cut even beside a declared name", NULL,
         "<title>Hermitian matrix - Site</title><script "
         "type=application/ld+json>{\"@type\":\"Article\",\"publisher\":"
         "{\"name\":\"Site Foundation\"}}</script>",
         0, NULL, "title=title:Hermitian matrix\n"},
        /* Publishers the page names. */
        {"publisher: <meta name=Publisher>", NULL,
         "<meta name=Publisher content=\"Daily Planet\">", 0, NULL,
         "publisher=meta:Daily Planet\n"},
        {"publisher: microdata publisher's name", NULL,
         "<div itemscope itemtype=https://schema.org/Article><div "
         "itemprop=publisher itemscope><span itemprop=name>Planet "
         "Inc</span></div></div>",
         0, NULL, "publisher=microdata:Planet Inc\n"},
        {"publisher: the page's JSON-LD WebSite", NULL,
         "<script type=application/ld+json>{\"@type\":\"WebSite\",\"name\":"
         "\"Planet\"}</script>",
         0, NULL, "publisher=jsonld:Planet\n"},
        {"publisher: the page's own site over a sister publication", NULL,
         "<meta property=og:site_name content=Planet><script "
         "type=application/ld+json>{\"@graph\":[{\"@type\":\"WebSite\","
         "\"name\":\"Planet\"},{\"@type\":\"NewsArticle\",\"publisher\":{"
         "\"@type\":\"Organization\",\"name\":\"Sister Times\"}}]}</script>",
         0, NULL, "publisher=jsonld:Planet\n"},
        {"publisher: the title's site part when no name is declared", NULL,
         "<title>Harbour bridge reopens | Coastal Courier</title>", 0, NULL,
         "title=title:Harbour bridge reopens | Coastal Courier\n"
         "publisher=title:Coastal Courier\n"},
        {"publisher: no title part longer than the title's rest", NULL,
         "<title>Q&amp;A | Part two of the long series</title>", 0, NULL,
         "-publisher\n"},
        /* Authors that are people's names. */
        {"author: a commenter's name is no byline", NULL,
         "<ul id=recentcomments><li class=recentcomments><span "
         "class=comment-author-link><a href=/f>Flappy Bird</a></span> on "
         "<a href=/p>Post</a></li></ul><div class=commentAuthor>Bo "
         "Chan</div><div class=post-author>Ann Lee</div>",
         0, NULL, "author=html:Ann Lee\n"},
        {"author: a commentary's byline is the page's", NULL,
         "<div class=commentary-author>Ann Lee</div>", 0, NULL,
         "author=html:Ann Lee\n"},
        {"author: a byline's account word with a digit is a name", NULL,
         "<div class=\"left author\">Author: <a href=/u/58><b>Bo2man</b></a> "
         "am 29.12.2010, 13:36 Uhr</div>",
         0, NULL, "author=html:Bo2man\n"},
        {"author: a byline's word opening with a digit is no account", NULL,
         "<article><p class=byline>Ann Lee, 3rd</p></article>", 0, NULL,
         "-author\n"},
        {"author: a byline's account word ranks after a name", NULL,
         "<article><p class=byline>r23</p></article><p>\xC2\xA9 2020 Ann "
         "Lee</p>",
         0, NULL, "author=html:Ann Lee\n"},
        {"author: a link to an author's page names the author", NULL,
         "<div class=meta><a href=/autor/frank_g>Gunter Frank</a> / "
         "22.04.2020</div><div class=meta><a href=/autor/lee>Ann "
         "Lee</a></div>",
         0, NULL, "author=html:Gunter Frank\n"},
        {"author: an author page link's text must name its account", NULL,
         "<a href=/author/jdoe/>More Posts</a><a "
         "href=\"/authors/ann-lee?p=2\">Ann Lee</a>",
         0, NULL, "author=html:Ann Lee\n"},
        {"author: an author page on the page's own site by its URL", NULL,
         "<a href=https://library.example/author/lee-ann>Ann Lee</a><a "
         "href=https://www.site.example/author/bo-chan/>Bo Chan</a>",
         0, NULL, "author=html:Bo Chan\n"},
        {"author: another site's author page names nobody here", NULL,
         "<a href=https://library.example/author/lee-ann>Ann Lee</a><a "
         "href=/author/bo-chan>Works by Bo Chan</a>",
         0, NULL, "-author\n"},
        {"author: a line break in an author page link's text is a space", NULL,
         "<a href=/autoren/ann-lee-684124><span>Ann\n     Lee</span></a>", 0,
         NULL, "author=html:Ann Lee\n"},
        {"author: a photo's copyright credit in an author page link is the "
         "photo's",
         NULL,
         "<a href=/autoren/ann-lee-684124><picture><img alt=\"Ann "
         "Lee\"></picture><span>\xC2\xA9 Ann Lee</span> <span>Ann "
         "Lee</span></a>",
         0, NULL, "author=html:Ann Lee\n"},
        {"author: a copyright notice after a bar ends a footer's links", NULL,
         "<div class=bottom><p><a href=/impressum>IMPRESSUM</a> | "
         "COPYRIGHT ANN LEE | THIS IS A KANGA PROJECT</p></div>",
         0, NULL, "author=html:ANN LEE\n"},
        {"author: a copyright mark inside a sentence is no notice", NULL,
         "<p>Der Text <b>ist</b> Copyright Ann Lee</p>", 0, NULL, "-author\n"},
        {"author: \"Herausgeber:\" names a press release's issuer", NULL,
         "<h6 class=pm_headline>Herausgeber: <a href=/firmen/19>Nordex "
         "SE</a></h6>",
         0, NULL, "author=html:Nordex SE\n"},
        {"author: \"des\" is a particle of a name", NULL,
         "<p>Autor: Anne des Essarts</p>", 0, NULL,
         "author=html:Anne des Essarts\n"},
        {"author: \"e. V.\" is an association's legal form", NULL,
         "<meta name=author content=\"Deutscher Beispielverband e. "
         "V.\"><p><strong>Herausgeber:</strong></p><p>Pressestelle des "
         "Beispielverbandes</p>",
         0, NULL, "author=html:Pressestelle des Beispielverbandes\n"},
        {"author: the site's own name ranks after another organisation", NULL,
         "<meta property=og:site_name content=\"Beispiel Online\"><meta "
         "name=author content=\"Beispiel Online\"><script "
         "type=application/ld+json>{\"@type\":\"NewsArticle\",\"author\":{"
         "\"@type\":\"Organization\",\"name\":\"Redaktion Beispiel "
         "Pharmindex\"}}</script>",
         0, NULL, "author=jsonld:Redaktion Beispiel Pharmindex\n"},
        {"author: a site name declared after the author still counts", NULL,
         "<meta name=author content=\"Beispiel Online\"><meta "
         "property=og:site_name content=\"Beispiel Online\"><script "
         "type=application/ld+json>{\"@type\":\"NewsArticle\",\"author\":{"
         "\"@type\":\"Organization\",\"name\":\"Redaktion Beispiel "
         "Pharmindex\"}}</script>",
         0, NULL, "author=jsonld:Redaktion Beispiel Pharmindex\n"},
        {"author: words opening in lower case are a phrase, no name", NULL,
         "<meta name=author content=\"deinen Hochzeitsbloggern\"><p "
         "style=\"text-align: right;\"><em>Autor: <a href=/redner/ann>Ann "
         "Lee </a>(Sponsored Post), Redner bei site.example</em></p>",
         0, NULL, "author=html:Ann Lee\n"},
        {"author: a particle or a domain may open a name in lower case", NULL,
         "<meta name=author content=\"van Gogh\"><p>Autor: Ann Lee</p>", 0,
         NULL, "author=meta:van Gogh\n"},
        {"author: a JSON-LD creator list holding the author names every "
         "writer",
         NULL,
         "<script type=application/ld+json>{\"@type\":\"NewsArticle\","
         "\"author\":{\"@type\":\"Person\",\"name\":\"Ann Lee\"},"
         "\"creator\":[\"Ann Lee\",\"Bo Chan\"]}</script>",
         0, NULL, "author=jsonld:Ann Lee; Bo Chan\n"},
        {"author: a JSON-LD creator list of an agency and a site is no "
         "writers' list",
         NULL,
         "<script type=application/ld+json>{\"@type\":\"NewsArticle\","
         "\"author\":\"Ann Lee\",\"creator\":[\"Ann Lee\",\"EFE\"]}"
         "</script>",
         0, NULL, "author=jsonld:Ann Lee\n"},
        {"author: an edition's editor is not the entry's author", NULL,
         "<dl itemscope itemtype=http://schema.org/ScholarlyArticle><dd>"
         "<p>---- by Ann Lee</p><p><span itemprop=author>Revised Edition "
         "Edited by Bo Chan </span></p></dd></dl>",
         0, NULL, "author=html:Ann Lee\n"},
        {"author: an author box's \"Alles von\" link is a profile link's", NULL,
         "<a href=/author/martin>Alles von Martin Junker</a><div "
         "class=sidebar><a href=/author/martin>Martin Junker</a></div>",
         0, NULL, "author=html:Martin Junker\n"},
        {"author: an author page link is no name of one word", NULL,
         "<a href=/author/ann>Ann</a><a href=/author/>Ann Lee</a>", 0, NULL,
         "-author\n"},
        {"author: an author page link ranks after an organisation", NULL,
         "<meta name=author content=\"Acme GmbH\"><a "
         "href=/author/ann-lee>Ann Lee</a>",
         0, NULL, "author=meta:Acme GmbH\n"},
        {"author: an author page link ranks before a copyright holder", NULL,
         "<p>\xC2\xA9 2020 Bo Chan</p><a href=/author/ann-lee>Ann Lee</a>", 0,
         NULL, "author=html:Ann Lee\n"},
        {"author: a forum's or a CMS's username names the poster", NULL,
         "<div class=submitted>Gespeichert von <span class=username>rasos"
         "</span> am 24. Juli 2017</div>",
         0, NULL, "author=html:rasos\n"},
        {"author: a forum's account name class names the poster", NULL,
         "<h2>No App Store?</h2><div class=MtnComment><span "
         "class=MtnCommentAccountName title=\"304 posts\">macbacchi</span>"
         "<span class=MtnCommentTime>28.09.19</span><div "
         "class=MtnCommentText>hello</div></div><div class=MtnComment><span "
         "class=MtnCommentAccountName>bo</span></div>",
         0, NULL, "author=html:macbacchi\n"},
        {"author: an account-name class names the poster", NULL,
         "<p>Posted by <span class=\"post-account-name\">jdoe</span></p>", 0,
         NULL, "author=html:jdoe\n"},
        {"author: a form's account name field names nobody", NULL,
         "<label class=accountname-label>Ann Lee</label><span "
         "class=myaccountname>Bo Chan</span>",
         0, NULL, "-author\n"},
        {"author: a commenter's username names nobody", NULL,
         "<div class=comment><span class=username>bo</span></div>", 0, NULL,
         "-author\n"},
        {"author: a username ranks after a byline", NULL,
         "<span class=username>jdoe</span><article><p class=byline>By Ann "
         "Lee</p></article>",
         0, NULL, "author=html:Ann Lee\n"},
        {"author: a username ranks before an organisation", NULL,
         "<meta name=author content=\"Acme GmbH\"><span "
         "class=username>Isabella.DiBiase</span>",
         0, NULL, "author=html:Isabella.DiBiase\n"},
        {"author: a comment by the post's author names the author", NULL,
         "<ol class=commentlist><li class=\"comment byuser comment-author-bo "
         "\"><cite class=fn>Bo Chan</cite></li><li class=\"comment byuser "
         "comment-author-karo bypostauthor\"><div class=\"comment-author "
         "vcard\"><img alt=\"\"><b class=fn>Karoline Herr</b> <span "
         "class=says>sagt:</span></div><p>Danke!</p></li></ol>",
         0, NULL, "author=html:Karoline Herr\n"},
        {"author: the post author's comment without an hCard name", NULL,
         "<div class=comments><div class=\"comment bypostauthor\"><p "
         "class=comment-author>HansEhrlich</p><p>Hallo</p></div></div>",
         0, NULL, "author=html:HansEhrlich\n"},
        {"author: a lone comment by the post's author is no byline", NULL,
         "<article><div class=\"comment bypostauthor\"><p>Ann Lee</p><p>"
         "Thanks for reading.</p></div></article>",
         0, NULL, "-author\n"},
        {"author: a reply inside the post author's comment is another's", NULL,
         "<ol class=comments><li class=\"comment bypostauthor\"><div "
         "class=comment-author>admin</div><ul class=children><li "
         "class=comment><div class=comment-author>Bo Chan</div></li></ul>"
         "</li></ol>",
         0, NULL, "-author\n"},
        {"author: a bare By is no name", NULL,
         "<article><p class=byline>By:</p></article>", 0, NULL, "-author\n"},
        {"author: an element that opens with an author's label", NULL,
         "<div class=metaInfo>Ein Artikel von <strong>Pamela Sladky</strong> "
         "| 27.01.2022</div>",
         0, NULL, "author=html:Pamela Sladky\n"},
        {"author: a post's genre before \"von\" is a label", NULL,
         "<p><strong>Vegetarier zu sein</strong></p><p>Blog Beitrag von "
         "Margarita Koreneva</p><p>Gastbeitrag von Ann Lee</p>",
         0, NULL, "author=html:Margarita Koreneva\n"},
        {"author: a genre's label opening a sentence names nobody", NULL,
         "<p>Interview von gestern mit dem Trainer</p>", 0, NULL, "-author\n"},
        {"author: a label alone names the next text", NULL,
         "<p><span class=from>von</span> <span>Daniel Braun</span></p><p><b>"
         "Autor:</b> Ann Lee</p>",
         0, NULL, "author=html:Daniel Braun\n"},
        {"author: a bar before a label alone, then the name", NULL,
         "<h1>T</h1><div class=article_meta_info><span "
         "class=screen-reader-text>| By </span> <span>Cara Stiles</span> | "
         "<time>April 13, 2020</time></div>",
         0, NULL, "author=html:Cara Stiles\n"},
        {"author: a dash before a label, a role in brackets after the name",
         NULL,
         "<div class=news-single-timedata>05.02.2020 <span>-\xC2\xA0"
         "Redaktion: Eberhard Fuhr (Pressesprecher des EJW)</span></div>",
         0, NULL, "author=html:Eberhard Fuhr\n"},
        {"author: a bar before a sentence's word is no label", NULL,
         "<p>| By the time we arrived</p>", 0, NULL, "-author\n"},
        {"author: a label in a minor heading names the author", NULL,
         "<h6>Energiepreise</h6><h5><a href=/g>By Galileo</a></h5><h5><em>Von "
         "Ann Lee</em></h5><p>(21. November 2022) Text</p>",
         0, NULL, "author=html:Ann Lee\n"},
        {"author: a heading that is an author's noun alone heads the name",
         NULL,
         "<h4 class=meta-title>Autor</h4><p class=meta-text><a "
         "href=/p/huke>Nikolai Huke</a><b>, </b></p>",
         0, NULL, "author=html:Nikolai Huke\n"},
        {"author: a heading that is a byline's lead alone heads the name", NULL,
         "<article><p>Text.</p></article><div class=post-bar><h3>Published "
         "By</h3><div class=card><img alt=\"Ann Lee\"><h3><a "
         "href=/in/annlee>Ann Lee</a></h3><h4>Writer and editor</h4></div>"
         "</div>",
         0, NULL, "author=html:Ann Lee\n"},
        {"author: a heading that opens with a lead, or links it, is none", NULL,
         "<h3>Published by the city council</h3><p>Ann Lee</p><h3><a "
         "href=/a>Written by</a></h3><p>Bo Chan</p>",
         0, NULL, "-author\n"},
        {"author: a heading that opens with the noun, or links it, is none",
         NULL,
         "<h3>Author Jane Doe on cities</h3><p>Ann Lee</p><h4><a "
         "href=/a>Autor</a></h4><p>Bo Chan</p>",
         0, NULL, "-author\n"},
        {"author: a person's noun without its colon before names", NULL,
         "<p>Weitere Informationen geben die Dienststellen.</p><p>Autoren "
         "Jelko Djuren und Jutta Klaukien</p>",
         0, NULL, "author=html:Jelko Djuren; Jutta Klaukien\n"},
        {"author: without its colon, no label before one name, nor \"Text\", "
         "nor a sentence",
         NULL,
         "<p>Autor Ann Lee</p><p>Text Ann Lee und Bo Chan</p><p>Autoren "
         "schreiben und lesen</p>",
         0, NULL, "-author\n"},
        {"author: a first name gives way to the full name opening the bio",
         NULL,
         "<meta name=author content=Nils><article><p>Text</p><footer><div "
         "class=author-box><p class=\"cb-author-bio biography\">Nils "
         "Pickert ist freier Autor und Journalist.</p></div></footer>"
         "</article>",
         0, NULL, "author=meta:Nils Pickert\n"},
        {"author: not to a bio opening otherwise, nor to a second bio", NULL,
         "<meta name=author content=Tobi><p class=author-bio>Tobias Weber "
         "schreibt</p><p class=author-bio>Tobi Lee ist Autor</p>",
         0, NULL, "author=meta:Tobi\n"},
        {"author: a bio alone names nobody", NULL,
         "<p class=author-bio>Ann Lee ist Autorin</p>", 0, NULL, "-author\n"},
        {"author: nor to a sidebar's bio", NULL,
         "<aside><p class=author-bio>Nils Pickert ist Autor</p></aside>"
         "<meta name=author content=Nils><p class=bio>Ann Lee ist Autorin</p>",
         0, NULL, "author=meta:Nils\n"},
        {"author: a label after every byline, before a handle", NULL,
         "<meta name=twitter:creator content=@jdoe><p>By Jane Doe</p><div "
         "class=byline>Ann Lee</div>",
         0, NULL, "author=html:Ann Lee\n"},
        {"author: the site's domain gives way to a byline", NULL,
         "<meta name=author content=Site.example><p>Von Ann Lee</p>", 0, NULL,
         "author=html:Ann Lee\n"},
        {"author: a date, a dash and a name", NULL,
         "<h1>T</h1><p class=text-muted>11.12.2019 - Amelie Loevenich</p>", 0,
         NULL, "author=html:Amelie Loevenich\n"},
        {"author: a date, a time and a name between bars", NULL,
         "<small>04.02.2022 | 13:10 Uhr | Uta Helkenberg</small>", 0, NULL,
         "author=html:Uta Helkenberg\n"},
        {"author: a date before a listing's words names nobody", NULL,
         "<p>02.11.2022 - Placebo - Stadthalle</p><p>2021-10-16 | "
         "Botschaft</p><p>02.11.2022 - Aymz- Grelle Forelle</p><p>1.2.2020 "
         "- the rest</p><a>03.02.2020 - Ann Lee</a>",
         0, NULL, "-author\n"},
        {"author: a date, its time and an author's lead in a heading", NULL,
         "<meta name=twitter:creator content=\"@vip contributer\"><h2>Stars "
         "(1 / 1) <span>06.11.2023 13:30 von Olga </span><span>Symbolbild "
         "imago</span></h2>",
         0, NULL, "author=html:Olga\n"},
        {"author: a date and an author's lead, outside headings too", NULL,
         "<p>12.01.2016 by Ann Lee</p>", 0, NULL, "author=html:Ann Lee\n"},
        {"author: a date and a lead in a heading's link, in a heading "
         "without the lead, or a lead glued to the date, name nobody",
         NULL,
         "<h2><a href=/p>06.11.2023 von Ann Lee</a></h2><h3>02.11.2022 - "
         "Placebo Stadthalle</h3><h2>06.11.2023 13:30</h2><p>06.11.2023von "
         "Bo Chan</p><h2>06.11.2023 von 10 bis 12 Uhr</h2>",
         0, NULL, "-author\n"},
        {"author: a date and a name rank after a byline", NULL,
         "<p>11.12.2019 - Amelie Loevenich</p><div class=byline>Ann "
         "Lee</div>",
         0, NULL, "author=html:Ann Lee\n"},
        {"author: the title's site part gives way to an author's link", NULL,
         "<title>Achtsam | Die FURCHE</title><meta name=author content=\"Die "
         "FURCHE\"><a rel=author href=/autor/ub>Ursula Baatz</a>",
         0, NULL, "author=link:Ursula Baatz\n"},
        {"author: a site part after a spaced colon gives way to a label", NULL,
         "<title>CVS Health : Home : Jobs &amp; Hire</title><meta name=author "
         "content=\"Jobs &amp; Hire\"><div class=wrote_by>By <a "
         "href=/a/jc>Jose de la Cruz</a></div>",
         0, NULL, "author=html:Jose de la Cruz\n"},
        {"author: a name that is the title's first part stays a person", NULL,
         "<title>Ann Lee | Blog</title><meta name=author content=\"Ann "
         "Lee\"><a rel=author href=/a/bo>Bo Chan</a>",
         0, NULL, "author=meta:Ann Lee\n"},
        {"author: the site's domain spelt out gives way to a byline", NULL,
         "<meta name=author content=\"EAT SMARTER\"><p>Von Ann Lee</p>", 0,
         NULL, "author=html:Ann Lee\n", "https://www.eatsmarter.de/a/b"},
        {"author: a hyphened domain spelt out gives way to a byline", NULL,
         "<meta name=author content=\"Badische Zeitung\"><div "
         "class=byline>Ann Lee</div>",
         0, NULL, "author=html:Ann Lee\n",
         "https://www.badische-zeitung.de/a/b"},
        {"author: the site's domain spelt out with its suffix gives way", NULL,
         "<meta name=author content=MesOpinions.com><p>By Ann Lee</p>", 0, NULL,
         "author=html:Ann Lee\n", "https://www.mesopinions.com/p"},
        {"author: a meta author with the domain spelt out among its words "
         "gives way to a label",
         NULL,
         "<meta name=author content=\"EFC Bayrische Bembel\"><p>Geschrieben "
         "von Cooper</p>",
         0, NULL, "author=html:Cooper\n", "https://bayrische-bembel.de/504"},
        {"author: the domain spelt out before a tagline gives way to a label",
         NULL,
         "<meta name=author content=\"L-MAG \xE2\x80\x93 Das Magazin\"><p "
         "class=bodytext>Von Claudia Lindner</p>",
         0, NULL, "author=html:Claudia Lindner\n", "https://www.l-mag.de/a"},
        {"author: the domain spelt by a run of words that ends inside a word "
         "stays a person",
         NULL, "<meta name=author content=\"Eat Smarters\"><p>Von Ann Lee</p>",
         0, NULL, "author=meta:Eat Smarters\n",
         "https://www.eatsmarter.de/a/b"},
        {"author: the domain spelt after thousands of words and marks gives "
         "way to a byline",
         NULL, LONG_SITE_AUTHOR, 0, NULL, "author=html:Ann Lee\n",
         "https://www.eatsmarter.de/a/b"},
        {"author: the site's domain spelt out is kept when nobody else is",
         NULL, "<meta name=author content=\"EAT SMARTER\">", 0, NULL,
         "author=meta:EAT SMARTER\n", "https://www.eatsmarter.de/a/b"},
        {"author: a name that spells only part of the domain stays a person",
         NULL, "<meta name=author content=\"Eat Smart\"><p>Von Ann Lee</p>", 0,
         NULL, "author=meta:Eat Smart\n", "https://www.eatsmarter.de/a/b"},
        {"author: an organisation by its legal form gives way to a byline",
         NULL,
         "<meta name=author content=\"Example Stiftung e.V.\"><div "
         "class=byline>Ann Lee</div>",
         0, NULL, "author=html:Ann Lee\n"},
        {"author: an institution named for its field gives way to a person",
         NULL,
         "<meta name=author content=\"Landesanstalt f\xC3\xBCr Wald - "
         "LWF\"><p><span itemprop=author>Ann Lee</span></p>",
         0, NULL, "author=html:Ann Lee\n"},
        {"author: \"for\" among the later words is an institution's", NULL,
         "<meta name=author content=\"Institute for Fiscal Studies\"><div "
         "class=byline>Ann Lee</div>",
         0, NULL, "author=html:Ann Lee\n"},
        {"author: \"of\" among the later words is an institution's", NULL,
         "<meta name=author content=\"University of Examples\"><div "
         "class=byline>Ann Lee</div>",
         0, NULL, "author=html:Ann Lee\n"},
        {"author: an organisation is kept when nobody else is credited", NULL,
         "<meta name=author content=\"Web Commerce GmbH\">", 0, NULL,
         "author=meta:Web Commerce GmbH\n"},
        {"author: a copyright notice names its holder when nobody else is "
         "credited",
         NULL,
         "<div id=footer><p>Copyright (c) 2012- Ann L. Lee. All rights "
         "reserved.</p></div>",
         0, NULL, "author=html:Ann L. Lee\n"},
        {"author: a copyright holder's name ends at its comma", NULL,
         "<p>\xC2\xA9 2019 Ann Lee, Universit\xC3\xA4t Wien</p>", 0, NULL,
         "author=html:Ann Lee\n"},
        {"author: a copyright holder that is an organisation credits "
         "nobody",
         NULL,
         "<div class=footer><p>\xC2\xA9 Copyright 2000-2022 Kitware, Inc. "
         "and Contributors.</p><p>Copyright 2026 The Apache Software "
         "Foundation.</p><p>Copyright \xC2\xA9 1997-2026 Ericsson AB. All "
         "Rights Reserved.</p><p>\xC2\xA9 Copyright 2023, Developer's "
         "Reference Team.</p></div>",
         0, NULL, "-author\n"},
        {"author: a copyright notice's holder ends at a bar, whatever the "
         "words after it",
         NULL,
         "<p><a href=/d>Datenschutz</a> | Copyright Andr\xC3\xA9 Loibl | "
         "This is a Kanga Project</p>",
         0, NULL, "author=html:Andr\xC3\xA9 Loibl\n"},
        {"author: Sphinx's field list: a colon of its own after the term, "
         "one writer a term, an address in angle brackets",
         NULL,
         "<h1>IP addresses</h1><dl class=\"field-list simple\"><dt "
         "class=field-odd>author<span class=colon>:</span></dt><dd><p>Peter "
         "Moody &lt;pm@example.org&gt;</p></dd><dt class=field-even>"
         "author<span class=colon>:</span></dt><dd><p>Nick Coghlan</p></dd>"
         "</dl>",
         0, NULL, "authors=Peter Moody:html|Nick Coghlan:html\n"},
        {"author: AsciiDoc's <span id=author> is a byline", NULL,
         "<div id=header><h1>Fighting regressions</h1><span "
         "id=author>Christian Couder</span><br><span id=email>"
         "<code>&lt;<a href=mailto:c@example.org>c@example.org</a>&gt;"
         "</code></span></div>",
         0, NULL, "authors=Christian Couder:html\n"},
        {"author: \"\303\211crit par\" opens a French byline", NULL,
         "<p>\303\211crit par Ann Lee</p>", 0, NULL, "authors=Ann Lee:html\n"},
        {"author: an address spelt out against harvesters is cut", NULL,
         "<meta name=author content=\"Vinay Sajip &lt;vinay_sajip at "
         "red-dove dot com&gt;\">",
         0, NULL, "author=meta:Vinay Sajip\n"},
        {"author: a meta author's full stop before its address is cut", NULL,
         "<meta name=author content=\"The Exim Project. "
         "&lt;https://www.exim.org/&gt;\">",
         0, NULL, "author=meta:The Exim Project\n"},
        {"author: a copyright holder ranks after an organisation", NULL,
         "<meta name=author content=\"Web Commerce GmbH\"><p>\xC2\xA9 2020 "
         "Ann Lee</p>",
         0, NULL, "author=meta:Web Commerce GmbH\n"},
        {"author: a copyright holder ranks after a label's name", NULL,
         "<p>\xC2\xA9 2020 Bo Chan</p><p>Text: Jane Doe</p>", 0, NULL,
         "author=html:Jane Doe\n"},
        {"author: no copyright holder in a sentence, a link, or a lower-case "
         "text",
         NULL,
         "<p>Images are \xC2\xA9 Bo Chan</p><a href=/c>\xC2\xA9 Ann "
         "Lee</a><p>\xC2\xA9 2020 all rights reserved</p><p>(c)</p>",
         0, NULL, "-author\n"},
        {"author: a bold name alone signs the paragraphs it closes", NULL,
         "<div><p>One.</p><p>Two <b>bold</b> words.</p><p class=x>\n"
         "<strong><em>Ann Lee</em></strong> </p>\n</div><p>Share</p>",
         0, NULL, "author=html:Ann Lee\n"},
        {"author: a signature ranks after a label, before an organisation",
         NULL,
         "<meta name=author content=\"Web Commerce GmbH\"><div><p>One.</p>"
         "<p>Two.</p><p><b>Bo Chan</b></p></div><p>Text: Jane Doe</p><div>"
         "<p>One.</p><p>Two.</p><p><b>Bo Chan</b></p></div>",
         0, NULL, "author=html:Jane Doe\n"},
        {"author: no signature among paragraphs, before text, after one "
         "paragraph, with a colon or outside bold",
         NULL,
         "<div><p>One.</p><p>Two.</p><p><b>Ann Lee</b></p><p>More.</p>"
         "</div><div><p>One.</p><p>Two.</p><p><b>After Divorce</b></p>"
         "<table><td>Text</td></table></div><div><p>One.</p><p><b>Bo "
         "Chan</b></p></div><div><p>One.</p><p>Two.</p><p><b>Quelle: Kapo "
         "BE</b></p></div><div><p>One.</p><p>Two.</p><p>Cy Doe</p></div>"
         "<div><p>One.</p><p>Two.</p><p><b>Cy</b> Doe</p></div><div><p>One."
         "</p><p>Two.</p><p><b>the end</b></p></div>",
         0, NULL, "-author\n"},
        {"author: a name signs the paragraphs it closes before its date", NULL,
         "<article><h1>T</h1><div><p>One.</p><p>Two.</p><p>Benni<br />\n"
         "10. September 2017</p>\n</div></article>",
         0, NULL, "author=html:Benni\n"},
        {"author: a name signs the statement it closes over its office", NULL,
         "<meta name=author content=\"Planet Union e.V.\"><article><h1>T"
         "</h1><div><p>One.</p><p>Two.</p><p>Ann LEE<br />\nPlanet-"
         "Bundesvorsitzende</p></div></article>",
         0, NULL, "author=html:Ann LEE\n"},
        {"author: no signature over an office in a phrase", NULL,
         "<div><p>One.</p><p>Two.</p><p>Ann Lee<br>Vorsitzende des "
         "Vereins</p></div>",
         0, NULL, "-author\n"},
        {"author: no signature outside bold without a date, or a sentence "
         "before one",
         NULL,
         "<div><p>One.</p><p>Two.</p><p>Liebe Gr\xC3\xBC\xC3\x9F"
         "e<br>Monika</p></div><div><p>One.</p><p>Two.</p><p>Thanks for "
         "reading<br>10. September 2017</p></div><div><p>One.</p><p>Two."
         "</p><p>Ann Lee 10. September 2017</p></div>",
         0, NULL, "-author\n"},
        {"author: a press contact's label alone, the name next", NULL,
         "<p><strong>Pressekontakt</strong><br>Dr. Tim Loppe<br>"
         "Pressesprecher</p>",
         0, NULL, "author=html:Dr. Tim Loppe\n"},
        {"author: a press contact ranks after a label, and lets it be read",
         NULL,
         "<div>Kontakt:</div><p>Jan Koch<br>Telefon 1</p><p>Von Ann Lee</p>", 0,
         NULL, "author=html:Ann Lee\n"},
        {"author: no press contact in a link, without its colon, or one word",
         NULL,
         "<a href=/k>Pressekontakt</a> <p>Bo Chan</p><p>Kontakt</p><p>Bo "
         "Chan</p><p>Media contact</p><p>Pressestelle</p><p>Kontakt:</p><p>"
         "Cy Doe</p>",
         0, NULL, "-author\n"},
        {"author: a handle gives way to a label's name", NULL,
         "<meta name=author content=@jdoe><p>Text: Jane Doe</p>", 0, NULL,
         "author=html:Jane Doe\n"},
        {"author: a role or an agency after a label's name", NULL,
         "<p><strong>Autorin: Uta Staschewski, Projektleiterin der HSS in "
         "Tunesien.</strong></p>",
         0, NULL, "author=html:Uta Staschewski\n"},
        {"author: an agency after a lead line's names", NULL,
         "<article><p>By Ann Lee and Bo Chan, dpa</p></article>", 0, NULL,
         "author=html:Ann Lee; Bo Chan\n"},
        {"author: a lone word before a lower-case part is no name", NULL,
         "<p>Von Berlin, der Hauptstadt, aus</p>", 0, NULL, "-author\n"},
        {"author: no label in a sentence, a link, a heading, or without its "
         "colon",
         NULL,
         "<ul><li>Von <a href=/e>Albert Einstein</a> wird berichtet, dass "
         "er</li></ul><p><a href=/w>Portrait</a> by Ann Lee</p><h3>By "
         "Galileo</h3><a href=#b>By Galileo</a><p>Author Jane Doe</p>",
         0, NULL, "-author\n"},
        {"author: a profile link's text is no part of the name", NULL,
         "<article><div class=post-author>Posted by <span class=fn>Jane "
         "Doe</span> <a href=/p>View my complete profile</a></div></article>",
         0, NULL, "author=html:Jane Doe\n"},
        {"author: a profile link's \"View all posts by\" is no part of "
         "the name",
         NULL,
         "<article><a rel=author href=/author/al>View all posts by Ann "
         "Lee \xE2\x86\x92</a></article>",
         0, NULL, "author=link:Ann Lee\n"},
        {"author: a profile link's \"Show all articles of\" run on into "
         "the name",
         NULL,
         "<article><span class=\"author vcard\"><a rel=author "
         "href=/author/hs>Heiko Sauer</a></span><a rel=author "
         "href=/author/hs>SHOW ALL ARTICLES OFHeiko Sauer</a></article>",
         0, NULL, "author=link:Heiko Sauer\n"},
        {"author: a theme's screen-reader lead runs on into the name", NULL,
         "<article><span class=byline><span>Ver\303\266ffentlicht von"
         "</span><span class=fn>Chris Jung</span></span></article>",
         0, NULL, "author=html:Chris Jung\n"},
        {"author: Blogger's German lead \"Eingestellt von\" is no part of "
         "the name",
         NULL,
         "<article><div class=post-footer><span class=\"post-author "
         "vcard\">Eingestellt von <span class=fn>Ann Lee</span></span>"
         "</div></article>",
         0, NULL, "author=html:Ann Lee\n"},
        {"author: Blogger's \"Eingestellt von\" before its placeholder names "
         "nobody",
         NULL,
         "<article><div class=post-footer><span class=\"post-author "
         "vcard\">Eingestellt von <span class=fn>Unknown</span></span>"
         "</div></article>",
         0, NULL, "-author\n"},
        {"author: a label's colon, and a bare label is no name", NULL,
         "<meta name=author content=Text><meta name=author "
         "content=\"Interview: Julia Lauter\">",
         0, NULL, "author=meta:Julia Lauter\n"},
        {"author: a theme's screen-reader \"Post author\" is no name", NULL,
         "<article><ul><li class=\"post-author meta-wrapper\"><span "
         "class=screen-reader-text>Post author</span>\n<span class=meta-text> "
         "By <a href=/author/h>Helge Lee</a></span></li></ul></article>",
         0, NULL, "author=html:Helge Lee\n"},
        {"author: a degree after a name's comma is no part of it", NULL,
         "<meta name=author content=\"Grant Tinsley, PhD\">", 0, NULL,
         "author=meta:Grant Tinsley\n"},
        {"author: the site's name after a name's comma is no part of it", NULL,
         "<meta name=author content=\"Rob Picheta, CNN\">", 0, NULL,
         "author=meta:Rob Picheta\n", "https://edition.cnn.com/2021/a"},
        {"author: a handle after a name is no part of it", NULL,
         "<meta name=author content=\"Williams Perdomo @wperdomod\">", 0, NULL,
         "author=meta:Williams Perdomo\n"},
        {"author: a handle alone stays, last, without its @", NULL,
         "<meta name=author content=\"@wperdomod\">", 0, NULL,
         "author=meta:wperdomod\n"},
        {"author: a handle without its @ still gives way to a byline", NULL,
         "<meta name=twitter:creator content=\"@jdoe\"><article><p "
         "class=byline>By Jane Doe</p></article>",
         0, NULL, "author=html:Jane Doe\n"},
        {"author: a bare @ is no name", NULL,
         "<meta name=author content=\"@\">", 0, NULL, "-author\n"},
        {"author: a name written surname first stays whole", NULL,
         "<meta name=author content=\"Doe, Jane\">", 0, NULL,
         "author=meta:Doe, Jane\n", "https://edition.cnn.com/2021/a"},
        {"author: a CMS's placeholder is no name", NULL,
         "<meta name=author content=admin><article><p class=byline>By "
         "No Author</p></article>",
         0, NULL, "-author\n"},
        {"author: a byline's bare \"Posted\" and a trailing separator", NULL,
         "<div class=post-author>Posted</div><article><span "
         "class=entry-author>John Walk -</span></article>",
         0, NULL, "author=html:John Walk\n"},
        {"author: a byline's date before its \"by\"", NULL,
         "<article><div class=page-meta--author>Posted on September 21, "
         "2020  by Adi Tzlil</div></article>",
         0, NULL, "author=html:Adi Tzlil\npublished=html:2020-09-21\n"},
        {"author: a caption's photo credit in byline markup is no author", NULL,
         "<article><figure><figcaption>Flats<span class=item--autor>Foto:"
         "\xC2\xA0"
         "Bo\xC2\xA0"
         "Chan</span></figcaption></figure><p>Von <a "
         "href=/al>Ann Lee</a></p></article>",
         0, NULL, "author=html:Ann Lee\n"},
        {"author: a byline class with a part for the name's text", NULL,
         "<div class=articlecontent><span class=time>02/10/2020</span><span "
         "class=authorname-txt><span class=truncate>Ann Lee</span></span>"
         "</div>",
         0, NULL, "author=html:Ann Lee\n"},
        {"author: an author__name class is a byline", NULL,
         "<article><span class=author__name><a href=/al>Ann "
         "Lee</a></span></article>",
         0, NULL, "author=html:Ann Lee\n"},
        {"author: no byline in a bio's text part", NULL,
         "<article><p class=author-bio-text>Ann Lee</p></article>", 0, NULL,
         "-author\n"},
        {"author: a plural class lists the credited people", NULL,
         "<article><div class=article-authors><a href=/a>Ann Lee</a>, "
         "<a href=/b>Bo Chan</a></div></article>",
         0, NULL, "author=html:Ann Lee; Bo Chan\n"},
        {"byline: a radio interview's byline credits both speakers", NULL,
         "<p class=author>Ann Lee im Gespr\303\244ch mit Bo Chan</p><p "
         "class=author>Cy Dunn in conversation with Di Eng</p>",
         0, NULL, "author=html:Ann Lee; Bo Chan\n"},
        {"author: the French \"auteurs\" class is a byline", NULL,
         "<div class=post><span class=auteurs>Didier Roy</span></div>", 0, NULL,
         "author=html:Didier Roy\n"},
        {"author: a list's label item before the name", NULL,
         "<article><ul class=meta__authors><li>Artikel von:</li>"
         "<li>Jane Doe</li></ul></article>",
         0, NULL, "author=html:Jane Doe\n"},
        {"author: a label's names end where their day begins", NULL,
         "<article><p class=postmetadata>Von R. R. am <a "
         "href=/2014/02>26.02.2014</a></p></article>",
         0, NULL, "author=html:R. R.\n"},
        {"author: a byline's date after a comma is no name", NULL,
         "<div class=post><div class=dates_auteurs>par <span "
         "class=auteurs>Didier Roy</span>, 21 juin 2018</div></div>",
         0, NULL, "author=html:Didier Roy\n"},
        {"author: \"on\" and a month name end the names", NULL,
         "<article><span class=byline>By Ann Lee on September 21, "
         "2020</span></article>",
         0, NULL, "author=html:Ann Lee\n"},
        {"author: a month's name in a name is no date", NULL,
         "<article><span class=byline>By Jan Koch and May Lee"
         "</span></article>",
         0, NULL, "author=html:Jan Koch; May Lee\n"},
        {"author: the illustrator's credit after the author's", NULL,
         "<article><p><em>Text von Christian Seiler &nbsp; &nbsp;"
         "Illustration von Markus Roost</em></p></article>",
         0, NULL, "author=html:Christian Seiler\n"},
        {"author: a photographer's credit in the byline", NULL,
         "<article><span class=byline>By Ann Lee Photos: Bo Chan</span>"
         "</article>",
         0, NULL, "author=html:Ann Lee\n"},
        {"author: a trade's word without its credit is a name's", NULL,
         "<article><span class=byline>By Anna Bild</span></article>", 0, NULL,
         "author=html:Anna Bild\n"},
        {"author: a colon after a date opens no label", NULL,
         "<article><div class=meta__authors>Am 2. Mai: Ann Lee</div>"
         "</article>",
         0, NULL, "-author\n"},
        {"author: article:author without a scheme is a URL", NULL,
         "<meta property=article:author content=www.facebook.com/jdoe>", 0,
         NULL, "-author\n"},
        {"author: a handle gives way to the byline's name", NULL,
         "<meta name=author content=@jdoe><article><p class=byline>By Jane "
         "Doe</p></article>",
         0, NULL, "author=html:Jane Doe\n"},
        {"author: a JSON-LD reference to a Person in the graph", NULL,
         "<script type=application/ld+json>{\"@graph\":[{\"@type\":"
         "\"WebPage\",\"author\":{\"@id\":\"#p1\"}},{\"@type\":"
         "\"Person\",\"@id\":\"#p2\",\"name\":\"Not Me\"},{\"@type\":"
         "[\"Person\"],\"@id\":\"#p1\",\"name\":\"Harald Bauer\"}]}"
         "</script>",
         0, NULL, "author=jsonld:Harald Bauer\n"},
        {"author: a reference that names no node gives no author", NULL,
         "<script type=application/ld+json>{\"@type\":\"Article\","
         "\"author\":{\"@id\":\"#nobody\"}}</script>",
         0, NULL, "-author\n"},
        {"title: a heading settles the first of three parts", NULL,
         "<title>Get Covered | Code | Nicolas P</title><h1>Hi, I'm "
         "Nicolas.</h1><h2><a href=/c>Get Covered</a></h2>",
         0, NULL, "title=title:Get Covered\npublisher=title:Nicolas P\n"},
        {"title: three parts, no heading: the title stays whole", NULL,
         "<title>Get Covered | Code | Nicolas P</title><h2>Other</h2>", 0, NULL,
         "title=title:Get Covered | Code | Nicolas P\n"},
        {"title: the old default theme's \"Blog Archive\" label goes", NULL,
         "<title>Disfunctions.de \xC2\xBB Blog Archiv \xC2\xBB Podcasts in "
         "Plex</title><meta property=og:site_name content=Disfunctions.de>",
         0, NULL, "title=title:Podcasts in Plex\n"},
        {"title: a post named \"Blog Archive\" keeps its name", NULL,
         "<title>Blog Archive | Example</title>"
         "<meta property=og:site_name content=Example>",
         0, NULL, "title=title:Blog Archive\n"},
        {"author: a byline after the date, opened by its separator", NULL,
         "<article><header><time class=\"entry-date published\" "
         "datetime=2019-06-28>28. Juni 2019</time><span class=byline> | "
         "<span class=\"author vcard\"><a class=\"url fn n\" "
         "href=/author/hg13345/>Klaus Quibeldey-Cirkel</a></span></span>"
         "</header></article>",
         0, NULL, "author=html:Klaus Quibeldey-Cirkel\n"},
        {"author: a byline of separators only names no one", NULL,
         "<article><span class=byline> | \xC2\xB7 - </span></article>", 0, NULL,
         "-author\n"},
        {"author: a theme's design credit is no author", NULL,
         "<meta name=author content=\"Peter Amende und Fuchsy designed\">"
         "<meta name=dc.creator content=\"Theme by Ann Lee\">"
         "<meta name=parsely-author content=\"Powered by WordPress\">",
         0, NULL, "-author\n"},
        {"author: a theme's German credit closing a copyright line is no "
         "author",
         NULL,
         "<div><p>Copyright \xC2\xA9 2021 | WordPress Theme von <a "
         "href=https://www.mhthemes.com/>MH Themes</a></p></div>",
         0, NULL, "-author\n"},
        {"author: a copyright line's holder before a theme's German credit "
         "is named",
         NULL,
         "<div><p>Copyright \xC2\xA9 2021 Ann Lee | WordPress Theme von <a "
         "href=https://www.mhthemes.com/>MH Themes</a></p></div>",
         0, NULL, "author=html:Ann Lee\n"},
        {"author: a name holding the word \"Publisher\" is a name", NULL,
         "<meta name=author content=\"Ann Publisher\">", 0, NULL,
         "author=meta:Ann Publisher\n"},
        {"author: Government Site Builder's placeholder \"publisher\" is no "
         "name",
         NULL, "<meta name=author content=publisher>", 0, NULL, "-author\n"},
        {"author: Shareaholic's author name is a declared author", NULL,
         "<meta name=shareaholic:article_author_name content='Ann Lee'>"
         "<p>\xC2\xA9 2020 Bo Chan</p>",
         0, NULL, "author=meta:Ann Lee\n"},
        {"author: a design credit gives way to the byline", NULL,
         "<meta name=author content=\"Design by Studio X\"><article><p "
         "class=byline>By Jane Designer-Doe</p></article>",
         0, NULL, "author=html:Jane Designer-Doe\n"},
        {"author: a handle when nothing else names anyone", NULL,
         "<meta name=author content=@jdoe>", 0, NULL, "author=meta:jdoe\n"},
        {"author: the site's name in microdata gives way to the byline", NULL,
         "<meta property=og:site_name content=Planet><div itemscope "
         "itemtype=https://schema.org/Article><meta itemprop=author "
         "content=Planet><article><p class=byline>By Lois Lane</p></article>"
         "</div>",
         0, NULL, "author=html:Lois Lane\n"},
        {"author: related posts' bylines are not the article's", NULL,
         "<article><h1>T</h1><a rel=author href=/a>Ann Lee</a><div "
         "class=related-posts><a rel=author href=/b>Bob Ray</a></div>"
         "</article>",
         0, NULL, "author=link:Ann Lee\n"},
        {"author: rel=author links after the byline's box closed are listed "
         "posts'",
         NULL,
         "<article><h1>T</h1><div class=meta><span class=by><a rel=author "
         "href=/a>Ann Lee</a></span></div><p>Text.</p><h4><a "
         "href=/p2>Other post</a></h4><div class=meta><span class=by><a "
         "rel=author href=/b>Bob Ray</a></span></div></article>",
         0, NULL, "author=link:Ann Lee\n"},
        {"author: rel=author links in one byline's spans are co-authors", NULL,
         "<article><div class=meta><span class=by><a rel=author href=/a>Ann "
         "Lee</a></span> und <span class=by><a rel=author href=/b>Bob "
         "Ray</a></span></div></article>",
         0, NULL, "author=link:Ann Lee; Bob Ray\n"},
        {"author: a credit paragraph in the article's header", NULL,
         "<article><header><h1>Masks stolen</h1><p class=credit>JIJI</p>"
         "</header><p>Text.</p></article>",
         0, NULL, "author=html:JIJI\n"},
        {"author: a picture's credit span in the header credits nobody", NULL,
         "<article><header><h1>Masks stolen</h1><div><img src=a.jpg><span "
         "class=credit>Ann Lee</span></div></header><p>Text.</p></article>",
         0, NULL, "-author\n"},
        {"author: JSON-LD name as an array", NULL,
         "<script type=application/ld+json>{\"@type\":\"Article\",\"author\":"
         "{\"@type\":\"Person\",\"name\":[\"Ada Lovelace\"]}}</script>",
         0, NULL, "author=jsonld:Ada Lovelace\n"},
        {"author: a JSON-LD login gives way to the name it spells", NULL,
         "<script type=application/ld+json>{\"@type\":\"Article\",\"author\":"
         "{\"@type\":\"Person\",\"name\":\"edilson.la.rosa\"}}</script>"
         "<meta name=author content=\"Edilson La Rosa\">",
         0, NULL, "author=meta:Edilson La Rosa\n"},
        {"author: a name offered before the login it spells stays", NULL,
         "<meta name=author content=\"Arian Schlichenmayer\"><script "
         "type=application/ld+json>{\"@type\":\"Article\",\"author\":"
         "{\"@type\":\"Person\",\"name\":\"arianschlichenmayer\"}}"
         "</script>",
         0, NULL, "author=meta:Arian Schlichenmayer\n"},
        {"author: a login stays before a name it does not spell", NULL,
         "<script type=application/ld+json>{\"@type\":\"Article\",\"author\":"
         "{\"@type\":\"Person\",\"name\":\"sarah-indra\"}}</script>"
         "<meta name=author content=\"Sarah Indrani\">",
         0, NULL, "author=jsonld:sarah-indra\n"},
        {"author: a first name alone gives way to a label's full name", NULL,
         "<script type=application/ld+json>{\"@type\":\"Article\",\"author\":"
         "{\"@type\":\"Person\",\"name\":\"Todd\"}}</script><p "
         "class=label><strong>By</strong></p><div><p>Todd Bates</p></div>",
         0, NULL, "author=html:Todd Bates\n"},
        {"author: a first name stays before another's name or a list", NULL,
         "<meta name=author content=Todd><p>By Toddy Bates</p><article><p "
         "class=byline>By Todd Bates and Ann Lee</p></article><p>Von Ann "
         "Lee</p>",
         0, NULL, "author=meta:Todd\n"},
        {"author: a byline's writers take the JSON-LD's one name among them",
         NULL,
         "<script type=application/ld+json>{\"@type\":\"Article\",\"author\":"
         "{\"@type\":\"Person\",\"name\":\"Rudolf Fischer\"}}</script>"
         "<article><h1>T</h1><div class=\"meta-item author\"><span "
         "class=fn>von Rudolf Fischer, Simon Kohler</span></div><p>Text</p>"
         "</article>",
         0, NULL, "author=html:Rudolf Fischer; Simon Kohler\n"},
        {"author: a slash between names in a byline separates writers", NULL,
         "<article><h1>T</h1><p class=byline>Ann Lee / Bo Chan</p><p>Text"
         "</p></article>",
         0, NULL, "author=html:Ann Lee; Bo Chan\n"},
        {"author: a byline's writers take the JSON-LD's name written with its "
         "initial",
         NULL,
         "<script type=application/ld+json>{\"@type\":\"NewsArticle\","
         "\"author\":{\"@type\":\"Person\",\"name\":\"Eduardo "
         "Barreneche\"}}</script><article><h1>T</h1><div class=\"author \">"
         "e. barreneche / J. I. da silva<br></div><p>Text</p></article>",
         0, NULL, "author=html:e. barreneche; J. I. da silva\n"},
        {"author: an initial that is another's leaves the JSON-LD's name", NULL,
         "<script type=application/ld+json>{\"@type\":\"NewsArticle\","
         "\"author\":{\"@type\":\"Person\",\"name\":\"Eduardo "
         "Barreneche\"}}</script><article><h1>T</h1><div class=author>"
         "A. Barreneche / Bo Chan</div><p>Text</p></article>",
         0, NULL, "author=jsonld:Eduardo Barreneche\n"},
        {"author: a picture's credit of two holders around a slash names "
         "nobody",
         NULL,
         "<figure><img src=a.jpg><div class=copyright>\xC2\xA9Volkswagen AG "
         "/ Porsche Holding</div></figure><span class=Stage-copyright>\xC2\xA9 "
         "Niklas Grapatin / Greenpeace</span><p>Text</p>",
         0, NULL, "-author\n"},
        {"author: a byline's linked writers over a JSON-LD other", NULL,
         "<script type=application/ld+json>{\"@type\":\"Article\",\"author\":"
         "{\"@type\":\"Person\",\"name\":\"Kim Dale\"}}</script>"
         "<div itemscope itemtype=https://schema.org/BlogPosting><h1>T</h1>"
         "<div class=article-header__byline itemprop=author>By <a "
         "href=/author/ann-lee/ rel=author>Ann Lee</a>, <a "
         "href=/author/bo-chan/ rel=author>Bo Chan</a></div><p>Text</p>"
         "</div>",
         0, NULL, "author=link:Ann Lee; Bo Chan\n"},
        {"author: a byline's linked writers over a meta author before it", NULL,
         "<meta name=author content=\"Kim Dale\"><article><h1>T</h1><div "
         "class=byline><a href=/author/ann-lee/ rel=author>Ann Lee</a> and "
         "<a href=/author/bo-chan/ rel=author>Bo Chan</a></div><p>Text</p>"
         "</article>",
         0, NULL, "author=link:Ann Lee; Bo Chan\n"},
        {"author: a byline's link that names nobody is no writer", NULL,
         "<script type=application/ld+json>{\"@type\":\"Article\",\"author\":"
         "{\"@type\":\"Person\",\"name\":\"Kim Dale\"}}</script>"
         "<article><h1>T</h1><div class=byline><a href=/author/ann-lee/ "
         "rel=author>Ann Lee</a> <a href=/author/ann-lee/ rel=author>View "
         "profile</a></div><p>Text</p></article>",
         0, NULL, "author=jsonld:Kim Dale\n"},
        {"author: one linked writer, or links outside the byline, leave the "
         "JSON-LD's",
         NULL,
         "<script type=application/ld+json>{\"@type\":\"Article\",\"author\":"
         "{\"@type\":\"Person\",\"name\":\"Kim Dale\"}}</script>"
         "<article><h1>T</h1><div class=byline><a href=/author/ann-lee/ "
         "rel=author>Ann Lee</a></div><p>Text</p><footer><p><a href=/a/bo "
         "rel=author>Bo Chan</a>, <a href=/a/cy rel=author>Cy Do</a></p>"
         "</footer></article>",
         0, NULL, "author=jsonld:Kim Dale\n"},
        {"author: a byline's writers take the meta author's one name", NULL,
         "<meta name=author content=\"Ann Lee\"><article><h1>T</h1><p "
         "class=byline>By Ann Lee and Bo Chan</p><p>Text</p></article>",
         0, NULL, "author=html:Ann Lee; Bo Chan\n"},
        {"author: the byline inside a byline that runs on into no names", NULL,
         "<article><h1>T</h1><div class=author><div class=byline><a "
         "href=/a>Isabel Caro</a>, <a href=/b>Roc\xC3\xADo Latorre</a> y "
         "<a href=/c>Jos\xC3\xA9 Miguel Wilson</a></div><time>Hace 13 "
         "horas</time> Tiempo de lectura: 8 minutos</div><p>Text</p>"
         "</article>",
         0, NULL,
         "author=html:Isabel Caro; Roc\xC3\xADo Latorre; Jos\xC3\xA9 Miguel "
         "Wilson\n"},
        {"author: a byline's names stay whole around the bylines inside it",
         NULL,
         "<article><h1>T</h1><p class=byline>By <span class=author>Ann "
         "Lee</span> and <span class=author>Bo Chan</span></p><p>Text</p>"
         "</article>",
         0, NULL, "author=html:Ann Lee; Bo Chan\n"},
        {"author: a writer and an outlet in the byline are no writers", NULL,
         "<meta name=author content=\"Rob Picheta\"><article><h1>T</h1><p "
         "class=byline>By Rob Picheta, CNN</p><p>Text</p></article>",
         0, NULL, "author=meta:Rob Picheta\n"},
        {"author: an organisation credited gives way to a person", NULL,
         "<script type=application/ld+json>{\"@type\":\"Article\",\"author\":"
         "{\"@type\":\"Organization\",\"name\":\"Newsroom\"}}</script>"
         "<article><p class=byline>By Ann Lee</p></article>",
         0, NULL, "author=html:Ann Lee\n"},
        {"author: an organisation when no person is credited", NULL,
         "<script type=application/ld+json>{\"@type\":\"PodcastEpisode\","
         "\"author\":{\"@type\":\"Organization\",\"name\":\"By Radio "
         "Nord\"}}</script>",
         0, NULL, "author=jsonld:Radio Nord\npublisher=jsonld:Radio Nord\n"},
        {"publisher: a credited organisation after a declared publisher", NULL,
         "<meta property=og:site_name content=Podcasts><script "
         "type=application/ld+json>{\"@type\":\"PodcastSeries\",\"author\":"
         "[{\"@type\":\"Organization\",\"name\":\"Radio Nord\"},"
         "{\"@type\":\"Organization\",\"name\":\"Radio Sud\"}]}</script>",
         0, NULL, "publisher=og:Podcasts\n"},
        {"publisher: a credited person publishes nothing", NULL,
         "<script type=application/ld+json>{\"@type\":\"PodcastEpisode\","
         "\"author\":{\"@type\":\"Person\",\"name\":\"Ann Lee\"}}"
         "</script>",
         0, NULL, "author=jsonld:Ann Lee\n-publisher\n"},
        {"author: entry-meta-author", NULL,
         "<article><span class=entry-meta-author>Ann Lee</span></article>", 0,
         NULL, "author=html:Ann Lee\n"},
        {"author: a Von line at the head of the article", NULL,
         "<article><h1>T</h1><p>Von Anna Schmidt</p><p>By the time we "
         "arrived</p></article>",
         0, NULL, "author=html:Anna Schmidt\n"},
        {"author: a sentence starting with By is no byline", NULL,
         "<article><h1>T</h1><p>By the time we arrived</p></article>", 0, NULL,
         "-author\n"},
        {"author: <meta itemprop=author>", NULL,
         "<meta itemprop=author content=\"Ann Lee\">", 0, NULL,
         "author=meta:Ann Lee\n"},
        {"author: og:article:author", NULL,
         "<meta property=og:article:author content=\"Ann Lee\">", 0, NULL,
         "author=og:Ann Lee\n"},
        {"author: byl", NULL, "<meta name=byl content=\"By Ann Lee\">", 0, NULL,
         "author=meta:Ann Lee\n"},
        {"author: twitter:data1 when twitter:label1 says Written by", NULL,
         "<meta name=twitter:label1 content=\"Written by\"><meta "
         "name=twitter:data1 content=\"Ann Lee\"><meta name=twitter:label2 "
         "content=\"Est. reading time\"><meta name=twitter:data2 "
         "content=\"4 minutes\">",
         0, NULL, "author=meta:Ann Lee\n"},
        {"author: an author page's URL or an address is no name", NULL,
         "<meta name=author content=/author/jdoe><meta name=dc.creator "
         "content=219.79.38.192>",
         0, NULL, "-author\n"},
        {"author: a login slug ranks after every name, with handles", NULL,
         "<meta name=author content=jdoe42><meta name=twitter:creator "
         "content=@ann><p>\xC2\xA9 2020 Ann Lee</p>",
         0, NULL, "author=html:Ann Lee\n"},
        {"author: a login slug alone is a name of last resort", NULL,
         "<meta name=dc.creator content=jdoe_42>", 0, NULL,
         "author=meta:jdoe_42\n"},
        {"author: an agency's code after a slash ends a full name", NULL,
         "<meta name=author content=\"Peter Maahn/SP-X\">", 0, NULL,
         "author=meta:Peter Maahn\n"},
        {"author: a second name after a slash is no agency's code", NULL,
         "<meta name=author content=\"Ann Lee/Bob Ray\">", 0, NULL,
         "author=meta:Ann Lee/Bob Ray\n"},
        {"author: an editor's initials and an agency's code are a credit", NULL,
         "<script type=application/ld+json>{\"@type\":\"NewsArticle\","
         "\"author\":{\"@type\":\"Person\",\"name\":\"det\\/dpa\"}}"
         "</script><p class=author>Sportnews</p>",
         0, NULL, "author=jsonld:det/dpa\n"},
        {"author: a path of longer parts is no agency's credit", NULL,
         "<meta name=author content=authors/jdoe><meta name=dc.creator "
         "content=d/dpa>",
         0, NULL, "-author\n"},
        {"author: a description's dateline credits the agency when nobody "
         "else is",
         NULL,
         "<meta property=og:description content=\"Hamburg (dpa/lno) &#8211; "
         "Trotz eines Gespr\xC3\xA4"
         "ches\">",
         0, NULL, "author=og:dpa/lno\n"},
        {"author: a dateline's agency yields to any name on the page", NULL,
         "<meta name=description content=\"Bad Bentheim (AFP) - Text\">"
         "<meta name=author content=\"Ann Lee\">",
         0, NULL, "author=meta:Ann Lee\n"},
        {"author: a description's byline credits its names when nobody "
         "else is",
         NULL,
         "<meta property=og:description content=\"Posted by Ann Lee, Bo "
         "Chan and Cy Dee - Chrome Safe Browsing team   Over the past few "
         "years\"><meta name=twitter:creator content=@google>",
         0, NULL, "author=og:Ann Lee; Bo Chan; Cy Dee\n"},
        {"author: a description's byline yields to any name on the page", NULL,
         "<meta name=description content=\"By Ann Lee - Text\">"
         "<meta name=author content=\"Bo Chan\">",
         0, NULL, "author=meta:Bo Chan\n"},
        {"author: a description's byline without a separator credits nobody",
         NULL, "<meta property=og:description content=\"Written by Ann Lee\">",
         0, NULL, "-author\n"},
        {"author: a description's byline with a one-word name credits nobody",
         NULL,
         "<meta property=og:description content=\"By Ann Lee, Bo - Text\">", 0,
         NULL, "-author\n"},
        {"author: a description's one word after By is no byline", NULL,
         "<meta name=description content=\"By Car - Directions\">", 0, NULL,
         "-author\n"},
        {"author: a separator after a description's sentence is no byline",
         NULL,
         "<meta name=description content=\"By the time we arrived - it "
         "rained\">",
         0, NULL, "-author\n"},
        {"author: a rel=author link its style hides credits nobody", NULL,
         "<div class=post><p>Text.</p><div class=post-footer><a "
         "href=https://plus.google.com/1 rel=author style='display:none;'>"
         "Google</a></div></div>",
         0, NULL, "-author\n"},
        {"author: a hidden rel=author link leaves the description's byline",
         NULL,
         "<meta property=og:description content=\"Posted by Ann Lee - Team "
         "Text\"><p>Text.</p><a href=/p/1 rel=author style=\"DISPLAY : "
         "NONE\">Google</a>",
         0, NULL, "author=og:Ann Lee\n"},
        {"author: a rel=author link styled otherwise is read", NULL,
         "<p>Text.</p><a href=/p/1 rel=author style=\"display:inline; "
         "color:none\">Ann Lee</a>",
         0, NULL, "author=link:Ann Lee\n"},
        {"author: brackets in a description's sentence are no dateline", NULL,
         "<meta name=description content=\"Der Preis (EUR) steigt\">"
         "<meta property=og:description content=\"Berlin (jur). Bevor\">",
         0, NULL, "-author\n"},
        {"author: a name's soft hyphens go, a no-break space is a space", NULL,
         "<meta name=author content=\"Ann L. "
         "\xC2\xA0Lau\xC2\xAD"
         "e\xC2\xAD"
         "rer\">",
         0, NULL, "author=meta:Ann L. Lauerer\n"},
        /* Posts on social sites, language, charset. */
        {"social post: og:title \"Name (@handle) on X\" names the author", NULL,
         "<meta property=og:title content='Ada Lovelace (@ada) on X: "
         "\"Notes\"'>",
         0, NULL, "author=og:Ada Lovelace\n"},
        {"language: microdata inLanguage without <html lang>", NULL,
         "<div itemscope itemtype=https://schema.org/Article><meta "
         "itemprop=inLanguage content=fr></div>",
         0, NULL, "language=microdata:fr\n"},
        {"charset: a script's charset attribute is not the page's", NULL,
         "<script charset=\"utf-8\" src=/a.js></script><meta "
         "charset=gb2312><title>\xD6\xD0\xCE\xC4</title>",
         0, NULL, "charset=html:GBK\ntitle=title:\xE4\xB8\xAD\xE6\x96\x87\n"},
        {"video page: every source at once", "video.html", NULL, 0,
         "Content-Type: text/html; charset=utf-8\n"
         "Last-Modified: Wed, 06 Mar 2024 08:00:00 GMT\n"
         "X-Robots-Tag: otherbot: noindex\n"
         "X-Robots-Tag: heed: nofollow",
         "title=og:Sunset timelapse over the bay\n"
         "description=og:Four hours of sunset in 3 minutes.\n"
         "author=jsonld:Ana Lopez\n"
         "canonical=link:https://site.example/v/123\n"
         "language=html:en-US\n"
         "published=jsonld:2024-03-05T10:00:00+01:00\n"
         "published_s=1709629200\n"
         "modified=jsonld:2024-03-06\n"
         "thumbnail=og:https://cdn.cliphub.example/thumbs/123-secure.jpg\n"
         "og_type=og:video.other\n"
         "schema_type=jsonld:VideoObject\n"
         "site_name=og:ClipHub\n"
         "duration=jsonld:PT3M1S\nduration_s=181\n"
         "views=jsonld:9007199254740993\n"
         "charset=http:UTF-8\n"
         "tags=sunset:og|timelapse:og|bay:meta|nature:meta|golden "
         "hour:jsonld\n"
         "last_modified=2024-03-06T08:00:00Z\n"
         "jsonld=1/0\n"
         "robots=nofollow noarchive max-snippet=120 \n"
         "link=https://site.example/feeds/latest.rss alternate feed\n"
         "link=https://site.example/v/124 next\n"
         "link=https://site.example/tag/sunset a\n"
         "link=https://site.example/v/125 a\n"
         "link=https://ads.example/x a nofollow\n"
         "-link=https://site.example/fake\n"
         "-link=https://site.example/svg-link\n"
         "-link=https://site.example/download/123\n"
         "-link=https://site.example/v/123.mp4\n"
         "-link=https://site.example/site.css\n"},
        {"article: twitter, meta, base href, canonical conflict",
         "article.html", NULL, 0, NULL,
         "title=twitter:Crawler-Etikette erklärt\n"
         "description=meta:Meta description wins over DC and JSON-LD.\n"
         "author=jsonld:Jana Weber; Tom Berg\n"
         "canonical=og:https://news.example/de/artikel/etikette\n"
         "language=html:de-DE\n"
         "published=jsonld:2023-12-31T23:30:00-02:00\n"
         "modified=og:2024-01-02T08:00:00Z\n"
         "schema_type=jsonld:NewsArticle\n"
         "site_name=jsonld:News Example GmbH\n"
         "tags=robots:og|höflichkeit:og|crawler:jsonld|etikette:jsonld\n"
         "jsonld=2/1\n"
         "link=https://news.example/de/artikel/vorher prev\n"
         "link=https://news.example/en/article/etiquette alternate\n"
         "link=https://news.example/feed.atom alternate feed\n"
         "link=https://news.example/de/artikel/naechster a\n"
         "link=https://news.example/kommentare a\n"
         "link=https://news.example/de/karte/nord a\n"
         "-link=https://news.example/inside-picture\n"
         "-link=https://news.example/inside-audio\n"
         "-link=https://news.example/inside-object\n"
         "-link=https://news.example/favicon.ico\n"},
        {"microdata video in Latin-1", "microdata.html", NULL, 0, NULL,
         "title=microdata:Microdata video name\n"
         "description=microdata:Microdata description.\n"
         "author=microdata:Mia Keller\n"
         "published=microdata:2022-07-01\n"
         "thumbnail=microdata:https://site.example/thumbs/m.jpg\n"
         "schema_type=microdata:VideoObject\n"
         "duration=microdata:PT1H2M3S\nduration_s=3723\n"
         "views=microdata:1234567\n"
         "tags=café:microdata|music:microdata\n"
         "charset=html:WINDOWS-1252\n"},
        {"feed links: RSS, Atom and JSON Feed; other alternates are none", NULL,
         "<link rel=alternate type=application/feed+json href=/feed.json>"
         "<link rel=alternate type=APPLICATION/RSS+XML href=/feed.rss>"
         "<link rel=alternate type=application/json href=/data.json>"
         "<link rel=alternate href=/fr/>",
         0, NULL,
         "link=https://site.example/feed.json alternate feed\n"
         "link=https://site.example/feed.rss alternate feed\n"
         "link=https://site.example/data.json alternate\n"
         "link=https://site.example/fr/ alternate\n"},
        {"title tag beats JSON-LD and h1", NULL,
         "<title> Plain   title </title><h1>Heading</h1>"
         "<script type=application/ld+json>{\"@type\":\"Article\","
         "\"headline\":\"LD\"}</script>",
         0, NULL, "title=title:Plain title\n"},
        {"JSON-LD headline beats a lone h1", NULL,
         "<h1>Heading</h1><script type=application/ld+json>{\"@type\":"
         "\"Article\",\"name\":\"LD name\"}</script>",
         0, NULL, "title=jsonld:LD name\n"},
        {"lone h1 is the last resort", NULL,
         "<body><h1>Only <b>heading</b></h1>", 0, NULL,
         "title=h1:Only heading\n"},
        {"two h1: none is the title", NULL, "<h1>One</h1><h1>Two</h1>", 0, NULL,
         "-title\n"},
        {"svg title is not the page title", NULL,
         "<body><svg><title>Icon</title></svg><title>Real</title>", 0, NULL,
         "title=title:Real\n"},
        {"math title is not the page title either", NULL,
         "<math><title>F</title></math>", 0, NULL, "-title\n"},
        {"og via name=, upper-case keys; first og:title wins", NULL,
         "<meta NAME=\"OG:TITLE\" content=\"Upper\">"
         "<meta property=og:title content=Second>",
         0, NULL, "title=og:Upper\n"},
        {"Dublin Core description and title", NULL,
         "<meta name=dc.title content=\"DC title\">"
         "<meta name=dcterms.abstract content=\"DC abstract\">",
         0, NULL, "title=meta:DC title\ndescription=meta:DC abstract\n"},
        /* Two copies of one summary, one cut short: the fuller is kept. */
        {"a fuller meta description beats og:description cut short", NULL,
         "<meta property=og:description content=\"One two thr\xE2\x80\xA6\">"
         "<meta name=twitter:description content=\"Other\">"
         "<meta name=description content=\"One two three four.\">",
         0, NULL, "description=meta:One two three four.\n"},
        {"a cut copy after the fuller one keeps the fuller", NULL,
         "<meta name=description content=\"One two three four.\">"
         "<meta property=og:description content=\"One two [...]\">"
         "<meta name=twitter:description content=\"Other\">",
         0, NULL, "description=meta:One two three four.\n"},
        {"the copies may differ in quotes, dashes and ellipses", NULL,
         "<meta property=og:description content=\"Er sagt \xE2\x80\x9EHallo"
         " \xE2\x80\xA6\xE2\x80\x9C \xE2\x80\x93 und \xE2\x80\xA6\">"
         "<meta name=description content='Er sagt \"Hallo ...\"  - und geht.'>",
         0, NULL, "description=meta:Er sagt \"Hallo ...\" - und geht.\n"},
        {"a different text is no fuller copy; nor the same cut", NULL,
         "<meta property=og:description content=\"One two...\">"
         "<meta name=description content=\"One two\xE2\x80\xA6\">"
         "<meta name=dc.description content=\"One three and more\">",
         0, NULL, "description=og:One two...\n"},
        {"an article's whole text is no fuller copy of its summary", NULL,
         "<meta property=og:description content=\"Word Word...\">"
         "<div itemscope><div itemprop=description>" WORDS_205 "</div></div>",
         0, NULL, "description=og:Word Word...\n"},
        {"\"[...]\" and an ellipsis are the same cut", NULL,
         "<meta property=og:description content=\"One two \xE2\x80\xA6\">"
         "<meta name=description content=\"One two [...]\">",
         0, NULL, "description=og:One two \xE2\x80\xA6\n"},
        {"tags: video:tag, keywords split on ';', case-folded duplicates", NULL,
         "<meta property=video:tag content=\"Jazz\">"
         "<meta name=keywords content=\"jazz; Live Music ;;  Ελλάδα\">"
         "<div itemscope><meta itemprop=keywords content=\"LIVE MUSIC\">"
         "</div>",
         0, NULL, "tags=jazz:og|live music:meta|ελλάδα:meta\n"},
        {"a microdata keywords list gives one tag per item or link", NULL,
         "<div itemscope><ul itemprop=keywords class=tags>"
         "<li><a href=/c/linux>linux</a></li><li>tmux, vim</li></ul>"
         "<p itemprop=keywords><a href=/t/a>Open data</a> "
         "<a href=/t/b>Maps</a></p><p itemprop=keywords>one <b>phrase</b>"
         "</p></div>",
         0, NULL,
         "tags=linux:microdata|tmux:microdata|vim:microdata|"
         "open data:microdata|maps:microdata|one phrase:microdata\n"},
        {"legacy interactionCount UserPlays", NULL,
         "<script type=application/ld+json>{\"@type\":\"VideoObject\","
         "\"interactionCount\":\"UserPlays:4321\"}</script>",
         0, NULL, "views=jsonld:4321\n"},
        {"interactionStatistic count as string with separators", NULL,
         "<script type=application/ld+json>{\"@type\":\"VideoObject\","
         "\"interactionStatistic\":{\"@type\":\"InteractionCounter\","
         "\"interactionType\":\"ViewAction\",\"userInteractionCount\":"
         "\"7,890\"}}</script>",
         0, NULL, "views=jsonld:7890\n"},
        {"decimal views are not a count", NULL,
         "<script type=application/ld+json>{\"@type\":\"VideoObject\","
         "\"interactionCount\":\"1.5\"}</script>",
         0, NULL, "-views\n"},
        {"microdata interactionCount with a space separator", NULL,
         "<div itemscope><meta itemprop=interactionCount content=\"5 678\">"
         "</div>",
         0, NULL, "views=microdata:5678\n"},
        {"visible view text is never scraped", NULL,
         "<p class=views>1.2M views</p><span>12,345 views</span>", 0, NULL,
         "-views\n"},
        {"JSON-LD: arrays of blocks, @type array, comments, trailing comma",
         NULL,
         "<script type=\"application/ld+json\">[{\"@type\":\"Person\","
         "\"name\":\"P\"}, /* c */ {\"@type\":[\"Thing\",\"Episode\"],"
         "\"name\":\"Ep\",}]</script>",
         0, NULL, "title=jsonld:Ep\nschema_type=jsonld:Thing\njsonld=1/0\n"},
        {"JSON-LD mainEntity of a WebPage", NULL,
         "<script type=application/ld+json>{\"@type\":\"WebPage\",\"name\":"
         "\"Page\",\"mainEntity\":{\"@type\":\"Movie\",\"name\":\"Film\","
         "\"duration\":\"PT1H\"}}</script>",
         0, NULL, "title=jsonld:Film\nduration_s=3600\n"},
        {"JSON-LD deeper than json-c's default limit", NULL,
         "<script type=application/ld+json>{\"@type\":\"VideoObject\","
         "\"name\":\"Deep\",\"x\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["
         "]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}</script>",
         0, NULL, "title=jsonld:Deep\njsonld=1/0\n"},
        {"broken JSON-LD skipped and counted", NULL,
         "<script type=application/ld+json>{\"name\": oops</script>"
         "<script type=application/ld+json></script>",
         0, NULL, "jsonld=2/2\n-title\n"},
        /* Wrapped JSON-LD bodies: the JSON inside is read. */
        {"JSON-LD in an HTML comment", NULL,
         "<script type=application/ld+json><!-- {\"@type\":\"Article\","
         "\"name\":\"In comment\"} --></script>",
         0, NULL, "title=jsonld:In comment\njsonld=1/0\n"},
        {"JSON-LD in a //-commented CDATA section", NULL,
         "<script type=application/ld+json>\n//<![CDATA[\n{\"@type\":"
         "\"Article\",\"name\":\"Slashed\"}\n//]]>\n</script>",
         0, NULL, "title=jsonld:Slashed\njsonld=1/0\n"},
        {"JSON-LD in a bare CDATA section", NULL,
         "<script type=application/ld+json><![CDATA[{\"@type\":\"Article\","
         "\"name\":\"Bare\"}]]></script>",
         0, NULL, "title=jsonld:Bare\njsonld=1/0\n"},
        {"JSON-LD in a /* */-commented CDATA section", NULL,
         "<script type=application/ld+json>/*<![CDATA[*/{\"@type\":"
         "\"Article\",\"name\":\"Starred\"}/*]]>*/</script>",
         0, NULL, "title=jsonld:Starred\njsonld=1/0\n"},
        {"JSON-LD after a BOM, before a stray semicolon", NULL,
         "<script type=application/ld+json>\xEF\xBB\xBF {\"@type\":"
         "\"Article\",\"name\":\"Bommed\"};\n</script>",
         0, NULL, "title=jsonld:Bommed\njsonld=1/0\n"},
        {"JSON-LD after leading junk", NULL,
         "<script type=application/ld+json>;;\n[{\"@type\":\"Article\","
         "\"name\":\"Junk first\"}] ;</script>",
         0, NULL, "title=jsonld:Junk first\njsonld=1/0\n"},
        {"JSON-LD wrappers with nothing inside are errors, not values", NULL,
         "<script type=application/ld+json><!-- --></script>"
         "<script type=application/ld+json><![CDATA[]]></script>"
         "<script type=application/ld+json>//<![CDATA[ name ]]></script>"
         "<script type=application/ld+json>\xEF\xBB\xBF;</script>",
         0, NULL, "jsonld=4/4\n-title\n"},
        /* rel=tag link texts: tags only when nothing declares any. */
        {"rel=tag links alone give the tags", NULL,
         "<article><p>Filed under <a rel=tag href=/t/a>Alpha</a>, "
         "<a rel=\"nofollow tag\" href=/t/b> Beta  Gamma </a>, "
         "<a rel=tag href=/t/a2>ALPHA</a>, <a href=/t/c>Not a tag</a>"
         "</article>",
         0, NULL, "tags=alpha:html|beta gamma:html\n"},
        {"rel=tag links to categories are no tags", NULL,
         "<article><a rel=\"category tag\" href=/c/news>News</a>"
         "<a rel=tag href=\"/category/misc/?x\">Misc</a>"
         "<a rel=tag href=/blog/categories/b>B</a>"
         "<a rel=tag href=\"/?p=1&amp;cat=81\">C</a>"
         "<a rel=tag href=\"/?cat=82\">D</a>"
         "<a rel=tag href=\"/?tag=gamma\">Gamma</a>"
         "<a rel=tag href=/tag/alpha>Alpha</a>"
         "<a rel=tag href=\"/tag/beta?from=/category/x/\">Beta</a>"
         "</article>",
         0, NULL, "tags=gamma:html|alpha:html|beta:html\n"},
        {"tag archive links inside the article are its tags", NULL,
         "<aside><a href=/tag/cloud>Cloud</a></aside><nav><a "
         "href=/tags/menu>Menu</a></nav><article><p>Themen: <a "
         "href=https://x.example/tag/funk/>Funk,</a> <a "
         "href=\"/blog/tags/tooling?p=1\">tooling</a> <a "
         "href=/category/news/tag/>News</a> <a href=/tagged/x>X</a>"
         "<aside><a href=/tag/related>Related</a></aside></article>"
         "<footer><a href=/tag/foot>Foot</a></footer>",
         0, NULL, "tags=funk:html|tooling:html\n"},
        {"a keyword the page links as its category and no tag is none", NULL,
         "<meta property=dc:subject content=Artikel><meta property="
         "dc:subject content=Datenschutz><meta name=keywords content="
         "\"Arduino, Vook\"><article><a rel=\"category tag\" href=/c/x>"
         "Artikel</a> <a rel=tag href=/tag/datenschutz>Datenschutz</a> "
         "<a rel=tag href=/tag/arduino>Arduino</a> <a rel=\"category tag\""
         " href=/category/arduino>Arduino</a></article>",
         0, NULL, "tags=datenschutz:meta|arduino:meta|vook:meta\n"},
        {"without tag links, a category keeps its keyword", NULL,
         "<meta property=article:tag content=linux><meta property="
         "article:tag content=tmux><a rel=tag href=/categories/linux>"
         "linux</a><a rel=\"category tag\" href=/c/t>tmux</a>",
         0, NULL, "tags=linux:og|tmux:og\n"},
        {"rel=tag links stay when the declared keywords are empty", NULL,
         "<meta name=keywords content=\" , \"><a rel=tag href=/t/a>Alpha"
         "</a>",
         0, NULL, "tags=alpha:html\n"},
        {"rel=tag links yield to meta keywords before them", NULL,
         "<meta name=keywords content=\"x, y\"><a rel=tag href=/t/a>Alpha"
         "</a>",
         0, NULL, "tags=x:meta|y:meta\n"},
        {"rel=tag links yield to article:tag after them", NULL,
         "<a rel=tag href=/t/a>Alpha</a><a rel=tag href=/t/b>Beta</a>"
         "<meta property=article:tag content=Late>",
         0, NULL, "tags=late:og\n"},
        {"rel=tag links yield to JSON-LD keywords, applied last", NULL,
         "<script type=application/ld+json>{\"@type\":\"Article\","
         "\"keywords\":\"z\"}</script><a rel=tag href=/t/a>Alpha</a>",
         0, NULL, "tags=z:jsonld\n"},
        /* <time datetime>: the published date of last resort. */
        {"time datetime in the article beats one before it", NULL,
         "<body><nav><time datetime=2020-01-01>old</time></nav><article>"
         "<h1>T</h1><time datetime=\"2024-05-06T07:08:09+02:00\">May 6"
         "</time></article><time datetime=2021-01-01>x</time></body>",
         0, NULL,
         "published=html:2024-05-06T07:08:09+02:00\npublished_s=1714972089\n"},
        {"a time inside an edit line dates the edit", NULL,
         "<article><span class=created>Created <time datetime="
         "2020-10-18T21:30:35Z pubdate>Sunday</time>.</span> <span class="
         "edited><a href=/h>Edited <time datetime=2020-10-19T10:00:00Z>"
         "Monday</time>.</a></span></article>",
         0, NULL,
         "published=html:2020-10-18T21:30:35Z\n"
         "modified=html:2020-10-19T10:00:00Z\n"},
        {"a time whose own class says updated is still the post's", NULL,
         "<article><time class=\"entry-date published updated\" "
         "datetime=2021-01-02>Jan 2</time></article>",
         0, NULL, "published=html:2021-01-02\nmodified=html:2021-01-02\n"},
        {"time datetime in main beats one in the body", NULL,
         "<body><header><time datetime=2020-01-01>x</time></header><main>"
         "<time datetime=2022-02-02>y</time></main></body>",
         0, NULL, "published=html:2022-02-02\n"},
        {"time datetime: the first in the body, non-dates skipped", NULL,
         "<body><p><time datetime=PT2H>2 h</time><time datetime=10:00>t"
         "</time><time>2019-01-01</time><time datetime=\"2023-03-04\">a"
         "</time><time datetime=2023-09-09>b</time></body>",
         0, NULL, "published=html:2023-03-04\n"},
        {"time pubdate beats the article's first time", NULL,
         "<article><time datetime=2020-01-01>c</time><time pubdate "
         "datetime=2024-04-04>p</time></article>",
         0, NULL, "published=html:2024-04-04\n"},
        {"time pubdate in an article after the page's first is a listed "
         "post's",
         NULL,
         "<article><p><time datetime=2019-06-28>28 juin</time></p></article>"
         "<div class=secondary><article><p>Le <time datetime=2019-09-22 "
         "pubdate>22 septembre</time></p></article></div>",
         0, NULL, "published=html:2019-06-28\n"},
        {"time pubdate in the first of two articles still comes first", NULL,
         "<article><time datetime=2020-01-01>c</time><time pubdate "
         "datetime=2024-04-04>p</time></article><article>x</article>",
         0, NULL, "published=html:2024-04-04\n"},
        {"time datetime yields to every meta publication date", NULL,
         "<meta name=pubdate content=2023-01-01><article><time datetime="
         "2024-05-06>x</time></article>",
         0, NULL, "published=meta:2023-01-01\n"},
        {"time datetime is never a modified date, nor read in svg", NULL,
         "<svg><time datetime=2024-05-06>x</time></svg>", 0, NULL,
         "-published\n-modified\n"},
        {"fractional seconds kept in published and modified", NULL,
         "<meta property=article:published_time content="
         "\"2024-03-05T10:00:00.123456+01:00\"><meta property="
         "article:modified_time content=\"2024-03-06T08:00:00.5Z\">",
         0, NULL,
         "published=og:2024-03-05T10:00:00.123456+01:00\npublished_s="
         "1709629200\n"
         "modified=og:2024-03-06T08:00:00.5Z\n"},
        {"author: article:author URL rejected, name kept", NULL,
         "<meta property=article:author content=\"https://fb.example/x\">"
         "<meta property=article:author content=\"Jane Doe\">",
         0, NULL, "author=og:Jane Doe\n"},
        {"language from og:locale beats Content-Language", NULL,
         "<meta property=og:locale content=fr_FR>", 0, "Content-Language: de",
         "language=og:fr-FR\n"},
        {"language from the HTTP header", NULL, "<p>x", 0,
         "Content-Language: nl-BE, en", "language=http:nl-BE\n"},
        {"og duration of 00:00 is no duration", NULL,
         "<meta property=video:duration content=\"00:00\">", 0, NULL,
         "-duration\n"},
        {"og:video duration in seconds", NULL,
         "<meta property=og:video:duration content=\"754\">", 0, NULL,
         "duration=og:754\nduration_s=754\n"},
        {"published from htmldate's meta names: Scholar's 2021/07/03", NULL,
         "<meta name=citation_publication_date content=\"2021/07/03\">"
         "<meta name=parsely-pub-date content=\"2021-07-04T10:00:00Z\">",
         0, NULL, "published=meta:2021-07-03\n"},
        {"twitter card image and url", NULL,
         "<meta name=twitter:image content=\"/t.png\">"
         "<meta name=twitter:url content=\"https://site.example/c\">",
         0, NULL,
         "thumbnail=twitter:https://site.example/t.png\n"
         "canonical=twitter:https://site.example/c\n"},
        {"meta robots none, meta name=heed, other agents ignored", NULL,
         "<meta name=robots content=\"NONE\">"
         "<meta name=heed content=\"nosnippet, unavailable_after: "
         "2030-01-01\">"
         "<meta name=googlebot content=noimageindex>",
         0, NULL, "robots=noindex nofollow nosnippet until=1893456000 \n"},
        {"X-Robots-Tag: generic, agent-prefixed and RFC 850 date", NULL, "<p>",
         0,
         "X-Robots-Tag: noarchive, heed: noindex\n"
         "X-Robots-Tag: unavailable_after: Sunday, 06-Nov-94 08:49:37 GMT, "
         "max-snippet: 50\n"
         "X-Robots-Tag: otherbot: nofollow",
         "robots=noindex noarchive max-snippet=50 until=784111777 \n"},
        {"links: base href applies to earlier links, fragments cut", NULL,
         "<a href=\"a#x\">a</a><base href=\"https://other.example/b/\">"
         "<a href=\"../c\">c</a><a href=\"#top\">top</a>",
         0, NULL,
         "link=https://other.example/b/a a\n"
         "link=https://other.example/c a\n"},
        {"links: duplicate merges nofollow with AND", NULL,
         "<a href=/x rel=nofollow>1</a><a href=/x>2</a><a href=/y "
         "rel=nofollow>3</a>",
         0, NULL,
         "link=https://site.example/x a\nlink=https://site.example/y a "
         "nofollow\n"},
        {"links: media elements and media files never returned", NULL,
         "<img src=/i.jpg><video src=/v.webm><a href=/in-video>x</a></video>"
         "<a href=/song.MP3>s</a><a href=\"/doc.pdf\">d</a>"
         "<a href=/list.m3u8?x=1>l</a><a href=/f.Woff2>f</a>"
         "<a href=/p.html>p</a><a href=/a.jpegjpeg>j</a>"
         "<a href=/in.jpg/x>x</a><a href=/end.>e</a>",
         0, NULL,
         "link=https://site.example/doc.pdf a\n"
         "-link=https://site.example/in-video\n"
         "-link=https://site.example/song.MP3\n"
         "-link=https://site.example/list.m3u8?x=1\n"
         "-link=https://site.example/f.Woff2\n"
         "link=https://site.example/p.html a\n"
         "link=https://site.example/a.jpegjpeg a\n"
         "link=https://site.example/in.jpg/x a\n"
         "link=https://site.example/end. a\n"},
        {"script strings do not make links", NULL,
         "<script>var a = \"<a href='/in-script'>\"; if (a<b) {}</script>"
         "<a href=/real>r</a>",
         0, NULL,
         "link=https://site.example/real a\n"
         "-link=https://site.example/in-script\n"},
        /* libxml2 2.9 ended the title at the next tag. HTML 13.2.6.4.4
         * reads <title> with the generic RCDATA element parsing algorithm
         * and 13.2.5.2 leaves RCDATA only at </title>: as in browsers,
         * the rest of the page is the title. */
        {"HTML 13.2.5.2: an unclosed title holds the rest of the page", NULL,
         "<title>Broken<meta name=description content=Kept><a href=/z>z</a>", 0,
         NULL,
         "title=title:Broken<meta name=description content=Kept><a "
         "href=/z>z</a>\n-description\n-link\n"},
        {"NUL in an attribute does not lose later links", NULL, NUL_PAGE,
         sizeof(NUL_PAGE) - 1, NULL,
         "link=https://site.example/after a\n"
         "description=meta:d\xEF\xBF\xBD"
         "e\n"},
        {"invalid UTF-8 stays local", NULL,
         "<title>caf\xC3 ok</title><meta name=description "
         "content=\"\xC3\xA9t\xC3\xA9\">",
         0, "Content-Type: text/html; charset=utf-8",
         "title=title:caf\xEF\xBF\xBD ok\n"
         "description=meta:\xC3\xA9t\xC3\xA9\n"},
        {"header charset wins over the page's meta", NULL,
         "<meta charset=iso-8859-1><title>\xC3\xA9t\xC3\xA9</title>", 0,
         "Content-Type: text/html; charset=UTF-8",
         "title=title:\xC3\xA9t\xC3\xA9\ncharset=http:UTF-8\n"},
        {"unknown header charset: the page's meta decides", NULL,
         "<meta charset=windows-1252><title>\x80</title>", 0,
         "Content-Type: text/html; charset=x-unknown",
         "title=title:\xE2\x82\xAC\ncharset=html:WINDOWS-1252\n"},
        {"windows-1252 from http-equiv", NULL,
         "<meta http-equiv=Content-Type content=\"text/html; "
         "charset=windows-1252\"><title>\x93quoted\x94 \x80</title>",
         0, NULL, "title=title:\xE2\x80\x9Cquoted\xE2\x80\x9D \xE2\x82\xAC\n"},
        {"undeclared Latin-1 guessed", NULL, "<title>Caf\xE9</title>", 0, NULL,
         "title=title:Caf\xC3\xA9\n"},
        {"UTF-16LE with BOM", NULL, UTF16_PAGE, sizeof(UTF16_PAGE) - 1, NULL,
         "title=title:OK\n"},
        /* The tree rules of HTML 13.2.6 that decide where a capture
         * ends (tests/unit/test_htmltok.c has the tokenizer's own). */
        {"HTML 13.2.6.4.7: a new li closes the open li and its a", NULL,
         "<ul><li><a rel=tag href=/a>One<li>Two</ul>", 0, NULL,
         "tags=one:html\n"},
        {"HTML 13.2.6.4.7: a block start tag closes an open p", NULL,
         "<div itemscope><p itemprop=name>Name<div>Not it</div></div>", 0, NULL,
         "title=microdata:Name\n"},
        {"HTML 13.2.4.2: a p hidden by a button (button scope) stays open",
         NULL,
         "<div itemscope><p itemprop=name>Name<button>B<div>in button</div>"
         "</button>end</p></div>",
         0, NULL, "title=microdata:NameBin buttonend\n"},
        {"HTML 13.2.6.4.7: a misplaced <html> lends the root its lang", NULL,
         "<div><html lang=fr><p>x</p></div>", 0, NULL, "language=html:fr\n"},
        {"HTML 13.2.6.4.7: dd closes dt, option closes option", NULL,
         "<dl itemscope><dt itemprop=name>Term<dd>Def</dl>"
         "<select><option>a<option>b</select>",
         0, NULL, "title=microdata:Term\n"},
        {"HTML 13.2.6.4.7: end tag of an unopened element is ignored", NULL,
         "<h1>One</span>Two</h1>", 0, NULL, "title=h1:OneTwo\n"},
        {"HTML 13.2.6.4.7: </p> without p does not close the h1", NULL,
         "<h1>One</p>Two</h1>", 0, NULL, "title=h1:OneTwo\n"},
        {"HTML 13.2.6.4.9: a new cell closes the open cell", NULL,
         "<table><tr><td itemscope><span itemprop=name>Cell<td>Next"
         "</table>",
         0, NULL, "title=microdata:Cell\n"},
        {"HTML 13.2.6.5: a breakout tag leaves an unclosed svg", NULL,
         "<svg><g><p><a href=/out>o</a><title>Real</title>", 0, NULL,
         "title=title:Real\nlink=https://site.example/out a\n"},
        {"HTML 13.2.6.5: svg title is not RCDATA, its links are foreign", NULL,
         "<svg><title><a href=/in>x</a></title></svg><a href=/o>o</a>", 0, NULL,
         "link=https://site.example/o a\n-link=https://site.example/in\n"},
        {"HTML 13.2.5.2: title text keeps its markup as text", NULL,
         "<title>A &amp; <a href=/in>B</a></title>", 0, NULL,
         "title=title:A & <a href=/in>B</a>\n"
         "-link=https://site.example/in\n"},
        {"HTML 13.2.6.4.7: self-closing a is an open a", NULL,
         "<a rel=\"tag\" href=\"/t\"/>Jazz</a>", 0, NULL, "tags=jazz:html\n"},
        {"HTML 13.2.6.4.7: a link in a link ends the outer one past a div",
         NULL,
         "<div><a href=/user/ann><div><div><a href=/user/ann><img alt=Ann "
         "src=/a.jpg></a></div><div><span>von <span><a href=/user/ann>Ann"
         "</a></span>\n<br>\nam 20.09.2020</span></div></div></a></div><div>"
         "<a href=/tip/2>Other tip</a><span>von </span><span><a "
         "href=/user/desk>Desk</a></span></div>",
         0, NULL, "author=html:Ann\n"},
        {"HTML 13.2.6.4.7: an author link a nested link ends keeps its text",
         NULL,
         "<div><a href=/user/ann rel=author><div><span>von <a "
         "href=/user/ann>Ann Lee</a></span></div></a></div><p>Text.</p>",
         0, NULL, "author=link:Ann Lee\n"},
        {"HTML 13.2.6.4.4: noscript is raw text with scripting on", NULL,
         "<noscript><a href=/ns>x</a></noscript><a href=/s>s</a>", 0, NULL,
         "link=https://site.example/s a\n-link=https://site.example/ns\n"},
        {"HTML 13.2.5.4: a script's \"</div>\" and \"<!--\" are script", NULL,
         "<script type=application/ld+json>{\"@type\":\"Article\","
         "\"name\":\"</div><!--<script>x</script>-->\"}</script>",
         0, NULL, "title=jsonld:</div><!--<script>x</script>-->\n"},
        {"news article: JSON-LD authors and dates, title cut at the site",
         "news.html", NULL, 0, NULL,
         "title=title:Harbour bridge reopens after two years\n"
         "site_name=og:The Coastal Courier\n"
         "publisher=jsonld:Coastal Courier Ltd\n"
         "author=jsonld:Maria Okafor; Tom Haines\n"
         "authors=Maria Okafor:jsonld|Tom Haines:jsonld\n"
         "published=jsonld:2024-04-02T07:30:00+01:00\n"
         "modified=jsonld:2024-04-02T11:05:00+01:00\n"
         "thumbnail=og:https://site.example/img/bridge-1200.jpg\n"
         "language=html:en-GB\n"},
        {"news article without JSON-LD: rel=author links, theme dates", NULL,
         "<title>Bridge reopens | Courier</title>"
         "<meta property=og:site_name content=Courier>"
         "<meta name=twitter:creator content=@desk>"
         "<article><header><p class=byline>By <a rel=author href=/m>Maria "
         "Okafor</a> and <a rel=author href=/t>Tom Haines</a></p>"
         "<time class=published datetime=2024-04-02T07:30:00+01:00>2 "
         "April</time></header></article>"
         "<aside><div class=author>Jo Bloggs</div></aside>",
         0, NULL,
         "title=title:Bridge reopens\n"
         "publisher=og:Courier\n"
         "author=link:Maria Okafor; Tom Haines\n"
         "authors=Maria Okafor:link|Tom Haines:link\n"
         "published=html:2024-04-02T07:30:00+01:00\n"},
        {"blog post: byline class, entry-date and updated, image_src, "
         "\"Site: Title\"",
         "blog.html", NULL, 0, NULL,
         "title=title:Sourdough in a cold kitchen\n"
         "site_name=meta:Notes from the Pantry\n"
         "publisher=meta:Notes from the Pantry\n"
         "author=html:Priya Raman\n"
         "authors=Priya Raman:html\n"
         "published=html:2023-11-14T08:00:00Z\n"
         "modified=html:2023-12-01T19:45:10Z\n"
         "thumbnail=link:https://site.example/wp-content/uploads/loaf.jpg\n"
         "tags=bread:html\n"},
        {"video page: a byline name beats the channel's twitter handle",
         "video-handle.html", NULL, 0, NULL,
         "title=title:Kite surfing at dawn\n"
         "site_name=meta:StreamBay\n"
         "publisher=meta:StreamBay\n"
         "author=microdata:Lena Fischer\n"
         "authors=Lena Fischer:microdata\n"
         "published=jsonld:2024-06-01T05:00:00Z\n"
         "thumbnail=twitter:https://i.streambay.example/v/77/max.jpg\n"
         "schema_type=jsonld:VideoObject\n"},
        {"a title whose separators are its own stays whole", "title-sep.html",
         NULL, 0, NULL,
         "title=title:Tom & Jerry - The Movie | Review: 3/5 - Film Club\n"
         "site_name=og:Reel Notes\n"
         "publisher=og:Reel Notes\n"
         "author=meta:Sam Lee; Ana Ruiz\n"
         "authors=Sam Lee:meta|Ana Ruiz:meta\n"},
        {"a question's asked time dates it, not its edit's link", NULL,
         "<td class=post-signature><div class=user-action-time><a "
         "href=/posts/1/revisions>edited <span title=\"2011-09-02 "
         "05:04:59Z\" class=relativetime>Sep 2 '11 at 5:04</span></a>"
         "</div></td><td class=\"post-signature owner\"><div "
         "class=user-action-time>asked <span title=\"2010-08-24 "
         "05:01:23Z\" class=relativetime>Aug 24 '10 at 5:01</span></div>"
         "</td>",
         0, NULL, "published=html:2010-08-24T05:01:23Z\n"},
        {"a paper's key words line gives the tags", NULL,
         "<meta name=keywords content=\"\"><h2>Novel ribs</h2><p "
         "id=keywords><strong>Key words:</strong> Sauropoda, Dinosauria, "
         "costal pneumaticity.</p>",
         0, NULL,
         "tags=sauropoda:html|dinosauria:html|costal pneumaticity:html\n"},
        {"key words and their list in one text", NULL,
         "<p>Schlagw\xC3\xB6rter: Wald; Jagd</p>", 0, NULL,
         "tags=wald:html|jagd:html\n"},
        {"no key words where the page declares its keywords, nor in a "
         "sentence",
         NULL,
         "<meta name=keywords content=ribs><p><b>Keywords:</b> Ribs, "
         "Bones</p>",
         0, NULL, "tags=ribs:meta\n"},
        {"a paragraph after an empty key words label gives no tags", NULL,
         "<p><b>Keywords:</b></p><p>This paragraph opens the article and "
         "runs on well past the length of any key word</p>",
         0, NULL, "-tags\n"},
        {"a keyword in a sentence is no label", NULL,
         "<p>Keywords matter: a, b</p>", 0, NULL, "-tags\n"},
        {"a journal's dc.contributor list credits every author, after a "
         "byline that names the first",
         NULL,
         "<meta name=dc.contributor content=\"Matthew J Kourakis\">"
         "<meta name=dc.contributor content=\"Cezar Borba\">"
         "<meta name=dc.contributor content=\"Angela Zhang\">"
         "<header><span class=content-header__author>Matthew J "
         "Kourakis</span></header>",
         0, NULL,
         "authors=Matthew J Kourakis:meta|Cezar Borba:meta|Angela "
         "Zhang:meta\n"},
        {"dc.creator outranks dc.contributor", NULL,
         "<meta name=dc.contributor content=\"Ed Itor\">"
         "<meta name=dc.creator content=\"Ann Lee\">",
         0, NULL, "authors=Ann Lee:meta\n"},
        {"no declared site name: a suffix that spells the domain is cut", NULL,
         "<title>Local news \xE2\x80\x94 SITE</title>", 0, NULL,
         "title=title:Local news\nsite_name=title:SITE\n"
         "publisher=title:SITE\n"},
        {"no declared site name: any other suffix stays", NULL,
         "<title>Rock - Paper</title><title>x</title>", 0, NULL,
         "title=title:Rock - Paper\n-site_name\n-publisher\n"},
        {"the page's heading settles the cut, and names the site", NULL,
         "<title>Gone fishing \xE2\x80\x93 jovelblog</title>"
         "<article><h2>Gone fishing</h2></article>",
         0, NULL,
         "title=title:Gone fishing\nsite_name=title:jovelblog\n"
         "publisher=title:jovelblog\n"},
        {"an example's dates and names are not the page's", NULL,
         "<article><h1>Logging</h1><pre><code>2005-03-19 15:10:26,618 - "
         "INFO - started\nCopyright 2008 John Smith</code></pre>"
         "<p><code>12 March 2019</code></p></article>",
         0, NULL, "-published\n-authors\n"},
        {"a heading's permalink pilcrow is no word of it", NULL,
         "<title>Basic use \xE2\x80\x94 Python 3.11 documentation</title>"
         "<h1>Basic use<a class=headerlink href=#basic-use>\xC2\xB6</a>"
         "</h1>",
         0, NULL, "title=title:Basic use\n"},
        {"an icon font's permalink glyph is no word of a heading", NULL,
         "<title>Intro \xE2\x80\x94 BIND 9 9.18.49 documentation</title>"
         "<h1>Intro<a class=headerlink href=#intro>\xEF\x83\x81</a></h1>",
         0, NULL,
         "title=title:Intro\nsite_name=title:BIND 9 9.18.49 documentation\n"
         "publisher=title:BIND 9 9.18.49 documentation\n"},
        {"a documentation set's name after the title names the site, "
         "though longer",
         NULL,
         "<title>json \xE2\x80\x94 Python 3.11.2 documentation</title>"
         "<h1>json</h1>",
         0, NULL,
         "title=title:json\nsite_name=title:Python 3.11.2 documentation\n"
         "publisher=title:Python 3.11.2 documentation\n"},
        {"a longer part after the title that names no set names no site", NULL,
         "<title>Gone fishing \xE2\x80\x93 a story of one long summer by "
         "the lake</title><h2>Gone fishing</h2>",
         0, NULL, "title=title:Gone fishing\n-site_name\n-publisher\n"},
        {"a masthead heading that reads the set's name: the title is the "
         "part before it",
         NULL,
         "<title>URL | Node.js v18.20.4 Documentation</title>"
         "<h1>Node.js v18.20.4 documentation</h1>",
         0, NULL,
         "title=title:URL\npublisher=title:Node.js v18.20.4 Documentation\n"},
        {"a masthead heading that reads a plain name does not cut the title",
         NULL, "<title>Short story | Tales</title><h1>Tales</h1>", 0, NULL,
         "title=title:Short story | Tales\n"},
        {"a heading that says what the title part is", NULL,
         "<title>match - Rust</title><h1>Keyword match</h1>", 0, NULL,
         "title=title:match\npublisher=title:Rust\n"},
        {"a heading ending in the title part after three words does not "
         "cut it",
         NULL, "<title>Tips - Travel</title><h1>Our best travel tips</h1>", 0,
         NULL, "title=title:Tips - Travel\n-publisher\n"},
        {"the masthead heading names the site after a shorter title", NULL,
         "<title>What is Ownership? - The Rust Programming Language</title>"
         "<h1>The Rust Programming Language</h1><h2>What Is Ownership?</h2>",
         0, NULL,
         "title=title:What is Ownership?\n"
         "publisher=title:The Rust Programming Language\n"},
        {"a documentation set's name before the page's is cut off", NULL,
         "<title> Postfix manual - postscreen(8) </title><pre>NAME</pre>", 0,
         NULL,
         "title=title:postscreen(8)\nsite_name=title:Postfix manual\n"
         "publisher=title:Postfix manual\n"},
        {"a set's word alone, or no set's word, before the title is kept", NULL,
         "<title>Manual - Installing</title><p>Text.</p>", 0, NULL,
         "title=title:Manual - Installing\n-publisher\n"},
        {"texinfo's \"Node (manual)\" is the node the heading reads", NULL,
         "<title>15 Parameters (zsh)</title><h1 class=chapter>15 "
         "Parameters</h1><h2>15.1 Description</h2>",
         0, NULL, "title=title:15 Parameters\n-site_name\n-publisher\n"},
        {"a bracket after the heading's words that names no manual stays", NULL,
         "<title>Dune (2021)</title><h1>Dune</h1>", 0, NULL,
         "title=title:Dune (2021)\n"},
        {"the home link's title names the book a chunk belongs to", NULL,
         "<link rel=home href=index.html title=\"Securing Debian Manual\">"
         "<title>4.10. Mounting partitions</title>",
         0, NULL,
         "title=title:4.10. Mounting partitions\n"
         "site_name=link:Securing Debian Manual\n"
         "publisher=link:Securing Debian Manual\n"},
        {"the home page's link to itself names nothing", NULL,
         "<link rel=home href=index.html title=\"Libxml Tutorial\">"
         "<title>Libxml Tutorial</title>",
         0, NULL, "-site_name\n-publisher\n"},
        {"the masthead's logo linking home names the publisher", NULL,
         "<title>How SQLite Is Tested</title><div><a href=index.html><img "
         "class=logo src=banner.gif alt=SQLite></a></div><h1>1. "
         "Introduction</h1><p>Text.</p>",
         0, NULL, "publisher=html:SQLite\n-site_name\n",
         "https://sqlite.org/testing.html"},
        {"the masthead's home link in a heading names the publisher", NULL,
         "<title>31. Address rewriting</title><h1 id=header><a "
         "href=\"http://www.exim.org\">Exim Internet Mailer</a></h1><ul><li>"
         "<a href=/docs.html>Documentation</a></ul><h2>Chapter 31</h2>",
         0, NULL, "publisher=html:Exim Internet Mailer\n",
         "https://www.exim.org/exim-html-current/doc/html/spec_html/"
         "ch-address_rewriting.html"},
        {"a logo's home link from a chapter up the tree names it too", NULL,
         "<title>Release 3.40.1</title><a href=../index.html><img "
         "src=../images/logo.gif alt=SQLite></a><h1>Release</h1>",
         0, NULL, "publisher=html:SQLite\n",
         "https://sqlite.org/releaselog/3_40_1.html"},
        {"a menu's home item, a button's alt or a home word is no masthead",
         NULL,
         "<title>A post</title><ul><li><a href=/>News</a><li><a "
         "href=\"https://blog.example/\"><img src=button.gif alt=Hotels></a>"
         "</ul><h2><a href=/index.php>Startseite</a></h2><div><a href=/><img "
         "class=site-logo alt=\"Site logo\"></a></div><h1>A post</h1>",
         0, NULL, "-publisher\n", "https://blog.example/2020/a-post.html"},
        {"a link elsewhere, or home from inside the article, is no masthead",
         NULL,
         "<title>A post</title><h1><a href=\"https://other.example/\">Other"
         "</a></h1><article><h2><a href=/>Blog Name</a></h2></article>",
         0, NULL, "-publisher\n", "https://blog.example/a-post.html"},
        {"the masthead gives way to a declared name", NULL,
         "<meta property=og:site_name content=\"Blog Name\"><title>A post"
         "</title><h1><a href=/>The Blog</a></h1>",
         0, NULL, "publisher=og:Blog Name\n", "https://blog.example/a.html"},
        {"\"Site -- Title\" is cut where the site spells the domain", NULL,
         "<title>Erlang -- lists</title><h1>lists</h1>", 0, NULL,
         "title=title:lists\npublisher=title:Erlang\n",
         "https://www.erlang.org/doc/man/lists.html"},
        {"tags a CMS wrote into the <title> are not its words", NULL,
         "<title>Ribs of <em>Brachiosaurus</em> - Acta Pal</title>"
         "<h2>Ribs of <em>Brachiosaurus</em></h2>",
         0, NULL,
         "title=title:Ribs of Brachiosaurus\nsite_name=title:Acta Pal\n"
         "publisher=title:Acta Pal\n"},
        {"no-break spaces around a <title>'s separator make it one", NULL,
         "<title>Der Verband im Portr\xC3\xA4t&nbsp;&#124;&nbsp;Verband (GVB)"
         "</title>"
         "<h1></h1><h2>Der Verband im Portr\xC3\xA4t</h2>",
         0, NULL,
         "title=title:Der Verband im Portr\xC3\xA4t\n"
         "site_name=title:Verband (GVB)\n"},
        {"a '<' that opens no tag stays in the title", NULL,
         "<title>I <3 maps, x < y > z</title>", 0, NULL,
         "title=title:I <3 maps, x < y > z\n"},
        {"a meta's title, found in the <title>, names the site after it", NULL,
         "<title>java - wicket vs Vaadin - Stack Overflow</title>"
         "<meta name=twitter:title content=\"wicket vs Vaadin\">",
         0, NULL,
         "title=twitter:wicket vs Vaadin\nsite_name=title:Stack Overflow\n"
         "publisher=title:Stack Overflow\n"},
        {"a meta's title with more after it in the <title> names no site", NULL,
         "<title>Tom - Jerry - Part two of a longer series</title>"
         "<meta property=og:title content=Jerry><meta property=og:title "
         "content=x><title>Other - Site</title>",
         0, NULL, "title=og:Jerry\n-site_name\n-publisher\n"},
        {"a declared site name is not replaced by the <title>'s", NULL,
         "<title>Post - Blog</title><meta property=og:title content=Post>"
         "<meta property=og:site_name content=\"The Blog\">",
         0, NULL,
         "title=og:Post\nsite_name=og:The Blog\n"
         "publisher=og:The Blog\n"},
        {"a WordPress \"Title \xC2\xAB Site\" with its heading", NULL,
         "<title>A virtual wall \xC2\xAB Workshop</title><h1>A virtual "
         "wall</h1>",
         0, NULL, "title=title:A virtual wall\npublisher=title:Workshop\n"},
        {"a sidebar's heading settles nothing", NULL,
         "<title>Rock - Paper</title><aside><h2>Rock</h2></aside>", 0, NULL,
         "title=title:Rock - Paper\n-publisher\n"},
        {"a masthead heading after the separator is no title", NULL,
         "<title>Liver with apple | Love goes through the stomach</title>"
         "<h1>Love goes through the stomach</h1>",
         0, NULL,
         "title=title:Liver with apple | Love goes through the "
         "stomach\n"},
        {"DC.Title inside a longer <title> is the title", NULL,
         "<title>draft-dejong-remotestorage-04 - remoteStorage</title>"
         "<meta name=DC.Title content=remoteStorage>",
         0, NULL, "title=title:remoteStorage\n-publisher\n"},
        {"publisher: a feed link's title names the site", NULL,
         "<link rel=alternate type=application/atom+xml title=\"Python "
         "Insider - Atom\" href=/feeds/posts/default>",
         0, NULL,
         "publisher=link:Python Insider\nsite_name=link:Python Insider\n"},
        {"publisher: a comments feed or a bare format names nothing", NULL,
         "<link rel=alternate type=application/rss+xml title=\"RSS 2.0\" "
         "href=/feed><link rel=alternate type=application/rss+xml "
         "title=\"Blog &raquo; Post Kommentar-Feed\" href=/c/feed>",
         0, NULL, "-publisher\n-site_name\n"},
        {"publisher: any declared name beats a feed's title", NULL,
         "<link rel=alternate type=application/rss+xml title=\"jovelblog RSS "
         "Feed\" href=/feed><meta name=publisher content=\"Jovel Media\">",
         0, NULL, "publisher=meta:Jovel Media\n"},
        {"a declared name that is the whole title is no suffix", NULL,
         "<title>Courier</title><meta property=og:site_name content=Courier>",
         0, NULL, "title=title:Courier\nsite_name=og:Courier\n"},
        {"byline: date and separators after the names are dropped", NULL,
         "<main><div class=\"byline\">By Ana Lopez | 5 March 2024</div>"
         "</main>",
         0, NULL, "author=html:Ana Lopez\n"},
        {"byline: localized prefix, several names", NULL,
         "<article><span class=author-name>Par Jean Dupont et Marie "
         "Curie</span></article>",
         0, NULL,
         "author=html:Jean Dupont; Marie Curie\n"
         "authors=Jean Dupont:html|Marie Curie:html\n"},
        {"byline: \"Posted by\", a link of class author-name", NULL,
         "<article><p class=meta>Posted by <a class=author-name "
         "href=/u/kim>Kim Park</a></p></article>"
         "<header><span class=byline>Written by Lou Reed</span></header>",
         0, NULL, "author=html:Kim Park\n"},
        {"byline: the markup's line breaks around the name", NULL,
         "<article><h1>T</h1><a class=byline href=/author/jh>\nJanelle "
         "Hessig</a>\n<time>9:46 am</time></article>",
         0, NULL, "author=html:Janelle Hessig\n"},
        {"byline: \"Posted by\" on its own line", NULL,
         "<article><span class=post-author>Posted by\n  Ned Deily\n  at "
         "5:11 AM</span></article>",
         0, NULL, "author=html:Ned Deily\n"},
        {"author: the site's own account is nobody's handle", NULL,
         "<meta property=og:site_name content=\"Daily Planet\">"
         "<meta name=twitter:creator content=@DailyPlanet>",
         0, NULL, "-author\n"},
        {"author: nor is the domain's account", NULL,
         "<meta name=twitter:creator content=@site>", 0, NULL, "-author\n"},
        {"author: nor the domain's account spelt with its suffix", NULL,
         "<meta name=twitter:creator content=@SiteExample>", 0, NULL,
         "-author\n"},
        {"a layout class on <body> makes no sidebar of the page", NULL,
         "<body class=\"one-sidebar sidebar-second\"><article><h1>T</h1>"
         "<time datetime=2019-07-07T18:44:31+0200>7. Juli 2019</time>"
         "</article></body>",
         0, NULL, "published=html:2019-07-07T18:44:31+02:00\n"},
        {"byline: \"Posted by\" in the byline's own text", NULL,
         "<header><span class=byline>Written by Lou Reed</span></header>", 0,
         NULL, "author=html:Lou Reed\n"},
        {"byline: a bio in an author box is no name", NULL,
         "<article><div class=author>Jane is a reporter who has covered the "
         "city hall for many years</div></article>",
         0, NULL, "-author\n"},
        {"byline: outside article, header and main, after the article's", NULL,
         "<div class=post-author-name>By Ana Lopez</div><article><p>By Ben "
         "Cho</p></article>",
         0, NULL, "author=html:Ben Cho\n"},
        {"byline: outside the article, when the page has no other", NULL,
         "<div class=post><span class=news-list-author>Erstellt von Ana "
         "Lopez</span></div>",
         0, NULL, "author=html:Ana Lopez\n"},
        {"byline: never an aside's, nor an author box's bio", NULL,
         "<div class=sidebar><p class=byline>By Ana Lopez</p></div><div "
         "class=author-bio>Ben writes about cities.</div>",
         0, NULL, "-author\n"},
        {"a social handle is the last resort, still kept (without its @)", NULL,
         "<meta name=twitter:creator content=@ana>", 0, NULL,
         "author=twitter:ana\n"},
        {"By prefixes go from meta and JSON-LD authors", NULL,
         "<meta name=author content=\"By  Jane Doe\">"
         "<script type=application/ld+json>{\"@type\":\"Article\","
         "\"author\":\"by John Roe\"}</script>",
         0, NULL, "author=jsonld:John Roe\n"},
        {"meta author alone, by prefix dropped, a comma kept", NULL,
         "<meta name=author content=\"by Doe, Jane\">", 0, NULL,
         "author=meta:Doe, Jane\nauthors=Doe, Jane:meta\n"},
        {"itemprop=author outside an item reads as a byline", NULL,
         "<article><span itemprop=author>By Kim Park</span></article>", 0, NULL,
         "author=html:Kim Park\n"},
        {"theme dates: loose itemprop, abbr title; meta dates win", NULL,
         "<span itemprop=datePublished content=2022-01-02></span>"
         "<abbr class=updated title=2022-02-03T04:05:06Z>Feb</abbr>",
         0, NULL,
         "published=html:2022-01-02\nmodified=html:2022-02-03T04:05:06Z\n"},
        {"theme dates rank below Open Graph", NULL,
         "<time class=published datetime=2022-01-02></time>"
         "<meta property=article:published_time content=2021-05-06>",
         0, NULL, "published=og:2021-05-06\n"},
        {"image: a javascript: og:image gives way to twitter:image", NULL,
         "<meta property=og:image content=\"javascript:alert(1)\">"
         "<meta name=twitter:image content=\"data:image/png;base64,AA\">"
         "<link rel=image_src href=//img.example/a.jpg>",
         0, NULL, "thumbnail=link:https://img.example/a.jpg\n"},
        {"image: JSON-LD image object beats rel=image_src", NULL,
         "<link rel=image_src href=/a.jpg><script "
         "type=application/ld+json>{\"@type\":\"Article\",\"image\":"
         "{\"@type\":\"ImageObject\",\"url\":\"/b.jpg\"},"
         "\"publisher\":\"Daily\"}</script>",
         0, NULL,
         "thumbnail=jsonld:https://site.example/b.jpg\n"
         "publisher=jsonld:Daily\nsite_name=jsonld:Daily\n"},
        {"HTML 13.2.5.73: references in attributes and text", NULL,
         "<meta name=description content=\"caf&eacute; &amp&copy2024 "
         "&#x201C;x&#8221; &#150;\"><h1>&lt;b&gt; &nbsp;&hellip;</h1>",
         0, NULL,
         "description=meta:café &&copy2024 \xE2\x80\x9Cx\xE2\x80\x9D "
         "\xE2\x80\x93\n"
         "title=h1:<b> \xC2\xA0\xE2\x80\xA6\n"},
        {"oEmbed discovery: resolved, first of each format, not a link", NULL,
         "<base href=\"https://site.example/base/\">"
         "<link rel=alternate type=\"text/xml+oembed\" "
         "href=\"oembed?url=x&amp;format=xml\">"
         "<link rel=\"alternate nofollow\" "
         "type=\" Application/JSON+oEmbed \" href=/oembed?format=json>"
         "<link rel=alternate type=application/json+oembed href=/second>"
         "<link rel=alternate type=text/xml+oembed href=/second.xml>"
         "<link rel=stylesheet type=application/json+oembed href=/not>"
         "<link rel=alternate type=application/rss+xml href=/f.rss>",
         0, NULL,
         "oembed_json=https://site.example/oembed?format=json\n"
         "oembed_xml=https://site.example/base/oembed?url=x&format=xml\n"
         "oembed_best=json https://site.example/oembed?format=json\n"
         "link=https://site.example/f.rss alternate feed\n"
         "-link=https://site.example/oembed\n"
         "-link=https://site.example/base/oembed\n"
         "-link=https://site.example/second\n"
         "-link=https://site.example/not\n"},
        {"oEmbed discovery: XML alone is the best there is", NULL,
         "<link rel=alternate type=text/xml+oembed href=/o.xml>", 0, NULL,
         "oembed_xml=https://site.example/o.xml\n"
         "oembed_best=xml https://site.example/o.xml\n"
         "-oembed_json=\n"},
        {"no oEmbed endpoint: none reported", NULL,
         "<link rel=alternate href=/other type=application/json>", 0, NULL,
         "-oembed_\n"
         "link=https://site.example/other alternate\n"},
        {"entity bomb in a DOCTYPE does nothing", NULL,
         "<!DOCTYPE html [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b "
         "\"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\"><!ENTITY c "
         "\"&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;\">]><title>&c;&c;&c;</title>"
         "<a href=/ok>x</a>",
         0, NULL, "link=https://site.example/ok a\n"},
};

static void test_extract_pages(void **state)
{
	(void)state;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(cases); i++) {
		struct heed_buf b;
		heed_status rc;
		heed_page *p = extract(&cases[i], heed_test_allocator(), &rc);
		if (rc != HEED_OK)
			fail_msg("%s: %s", cases[i].name, heed_status_name(rc));
		heed__buf_init(&b, heed_allocator_default(), 1 << 20);
		render(&b, p);
		expect(cases[i].name, heed__buf_str(&b), cases[i].want);
		heed__buf_free(&b);
		heed_page_free(p);
	}
}

/* Where libxml2 2.9 (HTML 4 rules) and heed's HTML5 tokenizer and tree
 * legitimately give different records. Each entry is a page (a case name
 * above or in html5_cases below), a rendered line only heed gives (or
 * NULL) and a line only libxml2 gives (or NULL): the differential test
 * fails on any other difference, and on an entry that no longer differs.
 */
static const struct driver_diff {
	const char *page, *heed, *libxml2, *why;
} driver_diffs[] = {
        {"HTML 13.2.5.2: an unclosed title holds the rest of the page",
         "title=title:Broken<meta name=description content=Kept><a "
         "href=/z>z</a>",
         "title=title:Brokenz", "13.2.5.2: RCDATA ends only at </title>"},
        {"HTML 13.2.5.2: an unclosed title holds the rest of the page", NULL,
         "description=meta:Kept", "the meta is title text in HTML5"},
        {"HTML 13.2.5.2: an unclosed title holds the rest of the page", NULL,
         "link=https://site.example/z a", "the link is title text in HTML5"},
        {"HTML 13.2.6.4.7: a misplaced <html> lends the root its lang",
         "language=html:fr", NULL,
         "13.2.6.4.7: a later html start tag adds its attributes to the "
         "root; libxml2 2.9 drops the tag"},
        {"HTML 13.2.6.4.7: a new li closes the open li and its a",
         "tags=one:html", "tags=onetwo:html",
         "13.2.6.4.7 li: the new li pops the open li and the a in it; "
         "libxml2 2.9 keeps the a open across it"},
        {"HTML 13.2.6.5: a breakout tag leaves an unclosed svg",
         "title=title:Real", NULL,
         "13.2.6.5: <p> pops the svg, so the title is HTML's; libxml2 keeps "
         "everything after an unclosed <svg> inside it"},
        {"HTML 13.2.6.5: a breakout tag leaves an unclosed svg",
         "link=https://site.example/out a", NULL,
         "the link is outside the svg in HTML5"},
        {"HTML 13.2.5.2: title text keeps its markup as text",
         "title=title:A & <a href=/in>B</a>", "title=title:A & B",
         "13.2.5.2: <a> in RCDATA is text; libxml2 parses it as an element"},
        {"HTML 13.2.5.2: title text keeps its markup as text", NULL,
         "link=https://site.example/in a",
         "13.2.5.2: the same <a>, a link to libxml2"},
        {"HTML 13.2.6.4.7: self-closing a is an open a", "tags=jazz:html", NULL,
         "13.2.5.40: the self-closing flag of a non-void HTML element is "
         "ignored; libxml2 closes the a at \"/>\""},
        {"HTML 13.2.6.4.7: a link in a link ends the outer one past a div",
         "author=html:Ann", "author=html:Desk",
         "13.2.6.4.7 a: the adoption agency moves the divs out of the outer "
         "a, so the byline is in no link; libxml2 2.9 keeps the outer a "
         "open around them"},
        {"HTML 13.2.6.4.7: a link in a link ends the outer one past a div",
         "authors=Ann:html", "authors=Desk:html",
         "the same byline, in the list of authors"},
        {"HTML 13.2.6.4.7: a link in a link ends the outer one past a div",
         "published=html:2020-09-20", NULL,
         "the same byline's date line, in a link to libxml2"},
        {"HTML 13.2.6.4.7: a link in a link ends the outer one past a div",
         "published_s=1600560000", NULL, "the same date, in seconds"},
        {"HTML 13.2.6.4.4: noscript is raw text with scripting on", NULL,
         "link=https://site.example/ns a",
         "13.2.6.4.4: with scripting enabled (browsers) noscript is "
         "RAWTEXT; libxml2 parses it as markup"},
        {"HTML 13.2.5.4: a script's \"</div>\" and \"<!--\" are script",
         "title=jsonld:</div><!--<script>x</script>-->", NULL,
         "13.2.5.21-31: the double-escaped state keeps the inner </script>; "
         "libxml2 ends the script there and JSON-LD breaks"},
        {"HTML 13.2.5.4: a script's \"</div>\" and \"<!--\" are script",
         "schema_type=jsonld:Article", NULL, "the same block, read whole"},
        {"HTML 13.2.5.4: a script's \"</div>\" and \"<!--\" are script",
         "jsonld=1/0", "jsonld=1/1", "the same block, read whole"},
        {"HTML 13.2.5.73: references in attributes and text",
         "description=meta:caf\xC3\xA9 &&copy2024 \xE2\x80\x9Cx\xE2\x80\x9D "
         "\xE2\x80\x93",
         "description=meta:caf\xC3\xA9 &amp&copy2024 "
         "\xE2\x80\x9Cx\xE2\x80\x9D \xC2\x96",
         "13.2.5.73: \"&amp\" before a non-alphanumeric is decoded; 13.2.5.80: "
         "&#150; is windows-1252's en dash, not the C1 control U+0096"},
};

/* Appends to out the lines of a that b lacks. */
static void missing_lines(struct heed_buf *out, const char *a, const char *b)
{
	for (const char *p = a; *p;) {
		size_t n = strcspn(p, "\n");
		char l[1024];
		snprintf(l, sizeof(l), "%.*s", (int)n, p);
		if (!has_line(b, l, false))
			heed__buf_addf(out, "%s\n", l);
		p += n + (p[n] == '\n');
	}
}

/* Checks every line in only (one driver's extra lines) against the
 * table; seen counts the entries used. Returns the unexplained lines. */
static unsigned check_diffs(const char *page, const char *only, bool heed_side,
                            unsigned *seen)
{
	unsigned unknown = 0;

	for (const char *p = only; *p;) {
		size_t n = strcspn(p, "\n");
		bool known = false;
		for (size_t i = 0; i < HEED_ARRAY_SIZE(driver_diffs); i++) {
			const struct driver_diff *d = &driver_diffs[i];
			const char *l = heed_side ? d->heed : d->libxml2;
			if (strcmp(d->page, page) == 0 && l && strlen(l) == n &&
			    strncmp(l, p, n) == 0) {
				known = true;
				seen[i]++;
			}
		}
		if (!known) {
			print_error("%s: only %s gives \"%.*s\"\n", page,
			            heed_side ? "heed" : "libxml2", (int)n, p);
			unknown++;
		}
		p += n + (p[n] == '\n');
	}
	return unknown;
}

/* Renders c through both drivers and checks their differences; returns
 * the unexplained ones. */
static unsigned compare_drivers(const struct page_case *c, unsigned *seen)
{
	struct heed_buf got[2], only;
	heed_status rc;
	unsigned unknown;

	for (int d = 0; d < 2; d++) {
		heed_page *p = extract_with(c, heed_allocator_default(), &rc,
		                            d ? libxml2_parse : NULL);
		assert_int_equal(rc, HEED_OK);
		heed__buf_init(&got[d], heed_allocator_default(), 64 << 20);
		render(&got[d], p);
		heed_page_free(p);
	}
	heed__buf_init(&only, heed_allocator_default(), 64 << 20);
	missing_lines(&only, heed__buf_str(&got[0]), heed__buf_str(&got[1]));
	unknown = check_diffs(c->name, heed__buf_str(&only), true, seen);
	heed__buf_reset(&only);
	missing_lines(&only, heed__buf_str(&got[1]), heed__buf_str(&got[0]));
	unknown += check_diffs(c->name, heed__buf_str(&only), false, seen);
	heed__buf_free(&only);
	heed__buf_free(&got[0]);
	heed__buf_free(&got[1]);
	return unknown;
}

/* The differential test: the unit-test pages and bench_extract's
 * well-formed corpus through heed's driver and libxml2's. */
/* The record as JSON (heed_extract_record_json, the writer the crawl
 * and `heed extract` share; tests/unit/test_record_json.c tests it on its
 * own) carries authors apart and the publisher, each with its source. */
static void test_extract_record_json(void **state)
{
	const struct page_case c = {"news", "news.html", NULL, 0, NULL, NULL};
	heed_status rc;
	heed_page *p = extract(&c, heed_allocator_default(), &rc);
	char *json;
	size_t len;

	(void)state;
	assert_int_equal(rc, HEED_OK);
	assert_int_equal(heed_extract_record_json(heed_page_record(p), 0, NULL,
	                                          &json, &len),
	                 HEED_OK);
	assert_non_null(json);
	assert_int_equal(strlen(json), len);
	assert_non_null(strstr(json, "\"authors\":[{\"value\":\"Maria "
	                             "Okafor\",\"source\":\"jsonld\"},"
	                             "{\"value\":\"Tom Haines\",\"source\":"
	                             "\"jsonld\"}]"));
	assert_non_null(strstr(json, "\"publisher\":{\"value\":\"Coastal "
	                             "Courier Ltd\",\"source\":\"jsonld\"}"));
	assert_non_null(strstr(json, "\"title\":{\"value\":\"Harbour bridge "
	                             "reopens after two years\""));
	free(json);
	heed_page_free(p);
}

static void test_extract_drivers(void **state)
{
	unsigned seen[HEED_ARRAY_SIZE(driver_diffs)] = {0}, unknown = 0;
	(void)state;

	for (size_t i = 0; i < HEED_ARRAY_SIZE(cases); i++)
		unknown += compare_drivers(&cases[i], seen);
	for (int k = 0; k < KINDS; k++) {
		for (int i = 0; i < kind_count[k]; i++) {
			struct page pg;
			struct page_case c = {kind_names[k]};
			corpus_make(&pg, (enum kind)k, (unsigned)i);
			c.html = pg.data;
			c.len = pg.len;
			if (k != BROKEN)
				unknown += compare_drivers(&c, seen);
			free(pg.data);
		}
	}
	for (size_t i = 0; i < HEED_ARRAY_SIZE(driver_diffs); i++)
		if (!seen[i])
			fail_msg("%s: no longer differs (%s)",
			         driver_diffs[i].page, driver_diffs[i].why);
	if (unknown)
		fail_msg("%u unexplained differences", unknown);
}

/* Hostile shapes: 10,000-deep nesting, a body past the size cap, deep
 * stacks searched by many tags. */
static void test_extract_hostile(void **state)
{
	struct heed_buf html;
	heed_page *p = NULL;
	struct heed_extract_input in = {0};
	(void)state;

	heed__buf_init(&html, heed_allocator_default(), 64 << 20);
	for (int i = 0; i < 10000; i++)
		heed__buf_add(&html, "<div><span>", 11);
	heed__buf_addf(&html, "<a href=/deep>d</a><title>Deep</title>");
	in.body = html.data;
	in.body_len = html.len;
	in.url = "http://site.example/";
	assert_int_equal(
	        heed_extract_html(&p, &in, heed_test_allocator(), NULL),
	        HEED_OK);
	assert_int_equal(heed_page_link_count(p), 1);
	assert_string_equal(heed_page_link(p, 0)->url,
	                    "http://site.example/deep");
	assert_null(heed_page_link(p, 1));
	heed_page_free(p);

	heed__buf_reset(&html);
	heed__buf_addf(&html, "<title>Big</title>");
	while (html.len <= HEED_EXTRACT_MAX_HTML_BYTES)
		heed__buf_addf(&html, "<p>%0100d</p>", 7);
	heed__buf_addf(&html, "<a href=/past-the-cap>x</a>");
	in.body = html.data;
	in.body_len = html.len;
	assert_int_equal(
	        heed_extract_html(&p, &in, heed_test_allocator(), NULL),
	        HEED_OK);
	assert_true(heed_page_record(p)->truncated);
	assert_int_equal(heed_page_record(p)->byte_size, html.len);
	assert_string_equal(heed_page_record(p)->title.value, "Big");
	assert_int_equal(heed_page_link_count(p), 0);
	heed_page_free(p);

	/* Searches down the open elements are bounded: 5,000 open spans,
	 * then 200,000 list items and table cells that each search past
	 * them, stay linear (this runs in milliseconds, not minutes). */
	heed__buf_reset(&html);
	for (int i = 0; i < 5000; i++)
		heed__buf_add(&html, "<span>", 6);
	heed__buf_addf(&html, "<table><tr>");
	for (int i = 0; i < 100000; i++)
		heed__buf_addf(&html, "<li></li><td></span></div>");
	heed__buf_addf(&html, "<a href=/end>e</a>");
	in.body = html.data;
	in.body_len = html.len;
	assert_int_equal(
	        heed_extract_html(&p, &in, heed_test_allocator(), NULL),
	        HEED_OK);
	assert_int_equal(heed_page_link_count(p), 1);
	assert_string_equal(heed_page_link(p, 0)->url,
	                    "http://site.example/end");
	heed_page_free(p);

	/* 10,000 headings (each <h2> closes the one before) take six
	 * captures, not one each: the last one's "Post" is past them and
	 * cuts nothing, and the byline after them is still read. */
	heed__buf_reset(&html);
	heed__buf_addf(&html, "<title>Post - Blog</title>");
	for (int i = 0; i < 10000; i++)
		heed__buf_add(&html, "<h2>", 4);
	heed__buf_addf(&html, "Post</h2><article><p class=byline>By Ann "
	                      "Lee</p></article>");
	in.body = html.data;
	in.body_len = html.len;
	assert_int_equal(
	        heed_extract_html(&p, &in, heed_test_allocator(), NULL),
	        HEED_OK);
	assert_string_equal(heed_page_record(p)->title.value, "Post - Blog");
	assert_string_equal(heed_page_record(p)->author.value, "Ann Lee");
	heed_page_free(p);
	heed__buf_free(&html);

	in.url = "ftp://site.example/";
	assert_int_equal(
	        heed_extract_html(&p, &in, heed_test_allocator(), NULL),
	        HEED_EINVAL);
	assert_null(p);
}

struct date_case {
	const char *in, *iso;
	long long unix_s; /* ignored when iso is NULL (invalid) */
};

static const struct date_case dates[] = {
        {"2024-03-05", "2024-03-05", 1709596800},
        {"20240305", "2024-03-05", 1709596800},
        {"2024-03-05T10:00:00+01:00", "2024-03-05T09:00:00Z", 1709629200},
        {"2024-03-05T10:00+0100", "2024-03-05T09:00:00Z", 1709629200},
        {"2024-03-05 10:00:00.123Z", "2024-03-05T10:00:00.123Z", 1709632800},
        /* Fractions of a second are kept as given. */
        {"2024-03-05T10:00:00.120+01:00", "2024-03-05T09:00:00.120Z",
         1709629200},
        {"2024-03-05T10:00:00,5", "2024-03-05T10:00:00.5Z", 1709632800},
        {"2024-03-05T23:59:59.987654321987-00:30",
         "2024-03-06T00:29:59.987654321Z", 1709684999},
        {"2024-03-05T10:00:00.Z", "2024-03-05T10:00:00Z", 1709632800},
        {"2024-03-05T10:30.5Z", "2024-03-05T10:30:00Z", 1709634600},
        {"2016-12-31T23:59:60.25Z", "2016-12-31T23:59:59.25Z", 1483228799},
        {"2023-12-31T23:30:00-02:00", "2024-01-01T01:30:00Z", 1704072600},
        {"Tue, 05 Mar 2024 10:00:00 +0100", "2024-03-05T09:00:00Z", 1709629200},
        {"5 Mar 2024 10:00 PST", "2024-03-05T18:00:00Z", 1709661600},
        {"Sunday, 06-Nov-94 08:49:37 GMT", "1994-11-06T08:49:37Z", 784111777},
        {"Sun Nov  6 08:49:37 1994", "1994-11-06T08:49:37Z", 784111777},
        /* date(1)'s default: the zone before the year. */
        {"Mon Feb 23 22:24:44 BRT 2015", "2015-02-24T01:24:44Z", 1424741084},
        {"Mon Feb 23 22:24:44 UTC 2015", "2015-02-23T22:24:44Z", 1424730284},
        {"2024-02-30", NULL, 0},
        {"2023-02-29", NULL, 0},
        {"2024", NULL, 0},
        {"yesterday", NULL, 0},
        {"2024-13-01", NULL, 0},
        {"", NULL, 0},
};

static void test_extract_dates(void **state)
{
	(void)state;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(dates); i++) {
		int64_t t = 0;
		char iso[32] = "";
		bool ok = heed__parse_date(dates[i].in, strlen(dates[i].in), &t,
		                           iso, NULL);
		if (ok != (dates[i].iso != NULL))
			fail_msg("%s: ok=%d", dates[i].in, ok);
		if (ok && (strcmp(iso, dates[i].iso) || t != dates[i].unix_s))
			fail_msg("%s: got %s %lld", dates[i].in, iso,
			         (long long)t);
	}
}

/* Dates as pages write them (heed__parse_page_date): text, other formats,
 * the page's language for d/m order, offsets kept. */
static const struct page_date_case {
	const char *in, *lang, *iso; /* iso NULL: refused */
} page_dates[] = {
        {"2024-03-05T10:00:00+01:00", NULL, "2024-03-05T10:00:00+01:00"},
        {"2023-12-31T23:30:00-02:00", NULL, "2023-12-31T23:30:00-02:00"},
        {"2024-03-05T10:00:00+00:00", NULL, "2024-03-05T10:00:00Z"},
        {"2016-01-12 22:34:00 +0530", NULL, "2016-01-12T22:34:00+05:30"},
        {"Mon, Jan 7 2019 15:37:00 EST", NULL, "2019-01-07T15:37:00-05:00"},
        {"12 Jan, 2016, 10.34PM IST", NULL, "2016-01-12T22:34:00+05:30"},
        {"July 05, 2017", NULL, "2017-07-05"},
        {"March 3rd, 2024 at 9:05 am", "en", "2024-03-03T09:05:00Z"},
        {"Posted on 2024-03-03 by Ann", NULL, "2024-03-03"},
        {"5. März 2024, 14:30 Uhr", "de", "2024-03-05T14:30:00Z"},
        {"1er février 2023 à 8h15", "fr", "2023-02-01T08:15:00Z"},
        {"3 de marzo de 2024", "es", "2024-03-03"},
        {"12 de setembro de 2021", "pt", "2021-09-12"},
        {"7 agosto 2020", "it", "2020-08-07"},
        {"14 mrt. 2022", "nl", "2022-03-14"},
        {"15 \320\260\320\262\320\263\321\203\321\201\321\202\320\260 2016, "
         "13:43",
         "ru", "2016-08-15T13:43:00Z"},
        {"3 \320\263\321\200\321\203\320\264\320\275\321\217 2021", "uk",
         "2021-12-03"},
        {"12/01/2016", NULL, NULL},
        {"12/01/2016", "en", NULL},
        {"12/01/2016", "en-US", "2016-12-01"},
        {"12/01/2016", "en-GB", "2016-01-12"},
        {"12/01/2016", "fr-FR", "2016-01-12"},
        {"11/01/2023 12:43:42", "de", NULL},
        {"11/01/2023", "de-CH", NULL},
        {"01-11-2023 10:29", "de-DE", "2023-11-01T10:29:00Z"},
        {"25/12/2016", "de", "2016-12-25"},
        {"25/12/2016", NULL, "2016-12-25"},
        {"12/25/2016", NULL, "2016-12-25"},
        {"05.03.2024", NULL, "2024-03-05"},
        {"4.\342\200\2112.\342\200\2112022.", NULL, "2022-02-04"},
        {"4. 2. 2022", "de", "2022-02-04"},
        {"4.\302\2402.\302\2402022", "de", "2022-02-04"},
        {"1. 2. 12", NULL, NULL},
        {"4 . 2. 2022", NULL, NULL},
        {"2021/07/03", NULL, "2021-07-03"},
        {"2012 Nov 26", NULL, "2012-11-26"},
        {"2020\345\271\26407\346\234\21003\346\227\245 17:16", "ja",
         "2020-07-03T17:16:00Z"},
        {"2020\353\205\204 3\354\233\224 4\354\235\274", "ko", "2020-03-04"},
        {"20240305", NULL, "2024-03-05"},
        {"Von Ann | 31.10.23", NULL, "2023-10-31"},
        {"Bonn,\302\24011.10.2021", "de", "2021-10-11"},
        {"Bonn\302\24011.10.2021", "de", "2021-10-11"},
        {"8.5.12", NULL, "2012-05-08"},
        {"1.2.99", NULL, "1999-02-01"},
        {"version 1.2.12.4", NULL, NULL},
        {"31.10.234", NULL, NULL},
        {"Somasiri 175310", NULL, NULL},
        {"2024030512", NULL, NULL},
        {"2019-07-07T18:44:31+0200", NULL, "2019-07-07T18:44:31+02:00"},
        {"March 2024", "en", NULL},
        {"2024", NULL, NULL},
        {"3 days ago", "en", NULL},
        {"31 February 2024", "en", NULL},
        {"Version 3 May be 2024", "en", NULL},
};

/* A paper credits a hundred people: every one is kept. */
static void test_extract_many_authors(void **state)
{
	struct heed_buf html;
	struct heed_extract_input in = {0};
	heed_page *p = NULL;
	const struct heed_record *r;
	char name[32];
	(void)state;

	static const char head[] =
	        "<script type=application/ld+json>{\"@type\":"
	        "\"ScholarlyArticle\",\"author\":[";

	heed__buf_init(&html, NULL, 1 << 20);
	heed__buf_add(&html, head, strlen(head));
	for (int i = 0; i < 100; i++) {
		int n = snprintf(name, sizeof(name),
		                 "%s{\"name\":\"Ann Lee%c%c\"}", i ? "," : "",
		                 'A' + i / 26, 'a' + i % 26);
		heed__buf_add(&html, name, (size_t)n);
	}
	heed__buf_add(&html, "]}</script>", strlen("]}</script>"));
	in.body = heed__buf_str(&html);
	in.body_len = html.len;
	in.url = PAGE_URL;
	assert_int_equal(heed_extract_html(&p, &in, NULL, NULL), HEED_OK);
	r = heed_page_record(p);
	assert_int_equal(r->author_count, 100);
	assert_string_equal(r->authors[99].value, "Ann LeeDv");
	heed_page_free(p);
	heed__buf_free(&html);
}

static void test_extract_page_dates(void **state)
{
	(void)state;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(page_dates); i++) {
		const struct page_date_case *c = &page_dates[i];
		int64_t t = 0;
		char iso[HEED_DATE_ISO_MAX] = "";
		bool ok = heed__parse_page_date(c->in, strlen(c->in), c->lang,
		                                &t, iso, NULL);
		if (ok != (c->iso != NULL) || (ok && strcmp(iso, c->iso)))
			fail_msg("\"%s\" (%s): ok=%d %s, want %s", c->in,
			         c->lang ? c->lang : "no language", ok, iso,
			         c->iso ? c->iso : "none");
	}
}

/* Whether a date's time was written with a zone, and with its seconds. */
static void test_extract_date_forms(void **state)
{
	static const struct {
		const char *in;
		bool wall_clock, seconds;
	} forms[] = {
	        {"2023-11-08 17:49:09", true, true},
	        {"2023-11-08T17:49", true, false},
	        {"November 8, 2023 at 5:49 pm", true, false},
	        {"8. November 2023, 17:49:09 Uhr", true, true},
	        {"2023-11-09T01:49:09Z", false, true},
	        {"2023-11-08T17:49:09-08:00", false, true},
	        {"Nov 8, 2023, 10:28 p.m. EST", false, false},
	        {"Wed, 08 Nov 2023 17:49:09 GMT", false, true},
	        {"2023-11-08", false, false},
	};
	(void)state;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(forms); i++) {
		struct heed__date_form f;
		int64_t t;
		char iso[HEED_DATE_ISO_MAX];
		if (!heed__parse_page_date(forms[i].in, strlen(forms[i].in),
		                           "en", &t, iso, &f) ||
		    f.wall_clock != forms[i].wall_clock ||
		    (f.wall_clock && f.seconds != forms[i].seconds))
			fail_msg("\"%s\": wall_clock %d seconds %d",
			         forms[i].in, f.wall_clock, f.seconds);
	}
}

/* A UTC time shown at another offset: the same instant, its fraction
 * kept; a date alone or a time with an offset is refused. */
static void test_extract_date_at_offset(void **state)
{
	char out[HEED_DATE_ISO_MAX];
	(void)state;
	assert_true(heed__date_at_offset("2023-11-09T01:49:09.312Z", -8 * 3600,
	                                 out));
	assert_string_equal(out, "2023-11-08T17:49:09.312-08:00");
	assert_true(heed__date_at_offset("2019-12-31T23:30:00Z", 5400, out));
	assert_string_equal(out, "2020-01-01T01:00:00+01:30");
	assert_false(heed__date_at_offset("2023-11-09", 3600, out));
	assert_false(
	        heed__date_at_offset("2023-11-09T01:00:00+01:00", 3600, out));
	assert_false(
	        heed__date_at_offset("2023-11-09T01:00:00Z junk", 3600, out));
}

/* A UTC time at the midnight of the one zone the page's language is
 * spoken in, its summer time too, is that zone's day: EU summer time
 * starts and ends at 01:00 UTC on the last Sundays of March and October
 * (Directive 2000/84/EC); a fraction that is not zero, another hour, a
 * language of several zones or none is refused. */
static const struct midnight_case {
	const char *iso;
	long long unix_s;
	const char *lang, *want; /* want NULL: refused */
} midnights[] = {
        {"2022-11-06T23:00:00.000Z", 1667775600, "de",
         "2022-11-07T00:00:00.000+01:00"},
        {"2022-07-14T22:00:00Z", 1657836000, "de-AT",
         "2022-07-15T00:00:00+02:00"},
        {"2022-03-26T23:00:00Z", 1648335600, "nl", "2022-03-27T00:00:00+01:00"},
        {"2022-03-27T22:00:00Z", 1648418400, "it", "2022-03-28T00:00:00+02:00"},
        {"2022-10-29T22:00:00Z", 1667080800, "pl_PL",
         "2022-10-30T00:00:00+02:00"},
        {"2022-10-30T23:00:00Z", 1667170800, "sv", "2022-10-31T00:00:00+01:00"},
        {"2022-01-09T22:00:00Z", 1641765600, "fi", "2022-01-10T00:00:00+02:00"},
        {"2021-12-31T15:00:00Z", 1640962800, "ja", "2022-01-01T00:00:00+09:00"},
        {"2022-07-14T23:00:00Z", 1657839600, "de", NULL},
        {"2022-11-06T23:00:00.120Z", 1667775600, "de", NULL},
        {"2022-11-06T23:00:00Z", 1667775600, "fr", NULL},
        {"2022-11-06T23:00:00Z", 1667775600, "en-GB", NULL},
        {"2022-11-06T23:00:00Z", 1667775600, "deu", NULL},
        {"2022-11-06T23:00:00Z", 1667775600, NULL, NULL},
};

static void test_extract_local_midnight(void **state)
{
	char out[HEED_DATE_ISO_MAX];
	(void)state;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(midnights); i++) {
		const struct midnight_case *c = &midnights[i];
		bool ok = heed__local_midnight(c->iso, c->unix_s, c->lang, out);
		if (ok != (c->want != NULL) ||
		    (ok && strcmp(out, c->want) != 0))
			fail_msg("%s in %s: got %s, want %s", c->iso,
			         c->lang ? c->lang : "(none)",
			         ok ? out : "(none)",
			         c->want ? c->want : "(none)");
	}
}

struct num_case {
	const char *in;
	long long want; /* -1: invalid */
};

static void check_nums(const struct num_case *c, size_t n,
                       bool (*fn)(const char *, size_t, int64_t *))
{
	for (size_t i = 0; i < n; i++) {
		int64_t v = -1;
		bool ok = fn(c[i].in, strlen(c[i].in), &v);
		if (ok != (c[i].want >= 0) || (ok && v != c[i].want))
			fail_msg("\"%s\": ok=%d got %lld want %lld", c[i].in,
			         ok, (long long)v, c[i].want);
	}
}

static void test_extract_numbers(void **state)
{
	static const struct num_case counts[] = {
	        {"1234", 1234},
	        {"1,234", 1234},
	        {"1.234.567", 1234567},
	        {"1 234", 1234},
	        {"12\xC2\xA0"
	         "345",
	         12345},
	        {"9223372036854775807", 9223372036854775807LL},
	        {"9223372036854775808", -1},
	        {"1.5", -1},
	        {"1,23", -1},
	        {"1234,567", -1},
	        {"-5", -1},
	        {"1.2M", -1},
	        {"", -1},
	};
	static const struct num_case durations[] = {
	        {"PT12M34S", 754}, {"PT754S", 754},   {"P0DT1H0M3S", 3603},
	        {"P1D", 86400},    {"PT1.5S", 1},     {"754", 754},
	        {"12:34", 754},    {"1:02:03", 3723}, {"PT", -1},
	        {"P1X", -1},       {"12 min", -1},
	};
	static const struct num_case plays[] = {
	        {"UserPlays:1234", 1234},
	        {"UserPageVisits: 99", 99},
	        {"42", 42},
	        {"UserLikes:3", -1},
	};
	(void)state;
	check_nums(counts, HEED_ARRAY_SIZE(counts), heed__parse_count);
	check_nums(durations, HEED_ARRAY_SIZE(durations), heed__parse_duration);
	check_nums(plays, HEED_ARRAY_SIZE(plays),
	           heed__parse_interaction_count);
}

static void test_extract_content_kind(void **state)
{
	static const struct {
		const char *ct;
		heed_content_kind want;
	} kinds[] = {
	        {"text/html; charset=utf-8", HEED_CONTENT_HTML},
	        {"TEXT/HTML", HEED_CONTENT_HTML},
	        {"application/xhtml+xml", HEED_CONTENT_XHTML},
	        {"application/rss+xml", HEED_CONTENT_FEED},
	        {"application/atom+xml;type=feed", HEED_CONTENT_FEED},
	        {"application/feed+json; charset=utf-8", HEED_CONTENT_FEED},
	        {"application/json", HEED_CONTENT_JSON},
	        {"application/ld+json", HEED_CONTENT_JSON},
	        {"text/xml", HEED_CONTENT_XML},
	        {"application/xml", HEED_CONTENT_XML},
	        {"application/vnd.example+xml", HEED_CONTENT_XML},
	        {"text/plain", HEED_CONTENT_TEXT},
	        {"application/x-gzip", HEED_CONTENT_GZIP},
	        {"video/mp4", HEED_CONTENT_MEDIA},
	        {"image/jpeg", HEED_CONTENT_MEDIA},
	        {"audio/mpeg", HEED_CONTENT_MEDIA},
	        {"application/vnd.apple.mpegurl", HEED_CONTENT_MEDIA},
	        {"application/dash+xml", HEED_CONTENT_MEDIA},
	        {"font/woff2", HEED_CONTENT_MEDIA},
	        {"application/pdf", HEED_CONTENT_OTHER},
	        {"application/octet-stream", HEED_CONTENT_OTHER},
	        {"nonsense", HEED_CONTENT_UNKNOWN},
	        {"", HEED_CONTENT_UNKNOWN},
	        {NULL, HEED_CONTENT_UNKNOWN},
	};
	(void)state;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(kinds); i++)
		if (heed_extract_content_kind(kinds[i].ct) != kinds[i].want)
			fail_msg("%s: got %s",
			         kinds[i].ct ? kinds[i].ct : "NULL",
			         heed_content_kind_name(
			                 heed_extract_content_kind(
			                         kinds[i].ct)));
}

static void test_extract_robots_header(void **state)
{
	static const struct {
		const char *name, *value;
		bool noindex, nofollow;
		long long max_snippet, until;
	} hdrs[] = {
	        {"plain list", "noindex, nofollow", true, true, -1, 0},
	        {"none", "none", true, true, -1, 0},
	        {"all is a no-op", "all", false, false, -1, 0},
	        {"our agent", "heed: noindex", true, false, -1, 0},
	        {"agent without case", "HEED: nofollow", false, true, -1, 0},
	        {"another agent", "googlebot: noindex", false, false, -1, 0},
	        {"prefix scopes what follows",
	         "googlebot: noindex, heed: nofollow", false, true, -1, 0},
	        {"generic then agent", "noindex, otherbot: nofollow", true,
	         false, -1, 0},
	        {"max-snippet smallest wins", "max-snippet: 80, max-snippet:20",
	         false, false, 20, 0},
	        {"unavailable_after RFC 822",
	         "unavailable_after: 25 Jun 2010 15:00:00 PST, noindex", true,
	         false, -1, 1277506800},
	        {"unavailable_after ISO", "unavailable_after: 2030-01-01",
	         false, false, -1, 1893456000},
	        {"garbage", ":::,,,\"\x01", false, false, -1, 0},
	};
	(void)state;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(hdrs); i++) {
		struct heed_extract_robots d;
		heed_extract_robots_init(&d);
		heed_extract_robots_header(&d, hdrs[i].value,
		                           strlen(hdrs[i].value), "heed");
		if (d.noindex != hdrs[i].noindex ||
		    d.nofollow != hdrs[i].nofollow ||
		    d.max_snippet != hdrs[i].max_snippet ||
		    (hdrs[i].until ? d.unavailable_after_s != hdrs[i].until
		                   : d.unavailable_after_s != HEED_NO_DATE))
			fail_msg(
			        "%s: noindex %d nofollow %d snippet %lld until "
			        "%lld",
			        hdrs[i].name, d.noindex, d.nofollow,
			        (long long)d.max_snippet,
			        (long long)d.unavailable_after_s);
	}
}

static void test_extract_oom(void **state)
{
	const struct page_case *c = &cases[0];
	(void)state;
	for (unsigned long n = 0;; n++) {
		struct heed_test_fail f = {.fail_at = n};
		heed_status rc;
		heed_page *p = extract(c, heed_test_failing_allocator(&f), &rc);
		heed_page_free(p);
		if (rc == HEED_OK)
			break;
		assert_int_equal(rc, HEED_ENOMEM);
		assert_null(p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_extract_pages),
	        cmocka_unit_test(test_extract_drivers),
	        cmocka_unit_test(test_extract_record_json),
	        cmocka_unit_test(test_extract_hostile),
	        cmocka_unit_test(test_extract_dates),
	        cmocka_unit_test(test_extract_page_dates),
	        cmocka_unit_test(test_extract_date_forms),
	        cmocka_unit_test(test_extract_date_at_offset),
	        cmocka_unit_test(test_extract_local_midnight),
	        cmocka_unit_test(test_extract_many_authors),
	        cmocka_unit_test(test_extract_numbers),
	        cmocka_unit_test(test_extract_content_kind),
	        cmocka_unit_test(test_extract_robots_header),
	        cmocka_unit_test(test_extract_oom),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
