"""No request to this host or its network unless the operator says so
(docs/security.md, "No request to private addresses by default
(SSRF)"), for the web: `heed crawl` and `heed site qualify`.
(IRC has its own tests; `heed robots`, `extract` and `verify` read files
and DNS, they fetch nothing.)

A dnsmasq of the test's answers public-looking names (*.example.com) with
private, loopback, link-local, IPv4-mapped and unspecified addresses, and
scripted HTTP servers listen where those addresses lead on this host: the
"traps" on 127.0.0.1 and ::1. Every check is judged from what the servers
received (their access logs), from dnsmasq's query log and from heed's
exit status and messages:

1. With default settings, a name is refused AFTER resolution: dnsmasq was
   asked for it, and no trap received anything. Literal addresses in every
   spelling (127.1, 2130706433, 0x7f.0.0.1, [::ffff:7f00:1]) too.
2. Each redirect hop is checked again. A first hop must be allowed to
   test this, and on a loopback-only network that needs --allow-private;
   what heed refuses even then are the "reserved" addresses, among them
   the unspecified 0.0.0.0 and ::, which Linux connects to this very host
   (check_unspecified_addresses_reach_this_host shows it on the machine
   under test). So with --allow-private, a robots.txt redirected to a name
   that resolves to 0.0.0.0, ::, or ::ffff:0.0.0.0 (or to those literals),
   and pages redirected to a site of the run that resolves to one, must
   leave the traps untouched, while the first hop was served and a
   redirect to an allowed site of the run is followed (the control).
3. The address connected is the address checked: a name is looked up once
   per run (TTL 0, so any second look-up would reach dnsmasq), and when
   dnsmasq starts answering another address mid-crawl (DNS rebinding),
   every request still goes to the first one.
4. A name answering refused and allowed addresses is crawled at the
   allowed one only.
5. No proxy from the environment: every crawl here runs with http_proxy,
   https_proxy and ALL_PROXY pointing at a trap.
6. A sitemap's XML external entities (a general one naming a loopback
   URL and a local file, a parameter one naming a DTD on loopback) are
   neither fetched nor read: `heed extract`, which reads sitemaps as the
   crawl does.
The control: with --allow-private the same loopback names ARE crawled,
so the refusals above are the policy's and not a broken setup.
"""

import json
import os
import signal
import socket
import subprocess
import tempfile
import time
import urllib.parse

from heedtest import (HEED, Checks, Dnsmasq, ScriptedHttpServer, free_port_on,
                      run_heed)

CONTACT = ["--contact-email", "ops@example.org"]
FAIL = 1
TRAP4, TRAP6 = "127.0.0.1", "::1"
# Where the allowed sites live (with --allow-private).
WWW, SHOP, MIXED, REBIND, REBOUND = ("127.0.0.86", "127.0.0.87",
                                     "127.0.0.90", "127.0.0.88", "127.0.0.89")
ROBOTS_SITES = {f"ra{i}.example.com": f"127.0.0.{80 + i}" for i in range(1, 6)}

# Refused with default settings. Nothing listens on the private and
# link-local ones (a loopback-only test cannot own them): there the proof
# is that heed made no request at all ("0 requests").
REFUSED = {
    "loop4.example.com": ["127.0.0.1"],
    "loop4b.example.com": ["127.5.6.7"],
    "loop6.example.com": ["::1"],
    "mapped.example.com": ["::ffff:127.0.0.1"],
    "mapped10.example.com": ["::ffff:10.255.255.1"],
    "ten.example.com": ["10.255.255.1"],
    "172.example.com": ["172.31.255.1"],
    "192.example.com": ["192.168.255.1"],
    "cgnat.example.com": ["100.127.255.1"],
    "ll4.example.com": ["169.254.255.1"],
    "ula.example.com": ["fc00::1", "fdff::1"],
    "ll6.example.com": ["fe80::1"],
    "sitelocal.example.com": ["fec0::1"],
    "nat64.example.com": ["64:ff9b::7f00:1"],
    "6to4.example.com": ["2002:7f00:1::1"],
    "zero4.example.com": ["0.0.0.0"],
    "zero6.example.com": ["::"],
    "zeromapped.example.com": ["::ffff:0.0.0.0"],
    "all.example.com": ["127.0.0.1", "::1", "10.255.255.1", "fe80::1"],
}
HOSTS = dict(REFUSED)
HOSTS.update({name: [a] for name, a in ROBOTS_SITES.items()})
HOSTS.update({"www.example.com": [WWW], "shop.example.com": [SHOP],
              "mixed.example.com": [MIXED, "0.0.0.0", "::"],
              "rebind.example.com": [REBIND]})

PORT = free_port_on([TRAP4, TRAP6, WWW, SHOP, MIXED, REBIND, REBOUND,
                     *ROBOTS_SITES.values()])


def url(host, path="/"):
    return f"http://{host}:{PORT}{path}"


LITERALS = [url("127.0.0.1"), url("[::1]"), url("[::ffff:127.0.0.1]"),
            url("[::ffff:7f00:1]"), url("127.1"), url("2130706433"),
            url("0x7f.0.0.1"), url("0177.0.0.1"), url("0.0.0.0"),
            url("[::]"), url("[::ffff:0.0.0.0]"), url("localhost"),
            url("localhost.")]

# Robots.txt redirects: the first hop (raN) is allowed with
# --allow-private, the target is reserved and reaches a trap if connected.
ROBOTS_TARGETS = {
    "ra1.example.com": url("zero4.example.com", "/robots.txt"),
    "ra2.example.com": url("zero6.example.com", "/robots.txt"),
    "ra3.example.com": url("0.0.0.0", "/robots.txt"),
    "ra4.example.com": url("[::]", "/robots.txt"),
    "ra5.example.com": url("zeromapped.example.com", "/robots.txt"),
}

HOME = (b'<!doctype html><title>www</title><a href="/r1">1</a>'
        b'<a href="/r2">2</a><a href="/r3">3</a><a href="/r4">4</a>')
PAGE = b"<!doctype html><title>page</title>"
HTML = {"Content-Type": "text/html"}


def home_with_links(n):
    links = "".join(f'<a href="/p{i}">{i}</a>' for i in range(n))
    return ("status", 200, f"<!doctype html><title>home</title>{links}"
            .encode(), HTML)


def site_script(extra):
    script = {"/robots.txt": ("status", 200, b"User-agent: *\nAllow: /\n")}
    script.update(extra)
    return script


def start_servers():
    s = {"trap4": ScriptedHttpServer(TRAP4, PORT, {}),
         "trap6": ScriptedHttpServer(TRAP6, PORT, {})}
    for name, addr in ROBOTS_SITES.items():
        s[name] = ScriptedHttpServer(addr, PORT, {
            "/robots.txt": ("redirect", 301, ROBOTS_TARGETS[name])})
    # Pages redirected to: a site of the run resolving to 0.0.0.0 (r1),
    # an allowed site of the run (r2, the control), literals (r3, r4).
    # Its robots.txt names sitemaps at reserved addresses.
    s["www"] = ScriptedHttpServer(WWW, PORT, site_script({
        "/robots.txt": ("status", 200, (
            "User-agent: *\nAllow: /\n"
            f"Sitemap: {url('[::]', '/sitemap.xml')}\n"
            f"Sitemap: {url('zero4.example.com', '/sitemap.xml')}\n"
        ).encode()),
        "/": ("status", 200, HOME, HTML),
        "/r1": ("redirect", 302, url("zero4.example.com", "/from-www")),
        "/r2": ("redirect", 302, url("shop.example.com", "/from-www")),
        "/r3": ("redirect", 302, url("0.0.0.0", "/from-www")),
        "/r4": ("redirect", 302, url("[::]", "/from-www"))}))
    s["shop"] = ScriptedHttpServer(SHOP, PORT, site_script({
        "/": ("status", 200, PAGE, HTML),
        "/from-www": ("status", 200, PAGE, HTML)}))
    s["mixed"] = ScriptedHttpServer(MIXED, PORT, site_script({
        "/": home_with_links(3),
        **{f"/p{i}": ("status", 200, PAGE, HTML) for i in range(3)}}))
    s["rebind"] = ScriptedHttpServer(REBIND, PORT, site_script({
        "/": home_with_links(4),
        **{f"/p{i}": ("status", 200, PAGE, HTML) for i in range(4)}}))
    s["rebound"] = ScriptedHttpServer(REBOUND, PORT, site_script({
        "/": home_with_links(4),
        **{f"/p{i}": ("status", 200, PAGE, HTML) for i in range(4)}}))
    return s


def raw_get(address, path):
    """One GET by hand, for the check that the OS routes an address here;
    True when a server answered."""
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_STREAM) as c:
            c.settimeout(3)
            c.connect((address, PORT))
            c.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            return c.recv(100).startswith(b"HTTP/1.1")
    except OSError:
        return False


def paths(server):
    return [e["path"] for e in server.log()]


def queries_of(queries, name):
    return [q for q in queries if q[1] == name]


def set_answers(dns, hosts):
    """Rewrites dnsmasq's hosts file (the Dnsmasq helper's addn-hosts) and
    makes dnsmasq read it again (SIGHUP also clears its cache)."""
    with open(os.path.join(dns.dir, "hosts"), "w") as f:
        for name, addrs in hosts.items():
            for a in addrs:
                f.write(f"{a} {name}\n")
    dns.proc.send_signal(signal.SIGHUP)


# A proxy from the environment would take every request to the trap,
# whatever the address policy says: heed uses none.
PROXY_ENV = dict(os.environ, http_proxy=url(TRAP4), https_proxy=url(TRAP4),
                 HTTPS_PROXY=url(TRAP4), ALL_PROXY=url(TRAP4),
                 all_proxy=url(TRAP4), no_proxy="", NO_PROXY="")


def crawl(db, *args, allow_private=False, timeout=120):
    extra = ["--allow-private"] if allow_private else []
    return run_heed("crawl", "--store", db, "--dns-server", dns.server,
                    *extra, *CONTACT, "--set", "net.connect_timeout_ms=2000",
                    *args, timeout=timeout, env=PROXY_ENV)


def rebinding_crawl(db):
    """A crawl of rebind.example.com during which dnsmasq starts answering
    REBOUND instead; returns (process, queries of the name before the
    switch, total queries of the name)."""
    proc = subprocess.Popen(
        [HEED, "crawl", "--store", db, "--dns-server", dns.server,
         "--allow-private", *CONTACT, url("rebind.example.com")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while not servers["rebind"].log() and time.monotonic() < deadline:
            time.sleep(0.02)
        # heed waits 1 s before its next request to the site: time for
        # dnsmasq's log to hold every query of the first look-up.
        time.sleep(0.3)
        before = len(queries_of(dns.queries(), "rebind.example.com"))
        hosts = dict(HOSTS)
        hosts["rebind.example.com"] = [REBOUND]
        set_answers(dns, hosts)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    proc.stdout, proc.stderr = out, err
    return proc, before, len(queries_of(dns.queries(), "rebind.example.com"))


tmp = tempfile.mkdtemp(prefix="heed-ssrf-")
servers = start_servers()
dns = Dnsmasq(hosts=HOSTS, local="example.com", ttl=0)
try:
    # Before heed runs: where 0.0.0.0 and :: lead on this machine.
    reach = {"0.0.0.0": raw_get("0.0.0.0", "/os-check"),
             "::": raw_get("::", "/os-check"),
             "::ffff:0.0.0.0": raw_get("::ffff:0.0.0.0", "/os-check")}
    trap_before = {k: len(servers[k].log()) for k in ("trap4", "trap6")}

    by_name = crawl(os.path.join(tmp, "names.db"),
                    *[url(n) for n in REFUSED])
    by_literal = crawl(os.path.join(tmp, "literals.db"), *LITERALS)
    qualify = run_heed("site", "qualify", "--store",
                       os.path.join(tmp, "qualify.db"), "--dns-server",
                       dns.server, "--contact-url", "https://heed.test/bot",
                       url("loop4.example.com"), url("mapped.example.com"),
                       url("zero6.example.com"))
    qualify_report = run_heed("site", "report", "--store",
                              os.path.join(tmp, "qualify.db"), "--json",
                              "loop4.example.com")
    traps_after_default = {k: paths(servers[k]) for k in ("trap4", "trap6")}

    redirects = crawl(os.path.join(tmp, "redirects.db"),
                      url("www.example.com"), url("shop.example.com"),
                      url("zero4.example.com"), url("mixed.example.com"),
                      *[url(n) for n in ROBOTS_SITES], allow_private=True)
    robots_sites_after_crawl = {n: paths(servers[n]) for n in ROBOTS_SITES}
    qualify_redirect = run_heed(
        "site", "qualify", "--store", os.path.join(tmp, "q2.db"),
        "--dns-server", dns.server, "--allow-private", "--contact-url",
        "https://heed.test/bot", url("ra1.example.com"),
        url("ra4.example.com"))
    traps_after_redirects = {k: paths(servers[k])
                             for k in ("trap4", "trap6")}

    rebinding, queries_before_switch, queries_total = rebinding_crawl(
        os.path.join(tmp, "rebind.db"))
    rebound_answer = run_heed("dns", "--dns-server", dns.server,
                              "rebind.example.com")

    secret = os.path.join(tmp, "secret.txt")
    with open(secret, "w") as f:
        f.write("SECRET-0123456789")
    sitemap = os.path.join(tmp, "xxe.xml")
    with open(sitemap, "w") as f:
        f.write(f"""<?xml version="1.0"?>
<!DOCTYPE urlset [
<!ENTITY file SYSTEM "file://{secret}">
<!ENTITY net SYSTEM "{url(TRAP4, '/xxe-entity')}">
<!ENTITY % dtd SYSTEM "{url(TRAP4, '/xxe-dtd')}"> %dtd;]>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>http://a.example.com/&file;</loc></url>
<url><loc>http://a.example.com/n&net;</loc></url></urlset>
""")
    xxe = run_heed("extract", "--url", "http://a.example.com/sitemap.xml",
                   "--feed", sitemap)
    traps_after_xxe = {k: paths(servers[k]) for k in ("trap4", "trap6")}

    # The control, last: the traps are allowed targets now.
    control = crawl(os.path.join(tmp, "control.db"),
                    url("loop4.example.com"), url("loop6.example.com"),
                    url("mapped.example.com"), allow_private=True)
    traps_after_control = {k: paths(servers[k]) for k in ("trap4", "trap6")}
    asked = dns.queries()
finally:
    dns.close()
    for srv in servers.values():
        srv.close()

OS_CHECK = ["/os-check"]


def heed_requests(trap_paths):
    return [p for p in trap_paths if p not in OS_CHECK]


def check_unspecified_addresses_reach_this_host():
    # Why 0.0.0.0 and :: matter: on Linux a connection to them lands on
    # this host's loopback servers. If this fails the OS differs, and the
    # trap checks below prove less (the refusal messages still hold).
    assert reach == {"0.0.0.0": True, "::": True, "::ffff:0.0.0.0": True}, \
        reach
    assert trap_before["trap4"] >= 2 and trap_before["trap6"] >= 1, \
        trap_before


def check_names_refused_after_resolution_by_default():
    assert by_name.returncode == FAIL, (by_name.returncode, by_name.stderr)
    for name in REFUSED:
        # Asked of dnsmasq: refused for its addresses, not for its name.
        assert queries_of(asked, name), (name, asked)
        assert (f"refused by heed's address policy: {name} resolves only "
                "to refused addresses (") in by_name.stderr, \
            (name, by_name.stderr)
    assert "; 0 requests in" in by_name.stdout, by_name.stdout
    # Nothing was tried and failed: it was never tried.
    assert "Connection refused" not in by_name.stderr, by_name.stderr


def check_literal_addresses_refused_by_default():
    assert by_literal.returncode == FAIL, (by_literal.returncode,
                                           by_literal.stderr)
    assert "; 0 requests in" in by_literal.stdout, by_literal.stdout
    assert "refused by heed's address policy: " in by_literal.stderr, \
        by_literal.stderr
    assert "--allow-private allows it" in by_literal.stderr, \
        by_literal.stderr


def assert_traps_untouched(snapshot):
    for trap, got in snapshot.items():
        assert not heed_requests(got), (trap, got)


def check_traps_untouched_by_default():
    assert_traps_untouched(traps_after_default)


def check_site_qualify_refuses_and_stores_nothing():
    assert qualify.returncode == FAIL, (qualify.returncode, qualify.stdout,
                                        qualify.stderr)
    for name in ("loop4", "mapped", "zero6"):
        assert f"{name}.example.com:{PORT}: unknown (not contacted" in \
            qualify.stdout, (name, qualify.stdout)
    # heed's own refusal is not the site's failure: nothing is stored.
    assert json.loads(qualify_report.stdout or "[]") == [], \
        qualify_report.stdout


def check_robots_redirect_hop_checked_again():
    for name, target in ROBOTS_TARGETS.items():
        # The first hop was allowed and served, once; nothing after it.
        got = robots_sites_after_crawl[name]
        assert got == ["/robots.txt"], (name, got)
        # Refused for the target's addresses, named in the message.
        host = urllib.parse.urlsplit(target).hostname
        assert (f"{name}:{PORT}: not contacted: refused by heed's address "
                f"policy: {host} ") in redirects.stderr, \
            (name, redirects.stderr)
    for name in ("zero4.example.com", "zero6.example.com",
                 "zeromapped.example.com"):
        assert queries_of(asked, name), name


def check_page_redirect_hops_checked_again():
    # The control: a redirect to another site of the run is followed...
    assert "/from-www" in paths(servers["shop"]), paths(servers["shop"])
    assert {"/r1", "/r2", "/r3", "/r4"} <= set(paths(servers["www"])), \
        paths(servers["www"])
    # ...but not to one whose address is refused, nor to literals.
    assert f"zero4.example.com:{PORT}: not contacted" in redirects.stderr, \
        redirects.stderr


def check_mixed_answers_use_the_allowed_address_only():
    got = paths(servers["mixed"])
    assert {"/robots.txt", "/", "/p0", "/p1", "/p2"} <= set(got), got


def check_traps_untouched_by_redirects_and_mixed_answers():
    assert_traps_untouched(traps_after_redirects)


def check_site_qualify_checks_robots_redirects():
    # The qualify run asked ra1 again (nothing was stored by the crawl).
    assert paths(servers["ra1.example.com"]) == ["/robots.txt"] * 2, \
        paths(servers["ra1.example.com"])
    assert f"ra1.example.com:{PORT}: unknown (not contacted" in \
        qualify_redirect.stdout, qualify_redirect.stdout
    assert f"ra4.example.com:{PORT}: unknown (not contacted" in \
        qualify_redirect.stdout, qualify_redirect.stdout


def check_one_lookup_and_the_address_stays_pinned():
    assert rebinding.returncode == 0, (rebinding.returncode,
                                       rebinding.stderr)
    got = paths(servers["rebind"])
    assert {"/robots.txt", "/", "/p0", "/p1", "/p2", "/p3"} <= set(got), got
    # No look-up once the first request had gone: dnsmasq answers with
    # TTL 0, so a second one would have reached it.
    assert queries_total == queries_before_switch > 0, (
        queries_before_switch, queries_total)
    # dnsmasq did answer the new address, and heed never went there.
    assert REBOUND in rebound_answer.stdout, rebound_answer.stdout
    assert paths(servers["rebound"]) == [], paths(servers["rebound"])


def check_sitemap_external_entities_neither_fetched_nor_read():
    assert xxe.returncode == 0, (xxe.returncode, xxe.stderr)
    urls = [e["url"] for e in json.loads(xxe.stdout)["entries"]]
    assert urls == ["http://a.example.com/", "http://a.example.com/n"], urls
    assert "SECRET" not in xxe.stdout, xxe.stdout
    assert not [p for p in heed_requests(traps_after_xxe["trap4"])
                if p.startswith("/xxe")], traps_after_xxe


def check_control_allow_private_reaches_the_traps():
    # The same names, allowed: the refusals above were the policy's.
    assert control.returncode == 0, (control.returncode, control.stderr)
    t4 = heed_requests(traps_after_control["trap4"])
    t6 = heed_requests(traps_after_control["trap6"])
    assert "/robots.txt" in t4 and "/robots.txt" in t6, (t4, t6)


Checks().main([
    check_unspecified_addresses_reach_this_host,
    check_names_refused_after_resolution_by_default,
    check_literal_addresses_refused_by_default,
    check_traps_untouched_by_default,
    check_site_qualify_refuses_and_stores_nothing,
    check_robots_redirect_hop_checked_again,
    check_page_redirect_hops_checked_again,
    check_mixed_answers_use_the_allowed_address_only,
    check_traps_untouched_by_redirects_and_mixed_answers,
    check_site_qualify_checks_robots_redirects,
    check_one_lookup_and_the_address_stays_pinned,
    check_sitemap_external_entities_neither_fetched_nor_read,
    check_control_allow_private_reaches_the_traps,
])
