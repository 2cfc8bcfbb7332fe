"""Reciprocal-rank fusion: combine rankings whose scores are not comparable."""

from __future__ import annotations

from collections.abc import Hashable, Sequence

# Cormack et al. use 60, for fusing dozens of long runs. Rule retrieval fuses three short channels
# per knowledge base, where the first ranks are what matters: k=10 keeps them apart (60 nearly
# flattens ranks 1-10). Measured on the split dev guideline (evaluation/retrieval/rules.py --split):
# 10 against 30/60 gave the same half-A recall@5 and better recall on rules no one tuned for.
RRF_K = 10


def rrf(rankings: Sequence[Sequence[Hashable]], *, k: int = RRF_K,
        weights: Sequence[float] | None = None) -> list[tuple[Hashable, float]]:
    """Items of all rankings, best first, scored by sum(weight / (k + rank))."""
    scores: dict[Hashable, float] = {}
    for i, ranking in enumerate(rankings):
        weight = weights[i] if weights else 1.0
        for rank, item in enumerate(ranking, start=1):
            scores[item] = scores.get(item, 0.0) + weight / (k + rank)
    return sorted(scores.items(), key=lambda pair: -pair[1])
