"""Every Markdown dualrag writes, rendered by a CommonMark parser (markdown-it-py): the report,
the merge-request summary, the blocking note and the inline comments. A finding's code block
closes before the next finding; the footer and the notes stay outside code."""

from __future__ import annotations

import pytest
from markdown_it import MarkdownIt

from dualrag.config import load_settings
from dualrag.diff import ingest
from dualrag.findings import Finding
from dualrag.publish.blocks import closed_fences
from dualrag.publish.render import markdown
from dualrag.review.model import ChunkReport, ContextReport, Decision, Review
from dualrag.vcs.anchoring import DiffIndex
from dualrag.vcs.render import blocking_body, finding_body, summary_body

DIFF = (b"diff --git a/src/App.java b/src/App.java\nindex 1..2 100644\n--- a/src/App.java\n+++ b/src/App.java\n"
        b"@@ -1,3 +1,5 @@\n class App {\n+  String pw = \"x\";\n+  int n = 1;\n   void run() {}\n }\n")
FENCED = Finding(path="src/App.java", line=2, severity="critical", category="security", title="Password",
                 message="Hard-coded password.", suggestion="```java\nString pw = vault.get(\"pw\");\n```",
                 source="llm")
WITH_TICKS = Finding(path="src/App.java", line=2, end_line=3, severity="major", category="correctness",
                     title="Text block", message="Open fence:\n```java\nString s;",
                     suggestion="Move it.\nThen ``` quote it.", replacement='  String pw = """\n  ```\n  """;',
                     source="llm")
PLAIN = Finding(path="src/App.java", line=3, severity="minor", category="style", title="Short name",
                message="n says nothing.", suggestion="Call it retries.", source="detector")
FINDINGS = [FENCED, WITH_TICKS, PLAIN]


def parse(text: str):
    return MarkdownIt("commonmark").parse(text)


def fences(tokens) -> list[str]:
    return [t.content for t in tokens if t.type in ("fence", "code_block")]


@pytest.fixture(scope="module")
def review() -> Review:
    changes = ingest(DIFF, load_settings(None))
    chunk = ChunkReport(id="c1", files=["src/App.java"], estimated_tokens=90,
                        context=ContextReport(reranked=False, budget=100, used=40))
    return Review.of_changes(changes, decision=Decision.SIGNIFICANT_CONCERNS, findings=FINDINGS, chunks=[chunk],
                             notes=["reranking skipped: no model folder configured"],
                             decision_reasons=["1 critical finding(s)"])


def test_report_findings_are_separate_items_and_code_closes_inside_them(review):
    tokens = parse(markdown(review))
    heading = next(i for i, t in enumerate(tokens) if t.type == "inline" and t.content == "Findings")
    start = next(i for i in range(heading, len(tokens)) if tokens[i].type == "bullet_list_open")
    level = tokens[start].level
    end = next(i for i in range(start + 1, len(tokens)) if tokens[i].type == "bullet_list_close"
               and tokens[i].level == level)
    items = [t for t in tokens[start:end] if t.type == "list_item_open" and t.level == level + 1]
    assert len(items) == len(FINDINGS)
    inside = fences(tokens[start:end])
    assert inside == ['String pw = vault.get("pw");\n', "String s;\n", "Move it.\nThen ``` quote it.\n",
                      '  String pw = """\n  ```\n  """;\n']  # the message's open fence closed in its item
    infos = [t.info for t in tokens[start:end] if t.type == "fence"]
    assert infos == ["java", "java", "java", "java"]
    assert not any("Short name" in c or "settled" in c for c in fences(tokens))  # the next finding is not code
    after = tokens[end:]
    assert not fences(after)
    notes = next(i for i, t in enumerate(after) if t.type == "inline" and t.content == "Notes")
    items = [t for t in after[notes:] if t.type == "list_item_open"]
    assert len(items) == len(review.notes)  # the notes: one item each, outside any code


def test_report_walkthrough_and_chunk_lines_render_as_lists_not_code(review):
    tokens = parse(markdown(review))
    texts = [t.content for t in tokens if t.type == "inline"]
    assert "Walkthrough" in texts
    assert any(t.startswith("`src/App.java` (modified, +2 -0)") for t in texts)
    assert not any(t.type == "code_block" for t in tokens)  # indented text never turns into a code block


@pytest.mark.parametrize("platform", ["gitlab", "github"])
def test_inline_comment_footer_and_marker_stay_outside_code(review, platform):
    index = DiffIndex(ingest(DIFF, load_settings(None)))
    for f in FINDINGS:
        body = finding_body(index.place(f), "h" * 40, platform)
        tokens = parse(body)
        assert tokens[0].type == "html_block" and "dualrag:finding" in tokens[0].content  # the marker
        assert tokens[-2].type == "inline" and tokens[-2].content.startswith("<sub>dualrag")  # the footer, last
        assert not any("dualrag ·" in c for c in fences(tokens))
    body = finding_body(index.place(WITH_TICKS), "h" * 40, platform)
    info = [t.info for t in parse(body) if t.type == "fence"]
    assert info[-1] == ("suggestion:-0+1" if platform == "gitlab" else "suggestion")
    assert fences(parse(body))[-1] == WITH_TICKS.replacement + "\n"  # a longer fence holds the ``` inside


def test_summary_and_blocking_notes_render_as_written(review):
    index = DiffIndex(ingest(DIFF, load_settings(None)))
    far = Finding(path="src/App.java", line=40, severity="minor", category="style", title="Far",
                  message="Spans\n```\nlines", source="llm")
    body = summary_body(review, head_sha="h" * 40, open_threads=2, unanchored=[index.place(far)], break_glass=None,
                        decision=str(review.decision))
    tokens = parse(body)
    assert next(t.content for t in tokens if t.type == "inline").startswith("dualrag review")
    assert not fences(tokens)  # one line per unanchored finding, never a block
    items = [t for t in tokens if t.type == "list_item_open"]
    assert len(items) == 3  # the walkthrough's file, the unanchored finding and the note
    assert any(t.type == "html_block" and "<details>" in t.content for t in tokens)
    blocking = parse(blocking_body(review, "h" * 40))
    assert not fences(blocking) and sum(t.type == "list_item_open" for t in blocking) == 2


def test_an_unclosed_fence_in_a_message_is_closed():
    assert closed_fences("a\n```java\nx();") == "a\n```java\nx();\n```"
    assert closed_fences("a\n```java\nx();\n```") == "a\n```java\nx();\n```"
    assert closed_fences("inline ```x``` only") == "inline ```x``` only"
