"""PostgreSQL restarting under a web crawl: the crawl's open batch is lost
with the connection. The store keeps a copy of the batch's statements
(heed_store_begin_batch), reconnects with back-off and does the batch
again in a new transaction ("a lost batch was done again on a new
connection"), so the crawl goes on as if nothing happened and no server
is asked again for what the lost batch recorded. Only when the store
cannot do that ("could not be done again": a read that answers otherwise
the second time) does the crawl redo the batch its own way: it stops
writing until no fetch is in flight, then starts every idle site again
from the store, so what the lost batch recorded is fetched and recorded
again ("the batch's N writes are redone", "batch redone: N sites started
again from the store"). Nothing is lost, nothing stored twice, and no site
owner sees a request sooner than the politeness delay.

The web: 40 sites of 6 pages (plus a home page, robots.txt with one
Disallow, and a link to the disallowed page), 36 on ONE loopback address
told apart by the Host header and 4 each alone on its own 127.x address,
all served by one real nginx (heedtest.VirtualHostNginx), names resolved
by a dnsmasq of the test's own; PostgreSQL is a throwaway cluster
(tests/pgcluster.py) that the test restarts with `pg_ctl` (PgCluster.ctl,
what `pgcluster.py ctl FOLDER restart` runs).

Runs, each on a fresh database and a fresh nginx log; PostgreSQL is
restarted once nginx's log shows the crawl under way (RESTART_AFTER pages
answered, of PAGES_IN_ALL), while pages are flowing, so that a batch is
open most of the time:

- a lone `heed crawl`: `pg_ctl restart`; then stop, 3 s down, start;
- two workers (`--worker`, the options of crawl_workers): the same two;
- a lone crawl restarted twice (the second once RESTART_AGAIN_AFTER more
  pages were answered after the first restart);
- a lone crawl and two workers stopped (3 s down) BETWEEN_S after the
  pages were answered: the sites were started in step, so their requests
  come in bursts once a second, and a restart at once after a burst finds
  a batch open, BETWEEN_S later often none (the batch was committed):
  this covers the other path, the reconnect alone, on purpose.

Asserted: every process exits 0 and says it reconnected; a restart
(down a fraction of a second) loses the crawl no batch, also under two
workers whose batches read back the ids of the URLs they added; a batch the
store gave up is redone by the crawl (a "writes are redone" line is
followed by a "batch redone" line); the figures say which path each
process took; from the store (`heed export`, `heed stats`): every page of
the web stored exactly once, with 200; from nginx's log (crawl_shared's
measure, see heedtest.VirtualHostNginx): 0 same-site gaps under 1 s,
every page answered 200, nothing disallowed asked, and no page asked more
than once except for what the crawl redid its own way or a worker's lost
lease handed over (check_refetches_only_redone).
"""

import contextlib
import csv
import io
import json
import os
import re
import sys
import tempfile
import time
from collections import Counter

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from pgcluster import PgCluster  # noqa: E402
from heedtest import (HEED, Checks, Dnsmasq, VirtualHostNginx,  # noqa: E402
                      free_port_on, run_heed, scaled)
from loadserver import analyse, site_names, summary, write_sites  # noqa: E402
# The same web and the same measures as crawl_workers: its checks that
# read only the run's figures serve here as they are.
from test_crawl_workers import (  # noqa: E402
    Worker, check_disallowed_never_asked, check_every_site_whole, check_gaps,
    who_fetched, worker_argv, worker_of)

SHARED = "127.0.34.1"
ALONE = [f"127.0.34.{11 + i}" for i in range(4)]
SHARED_SITES = 36
PAGES = 6
DISALLOW = "/private/"
RUN_TIMEOUT = scaled(90)  # seconds for one crawl; each needs about 15
# Pages (robots.txt aside) nginx has answered before the restart: the
# crawl is under way, pages flow (about 40 a second, one a site a second)
# and most of the web, PAGES_IN_ALL pages, is still to fetch.
RESTART_AFTER = 40
RESTART_AGAIN_AFTER = 80
DOWN_S = 3  # the "stop, sleep, start" downtime
BETWEEN_S = 0.6  # after a burst: its batch (900 ms) often committed

shared_names = site_names(SHARED_SITES, "restart.test")
alone_names = site_names(len(ALONE), "alone-restart.test")
names = shared_names + alone_names
address_of = dict({h: SHARED for h in shared_names},
                  **{h: a for h, a in zip(alone_names, ALONE)})
PAGE_PATHS = ["/"] + [f"/p/{i}.html" for i in range(PAGES)]
PAGES_IN_ALL = len(names) * len(PAGE_PATHS)
expected = {(h, p) for h in names for p in ["/robots.txt"] + PAGE_PATHS}

LOST = "writes are redone"
REDONE = "batch redone: "
DONE_AGAIN = "done again on a new connection"
GIVEN_UP = "could not be done again"
LEASE_LOST = "lease lost ("
RECONNECT = "reconnecting, attempt 1 after"
ERROR = re.compile(r"heed: (\[\w+\] )?error: ")


def lone_argv(store, dns, seeds):
    return {"lone": [HEED, "crawl", "--store", store, "--allow-private",
                     "--dns-server", dns, "--contact-email",
                     "lone@example.org", "--sites", seeds]}


def two_workers(store, dns, seeds):
    return {f"w{i}": worker_argv(f"w{i}", store, dns, seeds)
            for i in range(2)}


def pages_answered(log):
    return sum(1 for e in log if e["path"] in PAGE_PATHS)


def restart_when_flowing(pg, nginx, procs, how, after, pause, deadline):
    """Waits (polling nginx's log every 50 ms, until deadline) for `after`
    more pages answered than when called, and pause seconds more, then
    restarts PostgreSQL: how is "restart" (pg_ctl restart) or "stop"
    (stop, DOWN_S s, start). Returns {how, at, took, pages, running} (at:
    on time.time())."""
    first = pages_answered(nginx.access())
    n = first
    while time.monotonic() < deadline and n < first + after and \
            any(p.proc.poll() is None for p in procs):
        time.sleep(0.05)
        n = pages_answered(nginx.access())
    time.sleep(pause)
    running = [p.name for p in procs if p.proc.poll() is None]
    at = time.time()
    if how == "restart":
        pg.ctl("restart")
    else:
        pg.ctl("stop")
        time.sleep(DOWN_S)
        pg.ctl("start")
    return {"how": how, "at": at, "took": time.time() - at, "pages": n,
            "running": running}


def crawl(pg, name, dns, www, argvs, restarts, tmp):
    """One crawl on a fresh database and a fresh nginx, restarted as
    restarts says: [(how, pages answered since the previous one, pause)]
    (restart_when_flowing); its
    files in a new folder of tmp."""
    pg.psql(f"CREATE DATABASE {name};")
    store = pg.url.rsplit("/", 1)[0] + "/" + name
    folder = os.path.join(tmp, name)
    os.mkdir(folder)
    port = free_port_on([SHARED] + ALONE)
    seeds = os.path.join(folder, "sites.txt")
    with open(seeds, "w") as f:
        f.write("".join(f"http://{h}:{port}/\n" for h in names))
    run = {"name": name, "store": store, "port": port, "restarts": []}
    with VirtualHostNginx([SHARED] + ALONE, port, www,
                          RUN_TIMEOUT + 60) as nginx:
        t0 = time.monotonic()
        deadline = t0 + RUN_TIMEOUT
        with contextlib.ExitStack() as running:
            procs = [Worker(n, argv, folder)
                     for n, argv in argvs(store, dns.server, seeds).items()]
            for p in procs:  # what the wait left running, on any way out
                running.callback(p.stop)
            for how, after, pause in restarts:
                run["restarts"].append(restart_when_flowing(
                    pg, nginx, procs, how, after, pause, deadline))
            for p in procs:
                p.wait(deadline)
        run["wall"] = time.monotonic() - t0
        run["log"] = nginx.access()
        for r in run["restarts"]:  # on the log's time base
            r["at"] -= nginx.base or 0
    run["procs"] = procs
    run["err"] = {p.name: p.stderr() for p in procs}
    run["export"] = run_heed("export", "--format", "csv", "--store", store,
                             timeout=60)
    run["stats"] = run_heed("stats", "--json", "--store", store, timeout=60)
    return run


def paths_of(run, proc):
    """How a process went through the restarts: lines that say a batch
    was lost, redone, and reconnect episodes (their first attempt)."""
    err = run["err"][proc.name]
    return {"lost": err.count(LOST), "redone": err.count(REDONE),
            "again": err.count(DONE_AGAIN), "given_up": err.count(GIVEN_UP),
            "leases_lost": err.count(LEASE_LOST),
            "reconnects": err.count(RECONNECT),
            "errors": [ln for ln in err.splitlines() if ERROR.match(ln)]}


def figures(run):
    log = run["log"]
    a = analyse(log, expected=expected)
    asked = Counter((e["host"], e["path"]) for e in log)
    run["a"] = a
    run["asked"] = asked
    run["twice"] = sorted(k for k, n in asked.items()
                          if n > 1 and k[1] in PAGE_PATHS)
    run["robots_again"] = sorted(k for k, n in asked.items()
                                 if n > 1 and k[1] == "/robots.txt")
    run["other_again"] = sorted(k for k, n in asked.items() if n > 1 and
                                k[1] not in PAGE_PATHS + ["/robots.txt"])
    run["disallowed"] = [e for e in log if e["path"].startswith(DISALLOW)]
    print(f"run {run['name']}: {len(names)} sites x {len(PAGE_PATHS)} pages "
          f"({SHARED_SITES} on {SHARED}, {len(ALONE)} alone), port "
          f"{run['port']}, wall {run['wall']:.1f} s")
    print(summary(a, inflight=False))
    per = Counter(worker_of(e) for e in log)
    print(f"  requests per process (User-Agent): "
          f"{dict(sorted(per.items(), key=str))}")
    for r in run["restarts"]:
        print(f"  PostgreSQL {r['how']} at {r['at']:.2f} s (nginx log "
              f"time), after {r['pages']} pages answered of "
              f"{PAGES_IN_ALL}, down for {r['took']:.2f} s; running then: "
              f"{r['running']}")
    for p in run["procs"]:
        f = paths_of(run, p)
        path = ("batch redone by the crawl" if f["lost"] else
                "batch done again by the store" if f["again"] else
                "between batches: reconnect only")
        print(f"  {p.name}: exit {p.rc}; {path}: {f['again']} done again "
              f"by the store, {f['given_up']} given up, {f['lost']} lost "
              f"and {f['redone']} redone by the crawl, {f['leases_lost']} "
              f"leases lost, {f['reconnects']} reconnect episodes; "
              f"errors {len(f['errors'])}")
        said = [ln for ln in run["err"][p.name].splitlines()
                if "store" in ln or "queued again" in ln]
        for ln in said[:12]:
            print(f"    {ln[:220]}")
        if len(said) > 12:
            print(f"    ... {len(said) - 12} more")
    print(f"  pages asked more than once: {len(run['twice'])} "
          f"{run['twice'][:6]}; robots.txt: {len(run['robots_again'])}; "
          f"other paths: {len(run['other_again'])}; disallowed asked: "
          f"{len(run['disallowed'])}")
    rows = exported(run)
    print(f"  store: {len(rows)} pages exported, "
          f"{len(rows) - len({u for u, _ in rows})} twice; stats: "
          f"{stats_pages(run)} pages, frontier {stats(run).get('frontier')}",
          flush=True)


def exported(run):
    """[(url, status)] of `heed export --format csv`."""
    if run["export"].returncode != 0:
        return []
    return [(r["url"], r["status"])
            for r in csv.DictReader(io.StringIO(run["export"].stdout))]


def stats(run):
    """`heed stats --json` as a dict ({} when unreadable)."""
    try:
        return json.loads(run["stats"].stdout)
    except ValueError:
        return {}


def stats_pages(run):
    return stats(run).get("pages")


# ----- the checks, on one run ------------------------------------------

def check_restarted_mid_crawl(run):
    """Each restart happened while every process ran and pages were
    still to fetch after it."""
    for r in run["restarts"]:
        assert r["pages"] < PAGES_IN_ALL, r
        assert len(r["running"]) == len(run["procs"]), r
        later = [e for e in run["log"]
                 if e["start"] > r["at"] + r["took"] + 0.5]
        assert later, f"nothing fetched after the {r['how']}: {r}"


def check_processes_exit_0(run):
    bad = {p.name: (p.rc, run["err"][p.name].strip()[-600:])
           for p in run["procs"] if p.rc != 0}
    assert not bad, f"processes that did not exit 0: {bad}"


def check_no_error_logged(run):
    bad = {p.name: paths_of(run, p)["errors"][:3] for p in run["procs"]
           if paths_of(run, p)["errors"]}
    assert not bad, bad


def check_reconnected(run):
    """Every process lost its connection at each restart (a restart ends
    every session) and said it reconnects."""
    want = len(run["restarts"])
    got = {p.name: paths_of(run, p)["reconnects"] for p in run["procs"]}
    assert all(n >= want for n in got.values()), (
        f"reconnect episodes ({RECONNECT!r}) per process, want {want}: "
        f"{got}")


def check_lost_batches_redone(run):
    """A batch the store gave up is redone by the crawl once no fetch is
    in flight: as many "batch redone" lines as "writes are redone" ones,
    and no fewer of those than batches given up."""
    bad = {}
    for p in run["procs"]:
        f = paths_of(run, p)
        if f["lost"] != f["redone"] or f["lost"] < f["given_up"]:
            bad[p.name] = (f["given_up"], f["lost"], f["redone"])
    assert not bad, f"(given up, lost, redone) batches: {bad}"


def check_restart_done_by_store(run):
    """A restart (the server down a fraction of a second, well inside
    every lease) loses the crawl no batch: the store does each lost one
    again, also one that read back the ids its new URLs were given (a
    site's queue window), so no site is asked again for anything. Only a
    lease that ended meanwhile (a longer stop, or a machine so loaded
    that a worker missed its beats) lets the store give a batch up, and
    check_refetches_only_redone bounds what that may ask again."""
    if any(r["how"] != "restart" for r in run["restarts"]):
        return
    procs = {p.name: paths_of(run, p) for p in run["procs"]}
    bad = {n: f["given_up"] for n, f in procs.items()
           if f["given_up"] and not f["leases_lost"]}
    assert not bad, f"batches given up by the store, per process: {bad}"
    if any(f["leases_lost"] for f in procs.values()):
        return
    assert not run["twice"], (
        f"{len(run['twice'])} pages asked more than once: "
        f"{[(k, who_fetched(run, k)) for k in run['twice'][:3]]}")


def check_stored_once(run):
    assert run["export"].returncode == 0, run["export"].stderr
    want = {f"http://{h}:{run['port']}{p}" for h in names for p in PAGE_PATHS}
    rows = exported(run)
    urls = Counter(u for u, _ in rows)
    wrong = {"not stored": sorted(want - set(urls)),
             "not of the web": sorted(set(urls) - want),
             "stored twice": sorted(u for u, n in urls.items() if n > 1),
             "not 200": sorted(u for u, s in rows if s != "200")}
    assert not any(wrong.values()), {k: (len(v), v[:3])
                                     for k, v in wrong.items() if v}
    assert run["stats"].returncode == 0, run["stats"].stderr
    assert stats_pages(run) == len(want), (stats_pages(run), len(want),
                                           run["stats"].stdout[:300])


def check_frontier_empty(run):
    """Nothing left queued or in flight: the URLs of the lost batch were
    not forgotten."""
    f = stats(run).get("frontier", {})
    assert f.get("queued") == 0 and f.get("in-flight") == 0, f


def check_refetches_only_redone(run):
    """A batch the store did again asks no server again: its answers are
    recorded as they came. Only a batch the crawl redid its own way
    fetches again what it recorded (a batch commits within 900 ms, and a
    site gets at most one request a second, so at most one page a site)
    and what was in flight when the loss was noticed (one request a site
    at most, and then not one the batch had recorded), and a host whose
    lease a worker lost may be asked again by its new holder for what was
    not committed (at most its pages). So with every batch done again
    and no lease lost, no page is asked twice."""
    procs = [paths_of(run, p) for p in run["procs"]]
    redone = sum(f["lost"] for f in procs)
    leases = sum(f["leases_lost"] for f in procs)
    bound = len(names) * redone + len(PAGE_PATHS) * leases
    assert len(run["twice"]) <= bound, (
        f"{len(run['twice'])} pages asked more than once, more than "
        f"{bound} ({len(names)} sites x {redone} batches redone by the "
        f"crawl, {len(PAGE_PATHS)} pages x {leases} leases lost): "
        f"{[(k, who_fetched(run, k)) for k in run['twice'][:3]]}")
    many = [k for k in run["twice"] if run["asked"][k] > 1 + redone + leases]
    assert not many, [(k, who_fetched(run, k)) for k in many[:3]]


CHECKS = [check_restarted_mid_crawl, check_processes_exit_0,
          check_no_error_logged, check_reconnected,
          check_lost_batches_redone, check_restart_done_by_store,
          check_stored_once,
          check_frontier_empty, check_gaps, check_every_site_whole,
          check_disallowed_never_asked, check_refetches_only_redone]


NOW = (RESTART_AFTER, 0)  # at once after a burst: a batch is open
LATER = (RESTART_AFTER, BETWEEN_S)  # between batches
PLANS = [("lone_restart", lone_argv, [("restart", *NOW)]),
         ("lone_stop", lone_argv, [("stop", *NOW)]),
         ("workers_restart", two_workers, [("restart", *NOW)]),
         ("workers_stop", two_workers, [("stop", *NOW)]),
         ("lone_twice", lone_argv, [("restart", *NOW),
                                    ("restart", RESTART_AGAIN_AFTER, 0)]),
         ("lone_between", lone_argv, [("stop", *LATER)]),
         ("workers_between", two_workers, [("stop", *LATER)])]


def named(fn, run):
    """fn on run, named RUN.CHECK in the output."""
    def check():
        fn(run)
    check.__name__ = f"{run['name']}.{fn.__name__}"
    return check


def main():
    only = os.environ.get("HEED_PG_RESTART_ONLY")  # one run, by hand
    todo = []
    with tempfile.TemporaryDirectory(prefix="heed-pg-restart-") as tmp, \
            PgCluster() as pg, \
            Dnsmasq(hosts={h: [a] for h, a in address_of.items()}) as dns:
        www = os.path.join(tmp, "www")
        write_sites(www, names, PAGES, disallow=DISALLOW)
        for name, argvs, restarts in PLANS:
            if not only or name == only:
                run = crawl(pg, name, dns, www, argvs, restarts, tmp)
                figures(run)
                todo += [named(fn, run) for fn in CHECKS]
    Checks().main(todo)


if __name__ == "__main__":
    main()
