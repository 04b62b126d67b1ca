#!/usr/bin/env python3
"""`heed extract` end to end: a page, a gzip sitemap and a JSON Feed from
standard input,
the header charset winning over the page's, media refused, bad usage.

Runs the real binary on files (nothing is fetched, so no server is
needed); each check compares the JSON heed prints with what the page says.
"""
import gzip
import json
import os
import subprocess
import sys

HEED = os.environ["HEED"]
DATA = os.path.join(os.environ["HEED_SOURCE_ROOT"], "tests/unit/data/extract")
failures = []


def run(args, stdin=None):
    p = subprocess.run([HEED, "extract"] + args, input=stdin,
                       capture_output=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


def check(name, cond, detail=""):
    if not cond:
        failures.append(f"{name}: {detail}")


rc, out, err = run(["--url", "https://cliphub.example/v/123", "--agent",
                    "heed", "-H", "Content-Type: text/html; charset=utf-8",
                    "-H", "X-Robots-Tag: heed: noarchive",
                    os.path.join(DATA, "video.html")])
check("page exit status", rc == 0, err.decode())
page = json.loads(out)
rec = page["record"]
check("title from og", rec["title"] == {
    "value": "Sunset timelapse over the bay", "source": "og"}, rec["title"])
check("exact views", rec["views"] == 9007199254740993, rec["views"])
check("views source", rec["views_source"] == "jsonld", rec)
check("links counted in the record", rec["links"] == len(page["links"]),
      (rec["links"], len(page["links"])))

# --record prints the record alone, one line, the same as the
# page's "record" (one writer).
rc, out, err = run(["--url", "https://cliphub.example/v/123", "--record",
                    "-H", "Content-Type: text/html; charset=utf-8",
                    os.path.join(DATA, "video.html")])
check("--record exit status", rc == 0, err.decode())
check("--record is one line", out.count(b"\n") == 1, out)
check("--record is the record", json.loads(out) == rec, out)
rc, out, err = run(["--url", "https://cliphub.example/sitemap.xml",
                    "--record", os.path.join(DATA, "sitemap-video.xml")])
check("--record on a sitemap is a usage error", rc == 2 and not out,
      (rc, out, err))
rc, out, err = run(["--url", "https://a.example/", "--record", "--feed",
                    "-"], stdin=b"<rss/>")
check("--record --feed is a usage error", rc == 2, (rc, err))
check("robots header", page["robots"]["noarchive"] is True, page["robots"])
urls = [l["url"] for l in page["links"]]
check("no media links", not any(u.endswith(".mp4") for u in urls), urls)
check("feed link", any(l["feed"] for l in page["links"]), page["links"])

with open(os.path.join(DATA, "sitemap-video.xml"), "rb") as f:
    gz = gzip.compress(f.read())
rc, out, err = run(["--url", "https://cliphub.example/sitemap.xml.gz", "-"],
                   stdin=gz)
check("sitemap exit status", rc == 0, err.decode())
sm = json.loads(out)
check("sitemap kind", sm["kind"] == "sitemap", sm["kind"])
check("sitemap views", sm["entries"][0]["views"] == 12345, sm["entries"])

# A JSON Feed, told by its first byte (no Content-Type): URLs
# resolved against the feed's, several authors kept, the next page named.
rc, out, err = run(["--url", "https://cliphub.example/feed.json", "-"],
                   stdin=json.dumps({
                       "version": "https://jsonfeed.org/version/1.1",
                       "next_url": "/feed.json?page=2",
                       "items": [{"id": "1", "url": "/v/1", "title": "One",
                                  "date_published": "2024-03-05T09:00:00Z",
                                  "authors": [{"name": "Ana"},
                                              {"name": "Bo"}]}]}).encode())
check("json feed exit status", rc == 0, err.decode())
jf = json.loads(out) if rc == 0 else {}
check("json feed kind", jf.get("kind") == "json", jf)
check("json feed next", jf.get("next") ==
      "https://cliphub.example/feed.json?page=2", jf)
check("json feed entry", jf.get("entries", [{}])[0].get("url") ==
      "https://cliphub.example/v/1" and jf["entries"][0]["author"] ==
      "Ana; Bo" and jf["entries"][0]["published"] == "2024-03-05T09:00:00Z",
      jf.get("entries"))

# The header says UTF-8, the page says Latin-1: the header wins.
rc, out, err = run(["--url", "https://a.example/", "--content-type",
                    "text/html; charset=utf-8", "-"],
                   stdin="<meta charset=iso-8859-1><title>été</title>"
                   .encode("utf-8"))
check("charset exit status", rc == 0, err.decode())
check("header charset wins", json.loads(out)["record"]["title"]["value"] ==
      "été", out)

# Authors stay several, publisher and site name apart, the
# title without its site-name suffix.
rc, out, err = run(["--url", "https://courier.example/2024/bridge",
                    os.path.join(DATA, "news.html")])
rec = json.loads(out)["record"]
check("news title without suffix", rec["title"] == {
    "value": "Harbour bridge reopens after two years", "source": "title"},
    rec["title"])
check("news authors", rec.get("authors") == [
    {"value": "Maria Okafor", "source": "jsonld"},
    {"value": "Tom Haines", "source": "jsonld"}], rec.get("authors"))
check("news publisher", rec.get("publisher") == {
    "value": "Coastal Courier Ltd", "source": "jsonld"}, rec.get("publisher"))
check("news site name", rec["site_name"]["value"] == "The Coastal Courier",
      rec["site_name"])

rc, out, err = run(["--url", "https://a.example/v.mp4", "--content-type",
                    "video/mp4", "-"], stdin=b"\x00\x00\x00\x18ftypmp42")
check("media refused", rc == 1 and b"media" in err, (rc, err))

rc, out, err = run([os.path.join(DATA, "video.html")])
check("missing --url is a usage error", rc == 2, (rc, err))
rc, out, err = run(["--url", "ftp://a.example/", "-"], stdin=b"<p>")
check("bad URL is a usage error", rc == 2, (rc, err))

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("extract_cli: all checks passed")
