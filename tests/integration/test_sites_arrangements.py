"""Arrangements with site owners, judged from the servers' log:
`heed sites set` records what an owner asked, and one `heed crawl` honours
it, with names resolved by the test's own dnsmasq and scripted servers on
loopback. One site per address (127.0.0.71-74) and several sites on one
address (127.0.0.75, told apart by the Host header):

  delay     gaps between two requests to the host >= the arranged 2 s
  max pages no more page requests than the arranged limit
  paused    not one request, not even robots.txt (crawl and qualify)
  exclude   an excluded path is never requested (counted apart)
  windows   a window that excludes now: no request; one that includes
            now: crawled
  endpoint  the owner's feed is requested, and the page it lists
  incremental-only  in a full run its links are not followed
"""

import datetime
import os
import tempfile

from heedtest import (Checks, Dnsmasq, ScriptedHttpServer, free_port_on,
                      run_heed)

HOME = (b"<!doctype html><html><head><title>Home</title></head><body>"
        + b"".join(b'<a href="/p/%d.html">page %d</a> ' % (i, i)
                   for i in range(1, 6))
        + b'<a href="/p/secret.html">secret</a></body></html>')


def page(i):
    return (b"<!doctype html><html><head><title>Page %s</title></head>"
            b"<body><p>page</p></body></html>" % i)


def feed(host, port):
    return (f'<?xml version="1.0"?><rss version="2.0"><channel>'
            f"<title>f</title><link>http://{host}:{port}/</link>"
            f"<item><title>f1</title>"
            f"<link>http://{host}:{port}/p/f1.html</link></item>"
            f"</channel></rss>").encode()


def script(host, port):
    html = {"Content-Type": "text/html"}
    s = {"/robots.txt": ("status", 200, b"User-agent: *\nAllow: /\n"),
         "/": ("status", 200, HOME, html),
         "/p/secret.html": ("status", 200, page(b"secret"), html),
         "/p/f1.html": ("status", 200, page(b"f1"), html),
         "/feed.xml": ("status", 200, feed(host, port),
                       {"Content-Type": "application/rss+xml"})}
    for i in range(1, 6):
        s[f"/p/{i}.html"] = ("status", 200, page(b"%d" % i), html)
    return s


def hhmm(t):
    return t.strftime("%H:%M")


now = datetime.datetime.now(datetime.timezone.utc)
H = datetime.timedelta(hours=1)
WINDOW_NOW = f"{hhmm(now - 2 * H)}-{hhmm(now + 2 * H)}"
WINDOW_LATER = f"{hhmm(now + 4 * H)}-{hhmm(now + 6 * H)}"

ALONE = {"a.test": "127.0.0.71", "b.test": "127.0.0.72",
         "c.test": "127.0.0.73", "d.test": "127.0.0.74"}
SHARED = "127.0.0.75"
TOGETHER = ["e.test", "f.test", "g.test", "h.test", "i.test"]
hosts = dict(ALONE, **{h: SHARED for h in TOGETHER})
port = free_port_on(sorted(set(hosts.values())))
tmp = tempfile.mkdtemp(prefix="heed-arr-")
store = os.path.join(tmp, "heed.db")


def sites(*args):
    return run_heed("sites", *args, "--store", store)


ARRANGE = {
    # one site per address
    "a.test": ["--delay", "2s", "--max-pages", "3",
               "--exclude", "/p/secret", "--note", "Ann, 2026-11-25"],
    "b.test": ["--mode", "paused"],
    "c.test": ["--window", WINDOW_LATER],
    "d.test": ["--window", WINDOW_NOW, "--endpoint",
               f"http://d.test:{port}/feed.xml"],
    # several sites on one address
    "e.test": ["--delay", "2s", "--exclude", "/p/secret"],
    "f.test": ["--mode", "paused"],
    "h.test": ["--mode", "incremental"],
    "i.test": ["--window", WINDOW_LATER],
    # g.test: no arrangement, the control
}
set_runs = {h: sites("set", h, *a) for h, a in ARRANGE.items()}
servers = [ScriptedHttpServer(a, port, {}) for a in sorted(set(hosts.values()))]
for srv in servers:
    srv.script = script("x", port)
for h, a in ALONE.items():  # each its own feed, naming its own host
    next(s for s in servers if s.address == a).script = script(h, port)
with Dnsmasq(hosts={h: [a] for h, a in hosts.items()}) as dns:
    crawl = run_heed("crawl", "--store", store, "--allow-private",
                     "--dns-server", dns.server,
                     "--contact-email", "ops@example.org",
                     *[f"http://{h}:{port}/" for h in hosts], timeout=120)
    # `heed site qualify` honours a pause too, and says why.
    qualify = run_heed("site", "qualify", "--store", store,
                       "--allow-private", "--dns-server", dns.server,
                       "--contact-email", "ops@example.org",
                       f"http://b.test:{port}/", timeout=60)
log = [dict(r, host=(r["host"] or "").split(":")[0])
       for s in servers for r in s.log()]
for s in servers:
    s.close()


def of(host):
    return sorted((r for r in log if r["host"] == host),
                  key=lambda r: r["t"])


def paths(host):
    return [r["path"] for r in of(host)]


def pages(host):
    return [p for p in paths(host)
            if p == "/" or p.startswith("/p/")]


def check_sets_accepted():
    for h, r in set_runs.items():
        assert r.returncode == 0, (h, r.stdout, r.stderr)
    assert crawl.returncode == 0, crawl.stdout + crawl.stderr[-2000:]


def check_bad_values_refused():
    for args, words in [(["--delay", "fast"], "not a delay"),
                        (["--window", "25:00-26:00"], "HH:MM-HH:MM"),
                        (["--mode", "sometimes"], "full, incremental"),
                        (["--include", "videos"], "must start with"),
                        (["--endpoint", "http://other.test/f.xml"],
                         "on the host"),
                        (["--clear", "colour"], "FIELD")]:
        r = sites("set", "a.test", *args)
        assert r.returncode == 2, (args, r.returncode, r.stderr)
        assert words in r.stderr, (args, r.stderr)
    r = sites("set", "z.test", "--delay", "100ms")
    assert r.returncode == 0 and "raised to 1s" in r.stderr, r.stderr
    assert "1000 ms" in r.stdout, r.stdout


def check_delay_gaps():
    for h in ("a.test", "e.test"):
        t = [r["t"] for r in of(h)]
        assert len(t) >= 3, (h, paths(h))
        gaps = [b - a for a, b in zip(t, t[1:])]
        # 2 s from one start to the next; the server reads a request a
        # little after heed starts it, so a few ms either way.
        assert min(gaps) >= 1.98, (h, gaps)
    # The control on the same address keeps the default 1 s.
    t = [r["t"] for r in of("g.test")]
    assert min(b - a for a, b in zip(t, t[1:])) >= 0.98


def check_page_limit():
    assert len(pages("a.test")) == 3, paths("a.test")


def check_paused_not_contacted():
    for h in ("b.test", "f.test"):
        assert of(h) == [], paths(h)
    assert "sites not contacted" in crawl.stdout, crawl.stdout
    assert qualify.returncode == 1, (qualify.returncode, qualify.stderr)
    assert "not contacted: paused" in qualify.stdout + qualify.stderr, \
        qualify.stdout + qualify.stderr


def check_excluded_never_requested():
    for h in ("a.test", "e.test"):
        assert "/p/secret.html" not in paths(h), paths(h)
    assert "/p/secret.html" in paths("g.test"), paths("g.test")
    assert "URLs refused by include/exclude" in crawl.stdout


def check_windows():
    for h in ("c.test", "i.test"):
        assert of(h) == [], paths(h)
    assert "/p/5.html" in paths("d.test"), paths("d.test")


def check_endpoint_requested():
    assert "/feed.xml" in paths("d.test"), paths("d.test")
    assert "/p/f1.html" in paths("d.test"), paths("d.test")


def check_incremental_only_links_not_followed():
    assert "/" in paths("h.test"), paths("h.test")
    assert not [p for p in paths("h.test") if p.startswith("/p/")], \
        paths("h.test")


def check_report_shows_arrangement():
    r = run_heed("site", "report", "a.test", "--store", store)
    assert "arrangement with the owner" in r.stdout, r.stdout
    assert "2000 ms" in r.stdout and "Ann, 2026-11-25" in r.stdout
    r = run_heed("site", "report", "--json", "a.test", "--store", store)
    assert '"max_pages":3' in r.stdout.replace(" ", ""), r.stdout
    r = sites("list", "--json")
    assert r.returncode == 0 and '"b.test"' in r.stdout, r.stdout
    r = sites("resume", "b.test")
    assert r.returncode == 0 and "mode:       full" in r.stdout, r.stdout


print(crawl.stdout)
Checks().main([check_sets_accepted, check_bad_values_refused,
               check_delay_gaps, check_page_limit,
               check_paused_not_contacted, check_excluded_never_requested,
               check_windows, check_endpoint_requested,
               check_incremental_only_links_not_followed,
               check_report_shows_arrangement])
