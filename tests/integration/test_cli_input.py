"""Hostile and mistaken input on heed's command line: identity
settings that would inject headers, CSV cells that a spreadsheet would run
as formulas, `export --site HOST` on any port, impossible dates, an empty
DNS name, a folder as --config, a public suffix as verify.domain, a
`--refresh` or [revisit] setting that makes no sense, and 100 kB
values in messages. Each check runs heed itself and judges its exit
status, its words and, for the crawl, what the server received."""

import csv
import io
import json
import os
import re
import tempfile

from heedtest import Checks, ScriptedHttpServer, free_port, run_heed

CONTACT = ["--contact-email", "ops@example.org"]
# Titles a spreadsheet would read as formulas, and two it would not.
TITLES = {
    "/": '=HYPERLINK("http://evil.example/","click")',
    "/b": "+cmd|' /C calc'!A0",
    "/c": "-2+3",
    "/d": "@SUM(1+1)",
    # heed trims the white space around a title, TAB included: what
    # starts the cell is the '=' after it.
    "/e": "\t=Tabbed",
    "/f": "Plain, with a comma",
    "/g": "a=b stays",
}
LONG = "a" * 100000
TMP = tempfile.mkdtemp(prefix="heed-cli-input-")


def html(title, links=()):
    t = (title.replace("&", "&amp;").replace("<", "&lt;")
         .replace("\t", "&#9;"))
    a = "".join(f'<a href="{p}">x</a>' for p in links)
    return (f"<!doctype html><html><head><title>{t}</title></head>"
            f"<body>{a}</body></html>").encode()


def page(body):
    return ("status", 200, body, {"Content-Type": "text/html; charset=utf-8"})


class Site:
    """One crawled site whose pages carry TITLES, in a store under TMP."""

    def __init__(self):
        self.port = free_port()
        script = {"/robots.txt": ("status", 200, b"User-agent: *\nAllow: /\n")}
        for path, title in TITLES.items():
            links = [p for p in TITLES if p != "/"] if path == "/" else []
            script[path] = page(html(title, links))
        self.srv = ScriptedHttpServer("127.0.0.1", self.port, script)
        self.store = os.path.join(TMP, "heed.db")
        self.crawled = False

    def crawl(self):
        if not self.crawled:
            run_heed("crawl", "--store", self.store, "--allow-private",
                     *CONTACT, "--quiet", f"http://127.0.0.1:{self.port}/",
                     timeout=120, check=0)
            self.crawled = True
        return self


SITE = Site()


def export(*args, check=0):
    return run_heed("export", "--store", SITE.crawl().store, *args,
                    check=check)


def csv_titles(text):
    rows = list(csv.DictReader(io.StringIO(text, newline="")))
    return {r["url"].split("/", 3)[3]: r["title"] for r in rows}


def one_line(proc):
    """stderr has no line longer than a terminal's few hundred bytes."""
    longest = max((len(l) for l in proc.stderr.splitlines()), default=0)
    assert longest < 300, f"a {longest}-byte line: {proc.stderr[:400]}"


# 1. Identity values: checked where settings are read, from every source.

def test_header_injection_refused():
    port = free_port()
    with ScriptedHttpServer("127.0.0.1", port,
                            {"/robots.txt": ("status", 200, b"")}) as srv:
        proc = run_heed("crawl", "--store", os.path.join(TMP, "inj.db"),
                        "--allow-private", "--set",
                        "identity.contact_email=a@b\r\nX-Evil: injected",
                        f"http://127.0.0.1:{port}/")
        assert proc.returncode != 0, proc.stderr
        assert "identity.contact_email" in proc.stderr, proc.stderr
        assert "control character" in proc.stderr, proc.stderr
        assert srv.log() == [], srv.log()


def test_identity_refused_from_every_source():
    ini = os.path.join(TMP, "token.ini")
    with open(ini, "w") as f:
        f.write("[identity]\nproduct_token = he ed\n")
    for cmd in ("page", "export"):
        for args in (["--set", "identity.product_token=he ed"],
                     ["--config", ini],
                     ["--contact-email", "bo ts@example.org"],
                     ["--contact-url", "javascript:alert(1)"]):
            proc = run_heed(cmd, "--store", os.path.join(TMP, "id.db"),
                            *args, check=2)
            assert "identity." in proc.stderr, (cmd, args, proc.stderr)
            assert proc.stdout == "", (cmd, args, proc.stdout)


def test_good_identity_accepted():
    run_heed("page", "--format", "markdown", "--set",
             "identity.product_token=heed-bot_2.0", "--contact-url",
             "https://crawler.example.org/bots", "--contact-email",
             "ops@example.org", "--set", "verify.domain=crawler.example.org",
             check=0)


# 2. CSV: would-be formulas neutralised, --csv-raw keeps them.

def test_csv_formulas_neutralised():
    titles = csv_titles(export("--format", "csv").stdout)
    assert len(titles) == len(TITLES), titles
    for path, title in TITLES.items():
        got = titles[path.lstrip("/")]
        title = title.strip()
        if title[0] in "=+-@\t\r":
            assert got == "'" + title, (path, got)
        else:
            assert got == title, (path, got)


def test_csv_raw():
    titles = csv_titles(export("--format", "csv", "--csv-raw").stdout)
    for path, title in TITLES.items():
        assert titles[path.lstrip("/")] == title.strip(), (path, titles)
    proc = export("--format", "jsonl", "--csv-raw", check=2)
    assert "--csv-raw" in proc.stderr, proc.stderr


def test_jsonl_unchanged():
    rows = [json.loads(l) for l in export().stdout.splitlines()]
    got = {r["url"].split("/", 3)[3]: r["title"] for r in rows}
    for path, title in TITLES.items():
        assert got[path.lstrip("/")] == title.strip(), (path, got)


# 4. --site HOST takes the host on any port; HOST:PORT that port only.

def test_site_any_port():
    n = len(TITLES)
    for site, want in (("127.0.0.1", n), (f"127.0.0.1:{SITE.port}", n),
                       ("127.0.0.2", 0), ("127.0.0.1:1", 0),
                       ("127.0.0", 0)):
        rows = export("--site", site).stdout.splitlines()
        assert len(rows) == want, (site, len(rows))


# 5. Impossible dates are usage errors.

def test_since_real_dates():
    for bad in ("2026-02-30", "2025-02-29", "2026-04-31",
                "2026-02-30T10:00:00Z", "2026-13-01", "yesterday"):
        proc = export("--since", bad, check=2)
        assert "--since" in proc.stderr and bad in proc.stderr, proc.stderr
    for good in ("2024-02-29", "2026-02-28", "2026-01-31T23:59:59Z",
                 "@0"):
        export("--since", good, check=0)


# 6. An empty DNS name is not a host.

def test_dns_empty_name():
    for name in ("", "."):
        proc = run_heed("dns", "--dns-server", "127.0.0.1:1", name,
                        check=2)
        assert "empty" in proc.stderr or "root" in proc.stderr, proc.stderr
        assert proc.stdout == "", proc.stdout
    proc = run_heed("dns", "--dns-server", "127.0.0.1:1", LONG, check=2)
    assert "(100000 bytes)" in proc.stderr, proc.stderr[:300]
    one_line(proc)


# 7. --config must be a readable settings file.

def test_config_folder():
    db = os.path.join(TMP, "cfg.db")
    for args in (["page"], ["export", "--store", db],
                 ["verify", "--domain", "crawler.example.org",
                  "192.0.2.1"]):
        proc = run_heed(args[0], "--config", TMP, *args[1:], check=2)
        assert "folder" in proc.stderr, (args, proc.stderr)
    missing = os.path.join(TMP, "no-such.ini")
    proc = run_heed("page", "--config", missing, check=2)
    assert "no-such.ini" in proc.stderr, proc.stderr


# 8. Long values in messages: 80 bytes, an ellipsis and the length.

def test_long_values_shortened():
    url = "http://" + LONG[:99993]
    for args in (["page", "--contact-url", url + " x"],
                 ["page", "--set", "log.level=" + LONG],
                 ["export", "--store", os.path.join(TMP, "l.db"),
                  "--format", LONG],
                 ["export", "--store", os.path.join(TMP, "l.db"),
                  "--since", LONG]):
        proc = run_heed(*args, check=2)
        assert re.search("\u2026 \\(1000[01][0-9] bytes\\)", proc.stderr), \
            proc.stderr[:300]
        one_line(proc)


# 9. A public suffix is no verification domain.

def test_verify_domain_public_suffix():
    for domain in ("com", "co.uk", "COM."):
        proc = run_heed("page", "--set", f"verify.domain={domain}",
                        check=2)
        assert "public suffix" in proc.stderr, proc.stderr
        assert proc.stdout == "", proc.stdout
    ini = os.path.join(TMP, "suffix.ini")
    with open(ini, "w") as f:
        f.write("[verify]\ndomain = github.io\n")
    proc = run_heed("page", "--config", ini, check=2)
    assert "suffix.ini:2:" in proc.stderr, proc.stderr


# 10. --refresh is due or all, and the [revisit] settings bound each other:
# usage errors before any request.

def test_refresh_and_revisit_settings():
    port = free_port()
    ini = os.path.join(TMP, "revisit.ini")
    with open(ini, "w") as f:
        f.write("[revisit]\ninitial = 40d\n")
    with ScriptedHttpServer("127.0.0.1", port,
                            {"/robots.txt": ("status", 200, b"")}) as srv:
        for args, says in (
                (["--refresh", "nonsense"],
                 "crawl.refresh: 'nonsense' is neither due"),
                (["--refresh", ""], "crawl.refresh"),
                (["--set", "crawl.refresh=ALL"], "crawl.refresh"),
                (["--set", "revisit.min=30s"],
                 "revisit.min is 30 s; it must be at least 60 s"),
                (["--set", "revisit.grow=1e3"],
                 "revisit.grow: '1e3' is not a decimal number"),
                (["--set", "revisit.shrink=1"], "revisit.shrink is 1"),
                (["--config", ini], "revisit.initial (3456000 s) must lie"
                 " between revisit.min (3600 s) and revisit.max")):
            proc = run_heed("crawl", "--store", os.path.join(TMP, "rf.db"),
                            "--allow-private", *CONTACT, *args,
                            f"http://127.0.0.1:{port}/", check=2)
            assert says in proc.stderr, (args, proc.stderr)
            one_line(proc)
        assert srv.log() == [], srv.log()
    # Well-formed values pass where settings are read.
    run_heed("page", "--format", "markdown", "--set", "crawl.refresh=all",
             "--set", "revisit.min=1m", "--set", "revisit.grow=2.5",
             check=0)


try:
    Checks().main([
        test_header_injection_refused,
        test_identity_refused_from_every_source,
        test_good_identity_accepted,
        test_csv_formulas_neutralised,
        test_csv_raw,
        test_jsonl_unchanged,
        test_site_any_port,
        test_since_real_dates,
        test_dns_empty_name,
        test_config_folder,
        test_long_values_shortened,
        test_verify_domain_public_suffix,
        test_refresh_and_revisit_settings,
    ])
finally:
    SITE.srv.close()
