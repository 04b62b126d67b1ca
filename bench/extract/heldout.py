#!/usr/bin/env python3
"""heed's dates and authors on other projects' hand-labelled pages.

Two evaluation sets kept by open-source extractors, neither of them
redistributable (the pages belong to their sites, so they are never
copied into heed's repository):

- htmldate's date set (adbar/htmldate, tests/eval_default.json and
  tests/eval_mediacloud_2020.json: 1,000 pages, the published day of
  each; pages in tests/eval, tests/test_set and tests/cache). htmldate's
  docs/evaluation.rst publishes accuracy 0.903 on it (extensive mode).
- trafilatura's evaluation set (adbar/trafilatura, tests/evaldata.json:
  990 pages, the author on 538 of them and the date on 728; pages in
  tests/cache and tests/eval).

Get them with the session's fetch tool (github:adbar/htmldate and
github:adbar/trafilatura give bare git directories under /work/.mirror)
or with git (`git clone https://github.com/adbar/htmldate`), then pass
either the bare git directory or a checkout/extracted tree:

    python3 bench/extract/heldout.py --htmldate DIR --trafilatura DIR
        [--build build] [--part dev|holdout|all] [--misses N]

A bare git directory is read at its HEAD (`git archive HEAD tests` into a
temporary directory, removed at the end); the commit is printed.

How it scores:

- Dates, as htmldate's tests/evaluation.py counts them: the day of heed's
  `published` (its first 10 characters, the publisher's own local day,
  since heed keeps a date's offset) against the labelled YYYY-MM-DD. Same
  day: true positive; another day: false positive; none found where a
  day is labelled: false negative (no page is labelled "no date", so
  there are no true negatives). precision = tp/(tp+fp), recall =
  tp/(tp+fn), accuracy = tp/(tp+fp+fn). Four of htmldate's labels are
  NaN (JSON's non-standard literal): as in htmldate's own count, they
  match nothing and count against every extractor.
- Authors, on the pages labelled with one (trafilatura's own
  eval_authors.py scores only those): both sides are cut into a set of
  names and the sets must be equal. A name is case-folded, its
  whitespace collapsed, a leading "by"/"von"/"par"/"por"/"door"/"di"
  dropped; names are cut at ";", ",", "&", "/" and " and ", " und ",
  " et ", " y ", " e ", " en ", " og " (the label "A und B" is the set
  {a, b}; a list label is its items cut alike); order does not count.
  Misses are classed: missing (heed found none), extra (heed's set holds
  the label's and more), fewer (a strict subset), wrong (anything else).

A fifth of each set, chosen by the SHA-1 of the page's file name (first
byte % 5 == 0), is the hold-out part: rules are chosen looking only at
the dev part's misses (--part dev, the default for --misses), and both
parts' figures are reported. Where a page is in both sets, each set
scores it with its own label.
"""
import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))


def is_bare_git(path):
    return (os.path.isfile(os.path.join(path, "HEAD"))
            and os.path.isdir(os.path.join(path, "objects")))


def materialise(path, tmp, name):
    """A directory holding the set's tests/ tree, and the commit (or
    None): a bare git directory is archived at HEAD into tmp."""
    if not is_bare_git(path):
        return path, None
    commit = subprocess.run(["git", "--git-dir", path, "rev-parse", "HEAD"],
                            check=True, capture_output=True,
                            text=True).stdout.strip()
    dest = os.path.join(tmp, name)
    os.makedirs(dest)
    arch = subprocess.Popen(["git", "--git-dir", path, "archive", "HEAD",
                             "tests"], stdout=subprocess.PIPE)
    subprocess.run(["tar", "-x", "-C", dest], stdin=arch.stdout, check=True)
    if arch.wait() != 0:
        sys.exit(f"heldout.py: git archive failed in {path}")
    return dest, commit


def find_page(tests, subdirs, file):
    for sub in subdirs:
        p = os.path.join(tests, sub, file)
        if os.path.isfile(p):
            return p
    return None


def holdout(file):
    return hashlib.sha1(file.encode()).digest()[0] % 5 == 0


def htmldate_set(root):
    tests = os.path.join(root, "tests")
    pages = []
    for name in ("eval_mediacloud_2020.json", "eval_default.json"):
        with open(os.path.join(tests, name), encoding="utf-8") as f:
            for url, item in json.load(f).items():
                path = find_page(tests, ("test_set", "cache", "eval"),
                                 item["file"])
                if path:
                    pages.append({"url": url, "path": path,
                                  "file": item["file"],
                                  "date": item["date"]})
    return pages


def trafilatura_set(root):
    tests = os.path.join(root, "tests")
    with open(os.path.join(tests, "evaldata.json"), encoding="utf-8") as f:
        data = json.load(f)
    pages = []
    for url, item in data.items():
        path = find_page(tests, ("cache", "eval"), item.get("file", ""))
        if path and (item.get("date") or item.get("author")):
            pages.append({"url": url, "path": path, "file": item["file"],
                          "date": item.get("date"),
                          "author": item.get("author")})
    return pages


def page_url(url):
    """The set's URL, or the http(s) URL inside it when a typo leads it
    (htmldate and trafilatura label one page "xhttps://...")."""
    if url.startswith(("http://", "https://")) or "http" not in url:
        return url
    return url[url.index("http"):]


def extract(heed, page):
    try:
        out = subprocess.run(
            [heed, "extract", "--record", "--url", page_url(page["url"]),
             page["path"]],
            capture_output=True, timeout=60)
    except subprocess.TimeoutExpired:
        return {"error": "timeout"}
    if out.returncode != 0:
        return {"error": out.stderr.decode(errors="replace").strip()[:200]}
    doc = json.loads(out.stdout)
    return doc.get("record", doc)


NAME_CUT = re.compile(r"\s*(?:[;,&/]|\s(?:and|und|et|y|e|en|og)\s)\s*")
NAME_LEAD = re.compile(r"^(?:by|von|par|por|door|di)\s*:?\s+")


def name_set(names):
    out = set()
    for n in names:
        for part in NAME_CUT.split(" ".join(n.split()).casefold()):
            part = NAME_LEAD.sub("", part).strip(" .:")
            if part:
                out.add(part)
    return out


def score_date(rec, want):
    have = (rec.get("published") or {}).get("value")
    if not have:
        return "fn", None
    return ("tp" if have[:10] == want else "fp"), have[:10]


def score_author(rec, want):
    gold = name_set(want if isinstance(want, list) else [want])
    names = [a["value"] for a in rec.get("authors", [])]
    have = name_set(names)
    if not have:
        return "missing", names
    if have == gold:
        return "right", names
    if have > gold:
        return "extra", names
    if have < gold:
        return "fewer", names
    return "wrong", names


def date_figures(counts):
    tp, fp, fn = counts["tp"], counts["fp"], counts["fn"]
    n = tp + fp + fn
    prec = tp / (tp + fp) if tp + fp else 0.0
    rec = tp / (tp + fn) if tp + fn else 0.0
    return (f"n {n:4}  accuracy {tp / n if n else 0:.3f}  precision "
            f"{prec:.3f}  recall {rec:.3f}  (tp {tp}, wrong day {fp}, "
            f"none {fn})")


def report(title, results, want_misses, part):
    print(f"\n{title}")
    for pname in ("dev", "holdout", "all"):
        sel = [r for r in results
               if pname == "all" or (pname == "holdout") == r["holdout"]]
        dates = [r for r in sel if r.get("date_class")]
        if dates:
            c = {k: sum(r["date_class"] == k for r in dates)
                 for k in ("tp", "fp", "fn")}
            print(f"  dates   {pname:7} {date_figures(c)}")
        auth = [r for r in sel if r.get("author_class")]
        if auth:
            c = {k: sum(r["author_class"] == k for r in auth)
                 for k in ("right", "missing", "extra", "fewer", "wrong")}
            print(f"  authors {pname:7} n {len(auth):4}  right "
                  f"{c['right'] / len(auth):.3f}  (missing {c['missing']},"
                  f" extra {c['extra']}, fewer {c['fewer']}, wrong "
                  f"{c['wrong']})")
    if not want_misses:
        return
    shown = [r for r in results
             if part == "all" or (part == "holdout") == r["holdout"]]
    for cls in ("fn", "fp"):
        rows = [r for r in shown if r.get("date_class") == cls]
        print(f"  date misses: {'none found' if cls == 'fn' else 'wrong day'}"
              f" ({len(rows)})")
        for r in rows[:want_misses]:
            print(f"    {r['file']}: want {r['date']}, got {r['date_got']}"
                  f"  {r['url']}")
    for cls in ("missing", "extra", "fewer", "wrong"):
        rows = [r for r in shown if r.get("author_class") == cls]
        print(f"  author misses: {cls} ({len(rows)})")
        for r in rows[:want_misses]:
            print(f"    {r['file']}: want {r['author']!r}, got "
                  f"{r['author_got']!r}")


def run_set(heed, pages, jobs):
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        recs = list(pool.map(lambda p: extract(heed, p), pages))
    results = []
    errors = 0
    for page, rec in zip(pages, recs):
        r = dict(page, holdout=holdout(page["file"]))
        if "error" in rec:
            errors += 1
            print(f"  error: {page['file']}: {rec['error']}",
                  file=sys.stderr)
            rec = {}
        if page.get("date"):
            r["date_class"], r["date_got"] = score_date(rec, page["date"])
        if page.get("author"):
            r["author_class"], r["author_got"] = score_author(
                rec, page["author"])
        results.append(r)
    return results, errors


def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--htmldate", help="adbar/htmldate: bare git dir "
                    "(fetch tool: github:adbar/htmldate) or a checkout")
    ap.add_argument("--trafilatura", help="adbar/trafilatura: bare git "
                    "dir (github:adbar/trafilatura) or a checkout")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--jobs", type=int, default=1,
                    help="heed processes at once (default 1)")
    ap.add_argument("--misses", type=int, default=0, metavar="N",
                    help="list up to N misses of each class")
    ap.add_argument("--part", choices=("dev", "holdout", "all"),
                    default="dev", help="whose misses --misses lists")
    args = ap.parse_args()
    if not args.htmldate and not args.trafilatura:
        ap.error("give --htmldate, --trafilatura or both")
    heed = os.path.join(args.build, "heed")
    head = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short",
                           "HEAD"], capture_output=True, text=True).stdout
    print(f"heed {head.strip()}")
    tmp = tempfile.mkdtemp(prefix="heed-heldout-")
    try:
        failed = 0
        for name, path, load in (("htmldate", args.htmldate, htmldate_set),
                                 ("trafilatura", args.trafilatura,
                                  trafilatura_set)):
            if not path:
                continue
            root, commit = materialise(path, tmp, name)
            pages = load(root)
            results, errors = run_set(heed, pages, args.jobs)
            failed += errors
            report(f"{name} ({commit or root}): {len(pages)} pages, "
                   f"{errors} extraction errors", results, args.misses,
                   args.part)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
