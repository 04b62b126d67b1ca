/*
 * heed_extract_html(): the pipeline of one page (headers, charset
 * conversion, the one HTML pass, JSON-LD, precedence) and the heed_page it
 * returns. Links are resolved only at the end, against <base href> when the
 * page has one (HTML 4.2.3: it applies to the whole document, even to links
 * before it), and de-duplicated.
 */
#include <stdio.h>

#include "extract/extract-int.h"

struct heed_page {
	const struct heed_allocator *alloc;
	struct heed_arena arena;
	struct heed_record rec;
	struct heed_link *links;
	size_t link_count;
	struct heed_extract_robots robots;
	const char *oembed[2]; /* by heed_oembed_format; NULL: none */
};

static const char *header(const struct heed_extract_input *in, const char *name)
{
	for (size_t i = 0; i < in->header_count; i++)
		if (in->headers[i].name && in->headers[i].value &&
		    heed__ascii_ieq(in->headers[i].name,
		                    strlen(in->headers[i].name), name))
			return in->headers[i].value;
	return NULL;
}

heed_status heed__builder_init(struct builder *b,
                               const struct heed_allocator *a,
                               const struct heed_extract_input *in)
{
	heed_status rc;

	memset(b, 0, sizeof(*b));
	b->alloc = a;
	b->agent = in->agent;
	heed__arena_init(&b->arena, a);
	heed_extract_robots_init(&b->robots);
	b->rec.views = -1;
	b->rec.duration_s = -1;
	b->rec.published_s = b->rec.modified_s = HEED_NO_DATE;
	b->rec.last_modified_s = HEED_NO_DATE;
	rc = in->url ? heed_url_parse(&b->page_url, in->url, strlen(in->url), a)
	             : HEED_EINVAL;
	return rc == HEED_ETOOBIG ? HEED_EINVAL : rc;
}

void heed__builder_release(struct builder *b)
{
	heed_url_free(b->page_url);
	heed__free(b->alloc, b->links);
	heed__arena_free(&b->arena);
}

/* Media types ("text/html"), lower case, without parameters. */
static const char *media_type(struct builder *b, const char *ct)
{
	size_t n;
	char *d;

	if (!ct)
		return NULL;
	while (*ct == ' ' || *ct == '\t')
		ct++;
	n = strcspn(ct, "; \t");
	d = n ? heed__strdup_arena(b, ct, n) : NULL;
	for (char *p = d; p && *p; p++)
		*p = heed__ascii_lower(*p);
	return d;
}

static void read_headers(struct builder *b, const struct heed_extract_input *in)
{
	const char *lm = header(in, "Last-Modified");
	const char *etag = header(in, "ETag");
	const char *lang = header(in, "Content-Language");
	char iso[32];

	b->rec.content_type =
	        media_type(b, in->content_type ? in->content_type
	                                       : header(in, "Content-Type"));
	if (lm && heed__parse_date(lm, strlen(lm), &b->rec.last_modified_s, iso,
	                           NULL))
		b->rec.last_modified = heed__strdup_arena(b, iso, strlen(iso));
	if (etag)
		b->rec.etag = heed__strdup_arena(b, etag, strlen(etag));
	if (lang)
		heed__cand(b, F_LANGUAGE, O_HTTP, 0, lang, strlen(lang));
	for (size_t i = 0; i < in->header_count; i++)
		if (in->headers[i].name && in->headers[i].value &&
		    heed__ascii_ieq(in->headers[i].name,
		                    strlen(in->headers[i].name),
		                    "X-Robots-Tag"))
			heed_extract_robots_header(
			        &b->robots, in->headers[i].value,
			        strlen(in->headers[i].value), in->agent);
}

static const char *const media_ext[] = {
        "jpg",  "jpeg",  "png",  "gif",  "webp", "avif", "bmp",  "svg", "ico",
        "tif",  "tiff",  "heic", "mp4",  "m4v",  "mov",  "webm", "mkv", "avi",
        "wmv",  "flv",   "mpg",  "mpeg", "m3u8", "mpd",  "ts",   "mp3", "m4a",
        "aac",  "ogg",   "oga",  "ogv",  "opus", "flac", "wav",  "wma", "mid",
        "woff", "woff2", "ttf",  "otf",  "eot",  "3gp",  "f4v",  "m4s",
};

/* True when the URL's path ends in a media file's extension: following
 * such a link would download media, which heed never does. url is
 * normalised, so its path starts at the first '/' after "://". */
bool heed__url_looks_media(const char *url)
{
	/* url is normalised: its scheme's "://" follows the first ':'. */
	const char *t = strchr(strchr(url, ':') + 3, '/');
	size_t n = strcspn(t, "?");
	const char *dot = NULL;
	char ext[8];
	size_t len;

	for (size_t i = n; i > 0 && t[i - 1] != '/'; i--)
		if (t[i - 1] == '.') {
			dot = t + i;
			break;
		}
	if (!dot)
		return false;
	/* Every link of a page passes here, most of them ".html". Compared
	 * case-blind with each extension in turn, they cost 4 % of a
	 * crawl's instructions (callgrind, bench/crawl's pages of 51 links);
	 * lowered once and compared only where the first letters agree, two
	 * fifths of that. No media extension is longer than five letters. */
	len = (size_t)(t + n - dot);
	if (len == 0 || len >= sizeof(ext))
		return false;
	for (size_t i = 0; i < len; i++)
		ext[i] = heed__ascii_lower(dot[i]);
	ext[len] = '\0';
	for (size_t i = 0; i < HEED_ARRAY_SIZE(media_ext); i++)
		if (media_ext[i][0] == ext[0] && strcmp(media_ext[i], ext) == 0)
			return true;
	return false;
}

/* Resolves a raw reference into an arena string; NULL when it is not a
 * usable http(s) URL. *media tells whether it points at a media file. */
static const char *resolve(struct builder *b, const heed_url *base,
                           const char *raw, bool *media)
{
	char url[HEED_URL_MAX_BYTES + 1];
	size_t len;
	heed_status rc = heed_url_resolve_buf(base, raw, strlen(raw), url,
	                                      sizeof(url), &len);

	if (rc != HEED_OK) {
		if (rc == HEED_ENOMEM)
			b->oom = rc;
		return NULL;
	}
	if (media)
		*media = heed__url_looks_media(url);
	return heed__strdup_arena(b, url, len);
}

/* A string hash eight bytes at a time (a page has hundreds of links):
 * multiply and fold, with the high bits folded down since the table
 * index takes the low ones. */
static size_t hash_str(const char *s)
{
	const uint64_t k = 0xff51afd7ed558ccdu;
	size_t n = strlen(s);
	uint64_t h = 0x9E3779B97F4A7C15u ^ n, w = 0;

	for (; n >= 8; s += 8, n -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * k;
		h ^= h >> 32;
	}
	w = 0;
	memcpy(&w, s, n);
	h = (h ^ w) * k;
	return (size_t)(h ^ (h >> 29));
}

/* Open addressing over indexes + 1 (0 is empty): finds the slot of key,
 * or the empty slot where it belongs. key_of(i) names entry i's key. */
static size_t probe(const size_t *table, size_t slots, const char *key,
                    const char *(*key_of)(const void *, size_t),
                    const void *ctx)
{
	size_t h = hash_str(key) & (slots - 1);

	while (table[h] && strcmp(key_of(ctx, table[h] - 1), key) != 0)
		h = (h + 1) & (slots - 1);
	return h;
}

static const char *raw_key(const void *ctx, size_t i)
{
	return ((const struct raw_link *)ctx)[i].href;
}

static const char *url_key(const void *ctx, size_t i)
{
	return ((const struct heed_link *)ctx)[i].url;
}

static void merge(struct heed_link *l, const struct raw_link *r)
{
	l->nofollow = l->nofollow && r->nofollow;
	l->feed = l->feed || r->feed;
}

/*
 * Resolves, filters and de-duplicates links: a URL found several times is
 * followable when any occurrence is, and a feed when any says so. Raw
 * hrefs are de-duplicated before resolution (listings repeat each one two
 * or three times), URLs after it.
 */
static heed_status finish_links(struct builder *b, heed_page *p,
                                const heed_url *base)
{
	size_t slots = 1, n = 0;
	size_t *raw_tab, *url_tab, *out_of;

	while (slots < 2 * b->link_count)
		slots *= 2;
	raw_tab = heed__calloc(b->alloc, 2 * slots + b->link_count + 1,
	                       sizeof(*raw_tab));
	p->links = heed__arena_alloc(&b->arena,
	                             (b->link_count + 1) * sizeof(*p->links));
	if (!raw_tab || !p->links) {
		heed__free(b->alloc, raw_tab);
		return HEED_ENOMEM;
	}
	url_tab = raw_tab + slots;
	out_of = url_tab + slots; /* raw index -> output index + 1, 0: none */
	for (size_t i = 0; i < b->link_count; i++) {
		const struct raw_link *r = &b->links[i];
		size_t hr = probe(raw_tab, slots, r->href, raw_key, b->links),
		       hu;
		bool media = false;
		const char *url;
		if (raw_tab[hr]) {
			out_of[i] = out_of[raw_tab[hr] - 1];
			if (out_of[i])
				merge(&p->links[out_of[i] - 1], r);
			continue;
		}
		raw_tab[hr] = i + 1;
		url = resolve(b, base, r->href, &media);
		if (!url || media)
			continue;
		hu = probe(url_tab, slots, url, url_key, p->links);
		if (url_tab[hu]) {
			out_of[i] = url_tab[hu];
			merge(&p->links[url_tab[hu] - 1], r);
			continue;
		}
		p->links[n] =
		        (struct heed_link){url, r->rel, r->nofollow, r->feed};
		url_tab[hu] = out_of[i] = ++n;
	}
	heed__free(b->alloc, raw_tab);
	p->link_count = n;
	return b->oom;
}

static void take_field(struct builder *b, struct heed_field *out, enum field f)
{
	out->value = b->cand[f].value;
	out->source = out->value ? heed__origin_source(b->cand[f].origin)
	                         : HEED_SOURCE_NONE;
}

/* Fields that hold URLs are resolved against the base. */
static void take_url_field(struct builder *b, struct heed_field *out,
                           enum field f, const heed_url *base)
{
	take_field(b, out, f);
	if (out->value)
		out->value = resolve(b, base, out->value, NULL);
	if (!out->value)
		out->source = HEED_SOURCE_NONE;
}

/* author holds every name joined by "; " (JSON-LD arrays, bylines):
 * authors lists them apart, each with the field's source. */
static void split_authors(struct builder *b)
{
	struct heed_record *r = &b->rec;
	struct heed_field *a;
	const char *s = r->author.value;

	if (!s)
		return;
	a = heed__arena_alloc(&b->arena, EXTRACT_MAX_AUTHORS * sizeof(*a));
	if (!a) {
		b->oom = HEED_ENOMEM;
		return;
	}
	r->authors = a;
	while (*s && r->author_count < EXTRACT_MAX_AUTHORS) {
		const char *e = strstr(s, "; ");
		size_t n = e ? (size_t)(e - s) : strlen(s);
		const char *v = n ? heed__strdup_arena(b, s, n) : NULL;
		if (v)
			a[r->author_count++] =
			        (struct heed_field){v, r->author.source};
		if (!e)
			break;
		s = e + 2;
	}
}

/* Reads n (1..max) digits at *p, leaving *p after them; -1 when none. */
static int path_number(const char **p, int max)
{
	int v = 0, n = 0;

	while (n < max && **p >= '0' && **p <= '9')
		v = v * 10 + (*(*p)++ - '0'), n++;
	return n ? v : -1;
}

/*
 * The date of a path segment at q: "2019/09/17", "2019-09-17" (or the
 * two separators mixed, "2012-06/04"), or the compact "20200413" that
 * news CMSs write as a segment of its own ("/news/20200413/slug"); its
 * digits must end the segment, so a longer number (an article's id) is
 * none. True with y, m, d set.
 */
static bool path_day(const char *q, int *y, int *m, int *d)
{
	const char *s = q;

	*y = path_number(&q, 4);
	if (q - s != 4)
		return false;
	if (*q == '/' || *q == '-') {
		q++;
		*m = path_number(&q, 2);
		/* Chinese news CMSs mix the two: Xinhua's "/2012-06/04/",
		 * China News's "/2012/06-04/". */
		if (*m < 0 || (*q != '/' && *q != '-'))
			return false;
		q++;
		*d = path_number(&q, 2);
	} else {
		s = q;
		*m = path_number(&q, 2);
		*d = path_number(&q, 2);
		if (q - s != 4 || (*q != '/' && *q != '-' && *q != '\0'))
			return false;
	}
	return *d >= 0 && !(*q >= '0' && *q <= '9');
}

/*
 * A date in the page URL's path, the published date's last resort (a
 * CMS's permalink: "/2019/09/17/slug", "/2019-09-17-slug",
 * "/20190917/slug", also with a section before it). Year, month and day
 * must all be there: a month archive ("/2019/09/") dates no page.
 */
static void url_path_date(struct builder *b)
{
	const char *t = heed_url_target(b->page_url);
	size_t n = strcspn(t, "?#");

	for (const char *p = t; p && p < t + n;
	     p = memchr(p + 1, '/', (size_t)(t + n - p - 1))) {
		int y, m, d;
		char iso[40];
		if (!path_day(p + 1, &y, &m, &d))
			continue;
		snprintf(iso, sizeof(iso), "%04d-%02d-%02d", y, m, d);
		heed__cand(b, F_PUBLISHED, O_URL, 0, iso, strlen(iso));
		return;
	}
}

static void finish_record(struct builder *b, const heed_url *base)
{
	struct heed_record *r = &b->rec;

	/* "If several differ, ignore them all": a page that names two
	 * canonical URLs gives no answer (Google does the same). */
	if (b->canonical_raw && !b->canonical_conflict)
		heed__cand(b, F_CANONICAL, O_LINK, 0, b->canonical_raw,
		           strlen(b->canonical_raw));
	heed__title_site(b);
	heed__shown_over_generic(b);
	heed__shown_over_draft(b);
	heed__republished(b);
	url_path_date(b);
	heed__edit_only(b);
	heed__midnight_days(b);
	heed__lead_over_declared(b);
	heed__byline_links_over_declared(b);
	heed__initials_named(b);
	heed__handle_named(b);
	heed__source_over_site(b);
	heed__dateline_agency(b);
	heed__description_byline(b);
	heed__personal_site(b);
	take_field(b, &r->title, F_TITLE);
	take_field(b, &r->description, F_DESCRIPTION);
	take_field(b, &r->author, F_AUTHOR);
	take_url_field(b, &r->canonical, F_CANONICAL, base);
	take_field(b, &r->language, F_LANGUAGE);
	take_field(b, &r->published, F_PUBLISHED);
	take_field(b, &r->modified, F_MODIFIED);
	take_url_field(b, &r->thumbnail, F_THUMBNAIL, base);
	take_field(b, &r->og_type, F_OG_TYPE);
	take_field(b, &r->schema_type, F_SCHEMA_TYPE);
	take_field(b, &r->site_name, F_SITE_NAME);
	take_field(b, &r->publisher, F_PUBLISHER);
	take_field(b, &r->duration, F_DURATION);
	split_authors(b);
	if (r->published.value)
		r->published_s = b->cand[F_PUBLISHED].num;
	if (r->modified.value)
		r->modified_s = b->cand[F_MODIFIED].num;
	if (r->duration.value)
		r->duration_s = b->cand[F_DURATION].num;
	if (b->cand[F_VIEWS].value) {
		r->views = b->cand[F_VIEWS].num;
		r->views_source = heed__origin_source(b->cand[F_VIEWS].origin);
	}
	heed__drop_category_tags(b);
	r->tags = b->tags;
	r->tag_count = b->tag_count;
}

/* Moves everything the page keeps out of the builder. */
static heed_status finish(struct builder *b, heed_page **out)
{
	heed_url *base = NULL;
	heed_page *p = heed__calloc(b->alloc, 1, sizeof(*p));
	heed_status rc;

	if (!p)
		return HEED_ENOMEM;
	p->alloc = b->alloc;
	heed__arena_init(&p->arena, b->alloc);
	if (b->base_href &&
	    heed_url_resolve(&base, b->page_url, b->base_href,
	                     strlen(b->base_href)) == HEED_ENOMEM)
		b->oom = HEED_ENOMEM;
	finish_record(b, base ? base : b->page_url);
	for (size_t i = 0; i < HEED_ARRAY_SIZE(p->oembed); i++)
		if (b->oembed_raw[i])
			p->oembed[i] = resolve(b, base ? base : b->page_url,
			                       b->oembed_raw[i], NULL);
	rc = finish_links(b, p, base ? base : b->page_url);
	heed_url_free(base);
	if (rc == HEED_OK)
		rc = b->oom;
	if (rc != HEED_OK) {
		heed_page_free(p);
		return rc;
	}
	p->rec = b->rec;
	p->robots = b->robots;
	/* The page's strings live in the builder's arena: hand it over. */
	p->arena = b->arena;
	heed__arena_init(&b->arena, b->alloc);
	*out = p;
	return HEED_OK;
}

heed_status heed_extract_html(heed_page **out,
                              const struct heed_extract_input *in,
                              const struct heed_allocator *alloc,
                              struct heed_diag *diag)
{
	return heed__extract_html_with(out, in, alloc, diag, heed__html_parse);
}

heed_status heed__extract_html_with(
        heed_page **out, const struct heed_extract_input *in,
        const struct heed_allocator *alloc, struct heed_diag *diag,
        heed_status (*parse)(struct builder *b, const char *utf8, size_t len))
{
	const struct heed_allocator *a =
	        alloc ? alloc : heed_allocator_default();
	struct builder b;
	struct heed_buf utf8;
	const char *hc, *used = "UTF-8", *text = NULL;
	size_t hc_len = 0, len = in->body_len, text_len = 0;
	heed_status rc;

	*out = NULL;
	rc = heed__builder_init(&b, a, in);
	heed__buf_init(&utf8, a, 4 * (size_t)HEED_EXTRACT_MAX_HTML_BYTES);
	if (rc != HEED_OK) {
		heed__builder_release(&b);
		return heed_diag_set(diag, rc, 0, 0, "page URL %s unusable",
		                     in->url ? in->url : "(none)");
	}
	read_headers(&b, in);
	b.rec.byte_size = in->body_len;
	if (len > HEED_EXTRACT_MAX_HTML_BYTES) {
		len = HEED_EXTRACT_MAX_HTML_BYTES;
		b.rec.truncated = true;
	}
	hc = heed__content_type_param(in->content_type
	                                      ? in->content_type
	                                      : header(in, "Content-Type"),
	                              "charset", &hc_len);
	rc = heed__to_utf8(&utf8, in->body ? in->body : "", len, hc, hc_len,
	                   &used, &text, &text_len);
	if (rc == HEED_OK) {
		b.rec.charset.value = used;
		/* An unknown label in the header decided nothing. */
		b.rec.charset.source = hc && heed__charset_known(hc, hc_len)
		                               ? HEED_SOURCE_HTTP
		                               : HEED_SOURCE_HTML;
		rc = parse(&b, text, text_len);
	}
	heed__buf_free(&utf8);
	heed__jsonld_apply(&b);
	heed__author_bio(&b);
	if (rc == HEED_OK)
		rc = b.oom;
	if (rc == HEED_OK)
		rc = finish(&b, out);
	heed__builder_release(&b);
	if (rc != HEED_OK)
		heed_diag_set(diag, rc, 0, 0, "extraction failed: %s",
		              heed_strerror(rc));
	return rc;
}

const struct heed_record *heed_page_record(const heed_page *p)
{
	return &p->rec;
}

size_t heed_page_link_count(const heed_page *p)
{
	return p->link_count;
}

const struct heed_link *heed_page_link(const heed_page *p, size_t i)
{
	return i < p->link_count ? &p->links[i] : NULL;
}

const struct heed_extract_robots *heed_page_robots(const heed_page *p)
{
	return &p->robots;
}

const char *heed_page_oembed(const heed_page *p, heed_oembed_format format)
{
	return (unsigned)format < HEED_ARRAY_SIZE(p->oembed) ? p->oembed[format]
	                                                     : NULL;
}

const char *heed_page_oembed_best(const heed_page *p,
                                  heed_oembed_format *format)
{
	heed_oembed_format f = p->oembed[HEED_OEMBED_JSON] ? HEED_OEMBED_JSON
	                                                   : HEED_OEMBED_XML;

	if (format)
		*format = f;
	return p->oembed[f];
}

void heed_page_free(heed_page *p)
{
	if (!p)
		return;
	heed__arena_free(&p->arena);
	heed__free(p->alloc, p);
}
