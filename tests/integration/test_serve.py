"""heed serve over HTTP, on a store filled by a real crawl of
scripted sites on loopback and a real IRC network (servefixture.py): every
route with its content type and security headers, the HTML contract, the
JSON API, errors that are 4xx and never 500 (FTS5 syntax included), search
by title, description, tag and site name, filters, sorts, cursor pagination,
what the sites permitted (ACAP present-snippet max-length, nosnippet,
max-snippet, presentation refused, unavailable_after past), hostile
metadata escaped, IRC networks that deny never listed, /healthz, /metrics,
the access log, --reindex, serving while a crawl writes, a crawl killed
with SIGKILL, and bad settings."""

import json
import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import time
import urllib.parse

from heedtest import Checks, run_heed
from openapidoc import OpenApi
from servefixture import (ACAP_DESC, ACAP_LIMIT, ADDRESSES, HEED,
                          HOSTILE_DESC, HOSTILE_TITLE, IRC_COLOURS_SHOWN,
                          IRC_TOPICS, KILL_PAGES,
                          Doc, Index, Serve)

CSP = ("default-src 'none'; style-src 'self'; img-src 'self' data:; "
       "form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
SECURITY = {"content-security-policy": CSP,
            "x-content-type-options": "nosniff",
            "referrer-policy": "no-referrer",
            "x-frame-options": "DENY",
            "cross-origin-opener-policy": "same-origin"}
HTML_TYPE = "text/html; charset=utf-8"
JSON_TYPE = "application/json; charset=utf-8"
REL = {"nofollow", "noopener", "ugc"}

ix = Index()
web, srv = ix.web, ix.serve
# Every response seen, for the header check: (path, status, headers).
seen = []
# Every JSON answer of the API, for the OpenAPI check: (path, method,
# status, body).
api_answers = []
_get = srv.get


def get(path, method="GET", headers=None):
    status, h, body = _get(path, method, headers)
    seen.append((path, status, h))
    if path.startswith("/api/") and body and \
            h.get("content-type") == JSON_TYPE:
        api_answers.append((path, method, status, body))
    return status, h, body


srv.get = get
BASE = srv.url.rstrip("/")


def local(href):
    """An href of the index itself, without the origin if it has one."""
    href = href or ""
    return href[len(BASE):] if href.startswith(BASE + "/") else href
raw_requests = 0
q = urllib.parse.quote


def host(name):
    return web.host(name)


def pid(name, path):
    i = ix.page_id(host(name), path)
    assert i is not None, f"{name}{path} not in the store"
    return i


def search(params, limit=None):
    """Every item of a JSON search, following next_cursor (bounded)."""
    items, cursor = [], None
    for _ in range(200):
        p = dict(params)
        if limit:
            p["limit"] = limit
        if cursor:
            p["cursor"] = cursor
        out = srv.json("/api/v1/search?" + urllib.parse.urlencode(p))
        items += out["items"]
        cursor = out["next_cursor"]
        if not cursor:
            return items
    raise AssertionError(f"more than 200 pages of results for {params}")


def urls(items):
    return {i["url"].split("//", 1)[1].split(":", 1)[0] + "/" +
            i["url"].split("/", 3)[3] for i in items}


def assert_error(path, want=400):
    """path answers want in HTML with <p id="error"> and in JSON with an
    error object; returns the JSON message."""
    status, h, body = get(path)
    assert status == want, f"{path}: {status} {body[:200]!r}"
    assert h.get("content-type") == HTML_TYPE, (path, h.get("content-type"))
    err = Doc(body.decode()).one("p", id="error")
    assert err["text"].strip(), f"{path}: empty error"
    api = "/api/v1" + path
    status, h, body = get(api)
    assert status == want, f"{api}: {status} {body[:200]!r}"
    assert h.get("content-type") == JSON_TYPE, (api, h.get("content-type"))
    e = json.loads(body)["error"]
    assert e["status"] == want and e["message"], (api, e)
    return e["message"]


# ---- what the crawl stored (the premises of everything below) -----------

def check_store_holds_what_the_sites_said():
    assert "0 errors" in ix.crawl_out.stdout, ix.crawl_out.stdout
    perm = {url.split("/", 3)[3]: json.loads(p) for url, p in ix.sql(
        "SELECT url, permissions FROM pages WHERE host IN (?, ?)",
        host("acap.test"), host("robots.test"))}
    snippet = perm["a.html"]["acap"]["present-snippet"]
    assert snippet["permitted"] and snippet["max_length"] == ACAP_LIMIT and \
        snippet["max_length_unit"] == "chars", snippet
    assert perm["hidden/secret.html"]["acap"]["present-link"]["permitted"] \
        is False
    assert perm["nosnip.html"]["meta_robots"]["nosnippet"] is True
    assert perm["max10.html"]["meta_robots"]["max_snippet"] == 10
    assert perm["gone.html"]["meta_robots"]["unavailable_after"] == 1577836800
    rows = ix.sql("SELECT title FROM pages WHERE url LIKE ?", "%/h1.html")
    assert rows == [(HOSTILE_TITLE,)], rows
    nets = ix.sql("SELECT COUNT(*) FROM irc_channels")
    assert nets[0][0] >= len(IRC_TOPICS), nets


# ---- routes, types, headers, HTML contract --------------------------------

def routes():
    rec = pid("news.test", "/news/1.html")
    site = q(host("news.test"), safe="")
    key = q(ix.irc.key, safe="")
    html = ["/", "/search?q=bridge", f"/records/{rec}", "/sites",
            f"/sites/{site}", "/tags", "/tags/transport", "/irc",
            f"/irc/{key}", f"/irc/{key}?q=garden", "/bots",
            "/search?q=nothingmatchesthis"]
    api = ["/api/v1/", "/api/v1/search?q=bridge", f"/api/v1/records/{rec}",
           "/api/v1/sites", f"/api/v1/sites/{site}", "/api/v1/tags",
           "/api/v1/tags/transport", "/api/v1/irc", f"/api/v1/irc/{key}",
           f"/api/v1/irc/{key}?q=garden", f"/api/v1/irc/{key}?sort=name",
           "/api/v1/irc?sort=channels", "/api/v1/bots",
           "/api/v1/openapi.json"]
    return html, api


def check_every_route_answers_with_its_type():
    html, api = routes()
    bad = []
    for path in html:
        s, h, b = get(path)
        if s != 200 or h.get("content-type") != HTML_TYPE:
            bad.append((path, s, h.get("content-type")))
    for path in api:
        s, h, b = get(path)
        if s != 200 or h.get("content-type") != JSON_TYPE:
            bad.append((path, s, h.get("content-type")))
        else:
            json.loads(b)
    # No icon, and no error for a browser that asks (a JSON answer or a
    # feed names none).
    s, h, b = get("/favicon.ico")
    if s != 204 or b or "max-age" not in h.get("cache-control", ""):
        bad.append(("/favicon.ico", s, h.get("cache-control"), b[:40]))
    for path, want in (("/static/heed.css", "text/css"),
                       ("/healthz", "text/plain"), ("/metrics", "text/plain")):
        s, h, b = get(path)
        if s != 200 or not h.get("content-type", "").startswith(want):
            bad.append((path, s, h.get("content-type")))
    assert not bad, bad


def check_head_answers_without_body():
    for path in ("/", "/api/v1/search?q=bridge", "/static/heed.css"):
        s, h, b = get(path, "HEAD")
        assert s == 200 and b == b"", (path, s, b[:100])


def check_html_contract_on_every_page():
    html, _ = routes()
    for path in html:
        s, h, body = get(path)
        text = body.decode()
        assert text.lower().startswith("<!doctype html>"), path
        low = text.lower()
        assert '<html lang="en">' in text, path
        assert '<meta charset="utf-8">' in low, path
        assert ('<meta name="viewport" content="width=device-width, '
                'initial-scale=1">') in text, path
        assert "<script" not in low and "<style" not in low, path
        assert not re.search(r"\sstyle\s*=", low), path
        doc = Doc(text)
        css = [e for e in doc.find("link")
               if e["attrs"].get("rel") == "stylesheet"]
        assert [local(e["attrs"]["href"]) for e in css] == \
            ["/static/heed.css"], (path, css)
        header = doc.one("header")
        navs = {local(a["attrs"].get("href"))
                for a in doc.find("a", within=header)}
        assert {"/", "/sites", "/tags", "/irc", "/bots"} <= navs, (path, navs)
        doc.one("main", id="main")
        skip = doc.find("a", cls="skip")
        assert skip and skip[0]["attrs"].get("href") == "#main", path
        assert doc.find("a")[0] is skip[0], f"{path}: skip link not first"


def check_search_form_has_every_input_and_label():
    doc = Doc(srv.html("/"))
    form = doc.one("form", id="search")
    assert local(form["attrs"].get("action")) == "/search" and \
        form["attrs"].get("method") == "get", form["attrs"]
    inputs = {e["attrs"].get("name"): e for e in doc.find("input", within=form)}
    assert inputs["q"]["attrs"].get("id") == "q"
    assert inputs["q"]["attrs"].get("type") == "search"
    for name in ("site", "tag", "lang", "from", "to", "min_views",
                 "max_views"):
        assert name in inputs, (name, sorted(inputs))
    doc.one("select", within=form)
    assert doc.find("select", within=form)[0]["attrs"]["name"] == "sort"
    labelled = {e["attrs"].get("for") for e in doc.find("label", within=form)}
    ids = {e["attrs"].get("id") for e in doc.find("input", within=form)} | \
        {e["attrs"].get("id") for e in doc.find("select", within=form)}
    assert None not in ids and ids <= labelled, (ids, labelled)


def check_unknown_and_missing_are_404():
    secret = pid("acap.test", "/hidden/secret.html")
    for path in ("/nope", "/records/99999999", "/records/abc",
                 "/api/v1/records/99999999", "/api/v1/nope",
                 "/sites/nosuch.test%3A1", "/api/v1/sites/nosuch.test%3A1",
                 f"/irc/{q(ix.irc.deny_key, safe='')}",
                 f"/api/v1/irc/{q(ix.irc.deny_key, safe='')}",
                 "/irc/127.0.0.1%3A1", "/static/nothing.css",
                 f"/records/{secret}", f"/api/v1/records/{secret}",
                 "/records/-1", "/records/1e3", "/static/../heed.db"):
        s, h, b = get(path)
        assert s == 404 or (s == 400 and ".." in path), (path, s, b[:200])
        if path.startswith("/api/"):
            assert json.loads(b)["error"]["status"] == 404, path


def check_post_is_405_with_allow():
    for path in ("/", "/search?q=x", "/api/v1/search?q=x", "/healthz"):
        for method in ("POST", "PUT", "DELETE"):
            s, h, b = get(path, method, {"Content-Length": "0"})
            assert s == 405, (method, path, s)
            allow = {m.strip() for m in h.get("allow", "").split(",")}
            assert {"GET", "HEAD"} <= allow, (path, h.get("allow"))


def raw_request(data):
    """Sends bytes, returns the status of the answer (0: none). Not
    counted in srv.requests: the server may refuse it before it is a
    request."""
    global raw_requests
    raw_requests += 1
    with socket.create_connection((srv.host, srv.port), timeout=15) as s:
        s.sendall(data)
        answer = b""
        try:
            while b"\r\n" not in answer:
                chunk = s.recv(4096)
                if not chunk:
                    break
                answer += chunk
        except OSError:
            pass
    m = re.match(rb"HTTP/1\.[01] (\d{3})", answer)
    return int(m.group(1)) if m else 0


def check_over_long_url_and_too_many_args():
    s, h, b = get("/search?q=" + "a" * 3000)
    assert s in (414, 400), s
    s, h, b = get("/search?q=" + "&x=1" * 40)
    assert s == 400, s
    status = raw_request(b"GET /?" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n"
                         b"Connection: close\r\n\r\n")
    assert status in (414, 400, 431, 413), status


def check_request_headers_bounded():
    status = raw_request(b"GET / HTTP/1.1\r\nHost: x\r\nX-A: " +
                         b"b" * 20000 + b"\r\nConnection: close\r\n\r\n")
    assert status in (431, 413, 400), status
    lines = b"".join(b"X-%d: y\r\n" % i for i in range(1000))
    status = raw_request(b"GET / HTTP/1.1\r\nHost: x\r\n" + lines +
                         b"Connection: close\r\n\r\n")
    assert status in (431, 413, 400), status


def check_bad_parameters_are_400_with_a_message():
    for params in ("q=x&from=yesterday", "q=x&from=2024-13-45",
                   "q=x&to=2024-02-30x", "cursor=garbage", "cursor=%ff%fe",
                   "q=x&cursor=" + "9" * 100, "limit=1000", "limit=0",
                   "limit=-1", "limit=ten", "q=" + "w" * 300,
                   "sort=sideways", "min_views=many", "max_views=-5x"):
        msg = assert_error("/search?" + params)
        assert "500" not in msg, msg


def check_nul_in_the_address_is_400():
    # libmicrohttpd hands arguments over as C strings: a %00 would cut
    # q=x%00y to "x" and make cursor=%00 the first page.
    for path in ("/search?q=x%00y", "/search?cursor=%00",
                 "/api/v1/search?q=%00", "/records/1%00"):
        status, _, body = srv.get(path)
        assert status == 400, (path, status)
        assert b"NUL" in body, body


def check_cursor_of_another_search_is_400():
    cursor = srv.json("/api/v1/search?sort=views&limit=2")["next_cursor"]
    assert cursor
    for other in ("sort=date", "sort=fetched", "q=bridge", "sort=relevance"):
        assert_error(f"/search?{other}&limit=2&cursor={q(cursor)}")


def check_concurrent_requests_and_idle_connections():
    import threading
    statuses = []

    def worker():
        for i in range(20):
            path = "/search?q=transport" if i % 2 else \
                "/api/v1/search?q=bridge&sort=views"
            try:
                statuses.append(get(path)[0])
            except OSError as e:
                statuses.append(repr(e))

    threads = [threading.Thread(target=worker) for _ in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert statuses == [200] * 320, [x for x in statuses if x != 200][:5]
    # One client (127.0.0.2) holding 300 idle sockets with half a request
    # keeps at most serve.connections_per_client (64) of them: the others
    # are closed at once, and other clients are still answered.
    socks, kept = [], 0
    try:
        for _ in range(300):
            c = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            c.settimeout(5)
            c.bind(("127.0.0.2", 0))
            c.connect((srv.host, srv.port))
            socks.append(c)
            try:
                c.sendall(b"GET / HTTP/1.1\r\n")
            except OSError:
                pass
        t0 = time.monotonic()
        assert get("/healthz")[0] == 200
        assert time.monotonic() - t0 < 5
        for c in socks:
            c.settimeout(0.05)
            try:
                kept += 0 if c.recv(1) == b"" else 1
            except socket.timeout:
                kept += 1  # still open, waiting for the rest
            except OSError:
                pass
        assert 1 <= kept <= 64, kept
    finally:
        for c in socks:
            c.close()


def raw_answer(data, timeout=15):
    """Sends bytes on a new connection and reads the whole answer (the
    server closes after it, or data asks it to): (status, {lower-case
    header: value}, body); status 0 when nothing came back."""
    global raw_requests
    raw_requests += 1
    answer = b""
    with socket.create_connection((srv.host, srv.port),
                                  timeout=timeout) as s:
        try:
            s.sendall(data)
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                answer += chunk
        except OSError:
            pass
    head, _, body = answer.partition(b"\r\n\r\n")
    m = re.match(rb"HTTP/1\.[01] (\d{3})", head)
    headers = {}
    for line in head.split(b"\r\n")[1:]:
        k, _, v = line.decode("latin-1").partition(":")
        headers[k.strip().lower()] = v.strip()
    return (int(m.group(1)) if m else 0), headers, body


def assert_heed_answer(what, status, headers, want):
    assert status == want, (what, status)
    bad = {k: headers.get(k) for k, v in SECURITY.items()
           if headers.get(k) != v}
    assert not bad, (what, status, bad)
    assert headers.get("content-type"), (what, headers)


def head_of(size, path=b"/healthz"):
    """A GET request whose head is size bytes, padded in one header."""
    start = b"GET " + path + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
    pad = size - len(start) - len(b"X-Pad: \r\n\r\n")
    return start + b"X-Pad: " + b"p" * pad + b"\r\n\r\n"


def check_every_head_size_is_answered_with_headers():
    # Up to 16 KiB: answered; past it, heed's own 431 with every header,
    # in steps fine enough to hit any size where no answer came back.
    for size in list(range(15000, 17400, 24)) + [20000, 40000, 60000]:
        status, headers, _ = raw_answer(head_of(size))
        assert_heed_answer(size, status, headers,
                           200 if size <= 16384 else 431)
    status, headers, body = raw_answer(head_of(20000, b"/api/v1/search"))
    assert_heed_answer("api 431", status, headers, 431)
    assert json.loads(body)["error"]["status"] == 431
    status, headers, body = raw_answer(
        head_of(20000).replace(b"GET ", b"HEAD ", 1))
    assert_heed_answer("HEAD 431", status, headers, 431)
    assert body == b"", body
    # Up to the connection's memory (64 KiB) heed answers; past it
    # libmicrohttpd does, without heed's headers (docs/serve.md). Where a
    # head nearly fills that memory, no answer at all came back before
    # heed wrote its 431 itself: every size in between is answered.
    mhd_from = None
    for size in range(62000, 66800, 16):
        status, headers, _ = raw_answer(head_of(size))
        assert status == 431, (size, status)
        heeds = all(headers.get(k) == v for k, v in SECURITY.items())
        if not heeds and mhd_from is None:
            mhd_from = size
        assert heeds == (mhd_from is None), (size, mhd_from, headers)
    assert mhd_from and mhd_from > 65000, mhd_from


def check_malformed_requests_are_400_with_headers():
    cases = [
        (b"GET / HTTP/1.1\r\nConnection: close\r\n\r\n", 400),  # no Host
        (b"GET /\x00x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
         400),
        (b"GET /api/v1/\x00 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
         b"\r\n", 400),
        (b"GET /  HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 400),
        (b"GET /" + b"a" * 5000 + b" HTTP/1.1\r\nHost: x\r\n"
         b"Connection: close\r\n\r\n", 414),
        (b"GET /healthz HTTP/1.0\r\n\r\n", 200),  # 1.0 needs no Host
        # RFC 9112 2.3: a later HTTP/1 minor version is read as 1.1.
        (b"GET /healthz HTTP/1.2\r\nHost: x\r\nConnection: close\r\n\r\n",
         200),
        (b"GET /healthz HTTP/1.9\r\nConnection: close\r\n\r\n", 400),
        (b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
         200),
    ]
    for data, want in cases:
        status, headers, body = raw_answer(data)
        assert_heed_answer(data[:40], status, headers, want)
        if want == 400 and b"/api/" in data[:12]:
            assert json.loads(body)["error"]["status"] == 400


def check_libmicrohttpd_own_answers():
    """The refusals libmicrohttpd 0.9.75 gives before heed sees the request
    (docs/serve.md, "Safe by construction"): each is answered, with its
    status, the connection closed after it, and a fixed body that holds
    nothing of the request. libmicrohttpd builds them itself and has no way
    to add heed's headers; a libmicrohttpd that let heed answer them would
    have to keep these statuses."""
    mark = b"zq7mark"
    cases = [
        (b"GET /healthz?" + mark + b" HTTP/2.0\r\nHost: x\r\n\r\n", 505),
        (b"GET /healthz?" + mark + b" HTTP/0.9\r\nHost: x\r\n\r\n", 505),
        (b"GET /healthz?" + mark + b" HTTX/1.1\r\nHost: x\r\n\r\n", 400),
        (b"GET /healthz HTTP/1.1\r\nHost: x\r\n" + mark + b"\r\n\r\n",
         400),
        (b"GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: " + mark +
         b"\r\n\r\n", 400),
        (head_of(70000, b"/healthz?" + mark), 431),
        (b"GET /" + mark * 10000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414),
    ]
    for data, want in cases:
        status, headers, body = raw_answer(data)
        assert status == want, (data[:40], status, want)
        assert headers.get("connection") == "close", (data[:40], headers)
        assert mark not in body, (data[:40], body)


ATOM = "{http://www.w3.org/2005/Atom}"


def atom(path):
    """A feed, parsed: [(id, title, updated, summary or None, alternate
    href or None, [category terms])], newest first as served."""
    import xml.etree.ElementTree as ET
    status, headers, body = get(path, headers={"Host": "index.test"})
    assert status == 200, (path, status, body[:300])
    assert headers["content-type"] == "application/atom+xml; charset=utf-8"
    root = ET.fromstring(body)
    assert root.tag == ATOM + "feed", root.tag
    assert root.find(ATOM + "id").text.startswith("http://index.test/feeds/")
    assert root.find(ATOM + "updated") is not None
    out = []
    for e in root.findall(ATOM + "entry"):
        summary = e.find(ATOM + "summary")
        alt = [x.get("href") for x in e.findall(ATOM + "link")
               if x.get("rel") == "alternate"]
        out.append((e.find(ATOM + "id").text, e.find(ATOM + "title").text,
                    e.find(ATOM + "updated").text,
                    summary.text if summary is not None else None,
                    alt[0] if alt else None,
                    [c.get("term") for c in e.findall(ATOM + "category")]))
    return out


def check_atom_feeds_show_what_the_results_show():
    entries = atom("/feeds/search?limit=100")
    assert len(entries) >= 10, len(entries)
    dates = [e[2] for e in entries]
    assert dates == sorted(dates, reverse=True), dates
    # Each entry says what the API says: the permitted description only.
    api = {f"http://index.test/records/{i['id']}": i
           for i in search({"sort": "fetched"}, limit=100)}
    for eid, title, _, summary, alt, _ in entries:
        item = api[eid]
        want = item.get("description")
        # The feed closes a bidi override the description left open.
        got = summary.rstrip("…\u202c\u2069") if summary else None
        assert (got or None) == ((want or "").rstrip("…") or None), \
            (eid, summary, want)
        assert alt is None or alt.startswith(("http://", "https://")), alt
    assert not any(ACAP_DESC == e[3] for e in entries)
    hostile = [e for e in entries if e[1] == HOSTILE_TITLE]
    assert hostile, [e[1] for e in entries]
    words = atom("/feeds/search?q=bridge")
    assert words and all(e[0] in api for e in words), words
    assert get("/feeds/tags/UNKNOWN-tag-nobody-uses")[0] == 404
    tag = srv.json("/api/v1/tags")["items"][0]["tag"]
    tagged = atom("/feeds/tags/" + q(tag))
    assert tagged and all(tag in e[5] for e in tagged), (tag, tagged)
    blog = host("blog.test")
    site = atom("/feeds/sites/" + q(blog))
    assert len(site) == 3 and all(api[e[0]]["host"] == blog for e in site)


def check_opensearch_and_links_to_feeds_and_api():
    import xml.etree.ElementTree as ET
    status, headers, body = get("/opensearch.xml",
                                headers={"Host": "index.test"})
    assert status == 200
    assert headers["content-type"].startswith(
        "application/opensearchdescription+xml")
    ns = "{http://a9.com/-/spec/opensearch/1.1/}"
    root = ET.fromstring(body)
    urls_ = {u.get("type"): u.get("template") for u in root.findall(ns + "Url")}
    assert urls_["text/html"] == "http://index.test/search?q={searchTerms}"
    assert urls_["application/atom+xml"] == \
        "http://index.test/feeds/search?q={searchTerms}"
    for path in ("/", "/search?q=bridge", "/tags", "/irc"):
        doc = Doc(srv.html(path))
        search = [e for e in doc.find("link")
                  if e["attrs"].get("rel") == "search"]
        assert search and search[0]["attrs"]["href"] == "/opensearch.xml"
        assert doc.one("a", id="api")["attrs"]["href"] == "/api/v1/"
        assert doc.one("a", id="openapi")["attrs"]["href"] == \
            "/api/v1/openapi.json"
    tag = srv.json("/api/v1/tags")["items"][0]["tag"]
    doc = Doc(srv.html("/tags/" + q(tag)))
    assert doc.one("a", id="feed")["attrs"]["href"] == "/feeds/tags/" + q(tag)


def check_one_address_per_record_and_unknown_tags_404():
    rid = sorted(ix.visible_ids())[0]
    assert get(f"/records/{rid}")[0] == 200
    for path in (f"/records/0{rid}", f"/api/v1/records/0{rid}",
                 f"/records/+{rid}", f"/api/v1/records/{rid}x",
                 "/tags/UNKNOWN-tag-nobody-uses",
                 "/api/v1/tags/UNKNOWN-tag-nobody-uses"):
        s, h, b = get(path)
        assert s == 404, (path, s)
    tag = srv.json("/api/v1/tags")["items"][0]["tag"]
    assert get("/tags/" + q(tag))[0] == 200
    assert get("/api/v1/tags/" + q(tag))[0] == 200


def check_fts5_syntax_is_never_a_500():
    for text in ('"', '""', '"unclosed', "NEAR(", "NEAR(a b", "col:x",
                 "title:bridge", "AND OR", "AND", "OR", "NOT", "a AND",
                 "(", ")", "*", "^x", "a*b", "-", "+", "{a b}:c", "a:b:c",
                 "\\", "'", "%", "_", "bridge NOT", "NEAR(bridge, 2)",
                 "\u0000", "\ufffd", "x" * 255):
        for base in ("/search?q=", "/api/v1/search?q="):
            path = base + q(text)
            s, h, b = get(path)
            assert s in (200, 400), (text, path, s, b[:200])
            if s == 400 and base == "/search?q=":
                assert Doc(b.decode()).one("p", id="error")["text"].strip()
            if s == 400 and base.startswith("/api"):
                assert json.loads(b)["error"]["message"], text


def check_matched_words_marked():
    """The words of a search are marked in titles and snippets, escaped
    like every crawled string."""
    body = get("/search?q=bridge")[2].decode()
    assert "<mark>Bridge</mark> reopens" in body, body[:3000]
    assert "harbour <mark>bridge</mark> carries" in body, body[:3000]
    body = get("/search?q=hostileword")[2].decode()
    assert "&gt; <mark>hostileword</mark>" in body, body[:3000]
    assert "<img" not in body.lower()


def check_query_without_words_is_400():
    """A query of symbols alone would match the whole index: it is refused
    with the reason, in the API and on the page; a blank one lists all."""
    for raw in ("*", "%22", "(", q("\U0001F600"), "%C0%AF", "%22%22",
                "-", "...%20!!!"):
        msg = assert_error(f"/search?q={raw}")
        assert "no searchable words" in msg, (raw, msg)
    assert len(search({"q": "  "})) == len(search({}))


# ---- search, filters, sorts, pagination ------------------------------------

def check_search_by_title_description_tag_and_site_name():
    cases = {"bridge": {"news.test/news/1.html"},
             "midnight": {"news.test/news/2.html"},
             "volunteers": {"news.test/news/3.html"},
             "tomaten": {"blog.test/blog/tomaten.html"},
             "Gartenblog": {"blog.test/blog/", "blog.test/blog/tomaten.html",
                            "blog.test/blog/sauerteig.html"}}
    for word, want in cases.items():
        got = urls(search({"q": word}))
        assert want <= got, (word, got)
        if word != "Gartenblog":
            assert got == want, (word, got)
    # Case does not matter, nor several words (all must match).
    assert urls(search({"q": "BRIDGE repairs"})) == {"news.test/news/1.html"}
    assert urls(search({"q": "bridge midnight"})) == set()


def check_html_results_match_json():
    doc = Doc(srv.html("/search?q=transport"))
    items = search({"q": "transport"})
    lis = doc.find("li", cls="result", within=doc.one("ol", id="results"))
    assert len(lis) == len(items) == 2, (len(lis), items)
    for li, item in zip(lis, items):
        a = doc.one("a", cls="title", within=li)
        assert local(a["attrs"]["href"]) == f"/records/{item['id']}", a
        assert a["text"].strip() == item["title"]
        orig = doc.one("a", cls="original", within=li)
        assert set(orig["attrs"]["rel"].split()) == REL
        assert orig["attrs"]["href"] == item["url"]
        tags = [local(t["attrs"]["href"]) for t in doc.find(
            "a", within=doc.one("ul", cls="tags", within=li))]
        assert "/tags/transport" in tags, tags
    Doc(srv.html("/search?q=nothingmatchesthis")).one("p", id="empty")
    # The count is read after the results (so the store can take it from
    # the search) but stands above them, and counts what is listed, on
    # a first page, a later one, a tag page and an empty one.
    for path, want in (("/search?q=transport", "About 2 results."),
                       ("/search?q=transport&limit=1", "About 2 results."),
                       ("/tags/transport?limit=1", "About 2 results."),
                       ("/search?q=nothingmatchesthis", "About 0 results.")):
        page = srv.html(path)
        if "limit=1" in path:
            nxt = Doc(page).one("a", id="next")["attrs"]["href"]
            page = srv.html(local(nxt))
            assert Doc(page).one("a", id="prev"), path
        text = Doc(page).one("p", id="count")["text"].strip()
        assert text == want, (path, text, want)
        assert page.index('id="count"') < page.index('id="results"'), path


def check_filters_change_results():
    def only(params, pred, nonempty=True):
        items = search(params)
        assert items or not nonempty, params
        bad = [(i["url"], i["language"], i["published"], i["views"])
               for i in items if not pred(i)]
        assert not bad, (params, bad)
        return items

    blog = host("blog.test")
    got = only({"site": blog}, lambda i: i["host"] == blog)
    assert len(got) == 3, got
    # Host keys are stored in lower case: the filter folds what people type.
    got = only({"site": blog.upper()}, lambda i: i["host"] == blog)
    assert len(got) == 3, got
    got = only({"tag": "transport"}, lambda i: "transport" in i["tags"])
    assert urls(got) == {"news.test/news/1.html", "news.test/news/4.html"}
    # Tags are stored case-folded: the filter folds what people type.
    got = only({"tag": "TransPort"}, lambda i: "transport" in i["tags"])
    assert urls(got) == {"news.test/news/1.html", "news.test/news/4.html"}
    got = only({"lang": "de"}, lambda i: i["language"].startswith("de"))
    assert len(got) == 3, urls(got)
    only({"lang": "fr", "q": "soupe"}, lambda i: i["language"] == "fr")
    got = only({"from": "2026-01-01", "to": "2026-06-30"},
               lambda i: "2026-01-01" <= i["published"] <= "2026-06-30z")
    assert urls(got) == {"cook.test/cook/soupe.html",
                         "cook.test/cook/crepes.html",
                         "acap.test/a.html", "hostile.test/h1.html"}, got
    got = only({"min_views": 1000}, lambda i: i["views"] >= 1000)
    assert urls(got) == {"news.test/news/1.html",
                         "cook.test/cook/crepes.html"}, got
    got = only({"max_views": 50}, lambda i: i["views"] is not None and
               i["views"] <= 50)
    assert urls(got) == {"blog.test/blog/tomaten.html",
                         "blog.test/blog/sauerteig.html",
                         "acap.test/a.html"}, got
    # Date bounds are whole days, both inclusive, for a date-only value
    # and a date with a time alike.
    got = only({"from": "2026-05-05", "to": "2026-05-05"}, lambda i: True)
    assert urls(got) == {"hostile.test/h1.html"}, got
    got = only({"from": "2026-03-03", "to": "2026-03-03"}, lambda i: True)
    assert urls(got) == {"acap.test/a.html"}, got
    got = only({"tag": "transport", "min_views": 1000},
               lambda i: i["views"] >= 1000)
    assert urls(got) == {"news.test/news/1.html"}, got
    # The HTML filter form gives the same list; what the form sends (every
    # field, the empty ones too) is sent on (303) to the address without
    # the empty ones.
    s, h, b = get(f"/search?q=&site={q(blog)}&tag=&sort=")
    assert s == 303 and h.get("location") == f"/search?site={q(blog)}", \
        (s, h)
    doc = Doc(srv.html(h["location"]))
    assert len(doc.find("li", cls="result")) == 3


def check_sorts_order_results():
    views = [i["views"] for i in search({"sort": "views"})]
    counted = [v for v in views if v is not None]
    assert counted == sorted(counted, reverse=True), views
    assert views[:len(counted)] == counted, f"no count not last: {views}"
    assert counted[0] == 5000
    dates = [i["published"] for i in search({"sort": "date"})]
    dated = [d for d in dates if d]
    assert dates[:len(dated)] == dated, f"undated not last: {dates}"
    days = [d[:10] for d in dated]
    assert days == sorted(days, reverse=True), dates
    rel = search({"q": "transport", "sort": "relevance"})
    assert urls(rel) == {"news.test/news/1.html", "news.test/news/4.html"}
    # The same match on both (a tag): the views boost decides.
    assert rel[0]["url"].endswith("/news/1.html"), urls(rel)
    by_views = search({"q": "transport", "sort": "views"})
    assert by_views[0]["views"] == 5000, by_views


def check_cursor_walks_every_result_once():
    want = ix.visible_ids()
    for params in ({}, {"sort": "views"}, {"sort": "date"},
                   {"sort": "fetched"}, {"q": "snipword"},
                   {"q": "snipword", "sort": "views"}):
        items = search(params, limit=2)
        ids = [i["id"] for i in items]
        assert len(ids) == len(set(ids)), (params, ids)
        if not params:
            assert set(ids) == want, (sorted(ids), sorted(want))
    items = search({}, limit=3)
    # The HTML's #next links walk the same list.
    path, seen_ids = "/search?limit=3", []
    for _ in range(100):
        doc = Doc(srv.html(path))
        for li in doc.find("li", cls="result"):
            href = local(doc.one("a", cls="title", within=li)["attrs"]["href"])
            seen_ids.append(int(href.rsplit("/", 1)[1]))
        nxt = doc.find("a", id="next")
        if not nxt:
            break
        assert nxt[0]["attrs"].get("rel") == "next"
        path = nxt[0]["attrs"]["href"]
        assert "cursor=" in path, path
    assert seen_ids == [i["id"] for i in items], (seen_ids, items)


# ---- what the sites permitted -------------------------------------------

def item_of(items, path):
    found = [i for i in items if i["url"].endswith(path)]
    assert len(found) == 1, (path, [i["url"] for i in items])
    return found[0]


def check_acap_snippet_limit_cut_in_html_and_json():
    a = pid("acap.test", "/a.html")
    item = item_of(search({"q": "limited"}), "/a.html")
    d = item["description"]
    assert d and len(d.rstrip("…").rstrip()) <= ACAP_LIMIT, d
    assert ACAP_DESC.startswith(d.rstrip("…").rstrip()), d
    assert d != ACAP_DESC
    rec = srv.json(f"/api/v1/records/{a}")
    assert rec["description"] == d, rec["description"]
    assert rec["permissions"]["acap"]["present-snippet"]["max_length"] == 20
    for path in (f"/records/{a}", "/search?q=limited", f"/api/v1/records/{a}",
                 "/api/v1/search?q=limited", f"/sites/{q(host('acap.test'))}",
                 "/tags/acaptag", "/"):
        body = get(path)[2].decode()
        assert ACAP_DESC[:ACAP_LIMIT + 5] not in body, path
    doc = Doc(srv.html("/search?q=limited"))
    snip = doc.one("p", cls="snippet")["text"].strip()
    assert len(snip.rstrip("…").rstrip()) <= ACAP_LIMIT, snip
    doc = Doc(srv.html(f"/records/{a}"))
    why = doc.one("p", id="withheld")["text"]
    assert "20" in why and "present-snippet" in why, why


def check_nosnippet_and_max_snippet():
    items = search({"q": "snipword"})
    nos = item_of(items, "/nosnip.html")
    assert nos["description"] is None and nos.get("description_withheld"), nos
    m10 = item_of(items, "/max10.html")
    assert len(m10["description"].rstrip("…").rstrip()) <= 10, m10
    n = pid("robots.test", "/nosnip.html")
    for path in (f"/records/{n}", f"/api/v1/records/{n}", "/search?q=snipword",
                 "/api/v1/search?q=snipword"):
        body = get(path)[2].decode()
        assert "Nosnippet description" not in body, path
        assert "the rest is cut" not in body, path
    doc = Doc(srv.html("/search?q=snipword"))
    for li in doc.find("li", cls="result"):
        title = doc.one("a", cls="title", within=li)["text"]
        if title.startswith("Nosnippet"):
            assert not doc.find("p", cls="snippet", within=li), li
    Doc(srv.html(f"/records/{n}")).one("p", id="withheld")


def check_acap_each_usage_asked_precisely():
    """A present-snippet or present-thumbnail refusal withholds that thing
    only (ACAP 1.1, 2.4.3: the fallback to present is for a crawler that
    cannot act on the derived usage); the stored permissions say which
    usage was refused; a word heed may not show is not findable."""
    perm = {url.split("/", 3)[3]: json.loads(p) for url, p in ix.sql(
        "SELECT url, permissions FROM pages WHERE host = ?",
        host("acap.test"))}
    n = perm["nosnippet/n.html"]["acap"]
    assert n["present-snippet"]["permitted"] is False, n
    assert n["present-link"]["permitted"] is True, n
    assert n["present-thumbnail"]["permitted"] is True, n
    assert "present" not in n, n
    t = perm["nothumb/t.html"]["acap"]
    assert t["present-thumbnail"]["permitted"] is False, t
    assert t["present-snippet"]["permitted"] is True, t
    assert perm["nosnippet/n.html"]["search"]["description_chars"] == 0
    assert perm["words/w.html"]["search"]["description_chars"] == \
        len("Alpha wordone wordtwo")

    ns, nt = pid("acap.test", "/nosnippet/n.html"), pid("acap.test",
                                                       "/nothumb/t.html")
    rec = srv.json(f"/api/v1/records/{ns}")
    assert rec["title"] == "Snippetless page", rec
    assert rec.get("description") is None, rec
    assert "img.acap.test" in json.dumps(rec), rec
    body = get(f"/records/{ns}")[2].decode()
    assert "zebrasnip" not in body and "Snippetless page" in body
    assert "present-snippet" in body, "the record page names the usage"
    rec = srv.json(f"/api/v1/records/{nt}")
    assert rec["description"] == "Shown thumbword.", rec
    assert "img.acap.test" not in json.dumps(rec), rec
    assert "img.acap.test" not in get(f"/records/{nt}")[2].decode()

    # Listed and findable by what is shown...
    assert urls(search({"q": "snippetless"})) == {"acap.test/nosnippet/n.html"}
    assert urls(search({"q": "thumbword"})) == {"acap.test/nothumb/t.html"}
    assert urls(search({"q": "wordtwo"})) == {"acap.test/words/w.html"}
    assert "acap.test/a.html" in urls(search({"q": "description"}))
    # ... never by what is withheld: a refused snippet, words past an ACAP
    # max-length in words or chars, robots nosnippet and max-snippet.
    for word, path in (("zebrasnip", "acap.test/nosnippet/n.html"),
                       ("fourwordhidden", "acap.test/words/w.html"),
                       ("twenty", "acap.test/a.html"),
                       ("show", "robots.test/nosnip.html"),
                       ("please", "robots.test/max10.html")):
        got = urls(search({"q": word}))
        assert path not in got, (word, got)
        for page in (f"/search?q={word}", f"/api/v1/search?q={word}"):
            assert path not in get(page)[2].decode(), (word, page)


def check_hidden_pages_nowhere():
    hidden = {pid("acap.test", "/hidden/secret.html"),
              pid("robots.test", "/gone.html")}
    for i in hidden:
        for path in (f"/records/{i}", f"/api/v1/records/{i}"):
            assert get(path)[0] == 404, path
    for word in ("refusedword", "goneword", "hiddentag"):
        assert search({"q": word}) == [], word
    assert search({"tag": "hiddentag"}) == []
    all_ids = {i["id"] for i in search({}, limit=100)}
    assert not all_ids & hidden
    for path in ("/", "/api/v1/", "/tags", f"/sites/{q(host('acap.test'))}",
                 f"/api/v1/sites/{q(host('robots.test'))}", "/api/v1/tags"):
        body = get(path)[2].decode()
        for text in ("refusedword", "goneword", "hiddentag"):
            assert text not in body, (path, text)


# ---- hostile metadata --------------------------------------------------------

def check_hostile_metadata_escaped():
    h1 = pid("hostile.test", "/h1.html")
    for path in (f"/records/{h1}", "/search?q=hostileword",
                 f"/sites/{q(host('hostile.test'))}", "/", "/tags"):
        body = get(path)[2].decode()
        low = body.lower()
        assert "<script" not in low and "<img" not in low, path
        assert "href=\"javascript" not in low, path
        doc = Doc(body)
        events = [(e["tag"], k) for e in doc.elements for k in e["attrs"]
                  if k.startswith("on")]
        assert not events, (path, events)
        for a in doc.find("a"):
            href = local(a["attrs"].get("href"))
            if href.startswith(("/", "#")):
                continue
            assert href.startswith(("http://", "https://")), (path, href)
            assert set((a["attrs"].get("rel") or "").split()) >= REL, \
                (path, a["attrs"])
    doc = Doc(srv.html(f"/records/{h1}"))
    assert doc.one("h1", id="title")["text"].strip() == HOSTILE_TITLE
    rec = srv.json(f"/api/v1/records/{h1}")
    assert rec["title"] == HOSTILE_TITLE and \
        rec["description"] == HOSTILE_DESC, rec
    found = search({"q": "hostileword"})
    assert [i["id"] for i in found] == [h1], found
    tags = set(found[0]["tags"])
    assert {"quo\"te's", "</li><li>evil"} <= tags, tags
    # A tag with markup in it links to its own (escaped) tag page.
    s, _, body = get("/tags/" + q("</li><li>evil", safe=""))
    assert s == 200 and "<li>evil" not in body.decode(), s


def check_hostile_input_echoed_as_text():
    evil = '"><script>alert(1)</script><img src=x onerror=alert(2)>'
    for path in ("/search?q=" + q(evil), "/search?site=" + q(evil),
                 "/search?tag=" + q(evil), "/search?lang=" + q(evil),
                 "/search?from=" + q(evil), "/search?q=x&cursor=" + q(evil),
                 "/tags/" + q(evil, safe=""), "/sites/" + q(evil, safe=""),
                 "/irc/" + q(evil, safe=""),
                 f"/irc/{q(ix.irc.key, safe='')}?q=" + q(evil)):
        s, h, body = get(path)
        assert s in (200, 400, 404), (path, s)
        low = body.decode().lower()
        assert "<script" not in low and "<img" not in low, path
        doc = Doc(body.decode())
        events = [(e["tag"], k) for e in doc.elements for k in e["attrs"]
                  if k.startswith("on")]
        assert not events, (path, events)


def check_invalid_utf8_answered_as_utf8():
    bad = pid("hostile.test", "/bad-utf8.html")
    for path in (f"/records/{bad}", f"/api/v1/records/{bad}",
                 "/search?q=utf8word", "/api/v1/search?q=utf8word"):
        s, h, body = get(path)
        assert s == 200, (path, s)
        body.decode("utf-8")  # strict: raises on invalid bytes
    assert "utf8word" in srv.json(f"/api/v1/records/{bad}")["title"]


# ---- other pages ------------------------------------------------------------

def check_home_sites_tags_bots():
    home = srv.json("/api/v1/")
    text = json.dumps(home)
    assert "Bridge reopens after repairs" in text
    doc = Doc(srv.html("/"))
    doc.one("form", id="search")
    sites = srv.json("/api/v1/sites")
    hosts = {s["host"] for s in sites["items"]}
    want = {host(n) for n in ("news.test", "blog.test", "cook.test",
                              "acap.test", "hostile.test", "robots.test")}
    assert want <= hosts, hosts
    news = srv.json(f"/api/v1/sites/{q(host('news.test'))}")
    assert "Bridge reopens" in json.dumps(news)
    doc = Doc(srv.html(f"/sites/{q(host('news.test'))}"))
    assert host("news.test") in doc.one("h1", id="site")["text"]
    doc.one("section", id="robots")
    optout = doc.one("section", id="optout")["text"]
    assert "robots.txt" in optout and "ACAP" in optout, optout
    charts = doc.find("figure", cls="chart")
    assert charts and all(doc.find("svg", within=c) for c in charts), charts
    # The views histogram's labels are whole ranges in short numbers
    # ("10–100", "100–1k", "10M–100M"), never cut to a fixed width.
    body = srv.html(f"/sites/{q(host('news.test'))}")
    views = re.search(r'<svg[^>]*aria-label="Pages by view count.*?</svg>',
                      body, re.S)
    assert views, body[:2000]
    labels = re.findall(r'<text class="label"[^>]*>([^<]*)</text>',
                        views.group(0))
    assert labels, views.group(0)
    for label in labels:
        assert re.fullmatch(r"\d+[kMGTPE]?(\u2013\d+[kMGTPE]?)?", label), \
            labels
    # Counts name their noun in the singular for exactly one: the fixture
    # has one IRC network that may be listed, and several sites.
    home = Doc(srv.html("/"))
    counts = [li["text"].strip() for li in
              home.find("li", within=home.one("ul", id="counts"))]
    assert "1 IRC network" in counts, counts
    assert any(re.fullmatch(r"\d+ sites", c) for c in counts), counts
    tags = srv.json("/api/v1/tags")
    names = {t.get("tag") or t.get("name") for t in tags["items"]}
    assert {"transport", "culture", "garten"} <= names, names
    got = srv.json("/api/v1/tags/transport")
    assert urls(got["items"]) == {"news.test/news/1.html",
                                  "news.test/news/4.html"}
    body = srv.html("/bots")
    assert "https://heed.test/bots" in body or "ops@heed.test" in body or \
        "heed" in body


def check_irc_pages_list_allowed_networks_only():
    nets = srv.json("/api/v1/irc")
    text = json.dumps(nets)
    assert ix.irc.key in text and "ServeNet" in text, text
    assert ix.irc.deny_key not in text and "DenyNet" not in text, text
    body = srv.html("/irc")
    Doc(body).one("table", id="networks")
    assert "DenyNet" not in body and ix.irc.deny_key not in body
    key = q(ix.irc.key, safe="")
    doc = Doc(srv.html(f"/irc/{key}"))
    assert "a.ngircd.test" in doc.one("table", id="servers")["text"]
    chans = doc.one("table", id="channels")["text"]
    for name in IRC_TOPICS:
        assert name in chans, (name, chans)
    assert "<b>not bold</b>" in chans  # as text, escaped in the source
    assert "<b>not bold</b>" not in srv.html(f"/irc/{key}")
    doc.one("form", id="channel-search")
    doc = Doc(srv.html(f"/irc/{key}?q=GARDEN"))
    chans = doc.one("table", id="channels")["text"]
    assert "#gardening" in chans and "#ferries" not in chans, chans
    doc = Doc(srv.html(f"/irc/{key}?q=when%3F"))  # a topic's substring
    chans = doc.one("table", id="channels")["text"]
    assert "#ferries" in chans and "#gardening" not in chans, chans
    api = srv.json(f"/api/v1/irc/{key}?q=garden")
    assert "#gardening" in json.dumps(api) and "#ferries" not in \
        json.dumps(api)


def check_irc_sorting_preference_history_and_codes():
    key = q(ix.irc.key, safe="")
    body = srv.html(f"/irc/{key}")
    doc = Doc(body)
    # Formatting codes are gone, digits of colours included.
    chans = doc.one("table", id="channels")["text"]
    assert IRC_COLOURS_SHOWN in chans, chans
    assert "04" not in chans and "FF0000" not in chans, chans
    topics = {c["channel"]: c["topic"]
              for c in srv.json(f"/api/v1/irc/{key}")["items"]}
    assert topics["#colours"] == IRC_COLOURS_SHOWN, topics
    history = srv.json(f"/api/v1/irc/{key}")["history"]
    assert history and history[-1]["channels"] >= len(IRC_TOPICS), history
    assert [h["ended"] for h in history] == sorted(h["ended"]
                                                   for h in history)
    # Channels by users (the default), or by name.
    rows = [r for r in doc.find("tr", within=doc.one("tbody",
            within=doc.one("table", id="channels")))]
    users = [int(doc.find("td", within=r)[1]["text"].replace(",", ""))
             for r in rows]
    assert users == sorted(users, reverse=True), users
    th = doc.one("th", within=doc.one("table", id="channels"),
                 cls="num")
    assert th["attrs"].get("aria-sort") == "descending", th
    doc = Doc(srv.html(f"/irc/{key}?sort=name"))
    rows = doc.find("tr", within=doc.one("tbody",
                    within=doc.one("table", id="channels")))
    names = [doc.find("td", within=r)[0]["text"] for r in rows]
    assert names == sorted(names), names
    # The CRAWLER preference as read, and the next visit.
    pref = doc.one("dl", id="preference")["text"]
    assert "Crawler preference" in pref and "Next visit" in pref, pref
    assert "not advertised" in pref, pref  # ngircd sends no CRAWLER
    # The history of visits: users, channels and servers over time.
    assert body.count("<svg") == 3, body.count("<svg")
    assert "Channels, one bar per visit" in body
    # Networks sortable; users first by default.
    doc = Doc(srv.html("/irc"))
    heads = doc.find("th", within=doc.one("table", id="networks"))
    sorted_by = [h["text"] for h in heads if h["attrs"].get("aria-sort")]
    assert sorted_by == ["Users"], sorted_by
    for order in ("name", "servers", "channels", "visit", "bogus"):
        assert get(f"/irc?sort={order}")[0] == 200
    # The API sorts as the pages do (users by default), through cursors.
    page_users = users
    doc = Doc(srv.html(f"/irc/{key}"))
    page_names = [doc.find("td", within=r)[0]["text"] for r in doc.find(
        "tr", within=doc.one("tbody", within=doc.one("table",
                                                      id="channels")))]
    for sort, want in (("", page_names), ("&sort=users", page_names),
                       ("&sort=name", sorted(page_names))):
        got, cursor = [], None
        for _ in range(50):
            path = f"/api/v1/irc/{key}?limit=2{sort}"
            if cursor:
                path += "&cursor=" + q(cursor, safe="")
            answer = srv.json(path)
            got += answer["items"]
            cursor = answer["next_cursor"]
            if cursor is None:
                break
        assert [c["channel"] for c in got] == want, (sort, got, want)
        if sort != "&sort=name":
            assert [c["users"] for c in got] == page_users, got
    assert get(f"/api/v1/irc/{key}?sort=topic")[0] == 400
    assert get("/api/v1/irc?sort=bogus")[0] == 400
    nets = srv.json("/api/v1/irc?sort=users")["items"]
    assert [n["network"] for n in nets] == [ix.irc.key], nets


def check_openapi_document():
    """The document is JSON, 3.1, every $ref resolves inside it, every
    operation's 200 has a JSON schema, every component schema is a Draft
    2020-12 schema, and every object says what it requires and allows no
    other property (so that the answers' check below means something).
    That it names every route of the API: tests/unit/test_serve_api.c."""
    doc = OpenApi(srv.json("/api/v1/openapi.json"))
    paths = sorted(doc.doc["paths"])
    for word in ("search", "records", "sites", "tags", "irc", "bots"):
        assert any(word in p for p in paths), (word, paths)
    problems = doc.problems()
    assert not problems, problems
    loose = doc.loose()
    assert not loose, loose
    # The oracle itself can fail: a wrong answer does not validate.
    ptr = doc.schema_pointer("/api/v1/records/1", "GET", 200)
    assert doc.validate(ptr, {"error": {"status": 404, "message": "x"}})
    item = srv.json("/api/v1/search?q=bridge")["items"][0]
    assert not doc.validate(doc.schema_pointer("/api/v1/search", "GET", 200),
                            {"items": [item], "next_cursor": None,
                             "count": {"value": 1, "capped": False},
                             "query": srv.json("/api/v1/search?q=bridge")[
                                 "query"]})
    assert doc.validate(doc.schema_pointer("/api/v1/search", "GET", 200),
                        {"items": [dict(item, extra=1)], "next_cursor": None,
                         "count": {"value": 1, "capped": False},
                         "query": {}})


def api_pages(path, most=50):
    """Follows a JSON list's next_cursor from path (bounded): the number
    of pages seen."""
    sep = "&" if "?" in path else "?"
    out = srv.json(path)
    for n in range(1, most):
        if not out["next_cursor"]:
            return n
        out = srv.json(path + sep + "cursor=" + q(out["next_cursor"],
                                                  safe=""))
    raise AssertionError(f"more than {most} pages at {path}")


def check_api_answers_of_every_kind():
    """Asks the API for one answer of every kind the document describes,
    so that the check below sees each: every sort and filter, second
    pages of every list, and the errors."""
    rec = pid("news.test", "/news/1.html")
    acap = pid("acap.test", "/a.html")
    nos = pid("robots.test", "/nosnip.html")
    site = q(host("news.test"), safe="")
    acap_site = q(host("acap.test"), safe="")
    key = q(ix.irc.key, safe="")
    for path in ("/api/v1/", f"/api/v1/records/{rec}",
                 f"/api/v1/records/{acap}", f"/api/v1/records/{nos}",
                 f"/api/v1/sites/{site}", f"/api/v1/sites/{acap_site}",
                 "/api/v1/bots", "/api/v1/openapi.json",
                 f"/api/v1/irc/{key}?q=garden"):
        srv.json(path)
    for sort in ("relevance", "views", "date", "fetched"):
        assert api_pages(f"/api/v1/search?q=snipword&sort={sort}&limit=1") \
            >= 2, sort
    for params in ("sort=views", "sort=date", "sort=fetched", "q=transport",
                   f"site={q(host('blog.test'))}", "tag=transport",
                   "lang=de", "from=2026-01-01&to=2026-06-30",
                   "min_views=1000", "max_views=50",
                   "tag=transport&min_views=1000&sort=views"):
        api_pages(f"/api/v1/search?{params}&limit=2")
    assert api_pages("/api/v1/tags/transport?limit=1") >= 2
    assert api_pages("/api/v1/sites?limit=2") >= 2
    assert api_pages("/api/v1/tags?limit=2") >= 2
    api_pages("/api/v1/irc?limit=1")
    assert api_pages(f"/api/v1/irc/{key}?limit=1") >= 2
    for path in ("/api/v1/search?limit=0", "/api/v1/search?sort=sideways",
                 "/api/v1/search?q=" + "w" * 300, "/api/v1/sites?limit=x",
                 "/api/v1/tags?cursor=garbage", "/api/v1/irc?limit=0",
                 f"/api/v1/irc/{key}?limit=1000", "/api/v1/records/1%00"):
        srv.json(path, want=400)
    for path in ("/api/v1/records/99999999", "/api/v1/nope",
                 "/api/v1/sites/nosuch.test%3A1",
                 f"/api/v1/irc/{q(ix.irc.deny_key, safe='')}",
                 "/api/v1/tags/" + "t" * 400):  # longer than any tag
        srv.json(path, want=404)
    s, h, b = get("/api/v1/search?q=x", "POST", {"Content-Length": "0"})
    assert s == 405, s


def check_items_carry_authors_and_publisher():
    """An item gives every author apart and the publisher, in the
    record and in lists; a page that names none has an empty list."""
    want = {"author": "Maria Okafor; Tom Haines",
            "authors": ["Maria Okafor", "Tom Haines"],
            "publisher": "Harbour Media Ltd"}
    rec = srv.json(f"/api/v1/records/{pid('news.test', '/news/1.html')}")
    assert {k: rec.get(k) for k in want} == want, rec
    hits = srv.json("/api/v1/search?q=bridge")["items"]
    got = [{k: h.get(k) for k in want} for h in hits
           if h["url"].endswith("/news/1.html")]
    assert got == [want], hits
    # The record page shows each author as text with its source, never
    # the stored JSON.
    page = srv.html(f"/records/{pid('news.test', '/news/1.html')}")
    assert "Maria Okafor" in page and "Tom Haines" in page, page[:3000]
    assert "&quot;value&quot;" not in page and '"value"' not in page
    other = srv.json(f"/api/v1/records/{pid('news.test', '/news/2.html')}")
    assert other["authors"] == [] and other["author"] is None, other
    assert other["publisher"] == "Harbour News", other


def check_every_api_answer_matches_the_openapi_document():
    """Every JSON answer the API gave in this test, whatever asked for it,
    validates against the schema the OpenAPI document gives for its path,
    method and status; an error for a path or method the document cannot
    name (an unknown path, POST) against its Error schema."""
    doc = OpenApi(json.loads(get("/api/v1/openapi.json")[2]))
    error = "/components/schemas/Error"
    assert len(api_answers) > 300, len(api_answers)
    bad, kinds = [], set()
    for path, method, status, body in api_answers:
        ptr = doc.schema_pointer(path, method, status)
        template = [t for rx, t in doc.templates
                    if rx.match(urllib.parse.urlsplit(path).path)]
        if ptr is None and (status == 405 or (status == 404 and
                                              not template)):
            ptr = error
        if ptr is None:
            bad.append((method, path, status, "not in the document"))
            continue
        kinds.add((ptr, status))
        errors = doc.validate(ptr, json.loads(body))
        if errors:
            bad.append((method, path, status, errors[:3]))
    assert not bad, (len(bad), bad[:5])
    print(f"  {len(api_answers)} API answers valid, {len(kinds)} schemas")
    # Every operation was seen answering 200, and every error kind.
    for path, method, op in doc.operations():
        assert doc.schema_pointer(path, method, 200) in {
            p for p, s in kinds if s == 200}, (method, path)
    assert {400, 404, 405} <= {s for _, s in kinds}, kinds


def check_healthz_and_metrics_grow():
    s, h, b = get("/healthz")
    assert (s, b) == (200, b"ok\n"), (s, b)

    def requests_total():
        text = get("/metrics")[2].decode()
        total = 0.0
        for line in text.splitlines():
            if line.startswith("#") or not line.strip():
                continue
            name = line.split("{", 1)[0].split(" ", 1)[0]
            if "request" in name and name.endswith("_total"):
                total += float(line.rsplit(" ", 1)[1])
        return total, text

    before, text = requests_total()
    assert "# TYPE" in text, text[:500]
    sample = re.compile(r'^[a-zA-Z_:][a-zA-Z0-9_:]*(\{[a-zA-Z_][a-zA-Z0-9_]*='
                        r'"[^"\\]*"(,[a-zA-Z_][a-zA-Z0-9_]*="[^"\\]*")*\})? '
                        r'[-+]?([0-9.eE+-]+|Inf|NaN)$')
    bad = [x for x in text.splitlines()
           if x and not x.startswith("#") and not sample.match(x)]
    assert not bad, bad[:5]
    values = {x.rsplit(" ", 1)[0]: float(x.rsplit(" ", 1)[1])
              for x in text.splitlines() if x and not x.startswith("#")}
    assert values.get("heed_store_bytes", 0) > 0, "no store size"
    pages = ix.sql("SELECT COUNT(*) FROM pages")[0][0]
    assert values.get("heed_store_pages") == pages, \
        (values.get("heed_store_pages"), pages)
    for _ in range(5):
        get("/search?q=bridge")
    after, _ = requests_total()
    assert after >= before + 5, (before, after)


# ---- operations ---------------------------------------------------------------

def results_now():
    out = {}
    for params in ({"q": "transport"}, {"q": "Gartenblog"}, {"sort": "views"},
                   {"q": "snipword"}, {"q": "hostileword"}):
        out[json.dumps(params)] = [i["id"] for i in search(params)]
    return out


def check_reindex_gives_the_same_results():
    before = results_now()
    proc = run_heed("serve", "--reindex", "--store", ix.store, timeout=120)
    assert proc.returncode == 0, (proc.returncode, proc.stderr)
    assert results_now() == before
    db = sqlite3.connect(f"file:{ix.store}?mode=ro", uri=True)
    try:
        # search_fts needs heed's tokenizer; its shadow table of
        # document sizes has one row per indexed page.
        fts = db.execute("SELECT COUNT(*) FROM search_fts_docsize"
                         ).fetchone()[0]
        pages = db.execute("SELECT COUNT(*) FROM pages WHERE status "
                           "BETWEEN 200 AND 299").fetchone()[0]
    finally:
        db.close()
    assert fts == pages, (fts, pages)


def check_serving_while_a_crawl_writes():
    proc = subprocess.Popen([HEED] + web.crawl_args(ix.store,
                                                    web.seed("late.test")),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        found, statuses = False, set()
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            for path in ("/", "/healthz", "/search?q=snipword"):
                statuses.add(get(path)[0])
            if search({"q": "lateword"}):
                found = True
                break
            time.sleep(0.2)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert found, "the page crawled while serving never appeared"
    assert statuses == {200}, statuses
    assert proc.returncode == 0, (proc.returncode, err[-2000:])


def backup_copy():
    """A consistent copy of the store (SQLite's backup API)."""
    path = os.path.join(ix.tmp, "copy.db")
    src = sqlite3.connect(f"file:{ix.store}?mode=ro", uri=True)
    dst = sqlite3.connect(path)
    try:
        src.backup(dst)
    finally:
        src.close()
        dst.close()
    return path


def check_kill_9_mid_crawl_leaves_index_consistent():
    kill_srv = web.servers[ADDRESSES["kill.test"]]
    proc = subprocess.Popen([HEED] + web.crawl_args(ix.store,
                                                    web.seed("kill.test")),
                            stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            got = [e for e in kill_srv.log() if e["path"].startswith("/k/")]
            if len(got) >= 8:
                break
            time.sleep(0.1)
        assert proc.poll() is None, "the crawl ended before the kill"
        busy = run_heed("serve", "--reindex", "--store", ix.store, timeout=60)
        assert busy.returncode == 75 and busy.stderr.strip(), \
            (busy.returncode, busy.stderr)
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    stored = ix.sql("SELECT COUNT(*) FROM pages WHERE host = ? AND status "
                    "BETWEEN 200 AND 299", host("kill.test"))[0][0]
    assert 1 <= stored < KILL_PAGES + 1, stored
    # The index catches up every 2 s: the pages the crawl stored since
    # are marked (or above the last sweep) for the next writer, not lost,
    # and not half indexed.
    waiting = ix.sql("SELECT COUNT(*) FROM pages p WHERE p.host = ? AND "
                     "(p.id IN (SELECT page_id FROM search_pending) OR "
                     "p.id > (SELECT max_id FROM search_swept))",
                     host("kill.test"))[0][0]
    found = search({"q": "marmot"}, limit=7)
    assert len(found) + waiting == stored, (len(found), waiting, stored)
    assert len({i["id"] for i in found}) == len(found)
    # FTS5's integrity-check needs heed's tokenizer: the index holds one
    # document per page kept that is not waiting (the unit tests run the
    # check itself).
    db = sqlite3.connect(backup_copy())
    try:
        docs = db.execute("SELECT COUNT(*) FROM search_fts_docsize "
                          "WHERE id NOT IN (SELECT id FROM pages)"
                          ).fetchone()[0]
        missing = db.execute("SELECT COUNT(*) FROM pages WHERE id NOT IN "
                             "(SELECT id FROM search_fts_docsize) AND id "
                             "NOT IN (SELECT page_id FROM search_pending) "
                             "AND id <= (SELECT max_id FROM search_swept)"
                             ).fetchone()[0]
    finally:
        db.close()
    assert (docs, missing) == (0, 0), (docs, missing)
    assert get("/healthz")[0] == 200
    # The killed crawl's lock is gone with it: a rebuild runs, and finds
    # every page the crawl had stored.
    run_heed("serve", "--reindex", "--store", ix.store, timeout=120, check=0)
    assert len(search({"q": "marmot"}, limit=7)) == stored


def check_serve_says_pages_wait_for_the_index():
    """A page written since the index last caught up (here by hand, as a
    crawl killed between two catch-ups leaves its last pages): heed serve
    cannot index it, opening the store read-only, and says what will."""
    path = os.path.join(ix.tmp, "waiting.db")
    shutil.copyfile(backup_copy(), path)
    db = sqlite3.connect(path)
    try:
        db.execute("INSERT INTO pages(url, host, status, fetched_at, "
                   "checked_at, title, permissions, record) VALUES("
                   "'http://hand.test/', 'hand.test', 200, 1, 1, "
                   "'Handwritten', '{}', '{}')")
        db.commit()
    finally:
        db.close()
    other = Serve(path)
    try:
        deadline = time.monotonic() + 15
        while not other.out and time.monotonic() < deadline:
            time.sleep(0.1)
        assert other.out and other.out[0].startswith(
            "heed serve: 1 stored page waits for the search index"), \
            other.out
    finally:
        other.stop()


def check_access_log_one_line_per_request():
    marker = "/search?q=accesslogmarker"
    get(marker)
    get("/nope-for-the-log")
    deadline = time.monotonic() + 5
    lines = []
    while time.monotonic() < deadline:
        with open(ix.access_log, errors="replace") as f:
            lines = [x for x in f.read().splitlines() if x.strip()]
        if len(lines) >= srv.requests:
            break
        time.sleep(0.1)
    assert srv.requests <= len(lines) <= srv.requests + raw_requests, \
        (len(lines), srv.requests, raw_requests)
    mine = [x for x in lines if f'"GET {marker} HTTP/1.1" 200 ' in x]
    assert len(mine) == 1, lines[-3:]
    assert [x for x in lines if '"GET /nope-for-the-log HTTP/1.1" 404 ' in x]
    assert [x for x in lines if '"POST / HTTP/1.1" 405 ' in x]


# ---- the command line --------------------------------------------------------

def serve_once(*args, timeout=20):
    return subprocess.run([HEED, "serve", *args], capture_output=True,
                          text=True, timeout=timeout)


def check_help_lists_serve_options_aligned():
    """heed serve --help names only what serve reads (no crawler option),
    each description starting in one column."""
    p = serve_once("--help")
    assert p.returncode == 0, (p.returncode, p.stderr)
    for crawler in ("--dns-server", "--allow-private", "--max-pages",
                    "--user-agent"):
        assert crawler not in p.stdout, (crawler, p.stdout)
    columns = set()
    options = p.stdout.split("\n\n  -", 1)[1].split("\n\n", 1)[0]
    for line in ("  -" + options).splitlines():
        m = re.match(r"(  -\S, |      )(--\S+(?: \S+)?)( {2,})(\S)", line)
        if m:
            columns.add(m.start(4))
        elif line.startswith("      ") and line.strip() and \
                not line.lstrip().startswith("-"):
            columns.add(len(line) - len(line.lstrip()))
    assert len(columns) == 1, (columns, p.stdout)
    assert "--reindex" in p.stdout and "--listen" in p.stdout, p.stdout


def check_bad_settings():
    p = serve_once("--store", ix.store, "--listen", "nonsense")
    assert p.returncode == 2 and p.stderr.strip(), (p.returncode, p.stderr)
    p = serve_once("--store", ix.store, "--listen", "127.0.0.1:99999")
    assert p.returncode == 2 and p.stderr.strip(), (p.returncode, p.stderr)
    missing = os.path.join(ix.tmp, "none", "heed.db")
    p = serve_once("--store", missing, "--listen", "127.0.0.1:0")
    assert p.returncode == 1 and "no store at" in p.stderr, \
        (p.returncode, p.stderr)
    assert not os.path.exists(missing)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        port = s.getsockname()[1]
        p = serve_once("--store", ix.store, "--listen", f"127.0.0.1:{port}")
    assert p.returncode == 1 and p.stderr.strip(), (p.returncode, p.stderr)
    assert str(port) in p.stderr or "in use" in p.stderr, p.stderr


def check_config_file_and_base_url():
    conf = os.path.join(ix.tmp, "heed.ini")
    log = os.path.join(ix.tmp, "access2.log")
    with open(conf, "w") as f:
        f.write(f"[store]\nlocation = {ix.store}\n\n[serve]\n"
                "listen = 127.0.0.1:0\npage_size = 3\n"
                "base_url = https://index.example/heed\n"
                f"access_log = {log}\n")
    other = Serve(ix.store, "--config", conf)
    try:
        # A redirect names the address under the base URL.
        s, h, b = other.get("/search?q=&tag=")
        assert s == 303 and h.get("location") == \
            "https://index.example/heed/search", (s, h)
        s, h, b = other.get("/search")
        assert s == 200
        doc = Doc(b.decode())
        assert len(doc.find("li", cls="result")) == 3
        css = [e["attrs"]["href"] for e in doc.find("link")
               if e["attrs"].get("rel") == "stylesheet"]
        assert css and css[0].endswith("/heed/static/heed.css"), css
        nxt = doc.one("a", id="next")["attrs"]["href"]
        assert "/heed/search?" in nxt, nxt
        out = json.loads(other.get("/api/v1/search?q=bridge")[2])
        assert out["items"][0]["links"]["html"].endswith(
            f"/heed/records/{out['items'][0]['id']}") or \
            out["items"][0]["links"]["html"] == \
            f"/records/{out['items'][0]['id']}", out["items"][0]["links"]
        # The sites list pages with its own cursor (a host key).
        hosts, path = [], "/api/v1/sites"
        for _ in range(20):
            out = json.loads(other.get(path)[2])
            hosts += [x["host"] for x in out["items"]]
            assert len(out["items"]) <= 3, len(out["items"])  # page_size
            if not out["next_cursor"]:
                break
            path = "/api/v1/sites?cursor=" + q(out["next_cursor"], safe="")
        assert len(hosts) == len(set(hosts)) >= 6, hosts
        assert hosts == sorted(hosts), hosts
    finally:
        code = other.stop()
    assert code == 0, code
    with open(log) as f:
        assert len(f.read().splitlines()) >= 4


def check_access_log_on_stdout_and_threads():
    other = Serve(ix.store, "--access-log", "-", "--threads", "2")
    try:
        for _ in range(3):
            assert other.get("/api/v1/search?q=bridge")[0] == 200
        deadline = time.monotonic() + 5
        while len(other.out) < 3 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(other.out) == 3, other.out
        assert all('"GET /api/v1/search?q=bridge HTTP/1.1" 200 ' in x
                   for x in other.out), other.out
    finally:
        assert other.stop() == 0


def check_sigint_stops_with_0():
    other = Serve(ix.store)
    other.proc.send_signal(signal.SIGINT)
    assert other.proc.wait(15) == 0


try:
    checks = [
        check_store_holds_what_the_sites_said,
        check_serve_says_pages_wait_for_the_index,
        check_every_route_answers_with_its_type,
        check_head_answers_without_body,
        check_html_contract_on_every_page,
        check_search_form_has_every_input_and_label,
        check_unknown_and_missing_are_404,
        check_post_is_405_with_allow,
        check_over_long_url_and_too_many_args,
        check_request_headers_bounded,
        check_bad_parameters_are_400_with_a_message,
        check_cursor_of_another_search_is_400,
        check_nul_in_the_address_is_400,
        check_fts5_syntax_is_never_a_500,
        check_query_without_words_is_400,
        check_matched_words_marked,
        check_concurrent_requests_and_idle_connections,
        check_every_head_size_is_answered_with_headers,
        check_malformed_requests_are_400_with_headers,
        check_libmicrohttpd_own_answers,
        check_one_address_per_record_and_unknown_tags_404,
        check_atom_feeds_show_what_the_results_show,
        check_opensearch_and_links_to_feeds_and_api,
        check_search_by_title_description_tag_and_site_name,
        check_items_carry_authors_and_publisher,
        check_html_results_match_json,
        check_filters_change_results,
        check_sorts_order_results,
        check_cursor_walks_every_result_once,
        check_acap_snippet_limit_cut_in_html_and_json,
        check_nosnippet_and_max_snippet,
        check_acap_each_usage_asked_precisely,
        check_hidden_pages_nowhere,
        check_hostile_metadata_escaped,
        check_hostile_input_echoed_as_text,
        check_invalid_utf8_answered_as_utf8,
        check_home_sites_tags_bots,
        check_irc_pages_list_allowed_networks_only,
        check_irc_sorting_preference_history_and_codes,
        check_openapi_document,
        check_api_answers_of_every_kind,
        check_healthz_and_metrics_grow,
        check_reindex_gives_the_same_results,
        check_serving_while_a_crawl_writes,
        check_kill_9_mid_crawl_leaves_index_consistent,
        check_access_log_one_line_per_request,
        check_help_lists_serve_options_aligned,
        check_bad_settings,
        check_config_file_and_base_url,
        check_access_log_on_stdout_and_threads,
        check_sigint_stops_with_0,
    ]

    def check_security_headers_on_every_response():
        assert len(seen) > 100, len(seen)
        bad = [(p, s, k, h.get(k)) for p, s, h in seen
               for k, v in SECURITY.items() if h.get(k) != v]
        assert not bad, bad[:5]
        assert {s for _, s, _ in seen} >= {200, 400, 404, 405}

    def check_sigterm_stops_with_0():
        assert srv.stop() == 0, srv.proc.returncode

    Checks().main(checks + [
        check_security_headers_on_every_response,
        check_every_api_answer_matches_the_openapi_document,
        check_sigterm_stops_with_0])
finally:
    ix.close()
