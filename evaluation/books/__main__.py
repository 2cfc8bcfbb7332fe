"""Render the rule books as documents, or check how they segment.

    .venv/bin/python -m evaluation.books render --out DIR [--books pmd,...] [--structures docx,md,pdf] [--examples]
    .venv/bin/python -m evaluation.books check [--books ...] [--structures ...] [--out DIR] [--show N] [--json OUT]

`render` writes each book as Word, Markdown and PDF (evaluation/books/render.py): the rule prose
only, or with `--examples` the examples edition. `check` renders and segments every document with
`indexers.rules.segment` and prints, per book and structure, rules, units, and the share of rules
found in exactly one unit that holds no other rule's anchor (evaluation/books/anchors.py).
A book is rebuilt from its source with `python -m evaluation.books.<book>.build PATH`.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from evaluation.books.anchors import segmentation
from evaluation.books.library import ALL_BOOKS, BOOKS, STRUCTURES
from evaluation.books.render import render


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evaluation.books", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("render", "check"):
        p = sub.add_parser(name)
        p.add_argument("--books", default=",".join(BOOKS), help=f"comma-separated, of {', '.join(ALL_BOOKS)}")
        p.add_argument("--structures", default=",".join(STRUCTURES))
        p.add_argument("--out", type=Path, required=name == "render")
        if name == "render":
            p.add_argument("--examples", action="store_true", help="the examples edition")
        else:
            p.add_argument("--show", type=int, default=0, help="print the first N units and failures")
            p.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    books = [b.strip() for b in args.books.split(",") if b.strip()]
    structures = [s.strip() for s in args.structures.split(",") if s.strip()]
    unknown = [b for b in books if b not in ALL_BOOKS] + [s for s in structures if s not in STRUCTURES]
    if unknown:
        parser.error(f"unknown book or structure: {', '.join(unknown)}")

    if args.command == "render":
        for book in books:
            for structure in structures:
                print(render(book, structure, args.out, examples=args.examples))
        return 0
    results: dict[str, dict] = {}
    with tempfile.TemporaryDirectory(prefix="dualrag-rule-books-") as tmp:
        out = args.out or Path(tmp)
        print(f"{'book':12}{'structure':>10}{'rules':>8}{'units':>8}{'unit/rule':>11}{'anchor!=1':>11}")
        for book in books:
            for structure in structures:
                f = segmentation(book, structure, render(book, structure, out), args.show)
                results[f"{book}/{structure}"] = f
                print(f"{book:12}{structure:>10}{f['rules']:8d}{f['units']:8d}{f['unit_per_rule']:11.3f}"
                      f"{f['anchors_not_once_in_text']:11d}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
