"""The merge-request stage, platform-neutral: read the MR, review, publish, decide.

    state  = adapter.load()                      threads, summary, approval, human notes
    priors = [thread.prior() ...]                -> the review function (coordinator input)
    review = review_fn(diff, priors)
    break glass?  -> decision forced to approved, reported in the summary and telemetry
    plan   = sync.plan(placed findings, threads) -> post / keep / resolve / reopen / answer
    summary note upserted (unchanged bytes = no call), then the approval decision
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from dualrag.config import Settings
from dualrag.diff import ingest
from dualrag.review.model import Decision, Review
from dualrag.vcs import markers
from dualrag.vcs.anchoring import DiffIndex
from dualrag.vcs.model import BreakGlass, PriorFinding, PublishResult
from dualrag.vcs.render import blocking_body, finding_body, summary_body
from dualrag.vcs.replies import breaks_glass
from dualrag.vcs.state import Adapter, HumanNote, MRState
from dualrag.vcs.sync import plan as make_plan

ReviewFn = Callable[[bytes, Sequence[PriorFinding]], Review]
EventSink = Callable[[dict[str, Any]], None]
DEFAULT_BREAK_GLASS = "break glass"


def find_break_glass(notes: Sequence[HumanNote], phrase: str) -> BreakGlass | None:
    for n in notes:
        if breaks_glass(n.body, phrase):
            return BreakGlass(author=n.author, note_id=n.note_id, text=n.body.strip()[:200])
    return None


def run_stage(adapter: Adapter, review_fn: ReviewFn, settings: Settings, *,
              diff: bytes | Callable[[MRState], bytes | None] | None = None,
              break_glass_phrase: str = DEFAULT_BREAK_GLASS, dry_run: bool = False,
              sink: EventSink | None = None) -> tuple[Review, PublishResult]:
    started = time.perf_counter()
    state = adapter.load()
    if callable(diff):
        diff = diff(state)  # the CI checkout; None when it cannot give this MR's diff
    if diff is None:
        diff = adapter.diff()
    priors = [t.prior() for t in state.threads]
    vcs_before = adapter.client.elapsed_s
    review = review_fn(diff, priors)
    review_s = time.perf_counter() - started - vcs_before
    bg = find_break_glass(state.human_notes, break_glass_phrase) if break_glass_phrase else None
    if bg is not None and review.decision != Decision.APPROVED:
        review = review.model_copy(update={
            "decision": Decision.APPROVED,
            "notes": [*review.notes, f"break glass by @{bg.author}: decision {review.decision} overridden to approved"],
        })
        if sink:
            sink({"event": "break_glass", "platform": adapter.platform, "author": bg.author, "note_id": bg.note_id,
                  "head_sha": state.head_sha, "ts": time.time()})
    result = publish(adapter, state, review, diff, settings, dry_run=dry_run, break_glass=bg)
    if sink:
        sink({"event": "vcs_publish", "platform": adapter.platform, "decision": result.decision,
              "posted": result.posted, "resolved": result.resolved_fixed + result.resolved_by_reply,
              "api_calls": adapter.client.calls, "vcs_ms": round(adapter.client.elapsed_s * 1000, 1),
              "review_ms": round(review_s * 1000, 1)})
    return review, result


def publish(adapter: Adapter, state: MRState, review: Review, diff: bytes, settings: Settings, *,
            dry_run: bool = False, break_glass: BreakGlass | None = None) -> PublishResult:
    index = DiffIndex(ingest(diff, settings))
    placed = [index.place(f) for f in review.findings]
    plan = make_plan(placed, state.threads, state.head_sha)
    result = PublishResult(decision=str(review.decision), kept=len(plan.keep) - len(plan.reopen),
                           break_glass=break_glass)
    unanchored = list(plan.unanchored)
    refused = markers.parse_unanchored(state.summary_body, state.head_sha)  # 400s of an earlier run: not retried
    if dry_run:
        result.posted = len(plan.post)
        result.unanchored = [f"{p.finding.path}:{p.finding.line}" for p in unanchored]
        result.api_calls = adapter.client.calls
        return result
    for p in plan.post:
        if p.fingerprint in refused:
            unanchored.append(p)
        elif adapter.post_finding(state, p, finding_body(p, state.head_sha)):
            result.posted += 1
        else:  # 400: the platform says the line is not in its diff
            unanchored.append(p)
    for a in plan.resolve_fixed:
        adapter.reply(a.thread, a.body, resolve=True)
    for a in plan.resolve_reply:
        adapter.reply(a.thread, a.body, resolve=True)
    for a in plan.concede:
        adapter.reply(a.thread, a.body, resolve=True)
    for a in plan.reopen:
        adapter.reply(a.thread, a.body, resolve=False)
    for a in plan.answer:
        adapter.reply(a.thread, a.body, resolve=None)
    result.resolved_fixed = len(plan.resolve_fixed)
    result.resolved_by_reply = len(plan.resolve_reply)
    result.reopened, result.answered, result.conceded = len(plan.reopen), len(plan.answer), len(plan.concede)
    # Unanchored findings that already had a thread are kept there; the rest go in the summary.
    result.unanchored = [f"{p.finding.path}:{p.finding.line}" for p in unanchored]
    open_threads = plan.open_after() - (len(plan.post) - result.posted)
    refused_now = [p.fingerprint for p in unanchored if p.anchor is not None]
    body = summary_body(review, head_sha=state.head_sha, open_threads=open_threads,
                        unanchored=sorted(unanchored, key=lambda p: (p.finding.path, p.finding.line)),
                        break_glass=break_glass, decision=str(review.decision), refused=refused_now)
    result.summary = adapter.upsert_summary(state, body)
    result.approval = adapter.set_decision(state, str(review.decision), blocking_body(review, state.head_sha))
    result.api_calls = adapter.client.calls
    return result

