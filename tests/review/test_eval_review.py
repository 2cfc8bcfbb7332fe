"""evaluation/review/bugs.py's pieces: the fix is the reversed bug-introducing diff, each side's
targets, what counts as a flag, and the table (no model, no data files)."""

from __future__ import annotations

import unidiff

from evaluation.review.bug_pairs import Pair, reverse_diff, sample, targets
from evaluation.review.bug_report import by_source, floors, summarise, table, without_reverse_check
from evaluation.review.systems import flagged, same_file

# fixed -> buggy, as Defects4J stores it: the guard is removed, a bound changed, the EOL lost
BUG = """diff --git a/src/A.java b/src/A.java
index 1111111..2222222 100644
--- a/src/A.java
+++ b/src/A.java
@@ -10,7 +10,4 @@ class A {
     int f(String s) {
-        if (s == null) {
-            return 0;
-        }
         int n = s.length();
         return n;
     }
@@ -20,3 +17,3 @@ class A {
-    boolean g(int i) { return i < 10; }
+    boolean g(int i) { return i <= 10; }
 }
-// end
\\ No newline at end of file
+// end
"""


def test_reversal_is_the_fix_and_an_involution():
    fix = reverse_diff(BUG)
    assert reverse_diff(fix) == BUG
    assert "@@ -10,4 +10,7 @@ class A {" in fix and "+        if (s == null) {" in fix
    assert "-    boolean g(int i) { return i <= 10; }\n+    boolean g(int i) { return i < 10; }" in fix
    assert fix.endswith("-// end\n+// end\n\\ No newline at end of file\n")  # the marker follows its line
    [patched] = unidiff.PatchSet(fix)
    assert [(h.source_start, h.source_length, h.target_start, h.target_length) for h in patched] == [
        (10, 4, 10, 7), (17, 3, 20, 3)]


def test_targets_are_added_lines_and_the_line_after_a_deletion():
    assert targets(BUG) == {("src/A.java", 11), ("src/A.java", 17), ("src/A.java", 19)}  # 11: after the gap
    assert targets(reverse_diff(BUG)) == {("src/A.java", n) for n in (11, 12, 13, 20, 22)}
    pair = Pair("D4J-X-1", "X", BUG, (("src/A.java", 11), ("src/A.java", 17), ("src/A.java", 19)))
    assert pair.check() is None and pair.fix_diff == reverse_diff(BUG)
    assert "differ" in Pair("D4J-X-2", "X", BUG, (("src/A.java", 10),)).check()


def test_flag_is_warning_or_worse_within_one_line_of_a_target():
    t = frozenset({("src/A.java", 17)})
    f = {"path": "b/src/A.java", "line": 18, "severity": "major"}
    assert flagged([f], t) and flagged([{**f, "line": 15, "end_line": 16}], t)
    assert not flagged([{**f, "line": 19}], t) and not flagged([{**f, "severity": "minor"}], t)
    assert same_file("A.java", "src/A.java") and not same_file("B.java", "src/A.java")


def test_seeded_sample_is_stable_and_extends():
    pairs = [Pair(f"D4J-X-{i}", "X", BUG, ()) for i in range(30)]
    assert sample(pairs, 5, seed=14) == sample(list(reversed(pairs)), 5, seed=14)
    assert sample(pairs, 8, seed=14)[:5] == sample(pairs, 5, seed=14)


def test_table_and_floors():
    def rec(system, pid, side, flag, tokens=900, findings=1, failure=None):
        return {"system": system, "id": pid, "side": side, "flagged": flag, "findings": [{}] * findings,
                "prompt_tokens": tokens, "completion_tokens": 20, "seconds": 10.0, "model_seconds": 8.0,
                "tier": "trivial", "failure": failure}

    records = [rec("dualrag", "p1", "bug", True), rec("dualrag", "p1", "fix", False),
               rec("dualrag", "p2", "bug", True), rec("dualrag", "p2", "fix", False, failure="timeout"),
               rec("naive", "p1", "bug", True), rec("naive", "p1", "fix", True),
               rec("naive", "p2", "bug", False), rec("naive", "p2", "fix", False),
               rec("dualrag", "p3", "bug", True)]  # one side only: not a pair yet
    dual, naive = summarise(records)
    assert (dual.pairs, dual.flag_bug, dual.flag_fix, dual.discrimination, dual.failures) == (2, 1.0, 0.0, 1.0, 1)
    assert naive.discrimination == 0.0
    text = table([dual, naive])
    assert "+1.00" in text.splitlines()[2] and "1/4" in text.splitlines()[2]
    lines = floors([dual, naive])
    assert lines[0].startswith("  discrimination >= +0.30") and lines[0].endswith("PASS")
    assert lines[-1].startswith("  no review fails") and lines[-1].endswith("FAIL")


def test_by_source_splits_the_flags_of_model_and_detectors():
    def found(line, source):
        return {"path": "A.java", "line": line, "severity": "major", "source": source}

    records = [  # the model flags both sides of p1, the detector only the bug side
        {"system": "dualrag", "id": "p1", "side": "bug", "findings": [found(3, "llm"), found(3, "detector")]},
        {"system": "dualrag", "id": "p1", "side": "fix", "findings": [found(3, "llm")]},
        {"system": "dualrag", "id": "p2", "side": "bug", "findings": [found(40, "detector")]},  # off target
        {"system": "dualrag", "id": "p2", "side": "fix", "findings": []},
    ]
    tg = {(p, s): frozenset({("A.java", 3)}) for p in ("p1", "p2") for s in ("bug", "fix")}
    llm, detector = by_source(records, tg, flagged)
    assert "flag bug 0.50, fix 0.50, discrimination +0.00" in llm
    assert "flag bug 0.50, fix 0.00, discrimination +0.50" in detector


def test_without_reverse_check_reads_the_first_answers_back(tmp_path):
    import json

    for side, first, reverse in (("bug", [3], [9]), ("fix", [3], [3])):
        folder = tmp_path / f"p1.{side}"
        folder.mkdir()
        answer = {"findings": [{"path": "A.java", "line": n, "severity": "warning"} for n in first]}
        (folder / "c1.general.response.txt").write_text(json.dumps(answer))
        echo = {"findings": [{"path": "A.java", "line": n, "severity": "warning"} for n in reverse]}
        (folder / "c1.general.reverse.response.txt").write_text(json.dumps(echo))
    records = [{"system": "dualrag", "id": "p1", "side": s, "findings": []} for s in ("bug", "fix")]
    tg = {("p1", s): frozenset({("A.java", 3)}) for s in ("bug", "fix")}
    line = without_reverse_check(records, tg, flagged, tmp_path)
    assert "flag bug 1.00, fix 1.00, discrimination +0.00" in line and "1 pairs" in line
    assert without_reverse_check(records, tg, flagged, tmp_path / "none") is None
