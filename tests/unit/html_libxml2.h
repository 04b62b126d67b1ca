/*
 * A driver of src/extract's HTML handlers (html.c) on libxml2's HTML SAX
 * parser, which heed used before it had its own tokenizer: the reference
 * the unit tests compare heed's driver (htmltree.c) with. libxml2 2.9
 * balances every start with an end and lower-cases names, as the handlers
 * want. Test code only: libheed no longer parses HTML with libxml2.
 */
#ifndef HEED_HTML_LIBXML2_H
#define HEED_HTML_LIBXML2_H

#include <string.h>

#include <libxml/HTMLparser.h>
#include <libxml/parserInternals.h>

#include "extract/extract-int.h"

static void lx_start(void *h, const xmlChar *name, const xmlChar **atts)
{
	heed__html_start(h, (const char *)name, strlen((const char *)name),
	                 (const char *const *)atts);
}

static void lx_end(void *h, const xmlChar *name)
{
	(void)name;
	heed__html_end(h);
}

static void lx_text(void *h, const xmlChar *s, int len)
{
	heed__html_text(h, (const char *)s, (size_t)len);
}

/* libxml2 gives script and style bodies as CDATA blocks. */
static void lx_raw(void *h, const xmlChar *s, int len)
{
	heed__html_raw(h, (const char *)s, (size_t)len);
}

/* heed__html_parse()'s twin: one htmlParseDocument over the sanitised
 * UTF-8, with the page's own encoding declaration ignored. */
static heed_status libxml2_parse(struct builder *b, const char *utf8,
                                 size_t len)
{
	struct html *h;
	htmlParserCtxtPtr ctxt;
	heed_status rc = heed__html_new(&h, b);

	if (rc != HEED_OK)
		return rc;
	xmlInitParser();
	ctxt = htmlCreateMemoryParserCtxt(len ? utf8 : " ", len ? (int)len : 1);
	assert_non_null(ctxt);
	memset(ctxt->sax, 0, sizeof(*ctxt->sax));
	ctxt->sax->startElement = lx_start;
	ctxt->sax->endElement = lx_end;
	ctxt->sax->characters = lx_text;
	ctxt->sax->ignorableWhitespace = lx_text;
	ctxt->sax->cdataBlock = lx_raw;
	ctxt->userData = h;
	htmlCtxtUseOptions(ctxt, HTML_PARSE_RECOVER | HTML_PARSE_NOERROR |
	                                 HTML_PARSE_NOWARNING |
	                                 HTML_PARSE_NONET |
	                                 HTML_PARSE_IGNORE_ENC);
	xmlSwitchEncoding(ctxt, XML_CHAR_ENCODING_UTF8);
	htmlParseDocument(ctxt);
	htmlFreeParserCtxt(ctxt);
	heed__html_done(h);
	return b->oom;
}

#endif /* HEED_HTML_LIBXML2_H */
