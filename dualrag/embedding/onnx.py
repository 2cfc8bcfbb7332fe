"""Any exported transformer encoder folder on ONNX Runtime: `model.onnx` + `tokenizer.json`.

Works for BGE (bge-m3, bge-small-zh: CLS pooling), e5 / MiniLM style models (mean pooling) and
models whose graph already outputs a pooled sentence embedding (a 2-D output is used as is).
Vectors are L2-normalised. Prefixes (e5's "query: ", BGE's query instruction) come from config.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

import numpy as np

from .base import EmbeddingError, as_matrix, l2_normalise

MODEL_FILE = "model.onnx"
TOKENIZER_FILE = "tokenizer.json"


def _model_file(folder: Path) -> Path | None:
    for candidate in (folder / MODEL_FILE, folder / "onnx" / MODEL_FILE):
        if candidate.is_file():
            return candidate
    return None


class OnnxEmbedder:
    def __init__(
        self,
        folder: str | Path,
        *,
        pooling: Literal["mean", "cls"] = "mean",
        query_prefix: str = "",
        document_prefix: str = "",
        max_length: int = 512,
        batch_size: int = 32,
        threads: int | None = None,
    ) -> None:
        folder = Path(folder)
        model_path = _model_file(folder) if folder.is_dir() else None
        if model_path is None or not (folder / TOKENIZER_FILE).is_file():
            raise EmbeddingError(f"{folder}: not an ONNX model folder (needs {MODEL_FILE} and {TOKENIZER_FILE})")
        try:
            import onnxruntime as ort
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise EmbeddingError(f"ONNX embedders need onnxruntime and tokenizers: {exc}") from None
        try:
            self._tokenizer = Tokenizer.from_file(str(folder / TOKENIZER_FILE))
        except Exception as exc:  # tokenizers raises plain Exception subclasses
            raise EmbeddingError(f"{folder / TOKENIZER_FILE}: cannot load tokenizer: {exc}") from None
        self._tokenizer.enable_truncation(max_length=max_length)
        self._tokenizer.no_padding()
        options = ort.SessionOptions()
        options.log_severity_level = 3
        if threads:
            options.intra_op_num_threads = threads
            options.inter_op_num_threads = 1
        try:
            self._session = ort.InferenceSession(str(model_path), options, providers=["CPUExecutionProvider"])
        except Exception as exc:
            raise EmbeddingError(f"{model_path}: cannot load ONNX model: {exc}") from None
        self._inputs = {i.name for i in self._session.get_inputs()}
        if "input_ids" not in self._inputs:
            raise EmbeddingError(f"{model_path}: the graph has no 'input_ids' input (inputs: {sorted(self._inputs)})")
        self._output = self._session.get_outputs()[0].name
        self.pooling = pooling
        self.query_prefix = query_prefix
        self.document_prefix = document_prefix
        self.batch_size = batch_size
        pad_id = self._tokenizer.token_to_id("[PAD]")
        if pad_id is None:
            pad_id = self._tokenizer.token_to_id("<pad>")
        self._pad_id = pad_id if pad_id is not None else 0
        # identity of model + preprocessing, cheap to compute even for multi-GB models
        stat = model_path.stat()
        tag = hashlib.sha256(
            f"{stat.st_size}|{pooling}|{query_prefix}|{document_prefix}|{max_length}".encode()
        ).hexdigest()[:10]
        self.name = f"onnx/{folder.resolve().name}@{tag}"
        self.dim = int(self._run(["dim probe"]).shape[1])

    def _run(self, texts: list[str]) -> np.ndarray:
        encodings = self._tokenizer.encode_batch(texts)
        width = max(1, max(len(e.ids) for e in encodings))
        ids = np.full((len(texts), width), self._pad_id, dtype=np.int64)
        mask = np.zeros((len(texts), width), dtype=np.int64)
        types = np.zeros((len(texts), width), dtype=np.int64)
        for row, enc in enumerate(encodings):
            n = len(enc.ids)
            ids[row, :n] = enc.ids
            mask[row, :n] = 1
            types[row, :n] = enc.type_ids
        feed = {"input_ids": ids}
        if "attention_mask" in self._inputs:
            feed["attention_mask"] = mask
        if "token_type_ids" in self._inputs:
            feed["token_type_ids"] = types
        out = np.asarray(self._session.run([self._output], feed)[0], dtype=np.float32)
        if out.ndim == 2:  # the graph pools itself
            return l2_normalise(out)
        if out.ndim != 3:
            raise EmbeddingError(f"ONNX output '{self._output}' has shape {out.shape}; expected (batch, [tokens,] dim)")
        if self.pooling == "cls":
            pooled = out[:, 0, :]
        else:
            weights = mask[:, :, None].astype(np.float32)
            pooled = (out * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1.0)
        return l2_normalise(pooled)

    def _embed(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), np.float32)
        # sort by length so each batch pads little; restore the order afterwards
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out = np.empty((len(texts), self.dim), np.float32)
        for start in range(0, len(order), self.batch_size):
            idx = order[start : start + self.batch_size]
            out[idx] = self._run([texts[i] for i in idx])
        return as_matrix(out, len(texts), self.dim)

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        return self._embed([self.document_prefix + t for t in texts])

    def embed_query(self, text: str) -> np.ndarray:
        return self._embed([self.query_prefix + text])[0]
