"""A deterministic feature-hashing embedder: no model, instant, for tests and smoke runs.

Each BM25 token (identifiers split, Chinese segmented) adds 1 to one of `dim` buckets; the vector
is L2-normalised. Texts sharing words get a higher cosine (collisions only add). Not a semantic model.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence

import numpy as np

from .base import l2_normalise
from .sparse import Bm25Encoder


class HashingEmbedder:
    def __init__(self, dim: int = 256) -> None:
        self.dim = dim
        self.name = f"hash/{dim}"
        self._tokenizer = Bm25Encoder()

    def _one(self, text: str) -> np.ndarray:
        vec = np.zeros(self.dim, np.float32)
        for token in self._tokenizer.tokenize(text):
            h = zlib.crc32(token.encode("utf-8"))
            vec[h % self.dim] += 1.0
        return vec

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), np.float32)
        return l2_normalise(np.stack([self._one(t) for t in texts]))

    def embed_query(self, text: str) -> np.ndarray:
        return l2_normalise(self._one(text))
