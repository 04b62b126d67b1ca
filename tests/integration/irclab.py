"""IRC lab for heed's integration tests: real servers and a scripted one.

Everything listens on 127.0.0.1 high ports chosen at random, lives in a
temporary folder and is stopped by PID when the test ends. Python 3 stdlib
only.

- NgircdServer: a real ngircd in the foreground (-n) with a generated config;
  two can be linked so LINKS shows both.
- InspircdServer: a real InspIRCd 3 (--nofork --runasroot).
- Client: a minimal IRC client that registers, joins channels and sets topics,
  so the lists heed reads hold real channels.
- ScriptedServer: a small IRC server whose replies each test chooses
  (CRAWLER variants, LIST refusals, floods, drops); it logs every line it
  receives, so courtesy is asserted from the server's side.
"""

import os
import resource
import shutil
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time

HEED = os.environ.get("HEED", "heed")
LOOPBACK = "127.0.0.1"


def free_port():
    with socket.socket() as s:
        s.bind((LOOPBACK, 0))
        return s.getsockname()[1]


def wait_port(port, timeout=15.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((LOOPBACK, port), timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nothing listens on port {port} after {timeout}s")


def no_core_files():
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


class Lab:
    """A temporary folder and the processes started in it."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="heed-irc-")
        self.procs = []
        self.closers = []

    def path(self, *parts):
        return os.path.join(self.dir, *parts)

    def cert(self):
        """A self-signed certificate for localhost/127.0.0.1."""
        cert, key = self.path("cert.pem"), self.path("key.pem")
        if not os.path.exists(cert):
            subprocess.run(
                ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes",
                 "-keyout", key, "-out", cert, "-days", "2",
                 "-subj", "/CN=localhost",
                 "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
                check=True, capture_output=True, timeout=60)
        return cert, key

    def spawn(self, argv, log_name):
        log = open(self.path(log_name), "wb")
        # No core files from servers stopped mid-way (InspIRCd may dump one
        # on SIGTERM), and whatever they write stays in the lab folder.
        p = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT,
                             stdin=subprocess.DEVNULL, cwd=self.dir,
                             preexec_fn=no_core_files)
        self.procs.append(p)
        return p

    def close(self):
        for c in self.closers:
            try:
                c()
            except Exception:
                pass
        for p in self.procs:
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(5)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait(5)
        if os.environ.get("HEED_KEEP_LAB"):
            print("lab kept in", self.dir)
        else:
            shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def heed(lab, *args, store=None, timeout=300, check=None):
    """Runs heed with a store in the lab; returns (exit status, stdout)."""
    argv = [HEED] + list(args)
    if store is not None:
        argv += ["--store", store]
    env = dict(os.environ)
    t0 = time.monotonic()
    p = subprocess.run(argv, capture_output=True, timeout=timeout, env=env,
                       cwd=lab.dir)
    out = p.stdout.decode("utf-8", "replace")
    err = p.stderr.decode("utf-8", "replace")
    took = time.monotonic() - t0
    shown = out if len(out) < 1500 else out[:1500] + "[...]\n"
    sys.stdout.write(f"$ {' '.join(argv)}  ({took:.1f}s, exit {p.returncode})\n"
                     f"{shown}{err[-4000:]}")
    lab.last_stderr = err
    if check is not None and p.returncode != check:
        raise AssertionError(f"heed exited {p.returncode}, wanted {check}")
    return p.returncode, out


# ---- ngircd --------------------------------------------------------------

class NgircdServer:
    def __init__(self, lab, name, network="NgLab", tls=False, link=None,
                 max_list=None, operator=False):
        self.lab, self.name = lab, name
        self.port = free_port()
        self.tls_port = free_port() if tls else None
        self.network, self.link, self.max_list = network, link, max_list
        self.operator = operator
        self.my_pass = f"{name}-pass"

    def config(self):
        d = self.lab.path(f"ngircd-{self.name}")
        os.makedirs(os.path.join(d, "empty.d"), exist_ok=True)
        with open(os.path.join(d, "motd.txt"), "w") as f:
            f.write(f"ngircd lab server {self.name}\n")
        lines = [
            "[Global]", f"Name = {self.name}",
            f"Info = ngircd lab server {self.name}",
            "AdminInfo1 = IRC lab", "AdminInfo2 = loopback",
            "AdminEMail = nobody@localhost", f"Network = {self.network}",
            f"Listen = {LOOPBACK}", f"Ports = {self.port}",
            f"MotdFile = {d}/motd.txt",
            "[Limits]", "MaxConnectionsIP = 0",
        ]
        if self.max_list:
            lines.append(f"MaxListSize = {self.max_list}")
        lines += ["[Options]", f"IncludeDir = {d}/empty.d", "DNS = no",
                  "Ident = no", "PAM = no"]
        if self.tls_port:
            cert, key = self.lab.cert()
            lines += ["[SSL]", f"CertFile = {cert}", f"KeyFile = {key}",
                      f"Ports = {self.tls_port}"]
        if self.link:
            peer, connect = self.link
            lines += ["[Server]", f"Name = {peer.name}",
                      f"MyPassword = {self.name}-{peer.name}",
                      f"PeerPassword = {peer.name}-{self.name}"]
            if connect:
                lines += [f"Host = {LOOPBACK}", f"Port = {peer.port}"]
        if self.operator:
            lines += ["[Operator]", "Name = oper", "Password = operpass"]
        path = os.path.join(d, "ngircd.conf")
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        return path

    def start(self):
        conf = self.config()
        self.proc = self.lab.spawn(["/usr/sbin/ngircd", "-n", "-f", conf],
                                   f"ngircd-{self.name}.log")
        wait_port(self.port)
        return self


def link_ngircd(lab, network="NgLab", tls=False):
    """Two linked ngircd servers: A listens, B connects to A."""
    a = NgircdServer(lab, "a.ngircd.test", network, tls=tls)
    b = NgircdServer(lab, "b.ngircd.test", network)
    a.link, b.link = (b, False), (a, True)
    a.start()
    b.start()
    return a, b


# ---- InspIRCd ------------------------------------------------------------

class InspircdServer:
    def __init__(self, lab, name, network="Insp Lab", extra="",
                 modules=()):
        self.lab, self.name, self.network = lab, name, network
        self.port, self.tls_port = free_port(), free_port()
        self.extra, self.modules = extra, modules

    def start(self):
        d = self.lab.path(f"insp-{self.name}")
        os.makedirs(d, exist_ok=True)
        cert, key = self.lab.cert()
        moddir = os.path.join(d, "modules")
        os.makedirs(moddir, exist_ok=True)
        for so in os.listdir("/usr/lib/inspircd/modules"):
            dst = os.path.join(moddir, so)
            if not os.path.exists(dst):
                os.symlink(os.path.join("/usr/lib/inspircd/modules", so), dst)
        for so in self.modules:
            os.symlink(so, os.path.join(moddir, os.path.basename(so)))
        with open(os.path.join(d, "motd.txt"), "w") as f:
            f.write("InspIRCd lab\n")
        conf = f"""
<path configdir="{d}" datadir="{d}" logdir="{d}" runtimedir="{d}" moduledir="{moddir}">
<server name="{self.name}" description="InspIRCd lab server" network="{self.network}">
<admin name="Lab Admin" nick="labadmin" email="nobody@localhost">
<bind address="{LOOPBACK}" port="{self.port}" type="clients">
<bind address="{LOOPBACK}" port="{self.tls_port}" type="clients" sslprofile="Clients">
<connect name="main" allow="*" timeout="60" pingfreq="120" recvq="8192" softsendq="8192" hardsendq="1M" localmax="50" globalmax="50" useident="no" resolvehostnames="no" limit="100">
<files motd="{d}/motd.txt">
<pid file="{d}/inspircd.pid">
<dns server="127.0.0.1" timeout="1">
<log method="file" type="* -USERINPUT -USEROUTPUT" level="default" target="{d}/ircd.log">
<module name="ssl_gnutls">
<sslprofile name="Clients" provider="gnutls" certfile="{cert}" keyfile="{key}" cafile="" crlfile="" dhfile="" hash="sha256" requestclientcert="no">
<module name="cap"> <module name="botmode">
<options modesinlist="yes">
{self.extra}
"""
        path = os.path.join(d, "inspircd.conf")
        with open(path, "w") as f:
            f.write(conf)
        self.proc = self.lab.spawn(
            ["/usr/sbin/inspircd", "--runasroot", "--nofork",
             f"--config={path}"], f"insp-{self.name}.log")
        wait_port(self.port)
        return self


# ---- A client that creates channels ---------------------------------------

class Client:
    """Registers as nick, joins channels and sets their topics; stays
    connected (channels with no users vanish) until close()."""

    def __init__(self, port, nick):
        self.sock = socket.create_connection((LOOPBACK, port), timeout=20)
        self.buf = b""
        self.nick = nick
        self.send(f"NICK {nick}")
        self.send(f"USER {nick} 0 * :heed test client")
        self.wait_for(" 001 ")
        self.alive = True
        self.thread = threading.Thread(target=self._pong, daemon=True)

    def send(self, line):
        self.sock.sendall(line.encode() + b"\r\n")

    def lines(self):
        while b"\n" not in self.buf:
            data = self.sock.recv(65536)
            if not data:
                raise ConnectionError("server closed")
            self.buf += data
        line, self.buf = self.buf.split(b"\n", 1)
        return line.rstrip(b"\r").decode("utf-8", "replace")

    def wait_for(self, needle, timeout=20):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            line = self.lines()
            if line.startswith("PING"):
                self.send("PONG" + line[4:])
            if needle in line:
                return line
        raise TimeoutError(f"no '{needle}' from the server")

    def channel(self, name, topic):
        self.send(f"JOIN {name}")
        self.wait_for(f" 366 {self.nick} {name}")
        self.send(f"TOPIC {name} :{topic}")
        self.wait_for(" TOPIC ")

    def start_ponging(self):
        self.thread.start()

    def _pong(self):
        self.sock.settimeout(1)
        while self.alive:
            try:
                line = self.lines()
            except (socket.timeout, OSError):
                continue
            if line.startswith("PING"):
                try:
                    self.send("PONG" + line[4:])
                except OSError:
                    return

    def close(self):
        self.alive = False
        try:
            self.send("QUIT :bye")
        except OSError:
            pass
        self.sock.close()


# ---- The scripted server --------------------------------------------------

WELCOME = [
    ":{srv} 001 {nick} :Welcome to the scripted network {nick}",
    ":{srv} 002 {nick} :Your host is {srv}",
    ":{srv} 003 {nick} :This server was created today",
    ":{srv} 004 {nick} {srv} scripted-1.0 iB bklmnt",
]


class ScriptedServer:
    """An IRC server on loopback whose behaviour is given as options:

    isupport:   list of token strings, one 005 line each
    channels:   [(name, users, topic)] for LIST
    links:      [(name, hub, hops, info)] for LINKS
    list_mode:  "normal", "refuse_once" (InspIRCd NOTICE + empty list),
                "refuse_421" (UnrealIRCd, no 323), "drop" (close mid-LIST),
                "flood" (flood_count generated channels)
    register:   False to never send 001
    after_list_isupport: a 005 line sent right after LINKS

    Every received line is logged with its connection number and time
    (self.log: [(conn, monotonic time, line)]).
    """

    def __init__(self, lab, name="scripted.test", isupport=(),
                 channels=(), links=None, list_mode="normal",
                 register=True, flood_count=0, cap_ls=None, tls=False,
                 after_links_isupport=None):
        self.lab, self.srv = lab, name
        self.isupport = list(isupport)
        self.channels = list(channels)
        self.links = links if links is not None else [
            (name, name, 0, "scripted server")]
        self.list_mode, self.register = list_mode, register
        self.flood_count, self.cap_ls = flood_count, cap_ls
        self.after_links_isupport = after_links_isupport
        self.log, self.connections, self.lists = [], 0, 0
        self.lock = threading.Lock()
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind((LOOPBACK, 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        self.ssl_ctx = None
        if tls:
            cert, key = lab.cert()
            self.ssl_ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            self.ssl_ctx.load_cert_chain(cert, key)
        self.running = True
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()
        lab.closers.append(self.stop)

    def stop(self):
        self.running = False
        try:
            self.sock.close()
        except OSError:
            pass

    def received(self, conn=None):
        with self.lock:
            return [line for c, _, line in self.log
                    if conn is None or c == conn]

    def commands(self, conn=None):
        return [line.split(" ", 1)[0].upper() for line in self.received(conn)]

    def times(self, command):
        with self.lock:
            return [t for _, t, line in self.log
                    if line.split(" ", 1)[0].upper() == command]

    def _accept(self):
        self.sock.settimeout(0.5)
        while self.running:
            try:
                c, _ = self.sock.accept()
            except socket.timeout:
                continue
            except OSError:
                return
            with self.lock:
                self.connections += 1
                n = self.connections
            threading.Thread(target=self._serve, args=(c, n),
                             daemon=True).start()

    def _serve(self, c, n):
        try:
            if self.ssl_ctx:
                c = self.ssl_ctx.wrap_socket(c, server_side=True)
            Session(self, c, n).run()
        except (OSError, ssl.SSLError):
            pass
        finally:
            try:
                c.close()
            except OSError:
                pass


class Session:
    def __init__(self, server, sock, n):
        self.s, self.sock, self.n = server, sock, n
        self.nick, self.user, self.registered = None, False, False
        self.cap_open = False
        self.buf = b""
        self.lists = 0

    def send(self, line):
        self.sock.sendall(line.encode("utf-8", "surrogateescape") + b"\r\n")

    def fmt(self, line):
        return line.format(srv=self.s.srv, nick=self.nick or "*")

    def run(self):
        self.sock.settimeout(60)
        while True:
            data = self.sock.recv(65536)
            if not data:
                return
            self.buf += data
            while b"\n" in self.buf:
                raw, self.buf = self.buf.split(b"\n", 1)
                line = raw.rstrip(b"\r").decode("utf-8", "replace")
                with self.s.lock:
                    self.s.log.append((self.n, time.monotonic(), line))
                if self.handle(line) == "close":
                    return

    def welcome(self):
        if not self.s.register:
            self.send(f":{self.s.srv} NOTICE * :*** Looking up your hostname")
            return
        self.registered = True
        for line in WELCOME:
            self.send(self.fmt(line))
        for tokens in self.s.isupport:
            self.send(f":{self.s.srv} 005 {self.nick} {tokens} "
                      ":are supported by this server")
        self.send(f":{self.s.srv} 251 {self.nick} :There are 3 users and "
                  "1 invisible on 1 servers")
        self.send(f":{self.s.srv} 254 {self.nick} "
                  f"{len(self.s.channels)} :channels formed")
        self.send(f":{self.s.srv} 375 {self.nick} :- MOTD -")
        self.send(f":{self.s.srv} 376 {self.nick} :End of MOTD")

    def handle(self, line):
        cmd, _, rest = line.partition(" ")
        cmd = cmd.upper()
        if cmd == "CAP" and rest.startswith("LS"):
            self.cap_open = True
            caps = self.s.cap_ls or "multi-prefix"
            self.send(f":{self.s.srv} CAP * LS :{caps}")
        elif cmd == "CAP" and rest.startswith("END"):
            self.cap_open = False
        elif cmd == "NICK":
            self.nick = rest.strip().lstrip(":")
        elif cmd == "USER":
            self.user = True
        elif cmd == "PING":
            self.send(f":{self.s.srv} PONG {self.s.srv} {rest}")
        elif cmd == "QUIT":
            self.send(f"ERROR :Closing link: ({self.nick}) [Quit]")
            return "close"
        elif cmd == "LUSERS":
            self.send(f":{self.s.srv} 251 {self.nick} :There are 3 users "
                      "and 1 invisible on 1 servers")
        elif cmd == "LINKS":
            for name, hub, hops, info in self.s.links:
                self.send(f":{self.s.srv} 364 {self.nick} {name} {hub} "
                          f":{hops} {info}")
            self.send(f":{self.s.srv} 365 {self.nick} * :End of /LINKS")
            if self.s.after_links_isupport:
                self.send(f":{self.s.srv} 005 {self.nick} "
                          f"{self.s.after_links_isupport} :are supported")
        elif cmd == "LIST":
            return self.list()
        if (self.nick and self.user and not self.cap_open
                and not self.registered and cmd in ("NICK", "USER", "CAP")):
            self.welcome()
        return None

    def list(self):
        self.lists += 1
        mode, srv, nick = self.s.list_mode, self.s.srv, self.nick
        if mode == "refuse_once" and self.lists == 1:
            self.send(f":{srv} NOTICE {nick} :*** You cannot view the "
                      "channel list right now. Please try again in 2s.")
            self.send(f":{srv} 321 {nick} Channel :Users Name")
            self.send(f":{srv} 323 {nick} :End of channel list.")
            return None
        if mode == "refuse_421":
            self.send(f":{srv} 421 {nick} LIST :You must be connected for "
                      "a while before using this command")
            return None
        self.send(f":{srv} 321 {nick} Channel :Users Name")
        if mode == "flood":
            chunk = []
            for i in range(self.s.flood_count):
                chunk.append(f":{srv} 322 {nick} #flood{i} {i % 97} "
                             f":topic number {i}\r\n")
                if len(chunk) == 2000:
                    self.sock.sendall("".join(chunk).encode())
                    chunk = []
            self.sock.sendall("".join(chunk).encode())
        for i, (name, users, topic) in enumerate(self.s.channels):
            if mode == "drop" and i == len(self.s.channels) // 2:
                self.sock.shutdown(socket.SHUT_RDWR)
                return "close"
            self.send(f":{srv} 322 {nick} {name} {users} :{topic}")
        self.send(f":{srv} 323 {nick} :End of channel list.")
        return None


def run_checks(checks):
    """Runs named test functions, prints each result, exits 1 on failure."""
    failed = 0
    for fn in checks:
        t0 = time.monotonic()
        try:
            fn()
            print(f"ok   {fn.__name__} ({time.monotonic() - t0:.1f}s)")
        except Exception as e:  # report every check, then fail
            failed += 1
            print(f"FAIL {fn.__name__}: {type(e).__name__}: {e}")
            import traceback
            traceback.print_exc()
    sys.exit(1 if failed else 0)
