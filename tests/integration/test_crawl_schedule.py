"""heed crawl --schedule (docs/crawling.md, "Configuration and periodic
operation"): a full crawl first, then incremental crawls every
crawl.incremental_interval, never a second full one before
crawl.full_interval; SIGTERM stops it cleanly; the one-request-per-second
budget holds across the runs (server's log)."""

import os
import signal
import sqlite3
import subprocess
import tempfile
import time

from demoweb import DemoWeb, min_gaps
from heedtest import HEED, Checks

web = DemoWeb(sites={"news": "127.0.0.12"}).start()
store = os.path.join(tempfile.mkdtemp(prefix="heed-sched-"), "heed.db")
proc = subprocess.Popen(
    [HEED, "crawl", "--schedule", "--quiet", "--store", store,
     "--allow-private", "--contact-email", "ops@example.org",
     "--set", "crawl.incremental_interval=2",
     "--set", "crawl.full_interval=1h", *web.seeds()],
    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def runs():
    if not os.path.exists(store):
        return []
    con = sqlite3.connect(store)
    try:
        return con.execute("SELECT mode, finished_at FROM crawl_runs "
                           "ORDER BY id").fetchall()
    except sqlite3.OperationalError:
        return []
    finally:
        con.close()


deadline = time.time() + 120
while time.time() < deadline and proc.poll() is None:
    if len([r for r in runs() if r[1] is not None]) >= 3:
        break
    time.sleep(0.5)
still_running = proc.poll() is None
proc.send_signal(signal.SIGTERM)
try:
    out, err = proc.communicate(timeout=60)
except subprocess.TimeoutExpired:
    proc.kill()
    out, err = proc.communicate()
web.stop()
log = web.requests()


def check_full_then_incremental():
    modes = [m for m, finished in runs() if finished is not None]
    assert still_running, err
    assert len(modes) >= 3, (modes, err)
    assert modes[0] == "full" and set(modes[1:]) == {"incremental"}, modes


def check_stops_cleanly_on_sigterm():
    assert proc.returncode == 0, (proc.returncode, err)


def check_incremental_runs_fetch_no_old_article():
    articles = [r["path"] for r in log if r["path"].startswith("/articles/")]
    assert len(articles) == 3 and len(set(articles)) == 3, articles


def check_one_request_per_second_across_runs():
    gaps = min_gaps(log)
    assert gaps and min(gaps.values()) >= 1.0, gaps


try:
    Checks().main([
        check_full_then_incremental,
        check_stops_cleanly_on_sigterm,
        check_incremental_runs_fetch_no_old_article,
        check_one_request_per_second_across_runs,
    ])
finally:
    web.close()
