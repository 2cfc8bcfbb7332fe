"""From dualrag's threads on a merge request to feedback records of the repository.

What a thread says, read after the MR stage loaded it (and after this run resolved some as fixed):

| thread                                                    | outcome           |
|-----------------------------------------------------------|-------------------|
| a human replied "won't fix" (open or resolved)            | wont_fix          |
| dualrag conceded after "I disagree"                       | disagreed         |
| resolved by a human, the flagged code still in the change | resolved_by_user  |
| resolved by a human, the flagged code gone                | fixed (applied, when it offered a suggestion) |
| resolved by dualrag: no longer reported (this run or one before) | fixed      |
| a human replied "acknowledged"                            | acknowledged      |
| open, disputed, or resolved with nothing to tell          | nothing recorded  |

The flagged code is found again in the current change by the thread's loose key (rule, path,
normalised code), so a record carries the code exactly as it was flagged, whatever the line moved to.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from dualrag.config import Settings
from dualrag.diff.model import ChangeSet
from dualrag.feedback import FeedbackRecord, FeedbackScope, Outcome, now
from dualrag.findings import Finding
from dualrag.review.fingerprint import loose_key, normalise_code
from dualrag.store.session import StoreSession
from dualrag.vcs.anchoring import MAX_CODE_LINES, DiffIndex
from dualrag.vcs.model import ThreadState
from dualrag.vcs.sync import BotThread

_REPLY_KIND = {"fixed": Outcome.FIXED, "concede": Outcome.DISAGREED, "wont_fix": Outcome.WONT_FIX,
               "acknowledged": Outcome.ACKNOWLEDGED}
NEAR = 60  # lines around the thread's line searched first for its code
MAX_STARTS = 2000  # start lines tried at most per thread


@dataclass
class FeedbackReport:
    written: int = 0
    unchanged: int = 0
    by_outcome: dict[str, int] = field(default_factory=dict)
    note: str | None = None


def _bot_kind(t: BotThread) -> str | None:
    for r in reversed(t.replies):
        if r.by_bot and "dualrag:reply kind=" in r.body:
            return r.body.split("dualrag:reply kind=", 1)[1].split()[0]
    return None


def thread_outcome(t: BotThread, code_found: bool, fixed_now: bool = False) -> Outcome | None:
    """What the thread tells about its finding (`code_found`: the flagged code is still in the
    change; `fixed_now`: this run resolves it because it is no longer reported)."""
    asked, _ = t.human_state()
    if asked == ThreadState.WONT_FIX:
        return Outcome.WONT_FIX
    if asked == ThreadState.ACKNOWLEDGED:
        return Outcome.ACKNOWLEDGED
    if fixed_now:
        return Outcome.DISAGREED if asked == ThreadState.DISAGREED else Outcome.FIXED
    if not t.resolved:
        return None
    if t.resolved_by_bot:
        return _REPLY_KIND.get(_bot_kind(t) or "")
    if code_found:
        return Outcome.RESOLVED_BY_USER if asked is None else Outcome.DISAGREED
    return Outcome.APPLIED if t.suggested else Outcome.FIXED


def _as_finding(t: BotThread, line: int, end: int | None = None) -> Finding:
    return Finding(path=t.path, line=line, end_line=end, severity="info", category=t.category or "correctness",
                   rule_id=t.rule_id, title=t.title or "-", message=t.message or "-", source="llm")


def flagged_code(t: BotThread, index: DiffIndex, lines: Sequence[int]) -> list[str] | None:
    """The lines the thread's finding flagged, found in the change by its loose key; None if gone."""
    if not t.key or not t.path:
        return None
    start = t.line or 0
    order = sorted(lines, key=lambda n: (abs(n - start) > NEAR, abs(n - start)))[:MAX_STARTS]
    for first in order:
        for length in range(MAX_CODE_LINES):
            probe = _as_finding(t, first, first + length if length else None)
            code = index.code(probe)
            if loose_key(probe, code) == t.key:
                return code
    return None


def records_from_threads(threads: Iterable[BotThread], changes: ChangeSet, scope: FeedbackScope,
                         fixed_now: Iterable[str] = ()) -> list[FeedbackRecord]:
    """The feedback records the threads of one merge request give (`fixed_now`: thread ids this run
    resolves as fixed)."""
    index = DiffIndex(changes)
    shown = {f.path: sorted({ln.new_no for h in f.hunks for ln in h.lines if ln.new_no is not None and ln.kind in "+ "})
             for f in changes.files if not f.binary}
    fixed = set(fixed_now)
    stamp = now()
    out = []
    for t in threads:
        if not t.fingerprint:
            continue
        found = flagged_code(t, index, shown.get(t.path, ()))
        outcome = thread_outcome(t, found is not None, t.thread_id in fixed)
        if outcome is None:
            continue
        code = t.code or normalise_code(found or [])  # the marker's, else as found again in the change
        out.append(FeedbackRecord(
            repository=scope.repository, fingerprint=t.fingerprint, outcome=outcome, rule_id=t.rule_id,
            category=t.category, title=t.title, message=t.message, code=code,
            path=t.path, severity=t.severity, mr=scope.mr, thread_id=t.thread_id, recorded_at=stamp))
    return out


def record_feedback(threads: Sequence[BotThread], changes: ChangeSet, settings: Settings, scope: FeedbackScope | None,
                    fixed_now: Iterable[str] = (), *, store: StoreSession | None = None) -> FeedbackReport:
    """Write what the threads tell into the repository's feedback collection (idempotent). Never
    raises for the store: a stage does not fail for want of feedback (the report's note says why).
    `store`: the run's store session (the one its review read), else the store is opened here."""
    report = FeedbackReport()
    if scope is None or not scope.repository or not settings.feedback.enabled:
        return report
    records = records_from_threads(threads, changes, scope, fixed_now)
    if not records:
        return report
    from dualrag.embedding import get_embedder
    from dualrag.errors import UserError
    try:
        embedder = get_embedder(config=settings.embedding)
        if store is not None:
            report.written, report.unchanged = store.feedback().record(scope.repository, records, embedder)
        else:
            with StoreSession.of(settings) as own:
                report.written, report.unchanged = own.feedback().record(scope.repository, records, embedder)
    except (UserError, OSError) as exc:
        report.note = f"feedback not recorded for {scope.repository}: {exc}"
        return report
    for r in records:
        report.by_outcome[str(r.outcome)] = report.by_outcome.get(str(r.outcome), 0) + 1
    if report.written:
        what = ", ".join(f"{n} {k}" for k, n in sorted(report.by_outcome.items()))
        report.note = f"feedback for {scope.repository}: recorded {report.written} new ({what})"
    return report
