"""`heed verify` and `heed page` against a real dnsmasq on loopback.

Forward-confirmed reverse DNS as the operator's page describes it: a
matching pair, a look-alike domain, a forward answer without the address,
several PTR records, CNAMEs, IPv6, NXDOMAIN at each step, SERVFAIL, a server
that never answers (bounded time), published ranges as a second proof, and
the settings. dnsmasq's own query log is the witness of what was asked."""

import html.parser
import json
import os
import shutil
import subprocess
import tempfile
import time

from heedtest import (Checks, Dnsmasq, RcodeDnsServer, SilentUdpServer,
                      sanitizer_flags,
                      run_heed, run_heed_json)

DOMAIN = "crawler.test"
HOSTS = {
    "crawl-21.crawler.test": ["127.0.0.21"],
    "crawl-24.crawler.test": ["127.0.0.24"],
    "liar.crawler.test": ["127.0.0.99"],
    "real.crawler.test": ["127.0.0.26"],
    "crawl-v6.crawler.test": ["2001:db8::7"],
    "evil-crawler.test": ["127.0.0.22"],
    "dual.crawler.test": ["127.0.0.28", "2001:db8::28"],
}
PTRS = {
    "127.0.0.23": ["liar.crawler.test"],
    "127.0.0.24": ["evil-crawler.test", "liar.crawler.test",
                   "crawl-24.crawler.test"],
    "127.0.0.25": ["gone.crawler.test"],
    "127.0.0.26": ["alias.crawler.test"],
    "127.0.0.27": ["evil-crawler.test", "liar.crawler.test"],
}
CNAMES = {"alias.crawler.test": "real.crawler.test"}
# Unknown reverse names are NXDOMAIN, not forwarded anywhere.
LOCAL_REVERSE = ["--local=/in-addr.arpa/", "--local=/ip6.arpa/"]


def zone(**kw):
    return Dnsmasq(hosts=HOSTS, ptrs=PTRS, cnames=CNAMES,
                   extra_args=LOCAL_REVERSE, **kw)


def verify(dns, *args, check=None):
    return run_heed_json("verify", "--dns-server", dns.server, "--domain",
                         DOMAIN, "--json", *args, check=check)[1]


def matching_pair_verifies_with_both_steps_shown():
    with zone() as dns:
        proc = run_heed("verify", "--dns-server", dns.server, "--domain",
                        DOMAIN, "127.0.0.21", check=0)
        out = proc.stdout
        assert out.startswith("127.0.0.21: verified"), out
        assert ("21.0.0.127.in-addr.arpa domain name pointer "
                "crawl-21.crawler.test") in out, out
        assert ("crawl-21.crawler.test has IPv4 address 127.0.0.21"
                in out), out
        asked = dns.queries()
        assert ("PTR", "21.0.0.127.in-addr.arpa") in asked, asked
        # The forward family matches the address: A, never AAAA.
        assert ("A", "crawl-21.crawler.test") in asked, asked
        assert ("AAAA", "crawl-21.crawler.test") not in asked, asked


def look_alike_domain_is_not_verified_nor_looked_up():
    with zone() as dns:
        out = verify(dns, "127.0.0.22", check=1)[0]
        d = out["reverse_dns"]
        assert not out["verified"]
        assert d["reason"] == "no PTR name under the operator's domains", d
        assert d["step"] == "reverse", d
        assert d["names"][0]["name"] == "evil-crawler.test", d
        assert d["names"][0]["domain"] is None, d
        assert ("A", "evil-crawler.test") not in dns.queries()


def forward_answer_without_the_address_is_not_verified():
    with zone() as dns:
        out = verify(dns, "127.0.0.23", check=1)[0]
        d = out["reverse_dns"]
        assert d["reason"] == "forward lookup does not give the address " \
                              "back", d
        assert d["step"] == "forward", d
        fwd = d["names"][0]
        assert fwd["addresses"] == [{"address": "127.0.0.99", "ttl": 300}]
        assert fwd["has_address"] is False


def one_of_several_ptr_records_verifies():
    with zone() as dns:
        out = verify(dns, "127.0.0.24", check=0)[0]
        d = out["reverse_dns"]
        assert d["verified_name"] == "crawl-24.crawler.test", d
        names = {n["name"]: n for n in d["names"]}
        assert set(names) == {"evil-crawler.test", "liar.crawler.test",
                              "crawl-24.crawler.test"}, names
        assert names["evil-crawler.test"]["looked_up"] is False
        assert names["liar.crawler.test"]["has_address"] is False
        assert names["crawl-24.crawler.test"]["has_address"] is True
        asked = dns.queries()
        assert ("A", "liar.crawler.test") in asked, asked
        assert ("A", "crawl-24.crawler.test") in asked, asked


def several_ptr_records_none_verifies():
    with zone() as dns:
        out = verify(dns, "127.0.0.27", check=1)[0]
        assert out["reverse_dns"]["reason"].startswith("forward lookup "
                                                       "does not"), out


def cname_chain_is_followed():
    with zone() as dns:
        proc = run_heed("verify", "--dns-server", dns.server, "--domain",
                        DOMAIN, "127.0.0.26", check=0)
        assert ("alias.crawler.test is an alias for real.crawler.test"
                in proc.stdout), proc.stdout
        assert ("real.crawler.test has IPv4 address 127.0.0.26"
                in proc.stdout), proc.stdout


def ipv6_uses_aaaa():
    with zone() as dns:
        out = verify(dns, "2001:db8::7", "2001:db8::28", check=0)
        assert all(o["verified"] for o in out), out
        asked = dns.queries()
        assert ("AAAA", "crawl-v6.crawler.test") in asked, asked
        assert ("A", "crawl-v6.crawler.test") not in asked, asked
        assert out[1]["reverse_dns"]["names"][0]["addresses"] == [
            {"address": "2001:db8::28", "ttl": 300}], out[1]


def ipv4_mapped_address_is_checked_as_ipv4():
    with zone() as dns:
        out = verify(dns, "::ffff:127.0.0.21", check=0)[0]
        assert out["reverse_dns"]["reverse_name"] == \
            "21.0.0.127.in-addr.arpa", out


def nxdomain_at_each_step_is_reported():
    with zone() as dns:
        proc = run_heed("verify", "--dns-server", dns.server, "--domain",
                        DOMAIN, "127.0.0.77", "127.0.0.25", check=1)
        out = proc.stdout
        assert ("127.0.0.77: not verified: no PTR record (step 1, "
                "reverse: NXDOMAIN)") in out, out
        assert ("127.0.0.25: not verified: forward lookup failed (step 2, "
                "forward: NXDOMAIN)") in out, out
        assert "gone.crawler.test: NXDOMAIN" in out, out


def servfail_is_reported_as_such():
    with RcodeDnsServer(rcode=2) as server:
        proc = run_heed("verify", "--dns-server", server.server, "--domain",
                        DOMAIN, "127.0.0.21", check=1, timeout=60)
        assert ("not verified: PTR lookup failed (step 1, reverse: "
                "SERVFAIL)") in proc.stdout, proc.stdout
        assert server.queries >= 1


def silent_server_times_out_in_bounded_time():
    with SilentUdpServer() as silent:
        start = time.monotonic()
        proc = run_heed("verify", "--dns-server", silent.server, "--domain",
                        DOMAIN, "127.0.0.21", "127.0.0.22", check=1,
                        timeout=60)
        took = time.monotonic() - start
        assert proc.stdout.count("(step 1, reverse: timeout)") == 2, \
            proc.stdout
        # Both checks run at once: 2 tries x 2 s, with slack.
        assert took < 30, took


def same_address_is_looked_up_once():
    with zone() as dns:
        out = verify(dns, "127.0.0.21", "127.0.0.21", "::ffff:127.0.0.21",
                     check=0)
        assert [o["address"] for o in out] == [
            "127.0.0.21", "127.0.0.21", "::ffff:127.0.0.21"], out
        ptrs = [q for q in dns.queries() if q[0] == "PTR"]
        assert ptrs == [("PTR", "21.0.0.127.in-addr.arpa")], ptrs


def results_are_cached_for_their_ttl():
    # 32 checks run at once; the 33rd address comes after them and is
    # answered from the cache, for the forward record's TTL.
    others = [f"127.0.1.{i}" for i in range(31)]
    with zone() as dns:
        out = verify(dns, "127.0.0.21", *others, "127.0.0.21", check=1)
        first, last = out[0]["reverse_dns"], out[-1]["reverse_dns"]
        assert first["cache_ttl"] == 300 and not first["from_cache"], first
        assert last["from_cache"] and last["verified"], last
        assert out[1]["reverse_dns"]["cache_ttl"] == 3600, out[1]
        ptrs = [q for q in dns.queries() if q == ("PTR",
                                                  "21.0.0.127.in-addr.arpa")]
        assert len(ptrs) == 1, ptrs
    with SilentUdpServer() as silent:
        out = run_heed_json("verify", "--dns-server", silent.server,
                            "--domain", DOMAIN, "--json", "127.0.0.21",
                            check=1, timeout=60)[1][0]
        assert out["reverse_dns"]["cache_ttl"] == 60, out


def api_example_with_its_own_poll_loop():
    """docs/api/examples/verify_poll.c compiles against the built libheed
    and verifies through a caller-driven poll() loop."""
    src = os.environ["HEED_SOURCE_ROOT"]
    build = os.environ["HEED_BUILD_ROOT"]
    tmp = tempfile.mkdtemp(prefix="heed-example-")
    try:
        exe = os.path.join(tmp, "verify_poll")
        subprocess.run(["cc", "-std=c17", "-Wall", "-Wextra", "-Werror",
                        "-D_GNU_SOURCE", "-I", os.path.join(src, "include"),
                        os.path.join(src, "docs/api/examples/verify_poll.c"),
                        "-o", exe, "-L", build, "-lheed",
                        f"-Wl,-rpath,{build}", *sanitizer_flags()],
                       check=True, timeout=120)
        with zone() as dns:
            proc = subprocess.run([exe, dns.server, DOMAIN, "127.0.0.21",
                                   "2001:db8::7", "127.0.0.22"],
                                  capture_output=True, text=True,
                                  timeout=60)
            lines = sorted(proc.stdout.splitlines())
            assert proc.returncode == 1, proc
            assert lines == [
                "127.0.0.21 verified crawl-21.crawler.test",
                "127.0.0.22 not-verified no PTR name under the operator's "
                "domains",
                "2001:db8::7 verified crawl-v6.crawler.test"], lines
    finally:
        shutil.rmtree(tmp)


def write_ranges(body):
    fd, path = tempfile.mkstemp(suffix=".json")
    with os.fdopen(fd, "w") as f:
        f.write(body)
    return path


RANGES = json.dumps({
    "creationTime": "2026-11-21T00:00:00.000000",
    "prefixes": [{"ipv4Prefix": "127.0.0.16/28"},
                 {"ipv6Prefix": "2001:db8::/64"}]})


def ranges_are_a_second_independent_proof():
    path = write_ranges(RANGES)
    try:
        with zone() as dns:
            out = verify(dns, "--ranges", path, "127.0.0.21", "127.0.0.23",
                         "127.0.0.40", check=1)
            both, by_ranges, neither = out
            assert both["verified"] and both["reverse_dns"]["verified"]
            assert both["ranges"]["prefix"] == "127.0.0.16/28", both
            # DNS says no, the published ranges say yes: verified.
            assert by_ranges["verified"], by_ranges
            assert not by_ranges["reverse_dns"]["verified"]
            assert not neither["verified"] and \
                neither["ranges"]["match"] is False, neither
        # DNS down: the ranges alone still prove it.
        with SilentUdpServer() as silent:
            proc = run_heed("verify", "--dns-server", silent.server,
                            "--domain", DOMAIN, "--ranges", path,
                            "2001:db8::5", check=0, timeout=60)
            assert ("verified (published ranges: 2001:db8::/64; reverse "
                    "DNS: not verified") in proc.stdout, proc.stdout
    finally:
        os.unlink(path)


def bad_ranges_file_names_the_prefix():
    path = write_ranges('{"prefixes": [{"ipv4Prefix": "127.0.0.0/8"}, '
                        '{"ipv4Prefix": "127.0.0.1/8"}]}')
    try:
        proc = run_heed("verify", "--domain", DOMAIN, "--ranges", path,
                        "127.0.0.21", check=2)
        assert "prefixes[1]" in proc.stderr, proc.stderr
    finally:
        os.unlink(path)


def every_address_must_verify_for_exit_0():
    with zone() as dns:
        run_heed("verify", "--dns-server", dns.server, "--domain", DOMAIN,
                 "127.0.0.21", "127.0.0.24", check=0)
        run_heed("verify", "--dns-server", dns.server, "--domain", DOMAIN,
                 "127.0.0.21", "127.0.0.22", check=1)
        proc = run_heed("verify", "--dns-server", dns.server, "--domain",
                        DOMAIN, "not-an-ip", check=1)
        assert "not-an-ip: not verified: not an IP address" in proc.stdout


def settings_give_the_defaults():
    path = write_ranges(RANGES)
    fd, ini = tempfile.mkstemp(suffix=".ini")
    with os.fdopen(fd, "w") as f:
        f.write(f"[verify]\ndomain = other.test\ndomain = {DOMAIN}\n"
                f"ranges_file = {path}\n")
    try:
        with zone() as dns:
            out = run_heed_json("verify", "--config", ini, "--dns-server",
                                dns.server, "--json", "127.0.0.21",
                                check=0)[1][0]
            assert out["ranges"]["match"] is True, out
            # --set appends to a list setting; --domain replaces the list.
            run_heed("verify", "--set", "verify.domain=crawler.test",
                     "--dns-server", dns.server, "127.0.0.21", check=0)
            out = run_heed_json("verify", "--config", ini, "--domain",
                                "other.test", "--dns-server", dns.server,
                                "--json", "127.0.0.21", check=0)[1][0]
            assert out["reverse_dns"]["verified"] is False, out
            assert out["ranges"]["match"] is True, out
    finally:
        os.unlink(path)
        os.unlink(ini)


def usage_errors():
    proc = run_heed("verify", "127.0.0.21", check=2)
    assert "no domain" in proc.stderr, proc.stderr
    proc = run_heed("verify", "--domain", "com", "127.0.0.21", check=2)
    assert "public suffix" in proc.stderr, proc.stderr
    run_heed("verify", "--domain", DOMAIN, check=2)
    proc = run_heed("verify", "--set", "verify.nope=1", "--domain", DOMAIN,
                    "127.0.0.21", check=2)
    assert "unknown setting" in proc.stderr, proc.stderr


class TagBalance(html.parser.HTMLParser):
    """Checks that every opened element is closed in order."""
    VOID = {"meta", "br", "hr", "img", "link", "input"}

    def __init__(self):
        super().__init__()
        self.stack = []
        self.errors = []
        self.text = []

    def handle_starttag(self, tag, attrs):
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:]}")
            return
        self.stack.pop()

    def handle_data(self, data):
        self.text.append(data)


PAGE_SETTINGS = ["--set", "identity.product_token=examplebot",
                 "--set", "identity.contact_url=https://crawler.example.org/bots",
                 "--set", "identity.contact_email=bots@example.org",
                 "--set", "identity.operator=Example <Index> & Co",
                 "--set", "verify.domain=crawler.example.org",
                 "--set", "crawl.incremental_interval=3h"]
UA = "examplebot/0.1.0 (+https://crawler.example.org/bots; bots@example.org)"


def page_html_is_well_formed_and_complete():
    proc = run_heed("page", *PAGE_SETTINGS, check=0)
    parser = TagBalance()
    parser.feed(proc.stdout)
    parser.close()
    assert not parser.errors, parser.errors
    assert parser.stack == [], parser.stack
    text = "".join(parser.text)
    assert UA in text, text
    assert "Example <Index> & Co" in text
    assert "&lt;Index&gt; &amp; Co" in proc.stdout
    assert "heed verify --domain crawler.example.org" in text
    assert "User-agent: examplebot\nDisallow: /" in text
    assert "host crawl-192-0-2-10.crawler.example.org" in text
    assert "1 request per second" in text
    assert "once every 3 hours" in text
    assert "ACAP" in text and "robots.txt" in text
    assert proc.stderr == "", proc.stderr


def page_markdown_to_a_file():
    fd, path = tempfile.mkstemp(suffix=".md")
    os.close(fd)
    try:
        run_heed("page", *PAGE_SETTINGS, "--format", "markdown", "--output",
                 path, check=0)
        md = open(path).read()
        assert md.startswith("# Crawlers\n"), md[:80]
        assert f"```\n{UA}\n```" in md, md
        assert "heed verify --domain crawler.example.org 192.0.2.10" in md
        assert "Example \\<Index\\> \\& Co" in md
    finally:
        os.unlink(path)


def page_warns_about_missing_settings():
    proc = run_heed("page", check=0)
    assert "verify.domain is not set" in proc.stderr, proc.stderr
    assert "no contact set" in proc.stderr, proc.stderr
    run_heed("page", "--format", "pdf", check=2)


Checks().main([matching_pair_verifies_with_both_steps_shown,
               look_alike_domain_is_not_verified_nor_looked_up,
               forward_answer_without_the_address_is_not_verified,
               one_of_several_ptr_records_verifies,
               several_ptr_records_none_verifies,
               cname_chain_is_followed, ipv6_uses_aaaa,
               ipv4_mapped_address_is_checked_as_ipv4,
               nxdomain_at_each_step_is_reported,
               servfail_is_reported_as_such,
               silent_server_times_out_in_bounded_time,
               same_address_is_looked_up_once,
               results_are_cached_for_their_ttl,
               api_example_with_its_own_poll_loop,
               ranges_are_a_second_independent_proof,
               bad_ranges_file_names_the_prefix,
               every_address_must_verify_for_exit_0,
               settings_give_the_defaults, usage_errors,
               page_html_is_well_formed_and_complete,
               page_markdown_to_a_file,
               page_warns_about_missing_settings])
