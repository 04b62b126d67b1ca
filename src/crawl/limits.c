/*
 * The per-URL limits of a crawl ("within limits the operator sets
 * (max pages per site, depth, URL length, path-repetition traps ...)") and
 * the media ban ("URLs with media extensions are skipped"): pure checks on
 * a URL's text before it is queued.
 *
 * A path-repetition trap is a path in which one segment occurs more than
 * max_path_repeat times (/a/b/a/b/a/b/..., /cal/2026/cal/2026/...): the
 * classic endless URL space of relative links on error pages and calendars.
 */
#include <string.h>

#include "crawl/crawl-int.h"

/* Segments looked at for traps; a longer path is judged on its first ones. */
#define TRAP_MAX_SEGMENTS 128

void heed_crawl_limits_default(struct heed_crawl_limits *limits)
{
	limits->max_active = 64;
	limits->window = 16;
	limits->max_pages = 10000;
	limits->max_depth = 20;
	limits->max_url_bytes = 2048;
	limits->max_path_repeat = 3;
	limits->max_run_ms = 0;
	limits->retries = 2;
	limits->max_wait_ms = 600000;
	limits->dns_concurrency = 32;
	limits->dns_retries = 3;
}

const char *heed_url_verdict_name(heed_url_verdict v)
{
	static const char *const names[] = {"ok",   "too-deep", "too-long",
	                                    "trap", "media",    "not-http"};

	if ((unsigned)v >= HEED_ARRAY_SIZE(names))
		return "unknown";
	return names[v];
}

/* The path of an absolute URL: from the first '/' after "://" to '?' or
 * '#'. *len is 0 when there is none. */
static const char *url_path(const char *url, size_t *len)
{
	const char *p = strstr(url, "://");

	*len = 0;
	if (!p)
		return url;
	p = strchr(p + 3, '/');
	if (!p)
		return url;
	*len = strcspn(p, "?#");
	return p;
}

static bool is_http(const char *url)
{
	return strncmp(url, "http://", 7) == 0 ||
	       strncmp(url, "https://", 8) == 0;
}

/* Extensions of files heed never requests: images, audio, video, fonts,
 * archives, documents and programs. Only HTML, XHTML, sitemaps and feeds
 * are read. Lower case, without the dot. */
static const char *const media_extensions[] = {
        "3gp",  "7z",   "aac",  "ai",   "aif",  "aiff",  "apk", "avi",  "avif",
        "bin",  "bmp",  "bz2",  "cr2",  "csv",  "dmg",   "doc", "docx", "eot",
        "eps",  "exe",  "flac", "flv",  "gif",  "heic",  "ico", "iso",  "jar",
        "jpeg", "jpg",  "m2ts", "m3u8", "m4a",  "m4v",   "mid", "midi", "mkv",
        "mov",  "mp3",  "mp4",  "mpeg", "mpg",  "msi",   "oga", "ogg",  "ogv",
        "opus", "otf",  "pdf",  "png",  "ppt",  "pptx",  "psd", "rar",  "raw",
        "svg",  "swf",  "tar",  "tgz",  "tif",  "tiff",  "ts",  "ttf",  "wav",
        "webm", "webp", "wma",  "wmv",  "woff", "woff2", "xls", "xlsx", "xz",
        "zip",  "zst",
};

static bool is_media_extension(const char *ext, size_t len)
{
	for (size_t i = 0; i < HEED_ARRAY_SIZE(media_extensions); i++)
		if (heed__ascii_ieq(ext, len, media_extensions[i]))
			return true;
	return false;
}

bool heed_crawl_is_media_url(const char *url)
{
	size_t len, name_len;
	const char *path = url_path(url, &len), *name, *dot;

	if (!len)
		return false;
	name = path + len;
	while (name > path && name[-1] != '/')
		name--;
	name_len = (size_t)(path + len - name);
	dot = memrchr(name, '.', name_len);
	if (!dot)
		return false;
	/* A gzip file is a sitemap when it says so (sitemap.xml.gz). */
	if (heed__ascii_ieq(dot + 1, (size_t)(path + len - dot - 1), "gz"))
		return !(dot - name >= 4 &&
		         heed__ascii_ieq(dot - 4, 4, ".xml"));
	return is_media_extension(dot + 1, (size_t)(path + len - dot - 1));
}

struct segment {
	const char *p;
	size_t len;
};

static bool is_trap(const char *path, size_t len, int max_repeat)
{
	struct segment seg[TRAP_MAX_SEGMENTS];
	size_t n = 0, i = 0;

	while (i < len && n < TRAP_MAX_SEGMENTS) {
		size_t start = ++i; /* past the '/' */
		while (i < len && path[i] != '/')
			i++;
		if (i > start)
			seg[n++] = (struct segment){path + start, i - start};
	}
	for (size_t a = 0; a < n; a++) {
		int count = 1;
		for (size_t b = a + 1; b < n; b++)
			if (seg[b].len == seg[a].len &&
			    memcmp(seg[b].p, seg[a].p, seg[a].len) == 0)
				count++;
		if (count > max_repeat)
			return true;
	}
	return false;
}

heed_url_verdict heed_crawl_check_url(const struct heed_crawl_limits *limits,
                                      const char *url, int depth)
{
	size_t len;
	const char *path;

	if (!is_http(url))
		return HEED_URL_NOT_HTTP;
	if (limits->max_url_bytes && strlen(url) > limits->max_url_bytes)
		return HEED_URL_TOO_LONG;
	if (limits->max_depth >= 0 && depth > limits->max_depth)
		return HEED_URL_TOO_DEEP;
	if (heed_crawl_is_media_url(url))
		return HEED_URL_MEDIA;
	path = url_path(url, &len);
	if (limits->max_path_repeat > 0 &&
	    is_trap(path, len, limits->max_path_repeat))
		return HEED_URL_TRAP;
	return HEED_URL_OK;
}
