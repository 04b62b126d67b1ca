/*
 * The robots.txt download lifecycle of one site as a state machine, following
 * the seed robots-txt-download-lifecycle.txt paragraph by paragraph (quoted
 * beside the code that implements each sentence) and RFC 9309 2.3.1.2 for
 * redirects.
 *
 * Invariants: every state change goes through set_state(), which logs it;
 * a run starts at HEED_SITE_EV_START and ends at exactly one DO_DONE, after
 * which the record holds the outcome and the state is one of the five
 * durable states. The machine owns nothing but itself and a copy of the
 * host name.
 */
#include <stdio.h>
#include <string.h>

#include "sitepolicy/sitepolicy-int.h"

/* A machine holds no more addresses than this; a host with more is tried on
 * the first ones only, so a hostile zone cannot make one run endless. */
#define SITE_MAX_ADDRESSES 32

struct heed_site {
	const struct heed_allocator *alloc;
	struct heed_logger logger;
	struct heed_site_options opt;
	struct heed_site_record record;
	char *host;
	heed_site_state state;
	size_t address_count; /* of the current target */
	size_t address;       /* index being tried */
	unsigned pass;        /* 1 or 2 */
	unsigned redirects;   /* hops followed in this run */
	int64_t pause_until_ms;
	bool fetched;    /* an attempt was started in this run */
	int64_t fresh_s; /* the 2xx answer's freshness lifetime; -1: none */
	int last_status; /* last status >= 500 seen, for the report */
	char last_error[96];
};

static const char *const state_names[] = {
        "unknown",
        "qualified-rules",
        "qualified-no-rules",
        "disqualified",
        "disqualified-until-reset",
        "resolving",
        "fetching",
        "paused",
        "reading",
        "parsing",
};

static const char *const reason_names[] = {
        "none",      "parsed",      "not-robots",   "no-robots",
        "dns",       "no-answer",   "truncated",    "status",
        "redirects", "crawl-delay", "max-failures", "reset",
};

static const char *const event_names[] = {
        "start",          "resolved", "resolve-failed",
        "attempt-failed", "status",   "body-complete",
        "body-truncated", "parsed",   "timer",
};

static const char *const action_names[] = {
        "nothing", "resolve", "fetch", "wait", "done",
};

static const char *name_at(const char *const *names, size_t count, size_t i)
{
	return i < count ? names[i] : "invalid";
}

static heed_status index_of(const char *const *names, size_t count,
                            const char *name, int *out)
{
	size_t i;

	for (i = 0; name && i < count; i++) {
		if (strcmp(names[i], name) == 0) {
			*out = (int)i;
			return HEED_OK;
		}
	}
	return HEED_ENOTFOUND;
}

const char *heed_site_state_name(heed_site_state state)
{
	return name_at(state_names, HEED_ARRAY_SIZE(state_names),
	               (size_t)state);
}

heed_status heed_site_state_parse(const char *name, heed_site_state *state)
{
	int i = 0;
	heed_status rc =
	        index_of(state_names, HEED_ARRAY_SIZE(state_names), name, &i);

	if (rc == HEED_OK)
		*state = (heed_site_state)i;
	return rc;
}

const char *heed_site_reason_name(heed_site_reason reason)
{
	return name_at(reason_names, HEED_ARRAY_SIZE(reason_names),
	               (size_t)reason);
}

heed_status heed_site_reason_parse(const char *name, heed_site_reason *reason)
{
	int i = 0;
	heed_status rc =
	        index_of(reason_names, HEED_ARRAY_SIZE(reason_names), name, &i);

	if (rc == HEED_OK)
		*reason = (heed_site_reason)i;
	return rc;
}

const char *heed_site_event_name(heed_site_event_kind kind)
{
	return name_at(event_names, HEED_ARRAY_SIZE(event_names), (size_t)kind);
}

const char *heed_site_action_name(heed_site_action_kind kind)
{
	return name_at(action_names, HEED_ARRAY_SIZE(action_names),
	               (size_t)kind);
}

bool heed_site_state_qualified(heed_site_state state)
{
	return state == HEED_SITE_QUALIFIED_RULES ||
	       state == HEED_SITE_QUALIFIED_NO_RULES;
}

void heed_site_options_default(struct heed_site_options *opt)
{
	opt->retry_interval_s = 3600;
	opt->recheck_interval_s = 86400;
	opt->max_failures = 24;
	opt->pass_pause_ms = 2000;
	opt->max_redirects = 5;
	opt->crawl_delay_cap_ms = 30000;
}

void heed_site_record_reset(struct heed_site_record *record)
{
	record->state = HEED_SITE_UNKNOWN;
	record->reason = HEED_SITE_R_RESET;
	record->http_status = 0;
	record->failures = 0;
	record->next_attempt_s = 0;
	snprintf(record->detail, sizeof(record->detail),
	         "reset by the operator");
}

heed_status heed_site_new(heed_site **out, const char *host,
                          const struct heed_site_record *record,
                          const struct heed_site_options *opt,
                          const struct heed_logger *logger,
                          const struct heed_allocator *alloc)
{
	heed_site *s;

	*out = NULL;
	alloc = alloc ? alloc : heed_allocator_default();
	s = heed__calloc(alloc, 1, sizeof(*s));
	if (!s)
		return HEED_ENOMEM;
	s->host = heed__strndup(alloc, host, strlen(host));
	if (!s->host) {
		heed__free(alloc, s);
		return HEED_ENOMEM;
	}
	s->alloc = alloc;
	if (logger)
		s->logger = *logger;
	s->opt = *opt;
	s->record = *record;
	s->record.detail[sizeof(s->record.detail) - 1] = '\0';
	s->fresh_s = -1;
	s->state = record->state <= HEED_SITE_DISQUALIFIED_RESET
	                   ? record->state
	                   : HEED_SITE_UNKNOWN;
	*out = s;
	return HEED_OK;
}

void heed_site_free(heed_site *site)
{
	if (!site)
		return;
	heed__free(site->alloc, site->host);
	heed__free(site->alloc, site);
}

heed_site_state heed_site_get_state(const heed_site *site)
{
	return site->state;
}

const struct heed_site_record *heed_site_get_record(const heed_site *site)
{
	return &site->record;
}

unsigned heed_site_redirects(const heed_site *site)
{
	return site->redirects;
}

/* Always use this function to change state: it is where every transition
 * shows up in the log (curl's mstate() habit). */
static void set_state(heed_site *s, heed_site_state to)
{
	if (s->state != to)
		heed_log(&s->logger, HEED_LOG_DEBUG, "sitepolicy",
		         "%s: %s -> %s", s->host,
		         heed_site_state_name(s->state),
		         heed_site_state_name(to));
	s->state = to;
}

static void act(struct heed_site_action *a, heed_site_action_kind kind)
{
	memset(a, 0, sizeof(*a));
	a->kind = kind;
}

static void fetch(heed_site *s, struct heed_site_action *a)
{
	set_state(s, HEED_SITE_FETCHING);
	s->fetched = true;
	act(a, HEED_SITE_DO_FETCH);
	a->address = s->address;
	a->pass = s->pass;
}

static void done(heed_site *s, heed_site_state to, struct heed_site_action *a)
{
	set_state(s, to);
	s->record.state = to;
	act(a, HEED_SITE_DO_DONE);
	a->fetched = s->fetched;
}

/* How long a qualification is used. RFC 9309 2.4: "Crawlers SHOULD NOT use
 * the cached version for more than 24 hours" (recheck_interval_s), and
 * "MAY use standard cache control as defined in RFC 9111": a robots.txt
 * whose 2xx answer says it stays fresh for less is checked again sooner,
 * never later. The lifetime is appended to the detail for the report. */
static int64_t recheck_after(heed_site *s)
{
	size_t used = strlen(s->record.detail);

	if (s->fresh_s < 0 || s->fresh_s >= s->opt.recheck_interval_s)
		return s->opt.recheck_interval_s;
	if (used < sizeof(s->record.detail))
		snprintf(s->record.detail + used,
		         sizeof(s->record.detail) - used,
		         "; fresh for %lld s (Cache-Control/Expires)",
		         (long long)s->fresh_s);
	return s->fresh_s;
}

/* "After the crawler receives an HTTP status code below 500 [...]": the site
 * is qualified. "After a site is qualified for crawling [...], the failure
 * count is set to zero. The crawler uses the results of the download until
 * the interval for checking rules elapses." */
static void qualify(heed_site *s, heed_site_state to, heed_site_reason why,
                    const struct heed_site_clock *now,
                    struct heed_site_action *a)
{
	s->record.reason = why;
	s->record.failures = 0;
	s->record.last_success_s = now->unix_s;
	s->record.next_attempt_s = now->unix_s + recheck_after(s);
	done(s, to, a);
}

/* "If a site is disqualified because the robots.txt information is not
 * available, the persistent robots failure count is incremented. [...] If
 * the number of successive failures reaches the maximum number of failures
 * allowed, the crawler stops trying to retrieve the robots.txt file for the
 * site and disqualifies the site for crawling." */
static void disqualify(heed_site *s, heed_site_reason why,
                       const struct heed_site_clock *now,
                       struct heed_site_action *a)
{
	s->record.reason = why;
	s->record.failures++;
	if (s->record.failures >= s->opt.max_failures) {
		char last[sizeof(s->record.detail)];
		snprintf(last, sizeof(last), "%s", s->record.detail);
		snprintf(s->record.detail, sizeof(s->record.detail),
		         "%u failures in a row (%s); last: %.100s",
		         (unsigned)s->record.failures,
		         heed_site_reason_name(why), last);
		s->record.reason = HEED_SITE_R_MAX_FAILURES;
		s->record.next_attempt_s = 0;
		done(s, HEED_SITE_DISQUALIFIED_RESET, a);
		return;
	}
	s->record.next_attempt_s = now->unix_s + s->opt.retry_interval_s;
	done(s, HEED_SITE_DISQUALIFIED, a);
}

/* "When the crawler attempts to download the robots.txt file for a site, it
 * updates a persistent timestamp for that site called the robots date." A
 * site disqualified until reset, or whose next attempt lies ahead, is not
 * contacted at all. */
static heed_status on_start(heed_site *s, const struct heed_site_clock *now,
                            struct heed_site_action *a)
{
	if (s->state > HEED_SITE_DISQUALIFIED_RESET)
		return HEED_EINVAL;
	s->fetched = false;
	s->redirects = 0;
	if (s->state == HEED_SITE_DISQUALIFIED_RESET ||
	    (s->state != HEED_SITE_UNKNOWN &&
	     now->unix_s < s->record.next_attempt_s)) {
		done(s, s->state, a);
		return HEED_OK;
	}
	s->record.robots_date_s = now->unix_s;
	s->record.http_status = 0;
	s->fresh_s = -1;
	s->last_status = 0;
	s->last_error[0] = '\0';
	set_state(s, HEED_SITE_RESOLVING);
	act(a, HEED_SITE_DO_RESOLVE);
	return HEED_OK;
}

/* "When at least one IP address is available, the crawler tries to download
 * the robots.txt file." */
static void on_resolved(heed_site *s, size_t count,
                        const struct heed_site_clock *now,
                        struct heed_site_action *a)
{
	if (count == 0) {
		snprintf(s->record.detail, sizeof(s->record.detail),
		         "%s has no usable address", s->host);
		disqualify(s, HEED_SITE_R_DNS, now, a);
		return;
	}
	s->address_count =
	        count < SITE_MAX_ADDRESSES ? count : SITE_MAX_ADDRESSES;
	s->address = 0;
	s->pass = 1;
	fetch(s, a);
}

/* "If no connection is made after the crawler tries all addresses, the
 * crawler waits two seconds, then tries all the addresses one more time."
 * A status of 500 or more counts as no connection (5.). */
static void next_address(heed_site *s, const struct heed_site_clock *now,
                         struct heed_site_action *a)
{
	if (++s->address < s->address_count) {
		fetch(s, a);
		return;
	}
	if (s->pass == 1) {
		s->pause_until_ms = now->mono_ms + s->opt.pass_pause_ms;
		set_state(s, HEED_SITE_PAUSED);
		act(a, HEED_SITE_DO_WAIT);
		a->until_ms = s->pause_until_ms;
		return;
	}
	/* "If no HTTP status below 500 was received, the site is disqualified
	 * for the time being." */
	s->record.http_status = s->last_status;
	if (s->last_status)
		snprintf(s->record.detail, sizeof(s->record.detail),
		         "no status below 500 from %zu address(es) in 2 "
		         "passes; last: HTTP %d",
		         s->address_count, s->last_status);
	else
		snprintf(s->record.detail, sizeof(s->record.detail),
		         "no answer from %zu address(es) in 2 passes; last: "
		         "%.80s",
		         s->address_count,
		         s->last_error[0] ? s->last_error : "error");
	disqualify(s, HEED_SITE_R_NO_ANSWER, now, a);
}

/* Step 5: "If the status code is 500 or higher, the crawler interprets this
 * as a bad connection and continues trying other IP addresses. For any other
 * status, the crawler stops trying alternative IP addresses and proceeds
 * according to the status code." */
static void on_status(heed_site *s, const struct heed_site_event *ev,
                      const struct heed_site_clock *now,
                      struct heed_site_action *a)
{
	int st = ev->status;

	if (st >= 500) {
		s->last_status = st;
		next_address(s, now, a);
		return;
	}
	s->record.http_status = st;
	if (st >= 300 && st < 400 && ev->has_location) {
		/* RFC 9309 2.3.1.2: "crawlers SHOULD follow at least five
		 * consecutive redirects"; heed follows exactly that many. */
		if (++s->redirects > s->opt.max_redirects) {
			snprintf(s->record.detail, sizeof(s->record.detail),
			         "more than %u redirects",
			         s->opt.max_redirects);
			disqualify(s, HEED_SITE_R_REDIRECTS, now, a);
			return;
		}
		set_state(s, HEED_SITE_RESOLVING);
		act(a, HEED_SITE_DO_RESOLVE);
		a->follow = true;
		return;
	}
	if (st == 400 || st == 404 || st == 410) {
		snprintf(s->record.detail, sizeof(s->record.detail),
		         "HTTP %d: no robots.txt, no rules", st);
		qualify(s, HEED_SITE_QUALIFIED_NO_RULES, HEED_SITE_R_NO_ROBOTS,
		        now, a);
		return;
	}
	if (st >= 200 && st < 300) {
		s->fresh_s =
		        ev->has_fresh && ev->fresh_s >= 0 ? ev->fresh_s : -1;
		set_state(s, HEED_SITE_READING);
		act(a, HEED_SITE_DO_NOTHING);
		return;
	}
	/* "If any other HTTP status was returned, the site is disqualified for
	 * the time being." */
	snprintf(s->record.detail, sizeof(s->record.detail), "HTTP %d", st);
	disqualify(s, HEED_SITE_R_STATUS, now, a);
}

/* "If the content parsed without errors, the site is qualified for crawling
 * with the rules that were found. If the content parsed with errors, the
 * site is qualified for crawling with no rules." A Crawl-delay above the
 * operator's cap skips the site (without counting a failure: robots.txt was
 * read) until the next re-check. */
static void on_parsed(heed_site *s, const struct heed_site_event *ev,
                      const struct heed_site_clock *now,
                      struct heed_site_action *a)
{
	if (ev->verdict == HEED_SITE_BODY_NOT_ROBOTS) {
		snprintf(s->record.detail, sizeof(s->record.detail),
		         "HTTP %d but the body is not a robots.txt: no rules",
		         s->record.http_status);
		qualify(s, HEED_SITE_QUALIFIED_NO_RULES, HEED_SITE_R_NOT_ROBOTS,
		        now, a);
		return;
	}
	if (ev->crawl_delay_ms > s->opt.crawl_delay_cap_ms) {
		snprintf(s->record.detail, sizeof(s->record.detail),
		         "Crawl-delay %lld ms is above the cap of %lld ms",
		         (long long)ev->crawl_delay_ms,
		         (long long)s->opt.crawl_delay_cap_ms);
		qualify(s, HEED_SITE_DISQUALIFIED, HEED_SITE_R_CRAWL_DELAY, now,
		        a);
		return;
	}
	snprintf(s->record.detail, sizeof(s->record.detail),
	         "HTTP %d: robots.txt rules in force", s->record.http_status);
	qualify(s, HEED_SITE_QUALIFIED_RULES, HEED_SITE_R_PARSED, now, a);
}

static void copy_error(heed_site *s, const char *detail)
{
	snprintf(s->last_error, sizeof(s->last_error), "%s",
	         detail ? detail : "error");
}

/* Which events each state takes; anything else is the shell's bug. */
static bool expects(heed_site_state st, heed_site_event_kind ev)
{
	switch (ev) {
	case HEED_SITE_EV_START:
		return st <= HEED_SITE_DISQUALIFIED_RESET;
	case HEED_SITE_EV_RESOLVED:
	case HEED_SITE_EV_RESOLVE_FAILED:
		return st == HEED_SITE_RESOLVING;
	case HEED_SITE_EV_ATTEMPT_FAILED:
	case HEED_SITE_EV_STATUS:
		return st == HEED_SITE_FETCHING;
	case HEED_SITE_EV_BODY_COMPLETE:
	case HEED_SITE_EV_BODY_TRUNCATED:
		return st == HEED_SITE_READING;
	case HEED_SITE_EV_PARSED:
		return st == HEED_SITE_PARSING;
	case HEED_SITE_EV_TIMER:
		return st == HEED_SITE_PAUSED;
	}
	return false;
}

heed_status heed_site_step(heed_site *s, const struct heed_site_event *ev,
                           const struct heed_site_clock *now,
                           struct heed_site_action *a)
{
	act(a, HEED_SITE_DO_NOTHING);
	if (!expects(s->state, ev->kind)) {
		heed_log(&s->logger, HEED_LOG_ERROR, "sitepolicy",
		         "%s: event %s unexpected in state %s", s->host,
		         heed_site_event_name(ev->kind),
		         heed_site_state_name(s->state));
		return HEED_EINVAL;
	}
	switch (ev->kind) {
	case HEED_SITE_EV_START:
		return on_start(s, now, a);
	case HEED_SITE_EV_RESOLVED:
		on_resolved(s, ev->address_count, now, a);
		break;
	case HEED_SITE_EV_RESOLVE_FAILED:
		/* "If this attempt fails, crawling is not possible." */
		snprintf(s->record.detail, sizeof(s->record.detail),
		         "DNS: %.140s", ev->detail ? ev->detail : "failed");
		disqualify(s, HEED_SITE_R_DNS, now, a);
		break;
	case HEED_SITE_EV_ATTEMPT_FAILED:
		/* "the crawler logs the problem, and repeats the attempt on
		 * every IP address known for the target server." */
		copy_error(s, ev->detail);
		heed_log(&s->logger, HEED_LOG_INFO, "sitepolicy",
		         "%s: address %zu (pass %u): %s", s->host, s->address,
		         s->pass, s->last_error);
		next_address(s, now, a);
		break;
	case HEED_SITE_EV_STATUS:
		on_status(s, ev, now, a);
		break;
	case HEED_SITE_EV_BODY_TRUNCATED:
		/* "If the content was truncated, the site is disqualified for
		 * the time being." */
		snprintf(s->record.detail, sizeof(s->record.detail),
		         "HTTP %d but the body was truncated",
		         s->record.http_status);
		disqualify(s, HEED_SITE_R_TRUNCATED, now, a);
		break;
	case HEED_SITE_EV_BODY_COMPLETE:
		set_state(s, HEED_SITE_PARSING);
		break;
	case HEED_SITE_EV_PARSED:
		on_parsed(s, ev, now, a);
		break;
	case HEED_SITE_EV_TIMER:
		if (now->mono_ms < s->pause_until_ms) {
			act(a, HEED_SITE_DO_WAIT);
			a->until_ms = s->pause_until_ms;
			break;
		}
		s->pass = 2;
		s->address = 0;
		fetch(s, a);
		break;
	}
	return HEED_OK;
}
