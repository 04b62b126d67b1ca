"""The demo web (examples/demo-web/serve.py) as a test fixture.

DemoWeb copies the sites to a temporary folder (so a test may change them
while they are served), serves them on loopback addresses sharing one port,
and reads the server's JSON access log: the witness for every courtesy
assertion (robots.txt, media ban, one request per second per site).

    with DemoWeb() as web:
        run_heed("crawl", "--allow-private", *web.seeds(), ...)
        assert not [r for r in web.requests() if r["path"].endswith(".mp4")]
"""

import os
import shutil
import subprocess
import sys
import tempfile
import time

from heedtest import logged_json

SOURCE = os.environ.get("HEED_SOURCE_ROOT",
                        os.path.join(os.path.dirname(__file__), "..", ".."))
SERVE = os.path.join(SOURCE, "examples", "demo-web", "serve.py")
DEMO_SITES = os.path.join(SOURCE, "examples", "demo-web", "sites")
DEFAULT_SITES = {"videos": "127.0.0.11", "news": "127.0.0.12",
                 "blog": "127.0.0.13"}
MEDIA_EXTENSIONS = ("mp4", "webm", "mp3", "jpg", "jpeg", "png", "gif", "pdf",
                    "ogg", "wav", "webp", "avif", "mov", "mkv")


class DemoWeb:
    """Sites {name: address} served from a copy of root (default: the demo
    web; demo=False starts empty); write() adds files. Stops by itself
    after max_seconds."""

    def __init__(self, sites=None, root=None, port=0, max_seconds=600,
                 demo=True):
        self.sites = dict(sites or DEFAULT_SITES)
        self.dir = tempfile.mkdtemp(prefix="heed-demoweb-")
        self.root = os.path.join(self.dir, "sites")
        self.log_path = os.path.join(self.dir, "access.log")
        if root is not None or demo:
            shutil.copytree(root or DEMO_SITES, self.root)
        os.makedirs(self.root, exist_ok=True)
        self.port = port
        self.max_seconds = max_seconds
        self.proc = None

    def write(self, site, path, text):
        """Creates or replaces a file of a site (text, or bytes)."""
        full = os.path.join(self.root, site, path.lstrip("/"))
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb") as f:
            f.write(text if isinstance(text, bytes) else text.encode())

    def write_small_site(self, site, pages):
        """A home page linking to pages p/0.html ... each linking to the
        next: pages + 1 pages in all."""
        links = "".join(f'<a href="/p/{i}.html">page {i}</a> '
                        for i in range(pages))
        self.write(site, "index.html",
                   f"<!doctype html><title>home</title>{links}")
        for i in range(pages):
            self.write(site, f"p/{i}.html",
                       f"<!doctype html><title>page {i}</title>"
                       f'<a href="/p/{(i + 1) % pages}.html">next</a>')

    def start(self):
        args = [sys.executable, SERVE, "--root", self.root,
                "--log", self.log_path, "--max-seconds", str(self.max_seconds)]
        for name, addr in self.sites.items():
            args += ["--site", f"{addr}={name}"]
        if self.port:
            args += ["--port", str(self.port)]
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        if not line.startswith("READY "):
            self.stop()
            raise RuntimeError(f"serve.py did not start: {line!r}")
        self.port = int(line.split()[1])
        return self

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def close(self):
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.close()

    def origin(self, name):
        return f"http://{self.sites[name]}:{self.port}"

    def seeds(self):
        return [self.origin(n) + "/" for n in self.sites]

    def requests(self, since=0.0):
        """Every request logged (dicts: time, addr, site, method, path,
        status, user_agent, if_none_match, if_modified_since), oldest
        first, at or after since (Unix seconds)."""
        return [r for r in logged_json(self.log_path) if r["time"] >= since]

    def wait_for_requests(self, n, seconds=20):
        """True once n requests are logged; False after seconds."""
        deadline = time.time() + seconds
        while time.time() < deadline:
            if len(self.requests()) >= n:
                return True
            time.sleep(0.1)
        return False

    def mark(self):
        """A time to pass to requests(since=...) later."""
        time.sleep(0.01)
        return time.time()


def is_media(path):
    name = path.split("?", 1)[0].rsplit("/", 1)[-1]
    return "." in name and name.rsplit(".", 1)[1].lower() in MEDIA_EXTENSIONS


def min_gaps(rows):
    """{addr: shortest time between two requests to it} for addresses with
    at least two requests."""
    times = {}
    for r in rows:
        times.setdefault(r["addr"], []).append(r["time"])
    return {a: min(b - x for x, b in zip(t, t[1:]))
            for a, t in times.items() if len(t) > 1}
