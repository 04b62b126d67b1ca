/*
 * The record builder: candidates for each field from every source, the
 * precedence that picks one, the tag union, link collection, and the final
 * heed_page with its accessors.
 *
 * Precedence (docs/metadata.md explains the choices): for each field the
 * origins are listed best first, learned from metascraper, trafilatura,
 * htmldate, extruct and yt-dlp (notes/metadata-verify-scale.md 1.2). Within
 * one origin a sub-rank orders variants (og:image:secure_url before
 * og:image), and between equal ranks the first value in the document wins,
 * as the Open Graph protocol says for repeated tags.
 */
#include <limits.h>

#include "extract/extract-int.h"

#define END O_COUNT

static const enum origin order[F_COUNT][12] = {
        [F_TITLE] = {O_OG, O_TWITTER, O_TITLE_TAG, O_JSONLD, O_DC, O_MICRODATA,
                     O_H1, END},
        [F_DESCRIPTION] = {O_OG, O_TWITTER, O_META, O_DC, O_MICRODATA, O_JSONLD,
                           END},
        [F_AUTHOR] = {O_JSONLD, O_META, O_OG, O_LINK, O_MICRODATA, O_DC, O_HTML,
                      O_JSONLD_ORG, O_AUTHOR_PAGE, O_COPYRIGHT, O_TWITTER, END},
        [F_CANONICAL] = {O_LINK, O_OG, O_TWITTER, END},
        [F_LANGUAGE] = {O_HTML, O_JSONLD, O_MICRODATA, O_OG, O_META, O_HTTP,
                        END},
        [F_PUBLISHED] = {O_JSONLD, O_OG, O_MICRODATA, O_DC, O_HTML,
                         O_JSONLD_CLIP, O_URL, O_SCRIPT, END},
        [F_MODIFIED] = {O_JSONLD, O_OG, O_MICRODATA, O_DC, O_HTML,
                        O_JSONLD_CLIP, END},
        [F_THUMBNAIL] = {O_OG, O_TWITTER, O_MICRODATA, O_JSONLD, O_LINK, END},
        [F_OG_TYPE] = {O_OG, END},
        [F_SCHEMA_TYPE] = {O_JSONLD, O_MICRODATA, END},
        [F_SITE_NAME] = {O_OG, O_JSONLD, O_META, O_TITLE_TAG, O_LINK, END},
        [F_PUBLISHER] = {O_JSONLD, O_OG, O_META, O_MICRODATA, O_JSONLD_ORG,
                         O_TITLE_TAG, O_LINK, O_HTML, END},
        [F_DURATION] = {O_JSONLD, O_MICRODATA, O_OG, END},
        [F_VIEWS] = {O_JSONLD, O_MICRODATA, END},
};

/* Sub-ranks stay below this, so origins never interleave. */
#define SUB_RANKS 16

/* The sub-rank of an author that is the site's own name among the
 * organisations (O_JSONLD_ORG): after any organisation named otherwise. */
#define SUB_SITE_NAME 1

heed_source heed__origin_source(enum origin o)
{
	static const heed_source map[O_COUNT] = {
	        [O_OG] = HEED_SOURCE_OG,
	        [O_TWITTER] = HEED_SOURCE_TWITTER,
	        [O_TITLE_TAG] = HEED_SOURCE_TITLE,
	        [O_JSONLD] = HEED_SOURCE_JSONLD,
	        [O_META] = HEED_SOURCE_META,
	        [O_DC] = HEED_SOURCE_META,
	        [O_MICRODATA] = HEED_SOURCE_MICRODATA,
	        [O_H1] = HEED_SOURCE_H1,
	        [O_HTML] = HEED_SOURCE_HTML,
	        [O_LINK] = HEED_SOURCE_LINK,
	        [O_HTTP] = HEED_SOURCE_HTTP,
	        [O_URL] = HEED_SOURCE_URL,
	        [O_JSONLD_ORG] = HEED_SOURCE_JSONLD,
	        [O_JSONLD_CLIP] = HEED_SOURCE_JSONLD,
	        [O_COPYRIGHT] = HEED_SOURCE_HTML,
	        [O_SCRIPT] = HEED_SOURCE_HTML,
	        [O_AUTHOR_PAGE] = HEED_SOURCE_HTML,
	};
	return o < O_COUNT ? map[o] : HEED_SOURCE_NONE;
}

const char *heed_source_name(heed_source source)
{
	static const char *const names[] = {
	        "none",      "jsonld", "og",      "twitter", "meta",
	        "microdata", "title",  "h1",      "html",    "link",
	        "http",      "feed",   "sitemap", "oembed",  "url"};
	return (size_t)source < HEED_ARRAY_SIZE(names) ? names[source]
	                                               : "unknown";
}

char *heed__strdup_arena(struct builder *b, const char *s, size_t len)
{
	char *d = heed__arena_strndup(&b->arena, s, len);

	if (!d)
		b->oom = HEED_ENOMEM;
	return d;
}

char *heed__collapse(struct heed_arena *arena, const char *s, size_t len,
                     heed_status *oom)
{
	char *d, *o;
	bool space = false;

	heed__trim(&s, &len);
	if (!len)
		return NULL;
	d = heed__arena_alloc(arena, len + 1);
	if (!d) {
		*oom = HEED_ENOMEM;
		return NULL;
	}
	o = d;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c <= ' ') {
			space = true;
			continue;
		}
		if (space)
			*o++ = ' ';
		space = false;
		*o++ = (char)c;
	}
	*o = '\0';
	return d;
}

/* heed__collapse into the page's arena. */
static char *collapse(struct builder *b, const char *s, size_t len)
{
	return heed__collapse(&b->arena, s, len, &b->oom);
}

static int rank_of(enum field f, enum origin o, int sub)
{
	for (int i = 0; order[f][i] != END; i++)
		if (order[f][i] == o)
			return i * SUB_RANKS +
			       (sub < SUB_RANKS ? sub : SUB_RANKS - 1);
	return -1;
}

/* "en_GB" -> "en-GB"; only the first of a list ("en, fr"). */
static void bcp47(char *s)
{
	s[strcspn(s, ", ;")] = '\0';
	for (; *s; s++)
		if (*s == '_')
			*s = '-';
}

/* A reference that resolves to http(s): relative, or with that scheme.
 * Checked when offered, so that a data: image gives way to the next
 * source instead of leaving the field empty at the end. */
static bool http_or_relative(const char *s, size_t len)
{
	size_t n;

	heed__trim(&s, &len);
	n = 0;
	while (n < len && s[n] != ':' && s[n] != '/' && s[n] != '?' &&
	       s[n] != '#')
		n++;
	if (n == len || s[n] != ':')
		return true;
	return heed__ascii_ieq(s, n, "http") || heed__ascii_ieq(s, n, "https");
}

/* Link texts of author boxes that bylines pick up with the name. */
static const char *const profile_texts[] = {"view my complete profile",
                                            "view profile",
                                            "view all posts",
                                            "see all posts",
                                            "more posts",
                                            "all posts by",
                                            "author profile",
                                            "more from this author"};

/* Cuts what follows a name and is not part of it: a profile link's text,
 * or a parenthesised or bracketed URL or address ("Bradley M. Kuhn
 * (http://ebb.org/bkuhn/)", "Ann Lee <ann@example.org>", spelt out
 * against harvesters: "Vinay Sajip <vinay_sajip at red-dove dot com>"). */
static void cut_profile_text(const char *s, size_t *len)
{
	const char *open = NULL;
	size_t rest;

	for (size_t i = 0; i < *len; i++)
		if (s[i] == '(' || s[i] == '<')
			open = s + i;
	rest = open ? (size_t)(s + *len - open) : 0;
	if (open && open > s &&
	    (memmem(open, rest, "://", 3) || memchr(open, '@', rest) ||
	     memmem(open, rest, "www.", 4) ||
	     (memmem(open, rest, " at ", 4) &&
	      memmem(open, rest, " dot ", 5)))) {
		*len = (size_t)(open - s);
		heed__trim(&s, len);
		/* "The Exim Project. <https://www.exim.org/>": a sentence's
		 * full stop before the address, not an initial's ("Ann L."). */
		if (*len && heed__word_stop(s, *len - 1))
			(*len)--;
	}
	for (size_t i = 0; i < HEED_ARRAY_SIZE(profile_texts); i++) {
		size_t n = strlen(profile_texts[i]);
		if (*len >= n &&
		    heed__ascii_ieq(s + *len - n, n, profile_texts[i])) {
			*len -= n;
			heed__trim(&s, len);
			return;
		}
	}
}

/* Cuts a social handle after a name ("Williams Perdomo @wperdomod"): the
 * writer's account beside the name, no part of it. A handle alone stays,
 * a name of last resort. */
static void cut_trailing_handle(const char *s, size_t *len)
{
	const char *sp = NULL;

	for (size_t i = 0; i < *len; i++)
		if (s[i] == ' ')
			sp = s + i;
	/* The last space is before the end: trimmed values end in a word,
	 * but the handle's '@' is read only within the slice. */
	if (!sp || s + *len - sp < 3 || sp[1] != '@')
		return;
	*len = (size_t)(sp - s);
	heed__trim(&s, len);
}

/* Cuts a degree or the site's own name after the last comma of a name
 * ("Grant Tinsley, PhD", "Rob Picheta, CNN" on edition.cnn.com): a
 * title or the writer's outlet, no part of the name. "Doe, Jane" stays
 * whole. */
static void cut_affiliation(const struct builder *b, const char *s, size_t *len)
{
	static const char *const degrees[] = {
	        "PhD", "Ph.D.", "MD", "M.D.", "MBA", "MPH", "MSc",
	        "MS",  "RD",    "RN", "DO",   "JD",  "CPA"};
	const char *comma = NULL, *part;
	size_t n;

	for (size_t i = 0; i < *len; i++)
		if (s[i] == ',')
			comma = s + i;
	if (!comma || comma == s)
		return;
	part = comma + 1;
	n = (size_t)(s + *len - part);
	heed__trim(&part, &n);
	for (size_t i = 0; i < HEED_ARRAY_SIZE(degrees); i++)
		if (n == strlen(degrees[i]) && memcmp(part, degrees[i], n) == 0)
			n = 0;
	if (n && !heed__spells_site_domain(b, part, n))
		return;
	*len = (size_t)(comma - s);
	heed__trim(&s, len);
}

/* Whether a word is an e-mail address, written out or guarded against
 * harvesters ("ann@example.org", "ann[at]example.org", "ann(at)example
 * .org"): something before the at sign, a dot after it. A handle opens
 * with its "@". */
static bool mail_word(const char *s, size_t len)
{
	static const char *const ats[] = {"@", "[at]", "(at)", "{at}"};

	for (size_t i = 1; i < len; i++)
		for (size_t k = 0; k < HEED_ARRAY_SIZE(ats); k++) {
			size_t n = strlen(ats[k]);
			if (i + n < len && heed__ascii_ieq(s + i, n, ats[k]) &&
			    memchr(s + i + n, '.', len - i - n))
				return true;
		}
	return false;
}

/* Cuts an e-mail address that ends the value ("Lüder Hoppe
 * info@example.de"): a way to reach the writer, no part of the name. An
 * address alone ("ann[at]example.org") leaves nothing: it names nobody. */
static void cut_mail(const char *s, size_t *len)
{
	size_t w = *len;

	while (w > 0 && s[w - 1] != ' ')
		w--;
	if (!mail_word(s + w, *len - w))
		return;
	*len = w;
	heed__trim(&s, len);
}

/* Cuts an agency's code after a slash that ends a full name ("Peter
 * Maahn/SP-X"): the service that delivered the text, no part of the
 * name. A second name after the slash ("Ann Lee/Bob Ray") stays. */
static void cut_agency_code(const char *s, size_t *len)
{
	const char *slash = memchr(s, '/', *len);
	size_t n;

	if (!slash || !memchr(s, ' ', (size_t)(slash - s)) || slash[-1] == ' ')
		return;
	n = (size_t)(s + *len - slash - 1);
	if (n < 2 || n > 8)
		return;
	for (size_t i = 1; i <= n; i++)
		if (!(slash[i] >= 'A' && slash[i] <= 'Z') &&
		    !(slash[i] >= '0' && slash[i] <= '9') && slash[i] != '-')
			return;
	*len = (size_t)(slash - s);
}

/* Whether a word without spaces is an agency's credit: two short codes
 * of letters around one slash ("det/dpa", "dpa/lno": an editor's
 * initials and the agency, as news sites credit a wire story), no URL
 * or path, which has dots or a longer part. */
static bool agency_credit(const char *s, size_t len)
{
	const char *slash = memchr(s, '/', len);
	size_t a, b;

	if (!slash)
		return false;
	a = (size_t)(slash - s);
	b = len - a - 1;
	if (a < 2 || a > 4 || b < 2 || b > 4)
		return false;
	for (size_t i = 0; i < len; i++)
		if (i != a && !((s[i] | 0x20) >= 'a' && (s[i] | 0x20) <= 'z'))
			return false;
	return true;
}

/* Words of a credit for other work than the page's text: a theme's or a
 * site's credit line, which some themes put in <meta name=author> ("Peter
 * Amende und Fuchsy designed", "Theme by Ann Lee", a German copyright
 * line's "WordPress Theme von <a>MH Themes</a>"), or an edition's
 * editor ("Revised Edition Edited by Adrian Parr", a dictionary's
 * microdata author for each of its entries, which their writers sign). */
static bool other_work_credit(const char *s, size_t len)
{
	static const char *const credits[] = {"designed",   "design by",
	                                      "theme by",   "theme von",
	                                      "powered by", "edited by"};

	for (size_t i = 0; i < HEED_ARRAY_SIZE(credits); i++) {
		size_t n = strlen(credits[i]);
		for (size_t j = 0; j + n <= len; j++)
			if ((j == 0 || s[j - 1] == ' ') &&
			    heed__ascii_ieq(s + j, n, credits[i]))
				return true;
	}
	return false;
}

/* The length of s[0, len) before a comma: the site's name with its seat
 * after one ("hessenschau.de, Frankfurt, Germany") is still the site's. */
static size_t before_seat(const char *s, size_t len)
{
	const char *comma = memchr(s, ',', len);

	return comma ? (size_t)(comma - s) : len;
}

bool heed__legal_form(const char *w, size_t n)
{
	static const char *const forms[] = {
	        "GmbH", "gGmbH", "mbH", "e.V.", "AG",   "KG",
	        "Ltd",  "Ltd.",  "Inc", "Inc.", "LLC",  "plc",
	        "S.A.", "SA",    "SE",  "AB",   "Corp."};

	for (size_t i = 0; i < HEED_ARRAY_SIZE(forms); i++)
		if (n == strlen(forms[i]) && memcmp(w, forms[i], n) == 0)
			return true;
	return false;
}

bool heed__word_stop(const char *s, size_t i)
{
	return s[i] == '.' && i >= 2 && s[i - 1] != ' ' && s[i - 2] != ' ' &&
	       s[i - 2] != '.';
}

/* An organisation's name, which credits no person: one with a legal
 * form among its words ("Hanns-Seidel-Stiftung e.V.", "Web Commerce
 * GmbH", "Acme Ltd."), or the site's domain, written whole or spelt out
 * ("tagesschau.de" on www.tagesschau.de, "Eat Smarter" on
 * www.eatsmarter.de: a magazine's meta author is often its own name). */
static bool organisation_name(const struct builder *b, const char *s,
                              size_t len)
{
	/* With the legal forms, the words that tie an institution's name to
	 * its field ("Landesanstalt für Wald", "Institute for Fiscal
	 * Studies"): a person's particles are "von", "van", "de", never
	 * these. */
	static const char *const ties[] = {"f\xC3\xBCr", "for", "of"};
	/* An association's "e.V." is often spaced, "e. V.", two words. */
	if (heed__spells_site_domain(b, s, before_seat(s, len)) ||
	    heed__words_spell_site_domain(b, s, len) ||
	    memmem(s, len, " e. V.", 6))
		return true;
	/* The words after the first: a legal form never opens a name. */
	for (const char *p = memchr(s, ' ', len); p && p < s + len;
	     p = memchr(p + 1, ' ', (size_t)(s + len - p - 1))) {
		const char *w = p + 1;
		size_t n = 0;
		/* s is a slice of a longer text: the word ends at its end
		 * at the latest. */
		while (w + n < s + len && !strchr(" ,;", w[n]))
			n++;
		if (heed__legal_form(w, n))
			return true;
		for (size_t i = 0; i < HEED_ARRAY_SIZE(ties); i++)
			if (n == strlen(ties[i]) && memcmp(w, ties[i], n) == 0)
				return true;
	}
	return false;
}

bool heed__name_particle(const char *s, size_t len)
{
	static const char *const particles[] = {"van", "von", "de",  "da",
	                                        "del", "der", "des", "di",
	                                        "du",  "la",  "le"};

	return heed__ascii_ieq_any(s, len, particles,
	                           HEED_ARRAY_SIZE(particles));
}

/* Words whose first is a word of letters in lower case and no particle
 * of a name ("deinen Hochzeitsbloggern", "your wedding bloggers"): a
 * phrase, where a name's words open with capitals. A domain opening the
 * words ("auto-motor.at Redaktion") is the site's name. */
static bool lower_phrase(const char *s, size_t len)
{
	size_t n = 0;

	while (n < len && s[n] >= 'a' && s[n] <= 'z')
		n++;
	if (!n || n == len || s[n] != ' ')
		return false;
	return !heed__name_particle(s, n);
}

/* A CMS's placeholder in an author field: WordPress's first account
 * ("admin"), a theme's "No Author", "Unknown", or its screen-reader label
 * on a line of its own before the name ("Post author", Twenty Twenty's),
 * the Government Site Builder's <meta name=author content=publisher>:
 * nobody is credited. */
static bool placeholder_name(const char *s, size_t len)
{
	static const char *const names[] = {
	        "admin",       "administrator", "wordpressadmin", "webmaster",
	        "no author",   "unknown",       "anonymous",      "n/a",
	        "post author", "publisher"};

	return heed__ascii_ieq_any(s, len, names, HEED_ARRAY_SIZE(names));
}

/* Digits, dots and colons alone ("219.79.38.192", a wiki's anonymous
 * editor): an address, or a number, is no name. */
static bool address_only(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!(s[i] >= '0' && s[i] <= '9') && s[i] != '.' && s[i] != ':')
			return false;
	return true;
}

/*
 * Whether an author value names someone: not a design credit or a
 * placeholder ("admin"), not a URL
 * or an author page's path ("www.facebook.com/name", "/author/jdoe"), not a
 * profile link's text alone, not the site's own social account. A social
 * handle ("@name", kept as "name") and a login slug (one lower-case word
 * with a digit or "_": "jdoe42") are names of last resort: *rank becomes the
 * rank of twitter:creator, so any name on the page beats them; an
 * organisation's name (organisation_name) and, after it, the site's own name (a
 * declared site name, the title's last part) rank after every byline, as a
 * JSON-LD organisation does: a person credited on the page wins. *s and *len
 * lose a "By " prefix and a trailing profile link's text.
 */
static bool author_ok(const struct builder *b, const char **s, size_t *len,
                      int *rank)
{
	bool space = false, digit = false, upper = false, under = false;
	const char *v;

	heed__author_unprefix(s, len);
	cut_profile_text(*s, len);
	cut_mail(*s, len);
	cut_trailing_handle(*s, len);
	cut_affiliation(b, *s, len);
	cut_agency_code(*s, len);
	heed__author_unprefix(s, len);
	v = *s;
	if (!*len || other_work_credit(v, *len) || placeholder_name(v, *len))
		return false;
	for (size_t i = 0; i < *len; i++) {
		space |= v[i] == ' ';
		digit |= v[i] >= '0' && v[i] <= '9';
		upper |= v[i] >= 'A' && v[i] <= 'Z';
		under |= v[i] == '_';
	}
	if (address_only(v, *len))
		return false;
	if (!space && ((memchr(v, '/', *len) && !agency_credit(v, *len)) ||
	               (*len > 4 && heed__ascii_ieq(v, 4, "www."))))
		return false;
	if (*len > 2 && v[0] == '/' && v[1] == '/')
		return false;
	if (heed__is_site_handle(b, v, *len))
		return false;
	if (v[0] == '@' || (!space && !upper && (digit || under))) {
		*rank = rank_of(F_AUTHOR, O_TWITTER, 0);
		/* The name a handle gives is the account's, without its "@":
		 * the labelled pages credit "jdoe", as a login, for "@jdoe". */
		if (v[0] == '@' && !space) {
			(*s)++;
			(*len)--;
		}
		return *len > 0;
	}
	if (*rank < rank_of(F_AUTHOR, O_JSONLD_ORG, SUB_SITE_NAME) &&
	    (heed__is_site_name(b, v, *len) ||
	     heed__is_title_suffix(b, v, *len))) {
		*rank = rank_of(F_AUTHOR, O_JSONLD_ORG, SUB_SITE_NAME);
	} else if (*rank < rank_of(F_AUTHOR, O_JSONLD_ORG, 0) &&
	           (organisation_name(b, v, *len) || lower_phrase(v, *len))) {
		*rank = rank_of(F_AUTHOR, O_JSONLD_ORG, 0);
	}
	return true;
}

/* A login: one word without capitals ("edilson.la.rosa", "jdoe"). */
static bool login_like(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (s[i] == ' ' || (s[i] >= 'A' && s[i] <= 'Z'))
			return false;
	return len > 0;
}

static bool name_mark(char ch)
{
	return ch == ' ' || ch == '.' || ch == '-' || ch == '_';
}

/* Whether name, a name of two words or more, is the login with its
 * spaces, marks and capitals left out ("Edilson La Rosa" for
 * "edilson.la.rosa", "Arian Schlichenmayer" for "arianschlichenmayer"). */
static bool spells_login(const char *login, size_t ln, const char *name,
                         size_t nn)
{
	const char *le = login + ln, *ne = name + nn;

	if (!login_like(login, ln) || !memchr(name, ' ', nn))
		return false;
	for (;; login++, name++) {
		while (login < le && name_mark(*login))
			login++;
		while (name < ne && name_mark(*name))
			name++;
		if (login == le || name == ne)
			return login == le && name == ne;
		if (*login != *name &&
		    !(*name >= 'A' && *name <= 'Z' && *name + 32 == *login))
			return false;
	}
}

/* Whether name, one name of two words or more, opens with the one word
 * first ("Todd Bates" for "Todd"; "HENRY STEINHAU", a heading's capitals,
 * for "Henry"). */
static bool opens_with_word(const char *word, size_t wn, const char *name,
                            size_t nn)
{
	return !memchr(word, ' ', wn) && nn > wn && name[wn] == ' ' &&
	       heed__ascii_ieq(name, wn, word) && !memchr(name, ';', nn);
}

/* The next name of a list joined by "; " from p, up to e: its length in
 * *n, and where the one after it starts (NULL after the last). */
static const char *list_next(const char *p, const char *e, size_t *n)
{
	const char *q = memmem(p, (size_t)(e - p), "; ", 2);

	*n = q ? (size_t)(q - p) : (size_t)(e - p);
	return q ? q + 2 : NULL;
}

/* Whether list, names joined by "; ", has the one name among them. */
static bool list_holds(const char *list, size_t ln, const char *one, size_t on)
{
	for (const char *p = list, *next; p; p = next) {
		size_t n;
		next = list_next(p, list + ln, &n);
		if (n == on && memcmp(p, one, on) == 0)
			return true;
	}
	return false;
}

/* Whether name, as a byline writes it, is the full one with its first
 * name cut to the initial: "E. Barreneche" (or "e. barreneche", a
 * byline's small capitals) for "Eduardo Barreneche". */
static bool initial_of(const char *name, size_t nn, const char *full, size_t fn)
{
	const char *sp = memchr(full, ' ', fn);
	size_t first = sp ? (size_t)(sp - full) : fn;

	return nn > 3 && name[1] == '.' && name[2] == ' ' && first > 1 &&
	       !memchr(full, '.', first) &&
	       heed__ascii_lower(name[0]) == heed__ascii_lower(full[0]) &&
	       nn - 2 == fn - first &&
	       heed__ascii_ieq(name + 2, nn - 2, full + first);
}

/* Whether list, names joined by "; ", has the one name among them, or
 * the one written with its first name's initial. */
static bool list_holds_initial(const char *list, size_t ln, const char *one,
                               size_t on)
{
	for (const char *p = list, *next; p; p = next) {
		size_t n;
		next = list_next(p, list + ln, &n);
		if (initial_of(p, n, one, on))
			return true;
	}
	return false;
}

/* Whether list is a byline's writers with the one name among them (also
 * with its first name's initial): a CMS's JSON-LD or meta author holds
 * one name, often only the post's owner's, where the byline credits
 * every writer. Every part is a name of two words or more: "Rob Picheta;
 * CNN" is a writer and an outlet. */
static bool writers_list(const char *list, size_t ln, const char *one,
                         size_t on)
{
	if (memchr(one, ';', on) || !memmem(list, ln, "; ", 2) ||
	    (!list_holds(list, ln, one, on) &&
	     !list_holds_initial(list, ln, one, on)))
		return false;
	for (const char *p = list, *next; p; p = next) {
		size_t n;
		next = list_next(p, list + ln, &n);
		if (!memchr(p, ' ', n))
			return false;
	}
	return true;
}

/* Whether name is the fuller form of the short one: the login it spells
 * or the first name it opens with. */
static bool fuller_name(const char *shrt, size_t sn, const char *name,
                        size_t nn)
{
	return spells_login(shrt, sn, name, nn) ||
	       opens_with_word(shrt, sn, name, nn);
}

/* Whether name spells the login once its middle initials are left out
 * ("Christian P. Stadtfeld" for "christian.stadtfeld"). */
static bool spells_login_initials(const char *login, size_t ln,
                                  const char *name, size_t nn)
{
	char buf[128]; /* a bio's name is four words at most */
	size_t n = 0;

	if (nn >= sizeof(buf))
		return false;
	for (size_t i = 0; i < nn; i++) {
		/* " P." between two words: an initial. */
		if (name[i] == ' ' && i + 3 < nn && name[i + 2] == '.' &&
		    name[i + 3] == ' ' && name[i + 1] >= 'A' &&
		    name[i + 1] <= 'Z') {
			i += 2;
			continue;
		}
		buf[n++] = name[i];
	}
	return n < nn && spells_login(login, ln, buf, n);
}

void heed__author_bio(struct builder *b)
{
	struct cand *c = &b->cand[F_AUTHOR];
	size_t vn, bn;

	if (!b->bio_name || !c->value)
		return;
	vn = strlen(c->value);
	bn = strlen(b->bio_name);
	if (opens_with_word(c->value, vn, b->bio_name, bn) ||
	    spells_login(c->value, vn, b->bio_name, bn) ||
	    spells_login_initials(c->value, vn, b->bio_name, bn))
		c->value = b->bio_name;
}

bool heed__author_short(const struct builder *b)
{
	const char *v = b->cand[F_AUTHOR].value;

	return v && !strchr(v, ' ');
}

/*
 * A CMS's JSON-LD often names the writer's account where the meta author
 * and the byline give the name: the name is who wrote it. So with a first
 * name alone ("Todd", a theme's display name) where the page's byline
 * gives the full one. When a name and the login it spells or the first
 * name it opens with are both offered, the name is kept with the better
 * rank of the two, whichever came first. True when the offer is settled
 * so.
 */
static bool login_named(struct builder *b, int rank, enum origin o,
                        const char *s, size_t len)
{
	struct cand *c = &b->cand[F_AUTHOR];
	char *v;

	if (!c->value)
		return false;
	if (strstr(c->value, "; ")) {
		if (rank >= c->rank || c->origin != O_HTML ||
		    !writers_list(c->value, strlen(c->value), s, len))
			return false;
		c->rank = rank;
		return true;
	}
	if (rank < c->rank && fuller_name(s, len, c->value, strlen(c->value))) {
		c->rank = rank;
		return true;
	}
	if (rank < c->rank || !fuller_name(c->value, strlen(c->value), s, len))
		return false;
	v = collapse(b, s, len);
	if (!v || !*v)
		return false;
	c->value = v;
	c->origin = o;
	return true;
}

/* Reads a text one character at a time with the typographer's marks
 * folded to ASCII: curly quotes and guillemets to '"' and '\'', dashes
 * to '-', an ellipsis to three dots, a no-break space to a space (runs of
 * spaces read as one). A page's og:description is often the same text as
 * its meta description with the quotes curled by the CMS. */
struct folded {
	const char *p, *end;
	int dots;
};

static int folded_raw(struct folded *t)
{
	const unsigned char *u = (const unsigned char *)t->p;
	size_t left = (size_t)(t->end - t->p);

	if (t->dots) {
		t->dots--;
		return '.';
	}
	if (!left)
		return -1;
	if (left >= 2 && u[0] == 0xC2 &&
	    (u[1] == 0xA0 || u[1] == 0xAB || u[1] == 0xBB)) {
		t->p += 2;
		return u[1] == 0xA0 ? ' ' : '"';
	}
	if (left >= 3 && u[0] == 0xE2 && u[1] == 0x80) {
		int c = -1;
		if (u[2] >= 0x98 && u[2] <= 0x9A)
			c = '\'';
		else if (u[2] >= 0x9C && u[2] <= 0x9E)
			c = '"';
		else if (u[2] == 0x93 || u[2] == 0x94)
			c = '-';
		else if (u[2] == 0xA6) {
			c = '.';
			t->dots = 2;
		}
		if (c >= 0) {
			t->p += 3;
			return c;
		}
	}
	t->p++;
	return u[0];
}

static int folded_next(struct folded *t)
{
	int c = folded_raw(t);

	if (c == ' ')
		while (t->p < t->end && !t->dots) {
			struct folded ahead = *t;
			if (folded_raw(&ahead) != ' ')
				break;
			*t = ahead;
		}
	return c;
}

/* Marks that end a summary a CMS cut short. */
static const char *const cut_marks[] = {"[\xE2\x80\xA6]", "[...]",
                                        "\xE2\x80\xA6", "..."};

/*
 * Whether full is the same text as cut with more where cut was cut short
 * (cut ends in an ellipsis): WordPress declares a post's excerpt as
 * og:description cut at 200 characters and as its meta description cut
 * later, and the fuller copy says more of the same summary.
 */
static bool fuller_copy(const char *cut, const char *full)
{
	/* Longer than any CMS's excerpt: the article's own text (Blogger
	 * marks a post's whole body itemprop=description), no summary. */
	const size_t summary_max = 1000;
	size_t n = strlen(cut), i;
	struct folded a, z;
	int c;

	for (i = 0; i < HEED_ARRAY_SIZE(cut_marks); i++) {
		size_t m = strlen(cut_marks[i]);
		if (n > m && memcmp(cut + n - m, cut_marks[i], m) == 0) {
			n -= m;
			break;
		}
	}
	if (i == HEED_ARRAY_SIZE(cut_marks))
		return false;
	heed__trim(&cut, &n);
	if (!n || strlen(full) > summary_max)
		return false;
	a = (struct folded){cut, cut + n, 0};
	z = (struct folded){full, full + strlen(full), 0};
	while ((c = folded_next(&a)) >= 0)
		if (folded_next(&z) != c)
			return false;
	/* More than a mark of its own: "…" and "[…]" are the same cut. */
	while ((c = folded_next(&z)) == ' ' || c == '.' || c == '[' || c == ']')
		;
	return c >= 0;
}

/*
 * A description offered when one is held: the fuller of two copies of the
 * same summary is kept, with the better rank of the two, whichever came
 * first. True when the offer is settled so.
 */
static bool description_copy(struct builder *b, int rank, enum origin o,
                             const char *s, size_t len)
{
	struct cand *c = &b->cand[F_DESCRIPTION];
	char *v;

	if (!c->value)
		return false;
	v = collapse(b, s, len);
	if (!v || !*v)
		return false;
	if (fuller_copy(c->value, v)) {
		c->value = v;
		c->origin = o;
	} else if (!fuller_copy(v, c->value)) {
		return false;
	}
	if (rank < c->rank)
		c->rank = rank;
	return true;
}

/* True when an ISO 8601 value from heed__parse_page_date is written in
 * UTC ("...Z") rather than with the publisher's own offset ("+02:00"); a
 * date without a time has neither, and counts as UTC. */
static bool utc_notation(const char *iso)
{
	size_t n = strlen(iso);

	return !strchr(iso, 'T') || (n && iso[n - 1] == 'Z');
}

/*
 * The offset at which the wall-clock time wall (a time written without a
 * zone, read as UTC) shows the instant num, or 0. A CMS often writes its
 * local time bare ("2023-11-08 17:49:09") beside the instant in UTC
 * ("2023-11-09T01:49:09Z"); their difference is the publisher's offset
 * when it is one a zone has: whole quarter hours from -12:00 to +14:00.
 * A time written without its seconds is compared to the minute.
 */
static int64_t wall_offset(int64_t wall, const struct heed__date_form *form,
                           int64_t num)
{
	int64_t off;

	if (!form->seconds)
		num -= (num % 60 + 60) % 60;
	off = wall - num;
	return off % 900 == 0 && off >= -12 * 3600 && off <= 14 * 3600 ? off
	                                                               : 0;
}

/*
 * True when the page's URL path gives the day before or after the day of
 * c, a UTC time (num: the URL's day at midnight UTC). A permalink is
 * dated by the publisher's clock, so the URL's day is theirs and the UTC
 * day is shifted ("2020-02-18T02:18:11Z" under "/2020/02/17/": an
 * evening in the Americas). The shift is taken only where a zone most
 * pages are published from could make it: from -08:00 (the Americas'
 * Pacific) the day before while the UTC time is before 08:00, up to
 * +11:00 (eastern Australia's summer) the day after from 13:00.
 */
static bool url_day(const struct cand *c, int64_t num)
{
	const int64_t hour = 3600, days = 24 * hour;
	int64_t clock = (c->num % days + days) % days;
	int64_t shift = num - (c->num - clock);

	return strchr(c->value, 'T') && ((shift == -days && clock < 8 * hour) ||
	                                 (shift == days && clock >= 13 * hour));
}

/*
 * A date the page writes twice, once converted to UTC (a CMS's JSON-LD:
 * "2019-10-18T22:04:00Z") and once in the publisher's own time (its meta:
 * "Sat, 19 Oct 2019 00:04:00 +0200", or bare: "2019-10-19 00:04:00"): the
 * same instant, but only the second gives the publisher's own day, which
 * is the day a reader of the page sees. So the chosen value c, a zoned
 * UTC time, takes the notation of the other source's value (iso, num,
 * form): its offset when it writes the same instant with one, the offset
 * its bare wall-clock time shows c's instant at. When the other source
 * (o) is the URL's path, c takes its day alone (see url_day: the
 * publisher's offset is still unknown; c's instant is kept). True when it
 * did.
 */
static bool local_notation(struct builder *b, struct cand *c, enum origin o,
                           const char *iso, int64_t num,
                           const struct heed__date_form *form)
{
	char local[HEED_DATE_ISO_MAX];
	int64_t off;
	char *v;

	if (!utc_notation(c->value) || c->form.wall_clock)
		return false;
	if (o == O_URL) {
		if (!url_day(c, num))
			return false;
	} else if (form->wall_clock) {
		off = wall_offset(num, form, c->num);
		if (!off || !heed__date_at_offset(c->value, off, local))
			return false;
		iso = local;
	} else if (num != c->num || utc_notation(iso)) {
		return false;
	}
	v = heed__strdup_arena(b, iso, strlen(iso));
	if (v)
		c->value = v;
	return v != NULL;
}

/* A lower-ranked source's date (from o), offered to the chosen value c. */
static void other_notation(struct builder *b, struct cand *c, enum origin o,
                           const char *s, size_t len)
{
	struct heed__date_form form;
	char iso[HEED_DATE_ISO_MAX];
	int64_t num;

	if (heed__parse_page_date(s, len, b->cand[F_LANGUAGE].value, &num, iso,
	                          &form))
		local_notation(b, c, o, iso, num, &form);
}

/* Keeps the day of a published date the page's markup or text gives
 * (rank: its rank), when none better was kept. */
static void shown_date(struct builder *b, int rank, const char *s, size_t len)
{
	char iso[HEED_DATE_ISO_MAX];
	int64_t num;
	struct heed__date_form form;

	if ((b->shown_day[0] && b->shown_rank <= rank) ||
	    !heed__parse_page_date(s, len, b->cand[F_LANGUAGE].value, &num, iso,
	                           &form))
		return;
	memcpy(b->shown_day, iso, 10);
	b->shown_day[10] = '\0';
	b->shown_rank = rank;
	b->shown_value = heed__strdup_arena(b, iso, strlen(iso));
	b->shown_num = num;
	b->shown_form = form;
}

/* Keeps the day of the first edit's date the page shows, in its
 * article, header or main or after a label: a wiki's footer tells of
 * the last edit of a page that was never republished, and a file's stamp
 * (D_LABEL_STAMP: a last update in the site's footer, "This page last
 * modified on") of the day a generator built the file or a site last
 * changed it. */
static void edit_date(struct builder *b, const char *s, size_t len)
{
	char iso[HEED_DATE_ISO_MAX];
	int64_t num;

	if (heed__parse_page_date(s, len, b->cand[F_LANGUAGE].value, &num, iso,
	                          NULL))
		memcpy(b->edit_day, iso, 10);
}

/*
 * A meta tag named only "date" (`date`, `dc.date`, `dcterms.date`) says
 * no more than that some day belongs to the page: Dublin Core's date is
 * "an event in the lifecycle of the resource", and CMSs fill the bare
 * `date` with the page's last change (TYPO3 writes its record's last
 * save). So when such a tag gives the published date and the page's own
 * markup or text shows another day (a date class, a <time> in the
 * article, a date element's text: see shown_date), the page's shown date
 * is the published one.
 */
bool heed__published_generic(const struct builder *b)
{
	const struct cand *p = &b->cand[F_PUBLISHED];

	return p->value &&
	       (p->rank == rank_of(F_PUBLISHED, O_DC, DC_SUB_DATE) ||
	        p->rank == rank_of(F_PUBLISHED, O_DC, DC_SUB_BARE_DATE));
}

void heed__shown_over_generic(struct builder *b)
{
	struct cand *p = &b->cand[F_PUBLISHED];

	if (!b->shown_value || !heed__published_generic(b) ||
	    b->shown_rank == rank_of(F_PUBLISHED, O_HTML, D_TEXT_CLASS_PAGE) ||
	    strncmp(p->value, b->shown_day, 10) == 0)
		return;
	*p = (struct cand){.value = b->shown_value,
	                   .rank = b->shown_rank,
	                   .num = b->shown_num,
	                   .form = b->shown_form,
	                   .origin = O_HTML};
}

static bool og_published(const struct cand *c)
{
	return c->value && c->origin == O_OG &&
	       c->rank == rank_of(F_PUBLISHED, O_OG, 0);
}

bool heed__bare_day_wanted(const struct builder *b)
{
	return !b->bare_day[0] && og_published(&b->cand[F_PUBLISHED]);
}

void heed__bare_day(struct builder *b, const char *s, size_t len)
{
	char iso[HEED_DATE_ISO_MAX];
	int64_t num;
	struct heed__date_form form;

	if (heed__parse_page_date(s, len, b->cand[F_LANGUAGE].value, &num, iso,
	                          &form))
		memcpy(b->bare_day, iso, 10);
}

/*
 * Some CMSs declare in JSON-LD the day their item was created (a draft,
 * written days or a year before it went out) and in Open Graph the day
 * it was published, the one the page shows ("15.12.2022" under the
 * headline, a JSON-LD datePublished of 2021-12-06). Others declare their
 * latest republication in Open Graph and show the first day (Medium).
 * So when the two are other instants, the one whose day the page shows
 * (its own markup and text, or its first bare date) is the published
 * date; JSON-LD keeps it when the page shows neither.
 */
void heed__shown_over_draft(struct builder *b)
{
	struct cand *p = &b->cand[F_PUBLISHED];
	const char *day = b->shown_day[0] ? b->shown_day : b->bare_day;

	if (!b->og_published.value || !p->value || p->origin != O_JSONLD ||
	    !day[0] || strncmp(b->og_published.value, day, 10) != 0 ||
	    strncmp(p->value, day, 10) == 0)
		return;
	*p = b->og_published;
}

/*
 * Many CMSs keep an article's first datePublished when it is rewritten
 * and republished, and show readers only the new day, which they declare
 * as dateModified: the page dates itself by its update ("03.04.2019"
 * under the headline, declared modified, of an article first declared in
 * 2017). So when the declared published and modified dates fall on other
 * days and the best date the page's own markup and text give (a date
 * class, a <time>, a byline's date) is the modified day, published takes
 * the modified date; so too when the page shows no published day but its
 * edit's ("Aktualisiert am 06. Mär. 2023", an "Updated" line) on the
 * modified day. A page that shows its first day, or no day, keeps it.
 */
void heed__republished(struct builder *b)
{
	struct cand *p = &b->cand[F_PUBLISHED], *m = &b->cand[F_MODIFIED];

	const char *day = b->shown_day[0] ? b->shown_day : b->edit_day;

	if (!p->value || !m->value || !day[0] ||
	    p->rank >= rank_of(F_PUBLISHED, O_HTML, 0) ||
	    strncmp(p->value, m->value, 10) == 0 || m->num <= p->num ||
	    strncmp(day, m->value, 10) != 0)
		return;
	*p = *m;
}

/*
 * A page whose only date is its edit's ("Aktualisiert: 30.12.2016" under
 * the text, "Letzte Änderung:" over a date) says nothing of its first
 * day, so its readers can date it only by that edit: when nothing else,
 * the URL's path included, gives the published date, the edit's date
 * the page shows (in its article, header or main, or after a label) is
 * the published one. Not a file's stamp ("Last updated on October 07,
 * 2026" in the footer of every page of a Sphinx build, "This page last
 * modified on"): it dates the file, which a manual or a reference page
 * rebuilds without end, not the text's first issue.
 */
void heed__edit_only(struct builder *b)
{
	struct cand *p = &b->cand[F_PUBLISHED], *m = &b->cand[F_MODIFIED];

	if (p->value || !m->value || !b->edit_day[0] ||
	    strncmp(b->edit_day, m->value, 10) != 0)
		return;
	*p = *m;
}

/*
 * A CMS that keeps a day alone often stores it as the midnight that
 * starts it in the publisher's zone and writes that instant in UTC: a
 * German magazine's "2022-11-06T23:00:00.000Z" is 7 November, 00:00 in
 * Berlin, the day its readers were shown. A time to the second at the
 * midnight of the zone the page's language is spoken in (its summer time
 * too) is read so, at that zone's offset; the instant is unchanged. A
 * time written without a zone ("10.06.2018 22:00", read as UTC) is the
 * publisher's clock already, and is left as written.
 */
static void midnight_day(struct builder *b, struct cand *c)
{
	char local[HEED_DATE_ISO_MAX];
	char *v;

	if (!c->value || !strchr(c->value, 'T') || !utc_notation(c->value) ||
	    c->form.wall_clock ||
	    !heed__local_midnight(c->value, c->num, b->cand[F_LANGUAGE].value,
	                          local))
		return;
	v = heed__strdup_arena(b, local, strlen(local));
	if (v)
		c->value = v;
}

void heed__midnight_days(struct builder *b)
{
	midnight_day(b, &b->cand[F_PUBLISHED]);
	midnight_day(b, &b->cand[F_MODIFIED]);
}

/*
 * An author's text as a name reads: a soft hyphen (U+00AD, a hyphenation
 * hint some CMSs put inside long words) is dropped, since it is no letter
 * of the name ("Lauer\u00ADer" is "Lauerer"), and a no-break space
 * (U+00A0) is a space, so that it collapses with its neighbours
 * ("Michael L. \u00A0Anderson"). The text is copied only when it holds
 * either; *s and *len then point at the copy.
 */
static void name_text(struct builder *b, const char **s, size_t *len)
{
	const char *p = *s, *e = *s + *len;
	char *d, *o;

	while ((p = memchr(p, 0xC2, (size_t)(e - p))) && p + 1 < e &&
	       (unsigned char)p[1] != 0xA0 && (unsigned char)p[1] != 0xAD)
		p++;
	if (!p || p + 1 >= e)
		return;
	d = heed__arena_alloc(&b->arena, *len + 1);
	if (!d) {
		b->oom = HEED_ENOMEM;
		return;
	}
	o = d;
	for (p = *s; p < e; p++) {
		unsigned char c = (unsigned char)*p;
		if (c == 0xC2 && p + 1 < e &&
		    ((unsigned char)p[1] == 0xA0 ||
		     (unsigned char)p[1] == 0xAD)) {
			if ((unsigned char)*++p == 0xA0)
				*o++ = ' ';
			continue;
		}
		*o++ = (char)c;
	}
	*o = '\0';
	*s = d;
	*len = (size_t)(o - d);
}

/* The length of the ASCII letters opening s, an agency's code ("dpa",
 * "AFP"), when 2 to 6 of them; 0 otherwise. */
static size_t agency_code_len(const char *s)
{
	size_t n = 0;

	while (n < 7 && (s[n] | 0x20) >= 'a' && (s[n] | 0x20) <= 'z')
		n++;
	return n >= 2 && n <= 6 ? n : 0;
}

/* The length of a dash between spaces opening s (" - ", " – ", " — "),
 * 0 when none. */
static size_t dateline_dash_len(const char *s)
{
	size_t n = s[0] == ' ' ? 1 : 0;

	if (s[n] == '-')
		n++;
	else if (strncmp(s + n, "\xE2\x80\x93", 3) == 0 ||
	         strncmp(s + n, "\xE2\x80\x94", 3) == 0)
		n += 3;
	else
		return 0;
	return n > 1 && s[n] == ' ' ? n : 0;
}

/* True for a byte of a place's name: a letter, ASCII or UTF-8, a space
 * or a hyphen. */
static bool place_byte(char c)
{
	return ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') || c == ' ' ||
	       c == '-' || (unsigned char)c >= 0x80;
}

void heed__dateline_agency(struct builder *b)
{
	/* The place's words: a city or a region, "Bad Bentheim". */
	enum { MAX_PLACE = 40 };
	const struct cand *d = &b->cand[F_DESCRIPTION];
	const char *s = d->value, *code;
	size_t n = 0, k;

	if (b->cand[F_AUTHOR].value || !s ||
	    !((*s >= 'A' && *s <= 'Z') || (unsigned char)*s >= 0xC0))
		return;
	while (n < MAX_PLACE && place_byte(s[n]))
		n++;
	if (s[n] != '(' || s[n - 1] != ' ')
		return;
	code = s + n + 1;
	n = 0;
	/* "dpa/lno": the agency and its regional service. */
	while ((k = agency_code_len(code + n)) && code[n + k] == '/')
		n += k + 1;
	if (!k || code[n + k] != ')' || !dateline_dash_len(code + n + k + 1))
		return;
	heed__cand(b, F_AUTHOR, d->origin, SUB_RANKS - 1, code, n + k);
}

void heed__description_byline(struct builder *b)
{
	/* Where a byline ends and the text begins; without one the names
	 * run on into the text's first words ("By Ann Lee Starmer talks
	 * big about growth"). */
	static const char *const stops[] = {" - ", " \xE2\x80\x94 ", " | ",
	                                    " \xC2\xB7 "};
	const struct cand *d = &b->cand[F_DESCRIPTION];
	const struct cand *a = &b->cand[F_AUTHOR];
	const char *s = d->value, *lead, *names;
	size_t len, n, stop = SIZE_MAX;

	/* A handle or a login is the last resort: names shown win. */
	if ((a->value && a->rank < rank_of(F_AUTHOR, O_TWITTER, 0)) || !s)
		return;
	len = strlen(s);
	lead = s;
	n = len;
	heed__author_unprefix(&lead, &n);
	if (lead == s)
		return;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(stops); i++) {
		const char *p = memmem(s, len, stops[i], strlen(stops[i]));
		if (p && (size_t)(p - s) < stop)
			stop = (size_t)(p - s);
	}
	if (stop == SIZE_MAX || stop <= (size_t)(lead - s))
		return;
	/* The names as a "By X" line opening an article gives them: the
	 * description is that line where a blog's engine cut it from the
	 * post's first text. */
	names = heed__byline_names(b, s, stop);
	n = names ? heed__line_names_len(names) : 0;
	/* Each a full name: one word after "By" is as often a way or a
	 * means ("By Car - Directions") on a page that names nobody. */
	for (size_t i = 0, w = 0; i < n; i += w + 2) {
		w = strcspn(names + i, ";");
		if (w > n - i)
			w = n - i;
		if (!memchr(names + i, ' ', w))
			return;
	}
	if (n)
		heed__cand(b, F_AUTHOR, d->origin, SUB_RANKS - 1, names, n);
}

/* The words of a personal name: two to four, each opening with a capital
 * (ASCII or a UTF-8 letter's lead byte), no digits. */
static bool capitalised_name(const char *s, size_t len)
{
	size_t words = 0;

	for (size_t i = 0; i < len; i++) {
		if (s[i] >= '0' && s[i] <= '9')
			return false;
		if (s[i] == ' ' || (i && s[i - 1] != ' '))
			continue;
		if (!((s[i] >= 'A' && s[i] <= 'Z') ||
		      (unsigned char)s[i] >= 0xC0))
			return false;
		words++;
	}
	return words >= 2 && words <= 4;
}

void heed__personal_site(struct builder *b)
{
	static const char *const titles[] = {"Dr.", "Prof.", "Dipl.-Ing."};
	const struct cand *site = &b->cand[F_SITE_NAME];
	const char *s = site->value;
	size_t len, n;
	bool titled = false;

	if (b->cand[F_AUTHOR].value || !s)
		return;
	len = strlen(s);
	/* An academic title says the words after it are a person's name
	 * ("Vancouver Sun" or "Creative Commons" spell their domains too);
	 * it is no part of the name. */
	while ((n = strcspn(s, " ")) < len &&
	       heed__ascii_ieq_any(s, n, titles, HEED_ARRAY_SIZE(titles))) {
		s += n + 1;
		len -= n + 1;
		titled = true;
	}
	if (titled && capitalised_name(s, len) &&
	    heed__spells_site_domain(b, s, len))
		heed__cand(b, F_AUTHOR, site->origin, SUB_RANKS - 1, s, len);
}

/* An author equal to a site name the page declares only after it (a meta
 * author before og:site_name) ranks as the site's name once that name is
 * known, as it would have after it. */
static void site_named_late(const struct builder *b, struct cand *c)
{
	int org = rank_of(F_AUTHOR, O_JSONLD_ORG, SUB_SITE_NAME);

	if (c->value && c->rank < org &&
	    heed__is_site_name(b, c->value, strlen(c->value)))
		c->rank = org;
}

void heed__cand(struct builder *b, enum field f, enum origin o, int sub,
                const char *s, size_t len)
{
	/* A file's stamp ranks as any label's date: it differs only in
	 * being no edit the page shows (edit_date). */
	int rank = rank_of(f, o,
	                   o == O_HTML && sub == D_LABEL_STAMP ? D_LABEL : sub);
	struct cand *c = &b->cand[f];
	int64_t num = 0;
	struct heed__date_form form = {0};
	char iso[HEED_DATE_ISO_MAX];
	char *v;

	if (rank < 0 ||
	    (f == F_DESCRIPTION && description_copy(b, rank, o, s, len)))
		return;
	if (f == F_AUTHOR)
		name_text(b, &s, &len);
	/* A <time> outside the article and main is as often a comment's
	 * or a listed post's as the page's. */
	if (f == F_PUBLISHED && o == O_HTML && sub != D_TIME_PAGE)
		shown_date(b, rank, s, len);
	if (f == F_MODIFIED && o == O_HTML && sub != D_TEXT_CLASS_PAGE &&
	    sub != D_LINE_PAGE && sub != D_LABEL_STAMP && !b->edit_day[0])
		edit_date(b, s, len);
	if (f == F_AUTHOR)
		site_named_late(b, c);
	if (c->value && c->rank <= rank) {
		if (f == F_PUBLISHED || f == F_MODIFIED)
			other_notation(b, c, o, s, len);
		else if (f == F_AUTHOR && author_ok(b, &s, &len, &rank))
			login_named(b, rank, o, s, len);
		return;
	}
	/* A handle's rank falls, so it is checked again. */
	if (f == F_AUTHOR &&
	    (!author_ok(b, &s, &len, &rank) || (c->value && c->rank <= rank) ||
	     login_named(b, rank, o, s, len)))
		return;
	if (f == F_PUBLISHED || f == F_MODIFIED) {
		if (!heed__parse_page_date(s, len, b->cand[F_LANGUAGE].value,
		                           &num, iso, &form))
			return;
		s = iso;
		len = strlen(iso);
	} else if (f == F_DURATION) {
		if (!heed__parse_duration(s, len, &num) || num <= 0)
			return;
	} else if (f == F_VIEWS) {
		if (!heed__parse_interaction_count(s, len, &num))
			return;
	} else if (f == F_THUMBNAIL && !http_or_relative(s, len)) {
		return; /* javascript:, data:, ...: the next source may do */
	}
	if (f == F_PUBLISHED && o == O_JSONLD && og_published(c) &&
	    c->num != num && !b->og_published.value)
		b->og_published = *c;
	/* The better source's instant, in the page's local notation when
	 * the value it replaces wrote that instant so. */
	if ((f == F_PUBLISHED || f == F_MODIFIED) && c->value) {
		struct cand better = {.value = iso, .num = num, .form = form};
		if (local_notation(b, &better, c->origin, c->value, c->num,
		                   &c->form)) {
			s = better.value;
			len = strlen(s);
		}
	}
	v = collapse(b, s, len);
	if (!v)
		return;
	if (f == F_LANGUAGE)
		bcp47(v);
	if (!*v)
		return;
	c->value = v;
	c->rank = rank;
	c->origin = o;
	c->num = num;
	c->form = form;
}

bool heed__cand_settled(const struct builder *b, enum field f, enum origin o,
                        int sub)
{
	return b->cand[f].value && b->cand[f].rank <= rank_of(f, o, sub);
}

void heed__author_list(struct builder *b, const char *s, size_t len)
{
	struct cand *c = &b->cand[F_AUTHOR];
	char *v;

	name_text(b, &s, &len);
	if (!c->value || !writers_list(s, len, c->value, strlen(c->value)))
		return;
	v = collapse(b, s, len);
	if (v) {
		c->value = v;
		c->origin = O_HTML;
	}
}

/* Keeps the first of a kind of name the page shows (in *slot), read as a
 * name's text, for a rule applied once the page is read. */
static void keep_first(struct builder *b, const char **slot, const char *s,
                       size_t len)
{
	name_text(b, &s, &len);
	if (!*slot && len)
		*slot = collapse(b, s, len);
}

void heed__licensor_name(struct builder *b, const char *s, size_t len)
{
	keep_first(b, &b->licensor, s, len);
}

/* Whether the words of name open, one for each, with the capitals of
 * initials ("DT" and "Donald Townsend"). */
static bool initials_of(const char *initials, const char *name)
{
	const char *p = name;

	for (const char *i = initials; *i; i++) {
		p += strspn(p, " ");
		if (heed__ascii_lower(*p) != heed__ascii_lower(*i))
			return false;
		p += strcspn(p, " ");
	}
	return !p[strspn(p, " ")];
}

void heed__initials_named(struct builder *b)
{
	struct cand *c = &b->cand[F_AUTHOR];
	const char *v = c->value;
	size_t n = v ? strlen(v) : 0;

	if (!b->licensor || n < 2 || n > 3)
		return;
	for (size_t i = 0; i < n; i++)
		if (v[i] < 'A' || v[i] > 'Z')
			return;
	if (!initials_of(v, b->licensor))
		return;
	c->value = b->licensor;
	c->origin = O_LINK;
}

int heed__handle_rank(void)
{
	return rank_of(F_AUTHOR, O_TWITTER, 0);
}

void heed__handle_named(struct builder *b)
{
	struct cand *c = &b->cand[F_AUTHOR];
	const char *h = heed__author_handle(b, heed__handle_rank());

	if (!b->handle_name || !h || strcmp(h, b->handle_of) != 0)
		return;
	c->value = b->handle_name;
	c->origin = O_HTML;
}

void heed__source_names(struct builder *b, const char *s, size_t len)
{
	keep_first(b, &b->source_names, s, len);
}

/* A newsroom's noun alone ("Redaktion", "Staff"), which a CMS writes in
 * an author field for the desk of the site itself: it names no one, as
 * the site's own name does not. */
static bool desk_noun(const char *s, size_t len)
{
	static const char *const nouns[] = {
	        "redaktion",        "die redaktion",   "staff",
	        "newsroom",         "redazione",       "redactie",
	        "r\303\251daction", "redacci\303\263n"};

	return heed__ascii_ieq_any(s, len, nouns, HEED_ARRAY_SIZE(nouns));
}

void heed__source_over_site(struct builder *b)
{
	struct cand *c = &b->cand[F_AUTHOR];
	size_t n;

	if (!b->source_names || !c->value)
		return;
	n = before_seat(c->value, strlen(c->value));
	if (!desk_noun(c->value, strlen(c->value)) &&
	    (c->rank < rank_of(F_AUTHOR, O_JSONLD_ORG, 0) ||
	     !(heed__is_site_name(b, c->value, n) ||
	       heed__spells_site_domain(b, c->value, n))))
		return;
	c->value = b->source_names;
	c->origin = O_HTML;
}

void heed__lead_names(struct builder *b, const char *s, size_t len)
{
	/* One name of two words or more: a list is settled as a byline's
	 * list of writers is (heed__author_list). */
	if (memchr(s, ' ', len) && !memchr(s, ';', len))
		keep_first(b, &b->lead_names, s, len);
}

void heed__lead_over_declared(struct builder *b)
{
	struct cand *c = &b->cand[F_AUTHOR];
	const char *v = b->lead_names;

	if (!v || !c->value || strstr(c->value, "; ") || c->origin == O_HTML)
		return;
	if (strlen(c->value) == strlen(v) &&
	    heed__ascii_ieq(v, strlen(v), c->value))
		return;
	c->value = v;
	c->origin = O_HTML;
}

/* list, names joined by "; ", with name added at its end (arena), or list
 * itself when it holds name already or EXTRACT_MAX_AUTHORS names; NULL
 * (b->oom set) when out of memory. */
static const char *list_add(struct builder *b, const char *list,
                            const char *name)
{
	size_t n = strlen(list);
	unsigned names = 1;
	char *joined;

	for (const char *p = list; (p = strstr(p, "; ")); p += 2)
		names++;
	/* The same name twice (a byline's link and its avatar's) is one. */
	if (names >= EXTRACT_MAX_AUTHORS ||
	    list_holds(list, n, name, strlen(name)))
		return list;
	joined = heed__arena_alloc(&b->arena, n + 2 + strlen(name) + 1);
	if (!joined) {
		b->oom = HEED_ENOMEM;
		return NULL;
	}
	memcpy(joined, list, n);
	memcpy(joined + n, "; ", 2);
	strcpy(joined + n + 2, name);
	return joined;
}

void heed__byline_link(struct builder *b, const char *s, size_t len)
{
	int rank = rank_of(F_AUTHOR, O_LINK, 0);
	const char *name, *v;

	/* A link's text that names nobody ("View profile", "admin") is
	 * no writer of the byline. */
	name_text(b, &s, &len);
	if (!author_ok(b, &s, &len, &rank) || !(name = collapse(b, s, len)))
		return;
	v = b->byline_links ? list_add(b, b->byline_links, name) : name;
	if (v)
		b->byline_links = v;
}

void heed__byline_links_over_declared(struct builder *b)
{
	struct cand *c = &b->cand[F_AUTHOR];
	const char *v = b->byline_links;

	if (!v || !strstr(v, "; ") || !c->value || strstr(c->value, "; ") ||
	    c->origin == O_HTML || c->origin == O_LINK ||
	    list_holds(v, strlen(v), c->value, strlen(c->value)))
		return;
	c->value = v;
	c->origin = O_LINK;
}

void heed__author_add(struct builder *b, enum origin o, int sub, const char *s,
                      size_t len)
{
	struct cand *c = &b->cand[F_AUTHOR];
	const char *v, *joined;

	int rank = rank_of(F_AUTHOR, o, sub);

	name_text(b, &s, &len);
	if (!c->value || c->rank != rank) {
		heed__cand(b, F_AUTHOR, o, sub, s, len);
		return;
	}
	if (!author_ok(b, &s, &len, &rank) || rank != c->rank)
		return;
	v = collapse(b, s, len);
	if (v && (joined = list_add(b, c->value, v)))
		c->value = joined;
}

size_t heed__fold_case(char *s, size_t len)
{
	unsigned char *p = (unsigned char *)s;

	for (size_t i = 0; i < len; i++) {
		if (p[i] >= 'A' && p[i] <= 'Z') {
			p[i] += 32;
		} else if (i + 1 < len && p[i] == 0xC3 && p[i + 1] >= 0x80 &&
		           p[i + 1] <= 0x9E && p[i + 1] != 0x97) {
			p[++i] += 0x20; /* Latin-1: U+00C0..U+00DE */
		} else if (i + 1 < len && p[i] == 0xCE && p[i + 1] >= 0x91 &&
		           p[i + 1] <= 0xA9 && p[i + 1] != 0xA2) {
			/* Greek capitals U+0391..U+03A9 */
			if (p[i + 1] <= 0x9F) {
				p[i + 1] += 0x20;
			} else {
				p[i] = 0xCF;
				p[i + 1] -= 0x20;
			}
			i++;
		} else if (i + 1 < len && p[i] == 0xD0 && p[i + 1] >= 0x80 &&
		           p[i + 1] <= 0xAF) {
			/* Cyrillic capitals U+0400..U+042F */
			if (p[i + 1] <= 0x8F) {
				p[i] = 0xD1;
				p[i + 1] += 0x10;
			} else if (p[i + 1] <= 0x9F) {
				p[i + 1] += 0x20;
			} else {
				p[i] = 0xD1;
				p[i + 1] -= 0x20;
			}
			i++;
		}
	}
	return len;
}

/*
 * rel=tag link texts (the only O_HTML tags) are the last resort, as in
 * trafilatura: a tag cloud in a sidebar names every tag of the site, so
 * they count only when no declared source (meta, Open Graph, microdata,
 * JSON-LD) names any. The list therefore holds either link texts only or
 * none; the first declared tag drops them, wherever it comes in the page
 * (JSON-LD is applied last).
 */
static bool tag_wanted(struct builder *b, enum origin o)
{
	bool links_only = b->tag_count && b->tags[0].source == HEED_SOURCE_HTML;

	if (o == O_HTML)
		return !b->tag_count || links_only;
	if (links_only)
		b->tag_count = 0;
	return true;
}

static void add_tag(struct builder *b, enum origin o, const char *s, size_t len)
{
	struct heed_field *t;
	char *v;

	/* A link's text is not even copied once a declared tag is kept: a
	 * listing has thousands of tag links. An empty declared tag leaves
	 * link texts in place. */
	if (o == O_HTML && !tag_wanted(b, o))
		return;
	v = collapse(b, s, len);
	if (!v || !tag_wanted(b, o) || b->tag_count >= EXTRACT_MAX_TAGS)
		return;
	heed__fold_case(v, strlen(v));
	for (size_t i = 0; i < b->tag_count; i++)
		if (b->tags[i].value[0] == v[0] &&
		    strcmp(b->tags[i].value, v) == 0)
			return;
	if (!b->tags) {
		b->tags = heed__arena_alloc(
		        &b->arena, EXTRACT_MAX_TAGS * sizeof(*b->tags));
		if (!b->tags) {
			b->oom = HEED_ENOMEM;
			return;
		}
	}
	t = &b->tags[b->tag_count++];
	t->value = v;
	t->source = heed__origin_source(o);
}

bool heed__tag_link_wanted(const struct builder *b)
{
	return !b->tag_count || b->tags[0].source == HEED_SOURCE_HTML ||
	       b->tag_link_count < EXTRACT_MAX_TAG_LINKS;
}

void heed__tag_link_seen(struct builder *b, const char *s, size_t len,
                         bool category)
{
	const char **list = category ? b->categories : b->tag_links;
	size_t *n = category ? &b->category_count : &b->tag_link_count;
	size_t max = category ? EXTRACT_MAX_CATEGORIES : EXTRACT_MAX_TAG_LINKS;
	char *v;

	if (*n == max)
		return;
	v = collapse(b, s, len);
	if (!v || !*v)
		return;
	heed__fold_case(v, strlen(v));
	list[(*n)++] = v;
}

/* True when v is one of list[0, n). */
static bool listed(const char *const *list, size_t n, const char *v)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(list[i], v) == 0)
			return true;
	return false;
}

void heed__drop_category_tags(struct builder *b)
{
	size_t kept = 0;

	if (!b->tag_link_count)
		return;
	for (size_t i = 0; i < b->tag_count; i++)
		if (!listed(b->categories, b->category_count,
		            b->tags[i].value) ||
		    listed(b->tag_links, b->tag_link_count, b->tags[i].value))
			b->tags[kept++] = b->tags[i];
	b->tag_count = kept;
}

void heed__tags(struct builder *b, enum origin o, const char *s, size_t len,
                bool split)
{
	char sep = ',';

	if (!split) {
		add_tag(b, o, s, len);
		return;
	}
	/* Split on ',' and, in a list without commas, on ';' or '|'. */
	if (!memchr(s, ',', len))
		sep = memchr(s, ';', len) ? ';'
		                          : (memchr(s, '|', len) ? '|' : ',');
	while (len) {
		const char *e = memchr(s, sep, len);
		size_t n = e ? (size_t)(e - s) : len;
		add_tag(b, o, s, n);
		if (!e)
			break;
		len -= n + 1;
		s = e + 1;
	}
}

void heed__add_link(struct builder *b, const char *href, const char *rel,
                    bool nofollow, bool feed)
{
	struct raw_link *l;

	if (b->link_count >= EXTRACT_MAX_LINKS)
		return;
	if (b->link_count == b->link_cap) {
		size_t ncap = b->link_cap ? b->link_cap * 2 : 64;
		struct raw_link *n =
		        heed__realloc(b->alloc, b->links, ncap * sizeof(*n));
		if (!n) {
			b->oom = HEED_ENOMEM;
			return;
		}
		b->links = n;
		b->link_cap = ncap;
	}
	l = &b->links[b->link_count];
	l->href = heed__strdup_arena(b, href, strlen(href));
	l->rel = rel;
	l->nofollow = nofollow;
	l->feed = feed;
	if (l->href)
		b->link_count++;
}
