"""Local cross-encoder reranking on ONNX Runtime (any BGE-compatible model folder).

    reranker = load_reranker(settings.rerank)       # NullReranker when no folder is configured
    threshold = pruning_threshold(settings.rerank.threshold, reranker)  # configured, else calibrated
    ranked = reranker.rerank(query, texts, top_k=8, threshold=threshold,
                             fallback_scores=fused)  # [(index, score)], best first
    if not reranker.available: note = reranker.reason
"""

from __future__ import annotations

from pathlib import Path

from dualrag.config.retrieval import RerankConfig
from dualrag.rerank.base import SKIPPED_REASON, BaseReranker, ModelError, NullReranker, Reranker, rank, top_k_overlap
from dualrag.rerank.cross_encoder import OnnxCrossEncoder
from dualrag.rerank.quantize import quantize

__all__ = [
    "SKIPPED_REASON", "BaseReranker", "ModelError", "NullReranker", "OnnxCrossEncoder", "RerankConfig",
    "Reranker", "load_reranker", "quantize", "rank", "top_k_overlap",
]


def load_reranker(config: RerankConfig, model_dir: str | Path | None = None) -> Reranker:
    """The configured cross-encoder (`model_dir`, e.g. from `--reranker DIR`, wins over the config),
    or a NullReranker whose `reason` says reranking was skipped. A folder that is configured but
    broken raises ModelError: the user asked for it, so it is theirs to fix."""
    folder = model_dir if model_dir is not None else config.model_dir
    if folder is None:
        return NullReranker()
    return OnnxCrossEncoder(folder, int8=config.int8, threads=config.threads, batch_size=config.batch_size,
                            max_length=config.max_length)
