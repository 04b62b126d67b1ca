/*
 * Settings: defaults, parsing by type, the INI file (libinih) and the
 * User-Agent. The table in options.c drives all of it.
 */
#include <errno.h>
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config/config-int.h"
#include "heed/revisit.h"

/* Room for a value as heed__config_show writes it. */
#define SHOW_SIZE 352

static const struct heed_allocator *A(void)
{
	return heed_allocator_default();
}

static void *field(struct heed_config *cfg, const struct heed_config_option *o)
{
	return (char *)cfg + o->offset;
}

static const struct heed_config_option *find(const char *name)
{
	size_t i;

	for (i = 0; i < heed__config_option_count; i++)
		if (strcmp(heed__config_options[i].info.name, name) == 0)
			return &heed__config_options[i];
	return NULL;
}

heed_status heed_config_parse_duration(const char *text, int64_t *seconds)
{
	static const struct {
		char unit;
		int64_t mult;
	} units[] = {
	        {'s', 1}, {'m', 60}, {'h', 3600}, {'d', 86400}, {'w', 604800}};
	char *end;
	long long n;
	size_t i;

	errno = 0;
	if (!text || !(*text >= '0' && *text <= '9'))
		return HEED_ECONFIG;
	n = strtoll(text, &end, 10);
	if (errno == ERANGE)
		return HEED_ECONFIG;
	if (*end == '\0') {
		*seconds = n;
		return HEED_OK;
	}
	for (i = 0; i < HEED_ARRAY_SIZE(units); i++) {
		if (end[0] != units[i].unit || end[1] != '\0')
			continue;
		if (n > INT64_MAX / units[i].mult)
			return HEED_ECONFIG;
		*seconds = n * units[i].mult;
		return HEED_OK;
	}
	return HEED_ECONFIG;
}

static heed_status parse_bool(const char *v, bool *out)
{
	static const char *const yes[] = {"true", "yes", "on", "1"};
	static const char *const no[] = {"false", "no", "off", "0"};
	size_t i;

	for (i = 0; i < HEED_ARRAY_SIZE(yes); i++) {
		if (heed__ascii_ieq(v, strlen(v), yes[i])) {
			*out = true;
			return HEED_OK;
		}
		if (heed__ascii_ieq(v, strlen(v), no[i])) {
			*out = false;
			return HEED_OK;
		}
	}
	return HEED_ECONFIG;
}

static heed_status parse_int(const struct heed_config_option *o, const char *v,
                             int64_t *out)
{
	char *end;
	long long n;

	errno = 0;
	n = strtoll(v, &end, 10);
	if (errno == ERANGE || end == v || *end != '\0')
		return HEED_ECONFIG;
	if ((o->min || o->max) && (n < o->min || n > o->max))
		return HEED_ECONFIG;
	*out = n;
	return HEED_OK;
}

/* Digits with an optional fraction ("0.5", "2", "10.25"): no sign, no
 * exponent, no "inf" or "nan", which strtod alone would take. */
static heed_status parse_decimal(const char *v, double *out)
{
	const char *p = v;

	if (!(*p >= '0' && *p <= '9'))
		return HEED_ECONFIG;
	while (*p >= '0' && *p <= '9')
		p++;
	if (*p == '.') {
		p++;
		if (!(*p >= '0' && *p <= '9'))
			return HEED_ECONFIG;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	if (*p != '\0')
		return HEED_ECONFIG;
	*out = strtod(v, NULL);
	/* Only a thousand digits and more overflow to inf. */
	return *out <= 1e300 ? HEED_OK : HEED_ECONFIG;
}

/* An empty value unsets an optional string (NULL), so "" on the command
 * line clears a contact set in the file. */
static heed_status set_string(char **slot, const char *v)
{
	char *copy = NULL;

	if (*v) {
		copy = heed__strndup(A(), v, strlen(v));
		if (!copy)
			return HEED_ENOMEM;
	}
	heed__free(A(), *slot);
	*slot = copy;
	return HEED_OK;
}

static heed_status list_append(struct heed_config_list *l, const char *v)
{
	char **items;
	char *copy;

	items = heed__realloc(A(), l->items, (l->count + 1) * sizeof(*items));
	if (!items)
		return HEED_ENOMEM;
	l->items = items;
	copy = heed__strndup(A(), v, strlen(v));
	if (!copy)
		return HEED_ENOMEM;
	l->items[l->count++] = copy;
	return HEED_OK;
}

/* Parses v by o's type into its field. */
static heed_status set_value(struct heed_config *cfg,
                             const struct heed_config_option *o, const char *v)
{
	void *slot = field(cfg, o);
	int64_t n;
	bool b;
	heed_status rc;

	switch (o->info.type) {
	case HEED_CONFIG_STRING:
		if (o->min && !*v)
			return HEED_ECONFIG;
		return set_string(slot, v);
	case HEED_CONFIG_BOOL:
		rc = parse_bool(v, &b);
		if (rc == HEED_OK)
			*(bool *)slot = b;
		return rc;
	case HEED_CONFIG_INT:
		rc = parse_int(o, v, &n);
		if (rc == HEED_OK)
			*(int64_t *)slot = n;
		return rc;
	case HEED_CONFIG_DURATION:
		rc = heed_config_parse_duration(v, &n);
		if (rc == HEED_OK && (o->min || o->max) &&
		    (n < o->min || n > o->max))
			rc = HEED_ECONFIG;
		if (rc == HEED_OK)
			*(int64_t *)slot = n;
		return rc;
	case HEED_CONFIG_LIST:
		return list_append(slot, v);
	case HEED_CONFIG_DECIMAL:
		return parse_decimal(v, slot);
	}
	return HEED_ECONFIG;
}

static const char *type_hint(heed_config_type t)
{
	switch (t) {
	case HEED_CONFIG_STRING:
		return "a non-empty text";
	case HEED_CONFIG_BOOL:
		return "true or false";
	case HEED_CONFIG_INT:
		return "a whole number";
	case HEED_CONFIG_DURATION:
		return "a duration such as 90, 15m, 24h or 7d";
	case HEED_CONFIG_LIST:
		return "a text";
	case HEED_CONFIG_DECIMAL:
		return "a decimal number such as 0.5";
	}
	return "a value";
}

heed_status heed_config_set(struct heed_config *cfg, const char *name,
                            const char *value, struct heed_diag *diag)
{
	const struct heed_config_option *o = find(name);
	char shown[SHOW_SIZE];
	heed_status rc;

	if (!o)
		return heed_diag_set(
		        diag, HEED_ENOTFOUND, 0, 0, "unknown setting '%s'",
		        heed__config_show(name, shown, sizeof(shown)));
	/* "" unsets an optional string: nothing to check then. */
	if (o->check && (*value || o->info.type == HEED_CONFIG_LIST)) {
		rc = o->check(name, value, diag);
		if (rc != HEED_OK)
			return rc;
	}
	rc = set_value(cfg, o, value);
	if (rc != HEED_ECONFIG)
		return rc;
	heed__config_show(value, shown, sizeof(shown));
	if (o->info.type == HEED_CONFIG_INT && (o->min || o->max))
		return heed_diag_set(diag, rc, 0, 0,
		                     "%s: '%s' is not a whole number "
		                     "from %lld to %lld",
		                     name, shown, (long long)o->min,
		                     (long long)o->max);
	return heed_diag_set(diag, rc, 0, 0, "%s: '%s' is not %s", name, shown,
	                     type_hint(o->info.type));
}

heed_status heed_config_init(struct heed_config *cfg)
{
	size_t i;

	memset(cfg, 0, sizeof(*cfg));
	for (i = 0; i < heed__config_option_count; i++) {
		const struct heed_config_option *o = &heed__config_options[i];
		heed_status rc;
		/* Empty string defaults mean "unset" (NULL), lists start empty.
		 */
		if (o->info.type == HEED_CONFIG_LIST ||
		    (o->info.type == HEED_CONFIG_STRING &&
		     !*o->info.default_value))
			continue;
		rc = set_value(cfg, o, o->info.default_value);
		if (rc != HEED_OK)
			return rc;
	}
	return HEED_OK;
}

void heed_config_free(struct heed_config *cfg)
{
	size_t i, j;

	for (i = 0; i < heed__config_option_count; i++) {
		const struct heed_config_option *o = &heed__config_options[i];
		void *slot = field(cfg, o);
		if (o->info.type == HEED_CONFIG_STRING) {
			heed__free(A(), *(char **)slot);
			*(char **)slot = NULL;
		} else if (o->info.type == HEED_CONFIG_LIST) {
			struct heed_config_list *l = slot;
			for (j = 0; j < l->count; j++)
				heed__free(A(), l->items[j]);
			heed__free(A(), l->items);
			l->items = NULL;
			l->count = 0;
		}
	}
}

struct load_ctx {
	struct heed_config *cfg;
	struct heed_diag *diag;
	heed_status rc; /* the first failure; later lines are not applied */
};

/* libinih calls this once per key (Debian builds it without line numbers:
 * ini_parse returns the first failing line instead). Returning 0 marks the
 * line as an error. */
static int on_ini_value(void *user, const char *section, const char *key,
                        const char *value)
{
	struct load_ctx *ctx = user;
	char name[128];

	if (ctx->rc != HEED_OK)
		return 0;
	if (snprintf(name, sizeof(name), "%s.%s", section, key) >=
	    (int)sizeof(name)) {
		ctx->rc = heed_diag_set(ctx->diag, HEED_ECONFIG, 0, 0,
		                        "setting name too long");
		return 0;
	}
	ctx->rc = heed_config_set(ctx->cfg, name, value, ctx->diag);
	if (ctx->rc == HEED_ENOTFOUND)
		ctx->rc = HEED_ECONFIG;
	return ctx->rc == HEED_OK;
}

heed_status heed_config_load_file(struct heed_config *cfg, const char *path,
                                  struct heed_diag *diag)
{
	struct load_ctx ctx = {cfg, diag, HEED_OK};
	struct stat st;
	FILE *f = fopen(path, "r");
	int rc;

	if (!f)
		return heed_diag_set(diag, HEED_EIO, 0, 0,
		                     "cannot read '%s': %s", path,
		                     strerror(errno));
	/* fopen takes a folder, whose reads then fail: say so, instead of
	 * reading no settings at all. */
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(f);
		return heed_diag_set(diag, HEED_EIO, 0, 0,
		                     "cannot read '%s': it is a folder, not a "
		                     "settings file",
		                     path);
	}
	errno = 0;
	rc = ini_parse_file(f, on_ini_value, &ctx);
	if (ferror(f)) {
		int err = errno;
		fclose(f);
		return heed_diag_set(diag, HEED_EIO, 0, 0,
		                     "cannot read '%s': %s", path,
		                     strerror(err ? err : EIO));
	}
	fclose(f);
	if (rc == -2)
		return heed_diag_set(diag, HEED_ENOMEM, 0, 0, "out of memory");
	if (rc > 0 && ctx.rc == HEED_OK)
		return heed_diag_set(diag, HEED_ECONFIG, (unsigned)rc, 0,
		                     "not a 'key = value' line or [section]");
	if (rc > 0 && diag)
		diag->line = (unsigned)rc;
	return ctx.rc;
}

heed_status heed_config_user_agent(const struct heed_config *cfg, char *buf,
                                   size_t size)
{
	const char *url = cfg->contact_url, *mail = cfg->contact_email;
	int n;

	if (url && mail)
		n = snprintf(buf, size, "%s/%s (+%s; %s)", cfg->product_token,
		             heed_version(), url, mail);
	else if (url)
		n = snprintf(buf, size, "%s/%s (+%s)", cfg->product_token,
		             heed_version(), url);
	else if (mail)
		n = snprintf(buf, size, "%s/%s (%s)", cfg->product_token,
		             heed_version(), mail);
	else
		n = snprintf(buf, size, "%s/%s", cfg->product_token,
		             heed_version());
	return (n < 0 || (size_t)n >= size) ? HEED_ETOOBIG : HEED_OK;
}

bool heed_config_lacks_contact(const struct heed_config *cfg)
{
	return !cfg->contact_url && !cfg->contact_email;
}

heed_status heed_config_revisit(const struct heed_config *cfg,
                                struct heed_revisit_options *opt,
                                struct heed_diag *diag)
{
	opt->initial_s = cfg->revisit_initial;
	opt->min_s = cfg->revisit_min;
	opt->max_s = cfg->revisit_max;
	opt->grow = cfg->revisit_grow;
	opt->shrink = cfg->revisit_shrink;
	if (heed_revisit_options_check(opt, diag) != HEED_OK)
		return HEED_ECONFIG;
	return HEED_OK;
}

const struct heed_config_option_info *heed_config_option_at(size_t i)
{
	return i < heed__config_option_count ? &heed__config_options[i].info
	                                     : NULL;
}
