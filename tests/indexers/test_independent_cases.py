"""The independent evaluation files of issue 42 (evaluation/mining/independent) stay usable: per book at
least 40 violating and 40 compliant files that parse cleanly, name rules of their book, label real
lines, copy no example of the book, and follow the seeded rule selection. And the checker itself
notices each kind of damage."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dualrag.units import RuleSource, RuleUnit
from evaluation.core.datasets import GUIDELINE as DEV_PDF
from evaluation.mining.independent import BOOKS, CaseError, load_cases
from evaluation.mining.independent.check import MIN_FILES, problems


@pytest.mark.parametrize("book", BOOKS)
def test_every_book_passes_the_checks(book):
    if book == "dev" and not DEV_PDF.is_file():
        pytest.skip(f"the dev guideline is not beside the checkout ({DEV_PDF})")
    assert problems(book) == []


@pytest.mark.parametrize("book", BOOKS)
def test_cases_load_typed_with_lines_only_on_violating_files(book):
    cases = load_cases(book)
    violating = [c for c in cases if c.violating]
    assert len(violating) >= MIN_FILES and len(cases) - len(violating) >= MIN_FILES
    assert all(c.lines and c.text.strip() and c.language == "java" for c in violating)
    assert all(not c.lines for c in cases if not c.violating)


RULES = [RuleUnit(rule_id=f"R{i}", title=f"rule {i}", text="no exit", bad_examples=[f"System.exit({i});"],
                  source=RuleSource(kb="eval", file="tiny")) for i in range(3)]
GOOD = "class Ok {\n    void run() {\n        int count = 1;\n    }\n}\n"


def write_book(root: Path, files: dict[str, str], rows: list[dict], walk: list[tuple[str, str, str]]) -> None:
    book = root / "tiny"
    (book / "files").mkdir(parents=True)
    for name, text in files.items():
        (book / "files" / name).write_text(text, encoding="utf-8")
    (book / "cases.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    table = "".join(f"| {i} | `{rule}` | {status} | {why} |\n" for i, (rule, status, why) in enumerate(walk, 1))
    (book / "SELECTION.md").write_text("# tiny\n\n| # | rule | status | why |\n|---|---|---|---|\n" + table)


def row(name: str, rule: str, label: str, lines: list[int]) -> dict:
    return {"file": f"files/{name}", "rule": rule, "label": label, "lines": lines, "language": "java", "note": "n"}


def test_the_checker_names_each_kind_of_damage(tmp_path):
    from evaluation.mining.independent.selection import walk_order

    first = walk_order("tiny", RULES)[0].rule_id
    files = {"v1.java": "class Broken {\n    void run( {\n    }\n}\n",   # does not parse
             "v2.java": GOOD + "\n",                                   # line 6 is blank
             "v3.java": "class Copy {\n    void run() {\n        System.exit(1);\n    }\n}\n",
             "c1.java": GOOD}
    rows = [row("v1.java", first, "violating", [2]), row("v2.java", first, "violating", [6]),
            row("v3.java", "R9", "violating", [3]), row("c1.java", first, "compliant", [])]
    write_book(tmp_path, files, rows, [(first, "taken", "v1")])
    found = "\n".join(problems("tiny", RULES, tmp_path))
    assert "v1.java: does not parse as java: MISSING ) at line 2" in found
    assert "v2.java: labelled line 6 is out of range or blank" in found
    assert "v3.java: rule 'R9' is not a rule of tiny" in found
    assert "v3.java: holds an example of the book" in found
    assert "R9" in found and "takes" in found  # the selection does not take the rule v3 uses
    assert f"3 violating files, fewer than {MIN_FILES}" in found
    assert "c1.java" not in found


def test_the_checker_wants_the_seeded_order_and_a_reason_for_each_skip(tmp_path):
    from evaluation.mining.independent.selection import walk_order

    order = [r.rule_id for r in walk_order("tiny", RULES)]
    rows = [row("v1.java", order[1], "violating", [3]), row("c1.java", order[1], "compliant", [])]
    files = {"v1.java": GOOD, "c1.java": GOOD}
    write_book(tmp_path / "seeded", files, rows, [(order[0], "skipped", ""), (order[1], "taken", "v1")])
    assert f"tiny: skipped rule {order[0]} has no reason" in problems("tiny", RULES, tmp_path / "seeded")
    write_book(tmp_path / "swapped", files, rows, [(order[1], "taken", "v1"), (order[0], "skipped", "XML only")])
    assert any("seeded order" in p for p in problems("tiny", RULES, tmp_path / "swapped"))


@pytest.mark.parametrize(("change", "message"), [
    ({"label": "compliant"}, "a violating file needs its lines, a compliant file has none"),
    ({"lines": []}, "a violating file needs its lines"),
    ({"label": "bad"}, "label 'bad' is not one of"),
    ({"file": "files/gone.java"}, "files/gone.java does not exist"),
    ({"extra": 1}, "fields must be"),
])
def test_a_malformed_row_is_refused_with_its_place(tmp_path, change, message):
    write_book(tmp_path, {"v1.java": GOOD}, [{**row("v1.java", "R0", "violating", [3]), **change}], [])
    with pytest.raises(CaseError, match=message) as err:
        load_cases("tiny", tmp_path)
    assert "cases.jsonl:1" in str(err.value)
