"""Typed configuration of the LLM layer (section `[llm]` of `.dualrag.toml`).

    [llm]
    model = "openai:gpt-4.1-mini"              # PROVIDER:MODEL; unset = offline review
    [llm.reviewers]
    security = "anthropic:claude-sonnet-4-5"   # per-reviewer override
    [llm.fallbacks]
    "openai:gpt-4.1" = ["openai:gpt-4.1-mini"] # failback chain within a family
    [llm.openai]
    base_url = "http://localhost:8000/v1"      # else OPENAI_BASE_URL, else the SDK default
    [llm.resilience]
    max_attempts = 3
    [llm.models."openai:qwen2.5-coder-32b"]    # capability table entries (merged over defaults)
    context_window = 32768
    json_schema = true
    [llm.models."openai:local"]                # a local server: its window and output cap size chunks,
    window = 16384                             # context and prompts (a window <= 32k gets the compact
    max_output = 1024                          # prompts); llama.cpp constrains JSON by the schema:
    json_object_schema = true

Endpoints and keys come from each SDK's usual environment (`OPENAI_BASE_URL`, `OPENAI_API_KEY`,
`ANTHROPIC_BASE_URL`, `ANTHROPIC_API_KEY`) unless set here; `api_key_env` names another
variable to read the key from, so no key needs to sit in a file.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import AliasChoices, Field, field_validator, model_validator

from dualrag.config.section import Section

PROVIDERS = ("openai", "anthropic", "llamacpp")
Provider = Literal["openai", "anthropic", "llamacpp"]



class ModelSpec(Section):
    """A parsed `PROVIDER:MODEL` string (`llamacpp:/models/x.gguf` keeps the path as the model)."""

    provider: Provider
    model: str

    @classmethod
    def parse(cls, spec: str) -> ModelSpec:
        provider, sep, model = spec.strip().partition(":")
        provider = provider.strip().lower()
        model = model.strip()
        if not sep or not model:
            raise ValueError(f"model must be PROVIDER:MODEL (e.g. openai:gpt-4.1-mini), got {spec!r}")
        if provider not in PROVIDERS:
            raise ValueError(f"unknown provider {provider!r} in {spec!r} (known: {', '.join(PROVIDERS)})")
        return cls(provider=provider, model=model)

    def __str__(self) -> str:
        return f"{self.provider}:{self.model}"


def _check_spec(value: str | None) -> str | None:
    if value is None or not value.strip():
        return None
    return str(ModelSpec.parse(value))


class ModelCapability(Section):
    """What a model can do and what it costs. Prices are USD per million tokens; None = unknown."""

    context_window: int = Field(32_768, gt=0, validation_alias=AliasChoices("context_window", "window"),
                                description="the model's window: it sizes chunks and context (`window` also works)")
    max_output_tokens: int = Field(8_192, gt=0, validation_alias=AliasChoices("max_output_tokens", "max_output"),
                                   description="ceiling for max_tokens, also when growing after 'length'; the "
                                               "answer reserve when packing context (`max_output` also works)")
    json_schema: bool = Field(False, description="accepts response_format json_schema (else json_object + schema in prompt)")
    json_object_schema: bool = Field(
        False, description="constrains response_format json_object by its `schema` field (llama.cpp's servers): "
                           "answers follow the schema by grammar, and the schema stays out of the prompt")
    max_tokens_param: Literal["max_tokens", "max_completion_tokens"] = Field(
        "max_tokens", description="the request parameter that caps the answer (reasoning models: "
                                  "max_completion_tokens)")
    temperature: bool = Field(True, description="accepts a temperature (reasoning models do not)")
    input_price: float | None = Field(None, ge=0, description="USD per million prompt tokens (None = unknown)")
    output_price: float | None = Field(None, ge=0, description="USD per million answer tokens (None = unknown)")
    cache_read_price: float | None = Field(None, ge=0, description="None = same as input")
    cache_write_price: float | None = Field(None, ge=0, description="None = same as input")


def _cap(window: int, out: int, schema: bool, i: float | None, o: float | None,
         cr: float | None = None, cw: float | None = None, **kw: Any) -> ModelCapability:
    """Shorthand for the default table below."""
    return ModelCapability(context_window=window, max_output_tokens=out, json_schema=schema,
                           input_price=i, output_price=o, cache_read_price=cr, cache_write_price=cw, **kw)


# Defaults for a few known models (list prices when written; override in [llm.models]). Keys are
# "provider:model"; lookup also accepts dated variants by prefix (claude-sonnet-4-5-20250929).
DEFAULT_CAPABILITIES: dict[str, ModelCapability] = {
    "openai:gpt-4.1": _cap(1_047_576, 32_768, True, 2.00, 8.00, 0.50, 2.00),
    "openai:gpt-4.1-mini": _cap(1_047_576, 32_768, True, 0.40, 1.60, 0.10, 0.40),
    "openai:gpt-4.1-nano": _cap(1_047_576, 32_768, True, 0.10, 0.40, 0.025, 0.10),
    "openai:gpt-4o": _cap(128_000, 16_384, True, 2.50, 10.00, 1.25, 2.50),
    "openai:gpt-4o-mini": _cap(128_000, 16_384, True, 0.15, 0.60, 0.075, 0.15),
    "openai:o4-mini": _cap(200_000, 100_000, True, 1.10, 4.40, 0.275, 1.10,
                           max_tokens_param="max_completion_tokens", temperature=False),
    "openai:gpt-5": _cap(400_000, 128_000, True, 1.25, 10.00, 0.125, 1.25,
                         max_tokens_param="max_completion_tokens", temperature=False),
    "openai:gpt-5-mini": _cap(400_000, 128_000, True, 0.25, 2.00, 0.025, 0.25,
                              max_tokens_param="max_completion_tokens", temperature=False),
    "openai:deepseek-chat": _cap(128_000, 8_192, False, 0.28, 0.42, 0.028, 0.28),
    "openai:qwen-plus": _cap(131_072, 8_192, False, 0.40, 1.20),
    # the anthropic SDK 2.x has no temperature argument: it is sent only where a table entry says so
    "anthropic:claude-sonnet-4-5": _cap(200_000, 64_000, True, 3.00, 15.00, 0.30, 3.75, temperature=False),
    "anthropic:claude-sonnet-4": _cap(200_000, 64_000, True, 3.00, 15.00, 0.30, 3.75, temperature=False),
    "anthropic:claude-haiku-4-5": _cap(200_000, 64_000, True, 1.00, 5.00, 0.10, 1.25, temperature=False),
    "anthropic:claude-opus-4-5": _cap(200_000, 64_000, True, 5.00, 25.00, 0.50, 6.25, temperature=False),
    "anthropic:claude-opus-4-1": _cap(200_000, 32_000, True, 15.00, 75.00, 1.50, 18.75, temperature=False),
}

# When a model has no entry: conservative window, no json_schema, unknown prices (cost None),
# except in-process GGUF which is free and constrained by a JSON grammar.
FALLBACK_CAPABILITY: dict[str, ModelCapability] = {
    "openai": _cap(32_768, 4_096, False, None, None),
    "anthropic": _cap(200_000, 8_192, True, None, None, temperature=False),
    "llamacpp": _cap(8_192, 2_048, True, 0.0, 0.0, 0.0, 0.0),
}


LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "::1", "0.0.0.0"})


def is_local_url(url: str | None) -> bool:
    """A base URL that points at this machine (`http://127.0.0.1:8080/v1`, `http://localhost:11434`)."""
    if not url:
        return False
    from urllib.parse import urlsplit

    host = (urlsplit(url if "//" in url else "//" + url).hostname or "").lower()
    return host in LOCAL_HOSTS or host.startswith("127.")


class EndpointConfig(Section):
    """Where a provider lives. Unset fields fall back to the SDK's own environment variables."""

    base_url: str | None = Field(None, description="else OPENAI_BASE_URL / ANTHROPIC_BASE_URL, else the SDK default")
    api_key_env: str | None = Field(None, description="read the key from this variable instead of the SDK's default")
    headers: dict[str, str] = Field(default_factory=dict, description="extra headers (gateways)")
    local: bool | None = Field(
        None, description="a model server on this machine (long timeouts, no re-sent timeouts, one request at a "
                          "time); unset: when base_url is localhost/127.0.0.1/::1. Set false for a gateway to a "
                          "remote API that listens locally, true for a single llama.cpp box on the network")


class LlamaCppConfig(Section):
    n_ctx: int = Field(8_192, gt=0, description="context window of an in-process GGUF model (`llamacpp:PATH`)")
    n_threads: int | None = Field(None, ge=1, description="CPU threads (None: llama.cpp's default)")
    n_gpu_layers: int = Field(0, ge=-1, description="layers offloaded to a GPU (0: none, -1: all)")


# Timeouts by where the model runs. A server on this machine (llama.cpp, Ollama, vLLM on a
# laptop) reads a long prompt for minutes before its first token, and re-sending a request it
# is still computing only queues a second full computation behind the first.
REMOTE_TIMEOUTS: dict[str, Any] = {"request_timeout_s": 120.0, "silence_timeout_s": 60.0,
                                   "task_timeout_s": 600.0, "retry_timeouts": True}
LOCAL_TIMEOUTS: dict[str, Any] = {"request_timeout_s": 1800.0, "silence_timeout_s": 120.0,
                                  "task_timeout_s": 3600.0, "retry_timeouts": False}


class ResilienceConfig(Section):
    """Timeouts, retries, breakers, heartbeat. Times in seconds.

    Unset timeouts take the defaults of the endpoint (`REMOTE_TIMEOUTS`, or `LOCAL_TIMEOUTS`
    for a base URL on localhost / 127.0.0.1 / ::1 and in-process models): see `for_endpoint`."""

    stream: bool = Field(True, description="stream answers: an attempt times out on silence, not on its duration")
    local_concurrency: int = Field(
        1, ge=1, description="requests in flight at once to one server on this machine (llama.cpp's answers one "
                             "at a time and, by default, abandons the running request when another arrives)")
    request_timeout_s: float | None = Field(
        None, gt=0, description="silence allowed before the first token (prompt reading included); without "
                                "streaming, the whole attempt. Unset: 120, or 1800 for a local server")
    silence_timeout_s: float | None = Field(
        None, gt=0, description="silence allowed between tokens of a streamed answer. Unset: 60, or 120 locally")
    task_timeout_s: float | None = Field(
        None, gt=0, description="one complete() call incl. retries and failbacks. Unset: 600, or 3600 locally")
    retry_timeouts: bool | None = Field(
        None, description="re-send an attempt that timed out. Unset: yes for remote APIs, no for a local server "
                          "(it is still computing the first request; a copy would queue behind it)")
    min_attempt_s: float = Field(2.0, ge=0, description="do not start (or retry) an attempt with less time left")
    max_attempts: int = Field(3, ge=1, le=20, description="attempts per model before failing back")
    backoff_base_s: float = Field(1.0, ge=0, description="delay before the first retry, doubled per attempt")
    backoff_max_s: float = Field(20.0, ge=0, description="the longest delay between attempts")
    jitter: float = Field(0.25, ge=0, le=1, description="± share of each backoff delay")
    max_retry_after_s: float = Field(60.0, ge=0, description="a longer Retry-After fails back instead of waiting")
    breaker_failures: int = Field(5, ge=1, description="consecutive failures that open a model's breaker")
    breaker_cooldown_s: float = Field(30.0, ge=0, description="open → half-open (one probe) after this")
    length_growth: float = Field(2.0, gt=1, description="max_tokens factor for the one retry after finish 'length'")
    heartbeat_s: float = Field(30.0, gt=0, description="heartbeat callback interval while waiting on a model")

    def for_endpoint(self, local: bool) -> ResilienceConfig:
        """A copy with every unset timeout filled in for a local or a remote endpoint."""
        defaults = LOCAL_TIMEOUTS if local else REMOTE_TIMEOUTS
        return self.model_copy(update={k: v for k, v in defaults.items() if getattr(self, k) is None})


class LLMConfig(Section):
    """The `[llm]` section. A plain string (`DUALRAG_LLM=openai:gpt-4.1-mini`) means `{model = ...}`."""

    model: str | None = Field(None, description="PROVIDER:MODEL; unset = offline review")
    reviewers: dict[str, str] = Field(default_factory=dict, description="reviewer name → PROVIDER:MODEL")
    fallbacks: dict[str, list[str]] = Field(default_factory=dict, description="PROVIDER:MODEL → failback chain")
    temperature: float = Field(0.0, ge=0, le=2, description="sampling temperature, sent to models that take one")
    max_output_tokens: int = Field(4_096, gt=0, description="one answer's cap (at most the model's own) and its "
                                                            "reserve when packing context")
    anthropic_structured: Literal["tool", "text"] = Field("tool", description="forced tool call or JSON in text")
    strict_schema: bool = Field(False, description="OpenAI json_schema strict mode (needs a strict-compatible schema)")
    openai: EndpointConfig = EndpointConfig()
    anthropic: EndpointConfig = EndpointConfig()
    llamacpp: LlamaCppConfig = LlamaCppConfig()
    resilience: ResilienceConfig = ResilienceConfig()
    models: dict[str, ModelCapability] = Field(default_factory=dict, description="capability table entries")

    @model_validator(mode="before")
    @classmethod
    def _from_string(cls, value: Any) -> Any:
        if isinstance(value, str):
            text = value.strip()
            return json.loads(text) if text.startswith("{") else {"model": text}
        return value

    @field_validator("model")
    @classmethod
    def _model_spec(cls, value: str | None) -> str | None:
        return _check_spec(value)

    @field_validator("reviewers")
    @classmethod
    def _reviewer_specs(cls, value: dict[str, str]) -> dict[str, str]:
        return {name: str(ModelSpec.parse(spec)) for name, spec in value.items()}

    @field_validator("fallbacks")
    @classmethod
    def _fallback_specs(cls, value: dict[str, list[str]]) -> dict[str, list[str]]:
        return {str(ModelSpec.parse(k)): [str(ModelSpec.parse(s)) for s in v] for k, v in value.items()}

    def model_for(self, reviewer: str | None = None) -> str | None:
        """The PROVIDER:MODEL a reviewer uses: its override, else the default, else None (offline)."""
        if reviewer and reviewer in self.reviewers:
            return self.reviewers[reviewer]
        return self.model

    def chain_for(self, spec: str) -> list[str]:
        """The model and its failbacks, in order, without repeats."""
        chain = [spec]
        for other in self.fallbacks.get(spec, []):
            if other not in chain:
                chain.append(other)
        return chain

    def window_of(self, name: str) -> int | None:
        """The context window of a model named with or without its provider (`gpt-4o`, `openai/gpt-4o`,
        `openai:gpt-4o`) in the capability tables, or None: the window of an offline run's
        `[chunking] model`, so that one table says what a model's window is."""
        bare = name.strip().lower().rsplit("/", 1)[-1]
        bare = bare.partition(":")[2] or bare
        for table in (self.models, DEFAULT_CAPABILITIES):
            for key, cap in table.items():
                if bare in (key.lower(), key.lower().partition(":")[2]):
                    return cap.context_window
        return None

    def capability(self, spec: str | ModelSpec) -> ModelCapability:
        """Configured entry, else default, matching exactly, then bare model name, then longest prefix."""
        ms = spec if isinstance(spec, ModelSpec) else ModelSpec.parse(spec)
        key = str(ms)
        tables = (self.models, DEFAULT_CAPABILITIES)
        for table in tables:
            if key in table:
                return table[key]
            if ms.model in table:  # bare model names in [llm.models]
                return table[ms.model]
        for table in tables:
            prefixes = [k for k in table if key.startswith((k + "-", k + "@"))]
            if prefixes:
                return table[max(prefixes, key=len)]
        if ms.provider == "llamacpp":
            return FALLBACK_CAPABILITY["llamacpp"].model_copy(update={"context_window": self.llamacpp.n_ctx})
        return FALLBACK_CAPABILITY[ms.provider]
