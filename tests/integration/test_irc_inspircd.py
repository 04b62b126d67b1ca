"""heed irc against real InspIRCd 3 servers on loopback.

A test-only module (m_crawlerpref.cpp, built here against inspircd-dev)
makes InspIRCd advertise CRAWLER, so heed reads the token from a real
server: a network that denies is left at once and nothing of it is stored;
one that allows is crawled. <securelist> refuses the first LIST with a
NOTICE and an empty 321/323: heed must wait the delay InspIRCd names and
list again, never store "0 channels". <options modesinlist> prefixes topics
with "[+nt] ", which heed strips; BOT=B makes heed set user mode +B.
"""

import json
import os
import subprocess

from irclab import Client, InspircdServer, Lab, heed, run_checks

HERE = os.path.dirname(os.path.abspath(__file__))
TOPICS = {"#linux": "Linux talk | be nice", "#bchan": "ünïcødé and :colon"}


def build_module(lab):
    so = lab.path("m_crawlerpref.so")
    subprocess.run(["g++", "-std=c++11", "-fPIC", "-shared", "-O2",
                    "-fno-rtti", "-I/usr/include/inspircd", "-o", so,
                    os.path.join(HERE, "m_crawlerpref.cpp")],
                   check=True, timeout=240)
    return so


def export(lab, store):
    _, out = heed(lab, "export", "--irc", store=store, check=0)
    return [json.loads(line) for line in out.splitlines() if line]


def populated(server, nick):
    c = Client(server.port, nick)
    for name, topic in TOPICS.items():
        c.channel(name, topic)
    c.start_ponging()
    return c


def test_crawler_token_from_inspircd():
    with Lab() as lab:
        so = build_module(lab)
        deny = InspircdServer(
            lab, "deny.insp.test", "Insp Deny", modules=[so],
            extra='<module name="crawlerpref">'
                  '<crawlerpref value="index:deny,cooldown:7200">').start()
        allow = InspircdServer(
            lab, "allow.insp.test", "Insp Allow", modules=[so],
            extra='<module name="crawlerpref">'
                  '<crawlerpref value="index:allow,cooldown:60">'
                  '<module name="securelist">'
                  '<securelist waittime="20s" showmsg="yes">').start()
        clients = [populated(deny, "dana"), populated(allow, "alan")]
        store = lab.path("heed.db")
        try:
            _, out = heed(lab, "irc", "check", "--allow-private",
                          f"127.0.0.1:{deny.port}",
                          check=0)
            assert "CRAWLER: 'index:deny,cooldown:7200'" in out
            assert "heed will not index this network" in out
            _, out = heed(lab, "irc", "crawl", "--allow-private",
                          "--set", "log.level=3",
                          f"127.0.0.1:{deny.port}",
                          f"127.0.0.1:{allow.port}", store=store, check=0)
            # securelist refused the first LIST; heed waited and retried.
            assert "LIST refused: *** You cannot view the channel list" \
                in lab.last_stderr
            assert "retrying LIST in" in lab.last_stderr
            assert f"127.0.0.1:{deny.port}: denied" in out
            assert f"127.0.0.1:{allow.port}: complete" in out
            records = export(lab, store)
            got = {(r["network"], r["channel"]): (r["users"], r["topic"])
                   for r in records if r["type"] == "irc_channel"}
            key = f"127.0.0.1:{allow.port}"
            assert got == {(key, n): (1, t) for n, t in TOPICS.items()}, got
            nets = {r["network"]: r for r in records
                    if r["type"] == "irc_network"}
            assert nets[f"127.0.0.1:{deny.port}"]["crawler"] == "deny"
            assert nets[key]["crawler"] == "allow"
            assert nets[key]["cooldown"] == 60
            assert nets[key]["name"] == "Insp Allow"
        finally:
            for c in clients:
                c.close()


if __name__ == "__main__":
    run_checks([test_crawler_token_from_inspircd])
