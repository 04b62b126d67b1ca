#!/usr/bin/env python3
"""The crawl's CPU guard: a small crawl bench that fails when heed's CPU per
1,000 pages has grown by more than half over a reference build of heed,
measured on the same machine in the same run.

    python3 bench/crawl/guard.py [--heed build/heed] [--work DIR]
                                 [--cc CC] [--buildtype TYPE]

It runs bench/crawl/bench.py on the shared web (SITES name-based sites on
one nginx address, PAGES pages each; default settings, SQLite store) and
reads the crawler's CPU seconds (user + system, os.wait4) per 1,000 pages
stored. CPU seconds, not wall time: a busy machine makes a crawl slower,
not costlier, so the guard holds on a loaded CI machine too. The run
must also be whole and polite, from nginx's log: every page stored, no
two requests to one site under 1 s apart, no URL asked twice; a crawl
that cuts those corners is not a cheaper crawl.

What the figure is compared with. A figure recorded on one machine says
little of another: the same crawl cost 0.55-0.60 CPU-s per 1,000 pages on
one development machine and 0.27-0.29 on the next, so a limit recorded
on the first let the second grow threefold unseen. So the guard builds
heed at the commit guard.json names (`git archive` of this clone, into
--work, kept there for the next run) with the same compiler and build
type, crawls the same web with it, and compares the two, each the lower
of two runs when the first pair disagrees by more than the margin. Where
the reference cannot be built (no git, a clone without that commit), it
falls back to the figure recorded in guard.json, and says so.

A change that costs more on purpose moves guard.json's reference commit
(and its figure) in the same commit, with the reason. The guard runs in
the plain build's test suite only: a sanitizer's CPU says nothing of
heed's. Exit 0 on pass, 1 on a failure, with one line per check and a
closing "N passed, N failed" line.
"""

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
RECORD = os.path.join(HERE, "guard.json")
# How far over the reference a run may come: CPU per page moves a little
# from run to run (caches, the machine's other work), a regression a lot.
ALLOWED = 1.5


# Not bench.py's default address and port, which a bench run by hand at
# the same time would hold: its nginx would answer this crawl.
ADDRESS = "127.0.0.47"


def free_port(address):
    with socket.socket() as s:
        s.bind((address, 0))
        return s.getsockname()[1]


def crawl(record, heed):
    """One bench run of heed over the guard's web: bench.py's figures of
    it, or None."""
    argv = [sys.executable, os.path.join(HERE, "bench.py"), "--web",
            "shared", "--sites", str(record["sites"]), "--pages",
            str(record["pages"]), "--heed", heed, "--timeout", "600",
            "--address", ADDRESS, "--port", str(free_port(ADDRESS)),
            "--json"]
    out = subprocess.run(argv, stdout=subprocess.PIPE, text=True,
                         timeout=900)
    try:  # bench.py exits 1 for a run it judges bad, with its figures
        return json.loads(out.stdout)["runs"][0]
    except (ValueError, KeyError, IndexError):
        print(f"bench.py gave no figures for {heed} (exit "
              f"{out.returncode})")
        return None


def quiet(argv, **kw):
    return subprocess.run(argv, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True, **kw)


def reference_heed(commit, work, cc, buildtype):
    """heed built at commit under work (reused when already there), or
    (None, why not)."""
    if not shutil.which("git"):
        return None, "git is not installed"
    if quiet(["git", "-C", ROOT, "cat-file", "-e",
              commit + "^{commit}"]).returncode != 0:
        return None, f"this clone does not hold commit {commit}"
    tree = os.path.join(work, commit)
    build = os.path.join(tree, "build")
    exe = os.path.join(build, "heed")
    if os.path.exists(exe):
        return exe, None
    shutil.rmtree(tree, ignore_errors=True)
    os.makedirs(tree)
    archive = subprocess.run(["git", "-C", ROOT, "archive", "--format=tar",
                              commit], stdout=subprocess.PIPE)
    env = dict(os.environ, CC=cc) if cc else None
    steps = [
        (["tar", "-xf", "-", "-C", tree], {"input": archive.stdout}),
        (["meson", "setup", build, tree, "--buildtype", buildtype,
          "-Dtests=false"], {"env": env}),
        (["ninja", "-C", build, "heed"], {}),
    ]
    if archive.returncode != 0:
        return None, f"git archive {commit} failed"
    for argv, kw in steps:
        done = subprocess.run(argv, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, **kw)
        if done.returncode != 0:
            err = done.stderr.decode(errors="replace").strip()
            return None, f"{argv[0]} failed: {err[-300:]}"
    return exe, None


def cpu(run):
    return run["cpu_s_per_1000_pages"] if run else None


def measure(record, heed, ref):
    """heed's runs and the reference's, alternated: one pair, and a second
    when the first is over the margin (a noisy run, or a real cost),
    each side's lowest CPU counting."""
    runs, refs = [], []
    for _ in range(2):
        if ref:
            refs.append(crawl(record, ref))
        runs.append(crawl(record, heed))
        if None in runs + refs:
            break
        base = min(map(cpu, refs)) if ref else \
            record["cpu_s_per_1000_pages"]
        if min(map(cpu, runs)) <= base * ALLOWED:
            break
    return runs, refs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--heed", default=os.path.join(ROOT, "build", "heed"))
    ap.add_argument("--work", default=os.path.join(ROOT, "build",
                                                   "guard-reference"),
                    help="where the reference build is made and kept")
    ap.add_argument("--cc", default="",
                    help="the compiler of the reference build (CC)")
    ap.add_argument("--buildtype", default="debugoptimized")
    a = ap.parse_args()
    with open(RECORD) as f:
        record = json.load(f)
    commit = record["commit"]
    ref, why_not = reference_heed(commit, a.work, a.cc, a.buildtype)
    runs, refs = measure(record, a.heed, ref)
    if None in runs + refs:
        print("0 passed, 1 failed")
        return 1
    run = min(runs, key=cpu)
    if ref:
        base = min(map(cpu, refs))
        said = (f"{ALLOWED} x the {base:.3f} s of heed at {commit}, built "
                f"and run here: runs "
                f"{', '.join(str(cpu(r)) for r in refs)}")
    else:
        base = record["cpu_s_per_1000_pages"]
        said = (f"{ALLOWED} x the {base} s guard.json records, since "
                f"there is no reference build: {why_not}")
    log = run["log"]
    limit = base * ALLOWED
    checks = [
        ("heed exited 0", all(r["exit"] == 0 and not r["timed_out"]
                              for r in runs),
         ", ".join(f"exit {r['exit']}" for r in runs)),
        ("every page stored", all(r["coverage_pct"] == 100.0
                                  for r in runs),
         ", ".join(f"{r['coverage_pct']} %" for r in runs)),
        ("no same-site gap under 1 s (nginx's log)",
         all(r["log"]["gaps_under_1s"] == 0 for r in runs),
         f"{log['gaps_under_1s']} of {log['gaps']}, shortest "
         f"{log['shortest_gap_s']} s"),
        ("no URL asked twice (nginx's log)",
         all(r["log"]["urls_asked_again"] == 0 for r in runs),
         f"{log['urls_asked_again']}"),
        # The index is caught up with off the page's write path: the
        # crawl must still leave every page searchable when it ends.
        ("every stored page in the search index when the crawl ends",
         all(r.get("store_indexed") == r["store_rows"]
             and r.get("store_index_waiting") == 0 for r in runs),
         f"{run.get('store_indexed')} of {run['store_rows']}, "
         f"{run.get('store_index_waiting')} waiting"),
        (f"CPU per 1,000 pages at most {limit:.3f} s ({said})",
         cpu(run) <= limit,
         ", ".join(f"{cpu(r):.3f} s" for r in runs)),
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
