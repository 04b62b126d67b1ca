/*
 * The crawl scheduler (issue 8, "Scheduling across many sites"): one queue
 * window per host, a ready heap ordered by the time each host may next be
 * contacted, one request in flight per host, max_active in flight overall.
 *
 * Invariants: a host is in the heap exactly when it has work (jobs in its
 * window, or more in the store), no fetch in flight, no refill pending and
 * no limit reached. Its key is the politeness answer computed when it
 * entered the heap, so a host never starts sooner than the politeness
 * function allows. Workload: thousands of hosts, each with a window of
 * at most limits.window jobs; hosts live until the scheduler is freed.
 */
#include <assert.h>
#include <string.h>

#include "crawl/crawl-int.h"

struct job_node {
	struct job_node *next;
	struct heed_sched_job job;
	char url[]; /* job.url points here */
};

struct sched_host {
	char *name;
	struct job_node *head, *tail; /* the in-memory window */
	size_t window_len;
	struct job_node *current; /* the fetch in flight, or NULL */
	int64_t last_start_ms;    /* INT64_MIN before the first request */
	int64_t ready_ms;         /* heap key */
	int64_t pages;            /* pages fetched or started in this run */
	ptrdiff_t heap_index;     /* -1 when not in the heap */
	bool more;                /* the store holds queued jobs beyond the
	                             window */
	bool refilling;           /* REFILL handed out, refilled() pending */
	bool dropped;             /* page limit reached */
	bool held;                /* only a robots.txt job may start */
};

struct heed_sched {
	const struct heed_allocator *alloc;
	struct heed_crawl_limits limits;
	struct heed_crawl_politeness polite;
	int64_t start_ms;
	int64_t clock_ms; /* the latest now_ms seen: pushes take no clock */
	bool stopped;
	struct sched_host **table; /* open addressing by name */
	size_t table_size, host_count;
	struct sched_host **heap;
	size_t heap_len, heap_cap;
	size_t in_flight, window_jobs;
	int64_t pages_started, requests;
};

static struct sched_host **table_slot(struct sched_host **table, size_t size,
                                      const char *name)
{
	size_t i = (size_t)heed__hash_str(name) & (size - 1);

	while (table[i] && strcmp(table[i]->name, name) != 0)
		i = (i + 1) & (size - 1);
	return &table[i];
}

static heed_status table_grow(heed_sched *s)
{
	size_t size = s->table_size ? s->table_size * 2 : 64;
	struct sched_host **t = heed__calloc(s->alloc, size, sizeof(*t));

	if (!t)
		return HEED_ENOMEM;
	for (size_t i = 0; i < s->table_size; i++)
		if (s->table[i])
			*table_slot(t, size, s->table[i]->name) = s->table[i];
	heed__free(s->alloc, s->table);
	s->table = t;
	s->table_size = size;
	return HEED_OK;
}

static struct sched_host *host_find(const heed_sched *s, const char *name)
{
	if (!s->table_size)
		return NULL;
	return *table_slot(s->table, s->table_size, name);
}

/* The host called name, created when new; NULL on allocation failure. */
static struct sched_host *host_get(heed_sched *s, const char *name)
{
	struct sched_host *h = host_find(s, name);

	if (h)
		return h;
	/* Keep the table at most 3/4 full so probes stay short. */
	if ((s->host_count + 1) * 4 > s->table_size * 3 &&
	    table_grow(s) != HEED_OK)
		return NULL;
	h = heed__calloc(s->alloc, 1, sizeof(*h));
	if (!h)
		return NULL;
	h->name = heed__strndup(s->alloc, name, strlen(name));
	if (!h->name) {
		heed__free(s->alloc, h);
		return NULL;
	}
	h->last_start_ms = INT64_MIN;
	h->heap_index = -1;
	*table_slot(s->table, s->table_size, name) = h;
	s->host_count++;
	return h;
}

static void heap_swap(heed_sched *s, size_t a, size_t b)
{
	struct sched_host *t = s->heap[a];

	s->heap[a] = s->heap[b];
	s->heap[b] = t;
	s->heap[a]->heap_index = (ptrdiff_t)a;
	s->heap[b]->heap_index = (ptrdiff_t)b;
}

static void heap_up(heed_sched *s, size_t i)
{
	while (i > 0 && s->heap[(i - 1) / 2]->ready_ms > s->heap[i]->ready_ms) {
		heap_swap(s, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
}

static void heap_down(heed_sched *s, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		if (l < s->heap_len &&
		    s->heap[l]->ready_ms < s->heap[m]->ready_ms)
			m = l;
		if (r < s->heap_len &&
		    s->heap[r]->ready_ms < s->heap[m]->ready_ms)
			m = r;
		if (m == i)
			return;
		heap_swap(s, i, m);
		i = m;
	}
}

static void heap_remove(heed_sched *s, struct sched_host *h)
{
	size_t i = (size_t)h->heap_index;

	assert(h->heap_index >= 0);
	heap_swap(s, i, --s->heap_len);
	h->heap_index = -1;
	if (i < s->heap_len) {
		heap_up(s, i);
		heap_down(s, i);
	}
}

static bool has_work(const struct sched_host *h)
{
	return !h->dropped && (h->head || h->more);
}

/* Puts h in the heap if it has work and may be scheduled, keyed by the
 * politeness answer at now. */
static heed_status heap_offer(heed_sched *s, struct sched_host *h,
                              int64_t now_ms)
{
	if (h->heap_index >= 0 || h->current || h->refilling || !has_work(h))
		return HEED_OK;
	/* A held host waits for its qualification: only its robots.txt
	 * fetches, which are pushed to the front, may go. */
	if (h->held && !(h->head && h->head->job.kind == HEED_JOB_ROBOTS))
		return HEED_OK;
	if (s->heap_len == s->heap_cap) {
		size_t cap = s->heap_cap ? s->heap_cap * 2 : 64;
		struct sched_host **heap =
		        heed__realloc(s->alloc, s->heap, cap * sizeof(*heap));
		if (!heap)
			return HEED_ENOMEM;
		s->heap = heap;
		s->heap_cap = cap;
	}
	h->ready_ms = now_ms;
	if (s->polite.next_ms)
		h->ready_ms = s->polite.next_ms(s->polite.ud, h->name,
		                                h->last_start_ms, now_ms);
	h->heap_index = (ptrdiff_t)s->heap_len;
	s->heap[s->heap_len++] = h;
	heap_up(s, s->heap_len - 1);
	return HEED_OK;
}

heed_status heed_sched_new(heed_sched **out,
                           const struct heed_crawl_limits *limits,
                           const struct heed_crawl_politeness *polite,
                           int64_t now_ms, const struct heed_allocator *alloc)
{
	heed_sched *s;

	*out = NULL;
	if (!limits->max_active || !limits->window)
		return HEED_EINVAL;
	alloc = alloc ? alloc : heed_allocator_default();
	s = heed__calloc(alloc, 1, sizeof(*s));
	if (!s)
		return HEED_ENOMEM;
	s->alloc = alloc;
	s->limits = *limits;
	if (polite)
		s->polite = *polite;
	s->start_ms = s->clock_ms = now_ms;
	*out = s;
	return HEED_OK;
}

static void free_jobs(heed_sched *s, struct job_node *n)
{
	while (n) {
		struct job_node *next = n->next;
		heed__free(s->alloc, n);
		n = next;
	}
}

void heed_sched_free(heed_sched *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->table_size; i++) {
		struct sched_host *h = s->table[i];
		if (!h)
			continue;
		free_jobs(s, h->head);
		free_jobs(s, h->current);
		heed__free(s->alloc, h->name);
		heed__free(s->alloc, h);
	}
	heed__free(s->alloc, s->table);
	heed__free(s->alloc, s->heap);
	heed__free(s->alloc, s);
}

heed_status heed_sched_host_more(heed_sched *s, const char *host,
                                 int64_t pages_done)
{
	struct sched_host *h = host_get(s, host);

	if (!h)
		return HEED_ENOMEM;
	h->pages += pages_done;
	h->more = true;
	return heap_offer(s, h, s->clock_ms);
}

static struct job_node *job_copy(heed_sched *s, const struct heed_sched_job *j,
                                 const char *host_name)
{
	size_t len = strlen(j->url);
	struct job_node *n = heed__malloc(s->alloc, sizeof(*n) + len + 1);

	if (!n)
		return NULL;
	n->next = NULL;
	n->job = *j;
	memcpy(n->url, j->url, len + 1);
	n->job.url = n->url;
	n->job.host = host_name;
	return n;
}

heed_status heed_sched_push(heed_sched *s, const struct heed_sched_job *job,
                            bool front)
{
	struct sched_host *h = host_get(s, job->host);
	struct job_node *n;

	if (!h)
		return HEED_ENOMEM;
	n = job_copy(s, job, h->name);
	if (!n)
		return HEED_ENOMEM;
	if (front) {
		n->next = h->head;
		h->head = n;
		if (!h->tail)
			h->tail = n;
	} else {
		if (h->tail)
			h->tail->next = n;
		else
			h->head = n;
		h->tail = n;
	}
	h->window_len++;
	s->window_jobs++;
	return heap_offer(s, h, s->clock_ms);
}

static void drop_window(heed_sched *s, struct sched_host *h)
{
	s->window_jobs -= h->window_len;
	free_jobs(s, h->head);
	h->head = h->tail = NULL;
	h->window_len = 0;
	h->more = false;
	h->dropped = true;
}

heed_status heed_sched_hold(heed_sched *s, const char *host, bool held)
{
	struct sched_host *h = host_get(s, host);

	if (!h)
		return HEED_ENOMEM;
	h->held = held;
	if (held) {
		if (h->heap_index >= 0 &&
		    !(h->head && h->head->job.kind == HEED_JOB_ROBOTS))
			heap_remove(s, h);
		return HEED_OK;
	}
	return heap_offer(s, h, s->clock_ms);
}

heed_status heed_sched_drop(heed_sched *s, const char *host)
{
	struct sched_host *h = host_get(s, host);

	if (!h)
		return HEED_ENOMEM;
	if (h->heap_index >= 0)
		heap_remove(s, h);
	drop_window(s, h);
	return HEED_OK;
}

heed_status heed_sched_refilled(heed_sched *s, const char *host, bool more)
{
	struct sched_host *h = host_find(s, host);

	if (!h)
		return HEED_ENOTFOUND;
	h->refilling = false;
	h->more = more;
	return heap_offer(s, h, s->clock_ms);
}

static bool run_over(const heed_sched *s, int64_t now_ms)
{
	return s->stopped || (s->limits.max_run_ms > 0 &&
	                      now_ms - s->start_ms >= s->limits.max_run_ms);
}

/* Hands out the first job of h, the top of the heap. */
static void start_job(heed_sched *s, struct sched_host *h, int64_t now_ms,
                      struct heed_sched_job *job)
{
	struct job_node *n = h->head;

	h->head = n->next;
	if (!h->head)
		h->tail = NULL;
	n->next = NULL;
	h->window_len--;
	s->window_jobs--;
	h->current = n;
	heap_remove(s, h);
	h->last_start_ms = now_ms;
	s->in_flight++;
	s->requests++;
	if (n->job.kind == HEED_JOB_PAGE) {
		h->pages++;
		s->pages_started++;
	}
	if (s->polite.started)
		s->polite.started(s->polite.ud, h->name, now_ms);
	*job = n->job;
}

heed_sched_verdict heed_sched_next(heed_sched *s, int64_t now_ms,
                                   struct heed_sched_job *job,
                                   const char **host, int64_t *wait_ms)
{
	struct sched_host *h;

	*host = NULL;
	*wait_ms = 0;
	if (now_ms > s->clock_ms)
		s->clock_ms = now_ms;
	if (run_over(s, now_ms))
		return HEED_SCHED_DONE;
	if (!s->heap_len)
		return s->in_flight ? HEED_SCHED_IDLE : HEED_SCHED_DONE;
	if (s->in_flight >= s->limits.max_active)
		return HEED_SCHED_BUSY;
	h = s->heap[0];
	if (h->ready_ms > now_ms) {
		*wait_ms = h->ready_ms - now_ms;
		return HEED_SCHED_WAIT;
	}
	*host = h->name;
	if (!h->head) {
		/* In the heap without a window: the store holds more. */
		heap_remove(s, h);
		h->refilling = true;
		return HEED_SCHED_REFILL;
	}
	if (h->head->job.kind == HEED_JOB_PAGE && s->limits.max_pages > 0 &&
	    h->pages >= s->limits.max_pages) {
		heap_remove(s, h);
		drop_window(s, h);
		return HEED_SCHED_DROP_HOST;
	}
	start_job(s, h, now_ms, job);
	return HEED_SCHED_FETCH;
}

heed_status heed_sched_done(heed_sched *s, const char *host, int64_t now_ms,
                            int status)
{
	struct sched_host *h = host_find(s, host);

	if (!h || !h->current)
		return HEED_ENOTFOUND;
	if (now_ms > s->clock_ms)
		s->clock_ms = now_ms;
	free_jobs(s, h->current);
	h->current = NULL;
	s->in_flight--;
	if (s->polite.finished)
		s->polite.finished(s->polite.ud, h->name, now_ms, status);
	return heap_offer(s, h, now_ms);
}

void heed_sched_stop(heed_sched *s)
{
	s->stopped = true;
}

void heed_sched_stats_get(const heed_sched *s, struct heed_sched_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->hosts = s->host_count;
	st->in_flight = s->in_flight;
	st->window_jobs = s->window_jobs;
	st->pages_started = s->pages_started;
	st->requests = s->requests;
	for (size_t i = 0; i < s->table_size; i++) {
		const struct sched_host *h = s->table[i];
		if (!h)
			continue;
		if (h->current)
			st->hosts_active++;
		else if (has_work(h))
			st->hosts_waiting++;
		else
			st->hosts_done++;
	}
}

const char *heed_sched_verdict_name(heed_sched_verdict v)
{
	static const char *const names[] = {
	        "fetch", "refill", "drop-host", "wait", "busy", "idle", "done"};

	if ((unsigned)v >= HEED_ARRAY_SIZE(names))
		return "unknown";
	return names[v];
}
