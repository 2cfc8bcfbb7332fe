"""Policy pieces on their own: classification, Retry-After, retry budget, breaker, deadline."""

from __future__ import annotations

import random
import time

import pytest

from dualrag.llm import (
    BreakerState,
    CircuitBreaker,
    Deadline,
    ErrorKind,
    LLMRequest,
    ManualClock,
    ProviderError,
    RetryPolicy,
    Unavailable,
)
from dualrag.llm.errors import classify_status, parse_retry_after


@pytest.mark.parametrize(
    ("status", "message", "etype", "kind"),
    [
        (429, "Rate limit", "rate_limit_error", ErrorKind.RATE_LIMIT),
        (529, "Overloaded", "overloaded_error", ErrorKind.OVERLOADED),
        (500, "x", "overloaded_error", ErrorKind.OVERLOADED),
        (503, "Service Unavailable", None, ErrorKind.OVERLOADED),
        (500, "Internal", "api_error", ErrorKind.SERVER),
        (502, "Bad gateway", None, ErrorKind.SERVER),
        (504, "gateway timeout", None, ErrorKind.TIMEOUT),
        (401, "bad key", "authentication_error", ErrorKind.AUTH),
        (403, "no", "permission_error", ErrorKind.PERMISSION),
        (404, "model not found", "not_found_error", ErrorKind.NOT_FOUND),
        (400, "This model's maximum context length is 8192 tokens", None, ErrorKind.CONTEXT_OVERFLOW),
        (400, "prompt is too long: 210000 tokens > 200000 maximum", "invalid_request_error",
         ErrorKind.CONTEXT_OVERFLOW),
        (400, "the request exceeds the available context size", None, ErrorKind.CONTEXT_OVERFLOW),
        (413, "request_too_large", None, ErrorKind.CONTEXT_OVERFLOW),
        (400, "temperature must be <= 2", "invalid_request_error", ErrorKind.BAD_REQUEST),
        (499, "client closed request", None, ErrorKind.CANCELLED),
    ],
)
def test_classification(status, message, etype, kind):
    assert classify_status(status, message, etype) is kind


def test_retry_and_failback_policy_per_kind():
    assert ProviderError(ErrorKind.RATE_LIMIT, "").retryable
    assert ProviderError(ErrorKind.TIMEOUT, "").failback
    for kind in (ErrorKind.AUTH, ErrorKind.CONTEXT_OVERFLOW, ErrorKind.CANCELLED, ErrorKind.BAD_REQUEST):
        err = ProviderError(kind, "")
        assert not err.retryable and not err.failback and not err.trips_breaker
    assert ProviderError(ErrorKind.NOT_FOUND, "").failback and not ProviderError(ErrorKind.NOT_FOUND, "").retryable


def test_parse_retry_after():
    assert parse_retry_after({"retry-after": "3"}) == 3.0
    assert parse_retry_after({"retry-after-ms": "1500", "retry-after": "9"}) == 1.5
    assert parse_retry_after({"retry-after": "Wed, 21 Oct 2015 07:28:10 GMT"}, now=1445412480.0) == 10.0
    assert parse_retry_after({"retry-after": "soon"}) is None and parse_retry_after({}) is None


def test_retry_policy_budget():
    p = RetryPolicy(max_attempts=3, backoff_base_s=1, backoff_max_s=3, jitter=0, max_retry_after_s=30,
                    min_attempt_s=2)
    overloaded = ProviderError(ErrorKind.OVERLOADED, "")
    assert [p.delay(n, overloaded, remaining=100) for n in (1, 2, 3)] == [1, 2, None]
    assert p.delay(1, ProviderError(ErrorKind.RATE_LIMIT, "", retry_after=7), 100) == 7
    assert p.delay(1, ProviderError(ErrorKind.RATE_LIMIT, "", retry_after=31), 100) is None  # beyond bound
    assert p.delay(1, ProviderError(ErrorKind.RATE_LIMIT, "", retry_after=7), remaining=8.9) is None  # no time
    assert p.delay(1, ProviderError(ErrorKind.AUTH, ""), 100) is None
    capped = RetryPolicy(max_attempts=9, backoff_base_s=1, backoff_max_s=3, jitter=0, min_attempt_s=0)
    assert capped.delay(5, overloaded, 100) == 3


def test_jitter_stays_within_bounds():
    p = RetryPolicy(max_attempts=5, backoff_base_s=2, jitter=0.25, min_attempt_s=0, rng=random.Random(1))
    delays = [p.delay(1, ProviderError(ErrorKind.SERVER, ""), 100) for _ in range(50)]
    assert all(1.5 <= d <= 2.5 for d in delays) and len(set(delays)) > 1


def test_breaker_state_machine_with_injected_clock():
    clock = ManualClock()
    seen = []
    b = CircuitBreaker("m", failures=2, cooldown_s=10, clock=clock, on_transition=seen.append)
    assert b.allow() == (True, None)
    assert b.record_failure() is None and b.state is BreakerState.CLOSED
    b.record_success()
    b.record_failure()
    assert b.record_failure() == ("m", "closed", "open")
    assert b.allow() == (False, None)
    clock.advance(9.9)
    assert b.allow() == (False, None)
    clock.advance(0.1)
    assert b.allow() == (True, ("m", "open", "half_open"))  # the one probe
    assert b.allow() == (False, None) and b.allow() == (False, None)  # nobody else while it is out
    assert b.record_failure() == ("m", "half_open", "open")  # one failed probe reopens
    clock.advance(10)
    assert b.allow()[0] and not b.allow()[0]
    b.release()  # probe cancelled: the next caller may probe
    assert b.allow() == (True, None)
    assert b.record_success() == ("m", "half_open", "closed")
    assert [t[2] for t in seen] == ["open", "half_open", "open", "half_open", "closed"]


def test_overall_deadline_spends_nothing_when_time_is_up(make, oai, clock, sink):
    factory = make()
    factory.deadline = Deadline.after(1.0, clock)
    client, _ = factory.for_reviewer()
    clock.advance(0.99)
    with pytest.raises(Unavailable) as exc:
        client.complete(LLMRequest.simple("s", "c"))
    assert exc.value.last.kind is ErrorKind.DEADLINE and oai.requests == []
    assert sink.events[0]["outcome"] == "unavailable" and sink.events[0]["attempts"] == 0


def test_attempt_timeout_is_capped_by_time_left(make, oai, clock):
    oai.enqueue(oai.chat("slow", delay=2.0))
    factory = make(resilience={"request_timeout_s": 30})
    factory.deadline = Deadline.after(0.3, clock)  # manual clock: 0.3 s left for the one attempt
    client, _ = factory.for_reviewer()
    started = time.monotonic()
    with pytest.raises(Unavailable) as exc:
        client.complete(LLMRequest.simple("s", "c"))
    assert [e.kind for e in exc.value.errors] == [ErrorKind.TIMEOUT] and len(oai.requests) == 1
    assert time.monotonic() - started < 1.5  # 0.3 s, not the 30 s request timeout nor the 2 s reply


def test_cancel_event_stops_before_sending(make, oai):
    import threading

    from dualrag.llm import Cancelled

    factory = make()
    factory.cancel = threading.Event()
    factory.cancel.set()
    client, _ = factory.for_reviewer()
    with pytest.raises(Cancelled):
        client.complete(LLMRequest.simple("s", "c"))
    assert oai.requests == []
