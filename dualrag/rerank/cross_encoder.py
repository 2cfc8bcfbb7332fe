"""A cross-encoder reranker on ONNX Runtime for any BGE-compatible model folder.

The folder holds `model.onnx` (or `model_int8.onnx`) and `tokenizer.json`, plus `config.json`,
`tokenizer_config.json` and `special_tokens_map.json` when present. Works for XLM-RoBERTa
models without `token_type_ids` (bge-reranker-base/large/v2-m3) and BERT models with them
(ms-marco MiniLM cross-encoders): the inputs are read from the ONNX session.

Each (query, candidate) pair is tokenised with the tokenizer's own post-processor (its
`[CLS] A [SEP] B [SEP]` or `<s> A </s></s> B </s>` template). The query keeps its budget first
(truncated only when it alone exceeds `query_fraction` of the max length), the candidate gets
the rest. Pairs are sorted by length and run in batches so little padding is wasted; scores
come back in candidate order and do not depend on which other candidates share a batch.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from dualrag.config.retrieval import RerankConfig
from dualrag.rerank import calibration
from dualrag.rerank.base import BaseReranker, ModelError
from dualrag.rerank.folder import DEFAULT_MAX_LENGTH, ModelFolder, _first_line, load_tokenizer, open_folder

KNOWN_INPUTS = ("input_ids", "attention_mask", "token_type_ids")
REQUIRED_INPUTS = ("input_ids", "attention_mask")
CHARS_PER_TOKEN_CAP = 8  # texts are cut to 8 characters per token of budget before tokenising
_ENCODE_WINDOW = 512  # candidates tokenised at a time (bounds the memory of token objects)


def _int_type(ort_type: str) -> type:
    return {"tensor(int64)": np.int64, "tensor(int32)": np.int32}.get(ort_type, np.int64)


class OnnxCrossEncoder(BaseReranker):
    """Scores (query, candidate) pairs with a local ONNX cross-encoder; scores are in 0..1."""

    available = True
    reason = None

    def __init__(
        self,
        model_dir: str | Path,
        *,
        int8: bool = False,
        threads: int = 2,
        batch_size: int = 8,
        max_length: int | None = None,
        query_fraction: float = 0.5,
    ) -> None:
        if batch_size < 1:
            raise ValueError("batch_size must be >= 1")
        if not 0 < query_fraction < 1:
            raise ValueError("query_fraction must be between 0 and 1")
        self.folder: ModelFolder = open_folder(model_dir, int8=int8)
        self.name = self.folder.path.name + (" (int8)" if int8 else "")
        self.batch_size = batch_size
        self.tokenizer, self.pad_id = load_tokenizer(self.folder)
        self.max_length = self._resolve_max_length(max_length)
        self.n_special = self.tokenizer.num_special_tokens_to_add(True)
        if self.max_length <= self.n_special + 2:
            raise ModelError(f"max_length {self.max_length} leaves no room for text")
        text_budget = self.max_length - self.n_special
        self.query_budget = max(1, int(text_budget * query_fraction))
        self.char_cap = CHARS_PER_TOKEN_CAP * self.max_length
        self.session = _open_session(self.folder.model_file, threads)
        self.inputs, self.output_name, self.n_logits = _check_signature(self.session, self.folder.model_file)
        # a token_type_ids input with a one-row type table (RoBERTa family) only accepts zeros
        self.zero_type_ids = self.folder.type_vocab_size == 1
        self.calibration = calibration.load(self.folder.path, self.folder.model_file.name)
        self.calibrated_threshold = self.calibration.threshold if self.calibration else None

    @classmethod
    def from_config(cls, config: RerankConfig) -> OnnxCrossEncoder:
        if config.model_dir is None:
            raise ModelError("no reranker model folder configured (rerank.model_dir)")
        return cls(config.model_dir, int8=config.int8, threads=config.threads, batch_size=config.batch_size,
                   max_length=config.max_length)

    # ------------------------------------------------------------------ setup

    def _resolve_max_length(self, configured: int | None) -> int:
        model_limit = self.folder.model_max_length()
        if configured is None:
            return min(model_limit or DEFAULT_MAX_LENGTH, DEFAULT_MAX_LENGTH)
        if model_limit is not None and configured > model_limit:
            raise ModelError(
                f"rerank.max_length {configured} exceeds the model's limit of {model_limit} tokens ({self.folder.path})"
            )
        return configured

    # ------------------------------------------------------------------ tokenising

    def encode_pairs(self, query: str, candidates: Sequence[str]) -> list[tuple[np.ndarray, np.ndarray]]:
        """Token ids and type ids of each (query, candidate) pair, truncated to max_length.

        The query is cut to its budget only when it alone exceeds it; the candidate gets the
        remaining tokens. Texts are cut to `char_cap` characters first to bound tokeniser time.
        """
        tok = self.tokenizer
        q = tok.encode(query[: self.char_cap], add_special_tokens=False)
        if len(q.ids) > self.query_budget:
            q.truncate(self.query_budget)
        room = self.max_length - self.n_special - len(q.ids)
        pairs: list[tuple[np.ndarray, np.ndarray]] = []
        for start in range(0, len(candidates), _ENCODE_WINDOW):
            window = [c[: self.char_cap] for c in candidates[start : start + _ENCODE_WINDOW]]
            for c in tok.encode_batch(window, add_special_tokens=False):
                if len(c.ids) > room:
                    c.truncate(room)
                pair = tok.post_process(q, c, add_special_tokens=True)
                pairs.append((np.asarray(pair.ids, dtype=np.int64), np.asarray(pair.type_ids, dtype=np.int8)))
        return pairs

    # ------------------------------------------------------------------ scoring

    def logits(self, query: str, candidates: Sequence[str]) -> np.ndarray:
        """The raw relevance logit of each candidate (for a 2-logit head: positive minus negative)."""
        if isinstance(candidates, str):
            raise TypeError("candidates must be a sequence of strings, not one string")
        if not candidates:
            return np.zeros(0, dtype=np.float32)
        pairs = self.encode_pairs(query, candidates)
        lengths = np.fromiter((len(ids) for ids, _ in pairs), dtype=np.int64, count=len(pairs))
        order = np.argsort(lengths, kind="stable")
        out = np.empty(len(pairs), dtype=np.float32)
        for start in range(0, len(order), self.batch_size):
            batch = order[start : start + self.batch_size]
            out[batch] = self._run([pairs[i] for i in batch])
        return out

    def score(self, query: str, candidates: Sequence[str]) -> list[float]:
        """Relevance in 0..1: sigmoid of the logit (softmax of the positive class for 2 logits)."""
        logits = self.logits(query, candidates).astype(np.float64)
        return [float(x) for x in 0.5 * (1.0 + np.tanh(0.5 * logits))]  # sigmoid without overflow

    def _run(self, batch: list[tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
        width = max(len(ids) for ids, _ in batch)
        n = len(batch)
        input_ids = np.full((n, width), self.pad_id, dtype=np.int64)
        attention = np.zeros((n, width), dtype=np.int64)
        type_ids = np.zeros((n, width), dtype=np.int64)
        for row, (ids, types) in enumerate(batch):
            input_ids[row, : len(ids)] = ids
            attention[row, : len(ids)] = 1
            if not self.zero_type_ids:
                type_ids[row, : len(ids)] = types
        arrays = {"input_ids": input_ids, "attention_mask": attention, "token_type_ids": type_ids}
        feed = {name: arrays[name].astype(dtype, copy=False) for name, dtype in self.inputs.items()}
        try:
            (raw,) = self.session.run([self.output_name], feed)
        except Exception as exc:  # onnxruntime raises its own exception types
            raise ModelError(f"{self.folder.model_file}: inference failed: {_first_line(exc)}") from None
        return _to_logit(np.asarray(raw, dtype=np.float32), n, self.folder.model_file)


def _open_session(model_file: Path, threads: int):
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.log_severity_level = 3
    try:
        return ort.InferenceSession(str(model_file), sess_options=options, providers=["CPUExecutionProvider"])
    except Exception as exc:
        raise ModelError(f"{model_file}: not a loadable ONNX model: {_first_line(exc)}") from None


def _check_signature(session, model_file: Path) -> tuple[dict[str, type], str, int | None]:
    """The inputs to feed (name -> integer dtype), the output to read, and its logit count if known."""
    inputs = {i.name: i for i in session.get_inputs()}
    unknown = sorted(set(inputs) - set(KNOWN_INPUTS))
    if unknown:
        raise ModelError(
            f"{model_file}: unexpected model input(s) {', '.join(unknown)} "
            f"(a cross-encoder takes {', '.join(KNOWN_INPUTS)})"
        )
    missing = [name for name in REQUIRED_INPUTS if name not in inputs]
    if missing:
        raise ModelError(f"{model_file}: model input(s) missing: {', '.join(missing)}")
    for name, info in inputs.items():
        if info.type not in ("tensor(int64)", "tensor(int32)"):
            raise ModelError(f"{model_file}: input {name} has type {info.type}, expected int64 or int32")
        if len(info.shape) != 2:
            raise ModelError(f"{model_file}: input {name} has rank {len(info.shape)}, expected (batch, sequence)")
    outputs = session.get_outputs()
    chosen = next((o for o in outputs if o.name == "logits"), outputs[0] if outputs else None)
    if chosen is None:
        raise ModelError(f"{model_file}: the model has no outputs")
    shape = chosen.shape
    n_logits = None
    if len(shape) == 2 and isinstance(shape[1], int):
        n_logits = shape[1]
    elif len(shape) == 1:
        n_logits = 1
    if len(shape) not in (1, 2) or (n_logits is not None and n_logits not in (1, 2)):
        raise ModelError(
            f"{model_file}: output {chosen.name} has shape {list(shape)}; a cross-encoder gives "
            "(batch, 1) or (batch, 2) logits (is this an embedding model?)"
        )
    return {name: _int_type(inputs[name].type) for name in inputs}, chosen.name, n_logits


def _to_logit(raw: np.ndarray, n: int, model_file: Path) -> np.ndarray:
    if raw.ndim == 1 and raw.shape[0] == n:
        return raw
    if raw.ndim == 2 and raw.shape[0] == n and raw.shape[1] == 1:
        return raw[:, 0]
    if raw.ndim == 2 and raw.shape[0] == n and raw.shape[1] == 2:
        # softmax(x)[1] == sigmoid(x1 - x0): the positive class's margin is the logit
        return raw[:, 1] - raw[:, 0]
    raise ModelError(f"{model_file}: output has shape {list(raw.shape)}, expected ({n}, 1) or ({n}, 2)")
