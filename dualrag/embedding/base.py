"""The `Embedder` protocol and helpers shared by the backends."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np

from dualrag.errors import UserError


class EmbeddingError(UserError):
    """The embedder cannot be built or used: unknown name, missing package, bad model folder."""


@runtime_checkable
class Embedder(Protocol):
    """A dense text embedder. Vectors are float32 and L2-normalised, so cosine = dot product.

    `name` identifies the model and its preprocessing (it goes into the index manifest: two
    embedders with the same name must produce compatible vectors); `dim` is the vector length.
    Documents and queries may be embedded differently (e5's "passage: " / "query: ").
    """

    name: str
    dim: int

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """(len(texts), dim) float32."""
        ...

    def embed_query(self, text: str) -> np.ndarray:
        """(dim,) float32."""
        ...


def l2_normalise(matrix: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length (zero rows stay zero), as float32."""
    matrix = np.asarray(matrix, dtype=np.float32)
    if matrix.ndim == 1:
        return l2_normalise(matrix[None, :])[0]
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return (matrix / np.where(norms == 0, 1.0, norms)).astype(np.float32, copy=False)


def as_matrix(vectors: np.ndarray, n: int, dim: int) -> np.ndarray:
    """Check the shape a backend returned: (n, dim) float32, C-contiguous."""
    out = np.ascontiguousarray(vectors, dtype=np.float32).reshape(n, dim) if n else np.zeros((0, dim), np.float32)
    return out


def batched(items: Sequence[str], size: int) -> list[Sequence[str]]:
    return [items[i : i + size] for i in range(0, len(items), size)]
