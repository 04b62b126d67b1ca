/*
 * The library's HTML driver: heed's tokenizer (htmltok.c) with a small
 * tree-balancing layer in front of the handlers (html.c). It keeps the
 * stack of open elements of the WHATWG HTML Standard (13.2.4.3) and the
 * parts of tree construction (13.2.6) that decide which element a start or
 * end tag opens or closes, which is all a metadata reader needs of a tree:
 *
 * - void elements never open (13.1.2); a self-closing tag closes itself
 *   only in foreign content (13.2.6.5);
 * - an end tag closes the nearest open element of its name and everything
 *   above it; an end tag with no such element is ignored, as is one whose
 *   search meets a special element (13.2.6.4.7 "any other end tag") or,
 *   for special names, a scope boundary ("has an element in scope",
 *   MathML and SVG integration points included; "table scope" for
 *   </table>); a heading's end tag closes any open heading;
 *   </body> and </html> close nothing (the "after body" modes put later
 *   content back in the body);
 * - the implied end tags of "in body": li closes an open li, dd and dt
 *   close dd or dt, option and optgroup close an option, block start tags
 *   close an open p ("close a p element"), a heading closes a heading, a
 *   new <a> closes an open one, or, when a special element is open above
 *   it, ends it as a link only, the special elements staying open (the
 *   adoption agency algorithm's outcome for both cases); in tables, td, th,
 * tr and the row groups close open cells, rows and row groups ("clear the stack
 * back to a table context"), and they are ignored outside a table;
 * - the head is closed by any start tag that does not belong in it, which
 *   opens the body;
 *   second <html>, <head> and <body> tags open nothing (a later <html>
 *   only adds its attributes);
 * - svg and math open foreign content, where the tokenizer reads CDATA and
 *   switches no text state, until an HTML integration point or a breakout
 *   tag (13.2.6.5: b, div, p, ...) pops back to HTML.
 *
 * The adoption agency's reopening of formatting elements, foster parenting
 * and template contents are left out: they move nodes in a tree, and no
 * handler reads the tree. Searches down the stack look at most MAX_WALK
 * elements, so a page of 4,096 nested spans followed by a million <li>s
 * stays linear; the stack itself is capped at EXTRACT_MAX_DEPTH, past
 * which elements open and close at once.
 */
#include <pthread.h>

#include "extract/extract-int.h"
#include "extract/htmltok.h"

#define MAX_WALK 256 /* elements a search down the stack looks at */

/* Element flags (13.1.2, 13.2.4.2). */
enum {
	E_VOID = 1 << 0,    /* never has an end */
	E_SPECIAL = 1 << 1, /* the "special" category */
	E_SCOPE = 1 << 2,   /* bounds "has an element in scope" */
	E_CLOSES_P = 1 << 3,
	E_HEAD_OK = 1 << 4,  /* allowed in head */
	E_BREAKOUT = 1 << 5, /* leaves foreign content */
	E_HEADING = 1 << 6,
	E_INTEGRATION = 1 << 7, /* SVG or MathML HTML integration point */
};

/* Elements the tree rules name. */
enum el_id {
	ID_OTHER,
	ID_A,
	ID_BODY,
	ID_BUTTON,
	ID_DD_DT,
	ID_FONT,
	ID_HEAD,
	ID_HTML,
	ID_LI,
	ID_LIST, /* ol, ul: bound the li search */
	ID_MATH,
	ID_SVG,
	ID_OPTGROUP,
	ID_OPTION,
	ID_P,
	ID_TABLE,
	ID_CELL,        /* td, th */
	ID_ROW,         /* tr */
	ID_ROWGROUP,    /* tbody, thead, tfoot */
	ID_TABLE_OTHER, /* caption, colgroup, col */
	ID_TEMPLATE,
	ID_COUNT
};

struct el_info {
	const char *name;
	size_t len;
	unsigned char id, flags;
};

#define EL(name, id, flags)                       \
	{                                         \
		name, sizeof(name) - 1, id, flags \
	}

#define SP E_SPECIAL
#define CP E_CLOSES_P
#define HO E_HEAD_OK
#define BO E_BREAKOUT

/* In the order of their names, for the reader: look-ups go by
 * element_index. */
static const struct el_info elements[] = {
        EL("a", ID_A, 0),
        EL("address", 0, SP | CP),
        EL("applet", 0, SP | E_SCOPE),
        EL("area", 0, SP | E_VOID),
        EL("article", 0, SP | CP),
        EL("aside", 0, SP | CP),
        EL("b", 0, BO),
        EL("base", 0, SP | E_VOID | HO),
        EL("basefont", 0, SP | E_VOID | HO),
        EL("bgsound", 0, SP | E_VOID | HO),
        EL("big", 0, BO),
        EL("blockquote", 0, SP | CP | BO),
        EL("body", ID_BODY, SP | BO),
        EL("br", 0, SP | E_VOID | BO),
        EL("button", ID_BUTTON, SP),
        EL("caption", ID_TABLE_OTHER, SP | E_SCOPE),
        EL("center", 0, SP | CP | BO),
        EL("code", 0, BO),
        EL("col", ID_TABLE_OTHER, SP | E_VOID),
        EL("colgroup", ID_TABLE_OTHER, SP),
        EL("dd", ID_DD_DT, SP | CP | BO),
        EL("details", 0, SP | CP),
        EL("dialog", 0, CP),
        EL("dir", 0, SP | CP),
        EL("div", 0, SP | CP | BO),
        EL("dl", 0, SP | CP | BO),
        EL("dt", ID_DD_DT, SP | CP | BO),
        EL("em", 0, BO),
        EL("embed", 0, SP | E_VOID | BO),
        EL("fieldset", 0, SP | CP),
        EL("figcaption", 0, SP | CP),
        EL("figure", 0, SP | CP),
        EL("font", ID_FONT, 0),
        EL("footer", 0, SP | CP),
        EL("form", 0, SP | CP),
        EL("frame", 0, SP | E_VOID),
        EL("frameset", 0, SP),
        EL("h1", 0, SP | CP | BO | E_HEADING),
        EL("h2", 0, SP | CP | BO | E_HEADING),
        EL("h3", 0, SP | CP | BO | E_HEADING),
        EL("h4", 0, SP | CP | BO | E_HEADING),
        EL("h5", 0, SP | CP | BO | E_HEADING),
        EL("h6", 0, SP | CP | BO | E_HEADING),
        EL("head", ID_HEAD, SP | BO | HO),
        EL("header", 0, SP | CP),
        EL("hgroup", 0, SP | CP),
        EL("hr", 0, SP | E_VOID | CP | BO),
        EL("html", ID_HTML, SP | E_SCOPE | HO),
        EL("i", 0, BO),
        EL("iframe", 0, SP),
        EL("img", 0, SP | E_VOID | BO),
        EL("input", 0, SP | E_VOID),
        EL("keygen", 0, SP | E_VOID),
        EL("li", ID_LI, SP | CP | BO),
        EL("link", 0, SP | E_VOID | HO),
        EL("listing", 0, SP | CP | BO),
        EL("main", 0, SP | CP),
        EL("marquee", 0, SP | E_SCOPE),
        EL("math", ID_MATH, 0),
        EL("menu", 0, SP | CP | BO),
        EL("meta", 0, SP | E_VOID | HO | BO),
        EL("nav", 0, SP | CP),
        EL("nobr", 0, BO),
        EL("noembed", 0, SP),
        EL("noframes", 0, SP | HO),
        EL("noscript", 0, SP | HO),
        EL("object", 0, SP | E_SCOPE),
        EL("ol", ID_LIST, SP | CP | BO),
        EL("optgroup", ID_OPTGROUP, 0),
        EL("option", ID_OPTION, 0),
        EL("p", ID_P, SP | CP | BO),
        EL("param", 0, SP | E_VOID),
        EL("plaintext", 0, SP | CP),
        EL("pre", 0, SP | CP | BO),
        EL("ruby", 0, BO),
        EL("s", 0, BO),
        EL("script", 0, SP | HO),
        EL("search", 0, SP | CP),
        EL("section", 0, SP | CP),
        EL("select", 0, SP),
        EL("small", 0, BO),
        EL("source", 0, SP | E_VOID),
        EL("span", 0, BO),
        EL("strike", 0, BO),
        EL("strong", 0, BO),
        EL("style", 0, SP | HO),
        EL("sub", 0, BO),
        EL("summary", 0, SP | CP),
        EL("sup", 0, BO),
        EL("svg", ID_SVG, 0),
        EL("table", ID_TABLE, SP | CP | E_SCOPE | BO),
        EL("tbody", ID_ROWGROUP, SP),
        EL("td", ID_CELL, SP | E_SCOPE),
        EL("template", ID_TEMPLATE, SP | E_SCOPE | HO),
        EL("textarea", 0, SP),
        EL("tfoot", ID_ROWGROUP, SP),
        EL("th", ID_CELL, SP | E_SCOPE),
        EL("thead", ID_ROWGROUP, SP),
        EL("title", 0, SP | HO),
        EL("tr", ID_ROW, SP),
        EL("track", 0, SP | E_VOID),
        EL("tt", 0, BO),
        EL("u", 0, BO),
        EL("ul", ID_LIST, SP | CP | BO),
        EL("var", 0, BO),
        EL("wbr", 0, SP | E_VOID),
        EL("xmp", 0, SP | CP),
};

enum ns { NS_HTML, NS_SVG, NS_MATHML };

struct open_el {
	size_t name_off; /* in tree.names */
	unsigned char name_len, id, flags, ns;
};

struct tree {
	struct heed_htmltok tok;
	const struct heed_allocator *alloc;
	struct html *h;
	struct open_el *stack;
	size_t depth, cap;     /* cap grows to EXTRACT_MAX_DEPTH */
	struct heed_buf names; /* the open elements' names, NUL-separated */
	struct heed_buf text;  /* decoded text, reused */
	bool head_seen, body_seen;
	/* Open elements of each kind, to skip searches that would fail (of
	 * p, a, li, dd or dt, table). Every kind is counted, so a push or
	 * a pop costs no branch: a switch to the few kinds had the most
	 * mispredicted jumps of a page's parse. */
	size_t open[ID_COUNT];
	heed_status rc;
};

/* elements[] by their names' hash, filled once (element_index_init). */
static struct heed_names element_index;
static pthread_once_t element_index_once = PTHREAD_ONCE_INIT;

_Static_assert(HEED_ARRAY_SIZE(elements) < HEED_NAME_SLOTS,
               "the element index needs an empty slot");

static void element_index_init(void)
{
	for (size_t i = 0; i < HEED_ARRAY_SIZE(elements); i++)
		heed__names_add(&element_index, elements[i].name,
		                elements[i].len, (unsigned)i);
}

/* memcmp() for the short names of tags, without a call. */
static bool same(const char *a, const char *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

/* The table entry of a name, or NULL. */
static const struct el_info *lookup(const char *name, size_t len)
{
	if (!len)
		return NULL;
	for (unsigned k = heed__names_hash(name, len), i;
	     (i = heed__names_next(&element_index, &k));)
		if (elements[i - 1].len == len &&
		    same(elements[i - 1].name, name, len))
			return &elements[i - 1];
	return NULL;
}

/* What the rules know of the HTML element name[0, len): its entry, or
 * one of no kind. Inline: every start and end tag asks. */
static inline struct el_info html_info(const char *name, size_t len)
{
	const struct el_info *e = lookup(name, len);

	return e ? *e : (struct el_info){name, len, ID_OTHER, 0};
}

static struct el_info info_of(const char *name, size_t len, enum ns ns)
{
	struct el_info in = html_info(name, len);

	if (ns == NS_HTML)
		return in;
	/* Foreign elements are none of the HTML kinds; a few are
	 * integration points, which are special and bound scopes. */
	in.id = ID_OTHER;
	in.flags = 0;
	if ((ns == NS_SVG &&
	     (strcmp(name, "foreignobject") == 0 || strcmp(name, "desc") == 0 ||
	      strcmp(name, "title") == 0)) ||
	    (ns == NS_MATHML &&
	     (strcmp(name, "mi") == 0 || strcmp(name, "mo") == 0 ||
	      strcmp(name, "mn") == 0 || strcmp(name, "ms") == 0 ||
	      strcmp(name, "mtext") == 0 ||
	      strcmp(name, "annotation-xml") == 0)))
		in.flags = E_SPECIAL | E_SCOPE | E_INTEGRATION;
	return in;
}

static const struct open_el *current(const struct tree *t)
{
	return t->depth ? &t->stack[t->depth - 1] : NULL;
}

static const char *name_at(const struct tree *t, size_t i)
{
	return t->names.data + t->stack[i].name_off;
}

/* The tokenizer reads foreign content when the current node is an SVG or
 * MathML element other than an integration point. */
static void update_foreign(struct tree *t)
{
	const struct open_el *c = current(t);

	t->tok.foreign = c && c->ns != NS_HTML && !(c->flags & E_INTEGRATION);
}

static void pop(struct tree *t)
{
	struct open_el *e = &t->stack[--t->depth];

	t->open[e->id]--;
	t->names.len = e->name_off;
	heed__html_end(t->h);
}

/* Pops elements until the one at index i is popped. */
static void pop_to(struct tree *t, size_t i)
{
	while (t->depth > i)
		pop(t);
}

/* The index of the nearest open element with that id, looking down past
 * none with a stop flag and at most MAX_WALK elements; depth when none. */
static size_t find(const struct tree *t, unsigned char id, unsigned stop)
{
	for (size_t k = 0; k < t->depth && k < MAX_WALK; k++) {
		const struct open_el *e = &t->stack[t->depth - 1 - k];
		if (e->id == id && e->ns == NS_HTML)
			return t->depth - 1 - k;
		if (e->flags & stop)
			break;
	}
	return t->depth;
}

/* True when a special element is open above index i: the adoption agency
 * would move it out of the element at i (its "furthest block") rather than
 * close it, so "<a><h1><a>" leaves the h1 open. */
static bool special_above(const struct tree *t, size_t i)
{
	for (size_t j = i + 1; j < t->depth; j++)
		if (t->stack[j].ns == NS_HTML &&
		    (t->stack[j].flags & E_SPECIAL))
			return true;
	return false;
}

/* The adoption agency's outcome when a special element is open above the
 * <a> at index i: the special elements move out of it and stay open, so
 * what follows is in no link. The <a> stays on the stack, no longer an
 * <a> for the searches, and its end tag still closes it by name. */
static void link_ends(struct tree *t, size_t i)
{
	t->stack[i].id = ID_OTHER;
	t->open[ID_A]--;
	t->open[ID_OTHER]++;
	heed__html_link_ends(t->h, i);
}

/* "Close a p element" when one is in button scope. */
static void close_p(struct tree *t)
{
	size_t i, button;

	if (!t->open[ID_P])
		return;
	i = find(t, ID_P, E_SCOPE);
	/* Button scope: a button above the p hides it. */
	button = find(t, ID_BUTTON, E_SCOPE);
	if (i < t->depth && (button == t->depth || button < i))
		pop_to(t, i);
}

/* 13.2.6.4.7 for li, dd and dt: the loop stops at a special element other
 * than address, div and p. */
static void close_list_item(struct tree *t, unsigned char id)
{
	for (size_t k = 0; k < t->depth && k < MAX_WALK; k++) {
		size_t i = t->depth - 1 - k;
		const struct open_el *e = &t->stack[i];
		const char *n = name_at(t, i);
		if (e->id == id && e->ns == NS_HTML) {
			pop_to(t, i);
			return;
		}
		if ((e->flags & E_SPECIAL) && strcmp(n, "address") != 0 &&
		    strcmp(n, "div") != 0 && e->id != ID_P)
			return;
	}
}

/* Table start tags: clear the stack back to the element that holds them
 * (table for row groups, a row group or table for tr, a row for cells).
 * False when no table is open, where the spec ignores them. */
static bool table_context(struct tree *t, unsigned char id)
{
	if (!t->open[ID_TABLE])
		return false;
	for (size_t i = t->depth; i-- > 0;) {
		unsigned char e = t->stack[i].id;
		if (t->stack[i].ns != NS_HTML)
			continue;
		if (e == ID_TABLE || (id == ID_ROW && e == ID_ROWGROUP) ||
		    (id == ID_CELL && (e == ID_ROW || e == ID_ROWGROUP))) {
			pop_to(t, i + 1);
			return true;
		}
	}
	return true;
}

/* The implied end tags a start tag in HTML content brings. False when the
 * tag opens nothing. */
static bool implied_ends(struct tree *t, const struct el_info *in)
{
	const struct open_el *c = current(t);

	if ((in->id == ID_HTML && t->depth) ||
	    (in->id == ID_HEAD && t->head_seen) ||
	    (in->id == ID_BODY && t->body_seen))
		return false;
	if (c && c->id == ID_HEAD && !(in->flags & E_HEAD_OK))
		pop(t);
	if (in->flags & E_CLOSES_P)
		close_p(t);
	if (in->id == ID_LI && t->open[ID_LI])
		close_list_item(t, ID_LI);
	if (in->id == ID_DD_DT && t->open[ID_DD_DT])
		close_list_item(t, ID_DD_DT);
	c = current(t);
	if (c && (((in->flags & E_HEADING) && (c->flags & E_HEADING)) ||
	          ((in->id == ID_OPTION || in->id == ID_OPTGROUP) &&
	           c->id == ID_OPTION)))
		pop(t);
	if (in->id == ID_A && t->open[ID_A]) {
		size_t i = find(t, ID_A, E_SCOPE);
		if (i < t->depth && !special_above(t, i))
			pop_to(t, i);
		else if (i < t->depth)
			link_ends(t, i);
	}
	if (in->id == ID_ROWGROUP || in->id == ID_ROW || in->id == ID_CELL ||
	    in->id == ID_TABLE_OTHER)
		return table_context(t, in->id == ID_TABLE_OTHER ? ID_ROWGROUP
		                                                 : in->id);
	return true;
}

/* 13.2.6.5: a breakout tag pops foreign content back to HTML. */
static bool breaks_out(const struct heed_htmltok *tok, const struct el_info *in)
{
	if (in->flags & E_BREAKOUT)
		return true;
	if (in->id != ID_FONT)
		return false;
	for (size_t i = 0; tok->atts[i]; i += 2)
		if (strcmp(tok->atts[i], "color") == 0 ||
		    strcmp(tok->atts[i], "face") == 0 ||
		    strcmp(tok->atts[i], "size") == 0)
			return true;
	return false;
}

/* Room for one more open element. */
static heed_status grow(struct tree *t)
{
	size_t cap = t->cap ? 2 * t->cap : 64;
	struct open_el *s;

	if (t->depth < t->cap)
		return HEED_OK;
	cap = cap < EXTRACT_MAX_DEPTH ? cap : EXTRACT_MAX_DEPTH;
	s = heed__realloc(t->alloc, t->stack, cap * sizeof(*s));
	if (!s)
		return HEED_ENOMEM;
	t->stack = s;
	t->cap = cap;
	return HEED_OK;
}

/* Appends an open element's name and its NUL to t->names: a copy while
 * the allocation has room, heed__buf_add() to grow it. */
static heed_status add_open_name(struct tree *t, const char *name, size_t len)
{
	struct heed_buf *names = &t->names;

	/* Room for the name, its NUL and the buffer's own. */
	if (names->cap - names->len > len + 1) {
		memcpy(names->data + names->len, name, len + 1);
		names->len += len + 1;
		names->data[names->len] = '\0';
		return HEED_OK;
	}
	return heed__buf_add(names, name, len + 1);
}

static void push(struct tree *t, const struct el_info *in, enum ns ns)
{
	const struct heed_htmltok *tok = &t->tok;
	size_t off = t->names.len;
	bool closes =
	        (in->flags & E_VOID) || (ns != NS_HTML && tok->self_closing);
	heed_status rc = HEED_OK;

	heed__html_start(t->h, tok->name, tok->name_len, tok->atts);
	/* Past the stack's cap the element opens and closes at once. */
	if (!closes && t->depth < EXTRACT_MAX_DEPTH)
		rc = grow(t);
	if (rc == HEED_OK && !closes && t->depth < EXTRACT_MAX_DEPTH)
		rc = add_open_name(t, tok->name, tok->name_len);
	if (rc == HEED_ENOMEM)
		t->rc = rc;
	if (closes || t->depth == EXTRACT_MAX_DEPTH || rc != HEED_OK) {
		heed__html_end(t->h);
		return;
	}
	t->stack[t->depth++] =
	        (struct open_el){off, (unsigned char)tok->name_len, in->id,
	                         in->flags, (unsigned char)ns};
	t->open[in->id]++;
}

static void start_tag(struct tree *t)
{
	const struct open_el *c = current(t);
	enum ns ns = NS_HTML;
	struct el_info in;

	if (t->tok.foreign) {
		in = html_info(t->tok.name, t->tok.name_len);
		if (!breaks_out(&t->tok, &in)) {
			in = info_of(t->tok.name, t->tok.name_len,
			             (enum ns)c->ns);
			push(t, &in, (enum ns)c->ns);
			return;
		}
		while (t->depth && current(t)->ns != NS_HTML &&
		       !(current(t)->flags & E_INTEGRATION))
			pop(t);
	}
	in = html_info(t->tok.name, t->tok.name_len);
	if (!implied_ends(t, &in)) {
		/* A later <html> still lends the root its attributes "if the
		 * attribute is not already present" (13.2.6.4.7): the
		 * handlers keep the first value of each. */
		if (in.id == ID_HTML) {
			heed__html_start(t->h, t->tok.name, t->tok.name_len,
			                 t->tok.atts);
			heed__html_end(t->h);
		}
		return;
	}
	if (in.id == ID_HEAD)
		t->head_seen = true;
	/* A start tag that does not belong in the head opens the body, as
	 * <body> does: a later <body> then opens nothing (13.2.6.4.7). */
	if (!(in.flags & E_HEAD_OK))
		t->head_seen = t->body_seen = true;
	if (in.id == ID_SVG)
		ns = NS_SVG;
	else if (in.id == ID_MATH)
		ns = NS_MATHML;
	if (ns != NS_HTML)
		in = info_of(t->tok.name, t->tok.name_len, ns);
	push(t, &in, ns);
}

/* True when e is the element an end tag named by in closes under the HTML
 * rules: an HTML element of its name, or for a heading any heading
 * (13.2.6.4.7: "</h2>" closes an open h1). */
static bool closes(const struct tree *t, size_t i, const struct el_info *in)
{
	const struct open_el *e = &t->stack[i];

	if (in->flags & E_HEADING)
		return e->ns == NS_HTML && (e->flags & E_HEADING);
	return e->ns == NS_HTML && e->name_len == t->tok.name_len &&
	       same(name_at(t, i), t->tok.name, e->name_len);
}

/* True when e ends the search of the end tag named by in: "has an element
 * in table scope" for </table> (only html, table and template bound it,
 * so a </table> in a cell closes the cell), "has an element in scope"
 * for other special names, a special element for the rest. */
static bool bounds(const struct open_el *e, const struct el_info *in)
{
	/* MathML text integration points and SVG's foreignObject, desc and
	 * title are special and bound every scope but table scope. */
	if (e->ns != NS_HTML)
		return in->id != ID_TABLE && (e->flags & E_INTEGRATION);
	if (in->id == ID_TABLE)
		return e->id == ID_HTML || e->id == ID_TEMPLATE;
	if (in->id == ID_LI && e->id == ID_LIST)
		return true;
	return e->flags & ((in->flags & E_SPECIAL) ? E_SCOPE : E_SPECIAL);
}

/* An end tag closes the nearest open element of its name (13.2.6.4.7 "any
 * other end tag"; for special names, "has an element in scope"). */
static void end_tag(struct tree *t)
{
	const char *name = t->tok.name;
	const struct open_el *c = current(t);
	bool foreign = c && c->ns != NS_HTML;
	struct el_info in;

	/* Most end tags close the current node. */
	if (c && c->name_len == t->tok.name_len && c->id != ID_BODY &&
	    c->id != ID_HTML &&
	    same(name_at(t, t->depth - 1), name, c->name_len)) {
		pop(t);
		return;
	}
	in = html_info(name, t->tok.name_len);
	if (in.id == ID_BODY || in.id == ID_HTML)
		return;
	/* "in body" has no rule of its own for the end tags of title,
	 * script, style, textarea and the raw text elements: "any other end
	 * tag" stops at any special element, as for a non-special name. */
	if (heed__htmltok_mode_for(name, t->tok.name_len) != HTMLTOK_DATA)
		in.flags &= (unsigned char)~E_SPECIAL;
	for (size_t k = 0; k < t->depth && k < MAX_WALK; k++) {
		size_t i = t->depth - 1 - k;
		const struct open_el *e = &t->stack[i];
		/* 13.2.6.5: from a foreign current node, the SVG and MathML
		 * elements are searched by name alone; the first HTML element
		 * hands the search to the HTML rules. */
		if (foreign && e->ns != NS_HTML) {
			if (e->name_len == t->tok.name_len &&
			    same(name_at(t, i), name, e->name_len)) {
				pop_to(t, i);
				return;
			}
			continue;
		}
		foreign = false;
		if (closes(t, i, &in)) {
			pop_to(t, i);
			return;
		}
		if (bounds(&t->stack[i], &in))
			return;
	}
}

static void text(struct tree *t)
{
	const struct heed_htmltok *tok = &t->tok;

	if (tok->raw) {
		heed__html_raw(t->h, tok->text, tok->text_len);
		return;
	}
	if (!heed__html_wants_text(t->h))
		return;
	if (!tok->refs || !memchr(tok->text, '&', tok->text_len)) {
		heed__html_text(t->h, tok->text, tok->text_len);
		return;
	}
	heed__buf_reset(&t->text);
	/* A text past the ceiling is cut, as a capture would cut it. */
	if (heed__htmltok_decode(&t->text, tok->text, tok->text_len) ==
	    HEED_ENOMEM)
		t->rc = HEED_ENOMEM;
	heed__html_text(t->h, heed__buf_str(&t->text), t->text.len);
}

static void run(struct tree *t)
{
	for (;;) {
		heed_status rc = heed__htmltok_next(&t->tok);
		if (rc != HEED_OK) {
			t->rc = rc;
			return;
		}
		switch (t->tok.kind) {
		case HTMLTOK_EOF:
			return;
		case HTMLTOK_START:
			start_tag(t);
			break;
		case HTMLTOK_END:
			end_tag(t);
			break;
		case HTMLTOK_TEXT:
			text(t);
			break;
		}
		update_foreign(t);
	}
}

heed_status heed__html_parse(struct builder *b, const char *utf8, size_t len)
{
	struct tree t = {.alloc = b->alloc};
	heed_status rc;

	(void)pthread_once(&element_index_once, element_index_init);
	rc = heed__html_new(&t.h, b);
	if (rc != HEED_OK)
		return rc;
	heed__buf_init(&t.names, b->alloc,
	               EXTRACT_MAX_DEPTH * (HTMLTOK_MAX_NAME + 1));
	heed__buf_init(&t.text, b->alloc, EXTRACT_MAX_TEXT);
	heed__htmltok_init(&t.tok, utf8, len, b->alloc);
	run(&t);
	/* The end of the input closes every open element. */
	while (t.depth)
		pop(&t);
	heed__htmltok_free(&t.tok);
	heed__buf_free(&t.text);
	heed__buf_free(&t.names);
	heed__free(b->alloc, t.stack);
	heed__html_done(t.h);
	return t.rc != HEED_OK ? t.rc : b->oom;
}
