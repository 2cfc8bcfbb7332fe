"""`DUALRAG_LLM=provider:model` and nested `DUALRAG_LLM__*` variables, alone and together, over
the file's `[llm]` table (issue 17: `DUALRAG_LLM__OPENAI__API_KEY_ENV` had no effect beside
`DUALRAG_LLM`)."""

from __future__ import annotations

import os

import pytest

from dualrag.config import load_settings
from dualrag.errors import ConfigError


@pytest.fixture(autouse=True)
def _no_dualrag_env(monkeypatch):
    for name in list(os.environ):
        if name.startswith("DUALRAG_"):
            monkeypatch.delenv(name)


TOML = """
[llm]
model = "openai:local"
max_output_tokens = 700
[llm.openai]
base_url = "http://127.0.0.1:8080/v1"
[llm.models."openai:local"]
context_window = 16384
"""


def test_model_alone(monkeypatch):
    monkeypatch.setenv("DUALRAG_LLM", "openai:gpt-4.1-mini")
    llm = load_settings(None).llm
    assert llm.model == "openai:gpt-4.1-mini" and llm.openai.api_key_env is None


def test_nested_alone(monkeypatch):
    monkeypatch.setenv("DUALRAG_LLM__OPENAI__API_KEY_ENV", "MY_KEY")
    llm = load_settings(None).llm
    assert llm.model is None and llm.openai.api_key_env == "MY_KEY"


def test_model_and_nested_together(monkeypatch):
    monkeypatch.setenv("DUALRAG_LLM", "openai:gpt-4.1-mini")
    monkeypatch.setenv("DUALRAG_LLM__OPENAI__API_KEY_ENV", "MY_KEY")
    monkeypatch.setenv("DUALRAG_LLM__MAX_OUTPUT_TOKENS", "900")
    llm = load_settings(None).llm
    assert (llm.model, llm.openai.api_key_env, llm.max_output_tokens) == ("openai:gpt-4.1-mini", "MY_KEY", 900)


def test_together_over_the_file(monkeypatch, tmp_path):
    path = tmp_path / ".dualrag.toml"
    path.write_text(TOML)
    monkeypatch.setenv("DUALRAG_LLM", "openai:gpt-4.1")
    monkeypatch.setenv("DUALRAG_LLM__OPENAI__API_KEY_ENV", "MY_KEY")
    llm = load_settings(path).llm
    assert llm.model == "openai:gpt-4.1" and llm.openai.api_key_env == "MY_KEY"
    assert llm.openai.base_url == "http://127.0.0.1:8080/v1" and llm.max_output_tokens == 700  # the file's stay
    assert llm.capability("openai:local").context_window == 16384
    monkeypatch.delenv("DUALRAG_LLM")
    llm = load_settings(path).llm  # nested alone over the file: the file's model stays
    assert llm.model == "openai:local" and llm.openai.api_key_env == "MY_KEY"


def test_a_bad_nested_key_beside_the_model_is_named(monkeypatch):
    monkeypatch.setenv("DUALRAG_LLM", "openai:gpt-4.1-mini")
    monkeypatch.setenv("DUALRAG_LLM__OPENAI__API_KEY_ENVV", "MY_KEY")
    with pytest.raises(ConfigError, match="unknown key: 'llm.openai.api_key_envv'"):
        load_settings(None)


def test_review_section_from_the_environment(monkeypatch):
    assert load_settings(None).review.walkthrough is True
    monkeypatch.setenv("DUALRAG_REVIEW__WALKTHROUGH", "false")
    assert load_settings(None).review.walkthrough is False
