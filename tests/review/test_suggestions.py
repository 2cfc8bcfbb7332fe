"""One-click suggestions: a replacement is kept only when it applies to the diff (lines shown,
a real change, Java/XML still parses); detectors rewrite the flagged line or offer nothing."""

from __future__ import annotations

import pytest

from dualrag.checks.detectors import run_detectors
from dualrag.config import load_settings
from dualrag.diff import ingest
from dualrag.findings import Finding
from dualrag.review.coordinator import TaggedFinding, coordinate
from dualrag.review.decision import Coverage
from dualrag.review.prompt import ReviewAnswer
from dualrag.review.suggestions import check_suggestions
from dualrag.rulebook import load_bundled

OK = Coverage(llm_configured=True, llm_ran=True, complete=True)
JAVA = (b"diff --git a/src/Ship.java b/src/Ship.java\nindex 1..2 100644\n--- a/src/Ship.java\n+++ b/src/Ship.java\n"
        b"@@ -1,5 +1,8 @@\n class Ship {\n   int rank(String type) {\n-    return 0;\n"
        b"+    if (type.equals(\"EXPRESS\")) {\n+      return 1;\n+    }\n+    return 0;\n   }\n }\n")
XML = (b"diff --git a/conf/a.xml b/conf/a.xml\nindex 1..2 100644\n--- a/conf/a.xml\n+++ b/conf/a.xml\n"
       b"@@ -1,3 +1,3 @@\n <root>\n-  <a x=\"1\"/>\n+  <a x=\"2\"/>\n </root>\n")


@pytest.fixture(scope="module")
def settings():
    return load_settings(None)


def finding(line, replacement, *, end=None, path="src/Ship.java", suggestion=None) -> Finding:
    return Finding(path=path, line=line, end_line=end, severity="minor", category="correctness", title="t",
                   message="m", suggestion=suggestion, replacement=replacement, source="llm")


def test_a_replacement_that_applies_is_kept_and_reindented(settings):
    changes = ingest(JAVA, settings)
    out, demoted = check_suggestions([finding(3, 'if ("EXPRESS".equals(type)) {')], changes)
    assert not demoted
    assert out[0].replacement == '    if ("EXPRESS".equals(type)) {'  # the target's indentation
    multi = finding(3, 'if ("EXPRESS".equals(type)) {\n  return 1;\n}', end=5)
    (kept,), _ = check_suggestions([multi], changes)
    assert kept.replacement.split("\n") == ['    if ("EXPRESS".equals(type)) {', "      return 1;", "    }"]


@pytest.mark.parametrize("bad, why", [
    (finding(40, "return 2;"), "target lines not in the diff"),
    (finding(6, "    return 0;"), "no change"),  # line 6 is `    return 0;` already
    (finding(3, "if (type.equals(\"EXPRESS\")) { ... }"), "elided code"),
    (finding(3, 'if ("EXPRESS".equals(type) {'), "does not parse"),  # unbalanced parenthesis
    (finding(3, "if (x) {", end=40), "target lines not in the diff"),
])
def test_a_replacement_that_does_not_apply_stays_prose(settings, bad, why):
    (out,), demoted = check_suggestions([bad], ingest(JAVA, settings))
    assert demoted == {why: 1}
    assert out.replacement is None and out.suggestion == bad.replacement  # the proposal is still shown


def test_a_prose_suggestion_is_not_overwritten_when_the_replacement_fails(settings):
    (out,), _ = check_suggestions([finding(40, "x();", suggestion="Use a vault.")], ingest(JAVA, settings))
    assert out.suggestion == "Use a vault." and out.replacement is None


def test_xml_must_still_parse_and_the_whole_file_is_used_when_at_hand(settings):
    changes = ingest(XML, settings)
    good = finding(2, '<a x="3"/>', path="conf/a.xml")
    broken = finding(2, '<a x="3">', path="conf/a.xml")  # never closed
    out, demoted = check_suggestions([good, broken], changes)
    assert out[0].replacement == '  <a x="3"/>' and demoted == {"does not parse": 1}
    reads = []
    whole = b'<root>\n  <a x="2"/>\n</root>\n'
    check_suggestions([good], changes, read_file=lambda p: reads.append(p) or whole)
    assert reads == ["conf/a.xml"]


def test_the_coordinator_keeps_replacements_only_on_the_lines_the_model_named(settings):
    changes = ingest(JAVA, settings)
    answer = ReviewAnswer.model_validate({"findings": [
        {"path": "src/Ship.java", "line": 3, "severity": "warning", "title": "NPE", "message": "type may be null",
         "replacement": 'if ("EXPRESS".equals(type)) {'},
        {"path": "src/Ship.java", "line": 1, "severity": "warning", "category": "performance", "title": "moved",
         "replacement": "class Ship2 {"},  # line 1 is context, snapped onto 3: the replacement no longer fits
        {"path": "src/Ship.java", "line": 4, "severity": "warning", "category": "security", "title": "blank",
         "replacement": "  "},
    ]})
    out = coordinate(changes, [TaggedFinding(f, "quality", "c1") for f in answer.findings], coverage=OK)
    by_title = {f.title: f for f in out.findings}
    assert by_title["NPE"].replacement == '    if ("EXPRESS".equals(type)) {'
    assert by_title["moved"].replacement is None
    assert by_title["blank"].replacement is None


def test_detectors_rewrite_the_flagged_line_or_offer_no_suggestion(settings):
    changes = ingest(JAVA, settings)
    found = run_detectors(changes, load_bundled())
    (null_check,) = [f for f in found if f.rule_id == "JAVA-NULL-003"]
    assert null_check.line == 3 and null_check.replacement == '    if ("EXPRESS".equals(type)) {'
    assert all(f.suggestion is None for f in found)  # never the rule's generic good example
    out = coordinate(changes, [], detector_findings=found, coverage=OK)
    assert [f.replacement for f in out.findings if f.rule_id == "JAVA-NULL-003"] == [null_check.replacement]


def test_a_merge_keeps_the_rewrite_of_the_finding_it_drops(settings):
    """A model's rewrite of the lines a detector flagged without a fix of its own (`!=` has none),
    and the rewrite of a duplicate the better-ranked finding lacks, survive the merge."""
    diff = (b"diff --git a/src/Ship.java b/src/Ship.java\nindex 1..2 100644\n--- a/src/Ship.java\n+++ b/src/Ship.java\n"
            b"@@ -1,2 +1,4 @@\n class Ship {\n+  boolean open(String c) { return c != \"OPEN\"; }\n"
            b"+  int rank(int a) { return a - 1; }\n }\n")
    changes = ingest(diff, settings)
    detected = run_detectors(changes, load_bundled())
    (eq,) = [f for f in detected if f.rule_id == "JAVA-EQ-002"]
    assert eq.line == 2 and eq.replacement is None  # the detector's fix rewrites `==` only
    answer = ReviewAnswer.model_validate({"findings": [
        {"path": "src/Ship.java", "line": 2, "severity": "warning", "category": "correctness", "rule_id": "JAVA-EQ-002",
         "title": "String compared by reference", "replacement": 'boolean open(String c) { return !"OPEN".equals(c); }'},
        {"path": "src/Ship.java", "line": 3, "severity": "critical", "category": "correctness", "title": "Off by one"},
        {"path": "src/Ship.java", "line": 3, "severity": "warning", "category": "correctness", "title": "Off by one",
         "replacement": "int rank(int a) { return a; }"},
    ]})
    out = coordinate(changes, [TaggedFinding(f, "quality", "c1") for f in answer.findings],
                     detector_findings=detected, known_rule_ids={"JAVA-EQ-002"}, coverage=OK)
    by_line = {f.line: f for f in out.findings}
    assert by_line[2].source == "detector" and by_line[2].replacement == '  boolean open(String c) { return !"OPEN".equals(c); }'
    assert by_line[3].severity == "critical" and by_line[3].replacement == "  int rank(int a) { return a; }"
    assert out.dropped["duplicate_of_detector"] == 1 and out.dropped["duplicate"] == 1
