"""The command line every book's builder shares (`python -m evaluation.books.<book>.build PATH`): read
a snapshot, write rules.jsonl and SOURCE.md, print the counts; a path that is not a snapshot of the
book's repository is one clear error (exit 2). Building is deterministic: same snapshot, same bytes."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from evaluation.books.library import MAX_RULES, REPOS, SAMPLE_SEED, sample, write_book
from evaluation.books.snapshot import Snapshot
from evaluation.books.source_md import write_source_md

Build = Callable[[Snapshot], tuple[list[dict], dict]]


def run(argv: list[str], book: str, language: str, build: Build, notes: dict[str, str], *,
        sampled: bool = False) -> int:
    """Build `book` from the snapshot named in `argv`; 0 when written, 2 on bad input. `sampled`: keep
    at most MAX_RULES rules, whole categories drawn with a seed (the larger Java books); otherwise
    the builder drops the rules with a single violating example itself (`dropped_1_violating`)."""
    repo = REPOS[book]
    usage = f"usage: python -m evaluation.books.{book}.build PATH  (a bare git dir or checkout of {repo})"
    if argv in (["-h"], ["--help"]):
        print(f"{usage}\n\nBuild the {book!r} rule book's rules.jsonl and SOURCE.md from a snapshot of {repo}.")
        return 0
    if len(argv) != 1 or not Path(argv[0]).is_dir():
        print(usage, file=sys.stderr)
        return 2
    snapshot = Snapshot(Path(argv[0]))
    try:
        rules, stats = build(snapshot)
    except (subprocess.CalledProcessError, FileNotFoundError, KeyError) as error:
        print(f"error: {argv[0]} is not a readable snapshot of {repo} ({type(error).__name__})", file=sys.stderr)
        return 2
    if sampled:
        total, rules = len(rules), sample(rules)
        fewer = f"whole categories sampled with seed {SAMPLE_SEED} up to {MAX_RULES}"
    else:
        total, fewer = len(rules) + stats.get("dropped_1_violating", 0), "rules with one violating example dropped"
    write_book(book, rules)
    write_source_md(book, snapshot, rules, stats, total, notes=notes, language=language.capitalize(), fewer=fewer)
    print(f"{book}: {len(rules)} rules (of {total}), {sum(len(r['violating']) for r in rules)} violating / "
          f"{sum(len(r['compliant']) for r in rules)} compliant examples; commit {snapshot.commit}; {stats}")
    return 0
