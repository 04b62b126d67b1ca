#!/usr/bin/env python3
"""heed's HTML driver (htmltree.c over htmltok.c) against html5lib, a
WHATWG-conformant parser (Debian's python3-html5lib).

Over the demo sites and unit test pages, the html and htmltok fuzz corpora
and their repro files, and documents generated here from a fixed seed,
compares what heed reads: the attributes that matter of meta, link, a,
time, script, html and base, and the text of title, h1, time and JSON-LD
scripts (tests/unit/html_dump.c prints heed's side). Each difference is
classified by a rule of ACCEPTED, each one listed and justified in
docs/html-differential.md; a difference no rule accepts fails the test,
and so does a rule the document does not name.
"""
import os
import random
import re
import subprocess
import sys
import tempfile

import html5lib

DUMP = os.environ["HTML_DUMP"]
ROOT = os.environ["HEED_SOURCE_ROOT"]
DOC = os.path.join(ROOT, "docs", "html-differential.md")
NS = "{http://www.w3.org/1999/xhtml}"

# As in html_dump.c: the attributes compared, per element.
WATCHED = {
    "meta": ["name", "property", "content", "itemprop", "charset",
             "http-equiv"],
    "link": ["rel", "href", "type", "itemprop"],
    "a": ["href", "rel"],
    "time": ["datetime", "itemprop"],
    "script": ["type"],
    "html": ["lang"],
    "base": ["href"],
    "title": [],
    "h1": [],
}
SPACE = re.compile(r"[\t\n\f\r ]+")


def unescape(s):
    return re.sub(r"\\(.)", lambda m: {"t": "\t", "n": "\n", "r": "\r",
                                       "\\": "\\"}[m.group(1)], s)


def heed_side(path, sanitised):
    p = subprocess.run([DUMP, path, sanitised], capture_output=True,
                       timeout=30)
    if p.returncode != 0:
        raise RuntimeError(f"html_dump {path}: {p.returncode} {p.stderr!r}")
    rows = []
    for line in p.stdout.decode("utf-8").split("\n"):
        if line:
            rows.append(tuple(unescape(f) for f in line.split("\t")))
    return rows


def captures(name, attrs):
    return name in ("title", "h1", "time") or (
        name == "script" and
        (attrs.get("type") or "").lower() == "application/ld+json")


def text_content(el):
    """The DOM's textContent: text and CDATA of the descendants, without
    comments (etree's itertext() would give html5lib's comments too)."""
    parts, stack = [el.text or ""], [(c, 0) for c in reversed(list(el))]
    while stack:
        c, state = stack.pop()
        if state == 0:
            if isinstance(c.tag, str):
                parts.append(c.text or "")
                stack.append((c, 1))
                stack.extend((g, 0) for g in reversed(list(c)))
            else:
                parts.append(c.tail or "")
        else:
            parts.append(c.tail or "")
    return "".join(parts)


def reference_side(text):
    # Scripting on, as heed reads noscript (and browsers do).
    parser = html5lib.HTMLParser(
        tree=html5lib.treebuilders.getTreeBuilder("etree"),
        namespaceHTMLElements=True)
    root = parser.parse(text, scripting=True)
    rows = []
    # Pre-order E rows, post-order X rows, without recursion: fuzz pages
    # nest deeper than Python's stack.
    stack = [(root, False)]
    while stack:
        el, done = stack.pop()
        tag = el.tag if isinstance(el.tag, str) else ""
        name = tag[len(NS):] if tag.startswith(NS) else None
        if done:
            rows.append(("X", name, text_content(el)))
            continue
        if name in WATCHED:
            row = ["E", name]
            for k in WATCHED[name]:
                if k in el.attrib:
                    row.append(f"{k}={el.attrib[k]}")
            rows.append(tuple(row))
            if captures(name, el.attrib):
                stack.append((el, True))
        for child in reversed(list(el)):
            stack.append((child, False))
    return rows


def normalise(rows):
    """What every consumer in heed does anyway: white space collapsed in
    captured text, CR LF and CR read as LF (13.2.3.5), the root's
    attributes merged first-wins and an attribute-less root dropped."""
    out, lang = [], None
    for r in rows:
        r = tuple(f.replace("\r\n", "\n").replace("\r", "\n") for f in r)
        if r[0] == "X":
            r = ("X", r[1], SPACE.sub(" ", r[2]).strip(" "))
        if r[:2] == ("E", "html"):
            if len(r) > 2 and lang is None:
                lang = r[2]
            continue
        out.append(r)
    if lang is not None:
        out.insert(0, ("E", "html", lang))
    return out


# Accepted differences, each listed and justified in
# docs/html-differential.md under its name. A rule looks at heed's rows,
# the reference's and the source, and returns the two with the difference
# it accepts taken out (or None when it does not apply); rules apply in
# turn, and the document passes when the rows are then equal.
FORMATTING_END = re.compile(
    r"</(a|b|big|code|em|font|i|nobr|s|small|strike|strong|tt|u)[\s/>]",
    re.I)


def _without_repeats(rows):
    seen, out = set(), []
    for row in rows:
        if row[:2] == ("E", "a"):
            if row in seen:
                continue
            seen.add(row)
        out.append(row)
    return out


def formatting_clones(h, r, src):
    h2, r2 = _without_repeats(h), _without_repeats(r)
    return (h2, r2) if (h2, r2) != (h, r) else None


def leading_newline(h, r, src):
    if not re.search(r"<(pre|listing|textarea)[\s/>]", src, re.I):
        return None

    def squeeze(rows):
        return [("X", x[1], x[2].replace(" ", "")) if x[0] == "X" else x
                for x in rows]
    return squeeze(h), squeeze(r)


def _subsequence(small, big):
    it = iter(big)
    return all(any(x == y for y in it) for x in small)


def _tags(rows):
    return sorted(x for x in rows if x[0] == "E")


def compare(src, skip=()):
    """Both sides' rows of the document src, with the rules but those in
    skip applied: (heed rows, reference rows, rules used or None)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "in.html")
        with open(path, "w", encoding="utf-8") as f:
            f.write(src)
        h, r, src = sides(path, os.path.join(tmp, "s.html"))
    return h, r, ([] if h == r else accepted(h, r, src, skip))


def sides(path, san):
    """heed's rows of the file at path, the reference's rows of the same
    text as heed sanitised it (written to san), and that text."""
    h = normalise(heed_side(path, san))
    with open(san, encoding="utf-8") as f:
        src = f.read()
    return h, normalise(reference_side(src)), src


def _equal_without(name, src, pattern, repl=""):
    """A rule that holds when the document compares equal once what
    pattern matches is replaced: the difference came from there."""
    edited = re.sub(pattern, repl, src, flags=re.I | re.S)
    return edited != src and compare(edited, skip=(name,))[2] is not None


def _tags(rows):
    return sorted(x for x in rows if x[0] == "E")


def select_contents(h, r, src):
    if _equal_without("select-contents", src,
                      r"<select[\s/>].*?(</select\s*>|$)"):
        return r, r
    return None


def frameset(h, r, src):
    if _equal_without("frameset", src, r"<frameset[\s/>].*"):
        return r, r
    return None


def quirks_table(h, r, src):
    if (not re.match(r"\s*<!doctype\s+html\s*>", src, re.I) and
            _equal_without("quirks-table", src, r"^", "<!DOCTYPE html>")):
        return r, r
    return None


def foster_parenting(h, r, src):
    if re.search(r"<table[\s/>]", src, re.I) and sorted(h) == sorted(r):
        return r, r
    return None


def foreign_integration(h, r, src):
    if (re.search(r"<(svg|math)[\s/>].*<(title|desc|foreignobject|mi|mo|mn|"
                  r"ms|mtext|annotation-xml)[\s/>]", src, re.I | re.S) and
            _equal_without("foreign-integration", src,
                           r"<(svg|math)[\s/>].*")):
        return r, r
    return None


def _unclosed_a(src):
    return (len(re.findall(r"<a[\s/>]", src, re.I)) >
            len(re.findall(r"</a[\s/>]", src, re.I)))


def adoption_agency(h, r, src):
    if ((FORMATTING_END.search(src) or _unclosed_a(src)) and
            _tags(h) == _tags(r)):
        return r, r
    return None


ACCEPTED = {
    "formatting-clones": formatting_clones,
    "leading-newline": leading_newline,
    "select-contents": select_contents,
    "frameset": frameset,
    "foster-parenting": foster_parenting,
    "quirks-table": quirks_table,
    "foreign-integration": foreign_integration,
    "adoption-agency": adoption_agency,
}


def accepted(h, r, src, skip=()):
    """The names of the rules that explain every difference, or None."""
    used = []
    for name, rule in ACCEPTED.items():
        if h == r:
            break
        if name in skip:
            continue
        got = rule(h, r, src)
        if got is not None:
            h, r = got
            used.append(name)
    return used if h == r else None


def first_difference(a, b):
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i, x, y
    i = min(len(a), len(b))
    return i, a[i] if i < len(a) else None, b[i] if i < len(b) else None


def corpus_files():
    dirs = [os.path.join(ROOT, "examples", "demo-web", "sites"),
            os.path.join(ROOT, "tests", "unit", "data"),
            os.path.join(ROOT, "tests", "fuzz", "corpus", "html"),
            os.path.join(ROOT, "tests", "fuzz", "corpus", "htmltok"),
            os.path.join(ROOT, "tests", "fuzz", "repro", "html"),
            os.path.join(ROOT, "tests", "fuzz", "repro", "htmltok")]
    out = []
    for d in dirs:
        for base, _, names in os.walk(d):
            for n in sorted(names):
                if d.endswith(("html", "htmltok")) or n.endswith(".html"):
                    out.append(os.path.join(base, n))
    return sorted(out)


# Generated documents: fragments that heed reads, mixed with the shapes
# that move text and tags between the tokenizer's states.
ENTITIES = ["&amp;", "&amp", "&lt", "&notin;", "&notit;", "&not", "&copy=",
            "&nGt;", "&fjlig;", "&CounterClockwiseContourIntegral;",
            "&#x80;", "&#150;", "&#0;", "&#xD800;", "&#x110000;", "&#65",
            "&ampx", "&hellip;", "&hellip", "&Amp;", "&#x;", "&", "&#"]
WORDS = ["news", "Tom & Jerry", "a<b", "x > y", "caf\u00e9", "  \n "]


def attr_value(rnd):
    v = "".join(rnd.choice(WORDS + ENTITIES) for _ in range(rnd.randint(0, 4)))
    q = rnd.choice(['"', "'", ""])
    if q == "":
        v = re.sub(r"[\s\"'<>=`]", "", v) or "x"
    elif q in v:
        v = v.replace(q, "")
    return f"{q}{v}{q}"


def fragment(rnd, depth):
    kinds = [
        lambda: f"<title>{text(rnd)}</title>",
        lambda: f"<meta name=description content={attr_value(rnd)}>",
        lambda: f"<meta property=og:title content={attr_value(rnd)} />",
        lambda: f"<link rel=canonical href={attr_value(rnd)}>",
        lambda: f"<a href={attr_value(rnd)}>{text(rnd)}</a>",
        lambda: f"<time datetime={attr_value(rnd)}>{text(rnd)}</time>",
        lambda: f"<h1>{text(rnd)}{inner(rnd, depth)}</h1>",
        lambda: ('<script type="application/ld+json">'
                 f'{{"name": "{text(rnd)}"}}</script>'),
        lambda: "<script>var s = '<!--<script>' + \"</scr\" + 'ipt>';"
                "</script>",
        lambda: f"<div>{inner(rnd, depth)}</div>",
        lambda: f"<p>{text(rnd)}<p>{inner(rnd, depth)}",
        lambda: f"<ul><li>{text(rnd)}<li>{inner(rnd, depth)}</ul>",
        lambda: f"<!-- {text(rnd)} -->",
        lambda: f"<style>{text(rnd)}</style>",
        lambda: f"<textarea>{text(rnd)}<a href=x></textarea>",
        lambda: f"<noscript><a href=n>{text(rnd)}</a></noscript>",
        lambda: f"<span><b>{text(rnd)}</span></b>",
        lambda: f"<p>{text(rnd)}</p>",
        lambda: "<br/>",
        lambda: f"<base href={attr_value(rnd)}>",
        # Foreign content: svg's title is no title; CDATA is read there.
        lambda: f"<svg><title>{text(rnd)}</title><![CDATA[{text(rnd)}]]>"
                f"<desc><a href=d>{text(rnd)}</a></desc></svg>",
        lambda: f"<math><mi><title>{text(rnd)}</title></mi>"
                f"<mtext>{inner(rnd, depth)}</mtext></math>",
        lambda: f"<svg><p>{text(rnd)}</svg>",
        lambda: f"<svg><a href=s>{text(rnd)}</a><script>{text(rnd)}"
                "</script></svg>",
        # Tables: foster parenting moves what is not a cell's.
        lambda: f"<table><tr><td>{inner(rnd, depth)}<td>{text(rnd)}"
                "</table>",
        lambda: f"<table>{fragment(rnd, depth + 1)}<tr><td>x</table>",
        lambda: f"<table><caption>{text(rnd)}</caption><tbody><tr>"
                f"<th>{inner(rnd, depth)}</tr></tbody></table>",
        # Formatting elements the adoption agency reopens.
        lambda: f"<b><p>{text(rnd)}</b>{text(rnd)}</p>",
        lambda: f"<a href=1><div><a href=2>{text(rnd)}</a></div></a>",
        lambda: f"<i><h1>{text(rnd)}</i>{text(rnd)}</h1>",
        # Templates hold a separate document fragment.
        lambda: f"<template><a href=t>{text(rnd)}</a><title>t</title>"
                "</template>",
        # The other text states and odd tags.
        lambda: f"<xmp><a href=x>{text(rnd)}</xmp>",
        lambda: f"<iframe><a href=i></iframe>",
        lambda: f"<select><option><a href=o>{text(rnd)}</select>",
        lambda: f"<form><form><a href=f>{text(rnd)}</a></form></form>",
        lambda: f"<pre>\n{text(rnd)}</pre>",
        lambda: f"<TITLE>{text(rnd)}</TiTlE >",
        lambda: f"<a href=a1 href=a2 HREF=a3>{text(rnd)}</a>",
        lambda: f"<h2>{text(rnd)}<h1>{text(rnd)}</h2>",
        lambda: f"<image src=i><br></br><p></p></p>",
        lambda: f"<frameset><frame></frameset>",
        lambda: f"<script><!--<script></script>-->{text(rnd)}</script>",
        lambda: f"</a></h1></title>{text(rnd)}",
        lambda: f"<meta name=a content=b/><link rel=x href=y/>",
        lambda: f"<a href='x'/b>{text(rnd)}</a>",
        lambda: f"<!DOCTYPE html><html lang=de>{text(rnd)}",
        lambda: f"<body><title>{text(rnd)}</title></body>",
        lambda: f"<time datetime=2024-01-02>{inner(rnd, depth)}</time>",
        lambda: f"<h1>{text(rnd)}<h1>{text(rnd)}",
        lambda: f"<li><h1>{text(rnd)}<li>{text(rnd)}",
        lambda: f"<dl><dt><h1>{text(rnd)}<dd>{text(rnd)}</dl>",
        lambda: f"<plaintext><a href=p>{text(rnd)}",
    ]
    return rnd.choice(kinds)()


def text(rnd):
    return "".join(rnd.choice(WORDS + ENTITIES)
                   for _ in range(rnd.randint(0, 5)))


def inner(rnd, depth):
    if depth > 3:
        return text(rnd)
    return "".join(fragment(rnd, depth + 1)
                   for _ in range(rnd.randint(0, 3)))


def generated(n, seed=15):
    rnd = random.Random(seed)
    docs = []
    for _ in range(n):
        head = "".join(fragment(rnd, 2) for _ in range(rnd.randint(0, 4)))
        body = "".join(fragment(rnd, 0) for _ in range(rnd.randint(1, 8)))
        lang = rnd.choice(["", " lang=en", " lang='fr-CA'"])
        shape = rnd.choice(["full", "bare", "nohead"])
        if shape == "full":
            docs.append(f"<!DOCTYPE html><html{lang}><head>{head}</head>"
                        f"<body>{body}</body></html>")
        elif shape == "bare":
            docs.append(head + body)
        else:
            docs.append(f"<html{lang}>{head}<body>{body}")
    return docs


# Shapes that must compare equal with no rule at all (formatting-clones
# aside): the tree rules htmltree.c follows, most of them once broken, and
# the WHATWG character references.
EXACT = [
    "<h1>a</h2><a href=x>b</a>",
    "<table><tr><th><h1>a</table><time datetime=t>b</time>",
    "<ul><math><mtext><h1>a</ul><title>t</title>",
    "<h1>a<body><h1>b",
    "<title>&nGt;&fjlig;&CounterClockwiseContourIntegral;&notit;&notin</title>"
    "<a href='?a=1&copy=2&not;&notx&nGt;'>x</a>",
    "<meta content='&#x80;&#x9F;&#0;&#xD800;&#x110000;&#65&amp;amp;'>",
    "<svg><title>no</title><a href=s>s</a></svg><title>yes</title>",
    "<script type=application/ld+json><!--<script></script>--></script>",
    "<noscript><a href=n>n</a></noscript><textarea><a href=t></textarea>",
    "<svg><title></svg>t</title><script type=application/ld+json>{}</script>",
    "<p><svg><title><i>t</title></i></svg><time datetime=d>x</time>",
    "<a href=1>x<h1>y<a href=2>z</a>w</h1>",
]


def main():
    doc = open(DOC, encoding="utf-8").read()
    failures = []
    for rule in ACCEPTED:
        if f"`{rule}`" not in doc:
            failures.append(f"rule {rule} is not listed in {DOC}")
    counts = {"same": 0}
    with tempfile.TemporaryDirectory() as tmp:
        for i, d in enumerate(EXACT):
            h, r, _ = compare(d)
            h, r = _without_repeats(h), _without_repeats(r)
            if h != r:
                x = first_difference(h, r)
                failures.append(f"exact#{i} {d!r}: {x}")
        sources = [(p, None) for p in corpus_files()]
        sources += [(f"generated#{i}", d)
                    for i, d in enumerate(generated(3000))]
        san = os.path.join(tmp, "sanitised.html")
        for name, data in sources:
            path = name
            if data is not None:
                path = os.path.join(tmp, "gen.html")
                with open(path, "w", encoding="utf-8") as f:
                    f.write(data)
            h, r, src = sides(path, san)
            if h == r:
                counts["same"] += 1
                continue
            rules = accepted(h, r, src)
            if rules:
                for rule in rules:
                    counts[rule] = counts.get(rule, 0) + 1
                continue
            i, x, y = first_difference(h, r)
            failures.append(f"{name}: row {i}: heed {x!r} html5lib {y!r}")
    print(f"{len(sources)} documents: {counts}")
    for f in failures:
        print("FAIL", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
