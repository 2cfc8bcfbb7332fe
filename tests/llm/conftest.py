"""Fixtures for the LLM layer: loopback fake servers, a manual clock, a factory wired to them."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from dualrag.llm import ListSink, LLMConfig, LLMFactory, ManualClock
from dualrag.testing.fake_llm import FakeAnthropic, FakeOpenAI


@pytest.fixture(autouse=True)
def _clean_llm_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_BASE_URL", "OPENAI_API_KEY", "ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY",
                 "ANTHROPIC_AUTH_TOKEN", "DUALRAG_LLM"):
        monkeypatch.delenv(name, raising=False)
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
        monkeypatch.delenv(name, raising=False)




FAST = {
    "request_timeout_s": 2.0,
    "task_timeout_s": 60.0,
    "min_attempt_s": 0.05,
    "max_attempts": 3,
    "backoff_base_s": 0.5,
    "backoff_max_s": 4.0,
    "jitter": 0.0,
    "max_retry_after_s": 10.0,
    "breaker_failures": 3,
    "breaker_cooldown_s": 30.0,
    "heartbeat_s": 30.0,
}


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def sink() -> ListSink:
    return ListSink()


@pytest.fixture
def make(oai: FakeOpenAI, ant: FakeAnthropic, clock: ManualClock, sink: ListSink, monkeypatch: pytest.MonkeyPatch
         ) -> Callable[..., LLMFactory]:
    """make(model="openai:gpt-4.1-mini", resilience={...}, **llm_fields) → LLMFactory on the fakes."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "ak-test")

    def _make(model: str | None = "openai:gpt-4.1-mini", *, resilience: dict[str, Any] | None = None,
              on_heartbeat=None, **fields: Any) -> LLMFactory:
        cfg = LLMConfig.model_validate({
            "model": model,
            # the fakes stand in for the cloud APIs: remote, although they listen on loopback
            "openai": {"base_url": oai.base_url, "local": False},
            "anthropic": {"base_url": ant.base_url, "local": False},
            "resilience": {**FAST, **(resilience or {})},
            **fields,
        })
        return LLMFactory(cfg, sink=sink, clock=clock, on_heartbeat=on_heartbeat, rng=random.Random(0))

    return _make
