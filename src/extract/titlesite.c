/*
 * The people and the site around a page's title: the site name cut off a
 * title ("Title | Site"), bylines split into names ("By A, B and C"), and
 * the "By " prefix that authors carry in every source.
 *
 * Cutting is conservative (docs/metadata.md): a title is cut only where the
 * part beyond the separator equals a name the page declares for its site
 * (og:site_name, application-name, JSON-LD publisher.name), compared
 * without case; with no declared name, only a suffix that spells the
 * registrable domain ("Example News" on examplenews.com) counts. So
 * "Tom - Jerry" stays whole unless the site calls itself Jerry. The
 * page's own heading (or its Dublin Core title) settles it too: when it
 * reads "Tom", "Tom - Jerry" is cut there, whatever Jerry is.
 */
#include "extract/extract-int.h"

void heed__site_name_seen(struct builder *b, const char *s, size_t len)
{
	char *d;

	heed__trim(&s, &len);
	if (!len || b->site_name_count == EXTRACT_MAX_SITE_NAMES)
		return;
	d = heed__strdup_arena(b, s, len);
	if (d)
		b->site_names[b->site_name_count++] = d;
}

/* The length of the mark a heading's permalink ends s[0, len) with, or
 * 0: a pilcrow ("Basic Usage¶": Sphinx, MkDocs and Pelican write one into
 * a link at a heading's end), or a glyph of an icon font, which Unicode's
 * private use area holds (U+E000-U+F8FF: Read the Docs' theme writes
 * Font Awesome's link icon, U+F0C1, there instead). */
static size_t permalink_mark(const char *s, size_t len)
{
	const unsigned char *e = (const unsigned char *)s + len;

	if (len >= 2 && e[-2] == 0xC2 && e[-1] == 0xB6)
		return 2;
	if (len >= 3 && (e[-3] == 0xEE || (e[-3] == 0xEF && e[-2] <= 0xA3)) &&
	    e[-2] >= 0x80 && e[-2] <= 0xBF && e[-1] >= 0x80 && e[-1] <= 0xBF)
		return 3;
	return 0;
}

void heed__title_text_seen(struct builder *b, const char *s, size_t len,
                           bool declared)
{
	size_t mark;
	char *d;

	heed__trim(&s, &len);
	/* A heading's permalink is no word of it. */
	if ((mark = permalink_mark(s, len)) != 0) {
		len -= mark;
		heed__trim(&s, &len);
	}
	if (!len || b->title_text_count == EXTRACT_MAX_TITLE_TEXTS)
		return;
	d = heed__collapse(&b->arena, s, len, &b->oom);
	if (!d)
		return;
	b->title_text_declared[b->title_text_count] = declared;
	b->title_texts[b->title_text_count++] = d;
}

/* True when s[0, len) equals name, ASCII case and outer space ignored. */
static bool same_name(const char *s, size_t len, const char *name)
{
	size_t n = strlen(name);

	heed__trim(&s, &len);
	heed__trim(&name, &n);
	if (!len || n != len)
		return false;
	for (size_t i = 0; i < len; i++)
		if (heed__ascii_lower(s[i]) != heed__ascii_lower(name[i]))
			return false;
	return true;
}

static bool alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

/* The letters and digits of s, lower-cased, equal those of key[0, k)
 * ("Example News" and "examplenews", "Badische Zeitung" and
 * "badische-zeitung"). */
static bool spells_n(const char *s, size_t len, const char *key, size_t k)
{
	size_t j = 0;

	for (size_t i = 0; i < len; i++) {
		char c = heed__ascii_lower(s[i]);
		if (!alnum(c))
			continue;
		while (j < k && !alnum(key[j]))
			j++;
		if (j == k || key[j] != c)
			return false;
		j++;
	}
	while (j < k && !alnum(key[j]))
		j++;
	return k && j == k;
}

/* spells_n up to key's first '.'. */
static bool spells(const char *s, size_t len, const char *key)
{
	return spells_n(s, len, key, strcspn(key, "."));
}

bool heed__is_site_handle(const struct builder *b, const char *s, size_t len)
{
	if (!len || s[0] != '@')
		return false;
	s++, len--;
	if (heed__spells_site_domain(b, s, len))
		return true;
	for (size_t i = 0; i < b->site_name_count; i++) {
		char key[128];
		size_t k = 0;
		for (const char *p = b->site_names[i];
		     *p && k + 1 < sizeof(key); p++) {
			char c = heed__ascii_lower(*p);
			if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
				key[k++] = c;
		}
		key[k] = '\0';
		if (k && spells(s, len, key))
			return true;
	}
	return false;
}

bool heed__is_site_name(const struct builder *b, const char *s, size_t len)
{
	for (size_t i = 0; i < b->site_name_count; i++)
		if (same_name(s, len, b->site_names[i]))
			return true;
	return false;
}

bool heed__spells_site_domain(const struct builder *b, const char *s,
                              size_t len)
{
	const char *dom = heed_url_registrable_domain(b->page_url);

	/* With or without its suffix: "Wikipedia" on en.wikipedia.org,
	 * "MesOpinions.com" on www.mesopinions.com. */
	return dom &&
	       (spells(s, len, dom) || spells_n(s, len, dom, strlen(dom)));
}

/* Whether the words at the start of s (len bytes) spell key[0, k), their
 * letters and digits lower-cased, up to the end of a word: spells_n of
 * the shortest run of whole words that uses up the key. It stops at the
 * first letter or digit that does not match, so each character is read
 * from at most k + 1 starts, and a long name costs its length times the
 * key's, never its length squared (a meta author of 60,000 bytes took
 * seconds when every run was spelt anew). */
static bool words_spell(const char *s, size_t len, const char *key, size_t k)
{
	size_t j = 0;

	for (size_t i = 0; i < len; i++) {
		char c = heed__ascii_lower(s[i]);
		while (j < k && !alnum(key[j]))
			j++;
		if (!alnum(c)) {
			if (s[i] == ' ' && j == k)
				return true;
			continue;
		}
		if (j == k || key[j] != c)
			return false;
		j++;
	}
	while (j < k && !alnum(key[j]))
		j++;
	return j == k;
}

/* Whether the word at s (to a space or len) holds a letter or a digit. */
static bool word_has_alnum(const char *s, size_t len)
{
	for (size_t i = 0; i < len && s[i] != ' '; i++)
		if (alnum(heed__ascii_lower(s[i])))
			return true;
	return false;
}

bool heed__words_spell_site_domain(const struct builder *b, const char *s,
                                   size_t len)
{
	const char *dom = heed_url_registrable_domain(b->page_url);
	size_t k = dom ? strcspn(dom, ".") : 0;

	/* Each word that holds a letter or digit starts a run; a word of
	 * marks alone ("-") adds nothing to the run it would start. */
	for (size_t i = 0; k && i < len; i++)
		if (s[i] != ' ' && (i == 0 || s[i - 1] == ' ') &&
		    word_has_alnum(s + i, len - i) &&
		    words_spell(s + i, len - i, dom, k))
			return true;
	return false;
}

static bool is_site(struct builder *b, const char *s, size_t len)
{
	/* The registrable domain spelt out ("Wikipedia" on
	 * en.wikipedia.org, whose declared name is its foundation's). */
	return heed__is_site_name(b, s, len) ||
	       heed__spells_site_domain(b, s, len);
}

/* True when s is one of the page's other words for its title; with
 * declared, one a meta declares (a heading may be the site's masthead). */
static bool is_title_text(const struct builder *b, const char *s, size_t len,
                          bool declared)
{
	for (size_t i = 0; i < b->title_text_count; i++)
		if ((!declared || b->title_text_declared[i]) &&
		    same_name(s, len, b->title_texts[i]))
			return true;
	return false;
}

/* Separators between a title and its site, spaced on both sides so that
 * "Jean-Luc" or "9:30" never split. */
static const char *const seps[] = {
        " | ",        " - ",  " \xE2\x80\x93 ", " \xE2\x80\x94 ",
        " \xC2\xB7 ", " :: ", " \xC2\xBB ",     " \xC2\xAB ",
        " / ",        " -- "};

/* The last occurrence of sep in s[0, len), or NULL. */
static const char *last_of(const char *s, size_t len, const char *sep)
{
	size_t n = strlen(sep);
	const char *found = NULL;

	for (const char *p = s; len >= n && p + n <= s + len; p++) {
		p = memchr(p, sep[0], (size_t)(s + len - p));
		if (!p || p + n > s + len)
			break;
		if (memcmp(p, sep, n) == 0)
			found = p;
	}
	return found;
}

bool heed__is_title_suffix(const struct builder *b, const char *s, size_t len)
{
	const char *t = b->title_tag;
	size_t tlen = t ? strlen(t) : 0;

	/* A colon spaced on both sides ends a title before its site too
	 * ("CVS Health : Home : Jobs & Hire"); as a cut it is not used, since
	 * French puts a space before every colon ("Pétition : Non à ..."),
	 * but a value that is the part after the last one names no person. */
	for (size_t i = 0; t && i <= HEED_ARRAY_SIZE(seps); i++) {
		const char *sep = i < HEED_ARRAY_SIZE(seps) ? seps[i] : " : ";
		const char *p = last_of(t, tlen, sep);
		size_t n = strlen(sep);
		if (p && p > t && same_name(s, len, p + n))
			return true;
	}
	return false;
}

/* Drops the label WordPress's old default theme puts between a site's
 * name and a post's title ("Site » Blog Archive » Title"): a page of the
 * archive is no part of the title. */
static void drop_archive_label(const char **t, size_t *len)
{
	static const char *const labels[] = {"Blog Archive", "Blog Archiv"};

	for (size_t i = 0; i < HEED_ARRAY_SIZE(labels); i++) {
		size_t n = strlen(labels[i]);
		if (*len <= n || !heed__ascii_ieq(*t, n, labels[i]))
			continue;
		for (size_t j = 0; j < HEED_ARRAY_SIZE(seps); j++) {
			size_t m = strlen(seps[j]);
			if (*len > n + m && memcmp(*t + n, seps[j], m) == 0) {
				*t += n + m;
				*len -= n + m;
				return;
			}
		}
	}
}

/* Sets the title to s[0, len) and offers the site name it carried. */
static void cut(struct builder *b, const char *title, size_t tlen,
                const char *site, size_t slen)
{
	char *t;

	heed__trim(&title, &tlen);
	drop_archive_label(&title, &tlen);
	heed__trim(&site, &slen);
	if (!tlen || !slen)
		return;
	t = heed__strdup_arena(b, title, tlen);
	if (!t)
		return;
	b->cand[F_TITLE].value = t;
	heed__cand(b, F_SITE_NAME, O_TITLE_TAG, 0, site, slen);
	heed__cand(b, F_PUBLISHER, O_TITLE_TAG, 0, site, slen);
}

static bool has_sep(const char *s, size_t len)
{
	for (size_t i = 0; i < HEED_ARRAY_SIZE(seps); i++)
		if (last_of(s, len, seps[i]))
			return true;
	return false;
}

/* Words in s[0, len). */
static unsigned word_count(const char *s, size_t len)
{
	unsigned n = 0;

	for (size_t i = 0; i < len; i++)
		n += s[i] != ' ' && (i == 0 || s[i - 1] == ' ');
	return n;
}

/* A site's name as titles carry it: short (at most four words and 40
 * bytes) and shorter than the title it follows. */
static bool short_site(const char *site, size_t slen, size_t title_len)
{
	return slen && slen <= 40 && word_count(site, slen) <= 4 &&
	       slen < title_len;
}

static bool digit(char c)
{
	return c >= '0' && c <= '9';
}

/* True when s[0, len) holds a version number: at a word's start, digits,
 * a dot and a digit, after an optional "v" ("2.4", "3.11.2",
 * "v18.20.4"). */
static bool has_version(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		size_t k = i;
		if (i && s[i - 1] != ' ')
			continue;
		if (k < len && (s[k] == 'v' || s[k] == 'V'))
			k++;
		if (k >= len || !digit(s[k]))
			continue;
		while (k < len && digit(s[k]))
			k++;
		if (k + 1 < len && s[k] == '.' && digit(s[k + 1]))
			return true;
	}
	return false;
}

/* True when a word of s[0, len) names a set of documents. */
static bool has_set_word(const char *s, size_t len)
{
	static const char *const words[] = {"documentation", "dokumentation",
	                                    "manual", "handbook", "handbuch"};
	const char *end = s + len;

	for (const char *w = s; w < end;) {
		const char *sp = memchr(w, ' ', (size_t)(end - w));
		size_t n = (size_t)((sp ? sp : end) - w);
		for (size_t i = 0; i < HEED_ARRAY_SIZE(words); i++)
			if (heed__ascii_ieq(w, n, words[i]))
				return true;
		w += n + 1;
	}
	return false;
}

/* A documentation set's name, as a <title> carries it after the page's
 * own ("Python 3.11.2 documentation", "Apache HTTP Server Version 2.4"):
 * a version or a word naming a set. It is often longer than the page's
 * title ("json"), so short_site's length rule cannot judge it. */
static bool set_marked(const char *s, size_t len)
{
	return len <= 64 && word_count(s, len) <= 8 && !has_sep(s, len) &&
	       (has_version(s, len) || has_set_word(s, len));
}

/* True when the page's first heading, its masthead as often as its
 * title, reads s[0, len). */
static bool masthead(const struct builder *b, const char *s, size_t len)
{
	for (size_t i = 0; i < b->title_text_count; i++)
		if (!b->title_text_declared[i])
			return same_name(s, len, b->title_texts[i]);
	return false;
}

/* Whether the part after a page's title names its site: short, or a
 * set's name, marked so or read elsewhere on the page as its name (the
 * masthead, "The Rust Programming Language" over "What is Ownership?";
 * the title of its home link). */
static bool site_part(const struct builder *b, const char *site, size_t slen,
                      size_t title_len)
{
	if (has_sep(site, slen))
		return false;
	return short_site(site, slen, title_len) || set_marked(site, slen) ||
	       (slen <= 64 &&
	        (masthead(b, site, slen) ||
	         (b->home_title && same_name(site, slen, b->home_title))));
}

/* Offers a site's name read off the title, below any the page declares. */
static void offer_site(struct builder *b, const char *site, size_t slen)
{
	heed__cand(b, F_SITE_NAME, O_TITLE_TAG, 1, site, slen);
	heed__cand(b, F_PUBLISHER, O_TITLE_TAG, 1, site, slen);
}

/*
 * A page that declares no site name: "Post title | Site" names its site
 * after the last " | " when that part is short and shorter than the
 * rest. It gives publisher and site_name (source title), never cuts the
 * title: a '|' is the one separator sites use for their name, yet
 * "Q&A | Part 2" is a whole title too.
 */
static void title_publisher(struct builder *b, const char *t, size_t len)
{
	const char *p = last_of(t, len, " | ");
	const char *site;
	size_t slen;

	if (!p || b->site_name_count || b->cand[F_PUBLISHER].value)
		return;
	site = p + 3;
	slen = (size_t)(t + len - site);
	heed__trim(&site, &slen);
	if (short_site(site, slen, (size_t)(p - t)) || set_marked(site, slen))
		offer_site(b, site, slen);
}

/* True when a heading of the page reads s[0, len), alone or after at most
 * two words that say what it is: rustdoc's "Keyword match" over "match -
 * Rust", Apache's "Module Apache mod_rewrite" over "mod_rewrite - Apache
 * HTTP Server Version 2.4". */
static bool heading_reads(const struct builder *b, const char *s, size_t len)
{
	heed__trim(&s, &len);
	if (!len)
		return false;
	for (size_t i = 0; i < b->title_text_count; i++) {
		const char *h = b->title_texts[i];
		size_t hl = strlen(h);
		if (same_name(s, len, h))
			return true;
		if (!b->title_text_declared[i] && hl > len + 1 &&
		    h[hl - len - 1] == ' ' && same_name(s, len, h + hl - len) &&
		    word_count(h, hl - len - 1) <= 2)
			return true;
	}
	return false;
}

/* True when the page's masthead heading reads s[0, len), a set's name
 * ("URL | Node.js v18.20.4 Documentation" under a heading "Node.js
 * v18.20.4 documentation"): the title is the part before it. */
static bool masthead_set(const struct builder *b, const char *s, size_t len)
{
	heed__trim(&s, &len);
	return len && masthead(b, s, len) && set_marked(s, len);
}

/*
 * "Title - More" where the page's heading (or Dublin Core title) reads
 * "Title": the title is cut there; "More - Title" likewise when a meta
 * declares "Title" (a blog's masthead heading is its name). What was cut
 * off is offered as the site's name only after the title, when it is
 * short and holds no further separator ("Post - Blog"): before it, it is
 * as often a file name or a section ("draft-x-04 - remoteStorage"). A
 * title of three parts is cut at its first separator when the heading
 * reads the first part ("Post | Code | Nicolas Perriault").
 */
static bool heading_cut(struct builder *b, const char *t, size_t len)
{
	for (size_t i = 0; i < HEED_ARRAY_SIZE(seps); i++) {
		size_t n = strlen(seps[i]);
		const char *p = last_of(t, len, seps[i]);
		const char *site = p ? p + n : NULL;
		size_t slen = p ? (size_t)(t + len - site) : 0;
		char *title;

		if (p && (heading_reads(b, t, (size_t)(p - t)) ||
		          masthead_set(b, site, slen))) {
			title = heed__strdup_arena(b, t, (size_t)(p - t));
			if (!title)
				return true;
			b->cand[F_TITLE].value = title;
			heed__trim(&site, &slen);
			if (!b->site_name_count &&
			    !b->cand[F_PUBLISHER].value &&
			    site_part(b, site, slen, strlen(title)))
				offer_site(b, site, slen);
			return true;
		}
		/* "Title | Section | Site": the heading reads the part before
		 * the first separator. */
		p = strstr(t, seps[i]);
		if (p && p != last_of(t, len, seps[i]) &&
		    is_title_text(b, t, (size_t)(p - t), false)) {
			title = heed__strdup_arena(b, t, (size_t)(p - t));
			if (title)
				b->cand[F_TITLE].value = title;
			/* The last part may still name the site. */
			title_publisher(b, t, len);
			return true;
		}
		if (p &&
		    is_title_text(b, p + n, (size_t)(t + len - p - n), true)) {
			title = heed__strdup_arena(b, p + n,
			                           (size_t)(t + len - p - n));
			if (title)
				b->cand[F_TITLE].value = title;
			return true;
		}
	}
	return false;
}

/* True when s[0, len) is title, or ends with a separator and title
 * ("tag - Title": Stack Exchange puts a question's first tag first). */
static bool is_or_ends_with(const char *s, size_t len, const char *title)
{
	size_t tl = strlen(title);

	if (same_name(s, len, title))
		return true;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(seps); i++) {
		size_t n = strlen(seps[i]);
		if (len > tl + n && same_name(s + len - tl, tl, title) &&
		    memcmp(s + len - tl - n, seps[i], n) == 0)
			return true;
	}
	return false;
}

/*
 * A page that declares no site name but gives its title apart (og:title,
 * twitter:title, a heading that settled it): a <title> that reads that
 * title, then a separator and a short last part ("Title - Site", "tag -
 * Title - Site"), names the site in that part. The title is known, so
 * any separator counts here, not only " | ".
 */
static void site_after_title(struct builder *b)
{
	const char *t = b->title_tag, *title = b->cand[F_TITLE].value;
	size_t len;

	if (!t || !title || b->site_name_count || b->cand[F_PUBLISHER].value)
		return;
	len = strlen(t);
	for (size_t i = 0; i < HEED_ARRAY_SIZE(seps); i++) {
		size_t n = strlen(seps[i]);
		const char *p = last_of(t, len, seps[i]);
		const char *site = p ? p + n : NULL;
		size_t slen = p ? (size_t)(t + len - site) : 0;

		if (!p || !is_or_ends_with(t, (size_t)(p - t), title))
			continue;
		heed__trim(&site, &slen);
		if (site_part(b, site, slen, strlen(title)))
			offer_site(b, site, slen);
		return;
	}
}

/* The title of the page's home link names the set a chunk of a book or
 * manual belongs to (DocBook writes it on every chunk): offered after every
 * other name, unless it is the page's own title (the home page itself). */
static void home_name(struct builder *b)
{
	const char *h = b->home_title, *t = b->cand[F_TITLE].value;
	size_t n = h ? strlen(h) : 0;

	if (!n || (t && same_name(h, n, t)) ||
	    (b->title_tag && same_name(h, n, b->title_tag)))
		return;
	heed__cand(b, F_SITE_NAME, O_LINK, 1, h, n);
	heed__cand(b, F_PUBLISHER, O_LINK, 1, h, n);
}

/* The name the page's masthead shows over its content, its home link's
 * text or its logo's alt, names the publisher after every other source,
 * the title's parts and a home link's title included: a site that
 * declares its name nowhere still shows it to every reader. Not the
 * page's own title: a home page's masthead may link itself. */
static void masthead_name(struct builder *b)
{
	const char *m = b->masthead, *t = b->cand[F_TITLE].value;
	size_t n = m ? strlen(m) : 0;

	if (!n || (t && same_name(m, n, t)))
		return;
	heed__cand(b, F_PUBLISHER, O_HTML, 0, m, n);
}

/* "Postfix manual - postscreen(8)": a title of two parts whose first
 * names a documentation set by its word ("manual", "documentation",
 * "handbook") and more, as a set's pages lead with the set's name: the
 * page's title is the second part, the set its site. A set word alone
 * ("Manual - Installing") is a section's name as often. */
static bool set_first(struct builder *b, const char *t, size_t len)
{
	static const char sep[] = " - ";
	const char *p = strstr(t, sep);
	size_t n;

	if (!p || p != last_of(t, len, sep) || has_sep(t, (size_t)(p - t)) ||
	    has_sep(p + 3, (size_t)(t + len - p - 3)))
		return false;
	n = (size_t)(p - t);
	if (word_count(t, n) < 2 || !set_marked(t, n) || !has_set_word(t, n))
		return false;
	cut(b, p + 3, (size_t)(t + len - p - 3), t, n);
	return true;
}

/* True when s[0, len) is a file's name as texinfo names a manual: a
 * lower-case letter, then lower-case letters, digits and hyphens
 * ("zsh", "gawk", "gnupg2"). */
static bool manual_file(const char *s, size_t len)
{
	if (!len || s[0] < 'a' || s[0] > 'z')
		return false;
	for (size_t i = 1; i < len; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || digit(s[i]) ||
		      s[i] == '-'))
			return false;
	return true;
}

/* "15 Parameters (zsh)": texinfo's notation of a node in a manual, the
 * manual's file name in brackets after the node's, which the page's
 * heading reads alone. The title is the heading's; the manual's file
 * name is no site's name. */
static bool manual_node(struct builder *b, const char *t, size_t len)
{
	const char *open;
	char *title;

	if (len < 4 || t[len - 1] != ')' || !(open = memrchr(t, '(', len)) ||
	    open == t || open[-1] != ' ' ||
	    !manual_file(open + 1, (size_t)(t + len - open - 2)) ||
	    !heading_reads(b, t, (size_t)(open - 1 - t)))
		return false;
	title = heed__strdup_arena(b, t, (size_t)(open - 1 - t));
	if (title)
		b->cand[F_TITLE].value = title;
	return true;
}

/* Cuts the site's name off the chosen title, t. */
static void title_cut(struct builder *b, const char *t)
{
	size_t len = strlen(t);

	/* "Title | Site": the part after the last separator. */
	for (size_t i = 0; i < HEED_ARRAY_SIZE(seps); i++) {
		const char *p = last_of(t, len, seps[i]);
		size_t n = strlen(seps[i]);
		if (p && is_site(b, p + n, (size_t)(t + len - p - n))) {
			cut(b, t, (size_t)(p - t), p + n,
			    (size_t)(t + len - p - n));
			return;
		}
	}
	/* "Site: Title", "Site | Title": the part before the first. */
	for (size_t i = 0; i <= HEED_ARRAY_SIZE(seps); i++) {
		const char *sep = i < HEED_ARRAY_SIZE(seps) ? seps[i] : ": ";
		const char *p = strstr(t, sep);
		size_t n = strlen(sep);
		if (p && p > t && is_site(b, t, (size_t)(p - t))) {
			cut(b, p + n, strlen(p + n), t, (size_t)(p - t));
			return;
		}
	}
	if (set_first(b, t, len) || manual_node(b, t, len))
		return;
	if (!heading_cut(b, t, len))
		title_publisher(b, t, len);
	site_after_title(b);
}

void heed__title_site(struct builder *b)
{
	if (b->cand[F_TITLE].value)
		title_cut(b, b->cand[F_TITLE].value);
	home_name(b);
	masthead_name(b);
}

/* The words that lead a name in a byline or a profile link's text, lower
 * case: "View all posts by Ann Lee" (a theme's author box links the name
 * so), "Zeige alle Beiträge von Ann", "Alles von Ann" ("all by Ann"),
 * "Veröffentlicht von Ann", Blogger's German "Eingestellt von Ann"
 * ("posted by"). A theme's screen-reader text runs on into the
 * name without a space ("Veröffentlicht vonAnn Lee"), so a capital letter
 * may follow these directly. */
static const char *const name_leads[] = {"show all articles of",
                                         "view all posts by",
                                         "see all posts by",
                                         "view all articles by",
                                         "all posts by",
                                         "more posts by",
                                         "posts by",
                                         "articles by",
                                         "posted by",
                                         "published by",
                                         "written by",
                                         "authored by",
                                         "zeige alle beitr\xC3\xA4ge von",
                                         "alle beitr\xC3\xA4ge von",
                                         "alles von",
                                         "beitr\xC3\xA4ge von",
                                         "ver\303\266ffentlicht von",
                                         "geschrieben von",
                                         "erstellt von",
                                         "text von",
                                         "verfasst von",
                                         "gespeichert von",
                                         "eingestellt von",
                                         "voir tous les articles de",
                                         "voir tous les articles par",
                                         "tous les articles de",
                                         "publi\xC3\xA9 par",
                                         "\303\251crit par",
                                         "ver todas las entradas de",
                                         "entradas de",
                                         "publicado por",
                                         "escrito por",
                                         "visualizza tutti gli articoli di",
                                         "tutti gli articoli di",
                                         "pubblicato da",
                                         "scritto da",
                                         "alle berichten van",
                                         "geplaatst door",
                                         "geschreven door"};

/* Labels written before a name with a colon: "Interview: Ann Lee",
 * "Text: Ann", "Autor: Ann"; alone, a label is no name (a byline's
 * "Posted" or "Publiziert am" whose date came after it). */
static const char *const name_labels[] = {
        "interview",  "text",          "words",
        "author",     "autor",         "autorin",
        "auteur",     "autore",        "posted",
        "published",  "posted on",     "published on",
        "publiziert", "publiziert am", "ver\303\266ffentlicht am"};

/* Drops lead at the start of s[0, *len) (ASCII case ignored); a label
 * needs its colon (or nothing after it), a lead a space, a colon or (run
 * on) a capital after it. */
static bool drop_lead(const char **s, size_t *len, const char *lead, bool label)
{
	size_t n = strlen(lead), rest;
	const char *p;

	if (*len < n || !heed__ascii_ieq(*s, n, lead))
		return false;
	p = *s + n;
	rest = *len - n;
	if (label) {
		while (rest && *p == ' ')
			p++, rest--;
		if (rest && *p != ':')
			return false;
	} else if (rest && !strchr(" \t\r\n:", *p) &&
	           !(*p >= 'A' && *p <= 'Z')) {
		return false;
	}
	if (rest && *p == ':')
		p++, rest--;
	*s = p;
	*len = rest;
	heed__trim(s, len);
	return true;
}

/* "Ann Lee →", "Ann Lee »", "Ann Lee -": a profile link's arrow or a
 * separator the byline's date followed. */
static void drop_trailing_mark(const char *s, size_t *len)
{
	static const char *const marks[] = {"\xE2\x86\x92",
	                                    "\xC2\xBB",
	                                    "\xE2\x80\xBA",
	                                    "\xE2\x80\x93",
	                                    "\xE2\x80\x94",
	                                    " -",
	                                    "|",
	                                    ","};

	for (size_t i = 0; i < HEED_ARRAY_SIZE(marks); i++) {
		size_t n = strlen(marks[i]);
		if (*len > n && memcmp(s + *len - n, marks[i], n) == 0) {
			*len -= n;
			heed__trim(&s, len);
			return;
		}
	}
}

void heed__author_unprefix(const char **s, size_t *len)
{
	static const char *const prefixes[] = {"by",  "par",  "von",
	                                       "por", "door", "di"};

	heed__trim(s, len);
	drop_trailing_mark(*s, len);
	for (size_t i = 0; i < HEED_ARRAY_SIZE(name_leads); i++)
		if (drop_lead(s, len, name_leads[i], false))
			return;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(name_labels); i++)
		if (drop_lead(s, len, name_labels[i], true))
			return;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(prefixes); i++) {
		size_t n = strlen(prefixes[i]);
		/* "By Ann", "By: Ann", and a bare "By" or "By:" (nothing). */
		if (*len >= n && heed__ascii_ieq(*s, n, prefixes[i]) &&
		    (*len == n || strchr(" :\t\r\n", (*s)[n]))) {
			*s += n;
			*len -= n;
			if (*len && **s == ':')
				(*s)++, (*len)--;
			heed__trim(s, len);
			return;
		}
	}
}

/* One word that opens with a letter and holds a digit ("Bo2man", "r23",
 * "jdoe42"): a forum's or a CMS's account, which a byline credits where
 * the writer shows no name. A date or a time opens with a digit. */
static bool account_word(const char *s, size_t len)
{
	bool digit = false;

	for (size_t i = 0; i < len; i++) {
		char c = (char)(s[i] | 0x20);
		bool d = s[i] >= '0' && s[i] <= '9';
		if (!(c >= 'a' && c <= 'z') && !(d && i))
			return false;
		digit |= d;
	}
	return digit;
}

/* A name as bylines write them: no digits (a date) but in an account's
 * one word, at most six words and 64 bytes (a bio or a sentence is no
 * name). */
static bool name_like(const char *s, size_t len)
{
	unsigned words = 0;
	bool in_word = false;

	if (!len || len > 64)
		return false;
	if (account_word(s, len))
		return true;
	for (size_t i = 0; i < len; i++) {
		if (s[i] >= '0' && s[i] <= '9')
			return false;
		if (s[i] == ' ')
			in_word = false;
		else if (!in_word && ++words > 6)
			return false;
		else
			in_word = true;
	}
	return true;
}

/* Where the next name ends: ",", ";", " and ", " & ", " / ", " und ",
 * " et ", " y ", or an interview's " im Gespräch mit " and " in
 * conversation with " (a radio interview's byline credits both
 * speakers). A spaced slash sets writers side by side ("E. Barreneche /
 * J. I. da Silva"); one without spaces joins a name and its agency
 * ("Peter Maahn/SP-X"), cut as the author is read. *skip gets the
 * separator's length (0 at the end). */
static size_t name_end(const char *s, size_t len, size_t *skip)
{
	static const char *const words[] = {" and ",
	                                    " & ",
	                                    " / ",
	                                    " und ",
	                                    " et ",
	                                    " y ",
	                                    " im gespr\303\244ch mit ",
	                                    " in conversation with "};

	for (size_t i = 0; i < len; i++) {
		if (s[i] == ',' || s[i] == ';') {
			*skip = 1;
			return i;
		}
		if (s[i] != ' ')
			continue;
		for (size_t w = 0; w < HEED_ARRAY_SIZE(words); w++) {
			size_t n = strlen(words[w]);
			if (len - i >= n &&
			    heed__ascii_ieq(s + i, n, words[w])) {
				*skip = n;
				return i;
			}
		}
	}
	*skip = 0;
	return len;
}

/* True when the text from s to e ends in the word "by" (or "by:"). */
static bool ends_in_by(const char *s, const char *e)
{
	while (e > s &&
	       (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' || e[-1] == ':'))
		e--;
	return e - s >= 2 && heed__ascii_lower(e[-2]) == 'b' &&
	       heed__ascii_lower(e[-1]) == 'y' &&
	       (e - s == 2 || e[-3] == ' ' || e[-3] == '\n');
}

/* Drops the separators a theme puts before a byline that follows the date
 * ("28. Juni 2019 | Klaus Quibeldey-Cirkel": the byline's own text
 * starts "| "), so that they do not end the names before they begin. */
static void skip_lead_separators(const char **s, size_t *len)
{
	static const char *const marks[] = {
	        "|", "\xC2\xB7", "\xE2\x80\xA2", "\xE2\x80\x94", "\xE2\x80\x93",
	        "-", "/"};

	for (size_t i = 0; i < HEED_ARRAY_SIZE(marks); i++) {
		size_t n = strlen(marks[i]);
		if (*len >= n && memcmp(*s, marks[i], n) == 0 &&
		    (*len == n || strchr(" \t\r\n", (*s)[n]))) {
			*s += n;
			*len -= n;
			heed__trim(s, len);
			i = (size_t)-1; /* "| · Ann": again from the first mark
			                 */
		}
	}
}

/* A label of at most three words ending in a colon opens the byline
 * ("Artikel von:", "Geschrieben von:", a list's first item before the one
 * with the name): the names follow it. A digit or a slash before the
 * colon is a time or a URL, not a label. */
static void skip_label(const char **s, size_t *len)
{
	unsigned words = 0;
	bool in_word = false;

	for (size_t i = 0; i < *len && i < 32; i++) {
		char c = (*s)[i];
		if (c == ':') {
			*s += i + 1;
			*len -= i + 1;
			heed__trim(s, len);
			return;
		}
		if ((c >= '0' && c <= '9') || c == '/')
			return;
		if (strchr(" \t\r\n", c))
			in_word = false;
		else if (!in_word && ++words > 3)
			return;
		else
			in_word = true;
	}
}

/* True when s[0, i) ends in a space or a no-break space. */
static bool after_space(const char *s, size_t i)
{
	return (i >= 1 && s[i - 1] == ' ') ||
	       (i >= 2 && s[i - 2] == '\xC2' && s[i - 1] == '\xA0');
}

/* True when s[0, len) opens with the credit of another trade than the
 * writer's: "Illustration von", "Fotos:", "Photos by", "Bild:". */
static bool opens_credit(const char *s, size_t len)
{
	static const char *const trades[] = {
	        "Illustration", "Illustrationen", "Foto",   "Fotos", "Photo",
	        "Photos",       "Bild",           "Bilder", "Images"};
	static const char *const joins[] = {" von ", " by ", ": ",
	                                    " de ",  " di ", ":\xC2\xA0"};

	for (size_t t = 0; t < HEED_ARRAY_SIZE(trades); t++) {
		size_t n = strlen(trades[t]);
		if (len <= n || memcmp(s, trades[t], n) != 0)
			continue;
		for (size_t j = 0; j < HEED_ARRAY_SIZE(joins); j++) {
			size_t m = strlen(joins[j]);
			if (len - n >= m && memcmp(s + n, joins[j], m) == 0)
				return true;
		}
	}
	return false;
}

/* Cuts the names where the credit of another trade begins: "Text von Ann
 * Lee Illustration von Bo Chan", "By Ann Lee Photos: Bo Chan". The
 * illustrator or photographer is credited, not the author. */
static void cut_at_credit(const char *s, size_t *len)
{
	for (size_t i = 1; i < *len; i++) {
		if (s[i] < 'A' || s[i] > 'Z' || !after_space(s, i) ||
		    !opens_credit(s + i, *len - i))
			continue;
		*len = i;
		while (*len && after_space(s, *len))
			*len -= s[*len - 1] == ' ' ? 1 : 2;
		return;
	}
}

/* Cuts the names where a date begins, or a word for "on" before one:
 * "R. R. am 26.02.2014", "Didier Roy, 21 juin 2018", "Ann Lee on
 * September 21, 2020". A date is no part of a name, and a byline often
 * runs on into the day it was written. */
static void cut_at_date(const char *s, size_t *len)
{
	static const char *const ons[] = {"am ", "on ", "le ",
	                                  "el ", "il ", "op "};

	for (size_t i = 0; i < *len; i++) {
		const char *p = s + i;
		size_t rest = *len - i;
		bool on = false;
		if (i && s[i - 1] != ' ')
			continue;
		for (size_t w = 0; w < HEED_ARRAY_SIZE(ons) && !on; w++)
			if (rest > 3 && heed__ascii_ieq(p, 3, ons[w])) {
				p += 3;
				rest -= 3;
				on = true;
			}
		/* "Ann May 2019"? A capital with no "on" before it is
		 * taken for a name's word ("Jan Koch"). */
		if (!on && *p >= 'A' && *p <= 'Z')
			continue;
		if (heed__page_date_len(p, rest, NULL)) {
			*len = i;
			heed__trim(&s, len);
			return;
		}
	}
}

/* Cuts a name where a bracket opens after it: "Eberhard Fuhr
 * (Pressesprecher des EJW)", "Ann Lee (dpa)" give the person's role,
 * place or agency, no part of the name; "Ann Lee <ann@example.org>"
 * (an e-mail's form, Sphinx's "Author:" field) an address. */
static void cut_at_bracket(const char *s, size_t *len)
{
	const char *p = memchr(s, '(', *len);
	const char *angle = memchr(s, '<', *len);

	if (!p || (angle && angle < p))
		p = angle;

	if (p && p > s && p[-1] == ' ') {
		*len = (size_t)(p - s);
		heed__trim(&s, len);
	}
}

/* The length of the leading names of "A; B; C" whose every word starts
 * with a capital (or a letter past ASCII: from U+00C0, but not
 * U+2000-U+2FFF, punctuation and symbols, nor a no-break space or a
 * guillemet) or is a particle of a name ("van", "de"): all of it for
 * names, 0 for "By the time we arrived". */
size_t heed__capitalised_len(const char *names)
{
	size_t good = 0;

	for (const char *p = names; *p;) {
		size_t n = strcspn(p, " ;");
		unsigned char u = (unsigned char)*p;
		bool ok = (u >= 0xC3 && u != 0xE2) ||
		          (*p >= 'A' && *p <= 'Z') || heed__name_particle(p, n);
		if (n && !ok)
			return good;
		p += n;
		if (*p == ';')
			good = (size_t)(p - names);
		p += strspn(p, " ;");
	}
	return strlen(names);
}

/* The length of the names a byline line or a label gives in "A; B; C":
 * all of them when every word is capitalised, else those before the
 * first part that is not, when the first is a full name of two words or
 * more: a role or an agency follows the name after a comma ("Von Ann
 * Lee, dpa", "Autorin: Ann Lee, Projektleiterin der HSS in Tunesien"). A
 * sentence ("Von Albert Einstein wird berichtet") stays no name. */
size_t heed__line_names_len(const char *names)
{
	size_t n = heed__capitalised_len(names);

	if (!n || !names[n])
		return n;
	return memchr(names, ' ', strcspn(names, ";")) ? n : 0;
}

const char *heed__byline_names(struct builder *b, const char *s, size_t len)
{
	static const char *const stops[] = {"|", "\xC2\xB7", " \xE2\x80\x94 ",
	                                    " - ", "\n"};
	struct heed_buf out;
	const char *res = NULL;
	unsigned names = 0;

	/* "By Ana Lopez | 5 March 2024": the names come before any of these.
	 * White space before them is markup's ("<a>\nAna Lopez</a>"), and a
	 * line that ends in "by" runs on to the names. */
	heed__trim(&s, &len);
	/* "Foto: Ann Lee", a picture's credit in a caption's byline markup,
	 * names a photographer, not the author. */
	if (opens_credit(s, len))
		return NULL;
	skip_label(&s, &len);
	skip_lead_separators(&s, &len);
	for (size_t i = 0; i < HEED_ARRAY_SIZE(stops); i++) {
		const char *p = memmem(s, len, stops[i], strlen(stops[i]));
		if (p && i == HEED_ARRAY_SIZE(stops) - 1 && ends_in_by(s, p))
			p = memmem(p + 1, len - (size_t)(p + 1 - s), "\n", 1);
		if (p)
			len = (size_t)(p - s);
	}
	/* "Posted by", "Written by", "Words by", "Posted on September 21,
	 * 2020 by": the names follow "by". */
	for (size_t i = 1; i + 3 < len && i < 64; i++)
		if (s[i] == ' ' && heed__ascii_lower(s[i + 1]) == 'b' &&
		    s[i + 2] == 'y' && strchr(" \t\r\n", s[i + 3])) {
			len -= i + 1;
			s += i + 1;
			break;
		}
	heed__author_unprefix(&s, &len);
	cut_at_date(s, &len);
	cut_at_credit(s, &len);
	heed__buf_init(&out, b->alloc, 1024);
	while (len && names < EXTRACT_MAX_AUTHORS) {
		size_t skip, n = name_end(s, len, &skip);
		const char *name = s;
		size_t nl = n;
		heed__trim(&name, &nl);
		heed__author_unprefix(&name, &nl);
		cut_at_bracket(name, &nl);
		if (nl && !name_like(name, nl)) {
			/* One part is no name: the whole byline is suspect. */
			names = 0;
			break;
		}
		if (nl) {
			if (out.len)
				(void)heed__buf_add(&out, "; ", 2);
			(void)heed__buf_add(&out, name, nl);
			names++;
		}
		s += n + skip;
		len -= n + skip;
	}
	if (names && heed__buf_str(&out))
		res = heed__strdup_arena(b, out.data, out.len);
	heed__buf_free(&out);
	return res;
}
