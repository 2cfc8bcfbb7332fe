"""Streamed answers, timed on silence instead of total duration.

A local server on two cores takes minutes to read a long prompt and then writes ~10 tokens a
second: a timeout on the whole request either kills healthy work or waits forever on a dead
server. So answers are streamed and an attempt fails only when the stream goes quiet:

- `first_token_s`: no token yet (the server is still reading the prompt, or never started);
- `between_tokens_s`: no token since the last one (the server stalled mid-answer);
- `total_s`: the caller's remaining time (task timeout, run deadline), whatever the stream does.

SSE keep-alive comments (`: ping`) are not tokens: the SDKs drop them before we see a chunk,
so a server that pings but never answers still times out.

The SDK's stream is pumped by a daemon thread into a queue, so the caller can wait with a
timeout even while the socket read blocks; on silence the stream is closed (the thread's read
fails and it ends) and a `ProviderError(TIMEOUT)` is raised. Exceptions raised while reading
(an SDK error mid-stream) are re-raised in the caller's thread, to be classified there.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from dualrag.llm.errors import ErrorKind, ProviderError
from dualrag.llm.types import Usage

_END = object()
_TEMPLATE_TOKENS = 4  # role markers of a chat template, per message and for the reply


@dataclass(frozen=True)
class Silence:
    """How long a stream may stay quiet (seconds)."""

    first_token_s: float
    between_tokens_s: float
    total_s: float = float("inf")

    @property
    def socket_s(self) -> float:
        """A read timeout for the HTTP client that never fires before ours (a backstop only)."""
        return max(self.first_token_s, self.between_tokens_s) + 30.0


class _Error:
    def __init__(self, exc: BaseException) -> None:
        self.exc = exc


def watch(open_stream: Callable[[], Any], silence: Silence, *, model: str | None = None) -> Iterator[Any]:
    """Yield the items of the stream `open_stream()` returns (an SDK stream: iterable, with
    `close()`); raise a TIMEOUT ProviderError when it stays quiet too long.

    The stream is opened in the pump thread too: some servers send their response headers only
    with the first token, so opening it is already part of the wait."""
    items: queue.Queue[Any] = queue.Queue()
    stop = threading.Event()
    opened: list[Any] = []

    def pump() -> None:
        try:
            stream = open_stream()
            opened.append(stream)
            if stop.is_set():
                _close(stream)
                return
            for item in stream:
                if stop.is_set():
                    return
                items.put(item)
        except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread
            items.put(_Error(exc))
        else:
            items.put(_END)

    threading.Thread(target=pump, name="llm-stream", daemon=True).start()
    started = time.monotonic()
    got_first = False
    try:
        while True:
            window = silence.between_tokens_s if got_first else silence.first_token_s
            left = silence.total_s - (time.monotonic() - started)
            wait = max(0.0, min(window, left))
            try:
                item = items.get(timeout=wait)
            except queue.Empty:
                what = ("no token since the last one" if got_first else "no first token") if wait < left \
                    else "out of time"
                raise ProviderError(ErrorKind.TIMEOUT, f"stream silent: {what} after {wait:.1f}s",
                                    model=model) from None
            if item is _END:
                return
            if isinstance(item, _Error):
                raise item.exc
            got_first = True
            yield item
    finally:
        stop.set()
        for stream in opened:
            _close(stream)


def _close(stream: Any) -> None:
    try:
        stream.close()
    except Exception:  # noqa: BLE001 - closing a broken stream may fail; we are done with it
        pass


def estimate_usage(prompt_parts: Iterable[str], answer_chunks: list[str]) -> Usage:
    """Usage for a stream that reported none (llama-cpp-python's server): the prompt counted with
    an offline tokenizer (o200k: within a few percent of Qwen's and Llama's on code and English)
    plus a few tokens of chat template per message, one token per streamed chunk (llama.cpp
    streams token by token)."""
    count = _counter()
    parts = list(prompt_parts)
    prompt = sum(count(p) for p in parts) + _TEMPLATE_TOKENS * (len(parts) + 1)
    return Usage(input_tokens=prompt, output_tokens=len(answer_chunks), estimated=True)


@lru_cache(maxsize=1)
def _counter() -> Callable[[str], int]:
    from dualrag.tokens import TokenizerUnavailable, get_estimator

    try:
        return get_estimator("exact").count
    except (TokenizerUnavailable, ImportError, OSError, ValueError):
        return get_estimator("fast").count
