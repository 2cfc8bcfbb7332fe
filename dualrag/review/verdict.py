"""The coordinate stage of a review: who managed to read what (`Coverage`), then the coordinator's
findings and decision (coordinator.py), with what it dropped said in a note."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from dualrag.diff.model import ChangeSet
from dualrag.findings import Finding
from dualrag.priors import BreakGlass, PriorFinding
from dualrag.retrieval.context import Context
from dualrag.review.coordinator import Outcome, coordinate
from dualrag.review.decision import Coverage, nothing_to_review
from dualrag.review.feedback import FeedbackMemory
from dualrag.review.grounding import Policy
from dualrag.review.stage import StageResult
from dualrag.review.suggestions import Reader

SNAPPED = "snapped (kept)"  # findings moved onto a changed line: counted, not dropped


@dataclass(frozen=True)
class Verdict:
    outcome: Outcome
    dropped: dict[str, int]  # what the coordinator dropped, by reason (only reasons that occurred)
    nothing: str | None = None  # why there was nothing to review
    notes: tuple[str, ...] = ()  # the coordinator's, and what it dropped


def judge(changes: ChangeSet, reviewed: StageResult, *, findings: Sequence[Finding], contexts: Mapping[str, Context],
          known_ids: frozenset[str], chunk_ids: Sequence[str], llm_configured: bool, injection: tuple[str, ...],
          steering: tuple[str, ...], refused: tuple[str, ...], prior_findings: Sequence[PriorFinding] = (),
          break_glass: BreakGlass | None = None, read_file: Reader | None = None,
          feedback: FeedbackMemory | None = None, model_warnings: Policy = "keep") -> Verdict:
    """`findings`: the deterministic ones (detectors, validators, injection, steering); `chunk_ids`:
    every chunk of the plan (a chunk left out by a cap leaves the review incomplete)."""
    nothing = nothing_to_review(len(changes.files), bool(changes.reviewable))
    coverage = Coverage(llm_configured=llm_configured, llm_ran=bool(reviewed.chunks_reviewed),
                        complete=reviewed.complete(chunk_ids), injection=injection,
                        sampled=tuple(f.path for f in changes.reviewable if f.sampled_lines),
                        unread=tuple(f.path for f in changes.files if f.unread) + refused,
                        steering=steering, nothing=nothing)
    outcome = coordinate(changes, reviewed.findings, detector_findings=findings, checked_findings=reviewed.checked,
                         context_rule_ids={cid: {r.rule_id for r in ctx.rules} for cid, ctx in contexts.items()},
                         known_rule_ids=set(known_ids), coverage=coverage, prior_findings=prior_findings,
                         break_glass=break_glass, read_file=read_file, feedback=feedback,
                         model_warnings=model_warnings)
    dropped = {k: v for k, v in outcome.dropped.items() if v}
    notes = list(outcome.notes)
    if any(k != SNAPPED for k in dropped):
        notes.append("coordinator dropped: " + ", ".join(f"{v} {k}" for k, v in sorted(dropped.items()) if k != SNAPPED))
    return Verdict(outcome, dropped, nothing, tuple(notes))
