"""The token-estimator interface shared by every estimator kind."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol, runtime_checkable


class TokenizerUnavailable(RuntimeError):
    """Raised when an exact tokenizer's data is not installed or configured.

    Never triggers a download: the message says what to install or configure.
    """


@runtime_checkable
class TokenEstimator(Protocol):
    """Counts (or estimates) how many tokens a model would see for a text."""

    name: str

    def count(self, text: str) -> int:
        """Tokens for `text`; 0 for the empty string unless a per-request overhead applies."""
        ...

    def count_many(self, texts: Iterable[str]) -> list[int]:
        """`count` for each text, in order (implementations may batch)."""
        ...


def utf8(text: str) -> bytes:
    """UTF-8 bytes of `text`; lone surrogates (from lossy decoding) become '?' instead of raising."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "replace")
