"""Budgets from a model's context window: usable share, when to chunk, how big a chunk may be."""

from __future__ import annotations

from dualrag.chunking.model import Budget
from dualrag.config import ChunkingConfig


def budget_for(config: ChunkingConfig, *, window: int | None = None, override: int | None = None) -> Budget:
    """`window` is the reading model's (`config.resolved.ResolvedModel.window`: its capability
    entry, offline `[chunking] model`'s); without one, `window_tokens`. `override` (the CLI's
    --budget) fixes the chunk budget and makes it the chunking threshold too: whoever names a
    budget wants no chunk above it; `config.budget` is the same from the settings."""
    window = window or config.window_tokens
    override = override if override is not None else config.budget
    usable = int(window * config.usable_fraction)
    if override is not None:
        if override <= 0:
            raise ValueError("a chunk budget must be a positive number of tokens")
        return Budget(window, usable, override, override, config.estimate_margin)
    chunk = min(config.chunk_max_tokens, int(usable * (1 - config.context_reserve)))
    start = max(chunk, min(config.start_above_tokens, usable))
    return Budget(window, usable, start, chunk, config.estimate_margin)
