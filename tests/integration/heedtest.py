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

from cpuhogs import CpuHogs

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

def stop_process(proc):
    """Terminates a server the test started (kill after 5 s) and reaps it."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


class ServerProcess:
    """A server a test started (self.proc) with a temporary folder of its
    own (self.dir): close() stops it and removes the folder; a context
    manager that closes."""

    proc = None
    dir = None

    def close(self):
        if self.proc is not None:
            stop_process(self.proc)
        if self.dir:
            shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def run_heed(*args, input=None, timeout=120, check=None, env=None,
             wrap=()):
    """Runs the heed binary; returns CompletedProcess with text output.
    check=N asserts the exit status is N. wrap: a command heed runs under
    (["nice", "-n", "10"])."""
    proc = subprocess.run([*wrap, HEED, *args], input=input,
                          capture_output=True, text=True, timeout=timeout,
                          env=env)
    if check is not None and proc.returncode != check:
        raise AssertionError(
            f"heed {' '.join(args)}: exit {proc.returncode}, want {check}\n"
            f"stdout:\n{proc.stdout}\nstderr:\n{proc.stderr}")
    return proc


def edit_pages_by_hand(db, sql, rows):
    """Runs sql over rows on the pages of store connection db (Python's
    sqlite3) as an edit by hand that heed does not see: the search
    triggers, which need heed's FTS5 tokenizer, are set aside for it and
    put back, so the search index keeps what it had."""
    triggers = db.execute("SELECT name, sql FROM sqlite_master WHERE "
                          "type = 'trigger' AND tbl_name = 'pages'"
                          ).fetchall()
    with db:
        for name, _ in triggers:
            db.execute(f'DROP TRIGGER "{name}"')
        db.executemany(sql, rows)
        for _, text in triggers:
            db.execute(text)


def time_scale():
    """How many times longer than on a quiet machine with the plain build
    a test's own bound on a crawl waits: HEED_TEST_TIME_SCALE, which
    scripts/test sets to the stage's meson timeout multiplier (a sanitizer
    makes heed two to three times slower, a busy machine halves its CPU).
    Those bounds are there to end a hang, not to time heed."""
    try:
        scale = float(os.environ.get("HEED_TEST_TIME_SCALE", "1"))
    except ValueError:
        scale = 1.0
    return max(1.0, scale)


def scaled(seconds):
    """A test's bound of `seconds` on a quiet machine, as time_scale()
    stretches it."""
    return seconds * time_scale()


STRESS_NICE = 10


def stress_mode():
    """HEED_TEST_STRESS=1: the crawls of the courtesy tests (those run by
    run_heed_timed) run on a starved machine, as crawl_stress's always
    do."""
    return os.environ.get("HEED_TEST_STRESS") == "1"


def run_heed_timed(*args, timeout, stress=None):
    """Runs heed (as run_heed) for at most timeout seconds; returns (exit
    status, or None when it timed out; its stderr; seconds taken). Under
    stress (default: stress_mode()) heed runs under nice STRESS_NICE
    beside a CPU hog on every core at the same priority (cpuhogs.py),
    killed when heed ends."""
    if stress is None:
        stress = stress_mode()
    wrap = ["nice", "-n", str(STRESS_NICE)] if stress else []
    if stress:
        print(f"  stress: heed under nice {STRESS_NICE} beside "
              f"{os.cpu_count()} CPU hogs at the same priority", flush=True)
    t = time.monotonic()
    try:
        with CpuHogs(nice=STRESS_NICE, seconds=timeout + 30,
                     count=None if stress else 0):
            proc = run_heed(*args, timeout=timeout, wrap=wrap)
        rc, err = proc.returncode, proc.stderr
    except subprocess.TimeoutExpired as e:
        rc = None
        err = e.stderr.decode(errors="replace") if isinstance(
            e.stderr, bytes) else (e.stderr or "")
    return rc, err, time.monotonic() - t


def run_heed_json(*args, **kw):
    proc = run_heed(*args, **kw)
    return proc, json.loads(proc.stdout)


class Dnsmasq(ServerProcess):
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


class ScriptedHttpServer:
    """A scripted HTTP/1.1 server bound to one loopback address (IPv4 or
    IPv6) and port,
    keeping an access log: the witness for courtesy assertions.

        srv = ScriptedHttpServer("127.0.0.2", port, {
            "/robots.txt": ["reset", ("status", 200, b"User-agent: *\\n")]})

    script maps a path to an action or a list of actions (one per request,
    the last one repeating). Actions:
      ("status", code, body=b"", headers={})  a whole answer
      ("truncated", code, body, announced)    Content-Length: announced,
                                              then body (shorter), then close
      ("redirect", code, location)            a redirect
      ("delay", seconds, action)              wait, then answer with action
      ("stall", code, body, announced)        headers and part of the body,
                                              then silence (until close())
      ("cached", code, body, headers)         a resource with validators:
                                              headers holds its ETag and/or
                                              Last-Modified (and any other
                                              header); a request they match
                                              (cached_matches) gets 304 with
                                              no body, else the whole answer
      "reset"    read the request, then close with a TCP reset
      "timeout"  read the request, never answer (until close())
    In a "cached" body, {{ORIGIN}} becomes "http://" + the request's Host,
    so that one script serves several name-based sites (robots.txt and
    sitemaps name absolute URLs).
    A path not in the script gets 404. Every connection gets
    "Connection: close". log() returns [{"t": monotonic seconds (the
    kernel's receive stamp of the request's first bytes, over plain TCP),
    "address",
    "path", "method", "user_agent", "host", "headers", "status"}] of every
    request received: headers is a dict of the request's headers with
    lower-case names, host its Host header (or None), status the code
    answered (None when none was: reset, timeout) and answer_headers the
    script's headers of a "status" or "cached" answer (ETag...). With
    per_host=True a list of actions counts the requests of each Host
    apart. set(path, actions) replaces a path's actions and starts its
    count afresh. With
    tls=(certfile, keyfile) it speaks HTTPS; handshakes() then lists
    [(t, ok)] of every TLS handshake, including those that failed.
    """

    def __init__(self, address, port, script=None, tls=None, per_host=False):
        import threading
        self.tls = None
        if tls:
            import ssl
            self.tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            self.tls.load_cert_chain(*tls)
        self._handshakes = []
        self.address = address
        self.port = port
        self.script = dict(script or {})
        self.per_host = per_host
        self._served = {}
        self._log = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        family = socket.AF_INET6 if ":" in address else socket.AF_INET
        self.sock = socket.socket(family, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind((address, port))
        # Kernel receive stamps (accepted sockets inherit the option):
        # the log's times do not depend on how busy this server is.
        self.sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
        self.sock.listen(64)
        self.sock.settimeout(0.2)
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def log(self):
        with self._lock:
            return list(self._log)

    def handshakes(self):
        with self._lock:
            return list(self._handshakes)

    def set(self, path, actions):
        """Replaces path's actions (between heed runs); a list starts
        again at its first action."""
        with self._lock:
            self.script[path] = actions
            for key in [k for k in self._served if k[0] == path]:
                del self._served[key]

    def _next_action(self, path, host):
        with self._lock:
            actions = self.script.get(path, ("status", 404, b"not found\n"))
            if not isinstance(actions, list):
                return actions
            key = (path, host if self.per_host else None)
            n = self._served.get(key, 0)
            self._served[key] = n + 1
            return actions[min(n, len(actions) - 1)]

    def _accept(self):
        import threading
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except (socket.timeout, OSError):
                continue
            if not self.tls:
                conn.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
            threading.Thread(target=self._serve, args=(conn,),
                             daemon=True).start()

    def _read_request(self, conn):
        """(method, path, headers, t): t is when the request's first bytes
        arrived (the kernel's stamp on plain TCP), on time.monotonic()'s
        clock."""
        data = b""
        t = None
        conn.settimeout(5)
        while b"\r\n\r\n" not in data and len(data) < 65536:
            if self.tls:
                chunk = conn.recv(4096)
            else:
                chunk, anc, _, _ = conn.recvmsg(4096, 64)
                if t is None:
                    t = kernel_arrival_ns(anc, time.monotonic_ns()) / 1e9
            if not chunk:
                return None
            data += chunk
        head = data.split(b"\r\n\r\n", 1)[0].decode("latin-1")
        lines = head.split("\r\n")
        parts = lines[0].split(" ")
        headers = {}
        for line in lines[1:]:
            if ":" in line:
                k, v = line.split(":", 1)
                headers[k.strip().lower()] = v.strip()
        return (parts[0], parts[1] if len(parts) > 1 else "", headers,
                t if t is not None else time.monotonic())

    def _handshake(self, conn):
        import ssl
        try:
            conn.settimeout(5)
            tls = self.tls.wrap_socket(conn, server_side=True)
        except (ssl.SSLError, OSError):
            with self._lock:
                self._handshakes.append((time.monotonic(), False))
            raise
        with self._lock:
            self._handshakes.append((time.monotonic(), True))
        return tls

    def _serve(self, conn):
        try:
            if self.tls:
                conn = self._handshake(conn)
            req = self._read_request(conn)
            if req is None:
                return
            method, path, headers, t = req
            entry = {"t": t, "address": self.address,
                     "path": path, "method": method,
                     "user_agent": headers.get("user-agent"),
                     "host": headers.get("host"), "headers": headers,
                     "status": None}
            with self._lock:
                self._log.append(entry)
            action = self._next_action(path, headers.get("host"))
            self._answer(conn, action, headers, entry)
        except OSError:
            pass
        finally:
            try:
                conn.close()
            except OSError:
                pass

    def _status(self, entry, code, headers=None):
        with self._lock:
            entry["status"] = code
            entry["answer_headers"] = dict(headers or {})

    def _answer(self, conn, action, request, entry):
        import struct
        if action == "reset":
            conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                            struct.pack("ii", 1, 0))
            return
        if action == "timeout":
            self._stop.wait(120)
            return
        kind = action[0]
        if kind == "delay":
            self._stop.wait(action[1])
            self._answer(conn, action[2], request, entry)
            return
        if kind == "cached":
            action = cached_answer(action, request)
            kind = action[0]
            if kind == "not_modified":
                self._status(entry, 304, action[1])
                head = "HTTP/1.1 304 Not Modified\r\n"
                for k, v in action[1].items():
                    head += f"{k}: {v}\r\n"
                conn.sendall((head + "Connection: close\r\n\r\n")
                             .encode("latin-1"))
                return
        self._status(entry, action[1], action[3] if kind == "status" and
                     len(action) > 3 else None)
        if kind == "stall":
            conn.sendall(f"HTTP/1.1 {action[1]} X\r\nContent-Length: "
                         f"{action[3]}\r\nContent-Type: text/plain\r\n"
                         "\r\n".encode() + action[2])
            self._stop.wait(120)
            return
        if kind == "redirect":
            code, location = action[1], action[2]
            head = (f"HTTP/1.1 {code} Moved\r\nLocation: {location}\r\n"
                    "Content-Length: 0\r\nConnection: close\r\n\r\n")
            conn.sendall(head.encode())
            return
        code, body = action[1], action[2] if len(action) > 2 else b""
        extra = action[3] if len(action) > 3 else {}
        length = len(body)
        if kind == "truncated":
            length = action[3]
            extra = {}
        head = f"HTTP/1.1 {code} X\r\nContent-Length: {length}\r\n"
        if "Content-Type" not in extra:
            head += "Content-Type: text/plain\r\n"
        for k, v in extra.items():
            head += f"{k}: {v}\r\n"
        head += "Connection: close\r\n\r\n"
        conn.sendall(head.encode("latin-1") + body)

    def close(self):
        self._stop.set()
        self._thread.join(5)
        self.sock.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def entity_tags(field):
    """The entity-tags of an If-None-Match value (RFC 9110 8.8.3:
    [W/]"opaque", comma-separated), as (weak, opaque) pairs; "*" gives
    [(False, "*")]. Anything unparsable ends the list."""
    field = field.strip()
    if field == "*":
        return [(False, "*")]
    tags = []
    i = 0
    while i < len(field):
        while i < len(field) and field[i] in " \t,":
            i += 1
        if i >= len(field):
            break
        weak = field.startswith("W/", i)
        if weak:
            i += 2
        if i >= len(field) or field[i] != '"':
            break
        end = field.find('"', i + 1)
        if end < 0:
            break
        tags.append((weak, field[i:end + 1]))
        i = end + 1
    return tags


def etag_matches_weakly(if_none_match, etag):
    """RFC 9110 13.1.2: If-None-Match uses the weak comparison (W/
    ignored on both sides); "*" matches any current representation."""
    current = entity_tags(etag or "")
    if not current or current[0][1] == "*":
        return False
    mine = current[0][1]
    return any(t == "*" or t == mine for _, t in entity_tags(if_none_match))


def cached_matches(request, etag, last_modified):
    """Whether a GET with these request headers (lower-case names) gets a
    304 (RFC 9110 13.2.2): If-None-Match decides when present; otherwise
    If-Modified-Since at or after Last-Modified (both valid dates)."""
    import email.utils
    inm = request.get("if-none-match")
    if inm is not None:
        return etag_matches_weakly(inm, etag)
    ims = request.get("if-modified-since")
    if ims is None or not last_modified:
        return False
    try:
        since = email.utils.parsedate_to_datetime(ims)
        modified = email.utils.parsedate_to_datetime(last_modified)
    except (TypeError, ValueError):
        return False  # an invalid date is ignored (RFC 9110 13.1.3)
    if since is None or modified is None or since.tzinfo is None:
        return False
    return since >= modified


# What a 304 repeats of the 200 (RFC 9110 15.4.5).
NOT_MODIFIED_HEADERS = ("ETag", "Cache-Control", "Expires", "Vary",
                        "Content-Location", "Date")


def cached_answer(action, request):
    """A "cached" action made concrete for one request: ("not_modified",
    headers) or ("status", code, body, headers), with {{ORIGIN}} in the
    body replaced by the request's origin."""
    code = action[1]
    body = action[2] if len(action) > 2 else b""
    headers = dict(action[3]) if len(action) > 3 else {}
    if code == 200 and cached_matches(request, headers.get("ETag"),
                                      headers.get("Last-Modified")):
        return ("not_modified", {k: v for k, v in headers.items()
                                 if k in NOT_MODIFIED_HEADERS})
    host = request.get("host") or "localhost"
    return ("status", code, body.replace(b"{{ORIGIN}}",
                                         f"http://{host}".encode()), headers)


# Kernel receive stamps (SO_TIMESTAMPNS) make a server's log independent
# of how busy the server is: loadserver.py and hostile.py log with them.
SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)  # Linux value


def realtime_offset_ns():
    """CLOCK_REALTIME minus CLOCK_MONOTONIC now, in integer nanoseconds.
    Read between two monotonic readings, and of up to ten tries the one
    read in the shortest window: a thread switched out between the two
    clocks' readings (another thread holding the GIL, a busy machine) would
    otherwise move every stamp converted with the offset by as long as it
    waited, and a server's log would show a request earlier than it came
    (63 ms once, on a machine running the README's test command)."""
    best_window, best = None, 0
    for _ in range(10):
        m0 = time.monotonic_ns()
        real = time.time_ns()
        m1 = time.monotonic_ns()
        if best_window is None or m1 - m0 < best_window:
            best_window, best = m1 - m0, real - (m0 + m1) // 2
        if best_window <= 100_000:
            break
    return best


def kernel_arrival_ns(ancdata, now_ns):
    """The kernel's receive time of what recvmsg() returned with ancdata,
    on time.monotonic_ns()'s clock; now_ns (read when recvmsg() returned)
    when the kernel gave none. Kernel stamps are CLOCK_REALTIME: they are
    moved onto the monotonic clock with the offset of this moment
    (realtime_offset_ns; integer nanoseconds, so no rounding), and never
    later than now_ns."""
    import struct
    arrival = now_ns
    for level, kind, blob in ancdata:
        if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS \
                and len(blob) >= 16:
            sec, nsec = struct.unpack("qq", blob[:16])
            arrival = min(sec * 10**9 + nsec - realtime_offset_ns(), now_ns)
    return arrival


def free_port_on(addresses):
    """A TCP port free on every one of addresses (servers on several
    127.0.0.x addresses must share one port: a URL names one port)."""
    for _ in range(100):
        port = free_port(addresses[0])
        try:
            for a in addresses[1:]:
                family = socket.AF_INET6 if ":" in a else socket.AF_INET
                with socket.socket(family, socket.SOCK_STREAM) as s:
                    s.bind((a, port))
            return port
        except OSError:
            continue
    raise RuntimeError("no port free on every address")


def nginx_temp_paths(d):
    """nginx.conf lines that keep nginx's temporary files in the test's
    folder d (the built-in ones may not exist or be writable)."""
    return "\n".join(f"  {k}_temp_path {d}/{v};" for k, v in (
        ("client_body", "body"), ("proxy", "proxy"), ("fastcgi", "fastcgi"),
        ("uwsgi", "uwsgi"), ("scgi", "scgi")))


def logged_json(path):
    """The JSON lines of an access log its server (nginx, DemoWeb's) may
    still be writing, as dicts. Tests poll the log mid-run, when its last
    line can be half written: only lines a newline ends are read."""
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [json.loads(line) for line in f
                if line.endswith("\n") and line.strip()]


def start_nginx(server, argv, addresses, port):
    """Starts nginx (argv) as server.proc and waits, 10 s at most, until
    it accepts on port of every address; else closes server and raises."""
    server.proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.PIPE)
    deadline = time.time() + 10
    pending = list(addresses)
    while pending and time.time() < deadline:
        if server.proc.poll() is not None:
            err = server.proc.stderr.read().decode()
            server.close()
            raise RuntimeError("nginx exited: " + err)
        try:
            with socket.create_connection((pending[0], port), 0.2):
                pending.pop(0)
        except OSError:
            time.sleep(0.05)
    if pending:
        server.close()
        raise RuntimeError("nginx did not start")


class Nginx(ServerProcess):
    """nginx serving folder `www` over HTTPS with HTTP/2 on address:port,
    with gzip for text, logging every request as a dict (access()):
    {"t", "address", "protocol", "request", "status", "user_agent",
    "encoding"}. cert is (certfile, keyfile)."""

    def __init__(self, address, port, www, cert):
        self.dir = tempfile.mkdtemp(prefix="heed-nginx-")
        self.log = os.path.join(self.dir, "access.log")
        conf = os.path.join(self.dir, "nginx.conf")
        d = self.dir
        with open(conf, "w") as f:
            f.write(f"""
user root root;
worker_processes 1;
pid {d}/nginx.pid;
error_log {d}/error.log;
events {{ worker_connections 64; }}
http {{
  log_format heed escape=json '{{"t":$msec,"address":"$server_addr",'
    '"protocol":"$server_protocol","request":"$request","status":$status,'
    '"user_agent":"$http_user_agent",'
    '"encoding":"$sent_http_content_encoding"}}';
  access_log {d}/access.log heed;
{nginx_temp_paths(d)}
  types {{ text/plain txt; }}
  gzip on;
  gzip_types text/plain;
  gzip_min_length 1;
  server {{
    listen {address}:{port} ssl http2;
    ssl_certificate {cert[0]};
    ssl_certificate_key {cert[1]};
    root {www};
  }}
}}
""")
        start_nginx(self, ["nginx", "-p", d, "-c", conf, "-g",
                           "daemon off;"], [address], port)

    def access(self):
        return logged_json(self.log)


class VirtualHostNginx(ServerProcess):
    """nginx over plain HTTP/1.1 on address:port (or on each of a list of
    addresses, one port), one server block for every name (root
    DIR/$host), keep-alive for as long as a crawl, and a JSON access log
    (access()). Runs under `timeout`, so it stops by itself after
    max_seconds even if the test dies.

    nginx logs $msec, the END of a request, and $request_time, both with
    millisecond resolution; a request's start is $msec - $request_time,
    which is nginx's clock (truncated to the millisecond) when it read the
    request. Starts are compared in whole milliseconds, so a logged gap of
    0.999 s means a true gap between 0.998 s and 1.000 s: under 1 s, a
    failure for a courtesy test."""

    def __init__(self, address, port, www, max_seconds):
        addresses = [address] if isinstance(address, str) else list(address)
        self.dir = tempfile.mkdtemp(prefix="heed-nginx-vhosts-")
        self.log = os.path.join(self.dir, "access.log")
        self.base = None
        d = self.dir
        listen = "\n".join(f"    listen {a}:{port} default_server;"
                           for a in addresses)
        conf = os.path.join(d, "nginx.conf")
        with open(conf, "w") as f:
            f.write(f"""
user root root;
worker_processes 1;
worker_rlimit_nofile 8192;
pid {d}/nginx.pid;
error_log {d}/error.log;
events {{ worker_connections 4096; }}
http {{
  log_format load escape=json '{{"host":"$host","msec":"$msec",'
    '"request_time":"$request_time","status":$status,'
    '"uri":"$request_uri","user_agent":"$http_user_agent",'
    '"address":"$server_addr",'
    '"connection":$connection,"connection_requests":$connection_requests}}';
  access_log {d}/access.log load;
{nginx_temp_paths(d)}
  types {{ text/html html; text/plain txt; }}
  default_type application/octet-stream;
  charset utf-8;
  charset_types text/html text/plain;
  keepalive_timeout 300s;
  keepalive_requests 100000;
  server {{
{listen}
    server_name _;
    root {www}/$host;
    index index.html;
  }}
}}
""")
        start_nginx(self, ["timeout", "-k", "5", str(int(max_seconds)),
                           "nginx", "-p", d, "-c", conf, "-g",
                           "daemon off;"], addresses, port)

    def access(self):
        """The log as dicts with host, path, start, end (seconds from the
        first start, whole milliseconds; self.base is that first start in
        Unix seconds), status, user_agent, address (the server's address
        the request came to), conn, raw ($msec and $request_time as
        logged)."""
        out = []
        for e in logged_json(self.log):
            end_ms = round(float(e["msec"]) * 1000)
            start_ms = end_ms - round(float(e["request_time"]) * 1000)
            out.append({"host": e["host"], "path": e["uri"].split("?")[0],
                        "start_ms": start_ms, "end_ms": end_ms,
                        "status": e["status"],
                        "user_agent": e["user_agent"],
                        "address": e.get("address"),
                        "conn": e["connection"],
                        "raw": (e["msec"], e["request_time"])})
        base = min((e["start_ms"] for e in out), default=0)
        self.base = base / 1000  # the first start, in Unix seconds
        for e in out:  # small exact numbers: 1000 ms is 1.0, not 0.99999
            e["start"] = (e.pop("start_ms") - base) / 1000
            e["end"] = (e.pop("end_ms") - base) / 1000
        return out
