"""Shared fixtures for heed's integration tests: real servers on loopback.

Every server here binds only to 127.0.0.0/8 or ::1, runs in the foreground
as a child of the test, keeps its own log (the witness for courtesy
assertions) and is killed when the test ends, even on failure.

    with Dnsmasq(hosts={"multi.test": ["127.0.0.2", "127.0.0.3"]}) as dns:
        out = run_heed("dns", "--dns-server", dns.server, "multi.test")
        assert "multi.test" in dns.queries()
"""

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

HEED = os.environ.get("HEED", "heed")


def free_port(host="127.0.0.1", kind=socket.SOCK_STREAM):
    """A port that was free on host a moment ago (TCP by default)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, kind) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def free_port_both(host="127.0.0.1"):
    """A port free for both UDP and TCP (DNS servers need both)."""
    for _ in range(50):
        port = free_port(host, socket.SOCK_DGRAM)
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
                s.bind((host, port))
            return port
        except OSError:
            continue
    raise RuntimeError("no free port")


def sanitizer_flags():
    """The -fsanitize flags the build under test used, so that a program
    compiled by a test links against a sanitized libheed correctly."""
    info = os.path.join(os.environ.get("HEED_BUILD_ROOT", ""), "meson-info",
                        "intro-buildoptions.json")
    try:
        with open(info) as f:
            opts = {o["name"]: o["value"] for o in json.load(f)}
    except (OSError, ValueError, KeyError):
        return []
    value = opts.get("b_sanitize", "none")
    return [] if value in ("none", "") else [f"-fsanitize={value}"]


def run_heed(*args, input=None, timeout=120, check=None, env=None):
    """Runs the heed binary; returns CompletedProcess with text output.
    check=N asserts the exit status is N."""
    proc = subprocess.run([HEED, *args], input=input, capture_output=True,
                          text=True, timeout=timeout, env=env)
    if check is not None and proc.returncode != check:
        raise AssertionError(
            f"heed {' '.join(args)}: exit {proc.returncode}, want {check}\n"
            f"stdout:\n{proc.stdout}\nstderr:\n{proc.stderr}")
    return proc


def run_heed_json(*args, **kw):
    proc = run_heed(*args, **kw)
    return proc, json.loads(proc.stdout)


class Dnsmasq:
    """dnsmasq on 127.0.0.1:PORT answering only from what the test gives it.

    hosts: {name: [address, ...]} (A and AAAA, with matching PTRs);
    ptrs: {address: [name, ...]} extra PTR records; cnames: {alias: target};
    names under `local` (default "test") that are not given are NXDOMAIN.
    queries() returns the names asked, from dnsmasq's own query log.
    """

    def __init__(self, hosts=None, ptrs=None, cnames=None, local="test",
                 ttl=300, extra_args=()):
        self.dir = tempfile.mkdtemp(prefix="heed-dnsmasq-")
        self.port = free_port_both()
        self.server = f"127.0.0.1:{self.port}"
        self.log = os.path.join(self.dir, "queries.log")
        hosts_file = os.path.join(self.dir, "hosts")
        with open(hosts_file, "w") as f:
            for name, addrs in (hosts or {}).items():
                for a in addrs:
                    f.write(f"{a} {name}\n")
        args = ["dnsmasq", "--keep-in-foreground", "--no-resolv",
                "--no-hosts", f"--addn-hosts={hosts_file}",
                f"--port={self.port}", "--listen-address=127.0.0.1",
                "--bind-interfaces", f"--local-ttl={ttl}", "--pid-file=",
                "--log-queries", f"--log-facility={self.log}",
                "--user=root", "--group=root"]
        if local:
            args.append(f"--local=/{local}/")
        for alias, target in (cnames or {}).items():
            args.append(f"--cname={alias},{target}")
        for addr, names in (ptrs or {}).items():
            for n in names:
                args.append(f"--ptr-record={reverse_name(addr)},{n}")
        args.extend(extra_args)
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE)
        self._wait_ready()

    def _wait_ready(self):
        deadline = time.time() + 10
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("dnsmasq exited: " +
                                   self.proc.stderr.read().decode())
            if os.path.exists(self.log) and "started" in open(self.log).read():
                return
            time.sleep(0.05)
        raise RuntimeError("dnsmasq did not start")

    def queries(self):
        """[(type, name)] of every query dnsmasq received, in order."""
        out = []
        for line in open(self.log, errors="replace"):
            if "query[" in line:
                part = line.split("query[", 1)[1]
                qtype, rest = part.split("]", 1)
                out.append((qtype, rest.split()[0]))
        return out

    def close(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class SilentUdpServer:
    """A UDP socket on loopback that receives and never answers: a DNS
    server that times out."""

    def __init__(self):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))
        self.server = "127.0.0.1:%d" % self.sock.getsockname()[1]

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.sock.close()


class RcodeDnsServer:
    """A DNS server on 127.0.0.1 (UDP) that answers every query with the
    same response code and no records: rcode=2 is SERVFAIL, 5 REFUSED.
    queries counts what it received."""

    def __init__(self, rcode=2):
        import threading
        self.rcode = rcode
        self.queries = 0
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.settimeout(0.2)
        self.server = "127.0.0.1:%d" % self.sock.getsockname()[1]
        self.running = True
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        while self.running:
            try:
                data, peer = self.sock.recvfrom(4096)
            except socket.timeout:
                continue
            except OSError:
                return
            if len(data) < 12:
                continue
            self.queries += 1
            # Same ID and question; QR set, RD copied, RA set, our RCODE;
            # one question, no answers.
            flags = 0x8000 | (data[2] & 0x01) << 8 | 0x0080 | self.rcode
            reply = (data[:2] + flags.to_bytes(2, "big") + data[4:6] +
                     b"\0\0\0\0\0\0" + data[12:])
            self.sock.sendto(reply, peer)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.running = False
        self.thread.join(5)
        self.sock.close()


def reverse_name(addr):
    """The in-addr.arpa / ip6.arpa name of an address."""
    if ":" in addr:
        packed = socket.inet_pton(socket.AF_INET6, addr)
        nibbles = "".join(f"{b:02x}" for b in packed)
        return ".".join(reversed(nibbles)) + ".ip6.arpa"
    return ".".join(reversed(addr.split("."))) + ".in-addr.arpa"


class Checks:
    """Named checks inside one test script; main() exits 1 if any failed."""

    def __init__(self):
        self.failed = 0
        self.passed = 0

    def run(self, fn):
        name = fn.__name__
        try:
            fn()
        except Exception as e:  # report and go on to the next check
            self.failed += 1
            print(f"FAIL {name}: {type(e).__name__}: {e}", flush=True)
            return
        self.passed += 1
        print(f"ok   {name}", flush=True)

    def main(self, fns):
        for fn in fns:
            self.run(fn)
        print(f"{self.passed} passed, {self.failed} failed")
        sys.exit(1 if self.failed else 0)
