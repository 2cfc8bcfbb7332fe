"""Learning from feedback across merge requests: recorded from threads by the MR stage, applied by
the coordinator of later reviews, managed with `dualrag feedback list|forget|stats`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from vcs_fakes import FakeGitLab
from vcs_support import DIFF, DIFF2, PW, TOKEN, UTIL, FixedReviewer

from dualrag.cli.main import main
from dualrag.config import load_settings
from dualrag.diff import ingest
from dualrag.feedback import FeedbackRecord, FeedbackScope, Outcome
from dualrag.findings import Finding
from dualrag.pipeline import Conversation, run_review
from dualrag.review.feedback import load_memory
from dualrag.store.feedback import open_feedback_store
from dualrag.vcs.anchoring import DiffIndex
from dualrag.vcs.gitlab import GitLabAdapter, GitLabTarget
from dualrag.vcs.http import RetryPolicy
from dualrag.vcs.stage import run_stage

FAST = RetryPolicy(attempts=2, budget_s=1.0, base_delay_s=0.001, max_delay_s=0.01)
REPO = "acme_shop"
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "partner-order-mr" / "change.diff"


@pytest.fixture
def fb_settings(tmp_path):
    return load_settings(None, store=str(tmp_path / "store"))


@pytest.fixture
def gl():
    server = FakeGitLab(TOKEN, diff=DIFF)
    yield server
    server.close()


def stage(server, reviewer, settings, mr="!7"):
    adapter = GitLabAdapter(GitLabTarget(server.url, server.project, server.iid), TOKEN, retry=FAST)
    return run_stage(adapter, reviewer, settings, feedback=FeedbackScope(REPO, mr))


def stored(settings) -> list[FeedbackRecord]:
    with open_feedback_store(settings.store, settings.qdrant) as fs:
        return [r for _, r, _ in fs.records(REPO)]


def placed(finding: Finding, diff: str, settings) -> Finding:
    """The finding as the coordinator hands it on: with its fingerprint."""
    return finding.model_copy(update={"fingerprint": DiffIndex(ingest(diff.encode(), settings)).place(finding).fingerprint})


def util_thread(server):
    return next(d for d in server.bot_threads() if "JAVA-7" in d["notes"][0]["body"])


def test_wont_fix_is_recorded_then_suppresses_on_another_mr_until_forgotten(gl, fb_settings, capsys):
    stage(gl, FixedReviewer(DIFF, [PW, UTIL]), fb_settings)
    assert not (Path(fb_settings.store) / "collection").exists() or stored(fb_settings) == []  # nothing said yet
    gl.human_note("won't fix: this constant is fine", discussion=util_thread(gl))
    _, result = stage(gl, FixedReviewer(DIFF, [PW, UTIL]), fb_settings)
    (rec,) = stored(fb_settings)
    assert (rec.outcome, rec.rule_id, rec.mr, rec.path) == (Outcome.WONT_FIX, "JAVA-7", "!7", "src/Util.java")
    assert rec.code == "static int x = 1;" and rec.message == "Static field x is not final." and rec.title
    assert any("recorded 1 new (1 wont_fix)" in n for n in result.notes), result.notes

    assert load_memory(fb_settings, FeedbackScope(REPO, "!7")).memory is None  # the MR's own threads decide there
    memory = load_memory(fb_settings, FeedbackScope(REPO, "!8")).memory
    again = placed(UTIL, DIFF, fb_settings)
    other = placed(PW, DIFF, fb_settings)
    code = DiffIndex(ingest(DIFF.encode(), fb_settings)).code
    out = memory.apply([again, other], code)
    assert out.findings == [other] and out.dropped == 1
    assert out.notes == ["src/Util.java:2 suppressed: dismissed once before (won't fix on !7)"]

    code, out, _ = run(["feedback", "list", "--store", str(fb_settings.store), "--format", "json"], capsys)
    assert code == 0
    (row,) = json.loads(out)
    code, out, _ = run(["feedback", "forget", row["id"][:8], "--store", str(fb_settings.store)], capsys)
    assert code == 0 and "forgot 1 record(s) of acme_shop" in out
    assert load_memory(fb_settings, FeedbackScope(REPO, "!8")).memory is None


def test_recording_again_writes_nothing(gl, fb_settings):
    stage(gl, FixedReviewer(DIFF, [PW, UTIL]), fb_settings)
    gl.human_note("wontfix", discussion=util_thread(gl))
    stage(gl, FixedReviewer(DIFF, [PW, UTIL]), fb_settings)
    _, result = stage(gl, FixedReviewer(DIFF, [PW, UTIL]), fb_settings)
    assert len(stored(fb_settings)) == 1 and not any("feedback" in n for n in result.notes)


def test_fixed_by_a_push_is_an_acceptance_that_keeps_the_rule(gl, fb_settings):
    stage(gl, FixedReviewer(DIFF, [PW, UTIL]), fb_settings)
    gl.set_diff(DIFF2, head_sha="e" * 40)
    _, result = stage(gl, FixedReviewer(DIFF2, [UTIL]), fb_settings)  # the password line is gone
    assert result.resolved_fixed == 1
    (rec,) = stored(fb_settings)
    assert (rec.outcome, rec.rule_id) == (Outcome.FIXED, "SEC-001")
    # a dismissal of the same rule on the same kind of code does not outweigh the fix
    pw = placed(PW, DIFF, fb_settings)
    dismissal = FeedbackRecord(repository=REPO, fingerprint="x" * 20, outcome=Outcome.WONT_FIX, rule_id="SEC-001",
                               category="security", title=rec.title, message=rec.message, mr="!3",
                               code='String pw = "secret";')
    accepted = rec.model_copy(update={"code": 'String pw = "secret";'})
    from dualrag.embedding import get_embedder

    with open_feedback_store(fb_settings.store, fb_settings.qdrant) as fs:
        fs.forget(REPO, everything=True)
        fs.record(REPO, [dismissal, accepted], get_embedder(config=fb_settings.embedding))
    memory = load_memory(fb_settings, FeedbackScope(REPO, "!9")).memory
    out = memory.apply([pw], DiffIndex(ingest(DIFF.encode(), fb_settings)).code)
    assert out.findings == [pw] and out.dropped == 0


def test_resolved_by_a_human_without_a_change_is_a_dismissal(gl, fb_settings):
    stage(gl, FixedReviewer(DIFF, [PW, UTIL]), fb_settings)
    gl.resolve(util_thread(gl), by="alice")
    stage(gl, FixedReviewer(DIFF, [PW, UTIL]), fb_settings)
    (rec,) = stored(fb_settings)
    assert rec.outcome == Outcome.RESOLVED_BY_USER and rec.code == "static int x = 1;"


def test_the_review_drops_what_was_dismissed_and_keeps_criticals_uncounted(fb_settings):
    diff = EXAMPLE.read_bytes()
    first = run_review(diff, fb_settings)
    by_rule = {f.rule_id: f for f in first.findings}
    from dualrag.embedding import get_embedder

    records = [FeedbackRecord(repository=REPO, fingerprint=by_rule[rule].fingerprint, outcome=Outcome.WONT_FIX,
                              rule_id=rule, category=by_rule[rule].category, title=by_rule[rule].title,
                              message=by_rule[rule].message, mr="!12")
               for rule in ("JAVA-PART-001", "JAVA-MONEY-001")]
    with open_feedback_store(fb_settings.store, fb_settings.qdrant) as fs:
        assert fs.record(REPO, records, get_embedder(config=fb_settings.embedding)) == (2, 0)
    again = run_review(diff, fb_settings, conversation=Conversation(feedback=FeedbackScope(REPO, "!13")))
    rules = {f.rule_id: f for f in again.findings}
    assert "JAVA-PART-001" not in rules and rules["JAVA-MONEY-001"].counted is False  # critical: kept, not counted
    assert again.dropped.get("suppressed_by_feedback") == 1
    assert any("suppressed: dismissed once before (won't fix on !12)" in n for n in again.notes)
    off = fb_settings.model_copy(update={"feedback": fb_settings.feedback.model_copy(update={"enabled": False})})
    assert len(run_review(diff, off, conversation=Conversation(feedback=FeedbackScope(REPO))).findings) == len(
        first.findings)


def run(args, capsys) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        main(args)
    out, err = capsys.readouterr()
    return info.value.code, out, err


def test_cli_exit_codes(fb_settings, capsys):
    store = ["--store", str(fb_settings.store)]
    code, _, err = run(["feedback", "list", *store], capsys)
    assert code == 2 and "name the repository with --repository (recorded: none)" in err  # one line, no traceback
    assert run(["feedback", "stats", *store], capsys)[0] == 0
    from dualrag.embedding import get_embedder

    rec = FeedbackRecord(repository=REPO, fingerprint="f" * 20, outcome=Outcome.DISAGREED, rule_id="R-1",
                         category="rule", title="t", message="m", mr="!1")
    with open_feedback_store(fb_settings.store, fb_settings.qdrant) as fs:
        fs.record(REPO, [rec], get_embedder(config=fb_settings.embedding))
    code, out, _ = run(["feedback", "stats", *store, "--format", "json"], capsys)
    assert code == 0 and json.loads(out)[0]["outcomes"] == {"disagreed": 1}
    code, out, _ = run(["feedback", "list", *store], capsys)
    assert code == 0 and "disagreed" in out and "R-1" in out
    assert run(["feedback", "forget", *store], capsys)[0] == 2  # what to forget?
    assert run(["feedback", "forget", "zzzz", *store], capsys)[0] == 2  # no such id
    assert run(["feedback", "list", "--repository", "other", *store], capsys)[0] == 2
    code, out, err = run(["feedback", "list", "--repo", REPO, *store], capsys)  # the old name, hidden
    assert code == 0 and "R-1" in out and "--repo is deprecated here: use --repository" in err
    assert run(["feedback", "forget", "--rule", "R-2", *store], capsys)[0] == 2
    code, out, _ = run(["feedback", "forget", "--rule", "R-1", *store], capsys)
    assert code == 0 and "forgot 1 record(s)" in out
