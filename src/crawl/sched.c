/*
 * The lanes scheduler (crawl-int.h): one queue window per site, a ready
 * heap ordered by the earliest time each site may be tried, at most one
 * job in flight per site and max_active over all of them.
 *
 * It only orders work. Whether a job really starts is asked of the
 * politeness module at that moment by the controller (ctl.c), which then
 * decides the candidate's fate: start it, defer it to the time politeness
 * named, park it until its address has room, or take it away (refused by
 * the site's rules). So the heap's keys are hints: a lane offered "now"
 * that may not start yet costs one more look at it, never a broken rule.
 *
 * Workload: thousands of lanes, each with a window of at most
 * limits.window jobs; lanes belong to their sites, which live until the
 * controller is freed.
 */
#include <assert.h>
#include <string.h>

#include "crawl/crawl-int.h"

void heed__sched_init(struct heed__sched *s, const struct heed_allocator *a,
                      unsigned max_active, int64_t max_pages)
{
	memset(s, 0, sizeof(*s));
	s->alloc = a;
	s->max_active = max_active;
	s->max_pages = max_pages;
}

void heed__sched_free(struct heed__sched *s)
{
	heed__free(s->alloc, s->heap);
	heed__free(s->alloc, s->refills);
	s->heap = NULL;
	s->refills = NULL;
	s->heap_len = s->heap_cap = 0;
	s->refills_len = s->refills_cap = 0;
}

void heed__lane_init(struct heed__lane *l)
{
	memset(l, 0, sizeof(*l));
	l->heap_index = -1;
}

static void free_jobs(struct heed__sched *s, struct heed__job_node *n)
{
	while (n) {
		struct heed__job_node *next = n->next;
		heed__free(s->alloc, n);
		n = next;
	}
}

void heed__lane_free(struct heed__sched *s, struct heed__lane *l)
{
	free_jobs(s, l->head);
	free_jobs(s, l->current);
	l->head = l->tail = l->current = NULL;
}

static void heap_swap(struct heed__sched *s, size_t a, size_t b)
{
	struct heed__lane *t = s->heap[a];

	s->heap[a] = s->heap[b];
	s->heap[b] = t;
	s->heap[a]->heap_index = (ptrdiff_t)a;
	s->heap[b]->heap_index = (ptrdiff_t)b;
}

/* Earlier first; among lanes due at the same time, first come first
 * served, so a busy millisecond never starves anyone. */
static bool before(const struct heed__lane *a, const struct heed__lane *b)
{
	return a->key_ms < b->key_ms ||
	       (a->key_ms == b->key_ms && a->key_seq < b->key_seq);
}

static void heap_up(struct heed__sched *s, size_t i)
{
	while (i > 0 && before(s->heap[i], s->heap[(i - 1) / 2])) {
		heap_swap(s, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
}

static void heap_down(struct heed__sched *s, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		if (l < s->heap_len && before(s->heap[l], s->heap[m]))
			m = l;
		if (r < s->heap_len && before(s->heap[r], s->heap[m]))
			m = r;
		if (m == i)
			return;
		heap_swap(s, i, m);
		i = m;
	}
}

static void heap_remove(struct heed__sched *s, struct heed__lane *l)
{
	size_t i = (size_t)l->heap_index;

	assert(l->heap_index >= 0);
	heap_swap(s, i, --s->heap_len);
	l->heap_index = -1;
	if (i < s->heap_len) {
		heap_up(s, i);
		heap_down(s, i);
	}
}

bool heed__lane_has_work(const struct heed__lane *l)
{
	return !l->dropped && (l->head || l->more);
}

bool heed__sched_has_work(const struct heed__sched *s)
{
	return s->heap_len > 0;
}

/* May l be in the heap at all? */
static bool schedulable(const struct heed__lane *l)
{
	if (l->current || l->refilling || l->parked || l->candidate ||
	    !heed__lane_has_work(l))
		return false;
	/* A held lane waits for its qualification: only its robots.txt
	 * fetches, pushed to the front, may go; or, once qualified, for ACAP
	 * files asked elsewhere: its ACAP reference jobs may go. */
	return !l->held ||
	       (l->head &&
	        (l->head->job.kind == JOB_ROBOTS ||
	         (l->refs_only && l->head->job.kind == JOB_ACAPREF)));
}

/* Notes that l, in the heap without a window, waits for a refill. */
static heed_status list_refill(struct heed__sched *s, struct heed__lane *l)
{
	if (l->listed || l->head)
		return HEED_OK;
	if (s->refills_len == s->refills_cap) {
		size_t cap = s->refills_cap ? s->refills_cap * 2 : 64;
		struct heed__lane **refills = heed__realloc(
		        s->alloc, s->refills, cap * sizeof(*refills));
		if (!refills)
			return HEED_ENOMEM;
		s->refills = refills;
		s->refills_cap = cap;
	}
	s->refills[s->refills_len++] = l;
	l->listed = true;
	return HEED_OK;
}

/* Puts l in the heap at key_ms, or moves it there if it is in already. */
static heed_status heap_put(struct heed__sched *s, struct heed__lane *l,
                            int64_t key_ms)
{
	if (list_refill(s, l) != HEED_OK)
		return HEED_ENOMEM;
	l->key_seq = s->next_seq++;
	if (l->heap_index >= 0) {
		l->key_ms = key_ms;
		heap_up(s, (size_t)l->heap_index);
		heap_down(s, (size_t)l->heap_index);
		return HEED_OK;
	}
	if (s->heap_len == s->heap_cap) {
		size_t cap = s->heap_cap ? s->heap_cap * 2 : 64;
		struct heed__lane **heap =
		        heed__realloc(s->alloc, s->heap, cap * sizeof(*heap));
		if (!heap)
			return HEED_ENOMEM;
		s->heap = heap;
		s->heap_cap = cap;
	}
	l->key_ms = key_ms;
	l->heap_index = (ptrdiff_t)s->heap_len;
	s->heap[s->heap_len++] = l;
	heap_up(s, s->heap_len - 1);
	return HEED_OK;
}

heed_status heed__sched_offer(struct heed__sched *s, struct heed__lane *l,
                              int64_t now_ms)
{
	if (!schedulable(l)) {
		if (l->heap_index >= 0)
			heap_remove(s, l);
		return HEED_OK;
	}
	/* Already waiting for a later time: an offer never brings a lane
	 * forward past a wait politeness named (it would only be deferred
	 * again), nor back. */
	if (l->heap_index >= 0)
		return HEED_OK;
	return heap_put(s, l, now_ms);
}

heed_status heed__sched_more(struct heed__sched *s, struct heed__lane *l,
                             int64_t pages_done, int64_t now_ms)
{
	l->pages += pages_done;
	l->more = true;
	return heed__sched_offer(s, l, now_ms);
}

/* A node holding a copy of job and its strings; NULL when out of memory. */
static struct heed__job_node *new_node(struct heed__sched *s,
                                       const struct heed__job *job)
{
	size_t len = strlen(job->url);
	size_t from_len = job->from ? strlen(job->from) + 1 : 0;
	struct heed__job_node *n =
	        heed__malloc(s->alloc, sizeof(*n) + len + 1 + from_len);

	if (!n)
		return NULL;
	n->next = NULL;
	n->job = *job;
	n->job.visit = NULL; /* a request's, which a queued job outlives */
	memcpy(n->url, job->url, len + 1);
	n->job.url = n->url;
	if (job->from) {
		memcpy(n->url + len + 1, job->from, from_len);
		n->job.from = n->url + len + 1;
	}
	return n;
}

heed_status heed__sched_push(struct heed__sched *s, struct heed__lane *l,
                             const struct heed__job *job, bool front,
                             int64_t now_ms)
{
	struct heed__job_node *n = new_node(s, job);

	if (!n)
		return HEED_ENOMEM;
	if (front) {
		n->next = l->head;
		l->head = n;
		if (!l->tail)
			l->tail = n;
	} else {
		if (l->tail)
			l->tail->next = n;
		else
			l->head = n;
		l->tail = n;
	}
	l->window_len++;
	s->window_jobs++;
	return heed__sched_offer(s, l, now_ms);
}

heed_status heed__sched_push_after(struct heed__sched *s, struct heed__lane *l,
                                   const struct heed__job *job,
                                   enum heed__job_kind kind, int64_t now_ms)
{
	struct heed__job_node *at = l->head, *n;

	if (!at || at->job.kind != kind)
		return heed__sched_push(s, l, job, true, now_ms);
	while (at->next && at->next->job.kind == kind)
		at = at->next;
	n = new_node(s, job);
	if (!n)
		return HEED_ENOMEM;
	n->next = at->next;
	at->next = n;
	if (l->tail == at)
		l->tail = n;
	l->window_len++;
	s->window_jobs++;
	return heed__sched_offer(s, l, now_ms);
}

static void drop_window(struct heed__sched *s, struct heed__lane *l)
{
	s->window_jobs -= l->window_len;
	free_jobs(s, l->head);
	l->head = l->tail = NULL;
	l->window_len = 0;
	l->more = false;
	l->dropped = true;
}

heed_status heed__sched_hold(struct heed__sched *s, struct heed__lane *l,
                             bool held, int64_t now_ms)
{
	l->held = held;
	if (!held)
		l->refs_only = false;
	return heed__sched_offer(s, l, now_ms);
}

void heed__sched_drop(struct heed__sched *s, struct heed__lane *l)
{
	if (l->heap_index >= 0)
		heap_remove(s, l);
	l->candidate = false;
	drop_window(s, l);
}

void heed__sched_reset(struct heed__sched *s, struct heed__lane *l)
{
	int64_t pages = l->pages;
	bool listed = l->listed;

	assert(!l->current && !l->parked && !l->refilling);
	heed__sched_drop(s, l);
	heed__lane_init(l);
	l->pages = pages;
	l->listed = listed; /* its place in the list of refills stays */
	l->held = true;
}

heed_status heed__sched_rewind(struct heed__sched *s, struct heed__lane *l,
                               int64_t now_ms)
{
	struct heed__job_node **at = &l->head;

	/* A held lane's candidate or parked job is its robots.txt or an ACAP
	 * reference: a job of no row, which stays at the head. */
	assert(!l->refilling);
	assert(!(l->parked || l->candidate) || !l->head || !l->head->job.id);
	l->tail = NULL;
	while (*at) {
		struct heed__job_node *n = *at;
		if (!n->job.id) {
			l->tail = n;
			at = &n->next;
			continue;
		}
		*at = n->next;
		heed__free(s->alloc, n);
		l->window_len--;
		s->window_jobs--;
	}
	l->more = true;
	return heed__sched_offer(s, l, now_ms);
}

heed_status heed__sched_refilled(struct heed__sched *s, struct heed__lane *l,
                                 bool more, int64_t now_ms)
{
	l->refilling = false;
	l->more = more;
	return heed__sched_offer(s, l, l->key_ms > now_ms ? l->key_ms : now_ms);
}

size_t heed__sched_take_refills(struct heed__sched *s,
                                struct heed__lane **lanes, size_t max)
{
	size_t n = 0;

	while (n < max && s->refills_len) {
		struct heed__lane *l = s->refills[--s->refills_len];
		l->listed = false;
		/* Still in the heap without a window: what next() would
		 * answer SCHED_REFILL for once it is due. */
		if (l->heap_index < 0 || l->head)
			continue;
		heap_remove(s, l);
		l->refilling = true;
		lanes[n++] = l;
	}
	return n;
}

/* The run's page limit, or the site's own when it is lower (an owner's
 * arrangement: heed sites --max-pages). 0: none. */
static int64_t page_limit(const struct heed__sched *s,
                          const struct heed__lane *l)
{
	if (l->max_pages > 0 &&
	    (s->max_pages <= 0 || l->max_pages < s->max_pages))
		return l->max_pages;
	return s->max_pages;
}

enum heed__sched_verdict heed__sched_next(struct heed__sched *s, int64_t now_ms,
                                          struct heed__lane **lane,
                                          int64_t *wait_ms)
{
	struct heed__lane *l;

	*lane = NULL;
	*wait_ms = 0;
	if (!s->heap_len)
		return SCHED_IDLE;
	if (s->in_flight >= s->max_active)
		return SCHED_BUSY;
	l = s->heap[0];
	if (l->key_ms > now_ms) {
		*wait_ms = l->key_ms - now_ms;
		return SCHED_WAIT;
	}
	heap_remove(s, l);
	*lane = l;
	if (!l->head) {
		/* In the heap without a window: the store holds more. */
		l->refilling = true;
		return SCHED_REFILL;
	}
	if (l->head->job.kind == JOB_PAGE && page_limit(s, l) > 0 &&
	    l->pages >= page_limit(s, l)) {
		drop_window(s, l);
		return SCHED_DROP;
	}
	l->candidate = true;
	return SCHED_CANDIDATE;
}

/* Takes l's first job out of its window. */
static struct heed__job_node *pop_head(struct heed__sched *s,
                                       struct heed__lane *l)
{
	struct heed__job_node *n = l->head;

	l->candidate = false;
	if (!n)
		return NULL;
	l->head = n->next;
	if (!l->head)
		l->tail = NULL;
	n->next = NULL;
	l->window_len--;
	s->window_jobs--;
	return n;
}

void heed__sched_start(struct heed__sched *s, struct heed__lane *l)
{
	struct heed__job_node *n;

	assert(l->candidate && l->head && !l->current);
	n = pop_head(s, l);
	l->current = n;
	s->in_flight++;
	s->requests++;
	if (n->job.kind == JOB_PAGE) {
		l->pages++;
		s->pages_started++;
	}
}

heed_status heed__sched_unstart(struct heed__sched *s, struct heed__lane *l,
                                int64_t now_ms)
{
	struct heed__job_node *n = l->current;

	assert(n);
	l->current = NULL;
	s->in_flight--;
	s->requests--;
	if (n->job.kind == JOB_PAGE) {
		l->pages--;
		s->pages_started--;
	}
	n->next = l->head;
	l->head = n;
	if (!l->tail)
		l->tail = n;
	l->window_len++;
	s->window_jobs++;
	return heed__sched_offer(s, l, now_ms);
}

heed_status heed__sched_defer(struct heed__sched *s, struct heed__lane *l,
                              int64_t until_ms)
{
	l->candidate = false;
	if (!schedulable(l))
		return HEED_OK;
	return heap_put(s, l, until_ms);
}

void heed__sched_park(struct heed__sched *s, struct heed__lane *l)
{
	(void)s;
	l->candidate = false;
	l->parked = true;
}

heed_status heed__sched_unpark(struct heed__sched *s, struct heed__lane *l,
                               int64_t now_ms)
{
	l->parked = false;
	return heed__sched_offer(s, l, now_ms);
}

struct heed__job_node *heed__sched_take(struct heed__sched *s,
                                        struct heed__lane *l, int64_t now_ms)
{
	struct heed__job_node *n = pop_head(s, l);

	if (!n)
		return NULL;
	/* The candidate left the heap in next(): its slot is free, so the
	 * heap need not grow and this cannot fail. */
	(void)heed__sched_offer(s, l, now_ms);
	return n;
}

heed_status heed__sched_done(struct heed__sched *s, struct heed__lane *l,
                             int64_t now_ms)
{
	assert(l->current);
	free_jobs(s, l->current);
	l->current = NULL;
	s->in_flight--;
	return heed__sched_offer(s, l, now_ms);
}
