"""heed crawl with no start URL and no run to resume visits the sites the
store knows, in either mode, judged from the server's access
log: each known site is asked again (in the default mode with `--refresh
all`, every known page; without it only what is due, which the recrawl
tests judge), a site disqualified until later
is left out (status 1 when every known site is), `--sites` still narrows
the crawl to its own sites, and an empty store still refuses with status 2
and sends nothing."""

import os
import socket
import tempfile

from demoweb import DemoWeb, min_gaps
from heedtest import Checks, run_heed

CONTACT = ["--contact-email", "ops@example.org"]

web = DemoWeb(sites={"one": "127.0.0.14", "two": "127.0.0.15"}, demo=False)
web.write_small_site("one", 2)
web.write_small_site("two", 2)
web.start()
# A site nothing answers on: the lifecycle disqualifies it until a later
# attempt, so a crawl of the known sites leaves it out.
probe = socket.socket()
probe.bind(("127.0.0.16", 0))
dead = f"http://127.0.0.16:{probe.getsockname()[1]}/"
probe.close()
tmp = tempfile.mkdtemp(prefix="heed-known-")
store = os.path.join(tmp, "heed.db")
empty = os.path.join(tmp, "empty.db")
only_dead = os.path.join(tmp, "dead.db")
sites_file = os.path.join(tmp, "sites.txt")
with open(sites_file, "w") as f:
    f.write("# only the first site\n" + web.origin("one") + "/\n")


def crawl(db, *extra):
    return run_heed("crawl", "--store", db, "--allow-private", *CONTACT,
                    *extra, timeout=180, check=None)


def visited(rows):
    return sorted({(r["site"], r["path"]) for r in rows})


mark = web.mark()
empty_full = crawl(empty)
empty_incr = crawl(empty, "--incremental")
empty_rows = web.requests(since=mark)
dead_first = crawl(only_dead, dead)
dead_again = crawl(only_dead)
first = crawl(store, web.origin("one") + "/", web.origin("two") + "/", dead)
mark = web.mark()
incr = crawl(store, "--incremental")
incr_rows = web.requests(since=mark)
mark = web.mark()
full = crawl(store, "--refresh", "all")
full_rows = web.requests(since=mark)
mark = web.mark()
narrow = crawl(store, "--sites", sites_file)
narrow_rows = web.requests(since=mark)
web.stop()


def check_empty_store_refuses():
    for p in (empty_full, empty_incr):
        assert p.returncode == 2, (p.returncode, p.stderr)
        assert "no seed URLs and no run to resume" in p.stderr, p.stderr
    assert empty_rows == [], empty_rows


def check_every_known_site_left_out_fails():
    assert dead_first.returncode == 1, (dead_first.stdout, dead_first.stderr)
    assert dead_again.returncode == 1, (dead_again.stdout, dead_again.stderr)
    assert ("0 known sites taken from the store, 1 skipped"
            in dead_again.stdout), dead_again.stdout
    assert "no site could be crawled" in dead_again.stderr, dead_again.stderr


def check_first_crawl():
    assert first.returncode == 0, (first.stdout, first.stderr)
    assert ("one", "/p/1.html") in visited(web.requests()), web.requests()


def check_incremental_visits_known_sites():
    assert incr.returncode == 0, (incr.stdout, incr.stderr)
    assert ("no start URL: 2 known sites taken from the store, 1 skipped "
            "(not qualified until later)") in incr.stdout, incr.stdout
    # Their sitemaps, asked again (their start pages are not due).
    got = visited(incr_rows)
    assert {site for site, _ in got} == {"one", "two"}, got


def check_full_visits_known_sites():
    assert full.returncode == 0, (full.stdout, full.stderr)
    assert "2 known sites taken from the store" in full.stdout, full.stdout
    got = visited(full_rows)
    for site in ("one", "two"):
        for path in ("/", "/p/0.html", "/p/1.html"):
            assert (site, path) in got, got
    assert "full" in full.stdout, full.stdout


def check_sites_file_narrows():
    assert narrow.returncode == 0, (narrow.stdout, narrow.stderr)
    assert "known sites" not in narrow.stdout, narrow.stdout
    got = visited(narrow_rows)
    assert ("one", "/") in got, got
    assert not [g for g in got if g[0] != "one"], got


def check_politeness_across_runs():
    bad = {a: g for a, g in min_gaps(web.requests()).items() if g < 1.0}
    assert not bad, bad


Checks().main([
    check_empty_store_refuses,
    check_every_known_site_left_out_fails,
    check_first_crawl,
    check_incremental_visits_known_sites,
    check_full_visits_known_sites,
    check_sites_file_narrows,
    check_politeness_across_runs,
])
