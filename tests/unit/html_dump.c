/*
 * html_dump: heed's HTML driver (htmltree.c over htmltok.c) with handlers
 * that print what heed reads, for the differential test against a WHATWG
 * reference parser (tests/integration/test_html_differential.py).
 *
 *   html_dump IN SANITISED_OUT
 *
 * IN is sanitised as heed_extract_html() does (heed__utf8_sanitize) and
 * written to SANITISED_OUT, so the reference parses the same characters.
 * stdout: one line per element heed reads, in document order:
 *
 *   E <tab> name <tab> k=v <tab> k=v ...   its attributes that matter
 *   X <tab> name <tab> text                its text (title, h1, time,
 *                                          ld+json script), at its end
 *
 * with '\\', tab, CR and LF escaped. Only HTML elements count: those in
 * svg or math are left out, but for the integration points' children.
 *
 * This program compiles htmltree.c and htmltok.c itself and defines the
 * handlers html.c would: the library's html.o is never linked in.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "extract/extract-int.h"

#define MAX_DEPTH 8192

struct html {
	struct {
		char name[32];
		bool foreign; /* in svg or math */
		bool capture; /* its text is printed at its end */
		struct heed_buf text;
	} el[MAX_DEPTH];
	size_t depth;
};

static void put_escaped(const char *s, size_t len)
{
	static const char from[] = "\\\t\n\r", to[] = "\\tnr";

	for (size_t i = 0; i < len; i++) {
		const char *p = s[i] ? strchr(from, s[i]) : NULL;
		if (p) {
			putchar('\\');
			putchar(to[p - from]);
		} else {
			putchar(s[i]);
		}
	}
}

static const char *att(const char *const *atts, const char *name)
{
	for (size_t i = 0; atts && atts[i]; i += 2)
		if (strcmp(atts[i], name) == 0)
			return atts[i + 1];
	return NULL;
}

/* The attributes compared, per element; the first is the element. */
static const char *const watched[][7] = {
        {"meta", "name", "property", "content", "itemprop", "charset",
         "http-equiv"},
        {"link", "rel", "href", "type", "itemprop"},
        {"a", "href", "rel"},
        {"time", "datetime", "itemprop"},
        {"script", "type"},
        {"html", "lang"},
        {"base", "href"},
        {"title"},
        {"h1"},
};

static const char *const *watch(const char *name)
{
	for (size_t i = 0; i < HEED_ARRAY_SIZE(watched); i++)
		if (strcmp(watched[i][0], name) == 0)
			return watched[i];
	return NULL;
}

static bool ld_json(const char *type)
{
	return type && strcasecmp(type, "application/ld+json") == 0;
}

/* SVG and MathML integration points: their children are HTML again. */
static bool integration_point(const char *name)
{
	static const char *const names[] = {"foreignobject",
	                                    "desc",
	                                    "title",
	                                    "mi",
	                                    "mo",
	                                    "mn",
	                                    "ms",
	                                    "mtext",
	                                    "annotation-xml"};
	for (size_t i = 0; i < HEED_ARRAY_SIZE(names); i++)
		if (strcmp(names[i], name) == 0)
			return true;
	return false;
}

heed_status heed__html_new(struct html **h, struct builder *b)
{
	(void)b;
	*h = calloc(1, sizeof(**h));
	return *h ? HEED_OK : HEED_ENOMEM;
}

void heed__html_start(struct html *h, const char *name, size_t len,
                      const char *const *atts)
{
	const char *const *w = watch(name);
	bool parent_foreign = false, foreign;

	(void)len; /* the dump prints names to their NUL */
	if (h->depth) {
		const char *p = h->el[h->depth - 1].name;
		parent_foreign =
		        h->el[h->depth - 1].foreign && !integration_point(p);
	}
	foreign = parent_foreign || strcmp(name, "svg") == 0 ||
	          strcmp(name, "math") == 0;
	if (h->depth == MAX_DEPTH)
		abort(); /* the tree caps its stack far below */
	snprintf(h->el[h->depth].name, sizeof(h->el[0].name), "%s", name);
	h->el[h->depth].foreign = foreign;
	h->el[h->depth].capture = false;
	heed__buf_init(&h->el[h->depth].text, heed_allocator_default(),
	               1 << 20);
	if (w && !foreign) {
		fputs("E\t", stdout);
		put_escaped(name, strlen(name));
		for (size_t i = 1; i < 7 && w[i]; i++) {
			const char *v = att(atts, w[i]);
			if (!v)
				continue;
			printf("\t%s=", w[i]);
			put_escaped(v, strlen(v));
		}
		putchar('\n');
		h->el[h->depth].capture = strcmp(name, "title") == 0 ||
		                          strcmp(name, "h1") == 0 ||
		                          strcmp(name, "time") == 0 ||
		                          (strcmp(name, "script") == 0 &&
		                           ld_json(att(atts, "type")));
	}
	h->depth++;
}

void heed__html_end(struct html *h)
{
	if (!h->depth)
		abort(); /* the driver balances every start */
	h->depth--;
	if (h->el[h->depth].capture) {
		printf("X\t%s\t", h->el[h->depth].name);
		put_escaped(h->el[h->depth].text.data
		                    ? h->el[h->depth].text.data
		                    : "",
		            h->el[h->depth].text.len);
		putchar('\n');
	}
	heed__buf_free(&h->el[h->depth].text);
}

/* Only a capture's end is printed, and links capture nothing. */
void heed__html_link_ends(struct html *h, size_t d)
{
	(void)h;
	(void)d;
}

bool heed__html_wants_text(const struct html *h)
{
	(void)h;
	return true;
}

/* Text goes to every open capture: an element's text is its
 * descendants' text, as the DOM's textContent. */
void heed__html_text(struct html *h, const char *s, size_t len)
{
	for (size_t i = 0; i < h->depth; i++)
		if (h->el[i].capture)
			heed__buf_add(&h->el[i].text, s, len);
}

bool heed__html_wants_raw(const struct html *h)
{
	(void)h;
	return true;
}

void heed__html_raw(struct html *h, const char *s, size_t len)
{
	heed__html_text(h, s, len);
}

void heed__html_done(struct html *h)
{
	while (h && h->depth)
		heed__html_end(h);
	free(h);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *data = NULL;
	size_t cap = 0, n;

	*len = 0;
	if (!f)
		return NULL;
	for (;;) {
		if (*len == cap) {
			char *d = realloc(data, cap ? 2 * cap : 65536);
			if (!d)
				abort();
			data = d;
			cap = cap ? 2 * cap : 65536;
		}
		n = fread(data + *len, 1, cap - *len, f);
		if (!n)
			break;
		*len += n;
	}
	fclose(f);
	return data;
}

int main(int argc, char **argv)
{
	struct builder b = {.alloc = heed_allocator_default()};
	struct heed_buf utf8;
	size_t len;
	char *in;
	FILE *out;

	if (argc != 3) {
		fprintf(stderr, "usage: html_dump IN SANITISED_OUT\n");
		return 2;
	}
	in = slurp(argv[1], &len);
	if (!in) {
		perror(argv[1]);
		return 1;
	}
	heed__buf_init(&utf8, heed_allocator_default(),
	               HEED_EXTRACT_MAX_HTML_BYTES * 3 + 16);
	if (heed__utf8_sanitize(&utf8, in, len) != HEED_OK)
		return 1;
	out = fopen(argv[2], "wb");
	if (!out || fwrite(utf8.data, 1, utf8.len, out) != utf8.len ||
	    fclose(out) != 0) {
		perror(argv[2]);
		return 1;
	}
	if (heed__html_parse(&b, heed__buf_str(&utf8), utf8.len) != HEED_OK)
		return 1;
	heed__buf_free(&utf8);
	free(in);
	return 0;
}
