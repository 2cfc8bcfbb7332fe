"""sentence-transformers backend (optional extra `dualrag[st]`; brings torch). Loads local files only."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .base import EmbeddingError, as_matrix, l2_normalise


class SentenceTransformerEmbedder:
    def __init__(
        self,
        model: str,
        *,
        query_prefix: str = "",
        document_prefix: str = "",
        batch_size: int = 32,
        allow_download: bool = False,
    ) -> None:
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError:
            raise EmbeddingError(
                f"embedder 'st:{model}' needs sentence-transformers, an optional extra: "
                "pip install 'dualrag[st]' (it brings torch), or export the model to ONNX and "
                "give its folder instead"
            ) from None
        try:
            self._model = SentenceTransformer(model, device="cpu", local_files_only=not allow_download)
        except Exception as exc:  # OSError for a missing model, ValueError for a bad folder...
            raise EmbeddingError(f"cannot load sentence-transformers model '{model}' from local files: {exc}") from None
        self.query_prefix = query_prefix
        self.document_prefix = document_prefix
        self.batch_size = batch_size
        self.dim = int(self._model.get_sentence_embedding_dimension())
        self.name = f"st/{model}"

    def _encode(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), np.float32)
        out = self._model.encode(
            texts, batch_size=self.batch_size, normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False
        )
        return l2_normalise(as_matrix(out, len(texts), self.dim))

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        return self._encode([self.document_prefix + t for t in texts])

    def embed_query(self, text: str) -> np.ndarray:
        return self._encode([self.query_prefix + text])[0]
