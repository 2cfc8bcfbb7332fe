"""GitHub stage against a loopback server (REST v3 + GraphQL review threads)."""

from __future__ import annotations

import json

import pytest
from vcs_fakes import FakeGitHub
from vcs_support import CTX, DIFF, DIFF2, FAR, GH_TOKEN, NULL, PW, UTIL, ChattyReviewer, FixedReviewer

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


def run(server, reviewer, settings, token=GH_TOKEN, **kw):
    a = GitHubAdapter(GitHubTarget(server.url, server.repo, server.number), token, retry=FAST)
    return run_stage(a, reviewer, settings, **kw)


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


def test_the_job_log_counts_graphql_reads_as_reads(gh, settings):
    """`N API calls (M writes)`: the review-thread query is a POST that reads; a mutation writes."""
    run(gh, FixedReviewer(DIFF, [PW, CTX, UTIL]), settings)
    a = GitHubAdapter(GitHubTarget(gh.url, gh.repo, gh.number), GH_TOKEN, retry=FAST)
    mark = len(gh.log)
    run_stage(a, FixedReviewer(DIFF, [PW, CTX, UTIL]), settings)
    assert any(p == "/graphql" for _, p in gh.log[mark:])  # the threads were read
    assert a.client.writes == 0 and a.client.calls == len(gh.log) - mark
    gh.set_diff(DIFF2, head_sha="e" * 40)
    b = GitHubAdapter(GitHubTarget(gh.url, gh.repo, gh.number), GH_TOKEN, retry=FAST)
    mark = len(gh.log)
    run_stage(b, FixedReviewer(DIFF2, [CTX, UTIL, NULL]), settings)  # resolves a fixed thread: a mutation
    assert b.client.writes == len(writes(gh, mark)) + len(gh.mutations(mark)) > 0


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
    gh.roles["alice"] = "write"
    gh.human_review("break glass: hotfix")  # a review carries the commit it was submitted on
    review, r = run(gh, FixedReviewer(DIFF, [PW, CTX], Decision.SIGNIFICANT_CONCERNS), settings)
    assert review.decision == Decision.APPROVED and r.break_glass.author == "alice"
    assert r.break_glass.commit == gh.head_sha and "Break glass** by @alice on `hhhhhhhhhhhh`" in \
        gh.summary_comments()[0]["body"]


@pytest.mark.parametrize("who, role, why", [
    ("dev", "admin", "the author of the merge request cannot break the glass"),
    ("tom", "triage", "@tom has role triage (needs write)"),
    ("eve", None, "@eve has role none (needs write)"),
])
def test_break_glass_by_the_author_or_a_reader_is_ignored(gh, settings, who, role, why):
    if role:
        gh.roles[who] = role
    gh.human_review("break glass", author=who)
    events = []
    review, r = run(gh, FixedReviewer(DIFF, [PW], Decision.SIGNIFICANT_CONCERNS), settings, sink=events.append)
    assert review.decision == Decision.SIGNIFICANT_CONCERNS and r.break_glass is None
    assert any(n.startswith(f"break glass by @{who}") and why in n for n in r.notes), r.notes
    assert [e["author"] for e in events if e["event"] == "break_glass_refused"] == [who]
    assert "Break glass" not in gh.summary_comments()[0]["body"]


def test_github_break_glass_is_tied_to_the_head_commit(settings):
    head, later = "ab12" * 10, "cd34" * 10
    server = FakeGitHub(GH_TOKEN, diff=DIFF, head_sha=head)
    try:
        server.roles.update(alice="maintain", bob="write")
        server.human_comment("break glass please")  # a conversation comment records no commit
        review, r = run(server, FixedReviewer(DIFF, [PW], Decision.SIGNIFICANT_CONCERNS), settings)
        assert r.break_glass is None and any("name the head commit ('break glass ab12ab12ab12')" in n for n in r.notes)
        server.human_comment(f"break glass {head[:7]}", author="alice")  # too short: a vanity hash could match it
        review, r = run(server, FixedReviewer(DIFF, [PW], Decision.SIGNIFICANT_CONCERNS), settings)
        assert r.break_glass is None
        server.human_comment(f"break glass {head[:12]}", author="alice")
        review, r = run(server, FixedReviewer(DIFF, [PW], Decision.SIGNIFICANT_CONCERNS), settings)
        assert review.decision == Decision.APPROVED and (r.break_glass.author, r.break_glass.commit) == ("alice", head)
        server.human_review("break glass, checked with the on-call", author="bob")
        server.set_diff(DIFF2, head_sha=later)  # a new push: neither applies any more
        review, r = run(server, FixedReviewer(DIFF2, [NULL], Decision.SIGNIFICANT_CONCERNS), settings)
        assert review.decision == Decision.SIGNIFICANT_CONCERNS and r.break_glass is None
        assert any(f"written on {head[:12]}; the head is now {later[:12]}" in n for n in r.notes), r.notes
        assert any(f"names commit {head[:12]}, not the head" in n for n in r.notes), r.notes
        root = server.roots()[0]
        server.human_reply(root, "break glass: the new push is fine", author="bob")  # a review comment: its commit
        review, r = run(server, FixedReviewer(DIFF2, [NULL], Decision.SIGNIFICANT_CONCERNS), settings)
        assert review.decision == Decision.APPROVED and (r.break_glass.author, r.break_glass.commit) == ("bob", later)
        assert sum(1 for _, p in server.log if p.endswith("/permission")) == 2  # asked once a run per person
    finally:
        server.close()


def test_github_rerun_writes_nothing_and_the_words_reach_the_reviewers(settings):
    server = FakeGitHub(GH_TOKEN, diff=DIFF, title="Store the password", body="Keeps it in code.",
                        commits=("Add Util", "Add a password field"))
    try:
        reviewer = ChattyReviewer(DIFF, [PW, CTX, UTIL, FAR], Decision.MINOR_ISSUES)
        run(server, reviewer, settings)
        assert (reviewer.info.title, reviewer.info.description) == ("Store the password", "Keeps it in code.")
        assert reviewer.info.commit_messages == ("Add Util", "Add a password field")
        body = server.summary_comments()[0]["body"]
        assert "indexed 81" not in body and "$0.0021" in body
        mark = len(server.log)
        _, r = run(server, reviewer, settings)
        assert writes(server, mark) == [] and r.summary == "unchanged"
        assert not [p for m, p in server.log[mark:] if p == "/graphql" and m == "POST"][2:]  # thread reads only
    finally:
        server.close()


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
