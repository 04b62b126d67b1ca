"""`heed irc` under the web's rules, each judged from the IRC server's own
accept log, dnsmasq's query log, the store and heed's exit status:

- names are resolved by heed's resolver at the --dns-server the test
  starts (dnsmasq, the only one that knows irc.example.net);
- a public-looking name answering 127.0.0.1, the address literal itself and
  an IPv4-mapped ::ffff:127.0.0.1 are refused without --allow-private:
  nothing reaches the server, nothing is stored, stderr names the address
  and --allow-private, exit 1; with --allow-private (or
  net.allow_private) the same names are crawled;
- a closed port is heed's own short retry wait, not an hour presented as
  the network's cooldown; `heed irc reset` lifts it, and keeps a cooldown
  the network asked for in its CRAWLER token;
- exit statuses: 0 done, 1 failure or nothing done, 2 usage or settings,
  130 after SIGINT or SIGTERM with a polite QUIT.
"""

import json
import os
import signal
import sqlite3
import subprocess
import time

from heedtest import Checks, Dnsmasq, free_port
from irclab import HEED, Lab, ScriptedServer, heed

CONTACT = ("--contact-email", "ops@example.org")
CHANNELS = [("#alpha", 5, "first channel"), ("#beta", 2, "second")]
OK, FAIL, USAGE, INTERRUPTED = 0, 1, 2, 130

dns = None  # the module's dnsmasq, started in main


def crawl(lab, *args, store, sub="crawl"):
    return heed(lab, "irc", sub, "--dns-server", dns.server, *CONTACT,
                *args, store=store)


def stored(store):
    """(networks, visits) rows in the store; (0, 0) if it has none."""
    if not os.path.exists(store):
        return 0, 0
    db = sqlite3.connect(store)
    try:
        tables = {r[0] for r in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        if "irc_networks" not in tables:
            return 0, 0
        return (db.execute("SELECT count(*) FROM irc_networks").fetchone()[0],
                db.execute("SELECT count(*) FROM irc_visits").fetchone()[0])
    finally:
        db.close()


def network(lab, store, key):
    _, out = heed(lab, "export", "--irc", "--format", "jsonl", store=store,
                  check=0)
    for line in out.splitlines():
        r = json.loads(line)
        if r["type"] == "irc_network" and r["network"] == key:
            return r
    return None


def settle(server):
    """The server's accept thread polls every 0.5 s: a connection heed
    made would be counted by now."""
    time.sleep(1.2)
    return server.connections


def assert_refused(lab, server, store, target, address, sub="crawl"):
    """heed irc SUB target is refused at address, from every side."""
    code, _ = crawl(lab, target, store=store, sub=sub)
    err = lab.last_stderr
    assert code == FAIL, code
    assert address in err and "--allow-private" in err, err
    assert "refused by heed's address policy" in err, err
    assert settle(server) == 0, "heed connected to a refused address"
    assert server.received() == [], server.received()
    assert stored(store) == (0, 0), "a refusal of heed's own was stored"


def check_public_name_answering_loopback_is_refused():
    with Lab() as lab:
        s = ScriptedServer(lab, "refused.test", channels=CHANNELS)
        store = lab.path("heed.db")
        asked = len(dns.queries())
        name = f"irc.example.net:{s.port}"
        assert_refused(lab, s, store, name, "127.0.0.1")
        # The name went to the test's dnsmasq, not the system resolver.
        names = {n for _, n in dns.queries()[asked:]}
        assert "irc.example.net" in names, dns.queries()[asked:]
        # check, too, and the address literal itself.
        assert_refused(lab, s, store, name, "127.0.0.1", sub="check")
        assert_refused(lab, s, store, f"127.0.0.1:{s.port}",
                       "127.0.0.1 is a loopback")
        # IPv4-mapped IPv6 is judged as the IPv4 address it carries.
        assert_refused(lab, s, store, f"mapped.example.net:{s.port}",
                       "::ffff:127.0.0.1")
        assert_refused(lab, s, store, f"[::ffff:127.0.0.1]:{s.port}",
                       "::ffff:127.0.0.1 is a loopback")


def check_allow_private_crawls_the_same_names():
    with Lab() as lab:
        s = ScriptedServer(lab, "allowed.test", channels=CHANNELS)
        store = lab.path("heed.db")
        key = f"irc.example.net:{s.port}"
        code, out = crawl(lab, "--allow-private", key, store=store)
        assert code == OK, (code, out)
        assert f"{key}: complete" in out, out
        assert s.connections == 1 and "LIST" in s.commands(1)
        net = network(lab, store, key)
        assert net and net["last_status"] == "complete", net
        # The setting does what the option does; the mapped address is
        # connected as it was checked.
        m = ScriptedServer(lab, "mapped-ok.test", channels=CHANNELS)
        code, out = crawl(lab, "--set", "net.allow_private=true",
                          f"mapped.example.net:{m.port}", store=store)
        assert code == OK, (code, out)
        assert m.connections == 1 and "LIST" in m.commands(1)


def check_refusal_does_not_stop_the_others():
    with Lab() as lab:
        s = ScriptedServer(lab, "mixed.test", channels=CHANNELS)
        store = lab.path("heed.db")
        # A name answering a reserved address (refused even with
        # --allow-private) and a name dnsmasq does not know, beside one
        # network heed may crawl: that one is crawled, the run exits 1.
        code, out = crawl(lab, "--allow-private", "reserved.example.net:6667",
                          f"nowhere.test:{s.port}", f"127.0.0.1:{s.port}",
                          store=store)
        err = lab.last_stderr
        assert code == FAIL, (code, out, err)
        assert "240.0.0.1" in err and "reserved" in err, err
        assert "cannot resolve nowhere.test" in err, err
        assert f"127.0.0.1:{s.port}: complete" in out, out
        assert settle(s) == 1
        assert stored(store) == (1, 1), stored(store)


def check_closed_port_is_a_short_wait_of_heeds_and_reset_lifts_it():
    with Lab() as lab:
        store = lab.path("heed.db")
        key = f"irc.example.net:{free_port()}"  # nothing listens there
        t0 = time.time()
        code, out = crawl(lab, "--allow-private", key, store=store)
        assert code == FAIL, (code, out)
        assert f"{key}: unreachable: could not connect" in out, out
        assert "heed's own retry wait" in out and "heed irc reset" in out
        net = network(lab, store, key)
        assert net["last_status"] == "unreachable", net
        # Nothing is put in the network's mouth: no preference, no cooldown.
        assert net["crawler"] == "none" and not net.get("cooldown"), net
        wait = net["next_visit"] - t0
        # 10 minutes from the attempt (irc.min_revisit is an hour).
        assert 590 < wait < 700, f"held {wait:.0f} s, not heed's short wait"
        code, out = crawl(lab, "--allow-private", key, store=store)
        assert code == OK and f"{key}: skipped: in cooldown" in out, out
        code, out = heed(lab, "irc", "reset", key, store=store)
        assert code == OK and "heed may visit it at once" in out, out
        code, out = crawl(lab, "--allow-private", key, store=store)
        assert code == FAIL and f"{key}: unreachable" in out, out


def check_reset_keeps_the_networks_own_cooldown():
    with Lab() as lab:
        s = ScriptedServer(lab, "cooldown.test", channels=CHANNELS,
                           isupport=["CRAWLER=index:allow,cooldown:12"])
        store = lab.path("heed.db")
        key = f"irc.example.net:{s.port}"
        code, _ = crawl(lab, "--allow-private", key, store=store)
        assert code == OK and s.connections == 1
        # The operator's floor (irc.min_revisit, an hour) holds it...
        assert network(lab, store, key)["next_visit"] - time.time() > 3000
        code, out = heed(lab, "irc", "reset", key, store=store)
        assert code == OK, (code, out)
        assert "its own CRAWLER cooldown holds it until" in out, out
        # ...the reset lifts the floor, not the network's 12 s.
        code, out = crawl(lab, "--allow-private", key, store=store)
        assert code == OK and "skipped: in cooldown" in out, out
        assert settle(s) == 1, "came back inside the network's cooldown"
        time.sleep(max(0.0, network(lab, store, key)["next_visit"] -
                       time.time() + 0.2))
        code, out = crawl(lab, "--allow-private", key, store=store)
        assert code == OK and f"{key}: complete" in out, out
        assert s.connections == 2
        quit1 = [t for c, t, line in s.log if c == 1 and
                 line.startswith("QUIT")]
        nick2 = [t for c, t, line in s.log if c == 2 and
                 line.startswith("NICK")]
        assert nick2[0] - quit1[0] >= 11.0, nick2[0] - quit1[0]
        # Unknown networks and bad arguments.
        code, _ = heed(lab, "irc", "reset", "unknown.example.net",
                       store=store)
        assert code == FAIL and "no network" in lab.last_stderr
        code, _ = heed(lab, "irc", "reset", store=store)
        assert code == USAGE
        code, _ = heed(lab, "irc", "reset", "irc://", store=store)
        assert code == USAGE
        missing = lab.path("missing.db")
        code, _ = heed(lab, "irc", "reset", key, store=missing)
        assert code == FAIL and not os.path.exists(missing)


def check_usage_and_settings_exit_2():
    with Lab() as lab:
        store = lab.path("heed.db")
        for args in ([], ["--no-such-option", "irc.example.net"],
                     ["--set", "irc.visit_limit=soon", "irc.example.net"],
                     ["--dns-server", "not-an-address", "irc.example.net"],
                     ["irc://"]):
            code, _ = heed(lab, "irc", "crawl", *CONTACT, *args, store=store)
            assert code == USAGE, (args, code, lab.last_stderr)
        assert stored(store) == (0, 0)


def stop_with(sig):
    """A server that never finishes registration; sig once it has the
    NICK. Returns (exit status, seconds to exit, server, idle server)."""
    with Lab() as lab:
        stuck = ScriptedServer(lab, "stuck.test", register=False)
        idle = ScriptedServer(lab, "idle.test", channels=CHANNELS)
        store = lab.path("heed.db")
        proc = subprocess.Popen(
            [HEED, "irc", "crawl", "--dns-server", dns.server, *CONTACT,
             "--allow-private", "--set", "irc.max_connections=1",
             "--store", store, f"irc.example.net:{stuck.port}",
             f"127.0.0.1:{idle.port}"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            deadline = time.monotonic() + 30
            while "NICK" not in stuck.commands() and \
                    time.monotonic() < deadline:
                time.sleep(0.1)
            t0 = time.monotonic()
            proc.send_signal(sig)
            out, err = proc.communicate(timeout=30)
            took = time.monotonic() - t0
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        print(out, err)
        net = network(lab, store, f"irc.example.net:{stuck.port}")
        return proc.returncode, took, stuck, settle(idle), net, err


def check_sigint_and_sigterm_stop_cleanly_with_130():
    for sig in (signal.SIGINT, signal.SIGTERM):
        code, took, stuck, idle, net, err = stop_with(sig)
        assert code == INTERRUPTED, (sig, code, err)
        assert took < 10, took
        assert "QUIT" in stuck.commands(), "no polite QUIT on the stop"
        assert idle == 0, "a network was started after the stop"
        assert net["last_status"] == "stopped", net
        # A stop is no visit: heed holds nothing against the network.
        assert net["next_visit"] <= time.time() + 1, net


def main():
    global dns
    with Dnsmasq(hosts={"irc.example.net": ["127.0.0.1"],
                        "mapped.example.net": ["::ffff:127.0.0.1"],
                        "reserved.example.net": ["240.0.0.1"]}) as d:
        dns = d
        Checks().main([
            check_public_name_answering_loopback_is_refused,
            check_allow_private_crawls_the_same_names,
            check_refusal_does_not_stop_the_others,
            check_closed_port_is_a_short_wait_of_heeds_and_reset_lifts_it,
            check_reset_keeps_the_networks_own_cooldown,
            check_usage_and_settings_exit_2,
            check_sigint_and_sigterm_stop_cleanly_with_130,
        ])


if __name__ == "__main__":
    main()
