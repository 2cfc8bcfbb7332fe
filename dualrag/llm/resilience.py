"""Timeouts, retries, circuit breakers, failback chains, 'length' handling, heartbeat, telemetry.

`ResilientClient.complete(request)` walks a chain of provider clients (the model, then its
configured failbacks). For each model:

1. its circuit breaker must allow the call (closed; or half-open with this call as the one probe);
2. each attempt gets `min(request timeout, time left)`; no attempt starts with less than
   `min_attempt_s` left (of the task timeout and of the caller's overall `Deadline`);
3. an attempt streams its answer and times out on silence, not on duration (`streaming.py`:
   no first token within `request_timeout_s`, no next token within `silence_timeout_s`);
   unset timeouts take the endpoint's defaults (a local server gets minutes for a long prompt);
4. a retryable failure (429, 5xx, overloaded, timeout, connection) is retried after
   Retry-After (when given and at most `max_retry_after_s`) or an exponential backoff with
   jitter, up to `max_attempts` per model, and only when the wait plus `min_attempt_s` still
   fits in the time left; otherwise, or once the breaker opens, the chain moves on (failback).
   A timeout is not re-sent when `retry_timeouts` is off (the default for a local server:
   llama.cpp keeps computing the request the client gave up on and would queue the copy
   behind it, so three attempts cost three full computations);
5. non-retryable failures (authentication, context overflow, bad request, cancel) are raised
   at once as typed errors: no retry, no failback;
6. `finish_reason == "length"` is retried once on the same model with `length_growth` times the
   room (bounded by the model's max output and what its window leaves); still cut → `Truncated`.

Every call emits one `llm_request` event to the sink (whatever the outcome).
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Protocol

from dualrag.config.llm import ResilienceConfig
from dualrag.llm import gate
from dualrag.llm.base import ProviderClient
from dualrag.llm.errors import (
    Cancelled,
    ErrorKind,
    LLMError,
    OutputError,
    ProviderError,
    Truncated,
    Unavailable,
)
from dualrag.llm.telemetry import EventSink
from dualrag.llm.types import LLMRequest, LLMResponse, Usage

log = logging.getLogger(__name__)

HeartbeatCallback = Callable[[dict[str, Any]], None]


# ------------------------------------------------------------------------------ clock, deadline


class Clock(Protocol):
    def monotonic(self) -> float: ...

    def sleep(self, seconds: float) -> None: ...


class SystemClock:
    def monotonic(self) -> float:
        return time.monotonic()

    def sleep(self, seconds: float) -> None:
        if seconds > 0:
            time.sleep(seconds)


class ManualClock:
    """A clock for tests: `sleep` advances time without waiting and records the delays."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start
        self.sleeps: list[float] = []
        self._lock = threading.Lock()

    def monotonic(self) -> float:
        with self._lock:
            return self.now

    def sleep(self, seconds: float) -> None:
        with self._lock:
            self.sleeps.append(seconds)
            self.now += max(0.0, seconds)

    def advance(self, seconds: float) -> None:
        with self._lock:
            self.now += seconds


@dataclass(frozen=True)
class Deadline:
    """An absolute point on a clock; share one across a run for the overall time limit."""

    at: float
    clock: Clock = field(default_factory=SystemClock, compare=False)

    @classmethod
    def after(cls, seconds: float, clock: Clock | None = None) -> "Deadline":
        clock = clock or SystemClock()
        return cls(clock.monotonic() + seconds, clock)

    def remaining(self) -> float:
        return self.at - self.clock.monotonic()


# ------------------------------------------------------------------------------ retry policy


@dataclass
class RetryPolicy:
    """How long to wait before the next attempt on the same model (pure; tested on its own)."""

    max_attempts: int = 3
    backoff_base_s: float = 1.0
    backoff_max_s: float = 20.0
    jitter: float = 0.25
    max_retry_after_s: float = 60.0
    min_attempt_s: float = 2.0
    rng: random.Random = field(default_factory=random.Random)

    @classmethod
    def from_config(cls, cfg: ResilienceConfig, rng: random.Random | None = None) -> "RetryPolicy":
        return cls(cfg.max_attempts, cfg.backoff_base_s, cfg.backoff_max_s, cfg.jitter,
                   cfg.max_retry_after_s, cfg.min_attempt_s, rng or random.Random())

    def delay(self, attempt: int, error: ProviderError, remaining: float) -> float | None:
        """Seconds to wait before attempt `attempt + 1`, or None: do not retry this model.

        None when the error is not retryable, the attempts are used up, the server's
        Retry-After exceeds `max_retry_after_s`, or the wait would leave less than
        `min_attempt_s` of the time remaining (the budget is not spent on a lost cause).
        """
        if not error.retryable or attempt >= self.max_attempts:
            return None
        if error.retry_after is not None:
            if error.retry_after > self.max_retry_after_s:
                return None
            wait = error.retry_after
        else:
            wait = min(self.backoff_max_s, self.backoff_base_s * (2 ** (attempt - 1)))
            if self.jitter:
                wait *= 1 + self.rng.uniform(-self.jitter, self.jitter)
        if remaining - wait < self.min_attempt_s:
            return None
        return max(0.0, wait)


# ------------------------------------------------------------------------------ circuit breaker


class BreakerState(str, Enum):
    CLOSED = "closed"
    OPEN = "open"
    HALF_OPEN = "half_open"


Transition = tuple[str, str, str]  # (model, from, to)


class CircuitBreaker:
    """Per model. Opens after `failures` consecutive health failures; after `cooldown_s` the next
    `allow()` becomes the single half-open probe (every other caller is refused until the probe
    reports); the probe's success closes it, its failure opens it again for another cool-down."""

    def __init__(self, name: str, failures: int, cooldown_s: float, clock: Clock,
                 on_transition: Callable[[Transition], None] | None = None) -> None:
        self.name = name
        self.threshold = failures
        self.cooldown_s = cooldown_s
        self.clock = clock
        self.on_transition = on_transition
        self._state = BreakerState.CLOSED
        self._consecutive = 0
        self._opened_at = 0.0
        self._probe_out = False
        self._lock = threading.Lock()

    @property
    def state(self) -> BreakerState:
        return self._state

    def _move(self, new: BreakerState) -> Transition | None:
        old, self._state = self._state, new
        if old is new:
            return None
        tr = (self.name, old.value, new.value)
        if self.on_transition:
            try:
                self.on_transition(tr)
            except Exception:  # noqa: BLE001 - a listener must not break a request
                log.exception("breaker listener failed")
        return tr

    def allow(self) -> tuple[bool, Transition | None]:
        with self._lock:
            if self._state is BreakerState.CLOSED:
                return True, None
            if self._state is BreakerState.OPEN:
                if self.clock.monotonic() - self._opened_at >= self.cooldown_s:
                    self._probe_out = True
                    return True, self._move(BreakerState.HALF_OPEN)
                return False, None
            # half-open: exactly one probe at a time
            if self._probe_out:
                return False, None
            self._probe_out = True
            return True, None

    def record_success(self) -> Transition | None:
        with self._lock:
            self._consecutive = 0
            self._probe_out = False
            return self._move(BreakerState.CLOSED)

    def record_failure(self) -> Transition | None:
        with self._lock:
            self._consecutive += 1
            self._probe_out = False
            if self._state is BreakerState.HALF_OPEN or self._consecutive >= self.threshold:
                self._opened_at = self.clock.monotonic()
                return self._move(BreakerState.OPEN)
            return None

    def release(self) -> None:
        """The probe ended without a verdict (cancelled): let the next caller probe."""
        with self._lock:
            self._probe_out = False


class BreakerRegistry:
    """One breaker per model, shared by every client (and reviewer) of a run."""

    def __init__(self, cfg: ResilienceConfig | None = None, clock: Clock | None = None,
                 on_transition: Callable[[Transition], None] | None = None) -> None:
        cfg = cfg or ResilienceConfig()
        self.failures = cfg.breaker_failures
        self.cooldown_s = cfg.breaker_cooldown_s
        self.clock = clock or SystemClock()
        self.on_transition = on_transition
        self._breakers: dict[str, CircuitBreaker] = {}
        self._lock = threading.Lock()

    def get(self, model: str) -> CircuitBreaker:
        with self._lock:
            if model not in self._breakers:
                self._breakers[model] = CircuitBreaker(
                    model, self.failures, self.cooldown_s, self.clock, self.on_transition
                )
            return self._breakers[model]


# ------------------------------------------------------------------------------ heartbeat


class Heartbeat:
    """Calls `callback(info | {"elapsed_s": ...})` every `interval` seconds (real time) while open."""

    def __init__(self, interval: float, callback: HeartbeatCallback | None, info: dict[str, Any]) -> None:
        self.interval = interval
        self.callback = callback
        self.info = info
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _run(self) -> None:
        started = time.monotonic()
        beats = 0
        while not self._stop.wait(self.interval):
            beats += 1
            try:
                self.callback({**self.info, "event": "llm_heartbeat", "beat": beats,  # type: ignore[misc]
                               "elapsed_s": round(time.monotonic() - started, 3)})
            except Exception:  # noqa: BLE001
                log.exception("heartbeat callback failed")

    def __enter__(self) -> "Heartbeat":
        if self.callback is not None:
            self._thread = threading.Thread(target=self._run, name="llm-heartbeat", daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=1)


# ------------------------------------------------------------------------------ the client


@dataclass
class _Call:
    """What one complete() call did, for the response and the telemetry event."""

    usage: Usage = field(default_factory=Usage)
    cost: float | None = None
    attempts: list[dict[str, Any]] = field(default_factory=list)
    failbacks: list[dict[str, Any]] = field(default_factory=list)
    transitions: list[dict[str, str]] = field(default_factory=list)
    errors: list[LLMError] = field(default_factory=list)

    def add_cost(self, cost: float | None) -> None:
        if cost is not None:
            self.cost = (self.cost or 0.0) + cost

    def transition(self, tr: Transition | None) -> None:
        if tr:
            self.transitions.append({"model": tr[0], "from": tr[1], "to": tr[2]})


class ResilientClient:
    """The `LLMClient` the reviewers use: a model with its failback chain and all the policy."""

    def __init__(
        self,
        chain: Sequence[ProviderClient],
        cfg: ResilienceConfig | None = None,
        *,
        breakers: BreakerRegistry | None = None,
        clock: Clock | None = None,
        sink: EventSink | None = None,
        on_heartbeat: HeartbeatCallback | None = None,
        deadline: Deadline | None = None,
        cancel: threading.Event | None = None,
        rng: random.Random | None = None,
    ) -> None:
        if not chain:
            raise ValueError("a ResilientClient needs at least one model")
        self.chain = list(chain)
        self.cfg = cfg or ResilienceConfig()
        self.clock = clock or SystemClock()
        self.breakers = breakers or BreakerRegistry(self.cfg, self.clock)
        self.policy = RetryPolicy.from_config(self.cfg, rng)
        self.sink = sink
        self.on_heartbeat = on_heartbeat
        self.deadline = deadline
        self.cancel = cancel

    @property
    def model(self) -> str:
        return self.chain[0].model

    def _time_left(self, task_end: float) -> float:
        left = task_end - self.clock.monotonic()
        if self.deadline is not None:
            left = min(left, self.deadline.remaining())
        return left

    def complete(self, request: LLMRequest) -> LLMResponse:
        started_wall = time.time()
        started = time.monotonic()
        task_end = self.clock.monotonic() + float(self._cfg(self.chain[0]).task_timeout_s or 0)
        call = _Call()
        outcome = "error"
        response: LLMResponse | None = None
        error: LLMError | None = None
        try:
            response = self._walk_chain(request, call, task_end)
            response.usage = call.usage
            response.cost = call.cost
            response.attempts = len(call.attempts)
            response.failbacks = call.failbacks
            outcome = "ok"
            return response
        except LLMError as exc:
            error = exc
            outcome = _outcome_name(exc)
            raise
        finally:
            self._emit(request, call, outcome, response, error, started_wall, started)

    def _walk_chain(self, request: LLMRequest, call: _Call, task_end: float) -> LLMResponse:
        reason = ""
        for index, client in enumerate(self.chain):
            if index > 0:
                call.failbacks.append({"from": self.chain[index - 1].model, "to": client.model, "reason": reason})
            try:
                return self._on_model(client, request, call, task_end)
            except ProviderError as exc:
                call.errors.append(exc)
                if exc.kind is ErrorKind.DEADLINE:
                    break
                if not exc.failback:
                    raise
                reason = exc.kind.value
        last = call.errors[-1] if call.errors else None
        raise Unavailable(
            f"no model answered ({', '.join(c.model for c in self.chain)}): {last}",
            model=self.model, errors=list(call.errors), usage=call.usage,
        )

    def _cfg(self, client: ProviderClient) -> ResilienceConfig:
        """The settings with the client's endpoint defaults (local server or remote API) filled in."""
        return self.cfg.for_endpoint(bool(getattr(client, "local", False)))

    def _on_model(self, client: ProviderClient, request: LLMRequest, call: _Call, task_end: float) -> LLMResponse:
        cfg = self._cfg(client)
        breaker = self.breakers.get(client.model)
        allowed, tr = breaker.allow()
        call.transition(tr)
        if not allowed:
            raise ProviderError(ErrorKind.CIRCUIT_OPEN, f"circuit open for {client.model}", model=client.model)
        max_tokens = client.max_tokens(request)
        grown = False
        attempt = 0
        while True:
            if self.cancel is not None and self.cancel.is_set():
                breaker.release()
                raise Cancelled("cancelled by the caller", model=client.model, usage=call.usage)
            left = self._time_left(task_end)
            if left < self.cfg.min_attempt_s:
                breaker.release()
                raise ProviderError(ErrorKind.DEADLINE, f"{left:.1f}s left, below min_attempt_s", model=client.model)
            attempt += 1
            record: dict[str, Any] = {"model": client.model, "max_tokens": max_tokens}
            call.attempts.append(record)
            t0 = time.monotonic()
            try:
                with Heartbeat(self.cfg.heartbeat_s, self.on_heartbeat,
                               {"model": client.model, "tag": request.tag, "attempt": len(call.attempts)}):
                    resp = self._send(client, request, max_tokens, task_end, cfg)
            except ProviderError as exc:
                record.update(outcome=exc.kind.value, latency_s=round(time.monotonic() - t0, 4), status=exc.status)
                call.transition(breaker.record_failure() if exc.trips_breaker else breaker.record_success())
                if not exc.retryable:
                    raise
                if exc.kind is ErrorKind.TIMEOUT and not cfg.retry_timeouts:
                    record["not_resent"] = "the server may still be computing it"
                    raise
                call.errors.append(exc)
                wait = None
                if breaker.state is BreakerState.CLOSED:
                    wait = self.policy.delay(attempt, exc, self._time_left(task_end))
                if wait is None:
                    call.errors.pop()  # the chain walker records the last one
                    raise
                record["retry_after_s"] = round(wait, 3)
                self.clock.sleep(wait)
                continue
            except OutputError as exc:
                call.transition(breaker.record_success())  # the model answered: it is healthy
                record.update(outcome=_outcome_name(exc), latency_s=round(time.monotonic() - t0, 4))
                if exc.usage:
                    call.usage = call.usage + exc.usage
                if exc.response is not None:
                    call.add_cost(exc.response.cost)
                    record["finish_reason"] = exc.response.finish_reason
                exc.usage = call.usage
                raise
            except BaseException:
                breaker.release()
                raise
            call.transition(breaker.record_success())
            call.usage = call.usage + resp.usage
            call.add_cost(resp.cost)
            record.update(outcome="ok", latency_s=resp.latency_s, finish_reason=resp.finish_reason,
                          **resp.usage.as_dict())
            if resp.finish_reason != "length":
                return resp
            record["outcome"] = "length"
            room = self._more_room(client, max_tokens, resp)
            if not grown and request.grow and room > max_tokens:
                grown = True
                max_tokens = room
                continue
            raise Truncated(
                f"answer cut at {max_tokens} output tokens even with more room: split the input",
                model=client.model, usage=call.usage, response=resp,
            )

    def _send(self, client: ProviderClient, request: LLMRequest, max_tokens: int, task_end: float,
              cfg: ResilienceConfig) -> LLMResponse:
        """One attempt, holding the endpoint's slot when it has one (a local server takes one
        request at a time); its timeouts start once the request can actually be sent."""
        slot = getattr(client, "slot", None)
        with slot if slot is not None else nullcontext(), gate.hold(client.model):
            left = self._time_left(task_end)
            timeout = min(request.timeout or float(cfg.request_timeout_s or 0), left)
            return client.complete(request.with_(max_output_tokens=max_tokens, timeout=timeout, time_left=left))

    def _more_room(self, client: ProviderClient, max_tokens: int, resp: LLMResponse) -> int:
        cap = client.capability
        room = min(int(max_tokens * self.cfg.length_growth), cap.max_output_tokens)
        if resp.usage.input_tokens:
            room = min(room, cap.context_window - resp.usage.input_tokens)
        return room

    def _emit(self, request: LLMRequest, call: _Call, outcome: str, response: LLMResponse | None,
              error: LLMError | None, started_wall: float, started: float) -> None:
        if self.sink is None:
            return
        last = call.attempts[-1] if call.attempts else {}
        event: dict[str, Any] = {
            "event": "llm_request",
            "ts": round(started_wall, 3),
            "tag": request.tag,
            "model": response.model if response else last.get("model", self.model),
            "requested_model": self.model,
            "outcome": outcome,
            "finish_reason": response.finish_reason if response else last.get("finish_reason"),
            **call.usage.as_dict(),
            "latency_s": round(time.monotonic() - started, 4),
            "cost": round(call.cost, 8) if call.cost is not None else None,
            "attempts": len(call.attempts),
            "retries": max(0, len(call.attempts) - 1),
            "attempt_log": call.attempts,
            "failbacks": call.failbacks,
            "breaker": call.transitions,
        }
        if call.usage.estimated:
            event["usage_estimated"] = True  # the server reported no usage: counted locally
        if error is not None:
            event["error"] = str(error)
        try:
            self.sink(event)
        except Exception:  # noqa: BLE001 - telemetry must never break a review
            log.exception("telemetry sink failed")


def _outcome_name(exc: LLMError) -> str:
    if isinstance(exc, ProviderError):
        return exc.kind.value
    return {
        "Truncated": "truncated",
        "InvalidOutput": "invalid_output",
        "EmptyOutput": "empty_output",
        "Unavailable": "unavailable",
        "Cancelled": "cancelled",
    }.get(type(exc).__name__, "error")
