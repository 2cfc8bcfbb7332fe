"""Reading a model folder: which files it has, its tokenizer, its maximum length, its pad token."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dualrag.rerank.base import ModelError

MODEL_FILE = "model.onnx"
INT8_MODEL_FILE = "model_int8.onnx"
TOKENIZER_FILE = "tokenizer.json"
SIDE_FILES = ("config.json", "tokenizer_config.json", "special_tokens_map.json")
DEFAULT_MAX_LENGTH = 512
# tokenizer_config.json says 1e30 when it does not know; anything this large means "unknown"
_UNKNOWN_LENGTH = 1_000_000
# RoBERTa-family position embeddings reserve padding_idx + 1 slots
_ROBERTA_TYPES = {"roberta", "xlm-roberta", "camembert", "xlm-roberta-xl"}
_PAD_TOKENS = ("[PAD]", "<pad>", "<PAD>", "[pad]")


@dataclass(frozen=True)
class ModelFolder:
    """What a model folder says about itself (files are checked, the ONNX graph is not loaded here)."""

    path: Path
    model_file: Path
    tokenizer_file: Path
    config: dict[str, Any] = field(default_factory=dict)
    tokenizer_config: dict[str, Any] = field(default_factory=dict)
    special_tokens: dict[str, Any] = field(default_factory=dict)

    @property
    def model_type(self) -> str | None:
        return self.config.get("model_type")

    @property
    def type_vocab_size(self) -> int | None:
        value = self.config.get("type_vocab_size")
        return int(value) if isinstance(value, int) else None

    def model_max_length(self) -> int | None:
        """The longest input the model accepts, from tokenizer_config or config.json (None = unknown)."""
        candidates = []
        tml = self.tokenizer_config.get("model_max_length")
        if isinstance(tml, (int, float)) and 0 < tml < _UNKNOWN_LENGTH:
            candidates.append(int(tml))
        mpe = self.config.get("max_position_embeddings")
        if isinstance(mpe, int) and mpe > 0:
            candidates.append(mpe - 2 if self.model_type in _ROBERTA_TYPES else mpe)
        return min(candidates) if candidates else None

    def pad_token(self) -> str | None:
        for source in (self.special_tokens, self.tokenizer_config):
            value = source.get("pad_token")
            if isinstance(value, dict):
                value = value.get("content")
            if isinstance(value, str):
                return value
        return None


def open_folder(path: str | Path, *, int8: bool = False) -> ModelFolder:
    """Check that `path` is a usable model folder; ModelError names what is missing or broken."""
    folder = Path(path)
    if not folder.exists():
        raise ModelError(f"model folder not found: {folder}")
    if not folder.is_dir():
        raise ModelError(f"model folder is not a directory: {folder}")
    wanted, other = (INT8_MODEL_FILE, MODEL_FILE) if int8 else (MODEL_FILE, INT8_MODEL_FILE)
    model_file = folder / wanted
    if not model_file.is_file():
        hint = ""
        if int8 and (folder / MODEL_FILE).is_file():
            hint = f" (make it with: dualrag models quantize {folder})"
        elif not int8 and (folder / other).is_file():
            hint = f" (it has {other}: set rerank.int8 = true)"
        raise ModelError(f"{folder}: no {wanted}{hint}")
    tokenizer_file = folder / TOKENIZER_FILE
    if not tokenizer_file.is_file():
        raise ModelError(
            f"{folder}: no {TOKENIZER_FILE} (export a fast tokenizer: dualrag models export-reranker)"
        )
    side = {name: _read_json(folder / name) for name in SIDE_FILES}
    return ModelFolder(
        path=folder,
        model_file=model_file,
        tokenizer_file=tokenizer_file,
        config=side["config.json"],
        tokenizer_config=side["tokenizer_config.json"],
        special_tokens=side["special_tokens_map.json"],
    )


def _read_json(path: Path) -> dict[str, Any]:
    if not path.is_file():
        return {}
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ModelError(f"{path}: not readable JSON: {exc}") from None
    if not isinstance(value, dict):
        raise ModelError(f"{path}: expected a JSON object")
    return value


def load_tokenizer(folder: ModelFolder):
    """The folder's `tokenizers.Tokenizer` with its own truncation and padding switched off, and
    the padding token id (tokenizer.json's padding, the special-tokens map, or a usual name)."""
    from tokenizers import Tokenizer

    try:
        tokenizer = Tokenizer.from_file(str(folder.tokenizer_file))
    except Exception as exc:  # the Rust side raises plain Exception for bad files
        raise ModelError(f"{folder.tokenizer_file}: not a loadable tokenizer: {_first_line(exc)}") from None
    padding = tokenizer.padding or {}
    tokenizer.no_truncation()
    tokenizer.no_padding()
    if tokenizer.get_vocab_size() == 0:
        raise ModelError(f"{folder.tokenizer_file}: the tokenizer has an empty vocabulary")
    return tokenizer, _pad_id(folder, tokenizer, padding)


def _pad_id(folder: ModelFolder, tokenizer, padding: dict) -> int:
    if isinstance(padding.get("pad_id"), int) and padding.get("pad_token"):
        return padding["pad_id"]
    names = [n for n in (folder.pad_token(), *_PAD_TOKENS) if n]
    for name in names:
        token_id = tokenizer.token_to_id(name)
        if token_id is not None:
            return token_id
    pad = folder.config.get("pad_token_id")
    return pad if isinstance(pad, int) else 0


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:300] if text else type(exc).__name__
