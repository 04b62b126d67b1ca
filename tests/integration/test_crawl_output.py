"""What `heed crawl` writes on its terminal and in its logs:

  -q        a crawl that works prints nothing at all (stdout and stderr
            empty); one that fails still prints its error, status kept
  -v        debug lines appear (each request); without -v they do not
  -q -v     a usage error (status 2)
  no tty    with stderr a file, a progress log line about every
            --progress-interval seconds and one at the end, and not one
            "\\r" or escape byte anywhere; log.progress_interval 0:
            none
  tty       with stderr a pseudo-terminal (Python's pty), the progress
            line is drawn, and every log line starts at a line's start or
            right after the progress line was cleared ("\\r\\033[K"):
            never glued after the progress text

A scripted server on 127.0.0.146 (a.test, through the test's dnsmasq)
serves six pages, so a crawl lasts about six seconds at one request per
second; nothing listens on 127.0.0.147 (dead.test).
"""

import os
import pty
import re
import subprocess
import tempfile
import time

from heedtest import (HEED, Checks, Dnsmasq, ScriptedHttpServer,
                      free_port_on, run_heed)

ADDR, DEAD = "127.0.0.146", "127.0.0.147"
HTML = {"Content-Type": "text/html"}
PAGES = 5
HOME = (b"<!doctype html><title>Home</title>"
        + b"".join(b'<a href="/p/%d.html">%d</a> ' % (i, i)
                   for i in range(PAGES)))
PAGE = b"<!doctype html><title>Page</title><p>page</p>"
SCRIPT = {"/robots.txt": ("status", 200, b"User-agent: *\nAllow: /\n"),
          "/": ("status", 200, HOME, HTML)}
for i in range(PAGES):
    SCRIPT[f"/p/{i}.html"] = ("status", 200, PAGE, HTML)

port = free_port_on([ADDR, DEAD])
tmp = tempfile.mkdtemp(prefix="heed-output-")
SEED = f"http://a.test:{port}/"
server = ScriptedHttpServer(ADDR, port, SCRIPT)


def args(dns, name, *extra):
    return ["crawl", "--store", os.path.join(tmp, name + ".db"),
            "--allow-private", "--dns-server", dns.server,
            "--contact-email", "ops@example.org",
            "--set", "net.connect_timeout_ms=1500", *extra]


def to_files(argv, name):
    """Runs heed with stdout and stderr to files; (status, out, err,
    seconds)."""
    out_path = os.path.join(tmp, name + ".out")
    err_path = os.path.join(tmp, name + ".err")
    start = time.monotonic()
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        status = subprocess.run([HEED, *argv], stdout=out, stderr=err,
                                timeout=120).returncode
    took = time.monotonic() - start
    with open(out_path, "rb") as out, open(err_path, "rb") as err:
        return status, out.read(), err.read(), took


def on_pty(argv):
    """Runs heed with stderr on a pseudo-terminal; (status, bytes seen)."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([HEED, *argv], stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=slave)
    os.close(slave)
    seen = b""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the last writer closed the terminal
            break
        if not chunk:
            break
        seen += chunk
    os.close(master)
    return proc.wait(10), seen


with Dnsmasq(hosts={"a.test": [ADDR], "dead.test": [DEAD]}) as dns:
    quiet = run_heed(*args(dns, "quiet", "-q", SEED), timeout=120)
    quiet_fail = run_heed(*args(dns, "quiet-fail", "-q",
                                f"http://dead.test:{port}/"), timeout=120)
    both = run_heed(*args(dns, "both", "-q", "-v", SEED), timeout=30)
    verbose = to_files(args(dns, "verbose", "-v", SEED), "verbose")
    plain = to_files(args(dns, "plain", "--progress-interval", "1", SEED),
                     "plain")
    # the setting, as a settings file or --set gives it
    silent = to_files(args(dns, "silent", "--set",
                           "log.progress_interval=0", SEED), "silent")
    tty = on_pty(args(dns, "tty", "-v", SEED))
server.close()

PROGRESS = b"heed: [progress] "


def check_quiet_prints_nothing():
    assert quiet.returncode == 0, (quiet.stdout, quiet.stderr)
    assert quiet.stdout == "" and quiet.stderr == "", (quiet.stdout,
                                                       quiet.stderr)


def check_quiet_still_prints_errors():
    assert quiet_fail.returncode == 1, quiet_fail
    assert quiet_fail.stdout == "", quiet_fail.stdout
    assert "no site could be crawled" in quiet_fail.stderr, quiet_fail.stderr


def check_quiet_and_verbose_is_a_usage_error():
    assert both.returncode == 2, (both.returncode, both.stderr)


def check_verbose_adds_debug_lines():
    status, out, err, _ = verbose
    assert status == 0, err
    assert b"heed: [net] GET " in err, err
    assert b"heed: [net] GET " not in plain[2], plain[2]


def check_without_terminal_no_cr_nor_escape():
    for status, out, err, _ in (verbose, plain, silent):
        assert status == 0, err
        assert b"\r" not in out + err and b"\x1b" not in out + err, err


def check_progress_lines_at_the_interval():
    status, out, err, took = plain
    lines = [l for l in err.splitlines() if l.startswith(PROGRESS)]
    # one a second and the final one: about as many as the run's seconds
    assert took >= 4, took
    assert abs(len(lines) - took) <= 2.5, (len(lines), took, err)
    assert b"pages |" in lines[-1] and b"requests" in lines[-1], lines


def check_default_interval_gives_the_final_line():
    # a run shorter than the default 30 s: the final line only
    lines = [l for l in verbose[2].splitlines() if l.startswith(PROGRESS)]
    assert len(lines) == 1, lines
    assert b"%d pages" % (PAGES + 1) in lines[0], lines


def check_interval_zero_turns_progress_off():
    assert PROGRESS not in silent[2], silent[2]


def check_terminal_log_lines_never_glued():
    status, seen = tty
    assert status == 0, seen
    assert b"\r\x1b[K" in seen and b"pages |" in seen, seen
    starts = [m.start() for m in re.finditer(rb"heed: \[", seen)]
    assert len(starts) > 5, seen
    for i in starts:
        before = seen[max(0, i - 4):i]
        assert i == 0 or before.endswith(b"\n") or \
            before.endswith(b"\r\x1b[K"), (i, seen[max(0, i - 120):i + 40])


Checks().main([check_quiet_prints_nothing, check_quiet_still_prints_errors,
               check_quiet_and_verbose_is_a_usage_error,
               check_verbose_adds_debug_lines,
               check_without_terminal_no_cr_nor_escape,
               check_progress_lines_at_the_interval,
               check_default_interval_gives_the_final_line,
               check_interval_zero_turns_progress_off,
               check_terminal_log_lines_never_glued])
