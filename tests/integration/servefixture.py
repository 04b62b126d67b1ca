"""The public index's fixture: a store filled by a REAL crawl of
scripted sites on loopback, then `heed serve` on it.

The web: three sites on ONE address told apart by name (news.test,
blog.test, cook.test on 127.0.0.131, each under its own path prefix since the
scripted server answers every name alike) and one site per address for the
rest: acap.test (present-snippet max-length=20-chars, a page whose
presentation is refused), hostile.test (script tags, onerror attributes,
javascript: links, quotes, invalid UTF-8), robots.test (nosnippet,
max-snippet:10, an X-Robots-Tag unavailable_after long past), and two sites
left for later crawls: late.test (crawled while the index serves) and
kill.test (a crawl killed with SIGKILL). Names are resolved by the test's
own dnsmasq. IRC: a real ngircd with channels and topics, and a scripted
network that denies indexing (CRAWLER=index:deny).

    with Index() as ix:        # crawls, then serves
        status, headers, body = ix.get("/search?q=bridge")
"""

import html.parser
import http.client
import json
import os
import select
import shutil
import signal
import sqlite3
import subprocess
import tempfile
import threading
import time

from heedtest import (HEED, Dnsmasq, ScriptedHttpServer, free_port_on,
                      run_heed)
from irclab import Client, Lab, NgircdServer, ScriptedServer, heed as irc_heed

SHARED = "127.0.0.131"
ADDRESSES = {"acap.test": "127.0.0.132", "hostile.test": "127.0.0.133",
             "robots.test": "127.0.0.134", "late.test": "127.0.0.135",
             "kill.test": "127.0.0.136"}
CONTACT = ["--contact-url", "https://heed.test/bots",
           "--contact-email", "ops@heed.test"]
HTML = {"Content-Type": "text/html; charset=utf-8"}
ROBOTS = b"User-agent: *\nAllow: /\n"

HOSTILE_TITLE = "<script>alert(1)</script>"
HOSTILE_DESC = '"><img src=x onerror=alert(1)> hostileword'
HOSTILE_TAGS = ["quo\"te's", "</li><li>evil"]
# Text that must not break a page: a 10 KB title, a 20,000-character word,
# a title that reverses its own end (U+202E), a description whose U+202E
# is never closed.
LONG_TITLE = ("Longtitle " + "wordy " * 1700).strip()
LONG_WORD = "w" * 20000
BIDI_TITLE = "RTL \u202egnp.exe bidiword"
BIDI_DESC = "Unterminated \u202eoverride in a description"
ACAP_LIMIT = 20
ACAP_DESC = ("This description is much longer than twenty characters "
             "and must be cut.")
IRC_TOPICS = {"#gardening": "Tomatoes and | pipes", "#ferries": "Boats: when?",
              "#quiet": "<b>not bold</b> topic",
              # mIRC formatting: colour 04 (red) on 12, bold, italics,
              # a hex colour, reset; shown without the codes.
              "#colours": "\x0304,12red\x03 and \x02bold\x02 \x1dit\x1d "
                          "\x04FF0000hex\x0f done"}
IRC_COLOURS_SHOWN = "red and bold it hex done"
KILL_PAGES = 40


def page(title, desc=None, tags=(), views=None, published=None, lang="en",
         site_name=None, links=(), head="", ld=None):
    """An HTML page heed reads: title, description, article tags, views in
    JSON-LD (with ld's members added: authors, a publisher), a published
    date, a language; bytes."""
    h = [f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">',
         f"<title>{title}</title>"]
    if desc is not None:
        h.append(f"<meta name='description' content='{desc}'>")
    for t in tags:
        h.append(f"<meta property='article:tag' content='{t}'>")
    if published:
        h.append(f'<meta property="article:published_time" '
                 f'content="{published}">')
    if site_name:
        h.append(f'<meta property="og:site_name" content="{site_name}">')
    if views is not None:
        h.append('<script type="application/ld+json">' + json.dumps({
            "@context": "https://schema.org", "@type": "Article",
            "interactionStatistic": {
                "@type": "InteractionCounter",
                "interactionType": {"@type": "ViewAction"},
                "userInteractionCount": views}, **(ld or {})})
                 + "</script>")
    h.append(head)
    h.append("</head><body><h1>x</h1>")
    for href in links:
        h.append(f'<a href="{href}">{href}</a> ')
    h.append("</body></html>")
    return "".join(h).encode()


def ok(body, headers=None):
    return ("status", 200, body, dict(HTML, **(headers or {})))


# (prefix, name, language, site name, [(file, title, desc, tags, views,
# published)]): the three sites sharing one address.
SHARED_SITES = {
    "news.test": ("news", "en", "Harbour News", [
        ("1.html", "Bridge reopens after repairs",
         "The harbour bridge carries traffic again from Monday.",
         ["transport", "bridge"], 5000, "2026-11-01T08:00:00Z"),
        ("2.html", "Library opens at night",
         "Reading rooms stay open until midnight on Fridays.",
         ["culture"], 120, "2026-10-15T08:00:00Z"),
        ("3.html", "River cleanup sets a record",
         "Volunteers pulled two tonnes of plastic from the river.",
         ["environment", "volunteers"], 900, "2025-06-01T08:00:00Z"),
        ("4.html", "Ferry timetable changes", "Two boats a day in winter.",
         ["transport"], None, None)]),
    "blog.test": ("blog", "de", "Gartenblog", [
        ("tomaten.html", "Tomaten auf dem Balkon",
         "Sorten, Erde und Wasser fuer kleine Balkone.",
         ["garten", "tomaten"], 42, "2024-05-05T10:00:00Z"),
        ("sauerteig.html", "Sauerteig ansetzen", "Mehl, Wasser und Geduld.",
         ["backen"], 7, "2024-01-10T10:00:00Z")]),
    "cook.test": ("cook", "fr", "Cuisine Facile", [
        ("soupe.html", "Soupe a l'oignon", "Une soupe d hiver classique.",
         ["soupe", "hiver"], 300, "2026-01-20T10:00:00Z"),
        ("crepes.html", "Crepes du dimanche", "Farine, lait et oeufs.",
         ["dessert"], 1500, "2026-02-02T10:00:00Z")]),
}


# A record with several authors and a publisher of its own.
BYLINES = {"/news/1.html": {
    "author": [{"@type": "Person", "name": "Maria Okafor"},
               {"@type": "Person", "name": "Tom Haines"}],
    "publisher": {"@type": "Organization", "name": "Harbour Media Ltd"}}}


def shared_script():
    script = {"/robots.txt": ("status", 200, ROBOTS)}
    for name, (prefix, lang, site_name, pages) in SHARED_SITES.items():
        links = [f"/{prefix}/{p[0]}" for p in pages]
        script[f"/{prefix}/"] = ok(page(f"{site_name} front page",
                                        f"Everything from {site_name}.",
                                        lang=lang, site_name=site_name,
                                        links=links))
        for file, title, desc, tags, views, published in pages:
            script[f"/{prefix}/{file}"] = ok(page(
                title, desc, tags, views, published, lang, site_name,
                ld=BYLINES.get(f"/{prefix}/{file}")))
    return script


def acap_script():
    robots = (b"User-agent: *\nAllow: /\n\n##ACAP version=1.1\n"
              b"ACAP-crawler: *\nACAP-allow-crawl: /\nACAP-allow-index: /\n"
              b"ACAP-allow-present: /\nACAP-disallow-present: /hidden/\n"
              b"ACAP-allow-present-snippet: / max-length=%d-chars\n"
              b"ACAP-disallow-present-snippet: /nosnippet/\n"
              b"ACAP-disallow-present-thumbnail: /nothumb/\n"
              b"ACAP-allow-present-snippet: /words/ max-length=3-words\n"
              % ACAP_LIMIT)
    thumb = '<meta property="og:image" content="https://img.acap.test/t.png">'

    return {
        "/robots.txt": ("status", 200, robots),
        "/": ok(page("ACAP home", "Home of the ACAP site.",
                     links=["/a.html", "/hidden/secret.html",
                            "/nosnippet/n.html", "/nothumb/t.html",
                            "/words/w.html"])),
        # Each usage refused on its own: the page stays listed.
        "/nosnippet/n.html": ok(page("Snippetless page", "Withheld "
                                     "zebrasnip text.", head=thumb)),
        "/nothumb/t.html": ok(page("Thumbless page", "Shown thumbword.",
                                   head=thumb)),
        "/words/w.html": ok(page("Wordlimited page", "Alpha wordone "
                                 "wordtwo fourwordhidden five.")),
        "/a.html": ok(page("Snippet limited article", ACAP_DESC, ["acaptag"],
                           10, "2026-03-03T00:00:00Z")),
        "/hidden/secret.html": ok(page("Presentation refusedword page",
                                       "Must never be listed.",
                                       ["hiddentag"])),
    }


def hostile_script():
    tags_head = "".join(
        f'<meta property="article:tag" content="{t.replace(chr(34), "&quot;")}">'
        for t in HOSTILE_TAGS)
    bad = (b'<!doctype html><html lang="en"><head><meta charset="utf-8">'
           b"<title>Bad \xff\xfe bytes caf\xe9 utf8word</title>"
           b"<meta name='description' content='broken \xc3\x28 utf8word'>"
           b"</head><body></body></html>")
    return {
        "/robots.txt": ("status", 200, ROBOTS),
        "/": ok(page("Hostile home", "Hostile site home.",
                     links=["/h1.html", "/bad-utf8.html", "/long.html",
                            "/bidi.html", "javascript:alert(1)"])),
        "/long.html": ok(page(LONG_TITLE, "longword " + LONG_WORD)),
        "/bidi.html": ok(page(BIDI_TITLE, BIDI_DESC, tags=["bidi"])),
        "/h1.html": ok(page(
            HOSTILE_TITLE, HOSTILE_DESC, views=66, published="2026-05-05",
            head=tags_head +
            '<meta property="og:image" content="javascript:alert(1)">'
            '<link rel="canonical" href="javascript:alert(1)">'
            '<meta name="author" content="&lt;img src=x onerror=alert(2)&gt;">'
            '<meta property="og:site_name" content="</title><script>'
            'alert(3)</script>">')),
        "/bad-utf8.html": ok(bad),
    }


def robots_script():
    return {
        "/robots.txt": ("status", 200, ROBOTS),
        "/": ok(page("Robots meta home", "Robots meta site.",
                     links=["/nosnip.html", "/max10.html", "/gone.html"])),
        "/nosnip.html": ok(page(
            "Nosnippet page snipword", "Nosnippet description must not show.",
            ["snip"], head='<meta name="robots" content="nosnippet">')),
        "/max10.html": ok(page(
            "Max snippet page snipword",
            "Ten chars only please, the rest is cut.", ["snip"],
            head='<meta name="robots" content="max-snippet:10">')),
        "/gone.html": ok(page("Expired page snipword goneword",
                              "Unavailable since 2020.", ["snip"]),
                         {"X-Robots-Tag":
                          "unavailable_after: 2020-01-01T00:00:00Z"}),
    }


def late_script():
    return {
        "/robots.txt": ("status", 200, ROBOTS),
        "/": ok(page("Late home", "Crawled while the index serves.",
                     links=["/late1.html"])),
        "/late1.html": ok(page("Latecomer arrives lateword",
                               "A page crawled while serving.", ["late"])),
    }


def kill_script():
    script = {"/robots.txt": ("status", 200, ROBOTS),
              "/": ok(page("Kill home marmot", "Many pages.",
                           links=[f"/k/{i}.html" for i in range(KILL_PAGES)]))}
    for i in range(KILL_PAGES):
        script[f"/k/{i}.html"] = ok(page(f"Marmot page {i}",
                                         f"Page {i} of the killed crawl."))
    return script


class Web:
    """Every scripted site and the dnsmasq naming them; close() stops them."""

    def __init__(self):
        addrs = [SHARED] + list(ADDRESSES.values())
        hosts = {n: [SHARED] for n in SHARED_SITES}
        hosts.update({n: [a] for n, a in ADDRESSES.items()})
        self.dns = Dnsmasq(hosts=hosts)
        self.port = free_port_on(addrs)
        self.servers = {}
        scripts = {SHARED: shared_script(),
                   ADDRESSES["acap.test"]: acap_script(),
                   ADDRESSES["hostile.test"]: hostile_script(),
                   ADDRESSES["robots.test"]: robots_script(),
                   ADDRESSES["late.test"]: late_script(),
                   ADDRESSES["kill.test"]: kill_script()}
        try:
            for a, s in scripts.items():
                self.servers[a] = ScriptedHttpServer(a, self.port, s)
        except Exception:
            self.close()
            raise

    def host(self, name):
        """The host key heed stores for a site."""
        return f"{name}:{self.port}"

    def seed(self, name):
        if name in SHARED_SITES:
            return f"http://{name}:{self.port}/{SHARED_SITES[name][0]}/"
        return f"http://{name}:{self.port}/"

    def crawl_args(self, store, *seeds):
        return ["crawl", "--store", store, "--allow-private", "--dns-server",
                self.dns.server, *CONTACT, *seeds]

    def crawl(self, store, *names):
        return run_heed(*self.crawl_args(store, *map(self.seed, names)),
                        timeout=240, check=0)

    def close(self):
        for s in self.servers.values():
            s.close()
        self.dns.close()


class Irc:
    """A real ngircd with channels, and a scripted network that denies
    indexing; crawl(store) visits both."""

    def __init__(self):
        self.lab = Lab()
        self.clients = []
        try:
            self.ngircd = NgircdServer(self.lab, "a.ngircd.test",
                                       "ServeNet").start()
            c = Client(self.ngircd.port, "alice")
            self.clients.append(c)
            for name, topic in IRC_TOPICS.items():
                c.channel(name, topic)
            c.start_ponging()
            self.deny = ScriptedServer(
                self.lab, "deny.test",
                isupport=["NETWORK=DenyNet CHANTYPES=#",
                          "CRAWLER=index:deny,cooldown:7200"],
                channels=[("#secretchan", 4, "denied topic")])
        except Exception:
            self.close()
            raise
        self.key = f"127.0.0.1:{self.ngircd.port}"
        self.deny_key = f"127.0.0.1:{self.deny.port}"

    def crawl(self, store):
        irc_heed(self.lab, "irc", "crawl", "--allow-private",
                 "--set", "identity.contact_email=ops@heed.test",
                 self.key, self.deny_key, store=store, timeout=180)

    def close(self):
        for c in self.clients:
            c.close()
        self.lab.close()


class Serve:
    """`heed serve` on 127.0.0.1:0 over store; url is what it printed.
    Requests made through get()/raw() are counted (requests)."""

    def __init__(self, store, *extra, access_log=None):
        args = [HEED, "serve", "--store", store, "--listen", "127.0.0.1:0"]
        if access_log:
            args += ["--access-log", access_log]
        # stderr to a file, stdout drained after the first line: a full
        # pipe would stop the server mid-test.
        self.err = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(args + list(extra),
                                     stdout=subprocess.PIPE, stderr=self.err)
        self.requests = 0
        self.lock = threading.Lock()
        line = b""
        deadline = time.monotonic() + 30
        while not line.endswith(b"\n") and time.monotonic() < deadline:
            r, _, _ = select.select([self.proc.stdout], [], [], 0.2)
            if r:
                b = os.read(self.proc.stdout.fileno(), 1)
                if not b:
                    break
                line += b
        text = line.decode(errors="replace").strip()
        prefix = "heed serve: listening on "
        if not text.startswith(prefix):
            self.stop()
            raise RuntimeError(f"heed serve did not start: {text!r} "
                               f"{self.stderr()[-2000:]}")
        self.out = []  # what it printed after the first line
        threading.Thread(target=self._drain, daemon=True).start()
        self.url = text[len(prefix):]
        hostport = self.url.split("//", 1)[1].rstrip("/")
        self.host, port = hostport.rsplit(":", 1)
        self.port = int(port)

    def _drain(self):
        for line in self.proc.stdout:
            self.out.append(line.decode(errors="replace"))

    def stderr(self):
        self.err.seek(0)
        return self.err.read().decode(errors="replace")

    def get(self, path, method="GET", headers=None):
        """(status, {lower-case header: value}, body bytes)."""
        conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
        try:
            conn.request(method, path, headers=headers or {})
            resp = conn.getresponse()
            body = resp.read()
            with self.lock:
                self.requests += 1
            return (resp.status,
                    {k.lower(): v for k, v in resp.getheaders()}, body)
        finally:
            conn.close()

    def json(self, path, want=200):
        status, headers, body = self.get(path)
        assert status == want, f"{path}: {status} {body[:300]!r}"
        return json.loads(body)

    def html(self, path, want=200):
        status, headers, body = self.get(path)
        assert status == want, f"{path}: {status} {body[:300]!r}"
        return body.decode()

    def stop(self):
        """SIGTERM; returns the exit status."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode


class Index:
    """The whole fixture: web + IRC crawled into a fresh store, then
    served. Attributes: web, irc, store, tmp, serve, crawl_out."""

    def __init__(self, access_log=True):
        self.tmp = tempfile.mkdtemp(prefix="heed-serve-")
        self.store = os.path.join(self.tmp, "heed.db")
        self.access_log = (os.path.join(self.tmp, "access.log")
                           if access_log else None)
        self.web = self.irc = self.serve = None
        try:
            self.web = Web()
            self.crawl_out = self.web.crawl(
                self.store, *SHARED_SITES, "acap.test", "hostile.test",
                "robots.test")
            self.irc = Irc()
            self.irc.crawl(self.store)
            self.serve = Serve(self.store, access_log=self.access_log)
        except Exception:
            self.close()
            raise

    def sql(self, query, *args):
        """Rows of a read-only query on the store file."""
        db = sqlite3.connect(f"file:{self.store}?mode=ro", uri=True,
                             timeout=10)
        try:
            return db.execute(query, args).fetchall()
        finally:
            db.close()

    def visible_ids(self):
        """Ids of the pages that may be shown, from the store itself: 2xx,
        not refused by ACAP index or present-link (present in older
        records), not past unavailable_after."""
        now = time.time()
        out = set()
        for i, status, perm in self.sql(
                "SELECT id, status, permissions FROM pages"):
            if not 200 <= (status or 0) <= 299:
                continue
            p = json.loads(perm) if perm else {}
            acap = p.get("acap") or {}
            if any((acap.get(u) or {}).get("permitted") is False or
                   (acap.get(u) or {}).get("expires", now + 1) <= now
                   for u in ("index", "present", "present-link")):
                continue
            robots = p.get("meta_robots") or {}
            if robots.get("unavailable_after", now + 1) <= now:
                continue
            out.add(i)
        return out

    def page_id(self, host, path):
        rows = self.sql("SELECT id FROM pages WHERE url = ?",
                        f"http://{host}{path}")
        return rows[0][0] if rows else None

    def close(self):
        for part in (self.serve, self.irc, self.web):
            if part is None:
                continue
            try:
                part.stop() if part is self.serve else part.close()
            except Exception:
                pass
        shutil.rmtree(self.tmp, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link",
        "meta", "source", "track", "wbr"}


class Doc(html.parser.HTMLParser):
    """A served HTML page as a flat list of elements, each a dict: tag,
    attrs, text (all text inside), start, end (order of tags, so one element
    holds another when its span covers it).

        doc = Doc(body)
        for li in doc.find("li", cls="result"):
            a = doc.find("a", cls="title", within=li)[0]
    """

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.elements, self._open, self._n = [], [], 0
        self.feed(text)
        self.close()
        for el in self._open:
            el["end"] = self._n

    def handle_starttag(self, tag, attrs):
        self._n += 1
        el = {"tag": tag, "attrs": dict(attrs), "text": "", "start": self._n,
              "end": self._n}
        self.elements.append(el)
        if tag not in VOID:
            self._open.append(el)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self._open.pop()

    def handle_endtag(self, tag):
        self._n += 1
        for i in range(len(self._open) - 1, -1, -1):
            if self._open[i]["tag"] == tag:
                for el in self._open[i:]:
                    el["end"] = self._n
                del self._open[i:]
                return

    def handle_data(self, data):
        for el in self._open:
            el["text"] += data

    def find(self, tag=None, id=None, cls=None, within=None):
        out = []
        for el in self.elements:
            a = el["attrs"]
            if tag and el["tag"] != tag:
                continue
            if id and a.get("id") != id:
                continue
            if cls and cls not in (a.get("class") or "").split():
                continue
            if within and not (within["start"] < el["start"] <= within["end"]):
                continue
            out.append(el)
        return out

    def one(self, tag=None, id=None, cls=None, within=None):
        found = self.find(tag, id, cls, within)
        assert len(found) == 1, f"{tag}#{id}.{cls}: {len(found)} found"
        return found[0]
