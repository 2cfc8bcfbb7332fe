"""Token estimators: `exact` (real tokenizers, offline), `fast` (default), `formula` (article baseline).

    from dualrag.tokens import get_estimator
    est = get_estimator("fast", model="gpt-4o")
    est.count(text); est.count_many(texts)

Importing this package is cheap: tiktoken/tokenizers load only when an `exact` estimator is built.
"""

from __future__ import annotations

from pathlib import Path

from .base import TokenEstimator, TokenizerUnavailable
from .fast import FastEstimator
from .formula import REQUEST_OVERHEAD, FormulaEstimator

__all__ = [
    "KINDS",
    "REQUEST_OVERHEAD",
    "FastEstimator",
    "FormulaEstimator",
    "TokenEstimator",
    "TokenizerUnavailable",
    "encoding_for_model",
    "get_estimator",
]

KINDS = ("fast", "exact", "formula")
DEFAULT_ENCODING = "o200k_base"

# "Open" prefixes match any continuation (gpt-4o-mini, gpt-5.1); strict ones only exactly or before
# a dash, so "gpt-4-turbo" is cl100k while "gpt-4o" (checked first) is o200k.
_OPEN_PREFIXES = ("gpt-5", "gpt-4.5", "gpt-4.1", "gpt-4o", "chatgpt-4o", "gpt-oss")
_STRICT_PREFIXES = {
    "o1": "o200k_base",
    "o3": "o200k_base",
    "o4": "o200k_base",
    "gpt-4": "cl100k_base",
    "gpt-3.5": "cl100k_base",
    "text-embedding-3": "cl100k_base",
    "text-embedding-ada-002": "cl100k_base",
}
# Families whose tokenizer is not a tiktoken encoding: they need a local tokenizer.json.
_HF_FAMILIES = (
    "qwen",
    "llama",
    "deepseek",
    "bge",
    "mistral",
    "glm",
    "yi-",
    "baichuan",
    "gemma",
    "phi",
)


def encoding_for_model(model: str | None) -> str:
    """tiktoken encoding name for an OpenAI model name (provider prefixes like `openai/` are ignored).

    Raises TokenizerUnavailable for families that need a configured tokenizer.json, and ValueError
    for names it does not recognise.
    """
    if not model:
        return DEFAULT_ENCODING
    name = model.strip().lower().rsplit("/", 1)[-1]
    if name in ("o200k_base", "cl100k_base"):
        return name
    if name.startswith(_OPEN_PREFIXES):
        return "o200k_base"
    for prefix, encoding in _STRICT_PREFIXES.items():
        if name == prefix or name.startswith(prefix + "-"):
            return encoding
    if any(name.startswith(f) for f in _HF_FAMILIES):
        raise TokenizerUnavailable(
            f"model {model!r} uses a Hugging Face tokenizer: set tokenizer_path to its local tokenizer.json"
        )
    raise ValueError(
        f"unknown model family {model!r}; pass tokenizer_path or an encoding name"
    )


def _sampling_reference(encoding: str) -> TokenEstimator | None:
    """The exact tokenizer `fast` samples small texts with, or None (pure bigram) without one."""
    from .exact import TiktokenEstimator

    try:
        return TiktokenEstimator(encoding)
    except (TokenizerUnavailable, ImportError, OSError):
        return None


def _is_hf_tokenizer(path: str) -> bool:
    p = Path(path).expanduser()
    return p.suffix == ".json" or (p.is_dir() and (p / "tokenizer.json").is_file())


def get_estimator(
    kind: str = "fast", *, model: str | None = None, tokenizer_path: str | None = None
) -> TokenEstimator:
    """Build a token estimator.

    kind:
      "fast"    (default) calibrated estimate; uses the cl100k calibration for cl100k models,
                o200k otherwise (including HF-tokenizer models, whose exact counts are closer to it).
      "exact"   real tokenizer, offline: tokenizer_path to a tokenizer.json (HF tokenizers), or a
                .tiktoken file/directory; else the tiktoken encoding chosen by `model` (default o200k_base).
      "formula" the article's baseline (count() includes the 63-token request overhead).
    """
    if kind == "formula":
        return FormulaEstimator()
    if kind == "fast":
        try:
            family = encoding_for_model(model).removesuffix("_base")
        except (TokenizerUnavailable, ValueError):
            family = "o200k"
        return FastEstimator(family, reference=_sampling_reference(f"{family}_base"))
    if kind == "exact":
        from .exact import (
            HFTokenizerEstimator,
            TiktokenEstimator,
        )  # tiktoken/tokenizers load lazily in there

        if tokenizer_path and _is_hf_tokenizer(tokenizer_path):
            return HFTokenizerEstimator(tokenizer_path)
        return TiktokenEstimator(encoding_for_model(model), tokenizer_path)
    raise ValueError(f"unknown estimator kind {kind!r}; choose one of {KINDS}")
