"""Text from a change, a document or a server reaches a terminal escaped, one line per value."""

from __future__ import annotations

from types import SimpleNamespace

from dualrag.cli.options import warn_if_unreviewed
from dualrag.review.decision import EVERY_REVIEWER_FAILED


def test_the_every_reviewer_failed_warning_shows_endpoint_errors_escaped(capsys):
    review = SimpleNamespace(
        decision="no_verdict", decision_reasons=[f"{EVERY_REVIEWER_FAILED}; nobody reviewed the logic"],
        reviewers=[SimpleNamespace(reviewer="general", error="HTTP 500: \x1b]0;pwned\x07\x1b[2J\nforged line")])
    warn_if_unreviewed(review)
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\x07" not in err and len(err.strip().splitlines()) == 1
    assert "\\x1b]0;pwned" in err
