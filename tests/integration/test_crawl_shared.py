"""heed crawl on a shared-address web served by a real nginx (issue 18,
point 7): 250 sites on ONE loopback address, told apart by the Host header
(name-based virtual hosts), names resolved by a dnsmasq of the test's own,
default politeness settings. Judged from nginx's access log: no site gets
two requests less than 1 s apart, and every site is crawled whole
(robots.txt, home page and its 4 pages answered 200, 5 records stored).

nginx logs $msec, the END of a request, and $request_time, both with
millisecond resolution; a request's start is $msec - $request_time, which
is nginx's clock (truncated to the millisecond) when it read the request.
Starts are compared in whole milliseconds, so a logged gap of 0.999 s
means a true gap between 0.998 s and 1.000 s: under 1 s, a failure.
"""

import json
import os
import shutil
import socket
import sqlite3
import subprocess
import tempfile
import time
from urllib.parse import urlsplit

from heedtest import Checks, Dnsmasq, free_port, run_heed, stop_process
from loadserver import analyse, home_page, page, site_names, summary, ROBOTS

ADDRESS = "127.0.0.64"
SITES = 250
PAGES = 4
HEED_TIMEOUT = 50  # seconds; a good crawler needs about 10 (7 requests a
#                    site, 1 s apart, all sites in parallel)


class VirtualHostNginx:
    """nginx on address:port over plain HTTP/1.1, one server block for
    every name (root DIR/$host), keep-alive for as long as a crawl, and a
    JSON access log (access()). Runs under `timeout`, so it stops by itself
    after max_seconds even if the test dies."""

    def __init__(self, address, port, www, max_seconds):
        self.dir = tempfile.mkdtemp(prefix="heed-nginx-vhosts-")
        self.log = os.path.join(self.dir, "access.log")
        d = self.dir
        conf = os.path.join(d, "nginx.conf")
        with open(conf, "w") as f:
            f.write(f"""
user root root;
worker_processes 1;
worker_rlimit_nofile 8192;
pid {d}/nginx.pid;
error_log {d}/error.log;
events {{ worker_connections 4096; }}
http {{
  log_format load escape=json '{{"host":"$host","msec":"$msec",'
    '"request_time":"$request_time","status":$status,'
    '"uri":"$request_uri","user_agent":"$http_user_agent",'
    '"connection":$connection,"connection_requests":$connection_requests}}';
  access_log {d}/access.log load;
  client_body_temp_path {d}/body;
  proxy_temp_path {d}/proxy;
  fastcgi_temp_path {d}/fastcgi;
  uwsgi_temp_path {d}/uwsgi;
  scgi_temp_path {d}/scgi;
  types {{ text/html html; text/plain txt; }}
  default_type application/octet-stream;
  charset utf-8;
  charset_types text/html text/plain;
  keepalive_timeout 300s;
  keepalive_requests 100000;
  server {{
    listen {address}:{port} default_server;
    server_name _;
    root {www}/$host;
    index index.html;
  }}
}}
""")
        self.proc = subprocess.Popen(
            ["timeout", "-k", "5", str(int(max_seconds)), "nginx", "-p", d,
             "-c", conf, "-g", "daemon off;"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.time() + 10
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("nginx exited: " +
                                   self.proc.stderr.read().decode())
            try:
                with socket.create_connection((address, port), 0.2):
                    return
            except OSError:
                time.sleep(0.05)
        self.close()
        raise RuntimeError("nginx did not start")

    def access(self):
        """The log as dicts with host, path, start, end (seconds from the
        first start, whole milliseconds), status, user_agent, conn."""
        if not os.path.exists(self.log):
            return []
        raw = []
        with open(self.log) as f:
            for line in f:
                if line.strip():
                    raw.append(json.loads(line))
        out = []
        for e in raw:
            end_ms = round(float(e["msec"]) * 1000)
            start_ms = end_ms - round(float(e["request_time"]) * 1000)
            out.append({"host": e["host"], "path": e["uri"].split("?")[0],
                        "start_ms": start_ms, "end_ms": end_ms,
                        "status": e["status"],
                        "user_agent": e["user_agent"],
                        "conn": e["connection"]})
        base = min((e["start_ms"] for e in out), default=0)
        for e in out:  # small exact numbers: 1000 ms is 1.0, not 0.99999
            e["start"] = (e.pop("start_ms") - base) / 1000
            e["end"] = (e.pop("end_ms") - base) / 1000
        return out

    def close(self):
        stop_process(self.proc)
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def write_sites(www, names):
    for host in names:
        root = os.path.join(www, host)
        os.makedirs(os.path.join(root, "p"))
        files = {"robots.txt": ROBOTS,
                 "index.html": home_page(host, PAGES)}
        for i in range(PAGES):
            files[f"p/{i}.html"] = page(host, i)
        for name, text in files.items():
            with open(os.path.join(root, name), "w") as f:
                f.write(text)
    os.chmod(www, 0o755)


names = site_names(SITES)
paths = ["/robots.txt", "/"] + [f"/p/{i}.html" for i in range(PAGES)]
expected = {(h, p) for h in names for p in paths}
tmp = tempfile.mkdtemp(prefix="heed-shared-")
www = os.path.join(tmp, "www")
write_sites(www, names)
store = os.path.join(tmp, "heed.db")
seeds = os.path.join(tmp, "sites.txt")
port = free_port(ADDRESS)
with open(seeds, "w") as f:
    f.write("".join(f"http://{h}:{port}/\n" for h in names))

with VirtualHostNginx(ADDRESS, port, www, HEED_TIMEOUT + 30) as nginx, \
        Dnsmasq(hosts={h: [ADDRESS] for h in names}) as dns:
    t = time.monotonic()
    try:
        crawl = run_heed("crawl", "--store", store, "--allow-private",
                         "--dns-server", dns.server,
                         "--contact-email", "ops@example.org", "--quiet",
                         "--sites", seeds, timeout=HEED_TIMEOUT)
        rc, err = crawl.returncode, crawl.stderr
    except subprocess.TimeoutExpired as e:
        rc = None
        err = e.stderr.decode(errors="replace") if isinstance(
            e.stderr, bytes) else (e.stderr or "")
    took = time.monotonic() - t
    log = nginx.access()

a = analyse(log, expected=expected)
print(f"shared nginx: heed exit {rc} after {took:.1f} s ({SITES} sites x "
      f"{PAGES} pages on {ADDRESS}:{port}, {len(expected)} URLs that "
      f"exist); {len({r['conn'] for r in log})} TCP connections")
print(summary(a, inflight=False), flush=True)

try:
    db = sqlite3.connect(f"file:{store}?mode=ro", uri=True, timeout=10)
    rows = db.execute("SELECT url, status FROM pages").fetchall()
    db.close()
except sqlite3.Error as e:
    rows = []
    print(f"  store unreadable: {e}")
records = {}
for url, status in rows:
    u = urlsplit(url)
    records.setdefault(u.hostname, []).append((u.path or "/", status))
print(f"  store: {len(rows)} records for {len(records)} sites; "
      f"{sum(1 for h in names if len(records.get(h, [])) == PAGES + 1)} "
      f"sites with {PAGES + 1}", flush=True)


def check_heed_finished():
    assert rc == 0, (f"exit {rc} after {took:.0f} s"
                     + (" (timed out)" if rc is None else "")
                     + f"; stderr: {err.strip()[-500:]}")


def check_no_same_site_gap_under_1s():
    assert a["gaps_under"] == 0, (
        f"{a['gaps_under']} gaps under 1 s on {len(a['gap_sites'])} "
        f"sites, shortest {a['gap_shortest']:.3f} s, e.g. "
        f"{a['gaps_short'][:3]}")


def check_one_request_per_site_per_second():
    assert a["max_per_window"] <= 1, (
        f"{a['max_per_window']} requests to one site within 1 s")


def check_every_site_crawled():
    assert a["sites"] == SITES and a["coverage"] == 1, (
        f"{a['sites']} sites contacted; coverage {a['coverage']:.1%}, "
        f"{len(a['missing'])} missing, e.g. {a['missing'][:5]}")


def check_five_records_per_site():
    bad = {h: sorted(records.get(h, [])) for h in names
           if sorted(records.get(h, [])) !=
           sorted((p, 200) for p in paths if p != "/robots.txt")}
    assert not bad, (f"{len(bad)} sites without their {PAGES + 1} records "
                     f"with 200, e.g. {list(bad.items())[:2]}")


Checks().main([
    check_heed_finished,
    check_no_same_site_gap_under_1s,
    check_one_request_per_site_per_second,
    check_every_site_crawled,
    check_five_records_per_site,
])
