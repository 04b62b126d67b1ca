/*
 * heed_extract_content_kind(): what a Content-Type says a response is, so
 * the engine can stop before reading a body it must not read (media) or has
 * no use for. Media types per the IANA registry's top-level types; feed
 * types per RFC 4287 (Atom), the de-facto RSS types and JSON Feed's
 * application/feed+json; other JSON may still be a JSON Feed (servers
 * send it as application/json), so it is read for feeds, never for
 * pages.
 */
#include "extract/extract-int.h"

const char *heed_content_kind_name(heed_content_kind kind)
{
	static const char *const names[] = {"unknown", "html", "xhtml", "feed",
	                                    "xml",     "text", "gzip",  "media",
	                                    "other",   "json"};
	return (size_t)kind < HEED_ARRAY_SIZE(names) ? names[kind] : "unknown";
}

heed_content_kind heed_extract_content_kind(const char *ct)
{
	static const struct {
		const char *type;
		heed_content_kind kind;
		bool prefix;
	} map[] = {
	        {"text/html", HEED_CONTENT_HTML, false},
	        {"application/xhtml+xml", HEED_CONTENT_XHTML, false},
	        {"application/rss+xml", HEED_CONTENT_FEED, false},
	        {"application/atom+xml", HEED_CONTENT_FEED, false},
	        {"application/rdf+xml", HEED_CONTENT_FEED, false},
	        {"application/x-rss+xml", HEED_CONTENT_FEED, false},
	        {"application/feed+json", HEED_CONTENT_FEED, false},
	        {"application/json", HEED_CONTENT_JSON, false},
	        {"text/xml", HEED_CONTENT_XML, false},
	        {"application/xml", HEED_CONTENT_XML, false},
	        {"text/plain", HEED_CONTENT_TEXT, false},
	        {"application/gzip", HEED_CONTENT_GZIP, false},
	        {"application/x-gzip", HEED_CONTENT_GZIP, false},
	        {"image/", HEED_CONTENT_MEDIA, true},
	        {"audio/", HEED_CONTENT_MEDIA, true},
	        {"video/", HEED_CONTENT_MEDIA, true},
	        {"font/", HEED_CONTENT_MEDIA, true},
	        {"model/", HEED_CONTENT_MEDIA, true},
	        {"application/ogg", HEED_CONTENT_MEDIA, false},
	        {"application/vnd.apple.mpegurl", HEED_CONTENT_MEDIA, false},
	        {"application/x-mpegurl", HEED_CONTENT_MEDIA, false},
	        {"application/dash+xml", HEED_CONTENT_MEDIA, false},
	        {"application/mp4", HEED_CONTENT_MEDIA, false},
	        {"application/x-shockwave-flash", HEED_CONTENT_MEDIA, false},
	};
	size_t n;

	if (!ct)
		return HEED_CONTENT_UNKNOWN;
	while (*ct == ' ' || *ct == '\t')
		ct++;
	n = strcspn(ct, "; \t");
	if (n == 0 || !memchr(ct, '/', n))
		return HEED_CONTENT_UNKNOWN;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(map); i++) {
		size_t k = strlen(map[i].type);
		if (map[i].prefix
		            ? (n > k && heed__ascii_ieq(ct, k, map[i].type))
		            : heed__ascii_ieq(ct, n, map[i].type))
			return map[i].kind;
	}
	/* RFC 7303 8: any "+xml" type is XML. */
	if (n > 4 && heed__ascii_ieq(ct + n - 4, 4, "+xml"))
		return HEED_CONTENT_XML;
	/* RFC 6839 3.1: and any "+json" type is JSON. */
	if (n > 5 && heed__ascii_ieq(ct + n - 5, 5, "+json"))
		return HEED_CONTENT_JSON;
	return HEED_CONTENT_OTHER;
}
