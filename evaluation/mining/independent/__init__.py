"""Independent evaluation files of issue 42: code no rule document showed, written by hand for the
rules of a book, to measure mined detectors on code they were not mined from (README.md here).

    from evaluation.mining.independent import load_cases
    for case in load_cases("pmd"):
        case.text, case.rule, case.label, case.lines, case.language

Never mine from these files and never choose anything on them: they are scored, nothing else.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

HERE = Path(__file__).resolve().parent
BOOKS = ("dev", "pmd", "errorprone", "androidlint")
LABELS = ("violating", "compliant")
FIELDS = {"file", "rule", "label", "lines", "language", "note"}

Label = Literal["violating", "compliant"]


class CaseError(ValueError):
    """A row of a book's cases.jsonl that cannot be used as it stands."""


@dataclass(frozen=True)
class IndependentCase:
    book: str
    path: Path
    text: str
    rule: str
    label: Label
    lines: tuple[int, ...]  # 1-based lines where the rule is broken; () for a compliant file
    language: str
    note: str

    @property
    def violating(self) -> bool:
        return self.label == "violating"


def cases_path(book: str, root: Path = HERE) -> Path:
    return root / book / "cases.jsonl"


def load_cases(book: str, root: Path = HERE) -> list[IndependentCase]:
    """The cases of `book` in file order; CaseError names the row of the first malformed one."""
    path = cases_path(book, root)
    if not path.is_file():
        raise CaseError(f"no independent cases for book {book!r}: {path} is missing")
    cases = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            cases.append(_case(book, path.parent, json.loads(line), f"{path}:{number}"))
    return cases


def _case(book: str, folder: Path, row: dict, where: str) -> IndependentCase:
    if set(row) != FIELDS:
        raise CaseError(f"{where}: fields must be {sorted(FIELDS)}, got {sorted(row)}")
    if row["label"] not in LABELS:
        raise CaseError(f"{where}: label {row['label']!r} is not one of {LABELS}")
    lines = row["lines"]
    if not isinstance(lines, list) or not all(isinstance(n, int) and not isinstance(n, bool) for n in lines):
        raise CaseError(f"{where}: lines must be a list of integers")
    if (row["label"] == "violating") != bool(lines):
        raise CaseError(f"{where}: a violating file needs its lines, a compliant file has none")
    file = folder / row["file"]
    if not file.is_file():
        raise CaseError(f"{where}: {row['file']} does not exist")
    return IndependentCase(book=book, path=file, text=file.read_text(encoding="utf-8"), rule=row["rule"],
                           label=row["label"], lines=tuple(lines), language=row["language"], note=row["note"])
