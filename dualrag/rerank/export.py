"""Turn a local Hugging Face cross-encoder checkpoint into an ONNX folder (optional `[export]` extra).

Only local files are read (`local_files_only=True`): download the checkpoint yourself.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from dualrag.rerank import calibration
from dualrag.rerank.base import ModelError
from dualrag.rerank.folder import MODEL_FILE, SIDE_FILES, TOKENIZER_FILE, _first_line

INSTALL_HINT = "exporting needs torch and transformers: pip install 'dualrag[export]'"
_WEIGHTS = ("model.safetensors", "pytorch_model.bin", "model.safetensors.index.json", "pytorch_model.bin.index.json")


@dataclass(frozen=True)
class ExportResult:
    folder: Path
    inputs: list[str]
    n_logits: int
    max_abs_diff: float  # ONNX Runtime vs PyTorch logits on a few pairs
    int8_file: Path | None = None


def export_reranker(hf_dir: str | Path, out_dir: str | Path, *, int8: bool = False, opset: int = 17) -> ExportResult:
    try:
        import torch
        from transformers import AutoConfig, AutoModelForSequenceClassification, AutoTokenizer
    except ImportError:
        raise ModelError(INSTALL_HINT) from None
    src, out = Path(hf_dir), Path(out_dir)
    if not (src / "config.json").is_file():
        raise ModelError(f"{src}: no config.json (not a Hugging Face checkpoint folder)")
    if not any((src / w).is_file() for w in _WEIGHTS):
        raise ModelError(f"{src}: no model weights ({' or '.join(_WEIGHTS[:2])})")
    try:
        config = AutoConfig.from_pretrained(src, local_files_only=True)
        tokenizer = AutoTokenizer.from_pretrained(src, local_files_only=True, use_fast=True)
        model = AutoModelForSequenceClassification.from_pretrained(
            src, local_files_only=True, attn_implementation="eager").eval()
    except Exception as exc:
        raise ModelError(f"{src}: cannot load the checkpoint: {_first_line(exc)}") from None
    if not getattr(tokenizer, "is_fast", False):
        raise ModelError(f"{src}: no fast tokenizer (tokenizer.json) can be made for this model")
    n_logits = int(getattr(config, "num_labels", 1))
    if n_logits not in (1, 2):
        raise ModelError(f"{src}: a classification head with {n_logits} labels is not a cross-encoder")
    with_types = int(getattr(config, "type_vocab_size", 0) or 0) > 1
    names = ["input_ids", "attention_mask"] + (["token_type_ids"] if with_types else [])

    class Logits(torch.nn.Module):
        def __init__(self, inner):
            super().__init__()
            self.inner = inner

        def forward(self, input_ids, attention_mask, token_type_ids=None):
            kwargs = {"input_ids": input_ids, "attention_mask": attention_mask}
            if token_type_ids is not None:
                kwargs["token_type_ids"] = token_type_ids
            return self.inner(**kwargs).logits

    pairs = [("what does null check mean", "check a value for null before use"), ("query", "a longer candidate " * 8)]
    enc = tokenizer([q for q, _ in pairs], [c for _, c in pairs], padding=True, truncation=True,
                    max_length=128, return_tensors="pt", return_token_type_ids=with_types)
    args = tuple(enc[n] for n in names)
    out.mkdir(parents=True, exist_ok=True)
    axes = {n: {0: "batch", 1: "sequence"} for n in names} | {"logits": {0: "batch"}}
    try:
        with torch.no_grad():
            torch.onnx.export(Logits(model), args, str(out / MODEL_FILE), input_names=names, output_names=["logits"],
                              dynamic_axes=axes, opset_version=opset, do_constant_folding=True, dynamo=False)
    except Exception as exc:
        raise ModelError(f"ONNX export of {src} failed: {_first_line(exc)}") from None
    calibration.forget(out, MODEL_FILE)
    tokenizer.backend_tokenizer.save(str(out / TOKENIZER_FILE))
    for name in SIDE_FILES:
        if (src / name).is_file():
            shutil.copy2(src / name, out / name)
    if not (out / "config.json").is_file():
        config.to_json_file(str(out / "config.json"))
    diff = _compare(out, model, enc, names, n_logits)
    int8_file = None
    if int8:
        from dualrag.rerank.quantize import quantize

        int8_file = quantize(out)
    return ExportResult(out, names, n_logits, diff, int8_file)


def _compare(out: Path, model, enc, names: list[str], n_logits: int) -> float:
    import numpy as np
    import onnxruntime as ort
    import torch

    model.eval()  # the exporter may leave the module in training mode (dropout on)
    with torch.no_grad():
        ref = model(**{n: enc[n] for n in names}).logits.numpy()
    session = ort.InferenceSession(str(out / MODEL_FILE), providers=["CPUExecutionProvider"])
    got = session.run(["logits"], {n: enc[n].numpy().astype(np.int64) for n in names})[0]
    return float(np.max(np.abs(ref.reshape(-1, n_logits) - got.reshape(-1, n_logits))))
