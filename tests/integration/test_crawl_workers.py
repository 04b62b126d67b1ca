"""Four `heed crawl --worker` processes on one PostgreSQL store,
on the shared-address web of the courtesy tests: 1,000 sites on ONE
loopback address told apart by the Host header, plus 8 sites each alone on
its own 127.x address (every courtesy test covers both), all served by one
real nginx (heedtest.VirtualHostNginx), names resolved by a dnsmasq of the
test's own. Each site has robots.txt (one Disallow), a home page and 4
pages linked from it; the home page also links to the disallowed page.

Two runs, each on a fresh database and a fresh nginx log:

1. four workers started at once with the same seeds;
2. three workers started at once and a fourth joining once nginx has
   answered the victim LATE_AFTER_PAGES pages, so the first three hand
   hosts back to it mid-run (their share shrinks by a quarter) and it
   claims them; then the victim is killed with SIGKILL once nginx has
   answered it KILL_AFTER_PAGES more (each worker sends its own contact
   address in the User-Agent, so the log tells them apart). The store is
   read at once: what the victim had committed. Its leases expire
   (--lease 6s) and the others take its sites over.

Judged from nginx's log, by crawl_shared's measure (a request's start is
$msec - $request_time, compared in whole milliseconds: a logged gap under
1.000 s is a failure; see heedtest.VirtualHostNginx): no two requests to
one site less than 1 s apart, across workers and across the takeover; every
URL asked once by the whole fleet (in run 1, where workers that start
together may or may not hand hosts to each other, as the machine's speed
has it; in run 2 sites do change hands between live workers as the late
one joins, and check_hand_backs_and_claims checks that some did), every
page answered 200 once and robots.txt asked once a site (run 2: a URL
asked twice only if the victim asked it first and its answer was not in
the store when it died: what it had in flight, or answered in the batch
the kill lost; every URL, robots.txt and sitemap included); nothing
disallowed asked for.
From PostgreSQL: every page stored
exactly once. From the workers: exit 0 (the killed one aside), at least 3
of 4 claimed sites, and in run 2 the survivors report takeovers.
"""

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from urllib.parse import urlsplit

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from pgcluster import PgCluster  # noqa: E402
from heedtest import (HEED, Checks, Dnsmasq, VirtualHostNginx,  # noqa: E402
                      free_port_on, scaled)
from loadserver import analyse, site_names, summary, write_sites  # noqa: E402

SHARED = "127.0.14.1"
ALONE = [f"127.0.14.{11 + i}" for i in range(8)]
SHARED_SITES = 1000
PAGES = 4
DISALLOW = "/private/"
WORKERS = 4
LEASE = "6s"
WORKER_TIMEOUT = scaled(150)  # seconds; one run needs well under a minute
VICTIM = "w0"  # the worker run 2 kills
LATE = "w3"  # the worker run 2 starts late
# Run 2 starts LATE once nginx has answered the victim this many page
# requests (robots.txt aside), and kills the victim once it has answered
# KILL_AFTER_PAGES more: by then the first three workers have seen the
# fourth's heartbeat (a beat every 2 s) and handed it hosts, the victim
# holds its share of sites with pages in flight, and much of the web is
# still to crawl.
LATE_AFTER_PAGES = 50
KILL_AFTER_PAGES = 500
WORKER_LINE = re.compile(
    r"worker (\S+): (\d+) claims, (\d+) sites claimed \((\d+) taken over "
    r"after expiry\), (\d+) released, (\d+) lost")

shared_names = site_names(SHARED_SITES, "workers.test")
alone_names = site_names(len(ALONE), "alone.test")
names = shared_names + alone_names
address_of = dict({h: SHARED for h in shared_names},
                  **{h: a for h, a in zip(alone_names, ALONE)})
PAGE_PATHS = ["/"] + [f"/p/{i}.html" for i in range(PAGES)]
expected = {(h, p) for h in names for p in ["/robots.txt"] + PAGE_PATHS}


def contact(name):
    return f"{name}@example.org"


def worker_argv(name, store, dns, seeds):
    return [HEED, "crawl", "--worker", "--worker-name", name,
            "--lease", LEASE, "--set", "net.connect_timeout_ms=2000",
            "--store", store, "--allow-private", "--dns-server", dns,
            "--contact-email", contact(name), "--sites", seeds]


def below_the_server():
    """Runs a worker at a lower CPU priority than nginx, the instrument:
    nginx stamps a request with its event loop's cached time, so when four
    crawlers and PostgreSQL crowd two cores and nginx wakes late, several
    requests read in one wake-up bear one late millisecond, and a gap
    looks shorter than it was (seen under load: five sites' requests
    stamped with one millisecond, 0.981 s after their previous ones). A
    crawler that runs later only makes its gaps longer, so this hides no
    breach."""
    os.nice(10)


class Worker:
    """One heed process; its output goes to files (a pipe nobody reads
    while it runs could fill and stall it)."""

    def __init__(self, name, argv, folder):
        self.name = name
        self.out_path = os.path.join(folder, f"{name}.out")
        self.err_path = os.path.join(folder, f"{name}.err")
        with open(self.out_path, "w") as out, open(self.err_path, "w") as err:
            self.proc = subprocess.Popen(argv, stdout=out, stderr=err,
                                         cwd=folder,
                                         preexec_fn=below_the_server)
        self.rc = None
        self.killed = False

    def wait(self, deadline):
        """Its exit status, or None (still running) at deadline."""
        try:
            self.rc = self.proc.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            self.rc = None
        return self.rc

    def kill(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()
        self.killed = True
        self.rc = self.proc.returncode

    def stop(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def stdout(self):
        with open(self.out_path, errors="replace") as f:
            return f.read()

    def stderr(self):
        with open(self.err_path, errors="replace") as f:
            return f.read()

    def counts(self):
        """(claims, sites, taken over, released, lost) of its summary line,
        or None when it printed none."""
        m = WORKER_LINE.search(self.stdout())
        return tuple(int(x) for x in m.groups()[1:]) if m else None


def worker_of(entry):
    """The worker that sent a logged request, from its User-Agent."""
    m = re.search(r"[(; ]([^\s;()]+)@example\.org\)",
                  entry["user_agent"] or "")
    return m.group(1) if m else None


def stored_pages(pg, database):
    """{url: [status, ...]} of the pages table (one list per URL, so that
    a URL stored twice would show, were the table's key ever dropped)."""
    out = {}
    rows = pg.psql("SELECT url, status FROM pages;", database=database)
    for line in rows.splitlines():
        if line.strip():
            url, status = line.rsplit("|", 1)
            out.setdefault(url, []).append(int(status))
    return out


def crawl(pg, database, dns, www, argvs, kill=None, late=None):
    """Runs one crawl on a fresh database and a fresh nginx: argvs(store,
    dns server, seeds file) gives {name: argv}; kill names a worker to
    SIGKILL once nginx has answered it LATE_AFTER_PAGES +
    KILL_AFTER_PAGES page requests, late one to start once it has
    answered LATE_AFTER_PAGES (with kill only). Returns a dict of what the
    checks need."""
    pg.psql(f"CREATE DATABASE {database};")
    store = pg.url.rsplit("/", 1)[0] + "/" + database
    folder = tempfile.mkdtemp(prefix=f"heed-workers-{database}-")
    port = free_port_on([SHARED] + ALONE)
    seeds = os.path.join(folder, "sites.txt")
    with open(seeds, "w") as f:
        f.write("".join(f"http://{h}:{port}/\n" for h in names))
    run = {"database": database, "killed_at": None, "held_at_kill": None}
    with VirtualHostNginx([SHARED] + ALONE, port, www,
                          WORKER_TIMEOUT + 60) as nginx:
        t0 = time.monotonic()
        argv = argvs(store, dns.server, seeds)
        workers = [Worker(name, a, folder)
                   for name, a in argv.items() if name != late]
        try:
            deadline = t0 + WORKER_TIMEOUT
            if kill:
                start_late = (lambda: workers.append(
                    Worker(late, argv[late], folder))) if late else None
                run.update(kill_when_fetching(pg, database, nginx, workers,
                                              kill, deadline, start_late))
            for w in workers:
                if not w.killed:
                    w.wait(deadline)
            if any(w.rc is None and not w.killed for w in workers):
                run["stuck"] = store_state(pg, database)
        finally:
            for w in workers:
                w.stop()
        run["wall"] = time.monotonic() - t0
        run["log"] = nginx.access()
        # Beside the workers' output, kept when a check fails.
        if os.path.exists(nginx.log):
            shutil.copy(nginx.log, os.path.join(folder, "access.log"))
        if run["killed_at"] is not None and nginx.base is not None:
            run["killed_at"] -= nginx.base  # on the log's time base
            if run.get("late_at") is not None:
                run["late_at"] -= nginx.base
    run["workers"] = workers
    run["pages"] = stored_pages(pg, database)
    run["port"] = port
    run["folder"] = folder
    return run


def store_state(pg, database):
    """What the store says while a worker has not ended in time: leases
    by holder (with the least time left, ms), sites claimable, the live
    workers, frontier rows by state: for a failure's message."""
    sql = {
        "leases": "SELECT coalesce(holder, '-'), count(*), min(lease_until "
                  "- (extract(epoch FROM clock_timestamp()) * 1000)::bigint)"
                  " FROM site_leases GROUP BY 1 ORDER BY 1;",
        "due": "SELECT count(*) FROM site_leases WHERE next_allowed_at < "
               "9223372036854775807;",
        "workers": "SELECT holder, alive_until - (extract(epoch FROM "
                   "clock_timestamp()) * 1000)::bigint FROM lease_workers "
                   "ORDER BY 1;",
        "frontier": "SELECT state, count(*) FROM frontier GROUP BY 1 "
                    "ORDER BY 1;",
    }
    out = {}
    for name, q in sql.items():
        try:
            out[name] = pg.psql(q, database=database).split()
        except Exception as e:  # a message, not a second failure
            out[name] = str(e)[:200]
    return out


def kill_when_fetching(pg, database, nginx, workers, name, deadline,
                       start_late=None):
    """Calls start_late (if any) once nginx's log shows worker `name` was
    answered LATE_AFTER_PAGES page requests, and SIGKILLs it once it was
    answered KILL_AFTER_PAGES more (polled every 50 ms, bounded by
    deadline); then reads which sites its leases held and what of its
    work the store has. The log is read from where the last look stopped,
    by substring, not parsed: the test's own CPU would delay nginx, whose
    clock is the courtesy witness."""
    victim = next(w for w in workers if w.name == name)
    mine = seen = 0
    late_at = None
    agent = f"({contact(name)})"
    pages = tuple(f'"uri":"{p}"' for p in PAGE_PATHS)
    offset = 0
    rest = ""
    while time.monotonic() < deadline and victim.proc.poll() is None:
        if os.path.exists(nginx.log):
            with open(nginx.log) as f:
                f.seek(offset)
                chunk = f.read()
                offset = f.tell()
            lines = (rest + chunk).split("\n")
            rest = lines.pop()  # a line nginx has not finished writing
            for line in lines:
                if agent in line:
                    seen += 1
                    mine += any(p in line for p in pages)
        if start_late and late_at is None and mine >= LATE_AFTER_PAGES:
            start_late()
            late_at = time.time()
        if mine >= LATE_AFTER_PAGES + KILL_AFTER_PAGES:
            break
        time.sleep(0.05)
    if victim.proc.poll() is not None:
        return {"kill_error": f"{name} ended (exit {victim.proc.returncode}) "
                f"before it was killed, after {mine} page requests"}
    killed_at = time.time()
    victim.kill()
    # Its lease rows stay as they were until another worker takes the
    # site over: read them at once (takeover waits for the lease end).
    # A lease names its site by host (politeness counts by host), or by
    # origin (http://HOST:PORT) as the first leases did.
    held = pg.psql(f"SELECT site FROM site_leases WHERE holder = '{name}';",
                   database=database).split()
    done = committed_work(pg, database)
    return {"killed_at": killed_at, "late_at": late_at, "done_at_kill": done,
            "held_at_kill": sorted({urlsplit(o if "://" in o else "//" + o)
                                    .hostname for o in held}),
            "victim_requests_at_kill": mine,
            "victim_all_at_kill": seen}


def committed_work(pg, database):
    """{(host, path)} of the requests whose outcome the store holds: a
    frontier row done (2) or dropped (3), and robots.txt of a site whose
    lifecycle has left `unknown`. Read right after the kill, it is what
    the victim had committed; whatever it asked beyond that (in flight,
    or answered in the batch the kill lost) its sites' next holders ask
    again."""
    done = set()
    rows = pg.psql("SELECT url FROM frontier WHERE state IN (2, 3);",
                   database=database)
    for url in rows.split():
        u = urlsplit(url)
        done.add((u.hostname, u.path + (f"?{u.query}" if u.query else "")))
    rows = pg.psql("SELECT site FROM sites WHERE state <> 'unknown';",
                   database=database)
    for site in rows.split():
        done.add((urlsplit(site).hostname, "/robots.txt"))
    return done


def victim_uncommitted(run):
    """{(host, path)} the victim asked (nginx's log, by its User-Agent)
    whose outcome the store did not hold when it was killed: its
    in-flight set, in the sense that matters to the fleet."""
    return {(e["host"], e["path"]) for e in run["log"]
            if worker_of(e) == VICTIM} - run["done_at_kill"]


def held_most(w):
    """The most hosts the worker held at once (its last log line)."""
    m = re.search(r"at most (\d+) hosts held at once", w.stderr())
    return int(m.group(1)) if m else None


def figures(run):
    """The nginx log's figures, printed for the lead to quote."""
    log = run["log"]
    a = analyse(log, expected=expected)
    answered = Counter((e["host"], e["path"]) for e in log
                       if e["status"] == 200)
    run["a"] = a
    run["answered"] = answered
    run["twice"] = sorted(k for k, n in answered.items()
                          if n > 1 and k[1] != "/robots.txt")
    run["robots"] = Counter(e["host"] for e in log
                            if e["path"] == "/robots.txt")
    run["disallowed"] = [e for e in log if e["path"].startswith(DISALLOW)]
    run["by_worker"] = Counter(worker_of(e) for e in log)
    run["wrong_address"] = [e for e in log
                            if address_of.get(e["host"]) != e["address"]]
    other = Counter(e["path"] for e in log
                    if e["path"] not in ["/robots.txt"] + PAGE_PATHS)
    print(f"run {run['database']}: {len(names)} sites ({SHARED_SITES} on "
          f"{SHARED}, {len(ALONE)} alone on {ALONE[0]}..{ALONE[-1]}), port "
          f"{run['port']}, wall {run['wall']:.1f} s")
    print(summary(a, inflight=False))
    print(f"  requests per worker (User-Agent): "
          f"{dict(sorted(run['by_worker'].items(), key=str))}")
    print(f"  pages answered 200 twice: {len(run['twice'])}; robots.txt "
          f"fetched more than once: "
          f"{sum(1 for n in run['robots'].values() if n > 1)} sites; other "
          f"paths asked: {dict(other)}; disallowed asked: "
          f"{len(run['disallowed'])}")
    for w in run["workers"]:
        c = w.counts()
        state = "killed" if w.killed else f"exit {w.rc}"
        print(f"  {w.name}: {state}; " + (
            f"{c[0]} claims, {c[1]} sites claimed ({c[2]} taken over), "
            f"{c[3]} released, {c[4]} lost" if c else "no worker line") +
            f"; at most {held_most(w)} hosts held at once")
    if run["killed_at"] is not None:
        if run.get("late_at") is not None:
            print(f"  {LATE} started at {run['late_at']:.2f} s")
        print(f"  {VICTIM}'s requests not committed when it was killed: "
              f"{len(victim_uncommitted(run))}")
        print(f"  {VICTIM} killed at {run['killed_at']:.2f} s once nginx "
              f"had answered it {run['victim_all_at_kill']} requests "
              f"({run['victim_requests_at_kill']} pages), holding "
              f"{len(run['held_at_kill'])} sites; asked again after it: "
              f"{len(run['twice'])} pages, "
              f"{sum(1 for n in run['robots'].values() if n > 1)} "
              f"robots.txt")
        taken = sum((w.counts() or (0, 0, 0))[2] for w in run["workers"]
                    if not w.killed)
        print(f"  takeovers reported by the survivors: {taken}; pages asked "
              f"again on {len({h for h, _ in run['twice']})} sites")
        held = set(run["held_at_kill"])
        gaps = takeover_gaps(run)
        for what, sel in (("taken over after expiry",
                           [g for h, g in gaps.items() if h in held]),
                          ("handed back before the kill",
                           [g for h, g in gaps.items() if h not in held])):
            if sel:
                print(f"  {what}: from {VICTIM}'s last request to the "
                      f"next holder's first on {len(sel)} sites, shortest "
                      f"{min(sel):.3f} s, longest {max(sel):.3f} s")
    pages = run["pages"]
    print(f"  store: {len(pages)} pages, "
          f"{sum(1 for v in pages.values() if len(v) > 1)} stored twice",
          flush=True)
    return a


def takeover_gaps(run):
    """{host: seconds} for each site fetched by the killed worker and then
    by another: from the victim's last request start to the next
    worker's first."""
    by_site = {}
    for e in sorted(run["log"], key=lambda e: e["start"]):
        by_site.setdefault(e["host"], []).append(e)
    gaps = {}
    for host, entries in by_site.items():
        last = None
        for e in entries:
            if worker_of(e) == VICTIM:
                last = e["start"]
            elif last is not None:
                gaps[host] = e["start"] - last
                break
    return gaps


# ----- the checks, on one run ------------------------------------------

def check_gaps(run):
    a = run["a"]
    assert a["requests"] > 0, "nginx logged no request"
    assert a["gaps_under"] == 0, (
        f"{a['gaps_under']} same-site gaps under 1 s on "
        f"{len(a['gap_sites'])} sites, shortest {a['gap_shortest']:.3f} s, "
        f"e.g. {a['gaps_short'][:3]}; the requests: "
        f"{same_site_requests(run, a['gaps_short'][:2])}")
    assert a["max_per_window"] <= 1, a["max_per_window"]


def same_site_requests(run, short):
    """Every logged request to the sites of short gaps, for a failure's
    message: who asked, on which connection, nginx's own figures."""
    out = []
    for host in sorted({h for h, _, _ in short}):
        out += [(host, e["start"], e["path"], worker_of(e), e["status"],
                 e["conn"], e["raw"])
                for e in run["log"] if e["host"] == host]
    return sorted(out)


def check_every_site_whole(run):
    a = run["a"]
    assert a["coverage"] == 1, (
        f"coverage {a['coverage']:.1%}, {len(a['missing'])} missing, e.g. "
        f"{a['missing'][:5]}")


def check_disallowed_never_asked(run):
    assert not run["disallowed"], run["disallowed"][:3]


def check_right_addresses(run):
    assert not run["wrong_address"], run["wrong_address"][:3]


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


def check_workers_finished(run):
    bad = {w.name: ("still running" if w.rc is None else w.rc,
                    w.stderr().strip()[-400:])
           for w in run["workers"] if not w.killed and w.rc != 0}
    assert not bad, (f"workers that did not exit 0 within "
                     f"{run.get('timeout', WORKER_TIMEOUT):.0f} s: {bad}; "
                     f"the store then: "
                     f"{run.get('stuck')}")


def check_claims_reported(run):
    counts = {w.name: w.counts() for w in run["workers"] if not w.killed}
    missing = [n for n, c in counts.items() if c is None]
    assert not missing, (f"no 'worker NAME: ...' line from {missing}: "
                         f"{[w.stdout()[-300:] for w in run['workers']]}")


def check_fair_share(run):
    """At least 3 of the 4 claimed sites (summary), and nginx saw at least
    3 User-Agents: one worker did not crawl the web alone."""
    claimed = [w.name for w in run["workers"]
               if not w.killed and (w.counts() or (0, 0))[1] > 0]
    if run["killed_at"] is not None and run["by_worker"][VICTIM]:
        claimed.append(VICTIM)  # it fetched: it had claimed sites
    fetched = [n for n in run["by_worker"] if n is not None]
    assert len(claimed) >= 3 and len(fetched) >= 3, (
        f"workers that claimed sites: {claimed}; that nginx saw: {fetched}")


# Run 1: nothing fails, so nothing is fetched twice.

def check_each_page_answered_once(run):
    assert not run["twice"], (
        f"{len(run['twice'])} pages answered 200 more than once, e.g. "
        f"{[(k, who_fetched(run, k)) for k in run['twice'][:3]]}")


def who_fetched(run, key):
    return [(e["start"], worker_of(e), e["status"]) for e in run["log"]
            if (e["host"], e["path"]) == key]


def check_robots_once(run):
    """A site's robots.txt is stored with the site, so a worker that gets
    a site another released reads it from the store: one fetch a site."""
    many = {h: n for h, n in run["robots"].items() if n > 1}
    assert not many, (f"robots.txt fetched more than once on {len(many)} "
                      f"sites, e.g. {list(many.items())[:5]}")


def check_each_url_asked_once(run):
    """Nothing at all asked twice: robots.txt, /sitemap.xml (404), pages."""
    asked = Counter((e["host"], e["path"]) for e in run["log"])
    many = sorted(k for k, n in asked.items() if n > 1)
    assert not many, (f"{len(many)} URLs asked more than once, e.g. "
                      f"{[(k, who_fetched(run, k)) for k in many[:3]]}")


# Run 2: the killed worker's in-flight requests are asked again.

def check_killed_mid_run(run):
    assert not run.get("kill_error"), run.get("kill_error")
    assert run["killed_at"] is not None, "the victim was never killed"
    assert run["held_at_kill"], f"{VICTIM} held no site when it was killed"
    after = [e for e in run["log"] if e["start"] > run["killed_at"] + 0.5]
    assert after, "nothing was fetched after the kill: not mid-run"


def check_takeovers_reported(run):
    """Takeovers after expiry happened (the victim held sites with work)
    and are at most the sites whose leases expired: the victim's."""
    taken = sum((w.counts() or (0, 0, 0))[2] for w in run["workers"]
                if not w.killed)
    held = len(run["held_at_kill"])
    assert 0 < taken <= held, (f"the survivors report {taken} takeovers "
                               f"after expiry; {VICTIM} held {held} sites")


def check_refetches_bounded(run):
    """For a victim whose committed work was not read at the moment it
    was cut off (integration.crawl_partition): what it had fetched but
    not yet stored is fetched again by the site's new holder: pages in
    flight (a site has at most one request in flight) and, on a site it
    had just begun, robots.txt answered but not yet written with the
    site. So a URL is
    asked at most twice, once by the victim, only on a site it held, and
    the pages asked again are at most one per site it held."""
    held = set(run["held_at_kill"])
    asked = Counter((e["host"], e["path"]) for e in run["log"])
    again = sorted(k for k, n in asked.items() if n > 1)
    twice = run["twice"]
    assert len(twice) <= len(held), (
        f"{len(twice)} pages fetched twice, more than the {len(held)} sites "
        f"{VICTIM} held: {twice[:5]}")
    assert all(asked[k] == 2 for k in again), [
        (k, who_fetched(run, k)) for k in again if asked[k] > 2][:3]
    assert all(k[0] in held for k in again), [
        k for k in again if k[0] not in held][:5]
    not_victim = [k for k in again
                  if VICTIM not in [w for _, w, _ in who_fetched(run, k)]]
    assert not not_victim, [(k, who_fetched(run, k)) for k in not_victim][:3]


def check_refetches_in_flight(run):
    """A URL is fetched once by the whole fleet,
    except what the killed worker had in flight. Every (host, URL) asked
    more than once (robots.txt, sitemaps and pages alike) was asked
    exactly twice, first by the victim, then by another worker, and is in
    the victim's uncommitted set (victim_uncommitted: asked by it, its
    outcome not in the store at the kill). A host that changed hands
    before its answers were committed would show here as a URL asked
    twice by live workers, or asked again after the victim's answer was
    stored."""
    asked = Counter((e["host"], e["path"]) for e in run["log"])
    again = sorted(k for k, n in asked.items() if n > 1)
    uncommitted = victim_uncommitted(run)
    bad = []
    for k in again:
        who = [w for _, w, _ in sorted(who_fetched(run, k))]
        if len(who) != 2 or who[0] != VICTIM or who[1] == VICTIM or \
                k not in uncommitted:
            bad.append((k, sorted(who_fetched(run, k)),
                        "committed" if k not in uncommitted else "in flight"))
    print(f"  {run['database']}: {len(again)} URLs asked twice, "
          f"{len(uncommitted)} asked by {VICTIM} and not committed at the "
          f"kill; not the victim's: {len(bad)}")
    assert not bad, (f"{len(bad)} of {len(again)} URLs asked more than "
                     f"once are not the victim's uncommitted requests, "
                     f"e.g. {bad[:3]}")
    assert len(again) <= len(uncommitted), (len(again), len(uncommitted))


def check_hand_backs_and_claims(run):
    """The late worker claimed hosts and fetched, and hosts went from one
    live worker to another (hand-backs as the fourth joined; the victim's
    takeovers aside), so the duplicate count above covers both."""
    late = next(w for w in run["workers"] if w.name == LATE)
    c = late.counts()
    assert c and c[1] > 0 and run["by_worker"][LATE] > 0, (
        f"{LATE} claimed {c and c[1]} sites, nginx saw "
        f"{run['by_worker'][LATE]} of its requests")
    workers = {}
    for e in run["log"]:
        if worker_of(e) != VICTIM:
            workers.setdefault(e["host"], set()).add(worker_of(e))
    moved = sum(1 for ws in workers.values() if len(ws) > 1)
    released = sum((w.counts() or (0,) * 4)[3] for w in run["workers"]
                   if not w.killed)
    print(f"  {run['database']}: {moved} sites asked by more than one live "
          f"worker; {LATE} claimed {c[1]}; the survivors handed back "
          f"{released}")
    assert moved > 0, "no host went from one live worker to another"


def main():
    www = os.path.join(tempfile.mkdtemp(prefix="heed-workers-www-"), "www")
    write_sites(www, names, PAGES, disallow=DISALLOW)
    checks = Checks()
    runs = []
    pg = PgCluster().start()
    try:
        with Dnsmasq(hosts={h: [a] for h, a in address_of.items()}) as dns:
            def four(store, dns_server, seeds):
                return {f"w{i}": worker_argv(f"w{i}", store, dns_server,
                                             seeds)
                        for i in range(WORKERS)}
            runs.append(crawl(pg, "workers", dns, www, four))
            runs.append(crawl(pg, "takeover", dns, www, four, kill=VICTIM,
                              late=LATE))
        for run in runs:
            figures(run)
            for w in run["workers"]:  # the summaries, for the record
                sys.stdout.write(f"  {w.name} stdout: {w.stdout()}")
        common = [check_gaps, check_every_site_whole,
                  check_disallowed_never_asked, check_right_addresses,
                  check_stored_once, check_workers_finished,
                  check_claims_reported, check_fair_share]
        for run, extra in ((runs[0], [check_each_page_answered_once,
                                      check_robots_once,
                                      check_each_url_asked_once]),
                           (runs[1], [check_killed_mid_run,
                                      check_takeovers_reported,
                                      check_hand_backs_and_claims,
                                      check_refetches_in_flight])):
            for fn in common + extra:
                def one(fn=fn, run=run):
                    fn(run)
                one.__name__ = f"{run['database']}.{fn.__name__}"
                checks.run(one)
    finally:
        if checks.failed and runs:
            try:  # PostgreSQL's view (deadlocks, lost connections)
                shutil.copy(pg.log(), os.path.join(runs[-1]["folder"],
                                                   "postgresql.log"))
            except OSError:
                pass
        pg.stop()
        shutil.rmtree(os.path.dirname(www), ignore_errors=True)
        for run in runs:
            if checks.failed:
                print(f"kept for a look: {run['folder']} (the workers' "
                      f"output, nginx's access.log; PostgreSQL's log in "
                      f"the last)")
            else:
                shutil.rmtree(run["folder"], ignore_errors=True)
    print(f"{checks.passed} passed, {checks.failed} failed")
    sys.exit(1 if checks.failed else 0)


if __name__ == "__main__":
    main()
