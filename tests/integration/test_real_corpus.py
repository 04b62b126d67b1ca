#!/usr/bin/env python3
"""Scores heed's metadata on the labelled real pages (tests/corpus/real).

Each page is read by `heed extract --url URL FILE`, as a crawl would read
it. A field the labels give a value must match it: title, publisher and
language exactly, published and modified by their day (the first ten
characters, the publisher's own day), authors as a set of names, tags as
a set compared without case (heed folds them), a description with its
runs of white space made one; a field
labelled null must be absent; an unlabelled field is not scored. The
table prints every field judged, and the test fails when fewer fields
are right than labels.json's min_correct, the last recorded figure:
accuracy may rise, never fall.
"""
import json
import os
import subprocess
import sys

HEED = os.environ["HEED"]
ROOT = os.path.join(os.environ["HEED_SOURCE_ROOT"], "tests", "corpus", "real")


def record(page):
    out = subprocess.run(
        [HEED, "extract", "--url", page["url"],
         os.path.join(ROOT, "pages", page["file"])],
        check=True, capture_output=True, timeout=60).stdout
    doc = json.loads(out)
    return doc.get("record", doc)


def got(rec, field):
    if field == "authors":
        names = [a["value"] for a in rec.get("authors", [])]
        return sorted(names) if names else None
    if field == "tags":
        tags = {t["value"].casefold() for t in rec.get("tags", [])}
        return sorted(tags) if tags else None
    v = rec.get(field)
    return v["value"] if isinstance(v, dict) else None


def right(field, want, have):
    if want is None or have is None:
        return want is None and have is None
    if field == "authors":
        return sorted(want) == have
    if field == "tags":
        return sorted({t.casefold() for t in want}) == have
    if field == "description":
        return " ".join(have.split()) == want
    if field in ("published", "modified"):
        return have[:10] == want
    return have == want


def main():
    labels = json.load(open(os.path.join(ROOT, "labels.json")))
    fields = {}
    wrong = []
    for page in labels["pages"]:
        rec = record(page)
        for field, want in page["expected"].items():
            have = got(rec, field)
            ok = right(field, want, have)
            n = fields.setdefault(field, [0, 0])
            n[0] += ok
            n[1] += 1
            if not ok:
                wrong.append(f"{page['file']}: {field}: want {want!r}, "
                             f"got {have!r}")
    total = sum(n[0] for n in fields.values())
    judged = sum(n[1] for n in fields.values())
    print(f"{len(labels['pages'])} pages, {judged} fields judged")
    for field, (ok, n) in sorted(fields.items()):
        print(f"  {field:10} {ok:3}/{n:<3} {100.0 * ok / n:5.1f} %")
    print(f"  {'all':10} {total:3}/{judged:<3} {100.0 * total / judged:5.1f} %")
    for w in wrong:
        print("  wrong:", w)
    if total < labels["min_correct"]:
        print(f"FAIL: {total} fields right, below the recorded "
              f"{labels['min_correct']}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
