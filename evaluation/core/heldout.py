"""The held-out discipline: choose nothing on the set you score on.

- `seeded`: one seeded shuffle, cut where asked: the same sample for every system and every run with
  that seed, and a larger sample extends a smaller one;
- `spread`: a fixed, evenly spread sample (every n-th item), for capping a long list of cases;
- `half_of`: a stable split of names in two halves by a seeded hash (fit on one, check on the other);
- `left_out`: each item with the items a choice for it may look at (leave one out; items of the same
  `group`, such as two editions of one book, are left out together);
- `choose`: the candidate with the best mean score over the items a choice may look at, the
  earlier candidate on a tie (the simpler one, when candidates are listed simplest first).
"""

from __future__ import annotations

import hashlib
import random
import statistics
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

T = TypeVar("T")
C = TypeVar("C")
SPLIT_SEED = "20261129"  # the seed ../shared/eval was split with


def seeded(items: Sequence[T], limit: int | None, seed: int) -> list[T]:
    """`items` in one seeded shuffled order, the first `limit` of them (all: None)."""
    order = list(items)
    random.Random(seed).shuffle(order)
    return order if limit is None else order[:limit]


def spread(items: Sequence[T], limit: int) -> list[T]:
    """At most `limit` of `items`, evenly spread (every n-th); all of them for no limit."""
    if not limit or len(items) <= limit:
        return list(items)
    step = len(items) / limit
    return [items[int(i * step)] for i in range(limit)]


def half_of(name: str, names: Sequence[str], seed: str = SPLIT_SEED) -> str:
    """'A' or 'B': `names` ordered by sha256(seed:name), the first half is A."""
    order = sorted(names, key=lambda n: hashlib.sha256(f"{seed}:{n}".encode()).hexdigest())
    return "A" if order.index(name) < len(order) // 2 else "B"


def left_out(items: Sequence[T], group: Callable[[T], object] = id) -> Iterator[tuple[T, list[T]]]:
    """Each item with the others, those of its own group left out with it."""
    for item in items:
        yield item, [other for other in items if group(other) != group(item)]


def choose(candidates: Sequence[C], others: Sequence[T], score: Callable[[C, T], float]) -> C:
    """The candidate with the best mean `score` over `others` (the earlier one on a tie; the first
    when there are no others to look at)."""
    def mean(candidate: C) -> float:
        return statistics.mean(score(candidate, o) for o in others) if others else 0.0
    return max(candidates, key=lambda c: (mean(c), -candidates.index(c)))
