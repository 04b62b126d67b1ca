"""The robots.txt lifecycle across separate runs of heed: the retry
interval, the maximum number of failures and the operator's reset, the
re-check interval, the 429/503 back-off with Retry-After kept in the store,
and `heed site report`/`reset`, asserted from the server's access log and
the stored state (docs/robots-lifecycle.md)."""

import email.utils
import json
import os
import time

from heedtest import (Checks, ScriptedHttpServer, free_port_on, run_heed,
                      run_heed_json)
from sitefixture import HOST, JITTER, assert_spaced, gaps, site

A = "127.0.0.2"
ROBOTS = b"User-agent: *\nDisallow: /private\n"
RETRY = 3  # site.retry_interval in sitefixture.SETTINGS


def wait_past(seconds):
    time.sleep(seconds + 0.2)


def retry_interval_max_failures_and_reset():
    with site({A: {"/robots.txt": ("status", 403, b"no")}}) as s:
        s.qualify(check=1)
        assert len(s.log()) == 1
        # Before the retry interval: nothing is sent.
        proc = s.qualify(check=1)
        assert "not contacted" in proc.stdout, proc.stdout
        assert len(s.log()) == 1
        assert s.report()["failures"] == 1
        wait_past(RETRY)
        s.qualify(check=1)
        assert len(s.log()) == 2 and s.report()["failures"] == 2
        wait_past(RETRY)
        s.qualify(check=1)
        rep = s.report()
        assert rep["state"] == "disqualified-until-reset", rep
        assert rep["reason"] == "max-failures" and rep["failures"] == 3
        assert rep["next_attempt"] is None, rep
        # However long one waits, nothing more until the operator resets.
        wait_past(RETRY)
        s.qualify(check=1)
        assert len(s.log()) == 3
        # No two requests closer than the retry interval.
        assert all(g >= RETRY - JITTER for g in gaps(s.log())), gaps(s.log())
        proc = run_heed("site", "reset", "--store", s.store, HOST, check=0)
        assert "1 site(s) reset" in proc.stdout, proc.stdout
        rep = s.report()
        assert rep["state"] == "unknown" and rep["reason"] == "reset", rep
        assert rep["failures"] == 0 and rep["last_attempt"], rep
        s.qualify(check=1)
        assert len(s.log()) == 4
        assert s.report()["failures"] == 1


def success_resets_the_failure_count():
    script = [("status", 403, b"no"), ("status", 403, b"no"),
              ("status", 200, ROBOTS)]
    with site({A: {"/robots.txt": script}}) as s:
        s.qualify(check=1)
        wait_past(RETRY)
        s.qualify(check=1)
        assert s.report()["failures"] == 2
        wait_past(RETRY)
        s.qualify(check=0)
        rep = s.report()
        assert rep["state"] == "qualified-rules" and rep["failures"] == 0
        assert rep["last_success"] and rep["last_attempt"], rep
        assert len(s.log()) == 3


def qualified_results_are_used_until_the_recheck_interval():
    recheck = ["site.recheck_interval=2"]
    with site({A: {"/robots.txt": ("status", 200, ROBOTS)}}) as s:
        s.qualify(settings=recheck, check=0)
        proc = s.qualify(settings=recheck, check=0)
        assert "not contacted" in proc.stdout
        assert len(s.log()) == 1
        wait_past(2)
        s.qualify(settings=recheck, check=0)
        assert len(s.log()) == 2
        assert_spaced(s.log(), 2)


def retry_after_seconds_holds_back_the_next_run():
    settings = ["site.retry_interval=1"]
    with site({A: {"/robots.txt": ("status", 429, b"slow down",
                                   {"Retry-After": "6"})}}) as s:
        # Retry-After counts from the answer, which came between the
        # start and the end of the run (seconds apart on a busy machine).
        began = time.time()
        s.qualify(settings=settings, check=1)
        ended = time.time()
        rep = s.report()
        assert rep["next_attempt_unix"] - rep["robots_date"] >= 6, rep
        assert began + 6 - 1 <= rep["next_attempt_unix"] <= ended + 6 + 1, (
            began, ended, rep)
        assert rep["backoff"]["level"] == 1, rep
        # A new heed process, past the retry interval but inside
        # Retry-After: the stored back-off keeps it away.
        wait_past(1)
        s.qualify(settings=settings, check=1)
        assert len(s.log()) == 1


def retry_after_http_date_is_honoured():
    settings = ["site.retry_interval=1"]
    at = int(time.time()) + 8
    when = email.utils.formatdate(at, usegmt=True)
    with site({A: {"/robots.txt": ("status", 429, b"slow down",
                                   {"Retry-After": when})}}) as s:
        s.qualify(settings=settings, check=1)
        rep = s.report()
        # The date itself, however long the run took to get there.
        assert abs(rep["next_attempt_unix"] - at) <= 1, (when, rep)


def five_oh_three_backs_off_exponentially():
    settings = ["site.retry_interval=1"]
    with site({A: {"/robots.txt": ("status", 503, b"busy")}}) as s:
        s.qualify(settings=settings, check=1)
        log = s.log()
        rep = s.report()
        # Two 503s (one per pass): the host's 1 s delay doubled twice, to
        # 4 s, and the second attempt already waited the first doubling.
        assert rep["backoff"]["level"] == 2, rep
        assert len(log) == 2 and gaps(log)[0] >= 2 - JITTER, gaps(log)
        assert rep["next_attempt_unix"] >= rep["backoff"]["until"], rep
        # The next attempt waits the 4 s past the last request, more than
        # the 1 s retry interval.
        assert rep["next_attempt_unix"] - rep["robots_date"] >= 5, rep
        wait_past(1)
        s.qualify(settings=settings, check=1)
        assert len(s.log()) == 2


def one_site_is_qualified_once_per_run():
    with site({A: {"/robots.txt": ("status", 200, ROBOTS)}}) as s:
        proc = s.qualify("--json", s.url + "a", s.url + "b?c", check=0)
        assert len(s.log()) == 1
        out = json.loads(proc.stdout)
        assert len(out) == 1 and out[0]["site"] == s.url.rstrip("/"), out
        assert out[0]["state"] == "qualified-rules", out
        assert out[0]["contacted"] and out[0]["attempts"] == 1, out


def host_names_on_one_address_share_its_budget():
    # Two sites on one server share its window: with at most one request
    # in flight per address, the second waits for the first to end; an
    # address delay, if set, comes on top.
    slow = {"/robots.txt": ("delay", 0.6, ("status", 200, ROBOTS))}
    names = {"a.test": [A], "b.test": [A]}
    one = "politeness.address_concurrency=1"
    for settings, least in (([one], 0.6),
                            ([one, "politeness.address_delay_ms=1500"],
                             1.5)):
        with site({A: slow}, extra_hosts=names) as s:
            s.qualify(f"http://a.test:{s.port}/", url=f"http://b.test:{s.port}/",
                      settings=settings, check=0)
            log = s.log()
            assert len(log) == 2, log
            assert gaps(log)[0] >= least - JITTER, (settings, gaps(log))


def a_restarted_heed_keeps_the_host_delay():
    # Two sites of one host (two ports), qualified by two heed processes
    # started back to back: the second request still waits the 1 s delay.
    with site({A: {"/robots.txt": ("status", 200, ROBOTS)}}) as s:
        port2 = free_port_on([A])
        with ScriptedHttpServer(A, port2, {"/robots.txt": (
                "status", 404, b"")}) as other:
            s.qualify(check=0)
            s.qualify(url=f"http://{HOST}:{port2}/", check=0)
            log = sorted(s.log() + other.log(), key=lambda e: e["t"])
            assert len(log) == 2, log
            assert_spaced(log)


def report_shows_what_an_administrator_needs():
    with site({A: {"/robots.txt": ("status", 200, ROBOTS)}}) as s:
        s.qualify(check=0)
        proc = run_heed("site", "report", "--store", s.store, HOST, check=0)
        out = proc.stdout
        for want in ("state:          qualified-rules", "last attempt:",
                     "next attempt:", "failures:       0 in a row",
                     "line 2: Disallow: /private", "----- robots.txt",
                     "User-agent: *", "UTC"):
            assert want in out, (want, out)
        proc = run_heed("site", "report", "--store", s.store, "other.test",
                        check=1)
        assert "no site of other.test" in proc.stderr
        run_heed("site", "reset", "--store", s.store, "other.test", check=1)
        run_heed("site", "report", "--store", s.store, check=2)


def settings_from_a_config_file():
    with site({A: {"/robots.txt": ("status", 200, ROBOTS)}},
              extra_hosts={"a.test": [A]}) as s:
        ini = os.path.join(os.path.dirname(s.store), "heed.ini")
        with open(ini, "w") as f:
            f.write(f"""[identity]
contact_email = ops@heed.test
[store]
location = {s.store}
[net]
allow_private = true
dns_server = {s.dns.server}
""")
        proc = run_heed("site", "qualify", "--config", ini, s.url, check=0)
        assert "warning" not in proc.stderr, proc.stderr
        assert s.log()[0]["user_agent"].endswith("(ops@heed.test)"), s.log()
        # The command line wins over the file.
        sent = len(s.log())
        proc = run_heed("site", "qualify", "--config", ini, "--set",
                        "net.allow_private=false", f"http://a.test:{s.port}/",
                        check=1)
        assert "--allow-private" in proc.stderr, proc.stderr
        assert len(s.log()) == sent, s.log()
        # A refusal of heed's own is not the site's failure: nothing stored.
        run_heed("site", "report", "--config", ini, "a.test", check=1)


def bad_options_are_usage_errors():
    run_heed("site", "qualify", "--set", "nope.key=1", "http://a.test/",
             check=2)
    run_heed("site", "qualify", "--set", "site.max_failures=x",
             "http://a.test/", check=2)
    run_heed("site", "frobnicate", check=2)
    proc = run_heed("site", "--help", check=0)
    assert "--allow-private" in proc.stdout and "--dns-server" in proc.stdout


Checks().main([retry_interval_max_failures_and_reset,
               success_resets_the_failure_count,
               qualified_results_are_used_until_the_recheck_interval,
               retry_after_seconds_holds_back_the_next_run,
               retry_after_http_date_is_honoured,
               five_oh_three_backs_off_exponentially,
               one_site_is_qualified_once_per_run,
               host_names_on_one_address_share_its_budget,
               a_restarted_heed_keeps_the_host_delay,
               report_shows_what_an_administrator_needs,
               settings_from_a_config_file,
               bad_options_are_usage_errors])
