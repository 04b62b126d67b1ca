"""heed crawl on the demo web, judged from the servers' access log: no
request to a disallowed URL, no media URL requested, no two requests to a
site less than 1 s apart, robots.txt first; and what was stored: records
with views and tags, noindex pages left out, nofollow links not followed,
exports and stats. The crawl is run three times, with 1 (the default),
0 and 2 threads extracting pages beside the crawl's own, each on a fresh
web and store: each is judged from its own log, and the three stores
hold the same records."""

import csv
import io
import json
import os
import re
import tempfile

from demoweb import DemoWeb, is_media, min_gaps
from heedtest import Checks, run_heed

CONTACT = ["--contact-url", "https://example.org/bots",
           "--contact-email", "ops@example.org"]

web = DemoWeb().start()
tmp = tempfile.mkdtemp(prefix="heed-crawl-")
store = os.path.join(tmp, "heed.db")
crawl = run_heed("crawl", "--store", store, "--allow-private", *CONTACT,
                 *web.seeds(), timeout=180, check=0)
web.stop()
log = web.requests()
paths = {(r["site"], r["path"]) for r in log}


def exported(*args):
    out = run_heed("export", "--store", store, *args, check=0).stdout
    return [json.loads(line) for line in out.splitlines()]


records = exported()
by_path = {r["url"].split("/", 3)[3]: r for r in records
           if r["host"].startswith("127.0.0.11")}


def crawl_with_threads(n):
    """A crawl of a fresh demo web into a fresh store with
    crawl.extract_threads=n: its output, its servers' log and its
    records."""
    w = DemoWeb().start()
    st = os.path.join(tmp, f"threads-{n}.db")
    out = run_heed("crawl", "--store", st, "--allow-private", *CONTACT,
                   "--set", f"crawl.extract_threads={n}", *w.seeds(),
                   timeout=180, check=0)
    w.stop()
    recs = run_heed("export", "--store", st, check=0).stdout
    return out, w.requests(), [json.loads(x) for x in recs.splitlines()]


threads = {1: (crawl, log, records)}
threads.update({n: crawl_with_threads(n) for n in (0, 2)})


def comparable(recs):
    """What a record says of its page, by host address and path: each web
    has a port and copies of the files of its own (their ETag and
    Last-Modified), and the dates are the crawl's."""
    def page(r):
        rec = {k: v for k, v in r["record"].items()
               if k not in ("etag", "last_modified")}
        text = re.sub(r"(127\.0\.0\.\d+):\d+", r"\1",
                      json.dumps(rec, sort_keys=True))
        return r["status"], r["title"], r["views"], text
    return {(r["host"].split(":")[0], r["url"].split("/", 3)[3]): page(r)
            for r in recs}


def check_no_request_to_disallowed_urls():
    bad = [p for s, p in paths if p.startswith(("/private/", "/drafts/"))
           or p == "/login.html"]
    assert not bad, bad
    assert "3 refused by robots.txt/ACAP" in crawl.stdout, crawl.stdout


def check_no_media_url_requested():
    bad = [p for s, p in paths if is_media(p)]
    assert not bad, bad


def check_media_response_aborted_not_stored():
    # /watch/stream-1 has no extension: heed asks, sees a binary
    # Content-Type and drops the answer before its body.
    assert ("videos", "/watch/stream-1") in paths
    assert not [r for r in records if r["url"].endswith("/watch/stream-1")]
    assert "1 media responses aborted" in crawl.stdout, crawl.stdout


def check_one_request_per_second_per_site():
    gaps = min_gaps(log)
    assert set(gaps) == {"127.0.0.11", "127.0.0.12", "127.0.0.13"}, gaps
    bad = {a: g for a, g in gaps.items() if g < 1.0}
    assert not bad, bad


def check_robots_txt_first_with_contact():
    first = {}
    for r in log:
        first.setdefault(r["addr"], r["path"])
    assert set(first.values()) == {"/robots.txt"}, first
    uas = {r["user_agent"] for r in log}
    assert len(uas) == 1, uas
    ua = uas.pop()
    assert ua.startswith("heed/") and "ops@example.org" in ua, ua


def check_video_records_have_views_and_tags():
    v2 = by_path["videos/2.html"]
    assert v2["status"] == 200
    assert v2["views"] == 1204577, v2["views"]
    assert v2["title"] == "How to sharpen a kitchen knife", v2["title"]
    tags = [t["value"] for t in v2["record"]["tags"]]
    assert tags[:3] == ["cooking", "knives", "howto"], tags
    assert v2["record"]["duration_s"] == 604
    assert v2["permissions"]["acap"]["crawl"]["permitted"] is True
    assert v2["mode"] == "full"


def check_noindex_pages_not_stored_but_followed():
    assert not [p for p in by_path if p.startswith("tags/")], list(by_path)
    assert ("videos", "/tags/cooking.html") in paths
    assert not [r for r in records if r["url"].endswith("/scratch.html")]


def check_nofollow_links_not_followed():
    assert ("blog", "/guestbook.html") not in paths
    assert not [p for s, p in paths if p.startswith("/comments/")]
    assert not [p for s, p in paths if "example.com" in p]


def check_feed_found_from_page():
    assert ("news", "/feed.rss") in paths
    news = [r for r in records if r["host"].startswith("127.0.0.12")]
    assert len([r for r in news if "/articles/" in r["url"]]) == 3


def check_export_csv_and_filters():
    out = run_heed("export", "--store", store, "--format", "csv",
                   check=0).stdout
    rows = list(csv.DictReader(io.StringIO(out)))
    assert len(rows) == len(records), (len(rows), len(records))
    site = f"127.0.0.12:{web.port}"
    assert len(exported("--site", site)) == 5
    assert exported("--since", "2099-01-01") == []
    assert len(exported("--since", "2000-01-01")) == len(records)
    bad = run_heed("export", "--store", store, "--format", "xml")
    assert bad.returncode == 2, bad


def check_stats():
    out = run_heed("stats", "--store", store, "--json", check=0).stdout
    stats = json.loads(out)
    assert stats["pages"] == len(records)
    assert stats["frontier"]["queued"] == 0
    assert stats["last_run"]["mode"] == "full"
    assert stats["open_run"] is None


def check_extract_threads_same_records():
    one = comparable(threads[1][2])
    assert len(one) == len(records) > 10, len(one)
    for n in (0, 2):
        other = comparable(threads[n][2])
        assert other.keys() == one.keys(), (n, other.keys() ^ one.keys())
        diff = [k for k in one if other[k] != one[k]]
        assert not diff, (n, diff[:3], [(one[k], other[k]) for k in diff[:1]])


def check_extract_threads_courteous():
    for n, (out, rows, _) in threads.items():
        gaps = min_gaps(rows)
        assert set(gaps) == {"127.0.0.11", "127.0.0.12", "127.0.0.13"}, gaps
        assert min(gaps.values()) >= 1.0, (n, gaps)
        first = {}
        for r in rows:
            first.setdefault(r["addr"], r["path"])
        assert set(first.values()) == {"/robots.txt"}, (n, first)
        bad = [r["path"] for r in rows if is_media(r["path"]) or
               r["path"].startswith(("/private/", "/drafts/"))]
        assert not bad, (n, bad)
        assert "3 refused by robots.txt/ACAP" in out.stdout, out.stdout


def check_example_config_loads():
    ini = os.path.join(os.environ.get("HEED_SOURCE_ROOT", "."), "examples",
                       "heed.ini")
    out = run_heed("stats", "--config", ini, "--store", store, check=0)
    assert "total:" in out.stdout, out


Checks().main([
    check_no_request_to_disallowed_urls,
    check_no_media_url_requested,
    check_media_response_aborted_not_stored,
    check_one_request_per_second_per_site,
    check_robots_txt_first_with_contact,
    check_video_records_have_views_and_tags,
    check_noindex_pages_not_stored_but_followed,
    check_nofollow_links_not_followed,
    check_feed_found_from_page,
    check_export_csv_and_filters,
    check_stats,
    check_example_config_loads,
    check_extract_threads_same_records,
    check_extract_threads_courteous,
])
