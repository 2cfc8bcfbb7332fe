"""The merge-request stage, platform-neutral: read the MR, review, publish, decide.

    state   = adapter.load()                     threads, summary, approval, human notes, the author's words
    source  = source_for(state)                  the checkout's diff at the MR head, else the API's
    changes = ingest(source.diff)                once: the review and the anchoring share it
    glass   = find_break_glass(...)              allowed people, not the author, on the head commit
    review  = review_fn(changes, source, priors, glass, info)   the coordinator decides (break glass too)
    plan    = sync.plan(placed findings, threads) -> post / keep / resolve / reopen / answer
    summary note upserted (same content = no call), then the approval decision
    feedback = record_feedback(threads, ...)     what humans said in the threads, for later MRs of the repo

What is for the operator (run notes, refused break glasses) goes to the job log through
`PublishResult.notes`, never to the MR: a second run on the same commit writes nothing.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from dualrag.config import Settings, VcsConfig
from dualrag.diff import ChangeSet, ingest_source
from dualrag.feedback import FeedbackScope
from dualrag.review.model import Review
from dualrag.review.prompt import ChangeInfo
from dualrag.source.review_source import ReviewSource
from dualrag.vcs import markers
from dualrag.vcs.anchoring import DiffIndex
from dualrag.vcs.feedback import record_feedback
from dualrag.vcs.model import BreakGlass, PriorFinding, PublishResult
from dualrag.vcs.render import blocking_body, finding_body, for_the_mr, same_summary, summary_body
from dualrag.vcs.replies import breaks_glass
from dualrag.vcs.state import Adapter, HumanNote, MRState
from dualrag.vcs.sync import plan as make_plan

# (the change, where it came from, findings of earlier pushes, a break glass, the author's words) -> the review
ReviewFn = Callable[[ChangeSet, ReviewSource, Sequence[PriorFinding], BreakGlass | None, ChangeInfo], Review]
SourceFn = Callable[[MRState], ReviewSource | None]
EventSink = Callable[[dict[str, Any]], None]
DEFAULT_BREAK_GLASS = "break glass"


_SHA = re.compile(r"\b[0-9a-f]{7,40}\b", re.IGNORECASE)
MIN_NAMED = 12  # hex digits of the head a comment must name when nothing else ties it to a commit


@dataclass(slots=True)
class GlassCheck:
    """The break glass that holds (if any) and every one refused, with why (for the job log)."""

    accepted: BreakGlass | None = None
    refused: list[tuple[HumanNote, str]] = field(default_factory=list)


def named_commits(text: str, head: str) -> list[str]:
    """Commit ids a note names: hex words of 7-40 characters with a digit (or the head's prefix)."""
    return [w.lower() for w in _SHA.findall(text)
            if head.lower().startswith(w.lower()) or any(c.isdigit() for c in w)]


def _when(stamp: str | None) -> datetime | None:
    try:
        at = datetime.fromisoformat(stamp) if stamp else None
    except ValueError:
        return None
    return at.replace(tzinfo=UTC) if at is not None and at.tzinfo is None else at


def find_break_glass(adapter: Adapter, state: MRState, phrase: str, policy: VcsConfig) -> GlassCheck:
    """The newest break glass that holds: its author is not the MR author, has the configured access,
    and wrote it on the head commit. "On the head", by the strongest record there is:

    1. the commit the platform recorded the note on (GitHub: a review's `commit_id`, a review
       comment's original commit) is the head;
    2. else the note was written after the head was pushed (GitLab: the creation of the MR's latest
       diff version, on the server's clock), and a commit it names, if any, is the head;
    3. else (a GitHub conversation comment: no record at all) it names the head with at least
       `MIN_NAMED` hex digits (a 7-digit prefix can be matched by a pushed vanity hash).

    Commit dates are never used: the author sets them. A new push therefore needs a new one."""
    out = GlassCheck()
    head = state.head_sha.lower()
    pushed: list[str | None] = []  # asked once, only when needed
    for n in reversed(state.human_notes):
        if not breaks_glass(n.body, phrase):
            continue
        why = None
        named = named_commits(n.body, head)
        on_head = [c for c in named if head.startswith(c)]
        if state.author and n.author == state.author:
            why = "the author of the merge request cannot break the glass on it"
        elif not head:
            why = "the merge request's head commit is unknown"
        elif n.commit:
            if n.commit.lower() != head:
                why = f"it was written on {n.commit[:12]}; the head is now {head[:12]} (a new push needs a new one)"
        elif named and not on_head:
            why = f"it names commit {named[0][:12]}, not the head {head[:12]}"
        else:
            if not pushed:
                pushed.append(adapter.head_pushed_at(state))
            at, written = _when(pushed[0]), _when(n.created_at)
            if at is not None and (written is None or written < at):
                why = f"it was written before {head[:12]} was pushed (a new push needs a new one)"
            elif at is None and not any(len(c) >= MIN_NAMED for c in on_head):
                why = (f"{adapter.platform} records no commit for this comment: name the head commit "
                       f"('{phrase} {head[:MIN_NAMED]}')")
        if why is None:
            ok, have = adapter.may_break_glass(n, policy)
            if not ok:
                why = f"@{n.author} has {have}"
        if why is not None:
            out.refused.append((n, why))
            continue
        out.accepted = BreakGlass(author=n.author, note_id=n.note_id, text=n.body.strip()[:200],
                                  commit=state.head_sha)
        break
    return out


def change_info(state: MRState) -> ChangeInfo:
    """The author's words, as the reviewers get them (the pipeline sanitises and checks them)."""
    return ChangeInfo(title=state.title, description=state.description,
                      commit_messages=tuple(m for m in state.commit_messages if m.strip()))


def run_stage(adapter: Adapter, review_fn: ReviewFn, settings: Settings, *,
              source: ReviewSource | SourceFn | None = None, break_glass_phrase: str = DEFAULT_BREAK_GLASS,
              dry_run: bool = False, sink: EventSink | None = None,
              feedback: FeedbackScope | None = None, report_url: str | None = None,
              state: MRState | None = None) -> tuple[Review, PublishResult]:
    """`source`: the change to review, or how to take it from the CI checkout once the MR state is
    known (None there, or no source at all: the platform's own diff of the MR). `feedback`: the
    repository and MR the threads' dismissals and acceptances are recorded for (None: not recorded).
    `report_url`: where CI publishes this run's HTML report (the summary links it). `state`: the MR
    as already loaded (the CLI reads it first to learn the target commit its settings come from)."""
    started = time.perf_counter()
    state = state if state is not None else adapter.load()
    if callable(source):
        source = source(state)
    if source is None:
        source = ReviewSource(adapter.diff(), head=state.head_sha or None)
    changes = ingest_source(source, settings)
    priors = [t.prior() for t in state.threads]
    glass = find_break_glass(adapter, state, break_glass_phrase, settings.vcs) if break_glass_phrase else GlassCheck()
    bg = glass.accepted
    vcs_before = adapter.client.elapsed_s
    review = review_fn(changes, source, priors, bg, change_info(state))
    review_s = time.perf_counter() - started - vcs_before
    for n, why in glass.refused:
        if sink:
            sink({"event": "break_glass_refused", "platform": adapter.platform, "author": n.author,
                  "note_id": n.note_id, "head_sha": state.head_sha, "reason": why, "ts": time.time()})
    if bg is not None and sink:
        sink({"event": "break_glass", "platform": adapter.platform, "author": bg.author, "note_id": bg.note_id,
              "head_sha": state.head_sha, "commit": bg.commit, "decision": str(review.decision), "ts": time.time()})
    result = publish(adapter, state, review, changes, dry_run=dry_run, break_glass=bg, report_url=report_url)
    result.notes[:0] = [f"break glass by @{n.author} (note {n.note_id}) ignored: {why}" for n, why in glass.refused]
    if feedback is not None and not dry_run:
        learned = record_feedback(state.threads, changes, settings, feedback, fixed_now=result.closed_threads)
        result.notes.extend([learned.note] if learned.note else [])
    if sink:
        sink({"event": "vcs_publish", "platform": adapter.platform, "decision": result.decision,
              "posted": result.posted, "resolved": result.resolved_fixed + result.resolved_by_reply,
              "api_calls": adapter.client.calls, "vcs_ms": round(adapter.client.elapsed_s * 1000, 1),
              "review_ms": round(review_s * 1000, 1)})
    return review, result


def publish(adapter: Adapter, state: MRState, review: Review, changes: ChangeSet, *,
            dry_run: bool = False, break_glass: BreakGlass | None = None,
            report_url: str | None = None) -> PublishResult:
    index = DiffIndex(changes)
    placed = [index.place(f) for f in review.findings]
    plan = make_plan(placed, state.threads, state.head_sha)
    summary_notes, log_notes = for_the_mr(review)
    result = PublishResult(decision=str(review.decision), kept=len(plan.keep) - len(plan.reopen),
                           break_glass=break_glass, notes=log_notes)
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
        elif adapter.post_finding(state, p, finding_body(p, state.head_sha, adapter.platform)):
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
    result.closed_threads = [a.thread.thread_id for a in (*plan.resolve_fixed, *plan.concede)]
    result.resolved_by_reply = len(plan.resolve_reply)
    result.reopened, result.answered, result.conceded = len(plan.reopen), len(plan.answer), len(plan.concede)
    # Unanchored findings that already had a thread are kept there; the rest go in the summary.
    result.unanchored = [f"{p.finding.path}:{p.finding.line}" for p in unanchored]
    open_threads = plan.open_after() - (len(plan.post) - result.posted)
    refused_now = [p.fingerprint for p in unanchored if p.anchor is not None]
    body = summary_body(review, head_sha=state.head_sha, open_threads=open_threads,
                        unanchored=sorted(unanchored, key=lambda p: (p.finding.path, p.finding.line)),
                        break_glass=break_glass, decision=str(review.decision), refused=refused_now,
                        notes=summary_notes, report_url=report_url)
    if state.summary_body is not None and same_summary(state.summary_body, body):
        # only this run's usage, report link or walkthrough wording differs: the note keeps the run that wrote it
        body = state.summary_body
    result.summary = adapter.upsert_summary(state, body)
    result.approval = adapter.set_decision(state, str(review.decision), blocking_body(review, state.head_sha))
    result.api_calls = adapter.client.calls
    return result

