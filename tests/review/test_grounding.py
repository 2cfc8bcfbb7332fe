"""A model warning keeps its severity only when it names its line's code and a concrete failure."""

from __future__ import annotations

import pytest

from dualrag.findings import Finding
from dualrag.review.grounding import calibrated, code_words, grounded

LINE = "        int mid = (low + high) / 2;"


def warning(title: str, message: str, **kw) -> Finding:
    return Finding(path="A.java", line=3, severity=kw.pop("severity", "major"), category="correctness", title=title,
                   message=message, source=kw.pop("source", "llm"), **kw)


def test_code_words_are_the_lines_names_and_numbers_without_the_common_ones():
    assert code_words([LINE, 'log("retry count")']) == {"mid", "low", "high", "log", "retry count", "retry", "count"}


@pytest.mark.parametrize(("title", "message", "expected"), [
    ("Integer overflow", "low + high overflows when both are large; use low + (high - low) / 2.", True),
    ("Possible issue", "This computation may cause problems in some cases.", False),  # names nothing
    ("Check mid", "Consider validating mid before using it.", False),  # code, but no failure
    ("Overflow risk", "An overflow can happen in this method.", False),  # a failure, but not this line's code
])
def test_grounded_needs_both_the_code_and_a_failure(title, message, expected):
    assert grounded(warning(title, message), [LINE]) is expected


def test_policies():
    vague = warning("Possible issue", "This may cause problems.")
    assert calibrated(vague, [LINE], "keep") == vague
    demoted = calibrated(vague, [LINE], "grounded")
    assert demoted.severity == "minor" and "suggestion" in demoted.message
    sharp = warning("Overflow", "low + high overflows for large arrays")
    assert calibrated(sharp, [LINE], "grounded").severity == "major"
    assert calibrated(sharp, [LINE], "suggestion").severity == "minor"
    cited = warning("Breaks rule", "This may cause problems.", rule_id="team:1.2")
    detector = warning("Possible issue", "This may cause problems.", source="detector")
    assert calibrated(cited, [LINE], "suggestion") == cited and calibrated(detector, [LINE], "grounded") == detector
