#!/usr/bin/env python3
"""Which rules of a book get independent files: the book's rules that have violating example code,
shuffled with one fixed seed, walked in that order (see README.md beside this file).

    .venv/bin/python -m evaluation.mining.independent.selection --book dev     # the order to walk

A rule of `pmd`, `errorprone` or `androidlint` always has violating code (every example is a Java
block). The dev guideline's 反例 blocks are often prose, an anecdote that at most names an API;
such a rule counts as having code when some run of text between two Chinese characters holds a
code token: `;`, `{`, `}`, `=`, a call `name(`, `[]`, or a list of names separated by ` / `.
"""

from __future__ import annotations

import argparse
import random
import re
import sys

from dualrag.units import RuleUnit

SEED = 20261204
PROSE_EXAMPLES = {"dev"}  # books whose violating examples may be prose rather than code
_CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef\u201c\u201d]+")
_CODE_TOKEN = re.compile(r"[;{}=]|\w\s*\(|\[\]|\S\s/\s\S")


def holds_code(example: str) -> bool:
    return any(_CODE_TOKEN.search(run) for line in example.splitlines() for run in _CJK.split(line))


def book_rules(book: str) -> list[RuleUnit]:
    """Every rule of `book` in document order, as the mining harness reads it."""
    from evaluation.mining.books import book_units  # the harness's own reading of the book

    return book_units(book)


def walk_order(book: str, rules: list[RuleUnit] | None = None) -> list[RuleUnit]:
    """The rules with violating example code, in the seeded order the selection walks them."""
    rules = book_rules(book) if rules is None else rules
    prose = book in PROSE_EXAMPLES
    order = [r for r in rules if any(holds_code(e) if prose else e.strip() for e in r.bad_examples)]
    random.Random(SEED).shuffle(order)
    return order


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--book", required=True)
    args = ap.parse_args(argv)
    for i, rule in enumerate(walk_order(args.book), 1):
        print(f"{i:3d}  {rule.rule_id}  {rule.title[:90]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
