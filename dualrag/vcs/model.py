"""Typed values shared by the VCS adapters and consumed by the review coordinator.

`PriorFinding` is what dualrag said on an earlier push and what became of it; the coordinator
takes a list of them as input ("prior findings and thread states"): a DISAGREED finding
carries the human's reply so the coordinator can answer or concede it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class ThreadState(StrEnum):
    OPEN = "open"                      # posted by dualrag, still open
    RESOLVED_BY_USER = "resolved_by_user"  # a human resolved it without a recognised reply
    RESOLVED_FIXED = "resolved_fixed"  # dualrag resolved it because the finding went away
    WONT_FIX = "wont_fix"              # a human replied "won't fix"
    ACKNOWLEDGED = "acknowledged"      # a human replied "acknowledged"
    DISAGREED = "disagreed"            # a human replied "I disagree": answer or concede


# States in which dualrag must not re-open or re-post the finding unless it got clearly worse.
SETTLED = frozenset({ThreadState.RESOLVED_BY_USER, ThreadState.WONT_FIX, ThreadState.ACKNOWLEDGED,
                     ThreadState.RESOLVED_FIXED})


@dataclass(frozen=True, slots=True)
class PriorFinding:
    """One finding dualrag posted before, read back from its (invisible) thread marker."""

    fingerprint: str          # exact identity: rule/category, path, normalised code, message gist
    key: str                  # loose identity without the message gist (LLM wording drifts)
    path: str
    line: int | None
    severity: str
    category: str
    rule_id: str | None
    title: str
    state: ThreadState
    thread_id: str            # platform id of the discussion / review thread
    resolved: bool
    reply: str | None = None  # the human reply that set the state (DISAGREED: the argument)
    reply_author: str | None = None
    commit: str | None = None  # head commit the finding was posted on


@dataclass(frozen=True, slots=True)
class BreakGlass:
    """A human asked to override the decision (the phrase is configurable)."""

    author: str
    note_id: str
    text: str


@dataclass(slots=True)
class PublishResult:
    """What one publish run did, for the CLI, tests and the benchmark."""

    posted: int = 0
    kept: int = 0
    resolved_fixed: int = 0
    resolved_by_reply: int = 0
    reopened: int = 0
    answered: int = 0
    conceded: int = 0
    unanchored: list[str] = field(default_factory=list)
    summary: str = "unchanged"      # created | updated | unchanged | recreated
    approval: str = "unchanged"     # approved | unapproved | request_changes | comment | unchanged
    decision: str = ""
    break_glass: BreakGlass | None = None
    api_calls: int = 0
    notes: list[str] = field(default_factory=list)
