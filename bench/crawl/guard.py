#!/usr/bin/env python3
"""The crawl's CPU guard: a small crawl bench that fails when heed's CPU per
1,000 pages has grown past the figure recorded in bench/crawl/guard.json
by more than half.

    python3 bench/crawl/guard.py [--heed build/heed]

It runs bench/crawl/bench.py on the shared web (SITES name-based sites on
one nginx address, PAGES pages each; default settings, SQLite store) and
reads the crawler's CPU seconds (user + system, os.wait4) per 1,000 pages
stored. CPU seconds, not wall time: a busy machine makes a crawl slower,
not costlier, so the guard holds on a loaded CI machine too. The run
must also be whole and polite, from nginx's log: every page stored, no
two requests to one site under 1 s apart, no URL asked twice; a crawl
that cuts those corners is not a cheaper crawl.

A change that costs more on purpose updates guard.json in the same commit
(the figure, the commit it was measured on, and why). The guard runs in
the plain build's test suite only: a sanitizer's CPU says nothing of
heed's. Exit 0 on pass, 1 on a failure, with one line per check and a
closing "N passed, N failed" line.
"""

import argparse
import json
import os
import socket
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
RECORD = os.path.join(HERE, "guard.json")
# How far over the recorded figure a run may come: CPU per page moves a
# little with the machine (caches, frequency), a regression moves it a lot.
ALLOWED = 1.5


# Not bench.py's default address and port, which a bench run by hand at
# the same time would hold: its nginx would answer this crawl.
ADDRESS = "127.0.0.47"


def free_port(address):
    with socket.socket() as s:
        s.bind((address, 0))
        return s.getsockname()[1]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--heed", default=os.path.join(ROOT, "build", "heed"))
    a = ap.parse_args()
    with open(RECORD) as f:
        record = json.load(f)
    argv = [sys.executable, os.path.join(HERE, "bench.py"), "--web",
            "shared", "--sites", str(record["sites"]), "--pages",
            str(record["pages"]), "--heed", a.heed, "--timeout", "600",
            "--address", ADDRESS, "--port", str(free_port(ADDRESS)),
            "--json"]
    out = subprocess.run(argv, stdout=subprocess.PIPE, text=True,
                         timeout=900)
    try:  # bench.py exits 1 for a run it judges bad, with its figures
        run = json.loads(out.stdout)["runs"][0]
    except (ValueError, KeyError, IndexError):
        print(f"bench.py gave no figures (exit {out.returncode})")
        print("0 passed, 1 failed")
        return 1
    log = run["log"]
    cpu = run["cpu_s_per_1000_pages"]
    limit = record["cpu_s_per_1000_pages"] * ALLOWED
    checks = [
        ("heed exited 0", run["exit"] == 0 and not run["timed_out"],
         f"exit {run['exit']}"),
        ("every page stored", run["coverage_pct"] == 100.0,
         f"{run['coverage_pct']} %"),
        ("no same-site gap under 1 s (nginx's log)",
         log["gaps_under_1s"] == 0,
         f"{log['gaps_under_1s']} of {log['gaps']}, shortest "
         f"{log['shortest_gap_s']} s"),
        ("no URL asked twice (nginx's log)", log["urls_asked_again"] == 0,
         f"{log['urls_asked_again']}"),
        # The index is caught up with off the page's write path: the
        # crawl must still leave every page searchable when it ends.
        ("every stored page in the search index when the crawl ends",
         run.get("store_indexed") == run["store_rows"]
         and run.get("store_index_waiting") == 0,
         f"{run.get('store_indexed')} of {run['store_rows']}, "
         f"{run.get('store_index_waiting')} waiting"),
        (f"CPU per 1,000 pages at most {limit:.3f} s ({ALLOWED} x the "
         f"{record['cpu_s_per_1000_pages']} s recorded at "
         f"{record['commit']})", cpu <= limit, f"{cpu:.3f} s"),
    ]
    failed = 0
    for name, ok, got in checks:
        print(f"{'ok  ' if ok else 'FAIL'} {name}: {got}")
        failed += not ok
    print(f"  ({run['pages_stored']} pages in {run['wall_s']} s wall, "
          f"{run['cpu_s']} s CPU, peak RSS {run['peak_rss_mb']} MB)")
    print(f"{len(checks) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
