"""heed's courtesy on a starved machine: the courtesy scenarios
with a CPU hog on every core and heed itself under `nice` at the hogs'
priority, judged from the servers' kernel receive stamps
(tests/integration/loadserver.py: SO_TIMESTAMPNS), never from heed.

The promise does not depend on the load: no two requests to one site
arrive less than 1 s apart as the server sees them (so at most one in any
second), whatever heed's CPU does, and every page is still fetched. Two
webs:

  shared        150 sites x 4 pages as name-based virtual hosts on ONE
                address (shared hosting, a CDN front)
  per-address   48 sites x 4 pages, each on its own address

Enough sites that heed has work every millisecond (about 150 requests a
second at full speed), so that the hogs really take CPU it wants. The
other courtesy tests (crawl_load, crawl_shared) run the same way with
HEED_TEST_STRESS=1 (heedtest.run_heed_timed).

The servers keep the normal priority (their stamps come from the kernel
anyway); heed and the hogs run at nice 10, so heed gets about a third of
the machine when it wants all of it.
"""

import os
import tempfile

from heedtest import Checks, Dnsmasq, free_port, run_heed_timed, scaled
from loadserver import LoadServer, analyse, promise_problems, summary

CONTACT = ["--contact-email", "ops@example.org"]
HEED_TIMEOUT = scaled(150)  # seconds per crawl; each needs about 10 unloaded


def starved_crawl(servers):
    """Runs heed crawl (default settings) under nice on every site of
    servers while a hog spins on every core. Returns (exit status or None
    on a time-out, seconds, stderr tail)."""
    tmp = tempfile.mkdtemp(prefix="heed-stress-")
    seeds = os.path.join(tmp, "sites.txt")
    with open(seeds, "w") as f:
        for srv in servers:
            f.write("".join(s + "\n" for s in srv.seeds()))
    hosts = {name: [srv.address] for srv in servers for name in srv.names}
    with Dnsmasq(hosts=hosts) as dns:
        rc, err, took = run_heed_timed(
            "crawl", "--store", os.path.join(tmp, "heed.db"),
            "--allow-private", "--dns-server", dns.server, *CONTACT,
            "--quiet", "--sites", seeds, timeout=HEED_TIMEOUT, stress=True)
    print(f"  heed exit {rc} after {took:.1f} s", flush=True)
    return rc, took, err[-2000:]


def web_problems(name, servers, rc, took, err):
    """The server-side figures of a web (every server's log together: the
    sites differ, so gaps are per site whatever the server), and what
    breaks the promise."""
    log = [r for srv in servers for r in srv.log()]
    expected = set().union(*(srv.expected() for srv in servers))
    a = analyse(log, expected=expected)
    print(f"{name} ({len(servers)} addresses): "
          + summary(a, inflight=len(servers) == 1), flush=True)
    return [f"{name}: {p}" for p in promise_problems(a, rc, took, err)]


def check_shared_address_starved():
    addr = "127.0.7.1"
    with LoadServer(addr, free_port(addr), sites=150, pages=4,
                    base_latency=0.02, max_seconds=HEED_TIMEOUT + 30) as srv:
        rc, took, err = starved_crawl([srv])
    problems = web_problems("shared", [srv], rc, took, err)
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
    problems = web_problems("per-address", servers, rc, took, err)
    if problems:
        raise AssertionError("\n    " + "\n    ".join(problems))


Checks().main([
    check_shared_address_starved,
    check_one_site_per_address_starved,
])
