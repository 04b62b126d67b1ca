/*
 * heed/irc.h: the pure core of heed's IRC crawler.
 *
 * Four layers, each usable alone:
 *  - messages: one IRC line split into IRCv3 tags, source, command and
 *    parameters (modern.ircdocs.horse "Message format", message-tags);
 *  - the line reader: bytes from a connection cut into lines on CRLF or bare
 *    LF, with over-long lines skipped and counted instead of crashing;
 *  - ISUPPORT (005): the tokens a server advertises, across several lines,
 *    with negation and \xHH escapes;
 *  - the CRAWLER token (IRCv3 draft "Crawler Preference",
 *    shared/seeds/irc-crawler-preference.md) and the visit of one network as a
 *    state machine: events in (connected, line received, timer), actions out
 *    (send this line, close, store this).
 *
 * Nothing here touches a socket, a file or the clock: callers pass the time
 * in (monotonic milliseconds for timers, Unix seconds for dates) and perform
 * the actions. The I/O shell is include/heed/irc_crawl.h.
 */
#ifndef HEED_IRC_H
#define HEED_IRC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "heed/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Messages ---------------------------------------------------------- */

/* The client protocol's limits: 512 bytes for the line including CRLF, plus
 * 8191 bytes reserved for the tags section ("@...", including its space). */
#define HEED_IRC_LINE_MAX 512
#define HEED_IRC_TAGS_MAX 8191
#define HEED_IRC_BUF_MAX  (HEED_IRC_LINE_MAX + HEED_IRC_TAGS_MAX)
/* A client "MUST parse any number of parameters"; past this many, the rest
 * of the line stays in the last one, so nothing is dropped. */
#define HEED_IRC_MAX_PARAMS 64
#define HEED_IRC_MAX_TAGS   64

struct heed_irc_tag {
	const char *key;   /* "time", "+example/x"; never NULL */
	const char *value; /* unescaped; "" when absent or empty */
};

/*
 * One parsed message. All strings point into the message's own copy of the
 * line, so the struct owns everything and needs no free; it is large (about
 * 9 KiB), so keep it off small stacks. Invalid UTF-8 is kept as bytes.
 */
struct heed_irc_msg {
	const char *source;  /* "nick!user@host" or "irc.example", or NULL */
	const char *command; /* "PRIVMSG", "005"; never NULL after a parse */
	int numeric;         /* 0..999 for a three-digit command, else -1 */
	size_t nparams;
	const char *params[HEED_IRC_MAX_PARAMS];
	bool has_trailing; /* the last parameter came after " :" */
	bool overlong;     /* the part after the tags passed 512 bytes */
	size_t ntags;
	struct heed_irc_tag tags[HEED_IRC_MAX_TAGS];
	char buf[HEED_IRC_BUF_MAX + 1];
};

/*
 * Parses one line (without or with its CR/LF, which are dropped) into msg.
 * Returns HEED_OK, HEED_EPARSE for a line with no command (empty, only
 * tags or a source), HEED_ETOOBIG when the tags pass 8191 bytes or the line
 * passes HEED_IRC_BUF_MAX. NUL bytes end the line where they stand. On an
 * error msg holds no message (command is NULL).
 */
heed_status heed_irc_msg_parse(struct heed_irc_msg *msg, const char *line,
                               size_t len);

/* The i-th parameter, or "" past the end: numerics' optional fields read as
 * empty, never as NULL. */
const char *heed_irc_msg_param(const struct heed_irc_msg *msg, size_t i);

/* The value of tag key, or NULL when the message has no such tag. */
const char *heed_irc_msg_tag(const struct heed_irc_msg *msg, const char *key);

/* The nick part of the source ("nick" of "nick!user@host"), written into
 * buf (always NUL-terminated, cut to size). */
void heed_irc_msg_source_nick(const struct heed_irc_msg *msg, char *buf,
                              size_t size);

/* ---- Line reader ------------------------------------------------------- */

/*
 * Cuts a byte stream into lines. Lines end at LF; a CR before it is
 * dropped; empty lines are skipped. A line longer than HEED_IRC_BUF_MAX is
 * skipped whole (up to its LF) and counted in overlong_lines.
 */
struct heed_irc_reader {
	char line[HEED_IRC_BUF_MAX + 2]; /* room for a CR and the NUL */
	size_t len;
	bool discarding; /* inside an over-long line */
	uint64_t overlong_lines;
	uint64_t lines;
};

void heed_irc_reader_init(struct heed_irc_reader *r);

/*
 * Consumes bytes from data (at most len) until a whole line is ready: then
 * sets *line / *line_len (valid until the next call) and returns the number
 * of bytes consumed with *line non-NULL. Returns the bytes consumed with
 * *line NULL when data ran out first. Call it again with the rest of data.
 */
size_t heed_irc_reader_feed(struct heed_irc_reader *r, const char *data,
                            size_t len, const char **line, size_t *line_len);

/* ---- ISUPPORT ---------------------------------------------------------- */

/* The tokens a server advertised. Opaque; heed_irc_isupport_new/free. */
typedef struct heed_irc_isupport heed_irc_isupport;

/* A token table that holds at most this many names and values this long:
 * a hostile server cannot make it grow without end. */
#define HEED_IRC_ISUPPORT_MAX_TOKENS 512
#define HEED_IRC_ISUPPORT_MAX_VALUE  1024

/* A new empty table; alloc may be NULL. HEED_ENOMEM, or HEED_OK with *out
 * set; free it with heed_irc_isupport_free. */
heed_status heed_irc_isupport_new(heed_irc_isupport **out,
                                  const struct heed_allocator *alloc);
void heed_irc_isupport_free(heed_irc_isupport *is);

/*
 * Applies the tokens of one 005 message: params[1..n-2] (the first is the
 * client's nick, the last the human text, whatever it says). "TOKEN",
 * "TOKEN=" and "TOKEN=value" set a token (values \xHH-unescaped), "-TOKEN"
 * removes one; a later line wins over an earlier one. Tokens with bad names
 * are skipped and counted. Anything but a 005 message is HEED_EINVAL (105,
 * another server's tokens, must never be applied). HEED_ENOMEM leaves the
 * table as it was before that token.
 */
heed_status heed_irc_isupport_apply(heed_irc_isupport *is,
                                    const struct heed_irc_msg *msg);

/*
 * Looks up name (case-sensitive, as ISUPPORT names are). Returns false when
 * absent. Otherwise sets *value (may be NULL) to the unescaped value, valid
 * until the table changes, and *has_value to whether a non-empty value was
 * given ("TOKEN" and "TOKEN=" both have none).
 */
bool heed_irc_isupport_get(const heed_irc_isupport *is, const char *name,
                           const char **value, bool *has_value);

/* Convenience readers with the protocol's defaults for absent tokens. */
const char *heed_irc_isupport_network(const heed_irc_isupport *is); /* or "" */
const char *heed_irc_isupport_chantypes(const heed_irc_isupport *is); /* #& */
const char *heed_irc_isupport_casemapping(const heed_irc_isupport *is);
const char *heed_irc_isupport_elist(const heed_irc_isupport *is); /* or "" */
bool heed_irc_isupport_safelist(const heed_irc_isupport *is);
/* The user mode letter of BOT=, or 0 when not advertised. */
char heed_irc_isupport_bot_mode(const heed_irc_isupport *is);
/* NICKLEN, or 9 (RFC 1459) when absent or unreadable. */
int heed_irc_isupport_nicklen(const heed_irc_isupport *is);
/* MAXTARGETS, or -1 when absent or without a limit. */
int heed_irc_isupport_maxtargets(const heed_irc_isupport *is);

/* Number of tokens and the i-th name, for listings (NULL past the end). */
size_t heed_irc_isupport_count(const heed_irc_isupport *is);
const char *heed_irc_isupport_name_at(const heed_irc_isupport *is, size_t i);
/* Tokens skipped because their name was malformed or the table was full. */
uint64_t heed_irc_isupport_skipped(const heed_irc_isupport *is);

/*
 * Decodes \xHH escapes of an ISUPPORT value into out (always
 * NUL-terminated, cut to size). A backslash not followed by x and two hex
 * digits is kept as written. Returns the decoded length (which may include
 * NUL bytes from \x00).
 */
size_t heed_irc_isupport_unescape(const char *value, size_t len, char *out,
                                  size_t size);

/* ---- The CRAWLER token ------------------------------------------------- */

/* The spec's default cooldown when none, or an unusable one, is given. */
#define HEED_IRC_CRAWLER_DEFAULT_COOLDOWN 3600

typedef enum heed_irc_crawler_verdict {
	HEED_IRC_CRAWLER_NONE = 0,    /* no token, or one without value */
	HEED_IRC_CRAWLER_ALLOW = 1,   /* index:allow */
	HEED_IRC_CRAWLER_DENY = 2,    /* index:deny */
	HEED_IRC_CRAWLER_INVALID = 3, /* breaks the spec: read as deny */
} heed_irc_crawler_verdict;

/* What a token had wrong or odd; several may be set. */
enum {
	HEED_IRC_CRAWLER_NO_INDEX = 1 << 0,      /* index missing: invalid */
	HEED_IRC_CRAWLER_BAD_INDEX = 1 << 1,     /* not allow/deny: invalid */
	HEED_IRC_CRAWLER_DUPLICATE_KEY = 1 << 2, /* index/cooldown twice */
	HEED_IRC_CRAWLER_BAD_COOLDOWN = 1 << 3,  /* unusable: 3600 used */
	HEED_IRC_CRAWLER_UNKNOWN_KEY = 1 << 4,   /* ignored, as STS does */
	HEED_IRC_CRAWLER_KEY_CASE = 1 << 5,      /* "Index": not our key */
	HEED_IRC_CRAWLER_EMPTY_DATUM = 1 << 6,   /* ",," ignored */
	HEED_IRC_CRAWLER_NO_VALUE = 1 << 7,      /* CRAWLER / CRAWLER= */
};

/* A network's preference as heed reads it. */
struct heed_irc_crawler_pref {
	heed_irc_crawler_verdict verdict;
	int64_t cooldown_s; /* >= 0; 3600 unless given validly */
	unsigned problems;  /* HEED_IRC_CRAWLER_* flags */
};

/*
 * Reads the CRAWLER token's value, already \xHH-unescaped. has_value is
 * false for a bare "CRAWLER" (value is then ignored). A token without a
 * value is ignored (verdict NONE, "MUST ignore the token"). Otherwise the
 * value is a comma list of key[:value] (split at the first colon). index
 * must be present once and be exactly allow or deny; cooldown is decimal
 * seconds. Unknown keys are ignored. A token that breaks the spec (no index,
 * a bad index, index or cooldown given twice) is INVALID with the default
 * cooldown: heed reads it as "do not index". A cooldown that is not a
 * non-negative decimal fitting in int64 falls back to 3600. Never fails.
 */
void heed_irc_crawler_parse(const char *value, size_t len, bool has_value,
                            struct heed_irc_crawler_pref *out);

/* The preference of an ISUPPORT table's CRAWLER token (NONE when absent). */
void heed_irc_crawler_from_isupport(const heed_irc_isupport *is,
                                    struct heed_irc_crawler_pref *out);

/* True when the verdict forbids indexing (DENY or INVALID). */
bool heed_irc_crawler_denies(const struct heed_irc_crawler_pref *pref);

/*
 * Combines two preferences of one network (servers that disagree, or the
 * token changing during a visit): the most restrictive verdict (INVALID >
 * DENY > ALLOW > NONE) and the longest cooldown win. problems are or'ed.
 */
void heed_irc_crawler_merge(struct heed_irc_crawler_pref *into,
                            const struct heed_irc_crawler_pref *other);

/* "none", "allow", "deny", "invalid". Static. */
const char *heed_irc_crawler_verdict_name(heed_irc_crawler_verdict v);

/* A sentence on the problems ("duplicate key; unknown key ignored") into
 * buf, "" when there are none. Always NUL-terminated. */
void heed_irc_crawler_describe_problems(unsigned problems, char *buf,
                                        size_t size);

/* ---- The visit of one network ------------------------------------------ */

/* What the operator asked for; copied by heed_irc_session_new. */
struct heed_irc_session_config {
	const char *nick;     /* wanted nick; "heed" when NULL */
	const char *username; /* USER's user name; "heed" when NULL */
	const char *realname; /* carries the operator's contact */
	const char *quit_message;
	bool tls;               /* this connection is TLS (for STS) */
	bool check_only;        /* `heed irc check`: stop after the 005 burst */
	bool require_consent;   /* crawl only networks saying index:allow */
	int64_t pace_ms;        /* gap between commands after 001; >= 2000 */
	int64_t visit_limit_ms; /* total time of a visit */
	int64_t register_limit_ms; /* connect to the end of the 005 burst */
	int64_t list_retry_max_ms; /* longest LIST delay worth waiting for */
};

/* How a visit ended. */
typedef enum heed_irc_visit_status {
	HEED_IRC_VISIT_RUNNING = 0,  /* not over yet */
	HEED_IRC_VISIT_COMPLETE = 1, /* everything listed */
	HEED_IRC_VISIT_PARTIAL = 2,  /* some data: LIST refused, cut, or time */
	HEED_IRC_VISIT_DENIED = 3,   /* the network said index:deny / invalid */
	HEED_IRC_VISIT_NO_CONSENT = 4,  /* --require-consent, no index:allow */
	HEED_IRC_VISIT_BANNED = 5,      /* 465, or ERROR before registration */
	HEED_IRC_VISIT_FAILED = 6,      /* connection or registration failed */
	HEED_IRC_VISIT_STS_UPGRADE = 7, /* reconnect with TLS (sts=port=) */
	HEED_IRC_VISIT_CHECKED = 8,     /* check_only finished */
	HEED_IRC_VISIT_UNREACHABLE = 9, /* no connection: refused, timed out */
	HEED_IRC_VISIT_STOPPED = 10,    /* the operator stopped the run before
	                                   anything was read */
} heed_irc_visit_status;

/* "running", "complete", "partial"... "unreachable", "stopped". Static. */
const char *heed_irc_visit_status_name(heed_irc_visit_status s);

typedef enum heed_irc_action_kind {
	HEED_IRC_ACT_SEND,        /* line: send it (CRLF already appended) */
	HEED_IRC_ACT_CLOSE,       /* close the connection; the visit is over */
	HEED_IRC_ACT_SERVER_INFO, /* server name/version/network from 004/005 */
	HEED_IRC_ACT_PREFERENCE,  /* the CRAWLER token as read (also NONE) */
	HEED_IRC_ACT_LUSERS,      /* counts from 251..266 */
	HEED_IRC_ACT_LINK,        /* one 364 line */
	HEED_IRC_ACT_CHANNEL,     /* one 322 line, already filtered */
	HEED_IRC_ACT_STS,         /* an STS policy seen in CAP LS */
	HEED_IRC_ACT_LOG,         /* text: something worth a log line */
	HEED_IRC_ACT_END,         /* status and reason: the visit's outcome */
} heed_irc_action_kind;

struct heed_irc_lusers {
	int64_t users, invisible, servers, opers, unknown, channels;
	int64_t local_users, global_users; /* -1 when the server left out */
};

/* One action. Pointers are valid only during the emit callback. */
struct heed_irc_action {
	heed_irc_action_kind kind;
	const char *line; /* SEND: with CRLF; LOG/END: text */
	size_t line_len;
	/* SERVER_INFO */
	const char *server_name, *server_version, *network_name;
	/* PREFERENCE */
	struct heed_irc_crawler_pref pref;
	const char *raw_value; /* the token's unescaped value, or NULL */
	/* LUSERS */
	struct heed_irc_lusers lusers;
	/* LINK: name, hub, hops, description */
	const char *link_name, *link_hub, *link_info;
	int link_hops;
	/* CHANNEL: name, visible users, topic (modes prefix stripped) */
	const char *channel, *topic;
	int64_t users;
	/* STS */
	int sts_port;           /* 0 when the policy gave none */
	int64_t sts_duration_s; /* -1 when none */
	/* END */
	heed_irc_visit_status status;
};

typedef void heed_irc_emit_fn(void *ud, const struct heed_irc_action *act);

/* The state machine of one visit. Opaque; heed_irc_session_new/free. */
typedef struct heed_irc_session heed_irc_session;

/*
 * A visit that will call emit(ud, action) for everything it wants done.
 * cfg is copied. alloc may be NULL. HEED_ENOMEM or HEED_OK.
 */
heed_status heed_irc_session_new(heed_irc_session **out,
                                 const struct heed_irc_session_config *cfg,
                                 heed_irc_emit_fn *emit, void *ud,
                                 const struct heed_allocator *alloc);
void heed_irc_session_free(heed_irc_session *s);

/* The connection is up: registration is sent. now_ms is monotonic. */
void heed_irc_session_connected(heed_irc_session *s, int64_t now_ms);

/* Bytes arrived: they are cut into lines and each is handled. */
void heed_irc_session_recv(heed_irc_session *s, const char *data, size_t len,
                           int64_t now_ms);

/* One whole line arrived (no CRLF needed). */
void heed_irc_session_line(heed_irc_session *s, const char *line, size_t len,
                           int64_t now_ms);

/* Time passed: paced commands and timeouts happen here. */
void heed_irc_session_tick(heed_irc_session *s, int64_t now_ms);

/* The peer closed the connection or it failed (reason for the log). */
void heed_irc_session_closed(heed_irc_session *s, const char *reason,
                             int64_t now_ms);

/*
 * No connection could be made (every address refused it, timed out or had
 * no route): the visit ends UNREACHABLE with reason, which is copied. Only
 * before heed_irc_session_connected; later it does nothing.
 */
void heed_irc_session_unreachable(heed_irc_session *s, const char *reason,
                                  int64_t now_ms);

/*
 * The operator stops the run (SIGINT). Before the connection: END STOPPED
 * at once. Registering or reading the burst: QUIT, then STOPPED. Welcomed
 * or crawling: QUIT, then PARTIAL with what was listed. Quitting or done:
 * nothing changes. The visit still ends through the usual END and CLOSE.
 */
void heed_irc_session_stop(heed_irc_session *s, int64_t now_ms);

/* When tick must be called next (monotonic ms), or INT64_MAX if never. */
int64_t heed_irc_session_next_tick_ms(const heed_irc_session *s);

/* RUNNING until END was emitted. */
heed_irc_visit_status heed_irc_session_status(const heed_irc_session *s);

/* The strongest preference seen during the visit (merged). */
void heed_irc_session_preference(const heed_irc_session *s,
                                 struct heed_irc_crawler_pref *out);

/* The ISUPPORT table gathered so far (owned by the session). */
const heed_irc_isupport *heed_irc_session_isupport(const heed_irc_session *s);

/* Channels reported and lines skipped as unparsable or over-long. */
uint64_t heed_irc_session_channels(const heed_irc_session *s);
uint64_t heed_irc_session_bad_lines(const heed_irc_session *s);

/* ---- When to come back ------------------------------------------------- */

/* The operator's revisit policy, all in seconds. */
struct heed_irc_revisit_policy {
	int64_t min_revisit_s; /* floor for every network (spec default 3600) */
	int64_t failure_backoff_s;   /* after FAILED */
	int64_t ban_backoff_s;       /* after BANNED: days, never evade */
	int64_t unreachable_retry_s; /* after UNREACHABLE: the network saw no
	                                visit, so no floor applies */
};

/*
 * The Unix time before which the network must not be contacted again,
 * given a visit that ended at ended_s with status and the merged preference.
 * The cooldown counts from the end of the visit, and the operator's floor
 * applies on top (waiting longer is always compliant). UNREACHABLE waits
 * unreachable_retry_s only; STOPPED, STS_UPGRADE and CHECKED add no wait
 * of their own, but a STOPPED visit that read a token keeps its cooldown.
 * A hold stored earlier is never shortened by the store (store_irc.h).
 */
int64_t heed_irc_next_visit_s(const struct heed_irc_revisit_policy *policy,
                              heed_irc_visit_status status,
                              const struct heed_irc_crawler_pref *pref,
                              int64_t ended_s);

#ifdef __cplusplus
}
#endif

#endif /* HEED_IRC_H */
