"""The rule books' files: one folder per book under evaluation/books/ (rules.jsonl, SOURCE.md and the
book's builder, `<book>/build.py`), read and written here.

A rule (one line of rules.jsonl): id, title, prose (the explanation with every code block removed),
level, category, violating and compliant (lists of examples), source (its path in the repository
it was built from), and for the newer books the language of its examples.
"""

from __future__ import annotations

import json
from pathlib import Path

from evaluation.core.datasets import rows
from evaluation.core.heldout import seeded

BOOK_DIR = Path(__file__).resolve().parent
BOOKS = ("pmd", "errorprone", "androidlint")  # the Java books every retrieval harness reads by default
ALL_BOOKS = (*BOOKS, "codeql", "ruff")
STRUCTURES = {"docx": "docx", "md": "md", "pdf": "pdf"}  # structure -> file extension
TITLES = {
    "pmd": "PMD Java Rules",
    "errorprone": "Error Prone Bug Patterns",
    "androidlint": "Android Lint Checks (Java)",
    "codeql": "CodeQL Java Queries",
    "ruff": "Ruff Python Rules",
}
REPOS = {"pmd": "pmd/pmd", "errorprone": "google/error-prone",
         "androidlint": "googlesamples/android-custom-lint-rules", "codeql": "github/codeql", "ruff": "astral-sh/ruff"}
MAX_RULES = 300
SAMPLE_SEED = 24


def sample(rules: list[dict], limit: int = MAX_RULES, seed: int = SAMPLE_SEED) -> list[dict]:
    """At most `limit` rules: whole categories drawn in a seeded order until the next would pass
    the limit (a category is never split), then the rules in source order."""
    if len(rules) <= limit:
        return rules
    by_category: dict[str, list[dict]] = {}
    for rule in rules:
        by_category.setdefault(rule["category"], []).append(rule)
    order = seeded(sorted(by_category), None, seed)
    kept: set[str] = set()
    total = 0
    for category in order:
        if total + len(by_category[category]) <= limit:
            kept.add(category)
            total += len(by_category[category])
    return [r for r in rules if r["category"] in kept]


def book_path(book: str) -> Path:
    return BOOK_DIR / book / "rules.jsonl"


def load_book(name: str) -> list[dict]:
    """The rules of book `name` (one of ALL_BOOKS) in document order, as stored in rules.jsonl."""
    path = book_path(name)
    if not path.is_file():
        raise FileNotFoundError(f"no rule book {name!r} at {path}; choose from {', '.join(ALL_BOOKS)}")
    return rows(path)


def write_book(book: str, rules: list[dict]) -> None:
    path = book_path(book)
    path.parent.mkdir(parents=True, exist_ok=True)
    rules = sorted(rules, key=lambda r: (r["category"], r["id"]))
    with path.open("w", encoding="utf-8", newline="\n") as out:
        for rule in rules:
            out.write(json.dumps(rule, ensure_ascii=False, sort_keys=False) + "\n")

