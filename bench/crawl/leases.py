#!/usr/bin/env python3
"""bench/crawl/leases.py: the lease statements of src/store/pg_leases.c,
timed on a synthetic site_leases table of N rows.

    python3 bench/crawl/leases.py 10000 100000 1000000

For each N: a throwaway PostgreSQL cluster (tests/pgcluster.py), the
table and indexes of the leases area's migrations, N idle sites and 4,096
of them held by one worker, VACUUM ANALYZE; then, timed by psql (\\timing),
five runs of the fair-share count (heed_store_lease_counts: a scan of the
whole table, run by every worker at every beat), one claim of 256 sites
(heed_store_lease_claim) and one renew_all of the 4,096 held rows, both
rolled back. What grows with N is what a store of many sites pays
(docs/performance.md, "Workers on PostgreSQL").
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests"))
import pgcluster  # noqa: E402

# The leases area's tables as its migrations 1-3 leave them.
DDL = """CREATE TABLE site_leases (site TEXT PRIMARY KEY,
 delay_ms BIGINT NOT NULL, next_allowed_at BIGINT NOT NULL,
 last_request_start BIGINT NOT NULL DEFAULT 0, holder TEXT,
 token BIGINT NOT NULL DEFAULT 0, lease_until BIGINT NOT NULL DEFAULT 0,
 wanted_at BIGINT NOT NULL DEFAULT 9223372036854775807, taken_from TEXT);
CREATE INDEX site_leases_due ON site_leases(next_allowed_at, site);
CREATE INDEX site_leases_holder ON site_leases(holder);"""
NOW = 2_000_000_000_000
IDLE = 9223372036854775807
COUNTS = ("SELECT count(*), count(*) FILTER (WHERE lease_until > %d), "
          "count(*) FILTER (WHERE next_allowed_at <= %d AND lease_until <= "
          "%d), count(*) FILTER (WHERE next_allowed_at = %d) "
          "FROM site_leases" % (NOW, NOW, NOW, IDLE))
CLAIM = ("WITH c AS (SELECT site FROM site_leases WHERE next_allowed_at <= "
         "%d AND lease_until <= %d ORDER BY next_allowed_at, site LIMIT 256 "
         "FOR UPDATE SKIP LOCKED) UPDATE site_leases l SET holder = 'w2', "
         "token = l.token + 1, lease_until = %d + 30000, next_allowed_at = "
         "%d + 30000, wanted_at = %d, taken_from = l.holder FROM c "
         "WHERE l.site = c.site RETURNING l.site" % (NOW, NOW, NOW, NOW,
                                                      IDLE))
RENEW = ("UPDATE site_leases SET lease_until = %d + 30000, next_allowed_at = "
         "GREATEST(next_allowed_at, %d + 30000) WHERE holder = 'w1' AND "
         "lease_until > %d RETURNING site" % (NOW + 10000, NOW + 10000, NOW))


def timed(pg, sql, reps):
    """Milliseconds of each of reps runs of sql, as psql's \\timing says."""
    out = subprocess.run(
        [os.path.join(pg.bin, "psql"), "-X", "-q", "-h", "127.0.0.1", "-p",
         str(pg.port), "-U", pgcluster.USER, "-d", pgcluster.DATABASE,
         "-c", "\\timing on"] + [a for _ in range(reps) for a in ("-c", sql)],
        capture_output=True, text=True, timeout=600)
    return [float(x) for x in re.findall(r"Time: ([0-9.]+) ms", out.stdout)]


def one(n):
    pg = pgcluster.PgCluster().start()
    try:
        pg.psql(DDL)
        pg.psql("INSERT INTO site_leases(site, delay_ms, next_allowed_at) "
                "SELECT 's' || g || '.example', 1000, %d - (g %% 100000) "
                "FROM generate_series(1, %d) g" % (NOW, n))
        pg.psql("UPDATE site_leases SET holder = 'w1', lease_until = "
                "%d + 20000, next_allowed_at = %d + 20000 WHERE site IN "
                "(SELECT site FROM site_leases ORDER BY site LIMIT 4096)"
                % (NOW, NOW))
        pg.psql("VACUUM ANALYZE site_leases")
        size = pg.psql("SELECT pg_size_pretty(pg_total_relation_size("
                       "'site_leases'))").strip()
        counts = timed(pg, COUNTS, 5)
        claim = timed(pg, "BEGIN; %s; ROLLBACK" % CLAIM, 1)
        renew = timed(pg, "BEGIN; %s; ROLLBACK" % RENEW, 1)
    finally:
        pg.stop()
    print("%d rows (%s): fair-share count %s ms; claim of 256 %s ms; "
          "renew_all of 4096 %s ms" % (
              n, size, " ".join("%.1f" % x for x in counts),
              " ".join("%.1f" % x for x in claim),
              " ".join("%.1f" % x for x in renew)), flush=True)


def main(argv):
    sizes = [int(x) for x in argv] or [10000, 100000, 1000000]
    if min(sizes) < 5000:
        print("leases.py: at least 5,000 rows (4,096 are held)",
              file=sys.stderr)
        return 2
    for n in sizes:
        one(n)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except pgcluster.PgError as e:
        print("leases.py: %s" % e, file=sys.stderr)
        sys.exit(1)
