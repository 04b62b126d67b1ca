#!/usr/bin/env python3
"""heed beside metascraper and extruct on the labelled real pages.

Scores each extractor's title, authors, published and modified dates,
publisher and language against tests/corpus/real/labels.json, field by
field (correct / wrong / missing), with the rules the corpus test uses
(tests/integration/test_real_corpus.py), and prints each one's pages/s.

    python3 bench/extract/compare.py [--build build] [--work DIR] [--rounds N]

What runs:
- heed: `heed extract` per page for the values; its pages/s from
  `bench_extract --pages`, extraction alone in process.
- metascraper (npm, run with the machine's node): installed by this
  script into WORK/node (default: BUILD/bench-extract-compare), never by
  a test; versions pinned below. Its datePublished rule set is scored as
  the published date, falling back to its single `date` when that set
  finds none; dateModified as the modified date.
- extruct (Debian's python3-extruct): it returns the page's syntaxes
  (JSON-LD, microdata, RDFa, Open Graph, Dublin Core) without choosing
  among them, so this script chooses as a user of it would: JSON-LD
  first, then microdata, Open Graph, Dublin Core (see `extruct_fields`).
  It reads neither <title>, <html lang> nor <meta name=author>.

The pages are decoded once, by the charset their bytes declare (UTF-8
when none), and the other two get that text. Language is compared by
its primary subtag here (metascraper gives "de" for de-DE by design);
the corpus test compares it exactly. Times are CPU time (all threads of
the process), the median of --rounds passes after a scored pass.
"""
import argparse
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
CORPUS = os.path.join(ROOT, "tests", "corpus", "real")
FIELDS = ("title", "authors", "published", "modified", "publisher",
          "language")
NPM_PACKAGES = [f"{p}@5.49.24" for p in (
    "metascraper", "metascraper-title", "metascraper-description",
    "metascraper-author", "metascraper-date", "metascraper-publisher",
    "metascraper-lang")]

# extruct is Debian's: when the interpreter on PATH is another one (a
# pyenv), run this script again with Debian's.
try:
    import extruct
except ImportError:
    if sys.executable != "/usr/bin/python3" and os.path.exists(
            "/usr/bin/python3"):
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    sys.exit("compare.py: python3-extruct is not installed "
             "(scripts/debian-packages.txt lists it)")


def corpus_rules():
    """The corpus test's own scoring functions, so both judge alike."""
    path = os.path.join(ROOT, "tests", "integration", "test_real_corpus.py")
    spec = importlib.util.spec_from_file_location("real_corpus", path)
    mod = importlib.util.module_from_spec(spec)
    os.environ.setdefault("HEED", "")
    os.environ.setdefault("HEED_SOURCE_ROOT", ROOT)
    spec.loader.exec_module(mod)
    return mod


def decode(raw):
    """The page's text, by the charset its bytes declare (a browser's
    prescan in brief: <meta charset> or http-equiv in the first 1024
    bytes), UTF-8 when none or an unknown one."""
    m = re.search(rb'<meta[^>]+charset\s*=\s*["\']?\s*([A-Za-z0-9_.:-]+)',
                  raw[:1024], re.I)
    enc = m.group(1).decode("ascii") if m else "utf-8"
    try:
        return raw.decode(enc, "replace")
    except LookupError:
        return raw.decode("utf-8", "replace")


def first(*values):
    for v in values:
        if isinstance(v, list):
            v = v[0] if v else None
        if isinstance(v, dict):
            v = v.get("name") or v.get("@value")
            if isinstance(v, list):
                v = v[0] if v else None
        if isinstance(v, str) and v.strip():
            return v.strip()
    return None


def names(v):
    """Author names from a JSON-LD or microdata author value."""
    out = []
    for a in v if isinstance(v, list) else [v]:
        if isinstance(a, dict):
            a = a.get("name") or (a.get("properties") or {}).get("name")
            if isinstance(a, list):
                a = a[0] if a else None
        if isinstance(a, str) and a.strip():
            out.append(a.strip())
    return out


def extruct_fields(data):
    """What a user of extruct would take for each field: the first
    JSON-LD node that is a creative work, then microdata's, then Open
    Graph, then Dublin Core."""
    def works(items, key):
        for it in items:
            for node in it.get("@graph", [it]) if key else [it]:
                t = node.get("@type") if key else node.get("type")
                t = " ".join(t) if isinstance(t, list) else str(t or "")
                if re.search(r"Article|Posting|WebPage|CreativeWork|"
                             r"Episode|Report", t):
                    return node if key else node.get("properties", {})
        return {}
    ld = works(data.get("json-ld", []), True)
    md = works(data.get("microdata", []), False)
    og = {}
    for it in data.get("opengraph", []):
        for k, v in it.get("properties", []):
            og.setdefault(k, v)
    dc = {}
    for it in data.get("dublincore", []):
        for e in it.get("elements", []) + it.get("terms", []):
            dc.setdefault(e.get("name", "").lower(), e.get("content"))
    site = next((n for it in data.get("json-ld", [])
                 for n in it.get("@graph", [it])
                 if n.get("@type") in ("WebSite", "Organization")), {})
    authors = names(ld.get("author")) or names(md.get("author")) or (
        [dc["creator"]] if dc.get("creator") else [])
    lang = first(ld.get("inLanguage"), md.get("inLanguage"),
                 og.get("og:locale"), dc.get("language"))
    return {
        "title": first(ld.get("headline"), md.get("headline"),
                       og.get("og:title"), ld.get("name"), dc.get("title")),
        "authors": sorted(authors) or None,
        "published": first(ld.get("datePublished"),
                           md.get("datePublished"),
                           og.get("article:published_time"), dc.get("date")),
        "modified": first(ld.get("dateModified"), md.get("dateModified"),
                          og.get("article:modified_time")),
        "publisher": first(ld.get("publisher"), md.get("publisher"),
                           og.get("og:site_name"), site.get("name"),
                           dc.get("publisher")),
        "language": lang.replace("_", "-") if lang else None,
    }


def run_extruct(pages, rounds):
    syntaxes = ["json-ld", "microdata", "opengraph", "dublincore"]

    def one(p):
        try:
            data = extruct.extract(p["html"], base_url=p["url"],
                                   syntaxes=syntaxes, errors="ignore")
        except Exception:  # extruct raises on some broken pages
            data = {}
        return extruct_fields(data)
    results = [one(p) for p in pages]
    seconds = []
    for _ in range(rounds):
        t0 = time.process_time()
        for p in pages:
            one(p)
        seconds.append(time.process_time() - t0)
    return results, seconds


def node_dir(work):
    d = os.path.join(work, "node")
    if not os.path.isdir(os.path.join(d, "node_modules", "metascraper")):
        os.makedirs(d, exist_ok=True)
        subprocess.run(["npm", "install", "--no-audit", "--no-fund",
                        "--prefix", d] + NPM_PACKAGES, check=True,
                       stdout=subprocess.DEVNULL)
    return d


def run_metascraper(pages, work, rounds):
    d = node_dir(work)
    script = os.path.join(d, "metascraper.js")
    shutil.copy(os.path.join(ROOT, "bench", "extract", "metascraper.js"),
                script)
    lst = os.path.join(work, "pages.json")
    json.dump([{"url": p["url"], "text": p["text"]} for p in pages],
              open(lst, "w"))
    out = json.loads(subprocess.run(
        ["node", script, lst, str(rounds)], check=True,
        capture_output=True, cwd=d).stdout)
    results = []
    for m in out["results"]:
        results.append({
            "title": m.get("title"),
            "authors": [m["author"]] if m.get("author") else None,
            "published": m.get("datePublished") or m.get("date"),
            "modified": m.get("dateModified"),
            "publisher": m.get("publisher"),
            "language": m.get("lang"),
        })
    return results, out["seconds"]


def run_heed(pages, build, rounds, rules):
    heed = os.path.join(build, "heed")
    results = []
    for p in pages:
        out = subprocess.run([heed, "extract", "--url", p["url"], p["path"]],
                             check=True, capture_output=True).stdout
        doc = json.loads(out)
        rec = doc.get("record", doc)
        results.append({f: rules.got(rec, f) for f in FIELDS})
    line = subprocess.run(
        [os.path.join(build, "bench", "bench_extract"), "--pages",
         os.path.join(CORPUS, "pages"), str(rounds)],
        check=True, capture_output=True, text=True).stdout
    secs = float(re.search(r"rounds: ([0-9.]+) s", line).group(1))
    return results, [secs]


def judge(rules, field, want, have):
    if field == "language" and want and have:
        return want.split("-")[0].lower() == have.replace(
            "_", "-").split("-")[0].lower()
    if field == "authors" and have is not None:
        have = sorted(have)
    return rules.right(field, want, have)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--work")
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args()
    work = os.path.abspath(a.work or os.path.join(a.build,
                                                  "bench-extract-compare"))
    os.makedirs(os.path.join(work, "text"), exist_ok=True)
    rules = corpus_rules()
    labels = json.load(open(os.path.join(CORPUS, "labels.json")))
    pages = []
    for lp in labels["pages"]:
        path = os.path.join(CORPUS, "pages", lp["file"])
        html = decode(open(path, "rb").read())
        text = os.path.join(work, "text", lp["file"])
        open(text, "w", encoding="utf-8").write(html)
        pages.append({"url": lp["url"], "path": path, "text": text,
                      "html": html,
                      # Description and tags are labelled too; this script
                      # scores the six fields it was written for.
                      "expected": {f: v for f, v in lp["expected"].items()
                                   if f in FIELDS}})
    tools = [("heed", lambda: run_heed(pages, a.build, a.rounds, rules)),
             ("metascraper", lambda: run_metascraper(pages, work, a.rounds)),
             ("extruct", lambda: run_extruct(pages, a.rounds))]
    table = {}
    got = {}
    for name, run in tools:
        results, seconds = run()
        got[name] = results
        score = {f: [0, 0, 0] for f in FIELDS}  # correct, wrong, missing
        for p, r in zip(pages, results):
            for f, want in p["expected"].items():
                have = r.get(f)
                if judge(rules, f, want, have):
                    score[f][0] += 1
                elif have is None:
                    score[f][2] += 1
                else:
                    score[f][1] += 1
        secs = sorted(seconds)[len(seconds) // 2]
        table[name] = (score, len(pages) / secs)
    print(f"{len(pages)} real pages (tests/corpus/real); "
          "correct / wrong / missing per field")
    print(f"| field | {' | '.join(table)} |")
    print("|---|" + "---|" * len(table))
    for f in FIELDS + ("all",):
        cells = []
        for name, (score, _) in table.items():
            c = [sum(s[i] for s in score.values()) for i in range(3)] \
                if f == "all" else score[f]
            n = sum(c)
            cells.append(f"{c[0]} / {c[1]} / {c[2]} "
                         f"({100.0 * c[0] / n:.1f} %)" if n else "-")
        print(f"| {f} | {' | '.join(cells)} |")
    print("| pages/s (CPU) | " + " | ".join(
        f"{pps:,.0f}" for _, pps in table.values()) + " |")
    # Where another extractor is right and heed is not: the cases to
    # study for a general rule.
    for i, p in enumerate(pages):
        for f, want in p["expected"].items():
            if judge(rules, f, want, got["heed"][i].get(f)):
                continue
            won = [n for n in got if n != "heed" and
                   judge(rules, f, want, got[n][i].get(f))]
            if won:
                print(f"heed loses {os.path.basename(p['path'])} {f} to "
                      f"{', '.join(won)}: want {want!r}, heed "
                      f"{got['heed'][i].get(f)!r}")


if __name__ == "__main__":
    main()
