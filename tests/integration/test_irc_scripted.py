"""heed irc against scripted IRC servers: what no real server sends.

CRAWLER variants (allow, deny, cooldown, no value, missing index, duplicate
keys, garbage, a token split over 005 lines, a deny arriving mid-visit),
LIST refusals, a drop mid-LIST, a 100,000-channel flood, a server that never
finishes registration, STS. Courtesy is asserted from the servers' logs of
what they received; the stored list is compared with what they hold.
"""

import csv
import io
import json
import time

from irclab import Lab, ScriptedServer, heed, run_checks

CHANNELS = [("#alpha", 5, "first channel"), ("#beta", 2, "topic with :colon"),
            ("#gamma", 1, "[+nt] prefixed by modes"), ("&local", 1, "skip"),
            ("#delta", 9, "ünïcødé topic")]
PUBLIC = {"#alpha": (5, "first channel"), "#beta": (2, "topic with :colon"),
          "#gamma": (1, "prefixed by modes"), "#delta": (9, "ünïcødé topic")}
CRAWL_COMMANDS = {"LIST", "LINKS", "LUSERS", "MODE", "JOIN", "WHO", "WHOIS"}


def export(lab, store):
    _, out = heed(lab, "export", "--irc", "--format", "jsonl", store=store,
                  check=0)
    return [json.loads(line) for line in out.splitlines() if line]


def channels_of(records, key):
    return {r["channel"]: (r["users"], r["topic"]) for r in records
            if r["type"] == "irc_channel" and r["network"] == key}


def network_of(records, key):
    return next(r for r in records
                if r["type"] == "irc_network" and r["network"] == key)


def key(server):
    return f"127.0.0.1:{server.port}"


def assert_paced(server):
    """At most one command per 2 s after registration, server-side."""
    times = sorted(t for c in ("MODE", "LUSERS", "LINKS", "LIST")
                   for t in server.times(c))
    gaps = [b - a for a, b in zip(times, times[1:])]
    assert gaps and min(gaps) >= 1.95, f"commands {gaps} s apart"


def assert_not_crawled(server):
    got = set(server.commands()) & CRAWL_COMMANDS
    assert not got, f"a refusing network received {got}"
    assert "QUIT" in server.commands(), "no polite QUIT"


def test_crawler_token_variants():
    with Lab() as lab:
        store = lab.path("heed.db")
        variants = {
            "allow": ("CRAWLER=index:allow,cooldown:3600", True),
            "deny": ("CRAWLER=index:deny,cooldown:7200", False),
            "bare": ("CRAWLER", True),
            "empty": ("CRAWLER=", True),
            "no_index": ("CRAWLER=cooldown:60", False),
            "duplicate": ("CRAWLER=index:allow,index:allow", False),
            "garbage": ("CRAWLER=;;==%%,,:", False),
            "bad_index": ("CRAWLER=index:ALLOW", False),
            "unknown_key": ("CRAWLER=index:allow,note:a\\x20b\\x3Dc", True),
            "bad_cooldown": ("CRAWLER=index:allow,cooldown:soon", True),
        }
        servers = {}
        for name, (token, _) in variants.items():
            servers[name] = ScriptedServer(
                lab, f"{name.replace('_', '-')}.test",
                isupport=[f"NETWORK={name} CHANTYPES=#& BOT=B", token],
                channels=CHANNELS)
        # The token split over 005 lines, and a deny after registration.
        servers["split"] = ScriptedServer(
            lab, "split.test", channels=CHANNELS,
            isupport=["NETWORK=split CHANTYPES=#", "SAFELIST",
                      "CRAWLER=index:deny,cooldown:600"])
        servers["later_deny"] = ScriptedServer(
            lab, "later.test", channels=CHANNELS,
            isupport=["NETWORK=later CRAWLER=index:allow"],
            after_links_isupport="CRAWLER=index:deny,cooldown:900")
        targets = [key(s) for s in servers.values()]
        t0 = time.time()
        heed(lab, "irc", "crawl", "--allow-private",
             "--set", "irc.max_connections=16",
             "--set", "identity.contact_email=ops@example.org", *targets,
             store=store, check=0)

        records = export(lab, store)
        for name, (token, crawled) in variants.items():
            s = servers[name]
            assert s.connections == 1, f"{name}: {s.connections} connections"
            if crawled:
                assert s.commands().count("LIST") == 1, name
                assert_paced(s)
                assert channels_of(records, key(s)) == PUBLIC, name
                assert f"MODE {s.received()[1].split()[1]} +B" in s.received()
            else:
                assert_not_crawled(s)
                assert channels_of(records, key(s)) == {}, name
                assert network_of(records, key(s))["crawler"] in (
                    "deny", "invalid"), name
        # The realname carries the operator's contact.
        user = [ln for ln in servers["allow"].received()
                if ln.startswith("USER")][0]
        assert "ops@example.org" in user, user
        assert_not_crawled(servers["split"])
        later = servers["later_deny"]
        assert "LINKS" in later.commands() and "LIST" not in later.commands()
        assert "QUIT" in later.commands()

        # Cooldowns: deny 7200 s, allow 3600 s, invalid tokens 3600 s.
        def next_visit(name):
            return network_of(records, key(servers[name]))["next_visit"] - t0
        assert 7100 < next_visit("deny") < 7400
        assert 3500 < next_visit("allow") < 3800
        assert 3500 < next_visit("duplicate") < 3800
        assert 3500 < next_visit("bad_cooldown") < 3800

        # A second run inside every cooldown contacts nobody.
        _, out = heed(lab, "irc", "crawl", "--allow-private",
                      *targets, store=store, check=0)
        for name, s in servers.items():
            assert s.connections == 1, f"{name} reconnected inside cooldown"
        assert out.count("skipped: in cooldown until") == len(servers)


def test_cooldown_expires():
    with Lab() as lab:
        store = lab.path("heed.db")
        s = ScriptedServer(lab, "short.test", channels=CHANNELS,
                           isupport=["CRAWLER=index:allow,cooldown:4"])
        networks = lab.path("networks.txt")
        with open(networks, "w") as f:
            f.write(f"# the demo network\n  {key(s)}   # short cooldown\n\n")
        args = ("irc", "crawl", "--allow-private",
                "--set", "irc.min_revisit=0", "-f", networks)
        heed(lab, *args, store=store, check=0)
        ended = time.monotonic()
        heed(lab, *args, store=store, check=0)
        assert s.connections == 1, "reconnected inside a 4 s cooldown"
        time.sleep(max(0.0, 4.5 - (time.monotonic() - ended)))
        heed(lab, *args, store=store, check=0)
        assert s.connections == 2, "not back after the cooldown"
        # The cooldown counts from the end of the visit, server-side too.
        quits = s.times("QUIT")
        nicks = s.times("NICK")
        assert nicks[-1] - quits[0] >= 4.0, "came back too early"


def test_list_troubles():
    with Lab() as lab:
        store = lab.path("heed.db")
        refuse = ScriptedServer(lab, "refuse.test", channels=CHANNELS,
                                list_mode="refuse_once")
        refuse421 = ScriptedServer(lab, "unreal.test", channels=CHANNELS,
                                   list_mode="refuse_421")
        many = [(f"#c{i}", i, f"t{i}") for i in range(10)]
        drop = ScriptedServer(lab, "drop.test", channels=many,
                              list_mode="drop")
        flood = ScriptedServer(lab, "flood.test", list_mode="flood",
                               flood_count=100000)
        stuck = ScriptedServer(lab, "stuck.test", register=False)
        t0 = time.monotonic()
        code, out = heed(lab, "irc", "crawl", "--allow-private",
                         "--set", "irc.visit_limit=40s",
                         key(refuse), key(refuse421), key(drop), key(flood),
                         key(stuck), store=store)
        took = time.monotonic() - t0
        assert code == 1, "a network that never registers is a failure"
        assert took < 60, f"bounded visit took {took:.0f}s"
        records = export(lab, store)

        # InspIRCd-style refusal: retried after the named 2 s, not "0".
        lists = refuse.times("LIST")
        assert len(lists) == 2 and lists[1] - lists[0] >= 2.0, lists
        assert channels_of(records, key(refuse)) == PUBLIC
        assert network_of(records, key(refuse))["last_status"] == "complete"

        # UnrealIRCd-style refusal twice: partial, never "0 channels".
        assert refuse421.commands().count("LIST") == 2
        net = network_of(records, key(refuse421))
        assert net["last_status"] == "partial", net
        assert "channels" not in net or net["channels"] in (None, 0)
        assert f"{key(refuse421)}: partial: LIST refused" in out

        # Dropped mid-LIST: partial, what was seen is kept.
        assert network_of(records, key(drop))["last_status"] == "partial"
        assert channels_of(records, key(drop)) == {
            f"#c{i}": (i, f"t{i}") for i in range(5)}

        # 100,000 channels streamed into the store.
        _, csv_out = heed(lab, "export", "--irc", "--format", "csv",
                          store=store, check=0)
        rows = [r for r in csv.DictReader(io.StringIO(csv_out))
                if r["network"] == key(flood)]
        assert len(rows) == 100000, len(rows)
        assert rows[0]["topic"].startswith("topic number ")

        # Never registered: bounded, failed, nothing asked.
        assert not set(stuck.commands()) & {"LIST", "LINKS", "LUSERS"}
        assert f"{key(stuck)}: failed: registration did not finish" in out


def test_sts_and_tls():
    with Lab() as lab:
        store = lab.path("heed.db")
        secure = ScriptedServer(lab, "secure.test", channels=CHANNELS,
                                tls=True)
        plain = ScriptedServer(lab, "plain.test", channels=CHANNELS,
                               cap_ls=f"sts=port={secure.port} multi-prefix")
        heed(lab, "irc", "crawl", "--allow-private",
             "--insecure", key(plain), store=store,
             check=0)
        # STS: the plaintext connection stops after CAP LS; TLS crawls.
        assert "LIST" not in plain.commands()
        assert plain.connections == 1 and "CAP END" not in plain.received()
        assert secure.commands().count("LIST") == 1
        assert channels_of(export(lab, store), key(plain)) == PUBLIC
        # Without --insecure a self-signed certificate is refused.
        other = ScriptedServer(lab, "selfsigned.test", tls=True)
        code, out = heed(lab, "irc", "crawl", "--allow-private",
                         f"ircs://127.0.0.1:{other.port}",
                         store=store)
        assert code == 1 and "certificate" in out, out
        assert other.commands() == [], "spoke IRC over an unverified link"


def test_require_consent():
    with Lab() as lab:
        store = lab.path("heed.db")
        silent = ScriptedServer(lab, "silent.test", channels=CHANNELS)
        allow = ScriptedServer(lab, "allow.test", channels=CHANNELS,
                               isupport=["CRAWLER=index:allow"])
        _, out = heed(lab, "irc", "crawl", "--allow-private",
                      "--require-consent", key(silent),
                      key(allow), store=store, check=0)
        assert_not_crawled(silent)
        assert f"{key(silent)}: no-consent" in out
        assert allow.commands().count("LIST") == 1
        records = export(lab, store)
        assert channels_of(records, key(silent)) == {}
        assert channels_of(records, key(allow)) == PUBLIC


if __name__ == "__main__":
    run_checks([test_crawler_token_variants, test_cooldown_expires,
                test_list_troubles, test_sts_and_tls, test_require_consent])
