"""The command line the newer book builders share: read a snapshot, write rules.jsonl and
SOURCE.md, print the counts; a path that is not a snapshot of the repository is one clear error."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from scripts.tools.build_rule_books import Snapshot, write_book, write_source_md


def run(argv: list[str], book: str, repo: str, language: str,
        build: Callable[[Snapshot], tuple[list[dict], dict]], notes: dict[str, str]) -> int:
    """`python -m scripts.tools.rule_books.<book>.build PATH`; 0 when written, 2 on bad input."""
    usage = f"usage: python -m scripts.tools.rule_books.{book}.build PATH  (a bare git dir or checkout of {repo})"
    if len(argv) != 1 or not Path(argv[0]).is_dir():
        print(usage, file=sys.stderr)
        return 2
    snapshot = Snapshot(Path(argv[0]))
    try:
        rules, stats = build(snapshot)
    except (subprocess.CalledProcessError, FileNotFoundError, KeyError) as error:
        print(f"error: {argv[0]} is not a readable snapshot of {repo} ({type(error).__name__})", file=sys.stderr)
        return 2
    write_book(book, rules)
    write_source_md(book, snapshot, rules, stats, len(rules) + stats.get("dropped_1_violating", 0), notes=notes,
                    language=language.capitalize(), fewer="rules with one violating example dropped",
                    rebuild=f"    .venv/bin/python -m scripts.tools.rule_books.{book}.build PATH   # bare git dir or checkout")
    print(f"{book}: {len(rules)} rules, {sum(len(r['violating']) for r in rules)} violating / "
          f"{sum(len(r['compliant']) for r in rules)} compliant examples; commit {snapshot.commit}; {stats}")
    return 0
