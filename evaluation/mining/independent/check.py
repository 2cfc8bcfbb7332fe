#!/usr/bin/env python3
"""Check the independent files of every book and print their counts; exit 1 on any problem.

    .venv/bin/python -m evaluation.mining.independent.check [--books dev,pmd,errorprone,androidlint]

A book passes when it has at least MIN_FILES violating and MIN_FILES compliant files; every file
parses with its language's tree-sitter grammar without ERROR or MISSING nodes; every rule id is one
of the book's; every labelled line exists and is not blank; every rule with a violating file has a
compliant one; no file holds (whitespace removed) any example of its book; and SELECTION.md walks the
book's rules in the seeded order, taking exactly the rules the cases use and giving a reason for
every rule it skips.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

from dualrag.languages import parser
from dualrag.units import RuleUnit
from evaluation.core.scoring import squash
from evaluation.mining.independent import BOOKS, HERE, CaseError, IndependentCase, load_cases
from evaluation.mining.independent.selection import book_rules, walk_order

MIN_FILES = 40
_ROW = re.compile(r"^\|\s*(\d+)\s*\|\s*`?([^|`]+?)`?\s*\|\s*(taken|skipped)\s*\|(.*)\|\s*$")


def parse_error(text: str, language: str) -> str | None:
    """Where the grammar of `language` first fails on `text` (None: a clean tree)."""
    root = parser(language).parse(text.encode("utf-8")).root_node
    if not root.has_error:
        return None
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "ERROR" or node.is_missing:
            kind = "MISSING " + node.type if node.is_missing else "ERROR"
            return f"{kind} at line {node.start_point[0] + 1}"
        stack.extend(reversed([c for c in node.children if c.has_error or c.is_missing]))
    return "an error node"


def file_problems(case: IndependentCase, examples: list[str]) -> list[str]:
    name = case.path.name
    out = []
    if (error := parse_error(case.text, case.language)) is not None:
        out.append(f"{name}: does not parse as {case.language}: {error}")
    lines = case.text.splitlines()
    for n in case.lines:
        if not 1 <= n <= len(lines) or not lines[n - 1].strip():
            out.append(f"{name}: labelled line {n} is out of range or blank")
    text = squash(case.text)
    out += [f"{name}: holds an example of the book: {squash(e)[:60]!r}" for e in examples if squash(e) and squash(e) in text]
    return out


def selection_rows(path: Path) -> list[tuple[int, str, str, str]]:
    """The walk table of SELECTION.md: (position, rule id, taken|skipped, reason)."""
    if not path.is_file():
        return []
    rows = [_ROW.match(line) for line in path.read_text(encoding="utf-8").splitlines()]
    return [(int(m[1]), m[2].strip(), m[3], m[4].strip()) for m in rows if m]


def selection_problems(book: str, cases: list[IndependentCase], order: list[RuleUnit], root: Path) -> list[str]:
    rows = selection_rows(root / book / "SELECTION.md")
    if not rows:
        return [f"{book}: SELECTION.md is missing or has no walk table"]
    out = []
    walked = [r.rule_id for r in order[:len(rows)]]
    if [(pos, rule) for pos, rule, _, _ in rows] != list(enumerate(walked, 1)):
        out.append(f"{book}: SELECTION.md does not follow the seeded order (see selection.py --book {book})")
    taken = {rule for _, rule, status, _ in rows if status == "taken"}
    used = {c.rule for c in cases}
    if taken != used:
        out.append(f"{book}: SELECTION.md takes {sorted(taken - used)} without files, "
                   f"the cases use {sorted(used - taken)} it does not take")
    out += [f"{book}: skipped rule {rule} has no reason" for _, rule, status, why in rows
            if status == "skipped" and not why]
    return out


def problems(book: str, rules: list[RuleUnit] | None = None, root: Path = HERE) -> list[str]:
    """Everything wrong with the independent files of `book` ([] when it passes)."""
    rules = book_rules(book) if rules is None else rules
    try:
        cases = load_cases(book, root)
    except CaseError as err:
        return [str(err)]
    known = {r.rule_id for r in rules}
    examples = [e for r in rules for e in r.bad_examples + r.good_examples]
    labels = Counter(c.label for c in cases)
    out = [f"{book}: {labels[label]} {label} files, fewer than {MIN_FILES}"
           for label in ("violating", "compliant") if labels[label] < MIN_FILES]
    out += [f"{c.path.name}: rule {c.rule!r} is not a rule of {book}" for c in cases if c.rule not in known]
    out += [f"{name}: listed {n} times" for name, n in Counter(c.path.name for c in cases).items() if n > 1]
    compliant = {c.rule for c in cases if not c.violating}
    out += [f"{book}: rule {rule} has no compliant file" for rule in sorted({c.rule for c in cases} - compliant)]
    for case in cases:
        out += file_problems(case, examples)
    return out + selection_problems(book, cases, walk_order(book, rules), root)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--books", default=",".join(BOOKS))
    args = ap.parse_args(argv)
    failed = False
    for book in args.books.split(","):
        found = problems(book)
        try:
            cases = load_cases(book)
        except CaseError:
            cases = []
        labels = Counter(c.label for c in cases)
        print(f"{book:12s} violating {labels['violating']:3d}  compliant {labels['compliant']:3d}  "
              f"rules {len({c.rule for c in cases}):3d}  problems {len(found)}")
        for line in found:
            print("   ", line)
        failed |= bool(found)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
