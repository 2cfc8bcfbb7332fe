"""Detectors fire on their rule's Bad examples, stay silent on the Good ones, and report only
changed lines with new-file line numbers."""

from __future__ import annotations

from pathlib import Path

import pytest

from dualrag.checks.detectors import detect_hunks, run_detectors
from dualrag.config import Settings
from dualrag.diff import ingest
from dualrag.diff.hunks import DiffLine, Hunk
from dualrag.rulebook import load_bundled

RULES = load_bundled()
DETECTED = [r for r in RULES if r.detect is not None]
BY_ID = {r.rule_id: r for r in RULES}
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "partner-order-mr" / "change.diff"


def _hunk(example: str) -> Hunk:
    """A fenced example as a hunk: a ```diff block keeps its prefixes, any other block is all added."""
    lines = example.splitlines()
    is_diff = lines[0].strip().lstrip("`~").strip() == "diff"
    body = lines[1:-1]
    out, old, new = [], 10, 10
    for text in body:
        kind, code = (text[:1] or " ", text[1:]) if is_diff else ("+", text)
        kind = kind if kind in "+-" else " "
        out.append(DiffLine(kind, old if kind != "+" else None, new if kind != "-" else None, code))
        old += kind != "+"
        new += kind != "-"
    return Hunk(10, old - 10, 10, new - 10, "", tuple(out))


def _run(rule, example):
    language = rule.detect.languages[0]
    return detect_hunks(f"x.{language}", language, [_hunk(example)], [rule])


@pytest.mark.parametrize("rule", DETECTED, ids=[r.rule_id for r in DETECTED])
def test_detector_fires_on_bad_and_is_silent_on_good(rule):
    for example in rule.bad_examples:
        assert _run(rule, example), f"{rule.rule_id} misses its Bad example:\n{example}"
    for example in rule.good_examples:
        assert not _run(rule, example), f"{rule.rule_id} fires on its Good example:\n{example}"


@pytest.fixture(scope="module")
def demo_findings():
    changes = ingest(EXAMPLE.read_bytes(), Settings())
    return run_detectors(changes, RULES)


def test_demo_merge_request_findings(demo_findings):
    got = {(f.path.rsplit("/", 1)[1], f.line, f.rule_id) for f in demo_findings}
    assert got == {
        ("globex-850-to-order.dt", 9, "EDI-CODE-001"),
        ("orders-in.flow", 10, "EDI-ACK-001"),
        ("PartnerOrderService.java", 25, "JAVA-PART-001"),
        ("PartnerOrderService.java", 35, "JAVA-MONEY-001"),
    }
    keys = [(f.path, f.line) for f in demo_findings]
    assert keys == sorted(keys)


def test_finding_fields(demo_findings):
    finding = next(f for f in demo_findings if f.rule_id == "JAVA-MONEY-001")
    rule = BY_ID["JAVA-MONEY-001"]
    assert finding.source == "detector"
    assert finding.severity == rule.severity.value == "critical"
    assert finding.title == rule.title
    assert finding.message == rule.detect.message
    assert finding.category == "money"
    ack = next(f for f in demo_findings if f.rule_id == "EDI-ACK-001")
    assert "removed line 10 of the old file" in ack.message


def test_skipped_files_are_not_scanned(demo_findings):
    assert not any("generated" in f.path or f.path.endswith(".json") for f in demo_findings)


def _diff(path: str, old: str, new: str) -> bytes:
    import difflib

    lines = difflib.unified_diff(old.splitlines(True), new.splitlines(True), f"a/{path}", f"b/{path}")
    return f"diff --git a/{path} b/{path}\n{''.join(lines)}".encode()


def test_only_changed_lines_with_new_line_numbers():
    old = "class A {\n  void f() {\n    e.printStackTrace();\n  }\n" + "  int x;\n" * 5 + "}\n"
    new = old.replace("  int x;\n", "  int x;\n  void g() { y.printStackTrace(); }\n", 1)
    changes = ingest(_diff("src/A.java", old, new), Settings())
    findings = run_detectors(changes, RULES)
    assert [(f.path, f.line, f.rule_id) for f in findings] == [("src/A.java", 6, "JAVA-EXC-002")]


def test_tree_sitter_ignores_context_lines():
    old = "void f() {\n  if (a)\n    b();\n  int z = 1;\n}\n"
    new = old.replace("int z = 1;", "int z = 2;")
    changes = ingest(_diff("src/B.java", old, new), Settings())
    assert run_detectors(changes, RULES) == []
    added = new.replace("int z = 2;", "if (c)\n    d();")
    changes = ingest(_diff("src/B.java", old, added), Settings())
    assert [(f.line, f.rule_id) for f in run_detectors(changes, RULES)] == [(5, "JAVA-STYLE-001")]


def test_removed_then_readded_element_is_silent():
    old = "<flow>\n  <acknowledgement type=\"997\" mode=\"always\"/>\n</flow>\n"
    new = old.replace("always", "onError")
    changes = ingest(_diff("p/in.flow", old, new), Settings())
    assert not [f for f in run_detectors(changes, RULES) if f.rule_id == "EDI-ACK-001"]


def test_rules_are_filtered_by_language():
    text = "request.setAddressCode(String.valueOf(address.getCode()));\n"
    changes = ingest(_diff("notes/readme.md", "", text), Settings())
    assert run_detectors(changes, RULES) == []
    changes = ingest(_diff("src/C.java", "", text), Settings())
    assert [f.rule_id for f in run_detectors(changes, RULES)] == ["JAVA-PART-001"]


def test_offline_review_blocks_on_critical_detector_findings(tmp_path, monkeypatch):
    """No model: nobody reviewed the logic, but deterministic critical findings still block."""
    from dualrag.pipeline import run_review

    monkeypatch.chdir(tmp_path)
    review = run_review(EXAMPLE.read_bytes(), Settings())
    assert any(f.severity == "critical" and f.source == "detector" for f in review.findings)
    assert review.decision == "significant_concerns"
    assert any("offline review" in note for note in review.notes)
    assert {f.rule_id for f in review.findings} >= {"EDI-CODE-001", "EDI-ACK-001", "JAVA-PART-001", "JAVA-MONEY-001"}
    assert "detect" in review.timings


FIXED = [r for r in DETECTED if r.detect.fix is not None]


@pytest.mark.parametrize("rule", FIXED, ids=[r.rule_id for r in FIXED])
def test_a_detector_fix_rewrites_the_line_it_flags_into_one_it_does_not(rule):
    rewritten = 0
    for example in rule.bad_examples:
        for f in _run(rule, example):
            if f.replacement is None:
                continue  # a shape the fix leaves to a person
            rewritten += 1
            assert f.suggestion is None
            assert not _run(rule, "```java\n" + f.replacement + "\n```"), f"{rule.rule_id}: {f.replacement}"
    assert rewritten, f"{rule.rule_id}'s fix rewrites none of its Bad examples"


GUARDED = ("class U {\n  static int len(String s) {\n    if (s == null) {\n      return 0;\n    }\n"
           "    int n = s.length();\n    return n;\n  }\n}\n")


def _flow(old: str, new: str) -> list[tuple[int, str]]:
    changes = ingest(_diff("src/U.java", old, new), Settings())
    return [(f.line, f.message) for f in run_detectors(changes, RULES) if f.rule_id == "JAVA-FLOW-001"]


def test_a_dropped_check_is_reported_once_at_its_place():
    found = _flow(GUARDED, GUARDED.replace("    if (s == null) {\n      return 0;\n    }\n", ""))
    assert [line for line, _ in found] == [3]  # the line that now stands where the check was
    assert "`if (s == null) {`" in found[0][1]


def test_a_tightened_or_rewritten_check_is_silent():
    assert _flow(GUARDED, GUARDED.replace("if (s == null)", "if (s == null || s.isEmpty())")) == []
    # a different condition in place of the old one: as many checks as before
    assert _flow(GUARDED, GUARDED.replace("if (s == null)", "if (s.isEmpty())")) == []


def test_a_loosened_check_counts_only_when_the_hunk_loses_checks():
    # one condition instead of two nested ones: the hunk removes more checks than it adds
    nested = GUARDED.replace("    if (s == null) {\n      return 0;\n    }\n",
                             "    if (s == null) {\n      return 0;\n    }\n    if (s.isEmpty()) {\n      return 0;\n    }\n")
    found = _flow(nested, GUARDED.replace("if (s == null)", "if (s == null && strict)"))
    assert len(found) == 1 and "removed line" in found[0][1]


def test_dropped_is_accepted_by_the_rule_format_for_regex_only(tmp_path):
    from dualrag.rulebook import RuleBookError, load_rule_file

    rule = ("---\nid: T-DROP-001\ntitle: t\nlevel: recommended\nseverity: major\nproject_types: [java]\n"
            "languages: [java]\ndetect:\n  kind: {kind}\n  on: dropped\n  pattern: '{pattern}'\n---\nText.\n\n"
            "### Bad\n```java\nx\n```\n\n### Good\n```java\ny\n```\n")
    path = tmp_path / "r.md"
    path.write_text(rule.format(kind="regex", pattern=r"^\s*if\b"))
    assert load_rule_file(path)[0].detect.on == "dropped"
    path.write_text(rule.format(kind="tree-sitter", pattern="(if_statement) @violation"))
    with pytest.raises(RuleBookError, match="added lines only"):
        load_rule_file(path)
