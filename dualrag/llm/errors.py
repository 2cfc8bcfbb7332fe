"""Typed LLM errors and their classification.

Callers count and branch on these, never on SDK exceptions:

- `ProviderError` (the call failed; `kind` says why, `retryable`/`failback` say what helps),
  with `ContextOverflow` as its own class so a caller can split the chunk;
- `OutputError` (the model answered but the answer is unusable): `InvalidOutput` (not JSON or
  not the schema, even after repair), `EmptyOutput`, `Truncated` (still cut at max tokens after
  the retry with more room: split the chunk);
- `Unavailable` (every model of the chain failed, breakers open, or no time left);
- `Cancelled` (the caller's cancel event was set);
- `MissingExtra` (an optional dependency is not installed: a configuration error, exit 2).
"""

from __future__ import annotations

import email.utils
import re
import time
from enum import Enum
from typing import TYPE_CHECKING, Any

from dualrag.errors import ConfigError

if TYPE_CHECKING:
    from dualrag.llm.types import LLMResponse, Usage


class ErrorKind(str, Enum):
    RATE_LIMIT = "rate_limit"
    OVERLOADED = "overloaded"
    SERVER = "server"
    TIMEOUT = "timeout"
    CONNECTION = "connection"
    AUTH = "auth"
    PERMISSION = "permission"
    CONTEXT_OVERFLOW = "context_overflow"
    BAD_REQUEST = "bad_request"
    NOT_FOUND = "not_found"
    CANCELLED = "cancelled"
    CIRCUIT_OPEN = "circuit_open"  # our breaker refused the call; nothing was sent
    DEADLINE = "deadline"  # too little time left to start an attempt
    UNKNOWN = "unknown"


# retry the same model / try the next model of the chain
_POLICY: dict[ErrorKind, tuple[bool, bool]] = {
    ErrorKind.RATE_LIMIT: (True, True),
    ErrorKind.OVERLOADED: (True, True),
    ErrorKind.SERVER: (True, True),
    ErrorKind.TIMEOUT: (True, True),
    ErrorKind.CONNECTION: (True, True),
    ErrorKind.NOT_FOUND: (False, True),
    ErrorKind.CIRCUIT_OPEN: (False, True),
    ErrorKind.DEADLINE: (False, False),  # model missing on this endpoint: a sibling may exist
    ErrorKind.AUTH: (False, False),
    ErrorKind.PERMISSION: (False, False),
    ErrorKind.CONTEXT_OVERFLOW: (False, False),
    ErrorKind.BAD_REQUEST: (False, False),
    ErrorKind.CANCELLED: (False, False),
    ErrorKind.UNKNOWN: (False, False),
}


class LLMError(Exception):
    """Base of every error of the LLM layer."""

    def __init__(self, message: str, *, model: str | None = None, usage: "Usage | None" = None) -> None:
        super().__init__(message)
        self.model = model
        self.usage = usage  # tokens spent getting here (answers that were unusable still cost)


class ProviderError(LLMError):
    def __init__(
        self,
        kind: ErrorKind,
        message: str,
        *,
        model: str | None = None,
        status: int | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(f"{kind.value}: {message}", model=model)
        self.kind = kind
        self.status = status
        self.retry_after = retry_after

    @property
    def retryable(self) -> bool:
        return _POLICY[self.kind][0]

    @property
    def failback(self) -> bool:
        return _POLICY[self.kind][1]

    @property
    def trips_breaker(self) -> bool:
        """Failures that say the model/endpoint is unhealthy (not the request's fault)."""
        return self.retryable


class ContextOverflow(ProviderError):
    """The prompt does not fit the model's window: split the chunk."""

    def __init__(self, message: str, **kw: Any) -> None:
        super().__init__(ErrorKind.CONTEXT_OVERFLOW, message, **kw)


class OutputError(LLMError):
    """The model answered, but the answer cannot be used."""

    def __init__(self, message: str, *, response: "LLMResponse | None" = None, **kw: Any) -> None:
        super().__init__(message, **kw)
        self.response = response


class InvalidOutput(OutputError):
    """Not JSON, or JSON that does not validate against the schema, even after repair."""

    def __init__(self, message: str, *, raw: str = "", **kw: Any) -> None:
        super().__init__(message, **kw)
        self.raw = raw


class EmptyOutput(OutputError):
    """No text and no tool call."""


class Truncated(OutputError):
    """Still cut at max tokens after one retry with more room: the caller should split the chunk."""


class Unavailable(LLMError):
    """No model of the chain produced an answer. `errors` lists what happened, in order."""

    def __init__(self, message: str, *, errors: list[LLMError] | None = None, **kw: Any) -> None:
        super().__init__(message, **kw)
        self.errors = errors or []

    @property
    def last(self) -> LLMError | None:
        return self.errors[-1] if self.errors else None


class Cancelled(LLMError):
    """The caller asked to stop."""


class MissingExtra(LLMError, ConfigError):
    """An optional dependency is not installed; the message names the pip command."""


# ------------------------------------------------------------------------------ classification

_OVERFLOW = re.compile(
    r"context[ _-]?length|context window|maximum context|prompt is too long|too many tokens|"
    r"exceeds? the (available )?context|context size|input is too long|reduce the length|"
    r"request_too_large|too large for model",
    re.I,
)
_OVERLOADED = re.compile(r"overload", re.I)


def classify_status(status: int, message: str = "", err_type: str | None = None, code: str | None = None) -> ErrorKind:
    """Map an HTTP status plus the provider's error type/code/message to an ErrorKind."""
    text = " ".join(x for x in (message, err_type or "", code or "") if x)
    if (err_type and "overloaded" in err_type) or status == 529:
        return ErrorKind.OVERLOADED
    if status == 429:
        return ErrorKind.RATE_LIMIT
    if status in (401,):
        return ErrorKind.AUTH
    if status == 403:
        return ErrorKind.PERMISSION
    if status == 404:
        return ErrorKind.NOT_FOUND
    if status == 413 or _OVERFLOW.search(text):
        return ErrorKind.CONTEXT_OVERFLOW
    if status == 499:
        return ErrorKind.CANCELLED
    if status in (408, 504):
        return ErrorKind.TIMEOUT
    if status == 503 or _OVERLOADED.search(text):
        return ErrorKind.OVERLOADED
    if status >= 500:
        return ErrorKind.SERVER
    if 400 <= status < 500:
        return ErrorKind.BAD_REQUEST
    return ErrorKind.UNKNOWN


def make_error(kind: ErrorKind, message: str, **kw: Any) -> ProviderError:
    if kind is ErrorKind.CONTEXT_OVERFLOW:
        return ContextOverflow(message, **kw)
    return ProviderError(kind, message, **kw)


def parse_retry_after(headers: Any, now: float | None = None) -> float | None:
    """Seconds from `retry-after-ms` or `retry-after` (seconds or an HTTP date); None if absent/bad."""
    if headers is None:
        return None
    try:
        ms = headers.get("retry-after-ms")
        if ms is not None:
            return max(0.0, float(ms) / 1000)
        value = headers.get("retry-after")
    except Exception:
        return None
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))
