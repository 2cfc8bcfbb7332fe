"""The HTML report: one self-contained page. Opened in headless Chromium (Debian's chromium through
Playwright), every finding is shown under its line of the diff and the page makes no request."""

from __future__ import annotations

import re

import pytest

from dualrag.config import load_settings
from dualrag.diff import ingest
from dualrag.findings import Finding
from dualrag.publish.html import render_html
from dualrag.review.model import (
    ChunkMemberReport,
    ChunkReport,
    ContextCodeReport,
    ContextReport,
    ContextRuleReport,
    Decision,
    PrunedReport,
    Review,
    ReviewerRun,
    Usage,
)
from dualrag.testing.browser import browser, open_page, unavailable_reason

DIFF = (b"diff --git a/src/Ship.java b/src/Ship.java\nindex 1..2 100644\n--- a/src/Ship.java\n+++ b/src/Ship.java\n"
        b"@@ -1,5 +1,6 @@\n class Ship {\n   int rank(String type) {\n-    return 0;\n"
        b"+    if (type.equals(\"EXPRESS\")) return 1;\n+    return 0;\n   }\n }\n"
        b"diff --git a/conf/a.xml b/conf/a.xml\nindex 1..2 100644\n--- a/conf/a.xml\n+++ b/conf/a.xml\n"
        b"@@ -1,3 +1,3 @@\n <root>\n-  <a x=\"1\"/>\n+  <a x=\"2\"/>\n </root>\n")
HOSTILE = "<script>alert(1)</script><img src=\"http://127.0.0.1:9/x.png\">"


def f(path, line, severity="minor", **kw) -> Finding:
    return Finding(path=path, line=line, severity=severity, category=kw.pop("category", "correctness"),
                   title=kw.pop("title", f"issue at {line}"), message=kw.pop("message", "m"),
                   source=kw.pop("source", "llm"), **kw)


FINDINGS = [
    f("conf/a.xml", 2, "major", title="Changed attribute"),
    f("src/Ship.java", 2, "info", title="Context line finding"),
    f("src/Ship.java", 3, "critical", rule_id="JAVA-NULL-003", source="detector",
      replacement='    if ("EXPRESS".equals(type)) return 1;', title="equals on a variable"),
    f("src/Ship.java", 3, "minor", title=HOSTILE, message=HOSTILE),
    f("src/Ship.java", 40, "minor", title="Not on a diff line"),
]


@pytest.fixture(scope="module")
def changes():
    return ingest(DIFF, load_settings(None))


@pytest.fixture(scope="module")
def review(changes) -> Review:
    context = ContextReport(
        rules=[ContextRuleReport(rule_id="JAVA-NULL-003", title="Call equals on the constant", level="recommended",
                                 kb="bundled", source="java/null-safety.md", score=0.71, tokens=120)],
        code=[ContextCodeReport(relation="caller", symbol="com.acme.Router.route(Order)", path="src/Router.java",
                                start_line=10, end_line=30, score=0.4, tokens=200)],
        pruned=[PrunedReport(kind="rule", label="JAVA-EQ-002 Never compare strings with ==", score=0.05,
                             reason="floor")],
        budget=1000, used=320, dropped=1, floor=0.117)
    chunk = ChunkReport(id="c1", files=["src/Ship.java", "conf/a.xml"], estimated_tokens=300, context=context,
                        members=[ChunkMemberReport(path="src/Ship.java", kind="method", name="com.acme.Ship.rank(String)",
                                                   signature="int rank(String type)", start_line=2, end_line=5)])
    return Review.of_changes(
        changes, decision=Decision.SIGNIFICANT_CONCERNS, findings=FINDINGS, chunks=[chunk],
        reviewers=[ReviewerRun(reviewer="security", chunk="c1", outcome="ok", model="openai:m", findings=2),
                   ReviewerRun(reviewer="quality", chunk="c1", outcome="failed", error="timeout")],
        usage=Usage(calls=2, input_tokens=1500, output_tokens=200, cache_read_tokens=900, cost_usd=0.0123),
        timings={"ingest": 1.5, "review": 2500.0})


def test_the_page_is_self_contained_and_escapes_what_it_shows(review, changes):
    page = render_html(review, changes)
    assert "<script>alert(1)" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert not re.search(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//""", page)  # no remote resource
    assert "default-src 'none'" in page  # and the browser is told to load none
    for shown in ("JAVA-EQ-002 Never compare strings with ==", "floor", "com.acme.Router.route(Order)",
                  "0.710", "timeout", "$0.0123", "2500.0", "method Ship.rank(String)", "Walkthrough"):
        assert shown in page, shown


def test_without_the_diff_findings_are_still_listed_per_file(review):
    page = render_html(review)
    assert "The diff was not given to the report." in page
    assert page.count('class="finding ') == len(FINDINGS)


def test_every_finding_is_at_its_line_and_nothing_is_fetched(review, changes, tmp_path):
    reason = unavailable_reason()
    if reason:
        pytest.skip(reason)
    path = tmp_path / "report.html"
    path.write_text(render_html(review, changes), encoding="utf-8")
    dialogs: list[str] = []

    def check(page):
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        for i, finding in enumerate(FINDINGS):
            card = page.locator(f'[data-finding="{i}"]')
            assert card.count() == 1 and card.is_visible(), finding.title
            where = card.evaluate("""el => {
                let p = el.previousElementSibling;
                while (p && !p.classList.contains('l')) p = p.previousElementSibling;
                return {line: p ? p.dataset.new : null, file: el.closest('details').dataset.path,
                        unplaced: !!el.closest('.unplaced')};
            }""")
            assert where["file"] == finding.path
            if finding.line == 40:
                assert where["unplaced"]
            else:
                assert where["line"] == str(finding.line) and not where["unplaced"], (finding.title, where)
        assert page.locator('[data-finding="3"] b').first.inner_text() == HOSTILE  # shown as text
        assert page.locator("pre.replacement").inner_text() == FINDINGS[2].replacement
        page.select_option("#sev-filter", "critical")
        assert page.locator('[data-finding="0"]').is_hidden() and page.locator('[data-finding="2"]').is_visible()

    with browser() as b:
        visit = open_page(b, path, check)
    assert visit.requests == [] and dialogs == []


def _big_review(files: int = 340) -> tuple[Review, object]:
    """A large change: `files` Java files deep in packages, a few findings on the last ones."""
    from dualrag.review.walkthrough import Walkthrough, WalkthroughFile

    deep = "src/main/java/com/acme/commerce/fulfilment/shipping/carriers/integration/adapters/"
    parts = []
    for n in range(files):
        path = f"{deep}Carrier{n:03d}AdapterImplementation.java"
        parts.append(f"diff --git a/{path} b/{path}\nindex 1..2 100644\n--- a/{path}\n+++ b/{path}\n"
                     f"@@ -1,2 +1,3 @@\n class C{n} {{\n+  int v = {n};\n }}\n")
    changes = ingest("".join(parts).encode(), load_settings(None))
    paths = [c.path for c in changes.files]
    findings = [f(paths[-1], 2, "minor", title="late minor"), f(paths[-2], 2, "critical", title="late critical"),
                f(paths[0], 2, "info", title="early info"), f(paths[5], 2, "major", title="early major")]
    walk = Walkthrough(overview="Adds a field to every adapter.", files=[
        WalkthroughFile(path=p, status="modified", change="+1 -0", members=[f"class C{n}"]) for n, p in enumerate(paths)])
    return Review.of_changes(changes, decision=Decision.SIGNIFICANT_CONCERNS, findings=findings,
                             walkthrough=walk), changes


def test_a_large_change_leads_with_its_findings_by_severity():
    import time

    review, changes = _big_review()
    start = time.perf_counter()
    page = render_html(review, changes)
    took = time.perf_counter() - start
    findings, walkthrough, files = (page.index(f'<h2 id="{x}">') for x in ("findings", "walkthrough", "files"))
    assert findings < walkthrough < files  # the findings first, the walkthrough after them
    table = page[page.index('<table id="finding-table">'):walkthrough]
    assert [t for t in re.findall(r"late critical|early major|late minor|early info", table)] == [
        "late critical", "early major", "late minor", "early info"]  # by severity, then file
    assert '<details class="walkthrough" id="walkthrough-files">' in page  # collapsed: 340 files
    assert "340 file(s) and the members they change" in page
    assert took < 2.0, took  # rendering the page of a 340-file change


def test_a_small_walkthrough_stays_open(review, changes):
    page = render_html(review, changes)
    assert '<details class="walkthrough" id="walkthrough-files" open>' in page


def test_long_paths_stay_on_one_line_cut_in_the_middle():
    from dualrag.publish.html import PATH_CHARS, middle

    review, changes = _big_review(8)
    page = render_html(review, changes)
    path = changes.files[0].path
    shown = middle(path)
    assert len(path) > PATH_CHARS and len(shown) == PATH_CHARS and "…" in shown
    assert shown.endswith("/Carrier000AdapterImplementation.java") and shown.startswith("src/main/java/")
    assert f'<code class="path" title="{path}">{shown}</code>' in page  # whole path in the title
    assert f'<summary title="{path}">{shown} ' in page
    assert "code.path{white-space:nowrap" in page and "text-overflow:ellipsis" in page
    assert middle("src/A.java") == "src/A.java"
