#!/usr/bin/env python3
"""The crawl controller's layers, checked: every call from one file of
src/crawl to a function defined in another must go down the order that
src/crawl/crawl-int.h writes in its header comment (the one place it is
written), or stay in the caller's own layer.

    python3 tests/crawl_layers.py [SOURCE_ROOT]

The order is read from the comment's list: each line that starts with
file names (`name.c`) opens a layer, and further names on the lines after
it, before the description, belong to the same layer. Definitions are
the non-static functions named heed_* or heed__* that a file defines;
calls are those names followed by "(" outside comments and strings. A
file of src/crawl missing from the list fails too, so the map cannot
drift from the code.

And the store has two doors: a file other than batch.c (the batch's
writes), reads.c (the controller's reads), ctl.c (the run's rows and the
crawl lease, written around the batches), worker.c (the lease protocol,
which commits on its own), indexer.c (the search index caught up over a
handle of its own) and engine.c (the shell's crawl lock) may call
only the store's functions that free what a read returned (FREES below);
reads.c may call only the store's reads (READS). A store function new to
the controller counts as a write until it is named a read or a free.

Prints each call that runs back up or writes past the door, and a closing
"N passed, N failed" line.
"""

import os
import re
import sys

FILE_RE = re.compile(r"[a-z_]+\.c")
COMMENT_RE = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
STRING_RE = re.compile(r'"(?:\\.|[^"\\\n])*"' r"|'(?:\\.|[^'\\\n])*'")
DEF_RE = re.compile(r"^(?!static\b)[A-Za-z][\w \t\*]*?\b(heed_\w+)\s*\("
                    r"[^;{]*\)\s*\{", re.M)
CALL_RE = re.compile(r"\b(heed_\w+)\s*\(")
STORE_CALL_RE = re.compile(r"\b(heed_store_\w+)\s*\(")

STORE_DOORS = {"batch.c", "ctl.c", "worker.c", "indexer.c", "engine.c"}
READ_DOOR = "reads.c"
READS = {
    "heed_store_acap_ref_get", "heed_store_acap_ref_each",
    "heed_store_arrangement_get", "heed_store_frontier_hosts",
    "heed_store_frontier_queued", "heed_store_frontier_windows",
    "heed_store_host_get",
    "heed_store_page_get", "heed_store_page_dates",
    "heed_store_site_get", "heed_store_sites_known", "heed_store_visit_get",
    "heed_store_visits_of_site", "heed_store_visits_of_urls",
}
FREES = {
    "heed_store_acap_ref_clear", "heed_store_arrangement_clear",
    "heed_store_site_clear", "heed_store_visit_clear",
}


def layers_of(header):
    """The layers of the header's first comment: [[file, ...], ...]. A
    line may start with file names; a layer ends at the first line with
    words after (or instead of) its names: the layer's description."""
    comment = header[header.index("/*"):header.index("*/")]
    layers, pending = [], []
    for line in comment.splitlines():
        words = line.strip().lstrip("/*").split()
        names = []
        while words and FILE_RE.fullmatch(words[0]):
            names.append(words.pop(0))
        pending += names
        if words and pending:
            layers.append(pending)
            pending = []
    return layers


def strip(code):
    """code without comments and strings; each comment leaves its line
    breaks, so that line numbers stay the source's."""
    return STRING_RE.sub('""', COMMENT_RE.sub(
        lambda m: "\n" * m.group(0).count("\n") or " ", code))


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else \
        os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    folder = os.path.join(root, "src", "crawl")
    with open(os.path.join(folder, "crawl-int.h")) as f:
        layers = layers_of(f.read())
    rank = {name: i for i, layer in enumerate(layers) for name in layer}
    code = {}
    for name in sorted(os.listdir(folder)):
        if name.endswith(".c"):
            with open(os.path.join(folder, name)) as f:
                code[name] = strip(f.read())
    defined = {}
    for name, text in code.items():
        for m in DEF_RE.finditer(text):
            defined[m.group(1)] = name
    failures = []
    unlisted = sorted(set(code) - set(rank))
    for name in unlisted:
        failures.append(f"{name} is not in crawl-int.h's list of layers")
    for name, text in code.items():
        for m in CALL_RE.finditer(text):
            callee = defined.get(m.group(1))
            if not callee or callee == name or name in unlisted or \
                    callee in unlisted:
                continue
            if rank[callee] > rank[name]:
                line = text.count("\n", 0, m.start()) + 1
                failures.append(f"{name}:{line} calls {m.group(1)} of "
                                f"{callee}, a layer above it")
    for name, text in code.items():
        if name in STORE_DOORS:
            continue
        for m in STORE_CALL_RE.finditer(text):
            fn = m.group(1)
            line = text.count("\n", 0, m.start()) + 1
            if name == READ_DOOR and fn not in READS | FREES:
                failures.append(f"{name}:{line} calls {fn}, which is not "
                                f"a store read")
            elif name != READ_DOOR and fn in READS:
                failures.append(f"{name}:{line} calls {fn}, a store read "
                                f"outside reads.c")
            elif fn not in READS | FREES:
                failures.append(f"{name}:{line} calls {fn}, a store "
                                f"write outside batch.c")
    checks = len(code) + 1
    print(f"{len(layers)} layers, {len(code)} files, "
          f"{len(defined)} functions defined")
    for f in failures:
        print("FAIL " + f)
    if len(layers) < 5:
        failures.append("crawl-int.h's list of layers could not be read")
        print("FAIL " + failures[-1])
    failed = len({f.split(":")[0].split(" ")[0] for f in failures})
    print(f"{checks - failed} passed, {failed} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
