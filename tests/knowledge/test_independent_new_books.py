"""The independent files of the `codeql` and `ruff` books (evaluation/mining/independent/<book>/): code the
books never showed. Every case names a rule of its book and a file that parses, labelled lines lie
in the file, no file copies an example of its book, and the rules are the seeded prefix SELECTION.md
records."""

from __future__ import annotations

import json
import random
import re

import pytest

from dualrag import languages
from evaluation.books import load_book
from evaluation.mining.independent import HERE as INDEPENDENT

BOOKS = {"codeql": "java", "ruff": "python"}
KEYS = {"file", "rule", "label", "lines", "language", "note"}
SEED = 20261204
SHARED_RUN = 3  # this many consecutive substantial lines in common with a book example count as a copy


def cases(book: str) -> list[dict]:
    return [json.loads(line) for line in (INDEPENDENT / book / "cases.jsonl").read_text(encoding="utf-8").splitlines()]


_BOILERPLATE = re.compile(r"^(import|from \S+ import|package)\b")


def substantial(text: str) -> list[str]:
    """Lines that say something (not imports, braces, blank lines or lone keywords), whitespace-collapsed."""
    lines = (" ".join(line.split()) for line in text.splitlines())
    return [line for line in lines if len(re.sub(r"[\s{}();]", "", line)) >= 12 and not _BOILERPLATE.match(line)]


def runs(lines: list[str], k: int = SHARED_RUN) -> set[tuple[str, ...]]:
    return {tuple(lines[i:i + k]) for i in range(len(lines) - k + 1)}


@pytest.mark.parametrize(("book", "language"), BOOKS.items())
def test_cases_name_rules_of_the_book_and_files_that_parse(book, language):
    rows = cases(book)
    ids = {rule["id"] for rule in load_book(book)}
    parser = languages.parser(language)
    assert sum(r["label"] == "violating" for r in rows) >= 40
    assert sum(r["label"] == "compliant" for r in rows) >= 40
    assert len({r["file"] for r in rows}) == len(rows)
    listed = {str(p.relative_to(INDEPENDENT / book)) for p in (INDEPENDENT / book / "files").iterdir()}
    assert listed == {r["file"] for r in rows}
    for row in rows:
        assert set(row) == KEYS and row["language"] == language and row["rule"] in ids, row
        assert row["note"].strip() and row["label"] in ("violating", "compliant")
        text = (INDEPENDENT / book / row["file"]).read_text(encoding="utf-8")
        count = len(text.splitlines())
        assert 20 <= count <= 80, (row["file"], count)
        assert not parser.parse(text.encode("utf-8")).root_node.has_error, row["file"]
        if row["label"] == "violating":
            assert row["lines"] and all(1 <= n <= count for n in row["lines"]), row
        else:
            assert row["lines"] == [], row


@pytest.mark.parametrize("book", BOOKS)
def test_no_file_copies_an_example_of_its_book(book):
    examples = [code for rule in load_book(book) for code in rule["violating"] + rule["compliant"]]
    example_runs = set().union(*(runs(substantial(code)) for code in examples))
    whole = [" ".join(code.split()) for code in examples if len(" ".join(code.split())) >= 15]
    for row in cases(book):
        text = (INDEPENDENT / book / row["file"]).read_text(encoding="utf-8")
        flat = " ".join(text.split())
        assert not runs(substantial(text)) & example_runs, row["file"]
        assert not [code for code in whole if code in flat], row["file"]


@pytest.mark.parametrize("book", BOOKS)
def test_rules_are_the_seeded_prefix_recorded_in_selection(book):
    order = sorted(rule["id"] for rule in load_book(book))
    random.Random(SEED).shuffle(order)
    taken = {row["rule"] for row in cases(book)}
    prefix = order[: max(order.index(rule) for rule in taken) + 1]
    selection = (INDEPENDENT / book / "SELECTION.md").read_text(encoding="utf-8")
    assert f"random.Random({SEED})" in selection
    for position, rule in enumerate(prefix):
        verdict = "yes" if rule in taken else "no"
        assert f"| {position} | `{rule}` |" in selection and re.search(
            rf"\| {position} \| `{re.escape(rule)}` \| [^|]*\| {verdict} \|", selection), rule
    for rule in taken:  # one violating and one compliant file per taken rule
        labels = sorted(row["label"] for row in cases(book) if row["rule"] == rule)
        assert labels == ["compliant", "violating"], rule
