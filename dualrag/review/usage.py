"""A telemetry sink that forwards every event and sums the `llm_request` ones into `Usage`.

The review JSON's `usage` is therefore the sum of exactly the events in the JSONL log.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from dualrag.llm.telemetry import EventSink
from dualrag.review.model import KindUsage, Usage

log = logging.getLogger(__name__)


class UsageTally:
    def __init__(self, forward: EventSink | None = None, *, run_id: str | None = None) -> None:
        self.forward = forward
        self.run_id = run_id
        self.requests: list[dict[str, Any]] = []
        self._lock = threading.Lock()

    def __call__(self, event: dict[str, Any]) -> None:
        event = dict(event)
        event.setdefault("ts", round(time.time(), 3))
        if self.run_id:
            event.setdefault("run", self.run_id)
        if event.get("event") == "llm_request":
            with self._lock:
                self.requests.append(event)
        if self.forward is not None:
            try:
                self.forward(event)
            except Exception:
                log.exception("telemetry sink failed")

    def usage(self) -> Usage:
        with self._lock:
            events = list(self.requests)
        return Usage(
            calls=len(events),
            input_tokens=sum(int(e.get("input_tokens") or 0) for e in events),
            output_tokens=sum(int(e.get("output_tokens") or 0) for e in events),
            cache_read_tokens=sum(int(e.get("cache_read_tokens") or 0) for e in events),
            cache_write_tokens=sum(int(e.get("cache_write_tokens") or 0) for e in events),
            cost_usd=round(sum(float(e.get("cost") or 0.0) for e in events), 8),
            failed_calls=sum(1 for e in events if e.get("outcome") != "ok"),
            retries=sum(int(e.get("retries") or 0) for e in events),
            failbacks=sum(len(e.get("failbacks") or ()) for e in events),
            estimated=any(e.get("usage_estimated") for e in events),
            by_kind=_by_kind(events),
        )

    def llm_latency_s(self) -> float:
        with self._lock:
            return sum(float(e.get("latency_s") or 0.0) for e in self.requests)


def request_kind(tag: str | None) -> str:
    """What a request was for, from its tag: `rule_check/<chunk>`, `rule_query`, `walkthrough`;
    every reviewer's request (and its reverse check) is a `review`."""
    head = str(tag or "").split("/", 1)[0]
    return head if head in ("rule_check", "rule_query", "walkthrough") else "review"


def _by_kind(events: list[dict[str, Any]]) -> dict[str, KindUsage]:
    kinds: dict[str, KindUsage] = {}
    for e in events:
        k = kinds.get(request_kind(e.get("tag")), KindUsage())
        kinds[request_kind(e.get("tag"))] = KindUsage(
            calls=k.calls + 1, input_tokens=k.input_tokens + int(e.get("input_tokens") or 0),
            output_tokens=k.output_tokens + int(e.get("output_tokens") or 0),
            cache_read_tokens=k.cache_read_tokens + int(e.get("cache_read_tokens") or 0))
    return kinds
