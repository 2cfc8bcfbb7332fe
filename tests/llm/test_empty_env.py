"""An empty OPENAI_BASE_URL / ANTHROPIC_BASE_URL (a CI variable left empty) is unset: the SDKs would
take "" as the endpoint and fail every request ("missing an 'http://' or 'https://' protocol")."""

from __future__ import annotations

import pytest

from dualrag.errors import ConfigError
from dualrag.llm import LLMConfig
from dualrag.llm.anthropic_client import make_anthropic_sdk
from dualrag.llm.openai_client import make_openai_sdk


@pytest.mark.parametrize("empty", ["", "  "])
def test_empty_openai_base_url_is_the_default_endpoint(monkeypatch, empty):
    monkeypatch.setenv("OPENAI_BASE_URL", empty)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    assert str(make_openai_sdk(LLMConfig()).base_url) == "https://api.openai.com/v1/"
    monkeypatch.delenv("OPENAI_API_KEY")
    with pytest.raises(ConfigError, match="no API key for openai: set OPENAI_API_KEY"):
        make_openai_sdk(LLMConfig())  # no key and no real endpoint: said before any work


@pytest.mark.parametrize("empty", ["", "  "])
def test_empty_anthropic_base_url_is_the_default_endpoint(monkeypatch, empty):
    monkeypatch.setenv("ANTHROPIC_BASE_URL", empty)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "ak-test")
    assert str(make_anthropic_sdk(LLMConfig()).base_url) == "https://api.anthropic.com"
    monkeypatch.delenv("ANTHROPIC_API_KEY")
    with pytest.raises(ConfigError, match="no API key for anthropic"):
        make_anthropic_sdk(LLMConfig())


def test_a_set_base_url_still_counts(monkeypatch, oai, ant):
    monkeypatch.setenv("OPENAI_BASE_URL", oai.base_url)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", ant.base_url)
    assert str(make_openai_sdk(LLMConfig()).base_url).rstrip("/") == oai.base_url  # no key needed for it
    assert str(make_anthropic_sdk(LLMConfig()).base_url).rstrip("/") == ant.base_url.rstrip("/")
