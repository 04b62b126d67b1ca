/*
 * `heed export --format jsonl|csv [--site HOST] [--since DATE]` and
 * `heed export --irc`: the public records, one JSON object per line or one
 * CSV row (RFC 4180) per record.
 *
 * Web records: the stored page records, ordered by host then URL; that
 * part lives in functions named export_web_*.
 *
 * IRC records (--irc): networks, servers and channels as the public
 * list shows them (docs/storage.md "IRC": the latest complete visit and
 * later; networks that deny indexing appear with their preference only).
 * JSON strings must be UTF-8, while IRC topics are whatever bytes the server
 * sent, so invalid sequences become U+FFFD in JSON; CSV keeps the bytes.
 *
 * CSV cells come from the web and IRC: a title "=HYPERLINK(...)" would be
 * a formula in a spreadsheet. Cells starting with = + - @ TAB or CR get a
 * leading ' (OWASP's advice for CSV injection) unless --csv-raw is given.
 */
#include <getopt.h>
#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/cli_config.h"
#include "cli/cli_text.h"
#include "heed/record.h"
#include "heed/store_irc.h"
#include "heed/store_pages.h"

static void add_text(json_object *o, const char *key, const char *value)
{
	json_object_object_add(o, key,
	                       heed_cli_json_text(value, strlen(value)));
}

static void add_int(json_object *o, const char *key, int64_t v)
{
	json_object_object_add(o, key, v < 0 ? NULL : json_object_new_int64(v));
}

static void print_json(FILE *out, json_object *o)
{
	fputs(json_object_to_json_string_ext(
	              o,
	              JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE),
	      out);
	fputc('\n', out);
	json_object_put(o);
}

static int json_network(void *ud, const struct heed_store_irc_network_row *r)
{
	json_object *o = json_object_new_object();

	add_text(o, "type", "irc_network");
	add_text(o, "network", r->key);
	add_text(o, "name", r->name);
	add_text(o, "crawler", r->verdict);
	add_int(o, "cooldown", r->cooldown_s);
	add_text(o, "last_status", r->last_status);
	add_int(o, "last_visit", r->last_visit_end_s);
	add_int(o, "next_visit", r->next_visit_s);
	add_int(o, "first_seen", r->first_seen_s);
	if (heed_store_irc_published(r->verdict)) {
		add_int(o, "users", r->users);
		add_int(o, "servers", r->servers);
		add_int(o, "channels", r->channels);
	}
	print_json(ud, o);
	return 0;
}

static int json_server(void *ud, const struct heed_store_irc_server_row *r)
{
	json_object *o = json_object_new_object();

	add_text(o, "type", "irc_server");
	add_text(o, "network", r->network_key);
	add_text(o, "name", r->name);
	add_text(o, "hub", r->hub);
	add_int(o, "hops", r->hops);
	add_text(o, "description", r->description);
	add_int(o, "first_seen", r->first_seen_s);
	add_int(o, "last_seen", r->last_seen_s);
	print_json(ud, o);
	return 0;
}

static int json_channel(void *ud, const struct heed_store_irc_channel_row *r)
{
	json_object *o = json_object_new_object();

	add_text(o, "type", "irc_channel");
	add_text(o, "network", r->network_key);
	add_text(o, "network_name", r->network_name);
	add_text(o, "channel", r->name);
	add_int(o, "users", r->users);
	json_object_object_add(o, "topic",
	                       heed_cli_json_text(r->topic, r->topic_len));
	add_int(o, "first_seen", r->first_seen_s);
	add_int(o, "last_seen", r->last_seen_s);
	print_json(ud, o);
	return 0;
}

/* What a spreadsheet reads as a formula (OWASP, "CSV Injection"). */
static bool csv_formula_start(const char *s, size_t len)
{
	return len > 0 && strchr("=+-@\t\r", s[0]) && s[0] != '\0';
}

/* An RFC 4180 field: quoted when it holds a comma, quote or line break;
 * a would-be formula gets a leading ' unless raw. */
static void csv_field(FILE *out, bool raw, const char *s, size_t len, bool last)
{
	bool quote = false;

	for (size_t i = 0; i < len && !quote; i++)
		quote = strchr(",\"\r\n", s[i]) && s[i] != '\0';
	if (quote)
		fputc('"', out);
	if (!raw && csv_formula_start(s, len))
		fputc('\'', out);
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '"')
			fputc('"', out);
		fputc(s[i], out);
	}
	if (quote)
		fputc('"', out);
	fputs(last ? "\r\n" : ",", out);
}

/* Where CSV goes, and how. */
struct csv_out {
	FILE *out;
	bool raw; /* --csv-raw: cells as stored, formulas and all */
};

static int csv_channel(void *ud, const struct heed_store_irc_channel_row *r)
{
	const struct csv_out *c = ud;
	char num[3][24];

	snprintf(num[0], sizeof(num[0]), "%lld", (long long)r->users);
	snprintf(num[1], sizeof(num[1]), "%lld", (long long)r->first_seen_s);
	snprintf(num[2], sizeof(num[2]), "%lld", (long long)r->last_seen_s);
	csv_field(c->out, c->raw, r->network_key, strlen(r->network_key),
	          false);
	csv_field(c->out, c->raw, r->network_name, strlen(r->network_name),
	          false);
	csv_field(c->out, c->raw, r->name, strlen(r->name), false);
	csv_field(c->out, c->raw, r->users >= 0 ? num[0] : "",
	          r->users >= 0 ? strlen(num[0]) : 0, false);
	csv_field(c->out, c->raw, r->topic, r->topic_len, false);
	csv_field(c->out, c->raw, num[1], strlen(num[1]), false);
	csv_field(c->out, c->raw, num[2], strlen(num[2]), true);
	return 0;
}

/* Writes the IRC public list to out: networks, servers and channels as
 * JSON Lines, or the channels as CSV. */
static heed_status export_irc(heed_store *store, FILE *out, int csv, bool raw)
{
	struct csv_out c = {out, raw};
	heed_status rc;

	if (csv) {
		fputs("network,network_name,channel,users,topic,first_seen,"
		      "last_seen\r\n",
		      out);
		return heed_store_irc_each_channel(store, NULL, csv_channel,
		                                   &c);
	}
	rc = heed_store_irc_each_network(store, json_network, out);
	if (rc == HEED_OK)
		rc = heed_store_irc_each_server(store, NULL, json_server, out);
	if (rc == HEED_OK)
		rc = heed_store_irc_each_channel(store, NULL, json_channel,
		                                 out);
	return rc;
}

struct export_web {
	FILE *out;
	int csv;
	bool raw;         /* --csv-raw */
	const char *site; /* --site HOST without a port: HOST on any port */
	int64_t rows;
	bool oom; /* a record could not be written: out of memory */
};

static void export_web_csv_field(FILE *out, bool raw, const char *s, int last)
{
	csv_field(out, raw, s ? s : "", s ? strlen(s) : 0, last);
}

/* The record's tags joined with "; ", into buf. */
static const char *export_web_tags(json_object *record, char *buf, size_t size)
{
	json_object *tags;
	size_t used = 0;

	buf[0] = '\0';
	if (!record || !json_object_object_get_ex(record, "tags", &tags) ||
	    !json_object_is_type(tags, json_type_array))
		return buf;
	for (size_t i = 0; i < json_object_array_length(tags); i++) {
		json_object *t = json_object_array_get_idx(tags, i);
		const char *s;
		if (json_object_is_type(t, json_type_object))
			json_object_object_get_ex(t, "value", &t);
		s = json_object_get_string(t);
		if (!s)
			continue;
		int n = snprintf(buf + used, size - used, "%s%s",
		                 used ? "; " : "", s);
		if (n < 0 || (size_t)n >= size - used)
			break;
		used += (size_t)n;
	}
	return buf;
}

static const char *const export_web_csv_columns[] = {
        "url",      "final_url",   "host",  "status", "fetched_at",
        "title",    "description", "views", "tags",   "published",
        "modified", "language",    "mode",
};

static void export_web_csv_row(FILE *out, bool raw,
                               const struct heed_stored_page *p)
{
	json_object *record = p->record ? json_tokener_parse(p->record) : NULL;
	char status[16], views[24], fetched[32], tags[4096];
	const char *cells[HEED_ARRAY_SIZE(export_web_csv_columns)];
	size_t n = 0;

	snprintf(status, sizeof(status), "%d", p->status);
	snprintf(views, sizeof(views), "%lld", (long long)p->views);
	cells[n++] = p->url;
	cells[n++] = p->final_url;
	cells[n++] = p->host;
	cells[n++] = status;
	cells[n++] =
	        heed_cli_format_date(p->fetched_at, fetched, sizeof(fetched));
	cells[n++] = p->title;
	cells[n++] = heed_record_field(record, "description");
	cells[n++] = p->views >= 0 ? views : NULL;
	cells[n++] = export_web_tags(record, tags, sizeof(tags));
	cells[n++] = p->published;
	cells[n++] = p->modified;
	cells[n++] = heed_record_field(record, "language");
	cells[n++] = p->mode;
	for (size_t i = 0; i < n; i++)
		export_web_csv_field(out, raw, cells[i], i + 1 == n);
	json_object_put(record);
}

/* Whether host (a stored host key, "host" or "host:port") is site's,
 * where site names no port: "example.org" takes "example.org" and
 * "example.org:8080". */
static bool export_web_site_match(const char *site, const char *host)
{
	size_t n = strlen(site);

	if (strncmp(host, site, n) != 0)
		return false;
	if (host[n] == '\0')
		return true;
	if (host[n] != ':' || host[n + 1] == '\0')
		return false;
	return strspn(host + n + 1, "0123456789") == strlen(host + n + 1);
}

static int export_web_row(void *ud, const struct heed_stored_page *p)
{
	struct export_web *x = ud;

	if (x->site && !(p->host && export_web_site_match(x->site, p->host)))
		return 0;
	if (x->csv) {
		export_web_csv_row(x->out, x->raw, p);
	} else {
		/* The writer the public index's API shares (heed/record.h):
		 * the same names, dates and UTF-8 in both. */
		char *text;
		size_t len;
		if (heed_record_json(p, 0, 0, NULL, &text, &len) != HEED_OK) {
			x->oom = true;
			return 1;
		}
		fwrite(text, 1, len, x->out);
		fputc('\n', x->out);
		free(text);
	}
	x->rows++;
	return ferror(x->out) ? 1 : 0;
}

static int export_web_run(heed_store *store, struct export_web *x,
                          const char *site, int64_t since)
{
	heed_status rc;

	if (x->csv)
		for (size_t i = 0; i < HEED_ARRAY_SIZE(export_web_csv_columns);
		     i++)
			export_web_csv_field(
			        x->out, true, export_web_csv_columns[i],
			        i + 1 == HEED_ARRAY_SIZE(
			                         export_web_csv_columns));
	/* A site without a port is matched here, on every port. */
	rc = heed_store_pages_each(store, x->site ? NULL : site, since,
	                           export_web_row, x);
	if (rc != HEED_OK) {
		heed_cli_error("export: %s", heed_store_errmsg(store));
		return HEED_EXIT_FAIL;
	}
	if (x->oom) {
		heed_cli_error("export: out of memory");
		return HEED_EXIT_FAIL;
	}
	if (fflush(x->out) != 0 || ferror(x->out)) {
		heed_cli_error("export: write error");
		return HEED_EXIT_FAIL;
	}
	return HEED_EXIT_OK;
}

struct export_args {
	struct heed_cli_config cc;
	const char *format, *site, *since, *output;
	bool irc;     /* --irc: the IRC public list instead of web records */
	bool csv_raw; /* --csv-raw: no ' before would-be formulas */
	char site_host[512]; /* --site in lower case, "[v6]" bracketed */
};

/*
 * --site as the store keys hosts: lower case, an IPv6 address in
 * brackets. Returns true when it names a port ("host:port"), which the
 * store matches exactly; without one, every port of the host matches.
 */
static bool export_site_key(const char *site, char *buf, size_t size)
{
	const char *colon = strrchr(site, ':');
	bool bare_v6 = colon && strchr(site, ':') != colon && site[0] != '[';

	snprintf(buf, size, bare_v6 ? "[%s]" : "%s", site);
	for (char *p = buf; *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	if (bare_v6 || !colon)
		return false;
	return site[0] != '[' || colon > strchr(site, ']');
}

/* strptime takes day 31 of any month and timegm rolls it into the next
 * one: a date must read back as it was written ("2026-02-30" is not). */
static bool export_real_date(const char *text, int64_t unix_s)
{
	time_t t = (time_t)unix_s;
	struct tm tm;
	int y, m, d;

	if (text[0] == '@')
		return true;
	if (sscanf(text, "%d-%d-%d", &y, &m, &d) != 3 || !gmtime_r(&t, &tm))
		return false;
	return tm.tm_year + 1900 == y && tm.tm_mon + 1 == m && tm.tm_mday == d;
}

static int export_web_parse(int argc, char **argv, struct export_args *a)
{
	static const struct option longopts[] = {
	        {"format", required_argument, NULL, 'f'},
	        {"site", required_argument, NULL, 's'},
	        {"since", required_argument, NULL, 'n'},
	        {"output", required_argument, NULL, 'o'},
	        {"irc", no_argument, NULL, 'i'},
	        {"csv-raw", no_argument, NULL, 'r'},
	        {"help", no_argument, NULL, 'h'},
	        HEED_CLI_CONFIG_LONGOPTS,
	        {NULL, 0, NULL, 0},
	};
	char shown[HEED_CLI_SHORT_SIZE];
	int c;

	while ((c = getopt_long(argc, argv, "f:s:o:h", longopts, NULL)) != -1) {
		int shared = heed_cli_config_option(&a->cc, c, optarg);
		if (shared < 0)
			return HEED_EXIT_USAGE;
		if (shared)
			continue;
		switch (c) {
		case 'f':
			a->format = optarg;
			break;
		case 's':
			a->site = optarg;
			break;
		case 'n':
			a->since = optarg;
			break;
		case 'o':
			a->output = optarg;
			break;
		case 'i':
			a->irc = true;
			break;
		case 'r':
			a->csv_raw = true;
			break;
		case 'h':
			heed_cli_print_help(stdout, heed_cli_find("export"));
			return -1;
		default:
			return HEED_EXIT_USAGE;
		}
	}
	if (optind < argc)
		return heed_cli_usage(
		        "export", "unexpected argument '%s'",
		        heed_cli_short(argv[optind], shown, sizeof(shown)));
	if (a->irc && (a->site || a->since))
		return heed_cli_usage("export", "--site and --since select web "
		                                "records, not --irc");
	if (strcmp(a->format, "jsonl") != 0 && strcmp(a->format, "csv") != 0)
		return heed_cli_usage(
		        "export", "--format is jsonl or csv, not '%s'",
		        heed_cli_short(a->format, shown, sizeof(shown)));
	if (a->csv_raw && strcmp(a->format, "csv") != 0)
		return heed_cli_usage("export", "--csv-raw goes with --format "
		                                "csv");
	if (a->site && !*a->site)
		return heed_cli_usage("export",
		                      "--site wants HOST or HOST:PORT, "
		                      "not an empty name");
	return HEED_EXIT_OK;
}

int heed_cmd_export(int argc, char **argv)
{
	struct export_args a = {.format = "jsonl"};
	struct export_web x = {stdout, 0, false, NULL, 0, false};
	struct heed_config cfg;
	char shown[HEED_CLI_SHORT_SIZE];
	int64_t since = HEED_STORE_NO_DATE;
	heed_store *store = NULL;
	const char *site = NULL;
	int ex = export_web_parse(argc, argv, &a);

	if (ex == HEED_EXIT_OK && a.since &&
	    (heed_cli_parse_date(a.since, &since) != 0 ||
	     !export_real_date(a.since, since)))
		ex = heed_cli_usage(
		        "export",
		        "--since wants a real date, "
		        "YYYY-MM-DD[THH:MM:SSZ] or @UNIXSECONDS, not "
		        "'%s'",
		        heed_cli_short(a.since, shown, sizeof(shown)));
	if (ex != HEED_EXIT_OK) {
		heed_cli_config_free(&a.cc);
		return ex < 0 ? HEED_EXIT_OK : ex;
	}
	if (a.site) {
		bool port = export_site_key(a.site, a.site_host,
		                            sizeof(a.site_host));
		site = a.site_host;
		x.site = port ? NULL : a.site_host;
	}
	/* A bad setting is the command line's (or the file's) fault. */
	if (!heed_cli_config_load(&a.cc, &cfg, "export"))
		ex = HEED_EXIT_USAGE;
	else if (!(store = heed_cli_open_store_existing(&cfg, NULL)))
		ex = HEED_EXIT_FAIL;
	heed_config_free(&cfg);
	heed_cli_config_free(&a.cc);
	if (!store)
		return ex;
	if (a.output && !(x.out = fopen(a.output, "w"))) {
		heed_cli_error("cannot write '%s'",
		               heed_cli_short(a.output, shown, sizeof(shown)));
		heed_store_close(store);
		return HEED_EXIT_FAIL;
	}
	x.csv = strcmp(a.format, "csv") == 0;
	x.raw = a.csv_raw;
	if (a.irc) {
		ex = HEED_EXIT_OK;
		if (export_irc(store, x.out, x.csv, x.raw) != HEED_OK) {
			heed_cli_error("export failed: %s",
			               heed_store_errmsg(store));
			ex = HEED_EXIT_FAIL;
		}
	} else {
		ex = export_web_run(store, &x, site, since);
	}
	if (fflush(x.out) != 0)
		ex = HEED_EXIT_FAIL;
	if (x.out != stdout && fclose(x.out) != 0)
		ex = HEED_EXIT_FAIL;
	heed_store_close(store);
	return ex;
}
