"""net.proxy: fetching through a proxy only when the operator
says so, and heed's address policy still in front of it.

A small forward proxy of the test's own listens on 127.0.0.1 (HTTP
absolute-form requests, CONNECT for https) and logs every request; it
resolves names from the test's table, as a real proxy would resolve them
itself. The origin servers (ScriptedHttpServer) log what reached them.
Names reach heed only through the test's dnsmasq.

1. `--proxy URL`: every request of a crawl, http and https (CONNECT),
   goes through the proxy (its log) and reaches the origin (its log),
   one request per second to the site as without a proxy.
2. Without net.proxy, nothing goes through the proxy even with
   http_proxy, https_proxy, ALL_PROXY and no_proxy in the environment.
3. `net.proxy = env` takes those variables, and honours no_proxy: a host
   listed there is fetched directly, the others through the proxy.
4. heed resolves and checks the target itself before asking the proxy:
   a loopback target without --allow-private, and a name resolving to
   0.0.0.0 even with it, never reach the proxy.
5. `heed site qualify` fetches robots.txt through the proxy likewise.
6. A proxy setting that is not `env` nor a proxy URL is a usage error.
"""

import os
import socket
import tempfile
import threading
import time

from heedtest import (Checks, Dnsmasq, ScriptedHttpServer, free_port_on,
                      run_heed)
from sitefixture import JITTER, self_signed_cert

CONTACT = ["--contact-email", "ops@example.org"]
WWW, DIRECT, TLS = "127.0.0.101", "127.0.0.102", "127.0.0.103"
NAMES = {"www.px.test": WWW, "direct.px.test": DIRECT, "tls.px.test": TLS,
         "zero.px.test": "0.0.0.0"}
ROBOTS = ("status", 200, b"User-agent: *\nAllow: /\n")


def page(*links):
    body = "<html><head><title>t</title></head><body>" + "".join(
        f'<a href="{h}">{h}</a>' for h in links) + "</body></html>"
    return ("status", 200, body.encode(), {"Content-Type": "text/html"})


# What a crawl of a site fetches: robots.txt, the start page, the sitemap
# (404 here) and the two pages linked.
WANT = ["/", "/a", "/b", "/robots.txt", "/sitemap.xml"]
SCRIPT = {"/robots.txt": ROBOTS, "/": page("/a", "/b"), "/a": page(),
          "/b": page()}


class ForwardProxy:
    """A forward proxy on 127.0.0.1: absolute-form GETs are re-sent to the
    origin (Connection: close), CONNECT opens a tunnel. log() lists
    (method, target) of every request it received."""

    def __init__(self, names):
        self.names = names
        self._log = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.sock.settimeout(0.2)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def log(self):
        with self._lock:
            return list(self._log)

    def clear(self):
        with self._lock:
            self._log.clear()

    def _accept(self):
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except (socket.timeout, OSError):
                continue
            threading.Thread(target=self._serve, args=(conn,),
                             daemon=True).start()

    def _origin(self, hostport):
        host, _, port = hostport.rpartition(":")
        return socket.create_connection((self.names[host], int(port)), 5)

    def _serve(self, conn):
        try:
            conn.settimeout(5)
            data = b""
            while b"\r\n\r\n" not in data and len(data) < 65536:
                chunk = conn.recv(4096)
                if not chunk:
                    return
                data += chunk
            head, rest = data.split(b"\r\n\r\n", 1)
            lines = head.decode("latin-1").split("\r\n")
            method, target, _ = lines[0].split(" ", 2)
            with self._lock:
                self._log.append((method, target))
            if method == "CONNECT":
                up = self._origin(target)
                conn.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
                self._pipe(conn, up, rest)
                return
            # http://host:port/path -> GET /path to host:port
            hostport, _, path = target[len("http://"):].partition("/")
            up = self._origin(hostport)
            kept = [l for l in lines[1:] if not l.lower().startswith(
                ("proxy-connection:", "connection:"))]
            up.sendall((f"{method} /{path} HTTP/1.1\r\n" + "\r\n".join(kept)
                        + "\r\nConnection: close\r\n\r\n").encode("latin-1")
                       + rest)
            self._pipe(conn, up, b"")
        except (OSError, ValueError, KeyError):
            pass
        finally:
            conn.close()

    def _pipe(self, client, up, pending):
        if pending:
            up.sendall(pending)

        def pump(a, b):
            try:
                while True:
                    d = a.recv(65536)
                    if not d:
                        break
                    b.sendall(d)
            except OSError:
                pass
            for s in (a, b):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

        t = threading.Thread(target=pump, args=(up, client), daemon=True)
        t.start()
        pump(client, up)
        t.join(30)
        up.close()

    def close(self):
        self._stop.set()
        self._thread.join(5)
        self.sock.close()


tmp = tempfile.mkdtemp(prefix="heed-proxy-")
dns = Dnsmasq(hosts={n: [a] for n, a in NAMES.items()}, local="px.test")
port = free_port_on([WWW, DIRECT, TLS])
cert = self_signed_cert(tmp, "tls.px.test")
proxy = ForwardProxy(NAMES)
www = ScriptedHttpServer(WWW, port, SCRIPT)
direct = ScriptedHttpServer(DIRECT, port, SCRIPT)
tls = ScriptedHttpServer(TLS, port, SCRIPT, tls=cert)
ALL = (www, direct, tls)
# What the environment of every crawl here holds: a proxy for everything.
ENV = dict(os.environ, http_proxy=proxy.url, https_proxy=proxy.url,
           HTTPS_PROXY=proxy.url, ALL_PROXY=proxy.url, all_proxy=proxy.url,
           no_proxy="", NO_PROXY="")
runs = [0]


def crawl(*args, env=ENV, allow_private=True, check=None):
    runs[0] += 1
    db = os.path.join(tmp, f"heed{runs[0]}.db")
    extra = ["--allow-private"] if allow_private else []
    return run_heed("crawl", "--store", db, "--dns-server", dns.server,
                    *extra, *CONTACT, "--set", f"net.ca_file={cert[0]}",
                    "--set", "net.connect_timeout_ms=2000", *args,
                    env=env, check=check)


# Where each server's log stood when the current check began.
marks = {}


def log_of(server):
    """What server received since the current check began."""
    return server.log()[marks.get(server, 0):]


def paths(server):
    return [e["path"] for e in log_of(server)]


def fresh():
    proxy.clear()
    for s in ALL:
        marks[s] = len(s.log())


def proxied_http_goes_through_the_proxy():
    fresh()
    crawl("--proxy", proxy.url, f"http://www.px.test:{port}/", check=0)
    base = f"http://www.px.test:{port}"
    want = WANT
    got = proxy.log()
    assert sorted(got) == sorted(("GET", base + p) for p in want), got
    assert sorted(paths(www)) == sorted(want), log_of(www)
    # Politeness is per site, proxy or not: a second between requests.
    times = [e["t"] for e in log_of(www)]
    gaps = [b - a for a, b in zip(times, times[1:])]
    assert all(g >= 1 - JITTER for g in gaps), gaps


def proxied_https_tunnels_through_connect():
    fresh()
    crawl("--set", f"net.proxy={proxy.url}", f"https://tls.px.test:{port}/",
          check=0)
    got = proxy.log()
    assert got and all(m == "CONNECT" and t == f"tls.px.test:{port}"
                       for m, t in got), got
    assert sorted(paths(tls)) == WANT, log_of(tls)


def environment_alone_is_never_used():
    fresh()
    crawl(f"http://www.px.test:{port}/", f"https://tls.px.test:{port}/",
          check=0)
    assert proxy.log() == [], proxy.log()
    assert sorted(paths(www)) == WANT and sorted(paths(tls)) == WANT, (
        log_of(www), log_of(tls))


def env_mode_takes_the_environment_and_no_proxy():
    fresh()
    env = dict(ENV, no_proxy="other.example,.direct.px.test")
    crawl("--proxy", "env", f"http://www.px.test:{port}/",
          f"http://direct.px.test:{port}/", f"https://tls.px.test:{port}/",
          env=env, check=0)
    targets = [t for _, t in proxy.log()]
    assert not any("direct.px.test" in t for t in targets), targets
    assert sum("www.px.test" in t for t in targets) == len(WANT), targets
    assert f"tls.px.test:{port}" in targets, targets
    for s in ALL:
        assert sorted(paths(s)) == WANT, log_of(s)


def checked_before_the_proxy_is_asked():
    fresh()
    before = len(dns.queries())
    p = crawl("--proxy", proxy.url, f"http://www.px.test:{port}/",
              allow_private=False)
    assert p.returncode == 1, (p.returncode, p.stderr)
    asked = [n for _, n in dns.queries()[before:]]
    assert "www.px.test" in asked, asked  # heed resolved it itself
    p = crawl("--proxy", proxy.url, f"http://zero.px.test:{port}/")
    assert p.returncode == 1, (p.returncode, p.stderr)
    assert proxy.log() == [], proxy.log()
    assert all(log_of(s) == [] for s in ALL)


def site_qualify_goes_through_the_proxy():
    """heed site qualify fetches robots.txt: through the proxy with
    --proxy, never without it (the environment still names it)."""
    def qualify(db, *extra):
        run_heed("site", "qualify", "--store", os.path.join(tmp, db),
                 "--dns-server", dns.server, "--allow-private", *CONTACT,
                 *extra, f"http://www.px.test:{port}/", env=ENV, check=0)

    fresh()
    qualify("qualify1.db")
    assert proxy.log() == [], proxy.log()
    assert log_of(www) and paths(www) == ["/robots.txt"] * len(log_of(www))
    fresh()
    qualify("qualify2.db", "--proxy", proxy.url)
    assert proxy.log() and all(
        t == f"http://www.px.test:{port}/robots.txt"
        for _, t in proxy.log()), proxy.log()
    assert len(log_of(www)) == len(proxy.log()), (log_of(www), proxy.log())


def bad_setting_is_a_usage_error():
    for bad in ("ftp://127.0.0.1:21", "127.0.0.1:3128", "http://",
                "environment"):
        p = crawl("--proxy", bad, f"http://www.px.test:{port}/")
        assert p.returncode == 2, (bad, p.returncode, p.stderr)
        assert "net.proxy" in p.stderr, p.stderr


try:
    Checks().main([proxied_http_goes_through_the_proxy,
                   proxied_https_tunnels_through_connect,
                   environment_alone_is_never_used,
                   env_mode_takes_the_environment_and_no_proxy,
                   checked_before_the_proxy_is_asked,
                   site_qualify_goes_through_the_proxy,
                   bad_setting_is_a_usage_error])
finally:
    for s in ALL:
        s.close()
    proxy.close()
    dns.close()
