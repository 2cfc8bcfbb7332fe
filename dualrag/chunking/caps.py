"""What one review may spend (`[limits]`): at most `max_chunks` chunks retrieved for and reviewed,
and at most `max_llm_calls` reviewer requests (chunks x reviewers). The chunks past a cap stay in
the plan, unreviewed, so the coordinator sees an incomplete review and never approves it."""

from __future__ import annotations

from dataclasses import replace

from dualrag.chunking.model import ChunkPlan
from dualrag.config import LimitsConfig


def cap_plan(plan: ChunkPlan, limits: LimitsConfig, *, calls_per_chunk: int = 0) -> tuple[ChunkPlan, str | None]:
    """The first chunks a review may spend on, and a note when some are left out.
    `calls_per_chunk`: reviewer requests each chunk costs (0 offline: only the chunk cap applies)."""
    allowed = limits.max_chunks
    by_calls = limits.max_llm_calls // calls_per_chunk if calls_per_chunk else allowed
    allowed = max(1, min(allowed, by_calls))  # one chunk, however many reviewers, is still reviewed
    if len(plan.chunks) <= allowed:
        return plan, None
    cap = ("limits.max_chunks" if allowed == limits.max_chunks else
           f"limits.max_llm_calls = {limits.max_llm_calls} at {calls_per_chunk} reviewer call(s) a chunk")
    left = plan.chunks[allowed:]
    files = sorted({f for c in left for f in c.files})
    more = f" (+{len(files) - 3} more)" if len(files) > 3 else ""
    note = (f"{len(left)} of {len(plan.chunks)} chunks not reviewed ({cap}): "
            f"{', '.join(files[:3])}{more} only partly or not at all")
    return replace(plan, chunks=plan.chunks[:allowed]), note
