"""The own rule-evaluation set (evaluation/retrieval/rule_eval_set, make_rule_eval_set.py) cannot rot:
every rule keeps enough cases, cases stay our own code, and every anchor survives all three
renderings exactly once. No store or embedder is needed."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from evaluation.retrieval.make_rule_eval_set import (
    DOCUMENTS,
    all_rules,
    anchor_of,
    generate,
    rendered_text,
    section_numbers,
    squash,
)
from evaluation.retrieval.rule_eval_set import CASES as CASES_FILE

CASES = [json.loads(line) for line in CASES_FILE.read_text("utf-8").splitlines() if line.strip()]
RULES = all_rules()


@pytest.fixture(scope="module")
def rendered(tmp_path_factory) -> tuple[Path, dict]:
    out = tmp_path_factory.mktemp("rule-eval-set")
    return out, generate(out)


def test_rule_set_shape():
    assert len(RULES) >= 36
    assert len({r.code for r in RULES}) == len(RULES)
    assert {r.level for r in RULES} == {"MUST", "SHOULD"}
    assert sum(1 for r in RULES if r.bad and r.good) > len(RULES) // 2  # most rules have examples
    assert any(r.bad is None and r.good is None for r in RULES)  # some are prose only
    for rule in RULES:
        sentences = len(re.findall(r"[.!?](?:\s+(?=[A-Za-z])|$)", rule.prose))
        assert 2 <= sentences <= 5, rule.code


def test_a_style_chapter_of_rules_that_name_no_api():
    """Naming, doc comments, braces, literals and comments: rules only construct names can reach."""
    from evaluation.retrieval.rule_eval_set import STYLE

    assert len(STYLE.rules) >= 8
    violations = Counter(c["rule"] for c in CASES if c["label"] == "violation")
    assert all(violations[r.code] >= 2 for r in STYLE.rules)
    assert sum(1 for c in CASES if c["label"] == "clean" and c["rule"].startswith("STY-")) >= 4


def test_cases_cover_every_rule_with_our_own_code():
    assert len({c["id"] for c in CASES}) == len(CASES)
    assert {c["label"] for c in CASES} == {"violation", "clean"}
    codes = {r.code for r in RULES}
    assert {c["rule"] for c in CASES} <= codes
    violations = Counter(c["rule"] for c in CASES if c["label"] == "violation")
    assert all(violations[code] >= 2 for code in codes), sorted(code for code in codes if violations[code] < 2)
    assert sum(violations.values()) >= 72
    assert 15 <= sum(1 for c in CASES if c["label"] == "clean") <= 30
    examples = [squash(code) for r in RULES for code in (r.bad, r.good) if code]
    for case in CASES:
        assert 5 <= len(case["code"].splitlines()) <= 30, case["id"]
        assert not any(example in squash(case["code"]) for example in examples), case["id"]
        assert case["rule"] not in case["code"], case["id"]  # no comment names the rule


def test_anchors_are_unique_and_in_every_rendering(rendered):
    out, manifest = rendered
    anchors = [r["anchor"] for r in manifest["rules"]]
    assert anchors == [anchor_of(r) for r in RULES]
    assert len(set(anchors)) == len(anchors)
    assert all(25 <= len(a) <= 40 and not re.search(r"\s", a) for a in anchors)
    for structure, name in DOCUMENTS.items():
        text = squash(rendered_text(structure, out / name))
        counts = {a: text.count(a) for a in anchors}
        assert all(n == 1 for n in counts.values()), (structure, {a: n for a, n in counts.items() if n != 1})


def test_renderings_carry_the_expected_ids(rendered):
    out, manifest = rendered
    numbers = section_numbers()
    docx_text = rendered_text("docx", out / DOCUMENTS["docx"])
    md_text = rendered_text("md", out / DOCUMENTS["md"])
    pdf_text = rendered_text("pdf", out / DOCUMENTS["pdf"])
    for rule, entry in zip(RULES, manifest["rules"], strict=True):
        assert entry["ids"] == {"docx": rule.code, "md": numbers[rule.code], "pdf": rule.code}
        assert f"{rule.code}. {rule.title}" in docx_text
        assert f"### {numbers[rule.code]} {rule.title}\n" in md_text
        assert rule.code not in md_text  # the Markdown's only id is its section number
        assert f"{rule.code}  {rule.title}" in pdf_text or f"{rule.code} {rule.title}" in pdf_text


def test_pdf_has_running_furniture_and_rules_over_page_breaks(rendered):
    out, manifest = rendered
    import pypdf

    pages = [p.extract_text() for p in pypdf.PdfReader(str(out / DOCUMENTS["pdf"])).pages]
    assert len(pages) >= 3
    assert all("ACME Java Review Rules" in text and f"Page {n}" in text for n, text in enumerate(pages, 1))
    assert sum(1 for r in manifest["rules"] if r["pdf_pages"][0] != r["pdf_pages"][1]) >= 2
