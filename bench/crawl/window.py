#!/usr/bin/env python3
"""bench/crawl/window.py: heed's per-address window against servers of
known capacity: how fast it crawls, how many answers are 5xx,
and how many requests it keeps in flight against the range where the
server is fast.

Servers are tests/integration/loadserver.py (many name-based sites on one
loopback address; a request's start is the kernel's receive stamp, and the
server counts what is in flight at each arrival), names resolved by a
dnsmasq of the bench's own; heed runs with its default settings.

  small   --sites (40) x --pages (10) behind one small server: 20 ms while
          at most 2 requests are in flight, 150 ms more for each beyond,
          503 beyond 6 (the load test's "struggling" server). Its fast
          range is 1-2 in flight; the polite bound is one request per
          second per site, so the best crawl takes about pages + 2 s.
  roomy   --sites (200) x --pages (10) behind a front that answers in
          200 ms whatever the load, up to 64 in flight (503 beyond).
          Fast range: all 64.

Figures, from the server's log only: wall, pages/s (answers 200 over the
crawl's span), the steady pace (requests/s between 20 % and 80 % of
them), 5xx answers, in flight (time-weighted mean and peak), the share of
requests that arrived with the server in its fast range, and the same-site
gaps under 1 s with the shortest. `--stress` runs the same with a CPU hog
on every core and heed under nice 10 beside them (tests/integration/
cpuhogs.py). `--json` prints every figure as one JSON object.

    python3 bench/crawl/window.py [--server small|roomy|both] [--stress]
        [--heed build/heed] [--sites N] [--pages N] [--json]
"""
import argparse
import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "integration"))
import heedtest  # noqa: E402
from heedtest import Dnsmasq, free_port  # noqa: E402
from loadserver import LoadServer, analyse  # noqa: E402

SERVERS = {
    # name: (address, default sites, knobs, fast range: most in flight)
    "small": ("127.0.8.1", 40, {"base_latency": 0.02, "knee": 2,
                                "growth": 0.15, "refuse_above": 6}, 2),
    "roomy": ("127.0.8.2", 200, {"base_latency": 0.2, "growth": 0.0,
                                 "refuse_above": 64}, 64),
}


def crawl(a, srv, timeout):
    """heed crawl with default settings on every site of srv; (exit status
    or None on a time-out, stderr, seconds)."""
    tmp = tempfile.mkdtemp(prefix="heed-bench-window-")
    seeds = srv.write_seeds(os.path.join(tmp, "sites.txt"))
    with Dnsmasq(hosts={n: [srv.address] for n in srv.names}) as dns:
        return heedtest.run_heed_timed(
            "crawl", "--store", os.path.join(tmp, "heed.db"),
            "--allow-private", "--dns-server", dns.server,
            "--contact-email", "bench@example.org", "--quiet", "--sites",
            seeds, timeout=timeout, stress=a.stress)


def figures(name, fast, log, expected, rc, took):
    a = analyse(log, expected=expected)
    ok = sum(1 for r in log if r["status"] == 200)
    span = a["duration"] or 1e-9
    return {
        "server": name, "exit": rc, "wall_s": round(took, 2),
        "requests": a["requests"], "pages_200": ok,
        "pages_per_s": round(ok / span, 1),
        "steady_requests_per_s": round(a["rate_steady"], 1),
        "answers_5xx": sum(n for s, n in a["status"].items()
                           if s and 500 <= s < 600),
        "in_flight_mean": round(a["inflight_mean"], 2),
        "in_flight_peak": a["inflight_peak"],
        "fast_range": fast,
        "arrived_in_fast_range_pct": round(100 * sum(
            1 for r in log if r["inflight"] <= fast) / max(len(log), 1), 1),
        "gaps_under_1s": a["gaps_under"],
        "shortest_gap_s": round(a["gap_shortest"], 4),
        "coverage_pct": round(100 * a["coverage"], 1),
    }


def run(a, name, say):
    address, sites, knobs, fast = SERVERS[name]
    sites = a.sites or sites
    timeout = a.timeout
    with LoadServer(address, free_port(address), sites=sites,
                    pages=a.pages, max_seconds=timeout + 30,
                    **knobs) as srv:
        rc, _, took = crawl(a, srv, timeout)
    r = figures(name, fast, srv.log(), srv.expected(), rc, took)
    r.update(sites=sites, pages=a.pages, stress=a.stress)
    say("%s (%d sites x %d pages%s): heed exit %s after %.1f s; %.1f "
        "pages/s (steady %.1f requests/s); %d answers 5xx of %d; in "
        "flight mean %.2f, peak %d; %.1f %% arrived with <= %d in flight "
        "(the fast range); same-site gaps under 1 s: %d (shortest %.4f "
        "s); coverage %.1f %%" % (
            name, sites, a.pages, ", stress" if a.stress else "", rc,
            took, r["pages_per_s"], r["steady_requests_per_s"],
            r["answers_5xx"], r["requests"], r["in_flight_mean"],
            r["in_flight_peak"], r["arrived_in_fast_range_pct"], fast,
            r["gaps_under_1s"], r["shortest_gap_s"], r["coverage_pct"]))
    return r


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--server", choices=("small", "roomy", "both"),
                    default="both")
    ap.add_argument("--sites", type=int, default=0,
                    help="sites on the server (default: 40 small, 200 "
                    "roomy)")
    ap.add_argument("--pages", type=int, default=10)
    ap.add_argument("--heed", default=os.path.join(ROOT, "build", "heed"))
    ap.add_argument("--stress", action="store_true")
    ap.add_argument("--timeout", type=float, default=300,
                    help="seconds per crawl (then killed)")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    heedtest.HEED = a.heed
    say = (lambda m: print(m, file=sys.stderr)) if a.json else print
    names = ("small", "roomy") if a.server == "both" else (a.server,)
    runs = [run(a, n, say) for n in names]
    if a.json:
        print(json.dumps({"runs": runs}, indent=1))
    return 0 if all(r["exit"] == 0 for r in runs) else 1


if __name__ == "__main__":
    sys.exit(main())
