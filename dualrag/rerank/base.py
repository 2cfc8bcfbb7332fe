"""The `Reranker` protocol, the null reranker used when no model is configured, and helpers."""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from dualrag.errors import UserError

SKIPPED_REASON = "reranking skipped: no model folder configured"


class ModelError(UserError):
    """A model folder is missing, incomplete, corrupt or has an unexpected signature."""


@runtime_checkable
class Reranker(Protocol):
    """Scores (query, candidate) pairs; higher is more relevant.

    `available` is False for the null reranker, whose `reason` says why nothing was reranked.
    """

    name: str
    available: bool
    reason: str | None
    calibrated_threshold: float | None  # from the model folder's calibration.json, if any

    def score(self, query: str, candidates: Sequence[str]) -> list[float]:
        """One score per candidate, in candidate order (0..1 for cross-encoders)."""
        ...

    def rerank(
        self,
        query: str,
        candidates: Sequence[str],
        top_k: int | None = None,
        threshold: float | None = None,
        fallback_scores: Sequence[float] | None = None,
    ) -> list[tuple[int, float]]:
        """(candidate index, score) pairs, best first, at most `top_k`, none under `threshold`."""
        ...


def rank(scores: Sequence[float], top_k: int | None = None, threshold: float | None = None) -> list[tuple[int, float]]:
    """Indices sorted by descending score (ties: lower index first), cut by threshold and top_k.

    NaN scores sort last and never pass a threshold.
    """
    if top_k is not None and top_k < 0:
        raise ValueError("top_k must be >= 0")
    order = sorted(
        range(len(scores)),
        key=lambda i: (math.isnan(scores[i]), -scores[i] if not math.isnan(scores[i]) else 0.0, i),
    )
    out = [(i, float(scores[i])) for i in order]
    if threshold is not None:
        out = [(i, s) for i, s in out if s >= threshold]
    return out[:top_k] if top_k is not None else out


class BaseReranker(ABC):
    """`rerank` built on `score`; subclasses provide `score`."""

    name: str = "reranker"
    available: bool = True
    reason: str | None = None
    calibrated_threshold: float | None = None

    @abstractmethod
    def score(self, query: str, candidates: Sequence[str]) -> list[float]:
        """One relevance score in [0, 1] per candidate."""

    def rerank(
        self,
        query: str,
        candidates: Sequence[str],
        top_k: int | None = None,
        threshold: float | None = None,
        fallback_scores: Sequence[float] | None = None,
    ) -> list[tuple[int, float]]:
        if not candidates:
            return []
        return rank(self.score(query, candidates), top_k, threshold)


class NullReranker(BaseReranker):
    """No model: keeps the retrieval order (or `fallback_scores`, e.g. the fused score).

    The threshold is not applied: it is calibrated for cross-encoder scores, not fused ones.
    """

    name = "none"
    available = False

    def __init__(self, reason: str = SKIPPED_REASON) -> None:
        self.reason = reason

    def score(self, query: str, candidates: Sequence[str]) -> list[float]:
        return [0.0] * len(candidates)

    def rerank(
        self,
        query: str,
        candidates: Sequence[str],
        top_k: int | None = None,
        threshold: float | None = None,
        fallback_scores: Sequence[float] | None = None,
    ) -> list[tuple[int, float]]:
        if not candidates:
            return []
        if fallback_scores is None:
            fallback_scores = [0.0] * len(candidates)
        if len(fallback_scores) != len(candidates):
            raise ValueError("fallback_scores must have one score per candidate")
        return rank(list(fallback_scores), top_k, None)


def top_k_overlap(a: Sequence[float], b: Sequence[float], k: int = 10) -> float:
    """Share of the top-k of `a` that is also in the top-k of `b` (1.0 = same set), k capped at len."""
    if len(a) != len(b):
        raise ValueError("score lists differ in length")
    k = min(k, len(a))
    if k == 0:
        return 1.0
    top_a = {i for i, _ in rank(a, k)}
    top_b = {i for i, _ in rank(b, k)}
    return len(top_a & top_b) / k
