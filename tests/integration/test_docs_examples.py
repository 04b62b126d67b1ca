"""Every shell example in README.md and docs/*.md is run, and the docs are
checked for structure.

How a doc marks its examples
----------------------------

An example is a fenced code block (```sh, ```shell, ```console or a bare
```) with a line that starts with `heed ` or `$ heed `. Other blocks (other
shell commands, output, INI, C) are not examples and are not run.

Every example runs unless an HTML comment on the line(s) just before its
fence says otherwise (blank lines between are allowed):

    <!-- example: synopsis -->          a usage synopsis (CAPS placeholders,
                                        [optional] parts): not run, but
                                        every --option in it must exist
    <!-- example: skip (REASON) -->     not run, for the REASON given
                                        (e.g. "needs the internet")
    <!-- example: exit N -->            every command in the block exits N
                                        (the default is 0)

In a ```sh or bare block every line is a command: `# comments` and a
backslash at the end of a line work as in sh, `< FILE` reads standard input
from FILE, nothing else of sh does (no pipes, no variables). In a
```console block, lines starting with `$ ` are commands and the lines after
each one are the output it must print (standard output, then standard
error): a line `...` stands for any number of lines, `...` inside a line
for any text.

Where the examples run
----------------------

The examples of one doc run in order in one fresh folder (so a `heed stats`
sees what a `heed crawl` above it stored), which holds:

    heed.ini           the [identity] block of docs/configuration.md
    heed.db            the store (created by the first command that writes)
    robots.txt         examples/robots.txt
    page.html          a video page; sitemap.xml and sitemap.xml.gz
    crawler-ips.json   the ranges file shown in docs/verification.md
    networks.txt       two IRC networks, one per line
    etc/heed/heed.ini  examples/heed.ini (an example's /etc/heed/... path
                       is read from etc/heed/... here)

and where a dnsmasq started by this test answers, and nothing else does:

    www.example.org, news.example.net   small HTTPS sites on loopback, port
                                        443, certificate trusted via
                                        net.ca_file
    crawl-192-0-2-10.crawler.example.org  A 192.0.2.10 (and its PTR)
    any other name under example.org, example.net, example.com, .test
    and any other reverse name: NXDOMAIN

The runner changes only what it must: `heed` becomes the binary under test;
/etc/heed/ paths move into the folder; a command that can use the network
(crawl, site qualify, verify, dns, irc crawl/check, or one the runner does
not know) gets `--dns-server` pointing at the dnsmasq (replacing any the
example gives), and crawl and site qualify also get `--allow-private` and
the test certificate. The runner refuses, and the test fails with a
message naming the doc and line, an example that could reach the system
resolver or a non-loopback address: a command that can use the network but
whose --help lists no --dns-server, or a start URL naming a non-loopback
IP address. Its witness that --dns-server was obeyed is dnsmasq's own query
log: a network command must have asked it for the host of every URL it was
given (but a contact URL) and the reverse name of every IP address. If port
443 cannot be bound (not root), the sites use a free port and the runner
adds it to their URLs and --site values.

The structural checks: every markdown table has as many cells in each row as
in its header; every relative link points to a file that exists; every
`heed COMMAND ... --option` mentioned (in code spans and blocks) is in
`heed COMMAND --help`.

Docs other engineers are editing (docs/irc.md, acap.md, robots.md,
storage.md, security.md) are run too; a failure there that is known is
listed in KNOWN_DOC_FAILURES with its reason, and a listed failure that no
longer happens fails the test, so the list is kept true.
"""

import glob
import gzip
import os
import re
import shlex
import shutil
import socket
import subprocess
import tempfile
import time

from heedtest import (HEED, Checks, Dnsmasq, ScriptedHttpServer,
                      free_port_on, reverse_name)

SOURCE = os.environ.get("HEED_SOURCE_ROOT",
                        os.path.join(os.path.dirname(__file__), "..", ".."))

# (doc, "example", the example's first command line),
# (doc, "option", "heed COMMAND --option") or
# (doc, "table", the first 40 characters of the row) -> why it fails.
# Only for the docs other engineers are editing: each is reported to the
# lead instead of changing the doc here.
KNOWN_DOC_FAILURES = {
}

SITE_ADDRS = {"www.example.org": "127.0.0.171",
              "news.example.net": "127.0.0.172"}
VERIFY_HOSTS = {"crawl-192-0-2-10.crawler.example.org": ["192.0.2.10"]}
# Commands that never use the network; every other one (crawl, site
# qualify, verify, dns, irc crawl, irc check, any new one) may.
OFFLINE_COMMANDS = {"", "help", "version", "stats", "export", "page",
                    "extract", "robots check", "robots lint",
                    "robots explain", "site report", "site reset",
                    "irc list"}
NEEDS_PRIVATE = {"crawl", "site qualify"}
TWO_WORD = {"irc", "robots", "site", "sites"}
COMMAND_TIMEOUT = 30


def docs():
    files = ["README.md"] + sorted(
        os.path.relpath(p, SOURCE)
        for p in glob.glob(os.path.join(SOURCE, "docs", "*.md")))
    if os.path.exists(os.path.join(SOURCE, "CONTRIBUTING.md")):
        files.append("CONTRIBUTING.md")
    return files


def read(doc):
    with open(os.path.join(SOURCE, doc), encoding="utf-8") as f:
        return f.read().split("\n")


# ---------------------------------------------------------------- parsing

FENCE = re.compile(r"^(\s*)(```+|~~~+)\s*([\w-]*)")
MARK = re.compile(r"^\s*<!--\s*example:\s*(.*?)\s*-->\s*$")
HEED_LINE = re.compile(r"^(\$ )?heed( |$)")
SHELL_LANGS = {"", "sh", "shell", "console"}


class Block:
    def __init__(self, doc, line, lang, body, mark):
        self.doc, self.line, self.lang, self.body = doc, line, lang, body
        self.mark = mark  # the text after "example:", or None

    def is_example(self):
        return self.lang in SHELL_LANGS and \
            any(HEED_LINE.match(l) for l in self.body)

    def where(self):
        return f"{self.doc}:{self.line}"

    def key(self):
        first = next(l for l in self.body if HEED_LINE.match(l))
        return (self.doc, "example",
                first[2:] if first.startswith("$ ") else first)


def blocks(doc):
    """Every fenced block of doc, with the example marker before it."""
    lines = read(doc)
    out = []
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, lang = m.group(1), m.group(2), m.group(3)
        j = i + 1
        while j < len(lines) and not lines[j].strip().startswith(fence):
            j += 1
        body = [l[len(indent):] if l.startswith(indent) else l.lstrip()
                for l in lines[i + 1:j]]
        k = i - 1
        while k >= 0 and not lines[k].strip():
            k -= 1
        mm = MARK.match(lines[k]) if k >= 0 else None
        out.append(Block(doc, i + 1, lang, body, mm.group(1) if mm else None))
        i = j + 1
    return out


def parse_mark(block):
    """(kind, value): ("run", exit status), ("skip", reason) or
    ("synopsis", None). Raises ValueError for a marker it cannot read."""
    mark = block.mark
    if mark is None:
        return "run", 0
    if mark == "synopsis":
        return "synopsis", None
    m = re.fullmatch(r"skip \((.+)\)", mark)
    if m:
        return "skip", m.group(1)
    m = re.fullmatch(r"exit (\d+)", mark)
    if m:
        return "run", int(m.group(1))
    raise ValueError(f"{block.where()}: unknown marker 'example: {mark}' "
                     "(synopsis, skip (REASON) or exit N)")


def commands(block):
    """[(line number, command text, expected output lines or None)]."""
    out = []
    console = block.lang == "console"
    pending = ""
    for n, line in enumerate(block.body, block.line + 1):
        if console:
            if line.startswith("$ "):
                out.append([n, line[2:], []])
            elif out:
                out[-1][2].append(line)
            continue
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if pending:
            pending += " " + line.strip()
        else:
            start = n
            pending = line
        if pending.endswith("\\"):
            pending = pending[:-1].rstrip()
            continue
        out.append([start, pending, None])
        pending = ""
    if pending:
        out.append([start, pending, None])
    # A console command may also continue on the next lines.
    for c in out:
        while c[1].endswith("\\") and c[2]:
            c[1] = c[1][:-1].rstrip() + " " + c[2].pop(0).strip()
    return out


# ------------------------------------------------------------- the help

_help = {}


def help_text(sub):
    """`heed SUB --help` (sub "" is heed's own)."""
    if sub not in _help:
        args = [HEED] + (sub.split() if sub else []) + ["--help"]
        p = subprocess.run(args, capture_output=True, text=True, timeout=10)
        _help[sub] = p.stdout + p.stderr
    return _help[sub]


def command_names():
    """The commands `heed --help` lists."""
    return set(re.findall(r"^  ([a-z]+)\s", help_text(""), re.M))


def subcommand(argv):
    """The command words of heed argv (after 'heed'): '', 'crawl',
    'robots check'..."""
    if not argv or argv[0].startswith("-"):
        return ""
    if argv[0] in TWO_WORD and len(argv) > 1 and not argv[1].startswith("-"):
        return f"{argv[0]} {argv[1]}"
    return argv[0]


OPTION = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")


def options_of(words):
    """The --options a heed command line names, before any '#'."""
    out = []
    for w in words:
        if w.startswith("#"):
            break
        out += OPTION.findall(w)
    return out


# ------------------------------------------------------------- fixtures

PAGE_HTML = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>A walk in the hills</title>
<meta name="description" content="Twelve minutes of hills and sheep.">
<meta property="og:type" content="video.other">
<meta name="keywords" content="hills, sheep, walking">
</head><body><h1>A walk in the hills</h1>
<p>12,345 views</p><a href="/v/2">next</a></body></html>
"""

SITEMAP = """<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>{origin}/v/1</loc><lastmod>2026-11-20</lastmod></url>
<url><loc>{origin}/v/2</loc><lastmod>2026-11-21</lastmod></url>
</urlset>
"""

HEED_INI = """[identity]
product_token = heed
contact_url = https://crawler.example.org/bots
contact_email = crawler@example.org
"""

RANGES = """{"creationTime": "2026-11-21T00:00:00.000000",
 "prefixes": [{"ipv4Prefix": "192.0.2.0/27"},
              {"ipv6Prefix": "2001:db8:4801:10::/64"}]}
"""


def site_script(origin):
    page = PAGE_HTML.encode()
    html = {"Content-Type": "text/html; charset=utf-8"}
    return {
        "/robots.txt": ("status", 200, b"User-agent: *\nDisallow: /private/\n"
                        + f"Sitemap: {origin}/sitemap.xml\n".encode()),
        "/": ("status", 200, b'<!doctype html><title>Home</title>'
              b'<a href="/v/1">one</a> <a href="/v/2">two</a>', html),
        "/v/1": ("status", 200, page, html),
        "/v/2": ("status", 200, page.replace(b"hills", b"dales"), html),
        "/sitemap.xml": ("status", 200, SITEMAP.format(origin=origin).encode(),
                         {"Content-Type": "application/xml"}),
    }


class World:
    """The loopback world every example runs in: dnsmasq, the HTTPS sites
    and a certificate; a sandbox folder per doc."""

    def __init__(self):
        self.tmp = tempfile.mkdtemp(prefix="heed-docs-")
        hosts = {n: [a] for n, a in SITE_ADDRS.items()}
        hosts.update(VERIFY_HOSTS)
        local = ["example.org", "example.net", "example.com",
                 "in-addr.arpa", "ip6.arpa"]
        self.dns = Dnsmasq(hosts=hosts,
                           extra_args=[f"--local=/{d}/" for d in local])
        self.cert = self_signed_cert_for(self.tmp, list(SITE_ADDRS))
        self.crawled = False
        self.port = 443
        try:
            self.servers = self._serve(443)
        except OSError:
            self.port = free_port_on(list(SITE_ADDRS.values()))
            self.servers = self._serve(self.port)

    def _serve(self, port):
        servers = []
        try:
            for name, addr in SITE_ADDRS.items():
                origin = self.origin(name, port)
                servers.append(ScriptedHttpServer(addr, port,
                                                  site_script(origin),
                                                  self.cert))
        except OSError:
            for s in servers:
                s.close()
            raise
        return servers

    def origin(self, name, port=None):
        port = self.port if port is None else port
        return f"https://{name}" + ("" if port == 443 else f":{port}")

    def sandbox(self, doc):
        d = os.path.join(self.tmp, doc.replace("/", "_"))
        os.makedirs(os.path.join(d, "etc", "heed"))
        with open(os.path.join(d, "heed.ini"), "w") as f:
            f.write(HEED_INI)
        shutil.copy(os.path.join(SOURCE, "examples", "robots.txt"), d)
        with open(os.path.join(SOURCE, "examples", "heed.ini")) as f:
            ini = f.read()
        for name in SITE_ADDRS:  # its seeds, on the sites' port
            ini = ini.replace(f"https://{name}/", self.origin(name) + "/")
        with open(os.path.join(d, "etc", "heed", "heed.ini"), "w") as f:
            f.write(ini)
        with open(os.path.join(d, "page.html"), "w") as f:
            f.write(PAGE_HTML)
        sitemap = SITEMAP.format(origin="https://example.com")
        with open(os.path.join(d, "sitemap.xml"), "w") as f:
            f.write(sitemap)
        with gzip.open(os.path.join(d, "sitemap.xml.gz"), "wt") as f:
            f.write(sitemap)
        with open(os.path.join(d, "crawler-ips.json"), "w") as f:
            f.write(RANGES)
        with open(os.path.join(d, "networks.txt"), "w") as f:
            f.write("irc.example.net\nircs://irc.other.org:6697\n")
        return d

    def requests(self):
        return [e for s in self.servers for e in s.log()]

    def close(self):
        for s in self.servers:
            s.close()
        self.dns.close()
        shutil.rmtree(self.tmp, ignore_errors=True)


def self_signed_cert_for(folder, names):
    """A self-signed certificate naming every one of names."""
    cert = os.path.join(folder, "cert.pem")
    key = os.path.join(folder, "key.pem")
    san = ",".join(f"DNS:{n}" for n in names)
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048",
                    "-nodes", "-keyout", key, "-out", cert, "-days", "1",
                    "-subj", f"/CN={names[0]}", "-addext",
                    f"subjectAltName={san}"], check=True, capture_output=True)
    return cert, key


# ------------------------------------------------------------- running

class Refused(Exception):
    """An example the runner will not run: it could leave loopback."""


def is_loopback_or_name(host):
    try:
        packed = socket.inet_pton(socket.AF_INET, host)
        return packed[0] == 127
    except OSError:
        pass
    try:
        return socket.inet_pton(socket.AF_INET6, host.strip("[]")) == \
            socket.inet_pton(socket.AF_INET6, "::1")
    except OSError:
        return True  # a name: only the test's dnsmasq answers it


def prepare(world, box, argv):
    """The argv to run for heed argv (without 'heed'), substituted as the
    module's docstring says; raises Refused."""
    sub = subcommand(argv)
    words = len(sub.split())
    head, rest = argv[:words], argv[words:]
    out = []
    skip_next = False
    for i, a in enumerate(rest):
        if skip_next:
            skip_next = False
            continue
        if a in ("--dns-server", "-s") and sub not in OFFLINE_COMMANDS:
            skip_next = True  # the runner gives its own
            continue
        if a.startswith("--dns-server="):
            continue
        if a.startswith("/etc/heed/"):
            a = os.path.join(box, a[1:])
        if "net.dns_server" in a:
            raise Refused(f"'{a}': the runner gives the DNS server")
        for name in SITE_ADDRS:
            if world.port != 443:
                a = a.replace(f"https://{name}/", world.origin(name) + "/")
                if a == name and i > 0 and rest[i - 1] in ("--site", "-s"):
                    a = f"{name}:{world.port}"
        out.append(a)
    extra = []
    if sub not in OFFLINE_COMMANDS:
        if "--dns-server" not in help_text(sub):
            raise Refused(
                f"'heed {sub}' can use the network but takes no "
                "--dns-server: it would ask the system resolver")
        extra += ["--dns-server", world.dns.server]
    if sub in NEEDS_PRIVATE:
        for a in out:
            for m in re.finditer(r"[a-z]+://(\[[^\]]*\]|[^/:\s]*)", a):
                if not is_loopback_or_name(m.group(1)):
                    raise Refused(f"'{a}' names an address off loopback")
        extra += ["--allow-private", "--set", f"net.ca_file={world.cert[0]}"]
    if "--config" in out and "--store" in help_text(sub) and \
            "--store" not in out:
        # The store is ./heed.db unless a settings file says otherwise.
        extra += ["--store", os.path.join(box, "heed.db")]
    return head + extra + out


def split_command(text):
    """(argv after 'heed', stdin file or None)."""
    words = shlex.split(text, comments=True)
    stdin = None
    if "<" in words:
        i = words.index("<")
        stdin = words[i + 1]
        del words[i:i + 2]
    for w in words:
        if w in ("|", ">", ">>", "&&", ";") or w.startswith(("$", "`")):
            raise ValueError(f"'{w}': only heed commands and '< FILE' run "
                             "(mark the block skip or synopsis)")
    if not words or words[0] != "heed":
        raise ValueError(f"'{text}' is not a heed command: only heed "
                         "commands run (mark the block skip or synopsis)")
    return words[1:], stdin


def output_matches(expected, actual):
    """True when actual (text) matches the doc's expected lines, '...'
    standing for any lines (alone) or any text (inside a line)."""
    while expected and not expected[-1].strip():
        expected = expected[:-1]
    parts = []
    for line in expected:
        if line.strip() == "...":
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            pieces = line.rstrip().split("...")
            parts.append("[^\\n]*?".join(re.escape(p) for p in pieces)
                         + r"[ \t]*\n")
    lines = [l.rstrip() for l in actual.rstrip("\n").split("\n")]
    text = "\n".join(lines) + "\n"
    return re.fullmatch("".join(parts), text) is not None


def synopsis_hint(text):
    if re.search(r"\[-|[A-Z]{3,}\.\.\.|\s{3,}\w", text):
        return ("\n(it looks like a synopsis: mark the block "
                "<!-- example: synopsis -->)")
    return ""


def names_to_ask(argv):
    """The names a network command must ask the test's dnsmasq about: the
    host of each URL (but the contact's, which is only sent), the reverse
    name of each IP address."""
    names = set()
    for before, a in zip([""] + argv, argv):
        if before == "--contact-url" or a.startswith("identity."):
            continue
        for m in re.finditer(r"[a-z]+://(\[[^\]]*\]|[^/:\s]+)", a):
            if not re.fullmatch(r"[\d.]+|\[.*\]", m.group(1)):
                names.add(m.group(1).lower())
        for family in (socket.AF_INET, socket.AF_INET6):
            try:
                socket.inet_pton(family, a)
            except OSError:
                continue
            names.add(reverse_name(a))
    return names


def run_example(world, box, block, status):
    """Runs every command of block; returns a list of problems."""
    problems = []
    for line, text, expected in commands(block):
        try:
            argv, stdin = split_command(text)
            sub = subcommand(argv)
            argv = prepare(world, box, argv)
        except (ValueError, Refused) as e:
            kind = "refused" if isinstance(e, Refused) else "cannot run"
            problems.append(f"{block.doc}:{line}: {kind}: {e}"
                            + synopsis_hint(text))
            continue
        asked_before = len(world.dns.queries())
        t0 = time.monotonic()
        try:
            with open(os.path.join(box, stdin), "rb") if stdin else \
                    open(os.devnull, "rb") as inp:
                p = subprocess.run([HEED] + argv, cwd=box, stdin=inp,
                                   capture_output=True, text=True,
                                   errors="replace", timeout=COMMAND_TIMEOUT)
        except subprocess.TimeoutExpired:
            problems.append(f"{block.doc}:{line}: '{text}' still running "
                            f"after {COMMAND_TIMEOUT} s")
            continue
        took = time.monotonic() - t0
        print(f"     {block.doc}:{line}: exit {p.returncode} "
              f"({took:.1f} s): heed {' '.join(argv)}", flush=True)
        if p.returncode == 0 and sub in NEEDS_PRIVATE:
            world.crawled = True
        if sub not in OFFLINE_COMMANDS:
            # The witness that --dns-server was obeyed: dnsmasq's own log.
            asked = {n.lower().rstrip(".")
                     for _, n in world.dns.queries()[asked_before:]}
            missing = names_to_ask(argv) - asked
            if missing:
                problems.append(
                    f"{block.doc}:{line}: '{text}' did not ask the test's "
                    f"dnsmasq for {sorted(missing)}: did it ask the system "
                    "resolver?")
        if p.returncode != status:
            problems.append(
                f"{block.doc}:{line}: '{text}' exited {p.returncode}, the "
                f"doc implies {status}{synopsis_hint(text)}\n"
                f"stdout:\n{p.stdout[-2000:]}\nstderr:\n{p.stderr[-2000:]}")
        elif expected is not None and any(l.strip() for l in expected) and \
                not output_matches(expected, p.stdout + p.stderr):
            problems.append(
                f"{block.doc}:{line}: '{text}' printed\n{p.stdout}"
                f"{p.stderr}\nthe doc shows\n" + "\n".join(expected))
    return problems


# ------------------------------------------------------------- checks

class Results:
    """Problems of one kind ("example" or "option"), each judged against
    KNOWN_DOC_FAILURES."""

    def __init__(self, kind):
        self.kind = kind
        self.problems = []
        self.seen_known = set()

    def report(self, key, messages):
        if key in KNOWN_DOC_FAILURES:
            self.seen_known.add(key)
            if messages:
                print(f"     known failure {key[0]}: "
                      f"{KNOWN_DOC_FAILURES[key]}", flush=True)
                return
            self.problems.append(
                f"{key[0]}: '{key[2]}' passes now: remove it from "
                "KNOWN_DOC_FAILURES")
            return
        self.problems += messages

    def check(self):
        stale = {k for k in KNOWN_DOC_FAILURES
                 if k[1] == self.kind} - self.seen_known
        for key in sorted(stale):
            self.problems.append(f"KNOWN_DOC_FAILURES names {key}, which "
                                 "no longer fails: remove it")
        assert not self.problems, "\n\n".join(self.problems)


def test_examples_run():
    results = Results("example")
    world = World()
    ran = 0
    try:
        for doc in docs():
            box = world.sandbox(doc)
            for block in blocks(doc):
                if not block.is_example():
                    continue
                try:
                    kind, value = parse_mark(block)
                except ValueError as e:
                    results.report(block.key(), [str(e)])
                    continue
                if kind != "run":
                    continue
                ran += 1
                results.report(block.key(),
                               run_example(world, box, block, value))
        # A crawl that succeeded talked to these sites, and whatever the
        # examples did, they did it politely.
        paths = {e["path"] for e in world.requests()}
        assert not world.crawled or {"/robots.txt", "/v/1"} <= paths, \
            f"a crawl example exited 0 but the sites saw only {paths}"
        times = {}
        for e in sorted(world.requests(), key=lambda e: e["t"]):
            times.setdefault(e["address"], []).append(e["t"])
        for addr, t in times.items():
            gaps = [b - a for a, b in zip(t, t[1:])]
            print(f"     {addr}: {len(t)} requests, shortest gap "
                  f"{min(gaps, default=0):.3f} s", flush=True)
            assert not gaps or min(gaps) >= 0.95, \
                f"two requests to {addr} {min(gaps):.3f} s apart"
    finally:
        world.close()
    print(f"     {ran} examples run", flush=True)
    assert ran >= 5, f"only {ran} examples found"
    results.check()


def markdown_lines(doc):
    """(line number, text) of doc's lines outside fenced blocks."""
    out = []
    fence = None
    for n, line in enumerate(read(doc), 1):
        m = FENCE.match(line)
        if fence is None and m:
            fence = m.group(2)
            continue
        if fence is not None:
            if line.strip().startswith(fence):
                fence = None
            continue
        out.append((n, line))
    return out


def cells(row):
    """The cells of a table row: split on unescaped '|' (also inside code
    spans, as GitHub does)."""
    row = row.strip()
    if row.startswith("|"):
        row = row[1:]
    if row.endswith("|") and not row.endswith("\\|"):
        row = row[:-1]
    return re.split(r"(?<!\\)\|", row)


def test_tables():
    results = Results("table")
    for doc in docs():
        table = []
        for n, line in markdown_lines(doc) + [(0, "")]:
            if line.lstrip().startswith("|"):
                table.append((n, line))
                continue
            if len(table) >= 2:
                width = len(cells(table[0][1]))
                if not re.fullmatch(r"\|?(\s*:?-+:?\s*\|)*\s*:?-+:?\s*\|?",
                                    table[1][1].strip()):
                    results.report(
                        (doc, "table", table[1][1].strip()[:60]),
                        [f"{doc}:{table[1][0]}: a table's second row must "
                         "be its delimiter row"])
                for rn, row in table[1:]:
                    got = len(cells(row))
                    if got != width:
                        results.report(
                            (doc, "table", row.strip()[:40]),
                            [f"{doc}:{rn}: {got} cells, the header has "
                             f"{width} (escape a '|' in a cell as '\\|')"])
            table = []
    results.check()


LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REF_LINK = re.compile(r"^\s*\[[^\]]+\]:\s*(\S+)")


def test_relative_links():
    problems = []
    for doc in docs():
        base = os.path.dirname(os.path.join(SOURCE, doc))
        text = markdown_lines(doc)
        for n, line in text:
            targets = LINK.findall(re.sub(r"`[^`]*`", "", line))
            m = REF_LINK.match(line)
            if m:
                targets.append(m.group(1))
            for t in targets:
                if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", t) or \
                        t.startswith("#"):
                    continue
                path = t.split("#", 1)[0].split("?", 1)[0]
                if not os.path.exists(os.path.join(base, path)):
                    problems.append(f"{doc}:{n}: link to '{t}': no such "
                                    "file")
    assert not problems, "\n".join(problems)


def heed_mentions(doc):
    """(line, words) of every heed command line in doc: in fenced blocks
    and in code spans (which may wrap across lines)."""
    out = []
    for block in blocks(doc):
        for n, line in enumerate(block.body, block.line + 1):
            if HEED_LINE.match(line):
                words = line[2:] if line.startswith("$ ") else line
                out.append((n, words.split()))
    text = "\n".join(line for _, line in markdown_lines(doc))
    starts = [n for n, _ in markdown_lines(doc)]
    for m in re.finditer(r"`([^`]+)`", text):
        span = " ".join(m.group(1).split())
        if span.startswith("heed "):
            n = starts[text.count("\n", 0, m.start())]
            out.append((n, span.split()))
    return out


def test_options_exist():
    results = Results("option")
    problems = {}
    checked = 0
    for doc in docs():
        for n, words in heed_mentions(doc):
            argv = words[1:]
            if argv[:1] == ["help"]:
                argv = argv[1:]
            sub = subcommand([w for w in argv if not w.startswith("[")])
            if sub and sub.split()[0] not in command_names():
                continue  # prose such as `heed reads`, not a command
            # `heed robots check/explain --reference` names two commands.
            words = sub.split()
            subs = [" ".join(words[:1] + [alt]) for alt in
                    words[1].split("/")] if len(words) > 1 else [sub]
            for opt in options_of(argv):
                checked += 1
                for one in subs:
                    if re.search(re.escape(opt) + r"(?![\w-])",
                                 help_text(one)):
                        continue
                    name = f"heed {one} {opt}".replace("  ", " ")
                    problems.setdefault((doc, "option", name), []).append(
                        f"{doc}:{n}: '{name}': no such option in "
                        f"'heed {one} --help'".replace("  ", " "))
    print(f"     {checked} options named in the docs checked", flush=True)
    assert checked >= 20, "the docs name too few options: a parsing bug?"
    for key, msgs in problems.items():
        results.report(key, msgs)
    results.check()


if __name__ == "__main__":
    Checks().main([test_tables, test_relative_links, test_options_exist,
                   test_examples_run])
