"""A 503 storm: the breaker opens, the failback model answers, half-open lets exactly one probe through."""

from __future__ import annotations

import threading

from pydantic import BaseModel

from dualrag.llm import BreakerState, LLMRequest


class Answer(BaseModel):
    ok: bool


OK = '{"ok": true}'
CHAIN = {"openai:gpt-4.1": ["openai:gpt-4.1-mini"]}


def primary_calls(oai) -> int:
    return sum(1 for r in oai.requests if r.json["model"] == "gpt-4.1")


def test_503_storm_breaker_failback_and_half_open_probe(make, oai, clock, sink):
    state = {"healthy": False}

    def server(r):
        if r.json["model"] == "gpt-4.1" and not state["healthy"]:
            return oai.error(503, "Service Unavailable")
        return oai.chat(OK)

    oai.responder = server
    factory = make("openai:gpt-4.1", fallbacks=CHAIN, resilience={"max_attempts": 2, "breaker_failures": 3})
    client, _ = factory.for_reviewer()
    breaker = factory.breakers.get("openai:gpt-4.1")
    request = LLMRequest.simple("sys", "diff", schema=Answer)

    # 1: two 503s on the primary (one backoff), then the failback answers
    resp = client.complete(request)
    assert resp.model == "openai:gpt-4.1-mini" and primary_calls(oai) == 2 and clock.sleeps == [0.5]
    assert resp.failbacks == [{"from": "openai:gpt-4.1", "to": "openai:gpt-4.1-mini", "reason": "overloaded"}]
    assert breaker.state is BreakerState.CLOSED

    # 2: the third consecutive failure opens the breaker; no retry on an open breaker
    resp = client.complete(request)
    assert primary_calls(oai) == 3 and breaker.state is BreakerState.OPEN and clock.sleeps == [0.5]
    assert sink.events[-1]["breaker"] == [{"model": "openai:gpt-4.1", "from": "closed", "to": "open"}]

    # 3: open → the primary is not even called
    resp = client.complete(request)
    assert primary_calls(oai) == 3 and resp.model == "openai:gpt-4.1-mini"
    assert resp.failbacks[0]["reason"] == "circuit_open"

    # 4: after the cool-down one probe goes out, fails, and the breaker opens again
    clock.advance(30)
    client.complete(request)
    assert primary_calls(oai) == 4 and breaker.state is BreakerState.OPEN
    assert sink.events[-1]["breaker"] == [
        {"model": "openai:gpt-4.1", "from": "open", "to": "half_open"},
        {"model": "openai:gpt-4.1", "from": "half_open", "to": "open"},
    ]
    client.complete(request)
    assert primary_calls(oai) == 4  # the new cool-down started at the failed probe

    # 5: healed; after the cool-down the probe succeeds and the breaker closes
    state["healthy"] = True
    clock.advance(30)
    resp = client.complete(request)
    assert resp.model == "openai:gpt-4.1" and breaker.state is BreakerState.CLOSED and primary_calls(oai) == 5
    breaker_events = [e for e in sink.events if e["event"] == "llm_breaker"]
    assert [(e["from"], e["to"]) for e in breaker_events] == [
        ("closed", "open"), ("open", "half_open"), ("half_open", "open"), ("open", "half_open"), ("half_open", "closed")]


def test_half_open_admits_exactly_one_concurrent_probe(make, oai, clock):
    factory = make("openai:gpt-4.1", fallbacks=CHAIN, resilience={"breaker_failures": 1})
    client, _ = factory.for_reviewer()
    breaker = factory.breakers.get("openai:gpt-4.1")
    breaker.record_failure()
    assert breaker.state is BreakerState.OPEN
    clock.advance(30)

    probe_started = threading.Event()
    release_probe = threading.Event()

    def server(r):
        if r.json["model"] == "gpt-4.1":
            probe_started.set()
            release_probe.wait(5)  # the probe stays out until the others are done
        return oai.chat(OK)

    oai.responder = server
    request = LLMRequest.simple("sys", "diff", schema=Answer)
    results = {}

    def run(name):
        results[name] = client.complete(request).model

    first = threading.Thread(target=run, args=("probe",))
    first.start()
    assert probe_started.wait(2)
    others = [threading.Thread(target=run, args=(f"o{i}",)) for i in range(3)]
    for t in others:
        t.start()
    for t in others:
        t.join(5)
    release_probe.set()
    first.join(5)
    assert primary_calls(oai) == 1
    assert results == {"probe": "openai:gpt-4.1", "o0": "openai:gpt-4.1-mini", "o1": "openai:gpt-4.1-mini",
                       "o2": "openai:gpt-4.1-mini"}
    assert breaker.state is BreakerState.CLOSED
