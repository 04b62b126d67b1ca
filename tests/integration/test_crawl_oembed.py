"""oEmbed discovery and reading in a crawl, judged from the
servers' log and from `heed export`, with names resolved by the test's own
dnsmasq and scripted servers on loopback:

  solo.test   alone on 127.0.0.81: a page with nothing but a JSON oEmbed
              link (its record is filled from the answer), a page with its
              own title and author and an XML oEmbed link (its own values
              stay, oEmbed fills the rest), a page whose oEmbed endpoint is
              on other.test
  other.test  127.0.0.83, outside the crawl: never asked (0 requests)
  a.test,     two name-based sites on 127.0.0.82, each with a page naming
  b.test      a JSON oEmbed endpoint on its own host
  deny.test   127.0.0.84: robots.txt disallows /oembed, never asked
  arr.test    127.0.0.85: its owner named an oEmbed endpoint (`heed sites
              set --endpoint URL --endpoint-kind oembed`, incremental
              only): the pages its sitemap lists are read through
              URL?url=PAGE&format=json, their HTML never requested, a
              page robots.txt disallows not even through the endpoint

Every oEmbed request keeps its host's 1 s delay and comes after its
robots.txt, as every other request does.
"""

import json
import os
import tempfile

from urllib.parse import quote

from heedtest import (Checks, Dnsmasq, ScriptedHttpServer, free_port_on,
                      run_heed)

HTML = {"Content-Type": "text/html; charset=utf-8"}
JSON = {"Content-Type": "application/json+oembed"}
XML = {"Content-Type": "text/xml+oembed; charset=utf-8"}
ROBOTS_OK = ("status", 200, b"User-agent: *\nDisallow: /private/\n")


def html(head, body=b""):
    return ("status", 200, b"<!doctype html><html><head>" + head +
            b"</head><body>" + body + b"</body></html>", HTML)


def links(*paths):
    return b"".join(b'<a href="%s">x</a> ' % p.encode() for p in paths)


def oembed_link(href, kind="json"):
    t = "application/json+oembed" if kind == "json" else "text/xml+oembed"
    return f'<link rel="alternate" type="{t}" href="{href}">'.encode()


def answer_json(title, author, provider, thumb):
    return ("status", 200, json.dumps({
        "type": "video", "version": "1.0", "title": title,
        "author_name": author, "author_url": "/people/x",
        "provider_name": provider, "thumbnail_url": thumb,
        "thumbnail_width": 480, "thumbnail_height": 360,
        "width": 640, "height": 360,
        "html": "<iframe src='https://player.example/1'></iframe>"}).encode(),
        JSON)


ADDR = {"solo.test": "127.0.0.81", "a.test": "127.0.0.82",
        "b.test": "127.0.0.82", "other.test": "127.0.0.83",
        "deny.test": "127.0.0.84", "arr.test": "127.0.0.85"}
port = free_port_on(sorted(set(ADDR.values())))
OTHER = f"http://other.test:{port}"

SOLO = {
    "/robots.txt": ROBOTS_OK,
    "/": html(b"<title>Solo</title>", links("/p1.html", "/p2.html",
                                            "/p3.html")),
    # Nothing but the oEmbed link: the answer gives every value.
    "/p1.html": html(oembed_link("/oembed?url=p1")),
    "/oembed?url=p1": answer_json("Sunset timelapse", "Ana Lopez",
                                  "ClipHub", "/thumbs/p1.jpg"),
    # Its own title and author win; oEmbed fills publisher and image.
    "/p2.html": html(b"<title>Own title</title>"
                     b'<meta name="author" content="Own Author">'
                     + oembed_link("/oembed.xml?url=p2", "xml")),
    "/oembed.xml?url=p2": (
        "status", 200,
        b'<?xml version="1.0" encoding="utf-8"?><oembed>'
        b"<version>1.0</version><type>photo</type>"
        b"<title>Provider title</title><author_name>Provider Author"
        b"</author_name><provider_name>PicHub</provider_name>"
        b"<thumbnail_url>https://cdn.solo.test/p2.jpg</thumbnail_url>"
        b"<url>https://cdn.solo.test/p2-full.jpg</url>"
        b"<html>&lt;img src=x&gt;</html></oembed>", XML),
    # Its endpoint is on a host the crawl does not cover.
    "/p3.html": html(b"<title>Three</title>" +
                     oembed_link(f"{OTHER}/oembed?url=p3")),
}
SHARED = {
    "/robots.txt": ROBOTS_OK,
    "/": html(b"<title>Shared</title>", links("/v1.html")),
    "/v1.html": html(oembed_link("/oembed/v1")),
    "/oembed/v1": answer_json("Shared video", "Bo", "VidHost",
                              "/thumbs/v1.jpg"),
}
DENY = {
    "/robots.txt": ("status", 200, b"User-agent: *\nDisallow: /oembed\n"),
    "/": html(b"<title>Deny</title>", links("/d1.html")),
    "/d1.html": html(oembed_link("/oembed?url=d1")),
    "/oembed?url=d1": answer_json("Never", "Never", "Never", "/n.jpg"),
}
ARR = f"http://arr.test:{port}"


def through(page):
    return "/api/oembed?url=" + quote(f"{ARR}{page}", safe="") + \
        "&format=json"


ARR_SCRIPT = {
    "/robots.txt": ("status", 200, f"User-agent: *\nDisallow: /private/\n"
                    f"Sitemap: {ARR}/sitemap.xml\n".encode()),
    "/": html(b"<title>Arr</title>", links("/a1.html")),
    "/sitemap.xml": ("status", 200, (
        '<?xml version="1.0"?><urlset xmlns='
        '"http://www.sitemaps.org/schemas/sitemap/0.9">' +
        "".join(f"<url><loc>{ARR}{p}</loc></url>"
                for p in ("/a1.html", "/a2.html", "/private/a3.html")) +
        "</urlset>").encode(), {"Content-Type": "application/xml"}),
    "/a1.html": html(b"<title>HTML one</title>"),
    "/a2.html": html(b"<title>HTML two</title>"),
    through("/a1.html"): answer_json("Arranged one", "Cy", "ArrHub",
                                     "/t/a1.jpg"),
    through("/a2.html"): answer_json("Arranged two", "Cy", "ArrHub",
                                     "/t/a2.jpg"),
    through("/private/a3.html"): answer_json("No", "No", "No", "/n.jpg"),
}
OTHER_SCRIPT = {"/oembed?url=p3": answer_json("X", "X", "X", "/x.jpg"),
                "/robots.txt": ROBOTS_OK}

tmp = tempfile.mkdtemp(prefix="heed-oembed-")
store = os.path.join(tmp, "heed.db")
servers = {
    "127.0.0.81": ScriptedHttpServer("127.0.0.81", port, SOLO),
    "127.0.0.82": ScriptedHttpServer("127.0.0.82", port, SHARED),
    "127.0.0.83": ScriptedHttpServer("127.0.0.83", port, OTHER_SCRIPT),
    "127.0.0.84": ScriptedHttpServer("127.0.0.84", port, DENY),
    "127.0.0.85": ScriptedHttpServer("127.0.0.85", port, ARR_SCRIPT),
}
SEEDS = [f"http://{h}:{port}/" for h in ("solo.test", "a.test", "b.test",
                                         "deny.test", "arr.test")]
arranged = run_heed("sites", "set", "arr.test", "--endpoint",
                    f"{ARR}/api/oembed", "--endpoint-kind", "oembed",
                    "--mode", "incremental", "--json", "--store", store,
                    check=0)
with Dnsmasq(hosts={h: [a] for h, a in ADDR.items()}) as dns:
    crawl = run_heed("crawl", "--store", store, "--allow-private",
                     "--dns-server", dns.server, "--set", "log.level=3",
                     "--contact-email", "ops@example.org", *SEEDS,
                     timeout=120)
log = [dict(r, host=(r["host"] or "").split(":")[0])
       for s in servers.values() for r in s.log()]
for s in servers.values():
    s.close()
exported = [json.loads(line) for line in run_heed(
    "export", "--store", store, check=0).stdout.splitlines()]


def of(host):
    return sorted((r for r in log if r["host"] == host),
                  key=lambda r: r["t"])


def paths(host):
    return [r["path"] for r in of(host)]


def record(url):
    r = next((r for r in exported if r["url"] == url), None)
    assert r is not None, (url, [r["url"] for r in exported])
    return r["record"]


def value(rec, key):
    f = rec.get(key)
    return (f["value"], f["source"]) if f else None


def check_crawl_ran():
    assert crawl.returncode == 0, crawl


def check_oembed_endpoints_asked_once():
    assert paths("solo.test").count("/oembed?url=p1") == 1, paths("solo.test")
    assert paths("solo.test").count("/oembed.xml?url=p2") == 1
    for h in ("a.test", "b.test"):
        assert paths(h).count("/oembed/v1") == 1, (h, paths(h))


def check_other_host_never_asked():
    assert servers["127.0.0.83"].log() == [], servers["127.0.0.83"].log()
    assert "1 endpoints not asked" in crawl.stdout, crawl.stdout
    assert "oEmbed endpoint of a site outside the crawl" in crawl.stderr, \
        crawl.stderr[-3000:]


def check_robots_disallow_kept():
    p = paths("deny.test")
    assert "/d1.html" in p, p
    assert not [x for x in p if x.startswith("/oembed")], p
    # Queued, then refused by the rules like any other URL (and arr.test's
    # /private/a3.html, never read through its endpoint either).
    assert "2 refused by robots.txt/ACAP" in crawl.stdout, crawl.stdout


def check_robots_first_and_one_second_apart():
    for h in ("solo.test", "a.test", "b.test", "deny.test", "arr.test"):
        rs = of(h)
        assert rs and rs[0]["path"] == "/robots.txt", (h, paths(h))
        gaps = [b["t"] - a["t"] for a, b in zip(rs, rs[1:])]
        assert gaps and min(gaps) >= 1.0, (h, gaps)


def check_summary_counts_filled_records():
    assert "oEmbed: 6 records filled" in crawl.stdout, crawl.stdout


def check_record_filled_where_page_lacked():
    rec = record(f"http://solo.test:{port}/p1.html")
    assert value(rec, "title") == ("Sunset timelapse", "oembed"), rec
    assert value(rec, "author") == ("Ana Lopez", "oembed"), rec
    assert rec["authors"] == [{"value": "Ana Lopez", "source": "oembed"}]
    assert value(rec, "publisher") == ("ClipHub", "oembed"), rec
    assert value(rec, "thumbnail") == (
        f"http://solo.test:{port}/thumbs/p1.jpg", "oembed"), rec
    o = rec["oembed"]
    assert o["url"] == f"http://solo.test:{port}/oembed?url=p1", o
    assert (o["type"], o["width"], o["height"]) == ("video", 640, 360), o
    assert o["author_url"] == f"http://solo.test:{port}/people/x", o
    # The html member is never kept, anywhere in the record.
    assert "iframe" not in json.dumps(rec), rec
    row = next(r for r in exported if r["url"].endswith("/p1.html"))
    assert row["title"] == "Sunset timelapse", row


def check_page_own_values_win():
    rec = record(f"http://solo.test:{port}/p2.html")
    assert value(rec, "title") == ("Own title", "title"), rec
    assert value(rec, "author") == ("Own Author", "meta"), rec
    assert value(rec, "publisher") == ("PicHub", "oembed"), rec
    assert value(rec, "thumbnail") == ("https://cdn.solo.test/p2.jpg",
                                       "oembed"), rec
    assert rec["oembed"]["type"] == "photo", rec
    assert "p2-full" not in json.dumps(rec) and "<img" not in \
        json.dumps(rec), rec


def check_uncovered_and_denied_pages_keep_their_own():
    rec = record(f"http://solo.test:{port}/p3.html")
    assert value(rec, "title") == ("Three", "title"), rec
    assert "oembed" not in rec, rec
    rec = record(f"http://deny.test:{port}/d1.html")
    assert "oembed" not in rec and "title" not in rec, rec


def check_name_based_sites_filled():
    for h in ("a.test", "b.test"):
        rec = record(f"http://{h}:{port}/v1.html")
        assert value(rec, "title") == ("Shared video", "oembed"), (h, rec)
        assert value(rec, "thumbnail") == (
            f"http://{h}:{port}/thumbs/v1.jpg", "oembed"), (h, rec)


def check_arrangement_recorded():
    a = json.loads(arranged.stdout)
    assert (a["endpoint"], a["endpoint_kind"]) == (f"{ARR}/api/oembed",
                                                   "oembed"), a


def check_endpoint_kind_needs_an_endpoint():
    bad = run_heed("sites", "set", "none.test", "--endpoint-kind", "oembed",
                   "--store", store)
    assert bad.returncode == 2 and "no endpoint" in bad.stderr, bad
    bad = run_heed("sites", "set", "arr.test", "--endpoint-kind", "json",
                   "--store", store)
    assert bad.returncode == 2 and "source" in bad.stderr, bad
    shown = json.loads(run_heed("sites", "show", "--json", "arr.test",
                                "--store", store, check=0).stdout)
    assert shown["endpoint_kind"] == "oembed", shown


def check_arranged_pages_read_through_endpoint():
    p = paths("arr.test")
    assert "/sitemap.xml" in p, p
    assert p.count(through("/a1.html")) == 1, p
    assert p.count(through("/a2.html")) == 1, p
    # Neither the listed pages' HTML nor a disallowed page, not even
    # through the endpoint.
    assert not [x for x in p if x in ("/a1.html", "/a2.html")
                or "a3" in x], p
    for page, title in (("/a1.html", "Arranged one"),
                        ("/a2.html", "Arranged two")):
        rec = record(f"{ARR}{page}")
        assert value(rec, "title") == (title, "oembed"), rec
        assert value(rec, "publisher") == ("ArrHub", "oembed"), rec
        assert rec["oembed"]["url"] == f"{ARR}{through(page)}", rec
    row = next(r for r in exported if r["url"] == f"{ARR}/a1.html")
    assert (row["status"], row["title"]) == (200, "Arranged one"), row
    assert not [r for r in exported if "a3" in r["url"]]


def check_records_served_match_the_api_schema():
    # The public index serves every record filled from oEmbed, and each
    # answer holds to the API's closed schema (src/serve/openapi.c).
    import sqlite3
    from openapidoc import OpenApi
    from servefixture import Serve
    db = sqlite3.connect(store)
    ids = dict(db.execute("SELECT url, id FROM pages").fetchall())
    db.close()
    srv = Serve(store)
    try:
        doc = OpenApi(srv.json("/api/v1/openapi.json"))
        ptr = doc.schema_pointer("/api/v1/records/1", "GET", 200)
        filled = 0
        for url, i in sorted(ids.items()):
            answer = srv.json(f"/api/v1/records/{i}")
            errors = doc.validate(ptr, answer)
            assert not errors, (url, errors, answer)
            if "oembed" in answer.get("record", {}):
                filled += 1
                # The oracle can fail: an html member would not validate.
                bad = json.loads(json.dumps(answer))
                bad["record"]["oembed"]["html"] = "<iframe></iframe>"
                assert doc.validate(ptr, bad), bad
        assert filled >= 6, filled
    finally:
        srv.stop()


Checks().main([
    check_arrangement_recorded,
    check_endpoint_kind_needs_an_endpoint,
    check_arranged_pages_read_through_endpoint,
    check_crawl_ran,
    check_oembed_endpoints_asked_once,
    check_other_host_never_asked,
    check_robots_disallow_kept,
    check_robots_first_and_one_second_apart,
    check_summary_counts_filled_records,
    check_record_filled_where_page_lacked,
    check_page_own_values_win,
    check_uncovered_and_denied_pages_keep_their_own,
    check_name_based_sites_filled,
    check_records_served_match_the_api_schema,
])
