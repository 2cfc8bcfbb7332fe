"""Anthropic Messages through the official `anthropic` SDK, with prompt caching.

The stable prefix becomes system blocks with `cache_control: {"type": "ephemeral"}`
breakpoints (each block when there are at most four, else the first three and the last).
Structured output: a forced tool call whose `input_schema` is the pydantic schema (tools sit
before the system prompt in the cached prefix), or JSON in text with the tolerant parse.
Endpoint and key: `[llm.anthropic]`, else `ANTHROPIC_BASE_URL` / `ANTHROPIC_API_KEY`.
Answers are streamed and timed on silence (`streaming.py`) unless `[llm.resilience] stream = false`.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from dualrag.config.llm import LLMConfig, ModelSpec, is_local_url
from dualrag.errors import ConfigError
from dualrag.llm.base import ProviderClient
from dualrag.llm.errors import ErrorKind, ProviderError, classify_status, make_error, parse_retry_after
from dualrag.llm.streaming import watch
from dualrag.llm.structured import schema_instructions, schema_json, schema_name
from dualrag.llm.types import FinishReason, LLMRequest, LLMResponse, Usage

MAX_BREAKPOINTS = 4
_FINISH: dict[str, FinishReason] = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "pause_turn": "stop",
    "max_tokens": "length",
    "model_context_window_exceeded": "length",
    "tool_use": "tool_use",
    "refusal": "content_filter",
}
CACHE = {"type": "ephemeral"}
ANTHROPIC_DEFAULT_URL = "https://api.anthropic.com"  # the SDK's, given explicitly when the variable is empty


def make_anthropic_sdk(config: LLMConfig) -> Any:
    import anthropic

    endpoint = config.anthropic
    # An empty ANTHROPIC_BASE_URL (a CI variable left empty) is unset: the SDK would take "" as the URL.
    base_url = endpoint.base_url or os.environ.get("ANTHROPIC_BASE_URL", "").strip() or None
    kwargs: dict[str, Any] = {
        "max_retries": 0,
        "timeout": config.resilience.for_endpoint(
            is_local_url(base_url) if endpoint.local is None else endpoint.local).request_timeout_s,
        "default_headers": endpoint.headers or None,
    }
    if base_url:
        kwargs["base_url"] = base_url
    elif "ANTHROPIC_BASE_URL" in os.environ:
        kwargs["base_url"] = ANTHROPIC_DEFAULT_URL
    if endpoint.api_key_env:
        key = os.environ.get(endpoint.api_key_env)
        if not key:
            raise ConfigError(f"no API key for anthropic: {endpoint.api_key_env} is not set")
        kwargs["api_key"] = key
    elif not (os.environ.get("ANTHROPIC_API_KEY") or os.environ.get("ANTHROPIC_AUTH_TOKEN")):
        if not base_url:  # the SDK would only fail at the first request, after all the work before it
            raise ConfigError("no API key for anthropic: set ANTHROPIC_API_KEY (or llm.anthropic.api_key_env)")
        kwargs["api_key"] = "not-needed"  # a gateway or local server on base_url
    try:
        return anthropic.Anthropic(**kwargs)
    except anthropic.AnthropicError as exc:
        raise ConfigError(f"anthropic client: {exc} (set ANTHROPIC_API_KEY)") from None


def breakpoint_indexes(n: int) -> set[int]:
    if n <= MAX_BREAKPOINTS:
        return set(range(n))
    return {0, 1, 2, n - 1}


class AnthropicClient(ProviderClient):
    def __init__(self, spec: ModelSpec, config: LLMConfig, *, sdk: Any | None = None) -> None:
        super().__init__(spec, config)
        self.sdk = sdk if sdk is not None else make_anthropic_sdk(config)
        self.endpoint = str(getattr(self.sdk, "base_url", "") or "")
        configured = config.anthropic.local
        self.local = is_local_url(self.endpoint) if configured is None else configured

    @property
    def use_tool(self) -> bool:
        return self.config.anthropic_structured == "tool"

    def build_params(self, request: LLMRequest) -> dict[str, Any]:
        blocks = list(request.prefix)
        params: dict[str, Any] = {"model": self.spec.model, "max_tokens": self.max_tokens(request)}
        if request.schema is not None:
            if self.use_tool:
                name = schema_name(request.schema)
                params["tools"] = [{
                    "name": name,
                    "description": "Record the answer. Call this exactly once with the complete answer.",
                    "input_schema": schema_json(request.schema),
                }]
                params["tool_choice"] = {"type": "tool", "name": name}
            else:
                blocks.append(schema_instructions(request.schema))
        marks = breakpoint_indexes(len(blocks))
        if blocks:
            params["system"] = [
                {"type": "text", "text": text, **({"cache_control": dict(CACHE)} if i in marks else {})}
                for i, text in enumerate(blocks)
            ]
        params["messages"] = [{"role": m.role, "content": m.content} for m in request.messages]
        if self.capability.temperature:
            # the SDK (2.x) no longer has a temperature argument; older models/gateways still take it
            params["extra_body"] = {"temperature": min(1.0, self.temperature(request))}
        return params

    def complete(self, request: LLMRequest) -> LLMResponse:
        params = self.build_params(request)
        started = time.monotonic()
        with _sdk_errors(self.model):
            if self.resilience.stream:
                resp = self._streamed(params, request)
            else:
                resp = self.sdk.messages.create(**params, timeout=self.timeout(request))
        usage = _usage(getattr(resp, "usage", None))
        text_parts: list[str] = []
        value: Any = None
        has_value = False
        wanted = schema_name(request.schema) if request.schema is not None and self.use_tool else None
        for block in resp.content or []:
            kind = getattr(block, "type", None)
            if kind == "text":
                text_parts.append(block.text)
            elif kind == "tool_use" and wanted and getattr(block, "name", None) == wanted and not has_value:
                value, has_value = block.input, True
        text = "".join(text_parts)
        raw = resp.stop_reason
        return self.finish(
            request, text=text, value=value, has_value=has_value,
            finish_reason=_FINISH.get(raw or "end_turn", "other"), raw_finish_reason=raw,
            usage=usage, started=started,
        )

    def _streamed(self, params: dict[str, Any], request: LLMRequest) -> Any:
        """The SDK's message stream, timed on silence; its accumulated final message is read
        exactly like a non-streamed response (text, tool input, stop reason, usage)."""
        silence = self.silence(request)
        opened: list[Any] = []

        def open_stream() -> Any:
            stream = self.sdk.messages.stream(**params, timeout=silence.socket_s).__enter__()
            opened.append(stream)
            return stream

        for _event in watch(open_stream, silence, model=self.model):
            pass
        message = opened[0].get_final_message()
        if message.stop_reason is None:
            raise ProviderError(ErrorKind.SERVER, "the stream ended before the answer did (interrupted)",
                                model=self.model)
        return message


@contextmanager
def _sdk_errors(model: str) -> Iterator[None]:
    """SDK exceptions → typed ProviderErrors (a stream's silence is already one)."""
    import anthropic

    try:
        yield
    except anthropic.APITimeoutError as exc:
        raise ProviderError(ErrorKind.TIMEOUT, str(exc), model=model) from exc
    except anthropic.APIConnectionError as exc:
        raise ProviderError(ErrorKind.CONNECTION, str(exc), model=model) from exc
    except anthropic.APIStatusError as exc:
        err_type = getattr(exc, "type", None)
        if err_type is None and isinstance(exc.body, dict):
            err_type = (exc.body.get("error") or {}).get("type")
        kind = classify_status(exc.status_code, exc.message, err_type)
        raise make_error(
            kind, exc.message, model=model, status=exc.status_code,
            retry_after=parse_retry_after(exc.response.headers),
        ) from exc
    except anthropic.AnthropicError as exc:
        raise ProviderError(ErrorKind.UNKNOWN, f"{type(exc).__name__}: {exc}", model=model) from exc


def _usage(u: Any) -> Usage:
    if u is None:
        return Usage()
    read = getattr(u, "cache_read_input_tokens", None) or 0
    write = getattr(u, "cache_creation_input_tokens", None) or 0
    uncached = getattr(u, "input_tokens", 0) or 0
    return Usage(
        input_tokens=uncached + read + write,
        output_tokens=getattr(u, "output_tokens", 0) or 0,
        cache_read_tokens=read,
        cache_write_tokens=write,
    )
