"""A network partition between one `heed crawl --worker` and PostgreSQL,
longer than a lease: the cut-off worker (the victim) must stop
fetching a site before its lease ends, the other worker takes the site
over after the lease end, and no site owner sees two requests less than a
second apart.

Two workers share one PostgreSQL store (the options of crawl_workers:
--lease 6s, net.connect_timeout_ms=2000); the victim reaches PostgreSQL
through a TCP proxy of the test's own (PartitionProxy, on loopback), the
other worker directly. The web: 60 sites of a home page and 6 pages (plus
robots.txt with one Disallow), 56 on ONE loopback address told apart by
the Host header and 4 each alone on its own 127.x address, one real nginx
(heedtest.VirtualHostNginx), names resolved by a dnsmasq of the test's
own. Once nginx's log shows the victim fetching (PARTITION_AFTER pages),
the proxy cuts it off for PARTITION_S seconds (longer than a lease), in
one of two ways, one run each, on a fresh database and a fresh nginx log:

1. silent: the proxy stops forwarding in both directions without closing
   anything (bytes are held, not delivered, new connections are accepted
   and held too); then it forwards again, the held bytes delivered, the
   connections kept;
2. cut: the proxy resets the victim's connections and refuses new ones
   (its listening socket closed); then listens again on the same port and
   the victim reconnects with back-off.

Asserted, from nginx's log (crawl_shared's measure, see
heedtest.VirtualHostNginx): no same-site gap under 1 s at any time, in
particular across each takeover; on every host the survivor took over,
every request of the victim comes before the survivor's first, and none
starts after the partition began + the lease (its lease ended by then at
the latest); the victim starts no request at all between that and the end
of the partition; every page answered, nothing disallowed asked, pages
asked twice only on sites the victim held and at most one a site (what it
had fetched but not stored). From PostgreSQL: every page stored exactly
once. From the workers: both exit 0, the survivor reports takeovers, and
the victim's stderr says "lease lost" after the partition began.

When it was written (main at 0699ecb, then 6ba9b48) the silent run failed
every time (18 of 18) and the cut run about half the time (at 6ba9b48: 1
of 6), for causes in src/crawl and the store:
- after a silent partition, the victim's held batch, delivered late,
  queues URLs of hosts the survivor then hands back idle (lease row with
  next_allowed_at = wanted_at = idle): nobody claims them, both workers
  exit 0 with "N URLs left in the queue" (check_every_site_whole,
  check_stored_once);
- the victim sends requests it decided under its lost lease right after
  the partition ends, 0-0.9 s from the new holder's (check_gaps,
  check_takeover_gaps, check_victim_within_lease), in both variants;
- the held transaction meets the survivor's in a PostgreSQL deadlock, and
  the worker whose statement was chosen exits 1 with "current transaction
  is aborted" (check_workers_finished); once the other was then still
  running at the run's 45 s bound.
Fixed since (one commit each): a request carries its lease end
to libcurl and is not sent after it (send_by_ms, HEED_NET_NOT_SENT); a
batch commits only for hosts its worker still holds (heed_store_lease_hold,
the rows locked FOR SHARE until the commit), else it is redone; a deadlock
is redone, not fatal; a worker lets a lost host go once nothing of it is in
flight. Both variants then passed 3 runs of 3.
"""

import contextlib
import os
import select
import shutil
import socket
import struct
import sys
import tempfile
import threading
import time
from collections import Counter
from urllib.parse import urlsplit

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from pgcluster import PgCluster  # noqa: E402
from heedtest import (Checks, Dnsmasq, VirtualHostNginx,  # noqa: E402
                      free_port_on, scaled)
from loadserver import analyse, site_names, summary, write_sites  # noqa: E402
# The web, the workers and the measures of crawl_workers; its checks that
# read only a run's figures serve here as they are. Those that read its
# own web (its module's names and addresses) are wrapped below.
from test_crawl_workers import (  # noqa: E402
    LEASE, VICTIM, Worker, check_claims_reported,
    check_disallowed_never_asked, check_every_site_whole, check_gaps,
    check_refetches_bounded, check_workers_finished, stored_pages,
    takeover_gaps, worker_argv, worker_of)

SHARED = "127.0.24.1"
ALONE = [f"127.0.24.{11 + i}" for i in range(4)]
SHARED_SITES = 56
PAGES = 6
DISALLOW = "/private/"
SURVIVOR = "w1"
LEASE_S = float(LEASE.rstrip("s"))
PARTITION_S = 10.0  # longer than a lease
# Pages (robots.txt aside) nginx has answered the victim before the
# partition: it holds its share of sites, with most of their pages still
# to fetch (each site has 7, fetched one a second).
PARTITION_AFTER = 20
RUN_TIMEOUT = scaled(45)  # seconds for one crawl; each needs 20 to 45

shared_names = site_names(SHARED_SITES, "partition.test")
alone_names = site_names(len(ALONE), "alone-partition.test")
names = shared_names + alone_names
address_of = dict({h: SHARED for h in shared_names},
                  **{h: a for h, a in zip(alone_names, ALONE)})
PAGE_PATHS = ["/"] + [f"/p/{i}.html" for i in range(PAGES)]
expected = {(h, p) for h in names for p in ["/robots.txt"] + PAGE_PATHS}


class PartitionProxy:
    """A TCP proxy on 127.0.0.1 to one upstream port, one thread a
    direction a connection. hold() stops forwarding without closing
    anything (what is read is held until release()); cut() resets every
    connection and closes the listening socket, so that connecting is
    refused; release() forwards again (after cut(), listens again on the
    same port). stop() ends it all. Every wait is bounded."""

    def __init__(self, upstream_port):
        self.upstream = ("127.0.0.1", upstream_port)
        self.flowing = threading.Event()
        self.flowing.set()
        self.done = threading.Event()
        self.lock = threading.Lock()
        self.conns = []  # (client, server) sockets
        self.accepted = 0
        self.listener = self._listen(0)
        self.port = self.listener.getsockname()[1]
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _listen(self, port):
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("127.0.0.1", port))
        s.listen(64)
        s.settimeout(0.1)
        return s

    def _accept(self):
        while not self.done.is_set():
            listener = self.listener
            if listener is None:
                time.sleep(0.05)
                continue
            try:
                client, _ = listener.accept()
            except (socket.timeout, OSError):
                continue
            try:
                server = socket.create_connection(self.upstream, timeout=5)
            except OSError:
                client.close()
                continue
            with self.lock:
                self.conns.append((client, server))
                self.accepted += 1
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(a, b),
                                 daemon=True).start()

    def _pump(self, src, dst):
        """Copies src to dst; while held, what it read waits here."""
        try:
            while not self.done.is_set():
                try:
                    ready, _, _ = select.select([src], [], [], 0.1)
                except ValueError:  # cut() closed it
                    break
                if not ready:
                    continue
                data = src.recv(65536)
                if not data:
                    break
                while not self.flowing.wait(0.1):
                    if self.done.is_set():
                        return
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)

    def hold(self):
        self.flowing.clear()

    def cut(self):
        """Resets the victim's connections (SO_LINGER 0: an RST, not a
        FIN) and refuses new ones."""
        self.flowing.clear()
        with self.lock:
            listener, self.listener = self.listener, None
            conns, self.conns = self.conns, []
        listener.close()
        for pair in conns:
            for s in pair:
                with contextlib.suppress(OSError):
                    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                 struct.pack("ii", 1, 0))
                    s.close()

    def release(self):
        if self.listener is None:
            for _ in range(50):  # the port was ours a moment ago
                try:
                    self.listener = self._listen(self.port)
                    break
                except OSError:
                    time.sleep(0.1)
            else:
                raise RuntimeError(f"cannot listen on {self.port} again")
        self.flowing.set()

    def stop(self):
        self.done.set()
        self.flowing.set()
        self.thread.join(2)
        with self.lock:
            if self.listener is not None:
                self.listener.close()
            for pair in self.conns:
                for s in pair:
                    s.close()


def lease_holders(pg, database):
    """{host: holder} of the lease rows (a lease names its site by host,
    or by origin as the first leases did)."""
    out = {}
    for line in pg.psql("SELECT site, holder FROM site_leases;",
                        database=database).splitlines():
        if "|" in line:
            site, holder = line.split("|", 1)
            out[urlsplit(site if "://" in site else "//" + site)
                .hostname] = holder.strip()
    return out


def crawl(pg, database, dns, www, how, tmp):
    """One crawl of the two workers, the victim through a PartitionProxy
    cut off as `how` says ("hold" or "cut") once nginx has answered it
    PARTITION_AFTER pages. Returns what the checks need."""
    pg.psql(f"CREATE DATABASE {database};")
    store = pg.url.rsplit("/", 1)[0] + "/" + database
    folder = os.path.join(tmp, database)
    os.mkdir(folder)
    port = free_port_on([SHARED] + ALONE)
    seeds = os.path.join(folder, "sites.txt")
    with open(seeds, "w") as f:
        f.write("".join(f"http://{h}:{port}/\n" for h in names))
    run = {"database": database, "how": how, "port": port, "folder": folder,
           "killed_at": None, "timeout": RUN_TIMEOUT}
    proxy = PartitionProxy(pg.port)
    via_proxy = store.replace(f":{pg.port}/", f":{proxy.port}/")
    assert via_proxy != store
    with contextlib.ExitStack() as stack:
        stack.callback(proxy.stop)
        nginx = stack.enter_context(VirtualHostNginx(
            [SHARED] + ALONE, port, www, RUN_TIMEOUT + 60))
        t0 = time.monotonic()
        deadline = t0 + RUN_TIMEOUT
        workers = [Worker(VICTIM, worker_argv(VICTIM, via_proxy, dns.server,
                                              seeds), folder),
                   Worker(SURVIVOR, worker_argv(SURVIVOR, store, dns.server,
                                                seeds), folder)]
        for w in workers:  # what the wait left running, on any way out
            stack.callback(w.stop)
        run.update(partition(pg, database, nginx, proxy, workers[0], how,
                             deadline))
        for w in workers:
            w.wait(deadline)
        run["wall"] = time.monotonic() - t0
        run["log"] = nginx.access()
        for k in ("began", "ended"):  # on the log's time base
            if run.get(k) is not None:
                run[k] -= nginx.base or 0
    run["workers"] = workers
    run["pages"] = stored_pages(pg, database)
    run["leases_after"] = pg.psql(
        "SELECT site, holder, token, lease_until, next_allowed_at, wanted_at"
        " FROM site_leases ORDER BY site;", database=database)
    run["queue_after"] = pg.psql(
        "SELECT url, state, tries FROM frontier ORDER BY url;",
        database=database).split()
    return run


def partition(pg, database, nginx, proxy, victim, how, deadline):
    """Waits (polling nginx's log every 50 ms, until deadline) for the
    victim's PARTITION_AFTER pages, then cuts it off for PARTITION_S."""
    mine = 0
    while time.monotonic() < deadline and victim.proc.poll() is None:
        mine = sum(1 for e in nginx.access()
                   if worker_of(e) == VICTIM and e["path"] in PAGE_PATHS)
        if mine >= PARTITION_AFTER:
            break
        time.sleep(0.05)
    if victim.proc.poll() is not None or mine < PARTITION_AFTER:
        return {"partition_error": f"{VICTIM} ended (exit "
                f"{victim.proc.returncode}) or timed out before the "
                f"partition, after {mine} page requests"}
    err_at = os.path.getsize(victim.err_path)
    began = time.time()
    proxy.hold() if how == "hold" else proxy.cut()
    # Which hosts the victim held as it was cut off, read directly.
    held = sorted(h for h, who in lease_holders(pg, database).items()
                  if who == VICTIM)
    time.sleep(max(0.0, began + PARTITION_S - time.time()))
    ended = time.time()
    proxy.release()
    return {"began": began, "ended": ended, "err_at": err_at,
            "held_at_kill": held, "victim_pages_before": mine,
            "connections": proxy.accepted}


def taken_over(w):
    """The hosts a worker's stderr says it took over from the victim."""
    mark = f": taken over from {VICTIM}, whose lease expired"
    return sorted({ln.split(mark)[0].split()[-1]
                   for ln in w.stderr().splitlines() if mark in ln})


def figures(run):
    log = run["log"]
    a = analyse(log, expected=expected)
    asked = Counter((e["host"], e["path"]) for e in log)
    run["a"] = a
    run["twice"] = sorted(k for k, n in asked.items()
                          if n > 1 and k[1] != "/robots.txt")
    run["disallowed"] = [e for e in log if e["path"].startswith(DISALLOW)]
    run["by_worker"] = Counter(worker_of(e) for e in log)
    victim, survivor = run["workers"]
    run["taken"] = taken_over(survivor)
    run["lease_lost"] = [ln for ln in victim.stderr()[run.get("err_at", 0):]
                         .splitlines() if "lease lost" in ln]
    print(f"run {run['database']} ({run['how']}): {len(names)} sites x "
          f"{len(PAGE_PATHS)} pages ({SHARED_SITES} on {SHARED}, "
          f"{len(ALONE)} alone), port {run['port']}, wall "
          f"{run['wall']:.1f} s")
    if run.get("partition_error"):
        print(f"  {run['partition_error']}")
    print(summary(a, inflight=False))
    print(f"  requests per worker (User-Agent): "
          f"{dict(sorted(run['by_worker'].items(), key=str))}")
    for w in run["workers"]:
        c = w.counts()
        print(f"  {w.name}: exit {w.rc}; " + (
            f"{c[0]} claims, {c[1]} sites claimed ({c[2]} taken over), "
            f"{c[3]} released, {c[4]} lost" if c else "no worker line"))
    if run.get("began") is None:
        return
    began, ended = run["began"], run["ended"]
    after = [e for e in log if worker_of(e) == VICTIM and e["start"] >= ended]
    during = [e for e in log if worker_of(e) == VICTIM
              and began <= e["start"] < ended]
    print(f"  partition ({run['how']}) from {began:.2f} s to {ended:.2f} s "
          f"(log time), after {run['victim_pages_before']} victim pages; "
          f"{VICTIM} held {len(run['held_at_kill'])} sites; proxy "
          f"connections accepted: {run['connections']}")
    print(f"  {VICTIM}'s requests: {len(during)} during the partition (last "
          f"at {max((e['start'] for e in during), default=float('nan')):.2f}"
          f" s), {len(after)} after it; 'lease lost' lines after it began: "
          f"{len(run['lease_lost'])}")
    print(f"  {SURVIVOR} took over {len(run['taken'])} sites from {VICTIM}; "
          f"pages asked twice: {len(run['twice'])}")
    gaps = takeover_gaps(run)
    sel = [g for h, g in gaps.items() if h in run["taken"]]
    if sel:
        print(f"  across the takeovers: from {VICTIM}'s last request to "
              f"{SURVIVOR}'s first on {len(sel)} sites, shortest "
              f"{min(sel):.3f} s, longest {max(sel):.3f} s")
    if a["coverage"] < 1:
        hosts = sorted({h for h, _ in a["missing"]})
        rows = [ln for ln in run["leases_after"].splitlines()
                if any(h in ln for h in hosts)]
        left = [r for r in run["queue_after"] if any(h in r for h in hosts)]
        print(f"  pages never asked on {len(hosts)} sites: {hosts}; their "
              f"frontier rows (url|state|tries): {left[:8]}; their lease "
              f"rows (site|"
              f"holder|token|lease_until|next_allowed_at|wanted_at), at "
              f"the end: {rows[:6]}")
        firsts = {h: [(e["start"], e["path"], worker_of(e)) for e in log
                      if e["host"] == h] for h in hosts[:3]}
        print(f"  their requests: {firsts}")
    tail = sorted(log, key=lambda e: e["start"])[-3:]
    print(f"  last requests: {[(e['start'], e['host'], e['path'], worker_of(e)) for e in tail]}")
    pages = run["pages"]
    print(f"  store: {len(pages)} pages, "
          f"{sum(1 for v in pages.values() if len(v) > 1)} stored twice",
          flush=True)
    # The victim's own account of the partition, for a failure's report
    # (its log lines carry no time: the order is what they show).
    said = [ln for ln in victim.stderr()[run.get("err_at", 0):].splitlines()
            if "lease lost" not in ln]
    print(f"  {VICTIM}'s stderr since the partition began "
          f"({len(run['lease_lost'])} 'lease lost' lines left out):")
    for ln in said[-40:]:
        print(f"    {ln}")
    said = [ln for ln in survivor.stderr().splitlines()
            if "taken over from" not in ln]
    print(f"  {SURVIVOR}'s stderr, takeovers left out:")
    for ln in said[-20:]:
        print(f"    {ln}")


# ----- the checks of a partition ---------------------------------------

def check_partitioned(run):
    assert not run.get("partition_error"), run["partition_error"]
    assert run["held_at_kill"], f"{VICTIM} held no site when cut off"
    late = [e for e in run["log"] if e["start"] > run["ended"] + 1]
    assert late, "nothing fetched after the partition: not mid-run"


def check_victim_within_lease(run):
    """The victim's leases ended by began + LEASE_S at the latest (it could
    renew nothing after began): no request of it starts from then until
    the partition's end, on any host. Later on, it may hold a host the
    survivor took over again, under a new lease, once the survivor handed
    it back (a hand-off, fair when its gaps are: check_gaps); what it may
    not do is fetch from what it had decided under the lost lease: so on
    such a host, no URL asked by the survivor since the partition began is
    asked by the victim from began + LEASE_S on, or the other way round."""
    lease_end = run["began"] + LEASE_S
    bad = [(e["host"], e["start"], e["path"]) for e in run["log"]
           if worker_of(e) == VICTIM and lease_end <= e["start"]
           < run["ended"]]
    assert not bad, (f"{len(bad)} requests of {VICTIM} after its leases "
                     f"ended ({lease_end:.3f} s) while cut off: {bad[:5]}")
    both = []
    for host in run["taken"]:
        mine = [e for e in run["log"] if e["host"] == host]
        late = [e for e in mine
                if worker_of(e) == VICTIM and e["start"] >= lease_end]
        new = [e for e in mine
               if worker_of(e) == SURVIVOR and e["start"] >= run["began"]]
        # Asked again a lease or more later is a hand-off's in-flight
        # recovery (a holder that died or handed back), not a breach.
        same = sorted({a["path"] for a in late for b in new
                       if a["path"] == b["path"]
                       and abs(a["start"] - b["start"]) < LEASE_S})
        if same:
            both.append((host, same, who_fetched_all(run, host)))
    assert not both, (
        f"on {len(both)} sites {SURVIVOR} took over, {VICTIM} asked after "
        f"its lease ended ({lease_end:.3f} s; partition {run['began']:.3f}-"
        f"{run['ended']:.3f} s) what {SURVIVOR} asked as the new holder: "
        f"{both[:3]}")


def who_fetched_all(run, host):
    return [(e["start"], e["path"], worker_of(e), e["status"], e["raw"])
            for e in sorted(run["log"], key=lambda e: e["start"])
            if e["host"] == host]


def check_takeover_gaps(run):
    """The gap across each takeover (victim's last request, survivor's
    first) is no shorter than the delay (check_gaps sees all gaps; this
    one names the takeovers when it fails)."""
    gaps = takeover_gaps(run)
    short = {h: g for h, g in gaps.items() if h in run["taken"] and g < 1}
    assert not short, [(h, g, who_fetched_all(run, h))
                       for h, g in list(short.items())[:3]]


def check_takeovers_reported(run):
    victim, survivor = run["workers"]
    c = survivor.counts()
    assert c and c[2] > 0 and run["taken"], (
        f"{SURVIVOR} reports {c} and took over {run['taken']}")
    assert set(run["taken"]) <= set(run["held_at_kill"]), (
        sorted(set(run["taken"]) - set(run["held_at_kill"])))


def check_lease_lost_said(run):
    assert run["lease_lost"], (f"no 'lease lost' line from {VICTIM} after "
                               f"the partition began: "
                               f"{run['workers'][0].stderr()[-600:]}")


# ----- crawl_workers' checks on this web -------------------------------

def check_right_addresses(run):
    wrong = [e for e in run["log"] if address_of.get(e["host"]) !=
             e["address"]]
    assert not wrong, wrong[:3]


def check_stored_once(run):
    want = {f"http://{h}:{run['port']}{p}" for h in names for p in PAGE_PATHS}
    pages = run["pages"]
    missing = sorted(want - set(pages))
    extra = sorted(set(pages) - want)
    twice = sorted(u for u, v in pages.items() if len(v) > 1)
    bad = sorted(u for u, v in pages.items() if v != [200])
    assert not (missing or extra or twice or bad), (
        f"{len(missing)} pages not stored, e.g. {missing[:3]}; {len(extra)} "
        f"unexpected, e.g. {extra[:3]}; {len(twice)} stored twice, e.g. "
        f"{twice[:3]}; {len(bad)} not stored with 200, e.g. {bad[:3]}")


def main():
    tmp = tempfile.mkdtemp(prefix="heed-partition-")
    www = os.path.join(tmp, "www")
    write_sites(www, names, PAGES, disallow=DISALLOW)
    checks = Checks()
    runs = []
    pg = PgCluster().start()
    try:
        with Dnsmasq(hosts={h: [a] for h, a in address_of.items()}) as dns:
            runs.append(crawl(pg, "silent", dns, www, "hold", tmp))
            runs.append(crawl(pg, "cut", dns, www, "cut", tmp))
        for run in runs:
            figures(run)
            for w in run["workers"]:  # the summaries, for the record
                sys.stdout.write(f"  {w.name} stdout: {w.stdout()}")
        for run in runs:
            for fn in (check_partitioned, check_gaps, check_takeover_gaps,
                       check_victim_within_lease, check_every_site_whole,
                       check_disallowed_never_asked, check_right_addresses,
                       check_stored_once, check_refetches_bounded,
                       check_workers_finished, check_claims_reported,
                       check_takeovers_reported, check_lease_lost_said):
                def one(fn=fn, run=run):
                    fn(run)
                one.__name__ = f"{run['database']}.{fn.__name__}"
                checks.run(one)
    finally:
        pg.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"{checks.passed} passed, {checks.failed} failed")
    sys.exit(1 if checks.failed else 0)


if __name__ == "__main__":
    main()
