"""Reciprocal-rank fusion: combine rankings whose scores are not comparable."""

from __future__ import annotations

from collections.abc import Hashable, Sequence

RRF_K = 60  # the constant of Cormack et al.; damps the weight of the very first ranks


def rrf(rankings: Sequence[Sequence[Hashable]], *, k: int = RRF_K,
        weights: Sequence[float] | None = None) -> list[tuple[Hashable, float]]:
    """Items of all rankings, best first, scored by sum(weight / (k + rank))."""
    scores: dict[Hashable, float] = {}
    for i, ranking in enumerate(rankings):
        weight = weights[i] if weights else 1.0
        for rank, item in enumerate(ranking, start=1):
            scores[item] = scores.get(item, 0.0) + weight / (k + rank)
    return sorted(scores.items(), key=lambda pair: -pair[1])
