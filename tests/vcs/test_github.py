"""GitHub stage against a loopback server (REST v3 + GraphQL review threads)."""

from __future__ import annotations

import json

import pytest
from vcs_fakes import FakeGitHub
from vcs_support import CTX, DIFF, DIFF2, FAR, GH_TOKEN, NULL, PW, UTIL, FixedReviewer

from dualrag.errors import UserError
from dualrag.review.model import Decision
from dualrag.vcs.github import GitHubAdapter, GitHubTarget, pr_number_from_event
from dualrag.vcs.http import RetryPolicy, VcsAuthError
from dualrag.vcs.model import ThreadState
from dualrag.vcs.stage import run_stage

FAST = RetryPolicy(attempts=3, budget_s=1.0, base_delay_s=0.001)


@pytest.fixture
def gh():
    server = FakeGitHub(GH_TOKEN, diff=DIFF, per_page_max=2, thread_page=2)
    yield server
    server.close()


def run(server, reviewer, settings, token=GH_TOKEN):
    a = GitHubAdapter(GitHubTarget(server.url, server.repo, server.number), token, retry=FAST)
    return run_stage(a, reviewer, settings)


def writes(server, since=0):
    return [(m, p) for m, p in server.log[since:] if m != "GET" and p != "/graphql"] + [
        (m, p) for m, p in server.log[since:] if p == "/graphql" and False]


def test_first_review_comments_summary_and_approve(gh, settings):
    _, r = run(gh, FixedReviewer(DIFF, [PW, CTX, UTIL, FAR]), settings)
    assert r.posted == 3 and r.unanchored == ["src/App.java:40"]
    assert {(c["path"], c["line"], c["side"]) for c in gh.roots()} == {
        ("src/App.java", 3, "RIGHT"), ("src/App.java", 4, "RIGHT"), ("src/Util.java", 2, "RIGHT")}
    assert len(gh.summary_comments()) == 1 and [x["state"] for x in gh.reviews] == ["APPROVED"]


def test_idempotent_and_rereview(gh, settings):
    run(gh, FixedReviewer(DIFF, [PW, CTX, UTIL]), settings)
    mark = len(gh.log)
    _, r = run(gh, FixedReviewer(DIFF, [PW, CTX, UTIL]), settings)
    assert writes(gh, mark) == [] and r.kept == 3
    graphql_writes = [1 for m, p in gh.log[mark:] if p == "/graphql"]
    assert len(graphql_writes) == 2  # two pages of threads read, no mutation
    gh.set_diff(DIFF2, head_sha="e" * 40)
    _, r = run(gh, FixedReviewer(DIFF2, [CTX, UTIL, NULL]), settings)
    assert (r.posted, r.kept, r.resolved_fixed) == (1, 2, 1)
    pw = next(c for c in gh.roots() if "SEC-001" in c["body"])
    assert pw["id"] in gh.resolved


def test_replies_and_break_glass(gh, settings):
    run(gh, FixedReviewer(DIFF, [PW, CTX]), settings)
    roots = {c["line"]: c for c in gh.roots()}
    gh.human_reply(roots[4], "acknowledged")
    gh.human_reply(roots[3], "I disagree: it is a fixture", author="bob")
    reviewer = FixedReviewer(DIFF, [PW, CTX])
    _, r = run(gh, reviewer, settings)
    states = {p.line: p.state for p in reviewer.priors}
    assert states == {3: ThreadState.DISAGREED, 4: ThreadState.ACKNOWLEDGED}
    assert r.resolved_by_reply == 1 and r.answered == 1 and roots[4]["id"] in gh.resolved
    gh.human_comment("break glass: hotfix")
    review, r = run(gh, FixedReviewer(DIFF, [PW, CTX], Decision.SIGNIFICANT_CONCERNS), settings)
    assert review.decision == Decision.APPROVED and r.break_glass.author == "alice"


def test_request_changes_then_dismissed_on_minor(gh, settings):
    run(gh, FixedReviewer(DIFF, [PW], Decision.SIGNIFICANT_CONCERNS), settings)
    assert [x["state"] for x in gh.reviews] == ["CHANGES_REQUESTED"]
    mark = len(gh.log)
    run(gh, FixedReviewer(DIFF, [PW], Decision.SIGNIFICANT_CONCERNS), settings)
    assert writes(gh, mark) == []
    _, r = run(gh, FixedReviewer(DIFF, [CTX], Decision.MINOR_ISSUES), settings)
    assert [x["state"] for x in gh.reviews] == ["DISMISSED", "COMMENTED"] and "dismissed" in r.approval


def test_approval_refused_for_actions_is_reported_not_fatal(settings):
    server = FakeGitHub(GH_TOKEN, diff=DIFF, allow_approve=False)
    try:
        _, r = run(server, FixedReviewer(DIFF, [CTX], Decision.APPROVED), settings)
        assert "refused" in r.approval and r.posted == 1
    finally:
        server.close()


def test_bad_token_message(gh, settings):
    with pytest.raises(VcsAuthError) as info:
        run(gh, FixedReviewer(DIFF, []), settings, token="bad-" + GH_TOKEN)
    assert "GITHUB_TOKEN" in str(info.value) and GH_TOKEN not in str(info.value)


def test_pr_number_from_event(tmp_path):
    path = tmp_path / "event.json"
    path.write_text(json.dumps({"pull_request": {"number": 12}}))
    assert pr_number_from_event(str(path)) == 12
    path.write_text(json.dumps({"push": {}}))
    with pytest.raises(UserError, match="not about a pull request"):
        pr_number_from_event(str(path))
