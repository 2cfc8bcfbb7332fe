"""OpenAI-compatible chat completions through the official `openai` SDK.

Works with any base URL that speaks `POST /v1/chat/completions` (OpenAI, vLLM, Ollama,
llama.cpp server, DeepSeek, Qwen/DashScope, gateways). Endpoint and key: `[llm.openai]`, else
`OPENAI_BASE_URL` / `OPENAI_API_KEY` as the SDK reads them. The SDK's retries are off.
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
from dualrag.llm.streaming import estimate_usage, watch
from dualrag.llm.structured import schema_instructions, schema_json, schema_name
from dualrag.llm.types import FinishReason, LLMRequest, LLMResponse, Usage

OPENAI_DEFAULT_URL = "https://api.openai.com/v1"  # the SDK's, given explicitly when the variable is empty

_FINISH: dict[str, FinishReason] = {
    "stop": "stop",
    "length": "length",
    "content_filter": "content_filter",
    "tool_calls": "tool_use",
    "function_call": "tool_use",
}


def make_openai_sdk(config: LLMConfig) -> Any:
    """An `openai.OpenAI` client for the configured endpoint, SDK retries off."""
    import openai

    endpoint = config.openai
    # An empty OPENAI_BASE_URL (a CI variable left empty) is unset: the SDK would take "" as the URL.
    base_url = endpoint.base_url or os.environ.get("OPENAI_BASE_URL", "").strip() or None
    api_key = os.environ.get(endpoint.api_key_env) if endpoint.api_key_env else os.environ.get("OPENAI_API_KEY")
    if not api_key:
        if base_url is None:
            where = endpoint.api_key_env or "OPENAI_API_KEY"
            raise ConfigError(f"no API key for openai: set {where} (or llm.openai.base_url for a local server)")
        api_key = "not-needed"  # local servers (Ollama, vLLM, llama.cpp) take any key
    return openai.OpenAI(
        api_key=api_key,
        base_url=base_url or (OPENAI_DEFAULT_URL if "OPENAI_BASE_URL" in os.environ else None),
        max_retries=0,
        timeout=config.resilience.for_endpoint(
            is_local_url(base_url) if endpoint.local is None else endpoint.local).request_timeout_s,
        default_headers=endpoint.headers or None,
    )


class OpenAIClient(ProviderClient):
    def __init__(self, spec: ModelSpec, config: LLMConfig, *, sdk: Any | None = None) -> None:
        super().__init__(spec, config)
        self.sdk = sdk if sdk is not None else make_openai_sdk(config)
        self.endpoint = str(getattr(self.sdk, "base_url", "") or "")
        configured = config.openai.local
        self.local = is_local_url(self.endpoint) if configured is None else configured

    def build_params(self, request: LLMRequest) -> dict[str, Any]:
        cap = self.capability
        system = list(request.prefix)
        params: dict[str, Any] = {"model": self.spec.model}
        if request.schema is not None:
            if cap.json_schema:
                params["response_format"] = {
                    "type": "json_schema",
                    "json_schema": {
                        "name": schema_name(request.schema),
                        "schema": schema_json(request.schema),
                        "strict": self.config.strict_schema,
                    },
                }
            elif cap.json_object_schema:
                params["response_format"] = {"type": "json_object", "schema": schema_json(request.schema)}
            else:
                system.append(schema_instructions(request.schema))
                params["response_format"] = {"type": "json_object"}
        messages: list[dict[str, str]] = []
        if system:
            messages.append({"role": "system", "content": "\n\n".join(system)})
        messages.extend({"role": m.role, "content": m.content} for m in request.messages)
        params["messages"] = messages
        params[cap.max_tokens_param] = self.max_tokens(request)
        if cap.temperature:
            params["temperature"] = self.temperature(request)
        return params

    def complete(self, request: LLMRequest) -> LLMResponse:
        params = self.build_params(request)
        started = time.monotonic()
        with _sdk_errors(self.model):
            if self.resilience.stream:
                text, raw, usage = self._streamed(params, request)
            else:
                text, raw, usage = _read(self.sdk.chat.completions.create(**params, timeout=self.timeout(request)))
        if raw is None and not text:
            return self.finish(request, text="", finish_reason="stop", raw_finish_reason=None, usage=usage, started=started)
        return self.finish(
            request, text=text, finish_reason=_FINISH.get(raw or "stop", "other"),
            raw_finish_reason=raw, usage=usage, started=started,
        )

    def _streamed(self, params: dict[str, Any], request: LLMRequest) -> tuple[str, str | None, Usage]:
        """The answer as SSE chunks, timed on silence. Servers that report no usage in the stream
        (llama-cpp-python's) get it counted locally, marked `estimated`."""
        silence = self.silence(request)

        def open_stream() -> Any:
            return self.sdk.chat.completions.create(**params, stream=True, stream_options={"include_usage": True},
                                                    timeout=silence.socket_s)

        parts: list[str] = []
        raw: str | None = None
        usage: Usage | None = None
        for chunk in watch(open_stream, silence, model=self.model):
            if getattr(chunk, "usage", None) is not None:
                usage = _usage(chunk.usage)
            for choice in getattr(chunk, "choices", None) or []:
                delta = getattr(choice, "delta", None)
                if delta is not None and getattr(delta, "content", None):
                    parts.append(delta.content)
                raw = choice.finish_reason or raw
        if raw is None:  # llama.cpp's server ends a stream this way when another request arrives
            raise ProviderError(ErrorKind.SERVER, "the stream ended before the answer did (interrupted)",
                                model=self.model)
        if usage is None:
            usage = estimate_usage([m["content"] for m in params["messages"]], parts)
        return "".join(parts), raw, usage


@contextmanager
def _sdk_errors(model: str) -> Iterator[None]:
    """SDK exceptions → typed ProviderErrors (a stream's silence is already one)."""
    import openai

    try:
        yield
    except openai.APITimeoutError as exc:
        raise ProviderError(ErrorKind.TIMEOUT, str(exc), model=model) from exc
    except openai.APIConnectionError as exc:
        raise ProviderError(ErrorKind.CONNECTION, str(exc), model=model) from exc
    except openai.APIStatusError as exc:
        kind = classify_status(exc.status_code, exc.message, getattr(exc, "type", None), getattr(exc, "code", None))
        raise make_error(
            kind, exc.message, model=model, status=exc.status_code,
            retry_after=parse_retry_after(exc.response.headers),
        ) from exc
    except openai.OpenAIError as exc:  # malformed responses and the like
        raise ProviderError(ErrorKind.UNKNOWN, f"{type(exc).__name__}: {exc}", model=model) from exc


def _read(resp: Any) -> tuple[str, str | None, Usage]:
    """(text, raw finish reason, usage) of a non-streamed completion."""
    usage = _usage(getattr(resp, "usage", None))
    choices = getattr(resp, "choices", None) or []
    if not choices:
        return "", None, usage
    choice = choices[0]
    return (choice.message.content if choice.message else None) or "", choice.finish_reason, usage


def _usage(u: Any) -> Usage:
    if u is None:
        return Usage()
    details = getattr(u, "prompt_tokens_details", None)
    cached = (getattr(details, "cached_tokens", None) or 0) if details is not None else 0
    return Usage(
        input_tokens=getattr(u, "prompt_tokens", 0) or 0,
        output_tokens=getattr(u, "completion_tokens", 0) or 0,
        cache_read_tokens=cached,
    )
