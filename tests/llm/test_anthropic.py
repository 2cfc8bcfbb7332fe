"""The real `anthropic` SDK over HTTP against a loopback server that behaves like the Messages API."""

from __future__ import annotations

import json

import pytest
from pydantic import BaseModel

from dualrag.llm import ContextOverflow, ErrorKind, InvalidOutput, LLMRequest, ProviderError


class Finding(BaseModel):
    line: int
    message: str


class Answer(BaseModel):
    findings: list[Finding]


pytestmark = pytest.mark.filterwarnings("ignore:The model .* is deprecated:DeprecationWarning")

ANSWER = {"findings": [{"line": 12, "message": "SQL built by concatenation"}]}


def test_tool_structured_output_cache_breakpoints_and_usage(make, ant, sink):
    ant.enqueue(ant.message(tool_input=ANSWER, tool_name="Answer", input_tokens=50, output_tokens=80,
                            cache_read_input_tokens=3000, cache_creation_input_tokens=200))
    client, _ = make("anthropic:claude-sonnet-4-5").for_reviewer("security")
    request = LLMRequest.simple(["shared", "specialist", "repository"], "the change", schema=Answer,
                                max_output_tokens=2000, tag="security")
    resp = client.complete(request)
    assert resp.parsed == Answer.model_validate(ANSWER) and resp.finish_reason == "tool_use"
    assert resp.usage.as_dict() == {"input_tokens": 3250, "output_tokens": 80, "cache_read_tokens": 3000,
                                    "cache_write_tokens": 200}
    assert resp.cost == pytest.approx((50 * 3.00 + 3000 * 0.30 + 200 * 3.75 + 80 * 15.00) / 1e6)

    sent = ant.requests[0]
    assert sent.path == "/v1/messages" and "anthropic-version" in sent.headers
    assert sent.headers["x-stainless-retry-count"] == "0"
    body = sent.json
    assert body["system"] == [
        {"type": "text", "text": "shared", "cache_control": {"type": "ephemeral"}},
        {"type": "text", "text": "specialist", "cache_control": {"type": "ephemeral"}},
        {"type": "text", "text": "repository", "cache_control": {"type": "ephemeral"}},
    ]
    assert body["messages"] == [{"role": "user", "content": "the change"}]
    assert body["tools"][0]["name"] == "Answer" and body["tools"][0]["input_schema"] == Answer.model_json_schema()
    assert body["tool_choice"] == {"type": "tool", "name": "Answer"} and body["max_tokens"] == 2000
    event = sink.events[0]
    assert (event["cache_read_tokens"], event["cache_write_tokens"], event["outcome"]) == (3000, 200, "ok")


def test_at_most_four_breakpoints_first_three_and_last(make, ant):
    ant.enqueue(ant.message(text="fine"))
    client, _ = make("anthropic:claude-haiku-4-5").for_reviewer()
    client.complete(LLMRequest.simple([f"block{i}" for i in range(6)], "change"))
    marked = [b["text"] for b in ant.requests[0].json["system"] if "cache_control" in b]
    assert marked == ["block0", "block1", "block2", "block5"]


def test_json_in_text_mode_with_tolerant_parse(make, ant):
    ant.enqueue(ant.message(text="```json\n" + json.dumps(ANSWER) + "\n```"))
    client, _ = make("anthropic:claude-sonnet-4-5", anthropic_structured="text").for_reviewer()
    resp = client.complete(LLMRequest.simple("shared", "change", schema=Answer))
    assert resp.parsed == Answer.model_validate(ANSWER) and resp.repaired
    body = ant.requests[0].json
    assert "tools" not in body and "JSON schema" in body["system"][-1]["text"]
    assert "cache_control" in body["system"][-1]  # the schema is part of the cached prefix


def test_invalid_tool_input_is_typed(make, ant):
    ant.enqueue(ant.message(tool_input={"findings": "none"}, tool_name="Answer"))
    client, _ = make("anthropic:claude-sonnet-4-5").for_reviewer()
    with pytest.raises(InvalidOutput):
        client.complete(LLMRequest.simple("s", "c", schema=Answer))


def test_overloaded_529_then_success_with_backoff(make, ant, clock, sink):
    ant.enqueue(ant.error(529, "overloaded_error", "Overloaded"), ant.message(text="ok"))
    client, _ = make("anthropic:claude-sonnet-4-5").for_reviewer()
    resp = client.complete(LLMRequest.simple("s", "c"))
    assert resp.text == "ok" and clock.sleeps == [0.5]  # backoff base, no jitter in tests
    assert sink.events[0]["attempt_log"][0]["outcome"] == "overloaded"


def test_rate_limit_429_honours_retry_after(make, ant, clock):
    ant.enqueue(ant.error(429, "rate_limit_error", "Number of request tokens has exceeded your rate limit",
                          retry_after=2), ant.message(text="ok"))
    client, _ = make("anthropic:claude-sonnet-4-5").for_reviewer()
    assert client.complete(LLMRequest.simple("s", "c")).text == "ok"
    assert clock.sleeps == [2.0]


def test_max_tokens_stop_reason_gets_more_room(make, ant):
    ant.enqueue(ant.message(tool_input={"findings": []}, tool_name="Answer", stop_reason="max_tokens"),
                ant.message(tool_input=ANSWER, tool_name="Answer"))
    client, _ = make("anthropic:claude-sonnet-4-5").for_reviewer()
    resp = client.complete(LLMRequest.simple("s", "c", schema=Answer, max_output_tokens=1500))
    assert resp.parsed == Answer.model_validate(ANSWER)
    assert [r.json["max_tokens"] for r in ant.requests] == [1500, 3000]


def test_prompt_too_long_is_context_overflow(make, ant):
    ant.enqueue(ant.error(400, "invalid_request_error", "prompt is too long: 210000 tokens > 200000 maximum"))
    client, _ = make("anthropic:claude-sonnet-4-5").for_reviewer()
    with pytest.raises(ContextOverflow):
        client.complete(LLMRequest.simple("s", "c"))
    assert len(ant.requests) == 1


def test_authentication_error_not_retried(make, ant):
    ant.enqueue(ant.error(401, "authentication_error", "invalid x-api-key"))
    client, _ = make("anthropic:claude-sonnet-4-5",
                     fallbacks={"anthropic:claude-sonnet-4-5": ["anthropic:claude-haiku-4-5"]}).for_reviewer()
    with pytest.raises(ProviderError) as exc:
        client.complete(LLMRequest.simple("s", "c"))
    assert exc.value.kind is ErrorKind.AUTH and len(ant.requests) == 1


def test_500_storm_fails_back_within_family(make, ant):
    def server(r):
        if r.json["model"] == "claude-sonnet-4-5":
            return ant.error(500, "api_error", "Internal server error")
        return ant.message(text="from haiku")

    ant.responder = server
    client, _ = make("anthropic:claude-sonnet-4-5", resilience={"max_attempts": 2},
                     fallbacks={"anthropic:claude-sonnet-4-5": ["anthropic:claude-haiku-4-5"]}).for_reviewer()
    resp = client.complete(LLMRequest.simple("s", "c"))
    assert resp.text == "from haiku" and resp.model == "anthropic:claude-haiku-4-5"
    assert resp.failbacks == [{"from": "anthropic:claude-sonnet-4-5", "to": "anthropic:claude-haiku-4-5",
                               "reason": "server"}]
