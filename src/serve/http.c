/*
 * The HTTP shell of `heed serve`: libmicrohttpd's threads take requests,
 * this file bounds them, gives each a read-only store connection and hands
 * it to the route table (route.c), then sends the answer with the
 * security headers every page carries and writes the access log.
 *
 * Nothing here decides what a page says; nothing in the pages touches a
 * socket.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "heed/serve.h"
#include "heed/store.h"
#include "serve/serve-int.h"

/* Longest request target (path and query) answered; longer is 414. Real
 * links of the index stay far below it; a longer one is a probe. */
#define MAX_TARGET 2048
/* Largest request head (request line and header fields) answered; a
 * larger one is answered 431 by heed, with every header of its answers. */
#define MAX_HEAD (16u << 10)
/* Memory libmicrohttpd may use per connection, request line and headers
 * included. Four times MAX_HEAD, so heed sees every head up to about
 * that size and answers one over MAX_HEAD with its 431 (written on the
 * socket itself when the head leaves no room for it: send_431_directly);
 * libmicrohttpd answers a head larger than its memory itself, without
 * heed's headers (docs/serve.md, "Safe by construction"). */
#define CONNECTION_MEMORY    (4 * MAX_HEAD)
#define CONNECTION_TIMEOUT_S 30
#define MAX_CONNECTIONS      1024
#define MAX_THREADS          256

/* Every answer carries these. The pages have no script and no inline
 * style, so the policy can forbid both; frame-ancestors and
 * X-Frame-Options keep the index out of other sites' frames. */
static const char *const security_headers[][2] = {
        {"Content-Security-Policy",
         "default-src 'none'; style-src 'self'; img-src 'self' data:; "
         "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"},
        {"X-Content-Type-Options", "nosniff"},
        {"Referrer-Policy", "no-referrer"},
        {"X-Frame-Options", "DENY"},
        {"Cross-Origin-Opener-Policy", "same-origin"},
};

struct heed_serve {
	struct MHD_Daemon *mhd;
	struct heed__serve_ctx ctx;
	struct heed__serve_metrics metrics;
	const struct heed_allocator *alloc;
	char *base_url;   /* owned: serve.base_url without a trailing '/' */
	char *store_path; /* owned: the store's location */
	FILE *access_log;
	pthread_mutex_t log_lock;
	/* Read-only store connections, one per thread at most: a thread
	 * takes one for a request and puts it back. */
	pthread_mutex_t pool_lock;
	heed_store *pool[MAX_THREADS];
	size_t pooled;
	unsigned port;
};

/* One request, from its first line to its completion. */
struct request {
	struct timespec started;
	char *target; /* the raw request target, for the log; owned */
	size_t target_len;
	bool headers_seen; /* the handler's first call has returned */
	/* Where the target ends in libmicrohttpd's copy of the request
	 * line: the version follows right after it, unless a raw NUL cut
	 * the target short. */
	uintptr_t target_end;
};

static int64_t elapsed_us(const struct timespec *from)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (int64_t)(now.tv_sec - from->tv_sec) * 1000000 +
	       (now.tv_nsec - from->tv_nsec) / 1000;
}

/* libmicrohttpd's URI log callback: the first thing known of a request,
 * so the clock starts here and the raw target is kept for the log. */
static void *on_target(void *cls, const char *uri, struct MHD_Connection *con)
{
	struct heed_serve *s = cls;
	struct request *r = heed__calloc(s->alloc, 1, sizeof(*r));

	(void)con;
	if (!r)
		return NULL;
	clock_gettime(CLOCK_MONOTONIC, &r->started);
	r->target_len = strlen(uri);
	r->target_end = (uintptr_t)(uri + r->target_len);
	/* A target over the limit is logged cut: it is answered 414. */
	r->target = heed__strndup(s->alloc, uri,
	                          r->target_len > MAX_TARGET ? MAX_TARGET
	                                                     : r->target_len);
	return r;
}

static void on_completed(void *cls, struct MHD_Connection *con, void **con_cls,
                         enum MHD_RequestTerminationCode why)
{
	struct heed_serve *s = cls;
	struct request *r = *con_cls;

	(void)con;
	(void)why;
	if (!r)
		return;
	heed__free(s->alloc, r->target);
	heed__free(s->alloc, r);
	*con_cls = NULL;
}

static heed_store *store_take(struct heed_serve *s)
{
	heed_store *store = NULL;

	pthread_mutex_lock(&s->pool_lock);
	if (s->pooled)
		store = s->pool[--s->pooled];
	pthread_mutex_unlock(&s->pool_lock);
	if (!store &&
	    heed_store_open_ex(&store, s->store_path, HEED_STORE_OPEN_READONLY,
	                       s->alloc, NULL) != HEED_OK)
		return NULL;
	return store;
}

static void store_give_back(struct heed_serve *s, heed_store *store)
{
	pthread_mutex_lock(&s->pool_lock);
	if (s->pooled < MAX_THREADS) {
		s->pool[s->pooled++] = store;
		store = NULL;
	}
	pthread_mutex_unlock(&s->pool_lock);
	heed_store_close(store);
}

static enum MHD_Result add_arg(void *cls, enum MHD_ValueKind kind,
                               const char *key, const char *value)
{
	struct heed__serve_args *args = cls;

	(void)kind;
	if (args->count == HEED__SERVE_MAX_ARGS) {
		args->count++; /* one past: the request has too many */
		return MHD_NO;
	}
	if (args->count > HEED__SERVE_MAX_ARGS)
		return MHD_NO;
	args->arg[args->count].name = key;
	args->arg[args->count].value = value ? value : "";
	args->count++;
	return MHD_YES;
}

/* An answer decided here, before any page: a short text, for requests
 * that are not the index's (another method, no path). */
static void plain_answer(struct heed__serve_response *resp, int status,
                         const char *text)
{
	heed__buf_reset(&resp->body);
	heed__buf_add(&resp->body, text, strlen(text));
	resp->status = status;
	resp->content_type = "text/plain; charset=utf-8";
	resp->kind = HEED__ROUTE_OTHER;
}

/* A request refused before any page (another method, a malformed
 * request). The API answers its errors in JSON (its OpenAPI document's
 * Error object), so a program reading /api/ gets one shape whatever went
 * wrong; pages and the rest get a line of text. */
static void refuse(const char *url, int status, const char *why,
                   struct heed__serve_response *resp)
{
	if (url && strncmp(url, "/api/", 5) == 0) {
		const struct heed__serve_request req = {.path = url};
		heed__api_error(&req, status, why, resp);
		return;
	}
	plain_answer(resp, status, why);
	heed__buf_addc(&resp->body, '\n');
}

static void method_not_allowed(const char *url,
                               struct heed__serve_response *resp)
{
	refuse(url, 405, "Only GET and HEAD are answered.", resp);
}

/* A value from a request header, made safe for one log line: quotes,
 * backslashes, controls and bytes over 0x7e as \xNN (nginx's escaping),
 * "-" when absent. */
static void log_field(FILE *f, const char *v)
{
	if (!v || !*v) {
		fputc('-', f);
		return;
	}
	for (size_t i = 0; v[i] && i < 512; i++) {
		unsigned char c = (unsigned char)v[i];
		if (c < 0x20 || c > 0x7e || c == '"' || c == '\\')
			fprintf(f, "\\x%02X", c);
		else
			fputc(c, f);
	}
}

static void client_address(struct MHD_Connection *con, char *out, size_t size)
{
	const union MHD_ConnectionInfo *info = MHD_get_connection_info(
	        con, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	const struct sockaddr *sa = info ? info->client_addr : NULL;

	snprintf(out, size, "-");
	if (sa && sa->sa_family == AF_INET)
		inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr,
		          out, (socklen_t)size);
	else if (sa && sa->sa_family == AF_INET6)
		inet_ntop(AF_INET6,
		          &((const struct sockaddr_in6 *)sa)->sin6_addr, out,
		          (socklen_t)size);
}

/* One line in the combined log format, and the microseconds taken. */
static void access_log_line(struct heed_serve *s, struct MHD_Connection *con,
                            const char *method, const char *version,
                            const struct request *r, int status, size_t bytes,
                            int64_t micros)
{
	char addr[INET6_ADDRSTRLEN], when[64];
	time_t now = time(NULL);
	struct tm tm;

	if (!s->access_log)
		return;
	client_address(con, addr, sizeof(addr));
	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%d/%b/%Y:%H:%M:%S +0000", &tm);
	pthread_mutex_lock(&s->log_lock);
	fprintf(s->access_log, "%s - - [%s] \"", addr, when);
	log_field(s->access_log, method);
	fputc(' ', s->access_log);
	log_field(s->access_log, r ? r->target : NULL);
	fputc(' ', s->access_log);
	log_field(s->access_log, version);
	fprintf(s->access_log, "\" %d %zu \"", status, bytes);
	log_field(s->access_log,
	          MHD_lookup_connection_value(con, MHD_HEADER_KIND, "Referer"));
	fputs("\" \"", s->access_log);
	log_field(s->access_log, MHD_lookup_connection_value(
	                                 con, MHD_HEADER_KIND, "User-Agent"));
	fprintf(s->access_log, "\" %lldus\n", (long long)micros);
	fflush(s->access_log);
	pthread_mutex_unlock(&s->log_lock);
}

/* The request's Host header field, NULL when it has none. */
static const char *host_of(struct MHD_Connection *con)
{
	return MHD_lookup_connection_value(con, MHD_HEADER_KIND,
	                                   MHD_HTTP_HEADER_HOST);
}

/* The size of the request head as received, 0 when unknown. */
static size_t head_size(struct MHD_Connection *con)
{
	const union MHD_ConnectionInfo *info = MHD_get_connection_info(
	        con, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);

	return info ? info->header_size : 0;
}

/* RFC 3986 2: a request target holds no space or control byte (they are
 * percent-encoded when meant). */
static bool target_bytes_ok(const struct request *r)
{
	for (size_t i = 0; r->target && r->target[i]; i++)
		if ((unsigned char)r->target[i] <= 0x20 ||
		    (unsigned char)r->target[i] == 0x7F)
			return false;
	return true;
}

/* Whether version is HTTP/1.1 or a later HTTP/1 minor version, which
 * RFC 9112 2.3 has a server read as the highest it implements: 1.1.
 * (libmicrohttpd answers other major versions 505 itself.) */
static bool is_http_1_1(const char *version)
{
	return strncmp(version, "HTTP/1.", 7) == 0 && version[7] >= '1' &&
	       version[7] <= '9' && version[8] == '\0';
}

/* Why a request cannot be answered as a page, or NULL; *status is the
 * answer's status. RFC 9112 3: one SP between target and version, and
 * no NUL in the target (libmicrohttpd reads "GET /\0x HTTP/1.1" as a
 * request for "/": the version does not follow the target it hands
 * over). RFC 9112 3.2: an HTTP/1.1 request without Host is a 400. */
static const char *malformed(const struct request *r,
                             struct MHD_Connection *con, const char *version,
                             int *status)
{
	bool v11 = is_http_1_1(version);

	*status = 400;
	if (!v11 && strcmp(version, MHD_HTTP_VERSION_1_0) != 0)
		return "The request line is not HTTP/1.0 or HTTP/1.1.";
	if ((uintptr_t)version != r->target_end + 1 || !target_bytes_ok(r))
		return "The request line holds a NUL byte, a space or another "
		       "control character in its address.";
	if (v11 && !host_of(con))
		return "An HTTP/1.1 request needs a Host header field.";
	if (r->target_len > MAX_TARGET) {
		*status = 414;
		return "The address is too long.";
	}
	if (head_size(con) > MAX_HEAD) {
		*status = 431;
		return "The request's header fields are too large.";
	}
	return NULL;
}

/* libmicrohttpd hands the path and the arguments over decoded, as C
 * strings: a %00 would silently cut "q=x%00y" to "x" or a cursor to
 * nothing. No address of the index holds one, so it is refused. */
static bool has_encoded_nul(const char *target)
{
	for (const char *p = strchr(target, '%'); p; p = strchr(p + 1, '%'))
		if (p[1] == '0' && p[2] == '0')
			return true;
	return false;
}

/* Runs the page for a request that passed the shell's bounds. */
static void answer_page(struct heed_serve *s, struct MHD_Connection *con,
                        const char *method, const char *url,
                        const struct request *r,
                        struct heed__serve_response *resp)
{
	struct heed__serve_args args = {0};
	struct heed__serve_request req = {
	        .ctx = &s->ctx,
	        .method = method,
	        .path = url,
	        .host = host_of(con),
	        .args = &args,
	        .now_s = (int64_t)time(NULL),
	};

	if (!r->target || has_encoded_nul(r->target)) {
		heed__serve_error(&req, 400,
		                  "The address holds a NUL byte (%00).",
		                  "the address holds a NUL byte (%00)", resp);
		return;
	}
	MHD_get_connection_values(con, MHD_GET_ARGUMENT_KIND, add_arg, &args);
	if (args.count > HEED__SERVE_MAX_ARGS) {
		heed__serve_error(&req, 400,
		                  "The address has too many arguments.",
		                  "too many arguments", resp);
		return;
	}
	req.store = store_take(s);
	if (!req.store) {
		heed__serve_error(&req, 503, "The index cannot be read now.",
		                  "the store cannot be opened", resp);
		return;
	}
	heed__serve_route(&req, resp);
	store_give_back(s, req.store);
}

/* The answer's header fields after the status line, as each answer
 * carries them (security_headers, type, caching, Allow, Location). */
static void add_answer_headers(const struct heed__serve_response *resp,
                               void (*add)(void *ud, const char *name,
                                           const char *value),
                               void *ud)
{
	for (size_t i = 0; i < HEED_ARRAY_SIZE(security_headers); i++)
		add(ud, security_headers[i][0], security_headers[i][1]);
	add(ud, MHD_HTTP_HEADER_CONTENT_TYPE,
	    resp->content_type ? resp->content_type : "text/plain");
	add(ud, MHD_HTTP_HEADER_CACHE_CONTROL,
	    resp->cache ? "public, max-age=60" : "no-cache");
	if (resp->status == 405)
		add(ud, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	if (resp->location[0])
		add(ud, MHD_HTTP_HEADER_LOCATION, resp->location);
}

static void add_to_response(void *ud, const char *name, const char *value)
{
	MHD_add_response_header(ud, name, value);
}

static void add_to_buf(void *ud, const char *name, const char *value)
{
	heed__buf_addf(ud, "%s: %s\r\n", name, value);
}

/*
 * A 431 written on the connection's socket by heed, not queued with
 * libmicrohttpd: a head that nearly fills the connection's memory
 * (CONNECTION_MEMORY) leaves no room there for the answer's header
 * fields, and libmicrohttpd 0.9.75 then closes the connection with
 * nothing sent. A few hundred bytes to a socket that has sent nothing of
 * this request; the caller then has libmicrohttpd close the connection
 * (when the socket takes less, what was sent is all the client gets).
 */
static void send_431_directly(struct MHD_Connection *con, bool head,
                              const struct heed__serve_response *resp,
                              const struct heed_allocator *alloc)
{
	const union MHD_ConnectionInfo *info =
	        MHD_get_connection_info(con, MHD_CONNECTION_INFO_CONNECTION_FD);
	struct heed_buf b;
	char date[64];
	time_t now = time(NULL);
	struct tm tm;
	size_t sent = 0;

	if (!info || !gmtime_r(&now, &tm) ||
	    !strftime(date, sizeof(date), "%a, %d %b %Y %H:%M:%S GMT", &tm))
		return;
	heed__buf_init(&b, alloc, 8192 + resp->body.len);
	heed__buf_addf(&b,
	               "HTTP/1.1 431 Request Header Fields Too Large\r\n"
	               "Date: %s\r\nConnection: close\r\n"
	               "Content-Length: %zu\r\n",
	               date, resp->body.len);
	add_answer_headers(resp, add_to_buf, &b);
	heed__buf_add(&b, "\r\n", 2);
	if (!head)
		heed__buf_add(&b, resp->body.data ? resp->body.data : "",
		              resp->body.len);
	while (b.data && sent < b.len) {
		ssize_t n = send(info->connect_fd, b.data + sent, b.len - sent,
		                 MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		sent += (size_t)n;
	}
	heed__buf_free(&b);
}

static enum MHD_Result send_answer(struct MHD_Connection *con,
                                   const struct heed__serve_response *resp)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(
	        resp->body.len, resp->body.data ? resp->body.data : (char *)"",
	        MHD_RESPMEM_MUST_COPY);
	enum MHD_Result ok;

	if (!r)
		return MHD_NO;
	add_answer_headers(resp, add_to_response, r);
	ok = MHD_queue_response(con, (unsigned)resp->status, r);
	MHD_destroy_response(r);
	return ok;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *con,
                                  const char *url, const char *method,
                                  const char *version, const char *upload,
                                  size_t *upload_size, void **con_cls)
{
	struct heed_serve *s = cls;
	struct request *r = *con_cls;
	struct heed__serve_response resp = {.status = 500};
	enum MHD_Result ok;

	(void)upload;
	/* The first call only says the headers are in. Answering then would
	 * leave libmicrohttpd unsure where the request ends, and it would
	 * close the connection after each answer; a body, which no page
	 * takes, is read and dropped in the calls between. Other methods
	 * are refused at once, body unread, and their connection closed. */
	bool get = strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
	const char *why = NULL;
	int status = 400;

	if (r && !r->headers_seen && get) {
		r->headers_seen = true;
		return MHD_YES;
	}
	if (*upload_size) {
		*upload_size = 0;
		return MHD_YES;
	}
	heed__buf_init(&resp.body, s->alloc, HEED__SERVE_MAX_BODY);
	if (r)
		why = malformed(r, con, version, &status);
	if (why)
		refuse(url, status, why, &resp);
	else if (!get)
		method_not_allowed(url, &resp);
	else if (!r || !url || url[0] != '/')
		plain_answer(&resp, 400, "Bad request.\n");
	else
		answer_page(s, con, method, url, r, &resp);
	if (resp.status == 431) {
		send_431_directly(con, strcmp(method, "HEAD") == 0, &resp,
		                  s->alloc);
		ok = MHD_NO; /* libmicrohttpd closes the connection */
	} else {
		ok = send_answer(con, &resp);
	}
	int64_t micros = r ? elapsed_us(&r->started) : 0;
	heed__serve_metrics_observe(&s->metrics, resp.kind, resp.status,
	                            (uint64_t)micros, resp.body.len);
	access_log_line(s, con, method, version, r, resp.status, resp.body.len,
	                micros);
	heed__buf_free(&resp.body);
	return ok;
}

static char *base_url_of(const struct heed_allocator *a, const char *url)
{
	size_t len = url ? strlen(url) : 0;

	while (len && url[len - 1] == '/')
		len--;
	return heed__strndup(a, len ? url : "", len);
}

static unsigned thread_count(int64_t configured)
{
	long cpus;

	if (configured > 0)
		return configured > MAX_THREADS ? MAX_THREADS
		                                : (unsigned)configured;
	cpus = sysconf(_SC_NPROCESSORS_ONLN);
	return cpus < 1 ? 1 : cpus > MAX_THREADS ? MAX_THREADS : (unsigned)cpus;
}

static heed_status start_daemon(struct heed_serve *s,
                                const struct heed_config *cfg,
                                struct heed_diag *diag)
{
	struct sockaddr_storage addr;
	unsigned addr_len;
	unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL;
	const union MHD_DaemonInfo *info;

	if (heed_config_parse_listen(cfg->serve_listen, &addr, &addr_len) !=
	    HEED_OK)
		return heed_diag_set(diag, HEED_ECONFIG, 0, 0,
		                     "serve.listen: '%s' is not ADDR:PORT",
		                     cfg->serve_listen);
	if (addr.ss_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	/* The port argument is ignored: MHD_OPTION_SOCK_ADDR carries it. */
	s->mhd = MHD_start_daemon(
	        flags, 0, NULL, NULL, on_request, s, MHD_OPTION_SOCK_ADDR,
	        &addr, MHD_OPTION_THREAD_POOL_SIZE,
	        thread_count(cfg->serve_threads),
	        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)CONNECTION_MEMORY,
	        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)CONNECTION_TIMEOUT_S,
	        MHD_OPTION_CONNECTION_LIMIT, (unsigned)MAX_CONNECTIONS,
	        MHD_OPTION_PER_IP_CONNECTION_LIMIT,
	        (unsigned)cfg->serve_connections_per_client,
	        MHD_OPTION_URI_LOG_CALLBACK, on_target, s,
	        MHD_OPTION_NOTIFY_COMPLETED, on_completed, s, MHD_OPTION_END);
	if (!s->mhd)
		return heed_diag_set(diag, HEED_EIO, 0, 0,
		                     "cannot listen on %s: %s (is the address "
		                     "in use, or not one of this machine's?)",
		                     cfg->serve_listen, strerror(errno));
	info = MHD_get_daemon_info(s->mhd, MHD_DAEMON_INFO_BIND_PORT);
	s->port = info ? info->port : 0;
	return HEED_OK;
}

/* The store areas the pages of the index read. */
static const char *const serve_areas[] = {"pages", "search", "frontier",
                                          "irc",   "sites",  NULL};

heed_status heed_serve_start(heed_serve **out,
                             const struct heed_serve_options *options,
                             struct heed_diag *diag)
{
	const struct heed_config *cfg = options->config;
	const struct heed_allocator *a =
	        options->alloc ? options->alloc : heed_allocator_default();
	struct heed_serve *s;
	heed_store *first = NULL;
	heed_status rc;

	*out = NULL;
	s = heed__calloc(a, 1, sizeof(*s));
	if (!s)
		return HEED_ENOMEM;
	s->alloc = a;
	s->access_log = options->access_log;
	pthread_mutex_init(&s->log_lock, NULL);
	pthread_mutex_init(&s->pool_lock, NULL);
	s->base_url = base_url_of(a, cfg->serve_base_url);
	s->store_path = heed__strndup(a, cfg->store_location,
	                              strlen(cfg->store_location));
	if (!s->base_url || !s->store_path) {
		heed_serve_stop(s);
		return HEED_ENOMEM;
	}
	s->metrics.started_s = (int64_t)time(NULL);
	s->ctx = (struct heed__serve_ctx){
	        .config = cfg,
	        .base_url = s->base_url,
	        .page_size = cfg->serve_page_size > 0
	                             ? (int)cfg->serve_page_size
	                             : 20,
	        .alloc = a,
	        .metrics = &s->metrics,
	        .store_path = s->store_path,
	};
	/* The first connection proves the store is there and is heed's,
	 * before anyone is told the index is up. */
	rc = heed_store_open_ex(&first, s->store_path, HEED_STORE_OPEN_READONLY,
	                        a, diag);
	if (rc == HEED_OK) {
		s->pool[s->pooled++] = first;
		/* The areas the index reads, on a backend that may not
		 * have them all yet (PostgreSQL): refused at
		 * start rather than page by page. */
		rc = heed_store_require(first, serve_areas, diag);
	}
	if (rc == HEED_OK)
		rc = start_daemon(s, cfg, diag);
	if (rc != HEED_OK) {
		heed_serve_stop(s);
		return rc;
	}
	*out = s;
	return HEED_OK;
}

unsigned heed_serve_port(const heed_serve *server)
{
	return server->port;
}

void heed_serve_stop(heed_serve *s)
{
	if (!s)
		return;
	if (s->mhd)
		MHD_stop_daemon(s->mhd);
	while (s->pooled)
		heed_store_close(s->pool[--s->pooled]);
	pthread_mutex_destroy(&s->log_lock);
	pthread_mutex_destroy(&s->pool_lock);
	heed__free(s->alloc, s->base_url);
	heed__free(s->alloc, s->store_path);
	heed__free(s->alloc, s);
}
