"""Token budgets of the chunker (section `[chunking]`)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from dualrag.config.section import Section


class ChunkingConfig(Section):
    """Token budgets for chunking (defaults from the dual-RAG article: 128k window, 80% usable,
    split above ~100k tokens, chunks of at most ~60k leaving 40% for rules, code and output)."""

    model: str | None = Field(None, description="offline: model whose window and tokenizer apply (a review "
                                                "takes both from its reviewers' model, [llm])")
    budget: int | None = Field(None, gt=0, description="tokens per chunk, whatever the window (--budget): also "
                                                       "the threshold above which a change is chunked")
    window_tokens: int = Field(128_000, gt=0, description="offline: the context window when `model` has no "
                                                         "capability entry ([llm.models])")
    usable_fraction: float = Field(0.8, gt=0, le=1, description="safety margin on the window")
    start_above_tokens: int = Field(100_000, gt=0, description="chunk only when the review estimate exceeds this")
    chunk_max_tokens: int = Field(60_000, gt=0, description="upper bound of one chunk")
    context_reserve: float = Field(0.4, ge=0, lt=1, description="share of the usable window kept for rules, code and output")
    estimator: Literal["fast", "exact", "formula"] = Field(
        "fast", description="token counter when packing: fast (calibrated estimate), exact (the model's tokenizer, "
                            "offline), formula (the article's baseline)")
    estimate_margin: float = Field(0.1, ge=0, lt=0.5, description="headroom for estimator error when packing")
    overlap_lines: int = Field(3, ge=0, le=50, description="lines repeated when an oversized member is split")
    max_file_bytes: int = Field(4_000_000, gt=0, description="new-file texts above this are not read or parsed")
