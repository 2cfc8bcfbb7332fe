"""Model choice, capability table, offline mode, missing extra, telemetry sink."""

from __future__ import annotations

import json
import os
import tomllib
from typing import Annotated

import pytest
from pydantic import ValidationError
from pydantic_settings import NoDecode

from dualrag.config import Settings
from dualrag.errors import ConfigError, UserError
from dualrag.llm import (
    OFFLINE_REASON,
    JsonlSink,
    LLMConfig,
    LLMFactory,
    LLMRequest,
    MissingExtra,
    ModelSpec,
    Usage,
    build_llm,
    cost_of,
)


def test_model_spec_parsing():
    assert ModelSpec.parse("openai:gpt-4.1-mini") == ModelSpec(provider="openai", model="gpt-4.1-mini")
    assert ModelSpec.parse(" Anthropic:claude-sonnet-4-5 ").provider == "anthropic"
    assert ModelSpec.parse("llamacpp:/models/x.gguf").model == "/models/x.gguf"
    assert ModelSpec.parse("openai:qwen2.5:32b").model == "qwen2.5:32b"  # ollama tags keep their colon
    for bad in ("gpt-4.1", "mistral:large", "openai:"):
        with pytest.raises(ValueError):
            ModelSpec.parse(bad)


def test_config_from_toml_with_overrides_and_chains():
    cfg = LLMConfig.model_validate(tomllib.loads("""
        model = "openai:gpt-4.1"
        [reviewers]
        security = "anthropic:claude-sonnet-4-5"
        [fallbacks]
        "openai:gpt-4.1" = ["openai:gpt-4.1-mini", "openai:gpt-4.1"]
        [models."openai:qwen3-coder"]
        context_window = 262144
        json_schema = true
        input_price = 0.2
        output_price = 0.8
    """))
    assert cfg.model_for("security") == "anthropic:claude-sonnet-4-5" and cfg.model_for("quality") == "openai:gpt-4.1"
    assert cfg.chain_for("openai:gpt-4.1") == ["openai:gpt-4.1", "openai:gpt-4.1-mini"]
    assert cfg.capability("openai:qwen3-coder").context_window == 262144
    with pytest.raises(ValidationError):
        LLMConfig.model_validate({"reviewers": {"security": "claude"}})
    with pytest.raises(ValidationError):
        LLMConfig.model_validate({"resilience": {"max_atempts": 3}})


def test_capability_lookup_and_cost():
    cfg = LLMConfig()
    assert cfg.capability("anthropic:claude-sonnet-4-5-20250929") == cfg.capability("anthropic:claude-sonnet-4-5")
    assert cfg.capability("openai:gpt-4.1-mini-2025-04-14").input_price == 0.40  # longest prefix wins
    unknown = cfg.capability("openai:my-vllm-model")
    assert not unknown.json_schema and unknown.input_price is None
    assert cost_of(Usage(1000, 10), unknown) is None
    assert cfg.capability("llamacpp:/m/x.gguf").input_price == 0.0
    sonnet = cfg.capability("anthropic:claude-sonnet-4-5")
    assert cost_of(Usage(1_000_000, 0, cache_read_tokens=1_000_000), sonnet) == pytest.approx(0.30)
    assert cost_of(Usage(2_000_000, 1_000_000, cache_write_tokens=1_000_000), sonnet) == pytest.approx(3 + 3.75 + 15)


def test_settings_section_accepts_a_plain_string_and_nested_env(monkeypatch):
    class WithLLM(Settings):  # how [llm] is meant to be attached to Settings
        llm: Annotated[LLMConfig, NoDecode] = LLMConfig()

    for name in list(os.environ):
        if name.startswith("DUALRAG_"):
            monkeypatch.delenv(name)
    assert WithLLM().llm.model is None
    monkeypatch.setenv("DUALRAG_LLM", "openai:gpt-4.1-mini")
    assert WithLLM().llm.model == "openai:gpt-4.1-mini"
    monkeypatch.delenv("DUALRAG_LLM")
    monkeypatch.setenv("DUALRAG_LLM__MODEL", "anthropic:claude-haiku-4-5")
    monkeypatch.setenv("DUALRAG_LLM__RESILIENCE__MAX_ATTEMPTS", "5")
    s = WithLLM()
    assert (s.llm.model, s.llm.resilience.max_attempts) == ("anthropic:claude-haiku-4-5", 5)


def test_no_model_means_offline():
    client, reason = build_llm(LLMConfig())
    assert client is None and reason == OFFLINE_REASON
    client, _ = build_llm(LLMConfig(reviewers={"security": "openai:gpt-4.1"}), "quality")
    assert client is None


def test_missing_llamacpp_extra_names_the_pip_command(monkeypatch, tmp_path):
    import sys

    monkeypatch.setitem(sys.modules, "llama_cpp", None)  # import fails even if it were installed
    gguf = tmp_path / "x.gguf"
    gguf.write_bytes(b"GGUF")
    with pytest.raises(MissingExtra, match=r"pip install 'dualrag\[llamacpp\]'") as exc:
        build_llm(LLMConfig(model=f"llamacpp:{gguf}"))
    assert isinstance(exc.value, ConfigError) and isinstance(exc.value, UserError) and exc.value.exit_code == 2


def test_openai_without_key_or_endpoint_is_a_config_error():
    with pytest.raises(ConfigError, match="OPENAI_API_KEY"):
        build_llm(LLMConfig(model="openai:gpt-4.1"))


def test_local_endpoint_needs_no_key(oai):
    oai.enqueue(oai.chat("hello"))
    client, _ = build_llm(LLMConfig(model="openai:llama3", openai={"base_url": oai.base_url}))
    assert client.complete(LLMRequest.simple("s", "u")).text == "hello"


def test_api_key_env_is_used(oai, monkeypatch):
    monkeypatch.setenv("GATEWAY_TOKEN", "gw-123")
    oai.enqueue(oai.chat("hello"))
    client, _ = build_llm(LLMConfig(model="openai:m", openai={"base_url": oai.base_url, "api_key_env": "GATEWAY_TOKEN",
                                                              "headers": {"X-Team": "review"}}))
    client.complete(LLMRequest.simple("s", "u"))
    assert oai.requests[0].headers["authorization"] == "Bearer gw-123"
    assert oai.requests[0].headers["x-team"] == "review"


def test_factory_shares_breakers_between_reviewers(make):
    factory = make("openai:gpt-4.1", reviewers={"security": "openai:gpt-4.1"})
    a, _ = factory.for_reviewer("quality")
    b, _ = factory.for_reviewer("security")
    assert a.breakers is b.breakers and a.chain[0] is b.chain[0]


def test_jsonl_sink_flushes_each_line(tmp_path, make, oai):
    path = tmp_path / "run" / "events.jsonl"
    sink = JsonlSink(path)
    oai.enqueue(oai.chat("one"), oai.chat("two"))
    client, _ = LLMFactory(make().config, sink=sink).for_reviewer()
    client.complete(LLMRequest.simple("s", "u", tag="a"))
    lines = path.read_text().splitlines()  # readable before close: flushed
    assert len(lines) == 1 and json.loads(lines[0])["tag"] == "a"
    client.complete(LLMRequest.simple("s", "u", tag="b"))
    sink.close()
    events = [json.loads(x) for x in path.read_text().splitlines()]
    assert [e["tag"] for e in events] == ["a", "b"] and all(e["event"] == "llm_request" for e in events)


def test_broken_sink_never_breaks_a_request(make, oai):
    def boom(event):
        raise RuntimeError("disk full")

    oai.enqueue(oai.chat("ok"))
    client, _ = LLMFactory(make().config, sink=boom).for_reviewer()
    assert client.complete(LLMRequest.simple("s", "u")).text == "ok"


def test_model_from_the_environment_keeps_the_files_llm_table(tmp_path, monkeypatch):
    from dualrag.config import load_settings

    config = tmp_path / ".dualrag.toml"
    config.write_text('[llm]\nmodel = "openai:gpt-4.1"\n[llm.models."openai:local"]\nwindow = 16384\n'
                      'max_output = 1024\n', encoding="utf-8")
    monkeypatch.setenv("DUALRAG_LLM", "openai:local")
    llm = load_settings(config).llm
    assert llm.model == "openai:local"  # the environment wins for the model ...
    assert llm.capability("openai:local").context_window == 16384  # ... and the capability entry stays
