"""More than one form of the same mistake (issue 42, `indexers/mining/forms.py`): a rule whose
violating examples share nothing that names anything is mined over pairs of them, and the forms
that pass verification together make its detector, held as a whole to the rule's clean-corpus
bar; a review reports a line once whichever form fired. Real tree-sitter, a real corpus folder,
the real diff ingest and detector stage."""

from __future__ import annotations

from pathlib import Path

import pytest

from dualrag.checks.detectors import run_detectors
from dualrag.config import load_settings
from dualrag.diff import ingest
from dualrag.rulebook import detector_rows
from dualrag.units import Detector, RuleSource, RuleUnit
from indexers.mining import MiningOptions, load_corpus, mine_book

STOP = ("Do not stop the JVM with System.exit or Runtime.halt",
        ["System.exit(1);", "Runtime.getRuntime().halt(1);", "System.exit(2);", "Runtime.getRuntime().halt(3);"])
LOGGER = ("Log through the team's logger", ["System.out.println(a);\nout.print(b);"])
EXIT, HALT = "void f() { System.exit(0); }", "void f() { Runtime.getRuntime().halt(0); }"


def rule(rule_id: str, title: str, bad: list[str]) -> RuleUnit:
    return RuleUnit(rule_id=rule_id, title=title, text=title, bad_examples=bad, languages=["java"],
                    source=RuleSource(kb="team", file="book.md", page=1))


def book() -> list[RuleUnit]:
    return [rule("R-9", *STOP), rule("R-5", *LOGGER)]


def fires(det: Detector, code: str) -> bool:
    return bool(detector_rows(det, "java", code))


def test_examples_in_two_forms_make_a_detector_of_two_forms_where_one_pattern_finds_nothing():
    [alone, _], report = mine_book(book(), MiningOptions(min_bits=8.0, forms=""))
    assert alone.detect is None and "share nothing" in report.rules[0].note
    [unit, _], report = mine_book(book(), MiningOptions(min_bits=8.0))  # forms="pairs" by default
    det = unit.detect
    assert det is not None and report.rules[0].status == "kept" and report.rules[0].forms == len(det.also) == 1
    assert {f.mined.violating for f in det.forms} == {2}  # each verified on the pair it was mined from
    # code the book never showed, of either form; not the logger rule's code
    assert fires(det, EXIT) and fires(det, HALT) and not fires(det, "System.out.println(1);")
    first, second = det.model_copy(update={"also": []}), det.also[0]
    assert fires(first, EXIT) != fires(second, EXIT) and fires(first, HALT) != fires(second, HALT)  # one each


def test_the_forms_together_stay_within_the_rules_clean_corpus_bar(tmp_path: Path):
    body = "\n".join(f"    int f{i}() {{ return {i}; }}" for i in range(9996))
    (tmp_path / "Clean.java").write_text(
        f"class Clean {{\n{body}\n    void a() {{ System.exit(0); }}\n    void b() {{ Runtime.getRuntime().halt(0); }}\n}}\n")
    corpus = load_corpus(tmp_path, "java")
    assert corpus.lines >= 10_000
    [unit, _], report = mine_book(book(), MiningOptions(corpus=corpus, min_bits=8.0, max_hits_per_10k=1.0))
    det = unit.detect
    # each form alone fires once in the corpus (its bar); both together would fire twice
    assert det is not None and det.also == [] and report.rules[0].forms == 0
    assert fires(det, EXIT) != fires(det, HALT)
    [unit, _], _ = mine_book(book(), MiningOptions(corpus=corpus, min_bits=8.0, max_hits_per_10k=2.0))
    assert len(unit.detect.forms) == 2


def test_a_review_reports_a_line_once_whichever_form_fired():
    call = Detector(kind="tree-sitter", pattern='((method_invocation name: (identifier) @n) @violation (#eq? @n "exit"))',
                    languages=["java"])
    word = Detector(kind="regex", pattern=r"System\.exit", languages=["java"])
    two = rule("R-9", *STOP).model_copy(update={"detect": call.model_copy(update={"also": [word]})})
    diff = (b"diff --git a/src/A.java b/src/A.java\nindex 1..2 100644\n--- a/src/A.java\n+++ b/src/A.java\n"
            b"@@ -1,2 +1,4 @@\n class A {\n+  void f() { System.exit(1); }\n+  void g() { System.exit(2); }\n }\n")
    found = run_detectors(ingest(diff, load_settings(None)), [two])
    assert sorted(f.line for f in found) == [2, 3] and {f.rule_id for f in found} == {"R-9"}
    only_regex = rule("R-9", *STOP).model_copy(update={"detect": word})
    assert len(run_detectors(ingest(diff, load_settings(None)), [only_regex])) == 2


def test_rules_inspect_shows_each_form_and_the_summary_counts_them(tmp_path: Path, capsys, monkeypatch):
    from dualrag.cli import main

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))  # no corpus build of this machine
    blocks = "".join(f"Bad:\n\n```java\n{code}\n```\n\n" for code in STOP[1])
    doc = tmp_path / "rules.md"
    doc.write_text(f"# Service rules\n\n## 1 {STOP[0]}\n\nThe container decides.\n\n{blocks}"
                   f"## 2 {LOGGER[0]}\n\nBad:\n\n```java\nSystem.out.println(a);\n```\n")
    with pytest.raises(SystemExit) as exc:
        main(["rules", "inspect", str(doc)])
    out = capsys.readouterr().out
    assert exc.value.code == 0
    assert out.count("another form, mined") == 1 and "1 in more than one form" in out
    assert "verified: fires on its 2 violating example(s)" in out
