"""One-click suggestions on GitLab and GitHub: every ```suggestion block the loopback servers
receive applies (its lines exist on the new side of the diff and it changes them); replacements
that could not apply are posted without one. Floor: 100% of posted blocks apply."""

from __future__ import annotations

import pytest
from markdown_it import MarkdownIt
from vcs_fakes import FakeGitHub, FakeGitLab
from vcs_support import DIFF, GH_TOKEN, TOKEN, FixedReviewer

from dualrag.findings import Finding
from dualrag.vcs.github import GitHubAdapter, GitHubTarget
from dualrag.vcs.gitlab import GitLabAdapter, GitLabTarget
from dualrag.vcs.http import RetryPolicy
from dualrag.vcs.stage import run_stage

FAST = RetryPolicy(attempts=2, budget_s=1.0, base_delay_s=0.001)


def fix(path, line, replacement, end=None, title="t") -> Finding:
    return Finding(path=path, line=line, end_line=end, severity="major", category="security", title=title,
                   message="m", replacement=replacement, source="llm")


FINDINGS = [
    fix("src/App.java", 3, '  String pw = System.getenv("APP_PW");', title="Hard-coded password"),
    fix("src/Util.java", 1, "final class Util {\n  static final int x = 1;", end=2, title="Mutable static"),
    fix("src/App.java", 2, "  int b;", title="No change"),  # the line already reads so: no block
    fix("src/App.java", 5, "    call(1);\n  }\n}", end=8, title="Past the hunk"),  # lines 7-8 are not shown
    fix("src/App.java", 40, "x();", title="Off the diff"),  # unanchored: into the summary
]
APPLICABLE = 2


def gitlab(server):
    return GitLabAdapter(GitLabTarget(server.url, server.project, server.iid), TOKEN, retry=FAST)


def github(server):
    return GitHubAdapter(GitHubTarget(server.url, server.repo, server.number), GH_TOKEN, retry=FAST)


@pytest.mark.parametrize("platform", ["gitlab", "github"])
def test_every_posted_suggestion_applies(platform, settings):
    server = FakeGitLab(TOKEN, diff=DIFF) if platform == "gitlab" else FakeGitHub(GH_TOKEN, diff=DIFF)
    try:
        adapter = gitlab(server) if platform == "gitlab" else github(server)
        _, result = run_stage(adapter, FixedReviewer(DIFF, FINDINGS), settings)
        assert result.posted == 4 and result.unanchored == ["src/App.java:40"]
        assert len(server.suggestions) == APPLICABLE
        assert all(s["applies"] for s in server.suggestions), server.suggestions  # the floor: 100%
        spans = sorted((s["first"], s["last"]) for s in server.suggestions)
        assert spans == [(1, 2), (3, 3)]
        bodies = ([d["notes"][0]["body"] for d in server.bot_threads()] if platform == "gitlab"
                  else [c["body"] for c in server.comments])
        fences = [t.info for b in bodies for t in MarkdownIt("commonmark").parse(b) if t.type == "fence"]
        # GitLab counts the replaced lines from the commented one; GitHub replaces the lines commented on
        assert sorted(fences) == (["suggestion:-0+0", "suggestion:-0+1"] if platform == "gitlab"
                                  else ["suggestion", "suggestion"])
        for body in bodies:  # the footer is never swallowed by a fence
            tokens = MarkdownIt("commonmark").parse(body)
            assert not any("dualrag ·" in t.content for t in tokens if t.type == "fence")
            assert any("<sub>dualrag" in t.content for t in tokens if t.type == "inline")
    finally:
        server.close()


def test_the_doubles_catch_a_block_that_would_not_apply():
    from vcs_fakes import check_suggestions, diff_lines

    file = diff_lines(DIFF)["src/App.java"]
    assert check_suggestions("```suggestion:-0+0\n  int b;\n```", file, 2)[0]["applies"] is False  # no change
    assert check_suggestions("```suggestion:-0+3\nx\n```", file, 5)[0]["exists"] is False  # lines 6-8
    assert check_suggestions("```suggestion\n  int c;\n```", file, 2)[0]["applies"] is True
