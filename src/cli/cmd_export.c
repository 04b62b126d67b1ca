/*
 * `heed export`: the public records as JSON Lines or CSV on standard output.
 *
 * So far only `--irc`: IRC networks, servers and channels as the public list
 * shows them (docs/storage.md "IRC": the latest complete visit and later;
 * networks that deny indexing appear with their preference only). The web
 * records join this command when the crawl engine lands.
 *
 * JSON strings must be UTF-8, while IRC topics are whatever bytes the server
 * sent, so invalid sequences become U+FFFD in JSON; CSV keeps the bytes.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "cli/cli.h"
#include "cli/cli_config.h"
#include "heed/store_irc.h"

enum format { FORMAT_JSONL, FORMAT_CSV };

/* The length of the valid UTF-8 sequence at p (at most n bytes), or 0. */
static size_t utf8_len(const unsigned char *p, size_t n)
{
	size_t len = p[0] < 0x80                   ? 1
	             : p[0] >= 0xC2 && p[0] < 0xE0 ? 2
	             : p[0] >= 0xE0 && p[0] < 0xF0 ? 3
	             : p[0] >= 0xF0 && p[0] < 0xF5 ? 4
	                                           : 0;

	if (len == 0 || len > n)
		return 0;
	for (size_t i = 1; i < len; i++)
		if ((p[i] & 0xC0) != 0x80)
			return 0;
	/* Overlong 3/4-byte forms, surrogates and values past U+10FFFF. */
	if ((len == 3 && p[0] == 0xE0 && p[1] < 0xA0) ||
	    (len == 3 && p[0] == 0xED && p[1] >= 0xA0) ||
	    (len == 4 && p[0] == 0xF0 && p[1] < 0x90) ||
	    (len == 4 && p[0] == 0xF4 && p[1] >= 0x90))
		return 0;
	return len;
}

/* A JSON string of len bytes of s, invalid UTF-8 replaced by U+FFFD. */
static json_object *json_text(const char *s, size_t len)
{
	char *clean = malloc(len * 3 + 1);
	size_t n = 0;
	json_object *o;

	if (!clean)
		return NULL;
	for (size_t i = 0; i < len;) {
		size_t l = utf8_len((const unsigned char *)s + i, len - i);
		if (l == 0) {
			memcpy(clean + n, "\xEF\xBF\xBD", 3);
			n += 3;
			i++;
			continue;
		}
		memcpy(clean + n, s + i, l);
		n += l;
		i += l;
	}
	o = json_object_new_string_len(clean, (int)n);
	free(clean);
	return o;
}

static void add_text(json_object *o, const char *key, const char *value)
{
	json_object_object_add(o, key, json_text(value, strlen(value)));
}

static void add_int(json_object *o, const char *key, int64_t v)
{
	json_object_object_add(o, key, v < 0 ? NULL : json_object_new_int64(v));
}

static void print_json(json_object *o)
{
	puts(json_object_to_json_string_ext(
	        o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
}

static int json_network(void *ud, const struct heed_store_irc_network_row *r)
{
	json_object *o = json_object_new_object();

	(void)ud;
	add_text(o, "type", "irc_network");
	add_text(o, "network", r->key);
	add_text(o, "name", r->name);
	add_text(o, "crawler", r->verdict);
	add_int(o, "cooldown", r->cooldown_s);
	add_text(o, "last_status", r->last_status);
	add_int(o, "last_visit", r->last_visit_end_s);
	add_int(o, "next_visit", r->next_visit_s);
	add_int(o, "first_seen", r->first_seen_s);
	if (strcmp(r->verdict, "deny") != 0 && strcmp(r->verdict, "invalid")) {
		add_int(o, "users", r->users);
		add_int(o, "servers", r->servers);
		add_int(o, "channels", r->channels);
	}
	print_json(o);
	return 0;
}

static int json_server(void *ud, const struct heed_store_irc_server_row *r)
{
	json_object *o = json_object_new_object();

	(void)ud;
	add_text(o, "type", "irc_server");
	add_text(o, "network", r->network_key);
	add_text(o, "name", r->name);
	add_text(o, "hub", r->hub);
	add_int(o, "hops", r->hops);
	add_text(o, "description", r->description);
	add_int(o, "first_seen", r->first_seen_s);
	add_int(o, "last_seen", r->last_seen_s);
	print_json(o);
	return 0;
}

static int json_channel(void *ud, const struct heed_store_irc_channel_row *r)
{
	json_object *o = json_object_new_object();

	(void)ud;
	add_text(o, "type", "irc_channel");
	add_text(o, "network", r->network_key);
	add_text(o, "network_name", r->network_name);
	add_text(o, "channel", r->name);
	add_int(o, "users", r->users);
	json_object_object_add(o, "topic", json_text(r->topic, r->topic_len));
	add_int(o, "first_seen", r->first_seen_s);
	add_int(o, "last_seen", r->last_seen_s);
	print_json(o);
	return 0;
}

/* An RFC 4180 field: quoted when it holds a comma, quote or line break. */
static void csv_field(const char *s, size_t len, bool last)
{
	if (strcspn(s, ",\"\r\n") >= len) {
		fwrite(s, 1, len, stdout);
	} else {
		putchar('"');
		for (size_t i = 0; i < len; i++) {
			if (s[i] == '"')
				putchar('"');
			putchar(s[i]);
		}
		putchar('"');
	}
	fputs(last ? "\r\n" : ",", stdout);
}

static int csv_channel(void *ud, const struct heed_store_irc_channel_row *r)
{
	char num[3][24];

	(void)ud;
	snprintf(num[0], sizeof(num[0]), "%lld", (long long)r->users);
	snprintf(num[1], sizeof(num[1]), "%lld", (long long)r->first_seen_s);
	snprintf(num[2], sizeof(num[2]), "%lld", (long long)r->last_seen_s);
	csv_field(r->network_key, strlen(r->network_key), false);
	csv_field(r->network_name, strlen(r->network_name), false);
	csv_field(r->name, strlen(r->name), false);
	csv_field(r->users >= 0 ? num[0] : "",
	          r->users >= 0 ? strlen(num[0]) : 0, false);
	csv_field(r->topic, r->topic_len, false);
	csv_field(num[1], strlen(num[1]), false);
	csv_field(num[2], strlen(num[2]), true);
	return 0;
}

static heed_status export_irc(heed_store *store, enum format format)
{
	heed_status rc;

	if (format == FORMAT_CSV) {
		fputs("network,network_name,channel,users,topic,first_seen,"
		      "last_seen\r\n",
		      stdout);
		return heed_store_irc_each_channel(store, NULL, csv_channel,
		                                   NULL);
	}
	rc = heed_store_irc_each_network(store, json_network, NULL);
	if (rc == HEED_OK)
		rc = heed_store_irc_each_server(store, NULL, json_server, NULL);
	if (rc == HEED_OK)
		rc = heed_store_irc_each_channel(store, NULL, json_channel,
		                                 NULL);
	return rc;
}

int heed_cmd_export(int argc, char **argv)
{
	static const struct option opts[] = {
	        {"help", no_argument, NULL, 'h'},
	        HEED_CLI_CONFIG_LONGOPTS,
	        {"irc", no_argument, NULL, 'i'},
	        {"format", required_argument, NULL, 'F'},
	        {NULL, 0, NULL, 0},
	};
	struct heed_cli_config cc = {0};
	struct heed_config cfg;
	enum format format = FORMAT_JSONL;
	bool irc = false;
	heed_store *store = NULL;
	heed_status rc;
	int c, taken;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		taken = heed_cli_config_option(&cc, c, optarg);
		if (taken < 0)
			return HEED_EXIT_USAGE;
		if (taken)
			continue;
		switch (c) {
		case 'h':
			heed_cli_print_help(stdout, heed_cli_find("export"));
			return HEED_EXIT_OK;
		case 'i':
			irc = true;
			break;
		case 'F':
			if (strcmp(optarg, "jsonl") == 0)
				format = FORMAT_JSONL;
			else if (strcmp(optarg, "csv") == 0)
				format = FORMAT_CSV;
			else
				return heed_cli_usage(
				        "export", "--format is jsonl or csv");
			break;
		default:
			return HEED_EXIT_USAGE;
		}
	}
	if (optind != argc)
		return heed_cli_usage("export", "takes no arguments");
	if (!irc)
		return heed_cli_usage("export", "say what to export: --irc");
	if (heed_cli_config_load(&cc, &cfg, "export"))
		store = heed_cli_open_store(&cfg, NULL);
	heed_config_free(&cfg);
	heed_cli_config_free(&cc);
	if (!store)
		return HEED_EXIT_FAIL;
	rc = export_irc(store, format);
	if (rc != HEED_OK)
		heed_cli_error("export failed: %s", heed_store_errmsg(store));
	heed_store_close(store);
	if (fflush(stdout) != 0) {
		heed_cli_error("cannot write the export");
		return HEED_EXIT_FAIL;
	}
	return rc == HEED_OK ? HEED_EXIT_OK : HEED_EXIT_FAIL;
}
