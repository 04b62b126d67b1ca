"""The files ACAP-permissions-reference fields name (ACAP 1.1 2.3.2),
asserted from the servers' logs: robots.txt names one for heed; the
crawl asks for it once, right after robots.txt and before any page of the
site, with the site's 1 s gap kept; pages it allows are fetched, pages it
denies are not; a crawl killed mid-way and resumed, and a second run inside
the re-check interval, ask for neither robots.txt nor the file again and
judge the same; a file answering 404 keeps heed prohibited (no page, no
sitemap asked) and `heed site report` says so. Two webs: one site per
address, and three sites (by name) on one address. And a file on another
site: asked from that site after its robots.txt and its own file, with its
1 s gap, before any page of the site that names it."""

import os
import signal
import subprocess
import tempfile
import time

from heedtest import (HEED, Checks, Dnsmasq, ScriptedHttpServer,
                      free_port_on, run_heed, run_heed_json)
from sitefixture import JITTER

CONTACT = "https://heed.test/bot"
REF = "/acap/heed.txt"
PAGES = 8
ROBOTS = (b"User-agent: *\nAllow: /\n"
          b"ACAP-crawler: heed\n"
          b"ACAP-permissions-reference: " + REF.encode() + b"\n")
ACAP = b"ACAP-crawler: *\nACAP-disallow-crawl: /denied\n"
HOME = (b"<!doctype html><html><head><title>Home</title></head><body>" +
        b"".join(b'<a href="/p/%d.html">p</a> ' % i for i in range(PAGES)) +
        b'<a href="/denied.html">no</a></body></html>')
HTML = {"Content-Type": "text/html"}
TEXT = {"Content-Type": "text/plain"}


def page(title):
    return ("status", 200, b"<!doctype html><html><head><title>" +
            title.encode() + b"</title></head><body>x</body></html>", HTML)


def script(ref_action, robots=ROBOTS):
    s = {"/robots.txt": ("cached", 200, robots,
                         dict(TEXT, ETag='"robots-1"')),
         REF: ref_action,
         "/": ("status", 200, HOME, HTML),
         "/denied.html": page("denied")}
    for i in range(PAGES):
        s[f"/p/{i}.html"] = page(f"page {i}")
    return s


GOOD = script(("cached", 200, ACAP, dict(TEXT, ETag='"acap-1"')))
GONE = script(("status", 404, b"not found\n"))


def naming(host):
    """A site whose robots.txt names host's file (needs the port)."""
    def make(port):
        robots = (b"User-agent: *\nAllow: /\nACAP-crawler: heed\n"
                  b"ACAP-permissions-reference: http://%s:%d%s\n"
                  % (host.encode(), port, REF.encode()))
        return script(("status", 404, b"not here\n"), robots)
    return make


class Web:
    """hosts: {name: (address, script)}; a scripted server per address,
    one port, names through the test's dnsmasq."""

    def __init__(self, hosts):
        self.hosts = hosts
        self.addrs = sorted({a for a, _ in hosts.values()})
        self.dns = Dnsmasq(hosts={h: [a] for h, (a, _) in hosts.items()})
        self.port = free_port_on(self.addrs)
        scripts = {a: s(self.port) if callable(s) else s
                   for a, s in hosts.values()}
        self.servers = [ScriptedHttpServer(a, self.port, scripts[a])
                        for a in self.addrs]
        self.store = os.path.join(tempfile.mkdtemp(prefix="heed-acapref-"),
                                  "heed.db")
        self.urls = [f"http://{h}:{self.port}/" for h in hosts]

    def options(self):
        return ["--store", self.store, "--dns-server", self.dns.server,
                "--allow-private", "--contact-url", CONTACT]

    def crawl(self, *extra, seeds=True):
        return run_heed("crawl", *self.options(), *extra,
                        *(self.urls if seeds else []), timeout=180, check=0)

    def start_crawl(self):
        return subprocess.Popen([HEED, "crawl", *self.options(), "--quiet",
                                 *self.urls], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)

    def report(self, host):
        _, out = run_heed_json("site", "report", "--json", "--store",
                               self.store, host, check=0)
        return out[0]

    def log(self):
        entries = [e for s in self.servers for e in s.log()]
        return sorted(entries, key=lambda e: e["t"])

    def close(self):
        for s in self.servers:
            s.close()
        self.dns.close()


def name(entry):
    return (entry["host"] or "").rsplit(":", 1)[0]


def of(entries, host):
    return [e for e in entries if name(e) == host]


def paths(entries):
    return [e["path"] for e in entries]


def assert_spaced(entries):
    for a, b in zip(entries, entries[1:]):
        assert b["t"] - a["t"] >= 1.0 - JITTER, (
            f"two requests to {name(a)} {b['t'] - a['t']:.3f} s apart")


def scenario(hosts):
    web = Web(hosts)
    good = [h for h, (_, s) in hosts.items() if s is GOOD]
    gone = [h for h, (_, s) in hosts.items() if s is GONE]
    try:
        # 1. A crawl, killed mid-way.
        proc = web.start_crawl()
        time.sleep(5)
        assert proc.poll() is None, "the crawl ended before it was killed"
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        first = web.log()
        for h in good:
            mine = paths(of(first, h))
            # robots.txt, then the file, then the site's pages.
            assert mine[:2] == ["/robots.txt", REF], mine
            assert mine.count(REF) == 1, mine
            assert len(mine) > 2, mine
        for h in gone:
            # The 404 keeps heed prohibited: nothing else is asked.
            assert paths(of(first, h)) == ["/robots.txt", REF], first
        # 2. Resumed: neither robots.txt nor the file again.
        resumed = web.crawl(seeds=False)
        assert "0 URLs left" in resumed.stdout, resumed.stdout
        second = web.log()[len(first):]
        assert second, "the resumed crawl asked nothing"
        assert not [e for e in second
                    if e["path"] in ("/robots.txt", REF)], second
        # 3. Inside the re-check interval, every page read again: the
        # stored file judges as before.
        again = web.crawl("--refresh", "all")
        third = web.log()[len(first) + len(second):]
        assert not [e for e in third
                    if e["path"] in ("/robots.txt", REF)], third
        assert "ACAP permissions references" not in again.stdout, again
        everything = web.log()
        for h in good:
            mine = paths(of(everything, h))
            assert "/denied.html" not in mine, mine
            for i in range(PAGES):
                assert f"/p/{i}.html" in mine, mine
            assert "/p/0.html" in paths(of(third, h)), third
            assert_spaced(of(everything, h))
            refs = web.report(h)["acap_references"]
            assert len(refs) == 1 and refs[0]["locator"] == REF, refs
            assert refs[0]["in_force"] and refs[0]["http_status"] == 200
            assert refs[0]["fetched"], refs
        for h in gone:
            assert paths(of(everything, h)) == ["/robots.txt", REF]
            refs = web.report(h)["acap_references"]
            assert len(refs) == 1 and not refs[0]["in_force"], refs
            assert refs[0]["http_status"] == 404, refs
            assert "prohibited" in refs[0]["detail"], refs
        text = run_heed("site", "report", "--store", web.store,
                        (gone or good)[0], check=0).stdout
        assert "ACAP permissions references:" in text, text
    finally:
        web.close()


def one_site_per_address():
    scenario({"a.test": ("127.0.0.2", GOOD), "b.test": ("127.0.0.3", GOOD),
              "gone.test": ("127.0.0.4", GONE)})


def three_sites_by_name_on_one_address():
    scenario({"n1.test": ("127.0.0.5", GOOD),
              "n2.test": ("127.0.0.5", GOOD),
              "n3.test": ("127.0.0.5", GOOD)})


def file_on_another_site():
    web = Web({"x.test": ("127.0.0.8", naming("a.test")),
               "a.test": ("127.0.0.9", GOOD)})
    try:
        web.crawl()
        log = web.log()
        a, x = of(log, "a.test"), of(log, "x.test")
        # a.test: robots.txt, its own file, then x.test's (the same URL).
        assert paths(a)[:3] == ["/robots.txt", REF, REF], paths(a)
        assert paths(a).count(REF) == 2, paths(a)
        for_x = a[2]["t"]
        assert paths(x)[0] == "/robots.txt", paths(x)
        assert REF not in paths(x), paths(x)
        assert all(e["t"] > for_x for e in x[1:]), (x, for_x)
        assert "/p/0.html" in paths(x), paths(x)
        assert "/denied.html" not in paths(x), paths(x)
        assert_spaced(a)
        assert_spaced(x)
        refs = web.report("x.test")["acap_references"]
        assert len(refs) == 1 and refs[0]["in_force"], refs
        assert refs[0]["url"] == f"http://a.test:{web.port}{REF}", refs
        # Within the re-check, the stored file judges x.test: nothing of
        # the file is asked again.
        before = len(log)
        web.crawl("--refresh", "all")
        again = web.log()[before:]
        assert REF not in paths(again), paths(again)
        assert "/denied.html" not in paths(again), paths(again)
        assert "/p/0.html" in paths(of(again, "x.test")), paths(again)
    finally:
        web.close()


Checks().main([one_site_per_address, three_sites_by_name_on_one_address,
               file_on_another_site])
