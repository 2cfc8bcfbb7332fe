"""Typed configuration of the cross-encoder reranker (section `[rerank]`)."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field

from dualrag.config.section import Section


class RerankConfig(Section):
    """Where the local cross-encoder lives and how to run it. Nothing is downloaded at run time.

    `model_dir` is a folder with `model.onnx` + `tokenizer.json` (+ `config.json`,
    `tokenizer_config.json`, `special_tokens_map.json`), e.g. made by
    `dualrag models export-reranker`. Without it reranking is skipped and the fused retrieval
    score orders the candidates.
    """

    model_dir: Path | None = Field(None, description="ONNX cross-encoder folder (None = reranking skipped)")
    int8: bool = Field(False, description="use model_int8.onnx (dynamic int8 quantisation) from the folder")
    threads: int = Field(2, ge=1, le=256, description="ONNX Runtime intra-op threads")
    # 8: int8 runs faster in small batches than in 16 or 32 (scripts/bench/rerank.py prints the sweep)
    batch_size: int = Field(8, ge=1, le=1024, description="pairs per forward pass (pairs are batched by length)")
    max_length: int | None = Field(
        None, ge=16, le=8192, description="tokens per (query, candidate) pair (None = the model's, at most 512)"
    )
    threshold: float | None = Field(
        None, ge=0, le=1, description="drop candidates whose score (0..1) is below this (None = keep all)"
    )
