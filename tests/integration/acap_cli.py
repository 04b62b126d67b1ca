"""`heed robots check --usage`, `explain` and `lint` on ACAP 1.1 files, end
to end: text, JSON and exit statuses (docs/acap.md)."""
import json
import os
import subprocess
import sys
import tempfile

HEED = os.environ["HEED"]
T0 = "1253836800"  # 2009-09-25 00:00:00 UTC
failures = []

FILE = b"""##ACAP version=1.1
ACAP-version: 1.1
User-agent: *
Disallow: /private/

ACAP-resource-set: news /news/ /current-news/
ACAP-qualified-usage: short-snippet present-snippet max-length=30-words time-limit=7-days
ACAP-crawler: *
ACAP-allow-crawl: /
ACAP-disallow-index: /drafts/
ACAP-allow-(short-snippet): the-acap:resource-set:news
ACAP-allow-present-thumbnail: /img/ must-use-resource=/cover.jpg
ACAP-usage-purpose: archive
ACAP-disallow-preserve: /
ACAP-crawler: heed
ACAP-allow-crawl: /private/
ACAP-request-re-crawl: /news/fixed.htm
"""


def heed(*args, stdin=None):
    p = subprocess.run([HEED, "robots", *args], input=stdin,
                       capture_output=True, timeout=60)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def expect(name, cond, detail=""):
    if not cond:
        failures.append(f"{name}: {detail}")


def test_check(path):
    rc, out, _ = heed("check", path, "https://example.org/private/a")
    expect("crawl by default, named ACAP record wins over conventional *",
           rc == 0 and "allowed (crawl)" in out and f"{path}:16:" in out,
           out)
    rc, out, _ = heed("check", "--agent", "slurp", path, "/private/a")
    expect("conventional Disallow still binds other crawlers",
           rc == 1 and f"{path}:4:" in out and "disallowed" in out, out)
    rc, out, _ = heed("check", "--usage", "index", path, "/drafts/x", "/a")
    expect("any prohibited exits 1", rc == 1 and
           "/drafts/x: disallowed (index)" in out and
           "/a: allowed (index)" in out, out)
    rc, out, _ = heed("check", "--usage", "preserve", "--purpose", "archive",
                      path, "/a")
    expect("purpose selects the sub-record", rc == 1 and f"{path}:14:" in out,
           out)
    rc, out, _ = heed("check", "--usage", "preserve", path, "/a")
    expect("no purpose, no sub-record", rc == 0, out)
    rc, out, _ = heed("check", "--usage", "present-thumbnail", path, "/img/a")
    expect("uninterpreted qualifier falls back to a prohibition",
           rc == 1 and f"{path}:12:" in out, out)
    rc, _, err = heed("check", "--usage", "snippets", path, "/a")
    expect("bad usage is a usage error", rc == 2 and "not an ACAP usage" in
           err, err)


def test_check_json(path):
    rc, out, _ = heed("check", "--json", "--usage", "present-snippet",
                      "--now", T0, path, "/news/a")
    doc = json.loads(out)
    r = doc["results"][0]
    expect("json permitted", rc == 0 and r["allowed"] and r["line"] == 11,
           out)
    expect("json binding qualifiers", r["max_length"] == 30 and
           r["max_length_unit"] == "words" and
           r["expires"] == int(T0) + 7 * 86400 and
           [q["type"] for q in r["qualifiers"]] == ["max-length",
                                                    "time-limit"], out)
    expect("json chain", r["chain"][0]["reason"] == "definition", out)


def test_explain(path):
    rc, out, _ = heed("explain", "--usage", "crawl", path,
                      "https://example.org/private/a")
    expect("explain permitted", rc == 0 and "Answer: permitted" in out, out)
    expect("explain lists the action requests",
           "Request on line 17: re-crawl /news/fixed.htm" in out, out)
    expect("explain names the override",
           "line 4: Conventional 'Disallow: /private/' is ignored" in out and
           "overrides line 9" in out, out)
    rc, out, _ = heed("explain", "--agent", "slurp", "--usage",
                      "present-thumbnail", path, "/img/x")
    expect("explain fallback", rc == 1 and "(2.4.3)" in out and
           "Answer: prohibited" in out, out)
    rc, out, _ = heed("explain", "--usage", "present-snippet", "--now",
                      str(int(T0) + 8 * 86400), "--first-indexed", T0,
                      "-", "/news/a", stdin=FILE)
    expect("explain time limit passed", rc == 1 and "time limit" in out,
           out)


def test_explain_operand_order(path):
    """Explain takes FILE URL, as check does; the old URL FILE
    is still read when only the URL has a scheme."""
    url = "https://example.org/drafts/a"
    rc, new, _ = heed("explain", "--usage", "index", path, url)
    expect("explain FILE URL", rc == 1 and "Answer: prohibited" in new and
           f"May 'heed' index {url}?" in new, new)
    rc, old, err = heed("explain", "--usage", "index", url, path)
    expect("explain URL FILE still read", rc == 1 and old == new, old + err)
    rc, out, err = heed("explain", "--usage", "index", "/drafts/a", path)
    expect("no scheme: read as FILE URL", rc == 1 and
           "/drafts/a" in err and out == "", out + err)


def test_lint_authors_mistakes():
    """Authors' mistakes, linted; robots.txt and ACAP
    diagnostics in one list sorted by line, then code."""
    txt = (b"User-agent: *\n"
           b"Disallow: /a$b\n"
           b"ACAP-crawler: *\n"
           b"ACAP-disallow-index: /c$d\n"
           b"ACAP-request-take-down: /old/*.pdf\n"
           b"ACAP-usage-purpose: news#old\n"
           b"ACAP-allow-index: /n time-limit=until-recrawled time-limit=7-dys\n"
           b"ACAP-usage-purpose: sport\n"
           b"ACAP-crawler: lonely\n"
           b"User-agent: late\n")
    rc, out, _ = heed("lint", "-", stdin=txt)
    lines = out.splitlines()
    nums = [int(x.split(":")[1]) for x in lines]
    expect("authors' mistakes lint exits 1", rc == 1, out)
    expect("sorted by line across both parsers", nums == sorted(nums) and
           nums == [2, 4, 5, 6, 7, 8, 9, 10], out)
    for want in ["<stdin>:2: Disallow path '/a$b' has '$' before its end",
                 "<stdin>:4: ACAP error: '$' may only end a pattern",
                 "<stdin>:5: ACAP error: an action request names one "
                 "resource, not a pattern",
                 "<stdin>:6: ACAP warning: '#' begins a comment",
                 "<stdin>:7: ACAP error: '7-dys' is not a valid value of "
                 "time-limit",
                 "<stdin>:8: ACAP error: this sub-record has no permission",
                 "<stdin>:9: ACAP error: this ACAP record has no fields",
                 "<stdin>:10: the group of user-agent 'late' has no rules"]:
        expect("each mistake named", want in out, f"want {want!r} in {out!r}")
    rc2, again, _ = heed("lint", "-", stdin=txt)
    expect("lint output is stable", again == out and rc2 == rc, again)
    rc, out, _ = heed("lint", "--json", "-", stdin=txt)
    doc = json.loads(out)
    expect("robots and ACAP lint json apart", rc == 1 and
           [(d["line"], d["code"]) for d in doc["diagnostics"]] ==
           [(2, "misplaced-dollar"), (10, "empty-group")] and
           [d["line"] for d in doc["acap_diagnostics"]] ==
           [4, 5, 6, 7, 8, 9], out)
    for purpose in ["news", "news#old"]:
        rc, out, _ = heed("check", "--usage", "index", "--purpose", purpose,
                          "-", "/n/a", stdin=txt)
        expect("'#' after a purpose is a comment, the sub-record binds "
               "news (and news#old), its mistyped time-limit is a "
               "prohibition", rc == 1 and "<stdin>:7:" in out, out)


def test_lint(path):
    rc, out, _ = heed("lint", path)
    expect("clean ACAP file lints clean", rc == 0 and out == "", out)
    broken = (b"ACAP-crawler: *\nACAP-disallow-index: /a time-limit=3-days\n"
              b"ACAP-resource-set: late /x\nACAP-bogus: 1\n")
    rc, out, _ = heed("lint", "-", stdin=broken)
    expect("lint reports ACAP errors with lines", rc == 1 and
           "<stdin>:2: ACAP error:" in out and
           "<stdin>:3: ACAP error:" in out and
           "<stdin>:4: ACAP warning:" in out, out)
    expect("no robots unknown-field noise for ACAP lines",
           "unknown field" not in out, out)
    rc, out, _ = heed("lint", "--json", "-", stdin=broken)
    doc = json.loads(out)
    expect("lint json", rc == 1 and
           [d["line"] for d in doc["acap_diagnostics"]] == [2, 3, 4] and
           doc["diagnostics_total"] == 0, out)


def test_reference(tmp):
    main = os.path.join(tmp, "main.txt")
    ref = os.path.join(tmp, "searchbot.txt")
    with open(main, "wb") as f:
        f.write(b"ACAP-crawler: *\nACAP-disallow-index: /\n"
                b"ACAP-crawler: searchbot\n"
                b"ACAP-permissions-reference: /searchbot.txt\n")
    with open(ref, "wb") as f:
        f.write(b"ACAP-crawler: *\nACAP-allow-index: /news/\n")
    rc, out, _ = heed("explain", "--agent", "searchbot", "--usage", "index",
                      main, "/news/a")
    expect("reference not added: prohibited", rc == 1 and
           "/searchbot.txt (2.3.2)" in out, out)
    rc, out, _ = heed("explain", "--agent", "searchbot", "--usage", "index",
                      "--reference", "/searchbot.txt=" + ref, main, "/news/a")
    expect("reference added: its fields decide", rc == 0 and
           "line 2 of /searchbot.txt:" in out, out)
    rc, _, err = heed("check", "--usage", "index", "--reference",
                      "/other.txt=" + ref, main, "/a")
    expect("unknown locator", rc == 1 and "no ACAP-permissions-reference"
           in err, err)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "robots.txt")
        with open(path, "wb") as f:
            f.write(FILE)
        test_check(path)
        test_check_json(path)
        test_explain(path)
        test_lint(path)
        test_explain_operand_order(path)
        test_lint_authors_mistakes()
        test_reference(tmp)
    for f in failures:
        print("FAIL", f)
    print(f"acap_cli: {len(failures)} failures")
    sys.exit(1 if failures else 0)


main()
