"""Model text that tries to steer what dualrag posts: every Markdown body (the inline comments on
GitLab and GitHub, the summary, the blocking note, the `--format markdown` report) rendered by a
CommonMark parser, with hostile titles, messages, suggestions, notes and walkthrough words.

What must hold: no live mention or reference in the rendered text (GitLab and GitHub match
`@user`, `#123`, `!45`, `&7`, `$3`, `GH-12` and issue URLs in the rendered text outside code, so
a zero-width space after the sigil is what stops them), no link, image, HTML or heading the model
wrote, an unbalanced backtick swallows nothing after it, and the model's code spans and code
blocks stay code."""

from __future__ import annotations

import re

import pytest
from markdown_it import MarkdownIt

from dualrag.config import load_settings
from dualrag.diff import ingest
from dualrag.findings import Finding
from dualrag.publish.blocks import code_span, inline, plain, prose, unescape
from dualrag.publish.render import markdown
from dualrag.review.model import Decision, Review
from dualrag.review.walkthrough import Walkthrough, WalkthroughFile
from dualrag.vcs.anchoring import DiffIndex
from dualrag.vcs.render import blocking_body, finding_body, parse_message, parse_title, summary_body

DIFF = (b"diff --git a/src/App.java b/src/App.java\nindex 1..2 100644\n--- a/src/App.java\n+++ b/src/App.java\n"
        b"@@ -1,3 +1,5 @@\n class App {\n+  String pw = \"x\";\n+  int n = 1;\n   void run() {}\n }\n")

HOSTILE = ("@all @here @alice ping group/project#12 and #34, see !45 and group/project!7, epic &8, snippet $9, "
           "GH-10, https://gitlab.example/acme/app/-/issues/77 www.evil.example "
           "[click](https://evil.example) ![pixel](https://evil.example/p.png) <img src=x onerror=alert(1)> "
           "<details><summary>x</summary> **bold** _em_ ~~gone~~ | a | b |")
TITLE = "Use `BigDecimal.valueOf` not `new BigDecimal( -- cc @bob #1"  # one balanced span, one not
MESSAGE = ("# Heading from the model\n\n" + HOSTILE + "\n\n- item @carol\n1. ordered #2\n> quoted !3\n"
           "Text\n===\n\nCall `valueOf(@d #4)` instead:\n```java\n// @erin #5 stays code\nBigDecimal.valueOf(0.1);\n"
           "```\nand after the block @frank.\n```\nan unclosed block @gina")
SUGGESTION = "Ask @harry in #6 or see !7"
HOSTILE_FINDING = Finding(path="src/App.java", line=2, severity="major", category="correctness", title=TITLE,
                          message=MESSAGE, suggestion=SUGGESTION, rule_id="JAVA-NUM-001", source="llm")
FAR = Finding(path="src/App.java", line=40, severity="minor", category="style", title="Far @ivan #8",
              message=HOSTILE, source="llm")

# What GitLab or GitHub would turn into a notification, a cross-reference or a link in rendered text.
LIVE = re.compile(r"(?<![\w.])@[A-Za-z0-9_]|#\d|!\d|&\d|\$\d|\bGH-\d|://|\bwww\.", re.IGNORECASE)
OURS_HTML = ("<!-- dualrag", "<!-- /dualrag", "<sub>", "</sub>", "<details>", "</details>", "<summary>")


def parse(text: str):
    return MarkdownIt("commonmark").enable("table").enable("strikethrough").parse(text)


def inline_tokens(tokens):
    return [c for t in tokens for c in (t.children or [])]


def live_text(tokens) -> list[str]:
    """Rendered text outside code (entities decoded) that still holds a live mention or reference."""
    return [c.content for c in inline_tokens(tokens) if c.type == "text" and LIVE.search(c.content)]


def assert_inert(body: str, *, headings: int, hostile: bool = True, tables: int = 0) -> list:
    tokens = parse(body)
    assert live_text(tokens) == []
    children = inline_tokens(tokens)
    assert not {c.type for c in children} & {"link_open", "image", "s_open"}
    emphasised = {children[i + 1].content for i, c in enumerate(children) if c.type in ("em_open", "strong_open")}
    assert not emphasised & {"bold", "em", "gone"}  # the model's emphasis shows as written
    if hostile:
        assert any("**bold** _em_ ~~" in c.content for c in children if c.type == "text")
    assert sum(t.type == "heading_open" for t in tokens) == headings  # ours only
    assert sum(t.type == "table_open" for t in tokens) == tables  # ours only
    html = [c.content for c in inline_tokens(tokens) if c.type == "html_inline"]
    html += [t.content for t in tokens if t.type == "html_block"]
    assert all(h.lstrip().startswith(OURS_HTML) for h in html), html
    return tokens


@pytest.fixture(scope="module")
def changes():
    return ingest(DIFF, load_settings(None))


@pytest.fixture(scope="module")
def review(changes) -> Review:
    walk = Walkthrough(overview="Overview @all #1 [x](https://evil.example)", source="llm",
                       files=[WalkthroughFile(path="src/App.java", status="modified", change="+2 -0",
                                              summary="Adds @bob and !2")])
    return Review.of_changes(changes, decision=Decision.SIGNIFICANT_CONCERNS, findings=[HOSTILE_FINDING, FAR],
                             notes=["src/App.java:2 dropped: " + TITLE, "a note @ops #99", "a third note"],
                             decision_reasons=["1 major finding(s): " + TITLE], walkthrough=walk)


@pytest.mark.parametrize("platform", ["gitlab", "github"])
def test_inline_comment_with_a_hostile_answer_is_inert(changes, platform):
    body = finding_body(DiffIndex(changes).place(HOSTILE_FINDING), "h" * 40, platform)
    tokens = assert_inert(body, headings=0)
    spans = [c.content for c in inline_tokens(tokens) if c.type == "code_inline"]
    assert "BigDecimal.valueOf" in spans and "JAVA-NUM-001" in spans  # the rule id after the open backtick
    assert "valueOf(@d #4)" in spans  # the model's code spans stay code (inert there)
    title = next(t.content for t in tokens if t.type == "inline" and "major" in t.content)
    rendered = MarkdownIt("commonmark").renderInline(title)
    assert "`new BigDecimal( -- cc @\u200bbob #\u200b1" in rendered  # the lone backtick shows, swallows nothing
    blocks = [t.content for t in tokens if t.type == "fence"]
    assert "// @erin #5 stays code\nBigDecimal.valueOf(0.1);\n" in blocks
    assert any("an unclosed block @gina" in b for b in blocks)  # closed before the footer
    assert tokens[-2].type == "inline" and tokens[-2].content.startswith("<sub>dualrag")  # the footer, last
    lists = [t for t in tokens if t.type in ("bullet_list_open", "ordered_list_open")]
    assert lists  # the model's list items stay items


def test_titles_and_messages_read_back_as_written(changes):
    """Feedback learns from a thread's title and message: read back, they are the model's words."""
    body = finding_body(DiffIndex(changes).place(HOSTILE_FINDING), "h" * 40, "gitlab")
    assert parse_title(body) == TITLE
    message = parse_message(body)
    assert HOSTILE in message and "Call `valueOf(@d #4)` instead:" in message and "// @erin #5 stays code" in message


def test_summary_and_blocking_note_are_inert_and_notes_are_items(review, changes):
    index = DiffIndex(changes)
    body = summary_body(review, head_sha="h" * 40, open_threads=1, unanchored=[index.place(FAR)], break_glass=None,
                        decision=str(review.decision))
    tokens = assert_inert(body, headings=3)  # the summary's, "What this change does", "Not on a line of the diff"
    items = [t for t in tokens if t.type == "list_item_open"]
    assert len(items) == 1 + 1 + len(review.notes)  # the walkthrough entry, the unanchored finding, each note
    assert_inert(blocking_body(review, "h" * 40), headings=0, hostile=False)


def test_markdown_report_is_inert_and_lists_the_notes(review):
    tokens = assert_inert(markdown(review), headings=4, tables=1)  # the report, walkthrough, findings, notes
    blocks = [t.content for t in tokens if t.type == "fence"]
    assert "// @erin #5 stays code\nBigDecimal.valueOf(0.1);\n" in blocks  # the message's code, inside its item
    texts = [t.content for t in tokens if t.type == "inline"]
    notes = texts.index("Notes")
    assert [t for t in texts[notes + 1:]] == [inline(n) for n in review.notes]


def test_plain_inline_and_prose_helpers():
    assert plain("@a #1 !2") == "@&#8203;a #&#8203;1 !&#8203;2"
    assert plain("# not a heading") == "\\# not a heading" and plain("1. not a list") == "1\\. not a list"
    assert inline("a `b` c `d") == "a `b` c \\`d"
    assert inline("`x` # y") == "`x` # y"  # mid-line, # is text
    assert code_span("a`b") == "``a`b``" and code_span("`x") == "`` `x ``"
    assert prose("x\n```\ncode @a\n```") == "x\n```\ncode @a\n```"
    assert unescape(plain("a @b #1 <c> *d* [e]")) == "a @b #1 <c> *d* [e]"
    rendered = MarkdownIt("commonmark").renderInline(plain("mail a@b.example"))
    assert rendered.replace("\u200b", "") == "mail a@b.example"
