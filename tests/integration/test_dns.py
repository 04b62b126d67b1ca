"""heed's resolver (src/dns) against a real dnsmasq on loopback, through
`heed dns`: every address with its TTL, CNAME chains, several PTR records,
IPv6, NXDOMAIN, and a server that never answers (bounded time)."""

import time

from heedtest import Checks, Dnsmasq, SilentUdpServer, run_heed, run_heed_json

HOSTS = {"multi.test": ["127.0.0.2", "127.0.0.3", "::1"],
         "one.test": ["127.0.0.9"]}
PTRS = {"127.0.0.9": ["one.test", "other.example.test"]}


def every_address_with_its_ttl():
    # dnsmasq rotates its answers, so the set is checked, not the order.
    with Dnsmasq(hosts=HOSTS) as dns:
        proc, out = run_heed_json("dns", "--dns-server", dns.server, "--json",
                                  "multi.test", check=0)
        addrs = [a["address"] for a in out[0]["addresses"]]
        assert sorted(addrs) == ["127.0.0.2", "127.0.0.3", "::1"], addrs
        assert all(a["ttl"] == 300 for a in out[0]["addresses"])
        asked = dns.queries()
        assert ("A", "multi.test") in asked and ("AAAA", "multi.test") in asked


def cname_chain_followed():
    with Dnsmasq(hosts=HOSTS, cnames={"www.test": "multi.test"}) as dns:
        proc, out = run_heed_json("dns", "--dns-server", dns.server, "--json",
                                  "www.test", check=0)
        assert out[0]["cnames"] == ["multi.test"], out
        assert len(out[0]["addresses"]) == 3


def several_ptr_records():
    with Dnsmasq(hosts=HOSTS, ptrs=PTRS) as dns:
        proc, out = run_heed_json("dns", "--dns-server", dns.server, "--json",
                                  "127.0.0.9", check=0)
        assert sorted(out[0]["names"]) == ["one.test", "other.example.test"]


def ipv6_ptr():
    with Dnsmasq(ptrs={"2001:db8::7": ["v6.test"]}) as dns:
        proc = run_heed("dns", "--dns-server", dns.server, "2001:db8::7",
                        check=0)
        assert "domain name pointer v6.test" in proc.stdout, proc.stdout


def nxdomain_reported():
    with Dnsmasq(hosts=HOSTS) as dns:
        proc = run_heed("dns", "--dns-server", dns.server, "nope.test",
                        "one.test", check=1)
        assert "nope.test: NXDOMAIN" in proc.stdout, proc.stdout
        # The good name after a failure is still answered.
        assert "one.test has IPv4 address 127.0.0.9" in proc.stdout


def silent_server_times_out_in_bounded_time():
    with SilentUdpServer() as silent:
        start = time.monotonic()
        proc = run_heed("dns", "--dns-server", silent.server, "x.test",
                        check=1, timeout=60)
        took = time.monotonic() - start
        assert "timeout" in proc.stdout, proc.stdout
        # 2 tries x 2 s default, with slack for a loaded machine.
        assert took < 30, took


def bad_server_option_is_a_usage_error():
    proc = run_heed("dns", "--dns-server", "not an address", "x.test",
                    check=2)
    assert "DNS server" in proc.stderr, proc.stderr


Checks().main([every_address_with_its_ttl, cname_chain_followed,
               several_ptr_records, ipv6_ptr, nxdomain_reported,
               silent_server_times_out_in_bounded_time,
               bad_server_option_is_a_usage_error])
