#!/usr/bin/env python3
"""bench/crawl: heed crawl over a synthetic web served by nginx on loopback.

SITES sites, each on its own address 127.1.x.y (all on one port, one
docroot, one nginx per 4,000 sites), each with PAGES pages of about 50 KB of realistic markup (og
tags, JSON-LD VideoObject with views and tags, navigation, paragraphs):
heed fetches robots.txt, then the pages, at one request per second per
site at most. Prints pages/s, CPU seconds per 1,000 pages and peak RSS of
the heed process (getrusage of the child), with the numbers of requests
nginx logged. Nothing leaves 127.0.0.0/8.

    python3 bench/crawl/bench.py --sites 1000 --pages 10 [--heed build/heed]
"""
import argparse
import os
import resource
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def address(i):
    return "127.1.%d.%d" % (i // 250, i % 250 + 1)


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


# Sites per nginx: each site costs nginx a listening socket and a kept
# connection, and one process may hold only as many descriptors as the
# hard limit allows (20,000 on the build machine).
SITES_PER_NGINX = 4000


def start_nginx(base, site, first, count, port):
    """One nginx serving sites first .. first+count-1, logging to its own
    access log; returns the process once the last address answers."""
    run = os.path.join(base, "nginx%d" % first)
    os.makedirs(os.path.join(run, "tmp"))
    conf = os.path.join(run, "nginx.conf")
    listens = "".join("    listen %s:%d;\n" % (address(i), port)
                      for i in range(first, first + count))
    with open(conf, "w") as f:
        f.write("""worker_processes 1;
worker_rlimit_nofile %(nofile)d;
pid %(run)s/nginx.pid;
error_log %(run)s/error.log;
daemon off;
events { worker_connections %(conns)d; }
http {
  log_format timed '$msec $server_addr $status $request_uri $connection_requests';
  access_log %(run)s/access.log timed;
  client_body_temp_path %(run)s/tmp;
  proxy_temp_path %(run)s/tmp;
  fastcgi_temp_path %(run)s/tmp;
  uwsgi_temp_path %(run)s/tmp;
  scgi_temp_path %(run)s/tmp;
  types { text/html html; text/plain txt; }
  server {
%(listens)s    root %(site)s;
  }
}
""" % {"run": run, "listens": listens, "site": site,
       # Each listening address takes a connection slot too: with fewer
       # slots than addresses plus kept connections, nginx silently closes
       # kept connections ("worker_connections are not enough").
       "conns": 2 * count + 1024, "nofile": 3 * count + 1024})
    proc = subprocess.Popen(["/usr/sbin/nginx", "-c", conf, "-p", run],
                            stderr=subprocess.DEVNULL)
    last = address(first + count - 1)
    for _ in range(300):
        if proc.poll() is not None:
            raise SystemExit("nginx did not start: see %s" % conf)
        try:
            socket.create_connection((last, port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.05)
    return proc, os.path.join(run, "access.log")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sites", type=int, default=100)
    ap.add_argument("--pages", type=int, default=10)
    ap.add_argument("--port", type=int, default=18081)
    ap.add_argument("--concurrency", type=int, default=256)
    ap.add_argument("--heed", default=os.path.join(ROOT, "build", "heed"))
    a = ap.parse_args()
    base = tempfile.mkdtemp(prefix="heed-bench-crawl-")
    os.chmod(base, 0o755)  # nginx workers may run as another user
    site, page_bytes = make_web(base, a.pages)
    servers = [start_nginx(base, site, first,
                           min(SITES_PER_NGINX, a.sites - first), a.port)
               for first in range(0, a.sites, SITES_PER_NGINX)]
    seeds = os.path.join(base, "sites.txt")
    with open(seeds, "w") as f:
        for i in range(a.sites):
            f.write("http://%s:%d/\n" % (address(i), a.port))
    store = os.path.join(base, "heed.db")
    try:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.monotonic()
        subprocess.run([a.heed, "crawl", "--quiet", "--store", store,
                        "--allow-private", "--contact-email",
                        "bench@example.org", "--sites", seeds,
                        "--concurrency", str(a.concurrency),
                        *os.environ.get("HEED_BENCH_ARGS", "").split(),
                        "--set", "log.level=" + os.environ.get("HEED_BENCH_LOG", "0")], check=True)
        wall = time.monotonic() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    finally:
        for proc, _ in servers:
            proc.terminate()
            proc.wait()
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    con = sqlite3.connect(store)
    pages = con.execute("SELECT count(*) FROM pages").fetchone()[0]
    views = con.execute("SELECT count(views) FROM pages").fetchone()[0]
    con.close()
    requests = connections = 0
    for _, log in servers:
        with open(log) as f:
            for line in f:
                requests += 1
                connections += line.rsplit(" ", 1)[1].strip() == "1"

    print("sites %d, pages/site %d (+ index), page size %d KB" %
          (a.sites, a.pages, page_bytes // 1024))
    print("requests %d on %d connections (nginx log), pages stored %d "
          "(%d with views)" % (requests, connections, pages, views))
    print("wall %.1f s, pages/s %.0f, ideal at 1 req/s/site %.0f" %
          (wall, pages / wall, a.sites * 1.0))
    print("cpu %.2f s, cpu per 1000 pages %.2f s, peak RSS %.1f MB" %
          (cpu, 1000 * cpu / max(pages, 1), after.ru_maxrss / 1024))
    if not os.environ.get("HEED_BENCH_KEEP"):
        shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
