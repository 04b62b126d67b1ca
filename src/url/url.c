/*
 * URL parsing, resolution and normalisation (RFC 3986 sections 5 and 6).
 *
 * libcurl's URL API (curl_url) does the parsing, the reference resolution
 * of RFC 3986 5.2 and the removal of dot segments (5.2.4). Around it this
 * file does what curl 7.88 does not do for us, measured on Debian bookworm:
 * - browsers' clean-up of hrefs (spaces and controls trimmed, tabs and line
 *   breaks removed, backslashes in paths read as slashes) and
 *   percent-encoding of what curl would reject (spaces, non-ASCII bytes);
 * - the fragment is cut before curl sees the reference, because curl
 *   resolves "" and "#s" against "http://a/b/c/d;p?q" to "http://a/b/c/"
 *   instead of the base itself (RFC 3986 5.4.1);
 * - IDN: curl's CURLU_PUNYCODE calls idn2_lookup_ul(), which reads the
 *   process locale, and fails with CURLUE_OUT_OF_MEMORY in the "C" locale
 *   that a library cannot change, so hosts go through idn2_lookup_u8();
 * - case and default ports (RFC 3986 6.2.2.1 and 6.2.3).
 * Percent-encoding goes through the shared normaliser of src/common/pct.c
 * (pct_normalize() below), which robots.txt matching uses too.
 */
#include <curl/curl.h>
#include <idn2.h>
#include <libpsl.h>
#include <stdbool.h>
#include <string.h>

#include "common/common-int.h"
#include "heed/url.h"

struct heed_url {
	const struct heed_allocator *alloc;
	unsigned port;
	size_t text_bytes; /* size of text[] */
	const char *full, *scheme, *host, *target, *host_key, *regdom;
	const char *origin, *hostname;
	char text[]; /* every string above, NUL-separated */
};

static bool is_alpha(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

/*
 * Appends len bytes of path-and-query s to out with percent-encoding
 * normalised by the shared normaliser (src/common/pct.c, RFC 3986 6.2.2.1
 * and 6.2.2.2): "%7e" becomes "~", "%2f" stays encoded as "%2F", a '%' not
 * followed by two hex digits becomes "%25", and bytes not allowed raw are
 * encoded. The robots.txt matcher uses the same function, so a URL and a
 * rule spell the same path the same way.
 */
static heed_status pct_normalize(struct heed_buf *out, const char *s,
                                 size_t len)
{
	char small[1024], *tmp;
	size_t n = heed__pct_normalize(small, sizeof(small), s, len, 0);
	heed_status rc;

	if (n < sizeof(small))
		return heed__buf_add(out, small, n);
	tmp = heed__malloc(out->alloc, n + 1);
	if (!tmp)
		return HEED_ENOMEM;
	heed__pct_normalize(tmp, n + 1, s, len, 0);
	rc = heed__buf_add(out, tmp, n);
	heed__free(out->alloc, tmp);
	return rc;
}

/* Appends the host of an authority, lower case, IDN labels in punycode. */
static heed_status add_host(struct heed_buf *out, const char *h, size_t len)
{
	bool ascii = true;
	uint8_t *puny = NULL;
	char *u8;
	heed_status rc;
	int irc;

	for (size_t i = 0; i < len; i++) {
		ascii = ascii && (unsigned char)h[i] < 0x80;
		/* Percent-encoded hosts are decoded by curl after its checks
		 * ("%32" became "2", not 0.0.0.2); nobody needs them. */
		if (h[i] == '%')
			return HEED_EINVAL;
	}
	if (ascii) {
		for (size_t i = 0; i < len; i++) {
			rc = heed__buf_addc(out, heed__ascii_lower(h[i]));
			if (rc != HEED_OK)
				return rc;
		}
		return HEED_OK;
	}
	u8 = heed__strndup(out->alloc, h, len);
	if (!u8)
		return HEED_ENOMEM;
	/* The flags curl uses: UTS #46 non-transitional, then transitional
	 * for IDNA 2003 names such as "faß.de". */
	irc = idn2_lookup_u8((const uint8_t *)u8, &puny,
	                     IDN2_NFC_INPUT | IDN2_NONTRANSITIONAL);
	if (irc != IDN2_OK)
		irc = idn2_lookup_u8((const uint8_t *)u8, &puny,
		                     IDN2_NFC_INPUT | IDN2_TRANSITIONAL);
	heed__free(out->alloc, u8);
	if (irc != IDN2_OK)
		return HEED_EINVAL;
	rc = add_host(out, (const char *)puny, strlen((const char *)puny));
	idn2_free(puny);
	return rc;
}

/* Appends an authority without its user information ("user:pw@" is never
 * sent by a crawler and would leak into logs and the index). */
static heed_status add_authority(struct heed_buf *out, const char *a,
                                 size_t len)
{
	const char *at = NULL, *port;
	size_t hlen;
	heed_status rc;

	for (size_t i = 0; i < len; i++)
		if (a[i] == '@')
			at = a + i;
	if (at) {
		len -= (size_t)(at + 1 - a);
		a = at + 1;
	}
	if (len && a[0] == '[') { /* IPv6 literal: curl checks it */
		for (size_t i = 0; i < len; i++) {
			rc = heed__buf_addc(out, heed__ascii_lower(a[i]));
			if (rc != HEED_OK)
				return rc;
		}
		return HEED_OK;
	}
	port = memchr(a, ':', len);
	hlen = port ? (size_t)(port - a) : len;
	rc = add_host(out, a, hlen);
	if (rc == HEED_OK && port)
		rc = heed__buf_add(out, port, len - hlen);
	return rc;
}

/* Length of a scheme followed by ':' at the start of s, or 0. */
static size_t scheme_len(const char *s, size_t len)
{
	size_t i = 0;

	if (len == 0 || !is_alpha((unsigned char)s[0]))
		return 0;
	while (i < len && (is_alpha((unsigned char)s[i]) ||
	                   is_digit((unsigned char)s[i]) || s[i] == '+' ||
	                   s[i] == '-' || s[i] == '.'))
		i++;
	return (i < len && s[i] == ':') ? i : 0;
}

/* Appends path and query, reading '\' as '/' in the path as browsers do
 * for http(s), then normalising percent-encoding. */
static heed_status add_path_query(struct heed_buf *out, const char *s,
                                  size_t len)
{
	size_t i = 0;
	heed_status rc = HEED_OK;

	while (i < len && s[i] != '?' && rc == HEED_OK) {
		size_t run = strcspn(s + i, "\\?");
		if (s[i] == '\\') {
			rc = heed__buf_addc(out, '/');
			i++;
			continue;
		}
		if (run > len - i)
			run = len - i;
		if (run == 0) /* a NUL byte */
			run = 1;
		rc = pct_normalize(out, s + i, run);
		i += run;
	}
	if (rc == HEED_OK && i < len) {
		rc = heed__buf_addc(out, '?');
		if (rc == HEED_OK)
			rc = pct_normalize(out, s + i + 1, len - i - 1);
	}
	return rc;
}

/*
 * Session ids in URLs, a link trap. A site that hands every visitor a new id
 * and puts it in every link never shows a crawler the same URL twice: heed
 * would crawl it until crawl.max_pages. Such sites answer without the id too
 * (a new session, or a cookie), so the normal form drops it, as Heritrix's
 * and Nutch's canonicalisers do: the Java path parameter ";jsessionid=..."
 * and query parameters whose name says they are one. "sid" also names
 * stories and sites, so only a long token (16 or more letters and digits)
 * under that name is taken for one.
 */
static const char *const session_params[] = {
        "jsessionid", "phpsessid", "sessionid", "session_id",
        "cfid",       "cftoken",   "oscsid",    "zenid",
};

static bool is_token(const char *s, size_t len, size_t min)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!is_alpha((unsigned char)s[i]) &&
		    !is_digit((unsigned char)s[i]))
			return false;
	return len >= min;
}

/* Whether the query parameter p (len bytes, "name=value") is a session id. */
static bool session_param(const char *p, size_t len)
{
	const char *eq = memchr(p, '=', len);
	size_t n = eq ? (size_t)(eq - p) : len, i;

	for (i = 0; i < HEED_ARRAY_SIZE(session_params); i++)
		if (heed__ascii_ieq(p, n, session_params[i]))
			return true;
	/* ASP's is ASPSESSIONID followed by letters of the server's own. */
	if (n > 12 && heed__ascii_ieq(p, 12, "aspsessionid"))
		return true;
	return eq && heed__ascii_ieq(p, n, "sid") &&
	       is_token(eq + 1, len - n - 1, 16);
}

/* Removes a ";jsessionid=..." path parameter from path (len bytes, up to
 * the query), in place; returns the new length. */
static size_t strip_path_session(char *path, size_t len)
{
	static const char key[] = ";jsessionid=";
	size_t klen = sizeof(key) - 1, i, end;

	for (i = 0; i + klen <= len; i++) {
		if (path[i] != ';' || !heed__ascii_ieq(path + i, klen, key))
			continue;
		end = i + klen;
		while (end < len && path[end] != '/' && path[end] != ';')
			end++;
		memmove(path + i, path + end, len - end);
		len -= end - i;
		i--; /* look again at what moved here */
	}
	return len;
}

/* Removes the session-id parameters of query (len bytes, after the '?'),
 * in place, leaving every other byte as it was; returns the new length. */
static size_t strip_query_session(char *query, size_t len)
{
	size_t r = 0, w = 0;

	while (r <= len) {
		size_t n = 0;
		while (r + n < len && query[r + n] != '&')
			n++;
		if (!session_param(query + r, n)) {
			if (w > 0)
				query[w++] = '&';
			memmove(query + w, query + r, n);
			w += n;
		}
		r += n + 1;
	}
	return w;
}

/* Drops the session ids of target (path and query, len bytes) in place, as
 * the normal form does; returns the new length. Leaves target untouched
 * unless it holds one. */
static size_t strip_session_ids(char *target, size_t len)
{
	char *q = memchr(target, '?', len);
	size_t path_len = q ? (size_t)(q - target) : len, rest = len - path_len;
	size_t kept;

	if (memchr(target, ';', path_len)) {
		size_t n = strip_path_session(target, path_len);
		memmove(target + n, target + path_len, rest);
		len -= path_len - n;
		path_len = n;
	}
	if (!q)
		return len;
	q = target + path_len; /* the '?', maybe moved */
	rest = len - path_len - 1;
	for (size_t i = 0, n; i <= rest; i += n + 1) {
		n = 0;
		while (i + n < rest && q[1 + i + n] != '&')
			n++;
		if (session_param(q + 1 + i, n)) {
			kept = strip_query_session(q + 1, rest);
			/* No parameter left: no '?' either. */
			return kept ? path_len + 1 + kept : path_len;
		}
	}
	return len;
}

/*
 * Cleans a reference as a browser does before parsing (WHATWG URL: strip
 * leading and trailing C0 controls and spaces, remove tabs and newlines)
 * and cuts the fragment. Refuses schemes other than http(s).
 */
static heed_status clean_ref(struct heed_buf *out, const char *s, size_t len)
{
	size_t slen, i;
	heed_status rc = HEED_OK;

	while (len && (unsigned char)s[0] <= 0x20) {
		s++;
		len--;
	}
	while (len && (unsigned char)s[len - 1] <= 0x20)
		len--;
	for (i = 0; i < len && s[i] != '#' && rc == HEED_OK; i++)
		if (s[i] != '\t' && s[i] != '\n' && s[i] != '\r')
			rc = heed__buf_addc(out, s[i]);
	if (rc != HEED_OK)
		return rc;
	slen = scheme_len(out->data ? out->data : "", out->len);
	if (slen && !heed__ascii_ieq(out->data, slen, "http") &&
	    !heed__ascii_ieq(out->data, slen, "https"))
		return HEED_EINVAL;
	return HEED_OK;
}

/* Rewrites a cleaned reference into a form curl accepts: authority
 * without userinfo and with a punycode host, path and query encoded. */
static heed_status encode_ref(struct heed_buf *out, const char *s, size_t len)
{
	size_t p = scheme_len(s, len), slashes = 0, alen;
	heed_status rc = HEED_OK;

	if (p) {
		for (size_t i = 0; i <= p && rc == HEED_OK; i++)
			rc = heed__buf_addc(out, heed__ascii_lower(s[i]));
		p++;
	}
	while (p + slashes < len &&
	       (s[p + slashes] == '/' || s[p + slashes] == '\\'))
		slashes++;
	/* After "http:" any number of slashes introduces the authority, as
	 * browsers read it ("http:/h", "http:///h"); "http:g" is refused
	 * (RFC 3986 5.4.2 allows either reading; strict is safer). Without a
	 * scheme only "//" does (a network-path reference). */
	if (p && slashes == 0)
		return HEED_EINVAL;
	if (rc == HEED_OK && (p ? slashes > 0 : slashes >= 2)) {
		p += p ? slashes : 2;
		alen = strcspn(s + p, "/\\?");
		if (p + alen > len)
			alen = len - p;
		rc = heed__buf_add(out, "//", 2);
		if (rc == HEED_OK)
			rc = add_authority(out, s + p, alen);
		p += alen;
	}
	if (rc == HEED_OK)
		rc = add_path_query(out, s + p, len - p);
	return rc;
}

/* A host curl accepted is still refused unless it is a name of letters,
 * digits, '-', '.' and '_' or a bracketed IPv6 literal: curl decodes
 * "%B0" in hosts, and such bytes have no place in a host key. */
static bool valid_host(const char *h)
{
	if (h[0] == '[')
		return h[strspn(h, "[]0123456789abcdef:.")] == '\0';
	for (; *h; h++)
		if (!is_alpha((unsigned char)*h) &&
		    !is_digit((unsigned char)*h) && *h != '-' && *h != '.' &&
		    *h != '_')
			return false;
	return true;
}

static heed_status from_curl(CURLUcode uc)
{
	if (uc == CURLUE_OK)
		return HEED_OK;
	return uc == CURLUE_OUT_OF_MEMORY ? HEED_ENOMEM : HEED_EINVAL;
}

static bool is_ipv4(const char *h)
{
	return h[strspn(h, "0123456789.")] == '\0';
}

/* Parts of a URL as curl returns them; each freed with curl_free(). */
struct parts {
	char *scheme, *host, *port, *path, *query;
};

static void parts_free(struct parts *p)
{
	curl_free(p->scheme);
	curl_free(p->host);
	curl_free(p->port);
	curl_free(p->path);
	curl_free(p->query);
}

static heed_status get_parts(CURLU *h, struct parts *p)
{
	CURLUcode uc = curl_url_get(h, CURLUPART_SCHEME, &p->scheme, 0);

	if (uc == CURLUE_OK)
		uc = curl_url_get(h, CURLUPART_HOST, &p->host, 0);
	if (uc == CURLUE_OK)
		uc = curl_url_get(h, CURLUPART_PATH, &p->path, 0);
	if (uc == CURLUE_OK) {
		uc = curl_url_get(h, CURLUPART_PORT, &p->port, 0);
		if (uc == CURLUE_NO_PORT)
			uc = CURLUE_OK;
	}
	if (uc == CURLUE_OK) {
		uc = curl_url_get(h, CURLUPART_QUERY, &p->query, 0);
		if (uc == CURLUE_NO_QUERY)
			uc = CURLUE_OK;
	}
	return from_curl(uc);
}

static unsigned parse_port(const char *s)
{
	unsigned long v = 0;

	for (; *s; s++)
		v = v * 10 + (unsigned long)(*s - '0');
	return (unsigned)v;
}

/* Appends s and its NUL to b; *off is where s starts. */
static heed_status add_str(struct heed_buf *b, const char *s, size_t *off)
{
	*off = b->len;
	return heed__buf_add(b, s, strlen(s) + 1);
}

/* Appends the strings s[0, n), the last with its NUL when nul: what a
 * "%s%s%c" format writes, without heed__buf_addf()'s formatting, which
 * showed in every page's extraction (each parses the page's URL). */
static heed_status add_strs(struct heed_buf *b, const char *const *s, size_t n,
                            bool nul)
{
	heed_status rc = HEED_OK;

	for (size_t i = 0; i < n && rc == HEED_OK; i++)
		rc = heed__buf_add(b, s[i], strlen(s[i]) + (nul && i == n - 1));
	return rc;
}

/* Builds the heed_url from curl's parts: every string in one block. The
 * registrable domain is looked up only when domain is set (a resolved
 * link wanted as text alone has no use for it, and the look-up was a
 * tenth of a real page's extraction). */
static heed_status build(heed_url **out, const struct heed_allocator *a,
                         const struct parts *p, bool domain)
{
	bool https = strcmp(p->scheme, "https") == 0;
	unsigned dflt = https ? 443 : 80;
	unsigned port = p->port ? parse_port(p->port) : dflt;
	char portbuf[16] = "";
	const psl_ctx_t *psl = psl_builtin();
	const char *rd = NULL;
	struct heed_buf b;
	size_t off[8] = {0};
	size_t host_len = strlen(p->host);
	bool bracketed = host_len >= 2 && p->host[0] == '[';
	heed_status rc;
	heed_url *u;

	if (port == 0) /* curl accepts ":0"; no server listens there */
		return HEED_EINVAL;
	/* Hosts that reached curl without "//" ("http:/Host/") escaped
	 * add_authority(): fold them here too (RFC 3986 6.2.2.1). */
	for (char *h = p->host; *h; h++)
		*h = heed__ascii_lower(*h);
	if (!valid_host(p->host))
		return HEED_EINVAL;
	if (port != dflt)
		snprintf(portbuf, sizeof(portbuf), ":%u", port);
	if (domain && psl && p->host[0] != '[' && !is_ipv4(p->host))
		rd = psl_registrable_domain(psl, p->host);
	heed__buf_init(&b, a, 6 * HEED_URL_MAX_BYTES);
	rc = add_strs(&b, (const char *[]){p->scheme, "://", p->host, portbuf},
	              4, false);
	off[1] = b.len;
	if (rc == HEED_OK)
		rc = add_strs(&b,
		              (const char *[]){p->path, p->query ? "?" : "",
		                               p->query ? p->query : ""},
		              3, false);
	if (rc == HEED_OK)
		b.len = off[1] +
		        strip_session_ids(b.data + off[1], b.len - off[1]);
	if (rc == HEED_OK && b.len > HEED_URL_MAX_BYTES)
		rc = HEED_ETOOBIG;
	if (rc == HEED_OK)
		rc = heed__buf_addc(&b, '\0');
	if (rc == HEED_OK)
		rc = add_str(&b, p->scheme, &off[2]);
	if (rc == HEED_OK)
		rc = add_str(&b, p->host, &off[3]);
	if (rc == HEED_OK)
		rc = add_strs(&b, (const char *[]){p->host, portbuf}, 2, true);
	off[4] = off[3] + strlen(p->host) + 1;
	if (rc == HEED_OK)
		rc = add_str(&b, rd ? rd : "", &off[5]);
	off[6] = b.len;
	if (rc == HEED_OK)
		rc = add_strs(
		        &b,
		        (const char *[]){p->scheme, "://", p->host, portbuf}, 4,
		        true);
	off[7] = b.len;
	if (rc == HEED_OK)
		rc = heed__buf_add(&b, p->host + bracketed,
		                   bracketed ? host_len - 2 : host_len);
	if (rc == HEED_OK)
		rc = heed__buf_addc(&b, '\0');
	u = rc == HEED_OK ? heed__malloc(a, sizeof(*u) + b.len) : NULL;
	if (!u) {
		heed__buf_free(&b);
		return rc == HEED_OK ? HEED_ENOMEM : rc;
	}
	memcpy(u->text, b.data, b.len);
	u->text_bytes = b.len;
	heed__buf_free(&b);
	u->alloc = a;
	u->port = port;
	u->full = u->text;
	u->target = u->text + off[1]; /* a suffix of full */
	u->scheme = u->text + off[2];
	u->host = u->text + off[3];
	u->host_key = u->text + off[4];
	u->regdom = rd ? u->text + off[5] : NULL;
	u->origin = u->text + off[6];
	u->hostname = u->text + off[7];
	*out = u;
	return HEED_OK;
}

/* Sets h from a reference already cleaned and encoded; when base is not
 * NULL the reference is resolved against it. */
static heed_status curl_set(CURLU *h, const heed_url *base, const char *ref)
{
	if (base) {
		CURLUcode uc = curl_url_set(h, CURLUPART_URL, base->full, 0);
		if (uc != CURLUE_OK)
			return from_curl(uc);
	}
	return from_curl(curl_url_set(h, CURLUPART_URL, ref, 0));
}

static heed_status parse_with(heed_url **out, const heed_url *base,
                              const char *text, size_t len,
                              const struct heed_allocator *a, bool domain)
{
	struct heed_buf clean, enc;
	struct parts p = {0};
	CURLU *h = NULL;
	heed_status rc;

	*out = NULL;
	if (len > HEED_URL_MAX_BYTES)
		return HEED_ETOOBIG;
	heed__buf_init(&clean, a, HEED_URL_MAX_BYTES);
	heed__buf_init(&enc, a, 3 * HEED_URL_MAX_BYTES);
	rc = clean_ref(&clean, text, len);
	if (rc == HEED_OK && base && clean.len == 0) {
		/* RFC 3986 5.2.2: an empty reference is the base itself. */
		*out = heed_url_dup(base);
		rc = *out ? HEED_OK : HEED_ENOMEM;
		goto out;
	}
	if (rc == HEED_OK && !base &&
	    !scheme_len(heed__buf_str(&clean), clean.len))
		rc = HEED_EINVAL;
	if (rc == HEED_OK)
		rc = encode_ref(&enc, heed__buf_str(&clean), clean.len);
	if (rc == HEED_ETOOBIG)
		goto out;
	if (rc == HEED_OK) {
		h = curl_url();
		rc = h ? curl_set(h, base, heed__buf_str(&enc)) : HEED_ENOMEM;
	}
	if (rc == HEED_OK)
		rc = get_parts(h, &p);
	if (rc == HEED_OK && p.host[0] == '\0')
		rc = HEED_EINVAL;
	if (rc == HEED_OK)
		rc = build(out, a, &p, domain);
out:
	parts_free(&p);
	curl_url_cleanup(h);
	heed__buf_free(&clean);
	heed__buf_free(&enc);
	return rc;
}

heed_status heed_url_parse(heed_url **out, const char *text, size_t len,
                           const struct heed_allocator *alloc)
{
	return parse_with(out, NULL, text, len,
	                  alloc ? alloc : heed_allocator_default(), true);
}

heed_status heed_url_resolve(heed_url **out, const heed_url *base,
                             const char *ref, size_t len)
{
	return parse_with(out, base, ref, len, base->alloc, true);
}

/* Bytes a fast-path reference may hold: unreserved and sub-delims plus
 * '/', '?', ':', '@' (RFC 3986 3.3, 3.4), but no '%', '\\', '#' or
 * anything that needs encoding or case folding. */
static bool fast_char(unsigned char c)
{
	/* Letters, digits and "-._~!$&'()*+,;=/?:@": one look-up a byte,
	 * since every link of every page passes here. */
	static const bool fast[256] = {
	        ['0' ... '9'] = true, ['A' ... 'Z'] = true,
	        ['a' ... 'z'] = true, ['-'] = true,
	        ['.'] = true,         ['_'] = true,
	        ['~'] = true,         ['!'] = true,
	        ['$'] = true,         ['&'] = true,
	        ['\''] = true,        ['('] = true,
	        [')'] = true,         ['*'] = true,
	        ['+'] = true,         [','] = true,
	        [';'] = true,         ['='] = true,
	        ['/'] = true,         ['?'] = true,
	        [':'] = true,         ['@'] = true,
	};

	return fast[c];
}

/*
 * The fast path of heed_url_resolve_buf(): a reference that is a path
 * (absolute "/a/b" or relative "a/b"), or a query ("?q"), made only of
 * fast_char()s and without dot segments, resolves by concatenation
 * (RFC 3986 5.2.2 and 5.2.3: merge, and remove_dot_segments() has nothing
 * to remove). Returns false when the slow path must decide.
 */
static size_t resolve_fast(const heed_url *base, const char *ref, size_t len,
                           char *buf, size_t size)
{
	const char *q, *slash;
	size_t dir;

	if (len == 0 || (ref[0] == '/' && len > 1 && ref[1] == '/') ||
	    ref[0] == '.')
		return 0;
	for (size_t i = 0; i < len; i++) {
		if (!ref[i] || !fast_char((unsigned char)ref[i]))
			return 0;
		/* ':' before any '/' or '?' would make it a scheme. */
		if (ref[i] == ':' && !memchr(ref, '/', i) &&
		    !memchr(ref, '?', i))
			return 0;
		if (ref[i] == '.' && i > 0 && ref[i - 1] == '/')
			return 0;
	}
	q = strchr(base->target, '?');
	if (ref[0] == '/') {
		dir = (size_t)(base->target - base->full);
	} else if (ref[0] == '?') {
		dir = q ? (size_t)(q - base->full) : strlen(base->full);
	} else {
		const char *end = q ? q : base->target + strlen(base->target);
		slash = base->target;
		for (const char *p = base->target; p < end; p++)
			if (*p == '/')
				slash = p;
		dir = (size_t)(slash + 1 - base->full);
	}
	if (dir + len >= size || dir + len > HEED_URL_MAX_BYTES)
		return 0;
	memcpy(buf, base->full, dir);
	memcpy(buf + dir, ref, len);
	len = dir + len;
	if (memchr(ref, '?', len - dir) || memchr(ref, ';', len - dir)) {
		size_t t = (size_t)(base->target - base->full);
		len = t + strip_session_ids(buf + t, len - t);
	}
	buf[len] = '\0';
	return len;
}

heed_status heed_url_resolve_buf(const heed_url *base, const char *ref,
                                 size_t len, char *buf, size_t size,
                                 size_t *out_len)
{
	heed_url *u = NULL;
	heed_status rc;
	const char *s;
	size_t n;

	/* Trimming and the fragment cut come first, as in the slow path. */
	while (len && (unsigned char)ref[0] <= 0x20)
		ref++, len--;
	while (len && (unsigned char)ref[len - 1] <= 0x20)
		len--;
	n = 0;
	while (n < len && ref[n] != '#')
		n++;
	*out_len = resolve_fast(base, ref, n, buf, size);
	if (*out_len)
		return HEED_OK;
	rc = parse_with(&u, base, ref, len, base->alloc, false);
	if (rc != HEED_OK)
		return rc;
	s = heed_url_get(u);
	n = strlen(s);
	if (n >= size) {
		heed_url_free(u);
		return HEED_ETOOBIG;
	}
	memcpy(buf, s, n + 1);
	*out_len = n;
	heed_url_free(u);
	return HEED_OK;
}

heed_url *heed_url_dup(const heed_url *u)
{
	size_t size = u->text_bytes;
	heed_url *d;

	d = heed__malloc(u->alloc, sizeof(*d) + size);
	if (!d)
		return NULL;
	memcpy(d, u, sizeof(*d) + size);
	d->full = d->text;
	d->target = d->text + (u->target - u->text);
	d->scheme = d->text + (u->scheme - u->text);
	d->host = d->text + (u->host - u->text);
	d->host_key = d->text + (u->host_key - u->text);
	d->regdom = u->regdom ? d->text + (u->regdom - u->text) : NULL;
	d->origin = d->text + (u->origin - u->text);
	d->hostname = d->text + (u->hostname - u->text);
	return d;
}

void heed_url_free(heed_url *u)
{
	if (u)
		heed__free(u->alloc, u);
}

const char *heed_url_get(const heed_url *u)
{
	return u->full;
}

const char *heed_url_scheme(const heed_url *u)
{
	return u->scheme;
}

const char *heed_url_host(const heed_url *u)
{
	return u->host;
}

unsigned heed_url_port(const heed_url *u)
{
	return u->port;
}

const char *heed_url_target(const heed_url *u)
{
	return u->target;
}

const char *heed_url_host_key(const heed_url *u)
{
	return u->host_key;
}

const char *heed_url_origin(const heed_url *u)
{
	return u->origin;
}

const char *heed_url_hostname(const heed_url *u)
{
	return u->hostname;
}

/* A host of digits and dots is an IPv4 address, which the parse writes
 * as a dotted quad ("127.1" is 127.0.0.1): only a dotted quad in that
 * form may skip it. Other hosts pass. */
static bool plain_numeric_host(const char *h, size_t len)
{
	unsigned parts = 0, digits = 0, value = 0;

	for (size_t i = 0; i < len; i++)
		if (h[i] != '.' && (h[i] < '0' || h[i] > '9'))
			return true;
	for (size_t i = 0; i <= len; i++) {
		if (i == len || h[i] == '.') {
			if (!digits || value > 255)
				return false;
			parts++;
			digits = value = 0;
			continue;
		}
		if (digits && value == 0) /* a leading zero */
			return false;
		value = value * 10 + (unsigned)(h[i] - '0');
		digits++;
	}
	return parts == 4;
}

/* Normalised URLs skip heed_url_parse (heed/url.h). */
heed_status heed_url_origin_fast(const char *text, char *buf, size_t size)
{
	const char *p = text;
	size_t n = 0, colon = 0, start;
	bool https = strncmp(p, "https://", 8) == 0;

	if (!https && strncmp(p, "http://", 7) != 0)
		return HEED_EINVAL;
	start = https ? 8 : 7;
	for (p += start; *p && *p != '/' && *p != '?' && *p != '#'; p++) {
		char c = *p;
		bool digit = c >= '0' && c <= '9';
		if (c == ':' && !colon && n)
			colon = n;
		else if (colon ? !digit
		               : !(digit || (c >= 'a' && c <= 'z') ||
		                   c == '.' || c == '-'))
			return HEED_EINVAL;
		n++;
	}
	if (!n || n > 255 || p[-1] == '.' || (colon && colon == n - 1) ||
	    *p != '/' || !plain_numeric_host(text + start, colon ? colon : n))
		return HEED_EINVAL;
	/* A port the normal form would drop or rewrite. */
	if (colon && (text[start + colon + 1] == '0' ||
	              (n - colon == (https ? 4 : 3) &&
	               memcmp(text + start + colon, https ? ":443" : ":80",
	                      n - colon) == 0)))
		return HEED_EINVAL;
	/* Path and query: nothing the normal form would escape. */
	for (const char *q = p; *q; q++)
		if ((unsigned char)*q <= ' ' || (unsigned char)*q >= 0x7f ||
		    *q == '\\' || *q == '#')
			return HEED_EINVAL;
	if (start + n + 1 > size)
		return HEED_ETOOBIG;
	memcpy(buf, text, start + n);
	buf[start + n] = '\0';
	return HEED_OK;
}

const char *heed_url_registrable_domain(const heed_url *u)
{
	return u->regdom;
}
