"""`heed extract` prints exactly the record a crawl stores and `heed export`
writes: one writer (heed_extract_record_json) for
all three.

A scripted server on loopback (its name through the test's dnsmasq) serves
pages of different kinds: a video page (views, tags, duration, JSON-LD, a
feed link), a news page (several authors, publisher, dates), a blog, an
article, microdata, a title with its site's name, and a page written here to
be hard to serialise (quotes, backslashes, control characters, non-ASCII,
"</script>", fractional seconds). heed crawls them into a store; then `heed
extract` reads the same bytes with the same URL and the same headers, and
for every page:

  - the record it prints equals the export's "record", as parsed JSON,
    key for key and in the same order;
  - `heed extract --record` prints the very bytes of the export line's
    "record" member.

The pages must between them carry every kind of member (views, authors,
thumbnail, dates, tags, JSON-LD counters, the response's validators), so a
member one writer drops or renames cannot go unseen.
"""

import json
import os
import tempfile

from heedtest import (Checks, Dnsmasq, ScriptedHttpServer, free_port_on,
                      run_heed)

SOURCE = os.environ["HEED_SOURCE_ROOT"]
DATA = os.path.join(SOURCE, "tests/unit/data/extract")
HOST = "pages.test"
ADDR = "127.0.0.151"
CONTACT = "https://heed.test/bot"
LAST_MODIFIED = "Tue, 05 Mar 2024 09:00:00 GMT"

# Quotes, a backslash, a control character, non-ASCII text and an emoji,
# "</script>" in text, a fractional-second date, several tags.
HARD = ("<!doctype html><html lang=fr><head><meta charset=utf-8>"
        "<title>Quote \" and back\\slash \u00e9t\u00e9 \U0001f3ac"
        " &lt;/script&gt; | Le Site</title>"
        "<meta name=description content='tab\there, ctl\x01here, "
        "nl&#10;here'>"
        "<meta property=og:site_name content='Le Site'>"
        "<meta property=article:published_time "
        "content='2024-05-01T10:00:00.250+02:00'>"
        "<meta name=keywords content='un, deux, \u00e9t\u00e9'>"
        "<meta property=og:image content='/img/a b.jpg'>"
        "</head><body><a href='/next?a=1&amp;b=\"2\"'>next</a>"
        "</body></html>").encode("utf-8")

PAGES = {name: open(os.path.join(DATA, name), "rb").read()
         for name in ("video.html", "news.html", "blog.html", "article.html",
                      "microdata.html", "title-sep.html")}
PAGES["hard.html"] = HARD


def headers(name):
    return {"Content-Type": "text/html; charset=utf-8",
            "ETag": f'"{name}-v1"', "Last-Modified": LAST_MODIFIED}


def script():
    s = {"/robots.txt": ("status", 200, b"User-agent: *\nAllow: /\n",
                         {"Content-Type": "text/plain"})}
    for name, body in PAGES.items():
        s["/p/" + name] = ("status", 200, body, headers(name))
    return s


def crawl_and_export():
    """{url: raw export line} after crawling every page (depth 0)."""
    tmp = tempfile.mkdtemp(prefix="heed-extract-record-")
    store = os.path.join(tmp, "heed.db")
    with Dnsmasq(hosts={HOST: [ADDR]}) as dns:
        port = free_port_on([ADDR])
        with ScriptedHttpServer(ADDR, port, script()) as srv:
            urls = [f"http://{HOST}:{port}/p/{n}" for n in PAGES]
            run_heed("crawl", "--store", store, "--dns-server", dns.server,
                     "--allow-private", "--contact-url", CONTACT,
                     "--max-depth", "0", "--quiet", *urls, timeout=120,
                     check=0)
            served = {e["path"] for e in srv.log() if e["status"] == 200}
    assert served >= {"/p/" + n for n in PAGES}, served
    out = run_heed("export", "--store", store, check=0).stdout
    lines = {json.loads(line)["url"]: line for line in out.splitlines()}
    assert set(lines) == set(urls), (sorted(lines), urls)
    return lines


def extract(url, name, *extra):
    path = os.path.join(tempfile.mkdtemp(prefix="heed-extract-"), name)
    with open(path, "wb") as f:
        f.write(PAGES[name])
    args = ["extract", "--url", url, "--agent", "heed"]
    for k, v in headers(name).items():
        args += ["--header", f"{k}: {v}"]
    return run_heed(*args, *extra, path, check=0).stdout


def raw_record(line):
    """The bytes of an export line's "record" member: the last member
    (heed/record.h), and no string holds the unescaped key."""
    start = line.index(',"record":') + len(',"record":')
    assert line.endswith("}"), line
    return line[start:-1]


LINES = crawl_and_export()


def name_of(url):
    return url.rsplit("/", 1)[1]


def check_record_equals_export():
    for url, line in LINES.items():
        stored = json.loads(line)["record"]
        printed = json.loads(extract(url, name_of(url)))["record"]
        assert printed == stored, (url, printed, stored)
        assert list(printed) == list(stored), (url, list(printed),
                                               list(stored))


def check_record_option_is_the_exported_bytes():
    for url, line in LINES.items():
        out = extract(url, name_of(url), "--record")
        assert out.endswith("\n") and out.count("\n") == 1, out
        assert out[:-1] == raw_record(line), (url, out, raw_record(line))


def check_pages_cover_every_kind_of_member():
    records = {name_of(u): json.loads(l)["record"] for u, l in LINES.items()}
    keys = set().union(*records.values())
    want = {"title", "description", "author", "authors", "published",
            "modified", "thumbnail", "views", "views_source", "duration_s",
            "tags", "publisher", "site_name", "language", "content_type",
            "last_modified", "etag", "byte_size", "links",
            "jsonld_blocks"}
    assert want <= keys, sorted(want - keys)
    assert records["video.html"]["views"] == 9007199254740993, records
    assert len(records["news.html"]["authors"]) == 2, records["news.html"]
    assert records["video.html"]["etag"] == '"video.html-v1"'


def check_hard_page_kept_exactly():
    rec = json.loads(LINES[[u for u in LINES
                            if u.endswith("/hard.html")][0]])["record"]
    title = rec["title"]["value"]
    assert title.startswith('Quote " and back\\slash \u00e9t\u00e9 '
                            '\U0001f3ac </script>'), title
    # The fraction kept as given, and the publisher's own offset.
    assert rec["published"]["value"] == "2024-05-01T10:00:00.250+02:00", \
        rec["published"]
    assert [t["value"] for t in rec["tags"]] == ["un", "deux",
                                                 "\u00e9t\u00e9"], rec


Checks().main([check_record_equals_export,
               check_record_option_is_the_exported_bytes,
               check_pages_cover_every_kind_of_member,
               check_hard_page_kept_exactly])
