/*
 * Forward-confirmed reverse DNS on heed's resolver (heed/dns.h), as the
 * operator's page tells site administrators to do it by hand
 * (seeds/crawler-operator-page.md, "Step 1: Reverse lookup", "Step 2:
 * Forward lookup"):
 *
 *   1. PTR lookup of the address: every name, not just the first (c-ares
 *      1.18 returns all of them; glibc's getnameinfo returns one).
 *   2. For each name under one of the operator's domains, a forward lookup
 *      of the address's own family (A for IPv4, AAAA for IPv6), CNAMEs
 *      followed; verified when the address is among the answers of any of
 *      them.
 *
 * A check is a job with its own arena holding the result as it grows; when
 * the last lookup answers, the job decides, calls back, and hands the arena
 * to the cache. Failures say which step failed and how (NXDOMAIN, SERVFAIL,
 * timeout): they mean "not verified", never "fake".
 *
 * Cache lifetimes: c-ares 1.18 reports no TTL for PTR records, so the
 * forward record bounds a positive result. That is the record the
 * operator's domain controls: when the operator moves a name off an
 * address, the old answer can live no longer than its TTL. Answers without
 * a TTL (no PTR, a PTR outside the domains, NXDOMAIN) live negative_ttl_s,
 * failures failure_ttl_s, everything at most max_ttl_s.
 */
#include <assert.h>
#include <libpsl.h>
#include <string.h>
#include <sys/socket.h>

#include "verify/verify-int.h"

#define DEFAULT_CACHE_ENTRIES  4096
#define DEFAULT_MAX_TTL_S      86400
#define DEFAULT_NEGATIVE_TTL_S 3600
#define DEFAULT_FAILURE_TTL_S  60
#define DEFAULT_MAX_PENDING    256

struct heed_verifier {
	const struct heed_allocator *alloc;
	heed_dns *dns;
	char **domains;
	size_t domain_count;
	struct heed__verify_cache cache;
	uint32_t max_ttl_s, negative_ttl_s, failure_ttl_s;
	size_t pending;          /* checks started, not answered */
	size_t job_count;        /* addresses being looked up */
	size_t max_pending;      /* bound on job_count */
	struct verify_job *jobs; /* lookups in flight, one per address */
};

struct verify_job;

/* What a forward lookup's callback needs to find its candidate. */
struct forward_slot {
	struct verify_job *job;
	size_t index;
};

/* A check of an address that a job is already looking up: it gets the
 * same answer (a web server sees a new client's requests in bursts). */
struct verify_waiter {
	heed_verify_cb *cb;
	void *ud;
	char *query; /* the address as this caller wrote it */
	struct verify_waiter *next;
};

/* One check in flight. The job itself is heap memory freed when it ends;
 * its arena holds the result and moves to the cache. */
struct verify_job {
	heed_verifier *v;
	heed_verify_cb *cb;
	void *ud;
	int64_t now_s;
	struct heed_arena arena;
	struct heed_verify_result *res;
	struct heed_verify_candidate *cands;
	struct forward_slot *slots;
	size_t outstanding; /* forward lookups not answered yet */
	bool launching;     /* still starting forward lookups */
	bool cancelled;     /* a lookup was cancelled: do not cache */
	bool decided;       /* step 1 ended the check */
	struct verify_waiter *waiters;
	struct verify_job *next; /* in the verifier's list */
};

const char *heed_verify_reason_name(heed_verify_reason reason)
{
	switch (reason) {
	case HEED_VERIFY_OK:
		return "verified";
	case HEED_VERIFY_BAD_ADDRESS:
		return "not an IP address";
	case HEED_VERIFY_NO_PTR:
		return "no PTR record";
	case HEED_VERIFY_PTR_FAILED:
		return "PTR lookup failed";
	case HEED_VERIFY_NOT_UNDER_DOMAIN:
		return "no PTR name under the operator's domains";
	case HEED_VERIFY_FORWARD_MISMATCH:
		return "forward lookup does not give the address back";
	case HEED_VERIFY_FORWARD_FAILED:
		return "forward lookup failed";
	case HEED_VERIFY_BUSY:
		return "too many checks in flight";
	}
	return "unknown";
}

const char *heed_verify_step_name(heed_verify_step step)
{
	switch (step) {
	case HEED_VERIFY_STEP_NONE:
		return "none";
	case HEED_VERIFY_STEP_REVERSE:
		return "reverse";
	case HEED_VERIFY_STEP_FORWARD:
		return "forward";
	}
	return "unknown";
}

/* ---- Construction ------------------------------------------------------ */

/* Refuses "", "." and public suffixes: with "com" as the domain, anyone
 * who controls any .com reverse zone would verify. */
static heed_status check_domain(const psl_ctx_t *psl, const char *d,
                                struct heed_diag *diag)
{
	char lower[256];
	size_t n, i;

	if (*d == '.')
		d++;
	n = strlen(d);
	if (n && d[n - 1] == '.')
		n--;
	if (n == 0 || n >= sizeof(lower))
		return heed_diag_set(diag, HEED_ECONFIG, 0, 0,
		                     "verification domain '%s' is not a domain",
		                     d);
	for (i = 0; i < n; i++)
		lower[i] = heed__ascii_lower(d[i]);
	lower[n] = '\0';
	if (psl && psl_is_public_suffix(psl, lower))
		return heed_diag_set(
		        diag, HEED_ECONFIG, 0, 0,
		        "verification domain '%s' is a public "
		        "suffix: anyone could have a name under it",
		        lower);
	return HEED_OK;
}

static heed_status copy_domains(heed_verifier *v,
                                const struct heed_verify_options *opt,
                                struct heed_diag *diag)
{
	psl_ctx_t *psl;
	heed_status rc = HEED_OK;
	size_t i;

	if (!opt->domain_count)
		return heed_diag_set(diag, HEED_ECONFIG, 0, 0,
		                     "no verification domain given");
	v->domains =
	        heed__calloc(v->alloc, opt->domain_count, sizeof(*v->domains));
	if (!v->domains)
		return HEED_ENOMEM;
	/* The system's list when installed, the built-in one otherwise. */
	psl = psl_latest(NULL);
	for (i = 0; i < opt->domain_count && rc == HEED_OK; i++) {
		rc = check_domain(psl, opt->domains[i], diag);
		if (rc != HEED_OK)
			break;
		v->domains[i] = heed__strndup(v->alloc, opt->domains[i],
		                              strlen(opt->domains[i]));
		if (!v->domains[i])
			rc = HEED_ENOMEM;
		else
			v->domain_count++;
	}
	psl_free(psl);
	return rc;
}

static uint32_t or_default(uint32_t value, uint32_t fallback)
{
	return value ? value : fallback;
}

/* The caller's resolver options, plus: tell SERVFAIL from the rest. */
static heed_status new_resolver(heed_verifier *v,
                                const struct heed_verify_options *opt,
                                struct heed_diag *diag)
{
	struct heed_dns_options dns = opt->dns;

	dns.report_rcode = true;
	return heed_dns_new(&v->dns, &dns, v->alloc, diag);
}

heed_status heed_verifier_new(heed_verifier **out,
                              const struct heed_verify_options *opt,
                              const struct heed_allocator *alloc,
                              struct heed_diag *diag)
{
	heed_verifier *v;
	heed_status rc;
	size_t entries;

	*out = NULL;
	alloc = alloc ? alloc : heed_allocator_default();
	v = heed__calloc(alloc, 1, sizeof(*v));
	if (!v)
		return HEED_ENOMEM;
	v->alloc = alloc;
	v->max_ttl_s = or_default(opt->max_ttl_s, DEFAULT_MAX_TTL_S);
	v->negative_ttl_s =
	        or_default(opt->negative_ttl_s, DEFAULT_NEGATIVE_TTL_S);
	v->failure_ttl_s =
	        or_default(opt->failure_ttl_s, DEFAULT_FAILURE_TTL_S);
	v->max_pending =
	        opt->max_pending ? opt->max_pending : DEFAULT_MAX_PENDING;
	entries = opt->cache_entries < 0    ? 0
	          : opt->cache_entries == 0 ? DEFAULT_CACHE_ENTRIES
	                                    : (size_t)opt->cache_entries;
	rc = copy_domains(v, opt, diag);
	if (rc == HEED_OK)
		rc = heed__verify_cache_init(&v->cache, alloc, entries);
	if (rc == HEED_OK)
		rc = new_resolver(v, opt, diag);
	if (rc != HEED_OK) {
		heed_verifier_free(v);
		return rc;
	}
	*out = v;
	return HEED_OK;
}

void heed_verifier_free(heed_verifier *v)
{
	size_t i;

	if (!v)
		return;
	/* Runs the pending jobs' callbacks (cancelled) while the rest of the
	 * verifier still exists. */
	heed_dns_free(v->dns);
	heed__verify_cache_free(&v->cache);
	for (i = 0; i < v->domain_count; i++)
		heed__free(v->alloc, v->domains[i]);
	heed__free(v->alloc, v->domains);
	heed__free(v->alloc, v);
}

/* ---- Deciding ---------------------------------------------------------- */

static bool transient(heed_dns_outcome o)
{
	return o != HEED_DNS_FOUND && o != HEED_DNS_NXDOMAIN &&
	       o != HEED_DNS_NODATA;
}

static uint32_t min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

/* The smallest TTL among the addresses that matched (matching) or among all
 * answers (otherwise), of every candidate that answered. */
static uint32_t forward_ttl(const struct heed_verify_result *res, bool matching,
                            uint32_t ceiling)
{
	uint32_t ttl = ceiling;
	size_t i, j;

	for (i = 0; i < res->candidate_count; i++) {
		const struct heed_verify_candidate *c = &res->candidates[i];
		if (!c->looked_up || c->outcome != HEED_DNS_FOUND)
			continue;
		if (matching && !c->has_address)
			continue;
		for (j = 0; j < c->addr_count; j++)
			ttl = min_u32(ttl, c->addrs[j].ttl_s);
	}
	return ttl;
}

/* Sets reason, step and outcome from the candidates, after step 2. */
static void decide_forward(struct heed_verify_result *res)
{
	const struct heed_verify_candidate *first_looked = NULL;
	size_t i;

	res->step = HEED_VERIFY_STEP_FORWARD;
	for (i = 0; i < res->candidate_count; i++) {
		const struct heed_verify_candidate *c = &res->candidates[i];
		if (c->has_address) {
			res->reason = HEED_VERIFY_OK;
			res->outcome = HEED_DNS_FOUND;
			res->verified_name = c->name;
			return;
		}
		if (c->looked_up && !first_looked)
			first_looked = c;
	}
	if (!first_looked) {
		/* Step 1 answered, but with names that prove nothing. */
		res->reason = HEED_VERIFY_NOT_UNDER_DOMAIN;
		res->step = HEED_VERIFY_STEP_REVERSE;
		res->outcome = HEED_DNS_FOUND;
		return;
	}
	/* One name that answered without the address outweighs others that
	 * failed: the operator's own DNS says "not this address". */
	for (i = 0; i < res->candidate_count; i++) {
		const struct heed_verify_candidate *c = &res->candidates[i];
		if (c->looked_up && (c->outcome == HEED_DNS_FOUND ||
		                     c->outcome == HEED_DNS_NODATA)) {
			res->reason = HEED_VERIFY_FORWARD_MISMATCH;
			res->outcome = c->outcome;
			return;
		}
	}
	res->reason = HEED_VERIFY_FORWARD_FAILED;
	res->outcome = first_looked->outcome;
}

/* How long the decided result may be cached. */
static uint32_t cache_ttl(const heed_verifier *v,
                          const struct heed_verify_result *res)
{
	switch (res->reason) {
	case HEED_VERIFY_OK:
		return forward_ttl(res, true, v->max_ttl_s);
	case HEED_VERIFY_FORWARD_MISMATCH:
		if (res->outcome == HEED_DNS_FOUND)
			return forward_ttl(res, false, v->max_ttl_s);
		return min_u32(v->negative_ttl_s, v->max_ttl_s);
	case HEED_VERIFY_BAD_ADDRESS:
		return 0;
	default:
		break;
	}
	if (transient(res->outcome))
		return min_u32(v->failure_ttl_s, v->max_ttl_s);
	return min_u32(v->negative_ttl_s, v->max_ttl_s);
}

static void unlink_job(struct verify_job *job)
{
	struct verify_job **link = &job->v->jobs;

	while (*link != job)
		link = &(*link)->next;
	*link = job->next;
}

/* Gives the result to every waiter, each under its own spelling of the
 * address, and frees them. */
static void answer_waiters(struct verify_job *job,
                           const struct heed_verify_result *res)
{
	struct verify_waiter *w = job->waiters, *next;

	job->waiters = NULL;
	for (; w; w = next) {
		struct heed_verify_result copy = *res;
		next = w->next;
		copy.query = w->query;
		job->v->pending--;
		w->cb(w->ud, &copy);
		heed__free(job->v->alloc, w->query);
		heed__free(job->v->alloc, w);
	}
}

/* Ends a job: decides (unless step 1 already did), calls back, caches. */
static void job_finish(struct verify_job *job)
{
	heed_verifier *v = job->v;
	struct heed_verify_result *res = job->res;

	if (!job->decided)
		decide_forward(res);
	res->verified = res->reason == HEED_VERIFY_OK;
	res->cache_ttl_s = job->cancelled ? 0 : cache_ttl(v, res);
	/* Out of the list first: a callback checking the same address again
	 * starts afresh instead of waiting on a finished job. */
	unlink_job(job);
	v->job_count--;
	v->pending--;
	job->cb(job->ud, res);
	answer_waiters(job, res);
	if (res->cache_ttl_s)
		heed__verify_cache_put(&v->cache, &res->addr,
		                       job->now_s + res->cache_ttl_s,
		                       &job->arena, res);
	else
		heed__arena_free(&job->arena);
	heed__free(v->alloc, job);
}

/* Ends a job at step 1 with reason and the outcome that caused it. */
static void job_fail_reverse(struct verify_job *job, heed_verify_reason reason,
                             heed_dns_outcome outcome)
{
	job->res->reason = reason;
	job->res->step = HEED_VERIFY_STEP_REVERSE;
	job->res->outcome = outcome;
	job->cancelled |= outcome == HEED_DNS_CANCELLED;
	job->decided = true;
	job_finish(job);
}

/* ---- Lookups ----------------------------------------------------------- */

static const char *domain_of(const heed_verifier *v, const char *name)
{
	size_t i;

	for (i = 0; i < v->domain_count; i++)
		if (heed_verify_name_under(name, v->domains[i]))
			return v->domains[i];
	return NULL;
}

/* An answer matches when it is the address, IPv4-mapped answers
 * unwrapped like the address was. */
static bool answer_is(const struct heed_dns_addr *a,
                      const struct heed_verify_addr *want)
{
	struct heed_verify_addr got;

	if (heed_verify_addr_parse(a->text, &got) != HEED_OK)
		return false;
	return got.family == want->family &&
	       memcmp(got.bytes, want->bytes, sizeof(got.bytes)) == 0;
}

/* Copies a forward answer into the candidate (arena memory). */
static bool keep_answer(struct verify_job *job, struct heed_verify_candidate *c,
                        const struct heed_dns_result *r)
{
	struct heed_dns_addr *addrs = NULL;
	const char **cnames = NULL;
	size_t i;

	if (r->addr_count) {
		addrs = heed__arena_alloc(&job->arena,
		                          r->addr_count * sizeof(*addrs));
		if (!addrs)
			return false;
		memcpy(addrs, r->addrs, r->addr_count * sizeof(*addrs));
	}
	if (r->cname_count) {
		cnames = heed__arena_alloc(&job->arena,
		                           r->cname_count * sizeof(*cnames));
		if (!cnames)
			return false;
	}
	for (i = 0; i < r->cname_count; i++) {
		cnames[i] = heed__arena_strndup(&job->arena, r->cnames[i],
		                                strlen(r->cnames[i]));
		if (!cnames[i])
			return false;
	}
	c->addrs = addrs;
	c->addr_count = r->addr_count;
	c->cnames = cnames;
	c->cname_count = r->cname_count;
	for (i = 0; i < r->addr_count; i++)
		c->has_address |= answer_is(&addrs[i], &job->res->addr);
	return true;
}

static void on_forward(void *ud, const struct heed_dns_result *r)
{
	struct forward_slot *slot = ud;
	struct verify_job *job = slot->job;
	struct heed_verify_candidate *c = &job->cands[slot->index];

	c->outcome = r->outcome;
	c->detail = r->detail;
	job->cancelled |= r->outcome == HEED_DNS_CANCELLED;
	if (!keep_answer(job, c, r)) {
		c->outcome = HEED_DNS_ERROR;
		c->detail = "out of memory";
		c->has_address = false;
	}
	job->outstanding--;
	if (!job->launching && job->outstanding == 0)
		job_finish(job);
}

/* Fills the candidates from the PTR names; false when out of memory. */
static bool keep_names(struct verify_job *job, const struct heed_dns_result *r)
{
	size_t i, n = r->name_count;

	job->cands = heed__arena_alloc(&job->arena, n * sizeof(*job->cands));
	job->slots = heed__arena_alloc(&job->arena, n * sizeof(*job->slots));
	if (!job->cands || !job->slots)
		return false;
	memset(job->cands, 0, n * sizeof(*job->cands));
	for (i = 0; i < n; i++) {
		struct heed_verify_candidate *c = &job->cands[i];
		c->name = heed__arena_strndup(&job->arena, r->names[i],
		                              strlen(r->names[i]));
		if (!c->name)
			return false;
		c->suffix = domain_of(job->v, c->name);
		job->slots[i].job = job;
		job->slots[i].index = i;
	}
	job->res->candidates = job->cands;
	job->res->candidate_count = n;
	return true;
}

static void on_reverse(void *ud, const struct heed_dns_result *r)
{
	struct verify_job *job = ud;
	size_t i, launched = 0;

	job->res->reverse_outcome = r->outcome;
	job->res->reverse_detail = r->detail;
	if (r->outcome == HEED_DNS_NXDOMAIN || r->outcome == HEED_DNS_NODATA) {
		job_fail_reverse(job, HEED_VERIFY_NO_PTR, r->outcome);
		return;
	}
	if (r->outcome != HEED_DNS_FOUND) {
		job_fail_reverse(job, HEED_VERIFY_PTR_FAILED, r->outcome);
		return;
	}
	if (!keep_names(job, r)) {
		job->res->candidate_count = 0;
		job_fail_reverse(job, HEED_VERIFY_PTR_FAILED, HEED_DNS_ERROR);
		return;
	}
	/* Forward callbacks may run before heed_dns_resolve returns; the
	 * flag keeps them from finishing the job under this loop. */
	job->launching = true;
	for (i = 0; i < job->res->candidate_count; i++) {
		struct heed_verify_candidate *c = &job->cands[i];
		if (!c->suffix || launched == HEED_VERIFY_MAX_FORWARD)
			continue;
		c->looked_up = true;
		launched++;
		job->outstanding++;
		heed_dns_resolve(job->v->dns, c->name, job->res->addr.family,
		                 on_forward, &job->slots[i]);
	}
	job->launching = false;
	if (job->outstanding == 0)
		job_finish(job);
}

/* ---- Starting checks --------------------------------------------------- */

/* A result without a lookup: a bad address (addr NULL), too many checks in
 * flight, or out of memory. */
static void answer_now(const char *address, const struct heed_verify_addr *addr,
                       heed_verify_reason reason, const char *detail,
                       heed_verify_cb *cb, void *ud)
{
	struct heed_verify_result res;

	memset(&res, 0, sizeof(res));
	res.query = address;
	res.reason = reason;
	res.step = HEED_VERIFY_STEP_NONE;
	res.outcome = addr ? HEED_DNS_ERROR : HEED_DNS_BADNAME;
	res.reverse_outcome = res.outcome;
	res.reverse_detail = detail;
	if (addr) {
		res.addr = *addr;
		heed_verify_addr_format(addr, res.address, sizeof(res.address));
		heed_dns_reverse_name(addr->family, addr->bytes,
		                      res.reverse_name,
		                      sizeof(res.reverse_name));
	}
	cb(ud, &res);
}

static void answer_cached(const struct heed_verify_result *cached,
                          const char *address, heed_verify_cb *cb, void *ud)
{
	struct heed_verify_result res = *cached;

	res.query = address;
	res.from_cache = true;
	cb(ud, &res);
}

static struct verify_job *job_new(heed_verifier *v, const char *address,
                                  const struct heed_verify_addr *addr)
{
	struct verify_job *job = heed__calloc(v->alloc, 1, sizeof(*job));
	struct heed_verify_result *res;

	if (!job)
		return NULL;
	heed__arena_init(&job->arena, v->alloc);
	res = heed__arena_alloc(&job->arena, sizeof(*res));
	if (!res)
		goto oom;
	memset(res, 0, sizeof(*res));
	res->query = heed__arena_strndup(&job->arena, address, strlen(address));
	if (!res->query)
		goto oom;
	res->addr = *addr;
	heed_verify_addr_format(addr, res->address, sizeof(res->address));
	heed_dns_reverse_name(addr->family, addr->bytes, res->reverse_name,
	                      sizeof(res->reverse_name));
	job->res = res;
	job->v = v;
	return job;
oom:
	heed__arena_free(&job->arena);
	heed__free(v->alloc, job);
	return NULL;
}

/* Joins the job already looking addr up, if any. False when there is none
 * or memory ran out (the caller then starts a job of its own). */
static bool wait_for(heed_verifier *v, const struct heed_verify_addr *addr,
                     const char *address, heed_verify_cb *cb, void *ud)
{
	struct verify_job *job;
	struct verify_waiter *w;

	for (job = v->jobs; job; job = job->next)
		if (job->res->addr.family == addr->family &&
		    memcmp(job->res->addr.bytes, addr->bytes,
		           sizeof(addr->bytes)) == 0)
			break;
	if (!job)
		return false;
	w = heed__calloc(v->alloc, 1, sizeof(*w));
	if (w)
		w->query = heed__strndup(v->alloc, address, strlen(address));
	if (!w || !w->query) {
		heed__free(v->alloc, w);
		return false;
	}
	w->cb = cb;
	w->ud = ud;
	w->next = job->waiters;
	job->waiters = w;
	v->pending++;
	return true;
}

void heed_verifier_start(heed_verifier *v, const char *address, int64_t now_s,
                         heed_verify_cb *cb, void *ud)
{
	struct heed_verify_addr addr;
	const struct heed_verify_result *cached;
	struct verify_job *job;

	if (heed_verify_addr_parse(address, &addr) != HEED_OK) {
		answer_now(address, NULL, HEED_VERIFY_BAD_ADDRESS,
		           "not an IP address", cb, ud);
		return;
	}
	cached = heed__verify_cache_get(&v->cache, &addr, now_s);
	if (cached) {
		answer_cached(cached, address, cb, ud);
		return;
	}
	if (v->jobs && wait_for(v, &addr, address, cb, ud))
		return;
	if (v->job_count >= v->max_pending) {
		answer_now(address, &addr, HEED_VERIFY_BUSY,
		           "too many checks in flight", cb, ud);
		return;
	}
	job = job_new(v, address, &addr);
	if (!job) {
		answer_now(address, &addr, HEED_VERIFY_PTR_FAILED,
		           "out of memory", cb, ud);
		return;
	}
	job->cb = cb;
	job->ud = ud;
	job->now_s = now_s;
	job->next = v->jobs;
	v->jobs = job;
	v->job_count++;
	v->pending++;
	heed_dns_reverse(v->dns, job->res->address, on_reverse, job);
}

struct check_ctx {
	heed_verify_cb *cb;
	void *ud;
	bool done;
	heed_verify_reason reason;
};

static void on_check(void *ud, const struct heed_verify_result *res)
{
	struct check_ctx *ctx = ud;

	ctx->done = true;
	ctx->reason = res->reason;
	if (ctx->cb)
		ctx->cb(ctx->ud, res);
}

heed_verify_reason heed_verifier_check(heed_verifier *v, const char *address,
                                       int64_t now_s, heed_verify_cb *cb,
                                       void *ud)
{
	struct check_ctx ctx = {cb, ud, false, HEED_VERIFY_PTR_FAILED};
	struct pollfd fds[16];

	heed_verifier_start(v, address, now_s, on_check, &ctx);
	/* Every lookup ends by its own timeout, so this loop does too. */
	while (!ctx.done && heed_dns_pending(v->dns)) {
		int n = heed_dns_pollfds(v->dns, fds,
		                         (int)HEED_ARRAY_SIZE(fds));
		int ms = heed_dns_timeout_ms(v->dns, 1000);
		if (poll(fds, (nfds_t)n, ms) < 0)
			n = 0;
		heed_dns_process(v->dns, fds, n);
	}
	assert(ctx.done);
	return ctx.reason;
}

size_t heed_verifier_pending(const heed_verifier *v)
{
	return v->pending;
}

int heed_verifier_pollfds(heed_verifier *v, struct pollfd *fds, int max)
{
	return heed_dns_pollfds(v->dns, fds, max);
}

int heed_verifier_timeout_ms(heed_verifier *v, int max_ms)
{
	return heed_dns_timeout_ms(v->dns, max_ms);
}

void heed_verifier_process(heed_verifier *v, const struct pollfd *fds,
                           int count)
{
	heed_dns_process(v->dns, fds, count);
}

void heed_verifier_wait(heed_verifier *v)
{
	heed_dns_wait(v->dns);
}

size_t heed_verifier_cache_size(const heed_verifier *v)
{
	return v->cache.size;
}
