"""Hits, ranks and recall, the way every retrieval harness counts them: a returned text is the case's
hit when its whitespace-free form holds the case's anchor (../shared/eval/README.md, "How to score");
a case's *first hit* is the 1-based rank of its first such text in the top 10, or None."""

from __future__ import annotations

import re
import statistics
from collections import defaultdict
from collections.abc import Iterable, Sequence

KS = (1, 5, 10)
DEPTH = 10
_WS = re.compile(r"\s+")


def squash(text: str) -> str:
    """`text` with every whitespace removed: anchors are compared in this form."""
    return _WS.sub("", text)


def first_hit(anchor: str, texts: Iterable[str], depth: int = DEPTH) -> int | None:
    """The rank of the first of `texts` (already squashed) that holds `anchor`, within `depth`."""
    return next((rank for rank, text in enumerate(texts, 1) if rank <= depth and anchor in text), None)


def metrics(firsts: Sequence[int | None]) -> dict[str, float]:
    """Recall@1/5/10 and MRR over the cases' first hits."""
    n = max(1, len(firsts))
    out = {f"R@{k}": sum(1 for f in firsts if f and f <= k) / n for k in KS}
    out["MRR"] = sum(1 / f for f in firsts if f) / n
    return out


def macro(firsts: Sequence[int | None], groups: Sequence[str]) -> dict[str, float]:
    """Recall@k and MRR averaged per group (per rule: a rule with many cases weighs as one)."""
    by_group: dict[str, list[int | None]] = defaultdict(list)
    for first, group in zip(firsts, groups, strict=True):
        by_group[group].append(first)
    per = [metrics(fs) for fs in by_group.values()]
    return {name: statistics.mean(m[name] for m in per) if per else 0.0 for name in (*(f"R@{k}" for k in KS), "MRR")}
