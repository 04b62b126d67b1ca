"""A site whose only source is a JSON Feed, judged from the
servers' log, with names resolved by the test's own dnsmasq and scripted
servers on loopback. Two ways to the feed:

  linked    the start page says <link rel="alternate"
            type="application/feed+json">; the feed is served as
            application/feed+json
  endpoint  the owner named it (`heed sites set HOST --endpoint URL`); the
            start URL links nothing and the feed is served as
            application/json, told by its "version"

each on its own address (127.0.0.151-152) and both on one address
(127.0.0.155, told apart by the Host header). One full crawl, then the feed
changes (a new item, one item modified) and an incremental crawl asks for
those two pages only. The feed's next_url (page 2, an older item) is read
by the full crawl, and asked again by the incremental one as a known
source; a new next_url on a page that still lists an unchanged entry is
not followed by the incremental crawl. Throughout: the pages the feed lists (relative URLs,
resolved against the feed's) are fetched and stored with the feed's dates,
robots.txt's Disallow holds for them, and two requests to one host are at
least 1 s apart.
"""

import json
import os
import tempfile
import time

from heedtest import (Checks, Dnsmasq, ScriptedHttpServer, free_port_on,
                      run_heed)

JITTER = 0.05
HTML = {"Content-Type": "text/html"}
LINKED = (b'<!doctype html><html><head><title>Home</title>'
          b'<link rel="alternate" type="application/feed+json" '
          b'href="/feed.json"></head><body>home</body></html>')
PLAIN = (b"<!doctype html><html><head><title>Plain</title></head>"
         b"<body>nothing linked</body></html>")
ROBOTS = b"User-agent: *\nDisallow: /p/private\n"
T1 = "2026-10-01T08:00:00.250Z"  # fractional seconds are kept
T2 = "2026-10-02T09:30:00+02:00"


def page(name):
    return (b"<!doctype html><html><head><title>Page %s</title></head>"
            b"<body>%s</body></html>" % (name, name))


def feed(extra=(), t2=T2, next_url="?page=2"):
    """The feed's first page; its next_url is relative."""
    items = list(extra) + [
        {"id": "1", "url": "/p/1.html", "title": "One",
         "date_published": T1},
        {"id": "2", "url": "/p/2.html", "title": "Two",
         "date_published": "2026-09-30T00:00:00Z", "date_modified": t2},
        {"id": "3", "url": "/p/private.html", "date_published": T1},
        {"id": "4", "url": "ftp://elsewhere.test/x"},
    ]
    return json.dumps({"version": "https://jsonfeed.org/version/1.1",
                       "title": "Only JSON", "next_url": next_url,
                       "items": items}).encode()


# Page 2: an older item, and no further page.
PAGE2 = json.dumps({"version": "https://jsonfeed.org/version/1",
                    "items": [{"id": "0", "url": "/p/old.html",
                               "date_published": "2025-01-01T00:00:00Z"}]}
                   ).encode()


def script(body):
    s = {"/robots.txt": ("status", 200, ROBOTS),
         "/": ("status", 200, LINKED, HTML),
         "/plain.html": ("status", 200, PLAIN, HTML),
         "/feed.json": ("status", 200, body,
                        {"Content-Type": "application/feed+json"}),
         "/owner.json": ("status", 200, body,
                         {"Content-Type": "application/json"}),
         "/feed.json?page=2": ("status", 200, PAGE2,
                               {"Content-Type": "application/feed+json"}),
         "/owner.json?page=2": ("status", 200, PAGE2,
                                {"Content-Type": "application/json"}),
         "/feed.json?page=3": ("status", 200, PAGE2,
                               {"Content-Type": "application/feed+json"}),
         "/owner.json?page=3": ("status", 200, PAGE2,
                                {"Content-Type": "application/json"})}
    for p in ("1", "2", "new", "old", "private"):
        s[f"/p/{p}.html"] = ("status", 200, page(p.encode()), HTML)
    return s


ALONE = {"jl.test": "127.0.0.151", "je.test": "127.0.0.152"}
SHARED = "127.0.0.155"
TOGETHER = ["kl.test", "ke.test"]
hosts = dict(ALONE, **{h: SHARED for h in TOGETHER})
ENDPOINT = {"je.test", "ke.test"}
port = free_port_on(sorted(set(hosts.values())))
tmp = tempfile.mkdtemp(prefix="heed-jsonfeed-")
store = os.path.join(tmp, "heed.db")


def seed(h):
    return f"http://{h}:{port}/" + ("plain.html" if h in ENDPOINT else "")


set_runs = [run_heed("sites", "set", h, "--store", store, "--endpoint",
                     f"http://{h}:{port}/owner.json") for h in ENDPOINT]
servers = [ScriptedHttpServer(a, port, script(feed()))
           for a in sorted(set(hosts.values()))]


def export():
    out = run_heed("export", "--store", store, check=0).stdout
    return [json.loads(line) for line in out.splitlines()]


def crawl(dns, *extra):
    return run_heed("crawl", "--store", store, "--allow-private",
                    "--dns-server", dns.server,
                    "--contact-email", "ops@example.org", *extra,
                    *[seed(h) for h in hosts], timeout=120, check=0)


def mark():
    return sum(len(s.log()) for s in servers)


def log_since(n):
    rows = sorted((r for s in servers for r in s.log()),
                  key=lambda r: r["t"])
    return [dict(r, host=(r["host"] or "").split(":")[0]) for r in rows][n:]


with Dnsmasq(hosts={h: [a] for h, a in hosts.items()}) as dns:
    full = crawl(dns)
    full_rows = log_since(0)
    full_export = export()
    # The feed changes: one new item, one modified; the rest as before.
    soon = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + 60))
    changed = feed([{"id": "5", "url": "/p/new.html", "title": "New",
                     "date_published": soon}], t2=soon,
                   next_url="?page=3")
    for s in servers:
        s.set("/feed.json", ("status", 200, changed,
                             {"Content-Type": "application/feed+json"}))
        s.set("/owner.json", ("status", 200, changed,
                              {"Content-Type": "application/json"}))
    n = mark()
    incr = crawl(dns, "--incremental")
    incr_rows = log_since(n)
    incr_export = export()
for s in servers:
    s.close()


def paths(rows, host):
    return [r["path"] for r in rows if r["host"] == host]


def pages(rows, host):
    return sorted(p for p in paths(rows, host) if p.startswith("/p/"))


def record(rows, host, path):
    url = f"http://{host}:{port}{path}"
    return next((r for r in rows if r["url"] == url), None)


def check_runs_succeed():
    for r in set_runs:
        assert r.returncode == 0, (r.stdout, r.stderr)
    assert full.returncode == 0, full.stdout + full.stderr[-2000:]
    assert incr.returncode == 0, incr.stdout + incr.stderr[-2000:]


def check_feed_found_each_way():
    for h in hosts:
        got = paths(full_rows, h)
        feed_path = "/owner.json" if h in ENDPOINT else "/feed.json"
        assert got.count(feed_path) == 1, (h, got)
        if h in ENDPOINT:
            # Nothing links the linked feed there: the owner's is read.
            assert "/feed.json" not in got and "/" not in got, (h, got)


def check_listed_pages_fetched():
    for h in hosts:
        assert pages(full_rows, h) == ["/p/1.html", "/p/2.html",
                                       "/p/old.html"], \
            (h, paths(full_rows, h))


def check_next_page_read():
    # A full run reads the feed's next page (older items); the
    # incremental run asks it again as a source it knows, once, but does
    # not follow a new next_url from a page that still holds an unchanged
    # entry: older pages hold nothing new.
    for h in hosts:
        feed_path = "/owner.json" if h in ENDPOINT else "/feed.json"
        for rows in (full_rows, incr_rows):
            assert paths(rows, h).count(feed_path + "?page=2") == 1, \
                (h, paths(rows, h))
        assert feed_path + "?page=3" not in paths(incr_rows, h), \
            (h, paths(incr_rows, h))


def check_robots_disallow_holds():
    for rows in (full_rows, incr_rows):
        assert not [r for r in rows if r["path"] == "/p/private.html"]


def check_stored_with_feed_dates():
    for h in hosts:
        one = record(full_export, h, "/p/1.html")
        two = record(full_export, h, "/p/2.html")
        assert one and two, (h, [r["url"] for r in full_export])
        assert one["title"] == "Page 1", one
        # The entry's modified date wins over its published one.
        assert one["source_lastmod"] == "2026-10-01T08:00:00Z", one
        assert two["source_lastmod"] == "2026-10-02T07:30:00Z", two


def check_incremental_asks_new_and_changed_only():
    for h in hosts:
        assert pages(incr_rows, h) == ["/p/2.html", "/p/new.html"], \
            (h, paths(incr_rows, h))
        new = record(incr_export, h, "/p/new.html")
        two = record(incr_export, h, "/p/2.html")
        assert new and new["title"] == "Page new", new
        assert new["mode"] == "incremental", new
        assert new["source_lastmod"] == soon, new
        # Its body did not change: the record stays, the date moves.
        assert two and two["source_lastmod"] == soon, two


def check_one_second_between_requests_to_a_host():
    for rows in (full_rows, incr_rows):
        for h in hosts:
            t = [r["t"] for r in rows if r["host"] == h]
            gaps = [b - a for a, b in zip(t, t[1:])]
            assert all(g >= 1.0 - JITTER for g in gaps), (h, gaps)


def check_robots_first():
    for h in hosts:
        assert paths(full_rows, h)[0] == "/robots.txt", paths(full_rows, h)


Checks().main([
    check_runs_succeed,
    check_feed_found_each_way,
    check_listed_pages_fetched,
    check_next_page_read,
    check_robots_disallow_holds,
    check_stored_with_feed_dates,
    check_incremental_asks_new_and_changed_only,
    check_one_second_between_requests_to_a_host,
    check_robots_first,
])
