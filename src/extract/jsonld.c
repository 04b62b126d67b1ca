/*
 * JSON-LD (<script type="application/ld+json">) through json-c.
 *
 * json-c is lenient where real pages need it (comments, trailing commas,
 * raw control characters in strings) and keeps integers exact in 64 bits,
 * so a view count of 2^53 + 1 survives (notes 2.5). Its default depth
 * limit of 32 rejects deep but valid graphs, so it is raised to
 * EXTRACT_JSONLD_DEPTH. The wrappers that templates put around the JSON
 * (comments, CDATA, a BOM, semicolons; unwrap()) are stripped first; a
 * block that still fails to parse is skipped and counted
 * (record.jsonld_errors), never fatal.
 *
 * Which object describes the page: every typed object found at the top, in
 * an array, in "@graph" or as a "mainEntity" is ranked by its @type (video
 * first, then articles and other creative works, then web pages, then
 * anything else; breadcrumbs, organisations, people and sites never), and
 * values are offered best-ranked object first, so a VideoObject's name beats
 * the WebPage's. Walking is iterative and bounded (EXTRACT_MAX_JSONLD_NODES).
 */
#include <json-c/json.h>
#include <stdio.h>

#include "extract/extract-int.h"

struct node {
	struct json_object *o;
	int rank;
};

struct nodes {
	struct node n[EXTRACT_MAX_JSONLD_NODES];
	size_t count;
};

static bool prefix_strip(const char **s, size_t *len, const char *p)
{
	size_t n = strlen(p);

	if (*len >= n && memcmp(*s, p, n) == 0) {
		*s += n;
		*len -= n;
		return true;
	}
	return false;
}

static bool suffix_strip(const char *s, size_t *len, const char *p)
{
	size_t n = strlen(p);

	if (*len >= n && memcmp(s + *len - n, p, n) == 0) {
		*len -= n;
		return true;
	}
	return false;
}

/*
 * What templates put around the JSON: a BOM, <!-- -->, CDATA sections bare
 * or hidden from script engines (//<![CDATA[ ... //]]> and its C-comment form),
 * stray semicolons. Each round strips one layer from either end; the
 * length shrinks every round, so the loop ends. Whatever still comes
 * before the first '{' or '[' is junk, and json-c stops at the end of the
 * value, so junk after it is never read.
 */
static void unwrap(const char **s, size_t *len)
{
	static const char *const heads[] = {"\xEF\xBB\xBF", "<!--",
	                                    "//<![CDATA[",  "/*<![CDATA[*/",
	                                    "<![CDATA[",    ";"};
	static const char *const tails[] = {"-->",     "//-->", "//]]>",
	                                    "/*]]>*/", "]]>",   ";"};
	bool more;

	do {
		more = false;
		heed__trim(s, len);
		for (size_t i = 0; i < HEED_ARRAY_SIZE(heads) && !more; i++)
			more = prefix_strip(s, len, heads[i]);
		for (size_t i = 0; i < HEED_ARRAY_SIZE(tails) && !more; i++)
			more = suffix_strip(*s, len, tails[i]);
	} while (more);
	while (*len && **s != '{' && **s != '[')
		(*s)++, (*len)--;
}

void heed__jsonld_add(struct builder *b, const char *s, size_t len,
                      bool declared)
{
	struct json_tokener *tok;
	struct json_object *o;

	if (b->jsonld_root_count == EXTRACT_MAX_JSONLD_BLOCKS)
		return;
	unwrap(&s, &len);
	if (!len || len > INT_MAX) {
		b->rec.jsonld_blocks += declared;
		b->rec.jsonld_errors += declared;
		return;
	}
	tok = json_tokener_new_ex(EXTRACT_JSONLD_DEPTH);
	if (!tok) {
		b->oom = HEED_ENOMEM;
		return;
	}
	o = json_tokener_parse_ex(tok, s, (int)len);
	if (!o || json_tokener_get_error(tok) != json_tokener_success) {
		/* An untyped script that is no JSON was never JSON-LD. */
		b->rec.jsonld_blocks += declared;
		b->rec.jsonld_errors += declared;
		json_object_put(o);
	} else {
		b->rec.jsonld_blocks++;
		b->jsonld_roots[b->jsonld_root_count++] = o;
	}
	json_tokener_free(tok);
}

static const char *str(struct json_object *o)
{
	return json_object_is_type(o, json_type_string)
	               ? json_object_get_string(o)
	               : NULL;
}

static struct json_object *get(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	if (json_object_is_type(o, json_type_object))
		json_object_object_get_ex(o, key, &v);
	return v;
}

/* The last segment of "http://schema.org/VideoObject". */
static const char *short_name(const char *s)
{
	const char *slash = strrchr(s, '/');

	return slash ? slash + 1 : s;
}

int heed__schema_rank(const char *t)
{
	static const struct {
		const char *type;
		int rank;
	} types[] = {
	        {"VideoObject", 0},
	        {"Movie", 0},
	        {"Episode", 0},
	        {"TVEpisode", 0},
	        {"Clip", 0},
	        {"MusicVideoObject", 0},
	        {"AudioObject", 0},
	        {"PodcastEpisode", 0},
	        {"MusicRecording", 0},
	        {"Article", 1},
	        {"NewsArticle", 1},
	        {"BlogPosting", 1},
	        {"LiveBlogPosting", 1},
	        {"Report", 1},
	        {"ScholarlyArticle", 1},
	        {"TechArticle", 1},
	        {"SocialMediaPosting", 1},
	        {"DiscussionForumPosting", 1},
	        {"Recipe", 1},
	        {"Product", 1},
	        {"Review", 1},
	        {"Event", 1},
	        {"Course", 1},
	        {"Book", 1},
	        {"CreativeWork", 1},
	        {"Photograph", 1},
	        {"WebPage", 2},
	        {"ItemPage", 2},
	        {"CollectionPage", 2},
	        {"AboutPage", 2},
	        {"ProfilePage", 2},
	        {"SearchResultsPage", 2},
	        {"MediaGallery", 2},
	        {"VideoGallery", 2},
	        {"QAPage", 2},
	        {"FAQPage", 2},
	        {"BreadcrumbList", -1},
	        {"Organization", -1},
	        {"NewsMediaOrganization", -1},
	        {"Corporation", -1},
	        {"LocalBusiness", -1},
	        {"Person", -1},
	        {"WebSite", -1},
	        {"ImageObject", -1},
	        {"SiteNavigationElement", -1},
	        {"ListItem", -1},
	        {"ItemList", -1},
	        {"SearchAction", -1},
	        {"Brand", -1},
	        {"Offer", -1},
	        {"AggregateRating", -1},
	        {"Rating", -1},
	        {"InteractionCounter", -1},
	        {"PostalAddress", -1},
	        {"ContactPoint", -1},
	        {"EntryPoint", -1},
	        {"WPHeader", -1},
	        {"WPFooter", -1},
	        {"WPSideBar", -1},
	        {"ReadAction", -1},
	};

	t = short_name(t);
	for (size_t i = 0; i < HEED_ARRAY_SIZE(types); i++)
		if (strcmp(t, types[i].type) == 0)
			return types[i].rank;
	return 3;
}

/* The best rank among the object's types; -1 for untyped or ignored. */
static int type_rank(struct json_object *o, const char **first)
{
	struct json_object *t = get(o, "@type");
	int best = -1;

	*first = NULL;
	if (str(t)) {
		*first = short_name(str(t));
		return heed__schema_rank(str(t));
	}
	if (!json_object_is_type(t, json_type_array))
		return -1;
	for (size_t i = 0; i < json_object_array_length(t) && i < 8; i++) {
		const char *s = str(json_object_array_get_idx(t, i));
		int r = s ? heed__schema_rank(s) : -1;
		if (s && !*first)
			*first = short_name(s);
		if (r >= 0 && (best < 0 || r < best))
			best = r;
	}
	return best;
}

static void consider(struct nodes *ns, struct json_object *o)
{
	const char *first;
	int rank;
	size_t i;

	if (!json_object_is_type(o, json_type_object) ||
	    ns->count == EXTRACT_MAX_JSONLD_NODES)
		return;
	rank = type_rank(o, &first);
	if (rank < 0)
		return;
	/* Insertion keeps equal ranks in document order. */
	for (i = ns->count; i > 0 && ns->n[i - 1].rank > rank; i--)
		ns->n[i] = ns->n[i - 1];
	ns->n[i] = (struct node){o, rank};
	ns->count++;
}

/* An object and its "mainEntity" (an object or an array of them). */
static void consider_main(struct nodes *ns, struct json_object *o)
{
	struct json_object *m = get(o, "mainEntity");

	consider(ns, o);
	if (!json_object_is_type(m, json_type_array)) {
		consider(ns, m);
		return;
	}
	for (size_t i = 0; i < json_object_array_length(m); i++)
		consider(ns, json_object_array_get_idx(m, i));
}

/* Objects and arrays of objects, one level deep: "@graph". */
static void consider_all(struct nodes *ns, struct json_object *o)
{
	if (!json_object_is_type(o, json_type_array)) {
		consider_main(ns, o);
		return;
	}
	for (size_t i = 0; i < json_object_array_length(o); i++)
		consider_main(ns, json_object_array_get_idx(o, i));
}

static void collect(struct nodes *ns, struct json_object *root)
{
	bool array = json_object_is_type(root, json_type_array);
	size_t n = array ? json_object_array_length(root) : 1;

	for (size_t i = 0; i < n; i++) {
		struct json_object *o =
		        array ? json_object_array_get_idx(root, i) : root;
		consider_all(ns, get(o, "@graph"));
		consider_main(ns, o);
	}
}

static void offer_at(struct builder *b, enum field f, enum origin o, int sub,
                     struct json_object *v)
{
	const char *s = str(v);

	if (s)
		heed__cand(b, f, o, sub, s, strlen(s));
}

static void offer(struct builder *b, enum field f, int sub,
                  struct json_object *v)
{
	offer_at(b, f, O_JSONLD, sub, v);
}

/* A count as json-c holds it: an exact integer, an integral double, or a
 * string with separators. */
static bool count_of(struct json_object *v, int64_t *n)
{
	if (json_object_is_type(v, json_type_int)) {
		*n = json_object_get_int64(v);
		return *n >= 0;
	}
	if (json_object_is_type(v, json_type_double)) {
		double d = json_object_get_double(v);
		if (!(d >= 0 && d < 9007199254740992.0) ||
		    d != (double)(int64_t)d)
			return false;
		*n = (int64_t)d;
		return true;
	}
	return str(v) && heed__parse_count(str(v), strlen(str(v)), n);
}

static void offer_count(struct builder *b, int sub, int64_t n)
{
	char num[24];

	snprintf(num, sizeof(num), "%lld", (long long)n);
	heed__cand(b, F_VIEWS, O_JSONLD, sub, num, strlen(num));
}

static bool is_view_action(struct json_object *t)
{
	const char *s = str(t) ? str(t) : str(get(t, "@type"));

	if (!s)
		return false;
	s = short_name(s);
	return strcmp(s, "WatchAction") == 0 || strcmp(s, "ViewAction") == 0 ||
	       strcmp(s, "ListenAction") == 0;
}

/* interactionStatistic: an InteractionCounter or an array of them; the
 * first one counting watches, views or listens wins. Then the superseded
 * interactionCount ("UserPlays:1234" or a number). */
static void offer_views(struct builder *b, struct json_object *o)
{
	struct json_object *st = get(o, "interactionStatistic");
	struct json_object *legacy = get(o, "interactionCount");
	bool array = json_object_is_type(st, json_type_array);
	size_t n = array ? json_object_array_length(st) : (st ? 1 : 0);
	int64_t v;

	for (size_t i = 0; i < n; i++) {
		struct json_object *c =
		        array ? json_object_array_get_idx(st, i) : st;
		if (is_view_action(get(c, "interactionType")) &&
		    count_of(get(c, "userInteractionCount"), &v)) {
			offer_count(b, 0, v);
			return;
		}
	}
	if (str(legacy))
		heed__cand(b, F_VIEWS, O_JSONLD, 0, str(legacy),
		           strlen(str(legacy)));
	else if (count_of(legacy, &v))
		offer_count(b, 0, v);
}

static void offer_keywords(struct builder *b, struct json_object *k)
{
	if (str(k)) {
		heed__tags(b, O_JSONLD, str(k), strlen(str(k)), true);
		return;
	}
	if (!json_object_is_type(k, json_type_array))
		return;
	for (size_t i = 0; i < json_object_array_length(k); i++) {
		const char *s = str(json_object_array_get_idx(k, i));
		if (s)
			heed__tags(b, O_JSONLD, s, strlen(s), false);
	}
}

/* A name: a string, or the first string of an array ("name": ["Ada"]). */
static const char *name_of(struct json_object *v)
{
	if (json_object_is_type(v, json_type_array))
		v = json_object_array_get_idx(v, 0);
	return str(v);
}

/* True when an object's @type is an organisation, not a person. */
static bool is_organization(struct json_object *x)
{
	const char *t;

	(void)type_rank(x, &t);
	return t &&
	       (strstr(t, "Organization") || strcmp(t, "Corporation") == 0);
}

/* A list's object whose "@id" is id: one level into arrays and "@graph". */
static struct json_object *with_id(struct json_object *list, const char *id,
                                   int depth)
{
	bool array = json_object_is_type(list, json_type_array);
	size_t n = array ? json_object_array_length(list) : 1;

	for (size_t i = 0; i < n && i < EXTRACT_MAX_JSONLD_NODES; i++) {
		struct json_object *o =
		        array ? json_object_array_get_idx(list, i) : list;
		const char *oid = str(get(o, "@id"));
		if (oid && strcmp(oid, id) == 0 && get(o, "name"))
			return o;
		if (depth < 2 && get(o, "@graph")) {
			struct json_object *f =
			        with_id(get(o, "@graph"), id, depth + 1);
			if (f)
				return f;
		}
	}
	return NULL;
}

/* An author given only as a reference ({"@id": "...#/schema/person/1"},
 * Yoast's graphs): the node of the page's JSON-LD that it names. */
static struct json_object *dereference(const struct builder *b,
                                       struct json_object *x)
{
	const char *id = str(get(x, "@id"));

	if (!id || str(x) || get(x, "name"))
		return x;
	for (size_t i = 0; i < b->jsonld_root_count; i++) {
		struct json_object *f = with_id(b->jsonld_roots[i], id, 0);
		if (f)
			return f;
	}
	return x;
}

/* author: "Name", {"name": ...} (a Person or an Organization) or an array
 * of either (an {"@id"} reference is looked up in the page's graph),
 * joined by "; " (trafilatura's habit) and split again into
 * the record's authors; "By " prefixes go. When every author is an
 * organisation, the credit ranks after the page's byline (O_JSONLD_ORG):
 * a person the page names is the author, the newsroom a last resort;
 * the first organisation is offered as the publisher too. */
static void offer_author(struct builder *b, struct json_object *a)
{
	bool array = json_object_is_type(a, json_type_array);
	size_t n = array ? json_object_array_length(a) : (a ? 1 : 0);
	bool person = false;
	struct heed_buf names;

	/* A name is at most 64 bytes (docs/metadata.md) and a paper may
	 * credit a hundred. */
	heed__buf_init(&names, b->alloc, EXTRACT_MAX_AUTHORS * 66);
	for (size_t i = 0; i < n && i < EXTRACT_MAX_AUTHORS; i++) {
		struct json_object *x = dereference(
		        b, array ? json_object_array_get_idx(a, i) : a);
		const char *s = str(x) ? str(x) : name_of(get(x, "name"));
		size_t len = s ? strlen(s) : 0;
		if (s)
			heed__author_unprefix(&s, &len);
		if (!len)
			continue;
		person |= !is_organization(x);
		if (names.len)
			(void)heed__buf_add(&names, "; ", 2);
		(void)heed__buf_add(&names, s, len);
	}
	if (names.len)
		heed__cand(b, F_AUTHOR, person ? O_JSONLD : O_JSONLD_ORG, 0,
		           names.data, names.len);
	/* An organisation credited as the author ("By Radio Nord" on a
	 * podcast) publishes the work: the publisher when the page names
	 * none (record.c ranks it after every declared one). */
	if (names.len && !person)
		heed__cand(b, F_PUBLISHER, O_JSONLD_ORG, 0, names.data,
		           strcspn(names.data, ";"));
	heed__buf_free(&names);
}

/* The name of an author entry: a string, or a Person's or an
 * Organization's name. */
static const char *entry_name(struct builder *b, struct json_object *x)
{
	x = dereference(b, x);
	return str(x) ? str(x) : name_of(get(x, "name"));
}

/* The work's writers: its author, or its creator list when that lists the
 * one author among more, each a name of two words or more (refinery29's
 * "author" holds the first writer, "creator" every one: schema.org's
 * creator is the author property for a creative work; "EFE" beside
 * "Cooperativa.cl" is an agency and the site, no list of writers). */
static struct json_object *writers(struct builder *b, struct json_object *o)
{
	struct json_object *a = get(o, "author"), *c = get(o, "creator");
	const char *one;
	bool listed = false;

	if (!a || json_object_is_type(a, json_type_array) || !c ||
	    !json_object_is_type(c, json_type_array) ||
	    json_object_array_length(c) < 2 || !(one = entry_name(b, a)))
		return a;
	for (size_t i = 0; i < json_object_array_length(c); i++) {
		const char *n = entry_name(b, json_object_array_get_idx(c, i));
		if (!n || !strchr(n, ' '))
			return a;
		listed |= strcmp(n, one) == 0;
	}
	return listed ? c : a;
}

/* image or thumbnailUrl: a URL string, an ImageObject or an array. */
static void offer_image(struct builder *b, int sub, struct json_object *v)
{
	if (json_object_is_type(v, json_type_array))
		v = json_object_array_get_idx(v, 0);
	if (!str(v))
		v = get(v, "url") ? get(v, "url") : get(v, "contentUrl");
	offer(b, F_THUMBNAIL, sub, v);
}

/* publisher: {"name": ...}, a bare name, or an array (the first named). */
static void offer_publisher(struct builder *b, struct json_object *p)
{
	const char *s;

	if (json_object_is_type(p, json_type_array))
		p = json_object_array_get_idx(p, 0);
	s = str(p) ? str(p) : name_of(get(p, "name"));
	if (!s)
		return;
	heed__site_name_seen(b, s, strlen(s));
	heed__cand(b, F_SITE_NAME, O_JSONLD, 0, s, strlen(s));
	heed__cand(b, F_PUBLISHER, O_JSONLD, 0, s, strlen(s));
}

/* Where an object's dates rank: a VideoObject on a page that declares
 * another og:type is a clip the page embeds, and its upload date is the
 * clip's; it still dates the page when nothing else does, but every
 * declared date of the page (meta, microdata) comes first. */
static enum origin date_origin(const struct builder *b, struct json_object *o)
{
	const char *og = b->cand[F_OG_TYPE].value;
	const char *type;

	(void)type_rank(o, &type);
	if (og && strncmp(og, "video", 5) != 0 && type &&
	    strcmp(type, "VideoObject") == 0)
		return O_JSONLD_CLIP;
	return O_JSONLD;
}

/* Offers one object's values. All use sub-rank 0: objects are applied
 * best first and, within one, preferred keys first, so the first offer of
 * a field wins (a VideoObject's name beats a WebPage's headline). */
static void apply_node(struct builder *b, struct json_object *o)
{
	const char *type;
	enum origin dates;

	(void)type_rank(o, &type);
	if (type)
		heed__cand(b, F_SCHEMA_TYPE, O_JSONLD, 0, type, strlen(type));
	offer(b, F_TITLE, 0, get(o, "headline"));
	offer(b, F_TITLE, 0, get(o, "name"));
	offer(b, F_DESCRIPTION, 0, get(o, "description"));
	offer_keywords(b, get(o, "keywords"));
	offer_views(b, o);
	dates = date_origin(b, o);
	offer_at(b, F_PUBLISHED, dates, 0, get(o, "datePublished"));
	offer_at(b, F_PUBLISHED, dates, 0, get(o, "uploadDate"));
	offer_at(b, F_PUBLISHED, dates, 0, get(o, "dateCreated"));
	offer_at(b, F_MODIFIED, dates, 0, get(o, "dateModified"));
	offer_author(b, writers(b, o));
	offer(b, F_DURATION, 0, get(o, "duration"));
	offer_image(b, 0, get(o, "thumbnailUrl"));
	offer_image(b, 0, get(o, "thumbnailURL"));
	offer_image(b, 0, get(o, "image"));
	offer(b, F_LANGUAGE, 0, get(o, "inLanguage"));
	offer_publisher(b, get(o, "publisher"));
}

/* The dates of the page's article, offered before an embedded video's:
 * a news page's VideoObject outranks its NewsArticle for the title and
 * image, but its uploadDate is the clip's, not the page's. Not on a
 * page that says it is a video (og:type video.*). */
static void apply_article_dates(struct builder *b, const struct nodes *ns)
{
	const char *og = b->cand[F_OG_TYPE].value;

	if (og && strncmp(og, "video", 5) == 0)
		return;
	for (size_t i = 0; i < ns->count; i++)
		if (ns->n[i].rank == 1) {
			offer(b, F_PUBLISHED, 0,
			      get(ns->n[i].o, "datePublished"));
			offer(b, F_PUBLISHED, 0,
			      get(ns->n[i].o, "dateCreated"));
			offer(b, F_MODIFIED, 0,
			      get(ns->n[i].o, "dateModified"));
		}
}

/* The name of a top-level WebSite or Organization: the page's own site,
 * which publishes it. When it is also the og:site_name, it beats the
 * article's publisher (a sister publication the article was syndicated
 * from); otherwise it comes after that publisher. */
static void offer_site(struct builder *b, struct json_object *root)
{
	struct json_object *g = get(root, "@graph");
	struct json_object *list = g ? g : root;
	size_t n = json_object_is_type(list, json_type_array)
	                   ? json_object_array_length(list)
	                   : 1;
	const struct cand *site = &b->cand[F_SITE_NAME];

	for (size_t i = 0; i < n && i < EXTRACT_MAX_JSONLD_NODES; i++) {
		struct json_object *o =
		        json_object_is_type(list, json_type_array)
		                ? json_object_array_get_idx(list, i)
		                : list;
		const char *t, *name;
		(void)type_rank(o, &t);
		name = name_of(get(o, "name"));
		if (!t || !name ||
		    !(strcmp(t, "WebSite") == 0 || is_organization(o)))
			continue;
		heed__site_name_seen(b, name, strlen(name));
		if (site->value && site->origin == O_OG &&
		    heed__ascii_ieq(name, strlen(name), site->value))
			heed__cand(b, F_PUBLISHER, O_JSONLD, 0, name,
			           strlen(name));
		else
			heed__cand(b, F_PUBLISHER, O_JSONLD, 1, name,
			           strlen(name));
	}
}

void heed__jsonld_apply(struct builder *b)
{
	struct nodes ns;

	ns.count = 0;
	for (size_t i = 0; i < b->jsonld_root_count; i++) {
		collect(&ns, b->jsonld_roots[i]);
		offer_site(b, b->jsonld_roots[i]);
	}
	apply_article_dates(b, &ns);
	for (size_t i = 0; i < ns.count; i++)
		apply_node(b, ns.n[i].o);
	for (size_t i = 0; i < b->jsonld_root_count; i++)
		json_object_put(b->jsonld_roots[i]);
	b->jsonld_root_count = 0;
}
