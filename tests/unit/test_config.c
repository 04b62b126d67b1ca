/*
 * Unit tests for src/config: defaults, typed parsing, the INI file, the
 * User-Agent, and that docs/configuration.md documents every setting.
 */
#include "heed_test.h"

#include <stdio.h>
#include <unistd.h>

#include "heed/config.h"

static void test_defaults(void **state)
{
	struct heed_config c;
	char ua[128];

	(void)state;
	assert_int_equal(heed_config_init(&c), HEED_OK);
	assert_string_equal(c.product_token, "heed");
	assert_string_equal(c.store_location, "heed.db");
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
	        cmocka_unit_test(test_every_option_documented),
	        cmocka_unit_test(test_option_names_unique),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
