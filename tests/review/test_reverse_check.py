"""The reverse check (review/reverse.py): a warning the reviewer also raises about the change undone
is dropped; one it does not raise there stays; a reverse call that fails loses nothing."""

from __future__ import annotations

from dualrag.config import load_settings
from dualrag.diff import ingest
from dualrag.pipeline import run_chunking, run_review
from dualrag.review.prompt import RawFinding, numbered_diff
from dualrag.review.reverse import echoed, reversed_chunk

from .conftest import PATH, answer, finding


def _chunk(java_diff):
    settings = load_settings(None)
    return run_chunking(ingest(java_diff, settings), settings)[0].chunks[0]


def _user_text(request) -> str:
    return "\n".join(str(m.get("content")) for m in request.json["messages"] if m["role"] == "user")


def test_the_reversed_chunk_shows_the_old_code_as_added_with_old_numbers(java_diff):
    chunk = _chunk(java_diff)
    undone = reversed_chunk(chunk)
    forward, backward = numbered_diff(chunk.hunks), numbered_diff(undone.hunks)
    assert "     5 +         int sum = a - b;" in forward and "       -         return a + b;" in forward
    assert "     5 +         return a + b;" in backward and "       -         int sum = a - b;" in backward
    # removed before added, as a diff tool writes the change undone
    assert backward.index("-         return sum;") < backward.index("+         return a + b;")
    assert undone.members == () and [h.new_start for h in undone.hunks] == [h.old_start for h in chunk.hunks]


def test_only_warnings_echoed_in_the_same_hunk_count(java_diff):
    chunk = _chunk(java_diff)
    mine = [RawFinding(path=PATH, line=5, severity="warning", title="subtracts"),
            RawFinding(path=PATH, line=5, severity="suggestion", title="naming")]
    assert echoed(mine, chunk, [RawFinding(path=PATH, line=5, severity="critical", title="x")]) == mine[:1]
    assert echoed(mine, chunk, [RawFinding(path=PATH, line=5, severity="suggestion", title="x")]) == []
    assert echoed(mine, chunk, [RawFinding(path="src/Other.java", line=5, severity="warning", title="x")]) == []
    assert echoed(mine, chunk, [RawFinding(path=PATH, line=40, severity="warning", title="x")]) == []


def test_a_warning_raised_against_the_change_undone_too_is_dropped(oai, llm_settings, java_diff):
    oai.responder = lambda r: oai.chat(answer(finding(5, title="wrong operator")))
    review = run_review(java_diff, llm_settings(reverse_check=True))
    assert len(oai.requests) == 2
    assert "+         return a + b;" in _user_text(oai.requests[1])  # the second call saw the change undone
    assert not [f for f in review.findings if f.source == "llm"]
    assert any("reverse check: 1 finding(s) dropped" in n for n in review.notes)


def test_a_warning_the_change_undone_does_not_draw_stays(oai, llm_settings, java_diff):
    oai.enqueue(oai.chat(answer(finding(5, title="wrong operator"))), oai.chat(answer()))
    review = run_review(java_diff, llm_settings(reverse_check=True))
    assert len(oai.requests) == 2
    assert [f.title for f in review.findings if f.source == "llm"] == ["wrong operator"]


def test_a_failed_reverse_call_keeps_the_findings_and_quiet_answers_cost_no_call(oai, llm_settings, java_diff):
    oai.enqueue(oai.chat(answer(finding(5, title="wrong operator"))), oai.error(400, "bad request"))
    review = run_review(java_diff, llm_settings(reverse_check=True))
    assert [f.title for f in review.findings if f.source == "llm"] == ["wrong operator"]
    oai.requests.clear()
    oai.enqueue(oai.chat(answer(finding(5, severity="suggestion"))))
    run_review(java_diff, llm_settings(reverse_check=True))
    assert len(oai.requests) == 1  # nothing at warning level: nothing to check
