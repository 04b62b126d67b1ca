/*
 * Feeds and sitemaps: RSS 2.0 (rssboard.org/rss-specification), RSS 1.0
 * (web.resource.org/rss/1.0/spec), Atom (RFC 4287), JSON Feed 1 and 1.1
 * (jsonfeed.org/version/1.1), sitemaps
 * (sitemaps.org/protocol.html: urlset, sitemapindex, plain text, gzip) with
 * Google's video (sitemap-video/1.1) and news (sitemap-news/0.9)
 * extensions. Entries carry their dates for the engine's incremental mode.
 *
 * libxml2's SAX2 parser reads the whole (capped) document in one call with
 * entity substitution, DTD loading and network access off, so entity bombs
 * and external entities go nowhere. A gzip body is inflated by zlib up to
 * HEED_SITEMAP_MAX_BYTES, so a bomb costs at most that much memory. At
 * most HEED_SITEMAP_MAX_URLS (sitemaps) or HEED_FEED_MAX_ENTRIES (feeds)
 * entries are kept; past either limit the parser stops and says so.
 *
 * A JSON Feed is parsed whole by json-c (depth-capped like JSON-LD) after
 * the same UTF-8 clean-up, then its items are read into the same entries.
 */
#include <json-c/json.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <zlib.h>

#include "extract/extract-int.h"

#define FEED_MAX_TAGS 64 /* per entry */
/* JSON Feed's version member; early version 1 feeds wrote http. */
#define JSONFEED_VERSION      "https://jsonfeed.org/version/"
#define JSONFEED_VERSION_HTTP "http://jsonfeed.org/version/"
/* json-c spends some 70 bytes on each value, so a document of tiny
 * values ("[0,0,0,...]") costs some 35 times its size: these bound a
 * JSON Feed (10,000 items of a few dozen values each fit) to well under
 * 100 MB, whatever gzip inflated. */
#define JSONFEED_MAX_BYTES  (16u * 1024 * 1024)
#define JSONFEED_MAX_VALUES 1000000

enum ns { NS_PLAIN, NS_VIDEO, NS_NEWS, NS_DC, NS_MEDIA, NS_RDF, NS_OTHER };

/* What a captured element's text becomes. */
enum slot {
	S_NONE,
	S_FEED_TITLE,
	S_URL,
	S_GUID,
	S_TITLE,
	S_VIDEO_TITLE,
	S_NEWS_TITLE,
	S_DESCRIPTION,
	S_PUBLISHED,
	S_UPDATED,
	S_AUTHOR,
	S_TAG,
	S_TAGS, /* a comma-separated list */
	S_VIEWS,
	S_DURATION,
	S_THUMBNAIL,
	S_PUBLICATION,
};

struct heed_feed {
	const struct heed_allocator *alloc;
	struct heed_arena arena;
	heed_feed_kind kind;
	const char *title;
	const char *next; /* JSON Feed's next_url */
	struct heed_feed_entry *entries;
	size_t count, cap;
	unsigned skipped;
	bool truncated;
};

struct parse {
	heed_feed *f;
	const heed_url *base;
	xmlParserCtxtPtr ctxt;
	size_t depth, entry_depth; /* entry_depth 0: not in an entry */
	size_t max_entries;
	enum slot slot;
	size_t slot_depth;
	struct heed_buf text;
	/* The entry being read. */
	struct heed_feed_entry e;
	const char *raw_url, *guid, *video_title, *news_title;
	const char *tags[FEED_MAX_TAGS];
	size_t ntags;
	heed_status oom;
	bool json_typed; /* Content-Type application/feed+json */
};

const char *heed_feed_kind_name(heed_feed_kind kind)
{
	static const char *const names[] = {
	        "unknown", "rss2",         "rss1", "atom",
	        "sitemap", "sitemapindex", "text", "json"};
	return (size_t)kind < HEED_ARRAY_SIZE(names) ? names[kind] : "unknown";
}

static enum ns ns_of(const xmlChar *uri, const xmlChar *prefix)
{
	static const struct {
		const char *uri, *prefix;
		enum ns ns;
	} map[] = {
	        {"http://www.google.com/schemas/sitemap-video/1.1", "video",
	         NS_VIDEO},
	        {"http://www.google.com/schemas/sitemap-news/0.9", "news",
	         NS_NEWS},
	        {"http://purl.org/dc/elements/1.1/", "dc", NS_DC},
	        {"http://search.yahoo.com/mrss/", "media", NS_MEDIA},
	        {"http://www.w3.org/1999/02/22-rdf-syntax-ns#", "rdf", NS_RDF},
	};

	for (size_t i = 0; i < HEED_ARRAY_SIZE(map); i++)
		if ((uri && strcmp((const char *)uri, map[i].uri) == 0) ||
		    (!uri && prefix &&
		     strcmp((const char *)prefix, map[i].prefix) == 0))
			return map[i].ns;
	/* An unknown prefix (image:loc) is never a sitemap or feed field. */
	return prefix ? NS_OTHER : NS_PLAIN;
}

/* The value of attribute name from SAX2's (localname, prefix, URI, value,
 * end) tuples, copied into the arena; NULL when absent. */
static const char *attr2(struct parse *p, const xmlChar **atts, int n,
                         const char *name)
{
	for (int i = 0; i < n; i++) {
		const xmlChar **a = atts + 5 * i;
		if (strcmp((const char *)a[0], name) == 0) {
			const char *v = heed__arena_strndup(
			        &p->f->arena, (const char *)a[3],
			        (size_t)(a[4] - a[3]));
			if (!v)
				p->oom = HEED_ENOMEM;
			return v;
		}
	}
	return NULL;
}

static heed_feed_kind root_kind(const char *name, enum ns ns)
{
	if (strcmp(name, "rss") == 0)
		return HEED_FEED_RSS2;
	if (strcmp(name, "RDF") == 0 && ns == NS_RDF)
		return HEED_FEED_RSS1;
	if (strcmp(name, "feed") == 0)
		return HEED_FEED_ATOM;
	if (strcmp(name, "urlset") == 0)
		return HEED_FEED_SITEMAP;
	if (strcmp(name, "sitemapindex") == 0)
		return HEED_FEED_SITEMAP_INDEX;
	return HEED_FEED_UNKNOWN;
}

static bool is_entry(heed_feed_kind k, const char *name, enum ns ns)
{
	if (ns != NS_PLAIN)
		return false;
	switch (k) {
	case HEED_FEED_RSS2:
	case HEED_FEED_RSS1:
		return strcmp(name, "item") == 0;
	case HEED_FEED_ATOM:
		return strcmp(name, "entry") == 0;
	case HEED_FEED_SITEMAP:
		return strcmp(name, "url") == 0;
	case HEED_FEED_SITEMAP_INDEX:
		return strcmp(name, "sitemap") == 0;
	default:
		return false;
	}
}

static const struct {
	enum ns ns;
	const char *name;
	enum slot slot;
} slots[] = {
        {NS_PLAIN, "loc", S_URL},
        {NS_PLAIN, "link", S_URL},
        {NS_PLAIN, "guid", S_GUID},
        {NS_PLAIN, "id", S_GUID},
        {NS_PLAIN, "title", S_TITLE},
        {NS_PLAIN, "description", S_DESCRIPTION},
        {NS_PLAIN, "summary", S_DESCRIPTION},
        {NS_PLAIN, "pubDate", S_PUBLISHED},
        {NS_PLAIN, "published", S_PUBLISHED},
        {NS_PLAIN, "lastmod", S_UPDATED},
        {NS_PLAIN, "updated", S_UPDATED},
        {NS_PLAIN, "author", S_AUTHOR},
        {NS_PLAIN, "name", S_AUTHOR}, /* Atom's author/name */
        {NS_PLAIN, "category", S_TAG},
        {NS_DC, "date", S_PUBLISHED},
        {NS_DC, "creator", S_AUTHOR},
        {NS_DC, "subject", S_TAG},
        {NS_MEDIA, "keywords", S_TAGS},
        {NS_VIDEO, "title", S_VIDEO_TITLE},
        {NS_VIDEO, "description", S_DESCRIPTION},
        {NS_VIDEO, "view_count", S_VIEWS},
        {NS_VIDEO, "tag", S_TAG},
        {NS_VIDEO, "category", S_TAG},
        {NS_VIDEO, "publication_date", S_PUBLISHED},
        {NS_VIDEO, "thumbnail_loc", S_THUMBNAIL},
        {NS_VIDEO, "duration", S_DURATION},
        {NS_NEWS, "title", S_NEWS_TITLE},
        {NS_NEWS, "publication_date", S_PUBLISHED},
        {NS_NEWS, "keywords", S_TAGS},
        {NS_NEWS, "name", S_PUBLICATION},
};

static enum slot slot_of(const char *name, enum ns ns)
{
	for (size_t i = 0; i < HEED_ARRAY_SIZE(slots); i++)
		if (slots[i].ns == ns && strcmp(slots[i].name, name) == 0)
			return slots[i].slot;
	return S_NONE;
}

static void add_tag(struct parse *p, const char *s, size_t len)
{
	char *t;

	heed__trim(&s, &len);
	if (!len || p->ntags == FEED_MAX_TAGS)
		return;
	t = heed__arena_strndup(&p->f->arena, s, len);
	if (!t) {
		p->oom = HEED_ENOMEM;
		return;
	}
	heed__fold_case(t, len);
	for (size_t i = 0; i < p->ntags; i++)
		if (strcmp(p->tags[i], t) == 0)
			return;
	p->tags[p->ntags++] = t;
}

static void reset_entry(struct parse *p)
{
	memset(&p->e, 0, sizeof(p->e));
	p->e.views = -1;
	p->e.duration_s = -1;
	p->e.published_s = p->e.updated_s = HEED_NO_DATE;
	p->raw_url = p->guid = p->video_title = p->news_title = NULL;
	p->ntags = 0;
}

/* An absolute normalised URL in the arena, or NULL. */
static const char *resolve(struct parse *p, const char *raw)
{
	heed_url *u = NULL;
	heed_status rc;
	const char *s;

	if (!raw)
		return NULL;
	/* sitemaps.org: "fully-qualified" URLs only; feeds may be relative. */
	if (p->f->kind >= HEED_FEED_SITEMAP &&
	    p->f->kind <= HEED_FEED_SITEMAP_TEXT)
		rc = heed_url_parse(&u, raw, strlen(raw), p->f->alloc);
	else
		rc = heed_url_resolve(&u, p->base, raw, strlen(raw));
	if (rc != HEED_OK) {
		if (rc == HEED_ENOMEM)
			p->oom = rc;
		return NULL;
	}
	s = heed__arena_strndup(&p->f->arena, heed_url_get(u),
	                        strlen(heed_url_get(u)));
	heed_url_free(u);
	if (!s)
		p->oom = HEED_ENOMEM;
	return s;
}

static bool push_entry(struct parse *p)
{
	heed_feed *f = p->f;

	if (f->count == f->cap) {
		size_t ncap = f->cap ? f->cap * 2 : 64;
		struct heed_feed_entry *n =
		        heed__realloc(f->alloc, f->entries, ncap * sizeof(*n));
		if (!n) {
			p->oom = HEED_ENOMEM;
			return false;
		}
		f->entries = n;
		f->cap = ncap;
	}
	f->entries[f->count++] = p->e;
	return true;
}

static void finish_entry(struct parse *p)
{
	const char **tags;

	p->e.url = resolve(p, p->raw_url);
	if (!p->e.url)
		p->e.url = resolve(p, p->guid);
	if (!p->e.url || heed__url_looks_media(p->e.url)) {
		p->f->skipped++;
		return;
	}
	if (!p->e.title)
		p->e.title = p->video_title ? p->video_title : p->news_title;
	if (p->ntags) {
		tags = heed__arena_alloc(&p->f->arena,
		                         p->ntags * sizeof(*tags));
		if (!tags) {
			p->oom = HEED_ENOMEM;
			return;
		}
		memcpy(tags, p->tags, p->ntags * sizeof(*tags));
		p->e.tags = tags;
		p->e.tag_count = p->ntags;
	}
	if (!push_entry(p))
		return;
	if (p->f->count >= p->max_entries) {
		p->f->truncated = true;
		if (p->ctxt)
			xmlStopParser(p->ctxt);
	}
}

static void set_date(const char *v, const char **iso_out, int64_t *unix_s,
                     struct parse *p)
{
	char iso[32];
	int64_t t;

	if (*iso_out || !heed__parse_date(v, strlen(v), &t, iso, NULL))
		return;
	*iso_out = heed__arena_strndup(&p->f->arena, iso, strlen(iso));
	*unix_s = *iso_out ? t : HEED_NO_DATE;
}

static void first(const char **dst, const char *v)
{
	if (!*dst)
		*dst = v;
}

/* Removes markup from text in place: feeds put HTML in descriptions and
 * titles (RSS 2.0 allows entity-encoded HTML; Atom type="html"), and the
 * record keeps plain text. Tags become spaces; collapse() is not needed
 * because the caller trims and later consumers see single spaces. */
static size_t strip_markup(char *s, size_t len)
{
	size_t o = 0;
	bool space = false;

	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		char n = i + 1 < len ? (char)(s[i + 1] | 0x20) : '\0';
		if (c == '<' &&
		    (n == '/' || n == '!' || (n >= 'a' && n <= 'z'))) {
			char *gt = memchr(s + i, '>', len - i);
			if (gt) {
				i = (size_t)(gt - s);
				space = o > 0;
				continue;
			}
		}
		if (c <= ' ') {
			space = o > 0;
			continue;
		}
		if (space)
			s[o++] = ' ';
		space = false;
		s[o++] = (char)c;
	}
	s[o] = '\0';
	return o;
}

/* Stores the text of a finished slot. */
static void finish_slot(struct parse *p)
{
	const char *s = heed__buf_str(&p->text);
	size_t len = p->text.len;
	char *v;
	int64_t n;

	heed__trim(&s, &len);
	p->slot_depth = 0;
	if (!len)
		return;
	v = heed__arena_strndup(&p->f->arena, s, len);
	if (!v) {
		p->oom = HEED_ENOMEM;
		return;
	}
	if (p->slot == S_DESCRIPTION || p->slot == S_TITLE ||
	    p->slot == S_FEED_TITLE)
		len = strip_markup(v, len);
	if (!len)
		return;
	switch (p->slot) {
	case S_FEED_TITLE:
		first(&p->f->title, v);
		break;
	case S_URL:
		first(&p->raw_url, v);
		break;
	case S_GUID:
		first(&p->guid, v);
		break;
	case S_TITLE:
		first(&p->e.title, v);
		break;
	case S_VIDEO_TITLE:
		first(&p->video_title, v);
		break;
	case S_NEWS_TITLE:
		first(&p->news_title, v);
		break;
	case S_DESCRIPTION:
		first(&p->e.description, v);
		break;
	case S_PUBLISHED:
		set_date(v, &p->e.published, &p->e.published_s, p);
		break;
	case S_UPDATED:
		set_date(v, &p->e.updated, &p->e.updated_s, p);
		break;
	case S_AUTHOR:
		first(&p->e.author, v);
		break;
	case S_TAG:
		add_tag(p, v, len);
		break;
	case S_TAGS:
		heed__trim((const char **)&v, &len);
		for (char *c; (c = memchr(v, ',', len));
		     len -= (size_t)(c + 1 - v), v = c + 1)
			add_tag(p, v, (size_t)(c - v));
		add_tag(p, v, len);
		break;
	case S_VIEWS:
		if (heed__parse_count(v, len, &n))
			p->e.views = n;
		break;
	case S_DURATION:
		if (heed__parse_duration(v, len, &n))
			p->e.duration_s = n;
		break;
	case S_THUMBNAIL:
		if (!p->e.thumbnail)
			p->e.thumbnail = resolve(p, v);
		break;
	case S_PUBLICATION:
		first(&p->e.news_publication, v);
		break;
	case S_NONE:
		break;
	}
}

/* Elements inside an entry that carry their value in attributes. */
static bool attr_element(struct parse *p, const char *name, enum ns ns,
                         const xmlChar **atts, int natts)
{
	const char *v;

	if (ns == NS_PLAIN && p->f->kind == HEED_FEED_ATOM &&
	    strcmp(name, "link") == 0) {
		const char *rel = attr2(p, atts, natts, "rel");
		if (!rel || strcmp(rel, "alternate") == 0)
			first(&p->raw_url, attr2(p, atts, natts, "href"));
		return true;
	}
	if (ns == NS_PLAIN && p->f->kind == HEED_FEED_ATOM &&
	    strcmp(name, "category") == 0) {
		if ((v = attr2(p, atts, natts, "term")))
			add_tag(p, v, strlen(v));
		return true;
	}
	if (ns == NS_MEDIA && strcmp(name, "thumbnail") == 0) {
		if (!p->e.thumbnail)
			p->e.thumbnail =
			        resolve(p, attr2(p, atts, natts, "url"));
		return true;
	}
	/* RSS 2.0: a guid with isPermaLink="false" is not a URL. */
	v = ns == NS_PLAIN && strcmp(name, "guid") == 0
	            ? attr2(p, atts, natts, "isPermaLink")
	            : NULL;
	return v && strcmp(v, "false") == 0;
}

static void start_slot(struct parse *p, enum slot slot)
{
	p->slot = slot;
	p->slot_depth = p->depth;
	heed__buf_reset(&p->text);
}

static void on_start(void *ctx, const xmlChar *local, const xmlChar *prefix,
                     const xmlChar *uri, int nns, const xmlChar **nss,
                     int natts, int ndef, const xmlChar **atts)
{
	struct parse *p = ctx;
	const char *name = (const char *)local, *colon;
	char pfx[16];
	enum ns ns = ns_of(uri, prefix);

	(void)nns, (void)nss, (void)ndef;
	p->depth++;
	/* An undeclared prefix arrives as "video:title" without a URI. */
	if (!uri && (colon = strchr(name, ':')) &&
	    (size_t)(colon - name) < sizeof(pfx)) {
		memcpy(pfx, name, (size_t)(colon - name));
		pfx[colon - name] = '\0';
		ns = ns_of(NULL, (const xmlChar *)pfx);
		name = colon + 1;
	}
	if (p->depth == 1) {
		p->f->kind = root_kind(name, ns);
		if (p->f->kind >= HEED_FEED_RSS2 &&
		    p->f->kind <= HEED_FEED_ATOM)
			p->max_entries = HEED_FEED_MAX_ENTRIES;
		return;
	}
	if (p->f->kind == HEED_FEED_UNKNOWN || p->slot_depth)
		return;
	if (!p->entry_depth && is_entry(p->f->kind, name, ns)) {
		p->entry_depth = p->depth;
		reset_entry(p);
		p->guid = attr2(p, atts, natts, "about"); /* RSS 1.0 */
		return;
	}
	if (!p->entry_depth) {
		if (ns == NS_PLAIN && strcmp(name, "title") == 0 &&
		    p->depth <= 3)
			start_slot(p, S_FEED_TITLE);
		return;
	}
	if (attr_element(p, name, ns, atts, natts))
		return;
	if (p->f->kind == HEED_FEED_ATOM && strcmp(name, "author") == 0)
		return; /* its <name> child is the author */
	if (slot_of(name, ns) != S_NONE)
		start_slot(p, slot_of(name, ns));
}

static void on_end(void *ctx, const xmlChar *local, const xmlChar *prefix,
                   const xmlChar *uri)
{
	struct parse *p = ctx;

	(void)local, (void)prefix, (void)uri;
	if (p->slot_depth && p->depth == p->slot_depth)
		finish_slot(p);
	if (p->entry_depth && p->depth == p->entry_depth) {
		finish_entry(p);
		p->entry_depth = 0;
	}
	if (p->depth)
		p->depth--;
}

static void on_text(void *ctx, const xmlChar *ch, int len)
{
	struct parse *p = ctx;

	if (p->slot_depth)
		(void)heed__buf_add(&p->text, ch, (size_t)len);
}

static void parse_xml(struct parse *p, const char *s, size_t len)
{
	xmlSAXHandler sax;
	xmlParserCtxtPtr ctxt;

	if (len > INT_MAX)
		len = INT_MAX;
	xmlInitParser();
	ctxt = xmlCreateMemoryParserCtxt(s, (int)len);
	if (!ctxt) {
		p->oom = HEED_ENOMEM;
		return;
	}
	memset(&sax, 0, sizeof(sax));
	sax.initialized = XML_SAX2_MAGIC;
	sax.startElementNs = on_start;
	sax.endElementNs = on_end;
	sax.characters = on_text;
	sax.cdataBlock = on_text;
	memcpy(ctxt->sax, &sax, sizeof(sax));
	ctxt->userData = p;
	p->ctxt = ctxt;
	xmlCtxtUseOptions(ctxt, XML_PARSE_RECOVER | XML_PARSE_NOERROR |
	                                XML_PARSE_NOWARNING | XML_PARSE_NONET |
	                                XML_PARSE_IGNORE_ENC);
	xmlSwitchEncoding(ctxt, XML_CHAR_ENCODING_UTF8);
	xmlParseDocument(ctxt);
	xmlFreeParserCtxt(ctxt);
	p->ctxt = NULL;
}

/* A plain-text sitemap: one absolute URL per line (sitemaps.org). */
static void parse_text(struct parse *p, const char *s, size_t len)
{
	p->f->kind = HEED_FEED_SITEMAP_TEXT;
	while (len && p->oom == HEED_OK) {
		const char *nl = memchr(s, '\n', len);
		size_t n = nl ? (size_t)(nl - s) : len;
		const char *line = s;
		size_t llen = n;
		heed__trim(&line, &llen);
		if (llen) {
			char *raw =
			        heed__arena_strndup(&p->f->arena, line, llen);
			reset_entry(p);
			p->raw_url = raw;
			if (!raw)
				p->oom = HEED_ENOMEM;
			else if (p->f->count >= p->max_entries)
				p->f->truncated = true;
			else
				finish_entry(p);
			if (p->f->truncated)
				break;
		}
		len -= nl ? n + 1 : n;
		s += nl ? n + 1 : n;
	}
}

static voidpf z_alloc(voidpf opaque, uInt items, uInt size)
{
	return heed__calloc(opaque, items, size);
}

static void z_free(voidpf opaque, voidpf ptr)
{
	heed__free(opaque, ptr);
}

/* Inflates gzip (several members allowed) into out, stopping at the
 * buffer's ceiling: a bomb costs HEED_SITEMAP_MAX_BYTES, not more. */
static heed_status gunzip(struct heed_buf *out, const char *s, size_t len,
                          bool *truncated)
{
	z_stream z;
	char chunk[16384];
	heed_status rc = HEED_OK;
	int zr = Z_OK;

	memset(&z, 0, sizeof(z));
	z.zalloc = z_alloc;
	z.zfree = z_free;
	z.opaque = (voidpf)out->alloc;
	if (inflateInit2(&z, 15 + 16) != Z_OK)
		return HEED_ENOMEM;
	z.next_in = (Bytef *)s;
	z.avail_in = len > UINT_MAX ? UINT_MAX : (uInt)len;
	while (rc == HEED_OK) {
		z.next_out = (Bytef *)chunk;
		z.avail_out = sizeof(chunk);
		zr = inflate(&z, Z_NO_FLUSH);
		if (zr == Z_MEM_ERROR)
			rc = HEED_ENOMEM;
		if (rc == HEED_OK)
			rc = heed__buf_add(out, chunk,
			                   sizeof(chunk) - z.avail_out);
		if (zr == Z_STREAM_END && z.avail_in > 2 &&
		    (unsigned char)z.next_in[0] == 0x1f)
			zr = inflateReset(&z);
		else if (zr != Z_OK)
			break;
	}
	inflateEnd(&z);
	if (rc == HEED_ETOOBIG) {
		*truncated = true;
		rc = HEED_OK;
	}
	/* A corrupt or cut stream keeps what was inflated. */
	return rc;
}

/* The encoding label of the XML declaration, or NULL; *n gets its
 * length. */
static const char *declared_encoding(const char *s, size_t len, size_t *n)
{
	const char *end;

	len = len < 200 ? len : 200;
	if (len < 5 || memcmp(s, "<?xml", 5) != 0 ||
	    !(end = memchr(s, '>', len)))
		return NULL;
	for (const char *p = s; p + 9 < end; p++) {
		if (memcmp(p, "encoding", 8) != 0)
			continue;
		p += 8;
		while (p < end &&
		       (*p == ' ' || *p == '=' || *p == '"' || *p == '\''))
			p++;
		*n = 0;
		while (p + *n < end && !strchr("\"' ?", p[*n]))
			(*n)++;
		return *n ? p : NULL;
	}
	return NULL;
}

/* The member key of a JSON object, or NULL. */
static struct json_object *jget(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	if (json_object_is_type(o, json_type_object))
		json_object_object_get_ex(o, key, &v);
	return v;
}

/* The member key's string, or NULL when absent or of another type. */
static const char *jstr(struct json_object *o, const char *key)
{
	struct json_object *v = jget(o, key);

	return json_object_is_type(v, json_type_string)
	               ? json_object_get_string(v)
	               : NULL;
}

static bool prefix_ieq(const char *s, const char *prefix)
{
	size_t n = strlen(prefix);

	return s && strlen(s) >= n && heed__ascii_ieq(s, n, prefix);
}

/* A trimmed copy of s in the arena, cut at EXTRACT_MAX_TEXT bytes on a
 * character boundary as the XML slots are, and stripped of tags when it
 * is HTML; NULL when s is absent or blank. */
static const char *json_text(struct parse *p, const char *s, bool html)
{
	size_t len;
	char *v;

	if (!s)
		return NULL;
	len = strlen(s);
	heed__trim(&s, &len);
	if (len > EXTRACT_MAX_TEXT) {
		len = EXTRACT_MAX_TEXT;
		while (len && ((unsigned char)s[len] & 0xC0) == 0x80)
			len--;
	}
	if (!len)
		return NULL;
	v = heed__arena_strndup(&p->f->arena, s, len);
	if (!v) {
		p->oom = HEED_ENOMEM;
		return NULL;
	}
	if (html)
		len = strip_markup(v, len);
	return len ? v : NULL;
}

/* The names of JSON Feed 1.1's "authors" array, else of version 1's
 * "author" object, joined by "; " as the record joins them; NULL when
 * none has a name. */
static const char *json_authors(struct parse *p, struct json_object *o)
{
	struct json_object *a = jget(o, "authors");
	bool array = json_object_is_type(a, json_type_array);
	size_t n = array ? json_object_array_length(a) : 0, kept = 0;
	struct heed_buf names;
	heed_status rc = HEED_OK;
	const char *v = NULL;

	if (!array) {
		a = jget(o, "author");
		n = a ? 1 : 0;
	}
	heed__buf_init(&names, p->f->alloc, EXTRACT_MAX_TEXT);
	for (size_t i = 0; i < n && kept < EXTRACT_MAX_AUTHORS && !rc; i++) {
		const char *name = jstr(
		        array ? json_object_array_get_idx(a, i) : a, "name");
		size_t len = name ? strlen(name) : 0;
		if (name)
			heed__author_unprefix(&name, &len);
		if (!len)
			continue;
		if (kept++)
			rc = heed__buf_add(&names, "; ", 2);
		if (!rc)
			rc = heed__buf_add(&names, name, len);
	}
	if (rc == HEED_ENOMEM)
		p->oom = rc;
	else if (names.len &&
	         !(v = heed__arena_strndup(&p->f->arena, heed__buf_str(&names),
	                                   names.len)))
		p->oom = HEED_ENOMEM;
	heed__buf_free(&names);
	return v;
}

static void json_date(struct parse *p, struct json_object *item,
                      const char *key, const char **iso, int64_t *unix_s)
{
	const char *v = jstr(item, key);

	if (v)
		set_date(v, iso, unix_s, p);
}

/* One item of "items": its url is the item's page (external_url is what
 * the page links to, another site's, and is not read); an id names the
 * page only when it is an absolute http(s) URL, since the spec lets it be
 * any unique string. Items without authors have the feed's (1.1 3). */
static void json_item(struct parse *p, struct json_object *item,
                      const char *feed_authors)
{
	struct json_object *tags = jget(item, "tags");
	const char *id = jstr(item, "id");

	if (!json_object_is_type(item, json_type_object)) {
		p->f->skipped++;
		return;
	}
	reset_entry(p);
	p->raw_url = jstr(item, "url");
	if (prefix_ieq(id, "http://") || prefix_ieq(id, "https://"))
		p->guid = id;
	p->e.title = json_text(p, jstr(item, "title"), false);
	p->e.description = json_text(p, jstr(item, "summary"), false);
	if (!p->e.description)
		p->e.description =
		        json_text(p, jstr(item, "content_text"), false);
	if (!p->e.description)
		p->e.description =
		        json_text(p, jstr(item, "content_html"), true);
	json_date(p, item, "date_published", &p->e.published,
	          &p->e.published_s);
	json_date(p, item, "date_modified", &p->e.updated, &p->e.updated_s);
	if (json_object_is_type(tags, json_type_array))
		for (size_t i = 0; i < json_object_array_length(tags); i++) {
			struct json_object *t =
			        json_object_array_get_idx(tags, i);
			if (json_object_is_type(t, json_type_string))
				add_tag(p, json_object_get_string(t),
				        (size_t)json_object_get_string_len(t));
		}
	p->e.author = json_authors(p, item);
	if (!p->e.author)
		p->e.author = feed_authors;
	/* Image URLs are recorded, never fetched. */
	p->e.thumbnail = resolve(p, jstr(item, "image"));
	if (!p->e.thumbnail)
		p->e.thumbnail = resolve(p, jstr(item, "banner_image"));
	finish_entry(p);
}

/* A JSON Feed says so by its "version"; without one, only a Content-Type
 * that names the format makes an object a feed. */
static bool is_json_feed(const struct parse *p, struct json_object *root)
{
	const char *version = jstr(root, "version");

	if (!json_object_is_type(root, json_type_object))
		return false;
	if (version)
		return prefix_ieq(version, JSONFEED_VERSION) ||
		       prefix_ieq(version, JSONFEED_VERSION_HTTP);
	return p->json_typed && !jget(root, "version");
}

/* Reads a parsed document as a JSON Feed; the kind stays unknown when it
 * is none. */
static void json_feed(struct parse *p, struct json_object *root)
{
	struct json_object *items = jget(root, "items");
	const char *authors;
	size_t n;

	if (!is_json_feed(p, root))
		return;
	p->f->kind = HEED_FEED_JSON;
	p->max_entries = HEED_FEED_MAX_ENTRIES;
	p->f->title = json_text(p, jstr(root, "title"), false);
	p->f->next = resolve(p, jstr(root, "next_url"));
	authors = json_authors(p, root);
	n = json_object_is_type(items, json_type_array)
	            ? json_object_array_length(items)
	            : 0;
	for (size_t i = 0; i < n && !p->f->truncated && !p->oom; i++)
		json_item(p, json_object_array_get_idx(items, i), authors);
}

/* Where a JSON object opens in s (past a UTF-8 BOM and white space), or
 * len when s is no JSON object. */
static size_t json_start(const char *s, size_t len)
{
	size_t i = len >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;

	while (i < len &&
	       (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
		i++;
	return i < len && s[i] == '{' ? i : len;
}

/* True when s holds more than JSONFEED_MAX_VALUES values, counted by
 * the separators and openers outside strings, before json-c spends
 * memory on them. */
static bool json_too_many_values(const char *s, size_t len)
{
	size_t n = 0;
	bool in_string = false;

	for (size_t i = 0; i < len; i++) {
		char ch = s[i];
		if (in_string) {
			if (ch == '\\')
				i++;
			else if (ch == '"')
				in_string = false;
		} else if (ch == '"') {
			in_string = true;
		} else if ((ch == ',' || ch == '[' || ch == '{') &&
		           ++n > JSONFEED_MAX_VALUES) {
			return true;
		}
	}
	return false;
}

/* The document's root, or NULL when it does not parse or is over the
 * limits (then marked truncated: a cut document does not parse either). */
static struct json_object *json_root(struct parse *p, const char *s, size_t len)
{
	struct json_tokener *tok;
	struct json_object *root;

	if (len > JSONFEED_MAX_BYTES || json_too_many_values(s, len)) {
		p->f->truncated = true;
		return NULL;
	}
	tok = json_tokener_new_ex(EXTRACT_JSONLD_DEPTH);
	if (!tok) {
		p->oom = HEED_ENOMEM;
		return NULL;
	}
	root = json_tokener_parse_ex(tok, s, (int)len);
	if (json_tokener_get_error(tok) != json_tokener_success) {
		json_object_put(root);
		root = NULL;
	}
	json_tokener_free(tok);
	return root;
}

/* RFC 8259 8.1: JSON is UTF-8; bad bytes are replaced as in XML. */
static heed_status parse_json(struct parse *p, const char *s, size_t len,
                              const struct heed_allocator *a)
{
	struct heed_buf clean;
	struct json_object *root = NULL;
	const char *used, *text = NULL;
	size_t text_len = 0;
	heed_status rc;

	heed__buf_init(&clean, a, 3 * (size_t)HEED_SITEMAP_MAX_BYTES);
	rc = heed__to_utf8(&clean, s, len, "utf-8", 5, &used, &text, &text_len);
	if (rc == HEED_ETOOBIG) {
		p->f->truncated = true;
		rc = HEED_OK;
	}
	if (rc == HEED_OK && !p->f->truncated)
		root = json_root(p, text, text_len);
	if (root)
		json_feed(p, root);
	json_object_put(root);
	heed__buf_free(&clean);
	return rc == HEED_OK ? p->oom : rc;
}

/*
 * XML goes through the same conversion as HTML (charset.c): the declared
 * encoding, else a BOM, else UTF-8 if valid, else windows-1252, with bad
 * bytes replaced. libxml2 then parses UTF-8 and ignores the declaration,
 * so it never converts, and never prints a conversion error to stderr
 * (libheed never prints).
 */
static heed_status parse_body(struct parse *p, const char *s, size_t len,
                              const struct heed_allocator *a)
{
	struct heed_buf clean;
	const char *label, *used, *text = NULL;
	size_t i = 0, llen = 0, text_len = 0;
	heed_status rc;

	if ((i = json_start(s, len)) < len)
		return parse_json(p, s + i, len - i, a);
	i = 0;
	while (i < len && (unsigned char)s[i] <= ' ')
		i++;
	if (i == len ||
	    (s[i] != '<' && (unsigned char)s[i] != 0xEF &&
	     (unsigned char)s[i] != 0xFE && (unsigned char)s[i] != 0xFF)) {
		parse_text(p, s, len);
		return p->oom;
	}
	label = declared_encoding(s + i, len - i, &llen);
	/* XML 1.0 4.3.3: without a declaration or a BOM, it is UTF-8. */
	if (!label && (unsigned char)s[i] != 0xFE &&
	    (unsigned char)s[i] != 0xFF) {
		label = "utf-8";
		llen = 5;
	}
	heed__buf_init(&clean, a, 3 * (size_t)HEED_SITEMAP_MAX_BYTES);
	rc = heed__to_utf8(&clean, s, len, label, llen, &used, &text,
	                   &text_len);
	if (rc == HEED_ETOOBIG) {
		p->f->truncated = true;
		rc = HEED_OK;
	}
	if (rc == HEED_OK)
		parse_xml(p, text ? text : heed__buf_str(&clean),
		          text ? text_len : clean.len);
	heed__buf_free(&clean);
	return rc == HEED_OK ? p->oom : rc;
}

static heed_status run(struct parse *p, const struct heed_extract_input *in,
                       const struct heed_allocator *a)
{
	const char *body = in->body ? in->body : "";
	size_t len = in->body_len;
	struct heed_buf plain;
	heed_status rc;

	heed__buf_init(&plain, a, HEED_SITEMAP_MAX_BYTES);
	if (len >= 2 && (unsigned char)body[0] == 0x1f &&
	    (unsigned char)body[1] == 0x8b) {
		rc = gunzip(&plain, body, len, &p->f->truncated);
		if (rc != HEED_OK) {
			heed__buf_free(&plain);
			return rc;
		}
		body = heed__buf_str(&plain);
		len = plain.len;
	} else if (len > HEED_SITEMAP_MAX_BYTES) {
		len = HEED_SITEMAP_MAX_BYTES;
		p->f->truncated = true;
	}
	rc = parse_body(p, body, len, a);
	heed__buf_free(&plain);
	return rc;
}

/* True when the Content-Type is JSON Feed's own, application/feed+json. */
static bool typed_json_feed(const struct heed_extract_input *in)
{
	const char *ct = in->content_type;
	size_t n;

	for (size_t i = 0; !ct && i < in->header_count; i++)
		if (in->headers[i].name &&
		    heed__ascii_ieq(in->headers[i].name,
		                    strlen(in->headers[i].name),
		                    "Content-Type"))
			ct = in->headers[i].value;
	if (!ct)
		return false;
	ct += strspn(ct, " \t");
	n = strcspn(ct, "; \t");
	return heed__ascii_ieq(ct, n, "application/feed+json");
}

heed_status heed_extract_feed(heed_feed **out,
                              const struct heed_extract_input *in,
                              const struct heed_allocator *alloc,
                              struct heed_diag *diag)
{
	const struct heed_allocator *a =
	        alloc ? alloc : heed_allocator_default();
	heed_url *base = NULL;
	struct parse p;
	heed_status rc;

	*out = NULL;
	rc = in->url ? heed_url_parse(&base, in->url, strlen(in->url), a)
	             : HEED_EINVAL;
	if (rc != HEED_OK)
		return heed_diag_set(diag, rc == HEED_ENOMEM ? rc : HEED_EINVAL,
		                     0, 0, "feed URL %s unusable",
		                     in->url ? in->url : "(none)");
	memset(&p, 0, sizeof(p));
	p.base = base;
	p.json_typed = typed_json_feed(in);
	p.f = heed__calloc(a, 1, sizeof(*p.f));
	if (!p.f) {
		heed_url_free(base);
		return HEED_ENOMEM;
	}
	p.f->alloc = a;
	heed__arena_init(&p.f->arena, a);
	heed__buf_init(&p.text, a, EXTRACT_MAX_TEXT);
	p.max_entries = HEED_SITEMAP_MAX_URLS;
	rc = run(&p, in, a);
	heed__buf_free(&p.text);
	heed_url_free(base);
	if (rc == HEED_OK && p.f->kind == HEED_FEED_UNKNOWN)
		rc = heed_diag_set(diag, HEED_EPARSE, 0, 0,
		                   "neither a feed nor a sitemap");
	else if (rc == HEED_OK && p.f->kind == HEED_FEED_SITEMAP_INDEX &&
	         in->sitemap_depth >= HEED_SITEMAP_MAX_DEPTH)
		rc = heed_diag_set(diag, HEED_EDENIED, 0, 0,
		                   "sitemap index nested %u deep",
		                   in->sitemap_depth);
	if (rc != HEED_OK) {
		heed_feed_free(p.f);
		return rc;
	}
	*out = p.f;
	return HEED_OK;
}

heed_feed_kind heed_feed_kind_get(const heed_feed *f)
{
	return f->kind;
}

const char *heed_feed_title(const heed_feed *f)
{
	return f->title;
}

size_t heed_feed_entry_count(const heed_feed *f)
{
	return f->count;
}

const struct heed_feed_entry *heed_feed_entry(const heed_feed *f, size_t i)
{
	return i < f->count ? &f->entries[i] : NULL;
}

const char *heed_feed_next(const heed_feed *f)
{
	return f->next;
}

unsigned heed_feed_skipped(const heed_feed *f)
{
	return f->skipped;
}

bool heed_feed_truncated(const heed_feed *f)
{
	return f->truncated;
}

void heed_feed_free(heed_feed *f)
{
	if (!f)
		return;
	heed__arena_free(&f->arena);
	heed__free(f->alloc, f->entries);
	heed__free(f->alloc, f);
}
