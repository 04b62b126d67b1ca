/*
 * The fetcher: libcurl's multi interface driven by the caller's poll loop
 * (CURLMOPT_SOCKETFUNCTION / TIMERFUNCTION) through one epoll descriptor,
 * one easy handle per fetch (reused once it ends), fetches spread over
 * several multi handles by host so each keeps a share of the connections.
 *
 * Invariants: every started fetch is in the running list until finish()
 * removes it and calls on_done exactly once; a fetch connects only to its
 * pinned address (CURLOPT_CONNECT_TO, and on_opensocket refuses any other);
 * a body never grows past its cap (counted after decoding, so a compressed
 * bomb stops at the cap too). libcurl follows no redirect and uses no
 * proxy from the environment: only the options' proxy, and a fetch through
 * it is the one kind not pinned (the proxy connects for it).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <curl/curl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "net/net-int.h"

#define DEFAULT_CONNECT_MS    10000
#define DEFAULT_FIRST_BYTE_MS 20000
#define DEFAULT_TOTAL_MS      60000
#define DEFAULT_MAX_BODY      (5 * 1024 * 1024)
#define NET_EVENT_BATCH       256   /* epoll events read per call */
#define NET_MAX_IDLE          65536 /* default cap on kept connections */
#define NET_FD_RESERVE        1024  /* descriptors left for other uses */
#define NET_MAX_SHARDS        64    /* multi handles at most */
#define NET_SHARD_CONNS       256   /* kept connections per multi handle */
#define NET_IDLE_EASY         64    /* easy handles kept for reuse */
/* libcurl's buffer for each fetch's reads (its default is 16 KiB): a
 * typical page (tens of KB) arrives in one or two reads and write
 * callbacks instead of four or more, each a pass through the multi
 * handle's socket loop; 64 KiB for each of the hundred or so fetches in
 * flight is a few MB. What one read takes past a body's cap is read for
 * nothing, so a read is at most a quarter of the cap, and never below
 * libcurl's default. */
#define NET_READ_BUFFER_MIN 16384
#define NET_READ_BUFFER_MAX 65536
/* The kernel's receive buffer of each connection (SO_RCVBUF) when the
 * body cap (net.max_body_bytes, the pages') is at least four times this.
 * Left to itself Linux grows the buffer with how fast heed drains the
 * socket, up to several MB: a server then sends that much past the moment
 * heed stops a body at its cap, bytes it pays for and nobody reads.
 * 256 KiB still carries a page of a few MB in a few round trips. The
 * buffer follows the options' cap, not the cap of the fetch that opens the
 * connection: one connection carries robots.txt and pages alike. Smaller
 * caps keep the kernel's tuning, which starts at 128 KiB and stays near it
 * for bodies that small (a fixed buffer let a server send more past a
 * 64 KiB cap, measured; TCP_WINDOW_CLAMP holds nothing: the tuning
 * overwrites it). */
#define NET_RECV_WINDOW 262144

struct xfer_link {
	struct xfer *prev, *next;
};

/* A list of fetches in the order they started, unlinked in O(1). */
struct xfer_list {
	struct xfer *head, *tail;
};

struct xfer {
	struct xfer_link running;  /* every fetch started, not finished */
	struct xfer_link awaiting; /* those with no byte back yet */
	heed_net *net;
	struct shard *shard;
	CURL *easy;
	struct curl_slist *connect_to, *resolve;
	struct curl_slist *headers; /* the request's extra headers */
	char *url;
	struct heed_dns_addr addr;
	heed_net_headers_fn *on_headers;
	heed_net_done_fn *on_done;
	void *ud;
	struct heed_buf body;
	bool got_byte;     /* anything at all came back */
	bool headers_done; /* the final (>= 200) header block ended */
	bool too_big, aborted, first_byte_timeout;
	int64_t start_ms;
	int64_t sent_ms;     /* the request left; 0: not yet */
	bool resend_refused; /* libcurl wanted to send it again */
	int64_t send_by_ms;  /* not sent after this; 0: no limit */
	bool not_sent;       /* ended at send_by_ms, unsent */
	/* The header block's Content-Length, to tell a second one that
	 * disagrees (bad_framing); empty: none seen. */
	char content_length[32];
	bool bad_framing;
	int64_t first_byte_at; /* monotonic; 0: nothing came back */
	char retry_after[128];
	bool has_retry_after;
	/* Copies of response headers the crawl engine needs. */
	char etag[256], last_modified[64], x_robots_tag[512];
	/* Freshness (heed_net_fresh_for): every Cache-Control and Expires
	 * line joined with ", ", the first Date; lines counted so that a
	 * field sent empty is still a field. */
	char cache_control[512], expires[64], date[64];
	unsigned cache_control_lines, expires_lines, date_lines;
	char errbuf[CURL_ERROR_SIZE];
	char pin_name[96]; /* the name pin_address() gave libcurl */
	const char *proxy; /* the net's proxy for this fetch; NULL: direct */
};

struct shard {
	heed_net *net;
	CURLM *multi;
	int index;
	int64_t timer_deadline_ms; /* -1: none */
};

struct heed_net {
	const struct heed_allocator *alloc;
	struct heed_logger logger;
	struct heed_net_options opt;
	char *user_agent;
	char *ca_file; /* NULL: libcurl's default bundle */
	char *http_proxy, *https_proxy, *no_proxy; /* NULL: none */
	/* Fetches are spread over several multi handles by host and address,
	 * so each keeps a share of the connections: libcurl 7.88 walks its
	 * whole connection cache whenever a fetch ends
	 * (curl_multi_remove_handle), which with 10,000 kept connections
	 * took a third of a crawl's CPU. */
	struct shard shards[NET_MAX_SHARDS];
	int nshards;
	/* libcurl's sockets live in one epoll set, and the caller's poll()
	 * watches only its descriptor: with thousands of connections, a
	 * poll() over each of them cost 28 % of a crawl's CPU. */
	int epfd;
	struct xfer_list running;
	/* The fetches still waiting for their first byte, oldest first: the
	 * next first-byte deadline is the head's. */
	struct xfer_list awaiting;
	/* Easy handles of finished fetches, reset for the next ones: making
	 * and freeing one per fetch cost more than resetting it. */
	CURL *idle_easy[NET_IDLE_EASY];
	int idle_easy_count;
	/* Whether the running libcurl may reuse them (easy_reusable()). */
	bool reuse_easy;
	size_t pending;
	struct xfer *done; /* the fetch whose on_done runs, or NULL */
};

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

const char *heed_net_error_name(heed_net_error error)
{
	static const char *const names[] = {
	        "ok",        "connect", "connect-timeout", "first-byte-timeout",
	        "timeout",   "tls",     "reset",           "truncated",
	        "too-big",   "aborted", "denied",          "protocol",
	        "cancelled", "other",   "not-sent",
	};

	return (size_t)error < HEED_ARRAY_SIZE(names) ? names[error]
	                                              : "invalid";
}

/* ---- the lists of fetches, and easy handles kept for reuse ---- */

static void list_append(struct xfer_list *l, struct xfer *x,
                        struct xfer_link *(*link)(struct xfer *))
{
	link(x)->prev = l->tail;
	link(x)->next = NULL;
	if (l->tail)
		link(l->tail)->next = x;
	else
		l->head = x;
	l->tail = x;
}

static void list_remove(struct xfer_list *l, struct xfer *x,
                        struct xfer_link *(*link)(struct xfer *))
{
	struct xfer_link *k = link(x);

	if (k->prev)
		link(k->prev)->next = k->next;
	else
		l->head = k->next;
	if (k->next)
		link(k->next)->prev = k->prev;
	else
		l->tail = k->prev;
	k->prev = k->next = NULL;
}

static struct xfer_link *running_link(struct xfer *x)
{
	return &x->running;
}

static struct xfer_link *awaiting_link(struct xfer *x)
{
	return &x->awaiting;
}

/* The first byte of an answer came: no first-byte deadline any more. */
static void got_first_byte(struct xfer *x)
{
	if (x->got_byte)
		return;
	x->got_byte = true;
	x->first_byte_at = now_ms();
	list_remove(&x->net->awaiting, x, awaiting_link);
}

/* libcurl is about to send the request on an established connection:
 * this, not the moment heed asked for the fetch, is when the server sees
 * a request begin, and the moment politeness counts from (a new
 * connection's handshakes come before it, a kept one's do not). */
static int on_prereq(void *ud, char *conn_primary_ip, char *conn_local_ip,
                     int conn_primary_port, int conn_local_port)
{
	struct xfer *x = ud;

	(void)conn_primary_ip;
	(void)conn_local_ip;
	(void)conn_primary_port;
	(void)conn_local_port;
	/* A second time for one fetch is libcurl resending the request on
	 * a new connection after a kept one died under it: a request
	 * politeness never saw, milliseconds after the first. It
	 * does not leave: the fetch fails as a reset, and the crawl tries
	 * the URL again when politeness allows. */
	if (x->sent_ms) {
		x->resend_refused = true;
		return CURL_PREREQFUNC_ABORT;
	}
	/* Connected too late for the caller's right to send (a lease). */
	if (x->send_by_ms && now_ms() > x->send_by_ms) {
		x->not_sent = true;
		return CURL_PREREQFUNC_ABORT;
	}
	x->sent_ms = now_ms();
	return CURL_PREREQFUNC_OK;
}

static CURL *easy_get(heed_net *net)
{
	return net->idle_easy_count ? net->idle_easy[--net->idle_easy_count]
	                            : curl_easy_init();
}

/* Before 8.1.0, libcurl kept a pointer to the last header of a handle's
 * previous transfer (curl issue 11101): a server whose first header line
 * is folded (starts with a space) made it unfold onto freed memory, a
 * use-after-free any site could trigger in heed. Such a libcurl gets a
 * fresh handle for every fetch. */
static bool easy_reusable(void)
{
	return curl_version_info(CURLVERSION_NOW)->version_num >= 0x080100;
}

static void easy_put(heed_net *net, CURL *easy)
{
	if (!net->reuse_easy || net->idle_easy_count == NET_IDLE_EASY) {
		curl_easy_cleanup(easy);
		return;
	}
	curl_easy_reset(easy);
	net->idle_easy[net->idle_easy_count++] = easy;
}

/* ---- sockets and timer, as libcurl asks for them ---- */

/* libcurl says which sockets to watch; socketp marks those already in
 * the epoll set. */
static int on_socket(CURL *easy, curl_socket_t fd, int what, void *userp,
                     void *socketp)
{
	struct shard *sh = userp;
	struct epoll_event ev = {0};

	(void)easy;
	if (what == CURL_POLL_REMOVE) {
		/* libcurl may have closed it already, which removed it. */
		epoll_ctl(sh->net->epfd, EPOLL_CTL_DEL, fd, NULL);
		curl_multi_assign(sh->multi, fd, NULL);
		return 0;
	}
	ev.events = ((what & CURL_POLL_IN) ? EPOLLIN : 0) |
	            ((what & CURL_POLL_OUT) ? EPOLLOUT : 0);
	ev.data.u64 = (uint64_t)sh->index << 32 | (uint32_t)fd;
	if (epoll_ctl(sh->net->epfd, socketp ? EPOLL_CTL_MOD : EPOLL_CTL_ADD,
	              fd, &ev) != 0)
		return -1;
	return curl_multi_assign(sh->multi, fd, sh) == CURLM_OK ? 0 : -1;
}

static int on_timer(CURLM *multi, long timeout_ms, void *userp)
{
	struct shard *sh = userp;

	(void)multi;
	sh->timer_deadline_ms = timeout_ms < 0 ? -1 : now_ms() + timeout_ms;
	return 0;
}

/* ---- one fetch ---- */

/* A connection's socket, its receive buffer set before it connects (the
 * window scale is agreed in the handshake). A kernel that refuses the
 * size keeps its own: the fetch works as before. */
static curl_socket_t open_socket(const struct xfer *x,
                                 const struct curl_sockaddr *a)
{
	int fd = socket(a->family, a->socktype | SOCK_CLOEXEC, a->protocol);
	int window = NET_RECV_WINDOW;

	if (fd >= 0 && x->net->opt.max_body_bytes / 4 >= NET_RECV_WINDOW)
		(void)setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &window,
		                 sizeof(window));
	return fd;
}

/* Only the pinned address: a second line of defence behind CONNECT_TO,
 * so that no libcurl behaviour can make "try every address" a lie or reach
 * an address the private-address check did not see. */
static curl_socket_t on_opensocket(void *ud, curlsocktype purpose,
                                   struct curl_sockaddr *a)
{
	struct xfer *x = ud;
	const void *bytes = NULL;
	size_t len = 0;

	/* Through a proxy, the one connection is to the proxy the operator
	 * named, never to the site: the site's address was checked before
	 * the fetch started (heed_net_start). */
	if (x->proxy && purpose == CURLSOCKTYPE_IPCXN)
		return open_socket(x, a);
	if (purpose != CURLSOCKTYPE_IPCXN || a->family != x->addr.family)
		return CURL_SOCKET_BAD;
	if (a->family == AF_INET) {
		bytes = &((const struct sockaddr_in *)&a->addr)->sin_addr;
		len = 4;
	} else if (a->family == AF_INET6) {
		bytes = &((const struct sockaddr_in6 *)&a->addr)->sin6_addr;
		len = 16;
	}
	if (!bytes || memcmp(bytes, x->addr.bytes, len) != 0) {
		heed_log(&x->net->logger, HEED_LOG_ERROR, "net",
		         "%s: refused a connection not to %s", x->url,
		         x->addr.text);
		return CURL_SOCKET_BAD;
	}
	return open_socket(x, a);
}

/* One allocation for the announced body instead of a dozen doublings (a
 * 56 KB page cost ten reallocs and their copies). Content-Length counts
 * encoded bytes, so it is a hint: the buffer still grows past it. */
static void reserve_body(struct xfer *x)
{
	curl_off_t announced = -1;
	size_t want;

	if (curl_easy_getinfo(x->easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T,
	                      &announced) != CURLE_OK ||
	    announced <= 0)
		return;
	want = (uint64_t)announced < x->body.max_bytes ? (size_t)announced
	                                               : x->body.max_bytes;
	(void)heed__buf_reserve(&x->body, want);
}

static size_t on_write(char *p, size_t size, size_t n, void *ud)
{
	struct xfer *x = ud;
	size_t len = size * n, room = x->body.max_bytes - x->body.len;

	got_first_byte(x);
	if (!x->body.cap)
		reserve_body(x);
	if (len > room) {
		/* Keep what fits: a robots.txt over the cap is parsed up to
		 * it, not thrown away. */
		if (room && heed__buf_add(&x->body, p, room) != HEED_OK)
			return 0;
		x->too_big = true;
		return 0;
	}
	if (len && heed__buf_add(&x->body, p, len) != HEED_OK)
		return 0;
	return len;
}

static void fill_response(struct xfer *x, struct heed_net_response *r)
{
	long code = 0, version = 0;
	curl_off_t connect_us = 0;
	char *ct = NULL;

	memset(r, 0, sizeof(*r));
	r->url = x->url;
	r->address = x->addr.text;
	r->error_text = "";
	curl_easy_getinfo(x->easy, CURLINFO_RESPONSE_CODE, &code);
	curl_easy_getinfo(x->easy, CURLINFO_HTTP_VERSION, &version);
	curl_easy_getinfo(x->easy, CURLINFO_CONTENT_TYPE, &ct);
	r->status = (int)code;
	r->http_version = version == CURL_HTTP_VERSION_1_0   ? 10
	                  : version == CURL_HTTP_VERSION_1_1 ? 11
	                  : version == CURL_HTTP_VERSION_2_0 ? 20
	                                                     : 0;
	r->content_type = ct;
	r->retry_after = x->has_retry_after ? x->retry_after : NULL;
	r->etag = x->etag[0] ? x->etag : NULL;
	r->last_modified = x->last_modified[0] ? x->last_modified : NULL;
	r->x_robots_tag = x->x_robots_tag[0] ? x->x_robots_tag : NULL;
	r->cache_control = x->cache_control_lines ? x->cache_control : NULL;
	r->expires = x->expires_lines ? x->expires : NULL;
	r->date = x->date_lines ? x->date : NULL;
	curl_easy_getinfo(x->easy, CURLINFO_CONNECT_TIME_T, &connect_us);
	/* Connected means a request may have reached the server: the next
	 * attempt on the host must wait its delay. */
	r->connected = r->status > 0 || x->got_byte || connect_us > 0 ||
	               x->sent_ms > 0;
	r->sent_ms = x->sent_ms;
	r->heard_ms = x->first_byte_at ? x->first_byte_at
	              : r->connected   ? now_ms()
	                               : 0;
	r->first_byte_ms =
	        x->first_byte_at ? x->first_byte_at - x->start_ms : 0;
	r->elapsed_ms = now_ms() - x->start_ms;
}

static bool header_is(const char *p, size_t len, const char *name)
{
	size_t n = strlen(name);

	return len > n && p[n] == ':' && heed__ascii_ieq(p, n, name);
}

static void keep_retry_after(struct xfer *x, const char *p, size_t len)
{
	size_t start = strlen("Retry-After:");

	while (len > start && (p[len - 1] == '\r' || p[len - 1] == '\n'))
		len--;
	while (start < len && heed__ascii_space(p[start]))
		start++;
	snprintf(x->retry_after, sizeof(x->retry_after), "%.*s",
	         (int)(len - start), p + start);
	x->has_retry_after = true;
}

/* Copies the value of one header line into dst; appends with ", " when
 * append is set and dst already holds a value (repeated X-Robots-Tag). */
static void keep_header(char *dst, size_t size, const char *p, size_t len,
                        bool append)
{
	const char *v = memchr(p, ':', len);
	size_t used = append ? strlen(dst) : 0;

	if (!v)
		return;
	v++;
	while (len > 0 && (p[len - 1] == '\r' || p[len - 1] == '\n'))
		len--;
	while (v < p + len && heed__ascii_space(*v))
		v++;
	if (used && used + 2 < size)
		used += (size_t)snprintf(dst + used, size - used, ", ");
	if (used < size)
		snprintf(dst + used, size - used, "%.*s", (int)(p + len - v),
		         v);
}

/*
 * Appends one header line's value to a list field (RFC 9110 5.3: lines of
 * one field are one comma-separated list), counting the lines. A value that
 * does not fit whole is dropped rather than cut, so a cut never turns
 * "max-age=86400" into "max-age=86" or a date into another date: the
 * field then reads as if that line had not come (for Expires, the first of
 * two dates is used, which RFC 9111 4.2.1 allows).
 */
static void keep_list(char *dst, size_t size, unsigned *lines, const char *p,
                      size_t len)
{
	char value[512] = "";
	size_t used = strlen(dst), n;

	keep_header(value, sizeof(value), p, len, false);
	n = strlen(value);
	if (n + 1 >= sizeof(value))
		return; /* cut by keep_header */
	while (n > 0 && heed__ascii_space(value[n - 1]))
		value[--n] = '\0'; /* RFC 9110 5.5: not part of the value */
	if (used + (*lines ? 2 : 0) + n + 1 > size)
		return;
	snprintf(dst + used, size - used, "%s%s", *lines ? ", " : "", value);
	(*lines)++;
}

/* Two Content-Lengths that disagree leave the answer's end unknown (RFC
 * 9112, 6.3): libcurl 7.88 takes the last one, and whatever follows could
 * be read as the next answer on the connection. Such an answer is a
 * protocol error, never a record. */
static bool framing_ok(struct xfer *x, const char *p, size_t len)
{
	char value[sizeof(x->content_length)] = "";

	if (!header_is(p, len, "Content-Length"))
		return true;
	keep_header(value, sizeof(value), p, len, false);
	if (!x->content_length[0]) {
		memcpy(x->content_length, value, sizeof(value));
		return true;
	}
	return strcmp(x->content_length, value) == 0;
}

/* Keeps the validators and robots directives; false for other lines. */
static bool keep_crawl_header(struct xfer *x, const char *p, size_t len)
{
	if (header_is(p, len, "ETag"))
		keep_header(x->etag, sizeof(x->etag), p, len, false);
	else if (header_is(p, len, "Last-Modified"))
		keep_header(x->last_modified, sizeof(x->last_modified), p, len,
		            false);
	else if (header_is(p, len, "X-Robots-Tag"))
		keep_header(x->x_robots_tag, sizeof(x->x_robots_tag), p, len,
		            true);
	else
		return false;
	return true;
}

/* Keeps what heed_net_fresh_for reads; false for other lines. */
static bool keep_fresh_header(struct xfer *x, const char *p, size_t len)
{
	if (header_is(p, len, "Cache-Control")) {
		keep_list(x->cache_control, sizeof(x->cache_control),
		          &x->cache_control_lines, p, len);
	} else if (header_is(p, len, "Expires")) {
		keep_list(x->expires, sizeof(x->expires), &x->expires_lines, p,
		          len);
	} else if (header_is(p, len, "Date")) {
		/* RFC 9110 6.6.1 allows one Date; the first is kept. */
		if (x->date_lines++ == 0)
			keep_header(x->date, sizeof(x->date), p, len, false);
	} else {
		return false;
	}
	return true;
}

static size_t on_header(char *p, size_t size, size_t n, void *ud)
{
	struct xfer *x = ud;
	size_t len = size * n;
	struct heed_net_response r;

	got_first_byte(x);
	if (len >= 5 && memcmp(p, "HTTP/", 5) == 0) {
		/* A new header block (after a 1xx): forget the last one. */
		x->has_retry_after = false;
		x->etag[0] = x->last_modified[0] = x->x_robots_tag[0] = '\0';
		x->cache_control[0] = x->expires[0] = x->date[0] = '\0';
		x->cache_control_lines = x->expires_lines = x->date_lines = 0;
		x->content_length[0] = '\0';
		return len;
	}
	if (!framing_ok(x, p, len)) {
		x->bad_framing = true;
		return 0;
	}
	if (keep_crawl_header(x, p, len) || keep_fresh_header(x, p, len))
		return len;
	if (header_is(p, len, "Retry-After")) {
		keep_retry_after(x, p, len);
		return len;
	}
	if (!(len <= 2 && (p[0] == '\r' || p[0] == '\n')))
		return len;
	fill_response(x, &r);
	if (r.status < 200)
		return len;
	x->headers_done = true;
	if (x->on_headers && !x->on_headers(x->ud, &r)) {
		x->aborted = true;
		return 0;
	}
	return len;
}

static heed_net_error map_error(const struct xfer *x, CURLcode code,
                                bool connected)
{
	if (x->first_byte_timeout)
		return HEED_NET_FIRST_BYTE_TIMEOUT;
	if (x->too_big)
		return HEED_NET_TOO_BIG;
	if (x->aborted)
		return HEED_NET_ABORTED;
	if (x->resend_refused)
		return HEED_NET_RESET;
	if (x->not_sent)
		return HEED_NET_NOT_SENT;
	if (x->bad_framing)
		return HEED_NET_PROTOCOL;
	switch (code) {
	case CURLE_OK:
		return HEED_NET_OK;
	case CURLE_COULDNT_CONNECT:
		return HEED_NET_CONNECT;
	case CURLE_OPERATION_TIMEDOUT:
		return connected ? HEED_NET_TOTAL_TIMEOUT
		                 : HEED_NET_CONNECT_TIMEOUT;
	case CURLE_SSL_CONNECT_ERROR:
	case CURLE_PEER_FAILED_VERIFICATION:
	case CURLE_SSL_CERTPROBLEM:
	case CURLE_SSL_CIPHER:
	case CURLE_SSL_CACERT_BADFILE:
	case CURLE_SSL_ISSUER_ERROR:
		return HEED_NET_TLS;
	case CURLE_RECV_ERROR:
	case CURLE_SEND_ERROR:
	case CURLE_GOT_NOTHING:
		return HEED_NET_RESET;
	case CURLE_PARTIAL_FILE:
		return HEED_NET_TRUNCATED;
	case CURLE_WEIRD_SERVER_REPLY:
	case CURLE_BAD_CONTENT_ENCODING:
	case CURLE_HTTP2:
	case CURLE_HTTP2_STREAM:
	case CURLE_UNSUPPORTED_PROTOCOL:
		return HEED_NET_PROTOCOL;
	default:
		return HEED_NET_OTHER;
	}
}

static void free_xfer(heed_net *net, struct xfer *x)
{
	if (x->easy)
		easy_put(net, x->easy);
	curl_slist_free_all(x->connect_to);
	curl_slist_free_all(x->resolve);
	curl_slist_free_all(x->headers);
	heed__buf_free(&x->body);
	heed__free(net->alloc, x->url);
	heed__free(net->alloc, x);
}

static void unlink_xfer(heed_net *net, struct xfer *x)
{
	list_remove(&net->running, x, running_link);
	if (!x->got_byte)
		list_remove(&net->awaiting, x, awaiting_link);
	net->pending--;
}

/* libcurl's message names the host it connected to, which is heed's pin
 * name (pin_address()): the message a user reads names the address. */
static const char *unpinned_error(struct xfer *x)
{
	char *at = strstr(x->errbuf, x->pin_name);
	size_t name_len = strlen(x->pin_name), addr_len = strlen(x->addr.text);

	if (at && x->pin_name[0] && addr_len <= name_len) {
		memcpy(at, x->addr.text, addr_len);
		memmove(at + addr_len, at + name_len,
		        strlen(at + name_len) + 1);
	}
	return x->errbuf;
}

/* A refused or reset connection says so in the system's words
 * ("Connection refused"), not in libcurl's longer ones. */
static const char *os_error(struct xfer *x, const char *fallback)
{
	long os_errno = 0;

	if (curl_easy_getinfo(x->easy, CURLINFO_OS_ERRNO, &os_errno) !=
	            CURLE_OK ||
	    !os_errno)
		return fallback;
	return strerror((int)os_errno);
}

/* Ends a fetch: reads what libcurl knows, takes the handle out of the
 * multi, calls on_done once, frees everything. */
static void finish(heed_net *net, struct xfer *x, CURLcode code,
                   heed_net_error forced)
{
	struct heed_net_response r;
	struct xfer *outer;
	char *location = NULL;

	fill_response(x, &r);
	r.error = forced != HEED_NET_OK ? forced
	                                : map_error(x, code, r.connected);
	r.error_text = x->errbuf[0] ? unpinned_error(x)
	               : code       ? curl_easy_strerror(code)
	                            : "";
	if (r.error == HEED_NET_OK && !x->headers_done) {
		/* libcurl 7.88 calls a close in the middle of the headers a
		 * success: it is an answer cut short, never a record. */
		r.error = HEED_NET_TRUNCATED;
		r.error_text = "the connection closed in the headers";
	}
	if (r.error == HEED_NET_CONNECT || r.error == HEED_NET_RESET)
		r.error_text = os_error(x, r.error_text);
	if (r.error == HEED_NET_FIRST_BYTE_TIMEOUT)
		r.error_text = "no answer within the first-byte timeout";
	if (r.error == HEED_NET_CANCELLED)
		r.error_text = "cancelled";
	if (r.status >= 300 && r.status < 400 &&
	    curl_easy_getinfo(x->easy, CURLINFO_REDIRECT_URL, &location) ==
	            CURLE_OK)
		r.location = location;
	r.body = x->body.len ? heed__buf_str(&x->body) : NULL;
	r.body_len = x->body.len;
	r.truncated = x->headers_done && (r.error == HEED_NET_TRUNCATED ||
	                                  r.error == HEED_NET_RESET ||
	                                  r.error == HEED_NET_TOTAL_TIMEOUT ||
	                                  r.error == HEED_NET_PROTOCOL);
	heed_log(&net->logger, HEED_LOG_DEBUG, "net",
	         "GET %s via %s: %s, status %d, %zu bytes, %lld ms", x->url,
	         x->addr.text, heed_net_error_name(r.error), r.status,
	         r.body_len, (long long)r.elapsed_ms);
	curl_multi_remove_handle(x->shard->multi, x->easy);
	unlink_xfer(net, x);
	/* A callback may end other fetches (heed_net_free); each takes
	 * only its own body. */
	outer = net->done;
	net->done = x;
	x->on_done(x->ud, &r);
	net->done = outer;
	free_xfer(net, x);
}

/* libcurl's default keeps 4 connections per running fetch, and closes
 * the oldest beyond that: with a thousand sites each fetched once a
 * second and a hundred fetches running, a site's connection was always
 * gone when its next fetch came (20,174 connections for 23,000 requests
 * in bench/crawl). Keeping one per site saves the site a handshake per
 * request and the crawler a connect and a close. */
static long idle_connections(const struct heed_net_options *opt)
{
	struct rlimit rl;
	rlim_t spare;

	if (opt->max_idle_connections > 0)
		return opt->max_idle_connections;
	if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
		return NET_MAX_IDLE;
	/* Leave room for the running fetches, the store and DNS. */
	spare = rl.rlim_cur > NET_FD_RESERVE + 64 ? rl.rlim_cur - NET_FD_RESERVE
	                                          : 64;
	return spare > NET_MAX_IDLE ? NET_MAX_IDLE : (long)spare;
}

/* The port a URL connects to: the one it names, else its scheme's. */
static unsigned url_port(const char *url)
{
	bool https = strncmp(url, "https://", 8) == 0;
	const char *host = url + (https ? 8 : 7);
	const char *end = host + strcspn(host, "/?#");
	const char *colon = NULL;

	/* The last ':' of the authority that is not inside an IPv6 literal. */
	for (const char *p = host; p < end; p++)
		if (*p == ':')
			colon = p;
		else if (*p == ']')
			colon = NULL;
	if (colon && colon + 1 < end)
		return (unsigned)strtoul(colon + 1, NULL, 10);
	return https ? 443 : 80;
}

/*
 * Pins the fetch to x->addr. CONNECT_TO sends the connection to a name of
 * heed's own, one per host and address ("h<hash>-<address>.heed.invalid"),
 * which RESOLVE maps to the address in libcurl's cache, so libcurl never
 * resolves a name itself. The name matters: libcurl 7.88 files kept
 * connections in bundles by the connect-to host and walks a bundle, and
 * checks each of its connections is alive, every time it looks for one to
 * reuse; with the address itself as the name, the 10,000 sites of one
 * shared server made one bundle, and those walks took half a crawl's CPU.
 * A name per host and address keeps each bundle to one connection, and
 * never lets a connection to one address serve a fetch pinned to another.
 * The .invalid top-level domain (RFC 6761) resolves nowhere, should the
 * name ever leave libcurl.
 */
static bool pin_address(struct xfer *x)
{
	const char *host = strstr(x->url, "://");
	char addr[sizeof(x->addr.text)], pin[128], resolve[160];
	char *name = x->pin_name;
	size_t len, i;

	host = host ? host + 3 : x->url;
	len = strcspn(host, "/?#");
	/* The address as a DNS label: dots and colons become dashes. */
	for (i = 0; x->addr.text[i] && i + 1 < sizeof(addr); i++)
		addr[i] = x->addr.text[i] == '.' || x->addr.text[i] == ':'
		                  ? '-'
		                  : x->addr.text[i];
	addr[i] = '\0';
	snprintf(name, sizeof(x->pin_name), "h%016llx-%s.heed.invalid",
	         (unsigned long long)heed__hash(host, len), addr);
	snprintf(pin, sizeof(pin), "::%s:", name);
	snprintf(resolve, sizeof(resolve),
	         x->addr.family == AF_INET6 ? "%s:%u:[%s]" : "%s:%u:%s", name,
	         url_port(x->url), x->addr.text);
	x->connect_to = curl_slist_append(NULL, pin);
	x->resolve = curl_slist_append(NULL, resolve);
	return x->connect_to && x->resolve;
}

/* The proxy a fetch goes through: the one for its scheme, unless its host
 * is in no_proxy; NULL: direct. */
static const char *proxy_for(const heed_net *net, const char *url)
{
	const char *proxy = strncmp(url, "https://", 8) == 0 ? net->https_proxy
	                                                     : net->http_proxy;

	if (!proxy || heed_net_no_proxy_match(net->no_proxy, url))
		return NULL;
	return proxy;
}

/* Direct: pinned, and no proxy whatever the environment says (an empty
 * CURLOPT_PROXY). Proxied: the proxy, and an empty CURLOPT_NOPROXY so that
 * libcurl's reading of no_proxy in the environment never applies; heed
 * matched no_proxy itself (proxy_for). */
static bool route(struct xfer *x)
{
	CURL *e = x->easy;

	if (x->proxy)
		return curl_easy_setopt(e, CURLOPT_PROXY, x->proxy) ==
		               CURLE_OK &&
		       curl_easy_setopt(e, CURLOPT_NOPROXY, "") == CURLE_OK;
	return pin_address(x) &&
	       curl_easy_setopt(e, CURLOPT_CONNECT_TO, x->connect_to) ==
	               CURLE_OK &&
	       curl_easy_setopt(e, CURLOPT_RESOLVE, x->resolve) == CURLE_OK &&
	       curl_easy_setopt(e, CURLOPT_PROXY, "") == CURLE_OK;
}

static long read_buffer(size_t max_body)
{
	size_t quarter = max_body / 4;

	if (quarter < NET_READ_BUFFER_MIN)
		return NET_READ_BUFFER_MIN;
	return quarter > NET_READ_BUFFER_MAX ? NET_READ_BUFFER_MAX
	                                     : (long)quarter;
}

static bool easy_setup(heed_net *net, struct xfer *x, size_t max_body)
{
	CURL *e = x->easy;

	x->proxy = proxy_for(net, x->url);
	if (!route(x))
		return false;
	heed__buf_init(&x->body, net->alloc, max_body);
	return curl_easy_setopt(e, CURLOPT_URL, x->url) == CURLE_OK &&
	       curl_easy_setopt(e, CURLOPT_PRIVATE, x) == CURLE_OK &&
	       curl_easy_setopt(e, CURLOPT_OPENSOCKETFUNCTION, on_opensocket) ==
	               CURLE_OK &&
	       curl_easy_setopt(e, CURLOPT_OPENSOCKETDATA, x) == CURLE_OK &&
	       curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https") ==
	               CURLE_OK &&
	       curl_easy_setopt(e, CURLOPT_USERAGENT, net->user_agent) ==
	               CURLE_OK &&
	       curl_easy_setopt(e, CURLOPT_ACCEPT_ENCODING, "") == CURLE_OK &&
	       curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L) == CURLE_OK &&
	       curl_easy_setopt(e, CURLOPT_BUFFERSIZE, read_buffer(max_body)) ==
	               CURLE_OK &&
	       curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L) == CURLE_OK &&
	       curl_easy_setopt(e, CURLOPT_HTTP_VERSION,
	                        (long)CURL_HTTP_VERSION_2TLS) == CURLE_OK &&
	       curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS,
	                        (long)net->opt.connect_timeout_ms) ==
	               CURLE_OK &&
	       curl_easy_setopt(e, CURLOPT_TIMEOUT_MS,
	                        (long)net->opt.total_timeout_ms) == CURLE_OK &&
	       curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_write) ==
	               CURLE_OK &&
	       curl_easy_setopt(e, CURLOPT_WRITEDATA, x) == CURLE_OK &&
	       curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, on_header) ==
	               CURLE_OK &&
	       curl_easy_setopt(e, CURLOPT_HEADERDATA, x) == CURLE_OK &&
	       curl_easy_setopt(e, CURLOPT_PREREQFUNCTION, on_prereq) ==
	               CURLE_OK &&
	       curl_easy_setopt(e, CURLOPT_PREREQDATA, x) == CURLE_OK &&
	       curl_easy_setopt(e, CURLOPT_ERRORBUFFER, x->errbuf) ==
	               CURLE_OK &&
	       (!net->ca_file ||
	        curl_easy_setopt(e, CURLOPT_CAINFO, net->ca_file) == CURLE_OK);
}

static bool http_url(const char *url)
{
	return strncmp(url, "http://", 7) == 0 ||
	       strncmp(url, "https://", 8) == 0;
}

/* Sets the request's extra headers (copied by curl_slist_append). */
static bool add_headers(struct xfer *x, const struct heed_net_request *req)
{
	for (size_t i = 0; i < req->header_count; i++) {
		struct curl_slist *l =
		        curl_slist_append(x->headers, req->headers[i]);
		if (!l)
			return false;
		x->headers = l;
	}
	return !x->headers || curl_easy_setopt(x->easy, CURLOPT_HTTPHEADER,
	                                       x->headers) == CURLE_OK;
}

/* The multi handle for a fetch: the same for every fetch to one host at
 * one address, so that they share its kept connection. */
static struct shard *shard_of(heed_net *net, const char *url,
                              const struct heed_dns_addr *addr)
{
	const char *host = strstr(url, "://");
	size_t len;

	host = host ? host + 3 : url;
	len = strcspn(host, "/?#");
	return &net->shards[(heed__hash(host, len) ^
	                     heed__hash_str(addr->text)) %
	                    (uint64_t)net->nshards];
}

heed_status heed_net_start(heed_net *net, const struct heed_net_request *req)
{
	struct xfer *x;

	if (!req->url || !http_url(req->url) || !req->addr || !req->on_done)
		return HEED_EINVAL;
	if (!heed_net_addr_allowed(req->addr, net->opt.allow_private)) {
		heed_log(&net->logger, HEED_LOG_WARN, "net",
		         "%s: refused %s address %s", req->url,
		         heed_net_addr_kind_name(
		                 heed_net_addr_classify(req->addr)),
		         req->addr->text);
		return HEED_EDENIED;
	}
	x = heed__calloc(net->alloc, 1, sizeof(*x));
	if (!x)
		return HEED_ENOMEM;
	x->net = net;
	x->addr = *req->addr;
	x->on_headers = req->on_headers;
	x->on_done = req->on_done;
	x->ud = req->ud;
	x->send_by_ms = req->send_by_ms;
	x->url = heed__strndup(net->alloc, req->url, strlen(req->url));
	x->easy = easy_get(net);
	if (x->url)
		x->shard = shard_of(net, x->url, &x->addr);
	if (!x->url || !x->easy || !add_headers(x, req) ||
	    !easy_setup(net, x,
	                req->max_body_bytes ? req->max_body_bytes
	                                    : net->opt.max_body_bytes) ||
	    curl_multi_add_handle(x->shard->multi, x->easy) != CURLM_OK) {
		free_xfer(net, x);
		return HEED_ENOMEM;
	}
	x->start_ms = now_ms();
	list_append(&net->running, x, running_link);
	list_append(&net->awaiting, x, awaiting_link);
	net->pending++;
	heed_log(&net->logger, HEED_LOG_DEBUG, "net", "GET %s via %s%s",
	         req->url, x->proxy ? "the proxy, checked " : "", x->addr.text);
	return HEED_OK;
}

/* ---- the loop ---- */

char *heed_net_take_body(heed_net *net, const struct heed_net_response *r)
{
	struct xfer *x = net->done;

	if (!x || !r->body || r->body != x->body.data)
		return NULL;
	return heed__buf_take(&x->body);
}

size_t heed_net_pending(const heed_net *net)
{
	return net->pending;
}

int heed_net_pollfds(heed_net *net, struct pollfd *fds, int max)
{
	if (max < 1)
		return 0;
	fds[0] = (struct pollfd){.fd = net->epfd, .events = POLLIN};
	return 1;
}

int heed_net_timeout_ms(heed_net *net, int max_ms)
{
	int64_t now = now_ms(), t = max_ms;
	const struct xfer *x;

	for (int i = 0; i < net->nshards; i++) {
		int64_t d = net->shards[i].timer_deadline_ms;
		if (d >= 0 && d - now < t)
			t = d - now;
	}
	x = net->awaiting.head;
	if (x && x->start_ms + net->opt.first_byte_timeout_ms - now < t)
		t = x->start_ms + net->opt.first_byte_timeout_ms - now;
	return t < 0 ? 0 : (int)t;
}

/* libcurl has no first-byte timeout: heed keeps one per fetch. */
static void check_first_byte(heed_net *net)
{
	int64_t now = now_ms();
	struct xfer *x;

	/* Oldest first: the first one still within its time ends the scan.
	 * on_done may start fetches, which join at the tail. */
	while ((x = net->awaiting.head) &&
	       now - x->start_ms >= net->opt.first_byte_timeout_ms) {
		x->first_byte_timeout = true;
		finish(net, x, CURLE_OPERATION_TIMEDOUT,
		       HEED_NET_FIRST_BYTE_TIMEOUT);
	}
}

static void read_done(heed_net *net)
{
	CURLMsg *msg;
	int left;

	for (int i = 0; i < net->nshards; i++)
		while ((msg = curl_multi_info_read(net->shards[i].multi,
		                                   &left))) {
			struct xfer *x = NULL;
			if (msg->msg != CURLMSG_DONE)
				continue;
			curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE,
			                  &x);
			if (x)
				finish(net, x, msg->data.result, HEED_NET_OK);
		}
}

/* Hands libcurl every socket the epoll set reports, a batch at a time,
 * for as long as it reports a full batch. */
static void process_sockets(heed_net *net)
{
	struct epoll_event ev[NET_EVENT_BATCH];
	int n, running = 0;

	do {
		n = epoll_wait(net->epfd, ev, NET_EVENT_BATCH, 0);
		for (int i = 0; i < n; i++) {
			int mask = 0;
			if (ev[i].events & EPOLLIN)
				mask |= CURL_CSELECT_IN;
			if (ev[i].events & EPOLLOUT)
				mask |= CURL_CSELECT_OUT;
			if (ev[i].events & (EPOLLERR | EPOLLHUP))
				mask |= CURL_CSELECT_ERR;
			curl_multi_socket_action(
			        net->shards[ev[i].data.u64 >> 32].multi,
			        (curl_socket_t)(uint32_t)ev[i].data.u64, mask,
			        &running);
		}
	} while (n == NET_EVENT_BATCH);
}

void heed_net_process(heed_net *net, const struct pollfd *fds, int count)
{
	int running = 0;

	for (int i = 0; i < count; i++)
		if (fds[i].fd == net->epfd && fds[i].revents)
			process_sockets(net);
	for (int i = 0; i < net->nshards; i++) {
		struct shard *sh = &net->shards[i];
		if (sh->timer_deadline_ms >= 0 &&
		    now_ms() >= sh->timer_deadline_ms) {
			sh->timer_deadline_ms = -1;
			curl_multi_socket_action(sh->multi, CURL_SOCKET_TIMEOUT,
			                         0, &running);
		}
	}
	read_done(net);
	check_first_byte(net);
}

/* ---- life ---- */

/* One multi handle per NET_SHARD_CONNS kept connections, each keeping
 * its share of them. */
static bool make_shards(heed_net *net, long idle)
{
	int want = (int)((idle + NET_SHARD_CONNS - 1) / NET_SHARD_CONNS);
	long each;

	want = want < 1 ? 1 : want > NET_MAX_SHARDS ? NET_MAX_SHARDS : want;
	each = idle / want > 4 ? idle / want : 4;
	for (int i = 0; i < want; i++) {
		struct shard *sh = &net->shards[i];
		*sh = (struct shard){net, curl_multi_init(), i, -1};
		if (!sh->multi)
			return false;
		net->nshards++;
		if (curl_multi_setopt(sh->multi, CURLMOPT_SOCKETFUNCTION,
		                      on_socket) != CURLM_OK ||
		    curl_multi_setopt(sh->multi, CURLMOPT_SOCKETDATA, sh) !=
		            CURLM_OK ||
		    curl_multi_setopt(sh->multi, CURLMOPT_TIMERFUNCTION,
		                      on_timer) != CURLM_OK ||
		    curl_multi_setopt(sh->multi, CURLMOPT_TIMERDATA, sh) !=
		            CURLM_OK ||
		    curl_multi_setopt(sh->multi, CURLMOPT_MAXCONNECTS, each) !=
		            CURLM_OK)
			return false;
	}
	return true;
}

/* A copy of an optional text option into *dst; NULL or "" stays NULL. */
static bool copy_opt(const struct heed_allocator *alloc, char **dst,
                     const char *src)
{
	if (!src || !*src)
		return true;
	*dst = heed__strndup(alloc, src, strlen(src));
	return *dst != NULL;
}

heed_status heed_net_new(heed_net **out, const struct heed_net_options *opt,
                         const struct heed_logger *logger,
                         const struct heed_allocator *alloc,
                         struct heed_diag *diag)
{
	heed_net *net;

	*out = NULL;
	if (!opt->user_agent || !*opt->user_agent)
		return heed_diag_set(diag, HEED_ECONFIG, 0, 0,
		                     "no User-Agent for HTTP requests");
	alloc = alloc ? alloc : heed_allocator_default();
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
		return heed_diag_set(diag, HEED_ECONFIG, 0, 0,
		                     "libcurl failed to initialise");
	net = heed__calloc(alloc, 1, sizeof(*net));
	if (!net) {
		curl_global_cleanup();
		return HEED_ENOMEM;
	}
	net->alloc = alloc;
	net->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (net->epfd < 0) {
		heed_net_free(net);
		return heed_diag_set(diag, HEED_ENOMEM, 0, 0,
		                     "epoll_create1: %s", strerror(errno));
	}
	if (logger)
		net->logger = *logger;
	net->opt = *opt;
	net->opt.user_agent = NULL;
	net->opt.ca_file = NULL;
	net->opt.http_proxy = net->opt.https_proxy = net->opt.no_proxy = NULL;
	if (!copy_opt(alloc, &net->ca_file, opt->ca_file) ||
	    !copy_opt(alloc, &net->http_proxy, opt->http_proxy) ||
	    !copy_opt(alloc, &net->https_proxy, opt->https_proxy) ||
	    !copy_opt(alloc, &net->no_proxy, opt->no_proxy)) {
		heed_net_free(net);
		return HEED_ENOMEM;
	}
	if (net->opt.connect_timeout_ms <= 0)
		net->opt.connect_timeout_ms = DEFAULT_CONNECT_MS;
	if (net->opt.first_byte_timeout_ms <= 0)
		net->opt.first_byte_timeout_ms = DEFAULT_FIRST_BYTE_MS;
	if (net->opt.total_timeout_ms <= 0)
		net->opt.total_timeout_ms = DEFAULT_TOTAL_MS;
	if (!net->opt.max_body_bytes)
		net->opt.max_body_bytes = DEFAULT_MAX_BODY;
	net->reuse_easy = easy_reusable();
	net->user_agent =
	        heed__strndup(alloc, opt->user_agent, strlen(opt->user_agent));
	if (!net->user_agent || !make_shards(net, idle_connections(opt))) {
		heed_net_free(net);
		return HEED_ENOMEM;
	}
	*out = net;
	return HEED_OK;
}

void heed_net_free(heed_net *net)
{
	if (!net)
		return;
	while (net->running.head)
		finish(net, net->running.head, CURLE_OK, HEED_NET_CANCELLED);
	while (net->idle_easy_count)
		curl_easy_cleanup(net->idle_easy[--net->idle_easy_count]);
	for (int i = 0; i < net->nshards; i++)
		curl_multi_cleanup(net->shards[i].multi);
	if (net->epfd >= 0)
		close(net->epfd);
	heed__free(net->alloc, net->user_agent);
	heed__free(net->alloc, net->ca_file);
	heed__free(net->alloc, net->http_proxy);
	heed__free(net->alloc, net->https_proxy);
	heed__free(net->alloc, net->no_proxy);
	heed__free(net->alloc, net);
	curl_global_cleanup();
}
