"""Escape sequences from a change or a model never reach a terminal or a report raw; JSON keeps
the exact text and stays valid."""

from __future__ import annotations

import json

import pytest

from dualrag.config import load_settings
from dualrag.diff import ingest
from dualrag.findings import Finding
from dualrag.publish.render import render
from dualrag.review.model import Decision, Review
from dualrag.vcs.render import blocking_body

RAW = ("\x1b", "\x07", "\x9b", "\u202e")
DIFF = ('diff --git "a/src/\\033[31mred.py" "b/src/\\033[31mred.py"\nnew file mode 100644\n--- /dev/null\n'
        '+++ "b/src/\\033[31mred.py"\n@@ -0,0 +1,2 @@\n+x = "\x1b]0;pwned\x07"\n+y = 1  # \u202e }\n').encode()


@pytest.fixture(scope="module")
def review() -> Review:
    changes = ingest(DIFF, load_settings(None))
    finding = Finding(path=changes.files[0].path, line=1, severity="major", category="security",
                      title="Escape \x1b[2J in a title", message="clears \x9b the screen \u202e", source="llm")
    return Review.of_changes(changes, decision=Decision.MINOR_ISSUES, findings=[finding],
                             notes=["note with \x1b[31m colour"])


@pytest.mark.parametrize("fmt", ["text", "markdown", "sarif", "codequality"])
def test_reports_show_escapes_instead_of_running_them(review, fmt):
    out = render(review, fmt)
    assert not [c for c in RAW if c in out]
    assert "\\x1b" in out


def test_json_keeps_the_raw_text_and_stays_valid(review):
    doc = json.loads(render(review, "json"))
    assert doc["files"][0]["path"] == "src/\x1b[31mred.py"
    assert doc["findings"][0]["title"] == "Escape \x1b[2J in a title"


def test_merge_request_comments_are_neutralised(review):
    body = blocking_body(review, "0123456789abcdef")
    assert "\\x1b\\[2J" in body and "\x1b" not in body  # shown, and its [ escaped (Markdown)
