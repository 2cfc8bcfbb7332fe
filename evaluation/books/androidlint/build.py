"""Build the `androidlint` rule book (Android Lint checks with Java examples, Apache-2.0) from a
snapshot of googlesamples/android-custom-lint-rules.

    .venv/bin/python -m evaluation.books.androidlint.build PATH   # bare git dir or checkout

A rule is a check of `docs/checks/*.md.html` whose example holds a Java source file; SOURCE.md
(written from NOTES) says how each field and label is made.
"""

from __future__ import annotations

import html
import re
import sys
from collections import Counter

from evaluation.books.builder import run
from evaluation.books.snapshot import Snapshot
from evaluation.books.text import prose_paragraphs, split_markdown

BOOK, LANGUAGE = "androidlint", "java"
MAX_EXAMPLE_CHARS = 6000  # longer examples (whole test files) are left out of a rule's list
LINT_DOCS = "docs/checks"
_LINT_FIELD = re.compile(r"^(\w[\w ]*)\n:\s+(.*)$", re.MULTILINE)
_LINT_FENCE = re.compile(r"^~{3,}([\w ]*)$")


def build(snapshot: Snapshot) -> tuple[list[dict], dict]:
    """Checks whose extracted example holds a Java source file. The example is the first unit test
    of the check, the code lint reports on: violating. No compliant examples in this source."""
    rules, stats = [], Counter()
    for path in snapshot.files(LINT_DOCS):
        if not path.endswith(".md.html") or "/" in path[len(LINT_DOCS) + 1:]:
            continue
        text = snapshot.read(path)
        if "\nId\n:" not in text:
            continue
        stats["checks"] += 1
        fields: dict[str, str] = {}
        for m in _LINT_FIELD.finditer(text):
            fields.setdefault(m.group(1).strip(), m.group(2).strip())
        rule_id = fields.get("Id", "").strip("`")
        # the prose: after the metadata list, up to the first "(##)" section
        body_start = text.find("\n\n", text.find("\nTests\n") if "\nTests\n" in text else text.find("\nImplementation\n") + 1)
        head_end = text.find("(##)", body_start)
        prose_md = text[body_start: head_end if head_end > 0 else len(text)]
        example_part = text[head_end:text.find("(##) Suppressing", head_end)] if head_end > 0 else ""
        violating = []
        lines = example_part.splitlines()
        i = 0
        while i < len(lines):
            m = _LINT_FENCE.match(lines[i])
            if m:
                info = m.group(1).split()
                j = i + 1
                while j < len(lines) and not _LINT_FENCE.match(lines[j]):
                    j += 1
                if info and info[0] == "java":
                    code = html.unescape("\n".join(lines[i + 1:j]))
                    if len(code) <= MAX_EXAMPLE_CHARS:
                        violating.append(code)
                    else:
                        stats["examples_too_long"] += 1
                i = j + 1
            else:
                i += 1
        if not violating:
            stats["dropped_no_java_example"] += 1
            continue
        prose_md = html.unescape(prose_md)
        prose_md = "\n".join(line for line in prose_md.splitlines() if not _LINT_FENCE.match(line))
        prose = prose_paragraphs("\n".join(p for kind, p, _ in split_markdown(prose_md) if kind == "text"))
        prose = [p for p in prose if not p.startswith("!!!")]
        if not prose:
            stats["dropped_no_prose"] += 1
            continue
        rules.append({
            "id": rule_id,
            "title": html.unescape(fields.get("Summary", rule_id)),
            "prose": "\n\n".join(prose),
            "level": fields.get("Severity"),
            "category": fields.get("Category", "Other"),
            "violating": violating,
            "compliant": [],
            "source": path,
        })
    return rules, dict(stats)


NOTES = {
    "paths": f"`{LINT_DOCS}/*.md.html` (Markdeep pages generated from the lint checks of AOSP "
             "and libraries: Id, Summary, Severity, Category fields, the explanation, and an Example "
             "section with the source files of the check's first unit test)",
    "licence": "Apache License 2.0 (LICENSE at the repository root of googlesamples/android-custom-lint-rules). "
               "The check descriptions come from the Android Open Source Project's lint checks (Apache-2.0) "
               "and library vendors named on each page. Attribution: \"Android Lint documentation, "
               "googlesamples/android-custom-lint-rules, licensed under the Apache License, Version 2.0\".",
    "fields": "id = the lint issue id; title = Summary; prose = the explanation between the metadata list "
              "and the first (##) section, entities unescaped, code blocks removed; level = Severity; "
              "category = Category (Correctness, Security, Performance, ...).",
    "classification": "The Example section's source files are the code the check reports in its first unit "
                      "test: every `java` source block there is violating (Kotlin, XML, Gradle and the lint "
                      f"output blocks are skipped; blocks over {MAX_EXAMPLE_CHARS} characters are left out). "
                      "The source has no compliant examples. Only checks with at least one Java source "
                      "block are kept.",
}


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:], BOOK, LANGUAGE, build, NOTES, sampled=True))
