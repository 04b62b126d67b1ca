"""What is due and when: `heed queue`, its --site pages and
--json, and the due figures of `heed stats` and `heed site report`, on a
store made by a real crawl of two scripted sites on loopback (names from a
dnsmasq the test starts). What the crawl itself scheduled is checked
first; the visits rows are then rewritten by hand with known due dates and
outcomes, so every figure the commands print can be asserted exactly; the
usage errors exit 2 with a sentence."""

import json
import os
import sqlite3
import tempfile
import time

from heedtest import (Checks, Dnsmasq, ScriptedHttpServer, free_port_on,
                      run_heed, run_heed_json)

A, B = "127.0.0.2", "127.0.0.3"
HOST_A, HOST_B = "queue.test", "other.test"
CONTACT = ["--contact-email", "ops@example.org"]
TMP = tempfile.mkdtemp(prefix="heed-queue-")
STORE = os.path.join(TMP, "heed.db")
NOW = int(time.time())
HOUR, DAY = 3600, 86400


def page(title, links=()):
    body = ("<!doctype html><html><head><title>" + title +
            "</title></head><body>" +
            "".join(f'<a href="{p}">{p}</a>' for p in links) +
            "</body></html>").encode()
    return ("status", 200, body, {"Content-Type": "text/html",
                                  "ETag": '"v1"',
                                  "Last-Modified":
                                  "Sat, 21 Nov 2026 10:00:00 GMT"})


ROBOTS = ("status", 200, b"User-agent: *\nAllow: /\n")
SCRIPT_A = {"/robots.txt": ROBOTS, "/": page("Home", ["/a", "/b", "/c"]),
            "/a": page("A"), "/b": page("B"), "/c": page("C")}
SCRIPT_B = {"/robots.txt": ROBOTS, "/": page("Other")}


def iso(t):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


def crawl():
    """A real crawl of both sites; returns (port, run id, server logs)."""
    with Dnsmasq(hosts={HOST_A: [A], HOST_B: [B]}) as dns:
        port = free_port_on([A, B])
        with ScriptedHttpServer(A, port, SCRIPT_A) as sa, \
                ScriptedHttpServer(B, port, SCRIPT_B) as sb:
            run_heed("crawl", "--store", STORE, "--dns-server", dns.server,
                     "--allow-private", *CONTACT, "--quiet",
                     f"http://{HOST_A}:{port}/", f"http://{HOST_B}:{port}/",
                     timeout=120, check=0)
            logs = (sa.log(), sb.log())
    db = sqlite3.connect(STORE)
    run = db.execute("SELECT max(id) FROM crawl_runs").fetchone()[0]
    db.close()
    return port, run, logs


PORT, RUN, LOGS = crawl()
SITE_A = f"http://{HOST_A}:{PORT}"
SITE_B = f"http://{HOST_B}:{PORT}"
# (path, kind, due, interval, outcome, run): outcomes 0 new, 1 changed,
# 2 unchanged, 3 failed; kinds 0 page, 1 sitemap.
ROWS_A = [("/", 0, NOW - HOUR, DAY, 2, RUN),
          ("/a", 0, NOW + 2 * HOUR, 2 * HOUR, 1, RUN),
          ("/b", 0, NOW + 3 * DAY, 3 * DAY, 2, RUN),
          ("/c", 0, NOW - 60, DAY, 0, RUN - 1),
          ("/sitemap.xml", 1, NOW + 5 * HOUR, 6 * HOUR, 3, RUN)]
ROWS_B = [("/", 0, NOW + 10 * DAY, 10 * DAY, 0, RUN)]


def fill_visits():
    """The visits rows, by hand, for the URLs the crawl stored (whatever a
    crawl wrote there is replaced)."""
    db = sqlite3.connect(STORE)
    stored = {r[0] for r in db.execute("SELECT url FROM pages")}
    for path in ("/", "/a", "/b", "/c"):
        assert SITE_A + path in stored, (path, stored)
    assert SITE_B + "/" in stored, stored
    db.execute("DELETE FROM visits")
    for site, rows in ((SITE_A, ROWS_A), (SITE_B, ROWS_B)):
        for path, kind, due, interval, outcome, run in rows:
            db.execute(
                "INSERT INTO visits(url, site, found_on, kind, status, "
                "etag, last_modified, digest, fresh_until, interval_s, "
                "checked_at, changed_at, due_at, last_outcome, run_id, "
                "visits, changes) VALUES(?, ?, ?, ?, 200, '\"v1\"', NULL, "
                "NULL, NULL, ?, ?, ?, ?, ?, ?, 2, 1)",
                (site + path, site, site + "/" if path != "/" else None,
                 kind, interval, due - interval, due - interval - DAY, due,
                 outcome, run))
    db.commit()
    db.close()


def queue(*args, check=0):
    return run_heed("queue", "--store", STORE, *args, check=check)


def queue_json(*args):
    return json.loads(queue("--json", *args).stdout)


# As the crawl left it, then as the checks below want it.
CRAWLED = queue_json("--site", HOST_A, "--limit", "0")
fill_visits()


def test_the_crawl_was_real():
    a, b = LOGS
    paths = sorted(e["path"] for e in a)
    assert {"/robots.txt", "/", "/a", "/b", "/c"} <= set(paths), paths
    assert {"/robots.txt", "/"} <= {e["path"] for e in b}, b
    assert RUN and RUN >= 1, RUN


def test_the_crawl_scheduled_its_pages():
    """Every page the crawl stored is known, visited in its run, found new
    and due after the crawl, not before (docs/crawling.md, "Revisits")."""
    site = CRAWLED["sites"][0]
    assert site["site"] == SITE_A, CRAWLED
    assert site["due_now"] == 0 and site["last_visit"]["run"] == RUN, site
    pages = {u["url"][len(SITE_A):]: u for u in site["urls"]
             if u["kind"] == "page"}
    assert set(pages) == {"/", "/a", "/b", "/c"}, site["urls"]
    for u in pages.values():
        assert u["last_outcome"] == "new" and u["visits"] == 1, u
        assert u["due"] > iso(NOW) and u["interval_s"] >= HOUR, u
    # Earliest due first, whatever the kinds.
    dues = [u["due"] for u in site["urls"]]
    assert dues == sorted(dues), dues


def test_one_line_per_site_and_totals():
    out = queue().stdout.splitlines()
    assert out[0].split() == ["site", "known", "due", "now", "due", "24h",
                              "next", "due", "last", "visit"], out
    # In site order: other.test, then queue.test.
    line_b = out[1].split()
    assert line_b[:5] == [SITE_B, "1", "0", "0", iso(NOW + 10 * DAY)], out
    line_a = out[2].split()
    assert line_a[:5] == [SITE_A, "5", "2", "2", iso(NOW + 2 * HOUR)], out
    assert " ".join(line_a[5:]) == \
        "4 visited, 2 unchanged, 1 changed", out
    assert out[3] == (f"total: 6 URLs on 2 sites, 2 due now, 2 due within "
                      f"24 h, next due {iso(NOW + 2 * HOUR)}"), out
    assert len(out) == 4, out


def test_json_figures():
    out = queue_json()
    assert [s["site"] for s in out["sites"]] == [SITE_B, SITE_A], out
    a = out["sites"][1]
    assert (a["known"], a["due_now"], a["due_within_24h"]) == (5, 2, 2), a
    assert a["next_due"] == iso(NOW + 2 * HOUR), a
    assert a["last_visit"] == {"run": RUN, "visited": 4, "unchanged": 2,
                               "changed": 1}, a
    b = out["sites"][0]
    assert (b["known"], b["due_now"], b["due_within_24h"]) == (1, 0, 0), b
    assert b["last_visit"]["changed"] == 1, b
    t = out["total"]
    assert (t["sites"], t["known"], t["due_now"], t["due_within_24h"]) == \
        (2, 6, 2, 2), t
    assert t["next_due"] == iso(NOW + 2 * HOUR), t
    assert out["more_sites"] == 0, out


def test_limit_bounds_the_sites():
    out = queue("--limit", "1").stdout.splitlines()
    assert out[1].startswith(SITE_B) and "1 more site" in out[2], out
    assert out[3].startswith("total: 6 URLs on 2 sites"), out
    j = queue_json("--limit", "1")
    assert len(j["sites"]) == 1 and j["more_sites"] == 1, j
    assert j["total"]["known"] == 6, j


def test_site_lists_urls_by_due_date():
    out = queue("--site", HOST_A, "--limit", "2").stdout.splitlines()
    assert out[0] == f"site {SITE_A}:", out
    assert out[1].split()[:2] == ["5", "known"], out
    assert out[2].strip() == f"last visit: run {RUN}, 4 visited, 2 " \
        "unchanged, 1 changed", out
    assert out[3].split() == ["due", "interval", "outcome", "kind", "URL"]
    assert out[4].split() == [iso(NOW - HOUR), "1d", "unchanged", "page",
                              SITE_A + "/"], out
    assert out[5].split() == [iso(NOW - 60), "1d", "new", "page",
                              SITE_A + "/c"], out
    assert out[6] == "3 more (--limit 0 shows all)", out
    assert len(out) == 7, out


def test_site_json_pages_in_order():
    # A URL of the site names it, as its origin does.
    out = queue_json("--site", SITE_A + "/some/page", "--limit", "0")
    assert len(out["sites"]) == 1, out
    s = out["sites"][0]
    assert s["site"] == SITE_A and s["more"] == 0, s
    urls = [(u["url"][len(SITE_A):], u["kind"], u["interval"],
             u["last_outcome"]) for u in s["urls"]]
    assert urls == [("/", "page", "1d", "unchanged"),
                    ("/c", "page", "1d", "new"),
                    ("/a", "page", "2h", "changed"),
                    ("/sitemap.xml", "sitemap", "6h", "failed"),
                    ("/b", "page", "3d", "unchanged")], urls
    first = s["urls"][0]
    assert first["due"] == iso(NOW - HOUR), first
    assert first["interval_s"] == DAY and first["found_on"] is None, first
    assert s["urls"][1]["found_on"] == SITE_A + "/", s["urls"][1]
    one = queue_json("--site", SITE_A, "--limit", "1")["sites"][0]
    assert len(one["urls"]) == 1 and one["more"] == 4, one
    assert out["total"]["known"] == 5, out


def test_site_by_host_and_port():
    out = queue_json("--site", f"{HOST_B}:{PORT}")
    assert [s["site"] for s in out["sites"]] == [SITE_B], out
    assert out["sites"][0]["urls"][0]["due"] == iso(NOW + 10 * DAY), out
    proc = queue("--site", f"{HOST_B}:1", check=1)
    assert f"no known URL of {HOST_B}:1" in proc.stderr, proc.stderr
    proc = queue("--site", "nowhere.test", check=1)
    assert proc.stdout == "", proc.stdout


def test_stats_due_figures():
    proc, out = run_heed_json("stats", "--json", "--store", STORE, check=0)
    r = out["revisits"]
    assert (r["known"], r["due_now"], r["due_within_24h"]) == (6, 2, 2), r
    assert r["next_due"] == iso(NOW + 2 * HOUR), r
    # The fields that were there before are unchanged.
    assert {"sites", "pages", "frontier", "last_run", "open_run"} <= \
        set(out), out
    assert out["pages"] == 5, out
    text = run_heed("stats", "--store", STORE, check=0).stdout
    assert (f"revisits: 6 known URLs, 2 due now, 2 due within 24 h, next "
            f"due {iso(NOW + 2 * HOUR)}") in text, text


def test_site_report_revisits():
    proc, out = run_heed_json("site", "report", "--json", "--store", STORE,
                              HOST_A, check=0)
    assert len(out) == 1 and out[0]["site"] == SITE_A, out
    r = out[0]["revisits"]
    assert (r["known"], r["due_now"], r["due_within_24h"]) == (5, 2, 2), r
    assert r["next_due"] == iso(NOW + 2 * HOUR), r
    assert r["last_visit"] == {"run": RUN, "visited": 4, "unchanged": 2,
                               "changed": 1}, r
    text = run_heed("site", "report", "--store", STORE, HOST_B,
                    check=0).stdout
    assert (f"revisits:       1 known URLs, 0 due now, 0 due within 24 h, "
            f"next due {iso(NOW + 10 * DAY)}") in text, text
    assert f"last visit:     run {RUN}, 1 visited, 0 unchanged, 1 changed" \
        in text, text


def test_usage_errors():
    for bad in ("x", "-1", "1.5", "", "99999999999"):
        proc = queue("--limit", bad, check=2)
        assert "--limit takes a whole number" in proc.stderr, proc.stderr
        assert f"not '{bad}'" in proc.stderr, proc.stderr
        assert proc.stdout == "", proc.stdout
    proc = queue("--site", "", check=2)
    assert "--site takes a site" in proc.stderr, proc.stderr
    proc = queue("extra", check=2)
    assert "unexpected argument 'extra'" in proc.stderr, proc.stderr
    queue("--no-such-option", check=2)
    proc = run_heed("queue", "--store", os.path.join(TMP, "none.db"),
                    check=1)
    assert "no store" in proc.stderr, proc.stderr
    assert not os.path.exists(os.path.join(TMP, "none.db"))


def test_help():
    for args in (("help", "queue"), ("queue", "--help")):
        out = run_heed(*args, check=0).stdout
        assert out.startswith("Usage: heed queue [--site SITE] [--limit N]"
                              " [--json]"), out
        assert "--limit N" in out and "Exit status" in out, out
    assert "queue" in run_heed("--help", check=0).stdout


def test_reads_only():
    db = sqlite3.connect(STORE)
    version = db.execute("PRAGMA data_version").fetchone()[0]
    queue("--site", HOST_A)
    queue("--json")
    # data_version moves when another connection commits a change.
    assert db.execute("PRAGMA data_version").fetchone()[0] == version
    db.close()


if __name__ == "__main__":
    Checks().main([
        test_the_crawl_was_real,
        test_the_crawl_scheduled_its_pages,
        test_one_line_per_site_and_totals,
        test_json_figures,
        test_limit_bounds_the_sites,
        test_site_lists_urls_by_due_date,
        test_site_json_pages_in_order,
        test_site_by_host_and_port,
        test_stats_due_figures,
        test_site_report_revisits,
        test_usage_errors,
        test_help,
        test_reads_only,
    ])
