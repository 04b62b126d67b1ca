"""heed crawl against many sites sharing one address whose capacity is
limited: it must adapt its parallelism to the server, retry 5xx
pages later in the run instead of storing them, never send one site two
requests less than 1 s apart, and still crawl fast when the server is roomy.

Every figure is measured from the SERVER's log (tests/integration/
loadserver.py: kernel receive stamps, in-flight counted by the server),
never from heed's own counters. Default politeness settings throughout.
Three scenarios, one after another (each on its own loopback address and
free port; names resolved by a dnsmasq of the test's own):

  struggling  40 sites x 10 pages; 20 ms, +150 ms per request beyond 2 in
              flight, 503 beyond 6 in flight
  drop        40 sites x 15 pages; healthy (knee 8, 503 beyond 12), then 8 s
              into the crawl: knee 1, 503 beyond 3
  roomy       200 sites x 10 pages; 200 ms flat, 503 beyond 64 in flight

A well-behaved crawler does each in about 15-40 s (1 request per second
per site is the only limit that binds when it adapts well).
"""

import os
import sqlite3
import tempfile
from urllib.parse import urlsplit

from heedtest import Checks, Dnsmasq, free_port, run_heed_timed, scaled
from loadserver import LoadServer, analyse, promise_problems, summary

CONTACT = ["--contact-email", "ops@example.org"]
HEED_TIMEOUT = scaled(100)  # seconds per crawl; a good crawler needs 15-40


def crawl(srv, timeout=HEED_TIMEOUT):
    """Runs heed crawl (default settings) on every site of srv, names
    resolved by a dnsmasq of our own. Returns (exit status or None on
    timeout, seconds, store path, stderr tail)."""
    tmp = tempfile.mkdtemp(prefix="heed-load-")
    store = os.path.join(tmp, "heed.db")
    sites = srv.write_seeds(os.path.join(tmp, "sites.txt"))
    hosts = {name: [srv.address] for name in srv.names}
    with Dnsmasq(hosts=hosts) as dns:
        rc, err, took = run_heed_timed(
            "crawl", "--store", store, "--allow-private", "--dns-server",
            dns.server, *CONTACT, "--quiet", "--sites", sites,
            timeout=timeout)
    return rc, took, store, err[-2000:]


def store_records(store):
    """[(host, path, status)] of the pages table."""
    try:
        db = sqlite3.connect(f"file:{store}?mode=ro", uri=True, timeout=10)
        rows = db.execute("SELECT url, status FROM pages").fetchall()
        db.close()
    except sqlite3.Error as e:
        raise AssertionError(f"cannot read the store {store}: {e}")
    out = []
    for url, status in rows:
        u = urlsplit(url)
        out.append((u.hostname, u.path or "/", status))
    return out


def store_problems(srv, store):
    """Problems with what heed stored: a 5xx record, or a page (home or
    /p/N.html) without a 200 record."""
    recs = store_records(store)
    bad = [r for r in recs if r[2] is not None and 500 <= r[2] < 600]
    ok = {(h, p) for h, p, s in recs if s == 200}
    want = {(h, p) for h, p in srv.expected() if p != "/robots.txt"}
    missing = sorted(want - ok)
    print(f"  store: {len(recs)} records, {len(bad)} with 5xx, "
          f"{len(want) - len(missing)}/{len(want)} pages stored with 200",
          flush=True)
    problems = []
    if bad:
        problems.append(f"{len(bad)} records stored with a 5xx status "
                        f"(e.g. {bad[:3]}); 5xx pages must be retried")
    if missing:
        problems.append(f"{len(missing)} pages have no 200 record "
                        f"(e.g. {missing[:3]})")
    return problems


def report(title, srv, a, rc, took):
    print(f"{title}: heed exit {rc} after {took:.1f} s "
          f"(server at {srv.address}:{srv.port}, {len(srv.names)} sites x "
          f"{srv.pages} pages, {len(srv.expected())} URLs that exist)")
    print(summary(a), flush=True)


def fail_if(problems):
    if problems:
        raise AssertionError("\n    " + "\n    ".join(problems))


def check_struggling_small_shared_host():
    # 40 sites x 10 pages on one address; fast (20 ms) up to 2 requests in
    # flight, +150 ms per extra one, 503 beyond 6. The polite bound is 40
    # requests/s; at 20 ms that is under 1 request in flight on average,
    # so a crawler that keeps 2-3 in flight loses nothing.
    addr = "127.0.0.61"
    with LoadServer(addr, free_port(addr), sites=40, pages=10,
                    base_latency=0.02, knee=2, growth=0.15, refuse_above=6,
                    max_seconds=HEED_TIMEOUT + 30) as srv:
        rc, took, store, err = crawl(srv)
    a = analyse(srv.log(), expected=srv.expected())
    report("struggling", srv, a, rc, took)
    problems = promise_problems(a, rc, took, err)
    # Under 2 % of the requests refused. The server slows down 8x (170 ms)
    # at 3 in flight and 16x at 4, long before it refuses at 7: a crawler
    # that shrinks on slow answers measured against its fast baseline
    # stays under 7 and sees no 503 (the reference client: 0 %). One that
    # only reacts to 503s (or whose "usual time" follows the slowdown up)
    # saws between 3 and 7 and ends every cycle with a 503: about 5 %.
    if a["share_503"] >= 0.02:
        problems.append(f"503 share {a['share_503']:.1%} (want < 2 %)")
    problems += store_problems(srv, store)
    fail_if(problems)


def check_capacity_drop_mid_crawl():
    # Healthy at first (fast up to 8 in flight, 503 beyond 12), then 8 s
    # into the crawl the server shrinks: fast up to 1 in flight, 503
    # beyond 3. The crawler gets 5 s to notice (slower answers, then 503s)
    # and come down; over the requests that arrive after that:
    #  - under 3 % answered 503. An AIMD window (halve on a 503 or on an
    #    answer slower than twice the fast baseline, grow by one per round
    #    trip of good answers) settles at 1-2 in flight, where answers are
    #    20-170 ms, and is refused almost never (the reference client: 0 %
    #    after the 5 s, 4-7 % during them). A window that ignores the
    #    8-16x slowdown and only halves on 503s saws between 2 and 4 and
    #    is refused about once per cycle, 10-15 %; one still at 40 in
    #    flight gets over half refused;
    #  - at least 95 % arrive with at most refuse_above (3) in flight. In
    #    this server a request is refused exactly when it arrives above
    #    refuse_above, so this is the load side of the same figure; it is
    #    kept separate so that it still holds if the refusal rule changes.
    # At least 100 requests must arrive after that moment for the check to
    # mean something: 1 request/s/site makes the crawl last >= 17 s, so
    # >= 200 of the 720 requests come after 13 s.
    addr = "127.0.0.62"
    drop_at, settle = 8.0, 5.0
    after_refuse = 3
    with LoadServer(addr, free_port(addr), sites=40, pages=15,
                    base_latency=0.02, knee=8, growth=0.15, refuse_above=12,
                    schedule=[(drop_at, {"knee": 1,
                                         "refuse_above": after_refuse})],
                    max_seconds=HEED_TIMEOUT + 30) as srv:
        rc, took, store, err = crawl(srv)
    log = srv.log()
    a = analyse(log, expected=srv.expected())
    report("capacity drop", srv, a, rc, took)
    changes = srv.changes()
    problems = promise_problems(a, rc, took, err)
    if not changes:
        problems.append("the crawl ended before the capacity drop")
        fail_if(problems)
    dropped = changes[0][0]
    before = analyse(log, until=dropped)
    react = analyse(log, since=dropped, until=dropped + settle)
    after = analyse(log, since=dropped + settle)
    n = after["requests"]
    within = sum(1 for r in log if r["start"] >= dropped + settle
                 and r["inflight"] <= after_refuse)
    share_within = within / n if n else 0.0
    print(f"  before the drop: {before['requests']} requests, 503 share "
          f"{before['share_503']:.1%}, in flight peak "
          f"{before['inflight_peak']} mean {before['inflight_mean']:.2f}")
    print(f"  first {settle:.0f} s after it: {react['requests']} requests, "
          f"503 share {react['share_503']:.1%}, in flight peak "
          f"{react['inflight_peak']} mean {react['inflight_mean']:.2f}")
    print(f"  later: {n} requests, 503 share {after['share_503']:.1%}, "
          f"{share_within:.1%} arrived with <= {after_refuse} in flight, "
          f"in flight peak {after['inflight_peak']} mean "
          f"{after['inflight_mean']:.2f}, steady "
          f"{after['rate_steady']:.1f}/s", flush=True)
    if n < 100:
        problems.append(f"only {n} requests arrived more than {settle:.0f} "
                        "s after the drop: nothing to judge")
    else:
        if after["share_503"] >= 0.03:
            problems.append(f"503 share {after['share_503']:.1%} from "
                            f"{settle:.0f} s after the drop (want < 3 %)")
        if share_within < 0.95:
            problems.append(f"only {share_within:.1%} of the requests from "
                            f"{settle:.0f} s after the drop arrived with "
                            f"<= {after_refuse} in flight (want >= 95 %)")
    problems += store_problems(srv, store)
    fail_if(problems)


def check_roomy_front():
    # 200 sites x 10 pages behind a front that answers in 200 ms whatever
    # the load, up to 64 in flight. Each site allows 1 request/s, so the
    # polite bound is 200 requests/s (40 in flight at 200 ms). Over the
    # steady part of the crawl (from the moment 20 % of the requests were
    # answered to the moment 80 % were), heed must reach half of it: a
    # crawler that grows its window by one per round trip from 1 gets
    # there in about 4 s and passes 150/s before the 20 % mark.
    addr = "127.0.0.63"
    with LoadServer(addr, free_port(addr), sites=200, pages=10,
                    base_latency=0.2, growth=0.0, refuse_above=64,
                    max_seconds=HEED_TIMEOUT + 30) as srv:
        rc, took, store, err = crawl(srv)
    a = analyse(srv.log(), expected=srv.expected())
    report("roomy front", srv, a, rc, took)
    problems = promise_problems(a, rc, took, err)
    if a["rate_steady"] < 100:
        problems.append(f"steady pace {a['rate_steady']:.1f} requests/s "
                        "(want >= 100, half the polite bound of 200)")
    if a["status"].get(503):
        problems.append(f"{a['status'][503]} answers 503 (want none)")
    problems += store_problems(srv, store)
    fail_if(problems)


Checks().main([
    check_struggling_small_shared_host,
    check_capacity_drop_mid_crawl,
    check_roomy_front,
])
