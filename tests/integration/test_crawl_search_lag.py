"""The search index lags a running crawl by seconds, not by the crawl.

heed keeps its search index off the path that writes a page: a written page
is only marked, and the index catches up with the marked pages a set at a
time: in the crawl's spare time once 2 s behind, at 4 s when it has none,
and when the crawl ends (docs/storage.md, "Search area"). A reader such as `heed serve` sees the
index as the crawl left it. This test reads the store the way such a reader
does, read-only and from outside heed, every 0.3 s while a crawl runs: at
every look, each page fetched more than LAG_BOUND seconds earlier must be
in the index (a row of the FTS5 table's docsize shadow table, which FTS5
writes for each document it indexes, and of search_text, what it indexed);
when the crawl has ended, every page is, and nothing waits.

With --store-pg the store is a PostgreSQL cluster of the test's own, and
the index a page is in is search_docs. There heed catches the index up on
a connection and thread of its own, beside the crawl's: the server's
sessions must show that second connection during the crawl (a silent
return to catching up on the crawl's thread would pass the lag checks),
and the bound holds all the same.

The web: 36 sites of a home page and 12 pages, 32 on ONE loopback address
told apart by the Host header and 4 each alone on its own address, one
real nginx, names resolved by a dnsmasq of the test's own, so the crawl
takes about 13 s at one request a second per site and the index is
looked at some 40 times along the way. nginx's log also shows the crawl
stayed polite: no same-site gap under 1 s, every page answered.
"""

import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from pgcluster import PgCluster  # noqa: E402
from heedtest import (HEED, Checks, Dnsmasq, VirtualHostNginx, free_port_on,
                      scaled)
from loadserver import analyse, site_names, summary, write_sites

SHARED = "127.0.27.1"
ALONE = [f"127.0.27.{11 + i}" for i in range(4)]
SHARED_SITES = 32
PAGES = 12
# The most a page may wait for the index: the catch-up interval of a
# crawl without spare time (4 s), the batch that must commit first (0.9 s),
# fetched_at's whole seconds (1 s) and a second for a busy machine.
LAG_BOUND = scaled(6.9)
HEED_TIMEOUT = scaled(90)

shared_names = site_names(SHARED_SITES, "lag.test")
alone_names = site_names(len(ALONE), "alone-lag.test")
names = shared_names + alone_names
address_of = dict({h: SHARED for h in shared_names},
                  **{h: a for h, a in zip(alone_names, ALONE)})
paths = ["/robots.txt", "/"] + [f"/p/{i}.html" for i in range(PAGES)]
expected = {(h, p) for h in names for p in paths}


ON_PG = "--store-pg" in sys.argv[1:]

# One statement, so one snapshot: the pages, what the index holds, the
# marks, and the sessions open on the store's database besides this one.
PG_LOOK = """SELECT json_build_object(
  'now', extract(epoch FROM clock_timestamp()),
  'pages', (SELECT coalesce(json_object_agg(id, fetched_at), '{}')
            FROM pages),
  'docs', (SELECT coalesce(json_agg(page_id), '[]') FROM search_docs),
  'waiting', (SELECT count(*) FROM search_pending),
  'sessions', (SELECT count(*) FROM pg_stat_activity
               WHERE datname = current_database()
                 AND pid <> pg_backend_pid()))"""


def look(store):
    """(unix time of the look, {page id: fetched_at}, indexed ids, ids in
    search_text, marks waiting, other sessions), read in one read
    transaction."""
    if ON_PG:
        return look_pg(store)
    db = sqlite3.connect(f"file:{store}?mode=ro", uri=True, timeout=10)
    try:
        db.execute("BEGIN")
        now = time.time()
        pages = dict(db.execute("SELECT id, fetched_at FROM pages"))
        docsize = {r[0] for r in db.execute(
            "SELECT id FROM search_fts_docsize")}
        text = {r[0] for r in db.execute("SELECT id FROM search_text")}
        waiting = db.execute(
            "SELECT count(*) FROM (SELECT page_id FROM search_pending "
            "UNION SELECT id FROM pages WHERE id > (SELECT max_id FROM "
            "search_swept))").fetchone()[0]
        db.execute("COMMIT")
    finally:
        db.close()
    return now, pages, docsize, text, waiting, 0


def look_pg(pg):
    """look()'s answer from PostgreSQL, where search_docs holds both
    what the index matches and what it shows."""
    o = json.loads(pg.psql(PG_LOOK))
    pages = {int(i): at for i, at in o["pages"].items()}
    docs = set(o["docs"])
    return o["now"], pages, docs, docs, o["waiting"], o["sessions"]


tmp = tempfile.mkdtemp(prefix="heed-lag-")
www = os.path.join(tmp, "www")
write_sites(www, names, PAGES)
pg = PgCluster().start() if ON_PG else None
store = pg.url if ON_PG else os.path.join(tmp, "heed.db")
where = pg if ON_PG else store
seeds = os.path.join(tmp, "sites.txt")
port = free_port_on([SHARED] + ALONE)
with open(seeds, "w") as f:
    f.write("".join(f"http://{h}:{port}/\n" for h in names))

looks, errors = [], []
try:
    with VirtualHostNginx([SHARED] + ALONE, port, www, HEED_TIMEOUT + 30) \
            as nginx, \
            Dnsmasq(hosts={h: [address_of[h]] for h in names}) as dns:
        err_path = os.path.join(tmp, "stderr.txt")
        with open(err_path, "w") as err:
            proc = subprocess.Popen(
                [HEED, "crawl", "--store", store, "--allow-private",
                 "--dns-server", dns.server, "--contact-email",
                 "ops@example.org", "--quiet", "--sites", seeds],
                stdout=subprocess.DEVNULL, stderr=err)
            t0 = time.monotonic()
            while (proc.poll() is None
                   and time.monotonic() - t0 < HEED_TIMEOUT):
                time.sleep(0.3)
                if not ON_PG and not os.path.exists(store):
                    continue
                try:
                    looks.append(look(where))
                except (sqlite3.Error, RuntimeError) as e:  # no schema yet
                    errors.append(str(e))
            if proc.poll() is None:
                proc.kill()
            rc = proc.wait()
        took = time.monotonic() - t0
        log = nginx.access()
    final = look(where)
finally:
    if pg:
        pg.stop()

a = analyse(log, expected=expected)
print(f"heed exit {rc} after {took:.1f} s; {len(looks)} looks at the "
      f"store during the crawl ({len(errors)} before its schema was there)")
print(summary(a, inflight=False), flush=True)


def late_pages(lk):
    """Pages fetched more than LAG_BOUND before the look, not indexed."""
    now, pages, docsize, text = lk[:4]
    return sorted(i for i, at in pages.items()
                  if at <= now - LAG_BOUND and
                  (i not in docsize or i not in text))


def check_heed_finished():
    with open(err_path) as f:
        tail = f.read()[-500:]
    assert rc == 0, f"exit {rc} after {took:.0f} s; stderr: {tail}"


def check_index_looked_at_during_crawl():
    busy = [lk for lk in looks if lk[1]]
    assert len(busy) >= 10, (f"only {len(busy)} looks saw pages: the "
                             f"crawl was too short to judge the lag")


def check_index_within_bound_at_every_look():
    bad = [(round(lk[0] % 1000, 1), len(lk[1]), late_pages(lk)[:5])
           for lk in looks if late_pages(lk)]
    assert not bad, (f"{len(bad)} of {len(looks)} looks found pages "
                     f"fetched over {LAG_BOUND} s earlier not in the "
                     f"index (time mod 1000, pages, ids): {bad[:5]}")


def check_index_lagged_at_some_look():
    """The index is caught up with in sets, not per page: some look
    found stored pages not yet indexed. (If none did, this test would
    not be judging a lag at all.)"""
    assert any(set(lk[1]) - lk[2] for lk in looks), (
        "every look found every page indexed")


def check_everything_indexed_at_the_end():
    _, pages, docsize, text, waiting = final[:5]
    assert len(pages) == len(names) * (PAGES + 1), (
        f"{len(pages)} pages stored of {len(names) * (PAGES + 1)}")
    assert set(pages) == docsize == text and waiting == 0, (
        f"{len(pages)} pages, {len(docsize)} in FTS5, {len(text)} in "
        f"search_text, {waiting} waiting")


def check_index_caught_up_beside_the_crawl():
    """On PostgreSQL two sessions of heed's at some look: the crawl's
    and the one the index is caught up on."""
    most = max((lk[5] for lk in looks), default=0)
    assert most >= 2, (f"at most {most} sessions on the store during the "
                       f"crawl: the index was not caught up beside it")


def check_polite_and_whole():
    assert a["gaps_under"] == 0, (f"{a['gaps_under']} same-site gaps "
                                  f"under 1 s: {a['gaps_short'][:3]}")
    assert a["max_per_window"] <= 1, (f"{a['max_per_window']} requests "
                                      f"to one site in 1 s")
    assert not a["missing"], f"never answered: {a['missing'][:5]}"


Checks().main([
    check_heed_finished,
    check_index_looked_at_during_crawl,
    check_index_within_bound_at_every_look,
    check_index_lagged_at_some_look,
    check_everything_indexed_at_the_end,
    check_polite_and_whole,
] + ([check_index_caught_up_beside_the_crawl] if ON_PG else []))
