"""Build the `errorprone` rule book (Error Prone's bug patterns, Apache-2.0) from a snapshot of
google/error-prone.

    .venv/bin/python -m evaluation.books.errorprone.build PATH   # bare git dir or checkout

A rule is a bug pattern with an explanation page (`docs/bugpattern/**/*.md`) and a `@BugPattern`
annotation giving its summary and severity; SOURCE.md (written from NOTES) says how each field and
label is made.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

from evaluation.books.builder import run
from evaluation.books.snapshot import Snapshot
from evaluation.books.text import looks_like_java, prose_paragraphs, split_markdown
from evaluation.books.verdicts import classify

BOOK, LANGUAGE = "errorprone", "java"
EP_DOCS = "docs/bugpattern"
EP_CHECKS = "core/src/main/java/com/google/errorprone/bugpatterns"
_EP_ANNOTATION = re.compile(r"^@BugPattern\((.*?)\)\s*\n(?:@[\w.]+(?:\([^)]*\))?\s*\n)*\s*(?:public\s+)?(?:final\s+)?"
                            r"(?:abstract\s+)?(?:class|interface)\s+(\w+)", re.DOTALL | re.MULTILINE)
_STRING_CONCAT = re.compile(r'"((?:[^"\\]|\\.)*)"')


def _ep_annotations(snapshot: Snapshot) -> dict[str, dict]:
    """Bug pattern name -> summary, severity, tags, Java source path, from @BugPattern annotations."""
    found: dict[str, dict] = {}
    for path in snapshot.files(EP_CHECKS):
        if not path.endswith(".java"):
            continue
        source = snapshot.read(path)
        if "@BugPattern(" not in source:
            continue
        for m in _EP_ANNOTATION.finditer(source):
            body, cls = m.group(1), m.group(2)
            name_m = re.search(r'\bname\s*=\s*"([^"]+)"', body)
            summary_m = re.search(r"\bsummary\s*=\s*((?:\"(?:[^\"\\]|\\.)*\"\s*\+?\s*)+)", body)
            severity_m = re.search(r"\bseverity\s*=\s*(?:\w+\.)?(ERROR|WARNING|SUGGESTION)", body)
            tags = re.findall(r"StandardTags\.(\w+)", body)
            summary = "".join(_STRING_CONCAT.findall(summary_m.group(1))) if summary_m else ""
            summary = summary.encode().decode("unicode_escape") if "\\" in summary else summary
            found.setdefault(name_m.group(1) if name_m else cls, {
                "summary": summary, "severity": severity_m.group(1) if severity_m else None,
                "tags": tags, "java": path})
    return found



def build(snapshot: Snapshot) -> tuple[list[dict], dict]:
    annotations = _ep_annotations(snapshot)
    rules, stats = [], Counter()
    for path in snapshot.files(EP_DOCS):
        if not path.endswith(".md"):
            continue
        stats["pages"] += 1
        name = Path(path).stem
        meta = annotations.get(name)
        if not meta or not meta["summary"]:
            stats["dropped_no_annotation"] += 1
            continue
        text = snapshot.read(path)
        text = re.sub(r"^---\n.*?\n---\n", "", text, flags=re.DOTALL)  # front matter, if any
        pieces = split_markdown(text)
        prose_parts, violating, compliant = [], [], []
        last_text = ""
        for kind, body, info in pieces:
            if kind == "text":
                prose_parts.append(body)
                last_text = body
                continue
            if not looks_like_java(body, info):
                stats["non_java_blocks"] += 1
                continue
            verdict = classify(last_text, body)
            if verdict is None and not violating and not compliant:
                verdict = "violating"  # the page's first example illustrates the pattern
            if verdict == "violating":
                violating.append(body)
            elif verdict == "compliant":
                compliant.append(body)
            else:
                stats["unclassified_blocks"] += 1
        if not violating:
            stats["dropped_no_violating"] += 1
            continue
        prose = prose_paragraphs("\n\n".join(prose_parts))
        if not prose:
            stats["dropped_no_prose"] += 1
            continue
        folder = Path(path).parent.name
        rules.append({
            "id": name,
            "title": " ".join(meta["summary"].split()),
            "prose": "\n\n".join(prose),
            "level": meta["severity"],
            "category": meta["severity"] or "UNKNOWN",
            "group": folder if folder != "bugpattern" else None,
            "tags": meta["tags"],
            "violating": violating,
            "compliant": compliant,
            "source": path,
            "checker_source": meta["java"],
        })
    return rules, dict(stats)



NOTES = {
    "paths": f"`{EP_DOCS}/**/*.md` (the explanation pages) and the `@BugPattern(summary, severity, tags)` "
             f"annotation of the checker class in `{EP_CHECKS}/**/*.java`",
    "licence": "Apache License 2.0 (COPYING at the repository root), Copyright The Error Prone Authors. "
               "The repository has no NOTICE file; attribution: \"Error Prone, Copyright The Error Prone "
               "Authors, licensed under the Apache License, Version 2.0\".",
    "fields": "id = the bug pattern name (the page's file name, matched to the annotation's `name` or the "
              "class name); title = the annotation's summary; prose = the page's Markdown without code "
              "blocks and tables (sub-headings such as FAQ questions become plain paragraphs); level and "
              "category = severity (ERROR, WARNING, SUGGESTION); group = the docs sub-folder if any "
              "(android, javadoc, ...); tags = StandardTags of the annotation.",
    "classification": "Each fenced Java block (``` or ```java; blocks tagged with another language and "
                      "unlabelled blocks that do not look like Java are skipped) is classified by (1) its own "
                      "marker comments: `// BUG: Diagnostic`, `// bad`, `// wrong`, `// error` -> violating, "
                      "`// good`, `// ok`, `// fixed`, `// better`, `// preferred` -> compliant; else (2) the "
                      "last sentence before it: a sentence opening with \"to this\" / \"over\" / \"rather "
                      "than\" / \"instead of\" (the second half of \"prefer this: ... to this:\") and a short "
                      "sentence with \"don't\" / \"do not\" / \"never\" -> violating; otherwise the LAST cue "
                      "word of the sentence decides: compliant cues \"instead\" (not \"instead of\"), "
                      "\"prefer\", \"better\", \"correct\", \"fix\", \"rewrite\", \"replace with\", \"is/are "
                      "fine/ok/safe\", \"clearer\", \"idiomatic\", \"After:\", \"will not trigger/flag\", an "
                      "imperative (add/use/write/replace/annotate...) opening the sentence or a clause; violating cues \"instead of\", \"Before:\", \"for "
                      "example\", \"consider\", \"such as\", \"bug\", \"wrong\", \"problem\", \"avoid\", "
                      "\"the following\", \"not\", \"fails\", \"confusing\", ...; a block shown for "
                      "suppression (@SuppressWarnings) is left out; "
                      "(3) otherwise the first Java block of a page is violating and later unclear blocks are "
                      "left out (counted as unclassified). Pages without a violating block are dropped.",
}


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:], BOOK, LANGUAGE, build, NOTES, sampled=True))
