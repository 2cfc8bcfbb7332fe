"""A fusion of the rule channels learned from rule books, in place of reciprocal ranks.

Reciprocal-rank fusion counts every channel alike and keeps only ranks: a rule third in BM25 by a
wide margin and a rule third by a hair weigh the same, and the plain dense channel (which on code
mostly finds the rules whose prose reads like code) counts as much as the centred one. Here each
channel gives every candidate two numbers, its reciprocal rank and its margin over the channel's
tail (rules.Channel), and a linear model over them orders the candidates. The weights are fitted
(`fit`: a softmax over each query's candidates, the right rule the target) on rule books with code
examples as queries, and were chosen the way every channel was: evaluation/retrieval/rules.py scores a
book with weights fitted on the *other* books only. evaluation/tools/train_fusion.py fits the shipped
weights on all of them; they are keyed by embedder and BM25 scheme (the margins are theirs).

It orders only the channels it was fitted on (`LearnedFusion.channels`); any other channel that a
setting switches on (a model's query, construct names) joins by reciprocal rank, the learned order
counting as many channels as it stands for.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path
from typing import Protocol

import numpy as np

from dualrag.retrieval.fusion import RRF_K

FILE = Path(__file__).with_name("fusion_weights.json")
# the channels the shipped weights read; rules.py names a channel "<kind>:<reading>"
CHANNELS = ("dense:code", "sparse:code", "sparse:words", "centred:code")


class RankedChannel(Protocol):
    name: str
    scores: dict[str, float]  # best first

    def margin(self, key: str) -> float: ...


@dataclass(frozen=True)
class LearnedFusion:
    channels: tuple[str, ...]
    mean: tuple[float, ...]  # per feature: (rank term, margin) for each channel, in order
    scale: tuple[float, ...]
    weights: tuple[float, ...]
    rrf_k: int = RRF_K
    trained_on: str = ""

    def covers(self, names: Iterable[str]) -> bool:
        return set(self.channels) <= set(names)

    def order(self, channels: Sequence[RankedChannel]) -> list[tuple[str, float]]:
        """The candidates of the fitted channels, best first, with their learned score."""
        keys, matrix = feature_matrix(channels, self.channels, self.rrf_k)
        return sorted(zip(keys, map(float, self.scores(matrix)), strict=True), key=lambda pair: -pair[1])

    def scores(self, matrix: np.ndarray) -> np.ndarray:
        """The learned score of each row of a `feature_matrix`."""
        if not len(matrix):
            return np.zeros(0)
        return ((matrix - np.asarray(self.mean)) / np.asarray(self.scale)) @ np.asarray(self.weights)

    def to_json(self) -> dict:
        return asdict(self)


def feature_matrix(channels: Sequence[RankedChannel], names: Sequence[str], rrf_k: int = RRF_K
                   ) -> tuple[list[str], np.ndarray]:
    """The union of the named channels' candidates and, per candidate, (1 / (k + rank), margin)
    for each named channel in order (0, 0 where that channel did not return it)."""
    by_name = {c.name: c for c in channels}
    chosen = [by_name.get(name) for name in names]
    keys = list(dict.fromkeys(k for c in chosen if c is not None for k in c.scores))
    matrix = np.zeros((len(keys), 2 * len(names)))
    for j, channel in enumerate(chosen):
        if channel is None:
            continue
        ranks = {key: rank for rank, key in enumerate(channel.scores, start=1)}
        for i, key in enumerate(keys):
            if key in ranks:
                matrix[i, 2 * j] = 1.0 / (rrf_k + ranks[key])
                matrix[i, 2 * j + 1] = channel.margin(key)
    return keys, matrix


def fit(samples: Sequence[tuple[np.ndarray, int]], channels: Sequence[str] = CHANNELS, *, l2: float = 1e-2,
        steps: int = 3000, rate: float = 0.5, trained_on: str = "") -> LearnedFusion:
    """Weights that put each sample's right candidate first: `samples` are (candidates x features,
    index of the right one); samples whose right rule no channel returned teach nothing and are
    left out by the caller. Features are standardised over all candidates; the loss is the softmax
    cross-entropy of the right candidate plus an L2 penalty (gradient descent, deterministic)."""
    if not samples:
        raise ValueError("no samples to fit on")
    stacked = np.concatenate([m for m, _ in samples])
    mean, scale = stacked.mean(axis=0), stacked.std(axis=0) + 1e-9
    width = max(len(m) for m, _ in samples)  # padded to one array: queries x candidates x features
    batch = np.zeros((len(samples), width, stacked.shape[1]))
    present = np.zeros((len(samples), width), dtype=bool)
    for i, (matrix, _) in enumerate(samples):
        batch[i, :len(matrix)] = (matrix - mean) / scale
        present[i, :len(matrix)] = True
    right = batch[np.arange(len(samples)), [r for _, r in samples]]
    weights = np.zeros(stacked.shape[1])
    for _ in range(steps):
        logits = np.where(present, batch @ weights, -np.inf)
        p = np.exp(logits - logits.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        gradient = np.einsum("qc,qcf->f", p, batch) - right.sum(axis=0)
        weights -= rate * (gradient / len(samples) + l2 * weights)
    return LearnedFusion(tuple(channels), tuple(map(float, mean)), tuple(map(float, scale)),
                         tuple(map(float, weights)), trained_on=trained_on)


def key_of(embedder_identity: str, sparse_name: str) -> str:
    return f"{embedder_identity}|{sparse_name}"


@lru_cache(maxsize=8)
def _table(path: str) -> dict[str, dict]:
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def shipped(embedder_identity: str, sparse_name: str, path: Path | None = None) -> LearnedFusion | None:
    """The weights fitted for this embedder and BM25 scheme, or None (then ranks are fused)."""
    entry = _table(str(path or FILE)).get(key_of(embedder_identity, sparse_name))
    if not entry:
        return None
    return LearnedFusion(**{**entry, **{k: tuple(entry[k]) for k in ("channels", "mean", "scale", "weights")}})


def write(fusion: LearnedFusion, embedder_identity: str, sparse_name: str, path: Path | None = None) -> None:
    """Add (or replace) this embedder's weights in the file, keeping the others."""
    target = Path(path or FILE)
    table = dict(_table(str(target)))
    table[key_of(embedder_identity, sparse_name)] = fusion.to_json()
    target.write_text(json.dumps(table, indent=1) + "\n", encoding="utf-8")
    _table.cache_clear()
