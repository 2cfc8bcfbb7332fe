"""GitLab stage against a loopback server that validates like the REST API v4."""

from __future__ import annotations

import logging

import pytest
from vcs_fakes import FakeGitLab
from vcs_support import CTX, DIFF, DIFF2, FAR, NULL, PW, TOKEN, UTIL, ChattyReviewer, FixedReviewer

from dualrag.review.model import Decision
from dualrag.vcs.gitlab import GitLabAdapter, GitLabTarget
from dualrag.vcs.http import RetryPolicy, VcsAuthError, VcsError, VcsNotFound
from dualrag.vcs.model import ThreadState
from dualrag.vcs.stage import run_stage

FAST = RetryPolicy(attempts=4, budget_s=2.0, base_delay_s=0.001, max_delay_s=0.01)


@pytest.fixture
def gl():
    server = FakeGitLab(TOKEN, diff=DIFF)
    yield server
    server.close()


def adapter(server, token=TOKEN, retry=FAST):
    return GitLabAdapter(GitLabTarget(server.url, server.project, server.iid), token, retry=retry)


def run(server, reviewer, settings, **kw):
    a = adapter(server)
    review, result = run_stage(a, reviewer, settings, **kw)
    return review, result, a


def writes(server, since=0):
    return [(m, p) for m, p in server.log[since:] if m != "GET"]


def test_first_review_posts_positions_summary_and_approval(gl, settings):
    _, r, a = run(gl, FixedReviewer(DIFF, [PW, CTX, UTIL, FAR]), settings)
    assert r.posted == 3 and r.unanchored == ["src/App.java:40"]
    positions = {d["notes"][0]["position"]["new_line"]: d["notes"][0]["position"] for d in gl.bot_threads()}
    assert positions[3]["old_line"] is None if "old_line" in positions[3] else True
    assert positions[4]["old_line"] == 3  # a context line carries both sides
    assert positions[3]["base_sha"] == "b" * 40 and positions[3]["head_sha"] == "h" * 40
    assert positions[2]["new_path"] == positions[2]["old_path"] == "src/Util.java"
    (summary,) = gl.summary_notes()
    assert "Far away" in summary["body"] and "approved with comments" in summary["body"]
    assert gl.bot in gl.approved_by and r.approval == "approved"
    assert "<!-- dualrag:finding fp=" in gl.bot_threads()[0]["notes"][0]["body"]


def test_second_run_on_same_commit_writes_nothing(gl, settings):
    run(gl, FixedReviewer(DIFF, [PW, CTX, UTIL, FAR]), settings)
    mark = len(gl.log)
    _, r, _ = run(gl, FixedReviewer(DIFF, [PW, CTX, UTIL, FAR]), settings)
    assert writes(gl, mark) == [] and r.posted == 0 and r.kept == 3 and r.summary == "unchanged"


def test_rerun_of_a_real_run_writes_nothing_and_keeps_operator_notes_off_the_mr(gl, settings):
    """Operator notes and this run's usage differ between runs of one commit: the job log gets
    them, the summary shows the usage of the run that wrote it and is left alone."""
    gl.access["oncall"] = 40
    gl.human_note("break glass", author="oncall")
    gl.human_note("break glass", author="dev")  # refused: the author; said in the job log only
    reviewer = ChattyReviewer(DIFF, [PW, CTX, UTIL, FAR], Decision.SIGNIFICANT_CONCERNS)
    _, first, _ = run(gl, reviewer, settings)
    body = gl.summary_notes()[0]["body"]
    assert "indexed 81" not in body and "reranking" not in body and "estimator" not in body
    assert "src/App.java:3 settled on an earlier push" in body  # about the change: stays on the MR
    assert "LLM usage of the run that wrote this summary: 2 request(s) · 1,001 tokens in · 50 out · $0.0021" in body
    assert any("indexed 81" in n for n in first.notes) and any("@dev" in n for n in first.notes)
    mark = len(gl.log)
    _, again, _ = run(gl, reviewer, settings)
    assert writes(gl, mark) == [] and again.summary == "unchanged" and again.approval == "unchanged"
    assert gl.summary_notes()[0]["body"] == body


def test_position_refused_400_falls_back_to_summary_and_is_not_retried(gl, settings):
    gl.fault("POST", r"/discussions$", 400, body={"message": "400 Bad request - Note {:line_code=>[\"invalid\"]}"})
    _, r, _ = run(gl, FixedReviewer(DIFF, [PW]), settings)
    assert r.posted == 0 and r.unanchored == ["src/App.java:3"]
    assert "Hard-coded password" in gl.summary_notes()[0]["body"]
    mark = len(gl.log)
    run(gl, FixedReviewer(DIFF, [PW]), settings)
    assert writes(gl, mark) == []  # the refused finding is not tried again on this commit


def test_line_outside_server_diff_gets_400_and_falls_back(gl, settings):
    gl.set_diff(DIFF.replace("+  static int x = 1;\n", "+  static int x = 1; \n"))
    gl.lines["src/Util.java"]["new"].pop(2)  # the server's diff disagrees with ours
    _, r, _ = run(gl, FixedReviewer(DIFF, [PW, UTIL]), settings)
    assert r.posted == 1 and r.unanchored == ["src/Util.java:2"]


def test_rereview_resolves_fixed_keeps_unfixed_posts_new_only(gl, settings):
    run(gl, FixedReviewer(DIFF, [PW, CTX, UTIL]), settings)
    gl.set_diff(DIFF2, head_sha="e" * 40)
    mark = len(gl.log)
    _, r, _ = run(gl, FixedReviewer(DIFF2, [CTX, UTIL, NULL]), settings)
    assert (r.posted, r.kept, r.resolved_fixed) == (1, 2, 1)
    pw = next(d for d in gl.bot_threads() if "SEC-001" in d["notes"][0]["body"])
    assert pw["notes"][0]["resolved"] and "no longer reported at eeeeeeee" in pw["notes"][-1]["body"]
    w = writes(gl, mark)
    # one new thread, one reply + one resolve, the summary update; nothing else
    assert sorted(m for m, _ in w) == ["POST", "POST", "PUT", "PUT"], w


def test_replies_wont_fix_disagree_and_user_resolution(gl, settings):
    run(gl, FixedReviewer(DIFF, [PW, CTX, UTIL]), settings)
    by_line = {d["notes"][0]["position"]["new_line"]: d for d in gl.bot_threads()}
    gl.human_note("Won't fix: legacy API.", discussion=by_line[4])
    gl.human_note("I disagree, this is a test fixture password.", author="bob", discussion=by_line[3])
    gl.resolve(by_line[2], by="carol")
    reviewer = FixedReviewer(DIFF, [PW, CTX, UTIL])
    _, r, _ = run(gl, reviewer, settings)
    states = {p.line: p for p in reviewer.priors}
    assert states[3].state == ThreadState.DISAGREED and "test fixture" in states[3].reply
    assert states[3].reply_author == "bob"
    assert states[4].state == ThreadState.WONT_FIX and states[2].state == ThreadState.RESOLVED_BY_USER
    assert (r.resolved_by_reply, r.answered, r.reopened) == (1, 1, 0)
    fresh = {d["notes"][0]["position"]["new_line"]: d for d in gl.bot_threads()}
    assert fresh[4]["notes"][0]["resolved"] and fresh[2]["notes"][0]["resolved"]
    assert "Still reported" in fresh[3]["notes"][-1]["body"]
    mark = len(gl.log)
    _, r, _ = run(gl, FixedReviewer(DIFF, [PW, CTX, UTIL]), settings)
    assert writes(gl, mark) == [] and r.answered == 0  # answered once only
    # the user-resolved finding got clearly worse: reopened
    worse = UTIL.model_copy(update={"severity": "critical"})
    _, r, _ = run(gl, FixedReviewer(DIFF, [PW, CTX, worse]), settings)
    assert r.reopened == 1 and not gl.bot_threads()[2]["notes"][0]["resolved"]


def test_disagreement_conceded_when_finding_goes(gl, settings):
    run(gl, FixedReviewer(DIFF, [PW]), settings)
    gl.human_note("I disagree", discussion=gl.bot_threads()[0])
    _, r, _ = run(gl, FixedReviewer(DIFF, []), settings)
    assert r.conceded == 1 and "Conceded" in gl.bot_threads()[0]["notes"][-1]["body"]


def test_significant_concerns_unapproves_and_blocks_then_unblocks(gl, settings):
    run(gl, FixedReviewer(DIFF, [CTX]), settings)
    assert gl.bot in gl.approved_by
    _, r, _ = run(gl, FixedReviewer(DIFF, [PW, CTX], Decision.SIGNIFICANT_CONCERNS), settings)
    assert gl.bot not in gl.approved_by and "unapproved" in r.approval
    blocking = [d for d in gl.discussions if "dualrag:blocking" in d["notes"][0]["body"]]
    assert len(blocking) == 1 and not blocking[0]["notes"][0]["resolved"]
    mark = len(gl.log)
    run(gl, FixedReviewer(DIFF, [PW, CTX], Decision.SIGNIFICANT_CONCERNS), settings)
    assert writes(gl, mark) == []
    run(gl, FixedReviewer(DIFF, [CTX], Decision.MINOR_ISSUES), settings)
    blocking = [d for d in gl.discussions if "dualrag:blocking" in d["notes"][0]["body"]]
    assert blocking[0]["notes"][0]["resolved"] and gl.bot not in gl.approved_by


def test_break_glass_forces_approval_and_is_reported(gl, settings):
    gl.access["oncall"] = 40  # Maintainer
    gl.human_note("Prod is down, BREAK  GLASS please", author="oncall")
    events = []
    review, r, _ = run(gl, FixedReviewer(DIFF, [PW], Decision.SIGNIFICANT_CONCERNS), settings, sink=events.append)
    assert review.decision == Decision.APPROVED and r.break_glass.author == "oncall"
    assert r.break_glass.commit == "h" * 40
    summary = gl.summary_notes()[0]["body"]
    assert gl.bot in gl.approved_by and "Break glass** by @oncall on `hhhhhhhhhhhh`" in summary
    assert any(e["event"] == "break_glass" and e["author"] == "oncall" and e["commit"] == "h" * 40 for e in events)
    assert not [d for d in gl.discussions if "dualrag:blocking" in d["notes"][0]["body"]]


@pytest.mark.parametrize("who, level, why", [
    ("dev", 40, "the author of the merge request cannot break the glass"),   # the MR's author, a Maintainer
    ("bob", 30, "@bob has Developer (30) (needs Maintainer (40))"),
    ("eve", None, "@eve has no membership (needs Maintainer (40))"),
])
def test_break_glass_by_the_author_or_a_developer_is_ignored(gl, settings, who, level, why):
    if level:
        gl.access[who] = level
    gl.human_note("break glass", author=who)
    events = []
    review, r, _ = run(gl, FixedReviewer(DIFF, [PW], Decision.SIGNIFICANT_CONCERNS), settings, sink=events.append)
    assert review.decision == Decision.SIGNIFICANT_CONCERNS and r.break_glass is None
    assert any(why in n and n.startswith(f"break glass by @{who}") for n in r.notes), r.notes
    assert [e["reason"] for e in events if e["event"] == "break_glass_refused"] == [next(n for n in r.notes
                                                                                          if why in n).split(": ", 1)[1]]
    summary = gl.summary_notes()[0]["body"]
    assert "Break glass" not in summary and who not in summary  # the job log says it, not the MR
    assert gl.bot not in gl.approved_by


def test_the_configured_access_level_decides(gl, settings):
    gl.access["bob"] = 30
    gl.human_note("break glass", author="bob")
    lenient = settings.model_copy(update={"vcs": settings.vcs.model_copy(update={"gitlab_break_glass_access": 30})})
    review, r, _ = run(gl, FixedReviewer(DIFF, [PW], Decision.SIGNIFICANT_CONCERNS), lenient)
    assert review.decision == Decision.APPROVED and r.break_glass.author == "bob"


def test_a_new_push_needs_a_new_break_glass(gl, settings):
    gl.access.update(oncall=40, lead=50)
    gl.human_note("break glass: hotfix for the outage", author="oncall")
    review, r, _ = run(gl, FixedReviewer(DIFF, [PW], Decision.SIGNIFICANT_CONCERNS), settings)
    assert review.decision == Decision.APPROVED
    gl.set_diff(DIFF2, head_sha="e" * 40)  # the author pushes again: a new MR diff version
    review, r, _ = run(gl, FixedReviewer(DIFF2, [NULL], Decision.SIGNIFICANT_CONCERNS), settings)
    assert review.decision == Decision.SIGNIFICANT_CONCERNS and r.break_glass is None
    assert gl.bot not in gl.approved_by and "Break glass" not in gl.summary_notes()[0]["body"]
    assert any("written before eeeeeeeeeeee was pushed" in n for n in r.notes), r.notes
    gl.human_note("break glass again, reviewed the new push", author="lead")
    review, r, _ = run(gl, FixedReviewer(DIFF2, [NULL], Decision.SIGNIFICANT_CONCERNS), settings)
    assert review.decision == Decision.APPROVED and (r.break_glass.author, r.break_glass.commit) == ("lead", "e" * 40)
    assert sum(1 for m, p in gl.log if p.endswith("/versions")) == 3  # asked only when a break glass was there


def test_break_glass_naming_a_commit_holds_for_that_commit_only(settings):
    head, later = "c0ffee" + "1" * 34, "d00d" + "2" * 36
    server = FakeGitLab(TOKEN, diff=DIFF, head_sha=head)
    try:
        server.access["oncall"] = 40
        server.set_diff(DIFF2, head_sha=later)
        server.set_diff(DIFF, head_sha=head)  # force-pushed back: the note names the head again
        server.human_note(f"break glass for {head[:8]}", author="oncall")
        review, r, _ = run(server, FixedReviewer(DIFF, [PW], Decision.SIGNIFICANT_CONCERNS), settings)
        assert review.decision == Decision.APPROVED and r.break_glass.commit == head
        server.set_diff(DIFF2, head_sha=later)
        review, r, _ = run(server, FixedReviewer(DIFF2, [PW], Decision.SIGNIFICANT_CONCERNS), settings)
        assert r.break_glass is None and any(f"names commit {head[:8]}, not the head" in n for n in r.notes)
    finally:
        server.close()


def test_the_merge_requests_words_reach_the_reviewers(settings):
    server = FakeGitLab(TOKEN, diff=DIFF, title="Store the password", description="Keeps the DB password in code.",
                        commits=("Add Util", "Add a password field\n\nNeeded by the importer."))
    try:
        reviewer = FixedReviewer(DIFF, [PW])
        run(server, reviewer, settings)
        info = reviewer.info
        assert (info.title, info.description) == ("Store the password", "Keeps the DB password in code.")
        assert info.commit_messages == ("Add Util", "Add a password field\n\nNeeded by the importer.")
    finally:
        server.close()


def test_summary_deleted_by_human_is_recreated_and_edits_are_overwritten(gl, settings):
    run(gl, FixedReviewer(DIFF, [PW]), settings)
    gl.discussions = [d for d in gl.discussions if "dualrag:summary" not in d["notes"][0]["body"]]
    _, r, _ = run(gl, FixedReviewer(DIFF, [PW]), settings)
    assert r.summary == "created" and len(gl.summary_notes()) == 1
    gl.summary_notes()[0]["body"] += "\nhuman scribble"
    _, r, _ = run(gl, FixedReviewer(DIFF, [PW]), settings)
    assert r.summary == "updated" and len(gl.summary_notes()) == 1


def test_summary_deleted_between_read_and_write_is_recreated(gl, settings):
    run(gl, FixedReviewer(DIFF, [PW]), settings)
    gl.fault("PUT", r"/notes/\d+$", 404)
    _, r, _ = run(gl, FixedReviewer(DIFF, [PW, CTX]), settings)
    assert r.summary == "created"


def test_bot_comment_edited_by_human_is_not_posted_twice(gl, settings):
    run(gl, FixedReviewer(DIFF, [PW]), settings)
    note = gl.bot_threads()[0]["notes"][0]
    note["body"] = note["body"].replace("A password literal is in code.", "(edited by alice) fine for now")
    mark = len(gl.log)
    _, r, _ = run(gl, FixedReviewer(DIFF, [PW]), settings)
    assert r.posted == 0 and writes(gl, mark) == []


def test_pagination_of_discussions(settings):
    server = FakeGitLab(TOKEN, diff=DIFF, per_page_max=2)
    try:
        for i in range(7):
            server.human_note(f"chatter {i}")
        run(server, FixedReviewer(DIFF, [PW, CTX, UTIL]), settings)
        mark = len(server.log)
        _, r, _ = run(server, FixedReviewer(DIFF, [PW, CTX, UTIL]), settings)
        assert writes(server, mark) == [] and r.kept == 3
        pages = [p for m, p in server.log[mark:] if p.endswith("/discussions")]
        assert len(pages) == 6  # 11 discussions, 2 per page
    finally:
        server.close()


@pytest.mark.parametrize("status", [409, 429, 500, 502, 503])
def test_transient_errors_are_retried(gl, settings, status):
    gl.fault("POST", r"/discussions$", status, times=2, headers={"Retry-After": "0"} if status == 429 else None)
    _, r, a = run(gl, FixedReviewer(DIFF, [PW]), settings)
    assert r.posted == 1 and len(gl.bot_threads()) == 1


def test_retries_stop_at_the_budget(gl, settings):
    gl.fault("GET", r"/merge_requests/7$", 503, times=100)
    with pytest.raises(VcsError, match="HTTP 503 after retries"):
        run(gl, FixedReviewer(DIFF, [PW]), settings)
    assert sum(1 for m, p in gl.log if p.endswith("/merge_requests/7")) == FAST.attempts


def test_401_403_404_are_clear_and_never_show_the_token(gl, settings, caplog):
    caplog.set_level(logging.DEBUG)
    with pytest.raises(VcsAuthError) as info:
        run_stage(adapter(gl, token="wrong-" + TOKEN), FixedReviewer(DIFF, [PW]), settings)
    assert "DUALRAG_GITLAB_TOKEN" in str(info.value) and "401" in str(info.value)
    assert TOKEN not in str(info.value) and TOKEN not in caplog.text
    gl.forbidden = True
    with pytest.raises(VcsAuthError, match="403 .*permission"):
        run(gl, FixedReviewer(DIFF, [PW]), settings)
    gl.forbidden, gl.mr_exists = False, False
    with pytest.raises(VcsNotFound, match="404"):
        run(gl, FixedReviewer(DIFF, [PW]), settings)


def test_api_diff_when_there_is_no_checkout(gl, settings):
    reviewer = FixedReviewer(DIFF, [PW])
    _, r, _ = run(gl, reviewer, settings)
    seen = reviewer.sources[0].diff.decode()
    assert "+  String pw = \"secret\";" in seen and "diff --git a/src/Util.java b/src/Util.java" in seen
    assert reviewer.sources[0].read_file is None and r.posted == 1
