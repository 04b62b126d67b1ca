/*
 * ISUPPORT (RPL_ISUPPORT, 005): the tokens a server advertises
 * (modern.ircdocs.horse "Feature Advertisement"; draft-brocklesby-irc-
 * isupport-03 for the \xHH escapes).
 *
 *   005 <client> <1-13 tokens> :are supported by this server
 *
 * The human text varies (ngircd: "is my network name"), so the tokens are
 * params[1..n-2] whatever the last one says. Several lines may come, and a
 * later line wins: a token may be re-advertised or negated ("-TOKEN") at any
 * time, e.g. after a rehash. Values are stored unescaped.
 *
 * The table is a small array searched linearly: servers send a few dozen
 * tokens, and lookups happen a handful of times per visit.
 */
#include <limits.h>
#include <string.h>

#include "irc/irc-int.h"

/* The ABNF allows 20 characters; real servers stay far below this. */
#define NAME_MAX_BYTES 64

struct token {
	char *name;
	char *value; /* unescaped, NUL-terminated (may hold earlier NULs) */
	bool has_value;
};

struct heed_irc_isupport {
	const struct heed_allocator *alloc;
	struct token *tokens;
	size_t count, cap;
	uint64_t skipped;
};

heed_status heed_irc_isupport_new(heed_irc_isupport **out,
                                  const struct heed_allocator *alloc)
{
	alloc = alloc ? alloc : heed_allocator_default();
	*out = heed__calloc(alloc, 1, sizeof(**out));
	if (!*out)
		return HEED_ENOMEM;
	(*out)->alloc = alloc;
	return HEED_OK;
}

static void token_free(const struct heed_allocator *a, struct token *t)
{
	heed__free(a, t->name);
	heed__free(a, t->value);
}

void heed_irc_isupport_free(heed_irc_isupport *is)
{
	if (!is)
		return;
	for (size_t i = 0; i < is->count; i++)
		token_free(is->alloc, &is->tokens[i]);
	heed__free(is->alloc, is->tokens);
	heed__free(is->alloc, is);
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = heed__ascii_lower(c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

size_t heed_irc_isupport_unescape(const char *value, size_t len, char *out,
                                  size_t size)
{
	size_t n = 0;

	if (size == 0)
		return 0;
	for (size_t i = 0; i < len && n + 1 < size; i++) {
		if (value[i] == '\\' && i + 3 < len && value[i + 1] == 'x' &&
		    hexval(value[i + 2]) >= 0 && hexval(value[i + 3]) >= 0) {
			out[n++] = (char)(hexval(value[i + 2]) * 16 +
			                  hexval(value[i + 3]));
			i += 3;
			continue;
		}
		out[n++] = value[i];
	}
	out[n] = '\0';
	return n;
}

/* Parameter names are letters, digits, '.', '/' and '_' in practice;
 * anything else is a broken token, skipped rather than stored. */
static bool name_ok(const char *name, size_t len)
{
	if (len == 0 || len > NAME_MAX_BYTES)
		return false;
	for (size_t i = 0; i < len; i++) {
		char c = name[i];
		bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
		          (c >= '0' && c <= '9') || c == '.' || c == '/' ||
		          c == '_' || c == '-';
		if (!ok)
			return false;
	}
	return true;
}

static struct token *find(const heed_irc_isupport *is, const char *name,
                          size_t len)
{
	for (size_t i = 0; i < is->count; i++)
		if (strlen(is->tokens[i].name) == len &&
		    memcmp(is->tokens[i].name, name, len) == 0)
			return &is->tokens[i];
	return NULL;
}

static void remove_token(heed_irc_isupport *is, const char *name, size_t len)
{
	struct token *t = find(is, name, len);

	/* "negating a parameter never advertised MUST be ignored" */
	if (!t)
		return;
	token_free(is->alloc, t);
	*t = is->tokens[--is->count];
}

static heed_status set_token(heed_irc_isupport *is, const char *name,
                             size_t len, const char *raw, size_t raw_len,
                             bool has_value)
{
	char decoded[HEED_IRC_ISUPPORT_MAX_VALUE + 1];
	size_t dlen = heed_irc_isupport_unescape(raw, raw_len, decoded,
	                                         sizeof(decoded));
	struct token *t = find(is, name, len);
	char *value = heed__malloc(is->alloc, dlen + 1);

	if (!value)
		return HEED_ENOMEM;
	memcpy(value, decoded, dlen + 1);
	if (!t) {
		if (is->count == HEED_IRC_ISUPPORT_MAX_TOKENS) {
			heed__free(is->alloc, value);
			is->skipped++;
			return HEED_OK;
		}
		if (is->count == is->cap) {
			size_t cap = is->cap ? is->cap * 2 : 32;
			struct token *n = heed__realloc(is->alloc, is->tokens,
			                                cap * sizeof(*n));
			if (!n) {
				heed__free(is->alloc, value);
				return HEED_ENOMEM;
			}
			is->tokens = n;
			is->cap = cap;
		}
		t = &is->tokens[is->count];
		t->name = heed__strndup(is->alloc, name, len);
		if (!t->name) {
			heed__free(is->alloc, value);
			return HEED_ENOMEM;
		}
		t->value = NULL;
		is->count++;
	}
	heed__free(is->alloc, t->value);
	t->value = value;
	t->has_value = has_value && dlen > 0;
	return HEED_OK;
}

static heed_status apply_token(heed_irc_isupport *is, const char *tok)
{
	bool negate = tok[0] == '-';
	const char *name = negate ? tok + 1 : tok;
	const char *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);

	if (!name_ok(name, len) || (negate && eq)) {
		is->skipped++;
		return HEED_OK;
	}
	if (negate) {
		remove_token(is, name, len);
		return HEED_OK;
	}
	if (!eq)
		return set_token(is, name, len, "", 0, false);
	return set_token(is, name, len, eq + 1, strlen(eq + 1), true);
}

heed_status heed_irc_isupport_apply(heed_irc_isupport *is,
                                    const struct heed_irc_msg *msg)
{
	if (msg->numeric != 5)
		return HEED_EINVAL;
	/* params[0] is our nick; the last is the human text, unless the
	 * server left it out (then the last is a token too). */
	size_t end = msg->has_trailing ? msg->nparams - 1 : msg->nparams;
	for (size_t i = 1; i < end; i++) {
		heed_status rc = apply_token(is, msg->params[i]);
		if (rc != HEED_OK)
			return rc;
	}
	return HEED_OK;
}

bool heed_irc_isupport_get(const heed_irc_isupport *is, const char *name,
                           const char **value, bool *has_value)
{
	const struct token *t = find(is, name, strlen(name));

	if (!t)
		return false;
	if (value)
		*value = t->value;
	if (has_value)
		*has_value = t->has_value;
	return true;
}

static const char *value_or(const heed_irc_isupport *is, const char *name,
                            const char *fallback)
{
	const char *v;
	bool has;

	if (heed_irc_isupport_get(is, name, &v, &has) && has)
		return v;
	return fallback;
}

const char *heed_irc_isupport_network(const heed_irc_isupport *is)
{
	return value_or(is, "NETWORK", "");
}

const char *heed_irc_isupport_chantypes(const heed_irc_isupport *is)
{
	const char *v;
	bool has;

	/* "CHANTYPES=" (empty) means the server has no channels at all. */
	if (heed_irc_isupport_get(is, "CHANTYPES", &v, &has))
		return has ? v : "";
	return "#&";
}

const char *heed_irc_isupport_casemapping(const heed_irc_isupport *is)
{
	return value_or(is, "CASEMAPPING", "rfc1459");
}

const char *heed_irc_isupport_elist(const heed_irc_isupport *is)
{
	return value_or(is, "ELIST", "");
}

bool heed_irc_isupport_safelist(const heed_irc_isupport *is)
{
	return heed_irc_isupport_get(is, "SAFELIST", NULL, NULL);
}

char heed_irc_isupport_bot_mode(const heed_irc_isupport *is)
{
	const char *v = value_or(is, "BOT", "");
	bool letter =
	        (v[0] >= 'a' && v[0] <= 'z') || (v[0] >= 'A' && v[0] <= 'Z');

	return letter && v[1] == '\0' ? v[0] : 0;
}

/* A small non-negative decimal, or -1. */
static int small_int(const char *v)
{
	long n = 0;

	if (!*v)
		return -1;
	for (; *v; v++) {
		if (*v < '0' || *v > '9')
			return -1;
		n = n * 10 + (*v - '0');
		if (n > INT_MAX / 10)
			return -1;
	}
	return (int)n;
}

int heed_irc_isupport_nicklen(const heed_irc_isupport *is)
{
	int n = small_int(value_or(is, "NICKLEN", ""));

	return n > 0 ? n : 9;
}

int heed_irc_isupport_maxtargets(const heed_irc_isupport *is)
{
	return small_int(value_or(is, "MAXTARGETS", ""));
}

size_t heed_irc_isupport_count(const heed_irc_isupport *is)
{
	return is->count;
}

const char *heed_irc_isupport_name_at(const heed_irc_isupport *is, size_t i)
{
	return i < is->count ? is->tokens[i].name : NULL;
}

uint64_t heed_irc_isupport_skipped(const heed_irc_isupport *is)
{
	return is->skipped;
}
