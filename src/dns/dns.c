/*
 * Asynchronous DNS on c-ares: forward lookups that keep every A and AAAA
 * record in the server's order (no RFC 6724 re-sorting: the robots.txt
 * lifecycle must try addresses in a stable order), reverse lookups that keep
 * every PTR name, and a poll()-based loop any event loop can drive.
 *
 * When the operator names DNS servers, heed asks only them (lookups "b"): an
 * /etc/hosts entry must not answer for a test's or an operator's zone. With
 * the system's servers, /etc/hosts comes first as usual ("fb").
 */
#include <arpa/inet.h>
#include <arpa/nameser.h>
#include <ares.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "common/common-int.h"
#include "heed/dns.h"

#define DNS_DEFAULT_TIMEOUT_MS 2000
#define DNS_DEFAULT_TRIES      2
/* A host with more addresses than this is hostile or broken; the rest are
 * dropped (DNS over UDP rarely carries more than ~30 anyway). */
#define DNS_MAX_ADDRS 64
#define DNS_MAX_NAMES 64

struct heed_dns {
	ares_channel channel;
	const struct heed_allocator *alloc;
	size_t pending;
};

/* One lookup in flight. */
struct dns_request {
	heed_dns *dns;
	heed_dns_cb *cb;
	void *ud;
	char *query;
};

const char *heed_dns_outcome_name(heed_dns_outcome outcome)
{
	switch (outcome) {
	case HEED_DNS_FOUND:
		return "found";
	case HEED_DNS_NXDOMAIN:
		return "NXDOMAIN";
	case HEED_DNS_NODATA:
		return "no data";
	case HEED_DNS_SERVFAIL:
		return "SERVFAIL";
	case HEED_DNS_REFUSED:
		return "refused";
	case HEED_DNS_TIMEOUT:
		return "timeout";
	case HEED_DNS_BADNAME:
		return "bad name";
	case HEED_DNS_CANCELLED:
		return "cancelled";
	case HEED_DNS_ERROR:
		return "error";
	}
	return "unknown";
}

static heed_dns_outcome outcome_of(int status)
{
	switch (status) {
	case ARES_SUCCESS:
		return HEED_DNS_FOUND;
	case ARES_ENOTFOUND:
		return HEED_DNS_NXDOMAIN;
	case ARES_ENODATA:
		return HEED_DNS_NODATA;
	case ARES_ESERVFAIL:
		return HEED_DNS_SERVFAIL;
	case ARES_EREFUSED:
	case ARES_ECONNREFUSED:
		return HEED_DNS_REFUSED;
	case ARES_ETIMEOUT:
		return HEED_DNS_TIMEOUT;
	case ARES_EBADNAME:
	case ARES_EBADFAMILY:
	case ARES_EBADSTR:
		return HEED_DNS_BADNAME;
	case ARES_ECANCELLED:
	case ARES_EDESTRUCTION:
		return HEED_DNS_CANCELLED;
	default:
		return HEED_DNS_ERROR;
	}
}

heed_status heed_dns_new(heed_dns **out, const struct heed_dns_options *opt,
                         const struct heed_allocator *alloc,
                         struct heed_diag *diag)
{
	struct ares_options ao;
	int mask = ARES_OPT_TIMEOUTMS | ARES_OPT_TRIES | ARES_OPT_LOOKUPS;
	const char *servers =
	        opt && opt->servers && *opt->servers ? opt->servers : NULL;
	heed_dns *dns;
	int rc;

	*out = NULL;
	alloc = alloc ? alloc : heed_allocator_default();
	dns = heed__calloc(alloc, 1, sizeof(*dns));
	if (!dns)
		return HEED_ENOMEM;
	dns->alloc = alloc;
	memset(&ao, 0, sizeof(ao));
	ao.timeout = opt && opt->timeout_ms > 0 ? opt->timeout_ms
	                                        : DNS_DEFAULT_TIMEOUT_MS;
	ao.tries = opt && opt->tries > 0 ? opt->tries : DNS_DEFAULT_TRIES;
	ao.lookups = servers ? (char *)"b" : (char *)"fb";
	if (opt && opt->report_rcode) {
		ao.flags = ARES_FLAG_NOCHECKRESP;
		mask |= ARES_OPT_FLAGS;
	}
	/* ares_library_init is reference-counted: safe per resolver. */
	rc = ares_library_init(ARES_LIB_INIT_ALL);
	if (rc == ARES_SUCCESS)
		rc = ares_init_options(&dns->channel, &ao, mask);
	if (rc != ARES_SUCCESS) {
		heed__free(alloc, dns);
		return rc == ARES_ENOMEM ? HEED_ENOMEM
		                         : heed_diag_set(diag, HEED_ECONFIG, 0,
		                                         0, "DNS resolver: %s",
		                                         ares_strerror(rc));
	}
	if (servers) {
		rc = ares_set_servers_ports_csv(dns->channel, servers);
		if (rc != ARES_SUCCESS) {
			ares_destroy(dns->channel);
			ares_library_cleanup();
			heed__free(alloc, dns);
			return heed_diag_set(diag, HEED_ECONFIG, 0, 0,
			                     "DNS server '%s': %s", servers,
			                     ares_strerror(rc));
		}
	}
	*out = dns;
	return HEED_OK;
}

void heed_dns_free(heed_dns *dns)
{
	if (!dns)
		return;
	/* Runs every pending callback with ARES_EDESTRUCTION first. */
	ares_destroy(dns->channel);
	ares_library_cleanup();
	heed__free(dns->alloc, dns);
}

static struct dns_request *request_new(heed_dns *dns, const char *query,
                                       heed_dns_cb *cb, void *ud)
{
	struct dns_request *req = heed__calloc(dns->alloc, 1, sizeof(*req));

	if (!req)
		return NULL;
	req->query = heed__strndup(dns->alloc, query, strlen(query));
	if (!req->query) {
		heed__free(dns->alloc, req);
		return NULL;
	}
	req->dns = dns;
	req->cb = cb;
	req->ud = ud;
	dns->pending++;
	return req;
}

/* Delivers the result and releases the request. */
static void request_finish(struct dns_request *req, struct heed_dns_result *res,
                           int status)
{
	heed_dns *dns = req->dns;

	res->outcome = outcome_of(status);
	res->detail = ares_strerror(status);
	res->query = req->query;
	dns->pending--;
	req->cb(req->ud, res);
	heed__free(dns->alloc, req->query);
	heed__free(dns->alloc, req);
}

/* Reports a lookup that could not even start (out of memory). */
static void fail_now(const char *query, heed_dns_cb *cb, void *ud)
{
	struct heed_dns_result res;

	memset(&res, 0, sizeof(res));
	res.outcome = HEED_DNS_ERROR;
	res.detail = "out of memory";
	res.query = query;
	cb(ud, &res);
}

static void addr_from_sockaddr(struct heed_dns_addr *a,
                               const struct sockaddr *sa, int ttl)
{
	memset(a, 0, sizeof(*a));
	a->family = sa->sa_family;
	a->ttl_s = ttl > 0 ? (uint32_t)ttl : 0;
	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *in = (const struct sockaddr_in *)sa;
		memcpy(a->bytes, &in->sin_addr, 4);
	} else {
		const struct sockaddr_in6 *in6 =
		        (const struct sockaddr_in6 *)sa;
		memcpy(a->bytes, &in6->sin6_addr, 16);
	}
	inet_ntop(a->family, a->bytes, a->text, sizeof(a->text));
}

static bool already_listed(const char *const *list, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(list[i], s) == 0)
			return true;
	return false;
}

static void on_addrinfo(void *arg, int status, int timeouts,
                        struct ares_addrinfo *ai)
{
	struct dns_request *req = arg;
	struct heed_dns_addr addrs[DNS_MAX_ADDRS];
	const char *cnames[DNS_MAX_NAMES];
	struct heed_dns_result res;
	struct ares_addrinfo_node *n;
	struct ares_addrinfo_cname *c;

	(void)timeouts;
	memset(&res, 0, sizeof(res));
	for (n = ai ? ai->nodes : NULL; n && res.addr_count < DNS_MAX_ADDRS;
	     n = n->ai_next) {
		if (n->ai_family != AF_INET && n->ai_family != AF_INET6)
			continue;
		addr_from_sockaddr(&addrs[res.addr_count++], n->ai_addr,
		                   n->ai_ttl);
	}
	/* c-ares lists each alias -> target step once per address family;
	 * the chain heed reports is the distinct targets, in order. */
	for (c = ai ? ai->cnames : NULL; c && res.cname_count < DNS_MAX_NAMES;
	     c = c->next)
		if (c->name &&
		    !already_listed(cnames, res.cname_count, c->name))
			cnames[res.cname_count++] = c->name;
	res.addrs = addrs;
	res.cnames = cnames;
	if (status == ARES_SUCCESS && res.addr_count == 0)
		status = ARES_ENODATA;
	request_finish(req, &res, status);
	if (ai)
		ares_freeaddrinfo(ai);
}

/* An address literal answers itself, as heed/dns.h promises: c-ares 1.18
 * would send "127.0.0.11" to the servers as a name (A and AAAA queries),
 * which costs their timeouts and leaks a loopback crawl to the network. */
static bool answer_literal(const char *host, int family, heed_dns_cb *cb,
                           void *ud)
{
	struct heed_dns_addr a;
	struct heed_dns_result res;

	memset(&a, 0, sizeof(a));
	if ((family == AF_UNSPEC || family == AF_INET) &&
	    inet_pton(AF_INET, host, a.bytes) == 1)
		a.family = AF_INET;
	else if ((family == AF_UNSPEC || family == AF_INET6) &&
	         inet_pton(AF_INET6, host, a.bytes) == 1)
		a.family = AF_INET6;
	else
		return false;
	inet_ntop(a.family, a.bytes, a.text, sizeof(a.text));
	memset(&res, 0, sizeof(res));
	res.outcome = HEED_DNS_FOUND;
	res.detail = "address literal";
	res.query = host;
	res.addrs = &a;
	res.addr_count = 1;
	cb(ud, &res);
	return true;
}

void heed_dns_resolve(heed_dns *dns, const char *host, int family,
                      heed_dns_cb *cb, void *ud)
{
	struct ares_addrinfo_hints hints;
	struct dns_request *req;

	if (answer_literal(host, family, cb, ud))
		return;
	req = request_new(dns, host, cb, ud);
	if (!req) {
		fail_now(host, cb, ud);
		return;
	}
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = family;
	hints.ai_flags = ARES_AI_NOSORT;
	/* One entry per address, not one per socket type. */
	hints.ai_socktype = SOCK_STREAM;
	ares_getaddrinfo(dns->channel, req->query, NULL, &hints, on_addrinfo,
	                 req);
}

/* Lists every PTR name of a parsed reply into res (pointers into he). */
static void list_ptr_names(const struct hostent *he, const char **names,
                           struct heed_dns_result *res)
{
	size_t i;

	/* c-ares puts the first PTR in h_name and every PTR, the first
	 * included, in h_aliases. */
	if (he->h_name)
		names[res->name_count++] = he->h_name;
	for (i = 0; he->h_aliases && he->h_aliases[i] &&
	            res->name_count < DNS_MAX_NAMES;
	     i++)
		if (!already_listed(names, res->name_count, he->h_aliases[i]))
			names[res->name_count++] = he->h_aliases[i];
}

/* A reverse request remembers the address for ares_parse_ptr_reply. */
struct ptr_request {
	struct dns_request *req;
	uint8_t bytes[16];
	int len, family;
};

static void on_ptr(void *arg, int status, int timeouts, unsigned char *abuf,
                   int alen)
{
	struct ptr_request *pr = arg;
	struct dns_request *req = pr->req;
	const char *names[DNS_MAX_NAMES];
	struct heed_dns_result res;
	struct hostent *he = NULL;

	(void)timeouts;
	memset(&res, 0, sizeof(res));
	if (status == ARES_SUCCESS)
		status = ares_parse_ptr_reply(abuf, alen, pr->bytes, pr->len,
		                              pr->family, &he);
	if (status == ARES_SUCCESS && he)
		list_ptr_names(he, names, &res);
	res.names = names;
	if (status == ARES_SUCCESS && res.name_count == 0)
		status = ARES_ENODATA;
	heed__free(req->dns->alloc, pr);
	request_finish(req, &res, status);
	if (he)
		ares_free_hostent(he);
}

const char *heed_dns_reverse_name(int family, const uint8_t *bytes, char *buf,
                                  size_t size)
{
	static const char hex[] = "0123456789abcdef";
	size_t used = 0;
	int i;

	if (size < HEED_DNS_REVERSE_NAME_SIZE) {
		if (size)
			buf[0] = '\0';
		return buf;
	}
	if (family == AF_INET) {
		snprintf(buf, size, "%u.%u.%u.%u.in-addr.arpa", bytes[3],
		         bytes[2], bytes[1], bytes[0]);
		return buf;
	}
	/* RFC 3596 section 2.5: nibbles, least significant first. */
	for (i = 15; i >= 0; i--) {
		buf[used++] = hex[bytes[i] & 0xf];
		buf[used++] = '.';
		buf[used++] = hex[bytes[i] >> 4];
		buf[used++] = '.';
	}
	memcpy(buf + used, "ip6.arpa", sizeof("ip6.arpa"));
	return buf;
}

/*
 * A PTR query of its own, not ares_gethostbyaddr: c-ares 1.18's
 * gethostbyaddr turns every failure (SERVFAIL, timeout, refusal) into
 * ENOTFOUND once its lookup sources are used up, and crawler verification
 * must tell "no such name" from "the server failed".
 */
void heed_dns_reverse(heed_dns *dns, const char *address, heed_dns_cb *cb,
                      void *ud)
{
	struct dns_request *req = request_new(dns, address, cb, ud);
	struct ptr_request *pr;
	struct heed_dns_result res;
	char name[HEED_DNS_REVERSE_NAME_SIZE];

	if (!req) {
		fail_now(address, cb, ud);
		return;
	}
	memset(&res, 0, sizeof(res));
	pr = heed__calloc(dns->alloc, 1, sizeof(*pr));
	if (!pr) {
		request_finish(req, &res, ARES_ENOMEM);
		return;
	}
	pr->req = req;
	if (inet_pton(AF_INET, address, pr->bytes) == 1) {
		pr->family = AF_INET;
		pr->len = 4;
	} else if (inet_pton(AF_INET6, address, pr->bytes) == 1) {
		pr->family = AF_INET6;
		pr->len = 16;
	} else {
		heed__free(dns->alloc, pr);
		request_finish(req, &res, ARES_EBADNAME);
		return;
	}
	heed_dns_reverse_name(pr->family, pr->bytes, name, sizeof(name));
	ares_query(dns->channel, name, ns_c_in, ns_t_ptr, on_ptr, pr);
}

size_t heed_dns_pending(const heed_dns *dns)
{
	return dns->pending;
}

int heed_dns_pollfds(heed_dns *dns, struct pollfd *fds, int max)
{
	ares_socket_t socks[ARES_GETSOCK_MAXNUM];
	/* Unsigned: c-ares's ARES_GETSOCK_WRITABLE shifts 1 by up to 31 in
	 * an int, which UBSan rightly rejects. */
	unsigned bits = (unsigned)ares_getsock(dns->channel, socks,
	                                       ARES_GETSOCK_MAXNUM);
	int i, n = 0;

	for (i = 0; i < ARES_GETSOCK_MAXNUM && n < max; i++) {
		short events = 0;
		if ((bits >> i) & 1u)
			events |= POLLIN;
		if ((bits >> (i + ARES_GETSOCK_MAXNUM)) & 1u)
			events |= POLLOUT;
		if (!events)
			continue;
		fds[n].fd = socks[i];
		fds[n].events = events;
		fds[n].revents = 0;
		n++;
	}
	return n;
}

int heed_dns_timeout_ms(heed_dns *dns, int max_ms)
{
	struct timeval maxtv = {max_ms / 1000, (max_ms % 1000) * 1000};
	struct timeval tv, *t = ares_timeout(dns->channel, &maxtv, &tv);
	long ms = (long)t->tv_sec * 1000 + (t->tv_usec + 999) / 1000;

	return ms < max_ms ? (int)ms : max_ms;
}

void heed_dns_process(heed_dns *dns, const struct pollfd *fds, int count)
{
	int i;

	for (i = 0; i < count; i++) {
		ares_socket_t rd = ARES_SOCKET_BAD, wr = ARES_SOCKET_BAD;
		if (fds[i].revents & (POLLIN | POLLERR | POLLHUP))
			rd = fds[i].fd;
		if (fds[i].revents & POLLOUT)
			wr = fds[i].fd;
		if (rd != ARES_SOCKET_BAD || wr != ARES_SOCKET_BAD)
			ares_process_fd(dns->channel, rd, wr);
	}
	/* With no socket named, c-ares handles expired timeouts. */
	ares_process_fd(dns->channel, ARES_SOCKET_BAD, ARES_SOCKET_BAD);
}

void heed_dns_wait(heed_dns *dns)
{
	struct pollfd fds[ARES_GETSOCK_MAXNUM];

	while (dns->pending) {
		int n = heed_dns_pollfds(dns, fds, ARES_GETSOCK_MAXNUM);
		int ms = heed_dns_timeout_ms(dns, 1000);
		/* On a poll error, process anyway: c-ares's own timeouts still
		 * end every lookup, so the loop stays bounded. */
		if (poll(fds, (nfds_t)n, ms) < 0)
			n = 0;
		heed_dns_process(dns, fds, n);
	}
}
