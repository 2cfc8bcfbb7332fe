"""Typed values of the VCS adapters. What became of earlier findings (`PriorFinding`,
`ThreadState`, `BreakGlass`) lives in `dualrag.priors`, where the coordinator reads it."""

from __future__ import annotations

from dataclasses import dataclass, field

from dualrag.priors import SETTLED, BreakGlass, PriorFinding, ThreadState

__all__ = ["SETTLED", "BreakGlass", "PriorFinding", "PublishResult", "ThreadState"]


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
    closed_threads: list[str] = field(default_factory=list)  # resolved as fixed or conceded by this run
