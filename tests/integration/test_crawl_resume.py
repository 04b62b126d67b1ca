"""A crawl killed with SIGKILL and restarted ends with the same records as
an uninterrupted one and no duplicates, and fetches again at most
what was in flight: judged from the store and from the servers' access
logs."""

import collections
import json
import os
import signal
import sqlite3
import subprocess
import tempfile
import time

from demoweb import DemoWeb, min_gaps
from heedtest import HEED, Checks, run_heed

SITES = {"alpha": "127.0.0.21", "beta": "127.0.0.22"}
PAGES = 12
CONTACT = ["--contact-email", "ops@example.org"]


def build(web):
    """Two sites of PAGES linked pages each, with titles and view counts."""
    for name in SITES:
        links = "".join(f'<a href="/p/{i}.html">page {i}</a> '
                        for i in range(PAGES))
        web.write(name, "index.html",
                  f"<!doctype html><title>{name} home</title>{links}")
        for i in range(PAGES):
            web.write(name, f"p/{i}.html", f"""<!doctype html>
<html><head><title>{name} page {i}</title>
<script type="application/ld+json">{{"@type": "VideoObject",
 "name": "{name} {i}", "interactionStatistic": {{"@type":
 "InteractionCounter", "interactionType": "https://schema.org/WatchAction",
 "userInteractionCount": {1000 + i}}}}}</script></head>
<body><a href="/p/{(i + 1) % PAGES}.html">next</a></body></html>""")


def records(db):
    con = sqlite3.connect(db)
    rows = con.execute("SELECT url, title, views, status FROM pages").fetchall()
    con.close()
    # Ports differ between the two servers: compare site and path.
    return sorted((u.split("/", 2)[2].split(":", 1)[0] + "/" +
                   u.split("/", 3)[3], t, v, s) for u, t, v, s in rows)


tmp = tempfile.mkdtemp(prefix="heed-resume-")

# The uninterrupted crawl.
web_a = DemoWeb(sites=SITES, demo=False)
build(web_a)
web_a.start()
db_a = os.path.join(tmp, "a.db")
run_heed("crawl", "--store", db_a, "--allow-private", *CONTACT,
         *web_a.seeds(), timeout=180, check=0)
web_a.close()

# The same web, killed mid-crawl, then resumed.
web_b = DemoWeb(sites=SITES, demo=False)
build(web_b)
web_b.start()
db_b = os.path.join(tmp, "b.db")
proc = subprocess.Popen([HEED, "crawl", "--store", db_b, "--allow-private",
                         *CONTACT, "--quiet", *web_b.seeds()],
                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
time.sleep(6)
killed_early = proc.poll() is not None
os.kill(proc.pid, signal.SIGKILL)
proc.wait()
before = web_b.requests()
stats_killed = json.loads(run_heed("stats", "--store", db_b, "--json",
                                   check=0).stdout)
resumed = run_heed("crawl", "--store", db_b, "--allow-private", *CONTACT,
                   timeout=180, check=0)
web_b.stop()
after = web_b.requests()


def check_killed_mid_crawl():
    assert not killed_early, "the crawl ended before it was killed"
    assert stats_killed["open_run"] is not None, stats_killed
    assert 0 < stats_killed["pages"] < 2 * (PAGES + 1), stats_killed


def check_same_records_as_uninterrupted():
    a, b = records(db_a), records(db_b)
    assert len(a) == 2 * (PAGES + 1), len(a)
    assert a == b, (a, b)


def check_no_duplicates():
    con = sqlite3.connect(db_b)
    n, distinct = con.execute(
        "SELECT count(*), count(DISTINCT url) FROM pages").fetchone()
    con.close()
    assert n == distinct == 2 * (PAGES + 1), (n, distinct)


def check_refetches_at_most_in_flight():
    counts = collections.Counter((r["addr"], r["path"]) for r in after
                                 if r["path"] != "/robots.txt")
    again = {k: c for k, c in counts.items() if c > 1}
    # Per site at most one fetch in flight and one in the uncommitted
    # batch when the process died.
    assert len(again) <= 2 * len(SITES), again
    assert all(c == 2 for c in again.values()), again


def check_resume_said_so_and_finished():
    assert "0 URLs left" in resumed.stdout, resumed.stdout
    stats = json.loads(run_heed("stats", "--store", db_b, "--json",
                                check=0).stdout)
    assert stats["open_run"] is None and stats["frontier"]["queued"] == 0


def check_politeness_across_the_kill():
    bad = {a: g for a, g in min_gaps(after).items() if g < 1.0}
    assert not bad, bad


try:
    Checks().main([
        check_killed_mid_crawl,
        check_same_records_as_uninterrupted,
        check_no_duplicates,
        check_refetches_at_most_in_flight,
        check_resume_said_so_and_finished,
        check_politeness_across_the_kill,
    ])
finally:
    web_b.close()
