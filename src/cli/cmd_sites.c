/*
 * `heed sites list|show|set|pause|resume|forget HOST`: the operator's
 * record of what a site's owner asked of heed (heed/arrangement.h;
 * docs/crawling.md "Arrangements with site owners"). Every value is
 * checked here, once, with the pure core's words, so that the crawl only
 * ever reads values that hold. This file wires settings, store and output.
 */
#include <getopt.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/cli_config.h"
#include "cli/cli_text.h"
#include "heed/store_arrangements.h"
#include "heed/url.h"

/* What `heed sites set` was told; lists replace the stored ones. */
enum {
	F_DELAY = 1,
	F_PAGES = 2,
	F_MODE = 4,
	F_INCLUDE = 8,
	F_EXCLUDE = 16,
	F_WINDOWS = 32,
	F_ENDPOINT = 64,
	F_NOTE = 128,
	F_ALL = 255
};

struct sites_cli {
	struct heed_cli_config cc;
	struct heed_config cfg;
	heed_store *store;
	int json;
	unsigned set, clear; /* F_* */
	bool kind_given;     /* --endpoint-kind */
	struct heed_arrangement want;
	char *include, *exclude, *windows_raw; /* malloc'd lists */
	char windows[256];
};

static const struct {
	const char *name;
	unsigned flag;
} fields[] = {
        {"delay", F_DELAY},       {"max-pages", F_PAGES}, {"mode", F_MODE},
        {"include", F_INCLUDE},   {"exclude", F_EXCLUDE}, {"window", F_WINDOWS},
        {"endpoint", F_ENDPOINT}, {"note", F_NOTE},       {"all", F_ALL},
};

enum {
	OPT_DELAY = 1000,
	OPT_PAGES,
	OPT_MODE,
	OPT_INCLUDE,
	OPT_EXCLUDE,
	OPT_WINDOW,
	OPT_ENDPOINT,
	OPT_NOTE,
	OPT_CLEAR,
	OPT_ENDPOINT_KIND
};

/* Appends item to a list joined by sep; false when out of memory. */
static bool append(char **list, const char *item, char sep)
{
	size_t old = *list ? strlen(*list) : 0, n = strlen(item);
	char *p = realloc(*list, old + n + 2);

	if (!p)
		return false;
	if (old)
		p[old++] = sep;
	memcpy(p + old, item, n + 1);
	*list = p;
	return true;
}

static int bad(const char *name, const char *what, const char *why)
{
	return heed_cli_usage(name, "%s: %s", what, why);
}

static int take_pattern(struct sites_cli *sc, const char *name, int opt,
                        const char *arg)
{
	struct heed_diag d = {0};
	char **list = opt == OPT_INCLUDE ? &sc->include : &sc->exclude;

	if (heed_arrangement_check_pattern(arg, &d) != HEED_OK)
		return bad(name, opt == OPT_INCLUDE ? "--include" : "--exclude",
		           d.message);
	if (!append(list, arg, '\n'))
		return HEED_EXIT_FAIL;
	sc->set |= opt == OPT_INCLUDE ? F_INCLUDE : F_EXCLUDE;
	return -1;
}

static int take_clear(struct sites_cli *sc, const char *name, const char *arg)
{
	size_t i;

	for (i = 0; i < HEED_ARRAY_SIZE(fields); i++)
		if (strcmp(arg, fields[i].name) == 0) {
			sc->clear |= fields[i].flag;
			return -1;
		}
	return bad(name, "--clear",
	           "FIELD is one of delay, max-pages, mode, include, exclude, "
	           "window, endpoint, note or all");
}

/* One `set` option; -1 when taken, an exit status otherwise. */
static int take(struct sites_cli *sc, const char *name, int c, const char *arg)
{
	struct heed_diag d = {0};
	bool raised = false;

	switch (c) {
	case OPT_DELAY:
		if (heed_arrangement_parse_delay(arg, &sc->want.delay_ms,
		                                 &raised, &d) != HEED_OK)
			return bad(name, "--delay", d.message);
		if (raised)
			fprintf(stderr,
			        "heed %s: --delay %s raised to 1s: heed never "
			        "sends more than one request a second to a "
			        "host\n",
			        name, arg);
		sc->set |= F_DELAY;
		return -1;
	case OPT_PAGES:
		if (heed_arrangement_parse_count(arg, &sc->want.max_pages,
		                                 &d) != HEED_OK)
			return bad(name, "--max-pages", d.message);
		sc->set |= F_PAGES;
		return -1;
	case OPT_MODE:
		if (heed_arrangement_mode_parse(arg, &sc->want.mode) != HEED_OK)
			return bad(name, "--mode",
			           "MODE is full, incremental or paused");
		sc->set |= F_MODE;
		return -1;
	case OPT_INCLUDE:
	case OPT_EXCLUDE:
		return take_pattern(sc, name, c, arg);
	case OPT_WINDOW:
		if (!append(&sc->windows_raw, arg, ','))
			return HEED_EXIT_FAIL;
		sc->set |= F_WINDOWS;
		return -1;
	case OPT_ENDPOINT:
		sc->want.endpoint = (char *)arg;
		sc->set |= F_ENDPOINT;
		return -1;
	case OPT_ENDPOINT_KIND:
		if (heed_arrangement_endpoint_kind_parse(
		            arg, &sc->want.endpoint_kind) != HEED_OK)
			return bad(
			        name, "--endpoint-kind",
			        "KIND is source (a feed or sitemap) or oembed");
		sc->kind_given = true;
		return -1;
	case OPT_NOTE:
		sc->want.note = (char *)arg;
		sc->set |= F_NOTE;
		return -1;
	case OPT_CLEAR:
		return take_clear(sc, name, arg);
	default:
		return heed_cli_usage(name, "unknown option");
	}
}

static int parse_args(struct sites_cli *sc, int argc, char **argv,
                      const char *name, bool wants_host)
{
	static const struct option longopts[] = {
	        HEED_CLI_CONFIG_LONGOPTS,
	        {"json", no_argument, NULL, 'j'},
	        {"help", no_argument, NULL, 'h'},
	        {"delay", required_argument, NULL, OPT_DELAY},
	        {"max-pages", required_argument, NULL, OPT_PAGES},
	        {"mode", required_argument, NULL, OPT_MODE},
	        {"include", required_argument, NULL, OPT_INCLUDE},
	        {"exclude", required_argument, NULL, OPT_EXCLUDE},
	        {"window", required_argument, NULL, OPT_WINDOW},
	        {"endpoint", required_argument, NULL, OPT_ENDPOINT},
	        {"endpoint-kind", required_argument, NULL, OPT_ENDPOINT_KIND},
	        {"note", required_argument, NULL, OPT_NOTE},
	        {"clear", required_argument, NULL, OPT_CLEAR},
	        {NULL, 0, NULL, 0},
	};
	bool is_set = strcmp(name, "sites set") == 0;
	int c, r;

	while ((c = getopt_long(argc, argv, "jh", longopts, NULL)) != -1) {
		r = heed_cli_config_option(&sc->cc, c, optarg);
		if (r < 0)
			return HEED_EXIT_USAGE;
		if (r > 0)
			continue;
		if (c == 'j') {
			sc->json = 1;
		} else if (c == 'h') {
			heed_cli_print_help(stdout, heed_cli_find("sites"));
			return HEED_EXIT_OK;
		} else if (c >= OPT_DELAY && !is_set &&
		           !(c == OPT_NOTE &&
		             strcmp(name, "sites pause") == 0)) {
			return heed_cli_usage(name, "%s takes no such option",
			                      name);
		} else if ((r = take(sc, name, c, optarg)) >= 0) {
			return r;
		}
	}
	if (wants_host && optind >= argc)
		return heed_cli_usage(name, "HOST missing");
	if (!wants_host && optind < argc)
		return heed_cli_usage(name, "takes no HOST");
	if (wants_host && optind + 1 < argc)
		return heed_cli_usage(name, "one HOST at a time");
	if (is_set && !sc->set && !sc->clear && !sc->kind_given)
		return heed_cli_usage(name, "nothing to set (see --help)");
	if (!heed_cli_config_load(&sc->cc, &sc->cfg, name))
		return HEED_EXIT_USAGE;
	return -1;
}

/* HOST or a URL: its host name as the crawl spells it. An arrangement is
 * per host name (docs/crawling.md), so a port is refused rather than
 * dropped unseen. */
static int host_arg(const char *name, const char *arg, char *host, size_t size)
{
	char url[600];
	heed_url *u = NULL;
	bool is_url = strstr(arg, "://") != NULL;
	int rc = -1;

	if (!is_url && strpbrk(arg, "/?#@ "))
		return bad(name, arg, "not a host name");
	snprintf(url, sizeof(url), is_url ? "%s" : "http://%s/", arg);
	if (heed_url_parse(&u, url, strlen(url), NULL) != HEED_OK ||
	    !heed_url_hostname(u)[0] || strlen(heed_url_hostname(u)) >= size)
		rc = bad(name, arg, "not a host name");
	else if (!is_url && strchr(arg[0] == '[' ? strchr(arg, ']') : arg, ':'))
		rc = bad(name, arg,
		         "an arrangement is for a host name, all its ports "
		         "and schemes: give the host without a port");
	else
		snprintf(host, size, "%s", heed_url_hostname(u));
	heed_url_free(u);
	return rc;
}

/* The endpoint must be an http(s) URL on the host itself: it is read as
 * one of the site's sources (or, an oEmbed endpoint, for its pages) under
 * the site's robots.txt and delay. */
static int check_endpoint(const char *name, const char *host,
                          const char *endpoint)
{
	heed_url *u = NULL;
	int rc = -1;

	if (strlen(endpoint) > HEED_ARRANGEMENT_MAX_URL ||
	    heed_url_parse(&u, endpoint, strlen(endpoint), NULL) != HEED_OK)
		rc = bad(name, "--endpoint", "not a URL");
	else if (strcmp(heed_url_scheme(u), "http") != 0 &&
	         strcmp(heed_url_scheme(u), "https") != 0)
		rc = bad(name, "--endpoint", "only http and https URLs");
	else if (strcmp(heed_url_hostname(u), host) != 0)
		rc = bad(name, "--endpoint",
		         "the URL must be on the host the arrangement is for");
	heed_url_free(u);
	return rc;
}

static int check_note(const char *name, const char *note)
{
	const unsigned char *p;

	if (strlen(note) > HEED_ARRANGEMENT_MAX_NOTE)
		return bad(name, "--note", "at most 2000 bytes");
	for (p = (const unsigned char *)note; *p; p++)
		if (*p < ' ' && *p != '\t')
			return bad(name, "--note",
			           "no control characters or new lines");
	return -1;
}

static int check_windows(struct sites_cli *sc, const char *name)
{
	struct heed_arrangement_window w[HEED_ARRANGEMENT_MAX_WINDOWS];
	struct heed_diag d = {0};
	size_t n = 0;

	if (heed_arrangement_parse_windows(sc->windows_raw,
	                                   strlen(sc->windows_raw), w, &n,
	                                   &d) != HEED_OK)
		return bad(name, "--window", d.message);
	heed_arrangement_windows_format(w, n, sc->windows, sizeof(sc->windows));
	return -1;
}

/* ---- output ---- */

static void print_lines(const char *label, const char *list)
{
	const char *p = list;

	while (p && *p) {
		size_t n = strcspn(p, "\n");
		printf("%-11s %.*s\n", label, (int)n, p);
		label = "";
		p += n + (p[n] == '\n');
	}
}

static const char *date_text(int64_t t, char *buf, size_t size)
{
	return t ? heed_cli_format_date(t, buf, size) : "-";
}

void heed_cli_arrangement_print(const struct heed_arrangement *a)
{
	char buf[64];

	printf("host:       %s\n", a->host);
	printf("mode:       %s\n", heed_arrangement_mode_name(a->mode));
	if (a->delay_ms)
		printf("delay:      %lld ms between requests\n",
		       (long long)a->delay_ms);
	if (a->max_pages)
		printf("max pages:  %lld per run\n", (long long)a->max_pages);
	print_lines("include:", a->include);
	print_lines("exclude:", a->exclude);
	if (a->windows)
		printf("windows:    %s (UTC)\n", a->windows);
	if (a->endpoint)
		printf("endpoint:   %s%s\n", a->endpoint,
		       a->endpoint_kind == HEED_ENDPOINT_OEMBED
		               ? " (oEmbed: listed pages read through it)"
		               : "");
	if (a->note) {
		fputs("note:       ", stdout);
		heed_cli_print_text(a->note, strlen(a->note));
		putchar('\n');
	}
	printf("updated:    %s\n", date_text(a->updated_s, buf, sizeof(buf)));
}

static json_object *json_lines(const char *list, char sep)
{
	json_object *arr = json_object_new_array();
	const char *p = list;
	char seps[2] = {sep, '\0'};

	while (p && *p) {
		size_t n = strcspn(p, seps);
		if (n)
			json_object_array_add(arr, heed_cli_json_text(p, n));
		p += n + (p[n] == sep);
	}
	return arr;
}

static json_object *opt_text(const char *s)
{
	return s ? heed_cli_json_text(s, strlen(s)) : NULL;
}

json_object *heed_cli_arrangement_json(const struct heed_arrangement *a)
{
	json_object *o = json_object_new_object();
	char buf[64];

	json_object_object_add(o, "host", json_object_new_string(a->host));
	json_object_object_add(
	        o, "mode",
	        json_object_new_string(heed_arrangement_mode_name(a->mode)));
	json_object_object_add(o, "delay_ms",
	                       a->delay_ms ? json_object_new_int64(a->delay_ms)
	                                   : NULL);
	json_object_object_add(
	        o, "max_pages",
	        a->max_pages ? json_object_new_int64(a->max_pages) : NULL);
	json_object_object_add(o, "include", json_lines(a->include, '\n'));
	json_object_object_add(o, "exclude", json_lines(a->exclude, '\n'));
	json_object_object_add(o, "windows", json_lines(a->windows, ','));
	json_object_object_add(o, "endpoint", opt_text(a->endpoint));
	json_object_object_add(
	        o, "endpoint_kind",
	        a->endpoint ? json_object_new_string(
	                              heed_arrangement_endpoint_kind_name(
	                                      a->endpoint_kind))
	                    : NULL);
	json_object_object_add(o, "note", opt_text(a->note));
	json_object_object_add(
	        o, "updated",
	        a->updated_s ? json_object_new_string(heed_cli_format_date(
	                               a->updated_s, buf, sizeof(buf)))
	                     : NULL);
	return o;
}

static void show_one(const struct sites_cli *sc,
                     const struct heed_arrangement *a, json_object *arr)
{
	json_object *o;

	if (arr) {
		json_object_array_add(arr, heed_cli_arrangement_json(a));
	} else if (sc->json) {
		o = heed_cli_arrangement_json(a);
		puts(json_object_to_json_string_ext(
		        o, JSON_C_TO_STRING_PRETTY |
		                   JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(o);
	} else {
		heed_cli_arrangement_print(a);
	}
}

/* ---- the subcommands ---- */

struct list_ctx {
	struct sites_cli *sc;
	json_object *arr;
	size_t shown;
};

static void on_row(void *ud, const struct heed_arrangement *a)
{
	struct list_ctx *l = ud;

	if (!l->arr && l->shown)
		putchar('\n');
	show_one(l->sc, a, l->arr);
	l->shown++;
}

static int list(struct sites_cli *sc, const char *host)
{
	struct list_ctx l = {sc, sc->json ? json_object_new_array() : NULL, 0};
	heed_status rc;

	(void)host;
	rc = heed_store_arrangement_each(sc->store, on_row, &l, NULL);
	if (l.arr) {
		puts(json_object_to_json_string_ext(
		        l.arr, JSON_C_TO_STRING_PRETTY |
		                       JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(l.arr);
	} else if (rc == HEED_OK && !l.shown) {
		puts("no arrangements (heed sites set HOST ... records one)");
	}
	if (rc != HEED_OK) {
		heed_cli_error("%s", heed_store_errmsg(sc->store));
		return HEED_EXIT_FAIL;
	}
	return HEED_EXIT_OK;
}

static int show(struct sites_cli *sc, const char *host)
{
	struct heed_arrangement a;
	heed_status rc = heed_store_arrangement_get(sc->store, host, &a);

	if (rc == HEED_ENOTFOUND) {
		heed_cli_error("no arrangement for %s", host);
		return HEED_EXIT_FAIL;
	}
	if (rc != HEED_OK) {
		heed_cli_error("%s", heed_store_errmsg(sc->store));
		return HEED_EXIT_FAIL;
	}
	show_one(sc, &a, NULL);
	heed_store_arrangement_clear(sc->store, &a);
	return HEED_EXIT_OK;
}

/* The stored arrangement with what was cleared, then what was set. */
static void merge(struct sites_cli *sc, struct heed_arrangement *a)
{
	unsigned clear = sc->clear;

	if (clear & F_DELAY)
		a->delay_ms = 0;
	if (clear & F_PAGES)
		a->max_pages = 0;
	if (clear & F_MODE)
		a->mode = HEED_ARRANGEMENT_FULL;
	if (sc->set & F_DELAY)
		a->delay_ms = sc->want.delay_ms;
	if (sc->set & F_PAGES)
		a->max_pages = sc->want.max_pages;
	if (sc->set & F_MODE)
		a->mode = sc->want.mode;
}

/* A string field: the new value, NULL when cleared, else the stored. */
static char *field(const struct sites_cli *sc, unsigned flag, char *stored,
                   char *given)
{
	if (sc->set & flag)
		return given;
	return (sc->clear & flag) ? NULL : stored;
}

static int set(struct sites_cli *sc, const char *host)
{
	struct heed_arrangement stored, a;
	heed_status rc = heed_store_arrangement_get(sc->store, host, &stored);
	int r;

	if (rc != HEED_OK && rc != HEED_ENOTFOUND) {
		heed_cli_error("%s", heed_store_errmsg(sc->store));
		return HEED_EXIT_FAIL;
	}
	a = stored;
	a.host = (char *)host;
	merge(sc, &a);
	a.include = field(sc, F_INCLUDE, stored.include, sc->include);
	a.exclude = field(sc, F_EXCLUDE, stored.exclude, sc->exclude);
	a.windows = field(sc, F_WINDOWS, stored.windows, sc->windows);
	a.endpoint = field(sc, F_ENDPOINT, stored.endpoint, sc->want.endpoint);
	/* A new endpoint is a source unless said otherwise; no endpoint,
	 * no kind. */
	if (sc->kind_given && !a.endpoint) {
		heed_store_arrangement_clear(sc->store, &stored);
		return bad("sites set", "--endpoint-kind",
		           "the host has no endpoint: give --endpoint URL");
	}
	if (sc->kind_given)
		a.endpoint_kind = sc->want.endpoint_kind;
	else if (sc->set & F_ENDPOINT)
		a.endpoint_kind = HEED_ENDPOINT_SOURCE;
	if (!a.endpoint)
		a.endpoint_kind = HEED_ENDPOINT_SOURCE;
	a.note = field(sc, F_NOTE, stored.note, sc->want.note);
	a.updated_s = (int64_t)time(NULL);
	rc = heed_store_arrangement_put(sc->store, &a);
	if (rc == HEED_OK) {
		show_one(sc, &a, NULL);
		r = HEED_EXIT_OK;
	} else {
		heed_cli_error("%s", heed_store_errmsg(sc->store));
		r = HEED_EXIT_FAIL;
	}
	heed_store_arrangement_clear(sc->store, &stored);
	return r;
}

static int pause_site(struct sites_cli *sc, const char *host)
{
	sc->set |= F_MODE;
	sc->want.mode = HEED_ARRANGEMENT_PAUSED;
	return set(sc, host);
}

/* Back to the full mode: a pause is lifted, whatever came before it. */
static int resume(struct sites_cli *sc, const char *host)
{
	sc->set |= F_MODE;
	sc->want.mode = HEED_ARRANGEMENT_FULL;
	return set(sc, host);
}

static int forget(struct sites_cli *sc, const char *host)
{
	bool found = false;

	if (heed_store_arrangement_delete(sc->store, host, &found) != HEED_OK) {
		heed_cli_error("%s", heed_store_errmsg(sc->store));
		return HEED_EXIT_FAIL;
	}
	if (!found) {
		heed_cli_error("no arrangement for %s", host);
		return HEED_EXIT_FAIL;
	}
	printf("%s: arrangement forgotten; the settings apply again\n", host);
	return HEED_EXIT_OK;
}

/* The checks that need the host, after the options. */
static int check_set(struct sites_cli *sc, const char *name, const char *host)
{
	int r = -1;

	if (sc->set & F_WINDOWS)
		r = check_windows(sc, name);
	if (r < 0 && (sc->set & F_ENDPOINT))
		r = check_endpoint(name, host, sc->want.endpoint);
	if (r < 0 && (sc->set & F_NOTE))
		r = check_note(name, sc->want.note);
	return r;
}

int heed_cmd_sites(int argc, char **argv)
{
	static const struct {
		const char *name, *full;
		int (*fn)(struct sites_cli *, const char *);
		bool host, writes;
	} subs[] = {
	        {"list", "sites list", list, false, false},
	        {"show", "sites show", show, true, false},
	        {"set", "sites set", set, true, true},
	        {"pause", "sites pause", pause_site, true, true},
	        {"resume", "sites resume", resume, true, true},
	        {"forget", "sites forget", forget, true, true},
	};
	struct sites_cli sc = {0};
	char host[256] = "";
	size_t k;
	int rc;

	rc = heed_cli_subcommand("sites", argc, argv, &subs[0].name,
	                         HEED_ARRAY_SIZE(subs), sizeof(subs[0]),
	                         "list, show, set, pause, resume or forget",
	                         &k);
	if (rc >= 0)
		return rc;
	rc = parse_args(&sc, argc - 1, argv + 1, subs[k].full, subs[k].host);
	if (rc < 0 && subs[k].host)
		rc = host_arg(subs[k].full, argv[1 + optind], host,
		              sizeof(host));
	if (rc < 0)
		rc = check_set(&sc, subs[k].full, host);
	if (rc >= 0)
		goto out;
	rc = HEED_EXIT_FAIL;
	sc.store = subs[k].writes ? heed_cli_open_store_flags(&sc.cfg, 0)
	                          : heed_cli_open_store_existing(&sc.cfg, NULL);
	if (sc.store)
		rc = subs[k].fn(&sc, host);
out:
	heed_store_close(sc.store);
	heed_config_free(&sc.cfg);
	heed_cli_config_free(&sc.cc);
	free(sc.include);
	free(sc.exclude);
	free(sc.windows_raw);
	return rc;
}
