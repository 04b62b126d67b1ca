"""`heed robots check` and `heed robots lint` end to end: output, JSON and
exit statuses, on the bundled example and on files written here."""
import json
import os
import subprocess
import sys
import tempfile

HEED = os.environ["HEED"]
SRC = os.environ["HEED_SOURCE_ROOT"]
EXAMPLE = os.path.join(SRC, "examples", "robots.txt")
failures = []


def heed(*args, stdin=None):
    p = subprocess.run([HEED, "robots", *args], input=stdin,
                       capture_output=True, timeout=60)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def expect(name, cond, detail=""):
    if not cond:
        failures.append(f"{name}: {detail}")


def test_check_example():
    rc, out, _ = heed("check", EXAMPLE, "https://www.example.org/",
                      "https://www.example.org/drafts/published/x.html")
    expect("all allowed exits 0", rc == 0, out)
    expect("allow line printed",
           f"{EXAMPLE}:17: Allow: /drafts/published/" in out, out)
    rc, out, _ = heed("check", EXAMPLE, "https://www.example.org/",
                      "https://www.example.org/drafts/x")
    expect("any disallowed exits 1", rc == 1, out)
    expect("deciding line printed",
           f"https://www.example.org/drafts/x: disallowed\n"
           f"  {EXAMPLE}:16: Disallow: /drafts/" in out, out)


def test_check_agents_and_stdin():
    txt = b"User-agent: *\nDisallow: /private/\nUser-agent: GPTBot\nDisallow: /\n"
    rc, out, _ = heed("check", "-", "/private/a", "/public", stdin=txt)
    expect("stdin file name", "<stdin>:2: Disallow: /private/" in out, out)
    expect("stdin exit", rc == 1, out)
    rc, out, _ = heed("check", "--agent", "gptbot/1.0", "-", "/public",
                      stdin=txt)
    expect("agent option, case-insensitive token", rc == 1 and
           "<stdin>:4: Disallow: /" in out, out)


def test_check_json():
    rc, out, _ = heed("check", "--json", EXAMPLE,
                      "https://www.example.org/video/1/download#t=3",
                      "https://www.example.org/%7Ejoe/")
    doc = json.loads(out)
    expect("json exit", rc == 1, out)
    expect("json agent", doc["agent"] == "heed" and doc["explicit"], out)
    expect("json crawl delay", doc["crawl_delay_ms"] == 1500, out)
    first, second = doc["results"]
    expect("json decision", not first["allowed"] and first["line"] == 18 and
           first["rule"] == "Disallow" and
           first["value"] == "/video/*/download", out)
    expect("json path normalised", first["path"] == "/video/1/download" and
           second["path"] == "/~joe/", out)
    expect("json no match", second["allowed"] and not second["matched"], out)


def test_lint():
    rc, out, _ = heed("lint", EXAMPLE)
    expect("example is clean", rc == 0 and out == "", out)
    bad = (b"Disallow: /early\nUser-agent: *\nDisallow /x\nFoo: bar\n"
           b"Crawl-delay: soon\n")
    rc, out, _ = heed("lint", "-", stdin=bad)
    want = ["<stdin>:1: Disallow before any user-agent line; ignored",
            "<stdin>:3: missing ':' after 'Disallow'; read as 'Disallow: /x'",
            "<stdin>:4: unknown field 'Foo'; ignored",
            "<stdin>:5: invalid Crawl-delay 'soon'"]
    expect("lint exit", rc == 1, out)
    for w in want:
        expect("lint line", w in out, f"want {w!r} in {out!r}")
    rc, out, _ = heed("lint", "--json", "-", stdin=bad)
    doc = json.loads(out)
    expect("lint json codes", [d["code"] for d in doc["diagnostics"]] ==
           ["rule-outside-group", "missing-colon", "unknown-field",
            "invalid-crawl-delay"], out)


def test_lint_empty_group_and_dollar():
    """A group without rules and a '$' before a pattern's end are
    linted; the file is still read as RFC 9309 reads it; diagnostics
    of robots.txt and ACAP come in one list, by line then code."""
    txt = (b"User-agent: *\nDisallow: /a$b\n"
           b"ACAP-crawler: *\nACAP-disallow-crawl: /x$y\n"
           b"User-agent: Foo/1.0\n")
    rc, out, _ = heed("lint", "-", stdin=txt)
    lines = out.splitlines()
    expect("empty group and '$' lint exit", rc == 1, out)
    expect("robots and ACAP lint by line", len(lines) == 4 and
           lines[0].startswith("<stdin>:2: Disallow path '/a$b' has '$'") and
           lines[1].startswith("<stdin>:4: ACAP error: '$' may only end") and
           lines[2].startswith("<stdin>:5: user-agent 'Foo/1.0' is not a") and
           lines[3].startswith("<stdin>:5: the group of user-agent 'Foo'"),
           out)
    rc, out, _ = heed("lint", "--json", "-", stdin=txt)
    doc = json.loads(out)
    expect("empty group and '$' lint json", [(d["line"], d["code"])
                                            for d in doc["diagnostics"]] ==
           [(2, "misplaced-dollar"), (5, "bad-user-agent"),
            (5, "empty-group")], out)
    rc, out, _ = heed("check", "--agent", "other", "-", "/a$bc", "/a",
                      stdin=b"User-agent: *\nDisallow: /a$b\n")
    expect("'$' before the end is a character", rc == 1 and
           "/a$bc: disallowed" in out and "/a: allowed" in out, out)
    rc, out, _ = heed("lint", "-", stdin=b"User-agent: *\nCrawl-delay: 2\n")
    expect("'*' with only a delay is clean", rc == 0 and out == "", out)


def test_over_limit_and_garbage():
    with tempfile.NamedTemporaryFile(suffix=".txt", delete=False) as f:
        f.write(b"User-agent: *\nDisallow: /x\n")
        f.write((b"# " + b"c" * 98 + b"\n") * 6000)  # 600 KB
        f.write(b"Disallow: /\n")
        path = f.name
    try:
        rc, out, _ = heed("lint", path)
        expect("too big reported", rc == 1 and "over the 500 KiB limit" in out,
               out)
        rc, out, _ = heed("check", path, "/y")
        expect("rules past the limit ignored", rc == 0, out)
    finally:
        os.unlink(path)
    garbage = os.urandom(3 * 1024 * 1024)
    rc, out, _ = heed("check", "-", "/", stdin=garbage)
    expect("garbage gives a decision", rc in (0, 1) and "/: " in out, out)
    rc, out, _ = heed("lint", "--json", "-", stdin=garbage)
    doc = json.loads(out)  # valid JSON even for invalid UTF-8 input
    expect("garbage lint json", rc == 1 and doc["truncated"] and
           doc["diagnostics_total"] > 0, out[:200])
    rc, out, _ = heed("check", "--json", "-", "/%FF%1B",
                      stdin=b"User-agent: *\nDisallow: /\xff\x1b\n")
    doc = json.loads(out)
    expect("json escapes hostile values", not doc["results"][0]["allowed"]
           and doc["results"][0]["value"] == "/\ufffd\x1b", out)


def test_escapes_and_relative_paths():
    txt = (b"User-agent: *\nDisallow: /a%2Ab\nDisallow: /p%24\n"
           b"Disallow: private\nAllow: *.html\n")
    rc, out, _ = heed("check", "-", "/a%2Ab", "/a*b", "/axb", "/p%24x",
                      "/p", "/x/private", "https://e.com/private/a.htm",
                      "HTTP://e.com/a%2ab", stdin=txt)
    expect("escapes and no-slash paths", rc == 1 and
           "/a%2Ab: disallowed" in out and "/a*b: disallowed" in out and
           "/axb: allowed" in out and "/p%24x: disallowed" in out and
           "/p: allowed" in out and "/x/private: allowed" in out and
           "https://e.com/private/a.htm: disallowed" in out and
           "HTTP://e.com/a%2ab: disallowed" in out, out)
    rc, out, _ = heed("lint", "--json", "-", stdin=txt)
    doc = json.loads(out)
    expect("no-slash and wildcard paths lint json",
           [(d["line"], d["code"]) for d in doc["diagnostics"]] ==
           [(4, "bad-path"), (5, "wildcard-path")], out)
    for bad in ["example.com/x", "private", "ftp://e.com/x", "", "?q=1",
                "mailto:a@e.com"]:
        rc, out, err = heed("check", "-", "/ok", bad, stdin=txt)
        expect("%r is a usage error" % bad, rc == 2 and
               out == "" and "neither an absolute http(s) URL" in err, err)
    rc, out, _ = heed("check", "-", "//e.com/a*b", stdin=txt)
    expect("a network-path reference is still a path",
           rc == 1 and "//e.com/a*b: disallowed" in out, out)


def test_usage_and_errors():
    rc, _, err = heed("check", EXAMPLE)
    expect("missing URL is a usage error", rc == 2, err)
    rc, _, err = heed("frobnicate", EXAMPLE)
    expect("unknown subcommand", rc == 2, err)
    rc, _, err = heed("--bogus", "lint", EXAMPLE)
    expect("unknown option", rc == 2, err)
    rc, _, err = heed("lint", "/nonexistent/robots.txt")
    expect("unreadable file", rc == 1 and "No such file" in err, err)
    rc, out, _ = heed("--help")
    expect("help", rc == 0 and "heed robots check" in out, out)


for t in [test_check_example, test_check_agents_and_stdin, test_check_json,
          test_lint, test_lint_empty_group_and_dollar,
          test_escapes_and_relative_paths,
          test_over_limit_and_garbage,
          test_usage_and_errors]:
    t()
for f in failures:
    print("FAIL", f)
print(f"robots_cli: {len(failures)} failures")
sys.exit(1 if failures else 0)
