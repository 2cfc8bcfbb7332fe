"""Coordinator and decision table, on a real ChangeSet, without any model."""

from __future__ import annotations

import pytest

from dualrag.config import load_settings
from dualrag.diff import ingest
from dualrag.findings import Finding
from dualrag.priors import BreakGlass, PriorFinding, ThreadState
from dualrag.review.coordinator import TaggedFinding, coordinate
from dualrag.review.decision import Coverage, at_or_above, decide
from dualrag.review.model import Decision
from dualrag.review.prompt import RawFinding

from .conftest import JAVA_NEW, JAVA_OLD, PATH

OK = Coverage(llm_configured=True, llm_ran=True, complete=True)


def prior_finding(**fields) -> PriorFinding:
    base = dict(fingerprint="f", key="", path=PATH, line=None, severity="major", category="correctness",
                rule_id=None, title="", state=ThreadState.OPEN, thread_id="1", resolved=False)
    return PriorFinding(**(base | fields))


@pytest.fixture
def changes(make_git_file):
    return ingest(make_git_file(PATH, JAVA_OLD.encode(), JAVA_NEW.encode()), load_settings(None))


def raw(line, severity="warning", category="correctness", reviewer="quality", path=PATH, chunk="c1", **kw):
    return TaggedFinding(RawFinding(path=path, line=line, severity=severity, category=category,
                                    title=kw.pop("title", f"{category} issue"), message="m", **kw), reviewer, chunk)


def det(line, severity="major", rule_id="JAVA-DATE-001", title="Week year in date pattern"):
    return Finding(path=PATH, line=line, severity=severity, category="rule", rule_id=rule_id, title=title,
                   message="m", source="detector")


def test_placement_snaps_near_lines_and_drops_the_rest(changes):
    out = coordinate(changes, [raw(5), raw(7, category="performance"), raw(3, category="security"),
                               raw(40, category="reliability"), raw(5, path="nope/Missing.java"),
                               raw(10, path="b/" + PATH, category="maintainability")], coverage=OK)
    placed = {(f.line, f.category) for f in out.findings}
    assert (5, "correctness") in placed
    assert (6, "performance") in placed  # 7 is context, one line after added 6: snapped
    assert (5, "security") in placed  # 3 → snapped onto 5 (two lines)
    assert (10, "maintainability") in placed  # b/ prefix resolved
    assert out.dropped["off_changed_lines"] == 1 and out.dropped["unknown_file"] == 1


def test_rule_ids_must_exist(changes):
    out = coordinate(changes, [raw(5, rule_id="JAVA-FAKE-999"), raw(10, category="rule", reviewer="rules", rule_id="INVENTED-1"),
                               raw(6, category="rule", reviewer="rules", rule_id="CTX-7")],
                     context_rule_ids={"c1": {"CTX-7"}}, known_rule_ids={"JAVA-DATE-001"}, coverage=OK)
    by_line = {f.line: f for f in out.findings}
    assert by_line[5].rule_id is None  # citation removed, finding kept
    assert 10 not in by_line  # the rules reviewer without a valid id: dropped
    assert by_line[6].rule_id == "CTX-7"
    assert out.dropped["unknown_rule_id"] == 2


def test_dedup_keeps_best_and_detector_wins(changes):
    out = coordinate(changes, [
        raw(5, "warning", "correctness", "quality", title="Subtraction instead of addition"),
        raw(5, "critical", "bug", "general", title="Sum uses minus"),
        raw(10, "suggestion", "rule", "rules", rule_id="JAVA-DATE-001", title="Week year"),
    ], detector_findings=[det(10)], known_rule_ids={"JAVA-DATE-001"}, coverage=OK)
    llm = [f for f in out.findings if f.source == "llm"]
    assert len(llm) == 1 and llm[0].severity == "critical" and set(llm[0].reviewer.split(",")) == {"quality", "general"}
    assert [f.source for f in out.findings if f.line == 10] == ["detector"]
    assert out.dropped["duplicate"] == 1 and out.dropped["duplicate_of_detector"] == 1
    assert all(f.fingerprint for f in out.findings)


def test_severity_mapping_and_calibration(changes):
    out = coordinate(changes, [raw(5, "suggestion", "documentation", "docs"), raw(6, "critical", "style"),
                               raw(10, "suggestion")], coverage=OK)
    sev = {f.line: f.severity for f in out.findings}
    assert sev == {5: "info", 6: "major", 10: "minor"}


def F(sev, cat="correctness", path=PATH, line=5, source="llm"):
    return Finding(path=path, line=line, severity=sev, category=cat, title="t", message="m", source=source)


@pytest.mark.parametrize("findings, coverage, expected", [
    ([], OK, Decision.APPROVED),
    ([F("minor"), F("info")], OK, Decision.APPROVED_WITH_COMMENTS),
    ([F("major")], OK, Decision.APPROVED_WITH_COMMENTS),
    ([F("major", "maintainability"), F("major", "documentation", path="x")], OK, Decision.APPROVED_WITH_COMMENTS),
    ([F("major"), F("major", "security", path="x")], OK, Decision.MINOR_ISSUES),
    ([F("major", "maintainability", line=1), F("major", "documentation", line=9)], OK, Decision.MINOR_ISSUES),
    ([F("major", "maintainability", path=p) for p in "abc"], OK, Decision.MINOR_ISSUES),
    ([F("critical"), F("minor")], OK, Decision.SIGNIFICANT_CONCERNS),
    ([], Coverage(True, False, False), Decision.NO_VERDICT),
    ([F("minor", source="detector")], Coverage(False, False, False), Decision.NO_VERDICT),
    ([F("critical", source="detector")], Coverage(False, False, False), Decision.SIGNIFICANT_CONCERNS),
    ([], Coverage(True, True, False), Decision.NO_VERDICT),
])
def test_decision_table(findings, coverage, expected):
    assert decide(findings, coverage)[0] is expected


def test_break_glass_forces_and_records_approval(changes):
    out = coordinate(changes, [raw(5, "critical")], coverage=OK,
                     break_glass=BreakGlass(author="lead", note_id="n1", text="break glass: hotfix"))
    assert out.decision is Decision.APPROVED
    assert out.break_glass == {"author": "lead", "note_id": "n1", "text": "break glass: hotfix"}
    assert any("break glass by @lead" in n for n in out.notes)
    on = coordinate(changes, [raw(5, "critical")], coverage=OK,
                    break_glass=BreakGlass(author="lead", note_id="n1", text="break glass", commit="c" * 40))
    assert on.break_glass["commit"] == "c" * 40  # the commit it holds for, in the review JSON and telemetry


def test_prior_findings_settled_do_not_count_and_disagreed_suggestions_are_conceded(changes):
    prior = prior_finding(fingerprint="zzz", line=5, state=ThreadState.WONT_FIX)
    out = coordinate(changes, [raw(5, "warning"), raw(5, "warning"), raw(6, "warning", "security")], coverage=OK,
                     prior_findings=[prior])
    muted = [f for f in out.findings if not f.counted]
    assert len(muted) == 1 and muted[0].line == 5
    assert out.decision is Decision.APPROVED_WITH_COMMENTS  # one counted warning left
    worse = coordinate(changes, [raw(5, "critical")], coverage=OK, prior_findings=[prior])
    assert worse.decision is Decision.SIGNIFICANT_CONCERNS  # got worse: counts again
    disagreed = prior_finding(fingerprint="y", line=10, severity="minor", state=ThreadState.DISAGREED)
    out = coordinate(changes, [raw(10, "suggestion")], coverage=OK, prior_findings=[disagreed])
    assert out.findings == [] and out.dropped["conceded_after_disagreement"] == 1


def test_fail_on_order():
    assert at_or_above("significant_concerns", "minor_issues")
    assert not at_or_above("no_verdict", "minor_issues")
    assert at_or_above("no_verdict", "no_verdict")
    assert not at_or_above("approved", "approved_with_comments")
