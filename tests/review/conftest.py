"""Fixtures for the review stage: loopback OpenAI/Anthropic fakes driven through the real SDKs."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from dualrag.config import Settings, load_settings
from dualrag.testing.fake_llm import FakeAnthropic, FakeOpenAI

FAST = {
    "request_timeout_s": 2.0, "task_timeout_s": 20.0, "min_attempt_s": 0.01, "max_attempts": 2,
    "backoff_base_s": 0.01, "backoff_max_s": 0.05, "jitter": 0.0, "max_retry_after_s": 1.0,
    "breaker_failures": 2, "breaker_cooldown_s": 60.0, "heartbeat_s": 30.0,
}

JAVA_OLD = """package com.acme;

public class Orders {
    public int total(int a, int b) {
        return a + b;
    }

    public String name(String s) {
        return s;
    }
}
"""

JAVA_NEW = """package com.acme;

public class Orders {
    public int total(int a, int b) {
        int sum = a - b;
        return sum;
    }

    public String name(String s) {
        return s.trim();
    }
}
"""

PATH = "src/main/java/com/acme/Orders.java"


@pytest.fixture(autouse=True)
def _clean_llm_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_BASE_URL", "ANTHROPIC_BASE_URL", "ANTHROPIC_AUTH_TOKEN", "DUALRAG_LLM",
                 "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "ak-test")




@pytest.fixture
def java_diff(make_git_file) -> bytes:
    return make_git_file(PATH, JAVA_OLD.encode(), JAVA_NEW.encode())


@pytest.fixture
def llm_settings(oai: FakeOpenAI, ant: FakeAnthropic) -> Callable[..., Settings]:
    def _make(model: str | None = "openai:gpt-4.1-mini", resilience: dict[str, Any] | None = None,
              walkthrough: bool = False, reverse_check: bool = False, model_warnings: str = "keep",
              **llm: Any) -> Settings:
        """`walkthrough`: the walkthrough's extra request (test_walkthrough_llm.py; for one file too);
        `reverse_check`: the reverse check's extra request (test_reverse_check.py); both off, the
        reviewers' requests are all a test sees. `model_warnings`: the scripted findings keep the
        severity a test gives them unless it tests the calibration (test_grounding.py)."""
        return load_settings(None, retrieval={"enabled": False},
                             review={"walkthrough": walkthrough, "reverse_check": reverse_check,
                                     "walkthrough_min_files": 1, "model_warnings": model_warnings}, llm={
            "model": model, "openai": {"base_url": oai.base_url, "local": False},
            "anthropic": {"base_url": ant.base_url, "local": False},  # stand-ins for the cloud APIs
            "resilience": {**FAST, **(resilience or {})}, **llm,
        })
    return _make


def answer(*findings: dict[str, Any]) -> str:
    return json.dumps({"findings": list(findings)})


def finding(line: int, severity: str = "warning", category: str = "correctness", path: str = PATH, **kw: Any) -> dict:
    return {"path": path, "line": line, "severity": severity, "category": category,
            "title": kw.pop("title", f"{category} problem"), "message": kw.pop("message", "it breaks"), **kw}
