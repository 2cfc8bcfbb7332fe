"""One gate every LLM request passes (`ResilientClient._send`, each attempt): open by default. The
review service installs a gate that holds a slot of a cap shared by all its workers on every
machine (a local llama.cpp server answers one request at a time), so the cap wraps the requests
themselves, not whole reviews: retrieval, detectors and publishing run without a slot.

Process-wide on purpose: reviewers run in a thread pool, and one worker process serves one
service, so there is exactly one cap to honour."""

from __future__ import annotations

import threading
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext

Gate = Callable[[str], AbstractContextManager]  # model name -> held while the request is in flight

_lock = threading.Lock()
_gate: Gate | None = None


def install(gate: Gate | None) -> Gate | None:
    """Put `gate` in front of every request of this process (None: open); returns the previous one."""
    global _gate
    with _lock:
        previous, _gate = _gate, gate
    return previous


def hold(model: str) -> AbstractContextManager:
    """What a request holds while in flight: the installed gate's slot, or nothing."""
    gate = _gate
    return gate(model) if gate is not None else nullcontext()
