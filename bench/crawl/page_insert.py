#!/usr/bin/env python3
"""What a crawled page's insert costs SQLite, with and without a trigger on it.

Makes a store with heed's own schema (an arrangement recorded and
forgotten again with `heed sites`, which opens a new store for writing), then
inserts the rows of a crawl of SITES x 51 pages (the crawl bench's
record and permissions, a site's pages interleaved as a crawl of many
sites writes them) in transactions of 2,700 rows, as heed's 900 ms
batches hold at 3,000 pages a second, and prints the CPU each row cost:

- "plain insert": what `heed_store_page_put` runs for a new page since
  the search area's version 15 (`INSERT ... ON CONFLICT (url) DO NOTHING`);
- "upsert": the statement it ran before (`ON CONFLICT (url) DO UPDATE`),
  which carries the update triggers' programs;
- each again with version 14's insert trigger put back.

Usage: page_insert.py --heed BUILD/heed [--sites 1000] [--rounds 2]
"""
import argparse
import os
import random
import sqlite3
import subprocess
import sys
import tempfile
import time

COLUMNS = ("url, final_url, host, status, fetched_at, checked_at, title, "
           "views, published, modified, etag, last_modified, source_lastmod, "
           "permissions, mode, record")
VALUES = "INSERT INTO pages(%s) VALUES(%s)" % (COLUMNS, ", ".join("?" * 16))
UPSERT = VALUES + " ON CONFLICT (url) DO UPDATE SET " + ", ".join(
    "%s = excluded.%s" % (c, c) for c in COLUMNS.split(", ")[1:])
PLAIN = VALUES + " ON CONFLICT (url) DO NOTHING"
# Version 14's trigger, as src/store/sqlite_search.c made it.
TRIGGER = ("CREATE TRIGGER search_mark_ai AFTER INSERT ON pages BEGIN "
           "INSERT INTO search_pending(page_id) SELECT new.id WHERE NOT "
           "EXISTS (SELECT 1 FROM search_pending WHERE page_id = new.id); "
           "END;")
RECORD = ('{"title":{"value":"Workshop video %d","source":"og"},'
          '"description":{"value":"Part %d of the workshop series.",'
          '"source":"meta"},"language":{"value":"en","source":"html"},'
          '"published":{"value":"2026-10-08","source":"jsonld"},'
          '"site_name":{"value":"Benchtube","source":"title"},'
          '"views":8000,"tags":[{"value":"workshop","source":"og"},'
          '{"value":"part %d","source":"jsonld"}],'
          '"content_type":"text/html","byte_size":59040,"links":51}')
PERMISSIONS = ('{"robots":{"allowed":true},"meta_robots":{"noindex":false,'
               '"nofollow":false,"nosnippet":false,"max_snippet":null},'
               '"acap":{},"search":{"description_chars":30}}')


def rows(sites, pages=51):
    random.seed(1)
    out = []
    for k in range(pages):
        for s in range(sites):
            at = 1796000000 + len(out) // 3000
            out.append(("http://s%05d.bench.test/p/%d.html" % (s, k), None,
                        "s%05d.bench.test" % s, 200, at, at,
                        "Workshop video %d" % k, random.randint(1, 10**6),
                        "2026-10-08", None, None, None, None, PERMISSIONS,
                        "full", RECORD % (k, k, k)))
    return out


def run(heed, data, statement, trigger, where):
    path = os.path.join(where, "s.db")
    for f in (path, path + "-wal", path + "-shm"):
        if os.path.exists(f):
            os.remove(f)
    for words in (["set", "bench.invalid", "--note", "bench"],
                  ["forget", "bench.invalid"]):
        subprocess.run([heed, "sites"] + words + ["--store", path],
                       check=True, stdout=subprocess.DEVNULL)
    db = sqlite3.connect(path, isolation_level=None)
    if not db.execute("SELECT 1 FROM sqlite_master WHERE name = 'pages'"
                      ).fetchone():
        sys.exit("heed sites made no store at " + path)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    db.execute("PRAGMA cache_size=-65536")
    db.execute("DROP TRIGGER IF EXISTS search_mark_ai")
    if trigger:
        db.execute(TRIGGER)
    start = time.process_time()
    for i in range(0, len(data), 2700):
        db.execute("BEGIN")
        db.executemany(statement, data[i:i + 2700])
        db.execute("COMMIT")
    spent = time.process_time() - start
    db.close()
    return spent * 1e6 / len(data)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--heed", required=True)
    ap.add_argument("--sites", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=2)
    a = ap.parse_args()
    data = rows(a.sites)
    kinds = [("plain insert", PLAIN, False), ("upsert", UPSERT, False),
             ("plain insert, insert trigger", PLAIN, True),
             ("upsert, insert trigger", UPSERT, True)]
    with tempfile.TemporaryDirectory() as where:
        for r in range(a.rounds):
            for name, statement, trigger in kinds:
                us = run(a.heed, data, statement, trigger, where)
                print("round %d  %-30s %6.2f us a row (%d rows)"
                      % (r + 1, name, us, len(data)), flush=True)


if __name__ == "__main__":
    main()
