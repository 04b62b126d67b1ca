"""Recrawls that cost a site almost nothing, judged from the log
of scripted servers whose every answer carries an ETag and a Last-Modified
and that answer 304 to a request those validators match (RFC 9110 13.2.2).

Two webs, crawled together by every run:
  (a) one site per address: two names on 127.0.0.191 and 127.0.0.192;
  (b) four names on one address and port (name-based virtual hosts): the
      server answers the same script to every Host; the log tells the
      sites apart by Host.
Each site: robots.txt naming a sitemap, the sitemap (a lastmod for three
entries, none for one), an RSS feed announced by the home page, and the
home page linking four pages. Names resolve only through the test's
dnsmasq.

The runs, one after the other: a full crawl; an immediate second full
crawl (the default `--refresh due`); an incremental run on the unchanged
web; a full crawl after the home page's ETag changed but not its bytes,
and another one; an incremental run after one page changed (its sitemap
lastmod too) and one page was added; `--refresh all`; and two full crawls
around a 304 for a start page whose record was deleted. Every check reads
the servers' log (the witness), and the store or the export for the
records; heed's own counters are never the evidence.
"""

import email.utils
import json
import os
import shutil
import sqlite3
import tempfile
import time

from heedtest import (Checks, Dnsmasq, ScriptedHttpServer, free_port_on,
                      edit_pages_by_hand,
                      run_heed)

ADDRESSES_A = ["127.0.0.191", "127.0.0.192"]
NAMES_A = ["one.recrawl.test", "two.recrawl.test"]
ADDRESS_B = "127.0.0.193"
NAMES_B = [f"v{i}.recrawl.test" for i in range(1, 5)]
NAMES = NAMES_A + NAMES_B
CONTACT = ["--contact-email", "ops@example.org"]
PAGES = 4
SOURCES = ("/robots.txt", "/sitemap.xml", "/feed.rss")
VALIDATORS = ("if-none-match", "if-modified-since")
# Server-side stamps are taken when a request has been read, a few
# milliseconds after heed started it (sitefixture.JITTER).
JITTER = 0.05
OLD = "Mon, 02 Nov 2026 10:00:00 GMT"


def http_date(t):
    return email.utils.formatdate(t, usegmt=True)


def w3c_date(t):
    return time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(t))


class Web:
    """What every site serves, as one script: path -> (body, ETag,
    Last-Modified, Content-Type). Bodies use {{ORIGIN}} (heedtest's
    "cached" action fills in the request's Host)."""

    def __init__(self):
        self.pages = PAGES
        self.titles = {i: f"Page {i} of the recrawl web" for i in
                       range(PAGES)}
        self.lastmod = {0: "2026-11-01", 1: "2026-11-02", 2: None,
                        3: "2026-11-03"}
        self.res = {}
        self.res["/robots.txt"] = (
            "User-agent: *\nAllow: /\n"
            "Sitemap: {{ORIGIN}}/sitemap.xml\n", '"robots-1"', OLD,
            "text/plain")
        # A weak ETag: If-None-Match compares weakly (RFC 9110 13.1.2).
        self.res["/feed.rss"] = (self.feed(), 'W/"feed-1"', OLD,
                                 "application/rss+xml")
        for i in range(PAGES):
            self.set_page(i, 1, OLD)
        self.set_home(1)
        self.set_sitemap(1, OLD)

    def page_body(self, i):
        return ("<!doctype html><html lang=\"en\"><head><meta charset="
                f"\"utf-8\"><title>{self.titles[i]}</title>"
                f"<meta name=\"description\" content=\"Page {i}.\">"
                f"</head><body><h1>{self.titles[i]}</h1>"
                "<a href=\"/\">home</a></body></html>\n")

    def set_page(self, i, version, modified):
        self.res[f"/p/{i}.html"] = (self.page_body(i), f'"p{i}-{version}"',
                                    modified, "text/html; charset=utf-8")

    def set_home(self, version, etag=None):
        links = "".join(f"<li><a href=\"/p/{i}.html\">page {i}</a></li>"
                        for i in range(self.pages))
        body = ("<!doctype html><html lang=\"en\"><head><meta charset="
                "\"utf-8\"><title>The recrawl web</title>"
                "<link rel=\"alternate\" type=\"application/rss+xml\" "
                "title=\"News\" href=\"/feed.rss\"></head><body>"
                f"<ul>{links}</ul></body></html>\n")
        self.res["/"] = (body, etag or f'"home-{version}"', OLD,
                         "text/html; charset=utf-8")

    def set_sitemap(self, version, modified):
        urls = ""
        for i in range(self.pages):
            lm = self.lastmod.get(i)
            urls += (f"  <url><loc>{{{{ORIGIN}}}}/p/{i}.html</loc>" +
                     (f"<lastmod>{lm}</lastmod>" if lm else "") + "</url>\n")
        body = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset "
                "xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
                f"{urls}</urlset>\n")
        self.res["/sitemap.xml"] = (body, f'"sitemap-{version}"', modified,
                                    "application/xml")

    def feed(self):
        items = "".join(
            f"<item><title>Page {i}</title>"
            f"<link>{{{{ORIGIN}}}}/p/{i}.html</link>"
            f"<pubDate>{d}</pubDate></item>\n"
            for i, d in ((0, "Sun, 01 Nov 2026 09:00:00 GMT"),
                         (3, "Tue, 03 Nov 2026 09:00:00 GMT")))
        return ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                "<rss version=\"2.0\"><channel><title>News</title>"
                f"<link>{{{{ORIGIN}}}}/</link>\n{items}</channel></rss>\n")

    def action(self, path):
        body, etag, modified, ctype = self.res[path]
        return ("cached", 200, body.encode(),
                {"ETag": etag, "Last-Modified": modified,
                 "Content-Type": ctype})

    def script(self):
        return {p: self.action(p) for p in self.res}


web = Web()
tmp = tempfile.mkdtemp(prefix="heed-recrawl-")
store = os.path.join(tmp, "heed.db")
hosts = {n: [a] for n, a in zip(NAMES_A, ADDRESSES_A)}
hosts.update({n: [ADDRESS_B] for n in NAMES_B})
port = free_port_on(ADDRESSES_A + [ADDRESS_B])
ORIGINS = {n: f"http://{n}:{port}" for n in NAMES}
seeds = [ORIGINS[n] + "/" for n in NAMES]
runs = {}  # name -> {"proc", "log": entries of that run, "t0", "t1"}


def all_log(servers):
    entries = [e for s in servers for e in s.log()]
    return sorted(entries, key=lambda e: e["t"])


def site_of(e):
    """The site a request went to, by its Host (name:port)."""
    return (e.get("host") or "").rsplit(":", 1)[0]


def conditional(e):
    return any(h in e["headers"] for h in VALIDATORS)


def update(servers, *paths):
    for s in servers:
        for p in paths:
            s.set(p, web.action(p))


def crawl(servers, name, *extra):
    mark = len(all_log(servers))
    t0 = time.monotonic()
    proc = run_heed("crawl", "--store", store, "--dns-server", dns.server,
                    "--allow-private", *CONTACT, *extra, *seeds,
                    timeout=120)
    runs[name] = {"proc": proc, "log": all_log(servers)[mark:], "t0": t0,
                  "t1": time.monotonic()}
    log = runs[name]["log"]
    print(f"run {name}: exit {proc.returncode}, {len(log)} requests "
          f"({sum(1 for e in log if conditional(e))} conditional, "
          f"{sum(1 for e in log if e['status'] == 304)} answered 304), "
          f"{runs[name]['t1'] - t0:.1f} s", flush=True)
    return proc


def records():
    """{url: row} of the pages area, read-only."""
    db = sqlite3.connect(f"file:{store}?mode=ro", uri=True, timeout=10)
    db.row_factory = sqlite3.Row
    rows = {r["url"]: dict(r) for r in db.execute(
        "SELECT url, status, etag, last_modified, fetched_at, checked_at, "
        "title FROM pages")}
    db.close()
    return rows


def visits():
    """{url: row} of the visits area (docs/storage.md), read-only; {}
    while the store has none."""
    db = sqlite3.connect(f"file:{store}?mode=ro", uri=True, timeout=10)
    db.row_factory = sqlite3.Row
    try:
        return {r["url"]: dict(r) for r in db.execute(
            "SELECT url, status, etag, last_outcome FROM visits")}
    except sqlite3.Error:
        return {}
    finally:
        db.close()


def export():
    """{url: record} of `heed export` (JSON lines)."""
    out = run_heed("export", "--store", store, check=0).stdout
    return {r["url"]: r for r in map(json.loads, out.splitlines())}


def delete_records(urls):
    """The page records go; their visit rows stay (a store edited by
    hand, or a record lost)."""
    db = sqlite3.connect(store, timeout=10)
    edit_pages_by_hand(db, "DELETE FROM pages WHERE url = ?",
                       [(u,) for u in urls])
    db.close()


snap = {}
with Dnsmasq(hosts=hosts) as dns:
    servers = [ScriptedHttpServer(a, port, web.script(), per_host=True)
               for a in ADDRESSES_A + [ADDRESS_B]]
    try:
        crawl(servers, "first")
        snap["first"] = (records(), export())
        crawl(servers, "second")
        snap["second"] = (records(), export())
        crawl(servers, "incremental", "--incremental")
        snap["incremental"] = (records(), export())

        # A server that changes ETags: the home page's bytes under a new
        # tag. A full crawl asks for the start page every time.
        web.set_home(1, etag='"home-1-relabelled"')
        update(servers, "/")
        crawl(servers, "relabelled")
        snap["relabelled"] = (records(), export(), visits())
        # The new tag is what heed asks with next.
        crawl(servers, "relabelled_again")

        # The change: page 1 edited (new ETag and Last-Modified, and its
        # sitemap lastmod moved), page 4 added, linked from the home page
        # and listed in the sitemap.
        now = time.time()
        web.titles[1] = "Page 1 of the recrawl web, revised"
        web.set_page(1, 2, http_date(now))
        web.pages = PAGES + 1
        web.titles[PAGES] = "Page 4, new"
        web.set_page(PAGES, 1, http_date(now))
        web.lastmod[1] = w3c_date(now)
        web.lastmod[PAGES] = w3c_date(now)
        web.set_home(2)
        web.set_sitemap(2, http_date(now))
        update(servers, "/", "/sitemap.xml", "/p/1.html", f"/p/{PAGES}.html")
        crawl(servers, "changed", "--incremental")
        snap["changed"] = (records(), export())

        crawl(servers, "refresh_all", "--refresh", "all")
        snap["refresh_all"] = (records(), export())

        # A 304 for a page heed holds no record of: the home pages'
        # records deleted (their visit rows kept), the next answer to each
        # Host a 304. Full crawls, which always ask for the start page.
        delete_records([o + "/" for o in ORIGINS.values()])
        _, etag, _, _ = web.res["/"]
        for s in servers:
            s.set("/", [("status", 304, b"", {"ETag": etag}),
                        web.action("/")])
        crawl(servers, "orphan_304", "--log", "json")
        snap["orphan_304"] = (records(), export())
        crawl(servers, "after_304")
        snap["after_304"] = (records(), export())
    finally:
        full_log = all_log(servers)
        for s in servers:
            s.close()


def by_site(entries):
    out = {n: [] for n in NAMES}
    for e in entries:
        out.setdefault(site_of(e), []).append(e)
    return out


def brief(entries):
    return [(site_of(e), e["path"], e["status"],
             {h: e["headers"][h] for h in VALIDATORS if h in e["headers"]})
            for e in entries]


def is_page(path):
    return path not in SOURCES


def check_every_run_succeeded():
    bad = {n: (r["proc"].returncode, r["proc"].stderr[-800:])
           for n, r in runs.items() if r["proc"].returncode != 0}
    assert not bad, bad


def check_first_crawl_whole_and_unconditional():
    log = runs["first"]["log"]
    got = by_site(log)
    want = {"/robots.txt", "/", "/sitemap.xml", "/feed.rss"} | {
        f"/p/{i}.html" for i in range(PAGES)}
    short = {n: sorted(want - {e["path"] for e in got[n]}) for n in NAMES
             if want - {e["path"] for e in got[n]}}
    assert not short, f"not requested: {short}"
    cond = [e for e in log if conditional(e)]
    assert not cond, brief(cond)
    rec = snap["first"][0]
    missing = [o + p for o in ORIGINS.values() for p in want
               if is_page(p) and (o + p) not in rec]
    assert not missing, missing


def check_second_full_crawl_asks_only_what_is_due():
    log = runs["second"]["log"]
    pages = [e for e in log if e["path"].startswith("/p/")]
    assert not pages, f"pages not due requested: {brief(pages)}"
    rec = snap["first"][0]
    for n in NAMES:
        homes = [e for e in log if site_of(e) == n and e["path"] == "/"]
        assert len(homes) == 1, (n, brief(homes))
        e, stored = homes[0], rec[ORIGINS[n] + "/"]
        assert e["headers"].get("if-none-match") == stored["etag"], (
            n, e["headers"], stored)
        assert e["headers"].get("if-modified-since") == \
            stored["last_modified"], (n, e["headers"], stored)
        assert e["status"] == 304, (n, brief(homes))
    sources = [e for e in log if e["path"] in ("/sitemap.xml", "/feed.rss")]
    assert all(conditional(e) and e["status"] == 304 for e in sources), \
        brief(sources)


def check_second_full_crawl_no_page_whole_twice():
    seen = {}
    twice = []
    for e in runs["first"]["log"] + runs["second"]["log"]:
        if e["status"] == 200 and is_page(e["path"]):
            key = (site_of(e), e["path"])
            if key in seen:
                twice.append(key)
            seen[key] = True
    assert not twice, twice


def stable(record):
    """A record without the date of its last check."""
    return {k: v for k, v in record.items() if k != "checked_at"}


def check_second_full_crawl_records_unchanged():
    before, after = snap["first"][1], snap["second"][1]
    assert set(before) == set(after), set(before) ^ set(after)
    moved = [u for u in before if stable(before[u]) != stable(after[u])]
    assert not moved, [(u, stable(before[u]), stable(after[u]))
                       for u in moved[:2]]


def check_incremental_unchanged_costs_three_304s():
    log = runs["incremental"]["log"]
    for n, entries in by_site(log).items():
        assert 1 <= len(entries) <= 3, (n, brief(entries))
        paths = [e["path"] for e in entries]
        assert "/robots.txt" not in paths, (n, brief(entries))
        # Its known sources, each asked once; the start page at most.
        assert {"/sitemap.xml", "/feed.rss"} <= set(paths) <= {
            "/sitemap.xml", "/feed.rss", "/"}, (n, brief(entries))
        assert all(conditional(e) and e["status"] == 304
                   for e in entries), (n, brief(entries))


def check_incremental_fetches_changed_and_new_only():
    log = runs["changed"]["log"]
    changed = {"/sitemap.xml", "/p/1.html", f"/p/{PAGES}.html"}
    for n, entries in by_site(log).items():
        # The start page (changed: it links the new page) is asked only
        # when due; the new page is found in the sitemap.
        whole = sorted(e["path"] for e in entries
                       if e["status"] == 200 and e["path"] != "/")
        assert whole == sorted(changed), (n, brief(entries))
        rest = [e for e in entries if e["status"] != 200]
        assert all(conditional(e) and e["status"] == 304 for e in rest), (
            n, brief(rest))
        new = [e for e in entries if e["path"] == f"/p/{PAGES}.html"]
        assert len(new) == 1 and not conditional(new[0]), (n, brief(new))
        # Known URLs are asked with their validators.
        known = [e for e in entries if e["path"] in ("/", "/p/1.html",
                                                     "/sitemap.xml")]
        assert all(conditional(e) for e in known), (n, brief(known))


def check_changed_and_new_records_stored():
    rec = snap["changed"][1]
    for o in ORIGINS.values():
        r1 = rec.get(o + "/p/1.html")
        assert r1 and r1["title"] == web.titles[1], (o, r1)
        r4 = rec.get(o + f"/p/{PAGES}.html")
        assert r4 and r4["title"] == web.titles[PAGES], (o, r4)


def check_same_bytes_new_etag_is_unchanged():
    log = runs["relabelled"]["log"]
    homes = [e for e in log if e["path"] == "/"]
    assert sorted(site_of(e) for e in homes) == sorted(NAMES), brief(homes)
    assert all(e["status"] == 200 and conditional(e) for e in homes), \
        brief(homes)
    before, after = snap["incremental"][0], snap["relabelled"][0]
    seen = snap["relabelled"][2]
    for o in ORIGINS.values():
        b, a = before[o + "/"], after[o + "/"]
        assert a["fetched_at"] == b["fetched_at"], (o, b, a)
        assert a["checked_at"] > b["checked_at"], (o, b, a)
        assert a["title"] == b["title"], (o, b, a)
        v = seen.get(o + "/")
        assert v and v["last_outcome"] == 2, (o, v)  # 2: unchanged


def check_new_etag_of_same_bytes_asked_next():
    log = runs["relabelled_again"]["log"]
    homes = [e for e in log if e["path"] == "/"]
    assert sorted(site_of(e) for e in homes) == sorted(NAMES), brief(homes)
    assert all(e["headers"].get("if-none-match") == '"home-1-relabelled"'
               and e["status"] == 304 for e in homes), brief(homes)


def check_refresh_all_rereads_everything():
    log = runs["refresh_all"]["log"]
    cond = [e for e in log if conditional(e)]
    assert not cond, brief(cond)
    known = {"/", "/sitemap.xml", "/feed.rss"} | {
        f"/p/{i}.html" for i in range(PAGES + 1)}
    for n, entries in by_site(log).items():
        got = {e["path"] for e in entries if e["status"] == 200}
        assert known <= got, (n, sorted(known - got))
    rec = snap["refresh_all"][0]
    before = snap["changed"][0]
    stale = [u for u, r in rec.items()
             if u in before and r["fetched_at"] <= before[u]["fetched_at"]]
    assert not stale, stale


def check_304_without_record_is_an_error_then_whole():
    log = runs["orphan_304"]["log"]
    homes = [e for e in log if e["path"] == "/"]
    assert sorted(site_of(e) for e in homes) == sorted(NAMES), brief(homes)
    assert all(e["status"] == 304 for e in homes), brief(homes)
    logged = []
    for line in runs["orphan_304"]["proc"].stderr.splitlines():
        try:
            logged.append(json.loads(line))
        except ValueError:
            pass
    errors = [m for m in logged if m.get("level") == "error"]
    for o in ORIGINS.values():
        assert any(o + "/" in m.get("message", "") for m in errors), (
            o, errors or logged[-10:])
    # Never an empty record.
    rec = snap["orphan_304"][0]
    empty = [o for o in ORIGINS.values() if o + "/" in rec]
    assert not empty, [rec[o + "/"] for o in empty]
    after = runs["after_304"]["log"]
    homes = [e for e in after if e["path"] == "/"]
    assert sorted(site_of(e) for e in homes) == sorted(NAMES), brief(homes)
    assert all(not conditional(e) and e["status"] == 200
               for e in homes), brief(homes)
    rec = snap["after_304"][0]
    lost = [o for o in ORIGINS.values()
            if rec.get(o + "/", {}).get("status") != 200]
    assert not lost, lost


def check_validators_sent_back_exactly():
    """Every conditional request carries the ETag and Last-Modified of the
    last 200 to the same URL, as the server sent them (a weak tag with its
    W/), never validators of another URL or made up."""
    last = {}
    bad = []
    for e in full_log:
        key = (site_of(e), e["path"])
        if conditional(e):
            want = last.get(key, {})
            got = (e["headers"].get("if-none-match"),
                   e["headers"].get("if-modified-since"))
            if got != (want.get("ETag"), want.get("Last-Modified")):
                bad.append((run_of(e), key, got, want))
        if e["status"] == 200:
            last[key] = e["answer_headers"]
    assert not bad, bad[:6]


def run_of(e):
    return next((name for name, r in runs.items()
                 if any(x is e for x in r["log"])), "between runs")


def check_courtesy_across_runs():
    bad = []
    for n, entries in by_site(full_log).items():
        for a, b in zip(entries, entries[1:]):
            if b["t"] - a["t"] < 1.0 - JITTER:
                bad.append((n, run_of(a), a["path"], run_of(b), b["path"],
                            round(b["t"] - a["t"], 3)))
    assert not bad, bad
    strays = [e for e in full_log if site_of(e) not in NAMES]
    assert not strays, brief(strays)


try:
    Checks().main([
        check_every_run_succeeded,
        check_first_crawl_whole_and_unconditional,
        check_second_full_crawl_asks_only_what_is_due,
        check_second_full_crawl_no_page_whole_twice,
        check_second_full_crawl_records_unchanged,
        check_incremental_unchanged_costs_three_304s,
        check_incremental_fetches_changed_and_new_only,
        check_changed_and_new_records_stored,
        check_same_bytes_new_etag_is_unchanged,
        check_new_etag_of_same_bytes_asked_next,
        check_refresh_all_rereads_everything,
        check_validators_sent_back_exactly,
        check_304_without_record_is_an_error_then_whole,
        check_courtesy_across_runs,
    ])
finally:
    shutil.rmtree(tmp, ignore_errors=True)
