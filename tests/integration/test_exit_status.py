"""The exit statuses of `heed crawl` (docs/security.md, "Exit statuses"),
each caused for real: 130 after SIGINT or SIGTERM with the run left open
for the next crawl to resume; 1 when no site of the run could be crawled
(nothing listens, or heed's address policy refuses every address), with
the reason in the system's words; 0 when some sites could be crawled and
others not; 2 for a start URL heed cannot take
(not http(s), longer than the limit, a media file), said in a short
message and with nothing sent; and 2 for a setting heed cannot take, from
--set or from the settings file, for every command that reads settings.
75 (another crawl holds the store) is
test_crawl_lock.py's. Judged from the site's access log, the store and
heed's exit statuses."""

import json
import os
import signal
import subprocess
import tempfile
import time

from demoweb import DemoWeb, min_gaps
from heedtest import (HEED, Checks, ScriptedHttpServer, free_port_on,
                      run_heed)

SITES = {"exit": "127.0.0.41"}
SILENT = "127.0.0.42"  # nothing listens there
PAGES = 8
CONTACT = ["--contact-email", "ops@example.org"]
INTERRUPTED, FAIL, USAGE = 130, 1, 2


def crawl_until_signal(db, seeds, sig, requests_before):
    """Starts a crawl, sends sig once the site has seen requests_before
    requests; returns (exit status, seconds from signal to exit, stderr)."""
    proc = subprocess.Popen([HEED, "crawl", "--store", db, "--allow-private",
                             *CONTACT, *seeds],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True)
    try:
        reached = web.wait_for_requests(requests_before)
        t0 = time.monotonic()
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=30)
        return (proc.returncode if reached else None,
                time.monotonic() - t0, err)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def open_run(db):
    stats = run_heed("stats", "--store", db, "--json", check=0)
    return json.loads(stats.stdout)["open_run"]


tmp = tempfile.mkdtemp(prefix="heed-exit-")
db = os.path.join(tmp, "heed.db")
web = DemoWeb(sites=SITES, demo=False)
web.write_small_site("exit", PAGES)
web.start()
silent_seed = f"http://{SILENT}:{free_port_on([SILENT])}/"
settings_db = os.path.join(tmp, "settings.db")


def signal_when_served(argv, sig, served, seconds=20):
    """Runs heed with argv, sends sig once served() is true; returns
    (exit status, seconds from the signal to the exit)."""
    proc = subprocess.Popen([HEED, *argv], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + seconds
        while not served() and time.monotonic() < deadline:
            time.sleep(0.05)
        if not served():
            proc.kill()
            raise AssertionError("the server saw no request: "
                                 + proc.communicate()[1][-2000:])
        t0 = time.monotonic()
        proc.send_signal(sig)
        proc.communicate(timeout=30)
        return proc.returncode, time.monotonic() - t0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


SETTINGS_INI = os.path.join(tmp, "bad.ini")
with open(SETTINGS_INI, "w") as f:
    f.write("[net]\nno_such_key = 1\n")


def bad_settings_runs():
    """Every command that reads settings, with a setting it cannot take
    from --set and from the settings file: [(words, source, process)]."""
    seed = web.origin("exit") + "/"
    # (the command's words, its arguments after the options)
    commands = ((["crawl"], [seed]), (["stats"], []), (["export"], []),
                (["page"], []), (["site", "report"], [SITES["exit"]]),
                (["site", "qualify"], [seed]),
                (["verify"], ["--domain", "crawler.example.org",
                              "192.0.2.1"]))
    runs = []
    for words, args in commands:
        for source in (["--set", "net.no_such_key=1"],
                       ["--config", SETTINGS_INI]):
            runs.append((words, source,
                         run_heed(*words, "--store", settings_db,
                                  "--allow-private", *source, *args)))
    return runs


try:
    sigint = crawl_until_signal(db, web.seeds(), signal.SIGINT, 3)
    open_after_sigint = open_run(db)
    sigterm = crawl_until_signal(db, [], signal.SIGTERM, 5)
    open_after_sigterm = open_run(db)
    resumed = run_heed("crawl", "--store", db, "--allow-private", *CONTACT,
                       timeout=120)
    served_by_one_store = len(web.requests())
    unreachable = run_heed("crawl", "--store",
                           os.path.join(tmp, "unreachable.db"),
                           "--allow-private", *CONTACT, silent_seed,
                           timeout=60)
    served_before_refused = len(web.requests())
    refused = run_heed("crawl", "--store", os.path.join(tmp, "refused.db"),
                       *CONTACT, web.seeds()[0], timeout=60)
    served_after_refused = len(web.requests())
    mixed = run_heed("crawl", "--store", os.path.join(tmp, "mixed.db"),
                     "--allow-private", *CONTACT, web.seeds()[0],
                     silent_seed, timeout=120)
    served_before_bad = len(web.requests())
    long_url = web.seeds()[0] + "a" * 10000
    bad = {
        "ftp": run_heed("crawl", "--store", os.path.join(tmp, "bad.db"),
                        "--allow-private", *CONTACT, "ftp://example.test/"),
        "long": run_heed("crawl", "--store", os.path.join(tmp, "bad.db"),
                         "--allow-private", *CONTACT, long_url),
        "media": run_heed("crawl", "--store", os.path.join(tmp, "bad.db"),
                          "--allow-private", *CONTACT,
                          web.seeds()[0] + "clip.mp4"),
    }
    served_after_bad = len(web.requests())
    settings = bad_settings_runs()
    served_after_settings = len(web.requests())
    schedule_mark = len(web.requests())
    schedule = signal_when_served(
            ["crawl", "--schedule", "--store", os.path.join(tmp, "s.db"),
             "--allow-private", *CONTACT, web.seeds()[0]],
            signal.SIGTERM, lambda: len(web.requests()) > schedule_mark + 1)
finally:
    web.stop()
log = web.requests()


def check_sigint_stops_cleanly_with_130():
    status, seconds, err = sigint
    assert status == INTERRUPTED, (status, err)
    assert seconds < 10, seconds
    assert open_after_sigint is not None, "SIGINT closed the run"


def check_sigterm_stops_cleanly_with_130():
    status, seconds, err = sigterm
    assert status == INTERRUPTED, (status, err)
    assert seconds < 10, seconds
    assert open_after_sigterm is not None, "SIGTERM closed the run"


def check_interrupted_run_resumes_to_the_end():
    assert resumed.returncode == 0, (resumed.returncode, resumed.stderr)
    assert open_run(db) is None
    out = run_heed("export", "--store", db, check=0).stdout
    urls = [json.loads(line)["url"] for line in out.splitlines()]
    assert len(urls) == len(set(urls)) == PAGES + 1, urls


def check_courtesy_across_the_signals():
    bad = {a: g for a, g in min_gaps(log[:served_by_one_store]).items()
           if g < 1.0}
    assert not bad, bad


def check_nothing_reachable_exits_1_with_the_reason():
    assert unreachable.returncode == FAIL, (unreachable.returncode,
                                            unreachable.stderr)
    assert "no site could be crawled" in unreachable.stderr, \
        unreachable.stderr
    assert "Connection refused" in unreachable.stderr, unreachable.stderr
    # The pin name heed gives libcurl never reaches the user.
    assert ".invalid" not in unreachable.stderr, unreachable.stderr


def check_every_site_refused_by_policy_exits_1():
    # Loopback without --allow-private: heed's own refusal, nothing sent.
    assert refused.returncode == FAIL, (refused.returncode, refused.stderr)
    assert "private" in refused.stderr, refused.stderr
    assert served_after_refused == served_before_refused


def check_some_sites_crawled_exits_0():
    assert mixed.returncode == 0, (mixed.returncode, mixed.stderr)
    assert "not crawled" in mixed.stderr, mixed.stderr


def check_bad_start_urls_exit_2_with_a_short_message():
    for name, proc in bad.items():
        assert proc.returncode == USAGE, (name, proc.returncode, proc.stderr)
        assert "start URL" in proc.stderr, (name, proc.stderr)
        longest = max(len(line) for line in proc.stderr.splitlines())
        assert longest < 300, (name, longest)
    assert "10" in bad["long"].stderr and "bytes" in bad["long"].stderr, \
        bad["long"].stderr
    assert "media" in bad["media"].stderr, bad["media"].stderr


def check_bad_start_urls_send_nothing():
    assert served_after_bad == served_before_bad, \
        log[served_before_bad:served_after_bad]


def check_bad_settings_exit_2_from_every_source():
    """A setting heed cannot take is a settings error, exit 2, whether it
    came from --set or from the settings file, for every command that
    reads settings; said before anything is done or created."""
    for words, source, proc in settings:
        assert proc.returncode == USAGE, (words, source, proc.returncode,
                                          proc.stderr)
        assert "no_such_key" in proc.stderr, (words, source, proc.stderr)
    assert not os.path.exists(settings_db), \
        "a settings error created the store"
    assert served_after_settings == served_after_bad, \
        log[served_after_bad:served_after_settings]


def check_site_qualify_stops_on_sigint_with_130():
    """`heed site qualify` stopped by SIGINT while its robots.txt request
    is in flight lets that request end (a clean stop: the answer is not
    thrown away, nor stored as a failure), then exits 130; the next
    qualify uses what was stored and sends nothing."""
    port = free_port_on(["127.0.0.43"])
    robots = ("delay", 2, ("status", 200, b"User-agent: *\nAllow: /\n"))
    db = os.path.join(tempfile.mkdtemp(prefix="heed-exit-qualify-"),
                      "q.db")
    argv = ["site", "qualify", "--store", db, "--allow-private", *CONTACT,
            f"http://127.0.0.43:{port}/"]
    with ScriptedHttpServer("127.0.0.43", port,
                            {"/robots.txt": robots}) as srv:
        status, took = signal_when_served(argv, signal.SIGINT,
                                          lambda: len(srv.log()) >= 1)
        assert status == INTERRUPTED, status
        assert took < 10, f"{took:.1f} s to stop"
        proc = run_heed(*argv, check=0)
        assert "qualified-rules" in proc.stdout, proc.stdout
        assert len(srv.log()) == 1, srv.log()


def check_schedule_stopped_during_a_crawl_exits_0():
    """`heed crawl --schedule` ends by SIGINT or SIGTERM, as a service
    does: 0, also when the signal stops a crawl in the middle (which alone
    would be 130)."""
    status, took = schedule
    assert status == 0, status
    assert took < 10, f"{took:.1f} s to stop"


try:
    Checks().main([
        check_sigint_stops_cleanly_with_130,
        check_sigterm_stops_cleanly_with_130,
        check_interrupted_run_resumes_to_the_end,
        check_courtesy_across_the_signals,
        check_nothing_reachable_exits_1_with_the_reason,
        check_every_site_refused_by_policy_exits_1,
        check_some_sites_crawled_exits_0,
        check_bad_start_urls_exit_2_with_a_short_message,
        check_bad_start_urls_send_nothing,
        check_bad_settings_exit_2_from_every_source,
        check_site_qualify_stops_on_sigint_with_130,
        check_schedule_stopped_during_a_crawl_exits_0,
    ])
finally:
    web.close()
