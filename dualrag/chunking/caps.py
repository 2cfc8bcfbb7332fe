"""What one review may spend (`[limits]`): at most `max_chunks` chunks retrieved for and reviewed,
at most `max_llm_calls` reviewer requests (chunks x reviewers), and, priced, at most
`max_cost_usd` of estimated prompt cost. The chunks past a cap stay in
the plan, unreviewed, so the coordinator sees an incomplete review and never approves it."""

from __future__ import annotations

from dataclasses import replace

from dualrag.chunking.model import ChunkPlan
from dualrag.config import LimitsConfig


def cap_plan(plan: ChunkPlan, limits: LimitsConfig, *, calls_per_chunk: int = 0,
             usd_per_prompt_token: float | None = None, overhead_tokens: int = 0) -> tuple[ChunkPlan, str | None]:
    """The first chunks a review may spend on, and a note when some are left out.
    `calls_per_chunk`: reviewer requests each chunk costs (0 offline: only the chunk cap applies);
    `usd_per_prompt_token`: the reviewers' input price (None: unknown, no price cap); each request
    is estimated at its chunk's tokens plus `overhead_tokens` (rules, code context, instructions)."""
    allowed = limits.max_chunks
    by_calls = limits.max_llm_calls // calls_per_chunk if calls_per_chunk else allowed
    allowed = max(1, min(allowed, by_calls))  # one chunk, however many reviewers, is still reviewed
    cap = ("limits.max_chunks" if allowed == limits.max_chunks else
           f"limits.max_llm_calls = {limits.max_llm_calls} at {calls_per_chunk} reviewer call(s) a chunk")
    if limits.max_cost_usd and usd_per_prompt_token and calls_per_chunk:
        spent, priced = 0.0, 0
        for chunk in plan.chunks[:allowed]:
            spent += (chunk.estimated_tokens + overhead_tokens) * calls_per_chunk * usd_per_prompt_token
            if spent > limits.max_cost_usd and priced:
                break
            priced += 1
        if priced < allowed:
            allowed, cap = priced, f"limits.max_cost_usd = {limits.max_cost_usd:g} (estimated prompt cost)"
    if len(plan.chunks) <= allowed:
        return plan, None
    left = plan.chunks[allowed:]
    files = sorted({f for c in left for f in c.files})
    more = f" (+{len(files) - 3} more)" if len(files) > 3 else ""
    note = (f"{len(left)} of {len(plan.chunks)} chunks not reviewed ({cap}): "
            f"{', '.join(files[:3])}{more} only partly or not at all")
    return replace(plan, chunks=plan.chunks[:allowed]), note
