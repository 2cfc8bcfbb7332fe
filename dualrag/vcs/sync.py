"""Incremental re-review, platform-neutral: current findings + dualrag's existing threads -> a plan.

Matching is one-to-one, on the fingerprint first and then on the loose key (same rule, file and
code; the wording changed). Then, per thread:

| thread now                     | finding still reported               | finding gone                  |
|--------------------------------|--------------------------------------|-------------------------------|
| open                           | keep (never posted twice)            | resolve: "fixed in <sha>"     |
| open, reply "won't fix"/"ack"  | resolve, crediting the reply         | resolve: fixed                |
| open, reply "I disagree"       | answer once (coordinator kept it)    | resolve: conceded             |
| resolved by a human            | stay resolved, unless clearly worse  | nothing                       |
| resolved by dualrag (fixed)    | reopen: it is back                   | nothing                       |

"Clearly worse" = the severity went up. Every write carries a marker, and a reply is written
only when no earlier dualrag reply answers the same human note: a second run on the same
commit plans nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from dualrag.findings import SEVERITY_RANK
from dualrag.vcs.anchoring import Placed
from dualrag.vcs.markers import reply_marker
from dualrag.vcs.model import PriorFinding, ThreadState
from dualrag.vcs.replies import classify_reply


@dataclass(frozen=True, slots=True)
class Reply:
    note_id: str
    author: str
    body: str
    by_bot: bool


@dataclass(slots=True)
class BotThread:
    """A thread dualrag opened for a finding, as read back from the platform."""

    thread_id: str
    fingerprint: str
    key: str
    severity: str
    path: str
    line: int | None
    title: str
    category: str
    rule_id: str | None
    resolved: bool
    resolved_by_bot: bool
    commit: str | None
    replies: list[Reply] = field(default_factory=list)  # after the first note, in order
    platform: dict = field(default_factory=dict)  # adapter's own data (ids needed to reply)
    message: str = ""       # the finding's message, read back from the comment (feedback records)
    suggested: bool = False  # the comment offered a one-click suggestion
    code: str = ""          # the flagged code (normalised), from the marker

    def human_state(self) -> tuple[ThreadState | None, Reply | None]:
        """The latest human reply that asks for something, and what."""
        for reply in reversed(self.replies):
            if reply.by_bot:
                continue
            state = classify_reply(reply.body)
            if state is not None:
                return state, reply
        return None, None

    def answered(self, note_id: str) -> bool:
        return any(r.by_bot and f"to={note_id} " in r.body + " " for r in self.replies)

    def state(self) -> tuple[ThreadState, Reply | None]:
        asked, reply = self.human_state()
        if asked is not None and not (asked == ThreadState.DISAGREED and reply and self.answered(reply.note_id)):
            return asked, reply
        if self.resolved:
            return (ThreadState.RESOLVED_FIXED if self.resolved_by_bot else ThreadState.RESOLVED_BY_USER), None
        return ThreadState.OPEN, None

    def prior(self) -> PriorFinding:
        state, reply = self.state()
        return PriorFinding(
            fingerprint=self.fingerprint, key=self.key, path=self.path, line=self.line,
            severity=self.severity, category=self.category, rule_id=self.rule_id, title=self.title,
            state=state, thread_id=self.thread_id, resolved=self.resolved,
            reply=reply.body if reply else None, reply_author=reply.author if reply else None,
            commit=self.commit,
        )


@dataclass(slots=True)
class Action:
    thread: BotThread
    body: str  # the note to write (with its marker)


@dataclass(slots=True)
class Plan:
    post: list[Placed] = field(default_factory=list)
    unanchored: list[Placed] = field(default_factory=list)
    keep: list[tuple[BotThread, Placed]] = field(default_factory=list)
    resolve_fixed: list[Action] = field(default_factory=list)
    resolve_reply: list[Action] = field(default_factory=list)
    reopen: list[Action] = field(default_factory=list)
    answer: list[Action] = field(default_factory=list)
    concede: list[Action] = field(default_factory=list)

    @property
    def writes(self) -> int:
        return (len(self.post) + len(self.resolve_fixed) + len(self.resolve_reply) + len(self.reopen)
                + len(self.answer) + len(self.concede))

    def open_after(self) -> int:
        """Threads open once the plan ran: kept-open plus new plus reopened."""
        kept_open = sum(1 for t, _ in self.keep if not t.resolved)
        closing = {a.thread.thread_id for a in self.resolve_reply}
        return kept_open - sum(1 for t, _ in self.keep if t.thread_id in closing) + len(self.post) + len(self.reopen)


def match(placed: Sequence[Placed], threads: Sequence[BotThread]) -> tuple[dict[str, Placed], list[Placed]]:
    """thread_id -> current finding, and the findings no thread has."""
    by_thread: dict[str, Placed] = {}
    free = list(placed)
    for attr in ("fingerprint", "key"):
        for t in threads:
            if t.thread_id in by_thread:
                continue
            for i, p in enumerate(free):
                if getattr(p, attr) == getattr(t, attr):
                    by_thread[t.thread_id] = free.pop(i)
                    break
    return by_thread, free


def plan(placed: Sequence[Placed], threads: Sequence[BotThread], head_sha: str) -> Plan:
    out = Plan()
    by_thread, free = match(placed, threads)
    short = head_sha[:8]
    for t in threads:
        current = by_thread.get(t.thread_id)
        state, reply = t.state()
        if current is None:
            if t.resolved:
                continue
            if state == ThreadState.DISAGREED and reply is not None:
                out.concede.append(Action(t, f"{reply_marker('concede', reply.note_id)}\nConceded: after "
                                             f"@{reply.author}'s reply this is no longer reported (at {short})."))
            else:
                out.resolve_fixed.append(Action(t, f"{reply_marker('fixed', short)}\nResolved: no longer "
                                                   f"reported at {short}."))
            continue
        out.keep.append((t, current))
        worse = SEVERITY_RANK.get(current.finding.severity, 0) > SEVERITY_RANK.get(t.severity, 0)
        if t.resolved:
            if t.resolved_by_bot and state == ThreadState.RESOLVED_FIXED:
                out.reopen.append(Action(t, f"{reply_marker('reopen', short)}\nReopened: reported again at {short}."))
            elif worse:
                out.reopen.append(Action(t, f"{reply_marker('worse', short)}\nReopened: this got worse at {short} "
                                            f"({t.severity} -> {current.finding.severity})."))
            continue
        if state in (ThreadState.WONT_FIX, ThreadState.ACKNOWLEDGED) and reply is not None:
            words = "won't fix" if state == ThreadState.WONT_FIX else "acknowledged"
            out.resolve_reply.append(Action(t, f"{reply_marker(str(state), reply.note_id)}\nResolved: "
                                               f"@{reply.author} marked this {words}."))
        elif state == ThreadState.DISAGREED and reply is not None:
            out.answer.append(Action(t, f"{reply_marker('answer', reply.note_id)}\nStill reported after "
                                        f"re-reviewing with @{reply.author}'s reply at {short}: "
                                        f"{current.finding.message}"))
    for p in free:
        (out.post if p.anchor is not None else out.unanchored).append(p)
    return out
