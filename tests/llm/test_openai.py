"""The real `openai` SDK over HTTP against a loopback server that behaves like Chat Completions."""

from __future__ import annotations

import json

import pytest
from pydantic import BaseModel

from dualrag.llm import (
    ContextOverflow,
    EmptyOutput,
    ErrorKind,
    InvalidOutput,
    LLMRequest,
    ProviderError,
    Truncated,
    Unavailable,
)


class Finding(BaseModel):
    line: int
    message: str


class Answer(BaseModel):
    findings: list[Finding]


GOOD = json.dumps({"findings": [{"line": 3, "message": "null check missing"}]})


def req(**kw) -> LLMRequest:
    return LLMRequest.simple(["shared rules", "repository rules"], "the diff", schema=Answer, **kw)


def test_structured_answer_with_json_schema(make, oai, sink):
    oai.enqueue(oai.chat(GOOD, prompt_tokens=1000, completion_tokens=50, cached_tokens=800))
    client, reason = make("openai:gpt-4.1-mini").for_reviewer("quality")
    assert reason == "using openai:gpt-4.1-mini"
    resp = client.complete(req(max_output_tokens=300, tag="quality/chunk-1"))

    assert resp.parsed == Answer(findings=[Finding(line=3, message="null check missing")])
    assert (resp.finish_reason, resp.model, resp.attempts, resp.repaired) == ("stop", "openai:gpt-4.1-mini", 1, False)
    assert resp.usage.as_dict() == {"input_tokens": 1000, "output_tokens": 50, "cache_read_tokens": 800,
                                    "cache_write_tokens": 0}
    # 200 uncached * 0.40 + 800 cached * 0.10 + 50 out * 1.60, per million
    assert resp.cost == pytest.approx((200 * 0.40 + 800 * 0.10 + 50 * 1.60) / 1e6)

    sent = oai.requests[0]
    assert sent.headers["authorization"] == "Bearer sk-test"
    assert sent.headers["x-stainless-retry-count"] == "0"
    body = sent.json
    assert body["model"] == "gpt-4.1-mini" and body["max_tokens"] == 300 and body["temperature"] == 0.0
    assert body["response_format"]["type"] == "json_schema"
    assert body["response_format"]["json_schema"]["schema"] == Answer.model_json_schema()
    assert body["messages"] == [{"role": "system", "content": "shared rules\n\nrepository rules"},
                                {"role": "user", "content": "the diff"}]

    [event] = sink.events
    assert event["event"] == "llm_request" and event["outcome"] == "ok" and event["tag"] == "quality/chunk-1"
    assert (event["model"], event["input_tokens"], event["cache_read_tokens"], event["retries"]) == (
        "openai:gpt-4.1-mini", 1000, 800, 0)
    assert event["cost"] == pytest.approx(resp.cost) and event["finish_reason"] == "stop"
    assert event["failbacks"] == [] and event["breaker"] == []


def test_endpoint_and_key_from_sdk_environment(make, oai, monkeypatch):
    from dualrag.llm import LLMConfig, LLMFactory

    monkeypatch.setenv("OPENAI_BASE_URL", oai.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-env")
    oai.enqueue(oai.chat("plain text answer"))
    client, _ = LLMFactory(LLMConfig(model="openai:some-local-model")).for_reviewer()
    resp = client.complete(LLMRequest.simple("sys", "hi"))
    assert resp.text == "plain text answer" and resp.parsed is None and resp.cost is None  # unknown prices
    assert oai.requests[0].headers["authorization"] == "Bearer sk-env"
    assert "response_format" not in oai.requests[0].json


def test_json_object_fallback_schema_in_prompt_and_repair(make, oai):
    fenced = 'Here you go:\n```json\n{"findings": [{"line": 7, "message": "leak",},],}\n```\nDone.'
    oai.enqueue(oai.chat(fenced))
    client, _ = make("openai:qwen2.5-coder").for_reviewer()  # unknown model: no json_schema
    resp = client.complete(req())
    assert resp.parsed == Answer(findings=[Finding(line=7, message="leak")]) and resp.repaired
    body = oai.requests[0].json
    assert body["response_format"] == {"type": "json_object"}
    system = body["messages"][0]["content"]
    assert system.startswith("shared rules\n\nrepository rules\n\n") and "JSON schema" in system
    assert json.dumps(Answer.model_json_schema(), sort_keys=True, separators=(",", ":")) in system


def test_unrepairable_and_schema_mismatch_are_typed_and_counted(make, oai, sink):
    oai.enqueue(oai.chat("I think the code is fine, no issues.", prompt_tokens=500),
                oai.chat('{"findings": [{"line": "three"}]}', prompt_tokens=400))
    client, _ = make().for_reviewer()
    with pytest.raises(InvalidOutput) as bad:
        client.complete(req())
    assert bad.value.raw.startswith("I think") and bad.value.usage.input_tokens == 500
    with pytest.raises(InvalidOutput, match="findings.0.line"):
        client.complete(req())
    assert [e["outcome"] for e in sink.events] == ["invalid_output", "invalid_output"]
    assert [e["input_tokens"] for e in sink.events] == [500, 400]
    assert len(oai.requests) == 2  # not retried


@pytest.mark.parametrize("content", ["", None, "   \n"])
def test_empty_answer(make, oai, sink, content):
    oai.enqueue(oai.chat(content))
    client, _ = make().for_reviewer()
    with pytest.raises(EmptyOutput):
        client.complete(req())
    assert sink.events[0]["outcome"] == "empty_output"


def test_429_then_success_honours_retry_after(make, oai, clock, sink):
    oai.enqueue(oai.error(429, "Rate limit reached", retry_after=1), oai.chat(GOOD))
    client, _ = make().for_reviewer()
    resp = client.complete(req())
    assert resp.parsed is not None and resp.attempts == 2
    assert clock.sleeps == [1.0]
    event = sink.events[0]
    assert event["retries"] == 1 and [a["outcome"] for a in event["attempt_log"]] == ["rate_limit", "ok"]


def test_retry_after_beyond_bound_is_not_waited_but_fails_back(make, oai, clock, sink):
    def by_model(r):
        if r.json["model"] == "gpt-4.1":
            return oai.error(429, "quota", retry_after=3600)
        return oai.chat(GOOD)

    oai.responder = by_model
    client, reason = make("openai:gpt-4.1", fallbacks={"openai:gpt-4.1": ["openai:gpt-4.1-mini"]}).for_reviewer()
    assert reason == "using openai:gpt-4.1 (failback: openai:gpt-4.1-mini)"
    resp = client.complete(req())
    assert resp.model == "openai:gpt-4.1-mini" and clock.sleeps == []
    assert resp.failbacks == [{"from": "openai:gpt-4.1", "to": "openai:gpt-4.1-mini", "reason": "rate_limit"}]
    assert sink.events[0]["failbacks"] == resp.failbacks


def test_retries_not_spent_when_too_little_time_left(make, oai, clock):
    oai.enqueue(oai.error(503, "busy", retry_after=5), oai.chat(GOOD))
    client, _ = make(resilience={"task_timeout_s": 6.0, "min_attempt_s": 2.0}).for_reviewer()
    with pytest.raises(Unavailable) as exc:
        client.complete(req())
    assert clock.sleeps == [] and len(oai.requests) == 1  # 5 s wait would leave < 2 s
    assert exc.value.last.kind is ErrorKind.OVERLOADED


def test_auth_error_not_retried_nor_failed_back(make, oai):
    oai.enqueue(oai.error(401, "Incorrect API key provided", code="invalid_api_key"))
    client, _ = make("openai:gpt-4.1", fallbacks={"openai:gpt-4.1": ["openai:gpt-4.1-mini"]}).for_reviewer()
    with pytest.raises(ProviderError) as exc:
        client.complete(req())
    assert exc.value.kind is ErrorKind.AUTH and exc.value.status == 401
    assert len(oai.requests) == 1


def test_context_overflow_not_retried(make, oai, sink):
    oai.enqueue(oai.error(400, "This model's maximum context length is 128000 tokens. However, you requested "
                               "150000 tokens.", code="context_length_exceeded"))
    client, _ = make().for_reviewer()
    with pytest.raises(ContextOverflow):
        client.complete(req())
    assert len(oai.requests) == 1 and sink.events[0]["outcome"] == "context_overflow"


def test_timeouts_retry_then_unavailable(make, oai):
    oai.enqueue(*[oai.chat(GOOD, delay=2.0) for _ in range(2)])
    client, _ = make(resilience={"request_timeout_s": 0.2, "max_attempts": 2}).for_reviewer()
    with pytest.raises(Unavailable) as exc:
        client.complete(req())
    kinds = [e.kind for e in exc.value.errors]
    assert kinds == [ErrorKind.TIMEOUT, ErrorKind.TIMEOUT]
    assert len(oai.requests) == 2


def test_length_retries_with_more_room_then_truncated(make, oai, sink):
    oai.enqueue(oai.chat('{"findings": [{"line": 1, "mess', finish_reason="length", completion_tokens=1000),
                oai.chat('{"findings": [{"line": 1, "message": "x"}, {"li', finish_reason="length",
                         completion_tokens=2000))
    client, _ = make().for_reviewer()
    with pytest.raises(Truncated) as exc:
        client.complete(req(max_output_tokens=1000))
    assert [r.json["max_tokens"] for r in oai.requests] == [1000, 2000]
    assert exc.value.usage.output_tokens == 3000 and exc.value.response.finish_reason == "length"
    assert sink.events[0]["outcome"] == "truncated" and sink.events[0]["attempts"] == 2


def test_length_then_complete_answer(make, oai):
    oai.enqueue(oai.chat('{"findings": [', finish_reason="length"), oai.chat(GOOD))
    client, _ = make().for_reviewer()
    resp = client.complete(req(max_output_tokens=100))
    assert resp.parsed is not None and [r.json["max_tokens"] for r in oai.requests] == [100, 200]


def test_length_room_bounded_by_window(make, oai):
    # a 32k-window unknown model with 31.5k input: no more room than it had
    oai.enqueue(oai.chat('{"findings": [', finish_reason="length", prompt_tokens=31_800))
    client, _ = make("openai:local-model").for_reviewer()
    with pytest.raises(Truncated):
        client.complete(req(max_output_tokens=1000))
    assert len(oai.requests) == 1


def test_heartbeat_while_waiting(make, oai):
    beats = []
    oai.enqueue(oai.chat(GOOD, delay=0.45))
    client, _ = make(resilience={"heartbeat_s": 0.1}, on_heartbeat=beats.append).for_reviewer()
    client.complete(req(tag="slow"))
    assert len(beats) >= 2
    assert beats[0]["event"] == "llm_heartbeat" and beats[0]["model"] == "openai:gpt-4.1-mini"
    assert beats[0]["tag"] == "slow" and beats[1]["elapsed_s"] > beats[0]["elapsed_s"]


def test_json_object_constrained_by_schema_keeps_the_schema_out_of_the_prompt(make, oai):
    oai.enqueue(oai.chat(GOOD))
    client, _ = make("openai:local", models={"openai:local": {"json_object_schema": True}}).for_reviewer()
    assert client.complete(req()).parsed is not None
    body = oai.requests[0].json
    assert body["response_format"] == {"type": "json_object", "schema": Answer.model_json_schema()}
    assert body["messages"][0]["content"] == "shared rules\n\nrepository rules"
