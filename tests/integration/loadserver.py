"""A scripted HTTP/1.1 server for load tests: MANY sites (name-based virtual
hosts, chosen by the Host header) on ONE loopback address and port, whose
capacity is set by knobs, with an access log that is the witness for every
courtesy and load assertion.

    with LoadServer("127.0.0.61", port, sites=40, pages=10,
                    base_latency=0.02, knee=2, growth=0.15,
                    refuse_above=6) as srv:
        run_heed("crawl", ..., "--sites", srv.write_seeds(path))
    a = analyse(srv.log(), expected=srv.expected())

Sites are named s000.load.test, s001.load.test... (names()). Each has
/robots.txt ("User-agent: *", "Allow: /"), / (a home page linking to
/p/0.html ... /p/{P-1}.html) and those pages (a <title> and a meta
description unique per site and page); anything else, /sitemap.xml
included, is 404. Every answer has Content-Length; connections are kept
alive (HTTP/1.1) unless the client sends "Connection: close" (or speaks
HTTP/1.0 without keep-alive); hundreds of connections at once are fine.

Capacity. When a request arrives, the server counts the requests in flight
on the whole server (this one included; a request is in flight from its
arrival until its answer is fully written) and:
  - if inflight > refuse_above: answers 503 after refuse_delay (5 ms), with
    "Retry-After: N" when retry_after is set;
  - else answers after base_latency + growth * max(0, inflight - knee).
schedule=[(seconds, {knob: value, ...}), ...] changes knobs during the run;
the seconds count from the FIRST REQUEST (the start of the crawl, so that a
slow start of the client does not move the change), or from start() with
schedule_from="start". changes() lists [(monotonic time, knobs)] applied.
The server stops by itself after max_seconds.

Timing. A request's "start" is the kernel's receive timestamp of its first
bytes (SO_TIMESTAMPNS, nanoseconds, converted to time.monotonic()'s base),
so the gaps measured do not depend on how busy this Python server is; "end"
is when its answer was handed to the kernel. log() returns one dict per
request: host (no port), path, method, start, end, status, inflight (at
arrival, counting itself), user_agent, conn (connection number), aborted
(True when the client went away before the answer was written).

analyse(log, ...) turns a log into the figures the tests assert on; run
`python3 loadserver.py --self-test` to check it on hand-made logs and on a
live server.
"""

import asyncio
import math
import os
import socket
import sys
import threading
import time
from collections import Counter

from heedtest import SO_TIMESTAMPNS, kernel_arrival_ns

DOMAIN = "load.test"


def site_names(n, domain=DOMAIN):
    """s000.load.test ... (at least 3 digits, more for 1,000+ sites)."""
    width = max(3, len(str(n - 1)))
    return [f"s{i:0{width}d}.{domain}" for i in range(n)]


def home_page(host, pages, extra_links=()):
    links = "\n".join([f'<li><a href="/p/{i}.html">Page {i}</a></li>'
                       for i in range(pages)] +
                      [f'<li><a href="{u}">{u}</a></li>'
                       for u in extra_links])
    return (f"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
            f"<title>Home of {host}</title>\n"
            f"<meta name=\"description\" content=\"The home page of {host}\">"
            f"</head>\n<body><h1>{host}</h1>\n<ul>\n{links}\n</ul>"
            f"</body></html>\n")


def page(host, i):
    return (f"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
            f"<title>Page {i} of {host}</title>\n"
            f"<meta name=\"description\" content=\"Page {i} of {host}: "
            f"a small page for load tests\"></head>\n"
            f"<body><p>Page {i} of {host}.</p>"
            f"<p><a href=\"/\">Home</a></p></body></html>\n")


ROBOTS = "User-agent: *\nAllow: /\n"


def write_sites(www, names, pages, disallow=None):
    """The sites LoadServer serves, as files under www/HOST/ for a real
    server (nginx with root www/$host): robots.txt, index.html and
    p/0.html ... With disallow (a path such as "/private/"), robots.txt
    refuses it instead of allowing everything, and the home page links to
    disallow + "page.html", which exists: a crawler that ignored
    robots.txt would get a 200 and show in the server's log."""
    robots = ROBOTS if disallow is None else \
        f"User-agent: *\nDisallow: {disallow}\n"
    extra = () if disallow is None else (disallow + "page.html",)
    for host in names:
        root = os.path.join(www, host)
        os.makedirs(os.path.join(root, "p"))
        files = {"robots.txt": robots,
                 "index.html": home_page(host, pages, extra)}
        for i in range(pages):
            files[f"p/{i}.html"] = page(host, i)
        if disallow is not None:
            files[disallow.strip("/") + "/page.html"] = page(host, "x")
            os.makedirs(os.path.join(root, disallow.strip("/")),
                        exist_ok=True)
        for name, text in files.items():
            with open(os.path.join(root, name), "w") as f:
                f.write(text)
    os.chmod(www, 0o755)
REASONS = {200: "OK", 404: "Not Found", 405: "Method Not Allowed",
           400: "Bad Request", 503: "Service Unavailable"}


class LoadServer:
    """See the module's docstring. start() returns self once listening."""

    KNOBS = ("base_latency", "knee", "growth", "refuse_above", "retry_after",
             "refuse_delay")

    def __init__(self, address, port, sites=40, pages=10, base_latency=0.02,
                 knee=None, growth=0.0, refuse_above=None, retry_after=None,
                 refuse_delay=0.005, schedule=(), schedule_from="first_request",
                 max_seconds=180, idle_timeout=120, domain=DOMAIN):
        self.address = address
        self.port = port
        self.pages = pages
        self.names = site_names(sites, domain)
        self._sites = set(self.names)
        self.knobs = {"base_latency": base_latency,
                      "knee": 0 if knee is None else knee,
                      "growth": growth, "refuse_above": refuse_above,
                      "retry_after": retry_after,
                      "refuse_delay": refuse_delay}
        for _, change in schedule:
            unknown = set(change) - set(self.KNOBS)
            if unknown:
                raise ValueError(f"unknown knobs {unknown}")
        self.schedule = sorted(schedule, key=lambda c: c[0])
        if schedule_from not in ("first_request", "start"):
            raise ValueError(schedule_from)
        self.schedule_from = schedule_from
        self.max_seconds = max_seconds
        self.idle_timeout = idle_timeout
        self.started_at = None
        self._log = []
        self._changes = []
        self._inflight = 0
        self._conns = 0
        self._scheduled = False
        self._tasks = set()
        self._socks = set()
        self._loop = None
        self._thread = None
        self._ready = threading.Event()
        self._error = None
        self._stopped = False

    # ----- the sites ---------------------------------------------------

    def url(self, host, path="/"):
        return f"http://{host}:{self.port}{path}"

    def seeds(self):
        return [self.url(h) for h in self.names]

    def write_seeds(self, path):
        with open(path, "w") as f:
            f.write("".join(s + "\n" for s in self.seeds()))
        return path

    def paths(self):
        """Every path that exists on each site (robots.txt, home, pages)."""
        return ["/robots.txt", "/"] + [f"/p/{i}.html"
                                       for i in range(self.pages)]

    def expected(self):
        """{(host, path)} of everything that exists: coverage's 100 %."""
        return {(h, p) for h in self.names for p in self.paths()}

    def _content(self, host, path):
        if host not in self._sites:
            return 404, "text/plain", b"no such site\n"
        if path == "/robots.txt":
            return 200, "text/plain", ROBOTS.encode()
        if path in ("/", "/index.html"):
            return (200, "text/html; charset=utf-8",
                    home_page(host, self.pages).encode())
        if path.startswith("/p/") and path.endswith(".html"):
            num = path[3:-5]
            if num.isdigit() and str(int(num)) == num and \
                    int(num) < self.pages:
                return (200, "text/html; charset=utf-8",
                        page(host, int(num)).encode())
        return 404, "text/plain", b"not found\n"

    # ----- life cycle --------------------------------------------------

    def start(self):
        self._thread = threading.Thread(target=self._run, daemon=True,
                                        name="loadserver")
        self._thread.start()
        if not self._ready.wait(10):
            raise RuntimeError("load server did not start")
        if self._error:
            raise self._error
        return self

    def close(self):
        if self._loop and not self._stopped:
            try:
                self._loop.call_soon_threadsafe(self._shutdown)
            except RuntimeError:  # the loop is already closed
                pass
        if self._thread:
            self._thread.join(10)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.close()

    def log(self):
        """The requests so far, in the order they finished."""
        return list(self._log)

    def changes(self):
        """[(monotonic time, knobs changed)] of the schedule applied."""
        return list(self._changes)

    def _run(self):
        loop = asyncio.new_event_loop()
        self._loop = loop
        try:
            family = socket.AF_INET6 if ":" in self.address else \
                socket.AF_INET
            lsock = socket.socket(family, socket.SOCK_STREAM)
            lsock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            lsock.bind((self.address, self.port))
            lsock.listen(4096)
            lsock.setblocking(False)
            self._lsock = lsock
        except OSError as e:
            self._error = e
            self._ready.set()
            loop.close()
            return
        self.started_at = time.monotonic()
        loop.call_later(self.max_seconds, self._shutdown)
        if self.schedule_from == "start":
            self._arm_schedule()
        self._accept_task = loop.create_task(self._accept())
        self._ready.set()
        try:
            loop.run_forever()
        finally:
            for t in list(self._tasks):
                t.cancel()
            loop.run_until_complete(asyncio.sleep(0))
            loop.close()

    def _shutdown(self):
        if self._stopped:
            return
        self._stopped = True
        self._accept_task.cancel()
        try:
            self._lsock.close()
        except OSError:
            pass
        for s in list(self._socks):
            try:
                self._loop.remove_reader(s.fileno())
            except (ValueError, OSError):
                pass
            try:
                s.close()
            except OSError:
                pass
        for t in list(self._tasks):
            t.cancel()
        self._loop.call_soon(self._loop.stop)

    def _arm_schedule(self):
        if self._scheduled:
            return
        self._scheduled = True
        for secs, change in self.schedule:
            self._loop.call_later(secs, self._apply, dict(change))

    def _apply(self, change):
        self.knobs.update(change)
        self._changes.append((time.monotonic(), change))

    # ----- connections -------------------------------------------------

    async def _accept(self):
        loop = self._loop
        while True:
            sock, _ = await loop.sock_accept(self._lsock)
            sock.setblocking(False)
            sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self._conns += 1
            task = loop.create_task(self._serve(sock, self._conns))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _recv(self, sock):
        """(data, monotonic arrival) of the next bytes; b"" at EOF."""
        loop = self._loop
        while True:
            try:
                data, anc, _, _ = sock.recvmsg(65536, 64)
            except (BlockingIOError, InterruptedError):
                fut = loop.create_future()
                fd = sock.fileno()
                loop.add_reader(fd, lambda: fut.done() or
                                fut.set_result(None))
                try:
                    await asyncio.wait_for(fut, self.idle_timeout)
                finally:
                    loop.remove_reader(fd)
                continue
            return data, kernel_arrival_ns(anc, time.monotonic_ns()) / 1e9

    async def _serve(self, sock, conn):
        self._socks.add(sock)
        buf = b""
        buf_start = None  # arrival of the first byte of buf
        try:
            while True:
                while b"\r\n\r\n" not in buf:
                    if len(buf) > 65536:
                        return
                    try:
                        data, arrival = await self._recv(sock)
                    except (asyncio.TimeoutError, OSError):
                        return
                    if not data:
                        return
                    if not buf:
                        buf_start = arrival
                    buf += data
                head, buf = buf.split(b"\r\n\r\n", 1)
                start = buf_start
                # A request body (GET and HEAD have none) is read and
                # dropped before the answer, so it is not taken for the
                # next request.
                length = 0
                for line in head.split(b"\r\n")[1:]:
                    k, _, v = line.partition(b":")
                    if k.strip().lower() == b"content-length":
                        length = int(v.strip()) if v.strip().isdigit() else 0
                while len(buf) < length:
                    try:
                        data, _ = await self._recv(sock)
                    except (asyncio.TimeoutError, OSError):
                        return
                    if not data:
                        return
                    buf += data
                buf = buf[length:]
                if buf:
                    buf_start = time.monotonic()
                keep = await self._request(sock, conn, head, start)
                if not keep:
                    return
        finally:
            self._socks.discard(sock)
            try:
                sock.close()
            except OSError:
                pass

    async def _request(self, sock, conn, head, start):
        lines = head.decode("latin-1").split("\r\n")
        parts = lines[0].split(" ")
        headers = {}
        for line in lines[1:]:
            if ":" in line:
                k, v = line.split(":", 1)
                headers[k.strip().lower()] = v.strip()
        method = parts[0] if parts else ""
        target = parts[1] if len(parts) > 1 else ""
        version = parts[2] if len(parts) > 2 else "HTTP/1.0"
        path = target.split("?", 1)[0]
        if path.startswith("http://"):  # absolute form
            path = "/" + path.split("/", 3)[3] if path.count("/") >= 3 \
                else "/"
        host = headers.get("host", "").lower()
        if host.startswith("["):
            host = host.split("]")[0] + "]"
        else:
            host = host.split(":")[0]
        conn_hdr = headers.get("connection", "").lower()
        if version == "HTTP/1.1":
            keep = "close" not in conn_hdr
        else:
            keep = "keep-alive" in conn_hdr

        if self.schedule_from == "first_request" and not self._scheduled:
            self._arm_schedule()
        self._inflight += 1
        inflight = self._inflight
        k = self.knobs
        entry = {"host": host, "path": path, "method": method,
                 "start": start, "end": None, "status": None,
                 "inflight": inflight,
                 "user_agent": headers.get("user-agent"), "conn": conn,
                 "aborted": False}
        try:
            extra = ""
            if k["refuse_above"] is not None and inflight > k["refuse_above"]:
                status, ctype, body = 503, "text/plain", b"busy\n"
                if k["retry_after"] is not None:
                    extra = f"Retry-After: {k['retry_after']}\r\n"
                wait = k["refuse_delay"]
            else:
                if method not in ("GET", "HEAD"):
                    status, ctype, body = 405, "text/plain", b"GET only\n"
                    extra = "Allow: GET, HEAD\r\n"
                else:
                    status, ctype, body = self._content(host, path)
                wait = k["base_latency"] + k["growth"] * max(
                    0, inflight - k["knee"])
            entry["status"] = status
            delay = start + wait - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            answer = (f"HTTP/1.1 {status} {REASONS.get(status, 'X')}\r\n"
                      f"Content-Type: {ctype}\r\n"
                      f"Content-Length: {len(body)}\r\n{extra}"
                      f"Connection: {'keep-alive' if keep else 'close'}\r\n"
                      "\r\n").encode("latin-1")
            if method != "HEAD":
                answer += body
            try:
                await self._loop.sock_sendall(sock, answer)
            except OSError:
                entry["aborted"] = True
                keep = False
            return keep
        except asyncio.CancelledError:
            entry["aborted"] = True
            raise
        finally:
            self._inflight -= 1
            entry["end"] = time.monotonic()
            self._log.append(entry)


# ----- analysis --------------------------------------------------------

# Times are whole milliseconds as floats: 1.045 - 0.045 is 0.99999...,
# which is 1.000 s, not a gap under it.
EPSILON = 1e-9


def windows_max(times, width=1.0):
    """Most of the sorted times in any window [t, t + width)."""
    best = 0
    j = 0
    for i, t in enumerate(times):
        while times[j] <= t - width + EPSILON:
            j += 1
        best = max(best, i - j + 1)
    return best


def inflight_profile(intervals):
    """(peak, time-weighted mean) of overlapping [start, end] intervals,
    over [first start, last end]. An end at the same instant as another
    interval's start is taken first (a back-to-back request is not
    overlap); an interval of zero length still counts once."""
    events = []
    for s, e in intervals:
        events.append((s, 1, 1))
        events.append((e, 0, -1) if e > s else (s, 2, -1))
    if not events:
        return 0, 0.0
    events.sort()
    level = peak = 0
    area = 0.0
    prev = events[0][0]
    for t, _, d in events:
        area += level * (t - prev)
        prev = t
        level += d
        peak = max(peak, level)
    span = events[-1][0] - events[0][0]
    return peak, (area / span if span > 0 else float(peak))


def analyse(log, delay=1.0, expected=None, tolerance=0.0, since=None,
            until=None):
    """Figures of an access log (LoadServer.log(), or any list of dicts
    with host, path, start, end, status, inflight).

    delay: the politeness delay; a same-site gap counts as too short when
    it is under delay - tolerance (tolerance: the log's resolution).
    expected: {(host, path)} that exist, for coverage. since/until: keep
    only requests that arrived in [since, until) (gaps are still computed
    from every request, so that nothing hides at the border)."""
    log = sorted(log, key=lambda r: r["start"])
    starts = {}
    for r in log:
        starts.setdefault(r["host"], []).append(r["start"])
    shortest = math.inf
    short = []
    for host, ts in starts.items():
        for a, b in zip(ts, ts[1:]):
            shortest = min(shortest, b - a)
            if b - a < delay - tolerance - EPSILON:
                short.append((host, b - a, a))
    per_window = max((windows_max(ts, delay) for ts in starts.values()),
                     default=0)
    sel = [r for r in log
           if (since is None or r["start"] >= since)
           and (until is None or r["start"] < until)]
    n = len(sel)
    status = Counter(r["status"] for r in sel)
    peak, mean = inflight_profile(
        [(r["start"], r["end"] if r["end"] is not None else r["start"])
         for r in sel])
    ok = {(r["host"], r["path"]) for r in log
          if r["status"] == 200 and not r.get("aborted")}
    out = {
        "requests": n,
        "status": dict(status),
        "share_503": status.get(503, 0) / n if n else 0.0,
        "share_5xx": sum(c for s, c in status.items()
                         if s is not None and 500 <= s < 600) / n
        if n else 0.0,
        "starts": starts,
        "sites": len(starts),
        "gaps_under": len(short),
        "gap_shortest": shortest,
        "gap_sites": sorted({h for h, _, _ in short}),
        "gaps_short": sorted(short, key=lambda x: x[1])[:10],
        "max_per_window": per_window,
        "inflight_peak": peak,
        "inflight_mean": mean,
        "inflight_arrival_max": max(
            (r["inflight"] for r in sel if r.get("inflight") is not None),
            default=None),
        "first": sel[0]["start"] if sel else None,
        "last": sel[-1]["start"] if sel else None,
    }
    if sel:
        t0 = sel[0]["start"]
        rate = [0] * (int(sel[-1]["start"] - t0) + 1)
        for r in sel:
            rate[int(r["start"] - t0)] += 1
        out["rate"] = rate
        out["duration"] = sel[-1]["start"] - t0
        out["rate_steady"] = steady_rate(sel)
    else:
        out["rate"], out["duration"], out["rate_steady"] = [], 0.0, 0.0
    if expected is not None:
        missing = set(expected) - ok
        out["coverage"] = 1 - len(missing) / len(expected) if expected \
            else 1.0
        out["missing"] = sorted(missing)
    return out


def steady_rate(log, lo=0.2, hi=0.8):
    """Requests per second between the moment lo of the requests were
    done (answered) and the moment hi of them were: the crawl's pace once
    it has started and before its tail."""
    ends = sorted(r["end"] if r["end"] is not None else r["start"]
                  for r in log)
    n = len(ends)
    if n < 5:
        return 0.0
    i = max(0, math.ceil(lo * n) - 1)
    j = max(i + 1, math.ceil(hi * n) - 1)
    span = ends[j] - ends[i]
    return (j - i) / span if span > 0 else math.inf


def summary(a, inflight=True):
    """One paragraph of figures for a test's output (inflight=False leaves
    out the in-flight line, meaningless for a log with millisecond
    resolution of requests that take no time)."""
    st = ", ".join(f"{k}: {v}" for k, v in sorted(
        a["status"].items(), key=lambda kv: (kv[0] is None, kv[0] or 0)))
    lines = [
        f"requests {a['requests']} to {a['sites']} sites ({st}); "
        f"503 share {a['share_503']:.1%}",
        f"in flight: peak {a['inflight_peak']}, mean "
        f"{a['inflight_mean']:.2f}"
        + ("" if a["inflight_arrival_max"] is None else
           f", most at an arrival {a['inflight_arrival_max']}"),
        f"same-site gaps under 1 s: {a['gaps_under']} "
        f"(shortest {a['gap_shortest']:.4f} s, sites affected "
        f"{len(a['gap_sites'])}); most requests to one site in 1 s: "
        f"{a['max_per_window']}",
        f"pace: {a['requests']} requests in {a['duration']:.1f} s, "
        f"steady {a['rate_steady']:.1f}/s; per second: "
        f"{' '.join(map(str, a['rate'][:60]))}"
        f"{' ...' if len(a['rate']) > 60 else ''}",
    ]
    if not inflight:
        del lines[1]
    if "coverage" in a:
        miss = a["missing"]
        lines.append(f"coverage {a['coverage']:.1%} ({len(miss)} missing"
                     f"{': ' + str(miss[:5]) if miss else ''})")
    return "\n".join("  " + s for s in lines)


def promise_problems(a, rc, took, err):
    """What breaks heed's promise in figures from analyse() (with
    expected=) of a crawl that exited rc after took seconds (None: timed
    out; err: its stderr): heed failing, a same-site gap under the delay,
    two requests to one site within it, a page never answered 200."""
    problems = []
    if rc != 0:
        problems.append(f"heed exit {rc} after {took:.0f} s"
                        + (" (timed out)" if rc is None else "")
                        + (f"; stderr: {err.strip()[-300:]}" if err.strip()
                           else ""))
    if a["gaps_under"]:
        problems.append(
            f"{a['gaps_under']} same-site gaps under 1 s on "
            f"{len(a['gap_sites'])} sites, shortest "
            f"{a['gap_shortest']:.4f} s (e.g. {a['gaps_short'][:3]})")
    if a["max_per_window"] > 1:
        problems.append(f"{a['max_per_window']} requests to one site "
                        "within 1 s")
    if a["coverage"] < 1:
        problems.append(f"coverage {a['coverage']:.1%}: "
                        f"{len(a['missing'])} URLs never answered 200 "
                        f"(e.g. {a['missing'][:3]})")
    return problems


# ----- self-test -------------------------------------------------------

def _self_test():
    def r(host, path, start, end, status=200, inflight=1):
        return {"host": host, "path": path, "start": start, "end": end,
                "status": status, "inflight": inflight}

    # Two sites; a: 3 requests 1 s apart; b: one gap of 0.5 s.
    log = [r("a", "/robots.txt", 0.0, 0.1), r("a", "/", 1.0, 1.1),
           r("a", "/p/0.html", 2.0, 2.5),
           r("b", "/robots.txt", 0.05, 0.3, inflight=2),
           r("b", "/", 0.55, 0.6, status=503),
           r("b", "/", 1.6, 1.7)]
    a = analyse(log, expected={("a", "/robots.txt"), ("a", "/"),
                               ("a", "/p/0.html"), ("b", "/robots.txt"),
                               ("b", "/"), ("b", "/p/0.html")})
    assert a["requests"] == 6, a
    assert a["status"] == {200: 5, 503: 1}, a["status"]
    assert abs(a["share_503"] - 1 / 6) < 1e-9
    assert a["gaps_under"] == 1 and a["gap_sites"] == ["b"], a
    assert abs(a["gap_shortest"] - 0.5) < 1e-9, a["gap_shortest"]
    assert a["max_per_window"] == 2, a["max_per_window"]
    assert a["starts"]["a"] == [0.0, 1.0, 2.0]
    assert a["coverage"] == 5 / 6 and a["missing"] == [("b", "/p/0.html")]
    # Overlaps: [0,0.1] [0.05,0.3]: peak 2; back-to-back ends/starts at
    # 1.0/1.1 do not overlap.
    assert a["inflight_peak"] == 2, a["inflight_peak"]
    busy = 0.1 + 0.1 + 0.5 + 0.25 + 0.05 + 0.1  # the intervals' lengths
    assert abs(a["inflight_mean"] - busy / 2.5) < 1e-9, a["inflight_mean"]
    assert a["rate"] == [3, 2, 1], a["rate"]
    assert a["inflight_arrival_max"] == 2

    # Exactly 1 s apart is polite: no short gap, one request per window.
    ok = [r("c", "/", float(i), i + 0.2) for i in range(5)]
    b = analyse(ok)
    assert b["gaps_under"] == 0 and b["max_per_window"] == 1, b
    assert b["gap_shortest"] == 1.0
    # 0.9995 s is too short with no tolerance, fine with 1 ms.
    near = [r("c", "/", 0.0, 0.1), r("c", "/x", 0.9995, 1.1)]
    assert analyse(near)["gaps_under"] == 1
    assert analyse(near, tolerance=0.001)["gaps_under"] == 0
    assert windows_max([0.0, 0.9995]) == 2 and windows_max([0.0, 1.0]) == 1
    assert windows_max([0, 0.2, 0.4, 1.3, 1.35, 1.39, 1.9]) == 4
    # Zero-length intervals (a log with millisecond resolution) count.
    assert inflight_profile([(1.0, 1.0), (1.0, 1.0), (2.0, 2.0)])[0] == 2
    assert inflight_profile([(0.0, 1.0), (1.0, 2.0)]) == (1, 1.0)
    assert inflight_profile([(0.0, 2.0), (1.0, 1.0)])[0] == 2

    # since/until select arrivals; gaps still see every request.
    c = analyse(log, since=1.0)
    assert c["requests"] == 3 and c["gaps_under"] == 1, c

    # Steady rate: 100 requests, 10 per second, ends evenly spaced.
    even = [r(f"s{i % 10}", "/", i / 10, i / 10 + 0.05) for i in range(100)]
    sr = steady_rate(even)
    assert abs(sr - 10.0) < 0.2, sr
    print("analyse: ok")

    # A live server: keep-alive, virtual hosts, 404s, 503 above capacity,
    # Connection: close, a schedule, and kernel arrival stamps.
    import http.client
    port = _free_port("127.0.0.1")
    with LoadServer("127.0.0.1", port, sites=3, pages=2, base_latency=0.05,
                    knee=1, growth=0.1, refuse_above=2, retry_after=7,
                    schedule=[(2.0, {"refuse_above": None})]) as srv:
        h = srv.names[1]
        t_first = time.monotonic()
        c1 = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        c1.connect()
        t_send = time.monotonic()
        for path, want, ctype in [
                ("/robots.txt", 200, "text/plain"),
                ("/", 200, "text/html; charset=utf-8"),
                ("/p/1.html", 200, "text/html; charset=utf-8"),
                ("/p/2.html", 404, "text/plain"),
                ("/sitemap.xml", 404, "text/plain")]:
            t = time.monotonic()
            c1.request("GET", path, headers={"Host": f"{h}:{port}",
                                             "User-Agent": "selftest/1"})
            resp = c1.getresponse()
            body = resp.read()
            assert resp.status == want, (path, resp.status)
            assert resp.getheader("Content-Type") == ctype
            assert int(resp.getheader("Content-Length")) == len(body)
            assert time.monotonic() - t >= 0.045, path
        c1.request("POST", "/", body=b"x=1&y=2", headers={"Host": h})
        resp = c1.getresponse()
        resp.read()
        assert resp.status == 405, resp.status
        c1.request("GET", "/", headers={"Host": h})
        assert b"/p/1.html" in c1.getresponse().read()
        c1.request("GET", "/p/0.html", headers={"Host": "other.test"})
        resp = c1.getresponse()
        resp.read()
        assert resp.status == 404
        c1.request("GET", "/", headers={"Host": h, "Connection": "close"})
        resp = c1.getresponse()
        resp.read()
        assert resp.getheader("Connection") == "close"
        # Four at once: 2 answered (the 2nd slower), 2 refused.
        import concurrent.futures as cf

        def one(i):
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            c.request("GET", "/", headers={"Host": srv.names[i % 3]})
            resp = c.getresponse()
            resp.read()
            c.close()
            return resp.status, resp.getheader("Retry-After")
        barrier_log = len(srv.log())
        with cf.ThreadPoolExecutor(4) as ex:
            got = sorted(ex.map(one, range(4)), key=str)
        assert got.count((503, "7")) >= 1, got
        assert time.monotonic() < t_first + 1.9, "too slow for the test"
        time.sleep(t_first + 2.1 - time.monotonic())  # refusal lifted
        with cf.ThreadPoolExecutor(4) as ex:
            got2 = list(ex.map(one, range(4)))
        assert all(s == 200 for s, _ in got2), got2
        log = srv.log()
        assert len(srv.changes()) == 1
    assert [e["conn"] for e in log[:7]] == [1] * 7, log[:7]
    # The arrival is the kernel's stamp: just after the client sent.
    assert 0 <= log[0]["start"] - t_send < 0.005, log[0]["start"] - t_send
    assert all(e["user_agent"] == "selftest/1" for e in log[:5])
    assert all(e["end"] >= e["start"] for e in log)
    burst = log[barrier_log:barrier_log + 4]
    assert max(e["inflight"] for e in burst) >= 3, burst
    a = analyse(log, expected=srv.expected())
    assert (h, "/p/1.html") not in a["missing"]
    print(summary(a))
    print("live server: ok")


def _free_port(host):
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


if __name__ == "__main__" and "--self-test" in sys.argv:
    _self_test()
