"""One crawl per store (docs/crawling.md, "One crawl per store"): while a
`heed crawl` runs, a second one (either mode) and `heed site qualify` on the
same store exit at once with status 75 and a message naming the holder, and
send nothing; `heed stats` and `heed export` still read. A crawl killed with
SIGKILL leaves no lock behind: the next one resumes at once. Judged from the
site's access log and heed's exit statuses."""

import json
import os
import signal
import subprocess
import tempfile
import time

from demoweb import DemoWeb, min_gaps
from heedtest import HEED, Checks, run_heed

SITES = {"lock": "127.0.0.31"}
PAGES = 8
CONTACT = ["--contact-email", "ops@example.org"]
BUSY = 75


tmp = tempfile.mkdtemp(prefix="heed-lock-")
db = os.path.join(tmp, "heed.db")
web = DemoWeb(sites=SITES, demo=False)
web.write_small_site("lock", PAGES)
web.start()
first = subprocess.Popen([HEED, "crawl", "--store", db, "--allow-private",
                          *CONTACT, "--quiet", *web.seeds()],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         text=True)
started = web.wait_for_requests(3)
t0 = time.monotonic()
second = run_heed("crawl", "--store", db, "--allow-private", *CONTACT,
                  *web.seeds(), timeout=30)
second_s = time.monotonic() - t0
incremental = run_heed("crawl", "--incremental", "--store", db,
                       "--allow-private", *CONTACT, timeout=30)
qualify = run_heed("site", "qualify", "--store", db, "--allow-private",
                   *CONTACT, web.seeds()[0], timeout=30)
stats = run_heed("stats", "--store", db, "--json", timeout=30)
export = run_heed("export", "--store", db, timeout=30)
requests_while_busy = len(web.requests())
first.send_signal(signal.SIGKILL)
first.wait()
killed_after = len(web.requests())
t0 = time.monotonic()
resumed = run_heed("crawl", "--store", db, "--allow-private", *CONTACT,
                   timeout=180)
resume_s = time.monotonic() - t0
web.stop()
log = web.requests()


def check_second_crawl_refused_at_once():
    assert started, "the first crawl never reached the site"
    assert second.returncode == BUSY, (second.returncode, second.stderr)
    assert f"(pid {first.pid})" in second.stderr, second.stderr
    assert "in use" in second.stderr, second.stderr
    assert second_s < 5, second_s


def check_every_mode_refused():
    for proc in (incremental, qualify):
        assert proc.returncode == BUSY, (proc.args, proc.returncode,
                                         proc.stderr)
        assert f"(pid {first.pid})" in proc.stderr, proc.stderr


def check_readers_still_read():
    assert stats.returncode == 0, stats.stderr
    assert json.loads(stats.stdout)["open_run"] is not None, stats.stdout
    assert export.returncode == 0, export.stderr


def check_refused_crawls_sent_nothing():
    # One site at one request per second: any request of a refused crawl
    # would show as a gap under a second.
    bad = {a: g for a, g in min_gaps(log[:requests_while_busy]).items()
           if g < 1.0}
    assert not bad, bad


def check_killed_crawl_leaves_no_lock():
    assert resumed.returncode == 0, (resumed.returncode, resumed.stderr)
    assert "resuming" in resumed.stderr or "0 URLs left" in resumed.stdout, \
        (resumed.stdout, resumed.stderr)
    assert killed_after < len(log), "the resumed crawl sent nothing"


def check_courtesy_across_the_kill():
    bad = {a: g for a, g in min_gaps(log).items() if g < 1.0}
    assert not bad, bad


def check_every_page_stored_once():
    out = run_heed("export", "--store", db, check=0).stdout
    urls = [json.loads(line)["url"] for line in out.splitlines()]
    assert len(urls) == len(set(urls)) == PAGES + 1, urls


try:
    Checks().main([
        check_second_crawl_refused_at_once,
        check_every_mode_refused,
        check_readers_still_read,
        check_refused_crawls_sent_nothing,
        check_killed_crawl_leaves_no_lock,
        check_courtesy_across_the_kill,
        check_every_page_stored_once,
    ])
finally:
    if first.poll() is None:
        first.kill()
    web.close()
