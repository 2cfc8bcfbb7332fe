"""What became of earlier findings, as the coordinator needs to know it: the state of the thread a
finding was posted in, the finding read back from it, and a human's break glass. The VCS adapters
produce these values; the coordinator consumes them (a foundation both layers speak)."""

from __future__ import annotations

from dataclasses import dataclass
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
    """A human asked to override the decision (the phrase is configurable): someone with the
    configured access, not the author, on the head commit (`commit`, the one it applies to)."""

    author: str
    note_id: str
    text: str
    commit: str = ""
