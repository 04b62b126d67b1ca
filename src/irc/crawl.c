/*
 * The IRC crawler's I/O shell (include/heed/irc_crawl.h), held to the web
 * crawler's rules: the same resolver and address policy (below), so IRC is
 * no way around them. Everything the protocol decides lives in session.c;
 * this file resolves, connects, speaks TLS, moves bytes between sockets and
 * sessions, and turns the sessions' actions into store rows and results.
 *
 * One poll() loop drives up to max_connections networks, one connection
 * each, and heed's resolver beside them. A connection goes RESOLVING
 * (heed_dns, the operator's DNS servers) -> CONNECTING (non-blocking
 * connect, each address in turn) -> HANDSHAKE (TLS only) -> OPEN, with a
 * deadline on connecting and the handshake; once OPEN the session's own
 * timers bound the visit. A plain connection told by STS to use TLS is
 * closed and the same network is visited again over TLS on the port the
 * policy names, at the addresses already resolved: one lookup per network.
 *
 * One address policy with the web (heed/net.h): each address is checked
 * with heed_net_addr_allowed() right before connect(), and the socket
 * address is built from the very bytes checked. A name that does not
 * resolve, or whose every address is refused, is reported and nothing of it
 * is stored: a refusal of heed's own is not the network's failure. A
 * network that refuses or ignores the connection ends UNREACHABLE and is
 * tried again after revisit.unreachable_retry_s.
 *
 * Courtesy lives in the store: a network whose next allowed visit is in
 * the future is never contacted, and each visit's end writes the next one
 * (the CRAWLER cooldown, the operator's floor, or the ban backoff).
 */
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include "heed/irc_crawl.h"
#include "heed/net.h"
#include "heed/store_irc.h"
#include "irc/irc-int.h"

#define CONNECT_LIMIT_MS        30000
#define DEFAULT_MAX_CONNECTIONS 8
#define MAX_CONNECTIONS         256
/* Addresses kept per name: each is tried in turn. */
#define MAX_ADDRS 16
/* Sockets the resolver may need at once. */
#define MAX_DNS_FDS 16
/* Outgoing bytes waiting for the socket: a visit sends a few short
 * commands, so this only fills if the peer stops reading. */
#define OUT_MAX    16384
#define READ_CHUNK 16384
#define TEXT_MAX   512

enum phase {
	PH_IDLE,       /* slot free */
	PH_RESOLVING,  /* the name is being looked up */
	PH_CONNECTING, /* non-blocking connect in progress */
	PH_HANDSHAKE,  /* TLS handshake in progress */
	PH_OPEN,       /* the session runs */
};

struct crawl;

struct conn {
	struct crawl *crawl;
	const struct heed_irc_target *target;
	char host[HEED_IRC_HOST_MAX];
	int port;
	bool tls, sts_upgraded;
	enum phase phase;
	int64_t deadline_ms;
	int fd;
	SSL *ssl;
	/* The name's addresses as resolved, the refused ones included (each is
	 * checked again right before its connect). */
	struct heed_dns_addr addrs[MAX_ADDRS];
	size_t addr_count, addr_next;
	bool resolved;      /* addrs hold the lookup's answer */
	bool not_contacted; /* ended before any connect: nothing stored */
	char address[48];   /* the address of the current attempt */
	char connect_error[TEXT_MAX]; /* why the last attempt failed */
	heed_irc_session *session;
	char out[OUT_MAX];
	size_t out_len;
	bool want_close, ended;
	int64_t network_id, visit_id;
	int sts_port;
	struct heed_irc_crawl_result result;
	char reason[TEXT_MAX], network_name[TEXT_MAX];
	char server_name[TEXT_MAX], server_version[TEXT_MAX];
	char raw_token[TEXT_MAX];
};

struct crawl {
	const struct heed_irc_crawl_options *opts;
	SSL_CTX *ssl_ctx;
	heed_dns *dns; /* NULL once stopping */
	heed_store_irc *writer;
	struct conn *conns;
	int nconns;
	bool stopping; /* *opts->stop was seen */
	heed_status rc;
};

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int64_t now_s(void)
{
	return (int64_t)time(NULL);
}

static void store_failed(struct crawl *c, const char *what)
{
	/* The crawl stops at its first store failure; the writes still in
	 * flight fail the same way and would only repeat it. */
	if (c->rc == HEED_ESTORE)
		return;
	heed_log(c->opts->log, HEED_LOG_ERROR, "irc", "store: %s: %s", what,
	         heed_store_errmsg(c->opts->store));
	c->rc = HEED_ESTORE;
}

/* ---- Session actions -> rows and bytes ---------------------------------- */

static void copy(char *dst, const char *src)
{
	snprintf(dst, TEXT_MAX, "%s", src ? src : "");
}

static void on_send(struct conn *k, const struct heed_irc_action *a)
{
	if (k->out_len + a->line_len > sizeof(k->out)) {
		copy(k->reason, "the server stopped reading our commands");
		k->want_close = true;
		return;
	}
	memcpy(k->out + k->out_len, a->line, a->line_len);
	k->out_len += a->line_len;
}

static void on_sts(struct conn *k, const struct heed_irc_action *a)
{
	struct crawl *c = k->crawl;

	if (!k->tls) {
		k->sts_port = a->sts_port;
		return;
	}
	/* "persist a policy only after seeing it over verified TLS" */
	if (!k->result.tls_verified || a->sts_duration_s < 0 || !c->writer)
		return;
	if (heed_store_irc_sts_set(c->writer, k->host, k->port,
	                           now_s() + a->sts_duration_s) != HEED_OK)
		store_failed(c, "saving an STS policy");
}

static void on_end(struct conn *k, const struct heed_irc_action *a)
{
	struct crawl *c = k->crawl;
	int64_t end = now_s();

	k->ended = true;
	copy(k->reason, a->line);
	k->result.status = a->status;
	k->result.pref = a->pref;
	k->result.next_visit_s = heed_irc_next_visit_s(
	        &c->opts->revisit, a->status, &a->pref, end);
	if (c->writer && k->visit_id &&
	    heed_store_irc_visit_end(c->writer, k->network_id, k->visit_id,
	                             a->status, k->reason, &a->pref, end,
	                             k->result.next_visit_s) != HEED_OK)
		store_failed(c, "ending a visit");
	heed_log(c->opts->log, HEED_LOG_INFO, "irc", "%s: %s%s%s",
	         k->target->key, heed_irc_visit_status_name(a->status),
	         k->reason[0] ? ": " : "", k->reason);
}

static void on_row(struct conn *k, const struct heed_irc_action *a)
{
	struct heed_store_irc *w = k->crawl->writer;
	heed_status rc = HEED_OK;
	int64_t t = now_s();

	if (!w || !k->visit_id)
		return;
	switch (a->kind) {
	case HEED_IRC_ACT_SERVER_INFO:
		rc = heed_store_irc_visit_server(w, k->visit_id, a->server_name,
		                                 a->server_version,
		                                 a->network_name);
		break;
	case HEED_IRC_ACT_PREFERENCE:
		rc = heed_store_irc_preference(w, k->network_id, k->visit_id,
		                               a->server_name, a->raw_value,
		                               &a->pref, t);
		break;
	case HEED_IRC_ACT_LUSERS:
		rc = heed_store_irc_visit_lusers(w, k->visit_id, &a->lusers);
		break;
	case HEED_IRC_ACT_LINK:
		rc = heed_store_irc_server(w, k->network_id, k->visit_id,
		                           a->link_name, a->link_hub,
		                           a->link_hops, a->link_info, t);
		break;
	case HEED_IRC_ACT_CHANNEL:
		rc = heed_store_irc_channel(w, k->network_id, k->visit_id,
		                            a->channel, a->users, a->topic,
		                            strlen(a->topic), t);
		break;
	default:
		break;
	}
	if (rc != HEED_OK)
		store_failed(k->crawl, "writing IRC records");
}

static void on_action(void *ud, const struct heed_irc_action *a)
{
	struct conn *k = ud;

	switch (a->kind) {
	case HEED_IRC_ACT_SEND:
		on_send(k, a);
		return;
	case HEED_IRC_ACT_CLOSE:
		k->want_close = true;
		return;
	case HEED_IRC_ACT_STS:
		on_sts(k, a);
		return;
	case HEED_IRC_ACT_END:
		on_end(k, a);
		return;
	case HEED_IRC_ACT_LOG:
		heed_log(k->crawl->opts->log, HEED_LOG_DEBUG, "irc", "%s: %s",
		         k->target->key, a->line);
		return;
	case HEED_IRC_ACT_SERVER_INFO:
		copy(k->server_name, a->server_name);
		copy(k->server_version, a->server_version);
		copy(k->network_name, a->network_name);
		break;
	case HEED_IRC_ACT_PREFERENCE:
		k->result.token_present = a->raw_value != NULL;
		copy(k->raw_token, a->raw_value);
		break;
	case HEED_IRC_ACT_LINK:
		k->result.servers++;
		break;
	default:
		break;
	}
	on_row(k, a);
}

/* ---- Connections ------------------------------------------------------- */

static void close_socket(struct conn *k)
{
	if (k->ssl) {
		SSL_shutdown(k->ssl); /* close_notify, best effort */
		SSL_free(k->ssl);
		k->ssl = NULL;
	}
	if (k->fd >= 0)
		close(k->fd);
	k->fd = -1;
}

static void fail_connection(struct conn *k, const char *why)
{
	heed_irc_session_closed(k->session, why, now_ms());
	k->want_close = true;
}

/* The visit's rows begin with the first connect: a network heed never
 * tried to reach gets none. */
static void begin_visit(struct conn *k)
{
	struct crawl *c = k->crawl;

	if (!c->writer || k->visit_id)
		return;
	if (heed_store_irc_network(c->writer, k->target->key, now_s(),
	                           &k->network_id, NULL) != HEED_OK ||
	    heed_store_irc_visit_begin(c->writer, k->network_id, k->host,
	                               k->port, k->tls, now_s(),
	                               &k->visit_id) != HEED_OK)
		store_failed(c, "starting a visit");
}

/* The socket address of a at port, from the bytes that were checked. */
static socklen_t sockaddr_of(const struct heed_dns_addr *a, int port,
                             struct sockaddr_storage *ss)
{
	memset(ss, 0, sizeof(*ss));
	if (a->family == AF_INET) {
		struct sockaddr_in *in = (struct sockaddr_in *)ss;
		in->sin_family = AF_INET;
		in->sin_port = htons((uint16_t)port);
		memcpy(&in->sin_addr, a->bytes, 4);
		return sizeof(*in);
	}
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)ss;
	in6->sin6_family = AF_INET6;
	in6->sin6_port = htons((uint16_t)port);
	memcpy(&in6->sin6_addr, a->bytes, 16);
	return sizeof(*in6);
}

static void note_connect_error(struct conn *k, const char *why)
{
	snprintf(k->connect_error, sizeof(k->connect_error), "%s: %s",
	         k->address, why);
}

/* Every address failed: the network could not be reached. */
static void unreachable(struct conn *k)
{
	char why[2 * TEXT_MAX];

	snprintf(why, sizeof(why), "could not connect to %s port %d (%s)",
	         k->host, k->port,
	         k->connect_error[0] ? k->connect_error : "no address");
	heed_irc_session_unreachable(k->session, why, now_ms());
	k->want_close = true;
}

/* Starts a non-blocking connect to the next address heed's policy allows:
 * the check and the connect use the same bytes, so the address connected
 * is the address checked. */
static void connect_next(struct conn *k)
{
	bool allow_private = k->crawl->opts->allow_private;

	while (k->addr_next < k->addr_count) {
		const struct heed_dns_addr *a = &k->addrs[k->addr_next++];
		struct sockaddr_storage ss;
		socklen_t len;

		if (!heed_net_addr_allowed(a, allow_private))
			continue;
		len = sockaddr_of(a, k->port, &ss);
		snprintf(k->address, sizeof(k->address), "%s", a->text);
		begin_visit(k);
		k->fd = socket(a->family,
		               SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
		if (k->fd < 0) {
			note_connect_error(k, strerror(errno));
			continue;
		}
		if (connect(k->fd, (struct sockaddr *)&ss, len) == 0 ||
		    errno == EINPROGRESS) {
			k->phase = PH_CONNECTING;
			k->deadline_ms = now_ms() + CONNECT_LIMIT_MS;
			heed_log(k->crawl->opts->log, HEED_LOG_INFO, "irc",
			         "%s: connecting to %s port %d%s",
			         k->target->key, a->text, k->port,
			         k->tls ? " (TLS)" : "");
			return;
		}
		note_connect_error(k, strerror(errno));
		close(k->fd);
		k->fd = -1;
	}
	unreachable(k);
}

static bool is_ip_literal(const char *host)
{
	unsigned char buf[sizeof(struct in6_addr)];

	return inet_pton(AF_INET, host, buf) == 1 ||
	       inet_pton(AF_INET6, host, buf) == 1;
}

static bool start_tls(struct conn *k)
{
	struct crawl *c = k->crawl;

	k->ssl = SSL_new(c->ssl_ctx);
	if (!k->ssl || SSL_set_fd(k->ssl, k->fd) != 1)
		return false;
	if (!is_ip_literal(k->host))
		SSL_set_tlsext_host_name(k->ssl, k->host);
	if (!c->opts->insecure) {
		X509_VERIFY_PARAM *p = SSL_get0_param(k->ssl);
		int ok = is_ip_literal(k->host)
		                 ? X509_VERIFY_PARAM_set1_ip_asc(p, k->host)
		                 : SSL_set1_host(k->ssl, k->host);
		if (ok != 1)
			return false;
	}
	SSL_set_connect_state(k->ssl);
	k->phase = PH_HANDSHAKE;
	return true;
}

static void opened(struct conn *k)
{
	k->phase = PH_OPEN;
	k->result.tls_verified = k->tls && !k->crawl->opts->insecure;
	heed_irc_session_connected(k->session, now_ms());
}

static void handshake(struct conn *k);

static void on_connected(struct conn *k)
{
	int err = 0;
	socklen_t len = sizeof(err);

	if (getsockopt(k->fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0 || err) {
		note_connect_error(k, strerror(err ? err : errno));
		close_socket(k);
		connect_next(k);
		return;
	}
	if (!k->tls) {
		opened(k);
		return;
	}
	if (!start_tls(k)) {
		fail_connection(k, "TLS setup failed");
		return;
	}
	handshake(k); /* sends the ClientHello */
}

static void handshake(struct conn *k)
{
	int rc = SSL_connect(k->ssl);
	char why[TEXT_MAX];

	if (rc == 1) {
		opened(k);
		return;
	}
	rc = SSL_get_error(k->ssl, rc);
	if (rc == SSL_ERROR_WANT_READ || rc == SSL_ERROR_WANT_WRITE)
		return;
	snprintf(why, sizeof(why), "TLS handshake failed: %s",
	         SSL_get_verify_result(k->ssl) != X509_V_OK
	                 ? X509_verify_cert_error_string(
	                           SSL_get_verify_result(k->ssl))
	                 : ERR_reason_error_string(ERR_peek_last_error()));
	ERR_clear_error();
	fail_connection(k, why);
}

/* Reads what is there; false when the connection is gone. */
static void read_some(struct conn *k)
{
	char buf[READ_CHUNK];

	for (int rounds = 0; rounds < 16 && !k->want_close; rounds++) {
		ssize_t n;
		if (k->ssl) {
			int r = SSL_read(k->ssl, buf, sizeof(buf));
			int e = r > 0 ? SSL_ERROR_NONE
			              : SSL_get_error(k->ssl, r);
			if (e == SSL_ERROR_WANT_READ ||
			    e == SSL_ERROR_WANT_WRITE)
				return;
			n = r > 0 ? r : (e == SSL_ERROR_ZERO_RETURN ? 0 : -1);
			ERR_clear_error();
		} else {
			n = read(k->fd, buf, sizeof(buf));
			if (n < 0 && (errno == EAGAIN || errno == EINTR))
				return;
		}
		if (n <= 0) {
			heed_irc_session_closed(k->session,
			                        n == 0 ? "closed by the server"
			                               : strerror(errno),
			                        now_ms());
			k->want_close = true;
			return;
		}
		heed_irc_session_recv(k->session, buf, (size_t)n, now_ms());
		if (k->ssl && SSL_pending(k->ssl) == 0)
			return;
	}
}

static void write_some(struct conn *k)
{
	while (k->out_len > 0) {
		ssize_t n;
		if (k->ssl) {
			int r = SSL_write(k->ssl, k->out, (int)k->out_len);
			if (r <= 0) {
				int e = SSL_get_error(k->ssl, r);
				ERR_clear_error();
				if (e == SSL_ERROR_WANT_READ ||
				    e == SSL_ERROR_WANT_WRITE)
					return;
				k->out_len = 0;
				return;
			}
			n = r;
		} else {
			n = send(k->fd, k->out, k->out_len, MSG_NOSIGNAL);
			if (n < 0 && (errno == EAGAIN || errno == EINTR))
				return;
			if (n < 0) {
				k->out_len = 0;
				return;
			}
		}
		memmove(k->out, k->out + n, k->out_len - (size_t)n);
		k->out_len -= (size_t)n;
	}
}

/* Ends the target before any connect: nothing stored, and the result
 * carries the reason for the caller to say (logged at DEBUG only, so that
 * it is not said twice). */
static void not_contacted(struct conn *k, bool refused, bool stopped,
                          const char *why)
{
	copy(k->reason, why);
	k->not_contacted = true;
	k->result.refused = refused;
	k->result.stopped = stopped;
	k->want_close = true;
	heed_log(k->crawl->opts->log, HEED_LOG_DEBUG, "irc",
	         "%s: not contacted: %s", k->target->key, why);
}

static void on_resolved(void *ud, const struct heed_dns_result *r)
{
	struct conn *k = ud;
	bool allow_private = k->crawl->opts->allow_private;
	char why[TEXT_MAX];
	size_t allowed = 0;

	if (k->phase != PH_RESOLVING || k->want_close)
		return;
	if (r->outcome == HEED_DNS_CANCELLED) {
		not_contacted(k, false, true,
		              "stopped before the name was resolved");
		return;
	}
	if (r->outcome != HEED_DNS_FOUND || r->addr_count == 0) {
		snprintf(why, sizeof(why), "cannot resolve %s: %s (%s)",
		         k->host, heed_dns_outcome_name(r->outcome),
		         r->detail ? r->detail : "no address");
		not_contacted(k, false, false, why);
		return;
	}
	k->addr_count = 0;
	for (size_t i = 0; i < r->addr_count && k->addr_count < MAX_ADDRS;
	     i++) {
		k->addrs[k->addr_count++] = r->addrs[i];
		allowed += heed_net_addr_allowed(&r->addrs[i], allow_private);
	}
	if (allowed == 0) {
		heed_net_refusal(r, k->host, allow_private, why, sizeof(why));
		not_contacted(k, true, false, why);
		return;
	}
	/* Some refused, some not: the refused ones are said once here. */
	for (size_t i = 0; allowed < k->addr_count && i < k->addr_count; i++)
		if (!heed_net_addr_allowed(&k->addrs[i], allow_private))
			heed_log(k->crawl->opts->log, HEED_LOG_INFO, "irc",
			         "%s: %s is %s: not contacted", k->target->key,
			         k->addrs[i].text,
			         heed_net_addr_kind_name(
			                 heed_net_addr_classify(&k->addrs[i])));
	k->resolved = true;
	k->addr_next = 0;
	connect_next(k);
}

/* Looks the name up once; an STS reconnection reuses the answer. */
static void resolve(struct conn *k)
{
	struct crawl *c = k->crawl;

	if (k->resolved) {
		k->addr_next = 0;
		connect_next(k);
		return;
	}
	k->phase = PH_RESOLVING;
	k->deadline_ms = INT64_MAX; /* the resolver bounds its own time */
	if (!c->dns) {
		not_contacted(k, false, true,
		              "stopped before the name was resolved");
		return;
	}
	/* The callback may run before this returns (address literals). */
	heed_dns_resolve(c->dns, k->host, AF_UNSPEC, on_resolved, k);
}

static struct heed_irc_session_config session_config(const struct conn *k)
{
	const struct heed_irc_crawl_options *o = k->crawl->opts;
	struct heed_irc_session_config cfg = {0};

	cfg.nick = o->nick;
	cfg.username = "heed";
	cfg.realname = o->realname;
	cfg.tls = k->tls;
	cfg.check_only = o->check_only;
	cfg.require_consent = o->require_consent;
	cfg.pace_ms = o->pace_ms;
	cfg.visit_limit_ms = o->visit_limit_ms;
	/* Registration gets half the visit, at most the usual minute. */
	cfg.register_limit_ms =
	        o->visit_limit_ms > 0 && o->visit_limit_ms < 120000
	                ? o->visit_limit_ms / 2
	                : 60000;
	return cfg;
}

/* A new visit of k->target over k->host/port/tls in slot k. */
static void open_visit(struct conn *k)
{
	struct crawl *c = k->crawl;
	struct heed_irc_session_config cfg = session_config(k);

	k->fd = -1;
	k->out_len = 0;
	k->want_close = k->ended = false;
	k->sts_port = 0;
	k->visit_id = 0;
	if (heed_irc_session_new(&k->session, &cfg, on_action, k, NULL) !=
	    HEED_OK) {
		c->rc = HEED_ENOMEM;
		k->phase = PH_IDLE;
		return;
	}
	heed_log(c->opts->log, HEED_LOG_DEBUG, "irc", "%s: visiting %s:%d%s",
	         k->target->key, k->host, k->port, k->tls ? " (TLS)" : "");
	resolve(k);
}

static void report(struct conn *k)
{
	const struct heed_irc_crawl_options *o = k->crawl->opts;

	k->result.target = k->target;
	k->result.not_contacted = k->not_contacted;
	k->result.reason = k->reason;
	k->result.address = k->address;
	k->result.network_name = k->network_name;
	k->result.server_name = k->server_name;
	k->result.server_version = k->server_version;
	k->result.raw_token = k->raw_token;
	k->result.channels = heed_irc_session_channels(k->session);
	k->result.bad_lines = heed_irc_session_bad_lines(k->session);
	if (o->on_result)
		o->on_result(o->ud, &k->result);
}

/* Reports the visit and frees the slot, or restarts it over TLS when STS
 * asked for that. */
static void release(struct conn *k)
{
	bool upgrade = k->result.status == HEED_IRC_VISIT_STS_UPGRADE &&
	               !k->sts_upgraded && k->sts_port > 0 &&
	               !k->crawl->stopping;

	if (k->fd >= 0)
		write_some(k); /* the QUIT, if the socket takes it */
	close_socket(k);
	if (!upgrade)
		report(k);
	heed_irc_session_free(k->session);
	k->session = NULL;
	k->phase = PH_IDLE;
	if (upgrade) {
		k->tls = k->sts_upgraded = true;
		k->port = k->sts_port;
		memset(&k->result, 0, sizeof(k->result));
		open_visit(k);
	}
}

/* ---- Scheduling ---------------------------------------------------------- */

static bool seen_before(const struct heed_irc_target *t, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (strcmp(t[j].key, t[i].key) == 0)
			return true;
	return false;
}

static void report_skip(struct crawl *c, const struct heed_irc_target *t,
                        int64_t next)
{
	struct heed_irc_crawl_result r;

	memset(&r, 0, sizeof(r));
	r.target = t;
	r.skipped_cooldown = true;
	r.next_visit_s = next;
	r.reason = r.network_name = r.server_name = r.server_version = "";
	r.raw_token = r.address = "";
	heed_log(c->opts->log, HEED_LOG_INFO, "irc",
	         "%s: in cooldown, not contacted", t->key);
	if (c->opts->on_result)
		c->opts->on_result(c->opts->ud, &r);
}

/* Starts target t in slot k; false when it is skipped (cooldown). */
static bool start_target(struct crawl *c, struct conn *k,
                         const struct heed_irc_target *t)
{
	int64_t next = 0;
	int sts_port = 0;

	memset(k, 0, sizeof(*k));
	k->crawl = c;
	k->target = t;
	k->fd = -1;
	snprintf(k->host, sizeof(k->host), "%s", t->host);
	k->port = t->port;
	k->tls = t->tls;
	if (c->writer) {
		/* Read only: the network's row is made by its first connect. */
		if (heed_store_irc_next_visit(c->opts->store, t->key, &next) !=
		    HEED_OK) {
			store_failed(c, "reading a network");
			return false;
		}
		if (next > now_s() && !c->opts->check_only) {
			report_skip(c, t, next);
			return false;
		}
		if (!k->tls &&
		    heed_store_irc_sts_get(c->opts->store, k->host, now_s(),
		                           &sts_port) == HEED_OK &&
		    sts_port > 0) {
			k->tls = k->sts_upgraded = true;
			k->port = sts_port;
		}
	}
	open_visit(k);
	return k->phase != PH_IDLE;
}

static short events_of(const struct conn *k)
{
	if (k->phase == PH_RESOLVING)
		return 0;
	if (k->phase == PH_CONNECTING)
		return POLLOUT;
	if (k->phase == PH_HANDSHAKE)
		return SSL_want_write(k->ssl) ? POLLOUT : POLLIN;
	return (short)(POLLIN | (k->out_len ? POLLOUT : 0));
}

static void service(struct conn *k, short revents)
{
	if (k->phase == PH_CONNECTING && revents)
		on_connected(k);
	else if (k->phase == PH_HANDSHAKE && revents)
		handshake(k);
	else if (k->phase == PH_OPEN) {
		if (revents & (POLLIN | POLLHUP | POLLERR))
			read_some(k);
		if (k->out_len)
			write_some(k);
	}
}

static void timers(struct conn *k, int64_t t)
{
	if (k->phase == PH_CONNECTING && t >= k->deadline_ms &&
	    !k->want_close) {
		note_connect_error(k, "timed out");
		close_socket(k);
		connect_next(k);
	}
	if (k->phase == PH_HANDSHAKE && t >= k->deadline_ms && !k->want_close)
		fail_connection(k, "TLS handshake timed out");
	if (k->phase == PH_OPEN && !k->want_close)
		heed_irc_session_tick(k->session, t);
	if (k->out_len && k->phase == PH_OPEN)
		write_some(k);
	if (k->want_close)
		release(k);
}

static int poll_timeout(const struct crawl *c)
{
	int64_t t = now_ms(), next = t + 1000;

	for (int i = 0; i < c->nconns; i++) {
		const struct conn *k = &c->conns[i];
		int64_t when =
		        k->phase == PH_OPEN
		                ? heed_irc_session_next_tick_ms(k->session)
		                : k->deadline_ms;
		if (k->phase != PH_IDLE && when < next)
			next = when;
	}
	int ms = next <= t ? 0 : (int)(next - t);
	return c->dns ? heed_dns_timeout_ms(c->dns, ms) : ms;
}

/* The operator asked to stop: nothing new starts, lookups are cancelled
 * (those targets are reported not contacted), every visit under way says
 * QUIT and ends as the session decides (heed_irc_session_stop). */
static void begin_stop(struct crawl *c)
{
	int64_t t = now_ms();

	c->stopping = true;
	heed_log(c->opts->log, HEED_LOG_INFO, "irc",
	         "stopping: visits under way say QUIT, no new one starts");
	for (int i = 0; i < c->nconns; i++) {
		struct conn *k = &c->conns[i];
		if (k->phase != PH_IDLE && k->phase != PH_RESOLVING &&
		    !k->want_close)
			heed_irc_session_stop(k->session, t);
	}
	heed_dns_free(c->dns); /* runs the pending callbacks, cancelled */
	c->dns = NULL;
}

static bool stop_asked(const struct crawl *c)
{
	return c->opts->stop && *c->opts->stop;
}

static heed_status run_loop(struct crawl *c, const struct heed_irc_target *t,
                            size_t n)
{
	struct pollfd pfd[MAX_CONNECTIONS + MAX_DNS_FDS];
	size_t next = 0;

	for (;;) {
		int active = 0, ndns = 0;
		if (stop_asked(c) && !c->stopping)
			begin_stop(c);
		for (int i = 0; i < c->nconns; i++) {
			struct conn *k = &c->conns[i];
			/* A target may end as it starts (an address literal
			 * heed refuses): its slot takes the next one at once,
			 * not after a poll. Bounded by n. */
			for (;;) {
				while (k->phase == PH_IDLE && next < n &&
				       c->rc == HEED_OK && !c->stopping) {
					size_t at = next++;
					if (!seen_before(t, at))
						start_target(c, k, &t[at]);
				}
				if (k->phase == PH_IDLE || !k->want_close)
					break;
				release(k);
			}
			pfd[i].fd = k->phase == PH_IDLE ? -1 : k->fd;
			pfd[i].events = k->phase == PH_IDLE ? 0 : events_of(k);
			pfd[i].revents = 0;
			active += k->phase != PH_IDLE;
		}
		if (active == 0 &&
		    (next >= n || c->rc != HEED_OK || c->stopping))
			return c->rc;
		if (c->dns)
			ndns = heed_dns_pollfds(c->dns, pfd + c->nconns,
			                        MAX_DNS_FDS);
		if (poll(pfd, (nfds_t)(c->nconns + ndns), poll_timeout(c)) <
		            0 &&
		    errno != EINTR)
			return HEED_EIO;
		if (c->dns)
			heed_dns_process(c->dns, pfd + c->nconns, ndns);
		int64_t tm = now_ms();
		for (int i = 0; i < c->nconns; i++) {
			struct conn *k = &c->conns[i];
			if (k->phase == PH_IDLE)
				continue;
			if (pfd[i].fd >= 0 && pfd[i].revents)
				service(k, pfd[i].revents);
			timers(k, tm);
		}
	}
}

static SSL_CTX *make_ssl_ctx(bool insecure)
{
	SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());

	if (!ctx)
		return NULL;
	SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
	SSL_CTX_set_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE |
	                              SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
	SSL_CTX_set_verify(ctx, insecure ? SSL_VERIFY_NONE : SSL_VERIFY_PEER,
	                   NULL);
	if (!insecure)
		SSL_CTX_set_default_verify_paths(ctx);
	return ctx;
}

heed_status heed_irc_crawl(const struct heed_irc_crawl_options *opts,
                           const struct heed_irc_target *targets, size_t n)
{
	struct crawl c = {0};
	const struct heed_allocator *a = heed_allocator_default();
	struct heed_diag diag = {0};
	heed_status rc;

	c.opts = opts;
	c.rc = HEED_OK;
	c.nconns = opts->max_connections > 0 ? opts->max_connections
	                                     : DEFAULT_MAX_CONNECTIONS;
	if (c.nconns > MAX_CONNECTIONS)
		c.nconns = MAX_CONNECTIONS;
	rc = heed_dns_new(&c.dns, &opts->dns, a, &diag);
	if (rc != HEED_OK) {
		heed_log(opts->log, HEED_LOG_ERROR, "irc", "DNS: %s",
		         diag.message[0] ? diag.message : heed_strerror(rc));
		return rc == HEED_ENOMEM ? HEED_ENOMEM : HEED_ECONFIG;
	}
	c.ssl_ctx = make_ssl_ctx(opts->insecure);
	c.conns = heed__calloc(a, (size_t)c.nconns, sizeof(*c.conns));
	if (!c.ssl_ctx || !c.conns ||
	    (opts->store && !opts->check_only &&
	     heed_store_irc_new(&c.writer, opts->store) != HEED_OK)) {
		rc = HEED_ENOMEM;
		goto out;
	}
	rc = run_loop(&c, targets, n);
	if (c.writer && heed_store_irc_flush(c.writer) != HEED_OK)
		rc = HEED_ESTORE;
out:
	heed_dns_free(c.dns); /* nothing is pending by now */
	heed_store_irc_free(c.writer);
	heed__free(a, c.conns);
	SSL_CTX_free(c.ssl_ctx);
	return rc;
}
