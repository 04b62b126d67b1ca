#!/usr/bin/env python3
"""What hash partitions cost a batch's write on PostgreSQL, by layout.

    python3 bench/crawl/partition_write.py [--sites N] [--pages N]
        [--batch N] [--rounds N]

The crawl writes a batch's visit rows as one statement of arrays
(`INSERT ... SELECT * FROM unnest(...) ON CONFLICT ... DO UPDATE`, one
row a site, since each site gets one request a second). This writes the
same rows, sites x pages of them, in batches of that shape, into four
layouts of a visits-like table with the crawl's two indexes, on a
throwaway cluster (tests/pgcluster.py: 127.0.0.1, a temporary folder):

  one        one table keyed (url): the visits up to area version 3
  keyed      one table keyed (site, url): the longer key alone
  by_site    keyed (site, url), PARTITION BY HASH (site), 16 partitions:
             the visits since version 4
  by_number  keyed (n, url), PARTITION BY HASH (n) on a small integer:
             whether hashing a text, not the routing, is the cost

Each pass is timed inside the server (clock_timestamp() around the
statements, in one PL/pgSQL block), so it counts the statements' work,
not round trips: first every row new (the first crawl), then every row
again (a recrawl's upsert). Layouts are alternated in each round, and
the median of the rounds is printed, in microseconds a row.
"""

import argparse
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "tests"))
import pgcluster  # noqa: E402  (bench/ otherwise does not use tests/)

COLUMNS = ("site text COLLATE \"C\" NOT NULL, url text COLLATE \"C\" NOT "
           "NULL, n int NOT NULL, kind int NOT NULL, status int NOT NULL, "
           "etag text, digest text, due_at bigint NOT NULL, "
           "visits bigint NOT NULL")

LAYOUTS = {
    "one": ("PRIMARY KEY (url)", "", "url"),
    "keyed": ("PRIMARY KEY (site, url)", "", "site, url"),
    "by_site": ("PRIMARY KEY (site, url)", "PARTITION BY HASH (site)",
                "site, url"),
    "by_number": ("PRIMARY KEY (n, url)", "PARTITION BY HASH (n)",
                  "n, url"),
}


def table_sql(name, columns, partition_by):
    """Statements that make table name afresh with its columns and keys,
    and its 16 hash partitions when partition_by says how."""
    sql = [f"DROP TABLE IF EXISTS {name};",
           f"CREATE TABLE {name} ({columns}) {partition_by};"]
    if partition_by:
        for r in range(16):
            sql.append(f"CREATE TABLE {name}_{r} PARTITION OF {name} FOR "
                       f"VALUES WITH (MODULUS 16, REMAINDER {r});")
    return "".join(sql)


def make_table(name, key, partition_by):
    return (table_sql(name, f"{COLUMNS}, {key}", partition_by) +
            f"CREATE INDEX ON {name}(due_at, url);"
            f"CREATE INDEX ON {name}(site, kind, url) WHERE kind <> 0;")


def two_passes(write):
    """A block that runs the statements write twice (pass is 1, then 2)
    and raises the two passes' times in microseconds as its notice."""
    return f"""
DO $$
DECLARE t0 timestamptz; first float8; second float8; p int; b int;
BEGIN
  FOR pass IN 1..2 LOOP
    t0 := clock_timestamp();
    {write}
    IF pass = 1 THEN
      first := extract(epoch FROM clock_timestamp() - t0) * 1e6;
    ELSE
      second := extract(epoch FROM clock_timestamp() - t0) * 1e6;
    END IF;
  END LOOP;
  RAISE NOTICE 'passes % %', first, second;
END$$;"""


def passes_of(notice):
    """The two passes' times in two_passes' notice."""
    return [float(x) for x in notice.split("passes ")[1].split()[:2]]


def timed_passes(name, conflict, sites, pages, batch):
    """Every row written twice, in batches of one row a site."""
    return two_passes(f"""
    FOR p IN 0..{pages - 1} LOOP
      FOR b IN 0..{(sites - 1) // batch} LOOP
        INSERT INTO {name}(site, url, n, kind, status, etag, digest,
                           due_at, visits)
        SELECT 'https://s' || s || '.example',
               'https://s' || s || '.example/p/' || p || '.html',
               s % 32768, CASE WHEN p = 0 THEN 1 ELSE 0 END, 200,
               '"' || md5(s::text) || '"', md5(p::text || s::text),
               1800000000 + s + pass, pass
        FROM generate_series(b * {batch},
                             least((b + 1) * {batch}, {sites}) - 1) s
        ON CONFLICT ({conflict}) DO UPDATE SET kind = excluded.kind,
          status = excluded.status, etag = excluded.etag,
          digest = excluded.digest, due_at = excluded.due_at,
          visits = excluded.visits;
      END LOOP;
    END LOOP;""")


def psql(url, sql):
    r = subprocess.run(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", url],
                       input=sql, capture_output=True, text=True,
                       timeout=1800)
    if r.returncode != 0:
        raise RuntimeError(r.stderr.strip())
    return r.stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sites", type=int, default=10000)
    ap.add_argument("--pages", type=int, default=10)
    ap.add_argument("--batch", type=int, default=500)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    rows = args.sites * args.pages
    pg = pgcluster.PgCluster().start()
    got = {name: ([], []) for name in LAYOUTS}
    try:
        for rnd in range(args.rounds):
            for name, (key, partition_by, conflict) in LAYOUTS.items():
                psql(pg.url, make_table(name, key, partition_by))
                out = psql(pg.url, timed_passes(name, conflict, args.sites,
                                                args.pages, args.batch))
                for i, us in enumerate(passes_of(out)):
                    got[name][i].append(us / rows)
                psql(pg.url, f"DROP TABLE {name};")
            print(f"round {rnd + 1} of {args.rounds} done", file=sys.stderr)
    finally:
        pg.stop()
    print(f"{rows} rows ({args.sites} sites x {args.pages}), batches of "
          f"{args.batch}, {args.rounds} rounds; us a row, median:")
    print(f"{'layout':<10} {'new rows':>9} {'upserts':>9}")
    base = [statistics.median(v) for v in got["one"]]
    for name in LAYOUTS:
        med = [statistics.median(v) for v in got[name]]
        print(f"{name:<10} {med[0]:9.2f} {med[1]:9.2f}   "
              f"({med[0] - base[0]:+.2f}, {med[1] - base[1]:+.2f})")


if __name__ == "__main__":
    main()
