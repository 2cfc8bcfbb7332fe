"""Streamed answers over the real SDKs against loopback servers that stream like the real APIs:
timed on silence (first token, between tokens), never on total duration; a timed-out request
to a local server is not re-sent; usage counted locally when the server streams none."""

from __future__ import annotations

import json
import time

import pytest
from pydantic import BaseModel

from dualrag.config.llm import LOCAL_TIMEOUTS, REMOTE_TIMEOUTS, is_local_url
from dualrag.llm import ErrorKind, LLMRequest, ResilienceConfig, Unavailable
from dualrag.testing.fake_llm import FakeOpenAI

pytestmark = pytest.mark.filterwarnings("ignore:The model .* is deprecated:DeprecationWarning")


class Answer(BaseModel):
    findings: list[dict]


GOOD = json.dumps({"findings": [{"line": 3, "message": "null check missing on the path from parse()"}]})
SLOW = {"request_timeout_s": 0.6, "silence_timeout_s": 0.4}


def req(**kw) -> LLMRequest:
    return LLMRequest.simple("rules", "the diff", schema=Answer, **kw)


def test_answer_is_streamed_with_usage_from_the_stream(make, oai, sink):
    oai.enqueue(oai.chat(GOOD, prompt_tokens=900, completion_tokens=30, cached_tokens=600))
    client, _ = make().for_reviewer()
    resp = client.complete(req())
    assert resp.parsed == Answer.model_validate_json(GOOD) and resp.finish_reason == "stop"
    assert resp.usage.as_dict() == {"input_tokens": 900, "output_tokens": 30, "cache_read_tokens": 600,
                                    "cache_write_tokens": 0} and not resp.usage.estimated
    body = oai.requests[0].json
    assert body["stream"] is True and body["stream_options"] == {"include_usage": True}


def test_slow_but_steady_answer_outlasts_every_timeout(make, oai):
    # first token after 0.3 s, then a token every 0.07 s: ~1.8 s in all, three times the first-token window
    oai.enqueue(oai.chat(GOOD, delay=0.3, chunk_delay=0.07))
    client, _ = make(resilience=SLOW).for_reviewer()
    started = time.monotonic()
    resp = client.complete(req())
    assert resp.parsed is not None and time.monotonic() - started > 2 * SLOW["request_timeout_s"]
    assert len(oai.requests) == 1


def test_a_stall_mid_answer_times_out_on_silence(make, oai, sink):
    oai.enqueue(oai.chat(GOOD, stall_after=4, stall_s=5.0, ping_s=0.1))  # pings are not tokens either
    client, _ = make(resilience=SLOW, openai={"base_url": oai.base_url}).for_reviewer()  # local: no re-send
    started = time.monotonic()
    with pytest.raises(Unavailable) as exc:
        client.complete(req())
    assert time.monotonic() - started < 2.0  # 0.4 s of silence, not the 5 s stall
    assert exc.value.last.kind is ErrorKind.TIMEOUT and "no token since the last one" in str(exc.value.last)
    deadline = time.monotonic() + 3
    while oai.closed_early == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert oai.closed_early == 1  # the client hung up: the server can stop generating


def test_keepalive_pings_are_not_tokens(make, oai):
    oai.enqueue(oai.chat(GOOD, delay=5.0, ping_s=0.1))  # a server that pings but never answers
    client, _ = make(resilience=SLOW, openai={"base_url": oai.base_url}).for_reviewer()
    started = time.monotonic()
    with pytest.raises(Unavailable) as exc:
        client.complete(req())
    assert exc.value.last.kind is ErrorKind.TIMEOUT and "no first token" in str(exc.value.last)
    assert time.monotonic() - started < 2.0


def test_timed_out_request_to_a_local_server_is_not_sent_again(make, oai, sink):
    oai.responder = lambda r: oai.chat(GOOD, delay=5.0)  # still reading the prompt
    local = {"base_url": oai.base_url}  # 127.0.0.1 and nothing configured: a local server
    client, _ = make(resilience=SLOW, openai=local).for_reviewer()
    with pytest.raises(Unavailable):
        client.complete(req())
    assert len(oai.requests) == 1  # llama.cpp would queue a copy behind the computation still running
    [attempt] = sink.events[0]["attempt_log"]
    assert attempt["outcome"] == "timeout" and "still be computing" in attempt["not_resent"]


def test_remote_api_timeouts_are_retried(make, oai):
    oai.enqueue(oai.chat(GOOD, delay=5.0), oai.chat(GOOD))
    client, _ = make(resilience=SLOW).for_reviewer()  # conftest: the fake stands in for a remote API
    assert client.complete(req()).parsed is not None and len(oai.requests) == 2


def test_server_without_stream_usage_gets_it_counted_locally(make, monkeypatch, sink):
    with FakeOpenAI(stream_usage=False) as llama:  # like llama-cpp-python's server
        llama.enqueue(llama.chat(GOOD))
        client, _ = make("openai:local", openai={"base_url": llama.base_url}).for_reviewer()
        resp = client.complete(req())
    assert resp.parsed is not None and resp.usage.estimated
    assert resp.usage.output_tokens == (len(GOOD) + 3) // 4  # one per streamed content chunk
    assert 5 < resp.usage.input_tokens < 200
    assert sink.events[0]["usage_estimated"] is True


def test_streaming_can_be_switched_off(make, oai):
    oai.enqueue(oai.chat(GOOD))
    client, _ = make(resilience={"stream": False}).for_reviewer()
    assert client.complete(req()).parsed is not None
    assert "stream" not in oai.requests[0].json


def test_anthropic_tool_answer_streamed(make, ant):
    answer = json.loads(GOOD)
    ant.enqueue(ant.message(tool_input=answer, tool_name="Answer", input_tokens=40, output_tokens=70,
                            cache_read_input_tokens=2000, chunk_delay=0.01))
    client, _ = make("anthropic:claude-sonnet-4-5").for_reviewer()
    resp = client.complete(req())
    assert resp.parsed == Answer.model_validate(answer) and resp.finish_reason == "tool_use"
    assert resp.usage.as_dict() == {"input_tokens": 2040, "output_tokens": 70, "cache_read_tokens": 2000,
                                    "cache_write_tokens": 0}
    assert ant.requests[0].json["stream"] is True


def test_anthropic_stall_times_out(make, ant):
    ant.enqueue(ant.message(text="partial answer that never ends", stall_after=3, stall_s=5.0))
    client, _ = make("anthropic:claude-sonnet-4-5", resilience=SLOW,
                     anthropic={"base_url": ant.base_url}).for_reviewer()  # local: no re-send
    started = time.monotonic()
    with pytest.raises(Unavailable) as exc:
        client.complete(LLMRequest.simple("s", "c"))
    assert exc.value.last.kind is ErrorKind.TIMEOUT and time.monotonic() - started < 2.0
    assert len(ant.requests) == 1


@pytest.mark.parametrize(("url", "local"), [
    ("http://127.0.0.1:8765/v1", True), ("http://localhost:11434", True), ("http://[::1]:8000/v1", True),
    ("https://api.openai.com/v1", False), ("http://10.0.0.5:8000/v1", False), (None, False),
])
def test_local_endpoints(url, local):
    assert is_local_url(url) is local


def test_locality_from_the_url_unless_configured(make, oai):
    assert make(openai={"base_url": oai.base_url}).provider("openai:m").local
    assert not make().provider("openai:m").local  # conftest: local = false (a gateway on loopback)
    assert make(openai={"base_url": "http://10.1.2.3:8080/v1", "local": True}).provider("openai:m").local


def test_local_defaults_allow_long_prompts():
    local, remote = ResilienceConfig().for_endpoint(True), ResilienceConfig().for_endpoint(False)
    assert local.request_timeout_s == LOCAL_TIMEOUTS["request_timeout_s"] >= 600  # minutes of prompt reading
    assert not local.retry_timeouts and remote.retry_timeouts
    assert remote.request_timeout_s == REMOTE_TIMEOUTS["request_timeout_s"]
    assert ResilienceConfig(request_timeout_s=5).for_endpoint(True).request_timeout_s == 5  # set wins


def test_one_request_at_a_time_to_a_local_server(make, oai):
    import threading

    in_flight, peak = [0], [0]
    lock = threading.Lock()

    def server(r):
        with lock:
            in_flight[0] += 1
            peak[0] = max(peak[0], in_flight[0])
        time.sleep(0.2)  # computing (the fake answers from its own thread pool, concurrently)
        with lock:
            in_flight[0] -= 1
        return oai.chat(GOOD)

    oai.responder = server
    factory = make(openai={"base_url": oai.base_url})  # on 127.0.0.1: local
    clients = [factory.for_reviewer(name)[0] for name in ("quality", "rules", "security")]
    threads = [threading.Thread(target=c.complete, args=(req(),)) for c in clients]
    for t in threads:
        t.start()
    for t in threads:
        t.join(5)
    assert len(oai.requests) == 3 and peak[0] == 1  # reviewers of one local server queue on our side


def test_a_stream_cut_short_is_a_retryable_server_error(make, oai):
    oai.enqueue(oai.chat(GOOD, cut_after=3), oai.chat(GOOD))  # dropped mid-answer, then answered
    client, _ = make().for_reviewer()
    resp = client.complete(req())
    assert resp.parsed is not None and len(oai.requests) == 2
