"""Helpers shared by the `heed site` integration tests: one host name on
several 127.0.0.x addresses (dnsmasq), a scripted HTTP server on each (one
port for all, since a URL names one port), and heed runs with small
intervals so that every branch of the lifecycle runs in seconds."""

import contextlib
import os
import subprocess
import tempfile
import time

from heedtest import (HEED, Dnsmasq, ScriptedHttpServer, free_port_on,
                      run_heed, run_heed_json)

HOST = "multi.test"
CONTACT = "https://heed.test/bot"
# Small intervals for tests; the 1 s politeness delay and the 2 s pause
# between passes stay at their real values: they are what is asserted.
SETTINGS = ["site.retry_interval=3", "site.max_failures=3",
            "site.recheck_interval=1h", "net.connect_timeout_ms=1500",
            "net.first_byte_timeout_ms=1500", "net.total_timeout_ms=5000"]


class Site:
    def __init__(self, dns, port, servers, store):
        self.dns = dns
        self.port = port
        self.servers = servers
        self.store = store
        self.url = f"http://{HOST}:{port}/"

    def _qualify_args(self, extra, url, settings):
        args = ["site", "qualify", "--store", self.store, "--dns-server",
                self.dns.server, "--allow-private", "--contact-url", CONTACT]
        for s in list(SETTINGS) + list(settings):
            args += ["--set", s]
        return [*args, *extra, url or self.url]

    def qualify(self, *extra, url=None, settings=(), check=None):
        return run_heed(*self._qualify_args(extra, url, settings),
                        check=check)

    def qualify_timed_lines(self, settings=()):
        """Runs `heed site qualify` as qualify() does, reading its stderr
        as it is written: returns [(monotonic seconds the line arrived,
        line)], on the clock the servers' log() uses, so that a request
        can be timed from a line heed logged before it whatever heed's
        start-up took."""
        proc = subprocess.Popen(
            [HEED, *self._qualify_args((), None, settings)],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        lines = []
        try:
            for line in proc.stderr:
                lines.append((time.monotonic(), line.rstrip("\n")))
        finally:
            proc.stderr.close()
            proc.wait(timeout=120)
        return lines

    def report(self, host=HOST, check=0):
        proc, out = run_heed_json("site", "report", "--json", "--store",
                                  self.store, host, check=check)
        return out[0] if out else None

    def log(self):
        """Every request any server received, in time order."""
        entries = [e for s in self.servers.values() for e in s.log()]
        return sorted(entries, key=lambda e: e["t"])


@contextlib.contextmanager
def site(scripts, extra_hosts=None, store=None, tls=False):
    """scripts: {address: script or None (nothing listens there)}, in the
    order given to DNS. tls: HTTPS with a self-signed certificate. Yields a
    Site."""
    addrs = list(scripts)
    hosts = {HOST: addrs}
    hosts.update(extra_hosts or {})
    tmp = tempfile.mkdtemp(prefix="heed-site-")
    with Dnsmasq(hosts=hosts) as dns:
        port = free_port_on(addrs)
        cert = self_signed_cert(tmp) if tls else None
        servers = {}
        try:
            for a, script in scripts.items():
                if script is not None:
                    servers[a] = ScriptedHttpServer(a, port, script, cert)
            s = Site(dns, port, servers,
                     store or os.path.join(tmp, "heed.db"))
            if tls:
                s.url = f"https://{HOST}:{port}/"
            yield s
        finally:
            for s in servers.values():
                s.close()


def self_signed_cert(folder, name=HOST):
    """(certfile, keyfile) of a fresh self-signed certificate for name."""
    cert = os.path.join(folder, "cert.pem")
    key = os.path.join(folder, "key.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048",
                    "-nodes", "-keyout", key, "-out", cert, "-days", "1",
                    "-subj", f"/CN={name}", "-addext",
                    f"subjectAltName=DNS:{name}"],
                   check=True, capture_output=True)
    return cert, key


def gaps(entries):
    """Seconds between consecutive requests."""
    return [b["t"] - a["t"] for a, b in zip(entries, entries[1:])]


# Server-side timestamps are taken when a request has been read, a few
# milliseconds after heed started it: allow that much jitter, no more.
JITTER = 0.05


def assert_spaced(entries, seconds=1.0):
    for g in gaps(entries):
        assert g >= seconds - JITTER, (
            f"two requests {g:.3f} s apart: "
            f"{[(e['address'], round(e['t'], 3)) for e in entries]}")
