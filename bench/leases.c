/*
 * bench_leases: what workers' lease upkeep costs on PostgreSQL as the
 * sites grow, through heed's own lease functions (src/store/leases.c).
 *
 *   tests/pgcluster.py run -- sh -c \
 *     'build/bench/bench_leases "$HEED_TEST_PG" 10000 100000 1000000'
 *
 * For each N: a fresh database with heed's tables, N sites (half with
 * work, half idle) written by one INSERT (the triggers counting them),
 * and 4 workers, each with a connection of its own, claiming 4,096 sites
 * (N/16 below 65,536 sites) with heed_store_lease_claim; VACUUM ANALYZE.
 * Then, printed:
 *  - beat: heed_store_lease_worker_beat (heartbeat, live workers and the
 *    kept count of sites with work), 200 times: median and 99th
 *    percentile, ms;
 *  - old count: the count over every site that each beat ran before
 *    (its text below), 5 times, ms;
 *  - claim: heed_store_lease_claim of 256 by a fifth worker, 5 times:
 *    median and slowest, ms;
 *  - renewal rows: rows PostgreSQL wrote (pg_stat_user_tables) for one
 *    renewal of the 4 workers, today (a beat each) and with the
 *    statement that renewed before (every held lease row rewritten,
 *    rolled back), and what that makes per second at a renewal every
 *    third of a 30 s lease;
 *  - live workers: the beat again with 100 and 1,000 heartbeat rows in
 *    lease_workers (live ones added beside the 4), 200 times each, and
 *    the count of live workers it runs, alone (its text below, 200
 *    times): median and 99th percentile, ms.
 */
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "heed/store_leases.h"

#define WORKERS   4
#define HELD      4096
#define CLAIM_MAX 256
#define LEASE_MS  30000
#define BEATS     200
#define NOW_MS    INT64_C(2000000000000)

/* The fair-share count every beat ran before the count was kept. */
#define OLD_COUNT                                                    \
	"SELECT count(*), count(*) FILTER (WHERE lease_until > "     \
	"2000000000000), count(*) FILTER (WHERE next_allowed_at <= " \
	"2000000000000 AND lease_until <= 2000000000000), count(*) " \
	"FILTER (WHERE next_allowed_at = 9223372036854775807) FROM " \
	"site_leases"
/* The renewal before: each of a worker's lease rows rewritten. */
#define OLD_RENEW                                                      \
	"UPDATE site_leases SET lease_until = 2000000010000 + 30000, " \
	"next_allowed_at = GREATEST(next_allowed_at, 2000000010000 + " \
	"30000) WHERE holder = $1 AND lease_until > 0"

/* The live workers' count each beat runs (src/store/leases.c). */
#define LIVE_COUNT \
	"SELECT count(*) FROM lease_workers WHERE alive_until > 2000000000000"
/* Heartbeat rows the live-worker figures are taken at. */
static const long worker_rows[] = {100, 1000};

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int by_value(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

/* Runs sql on c (one text parameter, may be NULL); exits on failure.
 * Returns the rows it changed. */
static long run(PGconn *c, const char *sql, const char *param)
{
	PGresult *r = PQexecParams(c, sql, param ? 1 : 0, NULL, &param, NULL,
	                           NULL, 0);
	long n;

	if (PQresultStatus(r) != PGRES_COMMAND_OK &&
	    PQresultStatus(r) != PGRES_TUPLES_OK) {
		fprintf(stderr, "bench_leases: %s: %s", sql, PQerrorMessage(c));
		exit(1);
	}
	n = atol(PQcmdTuples(r));
	PQclear(r);
	return n;
}

static long value(PGconn *c, const char *sql)
{
	PGresult *r = PQexec(c, sql);
	long n = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) > 0
	                 ? atol(PQgetvalue(r, 0, 0))
	                 : -1;

	PQclear(r);
	return n;
}

static heed_store *open_store(const char *url)
{
	heed_store *s = NULL;

	if (heed_store_open(&s, url, NULL, NULL) != HEED_OK) {
		fprintf(stderr, "bench_leases: cannot open %s\n", url);
		exit(1);
	}
	return s;
}

static int count_grant(void *ud, const struct heed_site_lease *l)
{
	(void)l;
	(*(int *)ud)++;
	return 0;
}

/* Rows written to every table so far, as the statistics say once the
 * writers' sessions ended. */
static long rows_written(PGconn *c)
{
	usleep(500000);
	run(c, "SELECT pg_stat_clear_snapshot()", NULL);
	return value(c, "SELECT sum(n_tup_ins + n_tup_upd + n_tup_del) FROM "
	                "pg_stat_user_tables");
}

/* Each worker claims held sites, CLAIM_MAX at a time. */
static void claim_held(const char *url, heed_store *w[WORKERS], int held)
{
	char holder[16];

	for (int i = 0; i < WORKERS; i++) {
		int got = 0;
		snprintf(holder, sizeof(holder), "w%d", i + 1);
		w[i] = open_store(url);
		while (got < held)
			if (heed_store_lease_claim(
			            w[i], holder, NOW_MS, LEASE_MS,
			            held - got < CLAIM_MAX ? held - got
			                                   : CLAIM_MAX,
			            count_grant, &got) != HEED_OK)
				exit(1);
		if (got != held) {
			fprintf(stderr, "bench_leases: %s got %d sites\n",
			        holder, got);
			exit(1);
		}
	}
}

/* The median and 99th percentile of BEATS timings, sorted in place. */
static void percentiles(double *t, double *median, double *p99)
{
	qsort(t, BEATS, sizeof(t[0]), by_value);
	*median = t[BEATS / 2];
	*p99 = t[BEATS * 99 / 100];
}

/* The beat and the live workers' count with `rows` heartbeat rows, all
 * live: rows beyond the workers already there are added. */
static void live_workers(const char *url, PGconn *c, long rows)
{
	static double t[BEATS];
	char sql[256];
	heed_store *w = open_store(url);
	struct heed_lease_beat b;
	double beat50, beat99, count50, count99;
	long have;

	snprintf(sql, sizeof(sql),
	         "SELECT count(*) FROM lease_workers WHERE alive_until > %lld",
	         (long long)(NOW_MS + 20000 + BEATS));
	have = value(c, sql);
	snprintf(sql, sizeof(sql),
	         "INSERT INTO lease_workers(holder, alive_until) SELECT 'x' || "
	         "g, %lld FROM generate_series(%ld, %ld) g",
	         (long long)(NOW_MS + 3600000), have + 1, rows);
	run(c, sql, NULL);
	run(c, "VACUUM ANALYZE lease_workers", NULL);
	for (int i = 0; i < BEATS; i++) {
		double t0 = now_ms();
		if (heed_store_lease_worker_beat(w, "w1", NOW_MS + 20000 + i,
		                                 LEASE_MS, &b) != HEED_OK)
			exit(1);
		t[i] = now_ms() - t0;
	}
	heed_store_close(w);
	if (b.live != rows) {
		fprintf(stderr, "bench_leases: the beat counted %lld workers\n",
		        (long long)b.live);
		exit(1);
	}
	percentiles(t, &beat50, &beat99);
	for (int i = 0; i < BEATS; i++) {
		double t0 = now_ms();
		run(c, LIVE_COUNT, NULL);
		t[i] = now_ms() - t0;
	}
	percentiles(t, &count50, &count99);
	printf("  %ld live workers: beat %.2f ms (p99 %.2f); the count of live "
	       "workers alone %.3f ms (p99 %.3f)\n",
	       rows, beat50, beat99, count50, count99);
	fflush(stdout);
}

static void one(const char *base, long n, int nth)
{
	static double t[BEATS];
	char url[512], sql[512];
	const char *slash = strrchr(base, '/');
	PGconn *admin = PQconnectdb(base), *c;
	heed_store *w[WORKERS], *s;
	struct heed_lease_beat b;
	double old[5], claims[5], beat50, beat99;
	long before, beat_rows, old_rows = 0;
	int held = n / 16 < HELD ? (int)(n / 16) : HELD;

	snprintf(sql, sizeof(sql), "CREATE DATABASE bench_leases_%d", nth);
	run(admin, sql, NULL);
	PQfinish(admin);
	snprintf(url, sizeof(url), "%.*s/bench_leases_%d", (int)(slash - base),
	         base, nth);
	heed_store_close(open_store(url)); /* its tables */
	c = PQconnectdb(url);
	snprintf(sql, sizeof(sql),
	         "INSERT INTO site_leases(site, delay_ms, next_allowed_at) "
	         "SELECT 's' || g || '.example', 1000, CASE WHEN g %% 2 = 0 "
	         "THEN %lld ELSE 9223372036854775807 END FROM "
	         "generate_series(1, %ld) g",
	         (long long)(NOW_MS - 1000), n);
	run(c, sql, NULL);
	claim_held(url, w, held);
	/* The first beat folds the insert's counts in. */
	if (heed_store_lease_worker_beat(w[0], "w1", NOW_MS, LEASE_MS, &b) !=
	    HEED_OK)
		exit(1);
	run(c, "VACUUM ANALYZE", NULL);
	for (int i = 0; i < BEATS; i++) {
		double t0 = now_ms();
		if (heed_store_lease_worker_beat(w[0], "w1", NOW_MS + i,
		                                 LEASE_MS, &b) != HEED_OK)
			exit(1);
		t[i] = now_ms() - t0;
	}
	percentiles(t, &beat50, &beat99);
	if (b.active != n / 2 || b.live != WORKERS) {
		fprintf(stderr,
		        "bench_leases: the beat counted %lld sites, "
		        "%lld workers\n",
		        (long long)b.active, (long long)b.live);
		exit(1);
	}
	for (int i = 0; i < 5; i++) {
		double t0 = now_ms();
		run(c, OLD_COUNT, NULL);
		old[i] = now_ms() - t0;
	}
	s = open_store(url);
	for (int i = 0; i < 5; i++) {
		int got = 0;
		double t0 = now_ms();
		if (heed_store_lease_claim(s, "w5", NOW_MS, LEASE_MS, CLAIM_MAX,
		                           count_grant, &got) != HEED_OK)
			exit(1);
		claims[i] = now_ms() - t0;
	}
	heed_store_close(s);
	qsort(claims, 5, sizeof(claims[0]), by_value);
	/* One renewal of every worker, today: a beat each, on connections
	 * that wrote nothing before (statistics are counted per session,
	 * and reported when it ends). */
	for (int i = 0; i < WORKERS; i++) {
		heed_store_close(w[i]);
		w[i] = open_store(url);
	}
	before = rows_written(c);
	for (int i = 0; i < WORKERS; i++) {
		char holder[16];
		snprintf(holder, sizeof(holder), "w%d", i + 1);
		if (heed_store_lease_worker_beat(w[i], holder, NOW_MS + 10000,
		                                 LEASE_MS, &b) != HEED_OK)
			exit(1);
		heed_store_close(w[i]);
	}
	beat_rows = rows_written(c) - before;
	/* And as before: each worker's lease rows rewritten. */
	run(c, "BEGIN", NULL);
	for (int i = 0; i < WORKERS; i++) {
		char holder[16];
		snprintf(holder, sizeof(holder), "w%d", i + 1);
		old_rows += run(c, OLD_RENEW, holder);
	}
	run(c, "ROLLBACK", NULL);
	printf("%ld sites: beat %.2f ms (p99 %.2f), old count %.1f %.1f %.1f "
	       "%.1f %.1f ms; claim of %d %.2f ms (slowest %.2f); one "
	       "renewal of %d workers x %d sites: %ld rows written today, "
	       "%ld before; per second at a renewal every %d s: %.1f "
	       "today, %.0f before\n",
	       n, beat50, beat99, old[0], old[1], old[2], old[3], old[4],
	       CLAIM_MAX, claims[2], claims[4], WORKERS, held, beat_rows,
	       old_rows, LEASE_MS / 3000, beat_rows / (LEASE_MS / 3000.0),
	       old_rows / (LEASE_MS / 3000.0));
	fflush(stdout);
	for (size_t i = 0; i < HEED_ARRAY_SIZE(worker_rows); i++)
		live_workers(url, c, worker_rows[i]);
	PQfinish(c);
}

int main(int argc, char **argv)
{
	if (argc < 2 || !strrchr(argv[1], '/')) {
		fprintf(stderr,
		        "usage: bench_leases POSTGRESQL-URL [SITES...]\n");
		return 2;
	}
	if (argc == 2) {
		one(argv[1], 10000, 1);
		one(argv[1], 100000, 2);
		one(argv[1], 1000000, 3);
	}
	for (int i = 2; i < argc; i++) {
		long n = atol(argv[i]);
		if (n < 10000) {
			fprintf(stderr, "bench_leases: at least 10000 sites\n");
			return 2;
		}
		one(argv[1], n, i - 1);
	}
	return 0;
}
