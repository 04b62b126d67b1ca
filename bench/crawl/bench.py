#!/usr/bin/env python3
"""bench/crawl: heed crawl (and peers) over a synthetic web served by nginx.

Both webs have SITES sites sharing one docroot: a home page and PAGES
pages of about 57 KB of realistic markup each (og tags, JSON-LD
VideoObject with views and tags, a navigation bar linking every page, 90
paragraphs), a robots.txt (`Disallow: /private/`) and no sitemap. Pages
that exist: SITES x (PAGES + 1). Nothing leaves 127.0.0.0/8, and names
are resolved only by a dnsmasq the bench starts (heed gets
`--dns-server 127.0.0.1:PORT --allow-private` on both webs).

The per-address web (`--web per-address`, the default) gives each site its
own address 127.1.x.y on one port (one nginx per 4,000 sites, since each
address costs a listening socket and a kept connection); seeds are
http://127.1.x.y:PORT/ and a site is its server address. The shared web
(`--web shared`) is what shared hosting and CDNs look like: SITES
name-based virtual hosts s00000.bench.test ... on ONE address (--address,
default 127.0.0.2) and ONE port of ONE nginx; dnsmasq maps every name to
that address (addn-hosts), seeds are http://sNNNNN.bench.test:PORT/ and a
site is the Host nginx logged.

What is measured. From the peer's process: wall clock, CPU seconds
(user + system, os.wait4 of the child, which counts the process tree it
waited for) per 1,000 pages, and peak RSS (the largest VmHWM of the
process tree, polled every 20 ms: wait4's ru_maxrss would include this
script's own memory, see run_bounded). From heed's SQLite store:
pages stored (rows, rows with status 200, rows with views) and coverage =
rows with status 200 / pages that exist; for the peers, pages stored = the
distinct page URLs nginx answered 200 (and Scrapy's items). Everything
about courtesy comes from nginx's access log alone, never from the
crawler (bench/crawl/accesslog.py): requests, TCP connections (distinct
$connection), status counts, coverage from the log (distinct (site, page
URL) answered 200 / pages that exist), and per site every gap between two
consecutive request starts (start = $msec - $request_time): how many are
under 1.000 s (and under 0.990 s, beyond millisecond rounding), the
shortest, how many sites have one, the most requests to one site in any
[t, t + 1 s), the most in flight to one site at once, and the requests in
flight to the server at once (peak and time-weighted mean; on the shared
web that is the one address). The dnsmasq query counts and nginx's error
log lines are printed too. A first line says whether the run had the
machine to itself: the load average as it starts, and whether the kernel's
autogroup is on, under which work started from another session, even at
nice 19, takes an equal share of the CPUs (every figure then follows it).

Peers (`--peer`, repeatable, run one after the other on the same web,
each against a fresh nginx and fresh logs): heed (default settings; only
--concurrency, when given, is passed on), wget2 and scrapy, installed from
Debian when missing and configured as politely as they allow
(bench/crawl/peers.py). Every run is bounded by --timeout and its process
group killed at the end.

Stress (`--stress`): the same runs on a starved machine, a CPU
hog on every core at nice 10 (tests/integration/cpuhogs.py: bounded by
the run's --timeout, killed when the run ends) and the crawler under nice
10 beside them, so that it gets its share of the cores and no more; the
gaps from nginx's log are the courtesy under stress, printed beside the
speed as in every run.

Recrawls (`--recrawl`, heed only): each site gets its own
docroot (SiteWeb: symbolic links to the shared pages, its own robots.txt
naming its own sitemap.xml, an Atom feed.xml the home page announces), and
heed runs five times on one store, each run with a fresh nginx and log on
the same docroot: 1. a full crawl, 2. an unchanged full recrawl, 3. an
unchanged incremental run, 4. 5 % of the (site, page) pairs changed and
1 % added, 5. a full recrawl, 6. another 5 % changed (other pages) and 1 %
added, 7. an incremental run. Per run, from its nginx log alone: requests
and bytes sent ($body_bytes_sent), both as a share of run 1, the share of
304s, requests per site (max, mean), the changed and added pages answered
200 (found) and the rest (missed), the courtesy figures, and heed's wall
clock. Without --recrawl the web is the one shared docroot, as before.
With --store-pg the five runs share one throwaway PostgreSQL cluster
(below), its database the store, as they share the SQLite file otherwise;
per run, besides the figures above: the store's rows after it (rows, rows
with status 200, from PostgreSQL), heed's CPU (wait4) and PostgreSQL's
(ClusterCpu, below) in seconds and per 1,000 requests nginx logged (every
request the run asked: pages, homes, robots.txt, sitemaps, feeds), the
WAL written (pg_current_wal_lsn before and after), the top statements by
the server's time (pg_stat_statements, reset before each run), and the
load average as the run starts; a second table gives these per run.

Workers on PostgreSQL (`--workers N`, heed only): a throwaway
PostgreSQL cluster (tests/pgcluster.py: a temporary folder, 127.0.0.1
only, fsync off) holds the store, and N `heed crawl --worker
--worker-name wK --store postgresql://...` start at once with the same
seeds and the options heed gets in every other run (without --quiet,
which would hide the summary the claims are read from; log.level=0 keeps
the log as quiet). `--store-pg` runs the one ordinary heed crawl on such a
cluster instead: against the SQLite default, PostgreSQL's cost alone.
Besides every figure above: each worker's wall, CPU (wait4 of each child),
peak RSS and, from its summary lines, pages stored and `worker NAME: C
claims, S sites claimed (T taken over after expiry), R released, L lost`;
their sums, claims per second of the whole wall; the sites each worker
held (its leases of its current epoch while its heartbeat lived, sampled
every 2 s: min, median, max); PostgreSQL's own CPU
(utime + stime from /proc/PID/stat of the postmaster and every process
under it, sampled every 0.2 s with the last value kept per process, so a
backend that exited counts up to its last sample: at most 0.2 s of each
is missed); the WAL written (pg_current_wal_lsn before and after, the
schema's creation included), the rows and sizes of pages, frontier and
site_leases, and the rows each table had inserted, updated (HOT) and
deleted, and the commits, per page stored (pg_stat_user_tables,
pg_stat_database), and the time spent in the search area's functions:
the trigger that marks a written page and the set function the index
catches up with, or, with a heed before the marks, the trigger that
indexed each page (track_functions = all; wall time inside them, so
waits count too); and
how long after the start the first request came and how long after the
last request each program exited (the bench's clock against nginx's
$msec: what a worker spends before its first claim and waiting for the
run's end). Then where PostgreSQL's work went, per page stored: every
statement's execution and planning time, calls, rows, WAL bytes, full
page images and blocks dirtied (pg_stat_statements), each index's blocks
touched and scans (pg_stat_user_indexes, pg_statio_user_indexes: an
index written for every page touches a block or more a page), each
table's rows written, HOT updates, heap blocks touched, autovacuum and
autoanalyze runs, and the WAL's records and full page images
(pg_stat_wal). A Markdown row for docs/performance.md ends the report.

Usage:

    python3 bench/crawl/bench.py --sites 1000 --pages 10 [--heed build/heed]
    python3 bench/crawl/bench.py --recrawl --web shared --sites 1000 --pages 10
    python3 bench/crawl/bench.py --recrawl --store-pg --web shared \\
        --sites 1000 --pages 10      # the same runs, the store on PostgreSQL
    python3 bench/crawl/bench.py --web shared --sites 1000 --pages 10
    python3 bench/crawl/bench.py --web shared --sites 1000 --pages 10 --stress
    python3 bench/crawl/bench.py --web shared --sites 200 --pages 5 \\
        --peer heed --peer wget2 --peer scrapy [--json]
    python3 bench/crawl/bench.py --web shared --sites 10000 --pages 10 \\
        --workers 4 [--json]          # or --store-pg: one plain crawl

    --web per-address|shared   --address ADDR (shared web; 127.0.0.2)
    --port PORT (18081)        --concurrency N (passed on only when given)
    --timeout S (1800)         --json (every figure, one JSON object)
    --wget2-wait S (1)         wget2's --wait, per thread (0: none)
    --recrawl                  the recrawl runs above (heed only; on
                               PostgreSQL with --store-pg)
    --stress                   CPU hogs on every core, the crawler under nice
    --workers N                N heed crawl --worker on PostgreSQL (heed only)
    --store-pg                 one heed crawl on PostgreSQL (heed only)

Environment: HEED_BENCH_ARGS (more arguments for heed crawl),
HEED_BENCH_LOG (heed's log.level, default 0), HEED_BENCH_KEEP (keep the
temporary directory: logs, store, configurations), HEED_BENCH_PG_NESTED
(PostgreSQL runs: pg_stat_statements counts the statements inside
triggers and functions too, at a small cost in the run's CPU).
"""
import argparse
import collections
import contextlib
import json
import os
import re
import resource
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import accesslog  # noqa: E402
import peers  # noqa: E402
import walframes  # noqa: E402


def address(i):
    return "127.1.%d.%d" % (i // 250, i % 250 + 1)


def site_name(i):
    return "s%05d.bench.test" % i


FILLER = ("Notes from the workshop: the jig holds the blade at a steady "
          "angle while the stone does the work; a burr along the whole edge "
          "tells you the bevel has met. ")


def page(i, pages):
    nav = " ".join('<a href="/p/%d.html">Part %d</a>' % (j, j)
                   for j in range(pages))
    body = "".join("<p>%s</p>\n" % (FILLER * 4) for _ in range(90))
    return """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>Workshop video %d - Benchtube</title>
<meta name="description" content="Part %d of the workshop series.">
<meta property="og:title" content="Workshop video %d">
<meta property="og:type" content="video.other">
<meta property="video:tag" content="workshop">
<meta property="video:tag" content="tools">
<script type="application/ld+json">{"@context": "https://schema.org",
"@type": "VideoObject", "name": "Workshop video %d", "duration": "PT%dM",
"uploadDate": "2026-10-%02d", "keywords": ["workshop", "tools", "part %d"],
"interactionStatistic": {"@type": "InteractionCounter",
"interactionType": {"@type": "WatchAction"}, "userInteractionCount": %d}}
</script></head><body><nav>%s</nav><main><h1>Workshop video %d</h1>
<video src="/media/%d.mp4" poster="/thumbs/%d.jpg"></video>
%s</main></body></html>
""" % (i, i, i, i, 5 + i, 1 + i % 28, i, 1000 * (i + 1), nav, i, i, i, body)


def make_web(base, pages):
    site = os.path.join(base, "site")
    os.makedirs(os.path.join(site, "p"))
    with open(os.path.join(site, "robots.txt"), "w") as f:
        f.write("User-agent: *\nDisallow: /private/\n")
    with open(os.path.join(site, "index.html"), "w") as f:
        f.write(page(0, pages).replace("Workshop video 0", "Benchtube home"))
    size = 0
    for j in range(pages):
        text = page(j, pages)
        size += len(text)
        with open(os.path.join(site, "p", "%d.html" % j), "w") as f:
            f.write(text)
    return site, size // max(pages, 1)


def w3c_time(t):
    """A W3C datetime (sitemaps' lastmod, Atom's updated), UTC, seconds."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


def revised(text, rev):
    """A changed copy of a page: other title text and other views (the
    revision's digits put before the count), the rest as it was."""
    return text.replace("<title>", "<title>Revised %d: " % rev, 1).replace(
        '"userInteractionCount": ', '"userInteractionCount": %d' % rev, 1)


class SiteWeb:
    """Per-site content, for --recrawl: each site its own docroot
    sites/KEY/ (KEY: the Host on the shared web, the server address on
    the per-address one; nginx's root names it by $host or $server_addr)
    of symbolic links to the shared home page and pages in shared/, so
    that one site's page can change alone. nginx stats the link's target
    (disable_symlinks off, its default): ETag and Last-Modified are the
    shared file's, and it answers 304 to a matching If-None-Match or
    If-Modified-Since. Each site also has its own robots.txt (a
    `Sitemap:` line with the site's origin), a sitemap.xml listing every
    page with lastmod = the file's mtime, and an Atom feed.xml that the
    home page announces (`<link rel=alternate>`), one entry per page.

    mutate() changes 5 % and adds 1 % of the pages, as a site's owner
    would: a changed page is a regular file replacing the link (new text,
    new mtime); a new page /p/N.html is linked from its site's home page,
    itself changed then; the sitemaps and feeds of the sites touched are
    rewritten."""

    FEED_LINK = ('<link rel="alternate" type="application/atom+xml" '
                 'title="Benchtube" href="/feed.xml">')

    def __init__(self, base, keys, origins, pages):
        self.root = os.path.join(base, "sites")
        self.shared = os.path.join(base, "shared")
        self.keys, self.origins, self.pages = keys, origins, pages
        self.added = [0] * len(keys)   # pages added to each site so far
        self.rev = 0                   # mutations made so far
        self.touched = set()           # (site index, uri) ever mutated
        os.makedirs(os.path.join(self.shared, "p"))
        with open(os.path.join(self.shared, "index.html"), "w") as f:
            f.write(self.home_text(0, 0))
        size = 0
        for j in range(pages):
            text = page(j, pages)
            size += len(text)
            with open(os.path.join(self.shared, "p", "%d.html" % j), "w") as f:
                f.write(text)
        self.page_bytes = size // max(pages, 1)
        for i, key in enumerate(keys):
            os.makedirs(os.path.join(self.root, key, "p"))
            for uri in self.uris(i):
                rel = self.file_of(uri)
                os.symlink(os.path.join(self.shared, rel),
                           os.path.join(self.root, key, rel))
            with open(os.path.join(self.root, key, "robots.txt"), "w") as f:
                f.write("User-agent: *\nDisallow: /private/\n"
                        "Sitemap: %s/sitemap.xml\n" % origins[i])
            self.write_sources(i)

    def home_text(self, i, rev):
        text = page(0, self.pages + self.added[i]).replace(
            "Workshop video 0", "Benchtube home").replace(
            "</script></head>", "</script>%s</head>" % self.FEED_LINK, 1)
        return revised(text, rev) if rev else text

    def uris(self, i):
        return ["/"] + ["/p/%d.html" % j
                        for j in range(self.pages + self.added[i])]

    @staticmethod
    def file_of(uri):
        return "index.html" if uri == "/" else uri[1:]

    def path(self, i, uri):
        return os.path.join(self.root, self.keys[i], self.file_of(uri))

    def write_sources(self, i):
        """sitemap.xml and feed.xml of site i, dates from the files."""
        dated = [(uri, w3c_time(os.stat(self.path(i, uri)).st_mtime))
                 for uri in self.uris(i)]
        origin = self.origins[i]
        with open(os.path.join(self.root, self.keys[i], "sitemap.xml"),
                  "w") as f:
            f.write('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns='
                    '"http://www.sitemaps.org/schemas/sitemap/0.9">\n')
            f.writelines("<url><loc>%s%s</loc><lastmod>%s</lastmod></url>\n"
                         % (origin, uri, t) for uri, t in dated)
            f.write("</urlset>\n")
        with open(os.path.join(self.root, self.keys[i], "feed.xml"), "w") as f:
            f.write('<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns='
                    '"http://www.w3.org/2005/Atom">\n<title>Benchtube</title>'
                    '<id>%s/</id><updated>%s</updated>\n' % (
                        origin, max(t for _, t in dated)))
            f.writelines("<entry><title>%s</title><id>%s%s</id><link href="
                         '"%s%s"/><updated>%s</updated></entry>\n' % (
                             uri, origin, uri, origin, uri, t)
                         for uri, t in dated)
            f.write("</feed>\n")

    def replace(self, i, uri, text):
        path = self.path(i, uri)
        tmp = path + ".new"
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, path)  # the link, or an earlier copy, is gone

    def mutate(self, fraction_changed=0.05, fraction_added=0.01, seed=0):
        """Changes fraction_changed of all (site, page) pairs not mutated
        before and adds fraction_added as many new pages; returns the set
        of changed and added (KEY, uri), KEY as the log names the site."""
        import random
        rng = random.Random(seed)
        self.rev += 1
        pairs = [(i, uri) for i in range(len(self.keys))
                 for uri in self.uris(i)]
        fresh = [p for p in pairs if p not in self.touched]
        chosen = set(rng.sample(fresh, min(len(fresh),
                                           round(fraction_changed *
                                                 len(pairs)))))
        for _ in range(round(fraction_added * len(pairs))):
            i = rng.randrange(len(self.keys))
            uri = "/p/%d.html" % (self.pages + self.added[i])
            self.added[i] += 1
            self.replace(i, uri, page(self.pages + self.added[i] - 1,
                                      self.pages))
            chosen.add((i, uri))
            chosen.add((i, "/"))  # the home page links the new page
        for i, uri in sorted(chosen):
            if uri == "/":
                self.replace(i, uri, self.home_text(i, self.rev))
            elif os.path.islink(self.path(i, uri)):
                n = int(uri[3:-5])
                self.replace(i, uri, revised(page(n, self.pages), self.rev))
        for i in sorted({i for i, _ in chosen}):
            self.write_sources(i)
        self.touched |= chosen
        return {(self.keys[i], uri) for i, uri in chosen}


PAGE_URI = re.compile(r"^/(p/[0-9]+\.html)?$")


def is_page(uri):
    """The URIs of the pages that exist: / and /p/N.html."""
    return PAGE_URI.match(uri) is not None


# Sites per nginx process: each site costs nginx a kept connection (and, on
# the per-address web, a listening socket), and one process may hold only
# as many descriptors as the hard limit allows (20,000 on the build
# machine). The shared web runs one nginx with one worker per this many
# sites, all accepting on the one address (reuseport).
SITES_PER_NGINX = 4000

NGINX_CONF = """worker_processes %(workers)d;
worker_rlimit_nofile %(nofile)d;
pid %(run)s/nginx.pid;
error_log %(run)s/error.log warn;
daemon off;
events { worker_connections %(conns)d; }
http {
  log_format bench '%(format)s';
  access_log %(run)s/access.log bench;
  client_body_temp_path %(run)s/tmp;
  proxy_temp_path %(run)s/tmp;
  fastcgi_temp_path %(run)s/tmp;
  uwsgi_temp_path %(run)s/tmp;
  scgi_temp_path %(run)s/tmp;
  types { text/html html; text/plain txt; application/xml xml; }
  log_not_found off;  # 404s are in the access log; errors are trouble
  # nginx 1.22's defaults, stated: a site's kept connection serves 1,000
  # requests (a site here has PAGES + 3) and may idle 75 s (heed waits 1 s).
  keepalive_requests 1000;
  keepalive_timeout 75s;
  server {
%(listens)s    server_name _;
    root %(site)s;
  }
}
"""


class Nginx:
    """One nginx (master + workers) on the given listen lines, logging in
    accesslog.FORMAT to its own directory; ready once probe answers.
    sockets: the listening sockets or the kept connections expected,
    whichever is more, spread over the workers."""

    def __init__(self, run, site, listens, probe, sockets, workers=1):
        self.run = run
        os.makedirs(os.path.join(run, "tmp"))
        conf = os.path.join(run, "nginx.conf")
        per_worker = -(-sockets // workers)
        with open(conf, "w") as f:
            f.write(NGINX_CONF % {
                "run": run, "site": site, "workers": workers,
                "format": accesslog.FORMAT,
                "listens": "".join("    %s\n" % line for line in listens),
                # Each listening socket and each kept connection takes a
                # connection slot: with fewer slots nginx silently closes
                # kept connections ("worker_connections are not enough").
                "conns": 2 * per_worker + 1024,
                "nofile": 3 * per_worker + 1024})
        self.access_log = os.path.join(run, "access.log")
        self.error_log = os.path.join(run, "error.log")
        self.proc = subprocess.Popen(["/usr/sbin/nginx", "-c", conf, "-p", run],
                                     stderr=subprocess.DEVNULL)
        for _ in range(300):
            if self.proc.poll() is not None:
                raise SystemExit("nginx did not start: see %s" % conf)
            try:
                socket.create_connection(probe, timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        else:
            raise SystemExit("nginx does not answer on %s:%d" % probe)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGQUIT)  # graceful: logs flushed
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def error_lines(self):
        if not os.path.exists(self.error_log):
            return []
        with open(self.error_log, errors="replace") as f:
            return [line.rstrip("\n") for line in f]


class Dnsmasq:
    """dnsmasq answering only from hosts (address, name) pairs, names under
    .test it does not know being NXDOMAIN; queries() counts what it was
    asked (its own query log). A copy of tests/integration's, not an
    import: bench/ does not depend on tests/."""

    def __init__(self, run, hosts, listen, port):
        os.makedirs(run, exist_ok=True)
        self.log = os.path.join(run, "dnsmasq-%s.log" % listen)
        self.server = "%s:%d" % (listen, port)
        hosts_file = os.path.join(run, "hosts")
        with open(hosts_file, "w") as f:
            f.writelines("%s %s\n" % pair for pair in hosts)
        self.proc = subprocess.Popen(
            ["dnsmasq", "--keep-in-foreground", "--no-resolv", "--no-hosts",
             "--addn-hosts=" + hosts_file, "--port=%d" % port,
             "--listen-address=" + listen, "--bind-interfaces",
             "--local=/test/", "--local-ttl=300", "--pid-file=",
             "--log-queries", "--log-facility=" + self.log,
             "--user=root", "--group=root"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        for _ in range(200):
            if self.proc.poll() is not None:
                raise RuntimeError("dnsmasq on %s exited: %s" % (
                    self.server, self.proc.stderr.read().decode().strip()))
            if os.path.exists(self.log) and "started" in open(self.log).read():
                return
            time.sleep(0.05)
        self.close()
        raise RuntimeError("dnsmasq on %s did not start" % self.server)

    def queries(self):
        with open(self.log, errors="replace") as f:
            return sum(1 for line in f if "query[" in line)

    def close(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait()


def free_port(host):
    """A port free for both UDP and TCP on host (dnsmasq takes both)."""
    for _ in range(50):
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as u:
            u.bind((host, 0))
            port = u.getsockname()[1]
            with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as t:
                try:
                    t.bind((host, port))
                    return port
                except OSError:
                    continue
    raise RuntimeError("no free port on " + host)


def tree_pids(root):
    """root and its descendants, from /proc (children of every thread)."""
    pids, todo = [], [root]
    while todo and len(pids) < 10000:
        pid = todo.pop()
        pids.append(pid)
        try:
            for task in os.listdir("/proc/%d/task" % pid):
                with open("/proc/%d/task/%s/children" % (pid, task)) as f:
                    todo.extend(int(c) for c in f.read().split())
        except OSError:
            pass
    return pids


def proc_number(pid, name, key):
    """The number after key ("VmHWM:", "wchar:") in /proc/<pid>/<name> of
    a live process (0 once it is gone, or when the line is missing)."""
    try:
        with open("/proc/%d/%s" % (pid, name)) as f:
            for line in f:
                if line.startswith(key):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def high_water_kb(pid):
    """VmHWM of a live process: the peak resident set of its own memory
    since its last exec."""
    return proc_number(pid, "status", "VmHWM:")


def written_bytes(pid):
    """The bytes a live process has written with write(2) and its kin
    (files and sockets: its wchar)."""
    return proc_number(pid, "io", "wchar:")


def run_bounded(argv, timeout, log_path):
    """Runs argv in its own process group, at most timeout seconds (then
    SIGTERM, 5 s later SIGKILL to the whole group), its output to log_path
    (None: to the bench's standard error). Returns wall seconds, CPU
    seconds (os.wait4 of the child: the child and the descendants it
    waited for), peak RSS, the exit status and whether it timed out.

    Peak RSS is the largest VmHWM of the process tree, read every 20 ms
    while it runs, not wait4's ru_maxrss: Linux carries the high-water
    mark of the memory a process had before exec into its ru_maxrss, and
    a child spawned by this script starts with this script's own (after a
    big access log has been read, hundreds of MB; `sleep` would show as
    much). ru_maxrss is kept in the figures for comparison."""
    r = run_many([argv], timeout, [log_path])[0]
    del r["started_at"]
    return r


def run_many(argvs, timeout, log_paths, tick=None, kill_at=None):
    """run_bounded for several programs started at once (the workers of
    --workers), each in its own process group with its own figures; wall
    is each one's own, from the common start to its exit. The timeout is
    the whole run's. tick(), when given, is called at every poll (every
    20 ms) while any runs: the PostgreSQL CPU sampler. kill_at, when
    given, is (n, seconds): program n is killed with SIGKILL (its whole
    group) that long after the start, as a machine dying would stop it."""
    env = {k: v for k, v in os.environ.items()
           if not k.lower().endswith("_proxy")}
    outs = [open(path or os.devnull, "w") for path in log_paths]
    procs, done = [], {}
    try:
        t0 = time.monotonic()
        epoch0 = time.time()
        for argv, path, out in zip(argvs, log_paths, outs):
            procs.append(subprocess.Popen(
                argv, stdout=out if path else sys.stderr,  # not stdout,
                stderr=subprocess.STDOUT,       # which --json keeps for JSON
                stdin=subprocess.DEVNULL, env=env, start_new_session=True))
        deadline = t0 + timeout
        timed_out = set()  # the programs still running at the timeout
        peak_kb = [0] * len(procs)
        # The last count seen of each process of each tree: a process's
        # count is gone with it, so the sum misses at most its last 20 ms.
        wrote = [{} for _ in procs]
        while True:
            for n, proc in enumerate(procs):
                if n in done:
                    continue
                pid, status, ru = os.wait4(proc.pid, os.WNOHANG)
                if pid:
                    done[n] = (status, ru, time.monotonic() - t0)
                    continue
                tree = tree_pids(proc.pid)
                peak_kb[n] = max([peak_kb[n]] + [high_water_kb(p)
                                                 for p in tree])
                for p in tree:
                    wrote[n][p] = max(wrote[n].get(p, 0), written_bytes(p))
            if tick:
                tick()
            if (kill_at and kill_at[0] not in done and
                    time.monotonic() - t0 >= kill_at[1]):
                os.killpg(procs[kill_at[0]].pid, signal.SIGKILL)
                kill_at = None
            if len(done) == len(procs):
                break
            if time.monotonic() > deadline and not timed_out:
                for n, proc in enumerate(procs):
                    if n not in done:
                        timed_out.add(n)
                        os.killpg(proc.pid, signal.SIGTERM)
                deadline = time.monotonic() + 5
            elif timed_out and time.monotonic() > deadline:
                for n, proc in enumerate(procs):
                    if n not in done:
                        os.killpg(proc.pid, signal.SIGKILL)
                        pid, status, ru = os.wait4(proc.pid, 0)
                        done[n] = (status, ru, time.monotonic() - t0)
                break
            time.sleep(0.02)
    finally:
        for out in outs:
            out.close()
    results = []
    for n, proc in enumerate(procs):
        status, ru, wall = done[n]
        try:  # whatever the peer left behind in its group
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        results.append({"wall_s": round(wall, 2),
                        "started_at": round(epoch0, 3),
                        "cpu_s": round(ru.ru_utime + ru.ru_stime, 2),
                        "peak_rss_mb": round(peak_kb[n] / 1024, 1),
                        "ru_maxrss_mb": round(ru.ru_maxrss / 1024, 1),
                        # Each a page the kernel zeroes and maps: memory
                        # the allocator gave back and takes again.
                        "minor_faults": ru.ru_minflt,
                        "written_mb": round(sum(wrote[n].values()) / 2**20,
                                            1),
                        "exit": os.waitstatus_to_exitcode(status),
                        "timed_out": n in timed_out})
    return results


def cpu_ticks(pid):
    """(start time, utime + stime) of a live process, in clock ticks, from
    /proc/PID/stat; None once it is gone. The start time tells a reused
    pid from the process that had it."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    # After the command's ")": state is field 3, so utime (14), stime (15)
    # and starttime (22) are at 11, 12 and 19.
    return int(fields[19]), int(fields[11]) + int(fields[12])


class ClusterCpu:
    """PostgreSQL's own CPU during a run: utime + stime of the postmaster
    and every process under it (backends, checkpointer, WAL writer,
    autovacuum), sampled every 0.2 s and kept per process as last seen, so
    that a backend that has exited still counts (up to its last sample).
    Only utime + stime: a child's CPU also lands in its parent's cutime
    when it is reaped, and counting both would count it twice."""

    PERIOD_S = 0.2

    def __init__(self, postmaster):
        self.root = postmaster
        self.last = {}
        self.at = 0.0
        self.sample()
        self.before = dict(self.last)

    def sample(self):
        for pid in tree_pids(self.root):
            t = cpu_ticks(pid)
            if t:
                self.last[(pid, t[0])] = t[1]
        self.at = time.monotonic()

    def tick(self):
        if time.monotonic() - self.at >= self.PERIOD_S:
            self.sample()

    def seconds(self):
        """CPU seconds used since the first sample (take a last one)."""
        self.sample()
        ticks = sum(v - self.before.get(k, 0) for k, v in self.last.items())
        return ticks / os.sysconf("SC_CLK_TCK")

    def processes(self):
        return len(self.last)


class HeldSites:
    """The sites each live worker holds, sampled every PERIOD_S on a thread
    of its own (a psql session a sample, so the workers' poll loop never
    waits for it): a site is held while its lease names its holder's
    current epoch and that holder's heartbeat lives (docs/scaling.md,
    "Leases"). A worker counts from its first live heartbeat to its last,
    holding none in between counting as 0. Each sample's session is
    PostgreSQL CPU the run's figure includes (a few ms a sample)."""

    PERIOD_S = 2.0
    QUERY = ("SELECT w.holder, count(l.site) FROM lease_workers w LEFT JOIN "
             "site_leases l ON l.holder = w.holder AND l.epoch = w.epoch "
             "WHERE w.alive_until > "
             "(extract(epoch FROM clock_timestamp()) * 1000)::bigint "
             "GROUP BY w.holder")

    def __init__(self, pg):
        self.pg = pg
        self.held = collections.defaultdict(list)
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        while not self.stopping.wait(self.PERIOD_S):
            try:
                rows = self.pg.psql(self.QUERY)
            except Exception:  # noqa: BLE001 (no schema yet, or stopping)
                continue
            for line in rows.split():
                holder, n = line.split("|")
                self.held[holder].append(int(n))

    def stop(self):
        """{holder: {samples, min, median, max}} of the run."""
        self.stopping.set()
        self.thread.join()
        return {h: {"samples": len(v), "min": min(v),
                    "median": sorted(v)[len(v) // 2], "max": max(v)}
                for h, v in self.held.items()}


def postmaster_pid(pg):
    with open(os.path.join(pg.data(), "postmaster.pid")) as f:
        return int(f.readline())


WORKER_LINE = re.compile(
    r"^worker (\S+): (\d+) claims, (\d+) sites claimed \((\d+) taken over "
    r"after expiry\), (\d+) released, (\d+) lost", re.M)


STORED_LINE = re.compile(r"^heed crawl \([a-z]+\): (\d+) pages stored", re.M)


def worker_line(path):
    """The counts of a worker's summary lines in its output: its claims
    line and the pages it stored; {} without them."""
    try:
        with open(path, errors="replace") as f:
            text = f.read()
    except OSError:
        return {}
    m = WORKER_LINE.search(text)
    got = {} if not m else dict(zip(
        ("name", "claims", "sites_claimed", "taken_over", "released",
         "lost"), [m.group(1)] + [int(g) for g in m.groups()[1:]]))
    m = STORED_LINE.search(text)
    if m:
        got["pages_stored"] = int(m.group(1))
    return got


def pg_figures(pg):
    """What the run left in PostgreSQL: pages rows (as heed_figures counts
    SQLite's), frontier rows, sizes of the main tables with their indexes,
    and the WAL position (bytes written since the cluster began)."""
    if not pg.psql("SELECT to_regclass('pages') IS NOT NULL AND "
                   "to_regclass('frontier') IS NOT NULL AND "
                   "to_regclass('site_leases') IS NOT NULL").startswith("t"):
        # heed stopped before it created its tables (a refused option).
        return {"store_rows": 0, "store_rows_200": 0, "store_views": 0,
                "frontier_rows": 0, "site_leases_rows": 0,
                "pages_table_mb": 0, "frontier_table_mb": 0,
                "site_leases_table_mb": 0, "database_mb": 0}, wal_position(pg)
    q = pg.psql(
        "SELECT (SELECT count(*) FROM pages), "
        "(SELECT count(*) FROM pages WHERE status = 200), "
        "(SELECT count(views) FROM pages), "
        "(SELECT count(*) FROM frontier), "
        "(SELECT count(*) FROM site_leases), "
        "pg_total_relation_size('pages'), "
        "pg_total_relation_size('frontier'), "
        "pg_total_relation_size('site_leases'), "
        "pg_database_size(current_database()), "
        "pg_current_wal_lsn() - '0/0'").strip().split("|")
    n = [int(float(v)) for v in q]
    return {"store_rows": n[0], "store_rows_200": n[1], "store_views": n[2],
            "frontier_rows": n[3], "site_leases_rows": n[4],
            "pages_table_mb": round(n[5] / 2**20, 1),
            "frontier_table_mb": round(n[6] / 2**20, 1),
            "site_leases_table_mb": round(n[7] / 2**20, 1),
            "database_mb": round(n[8] / 2**20, 1)}, n[9]


# The tables whose row writes tell what a page and a site cost the store.
WRITE_TABLES = ("pages", "search_docs", "page_tags", "frontier",
                "site_leases", "lease_origins", "lease_workers", "crawl_runs")


TOP_STATEMENTS = 14


def pg_writes(pg):
    """Rows written per table (pg_stat_user_tables: inserted, updated,
    of which HOT, deleted) and the database's commits, once the workers'
    sessions have ended (a session's counts are flushed by then)."""
    rows = pg.psql(
        "SELECT relname, n_tup_ins, n_tup_upd, n_tup_hot_upd, n_tup_del "
        "FROM pg_stat_user_tables WHERE relname IN (%s) ORDER BY relname"
        % ", ".join("'%s'" % t for t in WRITE_TABLES)).split()
    writes = {}
    for row in rows:
        name, *n = row.split("|")
        writes[name] = dict(zip(("ins", "upd", "hot", "del"),
                                (int(v) for v in n)))
    commits = int(pg.psql("SELECT xact_commit FROM pg_stat_database "
                          "WHERE datname = current_database()"))
    # The search area's functions: time spent in each, all sessions
    # (track_functions, set by run_pg).
    search_fns = {}
    for line in pg.psql(
            "SELECT funcname, calls, total_time FROM pg_stat_user_functions "
            "WHERE funcname IN ('heed_search_pages', 'heed_search_mark', "
            "'heed_search_index_set') ORDER BY funcname").splitlines():
        if line.strip():
            name, calls, ms = line.strip().split("|")
            search_fns[name] = {"calls": int(calls),
                                "s": round(float(ms) / 1000, 2)}
    return {"row_writes": writes, "commits": commits,
            "search_functions": search_fns,
            "statements": pg_statements(pg, TOP_STATEMENTS),
            "profile": pg_profile(pg)}


def pg_statements(pg, limit):
    """The statements the server spent most time on (execution and
    planning), top level (the pg_stat_statements extension, loaded by
    pg_stats_setup), since the cluster began or the last
    pg_stat_statements_reset(), but for the bench's own reads of it.
    Statements that differ only in a partition's number are one
    (visits_N: a read of each partition by name)."""
    statements = []
    for line in pg.psql(
            "SELECT sum(calls), round(sum(total_exec_time + "
            "total_plan_time)::numeric, 1), sum(rows), left(q, 110) FROM "
            "(SELECT calls, total_exec_time, total_plan_time, rows, "
            "regexp_replace(regexp_replace(query, '\\s+', ' ', 'g'), "
            "'\\m([a-z]+)_[0-9]+\\M', '\\1_N', 'g') AS q FROM "
            "stats.pg_stat_statements WHERE toplevel AND dbid = (SELECT "
            "oid FROM pg_database WHERE datname = current_database()) AND "
            "query NOT LIKE '%%pg_stat_statements%%') s "  # the bench's own
            "GROUP BY q ORDER BY 2 DESC LIMIT %d" % limit).splitlines():
        if line.strip():
            calls, ms, rows, query = line.strip().split("|", 3)
            statements.append({"calls": int(calls), "ms": float(ms),
                               "rows": int(rows), "query": query})
    return statements


def pg_profile(pg):
    """Where PostgreSQL's work went, for a table of costs per page: every
    statement (nested ones too, inside triggers and the search area's
    functions, with HEED_BENCH_PG_NESTED: run_pg), with its time, calls,
    rows and WAL bytes; each index's scans and blocks touched
    (a write touches its index's leaf, so blocks grow with the writes); each
    table's autovacuum and autoanalyze runs; the WAL's records and full
    page images (pg_stat_wal)."""
    def rows(sql, fields=None):
        return [line.strip().split("|", fields - 1 if fields else -1)
                for line in pg.psql(sql).splitlines()
                if line.strip()]
    statements = [
        {"toplevel": t == "t", "calls": int(c), "exec_ms": float(e),
         "plan_ms": float(pl), "rows": int(r), "wal_bytes": int(w),
         "wal_fpi": int(f), "blks_dirtied": int(d), "query": q}
        for t, c, e, pl, r, w, f, d, q in rows(
            "SELECT toplevel, calls, round(total_exec_time::numeric, 1), "
            "round(total_plan_time::numeric, 1), rows, wal_bytes, wal_fpi, "
            "shared_blks_dirtied, left(regexp_replace(query, '\\s+', ' ', "
            "'g'), 160) FROM stats.pg_stat_statements WHERE dbid = (SELECT "
            "oid FROM pg_database WHERE datname = current_database()) ORDER "
            "BY total_exec_time DESC LIMIT 40", 9)]
    indexes = [
        {"table": t, "index": i, "scans": int(sc), "tup_read": int(tr),
         "blks": int(b), "mb": float(mb)}
        for t, i, sc, tr, b, mb in rows(
            "SELECT s.relname, s.indexrelname, s.idx_scan, s.idx_tup_read, "
            "io.idx_blks_hit + io.idx_blks_read, "
            "round(pg_relation_size(s.indexrelid) / 1048576.0, 1) FROM "
            "pg_stat_user_indexes s JOIN pg_statio_user_indexes io USING "
            "(indexrelid) ORDER BY io.idx_blks_hit + io.idx_blks_read DESC")]
    tables = [
        {"table": t, "ins": int(i), "upd": int(u), "hot": int(h),
         "del": int(d), "autovacuum": int(av), "autoanalyze": int(aa),
         "heap_blks": int(hb)}
        for t, i, u, h, d, av, aa, hb in rows(
            "SELECT s.relname, n_tup_ins, n_tup_upd, n_tup_hot_upd, "
            "n_tup_del, autovacuum_count, autoanalyze_count, "
            "heap_blks_hit + heap_blks_read FROM pg_stat_user_tables s JOIN "
            "pg_statio_user_tables io USING (relid) WHERE n_tup_ins + "
            "n_tup_upd + n_tup_del > 0 ORDER BY relname")]
    wal = rows("SELECT wal_records, wal_fpi, wal_bytes FROM pg_stat_wal")[0]
    return {"statements": statements, "indexes": indexes, "tables": tables,
            "wal": dict(zip(("records", "fpi", "bytes"),
                            (int(float(v)) for v in wal)))}


def wal_position(pg):
    return int(float(pg.psql("SELECT pg_current_wal_lsn() - '0/0'")))


def pg_stats_setup(pg):
    """Times the search area's functions (SQL ones too), and each
    statement (in a schema of its own: heed refuses a schema that holds
    relations it did not make); restarts the new cluster's server to load
    pg_stat_statements."""
    pg.psql("ALTER SYSTEM SET track_functions = 'all'")
    pg.psql("ALTER SYSTEM SET shared_preload_libraries = "
            "'pg_stat_statements'")
    pg.ctl("restart")
    pg.psql("CREATE SCHEMA stats; CREATE EXTENSION pg_stat_statements "
            "SCHEMA stats")
    pg.psql("ALTER SYSTEM SET pg_stat_statements.track_planning = on")
    # HEED_BENCH_PG_NESTED: statements inside triggers and functions
    # counted too (pg_profile), each beside the top-level one that ran
    # it; off by default, so the run costs what the earlier ones did.
    if os.environ.get("HEED_BENCH_PG_NESTED"):
        pg.psql("ALTER SYSTEM SET pg_stat_statements.track = 'all'")
    pg.psql("SELECT pg_reload_conf()")


def run_pg(a, run, argv):
    """heed on a throwaway PostgreSQL cluster (tests/pgcluster.py):
    --workers N runs N `heed crawl --worker` at once on one database,
    --store-pg one ordinary `heed crawl`. argv is heed_argv's, with the
    store still to be named. Returns the run's figures: the workers'
    own (wait4 each), their sum, PostgreSQL's CPU and WAL, the claims."""
    sys.path.insert(0, os.path.join(ROOT, "tests"))
    import pgcluster  # bench/ otherwise does not depend on tests/
    pg = pgcluster.PgCluster().start()
    try:
        store = argv.index("--store") + 1
        argv[store] = pg.url
        if a.workers:
            # The summary, where the claims line is, is not printed with
            # --quiet; log.level=0 keeps the log as quiet.
            argv = [x for x in argv if x != "--quiet"]
            argvs = [argv[:2] + ["--worker", "--worker-name", "w%d" % k] +
                     argv[2:] for k in range(1, a.workers + 1)]
        else:
            argvs = [argv]
        logs = [os.path.join(run, "output-w%d.log" % k if a.workers
                             else "output.log")
                for k in range(1, len(argvs) + 1)]
        pg_stats_setup(pg)
        wal0 = wal_position(pg)
        cpu = ClusterCpu(postmaster_pid(pg))
        held = HeldSites(pg) if a.workers else None
        procs = run_many(argvs, a.timeout, logs, cpu.tick,
                         (0, a.kill_worker_at) if a.kill_worker_at else None)
        held = held.stop() if held else {}
        pg_cpu = cpu.seconds()
        figures, wal1 = pg_figures(pg)
        figures.update(pg_writes(pg))
    except pgcluster.PgError as e:
        raise SystemExit("bench: PostgreSQL: %s" % e)
    finally:
        pg.stop()
    workers = []
    for k, (p, log) in enumerate(zip(procs, logs), 1):
        w = {"worker": "w%d" % k if a.workers else "crawl", **p}
        if a.workers:
            w.update({"claims": None, **worker_line(log),
                      "held_sites": held.get(w["worker"])})
        with open(log, errors="replace") as f:
            w["output_tail"] = f.read()[-1500:]
        workers.append(w)
    claims = [w.get("claims") for w in workers if a.workers]
    wall = max(p["wall_s"] for p in procs)
    r = {"store": "postgresql", "workers": a.workers or 0,
         "started_at": procs[0].pop("started_at"),
         "command": " ".join(argvs[0]),
         "wall_s": wall,
         "cpu_s": round(sum(p["cpu_s"] for p in procs), 2),
         "peak_rss_mb": max(p["peak_rss_mb"] for p in procs),
         "ru_maxrss_mb": max(p["ru_maxrss_mb"] for p in procs),
         "minor_faults": sum(p["minor_faults"] for p in procs),
         "exit": next((p["exit"] for p in procs if p["exit"]), 0),
         "timed_out": any(p["timed_out"] for p in procs),
         "per_worker": workers,
         "pg_cpu_s": round(pg_cpu, 2),
         "pg_processes_seen": cpu.processes(),
         "wal_mb": round((wal1 - wal0) / 2**20, 1), **figures}
    if a.workers:
        r["claims"] = None if None in claims else sum(claims)
        r["claims_per_s"] = None if r["claims"] is None else round(
            r["claims"] / max(wall, 1e-9), 1)
        for key in ("sites_claimed", "taken_over", "released", "lost"):
            r[key] = sum(w.get(key) or 0 for w in workers)
        r["sites_claimed_per_s"] = round(r["sites_claimed"] /
                                         max(wall, 1e-9), 1)
    r["output_tail"] = "\n".join("[%s] %s" % (w["worker"], w["output_tail"])
                                 for w in workers)
    for w in workers:
        del w["output_tail"]
        w.pop("started_at", None)
    return r


class Web:
    """The servers, names and seeds of one run of one peer."""

    def __init__(self, a, run, site):
        self.kind = a.web
        self.port = a.port
        self.servers = []
        self.dns = []
        if a.web == "shared":
            self.seeds = ["http://%s:%d/" % (site_name(i), a.port)
                          for i in range(a.sites)]
            hosts = [(a.address, site_name(i)) for i in range(a.sites)]
            workers = -(-a.sites // SITES_PER_NGINX)
            listen = "listen %s:%d default_server backlog=4096%s;" % (
                a.address, a.port, " reuseport" if workers > 1 else "")
            self.servers.append(Nginx(
                os.path.join(run, "nginx"), site, [listen],
                (a.address, a.port), a.sites + 1, workers))
        else:
            self.seeds = ["http://%s:%d/" % (address(i), a.port)
                          for i in range(a.sites)]
            hosts = []
            for first in range(0, a.sites, SITES_PER_NGINX):
                count = min(SITES_PER_NGINX, a.sites - first)
                listens = ["listen %s:%d;" % (address(i), a.port)
                           for i in range(first, first + count)]
                self.servers.append(Nginx(
                    os.path.join(run, "nginx%d" % first), site, listens,
                    (address(first + count - 1), a.port), count))
        self.seeds_file = os.path.join(run, "sites.txt")
        with open(self.seeds_file, "w") as f:
            f.writelines(s + "\n" for s in self.seeds)
        self.hosts = hosts

    def start_dns(self, run, sandbox_dns):
        """The dnsmasq heed and Scrapy ask (127.0.0.1, a free port) and,
        for sandboxed peers, the one their resolv.conf names."""
        self.dns.append(Dnsmasq(os.path.join(run, "dns"), self.hosts,
                                "127.0.0.1", free_port("127.0.0.1")))
        if sandbox_dns:
            self.dns.append(Dnsmasq(os.path.join(run, "dns"), self.hosts,
                                    peers.RESOLV_ADDR, 53))
        return self.dns[0].server

    def stop(self):
        for s in self.servers:
            s.stop()
        for d in self.dns:
            d.close()

    def site_of(self, entry):
        return entry.host if self.kind == "shared" else entry.server_addr


def prefill(a, store):
    """--store-from: the crawl starts in a copy of that store (its -wal
    too), so its cost is measured beside the records already held.
    Returns the store's figures before the crawl (None: a new store)."""
    if not a.store_from:
        return None
    for suffix in ("", "-wal"):
        if os.path.exists(a.store_from + suffix):
            shutil.copyfile(a.store_from + suffix, store + suffix)
    return heed_figures(store)


def heed_figures(store, before=None):
    """The store's figures; with before (prefill's), what the crawl
    added to it."""
    if before:
        now = heed_figures(store)
        return dict(now, **{k: now[k] - before[k] for k in now
                            if now[k] is not None and
                            before.get(k) is not None and
                            k != "store_index_waiting"},
                    store_rows_before=before["store_rows"])
    con = sqlite3.connect(store)
    rows, ok, views = con.execute(
        "SELECT count(*), coalesce(sum(status = 200), 0), count(views) "
        "FROM pages").fetchone()
    # The search index: how many pages it holds, and how many wait for it,
    # marked or inserted since the last catch-up's sweep (a store of a
    # heed before the sweep has no search_swept, before the marks no
    # search_pending: None).
    indexed = waiting = None
    for marks in ("SELECT page_id FROM search_pending UNION SELECT id "
                  "FROM pages WHERE id > (SELECT max_id FROM search_swept)",
                  "SELECT page_id FROM search_pending"):
        try:
            indexed, waiting = con.execute(
                "SELECT (SELECT count(*) FROM search_text), "
                f"(SELECT count(*) FROM ({marks}))").fetchone()
            break
        except sqlite3.Error:
            continue
    con.close()
    return {"store_rows": rows, "store_rows_200": ok, "store_views": views,
            "store_indexed": indexed, "store_index_waiting": waiting}


def heed_argv(a, store, dns, seeds_file):
    """heed crawl with its default settings, as every bench runs it."""
    argv = [a.heed, "crawl", "--quiet", "--store", store,
            "--dns-server", dns, "--allow-private",
            "--contact-email", "bench@example.org",
            "--sites", seeds_file]
    if a.concurrency is not None:
        argv += ["--concurrency", str(a.concurrency)]
    argv += os.environ.get("HEED_BENCH_ARGS", "").split()
    return argv + ["--set", "log.level=" +
                   os.environ.get("HEED_BENCH_LOG", "0")]


STRESS_NICE = 10


def stress(a, say):
    """--stress: a CPU hog on every core at the crawler's priority
    (tests/integration/cpuhogs.py), for the length of one run (each hog
    also stops by itself after --timeout). Without --stress, nothing."""
    if not a.stress:
        return contextlib.nullcontext()
    sys.path.insert(0, os.path.join(ROOT, "tests", "integration"))
    import cpuhogs  # bench/ otherwise does not depend on tests/
    hogs = cpuhogs.CpuHogs(nice=STRESS_NICE, seconds=a.timeout + 30)
    say("stress: %d CPU hogs at nice %d, the crawler under nice %d" % (
        hogs.count, STRESS_NICE, STRESS_NICE))
    return hogs


def stress_argv(a, argv):
    """argv under nice beside the hogs of --stress."""
    return ["nice", "-n", str(STRESS_NICE)] + argv if a.stress else argv


def run_peer(peer, a, base, site, say):
    """One peer over a fresh web: its process figures and the log's."""
    run = os.path.join(base, peer)
    os.makedirs(run)
    sandboxed = peer != "heed"
    if sandboxed and not peers.sandbox_works(run):
        if a.web == "shared":
            return {"peer": peer, "skipped": "no resolver sandbox (unshare "
                    "--mount as root): %s cannot resolve the shared web's "
                    "names without the system resolver" % peer}
        say("%s: no resolver sandbox; on the per-address web its URLs "
            "are addresses, so it runs without one" % peer)
        sandboxed = False
    web = Web(a, run, site)
    try:
        try:
            dns = web.start_dns(run, sandboxed)
        except RuntimeError as e:
            return {"peer": peer, "skipped": str(e)}
        out = os.path.join(run, "output.log")
        if peer == "heed":
            store = os.path.join(run, "heed.db")
            before = prefill(a, store)
            argv = heed_argv(a, store, dns, web.seeds_file)
            if a.wal_frames:
                pin = walframes.Pin(store, a.timeout)
        elif peer == "wget2":
            argv = peers.wget2_argv(web.seeds_file, run,
                                    a.concurrency or 5, a.wget2_wait)
        else:
            argv, items = peers.scrapy_argv(web.seeds_file, run, dns,
                                            a.concurrency or 256)
        command = " ".join(argv)
        if sandboxed:
            argv = peers.sandbox(run, argv)
        if peer == "heed" and (a.workers or a.store_pg):
            # Each program's output to its own file: the workers' summary
            # lines are read from there.
            proc = run_pg(a, run, argv)
            command = proc.pop("command")
        else:
            # HEED_BENCH_LOG: heed's log goes to the terminal, as it
            # always did.
            with stress(a, say):
                proc = run_bounded(
                    stress_argv(a, argv), a.timeout, None if peer ==
                    "heed" and os.environ.get("HEED_BENCH_LOG") else out)
    finally:
        web.stop()
        if peer == "heed" and a.wal_frames:
            wal = pin.finish()
    r = {"peer": peer, "command": command, "resolver_sandbox": sandboxed,
         **proc}
    if peer == "heed" and a.wal_frames:
        r["wal_frames"] = wal
    if peer == "heed" and "store" not in r:
        r.update(heed_figures(store, before))
    if peer == "scrapy":
        r["items"] = peers.count_lines(items)
    r["dns_queries"] = web.dns[0].queries()
    if len(web.dns) > 1:
        r["dns_queries_sandbox"] = web.dns[1].queries()
    r.update(log_figures(web))
    exist = a.sites * (a.pages + 1)
    r["pages_exist"] = exist
    r["pages_stored"] = r["store_rows_200"] if peer == "heed" \
        else r["log"]["pages_200"]
    r["coverage_pct"] = round(100 * r["pages_stored"] / exist, 2)
    r["coverage_log_pct"] = round(100 * r["log"]["pages_200"] / exist, 2)
    r["pages_per_s"] = round(r["pages_stored"] / max(r["wall_s"], 1e-9), 1)
    r["cpu_s_per_1000_pages"] = round(
        1000 * r["cpu_s"] / max(r["pages_stored"], 1), 3)
    if "minor_faults" in r:
        r["minor_faults_per_page"] = round(
            r["minor_faults"] / max(r["pages_stored"], 1), 2)
    if "written_mb" in r:
        r["written_kb_per_page"] = round(
            1024 * r["written_mb"] / max(r["pages_stored"], 1), 1)
    if "store" in r:
        pg_rates(r)
    elif os.path.exists(out):
        with open(out, errors="replace") as f:
            r["output_tail"] = f.read()[-2000:]
    else:
        r["output_tail"] = ""
    return r


def pg_rates(r):
    """The PostgreSQL run's figures per page and per worker."""
    pages = max(r["pages_stored"], 1)
    g = r["log"]
    if g["first_start_s"] is not None:
        # Before the first request: opening the store, the seeds, the
        # first claims; after the last: until each program exited.
        r["first_request_after_s"] = round(
            g["first_start_s"] - r["started_at"], 2)
        for w in r["per_worker"]:
            w["exit_after_last_request_s"] = round(
                r["started_at"] + w["wall_s"] - g["last_end_s"], 2)
    r["pg_cpu_s_per_1000_pages"] = round(1000 * r["pg_cpu_s"] / pages, 3)
    r["wal_kb_per_page"] = round(1024 * r["wal_mb"] / pages, 2)
    for w in r["per_worker"]:
        if w.get("pages_stored"):
            w["cpu_s_per_1000_pages"] = round(
                1000 * w["cpu_s"] / w["pages_stored"], 3)
    r["cpu_s_per_worker"] = [w["cpu_s"] for w in r["per_worker"]]


def log_figures(web):
    tuples, connections, bad, errors = [], set(), 0, []
    for n, server in enumerate(web.servers):
        entries, b = accesslog.read_log(server.access_log)
        bad += b
        for e in entries:
            tuples.append((web.site_of(e), e.start_ms / 1000, e.end_ms / 1000,
                           e.status, e.uri))
            connections.add((n, e.connection))
        errors += server.error_lines()
    figures = accesslog.analyse(tuples, is_page)
    figures["connections"] = len(connections)
    figures["bad_lines"] = bad
    return {"log": figures, "nginx_errors": len(errors),
            "nginx_error_sample": errors[:3]}


def uri_kind(uri):
    if uri == "/robots.txt":
        return "robots"
    if uri == "/sitemap.xml":
        return "sitemap"
    if uri == "/feed.xml":
        return "feed"
    if uri == "/":
        return "home"
    return "page" if is_page(uri) else "other"


def phase_figures(web, sites, pages, mutated):
    """One recrawl phase from its nginx log alone: requests, bytes sent,
    statuses and request kinds, requests per site, the courtesy figures,
    and which of the mutated (site, uri) were answered 200 (a page
    /p/N.html with N >= pages was added by a mutation)."""
    tuples, sent, per_site, kinds = [], 0, collections.Counter(), \
        collections.Counter()
    bad, errors, got, home_200 = 0, [], set(), set()
    for server in web.servers:
        entries, b = accesslog.read_log(server.access_log)
        bad += b
        for e in entries:
            site = web.site_of(e)
            tuples.append((site, e.start_ms / 1000, e.end_ms / 1000,
                           e.status, e.uri))
            sent += e.bytes
            per_site[site] += 1
            kinds["%s %d" % (uri_kind(e.uri), e.status)] += 1
            if e.status == 200 and (site, e.uri) in mutated:
                got.add((site, e.uri))
            if e.status == 200 and e.uri == "/":
                home_200.add(site)
        errors += server.error_lines()
    g = accesslog.analyse(tuples, is_page)
    return {"requests": g["requests"], "bytes_sent": sent,
            "statuses": g["statuses"],
            "share_304_pct": round(100 * int(g["statuses"].get("304", 0)) /
                                   max(g["requests"], 1), 2),
            "kinds": dict(sorted(kinds.items())),
            "requests_per_site_max": max(per_site.values(), default=0),
            "requests_per_site_mean": round(g["requests"] / sites, 3),
            "sites_requested": len(per_site),
            "mutated": len(mutated), "mutated_found": len(got),
            "mutated_missed": sorted("%s%s" % m for m in mutated - got)[:20],
            "mutated_missed_kinds": dict(collections.Counter(
                "added page" if uri_kind(uri) == "page" and
                int(uri[3:-5]) >= pages else uri_kind(uri)
                for _, uri in mutated - got)),
            # A missed page whose site's home page came whole in the run:
            # the page was linked from a page read, not only listed.
            "mutated_missed_home_200": sum(
                1 for site, uri in mutated - got
                if uri != "/" and site in home_200),
            "gaps": g["gaps"], "gaps_under_1s": g["gaps_under_1s"],
            "gaps_under_990ms": g["gaps_under_990ms"],
            "sites_with_gap_under_1s": g["sites_with_gap_under_1s"],
            "shortest_gap_s": g["shortest_gap_s"],
            "max_requests_one_site_1s": g["max_requests_one_site_1s"],
            "max_in_flight_one_site": g["max_in_flight_one_site"],
            "bad_lines": bad, "nginx_errors": len(errors),
            "nginx_error_sample": errors[:3]}


# The recrawl phases: (name, incremental, mutation before it).
# Steps 4 and 6 are the mutations (the second spares the pages of the
# first), before runs 5 and 7.
PHASES = ((1, "first full crawl", False, None),
          (2, "unchanged full recrawl", False, None),
          (3, "unchanged incremental", True, None),
          (5, "full recrawl, 5 % changed + 1 % added", False, 4),
          (7, "incremental, 5 % changed + 1 % added", True, 6))


def run_recrawl(a, base, say):
    """--recrawl: heed over the per-site web, one store, five runs (each
    with a fresh nginx and log on the same docroot), two mutations. With
    --store-pg the store is a throwaway PostgreSQL cluster's database, the
    same for the five runs (pg_phase)."""
    if not a.store_pg:
        return recrawl_phases(a, base, say, os.path.join(base, "heed.db"))
    sys.path.insert(0, os.path.join(ROOT, "tests"))
    import pgcluster  # bench/ otherwise does not depend on tests/
    pg = pgcluster.PgCluster().start()
    try:
        pg_stats_setup(pg)
        return recrawl_phases(a, base, say, pg.url, pg)
    except pgcluster.PgError as e:
        raise SystemExit("bench: PostgreSQL: %s" % e)
    finally:
        pg.stop()


def recrawl_phases(a, base, say, store, pg=None):
    """run_recrawl's five runs on store (a SQLite file, or pg's URL)."""
    if a.web == "shared":
        keys = [site_name(i) for i in range(a.sites)]
        root = "$host"
    else:
        keys = [address(i) for i in range(a.sites)]
        root = "$server_addr"
    content = SiteWeb(base, keys, ["http://%s:%d" % (k, a.port)
                                   for k in keys], a.pages)
    first, out = None, []
    for n, name, incremental, mutation in PHASES:
        mutated = set()
        if mutation:
            time.sleep(1.1)  # a later second than any fetch so far
            mutated = content.mutate(seed=mutation)
            say("phase %d, mutate: %d pages changed or added" % (
                mutation, len(mutated)))
        run = os.path.join(base, "phase%d" % n)
        os.makedirs(run)
        web = Web(a, run, os.path.join(content.root, root))
        try:
            dns = web.start_dns(run, False)
            argv = heed_argv(a, store, dns, web.seeds_file)
            if incremental:
                argv.insert(2, "--incremental")
            log = None if os.environ.get("HEED_BENCH_LOG") else \
                os.path.join(run, "output.log")
            if pg:
                proc, pg_phase_figures = pg_phase(pg, argv, a.timeout, log)
            else:
                proc = run_bounded(argv, a.timeout, log)
        finally:
            web.stop()
        r = {"phase": n, "name": name, "command": " ".join(argv), **proc,
             **phase_figures(web, a.sites, a.pages, mutated)}
        if pg:
            r.update(pg_phase_figures)
            requests = max(r["requests"], 1)
            r["cpu_s_per_1000_requests"] = round(
                1000 * r["cpu_s"] / requests, 3)
            r["pg_cpu_s_per_1000_requests"] = round(
                1000 * r["pg_cpu_s"] / requests, 3)
            r["wal_kb_per_request"] = round(1024 * r["wal_mb"] / requests,
                                            2)
        else:
            r.update(heed_figures(store))
        first = first or r
        r["requests_pct_of_first"] = round(
            100 * r["requests"] / max(first["requests"], 1), 2)
        r["bytes_pct_of_first"] = round(
            100 * r["bytes_sent"] / max(first["bytes_sent"], 1), 3)
        out.append(r)
        report_phase(a.web, r, say)
    return {"peer": "heed", "recrawl": out,
            "store": pg_figures(pg)[0] if pg else heed_figures(store),
            "page_kb": content.page_bytes // 1024}


RECRAWL_TOP_STATEMENTS = 8


def pg_phase(pg, argv, timeout, log):
    """One recrawl run on PostgreSQL: run_bounded's figures, and the
    server's own for that run alone: its CPU (ClusterCpu), the WAL
    written, the top statements (pg_stat_statements, reset before the
    run) and the store's rows after it (pg_figures, as heed_figures counts
    SQLite's), with the load average as the run starts."""
    pg.psql("SELECT stats.pg_stat_statements_reset()")
    load = machine_state()["load_1m"]
    wal0 = wal_position(pg)
    cpu = ClusterCpu(postmaster_pid(pg))
    proc = run_many([argv], timeout, [log], cpu.tick)[0]
    del proc["started_at"]
    pg_cpu = cpu.seconds()
    # The statements before pg_figures, whose count would be among them.
    statements = pg_statements(pg, RECRAWL_TOP_STATEMENTS)
    store, wal1 = pg_figures(pg)
    return proc, {"load_1m": load, "pg_cpu_s": round(pg_cpu, 2),
                  "pg_processes_seen": cpu.processes(),
                  "wal_mb": round((wal1 - wal0) / 2**20, 1),
                  "statements": statements, **store}


def report_phase(web, r, say):
    say("phase %d, %s: %s" % (r["phase"], r["name"], r["command"]))
    if r["exit"] != 0 or r["timed_out"]:
        say("  exit status %d%s" % (r["exit"], " (timed out, killed)"
                                     if r["timed_out"] else ""))
    say("  requests %d (%.2f %% of phase 1), bytes sent %d (%.3f %% of "
        "phase 1), 304s %.2f %%; status %s" % (
            r["requests"], r["requests_pct_of_first"], r["bytes_sent"],
            r["bytes_pct_of_first"], r["share_304_pct"],
            ", ".join("%s: %d" % kv for kv in r["statuses"].items()) or "-"))
    say("  by kind: %s" % (", ".join("%s: %d" % kv
                                     for kv in r["kinds"].items()) or "-"))
    say("  requests per site: max %d, mean %.2f (%d sites requested); "
        "store after the run: %d rows, %d with status 200" % (
            r["requests_per_site_max"], r["requests_per_site_mean"],
            r["sites_requested"], r["store_rows"], r["store_rows_200"]))
    if r["mutated"]:
        say("  changed + added pages found (answered 200): %d of %d, missed"
            " %d%s%s" % (r["mutated_found"], r["mutated"],
                         r["mutated"] - r["mutated_found"],
                         " (%s; pages of sites whose home page was "
                         "answered 200: %d)" % (", ".join(
                             "%s: %d" % kv for kv in
                             sorted(r["mutated_missed_kinds"].items())),
                             r["mutated_missed_home_200"])
                         if r["mutated_missed_kinds"] else "",
                         ", e.g. " + " ".join(r["mutated_missed"][:3])
                         if r["mutated_missed"] else ""))
    say("  same-site gaps (site = %s): %d under 1.000 s (%d under 0.990 s,"
        " at %d sites) of %d, shortest %s; most to one site in any 1 s: %d;"
        " wall %.1f s%s" % (
            "Host" if web == "shared" else "server address",
            r["gaps_under_1s"], r["gaps_under_990ms"],
            r["sites_with_gap_under_1s"], r["gaps"],
            fmt_s(r["shortest_gap_s"]),
            r["max_requests_one_site_1s"], r["wall_s"],
            "; nginx error log: %d lines" % r["nginx_errors"]
            if r["nginx_errors"] else ""))
    if "pg_cpu_s" in r:
        say("  heed cpu %.2f s (%.2f s per 1000 requests); PostgreSQL cpu "
            "%.2f s (%.2f s per 1000 requests; %d processes seen), WAL %.1f "
            "MB (%.2f KB per request); load %s at the start" % (
                r["cpu_s"], r["cpu_s_per_1000_requests"], r["pg_cpu_s"],
                r["pg_cpu_s_per_1000_requests"], r["pg_processes_seen"],
                r["wal_mb"], r["wal_kb_per_request"],
                "?" if r["load_1m"] is None else "%.2f" % r["load_1m"]))
        say("  statements by the server's time (pg_stat_statements, top "
            "level, this run): ms in all, calls, us a call, rows a call")
        for st in r["statements"]:
            say("    %9.1f %7d %7.1f %7.1f  %s" % (
                st["ms"], st["calls"], 1000 * st["ms"] / max(st["calls"], 1),
                st["rows"] / max(st["calls"], 1), st["query"]))


def recrawl_table(web, phases, say):
    """The phases as one Markdown table (docs/performance.md)."""
    say("| web | phase | requests | % of first | bytes sent | % of first "
        "| 304s | requests per site, max / mean | changed + added found | "
        "gaps under 1 s | most to a site in 1 s | wall |")
    say("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- "
        "| --- |")
    for r in phases:
        say("| %s | %d. %s | %d | %.2f %% | %d | %.3f %% | %.1f %% | %d / "
            "%.2f | %s | %d of %d | %d | %.1f s |" % (
                web, r["phase"], r["name"], r["requests"],
                r["requests_pct_of_first"], r["bytes_sent"],
                r["bytes_pct_of_first"], r["share_304_pct"],
                r["requests_per_site_max"], r["requests_per_site_mean"],
                "%d of %d" % (r["mutated_found"], r["mutated"])
                if r["mutated"] else "-", r["gaps_under_1s"], r["gaps"],
                r["max_requests_one_site_1s"], r["wall_s"]))
    if phases and "pg_cpu_s" in phases[0]:
        say("")
        say("| web | phase | requests | 304s | heed CPU | per 1,000 requests "
            "| PG CPU | per 1,000 requests | WAL | gaps under 1 s | most to "
            "a site in 1 s | wall | load |")
        say("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | "
            "--- | --- | --- |")
        for r in phases:
            say("| %s | %d. %s | %d | %.1f %% | %.2f s | %.3f s | %.2f s | "
                "%.3f s | %.1f MB | %d of %d | %d | %.1f s | %s |" % (
                    web, r["phase"], r["name"], r["requests"],
                    r["share_304_pct"], r["cpu_s"],
                    r["cpu_s_per_1000_requests"], r["pg_cpu_s"],
                    r["pg_cpu_s_per_1000_requests"], r["wal_mb"],
                    r["gaps_under_1s"], r["gaps"],
                    r["max_requests_one_site_1s"], r["wall_s"],
                    "?" if r["load_1m"] is None else "%.2f" % r["load_1m"]))


# Exit statuses that mean the crawl ran to its end: wget2 exits 8 when
# any answer was an error (the 404s of the media links it follows).
EXPECTED_EXIT = {"heed": (0,), "wget2": (0, 8), "scrapy": (0,)}


def ok(r):
    return "skipped" in r or (r["exit"] in EXPECTED_EXIT[r["peer"]]
                              and not r["timed_out"]
                              and r["pages_stored"] > 0)


def fmt_s(v):
    return "-" if v is None else "%.3f s" % v


def report(web, r, say):
    if "skipped" in r:
        say("peer %s: skipped: %s" % (r["peer"], r["skipped"]))
        return
    g = r["log"]
    say("peer %s%s: %s" % (r["peer"], " (in the resolver sandbox)"
                           if r["resolver_sandbox"] else "", r["command"]))
    if not ok(r):
        say("  exit status %d%s; last output:\n%s" % (
            r["exit"], " (timed out, killed)" if r["timed_out"] else "",
            "\n".join("    " + line for line in
                      r["output_tail"].splitlines()[-8:])))
    say("  requests %d on %d TCP connections (nginx log); status %s" % (
        g["requests"], g["connections"],
        ", ".join("%s: %d" % kv for kv in g["statuses"].items()) or "-"))
    if r["peer"] == "heed":
        stored = "pages stored %d (store: %d rows, %d with status 200, " \
                 "%d with views)" % (r["pages_stored"], r["store_rows"],
                                     r["store_rows_200"], r["store_views"])
        if r.get("store_indexed") is not None:
            stored += "; search index: %d pages, %d waiting" % (
                r["store_indexed"], r["store_index_waiting"])
        if r.get("store_rows_before") is not None:
            stored += "; added to a store of %d pages" % (
                r["store_rows_before"])
    else:
        stored = "pages stored %d (distinct pages answered 200%s)" % (
            r["pages_stored"], ", %d items written" % r["items"]
            if "items" in r else "")
    say("  " + stored)
    if r["pages_stored"] == 0:
        say("  WARNING: nothing crawled; the peer's output is in "
            "output.log (HEED_BENCH_KEEP=1 keeps it)")
    say("  coverage %.1f %% of %d pages; from the log %.1f %% (%d distinct "
        "pages answered 200)" % (r["coverage_pct"], r["pages_exist"],
                                 r["coverage_log_pct"], g["pages_200"]))
    say("  wall %.1f s, pages/s %.0f, cpu %.2f s, cpu per 1000 pages %.2f s,"
        " peak RSS %.1f MB" % (r["wall_s"], r["pages_per_s"], r["cpu_s"],
                               r["cpu_s_per_1000_pages"], r["peak_rss_mb"]))
    if "minor_faults_per_page" in r:
        say("  page faults (minor) %d, %.2f a page stored"
            % (r["minor_faults"], r["minor_faults_per_page"]))
    if "written_kb_per_page" in r:
        say("  written by the crawler (files and sockets): %.1f MB, %.1f KB "
            "a page stored" % (r["written_mb"], r["written_kb_per_page"]))
    if "error" in r.get("wal_frames", {}):
        say("  SQLite WAL: not counted (%s)" % r["wal_frames"]["error"])
    elif "wal_frames" in r:
        w = r["wal_frames"]
        # store_rows counts what this crawl added; pages_before, the
        # pages of the store when the pin took hold.
        n = max(r["store_rows"] + r.get("store_rows_before", 0) -
                w["pages_before"], 1)
        say("  SQLite WAL after the first %d pages: %d frames in %d commits,"
            " %.2f frames (%.1f KB) a page stored; by table or index, "
            "frames a page:" % (w["pages_before"], w["frames"], w["commits"],
                                w["frames"] / n, w["frames"] * 4.0 / n))
        for name, count in w["owners"][:16]:
            say("    %-28s %6.2f  (%4.1f %%)" % (
                name, count / n, 100.0 * count / max(w["frames"], 1)))
    say("  same-site gaps (site = %s): %d gaps, %d under 1.000 s (%d under "
        "0.990 s) at %d of %d sites; shortest %s, median %s" % (
            "Host" if web == "shared" else "server address", g["gaps"],
            g["gaps_under_1s"], g["gaps_under_990ms"],
            g["sites_with_gap_under_1s"], g["sites"],
            fmt_s(g["shortest_gap_s"]), fmt_s(g["median_gap_s"])))
    say("  most requests to one site in any 1 s window: %d; most in flight "
        "to one site: %d; URLs asked more than once: %d" % (
            g["max_requests_one_site_1s"], g["max_in_flight_one_site"],
            g["urls_asked_again"]))
    say("  in flight to %s: peak %d, mean %s over %.1f s, mean found by "
        "each request as it started %s" % (
            "the one address" if web == "shared" else "all addresses",
            g["peak_in_flight"], "-" if g["mean_in_flight"] is None
            else "%.3f" % g["mean_in_flight"], g["span_s"],
            "-" if g["mean_in_flight_at_start"] is None
            else "%.2f" % g["mean_in_flight_at_start"]))
    dns = "DNS queries to the bench's dnsmasq: %d" % r["dns_queries"]
    if "dns_queries_sandbox" in r:
        dns += " (+ %d through the sandbox's resolv.conf)" % \
            r["dns_queries_sandbox"]
    say("  %s; nginx error log: %d lines%s%s" % (
        dns, r["nginx_errors"],
        ("; e.g. " + r["nginx_error_sample"][0][:160])
        if r["nginx_errors"] else "",
        "; unparsed log lines: %d" % g["bad_lines"] if g["bad_lines"] else ""))


def report_pg(r, say):
    """The PostgreSQL figures of a --workers or --store-pg run."""
    if "first_request_after_s" in r:
        say("  first request %.1f s after the start; each exited %s s "
            "after the last request ended" % (
                r["first_request_after_s"], " / ".join(
                    "%.1f" % w["exit_after_last_request_s"]
                    for w in r["per_worker"])))
    for w in r["per_worker"]:
        say("  %s: wall %.1f s, cpu %.2f s%s, peak RSS %.1f MB, exit %d%s%s"
            % (w["worker"], w["wall_s"], w["cpu_s"],
               " (%d pages stored, %.2f s per 1000)" % (
                   w["pages_stored"], w["cpu_s_per_1000_pages"])
               if w.get("cpu_s_per_1000_pages") is not None else "",
               w["peak_rss_mb"], w["exit"],
               " (timed out)" if w["timed_out"] else "",
               "; %d claims, %d sites claimed (%d taken over), %d "
               "released, %d lost" % (w["claims"], w["sites_claimed"],
                                      w["taken_over"], w["released"],
                                      w["lost"])
               if w.get("claims") is not None else
               "; no worker summary line" if r["workers"] else ""))
        h = w.get("held_sites")
        if h:
            say("    sites held, %d samples every %.0f s while its heartbeat "
                "lived: min %d, median %d, max %d" % (
                    h["samples"], HeldSites.PERIOD_S, h["min"], h["median"],
                    h["max"]))
    say("  PostgreSQL: cpu %.2f s (%.2f s per 1000 pages; %d processes "
        "seen), WAL %.1f MB (%.2f KB per page); pages %.1f MB, frontier "
        "%.1f MB (%d rows), site_leases %.1f MB (%d rows), database %.1f MB"
        % (r["pg_cpu_s"], r["pg_cpu_s_per_1000_pages"],
           r["pg_processes_seen"], r["wal_mb"], r["wal_kb_per_page"],
           r["pages_table_mb"], r["frontier_table_mb"], r["frontier_rows"],
           r["site_leases_table_mb"], r["site_leases_rows"],
           r["database_mb"]))
    pages = max(r["pages_stored"], 1)
    say("  rows written per page stored (inserted/updated (HOT)/deleted): "
        "%s; commits %d (%.2f per page)" % (
            ", ".join("%s %.2f/%.2f (%.2f)/%.2f" % (
                t, n["ins"] / pages, n["upd"] / pages, n["hot"] / pages,
                n["del"] / pages)
                for t, n in sorted(r["row_writes"].items())
                if n["ins"] or n["upd"] or n["del"]),
            r["commits"], r["commits"] / pages))
    for name, f in r["search_functions"].items():
        say("  the search area's %s: %d calls, %.1f s inside it (all "
            "sessions; %.2f ms a call, %.2f ms a page stored)" % (
                name, f["calls"], f["s"],
                1000 * f["s"] / max(f["calls"], 1), 1000 * f["s"] / pages))
    say("  statements by the server's time (pg_stat_statements, top "
        "level): ms in all, ms a page stored, calls a page, rows a call")
    for st in r["statements"]:
        say("    %9.1f %6.3f %6.2f %7.1f  %s" % (
            st["ms"], st["ms"] / pages, st["calls"] / pages,
            st["rows"] / max(st["calls"], 1), st["query"]))
    report_pg_profile(r["profile"], pages, say)
    if r["workers"]:
        say("  claims %s, %s/s over the wall; %d sites claimed (%.1f/s; "
            "%d taken over after expiry), %d released, %d lost" % (
                "-" if r["claims"] is None else r["claims"],
                "-" if r["claims_per_s"] is None else r["claims_per_s"],
                r["sites_claimed"], r["sites_claimed_per_s"],
                r["taken_over"], r["released"], r["lost"]))


def report_pg_profile(f, pages, say):
    """pg_profile's figures per page stored."""
    w = f["wal"]
    say("  WAL: %.1f records, %.2f full page images, %.0f bytes a page "
        "stored (pg_stat_wal, the schema's creation included)" % (
            w["records"] / pages, w["fpi"] / pages, w["bytes"] / pages))
    say("  every statement, nested ones marked '>' (pg_stat_statements; "
        "HEED_BENCH_PG_NESTED=1 counts them; their time is inside their "
        "caller's): "
        "execution us a page, planning us a page, calls a page, rows a "
        "call, WAL bytes a page, full page images a page, blocks dirtied "
        "a page")
    for st in f["statements"][:20]:
        say("    %s%7.1f %6.1f %6.2f %7.1f %7.0f %5.2f %5.2f  %s" % (
            " " if st["toplevel"] else ">", 1000 * st["exec_ms"] / pages,
            1000 * st["plan_ms"] / pages, st["calls"] / pages,
            st["rows"] / max(st["calls"], 1), st["wal_bytes"] / pages,
            st["wal_fpi"] / pages, st["blks_dirtied"] / pages, st["query"]))
    say("  indexes: blocks touched a page (hit + read), scans a page, "
        "tuples read a scan, MB")
    for i in f["indexes"]:
        if i["blks"] or i["scans"]:
            say("    %6.2f %6.2f %7.1f %7.1f  %s.%s" % (
                i["blks"] / pages, i["scans"] / pages,
                i["tup_read"] / max(i["scans"], 1), i["mb"], i["table"],
                i["index"]))
    say("  tables: inserted, updated (HOT), deleted a page; heap blocks "
        "touched a page; autovacuum and autoanalyze runs")
    for t in f["tables"]:
        say("    %5.2f %5.2f (%5.2f) %5.2f %6.2f  %d %d  %s" % (
            t["ins"] / pages, t["upd"] / pages, t["hot"] / pages,
            t["del"] / pages, t["heap_blks"] / pages, t["autovacuum"],
            t["autoanalyze"], t["table"]))


def pg_table_row(r, say):
    """One row of docs/performance.md's workers table."""
    g = r["log"]
    say("| workers | requests | gaps under 1 s (shortest) | most to a site "
        "in 1 s | coverage | wall | pages/s | CPU per worker | CPU per "
        "1,000 pages | PG CPU | claims | claims/s |")
    say("| %s | %d | %d (%s) | %d | %.1f %% | %.1f s | %.0f | %s | %.2f s "
        "| %.1f s (%.2f s per 1,000 pages) | %s | %s |" % (
            r["workers"] or "1 (no --worker)", g["requests"],
            g["gaps_under_1s"], fmt_s(g["shortest_gap_s"]),
            g["max_requests_one_site_1s"], r["coverage_pct"], r["wall_s"],
            r["pages_per_s"], " / ".join("%.1f s" % c
                                         for c in r["cpu_s_per_worker"]),
            r["cpu_s_per_1000_pages"], r["pg_cpu_s"],
            r["pg_cpu_s_per_1000_pages"],
            "-" if r.get("claims") is None else "%d (%d sites)" % (
                r["claims"], r["sites_claimed"]),
            "-" if r.get("claims_per_s") is None else "%s (%s sites)" % (
                r["claims_per_s"], r["sites_claimed_per_s"])))


def main():
    ap = argparse.ArgumentParser(
        description="heed crawl and peers over a synthetic loopback web",
        epilog="See the docstring of bench/crawl/bench.py.")
    ap.add_argument("--web", choices=("per-address", "shared"),
                    default="per-address")
    ap.add_argument("--sites", type=int, default=100)
    ap.add_argument("--pages", type=int, default=10)
    ap.add_argument("--port", type=int, default=18081)
    ap.add_argument("--address", default="127.0.0.2",
                    help="the shared web's one address (127.0.0.0/8)")
    ap.add_argument("--wget2-wait", type=float, default=1.0,
                    help="wget2's --wait (per thread; 0: none, for a "
                    "speed figure)")
    ap.add_argument("--concurrency", type=int, default=None,
                    help="requests in flight over all sites (default: each "
                    "peer's own; heed gets --concurrency only when given)")
    ap.add_argument("--heed", default=os.path.join(ROOT, "build", "heed"))
    ap.add_argument("--peer", action="append",
                    choices=("heed", "wget2", "scrapy"),
                    help="repeatable; default heed")
    ap.add_argument("--timeout", type=float, default=1800,
                    help="seconds per peer run (then killed)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--workers", type=int, default=0, metavar="N",
                    help="heed only: N `heed crawl --worker` at once on a "
                    "throwaway PostgreSQL cluster (tests/pgcluster.py)")
    ap.add_argument("--kill-worker-at", type=float, default=0,
                    metavar="S", help="with --workers: SIGKILL worker w1 "
                    "S seconds after the start (its sites are taken over "
                    "once its leases expire)")
    ap.add_argument("--store-pg", action="store_true",
                    help="heed only: one ordinary heed crawl, its store on "
                    "a throwaway PostgreSQL cluster; with --recrawl, the "
                    "five runs on one such cluster, with its CPU, WAL and "
                    "top statements per run")
    ap.add_argument("--stress", action="store_true",
                    help="a CPU hog on every core at nice %d and the "
                    "crawler under nice %d: the gaps on a starved "
                    "machine, beside the speed" % (STRESS_NICE, STRESS_NICE))
    ap.add_argument("--store-from", metavar="FILE",
                    help="heed only, SQLite: crawl into a copy of this "
                    "store (e.g. bench/serve's generated records), to "
                    "measure the cost beside what a store already holds")
    ap.add_argument("--wal-frames", action="store_true",
                    help="heed only, SQLite: keep the crawl's whole WAL "
                    "(a reader holds it) and say which table or index "
                    "each frame wrote (bench/crawl/walframes.py); its "
                    "CPU figures are not the crawl's usual ones")
    ap.add_argument("--recrawl", action="store_true",
                    help="heed only: per-site web, full crawl, unchanged "
                    "full and incremental recrawls, then 5 %% changed + "
                    "1 %% added before a full and an incremental run "
                    "(on SQLite; on PostgreSQL with --store-pg)")
    a = ap.parse_args()
    if not a.address.startswith("127.") or a.sites < 1 or a.pages < 0:
        ap.error("--address must be in 127.0.0.0/8, --sites >= 1")
    if a.web == "per-address" and a.sites > 250 * 256:
        ap.error("the per-address web has at most 64,000 addresses")
    say = (lambda msg: print(msg, file=sys.stderr)) if a.json else print
    chosen = list(dict.fromkeys(a.peer or ["heed"]))
    if a.recrawl and chosen != ["heed"]:
        ap.error("--recrawl runs heed only")
    if a.stress and (a.recrawl or a.workers or a.store_pg):
        ap.error("--stress runs plain crawls (no --recrawl, --workers, "
                 "--store-pg)")
    if (a.workers or a.store_pg) and chosen != ["heed"]:
        ap.error("--workers and --store-pg run heed only")
    if a.workers and a.recrawl:
        ap.error("--recrawl runs one heed crawl at a time (--store-pg, not "
                 "--workers)")
    if a.kill_worker_at and a.workers < 2:
        ap.error("--kill-worker-at needs --workers 2 or more")
    if a.wal_frames and (chosen != ["heed"] or a.recrawl or a.workers or
                         a.store_pg):
        ap.error("--wal-frames runs one heed crawl on SQLite")
    if a.workers < 0 or (a.workers and a.store_pg):
        ap.error("--workers N needs N >= 1 and implies a PostgreSQL store "
                 "(no --store-pg)")
    for peer in chosen:
        if peer != "heed":
            peers.ensure_installed(peer, say)
    # Each kept connection costs a descriptor on both sides.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))

    base = tempfile.mkdtemp(prefix="heed-bench-crawl-")
    os.chmod(base, 0o755)  # nginx workers may run as another user
    if a.recrawl:
        return main_recrawl(a, base, say)
    site, page_bytes = make_web(base, a.pages)
    head = {"web": a.web, "sites": a.sites, "pages_per_site": a.pages,
            "pages_exist": a.sites * (a.pages + 1),
            "page_kb": page_bytes // 1024, "port": a.port,
            "address": a.address if a.web == "shared" else "127.1.x.y",
            "concurrency": a.concurrency, "timeout_s": a.timeout,
            "stress": a.stress}
    if a.web == "shared":
        say("web shared: %d sites (name-based virtual hosts sNNNNN.bench.test)"
            " on %s:%d, one nginx; pages/site %d (+ index), page size %d KB"
            % (a.sites, a.address, a.port, a.pages, page_bytes // 1024))
    else:
        say("web per-address: %d sites on 127.1.x.y:%d (one address each); "
            "pages/site %d (+ index), page size %d KB" %
            (a.sites, a.port, a.pages, page_bytes // 1024))
    head["machine"] = machine_state()
    say(machine_line(head["machine"]))
    runs = []
    try:
        for peer in chosen:
            r = run_peer(peer, a, base, site, say)
            runs.append(r)
            report(a.web, r, say)
            if "store" in r:
                report_pg(r, say)
                pg_table_row(r, say)
    finally:
        if os.environ.get("HEED_BENCH_KEEP"):
            say("kept %s" % base)
        else:
            shutil.rmtree(base, ignore_errors=True)
    if a.json:
        for r in runs:
            r.pop("output_tail", None)
        print(json.dumps({**head, "runs": runs}, indent=1))
    return 0 if all(ok(r) for r in runs) else 1


def machine_state():
    """What decides whether the run had the machine to itself: the load
    average as it starts, the CPUs, and whether the kernel groups tasks by
    session (autogroup), where nice ranks a process only against those of
    its own session: a build or a test at nice 19 started from another
    shell then takes as much CPU as the crawl."""
    m = {"cpus": os.cpu_count()}
    try:
        with open("/proc/loadavg") as f:
            m["load_1m"] = float(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        m["load_1m"] = None
    try:
        with open("/proc/sys/kernel/sched_autogroup_enabled") as f:
            m["autogroup"] = f.read().strip() == "1"
    except OSError:
        m["autogroup"] = None
    return m


def machine_line(m):
    line = "machine: %s CPUs, load %s at the start" % (
        m["cpus"], "?" if m["load_1m"] is None else "%.2f" % m["load_1m"])
    if m["autogroup"]:
        line += ("; autogroup on: nice does not rank processes of other "
                 "sessions, so work started elsewhere, even at nice 19, "
                 "shares the CPUs with the crawl (off: echo 0 > "
                 "/proc/sys/kernel/sched_autogroup_enabled)")
    return line


def main_recrawl(a, base, say):
    say("recrawl, web %s: %d sites, %d pages each (+ home), each site its "
        "own docroot, robots.txt, sitemap.xml and feed.xml" % (
            a.web, a.sites, a.pages))
    if a.store_pg:
        say("store: a throwaway PostgreSQL cluster, one database for the "
            "five runs")
        say(machine_line(machine_state()))
    try:
        r = run_recrawl(a, base, say)
    finally:
        if os.environ.get("HEED_BENCH_KEEP"):
            say("kept %s" % base)
        else:
            shutil.rmtree(base, ignore_errors=True)
    recrawl_table(a.web, r["recrawl"], say)
    if a.json:
        print(json.dumps({"web": a.web, "sites": a.sites,
                          "pages_per_site": a.pages,
                          **({"store_kind": "postgresql"} if a.store_pg
                             else {}), **r}, indent=1))
    return 0 if all(p["exit"] == 0 and not p["timed_out"]
                    for p in r["recrawl"]) else 1


if __name__ == "__main__":
    sys.exit(main())
