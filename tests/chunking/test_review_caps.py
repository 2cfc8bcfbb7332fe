"""What one review may spend: chunks and reviewer calls (limits.max_chunks, limits.max_llm_calls)."""

from __future__ import annotations

from dualrag.chunking.caps import cap_plan
from dualrag.chunking.model import Budget, Chunk, ChunkPlan
from dualrag.config import LimitsConfig


def plan(n: int) -> ChunkPlan:
    chunks = tuple(Chunk(id=f"c{i}", files=(f"f{i}.py",), hunks=(), members=(), estimated_tokens=10)
                   for i in range(1, n + 1))
    budget = Budget(window=1000, usable=800, chunk_tokens=500, start_above=600, margin=0.1)
    return ChunkPlan(chunks=chunks, budget=budget, limit=500, estimator="fast", total_tokens=10 * n)


def test_under_the_caps_the_plan_is_untouched():
    p = plan(3)
    assert cap_plan(p, LimitsConfig(max_chunks=3), calls_per_chunk=2) == (p, None)


def test_the_chunk_cap_keeps_the_first_chunks_and_names_the_rest():
    capped, note = cap_plan(plan(5), LimitsConfig(max_chunks=2))
    assert [c.id for c in capped.chunks] == ["c1", "c2"]
    assert note.startswith("3 of 5 chunks not reviewed (limits.max_chunks)") and "f3.py" in note


def test_the_call_cap_divides_by_the_reviewers_of_a_chunk():
    capped, note = cap_plan(plan(10), LimitsConfig(max_chunks=10, max_llm_calls=7), calls_per_chunk=3)
    assert len(capped.chunks) == 2 and "limits.max_llm_calls = 7 at 3 reviewer call(s)" in note
    one, _ = cap_plan(plan(4), LimitsConfig(max_llm_calls=1), calls_per_chunk=5)
    assert len(one.chunks) == 1  # a review always reviews something


def test_a_price_cap_stops_at_the_estimated_cost():
    from dualrag.chunking.caps import cap_plan
    from dualrag.chunking.model import Budget, Chunk, ChunkPlan
    from dualrag.config import LimitsConfig

    chunks = tuple(Chunk(id=f"c{i}", files=(f"f{i}.py",), hunks=(), members=(), estimated_tokens=9_000)
                   for i in range(1, 7))
    plan = ChunkPlan(chunks=chunks, budget=Budget(128_000, 102_400, 100_000, 60_000, 0.1), limit=60_000,
                     estimator="fast", total_tokens=54_000)
    # 2 reviewers x (9,000 + 1,000) tokens x $2 per million = $0.04 a chunk: $0.10 buys two
    capped, note = cap_plan(plan, LimitsConfig(max_cost_usd=0.10), calls_per_chunk=2,
                            usd_per_prompt_token=2 / 1e6, overhead_tokens=1_000)
    assert [c.id for c in capped.chunks] == ["c1", "c2"] and "limits.max_cost_usd" in note
    unpriced, note = cap_plan(plan, LimitsConfig(max_cost_usd=0.10), calls_per_chunk=2, usd_per_prompt_token=None)
    assert len(unpriced.chunks) == 6 and note is None  # an unknown price caps nothing
