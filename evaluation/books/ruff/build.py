#!/usr/bin/env python3
"""Build the `ruff` rule book (Python) from a snapshot of astral-sh/ruff (MIT licence).

    .venv/bin/python -m evaluation.books.ruff.build PATH   # bare git dir or checkout

A rule is a ruff rule of the linters in LINTERS (behaviour, not formatting): its `///` doc comment
gives the prose and the documented examples ("## Example" violating, "Use instead:" compliant);
its test fixtures, with the `.snap` snapshots naming the flagged lines, give more: the fixture's
chunk holding a flagged line (violating) and chunks no snapshot of the rule flags (compliant).
SOURCE.md (written from NOTES) says how each field and label is made.
"""

from __future__ import annotations

import posixpath
import re
import sys
from collections import Counter
from functools import cache

from evaluation.books.builder import run
from evaluation.books.ruff.fixtures import fixture_examples, flagged
from evaluation.books.snapshot import Snapshot
from evaluation.books.snippets import MAX_EXAMPLES, MAX_LINES, Examples
from evaluation.books.text import humanise, prose_paragraphs, split_markdown
from evaluation.books.verdicts import classify

BOOK, LANGUAGE = "ruff", "python"
CRATE = "crates/ruff_linter"
RULES, FIXTURES = f"{CRATE}/src/rules", f"{CRATE}/resources/test/fixtures"
# linters about behaviour (bugs, security, performance); Pylint's convention (PLC) and refactoring
# (PLR) rules and every formatting/style linter are left out
LINTERS = ("Flake8Bugbear", "Flake8Bandit", "Pylint", "Perflint", "Ruff")
PYLINT_KINDS = {"E": "errors", "W": "warnings"}
PROSE_SECTIONS = ("what it does", "why is this bad?", "known problems")


def codes(snapshot: Snapshot) -> dict[str, tuple[str, str, str]]:
    """Rule code -> (linter, module, struct) for the chosen linters, from registry.rs and codes.rs."""
    prefixes = dict(re.findall(r'#\[prefix = "(\w+)"\]\s*\n\s*(\w+),', snapshot.read(f"{CRATE}/src/registry.rs")))
    linters = {v: k for k, v in prefixes.items()}
    out = {}
    table = snapshot.read(f"{CRATE}/src/codes.rs")
    for m in re.finditer(r'(#\[cfg\([^\n]*\]\s*\n\s*)?\((\w+), "(\w+)"\) => rules::(\w+)::rules::(\w+),', table):
        if not m.group(1) and m.group(2) in LINTERS:
            out[linters[m.group(2)] + m.group(3)] = (m.group(2), m.group(4), m.group(5))
    return out


def rule_doc(source: str, struct: str) -> tuple[str, str] | None:
    """(doc comment Markdown, status) of the violation `struct` in a Rust file, or None."""
    m = re.search(r"((?:^\s*///.*\n)+)(?:^\s*#\[.*\n)*?^\s*#\[violation_metadata\((\w+)_since[^\n]*\n(?:^\s*#\[.*\n)*"
                  rf"^\s*pub(?:\(crate\))? struct {struct}\b", source, re.MULTILINE)
    if not m:
        return None
    return "\n".join(re.sub(r"^\s*/// ?", "", line) for line in m.group(1).splitlines()), m.group(2)


def sections(markdown: str) -> list[tuple[str, str]]:
    """(lower-cased heading, body) of the doc's `##` sections."""
    parts = re.split(r"^## +(.+)$", markdown, flags=re.MULTILINE)
    return [(parts[i].strip().lower(), parts[i + 1]) for i in range(1, len(parts) - 1, 2)]


def unlinked(markdown: str) -> str:
    """Reference-style links (`[preview]`, `[PEP 597]` and their `[x]: url` lines) as plain text;
    inline code is left alone."""
    markdown = re.sub(r"^\[[^\]]+\]:\s*\S+\s*$", "", markdown, flags=re.MULTILINE)
    parts = markdown.split("`")
    return "`".join(re.sub(r"\[([^\]]+)\](?![(:])", r"\1", p) if i % 2 == 0 else p for i, p in enumerate(parts))


def documented(markdown: str, bad: Examples, good: Examples, stats: Counter) -> list[str]:
    """The doc's prose paragraphs; its Python blocks go to `bad` / `good` by the sentence before them."""
    prose: list[str] = []
    markdown = unlinked(markdown)
    for heading, body in sections(markdown):
        pieces = split_markdown(body)
        if heading in PROSE_SECTIONS:
            prose += prose_paragraphs("\n\n".join(p for kind, p, _ in pieces if kind == "text"))
        if not heading.startswith("example"):
            continue
        lead = ""
        for kind, text, info in pieces:
            if kind == "text":
                lead = text
            elif (info.split() or [""])[0] not in ("python", "py", ""):
                stats["doc_blocks_not_python"] += 1
            else:
                verdict = classify(lead, text) or ("violating" if not bad.documented else None)
                if verdict is None:
                    stats["doc_blocks_unclassified"] += 1
                (bad if verdict == "violating" else good).document(text) if verdict else None
    return prose


# ------------------------------------------------------------------------------------- book


def category(linter: str, code: str) -> str:
    if linter == "Pylint":
        return f"Pylint {PYLINT_KINDS.get(code[2], '')}".strip()
    return {"Flake8Bugbear": "flake8-bugbear", "Flake8Bandit": "flake8-bandit", "Perflint": "Perflint",
            "Ruff": "Ruff-specific rules"}[linter]


def build(snapshot: Snapshot) -> tuple[list[dict], dict]:
    stats: Counter = Counter()
    sources = [p for p in snapshot.files(RULES) if "/rules/" in p and p.endswith(".rs")]
    read = cache(snapshot.read)
    fixtures = [p for p in snapshot.files(FIXTURES) if p.endswith(".py")]
    hits_of: dict[str, dict] = {}
    rules = []
    for code, (linter, module, struct) in sorted(codes(snapshot).items()):
        if linter == "Pylint" and code[2] not in PYLINT_KINDS:
            continue
        found = next(((p, *d) for p in sources if p.startswith(f"{RULES}/{module}/")
                      and f"struct {struct}" in read(p) for d in [rule_doc(read(p), struct)] if d), None)
        if found is None or found[2] != "stable":
            stats["rules_not_stable_or_undocumented"] += 1
            continue
        bad, good = Examples(LANGUAGE, stats), Examples(LANGUAGE, stats)
        prose = documented(found[1], bad, good, stats)
        hits_of.setdefault(module, flagged(snapshot, module) if module not in hits_of else hits_of[module])
        for (flagged_code, name), hit_rows in sorted(hits_of[module].items()):
            paths = [p for p in fixtures if p.startswith(f"{FIXTURES}/{module}/") and posixpath.basename(p) == name]
            if flagged_code == code and len(paths) == 1:
                fixture_examples(paths[0], snapshot.read(paths[0]), hit_rows, bad, good, stats)
        violating, compliant = bad.taken(), good.taken(unlike=bad)
        if len(violating) < 2 or not prose:
            stats[f"dropped_{min(len(violating), 2)}_violating" if prose else "dropped_no_prose"] += 1
            continue
        rules.append({
            "id": code, "title": humanise(struct), "prose": "\n\n".join(prose), "level": None,
            "category": category(linter, code), "violating": violating, "compliant": compliant,
            "source": found[0],
            "language": LANGUAGE,
        })
    return rules, dict(stats)


NOTES = {
    "paths": f"`{RULES}/<linter>/rules/*.rs` (the `///` doc comment and `#[violation_metadata]` of each violation "
             f"struct), `{CRATE}/src/codes.rs` and `registry.rs` (rule codes), `{FIXTURES}/<linter>/**/*.py` (test "
             f"fixtures) and `{RULES}/<linter>/snapshots/*.snap` (the diagnostics ruff's tests expect)",
    "licence": "MIT License (LICENSE at the repository root): \"Permission is hereby granted, free of charge, to any "
               "person obtaining a copy of this software and associated documentation files ... to deal in the "
               "Software without restriction\"; Copyright (c) 2022 Charles Marsh. The LICENSE's list of externally "
               "maintained libraries ruff derives parts from (autoflake, Flake8, isort, pycodestyle, Pyflakes, "
               "pyupgrade, ...) names none of the linters this book takes rules from (flake8-bugbear, flake8-bandit, "
               "Pylint, Perflint): their rules are re-implemented and documented in ruff's own words.",
    "fields": "id = the rule code (B006, S608, PLE0100, PERF401, RUF012); title = the violation struct's name split "
              "into words; prose = the doc's \"What it does\", \"Why is this bad?\" and \"Known problems\" sections "
              "without code blocks (headings dropped, inline code in backticks); level = none (ruff has no "
              "severities; only stable rules are kept: preview, removed, deprecated and test-only ones are left out); category = the linter "
              "(flake8-bugbear, flake8-bandit, Pylint errors, Pylint warnings, Perflint, Ruff-specific rules: "
              "behaviour, not formatting; Pylint conventions/refactorings and the style linters are left out); "
              "language = python.",
    "classification": "Doc examples: the Python blocks of the \"Example(s)\" sections, labelled by the sentence before "
                      "them with the Error Prone cue rules of evaluation/books/verdicts.py (\"Use instead:\" compliant); the "
                      "first unlabelled block is violating, other unlabelled ones are left out. Fixtures: each "
                      "snapshot diagnostic (`CODE message` then `--> file:line:col`) flags a line of a fixture of "
                      "that linter; a snapshot that flags nothing still names its fixture (`..._tests__<CODE>_<file>"
                      ".snap`). A fixture is cut into chunks: each top-level def/class alone, other top-level "
                      "statements in runs without a blank line between them, comments above included. A chunk "
                      f"holding a line flagged for the rule is violating (over {MAX_LINES} lines: the flagged "
                      "statement, descending into blocks; a method keeps its class header); a chunk no snapshot of "
                      "the rule flags is compliant when it has an `# OK`/`# good`-style comment or names something "
                      "a flagged line names (chunks of only imports, docstrings or `pass` are skipped). The "
                      "fixture's imports a snippet uses go first. Per rule and label at most "
                      f"{MAX_EXAMPLES} examples: doc examples first, then fixture chunks taken in turn from each "
                      "fixture, duplicates removed. Every example parses with tree-sitter-python without an error "
                      "node (others dropped, counted). Rules with fewer than 2 violating examples are dropped.",
}


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:], BOOK, LANGUAGE, build, NOTES))
