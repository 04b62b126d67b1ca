/*
 * `heed extract`: what heed would store from a page, feed or sitemap, as
 * JSON, so a site owner can check their markup. Reads a file or standard
 * input; the URL, Content-Type and headers are given as options because
 * nothing is fetched.
 */
#include <getopt.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "heed/extract.h"

#define MAX_HEADERS 32
/* Enough for a gzip sitemap at its limit, and any HTML page. */
#define MAX_INPUT_BYTES (64u * 1024 * 1024)

struct opts {
	struct heed_extract_input in;
	struct heed_header headers[MAX_HEADERS];
	char *header_copies[MAX_HEADERS];
	const char *mode; /* "html", "feed" or NULL: decide */
	bool record_only; /* --record: the record alone, as exported */
};

static json_object *jstr(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

static void add_int(json_object *o, const char *key, int64_t v, int64_t none)
{
	if (v != none)
		json_object_object_add(o, key, json_object_new_int64(v));
}

/* The record in the one shape a crawl stores and `heed export` writes
 * (heed_extract_record_json), parsed back so that it prints inside the
 * page's object; NULL when out of memory. */
static json_object *record_json(const heed_page *p)
{
	json_object *o;
	char *text;
	size_t len;

	if (heed_extract_record_json(heed_page_record(p),
	                             heed_page_link_count(p), NULL, &text,
	                             &len) != HEED_OK)
		return NULL;
	o = json_tokener_parse(text);
	free(text);
	return o;
}

static json_object *robots_json(const struct heed_extract_robots *d)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "noindex",
	                       json_object_new_boolean(d->noindex));
	json_object_object_add(o, "nofollow",
	                       json_object_new_boolean(d->nofollow));
	json_object_object_add(o, "noarchive",
	                       json_object_new_boolean(d->noarchive));
	json_object_object_add(o, "nosnippet",
	                       json_object_new_boolean(d->nosnippet));
	json_object_object_add(o, "noimageindex",
	                       json_object_new_boolean(d->noimageindex));
	add_int(o, "max_snippet", d->max_snippet, -1);
	add_int(o, "unavailable_after", d->unavailable_after_s, HEED_NO_DATE);
	return o;
}

/* The record, then what the crawl keeps apart from it: the robots
 * directives (in the page's permissions) and the links (in the
 * frontier). */
static json_object *page_json(const heed_page *p)
{
	json_object *o = json_object_new_object(), *links, *record;

	record = record_json(p);
	if (!record) {
		json_object_put(o);
		return NULL;
	}
	json_object_object_add(o, "record", record);
	json_object_object_add(o, "robots", robots_json(heed_page_robots(p)));
	links = json_object_new_array();
	for (size_t i = 0; i < heed_page_link_count(p); i++) {
		const struct heed_link *l = heed_page_link(p, i);
		json_object *j = json_object_new_object();
		json_object_object_add(j, "url", jstr(l->url));
		json_object_object_add(j, "rel", jstr(l->rel));
		json_object_object_add(j, "nofollow",
		                       json_object_new_boolean(l->nofollow));
		json_object_object_add(j, "feed",
		                       json_object_new_boolean(l->feed));
		json_object_array_add(links, j);
	}
	json_object_object_add(o, "links", links);
	return o;
}

static json_object *entry_json(const struct heed_feed_entry *e)
{
	json_object *o = json_object_new_object(), *tags;

	json_object_object_add(o, "url", jstr(e->url));
	json_object_object_add(o, "title", jstr(e->title));
	json_object_object_add(o, "description", jstr(e->description));
	json_object_object_add(o, "author", jstr(e->author));
	json_object_object_add(o, "thumbnail", jstr(e->thumbnail));
	json_object_object_add(o, "published", jstr(e->published));
	json_object_object_add(o, "updated", jstr(e->updated));
	add_int(o, "views", e->views, -1);
	add_int(o, "duration_s", e->duration_s, -1);
	json_object_object_add(o, "news_publication",
	                       jstr(e->news_publication));
	tags = json_object_new_array();
	for (size_t i = 0; i < e->tag_count; i++)
		json_object_array_add(tags, jstr(e->tags[i]));
	json_object_object_add(o, "tags", tags);
	return o;
}

static json_object *feed_json(const heed_feed *f)
{
	json_object *o = json_object_new_object(), *entries;

	json_object_object_add(
	        o, "kind", jstr(heed_feed_kind_name(heed_feed_kind_get(f))));
	json_object_object_add(o, "title", jstr(heed_feed_title(f)));
	json_object_object_add(o, "next", jstr(heed_feed_next(f)));
	json_object_object_add(o, "truncated",
	                       json_object_new_boolean(heed_feed_truncated(f)));
	json_object_object_add(o, "skipped",
	                       json_object_new_int((int)heed_feed_skipped(f)));
	entries = json_object_new_array();
	for (size_t i = 0; i < heed_feed_entry_count(f); i++)
		json_object_array_add(entries,
		                      entry_json(heed_feed_entry(f, i)));
	json_object_object_add(o, "entries", entries);
	return o;
}

/* "Name: value" into the header table (copied: the value is trimmed). */
static int add_header(struct opts *o, const char *arg)
{
	size_t n = o->in.header_count;
	const char *colon = strchr(arg, ':');
	char *copy;

	if (!colon || colon == arg)
		return heed_cli_usage("extract",
		                      "--header wants 'Name: value'");
	if (n == MAX_HEADERS)
		return heed_cli_usage("extract", "at most %d headers",
		                      MAX_HEADERS);
	copy = strdup(arg);
	if (!copy) {
		heed_cli_error("out of memory");
		return HEED_EXIT_FAIL;
	}
	copy[colon - arg] = '\0';
	o->header_copies[n] = copy;
	o->headers[n].name = copy;
	o->headers[n].value =
	        copy + (colon - arg) + 1 + strspn(colon + 1, " \t");
	o->in.header_count++;
	return HEED_EXIT_OK;
}

static int parse_args(struct opts *o, int argc, char **argv)
{
	static const struct option longopts[] = {
	        {"url", required_argument, NULL, 'u'},
	        {"content-type", required_argument, NULL, 'c'},
	        {"header", required_argument, NULL, 'H'},
	        {"agent", required_argument, NULL, 'a'},
	        {"feed", no_argument, NULL, 'f'},
	        {"html", no_argument, NULL, 'm'},
	        {"record", no_argument, NULL, 'r'},
	        {"help", no_argument, NULL, 'h'},
	        {NULL, 0, NULL, 0},
	};
	int c, rc;

	while ((c = getopt_long(argc, argv, "u:c:H:a:rh", longopts, NULL)) !=
	       -1) {
		switch (c) {
		case 'u':
			o->in.url = optarg;
			break;
		case 'c':
			o->in.content_type = optarg;
			break;
		case 'H':
			if ((rc = add_header(o, optarg)) != HEED_EXIT_OK)
				return rc;
			break;
		case 'a':
			o->in.agent = optarg;
			break;
		case 'f':
			o->mode = "feed";
			break;
		case 'm':
			o->mode = "html";
			break;
		case 'r':
			o->record_only = true;
			break;
		case 'h':
			heed_cli_print_help(stdout, heed_cli_find("extract"));
			return -1;
		default:
			return HEED_EXIT_USAGE;
		}
	}
	if (!o->in.url)
		return heed_cli_usage("extract", "--url is required");
	if (o->record_only && o->mode && strcmp(o->mode, "feed") == 0)
		return heed_cli_usage(
		        "extract", "--record and --feed: a feed has no record");
	if (optind != argc - 1)
		return heed_cli_usage("extract", "expects one FILE (or -)");
	return HEED_EXIT_OK;
}

static const char *content_type(const struct opts *o)
{
	if (o->in.content_type)
		return o->in.content_type;
	for (size_t i = 0; i < o->in.header_count; i++)
		if (strcasecmp(o->headers[i].name, "Content-Type") == 0)
			return o->headers[i].value;
	return NULL;
}

/* Feed or page: by Content-Type, else by the first bytes. */
static bool is_feed(const struct opts *o, const char *body, size_t len)
{
	heed_content_kind k = heed_extract_content_kind(content_type(o));

	if (o->mode)
		return strcmp(o->mode, "feed") == 0;
	if (k == HEED_CONTENT_FEED || k == HEED_CONTENT_XML ||
	    k == HEED_CONTENT_TEXT || k == HEED_CONTENT_GZIP ||
	    k == HEED_CONTENT_JSON)
		return true;
	if (k != HEED_CONTENT_UNKNOWN)
		return false;
	/* A JSON object can only be a JSON Feed. */
	return (len >= 1 && body[0] == '{') ||
	       (len >= 2 && (unsigned char)body[0] == 0x1f &&
	        (unsigned char)body[1] == 0x8b) ||
	       (len >= 5 && memcmp(body, "<?xml", 5) == 0 &&
	        !strstr(body, "<html"));
}

/* The page's JSON: the page's object, or the record alone (--record).
 * NULL with *st set when extraction failed. */
static json_object *page_out(const struct opts *o, struct heed_diag *diag,
                             heed_status *st)
{
	json_object *out = NULL;
	heed_page *p = NULL;

	*st = heed_extract_html(&p, &o->in, NULL, diag);
	if (*st == HEED_OK) {
		out = o->record_only ? record_json(p) : page_json(p);
		if (!out)
			*st = HEED_ENOMEM;
	}
	if (out && !o->record_only)
		json_object_object_add(out, "url", jstr(o->in.url));
	heed_page_free(p);
	return out;
}

static json_object *feed_out(const struct opts *o, struct heed_diag *diag,
                             heed_status *st)
{
	json_object *out = NULL;
	heed_feed *f = NULL;

	*st = heed_extract_feed(&f, &o->in, NULL, diag);
	if (*st == HEED_OK) {
		out = feed_json(f);
		json_object_object_add(out, "url", jstr(o->in.url));
	}
	heed_feed_free(f);
	return out;
}

/* --record prints as `heed export` writes its lines (compact, '/' not
 * escaped), so the record's bytes are those of the export's "record";
 * otherwise indented for reading. */
static void print_out(const struct opts *o, json_object *out)
{
	int flags = JSON_C_TO_STRING_NOSLASHESCAPE;

	flags |= o->record_only ? JSON_C_TO_STRING_PLAIN
	                        : JSON_C_TO_STRING_PRETTY;
	puts(json_object_to_json_string_ext(out, flags));
}

static int run(struct opts *o, const char *path)
{
	struct heed_diag diag = {0};
	json_object *out;
	char *body;
	size_t len;
	int truncated, rc = HEED_EXIT_OK;
	heed_status st;

	if (heed_extract_content_kind(content_type(o)) == HEED_CONTENT_MEDIA) {
		heed_cli_error("%s is media, which heed never reads",
		               content_type(o));
		return HEED_EXIT_FAIL;
	}
	if (heed_cli_read_file(path, MAX_INPUT_BYTES, &body, &len,
	                       &truncated) != HEED_OK) {
		heed_cli_error("cannot read %s", path);
		return HEED_EXIT_FAIL;
	}
	o->in.body = body;
	o->in.body_len = len;
	o->in.headers = o->headers;
	if (!is_feed(o, body, len)) {
		out = page_out(o, &diag, &st);
	} else if (o->record_only) {
		free(body);
		return heed_cli_usage("extract",
		                      "%s is a feed or sitemap, which has no "
		                      "record (--html reads it as a page)",
		                      path);
	} else {
		out = feed_out(o, &diag, &st);
	}
	if (out) {
		print_out(o, out);
		json_object_put(out);
	} else {
		heed_cli_error("%s: %s", path,
		               diag.message[0] ? diag.message
		                               : heed_strerror(st));
		rc = st == HEED_EINVAL ? HEED_EXIT_USAGE : HEED_EXIT_FAIL;
	}
	free(body);
	return rc;
}

int heed_cmd_extract(int argc, char **argv)
{
	struct opts o;
	int rc;

	memset(&o, 0, sizeof(o));
	rc = parse_args(&o, argc, argv);
	if (rc == HEED_EXIT_OK)
		rc = run(&o, argv[optind]);
	else if (rc < 0)
		rc = HEED_EXIT_OK;
	for (size_t i = 0; i < o.in.header_count; i++)
		free(o.header_copies[i]);
	return rc;
}
