"""heed crawl --incremental after a change fetches only the new and changed
entries, judged from the server's access log: a sitemap lastmod
that moved, a feed item that is new, a sitemap entry without a date asked
with a conditional GET (304 kept as unchanged), and nothing else; sources
that did not change answer 304 to the validators heed sends,
so their entries are not read again; a site without sitemap or feed is
reported, not crawled."""

import email.utils
import json
import os
import tempfile
import time

from demoweb import DemoWeb, min_gaps
from heedtest import Checks, run_heed

CONTACT = ["--contact-email", "ops@example.org"]
SOURCES = {"/robots.txt", "/sitemap.xml", "/feed.rss", "/"}

web = DemoWeb().start()
# A news sitemap whose only entry has no lastmod: the incremental mode
# can only ask the server, with If-None-Match.
web.write("news", "sitemap.xml", """<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>{{ORIGIN}}/articles/harbour-bridge-reopens.html</loc></url>
</urlset>
""")
tmp = tempfile.mkdtemp(prefix="heed-incr-")
store = os.path.join(tmp, "heed.db")


def crawl(*extra):
    return run_heed("crawl", "--store", store, "--allow-private", *CONTACT,
                    *extra, *web.seeds(), timeout=180, check=0)


def pages(rows):
    return sorted((r["site"], r["path"], r["status"]) for r in rows
                  if r["path"] not in SOURCES)


def record(site, path):
    out = run_heed("export", "--store", store, check=0).stdout
    for line in out.splitlines():
        r = json.loads(line)
        if r["url"] == web.origin(site) + path:
            return r
    return None


crawl()
# The change: one video edited (and its sitemap lastmod moved), one new
# article announced by the feed.
root = os.path.join(web.root, "videos")
with open(os.path.join(root, "videos", "3.html")) as f:
    page = f.read()
web.write("videos", "videos/3.html",
          page.replace("Night train from Vienna to Venice",
                       "Night train from Vienna to Venice (director's cut)"))
with open(os.path.join(root, "sitemap.xml")) as f:
    sitemap = f.read()
tomorrow = time.strftime("%Y-%m-%d", time.gmtime(time.time() + 86400))
web.write("videos", "sitemap.xml", sitemap.replace(
    "<loc>{{ORIGIN}}/videos/3.html</loc>\n    <lastmod>2026-10-20</lastmod>",
    f"<loc>{{{{ORIGIN}}}}/videos/3.html</loc>\n    <lastmod>{tomorrow}"
    "</lastmod>"))
web.write("news", "articles/new-ferry-line.html", """<!doctype html>
<html lang="en-GB"><head><meta charset="utf-8">
<title>A ferry line to the islands from May</title>
<meta name="description" content="Two boats a day, bikes welcome.">
<meta property="article:tag" content="transport">
</head><body><h1>A ferry line to the islands from May</h1></body></html>
""")
with open(os.path.join(web.root, "news", "feed.rss")) as f:
    feed = f.read()
now = email.utils.formatdate(time.time() + 60, usegmt=True)
web.write("news", "feed.rss", feed.replace("  <item>", f"""  <item>
    <title>A ferry line to the islands from May</title>
    <link>{{{{ORIGIN}}}}/articles/new-ferry-line.html</link>
    <pubDate>{now}</pubDate>
  </item>
  <item>""", 1))

with open(os.path.join(web.root, "news", "sitemap.xml")) as f:
    news_sitemap = f.read()
web.write("news", "sitemap.xml", news_sitemap + "<!-- regenerated -->\n")

mark = web.mark()
first = crawl("--incremental")
first_rows = web.requests(since=mark)
mark = web.mark()
second = crawl("--incremental")
second_rows = web.requests(since=mark)
# ACAP action requests, seen when robots.txt is fetched again.
with open(os.path.join(root, "robots.txt")) as f:
    robots = f.read()
web.write("videos", "robots.txt", robots.replace(
    "ACAP-allow-crawl: /\n",
    "ACAP-allow-crawl: /\nACAP-request-take-down: /about.html\n"
    "ACAP-request-re-crawl: /videos/1.html\n"))
about_before = record("videos", "/about.html")
# The operator resets the site, so its robots.txt is read again now
# rather than at the daily re-check.
run_heed("site", "reset", "--store", store, "127.0.0.11", check=0)
mark = web.mark()
third = crawl("--incremental")
third_rows = web.requests(since=mark)
web.stop()


def check_fetches_only_new_and_changed_entries():
    got = [p for p in pages(first_rows) if p[2] == 200]
    assert got == [("news", "/articles/new-ferry-line.html", 200),
                   ("videos", "/videos/3.html", 200)], got


def check_conditional_get_304_kept_unchanged():
    # The news sitemap changed (a new comment): read again, its undated
    # entry can only be asked with its validators, and is a 304.
    got = [r for r in first_rows if r["status"] == 304]
    assert [(r["site"], r["path"]) for r in got
            if r["path"] not in SOURCES] == [
        ("news", "/articles/harbour-bridge-reopens.html")], got
    assert all(r["if_none_match"] for r in got)
    r = record("news", "/articles/harbour-bridge-reopens.html")
    assert r["mode"] == "full" and r["checked_at"] >= r["fetched_at"], r


def check_unchanged_source_304():
    # The videos sitemap's file changed, the feed of news did not: asked
    # with its validators, answered 304, its entries not read again.
    feed = [r for r in first_rows if r["path"] == "/feed.rss"]
    assert [r["status"] for r in feed] == [200], feed
    news = [r for r in second_rows if r["site"] == "news"]
    assert news and all(r["status"] == 304 and r["if_none_match"]
                        for r in news), news


def check_changed_and_new_records_stored():
    v3 = record("videos", "/videos/3.html")
    assert v3["title"] == "Night train from Vienna to Venice (director's cut)"
    assert v3["mode"] == "incremental"
    new = record("news", "/articles/new-ferry-line.html")
    assert new["title"] == "A ferry line to the islands from May", new


def check_site_without_sources_reported_not_crawled():
    assert "1 without sitemap or feed" in first.stdout, first.stdout
    blog = [r["path"] for r in first_rows if r["site"] == "blog"]
    assert set(blog) <= {"/", "/sitemap.xml", "/robots.txt"}, blog


def check_nothing_new_nothing_fetched():
    got = [p for p in pages(second_rows) if p[2] == 200]
    assert got == [], got
    # The sources known from the first runs are asked with their
    # validators (304), the start pages not at all (not due).
    assert "0 pages stored" in second.stdout, second.stdout
    assert all(r["status"] == 304 for r in second_rows
               if r["site"] != "blog"), second_rows


def check_acap_take_down_and_re_crawl():
    assert about_before is not None
    assert record("videos", "/about.html") is None, [r["path"] for r in third_rows]
    assert "ACAP take-down: 1 records deleted" in third.stdout, third.stdout
    got = [r["path"] for r in third_rows if r["site"] == "videos"]
    assert "/robots.txt" in got and "/videos/1.html" in got, got
    assert "/about.html" not in got, got


def check_politeness_across_runs():
    bad = {a: g for a, g in min_gaps(web.requests()).items() if g < 1.0}
    assert not bad, bad


Checks().main([
    check_fetches_only_new_and_changed_entries,
    check_conditional_get_304_kept_unchanged,
    check_unchanged_source_304,
    check_changed_and_new_records_stored,
    check_site_without_sources_reported_not_crawled,
    check_nothing_new_nothing_fetched,
    check_acap_take_down_and_re_crawl,
    check_politeness_across_runs,
])
