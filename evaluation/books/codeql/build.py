#!/usr/bin/env python3
"""Build the `codeql` rule book (Java) from a snapshot of github/codeql (MIT licence).

    .venv/bin/python -m evaluation.books.codeql.build PATH   # bare git dir or checkout

A rule is a `problem` query with a help file (`java/ql/src/**/<Query>.qhelp` beside `<Query>.ql`).
Examples: the help's sample files (split at BAD/GOOD marker comments) and snippets cut from the
query's tests (`java/ql/test/**/<Query>.qlref` + `.expected`). SOURCE.md (written from NOTES)
says how each field and label is made.
"""

from __future__ import annotations

import html
import posixpath
import re
import sys
import xml.etree.ElementTree as ET
from collections import Counter

from evaluation.books.builder import run
from evaluation.books.codeql.query_tests import (
    COMMENTS,
    NAME,
    SMALL_CLASS,
    TESTS,
    TYPES,
    WINDOW,
    closed,
    compliant_snippets,
    expected_rows,
    java_source,
    marks,
    tested_queries,
    violating_snippets,
)
from evaluation.books.snapshot import Snapshot
from evaluation.books.snippets import MAX_EXAMPLES, MAX_LINES, Examples, leading_comments, parses, rows, tree
from evaluation.books.verdicts import classify

BOOK, LANGUAGE = "codeql", "java"
SRC = "java/ql/src"
# top folders of java/ql/src kept (security and correctness); Metrics, Architecture, Complexity,
# Advisory (style) and DeadCode (whole-program) queries are left out
CATEGORIES = ("Security", "Experimental security", "Likely Bugs", "Violations of Best Practice", "Performance",
              "Frameworks", "Compatibility", "Language")

_GOOD_NAME = re.compile(r"(Good|Fix|Fixed|Correct|Safe|Safer|Better)\d*\.java$")
_BAD_NAME = re.compile(r"(Bad|Wrong|Unsafe|Insecure)\d*\.java$|^(Bad|Unsafe|Insecure)")


def fill_ellipses(code: str) -> str:
    """A help sample's `...` placeholders as comments (`= ...;` gets a `null`); varargs stay."""
    code = re.sub(r"(?<![\w)\]>])\.\.\.(?![\w.])", "/* ... */", code)
    return re.sub(r"=\s*/\* \.\.\. \*/\s*;", "= /* ... */ null;", code)


def meta(ql: str) -> dict[str, str]:
    fields: dict[str, str] = {}
    key = None
    for line in ql.split("*/", 1)[0].splitlines():
        m = re.match(r"\s*\*?\s*@([\w.-]+)\s*(.*)", line)
        if m:
            key, fields[m.group(1)] = m.group(1), m.group(2).strip()
        elif key and line.strip(" */"):
            fields[key] += " " + line.strip(" */")
    return fields


# ---------------------------------------------------------------------------------- qhelp


def read_xml(snapshot: Snapshot, path: str) -> ET.Element:
    """A help file with its `<include src>` files spliced in."""
    root = ET.fromstring(re.sub(r"&(?!amp;|lt;|gt;|quot;|apos;|#)\w+;", lambda m: html.unescape(m.group(0)),
                                snapshot.read(path)))
    for parent in list(root.iter()):
        for i, child in enumerate(list(parent)):
            if child.tag == "include":
                inner = read_xml(snapshot, posixpath.normpath(f"{posixpath.dirname(path)}/{child.get('src', '')}"))
                parent.remove(child)
                for j, part in enumerate(list(inner.find("fragment") if inner.find("fragment") is not None else inner)):
                    parent.insert(i + j, part)
    return root


def inline(element: ET.Element) -> str:
    out = [element.text or ""]
    for child in element:
        out += [f"`{inline(child).strip()}`" if child.tag == "code" else inline(child), child.tail or ""]
    return "".join(out)


def paragraphs(section: ET.Element | None) -> list[str]:
    out: list[str] = []
    for child in [] if section is None else list(section):
        if child.tag in ("ul", "ol"):
            out += ["- " + " ".join(inline(li).split()) for li in child.iter("li")]
        elif child.tag in ("p", "blockquote", "li"):
            out.append(" ".join(inline(child).split()))
        elif child.tag not in ("sample", "pre", "img", "table", "references"):
            out += paragraphs(child)
    return [p for p in out if p.strip("- ")]


def split_sample(code: str) -> list[tuple[str | None, str]]:
    """(label, code) parts of a help sample: its top-level units (or the members of its one class,
    under the class header) when each marked unit has one kind of marker and both kinds occur;
    else the whole sample, "bad" if it has a bad marker, "good" if only good ones, else None."""
    lines, root = code.splitlines(), tree(code, LANGUAGE)
    units, owner = [n for n in root.named_children if n.type not in COMMENTS], None
    if len(units) == 1 and units[0].type in TYPES and units[0].child_by_field_name("body") is not None:
        members = [n for n in units[0].child_by_field_name("body").named_children if n.type not in COMMENTS]
        if sum(bool(marks(rows(lines, leading_comments(n, COMMENTS), n.end_point.row))) for n in members) >= 2:
            units, owner = members, units[0]
    parts = []
    for unit in units:
        text = rows(lines, leading_comments(unit, COMMENTS), unit.end_point.row)
        kinds = marks(text)
        parts.append((kinds.pop() if len(kinds) == 1 else ("mixed" if kinds else None), text))
    if {k for k, _ in parts if k} == {"bad", "good"}:
        return [(k, closed(lines, owner, t) if owner else t) for k, t in parts if k in ("bad", "good")]
    whole = marks(code)
    return [("bad" if "bad" in whole else "good" if whole else None, code)]


def help_examples(snapshot: Snapshot, root: ET.Element, folder: str, bad: Examples, good: Examples,
                  stats: Counter) -> None:
    lead = ""  # the paragraph before a sample
    for child in (c for example in root.iter("example") for c in example):
        if child.tag != "sample":
            lead = " ".join(paragraphs(child) if child.tag in ("ul", "ol") else [inline(child)]) or lead
            continue
        src = child.get("src", "")
        if not src.endswith(".java"):
            stats["help_samples_not_java"] += 1
            continue
        code = snapshot.read(f"{folder}/{src}").replace("\r\n", "\n")
        if not parses(code, LANGUAGE) and parses(fill_ellipses(code), LANGUAGE):
            code, stats["help_samples_ellipses_commented"] = fill_ellipses(code), stats["help_samples_ellipses_commented"] + 1
        for label, part in split_sample(code):
            if label is None and (_GOOD_NAME.search(src) or _BAD_NAME.search(src)):
                label = "good" if _GOOD_NAME.search(src) else "bad"
            label = label or {"violating": "bad", "compliant": "good"}.get(classify(lead, part) or "")
            label = label or ("bad" if not bad.documented else None)  # the help's first sample shows the problem
            if label in ("bad", "mixed"):
                bad.document(part)
            elif label == "good":
                good.document(part)
            else:
                stats["help_samples_unclassified"] += 1


# ------------------------------------------------------------------------------------ book


def category(path: str) -> str:
    top = path[len(SRC) + 1:].split("/")[0]
    return "Experimental security" if top == "experimental" and "/Security/" in path else top


def build(snapshot: Snapshot) -> tuple[list[dict], dict]:
    stats: Counter = Counter()
    tests = tested_queries(snapshot)
    busy: dict[str, set[int]] = {}  # "folder/file" -> rows of any location of any test of that folder
    for folder, text in (one for runs in tests.values() for one in runs):
        for file, found in expected_rows(text)[1].items():
            busy.setdefault(f"{folder}/{file}", set()).update(found)
    files = snapshot.files(SRC)
    rules = []
    for help_path in (p for p in files if p.endswith(".qhelp") and not p.endswith(".inc.qhelp")):
        fields = meta(snapshot.read(help_path[:-6] + ".ql")) if help_path[:-6] + ".ql" in files else {}
        if fields.get("kind") not in ("problem", "path-problem") or "id" not in fields \
                or category(help_path) not in CATEGORIES:
            stats["queries_left_out_kind_or_category"] += 1
            continue
        root = read_xml(snapshot, help_path)
        bad, good = Examples(LANGUAGE, stats), Examples(LANGUAGE, stats)
        help_examples(snapshot, root, posixpath.dirname(help_path), bad, good, stats)
        for folder, text in tests.get(help_path[len(SRC) + 1: -6] + ".ql", []):
            alerts = expected_rows(text)[0]
            sources = [java_source(p, snapshot.read(p).replace("\r\n", "\n"))
                       for p in snapshot.files(folder) if p.endswith(".java")]
            words = {w for f in sources for r in alerts.get(f.path[len(folder) + 1:], ())
                     for w in NAME.findall(f.lines[r] if r < len(f.lines) else "")}
            for f in sources:
                for snippet in violating_snippets(f, alerts.get(f.path[len(folder) + 1:], set()), stats):
                    bad.test(f.path, snippet)
                for snippet in compliant_snippets(f, busy.get(f.path, set()), words):
                    good.test(f.path, snippet)
        violating, compliant = bad.taken(), good.taken(unlike=bad)
        prose = paragraphs(root.find("overview")) + paragraphs(root.find("recommendation"))
        if len(violating) < 2 or not prose:
            stats[f"dropped_{min(len(violating), 2)}_violating" if prose else "dropped_no_prose"] += 1
            continue
        rules.append({
            "id": fields["id"], "title": fields.get("name", fields["id"]), "prose": "\n\n".join(prose),
            "level": fields.get("problem.severity"), "category": category(help_path),
            "tags": fields.get("tags", "").split(), "violating": violating, "compliant": compliant,
            "source": help_path, "language": LANGUAGE,
        })
    return rules, dict(stats)


NOTES = {
    "paths": f"`{SRC}/**/<Query>.qhelp`, the header of `<Query>.ql`, the help's `<sample src>` Java files, and the "
             f"query tests `{TESTS}/**/<Query>.qlref` with their `.expected` output and the test folder's `.java` files",
    "licence": "MIT License (LICENSE at the repository root): \"Permission is hereby granted, free of charge, to any "
               "person obtaining a copy of this software and associated documentation files ... to deal in the "
               "Software without restriction\"; Copyright (c) 2006-2020 GitHub, Inc. The snapshot is the repository "
               "under its former name Semmle/ql (GitHub redirects it to github/codeql), March 2021: the current "
               "github/codeql snapshot is over the 500 MB this machine may fetch.",
    "fields": "id = `@id` (java/...); title = `@name`; prose = the help's <overview> and <recommendation> paragraphs "
              "and list items (<include> files spliced in, <sample>/<pre> code dropped, <code> in backticks); level = "
              "`@problem.severity`; category = the query's top folder (" + ", ".join(CATEGORIES) + "; Metrics, "
              "Architecture, Complexity, Advisory and DeadCode queries are left out); tags = `@tags`. Only "
              "`problem` and `path-problem` queries.",
    "classification": "Help samples: a sample is split at its top-level units (or the members of its one class, kept "
                      "under the class header) when its marker comments (`// BAD`, `// GOOD`, `// OK`, `// NOT OK`, "
                      "`// unsafe`, `// safe`, `// AVOID`, ...) give each marked unit one kind and both kinds occur "
                      "(unmarked units are context, left out); else the whole sample is violating with a bad marker, "
                      "compliant with only good ones; an unmarked sample goes by its file name (`...Good`, `...Fix`, "
                      "`...Safe` compliant; `...Bad`, `Unsafe...` violating), then by the sentence before it (the "
                      "Error Prone cue rules of evaluation/books/verdicts.py); the help's first sample is violating, others are "
                      "left out. `...` placeholders of a sample that does not parse become `/* ... */` comments. "
                      "Tests: each `.expected` result row (path problems: `#select` rows) alerts the line of its first "
                      f"column. Violating snippet: the alerted class when under {SMALL_CLASS} lines (or when the "
                      "alert is outside its members), else the alerted member under its class header; a method over "
                      f"{WINDOW} lines is cut to the alerted statement and the statements before it (up to {WINDOW} "
                      "lines); the file's imports the snippet uses go first. Alerts whose line or the line above says "
                      "GOOD, false positive/negative, NOT DETECTED, MISSING or TODO are left out. Compliant snippets: "
                      "methods and constructors (3+ lines, under their class header) on which no location of any "
                      "`.expected` of the folder lies (no alert, no data-flow step), without a bad marker, that have "
                      "a good marker (first) or name something an alerted line names. Per rule and label at most "
                      f"{MAX_EXAMPLES} examples of at most {MAX_LINES} lines: help samples first, then test snippets "
                      "taken in turn from each test file, duplicates removed. Every example parses with "
                      "tree-sitter-java without an error node (others dropped, counted). Queries with fewer than 2 "
                      "violating examples are dropped.",
}


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:], BOOK, LANGUAGE, build, NOTES))
