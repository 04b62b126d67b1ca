/*
 * Helpers for unit tests that run against the throwaway PostgreSQL cluster
 * tests/pgcluster.py starts (meson runs such a test program under
 * `tests/pgcluster.py run --`, which sets HEED_TEST_PG to the cluster's
 * URL). Each test gets a database of its own, so tests never see each
 * other's rows.
 */
#ifndef HEED_PG_TEST_H
#define HEED_PG_TEST_H

#include <libpq-fe.h>
#include <sqlite3.h>
#include <unistd.h>

#include "heed_test.h"

/* The cluster's URL, or NULL when the program runs without one. */
static inline const char *heed_test_pg(void)
{
	const char *url = getenv("HEED_TEST_PG");

	return url && *url ? url : NULL;
}

/* The cluster's server: "restart" (pg_ctl -m fast, as an operator does),
 * "stop", "start" (tests/pgcluster.py ctl), keeping its folder and port. */
static inline void heed_test_pg_server(const char *action)
{
	const char *script = getenv("HEED_TEST_PGCLUSTER");
	const char *folder = getenv("HEED_TEST_PG_FOLDER");
	char cmd[1024];

	if (!script || !folder)
		fail_msg(
		        "HEED_TEST_PGCLUSTER and HEED_TEST_PG_FOLDER are not "
		        "set: run this test through tests/pgcluster.py run --");
	snprintf(cmd, sizeof(cmd), "python3 '%s' ctl '%s' %s", script, folder,
	         action);
	if (system(cmd) != 0)
		fail_msg("%s failed", cmd);
}

/* Runs sql on the database at url; returns the first value of its first
 * row (static, "" when none). Fails the test on any error. */
static inline const char *heed_test_pg_sql(const char *url, const char *sql)
{
	static char value[256];
	PGconn *c = PQconnectdb(url);
	PGresult *r;

	if (PQstatus(c) != CONNECTION_OK)
		fail_msg("connecting to %s: %s", url, PQerrorMessage(c));
	r = PQexec(c, sql);
	if (PQresultStatus(r) != PGRES_COMMAND_OK &&
	    PQresultStatus(r) != PGRES_TUPLES_OK)
		fail_msg("%s: %s", sql, PQerrorMessage(c));
	value[0] = '\0';
	if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) > 0)
		snprintf(value, sizeof(value), "%s", PQgetvalue(r, 0, 0));
	PQclear(r);
	PQfinish(c);
	return value;
}

/* The whole of EXPLAIN's answer for sql (an EXPLAIN statement) on the
 * database at url, its rows joined by ';' into plan. */
static inline void heed_test_pg_plan(const char *url, const char *sql,
                                     char *plan, size_t size)
{
	PGconn *c = PQconnectdb(url);
	PGresult *r;

	assert_int_equal(PQstatus(c), CONNECTION_OK);
	r = PQexec(c, sql);
	if (PQresultStatus(r) != PGRES_TUPLES_OK)
		fail_msg("%s: %s", sql, PQerrorMessage(c));
	plan[0] = '\0';
	for (int i = 0; i < PQntuples(r); i++)
		snprintf(plan + strlen(plan), size - strlen(plan), "%s;",
		         PQgetvalue(r, i, 0));
	PQclear(r);
	PQfinish(c);
}

/* A new, empty database on the cluster: its URL in url. */
static inline void heed_test_pg_fresh(char *url, size_t size)
{
	static int n;
	const char *base = heed_test_pg();
	const char *slash;
	char sql[96];

	if (!base)
		fail_msg("HEED_TEST_PG is not set: run this test through "
		         "tests/pgcluster.py run -- (meson test does)");
	slash = strrchr(base, '/');
	assert_non_null(slash);
	n++;
	snprintf(sql, sizeof(sql), "CREATE DATABASE heed_t%ld_%d",
	         (long)getpid(), n);
	heed_test_pg_sql(base, sql);
	snprintf(url, size, "%.*s/heed_t%ld_%d", (int)(slash - base), base,
	         (long)getpid(), n);
}

/* A store for a test: a fresh PostgreSQL database when the program runs
 * with the cluster, else a SQLite store in memory. */
static inline heed_store *heed_test_store_fresh(void)
{
	char url[256];
	heed_store *s = NULL;

	if (!heed_test_pg())
		return heed_test_store_memory();
	heed_test_pg_fresh(url, sizeof(url));
	assert_int_equal(heed_store_open(&s, url, heed_test_allocator(), NULL),
	                 HEED_OK);
	return s;
}

/* The first value of sql's first row, as an integer, run past the store
 * on the store at location (a PostgreSQL URL when the program runs with
 * the cluster, else a SQLite file): what the store's functions do not
 * show, such as rows deleted on the way. */
static inline int64_t heed_test_store_int(const char *location, const char *sql)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	int64_t n = -1;

	if (heed_test_pg())
		return atoll(heed_test_pg_sql(location, sql));
	assert_int_equal(sqlite3_open(location, &db), SQLITE_OK);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		fail_msg("%s: %s", sql, sqlite3_errmsg(db));
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return n;
}

/* The partitions of a PostgreSQL table (0: not partitioned). */
static inline int64_t heed_test_pg_partitions(const char *url,
                                              const char *table)
{
	char sql[160];

	snprintf(sql, sizeof(sql),
	         "SELECT count(*) FROM pg_inherits WHERE inhparent = "
	         "'%s'::regclass;",
	         table);
	return strtoll(heed_test_pg_sql(url, sql), NULL, 10);
}

#endif /* HEED_PG_TEST_H */
