/*
 * Unit tests for src/config: defaults, typed parsing, the INI file, the
 * User-Agent, and that docs/configuration.md documents every setting.
 */
#include "heed_test.h"

#include <stdio.h>
#include <unistd.h>

#include "heed/config.h"
#include "heed/revisit.h"

static void test_defaults(void **state)
{
	struct heed_config c;
	char ua[128];

	(void)state;
	assert_int_equal(heed_config_init(&c), HEED_OK);
	assert_string_equal(c.product_token, "heed");
	assert_string_equal(c.store_location, "heed.db");
	assert_int_equal(c.store_reconnect_timeout, 60);
	assert_null(c.contact_url);
	assert_int_equal(c.log_level, 2);
	assert_true(heed_config_lacks_contact(&c));
	assert_int_equal(heed_config_user_agent(&c, ua, sizeof(ua)), HEED_OK);
	assert_string_equal(ua, "heed/" HEED_VERSION);
	heed_config_free(&c);
}

static void test_user_agent_forms(void **state)
{
	struct heed_config c;
	char ua[128];

	(void)state;
	assert_int_equal(heed_config_init(&c), HEED_OK);
	assert_int_equal(heed_config_set(&c, "identity.contact_email",
	                                 "bot@example.org", NULL),
	                 HEED_OK);
	heed_config_user_agent(&c, ua, sizeof(ua));
	assert_string_equal(ua, "heed/" HEED_VERSION " (bot@example.org)");
	assert_int_equal(heed_config_set(&c, "identity.contact_url",
	                                 "https://example.org/bots", NULL),
	                 HEED_OK);
	heed_config_user_agent(&c, ua, sizeof(ua));
	assert_string_equal(ua,
	                    "heed/" HEED_VERSION
	                    " (+https://example.org/bots; bot@example.org)");
	assert_false(heed_config_lacks_contact(&c));
	assert_int_equal(heed_config_user_agent(&c, ua, 10), HEED_ETOOBIG);
	assert_int_equal(strlen(ua), 9);
	/* "" unsets an optional string. */
	heed_config_set(&c, "identity.contact_url", "", NULL);
	heed_config_set(&c, "identity.contact_email", "", NULL);
	assert_true(heed_config_lacks_contact(&c));
	heed_config_free(&c);
}

static void test_bad_values(void **state)
{
	struct heed_config c;
	struct heed_diag d;

	(void)state;
	heed_config_init(&c);
	assert_int_equal(heed_config_set(&c, "no.such", "1", &d),
	                 HEED_ENOTFOUND);
	assert_non_null(strstr(d.message, "unknown setting 'no.such'"));
	assert_int_equal(heed_config_set(&c, "log.level", "9", &d),
	                 HEED_ECONFIG);
	assert_non_null(strstr(d.message, "from 0 to 3"));
	assert_int_equal(heed_config_set(&c, "log.level", "2x", &d),
	                 HEED_ECONFIG);
	assert_int_equal(heed_config_set(&c, "identity.product_token", "", &d),
	                 HEED_ECONFIG);
	assert_string_equal(c.product_token, "heed");
	heed_config_free(&c);
}

static void test_durations(void **state)
{
	static const struct {
		const char *text;
		heed_status rc;
		int64_t seconds;
	} cases[] = {
	        {"90", HEED_OK, 90},
	        {"15m", HEED_OK, 900},
	        {"24h", HEED_OK, 86400},
	        {"2d", HEED_OK, 172800},
	        {"1w", HEED_OK, 604800},
	        {"0", HEED_OK, 0},
	        {"-1", HEED_ECONFIG, 0},
	        {"1x", HEED_ECONFIG, 0},
	        {"h", HEED_ECONFIG, 0},
	        {"", HEED_ECONFIG, 0},
	        {"1hh", HEED_ECONFIG, 0},
	        {"99999999999999999999", HEED_ECONFIG, 0},
	        {"9223372036854775807w", HEED_ECONFIG, 0},
	};
	size_t i;

	(void)state;
	for (i = 0; i < HEED_ARRAY_SIZE(cases); i++) {
		int64_t s = -1;
		heed_status rc = heed_config_parse_duration(cases[i].text, &s);
		if (rc != cases[i].rc ||
		    (rc == HEED_OK && s != cases[i].seconds))
			fail_msg("%s: got %s %lld", cases[i].text,
			         heed_status_name(rc), (long long)s);
	}
}

static void test_ini_file(void **state)
{
	char path[] = "/tmp/heed-config-XXXXXX";
	int fd = mkstemp(path);
	struct heed_config c;
	struct heed_diag d = {0};
	FILE *f;

	(void)state;
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fputs("; heed settings\n[identity]\ncontact_email = a@b.example\n"
	      "[log]\nlevel = 3\n",
	      f);
	fclose(f);
	heed_config_init(&c);
	assert_int_equal(heed_config_load_file(&c, path, &d), HEED_OK);
	assert_string_equal(c.contact_email, "a@b.example");
	assert_int_equal(c.log_level, 3);
	/* A bad line is reported with its number. */
	f = fopen(path, "w");
	fputs("[log]\nlevel = 1\nlevel = lots\n", f);
	fclose(f);
	assert_int_equal(heed_config_load_file(&c, path, &d), HEED_ECONFIG);
	assert_int_equal(d.line, 3);
	f = fopen(path, "w");
	fputs("[log]\nthis is not ini\n", f);
	fclose(f);
	assert_int_equal(heed_config_load_file(&c, path, &d), HEED_ECONFIG);
	assert_int_equal(d.line, 2);
	unlink(path);
	assert_int_equal(heed_config_load_file(&c, path, &d), HEED_EIO);
	heed_config_free(&c);
}

/* Identity values go into every request's User-Agent, IRC commands and the
 * crawler page, where a CR LF would start a header of the author's choosing;
 * they are checked where settings are read, with a message that names the
 * setting. */
static const struct check_case {
	const char *name, *key, *value;
	heed_status want;
	const char *says; /* in the message when refused */
} check_cases[] = {
        {"CR LF in the e-mail starts a header", "identity.contact_email",
         "a@b\r\nX-Evil: injected", HEED_ECONFIG, "control character"},
        {"an address", "identity.contact_email", "bots@example.org", HEED_OK,
         NULL},
        {"UTF-8 is fine", "identity.contact_email",
         "b\xc3\xb6t@b\xc3\xbc"
         "cher.example",
         HEED_OK, NULL},
        {"no @", "identity.contact_email", "bots.example.org", HEED_ECONFIG,
         "not an e-mail address"},
        {"two @", "identity.contact_email", "a@b@example.org", HEED_ECONFIG,
         "not an e-mail address"},
        {"empty local part", "identity.contact_email", "@example.org",
         HEED_ECONFIG, "not an e-mail address"},
        {"empty domain", "identity.contact_email", "bots@", HEED_ECONFIG,
         "not an e-mail address"},
        {"space", "identity.contact_email", "bo ts@example.org", HEED_ECONFIG,
         "space"},
        {"angle brackets", "identity.contact_email", "<bots@example.org>",
         HEED_ECONFIG, "not an e-mail address"},
        {"a paren closes the User-Agent comment", "identity.contact_email",
         "a)@example.org", HEED_ECONFIG, "not an e-mail address"},
        {"RFC 9110 token", "identity.product_token", "heed-bot_2.0", HEED_OK,
         NULL},
        {"tchar includes the backtick", "identity.product_token", "a`b",
         HEED_OK, NULL},
        {"a space is not a tchar", "identity.product_token", "he ed",
         HEED_ECONFIG, "not a product token"},
        {"a slash is not a tchar", "identity.product_token", "heed/2",
         HEED_ECONFIG, "RFC 9110 token"},
        {"non-ASCII is not a tchar", "identity.product_token", "h\xc3\xa9",
         HEED_ECONFIG, "not a product token"},
        {"http URL", "identity.contact_url", "http://example.org/bots", HEED_OK,
         NULL},
        {"https URL with port and query", "identity.contact_url",
         "https://example.org:8443/bots?x=1", HEED_OK, NULL},
        {"relative URL", "identity.contact_url", "/bots", HEED_ECONFIG,
         "absolute http(s) URL"},
        {"other scheme", "identity.contact_url", "javascript:alert(1)",
         HEED_ECONFIG, "absolute http(s) URL"},
        {"mailto is not the page", "identity.contact_url",
         "mailto:bots@example.org", HEED_ECONFIG, "absolute http(s) URL"},
        {"LF in the URL", "identity.contact_url",
         "https://example.org/\nX-Evil: 1", HEED_ECONFIG, "control character"},
        {"space in the URL", "identity.contact_url", "https://example.org/a b",
         HEED_ECONFIG, "space"},
        {"operator with markup is escaped later", "identity.operator",
         "<b>Example & Co</b>", HEED_OK, NULL},
        {"operator with a tab", "identity.operator", "Example\tCo",
         HEED_ECONFIG, "control character"},
        {"nick", "irc.nick", "heedbot", HEED_OK, NULL},
        {"nick with a space", "irc.nick", "heed bot", HEED_ECONFIG,
         "not an IRC nick"},
        {"nick with CR LF", "irc.nick", "heed\r\nQUIT", HEED_ECONFIG,
         "not an IRC nick"},
        {"verification domain", "verify.domain", "crawler.example.org", HEED_OK,
         NULL},
        {"a public suffix", "verify.domain", "com", HEED_ECONFIG,
         "public suffix"},
        {"a public suffix of two labels", "verify.domain", "co.uk",
         HEED_ECONFIG, "public suffix"},
        {"a public suffix with dots", "verify.domain", ".COM.", HEED_ECONFIG,
         "public suffix"},
        {"an empty domain", "verify.domain", "", HEED_ECONFIG, "not a domain"},
        {"a URL is not a domain", "verify.domain", "https://example.org/",
         HEED_ECONFIG, "not a domain"},
};

static void test_identity_checks(void **state)
{
	(void)state;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(check_cases); i++) {
		const struct check_case *k = &check_cases[i];
		struct heed_config c;
		struct heed_diag d = {0};
		heed_status rc;
		heed_config_init(&c);
		rc = heed_config_set(&c, k->key, k->value, &d);
		if (rc != k->want)
			fail_msg("%s: got %s, want %s (%s)", k->name,
			         heed_status_name(rc),
			         heed_status_name(k->want), d.message);
		if (rc != HEED_OK &&
		    (!strstr(d.message, k->key) || !strstr(d.message, k->says)))
			fail_msg("%s: message '%s' lacks '%s' or '%s'", k->name,
			         d.message, k->key, k->says);
		if (rc != HEED_OK && strpbrk(d.message, "\r\n\t"))
			fail_msg("%s: control character in '%s'", k->name,
			         d.message);
		heed_config_free(&c);
	}
}

/* A refused value leaves the setting as it was, and "" still unsets an
 * optional one. */
static void test_identity_refused_keeps(void **state)
{
	struct heed_config c;
	char ua[256];

	(void)state;
	heed_config_init(&c);
	assert_int_equal(heed_config_set(&c, "identity.contact_email",
	                                 "bots@example.org", NULL),
	                 HEED_OK);
	assert_int_equal(heed_config_set(&c, "identity.contact_email",
	                                 "a@b\r\nX-Evil: injected", NULL),
	                 HEED_ECONFIG);
	assert_int_equal(
	        heed_config_set(&c, "identity.product_token", "he ed", NULL),
	        HEED_ECONFIG);
	heed_config_user_agent(&c, ua, sizeof(ua));
	assert_string_equal(ua, "heed/" HEED_VERSION " (bots@example.org)");
	assert_int_equal(
	        heed_config_set(&c, "identity.contact_email", "", NULL),
	        HEED_OK);
	assert_null(c.contact_email);
	heed_config_free(&c);
}

/* A 100 kB value is shown by its first 80 bytes, an ellipsis and its
 * length, never cut by the message's size in the middle. */
static void test_long_value_in_message(void **state)
{
	static char url[100001];
	struct heed_config c;
	struct heed_diag d = {0};
	const char *dots;

	(void)state;
	memcpy(url, "http://", 7);
	memset(url + 7, 'a', sizeof(url) - 8);
	url[sizeof(url) - 1] = '\0';
	url[50] = ' ';
	heed_config_init(&c);
	assert_int_equal(heed_config_set(&c, "identity.contact_url", url, &d),
	                 HEED_ECONFIG);
	dots = strstr(d.message, "\xE2\x80\xA6 (100000 bytes)'");
	if (!dots)
		fail_msg("not shortened: %s", d.message);
	assert_int_equal(dots - strstr(d.message, "'http://") - 1, 80);
	assert_non_null(strstr(d.message, "is not a URL"));
	assert_int_equal(heed_config_set(&c, "log.level", url, &d),
	                 HEED_ECONFIG);
	assert_non_null(strstr(d.message, "(100000 bytes)' is not a whole"));
	heed_config_free(&c);
}

/* A folder given as the settings file is an error, not an empty file. */
static void test_file_is_folder(void **state)
{
	char dir[] = "/tmp/heed-config-dir-XXXXXX";
	struct heed_config c;
	struct heed_diag d = {0};

	(void)state;
	assert_non_null(mkdtemp(dir));
	heed_config_init(&c);
	assert_int_equal(heed_config_load_file(&c, dir, &d), HEED_EIO);
	assert_non_null(strstr(d.message, "folder"));
	rmdir(dir);
	heed_config_free(&c);
}

/* The file goes through the same checks, reported with the line. */
static void test_file_identity_checked(void **state)
{
	char path[] = "/tmp/heed-config-XXXXXX";
	int fd = mkstemp(path);
	struct heed_config c;
	struct heed_diag d = {0};
	FILE *f;

	(void)state;
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fputs("[identity]\ncontact_email = a@b.example\n"
	      "product_token = he ed\n",
	      f);
	fclose(f);
	heed_config_init(&c);
	assert_int_equal(heed_config_load_file(&c, path, &d), HEED_ECONFIG);
	assert_int_equal(d.line, 3);
	assert_non_null(strstr(d.message, "identity.product_token"));
	f = fopen(path, "w");
	fputs("[verify]\ndomain = com\n", f);
	fclose(f);
	assert_int_equal(heed_config_load_file(&c, path, &d), HEED_ECONFIG);
	assert_int_equal(d.line, 2);
	assert_non_null(strstr(d.message, "public suffix"));
	unlink(path);
	heed_config_free(&c);
}

/* The decimal type: digits with an optional fraction, nothing else. */
static void test_decimals(void **state)
{
	static const struct {
		const char *text;
		heed_status rc;
		double value;
	} cases[] = {
	        {"0.5", HEED_OK, 0.5},     {"2", HEED_OK, 2},
	        {"10.25", HEED_OK, 10.25}, {"0", HEED_OK, 0},
	        {".5", HEED_ECONFIG, 0},   {"1.", HEED_ECONFIG, 0},
	        {"-0.1", HEED_ECONFIG, 0}, {"+1", HEED_ECONFIG, 0},
	        {"1e3", HEED_ECONFIG, 0},  {"inf", HEED_ECONFIG, 0},
	        {"nan", HEED_ECONFIG, 0},  {"", HEED_ECONFIG, 0},
	        {"0.5x", HEED_ECONFIG, 0}, {"0,5", HEED_ECONFIG, 0},
	        {" 1", HEED_ECONFIG, 0},
	};
	struct heed_config c;
	struct heed_diag d;

	(void)state;
	assert_int_equal(heed_config_init(&c), HEED_OK);
	for (size_t i = 0; i < HEED_ARRAY_SIZE(cases); i++) {
		heed_status rc;

		c.revisit_grow = -1;
		memset(&d, 0, sizeof(d));
		rc = heed_config_set(&c, "revisit.grow", cases[i].text, &d);
		if (rc != cases[i].rc ||
		    (rc == HEED_OK && c.revisit_grow != cases[i].value))
			fail_msg("'%s': got %s %g", cases[i].text,
			         heed_status_name(rc), c.revisit_grow);
		if (rc != HEED_OK &&
		    !strstr(d.message, "is not a decimal number"))
			fail_msg("'%s': message '%s'", cases[i].text,
			         d.message);
		if (rc != HEED_OK)
			assert_true(c.revisit_grow == -1); /* left alone */
	}
	heed_config_free(&c);
}

/* [revisit]: defaults as heed/revisit.h states them, and the checks that
 * need several settings at once. */
static void test_revisit_settings(void **state)
{
	static const struct {
		const char *name, *value, *says;
	} bad[] = {
	        {"revisit.min", "30s", "revisit.min is 30 s"},
	        {"revisit.max", "30m", "revisit.max (1800 s) is shorter"},
	        {"revisit.initial", "31d", "revisit.initial (2678400 s)"},
	        {"revisit.initial", "59m", "must lie between"},
	        {"revisit.grow", "0", "revisit.grow is 0"},
	        {"revisit.grow", "10.5", "revisit.grow is 10.5"},
	        {"revisit.shrink", "1", "revisit.shrink is 1"},
	};
	struct heed_revisit_options o, want;
	struct heed_config c;
	struct heed_diag d;

	(void)state;
	heed_revisit_options_default(&want);
	assert_int_equal(heed_config_init(&c), HEED_OK);
	assert_int_equal(heed_config_revisit(&c, &o, NULL), HEED_OK);
	assert_int_equal(o.initial_s, want.initial_s);
	assert_int_equal(o.min_s, want.min_s);
	assert_int_equal(o.max_s, want.max_s);
	assert_true(o.grow == want.grow && o.shrink == want.shrink);
	for (size_t i = 0; i < HEED_ARRAY_SIZE(bad); i++) {
		struct heed_config b;

		assert_int_equal(heed_config_init(&b), HEED_OK);
		/* Each alone is a well-formed value... */
		assert_int_equal(
		        heed_config_set(&b, bad[i].name, bad[i].value, NULL),
		        HEED_OK);
		/* ...that the settings together refuse, with a sentence. */
		memset(&d, 0, sizeof(d));
		assert_int_equal(heed_config_revisit(&b, &o, &d), HEED_ECONFIG);
		if (!strstr(d.message, bad[i].says))
			fail_msg("%s=%s: '%s' lacks '%s'", bad[i].name,
			         bad[i].value, d.message, bad[i].says);
		heed_config_free(&b);
	}
	/* Moving all three together is fine. */
	assert_int_equal(heed_config_set(&c, "revisit.min", "1m", NULL),
	                 HEED_OK);
	assert_int_equal(heed_config_set(&c, "revisit.initial", "2h", NULL),
	                 HEED_OK);
	assert_int_equal(heed_config_set(&c, "revisit.max", "1w", NULL),
	                 HEED_OK);
	assert_int_equal(heed_config_set(&c, "revisit.shrink", "0", NULL),
	                 HEED_OK);
	assert_int_equal(heed_config_revisit(&c, &o, NULL), HEED_OK);
	assert_int_equal(o.min_s, 60);
	assert_int_equal(o.initial_s, 7200);
	assert_int_equal(o.max_s, 604800);
	assert_true(o.shrink == 0);
	assert_int_equal(heed_config_set(&c, "revisit.min", "0", &d),
	                 HEED_ECONFIG);
	heed_config_free(&c);
}

/* crawl.refresh (heed crawl --refresh): due or all. */
static void test_refresh_setting(void **state)
{
	struct heed_config c;
	struct heed_diag d = {0};

	(void)state;
	assert_int_equal(heed_config_init(&c), HEED_OK);
	assert_string_equal(c.crawl_refresh, "due");
	assert_int_equal(heed_config_set(&c, "crawl.refresh", "all", NULL),
	                 HEED_OK);
	assert_string_equal(c.crawl_refresh, "all");
	assert_int_equal(heed_config_set(&c, "crawl.refresh", "often", &d),
	                 HEED_ECONFIG);
	assert_non_null(strstr(d.message, "crawl.refresh: 'often' is neither "
	                                  "due"));
	assert_int_equal(heed_config_set(&c, "crawl.refresh", "ALL", NULL),
	                 HEED_ECONFIG);
	assert_int_equal(heed_config_set(&c, "crawl.refresh", "", NULL),
	                 HEED_ECONFIG);
	assert_string_equal(c.crawl_refresh, "all");
	heed_config_free(&c);
}

/* Every setting in the table must appear in docs/configuration.md. */
static void test_every_option_documented(void **state)
{
	FILE *f = fopen(HEED_SOURCE_ROOT "/docs/configuration.md", "rb");
	static char doc[256 * 1024];
	size_t n, i;
	const struct heed_config_option_info *o;

	(void)state;
	assert_non_null(f);
	n = fread(doc, 1, sizeof(doc) - 1, f);
	fclose(f);
	doc[n] = '\0';
	for (i = 0; (o = heed_config_option_at(i)); i++) {
		char needle[160];
		snprintf(needle, sizeof(needle), "| `%s` |", o->name);
		if (!strstr(doc, needle))
			fail_msg("docs/configuration.md lacks a row for %s",
			         o->name);
	}
}

/* Two rows with one name would shadow each other (heed_config_set finds
 * the first), which a merge of two branches can do silently. */
static void test_option_names_unique(void **state)
{
	const struct heed_config_option_info *a, *b;
	size_t i, j;

	(void)state;
	for (i = 0; (a = heed_config_option_at(i)); i++)
		for (j = i + 1; (b = heed_config_option_at(j)); j++)
			if (strcmp(a->name, b->name) == 0)
				fail_msg("setting %s is defined twice",
				         a->name);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_defaults),
	        cmocka_unit_test(test_user_agent_forms),
	        cmocka_unit_test(test_bad_values),
	        cmocka_unit_test(test_durations),
	        cmocka_unit_test(test_ini_file),
	        cmocka_unit_test(test_identity_checks),
	        cmocka_unit_test(test_identity_refused_keeps),
	        cmocka_unit_test(test_long_value_in_message),
	        cmocka_unit_test(test_file_is_folder),
	        cmocka_unit_test(test_file_identity_checked),
	        cmocka_unit_test(test_decimals),
	        cmocka_unit_test(test_revisit_settings),
	        cmocka_unit_test(test_refresh_setting),
	        cmocka_unit_test(test_every_option_documented),
	        cmocka_unit_test(test_option_names_unique),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
