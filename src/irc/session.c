/*
 * The visit of one IRC network as a state machine (shared/notes/irc.md
 * sections 2-5 for what real servers do).
 *
 *   CONNECTING -> REGISTERING -> BURST -> WELCOME -> CRAWL -> QUITTING -> DONE
 *
 * REGISTERING sends CAP LS 302, NICK and USER, ends CAP negotiation after
 * the last LS line and answers PING even before 001. BURST collects 001-005
 * and nothing else: the CRAWLER token may arrive on any 005 line, so the
 * decision waits for the first numeric of 200 or more (normally 251 or 375).
 * Then index:deny (or a token breaking the spec) means QUIT at once; allow
 * or no token means WELCOME (wait for the end of the MOTD) and CRAWL: BOT
 * mode when advertised, LUSERS, LINKS and LIST, one command per pace_ms and
 * never two lists at once, then QUIT. Later 005 lines still count: a
 * -CRAWLER removes the token, a later deny ends the visit at once.
 *
 * LIST refusals never read as "0 channels": 263, 421 or another error
 * naming LIST, or a NOTICE during the list that says to try again, mark the
 * list refused; it is retried once after the delay the server names (when
 * the visit's time allows), otherwise the visit is PARTIAL. ngircd's
 * "list limit reached" NOTICE marks the list truncated (PARTIAL).
 *
 * Every action goes out through emit(); channels are emitted one by one as
 * 322 lines arrive, so a 100,000-channel list is never held in memory. All
 * state changes go through set_state(), which logs "from -> to".
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "irc/irc-int.h"

#define DEFAULT_PACE_MS           2000
#define MIN_PACE_MS               2000
#define DEFAULT_VISIT_LIMIT_MS    (5 * 60 * 1000)
#define DEFAULT_REGISTER_LIMIT_MS (60 * 1000)
#define DEFAULT_LIST_RETRY_MAX_MS (120 * 1000)
/* Waiting for the MOTD to end before the first command. */
#define MOTD_WAIT_MS 10000
/* A reply (365, 323) that does not come within this is given up. */
#define REPLY_IDLE_MS 60000
/* After QUIT, how long to wait for the server's ERROR and close. */
#define QUIT_WAIT_MS 5000
/* A burst with no numeric after it (no LUSERS, no MOTD) ends when the
 * server has been quiet this long. */
#define BURST_QUIET_MS 5000
/* Delay before a LIST retry when the server names none (Solanum paces
 * LIST at 10 s). */
#define LIST_RETRY_DEFAULT_S 15
#define MAX_NICK_TRIES       5
#define NICK_MAX             64
#define TEXT_MAX             256

enum state {
	ST_CONNECTING,  /* waiting for the connection */
	ST_REGISTERING, /* NICK/USER sent, waiting for 001 */
	ST_BURST,       /* 001 seen, reading 002-005 */
	ST_WELCOME,     /* decided to crawl, waiting for the end of MOTD */
	ST_CRAWL,       /* sending the paced commands */
	ST_QUITTING,    /* QUIT sent, waiting for the close */
	ST_DONE,        /* END emitted */
};

static const char *const state_names[] = {
        "connecting", "registering", "burst", "welcome",
        "crawl",      "quitting",    "done",
};

enum step {
	STEP_BOT,    /* MODE nick +<BOT letter>, when advertised */
	STEP_LUSERS, /* LUSERS */
	STEP_LINKS,  /* LINKS, wait for 365 */
	STEP_LIST,   /* LIST, wait for 323 or a refusal */
	STEP_QUIT,   /* QUIT */
};

enum wait {
	WAIT_NONE,
	WAIT_LINKS,
	WAIT_LIST,
};

struct heed_irc_session {
	const struct heed_allocator *alloc;
	struct heed_irc_session_config cfg;
	char *strings; /* the copied cfg strings, one block */
	heed_irc_emit_fn *emit;
	void *ud;

	enum state state;
	enum step step;
	enum wait wait;
	heed_irc_visit_status status;
	heed_irc_visit_status quit_status; /* the status once closed */
	char reason[TEXT_MAX];

	struct heed_irc_reader reader;
	struct heed_irc_msg msg;
	heed_irc_isupport *isupport;
	bool got_005;
	bool cap_ended;
	char nick[NICK_MAX];
	int nick_tries;
	char server_name[TEXT_MAX];
	char server_version[TEXT_MAX];

	struct heed_irc_crawler_pref pref;   /* the current token */
	struct heed_irc_crawler_pref merged; /* strongest seen this visit */

	struct heed_irc_lusers lusers;
	bool lusers_seen;

	int64_t visit_deadline_ms, register_deadline_ms, motd_deadline_ms;
	int64_t next_cmd_ms, wait_deadline_ms, quit_deadline_ms;
	int64_t last_line_ms; /* when the server last sent a line */

	int list_tries;
	uint64_t list_channels; /* channels of the current LIST */
	bool list_refused, list_truncated;
	int64_t list_delay_s; /* delay the server named, or -1 */
	bool links_done, list_done, partial;

	uint64_t channels;
	uint64_t bad_lines;
};

/* ---- Emitting ------------------------------------------------------------ */

static void emit_plain(heed_irc_session *s, heed_irc_action_kind kind)
{
	struct heed_irc_action a;

	memset(&a, 0, sizeof(a));
	a.kind = kind;
	s->emit(s->ud, &a);
}

static void logf_(heed_irc_session *s, const char *fmt, ...)
        __attribute__((format(printf, 2, 3)));

static void logf_(heed_irc_session *s, const char *fmt, ...)
{
	struct heed_irc_action a;
	char text[TEXT_MAX * 2];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	memset(&a, 0, sizeof(a));
	a.kind = HEED_IRC_ACT_LOG;
	a.line = text;
	a.line_len = strlen(text);
	s->emit(s->ud, &a);
}

static void sendf(heed_irc_session *s, const char *fmt, ...)
        __attribute__((format(printf, 2, 3)));

/* Sends one line, cut to the 512-byte limit so a long nick or realname
 * from the configuration can never make the server drop us (417). */
static void sendf(heed_irc_session *s, const char *fmt, ...)
{
	struct heed_irc_action a;
	char line[HEED_IRC_LINE_MAX + 1];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, HEED_IRC_LINE_MAX - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n > HEED_IRC_LINE_MAX - 2)
		n = HEED_IRC_LINE_MAX - 2;
	/* Text echoed from the server (a PING token, our nick from 001) may
	 * hold a bare CR: cut there, so a hostile server can never make heed
	 * send a second command of its choosing. */
	n = (int)strcspn(line, "\r\n");
	line[n++] = '\r';
	line[n++] = '\n';
	line[n] = '\0';
	memset(&a, 0, sizeof(a));
	a.kind = HEED_IRC_ACT_SEND;
	a.line = line;
	a.line_len = (size_t)n;
	s->emit(s->ud, &a);
}

static void set_state(heed_irc_session *s, enum state to)
{
	if (s->state == to)
		return;
	logf_(s, "state %s -> %s", state_names[s->state], state_names[to]);
	s->state = to;
}

static void set_reason(heed_irc_session *s, const char *fmt, ...)
        __attribute__((format(printf, 2, 3)));

static void set_reason(heed_irc_session *s, const char *fmt, ...)
{
	va_list ap;

	/* The first reason is the one that explains the outcome. */
	if (s->reason[0])
		return;
	va_start(ap, fmt);
	vsnprintf(s->reason, sizeof(s->reason), fmt, ap);
	va_end(ap);
}

/* Ends the visit: LUSERS counts (if any), END, CLOSE. */
static void finish(heed_irc_session *s, heed_irc_visit_status status)
{
	struct heed_irc_action a;

	if (s->state == ST_DONE)
		return;
	if (s->lusers_seen) {
		memset(&a, 0, sizeof(a));
		a.kind = HEED_IRC_ACT_LUSERS;
		a.lusers = s->lusers;
		s->emit(s->ud, &a);
	}
	s->status = status;
	set_state(s, ST_DONE);
	memset(&a, 0, sizeof(a));
	a.kind = HEED_IRC_ACT_END;
	a.status = status;
	a.pref = s->merged;
	a.line = s->reason;
	a.line_len = strlen(s->reason);
	s->emit(s->ud, &a);
	emit_plain(s, HEED_IRC_ACT_CLOSE);
}

/* Says goodbye and waits (briefly) for the server to close. */
static void quit(heed_irc_session *s, heed_irc_visit_status status,
                 const char *message, int64_t now_ms)
{
	if (s->state == ST_QUITTING || s->state == ST_DONE)
		return;
	s->quit_status = status;
	sendf(s, "QUIT :%s", message);
	s->quit_deadline_ms = now_ms + QUIT_WAIT_MS;
	set_state(s, ST_QUITTING);
}

/* The status a visit that stops now deserves. */
static heed_irc_visit_status crawl_status(const heed_irc_session *s)
{
	if (s->partial || !s->list_done)
		return HEED_IRC_VISIT_PARTIAL;
	return HEED_IRC_VISIT_COMPLETE;
}

/* ---- Life cycle ---------------------------------------------------------- */

static size_t copy_len(const char *str)
{
	return str ? strlen(str) + 1 : 0;
}

static const char *copy_into(char **cursor, const char *str,
                             const char *fallback)
{
	char *out = *cursor;

	if (!str)
		return fallback;
	memcpy(out, str, strlen(str) + 1);
	*cursor += strlen(str) + 1;
	return out;
}

static void apply_defaults(struct heed_irc_session_config *c)
{
	if (c->pace_ms < MIN_PACE_MS)
		c->pace_ms = c->pace_ms <= 0 ? DEFAULT_PACE_MS : MIN_PACE_MS;
	if (c->visit_limit_ms <= 0)
		c->visit_limit_ms = DEFAULT_VISIT_LIMIT_MS;
	if (c->register_limit_ms <= 0)
		c->register_limit_ms = DEFAULT_REGISTER_LIMIT_MS;
	if (c->list_retry_max_ms <= 0)
		c->list_retry_max_ms = DEFAULT_LIST_RETRY_MAX_MS;
}

heed_status heed_irc_session_new(heed_irc_session **out,
                                 const struct heed_irc_session_config *cfg,
                                 heed_irc_emit_fn *emit, void *ud,
                                 const struct heed_allocator *alloc)
{
	heed_irc_session *s;
	size_t n = copy_len(cfg->nick) + copy_len(cfg->username) +
	           copy_len(cfg->realname) + copy_len(cfg->quit_message);
	char *cursor;

	*out = NULL;
	alloc = alloc ? alloc : heed_allocator_default();
	s = heed__calloc(alloc, 1, sizeof(*s));
	if (!s)
		return HEED_ENOMEM;
	s->alloc = alloc;
	s->strings = heed__malloc(alloc, n ? n : 1);
	if (!s->strings ||
	    heed_irc_isupport_new(&s->isupport, alloc) != HEED_OK) {
		heed_irc_session_free(s);
		return HEED_ENOMEM;
	}
	cursor = s->strings;
	s->cfg = *cfg;
	s->cfg.nick = copy_into(&cursor, cfg->nick, "heed");
	s->cfg.username = copy_into(&cursor, cfg->username, "heed");
	s->cfg.realname = copy_into(&cursor, cfg->realname, "heed crawler");
	s->cfg.quit_message =
	        copy_into(&cursor, cfg->quit_message,
	                  "heed crawler: done, thank you for having me");
	apply_defaults(&s->cfg);
	s->emit = emit;
	s->ud = ud;
	heed_irc_reader_init(&s->reader);
	heed_irc_crawler_parse(NULL, 0, false, &s->pref);
	s->pref.problems = 0;
	/* Nothing known yet: merging keeps the longest cooldown seen, so start
	 * below any the network may state. */
	s->merged = s->pref;
	s->merged.cooldown_s = 0;
	s->list_delay_s = -1;
	s->visit_deadline_ms = INT64_MAX;
	s->register_deadline_ms = INT64_MAX;
	snprintf(s->nick, sizeof(s->nick), "%s", s->cfg.nick);
	memset(&s->lusers, 0, sizeof(s->lusers));
	s->lusers.local_users = s->lusers.global_users = -1;
	*out = s;
	return HEED_OK;
}

void heed_irc_session_free(heed_irc_session *s)
{
	if (!s)
		return;
	heed_irc_isupport_free(s->isupport);
	heed__free(s->alloc, s->strings);
	heed__free(s->alloc, s);
}

void heed_irc_session_connected(heed_irc_session *s, int64_t now_ms)
{
	if (s->state != ST_CONNECTING)
		return;
	s->visit_deadline_ms = now_ms + s->cfg.visit_limit_ms;
	s->register_deadline_ms = now_ms + s->cfg.register_limit_ms;
	set_state(s, ST_REGISTERING);
	/* CAP LS 302 first, so a server holds registration until CAP END
	 * and we can read STS before anything else. */
	sendf(s, "CAP LS 302");
	sendf(s, "NICK %s", s->nick);
	sendf(s, "USER %s 0 * :%s", s->cfg.username, s->cfg.realname);
}

/* ---- Registration ------------------------------------------------------ */

/* "sts=port=6697,duration=300" inside a CAP LS list. */
static void read_sts(heed_irc_session *s, const char *caps)
{
	const char *p = strstr(caps, "sts=");
	struct heed_irc_action a;

	while (p && p != caps && p[-1] != ' ')
		p = strstr(p + 1, "sts=");
	if (!p)
		return;
	memset(&a, 0, sizeof(a));
	a.kind = HEED_IRC_ACT_STS;
	a.sts_duration_s = -1;
	for (p += 4; *p && *p != ' ';) {
		long long v = 0;
		if (strncmp(p, "port=", 5) == 0 &&
		    sscanf(p + 5, "%lld", &v) == 1)
			a.sts_port = v > 0 && v < 65536 ? (int)v : 0;
		else if (strncmp(p, "duration=", 9) == 0 &&
		         sscanf(p + 9, "%lld", &v) == 1 && v >= 0)
			a.sts_duration_s = v;
		p += strcspn(p, ", ");
		if (*p == ',')
			p++;
	}
	s->emit(s->ud, &a);
	/* "a client that receives the sts key on an insecure connection
	 * MUST immediately close and reconnect securely" (IRCv3 STS). */
	if (!s->cfg.tls && a.sts_port) {
		set_reason(s, "STS: reconnect with TLS on port %d", a.sts_port);
		finish(s, HEED_IRC_VISIT_STS_UPGRADE);
	}
}

static void on_cap(heed_irc_session *s, const struct heed_irc_msg *m)
{
	const char *sub = heed_irc_msg_param(m, 1);
	bool more = strcmp(heed_irc_msg_param(m, 2), "*") == 0;

	if (strcmp(sub, "LS") != 0)
		return;
	read_sts(s, heed_irc_msg_param(m, more ? 3 : 2));
	if (s->state == ST_DONE || more || s->cap_ended)
		return;
	/* We ask for no capability: the LS was only to read STS. */
	sendf(s, "CAP END");
	s->cap_ended = true;
}

/* 433/432 before 001: try nick1, nick2..., within NICKLEN. */
static void on_bad_nick(heed_irc_session *s, const struct heed_irc_msg *m,
                        int64_t now_ms)
{
	int nicklen = heed_irc_isupport_nicklen(s->isupport);
	size_t base = strlen(s->cfg.nick);

	if (s->state != ST_REGISTERING)
		return;
	if (++s->nick_tries > MAX_NICK_TRIES) {
		set_reason(s, "no usable nick after %d tries (last: %s)",
		           MAX_NICK_TRIES, heed_irc_msg_param(m, 1));
		quit(s, HEED_IRC_VISIT_FAILED, s->cfg.quit_message, now_ms);
		return;
	}
	if (nicklen < 2)
		nicklen = 2;
	if (base > (size_t)nicklen - 1)
		base = (size_t)nicklen - 1;
	if (base >= sizeof(s->nick) - 2)
		base = sizeof(s->nick) - 2;
	snprintf(s->nick, sizeof(s->nick), "%.*s%d", (int)base, s->cfg.nick,
	         s->nick_tries);
	logf_(s, "nick %s refused (%s), trying %s", heed_irc_msg_param(m, 1),
	      m->command, s->nick);
	sendf(s, "NICK %s", s->nick);
}

static void on_welcome(heed_irc_session *s, const struct heed_irc_msg *m)
{
	/* "The nick in 001's first parameter is authoritative." */
	if (m->nparams > 0 && *m->params[0])
		snprintf(s->nick, sizeof(s->nick), "%s", m->params[0]);
	if (s->state == ST_REGISTERING)
		set_state(s, ST_BURST);
}

/* ---- The CRAWLER decision ---------------------------------------------- */

static void emit_preference(heed_irc_session *s)
{
	struct heed_irc_action a;
	const char *raw = NULL;
	bool has = false;

	memset(&a, 0, sizeof(a));
	a.kind = HEED_IRC_ACT_PREFERENCE;
	a.pref = s->pref;
	a.server_name = s->server_name;
	if (heed_irc_isupport_get(s->isupport, "CRAWLER", &raw, &has))
		a.raw_value = raw;
	s->emit(s->ud, &a);
}

static void emit_server_info(heed_irc_session *s)
{
	struct heed_irc_action a;

	memset(&a, 0, sizeof(a));
	a.kind = HEED_IRC_ACT_SERVER_INFO;
	a.server_name = s->server_name;
	a.server_version = s->server_version;
	a.network_name = heed_irc_isupport_network(s->isupport);
	s->emit(s->ud, &a);
}

/* Re-reads the token; true when the visit must stop. */
static bool apply_preference(heed_irc_session *s, int64_t now_ms)
{
	char why[TEXT_MAX];

	heed_irc_crawler_from_isupport(s->isupport, &s->pref);
	heed_irc_crawler_merge(&s->merged, &s->pref);
	emit_preference(s);
	heed_irc_crawler_describe_problems(
	        s->pref.problems & ~(unsigned)HEED_IRC_CRAWLER_NO_VALUE, why,
	        sizeof(why));
	if (why[0])
		logf_(s, "CRAWLER token: %s", why);
	if (heed_irc_crawler_denies(&s->pref)) {
		set_reason(s, "CRAWLER says %s (cooldown %lld s)",
		           heed_irc_crawler_verdict_name(s->pref.verdict),
		           (long long)s->pref.cooldown_s);
		quit(s, HEED_IRC_VISIT_DENIED,
		     "heed crawler: this network asks not to be indexed; "
		     "leaving, sorry for the intrusion",
		     now_ms);
		return true;
	}
	if (s->cfg.require_consent &&
	    s->pref.verdict != HEED_IRC_CRAWLER_ALLOW) {
		set_reason(s, "no CRAWLER=index:allow and consent is required");
		quit(s, HEED_IRC_VISIT_NO_CONSENT, s->cfg.quit_message, now_ms);
		return true;
	}
	return false;
}

/* The 005 burst is over: decide once. */
static void end_of_burst(heed_irc_session *s, int64_t now_ms)
{
	/* A denying network gets nothing indexed beyond its preference. */
	if (apply_preference(s, now_ms))
		return;
	emit_server_info(s);
	if (s->cfg.check_only) {
		quit(s, HEED_IRC_VISIT_CHECKED, s->cfg.quit_message, now_ms);
		return;
	}
	s->motd_deadline_ms = now_ms + MOTD_WAIT_MS;
	s->next_cmd_ms = now_ms + s->cfg.pace_ms;
	set_state(s, ST_WELCOME);
}

/* ---- Crawl replies --------------------------------------------------------
 */

static int64_t parse_count(const char *v)
{
	int64_t n = 0;

	if (!*v)
		return -1;
	for (; *v; v++) {
		if (*v < '0' || *v > '9' || n > INT64_MAX / 10 - 10)
			return -1;
		n = n * 10 + (*v - '0');
	}
	return n;
}

/* The first number after word in text ("There are 4 users and 0
 * invisible on 2 servers"), or -1. */
static int64_t number_before(const char *text, const char *word)
{
	const char *w = strstr(text, word);
	long long v;

	if (!w)
		return -1;
	while (w > text && w[-1] == ' ')
		w--;
	while (w > text && w[-1] >= '0' && w[-1] <= '9')
		w--;
	return sscanf(w, "%lld", &v) == 1 ? v : -1;
}

static void on_lusers(heed_irc_session *s, const struct heed_irc_msg *m)
{
	const char *last = heed_irc_msg_param(m, m->nparams - 1);
	struct heed_irc_lusers *l = &s->lusers;

	s->lusers_seen = true;
	switch (m->numeric) {
	case 251:
		l->users = number_before(last, " users");
		/* "invisible" on most servers, "services" on ngircd. */
		l->invisible = number_before(last, " invisible");
		l->servers = number_before(last, " server");
		break;
	case 252:
		l->opers = parse_count(heed_irc_msg_param(m, 1));
		break;
	case 253:
		l->unknown = parse_count(heed_irc_msg_param(m, 1));
		break;
	case 254:
		l->channels = parse_count(heed_irc_msg_param(m, 1));
		break;
	case 265:
		/* The numeric fields are optional (InspIRCd leaves them out).
		 */
		l->local_users = m->nparams >= 4
		                         ? parse_count(heed_irc_msg_param(m, 1))
		                         : -1;
		break;
	case 266:
		l->global_users =
		        m->nparams >= 4 ? parse_count(heed_irc_msg_param(m, 1))
		                        : -1;
		break;
	default:
		break;
	}
}

static void on_link(heed_irc_session *s, const struct heed_irc_msg *m)
{
	struct heed_irc_action a;
	const char *info = heed_irc_msg_param(m, 3);
	long long hops = -1;
	int used = 0;

	if (s->wait != WAIT_LINKS || m->nparams < 3)
		return;
	memset(&a, 0, sizeof(a));
	a.kind = HEED_IRC_ACT_LINK;
	a.link_name = heed_irc_msg_param(m, 1);
	a.link_hub = heed_irc_msg_param(m, 2);
	/* "<hopcount> <server info>"; a hidden hop count is left at -1. */
	if (sscanf(info, "%lld %n", &hops, &used) == 1 && hops >= 0 &&
	    hops < 1000) {
		a.link_hops = (int)hops;
		info += used;
	} else {
		a.link_hops = -1;
	}
	a.link_info = info;
	s->emit(s->ud, &a);
}

/* InspIRCd's <options modesinlist> prefixes topics with "[+nt] ". */
static const char *strip_modes_prefix(const char *topic)
{
	const char *end;

	if (strncmp(topic, "[+", 2) != 0)
		return topic;
	end = strchr(topic, ']');
	if (!end || end - topic > 128)
		return topic;
	for (const char *p = topic + 2; p < end; p++) {
		bool ok = (*p >= 'a' && *p <= 'z') ||
		          (*p >= 'A' && *p <= 'Z') ||
		          (*p >= '0' && *p <= '9') || *p == ' ' || *p == '<' ||
		          *p == '>' || *p == ':' || *p == ',';
		if (!ok)
			return topic;
	}
	if (end[1] == ' ')
		return end + 2;
	return end[1] == '\0' ? end + 1 : topic;
}

static bool channel_listable(const heed_irc_session *s, const char *name)
{
	const char *types = heed_irc_isupport_chantypes(s->isupport);

	/* "*" is a +p channel InspIRCd hides; & channels are local to one
	 * server, so they say nothing about the network. */
	if (!*name || name[0] == '&' || strcmp(name, "*") == 0)
		return false;
	return strchr(types, name[0]) != NULL;
}

static void on_channel(heed_irc_session *s, const struct heed_irc_msg *m)
{
	struct heed_irc_action a;
	const char *name = heed_irc_msg_param(m, 1);

	if (s->wait != WAIT_LIST)
		return;
	if (!channel_listable(s, name))
		return;
	memset(&a, 0, sizeof(a));
	a.kind = HEED_IRC_ACT_CHANNEL;
	a.channel = name;
	a.users = parse_count(heed_irc_msg_param(m, 2));
	a.topic = strip_modes_prefix(heed_irc_msg_param(m, 3));
	s->list_channels++;
	s->channels++;
	s->emit(s->ud, &a);
}

/* "try again in 59s", "wait 30 seconds": the first number, or -1. */
static int64_t named_delay(const char *text)
{
	for (const char *p = text; *p; p++) {
		long long v;
		if (*p < '0' || *p > '9' ||
		    (p > text && p[-1] >= '0' && p[-1] <= '9'))
			continue;
		if (sscanf(p, "%lld", &v) == 1 && v >= 0 && v < 86400)
			return v;
	}
	return -1;
}

static bool contains_ci(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	for (; *hay; hay++)
		if (heed__ascii_ieq(hay, strnlen(hay, n), needle))
			return true;
	return false;
}

static void mark_list_refused(heed_irc_session *s, const char *why,
                              int64_t delay_s)
{
	s->list_refused = true;
	if (delay_s >= 0)
		s->list_delay_s = delay_s;
	logf_(s, "LIST refused: %s", why);
}

/* NOTICEs during LIST carry the refusals of InspIRCd and the truncation
 * of ngircd. */
static void on_list_notice(heed_irc_session *s, const struct heed_irc_msg *m)
{
	const char *text = heed_irc_msg_param(m, m->nparams - 1);

	if (s->wait != WAIT_LIST)
		return;
	if (contains_ci(text, "limit") && contains_ci(text, "reached")) {
		s->list_truncated = true;
		logf_(s, "LIST truncated: %s", text);
		return;
	}
	if (contains_ci(text, "try again") || contains_ci(text, "wait") ||
	    contains_ci(text, "cannot view") || contains_ci(text, "too many"))
		mark_list_refused(s, text, named_delay(text));
}

static void start_list_retry_or_stop(heed_irc_session *s, int64_t now_ms)
{
	int64_t delay_s =
	        s->list_delay_s >= 0 ? s->list_delay_s : LIST_RETRY_DEFAULT_S;
	int64_t at_ms = now_ms + (delay_s + 1) * 1000;

	if (s->list_tries < 2 && delay_s * 1000 <= s->cfg.list_retry_max_ms &&
	    at_ms + REPLY_IDLE_MS / 4 < s->visit_deadline_ms) {
		logf_(s, "retrying LIST in %lld s", (long long)delay_s + 1);
		s->step = STEP_LIST;
		if (at_ms > s->next_cmd_ms)
			s->next_cmd_ms = at_ms;
		return;
	}
	s->partial = true;
	set_reason(s, "LIST refused by the server%s",
	           s->list_tries >= 2 ? " twice"
	                              : " (retry would take too long)");
	s->step = STEP_QUIT;
}

/* 323, or a refusal that ends the list without one. */
static void end_of_list(heed_irc_session *s, int64_t now_ms)
{
	if (s->wait != WAIT_LIST)
		return;
	s->wait = WAIT_NONE;
	if (s->list_refused) {
		start_list_retry_or_stop(s, now_ms);
		return;
	}
	s->list_done = true;
	if (s->list_truncated) {
		s->partial = true;
		set_reason(s,
		           "LIST truncated by the server after %llu channels",
		           (unsigned long long)s->list_channels);
	}
	s->step = STEP_QUIT;
}

/* Errors that name LIST: 263 (Solanum), 421 (UnrealIRCd, with no 323),
 * and any other error numeric. */
static void on_list_error(heed_irc_session *s, const struct heed_irc_msg *m,
                          int64_t now_ms)
{
	const char *text = heed_irc_msg_param(m, m->nparams - 1);

	if (s->wait != WAIT_LIST ||
	    strcmp(heed_irc_msg_param(m, 1), "LIST") != 0)
		return;
	mark_list_refused(s, text, named_delay(text));
	/* Solanum follows its 263 with a 323; the others send nothing. */
	if (m->numeric != 263)
		end_of_list(s, now_ms);
}

/* ---- Dispatch -------------------------------------------------------------
 */

static bool is_error(const char *text)
{
	return contains_ci(text, "ban") || contains_ci(text, "k-line") ||
	       contains_ci(text, "g-line") || contains_ci(text, "z-line") ||
	       contains_ci(text, "denied") || contains_ci(text, "klined");
}

static void on_error(heed_irc_session *s, const struct heed_irc_msg *m)
{
	const char *text = heed_irc_msg_param(m, 0);

	if (s->state == ST_QUITTING) {
		finish(s, s->quit_status);
		return;
	}
	set_reason(s, "server closed the link: %s", text);
	if (s->state == ST_REGISTERING && is_error(text)) {
		finish(s, HEED_IRC_VISIT_BANNED);
		return;
	}
	if (s->state == ST_REGISTERING || s->state == ST_BURST) {
		finish(s, HEED_IRC_VISIT_FAILED);
		return;
	}
	s->partial = true;
	finish(s, crawl_status(s));
}

/* Registration-time lines; true when handled. */
static bool on_registration_line(heed_irc_session *s,
                                 const struct heed_irc_msg *m, int64_t now_ms)
{
	switch (m->numeric) {
	case 1:
		on_welcome(s, m);
		return true;
	case 4:
		snprintf(s->server_name, sizeof(s->server_name), "%s",
		         heed_irc_msg_param(m, 1));
		snprintf(s->server_version, sizeof(s->server_version), "%s",
		         heed_irc_msg_param(m, 2));
		return true;
	case 5:
		return false; /* handled by on_isupport */
	case 432:
	case 433:
		on_bad_nick(s, m, now_ms);
		return true;
	case 465:
		set_reason(s, "banned: %s",
		           heed_irc_msg_param(m, m->nparams - 1));
		finish(s, HEED_IRC_VISIT_BANNED);
		return true;
	default:
		return false;
	}
}

static void on_isupport(heed_irc_session *s, const struct heed_irc_msg *m,
                        int64_t now_ms)
{
	if (heed_irc_isupport_apply(s->isupport, m) == HEED_ENOMEM) {
		set_reason(s, "out of memory reading ISUPPORT");
		quit(s, HEED_IRC_VISIT_FAILED, s->cfg.quit_message, now_ms);
		return;
	}
	s->got_005 = true;
	/* After the burst, a re-advertised token applies at once. */
	if (s->state == ST_WELCOME || s->state == ST_CRAWL)
		apply_preference(s, now_ms);
}

static void on_crawl_numeric(heed_irc_session *s, const struct heed_irc_msg *m,
                             int64_t now_ms)
{
	switch (m->numeric) {
	case 251:
	case 252:
	case 253:
	case 254:
	case 255:
	case 265:
	case 266:
		on_lusers(s, m);
		return;
	case 364:
		on_link(s, m);
		return;
	case 365:
		if (s->wait == WAIT_LINKS) {
			s->wait = WAIT_NONE;
			s->links_done = true;
		}
		return;
	case 322:
		on_channel(s, m);
		return;
	case 323:
		end_of_list(s, now_ms);
		return;
	case 376:
	case 422:
		if (s->state == ST_WELCOME)
			s->motd_deadline_ms = now_ms;
		return;
	default:
		if (m->numeric >= 400 || m->numeric == 263)
			on_list_error(s, m, now_ms);
		return;
	}
}

static void dispatch(heed_irc_session *s, const struct heed_irc_msg *m,
                     int64_t now_ms)
{
	const char *cmd = m->command;

	if (strcmp(cmd, "PING") == 0) {
		sendf(s, "PONG :%s", heed_irc_msg_param(m, 0));
		return;
	}
	if (strcmp(cmd, "ERROR") == 0) {
		on_error(s, m);
		return;
	}
	if (strcmp(cmd, "CAP") == 0) {
		on_cap(s, m);
		return;
	}
	if (strcmp(cmd, "NOTICE") == 0) {
		on_list_notice(s, m);
		return;
	}
	if (m->numeric < 0 || s->state == ST_QUITTING)
		return;
	if (on_registration_line(s, m, now_ms))
		return;
	if (m->numeric == 5) {
		on_isupport(s, m, now_ms);
		return;
	}
	/* 105 carries another server's tokens: never applied. */
	if (m->numeric == 105)
		return;
	if (s->state == ST_BURST && m->numeric >= 200)
		end_of_burst(s, now_ms);
	if (s->state == ST_WELCOME || s->state == ST_CRAWL ||
	    s->state == ST_BURST)
		on_crawl_numeric(s, m, now_ms);
}

void heed_irc_session_line(heed_irc_session *s, const char *line, size_t len,
                           int64_t now_ms)
{
	if (s->state == ST_DONE || s->state == ST_CONNECTING)
		return;
	if (heed_irc_msg_parse(&s->msg, line, len) != HEED_OK) {
		s->bad_lines++;
		return;
	}
	if (s->msg.overlong)
		s->bad_lines++;
	if (s->wait != WAIT_NONE)
		s->wait_deadline_ms = now_ms + REPLY_IDLE_MS;
	s->last_line_ms = now_ms;
	dispatch(s, &s->msg, now_ms);
	if (s->state != ST_DONE)
		heed_irc_session_tick(s, now_ms);
}

void heed_irc_session_recv(heed_irc_session *s, const char *data, size_t len,
                           int64_t now_ms)
{
	while (len > 0 && s->state != ST_DONE) {
		const char *line;
		size_t line_len;
		size_t used = heed_irc_reader_feed(&s->reader, data, len, &line,
		                                   &line_len);
		data += used;
		len -= used;
		if (line)
			heed_irc_session_line(s, line, line_len, now_ms);
	}
}

/* ---- Timers and the paced commands --------------------------------------
 */

static void send_step(heed_irc_session *s, int64_t now_ms)
{
	char bot = heed_irc_isupport_bot_mode(s->isupport);

	/* Without a BOT mode to set, LUSERS goes first. */
	if (s->step == STEP_BOT && !bot)
		s->step = STEP_LUSERS;
	switch (s->step) {
	case STEP_BOT:
		sendf(s, "MODE %s +%c", s->nick, bot);
		s->step = STEP_LUSERS;
		break;
	case STEP_LUSERS:
		sendf(s, "LUSERS");
		s->step = STEP_LINKS;
		break;
	case STEP_LINKS:
		sendf(s, "LINKS");
		s->wait = WAIT_LINKS;
		s->step = STEP_LIST;
		break;
	case STEP_LIST:
		/* Plain LIST: ELIST conditions are never needed for the full
		 * public list, so none are sent. */
		sendf(s, "LIST");
		s->wait = WAIT_LIST;
		s->list_tries++;
		s->list_refused = false;
		s->list_truncated = false;
		s->list_delay_s = -1;
		s->list_channels = 0;
		break;
	case STEP_QUIT:
		quit(s, crawl_status(s), s->cfg.quit_message, now_ms);
		return;
	}
	s->wait_deadline_ms = now_ms + REPLY_IDLE_MS;
	s->next_cmd_ms = now_ms + s->cfg.pace_ms;
}

static void crawl_tick(heed_irc_session *s, int64_t now_ms)
{
	if (s->wait != WAIT_NONE) {
		if (now_ms < s->wait_deadline_ms)
			return;
		s->partial = true;
		set_reason(s, "no end of %s within %d s",
		           s->wait == WAIT_LIST ? "LIST" : "LINKS",
		           REPLY_IDLE_MS / 1000);
		s->wait = WAIT_NONE;
		s->step = STEP_QUIT;
	}
	if (now_ms >= s->next_cmd_ms)
		send_step(s, now_ms);
}

void heed_irc_session_tick(heed_irc_session *s, int64_t now_ms)
{
	switch (s->state) {
	case ST_REGISTERING:
	case ST_BURST:
		if (s->state == ST_BURST &&
		    now_ms >= s->last_line_ms + BURST_QUIET_MS) {
			end_of_burst(s, now_ms);
			return;
		}
		if (now_ms >= s->register_deadline_ms) {
			set_reason(s, "registration did not finish in %lld s",
			           (long long)s->cfg.register_limit_ms / 1000);
			quit(s, HEED_IRC_VISIT_FAILED, s->cfg.quit_message,
			     now_ms);
		}
		return;
	case ST_WELCOME:
	case ST_CRAWL:
		if (now_ms >= s->visit_deadline_ms) {
			s->partial = true;
			set_reason(s, "visit time limit reached");
			quit(s, crawl_status(s), s->cfg.quit_message, now_ms);
			return;
		}
		if (s->state == ST_WELCOME && now_ms >= s->motd_deadline_ms)
			set_state(s, ST_CRAWL);
		if (s->state == ST_CRAWL)
			crawl_tick(s, now_ms);
		return;
	case ST_QUITTING:
		if (now_ms >= s->quit_deadline_ms)
			finish(s, s->quit_status);
		return;
	default:
		return;
	}
}

void heed_irc_session_closed(heed_irc_session *s, const char *reason,
                             int64_t now_ms)
{
	(void)now_ms;
	switch (s->state) {
	case ST_DONE:
		return;
	case ST_QUITTING:
		finish(s, s->quit_status);
		return;
	case ST_CONNECTING:
	case ST_REGISTERING:
	case ST_BURST:
		set_reason(s, "connection closed before registration: %s",
		           reason ? reason : "closed");
		finish(s, HEED_IRC_VISIT_FAILED);
		return;
	default:
		set_reason(s, "connection lost%s: %s",
		           s->wait == WAIT_LIST ? " during LIST" : "",
		           reason ? reason : "closed");
		s->partial = true;
		finish(s, crawl_status(s));
		return;
	}
}

void heed_irc_session_unreachable(heed_irc_session *s, const char *reason,
                                  int64_t now_ms)
{
	(void)now_ms;
	if (s->state != ST_CONNECTING)
		return;
	set_reason(s, "%s", reason ? reason : "could not connect");
	finish(s, HEED_IRC_VISIT_UNREACHABLE);
}

void heed_irc_session_stop(heed_irc_session *s, int64_t now_ms)
{
	switch (s->state) {
	case ST_CONNECTING:
		set_reason(s, "stopped before the connection was made");
		finish(s, HEED_IRC_VISIT_STOPPED);
		return;
	case ST_REGISTERING:
	case ST_BURST:
		set_reason(s, "stopped before the 005 burst was read");
		quit(s, HEED_IRC_VISIT_STOPPED, s->cfg.quit_message, now_ms);
		return;
	case ST_WELCOME:
	case ST_CRAWL:
		s->partial = true;
		set_reason(s, "stopped by the operator");
		quit(s, crawl_status(s), s->cfg.quit_message, now_ms);
		return;
	default:
		return;
	}
}

static int64_t min64(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

int64_t heed_irc_session_next_tick_ms(const heed_irc_session *s)
{
	switch (s->state) {
	case ST_REGISTERING:
	case ST_BURST:
		return s->register_deadline_ms;
	case ST_WELCOME:
		return min64(s->visit_deadline_ms, s->motd_deadline_ms);
	case ST_CRAWL:
		return min64(s->visit_deadline_ms, s->wait != WAIT_NONE
		                                           ? s->wait_deadline_ms
		                                           : s->next_cmd_ms);
	case ST_QUITTING:
		return s->quit_deadline_ms;
	default:
		return INT64_MAX;
	}
}

heed_irc_visit_status heed_irc_session_status(const heed_irc_session *s)
{
	return s->status;
}

void heed_irc_session_preference(const heed_irc_session *s,
                                 struct heed_irc_crawler_pref *out)
{
	*out = s->merged;
}

const heed_irc_isupport *heed_irc_session_isupport(const heed_irc_session *s)
{
	return s->isupport;
}

uint64_t heed_irc_session_channels(const heed_irc_session *s)
{
	return s->channels;
}

uint64_t heed_irc_session_bad_lines(const heed_irc_session *s)
{
	return s->bad_lines + s->reader.overlong_lines;
}

const char *heed_irc_visit_status_name(heed_irc_visit_status st)
{
	static const char *const names[] = {
	        "running",    "complete",    "partial", "denied",
	        "no-consent", "banned",      "failed",  "sts-upgrade",
	        "checked",    "unreachable", "stopped",
	};

	return (size_t)st < HEED_ARRAY_SIZE(names) ? names[st] : "unknown";
}
