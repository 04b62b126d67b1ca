/*
 * Unit tests of the pure IRC core: messages, the line reader, ISUPPORT, the
 * CRAWLER token (every clause of the draft, and heed's courteous reading
 * where it is silent: a token that breaks it means "do not index"), when
 * heed comes back, and the visit state machine driven by scripted server
 * lines.
 */
#include "heed_test.h"

#include "heed/irc.h"
#include "heed/irc_crawl.h"

/* ---- Messages ------------------------------------------------------------
 */

static const struct msg_case {
	const char *name, *line;
	heed_status want_rc;
	const char *source, *command;
	int numeric;
	size_t nparams;
	const char *p0, *plast;
	const char *tag_key, *tag_value;
} msg_cases[] = {
        {"c2s: simple", "PING :abc", HEED_OK, NULL, "PING", -1, 1, "abc", "abc",
         NULL, NULL},
        {"c2s: source and numeric", ":irc.x 005 me A B=c :are supported",
         HEED_OK, "irc.x", "005", 5, 4, "me", "are supported", NULL, NULL},
        {"c2s: trailing keeps colons", ":s 322 me #c 3 :a :b ::c", HEED_OK, "s",
         "322", 322, 4, "me", "a :b ::c", NULL, NULL},
        {"c2s: one or more spaces", ":s   PRIVMSG   #c   :hi  there", HEED_OK,
         "s", "PRIVMSG", -1, 2, "#c", "hi  there", NULL, NULL},
        {"c2s: CRLF dropped", "PING x\r\n", HEED_OK, NULL, "PING", -1, 1, "x",
         "x", NULL, NULL},
        {"c2s: empty trailing", ":s TOPIC #c :", HEED_OK, "s", "TOPIC", -1, 2,
         "#c", "", NULL, NULL},
        {"tags: escapes", "@a=x\\sy\\:z\\\\\\r;b :s CMD p", HEED_OK, "s", "CMD",
         -1, 1, "p", "p", "a", "x y;z\\\r"},
        {"tags: lone trailing backslash dropped", "@k=v\\ CMD", HEED_OK, NULL,
         "CMD", -1, 0, "", "", "k", "v"},
        {"tags: unknown escape drops the backslash", "@k=\\q CMD", HEED_OK,
         NULL, "CMD", -1, 0, "", "", "k", "q"},
        {"tags: key without value", "@flag CMD", HEED_OK, NULL, "CMD", -1, 0,
         "", "", "flag", ""},
        {"no command: empty", "", HEED_EPARSE, NULL, NULL, -1, 0, "", "", NULL,
         NULL},
        {"no command: only source", ":src", HEED_EPARSE, NULL, NULL, -1, 0, "",
         "", NULL, NULL},
        {"no command: only tags", "@a=b ", HEED_EPARSE, NULL, NULL, -1, 0, "",
         "", NULL, NULL},
        {"NUL ends the line", "PING a\0b", HEED_OK, NULL, "PING", -1, 1, "a",
         "a", NULL, NULL},
        {"four digits is not a numeric", ":s 1234 x", HEED_OK, "s", "1234", -1,
         1, "x", "x", NULL, NULL},
        {"invalid UTF-8 kept", ":s 332 me #c :\xff\xfe bytes", HEED_OK, "s",
         "332", 332, 3, "me", "\xff\xfe bytes", NULL, NULL},
};

static void test_msg_parse(void **state)
{
	static struct heed_irc_msg m;
	(void)state;

	for (size_t i = 0; i < HEED_ARRAY_SIZE(msg_cases); i++) {
		const struct msg_case *c = &msg_cases[i];
		size_t len = strlen(c->line);
		if (strcmp(c->name, "NUL ends the line") == 0)
			len = 8;
		heed_status rc = heed_irc_msg_parse(&m, c->line, len);
		if (rc != c->want_rc)
			fail_msg("%s: rc %s", c->name, heed_status_name(rc));
		if (rc != HEED_OK)
			continue;
		if ((c->source == NULL) != (m.source == NULL) ||
		    (c->source && strcmp(c->source, m.source) != 0))
			fail_msg("%s: source %s", c->name,
			         m.source ? m.source : "(null)");
		if (strcmp(c->command, m.command) != 0 ||
		    c->numeric != m.numeric || c->nparams != m.nparams)
			fail_msg("%s: command %s numeric %d nparams %zu",
			         c->name, m.command, m.numeric, m.nparams);
		if (strcmp(heed_irc_msg_param(&m, 0), c->p0) != 0 ||
		    strcmp(heed_irc_msg_param(&m,
		                              m.nparams ? m.nparams - 1 : 0),
		           c->plast) != 0)
			fail_msg("%s: params '%s' .. '%s'", c->name,
			         heed_irc_msg_param(&m, 0),
			         heed_irc_msg_param(&m, m.nparams - 1));
		if (c->tag_key &&
		    (!heed_irc_msg_tag(&m, c->tag_key) ||
		     strcmp(heed_irc_msg_tag(&m, c->tag_key), c->tag_value)))
			fail_msg("%s: tag %s", c->name, c->tag_key);
	}
}

static void test_msg_limits(void **state)
{
	static struct heed_irc_msg m;
	static char line[HEED_IRC_BUF_MAX + 64];
	char nick[8];
	(void)state;

	/* 600 bytes without tags: parsed, flagged over-long. */
	memset(line, 'a', sizeof(line));
	memcpy(line, ":s NOTICE x :", 13);
	assert_int_equal(heed_irc_msg_parse(&m, line, 600), HEED_OK);
	assert_true(m.overlong);
	/* Tags up to 8191 bytes are fine; one more is not. */
	memset(line, 'a', sizeof(line));
	line[0] = '@';
	memcpy(line + HEED_IRC_TAGS_MAX - 1, " PING x", 7);
	assert_int_equal(heed_irc_msg_parse(&m, line, HEED_IRC_TAGS_MAX + 6),
	                 HEED_OK);
	assert_false(m.overlong);
	memset(line, 'a', sizeof(line));
	line[0] = '@';
	memcpy(line + HEED_IRC_TAGS_MAX, " PING x", 7);
	assert_int_equal(heed_irc_msg_parse(&m, line, HEED_IRC_TAGS_MAX + 7),
	                 HEED_ETOOBIG);
	assert_int_equal(heed_irc_msg_parse(&m, line, sizeof(line)),
	                 HEED_ETOOBIG);
	/* More parameters than kept: the rest stays in the last one. */
	char many[400] = "CMD";
	for (int i = 0; i < 80; i++)
		memcpy(many + 3 + i * 2, " p", 3);
	assert_int_equal(heed_irc_msg_parse(&m, many, strlen(many)), HEED_OK);
	assert_int_equal(m.nparams, HEED_IRC_MAX_PARAMS);
	assert_int_equal(strlen(m.params[HEED_IRC_MAX_PARAMS - 1]),
	                 (80 - HEED_IRC_MAX_PARAMS + 1) * 2 - 1);
	assert_int_equal(heed_irc_msg_parse(&m, ":averylongnick!u@h X", 20),
	                 HEED_OK);
	heed_irc_msg_source_nick(&m, nick, sizeof(nick));
	assert_string_equal(nick, "averylo");
}

static void test_reader(void **state)
{
	static struct heed_irc_reader r;
	static char big[HEED_IRC_BUF_MAX + 100];
	const char *in = "A 1\r\nB 2\n\r\n\nC 3";
	const char *want[] = {"A 1", "B 2"};
	const char *line;
	size_t len, used, n = 0, off = 0;
	(void)state;

	heed_irc_reader_init(&r);
	/* Fed one byte at a time, the framing is the same. */
	for (off = 0; off < strlen(in); off += used) {
		used = heed_irc_reader_feed(&r, in + off, 1, &line, &len);
		assert_int_equal(used, 1);
		if (line) {
			assert_true(n < 2);
			assert_int_equal(len, strlen(want[n]));
			assert_memory_equal(line, want[n], len);
			n++;
		}
	}
	assert_int_equal(n, 2);
	used = heed_irc_reader_feed(&r, "\n", 1, &line, &len);
	assert_non_null(line);
	assert_string_equal(line, "C 3");
	/* An over-long line is skipped whole; the next one survives. */
	memset(big, 'x', sizeof(big));
	for (int i = 0; i < 3; i++) {
		used = heed_irc_reader_feed(&r, big, sizeof(big), &line, &len);
		assert_int_equal(used, sizeof(big));
		assert_null(line);
	}
	used = heed_irc_reader_feed(&r, "tail\nPING y\n", 12, &line, &len);
	assert_int_equal(used, 12);
	assert_string_equal(line, "PING y");
	assert_int_equal(r.overlong_lines, 1);
}

/* ---- ISUPPORT ---------------------------------------------------------- */

static heed_irc_isupport *isupport_of(const char *const *lines, size_t n)
{
	static struct heed_irc_msg m;
	heed_irc_isupport *is;

	assert_int_equal(heed_irc_isupport_new(&is, heed_test_allocator()),
	                 HEED_OK);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(
		        heed_irc_msg_parse(&m, lines[i], strlen(lines[i])),
		        HEED_OK);
		heed_irc_isupport_apply(is, &m);
	}
	return is;
}

static void test_isupport_forms(void **state)
{
	static const char *const lines[] = {
	        ":a.ngircd.test 005 crawlr NETWORK=NgLab :is my network name",
	        (":s 005 me AWAYLEN=200 BOT=B CASEMAPPING=rfc1459 CHANTYPES=# "
	         "ELIST=CMNTU NICKLEN=30 SAFELIST EMPTY= MAXTARGETS=20 "
	         "ESC=a\\x20b\\x3Dc\\x5C\\xZZ :are supported by this server"),
	        (":s 005 me -AWAYLEN -NEVERSEEN NETWORK=Insp\\x20Lab bad!name "
	         ":are supported by this server"),
	        ":other 105 me CRAWLER=index:deny :are supported by remote",
	};
	heed_irc_isupport *is = isupport_of(lines, HEED_ARRAY_SIZE(lines));
	const char *v;
	bool has;
	(void)state;

	assert_string_equal(heed_irc_isupport_network(is), "Insp Lab");
	assert_string_equal(heed_irc_isupport_chantypes(is), "#");
	assert_string_equal(heed_irc_isupport_casemapping(is), "rfc1459");
	assert_string_equal(heed_irc_isupport_elist(is), "CMNTU");
	assert_true(heed_irc_isupport_safelist(is));
	assert_int_equal(heed_irc_isupport_bot_mode(is), 'B');
	assert_int_equal(heed_irc_isupport_nicklen(is), 30);
	assert_int_equal(heed_irc_isupport_maxtargets(is), 20);
	assert_false(heed_irc_isupport_get(is, "AWAYLEN", NULL, NULL));
	assert_true(heed_irc_isupport_get(is, "EMPTY", &v, &has));
	assert_false(has);
	assert_true(heed_irc_isupport_get(is, "SAFELIST", &v, &has));
	assert_false(has);
	assert_true(heed_irc_isupport_get(is, "ESC", &v, &has));
	assert_string_equal(v, "a b=c\\\\xZZ");
	/* 105 is never applied, and the human text is not a token. */
	assert_false(heed_irc_isupport_get(is, "CRAWLER", NULL, NULL));
	assert_false(heed_irc_isupport_get(is, "are", NULL, NULL));
	assert_int_equal(heed_irc_isupport_skipped(is), 1);
	heed_irc_isupport_free(is);
}

static void test_isupport_defaults_and_oom(void **state)
{
	static const char *const none[] = {":s 001 me :hi"};
	static struct heed_irc_msg m;
	heed_irc_isupport *is = isupport_of(none, 0);
	(void)state;

	assert_string_equal(heed_irc_isupport_chantypes(is), "#&");
	assert_string_equal(heed_irc_isupport_casemapping(is), "rfc1459");
	assert_int_equal(heed_irc_isupport_nicklen(is), 9);
	assert_int_equal(heed_irc_isupport_maxtargets(is), -1);
	assert_int_equal(heed_irc_isupport_bot_mode(is), 0);
	assert_int_equal(heed_irc_msg_parse(&m, none[0], strlen(none[0])),
	                 HEED_OK);
	assert_int_equal(heed_irc_isupport_apply(is, &m), HEED_EINVAL);
	heed_irc_isupport_free(is);

	const char *line = ":s 005 me A=1 B=2 C=3 :are supported";
	assert_int_equal(heed_irc_msg_parse(&m, line, strlen(line)), HEED_OK);
	for (unsigned long n = 0;; n++) {
		struct heed_test_fail f = {.fail_at = n};
		heed_status rc = heed_irc_isupport_new(
		        &is, heed_test_failing_allocator(&f));
		if (rc == HEED_OK)
			rc = heed_irc_isupport_apply(is, &m);
		heed_irc_isupport_free(is);
		is = NULL;
		if (rc == HEED_OK)
			break;
		assert_int_equal(rc, HEED_ENOMEM);
	}
}

/* ---- CRAWLER ----------------------------------------------------------- */

static const struct crawler_case {
	const char *name, *value;
	bool has_value;
	heed_irc_crawler_verdict verdict;
	int64_t cooldown;
	unsigned problems;
} crawler_cases[] = {
        {"spec example: allow hourly", "index:allow,cooldown:3600", true,
         HEED_IRC_CRAWLER_ALLOW, 3600, 0},
        {"spec example: deny yearly", "index:deny,cooldown:31536000", true,
         HEED_IRC_CRAWLER_DENY, 31536000, 0},
        {"spec: cooldown defaults to 3600", "index:allow", true,
         HEED_IRC_CRAWLER_ALLOW, 3600, 0},
        {"spec: key order is free", "cooldown:60,index:allow", true,
         HEED_IRC_CRAWLER_ALLOW, 60, 0},
        {"spec: cooldown 0 is a duration", "index:allow,cooldown:0", true,
         HEED_IRC_CRAWLER_ALLOW, 0, 0},
        {"spec: MUST ignore a token without value (CRAWLER)", NULL, false,
         HEED_IRC_CRAWLER_NONE, 3600, HEED_IRC_CRAWLER_NO_VALUE},
        {"spec: MUST ignore a token without value (CRAWLER=)", "", true,
         HEED_IRC_CRAWLER_NONE, 3600, HEED_IRC_CRAWLER_NO_VALUE},
        {"spec: index MUST be specified", "cooldown:60", true,
         HEED_IRC_CRAWLER_INVALID, 3600, HEED_IRC_CRAWLER_NO_INDEX},
        {"spec: index is allow or deny", "index:maybe", true,
         HEED_IRC_CRAWLER_INVALID, 3600, HEED_IRC_CRAWLER_BAD_INDEX},
        {"spec: index without value", "index", true, HEED_IRC_CRAWLER_INVALID,
         3600, HEED_IRC_CRAWLER_BAD_INDEX},
        {"split at first colon: allow:x is not allow", "index:allow:x", true,
         HEED_IRC_CRAWLER_INVALID, 3600, HEED_IRC_CRAWLER_BAD_INDEX},
        {"values are case-sensitive", "index:ALLOW", true,
         HEED_IRC_CRAWLER_INVALID, 3600, HEED_IRC_CRAWLER_BAD_INDEX},
        {"spec: keys at most once (index)",
         "cooldown:60,index:allow,index:deny,Index:DENY", true,
         HEED_IRC_CRAWLER_INVALID, 3600,
         HEED_IRC_CRAWLER_DUPLICATE_KEY | HEED_IRC_CRAWLER_UNKNOWN_KEY |
                 HEED_IRC_CRAWLER_KEY_CASE},
        {"spec: keys at most once (cooldown)",
         "index:allow,cooldown:60,cooldown:60", true, HEED_IRC_CRAWLER_INVALID,
         3600, HEED_IRC_CRAWLER_DUPLICATE_KEY},
        {"keys match exactly: Index is unknown", "Index:allow", true,
         HEED_IRC_CRAWLER_INVALID, 3600,
         HEED_IRC_CRAWLER_NO_INDEX | HEED_IRC_CRAWLER_UNKNOWN_KEY |
                 HEED_IRC_CRAWLER_KEY_CASE},
        {"unknown keys ignored, as STS does", "index:allow,note:a b=cd,x", true,
         HEED_IRC_CRAWLER_ALLOW, 3600, HEED_IRC_CRAWLER_UNKNOWN_KEY},
        {"cooldown non-numeric falls back", "index:allow,cooldown:1h", true,
         HEED_IRC_CRAWLER_ALLOW, 3600, HEED_IRC_CRAWLER_BAD_COOLDOWN},
        {"cooldown negative falls back", "index:deny,cooldown:-5", true,
         HEED_IRC_CRAWLER_DENY, 3600, HEED_IRC_CRAWLER_BAD_COOLDOWN},
        {"cooldown overflowing falls back",
         "index:allow,cooldown:99999999999999999999", true,
         HEED_IRC_CRAWLER_ALLOW, 3600, HEED_IRC_CRAWLER_BAD_COOLDOWN},
        {"cooldown INT64_MAX is kept",
         "index:deny,cooldown:9223372036854775807", true, HEED_IRC_CRAWLER_DENY,
         INT64_MAX, 0},
        {"cooldown empty falls back", "index:allow,cooldown:", true,
         HEED_IRC_CRAWLER_ALLOW, 3600, HEED_IRC_CRAWLER_BAD_COOLDOWN},
        {"cooldown with space falls back", "index:allow,cooldown: 60", true,
         HEED_IRC_CRAWLER_ALLOW, 3600, HEED_IRC_CRAWLER_BAD_COOLDOWN},
        {"empty items ignored", ",index:deny,,", true, HEED_IRC_CRAWLER_DENY,
         3600, HEED_IRC_CRAWLER_EMPTY_DATUM},
        {"garbage", "\x01\xff;;==", true, HEED_IRC_CRAWLER_INVALID, 3600,
         HEED_IRC_CRAWLER_NO_INDEX | HEED_IRC_CRAWLER_UNKNOWN_KEY},
        {"invalid token ignores its own cooldown", "cooldown:99999", true,
         HEED_IRC_CRAWLER_INVALID, 3600, HEED_IRC_CRAWLER_NO_INDEX},
};

static void test_crawler_parse(void **state)
{
	(void)state;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(crawler_cases); i++) {
		const struct crawler_case *c = &crawler_cases[i];
		struct heed_irc_crawler_pref p;
		heed_irc_crawler_parse(c->value,
		                       c->value ? strlen(c->value) : 0,
		                       c->has_value, &p);
		if (p.verdict != c->verdict || p.cooldown_s != c->cooldown ||
		    p.problems != c->problems)
			fail_msg("%s: got %s/%lld/%#x, want %s/%lld/%#x",
			         c->name,
			         heed_irc_crawler_verdict_name(p.verdict),
			         (long long)p.cooldown_s, p.problems,
			         heed_irc_crawler_verdict_name(c->verdict),
			         (long long)c->cooldown, c->problems);
		if (heed_irc_crawler_denies(&p) !=
		    (c->verdict == HEED_IRC_CRAWLER_DENY ||
		     c->verdict == HEED_IRC_CRAWLER_INVALID))
			fail_msg("%s: denies", c->name);
	}
}

static void test_crawler_from_isupport(void **state)
{
	static const char *const lines[] = {
	        ":s 005 me CRAWLER=index:allow,note:a\\x20b\\x3Dcd :are supp",
	};
	heed_irc_isupport *is = isupport_of(lines, 1);
	struct heed_irc_crawler_pref p;
	char text[256];
	(void)state;

	heed_irc_crawler_from_isupport(is, &p);
	assert_int_equal(p.verdict, HEED_IRC_CRAWLER_ALLOW);
	assert_int_equal(p.problems, HEED_IRC_CRAWLER_UNKNOWN_KEY);
	heed_irc_crawler_describe_problems(p.problems, text, sizeof(text));
	assert_string_equal(text, "unknown key ignored");
	heed_irc_isupport_free(is);
}

static void test_crawler_merge(void **state)
{
	struct heed_irc_crawler_pref a = {HEED_IRC_CRAWLER_ALLOW, 60, 0};
	struct heed_irc_crawler_pref d = {HEED_IRC_CRAWLER_DENY, 30,
	                                  HEED_IRC_CRAWLER_UNKNOWN_KEY};
	struct heed_irc_crawler_pref n = {HEED_IRC_CRAWLER_NONE, 3600, 0};
	(void)state;

	/* "the most restrictive value and the longest cooldown win" */
	heed_irc_crawler_merge(&a, &d);
	assert_int_equal(a.verdict, HEED_IRC_CRAWLER_DENY);
	assert_int_equal(a.cooldown_s, 60);
	assert_int_equal(a.problems, HEED_IRC_CRAWLER_UNKNOWN_KEY);
	heed_irc_crawler_merge(&d, &n);
	assert_int_equal(d.verdict, HEED_IRC_CRAWLER_DENY);
	assert_int_equal(d.cooldown_s, 3600);
}

static const struct revisit_case {
	const char *name;
	heed_irc_visit_status status;
	heed_irc_crawler_verdict verdict;
	int64_t cooldown, want_delay;
} revisit_cases[] = {
        {"allow: cooldown counts from the end", HEED_IRC_VISIT_COMPLETE,
         HEED_IRC_CRAWLER_ALLOW, 7200, 7200},
        {"operator floor wins over a short cooldown", HEED_IRC_VISIT_COMPLETE,
         HEED_IRC_CRAWLER_ALLOW, 10, 600},
        {"deny: its cooldown", HEED_IRC_VISIT_DENIED, HEED_IRC_CRAWLER_DENY,
         31536000, 31536000},
        {"no token: the operator floor", HEED_IRC_VISIT_COMPLETE,
         HEED_IRC_CRAWLER_NONE, 3600, 600},
        {"failed: backoff", HEED_IRC_VISIT_FAILED, HEED_IRC_CRAWLER_NONE, 3600,
         1800},
        {"banned: days", HEED_IRC_VISIT_BANNED, HEED_IRC_CRAWLER_NONE, 3600,
         604800},
        {"STS upgrade: at once, over TLS", HEED_IRC_VISIT_STS_UPGRADE,
         HEED_IRC_CRAWLER_NONE, 3600, 0},
        {"huge cooldown saturates", HEED_IRC_VISIT_DENIED,
         HEED_IRC_CRAWLER_DENY, INT64_MAX, INT64_MAX - 1000},
        /* a server heed could not reach saw no visit to cool down from */
        {"unreachable: heed's short retry, under the floor",
         HEED_IRC_VISIT_UNREACHABLE, HEED_IRC_CRAWLER_NONE, 3600, 300},
        {"stopped before the burst: no wait of its own", HEED_IRC_VISIT_STOPPED,
         HEED_IRC_CRAWLER_NONE, 3600, 0},
        {"stopped after a token: its cooldown stays", HEED_IRC_VISIT_STOPPED,
         HEED_IRC_CRAWLER_ALLOW, 7200, 7200},
};

static void test_next_visit(void **state)
{
	struct heed_irc_revisit_policy pol = {600, 1800, 604800, 300};
	(void)state;

	for (size_t i = 0; i < HEED_ARRAY_SIZE(revisit_cases); i++) {
		const struct revisit_case *c = &revisit_cases[i];
		struct heed_irc_crawler_pref p = {c->verdict, c->cooldown, 0};
		int64_t got = heed_irc_next_visit_s(&pol, c->status, &p, 1000);
		if (got - 1000 != c->want_delay)
			fail_msg("%s: delay %lld", c->name,
			         (long long)(got - 1000));
	}
}

/* ---- The visit state machine ------------------------------------------- */

struct recorder {
	char sent[8192];
	char channels[2048];
	char links[1024];
	int closes, ends, stss, prefs, lists;
	heed_irc_visit_status status;
	const char *links_reply, *list_reply[2];
	const char *pending; /* server lines to feed next */
	int64_t now_ms, last_paced_ms, min_gap_ms;
};

/* Commands that must respect the pace after registration. */
static bool paced(const char *line)
{
	return strncmp(line, "MODE", 4) == 0 ||
	       strncmp(line, "LUSERS", 6) == 0 ||
	       strncmp(line, "LINKS", 5) == 0 || strncmp(line, "LIST", 4) == 0;
}

static void record_send(struct recorder *r, const char *line)
{
	strncat(r->sent, line, sizeof(r->sent) - strlen(r->sent) - 1);
	if (paced(line)) {
		if (r->last_paced_ms >= 0 &&
		    r->now_ms - r->last_paced_ms < r->min_gap_ms)
			r->min_gap_ms = r->now_ms - r->last_paced_ms;
		r->last_paced_ms = r->now_ms;
	}
	if (strncmp(line, "LINKS", 5) == 0)
		r->pending = r->links_reply;
	if (strncmp(line, "LIST", 4) == 0)
		r->pending = r->list_reply[r->lists++ ? 1 : 0];
}

static void record(void *ud, const struct heed_irc_action *a)
{
	struct recorder *r = ud;
	char tmp[600];

	switch (a->kind) {
	case HEED_IRC_ACT_SEND:
		record_send(r, a->line);
		break;
	case HEED_IRC_ACT_CHANNEL:
		snprintf(tmp, sizeof(tmp), "%s %lld %s|", a->channel,
		         (long long)a->users, a->topic);
		strncat(r->channels, tmp,
		        sizeof(r->channels) - strlen(r->channels) - 1);
		break;
	case HEED_IRC_ACT_LINK:
		snprintf(tmp, sizeof(tmp), "%s<%s:%d:%s|", a->link_name,
		         a->link_hub, a->link_hops, a->link_info);
		strncat(r->links, tmp, sizeof(r->links) - strlen(r->links) - 1);
		break;
	case HEED_IRC_ACT_CLOSE:
		r->closes++;
		break;
	case HEED_IRC_ACT_END:
		r->ends++;
		r->status = a->status;
		break;
	case HEED_IRC_ACT_PREFERENCE:
		r->prefs++;
		break;
	case HEED_IRC_ACT_STS:
		r->stss++;
		break;
	default:
		break;
	}
}

/* Feeds '\n'-separated server lines; "CLOSE" closes the connection. */
static void feed(heed_irc_session *s, struct recorder *r, const char *lines)
{
	while (lines && *lines &&
	       heed_irc_session_status(s) == HEED_IRC_VISIT_RUNNING) {
		size_t n = strcspn(lines, "\n");
		if (n == 5 && strncmp(lines, "CLOSE", 5) == 0)
			heed_irc_session_closed(s, "reset by peer", r->now_ms);
		else
			heed_irc_session_line(s, lines, n, r->now_ms);
		lines += n + (lines[n] == '\n');
	}
}

#define WELCOME                                             \
	":s CAP * LS :multi-prefix\n:s 001 heed :Welcome\n" \
	":s 004 heed s.test ircd-1.0 io bkl\n"              \
	":s 005 heed NETWORK=Test CHANTYPES=#& BOT=B :are supported\n"
#define MOTD                                                            \
	":s 251 heed :There are 3 users and 1 invisible on 2 servers\n" \
	":s 254 heed 4 :channels formed\n:s 376 heed :End of MOTD\n"
#define LINKS_OK                                  \
	":s 364 heed b.test s.test :1 Server B\n" \
	":s 364 heed s.test s.test :0 Server S\n:s 365 heed * :End\n"
#define LIST_OK                                                        \
	":s 321 heed Channel :Users Name\n"                            \
	":s 322 heed #a 3 :[+nt] topic :x\n:s 322 heed &local 1 :no\n" \
	":s 322 heed * 1 :\n:s 322 heed #b 1 :\n:s 323 heed :End\n"
#define CHANNELS_OK "#a 3 topic :x|#b 1 |"

static const struct session_case {
	const char *name;
	bool tls, require_consent, check_only;
	int64_t visit_limit_ms;
	const char *burst, *links, *list1, *list2;
	heed_irc_visit_status want;
	const char *must_send, *must_not_send, *channels;
	int lists;
} session_cases[] = {
        {"allow/no token: full crawl, BOT mode, filtered channels", false,
         false, false, 0, WELCOME MOTD, LINKS_OK, LIST_OK, NULL,
         HEED_IRC_VISIT_COMPLETE,
         "CAP LS 302\r\nNICK heed\r\nUSER heed 0 * :real\r\nCAP END\r\n"
         "MODE heed +B\r\nLUSERS\r\nLINKS\r\nLIST\r\nQUIT :",
         NULL, CHANNELS_OK, 1},
        {"spec: index:deny quits at once, no LIST/LINKS", false, false, false,
         0, WELCOME ":s 005 heed CRAWLER=index:deny,cooldown:60 :are\n" MOTD,
         LINKS_OK, LIST_OK, NULL, HEED_IRC_VISIT_DENIED, "QUIT :", "LIST", "",
         0},
        {"duplicate key reads as deny", false, false, false, 0,
         WELCOME ":s 005 heed CRAWLER=index:allow,index:allow :are\n" MOTD,
         LINKS_OK, LIST_OK, NULL, HEED_IRC_VISIT_DENIED, "QUIT :", "LUSERS", "",
         0},
        {"token without value ignored", false, false, false, 0,
         WELCOME ":s 005 heed CRAWLER :are\n" MOTD, LINKS_OK, LIST_OK, NULL,
         HEED_IRC_VISIT_COMPLETE, "LIST", NULL, CHANNELS_OK, 1},
        {"token on a later 005 line of the burst", false, false, false, 0,
         WELCOME
         ":s 005 heed A=1 :are\n:s 005 heed CRAWLER=index:deny :are\n" MOTD,
         LINKS_OK, LIST_OK, NULL, HEED_IRC_VISIT_DENIED, "QUIT", "LINKS", "",
         0},
        {"105 never applied", false, false, false, 0,
         WELCOME ":t 105 heed CRAWLER=index:deny :remote\n" MOTD, LINKS_OK,
         LIST_OK, NULL, HEED_IRC_VISIT_COMPLETE, "LIST", NULL, CHANNELS_OK, 1},
        {"later index:deny ends the visit at once", false, false, false, 0,
         WELCOME MOTD,
         ":s 005 heed CRAWLER=index:deny :are supported\n" LINKS_OK, LIST_OK,
         NULL, HEED_IRC_VISIT_DENIED, "LINKS\r\nQUIT", "LIST", "", 0},
        {"require consent: no token means no crawl", false, true, false, 0,
         WELCOME MOTD, LINKS_OK, LIST_OK, NULL, HEED_IRC_VISIT_NO_CONSENT,
         "QUIT", "LUSERS", "", 0},
        {"require consent: allow crawls", false, true, false, 0,
         WELCOME ":s 005 heed CRAWLER=index:allow :are\n" MOTD, LINKS_OK,
         LIST_OK, NULL, HEED_IRC_VISIT_COMPLETE, "LIST", NULL, CHANNELS_OK, 1},
        {"require consent: a later -CRAWLER stops", false, true, false, 0,
         WELCOME ":s 005 heed CRAWLER=index:allow :are\n" MOTD,
         ":s 005 heed -CRAWLER :are supported\n" LINKS_OK, LIST_OK, NULL,
         HEED_IRC_VISIT_NO_CONSENT, "LINKS", "LIST", "", 0},
        {"InspIRCd refusal: NOTICE + empty list, retried after 3 s", false,
         false, false, 0, WELCOME MOTD, LINKS_OK,
         ":s NOTICE heed :*** You cannot view the channel list right now. "
         "Please try again in 3s.\n:s 321 heed Channel :Users\n"
         ":s 323 heed :End\n",
         LIST_OK, HEED_IRC_VISIT_COMPLETE, "LIST\r\nLIST", NULL, CHANNELS_OK,
         2},
        {"refused twice: partial, never 0 channels", false, false, false, 0,
         WELCOME MOTD, LINKS_OK,
         ":s NOTICE heed :Please try again in 2s\n:s 323 heed :End\n",
         ":s NOTICE heed :Please try again in 2s\n:s 323 heed :End\n",
         HEED_IRC_VISIT_PARTIAL, "LIST\r\nLIST", NULL, "", 2},
        {"UnrealIRCd 421 with no 323", false, false, false, 0, WELCOME MOTD,
         LINKS_OK, ":s 421 heed LIST :You must be connected for a while\n",
         LIST_OK, HEED_IRC_VISIT_COMPLETE, "LIST", NULL, CHANNELS_OK, 2},
        {"Solanum 263 then 323", false, false, false, 0, WELCOME MOTD, LINKS_OK,
         ":s 263 heed LIST :Server load is temporarily too heavy.\n"
         ":s 323 heed :End\n",
         LIST_OK, HEED_IRC_VISIT_COMPLETE, "LIST", NULL, CHANNELS_OK, 2},
        {"ngircd truncation: partial, channels kept", false, false, false, 0,
         WELCOME MOTD, LINKS_OK,
         ":s 322 heed #a 3 :t\n:s NOTICE heed :LIST list limit (1) "
         "reached!\n:s 323 heed :End\n",
         NULL, HEED_IRC_VISIT_PARTIAL, "LIST", NULL, "#a 3 t|", 1},
        {"connection dropped mid-LIST: partial", false, false, false, 0,
         WELCOME MOTD, LINKS_OK, ":s 321 heed C :U\n:s 322 heed #a 3 :t\nCLOSE",
         NULL, HEED_IRC_VISIT_PARTIAL, "LIST", NULL, "#a 3 t|", 1},
        {"K-line before registration: banned", false, false, false, 0,
         "ERROR :Closing link: (x@127.0.0.1) [K-lined: lab]\n", NULL, NULL,
         NULL, HEED_IRC_VISIT_BANNED, "NICK heed", "LUSERS", "", 0},
        {"465: banned", false, false, false, 0, ":s 465 * :You're banned!\n",
         NULL, NULL, NULL, HEED_IRC_VISIT_BANNED, "NICK", "LUSERS", "", 0},
        {"nick collision and PING before 001", false, false, false, 0,
         "PING :tok1\n:s 433 * heed :Nickname in use\n" WELCOME MOTD, LINKS_OK,
         LIST_OK, NULL, HEED_IRC_VISIT_COMPLETE, "PONG :tok1\r\nNICK heed1\r\n",
         NULL, CHANNELS_OK, 1},
        {"STS on plaintext: reconnect with TLS", false, false, false, 0,
         ":s CAP * LS :sts=port=6697,duration=300 multi-prefix\n", NULL, NULL,
         NULL, HEED_IRC_VISIT_STS_UPGRADE, "CAP LS", "CAP END", "", 0},
        {"STS on TLS: policy only, crawl goes on", true, false, false, 0,
         ":s CAP * LS * :multi-prefix\n:s CAP * LS :sts=duration=300\n" WELCOME
                 MOTD,
         LINKS_OK, LIST_OK, NULL, HEED_IRC_VISIT_COMPLETE, "CAP END", NULL,
         CHANNELS_OK, 1},
        {"never finishes registration: failed, bounded", false, false, false, 0,
         ":s NOTICE * :*** Looking up your hostname\n", NULL, NULL, NULL,
         HEED_IRC_VISIT_FAILED, "QUIT", "LUSERS", "", 0},
        {"check only: stops after the burst", false, false, true, 0,
         WELCOME ":s 005 heed CRAWLER=index:allow :are\n" MOTD, NULL, NULL,
         NULL, HEED_IRC_VISIT_CHECKED, "QUIT", "LUSERS", "", 0},
        {"visit time limit: partial", false, false, false, 20000, WELCOME MOTD,
         LINKS_OK, ":s 321 heed C :U\n:s 322 heed #a 3 :t\n", NULL,
         HEED_IRC_VISIT_PARTIAL, "QUIT", NULL, "#a 3 t|", 1},
        {"a CR in a PING token cannot inject a command", false, false, false, 0,
         "PING :a\rQUIT :injected\n", NULL, NULL, NULL, HEED_IRC_VISIT_FAILED,
         "PONG :a\r\n", "injected", "", 0},
        {"a burst with no LUSERS or MOTD ends when the server is quiet", false,
         false, false, 0,
         ":s 001 heed :hi\n:s 005 heed CRAWLER=index:allow :are\n", LINKS_OK,
         LIST_OK, NULL, HEED_IRC_VISIT_COMPLETE, "LIST", NULL, CHANNELS_OK, 1},
        {"closed before 001: failed", false, false, false, 0, "CLOSE", NULL,
         NULL, NULL, HEED_IRC_VISIT_FAILED, "NICK", "LUSERS", "", 0},
};

static void run_case(const struct session_case *c)
{
	struct heed_irc_session_config cfg = {0};
	struct recorder *r = test_calloc(1, sizeof(*r));
	heed_irc_session *s;

	cfg.realname = "real";
	cfg.tls = c->tls;
	cfg.require_consent = c->require_consent;
	cfg.check_only = c->check_only;
	cfg.visit_limit_ms = c->visit_limit_ms;
	r->links_reply = c->links;
	r->list_reply[0] = c->list1;
	r->list_reply[1] = c->list2;
	r->last_paced_ms = -1;
	r->min_gap_ms = INT64_MAX;
	assert_int_equal(heed_irc_session_new(&s, &cfg, record, r,
	                                      heed_test_allocator()),
	                 HEED_OK);
	heed_irc_session_connected(s, 0);
	r->now_ms = 100;
	feed(s, r, c->burst);
	/* Time moves in 250 ms steps, bounded at 10 minutes. */
	for (r->now_ms = 250; r->now_ms < 600000 && !r->ends;
	     r->now_ms += 250) {
		const char *p = r->pending;
		r->pending = NULL;
		feed(s, r, p);
		if (!r->ends)
			heed_irc_session_tick(s, r->now_ms);
	}
	if (r->status != c->want || r->ends != 1 || r->closes != 1)
		fail_msg("%s: status %s, %d ends, %d closes; sent:\n%s",
		         c->name, heed_irc_visit_status_name(r->status),
		         r->ends, r->closes, r->sent);
	if (c->must_send && !strstr(r->sent, c->must_send))
		fail_msg("%s: did not send '%s'; sent:\n%s", c->name,
		         c->must_send, r->sent);
	if (c->must_not_send && strstr(r->sent, c->must_not_send))
		fail_msg("%s: sent '%s'; sent:\n%s", c->name, c->must_not_send,
		         r->sent);
	if (c->channels && strcmp(r->channels, c->channels) != 0)
		fail_msg("%s: channels '%s'", c->name, r->channels);
	if (r->lists != c->lists)
		fail_msg("%s: %d LISTs", c->name, r->lists);
	/* "at most one command per 2 seconds after registration" */
	if (r->min_gap_ms < 2000)
		fail_msg("%s: commands %lld ms apart", c->name,
		         (long long)r->min_gap_ms);
	heed_irc_session_free(s);
	test_free(r);
}

static void test_session(void **state)
{
	(void)state;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(session_cases); i++)
		run_case(&session_cases[i]);
}

static void test_session_links(void **state)
{
	struct heed_irc_session_config cfg = {0};
	struct recorder *r = test_calloc(1, sizeof(*r));
	heed_irc_session *s;
	(void)state;

	r->links_reply = ":s 364 heed b.test s.test :1 Server B\n"
	                 ":s 364 heed hidden.test s.test :Hidden hops\n"
	                 ":s 365 heed * :End\n";
	r->list_reply[0] = LIST_OK;
	assert_int_equal(heed_irc_session_new(&s, &cfg, record, r, NULL),
	                 HEED_OK);
	heed_irc_session_connected(s, 0);
	feed(s, r, WELCOME MOTD);
	for (r->now_ms = 0; r->now_ms < 60000 && !r->ends; r->now_ms += 500) {
		const char *p = r->pending;
		r->pending = NULL;
		feed(s, r, p);
		heed_irc_session_tick(s, r->now_ms);
	}
	assert_string_equal(r->links, "b.test<s.test:1:Server B|"
	                              "hidden.test<s.test:-1:Hidden hops|");
	assert_int_equal(heed_irc_session_channels(s), 2);
	heed_irc_session_free(s);
	test_free(r);
}

/* Runs s until it ends (bounded at a minute of 250 ms ticks). */
static void run_to_end(heed_irc_session *s, struct recorder *r)
{
	for (; r->now_ms < 60000 && !r->ends; r->now_ms += 250) {
		const char *p = r->pending;
		r->pending = NULL;
		feed(s, r, p);
		if (!r->ends)
			heed_irc_session_tick(s, r->now_ms);
	}
}

/* A connection never made ends UNREACHABLE with nothing sent;
 * the operator's stop QUITs politely whenever it comes. */
static void test_session_unreachable_and_stop(void **state)
{
	struct heed_irc_session_config cfg = {0};
	struct recorder *r = test_calloc(1, sizeof(*r));
	heed_irc_session *s;
	(void)state;

	cfg.realname = "real";
	assert_int_equal(heed_irc_session_new(&s, &cfg, record, r, NULL),
	                 HEED_OK);
	heed_irc_session_unreachable(s, "127.0.0.1: Connection refused", 0);
	assert_int_equal(r->ends, 1);
	assert_int_equal(r->status, HEED_IRC_VISIT_UNREACHABLE);
	assert_string_equal(r->sent, "");
	/* Only before the connection: later it changes nothing. */
	heed_irc_session_unreachable(s, "again", 0);
	heed_irc_session_stop(s, 0);
	assert_int_equal(r->ends, 1);
	heed_irc_session_free(s);

	/* Stopped before the connection: nothing sent. */
	memset(r, 0, sizeof(*r));
	assert_int_equal(heed_irc_session_new(&s, &cfg, record, r, NULL),
	                 HEED_OK);
	heed_irc_session_stop(s, 0);
	assert_int_equal(r->ends, 1);
	assert_int_equal(r->status, HEED_IRC_VISIT_STOPPED);
	assert_string_equal(r->sent, "");
	heed_irc_session_free(s);

	/* Stopped while registering: QUIT, STOPPED, no crawl command. */
	memset(r, 0, sizeof(*r));
	assert_int_equal(heed_irc_session_new(&s, &cfg, record, r, NULL),
	                 HEED_OK);
	heed_irc_session_connected(s, 0);
	heed_irc_session_stop(s, 10);
	run_to_end(s, r);
	assert_int_equal(r->status, HEED_IRC_VISIT_STOPPED);
	assert_non_null(strstr(r->sent, "QUIT"));
	assert_null(strstr(r->sent, "LUSERS"));
	heed_irc_session_free(s);

	/* Stopped mid-crawl: QUIT, and what was listed counts as partial. */
	memset(r, 0, sizeof(*r));
	r->links_reply = LINKS_OK;
	r->list_reply[0] = LIST_OK;
	assert_int_equal(heed_irc_session_new(&s, &cfg, record, r, NULL),
	                 HEED_OK);
	heed_irc_session_connected(s, 0);
	feed(s, r, WELCOME MOTD);
	for (r->now_ms = 250; !strstr(r->sent, "LUSERS") && r->now_ms < 30000;
	     r->now_ms += 250)
		heed_irc_session_tick(s, r->now_ms);
	heed_irc_session_stop(s, r->now_ms);
	run_to_end(s, r);
	assert_int_equal(r->ends, 1);
	assert_int_equal(r->status, HEED_IRC_VISIT_PARTIAL);
	assert_non_null(strstr(r->sent, "QUIT"));
	assert_null(strstr(r->sent, "LIST\r\n"));
	heed_irc_session_free(s);
	test_free(r);
}

static void test_session_oom(void **state)
{
	struct heed_irc_session_config cfg = {0};
	heed_irc_session *s = NULL;
	(void)state;

	for (unsigned long n = 0;; n++) {
		struct heed_test_fail f = {.fail_at = n};
		heed_status rc =
		        heed_irc_session_new(&s, &cfg, record, NULL,
		                             heed_test_failing_allocator(&f));
		heed_irc_session_free(s);
		if (rc == HEED_OK)
			break;
		assert_int_equal(rc, HEED_ENOMEM);
	}
}

static const struct target_case {
	const char *text;
	heed_status want;
	const char *host, *key;
	int port;
	bool tls;
} target_cases[] = {
        {"irc.Example.net", HEED_OK, "irc.example.net", "irc.example.net:6667",
         6667, false},
        {"irc.example.net:7000", HEED_OK, "irc.example.net",
         "irc.example.net:7000", 7000, false},
        {"ircs://irc.example.net", HEED_OK, "irc.example.net",
         "irc.example.net:6697", 6697, true},
        {"ircs://127.0.0.1:7001/", HEED_OK, "127.0.0.1", "127.0.0.1:7001", 7001,
         true},
        {"irc://[::1]:6668", HEED_OK, "::1", "[::1]:6668", 6668, false},
        {"::1", HEED_OK, "::1", "[::1]:6667", 6667, false},
        {"", HEED_EINVAL, NULL, NULL, 0, false},
        {"host:0", HEED_EINVAL, NULL, NULL, 0, false},
        {"host:70000", HEED_EINVAL, NULL, NULL, 0, false},
        {"host:12a", HEED_EINVAL, NULL, NULL, 0, false},
        {"http://host", HEED_EINVAL, NULL, NULL, 0, false},
        {"ho st", HEED_EINVAL, NULL, NULL, 0, false},
        {"[::1", HEED_EINVAL, NULL, NULL, 0, false},
};

static void test_target_parse(void **state)
{
	(void)state;
	for (size_t i = 0; i < HEED_ARRAY_SIZE(target_cases); i++) {
		const struct target_case *c = &target_cases[i];
		struct heed_irc_target t;
		struct heed_diag d = {0};
		heed_status rc = heed_irc_target_parse(c->text, &t, &d);
		if (rc != c->want)
			fail_msg("'%s': %s", c->text, heed_status_name(rc));
		if (rc != HEED_OK) {
			if (!d.message[0])
				fail_msg("'%s': no reason given", c->text);
			continue;
		}
		if (strcmp(t.host, c->host) || strcmp(t.key, c->key) ||
		    t.port != c->port || t.tls != c->tls)
			fail_msg("'%s': %s %s %d %d", c->text, t.host, t.key,
			         t.port, t.tls);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_msg_parse),
	        cmocka_unit_test(test_msg_limits),
	        cmocka_unit_test(test_reader),
	        cmocka_unit_test(test_isupport_forms),
	        cmocka_unit_test(test_isupport_defaults_and_oom),
	        cmocka_unit_test(test_crawler_parse),
	        cmocka_unit_test(test_crawler_from_isupport),
	        cmocka_unit_test(test_crawler_merge),
	        cmocka_unit_test(test_next_visit),
	        cmocka_unit_test(test_session_unreachable_and_stop),
	        cmocka_unit_test(test_session),
	        cmocka_unit_test(test_session_links),
	        cmocka_unit_test(test_session_oom),
	        cmocka_unit_test(test_target_parse),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
