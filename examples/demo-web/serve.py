#!/usr/bin/env python3
"""The demo web: several small sites served on loopback for heed's demo and
integration tests (issue 8, "The demo").

Every site is a folder of files (its docroot) served on its own loopback
address; all addresses share one port. Text files may say {{ORIGIN}} (this
site's "http://ADDR:PORT") or {{ORIGIN:NAME}} (another site's), so links and
sitemaps work whatever port was picked. The server answers conditional GETs
(ETag, Last-Modified, 304) from the files on disk, re-read on every request,
so a test can change a site while it runs.

Every request is written to the access log as one JSON object per line:
time (Unix seconds, float), addr, site, method, path, status, the
User-Agent and the conditional headers. Tests assert courtesy from it.

Usage: serve.py [--root DIR] [--site ADDR=NAME]... [--port N] [--log FILE]
Prints "READY PORT" on standard output once every address listens, and runs
until SIGTERM or SIGINT (or --max-seconds, so a forgotten server stops by
itself).
"""
import argparse
import email.utils
import hashlib
import http.server
import json
import os
import signal
import socket
import struct
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_SITES = [
    ("127.0.0.11", "videos"),
    ("127.0.0.12", "news"),
    ("127.0.0.13", "blog"),
]
TYPES = {
    ".html": "text/html; charset=utf-8",
    ".xml": "application/xml",
    ".rss": "application/rss+xml",
    ".atom": "application/atom+xml",
    ".txt": "text/plain; charset=utf-8",
    ".json": "application/json",
    ".jpg": "image/jpeg",
    ".png": "image/png",
    ".mp4": "video/mp4",
    ".webm": "video/webm",
    ".mp3": "audio/mpeg",
    ".pdf": "application/pdf",
}
TEXT_TYPES = (".html", ".xml", ".rss", ".atom", ".txt", ".json")


class Web:
    """The sites, the port and the access log shared by all handlers."""

    def __init__(self, root, sites, port, log_path):
        self.root = root
        self.sites = sites  # [(addr, name)]
        self.by_addr = dict(sites)
        self.origins = {}
        self.port = port
        self.lock = threading.Lock()
        self.log = open(log_path, "a", buffering=1) if log_path else None

    def origin(self, name):
        return self.origins.get(name, "")

    def record(self, entry):
        if not self.log:
            return
        with self.lock:
            self.log.write(json.dumps(entry) + "\n")


def expand(web, site, data):
    text = data.decode("utf-8")
    for name, origin in web.origins.items():
        text = text.replace("{{ORIGIN:%s}}" % name, origin)
    return text.replace("{{ORIGIN}}", web.origin(site)).encode("utf-8")


# Arrival times come from the kernel's receive stamp (SO_TIMESTAMPNS), not
# from when a handler thread got to run: on a loaded machine the thread may
# start tens of milliseconds late, and two requests heed sent 1.000 s apart
# would be logged 0.99 s apart.
SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)  # Linux's value


def kernel_arrival(conn):
    """The receive time (Unix seconds) of the next bytes waiting on conn,
    peeked, not read; time.time() when the kernel gives none."""
    try:
        _, anc, _, _ = conn.recvmsg(1, 64, socket.MSG_PEEK)
    except OSError:
        return time.time()
    for level, kind, blob in anc:
        if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS \
                and len(blob) >= 16:
            sec, nsec = struct.unpack("qq", blob[:16])
            return min(sec + nsec / 1e9, time.time())
    return time.time()


class Handler(http.server.BaseHTTPRequestHandler):
    server_version = "demo-web/1"
    protocol_version = "HTTP/1.1"
    # Unbuffered reads: the next request's first bytes stay in the socket
    # until kernel_arrival() has peeked at their stamp.
    rbufsize = 0

    def setup(self):
        super().setup()
        self.connection.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)

    def handle_one_request(self):
        self.arrival = kernel_arrival(self.connection)
        super().handle_one_request()

    def log_message(self, fmt, *args):
        pass  # the JSON access log replaces stderr noise

    def site(self):
        addr = self.connection.getsockname()[0]
        return addr, self.server.web.by_addr.get(addr, "")

    def file_for(self, site, path):
        path = path.split("?", 1)[0].split("#", 1)[0]
        if path.endswith("/"):
            path += "index.html"
        rel = os.path.normpath(path.lstrip("/"))
        if rel.startswith(".."):
            return None
        full = os.path.join(self.server.web.root, site, rel)
        return full if os.path.isfile(full) else None

    def answer(self, head_only):
        started = self.arrival  # for courtesy checks
        web = self.server.web
        addr, site = self.site()
        status = 404
        body = b"<!doctype html><title>Not found</title><h1>Not found</h1>"
        headers = {"Content-Type": "text/html; charset=utf-8"}
        full = self.file_for(site, self.path)
        if full:
            status, body, headers = self.file_answer(site, full)
        self.send_response(status)
        for k, v in headers.items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if not head_only and status != 304:
            try:
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                pass  # a client that aborts a media body is expected
        web.record({
            "time": started, "addr": addr, "site": site,
            "method": self.command, "path": self.path, "status": status,
            "user_agent": self.headers.get("User-Agent", ""),
            "if_none_match": self.headers.get("If-None-Match"),
            "if_modified_since": self.headers.get("If-Modified-Since"),
        })

    def file_answer(self, site, full):
        ext = os.path.splitext(full)[1].lower()
        with open(full, "rb") as f:
            body = f.read()
        if ext in TEXT_TYPES:
            body = expand(self.server.web, site, body)
        mtime = int(os.stat(full).st_mtime)
        etag = '"%s"' % hashlib.sha1(body).hexdigest()[:16]
        headers = {
            "Content-Type": TYPES.get(ext, "application/octet-stream"),
            "ETag": etag,
            "Last-Modified": email.utils.formatdate(mtime, usegmt=True),
        }
        if self.not_modified(etag, mtime):
            return 304, b"", headers
        return 200, body, headers

    def not_modified(self, etag, mtime):
        inm = self.headers.get("If-None-Match")
        if inm is not None:
            return etag in [t.strip() for t in inm.split(",")]
        ims = self.headers.get("If-Modified-Since")
        if ims:
            try:
                since = email.utils.parsedate_to_datetime(ims).timestamp()
            except (TypeError, ValueError):
                return False
            return mtime <= since
        return False

    def do_GET(self):
        self.answer(False)

    def do_HEAD(self):
        self.answer(True)


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def server_bind(self):
        # Stamped from the listening socket on, so that even the first
        # request of a connection carries its stamp.
        self.socket.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
        super().server_bind()


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--root", default=os.path.join(HERE, "sites"))
    p.add_argument("--site", action="append", default=[],
                   help="ADDR=NAME: serve ROOT/NAME on ADDR")
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--log", default=None)
    p.add_argument("--max-seconds", type=float, default=3600)
    return p.parse_args()


def free_port(addrs):
    """A port free on every address (the first address picks it)."""
    for _ in range(50):
        s = socket.socket()
        s.bind((addrs[0], 0))
        port = s.getsockname()[1]
        s.close()
        ok = True
        for a in addrs[1:]:
            t = socket.socket()
            try:
                t.bind((a, port))
            except OSError:
                ok = False
            t.close()
        if ok:
            return port
    raise SystemExit("serve.py: no port free on every address")


def main():
    args = parse_args()
    sites = [tuple(s.split("=", 1)) for s in args.site] or DEFAULT_SITES
    port = args.port or free_port([a for a, _ in sites])
    web = Web(os.path.abspath(args.root), sites, port, args.log)
    for addr, name in sites:
        web.origins[name] = "http://%s:%d" % (addr, port)
    servers = []
    for addr, _ in sites:
        srv = Server((addr, port), Handler)
        srv.web = web
        threading.Thread(target=srv.serve_forever, daemon=True).start()
        servers.append(srv)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *a: stop.set())
    signal.signal(signal.SIGINT, lambda *a: stop.set())
    print("READY %d" % port, flush=True)
    stop.wait(args.max_seconds)
    for srv in servers:
        srv.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
