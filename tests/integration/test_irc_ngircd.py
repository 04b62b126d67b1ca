"""heed irc against real ngircd servers on loopback.

Two linked ngircd servers (so LINKS lists both), channels with topics made
by test clients on each, TLS with a self-signed certificate, and a server
whose MaxListSize truncates LIST. The stored public list must match what
the servers hold.
"""

import json
import time

from irclab import Client, Lab, NgircdServer, heed, link_ngircd, run_checks

TOPICS_A = {"#linux": "Linux talk | be nice", "#colon": "Topic with :colon"}
TOPICS_B = {"#bchan": "ünïcødé topic on B", "#music": "what are you playing"}


def wait_linked(client, servers, timeout=20):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        client.send("LINKS")
        seen = set()
        while True:
            line = client.wait_for(" 36")
            if " 365 " in line:
                break
            seen.add(line.split()[3])
        if seen >= servers:
            return
        time.sleep(0.5)
    raise TimeoutError(f"servers {servers} not linked")


def export(lab, store):
    _, out = heed(lab, "export", "--irc", store=store, check=0)
    return [json.loads(line) for line in out.splitlines() if line]


def test_linked_network_and_tls():
    with Lab() as lab:
        store = lab.path("heed.db")
        a, b = link_ngircd(lab, tls=True)
        ca, cb = Client(a.port, "alice"), Client(b.port, "bob")
        wait_linked(ca, {"a.ngircd.test", "b.ngircd.test"})
        for name, topic in TOPICS_A.items():
            ca.channel(name, topic)
        for name, topic in TOPICS_B.items():
            cb.channel(name, topic)
        ca.channel("&local", "a server-local channel")
        ca.start_ponging()
        cb.start_ponging()
        try:
            heed(lab, "irc", "crawl", "--allow-private",
                 f"127.0.0.1:{a.port}", store=store,
                 check=0)
            records = export(lab, store)
            key = f"127.0.0.1:{a.port}"
            servers = {r["name"]: r for r in records
                       if r["type"] == "irc_server"}
            assert set(servers) == {"a.ngircd.test", "b.ngircd.test"}
            assert servers["b.ngircd.test"]["hops"] == 1
            assert servers["b.ngircd.test"]["description"] == \
                "ngircd lab server b.ngircd.test"
            channels = {r["channel"]: (r["users"], r["topic"])
                        for r in records if r["type"] == "irc_channel"}
            want = {n: (1, t) for n, t in {**TOPICS_A, **TOPICS_B}.items()}
            assert channels == want, channels
            net = next(r for r in records if r["type"] == "irc_network")
            assert net["network"] == key and net["name"] == "NgLab"
            assert net["last_status"] == "complete"
            assert net["servers"] == 2

            # The same server over TLS: verified fails, --insecure works.
            code, out = heed(lab, "irc", "crawl", "--allow-private",
                             f"ircs://127.0.0.1:{a.tls_port}", store=store)
            assert code == 1 and "certificate" in out
            tls_store = lab.path("tls.db")
            heed(lab, "irc", "crawl", "--allow-private", "--insecure",
                 f"ircs://127.0.0.1:{a.tls_port}", store=tls_store, check=0)
            tls_channels = {r["channel"] for r in export(lab, tls_store)
                            if r["type"] == "irc_channel"}
            assert tls_channels == set(want)

            # check: reads the burst only and stores nothing.
            _, out = heed(lab, "irc", "check", "--allow-private",
                          f"127.0.0.1:{b.port}",
                          check=0)
            assert "network: NgLab, server b.ngircd.test" in out
            assert "CRAWLER: not advertised" in out
        finally:
            ca.close()
            cb.close()


def test_truncated_list_is_partial():
    with Lab() as lab:
        store = lab.path("heed.db")
        c = NgircdServer(lab, "c.ngircd.test", "Trunc", max_list=2).start()
        # The client holds the nick heed wants: heed must pick another.
        client = Client(c.port, "heed")
        for i in range(4):
            client.channel(f"#chan{i}", f"topic {i}")
        client.start_ponging()
        try:
            _, out = heed(lab, "irc", "crawl", "--allow-private",
                          f"127.0.0.1:{c.port}",
                          store=store, check=0)
            assert "partial: LIST truncated by the server after 2" in out
            records = export(lab, store)
            channels = [r for r in records if r["type"] == "irc_channel"]
            assert len(channels) == 2, channels
            net = next(r for r in records if r["type"] == "irc_network")
            assert net["last_status"] == "partial"
        finally:
            client.close()


def test_kline_is_a_ban():
    with Lab() as lab:
        store = lab.path("heed.db")
        k = NgircdServer(lab, "k.ngircd.test", "KLab", operator=True).start()
        oper = Client(k.port, "opy")
        oper.send("OPER oper operpass")
        oper.wait_for(" 381 ")
        oper.send("KLINE *!*@127.0.0.1 300 :lab kline")
        oper.wait_for("K-Line")
        t0 = time.time()
        code, out = heed(lab, "irc", "crawl", "--allow-private",
                         f"127.0.0.1:{k.port}",
                         store=store)
        assert code == 1
        assert f"127.0.0.1:{k.port}: banned: " in out and "K-Line" in out
        net = next(r for r in export(lab, store)
                   if r["type"] == "irc_network")
        assert net["last_status"] == "banned"
        # Backs off for days, and a second run does not knock again.
        assert net["next_visit"] - t0 > 6 * 86400
        _, out = heed(lab, "irc", "crawl", "--allow-private",
                      f"127.0.0.1:{k.port}",
                      store=store, check=0)
        assert "skipped: in cooldown" in out


if __name__ == "__main__":
    run_checks([test_linked_network_and_tls, test_truncated_list_is_partial,
                test_kline_is_a_ban])
