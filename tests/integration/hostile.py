"""Scripted hostile HTTP servers on loopback, for heed's hostile suite
(test_hostile.py).

A HostileServer binds one loopback address and port and answers each
request by calling the handler its script names for the path. A handler
gets an Exchange, writes whatever bytes it likes (a whole answer, a status
line dripped one byte a second, an endless body, a reset) and returns True
to keep the connection for the next request or False to close it:

    with HostileServer("127.0.0.101", port, {
            "/robots.txt": ok(b"User-agent: *\\nAllow: /\\n", TEXT),
            "/": drip_body(b"<html>...", interval=0.5),
            "/trap/*": trap_handler,     # a key ending in * is a prefix
    }) as srv:
        ...run heed...
    for r in srv.log(): print(r["path"], r["start"], r["sent"], r["gone"])

The log is the witness of every assertion: one dict per request with
  start   the kernel's receive time of the request's first bytes
          (SO_TIMESTAMPNS, on time.monotonic()'s clock), so that gaps
          between requests do not depend on how busy this server is;
  host    the Host header without its port; path (no query), target
          (as sent), method, version, conn (connection number),
          headers (lower-cased names);
  sent    bytes of the answer written to the socket;
  sent_at monotonic time the last send() of the answer was done (None:
          nothing sent), the earliest the client could hold the answer;
  gone    monotonic time the client was seen closing the connection
          while the handler was still at work (None: never seen);
  end     monotonic time the handler returned.

Every loop is bounded: by the client going away, by close(), and by
max_seconds after start (the server then stops by itself); a send never
blocks more than a second at a time. Nothing here resolves names or talks
to anything but the client that connected.
"""

import ctypes
import select
import socket
import struct
import threading
import time
import zlib

from heedtest import SO_TIMESTAMPNS, kernel_arrival_ns


HTML = "text/html; charset=utf-8"
TEXT = "text/plain"
XML = "application/xml"

# Paths heed must never request (docs/crawling.md: media, fonts, archives,
# documents are not queued; links from media elements never extracted).
MEDIA_EXTENSIONS = ("mp4", "m4v", "webm", "mkv", "mov", "avi", "flv", "mp3",
                    "m4a", "ogg", "oga", "opus", "wav", "flac", "aac", "jpg",
                    "jpeg", "png", "gif", "webp", "avif", "bmp", "ico", "svg",
                    "tif", "tiff", "woff", "woff2", "ttf", "otf", "zip",
                    "tar", "rar", "7z", "iso", "pdf", "exe", "dmg")


def is_media(path):
    """True when the path (without query) ends in a media extension."""
    last = path.split("?", 1)[0].rsplit("/", 1)[-1]
    return "." in last and last.rsplit(".", 1)[1].lower() in MEDIA_EXTENSIONS


REASONS = {200: "OK", 301: "Moved Permanently", 302: "Found",
           404: "Not Found", 500: "Internal Server Error",
           502: "Bad Gateway", 503: "Service Unavailable",
           504: "Gateway Timeout"}


def head(status=200, headers=(), reason=None, version="HTTP/1.1"):
    """The bytes of a status line and header lines (a list of (name,
    value), repeats allowed, values str or bytes), ending the head."""
    out = [f"{version} {status} {reason or REASONS.get(status, 'X')}\r\n"
           .encode("latin-1")]
    for k, v in headers:
        if isinstance(v, str):
            v = v.encode("latin-1")
        out.append(k.encode("latin-1") + b": " + v + b"\r\n")
    out.append(b"\r\n")
    return b"".join(out)


class Request:
    def __init__(self, raw):
        text = raw.decode("latin-1")
        lines = text.split("\r\n")
        parts = lines[0].split(" ")
        self.method = parts[0]
        self.target = parts[1] if len(parts) > 1 else ""
        self.version = parts[2] if len(parts) > 2 else "HTTP/1.0"
        self.path = self.target.split("?", 1)[0]
        self.query = self.target.split("?", 1)[1] if "?" in self.target \
            else ""
        self.headers = {}
        for line in lines[1:]:
            if ":" in line:
                k, v = line.split(":", 1)
                self.headers[k.strip().lower()] = v.strip()
        host = self.headers.get("host", "").lower()
        self.host = host.split("]")[0] + "]" if host.startswith("[") \
            else host.split(":")[0]


class Exchange:
    """One request and the tools to answer it (see the module's doc)."""

    def __init__(self, server, sock, req, entry):
        self.server = server
        self.sock = sock
        self.req = req
        self.entry = entry

    @property
    def stopping(self):
        return self.server._stop.is_set()

    def _client_gone(self):
        """True when the client closed (EOF or reset) its side."""
        try:
            r, _, _ = select.select([self.sock], [], [], 0)
            if not r:
                return False
            data = self.sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT)
            return data == b""
        except BlockingIOError:
            return False
        except OSError:
            return True

    def _mark_gone(self):
        if self.entry["gone"] is None:
            self.entry["gone"] = time.monotonic()
        return False

    def send(self, data):
        """Writes data; False when the client went away or the server is
        stopping (what was written is counted in the log's "sent")."""
        view = memoryview(data)
        while view:
            if self.stopping:
                return False
            try:
                _, w, _ = select.select([], [self.sock], [], 1.0)
                if not w:
                    if self._client_gone():
                        return self._mark_gone()
                    continue
                n = self.sock.send(view[:65536], socket.MSG_DONTWAIT)
            except BlockingIOError:
                continue
            except OSError:
                return self._mark_gone()
            self.entry["sent"] += n
            view = view[n:]
        self.entry["sent_at"] = time.monotonic()
        return True

    def wait(self, seconds):
        """Waits seconds, or less: False as soon as the client goes away
        or the server stops; True after the full wait."""
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return True
            if self.stopping:
                return False
            try:
                r, _, _ = select.select([self.sock], [], [], min(left, 0.1))
            except OSError:
                return self._mark_gone()
            if r and self._client_gone():
                return self._mark_gone()

    def drip(self, data, interval, step=1):
        """Sends data step bytes at a time, interval seconds apart."""
        for i in range(0, len(data), step):
            if not self.send(data[i:i + step]):
                return False
            if not self.wait(interval):
                return False
        return True

    def respond(self, status=200, body=b"", ctype=HTML, headers=(),
                reason=None, close=False):
        """A whole answer with Content-Length; returns keep-alive."""
        hs = [("Content-Type", ctype)] if ctype else []
        hs += list(headers) + [("Content-Length", str(len(body)))]
        if close:
            hs.append(("Connection", "close"))
        body = body if self.req.method != "HEAD" else b""
        return self.send(head(status, hs, reason) + body) and not close

    def reset(self):
        """Closes the connection with a TCP reset (RST)."""
        try:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                 struct.pack("ii", 1, 0))
        except OSError:
            pass
        return False


def reserve_port(address, port=0):
    """A TCP socket bound to address and port (0: any free one), not yet
    listening: it holds the port for the HostileServer it is given to."""
    sock = socket.socket(socket.AF_INET6 if ":" in address
                         else socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((address, port))
    return sock


class HostileServer:
    """See the module's doc. script: {path or "prefix*": handler};
    default: the handler for paths not in the script (404)."""

    def __init__(self, address, port, script, default=None,
                 max_seconds=150, sock=None):
        self.address = address
        self.port = port
        self.script = dict(script)
        self.default = default or not_found
        self.max_seconds = max_seconds
        self._log = []
        self._conns = 0
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._threads = []
        # sock: one reserve_port() bound, so that nothing else could take
        # the port between choosing it and listening on it.
        self.sock = sock or reserve_port(address, port)
        # Stamps every packet from now on; accepted sockets inherit it.
        self.sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
        self.sock.listen(64)
        self.sock.settimeout(0.2)
        self.started = time.monotonic()
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def url(self, path="/", host=None):
        return f"http://{host or self.address}:{self.port}{path}"

    def log(self):
        with self._lock:
            return [dict(e) for e in self._log]

    def _handler(self, path):
        if path in self.script:
            return self.script[path]
        best = None
        for key in self.script:
            if key.endswith("*") and path.startswith(key[:-1]):
                if best is None or len(key) > len(best):
                    best = key
        return self.script[best] if best else self.default

    def _accept(self):
        while not self._stop.is_set():
            if time.monotonic() - self.started > self.max_seconds:
                self._stop.set()
                break
            try:
                conn, _ = self.sock.accept()
            except (socket.timeout, OSError):
                continue
            with self._lock:
                self._conns += 1
                n = self._conns
            t = threading.Thread(target=self._serve, args=(conn, n),
                                 daemon=True)
            t.start()
            self._threads.append(t)

    def _recv(self, conn):
        """(data, kernel arrival on the monotonic clock); b"" at EOF,
        None when the server stops or the client stays silent 30 s."""
        deadline = time.monotonic() + 30
        while not self._stop.is_set() and time.monotonic() < deadline:
            r, _, _ = select.select([conn], [], [], 0.2)
            if not r:
                continue
            data, anc, _, _ = conn.recvmsg(65536, 64)
            return data, kernel_arrival_ns(anc, time.monotonic_ns()) / 1e9
        return None

    def _serve(self, conn, n):
        buf, start = b"", None
        try:
            conn.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            while not self._stop.is_set():
                while b"\r\n\r\n" not in buf:
                    if len(buf) > 1 << 20:
                        return
                    got = self._recv(conn)
                    if not got or not got[0]:
                        return
                    if not buf:
                        start = got[1]
                    buf += got[0]
                raw, buf = buf.split(b"\r\n\r\n", 1)
                req = Request(raw)
                entry = {"start": start, "host": req.host, "path": req.path,
                         "target": req.target, "method": req.method,
                         "version": req.version, "conn": n,
                         "headers": req.headers, "sent": 0, "gone": None,
                         "sent_at": None, "end": None}
                with self._lock:
                    self._log.append(entry)
                start = time.monotonic() if buf else None
                ex = Exchange(self, conn, req, entry)
                try:
                    keep = self._handler(req.path)(ex)
                finally:
                    entry["end"] = time.monotonic()
                if not keep:
                    return
        except OSError:
            pass
        finally:
            try:
                conn.close()
            except OSError:
                pass

    def close(self):
        self._stop.set()
        self._thread.join(5)
        for t in self._threads:
            t.join(5)
        self.sock.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


# ----- handlers: small factories, each returning handler(ex) -> keep ----

def not_found(ex):
    return ex.respond(404, b"not found\n", TEXT)


def ok(body, ctype=HTML, headers=(), status=200, reason=None):
    """A whole answer; body may be a callable(ex) -> bytes."""
    def h(ex):
        b = body(ex) if callable(body) else body
        return ex.respond(status, b, ctype, headers, reason)
    return h


def raw(data, then="close"):
    """Sends data exactly as given, then closes ("close") or resets
    ("reset") the connection."""
    def h(ex):
        ex.send(data)
        return ex.reset() if then == "reset" else False
    return h


def redirect(location, code=302):
    loc = location.encode("latin-1") if isinstance(location, str) \
        else location

    def h(ex):
        return ex.respond(code, b"", None, [("Location", loc)])
    return h


def seq(*handlers):
    """The n-th request of the path gets the n-th handler (the last one
    repeats)."""
    count = [0]
    lock = threading.Lock()

    def h(ex):
        with lock:
            i = min(count[0], len(handlers) - 1)
            count[0] += 1
        return handlers[i](ex)
    return h


def stream(status, headers, chunks, chunked=False, then="close", pace=0,
           sndbuf=65536):
    """Head, then every chunk of the iterable chunks (or of chunks(), a
    generator function), as chunked transfer coding when chunked, pace
    seconds apart, until the client goes away; then closes. A small send
    buffer (sndbuf) keeps "sent" close to what the client took."""
    def h(ex):
        if sndbuf:
            ex.sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, sndbuf)
        hs = list(headers)
        if chunked:
            hs.append(("Transfer-Encoding", "chunked"))
        if not ex.send(head(status, hs)):
            return False
        for c in chunks() if callable(chunks) else chunks:
            if chunked:
                c = b"%x\r\n" % len(c) + c + b"\r\n"
            if not ex.send(c):
                return False
            if pace and not ex.wait(pace):
                return False
        if chunked:
            ex.send(b"0\r\n\r\n")
        return ex.reset() if then == "reset" else False
    return h


def repeat(block, total):
    """A generator of total bytes made of block, in pieces of 64 KiB or
    more (the memory of the test stays small however large total is)."""
    piece = block * max(1, (1 << 16) // len(block))

    def gen():
        left = total
        while left > 0:
            yield piece[:left]
            left -= len(piece)
    return gen


# ----- pages ------------------------------------------------------------

def html(title, links=(), extra="", head_extra=""):
    """A small HTML page with a title, links (a list of hrefs), media
    elements and links heed must never request, and extra body HTML."""
    a = "".join(f'<a href="{h}">{i}</a>\n' for i, h in enumerate(links))
    return (f"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
            f"<title>{title}</title>{head_extra}</head><body>\n{a}"
            f"<img src=\"/media/pic.jpg\"><video src=\"/media/clip.mp4\">"
            f"</video><a href=\"/media/film.mp4\">film</a>\n"
            f"{extra}</body></html>\n").encode()


def robots_allow(extra=""):
    return ok(("User-agent: *\nAllow: /\n" + extra).encode(), TEXT)


# ----- bombs ------------------------------------------------------------

_bombs = {}
_bomb_lock = threading.Lock()


def gzip_bomb(prefix=b"", fill=b" ", mib=1024, suffix=b""):
    """gzip bytes of prefix + mib MiB of fill + suffix (a 1 GiB bomb is
    about 1 MB). Built from one full-flushed deflate block repeated, so it
    costs a fraction of a second; cached."""
    key = ("gzip", prefix, fill, mib, suffix)
    with _bomb_lock:
        if key in _bombs:
            return _bombs[key]
        block = fill * ((1 << 20) // len(fill))
        c = zlib.compressobj(9, zlib.DEFLATED, -15)
        first = c.compress(prefix) + c.flush(zlib.Z_FULL_FLUSH)
        body = c.compress(block) + c.flush(zlib.Z_FULL_FLUSH)
        tail = c.compress(suffix) + c.flush(zlib.Z_FINISH)
        crc = zlib.crc32(prefix)
        for _ in range(mib):
            crc = zlib.crc32(block, crc)
        crc = zlib.crc32(suffix, crc)
        size = len(prefix) + mib * len(block) + len(suffix)
        out = (b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff" + first +
               body * mib + tail +
               struct.pack("<II", crc, size & 0xffffffff))
        _bombs[key] = out
        return out


def _brotli_lib():
    try:
        import brotli  # Debian's python3-brotli, when this Python has it
        return ("module", brotli)
    except ImportError:
        pass
    for name in ("libbrotlienc.so.1", "libbrotlienc.so"):
        try:
            return ("ctypes", ctypes.CDLL(name))
        except OSError:
            continue
    return None


def _brotli_ctypes(lib, chunks, quality):
    vp, sz = ctypes.c_void_p, ctypes.c_size_t
    lib.BrotliEncoderCreateInstance.restype = vp
    lib.BrotliEncoderCreateInstance.argtypes = [vp, vp, vp]
    lib.BrotliEncoderSetParameter.argtypes = [vp, ctypes.c_int,
                                              ctypes.c_uint32]
    lib.BrotliEncoderCompressStream.argtypes = [
        vp, ctypes.c_int, ctypes.POINTER(sz), ctypes.POINTER(vp),
        ctypes.POINTER(sz), ctypes.POINTER(vp), vp]
    lib.BrotliEncoderHasMoreOutput.argtypes = [vp]
    lib.BrotliEncoderIsFinished.argtypes = [vp]
    lib.BrotliEncoderDestroyInstance.argtypes = [vp]
    st = lib.BrotliEncoderCreateInstance(None, None, None)
    if not st:
        raise RuntimeError("BrotliEncoderCreateInstance failed")
    lib.BrotliEncoderSetParameter(st, 1, quality)  # BROTLI_PARAM_QUALITY
    lib.BrotliEncoderSetParameter(st, 2, 24)  # BROTLI_PARAM_LGWIN
    out = []
    obuf = ctypes.create_string_buffer(1 << 16)

    def run(data, op):  # op: 0 PROCESS, 2 FINISH
        ibuf = ctypes.create_string_buffer(data, len(data)) if data else None
        avail_in = sz(len(data))
        next_in = vp(ctypes.addressof(ibuf) if ibuf else 0)
        for _ in range(1 << 20):  # bounded: output drains 64 KiB a turn
            avail_out = sz(len(obuf))
            next_out = vp(ctypes.addressof(obuf))
            if not lib.BrotliEncoderCompressStream(
                    st, op, ctypes.byref(avail_in), ctypes.byref(next_in),
                    ctypes.byref(avail_out), ctypes.byref(next_out), None):
                raise RuntimeError("BrotliEncoderCompressStream failed")
            out.append(obuf.raw[:len(obuf) - avail_out.value])
            if avail_in.value == 0 and \
                    not lib.BrotliEncoderHasMoreOutput(st) and \
                    (op != 2 or lib.BrotliEncoderIsFinished(st)):
                return
        raise RuntimeError("brotli encoder did not finish")
    try:
        for c in chunks:
            run(c, 0)
        run(b"", 2)
    finally:
        lib.BrotliEncoderDestroyInstance(st)
    return b"".join(out)


def brotli_bomb(prefix=b"", fill=b" ", mib=512, suffix=b""):
    """(bytes, None) of a brotli stream of prefix + mib MiB of fill +
    suffix (512 MiB make well under 1 KB), or (None, reason) when neither
    python3-brotli nor libbrotlienc is available. Cached."""
    key = ("br", prefix, fill, mib, suffix)
    with _bomb_lock:
        if key in _bombs:
            return _bombs[key], None
        found = _brotli_lib()
        if not found:
            return None, ("no brotli encoder: neither the brotli module "
                          "(python3-brotli) nor libbrotlienc.so.1")
        block = fill * ((1 << 20) // len(fill))
        chunks = [prefix] + [block] * mib + [suffix]
        kind, lib = found
        if kind == "module":
            c = lib.Compressor(quality=5, lgwin=24)
            out = b"".join(c.process(x) for x in chunks) + c.finish()
        else:
            out = _brotli_ctypes(lib, iter(chunks), 5)
        _bombs[key] = out
        return out, None
