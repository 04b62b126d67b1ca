"""heed's courtesy on a starved machine (issue 26): the courtesy scenarios
with a CPU hog on every core and heed itself under `nice` at the hogs'
priority, judged from the servers' kernel receive stamps
(tests/integration/loadserver.py: SO_TIMESTAMPNS), never from heed.

The promise does not depend on the load: no two requests to one site
arrive less than 1 s apart as the server sees them, none while another
to it is in flight (at most one per 1 s window), whatever heed's CPU does.
Two webs:

  shared        150 sites x 4 pages as name-based virtual hosts on ONE
                address (shared hosting, a CDN front)
  per-address   48 sites x 4 pages, each on its own address

Enough sites that heed has work every millisecond (about 150 requests a
second at full speed), so that the hogs really take CPU it wants.

The servers keep the normal priority (their stamps come from the kernel
anyway); heed and the hogs run at nice 10, so heed gets about a third of
the machine when it wants all of it.
"""

import os
import subprocess
import tempfile
import time

from cpuhogs import CpuHogs
from heedtest import HEED, Checks, Dnsmasq, free_port
from loadserver import LoadServer, analyse, summary

CONTACT = ["--contact-email", "ops@example.org"]
NICE = 10
HEED_TIMEOUT = 150  # seconds per crawl; each needs about 10 unloaded


def starved_crawl(servers):
    """Runs heed crawl (default settings) under nice on every site of
    servers while a hog spins on every core. Returns (exit status or None
    on a time-out, seconds, stderr tail)."""
    tmp = tempfile.mkdtemp(prefix="heed-stress-")
    store = os.path.join(tmp, "heed.db")
    seeds = os.path.join(tmp, "sites.txt")
    with open(seeds, "w") as f:
        for srv in servers:
            f.write("".join(s + "\n" for s in srv.seeds()))
    hosts = {name: [srv.address] for srv in servers for name in srv.names}
    argv = ["nice", "-n", str(NICE), HEED, "crawl", "--store", store,
            "--allow-private", *CONTACT, "--quiet", "--sites", seeds]
    with Dnsmasq(hosts=hosts) as dns, \
            CpuHogs(nice=NICE, seconds=HEED_TIMEOUT + 30) as hogs:
        argv[argv.index("--sites"):argv.index("--sites")] = [
            "--dns-server", dns.server]
        t = time.monotonic()
        try:
            proc = subprocess.run(argv, capture_output=True, text=True,
                                  timeout=HEED_TIMEOUT)
            rc, err = proc.returncode, proc.stderr
        except subprocess.TimeoutExpired as e:
            rc = None
            err = e.stderr.decode(errors="replace") if isinstance(
                e.stderr, bytes) else (e.stderr or "")
        took = time.monotonic() - t
        spinning = hogs.alive()
    print(f"  heed under nice {NICE} beside {spinning} hogs: exit {rc} "
          f"after {took:.1f} s", flush=True)
    return rc, took, err[-2000:]


def courtesy_problems(name, servers, rc, took, err):
    """The server-side figures of a web (every server's log together: the
    sites differ, so gaps are per site whatever the server), and what
    breaks the promise: a same-site gap under 1 s, two requests to a site
    within one second, a page never answered, or heed failing."""
    problems = []
    if rc != 0:
        problems.append(f"{name}: heed exit {rc} after {took:.0f} s"
                        + (f"; stderr: {err.strip()[-300:]}"
                           if err.strip() else ""))
    log = [r for srv in servers for r in srv.log()]
    expected = set().union(*(srv.expected() for srv in servers))
    a = analyse(log, expected=expected)
    print(f"{name} ({len(servers)} addresses): "
          + summary(a, inflight=len(servers) == 1), flush=True)
    if a["gaps_under"]:
        problems.append(
            f"{name}: {a['gaps_under']} same-site gaps under 1 s on "
            f"{len(a['gap_sites'])} sites, shortest {a['gap_shortest']:.4f}"
            f" s (e.g. {a['gaps_short'][:3]})")
    if a["max_per_window"] > 1:
        problems.append(f"{name}: {a['max_per_window']} requests to one "
                        "site within 1 s")
    if a["coverage"] < 1:
        problems.append(f"{name}: coverage {a['coverage']:.1%} (e.g. "
                        f"{a['missing'][:3]})")
    return problems


def check_shared_address_starved():
    addr = "127.0.7.1"
    with LoadServer(addr, free_port(addr), sites=150, pages=4,
                    base_latency=0.02, max_seconds=HEED_TIMEOUT + 30) as srv:
        rc, took, err = starved_crawl([srv])
    problems = courtesy_problems("shared", [srv], rc, took, err)
    if problems:
        raise AssertionError("\n    " + "\n    ".join(problems))


def check_one_site_per_address_starved():
    servers = []
    try:
        for i in range(48):
            addr = f"127.0.7.{10 + i}"
            servers.append(LoadServer(
                addr, free_port(addr), sites=1, pages=4, base_latency=0.02,
                max_seconds=HEED_TIMEOUT + 30,
                domain=f"a{i}.load.test").start())
        rc, took, err = starved_crawl(servers)
    finally:
        for srv in servers:
            srv.close()
    problems = courtesy_problems("per-address", servers, rc, took, err)
    if problems:
        raise AssertionError("\n    " + "\n    ".join(problems))


Checks().main([
    check_shared_address_starved,
    check_one_site_per_address_starved,
])
