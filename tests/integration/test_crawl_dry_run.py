"""`heed crawl --dry-run`, judged from the servers' log and the
store on disk: the sites are qualified for real (robots.txt, once per site,
one request per second per host at most: the only traffic), the output
lists each start URL with the rule that allows or refuses it, then the sources a crawl asks
for first (robots.txt's Sitemap lines, /sitemap.xml), a site that
is not qualified with its reason, and nothing is written: with no store
none is made, and a store that exists keeps every byte. One site per
address (127.0.0.141, .143, .144) and several name-based sites on one
address (127.0.0.142, told apart by the Host header); names come from the
test's own dnsmasq. For a site the store knows, its known URLs are listed
too, by due date, up to --limit; an owner's arrangement (heed sites) names
the exclude that refuses a URL, and a paused site is not contacted."""

import hashlib
import json
import os
import re
import tempfile

from heedtest import (Checks, Dnsmasq, ScriptedHttpServer, free_port_on,
                      run_heed)

HTML = {"Content-Type": "text/html"}
HOME = (b"<!doctype html><title>Home</title>"
        b'<a href="/p/1.html">1</a> <a href="/p/2.html">2</a>')
PAGE = b"<!doctype html><title>Page</title><p>page</p>"

ALONE = "127.0.0.141"   # a.test
SHARED = "127.0.0.142"  # b.test, c.test: no robots.txt (404)
BROKEN = "127.0.0.143"  # bad.test: robots.txt answers 503
DEAD = "127.0.0.144"    # dead.test: nothing listens
hosts = {"a.test": ALONE, "b.test": SHARED, "c.test": SHARED,
         "bad.test": BROKEN, "dead.test": DEAD}
port = free_port_on([ALONE, SHARED, BROKEN, DEAD])
tmp = tempfile.mkdtemp(prefix="heed-dry-")
absent = os.path.join(tmp, "absent.db")
store = os.path.join(tmp, "heed.db")
CONTACT = ["--contact-email", "ops@example.org"]
SETTINGS = ["--set", "net.connect_timeout_ms=1500",
            "--set", "net.total_timeout_ms=4000"]


def url(host, path="/"):
    return f"http://{host}:{port}{path}"


ROBOTS = (b"# the test's rules\n"
          b"User-agent: *\n"
          b"Disallow: /private\n"
          b"Allow: /private/ok\n"
          + f"Sitemap: {url('a.test', '/map.xml')}\n".encode())


SEEDS = [url("a.test"), url("a.test", "/private/x"),
         url("a.test", "/private/ok"), url("b.test"), url("c.test"),
         url("bad.test"), url("dead.test")]

servers = {
    ALONE: ScriptedHttpServer(ALONE, port, {
        "/robots.txt": ("status", 200, ROBOTS),
        "/": ("status", 200, HOME, HTML),
        "/p/1.html": ("status", 200, PAGE, HTML),
        "/p/2.html": ("status", 200, PAGE, HTML)}),
    SHARED: ScriptedHttpServer(SHARED, port, {}),
    BROKEN: ScriptedHttpServer(BROKEN, port, {
        "/robots.txt": ("status", 503, b"busy\n")}),
}


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


with Dnsmasq(hosts={h: [a] for h, a in hosts.items()}) as dns:
    def heed(db, *args, timeout=90):
        return run_heed("crawl", "--store", db, "--allow-private",
                        "--dns-server", dns.server, *CONTACT, *SETTINGS,
                        *args, timeout=timeout)

    dry = heed(absent, "--dry-run", *SEEDS)
    dry_log = [dict(r) for s in servers.values() for r in s.log()]
    dry_json = heed(absent, "--dry-run", "--json", url("a.test"),
                    url("a.test", "/private/x"), url("bad.test"))
    # A store that knows a.test: one real crawl, then a dry run with no
    # start URL (the known sites), which must leave the store as it was.
    first = heed(store, url("a.test"), timeout=120)
    before = digest(store)
    mark = max((r["t"] for s in servers.values() for r in s.log()),
               default=0)
    known = heed(store, "--dry-run", "--limit", "4")
    # An owner's arrangement: c.test paused (not contacted, even for
    # robots.txt), b.test's /drafts excluded.
    arranged = os.path.join(tmp, "arranged.db")
    sets = [run_heed("sites", "set", "c.test", "--mode", "paused",
                     "--store", arranged),
            run_heed("sites", "set", "b.test", "--exclude", "/drafts",
                     "--store", arranged)]
    mark = max(r["t"] for s in servers.values() for r in s.log())
    paused = heed(arranged, "--dry-run", url("b.test"),
                  url("b.test", "/drafts/1"), url("c.test"))
    paused_log = [r for s in servers.values() for r in s.log()
                  if r["t"] > mark]
    known_log = [r for s in servers.values() for r in s.log()
                 if r["t"] > mark]
    after = digest(store)
for s in servers.values():
    s.close()


def site_block(out, host):
    """The lines of host's site in the text output."""
    lines, inside = [], False
    for line in out.splitlines():
        if not line.startswith(" "):
            inside = line.startswith(url(host)[:-1] + ":")
        if inside:
            lines.append(line)
    return "\n".join(lines)


def check_exit_and_no_store():
    assert dry.returncode == 0, (dry.returncode, dry.stdout, dry.stderr)
    assert not os.path.exists(absent), os.listdir(tmp)


def check_only_robots_txt_requested():
    paths = sorted({r["path"] for r in dry_log})
    assert paths == ["/robots.txt"], dry_log


def check_one_robots_request_per_site():
    per_host = {}
    for r in dry_log:
        per_host.setdefault(r["host"].split(":")[0], []).append(r)
    assert sorted(per_host) == ["a.test", "b.test", "bad.test", "c.test"], \
        per_host.keys()
    for host, rows in per_host.items():
        assert len(rows) == 1 or host == "bad.test", (host, rows)


def check_one_request_per_second_per_address():
    for addr in (ALONE, SHARED, BROKEN):
        times = sorted(r["t"] for r in dry_log if r["address"] == addr)
        gaps = [b - a for a, b in zip(times, times[1:])]
        # b.test and c.test are two sites on one address but two host
        # names: the budget is per host, so only a repeat must wait, and
        # it waits the whole delay (arrival is the kernel's stamp).
        if addr != SHARED:
            assert all(g >= 1.0 for g in gaps), (addr, gaps)


def check_allowed_start_pages_name_their_rule():
    a = site_block(dry.stdout, "a.test")
    assert "qualified" in a.splitlines()[0], a
    assert (f"would   {url('a.test')}\n"
            "    no robots.txt rule matches: allowed") in a, a
    assert (f"would   {url('a.test', '/private/ok')}\n"
            "    allowed by robots.txt line 4 `Allow: /private/ok`") in a, a
    b = site_block(dry.stdout, "b.test")
    assert f"would   {url('b.test')}\n    no robots.txt rules" in b, b
    assert "qualified" in site_block(dry.stdout, "c.test"), dry.stdout


def check_disallowed_start_url_names_its_rule():
    a = site_block(dry.stdout, "a.test")
    assert (f"never   {url('a.test', '/private/x')}\n"
            "    refused by robots.txt line 3 `Disallow: /private`") in a, a


def check_sources_listed_with_where_they_come_from():
    a = site_block(dry.stdout, "a.test")
    assert (f"source  {url('a.test', '/map.xml')}  (robots.txt line 5 "
            "Sitemap)\n    no robots.txt rule matches: allowed") in a, a
    assert (f"source  {url('a.test', '/sitemap.xml')}  (the usual "
            "place)") in a, a


def check_unqualified_sites_give_their_reason():
    bad = site_block(dry.stdout, "bad.test")
    assert bad.startswith(url("bad.test")[:-1] + ": not qualified"), bad
    assert "503" in bad, bad
    dead = site_block(dry.stdout, "dead.test")
    assert dead.startswith(url("dead.test")[:-1] + ": not qualified"), dead
    assert "would" not in bad + dead, (bad, dead)


def check_json():
    assert dry_json.returncode == 0, dry_json.stderr
    sites = {s["site"]: s for s in json.loads(dry_json.stdout)}
    a = sites[url("a.test")[:-1]]
    assert a["qualified"] is True and a["contacted"] is True, a
    urls = {u["url"]: u for u in a["urls"]}
    assert urls[url("a.test")]["allowed"] is True, urls
    assert urls[url("a.test", "/private/x")]["allowed"] is False, urls
    assert "line 3" in urls[url("a.test", "/private/x")]["rule"], urls
    bad = sites[url("bad.test")[:-1]]
    assert bad["qualified"] is False and "urls" not in bad, bad


def check_known_sites_listed_and_store_unchanged():
    assert first.returncode == 0, (first.stdout, first.stderr)
    assert known.returncode == 0, (known.stdout, known.stderr)
    a = site_block(known.stdout, "a.test")
    # --limit 4: the start URL, the two sources, then one known URL with
    # its due date (the sources are not listed again as known URLs)
    assert a.count("\n  would ") == 1 and a.count("\n  source ") == 2 \
        and a.count("\n  known ") == 1, a
    assert re.search(r"  known   \S+  (page|sitemap|feed), due ", a), a
    assert before == after, "the dry run changed the store"
    assert all(r["path"] == "/robots.txt" for r in known_log), known_log


def check_arrangements():
    assert [p.returncode for p in sets] == [0, 0], sets
    assert paused.returncode == 0, (paused.stdout, paused.stderr)
    b = site_block(paused.stdout, "b.test")
    assert (f"never   {url('b.test', '/drafts/1')}\n"
            "    refused by the arrangement's exclude `/drafts`") in b, b
    c = site_block(paused.stdout, "c.test")
    assert "not qualified" in c and "paused" in c, c
    assert "[not contacted]" in c, c
    assert [(r["host"].split(":")[0], r["path"]) for r in paused_log] == \
        [("b.test", "/robots.txt")], paused_log


Checks().main([check_exit_and_no_store, check_only_robots_txt_requested,
               check_one_robots_request_per_site,
               check_one_request_per_second_per_address,
               check_allowed_start_pages_name_their_rule,
               check_disallowed_start_url_names_its_rule,
               check_sources_listed_with_where_they_come_from,
               check_unqualified_sites_give_their_reason, check_json,
               check_known_sites_listed_and_store_unchanged,
               check_arrangements])
