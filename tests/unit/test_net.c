/*
 * Unit tests for the net shell's pure parts and its contract: the address
 * classes behind the private-address refusal, refused starts that never
 * call back, and cancellation on free (on_done runs exactly once). Real
 * fetches are tested against real servers in tests/integration.
 */
#include "heed_test.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <sys/socket.h>
#include <unistd.h>

#include "heed/net.h"
#include "heed/url.h"

static struct heed_dns_addr addr_of(const char *text)
{
	struct heed_dns_addr a = {0};

	a.family = strchr(text, ':') ? AF_INET6 : AF_INET;
	inet_pton(a.family, text, a.bytes);
	snprintf(a.text, sizeof(a.text), "%s", text);
	return a;
}

static const struct addr_case {
	const char *name, *addr;
	heed_net_addr_kind want;
} addr_cases[] = {
        {"public IPv4", "93.184.216.34", HEED_NET_ADDR_PUBLIC},
        {"RFC 1918 10/8", "10.1.2.3", HEED_NET_ADDR_PRIVATE},
        {"RFC 1918 172.16/12 low", "172.16.0.1", HEED_NET_ADDR_PRIVATE},
        {"RFC 1918 172.16/12 high", "172.31.255.255", HEED_NET_ADDR_PRIVATE},
        {"172.32 is public", "172.32.0.1", HEED_NET_ADDR_PUBLIC},
        {"RFC 1918 192.168/16", "192.168.1.1", HEED_NET_ADDR_PRIVATE},
        {"RFC 6598 shared 100.64/10", "100.100.0.1", HEED_NET_ADDR_PRIVATE},
        {"loopback 127/8", "127.0.0.2", HEED_NET_ADDR_LOOPBACK},
        {"RFC 3927 link-local", "169.254.169.254", HEED_NET_ADDR_LINK_LOCAL},
        {"unspecified 0.0.0.0", "0.0.0.0", HEED_NET_ADDR_RESERVED},
        {"multicast", "224.0.0.1", HEED_NET_ADDR_RESERVED},
        {"broadcast", "255.255.255.255", HEED_NET_ADDR_RESERVED},
        {"RFC 5737 documentation", "192.0.2.1", HEED_NET_ADDR_RESERVED},
        {"public IPv6", "2a00:1450:4001::1", HEED_NET_ADDR_PUBLIC},
        {"IPv6 loopback", "::1", HEED_NET_ADDR_LOOPBACK},
        {"IPv6 unspecified", "::", HEED_NET_ADDR_RESERVED},
        {"RFC 4193 unique local", "fd00::1", HEED_NET_ADDR_PRIVATE},
        {"IPv6 link-local", "fe80::1", HEED_NET_ADDR_LINK_LOCAL},
        {"IPv6 multicast", "ff02::1", HEED_NET_ADDR_RESERVED},
        {"RFC 3849 documentation", "2001:db8::1", HEED_NET_ADDR_RESERVED},
        {"IPv4-mapped loopback", "::ffff:127.0.0.1", HEED_NET_ADDR_LOOPBACK},
        {"IPv4-mapped private", "::ffff:10.0.0.1", HEED_NET_ADDR_PRIVATE},
        {"IPv4-mapped public", "::ffff:8.8.8.8", HEED_NET_ADDR_PUBLIC},
        /* An IPv4 address carried inside IPv6 is what the packets
         * reach: NAT64's well-known prefix (RFC 6052) and 6to4 (RFC 3056)
         * are classed by it. */
        {"NAT64 loopback", "64:ff9b::127.0.0.1", HEED_NET_ADDR_LOOPBACK},
        {"NAT64 private", "64:ff9b::10.0.0.1", HEED_NET_ADDR_PRIVATE},
        {"NAT64 public", "64:ff9b::8.8.8.8", HEED_NET_ADDR_PUBLIC},
        {"6to4 loopback", "2002:7f00:1::1", HEED_NET_ADDR_LOOPBACK},
        {"6to4 link-local", "2002:a9fe:a9fe::1", HEED_NET_ADDR_LINK_LOCAL},
        {"6to4 public", "2002:808:808::1", HEED_NET_ADDR_PUBLIC},
        {"RFC 3879 site-local", "fec0::1", HEED_NET_ADDR_PRIVATE},
        {"IPv4-compatible (deprecated)", "::127.0.0.1", HEED_NET_ADDR_RESERVED},
        {"RFC 6666 discard-only", "100::1", HEED_NET_ADDR_RESERVED},
        {"outside 2000::/3", "4000::1", HEED_NET_ADDR_RESERVED},
        {"RFC 9637 documentation", "3fff::1", HEED_NET_ADDR_RESERVED},
        {"RFC 6890 IETF protocol assignments", "192.0.0.8",
         HEED_NET_ADDR_RESERVED},
};

static void test_address_classes(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < HEED_ARRAY_SIZE(addr_cases); i++) {
		struct heed_dns_addr a = addr_of(addr_cases[i].addr);
		heed_net_addr_kind got = heed_net_addr_classify(&a);
		if (got != addr_cases[i].want)
			fail_msg("%s (%s): %s, want %s", addr_cases[i].name,
			         addr_cases[i].addr,
			         heed_net_addr_kind_name(got),
			         heed_net_addr_kind_name(addr_cases[i].want));
	}
}

static void test_allowed(void **state)
{
	struct heed_dns_addr pub = addr_of("8.8.8.8"),
	                     lo = addr_of("127.0.0.1");
	struct heed_dns_addr mc = addr_of("224.0.0.1");

	(void)state;
	assert_true(heed_net_addr_allowed(&pub, false));
	assert_false(heed_net_addr_allowed(&lo, false));
	assert_true(heed_net_addr_allowed(&lo, true));
	/* --allow-private never opens multicast or unspecified addresses. */
	assert_false(heed_net_addr_allowed(&mc, true));
}

/* The refusal says which address, its kind, and what would allow it: one
 * message for the web and IRC crawls. */
static void test_refusal_message(void **state)
{
	struct heed_dns_addr two[2] = {addr_of("127.0.0.1"), addr_of("::1")};
	struct heed_dns_addr zero = addr_of("0.0.0.0");
	struct heed_dns_result by_name = {.addrs = two, .addr_count = 2};
	struct heed_dns_result literal = {.addrs = &zero, .addr_count = 1};
	char why[256];

	(void)state;
	heed_net_refusal(&by_name, "www.example.org", false, why, sizeof(why));
	assert_string_equal(why, "refused by heed's address policy: "
	                         "www.example.org resolves only to refused "
	                         "addresses (127.0.0.1: loopback, ...; "
	                         "--allow-private allows it)");
	heed_net_refusal(&literal, "0.0.0.0", false, why, sizeof(why));
	assert_string_equal(why, "refused by heed's address policy: 0.0.0.0 "
	                         "is a reserved address (never contacted)");
	/* No address at all: said, never read past the array. */
	literal.addr_count = 0;
	heed_net_refusal(&literal, "empty.example", false, why, sizeof(why));
	assert_string_equal(why, "empty.example has no address");
	/* Cut to the room given, never overrun. */
	heed_net_refusal(&by_name, "www.example.org", true, why, 10);
	assert_string_equal(why, "refused b");
}

struct done_count {
	int calls;
	heed_net_error last;
};

static void on_done(void *ud, const struct heed_net_response *r)
{
	struct done_count *d = ud;

	d->calls++;
	d->last = r->error;
}

static void test_refused_starts_never_call_back(void **state)
{
	struct heed_net_options opt = {.user_agent = "heed-test/1"};
	struct heed_dns_addr lo = addr_of("127.0.0.1");
	struct done_count d = {0};
	struct heed_net_request req = {
	        "http://a.test/robots.txt", &lo, 0, NULL, on_done, &d};
	heed_net *net;

	(void)state;
	assert_int_equal(
	        heed_net_new(&net, &opt, NULL, heed_test_allocator(), NULL),
	        HEED_OK);
	assert_int_equal(heed_net_start(net, &req), HEED_EDENIED);
	req.url = "ftp://a.test/robots.txt";
	assert_int_equal(heed_net_start(net, &req), HEED_EINVAL);
	assert_int_equal(heed_net_pending(net), 0);
	heed_net_free(net);
	assert_int_equal(d.calls, 0);
}

static void test_free_cancels_once(void **state)
{
	struct heed_net_options opt = {.user_agent = "heed-test/1",
	                               .allow_private = true};
	struct heed_dns_addr lo = addr_of("127.0.0.1");
	struct done_count d = {0};
	struct heed_net_request req = {
	        "http://a.test:9/robots.txt", &lo, 0, NULL, on_done, &d};
	heed_net *net;

	(void)state;
	assert_int_equal(
	        heed_net_new(&net, &opt, NULL, heed_test_allocator(), NULL),
	        HEED_OK);
	assert_int_equal(heed_net_start(net, &req), HEED_OK);
	assert_int_equal(heed_net_pending(net), 1);
	heed_net_free(net);
	assert_int_equal(d.calls, 1);
	assert_int_equal(d.last, HEED_NET_CANCELLED);
}

static void test_no_user_agent(void **state)
{
	struct heed_net_options opt = {0};
	struct heed_diag diag = {0};
	heed_net *net = NULL;

	(void)state;
	assert_int_equal(heed_net_new(&net, &opt, NULL, NULL, &diag),
	                 HEED_ECONFIG);
	assert_null(net);
	assert_non_null(strstr(diag.message, "User-Agent"));
}

/* A one-shot HTTP server on 127.0.0.1: answers one request with a 200 of
 * body_len bytes of 'x', then closes. */
struct one_shot {
	int fd;
	int port;
	size_t body_len;
	char ua[128];
};

static void *serve_once(void *arg)
{
	struct one_shot *o = arg;
	char req[2048], head[256];
	static char body[256 * 1024];
	int c = accept(o->fd, NULL, NULL);
	ssize_t n;
	char *ua;

	if (c < 0)
		return NULL;
	n = read(c, req, sizeof(req) - 1);
	if (n <= 0) {
		/* No request came (the client gave up unsent): nothing to
		 * answer, and a write would raise SIGPIPE. */
		close(c);
		return NULL;
	}
	req[n] = '\0';
	ua = strstr(req, "User-Agent: ");
	if (ua)
		snprintf(o->ua, sizeof(o->ua), "%.*s",
		         (int)strcspn(ua + 12, "\r\n"), ua + 12);
	memset(body, 'x', sizeof(body));
	snprintf(head, sizeof(head),
	         "HTTP/1.1 200 OK\r\nContent-Type: video/mp4\r\n"
	         "Content-Length: %zu\r\nConnection: close\r\n\r\n",
	         o->body_len);
	if (write(c, head, strlen(head)) < 0 || write(c, body, o->body_len) < 0)
		o->body_len = 0;
	close(c);
	return NULL;
}

static void start_server(struct one_shot *o, pthread_t *t)
{
	struct sockaddr_in a = {0};
	socklen_t len = sizeof(a);

	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	o->fd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(o->fd >= 0);
	assert_int_equal(bind(o->fd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(listen(o->fd, 4), 0);
	getsockname(o->fd, (struct sockaddr *)&a, &len);
	o->port = ntohs(a.sin_port);
	pthread_create(t, NULL, serve_once, o);
}

struct fetched {
	int calls;
	heed_net_error error;
	int status;
	size_t body_len;
	char content_type[64];
	/* The freshness headers as the response gave them; "(null)" for
	 * NULL. */
	char cache_control[600], expires[80], date[80];
};

static bool no_media(void *ud, const struct heed_net_response *r)
{
	(void)ud;
	return !(r->content_type && strncmp(r->content_type, "video/", 6) == 0);
}

static void on_fetched(void *ud, const struct heed_net_response *r)
{
	struct fetched *f = ud;

	f->calls++;
	f->error = r->error;
	f->status = r->status;
	f->body_len = r->body_len;
	snprintf(f->content_type, sizeof(f->content_type), "%s",
	         r->content_type ? r->content_type : "");
	snprintf(f->cache_control, sizeof(f->cache_control), "%s",
	         r->cache_control ? r->cache_control : "(null)");
	snprintf(f->expires, sizeof(f->expires), "%s",
	         r->expires ? r->expires : "(null)");
	snprintf(f->date, sizeof(f->date), "%s", r->date ? r->date : "(null)");
}

static void run(heed_net *net)
{
	struct pollfd fds[16];
	int rounds = 0;

	while (heed_net_pending(net) && rounds++ < 1000) {
		int n = heed_net_pollfds(net, fds, 16);
		poll(fds, (nfds_t)n, heed_net_timeout_ms(net, 100));
		heed_net_process(net, fds, n);
	}
}

static void fetch_once(size_t body_len, size_t cap, heed_net_headers_fn *hook,
                       int64_t send_by_ms, struct fetched *f, char *ua_seen)
{
	struct heed_net_options opt = {.user_agent = "heed-test/1 (+x)",
	                               .allow_private = true};
	struct heed_dns_addr lo = addr_of("127.0.0.1");
	struct one_shot o = {.body_len = body_len};
	char url[64];
	pthread_t t;
	heed_net *net;

	start_server(&o, &t);
	snprintf(url, sizeof(url), "http://media.test:%d/v.mp4", o.port);
	struct heed_net_request req = {url, &lo, cap, hook, on_fetched, f};
	req.send_by_ms = send_by_ms;
	assert_int_equal(
	        heed_net_new(&net, &opt, NULL, heed_test_allocator(), NULL),
	        HEED_OK);
	assert_int_equal(heed_net_start(net, &req), HEED_OK);
	run(net);
	heed_net_free(net);
	pthread_join(t, NULL);
	close(o.fd);
	if (ua_seen)
		snprintf(ua_seen, 128, "%s", o.ua);
}

/* The media ban's hook: the transfer stops after the headers. */
static void test_headers_hook_aborts(void **state)
{
	struct fetched f = {0};
	char ua[128];

	(void)state;
	fetch_once(200 * 1024, 0, no_media, 0, &f, ua);
	assert_int_equal(f.calls, 1);
	assert_int_equal(f.error, HEED_NET_ABORTED);
	assert_int_equal(f.status, 200);
	assert_int_equal(f.body_len, 0);
	assert_string_equal(f.content_type, "video/mp4");
	assert_string_equal(ua, "heed-test/1 (+x)");
}

/* A fetch whose right to send ran out before its connection was ready
 * (send_by_ms, a worker's lease end) ends unsent: the server accepts the
 * connection but reads no request. */
static void test_not_sent_after_send_by(void **state)
{
	struct fetched f = {0};
	struct timespec ts;
	char ua[128];

	(void)state;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	fetch_once(10, 0, NULL,
	           (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000 - 1, &f,
	           ua);
	assert_int_equal(f.calls, 1);
	assert_int_equal(f.error, HEED_NET_NOT_SENT);
	assert_int_equal(f.status, 0);
	assert_string_equal(ua, ""); /* no request came */
	assert_string_equal(heed_net_error_name(HEED_NET_NOT_SENT), "not-sent");
}

/* A body over its cap keeps exactly the cap's bytes. */
static void test_body_cap(void **state)
{
	struct fetched f = {0};

	(void)state;
	fetch_once(200 * 1024, 1000, NULL, 0, &f, NULL);
	assert_int_equal(f.error, HEED_NET_TOO_BIG);
	assert_int_equal(f.body_len, 1000);
	memset(&f, 0, sizeof(f));
	fetch_once(1000, 1000, NULL, 0, &f, NULL);
	assert_int_equal(f.error, HEED_NET_OK);
	assert_int_equal(f.body_len, 1000);
}

/* An answer's body taken in its on_done is the caller's past the callback:
 * the very bytes r->body read, whole and NUL-terminated, freed with the
 * fetcher's allocator (cmocka's, which fails the test on a leak or a
 * double free). A second take in the callback, or one after it, gets
 * nothing. */
struct taker {
	heed_net *net;
	char *body, *again;
	const char *read_at;
	size_t len;
};

static void on_take(void *ud, const struct heed_net_response *r)
{
	struct taker *t = ud;

	t->body = heed_net_take_body(t->net, r);
	t->read_at = r->body;
	t->len = r->body_len;
	t->again = heed_net_take_body(t->net, r);
}

static void test_take_body(void **state)
{
	struct heed_net_options opt = {.user_agent = "heed-test/1 (+x)",
	                               .allow_private = true};
	struct heed_dns_addr lo = addr_of("127.0.0.1");
	struct one_shot o = {.body_len = 10000};
	struct heed_net_response later = {0};
	struct taker t = {0};
	char url[64];
	pthread_t th;

	(void)state;
	start_server(&o, &th);
	snprintf(url, sizeof(url), "http://media.test:%d/v.mp4", o.port);
	struct heed_net_request req = {url, &lo, 0, NULL, on_take, &t};
	assert_int_equal(
	        heed_net_new(&t.net, &opt, NULL, heed_test_allocator(), NULL),
	        HEED_OK);
	assert_int_equal(heed_net_start(t.net, &req), HEED_OK);
	run(t.net);
	pthread_join(th, NULL);
	close(o.fd);
	assert_non_null(t.body);
	assert_ptr_equal(t.body, t.read_at);
	assert_int_equal(t.len, 10000);
	assert_int_equal(strspn(t.body, "x"), 10000);
	assert_int_equal(t.body[10000], '\0');
	assert_null(t.again);
	later.body = t.body;
	later.body_len = t.len;
	assert_null(heed_net_take_body(t.net, &later));
	heed_net_free(t.net);
	heed_test_allocator()->free_fn(NULL, t.body);
}

/* A kept connection that dies under the second request: the server reads
 * it, then closes without an answer. libcurl would send the request again
 * on a new connection, a request politeness never saw: heed
 * refuses it, and the fetch fails as a reset. (Without the refusal the
 * server counts 3 requests.) */
struct dying_keepalive {
	int fd, port;
	int connections, requests;
};

static bool read_request(int c)
{
	char buf[4096];
	size_t got = 0;

	while (got < sizeof(buf) - 1) {
		ssize_t n = read(c, buf + got, sizeof(buf) - 1 - got);
		if (n <= 0)
			return false;
		got += (size_t)n;
		buf[got] = '\0';
		if (strstr(buf, "\r\n\r\n"))
			return true;
	}
	return false;
}

static void *serve_dying(void *ud)
{
	static const char answer[] =
	        "HTTP/1.1 200 OK\r\nContent-Type: "
	        "text/plain\r\nContent-Length: 2\r\n\r\nok";
	struct dying_keepalive *d = ud;
	struct pollfd p = {d->fd, POLLIN, 0};
	int c = accept(d->fd, NULL, NULL);

	if (c < 0)
		return NULL;
	d->connections++;
	if (read_request(c)) {
		d->requests++;
		if (write(c, answer, sizeof(answer) - 1) < 0)
			d->requests = -100;
	}
	if (read_request(c))
		d->requests++;
	close(c);
	/* A resend would come as a new connection: count it, for 1 s. */
	while (poll(&p, 1, 1000) == 1) {
		c = accept(d->fd, NULL, NULL);
		if (c < 0)
			break;
		d->connections++;
		if (read_request(c))
			d->requests++;
		close(c);
	}
	return NULL;
}

static void test_no_resend_on_a_dead_kept_connection(void **state)
{
	struct heed_net_options opt = {.user_agent = "heed-test/1",
	                               .allow_private = true};
	struct heed_dns_addr lo = addr_of("127.0.0.1");
	struct dying_keepalive d = {0};
	struct sockaddr_in a = {0};
	socklen_t len = sizeof(a);
	struct fetched first = {0}, second = {0};
	char url[64];
	pthread_t t;
	heed_net *net;

	(void)state;
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	d.fd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(d.fd >= 0);
	assert_int_equal(bind(d.fd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(listen(d.fd, 4), 0);
	getsockname(d.fd, (struct sockaddr *)&a, &len);
	d.port = ntohs(a.sin_port);
	pthread_create(&t, NULL, serve_dying, &d);
	snprintf(url, sizeof(url), "http://keep.test:%d/a", d.port);
	struct heed_net_request req = {url, &lo, 0, NULL, on_fetched, &first};
	assert_int_equal(
	        heed_net_new(&net, &opt, NULL, heed_test_allocator(), NULL),
	        HEED_OK);
	assert_int_equal(heed_net_start(net, &req), HEED_OK);
	run(net);
	assert_int_equal(first.error, HEED_NET_OK);
	assert_int_equal(first.status, 200);
	req.ud = &second;
	assert_int_equal(heed_net_start(net, &req), HEED_OK);
	run(net);
	heed_net_free(net);
	pthread_join(t, NULL);
	close(d.fd);
	assert_int_equal(second.calls, 1);
	assert_int_equal(second.error, HEED_NET_RESET);
	/* libcurl may open its new connection, but the request never
	 * leaves on it. */
	assert_int_equal(d.requests, 2);
	assert_true(d.connections <= 2);
}

/* A server that answers each connection's request with the next canned
 * answer of its script, as given (lens[i] bytes), then closes. */
struct scripted {
	int fd, port;
	const char *const *answers;
	int n;
};

static void *serve_script(void *ud)
{
	struct scripted *s = ud;

	for (int i = 0; i < s->n; i++) {
		int c = accept(s->fd, NULL, NULL);

		if (c < 0)
			return NULL;
		if (read_request(c))
			(void)!write(c, s->answers[i], strlen(s->answers[i]));
		close(c);
	}
	return NULL;
}

/* Fetches http://x.test:PORT/ once per answer, one after the other on
 * one heed_net (so that libcurl may reuse its handles). */
static void fetch_script(const char *const *answers, int n, struct fetched *got)
{
	struct scripted script = {0, 0, answers, n};
	struct scripted *s = &script;
	struct heed_net_options opt = {.user_agent = "heed-test/1",
	                               .allow_private = true};
	struct heed_dns_addr lo = addr_of("127.0.0.1");
	struct sockaddr_in a = {0};
	socklen_t len = sizeof(a);
	char url[64];
	pthread_t t;
	heed_net *net;

	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	s->fd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(s->fd >= 0);
	assert_int_equal(bind(s->fd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(listen(s->fd, 4), 0);
	getsockname(s->fd, (struct sockaddr *)&a, &len);
	s->port = ntohs(a.sin_port);
	pthread_create(&t, NULL, serve_script, s);
	snprintf(url, sizeof(url), "http://x.test:%d/", s->port);
	assert_int_equal(
	        heed_net_new(&net, &opt, NULL, heed_test_allocator(), NULL),
	        HEED_OK);
	for (int i = 0; i < s->n; i++) {
		struct heed_net_request req = {url,  &lo,        0,
		                               NULL, on_fetched, &got[i]};
		assert_int_equal(heed_net_start(net, &req), HEED_OK);
		run(net);
	}
	heed_net_free(net);
	pthread_join(t, NULL);
	close(s->fd);
}

/* A first header line folded (starting with a space) after an earlier
 * transfer: libcurl before 8.1.0 unfolded it onto the earlier transfer's
 * freed header when the handle was reused (curl issue 11101), a
 * use-after-free ASan reports. The answer is refused, nothing crashes. */
static void test_folded_first_header(void **state)
{
	static const char *const answers[] = {
	        "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nX-Last: "
	        "header\r\nContent-Length: 2\r\n\r\nok",
	        "HTTP/1.1 200 OK\r\n Folded: x\r\nContent-Length: 2\r\n\r\nok"};
	struct fetched got[2] = {{0}};

	(void)state;
	fetch_script(answers, 2, got);
	assert_int_equal(got[0].error, HEED_NET_OK);
	assert_int_equal(got[1].calls, 1);
	assert_int_not_equal(got[1].error, HEED_NET_OK);
}

static void test_two_content_lengths(void **state)
{
	static const char *const answers[] = {
	        "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: "
	        "5\r\n\r\nhello",
	        "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: "
	        "5\r\n\r\nhello"};
	struct fetched got[2] = {{0}};

	(void)state;
	fetch_script(answers, 2, got);
	/* Lengths that disagree: the answer's end is unknown. */
	assert_int_equal(got[0].error, HEED_NET_PROTOCOL);
	/* The same length twice is one length. */
	assert_int_equal(got[1].error, HEED_NET_OK);
	assert_int_equal(got[1].body_len, 5);
}

/* A connection closed in the middle of the headers is an answer cut
 * short, never a 200: libcurl 7.88 reports it as a success. */
static void test_close_in_headers(void **state)
{
	static const char *const answers[] = {
	        "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nX-A: b"};
	struct fetched got[1] = {{0}};

	(void)state;
	fetch_script(answers, 1, got);
	assert_int_equal(got[0].calls, 1);
	assert_int_equal(got[0].error, HEED_NET_TRUNCATED);
}

/* Cache-Control lines joined with ", ", Expires lines joined (two dates no
 * longer parse as one: stale), the first Date; a 1xx block's headers are
 * forgotten; a value too long to keep whole is dropped, never cut. */
static void test_freshness_headers(void **state)
{
	static char overlong[700];
	static const char *answers[] = {
	        "HTTP/1.1 100 Continue\r\nCache-Control: max-age=1\r\n\r\n"
	        "HTTP/1.1 200 OK\r\nCache-Control: public\r\nDate: Sun, 06 "
	        "Nov 1994 08:49:37 GMT\r\ncache-control:  max-age=\"60, x\" "
	        "\r\nDate: Mon, 07 Nov 1994 08:49:37 GMT\r\nExpires: 0\r\n"
	        "Content-Length: 2\r\n\r\nok",
	        "HTTP/1.1 200 OK\r\nExpires: Sun, 06 Nov 1994 09:49:37 GMT\r\n"
	        "Expires: Sun, 06 Nov 1994 09:49:37 GMT\r\nContent-Length: "
	        "2\r\n\r\nok",
	        "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", NULL};
	struct fetched got[4] = {{0}};

	(void)state;
	snprintf(overlong, sizeof(overlong),
	         "HTTP/1.1 200 OK\r\nCache-Control: max-age=5\r\n"
	         "Cache-Control: no-store, x=\"%0500d\"\r\n"
	         "Content-Length: 2\r\n\r\nok",
	         0);
	answers[3] = overlong;
	fetch_script(answers, 4, got);
	assert_int_equal(got[0].status, 200);
	assert_string_equal(got[0].cache_control, "public, max-age=\"60, x\"");
	assert_string_equal(got[0].date, "Sun, 06 Nov 1994 08:49:37 GMT");
	assert_string_equal(got[0].expires, "0");
	assert_string_equal(got[1].expires, "Sun, 06 Nov 1994 09:49:37 GMT, "
	                                    "Sun, 06 Nov 1994 09:49:37 GMT");
	assert_string_equal(got[1].cache_control, "(null)");
	assert_string_equal(got[2].cache_control, "(null)");
	assert_string_equal(got[2].expires, "(null)");
	assert_string_equal(got[2].date, "(null)");
	assert_string_equal(got[3].cache_control, "max-age=5");
}

static const struct site_case {
	const char *name, *url, *site, *host;
	heed_status want;
} site_cases[] = {
        {"RFC 9309 2.3: scheme and host, lower case", "HTTP://Example.ORG/x",
         "http://example.org", "example.org", HEED_OK},
        {"a default port written out is dropped", "https://a.test:443/r",
         "https://a.test", "a.test", HEED_OK},
        {"another port is part of the site", "http://a.test:8080/",
         "http://a.test:8080", "a.test", HEED_OK},
        {"IPv6 literal: bracketed site, bare host", "http://[::1]:8080/",
         "http://[::1]:8080", "::1", HEED_OK},
        {"query and fragment ignored", "http://a.test/p?q=1#f", "http://a.test",
         "a.test", HEED_OK},
        {"not http(s)", "ftp://a.test/", NULL, NULL, HEED_EINVAL},
        {"no scheme", "a.test/robots.txt", NULL, NULL, HEED_EINVAL},
        {"not a URL", "http://", NULL, NULL, HEED_EINVAL},
};

/* A site's identity as the crawl keys it: heed_url_origin and
 * heed_url_hostname (the qualifier's own parser before it moved to heed_url).
 */
static void test_site_of(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < HEED_ARRAY_SIZE(site_cases); i++) {
		const struct site_case *c = &site_cases[i];
		heed_url *u = NULL;
		heed_status rc = heed_url_parse(&u, c->url, strlen(c->url),
		                                heed_test_allocator());
		if (rc != c->want ||
		    (rc == HEED_OK &&
		     (strcmp(heed_url_origin(u), c->site) != 0 ||
		      strcmp(heed_url_hostname(u), c->host) != 0)))
			fail_msg("%s: %s '%s' '%s'", c->name,
			         heed_status_name(rc),
			         u ? heed_url_origin(u) : "",
			         u ? heed_url_hostname(u) : "");
		heed_url_free(u);
	}
}

/* The no_proxy list decides which fetches are pinned: a false match
 * bypasses the proxy, a missed one sends an intranet host through it. */
static void test_no_proxy_match(void **state)
{
	static const struct {
		const char *list, *url;
		bool match;
	} cases[] = {
	        {"example.org", "http://example.org/", true},
	        {"example.org", "https://www.example.org:8443/a", true},
	        {".example.org", "http://www.example.org/", true},
	        {".example.org", "http://example.org/", true},
	        {"example.org", "http://badexample.org/", false},
	        {"example.org", "http://example.org.evil.test/", false},
	        {"www.example.org", "http://example.org/", false},
	        {"EXAMPLE.org.", "http://Www.Example.ORG./x", true},
	        {"a.test, b.test\tc.test", "http://c.test/", true},
	        {"a.test,,b.test", "http://b.test:81/", true},
	        {"*", "http://anything.test/", true},
	        {"*.test", "http://a.test/", false},
	        {"", "http://a.test/", false},
	        {" , ", "http://a.test/", false},
	        {"::1", "http://[::1]:8080/", true},
	        {"127.0.0.1", "http://127.0.0.1:80/", true},
	        {"0.0.1", "http://127.0.0.1/", false}, /* addresses: whole */
	        {"1", "http://[::1]/", false},
	        {"example.org", "http://user@example.org/", true},
	        {"example.org", "http://example.org@evil.test/", false},
	        {"example.org", "http://evil.test/?example.org", false},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (heed_net_no_proxy_match(cases[i].list, cases[i].url) !=
		    cases[i].match)
			fail_msg("'%s' against '%s': want %d", cases[i].list,
			         cases[i].url, cases[i].match);
	}
	assert_false(heed_net_no_proxy_match(NULL, "http://a.test/"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_address_classes),
	        cmocka_unit_test(test_allowed),
	        cmocka_unit_test(test_refusal_message),
	        cmocka_unit_test(test_refused_starts_never_call_back),
	        cmocka_unit_test(test_free_cancels_once),
	        cmocka_unit_test(test_no_user_agent),
	        cmocka_unit_test(test_headers_hook_aborts),
	        cmocka_unit_test(test_not_sent_after_send_by),
	        cmocka_unit_test(test_body_cap),
	        cmocka_unit_test(test_take_body),
	        cmocka_unit_test(test_no_resend_on_a_dead_kept_connection),
	        cmocka_unit_test(test_folded_first_header),
	        cmocka_unit_test(test_two_content_lengths),
	        cmocka_unit_test(test_close_in_headers),
	        cmocka_unit_test(test_freshness_headers),
	        cmocka_unit_test(test_site_of),
	        cmocka_unit_test(test_no_proxy_match),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
